//! Clicks on the board: a click or a tap on a tile or on a piece (any part of its model,
//! or of the see-through piece of the move being built) chooses that cell. A tap is read
//! from the finger (see `FingerTaps`); a finger that travelled turned the board, and its
//! lifting is not a tap.

use super::board::{CellTile, HoveredCell};
use super::ghosts::GhostPiece;
use super::panel_area::PointerOverPanel;
use crate::phase::Pause;
use crate::pieces::PieceOf;
use crate::screens::Screen;
use crate::turn::PlayerInput;
use bevy::ecs::system::SystemParam;
use bevy::picking::pointer::PointerId;
use bevy::prelude::*;
use bevy_egui::input::EguiWantsInput;
use bevy_egui::{EguiContexts, egui};
use std::collections::HashMap;

pub fn plugin(app: &mut App) {
    app.add_systems(Update, click_cells.run_if(in_state(Screen::Playing)));
}

/// What on the board stands for a cell: its tile, a piece on it, the move's ghost there.
#[derive(SystemParam)]
pub struct CellOwners<'w, 's> {
    tiles: Query<'w, 's, &'static CellTile>,
    pieces: Query<'w, 's, &'static PieceOf>,
    ghosts: Query<'w, 's, &'static GhostPiece>,
    parents: Query<'w, 's, &'static ChildOf>,
}

impl CellOwners<'_, '_> {
    /// The cell of the tile or piece a mesh hit belongs to (walking up from the mesh).
    pub fn cell_of(&self, mut entity: Entity) -> Option<usize> {
        loop {
            if let Ok(tile) = self.tiles.get(entity) {
                return Some(tile.cell);
            }
            if let Ok(piece) = self.pieces.get(entity) {
                return Some(piece.cell);
            }
            if let Ok(ghost) = self.ghosts.get(entity) {
                return Some(ghost.cell);
            }
            entity = self.parents.get(entity).ok()?.parent();
        }
    }
}

/// How far a finger may wander, in points, and still tap rather than drag.
const TAP_SLOP: f32 = 12.0;

/// The fingers on the screen, or just lifted: how far each has been from where it came
/// down, and the cell (and its distance from the camera) it came down on.
///
/// A tap is read from a finger's press and its lifting, not from picking's click: bevy's
/// picking clicks only where the hover of the frame before saw the finger, and a quick tap,
/// whose touch and lifting reach the same frame, has no frame before (in a page that draws
/// only on input, every tap of a test's and many of a person's).
#[derive(Default)]
struct FingerTaps {
    travel: HashMap<u64, f32>,
    came_down_on: HashMap<u64, (usize, f32)>,
}

impl FingerTaps {
    fn track(&mut self, touches: &Touches) {
        // A new touch begins a new gesture: fingers lifted before it are done with (the
        // page numbers every finger anew, so the maps would only grow).
        if touches.any_just_pressed() {
            self.travel
                .retain(|id, _| touches.get_pressed(*id).is_some());
            self.came_down_on
                .retain(|id, _| touches.get_pressed(*id).is_some());
        }
        for touch in touches.iter_just_pressed() {
            self.travel.insert(touch.id(), 0.0);
        }
        for touch in touches.iter().chain(touches.iter_just_released()) {
            let travel = self.travel.entry(touch.id()).or_default();
            *travel = travel.max(touch.distance().length());
        }
    }

    /// A finger pressed on `cell`, `depth` from the camera: the nearest thing it came down
    /// on is what it taps (a piece before the tile under it).
    fn pressed(&mut self, finger: u64, cell: usize, depth: f32) {
        let nearest = self.came_down_on.entry(finger).or_insert((cell, depth));
        if depth < nearest.1 {
            *nearest = (cell, depth);
        }
    }

    /// The cell a lifted finger tapped: none if it travelled (it turned the board) or came
    /// down on no cell.
    fn lifted(&mut self, finger: u64) -> Option<usize> {
        let (cell, _) = self.came_down_on.remove(&finger)?;
        let travelled = self.travel.get(&finger).is_some_and(|&t| t > TAP_SLOP);
        (!travelled).then_some(cell)
    }
}

