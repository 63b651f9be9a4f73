//! The side panel during play: the turn, scores, the moves through the line, the bot's
//! thinking, the move being built with exactly the builder's legal choices, hints, the
//! move entry and the move list; and the keys that play. The rows of the panel's own (its
//! header, the seats, moving through the line, thinking, the hint, the move entry) are in
//! [`rows`]; the others come from the panels they belong to.

mod rows;

use super::analysis_panel::{AnalysisSection, MoveList};
use super::board::HoveredCell;
use super::camera::FrameBoard;
use super::from_here::{FromHereChoice, from_here_section};
use super::layout::DrawerPart;
use super::move_builder::move_builder;
use super::online_panel::{PanelState, online_section, other_turns};
use super::panel_area::PointerOverPanel;
use super::review_panel::ReviewPanel;
use super::rules_help::RulesHelp;
use super::style::ERROR_COLOUR;
use crate::analysis::LiveEvaluation;
use crate::bot::{Hint, RequestHint, Thinking};
use crate::config::{Keys, Settings};
use crate::current_game::CurrentGame;
use crate::lesson::Lesson;
use crate::new_game::PlayFromHere;
use crate::online::{NextGame, OnlineAction, OnlineGame, YourTurns};
use crate::phase::{BoardShows, Pause, TurnPhase, phase_now};
use crate::puzzle::PuzzleRun;
use crate::review::{GameReview, StartReview, StopReview};
use crate::saving::AutosaveProblem;
use crate::screens::InGame;
use crate::table::Table;
use crate::turn::{CellMenu, PlayerInput, Travel, TurnMessage};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub fn plugin(app: &mut App) {
    app.init_resource::<FocusMoveEntry>()
        .add_systems(
            EguiPrimaryContextPass,
            // A lesson and a puzzle have their own panels.
            side_panel.run_if(
                in_state(InGame)
                    .and_then(not(resource_exists::<Lesson>))
                    .and_then(not(resource_exists::<PuzzleRun>)),
            ),
        )
        .add_systems(Update, game_keys.run_if(in_state(Pause::Running)));
}

/// The side panel's bot hints, moves through the line and online game.
#[derive(SystemParam)]
struct Helpers<'w, 's> {
    thinking: Option<Res<'w, Thinking>>,
    hint: Option<Res<'w, Hint>>,
    ask_hint: MessageWriter<'w, RequestHint>,
    travel: MessageWriter<'w, Travel>,
    rules_help: ResMut<'w, RulesHelp>,
    focus_entry: ResMut<'w, FocusMoveEntry>,
    online: Option<Res<'w, OnlineGame>>,
    online_actions: MessageWriter<'w, OnlineAction>,
    online_panel: Local<'s, PanelState>,
    turns: Res<'w, YourTurns>,
    next_game: MessageWriter<'w, NextGame>,
    autosave: Res<'w, AutosaveProblem>,
    review: Option<Res<'w, GameReview>>,
    start_review: MessageWriter<'w, StartReview>,
    stop_review: MessageWriter<'w, StopReview>,
    live: Option<Res<'w, LiveEvaluation>>,
    move_list_at: Local<'s, Option<(u64, u64)>>,
    over_panel: ResMut<'w, PointerOverPanel>,
    from_here: ResMut<'w, FromHereChoice>,
    play_from_here: MessageWriter<'w, PlayFromHere>,
    frame_board: MessageWriter<'w, FrameBoard>,
}

/// `/` was pressed: the move entry takes the keyboard, as chat boxes do in many games.
#[derive(Resource, Default)]
struct FocusMoveEntry(bool);

/// What the side panel reads of the turn, and where it sends a person's move.
#[derive(SystemParam)]
struct TurnView<'w, 's> {
    game: Res<'w, CurrentGame>,
    settings: Res<'w, Settings>,
    board: Res<'w, BoardShows>,
    menu: Res<'w, CellMenu>,
    message: Res<'w, TurnMessage>,
    hovered: Res<'w, HoveredCell>,
    typed: Local<'s, String>,
    input: MessageWriter<'w, PlayerInput>,
    pause: ResMut<'w, NextState<Pause>>,
}

