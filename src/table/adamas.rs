//! How Adamas looks: stacks of discs on a hex board for two or three players.

use super::{
    Anim, BoardLayout, BoardShape, Cell, Choice, GameKind, Look, Mark, PieceLook, Shape, StepCount,
};
use bevy::math::Vec2;
use tabula_rules::adamas::{Adamas, AdamasBuilder, AdamasEvent, AdamasStep};
use tabula_rules::{Game, Player};

impl Look for Adamas {
    const KIND: GameKind = GameKind::Adamas;

    fn layout(&self) -> BoardLayout {
        let grid = self.grid();
        let cells = (0..grid.len())
            .map(|cell| {
                let (x, y) = grid.screen_position(cell);
                Cell {
                    pos: Vec2::new(x, y),
                    label: grid.label(cell),
                }
            })
            .collect();
        BoardLayout {
            shape: BoardShape::Hexes,
            cells,
            links: Vec::new(),
            spacing: 1.0,
        }
        .centred()
    }

    fn pieces(&self) -> Vec<(usize, PieceLook)> {
        (0..self.grid().len())
            .filter_map(|cell| {
                let (owner, height) = self.stack(cell)?;
                Some((
                    cell,
                    PieceLook {
                        colour: owner.index(),
                        shape: Shape::Stack,
                        height,
                        prime: false,
                    },
                ))
            })
            .collect()
    }

    fn marks(&self) -> Vec<(usize, Mark)> {
        self.threatened_stacks()
            .iter()
            .map(|cell| (cell, Mark::Threatened))
            .collect()
    }

    fn score_lines(&self) -> Vec<String> {
        (0..self.num_players())
            .map(|seat| {
                let player = Player(seat as u8);
                let out = if self.is_active(player) { "" } else { " (out)" };
                format!(
                    "{}: {} pieces{out}",
                    self.player_name(player),
                    self.pieces_of(player)
                )
            })
            .collect()
    }

    fn cell_hint(&self, cell: usize) -> Option<String> {
        let (owner, height) = self.stack(cell)?;
        let seen = self.visible_enemy_count(cell)?;
        Some(format!(
            "{} stack of {height} on {}: sees {seen} enemy piece(s){}",
            self.player_name(owner),
            self.label(cell),
            if self.is_threatened(cell) {
                " (threatened)"
            } else {
                ""
            }
        ))
    }

    fn choice(&self, step: &AdamasStep) -> Choice {
        let label = |c: usize| self.label(c);
        let (text, cell, count) = match *step {
            AdamasStep::SplitFrom(c) => (format!("split the stack on {}", label(c)), c, None),
            AdamasStep::MergeTo(c) => (format!("merge into {}", label(c)), c, None),
            AdamasStep::Add(c) => (
                format!("one more piece: {}", label(c)),
                c,
                Some(StepCount::More),
            ),
            AdamasStep::Remove(c) => (
                format!("one piece fewer: {}", label(c)),
                c,
                Some(StepCount::Fewer),
            ),
        };
        Choice {
            text,
            cell: Some(cell),
            count,
        }
    }

    fn step_cells(step: &AdamasStep) -> Vec<usize> {
        match *step {
            AdamasStep::SplitFrom(c)
            | AdamasStep::MergeTo(c)
            | AdamasStep::Add(c)
            | AdamasStep::Remove(c) => vec![c],
        }
    }

    fn part_count(&self, builder: &AdamasBuilder, cell: usize) -> Option<u16> {
        builder
            .parts()
            .iter()
            .find(|part| part.cell as usize == cell)
            .map(|part| part.count)
    }

    fn draft_text(&self, builder: &AdamasBuilder) -> Option<String> {
        let parts = builder.parts();
        let listed: Vec<String> = parts
            .iter()
            .map(|p| format!("{}: {}", self.label(p.cell as usize), p.count))
            .collect();
        match builder.anchor()? {
            AdamasStep::SplitFrom(from) => {
                let height = self.stack(from).map_or(0, |s| s.1);
                let moved: u16 = parts.iter().map(|p| p.count).sum();
                Some(format!(
                    "Split {} ({height}): {} — {} left behind",
                    self.label(from),
                    if listed.is_empty() {
                        "pick destinations".to_string()
                    } else {
                        listed.join(", ")
                    },
                    height.saturating_sub(moved)
                ))
            }
            AdamasStep::MergeTo(to) => Some(format!(
                "Merge into {}: {}",
                self.label(to),
                if listed.is_empty() {
                    "pick source stacks".to_string()
                } else {
                    listed.join(", ")
                }
            )),
            _ => None,
        }
    }

    fn anim(&self, event: &AdamasEvent) -> Anim {
        match event {
            AdamasEvent::Moved { from, to, count } => Anim::Glide {
                from: *from,
                to: *to,
                count: Some(*count),
                via: Vec::new(),
            },
            AdamasEvent::Captured { cell, owner, .. } => Anim::LiftAway {
                cell: *cell,
                colour: owner.index(),
            },
            AdamasEvent::Eliminated { removed, .. } => Anim::ClearCells {
                cells: removed.iter().map(|r| r.0).collect(),
            },
            AdamasEvent::GameOver { .. } => Anim::Note,
        }
    }
}
