//! What a committed change tells the other server processes (NOTIFY), and listening for
//! theirs (LISTEN).

use super::config;
use crate::store::{
    AccountOp, ChallengeOp, Change, LobbyWord, News, Op, Step, StoredChallenge, StoredMove,
};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio_postgres::{AsyncMessage, NoTls};

/// The channel every server listens on.
pub(super) const CHANNEL: &str = "tabula_games";

/// The longest news NOTIFY carries is 8,000 bytes; a challenge longer than this (it cannot
/// be, with the names and options the lobby allows) is told as "read the lobby again".
const LONGEST_TOLD: usize = 7_000;

/// What the request `op`, done, tells the other processes.
pub(super) fn payloads(origin: &str, op: &Op) -> Vec<String> {
    match op {
        Op::Change(change) => vec![news_payload(origin, change)],
        Op::Challenge(ChallengeOp::Accept {
            id,
            game,
            poster_seat,
        }) => {
            let mut told = vec![created_payload(origin, &game.code)];
            told.push(match game.accounts.get(*poster_seat).copied().flatten() {
                Some(poster) => format!(
                    "{origin} lobby taken {id} {} {poster} {poster_seat}",
                    game.code
                ),
                None => format!("{origin} lobby gone {id}"),
            });
            told
        }
        Op::Challenge(ChallengeOp::Post(challenge)) => {
            let kept = serde_json::to_string(challenge).expect("plain data serializes");
            vec![if kept.len() <= LONGEST_TOLD {
                format!("{origin} lobby posted {kept}")
            } else {
                format!("{origin} lobby unknown")
            }]
        }
        Op::Challenge(ChallengeOp::Cancel { id, .. }) => vec![format!("{origin} lobby gone {id}")],
        Op::Account(AccountOp::Delete { account, .. }) => {
            vec![format!("{origin} lobby left {account}")]
        }
        _ => Vec::new(),
    }
}

/// What a change tells the other processes: `ORIGIN CODE VERSION`, and for a move
/// `PLY SEAT AT_MS TEXT` after that, so they can play it without reading the database.
fn news_payload(origin: &str, change: &Change) -> String {
    let (code, version) = (&change.code, change.version + 1);
    match &change.step {
        Step::AddMove { ply, mv } => format!(
            "{origin} {code} {version} {ply} {} {} {}",
            mv.seat, mv.at_ms, mv.text
        ),
        _ => format!("{origin} {code} {version}"),
    }
}

/// What a game made from a challenge tells the other processes: its first version, as a
/// change (a player of it may follow their turns there).
fn created_payload(origin: &str, code: &str) -> String {
    format!("{origin} {code} 0")
}

/// Reads [`news_payload`]'s text, unless it came from `origin` (this process) or is not
/// news at all.
fn read_news(payload: &str, origin: &str) -> Option<News> {
    let mut words = payload.splitn(7, ' ');
    if words.next()? == origin {
        return None;
    }
    let code = words.next()?.to_string();
    // No game's code is this word. A word of the lobby not understood (a newer server's)
    // says the lobby changed all the same: read it again.
    if code == "lobby" {
        let told = payload.split_once(" lobby ").map_or("", |(_, told)| told);
        return Some(News::Lobby(
            read_lobby_word(told).unwrap_or(LobbyWord::Unknown),
        ));
    }
    let version = words.next()?.parse().ok()?;
    let Some(ply) = words.next() else {
        return Some(News::Changed { code, version });
    };
    let (ply, seat, at_ms) = (ply.parse().ok()?, words.next()?, words.next()?);
    Some(News::Moved {
        code,
        version,
        ply,
        mv: StoredMove {
            seat: seat.parse().ok()?,
            at_ms: at_ms.parse().ok()?,
            text: words.next()?.to_string(),
        },
    })
}

/// Reads what [`payloads`] told of the lobby, after its `ORIGIN lobby `.
fn read_lobby_word(told: &str) -> Option<LobbyWord> {
    let (what, rest) = told.split_once(' ').unwrap_or((told, ""));
    let mut words = rest.split(' ');
    let mut word = || words.next().filter(|w| !w.is_empty());
    Some(match what {
        "posted" => LobbyWord::Posted(Box::new(
            serde_json::from_str::<StoredChallenge>(rest).ok()?,
        )),
        "unknown" => LobbyWord::Unknown,
        "gone" => LobbyWord::Gone {
            id: word()?.to_string(),
        },
        "taken" => LobbyWord::Taken {
            id: word()?.to_string(),
            code: word()?.to_string(),
            poster: word()?.parse().ok()?,
            seat: word()?.parse().ok()?,
        },
        "left" => LobbyWord::Left {
            account: word()?.parse().ok()?,
        },
        _ => return None,
    })
}

