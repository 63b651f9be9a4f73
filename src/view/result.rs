//! The result window over the finished board: who won, replay, review, new game, title.

use super::layout::fit_narrow;
use crate::current_game::CurrentGame;
use crate::rating::RatingChange;
use crate::review::StartReview;
use crate::screens::Screen;
use crate::turn::Travel;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub fn plugin(app: &mut App) {
    app.init_resource::<ResultClosed>()
        .add_systems(OnEnter(Screen::Result), reopen_result)
        .add_systems(
            EguiPrimaryContextPass,
            result_window.run_if(in_state(Screen::Result)),
        );
}

/// The result window was closed to look at the board.
#[derive(Resource, Default)]
struct ResultClosed(bool);

fn reopen_result(mut closed: ResMut<ResultClosed>) {
    closed.0 = false;
}

fn result_window(
    mut contexts: EguiContexts,
    game: Res<CurrentGame>,
    mut closed: ResMut<ResultClosed>,
    mut next: ResMut<NextState<Screen>>,
    mut travel: MessageWriter<Travel>,
    mut review: MessageWriter<StartReview>,
    rating: Option<Res<RatingChange>>,
) -> Result {
    // A side line that ends on the analysis board is not the game's end.
    if closed.0 || game.is_analysing() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    let mut replay = false;
    fit_narrow(
        egui::Window::new("Game over")
            .anchor(egui::Align2::CENTER_TOP, [-150.0, 60.0])
            .collapsible(false)
            .resizable(false)
            .open(&mut open),
        ctx,
    )
    .show(ctx, |ui| {
        ui.heading(game.status_text());
        ui.label(format!(
            "after {} moves",
            game.table.as_match().record().len()
        ));
        if let Some(change) = rating.filter(|change| change.game_id == game.id) {
            let moved = change.after.rating - change.before.rating;
            ui.label(format!(
                "Your {} rating: {:.0} ({moved:+.0})",
                game.table.as_match().kind().title(),
                change.after.rating
            ));
        }
        ui.horizontal(|ui| {
            if ui
                .button("Replay")
                .on_hover_text("From the first move: step with Redo, or drag the slider")
                .clicked()
            {
                travel.write(Travel::GoTo(0));
                replay = true;
            }
            if ui
                .button("Review")
                .on_hover_text("The bot judges every move; the review shows beside the moves")
                .clicked()
            {
                review.write(StartReview);
                replay = true;
            }
            if ui.button("New game").clicked() {
                next.set(Screen::NewGame);
            }
            if ui.button("Title screen").clicked() {
                next.set(Screen::Title);
            }
        });
    });
    closed.0 = !open || replay;
    Ok(())
}
