//! How Absorption looks: an 8×8 board of stacks of one to three two-sided pieces.

use super::bits;
use super::{
    Anim, BoardLayout, BoardShape, Cell, Choice, GameKind, Ghost, Look, Mark, PieceLook, Shape,
    StepCount,
};
use bevy::math::Vec2;
use tabula_rules::absorption::{Absorption, AbsorptionEvent, AbsorptionStep, Phase, squares};
use tabula_rules::{Game, Player};

impl Look for Absorption {
    const KIND: GameKind = GameKind::Absorption;

    fn layout(&self) -> BoardLayout {
        let cells = (0..squares::SQUARES as u8)
            .map(|square| Cell {
                // Rank 1 (Light's home) nearest the viewer.
                pos: Vec2::new((square % 8) as f32, 7.0 - (square / 8) as f32),
                label: squares::label(square),
            })
            .collect();
        BoardLayout {
            shape: BoardShape::Squares,
            cells,
            links: Vec::new(),
            spacing: 1.0,
        }
        .centred()
    }

    fn pieces(&self) -> Vec<(usize, PieceLook)> {
        (0..squares::SQUARES as u8)
            .filter_map(|square| {
                let (owner, height) = self.stack(square)?;
                Some((
                    square as usize,
                    PieceLook {
                        colour: owner.index(),
                        shape: Shape::Stack,
                        height: height as u16,
                        prime: false,
                    },
                ))
            })
            .collect()
    }

    /// A split's parts stand on their empty squares before the stack they come from is
    /// chosen (its parts are placed first).
    fn partial_ghosts(&self, steps: &[AbsorptionStep]) -> Vec<Ghost> {
        steps
            .iter()
            .filter_map(|step| match *step {
                AbsorptionStep::Place { square, height } if self.stack(square).is_none() => {
                    Some(Ghost {
                        cell: square as usize,
                        after: Some(PieceLook {
                            colour: self.to_move().index(),
                            shape: Shape::Stack,
                            height: u16::from(height),
                            prime: false,
                        }),
                    })
                }
                _ => None,
            })
            .collect()
    }

    fn marks(&self) -> Vec<(usize, Mark)> {
        let mut marks: Vec<(usize, Mark)> = bits(self.absorbable() | self.threatened())
            .map(|s| (s as usize, Mark::Threatened))
            .collect();
        if let Phase::Move {
            involved, follow, ..
        } = self.phase()
        {
            marks.extend(bits(follow).map(|s| (s as usize, Mark::FollowUp)));
            marks.extend(bits(involved & !follow).map(|s| (s as usize, Mark::Involved)));
        }
        marks
    }

    fn score_lines(&self) -> Vec<String> {
        (0..2)
            .map(|seat| {
                let player = Player(seat);
                format!(
                    "{}: {} pieces",
                    self.player_name(player),
                    self.pieces_of(player)
                )
            })
            .collect()
    }

    fn choice(&self, step: &AbsorptionStep) -> Choice {
        let label = |s: u8| squares::label(s);
        let (text, cell) = match *step {
            AbsorptionStep::Pick(s) => (format!("take the stack on {}", label(s)), Some(s)),
            AbsorptionStep::Place { square, height } => (
                format!("split {height} onto {}", label(square)),
                Some(square),
            ),
            AbsorptionStep::Destination(s) => (format!("merge onto {}", label(s)), Some(s)),
            AbsorptionStep::To(s) => (format!("move to {}", label(s)), Some(s)),
            AbsorptionStep::Give { square, count } => {
                (format!("give {count} to {}", label(square)), Some(square))
            }
            AbsorptionStep::Pass => ("pass (move nothing more)".to_string(), None),
        };
        let count = match *step {
            AbsorptionStep::Place { height, .. } => Some(StepCount::Exactly(u16::from(height))),
            AbsorptionStep::Give { count, .. } => Some(StepCount::Exactly(u16::from(count))),
            _ => None,
        };
        Choice {
            text,
            cell: cell.map(usize::from),
            count,
        }
    }

    fn step_cells(step: &AbsorptionStep) -> Vec<usize> {
        match *step {
            AbsorptionStep::Pick(s)
            | AbsorptionStep::Destination(s)
            | AbsorptionStep::To(s)
            | AbsorptionStep::Place { square: s, .. }
            | AbsorptionStep::Give { square: s, .. } => vec![s as usize],
            AbsorptionStep::Pass => Vec::new(),
        }
    }

    fn anim(&self, event: &AbsorptionEvent) -> Anim {
        match *event {
            AbsorptionEvent::Split { from, parts, .. } => Anim::Split {
                from: from as usize,
                parts: parts.iter().map(|(s, h)| (s as usize, h as u16)).collect(),
            },
            AbsorptionEvent::Merged { dest, others, .. } => Anim::Merge {
                into: dest as usize,
                from: others.as_slice().iter().map(|&s| s as usize).collect(),
            },
            AbsorptionEvent::Moved { from, to, .. } => Anim::Glide {
                from: from as usize,
                to: to as usize,
                count: None,
                via: Vec::new(),
            },
            AbsorptionEvent::Absorbed {
                absorber,
                target,
                gifts,
                ..
            } => Anim::Absorb {
                cell: target as usize,
                colour: absorber.index(),
                gifts: gifts.iter().map(|(s, c)| (s as usize, c as u16)).collect(),
            },
            AbsorptionEvent::Passed
            | AbsorptionEvent::TurnEnded { .. }
            | AbsorptionEvent::GameOver { .. } => Anim::Note,
        }
    }
}
