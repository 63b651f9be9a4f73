//! Settings: the player's own file in the platform's config directory, written whenever
//! they change in the game; before the first change, `config/settings.ron` in the working
//! directory if there is one; and that same file's defaults built in. A broken file is
//! reported (line and column), moved aside so it is kept, and the defaults are used.
//! Reading and writing the file is in [`file`]; the theme and the palettes in [`palette`].

mod file;
mod keys;
mod palette;
mod review_level;

pub use file::{SettingsFile, load, to_text};
pub use keys::{KeyNames, Keys, key_code};
pub use palette::{PALETTES, Palette, Theme};

use bevy::prelude::*;
use file::{load_first, save_settings};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use tabula_session::{GameKind, Rating};

const DEFAULTS: &str = include_str!("../../config/settings.ron");
pub const SETTINGS_PATH: &str = "config/settings.ron";

#[derive(Resource, Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    pub animation_speed: f32,
    pub confirm_moves: bool,
    pub show_labels: bool,
    pub shadows: bool,
    /// Light or dark menus and background.
    #[serde(default)]
    pub theme: Theme,
    pub light_dark: Vec<(f32, f32, f32)>,
    pub three_players: Vec<(f32, f32, f32)>,
    pub keys: KeyNames,
    /// The bot level whose search judges a game review: 1 to the longest ladder's top, one
    /// number for every game (above a game's top, its top).
    #[serde(default = "review_level::unset")]
    pub review_level: u8,
    /// 3 when `review_level` counts on the ladders of `config/bots.ron` (the longest one);
    /// settings written before (2) counted one ladder of twelve for every game, read
    /// through `twelve`, and before the ladder (1) the five former levels, through
    /// `formerly`.
    #[serde(default = "review_level::before_the_ladder")]
    pub level_ladder: u32,
    pub game_defaults: BTreeMap<String, BTreeMap<String, String>>,
    /// The player's rating against the bots in each game, by game key.
    #[serde(default)]
    pub ratings: BTreeMap<String, Rating>,
    /// How loud the game's sounds are, from 0 to 1.
    #[serde(default = "default_sound_volume")]
    pub sound_volume: f32,
    #[serde(default)]
    pub sound_muted: bool,
    /// How many steps of each game's course the player has done, by game key.
    #[serde(default)]
    pub lessons: BTreeMap<String, usize>,
    /// The player's puzzle rating, streak and puzzles lately tried, by game key.
    #[serde(default)]
    pub puzzles: BTreeMap<String, tabula_learn::PuzzleRecord>,
    /// The most threads a search of time alone (the top level's bot, the analysis board,
    /// and a review at the top level, which studies each move played on them and searches
    /// each position on one) runs on; none: every core the machine has.
    #[serde(default)]
    pub search_threads: Option<u8>,
}

/// Settings written before the game had sounds: at a volume that does not startle.
fn default_sound_volume() -> f32 {
    0.7
}

