//! Moves played for the player to see (a lesson's watched moves, **Show me**, a puzzle's
//! answers), one at a time through the input a person's move takes, each once the board
//! has shown the one before.

use crate::AppSystems;
use crate::current_game::CurrentGame;
use crate::phase::{BoardShows, TurnPhase};
use crate::turn::PlayerInput;
use bevy::prelude::*;
use std::collections::VecDeque;

/// The moves still to play, in notation.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct QueuedMoves(pub VecDeque<String>);

impl QueuedMoves {
    pub fn is_playing(&self) -> bool {
        !self.0.is_empty()
    }
}

pub fn plugin(app: &mut App) {
    app.init_resource::<QueuedMoves>()
        .add_systems(Update, play_queued.in_set(AppSystems::Think))
        .add_systems(OnExit(crate::screens::InGame), forget);
}

fn forget(mut queued: ResMut<QueuedMoves>) {
    queued.0.clear();
}

/// Plays the next move when the turn takes it, as of the frame's phase (which the turn
/// reads too: a move sent while it waits would be dropped).
fn play_queued(
    mut queued: ResMut<QueuedMoves>,
    game: Option<Res<CurrentGame>>,
    board: Res<BoardShows>,
    phase: Option<Res<State<TurnPhase>>>,
    mut input: MessageWriter<PlayerInput>,
) {
    let person_to_move = phase.is_some_and(|p| *p.get() == TurnPhase::PersonToMove);
    let settled = game.is_some_and(|game| board.settled(&game));
    if !queued.is_playing() || !person_to_move || !settled {
        return;
    }
    if let Some(text) = queued.0.pop_front() {
        input.write(PlayerInput::Shown(text));
    }
}
