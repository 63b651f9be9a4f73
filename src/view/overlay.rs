//! The egui overlay: the title and new-game screens, the side panel during play (turn,
//! scores, the move being built with exactly the builder's legal choices, the move list),
//! cell and stack-height labels over the board, the pause menu and the result.

use super::board::HoveredCell;
use super::camera::OrbitCamera;
use super::models::MAX_DRAWN_DISCS;
use super::records::RecordWindows;
use super::rules_help::RulesHelp;
use crate::animation::Animating;
use crate::bot::{Hint, Purpose, RequestHint, Thinking};
use crate::config::{ConfigProblems, Keys, PALETTES, Settings, Theme};
use crate::saving::{LoadRecord, Resumable, SaveGame, SaveMessage};
use crate::screens::{InMatch, Match, NewGameForm, Paused, Screen, Seat, StartGame};
use crate::storage::Storage;
use crate::table::{GameKind, Shape, Table};
use crate::turn::{CellMenu, PlayerInput, Travel, TurnMessage};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        (
            apply_theme,
            title_screen.run_if(in_state(Screen::Title)),
            new_game_screen.run_if(in_state(Screen::NewGame)),
            (side_panel, board_labels, pause_menu).run_if(in_state(InMatch)),
            result_window.run_if(in_state(Screen::Result)),
        ),
    )
    .init_resource::<ResultClosed>()
    .init_resource::<FocusMoveEntry>()
    .add_systems(OnEnter(Screen::Result), reopen_result)
    .add_systems(Update, (pause_key, game_keys).run_if(in_state(InMatch)));
}

/// What the title screen and the pause menu need to keep games.
#[derive(SystemParam)]
struct Keeping<'w> {
    resumable: Res<'w, Resumable>,
    storage: Res<'w, Storage>,
    windows: ResMut<'w, RecordWindows>,
    load: MessageWriter<'w, LoadRecord>,
    save: MessageWriter<'w, SaveGame>,
    message: Res<'w, SaveMessage>,
}

/// The side panel's bot hints and moves through the line.
#[derive(SystemParam)]
struct Helpers<'w> {
    thinking: Option<Res<'w, Thinking>>,
    hint: Option<Res<'w, Hint>>,
    ask_hint: MessageWriter<'w, RequestHint>,
    travel: MessageWriter<'w, Travel>,
    rules_help: ResMut<'w, RulesHelp>,
    focus_entry: ResMut<'w, FocusMoveEntry>,
}

/// `/` was pressed: the move entry takes the keyboard, as chat boxes do in many games.
#[derive(Resource, Default)]
struct FocusMoveEntry(bool);

/// A page cannot quit; closing its tab does.
const QUIT_OFFERED: bool = cfg!(not(target_arch = "wasm32"));

const ERROR_COLOUR: egui::Color32 = egui::Color32::from_rgb(240, 120, 90);

fn colour32(colour: Color) -> egui::Color32 {
    let c = colour.to_srgba();
    egui::Color32::from_rgb(
        (c.red * 255.0) as u8,
        (c.green * 255.0) as u8,
        (c.blue * 255.0) as u8,
    )
}

fn palette_size(kind: GameKind) -> usize {
    if kind == GameKind::Adamas { 3 } else { 2 }
}

fn title_screen(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    problems: Res<ConfigProblems>,
    mut form: ResMut<NewGameForm>,
    mut next: ResMut<NextState<Screen>>,
    mut exit: MessageWriter<AppExit>,
    mut keeping: Keeping,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    egui::Window::new("Tabula")
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            ui.heading("Four abstract strategy games");
            ui.add_space(8.0);
            for kind in GameKind::ALL {
                ui.horizontal(|ui| {
                    if ui
                        .add_sized([140.0, 32.0], egui::Button::new(kind.title()))
                        .clicked()
                    {
                        *form = NewGameForm::for_game(kind, &settings);
                        next.set(Screen::NewGame);
                    }
                    ui.label(kind.tagline());
                });
            }
            ui.add_space(8.0);
            ui.horizontal(|ui| {
                if let Some(record) = &keeping.resumable.0 {
                    let title = record.kind().map_or("the game", |k| k.title());
                    let moves = record.at.unwrap_or(record.moves.len());
                    if ui
                        .button(format!("Resume {title} ({moves} moves)"))
                        .on_hover_text("The game you left, as it was")
                        .clicked()
                    {
                        keeping.load.write(LoadRecord(record.clone()));
                    }
                }
                if ui.button("Load a game…").clicked() {
                    keeping.windows.open_load(&keeping.storage, None);
                }
            });
            if let Some(Err(error)) = &keeping.message.0
                && keeping.windows.load.is_none()
            {
                ui.colored_label(ERROR_COLOUR, error);
            }
            for problem in &problems.0 {
                ui.colored_label(ERROR_COLOUR, problem);
            }
            if QUIT_OFFERED && ui.button("Quit").clicked() {
                exit.write(AppExit::Success);
            }
        });
    Ok(())
}

