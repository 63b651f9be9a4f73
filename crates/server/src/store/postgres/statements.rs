//! The statements, and how their rows answer each request. No statement is written to
//! fail on a conflict: a conflict is a change that matched no row (an answer of 0), so an
//! error from the database is always a failure of the whole batch.

use super::accounts::{AccountStatements, run_account};
use super::challenges::{ChallengeStatements, run_challenge};
use super::mail::{MailStatements, run_mail};
use super::news::CHANNEL;
use super::ratings::{RatingStatements, run_ratings};
use super::turns::{TurnStatements, run_turns};
use crate::store::{
    AccountOp, ChallengeOp, Change, MailOp, RatingOp, Reply, Step, StoreError, StoredGame,
    StoredMove, TurnOp, changed_meanwhile, from_json, pace_name, pace_of, shown_player, to_json,
    waiting_column, waiting_of,
};
use tokio_postgres::types::ToSql;
use tokio_postgres::{Client, Statement};

/// The statements, prepared once per connection.
pub(super) struct Statements {
    create: Statement,
    load: Statement,
    claim: Statement,
    add_move: Statement,
    take_back: Statement,
    end_or_offers: Statement,
    pub(super) notify: Statement,
    accounts: AccountStatements,
    pub(super) ratings: RatingStatements,
    challenges: ChallengeStatements,
    turns: TurnStatements,
    mail: MailStatements,
}

/// The first part of every change: the game moves to the next version, if it is still at
/// the version the change was decided on and has not ended. `$1` code, `$2` version,
/// `$3` offers, `$4` clock start (NULL keeps it), `$5` ending (NULL while it goes on);
/// the seat waited for is the statement's last parameter (`{WAITING}`), after the step's.
const BUMP: &str = "UPDATE games SET version = version + 1, offers = $3::text,
        clock_ms = COALESCE($4::int8, clock_ms), ending = $5::text,
        waiting_seat = {WAITING}::int4
    WHERE code = $1::text AND version = $2::int8 AND ending IS NULL";

/// A new game with its seats and moves: `$1` to `$19` (see [`create_params`]); its answer is
/// how many games were made: 1, or 0 for a code taken.
pub(super) const CREATE: &str = "WITH g AS (
        INSERT INTO games (code, game, settings, pace, move_seconds, ending,
            created_ms, clock_ms, version, offers, rated, waiting_seat)
        VALUES ($1::text, $2::text, $3::text, $4::text, $5::int4, $6::text,
            $7::int8, $8::int8, $9::int8, $10::text, $18::bool, $19::int4)
        ON CONFLICT (code) DO NOTHING
        RETURNING code
    ), s AS (
        INSERT INTO seats (code, seat, token, account)
        SELECT g.code, t.seat, t.token, t.account
        FROM g, unnest($11::int4[], $12::text[], $17::int8[])
            AS t(seat, token, account)
    ), m AS (
        INSERT INTO moves (code, ply, text, seat, at_ms)
        SELECT g.code, t.ply, t.text, t.seat, t.at_ms
        FROM g, unnest($13::int4[], $14::text[], $15::int4[], $16::int8[])
            AS t(ply, text, seat, at_ms)
    )
    SELECT count(*) FROM g";

pub(super) async fn prepare(client: &Client) -> Result<Statements, tokio_postgres::Error> {
    Ok(Statements {
        create: client.prepare(CREATE).await?,
        load: client
            .prepare(
                "SELECT game, settings, pace, move_seconds, ending, created_ms, clock_ms,
                    version, offers,
                    ARRAY(SELECT token FROM seats WHERE code = $1::text ORDER BY seat),
                    ARRAY(SELECT text FROM moves WHERE code = $1::text ORDER BY ply),
                    ARRAY(SELECT seat FROM moves WHERE code = $1::text ORDER BY ply),
                    ARRAY(SELECT at_ms FROM moves WHERE code = $1::text ORDER BY ply),
                    ARRAY(SELECT account FROM seats WHERE code = $1::text ORDER BY seat),
                    ARRAY(SELECT a.name FROM seats s LEFT JOIN accounts a ON a.id = s.account
                        WHERE s.code = $1::text ORDER BY s.seat),
                    ARRAY(SELECT a.deleted_ms IS NOT NULL
                        FROM seats s LEFT JOIN accounts a ON a.id = s.account
                        WHERE s.code = $1::text ORDER BY s.seat),
                    rated, waiting_seat
                FROM games WHERE code = $1::text",
            )
            .await?,
        // A seat is claimed only while it is free, and by an account holding no other there.
        claim: client
            .prepare(&change_statement(
                9,
                "g AS ({BUMP} AND EXISTS (SELECT 1 FROM seats
                        WHERE code = $1::text AND seat = $6::int4 AND token IS NULL)
                        AND ($8::int8 IS NULL OR NOT EXISTS (SELECT 1 FROM seats
                            WHERE code = $1::text AND account = $8::int8))
                    RETURNING code
                ), c AS (
                    UPDATE seats SET token = $7::text, account = $8::int8 FROM g
                    WHERE seats.code = g.code AND seats.seat = $6::int4
                )",
            ))
            .await?,
        // A move goes right after the last one stored: never over one, never past a gap.
        add_move: client
            .prepare(&change_statement(
                10,
                "g AS ({BUMP}
                        AND NOT EXISTS (SELECT 1 FROM moves
                            WHERE code = $1::text AND ply >= $6::int4)
                        AND ($6::int4 = 0 OR EXISTS (SELECT 1 FROM moves
                            WHERE code = $1::text AND ply = $6::int4 - 1))
                    RETURNING code
                ), m AS (
                    INSERT INTO moves (code, ply, text, seat, at_ms)
                    SELECT g.code, $6::int4, $7::text, $8::int4, $9::int8 FROM g
                )",
            ))
            .await?,
        take_back: client
            .prepare(&change_statement(
                7,
                "g AS ({BUMP} RETURNING code), d AS (
                    DELETE FROM moves USING g
                    WHERE moves.code = g.code AND moves.ply >= $6::int4
                )",
            ))
            .await?,
        end_or_offers: client
            .prepare(&change_statement(6, "g AS ({BUMP} RETURNING code)"))
            .await?,
        notify: client
            .prepare(&format!(
                "SELECT count(pg_notify('{CHANNEL}', payload)) FROM unnest($1::text[]) AS payload"
            ))
            .await?,
        accounts: AccountStatements::prepare(client).await?,
        ratings: RatingStatements::prepare(client).await?,
        challenges: ChallengeStatements::prepare(client).await?,
        turns: TurnStatements::prepare(client).await?,
        mail: MailStatements::prepare(client).await?,
    })
}

