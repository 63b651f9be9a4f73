//! A bot in an online seat, playing to the end with nobody watching: the terminal's
//! `--seat level:N`, and the tests' and load generator's clients.

use crate::client::{OnlineClient, Update};
use crate::protocol::ClientMsg;
use std::time::Duration;
use tabula_bot::BotSpec;

/// How long a bot seat waits for the game to arrive before it gives up.
pub const PATIENCE: Duration = Duration::from_secs(600);

/// Plays this client's seat with `spec` until the game is over; each update goes to
/// `seen`. Returns the result in words.
///
/// Like a bot at the table, it lets its opponent take a move back (it accepts every
/// take-back request) and plays on rather than agree a draw (it declines every offer), so
/// a person playing it is answered at once.
pub fn play_to_end(
    client: &mut OnlineClient,
    spec: &BotSpec,
    seed: u64,
    mut seen: impl FnMut(&OnlineClient, &Update),
) -> Result<String, String> {
    let mut quiet = Duration::ZERO;
    // Each request is answered once.
    let mut answered_undo = None;
    let mut answered_draw: Option<Vec<usize>> = None;
    let step = Duration::from_millis(50);
    loop {
        let updates = client.poll(step);
        quiet = if updates.is_empty() {
            quiet + step
        } else {
            Duration::ZERO
        };
        for update in &updates {
            seen(client, update);
            // An answer the server refused (or lost) is given again.
            if matches!(update, Update::Error(_)) {
                answered_undo = None;
                answered_draw = None;
            }
        }
        let Some(game) = client.game() else {
            if quiet > PATIENCE {
                return Err("the server sent no game".into());
            }
            continue;
        };
        if let Some(result) = game.result().filter(|_| game.is_over()) {
            return Ok(result);
        }
        let mine = game.state.your_seat;
        // A request gone is forgotten, so the same one asked again is answered again.
        if game.state.undo_request.is_none() {
            answered_undo = None;
        }
        if game.state.draw_offers.iter().all(|&s| Some(s) == mine) {
            answered_draw = None;
        }
        if let Some(request) = &game.state.undo_request
            && mine.is_some_and(|seat| request.by != seat && !request.accepted.contains(&seat))
            && answered_undo.as_ref() != Some(request)
        {
            answered_undo = Some(request.clone());
            client.send(&ClientMsg::AnswerUndo { accept: true });
        }
        let offered: Vec<usize> = game.state.draw_offers.clone();
        if offered.iter().any(|&s| Some(s) != mine) && answered_draw.as_ref() != Some(&offered) {
            answered_draw = Some(offered);
            client.send(&ClientMsg::DeclineDraw);
        }
        if game.is_my_turn() && !client.is_waiting() {
            let seed = seed.wrapping_add(game.state.moves.len() as u64);
            let text = game
                .game
                .thinker(spec, seed)
                .think_through()
                .ok_or("the game goes on but the bot found no move")?;
            client.play(&text)?;
            quiet = Duration::ZERO;
        }
        // Once the game is here, a bot waits as long as its opponent takes (a
        // correspondence game may wait days); the connection comes back by itself.
    }
}
