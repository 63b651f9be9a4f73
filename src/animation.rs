//! Animations driven by rules events: each [`RulesEvent`] queues one animation, played in
//! order; when the queue is empty and nothing moves, the pieces are synced to the rules.

use crate::config::Settings;
use crate::pieces::{Arrivals, Leaving, PieceOf, cell_position, spawn_piece};
use crate::screens::{InMatch, Match};
use crate::table::{Anim, BoardLayout, PieceLook, PlayedEvent};
use crate::turn::RulesEvent;
use bevy::prelude::*;
use std::collections::VecDeque;

/// True from the moment a move is played until its animations end and the pieces are
/// synced; input waits meanwhile.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Animating(pub bool);

#[derive(Resource, Default)]
pub struct AnimationQueue(pub VecDeque<PlayedEvent>);

/// Counts for tests: every rules event received must start its animation.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AnimationLog {
    pub events_received: usize,
    pub animations_started: usize,
    pub syncs: usize,
}

/// A transform travelling from one pose to another, after an optional delay.
#[derive(Component, Clone, Debug)]
pub struct Tween {
    pub from: Transform,
    pub to: Transform,
    /// Height of the arc travelled, at its middle.
    pub arc: f32,
    pub delay: f32,
    pub duration: f32,
    pub elapsed: f32,
    pub despawn_at_end: bool,
}

impl Tween {
    fn new(from: Transform, to: Transform, duration: f32) -> Tween {
        Tween {
            from,
            to,
            arc: 0.0,
            delay: 0.0,
            duration,
            elapsed: 0.0,
            despawn_at_end: false,
        }
    }

    fn arc(mut self, arc: f32) -> Tween {
        self.arc = arc;
        self
    }

    fn delay(mut self, delay: f32) -> Tween {
        self.delay = delay;
        self
    }

    fn then_despawn(mut self) -> Tween {
        self.despawn_at_end = true;
        self
    }

    fn pose(&self, t: f32) -> Transform {
        let e = ease_in_out(t);
        let mut pose = Transform {
            translation: self.from.translation.lerp(self.to.translation, e),
            rotation: self.from.rotation.slerp(self.to.rotation, e),
            scale: self.from.scale.lerp(self.to.scale, e),
        };
        pose.translation.y += self.arc * 4.0 * e * (1.0 - e);
        pose
    }
}

