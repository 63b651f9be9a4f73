//! A WebSocket to a server that reconnects by itself: a thread of its own on the desktop
//! and in the terminal, the browser's own WebSocket on the web.

#[cfg(target_arch = "wasm32")]
mod browser;
#[cfg(not(target_arch = "wasm32"))]
mod native;

#[cfg(target_arch = "wasm32")]
pub use browser::Connection;
#[cfg(not(target_arch = "wasm32"))]
pub use native::Connection;

use crate::protocol::{SOCKET_PATH, ServerMsg};
use std::sync::Arc;
use tabula_session::rules::text::quoted;

/// What the connection reports.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// Connected (again): messages sent before this were dropped.
    Connected,
    Message(ServerMsg),
    /// The connection was lost or could not be made; it is tried again after a pause.
    Disconnected(String),
}

/// Called whenever an event is ready to be taken, so a front end that sleeps until
/// something happens (the app draws only on input) wakes up to take it.
pub type Wake = Arc<dyn Fn() + Send + Sync>;

/// The WebSocket address of a server given as `host:port`, `http://host:port` or
/// `ws://host:port[/ws]`. In the browser, `https://` and `wss://` too: the browser
/// speaks TLS itself.
pub fn socket_url(server: &str) -> Result<String, String> {
    let server = server.trim();
    let (secure, rest) = if let Some(rest) = server
        .strip_prefix("http://")
        .or_else(|| server.strip_prefix("ws://"))
    {
        (false, rest)
    } else if let Some(rest) = server
        .strip_prefix("https://")
        .or_else(|| server.strip_prefix("wss://"))
    {
        if !cfg!(target_arch = "wasm32") {
            return Err(format!(
                "{}: this client speaks plain ws:// and http:// only; put the server \
                 behind the same address without TLS, or use the browser version",
                quoted(server)
            ));
        }
        (true, rest)
    } else if server.contains("://") {
        return Err(format!(
            "{}: not a server address (http://HOST:PORT)",
            quoted(server)
        ));
    } else {
        (false, server)
    };
    let host = rest.split('/').next().unwrap_or_default().trim();
    if host.is_empty() {
        return Err(format!("{}: no host in the server address", quoted(server)));
    }
    // A host name or address prints and has no spaces; anything else is no server.
    if host.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(format!(
            "{}: not a server address (http://HOST:PORT)",
            quoted(server)
        ));
    }
    let scheme = if secure { "wss" } else { "ws" };
    Ok(format!("{scheme}://{host}{SOCKET_PATH}"))
}

#[cfg(test)]
mod tests {
    use super::socket_url;

    #[test]
    fn server_addresses_become_socket_addresses() {
        assert_eq!(
            socket_url("http://127.0.0.1:8080").unwrap(),
            "ws://127.0.0.1:8080/ws"
        );
        assert_eq!(
            socket_url("localhost:9000/").unwrap(),
            "ws://localhost:9000/ws"
        );
        assert_eq!(socket_url("ws://h:1/ws").unwrap(), "ws://h:1/ws");
        assert!(
            socket_url("https://example.org")
                .unwrap_err()
                .contains("TLS")
        );
        assert!(
            socket_url("ftp://x")
                .unwrap_err()
                .contains("not a server address")
        );
        assert!(socket_url("http://").unwrap_err().contains("no host"));
    }
}
