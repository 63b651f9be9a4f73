//! The new-game screen: the game, its options (each with its name, a control for its values
//! and what it does, from the rules crate), and who sits in each seat.

use super::layout::{fit_narrow, is_narrow, thumb_button, thumb_height};
use super::rules_help::RulesHelp;
use super::style::{ERROR_COLOUR, MENU_ANCHOR, menu_height};
use crate::TapTarget;
use crate::config::Settings;
use crate::current_game::Seat;
use crate::new_game::{NewGameForm, StartGame};
use crate::screens::Screen;
use crate::table::GameKind;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use tabula_session::RatingSettings;
use tabula_session::rules::{OptionInfo, OptionOrigin, OptionValues};

pub fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        new_game_screen.run_if(in_state(Screen::NewGame)),
    );
}

/// The new-game form as the new-game and online screens edit it: the form, the settings it
/// starts from, and the rules window a game's "Rules" opens.
#[derive(SystemParam)]
pub(super) struct GameForm<'w> {
    pub form: ResMut<'w, NewGameForm>,
    pub settings: Res<'w, Settings>,
    pub help: ResMut<'w, RulesHelp>,
}

impl GameForm<'_> {
    /// The game tabs, its tagline and rules, and its options.
    pub fn game_and_options(&mut self, ui: &mut egui::Ui) {
        game_and_options(ui, &mut self.form, &self.settings, &mut self.help);
    }
}

fn new_game_screen(
    mut contexts: EguiContexts,
    mut chosen: GameForm,
    mut next: ResMut<NextState<Screen>>,
    mut start: MessageWriter<StartGame>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let height = menu_height(ctx);
    let window = egui::Window::new("New game")
        .anchor(MENU_ANCHOR.0, MENU_ANCHOR.1)
        .collapsible(false)
        .resizable(false)
        .min_width(420.0)
        .default_height(height)
        .max_height(height);
    fit_narrow(window, ctx).show(ctx, |ui| {
        // Back and Start stay in sight below the form, which scrolls on a small screen.
        let foot = 2.0 * ui.spacing().item_spacing.y + thumb_height(ui) + 4.0;
        egui::ScrollArea::vertical()
            .max_height(ui.available_height() - foot)
            .show(ui, |ui| {
                chosen.game_and_options(ui);
                let GameForm { form, settings, .. } = &mut chosen;
                ui.separator();
                ui.label("Seats (people take turns at this screen):");
                let players = form.players();
                let game = form.kind.key();
                egui::Grid::new("seats").num_columns(2).show(ui, |ui| {
                    for seat in 0..players {
                        ui.label(format!("Player {}", seat + 1));
                        let current = form.seats[seat].label(game);
                        ui.vertical(|ui| {
                            egui::ComboBox::from_id_salt(("seat", seat))
                                .selected_text(current)
                                .width(220.0)
                                .show_ui(ui, |ui| {
                                    for option in Seat::offered(game) {
                                        let (label, about) =
                                            (option.label(game), option.about(game));
                                        let name = format_args!("seat {}: {label}", seat + 1);
                                        let item = ui
                                            .selectable_value(&mut form.seats[seat], option, &label)
                                            .tap_target(name);
                                        if let Some(about) = about {
                                            item.on_hover_text(about);
                                        }
                                    }
                                })
                                .response
                                .tap_target(format_args!("seat {}", seat + 1));
                            if let Some(about) = form.seats[seat].about(game) {
                                ui.small(about);
                            }
                        });
                        ui.end_row();
                    }
                });
                rating_line(ui, form, settings, players);
            });
        let GameForm { form, .. } = &mut chosen;
        let players = form.players();
        if let Some(error) = &form.error {
            ui.colored_label(ERROR_COLOUR, error);
        }
        ui.horizontal(|ui| {
            if thumb_button(ui, "Back").tap_target("Back").clicked() {
                next.set(Screen::Title);
            }
            if thumb_button(ui, "Start").tap_target("Start").clicked() {
                start.write(StartGame {
                    kind: form.kind,
                    settings: form.chosen_settings(),
                    seats: form.seats[..players].to_vec(),
                });
            }
        });
    });
    Ok(())
}

