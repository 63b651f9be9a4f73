//! Who plays a seat.

use tabula_bot::{BotSpec, FORMER_LEVELS, Levels};
use tabula_rules::text::quoted;

/// Who sits in a seat: a person at this screen or terminal (hot-seat), a bot, or a person
/// playing from elsewhere through a server.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Seat {
    #[default]
    Human,
    /// A bot of a level from `config/bots.ron`, counted from 1.
    Bot(u8),
    /// Any other bot, by its spec text (`random`, `uct:ms=500`, `mcts:iters=2000`).
    Custom(String),
    /// A person at another machine, whose moves come through a server.
    Remote,
}

impl Seat {
    /// The seats a new game offers: a person, then each level.
    pub fn offered() -> Vec<Seat> {
        let levels = Levels::built_in().levels.len();
        std::iter::once(Seat::Human)
            .chain((1..=levels as u8).map(Seat::Bot))
            .collect()
    }

    /// Whether a bot plays this seat here (a remote seat's moves come from elsewhere).
    pub fn is_bot(&self) -> bool {
        matches!(self, Seat::Bot(_) | Seat::Custom(_))
    }

    /// The seat for a menu.
    pub fn label(&self) -> String {
        match self {
            Seat::Human => "Human".to_string(),
            Seat::Bot(level) => {
                let levels = Levels::built_in();
                let name = levels.get(*level as usize).map_or("?", |l| l.name.as_str());
                format!("Bot level {level} ({name})")
            }
            Seat::Custom(spec) => format!("Bot {spec}"),
            Seat::Remote => "Remote player".to_string(),
        }
    }

    /// What playing against this seat is like, for a menu: a level's description.
    pub fn about(&self) -> Option<&'static str> {
        match self {
            Seat::Bot(level) => Levels::built_in()
                .get(*level as usize)
                .map(|l| l.about.as_str())
                .filter(|about| !about.is_empty()),
            Seat::Human => Some("A person at this screen."),
            Seat::Custom(_) | Seat::Remote => None,
        }
    }

    /// How records and the command line write the seat: `human`, `level:N`, a bot spec,
    /// or `remote`.
    pub fn name(&self) -> String {
        match self {
            Seat::Human => "human".to_string(),
            Seat::Bot(level) => format!("level:{level}"),
            Seat::Custom(spec) => spec.clone(),
            Seat::Remote => "remote".to_string(),
        }
    }

    /// Reads [`Seat::name`]'s text back; any bot spec is a seat.
    pub fn parse(text: &str) -> Result<Seat, String> {
        let text = text.trim();
        match text {
            "human" => return Ok(Seat::Human),
            "remote" => return Ok(Seat::Remote),
            _ => {}
        }
        if let Some(level) = text.strip_prefix("level:") {
            let levels = Levels::built_in().levels.len();
            return level
                .parse::<u8>()
                .ok()
                .filter(|&n| (1..=levels).contains(&(n as usize)))
                .map(Seat::Bot)
                .ok_or_else(|| {
                    format!(
                        "{text_q} is not a seat: levels are level:1 to level:{levels}",
                        text_q = quoted(text)
                    )
                });
        }
        text.parse::<BotSpec>()
            .map(|_| Seat::Custom(text.to_string()))
            .map_err(|e| {
                format!(
                    "{text_q} is not a seat (human, level:N or a bot): {e}",
                    text_q = quoted(text)
                )
            })
    }

    /// Reads a seat written before the game had its ladder (records of format 2 and
    /// older): `level:1` to `level:5` were the five former levels, played now by the
    /// levels `config/bots.ron` names for them.
    pub fn parse_former(text: &str) -> Result<Seat, String> {
        let Some(number) = text.trim().strip_prefix("level:") else {
            return Seat::parse(text);
        };
        let levels = Levels::built_in();
        number
            .parse::<usize>()
            .ok()
            .and_then(|n| levels.from_former(n))
            .and_then(|n| u8::try_from(n).ok())
            .map(Seat::Bot)
            .ok_or_else(|| {
                format!(
                    "{text_q} is not a seat: this record's format had levels level:1 to \
                     level:{FORMER_LEVELS}",
                    text_q = quoted(text.trim())
                )
            })
    }

    /// Reads a comma-separated list of seats for a game of `players`. Commas inside a
    /// bot's parameters (`mcts:iters=500,c=0.3`) stay with that bot.
    pub fn parse_list(text: &str, players: usize) -> Result<Vec<Seat>, String> {
        let seats = split_specs(text)
            .iter()
            .map(|spec| Seat::parse(spec))
            .collect::<Result<Vec<_>, _>>()?;
        if seats.len() != players {
            return Err(format!(
                "{} seats named but this game has {players} players",
                seats.len()
            ));
        }
        Ok(seats)
    }

    /// The bot's search, for a bot seat.
    pub fn spec(&self) -> Option<BotSpec> {
        match self {
            Seat::Bot(level) => BotSpec::level(*level as usize).ok(),
            Seat::Custom(spec) => spec.parse().ok(),
            Seat::Human | Seat::Remote => None,
        }
    }
}

/// Splits `a,b,c` at the commas that start a new seat or bot: a part holding `=` but no
/// `:` is another parameter of the bot before it.
pub fn split_specs(text: &str) -> Vec<String> {
    let mut specs: Vec<String> = Vec::new();
    for part in text.split(',') {
        match specs.last_mut() {
            Some(last) if part.contains('=') && !part.contains(':') => {
                last.push(',');
                last.push_str(part);
            }
            _ => specs.push(part.trim().to_string()),
        }
    }
    specs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_read_back_from_their_names() {
        for seat in Seat::offered()
            .into_iter()
            .chain([Seat::Remote, Seat::Custom("uct:ms=50".into())])
        {
            assert_eq!(Seat::parse(&seat.name()), Ok(seat.clone()));
        }
        assert!(
            Seat::parse("level:13")
                .unwrap_err()
                .contains("level:1 to level:12")
        );
        assert!(Seat::parse("grandmaster").is_err());
        assert_eq!(Seat::Bot(3).spec(), BotSpec::level(3).ok());
        assert!(Seat::Remote.spec().is_none() && !Seat::Remote.is_bot());
    }

    #[test]
    fn former_levels_are_played_by_the_levels_named_for_them() {
        let levels = Levels::built_in();
        // The former top level is the ladder's top.
        assert_eq!(
            Seat::parse_former("level:5"),
            Ok(Seat::Bot(levels.top() as u8))
        );
        for former in 1..=FORMER_LEVELS {
            assert_eq!(
                Seat::parse_former(&format!("level:{former}")),
                Ok(Seat::Bot(levels.formerly[former - 1] as u8))
            );
        }
        let error = Seat::parse_former("level:6").unwrap_err();
        assert!(error.contains("level:1 to level:5"), "{error}");
        assert_eq!(Seat::parse_former("human"), Ok(Seat::Human));
        assert!(Seat::parse_former("level:x").is_err());
    }

    #[test]
    fn seat_lists_keep_bot_parameters_together() {
        let seats = Seat::parse_list("human,mcts:iters=500,c=0.3,random", 3).unwrap();
        assert_eq!(
            seats,
            [
                Seat::Human,
                Seat::Custom("mcts:iters=500,c=0.3".into()),
                Seat::Custom("random".into())
            ]
        );
        assert!(
            Seat::parse_list("human", 2)
                .unwrap_err()
                .contains("2 players")
        );
    }
}
