//! What demo was asked for: read from the environment (the desktop) or the page's URL
//! (the web, and only a page served from this machine), or refused with a reason.

use super::Demo;
use crate::current_game::Seat;
use crate::dev::snapshot::Snapshot;
use crate::table::GameKind;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use web_time::Duration;

/// A demo as asked for: the game spec, options, seats and screenshot file.
struct DemoRequest {
    spec: String,
    options: String,
    seats: String,
    review: String,
    review_slice: String,
    screenshot: Option<String>,
}

/// `TABULA_DEMO` and its companions.
#[cfg(not(target_arch = "wasm32"))]
fn demo_request() -> Option<DemoRequest> {
    Some(DemoRequest {
        spec: std::env::var("TABULA_DEMO").ok()?,
        options: std::env::var("TABULA_DEMO_OPTIONS").unwrap_or_default(),
        seats: std::env::var("TABULA_DEMO_SEATS").unwrap_or_default(),
        review: std::env::var("TABULA_DEMO_REVIEW").unwrap_or_default(),
        review_slice: std::env::var("TABULA_DEMO_REVIEW_SLICE_MS").unwrap_or_default(),
        screenshot: std::env::var("TABULA_SCREENSHOT").ok(),
    })
}

/// The page's URL: `?demo=adomoc:12:1&seats=human,2&options=k=v,k=v&review=5&review_slice=1000`
/// (no screenshot: the browser test takes its own).
#[cfg(target_arch = "wasm32")]
fn demo_request() -> Option<DemoRequest> {
    use crate::web_page::{origin, param};
    use bevy::prelude::warn;
    let spec = param("demo")?;
    let origin = origin().unwrap_or_default();
    if !is_loopback_origin(&origin) {
        // Asked twice at start-up (the view's redraw mode, the demo plugin): said once.
        static WARNED: std::sync::Once = std::sync::Once::new();
        WARNED.call_once(|| {
            warn!("?demo= is only for a page served from this machine, not from {origin}: ignored");
        });
        return None;
    }
    Some(DemoRequest {
        spec,
        options: param("options").unwrap_or_default(),
        seats: param("seats").unwrap_or_default(),
        review: param("review").unwrap_or_default(),
        review_slice: param("review_slice").unwrap_or_default(),
        screenshot: None,
    })
}

/// Whether a page at `origin` (`http://HOST:PORT`) is served from this machine. A demo
/// plays the person's seat by itself and keeps a review level in their settings, so a
/// link to a public server with `?join=CODE&demo=online` would play someone's online game
/// for them: on the web, only the browser test's own loopback server may ask for one.
#[cfg(any(target_arch = "wasm32", test))]
pub(in crate::dev) fn is_loopback_origin(origin: &str) -> bool {
    let rest = origin.split_once("://").map_or(origin, |(_, rest)| rest);
    let authority = rest.split('/').next().unwrap_or_default();
    let host = match authority.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or_default(),
        None => authority.split(':').next().unwrap_or_default(),
    };
    host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// Whether a demo was asked for (it then draws every frame).
pub fn requested() -> bool {
    demo_request().is_some()
}

/// The demo asked for; `None` when there is none, an error naming the bad part otherwise.
pub(super) fn demo_from_request() -> Option<Result<Demo, String>> {
    let request = demo_request()?;
    Some(
        parse_demo(&request.spec, &request.options, request.screenshot).and_then(|mut demo| {
            demo.seats = parse_seats(&request.seats)?;
            demo.review = parse_review(&request.review)?;
            demo.review_slice = parse_review_slice(&request.review_slice)?;
            Ok(demo)
        }),
    )
}

/// `human,3`: a person, then a level-3 bot.
fn parse_seats(text: &str) -> Result<Vec<Seat>, String> {
    text.split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|s| match s.trim() {
            "human" => Ok(Seat::Human),
            level => level
                .parse::<u8>()
                .ok()
                .map(Seat::Bot)
                .filter(|seat| seat.spec().is_some())
                .ok_or_else(|| format!("TABULA_DEMO_SEATS: {level:?} is not human or a level")),
        })
        .collect()
}

/// `5`: review at level 5; empty: no review.
fn parse_review(text: &str) -> Result<Option<u8>, String> {
    if text.trim().is_empty() {
        return Ok(None);
    }
    text.trim()
        .parse::<u8>()
        .ok()
        .filter(|&level| Seat::Bot(level).spec().is_some())
        .map(Some)
        .ok_or_else(|| format!("TABULA_DEMO_REVIEW: {text:?} is not a bot level"))
}

