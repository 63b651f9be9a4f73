//! The orbit camera: right-drag or arrow keys to orbit, wheel or +/- to zoom, R to reset.
//! It ignores the pointer while the pointer is over the overlay.

use crate::config::{Keys, Settings};
use crate::current_game::CurrentGame;
use crate::screens::{BoardScene, BuildBoard, InGame};
use bevy::ecs::system::SystemParam;
use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll};
use bevy::prelude::*;
use bevy_egui::input::EguiWantsInput;

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
}

fn framing_distance(extent: f32) -> f32 {
    extent * 2.3 + 2.0
}

impl OrbitCamera {
    fn framed(extent: f32) -> OrbitCamera {
        OrbitCamera {
            yaw: 0.0,
            pitch: 0.95,
            distance: framing_distance(extent),
            extent,
            aim_right: 0.11,
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
        }
    }

    fn transform(&self) -> Transform {
        let rotation = Quat::from_euler(EulerRot::YXZ, self.yaw, -self.pitch, 0.0);
        let eye = rotation * Vec3::new(0.0, 0.0, self.distance);
        let right = rotation * Vec3::X;
        let aim = right * self.distance * self.aim_right;
        Transform::from_translation(eye + aim).looking_at(aim, Vec3::Y)
    }
}

/// The wheel is over something it steps (a cell's count): the camera leaves it alone.
/// Whatever takes the wheel sets this before [`orbit`] runs.
#[derive(Resource, Default)]
pub struct WheelOnCell(pub bool);

pub fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_camera_and_lights)
        .add_systems(BuildBoard, frame_board)
        .add_systems(Update, orbit.run_if(in_state(InGame)));
}

fn spawn_camera_and_lights(mut commands: Commands, settings: Res<Settings>) {
    let orbit = OrbitCamera::framed(5.0);
    commands.spawn((Camera3d::default(), orbit.transform(), orbit, Msaa::Sample4));
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
    mut cameras: Query<(&mut OrbitCamera, &mut Transform)>,
) {
    let extent = game.table.layout().extent();
    for (mut orbit, mut transform) in &mut cameras {
        *orbit = match scene.get() {
            BoardScene::Showcase => OrbitCamera::showcase(extent),
            BoardScene::Game => OrbitCamera::framed(extent),
        };
        *transform = orbit.transform();
    }
}

/// The mouse, and who else wants it this frame: egui, the side panel, a cell's count.
#[derive(SystemParam)]
pub(super) struct Pointer<'w> {
    buttons: Res<'w, ButtonInput<MouseButton>>,
    motion: Res<'w, AccumulatedMouseMotion>,
    scroll: Res<'w, AccumulatedMouseScroll>,
    egui: Option<Res<'w, EguiWantsInput>>,
    over_panel: Option<Res<'w, super::game_panel::PointerOverPanel>>,
    wheel_on_cell: Option<Res<'w, WheelOnCell>>,
}

pub(super) fn orbit(
    mut cameras: Query<(&mut OrbitCamera, &mut Transform)>,
    keys: Res<ButtonInput<KeyCode>>,
    bindings: Res<Keys>,
    pointer: Pointer,
    time: Res<Time>,
) {
    let Pointer {
        buttons,
        motion,
        scroll,
        egui,
        over_panel,
        wheel_on_cell,
    } = pointer;
    let over_overlay = egui.as_ref().is_some_and(|e| e.wants_any_pointer_input())
        || over_panel.is_some_and(|over| over.0);
    // Over a cell whose count the wheel steps, the wheel is the count's.
    let wheel_taken = over_overlay || wheel_on_cell.is_some_and(|on| on.0);
    let keyboard_busy = egui.as_ref().is_some_and(|e| e.wants_any_keyboard_input());
    let dt = time.delta_secs().min(0.1);
    for (mut orbit, mut transform) in &mut cameras {
        let before = *orbit;
        if !over_overlay
            && (buttons.pressed(MouseButton::Right) || buttons.pressed(MouseButton::Middle))
        {
            orbit.yaw -= motion.delta.x * 0.006;
            orbit.pitch += motion.delta.y * 0.006;
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
                *orbit = OrbitCamera::framed(orbit.extent);
            }
        }
        orbit.pitch = orbit.pitch.clamp(0.15, 1.5);
        let framing = framing_distance(orbit.extent);
        orbit.distance = orbit.distance.clamp(framing * 0.3, framing * 2.5);
        if orbit.yaw != before.yaw
            || orbit.pitch != before.pitch
            || orbit.distance != before.distance
        {
            *transform = orbit.transform();
        }
    }
}
