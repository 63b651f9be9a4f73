//! `tabula-load`: many games at once against a running `tabula-server`, over loopback.
//!
//! Each game is two WebSocket clients that pick random legal moves, each waiting
//! `--move-ms` before its move. Reports the games under way, moves a second, the latency
//! from a move sent to the opponent receiving it (p50, p99), and, given the server's
//! process id, its memory per game. With `--guest-server`, each game's second player
//! plays through another server process (on the same PostgreSQL database), so every move
//! crosses between the two. With `--house-games N`, N accounts play the server's house bot
//! `--house-bot` meanwhile (answering at once, so its searches never rest), to measure
//! whether the bots' thinking delays the other games' moves. With `--accounts N`, the
//! lobby instead: see [`lobby`].

mod house;
mod lobby;

use futures_util::{SinkExt, StreamExt};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tabula_bot::BotSpec;
use tabula_online::Followed;
use tabula_online::protocol::{ClientMsg, Pace, ServerMsg};
use tokio_tungstenite::tungstenite::Message;

const USAGE: &str =
    "usage: tabula-load --server URL [--guest-server URL] [--games N] [--move-ms MS]
                   [--seconds S] [--game GAME] [--option k=v]... [--server-pid PID]
                   [--house-games N [--house-bot NAME]]
       tabula-load --server URL [--guest-server URL] --accounts N [--open-challenges C]
                   [--accepts A] [--lobby-followers F] [--seconds S] [--game GAME]
                   [--server-pid PID]

  --house-games N  N accounts play the server's house bot NAME (default Masterbot)
                   meanwhile, each answering its moves at once; the server needs
                   --house-bots, and --login-attempts 0 for more than 20 accounts
  --accounts N     the lobby: N accounts register and stay connected; C of them
                   (1000) keep a challenge open, A a second (500) are accepted by
                   others (through --guest-server if given) and resigned at once, F
                   (0) follow the lobby; the server needs --login-attempts 0 and
                   --games-per-hour 0";

/// The lobby's load (`--accounts`).
struct LobbyOptions {
    accounts: usize,
    open_challenges: usize,
    accepts: usize,
    followers: usize,
}

struct Options {
    server: String,
    guest_server: Option<String>,
    games: usize,
    move_ms: u64,
    seconds: u64,
    game: String,
    settings: Vec<(String, String)>,
    server_pid: Option<u32>,
    /// Games against the house bot, played beside the measured ones.
    house_games: usize,
    house_bot: String,
    lobby: LobbyOptions,
}

#[derive(Default)]
struct Tally {
    /// Moves the opponent received while measuring.
    moves: AtomicU64,
    /// Latencies in microseconds, while measuring.
    latencies: Mutex<Vec<u32>>,
    started: AtomicUsize,
    errors: AtomicUsize,
    finished: AtomicUsize,
    measuring: std::sync::atomic::AtomicBool,
}

fn parse(words: &[String]) -> Result<Options, String> {
    let mut options = Options {
        server: String::new(),
        guest_server: None,
        games: 100,
        move_ms: 1000,
        seconds: 20,
        game: "adomoc".into(),
        settings: Vec::new(),
        server_pid: None,
        house_games: 0,
        house_bot: "Masterbot".into(),
        lobby: LobbyOptions {
            accounts: 0,
            open_challenges: 1000,
            accepts: 500,
            followers: 0,
        },
    };
    let mut words = words.iter();
    while let Some(flag) = words.next() {
        let value = words.next().ok_or(format!("{flag} needs a value"))?;
        let number = |v: &str| {
            v.parse::<u64>()
                .map_err(|_| format!("{flag}: {v:?} is not a number"))
        };
        match flag.as_str() {
            "--server" => options.server = value.clone(),
            "--guest-server" => options.guest_server = Some(value.clone()),
            "--games" => options.games = number(value)? as usize,
            "--move-ms" => options.move_ms = number(value)?,
            "--seconds" => options.seconds = number(value)?,
            "--game" => options.game = value.clone(),
            "--option" => {
                let (k, v) = value.split_once('=').ok_or("--option takes key=value")?;
                options.settings.push((k.into(), v.into()));
            }
            "--server-pid" => options.server_pid = Some(number(value)? as u32),
            "--house-games" => options.house_games = number(value)? as usize,
            "--house-bot" => options.house_bot = value.clone(),
            "--accounts" => options.lobby.accounts = number(value)? as usize,
            "--open-challenges" => options.lobby.open_challenges = number(value)? as usize,
            "--accepts" => options.lobby.accepts = number(value)? as usize,
            "--lobby-followers" => options.lobby.followers = number(value)? as usize,
            _ => return Err(format!("unknown flag {flag}")),
        }
    }
    if options.server.is_empty() {
        return Err("--server URL is needed".into());
    }
    Ok(options)
}

