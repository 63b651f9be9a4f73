//! The orbit camera: right-drag, a finger's drag or arrow keys to orbit, wheel, a pinch or
//! +/- to zoom, R or the panel's "View" to frame the board again. It ignores the pointer
//! while the pointer is over the overlay.

use crate::config::{Keys, Settings};
use crate::current_game::CurrentGame;
use crate::screens::{BoardScene, BuildBoard, InGame};
use bevy::core_pipeline::tonemapping::Tonemapping;
use bevy::ecs::system::SystemParam;
use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll};
use bevy::prelude::*;
use bevy::window::{PrimaryWindow, WindowResized};
use bevy_egui::input::EguiWantsInput;
use std::f32::consts::FRAC_PI_8;

use super::layout;

#[derive(Component, Clone, Copy, Debug)]
pub struct OrbitCamera {
    pub yaw: f32,
    pub pitch: f32,
    pub distance: f32,
    /// Half the board's width, which sets the framing distance for reset and zoom limits.
    pub extent: f32,
    /// How far right of the board's centre the camera aims, as a part of its distance:
    /// positive puts the board left of the game's side panel, negative right of the
    /// title's menu.
    pub aim_right: f32,
    /// How far above the board's centre the camera aims, likewise: negative puts the board
    /// above a portrait window's panel.
    pub aim_up: f32,
}

fn framing_distance(extent: f32) -> f32 {
    extent * 2.3 + 2.0
}

impl OrbitCamera {
    /// The game's view of a board `extent` wide in a window `aspect` (width / height) wide:
    /// left of the panel in a landscape window, whole across the top of a portrait one.
    fn framed(extent: f32, aspect: f32) -> OrbitCamera {
        let landscape = OrbitCamera {
            yaw: 0.0,
            pitch: 0.95,
            distance: framing_distance(extent),
            extent,
            aim_right: 0.11,
            aim_up: 0.0,
        };
        if !layout::is_portrait(aspect) {
            return landscape;
        }
        // Far enough for the board's width across the narrow window's field of view
        // (Bevy's is 45° high), and for its depth, seen from the pitch, within the height
        // the panel leaves; with margins. Its centre in the middle of that height.
        // Steeper than on the desktop, so the board fills more of the height it has.
        let pitch = 1.15_f32;
        let half_width = (FRAC_PI_8.tan() * aspect).atan();
        let width_fit = extent * 1.05 / half_width.tan();
        let height_fit =
            extent * pitch.sin() / (FRAC_PI_8.tan() * layout::PORTRAIT_BOARD_SHARE * 0.85);
        let board_middle = layout::PORTRAIT_BOARD_SHARE / 2.0;
        OrbitCamera {
            pitch,
            distance: width_fit.max(height_fit),
            aim_right: 0.0,
            aim_up: -(1.0 - 2.0 * board_middle) * FRAC_PI_8.tan(),
            ..landscape
        }
    }

    /// The title's view of its showcase: from a corner, lower and further, the board
    /// right of the menu.
    fn showcase(extent: f32) -> OrbitCamera {
        OrbitCamera {
            yaw: -0.45,
            pitch: 0.72,
            distance: framing_distance(extent) * 1.4,
            extent,
            aim_right: -0.24,
            aim_up: 0.0,
        }
    }

    fn transform(&self) -> Transform {
        let rotation = Quat::from_euler(EulerRot::YXZ, self.yaw, -self.pitch, 0.0);
        let eye = rotation * Vec3::new(0.0, 0.0, self.distance);
        let right = rotation * Vec3::X;
        let up = rotation * Vec3::Y;
        let aim = (right * self.aim_right + up * self.aim_up) * self.distance;
        Transform::from_translation(eye + aim).looking_at(aim, Vec3::Y)
    }
}

/// The wheel is over something it steps (a cell's count): the camera leaves it alone.
/// Whatever takes the wheel sets this before [`orbit`] runs.
#[derive(Resource, Default)]
pub struct WheelOnCell(pub bool);