/// Tells `news` of every game another process changes, for as long as anyone hears it;
/// after a lost connection, connects again and says news may have been missed.
pub(super) async fn listen(url: Arc<str>, origin: Arc<str>, news: mpsc::UnboundedSender<News>) {
    loop {
        let connected = match config(&url) {
            Ok(config) => config.connect(NoTls).await,
            Err(e) => Err(e),
        };
        if let Ok((client, mut connection)) = connected {
            let mut messages = futures_util::stream::poll_fn(move |cx| connection.poll_message(cx));
            // The LISTEN's answer comes through the connection, which is polled below.
            let command = format!("LISTEN {CHANNEL}");
            let listening = client.batch_execute(&command);
            tokio::pin!(listening);
            let mut listened = false;
            loop {
                tokio::select! {
                    done = &mut listening, if !listened => {
                        if done.is_err() { break; }
                        listened = true;
                        if news.send(News::Missed).is_err() { return; }
                    }
                    message = futures_util::StreamExt::next(&mut messages) => {
                        match message {
                            Some(Ok(AsyncMessage::Notification(note))) => {
                                if let Some(item) = read_news(note.payload(), &origin)
                                    && news.send(item).is_err()
                                {
                                    return;
                                }
                            }
                            Some(Ok(_)) => {}
                            Some(Err(_)) | None => break,
                        }
                    }
                }
            }
        }
        if news.is_closed() {
            return;
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn news_is_read_back_as_written_and_a_process_passes_over_its_own() {
        let mv = StoredMove {
            text: "d2-e2 +d3".into(),
            seat: 1,
            at_ms: 1_700_000_000_123,
        };
        let change = |step| Change {
            code: "K7MQ2X".into(),
            version: 41,
            step,
            offers: Default::default(),
            clock_ms: None,
            rated_end: None,
            waiting_seat: None,
        };
        let moved = news_payload(
            "aaaa",
            &change(Step::AddMove {
                ply: 17,
                mv: mv.clone(),
            }),
        );
        assert_eq!(
            read_news(&moved, "bbbb"),
            Some(News::Moved {
                code: "K7MQ2X".into(),
                version: 42,
                ply: 17,
                mv
            })
        );
        assert_eq!(read_news(&moved, "aaaa"), None);
        let ended = news_payload("aaaa", &change(Step::Offers));
        assert_eq!(
            read_news(&ended, "bbbb"),
            Some(News::Changed {
                code: "K7MQ2X".into(),
                version: 42
            })
        );
        for junk in [
            "",
            "x",
            "x K7MQ2X",
            "x K7MQ2X v",
            "x K7MQ2X 3 p 1 2 m",
            "x K7MQ2X 3 1 1",
        ] {
            assert_eq!(read_news(junk, "aaaa"), None, "{junk:?}");
        }
    }

    #[test]
    fn the_lobby_is_told_as_done_and_read_back() {
        use crate::store::StoredGame;
        use tabula_protocol::lobby::ChallengeTerms;
        let kept = StoredChallenge {
            id: "0123456789ab".into(),
            account: 7,
            terms: ChallengeTerms {
                game: "adaptoid".into(),
                settings: vec![("size".into(), "5".into())],
                pace: tabula_protocol::Pace::Live,
                move_seconds: Some(60),
                rated: true,
                seat: None,
            },
            to: Some(9),
            posted_ms: 1_700_000_000_000,
            by: "Ada Lovelace".into(),
            to_name: Some("Bea".into()),
        };
        let heard = |op: Op| -> Vec<Option<News>> {
            payloads("aaaa", &op)
                .iter()
                .map(|p| read_news(p, "bbbb"))
                .collect()
        };
        assert_eq!(
            heard(Op::Challenge(ChallengeOp::Post(Box::new(kept.clone())))),
            [Some(News::Lobby(LobbyWord::Posted(Box::new(kept.clone()))))]
        );
        assert_eq!(
            heard(Op::Challenge(ChallengeOp::Cancel {
                id: kept.id.clone(),
                account: 7
            })),
            [Some(News::Lobby(LobbyWord::Gone {
                id: kept.id.clone()
            }))]
        );
        let mut game = StoredGame {
            code: "K7MQ2X".into(),
            game: "adaptoid".into(),
            settings: Vec::new(),
            pace: tabula_protocol::Pace::Live,
            move_seconds: None,
            rated: true,
            tokens: vec![None, None],
            accounts: vec![Some(9), Some(7)],
            players: vec![None, None],
            moves: Vec::new(),
            ending: None,
            created_ms: 0,
            clock_ms: None,
            version: 0,
            offers: Default::default(),
            waiting_seat: None,
        };
        let accept = |game: &StoredGame| {
            Op::Challenge(ChallengeOp::Accept {
                id: kept.id.clone(),
                game: Box::new(game.clone()),
                poster_seat: 1,
            })
        };
        assert_eq!(
            heard(accept(&game)),
            [
                Some(News::Changed {
                    code: "K7MQ2X".into(),
                    version: 0
                }),
                Some(News::Lobby(LobbyWord::Taken {
                    id: kept.id.clone(),
                    code: "K7MQ2X".into(),
                    poster: 7,
                    seat: 1
                }))
            ]
        );
        // A game without the poster's account says only that the challenge is gone.
        game.accounts = vec![None, None];
        assert_eq!(
            heard(accept(&game))[1],
            Some(News::Lobby(LobbyWord::Gone {
                id: kept.id.clone()
            }))
        );
        assert_eq!(
            heard(Op::Account(AccountOp::Delete {
                account: 7,
                now_ms: 1
            })),
            [Some(News::Lobby(LobbyWord::Left { account: 7 }))]
        );
        // Its own word passes by the process that told it.
        let own = payloads("aaaa", &Op::Challenge(ChallengeOp::Post(Box::new(kept))));
        assert_eq!(read_news(&own[0], "aaaa"), None);
        // Not understood: the lobby is read again.
        for junk in [
            "x lobby",
            "x lobby posted",
            "x lobby posted {",
            "x lobby gone",
            "x lobby taken id K7MQ2X 7",
            "x lobby taken id K7MQ2X seven 1",
            "x lobby left",
            "x lobby left -",
            "x lobby shouted id",
            "x lobby unknown",
        ] {
            assert_eq!(
                read_news(junk, "aaaa"),
                Some(News::Lobby(LobbyWord::Unknown)),
                "{junk:?}"
            );
        }
    }
}
