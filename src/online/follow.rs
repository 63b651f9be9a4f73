//! Keeping the match in step with the server: what arrives is taken in, the game starts
//! when it first arrives, the server's moves are played through the turn, the person's
//! moves are sent, and a line that parted from the server's goes back to where they agree.

use super::{KeptSeat, KeptSeats, OnlineGame, OnlineProblem};
use crate::current_game::{CurrentGame, Seat};
use crate::phase::BoardShows;
use crate::screens::Screen;
use crate::storage::Storage;
use crate::table::{GameKind, new_table};
use crate::turn::PlayerInput;
use bevy::prelude::*;
use tabula_online::{Followed, Update};
use web_time::Duration;

/// The match that shows a game followed from a server: the person's seat (if any) is
/// played here, every other seat elsewhere.
pub fn match_for(followed: &Followed) -> Result<CurrentGame, String> {
    let state = &followed.state;
    let kind = GameKind::parse(&state.game)?;
    let mut table = new_table(kind, &state.settings)?;
    for (ply, text) in state.moves.iter().enumerate() {
        table.play_notation(text).map_err(|e| {
            format!(
                "the server's move {} ({}): {e}",
                ply + 1,
                tabula_session::rules::text::quoted(text)
            )
        })?;
    }
    let seats = (0..table.as_match().num_players())
        .map(|seat| {
            if state.your_seat == Some(seat) {
                Seat::Human
            } else {
                Seat::Remote
            }
        })
        .collect();
    let mut game = CurrentGame::new(table, seats);
    game.ending = ending_of(followed);
    Ok(game)
}

/// The game's end in the server's words (the rules' result, a resignation, an agreement,
/// a clock), once it is over.
fn ending_of(followed: &Followed) -> Option<String> {
    followed.is_over().then(|| {
        followed
            .result()
            .unwrap_or_else(|| "The game is over.".to_string())
    })
}

/// Takes in what arrived. A game that never arrived because the server refused the
/// request (an unknown code, a full game), or whose request was lost with the connection,
/// ends the attempt, with the reason for the lobby.
pub fn take_news(
    mut commands: Commands,
    mut online: ResMut<OnlineGame>,
    mut problem: ResMut<OnlineProblem>,
) {
    for update in online.client.poll(Duration::ZERO) {
        let arrived = online.client.game().is_some();
        match update {
            Update::Connected => {
                online.connected = true;
                online.connections += 1;
                online.notice = None;
                // A create or join is asked once (a second could make a second game or
                // take a second seat): lost with its connection, it is given up.
                if online.connections > 1 && online.asks_once && online.client.key().is_none() {
                    problem.0 = Some(
                        "The connection was lost before the server answered. If the game \
                         was made, it is in My games; otherwise try again."
                            .to_string(),
                    );
                    commands.remove_resource::<OnlineGame>();
                    return;
                }
            }
            Update::Disconnected(why) => {
                online.connected = false;
                online.notice = Some(format!("Reconnecting: {why}"));
            }
            Update::Error(error) if !arrived => {
                problem.0 = Some(error);
                commands.remove_resource::<OnlineGame>();
                return;
            }
            Update::Error(error) => online.notice = Some(error),
            Update::Answered(answer) => online.answer = Some(answer),
            // The game went on: an earlier refusal or answer is old news.
            Update::Moved { .. } => {
                online.notice = None;
                online.answer = None;
            }
            Update::Seated(_) | Update::State => {}
        }
    }
}

/// Keeps the seat this client was given, with its game, so "my games" finds it again.
pub fn keep_seat(
    mut online: ResMut<OnlineGame>,
    mut kept: ResMut<KeptSeats>,
    storage: Res<Storage>,
) {
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
        // Shown, not fatal: the game goes on; the next save tries again.
        warn!("{e}");
        online.notice = Some(e);
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
/// goes back to where they agree. A move of the person's on its way stays. Once the lines
/// agree and the server says the game is over, it is over here for good, and its line is
/// the player's to look through.
pub fn follow_server(
    mut commands: Commands,
    mut online: ResMut<OnlineGame>,
    game: Option<ResMut<CurrentGame>>,
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
    if game.ending.is_some() || !board.settled(&game) {
        return;
    }
    let Some(followed) = online.client.game() else {
        return;
    };
    let server = &followed.state.moves;
    let line = game.table.as_match().line();
    let common = line.iter().zip(server).take_while(|(a, b)| a == b).count();
    if common == line.len() && common == server.len() {
        // In step: the server's end, if any, is the game's.
        let ending = ending_of(followed);
        if ending.is_some() {
            game.ending = ending;
        }
        return;
    }
    let mine_on_its_way =
        common == server.len() && line.len() == common + 1 && online.client.is_waiting();
    if mine_on_its_way {
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
    // The same move may be played again now.
    online.sent = None;
}

/// Sends the person's move once the rules took it here (once: a refused one is taken
/// back by [`follow_server`] when the board is still).
pub fn send_moves(mut online: ResMut<OnlineGame>, game: Res<CurrentGame>) {
    if online.match_id != Some(game.id) || online.client.is_waiting() {
        return;
    }
    let Some(followed) = online.client.game() else {
        return;
    };
    let held = followed.state.moves.len();
    let line = game.table.as_match().line();
    if line.len() != held + 1 || line[..held] != followed.state.moves[..] {
        return;
    }
    let move_sent = Some((held, line[held].clone()));
    if online.sent == move_sent {
        return;
    }
    online.sent = move_sent;
    if let Err(e) = online.client.play(&line[held]) {
        online.notice = Some(e);
    }
}
