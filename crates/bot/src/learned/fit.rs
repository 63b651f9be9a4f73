//! Fitting the weights: the most likely conditional logit for the positions and results
//! of a dataset, by Newton's method with a little ridge (so a feature that never varies
//! still has a weight, zero). The fit is a few passes over the data, in a fixed order,
//! so the same data always gives the same weights.

use crate::outcome::{MAX_PLAYERS, Rewards, chances};

/// Ridge penalty a position: small enough that it only settles weights the data says
/// nothing about.
const RIDGE: f64 = 1e-4;
const MAX_NEWTON_STEPS: usize = 60;
/// A chance is never taken as exactly 0 in a log loss.
const FLOOR: f64 = 1e-9;

/// Positions (every seat's features) and the results of their games (each seat's share).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Dataset {
    features: usize,
    players: usize,
    /// Per position, `players × features`, seat by seat.
    rows: Vec<f64>,
    /// Per position, `players` shares of the result.
    results: Vec<f64>,
}

impl Dataset {
    pub fn new(features: usize, players: usize) -> Dataset {
        Dataset {
            features,
            players,
            ..Dataset::default()
        }
    }

    /// Adds a position: `row` holds every seat's features in turn, `result` what each
    /// seat got from the game.
    pub fn push(&mut self, row: &[f64], result: &Rewards) {
        assert_eq!(row.len(), self.players * self.features, "one row a seat");
        self.rows.extend_from_slice(row);
        self.results.extend_from_slice(&result[..self.players]);
    }

    pub fn len(&self) -> usize {
        self.results.len() / self.players.max(1)
    }

    pub fn is_empty(&self) -> bool {
        self.results.is_empty()
    }

    pub fn features(&self) -> usize {
        self.features
    }

    pub fn players(&self) -> usize {
        self.players
    }

    /// Each position's seat rows and result.
    fn positions(&self) -> impl Iterator<Item = (&[f64], &[f64])> {
        self.rows
            .chunks_exact(self.players * self.features)
            .zip(self.results.chunks_exact(self.players))
    }

    /// The chances `weights` give the seats of one position's rows.
    fn predict(&self, row: &[f64], weights: &[f64]) -> Rewards {
        let mut scores = [0.0; MAX_PLAYERS];
        for (seat, score) in scores.iter_mut().enumerate().take(self.players) {
            let features = &row[seat * self.features..(seat + 1) * self.features];
            *score = features.iter().zip(weights).map(|(f, w)| f * w).sum();
        }
        chances(&scores[..self.players], 1.0)
    }

    /// Mean log loss of `weights` over the positions.
    pub fn loss(&self, weights: &[f64]) -> f64 {
        self.mean_loss(|row| self.predict(row, weights))
    }

    /// Mean log loss of any predictor given the same rows (a position's index in order).
    pub fn loss_of(&self, predictions: &[Rewards]) -> f64 {
        let mut next = predictions.iter();
        self.mean_loss(|_| *next.next().expect("one prediction a position"))
    }

    fn mean_loss(&self, mut predict: impl FnMut(&[f64]) -> Rewards) -> f64 {
        let mut total = 0.0;
        for (row, result) in self.positions() {
            total += log_loss(&predict(row), result);
        }
        total / self.len().max(1) as f64
    }

    /// How often each seat won against the chance `weights` gave it, in ten bands.
    pub fn calibration(&self, weights: &[f64]) -> Calibration {
        let mut bands = [(0u64, 0.0, 0.0); 10];
        for (row, result) in self.positions() {
            let chances = self.predict(row, weights);
            for (chance, got) in chances.iter().zip(result) {
                let band = ((chance * 10.0) as usize).min(9);
                bands[band].0 += 1;
                bands[band].1 += chance;
                bands[band].2 += got;
            }
        }
        Calibration {
            bands: bands
                .iter()
                .enumerate()
                .filter(|(_, (count, _, _))| *count > 0)
                .map(|(band, &(count, predicted, got))| {
                    (band, count, predicted / count as f64, got / count as f64)
                })
                .collect(),
        }
    }
}

