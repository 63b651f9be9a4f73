//! Where a finger would tap, for the browser test's phone (`?trace` on the page,
//! `TABULA_TRACE=1` on the desktop): `tabula-trace: …` lines in the log saying which
//! screen is up, how many moves are played, where the camera is, and where each tap target
//! is on screen in points (CSS pixels) — the buttons the view marks, and the cells the
//! player may pick — with `gone NAME` when one is no longer drawn, and `frame` when a
//! frame's news is complete; and what became of each touch (`input frame N […]`). A test
//! then taps what a person would see, without knowing the layout.

use crate::current_game::CurrentGame;
use crate::phase::{BoardShows, Pause, TurnPhase, phase_now};
use crate::screens::Screen;
use bevy::prelude::*;
use bevy_egui::egui;
use std::collections::BTreeMap;
use std::sync::{Mutex, OnceLock};

pub fn plugin(app: &mut App) {
    if !enabled() {
        return;
    }
    app.add_systems(
        Last,
        (
            report_screen,
            report_pause,
            report_moves,
            report_camera,
            mark_offered_cells,
            report_targets,
            report_input,
        )
            .chain(),
    );
}

/// Whether tracing was asked for.
pub fn enabled() -> bool {
    static ENABLED: OnceLock<bool> = OnceLock::new();
    *ENABLED.get_or_init(|| {
        #[cfg(target_arch = "wasm32")]
        return crate::web_page::param("trace").is_some();
        #[cfg(not(target_arch = "wasm32"))]
        std::env::var("TABULA_TRACE").is_ok_and(|v| v == "1")
    })
}

/// The targets drawn this frame, and those the log last said were shown.
#[derive(Default)]
struct Targets {
    drawn: BTreeMap<String, (i32, i32)>,
    shown: BTreeMap<String, (i32, i32)>,
}

fn targets() -> &'static Mutex<Targets> {
    static TARGETS: OnceLock<Mutex<Targets>> = OnceLock::new();
    TARGETS.get_or_init(Mutex::default)
}

/// `name` is drawn this frame, its centre where `rect` is.
pub fn mark(name: &str, rect: egui::Rect) {
    if !enabled() {
        return;
    }
    let centre = rect.center();
    if let Ok(mut targets) = targets().lock() {
        let at = (centre.x.round() as i32, centre.y.round() as i32);
        targets.drawn.insert(name.to_string(), at);
    }
}

/// Says what appeared or moved since the last frame, and what went; a frame in which
/// nothing was drawn (no egui pass ran) changes nothing.
fn report_targets() {
    let Ok(mut targets) = targets().lock() else {
        return;
    };
    if targets.drawn.is_empty() {
        return;
    }
    let drawn = std::mem::take(&mut targets.drawn);
    let mut said = false;
    for (name, at) in &drawn {
        if targets.shown.get(name) != Some(at) {
            info!("tabula-trace: at {name} {} {}", at.0, at.1);
            said = true;
        }
    }
    for name in targets.shown.keys() {
        if !drawn.contains_key(name) {
            info!("tabula-trace: gone {name}");
            said = true;
        }
    }
    targets.shown = drawn;
    // The frame's news is whole: a test may look now.
    if said {
        info!("tabula-trace: frame");
    }
}

fn report_screen(screen: Option<Res<State<Screen>>>) {
    if let Some(screen) = screen.filter(|s| s.is_changed()) {
        info!("tabula-trace: screen {:?}", screen.get());
    }
}

fn report_pause(pause: Option<Res<State<Pause>>>) {
    if let Some(pause) = pause.filter(|p| p.is_changed()) {
        info!("tabula-trace: pause {:?}", pause.get());
    }
}

/// The moves played so far in the game on the board.
fn report_moves(game: Option<Res<CurrentGame>>, mut said: Local<Option<usize>>) {
    let moves = game.map(|game| game.table.as_match().record().len());
    if moves != *said {
        *said = moves;
        if let Some(moves) = moves {
            info!("tabula-trace: moves {moves}");
        }
    }
}

/// The camera's turn, tilt and distance in a game, when a drag or a pinch changes them.
fn report_camera(
    cameras: Query<&crate::view::OrbitCamera>,
    screen: Option<Res<State<Screen>>>,
    mut said: Local<String>,
) {
    if screen.is_none_or(|s| *s.get() != Screen::Playing) {
        return;
    }
    let Ok(orbit) = cameras.single() else {
        return;
    };
    let now = format!(
        "yaw {:.3} pitch {:.3} distance {:.2}",
        orbit.yaw, orbit.pitch, orbit.distance
    );
    if *said != now {
        info!("tabula-trace: camera {now}");
        *said = now;
    }
}

/// The cells a person may pick now, where they show on screen (`cell LABEL`).
fn mark_offered_cells(
    game: Option<Res<CurrentGame>>,
    board: Res<BoardShows>,
    pause: Option<Res<State<Pause>>>,
    cameras: Query<(&Camera, &GlobalTransform), With<crate::view::OrbitCamera>>,
) {
    let Some(game) = game else {
        return;
    };
    // As of now, as the tiles are lit: a move played this frame offers nothing yet.
    if phase_now(&game, &board) != TurnPhase::PersonToMove
        || pause.is_some_and(|p| *p.get() == Pause::Paused)
    {
        return;
    }
    let Ok((camera, transform)) = cameras.single() else {
        return;
    };
    let table = game.table.as_ref();
    let layout = table.layout();
    let mut cells: Vec<usize> = table.choices().iter().filter_map(|c| c.cell).collect();
    cells.sort_unstable();
    cells.dedup();
    for cell in cells {
        let world = crate::pieces::cell_position(layout, cell);
        if let (Ok(at), Some(info)) = (
            camera.world_to_viewport(transform, world),
            layout.cells.get(cell),
        ) {
            let rect = egui::Rect::from_center_size(egui::pos2(at.x, at.y), egui::Vec2::ZERO);
            mark(&format!("cell {}", info.label), rect);
        }
    }
}

/// What became of each touch this frame: the touch, picking's press and click, and the
/// player's input it made (for finding where a tap is held up).
fn report_input(
    mut touches: MessageReader<bevy::input::touch::TouchInput>,
    mut presses: MessageReader<Pointer<Press>>,
    mut clicks: MessageReader<Pointer<Click>>,
    mut inputs: MessageReader<crate::turn::PlayerInput>,
    hover: Res<bevy::picking::hover::HoverMap>,
    egui: Option<Res<bevy_egui::input::EguiWantsInput>>,
    mut frame: Local<u64>,
) {
    *frame += 1;
    let mut news: Vec<String> = Vec::new();
    for touch in touches.read() {
        news.push(format!(
            "touch {} {:?} {:.0} {:.0}",
            touch.id, touch.phase, touch.position.x, touch.position.y
        ));
    }
    for press in presses.read() {
        news.push(format!("press {:?} {}", press.pointer_id, press.entity));
    }
    for click in clicks.read() {
        news.push(format!("click {:?} {}", click.pointer_id, click.entity));
    }
    for input in inputs.read() {
        news.push(format!("input {input:?}"));
    }
    if news.is_empty() {
        return;
    }
    let hovered: Vec<String> = hover
        .iter()
        .map(|(pointer, hits)| format!("{pointer:?}:{}", hits.len()))
        .collect();
    let over = egui.is_some_and(|e| e.is_pointer_over_area());
    info!(
        "tabula-trace: input frame {} [{}] hover [{}] over-egui {over}",
        *frame,
        news.join("; "),
        hovered.join(" ")
    );
}
