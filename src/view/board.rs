//! The board in 3D: a wooden base, one tile per cell (squares, hexes, discs or spots),
//! the lines between cells, and the tile colours that show legal targets, the selection,
//! the last move and marks.

use super::loading::BoardTextures;
use crate::AppSystems;
use crate::bot::Hint;
use crate::current_game::CurrentGame;
use crate::lesson::Lesson;
use crate::phase::{BoardShows, TurnPhase, phase_now};
use crate::screens::{BoardPart, BuildBoard, board_on_screen};
use crate::table::{BoardLayout, BoardShape, LinkKind, Mark};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use std::f32::consts::{FRAC_PI_2, TAU};

/// A cell's tile; clicks on it choose the cell.
#[derive(Component, Clone, Copy, Debug)]
pub struct CellTile {
    pub cell: usize,
    pub base: Color,
}

/// A mark ring drawn around a cell (threatened, starving, attracted...).
#[derive(Component)]
struct MarkRing;

/// The cell under the pointer, for hints.
#[derive(Resource, Default, Clone, Copy, Debug, PartialEq, Eq)]
pub struct HoveredCell(pub Option<usize>);

const TILE_TOP: f32 = 0.0;

pub fn plugin(app: &mut App) {
    app.init_resource::<HoveredCell>()
        .add_systems(BuildBoard, spawn_board)
        .add_systems(
            Update,
            (colour_tiles, draw_marks)
                .after(AppSystems::Animate)
                .run_if(board_on_screen),
        );
}

fn spawn_board(
    mut commands: Commands,
    game: Res<CurrentGame>,
    textures: Option<Res<BoardTextures>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut hovered: ResMut<HoveredCell>,
) {
    // A new board: a finger's last cell (kept, see `leave_cell`) was another game's.
    *hovered = HoveredCell::default();
    let layout = game.table.layout();
    let wood = materials.add(StandardMaterial {
        // The texture carries the colour; without it, plain wood brown.
        base_color: if textures.is_some() {
            Color::WHITE
        } else {
            Color::srgb(0.62, 0.45, 0.30)
        },
        base_color_texture: textures.as_ref().map(|t| t.wood.clone()),
        perceptual_roughness: 0.8,
        ..default()
    });
    let extent = layout.extent();
    // The base: a slab under square and hex boards, a round table under the others.
    let base_mesh = match layout.shape {
        BoardShape::Squares | BoardShape::Hexes => {
            meshes.add(Cuboid::new(extent * 2.0 - 0.2, 0.3, extent * 2.0 - 0.2))
        }
        BoardShape::Graph | BoardShape::Rings => meshes.add(Cylinder::new(extent + 0.3, 0.3)),
    };
    commands.spawn((
        Mesh3d(base_mesh),
        MeshMaterial3d(wood.clone()),
        Transform::from_xyz(0.0, TILE_TOP - 0.2, 0.0),
        Pickable::IGNORE,
        BoardPart,
    ));
    spawn_tiles(&mut commands, layout, &mut meshes, &mut materials);
    spawn_lines(&mut commands, layout, &mut meshes, &mut materials);
}

pub(super) fn tile_colour(layout: &BoardLayout, cell: usize) -> Color {
    match layout.shape {
        BoardShape::Squares => {
            let pos = layout.cells[cell].pos;
            let dark = ((pos.x + 10.0).round() as i32 + (pos.y + 10.0).round() as i32) % 2 == 0;
            if dark {
                Color::srgb(0.42, 0.30, 0.20)
            } else {
                Color::srgb(0.80, 0.66, 0.48)
            }
        }
        BoardShape::Hexes => Color::srgb(0.74, 0.60, 0.44),
        BoardShape::Graph => Color::srgb(0.80, 0.70, 0.55),
        BoardShape::Rings => Color::srgb(0.30, 0.24, 0.20),
    }
}

