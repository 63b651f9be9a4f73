//! The official notation (adomoc.md §8): `<Piece>[^]<from><to>[o<origin>|x][*]`, for
//! example `Fa3a6`, `Mc7a5oa3`, `F^c3c5x`, `S^a8o9*`.

use super::geometry::{CENTRE, label, parse_label};
use super::{Adomoc, AdomocEvent, AdomocMove, Effect, PLAYER_NAMES};
use crate::{Game, NotationError};

pub fn format_move(game: &Adomoc, mv: &AdomocMove) -> String {
    let mut text = String::new();
    if let Some(piece) = game.piece_at(mv.from) {
        text.push(piece.kind.letter());
        if piece.prime {
            text.push('^');
        }
    }
    text.push_str(&label(mv.from));
    text.push_str(&label(mv.to));
    match mv.effect {
        Effect::None => {}
        Effect::Consume => text.push('x'),
        Effect::Originate(origin) => {
            text.push('o');
            text.push_str(&label(origin));
        }
    }
    if mv.to == CENTRE {
        text.push('*');
    }
    text
}

pub fn parse_move(game: &Adomoc, input: &str) -> Result<AdomocMove, NotationError> {
    let fail = |at: usize, message: &str| Err(NotationError::new(input, at, message));
    if let Some(at) = crate::text::first_non_ascii(input) {
        return fail(at, "moves are written in ASCII, as Fa3a6");
    }
    let text = input.trim();
    let offset = input.len() - input.trim_start().len();
    let bytes = text.as_bytes();
    let Some(&letter) = bytes.first() else {
        return fail(0, "empty move");
    };
    let kind_letter = letter.to_ascii_uppercase();
    if !matches!(kind_letter, b'F' | b'M' | b'S') {
        return fail(
            offset,
            "a move starts with the piece: F (foot), M (moon) or S (sun)",
        );
    }
    let prime = bytes.get(1) == Some(&b'^');
    let mut at = 1 + prime as usize;
    let space = |at: &mut usize, what: &str| -> Result<u8, NotationError> {
        let found = text.get(*at..*at + 2).and_then(parse_label);
        match found {
            Some(space) => {
                *at += 2;
                Ok(space)
            }
            None => Err(NotationError::new(
                input,
                offset + *at,
                format!(
                    "expected the {what} space, such as a3 (columns a-j, cycles 1-8, centre o9)"
                ),
            )),
        }
    };
    let from = space(&mut at, "start")?;
    let to = space(&mut at, "end")?;
    let effect = match bytes.get(at) {
        Some(b'x' | b'X') => {
            at += 1;
            Effect::Consume
        }
        Some(b'o' | b'O') => {
            at += 1;
            Effect::Originate(space(&mut at, "origin")?)
        }
        _ => Effect::None,
    };
    if bytes.get(at) == Some(&b'*') {
        if to != CENTRE {
            return fail(
                offset + at,
                "* marks only the winning move onto the centre o9",
            );
        }
        at += 1;
    }
    if at != bytes.len() {
        return fail(offset + at, "unexpected text after the move");
    }
    // The piece letter must describe the piece that stands there, so there must be one.
    match game.piece_at(from) {
        None => {
            return fail(
                offset + 1 + prime as usize,
                &format!("{} is empty: there is no piece to move", label(from)),
            );
        }
        Some(piece) if piece.kind.letter() as u8 != kind_letter || piece.prime != prime => {
            return fail(
                offset,
                &format!(
                    "{} holds a {}{}, written {}{}",
                    label(from),
                    if piece.prime { "prime " } else { "" },
                    piece.kind.name(),
                    piece.kind.letter(),
                    if piece.prime { "^" } else { "" }
                ),
            );
        }
        _ => {}
    }
    Ok(AdomocMove { from, to, effect })
}

pub fn describe_event(game: &Adomoc, event: &AdomocEvent) -> String {
    let what = |piece: super::Piece| {
        format!(
            "{}'s {}{}",
            PLAYER_NAMES[piece.owner.index()],
            if piece.prime { "prime " } else { "" },
            piece.kind.name()
        )
    };
    match *event {
        AdomocEvent::Moved { piece, from, to } => {
            format!(
                "{} moved from {} to {}",
                what(piece),
                label(from),
                label(to)
            )
        }
        AdomocEvent::Consumed { at, piece } => {
            format!("{} on {} was consumed", what(piece), label(at))
        }
        AdomocEvent::Originated { from, to, piece } => format!(
            "{} was originated from {} to {}",
            what(piece),
            label(from),
            label(to)
        ),
        AdomocEvent::TurnEnded { next } => format!("{}'s turn", game.player_name(next)),
        AdomocEvent::GameOver { status } => format!("game over: {}", game.describe_status(status)),
    }
}
