//! The "Play online" screen: the server, a new game (the game and options as for a game
//! here, which seat you take, live or correspondence, a limit per move), joining or
//! watching by code, and your games on that server.

use super::layout::{fit_narrow, thumb_button, thumb_height};
use super::new_game::GameForm;
use super::online_account::{AccountForm, account_row};
use super::online_challenges::{ChallengeChoice, challenges_section};
use super::online_ratings::{RatingsChoice, RatingsForm, ratings_section};
use super::style::{ERROR_COLOUR, MENU_ANCHOR, counted, menu_height};
use crate::new_game::{NewGameForm, read_setting_files};
use crate::online::{
    AccountAsk, AccountDesk, Accounts, AskAccount, AskChallenges, AskMyGames, AskStandings,
    ChallengeAsk, ChallengeFeed, GoOnline, KeptSeats, MyGames, OnlineGame, OnlineProblem,
    Standings, default_server,
};
use crate::screens::Screen;
use crate::storage::Storage;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use tabula_online::Goal;
use tabula_online::protocol::{ChallengeTerms, GameSummary, Pace};
use tabula_session::GameKind;
use tabula_session::rules::text::shown_line;

pub fn plugin(app: &mut App) {
    app.init_resource::<LobbyForm>()
        .add_systems(OnEnter(Screen::Online), open_lobby)
        .add_systems(
            EguiPrimaryContextPass,
            online_screen.run_if(in_state(Screen::Online)),
        );
}

/// What the player typed on the online screen.
#[derive(Resource, Default)]
struct LobbyForm {
    server: String,
    code: String,
    seat: usize,
    pace: Option<Pace>,
    /// Seconds a move, as typed; empty for no limit.
    move_seconds: String,
    /// Asked for a rated game (only while logged in).
    rated: bool,
    /// The player a challenge is for, as typed; empty for anyone.
    challenge_to: String,
    error: Option<String>,
    account: AccountForm,
    ratings: RatingsForm,
}

fn open_lobby(
    mut form: ResMut<LobbyForm>,
    kept: Res<KeptSeats>,
    mut ask: MessageWriter<AskMyGames>,
    mut challenges: MessageWriter<AskChallenges>,
) {
    if form.server.is_empty() {
        form.server = default_server(&kept);
    }
    form.error = None;
    ask.write(AskMyGames {
        server: form.server.clone(),
    });
    challenges.write(AskChallenges {
        server: form.server.clone(),
        ask: ChallengeAsk::Follow,
    });
}

#[derive(SystemParam)]
struct Online<'w> {
    game: Option<Res<'w, OnlineGame>>,
    problem: Res<'w, OnlineProblem>,
    mine: Res<'w, MyGames>,
    kept: ResMut<'w, KeptSeats>,
    storage: Res<'w, Storage>,
    go: MessageWriter<'w, GoOnline>,
    ask: MessageWriter<'w, AskMyGames>,
    accounts: Res<'w, Accounts>,
    desk: Res<'w, AccountDesk>,
    account: MessageWriter<'w, AskAccount>,
    standings: Res<'w, Standings>,
    ask_standings: MessageWriter<'w, AskStandings>,
    feed: Res<'w, ChallengeFeed>,
    ask_challenges: MessageWriter<'w, AskChallenges>,
}

