//! The position string and the terminal board.
//!
//! `BOARD MOVER PHASE TURN PLY`, for example the start:
//! `D3D3D32D3D3D3/8/8/8/8/8/8/L3L3L32L3L3L3 l a 1 0`.
//! - BOARD: ranks 8 to 1 separated by `/`; a stack is `L` (Light) or `D` (Dark) and its
//!   height 1-3; a digit alone counts empty squares.
//! - MOVER: `l` or `d`, whose turn it is.
//! - PHASE: `a` (split or merge); `b:INVOLVED:FOLLOW:ORIGIN` (the move phase: the stacks
//!   that took part in phase A, the split Smalls that may still make their follow-up, the
//!   split's square; each a comma list of squares or `-`); `c` (the mover absorbs) or
//!   `c2` (under `symmetric_absorption`, the opponent absorbs).
//! - TURN: full turns begun, from 1; PLY: actions played.

use super::apply::{labels, settle, start_of_turn_status, turn_cap_status};
use super::squares::{bit, label, parse_label, squares};
use super::{Absorption, AbsorptionOptions, PLAYER_NAMES, Phase};
use crate::text::quoted;
use crate::text::whole_number_as;
use crate::{Game, Player, PositionError, Status};

const OWNER_LETTERS: [char; 2] = ['L', 'D'];

pub fn format_position(game: &Absorption) -> String {
    let mut ranks = Vec::new();
    for y in (0..8u8).rev() {
        let mut rank = String::new();
        let mut empty = 0;
        for x in 0..8u8 {
            match game.stack(x + 8 * y) {
                None => empty += 1,
                Some((owner, height)) => {
                    if empty > 0 {
                        rank.push_str(&empty.to_string());
                        empty = 0;
                    }
                    rank.push(OWNER_LETTERS[owner.index()]);
                    rank.push_str(&height.to_string());
                }
            }
        }
        if empty > 0 {
            rank.push_str(&empty.to_string());
        }
        ranks.push(rank);
    }
    let list = |set: u64| {
        if set == 0 {
            "-".to_string()
        } else {
            squares(set).map(label).collect::<Vec<_>>().join(",")
        }
    };
    let phase = match game.phase {
        Phase::SplitOrMerge => "a".to_string(),
        Phase::Move {
            involved,
            follow,
            origin,
        } => format!(
            "b:{}:{}:{}",
            list(involved),
            list(follow),
            origin.map_or("-".to_string(), label)
        ),
        Phase::Absorb { absorber } if absorber.0 == game.mover => "c".into(),
        Phase::Absorb { .. } => "c2".into(),
    };
    format!(
        "{} {} {phase} {} {}",
        ranks.join("/"),
        ['l', 'd'][game.mover as usize],
        game.turn,
        game.ply
    )
}

fn error<T>(field: &str, message: impl Into<String>) -> Result<T, PositionError> {
    Err(PositionError::new(field, message))
}

pub fn parse_position(options: AbsorptionOptions, text: &str) -> Result<Absorption, PositionError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    let [board, mover, phase, turn, ply] = fields[..] else {
        return error(
            "fields",
            format!(
                "expected 5 fields (board, mover, phase, turn, ply), found {}",
                fields.len()
            ),
        );
    };
    let mover = match mover {
        "l" | "L" => 0,
        "d" | "D" => 1,
        _ => {
            return error(
                "mover",
                format!("expected l or d, not {mover_q}", mover_q = quoted(mover)),
            );
        }
    };
    let mut game = Absorption::empty(options, mover);
    read_board(&mut game, board)?;
    game.turn = whole_number_as("turn", turn, 1..=u32::MAX as u64)
        .or_else(|message| error("turn", message))?;
    game.ply = whole_number_as("ply", ply, 0..=u32::MAX as u64)
        .or_else(|message| error("ply", message))?;
    game.phase = read_phase(&game, phase)?;
    if game.phase == Phase::SplitOrMerge {
        game.status = start_of_turn_status(&game);
        if game.status == Status::Ongoing {
            game.status = turn_cap_status(&game);
        }
        game.history.record(game.hash());
    } else {
        // A turn can only wait on a real choice: play what is forced.
        settle(&mut game, &mut |_| {});
    }
    Ok(game)
}

fn read_board(game: &mut Absorption, board: &str) -> Result<(), PositionError> {
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 8 {
        return error(
            "board",
            format!("expected 8 ranks separated by '/', found {}", ranks.len()),
        );
    }
    for (i, rank) in ranks.iter().enumerate() {
        let y = 7 - i as u8;
        let field = format!("board, rank {}", y + 1);
        let mut x: u8 = 0;
        let mut chars = rank.chars().peekable();
        while let Some(c) = chars.next() {
            let owner = match c {
                'L' | 'l' => Some(0),
                'D' | 'd' => Some(1),
                '1'..='8' => None,
                _ => {
                    return error(
                        &field,
                        format!("unexpected {c:?} (stacks are L1-L3, D1-D3)"),
                    );
                }
            };
            let Some(owner) = owner else {
                x += c as u8 - b'0';
                if x > 8 {
                    return error(&field, "more than 8 squares");
                }
                continue;
            };
            let height = match chars.next() {
                Some(h @ '1'..='3') => h as u8 - b'0',
                _ => return error(&field, format!("{c} must be followed by a height 1-3")),
            };
            if x >= 8 {
                return error(&field, "more than 8 squares");
            }
            game.set_square(x + 8 * y, owner, height);
            x += 1;
        }
        if x != 8 {
            return error(&field, format!("describes {x} squares, not 8"));
        }
    }
    let total = game.pieces[0] as u32 + game.pieces[1] as u32;
    if total > 36 {
        return error("board", format!("{total} pieces; the game has 36"));
    }
    Ok(())
}