/// Frames the board again for the window's shape, as R does: the panel's button for it.
#[derive(Message)]
pub struct FrameBoard;

/// How far the camera turns for a pixel of a drag, in radians.
const TURN_PER_PIXEL: f32 = 0.006;

pub fn plugin(app: &mut App) {
    app.add_message::<FrameBoard>()
        .add_systems(Startup, spawn_camera_and_lights)
        .add_systems(BuildBoard, frame_board)
        .add_systems(
            Update,
            (
                orbit,
                reframe_on_turn.run_if(resource_exists::<CurrentGame>),
            )
                .run_if(in_state(InGame)),
        );
}

fn spawn_camera_and_lights(mut commands: Commands, settings: Res<Settings>) {
    let orbit = OrbitCamera::framed(5.0, 1.6);
    commands.spawn((
        Camera3d::default(),
        orbit.transform(),
        orbit,
        Msaa::Sample4,
        // Bevy's default (TonyMcMapface) reads a lookup table the browser's download would
        // carry (0.7 MB, with its decoder); this one needs none and looks nearly the same
        // here (compared side by side, docs/decisions.md).
        Tonemapping::SomewhatBoringDisplayTransform,
    ));
    commands.spawn((
        DirectionalLight {
            illuminance: 9_000.0,
            shadow_maps_enabled: settings.shadows,
            ..default()
        },
        Transform::from_xyz(-4.0, 10.0, 6.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    commands.insert_resource(GlobalAmbientLight {
        color: Color::srgb(0.85, 0.88, 1.0),
        brightness: 350.0,
        ..default()
    });
}

fn frame_board(
    game: Res<CurrentGame>,
    scene: Res<State<BoardScene>>,
    windows: Query<&Window, With<PrimaryWindow>>,
    mut cameras: Query<(&mut OrbitCamera, &mut Transform)>,
) {
    let extent = game.table.layout().extent();
    let view = match scene.get() {
        BoardScene::Showcase => OrbitCamera::showcase(extent),
        BoardScene::Game => OrbitCamera::framed(extent, window_aspect(&windows)),
    };
    look_from(&mut cameras, view);
}

/// Puts every orbit camera at `view`.
fn look_from(cameras: &mut Query<(&mut OrbitCamera, &mut Transform)>, view: OrbitCamera) {
    for (mut orbit, mut transform) in cameras {
        *orbit = view;
        *transform = view.transform();
    }
}

/// The window's width over its height (1.6 before there is one).
fn window_aspect(windows: &Query<&Window, With<PrimaryWindow>>) -> f32 {
    windows
        .single()
        .map(|w| w.width() / w.height().max(1.0))
        .unwrap_or(1.6)
}

/// A window turned between landscape and portrait (a phone rotated) frames the game's
/// board again for its new shape.
fn reframe_on_turn(
    mut resized: MessageReader<WindowResized>,
    game: Res<CurrentGame>,
    scene: Res<State<BoardScene>>,
    windows: Query<&Window, With<PrimaryWindow>>,
    mut cameras: Query<(&mut OrbitCamera, &mut Transform)>,
    mut was_portrait: Local<Option<bool>>,
) {
    if resized.read().last().is_none() || *scene.get() != BoardScene::Game {
        return;
    }
    let aspect = window_aspect(&windows);
    let portrait = layout::is_portrait(aspect);
    if was_portrait
        .replace(portrait)
        .is_none_or(|was| was == portrait)
    {
        return;
    }
    let extent = game.table.layout().extent();
    look_from(&mut cameras, OrbitCamera::framed(extent, aspect));
}

/// The mouse and the fingers, and who else wants them this frame: egui, the side panel, a
/// cell's count.
#[derive(SystemParam)]
pub(super) struct Pointer<'w, 's> {
    buttons: Res<'w, ButtonInput<MouseButton>>,
    touches: Res<'w, Touches>,
    fingers: Local<'s, Fingers>,
    motion: Res<'w, AccumulatedMouseMotion>,
    scroll: Res<'w, AccumulatedMouseScroll>,
    egui: Option<Res<'w, EguiWantsInput>>,
    over_panel: Res<'w, super::panel_area::PointerOverPanel>,
    wheel_on_cell: Option<Res<'w, WheelOnCell>>,
}

pub(super) fn orbit(
    mut cameras: Query<(&mut OrbitCamera, &mut Transform)>,
    keys: Res<ButtonInput<KeyCode>>,
    bindings: Res<Keys>,
    pointer: Pointer,
    time: Res<Time>,
    windows: Query<&Window, With<PrimaryWindow>>,
    mut frame_board: MessageReader<FrameBoard>,
) {
    let aspect = window_aspect(&windows);
    let asked_to_frame = frame_board.read().count() > 0;
    let Pointer {
        buttons,
        touches,
        mut fingers,
        motion,
        scroll,
        egui,
        over_panel,
        wheel_on_cell,
    } = pointer;
    let over_overlay =
        egui.as_ref().is_some_and(|e| e.wants_any_pointer_input()) || over_panel.over;
    // Over a cell whose count the wheel steps, the wheel is the count's.
    let wheel_taken = over_overlay || wheel_on_cell.is_some_and(|on| on.0);
    let keyboard_busy = egui.as_ref().is_some_and(|e| e.wants_any_keyboard_input());
    let dt = time.delta_secs().min(0.1);
    for (mut orbit, mut transform) in &mut cameras {
        let before = *orbit;
        if !over_overlay
            && (buttons.pressed(MouseButton::Right) || buttons.pressed(MouseButton::Middle))
        {
            orbit.yaw -= motion.delta.x * TURN_PER_PIXEL;
            orbit.pitch += motion.delta.y * TURN_PER_PIXEL;
        }
        // One finger turns the board; two pinch to zoom.
        match fingers.moved(&touches) {
            FingerMotion::Drag(delta) if !over_overlay => {
                orbit.yaw -= delta.x * TURN_PER_PIXEL;
                orbit.pitch += delta.y * TURN_PER_PIXEL;
            }
            FingerMotion::Pinch { before, now } => {
                orbit.distance *= pinch_zoom(before, now);
            }
            _ => {}
        }
        if !wheel_taken {
            orbit.distance *= 1.0 - scroll.delta.y.clamp(-5.0, 5.0) * 0.08;
        }
        if !keyboard_busy {
            let held = |key: KeyCode| if keys.pressed(key) { 1.0 } else { 0.0 };
            orbit.yaw += (held(bindings.orbit_left) - held(bindings.orbit_right)) * 1.6 * dt;
            orbit.pitch += (held(bindings.tilt_up) - held(bindings.tilt_down)) * 1.0 * dt;
            orbit.distance *= 1.0 + (held(bindings.zoom_out) - held(bindings.zoom_in)) * 1.2 * dt;
            if keys.just_pressed(bindings.reset_camera) {
                *orbit = OrbitCamera::framed(orbit.extent, aspect);
            }
        }
        if asked_to_frame {
            *orbit = OrbitCamera::framed(orbit.extent, aspect);
        }
        orbit.pitch = orbit.pitch.clamp(0.15, 1.5);
        let home = OrbitCamera::framed(orbit.extent, aspect).distance;
        orbit.distance = orbit.distance.clamp(home * 0.3, home * 2.5);
        if orbit.yaw != before.yaw
            || orbit.pitch != before.pitch
            || orbit.distance != before.distance
        {
            *transform = orbit.transform();
        }
    }
}

/// Where each finger on the screen was when the camera last looked. Bevy's own
/// `Touch::delta` stays as it was through frames without touch events, which would turn
/// the board again each such frame.
#[derive(Default)]
pub(super) struct Fingers(Vec<(u64, Vec2)>);

/// What the fingers did since the camera last looked.
#[derive(Debug, PartialEq)]
enum FingerMotion {
    None,
    /// One finger moved this far.
    Drag(Vec2),
    /// Two fingers went from `before` pixels apart to `now`.
    Pinch {
        before: f32,
        now: f32,
    },
}

impl Fingers {
    fn moved(&mut self, touches: &Touches) -> FingerMotion {
        let now: Vec<(u64, Vec2)> = touches.iter().map(|t| (t.id(), t.position())).collect();
        let was = |id: u64, at: Vec2| {
            self.0
                .iter()
                .find(|(seen, _)| *seen == id)
                .map_or(at, |&(_, then)| then)
        };
        let motion = match now[..] {
            [(id, at)] => FingerMotion::Drag(at - was(id, at)),
            [(a, at_a), (b, at_b)] => FingerMotion::Pinch {
                before: was(a, at_a).distance(was(b, at_b)),
                now: at_a.distance(at_b),
            },
            _ => FingerMotion::None,
        };
        self.0 = now;
        motion
    }
}

/// How much a pinch from fingers `before` pixels apart to `now` apart multiplies the
/// camera's distance: fingers spreading bring the board nearer, as on a photo.
fn pinch_zoom(before: f32, now: f32) -> f32 {
    if before < 1.0 || now < 1.0 {
        return 1.0;
    }
    (before / now).clamp(0.5, 2.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::camera::CameraProjection;

    #[test]
    fn spreading_fingers_bring_the_board_nearer() {
        assert!(pinch_zoom(100.0, 150.0) < 1.0);
        assert!(pinch_zoom(150.0, 100.0) > 1.0);
        assert_eq!(pinch_zoom(120.0, 120.0), 1.0);
        // Fingers on one spot, or a jump, do not throw the camera away.
        assert_eq!(pinch_zoom(0.0, 80.0), 1.0);
        assert_eq!(pinch_zoom(10.0, 400.0), 0.5);
    }

    /// Where a point on the board shows, in normalised device coordinates (x and y from
    /// -1 to 1, y up), through `orbit` in a window `aspect` wide.
    fn on_screen(orbit: &OrbitCamera, aspect: f32, point: Vec3) -> Vec2 {
        let projection = PerspectiveProjection {
            aspect_ratio: aspect,
            ..default()
        };
        let view = orbit.transform().to_matrix().inverse();
        let clip = projection.get_clip_from_view() * view * point.extend(1.0);
        clip.truncate().truncate() / clip.w
    }

    fn rim(extent: f32) -> Vec<Vec3> {
        (0..16)
            .map(|i| {
                let angle = std::f32::consts::TAU * i as f32 / 16.0;
                Vec3::new(angle.cos() * extent, 0.0, angle.sin() * extent)
            })
            .collect()
    }

    #[test]
    fn a_portrait_window_shows_the_whole_board_above_its_panel() {
        for extent in [3.0, 5.0, 7.0] {
            for (width, height) in [(390.0, 844.0), (360.0, 780.0), (600.0, 800.0)] {
                let aspect = width / height;
                let orbit = OrbitCamera::framed(extent, aspect);
                let panel_top = -1.0 + 2.0 * (1.0 - layout::PORTRAIT_BOARD_SHARE);
                for point in rim(extent) {
                    let at = on_screen(&orbit, aspect, point);
                    assert!(
                        at.x.abs() <= 1.0,
                        "{extent} in {width}x{height}: {point} at {at}"
                    );
                    assert!(
                        at.y > panel_top && at.y <= 1.0,
                        "{extent} in {width}x{height}: {point} at {at}, the panel's top at {panel_top}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_landscape_window_keeps_the_desktop_view() {
        let orbit = OrbitCamera::framed(5.0, 1280.0 / 800.0);
        assert_eq!(orbit.aim_up, 0.0);
        assert_eq!(orbit.distance, framing_distance(5.0));
        assert_eq!(orbit.aim_right, 0.11);
    }
}
