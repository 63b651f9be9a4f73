//! The side panel during a puzzle: whose move and in how many turns, the player's rating
//! and streak, how the try went, the move being built, and the next puzzle.

use super::board::HoveredCell;
use super::from_here::{FromHereChoice, from_here_section};
use super::move_builder::move_builder;
use super::rules_help::RulesHelp;
use super::style::ERROR_COLOUR;
use crate::config::Settings;
use crate::current_game::CurrentGame;
use crate::new_game::PlayFromHere;
use crate::phase::{BoardShows, TurnPhase, phase_now};
use crate::puzzle::{PuzzleInput, PuzzleRun, PuzzleVerdict};
use crate::queued_moves::QueuedMoves;
use crate::screens::InGame;
use crate::turn::{CellMenu, PlayerInput, TurnMessage};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        puzzle_panel.run_if(in_state(InGame).and_then(resource_exists::<PuzzleRun>)),
    );
}

const SOLVED_COLOUR: egui::Color32 = egui::Color32::from_rgb(110, 200, 120);

/// A rating deviation above which the rating is still a first guess.
const PROVISIONAL_DEVIATION: f64 = 110.0;

/// What the panel reads of the board, the turn and the player's record.
#[derive(SystemParam)]
struct Seen<'w> {
    game: Res<'w, CurrentGame>,
    shows: Res<'w, BoardShows>,
    menu: Res<'w, CellMenu>,
    message: Res<'w, TurnMessage>,
    hovered: Res<'w, HoveredCell>,
    queued: Res<'w, QueuedMoves>,
    settings: Res<'w, Settings>,
}

/// Where the panel sends what the player asks for.
#[derive(SystemParam)]
struct Asks<'w> {
    input: MessageWriter<'w, PlayerInput>,
    requests: MessageWriter<'w, PuzzleInput>,
    rules_help: ResMut<'w, RulesHelp>,
    from_here: ResMut<'w, FromHereChoice>,
    play_from_here: MessageWriter<'w, PlayFromHere>,
}

fn puzzle_panel(mut contexts: EguiContexts, run: Res<PuzzleRun>, seen: Seen, asks: Asks) -> Result {
    let Asks {
        mut input,
        mut requests,
        mut rules_help,
        mut from_here,
        mut play_from_here,
    } = asks;
    let ctx = contexts.ctx_mut()?;
    let table = seen.game.table.as_ref();
    let phase = phase_now(&seen.game, &seen.shows);
    let start_mover = table.as_match().to_move_after(0).unwrap_or(0);
    let mover = table.as_match().player_name(start_mover);
    let record = seen
        .settings
        .puzzles
        .get(run.kind.key())
        .cloned()
        .unwrap_or_default();
    let mut root = egui::Ui::new(
        ctx.clone(),
        "puzzle".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    );
    egui::Panel::right("puzzle side")
        .exact_size(330.0)
        .show(&mut root, |ui| {
            ui.horizontal(|ui| {
                ui.heading(format!("{} puzzle", run.kind.title()));
                if ui.button("Rules").clicked() {
                    rules_help.0 = Some(run.kind);
                }
            });
            ui.label(format!(
                "{}Puzzle rating {}",
                if run.daily { "Today's puzzle · " } else { "" },
                run.puzzle.rating
            ));
            ui.horizontal(|ui| {
                // Provisional until a dozen or so puzzles have narrowed it, as on lichess.
                let provisional = record.rating.deviation > PROVISIONAL_DEVIATION;
                ui.label(format!(
                    "Your rating {:.0}{}",
                    record.rating.rating,
                    if provisional { " (provisional)" } else { "" }
                ))
                .on_hover_text(format!(
                    "Glicko-2: {:.0} ± {:.0} (95%)",
                    record.rating.rating,
                    2.0 * record.rating.deviation
                ));
                if let Some((before, after)) = run.rating_change {
                    let change = after - before;
                    let colour = if change >= 0.0 {
                        SOLVED_COLOUR
                    } else {
                        ERROR_COLOUR
                    };
                    ui.colored_label(colour, format!("{change:+.0}"));
                }
            });
            ui.label(format!(
                "Streak {} (best {}) · {} solved, {} missed",
                record.streak, record.best_streak, record.solved, record.failed
            ));
            ui.separator();
            let turns = match run.puzzle.depth {
                1 => "this turn".to_string(),
                n => format!("{n} turns"),
            };
            ui.label(
                egui::RichText::new(format!("{mover} to play and win in {turns}."))
                    .strong()
                    .size(17.0),
            );
            if run.puzzle.depth > 1 {
                ui.label("The solver answers each of your turns with its best defence.");
            }
            ui.add_space(4.0);
            match &run.verdict {
                None => {}
                Some(PuzzleVerdict::Solved) => {
                    ui.colored_label(
                        SOLVED_COLOUR,
                        egui::RichText::new("Solved!").strong().size(16.0),
                    );
                    ui.label(format!("Theme: {}", run.puzzle.theme));
                }
                Some(PuzzleVerdict::Shown) => {
                    ui.label(format!(
                        "The solution: {} (theme: {}).",
                        run.puzzle.line.join(" / "),
                        run.puzzle.theme
                    ));
                }
                Some(PuzzleVerdict::Wrong(why)) => {
                    ui.colored_label(ERROR_COLOUR, egui::RichText::new("Not this.").strong());
                    ui.add(egui::Label::new(egui::RichText::new(why).color(ERROR_COLOUR)).wrap());
                }
            }
            let open = phase == TurnPhase::PersonToMove
                && !seen.queued.is_playing()
                && run.verdict.is_none();
            if open {
                egui::ScrollArea::vertical()
                    .max_height(ui.available_height() - 120.0)
                    .show(ui, |ui| move_builder(ui, table, &seen.menu, &mut input));
            }
            if let Some(text) = &seen.message.0 {
                ui.colored_label(ERROR_COLOUR, text);
            }
            if let Some(hint) = seen.hovered.0.and_then(|cell| table.cell_hint(cell)) {
                ui.small(hint);
            }
            ui.separator();
            ui.horizontal(|ui| {
                let playing = seen.queued.is_playing();
                if ui
                    .add_enabled(!playing, egui::Button::new("Retry"))
                    .on_hover_text("The puzzle's position again (only the first try is rated)")
                    .clicked()
                {
                    requests.write(PuzzleInput::Retry);
                }
                if ui
                    .add_enabled(!playing, egui::Button::new("Show solution"))
                    .clicked()
                {
                    requests.write(PuzzleInput::ShowSolution);
                }
                let solved = matches!(run.verdict, Some(PuzzleVerdict::Solved));
                let next = egui::RichText::new("Next puzzle ▶");
                if ui
                    .add(egui::Button::new(if solved { next.strong() } else { next }))
                    .clicked()
                {
                    requests.write(PuzzleInput::Next);
                }
            });
            ui.horizontal(|ui| {
                if !run.daily && ui.button("Today's puzzle").clicked() {
                    requests.write(PuzzleInput::Start {
                        kind: run.kind,
                        daily: true,
                    });
                }
                if ui.button("Leave").clicked() {
                    requests.write(PuzzleInput::Leave);
                }
            });
            if !seen.queued.is_playing() {
                from_here_section(ui, &seen.game, &mut from_here, &mut play_from_here);
            }
        });
    Ok(())
}
