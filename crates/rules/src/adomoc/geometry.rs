//! The Adomoc board (adomoc.md §1): 80 ring spaces on cycles 1–8 and columns a–j, and the
//! centre. Lines are cycles, columns (diameters through the centre, open only to the prime
//! sun) and spirals, in one or two families. Rays are precomputed per spiral mode.

use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

pub const COLUMNS: u8 = 10;
pub const CYCLES: u8 = 8;
pub const CENTRE: u8 = 80;
pub const SPACES: usize = 81;

/// Which spiral families exist (§1.3, M1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SpiralMode {
    /// Both families cross, so each space has up to four diagonal neighbours.
    #[default]
    #[serde(rename = "both")]
    Both,
    /// Only spirals that step counter-clockwise moving inward.
    #[serde(rename = "ccw")]
    CcwInward,
    /// Only spirals that step clockwise moving inward.
    #[serde(rename = "cw")]
    CwInward,
}

impl SpiralMode {
    fn index(self) -> usize {
        self as usize
    }
}

/// The kinds of line a piece may travel (§3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineKind {
    Cycle,
    Column,
    Spiral,
}

/// A space's column (0 = a) and cycle (1 = rim, 9 = centre).
pub fn column_and_cycle(space: u8) -> (u8, u8) {
    if space == CENTRE {
        (0, 9)
    } else {
        (space % COLUMNS, space / COLUMNS + 1)
    }
}

pub fn space_at(column: u8, cycle: u8) -> u8 {
    (cycle - 1) * COLUMNS + column % COLUMNS
}

pub fn label(space: u8) -> String {
    if space == CENTRE {
        return "o9".to_string();
    }
    let (column, cycle) = column_and_cycle(space);
    format!("{}{}", (b'a' + column) as char, cycle)
}

/// Reads `a1`..`j8` or `o9` (case-insensitive).
pub fn parse_label(text: &str) -> Option<u8> {
    let bytes = text.as_bytes();
    let [letter, digit] = bytes else {
        return None;
    };
    let letter = letter.to_ascii_lowercase();
    match (letter, digit) {
        (b'o', b'9') => Some(CENTRE),
        (b'a'..=b'j', b'1'..=b'8') => Some(space_at(letter - b'a', digit - b'0')),
        _ => None,
    }
}

/// One direction of travel from a space, with the spaces met in order.
#[derive(Debug)]
pub struct Ray {
    pub kind: LineKind,
    /// Spaces in order. Column rays that reach the centre carry on through it (only the
    /// prime sun may use that part).
    pub spaces: Vec<u8>,
}

#[derive(Debug)]
pub struct Geometry {
    rays: Vec<Vec<Ray>>,
    /// Neighbours of each space along any line, centre included (for attraction).
    adjacent: Vec<u128>,
}

impl Geometry {
    fn build(mode: SpiralMode) -> Geometry {
        let mut rays = Vec::with_capacity(SPACES);
        for space in 0..SPACES as u8 {
            rays.push(rays_from(space, mode));
        }
        let adjacent = rays
            .iter()
            .map(|space_rays: &Vec<Ray>| {
                space_rays
                    .iter()
                    .filter_map(|ray| ray.spaces.first())
                    .fold(0u128, |set, &s| set | 1 << s)
            })
            .collect();
        Geometry { rays, adjacent }
    }

    pub fn rays(&self, space: u8) -> &[Ray] {
        &self.rays[space as usize]
    }

    pub fn adjacent(&self, space: u8) -> u128 {
        self.adjacent[space as usize]
    }
}

/// The shared geometry of a spiral mode.
pub fn geometry(mode: SpiralMode) -> &'static Geometry {
    static GEOMETRIES: [OnceLock<Geometry>; 3] = [const { OnceLock::new() }; 3];
    GEOMETRIES[mode.index()].get_or_init(|| Geometry::build(mode))
}

