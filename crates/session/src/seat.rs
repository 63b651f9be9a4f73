//! Who plays a seat.

use tabula_bot::{BotSpec, FORMER_LEVELS, Levels, TWELVE};
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
    /// The seats a new game of `game` (a `Game::NAME`) offers: a person, then each of its
    /// levels.
    pub fn offered(game: &str) -> Vec<Seat> {
        let levels = Levels::built_in().top_in(game);
        std::iter::once(Seat::Human)
            .chain((1..=levels as u8).map(Seat::Bot))
            .collect()
    }

    /// Whether a bot plays this seat here (a remote seat's moves come from elsewhere).
    pub fn is_bot(&self) -> bool {
        matches!(self, Seat::Bot(_) | Seat::Custom(_))
    }

    /// The seat for a menu in a game of `game` (a `Game::NAME`), whose ladder names the
    /// levels.
    pub fn label(&self, game: &str) -> String {
        match self {
            Seat::Human => "Human".to_string(),
            Seat::Bot(level) => {
                let levels = Levels::built_in();
                match (
                    levels.get(game, *level as usize),
                    levels.playing(game, *level as usize),
                ) {
                    (Some(own), _) => format!("Bot level {level} ({})", own.name),
                    // A number above the game's top (a hand-written record) plays the top.
                    (None, Some(top)) => format!("Bot level {level} (plays the top, {})", top.name),
                    (None, None) => format!("Bot level {level} (?)"),
                }
            }
            Seat::Custom(spec) => format!("Bot {spec}"),
            Seat::Remote => "Remote player".to_string(),
        }
    }

    /// What playing against this seat is like in `game`, for a menu: a level's
    /// description.
    pub fn about(&self, game: &str) -> Option<&'static str> {
        match self {
            Seat::Bot(level) => Levels::built_in()
                .playing(game, *level as usize)
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
            let levels = Levels::built_in().top();
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

    /// Reads a seat of a `game` written before the game had its ladder (records of format
    /// 2 and older): `level:1` to `level:5` were the five former levels, played now by the
    /// levels `config/bots.ron` names for them.
    pub fn parse_former(text: &str, game: &str) -> Result<Seat, String> {
        Seat::parse_older(text, FORMER_LEVELS, |n| {
            Levels::built_in().from_former(game, n)
        })
    }

    /// Reads a seat of a `game` written when every game had one ladder of twelve levels
    /// (records of format 3), played now by the same entries of `config/bots.ron`.
    pub fn parse_twelve(text: &str, game: &str) -> Result<Seat, String> {
        Seat::parse_older(text, TWELVE, |n| Levels::built_in().from_twelve(game, n))
    }

    /// A seat of an older record: `level:1` to `level:{count}` through `today`, the level
    /// that plays it now; anything else as [`Seat::parse`] reads it.
    fn parse_older(
        text: &str,
        count: usize,
        today: impl Fn(usize) -> Option<usize>,
    ) -> Result<Seat, String> {
        let Some(number) = text.trim().strip_prefix("level:") else {
            return Seat::parse(text);
        };
        number
            .parse::<usize>()
            .ok()
            .and_then(today)
            .and_then(|n| u8::try_from(n).ok())
            .map(Seat::Bot)
            .ok_or_else(|| {
                format!(
                    "{text_q} is not a seat: this record's format had levels level:1 to \
                     level:{count}",
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

    /// An error for a bot level above `game`'s top, where the game is named (a level a
    /// longer ladder has would only play this game's top).
    pub fn check_in(&self, game: &str) -> Result<(), String> {
        match self.spec() {
            Some(spec) => spec.check_in(game),
            None => Ok(()),
        }
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
        for seat in Seat::offered("adomoc")
            .into_iter()
            .chain([Seat::Remote, Seat::Custom("uct:ms=50".into())])
        {
            assert_eq!(Seat::parse(&seat.name()), Ok(seat.clone()));
        }
        let top = Levels::built_in().top();
        assert!(
            Seat::parse(&format!("level:{}", top + 1))
                .unwrap_err()
                .contains(&format!("level:1 to level:{top}"))
        );
        // One number for every game: above a game's top, its top.
        for game in ["adaptoid", "absorption", "adamas", "adomoc"] {
            let own_top = Levels::built_in().top_in(game);
            assert_eq!(Seat::offered(game).len(), own_top + 1);
            let strongest = Seat::Bot(own_top as u8).label(game);
            assert!(strongest.contains("Champion"), "{strongest}");
            if own_top < top {
                let above = Seat::Bot(top as u8).label(game);
                assert!(above.contains("plays the top, Champion"), "{above}");
                assert_eq!(
                    Seat::Bot(top as u8).spec().unwrap().search_for(game),
                    Seat::Bot(own_top as u8).spec().unwrap().search_for(game)
                );
            }
        }
        assert!(Seat::parse("grandmaster").is_err());
        // Where the game is named, a level only a longer ladder has is an error.
        let fourteen = Seat::Bot(14);
        assert!(fourteen.check_in("absorption").is_ok());
        let error = fourteen.check_in("adaptoid").unwrap_err();
        assert!(error.contains("adaptoid has levels 1 to 13"), "{error}");
        assert!(Seat::Custom("level:16".into()).check_in("adamas").is_err());
        assert!(Seat::Human.check_in("adamas").is_ok());
        assert_eq!(Seat::Bot(3).spec(), BotSpec::level(3).ok());
        assert!(Seat::Remote.spec().is_none() && !Seat::Remote.is_bot());
    }

    #[test]
    fn former_levels_are_played_by_the_levels_named_for_them() {
        let levels = Levels::built_in();
        for game in ["adaptoid", "absorption", "adamas", "adomoc"] {
            // The former top level is each game's top.
            assert_eq!(
                Seat::parse_former("level:5", game),
                Ok(Seat::Bot(levels.top_in(game) as u8))
            );
            for former in 1..=FORMER_LEVELS {
                // The same entry of the file in every game that has it (else the level
                // below it), numbered on the game's ladder.
                let Ok(Seat::Bot(level)) = Seat::parse_former(&format!("level:{former}"), game)
                else {
                    panic!("former level {former} in {game}")
                };
                let entry = levels.formerly[former - 1];
                let expected = levels.levels[..entry].iter().rfind(|l| l.is_in(game));
                assert_eq!(levels.get(game, level as usize), expected);
            }
        }
        let error = Seat::parse_former("level:6", "adomoc").unwrap_err();
        assert!(error.contains("level:1 to level:5"), "{error}");
        assert_eq!(Seat::parse_former("human", "adomoc"), Ok(Seat::Human));
        assert!(Seat::parse_former("level:x", "adomoc").is_err());
    }

    #[test]
    fn levels_of_the_shared_ladder_keep_their_opponents() {
        let levels = Levels::built_in();
        for game in ["adaptoid", "absorption", "adamas", "adomoc"] {
            for old in 1..=TWELVE {
                let Ok(Seat::Bot(level)) = Seat::parse_twelve(&format!("level:{old}"), game) else {
                    panic!("level {old} of twelve in {game}")
                };
                let entry = levels.twelve[old - 1];
                let expected = levels.levels[..entry].iter().rfind(|l| l.is_in(game));
                assert_eq!(levels.get(game, level as usize), expected);
            }
            // The top of twelve is each game's top.
            assert_eq!(
                Seat::parse_twelve("level:12", game),
                Ok(Seat::Bot(levels.top_in(game) as u8))
            );
        }
        let error = Seat::parse_twelve("level:13", "absorption").unwrap_err();
        assert!(error.contains("level:1 to level:12"), "{error}");
        assert_eq!(
            Seat::parse_twelve("random", "adomoc"),
            Ok(Seat::Custom("random".into()))
        );
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
