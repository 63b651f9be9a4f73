//! The account row of the "Play online" screen: a name and a password to log in or register
//! with, or who is logged in, with log-out and the account's settings. What the player asks
//! is handed back to the screen, which sends it.

use super::style::ERROR_COLOUR;
use crate::TapTarget;
use crate::online::{AccountAsk, AccountDesk, Accounts};
use bevy_egui::egui;
use tabula_session::rules::text::shown_line;

/// The account's name and passwords as typed; the passwords are cleared once sent.
#[derive(Default)]
pub struct AccountForm {
    name: String,
    password: String,
    /// A new password, as typed (the current one is `password`).
    new_password: String,
    /// Whether "Delete account" was pressed once: a second press deletes it.
    deleting: bool,
    /// An e-mail address, as typed.
    email: String,
}

/// The browser's notices of "your move": offered, never asked for by themselves.
#[cfg(target_arch = "wasm32")]
fn move_notices(ui: &mut egui::Ui) {
    match crate::web_notices::permission() {
        Some("default") => {
            if ui
                .button("Tell me when it's my move")
                .on_hover_text(
                    "A notice from the browser when a move arrives in a game not on screen",
                )
                .clicked()
            {
                crate::web_notices::ask();
            }
        }
        Some("granted") => {
            ui.label("Move notices on");
        }
        Some(_) => {
            ui.label("Move notices are blocked in this browser's settings");
        }
        None => {}
    }
}

/// Who the player is on this server: logged in (and out), or a name and a password to log
/// in or register with.
pub fn account_row(
    ui: &mut egui::Ui,
    server: &str,
    lobby: &mut AccountForm,
    accounts: &Accounts,
    desk: &AccountDesk,
) -> Option<AccountAsk> {
    let busy = desk.is_busy();
    let mut ask = None;
    ui.horizontal_wrapped(|ui| match accounts.on(server) {
        Some(kept) => {
            ui.label(format!("Logged in as {}", shown_line(&kept.name)));
            if ui
                .add_enabled(!busy, egui::Button::new("Log out"))
                .tap_target("Log out")
                .clicked()
            {
                ask = Some(AccountAsk::LogOut);
            }
            if ui
                .add_enabled(!busy, egui::Button::new("Log out everywhere"))
                .on_hover_text("End this account's sessions on every device")
                .clicked()
            {
                ask = Some(AccountAsk::LogOutEverywhere);
            }
            #[cfg(target_arch = "wasm32")]
            move_notices(ui);
        }
        None => {
            ui.label("Name");
            ui.add(
                egui::TextEdit::singleline(&mut lobby.name)
                    .hint_text("optional")
                    .desired_width(100.0),
            )
            .tap_target("account name");
            ui.label("Password");
            ui.add(
                egui::TextEdit::singleline(&mut lobby.password)
                    .password(true)
                    .desired_width(100.0),
            )
            .tap_target("account password");
            let typed = !lobby.name.trim().is_empty() && !lobby.password.is_empty();
            let (name, password) = (lobby.name.trim().to_string(), lobby.password.clone());
            if ui
                .add_enabled(typed && !busy, egui::Button::new("Log in"))
                .clicked()
            {
                ask = Some(AccountAsk::LogIn { name, password });
            } else if ui
                .add_enabled(typed && !busy, egui::Button::new("Register"))
                .tap_target("Register")
                .on_hover_text(
                    "A name (3 to 20 letters, digits, - and _) and a password of 8 \
                     characters or more; your games then follow you to any device",
                )
                .clicked()
            {
                ask = Some(AccountAsk::Register { name, password });
            }
        }
    });
    if accounts.on(server).is_some() {
        egui::CollapsingHeader::new("Account settings")
            .id_salt("account settings")
            .show(ui, |ui| {
                if let Some(settings) = account_settings(ui, lobby, busy) {
                    ask = Some(settings);
                }
            });
    }
    if let Some((status, failed)) = &desk.status {
        if *failed {
            ui.colored_label(ERROR_COLOUR, status);
        } else {
            ui.small(status);
        }
    }
    if ask.is_some() {
        lobby.password.clear();
        lobby.new_password.clear();
        lobby.deleting = false;
    }
    ask
}

/// A new password, or the account deleted (pressed twice), each after the password.
fn account_settings(ui: &mut egui::Ui, lobby: &mut AccountForm, busy: bool) -> Option<AccountAsk> {
    let mut ask = None;
    egui::Grid::new("account settings grid")
        .num_columns(2)
        .show(ui, |ui| {
            ui.label("Password");
            ui.add(
                egui::TextEdit::singleline(&mut lobby.password)
                    .password(true)
                    .desired_width(140.0),
            );
            ui.end_row();
            ui.label("New password");
            ui.add(
                egui::TextEdit::singleline(&mut lobby.new_password)
                    .password(true)
                    .desired_width(140.0),
            );
            ui.end_row();
        });
    let typed = !lobby.password.is_empty() && !busy;
    ui.horizontal_wrapped(|ui| {
        let change = typed && !lobby.new_password.is_empty();
        if ui
            .add_enabled(change, egui::Button::new("Change password"))
            .on_hover_text("Your other devices are logged out")
            .clicked()
        {
            ask = Some(AccountAsk::ChangePassword {
                old: lobby.password.clone(),
                new: lobby.new_password.clone(),
            });
        }
        let label = if lobby.deleting {
            "Delete it: sure"
        } else {
            "Delete account"
        };
        if ui
            .add_enabled(typed, egui::Button::new(label))
            .on_hover_text("Its games stay on the server; its name stays taken")
            .clicked()
        {
            if lobby.deleting {
                ask = Some(AccountAsk::Delete {
                    password: lobby.password.clone(),
                });
            } else {
                lobby.deleting = true;
            }
        }
    });
    ui.horizontal_wrapped(|ui| {
        ui.label("E-mail");
        ui.add(
            egui::TextEdit::singleline(&mut lobby.email)
                .hint_text("for correspondence games")
                .desired_width(180.0),
        );
        let typed = !lobby.email.trim().is_empty() && !busy;
        if ui
            .add_enabled(typed, egui::Button::new("Mail me my moves"))
            .on_hover_text(
                "A mail when a correspondence game waits for your move (at most one a game \
                 in a while, none while you play here); a link mailed there confirms it first",
            )
            .clicked()
        {
            ask = Some(AccountAsk::SetEmail {
                address: lobby.email.trim().to_string(),
            });
        }
        if ui
            .add_enabled(!busy, egui::Button::new("No mail"))
            .on_hover_text("Forget the address: nothing is mailed")
            .clicked()
        {
            ask = Some(AccountAsk::SetEmail {
                address: String::new(),
            });
        }
    });
    ask
}
