//! Game options as `key=value` text, as `tabula-cli --option`, the new-game form and
//! records write them, read into each game's options and written back.

use tabula_rules::Game;
use tabula_rules::text::quoted;

/// Options as `(key, value)` text pairs, in the order given.
pub type Settings = Vec<(String, String)>;

/// Replaces every `@path` value with the text of that file, read by `read` (the caller's
/// file system: the session crate does no I/O). A file that cannot be read is an error
/// naming the option and the file.
pub fn read_file_values(
    settings: &[(String, String)],
    read: impl Fn(&str) -> Result<String, String>,
) -> Result<Settings, String> {
    settings
        .iter()
        .map(|(key, value)| match value.strip_prefix('@') {
            Some(path) => read(path)
                .map(|text| (key.clone(), file_value(&text)))
                .map_err(|e| format!("option {}: cannot read {}: {e}", quoted(key), quoted(path))),
            None => Ok((key.clone(), value.clone())),
        })
        .collect()
}

/// A file's text as an option value, trimmed as a typed value is; a picture (several
/// lines) keeps its first line's indentation, which places its discs.
fn file_value(text: &str) -> String {
    let text = text.trim_end();
    let text = text.trim_start_matches(['\n', '\r']);
    if text.contains('\n') {
        text.to_string()
    } else {
        text.trim().to_string()
    }
}

/// The game's options with `settings` set over its defaults; an error names the option.
/// An option set twice is refused, so that neither value is dropped without a word.
pub fn options_from<G: Game>(settings: &[(String, String)]) -> Result<G::Options, String> {
    let mut options = G::Options::default();
    for (i, (key, value)) in settings.iter().enumerate() {
        if let Some((_, first)) = settings[..i].iter().find(|(k, _)| k == key) {
            return Err(format!(
                "option {} is set twice ({}, then {}): set it once",
                quoted(key),
                quoted(first),
                quoted(value)
            ));
        }
        G::set_option(&mut options, key, value).map_err(|e| e.to_string())?;
    }
    Ok(options)
}

/// The fields of an options value as `(key, value)` text, in declaration order. Values are
/// written as `set_option` reads them; an unset optional value is empty.
pub fn settings_of<G: Game>(options: &G::Options) -> Settings {
    let pretty = ron::ser::PrettyConfig::new().struct_names(false);
    let text = ron::ser::to_string_pretty(options, pretty).unwrap_or_default();
    text.lines()
        .filter_map(|line| {
            let line = line.trim().trim_end_matches(',');
            let (key, value) = line.split_once(": ")?;
            let value = match value {
                "None" => String::new(),
                v if v.starts_with("Some(") && v.ends_with(')') => {
                    ron_text(&v["Some(".len()..v.len() - 1])
                }
                v => ron_text(v),
            };
            Some((key.to_string(), value))
        })
        .collect()
}

/// Every option of the game with its default value, for a new-game form.
pub fn default_settings<G: Game>() -> Settings {
    settings_of::<G>(&G::Options::default())
}

/// The options that differ from the game's defaults.
pub fn changed_settings<G: Game>(options: &G::Options) -> Settings {
    let defaults = default_settings::<G>();
    settings_of::<G>(options)
        .into_iter()
        .filter(|pair| !defaults.contains(pair))
        .collect()
}

/// How many players a game with these settings seats, or why the settings are wrong.
pub fn players_for<G: Game>(settings: &[(String, String)]) -> Result<usize, String> {
    let options = options_from::<G>(settings)?;
    Ok(G::new(options).map_err(|e| e.to_string())?.num_players())
}

