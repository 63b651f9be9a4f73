//! The 8×8 board as 64-bit sets: square `x + 8y`, `a1` = 0, `h8` = 63 (absorption.md §1).

pub const SQUARES: usize = 64;

/// The 8 king directions as `(dx, dy)`: movement, split placement and merging.
pub const DIRECTIONS: [(i8, i8); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

pub const fn step(square: u8, (dx, dy): (i8, i8)) -> Option<u8> {
    let x = (square % 8) as i8 + dx;
    let y = (square / 8) as i8 + dy;
    if x < 0 || x > 7 || y < 0 || y > 7 {
        None
    } else {
        Some((x + 8 * y) as u8)
    }
}

const fn neighbour_table(orthogonal_only: bool) -> [u64; SQUARES] {
    let mut table = [0u64; SQUARES];
    let mut square = 0;
    while square < SQUARES {
        let mut d = 0;
        while d < 8 {
            if let Some(n) = step(square as u8, DIRECTIONS[d])
                && (!orthogonal_only || d % 2 == 0)
            {
                table[square] |= 1 << n;
            }
            d += 1;
        }
        square += 1;
    }
    table
}

const fn ray_table(distance: u8) -> [[u64; 8]; SQUARES] {
    let mut table = [[0u64; 8]; SQUARES];
    let mut square = 0;
    while square < SQUARES {
        let mut d = 0;
        while d < 8 {
            let (dx, dy) = DIRECTIONS[d];
            if let Some(n) = step(square as u8, (dx * distance as i8, dy * distance as i8)) {
                table[square][d] = 1 << n;
            }
            d += 1;
        }
        square += 1;
    }
    table
}

/// The square one step away in each direction, as a one-bit set (0 off the board).
pub const ONE_STEP: [[u64; 8]; SQUARES] = ray_table(1);
/// The square two steps away in each direction, as a one-bit set (0 off the board).
pub const TWO_STEPS: [[u64; 8]; SQUARES] = ray_table(2);

/// The 8 king neighbours of each square.
pub const ADJACENT: [u64; SQUARES] = neighbour_table(false);
/// The 4 orthogonal neighbours of each square (absorption only).
pub const ORTHOGONAL: [u64; SQUARES] = neighbour_table(true);

/// The squares of a set, lowest first.
pub use crate::bits::members as squares;

pub const fn bit(square: u8) -> u64 {
    1 << square
}

/// The union of the king neighbours of the squares of `set` (a square of `set` is in it
/// only when another square of `set` touches it).
pub fn dilate(set: u64) -> u64 {
    const NOT_A: u64 = !0x0101_0101_0101_0101;
    const NOT_H: u64 = !0x8080_8080_8080_8080;
    let east = (set << 1) & NOT_A;
    let west = (set >> 1) & NOT_H;
    let row = set | east | west;
    east | west | (row << 8) | (row >> 8)
}

/// The chess-style label: files `a..h`, ranks `1..8`.
pub fn label(square: u8) -> String {
    let file = (b'a' + square % 8) as char;
    format!("{file}{}", square / 8 + 1)
}

/// Reads a label such as `c4`; `None` if it is not a square of the board.
pub fn parse_label(text: &str) -> Option<u8> {
    let bytes = text.as_bytes();
    if bytes.len() != 2 {
        return None;
    }
    let file = bytes[0].to_ascii_lowercase();
    let rank = bytes[1];
    if !(b'a'..=b'h').contains(&file) || !(b'1'..=b'8').contains(&rank) {
        return None;
    }
    Some((file - b'a') + 8 * (rank - b'1'))
}
