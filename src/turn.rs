//! The turn: the player's input builds a move through the rules' move builder; a complete
//! move is applied through the rules once, and each rules event goes out as one
//! [`RulesEvent`] message for the animations. Input waits while animations play.

use crate::AppSystems;
use crate::config::Settings;
use crate::current_game::CurrentGame;
use crate::phase::{BoardShows, TurnPhase, phase_now};
use crate::queued_moves::QueuedMoves;
use crate::screens::{InGame, Screen};
use crate::table::PlayedEvent;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use tabula_session::{MoveTree, NodeId};

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
    /// A move the server of an online game stored, in notation: taken whoever has the
    /// turn, since the server's line is the game's.
    ServerMove(String),
    /// A move played for the player to see (a lesson's watched move, **Show me**, a
    /// puzzle's answer), in notation: taken when a person has the turn, and a person's own
    /// input waits meanwhile (`QueuedMoves`), so it cannot take the move's place.
    Shown(String),
}

/// Moving through the game's line: take back, replay, jump, or drop the later moves.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Travel {
    /// Take back the last move; against a bot, back to the person's previous turn.
    Undo,
    /// Replay the next move taken back (against a bot, up to the person's next turn).
    Redo,
    /// Jump to the position after this many moves of the line.
    GoTo(usize),
    /// Forget the moves after this position and go on from here.
    PlayOn,
    /// Jump to the position after this many moves of the main line (the game's own).
    MainLine(usize),
    /// Jump to the position after a move of the tree, along its line; a move in a
    /// variation opens the analysis board.
    ToNode(NodeId),
    /// Leave the variation shown for where it left its line.
    LeaveVariation,
    /// Make the variation holding this move the line it left.
    Promote(NodeId),
    /// Delete a variation from this move on.
    DeleteVariation(NodeId),
    /// Open or close the analysis board.
    Analyse(bool),
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

pub fn plugin(app: &mut App) {
    app.add_message::<PlayerInput>()
        .add_message::<Travel>()
        .add_message::<RulesEvent>()
        .init_resource::<CellMenu>()
        .init_resource::<TurnMessage>()
        .init_resource::<RedoToPerson>()
        .add_systems(OnEnter(InGame), forget_redo)
        .add_systems(
            Update,
            (
                travel.run_if(in_state(InGame)),
                take_input.run_if(in_state(Screen::Playing)),
            )
                .chain()
                .in_set(AppSystems::Turn),
        );
}

/// A redo against a bot goes on replaying until a person has the turn again.
#[derive(Resource, Default)]
struct RedoToPerson(bool);

fn travel(
    mut requests: MessageReader<Travel>,
    mut events: MessageWriter<RulesEvent>,
    game: Option<ResMut<CurrentGame>>,
    board: Res<BoardShows>,
    mut menu: ResMut<CellMenu>,
    mut message: ResMut<TurnMessage>,
    mut redo_to_person: ResMut<RedoToPerson>,
) {
    let Some(mut game) = game else {
        requests.clear();
        return;
    };
    if !board.settled(&game) {
        // Like moves, travel waits for the board to settle.
        return;
    }
    // Read first: a mutable borrow marks the match changed, which redraws the board.
    let pending = requests.read().last().copied();
    if pending.is_none() && !redo_to_person.0 {
        return;
    }
    if game.is_online() && !game.is_over() {
        // The server keeps an online game's line while it goes on: an undo becomes a
        // request to the opponent (crate::online), and nobody looks back meanwhile.
        return;
    }
    // A move of a variation is looked at on the analysis board.
    let analyse = match pending {
        Some(Travel::Analyse(on)) => Some(on),
        Some(Travel::ToNode(node)) => {
            (!game.table.as_match().tree().is_main_line(node)).then_some(true)
        }
        _ => None,
    };
    if let Some(on) = analyse
        && let Err(error) = game.set_analysing(on)
    {
        message.0 = Some(error);
        return;
    }
    let CurrentGame { table, seats, .. } = &mut *game;
    // A redo against a bot goes on while a bot has the turn and the line has more.
    let go_on = redo_to_person.0 && table.as_match().redo_goes_on(seats);
    redo_to_person.0 = false;
    let Some(request) = pending.or(go_on.then_some(Travel::Redo)) else {
        return;
    };
    let ply = table.as_match().record().len();
    let result = match request {
        Travel::Undo => table.undo(seats),
        Travel::Redo => {
            let played = table.redo();
            redo_to_person.0 = played.is_ok();
            play(played, ply + 1, &mut events)
        }
        Travel::GoTo(target) => table.go_to(target),
        Travel::PlayOn => {
            table.discard_later_moves();
            Ok(())
        }
        Travel::MainLine(ply) => table.change_match(&mut |game| {
            let node = match ply {
                0 => MoveTree::START,
                _ => *game
                    .tree()
                    .main_line()
                    .get(ply - 1)
                    .ok_or_else(|| format!("there is no move {ply}"))?,
            };
            game.go_to_node(node)
        }),
        Travel::ToNode(node) => table.change_match(&mut |game| game.go_to_node(node)),
        Travel::LeaveVariation => table.change_match(&mut |game| game.return_from_variation()),
        // Side lines are reshaped on the analysis board only: in a game, promoting one
        // would leave the game going on in a side line.
        Travel::Promote(_) | Travel::DeleteVariation(_) if !table.as_match().is_exploring() => {
            Err("open the analysis board to change side lines".to_string())
        }
        Travel::Promote(node) => table.change_match(&mut |game| {
            game.promote(node);
            Ok(())
        }),
        Travel::DeleteVariation(node) => {
            table.change_match(&mut |game| game.delete_variation(node))
        }
        // Opened or closed above, where the whole match could be borrowed.
        Travel::Analyse(_) => Ok(()),
    };
    menu.0 = None;
    // The pieces follow: a replayed move animates, a jump snaps when they sync.
    message.0 = result.err();
}

