//! A WebSocket to a server that reconnects by itself: a thread of its own on the desktop
//! and in the terminal, the browser's own WebSocket on the web.

#[cfg(target_arch = "wasm32")]
mod browser;
#[cfg(not(target_arch = "wasm32"))]
mod native;
#[cfg(not(target_arch = "wasm32"))]
pub mod tls;

#[cfg(target_arch = "wasm32")]
pub use browser::Connection;
#[cfg(not(target_arch = "wasm32"))]
pub use native::Connection;

use crate::protocol::{SOCKET_PATH, ServerMsg};
use std::sync::Arc;
use tabula_session::rules::text::quoted;

impl Connection {
    /// Everything that has arrived, without waiting: what a frame of the app takes in.
    pub fn drain(&self) -> Vec<Event> {
        std::iter::from_fn(|| self.try_next()).collect()
    }
}

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

/// The WebSocket address of a server given as `host:port`, `http://host:port`,
/// `ws://host:port[/ws]`, or encrypted as `https://…` or `wss://…` (the browser speaks TLS
/// itself; elsewhere rustls does, see [`tls`]).
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
    check_host(host).map_err(|why| format!("{}: {why}", quoted(server)))?;
    let scheme = if secure { "wss" } else { "ws" };
    Ok(format!("{scheme}://{host}{SOCKET_PATH}"))
}

/// Whether a password or a session may go to the socket at `url` (from [`socket_url`]):
/// only encrypted (`wss://`), or to this machine, where nobody else is on the way.
pub fn secrets_allowed(url: &str) -> Result<(), String> {
    if url.starts_with("wss://") {
        return Ok(());
    }
    let rest = url.strip_prefix("ws://").unwrap_or(url);
    let host = rest.split('/').next().unwrap_or_default();
    let name = match host.strip_prefix('[') {
        Some(inside) => inside.split(']').next().unwrap_or_default(),
        None => host.split(':').next().unwrap_or_default(),
    };
    let loopback = name.eq_ignore_ascii_case("localhost")
        || name
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback());
    if loopback {
        Ok(())
    } else {
        Err(format!(
            "not sent: a password or a session goes only over an encrypted connection \
             (https://) or to this machine, and {} is neither",
            quoted(host)
        ))
    }
}

/// Whether `host` (`NAME`, `NAME:PORT`, `[IPv6]` or `[IPv6]:PORT`) can name a server; an
/// address that cannot is refused at once with the reason, rather than tried for ever.
fn check_host(host: &str) -> Result<(), String> {
    let (name, port) = if let Some(rest) = host.strip_prefix('[') {
        let (inside, after) = rest
            .split_once(']')
            .ok_or("an IPv6 address without its closing ]")?;
        inside
            .parse::<std::net::Ipv6Addr>()
            .map_err(|_| format!("{} is not an IPv6 address", quoted(inside)))?;
        match after {
            "" => (inside, None),
            _ => (
                inside,
                Some(after.strip_prefix(':').ok_or("only :PORT may follow ]")?),
            ),
        }
    } else {
        match host.split_once(':') {
            Some((name, port)) => (name, Some(port)),
            None => (host, None),
        }
    };
    if let Some(port) = port
        && !port.parse::<u16>().is_ok_and(|port| port > 0)
    {
        return Err(format!(
            "{} is not a port (a number from 1 to 65535)",
            quoted(port)
        ));
    }
    let is_name_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_');
    if !host.starts_with('[') && (name.is_empty() || !name.chars().all(is_name_char)) {
        return Err(format!(
            "{} is not a host name or address (http://HOST:PORT)",
            quoted(name)
        ));
    }
    Ok(())
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
        assert_eq!(
            socket_url("https://example.org").unwrap(),
            "wss://example.org/ws"
        );
        assert_eq!(
            socket_url("wss://localhost:8443/ws").unwrap(),
            "wss://localhost:8443/ws"
        );
        assert!(
            socket_url("ftp://x")
                .unwrap_err()
                .contains("not a server address")
        );
        assert!(socket_url("http://").unwrap_err().contains("no host"));
        assert_eq!(
            socket_url("http://[::1]:8080").unwrap(),
            "ws://[::1]:8080/ws"
        );
        assert_eq!(
            socket_url("tabula.example_1").unwrap(),
            "ws://tabula.example_1/ws"
        );
    }

    #[test]
    fn passwords_go_only_encrypted_or_to_this_machine() {
        use super::secrets_allowed;
        for url in [
            "ws://127.0.0.1:8080/ws",
            "ws://127.8.0.1:1/ws",
            "ws://localhost:9000/ws",
            "ws://[::1]:8080/ws",
            "wss://tabula.example.org/ws",
        ] {
            assert_eq!(secrets_allowed(url), Ok(()), "{url}");
        }
        for url in [
            "ws://192.168.1.20:8080/ws",
            "ws://tabula.example.org/ws",
            "ws://localhost.example.org/ws",
            "ws://[::2]:8080/ws",
        ] {
            let err = secrets_allowed(url).unwrap_err();
            assert!(err.contains("encrypted"), "{url}: {err}");
        }
    }

    /// The reproducer: two addresses pasted together once left the lobby reconnecting for
    /// ever ("cannot find 127.0.0.1:808ahttp:: invalid port value").
    #[test]
    fn an_address_that_cannot_work_is_refused_with_its_reason() {
        let refused = |address: &str, why: &str| {
            let err = socket_url(address).unwrap_err();
            assert!(err.contains(why), "{address}: {err}");
        };
        refused(
            "http://127.0.0.1:808ahttp://127.0.0.1:18080",
            "\"808ahttp:\" is not a port",
        );
        refused("127.0.0.1:0", "is not a port");
        refused("127.0.0.1:65536", "is not a port");
        refused("localhost:", "\"\" is not a port");
        refused("http://:8080", "is not a host name");
        refused("exa mple.org", "is not a host name");
        refused("http://[::1", "closing ]");
        refused("http://[::g]:1", "is not an IPv6 address");
        refused("http://[::1]x", "only :PORT");
    }
}
