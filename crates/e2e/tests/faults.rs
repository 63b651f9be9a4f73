//! Bad messages, wrong tokens, unknown codes, replayed and early moves, floods: each gets
//! a clear error and changes nothing.

mod common;

use common::{RawSocket, create, in_process, join, next_error, next_message, raw, state_where};
use std::time::{Duration, Instant};
use tabula_online::protocol::{ClientMsg, GameState, MAX_MESSAGE_BYTES, Pace, SeatKey, ServerMsg};
use tabula_online::{Connection, Event};

fn state(connection: &Connection) -> GameState {
    state_where(connection, |_| true)
}

/// The game as a newcomer sees it.
fn watched(address: &str, code: &str) -> GameState {
    let watcher = raw(address);
    watcher.send(&ClientMsg::Watch { code: code.into() });
    state(&watcher)
}

/// Forgets what arrived so far (waiting until nothing more comes for a moment), so the
/// next wait sees only what follows.
fn drain(connections: &[&Connection]) {
    for connection in connections {
        while connection
            .next_timeout(Duration::from_millis(300))
            .is_some()
        {}
    }
}

fn moved(connection: &Connection) -> (usize, String) {
    match next_message(connection, |m| matches!(m, ServerMsg::Moved { .. })) {
        ServerMsg::Moved { ply, text, .. } => (ply, text),
        _ => unreachable!(),
    }
}

