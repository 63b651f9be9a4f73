//! Piece models, rebuilt whenever a piece's look changes: piles of discs for stacks
//! (two-sided in Absorption), bodies with legs and pincers for adaptoids, and a sphere,
//! a crescent ring and a block for Adomoc's suns, moons and feet, crowned when prime.

use crate::config::Settings;
use crate::current_game::CurrentGame;
use crate::pieces::PieceOf;
use crate::screens::{BuildBoard, board_on_screen};
use crate::table::{GameKind, PieceLook, Shape};
use bevy::prelude::*;
use std::f32::consts::{FRAC_PI_2, TAU};

/// Discs drawn at most per stack; taller stacks also show their height as a label.
pub const MAX_DRAWN_DISCS: u16 = 12;
pub const DISC_HEIGHT: f32 = 0.09;

/// The materials a piece is drawn in: solid on the board, see-through for the move
/// being built.
pub(super) struct PieceMaterials {
    colours: Vec<Handle<StandardMaterial>>,
    limb: Handle<StandardMaterial>,
    gold: Handle<StandardMaterial>,
}

/// How opaque the pieces of the move being built are.
const GHOST_ALPHA: f32 = 0.45;

#[derive(Resource)]
pub(super) struct PieceAssets {
    kind: GameKind,
    spacing: f32,
    disc: Handle<Mesh>,
    half_disc: Handle<Mesh>,
    body: Handle<Mesh>,
    leg: Handle<Mesh>,
    pincer: Handle<Mesh>,
    sun: Handle<Mesh>,
    moon: Handle<Mesh>,
    foot: Handle<Mesh>,
    crown: Handle<Mesh>,
    pub(super) solid: PieceMaterials,
    pub(super) ghost: PieceMaterials,
}

pub fn plugin(app: &mut App) {
    app.add_systems(BuildBoard, make_assets)
        .add_systems(Update, (build_models, recolour).run_if(board_on_screen));
}

/// A palette picked in the menu recolours the pieces at once.
fn recolour(
    settings: Res<Settings>,
    assets: Option<Res<PieceAssets>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut shown: Local<Vec<(f32, f32, f32)>>,
) {
    let Some(assets) = assets else {
        return;
    };
    // The menu borrows the settings every frame it is open: compare the colours.
    let wanted: Vec<_> = settings
        .light_dark
        .iter()
        .chain(&settings.three_players)
        .copied()
        .collect();
    if !assets.is_added() && *shown == wanted {
        return;
    }
    *shown = wanted;
    let players = assets.solid.colours.len();
    for (alpha, set) in [(1.0, &assets.solid), (GHOST_ALPHA, &assets.ghost)] {
        for (i, handle) in set.colours.iter().enumerate() {
            if let Some(mut material) = materials.get_mut(handle) {
                material.base_color = settings.colour(players, i).with_alpha(alpha);
            }
        }
    }
}

fn make_assets(
    mut commands: Commands,
    game: Res<CurrentGame>,
    settings: Res<Settings>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let kind = game.table.as_match().kind();
    let players = kind.max_players();
    let mut material_set = |alpha: f32| {
        let blend = if alpha < 1.0 {
            AlphaMode::Blend
        } else {
            AlphaMode::Opaque
        };
        PieceMaterials {
            colours: (0..players)
                .map(|i| {
                    materials.add(StandardMaterial {
                        base_color: settings.colour(players, i).with_alpha(alpha),
                        perceptual_roughness: 0.45,
                        alpha_mode: blend,
                        ..default()
                    })
                })
                .collect(),
            limb: materials.add(StandardMaterial {
                base_color: Color::srgba(0.35, 0.33, 0.32, alpha),
                perceptual_roughness: 0.6,
                alpha_mode: blend,
                ..default()
            }),
            gold: materials.add(StandardMaterial {
                base_color: Color::srgba(0.95, 0.75, 0.20, alpha),
                metallic: 0.7,
                perceptual_roughness: 0.3,
                alpha_mode: blend,
                ..default()
            }),
        }
    };
    let solid = material_set(1.0);
    let ghost = material_set(GHOST_ALPHA);
    let s = game.table.layout().spacing;
    commands.insert_resource(PieceAssets {
        kind,
        spacing: s,
        disc: meshes.add(Cylinder::new(0.36 * s, DISC_HEIGHT * 0.92)),
        half_disc: meshes.add(Cylinder::new(0.36 * s, DISC_HEIGHT * 0.46)),
        body: meshes.add(Sphere::new(0.28).mesh().uv(24, 16)),
        leg: meshes.add(Capsule3d::new(0.05, 0.26)),
        pincer: meshes.add(Cone::new(0.09, 0.26)),
        sun: meshes.add(Sphere::new(0.3 * s).mesh().uv(24, 16)),
        moon: meshes.add(Torus::new(0.14 * s, 0.32 * s)),
        foot: meshes.add(Cuboid::new(0.48 * s, 0.26 * s, 0.48 * s)),
        crown: meshes.add(Cone::new(0.12 * s, 0.2 * s)),
        solid,
        ghost,
    });
}