/// The game tabs, its tagline and rules, and its options: shared by the new-game and online
/// screens.
fn game_and_options(
    ui: &mut egui::Ui,
    form: &mut NewGameForm,
    settings: &Settings,
    help: &mut RulesHelp,
) {
    ui.horizontal(|ui| {
        for kind in GameKind::ALL {
            if ui
                .selectable_label(form.kind == kind, kind.title())
                .tap_target(format_args!("game {}", kind.title()))
                .clicked()
                && form.kind != kind
            {
                *form = NewGameForm::for_game(kind, settings);
            }
        }
    });
    ui.horizontal_wrapped(|ui| {
        ui.label(form.kind.tagline());
        if ui.button("Rules").on_hover_text("F1").clicked() {
            help.0 = Some(form.kind);
        }
    });
    ui.separator();
    let described = form.kind.options();
    let cells = board_cells(ui, form.kind, &form.settings);
    // Each option: its name, then its control and what it does; side by side where
    // there is room, one under the other on a phone.
    let mut rows = |ui: &mut egui::Ui, narrow: bool| {
        for (key, value) in form.settings.iter_mut() {
            let beside = cells.as_deref().filter(|_| key.as_str() == "size");
            match described.iter().find(|info| info.key == key.as_str()) {
                // On a phone a switch carries its name, as a box ticked beside it.
                Some(info) if narrow && matches!(info.values, OptionValues::Flag) => {
                    option_body(ui, info, value, beside, Some(info.name));
                }
                Some(info) => {
                    option_name(ui, info, value, narrow);
                    option_body(ui, info, value, beside, None);
                }
                // A key the settings file names that this version does not know.
                None => {
                    ui.label(key.as_str());
                    ui.add(egui::TextEdit::singleline(value).hint_text("default"));
                }
            }
            if narrow {
                ui.add_space(6.0);
            } else {
                ui.end_row();
            }
        }
    };
    if is_narrow(ui.ctx()) {
        rows(ui, true);
    } else {
        egui::Grid::new("options")
            .num_columns(2)
            .spacing([12.0, 2.0])
            .show(ui, |ui| rows(ui, false));
    }
}

/// The cells of the board these options make, as the rules build it (shown beside the
/// size), worked out again only when the options change.
fn board_cells(ui: &egui::Ui, kind: GameKind, settings: &[(String, String)]) -> Option<String> {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    (kind.key(), settings).hash(&mut hasher);
    let key = hasher.finish();
    let id = egui::Id::new("board cells");
    if let Some((seen, cells)) = ui.data(|d| d.get_temp::<(u64, Option<String>)>(id))
        && seen == key
    {
        return cells;
    }
    let cells = crate::table::new_table(kind, settings)
        .ok()
        .map(|table| format!("{} cells", table.layout().cells.len()));
    ui.data_mut(|d| d.insert_temp(id, (key, cells.clone())));
    cells
}

/// An option's name, the key on hover; strong above its control on a phone.
fn option_name(ui: &mut egui::Ui, info: &OptionInfo, value: &str, narrow: bool) {
    let name = if narrow {
        egui::RichText::new(info.name).strong()
    } else {
        egui::RichText::new(info.name)
    };
    ui.label(name)
        .on_hover_text(format!("{}={value}", info.key));
}

/// The control an option's values call for (a switch `named` beside its box, if asked, and
/// a note beside it: the board's cells by the size), and what it does, saying so when it
/// is not the designer's rule.
fn option_body(
    ui: &mut egui::Ui,
    info: &OptionInfo,
    value: &mut String,
    beside: Option<&str>,
    named: Option<&str>,
) {
    ui.vertical(|ui| {
        ui.horizontal(|ui| {
            option_control(ui, info, value, named.unwrap_or_default());
            if let Some(note) = beside {
                ui.strong(note);
            }
        });
        let origin = match info.origin {
            OptionOrigin::Designer => String::new(),
            origin => format!(" ({})", origin.label()),
        };
        ui.small(format!("{}{origin}", info.explanation));
    });
}

fn option_control(ui: &mut egui::Ui, info: &OptionInfo, value: &mut String, flag_name: &str) {
    match info.values {
        OptionValues::Flag => {
            let mut on = value == "true";
            let name = egui::RichText::new(flag_name).strong();
            if ui.checkbox(&mut on, name).changed() {
                *value = on.to_string();
            }
        }
        OptionValues::Choice(words) => {
            egui::ComboBox::from_id_salt(info.key)
                .selected_text(value.as_str())
                .show_ui(ui, |ui| {
                    for word in words {
                        ui.selectable_value(value, word.to_string(), *word);
                    }
                });
        }
        OptionValues::Number { min, max, unset } => {
            number_control(ui, info.key, value, min, max, unset);
        }
        OptionValues::Board => board_control(ui, value),
    }
}

/// Super-Adaptoid boards offered besides the standard one, built in so they are there from
/// any directory and in the browser.
const BOARDS: [(&str, &str); 1] = [(
    "Two lobes (boards/super-adaptoid-example.txt)",
    include_str!("../../boards/super-adaptoid-example.txt"),
)];

