//! Bot specifications as text, for the command line and config: `random`, `level:3`,
//! `uct:iters=1000`, `mcts:ms=500,playout=20`.

use crate::config::{Budget, Evaluation, MctsConfig, Playout, Policy};
use crate::levels::Levels;
use std::fmt;
use std::str::FromStr;
use tabula_rules::text::{quoted, whole_number_as};

/// The ranges a spec's numbers must fall in, said when one does not: past them a bot
/// would think for days or hold more than memory.
const MAX_ITERATIONS: u64 = 1_000_000_000;
/// A day, as `--seconds` allows.
const MAX_MILLIS: u64 = 86_400_000;
const MAX_PLAYOUT_PLIES: u64 = crate::mcts::PLAYOUT_CAP as u64;
const MAX_MOVES_PER_NODE: u64 = 1_000_000;
pub(crate) const MAX_EXPLORATION: f64 = 100.0;
const MAX_THREADS: u64 = crate::mcts::MAX_THREADS as u64;
/// A temperature of 1 already plays nearly at random among searched moves.
pub(crate) const MAX_TEMPERATURE: f64 = 10.0;

#[derive(Clone, Debug, PartialEq)]
pub enum BotSpec {
    /// Uniformly random legal moves.
    Random,
    /// A level of `config/bots.ron`, counted from 1, on at most `threads` threads
    /// ([`BotSpec::on_threads`]; written as `level:N` alone). A level's search may differ
    /// by game, so it is known once the game is ([`BotSpec::search_for`]).
    Level { level: usize, threads: Option<u32> },
    /// A tree search with its budget.
    Search { config: MctsConfig, budget: Budget },
}

pub const SPEC_HELP: &str = "bot specs: random | level:N (1-16, config/bots.ron: 1 the weakest; a game with fewer levels plays its top above them) | \
uct:KEY=V,... (plain UCT, random playouts to the end) | mcts:KEY=V,... (our search); \
keys: iters, ms, threads (sharing one tree; 1 unless given), c (exploration), playout (plies, 'end', or 'game': the game's own), knowledge, solver, moves \
(per node), eval (hand or learned: the evaluation a stopped playout is judged by), policy (light or tactical: \
a playout's moves, tactical weighing what each takes and loses), temp (0 plays the best move; \
above, sometimes a worse one: the low levels); uct and mcts need iters or ms";

impl BotSpec {
    /// Level `n`, which must be 1 to the longest ladder's top ([`Levels::top`]); in a game
    /// with fewer levels, a number above its top plays its top ([`Levels::playing`]).
    pub fn level(n: usize) -> Result<BotSpec, String> {
        let top = Levels::built_in().top();
        if !(1..=top).contains(&n) {
            return Err(format!("no level {n}: levels are 1 to {top}"));
        }
        Ok(BotSpec::Level {
            level: n,
            threads: None,
        })
    }

    /// An error for a level above `game`'s top (where a game is named, as in a match, a
    /// number that would only play the top is a mistake worth saying).
    pub fn check_in(&self, game: &str) -> Result<(), String> {
        let top = Levels::built_in().top_in(game);
        match self {
            BotSpec::Level { level, .. } if *level > top => {
                Err(format!("level:{level}: {game} has levels 1 to {top}"))
            }
            _ => Ok(()),
        }
    }

    /// How this bot searches in `game` (a `Game::NAME`): its search and budget, or `None`
    /// for the random mover.
    pub fn search_for(&self, game: &str) -> Option<(MctsConfig, Budget)> {
        match self {
            BotSpec::Random => None,
            BotSpec::Search { config, budget } => Some((config.clone(), *budget)),
            BotSpec::Level { level, threads } => {
                let levels = Levels::built_in();
                // Made only by `level`, which checks the number; the game's top otherwise.
                let chosen = levels
                    .playing(game, *level)
                    .or_else(|| levels.ladder(game).last())?;
                let (config, budget) = chosen.for_game(game);
                let budget = match threads {
                    Some(cap) => with_threads(budget, *cap),
                    None => budget,
                };
                Some((config, budget))
            }
        }
    }
}