fn side_panel(mut contexts: EguiContexts, turn: TurnView, helpers: Helpers) -> Result {
    let TurnView {
        game,
        settings,
        board,
        menu,
        message,
        hovered,
        mut typed,
        mut input,
        mut pause,
    } = turn;
    let Helpers {
        thinking,
        hint,
        mut ask_hint,
        mut travel,
        mut rules_help,
        mut focus_entry,
        online,
        mut online_actions,
        mut online_panel,
        turns,
        mut next_game,
        autosave,
        review,
        mut start_review,
        mut stop_review,
        live,
        mut move_list_at,
        mut over_panel,
        mut from_here,
        mut play_from_here,
        mut frame_board,
    } = helpers;
    // An online game that goes on is the server's: no hints, and no looking back.
    let live_online = game.is_online() && !game.is_over();
    let ctx = contexts.ctx_mut()?;
    let table: &dyn Table = game.table.as_ref();
    // As of now: the panel is drawn after this frame's move, before the phase follows it.
    let phase = phase_now(&game, &board);
    let animating = phase == TurnPhase::Animating;
    // The move builder, hints and the move entry are for a person whose turn it is.
    let busy = phase != TurnPhase::PersonToMove;
    let mut root = egui::Ui::new(
        ctx.clone(),
        "board".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    );
    // In a portrait window the turn and the move being built stay in sight below the board;
    // the move list and the rest come up with the drawer.
    let panel = super::layout::show_game_drawer("side", &mut root, 310.0, |ui, part| {
        match part {
            DrawerPart::Always => {
                rows::header(ui, table, &mut pause, &mut rules_help, &mut frame_board);
                ui.separator();
                rows::seat_lines(ui, &game, &settings, online.as_deref());
                ui.add_space(4.0);
                ui.strong(game.status_text());
                if !live_online {
                    rows::travel_controls(ui, &game, animating, &mut travel);
                }
                if let Some(online) = &online {
                    ui.separator();
                    online_section(ui, online, &game, &mut online_panel, &mut online_actions);
                    other_turns(ui, online, &turns, &mut next_game);
                }
                ui.separator();
                if let Some(thinking) = &thinking {
                    rows::thinking_indicator(ui, thinking, &game);
                }
                if !busy {
                    move_builder(ui, table, &menu, &mut input);
                    if !live_online {
                        rows::hint_row(ui, thinking.as_deref(), hint.as_deref(), &mut ask_hint);
                    }
                }
                if let Some(text) = &message.0 {
                    ui.colored_label(ERROR_COLOUR, text);
                }
                if let Some(problem) = &autosave.0 {
                    ui.colored_label(ERROR_COLOUR, format!("Not saved. {problem}"))
                        .on_hover_text("Play goes on; the last game saved is kept as it was");
                }
                if let Some(hint) = hovered.0.and_then(|cell| table.cell_hint(cell)) {
                    ui.small(hint);
                }
            }
            DrawerPart::OnPull => {
                ui.separator();
                rows::move_entry(ui, &mut typed, &mut focus_entry, busy, &mut input);
                // An online game that goes on is judged after it ends, as it cannot be looked
                // back at.
                let review_any = review.as_deref();
                let review = review_any.filter(|r| r.fits(&game));
                if !live_online {
                    ui.separator();
                    AnalysisSection {
                        game: &game,
                        live: live.as_deref(),
                        settings: &settings,
                        animating,
                        travel: &mut travel,
                    }
                    .show(ui);
                    from_here_section(ui, &game, &mut from_here, &mut play_from_here);
                    ui.separator();
                    // Open while a review runs: it may have been asked for from the result
                    // window.
                    let running = review.is_some_and(|r| r.is_running());
                    egui::CollapsingHeader::new("Review")
                        .default_open(game.is_over())
                        .open(running.then_some(true))
                        .show(ui, |ui| {
                            ReviewPanel {
                                review: review_any,
                                game: &game,
                                settings: &settings,
                                animating,
                                start: &mut start_review,
                                stop: &mut stop_review,
                                travel: &mut travel,
                            }
                            .show(ui)
                        });
                }
                ui.separator();
                ui.label("Moves");
                MoveList {
                    game: &game,
                    review,
                    animating,
                    travel: &mut travel,
                    scrolled_to: &mut move_list_at,
                }
                .show(ui);
            }
        }
    });
    over_panel.record(ctx, panel.rect);
    Ok(())
}

fn game_keys(
    keys: Res<ButtonInput<KeyCode>>,
    bindings: Res<Keys>,
    egui: Option<Res<bevy_egui::input::EguiWantsInput>>,
    mut settings: ResMut<Settings>,
    (mut input, mut travel): (MessageWriter<PlayerInput>, MessageWriter<Travel>),
    mut focus_entry: ResMut<FocusMoveEntry>,
) {
    if egui.is_some_and(|e| e.wants_any_keyboard_input()) {
        return;
    }
    if keys.just_pressed(KeyCode::Slash) {
        focus_entry.0 = true;
    }
    let control = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    if control && keys.just_pressed(KeyCode::KeyZ) {
        travel.write(if shift { Travel::Redo } else { Travel::Undo });
        return;
    }
    if control && keys.just_pressed(KeyCode::KeyY) {
        travel.write(Travel::Redo);
        return;
    }
    if keys.just_pressed(bindings.toggle_labels) {
        settings.show_labels = !settings.show_labels;
    }
    if keys.just_pressed(bindings.confirm) {
        input.write(PlayerInput::Confirm);
    }
    if keys.just_pressed(bindings.take_back_step) {
        input.write(PlayerInput::TakeBackStep);
    }
}