fn forget_redo(mut redo_to_person: ResMut<RedoToPerson>) {
    redo_to_person.0 = false;
}

/// Whether the turn takes input now: in a game, by its phase as of now, not as set at the
/// start of the frame. A move or jump made since leaves the board unsettled, and an end the
/// server sent since (taken in before the turn) ends the game: the phase follows only in
/// the next frame, and a move sent meanwhile would be played after the end.
#[derive(SystemParam)]
struct InputWindow<'w> {
    board: Res<'w, BoardShows>,
    phase: Option<Res<'w, State<TurnPhase>>>,
}

impl InputWindow<'_> {
    /// The turn's phase if input is taken now: not while pieces move or once the game is over.
    fn open(&self, game: &CurrentGame) -> Option<TurnPhase> {
        // No phase: no game on the board.
        self.phase.as_ref()?;
        let phase = phase_now(game, &self.board);
        (!matches!(phase, TurnPhase::Animating | TurnPhase::Over)).then_some(phase)
    }
}

fn take_input(
    mut inputs: MessageReader<PlayerInput>,
    mut events: MessageWriter<RulesEvent>,
    game: Option<ResMut<CurrentGame>>,
    window: InputWindow,
    (settings, queued): (Res<Settings>, Res<QueuedMoves>),
    mut menu: ResMut<CellMenu>,
    mut message: ResMut<TurnMessage>,
) {
    // Clicks made while input waits are dropped.
    let Some(mut game) = game else {
        inputs.clear();
        return;
    };
    let Some(phase) = window.open(&game) else {
        inputs.clear();
        return;
    };
    let mut chose_this_frame = false;
    let inputs: Vec<PlayerInput> = inputs.read().cloned().collect();
    // While moves are played for the player to see, theirs wait: one sent in the frame the
    // last of them goes would otherwise be played first and drop it.
    let showing = queued.is_playing() || inputs.iter().any(|i| matches!(i, PlayerInput::Shown(_)));
    for input in &inputs {
        let taken = match input {
            PlayerInput::BotMove(_) => phase == TurnPhase::BotToMove,
            PlayerInput::ServerMove(_) => true,
            PlayerInput::Shown(_) => phase == TurnPhase::PersonToMove,
            _ => phase == TurnPhase::PersonToMove && !showing,
        };
        if !taken {
            // People wait while a bot or a player elsewhere has the turn; a bot's late
            // answer is dropped.
            continue;
        }
        // A step names a choice by its place in the list: once one was taken this frame,
        // another sent in the same frame (the wheel and the popup) names the old list.
        if matches!(input, PlayerInput::Choose(_)) && chose_this_frame {
            continue;
        }
        chose_this_frame |= matches!(input, PlayerInput::Choose(_));
        let CurrentGame { table, seats, .. } = &mut *game;
        let table = table.as_mut();
        let moves_before = table.as_match().record().len();
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
            PlayerInput::Confirm => {
                play(table.commit(), table.as_match().record().len(), &mut events)
            }
            PlayerInput::Notation(text)
            | PlayerInput::BotMove(text)
            | PlayerInput::ServerMove(text)
            | PlayerInput::Shown(text) => {
                menu.0 = None;
                let played = table.play_notation(text);
                play(played, table.as_match().record().len(), &mut events)
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
                play(played, table.as_match().record().len(), &mut events)
            } else {
                Ok(())
            }
        });
        message.0 = result.err();
        if table.as_match().record().len() > moves_before {
            // A person who replays the line's next move against a bot wants the bot's
            // own answer now, not to look back at the old one.
            if table.as_match().bot_to_move(seats) && phase == TurnPhase::PersonToMove {
                table.discard_later_moves();
            }
            // The board is busy from now until the animations end; later input waits.
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
