//! Each player's marks and average loss over a review.

use super::{Mark, MoveReview};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerSummary {
    pub seat: usize,
    /// The player's moves judged.
    pub moves: usize,
    /// How many moves got each mark, in the order of [`Mark::ALL`].
    pub marks: [usize; 3],
    /// The mean fall in the player's chance over their moves, from 0 to 1.
    pub average_loss: f64,
}

impl PlayerSummary {
    pub fn of(reviews: &[MoveReview], players: usize) -> Vec<PlayerSummary> {
        (0..players)
            .map(|seat| {
                let theirs: Vec<&MoveReview> = reviews.iter().filter(|r| r.mover == seat).collect();
                let mut marks = [0; 3];
                for (count, mark) in marks.iter_mut().zip(Mark::ALL) {
                    *count = theirs.iter().filter(|r| r.mark == Some(mark)).count();
                }
                let total: f64 = theirs.iter().map(|r| r.loss()).sum();
                PlayerSummary {
                    seat,
                    moves: theirs.len(),
                    marks,
                    average_loss: total / theirs.len().max(1) as f64,
                }
            })
            .collect()
    }

    pub fn count(&self, mark: Mark) -> usize {
        self.marks[mark as usize]
    }

    /// `N inaccuracies, N mistakes, N blunders, average loss X%`.
    pub fn line(&self) -> String {
        let marks: Vec<String> = Mark::ALL
            .iter()
            .map(|&mark| mark.counted(self.count(mark)))
            .collect();
        format!(
            "{}, average loss {:.1}%",
            marks.join(", "),
            100.0 * self.average_loss
        )
    }
}