/// The cores this machine can run threads on (1 when it cannot say), asked once: the
/// answer reads the scheduler's and cgroups' files, and the pause menu asks every frame.
pub fn machine_cores() -> u32 {
    static CORES: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| {
        std::thread::available_parallelism()
            .map_or(1, |n| n.get().min(tabula_bot::MAX_THREADS) as u32)
    })
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
    /// The threads a search of time alone runs on: the setting, at most the machine's
    /// cores, and one on the web (its search worker has one thread).
    pub fn search_threads(&self) -> u32 {
        if cfg!(target_arch = "wasm32") {
            return 1;
        }
        let cores = machine_cores();
        self.search_threads
            .map_or(cores, |n| u32::from(n).clamp(1, cores))
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
        let levels = tabula_bot::Levels::built_in().top();
        if !(1..=levels).contains(&(self.review_level as usize)) {
            return Err(format!(
                "review_level must be 1 to {levels}, not {}",
                self.review_level
            ));
        }
        if self.search_threads == Some(0) {
            return Err("search_threads must be 1 or more (or None: every core)".to_string());
        }
        if let Some((game, _)) = self
            .ratings
            .iter()
            .find(|(game, r)| GameKind::from_key(game).is_none() || !r.rating.is_finite())
        {
            return Err(format!(
                "ratings: {} is not a game with a rating",
                tabula_session::rules::text::quoted(game)
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
    // RON's message may quote the file at length (an unknown field's name).
    let mut settings: Settings =
        ron::from_str(text).map_err(|e| tabula_session::rules::text::shown_line(&e.to_string()))?;
    review_level::onto_the_ladder(&mut settings)?;
    settings.check()?;
    Ok(settings)
}

pub fn plugin(app: &mut App) {
    let file = app.world().get_resource::<SettingsFile>().cloned();
    let (settings, mut problems) = load_first(file.as_ref());
    let keys = settings.keys.resolve(&mut problems);
    for problem in &problems {
        warn!("{problem}");
    }
    app.insert_resource(settings)
        .insert_resource(keys)
        .insert_resource(ConfigProblems(problems))
        .add_systems(Last, save_settings);
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
        // ron names the line: animation_speed is on line 7 of the file.
        assert!(problems[0].contains("7:"), "{}", problems[0]);
        // The broken file is left as it was.
        assert_eq!(std::fs::read_to_string(&path).unwrap(), broken);

        let missing = load(&dir.join("absent.ron"));
        assert!(missing.1.is_empty());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Settings changed from the defaults: the light theme and another palette.
    fn light_with_palette(palette: usize) -> Settings {
        let mut settings = Settings {
            theme: Theme::Light,
            ..Settings::default()
        };
        settings.use_palette(&PALETTES[palette]);
        settings
    }

    #[test]
    fn settings_round_trip_and_a_broken_file_is_kept_aside() {
        let mut settings = light_with_palette(2);
        settings.animation_speed = 2.5;
        assert_eq!(parse(&to_text(&settings)), Ok(settings.clone()));
        assert_eq!(settings.palette_name(), Some(PALETTES[2].0));
        assert_eq!(Settings::default().palette_name(), Some(PALETTES[0].0));

        let dir = std::env::temp_dir().join(format!("tabula-settings-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let file = SettingsFile(dir.join("settings.ron"));
        std::fs::write(&file.0, to_text(&settings)).unwrap();
        assert_eq!(load_first(Some(&file)), (settings, Vec::new()));
        std::fs::write(&file.0, "(animation_speed: oops)").unwrap();
        let (read, problems) = load_first(Some(&file));
        assert_eq!(read, Settings::default());
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(!file.0.exists());
        let kept = std::fs::read_to_string(dir.join("settings.ron.unreadable")).unwrap();
        assert_eq!(kept, "(animation_speed: oops)");
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

    /// A settings file cut at every byte: it still reads, or the built-in settings are
    /// used, the problem is named, and the file is kept aside byte for byte.
    #[test]
    fn a_settings_file_cut_at_every_byte_is_read_or_kept_aside() {
        let settings = light_with_palette(1);
        let text = to_text(&settings);
        let dir = std::env::temp_dir().join(format!("tabula-settings-cut-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let file = SettingsFile(dir.join("settings.ron"));
        let aside = dir.join("settings.ron.unreadable");
        for cut in 0..=text.len() {
            std::fs::write(&file.0, &text[..cut]).unwrap();
            let (read, problems) = load_first(Some(&file));
            if problems.is_empty() {
                assert_eq!(read, settings, "cut at {cut}");
                continue;
            }
            assert_eq!(read, Settings::default());
            assert!(
                problems[0].contains("Using the built-in settings"),
                "{problems:?}"
            );
            assert_eq!(
                std::fs::read_to_string(&aside).unwrap(),
                text[..cut],
                "cut at {cut}"
            );
            std::fs::remove_file(&aside).unwrap();
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The settings file as a fuzz target (the other targets are in crates/fuzz, which
    /// cannot reach the app): mutations of real settings files either read, and then write
    /// back as the same settings, or are refused with a short message.
    #[test]
    fn mutated_settings_read_back_or_are_refused_briefly() {
        let mut changed = light_with_palette(2);
        changed
            .game_defaults
            .entry("adamas".into())
            .or_default()
            .insert("size".into(), "4".into());
        let corpus = [DEFAULTS.to_string(), to_text(&changed)].map(String::into_bytes);
        let mut mutator = tabula_mutate::Mutator::new(7);
        for _ in 0..5_000 {
            let input = mutator.next(&corpus);
            match parse(&String::from_utf8_lossy(&input)) {
                Ok(settings) => assert_eq!(parse(&to_text(&settings)), Ok(settings)),
                Err(e) => tabula_mutate::check_error("settings", &e),
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(128))]

        /// A damaged settings file is refused with a reason (or still reads), never a panic.
        #[test]
        fn damaged_settings_are_refused_with_a_reason(
            cut in 0usize..2_000,
            edits in proptest::collection::vec((0usize..2_000, 0u8..95), 0..4),
        ) {
            let text = tabula_session::testing::damage(DEFAULTS, cut, &edits);
            if let Err(error) = parse(&text) {
                proptest::prop_assert!(!error.is_empty());
            }
        }
    }
}
