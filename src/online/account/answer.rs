//! What a server's message means for the account request under way: which answer it
//! waits for, and what to do with the one that came.

use tabula_online::protocol::ServerMsg;
use tabula_session::rules::text::shown_line;

/// Where a request is: which answer from the server is the one it waits for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum Stage {
    /// A login or registration: `logged_in` is the answer.
    #[default]
    LoggingIn,
    /// The kept session was sent first: `logged_in` says it still holds (an error, that it
    /// does not: it is forgotten here). Then the request's own answer.
    Authenticating { forget_anyway: bool },
    /// `forget_anyway`: the session is forgotten here whatever the server answers (a
    /// log-out: the player asked to be out).
    Asked { forget_anyway: bool },
}

/// What a server's message means for the request under way.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Answer {
    /// Not the answer yet: news, or the kept session taken (then the next stage).
    Wait(Option<Stage>),
    /// Logged in: keep this session.
    Keep {
        name: String,
        session: String,
        expires_ms: u64,
    },
    /// The answer: what to say (a failure or not), whether the session kept here is
    /// forgotten, and whether the games listed may have changed.
    Done {
        said: String,
        failed: bool,
        forget_here: bool,
        changed: bool,
    },
}

pub(super) fn answer(stage: Stage, msg: ServerMsg) -> Answer {
    let done = |said: &str, forget_here: bool, changed: bool| Answer::Done {
        said: said.to_string(),
        failed: false,
        forget_here,
        changed,
    };
    match (stage, msg) {
        // The kept session holds: the request's own answer comes next.
        (Stage::Authenticating { forget_anyway }, ServerMsg::LoggedIn { .. }) => {
            Answer::Wait(Some(Stage::Asked { forget_anyway }))
        }
        (
            Stage::LoggingIn,
            ServerMsg::LoggedIn {
                name,
                session,
                expires_ms,
            },
        ) => Answer::Keep {
            name,
            session,
            expires_ms,
        },
        (_, ServerMsg::SeatClaimed { code, .. }) => done(
            &format!("Game {} is your account's now.", shown_line(&code)),
            false,
            true,
        ),
        (_, ServerMsg::PasswordChanged) => done(
            "Password changed; your other devices are logged out.",
            false,
            false,
        ),
        (_, ServerMsg::AccountDeleted) => {
            done("Account deleted; its games stay on the server.", true, true)
        }
        (_, ServerMsg::LoggedOut) => done("Logged out.", true, true),
        (_, ServerMsg::EmailAddress { address, confirmed }) => done(
            &match (address, confirmed) {
                (None, _) => "No e-mail address: nothing is mailed.".to_string(),
                (Some(address), false) => format!(
                    "A link to confirm {} was mailed there; open it, then your moves are mailed.",
                    shown_line(&address)
                ),
                (Some(address), true) => format!(
                    "{} is confirmed: your correspondence moves are mailed there.",
                    shown_line(&address)
                ),
            },
            false,
            false,
        ),
        // A session the server says is not valid is no use here (a passing failure of
        // the server leaves it kept); out is what a player logging out asked for.
        (
            stage,
            ServerMsg::Error {
                message,
                session_ended,
                ..
            },
        ) => Answer::Done {
            said: shown_line(&message),
            failed: true,
            forget_here: session_ended
                || stage
                    == Stage::Asked {
                        forget_anyway: true,
                    },
            changed: session_ended,
        },
        _ => Answer::Wait(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn logged_in() -> ServerMsg {
        ServerMsg::LoggedIn {
            name: "Ada".into(),
            session: "0123456789abcdef".into(),
            expires_ms: 5,
        }
    }

    /// The reproducer: a request sent after the kept session (a new password) took the
    /// session's `logged_in` for its answer, and its own answer went unheard.
    #[test]
    fn a_request_after_the_session_waits_for_its_own_answer() {
        let stage = Stage::Authenticating {
            forget_anyway: false,
        };
        let next = Stage::Asked {
            forget_anyway: false,
        };
        assert_eq!(answer(stage, logged_in()), Answer::Wait(Some(next)));
        let Answer::Done {
            said,
            failed,
            forget_here,
            ..
        } = answer(next, ServerMsg::PasswordChanged)
        else {
            panic!("a new password is an answer")
        };
        assert!(said.contains("Password changed") && !failed && !forget_here);
        // A login's answer is the session itself.
        assert!(matches!(
            answer(Stage::LoggingIn, logged_in()),
            Answer::Keep { .. }
        ));
    }

    #[test]
    fn a_session_the_server_refuses_is_forgotten_and_a_log_out_always_is() {
        let forgets = |stage, error: ServerMsg| matches!(answer(stage, error), Answer::Done { forget_here, .. } if forget_here);
        let refused = || ServerMsg::session_ended("that session is not valid");
        let failed = || ServerMsg::error("the game store failed: disk full");
        let authenticating = Stage::Authenticating {
            forget_anyway: false,
        };
        assert!(forgets(authenticating, refused()));
        // A passing failure of the server keeps the session.
        assert!(!forgets(authenticating, failed()));
        assert!(forgets(
            Stage::Asked {
                forget_anyway: true
            },
            failed()
        ));
        assert!(!forgets(
            Stage::Asked {
                forget_anyway: false
            },
            failed()
        ));
        assert!(!forgets(Stage::LoggingIn, failed()));
        assert!(matches!(
            answer(
                Stage::Asked {
                    forget_anyway: true
                },
                ServerMsg::LoggedOut
            ),
            Answer::Done {
                forget_here: true,
                changed: true,
                ..
            }
        ));
        // News of a game is not an answer.
        assert_eq!(
            answer(Stage::LoggingIn, ServerMsg::Hello { version: 1 }),
            Answer::Wait(None)
        );
    }
}
