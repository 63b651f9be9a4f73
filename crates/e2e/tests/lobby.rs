//! The lobby through the real server and client: challenges posted, shown live, named to
//! one player, cancelled, refused when they cannot be; one accepted by two players at once
//! starts one game, whose poster hears of it and takes their seat without a token; Play
//! now takes a fitting challenge or posts one (once); a
//! restart keeps the open challenges; on SQLite and (where `TABULA_TEST_POSTGRES` names
//! one) PostgreSQL, where a challenge taken through one server process is gone for the
//! other.

mod common;

use common::{
    PASSWORD, TestDatabase, ask, connect_as, error_of, in_process, in_process_at, next_message,
    raw, state_where,
};
use tabula_online::Connection;
use tabula_online::protocol::{Challenge, ChallengeTerms, ClientMsg, Pace, ServerMsg};

fn register(address: &str, name: &str) -> Connection {
    connect_as(address, name, true).0
}

fn log_in(address: &str, name: &str) -> Connection {
    connect_as(address, name, false).0
}

fn terms(game: &str) -> ChallengeTerms {
    ChallengeTerms {
        game: game.into(),
        settings: vec![],
        pace: Pace::Correspondence,
        move_seconds: None,
        rated: true,
        seat: None,
    }
}

fn post(
    connection: &Connection,
    terms: ChallengeTerms,
    to: Option<&str>,
) -> Result<String, String> {
    let msg = ClientMsg::PostChallenge {
        terms,
        to: to.map(str::to_string),
    };
    match ask(connection, msg) {
        ServerMsg::ChallengePosted { id } => Ok(id),
        ServerMsg::Error { message, .. } => Err(message),
        other => panic!("posted, not {other:?}"),
    }
}

/// The lobby as `connection` sees it now (and from now on, its news).
fn lobby(connection: &Connection) -> Vec<Challenge> {
    match ask(connection, ClientMsg::FollowLobby) {
        ServerMsg::Lobby { challenges, .. } => challenges,
        other => panic!("the lobby, not {other:?}"),
    }
}

fn ids(challenges: &[Challenge]) -> Vec<&str> {
    challenges.iter().map(|c| c.id.as_str()).collect()
}

