//! The Adamas position string and the terminal drawing.
//!
//! Position string: five fields separated by spaces, for example the default start
//! `.../..../o8...x8/..../... o ox 0 0`:
//! 1. the board, rows from the top (`a`) down separated by `/`, each cell `.` when empty
//!    or an owner letter (`o`, `x`, `y`) followed by the stack height;
//! 2. the player to move (`o`, `x` or `y`);
//! 3. the seats in turn order, `-` for one removed from the game (`oxy`, `o-y`, `ox`);
//! 4. plies played (0 means the opening move, on which capturing is barred);
//! 5. plies since the last capture.
//!
//! The board fixes the size and the seats the number of players; the other options
//! (progressive capture, the draws) come from the options given with the string.

use super::board::{self, MAX_SIDE};
use super::{Adamas, AdamasOptions, MAX_PIECES, PLAYER_LETTERS, apply};
use crate::hexgrid::hex_grid;
use crate::text::quoted;
use crate::{PositionError, Status};
use std::fmt::Write;

pub(super) fn format_position(game: &Adamas) -> String {
    let grid = game.grid;
    let rows: Vec<String> = (0..grid.rows())
        .map(|row| {
            grid.row(row)
                .map(|cell| match game.stack(cell) {
                    None => ".".to_string(),
                    Some((p, h)) => format!("{}{h}", letter(p.0)),
                })
                .collect()
        })
        .collect();
    let seats: String = (0..game.num_players)
        .map(|p| {
            if game.active[p as usize] {
                letter(p)
            } else {
                '-'
            }
        })
        .collect();
    format!(
        "{} {} {seats} {} {}",
        rows.join("/"),
        letter(game.to_move),
        game.ply,
        game.plies_since_capture
    )
}

fn letter(player: u8) -> char {
    PLAYER_LETTERS[player as usize].to_ascii_lowercase()
}

fn player_of(c: char) -> Option<u8> {
    PLAYER_LETTERS
        .iter()
        .position(|&l| l == c.to_ascii_uppercase())
        .map(|p| p as u8)
}

pub(super) fn parse_position(
    mut options: AdamasOptions,
    text: &str,
) -> Result<Adamas, PositionError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() != 5 {
        return Err(PositionError::new(
            "fields",
            format!(
                "expected 5 fields (board, player to move, seats, plies, plies since capture), found {}",
                fields.len()
            ),
        ));
    }
    let rows: Vec<&str> = fields[0].split('/').collect();
    if rows.len().is_multiple_of(2) || rows.len() < 3 || rows.len() > 2 * MAX_SIDE - 1 {
        return Err(PositionError::new(
            "board",
            format!(
                "{} rows: a board of side n has 2n-1 rows, n from 2 to {MAX_SIDE}",
                rows.len()
            ),
        ));
    }
    let size = rows.len().div_ceil(2);

    let seats = fields[2];
    if !(2..=3).contains(&seats.chars().count()) {
        return Err(PositionError::new(
            "seats",
            format!(
                "{seats_q}: expected 2 or 3 seats such as ox, oxy or o-y",
                seats_q = quoted(seats)
            ),
        ));
    }
    for (i, c) in seats.chars().enumerate() {
        if c != '-' && player_of(c) != Some(i as u8) {
            return Err(PositionError::new(
                "seats",
                format!(
                    "{seats_q}: seat {} must be {} or -",
                    i + 1,
                    letter(i as u8),
                    seats_q = quoted(seats)
                ),
            ));
        }
    }
    options.size = Some(size as u8);
    options.players = seats.chars().count() as u8;
    options.pieces = None;
    let grid = hex_grid(size);
    let mut game = Adamas::empty(options, grid);
    for (i, c) in seats.chars().enumerate() {
        game.active[i] = c != '-';
    }

    for (row, text) in rows.iter().enumerate() {
        let name = format!("board, row {}", (b'a' + row as u8) as char);
        let cells = grid.row(row);
        let mut cell = cells.start;
        let mut chars = text.char_indices().peekable();
        while let Some((_, c)) = chars.next() {
            if cell >= cells.end {
                return Err(PositionError::new(
                    name,
                    format!("more than {} cells", cells.len()),
                ));
            }
            if c == '.' {
                cell += 1;
                continue;
            }
            let Some(player) = player_of(c).filter(|&p| p < game.num_players) else {
                return Err(PositionError::new(
                    name,
                    format!("{c:?} is neither '.' nor a player letter of this game"),
                ));
            };
            let mut digits = String::new();
            while let Some(&(_, d)) = chars.peek().filter(|(_, d)| d.is_ascii_digit()) {
                digits.push(d);
                chars.next();
            }
            let height: u16 = digits
                .parse()
                .ok()
                .filter(|&h| (1..=3 * MAX_PIECES).contains(&h))
                .ok_or_else(|| {
                    PositionError::new(
                        name.clone(),
                        format!(
                            "the stack {c}{digits} needs a height from 1 to {}",
                            3 * MAX_PIECES
                        ),
                    )
                })?;
            game.board[cell] = board::pack(player, height);
            game.pieces[player as usize] += height;
            cell += 1;
        }
        if cell != cells.end {
            return Err(PositionError::new(
                name,
                format!(
                    "{} cells where the row has {}",
                    cell - cells.start,
                    cells.len()
                ),
            ));
        }
    }
    let total: u32 = game.pieces.iter().map(|&p| p as u32).sum();
    if total > 3 * MAX_PIECES as u32 {
        return Err(PositionError::new("board", "too many pieces"));
    }

    game.to_move = fields[1]
        .chars()
        .next()
        .filter(|_| fields[1].chars().count() == 1)
        .and_then(player_of)
        .filter(|&p| p < game.num_players)
        .ok_or_else(|| {
            PositionError::new(
                "player to move",
                format!("{} is not a player of this game", quoted(fields[1])),
            )
        })?;
    let number = |field: &str, text: &str| -> Result<u32, PositionError> {
        crate::text::whole_number_as(field, text, 0..=u32::MAX as u64)
            .map_err(|message| PositionError::new(field, message))
    };
    game.ply = number("plies", fields[3])?;
    game.plies_since_capture = number("plies since capture", fields[4])?;
    if game.plies_since_capture > game.ply {
        return Err(PositionError::new(
            "plies since capture",
            "more than the plies played",
        ));
    }

    for p in 0..game.num_players as usize {
        if game.active[p] && game.pieces[p] == 0 {
            return Err(PositionError::new(
                "seats",
                format!("{} is in the game but has no pieces", letter(p as u8)),
            ));
        }
        if !game.active[p] && game.pieces[p] > 0 && game.options.remove_stuck_pieces {
            return Err(PositionError::new(
                "seats",
                format!(
                    "{} is out of the game but has pieces on the board",
                    letter(p as u8)
                ),
            ));
        }
    }
    let in_game = game.active.iter().filter(|&&a| a).count();
    game.hash = game.compute_hash();
    game.history.record(game.hash);
    // A finished game keeps its last mover, who may be out of the game.
    if in_game < 2 {
        let winner = game.active.iter().position(|&a| a).unwrap_or(0) as u8;
        game.status = Status::Win {
            winner: crate::Player(winner),
            reason: crate::WinReason::LastPlayerStanding,
        };
    } else if apply::is_two_piece_tie(&game) {
        game.status = Status::Draw {
            reason: crate::DrawReason::TwoPieceTie,
        };
    } else if !game.active[game.to_move as usize] {
        return Err(PositionError::new(
            "player to move",
            "that player is out of the game",
        ));
    } else if !apply::has_legal_move(&game) {
        return Err(PositionError::new(
            "player to move",
            "that player has no legal move, so would already be out of the game",
        ));
    } else {
        apply::check_draws(&mut game);
    }
    Ok(game)
}