fn log_loss(predicted: &Rewards, result: &[f64]) -> f64 {
    result
        .iter()
        .zip(predicted)
        .filter(|(got, _)| **got > 0.0)
        .map(|(got, chance)| -got * chance.max(FLOOR).ln())
        .sum()
}

/// Predicted chances against results: `(band, seats in it, mean chance, share won)`, the
/// band being tenths of the chance (band 7 is 70% to 80%).
#[derive(Clone, Debug, PartialEq)]
pub struct Calibration {
    pub bands: Vec<(usize, u64, f64, f64)>,
}

/// What a fit found: the weights, the mean log loss on the data, and the Newton steps.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    pub weights: Vec<f64>,
    pub loss: f64,
    pub steps: usize,
}

/// The weights that make the data's results most likely (with the ridge).
pub fn fit(data: &Dataset) -> Fit {
    let k = data.features;
    let n = data.len().max(1) as f64;
    let ridge = RIDGE * n;
    let objective =
        |w: &[f64]| data.loss(w) * n + 0.5 * ridge * w.iter().map(|x| x * x).sum::<f64>();
    let mut weights = vec![0.0; k];
    let mut current = objective(&weights);
    let mut steps = 0;
    for _ in 0..MAX_NEWTON_STEPS {
        let (gradient, hessian) = derivatives(data, &weights, ridge);
        let Some(step) = solve(hessian, gradient) else {
            break;
        };
        // Halve the step until it improves (Newton's full step nearly always does).
        let mut scale = 1.0;
        let mut improved = None;
        for _ in 0..30 {
            let trial: Vec<f64> = weights
                .iter()
                .zip(&step)
                .map(|(w, s)| w + scale * s)
                .collect();
            let value = objective(&trial);
            if value <= current {
                improved = Some((trial, value));
                break;
            }
            scale /= 2.0;
        }
        let Some((trial, value)) = improved else {
            break;
        };
        steps += 1;
        let moved = step.iter().map(|s| (s * scale).abs()).fold(0.0, f64::max);
        weights = trial;
        current = value;
        if moved < 1e-10 {
            break;
        }
    }
    Fit {
        loss: data.loss(&weights),
        weights,
        steps,
    }
}

/// The gradient of the log likelihood less the ridge, and the negated Hessian (positive
/// definite), at `weights`.
fn derivatives(data: &Dataset, weights: &[f64], ridge: f64) -> (Vec<f64>, Vec<Vec<f64>>) {
    let k = data.features;
    let mut gradient: Vec<f64> = weights.iter().map(|w| -ridge * w).collect();
    let mut hessian = vec![vec![0.0; k]; k];
    for (i, row) in hessian.iter_mut().enumerate() {
        row[i] = ridge;
    }
    for (row, result) in data.positions() {
        let chances = data.predict(row, weights);
        // The targets' total: 1, unless a caller gives shares that do not add up.
        let total: f64 = result.iter().sum();
        let seat_features = |seat: usize| &row[seat * k..(seat + 1) * k];
        let mut mean = vec![0.0; k];
        for seat in 0..data.players {
            let features = seat_features(seat);
            for a in 0..k {
                gradient[a] += (result[seat] - total * chances[seat]) * features[a];
                mean[a] += chances[seat] * features[a];
                let fa = total * chances[seat] * features[a];
                for b in 0..k {
                    hessian[a][b] += fa * features[b];
                }
            }
        }
        for a in 0..k {
            for b in 0..k {
                hessian[a][b] -= total * mean[a] * mean[b];
            }
        }
    }
    (gradient, hessian)
}

