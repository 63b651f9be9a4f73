//! The Elo difference a match result implies, with a 95% confidence interval.

/// A two-sided match result from the first player's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

/// An Elo difference and its 95% interval; infinite when a side scored everything.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    pub difference: f64,
    pub low: f64,
    pub high: f64,
}

impl Score {
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Points per game: wins 1, draws 1/2.
    pub fn fraction(&self) -> f64 {
        (self.wins as f64 + self.draws as f64 / 2.0) / self.games().max(1) as f64
    }

    /// The Elo difference with an interval from the per-game score's standard error
    /// (normal approximation, as chess engine testers use it).
    pub fn elo(&self) -> Option<EloEstimate> {
        let n = self.games() as f64;
        if n == 0.0 {
            return None;
        }
        let mean = self.fraction();
        let variance = (self.wins as f64 * (1.0 - mean).powi(2)
            + self.draws as f64 * (0.5 - mean).powi(2)
            + self.losses as f64 * mean.powi(2))
            / n;
        let margin = 1.96 * (variance / n).sqrt();
        Some(EloEstimate {
            difference: elo_of(mean),
            low: elo_of(mean - margin),
            high: elo_of(mean + margin),
        })
    }
}

/// The Elo difference for an expected score, infinite at 0 and 1.
fn elo_of(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_scores_give_known_differences() {
        let even = Score {
            wins: 10,
            draws: 0,
            losses: 10,
        }
        .elo()
        .unwrap();
        assert!(even.difference.abs() < 1e-9 && even.low < 0.0 && even.high > 0.0);
        // 75% is about +191 Elo.
        let three_to_one = Score {
            wins: 75,
            draws: 0,
            losses: 25,
        }
        .elo()
        .unwrap();
        assert!(
            (three_to_one.difference - 190.8).abs() < 0.5,
            "{three_to_one:?}"
        );
        assert!(three_to_one.low > 100.0 && three_to_one.high < 300.0);
        let sweep = Score {
            wins: 8,
            draws: 0,
            losses: 0,
        }
        .elo()
        .unwrap();
        assert!(sweep.difference.is_infinite());
        assert_eq!(Score::default().elo(), None);
    }
}
