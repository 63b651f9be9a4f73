//! The side panel during a puzzle: whose move and in how many turns, the player's rating
//! and streak, how the try went, the move being built, and the next puzzle.

use super::practice_panel::{
    PracticeAsks, PracticeBoard, SOLVED_COLOUR, missed_lines, practice_panel, solved_line,
};
use super::style::ERROR_COLOUR;
use crate::config::Settings;
use crate::puzzle::{PuzzleInput, PuzzleRun, PuzzleVerdict};
use crate::screens::InGame;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        puzzle_panel.run_if(in_state(InGame).and_then(resource_exists::<PuzzleRun>)),
    );
}

/// A rating deviation above which the rating is still a first guess.
const PROVISIONAL_DEVIATION: f64 = 110.0;

/// Where the panel sends the player's way through the puzzles.
#[derive(SystemParam)]
struct Asks<'w> {
    practice: PracticeAsks<'w>,
    requests: MessageWriter<'w, PuzzleInput>,
}

fn puzzle_panel(
    mut contexts: EguiContexts,
    run: Res<PuzzleRun>,
    board: PracticeBoard,
    settings: Res<Settings>,
    asks: Asks,
) -> Result {
    let Asks {
        mut practice,
        mut requests,
    } = asks;
    let ctx = contexts.ctx_mut()?;
    let playing = board.game.table.as_match();
    let start_mover = playing.to_move_after(0).unwrap_or(0);
    let mover = playing.player_name(start_mover);
    let record = settings
        .puzzles
        .get(run.kind.key())
        .cloned()
        .unwrap_or_default();
    let heading = format!("{} puzzle", run.kind.title());
    practice_panel(
        ctx,
        "puzzle",
        &heading,
        run.kind,
        &mut practice,
        |ui, practice| {
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
            verdict_lines(ui, &run);
            let open = board.takes_moves() && run.verdict.is_none();
            egui::ScrollArea::vertical()
                .max_height(ui.available_height() - 120.0)
                .show(ui, |ui| board.moves(ui, open, practice));
            ui.separator();
            puzzle_buttons(ui, &run, board.queued.is_playing(), &mut requests);
            board.play_from_here(ui, practice);
        },
    );
    Ok(())
}

fn verdict_lines(ui: &mut egui::Ui, run: &PuzzleRun) {
    match &run.verdict {
        None => {}
        Some(PuzzleVerdict::Solved) => {
            solved_line(ui, "Solved!");
            ui.label(format!("Theme: {}", run.puzzle.theme));
        }
        Some(PuzzleVerdict::Shown) => {
            ui.label(format!(
                "The solution: {} (theme: {}).",
                run.puzzle.line.join(" / "),
                run.puzzle.theme
            ));
        }
        Some(PuzzleVerdict::Wrong(why)) => missed_lines(ui, "Not this.", why),
    }
}

/// Retry, the solution, the next puzzle, today's, and away.
fn puzzle_buttons(
    ui: &mut egui::Ui,
    run: &PuzzleRun,
    playing: bool,
    requests: &mut MessageWriter<PuzzleInput>,
) {
    ui.horizontal(|ui| {
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
}