/// The server's resident memory in bytes, from /proc.
fn resident_bytes(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn connect(url: &str) -> Result<Socket, String> {
    // TCP_NODELAY, as every Tabula client: a move's small frame goes out at once.
    let (socket, _) = tokio_tungstenite::connect_async_with_config(url, None, true)
        .await
        .map_err(|e| format!("connect: {e}"))?;
    Ok(socket)
}

async fn send(socket: &mut Socket, msg: &ClientMsg) -> Result<(), String> {
    socket
        .send(Message::text(msg.to_json()))
        .await
        .map_err(|e| e.to_string())
}

async fn receive(socket: &mut Socket) -> Result<ServerMsg, String> {
    loop {
        match socket.next().await {
            Some(Ok(Message::Text(text))) => return ServerMsg::from_json(&text),
            Some(Ok(_)) => continue,
            Some(Err(e)) => return Err(e.to_string()),
            None => return Err("closed".into()),
        }
    }
}

/// The next message for which `wanted` holds; an error message is the error.
async fn answer(
    socket: &mut Socket,
    wanted: impl Fn(&ServerMsg) -> bool,
) -> Result<ServerMsg, String> {
    loop {
        match receive(socket).await? {
            ServerMsg::Error { message, .. } => return Err(message),
            msg if wanted(&msg) => return Ok(msg),
            _ => {}
        }
    }
}

/// The game this connection holds a seat in, once its state comes.
async fn seated_game(socket: &mut Socket) -> Result<Followed, String> {
    match answer(
        socket,
        |m| matches!(m, ServerMsg::State(s) if s.your_seat.is_some()),
    )
    .await?
    {
        ServerMsg::State(state) => Followed::from_state(*state),
        _ => unreachable!(),
    }
}

/// When each game's last move was sent, for the opponent to time its arrival.
type Sent = Arc<Mutex<Option<(usize, Instant)>>>;

/// One seat: plays random moves until the game ends.
async fn play_seat(
    socket: &mut Socket,
    mut game: Followed,
    sent: Sent,
    tally: Arc<Tally>,
    move_ms: u64,
    seed: u64,
) -> Result<(), String> {
    let random = BotSpec::Random;
    let mut turn = 0u64;
    // The ply of the move sent and not yet seen stored, so it is sent once.
    let mut sent_ply = None;
    loop {
        if game.is_over() {
            tally.finished.fetch_add(1, Ordering::Relaxed);
            return Ok(());
        }
        if game.is_my_turn() && sent_ply != Some(game.state.moves.len()) {
            // Spread the moves out, so they do not all come on the same tick.
            if move_ms > 0 {
                let jitter = (seed.wrapping_mul(31).wrapping_add(turn * 17)) % (move_ms / 4 + 1);
                tokio::time::sleep(Duration::from_millis(move_ms - move_ms / 8 + jitter)).await;
            }
            turn += 1;
            let text = game
                .game
                .thinker(&random, seed ^ turn)
                .best_move()
                .ok_or("no move")?;
            let ply = game.state.moves.len();
            sent_ply = Some(ply);
            *sent.lock().unwrap() = Some((ply, Instant::now()));
            send(socket, &ClientMsg::Move { ply, text }).await?;
        }
        // Until the game changes.
        loop {
            let msg = receive(socket).await?;
            if let ServerMsg::Error { message, .. } = &msg {
                return Err(message.clone());
            }
            if let ServerMsg::Moved { ply, seat, .. } = &msg
                && Some(*seat) != game.state.your_seat
                && tally.measuring.load(Ordering::Relaxed)
            {
                if let Some((sent_ply, at)) = *sent.lock().unwrap()
                    && sent_ply == *ply
                {
                    let micros = at.elapsed().as_micros().min(u32::MAX as u128) as u32;
                    tally.latencies.lock().unwrap().push(micros);
                }
                tally.moves.fetch_add(1, Ordering::Relaxed);
            }
            let before = game.state.moves.len();
            game.apply(&msg)?;
            if game.state.moves.len() != before || matches!(msg, ServerMsg::State(_)) {
                break;
            }
        }
    }
}

/// Creates and joins one game, then plays both seats.
async fn start_game(
    url: String,
    guest_url: String,
    options: Arc<Options>,
    tally: Arc<Tally>,
    index: u64,
) -> Result<(), String> {
    let mut host = connect(&url).await?;
    send(
        &mut host,
        &ClientMsg::Create {
            game: options.game.clone(),
            settings: options.settings.clone(),
            seat: 0,
            pace: Pace::Live,
            move_seconds: None,
            rated: false,
        },
    )
    .await?;
    let code = match answer(&mut host, |m| matches!(m, ServerMsg::Seated { .. })).await? {
        ServerMsg::Seated { code, .. } => code,
        _ => unreachable!(),
    };
    let mut guest = connect(&guest_url).await?;
    send(&mut guest, &ClientMsg::Join { code }).await?;
    let mut games = Vec::new();
    for socket in [&mut host, &mut guest] {
        games.push(seated_game(socket).await?);
    }
    tally.started.fetch_add(1, Ordering::Relaxed);
    let sent: Sent = Arc::new(Mutex::new(None));
    let guest_game = games.pop().expect("two seats");
    let host_game = games.pop().expect("two seats");
    let (guest_sent, guest_tally, move_ms) = (sent.clone(), tally.clone(), options.move_ms);
    let other = tokio::spawn(async move {
        let mut guest = guest;
        play_seat(
            &mut guest,
            guest_game,
            guest_sent,
            guest_tally,
            move_ms,
            index * 2 + 1,
        )
        .await
    });
    let mine = play_seat(
        &mut host,
        host_game,
        sent,
        tally,
        options.move_ms,
        index * 2,
    )
    .await;
    other.await.map_err(|e| e.to_string())??;
    mine
}

fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[index] as f64 / 1000.0
}

