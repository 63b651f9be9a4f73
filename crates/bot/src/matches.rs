//! Matches between bots, seats rotating game by game (`tabula-cli match`), and the
//! trainer's self-play, which also keeps every position's features. Each game is seeded by
//! its index, so the games are the same whatever the number of jobs.

use crate::bot::Bot;
use crate::knowledge::Knowledge;
use crate::learned::{MAX_FEATURES, Weights};
use crate::outcome::{Proof, Rewards, even};
use crate::spec::BotSpec;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use tabula_rules::{Player, Status};

/// One side of the games: a bot, and the learned weights its search judges by instead of
/// the game's shipped ones (`None`: the spec's own evaluation).
#[derive(Clone, Debug)]
pub struct Side {
    pub spec: BotSpec,
    pub weights: Option<Arc<Weights>>,
}

/// Which games to play and how: games `first..games`, seeded from `seed`, stopped (as
/// draws) after `max_plies`, on `jobs` threads; `record` keeps every position's features.
/// A `first` above 0 finishes a match stopped early: each game's seeds and seats depend on
/// its index alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Schedule {
    pub first: u64,
    pub games: u64,
    pub seed: u64,
    pub max_plies: u32,
    pub record: bool,
    pub jobs: usize,
}

/// One finished (or stopped) game.
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    pub index: u64,
    /// Which side sat in each seat.
    pub seating: Vec<usize>,
    /// Every position before a move, all seats' features in turn (empty unless asked).
    pub rows: Vec<f64>,
    /// The hand-written evaluation of each of those positions, to compare with.
    pub hand: Vec<Rewards>,
    /// What the mover's search made of each of those positions: every seat's chance.
    pub searched: Vec<Rewards>,
    /// How the game stands at its end: `Ongoing` when stopped at `max_plies`.
    pub status: Status,
    /// Each seat's share: a stopped game counts as a draw.
    pub result: Rewards,
    pub plies: u32,
}

impl Played {
    pub fn positions(&self, row_len: usize) -> usize {
        self.rows.len() / row_len.max(1)
    }

    /// Whether the game ended by the rules (not stopped at `max_plies`).
    pub fn finished(&self) -> bool {
        self.status.is_over()
    }
}

/// Plays game `index`: seat `s` is played by side `(s + index) % sides`, so seats rotate.
pub fn play_game<G: Knowledge>(
    start: &G,
    sides: &[Side],
    index: u64,
    schedule: &Schedule,
) -> Played {
    let Schedule {
        seed,
        max_plies,
        record,
        ..
    } = *schedule;
    let players = start.num_players();
    let seating: Vec<usize> = (0..players)
        .map(|seat| (seat + index as usize) % sides.len())
        .collect();
    let mut bots: Vec<Bot<G>> = seating
        .iter()
        .enumerate()
        .map(|(seat, &side)| {
            let bot_seed = seed
                ^ index
                    .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                    .wrapping_add(seat as u64);
            let mut bot = Bot::new(&sides[side].spec, start, bot_seed);
            if let (Some(weights), Some(search)) = (&sides[side].weights, bot.search_mut()) {
                search.set_weights(Some(weights.clone()));
            }
            bot
        })
        .collect();
    let count = G::FEATURES.len();
    let mut rows = Vec::new();
    let mut hand = Vec::new();
    let mut searched = Vec::new();
    let mut features = [0.0; MAX_FEATURES];
    let mut game = start.clone();
    let mut plies = 0;
    while !game.status().is_over() && plies < max_plies {
        let bot = &mut bots[game.to_move().index()];
        bot.set_position(&game);
        while bot.think(1_000) {}
        let Some(mv) = bot.move_to_play() else {
            break;
        };
        if record {
            for seat in 0..players {
                features[..count].fill(0.0);
                game.features(Player(seat as u8), &mut features[..count]);
                rows.extend_from_slice(&features[..count]);
            }
            hand.push(game.evaluate());
            searched.push(bot.chances());
        }
        bot.advance(&mv);
        game.apply(&mv).expect("bots play legal moves");
        plies += 1;
    }
    let result = match Proof::of_status(game.status()) {
        Some(proof) => proof.rewards(players),
        None => even(players),
    };
    Played {
        index,
        seating,
        rows,
        hand,
        searched,
        status: game.status(),
        result,
        plies,
    }
}

/// Plays the schedule's games and returns them in order; `done` hears of each as it ends
/// (in the order they end).
pub fn play_games<G: Knowledge>(
    start: &G,
    sides: &[Side],
    schedule: &Schedule,
    done: &mut dyn FnMut(&Played),
) -> Vec<Played> {
    let games = schedule.games;
    let next = AtomicU64::new(schedule.first);
    let (sender, receiver) = mpsc::channel();
    let mut played = Vec::new();
    std::thread::scope(|scope| {
        for _ in 0..schedule.jobs.max(1) {
            let sender = sender.clone();
            let next = &next;
            scope.spawn(move || {
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= games {
                        return;
                    }
                    let game = play_game(start, sides, index, schedule);
                    if sender.send(game).is_err() {
                        return;
                    }
                }
            });
        }
        drop(sender);
        for game in receiver {
            done(&game);
            played.push(game);
        }
    });
    played.sort_by_key(|game| game.index);
    played
}
