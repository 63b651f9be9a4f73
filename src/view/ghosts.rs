//! The move being built, on the board: once its steps make a complete move, each cell it
//! would change shows the piece it would leave there, see-through, in place of the piece
//! standing there now (hidden meanwhile), with its height over stacks; a cell it empties
//! shows its piece hidden and "0" for stacks. What the move does comes from the rules,
//! which play it on a copy ([`crate::table::Table::move_preview`]).

use super::models::{PieceAssets, attach_parts, model};
use crate::AppSystems;
use crate::current_game::CurrentGame;
use crate::pieces::{PieceOf, cell_position};
use crate::screens::InGame;
use crate::table::{BoardLayout, Ghost, PieceLook};
use bevy::prelude::*;

/// A see-through piece of the move being built, on its cell.
#[derive(Component, Clone, Copy, Debug)]
pub struct GhostPiece {
    pub cell: usize,
}

/// What the board shows of the move being built: its cells, and what it was built from
/// (the game, its revision and the steps), so it is worked out again only on a change.
#[derive(Resource, Default, Debug)]
pub struct MovePreview {
    pub ghosts: Vec<Ghost>,
    built_from: Option<(u64, u64, Vec<String>)>,
}

impl MovePreview {
    /// The piece the move would leave on `cell`, if the move changes it.
    pub fn at(&self, cell: usize) -> Option<&Ghost> {
        self.ghosts.iter().find(|ghost| ghost.cell == cell)
    }
}

pub fn plugin(app: &mut App) {
    app.init_resource::<MovePreview>()
        .add_systems(OnExit(InGame), |mut commands: Commands| {
            commands.insert_resource(MovePreview::default());
        })
        .add_systems(
            Update,
            (preview_move, hide_previewed_pieces)
                .chain()
                .after(AppSystems::Animate)
                .run_if(in_state(InGame)),
        );
}

/// Works the preview out again when the steps or the position change, and draws it.
fn preview_move(
    mut commands: Commands,
    game: Option<Res<CurrentGame>>,
    assets: Option<Res<PieceAssets>>,
    mut preview: ResMut<MovePreview>,
    drawn: Query<Entity, With<GhostPiece>>,
) {
    let (Some(game), Some(assets)) = (game, assets) else {
        return;
    };
    let built_from = (
        game.id,
        game.table.as_match().revision(),
        game.table.chosen(),
    );
    if preview.built_from.as_ref() == Some(&built_from) {
        return;
    }
    for entity in &drawn {
        commands.entity(entity).despawn();
    }
    preview.ghosts = game.table.move_preview().unwrap_or_default();
    preview.built_from = Some(built_from);
    let layout = game.table.layout();
    for ghost in &preview.ghosts {
        let Some(look) = ghost.after else {
            continue;
        };
        spawn_ghost(&mut commands, &assets, &look, ghost.cell, layout);
    }
}

fn spawn_ghost(
    commands: &mut Commands,
    assets: &PieceAssets,
    look: &PieceLook,
    cell: usize,
    layout: &BoardLayout,
) {
    let mut ghost = commands.spawn((
        Name::new("ghost piece"),
        GhostPiece { cell },
        Transform::from_translation(cell_position(layout, cell)),
        Visibility::default(),
        DespawnOnExit(InGame),
    ));
    attach_parts(&mut ghost, model(assets, look, &assets.ghost));
}

/// The pieces standing on the cells the move changes step aside for their ghosts. Done
/// every frame, so pieces spawned anew (after a jump or an animation) follow at once.
fn hide_previewed_pieces(
    preview: Res<MovePreview>,
    // Leaving pieces too: one hidden as the move was played must not leave unseen.
    mut pieces: Query<(&PieceOf, &mut Visibility)>,
) {
    for (piece, mut visibility) in &mut pieces {
        let wanted = if preview.at(piece.cell).is_some() {
            Visibility::Hidden
        } else {
            Visibility::Inherited
        };
        // Only a real change, so change detection stays quiet while nothing happens.
        visibility.set_if_neq(wanted);
    }
}
