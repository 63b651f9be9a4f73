//! `--accounts N`: the lobby under load. N accounts register (each an Argon2 hash, so the
//! time they take is the server's bound on logins a second) and stay connected. The first
//! `--open-challenges` of them each keep one challenge open in the lobby, posting again as
//! soon as theirs is taken; `--accepts` a second are taken by other accounts (each at most
//! four a second, under a connection's message limit), which resign the game at once so
//! that games do not pile up; `--lobby-followers` more follow the lobby, as players looking
//! at it; the rest only stay connected. Reports the time from an accept sent to both
//! players seated (the taker's `state`, and the poster's after its `challenge_accepted`
//! and `resume`), and the server's memory per connected account.

use super::{Options, Socket, answer, connect, percentile, receive, resident_bytes, send};
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tabula_online::protocol::{ChallengeTerms, ClientMsg, Pace, ServerMsg};

/// Accepts a second one taking account makes at most: with its resignation after each,
/// eight messages a second, well under the server's twenty.
const ACCEPTS_PER_TAKER: f64 = 4.0;

/// Registrations under way at once: the server hashes one a core, so more only queue.
const REGISTERING_AT_ONCE: usize = 8;

/// Shared between the lobby's accounts.
#[derive(Default)]
struct Board {
    /// Challenges posted and not yet handed to a taker.
    open: Mutex<VecDeque<String>>,
    /// When each accept was sent, and who of the two is seated so far.
    pending: Mutex<HashMap<String, Pending>>,
    /// From an accept sent to both seated, microseconds, while measuring.
    latencies: Mutex<Vec<u32>>,
    measuring: AtomicBool,
    accepted: AtomicU64,
    /// A taker's turn came and no challenge was open.
    starved: AtomicU64,
    errors: AtomicUsize,
    /// Lobby messages the followers received while measuring.
    news: AtomicU64,
}

struct Pending {
    sent: Instant,
    seated: u8,
}

impl Board {
    fn error(&self, what: &str) {
        if self.errors.fetch_add(1, Ordering::Relaxed) < 5 {
            eprintln!("lobby: {what}");
        }
    }

    /// One of the two players of challenge `id` is seated; the second ends its timing.
    fn seated(&self, id: &str) {
        let mut pending = self.pending.lock().unwrap();
        let Some(p) = pending.get_mut(id) else {
            return;
        };
        p.seated += 1;
        if p.seated == 2 {
            let micros = p.sent.elapsed().as_micros().min(u32::MAX as u128) as u32;
            pending.remove(id);
            if self.measuring.load(Ordering::Relaxed) {
                self.latencies.lock().unwrap().push(micros);
                self.accepted.fetch_add(1, Ordering::Relaxed);
            }
        }
    }
}

/// Sends `msg` on a new connection: the session its `logged_in` answer gives, and the
/// connection, logged in.
async fn log_in(url: &str, msg: ClientMsg) -> Result<(String, Socket), String> {
    let mut socket = connect(url).await?;
    send(&mut socket, &msg).await?;
    match answer(&mut socket, |m| matches!(m, ServerMsg::LoggedIn { .. })).await? {
        ServerMsg::LoggedIn { session, .. } => Ok((session, socket)),
        _ => unreachable!("answer gives what it waited for"),
    }
}

/// Runs `work(index)` for each of `count` accounts, `at_once` at a time: what each gave.
async fn each_account<T, F, Fut>(count: usize, at_once: usize, work: F) -> Vec<Option<T>>
where
    T: Send + 'static,
    F: Fn(usize) -> Fut + Send + Sync + 'static,
    Fut: std::future::Future<Output = Option<T>> + Send,
{
    let found: Arc<Mutex<Vec<Option<T>>>> =
        Arc::new(Mutex::new((0..count).map(|_| None).collect()));
    let next_index = Arc::new(AtomicUsize::new(0));
    let work = Arc::new(work);
    let mut workers = Vec::new();
    for _ in 0..at_once {
        let (found, next_index, work) = (found.clone(), next_index.clone(), work.clone());
        workers.push(tokio::spawn(async move {
            loop {
                let index = next_index.fetch_add(1, Ordering::Relaxed);
                if index >= count {
                    return;
                }
                let got = work(index).await;
                found.lock().unwrap()[index] = got;
            }
        }));
    }
    for worker in workers {
        let _ = worker.await;
    }
    std::mem::take(&mut *found.lock().unwrap())
}