fn ease_in_out(t: f32) -> f32 {
    let t = t.clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// Seconds for one ordinary animation at speed 1.
const BASE_SECONDS: f32 = 0.45;

pub fn plugin(app: &mut App) {
    app.init_resource::<Animating>()
        .init_resource::<AnimationQueue>()
        .init_resource::<AnimationLog>()
        .add_systems(OnEnter(InMatch), reset)
        .add_systems(
            Update,
            (queue_events, advance_tweens, start_next)
                .chain()
                .after(crate::turn::TurnSystems)
                .run_if(in_state(InMatch)),
        );
}

fn reset(
    mut animating: ResMut<Animating>,
    mut queue: ResMut<AnimationQueue>,
    mut log: ResMut<AnimationLog>,
) {
    *animating = Animating(false);
    queue.0.clear();
    *log = AnimationLog::default();
}

fn queue_events(
    mut events: MessageReader<RulesEvent>,
    mut queue: ResMut<AnimationQueue>,
    mut log: ResMut<AnimationLog>,
) {
    for event in events.read() {
        queue.0.push_back(event.event.clone());
        log.events_received += 1;
    }
}

fn advance_tweens(
    mut commands: Commands,
    time: Res<Time>,
    settings: Res<Settings>,
    mut tweens: Query<(Entity, &mut Tween, &mut Transform)>,
) {
    let dt = time.delta_secs();
    let instant = settings.animation_speed <= 0.0;
    for (entity, mut tween, mut transform) in &mut tweens {
        tween.elapsed += dt;
        let running = tween.elapsed - tween.delay;
        if running < 0.0 && !instant {
            continue;
        }
        let t = if instant || tween.duration <= 0.0 {
            1.0
        } else {
            running / tween.duration
        };
        *transform = tween.pose(t);
        if t >= 1.0 {
            if tween.despawn_at_end {
                commands.entity(entity).despawn();
            } else {
                commands.entity(entity).remove::<Tween>();
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn start_next(
    mut commands: Commands,
    game: Option<Res<Match>>,
    settings: Res<Settings>,
    mut queue: ResMut<AnimationQueue>,
    mut log: ResMut<AnimationLog>,
    mut animating: ResMut<Animating>,
    mut arrivals: ResMut<Arrivals>,
    tweens: Query<(), With<Tween>>,
    mut pieces: PieceQuery,
) {
    let Some(game) = game else {
        return;
    };
    if !tweens.is_empty() {
        return;
    }
    let speed = settings.animation_speed.max(0.01);
    // Events with nothing to show start and end at once; take them all in one frame.
    while let Some(event) = queue.0.pop_front() {
        log.animations_started += 1;
        let mut stage = Stage {
            commands: &mut commands,
            layout: game.table.layout(),
            pieces: &mut pieces,
            arrivals: &mut arrivals,
            seconds: BASE_SECONDS / speed,
        };
        if stage.start(&event.anim, &game.table.pieces()) {
            return;
        }
    }
    if animating.0 {
        sync(&mut commands, &game, &pieces, &mut arrivals);
        log.syncs += 1;
        animating.0 = false;
    }
}

fn sync(commands: &mut Commands, game: &Match, pieces: &PieceQuery, arrivals: &mut Arrivals) {
    let layout = game.table.layout();
    let wanted = game.table.pieces();
    let mut present: Vec<Vec<(Entity, PieceLook)>> = vec![Vec::new(); layout.cells.len()];
    for (entity, piece, _) in pieces.iter() {
        match present.get_mut(piece.cell) {
            Some(list) => list.push((entity, piece.look)),
            None => commands.entity(entity).despawn(),
        }
    }
    let mut wanted_on: Vec<Option<PieceLook>> = vec![None; layout.cells.len()];
    for (cell, look) in wanted {
        if let Some(slot) = wanted_on.get_mut(cell) {
            *slot = Some(look);
        }
    }
    for (cell, (present, wanted)) in present.iter().zip(&wanted_on).enumerate() {
        if let ([(entity, look)], Some(w)) = (present.as_slice(), wanted)
            && look == w
        {
            // Snap it home in case an animation left it off centre.
            commands
                .entity(*entity)
                .insert(Transform::from_translation(cell_position(layout, cell)));
            continue;
        }
        for (entity, _) in present {
            commands.entity(*entity).despawn();
        }
        if let Some(look) = wanted {
            spawn_piece(commands, layout, cell, *look, arrivals.take_next());
        }
    }
}

/// What starting one animation needs.
type PieceQuery<'w, 's> =
    Query<'w, 's, (Entity, &'static mut PieceOf, &'static Transform), Without<Leaving>>;

struct Stage<'a, 'w, 's, 'qw, 'qs> {
    commands: &'a mut Commands<'w, 's>,
    layout: &'a BoardLayout,
    pieces: &'a mut PieceQuery<'qw, 'qs>,
    arrivals: &'a mut Arrivals,
    seconds: f32,
}

impl Stage<'_, '_, '_, '_, '_> {
    /// Starts the animation; false if it has nothing to move.
    fn start(&mut self, anim: &Anim, after: &[(usize, PieceLook)]) -> bool {
        let seconds = self.seconds;
        match anim {
            Anim::Glide { from, to, count } => {
                let Some(entity) = self.on(*from, None) else {
                    return false;
                };
                let to_pose = self.home(*to);
                let arc = 0.25 + 0.04 * self.distance(*from, *to);
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
                        self.commands
                            .entity(moving)
                            .insert((start, Tween::new(start, to_pose, seconds).arc(arc)));
                    }
                    _ => {
                        piece.cell = *to;
                        piece.arrival = arrival;
                        self.commands
                            .entity(entity)
                            .insert(Tween::new(start, to_pose, seconds).arc(arc));
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
                self.leave(entity, Vec3::Y * 2.5, 0.2, 0.0, seconds * 1.3);
            }
            Anim::Fade { cell, colour } => {
                let Some(entity) = self.on(*cell, Some(*colour)) else {
                    return false;
                };
                self.leave(entity, Vec3::Y * -0.3, 0.01, 0.0, seconds * 1.5);
            }
            Anim::ClearCells { cells } => {
                for &cell in cells {
                    for entity in self.all_on(cell) {
                        self.leave(entity, Vec3::Y * 2.5, 0.2, 0.0, seconds * 1.3);
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
                self.leave_turning(entity, seconds * 1.2);
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

    fn leave(&mut self, entity: Entity, offset: Vec3, scale: f32, delay: f32, seconds: f32) {
        let start = *self.pieces.get(entity).expect("queried").2;
        let mut end = start;
        end.translation += offset;
        end.scale = Vec3::splat(scale);
        let tween = Tween::new(start, end, seconds).delay(delay).then_despawn();
        self.commands.entity(entity).insert((Leaving, tween));
    }

    fn leave_turning(&mut self, entity: Entity, seconds: f32) {
        let start = *self.pieces.get(entity).expect("queried").2;
        let mut end = start;
        end.rotation = Quat::from_rotation_x(std::f32::consts::PI);
        end.scale = Vec3::splat(0.9);
        let tween = Tween::new(start, end, seconds).arc(0.8).then_despawn();
        self.commands.entity(entity).insert((Leaving, tween));
    }
}