fn spawn_tiles(
    commands: &mut Commands,
    layout: &BoardLayout,
    meshes: &mut Assets<Mesh>,
    materials: &mut Assets<StandardMaterial>,
) {
    let s = layout.spacing;
    let (mesh, rotation) = match layout.shape {
        BoardShape::Squares => (meshes.add(Cuboid::new(0.96, 0.08, 0.96)), Quat::IDENTITY),
        BoardShape::Hexes => (
            meshes.add(Extrusion::new(RegularPolygon::new(0.55, 6), 0.08)),
            Quat::from_rotation_x(-FRAC_PI_2),
        ),
        BoardShape::Graph => (meshes.add(Cylinder::new(0.4, 0.08)), Quat::IDENTITY),
        BoardShape::Rings => (meshes.add(Cylinder::new(0.3 * s, 0.06)), Quat::IDENTITY),
    };
    for (cell, info) in layout.cells.iter().enumerate() {
        let base = tile_colour(layout, cell);
        let material = materials.add(StandardMaterial {
            base_color: base,
            perceptual_roughness: 0.7,
            ..default()
        });
        commands
            .spawn((
                Name::new(format!("cell {}", info.label)),
                CellTile { cell, base },
                Mesh3d(mesh.clone()),
                MeshMaterial3d(material),
                Transform::from_xyz(info.pos.x, TILE_TOP - 0.04, info.pos.y)
                    .with_rotation(rotation),
                BoardPart,
            ))
            .observe(hover_cell)
            .observe(leave_cell);
    }
}

/// A finger's cell is the one it taps (see the board's picking), not each it crosses or
/// lies under the panel it scrolls.
fn hover_cell(over: On<Pointer<Over>>, tiles: Query<&CellTile>, mut hovered: ResMut<HoveredCell>) {
    if over.pointer_id.is_touch() {
        return;
    }
    if let Ok(tile) = tiles.get(over.entity) {
        hovered.0 = Some(tile.cell);
    }
}

/// A finger lifted from a cell leaves its hint showing: a touch screen has no hover, and a
/// tap is how a player there asks what is on a cell. The next cell tapped replaces it.
fn leave_cell(out: On<Pointer<Out>>, tiles: Query<&CellTile>, mut hovered: ResMut<HoveredCell>) {
    if out.pointer_id.is_touch() {
        return;
    }
    if let Ok(tile) = tiles.get(out.entity)
        && hovered.0 == Some(tile.cell)
    {
        hovered.0 = None;
    }
}

/// A thin bar from `a` to `b` on the board plane.
fn bar(a: Vec2, b: Vec2, width: f32) -> (Cuboid, Transform) {
    let delta = b - a;
    let middle = (a + b) / 2.0;
    let angle = delta.y.atan2(delta.x);
    (
        Cuboid::new(delta.length(), 0.02, width),
        Transform::from_xyz(middle.x, TILE_TOP + 0.001, middle.y)
            .with_rotation(Quat::from_rotation_y(-angle)),
    )
}