/// Reads what comes, counting the lobby's news, until the connection closes. The news is
/// counted by its type's name, not parsed: a thousand followers parsing every message would
/// take the cores the server is measured on.
async fn listen(mut socket: Socket, board: Arc<Board>, count: bool) {
    use futures_util::StreamExt;
    use tokio_tungstenite::tungstenite::Message;
    while let Some(Ok(msg)) = socket.next().await {
        if let Message::Text(text) = msg
            && count
            && board.measuring.load(Ordering::Relaxed)
            && (text.contains(r#""type":"challenge_added""#)
                || text.contains(r#""type":"challenge_gone""#))
        {
            board.news.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// The next message `pick` takes, skipping the rest (the lobby's news among them).
async fn next<T>(socket: &mut Socket, pick: impl Fn(ServerMsg) -> Option<T>) -> Result<T, String> {
    loop {
        match receive(socket).await? {
            ServerMsg::Error { message, .. } => return Err(message),
            msg => {
                if let Some(found) = pick(msg) {
                    return Ok(found);
                }
            }
        }
    }
}

/// Whether `msg` is game `code`'s state with this connection's seat in it (the game it
/// left may still send its last words).
fn seated_in(code: &str, msg: &ServerMsg) -> bool {
    matches!(msg, ServerMsg::State(s) if s.code == code && s.your_seat.is_some())
}

/// Keeps one challenge open: posts it, waits for a taker, takes its seat, posts again.
async fn post(mut socket: Socket, options: Arc<Options>, board: Arc<Board>) -> Result<(), String> {
    // A poster hears that its challenge was taken without following the lobby.
    loop {
        let terms = ChallengeTerms {
            game: options.game.clone(),
            settings: options.settings.clone(),
            pace: Pace::Live,
            move_seconds: None,
            rated: false,
            seat: Some(0),
        };
        send(&mut socket, &ClientMsg::PostChallenge { terms, to: None }).await?;
        let id = next(&mut socket, |m| match m {
            ServerMsg::ChallengePosted { id } => Some(id),
            _ => None,
        })
        .await?;
        board.open.lock().unwrap().push_back(id.clone());
        let code = next(&mut socket, |m| match m {
            ServerMsg::ChallengeAccepted {
                id: taken, code, ..
            } if taken == id => Some(code),
            _ => None,
        })
        .await?;
        send(
            &mut socket,
            &ClientMsg::Resume {
                code: code.clone(),
                token: None,
            },
        )
        .await?;
        next(&mut socket, |m| seated_in(&code, &m).then_some(())).await?;
        board.seated(&id);
    }
}

/// Takes challenges at `every` apart, resigning each game at once.
async fn take(mut socket: Socket, every: Duration, board: Arc<Board>, start: Instant) {
    let mut at = start;
    loop {
        at += every;
        tokio::time::sleep_until(at.into()).await;
        let Some(id) = board.open.lock().unwrap().pop_front() else {
            board.starved.fetch_add(1, Ordering::Relaxed);
            continue;
        };
        let sent = Instant::now();
        board
            .pending
            .lock()
            .unwrap()
            .insert(id.clone(), Pending { sent, seated: 0 });
        let taken = async {
            send(&mut socket, &ClientMsg::AcceptChallenge { id: id.clone() }).await?;
            let code = next(&mut socket, |m| match m {
                ServerMsg::Seated { code, .. } => Some(code),
                _ => None,
            })
            .await?;
            next(&mut socket, |m| seated_in(&code, &m).then_some(())).await?;
            board.seated(&id);
            send(&mut socket, &ClientMsg::Resign).await
        };
        if let Err(e) = taken.await {
            board.pending.lock().unwrap().remove(&id);
            board.error(&format!("accepting {id}: {e}"));
            if e == "closed" || e.contains("connect") {
                return;
            }
        }
    }
}

pub(super) async fn run(url: String, guest_url: String, options: Arc<Options>) {
    let lobby = &options.lobby;
    let takers = ((lobby.accepts as f64 / ACCEPTS_PER_TAKER).ceil() as usize).max(1);
    let needed = lobby.open_challenges + takers + lobby.followers;
    if lobby.accounts < needed {
        eprintln!(
            "error: {} posters, {takers} takers and {} followers need --accounts {needed} at least",
            lobby.open_challenges, lobby.followers
        );
        std::process::exit(2);
    }
    let board = Arc::new(Board::default());
    let memory_before = options.server_pid.and_then(resident_bytes);

    // Registration: each account an Argon2 hash on the server. Takers play through the
    // guest server, so with two processes every accept crosses between them.
    let server_of = {
        let (url, guest_url) = (url.clone(), guest_url.clone());
        let takers_from = lobby.open_challenges;
        move |index: usize| {
            if (takers_from..takers_from + takers).contains(&index) {
                guest_url.clone()
            } else {
                url.clone()
            }
        }
    };
    let started = Instant::now();
    let run_tag = std::process::id();
    let sessions = {
        let (board, server_of) = (board.clone(), server_of.clone());
        each_account(lobby.accounts, REGISTERING_AT_ONCE, move |index| {
            let (board, server) = (board.clone(), server_of(index));
            async move {
                let msg = ClientMsg::Register {
                    name: format!("l{run_tag}x{index}"),
                    password: "load test password".into(),
                };
                match log_in(&server, msg).await {
                    // Closed: the accounts connect again below, to count their memory.
                    Ok((session, _)) => Some(session),
                    Err(e) => {
                        board.error(&format!("registering account {index}: {e}"));
                        None
                    }
                }
            }
        })
        .await
    };
    let registered = started.elapsed().as_secs_f64();
    let count = sessions.iter().flatten().count();
    println!(
        "{count} accounts registered in {registered:.1} s: {:.0} a second ({} failed)",
        count as f64 / registered,
        board.errors.load(Ordering::Relaxed)
    );
    tokio::time::sleep(Duration::from_secs(1)).await;
    let memory_registered = options.server_pid.and_then(resident_bytes);

    // Every account connected again with its session (no hash).
    let started = Instant::now();
    let sessions = Arc::new(sessions);
    let sockets = {
        let (board, sessions) = (board.clone(), sessions.clone());
        each_account(lobby.accounts, 64, move |index| {
            let (board, server) = (board.clone(), server_of(index));
            let session = sessions[index].clone();
            async move {
                let msg = ClientMsg::Authenticate { session: session? };
                match log_in(&server, msg).await {
                    Ok((_, socket)) => Some(socket),
                    Err(e) => {
                        board.error(&format!("connecting account {index}: {e}"));
                        None
                    }
                }
            }
        })
        .await
    };
    let connected = sockets.iter().flatten().count();
    println!(
        "{connected} accounts connected with their sessions in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    tokio::time::sleep(Duration::from_secs(1)).await;
    let memory_connected = options.server_pid.and_then(resident_bytes);

    let mut sockets = sockets.into_iter().enumerate();
    let start = Instant::now();
    let every = Duration::from_secs_f64(takers as f64 / lobby.accepts.max(1) as f64);
    for (index, socket) in sockets.by_ref() {
        let Some(socket) = socket else { continue };
        let (options, board) = (options.clone(), board.clone());
        if index < lobby.open_challenges {
            tokio::spawn(async move {
                if let Err(e) = post(socket, options, board.clone()).await {
                    board.error(&format!("posting: {e}"));
                }
            });
        } else if index < lobby.open_challenges + takers {
            // Spread over the first interval, not all on the same tick.
            let offset = every.mul_f64((index - lobby.open_challenges) as f64 / takers as f64);
            tokio::spawn(take(socket, every, board, start + offset));
        } else if index < needed {
            tokio::spawn(async move {
                let mut socket = socket;
                if send(&mut socket, &ClientMsg::FollowLobby).await.is_ok() {
                    listen(socket, board, true).await;
                }
            });
        } else {
            tokio::spawn(listen(socket, board, false));
        }
    }
    // The challenges posted and the rhythm settled, then measure.
    while board.open.lock().unwrap().len() < lobby.open_challenges * 9 / 10
        && start.elapsed() < Duration::from_secs(30)
    {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    let open_before = board.open.lock().unwrap().len();
    board.measuring.store(true, Ordering::Relaxed);
    let measured = Instant::now();
    tokio::time::sleep(Duration::from_secs(options.seconds)).await;
    board.measuring.store(false, Ordering::Relaxed);
    let elapsed = measured.elapsed().as_secs_f64();
    let memory_during = options.server_pid.and_then(resident_bytes);

    let mut latencies = std::mem::take(&mut *board.latencies.lock().unwrap());
    latencies.sort_unstable();
    println!(
        "{} posters (open challenges: {open_before} when measuring began, {} at its end), \
         {takers} takers, {} lobby followers, {} accounts only connected",
        lobby.open_challenges,
        board.open.lock().unwrap().len(),
        lobby.followers,
        lobby.accounts - needed
    );
    println!(
        "accepts a second: {:.0} of {} offered ({} turns found no challenge open)",
        board.accepted.load(Ordering::Relaxed) as f64 / elapsed,
        lobby.accepts,
        board.starved.load(Ordering::Relaxed)
    );
    println!(
        "accept sent to both players seated: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms ({} samples)",
        percentile(&latencies, 0.5),
        percentile(&latencies, 0.99),
        percentile(&latencies, 1.0),
        latencies.len()
    );
    if lobby.followers > 0 {
        println!(
            "lobby news a follower received a second: {:.0}",
            board.news.load(Ordering::Relaxed) as f64 / elapsed / lobby.followers as f64
        );
    }
    if let (Some(before), Some(registered), Some(connected_memory)) =
        (memory_before, memory_registered, memory_connected)
    {
        println!(
            "server memory: {:.1} MB before, {:.1} MB after the registrations, {:.1} MB with \
             the accounts connected ({:.1} KB a connected account), {:.1} MB at the end of the run",
            before as f64 / 1e6,
            registered as f64 / 1e6,
            connected_memory as f64 / 1e6,
            connected_memory.saturating_sub(registered) as f64 / connected.max(1) as f64 / 1e3,
            memory_during.unwrap_or(0) as f64 / 1e6
        );
    }
    println!("errors: {}", board.errors.load(Ordering::Relaxed));
}