/// The story on one server; returns Cyd's open challenges' ids (left open).
fn lobby_story(address: &str) -> Vec<String> {
    let ada = register(address, "Ada");
    let bea = register(address, "Bea");
    let cyd = register(address, "Cyd");
    let visitor = raw(address);
    assert!(lobby(&visitor).is_empty());
    assert!(lobby(&ada).is_empty());

    // Ada's open challenge, shown live to a visitor.
    let open = post(&ada, terms("adomoc"), None).unwrap();
    match next_message(&visitor, |m| matches!(m, ServerMsg::ChallengeAdded(_))) {
        ServerMsg::ChallengeAdded(c) => {
            assert_eq!((c.id.as_str(), c.by.as_str()), (open.as_str(), "Ada"));
            assert!(c.terms.rated && c.to.is_none());
        }
        _ => unreachable!(),
    }
    // One for Bea alone: she and Ada see it, nobody else (the visitor's next news is the
    // open challenge posted after it).
    let named = post(&ada, terms("absorption"), Some("bea")).unwrap();
    let after = post(&ada, terms("adaptoid"), None).unwrap();
    match next_message(&visitor, |m| matches!(m, ServerMsg::ChallengeAdded(_))) {
        ServerMsg::ChallengeAdded(c) => assert_eq!(c.id, after),
        _ => unreachable!(),
    }
    ada.send(&ClientMsg::CancelChallenge { id: after.clone() });
    match next_message(&visitor, |m| matches!(m, ServerMsg::ChallengeGone { .. })) {
        ServerMsg::ChallengeGone { id } => assert_eq!(id, after),
        _ => unreachable!(),
    }
    let seen = lobby(&bea);
    assert_eq!(
        sorted(ids(&seen)),
        sorted(vec![open.as_str(), named.as_str()])
    );
    let for_bea = seen.iter().find(|c| c.id == named).unwrap();
    assert_eq!(for_bea.to.as_deref(), Some("Bea"));
    assert_eq!(ids(&lobby(&cyd)), [open.as_str()]);
    assert_eq!(ids(&lobby(&raw(address))), [open.as_str()]);

    // What cannot be done is refused by name.
    let accept = |id: &str| ClientMsg::AcceptChallenge { id: id.into() };
    let cases = [
        (&cyd, accept(&named), "for another player"),
        (&visitor, accept(&open), "log in to accept"),
        (&ada, accept(&open), "your own challenge"),
        (&cyd, accept("nosuch"), "is not open"),
        (
            &bea,
            ClientMsg::CancelChallenge { id: open.clone() },
            "not yours",
        ),
    ];
    for (who, msg, why) in cases {
        let refused = error_of(ask(who, msg));
        assert!(refused.contains(why), "{refused}");
    }
    let three = ChallengeTerms {
        settings: vec![("players".into(), "3".into())],
        ..terms("adamas")
    };
    for (terms, to, why) in [
        (three, None, "two players"),
        (terms("chess"), None, "chess"),
        (terms("adomoc"), Some("ada"), "yourself"),
        (terms("adomoc"), Some("nobody"), "no player named"),
    ] {
        let refused = post(&ada, terms, to).unwrap_err();
        assert!(refused.contains(why), "{refused}");
    }

    // Bea and Cyd accept Ada's challenge at once: one game, one of them in it.
    let takers: Vec<_> = [bea, cyd]
        .into_iter()
        .map(|taker| {
            let id = open.clone();
            std::thread::spawn(move || {
                taker.send(&ClientMsg::AcceptChallenge { id });
                let reply = next_message(&taker, |m| {
                    matches!(m, ServerMsg::Seated { .. } | ServerMsg::Error { .. })
                });
                (taker, reply)
            })
        })
        .collect();
    let replies: Vec<(Connection, ServerMsg)> =
        takers.into_iter().map(|t| t.join().unwrap()).collect();
    let seated: Vec<_> = replies
        .iter()
        .filter_map(|(_, r)| match r {
            ServerMsg::Seated { code, seat, .. } => Some((code.clone(), *seat)),
            _ => None,
        })
        .collect();
    assert_eq!(
        seated.len(),
        1,
        "{:?}",
        replies.iter().map(|r| &r.1).collect::<Vec<_>>()
    );
    let (code, taker_seat) = seated[0].clone();
    let refused = replies
        .iter()
        .find_map(|(_, r)| match r {
            ServerMsg::Error { message, .. } => Some(message.clone()),
            _ => None,
        })
        .unwrap();
    assert!(refused.contains("is not open"), "{refused}");
    // Ada hears of it (before that it is gone from the lobby she follows), and takes her
    // seat without a token.
    let first_word = next_message(
        &ada,
        |m| matches!(m, ServerMsg::ChallengeAccepted { id, .. } | ServerMsg::ChallengeGone { id } if *id == open),
    );
    match first_word {
        ServerMsg::ChallengeAccepted {
            id,
            code: game,
            seat,
        } => {
            assert_eq!((id.as_str(), game.as_str()), (open.as_str(), code.as_str()));
            assert_eq!(seat, 1 - taker_seat);
            ada.send(&ClientMsg::Resume {
                code: game.clone(),
                token: None,
            });
            let state = state_where(&ada, |s| s.code == game);
            assert_eq!(state.your_seat, Some(seat));
            assert!(state.rated);
            assert!(state.seats.iter().all(|s| s.taken));
            assert_eq!(state.seats[seat].player.as_deref(), Some("Ada"));
        }
        other => panic!("accepted before gone, not {other:?}"),
    }
    match next_message(&visitor, |m| matches!(m, ServerMsg::ChallengeGone { .. })) {
        ServerMsg::ChallengeGone { id } => assert_eq!(id, open),
        _ => unreachable!(),
    }
    assert_eq!(ids(&lobby(&raw(address))), Vec::<&str>::new());
    // One game was made: Ada's account has it and no other.
    match ask(&ada, ClientMsg::MyGames { seats: vec![] }) {
        ServerMsg::Games { games } => {
            let codes: Vec<&str> = games.iter().map(|g| g.code.as_str()).collect();
            assert_eq!(codes, [code.as_str()]);
        }
        other => panic!("games, not {other:?}"),
    }

    // Ada takes her named challenge down.
    ada.send(&ClientMsg::CancelChallenge { id: named.clone() });
    let reply = next_message(&ada, |m| {
        matches!(m, ServerMsg::ChallengeGone { id } if *id == named)
            || matches!(m, ServerMsg::Error { .. })
    });
    assert!(
        matches!(reply, ServerMsg::ChallengeGone { .. }),
        "{reply:?}"
    );
    assert!(lobby(&raw(address)).is_empty());

    // Play now: nothing fits, so Ada's ask is posted (once, however often she asks); Bea's
    // takes it.
    let play_now = ClientMsg::PlayNow {
        game: "adaptoid".into(),
        pace: Pace::Live,
        rated: false,
    };
    let waiting = match ask(&ada, play_now.clone()) {
        ServerMsg::ChallengePosted { id } => id,
        other => panic!("posted, not {other:?}"),
    };
    assert!(
        matches!(ask(&ada, play_now.clone()), ServerMsg::ChallengePosted { ref id } if *id == waiting)
    );
    let bea = log_in(address, "Bea");
    bea.send(&play_now);
    let taken = next_message(&bea, |m| {
        matches!(
            m,
            ServerMsg::Seated { .. } | ServerMsg::Error { .. } | ServerMsg::ChallengePosted { .. }
        )
    });
    assert!(matches!(taken, ServerMsg::Seated { .. }), "{taken:?}");
    match next_message(&ada, |m| matches!(m, ServerMsg::ChallengeAccepted { .. })) {
        ServerMsg::ChallengeAccepted { id, .. } => assert_eq!(id, waiting),
        _ => unreachable!(),
    }

    // A poster who never looked at the lobby hears of a taker all the same, on each of
    // their connections that posted.
    let dee = register(address, "Dee");
    let unseen = post(&dee, terms("adomoc"), None).unwrap();
    bea.send(&ClientMsg::AcceptChallenge { id: unseen.clone() });
    match next_message(&dee, |m| {
        matches!(
            m,
            ServerMsg::ChallengeAccepted { .. }
                | ServerMsg::ChallengeAdded(_)
                | ServerMsg::ChallengeGone { .. }
        )
    }) {
        ServerMsg::ChallengeAccepted { id, .. } => assert_eq!(id, unseen),
        other => panic!("accepted, and nothing of the lobby, not {other:?}"),
    }

    // Five open at once, no more.
    let cyd = log_in(address, "Cyd");
    let mut cyds = Vec::new();
    for _ in 0..5 {
        cyds.push(post(&cyd, terms("adaptoid"), None).unwrap());
    }
    let refused = post(&cyd, terms("adaptoid"), None).unwrap_err();
    assert!(refused.contains("5 open challenges"), "{refused}");
    cyds
}

