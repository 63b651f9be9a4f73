//! Adaptoid boards as graphs (adaptoid.md §1, D10): a set of cells (at most 64, so a set of
//! cells is one `u64`) with the neighbours of each. The standard 37-cell hexagon is one
//! instance; Super-Adaptoid boards are read from a picture of discs on a hex lattice, with
//! `link` and `unlink` lines for any adjacency the picture cannot show.

use crate::text::quoted;
use std::sync::{Arc, OnceLock};

pub const MAX_CELLS: usize = 64;
const MAX_ROWS: usize = 26;

/// The standard board (adaptoid.md §1): rows of 4-5-6-7-6-5-4 discs.
pub const STANDARD_BOARD: &str = "   o o o o
  o o o o o
 o o o o o o
o o o o o o o
 o o o o o o
  o o o o o
   o o o o
";

/// A row of the picture with discs: its place among the picture's rows (blank lines
/// count, comment lines do not), its line in the text, and its discs' columns.
struct PictureRow {
    row: usize,
    line: usize,
    columns: Vec<usize>,
}

#[derive(Debug, PartialEq)]
pub struct Board {
    neighbours: Vec<u64>,
    all: u64,
    labels: Vec<String>,
    /// The cells of each row, left to right; rows top to bottom.
    rows: Vec<Vec<u8>>,
    /// The disc's column in the picture (two columns per lattice step).
    columns: Vec<usize>,
    /// Layout for drawing: `x` grows east, `y` grows down, neighbours one unit apart.
    positions: Vec<(f32, f32)>,
}

/// A board text that cannot be read, with the line it is on (from 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardError {
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for BoardError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "board line {}: {}", self.line, self.message)
    }
}

fn fail<T>(line: usize, message: impl Into<String>) -> Result<T, BoardError> {
    Err(BoardError {
        line,
        message: message.into(),
    })
}

impl Board {
    /// The shared standard board.
    pub fn standard() -> Arc<Board> {
        static STANDARD: OnceLock<Arc<Board>> = OnceLock::new();
        STANDARD
            .get_or_init(|| Arc::new(Board::parse(STANDARD_BOARD).expect("the standard board")))
            .clone()
    }

    /// Reads a board text: `#` starts a comment, and a line that is only a comment is
    /// skipped. Every other line up to the first `link` or `unlink` is a row of the
    /// picture, `o` marking a disc (a blank line is a row with no discs, a gap); discs on
    /// one row are two columns apart and touch the discs one column left and right on the
    /// rows above and below. `link a1 g4` and `unlink d3 d4` then add or remove an
    /// adjacency.
    pub fn parse(text: &str) -> Result<Board, BoardError> {
        let mut picture: Vec<PictureRow> = Vec::new();
        let mut edits: Vec<(usize, bool, &str, &str)> = Vec::new();
        let mut row_number = 0;
        for (number, raw) in text.lines().enumerate() {
            let line_number = number + 1;
            if raw.trim_start().starts_with('#') {
                continue;
            }
            let line = raw.split('#').next().unwrap_or("").trim_end();
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.first() {
                Some(&word @ ("link" | "unlink")) => {
                    let [_, a, b] = words[..] else {
                        return fail(
                            line_number,
                            format!("{word} takes two cells, as in `{word} a1 b2`"),
                        );
                    };
                    edits.push((line_number, word == "link", a, b));
                }
                _ if !edits.is_empty() && !words.is_empty() => {
                    return fail(
                        line_number,
                        "picture rows must come before link and unlink lines",
                    );
                }
                _ => {
                    row_number += 1;
                    let mut columns = Vec::new();
                    for (column, c) in line.chars().enumerate() {
                        match c {
                            'o' | 'O' => columns.push(column),
                            ' ' => {}
                            other => {
                                return fail(
                                    line_number,
                                    format!(
                                        "{other:?} in the picture: use `o` for a disc and spaces between"
                                    ),
                                );
                            }
                        }
                    }
                    if !columns.is_empty() {
                        picture.push(PictureRow {
                            row: row_number,
                            line: line_number,
                            columns,
                        });
                    }
                }
            }
        }
        let mut board = Board::from_picture(&picture)?;
        for (line, link, a, b) in edits {
            let cell = |name: &str| {
                board.parse_label(name).ok_or_else(|| BoardError {
                    line,
                    message: format!(
                        "{name_q} is not a cell of this board",
                        name_q = quoted(name)
                    ),
                })
            };
            let (a, b) = (cell(a)?, cell(b)?);
            if a == b {
                return fail(line, "a cell cannot neighbour itself");
            }
            let (bit_a, bit_b) = (1u64 << a, 1u64 << b);
            if link {
                board.neighbours[a as usize] |= bit_b;
                board.neighbours[b as usize] |= bit_a;
            } else {
                board.neighbours[a as usize] &= !bit_b;
                board.neighbours[b as usize] &= !bit_a;
            }
        }
        Ok(board)
    }

