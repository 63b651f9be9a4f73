//! The online part of the side panel: the game's code and invite link, the connection,
//! the clock, and the requests between the players (draw offers, take-backs, resigning).

use super::page::unix_millis;
use super::style::{ERROR_COLOUR, counted};
use crate::TapTarget;
use crate::current_game::CurrentGame;
use crate::online::{NextGame, OnlineAction, OnlineGame, YourTurns};
use bevy::prelude::*;
use bevy_egui::egui;
use tabula_online::Followed;
use tabula_online::protocol::house::shown_player;

/// Seat `seat` as the panel names it.
fn seat_name(followed: &Followed, seat: usize) -> String {
    followed.state.seats.get(seat).map_or_else(
        || format!("Player {}", seat.saturating_add(1)),
        |s| s.name.clone(),
    )
}

/// What a seat's line in the panel adds in an online game: the account playing it (with
/// its rating), and you, away, or not taken yet.
pub fn seat_note(online: &OnlineGame, seat: usize) -> String {
    let Some(followed) = online.client.game() else {
        return String::new();
    };
    let state = followed.state.seats.get(seat);
    let rating = state
        .and_then(|s| s.rating)
        .map_or(String::new(), |rating| format!(" ({rating})"));
    let player = state
        .and_then(|s| s.player.as_deref())
        // A server's words, shown escaped and cut as everywhere.
        .map_or(String::new(), |name| {
            format!(" · {}{rating}", shown_player(name))
        });
    let note = match state {
        _ if followed.state.your_seat == Some(seat) => " (you)",
        Some(s) if !s.taken => " (open)",
        Some(s) if !s.online => " (away)",
        _ => "",
    };
    format!("{player}{note}")
}

/// The link that opens the game in a browser to join it, when the server hosts the web
/// version (`tabula-server --dist`).
fn invite_link(online: &OnlineGame, code: &str) -> String {
    let base = online.server.trim().trim_end_matches('/');
    let base = if base.contains("://") {
        base.to_string()
    } else {
        format!("http://{base}")
    };
    format!("{base}/?join={code}")
}

#[derive(Default)]
pub struct PanelState {
    confirm_resign: bool,
}

pub fn online_section(
    ui: &mut egui::Ui,
    online: &OnlineGame,
    game: &CurrentGame,
    state: &mut PanelState,
    actions: &mut MessageWriter<OnlineAction>,
) {
    let Some(followed) = online.client.game() else {
        return;
    };
    let code = &followed.state.code;
    ui.horizontal(|ui| {
        // A lit dot while connected (egui's font has no circle glyphs).
        let (rect, dot) = ui.allocate_exact_size(egui::vec2(12.0, 12.0), egui::Sense::hover());
        let (colour, words) = if online.connected {
            (egui::Color32::from_rgb(90, 200, 110), "Connected")
        } else {
            (egui::Color32::GRAY, "Not connected: trying again")
        };
        ui.painter().circle_filled(rect.center(), 4.5, colour);
        dot.on_hover_text(words);
        ui.label("Online game");
        ui.monospace(code);
        if followed.state.rated {
            ui.label("rated")
                .on_hover_text("The result moves the players' ratings");
        }
        if ui
            .small_button("Copy code")
            .on_hover_text("Your friend joins with it from Play online")
            .clicked()
        {
            ui.ctx().copy_text(code.clone());
        }
        if ui
            .small_button("Copy link")
            .on_hover_text(invite_link(online, code))
            .clicked()
        {
            ui.ctx().copy_text(invite_link(online, code));
        }
    });
    let open = followed.state.seats.iter().filter(|s| !s.taken).count();
    if open > 0 && !game.is_over() {
        ui.label(format!(
            "Waiting for {} to join: give them the code.",
            if open == 1 { "a player" } else { "players" }
        ));
    }
    if let Some(notice) = &online.notice {
        ui.colored_label(ERROR_COLOUR, notice);
    }
    if let Some(answer) = &online.answer {
        ui.label(answer);
    }
    let Some(me) = followed.state.your_seat else {
        ui.label("You are watching.");
        return;
    };
    if game.is_over() {
        return;
    }
    if let Some(to_move) = followed.to_move()
        && to_move != me
    {
        ui.label(format!("Waiting for {}…", seat_name(followed, to_move)));
    }
    if let Some(deadline) = followed.state.deadline_ms {
        let now = u64::try_from(unix_millis()).unwrap_or(u64::MAX);
        let left = deadline.saturating_sub(now) / 1000;
        let who = followed
            .to_move()
            .map_or_else(String::new, |seat| seat_name(followed, seat));
        ui.label(format!(
            "{who} has {}:{:02} for this move",
            left / 60,
            left % 60
        ));
    }
    requests(ui, followed, me, actions);
    ui.horizontal(|ui| {
        let offered = followed.state.draw_offers.contains(&me);
        if ui
            .add_enabled(!offered, egui::Button::new("Offer a draw"))
            .clicked()
        {
            actions.write(OnlineAction::OfferDraw);
        }
        let moved = !followed.state.moves.is_empty();
        if ui
            .add_enabled(
                moved && followed.state.undo_request.is_none(),
                egui::Button::new("Ask to take back"),
            )
            .on_hover_text("Ctrl+Z: your opponent accepts or declines")
            .clicked()
        {
            actions.write(OnlineAction::RequestUndo);
        }
        if !state.confirm_resign && ui.button("Resign").tap_target("Resign").clicked() {
            state.confirm_resign = true;
        }
    });
    if state.confirm_resign {
        ui.horizontal(|ui| {
            ui.label("Resign this game?");
            if ui.button("Yes, resign").tap_target("Yes, resign").clicked() {
                actions.write(OnlineAction::Resign);
                state.confirm_resign = false;
            }
            if ui.button("No").clicked() {
                state.confirm_resign = false;
            }
        });
    }
}