#[test]
fn the_lobby_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("lobby.sqlite3");
    let (open, for_deleted) = {
        let server = in_process(&path);
        let open = lobby_story(&server.address);
        // A connection whose session ended elsewhere hears only what anyone does: not a
        // challenge to its player, still an open one.
        let ada = log_in(&server.address, "Ada");
        lobby(&ada);
        let out = ask(&log_in(&server.address, "Ada"), ClientMsg::LogOutEverywhere);
        assert!(matches!(out, ServerMsg::LoggedOut), "{out:?}");
        let bea = log_in(&server.address, "Bea");
        post(&bea, terms("adomoc"), Some("Ada")).unwrap();
        let public = post(&bea, terms("adomoc"), None).unwrap();
        match next_message(&ada, |m| matches!(m, ServerMsg::ChallengeAdded(_))) {
            ServerMsg::ChallengeAdded(c) => assert_eq!(c.id, public),
            _ => unreachable!(),
        }
        // A challenge to a player who then deletes their account goes with it.
        let ada = log_in(&server.address, "Ada");
        let for_bea = post(&ada, terms("adomoc"), Some("Bea")).unwrap();
        let bea = log_in(&server.address, "Bea");
        let deleted = ask(
            &bea,
            ClientMsg::DeleteAccount {
                password: PASSWORD.into(),
            },
        );
        assert!(matches!(deleted, ServerMsg::AccountDeleted), "{deleted:?}");
        assert!(!ids(&lobby(&ada)).contains(&for_bea.as_str()));
        (open, for_bea)
    };
    // A restart keeps the open challenges.
    let server = in_process(&path);
    let after = lobby(&log_in(&server.address, "Ada"));
    assert_eq!(
        sorted(ids(&after)),
        sorted(open.iter().map(String::as_str).collect())
    );
    assert!(!ids(&after).contains(&for_deleted.as_str()));
}

