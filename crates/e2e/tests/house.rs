//! The house bots through the real server and client: a challenge nobody takes is taken by
//! the bot whose rating is nearest the poster's, which plays it to its end and is rated; a
//! challenge to a bot by name is taken at once, and the bot refuses take-backs and draws;
//! a bot goes on with its game after a restart; bots cannot log in, are left off the
//! leaderboard, and cannot be challenged on a server that does not run them.

mod common;

use common::{
    PASSWORD, ServerProcess, TestDatabase, ask, connect_as, error_of, next_message, raw,
    sqlite_url, state_where,
};
use std::time::Duration;
use tabula_online::protocol::house::HouseBots;
use tabula_online::protocol::{ChallengeTerms, ClientMsg, Pace, ServerMsg};
use tabula_online::unattended::play_to_end;
use tabula_online::{Connection, Goal, OnlineClient, Update};
use tabula_server::house::HouseSettings;
use tabula_server::{Background, Options};

/// A server in this process whose house bots take a challenge left `wait` to them.
fn with_house(url: &str, wait: Duration) -> Background {
    let options = Options {
        house: Some(HouseSettings {
            wait,
            threads: 1,
            games: 4,
        }),
        ..Options::default()
    };
    Background::start_with(url, "127.0.0.1:0", options).unwrap()
}

/// Adomoc cut at 60 plies (a draw there), so a game against a bot ends soon.
fn short_adomoc(seat: Option<usize>, rated: bool) -> ChallengeTerms {
    ChallengeTerms {
        game: "adomoc".into(),
        settings: vec![("ply_cap".into(), "60".into())],
        pace: Pace::Correspondence,
        move_seconds: None,
        rated,
        seat,
    }
}

/// Follows the lobby: the house bots it shows.
fn follow_lobby(connection: &Connection) -> Option<HouseBots> {
    match ask(connection, ClientMsg::FollowLobby) {
        ServerMsg::Lobby { house, .. } => house,
        other => panic!("the lobby, not {other:?}"),
    }
}

fn post(connection: &Connection, terms: ChallengeTerms, to: Option<&str>) -> ServerMsg {
    ask(
        connection,
        ClientMsg::PostChallenge {
            terms,
            to: to.map(str::to_string),
        },
    )
}

/// Waits until the poster hears their challenge was taken: the game and their seat.
fn taken(connection: &Connection) -> (String, usize) {
    match next_message(connection, |m| {
        matches!(m, ServerMsg::ChallengeAccepted { .. })
    }) {
        ServerMsg::ChallengeAccepted { code, seat, .. } => (code, seat),
        _ => unreachable!(),
    }
}

/// Plays a first move of [`short_adomoc`]'s game from `connection`.
fn play_first_move(connection: &Connection) {
    let game = tabula_session::new_match(
        tabula_session::GameKind::Adomoc,
        &[("ply_cap".into(), "60".into())],
    )
    .unwrap();
    let (moves, _) = game.legal_moves(1);
    connection.send(&ClientMsg::Move {
        ply: 0,
        text: moves[0].clone(),
    });
}

/// Waits for the news of move `ply`.
fn moved(connection: &Connection, ply: usize) {
    next_message(
        connection,
        |m| matches!(m, ServerMsg::Moved { ply: p, .. } if *p == ply),
    );
}

/// The account's seat in `code`, played by the random mover to the end: the result.
fn play_out(address: &str, session: String, code: &str) -> OnlineClient {
    let mut client = OnlineClient::start(address, Goal::ResumeMine { code: code.into() }).unwrap();
    client.use_session(session);
    let spec = "random".parse().unwrap();
    play_to_end(&mut client, &spec, 7, |_, _| {}).unwrap();
    client
}

#[test]
fn a_house_bot_takes_a_challenge_nobody_took_and_plays_it_to_the_end_rated() {
    let dir = tempfile::tempdir().unwrap();
    taken_played_and_rated(&sqlite_url(&dir.path().join("g.db")));
}

#[test]
fn a_house_bot_takes_plays_and_is_rated_on_postgres() {
    let Some(database) = TestDatabase::new("house") else {
        return;
    };
    taken_played_and_rated(&database.url);
}

