//! Animations driven by rules events: each [`RulesEvent`] queues one animation, played in
//! order; when the queue is empty and nothing moves, the pieces are synced to the rules.

mod stage;

use crate::AppSystems;
use crate::config::Settings;
use crate::current_game::CurrentGame;
use crate::phase::BoardShows;
use crate::pieces::{Arrivals, cell_position, spawn_piece};
use crate::screens::{BuildBoard, board_on_screen};
use crate::showcase::Showcase;
use crate::sound::{Sound, SoundCue, sounds_for_move};
use crate::table::{PieceLook, PlayedEvent};
use crate::turn::RulesEvent;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use stage::{PieceQuery, Stage};
use std::collections::VecDeque;

/// The rules events still to animate, each with its sound.
#[derive(Resource, Default)]
pub struct AnimationQueue(pub VecDeque<(PlayedEvent, Option<Sound>)>);

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
    /// The whole way when it is not straight: `from`, the points passed, `to`, with the
    /// length of each leg (worked out once, not every frame).
    pub way: Vec<Vec3>,
    pub legs: Vec<f32>,
    /// Between points, turn about the board's centre rather than go straight: the arcs of
    /// Adomoc's cycles and spirals (radius and angle change together).
    pub polar: bool,
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
            way: Vec::new(),
            legs: Vec::new(),
            polar: false,
        }
    }

    /// Through these points on the way (none: straight).
    fn via(mut self, via: Vec<Vec3>, polar: bool) -> Tween {
        if !via.is_empty() {
            self.way = std::iter::once(self.from.translation)
                .chain(via)
                .chain(std::iter::once(self.to.translation))
                .collect();
            self.legs = self.way.windows(2).map(|w| w[0].distance(w[1])).collect();
        }
        self.polar = polar;
        self
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
            translation: self.along(e),
            rotation: self.from.rotation.slerp(self.to.rotation, e),
            scale: self.from.scale.lerp(self.to.scale, e),
        };
        pose.translation.y += self.arc * 4.0 * e * (1.0 - e);
        pose
    }
}

impl Tween {
    /// The point a fraction `e` of the way along: straight from `from` to `to`, or along
    /// `way` at an even speed over the whole of it.
    fn along(&self, e: f32) -> Vec3 {
        if self.way.is_empty() {
            return self.from.translation.lerp(self.to.translation, e);
        }
        let total: f32 = self.legs.iter().sum();
        if total <= f32::EPSILON {
            return self.to.translation;
        }
        let mut left = e.clamp(0.0, 1.0) * total;
        for (pair, &length) in self.way.windows(2).zip(&self.legs) {
            if left <= length {
                let f = if length > f32::EPSILON {
                    left / length
                } else {
                    1.0
                };
                return if self.polar {
                    turn_about_centre(pair[0], pair[1], f)
                } else {
                    pair[0].lerp(pair[1], f)
                };
            }
            left -= length;
        }
        self.to.translation
    }
}

/// From `a` to `b` about the origin: radius and angle change together (the short way
/// round), height straight. Through the centre itself, straight.
fn turn_about_centre(a: Vec3, b: Vec3, f: f32) -> Vec3 {
    let (ra, rb) = (a.xz().length(), b.xz().length());
    if ra < 1e-3 || rb < 1e-3 {
        return a.lerp(b, f);
    }
    let (ta, tb) = (a.z.atan2(a.x), b.z.atan2(b.x));
    let mut turn = tb - ta;
    if turn > std::f32::consts::PI {
        turn -= std::f32::consts::TAU;
    } else if turn < -std::f32::consts::PI {
        turn += std::f32::consts::TAU;
    }
    let r = ra + (rb - ra) * f;
    let t = ta + turn * f;
    Vec3::new(r * t.cos(), a.y + (b.y - a.y) * f, r * t.sin())
}