    fn from_picture(picture: &[PictureRow]) -> Result<Board, BoardError> {
        let last_line = picture.last().map_or(1, |r| r.line);
        let count: usize = picture.iter().map(|r| r.columns.len()).sum();
        if count < 2 {
            return fail(last_line, "a board needs at least 2 discs");
        }
        if count > MAX_CELLS {
            return fail(last_line, format!("{count} discs; at most {MAX_CELLS}"));
        }
        if picture.len() > MAX_ROWS {
            return fail(
                picture[MAX_ROWS].line,
                format!("at most {MAX_ROWS} rows (row letters a to z)"),
            );
        }
        let first_row = picture[0].row;
        // Lattice parity: a disc's column and its row number share parity with every other
        // disc, so rows above and below sit half a step across.
        let parity = (picture[0].columns[0] + first_row) % 2;
        let mut board = Board {
            neighbours: Vec::new(),
            all: 0,
            labels: Vec::new(),
            rows: Vec::new(),
            columns: Vec::new(),
            positions: Vec::new(),
        };
        let mut lattice: Vec<(usize, usize)> = Vec::new();
        for (row_index, picture_row) in picture.iter().enumerate() {
            let mut row = Vec::new();
            for (index, &column) in picture_row.columns.iter().enumerate() {
                if (column + picture_row.row) % 2 != parity {
                    return fail(
                        picture_row.line,
                        format!(
                            "the disc in column {} is off the hex lattice: discs sit two columns apart, \
                             and half a step across from the rows above and below",
                            column + 1
                        ),
                    );
                }
                let cell = board.labels.len() as u8;
                board
                    .labels
                    .push(format!("{}{}", (b'a' + row_index as u8) as char, index + 1));
                board.columns.push(column);
                board.positions.push((
                    column as f32 / 2.0,
                    (picture_row.row - first_row) as f32 * 3f32.sqrt() / 2.0,
                ));
                lattice.push((picture_row.row, column));
                row.push(cell);
            }
            board.rows.push(row);
        }
        board.all = if count == 64 {
            u64::MAX
        } else {
            (1u64 << count) - 1
        };
        for &(line, column) in &lattice {
            let touching = lattice.iter().enumerate().filter(|&(_, &(l, c))| {
                (l == line && c.abs_diff(column) == 2)
                    || (l.abs_diff(line) == 1 && c.abs_diff(column) == 1)
            });
            board
                .neighbours
                .push(touching.fold(0, |set, (other, _)| set | 1u64 << other));
        }
        Ok(board)
    }

    pub fn len(&self) -> usize {
        self.labels.len()
    }

    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    /// Every cell, as a set.
    pub fn all(&self) -> u64 {
        self.all
    }

    #[inline]
    pub fn neighbours(&self, cell: u8) -> u64 {
        self.neighbours[cell as usize]
    }

    /// The cells next to any cell of `set`.
    #[inline]
    pub fn around(&self, set: u64) -> u64 {
        cells(set).fold(0, |acc, c| acc | self.neighbours[c as usize])
    }

    pub fn label(&self, cell: u8) -> &str {
        &self.labels[cell as usize]
    }

    /// Reads a label (case-insensitive), `None` if the board has no such cell.
    pub fn parse_label(&self, text: &str) -> Option<u8> {
        let lower = text.to_ascii_lowercase();
        self.labels
            .iter()
            .position(|l| *l == lower)
            .map(|c| c as u8)
    }

    pub fn rows(&self) -> &[Vec<u8>] {
        &self.rows
    }

    pub fn column(&self, cell: u8) -> usize {
        self.columns[cell as usize]
    }

    pub fn position(&self, cell: u8) -> (f32, f32) {
        self.positions[cell as usize]
    }
}

/// The cells of a set, lowest first.
pub use crate::bits::members as cells;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hexgrid::hex_grid;

    #[test]
    fn the_standard_board_is_the_side_four_hexagon() {
        let board = Board::standard();
        let grid = hex_grid(4);
        assert_eq!(board.len(), 37);
        for cell in 0..37u8 {
            assert_eq!(board.label(cell), grid.label(cell as usize));
            let (q, r) = grid.coords(cell as usize);
            let expected = crate::hexgrid::DIRECTIONS
                .iter()
                .filter_map(|&(dq, dr)| grid.at(q + dq, r + dr))
                .fold(0u64, |set, c| set | 1 << c);
            assert_eq!(board.neighbours(cell), expected, "{}", board.label(cell));
        }
        let degree = |n: u32| {
            (0..37u8)
                .filter(|&c| board.neighbours(c).count_ones() == n)
                .count()
        };
        assert_eq!((degree(3), degree(4), degree(6)), (6, 12, 19));
    }

    #[test]
    fn links_unlinks_and_errors() {
        // The comment line between the rows is not a row: b1 still touches a1 and a2.
        let board =
            Board::parse("# a strip\no o o\n# row b:\n o\nlink a1 a3\nunlink a1 a2\n").unwrap();
        assert_eq!(board.len(), 4);
        let a1 = board.parse_label("A1").unwrap();
        let names = |set: u64| {
            cells(set)
                .map(|c| board.label(c).to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(names(board.neighbours(a1)), ["a3", "b1"]);
        for (text, line, expected) in [
            ("o\n", 1, "at least 2"),
            ("oo\n", 1, "off the hex lattice"),
            ("o o\no o\n", 2, "off the hex lattice"),
            ("o x\n", 1, "use `o`"),
            ("o o\nlink a1\n", 2, "two cells"),
            ("o o\nlink a1 c4\n", 2, "not a cell"),
            ("o o\nlink a1 a1\n", 2, "itself"),
            ("o o\nlink a1 a2\no o\n", 3, "before link"),
            ("o o\n\n o o\n", 3, "off the hex lattice"),
        ] {
            let err = Board::parse(text).unwrap_err();
            assert_eq!(err.line, line, "{text:?}: {err}");
            assert!(err.message.contains(expected), "{text:?}: {err}");
        }
        let big = "o ".repeat(65);
        assert!(
            Board::parse(&big)
                .unwrap_err()
                .message
                .contains("at most 64")
        );
    }
}
