//! What the lesson and puzzle demos share: what they do once open, and where they are
//! asked for (an environment variable on the desktop, the page's URL on the web).

/// What a lesson or puzzle demo does once open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum What {
    /// Shows it as it comes.
    Read,
    /// Plays the solution.
    Solve,
    /// Plays a turn that misses, caught while the reason shows.
    Miss,
}

impl What {
    /// `read` (also when missing), `solve` or `miss`; an error names `var`.
    pub fn parse(text: Option<&str>, var: &str) -> Result<What, String> {
        match text {
            None | Some("read") => Ok(What::Read),
            Some("solve") => Ok(What::Solve),
            Some("miss") => Ok(What::Miss),
            Some(other) => Err(format!("{var}: {other:?} is not read, solve or miss")),
        }
    }
}

/// The demo's spec and the screenshot file: `env` and `TABULA_SCREENSHOT` on the desktop.
#[cfg(not(target_arch = "wasm32"))]
pub fn practice_request(env: &str, _param: &str) -> Option<(String, Option<String>)> {
    Some((
        std::env::var(env).ok()?,
        std::env::var("TABULA_SCREENSHOT").ok(),
    ))
}

/// The page's `param`, on a page served from this machine only: as the game demo, a page
/// from elsewhere may not drive a player's lessons or puzzles.
#[cfg(target_arch = "wasm32")]
pub fn practice_request(_env: &str, param: &str) -> Option<(String, Option<String>)> {
    use crate::web_page::origin;
    let spec = crate::web_page::param(param)?;
    super::demo::is_loopback_origin(&origin().unwrap_or_default()).then_some((spec, None))
}
