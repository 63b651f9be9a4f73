//! An invite link: a page opened as `…/?join=CODE` goes straight to that game on the
//! page's own server, taking back your own seat in it if you hold one.

use super::{GoOnline, KeptSeats, default_server};
use crate::screens::Screen;
use bevy::prelude::*;
use tabula_online::Goal;

pub fn plugin(app: &mut App) {
    if let Some(code) = invited_to() {
        app.insert_resource(Invite(Some(code)))
            .add_systems(OnEnter(Screen::Title), accept_invite);
    }
}

#[derive(Resource)]
struct Invite(Option<String>);

/// The code in the page's address.
#[cfg(target_arch = "wasm32")]
fn invited_to() -> Option<String> {
    let code = crate::web_page::param("join")?.trim().to_ascii_uppercase();
    (!code.is_empty()).then_some(code)
}

/// The desktop opens no links.
#[cfg(not(target_arch = "wasm32"))]
fn invited_to() -> Option<String> {
    None
}

/// Once, at the first title screen (after loading).
fn accept_invite(
    mut invite: ResMut<Invite>,
    kept: Res<KeptSeats>,
    mut go: MessageWriter<GoOnline>,
    mut next: ResMut<NextState<Screen>>,
) {
    let Some(code) = invite.0.take() else {
        return;
    };
    let server = default_server(&KeptSeats::default());
    let goal = match kept.on(&server).find(|seat| seat.code == code) {
        Some(seat) => Goal::Resume(seat.key()),
        None => Goal::Join { code },
    };
    go.write(GoOnline { server, goal });
    next.set(Screen::Online);
}
