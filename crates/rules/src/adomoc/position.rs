//! The position string and the terminal board.
//!
//! `BOARD MOVER PLY BANS`, for the start
//! `SSS^SSsss^ss/MMM^MMmmm^mm/FFF^FFfff^ff/........../........../........../........../........../. l 0 -`:
//! - BOARD: cycles 1 to 8 (columns a to j each) and then the centre, separated by `/`; a
//!   space is `.` or a piece, `F` `M` `S` for Light and `f` `m` `s` for Dark, with `^` after
//!   a prime;
//! - MOVER: `l` or `d`; PLY: moves played;
//! - BANS: `-`, or a comma list of `X>Y+N`: the piece on X may not originate the piece on Y
//!   on the ply N from now (0 or 1), the ban on immediate reverse origination.

use super::apply::{altogether, judge_turn_start};
use super::geometry::{CENTRE, COLUMNS, CYCLES, label, parse_label, space_at};
use super::{Adomoc, AdomocOptions, Ban, DARK, Kind, LIGHT, PLAYER_NAMES, Piece};
use crate::text::quoted;
use crate::{PositionError, Status, WinReason};

fn error<T>(field: &str, message: impl Into<String>) -> Result<T, PositionError> {
    Err(PositionError::new(field, message))
}

fn token(piece: Option<Piece>) -> String {
    match piece {
        None => ".".to_string(),
        Some(piece) => {
            let letter = piece.kind.letter();
            let letter = if piece.owner == LIGHT {
                letter
            } else {
                letter.to_ascii_lowercase()
            };
            format!("{letter}{}", if piece.prime { "^" } else { "" })
        }
    }
}

pub fn format_position(game: &Adomoc) -> String {
    let mut rows: Vec<String> = (1..=CYCLES)
        .map(|k| {
            (0..COLUMNS)
                .map(|c| token(game.piece_at(space_at(c, k))))
                .collect()
        })
        .collect();
    rows.push(token(game.piece_at(CENTRE)));
    let bans: Vec<String> = game
        .bans
        .iter()
        .map(|b| {
            format!(
                "{}>{}+{}",
                label(game.space_of(b.originated)),
                label(game.space_of(b.originator)),
                b.ply - game.ply
            )
        })
        .collect();
    format!(
        "{} {} {} {}",
        rows.join("/"),
        if game.mover == 0 { "l" } else { "d" },
        game.ply,
        if bans.is_empty() {
            "-".to_string()
        } else {
            bans.join(",")
        }
    )
}

pub fn parse_position(options: AdomocOptions, text: &str) -> Result<Adomoc, PositionError> {
    if !text.is_ascii() {
        return error("text", "a position string is ASCII");
    }
    let fields: Vec<&str> = text.split_whitespace().collect();
    let [board, mover, ply, bans] = fields[..] else {
        return error(
            "fields",
            format!(
                "expected BOARD MOVER PLY BANS, found {} field(s)",
                fields.len()
            ),
        );
    };
    let mut game = Adomoc::empty(options);
    read_board(&mut game, board)?;
    game.mover = match mover {
        "l" => 0,
        "d" => 1,
        _ => {
            return error(
                "mover",
                format!("expected l or d, not {mover_q}", mover_q = quoted(mover)),
            );
        }
    };
    // Room for the plies a game can still count (the ply cap adds to it).
    game.ply = crate::text::whole_number_as("ply", ply, 0..=u64::from(u32::MAX - 3))
        .map_err(|e| PositionError::new("ply", e))?;
    if bans != "-" {
        for ban in bans.split(',') {
            let ban = read_ban(&game, ban)?;
            if game.bans.contains(&ban) {
                return error("bans", "the same ban is given twice");
            }
            game.bans.push(ban);
        }
        if game.bans.len() > 2 {
            return error(
                "bans",
                "at most two bans (one from each of the last two plies)",
            );
        }
    }
    match game.piece_at(CENTRE) {
        Some(piece) if piece.kind == Kind::Sun && piece.prime => {
            let won = Status::Win {
                winner: piece.owner,
                reason: WinReason::Centre,
            };
            game.status = altogether(&game, won);
        }
        Some(_) => return error("board", "only the prime sun may stand on the centre"),
        None => judge_turn_start(&mut game),
    }
    Ok(game)
}

