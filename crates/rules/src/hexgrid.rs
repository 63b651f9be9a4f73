//! Hex-hex boards ("hexhex"): cells, neighbours and straight rays, precomputed once per
//! board side and shared by every position.
//!
//! Axial coordinates `(q, r)` with `R = side - 1`: a cell exists iff `|q|, |r|, |q + r| <= R`.
//! `r` is the row (-R at the top), `q` grows to the east. Cells are numbered in reading
//! order: top row first, left to right within a row.

use std::sync::OnceLock;

/// Largest side for which row letters `a..` stay within the alphabet.
pub const MAX_SIDE: usize = 13;

/// The six directions, counter-clockwise from east.
pub const DIRECTIONS: [(i32, i32); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];
pub const DIRECTION_NAMES: [&str; 6] = ["E", "NE", "NW", "W", "SW", "SE"];

#[derive(Debug)]
pub struct HexGrid {
    side: usize,
    coords: Vec<(i32, i32)>,
    /// Cell index by `(q + R) * width + (r + R)`, or `u16::MAX` off the board.
    index: Vec<u16>,
    /// All rays, concatenated: for cell `c` and direction `d` the cells stepping away
    /// from `c` are `rays[ray_start[c*6+d] .. ray_start[c*6+d+1]]`.
    rays: Vec<u16>,
    ray_start: Vec<u32>,
    /// The first cell index of each row, plus the total at the end.
    row_start: Vec<usize>,
}

impl HexGrid {
    fn build(side: usize) -> HexGrid {
        let radius = side as i32 - 1;
        let width = (2 * radius + 1) as usize;
        let mut coords = Vec::new();
        let mut index = vec![u16::MAX; width * width];
        let mut row_start = Vec::new();
        for r in -radius..=radius {
            row_start.push(coords.len());
            for q in -radius..=radius {
                if (q + r).abs() <= radius {
                    index[((q + radius) as usize) * width + (r + radius) as usize] =
                        coords.len() as u16;
                    coords.push((q, r));
                }
            }
        }
        row_start.push(coords.len());
        let mut grid = HexGrid {
            side,
            coords,
            index,
            rays: Vec::new(),
            ray_start: Vec::new(),
            row_start,
        };
        for cell in 0..grid.len() {
            for &(dq, dr) in &DIRECTIONS {
                grid.ray_start.push(grid.rays.len() as u32);
                let (mut q, mut r) = grid.coords[cell];
                loop {
                    q += dq;
                    r += dr;
                    match grid.at(q, r) {
                        Some(next) => grid.rays.push(next as u16),
                        None => break,
                    }
                }
            }
        }
        grid.ray_start.push(grid.rays.len() as u32);
        grid
    }

    pub fn side(&self) -> usize {
        self.side
    }

    pub fn radius(&self) -> i32 {
        self.side as i32 - 1
    }

    /// The number of cells, `3 side (side - 1) + 1`.
    pub fn len(&self) -> usize {
        self.coords.len()
    }

    pub fn is_empty(&self) -> bool {
        self.coords.is_empty()
    }

    pub fn coords(&self, cell: usize) -> (i32, i32) {
        self.coords[cell]
    }

    /// The cell at axial `(q, r)`, if it is on the board.
    pub fn at(&self, q: i32, r: i32) -> Option<usize> {
        let radius = self.radius();
        if q.abs() > radius || r.abs() > radius || (q + r).abs() > radius {
            return None;
        }
        let width = (2 * radius + 1) as usize;
        Some(self.index[((q + radius) as usize) * width + (r + radius) as usize] as usize)
    }

    /// The cells met stepping from `cell` in `direction`, nearest first.
    #[inline]
    pub fn ray(&self, cell: usize, direction: usize) -> &[u16] {
        let slot = cell * 6 + direction;
        &self.rays[self.ray_start[slot] as usize..self.ray_start[slot + 1] as usize]
    }

    pub fn rows(&self) -> usize {
        self.row_start.len() - 1
    }

    /// The cells of row `row` (0 = top), left to right.
    pub fn row(&self, row: usize) -> std::ops::Range<usize> {
        self.row_start[row]..self.row_start[row + 1]
    }

