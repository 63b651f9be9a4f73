//! The "Play online" screen: the server, a new game (the game and options as for a game
//! here, which seat you take, live or correspondence, a limit per move), joining or
//! watching by code, and your games on that server.

use super::layout::{fit_narrow, thumb_button, thumb_height};
use super::new_game::GameForm;
use super::online_account::{AccountForm, account_row};
use super::online_challenges::{ChallengeChoice, challenges_section};
use super::online_new_game::{NewGameChoice, OnlineTerms, new_game_section};
use super::online_ratings::{RatingsChoice, RatingsForm, ratings_section};
use super::style::{ERROR_COLOUR, MENU_ANCHOR, counted, menu_height};
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
use tabula_online::protocol::GameSummary;
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
    terms: OnlineTerms,
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
                        let logged_in = online.accounts.on(&server).is_some();
                        let chosen = new_game_section(
                            ui,
                            &chosen.form,
                            &mut lobby.terms,
                            logged_in,
                            online.feed.house.as_ref(),
                        );
                        match chosen {
                            Some(Ok(choice)) => {
                                lobby.error = None;
                                match choice {
                                    NewGameChoice::Create(goal) => {
                                        online.go.write(GoOnline {
                                            server: server.clone(),
                                            goal,
                                        });
                                    }
                                    NewGameChoice::Challenge(ask) => {
                                        online.ask_challenges.write(AskChallenges {
                                            server: server.clone(),
                                            ask,
                                        });
                                    }
                                }
                            }
                            Some(Err(e)) => lobby.error = Some(e),
                            None => {}
                        }
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
