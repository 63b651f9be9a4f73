//! Command-line arguments shared by the verbs: game options, the record or position to
//! start from, and verb flags.

use std::fmt;
use std::ops::RangeInclusive;
use tabula_rules::text::{quoted, whole_number_as};

#[derive(Debug, Default)]
pub struct Args {
    pub options: Vec<(String, String)>,
    pub record: Option<String>,
    pub position: Option<String>,
    pub count: bool,
    pub depth: Option<u32>,
    pub seats: Option<String>,
    pub games: Option<u64>,
    /// `match`: the first game to play (from 1), to finish a match stopped early.
    pub from_game: Option<u64>,
    /// `random`: play games until this many plies are checked.
    pub plies: Option<u64>,
    pub seed: Option<u64>,
    pub max_plies: Option<u32>,
    pub seconds: Option<f64>,
    pub bots: Option<String>,
    pub bot: Option<String>,
    pub jobs: Option<usize>,
    /// `review`: the parts of the bot's time a position's first look takes
    /// (`config/review.ron`'s `looks` unless given).
    pub looks: Option<u32>,
    /// Online play: the server, who plays this seat, which seat to take, the pace and limit.
    pub server: Option<String>,
    pub seat: Option<String>,
    pub take: Option<usize>,
    pub pace: Option<String>,
    pub move_seconds: Option<u32>,
    /// `online host --rated`: only accounts take the seats, and the end moves ratings.
    pub rated: bool,
    /// `online challenge --to NAME`: the one player a challenge is for.
    pub to: Option<String>,
    /// `train`: the weights file to write, the playout plies it is for, the check games
    /// at each point of the learning curve, and the curve's points (games).
    pub out: Option<String>,
    pub playout: Option<u32>,
    pub check: Option<u64>,
    pub curve: Option<String>,
    /// `train`: how much of a position's target is its game's result (the rest is what
    /// the self-play search made of it), from 0 to 1; the curve is drawn for each, and
    /// the weights written are the first's.
    pub lambda: Option<Vec<f64>>,
    /// Arguments that are not flags (moves for `apply`).
    pub rest: Vec<String>,
}

/// Perft past this depth would not finish in a lifetime on any game here.
const MAX_DEPTH: u64 = 64;
/// Jobs (threads) a command may run at once.
pub const MAX_JOBS: u64 = 1024;

#[derive(Debug)]
pub struct UsageError(pub String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A whole number within `range`, which fits `T`.
fn number<T: TryFrom<u64>>(
    flag: &str,
    value: &str,
    range: RangeInclusive<u64>,
) -> Result<T, UsageError> {
    whole_number_as(flag, value, range).map_err(UsageError)
}

/// Seconds for a time budget: a finite number from a hundredth of a second to a day.
fn seconds(flag: &str, value: &str) -> Result<f64, UsageError> {
    const RANGE: RangeInclusive<f64> = 0.01..=86_400.0;
    match value.trim().parse::<f64>() {
        Ok(s) if RANGE.contains(&s) => Ok(s),
        Ok(_) => Err(UsageError(format!(
            "{flag} must be 0.01 to 86400 seconds, not {}",
            quoted(value)
        ))),
        Err(_) => Err(UsageError(format!(
            "{flag} needs a number of seconds, not {}",
            quoted(value)
        ))),
    }
}

impl Args {
    pub fn parse(words: &[String]) -> Result<Args, UsageError> {
        let mut args = Args::default();
        let mut i = 0;
        while i < words.len() {
            let word = words[i].as_str();
            let (flag, inline) = match word.split_once('=') {
                Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
                _ => (word, None),
            };
            let takes_value = matches!(
                flag,
                "--option"
                    | "-o"
                    | "--record"
                    | "--position"
                    | "--depth"
                    | "--seats"
                    | "--games"
                    | "--from-game"
                    | "--plies"
                    | "--seed"
                    | "--max-plies"
                    | "--seconds"
                    | "--bots"
                    | "--bot"
                    | "--jobs"
                    | "--looks"
                    | "--server"
                    | "--seat"
                    | "--take"
                    | "--pace"
                    | "--to"
                    | "--move-seconds"
                    | "--out"
                    | "--playout"
                    | "--check"
                    | "--curve"
                    | "--lambda"
            );
            let value = if takes_value {
                match inline {
                    Some(v) => v,
                    None => {
                        i += 1;
                        words
                            .get(i)
                            .cloned()
                            .ok_or_else(|| UsageError(format!("{flag} needs a value")))?
                    }
                }
            } else {
                String::new()
            };
            match flag {
                "--option" | "-o" => {
                    let (key, val) = value.split_once('=').ok_or_else(|| {
                        UsageError(format!(
                            "--option takes key=value, not {value_q}",
                            value_q = quoted(&value)
                        ))
                    })?;
                    args.options
                        .push((key.trim().to_string(), val.trim().to_string()));
                }
                "--record" => args.record = Some(value),
                "--position" => args.position = Some(value),
                "--depth" => args.depth = Some(number(flag, &value, 1..=MAX_DEPTH)?),
                "--seats" => args.seats = Some(value),
                "--games" => args.games = Some(number(flag, &value, 1..=u64::MAX)?),
                "--from-game" => args.from_game = Some(number(flag, &value, 1..=u64::MAX)?),
                "--plies" => args.plies = Some(number(flag, &value, 1..=u64::MAX)?),
                "--seed" => args.seed = Some(number(flag, &value, 0..=u64::MAX)?),
                "--max-plies" => args.max_plies = Some(number(flag, &value, 1..=u32::MAX as u64)?),
                "--seconds" => args.seconds = Some(seconds(flag, &value)?),
                "--bots" => args.bots = Some(value),
                "--bot" => args.bot = Some(value),
                "--jobs" => args.jobs = Some(number(flag, &value, 1..=MAX_JOBS)?),
                "--looks" => args.looks = Some(number(flag, &value, 1..=u32::MAX as u64)?),
                "--server" => args.server = Some(value),
                "--seat" => args.seat = Some(value),
                "--take" => args.take = Some(number(flag, &value, 1..=3)?),
                "--pace" => args.pace = Some(value),
                "--to" => args.to = Some(value),
                "--move-seconds" => {
                    args.move_seconds = Some(number(flag, &value, 1..=u32::MAX as u64)?)
                }
                "--out" => args.out = Some(value),
                "--playout" => args.playout = Some(number(flag, &value, 0..=1000)?),
                "--check" => args.check = Some(number(flag, &value, 0..=100_000)?),
                "--curve" => args.curve = Some(value),
                "--lambda" => {
                    args.lambda = Some(
                        value
                            .split(',')
                            .map(|l| {
                                l.trim()
                                    .parse::<f64>()
                                    .ok()
                                    .filter(|l| (0.0..=1.0).contains(l))
                                    .ok_or_else(|| {
                                        UsageError(format!(
                                            "--lambda takes numbers from 0 to 1, not {}",
                                            quoted(l)
                                        ))
                                    })
                            })
                            .collect::<Result<Vec<f64>, UsageError>>()?,
                    )
                }
                "--count" => args.count = true,
                "--rated" => args.rated = true,
                _ if word.starts_with("--") => {
                    return Err(UsageError(format!("unknown flag {}", quoted(word))));
                }
                _ => args.rest.push(word.to_string()),
            }
            i += 1;
        }
        Ok(args)
    }
}
