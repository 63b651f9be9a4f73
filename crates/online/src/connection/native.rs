//! A WebSocket to a server on a thread of its own, which reconnects by itself and paces
//! what it sends: the desktop app polls it each frame and the terminal waits on it.

use super::{Event, Wake, secrets_allowed, socket_url};
use crate::protocol::bucket::Bucket;
use crate::protocol::{ClientMsg, MAX_SERVER_MESSAGE_BYTES, SILENT_SECONDS, ServerMsg};
use std::net::{TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, TryRecvError, channel};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};
use tungstenite::protocol::WebSocketConfig;
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Connector, Message, WebSocket};

type Socket = WebSocket<MaybeTlsStream<TcpStream>>;

pub struct Connection {
    outgoing: Sender<String>,
    // In a mutex only so that a client can live in shared state (a Bevy resource).
    incoming: Mutex<Receiver<Event>>,
    stop: Arc<AtomicBool>,
    /// Whether passwords and sessions may be sent here, and where refusals are reported.
    secrets: Result<(), String>,
    refusals: Sender<Event>,
}

/// How long a read waits before the thread looks for messages to send.
const POLL: Duration = Duration::from_millis(10);
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
const FIRST_RETRY: Duration = Duration::from_millis(100);
const LAST_RETRY: Duration = Duration::from_secs(5);

impl Connection {
    /// Starts connecting to `server`; [`Event::Connected`] comes when it is up, and
    /// `wake` (if any) is called after each event is ready to be taken.
    pub fn open(server: &str, wake: Option<Wake>) -> Result<Connection, String> {
        let url = socket_url(server)?;
        let secrets = secrets_allowed(&url);
        let (outgoing, to_send) = channel::<String>();
        let (report, incoming) = channel();
        let refusals = report.clone();
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = stop.clone();
        thread::Builder::new()
            .name("tabula-online".into())
            .spawn(move || {
                let report = Reporter { report, wake };
                keep_connected(&url, &to_send, &report, &stopped)
            })
            .map_err(|e| format!("cannot start the connection's thread: {e}"))?;
        Ok(Connection {
            outgoing,
            incoming: Mutex::new(incoming),
            stop,
            secrets,
            refusals,
        })
    }

    /// Sends `msg`; one that carries a password or a session, to a server it may not go
    /// to, is refused here with an error event instead.
    pub fn send(&self, msg: &ClientMsg) {
        if let (true, Err(why)) = (msg.carries_secret(), &self.secrets) {
            let _ = self
                .refusals
                .send(Event::Message(ServerMsg::error(why.clone())));
            return;
        }
        // The thread only ends when this connection is dropped.
        let _ = self.outgoing.send(msg.to_json());
    }

    /// Sends text as it is (for tests of what a server does with bad messages).
    pub fn send_raw(&self, text: String) {
        let _ = self.outgoing.send(text);
    }

    pub fn try_next(&self) -> Option<Event> {
        self.incoming.lock().ok()?.try_recv().ok()
    }

