//! The pbmserv move syntax (adamas.md §7), read and written.
//!
//! ```text
//! move   := split | merge
//! split  := [count "x"] cell "-" dest ("," dest)*   ; a source count needs a single dest
//! dest   := [count "x"] cell
//! merge  := src ("," src)+ "-" cell
//! ```

use super::moves::{AdamasMove, Part, Parts};
use crate::NotationError;
use crate::hexgrid::HexGrid;
use crate::text::quoted;

pub(super) fn format_move(grid: &HexGrid, mv: &AdamasMove) -> String {
    let item = |part: &Part| {
        let label = grid.label(part.cell as usize);
        if part.count == 1 {
            label
        } else {
            format!("{}x{label}", part.count)
        }
    };
    let list = |parts: &[Part]| parts.iter().map(item).collect::<Vec<_>>().join(",");
    match mv {
        AdamasMove::Split { from, parts } if parts.len() == 1 => {
            let part = parts[0];
            let source = Part {
                cell: *from,
                count: part.count,
            };
            format!("{}-{}", item(&source), grid.label(part.cell as usize))
        }
        AdamasMove::Split { from, parts } => {
            format!("{}-{}", grid.label(*from as usize), list(parts))
        }
        AdamasMove::Merge { to, parts } => format!("{}-{}", list(parts), grid.label(*to as usize)),
    }
}

/// One `[count x] cell` item, with its byte offset in the whole move text.
struct Item {
    count: Option<u16>,
    cell: u8,
    at: usize,
}

fn parse_item(grid: &HexGrid, input: &str, text: &str, at: usize) -> Result<Item, NotationError> {
    let trimmed = text.trim_start();
    let at = at + (text.len() - trimmed.len());
    let text = trimmed.trim_end();
    if text.is_empty() {
        return Err(NotationError::new(input, at, "a cell is missing"));
    }
    let (count, cell_text, cell_at) = match text.find(['x', 'X']) {
        Some(x) if text[..x].bytes().all(|b| b.is_ascii_digit()) && x > 0 => {
            let digits = &text[..x];
            if digits.starts_with('0') {
                return Err(NotationError::new(
                    input,
                    at,
                    "a piece count must start with 1-9",
                ));
            }
            let count: u16 = digits.parse().map_err(|_| {
                NotationError::new(
                    input,
                    at,
                    format!("the piece count {} is too large", quoted(digits)),
                )
            })?;
            (Some(count), &text[x + 1..], at + x + 1)
        }
        Some(0) if text.len() > 1 && text.as_bytes()[1].is_ascii_digit() => {
            return Err(NotationError::new(
                input,
                at,
                "the count comes before the x (as in 2xc3)",
            ));
        }
        _ => (None, text, at),
    };
    let cell = grid.parse_label(cell_text).ok_or_else(|| {
        NotationError::new(
            input,
            cell_at,
            format!(
                "{cell_text_q} is not a cell of this board (rows a-{}, numbered from 1 at the left)",
                (b'a' + grid.rows() as u8 - 1) as char, cell_text_q = quoted(cell_text)),
        )
    })?;
    Ok(Item {
        count,
        cell: cell as u8,
        at,
    })
}

fn parse_list(
    grid: &HexGrid,
    input: &str,
    text: &str,
    at: usize,
) -> Result<Vec<Item>, NotationError> {
    let mut items = Vec::new();
    let mut offset = at;
    for piece in text.split(',') {
        items.push(parse_item(grid, input, piece, offset)?);
        offset += piece.len() + 1;
    }
    Ok(items)
}

pub(super) fn parse_move(grid: &HexGrid, input: &str) -> Result<AdamasMove, NotationError> {
    if input.trim().is_empty() {
        return Err(NotationError::new(input, 0, "the move is empty"));
    }
    let Some(dash) = input.find('-') else {
        return Err(NotationError::new(
            input,
            input.len(),
            "a move needs a '-' between its sources and destinations (as in c1-c3)",
        ));
    };
    if let Some(second) = input[dash + 1..].find('-') {
        return Err(NotationError::new(
            input,
            dash + 1 + second,
            "a move has only one '-'",
        ));
    }
    let sources = parse_list(grid, input, &input[..dash], 0)?;
    let targets = parse_list(grid, input, &input[dash + 1..], dash + 1)?;
    let count_of = |item: &Item| item.count.unwrap_or(1);
    if sources.len() >= 2 {
        if targets.len() != 1 {
            return Err(NotationError::new(
                input,
                targets[1].at,
                "a merge has exactly one destination",
            ));
        }
        if targets[0].count.is_some() {
            return Err(NotationError::new(
                input,
                targets[0].at,
                "a merge's destination takes no count: put counts on the sources",
            ));
        }
        let parts: Parts = sources
            .iter()
            .map(|s| Part {
                cell: s.cell,
                count: count_of(s),
            })
            .collect();
        return Ok(AdamasMove::Merge {
            to: targets[0].cell,
            parts,
        });
    }
    let source = &sources[0];
    let mut parts: Parts = targets
        .iter()
        .map(|t| Part {
            cell: t.cell,
            count: count_of(t),
        })
        .collect();
    if let Some(count) = source.count {
        if targets.len() > 1 {
            return Err(NotationError::new(
                input,
                source.at,
                "a count on the source needs a single destination; put counts on the destinations",
            ));
        }
        if targets[0].count.is_some() {
            return Err(NotationError::new(
                input,
                targets[0].at,
                "give the count on the source or on the destination, not both",
            ));
        }
        parts[0].count = count;
    }
    Ok(AdamasMove::Split {
        from: source.cell,
        parts,
    })
}
