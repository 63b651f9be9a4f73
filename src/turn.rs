//! The turn: the player's input builds a move through the rules' move builder; a complete
//! move is applied through the rules once, and each rules event goes out as one
//! [`RulesEvent`] message for the animations. Input waits while animations play.

use crate::animation::Animating;
use crate::config::Settings;
use crate::screens::{Match, Screen};
use crate::table::PlayedEvent;
use bevy::prelude::*;

/// What the player does, from clicks, keys or the overlay (and from tests).
#[derive(Message, Clone, Debug, PartialEq)]
pub enum PlayerInput {
    /// A click on a cell or the piece on it.
    ClickCell(usize),
    /// One of the offered choices, by its index in `Table::choices`.
    Choose(usize),
    /// Take back the last step of the move being built.
    TakeBackStep,
    /// Drop the move being built.
    Cancel,
    /// Play the move built so far.
    Confirm,
    /// Play a move typed in notation.
    Notation(String),
    /// A bot's move, in notation: taken only when a bot has the turn.
    BotMove(String),
}

/// One rules event of the move just played, in order.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct RulesEvent {
    /// The move's number in the record, from 1.
    pub move_number: usize,
    pub event: PlayedEvent,
}

/// The cell whose several choices the overlay should list (a click that did not decide).
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct CellMenu(pub Option<usize>);

/// The last thing the rules refused, in words, for the overlay.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct TurnMessage(pub Option<String>);

/// The systems that take input and play moves; animations run after them.
#[derive(SystemSet, Clone, Debug, PartialEq, Eq, Hash)]
pub struct TurnSystems;

pub fn plugin(app: &mut App) {
    app.add_message::<PlayerInput>()
        .add_message::<RulesEvent>()
        .init_resource::<CellMenu>()
        .init_resource::<TurnMessage>()
        .add_systems(
            Update,
            (take_input, finish_game)
                .chain()
                .in_set(TurnSystems)
                .run_if(in_state(Screen::Playing)),
        );
}

fn take_input(
    mut inputs: MessageReader<PlayerInput>,
    mut events: MessageWriter<RulesEvent>,
    game: Option<ResMut<Match>>,
    mut animating: ResMut<Animating>,
    settings: Res<Settings>,
    mut menu: ResMut<CellMenu>,
    mut message: ResMut<TurnMessage>,
) {
    let Some(mut game) = game else {
        inputs.clear();
        return;
    };
    if animating.0 || game.table.status().is_over() {
        // Input waits for the board to settle; clicks made meanwhile are dropped.
        inputs.clear();
        return;
    }
    let bot_to_move = game
        .seats
        .get(game.table.to_move())
        .is_some_and(|seat| seat.is_bot());
    for input in inputs.read() {
        if bot_to_move != matches!(input, PlayerInput::BotMove(_)) {
            // People wait while a bot has the turn; a bot's late answer is dropped.
            continue;
        }
        let table = game.table.as_mut();
        let moves_before = table.record().len();
        let mut commit = false;
        let result = match input {
            PlayerInput::ClickCell(cell) => {
                let offered: Vec<usize> = (0..table.choices().len())
                    .filter(|&i| table.choices()[i].cell == Some(*cell))
                    .collect();
                match offered.as_slice() {
                    [] if table.chosen().is_empty() => Ok(()),
                    [] => {
                        // A click away from every offered cell drops the move being built.
                        table.clear_choices();
                        menu.0 = None;
                        Ok(())
                    }
                    [only] => {
                        menu.0 = None;
                        commit = true;
                        table.choose(*only)
                    }
                    _ => {
                        menu.0 = Some(*cell);
                        Ok(())
                    }
                }
            }
            PlayerInput::Choose(index) => {
                menu.0 = None;
                commit = true;
                table.choose(*index)
            }
            PlayerInput::TakeBackStep => {
                menu.0 = None;
                table.take_back_choice();
                Ok(())
            }
            PlayerInput::Cancel => {
                menu.0 = None;
                table.clear_choices();
                Ok(())
            }
            PlayerInput::Confirm => play(table.commit(), table.record().len(), &mut events),
            PlayerInput::Notation(text) | PlayerInput::BotMove(text) => {
                menu.0 = None;
                let played = table.play_notation(text);
                play(played, table.record().len(), &mut events)
            }
        };
        // A finished move plays itself unless it could still grow or the player asked
        // to confirm every move.
        let result = result.and_then(|()| {
            if commit
                && !settings.confirm_moves
                && table.complete_move().is_some()
                && table.choices().is_empty()
            {
                let played = table.commit();
                play(played, table.record().len(), &mut events)
            } else {
                Ok(())
            }
        });
        message.0 = result.err();
        if table.record().len() > moves_before {
            // The board is busy from now until the animations end; later input waits.
            animating.0 = true;
            menu.0 = None;
            break;
        }
    }
}

/// Sends each event of a played move.
fn play(
    played: Result<Vec<PlayedEvent>, String>,
    move_number: usize,
    events: &mut MessageWriter<RulesEvent>,
) -> Result<(), String> {
    for event in played? {
        events.write(RulesEvent { move_number, event });
    }
    Ok(())
}

/// Shows the result once the last move's animations are over.
fn finish_game(
    game: Option<Res<Match>>,
    animating: Res<Animating>,
    mut next: ResMut<NextState<Screen>>,
) {
    if let Some(game) = game
        && game.table.status().is_over()
        && !animating.0
    {
        next.set(Screen::Result);
    }
}
