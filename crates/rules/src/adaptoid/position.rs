//! The position string and the terminal board.
//!
//! `BOARD MOVER CAPTURES PLY [SETUP]`, for the start
//! `..../...../....../.W00...B00./....../...../.... w 0-0 0`:
//! - BOARD: the rows top to bottom, separated by `/`; each cell is `.` or an adaptoid,
//!   `W` or `B` followed by its legs and its pincers (one digit each);
//! - MOVER: `w` or `b`; CAPTURES: White's and Black's, as `2-1`; PLY: moves played;
//! - SETUP (optional): `swapped` when the second player took White in a pie start, or
//!   `place` / `choose` while a pie start is under way.

use super::apply::end_status;
use super::moves::Colour;
use super::pieces::{MAX_PARTS, Pieces, SUPPLY};
use super::{Adaptoid, AdaptoidOptions, Stage, board_of};
use crate::text::quoted;
use crate::text::whole_number_as;
use crate::{Game, PositionError, Status};

fn error<T>(field: &str, message: impl Into<String>) -> Result<T, PositionError> {
    Err(PositionError::new(field, message))
}

pub fn format_position(game: &Adaptoid) -> String {
    let rows: Vec<String> = game
        .board
        .rows()
        .iter()
        .map(|row| {
            row.iter()
                .map(|&cell| match game.pieces.colour_at(cell) {
                    None => ".".to_string(),
                    Some(colour) => format!(
                        "{}{}{}",
                        &colour.name()[..1],
                        game.pieces.legs[cell as usize],
                        game.pieces.pincers[cell as usize]
                    ),
                })
                .collect()
        })
        .collect();
    let mover = if game.mover == Colour::White {
        "w"
    } else {
        "b"
    };
    let mut text = format!(
        "{} {mover} {}-{} {}",
        rows.join("/"),
        game.captures[0],
        game.captures[1],
        game.ply
    );
    match game.stage {
        Stage::PiePlace => text.push_str(" place"),
        Stage::PieChoose => text.push_str(" choose"),
        Stage::Play if game.white_seat == 1 => text.push_str(" swapped"),
        Stage::Play => {}
    }
    text
}

pub fn parse_position(options: AdaptoidOptions, text: &str) -> Result<Adaptoid, PositionError> {
    let board = board_of(&options).map_err(|e| PositionError::new("options", e.message))?;
    let fields: Vec<&str> = text.split_whitespace().collect();
    let (board_text, mover, captures, ply, setup) = match fields[..] {
        [b, m, c, p] => (b, m, c, p, None),
        [b, m, c, p, s] => (b, m, c, p, Some(s)),
        _ => {
            return error(
                "fields",
                format!(
                    "expected BOARD MOVER CAPTURES PLY [SETUP], found {} field(s)",
                    fields.len()
                ),
            );
        }
    };
    let mut game = Adaptoid::empty(options, board);
    game.pieces = read_board(&game, board_text)?;
    game.mover = match mover {
        "w" => Colour::White,
        "b" => Colour::Black,
        _ => {
            return error(
                "mover",
                format!("expected w or b, not {mover_q}", mover_q = quoted(mover)),
            );
        }
    };
    let Some((white, black)) = captures.split_once('-') else {
        return error(
            "captures",
            format!(
                "expected WHITE-BLACK, as 2-1, not {captures_q}",
                captures_q = quoted(captures)
            ),
        );
    };
    for (i, count) in [white, black].into_iter().enumerate() {
        game.captures[i] = whole_number_as("captures", count, 0..=u8::MAX as u64)
            .or_else(|message| error("captures", message))?;
    }
    game.ply = whole_number_as("ply", ply, 0..=u32::MAX as u64)
        .or_else(|message| error("ply", message))?;
    let on_board = game.pieces.occupied[0] | game.pieces.occupied[1];
    match setup {
        None => {}
        Some("swapped") => game.white_seat = 1,
        Some("place") if on_board == 0 && game.mover == Colour::White => {
            game.stage = Stage::PiePlace;
        }
        Some("place") => {
            return error(
                "setup",
                "a pie start's placing begins on an empty board, w to move",
            );
        }
        Some("choose")
            if game.pieces.bodies(Colour::White) == 1
                && game.pieces.bodies(Colour::Black) == 1
                && game.pieces.legs_used == [0; 2]
                && game.pieces.pincers_used == [0; 2]
                && game.mover == Colour::White =>
        {
            game.stage = Stage::PieChoose;
        }
        Some("choose") => {
            return error(
                "setup",
                "choosing a colour needs one bare adaptoid of each colour, w to move",
            );
        }
        Some(other) => {
            return error(
                "setup",
                format!(
                    "expected swapped, place or choose, not {other_q}",
                    other_q = quoted(other)
                ),
            );
        }
    }
    if game.stage == Stage::Play {
        // The player who moved last is judged first (§4).
        game.status = end_status(&game, game.mover.other());
    }
    game.record_for_repetition();
    Ok(game)
}

