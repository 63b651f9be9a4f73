//! SQLite, embedded: the default store. One thread owns the database and commits the
//! changes that arrive together in one transaction (each in its own savepoint, so one
//! refused change does not undo the others): many games' moves share one disk sync.
//! A game's rows are in [`games`], accounts' requests in [`accounts`].

mod accounts;
mod challenges;
mod games;
mod mail;
mod ratings;
mod turns;

use super::migrations;
use super::queue::{Inbox, Request, Requests, answer, queue};
use super::{Op, Reply, StoreError};
use rusqlite::{Connection, ErrorCode};

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
    match op {
        Op::Create(game) => games::create(tx, game),
        Op::Load { code } => games::load(tx, code).map(Reply::Game),
        Op::Change(change) => games::apply_change(tx, change),
        Op::Account(op) => accounts::apply(tx, op),
        Op::Ratings(op) => ratings::apply(tx, op),
        Op::Challenge(op) => challenges::apply_challenge(tx, op),
        Op::Turns(op) => turns::apply(tx, op),
        Op::Mail(op) => mail::apply(tx, op),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{Change, Step};
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