/// Challenges posted in one millisecond come in either order.
fn sorted(mut ids: Vec<&str>) -> Vec<&str> {
    ids.sort_unstable();
    ids
}

#[test]
fn a_burst_of_news_reaches_a_follower_whole_and_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let server = in_process(&dir.path().join("burst.sqlite3"));
    let address = &server.address;
    let follower = raw(address);
    assert!(lobby(&follower).is_empty());
    let posters: Vec<Connection> = ["Ada", "Bea", "Cyd", "Dee"]
        .iter()
        .map(|name| register(address, name))
        .collect();
    // Posted one after another as fast as they are answered, then each cancelled: the news
    // comes in batches, and every change of them in the order made.
    let mut made = Vec::new();
    for round in 0..5 {
        for (n, poster) in posters.iter().enumerate() {
            let game = ["adaptoid", "adomoc", "absorption", "adamas"][(round + n) % 4];
            made.push((n, post(poster, terms(game), None).unwrap()));
        }
    }
    for (n, id) in &made {
        posters[*n].send(&ClientMsg::CancelChallenge { id: id.clone() });
    }
    let mut heard = Vec::new();
    while heard.len() < 2 * made.len() {
        match next_message(&follower, |m| {
            matches!(
                m,
                ServerMsg::ChallengeAdded(_) | ServerMsg::ChallengeGone { .. }
            )
        }) {
            ServerMsg::ChallengeAdded(challenge) => heard.push(format!("+{}", challenge.id)),
            ServerMsg::ChallengeGone { id } => heard.push(format!("-{id}")),
            _ => unreachable!(),
        }
    }
    let posted: Vec<String> = made.iter().map(|(_, id)| format!("+{id}")).collect();
    assert_eq!(heard[..made.len()], posted[..]);
    // Cancelled from four connections at once: each gone once, whatever the order.
    let mut gone: Vec<String> = heard[made.len()..].to_vec();
    gone.sort();
    let mut cancelled: Vec<String> = made.iter().map(|(_, id)| format!("-{id}")).collect();
    cancelled.sort();
    assert_eq!(gone, cancelled);
    assert!(lobby(&raw(address)).is_empty());
}

