//! The side panel's rows: the game's name and menu, a line a seat, moving through the
//! line, the bot's thinking, the hint and the move typed in notation.

use super::FocusMoveEntry;
use crate::TapTarget;
use crate::bot::{Hint, Purpose, RequestHint, Thinking};
use crate::config::Settings;
use crate::current_game::{CurrentGame, Seat};
use crate::online::OnlineGame;
use crate::phase::Pause;
use crate::table::Table;
use crate::turn::{PlayerInput, Travel};
use crate::view::camera::FrameBoard;
use crate::view::online_panel::seat_note;
use crate::view::rules_help::RulesHelp;
use crate::view::style::{colour32, counted};
use bevy::prelude::*;
use bevy_egui::egui;

/// The game's name, and the menu, the rules and the board framed again.
pub(super) fn header(
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
pub(super) fn seat_lines(
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
pub(super) fn hint_row(
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
pub(super) fn move_entry(
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
pub(super) fn travel_controls(
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
pub(super) fn thinking_indicator(ui: &mut egui::Ui, thinking: &Thinking, game: &CurrentGame) {
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
