//! Move notation (adaptoid.md §5): `d2-d4 +d3`, `d2xd4 d4+P`, `d2+L`, `pass`; for the pie
//! start `W:d2 B:d6` and `white` or `black`.

use super::moves::{Colour, Growth};
use super::{Adaptoid, AdaptoidEvent, AdaptoidMove, FightResult, RemovalCause};
use crate::text::quoted;
use crate::{Game, NotationError};

pub fn format_move(game: &Adaptoid, mv: &AdaptoidMove) -> String {
    let label = |c: u8| game.board.label(c).to_string();
    match *mv {
        AdaptoidMove::Turn { step, growth } => {
            let mut words = Vec::new();
            if let Some((from, to)) = step {
                let attack = game.pieces.colour_at(to).is_some();
                words.push(format!(
                    "{}{}{}",
                    label(from),
                    if attack { 'x' } else { '-' },
                    label(to)
                ));
            }
            match growth {
                Some(Growth::Create(c)) => words.push(format!("+{}", label(c))),
                Some(Growth::Leg(c)) => words.push(format!("{}+L", label(c))),
                Some(Growth::Pincer(c)) => words.push(format!("{}+P", label(c))),
                None => {}
            }
            if words.is_empty() {
                "pass".to_string()
            } else {
                words.join(" ")
            }
        }
        AdaptoidMove::Place { white, black } => format!("W:{} B:{}", label(white), label(black)),
        AdaptoidMove::Choose(colour) => colour.name().to_ascii_lowercase(),
    }
}

/// Reads a cell label at the start of `text`: a letter, then digits.
fn label_at(game: &Adaptoid, input: &str, at: usize) -> Result<(u8, usize), NotationError> {
    let text = &input[at..];
    let digits = text
        .char_indices()
        .skip(1)
        .find(|(_, c)| !c.is_ascii_digit())
        .map_or(text.len(), |(i, _)| i);
    let first_is_letter = text.chars().next().is_some_and(|c| c.is_ascii_alphabetic());
    if !first_is_letter || digits < 2 {
        return Err(NotationError::new(
            input,
            at,
            "expected a cell such as d4 (row letter, then its number)",
        ));
    }
    let name = &text[..digits];
    match game.board.parse_label(name) {
        Some(cell) => Ok((cell, at + digits)),
        None => Err(NotationError::new(
            input,
            at,
            format!("{} is not a cell of this board", quoted(name)),
        )),
    }
}

fn parse_growth(
    game: &Adaptoid,
    input: &str,
    at: usize,
    word: &str,
) -> Result<Growth, NotationError> {
    if let Some(rest) = word.strip_prefix('+') {
        let (cell, end) = label_at(game, input, at + 1)?;
        if end - at - 1 != rest.len() {
            return Err(NotationError::new(
                input,
                end,
                "unexpected text after the cell",
            ));
        }
        return Ok(Growth::Create(cell));
    }
    let (cell, end) = label_at(game, input, at)?;
    match word[end - at..].to_ascii_uppercase().as_str() {
        "+L" => Ok(Growth::Leg(cell)),
        "+P" => Ok(Growth::Pincer(cell)),
        _ => Err(NotationError::new(
            input,
            end,
            "expected +L (a leg) or +P (a pincer) after the cell, or write +CELL to create",
        )),
    }
}

fn parse_step(
    game: &Adaptoid,
    input: &str,
    at: usize,
    word: &str,
) -> Result<(u8, u8), NotationError> {
    let (from, end) = label_at(game, input, at)?;
    match word[end - at..].chars().next() {
        Some('-' | 'x' | 'X') => {}
        _ => {
            return Err(NotationError::new(
                input,
                end,
                "expected - (a move) or x (an attack)",
            ));
        }
    }
    let (to, last) = label_at(game, input, end + 1)?;
    if last - at != word.len() {
        return Err(NotationError::new(
            input,
            last,
            "unexpected text after the move",
        ));
    }
    Ok((from, to))
}

