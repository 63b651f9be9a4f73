//! Keeping the match in step with the server: what arrives is taken in, the game starts
//! when it first arrives, the server's moves are played through the turn, the person's
//! moves are sent, and a line that parted from the server's goes back to where they agree.

use super::{KeptSeat, KeptSeats, OnlineGame, OnlineProblem};
use crate::phase::BoardShows;
use crate::screens::{Match, Screen, Seat};
use crate::storage::Storage;
use crate::table::{GameKind, new_table};
use crate::turn::PlayerInput;
use bevy::prelude::*;
use tabula_online::{Followed, Update};
use web_time::Duration;

/// The match that shows a game followed from a server: the person's seat (if any) is
/// played here, every other seat elsewhere.
pub fn match_for(followed: &Followed) -> Result<Match, String> {
    let state = &followed.state;
    let kind = GameKind::parse(&state.game)?;
    let mut table = new_table(kind, &state.settings)?;
    for (ply, text) in state.moves.iter().enumerate() {
        table
            .play_notation(text)
            .map_err(|e| format!("the server's move {} ({text}): {e}", ply + 1))?;
    }
    let seats = (0..table.num_players())
        .map(|seat| {
            if state.your_seat == Some(seat) {
                Seat::Human
            } else {
                Seat::Remote
            }
        })
        .collect();
    let mut game = Match::new(table, seats);
    game.ending = ending_of(followed);
    Ok(game)
}

/// An end the server decided (a resignation, an agreement, a clock), in words.
fn ending_of(followed: &Followed) -> Option<String> {
    followed.state.ending.map(|_| {
        followed
            .result()
            .unwrap_or_else(|| "The game is over.".to_string())
    })
}

/// Takes in what arrived. A game that never arrived because the server refused the
/// request (an unknown code, a full game) ends the attempt, with the reason for the lobby.
pub fn take_news(
    mut commands: Commands,
    mut online: ResMut<OnlineGame>,
    mut problem: ResMut<OnlineProblem>,
) {
    for update in online.client.poll(Duration::ZERO) {
        match update {
            Update::Connected => {
                online.connected = true;
                online.notice = None;
            }
            Update::Disconnected(why) => {
                online.connected = false;
                online.notice = Some(format!("Reconnecting: {why}"));
            }
            Update::Error(error) if online.client.game().is_none() => {
                problem.0 = Some(error);
                commands.remove_resource::<OnlineGame>();
                return;
            }
            Update::Error(error) => online.notice = Some(error),
            Update::Seated(_) | Update::State | Update::Moved { .. } => {}
        }
    }
}

/// Keeps the seat this client was given, with its game, so "my games" finds it again.
pub fn keep_seat(online: Res<OnlineGame>, mut kept: ResMut<KeptSeats>, storage: Res<Storage>) {
    let (Some(key), Some(game)) = (online.client.key(), online.client.game()) else {
        return;
    };
    let Some(seat) = game.state.your_seat else {
        return;
    };
    let seat = KeptSeat {
        server: online.server.clone(),
        code: key.code.clone(),
        token: key.token.clone(),
        game: game.state.game.clone(),
        seat,
    };
    if kept.keep(seat)
        && let Err(e) = kept.save(&storage)
    {
        // Shown, not fatal: the game goes on, and the code is on screen to join again.
        warn!("{e}");
    }
}

/// Shows the game once it arrived.
pub fn start_match(
    mut commands: Commands,
    mut online: ResMut<OnlineGame>,
    mut problem: ResMut<OnlineProblem>,
    mut next: ResMut<NextState<Screen>>,
) {
    if online.match_id.is_some() {
        return;
    }
    let Some(followed) = online.client.game() else {
        return;
    };
    match match_for(followed) {
        Ok(game) => {
            online.match_id = Some(game.id);
            commands.insert_resource(game);
            next.set(Screen::Playing);
        }
        Err(e) => {
            problem.0 = Some(format!("The server's game cannot be shown here: {e}"));
            commands.remove_resource::<OnlineGame>();
        }
    }
}

/// Brings the match in step with the server's game, one move a frame while the board is
/// still: the server's next move goes to the turn; a line that parted from the server's
/// goes back to where they agree. A move of the person's on its way stays.
pub fn follow_server(
    mut commands: Commands,
    online: Res<OnlineGame>,
    game: Option<ResMut<Match>>,
    board: Res<BoardShows>,
    mut input: MessageWriter<PlayerInput>,
) {
    let Some(mut game) = game else { return };
    if online.match_id != Some(game.id) {
        // Another game took the board (a record loaded from the menu).
        if online.match_id.is_some() {
            commands.remove_resource::<OnlineGame>();
        }
        return;
    }
    let Some(followed) = online.client.game() else {
        return;
    };
    let ending = ending_of(followed);
    if game.ending != ending {
        game.ending = ending;
    }
    if !board.settled(&game) || game.table.status().is_over() {
        // Once the rules end the game its line is the player's to look through.
        return;
    }
    let server = &followed.state.moves;
    let line = game.table.line();
    let common = line.iter().zip(server).take_while(|(a, b)| a == b).count();
    let in_step = common == line.len() && common == server.len();
    let mine_on_its_way =
        common == server.len() && line.len() == common + 1 && online.client.is_waiting();
    if in_step || mine_on_its_way {
        return;
    }
    if common == line.len() {
        input.write(PlayerInput::ServerMove(server[common].clone()));
        return;
    }
    // The server took moves back, or refused one: back to where the lines agree.
    let table = &mut game.table;
    if table.go_to(common).is_ok() {
        table.discard_later_moves();
    }
}

/// Sends the person's move once the rules took it here.
pub fn send_moves(mut online: ResMut<OnlineGame>, game: Res<Match>) {
    if online.match_id != Some(game.id) || online.client.is_waiting() {
        return;
    }
    let Some(followed) = online.client.game() else {
        return;
    };
    let held = followed.state.moves.len();
    let line = game.table.line();
    if line.len() != held + 1 || line[..held] != followed.state.moves[..] {
        return;
    }
    let text = line[held].clone();
    if let Err(e) = online.client.play(&text) {
        // The move is taken back here by the next frame's follow_server.
        online.notice = Some(e);
    }
}
