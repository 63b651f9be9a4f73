//! Online play shared by Tabula's clients and its server: the protocol's messages, a game
//! followed from a server, and (on the desktop and in the terminal) a connection that
//! reconnects by itself and a client that plays a seat.

#[cfg(not(target_arch = "wasm32"))]
mod client;
#[cfg(not(target_arch = "wasm32"))]
mod connection;
mod followed;
pub mod protocol;
#[cfg(not(target_arch = "wasm32"))]
pub mod unattended;

#[cfg(not(target_arch = "wasm32"))]
pub use client::{Goal, OnlineClient, Update};
#[cfg(not(target_arch = "wasm32"))]
pub use connection::{Connection, Event, socket_url};
pub use followed::{Change, Followed};