fn spawn_lines(
    commands: &mut Commands,
    layout: &BoardLayout,
    meshes: &mut Assets<Mesh>,
    materials: &mut Assets<StandardMaterial>,
) {
    let ink = |materials: &mut Assets<StandardMaterial>, colour: Color| {
        materials.add(StandardMaterial {
            base_color: colour,
            perceptual_roughness: 0.9,
            ..default()
        })
    };
    let graph_ink = ink(materials, Color::srgb(0.52, 0.40, 0.28));
    let cycle_ink = ink(materials, Color::srgb(0.85, 0.75, 0.55));
    let column_ink = ink(materials, Color::srgb(0.70, 0.60, 0.45));
    let spiral_ink = ink(materials, Color::srgb(0.50, 0.56, 0.66));
    let mut segment = |commands: &mut Commands,
                       a: Vec2,
                       b: Vec2,
                       width: f32,
                       material: &Handle<StandardMaterial>| {
        let (cuboid, transform) = bar(a, b, width);
        commands.spawn((
            Mesh3d(meshes.add(cuboid)),
            MeshMaterial3d(material.clone()),
            transform,
            Pickable::IGNORE,
            BoardPart,
        ));
    };
    for link in &layout.links {
        let (a, b) = (layout.cells[link.a].pos, layout.cells[link.b].pos);
        match (layout.shape, link.kind) {
            (BoardShape::Rings, LinkKind::Cycle) => {} // drawn as whole circles below
            (BoardShape::Rings, LinkKind::Spiral) => {
                // A spiral arc: radius and angle change together between the two spaces.
                let (ra, rb) = (a.length(), b.length());
                let (ta, mut tb) = (a.y.atan2(a.x), b.y.atan2(b.x));
                if tb - ta > TAU / 2.0 {
                    tb -= TAU;
                } else if ta - tb > TAU / 2.0 {
                    tb += TAU;
                }
                let steps = 6;
                let point = |i: usize| {
                    let t = i as f32 / steps as f32;
                    let (r, theta) = (ra + (rb - ra) * t, ta + (tb - ta) * t);
                    Vec2::new(r * theta.cos(), r * theta.sin())
                };
                for i in 0..steps {
                    segment(commands, point(i), point(i + 1), 0.025, &spiral_ink);
                }
            }
            (BoardShape::Rings, _) => segment(commands, a, b, 0.05, &column_ink),
            _ => segment(commands, a, b, 0.035, &graph_ink),
        }
    }
    if layout.shape == BoardShape::Rings {
        for cycle in 1..=8 {
            let radius = (9 - cycle) as f32;
            commands.spawn((
                Mesh3d(meshes.add(Torus::new(radius - 0.03, radius + 0.03))),
                MeshMaterial3d(cycle_ink.clone()),
                Transform::from_xyz(0.0, TILE_TOP, 0.0).with_scale(Vec3::new(1.0, 0.3, 1.0)),
                Pickable::IGNORE,
                BoardPart,
            ));
        }
    }
}

/// The board on screen and the game it shows, and whether its tiles were just built (a new
/// game's board, a lesson step's), which is then drawn though nothing else changed.
#[derive(SystemParam)]
struct ShownBoard<'w, 's> {
    game: Res<'w, CurrentGame>,
    shows: Res<'w, BoardShows>,
    new_tiles: Query<'w, 's, (), Added<CellTile>>,
}

impl ShownBoard<'_, '_> {
    fn changed(&self) -> bool {
        self.game.is_changed() || !self.new_tiles.is_empty()
    }
}

/// What points at cells besides the move: a bot's hint and a lesson's words.
#[derive(SystemParam)]
struct Pointers<'w> {
    hint: Option<Res<'w, Hint>>,
    lesson: Option<Res<'w, Lesson>>,
}

/// Tile colours: the selection, a hint, a lesson's cells, then legal targets, then the last
/// move, over the base.
fn colour_tiles(
    shown_board: ShownBoard,
    hovered: Res<HoveredCell>,
    pointers: Pointers,
    mut shown: Local<(Vec<usize>, Vec<usize>, Option<TurnPhase>)>,
    tiles: Query<(&CellTile, &MeshMaterial3d<StandardMaterial>)>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let game = &shown_board.game;
    let hinted = pointers.hint.map(|h| h.cells.clone()).unwrap_or_default();
    // The cells a lesson's words talk about.
    let pointed = pointers.lesson.map(|l| l.cells.clone()).unwrap_or_default();
    // As of now, not the frame's start: a move played this frame offers nothing yet.
    let phase = phase_now(game, &shown_board.shows);
    if !shown_board.changed()
        && !hovered.is_changed()
        && shown.0 == hinted
        && shown.1 == pointed
        && shown.2 == Some(phase)
    {
        return;
    }
    *shown = (hinted.clone(), pointed.clone(), Some(phase));
    let table = game.table.as_ref();
    let selected = table.selected_cells();
    let offered: Vec<usize> = if phase == TurnPhase::PersonToMove {
        table.choices().iter().filter_map(|c| c.cell).collect()
    } else {
        Vec::new()
    };
    let last = table.last_move_cells();
    for (tile, material) in &tiles {
        let cell = tile.cell;
        let (colour, glow) = if selected.contains(&cell) {
            (Color::srgb(0.95, 0.80, 0.25), 0.35)
        } else if hinted.contains(&cell) {
            (tile.base.mix(&Color::srgb(0.70, 0.40, 0.95), 0.65), 0.25)
        } else if pointed.contains(&cell) {
            (tile.base.mix(&Color::srgb(0.20, 0.80, 0.85), 0.60), 0.22)
        } else if offered.contains(&cell) {
            (tile.base.mix(&Color::srgb(0.35, 0.85, 0.45), 0.55), 0.18)
        } else if last.contains(&cell) {
            (tile.base.mix(&Color::srgb(0.45, 0.65, 0.95), 0.45), 0.05)
        } else {
            (tile.base, 0.0)
        };
        let colour = if hovered.0 == Some(cell) {
            colour.lighter(0.08)
        } else {
            colour
        };
        if let Some(mut material) = materials.get_mut(&material.0) {
            material.base_color = colour;
            material.emissive = LinearRgba::from(colour) * glow;
        }
    }
}

