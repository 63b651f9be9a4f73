//! The new game on the online screen: which seat, the pace, a limit per move, rated or
//! casual, and the ways to start it: create it (and send its code), Play now, post it as a
//! challenge in the lobby (to anyone, or to one player), or challenge one of the server's
//! house bots, which takes it at once.

use crate::TapTarget;
use crate::new_game::{NewGameForm, read_setting_files};
use crate::online::ChallengeAsk;
use bevy_egui::egui;
use tabula_online::Goal;
use tabula_online::protocol::house::HouseBots;
use tabula_online::protocol::{ChallengeTerms, Pace};

/// What the player chose of the game's terms.
#[derive(Default)]
pub struct OnlineTerms {
    seat: usize,
    pace: Option<Pace>,
    /// Seconds a move, as typed; empty for no limit.
    move_seconds: String,
    /// Asked for a rated game (only while logged in).
    rated: bool,
    /// The player a challenge is for, as typed; empty for anyone.
    challenge_to: String,
}

/// How the player starts the game.
pub enum NewGameChoice {
    /// Create it here, and send its code.
    Create(Goal),
    /// Play now, or post it to the lobby.
    Challenge(ChallengeAsk),
}

/// The terms and the buttons that start the game of `form`; what the player chose, or why
/// the terms cannot be asked for.
pub fn new_game_section(
    ui: &mut egui::Ui,
    form: &NewGameForm,
    terms: &mut OnlineTerms,
    logged_in: bool,
    house: Option<&HouseBots>,
) -> Option<Result<NewGameChoice, String>> {
    terms_grid(ui, terms, form.players(), logged_in);
    let mut choice = None;
    ui.horizontal_wrapped(|ui| {
        if ui.button("Create game").clicked() {
            choice = Some(chosen_terms(form, terms, logged_in).map(|chosen| {
                NewGameChoice::Create(Goal::Create {
                    game: chosen.game,
                    settings: chosen.settings,
                    seat: terms.seat,
                    pace: chosen.pace,
                    move_seconds: chosen.move_seconds,
                    rated: chosen.rated,
                })
            }));
        }
        let play_now = ui
            .add_enabled(logged_in, egui::Button::new("Play now"))
            .on_hover_text(
                "Takes the lobby's challenge of this game that fits you best, or posts one \
                 (the game's own options)",
            )
            .on_disabled_hover_text("Log in to play a stranger");
        if play_now.clicked() {
            choice = Some(Ok(NewGameChoice::Challenge(ChallengeAsk::PlayNow {
                game: form.kind.key().to_string(),
                pace: terms.pace.unwrap_or(Pace::Live),
                rated: terms.rated && logged_in,
            })));
        }
        let post = ui
            .add_enabled(logged_in, egui::Button::new("Post as a challenge"))
            .tap_target("Post as a challenge")
            .on_hover_text("It waits in the lobby below until someone accepts")
            .on_disabled_hover_text("Log in to post a challenge");
        ui.add(
            egui::TextEdit::singleline(&mut terms.challenge_to)
                .hint_text("for anyone")
                .desired_width(100.0),
        )
        .on_hover_text("A player's name: only they may accept it");
        if post.clicked() {
            let to = terms.challenge_to.trim();
            let to = (!to.is_empty()).then(|| to.to_string());
            choice = Some(
                chosen_terms(form, terms, logged_in)
                    .map(|terms| NewGameChoice::Challenge(ChallengeAsk::Post { terms, to })),
            );
        }
    });
    if let Some(house) = house
        && let Some(name) = house_bot_buttons(ui, house, logged_in)
    {
        choice = Some(chosen_terms(form, terms, logged_in).map(|terms| {
            NewGameChoice::Challenge(ChallengeAsk::Post {
                terms,
                to: Some(name),
            })
        }));
    }
    choice
}

/// A button for each house bot: the one chosen, whose name the challenge goes to.
fn house_bot_buttons(ui: &mut egui::Ui, house: &HouseBots, logged_in: bool) -> Option<String> {
    let mut chosen = None;
    ui.horizontal_wrapped(|ui| {
        ui.label("Or play a house bot:").on_hover_text(format!(
            "The server's own bots, from level 1 (the weakest) to 5. They take a challenge \
             to them at once, and one to anyone that waited {} s",
            house.wait_seconds
        ));
        for bot in &house.bots {
            let name = tabula_session::rules::text::shown_line(&bot.name);
            let about = tabula_session::rules::text::shown_line(&bot.about);
            let button = ui
                .add_enabled(logged_in, egui::Button::new(name))
                .on_hover_text(format!("Level {} of 5. {about}", bot.level))
                .on_disabled_hover_text("Log in to challenge a bot");
            if button.clicked() {
                chosen = Some(bot.name.clone());
            }
        }
    });
    chosen
}

/// Which seat you take, the pace, the limit per move, and rated or not.
fn terms_grid(ui: &mut egui::Ui, lobby: &mut OnlineTerms, players: usize, logged_in: bool) {
    lobby.seat = lobby.seat.min(players - 1);
    egui::Grid::new("online terms")
        .num_columns(2)
        .show(ui, |ui| {
            ui.label("You play");
            egui::ComboBox::from_id_salt("online seat")
                .selected_text(seat_label(lobby.seat))
                .show_ui(ui, |ui| {
                    for seat in 0..players {
                        ui.selectable_value(&mut lobby.seat, seat, seat_label(seat));
                    }
                });
            ui.end_row();
            ui.label("Pace");
            ui.horizontal(|ui| {
                let pace = lobby.pace.get_or_insert(Pace::Live);
                ui.radio_value(pace, Pace::Live, "Live")
                    .on_hover_text("Both at the board now");
                ui.radio_value(pace, Pace::Correspondence, "Correspondence")
                    .on_hover_text("A move when you have time; come back through My games");
            });
            ui.end_row();
            ui.label("Seconds a move");
            ui.add(
                egui::TextEdit::singleline(&mut lobby.move_seconds)
                    .hint_text("no limit")
                    .desired_width(90.0),
            )
            .on_hover_text("Whoever runs out loses; 86400 is a day");
            ui.end_row();
            ui.label("Rated");
            let mut rated = lobby.rated && logged_in;
            let hint = if logged_in {
                "Only players with accounts can join; the result moves everyone's rating"
            } else {
                "Log in to play rated games"
            };
            ui.add_enabled(logged_in, egui::Checkbox::without_text(&mut rated))
                .tap_target("Rated")
                .on_hover_text(hint)
                .on_disabled_hover_text(hint);
            if logged_in {
                lobby.rated = rated;
            }
            ui.end_row();
        });
}

fn seat_label(seat: usize) -> String {
    match seat {
        0 => "Player 1 (moves first)".to_string(),
        seat => format!("Player {}", seat + 1),
    }
}

/// The game of `form` on these terms (the seat chosen), or why it cannot be asked for.
fn chosen_terms(
    form: &NewGameForm,
    terms: &OnlineTerms,
    logged_in: bool,
) -> Result<ChallengeTerms, String> {
    let move_seconds = match terms.move_seconds.trim() {
        "" => None,
        text => Some(text.parse::<u32>().ok().filter(|&s| s > 0).ok_or_else(|| {
            format!(
                "Seconds a move: {} is not a whole number above 0",
                tabula_session::rules::text::quoted(text)
            )
        })?),
    };
    Ok(ChallengeTerms {
        game: form.kind.key().to_string(),
        settings: read_setting_files(&form.chosen_settings())?,
        pace: terms.pace.unwrap_or(Pace::Live),
        move_seconds,
        rated: terms.rated && logged_in,
        seat: Some(terms.seat),
    })
}
