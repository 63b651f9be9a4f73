//! SQLite, embedded: the default store. One thread owns the database and commits the
//! changes that arrive together in one transaction (each in its own savepoint, so one
//! refused change does not undo the others): many games' moves share one disk sync.
//! Accounts' requests are in [`accounts`].

mod accounts;
mod challenges;
mod mail;
mod ratings;
mod turns;

use super::migrations;
use super::queue::{Inbox, Request, Requests, answer, queue};
use super::{
    Change, Op, Reply, Step, StoreError, StoredGame, StoredMove, changed_meanwhile, from_json,
    pace_name, pace_of, shown_player, to_json, waiting_column, waiting_of,
};
use rusqlite::{Connection, ErrorCode, OptionalExtension, params};

#[derive(Clone)]
pub struct SqliteStore {
    requests: Requests,
}

impl SqliteStore {
    pub fn open(path: &str) -> Result<SqliteStore, String> {
        if let Some(parent) = std::path::Path::new(path).parent()
            && !parent.as_os_str().is_empty()
        {
            std::fs::create_dir_all(parent)
                .map_err(|e| format!("cannot make the folder for {path}: {e}"))?;
        }
        let mut conn =
            Connection::open(path).map_err(|e| format!("cannot open the database {path}: {e}"))?;
        // WAL lets reads go on during a write; FULL syncs every commit, so an
        // acknowledged move survives a crash of the machine, not only of the process.
        conn.execute_batch(
            "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;",
        )
        .map_err(|e| format!("{path}: {e}"))?;
        migrate(&mut conn).map_err(|e| format!("{path}: {e}"))?;
        let (requests, inbox) = queue();
        std::thread::Builder::new()
            .name("tabula-sqlite".into())
            .spawn(move || serve(conn, inbox))
            .map_err(|e| format!("cannot start the database thread: {e}"))?;
        Ok(SqliteStore { requests })
    }

    pub async fn run(&self, op: Op) -> Result<Reply, StoreError> {
        self.requests.run(op).await
    }
}

fn migrate(conn: &mut Connection) -> rusqlite::Result<()> {
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY)",
    )?;
    let done: i64 = conn.query_row(
        "SELECT COALESCE(MAX(version), 0) FROM schema_migrations",
        [],
        |row| row.get(0),
    )?;
    for (index, step) in migrations::SQLITE
        .iter()
        .enumerate()
        .skip(done.max(0) as usize)
    {
        let tx = conn.transaction()?;
        tx.execute_batch(step)?;
        tx.execute(
            "INSERT INTO schema_migrations (version) VALUES (?1)",
            [index as i64 + 1],
        )?;
        tx.commit()?;
    }
    Ok(())
}

fn serve(mut conn: Connection, mut inbox: Inbox) {
    while let Some(batch) = inbox.next_batch_blocking() {
        let results = run_batch(&mut conn, &batch);
        answer(batch, results);
    }
}

fn run_batch(conn: &mut Connection, batch: &[Request]) -> Vec<Result<Reply, StoreError>> {
    let failed = |e: rusqlite::Error| StoreError::Failed(e.to_string());
    let mut tx = match conn.transaction() {
        Ok(tx) => tx,
        Err(e) => {
            let why = e.to_string();
            return batch
                .iter()
                .map(|_| Err(StoreError::Failed(why.clone())))
                .collect();
        }
    };
    let mut results = Vec::with_capacity(batch.len());
    for request in batch {
        // A failure SQLite answers by rolling back the whole transaction (a full disk, an
        // I/O error) leaves nothing to commit: the rest of the batch fails with it, rather
        // than landing in a transaction of its own that the batch's commit does not see.
        if tx.is_autocommit() {
            results.push(Err(StoreError::Failed(
                "the database rolled back the transaction".into(),
            )));
            continue;
        }
        let result = match tx.savepoint() {
            Ok(mut point) => {
                let result = apply(&point, &request.op);
                let kept = if result.is_ok() {
                    point.commit()
                } else {
                    point.rollback()
                };
                result.and_then(|reply| kept.map(|()| reply).map_err(failed))
            }
            Err(e) => Err(failed(e)),
        };
        results.push(result);
    }
    if results
        .iter()
        .any(|r| matches!(r, Err(StoreError::Failed(_))))
        && tx.is_autocommit()
    {
        return results
            .into_iter()
            .map(|_| {
                Err(StoreError::Failed(
                    "the database rolled back the transaction".into(),
                ))
            })
            .collect();
    }
    if let Err(e) = tx.commit() {
        let why = e.to_string();
        return results
            .into_iter()
            .map(|_| Err(StoreError::Failed(why.clone())))
            .collect();
    }
    results
}