/// A challenge nobody takes, taken by the bot nearest the poster, played to its end, and
/// rated, on the database at `url`.
fn taken_played_and_rated(url: &str) {
    let server = with_house(url, Duration::from_secs(1));
    let address = server.address.as_str();
    let (ada, session) = connect_as(address, "Ada", true);

    let house = follow_lobby(&ada).expect("the lobby shows the house bots");
    let names: Vec<&str> = house.bots.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "Novicebot",
            "Casualbot",
            "Clubbot",
            "Expertbot",
            "Masterbot"
        ]
    );
    assert_eq!(house.wait_seconds, 1);
    let levels: Vec<u8> = house.bots.iter().map(|b| b.level).collect();
    assert_eq!(levels, [1, 2, 3, 4, 5]);

    // Nobody takes it: after the wait, the bot nearest a newcomer's 1500 does.
    assert!(matches!(
        post(&ada, short_adomoc(None, true), None),
        ServerMsg::ChallengePosted { .. }
    ));
    let (code, seat) = taken(&ada);
    let client = play_out(address, session, &code);
    let game = client.game().unwrap();
    assert!(game.game.status().is_over(), "{:?}", game.game.status());
    let opponent = &game.state.seats[1 - seat];
    assert_eq!(opponent.player.as_deref(), Some("Novicebot"));
    // Both moved every turn: the bot played its half.
    assert!(game.game.record().len() >= 2);

    // Rated: both ratings moved, the bot's from its first one; the leaderboard lists the
    // person, not the bot, whose page shows it.
    let watcher = raw(address);
    let adomoc = |name: &str| match ask(&watcher, ClientMsg::Player { name: name.into() }) {
        ServerMsg::Player(page) => page
            .ratings
            .into_iter()
            .find(|p| p.pool == "adomoc")
            .unwrap_or_else(|| panic!("{name} has an Adomoc rating")),
        other => panic!("a page, not {other:?}"),
    };
    assert_eq!(adomoc("Ada").rating.games, 1);
    let bot = adomoc("Novicebot");
    assert_eq!(bot.rating.games, 1);
    assert!(
        bot.rating.deviation < 150,
        "the bot's first game made its rating surer: {:?}",
        bot.rating
    );
    match ask(
        &watcher,
        ClientMsg::Leaderboard {
            pool: "adomoc".into(),
        },
    ) {
        ServerMsg::Leaderboard { players, .. } => {
            let names: Vec<&str> = players.iter().map(|p| p.name.as_str()).collect();
            assert_eq!(names, ["Ada"]);
        }
        other => panic!("a leaderboard, not {other:?}"),
    }
    // Every bot has its first rating in each game's pool; the stronger, the higher.
    let first: Vec<i32> = ["Casualbot", "Clubbot", "Expertbot", "Masterbot"]
        .iter()
        .map(|name| adomoc(name).rating.rating)
        .collect();
    assert!(first.windows(2).all(|w| w[0] < w[1]), "{first:?}");
    assert_eq!(adomoc("Casualbot").rating.games, 0);
}

