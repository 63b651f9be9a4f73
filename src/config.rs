//! Settings from `config/settings.ron`, with the same file's defaults built in. A broken
//! file is reported (line and column) and the defaults are used; nothing is written back.

use bevy::prelude::*;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

const DEFAULTS: &str = include_str!("../config/settings.ron");
pub const SETTINGS_PATH: &str = "config/settings.ron";

#[derive(Resource, Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    pub animation_speed: f32,
    pub confirm_moves: bool,
    pub show_labels: bool,
    pub shadows: bool,
    pub light_dark: Vec<(f32, f32, f32)>,
    pub three_players: Vec<(f32, f32, f32)>,
    pub keys: KeyNames,
    pub game_defaults: BTreeMap<String, BTreeMap<String, String>>,
}

#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct KeyNames {
    pub pause: String,
    pub confirm: String,
    pub take_back_step: String,
    pub reset_camera: String,
    pub toggle_labels: String,
    pub orbit_left: String,
    pub orbit_right: String,
    pub tilt_up: String,
    pub tilt_down: String,
    pub zoom_in: String,
    pub zoom_out: String,
}

/// The key bindings, resolved to key codes.
#[derive(Resource, Clone, Debug)]
pub struct Keys {
    pub pause: KeyCode,
    pub confirm: KeyCode,
    pub take_back_step: KeyCode,
    pub reset_camera: KeyCode,
    pub toggle_labels: KeyCode,
    pub orbit_left: KeyCode,
    pub orbit_right: KeyCode,
    pub tilt_up: KeyCode,
    pub tilt_down: KeyCode,
    pub zoom_in: KeyCode,
    pub zoom_out: KeyCode,
}

/// What went wrong reading the settings, for the title screen.
#[derive(Resource, Clone, Debug, Default)]
pub struct ConfigProblems(pub Vec<String>);

impl Default for Settings {
    fn default() -> Self {
        parse(DEFAULTS).expect("the built-in settings parse")
    }
}

impl Settings {
    /// The palette colour `index` for a game with `players` colours.
    pub fn colour(&self, players: usize, index: usize) -> Color {
        let (r, g, b) = if players >= 3 {
            self.three_players[index % 3]
        } else {
            self.light_dark[index % 2]
        };
        Color::srgb(r, g, b)
    }

