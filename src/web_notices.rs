//! The browser's notices of "your move": when a game comes to wait for the player's move
//! and it is not the game on screen (or the page is hidden), a system notification says so;
//! clicking it brings the page forward and opens that game. Only once the player allowed it
//! (the online screen asks, on a click; never by itself). They are sent from the turns
//! connection's own message callback, since a hidden page draws no frames. Where the page
//! may not make a notice itself (Chrome on Android: "use showNotification() instead"), the
//! service worker shows it, and tells the page when it is clicked (web/sw.js).

use std::cell::RefCell;
use std::collections::HashSet;
use std::rc::Rc;
use tabula_online::Connection;
use tabula_online::protocol::ServerMsg;
use wasm_bindgen::prelude::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{
    MessageEvent, Notification, NotificationOptions, NotificationPermission,
    ServiceWorkerRegistration,
};

thread_local! {
    /// The code of the online game on screen, as the app last said.
    static ON_SCREEN: RefCell<Option<String>> = const { RefCell::new(None) };
    /// A game whose notice was clicked, for the app to open.
    static OPENED: RefCell<Option<String>> = const { RefCell::new(None) };
    /// The page's own title, before a count was put in front of it.
    static PAGE_TITLE: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// The tab's title with the count of games waiting in front ("(2) Tabula: …"), as sites
/// count what waits; the page's own title without (the window's title does not reach the
/// page in the browser).
pub fn set_page_title(waiting: usize) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let own = PAGE_TITLE.with(|kept| {
        kept.borrow_mut()
            .get_or_insert_with(|| document.title())
            .clone()
    });
    document.set_title(&match waiting {
        0 => own,
        n => format!("({n}) {own}"),
    });
}

/// What the browser allows: `Some("default")` (not asked yet), `"granted"` or `"denied"`;
/// none where it has no notifications (some phones' browsers outside an installed app).
pub fn permission() -> Option<&'static str> {
    let window = web_sys::window()?;
    if !js_sys::Reflect::has(&window, &JsValue::from_str("Notification")).unwrap_or(false) {
        return None;
    }
    Some(match Notification::permission() {
        NotificationPermission::Granted => "granted",
        NotificationPermission::Denied => "denied",
        _ => "default",
    })
}

/// Asks the player to allow notices (after their click: browsers refuse it otherwise).
pub fn ask() {
    if permission().is_some() {
        let _ = Notification::request_permission();
    }
}

/// The online game on screen now, if any.
pub fn set_on_screen(code: Option<&str>) {
    ON_SCREEN.with(|on| {
        let mut on = on.borrow_mut();
        if on.as_deref() != code {
            *on = code.map(str::to_string);
        }
    });
}

/// The game whose notice the player clicked, once.
pub fn take_opened() -> Option<String> {
    OPENED.with(|opened| opened.borrow_mut().take())
}

/// Sends a notice for each game that comes to wait for the player's move on `connection`
/// (not for those waiting when it first answers: those are no news).
pub fn watch_turns(connection: &Connection) {
    hear_the_worker();
    let known: Rc<RefCell<Option<HashSet<String>>>> = Rc::default();
    connection.watch(move |msg| {
        let ServerMsg::Waiting { games } = msg else {
            return;
        };
        let now: HashSet<String> = games.iter().map(|g| g.code.clone()).collect();
        let before = known.borrow_mut().replace(now);
        let Some(before) = before else {
            return;
        };
        if permission() != Some("granted") {
            return;
        }
        let hidden = web_sys::window()
            .and_then(|w| w.document())
            .is_some_and(|d| d.hidden());
        let on_screen = ON_SCREEN.with(|on| on.borrow().clone());
        for game in games {
            if before.contains(&game.code) || (!hidden && on_screen.as_ref() == Some(&game.code)) {
                continue;
            }
            notify(&game.code, &game.game, game.moves);
        }
    });
}

fn notify(code: &str, game: &str, moves: usize) {
    let title = match tabula_session::GameKind::parse(game) {
        Ok(kind) => format!("Your move in {}", kind.title()),
        Err(_) => "Your move".to_string(),
    };
    let options = NotificationOptions::new();
    options.set_body(&format!("Game {code}, move {}", moves + 1));
    // One notice per game: a newer one replaces it.
    options.set_tag(&format!("tabula-{code}"));
    // For the service worker, which opens it when the notice is clicked.
    options.set_data(&JsValue::from_str(code));
    let Ok(notice) = Notification::new_with_options(&title, &options) else {
        show_through_the_worker(title, options);
        return;
    };
    let code = code.to_string();
    let clicked = Closure::once_into_js(move || {
        if let Some(window) = web_sys::window() {
            let _ = window.focus();
        }
        OPENED.with(|opened| *opened.borrow_mut() = Some(code));
    });
    notice.set_onclick(Some(clicked.unchecked_ref()));
}

/// Shows the notice through the page's service worker, once it is ready.
fn show_through_the_worker(title: String, options: NotificationOptions) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Ok(ready) = window.navigator().service_worker().ready() else {
        return;
    };
    let show = Closure::<dyn FnMut(JsValue)>::new(move |registration: JsValue| {
        let Ok(registration) = registration.dyn_into::<ServiceWorkerRegistration>() else {
            return;
        };
        match registration.show_notification_with_options(&title, &options) {
            Ok(shown) => {
                let refused = Closure::<dyn FnMut(JsValue)>::new(|_: JsValue| not_shown());
                let _ = shown.catch(&refused);
                refused.forget();
            }
            Err(_) => not_shown(),
        }
    });
    let _ = ready.then(&show);
    // Called once, by the promise; a few bytes a notice, and notices come a move at most.
    show.forget();
}

fn not_shown() {
    web_sys::console::log_1(&"tabula: the notice could not be shown".into());
}

thread_local! {
    /// Whether the page listens to its service worker's word of a notice clicked.
    static HEARING_THE_WORKER: RefCell<bool> = const { RefCell::new(false) };
}

/// Listens (once) for the service worker's `{ tabulaOpen: CODE }`: a notice it showed was
/// clicked.
fn hear_the_worker() {
    if HEARING_THE_WORKER.with(|hearing| hearing.replace(true)) {
        return;
    }
    let Some(window) = web_sys::window() else {
        return;
    };
    let worker = window.navigator().service_worker();
    let heard = Closure::<dyn FnMut(MessageEvent)>::new(|event: MessageEvent| {
        let code = js_sys::Reflect::get(&event.data(), &JsValue::from_str("tabulaOpen"))
            .ok()
            .and_then(|code| code.as_string());
        if let Some(code) = code {
            OPENED.with(|opened| *opened.borrow_mut() = Some(code));
        }
    });
    let _ = worker.add_event_listener_with_callback("message", heard.as_ref().unchecked_ref());
    // For the page's whole life.
    heard.forget();
}