fn is_constraint(e: &rusqlite::Error) -> bool {
    e.sqlite_error_code() == Some(ErrorCode::ConstraintViolation)
}

fn apply(tx: &Connection, op: &Op) -> Result<Reply, StoreError> {
    let failed = |e: rusqlite::Error| StoreError::Failed(e.to_string());
    match op {
        Op::Create(game) => {
            tx.execute(
                "INSERT INTO games (code, game, settings, pace, move_seconds, ending, created_ms,
                     clock_ms, version, offers, rated, waiting_seat)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
                params![
                    game.code,
                    game.game,
                    to_json(&game.settings),
                    pace_name(game.pace),
                    game.move_seconds,
                    game.ending.as_ref().map(to_json),
                    game.created_ms as i64,
                    game.clock_ms.map(|ms| ms as i64),
                    game.version as i64,
                    to_json(&game.offers),
                    game.rated,
                    waiting_column(game.waiting_seat),
                ],
            )
            .map_err(|e| {
                if is_constraint(&e) {
                    StoreError::Conflict(format!("the code {} is taken", game.code))
                } else {
                    failed(e)
                }
            })?;
            for (seat, token) in game.tokens.iter().enumerate() {
                let account = game.accounts.get(seat).copied().flatten();
                tx.execute(
                    "INSERT INTO seats (code, seat, token, account) VALUES (?1, ?2, ?3, ?4)",
                    params![game.code, seat as i64, token, account],
                )
                .map_err(failed)?;
            }
            for (ply, mv) in game.moves.iter().enumerate() {
                insert_move(tx, &game.code, ply, mv)?;
            }
            Ok(Reply::Done)
        }
        Op::Load { code } => load(tx, code).map(Reply::Game),
        Op::Change(change) => apply_change(tx, change),
        Op::Account(op) => accounts::apply(tx, op),
        Op::Ratings(op) => ratings::apply(tx, op),
        Op::Challenge(op) => challenges::apply_challenge(tx, op),
        Op::Turns(op) => turns::apply(tx, op),
        Op::Mail(op) => mail::apply(tx, op),
    }
}

fn apply_change(tx: &Connection, change: &Change) -> Result<Reply, StoreError> {
    let failed = |e: rusqlite::Error| StoreError::Failed(e.to_string());
    let code = &change.code;
    let ending = match &change.step {
        Step::End(ending) => Some(to_json(ending)),
        _ => None,
    };
    let changed = tx
        .execute(
            "UPDATE games SET version = version + 1, offers = ?3,
                 clock_ms = COALESCE(?4, clock_ms), ending = ?5, waiting_seat = ?6
             WHERE code = ?1 AND version = ?2 AND ending IS NULL",
            params![
                code,
                change.version as i64,
                to_json(&change.offers),
                change.clock_ms.map(|ms| ms as i64),
                ending,
                waiting_column(change.waiting_seat),
            ],
        )
        .map_err(failed)?;
    if changed == 0 {
        return Err(changed_meanwhile(code));
    }
    match &change.step {
        Step::Claim {
            seat,
            token,
            account,
        } => {
            let claimed = tx
                .execute(
                    "UPDATE seats SET token = ?3, account = ?4
                     WHERE code = ?1 AND seat = ?2 AND token IS NULL
                         AND (?4 IS NULL OR NOT EXISTS
                             (SELECT 1 FROM seats WHERE code = ?1 AND account = ?4))",
                    params![code, *seat as i64, token, account],
                )
                .map_err(failed)?;
            if claimed == 0 {
                return Err(StoreError::Conflict(format!(
                    "seat {} of game {code} is taken",
                    seat + 1
                )));
            }
        }
        Step::AddMove { ply, mv } => {
            // Right after the last move stored: never over one, never past a gap.
            let held: i64 = tx
                .query_row(
                    "SELECT COUNT(*) FROM moves WHERE code = ?1",
                    [code],
                    |row| row.get(0),
                )
                .map_err(failed)?;
            if held as usize != *ply {
                return Err(changed_meanwhile(code));
            }
            insert_move(tx, code, *ply, mv)?;
        }
        Step::TakeBack { ply } => {
            tx.execute(
                "DELETE FROM moves WHERE code = ?1 AND ply >= ?2",
                params![code, *ply as i64],
            )
            .map_err(failed)?;
        }
        Step::End(_) | Step::Offers => {}
    }
    if let Some(end) = &change.rated_end {
        ratings::rate_end(tx, code, end)?;
    }
    Ok(Reply::Done)
}