fn read_board(game: &Adaptoid, text: &str) -> Result<Pieces, PositionError> {
    let rows: Vec<&str> = text.split('/').collect();
    let expected = game.board.rows();
    if rows.len() != expected.len() {
        return error(
            "board",
            format!(
                "expected {} rows separated by '/', found {}",
                expected.len(),
                rows.len()
            ),
        );
    }
    let mut pieces = Pieces::empty();
    // Counted before placing, so no cached total can pass what its type holds.
    let mut used = [[0u32; 3]; 2];
    for (row_text, row) in rows.iter().zip(expected) {
        let row_name = game.board.label(row[0]).chars().next().unwrap_or('?');
        let field = format!("board, row {row_name}");
        let bytes = row_text.as_bytes();
        let mut i = 0;
        let mut cells_read = 0;
        while i < bytes.len() {
            let Some(&cell) = row.get(cells_read) else {
                return error(&field, format!("more than the row's {} cells", row.len()));
            };
            match bytes[i] {
                b'.' => i += 1,
                b'W' | b'B' => {
                    let colour = if bytes[i] == b'W' {
                        Colour::White
                    } else {
                        Colour::Black
                    };
                    let digit = |j: usize| {
                        bytes
                            .get(j)
                            .filter(|b| b.is_ascii_digit())
                            .map(|b| b - b'0')
                    };
                    let (Some(legs), Some(pincers)) = (digit(i + 1), digit(i + 2)) else {
                        return error(
                            &field,
                            "an adaptoid is W or B followed by two digits, its legs and pincers",
                        );
                    };
                    if legs + pincers > MAX_PARTS {
                        return error(
                            &field,
                            format!(
                                "{} has {} parts; at most {MAX_PARTS}",
                                game.board.label(cell),
                                legs + pincers
                            ),
                        );
                    }
                    let totals = &mut used[colour.index()];
                    for (kind, (total, add)) in ["adaptoids", "legs", "pincers"]
                        .iter()
                        .zip(totals.iter_mut().zip([1, legs, pincers]))
                    {
                        *total += add as u32;
                        if *total > SUPPLY as u32 {
                            return error(
                                "board",
                                format!("{} has more than {SUPPLY} {kind}", colour.name()),
                            );
                        }
                    }
                    pieces.put(cell, colour, legs, pincers);
                    i += 3;
                }
                other => {
                    return error(
                        &field,
                        format!(
                            "{:?} is neither '.' nor an adaptoid such as W21",
                            other as char
                        ),
                    );
                }
            }
            cells_read += 1;
        }
        if cells_read != row.len() {
            return error(
                &field,
                format!("describes {cells_read} cells, not {}", row.len()),
            );
        }
    }
    Ok(pieces)
}

/// The board drawn with its cells' labels beside it; `!` marks an adaptoid that would
/// starve if the turn ended now with no more change.
pub fn ascii(game: &Adaptoid) -> String {
    let board = &game.board;
    let min_column = (0..board.len() as u8)
        .map(|c| board.column(c))
        .min()
        .unwrap_or(0);
    let width = (0..board.len() as u8)
        .map(|c| board.column(c))
        .max()
        .unwrap_or(0)
        - min_column;
    let starving = if game.stage == Stage::Play {
        game.pieces.starving(board, game.mover.other())
    } else {
        0
    };
    let mut out = String::new();
    for row in board.rows() {
        let mut pieces_line = vec![b' '; width * 2 + 4];
        let mut labels_line = vec![b' '; width * 2 + 4];
        for &cell in row {
            let at = (board.column(cell) - min_column) * 2;
            let token = match game.pieces.colour_at(cell) {
                None => " .".to_string(),
                Some(colour) => format!(
                    "{}{}{}{}",
                    &colour.name()[..1],
                    game.pieces.legs[cell as usize],
                    game.pieces.pincers[cell as usize],
                    if starving & (1 << cell) != 0 { "!" } else { "" }
                ),
            };
            pieces_line[at..at + token.len()].copy_from_slice(token.as_bytes());
            let name = board.label(cell);
            labels_line[at..at + name.len()].copy_from_slice(name.as_bytes());
        }
        let text = |line: Vec<u8>| String::from_utf8(line).unwrap_or_default();
        out.push_str(&format!(
            "{}    {}\n",
            text(pieces_line),
            text(labels_line).trim_end()
        ));
    }
    for player in [game.seat_of(Colour::White), game.seat_of(Colour::Black)] {
        let [bodies, legs, pincers] = game.supply_of(player);
        out.push_str(&format!(
            "{}: {} capture(s); supply {bodies} adaptoids, {legs} legs, {pincers} pincers\n",
            game.player_name(player),
            game.captures_of(player),
        ));
    }
    out.push_str("(W21 = White with 2 legs and 1 pincer; ! = starves if the turn ended now)\n");
    if game.status == Status::Ongoing {
        out.push_str(&match game.stage {
            Stage::PiePlace => "Pie start: place a white and a black adaptoid (W:d2 B:d6)\n".into(),
            Stage::PieChoose => {
                "Pie start: the second player picks a colour (white or black)\n".into()
            }
            Stage::Play => String::new(),
        });
    }
    out
}