/// A value as `set_option` reads it: strings unescaped (a Super-Adaptoid board has line
/// breaks and quotes), anything else as written.
fn ron_text(value: &str) -> String {
    if value.starts_with('"') {
        ron::from_str::<String>(value).unwrap_or_else(|_| value.trim_matches('"').to_string())
    } else {
        value.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GameKind;
    use tabula_rules::OptionValues;
    use tabula_rules::adamas::Adamas;

    fn pairs(list: &[(&str, &str)]) -> Settings {
        list.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    /// The probe's `create` with `players=3`, then `players=2`, was taken with the last
    /// one winning; the command line's `-o` twice did the same.
    #[test]
    fn an_option_set_twice_is_refused() {
        let err =
            options_from::<Adamas>(&pairs(&[("players", "3"), ("players", "2")])).unwrap_err();
        assert_eq!(
            err,
            r#"option "players" is set twice ("3", then "2"): set it once"#
        );
        assert!(options_from::<Adamas>(&pairs(&[("players", "3")])).is_ok());
    }

    /// Every option a game reads is described, in the order of its fields, and its default
    /// is a value the description allows.
    #[test]
    fn every_option_is_described() {
        for kind in GameKind::ALL {
            crate::with_game!(kind, G => {
                let defaults = default_settings::<G>();
                let keys: Vec<&str> = defaults.iter().map(|(key, _)| key.as_str()).collect();
                let described: Vec<&str> = G::OPTIONS.iter().map(|o| o.key).collect();
                assert_eq!(described, keys, "{kind:?}");
                for (info, (_, default)) in G::OPTIONS.iter().zip(&defaults) {
                    assert!(!info.name.is_empty() && info.explanation.ends_with('.'), "{info:?}");
                    let allowed = match info.values {
                        OptionValues::Flag => default == "true" || default == "false",
                        OptionValues::Number { min, max, unset } => match default.parse::<u64>() {
                            Ok(n) => (min..=max).contains(&n),
                            Err(_) => default.is_empty() && unset.is_some(),
                        },
                        OptionValues::Choice(words) => words.contains(&default.as_str()),
                        OptionValues::Board => default.is_empty(),
                    };
                    assert!(allowed, "{kind:?} {}: default {default:?}", info.key);
                }
            });
        }
    }

    #[test]
    fn every_games_defaults_read_back_to_the_defaults() {
        for kind in GameKind::ALL {
            crate::with_game!(kind, G => {
                let mut defaults = default_settings::<G>();
                assert!(!defaults.is_empty(), "{kind:?}");
                // An unset optional value (Adamas's size) is written empty and not read.
                defaults.retain(|(_, value)| !value.is_empty());
                let options = options_from::<G>(&defaults).unwrap_or_else(|e| panic!("{kind:?}: {e}"));
                assert_eq!(options, <G as Game>::Options::default(), "{kind:?}");
                assert!(changed_settings::<G>(&options).is_empty());
            });
        }
    }

    #[test]
    fn changed_settings_are_the_ones_set() {
        let options = options_from::<Adamas>(&pairs(&[("prog_cap", "true")])).unwrap();
        assert_eq!(
            changed_settings::<Adamas>(&options),
            pairs(&[("prog_cap", "true")])
        );
        let error = options_from::<Adamas>(&pairs(&[("colour", "red")])).unwrap_err();
        assert!(error.contains("colour"), "{error}");
    }

    #[test]
    fn players_follow_the_options() {
        assert_eq!(players_for::<Adamas>(&[]), Ok(2));
        assert_eq!(players_for::<Adamas>(&pairs(&[("players", "3")])), Ok(3));
        assert!(players_for::<Adamas>(&pairs(&[("players", "three")])).is_err());
    }

    #[test]
    fn file_values_are_read_and_a_missing_file_is_named() {
        let read = |path: &str| match path {
            "board.txt" => Ok("a board".to_string()),
            _ => Err("no such file".to_string()),
        };
        let read_back = read_file_values(&pairs(&[("board", "@board.txt"), ("x", "1")]), read);
        assert_eq!(read_back, Ok(pairs(&[("board", "a board"), ("x", "1")])));
        let error = read_file_values(&pairs(&[("board", "@gone.txt")]), read).unwrap_err();
        assert_eq!(
            error,
            r#"option "board": cannot read "gone.txt": no such file"#
        );
    }
}