    pub fn next_timeout(&self, wait: Duration) -> Option<Event> {
        self.incoming.lock().ok()?.recv_timeout(wait).ok()
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// Hands events to the connection's owner and wakes it.
struct Reporter {
    report: Sender<Event>,
    wake: Option<Wake>,
}

impl Reporter {
    /// False once the owner is gone.
    fn send(&self, event: Event) -> Result<(), ()> {
        self.report.send(event).map_err(|_| ())?;
        if let Some(wake) = &self.wake {
            wake();
        }
        Ok(())
    }
}

fn keep_connected(url: &str, to_send: &Receiver<String>, report: &Reporter, stop: &AtomicBool) {
    let mut retry = FIRST_RETRY;
    while !stop.load(Ordering::Relaxed) {
        match connect(url) {
            Ok(mut socket) => {
                retry = FIRST_RETRY;
                // What was queued while down was meant for the old connection.
                while to_send.try_recv().is_ok() {}
                if report.send(Event::Connected).is_err() {
                    return;
                }
                let why = talk(&mut socket, to_send, report, stop);
                let _ = socket.close(None);
                if stop.load(Ordering::Relaxed) || report.send(Event::Disconnected(why)).is_err() {
                    return;
                }
            }
            Err(why) => {
                if report.send(Event::Disconnected(why)).is_err() {
                    return;
                }
            }
        }
        thread::sleep(retry);
        retry = (retry * 2).min(LAST_RETRY);
    }
}

fn connect(url: &str) -> Result<Socket, String> {
    let (secure, rest) = match (url.strip_prefix("wss://"), url.strip_prefix("ws://")) {
        (Some(rest), _) => (true, rest),
        (None, Some(rest)) => (false, rest),
        _ => return Err(format!("{url}: not a ws:// or wss:// address")),
    };
    let host = rest.split('/').next().unwrap_or_default();
    let address = with_port(host, if secure { 443 } else { 80 })
        .to_socket_addrs()
        .map_err(|e| format!("cannot find {host}: {e}"))?
        .next()
        .ok_or_else(|| format!("cannot find {host}"))?;
    let stream = TcpStream::connect_timeout(&address, CONNECT_TIMEOUT)
        .map_err(|e| format!("cannot reach {host}: {e}"))?;
    let _ = stream.set_nodelay(true);
    // The handshakes (TLS, then WebSocket) wait no longer than a connection may.
    stream
        .set_read_timeout(Some(CONNECT_TIMEOUT))
        .map_err(|e| e.to_string())?;
    let config = WebSocketConfig::default()
        .max_message_size(Some(MAX_SERVER_MESSAGE_BYTES))
        .max_frame_size(Some(MAX_SERVER_MESSAGE_BYTES));
    let connector = if secure {
        Connector::Rustls(super::tls::client_config()?)
    } else {
        Connector::Plain
    };
    let (socket, _) =
        tungstenite::client_tls_with_config(url, stream, Some(config), Some(connector))
            .map_err(|e| format!("{host} did not answer as a Tabula server: {e}"))?;
    tcp(&socket)
        .set_read_timeout(Some(POLL))
        .map_err(|e| e.to_string())?;
    Ok(socket)
}

/// `host` with `port` added if it names none (`NAME`, `[IPv6]`).
fn with_port(host: &str, port: u16) -> String {
    let has_port = match host.rfind(']') {
        Some(end) => host[end..].contains(':'),
        None => host.contains(':'),
    };
    if has_port {
        host.to_string()
    } else {
        format!("{host}:{port}")
    }
}

/// The TCP connection under the socket, TLS or not.
fn tcp(socket: &Socket) -> &TcpStream {
    match socket.get_ref() {
        MaybeTlsStream::Rustls(tls) => tls.get_ref(),
        MaybeTlsStream::Plain(stream) => stream,
        // MaybeTlsStream is non-exhaustive; this client builds no other kind.
        _ => unreachable!("only plain and rustls streams are made here"),
    }
}

/// Sends and receives until the connection ends; returns why it did.
fn talk(
    socket: &mut Socket,
    to_send: &Receiver<String>,
    report: &Reporter,
    stop: &AtomicBool,
) -> String {
    let mut last_heard = Instant::now();
    // Under the server's rate, so that nothing sent is refused for it; a message over the
    // pace waits here, in order, while the socket is read.
    let mut pace = Bucket::client_pace(Instant::now());
    let mut held: Option<String> = None;
    loop {
        if stop.load(Ordering::Relaxed) {
            return "closed".into();
        }
        // The server pings every PING_SECONDS: this long without a word, it is gone.
        if last_heard.elapsed() > Duration::from_secs(SILENT_SECONDS) {
            return format!("nothing heard from the server for {SILENT_SECONDS} s");
        }
        loop {
            let text = match held.take().map_or_else(|| to_send.try_recv(), Ok) {
                Ok(text) => text,
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => return "closed".into(),
            };
            if !pace.take(Instant::now()) {
                held = Some(text);
                break;
            }
            if let Err(e) = socket.send(Message::text(text)) {
                return format!("sending: {e}");
            }
        }
        let read = socket.read();
        if read.is_ok() {
            last_heard = Instant::now();
        }
        match read {
            Ok(Message::Text(text)) => {
                let event = match ServerMsg::from_json(&text) {
                    Ok(msg) => Event::Message(msg),
                    Err(e) => Event::Message(ServerMsg::error(e)),
                };
                if report.send(event).is_err() {
                    return "closed".into();
                }
            }
            Ok(Message::Close(frame)) => {
                return match frame {
                    Some(frame) if !frame.reason.is_empty() => {
                        format!("the server closed the connection: {}", frame.reason)
                    }
                    _ => "the server closed the connection".into(),
                };
            }
            Ok(_) => {}
            Err(tungstenite::Error::Io(e))
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(e) => return format!("connection lost: {e}"),
        }
    }
}