fn main() {
    let words: Vec<String> = std::env::args().skip(1).collect();
    let options = match parse(&words) {
        Ok(options) => Arc::new(options),
        Err(e) => {
            eprintln!("error: {e}\n\n{USAGE}");
            std::process::exit(2);
        }
    };
    let socket_url = |server: &str| match tabula_online::socket_url(server) {
        Ok(url) => url,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let url = socket_url(&options.server);
    let guest_url = socket_url(options.guest_server.as_deref().unwrap_or(&options.server));
    let runtime = tokio::runtime::Runtime::new().expect("a tokio runtime");
    if options.lobby.accounts > 0 {
        runtime.block_on(lobby::run(url, guest_url, options));
    } else {
        runtime.block_on(run(url, guest_url, options));
    }
}

async fn run(url: String, guest_url: String, options: Arc<Options>) {
    let tally = Arc::new(Tally::default());
    // The house games first, so the bots are busy before the measured games begin.
    let house = Arc::new(Tally::default());
    for index in 0..options.house_games as u64 {
        let (url, options, house) = (url.clone(), options.clone(), house.clone());
        tokio::spawn(async move {
            if let Err(e) = house::against_the_house(url, options, house.clone(), index).await
                && house.errors.fetch_add(1, Ordering::Relaxed) < 5
            {
                eprintln!("house game {index}: {e}");
            }
        });
    }
    while house.started.load(Ordering::Relaxed) + house.errors.load(Ordering::Relaxed)
        < options.house_games
    {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let memory_before = options.server_pid.and_then(resident_bytes);
    let ramp = Instant::now();
    // Games start a few at a time, as players would arrive, not all in one instant.
    for index in 0..options.games as u64 {
        let (url, guest_url) = (url.clone(), guest_url.clone());
        let (options, tally) = (options.clone(), tally.clone());
        tokio::spawn(async move {
            if let Err(e) = start_game(url, guest_url, options, tally.clone(), index).await
                && tally.errors.fetch_add(1, Ordering::Relaxed) < 5
            {
                eprintln!("game {index}: {e}");
            }
        });
        if index % 50 == 49 {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
    while tally.started.load(Ordering::Relaxed) + tally.errors.load(Ordering::Relaxed)
        < options.games
    {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    println!(
        "{} games started in {:.1} s ({} failed)",
        tally.started.load(Ordering::Relaxed),
        ramp.elapsed().as_secs_f64(),
        tally.errors.load(Ordering::Relaxed)
    );
    // Let the moves settle into their rhythm, then measure.
    tokio::time::sleep(Duration::from_millis(options.move_ms * 2)).await;
    let memory_during = options.server_pid.and_then(resident_bytes);
    tally.measuring.store(true, Ordering::Relaxed);
    house.measuring.store(true, Ordering::Relaxed);
    let start = Instant::now();
    tokio::time::sleep(Duration::from_secs(options.seconds)).await;
    tally.measuring.store(false, Ordering::Relaxed);
    house.measuring.store(false, Ordering::Relaxed);
    let elapsed = start.elapsed().as_secs_f64();
    let moves = tally.moves.load(Ordering::Relaxed);
    let mut latencies = std::mem::take(&mut *tally.latencies.lock().unwrap());
    latencies.sort_unstable();
    let under_way =
        tally.started.load(Ordering::Relaxed) - tally.finished.load(Ordering::Relaxed) / 2;
    println!("games under way: {under_way}");
    println!("moves a second: {:.0}", moves as f64 / elapsed);
    println!(
        "latency, move sent to opponent told: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms ({} samples)",
        percentile(&latencies, 0.5),
        percentile(&latencies, 0.99),
        percentile(&latencies, 1.0),
        latencies.len()
    );
    if let (Some(before), Some(during)) = (memory_before, memory_during) {
        println!(
            "server memory: {:.1} MB before, {:.1} MB with the games: {:.1} KB a game",
            before as f64 / 1e6,
            during as f64 / 1e6,
            during.saturating_sub(before) as f64 / options.games as f64 / 1e3
        );
    }
    println!("errors: {}", tally.errors.load(Ordering::Relaxed));
    if options.house_games > 0 {
        println!(
            "house games: {} under way against {}, its moves a second: {:.1} ({} errors)",
            house.started.load(Ordering::Relaxed),
            options.house_bot,
            house.moves.load(Ordering::Relaxed) as f64 / elapsed,
            house.errors.load(Ordering::Relaxed)
        );
    }
}