/// The board's input this frame: clicks and presses on its meshes, and the fingers.
#[derive(SystemParam)]
struct BoardPointers<'w, 's> {
    clicks: MessageReader<'w, 's, Pointer<Click>>,
    presses: MessageReader<'w, 's, Pointer<Press>>,
    touches: Res<'w, Touches>,
    taps: Local<'s, FingerTaps>,
}

/// What lies over the board: the windows, and the panel beside or below it.
#[derive(SystemParam)]
struct OverTheBoard<'w, 's> {
    egui: Option<Res<'w, EguiWantsInput>>,
    contexts: EguiContexts<'w, 's>,
    panel: Res<'w, PointerOverPanel>,
}

impl OverTheBoard<'_, '_> {
    /// Whether a point on screen, in points, is on a window or the panel. Asked where a
    /// finger came down: egui has not yet seen this frame's touch, and a lifted finger
    /// leaves it no pointer. The background layer spans the screen, board included; the
    /// panel drawn on it is asked for its own place.
    fn covers(&mut self, at: Vec2) -> bool {
        let at = egui::pos2(at.x, at.y);
        let on_window = self.contexts.ctx_mut().is_ok_and(|ctx| {
            ctx.layer_id_at(at)
                .is_some_and(|layer| layer.order != egui::Order::Background)
        });
        on_window || self.panel.covers(at)
    }
}