/// A change's statement: `parts` (common table expressions, the first `g`, the game's row
/// if the change was made), whose last parameter is `$waiting`; its answer is how many
/// changes were made: 1, or 0 for a conflict.
fn change_statement(waiting: usize, parts: &str) -> String {
    let bump = BUMP.replace("{WAITING}", &format!("${waiting}"));
    format!(
        "WITH {} SELECT count(*) FROM g",
        parts.replace("{BUMP}", &bump)
    )
}

/// The parameters of one change, in the order its statement numbers them.
fn change_params(change: &Change) -> Vec<Box<dyn ToSql + Sync + Send>> {
    let ending = match &change.step {
        Step::End(ending) => Some(to_json(ending)),
        _ => None,
    };
    let mut params: Vec<Box<dyn ToSql + Sync + Send>> = vec![
        Box::new(change.code.clone()),
        Box::new(change.version as i64),
        Box::new(to_json(&change.offers)),
        Box::new(change.clock_ms.map(|ms| ms as i64)),
        Box::new(ending),
    ];
    match &change.step {
        Step::Claim {
            seat,
            token,
            account,
        } => {
            params.push(Box::new(*seat as i32));
            params.push(Box::new(token.clone()));
            params.push(Box::new(*account));
        }
        Step::AddMove { ply, mv } => {
            params.push(Box::new(*ply as i32));
            params.push(Box::new(mv.text.clone()));
            params.push(Box::new(mv.seat as i32));
            params.push(Box::new(mv.at_ms as i64));
        }
        Step::TakeBack { ply } => params.push(Box::new(*ply as i32)),
        Step::End(_) | Step::Offers => {}
    }
    params.push(Box::new(waiting_param(change.waiting_seat)));
    params
}

/// A waiting seat as a parameter (an `int4`).
pub(super) fn waiting_param(seat: Option<usize>) -> Option<i32> {
    waiting_column(seat).map(|seat| seat as i32)
}

pub(super) fn create_params(game: &StoredGame) -> Vec<Box<dyn ToSql + Sync + Send>> {
    let seats: Vec<i32> = (0..game.tokens.len() as i32).collect();
    vec![
        Box::new(game.code.clone()),
        Box::new(game.game.clone()),
        Box::new(to_json(&game.settings)),
        Box::new(pace_name(game.pace).to_string()),
        Box::new(game.move_seconds.map(|s| s as i32)),
        Box::new(game.ending.as_ref().map(to_json)),
        Box::new(game.created_ms as i64),
        Box::new(game.clock_ms.map(|ms| ms as i64)),
        Box::new(game.version as i64),
        Box::new(to_json(&game.offers)),
        Box::new(seats),
        Box::new(game.tokens.clone()),
        Box::new((0..game.moves.len() as i32).collect::<Vec<i32>>()),
        Box::new(
            game.moves
                .iter()
                .map(|m| m.text.clone())
                .collect::<Vec<_>>(),
        ),
        Box::new(game.moves.iter().map(|m| m.seat as i32).collect::<Vec<_>>()),
        Box::new(
            game.moves
                .iter()
                .map(|m| m.at_ms as i64)
                .collect::<Vec<_>>(),
        ),
        Box::new(
            (0..game.tokens.len())
                .map(|seat| game.accounts.get(seat).copied().flatten())
                .collect::<Vec<Option<i64>>>(),
        ),
        Box::new(game.rated),
        Box::new(waiting_param(game.waiting_seat)),
    ]
}