#[test]
fn bad_messages_get_errors_and_the_connection_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let server = in_process(&dir.path().join("bad.sqlite3"));
    let client = raw(&server.address);
    client.send_raw("{not json".into());
    assert!(next_error(&client).contains("not a message this server reads"));
    client.send_raw(r#"{"type":"teleport"}"#.into());
    assert!(next_error(&client).contains("unknown variant `teleport`"));
    client.send_raw(r#"{"type":"move","ply":-1,"text":"a1"}"#.into());
    assert!(next_error(&client).contains("invalid value"));
    let big = format!(
        r#"{{"type":"join","code":"{}"}}"#,
        "x".repeat(MAX_MESSAGE_BYTES)
    );
    client.send_raw(big);
    assert!(next_error(&client).contains("over the limit"));
    client.send(&ClientMsg::Move {
        ply: 0,
        text: "a1".into(),
    });
    assert!(next_error(&client).contains("holds no seat"));
    client.send(&ClientMsg::Join {
        code: "ZZZZZZ".into(),
    });
    assert!(next_error(&client).contains("no game has the code ZZZZZZ"));
    client.send(&ClientMsg::Watch {
        code: "../etc".into(),
    });
    assert!(next_error(&client).contains("not a game code"));
    client.send(&ClientMsg::Create {
        game: "chess".into(),
        settings: vec![],
        seat: 0,
        pace: Pace::Live,
        move_seconds: None,
        rated: false,
    });
    assert!(next_error(&client).contains("chess"));
    client.send(&ClientMsg::Create {
        game: "adamas".into(),
        settings: vec![("size".into(), "99".into())],
        seat: 0,
        pace: Pace::Live,
        move_seconds: None,
        rated: false,
    });
    assert!(next_error(&client).contains("size"));
    client.send(&ClientMsg::Create {
        game: "adamas".into(),
        settings: vec![],
        seat: 2,
        pace: Pace::Live,
        move_seconds: None,
        rated: false,
    });
    assert!(next_error(&client).contains("seat 3 does not exist"));
    client.send(&ClientMsg::Create {
        game: "adamas".into(),
        settings: vec![],
        seat: 0,
        pace: Pace::Live,
        move_seconds: Some(1),
        rated: false,
    });
    assert!(next_error(&client).contains("a move time limit is 5 to"));
    // After all that, the same connection still plays.
    let (code, _) = create(&client, "adomoc");
    assert_eq!(code.len(), 6);
}

#[test]
fn a_message_far_over_the_limit_closes_the_connection() {
    let dir = tempfile::tempdir().unwrap();
    let server = in_process(&dir.path().join("huge.sqlite3"));
    let client = raw(&server.address);
    client.send_raw("x".repeat(MAX_MESSAGE_BYTES * 8));
    let end = Instant::now() + Duration::from_secs(20);
    let mut closed = false;
    while Instant::now() < end && !closed {
        closed = matches!(
            client.next_timeout(Duration::from_millis(100)),
            Some(Event::Disconnected(_))
        );
    }
    assert!(closed, "the connection is closed");
    // The server goes on for everyone else.
    let other = raw(&server.address);
    create(&other, "adaptoid");
}

#[test]
fn moves_out_of_turn_out_of_order_or_illegal_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let server = in_process(&dir.path().join("moves.sqlite3"));
    let host = raw(&server.address);
    let (code, host_token) = create(&host, "adaptoid");
    let guest = raw(&server.address);
    let guest_token = join(&guest, &code);
    assert_ne!(host_token, guest_token);
    let first = state(&guest);
    assert_eq!(first.your_seat, Some(1));
    assert!(first.seats.iter().all(|s| s.taken));

    guest.send(&ClientMsg::Move {
        ply: 0,
        text: "x".into(),
    });
    assert!(
        next_error(&guest).contains("turn"),
        "the guest moves second"
    );
    host.send(&ClientMsg::Move {
        ply: 0,
        text: "zz9".into(),
    });
    let illegal = next_error(&host);
    assert!(illegal.starts_with("\"zz9\": "), "{illegal}");
    host.send(&ClientMsg::Move {
        ply: 3,
        text: "x".into(),
    });
    assert!(next_error(&host).contains("move 4 cannot come yet"));
    assert!(watched(&server.address, &code).moves.is_empty());

    // A legal move, then the same message again (a replay) and a stale one.
    let opening = {
        let kind = tabula_session::GameKind::Adaptoid;
        let game = tabula_session::new_match(kind, &[]).unwrap();
        game.legal_moves(1).0.remove(0)
    };
    host.send(&ClientMsg::Move {
        ply: 0,
        text: opening.clone(),
    });
    assert_eq!(moved(&guest), (0, opening.clone()));
    host.send(&ClientMsg::Move {
        ply: 0,
        text: opening.clone(),
    });
    assert!(next_error(&host).contains("move 1 was played already"));
    let seen = watched(&server.address, &code);
    assert_eq!(seen.moves, vec![opening]);

    // A player's list of games says whose turn it is; a key that is not a seat's is left out.
    let lister = raw(&server.address);
    lister.send(&ClientMsg::MyGames {
        seats: vec![
            SeatKey {
                code: code.clone(),
                token: host_token.clone(),
            },
            SeatKey {
                code: code.clone(),
                token: "f".repeat(32),
            },
            SeatKey {
                code: "ZZZZZZ".into(),
                token: host_token.clone(),
            },
        ],
    });
    let ServerMsg::Games { games } =
        next_message(&lister, |m| matches!(m, ServerMsg::Games { .. }))
    else {
        unreachable!()
    };
    assert_eq!(games.len(), 1);
    assert_eq!(
        (games[0].your_seat, games[0].moves, games[0].to_move),
        (0, 1, Some(1))
    );
    assert_eq!((games[0].open_seats, games[0].result.clone()), (0, None));

    // Nobody can take a seat with another's token, or a made-up one.
    let stranger = raw(&server.address);
    stranger.send(&ClientMsg::Resume {
        code: code.clone(),
        token: Some("0".repeat(32)),
    });
    assert!(next_error(&stranger).contains("holds no seat in game"));
    stranger.send(&ClientMsg::Watch { code: code.clone() });
    let as_watcher = state(&stranger);
    assert_eq!(as_watcher.your_seat, None);
    stranger.send(&ClientMsg::Resign);
    assert!(next_error(&stranger).contains("only its players"));
    // The guest's token comes back to the guest's seat, and no message ever carried the
    // other seat's token.
    let again = raw(&server.address);
    again.send(&ClientMsg::Resume {
        code: code.clone(),
        token: Some(guest_token.clone()),
    });
    assert_eq!(state(&again).your_seat, Some(1));
    let mut everything = String::new();
    while let Some(event) = guest.next_timeout(Duration::from_millis(200)) {
        everything += &format!("{event:?}");
    }
    assert!(!everything.contains(&host_token));
}

#[test]
fn a_flood_is_refused_and_others_play_on() {
    let dir = tempfile::tempdir().unwrap();
    let server = in_process(&dir.path().join("flood.sqlite3"));
    // Tabula's own clients pace themselves: a flood is sent by hand.
    let mut flood = RawSocket::open(&server.address);
    let watch = ClientMsg::Watch {
        code: "ZZZZZZ".into(),
    }
    .to_json();
    for _ in 0..300 {
        flood.send_text(&watch);
    }
    let (code, said) = flood.until_closed();
    let refused = said
        .iter()
        .filter(|text| text.contains("too many messages"))
        .count();
    assert!(refused >= 150, "{refused} refused");
    assert_eq!(
        code,
        Some(1008),
        "a flood that goes on is cut off for its policy"
    );
    let calm = raw(&server.address);
    create(&calm, "absorption");
}

