//! Clicks on the board: a click on a tile or on a piece (any part of its model) chooses
//! that cell.

use super::board::CellTile;
use crate::phase::Pause;
use crate::pieces::PieceOf;
use crate::screens::Screen;
use crate::turn::PlayerInput;
use bevy::prelude::*;

pub fn plugin(app: &mut App) {
    app.add_systems(Update, click_cells.run_if(in_state(Screen::Playing)));
}

fn click_cells(
    mut clicks: MessageReader<Pointer<Click>>,
    pause: Res<State<Pause>>,
    tiles: Query<&CellTile>,
    pieces: Query<&PieceOf>,
    parents: Query<&ChildOf>,
    mut input: MessageWriter<PlayerInput>,
) {
    for click in clicks.read() {
        // Clicks made while the menu is open are read and dropped, not kept for later.
        if *pause.get() == Pause::Paused || click.event.button != PointerButton::Primary {
            continue;
        }
        let mut entity = click.entity;
        // Walk up from the mesh that was hit to the tile or piece that owns it.
        let cell = loop {
            if let Ok(tile) = tiles.get(entity) {
                break Some(tile.cell);
            }
            if let Ok(piece) = pieces.get(entity) {
                break Some(piece.cell);
            }
            match parents.get(entity) {
                Ok(parent) => entity = parent.parent(),
                Err(_) => break None,
            }
        };
        if let Some(cell) = cell {
            input.write(PlayerInput::ClickCell(cell));
            // One click, one cell: the same click also reaches the tile under the piece.
            break;
        }
    }
}
