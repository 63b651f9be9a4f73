//! The answers to `leaderboard` and `player`: ratings as the store keeps them, shown.

use crate::accounts::names::name_key;
use crate::room::{RoomState, now_ms};
use crate::rooms::Rooms;
use crate::store::{ANSWERED_ELSE, RankedRow, RatingOp, Reply};
use tabula_protocol::ratings::{
    HISTORY_POINTS, LEADERBOARD_LENGTH, PAGE_GAMES, PlayedGame, PoolRating, RATING_POOLS,
};
use tabula_protocol::{MAX_NAME_CHARS, PlayerPage, RankedPlayer, ServerMsg};

/// The best players of `pool`.
pub async fn leaderboard(rooms: &Rooms, pool: String) -> Result<ServerMsg, String> {
    if !RATING_POOLS.contains(&pool.as_str()) {
        return Err(format!(
            "there is no rating pool {}: the pools are {}",
            tabula_session::rules::text::quoted(&pool),
            RATING_POOLS.join(", ")
        ));
    }
    let op = RatingOp::Leaderboard {
        pool: pool.clone(),
        limit: LEADERBOARD_LENGTH,
    };
    let Reply::Leaderboard(rows) = rooms.store.ratings(op).await.map_err(|e| e.to_string())? else {
        return Err(ANSWERED_ELSE.into());
    };
    let players = shown_board(rows, now_ms());
    Ok(ServerMsg::Leaderboard { pool, players })
}

/// A leaderboard's lines as shown at `at_ms`: each deviation grown for the time since the
/// player's last rated game (as their next game will grow it), so a player long away is
/// shown provisional and listed with the provisional, each part by rating. The store
/// orders by the deviation it keeps.
fn shown_board(rows: Vec<RankedRow>, at_ms: u64) -> Vec<RankedPlayer> {
    let mut players: Vec<RankedPlayer> = rows
        .into_iter()
        .map(|row| RankedPlayer {
            name: row.name,
            rating: row.rating.at(at_ms).shown(),
        })
        .collect();
    players.sort_by(|a, b| {
        (a.rating.provisional, -a.rating.rating, &a.name).cmp(&(
            b.rating.provisional,
            -b.rating.rating,
            &b.name,
        ))
    });
    players
}

/// `name`'s page: ratings with their history, and recent games.
pub async fn player_page(rooms: &Rooms, name: String) -> Result<ServerMsg, String> {
    let unknown = || {
        format!(
            "there is no player named {}",
            tabula_session::rules::text::quoted(&name)
        )
    };
    // A name no account can have is not looked for (and not echoed at length).
    if name.is_empty() || name.chars().count() > MAX_NAME_CHARS {
        return Err(unknown());
    }
    let op = RatingOp::Player {
        name_key: name_key(&name),
        points: HISTORY_POINTS,
    };
    let Reply::Player(found) = rooms.store.ratings(op).await.map_err(|e| e.to_string())? else {
        return Err(ANSWERED_ELSE.into());
    };
    let player = found.ok_or_else(unknown)?;
    let now = now_ms();
    let ratings = player
        .pools
        .into_iter()
        .map(|(pool, rating, history)| PoolRating {
            pool,
            rating: rating.at(now).shown(),
            history,
        })
        .collect();
    let seats = rooms
        .accounts
        .seats(&rooms.store, player.account, PAGE_GAMES)
        .await?;
    let mut games = Vec::with_capacity(seats.len());
    for (code, seat) in seats {
        // Read, not opened: a page asked for is not a reason to keep games in memory (or
        // their clocks running). A game that no longer loads is left off the page.
        let view = match rooms.cached(&code) {
            Some(room) => room.view(None).await,
            None => match rooms.store.load(&code).await {
                Ok(Some(stored)) => match RoomState::from_stored(&stored) {
                    Ok(state) => state.view(&code),
                    Err(_) => continue,
                },
                _ => continue,
            },
        };
        games.push(PlayedGame {
            code,
            game: view.game,
            seat,
            players: view.seats.into_iter().map(|s| s.player).collect(),
            rated: view.rated,
            moves: view.moves.len(),
            result: view.result,
        });
    }
    Ok(ServerMsg::Player(Box::new(PlayerPage {
        name: player.name,
        ratings,
        games,
    })))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ratings::Rating;
    use skillratings::glicko2::Glicko2Rating;

    const DAY_MS: u64 = 86_400_000;

    fn row(name: &str, rating: f64, deviation: f64, updated_ms: u64) -> RankedRow {
        RankedRow {
            name: name.into(),
            rating: Rating {
                glicko: Glicko2Rating {
                    rating,
                    deviation,
                    volatility: 0.06,
                },
                games: 30,
                updated_ms: Some(updated_ms),
            },
        }
    }

    #[test]
    fn a_player_long_away_is_shown_provisional_and_listed_with_the_provisional() {
        let now = 1_000 * DAY_MS;
        // In the store's order: the sure by rating (Ana, Ben), then the provisional (Cy).
        let rows = vec![
            row("Ana", 1900.0, 60.0, now - 2 * 365 * DAY_MS),
            row("Ben", 1700.0, 60.0, now - DAY_MS),
            row("Cy", 1800.0, 200.0, now - DAY_MS),
            row("Dee", 1600.0, 200.0, now - DAY_MS),
        ];
        let board = shown_board(rows, now);
        let names: Vec<&str> = board.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["Ben", "Ana", "Cy", "Dee"]);
        let ana = board[1].rating;
        assert!(ana.provisional && ana.deviation > 110, "{ana:?}");
        assert_eq!(ana.rating, 1900, "time away moves the deviation alone");
        // A day away grows a deviation by under a point.
        assert!(!board[0].rating.provisional && board[0].rating.deviation <= 61);
    }
}