impl BotSpec {
    /// This bot in `game` with one of `parts` equal parts of its budget a move (a review's
    /// first look at each position); the random mover as it is.
    pub fn in_parts(&self, game: &str, parts: u32) -> BotSpec {
        match self.search_for(game) {
            Some((config, budget)) => BotSpec::Search {
                config,
                budget: budget.part(parts),
            },
            None => BotSpec::Random,
        }
    }

    /// This bot searching on at most `cap` threads: a budget of time alone gets them all
    /// (the same time searches more), one capped by iterations keeps the threads it names
    /// (one unless said: the cap is a level's measured strength, and answers soon anyway).
    pub fn on_threads(self, cap: u32) -> BotSpec {
        match self {
            BotSpec::Search { config, budget } => BotSpec::Search {
                config,
                budget: with_threads(budget, cap),
            },
            BotSpec::Level { level, threads } => BotSpec::Level {
                level,
                threads: Some(threads.map_or(cap, |t| t.min(cap))),
            },
            BotSpec::Random => BotSpec::Random,
        }
    }
}

/// `budget` on at most `cap` threads: all of them for time alone, the threads it names
/// (one unless said) for an iteration cap.
fn with_threads(budget: Budget, cap: u32) -> Budget {
    let threads = match budget.threads {
        Some(threads) => threads.min(cap),
        None if budget.iterations.is_none() => cap,
        None => 1,
    };
    budget.on_threads(threads.max(1))
}

impl FromStr for BotSpec {
    type Err = String;

    fn from_str(text: &str) -> Result<BotSpec, String> {
        let text = text.trim();
        let (kind, params) = text.split_once(':').unwrap_or((text, ""));
        let (mut config, mut budget) = match kind {
            "random" if params.is_empty() => return Ok(BotSpec::Random),
            "level" => {
                let levels = Levels::built_in().top() as u64;
                return BotSpec::level(whole_number_as("level:N", params, 1..=levels)?);
            }
            "uct" => (MctsConfig::plain_uct(), Budget::default()),
            "mcts" => (MctsConfig::default(), Budget::default()),
            _ => {
                return Err(format!(
                    "unknown bot {text_q}; {SPEC_HELP}",
                    text_q = quoted(text)
                ));
            }
        };
        for pair in params.split(',').filter(|p| !p.trim().is_empty()) {
            let (key, value) = pair.split_once('=').ok_or_else(|| {
                format!(
                    "bot {text_q}: {pair_q} is not key=value",
                    text_q = quoted(text),
                    pair_q = quoted(pair)
                )
            })?;
            let (key, value) = (key.trim(), value.trim());
            let bad = || {
                format!(
                    "bot {text_q}: {pair_q} is not a valid value",
                    text_q = quoted(text),
                    pair_q = quoted(&format!("{key}={value}"))
                )
            };
            let flag = |v: &str| match v {
                "true" | "on" | "1" => Ok(true),
                "false" | "off" | "0" => Ok(false),
                _ => Err(bad()),
            };
            match key {
                "iters" => {
                    budget.iterations = Some(in_range(text, key, value, 1..=MAX_ITERATIONS)?)
                }
                "ms" => budget.millis = Some(in_range(text, key, value, 1..=MAX_MILLIS)?),
                "threads" => budget.threads = Some(in_range(text, key, value, 1..=MAX_THREADS)?),
                // NaN or infinity would make every child's score NaN, and no child chosen.
                "c" => config.exploration = fraction_in(text, key, value, MAX_EXPLORATION)?,
                "playout" => {
                    config.playout = match value {
                        "end" => Playout::End,
                        "game" => Playout::Game,
                        _ => Playout::Plies(in_range(text, key, value, 0..=MAX_PLAYOUT_PLIES)?),
                    }
                }
                "temp" => config.temperature = fraction_in(text, key, value, MAX_TEMPERATURE)?,
                "knowledge" => config.knowledge = flag(value)?,
                "solver" => config.solver = flag(value)?,
                "moves" => config.max_moves = in_range(text, key, value, 1..=MAX_MOVES_PER_NODE)?,
                "eval" => {
                    let choices = [("hand", Evaluation::Hand), ("learned", Evaluation::Learned)];
                    config.evaluation = one_of(text, key, value, choices)?;
                }
                "policy" => {
                    let choices = [("light", Policy::Light), ("tactical", Policy::Tactical)];
                    config.policy = one_of(text, key, value, choices)?;
                }
                _ => {
                    return Err(format!(
                        "bot {text_q}: unknown key {key_q}; {SPEC_HELP}",
                        text_q = quoted(text),
                        key_q = quoted(key)
                    ));
                }
            }
        }
        if let Some(asked) = config.knowledge_missing() {
            return Err(format!(
                "bot {text_q}: {asked} needs knowledge=on (uct has none)",
                text_q = quoted(text)
            ));
        }
        if budget.iterations.is_none() && budget.millis.is_none() {
            return Err(format!(
                "bot {text_q} needs a budget: iters=N or ms=N",
                text_q = quoted(text)
            ));
        }
        Ok(BotSpec::Search { config, budget })
    }
}