fn rays_from(space: u8, mode: SpiralMode) -> Vec<Ray> {
    let mut rays = Vec::new();
    if space == CENTRE {
        // A piece on the centre has won: nothing ever moves from it.
        return rays;
    }
    let (column, cycle) = column_and_cycle(space);
    // Round the cycle both ways: up to 9 spaces, never back to the start. A step of
    // COLUMNS - 1 is one column clockwise (-1 mod 10).
    for step in [1, COLUMNS - 1] {
        rays.push(Ray {
            kind: LineKind::Cycle,
            spaces: (1..COLUMNS)
                .map(|i| space_at(column + (i * step) % COLUMNS, cycle))
                .collect(),
        });
    }
    // Inward along the column, through the centre and out along the opposite column.
    let mut inward: Vec<u8> = (cycle + 1..=CYCLES).map(|k| space_at(column, k)).collect();
    inward.push(CENTRE);
    inward.extend((1..=CYCLES).rev().map(|k| space_at(column + 5, k)));
    rays.push(Ray {
        kind: LineKind::Column,
        spaces: inward,
    });
    if cycle > 1 {
        rays.push(Ray {
            kind: LineKind::Column,
            spaces: (1..cycle).rev().map(|k| space_at(column, k)).collect(),
        });
    }
    // Spirals: family +1 steps counter-clockwise (column + 1) moving inward.
    let families: &[i8] = match mode {
        SpiralMode::Both => &[1, -1],
        SpiralMode::CcwInward => &[1],
        SpiralMode::CwInward => &[-1],
    };
    for &family in families {
        for inward in [true, false] {
            let shift = if inward { family } else { -family };
            let mut spaces = Vec::new();
            let (mut c, mut k) = (column as i8, cycle as i8);
            loop {
                c = (c + shift).rem_euclid(COLUMNS as i8);
                k += if inward { 1 } else { -1 };
                if !(1..=CYCLES as i8).contains(&k) {
                    break;
                }
                spaces.push(space_at(c as u8, k as u8));
            }
            if !spaces.is_empty() {
                rays.push(Ray {
                    kind: LineKind::Spiral,
                    spaces,
                });
            }
        }
    }
    rays
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(spaces: &[u8]) -> Vec<String> {
        spaces.iter().map(|&s| label(s)).collect()
    }

    #[test]
    fn labels_round_trip() {
        for space in 0..SPACES as u8 {
            assert_eq!(parse_label(&label(space)), Some(space));
        }
        assert_eq!(parse_label("o9"), Some(CENTRE));
        for bad in ["k1", "a9", "a0", "o8", "a", "a10", ""] {
            assert_eq!(parse_label(bad), None, "{bad}");
        }
    }

    #[test]
    fn rays_and_neighbours() {
        let g = geometry(SpiralMode::Both);
        let a7 = parse_label("a7").unwrap();
        let column_in = g
            .rays(a7)
            .iter()
            .find(|r| r.kind == LineKind::Column && r.spaces[0] == parse_label("a8").unwrap())
            .unwrap();
        assert_eq!(&names(&column_in.spaces)[..4], ["a8", "o9", "f8", "f7"]);
        let cycle: Vec<Vec<String>> = g
            .rays(parse_label("a5").unwrap())
            .iter()
            .filter(|r| r.kind == LineKind::Cycle)
            .map(|r| names(&r.spaces))
            .collect();
        assert_eq!(cycle[0][..2], ["b5", "c5"]);
        assert_eq!(cycle[1][..2], ["j5", "i5"]);
        assert_eq!(cycle[0].len(), 9);
        // Interior spaces have 2 cycle, 2 column and 4 spiral neighbours.
        assert_eq!(g.adjacent(parse_label("d5").unwrap()).count_ones(), 8);
        assert_eq!(g.adjacent(parse_label("d1").unwrap()).count_ones(), 5);
        assert_eq!(g.adjacent(parse_label("d8").unwrap()).count_ones(), 6);
        let one = geometry(SpiralMode::CcwInward);
        assert_eq!(one.adjacent(parse_label("d5").unwrap()).count_ones(), 6);
    }
}
