//! What a rated game's end does to its players' ratings: which games count, and each seat's
//! points from how the game ended.

use super::{RoomState, now_ms};
use crate::ratings::RatedEnd;
use crate::store::AccountId;
use tabula_protocol::Ending;
use tabula_protocol::ratings::rating_pool;
use tabula_session::rules::Status;

impl RoomState {
    /// The pool the game's players are rated in.
    pub(super) fn pool(&self) -> String {
        rating_pool(self.game.kind().key(), self.seats())
    }

    /// What the game's end does to ratings, if the game is rated, over (with `ending`, if
    /// it ends so now), and counts: every seat an account's, a different one each, and
    /// every seat has moved (a game left before everyone played is not rated, as lichess
    /// aborts one).
    pub(super) fn rated_end(&self, ending: Option<Ending>) -> Option<RatedEnd> {
        if !self.rated {
            return None;
        }
        let accounts: Vec<AccountId> = self.accounts.iter().copied().collect::<Option<_>>()?;
        if (1..accounts.len()).any(|seat| accounts[..seat].contains(&accounts[seat])) {
            return None;
        }
        let moves = self.game.record().len();
        let everyone_moved = (0..accounts.len())
            .all(|seat| (0..moves).any(|ply| self.game.to_move_after(ply) == Some(seat)));
        if !everyone_moved {
            return None;
        }
        let seats = accounts.len();
        let points: Vec<f64> = match ending.or(self.ending) {
            Some(Ending::Resigned { seat } | Ending::OutOfTime { seat }) => (0..seats)
                .map(|s| if s == seat { 0.0 } else { 1.0 })
                .collect(),
            Some(Ending::DrawAgreed) => vec![0.5; seats],
            None => match self.game.status() {
                Status::Win { winner, .. } => (0..seats)
                    .map(|s| if s == winner.index() { 1.0 } else { 0.0 })
                    .collect(),
                Status::Draw { .. } => vec![0.5; seats],
                Status::Ongoing => return None,
            },
        };
        Some(RatedEnd {
            pool: self.pool(),
            accounts,
            points,
            at_ms: now_ms(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::room::{NewGame, Player, new_game};
    use crate::store::{StoredGame, StoredMove};
    use tabula_protocol::Pace;
    use tabula_session::{GameKind, new_match};

    /// A rated three-player Adamas game between accounts 1, 2 and 3 after `plies` moves.
    fn rated_adamas(plies: usize) -> StoredGame {
        let settings = [("players".to_string(), "3".to_string())];
        let new = NewGame {
            kind: GameKind::Adamas,
            settings: &settings,
            seat: 0,
            pace: Pace::Correspondence,
            move_seconds: None,
            rated: true,
            account: Some(Player { id: 1, name: "Ada" }),
        };
        let (mut stored, _) = new_game("ABC234", &new).unwrap();
        stored.tokens = vec![Some("a".into()), Some("b".into()), Some("c".into())];
        stored.accounts = vec![Some(1), Some(2), Some(3)];
        let mut game = new_match(GameKind::Adamas, &settings).unwrap();
        for ply in 0..plies {
            let (moves, _) = game.legal_moves(1);
            game.play_notation(&moves[0]).unwrap();
            stored.moves.push(StoredMove {
                text: moves[0].clone(),
                seat: ply % 3,
                at_ms: 0,
            });
        }
        stored
    }

    #[test]
    fn a_rated_three_player_resignation_is_a_loss_to_each_other_player() {
        let state = RoomState::from_stored(&rated_adamas(3)).unwrap();
        let end = state.rated_end(Some(Ending::Resigned { seat: 1 })).unwrap();
        assert_eq!(end.pool, "adamas-3");
        assert_eq!(end.accounts, [1, 2, 3]);
        assert_eq!(end.points, [1.0, 0.0, 1.0]);
        let drawn = state.rated_end(Some(Ending::DrawAgreed)).unwrap();
        assert_eq!(drawn.points, [0.5; 3]);
        assert_eq!(state.rated_end(None), None, "the game goes on");
    }

    #[test]
    fn a_rated_game_counts_only_between_distinct_accounts_who_all_moved() {
        let resigned = Some(Ending::Resigned { seat: 0 });
        let early = RoomState::from_stored(&rated_adamas(2)).unwrap();
        assert_eq!(early.rated_end(resigned), None, "Y has not moved");
        let mut twice = rated_adamas(3);
        twice.accounts[2] = Some(1);
        let twice = RoomState::from_stored(&twice).unwrap();
        assert_eq!(twice.rated_end(resigned), None, "one account in two seats");
        let mut casual = rated_adamas(3);
        casual.rated = false;
        let casual = RoomState::from_stored(&casual).unwrap();
        assert_eq!(casual.rated_end(resigned), None);
    }

    #[test]
    fn only_an_account_creates_a_rated_game() {
        let new = NewGame {
            kind: GameKind::Adomoc,
            settings: &[],
            seat: 0,
            pace: Pace::Live,
            move_seconds: None,
            rated: true,
            account: None,
        };
        let err = new_game("ABC234", &new).unwrap_err();
        assert!(err.contains("log in"), "{err}");
    }
}
