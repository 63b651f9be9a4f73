//! Online play shared by Tabula's clients and its server: the protocol's messages, a game
//! followed from a server, a connection that reconnects by itself (a thread on the desktop
//! and in the terminal, the browser's WebSocket on the web), a client for one seat, and
//! (outside the browser) a bot that plays a seat unattended.

mod client;
mod connection;
mod followed;
pub mod protocol;
#[cfg(not(target_arch = "wasm32"))]
pub mod unattended;

pub use client::{Goal, OnlineClient, Update};
pub use connection::{Connection, Event, Wake, socket_url};
pub use followed::{Change, Followed};
