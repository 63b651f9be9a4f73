//! The player's rating against the bots, one for each game, kept with the settings: every
//! game of one person against bot levels that ends on the board moves it (Elo against the
//! levels' ratings in `config/ratings.ron`; `tabula_session::rating`). A game counts once,
//! when it ends after a move played since it came to the table, and not when the analysis
//! board was opened before it ended.

use crate::config::Settings;
use crate::current_game::CurrentGame;
use crate::screens::InGame;
use bevy::prelude::*;
use std::collections::HashSet;
use tabula_session::{Rating, RatingSettings};

/// The last rating a game changed, for the result window.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct RatingChange {
    pub game_id: u64,
    pub before: Rating,
    pub after: Rating,
}

pub fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        rate_finished_games
            .in_set(crate::AppSystems::Keep)
            .run_if(in_state(InGame)),
    );
}

/// Each game seen going on, and the games already rated.
#[derive(Default)]
struct Seen {
    going_on: Option<u64>,
    rated: HashSet<u64>,
}

fn rate_finished_games(
    mut commands: Commands,
    game: Option<Res<CurrentGame>>,
    mut settings: ResMut<Settings>,
    mut seen: Local<Seen>,
) {
    let Some(game) = game else {
        return;
    };
    if !game.is_over() {
        seen.going_on = Some(game.id);
        return;
    }
    // Only a game seen going on that ends after a move played here: a finished game
    // loaded, looked back at and replayed is not rated again.
    if seen.going_on != Some(game.id)
        || game.is_analysing()
        || game.helped_by_analysis()
        || !game.played_on_here()
    {
        return;
    }
    seen.going_on = None;
    if !seen.rated.insert(game.id) {
        return;
    }
    let table = game.table.as_ref();
    let rules = RatingSettings::built_in();
    let Some(rated) = rules.rated_game(
        table.as_match().kind(),
        game.game_seats(),
        table.as_match().status(),
    ) else {
        return;
    };
    let key = table.as_match().kind().key().to_string();
    let before = settings
        .ratings
        .get(&key)
        .copied()
        .unwrap_or_else(|| Rating::new(rules));
    let after = before.after(rules, rated);
    settings.ratings.insert(key, after);
    commands.insert_resource(RatingChange {
        game_id: game.id,
        before,
        after,
    });
}
