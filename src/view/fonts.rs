//! The fonts every screen draws with: egui's Ubuntu Light for text, and cut-down copies of
//! its Hack (monospace) and Noto Emoji (the few symbols Ubuntu Light lacks), made by
//! `assets/fonts/make_fonts.py`. egui's full defaults add two emoji fonts nobody sees here:
//! 0.5 MB of the browser's download.

use bevy::prelude::*;
use bevy_egui::{EguiContext, EguiPreUpdateSet, egui};
use std::sync::Arc;

pub fn plugin(app: &mut App) {
    app.add_systems(
        PreUpdate,
        give_fonts
            .after(EguiPreUpdateSet::InitContexts)
            .before(EguiPreUpdateSet::BeginPass),
    );
}

/// Before a new context's first pass, so no frame is drawn without text.
fn give_fonts(mut contexts: Query<&mut EguiContext, Added<EguiContext>>) {
    for mut context in &mut contexts {
        context.get_mut().set_fonts(definitions());
    }
}

const HACK_SUBSET: &[u8] = include_bytes!("../../assets/fonts/hack-subset.ttf");
const SYMBOLS: &[u8] = include_bytes!("../../assets/fonts/symbols.ttf");

/// egui's default families, with the cut-down fonts in place of the full ones.
pub fn definitions() -> egui::FontDefinitions {
    let mut fonts = egui::FontDefinitions::empty();
    let mut add = |name: &str, data: egui::FontData| {
        fonts.font_data.insert(name.to_owned(), Arc::new(data));
    };
    add(
        "Ubuntu-Light",
        egui::FontData::from_static(epaint_default_fonts::UBUNTU_LIGHT),
    );
    add("Hack", egui::FontData::from_static(HACK_SUBSET));
    // Noto Emoji drawn at egui's own scale for it.
    add(
        "Symbols",
        egui::FontData::from_static(SYMBOLS).tweak(egui::FontTweak {
            scale: 0.81,
            ..default()
        }),
    );
    let families = [
        (
            egui::FontFamily::Proportional,
            ["Ubuntu-Light", "Symbols"].as_slice(),
        ),
        (
            egui::FontFamily::Monospace,
            &["Hack", "Ubuntu-Light", "Symbols"],
        ),
    ];
    for (family, names) in families {
        fonts
            .families
            .insert(family, names.iter().map(|name| name.to_string()).collect());
    }
    fonts
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// Every character the screens can show from Tabula's own text (the app's strings, the
    /// rules crates' messages, the lessons, puzzles, rules pages and board files) is in a
    /// font, in both families: a new one fails here until `make_fonts.py` keeps it.
    #[test]
    fn fonts_cover_every_shown_character() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut shown = std::collections::BTreeMap::new();
        let sources = [
            ("src", "rs"),
            ("crates/rules/src", "rs"),
            ("crates/session/src", "rs"),
            ("crates/learn/src", "rs"),
            ("crates/bot/src", "rs"),
            ("crates/online/src", "rs"),
            ("crates/protocol/src", "rs"),
            ("config", "ron"),
            ("docs/rules", "md"),
            ("boards", "txt"),
        ];
        for (dir, extension) in sources {
            for path in files_under(&root.join(dir), extension) {
                let text = std::fs::read_to_string(&path).unwrap();
                for line in shown_lines(&text, extension) {
                    for c in line.chars().filter(|c| !c.is_ascii()) {
                        shown.entry(c).or_insert_with(|| path.display().to_string());
                    }
                }
            }
        }
        assert!(shown.contains_key(&'▶'), "the scan found the play arrow");
        let definitions = definitions();
        let has = |name: &str, c: char| {
            let data = &definitions.font_data[name].font;
            let font = skrifa::FontRef::new(data).expect("a font egui reads");
            skrifa::MetadataProvider::charmap(&font).map(c).is_some()
        };
        let mut missing = Vec::new();
        for (c, path) in &shown {
            for (family, names) in &definitions.families {
                if !names.iter().any(|name| has(name, *c)) {
                    missing.push(format!("{c:?} (U+{:04X}, {path}) in {family:?}", *c as u32));
                }
            }
        }
        assert!(missing.is_empty(), "no font has {missing:?}");
    }

    /// The lines a file's reader can see: in Rust, code before its tests, comments left out.
    fn shown_lines<'a>(text: &'a str, extension: &str) -> Vec<&'a str> {
        let lines = text.lines();
        if extension != "rs" {
            return lines.collect();
        }
        lines
            .take_while(|line| line.trim() != "#[cfg(test)]")
            .filter(|line| !line.trim_start().starts_with("//"))
            .collect()
    }

    fn files_under(dir: &Path, extension: &str) -> Vec<std::path::PathBuf> {
        let mut found = Vec::new();
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                found.extend(files_under(&path, extension));
            } else if path.extension().is_some_and(|e| e == extension) {
                found.push(path);
            }
        }
        found
    }
}
