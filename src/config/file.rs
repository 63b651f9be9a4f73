//! The settings file: where it is, reading it (a broken one kept aside), and writing it
//! half a second after the last change.

use super::{ConfigProblems, SETTINGS_PATH, Settings, parse};
use bevy::prelude::*;
use std::path::{Path, PathBuf};

/// Reads the settings file at `path`; a missing file is not a problem.
pub fn load(path: &Path) -> (Settings, Vec<String>) {
    let mut problems = Vec::new();
    let settings = match crate::storage::read_file(path) {
        Ok(Some(text)) => parse(&text).unwrap_or_else(|error| {
            problems.push(format!(
                "{}: {error}. Using the built-in settings.",
                path.display()
            ));
            Settings::default()
        }),
        Ok(None) => Settings::default(),
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

/// Where the player's settings are kept; without it (headless tests) nothing is written.
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct SettingsFile(pub PathBuf);

impl SettingsFile {
    /// `TABULA_CONFIG_DIR/settings.ron`, or `tabula/settings.ron` in the platform's
    /// config directory.
    pub fn platform() -> Option<SettingsFile> {
        if cfg!(target_arch = "wasm32") {
            // Local storage, beside the saved games.
            return crate::storage::Storage::platform()
                .path("settings.ron")
                .map(SettingsFile);
        }
        std::env::var_os("TABULA_CONFIG_DIR")
            .map(PathBuf::from)
            .or_else(config_dir)
            .map(|dir| SettingsFile(dir.join("settings.ron")))
    }
}

/// Reads the player's file if there is one, else the working directory's. A broken
/// player's file is moved aside, so saving new settings never overwrites it.
pub(super) fn load_first(file: Option<&SettingsFile>) -> (Settings, Vec<String>) {
    if let Some(SettingsFile(path)) = file
        && crate::storage::file_exists(path)
    {
        let (settings, mut problems) = load(path);
        if !problems.is_empty() {
            let aside = crate::storage::free_name(&path.with_extension("ron.unreadable"));
            match crate::storage::rename_file(path, &aside) {
                Ok(()) => problems.push(format!("It is kept as {}.", aside.display())),
                Err(e) => problems.push(format!("It could not be moved aside: {e}.")),
            }
        }
        return (settings, problems);
    }
    if cfg!(target_arch = "wasm32") {
        // A page has no working directory.
        return (Settings::default(), Vec::new());
    }
    load(Path::new(SETTINGS_PATH))
}

#[cfg(not(target_arch = "wasm32"))]
fn config_dir() -> Option<PathBuf> {
    dirs::config_dir().map(|d| d.join("tabula"))
}

#[cfg(target_arch = "wasm32")]
fn config_dir() -> Option<PathBuf> {
    None
}

/// Half a second after the last change (a slider sends one a frame), the settings are
/// written to the player's file.
pub(super) fn save_settings(
    settings: Res<Settings>,
    file: Option<Res<SettingsFile>>,
    time: Res<Time<Real>>,
    mut last_seen: Local<Option<Settings>>,
    mut changed_at: Local<Option<f64>>,
    mut problems: ResMut<ConfigProblems>,
) {
    let Some(file) = file else {
        return;
    };
    let now = time.elapsed_secs_f64();
    // Menus borrow the settings mutably every frame they are open: compare values.
    match &*last_seen {
        None => *last_seen = Some(settings.clone()),
        Some(seen) if seen != &*settings => {
            *last_seen = Some(settings.clone());
            *changed_at = Some(now);
        }
        Some(_) => {}
    }
    if changed_at.is_some_and(|at| now - at >= 0.5) {
        *changed_at = None;
        if let Err(e) = crate::storage::write_atomic(&file.0, &to_text(&settings)) {
            let problem = format!("{}: the settings could not be saved: {e}", file.0.display());
            warn!("{problem}");
            problems.0.push(problem);
        }
    }
}

pub fn to_text(settings: &Settings) -> String {
    let pretty = ron::ser::PrettyConfig::new().struct_names(false);
    let body = ron::ser::to_string_pretty(settings, pretty).expect("settings are plain data");
    format!("// Tabula's settings, written by the game when they change in its menu.\n{body}\n")
}