/// The ring mesh and one material per kind of mark, then the lesson's pointer.
type Rings = (Handle<Mesh>, [Handle<StandardMaterial>; 6]);

/// The rings, made the first time a mark is drawn.
#[derive(SystemParam)]
struct MarkAssets<'w, 's> {
    meshes: ResMut<'w, Assets<Mesh>>,
    materials: ResMut<'w, Assets<StandardMaterial>>,
    made: Local<'s, Option<Rings>>,
}

impl MarkAssets<'_, '_> {
    fn get(&mut self) -> &Rings {
        let (meshes, materials) = (&mut self.meshes, &mut self.materials);
        self.made.get_or_insert_with(|| {
            let mut ink = |r: f32, g: f32, b: f32| {
                materials.add(StandardMaterial {
                    base_color: Color::srgb(r, g, b),
                    emissive: LinearRgba::rgb(r, g, b) * 0.6,
                    ..default()
                })
            };
            (
                meshes.add(Torus::new(0.40, 0.46)),
                [
                    ink(0.90, 0.20, 0.15),
                    ink(0.95, 0.75, 0.20),
                    ink(0.95, 0.55, 0.10),
                    ink(0.60, 0.30, 0.80),
                    ink(0.20, 0.60, 0.95),
                    ink(0.20, 0.85, 0.90),
                ],
            )
        })
    }
}

/// Rings around marked cells, and wider ones around the cells a lesson's words talk about
/// (a piece hides its tile's colour), redrawn when the position changes.
fn draw_marks(
    mut commands: Commands,
    shown_board: ShownBoard,
    lesson: Option<Res<Lesson>>,
    rings: Query<Entity, With<MarkRing>>,
    mut assets: MarkAssets,
    mut shown_for: Local<Option<(u64, u64)>>,
) {
    let game = &shown_board.game;
    // Marks show the position once the board has caught up with it, and only then.
    let showing = shown_board.shows.settled(game).then(|| game.position());
    if !shown_board.changed() && *shown_for == showing {
        return;
    }
    *shown_for = showing;
    for ring in &rings {
        commands.entity(ring).despawn();
    }
    if showing.is_none() {
        return;
    }
    let layout = game.table.layout();
    let (mesh, inks) = assets.get();
    let marks = game.table.marks().into_iter().map(|(cell, mark)| {
        let ink = match mark {
            Mark::Threatened => 0,
            Mark::FollowUp => 1,
            Mark::Involved => 2,
            Mark::Starving => 3,
            Mark::Attracted => 4,
        };
        (cell, ink, 1.0)
    });
    let pointed = lesson
        .iter()
        .flat_map(|l| l.cells.clone())
        .map(|cell| (cell, 5, 1.25));
    for (cell, ink, size) in marks.chain(pointed) {
        let Some(info) = layout.cells.get(cell) else {
            continue;
        };
        let scale = layout.spacing * size;
        commands.spawn((
            MarkRing,
            Mesh3d(mesh.clone()),
            MeshMaterial3d(inks[ink].clone()),
            Transform::from_xyz(info.pos.x, TILE_TOP + 0.02, info.pos.y)
                .with_scale(Vec3::new(scale, 0.5, scale)),
            Pickable::IGNORE,
            BoardPart,
        ));
    }
}