/// The board in the spirit of the pbmserv drawing: a hexagon in rows, each cell `.` or a
/// stack as owner letter and height. Threatened stacks carry a `!`.
pub(super) fn ascii(game: &Adamas) -> String {
    let grid = game.grid;
    let threatened = game.threatened_stacks();
    const CELL: usize = 4;
    let rows = grid.rows();
    let longest = grid.row(rows / 2).len();
    let mut out = String::new();
    // Row `a` starts with its border at this column; the frame's corners sit above it.
    let indent = |cells: usize| 2 + 2 * (longest - cells);
    let edge = |out: &mut String| {
        let cells = grid.row(0).len();
        let _ = writeln!(
            out,
            "{}+{}+",
            " ".repeat(indent(cells)),
            "-".repeat(cells * CELL)
        );
    };
    edge(&mut out);
    for row in 0..rows {
        let cells = grid.row(row);
        let (open, close) = match row.cmp(&(rows / 2)) {
            std::cmp::Ordering::Less => ('/', '\\'),
            std::cmp::Ordering::Equal => ('(', ')'),
            std::cmp::Ordering::Greater => ('\\', '/'),
        };
        let mut line = format!(
            "{}{}",
            (b'a' + row as u8) as char,
            " ".repeat(indent(cells.len()) - 1)
        );
        line.push(open);
        for cell in cells {
            let text = match game.stack(cell) {
                None => ".".to_string(),
                Some((p, h)) => {
                    let mark = if threatened.contains(cell) { "!" } else { "" };
                    format!("{}{h}{mark}", PLAYER_LETTERS[p.index()])
                }
            };
            let _ = write!(line, "{text:^CELL$}");
        }
        line.push(close);
        let _ = writeln!(out, "{line}");
    }
    edge(&mut out);
    // The middle row holds the left corner: row c on the default side-3 board.
    let middle_row = (b'a' + (rows / 2) as u8) as char;
    let _ = writeln!(
        out,
        "Cells are named by row letter and position from the left of the row ({middle_row}1 = left corner)."
    );
    if threatened.is_empty() {
        let _ = write!(out, "Threatened stacks: none");
    } else {
        let list: Vec<String> = threatened
            .iter()
            .map(|cell| {
                let (p, h) = game.stack(cell).expect("threatened stacks exist");
                format!(
                    "{} ({}, height {h} = enemy pieces in sight)",
                    game.label(cell),
                    PLAYER_LETTERS[p.index()]
                )
            })
            .collect();
        let _ = write!(out, "Threatened stacks (marked !): {}", list.join(", "));
        if game.ply == 0 {
            let _ = write!(out, "\nNo capture is allowed on the opening move.");
        }
    }
    out
}
