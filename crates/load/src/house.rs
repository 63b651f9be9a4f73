//! Games against the server's house bots, to keep their search threads busy while the
//! measured games play (`--house-games`): each is an account that challenges one bot by
//! name and answers its every move at once, and challenges it again when a game ends.

use super::{Options, Sent, Tally, answer, connect, play_seat, seated_game, send};
use std::sync::{Arc, Mutex};
use tabula_online::protocol::{ChallengeTerms, ClientMsg, Pace, ServerMsg};

/// How long a house game's account waits before each of its moves.
const HOUSE_MOVE_MS: u64 = 100;

/// Plays against `options.house_bot` as the account `load{pid}x{index}`, game after game.
pub(super) async fn against_the_house(
    url: String,
    options: Arc<Options>,
    tally: Arc<Tally>,
    index: u64,
) -> Result<(), String> {
    let mut socket = connect(&url).await?;
    let name = format!("load{}x{index}", std::process::id());
    send(
        &mut socket,
        &ClientMsg::Register {
            name,
            password: "load test password".into(),
        },
    )
    .await?;
    answer(&mut socket, |m| matches!(m, ServerMsg::LoggedIn { .. })).await?;
    // The lobby followed: the news that the bot took the challenge comes through it.
    send(&mut socket, &ClientMsg::FollowLobby).await?;
    answer(&mut socket, |m| matches!(m, ServerMsg::Lobby { .. })).await?;
    tally
        .started
        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    loop {
        let terms = ChallengeTerms {
            game: options.game.clone(),
            settings: options.settings.clone(),
            pace: Pace::Correspondence,
            move_seconds: None,
            rated: false,
            seat: Some(0),
        };
        let challenge = ClientMsg::PostChallenge {
            terms,
            to: Some(options.house_bot.clone()),
        };
        send(&mut socket, &challenge).await?;
        let code = match answer(&mut socket, |m| {
            matches!(m, ServerMsg::ChallengeAccepted { .. })
        })
        .await?
        {
            ServerMsg::ChallengeAccepted { code, .. } => code,
            _ => unreachable!(),
        };
        send(&mut socket, &ClientMsg::Resume { code, token: None }).await?;
        let game = seated_game(&mut socket).await?;
        let sent: Sent = Arc::new(Mutex::new(None));
        // A short pause before each move: a weak bot answers at once, and a connection
        // may send 20 messages a second; against a strong one the bot is still always the
        // one thinking.
        play_seat(&mut socket, game, sent, tally.clone(), HOUSE_MOVE_MS, index).await?;
    }
}
