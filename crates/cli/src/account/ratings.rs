//! `online leaderboard POOL` and `online player NAME`: ratings as a server keeps them. Both
//! are open to anyone, logged in or not.

use super::{ask, unexpected};
use tabula_online::protocol::house::shown_player;
use tabula_online::protocol::ratings::{PlayerPage, pool_title};
use tabula_online::protocol::{ClientMsg, ServerMsg};
use tabula_rules::text::shown_line;

pub(super) fn leaderboard(server: &str, pool: &str) -> Result<(), String> {
    let msg = ClientMsg::Leaderboard {
        pool: pool.to_string(),
    };
    match ask(server, None, &msg)? {
        ServerMsg::Leaderboard { pool, players } => {
            println!("{} on {server}", shown_line(&pool_title(&pool)));
            if players.is_empty() {
                println!("nobody has played a rated game of it yet");
            }
            for (place, player) in players.iter().enumerate() {
                println!(
                    "{:>3}. {:<20} {:>6}  ±{} after {} {}",
                    place + 1,
                    shown_player(&player.name),
                    player.rating.to_string(),
                    player.rating.deviation,
                    player.rating.games,
                    games_word(player.rating.games)
                );
            }
            if players.iter().any(|p| p.rating.provisional) {
                println!("? provisional: too few rated games to be sure");
            }
            Ok(())
        }
        other => Err(unexpected(&other)),
    }
}

pub(super) fn player(server: &str, name: &str) -> Result<(), String> {
    let msg = ClientMsg::Player {
        name: name.to_string(),
    };
    match ask(server, None, &msg)? {
        ServerMsg::Player(page) => {
            print!("{}", page_text(&page));
            Ok(())
        }
        other => Err(unexpected(&other)),
    }
}

fn games_word(games: u32) -> &'static str {
    if games == 1 { "game" } else { "games" }
}

/// A player's page as text: each pool's rating and its last points, then recent games.
fn page_text(page: &PlayerPage) -> String {
    let mut text = format!("{}\n", shown_player(&page.name));
    if page.ratings.is_empty() {
        text.push_str("  no rated games yet\n");
    }
    for pool in &page.ratings {
        let last: Vec<String> = pool
            .history
            .iter()
            .rev()
            .take(8)
            .rev()
            .map(|point| point.rating.to_string())
            .collect();
        // A house bot's first rating has no games behind it yet.
        let lately = if last.is_empty() {
            String::new()
        } else {
            format!("; lately {}", last.join(" → "))
        };
        text.push_str(&format!(
            "  {}: {} ±{} after {} {}{lately}\n",
            shown_line(&pool_title(&pool.pool)),
            pool.rating,
            pool.rating.deviation,
            pool.rating.games,
            games_word(pool.rating.games),
        ));
    }
    if !page.games.is_empty() {
        text.push_str("recent games:\n");
    }
    for game in &page.games {
        let others: Vec<String> = game
            .players
            .iter()
            .enumerate()
            .filter(|&(seat, _)| seat != game.seat)
            .map(|(_, player)| player.as_deref().map_or("anonymous".into(), shown_player))
            .collect();
        text.push_str(&format!(
            "  {} {}{} against {}, {} moves: {}\n",
            shown_line(&game.code),
            shown_line(&game.game),
            if game.rated { " rated" } else { "" },
            others.join(" and "),
            game.moves,
            game.result.as_deref().map_or("going on".into(), shown_line)
        ));
    }
    text
}
