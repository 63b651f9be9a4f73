//! `online next`: the games waiting for your move on a server, and the one waiting
//! longest played, as `online resume CODE` would.

use crate::account::{ask, session_for, unexpected};
use crate::args::Args;
use crate::online::{DEFAULT_SERVER, run};
use tabula_online::Goal;
use tabula_online::protocol::{ClientMsg, GameSummary, ServerMsg};
use tabula_rules::text::shown_line;

pub fn next(args: &Args) -> Result<(), String> {
    let server = args.server.as_deref().unwrap_or(DEFAULT_SERVER);
    let session = session_for(server)?;
    let games = match ask(server, Some(&session), &ClientMsg::FollowTurns)? {
        ServerMsg::Waiting { games } => games,
        other => return Err(unexpected(&other)),
    };
    let Some(first) = games.first() else {
        println!("no game waits for your move on {server}");
        return Ok(());
    };
    println!("{}", waiting_text(&games));
    println!("to game {}", shown_line(&first.code));
    run(
        Goal::ResumeMine {
            code: first.code.clone(),
        },
        args,
    )
}

/// "2 games wait for your move: K7MQ2X adomoc (move 4), …", a server's words shown as a
/// terminal may print them.
fn waiting_text(games: &[GameSummary]) -> String {
    let count = match games.len() {
        1 => "1 game waits".to_string(),
        n => format!("{n} games wait"),
    };
    let list: Vec<String> = games
        .iter()
        .map(|game| {
            format!(
                "{} {} (move {})",
                shown_line(&game.code),
                shown_line(&game.game),
                game.moves + 1
            )
        })
        .collect();
    format!("{count} for your move: {}", list.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(code: &str, moves: usize) -> GameSummary {
        GameSummary {
            code: code.into(),
            game: "adomoc".into(),
            your_seat: 0,
            moves,
            to_move: Some(0),
            result: None,
            open_seats: 0,
            account: true,
        }
    }

    #[test]
    fn the_waiting_games_are_counted_and_listed_longest_first() {
        assert_eq!(
            waiting_text(&[line("K7MQ2X", 3)]),
            "1 game waits for your move: K7MQ2X adomoc (move 4)"
        );
        let two = waiting_text(&[line("K7MQ2X", 3), line("AB\u{1b}CD", 0)]);
        assert!(
            two.starts_with("2 games wait for your move: K7MQ2X adomoc (move 4), AB"),
            "{two}"
        );
        assert!(
            !two.contains('\u{1b}'),
            "a server's code never drives the terminal"
        );
    }
}