fn read_board(game: &mut Adomoc, text: &str) -> Result<(), PositionError> {
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != 9 {
        return error(
            "board",
            format!(
                "expected 9 rows (cycles 1-8 and the centre) separated by '/', found {}",
                rows.len()
            ),
        );
    }
    let mut counts = [[[0u8; 2]; 3]; 2];
    for (index, row) in rows.iter().enumerate() {
        let cycle = index as u8 + 1;
        let field = format!("board, cycle {cycle}");
        let width = if cycle == 9 { 1 } else { COLUMNS as usize };
        let bytes = row.as_bytes();
        let mut i = 0;
        let mut column = 0usize;
        while i < bytes.len() {
            if column == width {
                return error(&field, format!("more than {width} spaces"));
            }
            let space = if cycle == 9 {
                CENTRE
            } else {
                space_at(column as u8, cycle)
            };
            let byte = bytes[i];
            i += 1;
            if byte != b'.' {
                let kind = match byte.to_ascii_uppercase() {
                    b'F' => Kind::Foot,
                    b'M' => Kind::Moon,
                    b'S' => Kind::Sun,
                    _ => {
                        return error(
                            &field,
                            format!(
                                "{:?} is not '.' or a piece (F M S light, f m s dark)",
                                byte as char
                            ),
                        );
                    }
                };
                let owner = if byte.is_ascii_uppercase() {
                    LIGHT
                } else {
                    DARK
                };
                let prime = bytes.get(i) == Some(&b'^');
                i += prime as usize;
                let count = &mut counts[owner.index()][kind as usize][prime as usize];
                *count += 1;
                let most = if prime { 1 } else { 4 };
                if *count > most {
                    return error(
                        "board",
                        format!(
                            "{} has more than {most} {}{}",
                            PLAYER_NAMES[owner.index()],
                            if prime { "prime " } else { "" },
                            kind.name()
                        ),
                    );
                }
                game.add(space, Piece { owner, kind, prime });
            }
            column += 1;
        }
        if column != width {
            return error(&field, format!("describes {column} spaces, not {width}"));
        }
    }
    Ok(())
}

fn read_ban(game: &Adomoc, text: &str) -> Result<Ban, PositionError> {
    let bad = || {
        PositionError::new(
            "bans",
            format!(
                "expected X>Y+N (the piece on X may not originate the piece on Y in N plies), not {text_q}",
                text_q = quoted(text)
            ),
        )
    };
    let (originated, rest) = text.split_once('>').ok_or_else(bad)?;
    let (originator, wait) = rest.split_once('+').ok_or_else(bad)?;
    let id_on = |name: &str| -> Result<u8, PositionError> {
        let space = parse_label(name).ok_or_else(bad)?;
        match game.at[space as usize] {
            super::EMPTY => error("bans", format!("{name} is empty")),
            id => Ok(id),
        }
    };
    let wait: u32 = match wait {
        "0" => 0,
        "1" => 1,
        _ => {
            return error(
                "bans",
                format!(
                    "a ban holds this ply (+0) or the next (+1), not {}",
                    quoted(&format!("+{wait}"))
                ),
            );
        }
    };
    let (originated, originator) = (id_on(originated)?, id_on(originator)?);
    if originated == originator {
        return error("bans", format!("{text}: a piece cannot originate itself"));
    }
    // A ban for this ply restrains the mover's piece; one for the next ply can only come
    // from the last mover originating its own piece.
    let owner = |id: u8| game.pieces[id as usize].owner.0;
    let fits = match wait {
        0 => owner(originated) == game.mover,
        _ => owner(originated) != game.mover && owner(originator) != game.mover,
    };
    if !fits {
        return error(
            "bans",
            format!(
                "{text}: a +0 ban restrains a piece of the player to move; a +1 ban is between \
                 two pieces of the other player"
            ),
        );
    }
    Ok(Ban {
        originated,
        originator,
        ply: game.ply + wait,
    })
}

/// The board as a table: cycles from the rim (1) to the centre, columns a–j round the ring.
pub fn ascii(game: &Adomoc) -> String {
    let attracted = game.attracted();
    let mut out = String::from("       a   b   c   d   e |  f   g   h   i   j\n");
    for cycle in 1..=CYCLES {
        out.push_str(&format!("  {cycle}  "));
        for column in 0..COLUMNS {
            let space = space_at(column, cycle);
            let mark = if attracted & 1 << space != 0 { "~" } else { "" };
            let cell = format!("{}{mark}", token(game.piece_at(space)));
            out.push_str(&format!(
                "{cell:>3}{}",
                if column == 4 { " |" } else { " " }
            ));
        }
        out.push('\n');
    }
    out.push_str(&format!("  centre o9: {}\n", token(game.piece_at(CENTRE))));
    out.push_str(
        "Light F M S (upper case), Dark f m s; ^ prime; ~ attracted (cannot move).\n\
         Cycles run from the rim (1) inward; columns wrap (j is next to a) and pass through\n\
         the centre to the opposite column (a-f, b-g, c-h, d-i, e-j); spirals step one column\n\
         and one cycle at a time.\n",
    );
    for player in [LIGHT, DARK] {
        if game.state_of_primes(player) {
            out.push_str(&format!(
                "{} is in a state of primes.\n",
                PLAYER_NAMES[player.index()]
            ));
        }
    }
    out
}