#[test]
fn a_challenge_to_a_bot_is_taken_at_once_and_the_bot_takes_nothing_back_nor_draws() {
    let dir = tempfile::tempdir().unwrap();
    // An hour's wait: only a challenge by name is taken.
    let server = with_house(
        &sqlite_url(&dir.path().join("g.db")),
        Duration::from_secs(3600),
    );
    let address = server.address.as_str();
    let (ada, session) = connect_as(address, "Ada", true);
    let bea = connect_as(address, "Bea", true).0;
    follow_lobby(&ada);
    // To a person: no bot takes it.
    let for_bea = post(&ada, short_adomoc(None, false), Some("Bea"));
    assert!(matches!(for_bea, ServerMsg::ChallengePosted { .. }));

    assert!(matches!(
        post(&ada, short_adomoc(Some(0), false), Some("expertbot")),
        ServerMsg::ChallengePosted { .. }
    ));
    let (code, seat) = taken(&ada);
    assert_eq!(seat, 0);
    ada.send(&ClientMsg::Resume {
        code: code.clone(),
        token: None,
    });
    let state = state_where(&ada, |s| s.code == code);
    assert_eq!(state.seats[1].player.as_deref(), Some("Expertbot"));
    // Ada's first move; then she asks for it back, and the bot says no.
    play_first_move(&ada);
    moved(&ada, 1);
    ada.send(&ClientMsg::RequestUndo);
    state_where(&ada, |s| s.undo_request.is_some());
    let refused = state_where(&ada, |s| s.undo_request.is_none());
    assert_eq!(refused.moves.len(), 2, "nothing was taken back");
    ada.send(&ClientMsg::OfferDraw);
    state_where(&ada, |s| !s.draw_offers.is_empty());
    let declined = state_where(&ada, |s| s.draw_offers.is_empty());
    assert!(declined.result.is_none(), "{:?}", declined.result);

    // The client says so, though the request and its answer come together.
    let mut client = OnlineClient::start(address, Goal::ResumeMine { code: code.clone() }).unwrap();
    client.use_session(session);
    assert!(client.poll_until(Duration::from_secs(60), |_| {}, |c| c.game().is_some()));
    let mut answers = Vec::new();
    for ask in [ClientMsg::RequestUndo, ClientMsg::OfferDraw] {
        client.send(&ask);
        let end = std::time::Instant::now() + Duration::from_secs(60);
        let answer = loop {
            let answered = client
                .poll(Duration::from_millis(100))
                .into_iter()
                .find_map(|update| match update {
                    Update::Answered(answer) => Some(answer),
                    _ => None,
                });
            if let Some(answer) = answered {
                break answer;
            }
            assert!(std::time::Instant::now() < end, "no answer to {ask:?}");
        };
        answers.push(answer);
    }
    assert_eq!(
        answers,
        [
            "Your take-back was declined.",
            "Your draw offer was declined."
        ]
    );

    // Bea's challenge is still open an instant later: bots take no one's challenge to
    // another person.
    let lobby = match ask(&bea, ClientMsg::FollowLobby) {
        ServerMsg::Lobby { challenges, .. } => challenges,
        other => panic!("{other:?}"),
    };
    assert_eq!(lobby.len(), 1);
    assert_eq!(lobby[0].to.as_deref(), Some("Bea"));

    // Nobody logs in as a bot, nor takes a bot's name.
    let visitor = raw(address);
    for msg in [
        ClientMsg::LogIn {
            name: "Expertbot".into(),
            password: PASSWORD.into(),
        },
        ClientMsg::Register {
            name: "Robot".into(),
            password: PASSWORD.into(),
        },
    ] {
        let said = error_of(ask(&visitor, msg));
        assert!(
            said.contains("no account has that name") || said.contains("kept for the server"),
            "{said}"
        );
    }
}

#[test]
fn a_server_without_house_bots_refuses_a_challenge_to_one_and_shows_none() {
    let dir = tempfile::tempdir().unwrap();
    let url = sqlite_url(&dir.path().join("g.db"));
    // Once with the bots (their accounts are made before it answers anyone), then without.
    let first = with_house(&url, Duration::from_secs(3600));
    assert!(follow_lobby(&raw(&first.address)).is_some());
    drop(first);
    let server = common::in_process_at(&url);
    let ada = connect_as(&server.address, "Ada", true).0;
    assert_eq!(follow_lobby(&ada), None);
    let said = error_of(post(&ada, short_adomoc(None, false), Some("Novicebot")));
    assert!(said.contains("do not play here now"), "{said}");
}

#[test]
fn a_house_bot_goes_on_with_its_game_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.db");
    let house = ["--house-bots", "--house-bot-wait", "3600"];
    let first = ServerProcess::start_with(&db, "127.0.0.1:0", &house);
    let (ada, session) = connect_as(&first.address, "Ada", true);
    follow_lobby(&ada);
    assert!(matches!(
        post(&ada, short_adomoc(Some(0), false), Some("Clubbot")),
        ServerMsg::ChallengePosted { .. }
    ));
    let (code, _) = taken(&ada);
    first.kill();

    // Ada moves while no bot is about: the bot is to move when they come back.
    let quiet = ServerProcess::start(&db, "127.0.0.1:0");
    let ada = connect_as(&quiet.address, "Ada", false).0;
    ada.send(&ClientMsg::Resume {
        code: code.clone(),
        token: None,
    });
    let state = state_where(&ada, |s| s.code == code);
    assert!(state.moves.is_empty());
    play_first_move(&ada);
    moved(&ada, 0);
    quiet.kill();

    let again = ServerProcess::start_with(&db, "127.0.0.1:0", &house);
    let mut client = OnlineClient::start(&again.address, Goal::ResumeMine { code }).unwrap();
    client.use_session(session);
    let answered = client.poll_until(
        Duration::from_secs(60),
        |_| {},
        |c| c.game().is_some_and(|g| g.game.record().len() == 2),
    );
    assert!(answered, "the bot moved after the restart");
}