    pub fn game_defaults(&self, game: &str) -> Vec<(String, String)> {
        self.game_defaults
            .get(game)
            .map(|m| m.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
            .unwrap_or_default()
    }

    fn check(&self) -> Result<(), String> {
        if !(0.0..=10.0).contains(&self.animation_speed) {
            return Err(format!(
                "animation_speed must be between 0 and 10, not {}",
                self.animation_speed
            ));
        }
        if self.light_dark.len() != 2 || self.three_players.len() != 3 {
            return Err("light_dark needs 2 colours and three_players 3".to_string());
        }
        let channels = self.light_dark.iter().chain(&self.three_players);
        if channels
            .flat_map(|&(r, g, b)| [r, g, b])
            .any(|c| !(0.0..=1.0).contains(&c))
        {
            return Err("colour channels must be between 0 and 1".to_string());
        }
        Ok(())
    }
}

pub fn parse(text: &str) -> Result<Settings, String> {
    let settings: Settings = ron::from_str(text).map_err(|e| e.to_string())?;
    settings.check()?;
    Ok(settings)
}

/// Reads the settings file at `path`; a missing file is not a problem.
pub fn load(path: &Path) -> (Settings, Vec<String>) {
    let mut problems = Vec::new();
    let settings = match std::fs::read_to_string(path) {
        Ok(text) => parse(&text).unwrap_or_else(|error| {
            problems.push(format!(
                "{}: {error}. Using the built-in settings.",
                path.display()
            ));
            Settings::default()
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Settings::default(),
        Err(e) => {
            problems.push(format!(
                "{}: {e}. Using the built-in settings.",
                path.display()
            ));
            Settings::default()
        }
    };
    (settings, problems)
}

impl KeyNames {
    pub fn resolve(&self, problems: &mut Vec<String>) -> Keys {
        let defaults = Settings::default().keys;
        let mut key = |name: &str, fallback: &str, what: &str| {
            key_code(name).unwrap_or_else(|| {
                problems.push(format!(
                    "keys.{what}: unknown key {name:?}; using {fallback}"
                ));
                key_code(fallback).unwrap_or(KeyCode::Escape)
            })
        };
        Keys {
            pause: key(&self.pause, &defaults.pause, "pause"),
            confirm: key(&self.confirm, &defaults.confirm, "confirm"),
            take_back_step: key(
                &self.take_back_step,
                &defaults.take_back_step,
                "take_back_step",
            ),
            reset_camera: key(&self.reset_camera, &defaults.reset_camera, "reset_camera"),
            toggle_labels: key(
                &self.toggle_labels,
                &defaults.toggle_labels,
                "toggle_labels",
            ),
            orbit_left: key(&self.orbit_left, &defaults.orbit_left, "orbit_left"),
            orbit_right: key(&self.orbit_right, &defaults.orbit_right, "orbit_right"),
            tilt_up: key(&self.tilt_up, &defaults.tilt_up, "tilt_up"),
            tilt_down: key(&self.tilt_down, &defaults.tilt_down, "tilt_down"),
            zoom_in: key(&self.zoom_in, &defaults.zoom_in, "zoom_in"),
            zoom_out: key(&self.zoom_out, &defaults.zoom_out, "zoom_out"),
        }
    }
}

/// Key names as Bevy spells its `KeyCode`s, for the keys a binding is likely to use.
pub fn key_code(name: &str) -> Option<KeyCode> {
    use KeyCode::*;
    let letters = [
        KeyA, KeyB, KeyC, KeyD, KeyE, KeyF, KeyG, KeyH, KeyI, KeyJ, KeyK, KeyL, KeyM, KeyN, KeyO,
        KeyP, KeyQ, KeyR, KeyS, KeyT, KeyU, KeyV, KeyW, KeyX, KeyY, KeyZ,
    ];
    let digits = [
        Digit0, Digit1, Digit2, Digit3, Digit4, Digit5, Digit6, Digit7, Digit8, Digit9,
    ];
    if let Some(letter) = name.strip_prefix("Key")
        && let [c @ b'A'..=b'Z'] = letter.as_bytes()
    {
        return Some(letters[(c - b'A') as usize]);
    }
    if let Some(digit) = name.strip_prefix("Digit")
        && let [c @ b'0'..=b'9'] = digit.as_bytes()
    {
        return Some(digits[(c - b'0') as usize]);
    }
    Some(match name {
        "Escape" => Escape,
        "Enter" => Enter,
        "Space" => Space,
        "Backspace" => Backspace,
        "Tab" => Tab,
        "Delete" => Delete,
        "Home" => Home,
        "End" => End,
        "PageUp" => PageUp,
        "PageDown" => PageDown,
        "ArrowLeft" => ArrowLeft,
        "ArrowRight" => ArrowRight,
        "ArrowUp" => ArrowUp,
        "ArrowDown" => ArrowDown,
        "Equal" => Equal,
        "Minus" => Minus,
        "NumpadAdd" => NumpadAdd,
        "NumpadSubtract" => NumpadSubtract,
        "F1" => F1,
        "F2" => F2,
        "F3" => F3,
        "F4" => F4,
        _ => return None,
    })
}

pub fn plugin(app: &mut App) {
    let (settings, mut problems) = load(Path::new(SETTINGS_PATH));
    let keys = settings.keys.resolve(&mut problems);
    for problem in &problems {
        warn!("{problem}");
    }
    app.insert_resource(settings)
        .insert_resource(keys)
        .insert_resource(ConfigProblems(problems));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_settings_parse_and_bind_every_key() {
        let settings = Settings::default();
        let mut problems = Vec::new();
        let keys = settings.keys.resolve(&mut problems);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(keys.pause, KeyCode::Escape);
        assert_eq!(keys.reset_camera, KeyCode::KeyR);
        assert_eq!(settings.animation_speed, 1.0);
    }

    #[test]
    fn a_broken_file_names_the_place_and_falls_back() {
        let dir = std::env::temp_dir().join(format!("tabula-config-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("settings.ron");
        let broken = DEFAULTS.replace("animation_speed: 1.0,", "animation_speed: fast,");
        std::fs::write(&path, &broken).unwrap();
        let (settings, problems) = load(&path);
        assert_eq!(settings, Settings::default());
        assert_eq!(problems.len(), 1);
        assert!(problems[0].contains("settings.ron"), "{}", problems[0]);
        // ron names the line: animation_speed is on line 6 of the file.
        assert!(problems[0].contains("6:"), "{}", problems[0]);
        // The broken file is left as it was.
        assert_eq!(std::fs::read_to_string(&path).unwrap(), broken);

        let missing = load(&dir.join("absent.ron"));
        assert!(missing.1.is_empty());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn out_of_range_values_and_unknown_keys_are_reported() {
        let slow = DEFAULTS.replace("animation_speed: 1.0,", "animation_speed: -2.0,");
        assert!(parse(&slow).unwrap_err().contains("animation_speed"));
        let mut settings = Settings::default();
        settings.keys.pause = "Hyper".to_string();
        let mut problems = Vec::new();
        let keys = settings.keys.resolve(&mut problems);
        assert_eq!(keys.pause, KeyCode::Escape);
        assert!(problems[0].contains("keys.pause"));
        assert_eq!(key_code("KeyQ"), Some(KeyCode::KeyQ));
        assert_eq!(key_code("Digit7"), Some(KeyCode::Digit7));
        assert_eq!(key_code("Key"), None);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(128))]

        /// A damaged settings file is refused with a reason (or still reads), never a panic.
        #[test]
        fn damaged_settings_are_refused_with_a_reason(
            cut in 0usize..2_000,
            edits in proptest::collection::vec((0usize..2_000, 0u8..95), 0..4),
        ) {
            let mut bytes = DEFAULTS.as_bytes().to_vec();
            bytes.truncate(cut % (bytes.len() + 1));
            for (at, byte) in edits {
                if !bytes.is_empty() {
                    let at = at % bytes.len();
                    bytes[at] = b' ' + byte;
                }
            }
            let text = String::from_utf8_lossy(&bytes);
            if let Err(error) = parse(&text) {
                proptest::prop_assert!(!error.is_empty());
            }
        }
    }
}