/// What one request asks of the database, and how its rows answer it.
pub(super) enum Query<'a> {
    Create(&'a StoredGame),
    Load(&'a str),
    Change(&'a Change),
    Account(&'a AccountOp),
    Ratings(&'a RatingOp),
    Challenge(&'a ChallengeOp),
    Turns(&'a TurnOp),
    Mail(&'a MailOp),
}

pub(super) async fn run_one(
    client: &Client,
    statements: &Statements,
    query: Query<'_>,
) -> Result<Result<Reply, StoreError>, tokio_postgres::Error> {
    match query {
        Query::Create(game) => {
            let params = create_params(game);
            let refs: Vec<&(dyn ToSql + Sync)> = params.iter().map(|p| p.as_ref() as _).collect();
            let made: i64 = client.query_one(&statements.create, &refs).await?.get(0);
            Ok(if made == 1 {
                Ok(Reply::Done)
            } else {
                Err(StoreError::Conflict(format!(
                    "the code {} is taken",
                    game.code
                )))
            })
        }
        Query::Load(code) => {
            let row = client.query_opt(&statements.load, &[&code]).await?;
            Ok(row.map_or(Ok(Reply::Game(None)), |row| {
                stored_game(code, &row).map(|g| Reply::Game(Some(Box::new(g))))
            }))
        }
        Query::Change(change) => {
            let statement = match change.step {
                Step::Claim { .. } => &statements.claim,
                Step::AddMove { .. } => &statements.add_move,
                Step::TakeBack { .. } => &statements.take_back,
                Step::End(_) | Step::Offers => &statements.end_or_offers,
            };
            let params = change_params(change);
            let refs: Vec<&(dyn ToSql + Sync)> = params.iter().map(|p| p.as_ref() as _).collect();
            let changed: i64 = client.query_one(statement, &refs).await?.get(0);
            Ok(if changed == 1 {
                Ok(Reply::Done)
            } else {
                Err(changed_meanwhile(&change.code))
            })
        }
        Query::Account(op) => run_account(client, &statements.accounts, op).await,
        Query::Ratings(op) => run_ratings(client, &statements.ratings, op).await,
        Query::Challenge(op) => run_challenge(client, &statements.challenges, op).await,
        Query::Turns(op) => run_turns(client, &statements.turns, op).await,
        Query::Mail(op) => run_mail(client, &statements.mail, op).await,
    }
}

fn stored_game(code: &str, row: &tokio_postgres::Row) -> Result<StoredGame, StoreError> {
    let failed = |e: tokio_postgres::Error| StoreError::Failed(e.to_string());
    let texts: Vec<String> = row.try_get(10).map_err(failed)?;
    let seats: Vec<i32> = row.try_get(11).map_err(failed)?;
    let at: Vec<i64> = row.try_get(12).map_err(failed)?;
    let moves = texts
        .into_iter()
        .zip(seats)
        .zip(at)
        .map(|((text, seat), at_ms)| StoredMove {
            text,
            seat: seat.max(0) as usize,
            at_ms: at_ms.max(0) as u64,
        })
        .collect();
    let settings: String = row.try_get(1).map_err(failed)?;
    let pace: String = row.try_get(2).map_err(failed)?;
    let ending: Option<String> = row.try_get(4).map_err(failed)?;
    let offers: Option<String> = row.try_get(8).map_err(failed)?;
    Ok(StoredGame {
        code: code.to_string(),
        game: row.try_get(0).map_err(failed)?,
        settings: from_json(&settings, "settings")?,
        pace: pace_of(&pace)?,
        move_seconds: row
            .try_get::<_, Option<i32>>(3)
            .map_err(failed)?
            .map(|s| s.max(0) as u32),
        rated: row.try_get(16).map_err(failed)?,
        tokens: row.try_get(9).map_err(failed)?,
        accounts: row.try_get(13).map_err(failed)?,
        players: {
            let names: Vec<Option<String>> = row.try_get(14).map_err(failed)?;
            let deleted: Vec<Option<bool>> = row.try_get(15).map_err(failed)?;
            names
                .into_iter()
                .zip(deleted)
                .map(|(name, deleted)| shown_player(name, deleted.unwrap_or(false)))
                .collect()
        },
        moves,
        ending: ending.map(|e| from_json(&e, "ending")).transpose()?,
        created_ms: row.try_get::<_, i64>(5).map_err(failed)?.max(0) as u64,
        clock_ms: row
            .try_get::<_, Option<i64>>(6)
            .map_err(failed)?
            .map(|ms| ms.max(0) as u64),
        version: row.try_get::<_, i64>(7).map_err(failed)?.max(0) as u64,
        offers: offers
            .map(|o| from_json(&o, "offers"))
            .transpose()?
            .unwrap_or_default(),
        waiting_seat: waiting_of(
            row.try_get::<_, Option<i32>>(17)
                .map_err(failed)?
                .map(i64::from),
        ),
    })
}
