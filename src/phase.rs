//! Where a match stands, as states: whether the pause menu is open ([`Pause`]), and the
//! turn's phase ([`TurnPhase`]: pieces moving, a person here, a bot or a player elsewhere
//! to move, the game over). The phase is decided in one place, [`phase_now`], from one fact
//! about the board ([`BoardShows::settled`]) and the seats; [`set_turn_phase`] makes it the
//! state for each frame, and systems read it with `run_if`.

use crate::current_game::CurrentGame;
use crate::screens::{InGame, Screen};
use bevy::prelude::*;

/// The pause menu is open: the board takes no clicks and a bot's answer waits.
#[derive(SubStates, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[source(InGame = InGame)]
pub enum Pause {
    #[default]
    Running,
    Paused,
}

/// The turn's phase during a match.
#[derive(SubStates, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[source(InGame = InGame)]
pub enum TurnPhase {
    /// The board is catching up with the rules (a move's animations, a jump's sync):
    /// input waits.
    #[default]
    Animating,
    /// A person at this screen has the turn.
    PersonToMove,
    /// A bot has the turn: it thinks, unless someone looks back at earlier moves.
    BotToMove,
    /// A player elsewhere has the turn: their move comes from the server.
    RemoteToMove,
    /// The game is over and the board shows its end.
    Over,
}

/// What the pieces on the board show, kept by the animations: the position (match and
/// revision) they were last made equal to, and whether animations are queued or running.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BoardShows {
    pub position: Option<(u64, u64)>,
    pub moving: bool,
}

impl BoardShows {
    /// Whether the board shows the match's position now, with nothing moving. Turn
    /// systems ask this directly, since a move played earlier in the same frame counts.
    pub fn settled(&self, game: &CurrentGame) -> bool {
        !self.moving && self.position == Some(game.position())
    }
}

pub fn plugin(app: &mut App) {
    app.add_sub_state::<Pause>()
        .add_sub_state::<TurnPhase>()
        .init_resource::<BoardShows>()
        // Before the frame's state transitions, so the whole frame sees one phase.
        .add_systems(PreUpdate, set_turn_phase.run_if(in_state(InGame)));
}

/// The phase the match is in as of now: the one place it is decided. The state follows it
/// at the start of each frame; views drawn after a move in the same frame ask this.
pub fn phase_now(game: &CurrentGame, board: &BoardShows) -> TurnPhase {
    if !board.settled(game) {
        TurnPhase::Animating
    } else if game.is_over() {
        TurnPhase::Over
    } else if game.bot_to_move() {
        TurnPhase::BotToMove
    } else if game.remote_to_move() {
        TurnPhase::RemoteToMove
    } else {
        TurnPhase::PersonToMove
    }
}

/// Sets the phase for the frame, with the screen that follows it: the result shows once
/// the last move's animations are over, and taking back the last move of a finished game
/// brings the game back into play. A screen the player chose meanwhile (the menu's "Title
/// screen") stands.
pub fn set_turn_phase(
    game: Res<CurrentGame>,
    board: Res<BoardShows>,
    phase: Res<State<TurnPhase>>,
    mut next: ResMut<NextState<TurnPhase>>,
    screen: Res<State<Screen>>,
    mut next_screen: ResMut<NextState<Screen>>,
) {
    let wanted = phase_now(&game, &board);
    if *phase.get() != wanted {
        next.set(wanted);
    }
    // A lesson's task or a puzzle may end the game: they say so, not a result screen.
    if !matches!(*next_screen, NextState::Unchanged) || game.practice {
        return;
    }
    match (screen.get(), wanted) {
        (Screen::Playing, TurnPhase::Over) => next_screen.set(Screen::Result),
        (Screen::Result, _) if !game.is_over() => next_screen.set(Screen::Playing),
        _ => {}
    }
}
