//! The lobby's open challenges on the online screen: each with who posted it (and their
//! rating) and its terms, to accept, or to cancel one's own.

use super::style::ERROR_COLOUR;
use crate::TapTarget;
use crate::online::ChallengeFeed;
use bevy_egui::egui;
use tabula_online::protocol::house::shown_player;
use tabula_online::protocol::{Challenge, Pace};
use tabula_session::GameKind;

/// What the player chose in the list.
pub enum ChallengeChoice {
    Accept(String),
    Cancel(String),
}

/// The open challenges; `me` is the name logged in here, if any.
pub fn challenges_section(
    ui: &mut egui::Ui,
    feed: &ChallengeFeed,
    me: Option<&str>,
) -> Option<ChallengeChoice> {
    let mut choice = None;
    if let Some((status, failed)) = &feed.status {
        if *failed {
            ui.colored_label(ERROR_COLOUR, status);
        } else {
            ui.small(status);
        }
    }
    if feed.challenges.is_empty() {
        ui.small("No open challenges: post one from New game, and it waits here for a taker.");
        return None;
    }
    egui::ScrollArea::vertical()
        .id_salt("challenges")
        .max_height(160.0)
        .show(ui, |ui| {
            egui::Grid::new("challenges")
                .num_columns(2)
                .striped(true)
                .show(ui, |ui| {
                    for challenge in &feed.challenges {
                        ui.label(describe(challenge));
                        let mine = me.is_some_and(|me| me.eq_ignore_ascii_case(&challenge.by));
                        if mine {
                            if ui
                                .small_button("Cancel")
                                .tap_target(format_args!("Cancel challenge {}", challenge.id))
                                .clicked()
                            {
                                choice = Some(ChallengeChoice::Cancel(challenge.id.clone()));
                            }
                        } else if ui
                            .add_enabled(me.is_some(), egui::Button::new("Accept"))
                            .on_disabled_hover_text("Log in to accept a challenge")
                            .clicked()
                        {
                            choice = Some(ChallengeChoice::Accept(challenge.id.clone()));
                        }
                        ui.end_row();
                    }
                });
        });
    choice
}

/// A challenge in words: who, their rating, the game and how it is played.
fn describe(challenge: &Challenge) -> String {
    let terms = &challenge.terms;
    let title = GameKind::from_key(&terms.game).map_or("?", |k| k.title());
    let rating = challenge
        .rating
        .map_or(String::new(), |r| format!(" ({r})"));
    let pace = match terms.pace {
        Pace::Live => "live",
        Pace::Correspondence => "correspondence",
    };
    let seconds = terms
        .move_seconds
        .map_or(String::new(), |s| format!(", {s} s a move"));
    let options = if terms.settings.is_empty() {
        String::new()
    } else {
        ", options changed".to_string()
    };
    let to = challenge
        .to
        .as_deref()
        .map_or(String::new(), |to| format!(", for {}", shown_player(to)));
    // A server's words, shown escaped and cut as everywhere.
    format!(
        "{}{rating}: {title}, {}, {pace}{seconds}{options}{to}",
        shown_player(&challenge.by),
        if terms.rated { "rated" } else { "casual" }
    )
}
