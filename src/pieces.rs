//! Piece entities: one per piece or stack on the board, tied to its cell and look. After
//! each move's animations a sync makes them equal to the rules state again.

use crate::current_game::CurrentGame;
use crate::screens::{BoardPart, BuildBoard};
use crate::table::{BoardLayout, PieceLook};
use bevy::prelude::*;

/// A piece or stack on the board, as the rules see it.
#[derive(Component, Clone, Debug, PartialEq)]
pub struct PieceOf {
    pub cell: usize,
    pub look: PieceLook,
    /// Order of arrival on the cell: of two pieces sharing a cell mid-move (an attacker
    /// and its target), the earlier one was there first.
    pub arrival: u64,
}

/// A piece on its way out (lifting away, fading); no longer on any cell.
#[derive(Component, Clone, Copy, Debug)]
pub struct Leaving;

/// Counts arrivals so [`PieceOf::arrival`] orders them.
#[derive(Resource, Default)]
pub struct Arrivals(pub u64);

impl Arrivals {
    pub fn take_next(&mut self) -> u64 {
        self.0 += 1;
        self.0
    }
}

pub fn plugin(app: &mut App) {
    app.init_resource::<Arrivals>()
        .add_systems(BuildBoard, spawn_pieces);
}

/// Where a piece on `cell` rests: on the board plane, which is `y = 0`.
pub fn cell_position(layout: &BoardLayout, cell: usize) -> Vec3 {
    let pos = layout.cells.get(cell).map_or(Vec2::ZERO, |c| c.pos);
    Vec3::new(pos.x, 0.0, pos.y)
}

fn spawn_pieces(mut commands: Commands, game: Res<CurrentGame>, mut arrivals: ResMut<Arrivals>) {
    let layout = game.table.layout();
    for (cell, look) in game.table.pieces() {
        spawn_piece(&mut commands, layout, cell, look, arrivals.take_next());
    }
}

pub fn spawn_piece(
    commands: &mut Commands,
    layout: &BoardLayout,
    cell: usize,
    look: PieceLook,
    arrival: u64,
) -> Entity {
    commands
        .spawn((
            Name::new("piece"),
            PieceOf {
                cell,
                look,
                arrival,
            },
            Transform::from_translation(cell_position(layout, cell)),
            Visibility::default(),
            BoardPart,
        ))
        .id()
}

/// Whether the piece entities show exactly the rules state (for tests and checks).
pub fn pieces_match(game: &CurrentGame, pieces: &[(usize, PieceLook)]) -> Result<(), String> {
    let mut wanted = game.table.pieces();
    let mut present = pieces.to_vec();
    wanted.sort_by_key(|p| p.0);
    present.sort_by_key(|p| p.0);
    if wanted == present {
        Ok(())
    } else {
        Err(format!(
            "the board shows {present:?} but the rules have {wanted:?}"
        ))
    }
}
