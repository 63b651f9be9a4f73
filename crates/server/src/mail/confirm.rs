//! The page a confirmation link opens: `GET /confirm-email?token=…` shows a button, and
//! only pressing it (`POST`) confirms, so a mail filter that opens every link it finds
//! confirms nothing.

use crate::rooms::Rooms;
use axum::extract::State;
use axum::http::{StatusCode, Uri};
use axum::response::{Html, IntoResponse, Response};
use std::sync::Arc;

/// The token in `query` (`token=…&…`), if it could be one of ours.
fn token_in(query: &str) -> Option<&str> {
    query
        .split('&')
        .find_map(|pair| pair.strip_prefix("token="))
        .filter(|token| tabula_protocol::is_key_text(token))
}

fn page(status: StatusCode, body: &str) -> Response {
    let html = format!(
        "<!doctype html><meta charset=utf-8><meta name=viewport content=\"width=device-width\">\
         <title>Tabula</title><body style=\"font-family:sans-serif;max-width:36em;margin:3em auto\">\
         <h1>Tabula</h1>{body}</body>"
    );
    (status, Html(html)).into_response()
}

fn no_mail() -> Response {
    page(StatusCode::NOT_FOUND, "<p>This server sends no e-mail.</p>")
}

fn no_token() -> Response {
    page(
        StatusCode::BAD_REQUEST,
        "<p>This link has no token: copy it whole from the mail.</p>",
    )
}

/// The link opened: a button that confirms (the token is only letters and digits).
pub async fn confirm_page(State(rooms): State<Arc<Rooms>>, uri: Uri) -> Response {
    if rooms.turns.mailer().is_none() {
        return no_mail();
    }
    let Some(token) = uri.query().and_then(token_in) else {
        return no_token();
    };
    page(
        StatusCode::OK,
        &format!(
            "<p>Mail me when a correspondence game waits for my move.</p>\
             <form method=post action=\"/confirm-email\">\
             <input type=hidden name=token value=\"{token}\">\
             <button type=submit>Confirm this address</button></form>"
        ),
    )
}

/// The button pressed.
pub async fn confirm_email(State(rooms): State<Arc<Rooms>>, form: String) -> impl IntoResponse {
    let Some(mailer) = rooms.turns.mailer() else {
        return no_mail();
    };
    let Some(token) = token_in(&form) else {
        return no_token();
    };
    match mailer.confirm(token).await {
        Ok(()) => page(
            StatusCode::OK,
            "<p>Your address is confirmed. Tabula will write when a correspondence game \
             waits for your move: at most once a game in a while, and not while you are at \
             the game.</p>",
        ),
        Err(crate::store::StoreError::Conflict(why)) => {
            page(StatusCode::NOT_FOUND, &format!("<p>{why}</p>"))
        }
        Err(_) => page(
            StatusCode::SERVICE_UNAVAILABLE,
            "<p>The server cannot confirm it now: try the link again later.</p>",
        ),
    }
}
