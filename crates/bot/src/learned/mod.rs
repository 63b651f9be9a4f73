//! An evaluation learned from self-play (issue 41, item 2). Each seat's position is
//! described by a few features a player would name (the game's [`Knowledge::FEATURES`]);
//! a seat's score is the weights times its features, and the win chances are the
//! softmax of the scores (a conditional logit: one set of weights for every seat, so two
//! and three players, and either seat, are judged alike). The weights are fitted by
//! [`fit`] to the results of games the search played against itself
//! ([`crate::play_games`]);
//! the ones shipped are `config/weights/GAME.ron`, written by `tabula-cli train`.

mod fit;

pub use fit::{Calibration, Dataset, Fit, fit};

use crate::knowledge::Knowledge;
use crate::outcome::{MAX_PLAYERS, Rewards, chances};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use tabula_rules::Player;

/// The most features a game's evaluation has (a buffer on the stack, no allocation a
/// playout).
pub const MAX_FEATURES: usize = 16;

/// Fitted weights and where they came from: the file `tabula-cli train` writes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weights {
    /// The game's name, as `tabula-cli` spells it.
    pub game: String,
    /// The seats of the games it was fitted to: weights for two players do not judge
    /// three-player Adamas.
    #[serde(default = "two_players")]
    pub players: usize,
    /// The command that made these weights, and the commit it ran at.
    pub command: String,
    pub commit: String,
    /// The bot that played the self-play games, and how many games and positions.
    pub self_play: String,
    pub games: u64,
    /// How much of each position's target was its game's result; the rest was the
    /// self-play search's value of it.
    pub result_share: f64,
    pub positions: u64,
    /// Playout plies before these weights judge, for searches whose playout is the game's
    /// own (`playout=game`); `None` keeps the game's.
    pub playout_plies: Option<u32>,
    /// The feature names, in order: a file whose names are not the game's is refused.
    pub features: Vec<String>,
    pub weights: Vec<f64>,
    /// Mean log loss on the held-out games' positions: these weights, and the
    /// hand-written evaluation, for comparison.
    pub held_out_loss: f64,
    pub hand_loss: f64,
}

impl Weights {
    /// Reads a weights file and checks it is for `G` (its game, feature names and count).
    pub fn parse<G: Knowledge>(text: &str) -> Result<Weights, String> {
        let weights: Weights = ron::from_str(text).map_err(|e| format!("weights: {e}"))?;
        if weights.game != G::NAME.to_lowercase() {
            return Err(format!(
                "weights are for {}, not {}",
                weights.game,
                G::NAME.to_lowercase()
            ));
        }
        if weights.features != G::FEATURES {
            return Err(format!(
                "weights name the features {:?}; {} has {:?}",
                weights.features,
                G::NAME,
                G::FEATURES
            ));
        }
        if weights
            .playout_plies
            .is_some_and(|plies| plies > crate::mcts::PLAYOUT_CAP)
        {
            return Err(format!(
                "weights: playout_plies is at most {}",
                crate::mcts::PLAYOUT_CAP
            ));
        }
        if weights.weights.len() != weights.features.len()
            || weights.weights.iter().any(|w| !w.is_finite())
        {
            return Err(format!(
                "weights: {} finite numbers needed, one a feature",
                weights.features.len()
            ));
        }
        Ok(weights)
    }

    /// Each seat's win chance in `game`.
    pub fn chances<G: Knowledge>(&self, game: &G) -> Rewards {
        scores_to_chances(game, &self.weights)
    }
}

fn two_players() -> usize {
    2
}

/// The win chances the weights give each seat: the softmax of the seats' scores, none
/// for a seat out of the game (three-player Adamas).
pub(crate) fn scores_to_chances<G: Knowledge>(game: &G, weights: &[f64]) -> Rewards {
    let players = game.num_players();
    let mut scores = [0.0; MAX_PLAYERS];
    let mut features = [0.0; MAX_FEATURES];
    let count = G::FEATURES.len();
    for (seat, score) in scores.iter_mut().enumerate().take(players) {
        let seat = Player(seat as u8);
        if !game.in_play(seat) {
            *score = f64::NEG_INFINITY;
            continue;
        }
        features[..count].fill(0.0);
        game.features(seat, &mut features[..count]);
        *score = weights
            .iter()
            .zip(&features[..count])
            .map(|(w, f)| w * f)
            .sum();
    }
    chances(&scores[..players], 1.0)
}

/// The weights shipped for a game, parsed once: `None` when the game ships none or its
/// file does not fit the game (a test checks every shipped file does).
pub(crate) fn shipped<G: Knowledge>(
    cell: &'static std::sync::OnceLock<Option<Arc<Weights>>>,
    text: &str,
) -> Option<Arc<Weights>> {
    cell.get_or_init(|| Weights::parse::<G>(text).ok().map(Arc::new))
        .clone()
}

#[cfg(test)]
mod tests;
