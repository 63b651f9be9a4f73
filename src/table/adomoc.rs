//! How Adomoc looks: suns, moons and feet on eight concentric cycles around a centre.

use super::{
    Anim, BoardLayout, BoardShape, Cell, Choice, GameKind, Link, LinkKind, Look, Mark, PieceLook,
    Shape, passed_over,
};
use bevy::math::Vec2;
use tabula_rules::adomoc::geometry::{self, LineKind};
use tabula_rules::adomoc::{Adomoc, AdomocEvent, AdomocStep, Kind, SPACES, spaces};
use tabula_rules::{Game, Player};

/// The distance between cycles.
const CYCLE_GAP: f32 = 1.0;

/// Where a space is drawn (adomoc.md §1.4): column `c` at `198° + 36°·c` counter-clockwise
/// from east, cycle `k` at radius `9 − k`, Light's side nearest the viewer.
pub fn space_position(space: u8) -> Vec2 {
    let (column, cycle) = geometry::column_and_cycle(space);
    let radius = (9 - cycle) as f32 * CYCLE_GAP;
    let angle = (198.0 + 36.0 * column as f32).to_radians();
    Vec2::new(radius * angle.cos(), -radius * angle.sin())
}

impl Look for Adomoc {
    const KIND: GameKind = GameKind::Adomoc;

    fn layout(&self) -> BoardLayout {
        let cells = (0..SPACES as u8)
            .map(|space| Cell {
                pos: space_position(space),
                label: geometry::label(space),
            })
            .collect();
        let geometry = geometry::geometry(self.options().spirals);
        let mut links = Vec::new();
        for space in 0..SPACES as u8 {
            for ray in geometry.rays(space) {
                let Some(&next) = ray.spaces.first() else {
                    continue;
                };
                let kind = match ray.kind {
                    LineKind::Cycle => LinkKind::Cycle,
                    LineKind::Column => LinkKind::Column,
                    LineKind::Spiral => LinkKind::Spiral,
                };
                let link = Link {
                    a: space.min(next) as usize,
                    b: space.max(next) as usize,
                    kind,
                };
                if !links.contains(&link) {
                    links.push(link);
                }
            }
        }
        // Centred already: the centre space is the origin.
        BoardLayout {
            shape: BoardShape::Rings,
            cells,
            links,
            spacing: 0.85,
        }
    }

    fn pieces(&self) -> Vec<(usize, PieceLook)> {
        (0..SPACES as u8)
            .filter_map(|space| {
                let piece = self.piece_at(space)?;
                Some((
                    space as usize,
                    PieceLook {
                        colour: piece.owner.index(),
                        shape: match piece.kind {
                            Kind::Sun => Shape::Sun,
                            Kind::Moon => Shape::Moon,
                            Kind::Foot => Shape::Foot,
                        },
                        height: 1,
                        prime: piece.prime,
                    },
                ))
            })
            .collect()
    }

    fn marks(&self) -> Vec<(usize, Mark)> {
        spaces(self.attracted())
            .map(|s| (s as usize, Mark::Attracted))
            .collect()
    }

    fn score_lines(&self) -> Vec<String> {
        (0..2)
            .map(|seat| {
                let player = Player(seat);
                let primes = if self.state_of_primes(player) {
                    " — in a state of primes"
                } else {
                    ""
                };
                format!(
                    "{}: {} pieces{primes}",
                    self.player_name(player),
                    self.pieces_of(player)
                )
            })
            .collect()
    }

    fn choice(&self, step: &AdomocStep) -> Choice {
        let (text, space) = match *step {
            AdomocStep::From(s) => {
                let what = self
                    .piece_at(s)
                    .map_or("piece".to_string(), |p| piece_name(p.kind, p.prime));
                (format!("move the {what} on {}", geometry::label(s)), s)
            }
            AdomocStep::To(s) => {
                let verb = if self.piece_at(s).is_some() {
                    "land on"
                } else {
                    "go to"
                };
                (format!("{verb} {}", geometry::label(s)), s)
            }
            AdomocStep::OriginTo(s) => (
                format!("send the piece landed on to {}", geometry::label(s)),
                s,
            ),
        };
        Choice {
            text,
            cell: Some(space as usize),
            count: None,
        }
    }

    fn step_cells(step: &AdomocStep) -> Vec<usize> {
        match *step {
            AdomocStep::From(s) | AdomocStep::To(s) | AdomocStep::OriginTo(s) => vec![s as usize],
        }
    }

    fn anim(&self, event: &AdomocEvent) -> Anim {
        match *event {
            AdomocEvent::Moved { from, to, .. } => Anim::Glide {
                from: from as usize,
                to: to as usize,
                count: None,
                via: passed_over(self.line_path(from, to)),
            },
            AdomocEvent::Consumed { at, piece } => Anim::Consume {
                cell: at as usize,
                colour: piece.owner.index(),
            },
            AdomocEvent::Originated { from, to, piece } => Anim::Fly {
                from: from as usize,
                to: to as usize,
                colour: piece.owner.index(),
            },
            AdomocEvent::TurnEnded { .. } | AdomocEvent::GameOver { .. } => Anim::Note,
        }
    }
}

fn piece_name(kind: Kind, prime: bool) -> String {
    if prime {
        format!("prime {}", kind.name())
    } else {
        kind.name().to_string()
    }
}