fn online_screen(
    mut commands: Commands,
    mut contexts: EguiContexts,
    mut chosen: GameForm,
    mut lobby: ResMut<LobbyForm>,
    mut next: ResMut<NextState<Screen>>,
    mut online: Online,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let height = menu_height(ctx);
    fit_narrow(
        egui::Window::new("Play online")
            .anchor(MENU_ANCHOR.0, MENU_ANCHOR.1)
            .collapsible(false)
            .resizable(false)
            .min_width(460.0)
            .default_height(height)
            .max_height(height),
        ctx,
    )
    .show(ctx, |ui| {
        // Back stays in sight below the rest, which scrolls on a small screen.
        let foot = 2.0 * ui.spacing().item_spacing.y + thumb_height(ui) + 4.0;
        let connecting = egui::ScrollArea::vertical()
            .max_height(ui.available_height() - foot)
            .show(ui, |ui| {
                ui.horizontal_wrapped(|ui| {
                    ui.label("Server");
                    let room = ui.available_width() - 60.0;
                    ui.add(
                        egui::TextEdit::singleline(&mut lobby.server)
                            .desired_width(room.min(260.0)),
                    );
                    if ui.button("Refresh my games").clicked() {
                        let server = lobby.server.trim().to_string();
                        online.ask.write(AskMyGames {
                            server: server.clone(),
                        });
                        online.ask_challenges.write(AskChallenges {
                            server,
                            ask: ChallengeAsk::Follow,
                        });
                    }
                });
                if let Some(game) = &online.game {
                    // Waiting for the server's answer: nothing else to do meanwhile.
                    ui.separator();
                    ui.horizontal(|ui| {
                        ui.add(egui::Spinner::new());
                        ui.label(format!("Connecting to {}…", game.server));
                        if ui.button("Cancel").clicked() {
                            commands.remove_resource::<OnlineGame>();
                        }
                    });
                    if let Some(notice) = &game.notice {
                        ui.small(notice);
                    }
                    return true;
                }
                let server = lobby.server.trim().to_string();
                if let Some(ask) = account_row(
                    ui,
                    &server,
                    &mut lobby.account,
                    &online.accounts,
                    &online.desk,
                ) {
                    online.account.write(AskAccount {
                        server: server.clone(),
                        ask,
                    });
                }
                ui.separator();
                egui::CollapsingHeader::new("New game")
                    .default_open(true)
                    .show(ui, |ui| {
                        chosen.game_and_options(ui);
                        let form = &chosen.form;
                        let logged_in = online.accounts.on(&server).is_some();
                        new_game_terms(ui, &mut lobby, form.players(), logged_in);
                        ui.horizontal_wrapped(|ui| {
                            if ui.button("Create game").clicked() {
                                match create_goal(form, &lobby, logged_in) {
                                    Ok(goal) => {
                                        lobby.error = None;
                                        online.go.write(GoOnline {
                                            server: server.clone(),
                                            goal,
                                        });
                                    }
                                    Err(e) => lobby.error = Some(e),
                                }
                            }
                            let play_now = ui
                                .add_enabled(logged_in, egui::Button::new("Play now"))
                                .on_hover_text(
                                    "Takes the lobby's challenge of this game that fits you \
                                     best, or posts one (the game's own options)",
                                )
                                .on_disabled_hover_text("Log in to play a stranger");
                            if play_now.clicked() {
                                online.ask_challenges.write(AskChallenges {
                                    server: server.clone(),
                                    ask: ChallengeAsk::PlayNow {
                                        game: form.kind.key().to_string(),
                                        pace: lobby.pace.unwrap_or(Pace::Live),
                                        rated: lobby.rated && logged_in,
                                    },
                                });
                            }
                            let post = ui
                                .add_enabled(logged_in, egui::Button::new("Post as a challenge"))
                                .on_hover_text("It waits in the lobby below until someone accepts")
                                .on_disabled_hover_text("Log in to post a challenge");
                            ui.add(
                                egui::TextEdit::singleline(&mut lobby.challenge_to)
                                    .hint_text("for anyone")
                                    .desired_width(100.0),
                            )
                            .on_hover_text("A player's name: only they may accept it");
                            if post.clicked() {
                                match challenge_ask(form, &lobby, logged_in) {
                                    Ok(ask) => {
                                        lobby.error = None;
                                        online.ask_challenges.write(AskChallenges {
                                            server: server.clone(),
                                            ask,
                                        });
                                    }
                                    Err(e) => lobby.error = Some(e),
                                }
                            }
                        });
                    });
                ui.separator();
                ui.horizontal(|ui| {
                    ui.label("Code");
                    ui.add(
                        egui::TextEdit::singleline(&mut lobby.code)
                            .hint_text("from your friend")
                            .desired_width(90.0),
                    );
                    let code = lobby.code.trim().to_ascii_uppercase();
                    let typed = !code.is_empty();
                    if ui.add_enabled(typed, egui::Button::new("Join")).clicked() {
                        let kept = online.kept.on(&server).find(|s| s.code == code).cloned();
                        // Your own seat in that game is taken back, not a second one.
                        let goal = match kept {
                            Some(seat) => Goal::Resume(seat.key()),
                            None => Goal::Join { code },
                        };
                        online.go.write(GoOnline {
                            server: server.clone(),
                            goal,
                        });
                    } else if ui.add_enabled(typed, egui::Button::new("Watch")).clicked() {
                        online.go.write(GoOnline {
                            server: server.clone(),
                            goal: Goal::Watch { code },
                        });
                    }
                });
                ui.separator();
                egui::CollapsingHeader::new("Lobby")
                    .default_open(true)
                    .show(ui, |ui| {
                        let me = online.accounts.on(&server).map(|kept| kept.name.clone());
                        match challenges_section(ui, &online.feed, me.as_deref()) {
                            Some(ChallengeChoice::Accept(id)) => {
                                online.go.write(GoOnline {
                                    server: server.clone(),
                                    goal: Goal::Accept { id },
                                });
                            }
                            Some(ChallengeChoice::Cancel(id)) => {
                                online.ask_challenges.write(AskChallenges {
                                    server: server.clone(),
                                    ask: ChallengeAsk::Cancel { id },
                                });
                            }
                            None => {}
                        }
                    });
                ui.separator();
                my_games(ui, &server, &mut online);
                ui.separator();
                egui::CollapsingHeader::new("Ratings").show(ui, |ui| {
                    let choice = ratings_section(ui, &mut lobby.ratings, &online.standings);
                    match choice {
                        Some(RatingsChoice::Ask(ask)) => {
                            online.ask_standings.write(AskStandings {
                                server: server.clone(),
                                ask,
                            });
                        }
                        Some(RatingsChoice::Watch(code)) => {
                            online.go.write(GoOnline {
                                server: server.clone(),
                                goal: Goal::Watch { code },
                            });
                        }
                        None => {}
                    }
                });
                for error in [&lobby.error, &online.problem.0].into_iter().flatten() {
                    ui.colored_label(ERROR_COLOUR, error);
                }
                false
            })
            .inner;
        if !connecting {
            ui.separator();
            if thumb_button(ui, "Back").clicked() {
                next.set(Screen::Title);
            }
        }
    });
    Ok(())
}