fn new_game_screen(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    mut form: ResMut<NewGameForm>,
    mut next: ResMut<NextState<Screen>>,
    mut start: MessageWriter<StartGame>,
    mut help: ResMut<RulesHelp>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    egui::Window::new("New game")
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .collapsible(false)
        .resizable(false)
        .min_width(420.0)
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                for kind in GameKind::ALL {
                    if ui.selectable_label(form.kind == kind, kind.title()).clicked()
                        && form.kind != kind
                    {
                        *form = NewGameForm::for_game(kind, &settings);
                    }
                }
            });
            ui.horizontal(|ui| {
                ui.label(form.kind.tagline());
                if ui.button("Rules").on_hover_text("F1").clicked() {
                    help.0 = Some(form.kind);
                }
            });
            ui.separator();
            ui.label("Options (empty means the rules' default):");
            egui::Grid::new("options").num_columns(2).show(ui, |ui| {
                for (key, value) in form.settings.iter_mut() {
                    ui.label(key.as_str());
                    if value == "true" || value == "false" {
                        let mut on = value == "true";
                        if ui.checkbox(&mut on, "").changed() {
                            *value = on.to_string();
                        }
                    } else {
                        ui.add(egui::TextEdit::singleline(value).hint_text("default"));
                    }
                    ui.end_row();
                }
            });
            if form.kind == GameKind::Adaptoid {
                ui.small("board: a Super-Adaptoid board file as @path, e.g. @boards/super-adaptoid-example.txt");
            }
            ui.separator();
            ui.label("Seats (people take turns at this screen):");
            let players = form.players();
            egui::Grid::new("seats").num_columns(2).show(ui, |ui| {
                for seat in 0..players {
                    ui.label(format!("Player {}", seat + 1));
                    let current = form.seats[seat];
                    egui::ComboBox::from_id_salt(("seat", seat))
                        .selected_text(current.label())
                        .width(220.0)
                        .show_ui(ui, |ui| {
                            for option in Seat::all() {
                                ui.selectable_value(&mut form.seats[seat], option, option.label());
                            }
                        });
                    ui.end_row();
                }
            });
            if let Some(error) = &form.error {
                ui.colored_label(ERROR_COLOUR, error);
            }
            ui.horizontal(|ui| {
                if ui.button("Back").clicked() {
                    next.set(Screen::Title);
                }
                if ui.button("Start").clicked() {
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

#[allow(clippy::too_many_arguments)]
fn side_panel(
    mut contexts: EguiContexts,
    game: Res<Match>,
    settings: Res<Settings>,
    animating: Res<Animating>,
    menu: Res<CellMenu>,
    message: Res<TurnMessage>,
    hovered: Res<HoveredCell>,
    mut typed: Local<String>,
    mut input: MessageWriter<PlayerInput>,
    mut paused: ResMut<Paused>,
    helpers: Helpers,
) -> Result {
    let Helpers {
        thinking,
        hint,
        mut ask_hint,
        mut travel,
        mut rules_help,
        mut focus_entry,
    } = helpers;
    let ctx = contexts.ctx_mut()?;
    let table: &dyn Table = game.table.as_ref();
    let bot_to_move = game
        .seats
        .get(table.to_move())
        .is_some_and(|seat| seat.is_bot());
    let mut root = egui::Ui::new(
        ctx.clone(),
        "board".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    );
    let palette = palette_size(table.kind());
    egui::Panel::right("side")
        .exact_size(310.0)
        .show(&mut root, |ui| {
            ui.horizontal(|ui| {
                ui.heading(table.kind().title());
                if ui.button("Menu").on_hover_text("Esc").clicked() {
                    paused.0 = true;
                }
                if ui.button("Rules").on_hover_text("F1").clicked() {
                    rules_help.0 = Some(table.kind());
                }
            });
            ui.separator();
            for seat in 0..table.num_players() {
                let colour = colour32(settings.colour(palette, table.colour_of_seat(seat)));
                ui.horizontal(|ui| {
                    let (rect, _) =
                        ui.allocate_exact_size(egui::vec2(14.0, 14.0), egui::Sense::hover());
                    ui.painter().circle_filled(rect.center(), 6.5, colour);
                    let mut line = table.score_lines().get(seat).cloned().unwrap_or_default();
                    if let Some(Seat::Bot(level)) = game.seats.get(seat) {
                        line.push_str(&format!(" (bot, level {level})"));
                    }
                    let text = if seat == table.to_move() && !table.status().is_over() {
                        egui::RichText::new(format!("▶ {line}")).strong()
                    } else {
                        egui::RichText::new(line)
                    };
                    ui.add(egui::Label::new(text).wrap());
                });
            }
            ui.add_space(4.0);
            ui.strong(table.status_text());
            travel_controls(ui, table, animating.0, &mut travel);
            ui.separator();
            let busy = animating.0 || table.status().is_over() || bot_to_move;
            if let Some(thinking) = &thinking {
                thinking_indicator(ui, thinking, &game);
            }
            if !busy {
                move_builder(ui, table, &menu, &mut input);
                ui.horizontal(|ui| {
                    let searching = thinking
                        .as_ref()
                        .is_some_and(|t| t.purpose == Purpose::Hint);
                    if ui
                        .add_enabled(!searching, egui::Button::new("Hint"))
                        .on_hover_text(
                            "The bot's suggestion (level 3), shown on the board in violet",
                        )
                        .clicked()
                    {
                        ask_hint.write(RequestHint);
                    }
                    if let Some(hint) = &hint {
                        ui.label(format!(
                            "Try {} (win chance {:.0}%)",
                            hint.text,
                            100.0 * hint.value
                        ));
                    }
                });
            }
            if let Some(text) = &message.0 {
                ui.colored_label(ERROR_COLOUR, text);
            }
            if let Some(hint) = hovered.0.and_then(|cell| table.cell_hint(cell)) {
                ui.small(hint);
            }
            ui.separator();
            ui.horizontal(|ui| {
                let entry = ui.add(
                    egui::TextEdit::singleline(&mut *typed)
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
            ui.separator();
            ui.label("Moves");
            egui::ScrollArea::vertical()
                .stick_to_bottom(true)
                .show(ui, |ui| {
                    // The whole line: moves taken back are greyed; a click jumps to a move.
                    let played = table.record().len();
                    for (i, mv) in table.line().iter().enumerate() {
                        let text = format!("{:>3}. {mv}", i + 1);
                        let mut text = egui::RichText::new(text).monospace();
                        if i + 1 == played {
                            text = text.strong();
                        } else if i >= played {
                            text = text.weak();
                        }
                        let label = egui::Label::new(text).sense(egui::Sense::click());
                        if ui.add(label).clicked() && !animating.0 {
                            travel.write(Travel::GoTo(i + 1));
                        }
                    }
                });
        });
    Ok(())
}

/// Undo, redo and a slider over the whole line; while looking back, the way on.
fn travel_controls(
    ui: &mut egui::Ui,
    table: &dyn Table,
    animating: bool,
    travel: &mut MessageWriter<Travel>,
) {
    let at = table.record().len();
    let length = table.line().len();
    ui.horizontal(|ui| {
        let undo = egui::Button::new("Undo");
        if ui
            .add_enabled(!animating && at > 0, undo)
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
    if at < length {
        ui.horizontal(|ui| {
            ui.label(format!("Looking back: {} later moves.", length - at));
            if ui
                .add_enabled(!animating, egui::Button::new("Play on from here"))
                .on_hover_text("Forget the later moves; bots play again")
                .clicked()
            {
                travel.write(Travel::PlayOn);
            }
        });
    }
}

/// Who is thinking and how far through its time, with a spinner so a still board is
/// seen to be alive.
fn thinking_indicator(ui: &mut egui::Ui, thinking: &Thinking, game: &Match) {
    let who = match thinking.purpose {
        Purpose::Move { seat } => format!(
            "{} is thinking…",
            game.seats.get(seat).copied().unwrap_or_default().label()
        ),
        Purpose::Hint => "Looking for a hint…".to_string(),
    };
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

/// The move being built: what is chosen, then every legal next step as a button.
fn move_builder(
    ui: &mut egui::Ui,
    table: &dyn Table,
    menu: &CellMenu,
    input: &mut MessageWriter<PlayerInput>,
) {
    if let Some(draft) = table.draft_text() {
        ui.label(draft);
    }
    let chosen = table.chosen();
    if !chosen.is_empty() {
        ui.label(format!("Chosen: {}", chosen.join(", ")));
    }
    let choices = table.choices();
    // A click on a cell with several choices lists just those first.
    let mut order: Vec<usize> = (0..choices.len()).collect();
    if let Some(cell) = menu.0 {
        order.sort_by_key(|&i| choices[i].cell != Some(cell));
        ui.strong(format!(
            "Choose for {}:",
            table
                .layout()
                .cells
                .get(cell)
                .map_or("?", |c| c.label.as_str())
        ));
    } else if choices.is_empty() {
        ui.label("Nothing more to choose.");
    } else {
        ui.label("Click a lit cell, or choose:");
    }
    egui::ScrollArea::vertical()
        .id_salt("choices")
        .max_height(220.0)
        .show(ui, |ui| {
            for index in order {
                let choice = &choices[index];
                let in_menu = menu.0.is_some() && choice.cell == menu.0;
                let button = egui::Button::new(&choice.text).selected(in_menu);
                if ui.add(button).clicked() {
                    input.write(PlayerInput::Choose(index));
                }
            }
        });
    ui.horizontal(|ui| {
        let complete = table.complete_move();
        if ui
            .add_enabled(complete.is_some(), egui::Button::new("Play move"))
            .on_hover_text(complete.clone().unwrap_or_default())
            .clicked()
        {
            input.write(PlayerInput::Confirm);
        }
        if ui
            .add_enabled(!chosen.is_empty(), egui::Button::new("Step back"))
            .clicked()
        {
            input.write(PlayerInput::TakeBackStep);
        }
        if ui
            .add_enabled(!chosen.is_empty(), egui::Button::new("Cancel"))
            .clicked()
        {
            input.write(PlayerInput::Cancel);
        }
    });
}

/// Cell labels (when shown) and the height of every stack of two or more, over the board.
fn board_labels(
    mut contexts: EguiContexts,
    game: Res<Match>,
    settings: Res<Settings>,
    cameras: Query<(&Camera, &GlobalTransform), With<OrbitCamera>>,
    pieces: Query<(&crate::pieces::PieceOf, &GlobalTransform)>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let Ok((camera, camera_transform)) = cameras.single() else {
        return Ok(());
    };
    let painter = ctx.layer_painter(egui::LayerId::new(
        egui::Order::Background,
        egui::Id::new("labels"),
    ));
    let layout = game.table.layout();
    if settings.show_labels {
        for cell in &layout.cells {
            let at = Vec3::new(cell.pos.x, 0.01, cell.pos.y + layout.spacing * 0.42);
            if let Ok(p) = camera.world_to_viewport(camera_transform, at) {
                painter.text(
                    egui::pos2(p.x, p.y),
                    egui::Align2::CENTER_CENTER,
                    &cell.label,
                    egui::FontId::proportional(11.0),
                    egui::Color32::from_rgb(250, 240, 210),
                );
            }
        }
    }
    for (piece, transform) in &pieces {
        if piece.look.shape != Shape::Stack || piece.look.height < 2 {
            continue;
        }
        let drawn = piece.look.height.min(MAX_DRAWN_DISCS) as f32;
        let top = transform.translation() + Vec3::Y * (drawn * super::models::DISC_HEIGHT + 0.12);
        if let Ok(p) = camera.world_to_viewport(camera_transform, top) {
            let text = piece.look.height.to_string();
            let rect = egui::Rect::from_center_size(egui::pos2(p.x, p.y), egui::vec2(22.0, 16.0));
            painter.rect_filled(rect, 4.0, egui::Color32::from_black_alpha(170));
            painter.text(
                rect.center(),
                egui::Align2::CENTER_CENTER,
                text,
                egui::FontId::proportional(12.0),
                egui::Color32::WHITE,
            );
        }
    }
    Ok(())
}

fn pause_menu(
    mut contexts: EguiContexts,
    mut paused: ResMut<Paused>,
    mut settings: ResMut<Settings>,
    mut next: ResMut<NextState<Screen>>,
    mut exit: MessageWriter<AppExit>,
    mut keeping: Keeping,
    game: Res<Match>,
) -> Result {
    if !paused.0 {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    egui::Window::new("Paused")
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            if ui.button("Resume (Esc)").clicked() {
                paused.0 = false;
            }
            ui.add(
                egui::Slider::new(&mut settings.animation_speed, 0.0..=4.0).text("animation speed"),
            );
            ui.checkbox(&mut settings.show_labels, "cell labels (L)");
            ui.checkbox(&mut settings.confirm_moves, "confirm every move");
            appearance(ui, &mut settings);
            ui.separator();
            ui.horizontal(|ui| {
                if ui
                    .add_enabled(
                        keeping.storage.dir.is_some(),
                        egui::Button::new("Save game"),
                    )
                    .clicked()
                {
                    keeping.save.write(SaveGame);
                }
                if ui.button("Export…").clicked() {
                    keeping.windows.export = true;
                    paused.0 = false;
                }
                if ui
                    .button("Load a game…")
                    .on_hover_text("This game stays autosaved, and goes to your saved games if another replaces it")
                    .clicked()
                {
                    keeping
                        .windows
                        .open_load(&keeping.storage, Some(game.table.kind()));
                    next.set(Screen::Title);
                }
            });
            match &keeping.message.0 {
                Some(Ok(text)) => {
                    ui.label(text);
                }
                Some(Err(text)) => {
                    ui.colored_label(ERROR_COLOUR, text);
                }
                None => {}
            }
            ui.separator();
            if ui.button("New game").clicked() {
                next.set(Screen::NewGame);
            }
            if ui.button("Title screen").clicked() {
                next.set(Screen::Title);
            }
            if QUIT_OFFERED && ui.button("Quit").clicked() {
                exit.write(AppExit::Success);
            }
        });
    Ok(())
}

/// The palette and the theme, changed only when the player picks another.
fn appearance(ui: &mut egui::Ui, settings: &mut ResMut<Settings>) {
    ui.horizontal(|ui| {
        ui.label("Pieces");
        let current = settings.palette_name().unwrap_or("Custom");
        egui::ComboBox::from_id_salt("palette")
            .selected_text(current)
            .show_ui(ui, |ui| {
                for palette in &PALETTES {
                    if ui
                        .selectable_label(current == palette.0, palette.0)
                        .clicked()
                    {
                        settings.use_palette(palette);
                    }
                }
            });
    });
    ui.horizontal(|ui| {
        ui.label("Theme");
        for (theme, name) in [(Theme::Dark, "Dark"), (Theme::Light, "Light")] {
            if ui.selectable_label(settings.theme == theme, name).clicked() {
                settings.theme = theme;
            }
        }
    });
}

/// Menus and background follow the theme.
fn apply_theme(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    mut clear: ResMut<ClearColor>,
    mut applied: Local<Option<Theme>>,
) -> Result {
    if *applied == Some(settings.theme) {
        return Ok(());
    }
    *applied = Some(settings.theme);
    let ctx = contexts.ctx_mut()?;
    let (visuals, background) = match settings.theme {
        Theme::Dark => (egui::Visuals::dark(), Color::srgb(0.09, 0.10, 0.12)),
        Theme::Light => (egui::Visuals::light(), Color::srgb(0.80, 0.82, 0.85)),
    };
    ctx.set_visuals(visuals);
    clear.0 = background;
    Ok(())
}

/// The result window was closed to look at the board.
#[derive(Resource, Default)]
struct ResultClosed(bool);

fn reopen_result(mut closed: ResMut<ResultClosed>) {
    closed.0 = false;
}

fn result_window(
    mut contexts: EguiContexts,
    game: Res<Match>,
    mut closed: ResMut<ResultClosed>,
    mut next: ResMut<NextState<Screen>>,
    mut travel: MessageWriter<Travel>,
) -> Result {
    if closed.0 {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    let mut replay = false;
    egui::Window::new("Game over")
        .anchor(egui::Align2::CENTER_TOP, [-150.0, 60.0])
        .collapsible(false)
        .resizable(false)
        .open(&mut open)
        .show(ctx, |ui| {
            ui.heading(game.table.status_text());
            ui.label(format!("after {} moves", game.table.record().len()));
            ui.horizontal(|ui| {
                if ui
                    .button("Replay")
                    .on_hover_text("From the first move: step with Redo, or drag the slider")
                    .clicked()
                {
                    travel.write(Travel::GoTo(0));
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

fn pause_key(keys: Res<ButtonInput<KeyCode>>, bindings: Res<Keys>, mut paused: ResMut<Paused>) {
    if keys.just_pressed(bindings.pause) {
        paused.0 = !paused.0;
    }
}

fn game_keys(
    keys: Res<ButtonInput<KeyCode>>,
    bindings: Res<Keys>,
    egui: Option<Res<bevy_egui::input::EguiWantsInput>>,
    paused: Res<Paused>,
    mut settings: ResMut<Settings>,
    (mut input, mut travel): (MessageWriter<PlayerInput>, MessageWriter<Travel>),
    mut focus_entry: ResMut<FocusMoveEntry>,
) {
    if paused.0 || egui.is_some_and(|e| e.wants_any_keyboard_input()) {
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
