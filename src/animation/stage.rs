//! Starting one animation: which piece entities move, split, merge, lift away, fly,
//! turn over, appear or fade for one rules event, as tweens.

use super::Tween;
use crate::pieces::{Arrivals, Leaving, PieceOf, cell_position, spawn_piece};
use crate::table::{Anim, BoardLayout, BoardShape, PieceLook};
use bevy::prelude::*;

/// What starting one animation needs.
pub(super) type PieceQuery<'w, 's> =
    Query<'w, 's, (Entity, &'static mut PieceOf, &'static Transform), Without<Leaving>>;

pub(super) struct Stage<'a, 'w, 's, 'qw, 'qs> {
    pub(super) commands: &'a mut Commands<'w, 's>,
    pub(super) layout: &'a BoardLayout,
    pub(super) pieces: &'a mut PieceQuery<'qw, 'qs>,
    pub(super) arrivals: &'a mut Arrivals,
    pub(super) seconds: f32,
}

impl Stage<'_, '_, '_, '_, '_> {
    /// Starts the animation; false if it has nothing to move.
    pub(super) fn start(&mut self, anim: &Anim, after: &[(usize, PieceLook)]) -> bool {
        let seconds = self.seconds;
        match anim {
            Anim::Glide {
                from,
                to,
                count,
                via,
            } => {
                let Some(entity) = self.on(*from, None) else {
                    return false;
                };
                let to_pose = self.home(*to);
                // Along a path the piece slides, a little slower the longer its way; a
                // straight move hops.
                let (arc, seconds) = if via.is_empty() {
                    (0.25 + 0.04 * self.distance(*from, *to), seconds)
                } else {
                    (0.12, seconds * (1.0 + 0.25 * via.len() as f32).min(2.5))
                };
                let polar = self.layout.shape == BoardShape::Rings;
                let waypoints: Vec<Vec3> = via
                    .iter()
                    .map(|&cell| self.home(cell).translation)
                    .collect();
                let arrival = self.arrivals.take_next();
                let (_, mut piece, transform) = self.pieces.get_mut(entity).expect("queried");
                let start = *transform;
                match count {
                    Some(n) if *n < piece.look.height => {
                        // Some discs peel off the stack and travel on their own.
                        piece.look.height -= n;
                        let look = PieceLook {
                            height: *n,
                            ..piece.look
                        };
                        let moving = spawn_piece(self.commands, self.layout, *to, look, arrival);
                        let tween = Tween::new(start, to_pose, seconds)
                            .arc(arc)
                            .via(waypoints, polar);
                        self.commands.entity(moving).insert((start, tween));
                    }
                    _ => {
                        piece.cell = *to;
                        piece.arrival = arrival;
                        let tween = Tween::new(start, to_pose, seconds)
                            .arc(arc)
                            .via(waypoints, polar);
                        self.commands.entity(entity).insert(tween);
                    }
                }
            }
            Anim::Split { from, parts } => {
                let start = self.home(*from);
                for entity in self.all_on(*from) {
                    self.commands.entity(entity).despawn();
                }
                let Some(look) = after.iter().find(|p| p.0 == parts[0].0).map(|p| p.1) else {
                    return false;
                };
                for &(cell, height) in parts {
                    let look = PieceLook { height, ..look };
                    let arrival = self.arrivals.take_next();
                    let part = spawn_piece(self.commands, self.layout, cell, look, arrival);
                    let tween = Tween::new(start, self.home(cell), seconds).arc(0.3);
                    self.commands.entity(part).insert((start, tween));
                }
            }
            Anim::Merge { into, from } => {
                let to_pose = self.home(*into);
                for &cell in from {
                    let Some(entity) = self.on(cell, None) else {
                        continue;
                    };
                    let arrival = self.arrivals.take_next();
                    let (_, mut piece, transform) = self.pieces.get_mut(entity).expect("queried");
                    piece.cell = *into;
                    piece.arrival = arrival;
                    let tween = Tween::new(*transform, to_pose, seconds).arc(0.3);
                    self.commands.entity(entity).insert(tween);
                }
            }
            Anim::LiftAway { cell, colour } => {
                let Some(entity) = self.on(*cell, Some(*colour)) else {
                    return false;
                };
                self.leave(entity, seconds * 1.4, 1.2, thrown_off);
            }
            Anim::Consume { cell, colour } => {
                let Some(entity) = self.on(*cell, Some(*colour)) else {
                    return false;
                };
                // Swallowed at once, as the eater lands: down into the cell, squashed flat.
                self.leave(entity, seconds * 0.7, 0.0, |start| Transform {
                    translation: start.translation - Vec3::Y * 0.35,
                    scale: Vec3::new(1.3, 0.01, 1.3),
                    ..start
                });
            }
            Anim::Fade { cell, colour } => {
                let Some(entity) = self.on(*cell, Some(*colour)) else {
                    return false;
                };
                // Starving: it wilts, leaning over as it shrinks and sinks, slowly.
                self.leave(entity, seconds * 2.2, 0.0, |start| Transform {
                    translation: start.translation - Vec3::Y * 0.3,
                    rotation: Quat::from_rotation_z(1.1) * start.rotation,
                    scale: Vec3::splat(0.01),
                });
            }
            Anim::ClearCells { cells } => {
                for &cell in cells {
                    for entity in self.all_on(cell) {
                        self.leave(entity, seconds * 1.3, 0.0, |start| Transform {
                            translation: start.translation + Vec3::Y * 2.5,
                            scale: Vec3::splat(0.2),
                            ..start
                        });
                    }
                }
            }
            Anim::Fly { from, to, colour } => {
                let Some(entity) = self.on(*from, Some(*colour)) else {
                    return false;
                };
                let to_pose = self.home(*to);
                let arc = 1.0 + 0.15 * self.distance(*from, *to);
                let arrival = self.arrivals.take_next();
                let (_, mut piece, transform) = self.pieces.get_mut(entity).expect("queried");
                piece.cell = *to;
                piece.arrival = arrival;
                let tween = Tween::new(*transform, to_pose, seconds * 1.8).arc(arc);
                self.commands.entity(entity).insert(tween);
            }
            Anim::Absorb {
                cell,
                colour,
                gifts,
            } => {
                let Some(entity) = self.on(*cell, None) else {
                    return false;
                };
                let look = self.pieces.get(entity).expect("queried").1.look;
                // The stack turns over where it stands, then its discs go to their takers.
                self.leave(entity, seconds * 1.2, 0.8, |start| Transform {
                    rotation: Quat::from_rotation_x(std::f32::consts::PI),
                    scale: Vec3::splat(0.9),
                    ..start
                });
                let start = self.home(*cell);
                for &(to, height) in gifts {
                    let gift = PieceLook {
                        colour: *colour,
                        height,
                        ..look
                    };
                    let arrival = self.arrivals.take_next();
                    let part = spawn_piece(self.commands, self.layout, to, gift, arrival);
                    let tween = Tween::new(start, self.home(to), seconds)
                        .arc(0.4)
                        .delay(seconds * 1.2);
                    self.commands
                        .entity(part)
                        .insert((start.with_scale(Vec3::ZERO), tween));
                }
            }
            Anim::Appear { cell } => {
                for entity in self.all_on(*cell) {
                    self.commands.entity(entity).despawn();
                }
                let Some(&(_, look)) = after.iter().find(|p| p.0 == *cell) else {
                    return false;
                };
                let arrival = self.arrivals.take_next();
                let entity = spawn_piece(self.commands, self.layout, *cell, look, arrival);
                let home = self.home(*cell);
                let tween = Tween::new(home.with_scale(Vec3::splat(0.01)), home, seconds);
                self.commands
                    .entity(entity)
                    .insert((home.with_scale(Vec3::splat(0.01)), tween));
            }
            Anim::Note => return false,
        }
        true
    }

    fn home(&self, cell: usize) -> Transform {
        Transform::from_translation(cell_position(self.layout, cell))
    }

    fn distance(&self, a: usize, b: usize) -> f32 {
        cell_position(self.layout, a).distance(cell_position(self.layout, b))
    }

    /// The piece on `cell` that came first, of `colour` if given.
    fn on(&self, cell: usize, colour: Option<usize>) -> Option<Entity> {
        self.pieces
            .iter()
            .filter(|(_, p, _)| p.cell == cell && colour.is_none_or(|c| p.look.colour == c))
            .min_by_key(|(_, p, _)| p.arrival)
            .map(|(e, _, _)| e)
    }

    fn all_on(&self, cell: usize) -> Vec<Entity> {
        self.pieces
            .iter()
            .filter(|(_, p, _)| p.cell == cell)
            .map(|(e, _, _)| e)
            .collect()
    }

    /// The piece leaves the board: from where it stands to `end` of that, over `seconds`
    /// and `arc` high at the middle, and is gone.
    fn leave(
        &mut self,
        entity: Entity,
        seconds: f32,
        arc: f32,
        end: impl FnOnce(Transform) -> Transform,
    ) {
        let start = *self.pieces.get(entity).expect("queried").2;
        let tween = Tween::new(start, end(start), seconds)
            .arc(arc)
            .then_despawn();
        self.commands.entity(entity).insert((Leaving, tween));
    }
}

/// A captured piece is picked up and thrown off the board, away from its centre, tumbling
/// as it goes.
fn thrown_off(start: Transform) -> Transform {
    let outward = start
        .translation
        .with_y(0.0)
        .try_normalize()
        .unwrap_or(Vec3::X);
    Transform {
        translation: start.translation + outward * 3.0 + Vec3::Y * 1.5,
        rotation: Quat::from_axis_angle(outward.cross(Vec3::Y), 1.6) * start.rotation,
        scale: Vec3::splat(0.25),
    }
}