/// Which seat you take, the pace, the limit per move, and rated or not.
fn new_game_terms(ui: &mut egui::Ui, lobby: &mut LobbyForm, players: usize, logged_in: bool) {
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

fn create_goal(form: &NewGameForm, lobby: &LobbyForm, logged_in: bool) -> Result<Goal, String> {
    let move_seconds = match lobby.move_seconds.trim() {
        "" => None,
        text => Some(text.parse::<u32>().ok().filter(|&s| s > 0).ok_or_else(|| {
            format!(
                "Seconds a move: {} is not a whole number above 0",
                tabula_session::rules::text::quoted(text)
            )
        })?),
    };
    Ok(Goal::Create {
        game: form.kind.key().to_string(),
        settings: read_setting_files(&form.chosen_settings())?,
        seat: lobby.seat,
        pace: lobby.pace.unwrap_or(Pace::Live),
        move_seconds,
        rated: lobby.rated && logged_in,
    })
}

/// The new game's terms as a challenge for the lobby.
fn challenge_ask(
    form: &NewGameForm,
    lobby: &LobbyForm,
    logged_in: bool,
) -> Result<ChallengeAsk, String> {
    let Goal::Create {
        game,
        settings,
        seat,
        pace,
        move_seconds,
        rated,
    } = create_goal(form, lobby, logged_in)?
    else {
        return Err("not a new game".into());
    };
    let to = lobby.challenge_to.trim();
    Ok(ChallengeAsk::Post {
        terms: ChallengeTerms {
            game,
            settings,
            pace,
            move_seconds,
            rated,
            seat: Some(seat),
        },
        to: (!to.is_empty()).then(|| to.to_string()),
    })
}

/// The games of the seats kept for this server, with whose turn it is.
fn my_games(ui: &mut egui::Ui, server: &str, online: &mut Online) {
    ui.strong("My games");
    let mine = &online.mine;
    if mine.server != server {
        ui.small("Refresh to see your games on this server.");
        return;
    }
    if let Some(status) = &mine.status {
        ui.small(status);
    }
    if let Some(notice) = &mine.notice {
        ui.colored_label(ERROR_COLOUR, notice);
    }
    let Some(games) = &mine.games else {
        return;
    };
    let mut forget = None;
    let mut claim = None;
    egui::ScrollArea::vertical()
        .max_height(180.0)
        .show(ui, |ui| {
            egui::Grid::new("my games").num_columns(3).show(ui, |ui| {
                for seat in online.kept.on(server) {
                    let summary = games.iter().find(|g| g.code == seat.code);
                    let title = GameKind::from_key(&seat.game).map_or("?", |k| k.title());
                    ui.monospace(&seat.code);
                    ui.label(format!("{title}: {}", describe(summary)));
                    ui.horizontal(|ui| {
                        let logged_in = online.accounts.on(server).is_some();
                        if logged_in
                            && !online.desk.is_busy()
                            && summary.is_some_and(|g| !g.account)
                            && ui
                                .small_button("Claim")
                                .on_hover_text("Make this seat your account's, on every device")
                                .clicked()
                        {
                            claim = Some(seat.key());
                        }
                        if summary.is_some() && ui.button("Open").clicked() {
                            online.go.write(GoOnline {
                                server: server.to_string(),
                                goal: Goal::Resume(seat.key()),
                            });
                        }
                        if ui
                            .small_button("Forget")
                            .on_hover_text("Drop it from this list (the server keeps the game)")
                            .clicked()
                        {
                            forget = Some(seat.code.clone());
                        }
                    });
                    ui.end_row();
                }
                // The account's games this device has no seat of (played elsewhere).
                for game in games.iter().filter(|g| {
                    g.account && !online.kept.on(server).any(|seat| seat.code == g.code)
                }) {
                    let title = GameKind::from_key(&game.game).map_or("?", |k| k.title());
                    ui.monospace(&game.code);
                    ui.label(format!("{title}: {}", describe(Some(game))));
                    if ui.button("Open").clicked() {
                        online.go.write(GoOnline {
                            server: server.to_string(),
                            goal: Goal::ResumeMine {
                                code: game.code.clone(),
                            },
                        });
                    }
                    ui.end_row();
                }
            });
        });
    if let Some(key) = claim {
        online.account.write(AskAccount {
            server: server.to_string(),
            ask: AccountAsk::Claim {
                code: key.code,
                token: key.token,
            },
        });
    }
    if let Some(code) = forget
        && online.kept.forget(server, &code)
        && let Err(e) = online.kept.save(&online.storage)
    {
        warn!("{e}");
    }
}

/// A game of the list in words: whose turn, or how it ended.
fn describe(summary: Option<&GameSummary>) -> String {
    let Some(game) = summary else {
        return "gone from the server".to_string();
    };
    if let Some(result) = &game.result {
        return format!("{} ({})", shown_line(result), counted(game.moves, "move"));
    }
    let turn = match game.to_move {
        Some(to_move) if to_move == game.your_seat => "your turn".to_string(),
        Some(to_move) => format!("player {} to move", to_move.saturating_add(1)),
        None => "over".to_string(),
    };
    let waiting = match game.open_seats {
        0 => String::new(),
        1 => ", waiting for a player to join".to_string(),
        n => format!(", waiting for {n} players to join"),
    };
    format!("{turn}, {}{waiting}", counted(game.moves, "move"))
}
