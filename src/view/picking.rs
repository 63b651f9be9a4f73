//! Clicks on the board: a click or a tap on a tile or on a piece (any part of its model,
//! or of the see-through piece of the move being built) chooses that cell. A finger that
//! travelled turned the board, and its lifting is not a tap.

use super::board::CellTile;
use super::ghosts::GhostPiece;
use crate::phase::Pause;
use crate::pieces::PieceOf;
use crate::screens::Screen;
use crate::turn::PlayerInput;
use bevy::ecs::system::SystemParam;
use bevy::picking::pointer::PointerId;
use bevy::prelude::*;
use bevy_egui::input::EguiWantsInput;

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

/// How far each finger on the screen, or just lifted, has been from where it came down.
#[derive(Default)]
struct FingerTravel(std::collections::HashMap<u64, f32>);

impl FingerTravel {
    fn track(&mut self, touches: &Touches) {
        // A new touch begins a new gesture: fingers lifted before it are done with (the
        // page numbers every finger anew, so the map would only grow).
        if touches.any_just_pressed() {
            self.0.retain(|id, _| touches.get_pressed(*id).is_some());
        }
        for touch in touches.iter_just_pressed() {
            self.0.insert(touch.id(), 0.0);
        }
        for touch in touches.iter().chain(touches.iter_just_released()) {
            let travel = self.0.entry(touch.id()).or_default();
            *travel = travel.max(touch.distance().length());
        }
    }

    fn dragged(&self, pointer: &PointerId) -> bool {
        match pointer {
            PointerId::Touch(id) => self.0.get(id).is_some_and(|&t| t > TAP_SLOP),
            _ => false,
        }
    }
}

fn click_cells(
    mut clicks: MessageReader<Pointer<Click>>,
    pause: Res<State<Pause>>,
    owners: CellOwners,
    egui: Option<Res<EguiWantsInput>>,
    touches: Res<Touches>,
    mut travel: Local<FingerTravel>,
    mut input: MessageWriter<PlayerInput>,
) {
    travel.track(&touches);
    // A click on a window over the board (a cell's − and +) is the window's, not the
    // cell's under it.
    let over_window = egui.is_some_and(|egui| egui.is_pointer_over_area());
    for click in clicks.read() {
        // Clicks made while the menu is open are read and dropped, not kept for later.
        if *pause.get() == Pause::Paused
            || click.event.button != PointerButton::Primary
            || over_window
            || travel.dragged(&click.pointer_id)
        {
            continue;
        }
        if let Some(cell) = owners.cell_of(click.entity) {
            input.write(PlayerInput::ClickCell(cell));
            // One click, one cell: the same click also reaches the tile under the piece.
            break;
        }
    }
}
