//! How Adaptoid looks: creatures with legs and pincers on a graph of cells.

use super::{
    Anim, BoardLayout, BoardShape, Cell, Choice, GameKind, Link, Look, Mark, PieceLook, Shape,
    bits, passed_over,
};
use bevy::math::Vec2;
use tabula_rules::adaptoid::{Adaptoid, AdaptoidEvent, AdaptoidStep, Growth, RemovalCause};
use tabula_rules::{Game, Player};

impl Look for Adaptoid {
    const KIND: GameKind = GameKind::Adaptoid;

    fn layout(&self) -> BoardLayout {
        let board = self.board();
        let cells = (0..board.len() as u8)
            .map(|cell| {
                let (x, y) = board.position(cell);
                Cell {
                    pos: Vec2::new(x, y),
                    label: board.label(cell).to_string(),
                }
            })
            .collect();
        let mut links = Vec::new();
        for cell in 0..board.len() as u8 {
            for other in bits(board.neighbours(cell)).filter(|&o| o > cell) {
                links.push(Link {
                    a: cell as usize,
                    b: other as usize,
                    kind: super::LinkKind::Adjacent,
                });
            }
        }
        BoardLayout {
            shape: BoardShape::Graph,
            cells,
            links,
            spacing: 1.0,
        }
        .centred()
    }

    fn pieces(&self) -> Vec<(usize, PieceLook)> {
        (0..self.board().len() as u8)
            .filter_map(|cell| {
                let creature = self.creature(cell)?;
                Some((
                    cell as usize,
                    PieceLook {
                        colour: creature.colour.index(),
                        shape: Shape::Creature {
                            legs: creature.legs,
                            pincers: creature.pincers,
                        },
                        height: 1,
                        prime: false,
                    },
                ))
            })
            .collect()
    }

    fn marks(&self) -> Vec<(usize, Mark)> {
        bits(self.starving_when_turn_ends())
            .map(|c| (c as usize, Mark::Starving))
            .collect()
    }

    fn colour_of_seat(&self, seat: usize) -> usize {
        self.colour_of(Player(seat as u8)).index()
    }

    fn score_lines(&self) -> Vec<String> {
        (0..2)
            .map(|seat| {
                let player = Player(seat);
                let [bodies, legs, pincers] = self.supply_of(player);
                let name = self.player_name(player);
                let colour = self.colour_of(player).name();
                // Seats are named by colour once colours are settled; say it only if not.
                let seat = if name == colour {
                    name
                } else {
                    format!("{name} ({colour})")
                };
                format!(
                    "{seat}: {} captures · left {bodies} bodies {legs} legs {pincers} pincers",
                    self.captures_of(player)
                )
            })
            .collect()
    }

    fn choice(&self, step: &AdaptoidStep) -> Choice {
        let label = |c: u8| self.board().label(c).to_string();
        let (text, cell) = match *step {
            AdaptoidStep::From(c) => (format!("move the adaptoid on {}", label(c)), Some(c)),
            AdaptoidStep::To(c) => {
                let verb = if self.creature(c).is_some() {
                    "attack"
                } else {
                    "go to"
                };
                (format!("{verb} {}", label(c)), Some(c))
            }
            AdaptoidStep::Stay => ("do not move".to_string(), None),
            AdaptoidStep::Grow(Growth::Create(c)) => {
                (format!("create an adaptoid on {}", label(c)), Some(c))
            }
            AdaptoidStep::Grow(Growth::Leg(c)) => (format!("add a leg on {}", label(c)), Some(c)),
            AdaptoidStep::Grow(Growth::Pincer(c)) => {
                (format!("add a pincer on {}", label(c)), Some(c))
            }
            AdaptoidStep::NoGrowth => ("no growth is possible: pass".to_string(), None),
            AdaptoidStep::PlaceWhite(c) => (format!("place White on {}", label(c)), Some(c)),
            AdaptoidStep::PlaceBlack(c) => (format!("place Black on {}", label(c)), Some(c)),
            AdaptoidStep::Choose(colour) => (format!("play {}", colour.name()), None),
        };
        Choice {
            text,
            cell: cell.map(usize::from),
            count: None,
        }
    }

    fn step_cells(step: &AdaptoidStep) -> Vec<usize> {
        match *step {
            AdaptoidStep::From(c)
            | AdaptoidStep::To(c)
            | AdaptoidStep::PlaceWhite(c)
            | AdaptoidStep::PlaceBlack(c) => vec![c as usize],
            AdaptoidStep::Grow(growth) => vec![growth.cell() as usize],
            AdaptoidStep::Stay | AdaptoidStep::NoGrowth | AdaptoidStep::Choose(_) => Vec::new(),
        }
    }

    fn anim(&self, event: &AdaptoidEvent) -> Anim {
        match *event {
            AdaptoidEvent::Moved { from, to } | AdaptoidEvent::Attacked { from, at: to, .. } => {
                // The walk through empty cells (an attack ends on the enemy's cell).
                Anim::Glide {
                    from: from as usize,
                    to: to as usize,
                    count: None,
                    via: passed_over(self.walk_path(from, to)),
                }
            }
            AdaptoidEvent::Removed {
                cell, owner, cause, ..
            } => {
                let colour = self.colour_of(owner).index();
                let cell = cell as usize;
                match cause {
                    RemovalCause::Fight => Anim::LiftAway { cell, colour },
                    RemovalCause::Starved => Anim::Fade { cell, colour },
                }
            }
            AdaptoidEvent::Grew { growth, .. } => Anim::Appear {
                cell: growth.cell() as usize,
            },
            AdaptoidEvent::Placed { cell, .. } => Anim::Appear {
                cell: cell as usize,
            },
            AdaptoidEvent::ColourChosen { .. }
            | AdaptoidEvent::GrowthSkipped { .. }
            | AdaptoidEvent::TurnEnded { .. }
            | AdaptoidEvent::GameOver { .. } => Anim::Note,
        }
    }
}
