//! Tabula's online client: a game followed from a server, a connection that reconnects by
//! itself and paces what it sends (a thread on the desktop and in the terminal, the
//! browser's WebSocket on the web), a client for one seat, and (outside the browser) a bot
//! that plays a seat unattended. The messages are `tabula-protocol`'s, re-exported here as
//! [`protocol`] for the front ends.

mod answers;
mod client;
mod connection;
mod followed;
pub mod sessions;
pub use tabula_protocol as protocol;
#[cfg(not(target_arch = "wasm32"))]
pub mod unattended;

pub use client::{Goal, OnlineClient, Update};
pub use connection::{Connection, Event, Wake, secrets_allowed, socket_url};
pub use followed::{Change, Followed};
