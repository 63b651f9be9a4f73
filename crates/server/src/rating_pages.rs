//! The answers to `leaderboard` and `player`: ratings as the store keeps them, shown.

use crate::accounts::names::name_key;
use crate::room::RoomState;
use crate::rooms::Rooms;
use crate::store::{ANSWERED_ELSE, RatingOp, Reply};
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
    let players = rows
        .into_iter()
        .map(|row| RankedPlayer {
            name: row.name,
            rating: row.rating.shown(),
        })
        .collect();
    Ok(ServerMsg::Leaderboard { pool, players })
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
    let ratings = player
        .pools
        .into_iter()
        .map(|(pool, rating, history)| PoolRating {
            pool,
            rating: rating.shown(),
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
