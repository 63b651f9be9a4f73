//! Counts changed right at the cell: a small popup beside the cell being counted (the
//! last one chosen, or a clicked cell with several choices) with − and + or the counts
//! it may take, and the mouse wheel over such a cell steps its count instead of zooming.
//! The side panel keeps its list; both offer only the builder's own steps.

use super::camera::{OrbitCamera, WheelOnCell, orbit};
use super::layout::THUMB_HEIGHT;
use super::panel_area::PointerOverPanel;
use super::picking::CellOwners;
use crate::AppSystems;
use crate::TapTarget;
use crate::current_game::CurrentGame;
use crate::phase::{Pause, TurnPhase};
use crate::pieces::cell_position;
use crate::screens::InGame;
use crate::table::{CellCounts, counts_at};
use crate::turn::{CellMenu, PlayerInput};
use bevy::input::mouse::{AccumulatedMouseScroll, MouseScrollUnit};
use bevy::picking::hover::HoverMap;
use bevy::picking::pointer::PointerId;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub fn plugin(app: &mut App) {
    app.init_resource::<WheelOnCell>()
        // Before the turn takes input, so its step indexes the choices the turn sees; and
        // before the camera, which leaves a wheel on a cell alone.
        .add_systems(
            Update,
            count_with_wheel
                .before(AppSystems::Turn)
                .before(orbit)
                .run_if(in_state(InGame)),
        )
        .add_systems(EguiPrimaryContextPass, cell_popup.run_if(in_state(InGame)));
}

/// A person's turn, the game not paused: the move's steps are theirs to take.
fn persons_turn(phase: Option<Res<State<TurnPhase>>>, pause: &State<Pause>) -> bool {
    *pause.get() == Pause::Running
        && phase.is_some_and(|phase| *phase.get() == TurnPhase::PersonToMove)
}

/// The wheel over a cell with − and +: up adds a piece, down takes one away, a notch (or
/// 40 pixels of a touchpad's scroll) a step.
fn count_with_wheel(
    game: Option<Res<CurrentGame>>,
    (phase, pause): (Option<Res<State<TurnPhase>>>, Res<State<Pause>>),
    hovers: Res<HoverMap>,
    owners: CellOwners,
    scroll: Res<AccumulatedMouseScroll>,
    (mut wheel, mut turned): (ResMut<WheelOnCell>, Local<f32>),
    mut input: MessageWriter<PlayerInput>,
) {
    // The cell under the mouse: its tile, a piece on it or the move's ghost there.
    let hovered = hovers
        .get(&PointerId::Mouse)
        .and_then(|hits| hits.keys().find_map(|&entity| owners.cell_of(entity)));
    let counts = match (game, hovered) {
        (Some(game), Some(cell)) if persons_turn(phase, &pause) => {
            counts_at(game.table.choices(), cell)
        }
        _ => CellCounts::default(),
    };
    let steps = counts.more.is_some() || counts.fewer.is_some();
    wheel.0 = steps;
    if !steps {
        *turned = 0.0;
        return;
    }
    let notch = match scroll.unit {
        MouseScrollUnit::Line => 1.0,
        MouseScrollUnit::Pixel => 40.0,
    };
    *turned += scroll.delta.y;
    let step = if *turned >= notch {
        counts.more
    } else if *turned <= -notch {
        counts.fewer
    } else {
        return;
    };
    *turned = 0.0;
    if let Some(index) = step {
        input.write(PlayerInput::Choose(index));
    }
}

fn cell_popup(
    mut contexts: EguiContexts,
    game: Option<Res<CurrentGame>>,
    (phase, pause): (Option<Res<State<TurnPhase>>>, Res<State<Pause>>),
    menu: Res<CellMenu>,
    cameras: Query<(&Camera, &GlobalTransform), With<OrbitCamera>>,
    mut input: MessageWriter<PlayerInput>,
    panel: Res<PointerOverPanel>,
) -> Result {
    let Some(game) = game else {
        return Ok(());
    };
    if !persons_turn(phase, &pause) {
        return Ok(());
    }
    let table = game.table.as_ref();
    let choices = table.choices();
    let Some((cell, counts)) = menu
        .0
        .into_iter()
        .chain(table.selected_cells().last().copied())
        .map(|cell| (cell, counts_at(choices, cell)))
        .find(|(_, counts)| !counts.is_empty())
    else {
        return Ok(());
    };
    let Ok((camera, camera_transform)) = cameras.single() else {
        return Ok(());
    };
    let layout = table.layout();
    let Ok(at) = camera.world_to_viewport(camera_transform, cell_position(layout, cell)) else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    // A cell the panel covers (a phone's drawer pulled up over the board) has its counts in
    // the panel's list, not in a popup floating over the panel.
    let board = panel.board_area(ctx.viewport_rect());
    if !board.contains(egui::pos2(at.x, at.y)) {
        return Ok(());
    }
    // Just below the cell on screen, however the camera turns, so the cell and its ghost
    // stay in sight above it.
    let below = 30.0;
    let label = layout.cells.get(cell).map_or("?", |c| c.label.as_str());
    // The pieces the move takes to or from the cell so far.
    let now = table.part_count(cell).unwrap_or(0);
    egui::Area::new(egui::Id::new("cell popup"))
        .order(egui::Order::Foreground)
        .pivot(egui::Align2::CENTER_TOP)
        .fixed_pos(egui::pos2(at.x, at.y + below))
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.horizontal(|ui| {
                    ui.label(label);
                    let mut offer = |ui: &mut egui::Ui, text: String, hover: &str, index| {
                        let button = egui::Button::new(egui::RichText::new(&text).size(20.0))
                            .min_size(egui::vec2(THUMB_HEIGHT, THUMB_HEIGHT));
                        if ui
                            .add(button)
                            .tap_target(format_args!("popup {text}"))
                            .on_hover_text(hover)
                            .clicked()
                        {
                            input.write(PlayerInput::Choose(index));
                        }
                    };
                    if let Some(index) = counts.fewer {
                        offer(ui, "−".into(), &choices[index].text, index);
                    }
                    if counts.more.is_some() || counts.fewer.is_some() {
                        ui.label(egui::RichText::new(now.to_string()).size(20.0).strong());
                    }
                    if let Some(index) = counts.more {
                        offer(ui, "+".into(), &choices[index].text, index);
                    }
                    for &(n, index) in &counts.exactly {
                        offer(ui, n.to_string(), &choices[index].text, index);
                    }
                });
            });
        });
    Ok(())
}