fn click_cells(
    mut pointers: BoardPointers,
    mut over: OverTheBoard,
    pause: Res<State<Pause>>,
    owners: CellOwners,
    mut hovered: ResMut<HoveredCell>,
    mut input: MessageWriter<PlayerInput>,
) {
    let BoardPointers {
        clicks,
        presses,
        touches,
        taps,
    } = &mut pointers;
    taps.track(touches);
    for press in presses.read() {
        if let PointerId::Touch(finger) = press.pointer_id
            && press.event.button == PointerButton::Primary
            && let Some(cell) = owners.cell_of(press.entity)
        {
            taps.pressed(finger, cell, press.event.hit.depth);
        }
    }
    // Taps and clicks made while the menu is open are read and dropped, not kept for later.
    let paused = *pause.get() == Pause::Paused;
    let mut chosen = None;
    for touch in touches.iter_just_released() {
        let tapped = taps.lifted(touch.id());
        let covered = over.covers(touch.start_position());
        #[cfg(feature = "dev")]
        if crate::dev::trace::enabled() {
            info!(
                "tabula-trace: lifted {} on {tapped:?}, covered {covered}, paused {paused}",
                touch.id()
            );
        }
        if let Some(cell) = tapped
            && !paused
            && !covered
        {
            chosen = chosen.or(Some(cell));
            // What a mouse shows by hovering a cell, a finger shows by tapping it.
            hovered.0 = Some(cell);
        }
    }
    for touch in touches.iter_just_canceled() {
        taps.lifted(touch.id());
    }
    // A click on a window over the board (a cell's − and +) is the window's, not the
    // cell's under it.
    let over_window = over
        .egui
        .as_ref()
        .is_some_and(|egui| egui.is_pointer_over_area());
    let mut nearest: Option<(usize, f32)> = None;
    for click in clicks.read() {
        // A finger's tap was read from its press and lifting, above.
        if paused
            || click.pointer_id.is_touch()
            || click.event.button != PointerButton::Primary
            || over_window
        {
            continue;
        }
        // One click, one cell: the same click reaches the piece and the tile under it.
        if let Some(cell) = owners.cell_of(click.entity)
            && nearest.is_none_or(|(_, depth)| click.event.hit.depth < depth)
        {
            nearest = Some((cell, click.event.hit.depth));
        }
    }
    if let Some(cell) = chosen.or(nearest.map(|(cell, _)| cell)) {
        input.write(PlayerInput::ClickCell(cell));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::input::touch::{TouchInput, TouchPhase, touch_screen_input_system};

    /// Bevy's own touch bookkeeping, fed finger events a frame at a time.
    struct Fingers {
        app: App,
    }

    impl Fingers {
        fn new() -> Self {
            let mut app = App::new();
            app.add_message::<TouchInput>()
                .init_resource::<Touches>()
                .add_systems(Update, touch_screen_input_system);
            Self { app }
        }

        /// One frame in which these finger events arrived.
        fn frame(&mut self, events: &[(u64, TouchPhase, Vec2)]) -> &Touches {
            let window = Entity::PLACEHOLDER;
            for &(id, phase, position) in events {
                self.app.world_mut().write_message(TouchInput {
                    phase,
                    position,
                    window,
                    force: None,
                    id,
                });
            }
            self.app.update();
            self.app.world().resource::<Touches>()
        }
    }

    const AT: Vec2 = Vec2::new(40.0, 300.0);

    #[test]
    fn a_tap_whose_touch_and_lifting_reach_one_frame_taps_its_cell() {
        let mut screen = Fingers::new();
        let mut taps = FingerTaps::default();
        let touches = screen.frame(&[(4, TouchPhase::Started, AT), (4, TouchPhase::Ended, AT)]);
        taps.track(touches);
        // Picking pressed the piece and the tile under it, both cell 3.
        taps.pressed(4, 3, 9.0);
        taps.pressed(4, 3, 9.5);
        assert_eq!(taps.lifted(4), Some(3));
        // Read once: the same lifting taps nothing more.
        assert_eq!(taps.lifted(4), None);
    }

    #[test]
    fn a_finger_lifted_frames_later_taps_the_nearest_cell_it_came_down_on() {
        let mut screen = Fingers::new();
        let mut taps = FingerTaps::default();
        taps.track(screen.frame(&[(7, TouchPhase::Started, AT)]));
        // A tall stack on cell 5 stands in front of the tile of cell 12 behind it.
        taps.pressed(7, 12, 11.0);
        taps.pressed(7, 5, 8.0);
        taps.track(screen.frame(&[(7, TouchPhase::Moved, AT + Vec2::new(3.0, -2.0))]));
        taps.track(screen.frame(&[(7, TouchPhase::Ended, AT + Vec2::new(3.0, -2.0))]));
        assert_eq!(taps.lifted(7), Some(5));
    }

    #[test]
    fn a_finger_that_travelled_turned_the_board_and_taps_nothing() {
        let mut screen = Fingers::new();
        let mut taps = FingerTaps::default();
        taps.track(screen.frame(&[(2, TouchPhase::Started, AT)]));
        taps.pressed(2, 3, 9.0);
        taps.track(screen.frame(&[(2, TouchPhase::Moved, AT + Vec2::new(60.0, 0.0))]));
        // Back where it came down, but it went far on the way.
        taps.track(screen.frame(&[(2, TouchPhase::Moved, AT)]));
        taps.track(screen.frame(&[(2, TouchPhase::Ended, AT)]));
        assert_eq!(taps.lifted(2), None);
    }

    #[test]
    fn a_finger_that_came_down_off_the_board_taps_nothing() {
        let mut screen = Fingers::new();
        let mut taps = FingerTaps::default();
        taps.track(screen.frame(&[(9, TouchPhase::Started, AT), (9, TouchPhase::Ended, AT)]));
        assert_eq!(taps.lifted(9), None);
    }

    #[test]
    fn a_new_touch_forgets_fingers_lifted_before_it() {
        let mut screen = Fingers::new();
        let mut taps = FingerTaps::default();
        taps.track(screen.frame(&[(1, TouchPhase::Started, AT)]));
        taps.pressed(1, 3, 9.0);
        taps.track(screen.frame(&[(1, TouchPhase::Canceled, AT)]));
        taps.track(screen.frame(&[(2, TouchPhase::Started, AT)]));
        assert!(taps.came_down_on.is_empty() && taps.travel.len() == 1);
    }
}