    /// Screen position for layout: `x = q + r/2`, `y = r * sqrt(3)/2` (y grows down).
    pub fn screen_position(&self, cell: usize) -> (f32, f32) {
        let (q, r) = self.coords[cell];
        (q as f32 + r as f32 / 2.0, r as f32 * 3f32.sqrt() / 2.0)
    }

    /// The row-letter-plus-index label (`a1` is the left end of the top row).
    pub fn label(&self, cell: usize) -> String {
        let (_, r) = self.coords[cell];
        let row = (r + self.radius()) as usize;
        let index = cell - self.row_start[row] + 1;
        format!("{}{}", (b'a' + row as u8) as char, index)
    }

    /// Reads a label written by [`HexGrid::label`] (case-insensitive).
    pub fn parse_label(&self, text: &str) -> Option<usize> {
        let mut chars = text.chars();
        let letter = chars.next()?.to_ascii_lowercase();
        if !letter.is_ascii_lowercase() {
            return None;
        }
        let digits = chars.as_str();
        if digits.is_empty()
            || !digits.bytes().all(|b| b.is_ascii_digit())
            || digits.starts_with('0')
        {
            return None;
        }
        let row = (letter as u8 - b'a') as usize;
        let index: usize = digits.parse().ok()?;
        if row >= self.rows() || index == 0 || index > self.row(row).len() {
            return None;
        }
        Some(self.row_start[row] + index - 1)
    }
}

/// The shared grid for a side between 1 and [`MAX_SIDE`].
pub fn hex_grid(side: usize) -> &'static HexGrid {
    static GRIDS: [OnceLock<HexGrid>; MAX_SIDE + 1] = [const { OnceLock::new() }; MAX_SIDE + 1];
    assert!(
        (1..=MAX_SIDE).contains(&side),
        "hex side {side} out of range"
    );
    GRIDS[side].get_or_init(|| HexGrid::build(side))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_counts() {
        assert_eq!(hex_grid(3).len(), 19);
        assert_eq!(hex_grid(4).len(), 37);
        assert_eq!(hex_grid(8).len(), 169);
    }

    #[test]
    fn labels_round_trip_and_follow_the_spec() {
        let grid = hex_grid(3);
        assert_eq!(grid.label(grid.at(-2, 0).unwrap()), "c1");
        assert_eq!(grid.label(grid.at(0, 0).unwrap()), "c3");
        assert_eq!(grid.label(grid.at(2, 0).unwrap()), "c5");
        for cell in 0..grid.len() {
            assert_eq!(grid.parse_label(&grid.label(cell)), Some(cell));
        }
        assert_eq!(grid.parse_label("b5"), None);
        assert_eq!(grid.parse_label("f1"), None);
        assert_eq!(grid.parse_label("c0"), None);
        assert_eq!(grid.parse_label("C01"), None);
        assert_eq!(grid.parse_label("C1"), grid.at(-2, 0));
    }

    #[test]
    fn rays_from_the_size_four_left_corner() {
        // adamas.md §9.8: from d1, LOS on an empty board is d2..d7, c1 b1 a1, e1 f1 g1.
        let grid = hex_grid(4);
        let d1 = grid.parse_label("d1").unwrap();
        let names = |dir: usize| -> Vec<String> {
            grid.ray(d1, dir)
                .iter()
                .map(|&c| grid.label(c as usize))
                .collect()
        };
        assert_eq!(names(0), ["d2", "d3", "d4", "d5", "d6", "d7"]);
        assert_eq!(names(1), ["c1", "b1", "a1"]);
        assert_eq!(names(5), ["e1", "f1", "g1"]);
        assert!(names(2).is_empty() && names(3).is_empty() && names(4).is_empty());
        let a4 = grid.parse_label("a4").unwrap();
        let sw: Vec<String> = grid
            .ray(a4, 4)
            .iter()
            .map(|&c| grid.label(c as usize))
            .collect();
        assert_eq!(&sw[..3], ["b4", "c4", "d4"]);
    }
}