/// `1000`: a sliced review takes 1,000 ms of each frame; empty: the default.
fn parse_review_slice(text: &str) -> Result<Option<Duration>, String> {
    if text.trim().is_empty() {
        return Ok(None);
    }
    let ms = tabula_session::rules::text::whole_number_for(
        "TABULA_DEMO_REVIEW_SLICE_MS",
        text,
        1..=60_000,
    )?;
    Ok(Some(Duration::from_millis(ms)))
}

fn parse_demo(spec: &str, options: &str, screenshot: Option<String>) -> Result<Demo, String> {
    let mut parts = spec.split(':');
    let name = parts.next().unwrap_or_default();
    let kind = match name {
        "online" => None,
        name => Some(
            GameKind::ALL
                .into_iter()
                .find(|k| k.title().eq_ignore_ascii_case(name))
                .ok_or_else(|| format!("TABULA_DEMO: unknown game {name:?}"))?,
        ),
    };
    let number = |text: Option<&str>, default: u64, what: &str| -> Result<u64, String> {
        text.map_or(Ok(default), |t| {
            t.parse()
                .map_err(|_| format!("TABULA_DEMO: {what} must be a number, not {t:?}"))
        })
    };
    let moves = number(parts.next(), 10, "MOVES")? as usize;
    let seed = number(parts.next(), 1, "SEED")?;
    let options = options
        .split(',')
        .filter(|o| !o.is_empty())
        .map(|o| {
            o.split_once('=')
                .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                .ok_or_else(|| format!("TABULA_DEMO_OPTIONS: {o:?} is not key=value"))
        })
        .collect::<Result<_, _>>()?;
    Ok(Demo {
        kind,
        options,
        seats: Vec::new(),
        moves,
        rng: SmallRng::seed_from_u64(seed),
        snapshot: Snapshot::new(screenshot),
        started: false,
        reported: 0,
        finished: false,
        review: None,
        review_slice: None,
        review_started: None,
        review_reported: false,
        analysis_reported: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_page_served_from_this_machine_takes_a_demo() {
        for origin in [
            "http://127.0.0.1:8000",
            "http://127.9.9.9",
            "http://localhost:8080",
            "https://LOCALHOST",
            "http://[::1]:8000",
        ] {
            assert!(is_loopback_origin(origin), "{origin}");
        }
        for origin in [
            "https://tabula.example.org",
            "http://10.0.0.2:8000",
            "http://localhost.example.org",
            "http://127.0.0.1.example.org",
            "http://[::2]:8000",
            "null",
            "",
        ] {
            assert!(!is_loopback_origin(origin), "{origin}");
        }
    }

    #[test]
    fn demo_specs_are_read_or_refused_with_a_reason() {
        let demo = parse_demo("adamas:12:5", "players=3", None).unwrap();
        assert_eq!(demo.kind, Some(GameKind::Adamas));
        assert_eq!(parse_demo("online:300", "", None).unwrap().kind, None);
        assert_eq!(demo.moves, 12);
        assert_eq!(demo.options, vec![("players".into(), "3".into())]);
        assert!(parse_demo("chess", "", None).unwrap_err().contains("chess"));
        assert!(
            parse_demo("adomoc:many", "", None)
                .unwrap_err()
                .contains("MOVES")
        );
        assert!(
            parse_demo("adomoc", "spirals", None)
                .unwrap_err()
                .contains("spirals")
        );
        assert_eq!(
            parse_seats("human, 3").unwrap(),
            [Seat::Human, Seat::Bot(3)]
        );
        assert!(parse_seats("human,17").unwrap_err().contains("\"17\""));
        assert!(parse_seats("").unwrap().is_empty());
        assert_eq!(parse_review(" 5"), Ok(Some(5)));
        assert_eq!(parse_review(""), Ok(None));
        assert!(parse_review("17").unwrap_err().contains("\"17\""));
        assert_eq!(
            parse_review_slice("3000"),
            Ok(Some(Duration::from_millis(3000)))
        );
        assert_eq!(parse_review_slice(""), Ok(None));
        assert!(parse_review_slice("0").unwrap_err().contains("\"0\""));
        assert!(parse_review_slice("-5").is_err());
    }
}