#[test]
fn the_lobby_on_postgres() {
    let Some(database) = TestDatabase::new("lobby") else {
        return;
    };
    let first = in_process_at(&database.url);
    let open = lobby_story(&first.address);
    // Through another process, on the same database: the same challenges.
    let second = in_process_at(&database.url);
    let bea = log_in(&second.address, "Bea");
    assert_eq!(
        sorted(ids(&lobby(&bea))),
        sorted(open.iter().map(String::as_str).collect())
    );
    // Followers of the first process hear at once what happens through the second.
    let ada = log_in(&first.address, "Ada");
    let cyd = log_in(&first.address, "Cyd");
    assert_eq!(lobby(&ada).len(), open.len());
    lobby(&cyd);
    let added = |connection: &Connection| match next_message(connection, |m| {
        matches!(m, ServerMsg::ChallengeAdded(_))
    }) {
        ServerMsg::ChallengeAdded(challenge) => challenge,
        _ => unreachable!(),
    };
    let gone = |connection: &Connection| match next_message(connection, |m| {
        matches!(m, ServerMsg::ChallengeGone { .. })
    }) {
        ServerMsg::ChallengeGone { id } => id,
        _ => unreachable!(),
    };

    // Cyd's challenge taken through the second process: Cyd, on the first, hears it was
    // taken before that it is gone, and takes her seat there; Ada sees it go.
    let taken = ask(
        &bea,
        ClientMsg::AcceptChallenge {
            id: open[0].clone(),
        },
    );
    let (code, bea_seat) = match taken {
        ServerMsg::Seated { code, seat, .. } => (code, seat),
        other => panic!("seated, not {other:?}"),
    };
    match next_message(
        &cyd,
        |m| matches!(m, ServerMsg::ChallengeAccepted { id, .. } | ServerMsg::ChallengeGone { id } if *id == open[0]),
    ) {
        ServerMsg::ChallengeAccepted {
            code: game, seat, ..
        } => {
            assert_eq!((game.as_str(), seat), (code.as_str(), 1 - bea_seat));
            cyd.send(&ClientMsg::Resume {
                code: game.clone(),
                token: None,
            });
            let state = state_where(&cyd, |s| s.code == game);
            assert_eq!(state.your_seat, Some(seat));
            assert_eq!(state.seats[bea_seat].player.as_deref(), Some("Bea"));
        }
        other => panic!("accepted before gone, not {other:?}"),
    }
    assert_eq!(gone(&ada), open[0]);
    let refused = error_of(ask(
        &ada,
        ClientMsg::AcceptChallenge {
            id: open[0].clone(),
        },
    ));
    assert!(refused.contains("is not open"), "{refused}");

    // Cancelled through the second process.
    let cyd_there = log_in(&second.address, "Cyd");
    cyd_there.send(&ClientMsg::CancelChallenge {
        id: open[1].clone(),
    });
    let cancelled = next_message(&cyd_there, |m| {
        matches!(m, ServerMsg::ChallengeGone { .. } | ServerMsg::Error { .. })
    });
    assert!(
        matches!(cancelled, ServerMsg::ChallengeGone { ref id } if *id == open[1]),
        "{cancelled:?}"
    );
    assert_eq!(gone(&ada), open[1]);

    // Posted through the second process: shown through the first, a named one to its two
    // players alone (Ada's next news is the open one posted after it).
    let named = post(&bea, terms("absorption"), Some("Cyd")).unwrap();
    let posted = post(&bea, terms("adamas"), None).unwrap();
    assert_eq!(added(&cyd).id, named);
    assert_eq!(added(&cyd).id, posted);
    let shown = added(&ada);
    assert_eq!(
        (shown.id.as_str(), shown.by.as_str()),
        (posted.as_str(), "Bea")
    );
    assert_eq!(
        shown.terms,
        lobby(&bea).iter().find(|c| c.id == posted).unwrap().terms
    );

    assert!(ids(&lobby(&ada)).contains(&posted.as_str()));

    // An account deleted through the second process: its challenges go from the first.
    let eve = register(&second.address, "Eve");
    let eves = post(&eve, terms("adaptoid"), None).unwrap();
    assert_eq!(added(&ada).id, eves);
    let deleted = ask(
        &eve,
        ClientMsg::DeleteAccount {
            password: PASSWORD.into(),
        },
    );
    assert!(matches!(deleted, ServerMsg::AccountDeleted), "{deleted:?}");
    assert_eq!(gone(&ada), eves);
}
