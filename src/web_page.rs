//! The page's address in the browser: its own server, and its query parameters (a demo to
//! play, a game to join).

/// The page's origin, `https://HOST:PORT`.
pub fn origin() -> Option<String> {
    web_sys::window()?.location().origin().ok()
}

/// The value of `name` in the page's query string.
pub fn param(name: &str) -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    web_sys::UrlSearchParams::new_with_str(&search)
        .ok()?
        .get(name)
}
