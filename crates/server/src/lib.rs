//! `tabula-server`: online games for every Tabula client.
//!
//! - [`accounts`] are players' names, passwords and sessions.
//! - [`store`] keeps games (SQLite by default, or PostgreSQL, which several server
//!   processes can share), durably, before anything is acknowledged.
//! - [`rooms`] holds the games this process has open; [`room`] is one game, checked by
//!   the rules through `tabula-session`.
//! - [`house`] is the server's own bots, which take the challenges nobody takes.
//! - [`turns`] tells each account of the games waiting for its move, and [`mail`] mails
//!   correspondence players.
//! - [`socket`] is one client's WebSocket, within the [`limits`].
//! - [`serve`] puts them behind axum, with the web build at `/` ([`web`]); [`http`]
//!   serves each connection, within a time for a request's head.

pub mod accounts;
pub mod codes;
pub mod command;
pub mod house;
pub mod http;
pub mod limits;
pub mod lobby;
pub mod mail;
pub mod rating_pages;
pub mod ratings;
pub mod room;
pub mod rooms;
pub mod socket;
pub mod store;
pub mod tls;
pub mod turns;
pub mod web;

use axum::Router;
use axum::extract::{ConnectInfo, State, WebSocketUpgrade};
use axum::response::IntoResponse;
use axum::routing::get;
use rooms::Rooms;
use std::future::Future;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use store::Store;
use tabula_protocol::{MAX_MESSAGE_BYTES, SOCKET_PATH};
use tokio::net::TcpListener;

/// Frames past this size close the connection at once; smaller ones over
/// [`MAX_MESSAGE_BYTES`] get an error and the connection goes on.
const HARD_MESSAGE_LIMIT: usize = MAX_MESSAGE_BYTES * 4;

/// How often the games nobody follows are let go from memory.
const FORGET_IDLE_EVERY: std::time::Duration = std::time::Duration::from_secs(60);

/// The database a server with no `--database` uses: `server.sqlite3` in Tabula's data
/// directory (`TABULA_DATA_DIR`, or `tabula` in the platform's data directory).
pub fn default_database() -> Result<String, String> {
    let dir = std::env::var_os("TABULA_DATA_DIR")
        .map(PathBuf::from)
        .or_else(|| dirs::data_dir().map(|d| d.join("tabula")))
        .ok_or("no data directory is known here: give --database sqlite://PATH")?;
    Ok(format!("sqlite://{}", dir.join("server.sqlite3").display()))
}

/// The server's routes over `rooms`.
pub fn router(rooms: Arc<Rooms>, dist: Option<PathBuf>) -> Router {
    let router = Router::new()
        .route(SOCKET_PATH, get(upgrade))
        .route("/health", get(|| async { "ok" }))
        .route(
            "/confirm-email",
            get(mail::confirm::confirm_page).post(mail::confirm::confirm_email),
        )
        .with_state(rooms);
    match dist {
        Some(dist) => router.fallback_service(web::web_build(dist)),
        None => router,
    }
}

async fn upgrade(
    ws: WebSocketUpgrade,
    State(rooms): State<Arc<Rooms>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
) -> impl IntoResponse {
    // Small buffers: thousands of quiet connections matter more than one busy one
    // (tungstenite's 128 KiB default was most of the memory a game took).
    ws.max_message_size(HARD_MESSAGE_LIMIT)
        .max_frame_size(HARD_MESSAGE_LIMIT)
        .read_buffer_size(4 * 1024)
        .write_buffer_size(0)
        .max_write_buffer_size(HARD_MESSAGE_LIMIT * 4)
        .on_upgrade(move |socket| socket::serve(socket, rooms, peer.ip()))
}

/// A server on a thread of its own, for tests and for a client that hosts its own games;
/// it stops when dropped.
pub struct Background {
    /// `http://HOST:PORT`, or `https://` with TLS.
    pub address: String,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Background {
    /// Serves `database` (see [`Store::open`]) on `listen` (`127.0.0.1:0`: any free port).
    pub fn start(database: &str, listen: &str) -> Result<Background, String> {
        Background::start_with(database, listen, Options::default())
    }

    /// As [`Background::start`], run as `options` say.
    pub fn start_with(
        database: &str,
        listen: &str,
        options: Options,
    ) -> Result<Background, String> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .map_err(|e| format!("cannot start: {e}"))?;
        let store = runtime.block_on(Store::open(database))?;
        let listener = runtime
            .block_on(TcpListener::bind(listen))
            .map_err(|e| format!("cannot listen on {listen}: {e}"))?;
        let address = listener.local_addr().map_err(|e| e.to_string())?;
        let scheme = if options.tls.is_some() {
            "https"
        } else {
            "http"
        };
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("tabula-server".into())
            .spawn(move || {
                runtime.block_on(async move {
                    // Dropping the runtime after this ends every connection at once.
                    tokio::select! {
                        _ = serve(listener, store, options, std::future::pending()) => {}
                        _ = stopped => {}
                    }
                });
            })
            .map_err(|e| format!("cannot start the server's thread: {e}"))?;
        Ok(Background {
            address: format!("{scheme}://{address}"),
            stop: Some(stop),
            thread: Some(thread),
        })
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// How a server runs, beside its store and address.
#[derive(Clone)]
pub struct Options {
    /// The web build to serve at `/`.
    pub dist: Option<PathBuf>,
    /// Games each address may create in an hour; 0 for any number.
    pub games_per_hour: u32,
    /// TLS, for a server that faces its players without a proxy.
    pub tls: Option<tokio_rustls::TlsAcceptor>,
    /// Attempts at a password (or a registration) each address may make in a minute; 0
    /// for any number.
    pub login_attempts: u32,
    /// The house bots, if the server runs them.
    pub house: Option<house::HouseSettings>,
    /// Mail for correspondence players, if the server sends it.
    pub mail: Option<mail::MailSettings>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            dist: None,
            games_per_hour: limits::GAMES_PER_HOUR,
            tls: None,
            login_attempts: accounts::throttle::ATTEMPTS_PER_MINUTE,
            house: None,
            mail: None,
        }
    }
}

/// Serves on `listener` until `shutdown` completes.
pub async fn serve(
    listener: TcpListener,
    store: Store,
    options: Options,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let accounts = accounts::Accounts::new(options.login_attempts);
    let rooms = Arc::new(Rooms::with_accounts(
        store,
        options.games_per_hour,
        accounts,
    ));
    if let Some(news) = rooms.store.news() {
        tokio::spawn(rooms.clone().follow_news(news));
    }
    tokio::spawn(turns::learn_unknown_turns(rooms.store.clone()));
    if let Some(settings) = &options.mail {
        let mailer =
            mail::Mailer::new(settings, rooms.store.clone()).map_err(std::io::Error::other)?;
        rooms.turns.set_mailer(Arc::new(mailer));
    }
    if let Some(settings) = options.house {
        house::House::start(rooms.clone(), settings)
            .await
            .map_err(std::io::Error::other)?;
    }
    let sweeper = rooms.clone();
    tokio::spawn(async move {
        let mut every = tokio::time::interval(FORGET_IDLE_EVERY);
        loop {
            every.tick().await;
            sweeper.forget_idle();
            sweeper.creations.forget_rested();
            sweeper.accounts.throttle.forget_rested();
        }
    });
    http::serve(listener, router(rooms, options.dist), options.tls, shutdown).await
}
