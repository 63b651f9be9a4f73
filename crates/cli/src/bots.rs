//! `match` (bots against each other, with the Elo difference) and `hint` (the bot's move
//! and evaluation for a position).

use crate::args::Args;
use crate::setup;
use tabula_bot::{
    Bot, BotSpec, Knowledge, Played, Proof, Schedule, Score, Search, Side, play_games,
};
use tabula_session::split_specs;

/// Games longer than this are stopped and scored as draws.
const DEFAULT_MATCH_PLIES: u32 = 1000;

pub(crate) fn parse_specs(text: &str) -> Result<Vec<BotSpec>, String> {
    text.split(';')
        .flat_map(split_specs)
        .map(|spec| spec.parse())
        .collect()
}

pub fn match_games<G: Knowledge>(args: &Args) -> Result<(), String> {
    let start = setup::start::<G>(args)?;
    let specs = parse_specs(args.bots.as_deref().ok_or("match needs --bots A,B")?)?;
    for spec in &specs {
        spec.check_in(G::NAME)?;
    }
    let players = start.num_players();
    if specs.len() < 2 || specs.len() > players {
        return Err(format!(
            "--bots names {} bots; this game takes 2 to {players}",
            specs.len()
        ));
    }
    let games = args.games.unwrap_or(10);
    let from_game = args.from_game.unwrap_or(1);
    if from_game > games {
        return Err(format!(
            "--from-game {from_game} is past the match's last game, {games}"
        ));
    }
    let seed = args.seed.unwrap_or(1);
    let max_plies = args.max_plies.unwrap_or(DEFAULT_MATCH_PLIES);
    let jobs = args.jobs.unwrap_or(1).max(1);
    let names: Vec<String> = specs.iter().map(|s| s.to_string()).collect();
    let which = if from_game > 1 {
        format!("games {from_game} to {games}")
    } else {
        format!("{games} games")
    };
    println!("{} match, {which}, seed {seed}, seats rotate:", G::NAME);
    for (i, (name, spec)) in names.iter().zip(&specs).enumerate() {
        // A level's search depends on the game: said, so a match can be replayed by spec.
        match (spec, spec.search_for(G::NAME)) {
            (BotSpec::Level { .. }, Some((config, budget))) => {
                let searched = BotSpec::Search { config, budget };
                println!("  bot {}: {name} ({searched})", i + 1);
            }
            _ => println!("  bot {}: {name}", i + 1),
        }
    }
    let sides: Vec<Side> = specs
        .iter()
        .map(|spec| Side {
            spec: spec.clone(),
            weights: None,
        })
        .collect();
    let schedule = Schedule {
        first: from_game - 1,
        games,
        seed,
        max_plies,
        record: false,
        jobs,
    };
    let results = play_games(&start, &sides, &schedule, &mut |game| {
        let seats: Vec<String> = game
            .seating
            .iter()
            .map(|&spec| format!("bot {}", spec + 1))
            .collect();
        let description = if game.finished() {
            start.describe_status(game.status)
        } else {
            format!("draw: stopped after {max_plies} plies")
        };
        println!(
            "game {:>3} ({}): {description} in {} plies",
            game.index + 1,
            seats.join(" v "),
            game.plies
        );
    });
    summarise(&names, &results);
    Ok(())
}

fn summarise(names: &[String], results: &[Played]) {
    let mut scores = vec![Score::default(); names.len()];
    for result in results {
        match Proof::of_status(result.status) {
            Some(Proof::Win(winner)) => {
                let winning_spec = result.seating[winner.index()];
                for (i, score) in scores.iter_mut().enumerate() {
                    if i == winning_spec {
                        score.wins += 1;
                    } else if result.seating.contains(&i) {
                        score.losses += 1;
                    }
                }
            }
            // Stopped games count as draws too.
            _ => {
                for score in &mut scores {
                    score.draws += 1;
                }
            }
        }
    }
    for (i, score) in scores.iter().enumerate() {
        println!(
            "bot {}: {} wins, {} draws, {} losses ({:.1}%)",
            i + 1,
            score.wins,
            score.draws,
            score.losses,
            100.0 * score.fraction()
        );
    }
    if names.len() == 2
        && let Some(elo) = scores[0].elo()
    {
        println!(
            "Elo difference, bot 1 over bot 2: {} (95% interval {} to {})",
            signed(elo.difference),
            signed(elo.low),
            signed(elo.high)
        );
    }
}

fn signed(elo: f64) -> String {
    if elo.is_infinite() {
        if elo > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        format!("{elo:+.0}")
    }
}

pub fn hint<G: Knowledge>(args: &Args) -> Result<(), String> {
    let game = setup::start::<G>(args)?;
    if game.status().is_over() {
        return Err(format!(
            "the game is over: {}",
            game.describe_status(game.status())
        ));
    }
    let spec = match args.bot.as_deref() {
        Some(text) => text.parse()?,
        None => BotSpec::level(tabula_bot::Levels::built_in().top_in(G::NAME))?,
    };
    spec.check_in(G::NAME)?;
    let Some((config, budget)) = spec.search_for(G::NAME) else {
        let mut bot = Bot::new(&spec, &game, args.seed.unwrap_or(1));
        let mv = bot.choose(&game).expect("an ongoing game has a move");
        println!("random move: {}", game.format_move(&mv));
        return Ok(());
    };
    let mut search = Search::new(game.clone(), config, args.seed.unwrap_or(1));
    search.think(budget);
    let mover = game.player_name(game.to_move());
    let best = search.best_move().expect("an ongoing game has a move");
    println!("bot: {spec}");
    println!(
        "best move: {}  ({mover} to move, win chance {:.1}%{}, {} iterations)",
        game.format_move(&best),
        100.0 * search.root_value(),
        match search.root_proof() {
            Some(Proof::Win(p)) => format!(", proved: {} wins", game.player_name(p)),
            Some(Proof::Draw) => ", proved: a draw".to_string(),
            None => String::new(),
        },
        search.iterations()
    );
    println!("{:>8} {:>7}  move", "visits", "win%");
    for stats in search.root_moves().iter().take(8) {
        let proof = match stats.proof {
            Some(Proof::Win(p)) => format!("  ({} wins)", game.player_name(p)),
            Some(Proof::Draw) => "  (draw)".to_string(),
            None => String::new(),
        };
        println!(
            "{:>8} {:>6.1}%  {}{proof}",
            stats.visits,
            100.0 * stats.value,
            game.format_move(&stats.mv)
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bot_lists_split_where_a_new_bot_starts() {
        assert_eq!(
            split_specs("level:3,uct:iters=1000,c=1,random"),
            ["level:3", "uct:iters=1000,c=1", "random"]
        );
        assert!(parse_specs("level:3,uct:iters=9,speed=2").is_err());
    }
}