fn ease_in_out(t: f32) -> f32 {
    let t = t.clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// Seconds for one ordinary animation at speed 1.
const BASE_SECONDS: f32 = 0.45;

pub fn plugin(app: &mut App) {
    app.init_resource::<AnimationQueue>()
        .init_resource::<AnimationLog>()
        .add_systems(BuildBoard, reset)
        .add_systems(
            Update,
            (queue_events, advance_tweens, start_next)
                .chain()
                .in_set(AppSystems::Animate)
                .run_if(board_on_screen),
        );
}

/// A match on screen begins with its pieces spawned as its position stands.
fn reset(
    game: Res<CurrentGame>,
    mut board: ResMut<BoardShows>,
    mut queue: ResMut<AnimationQueue>,
    mut log: ResMut<AnimationLog>,
    mut unshown: ResMut<Messages<RulesEvent>>,
) {
    // A move sent for the board that was on screen (the showcase's, in the frame a game
    // started) is not this board's to show.
    unshown.clear();
    *board = BoardShows {
        position: Some(game.position()),
        moving: false,
    };
    queue.0.clear();
    *log = AnimationLog::default();
}

fn queue_events(
    mut events: MessageReader<RulesEvent>,
    mut queue: ResMut<AnimationQueue>,
    mut log: ResMut<AnimationLog>,
) {
    // A move's events all come in one frame; its sounds depend on all of them (a split
    // is several glides from one cell).
    let events: Vec<&RulesEvent> = events.read().collect();
    for one_move in events.chunk_by(|a, b| a.move_number == b.move_number) {
        let anims: Vec<&_> = one_move.iter().map(|e| &e.event.anim).collect();
        for (event, sound) in one_move.iter().zip(sounds_for_move(&anims)) {
            queue.0.push_back((event.event.clone(), sound));
            log.events_received += 1;
        }
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

/// How long one event's animation takes: the player's speed, slower behind the title's menus.
#[derive(SystemParam)]
struct Pace<'w> {
    settings: Res<'w, Settings>,
    showcase: Option<Res<'w, Showcase>>,
}

impl Pace<'_> {
    fn seconds(&self) -> f32 {
        let slower = if self.showcase.is_some() {
            Showcase::SLOWER
        } else {
            1.0
        };
        BASE_SECONDS * slower / self.settings.animation_speed.max(0.01)
    }
}

/// The events waiting to be animated, and the count of those started and of syncs.
#[derive(SystemParam)]
struct Queued<'w> {
    queue: ResMut<'w, AnimationQueue>,
    log: ResMut<'w, AnimationLog>,
}

/// The pieces on the board, to move and to make equal to the rules.
#[derive(SystemParam)]
struct BoardPieces<'w, 's> {
    commands: Commands<'w, 's>,
    pieces: PieceQuery<'w, 's>,
    arrivals: ResMut<'w, Arrivals>,
}

fn start_next(
    game: Option<Res<CurrentGame>>,
    pace: Pace,
    mut queued: Queued,
    mut board: ResMut<BoardShows>,
    tweens: Query<(), With<Tween>>,
    mut on_board: BoardPieces,
    mut sounds: MessageWriter<SoundCue>,
) {
    let Some(game) = game else {
        return;
    };
    if !tweens.is_empty() {
        board.moving = true;
        return;
    }
    let seconds = pace.seconds();
    let BoardPieces {
        commands,
        pieces,
        arrivals,
    } = &mut on_board;
    // Events with nothing to show start and end at once; take them all in one frame.
    while let Some((event, sound)) = queued.queue.0.pop_front() {
        queued.log.animations_started += 1;
        if let Some(sound) = sound {
            sounds.write(SoundCue(sound));
        }
        let mut stage = Stage {
            commands,
            layout: game.table.layout(),
            pieces,
            arrivals,
            seconds,
        };
        if stage.start(&event.anim, &game.table.pieces()) {
            board.moving = true;
            return;
        }
    }
    board.moving = false;
    if board.position != Some(game.position()) {
        sync(commands, &game, pieces, arrivals);
        queued.log.syncs += 1;
        board.position = Some(game.position());
    }
}

fn sync(commands: &mut Commands, game: &CurrentGame, pieces: &PieceQuery, arrivals: &mut Arrivals) {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A quarter turn about the centre stays on its circle; a straight one cuts across.
    #[test]
    fn a_turn_about_the_centre_keeps_its_radius() {
        let (a, b) = (Vec3::new(2.0, 0.0, 0.0), Vec3::new(0.0, 0.0, 2.0));
        let middle = turn_about_centre(a, b, 0.5);
        assert!((middle.xz().length() - 2.0).abs() < 1e-4, "{middle}");
        assert!(middle.x > 1.0 && middle.z > 1.0, "{middle}");
        // The short way round, across the angle's wrap.
        let (c, d) = (Vec3::new(-2.0, 0.0, 0.1), Vec3::new(-2.0, 0.0, -0.1));
        assert!(turn_about_centre(c, d, 0.5).x < -1.9);
    }

    /// Through its waypoints at an even speed: halfway along two equal legs is the point
    /// between them, and the ends are the ends.
    #[test]
    fn a_path_passes_its_waypoints() {
        let from = Transform::from_xyz(0.0, 0.0, 0.0);
        let to = Transform::from_xyz(2.0, 0.0, 2.0);
        let tween = Tween::new(from, to, 1.0).via(vec![Vec3::new(2.0, 0.0, 0.0)], false);
        assert!(tween.along(0.5).distance(Vec3::new(2.0, 0.0, 0.0)) < 1e-5);
        assert!(tween.along(0.25).distance(Vec3::new(1.0, 0.0, 0.0)) < 1e-5);
        assert!(tween.along(1.0).distance(to.translation) < 1e-5);
        assert!(tween.along(0.0).distance(from.translation) < 1e-5);
    }
}
