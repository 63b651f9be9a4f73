//! What a committed change tells the other server processes (NOTIFY), and listening for
//! theirs (LISTEN).

use super::config;
use crate::store::{Change, News, Step, StoredMove};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio_postgres::{AsyncMessage, NoTls};

/// The channel every server listens on.
pub(super) const CHANNEL: &str = "tabula_games";

/// What a change tells the other processes: `ORIGIN CODE VERSION`, and for a move
/// `PLY SEAT AT_MS TEXT` after that, so they can play it without reading the database.
pub(super) fn news_payload(origin: &str, change: &Change) -> String {
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
pub(super) fn created_payload(origin: &str, code: &str) -> String {
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
}