fn build_models(
    mut commands: Commands,
    assets: Option<Res<PieceAssets>>,
    pieces: Query<(Entity, &PieceOf), Changed<PieceOf>>,
) {
    let Some(assets) = assets else {
        return;
    };
    for (entity, piece) in &pieces {
        commands.entity(entity).despawn_children();
        attach_parts(
            &mut commands.entity(entity),
            model(&assets, &piece.look, &assets.solid),
        );
    }
}

/// Hangs a model's meshes under the entity that places it.
pub(super) fn attach_parts(entity: &mut EntityCommands, parts: Vec<Part>) {
    entity.with_children(|parent| {
        for (mesh, material, transform) in parts {
            parent.spawn((Mesh3d(mesh), MeshMaterial3d(material), transform));
        }
    });
}

pub(super) type Part = (Handle<Mesh>, Handle<StandardMaterial>, Transform);

/// The meshes of a piece that looks so, in these materials.
pub(super) fn model(
    assets: &PieceAssets,
    look: &PieceLook,
    materials: &PieceMaterials,
) -> Vec<Part> {
    let colour = |i: usize| materials.colours[i % materials.colours.len()].clone();
    let own = colour(look.colour);
    let s = assets.spacing;
    let mut parts = Vec::new();
    match look.shape {
        Shape::Stack => {
            let drawn = look.height.min(MAX_DRAWN_DISCS);
            for level in 0..drawn {
                let y = DISC_HEIGHT * (level as f32 + 0.5);
                if assets.kind.pieces_turn_over() {
                    // Two-sided: the owner's side up, the other side beneath, so a stack
                    // turning over shows its new colour.
                    let other = colour(look.colour + 1);
                    let quarter = DISC_HEIGHT * 0.23;
                    parts.push((
                        assets.half_disc.clone(),
                        own.clone(),
                        Transform::from_xyz(0.0, y + quarter, 0.0),
                    ));
                    parts.push((
                        assets.half_disc.clone(),
                        other,
                        Transform::from_xyz(0.0, y - quarter, 0.0),
                    ));
                } else {
                    parts.push((
                        assets.disc.clone(),
                        own.clone(),
                        Transform::from_xyz(0.0, y, 0.0),
                    ));
                }
            }
        }
        Shape::Creature { legs, pincers } => {
            parts.push((
                assets.body.clone(),
                own.clone(),
                Transform::from_xyz(0.0, 0.22, 0.0).with_scale(Vec3::new(1.0, 0.75, 1.0)),
            ));
            // Six limb slots around the body: legs first, then pincers.
            for slot in 0..(legs + pincers).min(6) {
                let angle = TAU * (slot as f32 + 0.5) / 6.0 + FRAC_PI_2;
                let out = Vec3::new(angle.cos(), 0.0, angle.sin());
                if slot < legs {
                    let tilt = Quat::from_rotation_arc(Vec3::Y, (out + Vec3::Y * 0.6).normalize());
                    parts.push((
                        assets.leg.clone(),
                        materials.limb.clone(),
                        Transform::from_translation(out * 0.33 + Vec3::Y * 0.1).with_rotation(tilt),
                    ));
                } else {
                    let point = Quat::from_rotation_arc(Vec3::Y, out);
                    parts.push((
                        assets.pincer.clone(),
                        materials.gold.clone(),
                        Transform::from_translation(out * 0.3 + Vec3::Y * 0.22)
                            .with_rotation(point),
                    ));
                }
            }
        }
        Shape::Sun => parts.push((
            assets.sun.clone(),
            own.clone(),
            Transform::from_xyz(0.0, 0.3 * s, 0.0),
        )),
        Shape::Moon => parts.push((
            assets.moon.clone(),
            own.clone(),
            Transform::from_xyz(0.0, 0.32 * s, 0.0).with_rotation(Quat::from_rotation_x(FRAC_PI_2)),
        )),
        Shape::Foot => parts.push((
            assets.foot.clone(),
            own.clone(),
            Transform::from_xyz(0.0, 0.13 * s, 0.0),
        )),
    }
    if look.prime {
        let top = match look.shape {
            Shape::Sun => 0.68,
            Shape::Moon => 0.72,
            _ => 0.36,
        } * s;
        parts.push((
            assets.crown.clone(),
            materials.gold.clone(),
            Transform::from_xyz(0.0, top, 0.0),
        ));
    }
    parts
}
