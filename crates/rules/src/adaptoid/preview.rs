//! What a turn would take and lose, worked out on a copy of the pieces without playing it:
//! for a bot weighing many moves a second (a played copy would also copy the history).

use super::apply::win_reason;
use super::board::cells;
use super::pieces::FightResult;
use super::{Adaptoid, AdaptoidMove, Stage};

/// A turn's material outcome for the player making it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TurnPreview {
    /// Enemy adaptoids the turn removes (a won or equal fight, starving).
    pub taken: u8,
    /// The mover's adaptoids the turn loses (a lost or equal fight).
    pub lost: u8,
    /// The mover's adaptoids left starving: removed when the reply ends unless it frees them.
    pub left_starving: u8,
    /// Whether the turn wins the game (five captures, or no enemy left).
    pub wins: bool,
}

impl Adaptoid {
    /// What the turn `mv` (legal here) would do; the default for a pie move, which takes
    /// nothing.
    pub fn preview(&self, mv: &AdaptoidMove) -> TurnPreview {
        let AdaptoidMove::Turn { step, growth } = *mv else {
            return TurnPreview::default();
        };
        if self.stage != Stage::Play {
            return TurnPreview::default();
        }
        let mover = self.mover;
        let enemy = mover.other();
        let mut pieces = self.pieces;
        let mut preview = TurnPreview::default();
        if let Some((from, to)) = step {
            match pieces.step(from, to) {
                Some(FightResult::AttackerWins) => preview.taken += 1,
                Some(FightResult::DefenderWins) => preview.lost += 1,
                Some(FightResult::BothRemoved) => {
                    preview.taken += 1;
                    preview.lost += 1;
                }
                None => {}
            }
        }
        if let Some(growth) = growth {
            pieces.grow(mover, growth);
        }
        let starving = pieces.starving(&self.board, enemy);
        for cell in cells(starving) {
            pieces.remove(cell);
        }
        preview.taken += starving.count_ones() as u8;
        preview.left_starving = pieces.starving(&self.board, mover).count_ones() as u8;
        let mut captures = self.captures;
        captures[mover.index()] = captures[mover.index()].saturating_add(preview.taken);
        // The mover is judged first at the end of a turn (`end_status`): its win stands
        // whatever the turn gave the opponent.
        preview.wins = win_reason(&captures, &pieces, mover).is_some();
        preview
    }
}