fn insert_move(tx: &Connection, code: &str, ply: usize, mv: &StoredMove) -> Result<(), StoreError> {
    tx.execute(
        "INSERT INTO moves (code, ply, text, seat, at_ms) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![code, ply as i64, mv.text, mv.seat as i64, mv.at_ms as i64],
    )
    .map_err(|e| {
        if is_constraint(&e) {
            StoreError::Conflict(format!("move {} of game {code} is already stored", ply + 1))
        } else {
            StoreError::Failed(e.to_string())
        }
    })?;
    Ok(())
}

fn load(tx: &Connection, code: &str) -> Result<Option<Box<StoredGame>>, StoreError> {
    let failed = |e: rusqlite::Error| StoreError::Failed(e.to_string());
    let row = tx
        .query_row(
            "SELECT game, settings, pace, move_seconds, ending, created_ms, clock_ms, version,
                 offers, rated, waiting_seat
             FROM games WHERE code = ?1",
            [code],
            |row| {
                Ok((
                    row.get::<_, String>(0)?,
                    row.get::<_, String>(1)?,
                    row.get::<_, String>(2)?,
                    row.get::<_, Option<u32>>(3)?,
                    row.get::<_, Option<String>>(4)?,
                    row.get::<_, i64>(5)?,
                    row.get::<_, Option<i64>>(6)?,
                    row.get::<_, i64>(7)?,
                    row.get::<_, Option<String>>(8)?,
                    row.get::<_, bool>(9)?,
                    row.get::<_, Option<i64>>(10)?,
                ))
            },
        )
        .optional()
        .map_err(failed)?;
    let Some((
        game,
        settings,
        pace,
        move_seconds,
        ending,
        created_ms,
        clock_ms,
        version,
        offers,
        rated,
        waiting_seat,
    )) = row
    else {
        return Ok(None);
    };
    let mut seats = tx
        .prepare_cached(
            "SELECT s.token, s.account, a.name, a.deleted_ms IS NOT NULL
             FROM seats s LEFT JOIN accounts a ON a.id = s.account
             WHERE s.code = ?1 ORDER BY s.seat",
        )
        .map_err(failed)?;
    let seats = seats
        .query_map([code], |row| {
            Ok((
                row.get::<_, Option<String>>(0)?,
                row.get::<_, Option<i64>>(1)?,
                shown_player(row.get(2)?, row.get::<_, Option<bool>>(3)?.unwrap_or(false)),
            ))
        })
        .and_then(|rows| rows.collect::<Result<Vec<_>, _>>())
        .map_err(failed)?;
    let tokens = seats.iter().map(|s| s.0.clone()).collect();
    let accounts = seats.iter().map(|s| s.1).collect();
    let players = seats.into_iter().map(|s| s.2).collect();
    let mut moves = tx
        .prepare_cached("SELECT text, seat, at_ms FROM moves WHERE code = ?1 ORDER BY ply")
        .map_err(failed)?;
    let moves = moves
        .query_map([code], |row| {
            Ok(StoredMove {
                text: row.get(0)?,
                seat: row.get::<_, i64>(1)?.max(0) as usize,
                at_ms: row.get::<_, i64>(2)?.max(0) as u64,
            })
        })
        .and_then(|rows| rows.collect::<Result<Vec<_>, _>>())
        .map_err(failed)?;
    Ok(Some(Box::new(StoredGame {
        code: code.to_string(),
        game,
        settings: from_json(&settings, "settings")?,
        pace: pace_of(&pace)?,
        move_seconds,
        rated,
        tokens,
        accounts,
        players,
        moves,
        ending: ending.map(|e| from_json(&e, "ending")).transpose()?,
        created_ms: created_ms.max(0) as u64,
        clock_ms: clock_ms.map(|ms| ms.max(0) as u64),
        version: version.max(0) as u64,
        offers: offers
            .map(|o| from_json(&o, "offers"))
            .transpose()?
            .unwrap_or_default(),
        waiting_seat: waiting_of(waiting_seat),
    })))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_protocol::Pace;

    #[test]
    fn an_older_database_is_brought_up_to_date_and_keeps_its_games() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.sqlite3");
        {
            // A database as the first schema left it, with one game in it.
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(
                "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY);
                 INSERT INTO schema_migrations VALUES (1);",
            )
            .unwrap();
            conn.execute_batch(migrations::SQLITE[0]).unwrap();
            conn.execute_batch(
                "INSERT INTO games VALUES ('ABC234', 'adomoc', '[]', 'live', 60, NULL, 5);
                 INSERT INTO seats VALUES ('ABC234', 0, 'aa'), ('ABC234', 1, NULL);
                 INSERT INTO moves VALUES ('ABC234', 0, 'Fa3a6', 0, 9);",
            )
            .unwrap();
        }
        let store = SqliteStore::open(path.to_str().unwrap()).unwrap();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let game = runtime
            .block_on(store.run(Op::Load {
                code: "ABC234".into(),
            }))
            .unwrap();
        let Reply::Game(Some(game)) = game else {
            panic!("the game is there")
        };
        assert_eq!(game.pace, Pace::Live);
        assert_eq!(game.tokens, vec![Some("aa".to_string()), None]);
        assert_eq!(game.moves[0].text, "Fa3a6");
        assert_eq!(game.clock_ms, None);
        // Whose turn it is was not kept then: not known, until a change says.
        assert_eq!(game.waiting_seat, None);
        let unknown = runtime.block_on(store.run(Op::Turns(crate::store::TurnOp::Unknown {
            after: String::new(),
            limit: 10,
        })));
        assert!(
            matches!(&unknown, Ok(Reply::Codes(codes)) if codes == &["ABC234"]),
            "{unknown:?}"
        );
        // The new column works: a claim sets the clock.
        runtime
            .block_on(store.run(Op::Change(Box::new(Change {
                code: "ABC234".into(),
                version: 0,
                step: Step::Claim {
                    seat: 1,
                    token: "bb".into(),
                    account: None,
                },
                offers: Default::default(),
                clock_ms: Some(77),
                rated_end: None,
                waiting_seat: Some(1),
            }))))
            .unwrap();
        let Reply::Game(Some(game)) = runtime
            .block_on(store.run(Op::Load {
                code: "ABC234".into(),
            }))
            .unwrap()
        else {
            panic!("the game is there")
        };
        assert_eq!(game.clock_ms, Some(77));
        assert_eq!(game.version, 1);
        assert_eq!(game.waiting_seat, Some(1));
        let unknown = runtime.block_on(store.run(Op::Turns(crate::store::TurnOp::Unknown {
            after: String::new(),
            limit: 10,
        })));
        assert!(
            matches!(&unknown, Ok(Reply::Codes(codes)) if codes.is_empty()),
            "{unknown:?}"
        );
        assert_eq!(game.tokens[1].as_deref(), Some("bb"));
        let versions: i64 = Connection::open(&path)
            .unwrap()
            .query_row("SELECT MAX(version) FROM schema_migrations", [], |r| {
                r.get(0)
            })
            .unwrap();
        assert_eq!(versions as usize, migrations::SQLITE.len());
    }
}