#[test]
fn draws_resignations_and_take_backs_need_the_other_side() {
    let dir = tempfile::tempdir().unwrap();
    let server = in_process(&dir.path().join("offers.sqlite3"));
    let host = raw(&server.address);
    let (code, _) = create(&host, "adamas");
    let guest = raw(&server.address);
    join(&guest, &code);
    let opening = |ply: usize, moves: &[String]| {
        let mut game = tabula_session::new_match(tabula_session::GameKind::Adamas, &[]).unwrap();
        for mv in moves {
            game.play_notation(mv).unwrap();
        }
        assert_eq!(game.record().len(), ply);
        game.legal_moves(1).0.remove(0)
    };
    let first = opening(0, &[]);
    host.send(&ClientMsg::Move {
        ply: 0,
        text: first.clone(),
    });
    moved(&guest);
    let second = opening(1, std::slice::from_ref(&first));
    guest.send(&ClientMsg::Move {
        ply: 1,
        text: second.clone(),
    });
    moved(&host);

    // Take-back: asked by the guest, declined, asked again, accepted.
    let both = [&host, &guest];
    drain(&both);
    guest.send(&ClientMsg::RequestUndo);
    let asked = state_where(&host, |s| s.undo_request.is_some());
    let request = asked.undo_request.clone().unwrap();
    assert_eq!((request.by, request.to_ply), (1, 1));
    guest.send(&ClientMsg::AnswerUndo { accept: true });
    assert!(next_error(&guest).contains("nobody asks you"));
    drain(&both);
    host.send(&ClientMsg::AnswerUndo { accept: false });
    state_where(&guest, |s| s.undo_request.is_none());
    drain(&both);
    guest.send(&ClientMsg::RequestUndo);
    state_where(&host, |s| s.undo_request.is_some());
    drain(&both);
    host.send(&ClientMsg::AnswerUndo { accept: true });
    let after = state_where(&guest, |s| s.moves.len() == 1);
    assert_eq!(after.moves, vec![first.clone()]);
    assert_eq!(watched(&server.address, &code).moves, vec![first]);

    // A draw offered, declined, offered again and accepted.
    drain(&both);
    host.send(&ClientMsg::OfferDraw);
    state_where(&guest, |s| s.draw_offers == [0]);
    drain(&both);
    guest.send(&ClientMsg::DeclineDraw);
    state_where(&host, |s| s.draw_offers.is_empty());
    drain(&both);
    host.send(&ClientMsg::OfferDraw);
    state_where(&guest, |s| s.draw_offers == [0]);
    drain(&both);
    guest.send(&ClientMsg::OfferDraw);
    let drawn = state_where(&host, |s| s.result.is_some());
    assert_eq!(drawn.result.as_deref(), Some("Draw agreed"));
    host.send(&ClientMsg::Resign);
    assert!(next_error(&host).contains("the game is over: Draw agreed"));

    // A resignation ends another game for the other side.
    let (code, _) = create(&host, "absorption");
    join(&guest, &code);
    guest.send(&ClientMsg::Resign);
    let over = state_where(&host, |s| s.result.is_some());
    assert_eq!(over.result.as_deref(), Some("Dark resigned: Light wins"));
    assert_eq!(watched(&server.address, &code).result, over.result);
}

#[test]
fn the_server_pings_so_a_dead_connection_is_found() {
    use futures_util::StreamExt;
    use tabula_online::protocol::PING_SECONDS;
    use tokio_tungstenite::tungstenite::Message;

    let dir = tempfile::tempdir().unwrap();
    let server = in_process(&dir.path().join("ping.sqlite3"));
    let url = tabula_online::socket_url(&server.address).unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let (mut socket, _) = tokio_tungstenite::connect_async(url.as_str())
            .await
            .unwrap();
        let wait = std::time::Duration::from_secs(PING_SECONDS + 10);
        let pinged = tokio::time::timeout(wait, async {
            while let Some(Ok(frame)) = socket.next().await {
                if matches!(frame, Message::Ping(_)) {
                    return true;
                }
            }
            false
        })
        .await;
        assert_eq!(pinged, Ok(true), "a ping within {PING_SECONDS} s");
    });
}

#[test]
fn one_address_cannot_create_games_without_end() {
    let dir = tempfile::tempdir().unwrap();
    let server = in_process(&dir.path().join("many.sqlite3"));
    let client = raw(&server.address);
    let create = ClientMsg::Create {
        game: "adaptoid".into(),
        settings: vec![],
        seat: 0,
        pace: Pace::Correspondence,
        move_seconds: None,
        rated: false,
    };
    let mut last = String::new();
    for _ in 0..20 {
        client.send(&create);
        if let ServerMsg::Seated { code, .. } =
            next_message(&client, |m| matches!(m, ServerMsg::Seated { .. }))
        {
            last = code;
        }
    }
    client.send(&create);
    let refused = next_error(&client);
    assert!(refused.contains("too many new games"), "{refused}");
    // From another connection of the same address too; watching goes on.
    let other = raw(&server.address);
    other.send(&create);
    assert!(next_error(&other).contains("too many new games"));
    other.send(&ClientMsg::Watch { code: last.clone() });
    let watched = next_message(&other, |m| matches!(m, ServerMsg::State(_)));
    assert!(matches!(watched, ServerMsg::State(s) if s.code == last));
}
