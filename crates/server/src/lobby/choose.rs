//! Which open challenge to take: Play now's best fit for a player, and those due to a
//! house bot.

use super::checks::check_terms;
use super::{Lobby, Open};
use crate::room::Player;
use crate::rooms::Rooms;
use crate::store::{AccountId, RatingOp, Reply};
use tabula_protocol::lobby::ChallengeTerms;
use tabula_protocol::ratings::rating_pool;

/// A challenge a house bot should take now.
pub struct Due {
    pub id: String,
    /// The pool the game is rated in.
    pub pool: String,
    /// The poster's rating there, if they have one.
    pub rating: Option<i32>,
    /// The bot it names, if it names one.
    pub named: Option<AccountId>,
}

/// What Play now does.
pub enum Fit {
    /// Takes this challenge.
    Take(String),
    /// The player's own challenge of these terms is open already: it waits.
    Posted(String),
    /// Nothing fits: posts these terms.
    Post(ChallengeTerms),
}

impl Lobby {
    /// Play now: the challenge `player` should take (of `game`, `pace` and `rated`, the
    /// poster's rating nearest theirs, then the oldest), or the terms to post.
    pub async fn best_fit(
        &self,
        rooms: &Rooms,
        player: Player<'_>,
        game: &str,
        pace: tabula_protocol::Pace,
        rated: bool,
    ) -> Result<Fit, String> {
        let terms = check_terms(&ChallengeTerms {
            game: game.to_string(),
            settings: Vec::new(),
            pace,
            move_seconds: None,
            rated,
            seat: None,
        })?;
        let pool = rating_pool(&terms.game, 2);
        let mine = match rooms
            .store
            .ratings(RatingOp::Of {
                pool,
                accounts: vec![player.id],
            })
            .await
        {
            Ok(Reply::Ratings(found)) => found.first().map_or(1500, |(_, r)| r.shown().rating),
            _ => 1500,
        };
        let open = self.open(rooms).await?;
        let map = open.as_ref().expect("read above");
        let fits = |o: &&Open| {
            o.kept.terms.game == terms.game
                && o.kept.terms.pace == pace
                && o.kept.terms.rated == rated
        };
        if let Some(own) = map
            .values()
            .filter(fits)
            .find(|o| o.kept.account == player.id)
        {
            return Ok(Fit::Posted(own.kept.id.clone()));
        }
        let best = map
            .values()
            .filter(fits)
            .filter(|o| o.open_to().shows_to(Some(player.id)))
            .min_by_key(|o| {
                let theirs = o.rating.map_or(1500, |r| r.rating);
                (
                    (i64::from(theirs) - i64::from(mine)).abs(),
                    o.kept.posted_ms,
                )
            });
        Ok(match best {
            Some(open) => Fit::Take(open.kept.id.clone()),
            None => Fit::Post(terms),
        })
    }

    /// The challenges a house bot (one of `bots`) should take now, the oldest first: those
    /// that name one of them, and those to anyone posted at `posted_by_ms` or before (a
    /// live one only if posted at `live_since_ms` or after: its poster has likely left).
    pub async fn due_for_house(
        &self,
        rooms: &Rooms,
        posted_by_ms: u64,
        live_since_ms: u64,
        bots: &[AccountId],
    ) -> Result<Vec<Due>, String> {
        let open = self.open(rooms).await?;
        let mut due: Vec<&Open> = open
            .iter()
            .flatten()
            .map(|(_, open)| open)
            .filter(|open| match open.kept.to {
                Some(named) => bots.contains(&named),
                None => {
                    open.kept.posted_ms <= posted_by_ms
                        && (open.kept.terms.pace != tabula_protocol::Pace::Live
                            || open.kept.posted_ms >= live_since_ms)
                }
            })
            .filter(|open| !bots.contains(&open.kept.account))
            .collect();
        due.sort_by_key(|open| (open.kept.posted_ms, open.kept.id.clone()));
        Ok(due
            .into_iter()
            .map(|open| Due {
                id: open.kept.id.clone(),
                pool: rating_pool(&open.kept.terms.game, 2),
                rating: open.rating.map(|r| r.rating),
                named: open.kept.to,
            })
            .collect())
    }
}