/// A spec's value that names one of two `choices`, or an error naming both.
fn one_of<T: Copy>(
    text: &str,
    key: &str,
    value: &str,
    choices: [(&str, T); 2],
) -> Result<T, String> {
    let [(first, _), (second, _)] = choices;
    choices
        .iter()
        .find(|(name, _)| *name == value)
        .map(|&(_, choice)| choice)
        .ok_or_else(|| {
            format!(
                "bot {text_q}: {key} is '{first}' or '{second}', not {value_q}",
                text_q = quoted(text),
                value_q = quoted(value)
            )
        })
}

/// A spec's real number from 0 to `max` (never NaN or infinite), or an error naming the
/// spec, the key and the range.
fn fraction_in(text: &str, key: &str, value: &str, max: f64) -> Result<f64, String> {
    value
        .parse()
        .ok()
        .filter(|x: &f64| (0.0..=max).contains(x))
        .ok_or_else(|| {
            format!(
                "bot {text_q}: {key} must be a number from 0 to {max}, not {value_q}",
                text_q = quoted(text),
                value_q = quoted(value)
            )
        })
}

/// A spec's number in `range`, or an error naming the spec, the key and the range.
fn in_range<T: TryFrom<u64>>(
    text: &str,
    key: &str,
    value: &str,
    range: std::ops::RangeInclusive<u64>,
) -> Result<T, String> {
    whole_number_as(key, value, range)
        .map_err(|e| format!("bot {text_q}: {e}", text_q = quoted(text)))
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotSpec::Random => write!(f, "random"),
            BotSpec::Level { level, .. } => write!(f, "level:{level}"),
            BotSpec::Search { config, budget } => {
                let mut parts = Vec::new();
                if let Some(n) = budget.iterations {
                    parts.push(format!("iters={n}"));
                }
                if let Some(ms) = budget.millis {
                    parts.push(format!("ms={ms}"));
                }
                if let Some(threads) = budget.threads {
                    parts.push(format!("threads={threads}"));
                }
                parts.push(format!("c={}", config.exploration));
                parts.push(match config.playout {
                    Playout::Plies(n) => format!("playout={n}"),
                    Playout::End => "playout=end".to_string(),
                    Playout::Game => "playout=game".to_string(),
                });
                parts.push(format!("knowledge={}", config.knowledge));
                parts.push(format!("solver={}", config.solver));
                parts.push(format!("moves={}", config.max_moves));
                if config.evaluation != Evaluation::Hand {
                    parts.push("eval=learned".to_string());
                }
                if config.policy != Policy::Light {
                    parts.push("policy=tactical".to_string());
                }
                if config.temperature > 0.0 {
                    parts.push(format!("temp={}", config.temperature));
                }
                write!(f, "mcts:{}", parts.join(","))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_and_print_back() {
        assert_eq!("random".parse::<BotSpec>(), Ok(BotSpec::Random));
        let uct: BotSpec = "uct:iters=1000".parse().unwrap();
        let BotSpec::Search { config, budget } = &uct else {
            panic!("{uct:?}")
        };
        assert_eq!(*budget, Budget::iterations(1000));
        assert_eq!(*config, MctsConfig::plain_uct());
        // The printed form is itself a spec for the same bot.
        assert_eq!(uct.to_string().parse::<BotSpec>(), Ok(uct.clone()));
        // An exploration constant or a temperature that is not a number in its range would
        // stop the search or make its choice meaningless.
        let out_of_range = [("c", &["NaN", "inf", "-1", "101"][..], "from 0 to 100")]
            .into_iter()
            .chain([("temp", &["NaN", "-0.1", "11"][..], "from 0 to 10")]);
        for (key, values, range) in out_of_range {
            for value in values {
                let error = format!("mcts:iters=5,{key}={value}")
                    .parse::<BotSpec>()
                    .unwrap_err();
                let expected = format!("{key} must be a number {range}");
                assert!(error.contains(&expected), "{error}");
            }
        }
        let tuned: BotSpec =
            "mcts:ms=300,c=0.5,playout=end,solver=off,threads=2,eval=learned,policy=tactical,temp=0.05"
                .parse()
                .unwrap();
        let BotSpec::Search { config, budget } = &tuned else {
            panic!("{tuned:?}")
        };
        assert_eq!((budget.millis, config.playout), (Some(300), Playout::End));
        assert_eq!(config.evaluation, Evaluation::Learned);
        assert_eq!(config.policy, Policy::Tactical);
        assert_eq!(budget.threads, Some(2));
        assert_eq!(tuned.to_string().parse::<BotSpec>(), Ok(tuned.clone()));
        assert!(!config.solver && config.knowledge);
        assert!(matches!(
            "level:5".parse::<BotSpec>(),
            Ok(BotSpec::Level { level: 5, .. })
        ));
        let top = Levels::built_in().top();
        assert_eq!(
            format!("level:{top}").parse::<BotSpec>(),
            Ok(BotSpec::Level {
                level: top,
                threads: None
            })
        );
    }

    #[test]
    fn a_budget_of_time_alone_takes_the_threads_given() {
        let threads = |text: &str, cap| {
            let spec = text.parse::<BotSpec>().unwrap().on_threads(cap);
            spec.search_for("adamas")
                .and_then(|(_, budget)| budget.threads)
        };
        let top = format!("level:{}", Levels::built_in().top());
        assert_eq!(threads(&top, 4), Some(4));
        assert_eq!(
            threads("level:3", 4),
            Some(1),
            "an iteration cap stays on one"
        );
        assert_eq!(
            threads("mcts:iters=500,threads=3", 2),
            Some(2),
            "the cap caps"
        );
        assert_eq!(threads("mcts:ms=500,threads=1", 4), Some(1));
        assert_eq!(threads("random", 4), None);
    }

    #[test]
    fn bad_specs_say_what_is_wrong() {
        for (text, expected) in [
            ("minimax", "unknown bot"),
            ("uct", "needs a budget"),
            ("uct:iters=many", "iters needs a whole number, not \"many\""),
            ("mcts:iters=5,speed=2", "unknown key \"speed\""),
            ("mcts:iters", "not key=value"),
            ("level:0", "level:N must be 1 to 16, not \"0\""),
            ("level:17", "level:N must be 1 to 16, not \"17\""),
            ("level:x", "level:N needs a whole number"),
            // Numbers out of range say the range, however many digits they have.
            (
                "level:99999999999999999999",
                "level:N must be 1 to 16, not \"99999999999999999999\"",
            ),
            ("mcts:iters=5,moves=0", "moves must be 1 to 1000000"),
            ("uct:iters=0", "iters must be 1 to 1000000000"),
            (
                "uct:iters=99999999999999999999",
                "iters must be 1 to 1000000000",
            ),
            ("uct:ms=-1", "ms must be 1 to 86400000, not \"-1\""),
            ("mcts:ms=5,threads=0", "threads must be 1 to 64"),
            (
                "mcts:ms=5,eval=net",
                "eval is 'hand' or 'learned', not \"net\"",
            ),
            (
                "mcts:ms=5,policy=heavy",
                "policy is 'light' or 'tactical', not \"heavy\"",
            ),
            (
                "uct:ms=5,policy=tactical",
                "policy=tactical needs knowledge=on",
            ),
            ("mcts:ms=5,playout=20001", "playout must be 0 to 20000"),
            (
                "mcts:ms=200,c=200",
                "c must be a number from 0 to 100, not \"200\"",
            ),
        ] {
            let error = text.parse::<BotSpec>().unwrap_err();
            assert!(error.contains(expected), "{text}: {error}");
        }
    }
}