const STANDARD_BOARD: &str = "Standard hexagon";
const OTHER_BOARD: &str = "From a file (@path) or pasted";

/// The standard board, a built-in Super-Adaptoid board, or one from a file or pasted.
fn board_control(ui: &mut egui::Ui, value: &mut String) {
    let built_in = BOARDS.iter().find(|(_, text)| value == text);
    let current = match built_in {
        Some((name, _)) => name,
        None if value.trim().is_empty() => STANDARD_BOARD,
        None => OTHER_BOARD,
    };
    egui::ComboBox::from_id_salt("board")
        .selected_text(current)
        .width(ui.available_width().min(300.0))
        .show_ui(ui, |ui| {
            if ui
                .selectable_label(current == STANDARD_BOARD, STANDARD_BOARD)
                .clicked()
            {
                value.clear();
            }
            for (name, text) in BOARDS {
                if ui.selectable_label(current == name, name).clicked() {
                    *value = text.to_string();
                }
            }
            if ui
                .selectable_label(current == OTHER_BOARD, OTHER_BOARD)
                .clicked()
            {
                *value = "@".to_string();
            }
        });
    if current == OTHER_BOARD {
        ui.add(
            egui::TextEdit::multiline(value)
                .hint_text("@path/to/board.txt, or the board's picture")
                .desired_rows(1)
                .desired_width(ui.available_width().min(300.0)),
        );
    }
}

/// A slider for a short range, a number field for a long one (a cap in plies); a box for
/// the rules' own default when the option may be left unset; text that is not a number
/// (from a settings file) stays editable as text.
fn number_control(
    ui: &mut egui::Ui,
    key: &str,
    value: &mut String,
    min: u64,
    max: u64,
    unset: Option<&str>,
) {
    ui.vertical(|ui| {
        if let Some(unset) = unset {
            let mut by_rules = value.is_empty();
            if ui
                .checkbox(&mut by_rules, format!("default: {unset}"))
                .changed()
            {
                // Unticked, the slider starts at the first number the default names.
                let start = unset
                    .split(|c: char| !c.is_ascii_digit())
                    .find_map(|n| n.parse::<u64>().ok())
                    .unwrap_or(min)
                    .clamp(min, max);
                *value = if by_rules {
                    String::new()
                } else {
                    start.to_string()
                };
            }
            if by_rules {
                return;
            }
        }
        let Ok(mut number) = value.trim().parse::<u64>() else {
            ui.add(egui::TextEdit::singleline(value).hint_text(format!("{min} to {max}")));
            return;
        };
        let changed = if max - min <= 100 {
            ui.add(egui::Slider::new(&mut number, min..=max)).changed()
        } else {
            ui.horizontal(|ui| {
                let field = egui::DragValue::new(&mut number).range(min..=max);
                let changed = ui.add(field).changed();
                if number == 0 && key.ends_with("_cap") {
                    ui.weak("never");
                }
                changed
            })
            .inner
        };
        if changed {
            *value = number.to_string();
        }
    });
}

/// The player's rating in the chosen game and the level that fits it, which the bot seats
/// can take with one click.
fn rating_line(ui: &mut egui::Ui, form: &mut NewGameForm, settings: &Settings, players: usize) {
    let rules = RatingSettings::built_in();
    let Some(rating) = settings.ratings.get(form.kind.key()) else {
        ui.weak(format!(
            "Your {} rating starts with your first game against a bot level.",
            form.kind.title()
        ));
        return;
    };
    let level = rules.suggested_level(form.kind, rating.rating);
    let fits = Seat::Bot(level);
    ui.horizontal_wrapped(|ui| {
        ui.label(format!(
            "Your {} rating: {:.0} ({} {}). {} fits you best.",
            form.kind.title(),
            rating.rating,
            rating.games,
            if rating.games == 1 { "game" } else { "games" },
            fits.label(form.kind.key())
        ))
        .on_hover_text(
            "Elo against the bot levels' measured strength (config/ratings.ron); every \
             finished game of one person against bot levels counts",
        );
        let bots: Vec<usize> = (0..players)
            .filter(|&seat| form.seats[seat].is_bot())
            .collect();
        let already = !bots.is_empty() && bots.iter().all(|&seat| form.seats[seat] == fits);
        if !already && ui.button(format!("Play level {level}")).clicked() {
            match bots.as_slice() {
                // People only: the first stays a person, the others become the bot.
                [] => form.seats[1..players]
                    .iter_mut()
                    .for_each(|seat| *seat = fits.clone()),
                _ => bots
                    .iter()
                    .for_each(|&seat| form.seats[seat] = fits.clone()),
            }
        }
    });
}
