//! How the game looks by the player's choice: the theme and the pieces' palettes.

use super::Settings;
use bevy::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub enum Theme {
    #[default]
    Dark,
    Light,
}

/// Named piece colours: (name, two-player light and dark, three-player hues).
pub type Palette = (&'static str, [(f32, f32, f32); 2], [(f32, f32, f32); 3]);

/// The palettes the menu offers. Two-player games tell pieces apart by lightness in all
/// of them; the hues come from Okabe and Ito's palette, safe for colour-blind eyes.
pub const PALETTES: [Palette; 3] = [
    (
        "Ivory and slate",
        [(0.93, 0.90, 0.82), (0.16, 0.18, 0.22)],
        [(0.90, 0.62, 0.00), (0.00, 0.45, 0.70), (0.80, 0.47, 0.65)],
    ),
    (
        "Orange and blue (colour-blind safe)",
        [(0.90, 0.62, 0.00), (0.00, 0.45, 0.70)],
        [(0.90, 0.62, 0.00), (0.00, 0.45, 0.70), (0.80, 0.47, 0.65)],
    ),
    (
        "High contrast",
        [(0.98, 0.98, 0.98), (0.04, 0.04, 0.05)],
        [(0.98, 0.98, 0.98), (0.04, 0.04, 0.05), (0.84, 0.37, 0.00)],
    ),
];

impl Settings {
    /// The name of the palette in use, if it is one of [`PALETTES`].
    pub fn palette_name(&self) -> Option<&'static str> {
        PALETTES
            .iter()
            .find(|(_, two, three)| self.light_dark == two && self.three_players == three)
            .map(|p| p.0)
    }

    pub fn use_palette(&mut self, palette: &Palette) {
        self.light_dark = palette.1.to_vec();
        self.three_players = palette.2.to_vec();
    }

    /// The palette colour `index` for a game with `players` colours.
    pub fn colour(&self, players: usize, index: usize) -> Color {
        let (r, g, b) = if players >= 3 {
            self.three_players[index % 3]
        } else {
            self.light_dark[index % 2]
        };
        Color::srgb(r, g, b)
    }
}