fn read_phase(game: &Absorption, text: &str) -> Result<Phase, PositionError> {
    match text {
        "a" => return Ok(Phase::SplitOrMerge),
        "c" => {
            return Ok(Phase::Absorb {
                absorber: Player(game.mover),
            });
        }
        "c2" if game.options.symmetric_absorption => {
            return Ok(Phase::Absorb {
                absorber: Player(1 - game.mover),
            });
        }
        "c2" => return error("phase", "c2 needs the option symmetric_absorption"),
        _ => {}
    }
    let parts: Vec<&str> = text.split(':').collect();
    let ["b", involved, follow, origin] = parts[..] else {
        return error(
            "phase",
            format!(
                "expected a, b:INVOLVED:FOLLOW:ORIGIN, c or c2, not {text_q}",
                text_q = quoted(text)
            ),
        );
    };
    let set = |name: &str, list: &str| -> Result<u64, PositionError> {
        if list == "-" {
            return Ok(0);
        }
        list.split(',').try_fold(0, |set, s| match parse_label(s) {
            Some(square) => Ok(set | bit(square)),
            None => error(
                "phase",
                format!("{name}: {s_q} is not a square", s_q = quoted(s)),
            ),
        })
    };
    let involved = set("involved", involved)?;
    let follow = set("follow", follow)?;
    let origin = match origin {
        "-" => None,
        s => Some(parse_label(s).ok_or_else(|| {
            PositionError::new(
                "phase",
                format!("origin: {s_q} is not a square", s_q = quoted(s)),
            )
        })?),
    };
    // A split makes at most three stacks and a merge one; an empty list is allowed so a
    // test position can start phase B with every stack free (docs/notation.md).
    if involved.count_ones() > 3 {
        return error(
            "phase",
            format!(
                "at most 3 involved squares (a split makes at most 3 stacks), not {}",
                involved.count_ones()
            ),
        );
    }
    let own = game.occupied[game.mover as usize];
    if involved & !own != 0 {
        return error(
            "phase",
            format!(
                "involved squares without a stack of the mover: {}",
                labels(involved & !own)
            ),
        );
    }
    if follow & !involved != 0 || squares(follow).any(|s| game.heights[s as usize] != 1) {
        return error("phase", "follow-up squares must be involved Smalls");
    }
    match origin {
        Some(o) if follow == 0 => {
            return error(
                "phase",
                format!("origin {} given with no follow-up left", label(o)),
            );
        }
        None if follow != 0 => return error("phase", "follow-ups need the split's origin"),
        Some(o) if game.stack(o).is_some() => {
            return error("phase", format!("the origin {} must be empty", label(o)));
        }
        Some(o) if squares(follow).any(|s| super::squares::ADJACENT[o as usize] & bit(s) == 0) => {
            return error("phase", "a follow-up Small must stand next to the origin");
        }
        _ => {}
    }
    Ok(Phase::Move {
        involved,
        follow,
        origin,
    })
}

pub fn ascii(game: &Absorption) -> String {
    let threatened = game.threatened() | game.absorbable();
    let (involved, follow) = match game.phase {
        Phase::Move {
            involved, follow, ..
        } => (involved, follow),
        _ => (0, 0),
    };
    let mut out = String::new();
    for y in (0..8u8).rev() {
        out.push_str(&format!("{} ", y + 1));
        for x in 0..8u8 {
            let square = x + 8 * y;
            let cell = match game.stack(square) {
                None => " . ".to_string(),
                Some((owner, height)) => {
                    let mark = if follow & bit(square) != 0 {
                        '>'
                    } else if involved & bit(square) != 0 {
                        '*'
                    } else if threatened & bit(square) != 0 {
                        '!'
                    } else {
                        ' '
                    };
                    format!("{}{height}{mark}", OWNER_LETTERS[owner.index()])
                }
            };
            out.push_str(&cell);
        }
        out.push('\n');
    }
    out.push_str("   a  b  c  d  e  f  g  h\n");
    out.push_str(&format!(
        "Light {} pieces, Dark {} pieces; turn {}. ",
        game.pieces[0], game.pieces[1], game.turn
    ));
    let name = PLAYER_NAMES[game.to_move().index()];
    let phase = match game.phase {
        _ if game.status != Status::Ongoing => "the game is over".to_string(),
        Phase::SplitOrMerge => format!("{name} must split or merge"),
        Phase::Move { follow: 0, .. } => format!("{name} may move a stack not marked * or pass"),
        Phase::Move { .. } => format!(
            "{name} may make the follow-ups of the Smalls marked >, move a stack not marked, or pass"
        ),
        Phase::Absorb { .. } => format!("{name} must choose an absorption (marked !)"),
    };
    out.push_str(&phase);
    if game.status == Status::Ongoing
        && !matches!(game.phase, Phase::Absorb { .. })
        && threatened != 0
    {
        out.push_str(&format!(
            "\n! marks the stacks {name} would absorb if the turn ended now: {}",
            labels(threatened)
        ));
    }
    out
}