pub fn parse_move(game: &Adaptoid, input: &str) -> Result<AdaptoidMove, NotationError> {
    if let Some(at) = crate::text::first_non_ascii(input) {
        return Err(NotationError::new(
            input,
            at,
            "moves are written in ASCII, as d2-d4 +d3",
        ));
    }
    let words: Vec<(usize, &str)> = input
        .split_whitespace()
        .map(|w| (w.as_ptr() as usize - input.as_ptr() as usize, w))
        .collect();
    let lower: Vec<String> = words.iter().map(|(_, w)| w.to_ascii_lowercase()).collect();
    match lower.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        [] => return Err(NotationError::new(input, 0, "empty move")),
        ["pass"] => {
            return Ok(AdaptoidMove::Turn {
                step: None,
                growth: None,
            });
        }
        ["white"] => return Ok(AdaptoidMove::Choose(Colour::White)),
        ["black"] => return Ok(AdaptoidMove::Choose(Colour::Black)),
        [first, second]
            if (first.starts_with("w:") && second.starts_with("b:"))
                || (first.starts_with("b:") && second.starts_with("w:")) =>
        {
            let cell_of = |(at, word): (usize, &str)| -> Result<u8, NotationError> {
                let (cell, end) = label_at(game, input, at + 2)?;
                if end != at + word.len() {
                    return Err(NotationError::new(
                        input,
                        end,
                        "expected W:CELL B:CELL, as W:d2 B:d6",
                    ));
                }
                Ok(cell)
            };
            let (a, b) = (cell_of(words[0])?, cell_of(words[1])?);
            let (white, black) = if first.starts_with("w:") {
                (a, b)
            } else {
                (b, a)
            };
            return Ok(AdaptoidMove::Place { white, black });
        }
        _ => {}
    }
    if words.len() > 2 {
        return Err(NotationError::new(
            input,
            words[2].0,
            "a turn is at most a move and a growth, as d2-d4 +d3",
        ));
    }
    let is_growth = |w: &str| w.contains('+');
    let (first_at, first) = words[0];
    if words.len() == 1 {
        return if is_growth(first) {
            Ok(AdaptoidMove::Turn {
                step: None,
                growth: Some(parse_growth(game, input, first_at, first)?),
            })
        } else {
            Ok(AdaptoidMove::Turn {
                step: Some(parse_step(game, input, first_at, first)?),
                growth: None,
            })
        };
    }
    let (second_at, second) = words[1];
    let step = parse_step(game, input, first_at, first)?;
    let growth = parse_growth(game, input, second_at, second)?;
    Ok(AdaptoidMove::Turn {
        step: Some(step),
        growth: Some(growth),
    })
}

/// Splits a record or input line into turns: a move followed by a growth is one turn;
/// `;` or a line break always ends a turn (needed only after a move with no growth).
pub fn split_turns(text: &str) -> Vec<String> {
    let mut turns = Vec::new();
    for part in text.split([';', '\n']) {
        let mut pending: Option<&str> = None;
        for word in part.split_whitespace() {
            let growth = word.contains('+');
            match pending.take() {
                Some(step) if growth => turns.push(format!("{step} {word}")),
                Some(step) => {
                    turns.push(step.to_string());
                    if word.contains(['-', 'x', 'X']) && !word.contains(':') {
                        pending = Some(word);
                    } else {
                        turns.push(word.to_string());
                    }
                }
                None if growth => turns.push(word.to_string()),
                None if word.contains(['-', 'x', 'X']) && !word.contains(':') => {
                    pending = Some(word)
                }
                None => turns.push(word.to_string()),
            }
        }
        if let Some(step) = pending {
            turns.push(step.to_string());
        }
    }
    // The pie start's placement is two words.
    let mut joined: Vec<String> = Vec::new();
    for turn in turns {
        match joined.last_mut() {
            Some(last) if is_placement(last) && !last.contains(' ') && is_placement(&turn) => {
                last.push(' ');
                last.push_str(&turn);
            }
            _ => joined.push(turn),
        }
    }
    joined
}

/// One half of a pie start's placement, `W:d2` or `B:d6`.
fn is_placement(word: &str) -> bool {
    let lower = word.to_ascii_lowercase();
    lower.starts_with("w:") || lower.starts_with("b:")
}

pub fn describe_event(game: &Adaptoid, event: &AdaptoidEvent) -> String {
    let label = |c: u8| game.board.label(c).to_string();
    let name = |p| game.player_name(p);
    match *event {
        AdaptoidEvent::Placed { cell, colour } => {
            format!(
                "a bare {} adaptoid was placed on {}",
                colour.name(),
                label(cell)
            )
        }
        AdaptoidEvent::ColourChosen { player, colour } => {
            let seat = ["The first player", "The second player"][player.index().min(1)];
            format!("{seat} takes {}", colour.name())
        }
        AdaptoidEvent::Moved { from, to } => format!("moved {} to {}", label(from), label(to)),
        AdaptoidEvent::Attacked {
            from,
            at,
            attacker_pincers,
            defender_pincers,
            result,
        } => format!(
            "{} attacked {} ({attacker_pincers} pincer(s) against {defender_pincers}): {}",
            label(from),
            label(at),
            match result {
                FightResult::AttackerWins => "the attacker wins",
                FightResult::DefenderWins => "the defender wins",
                FightResult::BothRemoved => "both are removed",
            }
        ),
        AdaptoidEvent::Removed {
            cell,
            owner,
            legs,
            pincers,
            cause,
            scorer,
        } => format!(
            "{}'s adaptoid on {} ({legs} leg(s), {pincers} pincer(s)) {}; a capture for {}",
            name(owner),
            label(cell),
            match cause {
                RemovalCause::Fight => "was removed in the fight",
                RemovalCause::Starved => "starved",
            },
            name(scorer)
        ),
        AdaptoidEvent::Grew { growth, .. } => match growth {
            Growth::Create(c) => format!("created an adaptoid on {}", label(c)),
            Growth::Leg(c) => format!("added a leg to {}", label(c)),
            Growth::Pincer(c) => format!("added a pincer to {}", label(c)),
        },
        AdaptoidEvent::GrowthSkipped { .. } => "could not grow".to_string(),
        AdaptoidEvent::TurnEnded { next } => format!("{}'s turn", name(next)),
        AdaptoidEvent::GameOver { status } => {
            format!("game over: {}", game.describe_status(status))
        }
    }
}
