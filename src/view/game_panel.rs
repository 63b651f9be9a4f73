//! The side panel during play: the turn, scores, the moves through the line, the bot's
//! thinking, the move being built with exactly the builder's legal choices, hints, the
//! move entry and the move list; and the keys that play.

use super::analysis_panel::{AnalysisSection, MoveList};
use super::board::HoveredCell;
use super::camera::FrameBoard;
use super::from_here::{FromHereChoice, from_here_section};
use super::layout::DrawerPart;
use super::move_builder::move_builder;
use super::online_panel::{PanelState, online_section, other_turns, seat_note};
use super::panel_area::PointerOverPanel;
use super::review_panel::ReviewPanel;
use super::rules_help::RulesHelp;
use super::style::{ERROR_COLOUR, colour32, counted};
use crate::TapTarget;
use crate::analysis::LiveEvaluation;
use crate::bot::{Hint, Purpose, RequestHint, Thinking};
use crate::config::{Keys, Settings};
use crate::current_game::{CurrentGame, Seat};
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
                header(ui, table, &mut pause, &mut rules_help, &mut frame_board);
                ui.separator();
                seat_lines(ui, &game, &settings, online.as_deref());
                ui.add_space(4.0);
                ui.strong(game.status_text());
                if !live_online {
                    travel_controls(ui, &game, animating, &mut travel);
                }
                if let Some(online) = &online {
                    ui.separator();
                    online_section(ui, online, &game, &mut online_panel, &mut online_actions);
                    other_turns(ui, online, &turns, &mut next_game);
                }
                ui.separator();
                if let Some(thinking) = &thinking {
                    thinking_indicator(ui, thinking, &game);
                }
                if !busy {
                    move_builder(ui, table, &menu, &mut input);
                    if !live_online {
                        hint_row(ui, thinking.as_deref(), hint.as_deref(), &mut ask_hint);
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
                move_entry(ui, &mut typed, &mut focus_entry, busy, &mut input);
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

/// The game's name, and the menu, the rules and the board framed again.
fn header(
    ui: &mut egui::Ui,
    table: &dyn Table,
    pause: &mut NextState<Pause>,
    rules_help: &mut RulesHelp,
    frame_board: &mut MessageWriter<FrameBoard>,
) {
    ui.horizontal(|ui| {
        ui.heading(table.as_match().kind().title());
        if ui
            .button("Menu")
            .tap_target("Menu")
            .on_hover_text("Esc")
            .clicked()
        {
            pause.set(Pause::Paused);
        }
        if ui.button("Rules").on_hover_text("F1").clicked() {
            rules_help.0 = Some(table.as_match().kind());
        }
        if ui
            .button("View")
            .tap_target("View")
            .on_hover_text("The board framed again (R)")
            .clicked()
        {
            frame_board.write(FrameBoard);
        }
    });
}

/// A line a seat: its colour, its score, who plays it, and ▶ for the seat to move.
fn seat_lines(
    ui: &mut egui::Ui,
    game: &CurrentGame,
    settings: &Settings,
    online: Option<&OnlineGame>,
) {
    let table = game.table.as_ref();
    let palette = table.as_match().kind().max_players();
    for seat in 0..table.as_match().num_players() {
        let colour = colour32(settings.colour(palette, table.colour_of_seat(seat)));
        ui.horizontal(|ui| {
            let (rect, _) = ui.allocate_exact_size(egui::vec2(14.0, 14.0), egui::Sense::hover());
            ui.painter().circle_filled(rect.center(), 6.5, colour);
            let mut line = table.score_lines().get(seat).cloned().unwrap_or_default();
            if let Some(Seat::Bot(level)) = game.seats.get(seat) {
                line.push_str(&format!(" (bot, level {level})"));
            }
            if let Some(online) = online {
                line.push_str(&seat_note(online, seat));
            }
            let text = if seat == table.as_match().to_move() && !game.is_over() {
                egui::RichText::new(format!("▶ {line}")).strong()
            } else {
                egui::RichText::new(line)
            };
            ui.add(egui::Label::new(text).wrap());
        });
    }
}

/// The Hint button, and the hint once the bot has one.
fn hint_row(
    ui: &mut egui::Ui,
    thinking: Option<&Thinking>,
    hint: Option<&Hint>,
    ask_hint: &mut MessageWriter<RequestHint>,
) {
    ui.horizontal(|ui| {
        let searching = thinking.is_some_and(|t| t.purpose == Purpose::Hint);
        if ui
            .add_enabled(!searching, egui::Button::new("Hint"))
            .on_hover_text(format!(
                "The bot's suggestion (level {}), shown on the board in violet",
                crate::bot::HINT_LEVEL
            ))
            .clicked()
        {
            ask_hint.write(RequestHint);
        }
        if let Some(hint) = hint {
            ui.label(format!(
                "Try {} (win chance {:.0}%)",
                hint.text,
                100.0 * hint.value
            ));
        }
    });
}

/// A move typed in notation, played with Enter or Play; `/` gives it the keyboard.
fn move_entry(
    ui: &mut egui::Ui,
    typed: &mut String,
    focus_entry: &mut FocusMoveEntry,
    busy: bool,
    input: &mut MessageWriter<PlayerInput>,
) {
    ui.horizontal(|ui| {
        let entry = ui.add(
            egui::TextEdit::singleline(typed)
                .hint_text("type a move ( / )")
                .desired_width(200.0),
        );
        if std::mem::take(&mut focus_entry.0) {
            entry.request_focus();
        }
        let sent = entry.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if (ui.button("Play").clicked() || sent) && !typed.trim().is_empty() && !busy {
            input.write(PlayerInput::Notation(typed.trim().to_string()));
            typed.clear();
        }
    });
}

/// Undo, redo and a slider over the whole line; while looking back, the way on.
fn travel_controls(
    ui: &mut egui::Ui,
    game: &CurrentGame,
    animating: bool,
    travel: &mut MessageWriter<Travel>,
) {
    let table = game.table.as_ref();
    let at = table.as_match().record().len();
    let length = table.as_match().line().len();
    ui.horizontal(|ui| {
        let undo = egui::Button::new("Undo");
        if ui
            .add_enabled(!animating && at > 0, undo)
            .tap_target("Undo")
            .on_hover_text("Ctrl+Z; against a bot, back to your previous turn")
            .clicked()
        {
            travel.write(Travel::Undo);
        }
        let redo = egui::Button::new("Redo");
        if ui
            .add_enabled(!animating && at < length, redo)
            .on_hover_text("Ctrl+Y")
            .clicked()
        {
            travel.write(Travel::Redo);
        }
        if length > 0 {
            let mut ply = at;
            let slider = egui::Slider::new(&mut ply, 0..=length).text("move");
            if ui.add_enabled(!animating, slider).changed() && ply != at {
                travel.write(Travel::GoTo(ply));
            }
        }
    });
    // On the analysis board the later moves are a line kept, not a game waiting.
    if at < length && !game.is_analysing() {
        ui.horizontal(|ui| {
            ui.label(format!(
                "Looking back: {} later.",
                counted(length - at, "move")
            ));
            if ui
                .add_enabled(!animating, egui::Button::new("Play on from here"))
                .on_hover_text(
                    "Forget the later moves and the side lines after this one; bots play again",
                )
                .clicked()
            {
                travel.write(Travel::PlayOn);
            }
        });
    }
}

/// Who is thinking and how far through its time, with a spinner so a still board is
/// seen to be alive.
fn thinking_indicator(ui: &mut egui::Ui, thinking: &Thinking, game: &CurrentGame) {
    let who = match thinking.purpose {
        Purpose::Move { seat } => format!(
            "{} is thinking…",
            game.seats
                .get(seat)
                .unwrap_or(&Seat::Human)
                .label(game.table.as_match().kind().key())
        ),
        Purpose::Hint => "Looking for a hint…".to_string(),
    };
    if let Some(failure) = thinking.failure() {
        ui.colored_label(
            ui.visuals().error_fg_color,
            format!("No move came: {failure}. Undo, or save the game, to go on."),
        );
        return;
    }
    ui.horizontal(|ui| {
        ui.add(egui::Spinner::new());
        ui.label(who);
    });
    ui.add(
        egui::ProgressBar::new(thinking.progress())
            .desired_width(280.0)
            .show_percentage(),
    );
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