/// The player's other online games waiting for their move, and **Next game** to the one
/// waiting longest (on the same server).
pub fn other_turns(
    ui: &mut egui::Ui,
    online: &OnlineGame,
    turns: &YourTurns,
    next: &mut MessageWriter<NextGame>,
) {
    let here = online.client.game().map(|g| g.state.code.as_str());
    let same_server = tabula_online::socket_url(&online.server).ok()
        == tabula_online::socket_url(&turns.server).ok();
    let waiting = turns.others(here).count();
    if waiting == 0 || !same_server {
        return;
    }
    ui.horizontal(|ui| {
        ui.label(format!("Your move in {}", counted(waiting, "other game")));
        if ui
            .button("Next game")
            .on_hover_text("The game that has waited longest for your move")
            .clicked()
        {
            next.write(NextGame {
                besides: here.map(str::to_string),
            });
        }
    });
}

/// Draw offers and take-back requests: the other players', to answer, and your own.
fn requests(
    ui: &mut egui::Ui,
    followed: &Followed,
    me: usize,
    actions: &mut MessageWriter<OnlineAction>,
) {
    let others: Vec<String> = followed
        .state
        .draw_offers
        .iter()
        .filter(|&&seat| seat != me)
        .map(|&seat| seat_name(followed, seat))
        .collect();
    if followed.state.draw_offers.contains(&me) {
        ui.label("You offered a draw.");
    } else if !others.is_empty() {
        ui.horizontal(|ui| {
            ui.strong(format!("{} offers a draw.", others.join(" and ")));
            if ui.button("Accept").clicked() {
                actions.write(OnlineAction::OfferDraw);
            }
            if ui.button("Decline").clicked() {
                actions.write(OnlineAction::DeclineDraw);
            }
        });
    }
    let Some(request) = &followed.state.undo_request else {
        return;
    };
    if request.by == me {
        ui.label("You asked to take back your last move.");
    } else if request.accepted.contains(&me) {
        ui.label("You agreed to a take-back; waiting for the others.");
    } else {
        let moves = followed.state.moves.len() - request.to_ply.min(followed.state.moves.len());
        ui.horizontal(|ui| {
            ui.strong(format!(
                "{} asks to take back {}.",
                seat_name(followed, request.by),
                counted(moves, "move")
            ));
            if ui.button("Accept").clicked() {
                actions.write(OnlineAction::AnswerUndo(true));
            }
            if ui.button("Decline").clicked() {
                actions.write(OnlineAction::AnswerUndo(false));
            }
        });
    }
}