/// `x` with `matrix · x = rhs`, by Gaussian elimination with partial pivoting; `None` if
/// the matrix is singular.
fn solve(mut matrix: Vec<Vec<f64>>, mut rhs: Vec<f64>) -> Option<Vec<f64>> {
    let k = rhs.len();
    for col in 0..k {
        let pivot =
            (col..k).max_by(|&a, &b| matrix[a][col].abs().total_cmp(&matrix[b][col].abs()))?;
        if matrix[pivot][col].abs() < 1e-300 {
            return None;
        }
        matrix.swap(col, pivot);
        rhs.swap(col, pivot);
        let (above, below) = matrix.split_at_mut(col + 1);
        let pivot_row = &above[col];
        for (offset, row) in below.iter_mut().enumerate() {
            let factor = row[col] / pivot_row[col];
            for (value, pivot_value) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                *value -= factor * pivot_value;
            }
            rhs[col + 1 + offset] -= factor * rhs[col];
        }
    }
    let mut x = vec![0.0; k];
    for row in (0..k).rev() {
        let rest: f64 = (row + 1..k).map(|c| matrix[row][c] * x[c]).sum();
        x[row] = (rhs[row] - rest) / matrix[row][row];
    }
    x.iter().all(|v| v.is_finite()).then_some(x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    /// Results drawn from known weights are fitted back close to them, for two and three
    /// seats, and the fit is no worse than the true weights on its own data.
    #[test]
    fn the_fit_recovers_the_weights_that_made_the_results() {
        for players in [2usize, 3] {
            let truth = [0.8, -0.5, 0.0];
            let mut rng = SmallRng::seed_from_u64(players as u64);
            let mut data = Dataset::new(3, players);
            for _ in 0..20_000 {
                let row: Vec<f64> = (0..players * 3)
                    .map(|_| rng.random_range(-2.0..2.0))
                    .collect();
                let mut scores = [0.0; MAX_PLAYERS];
                for seat in 0..players {
                    scores[seat] = (0..3).map(|j| truth[j] * row[seat * 3 + j]).sum();
                }
                let chances = chances(&scores[..players], 1.0);
                let draw: f64 = rng.random();
                let mut winner = 0;
                let mut acc = chances[0];
                while draw > acc && winner + 1 < players {
                    winner += 1;
                    acc += chances[winner];
                }
                let mut result = [0.0; MAX_PLAYERS];
                result[winner] = 1.0;
                data.push(&row, &result);
            }
            let fitted = fit(&data);
            for (got, want) in fitted.weights.iter().zip(truth) {
                assert!(
                    (got - want).abs() < 0.06,
                    "{players} seats: {:?}",
                    fitted.weights
                );
            }
            assert!(fitted.loss <= data.loss(&truth) + 1e-9);
            assert!(fitted.loss < data.loss(&[0.0; 3]));
        }
    }

    #[test]
    fn draws_pull_toward_even_and_a_constant_feature_gets_no_weight() {
        let mut data = Dataset::new(2, 2);
        for i in 0..400 {
            let lead = (i % 5) as f64;
            // Feature 1 is the same for both seats: it cannot tell them apart.
            data.push(&[lead, 3.0, -lead, 3.0], &[0.5, 0.5, 0.0]);
        }
        let fitted = fit(&data);
        assert!(fitted.weights.iter().all(|w| w.abs() < 1e-6), "{fitted:?}");
        assert!((fitted.loss - std::f64::consts::LN_2).abs() < 1e-9);
    }

    #[test]
    fn calibration_bands_count_every_seat_once() {
        let mut data = Dataset::new(1, 2);
        data.push(&[2.0, 0.0], &[1.0, 0.0, 0.0]);
        data.push(&[0.0, 0.0], &[0.0, 1.0, 0.0]);
        let bands = data.calibration(&[1.0]).bands;
        let seats: u64 = bands.iter().map(|b| b.1).sum();
        assert_eq!(seats, 4);
        let even = bands.iter().find(|b| b.0 == 5).expect("the 50% band");
        assert_eq!((even.1, even.3), (2, 0.5));
    }
}
