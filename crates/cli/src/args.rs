//! Command-line arguments shared by the verbs: game options, the record or position to
//! start from, and verb flags.

use std::fmt;

#[derive(Debug, Default)]
pub struct Args {
    pub options: Vec<(String, String)>,
    pub record: Option<String>,
    pub position: Option<String>,
    pub count: bool,
    pub depth: Option<u32>,
    pub seats: Option<String>,
    pub games: Option<u64>,
    pub seed: Option<u64>,
    pub max_plies: Option<u32>,
    pub seconds: Option<f64>,
    pub bots: Option<String>,
    pub bot: Option<String>,
    pub jobs: Option<usize>,
    /// Online play: the server, who plays this seat, which seat to take, the pace and limit.
    pub server: Option<String>,
    pub seat: Option<String>,
    pub take: Option<usize>,
    pub pace: Option<String>,
    pub move_seconds: Option<u32>,
    /// Arguments that are not flags (moves for `apply`).
    pub rest: Vec<String>,
}

#[derive(Debug)]
pub struct UsageError(pub String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn number<T: std::str::FromStr>(flag: &str, value: &str) -> Result<T, UsageError> {
    value
        .parse()
        .map_err(|_| UsageError(format!("{flag} needs a number, not {value:?}")))
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
                    | "--seed"
                    | "--max-plies"
                    | "--seconds"
                    | "--bots"
                    | "--bot"
                    | "--jobs"
                    | "--server"
                    | "--seat"
                    | "--take"
                    | "--pace"
                    | "--move-seconds"
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
                        UsageError(format!("--option takes key=value, not {value:?}"))
                    })?;
                    args.options
                        .push((key.trim().to_string(), val.trim().to_string()));
                }
                "--record" => args.record = Some(value),
                "--position" => args.position = Some(value),
                "--depth" => args.depth = Some(number(flag, &value)?),
                "--seats" => args.seats = Some(value),
                "--games" => args.games = Some(number(flag, &value)?),
                "--seed" => args.seed = Some(number(flag, &value)?),
                "--max-plies" => args.max_plies = Some(number(flag, &value)?),
                "--seconds" => args.seconds = Some(number(flag, &value)?),
                "--bots" => args.bots = Some(value),
                "--bot" => args.bot = Some(value),
                "--jobs" => args.jobs = Some(number(flag, &value)?),
                "--server" => args.server = Some(value),
                "--seat" => args.seat = Some(value),
                "--take" => args.take = Some(number(flag, &value)?),
                "--pace" => args.pace = Some(value),
                "--move-seconds" => args.move_seconds = Some(number(flag, &value)?),
                "--count" => args.count = true,
                _ if word.starts_with("--") => {
                    return Err(UsageError(format!("unknown flag {word}")));
                }
                _ => args.rest.push(word.to_string()),
            }
            i += 1;
        }
        Ok(args)
    }
}
