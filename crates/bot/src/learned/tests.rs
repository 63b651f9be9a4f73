use super::*;
use crate::config::{Budget, MctsConfig};
use crate::matches::{Played, Schedule, Side, play_games};
use crate::mcts::Search;
use tabula_rules::Game;
use tabula_rules::absorption::Absorption;
use tabula_rules::adamas::Adamas;
use tabula_rules::adaptoid::Adaptoid;
use tabula_rules::adomoc::Adomoc;

/// Every seat's features in `game`.
fn seat_features<G: Knowledge>(game: &G) -> Vec<Vec<f64>> {
    (0..game.num_players())
        .map(|seat| {
            let mut out = vec![0.0; G::FEATURES.len()];
            game.features(Player(seat as u8), &mut out);
            out
        })
        .collect()
}

/// The starts are fair: the seats' features differ only in who is to move; and every
/// feature stays finite through a random game.
fn features_are_fair_at_the_start_and_finite<G: Knowledge>(start: G) {
    assert!(!G::FEATURES.is_empty() && G::FEATURES.len() <= MAX_FEATURES);
    let to_move = G::FEATURES
        .iter()
        .position(|name| *name == "to move")
        .expect("a to-move feature");
    let seats = seat_features(&start);
    for (j, name) in G::FEATURES.iter().enumerate() {
        let values: Vec<f64> = seats.iter().map(|seat| seat[j]).collect();
        if j == to_move {
            assert_eq!(values.iter().sum::<f64>(), 1.0, "{}: {name}", G::NAME);
        } else {
            assert!(
                values.iter().all(|&v| v == values[0]),
                "{}: {name} {values:?}",
                G::NAME
            );
        }
    }
    let mut rng = SmallRng::seed_from_u64(3);
    let mut game = start;
    for _ in 0..300 {
        if game.status().is_over() {
            break;
        }
        for seat in seat_features(&game) {
            assert!(seat.iter().all(|f| f.is_finite()), "{}: {seat:?}", G::NAME);
        }
        let chances = scores_to_chances(&game, &vec![0.3; G::FEATURES.len()]);
        let total: f64 = chances.iter().sum();
        assert!((total - 1.0).abs() < 1e-9, "{chances:?}");
        let mv = game
            .random_move(&mut rng)
            .expect("an ongoing game has a move");
        game.play_unchecked(&mv);
    }
}

use rand::SeedableRng;
use rand::rngs::SmallRng;

#[test]
fn every_game_has_fair_finite_features() {
    features_are_fair_at_the_start_and_finite(Absorption::new(Default::default()).unwrap());
    features_are_fair_at_the_start_and_finite(Adamas::new(Default::default()).unwrap());
    features_are_fair_at_the_start_and_finite(Adaptoid::new(Default::default()).unwrap());
    features_are_fair_at_the_start_and_finite(Adomoc::new(Default::default()).unwrap());
    let mut three = <Adamas as Game>::Options::default();
    Adamas::set_option(&mut three, "players", "3").unwrap();
    features_are_fair_at_the_start_and_finite(Adamas::new(three).unwrap());
}

fn adaptoid_weights(weights: Vec<f64>) -> Weights {
    Weights {
        game: "adaptoid".into(),
        players: 2,
        command: "a test".into(),
        commit: "none".into(),
        self_play: "mcts:iters=10".into(),
        games: 1,
        result_share: 0.5,
        positions: 1,
        playout_plies: Some(4),
        features: Adaptoid::FEATURES.iter().map(|s| s.to_string()).collect(),
        weights,
        held_out_loss: 0.6,
        hand_loss: 0.7,
    }
}

#[test]
fn a_weights_file_must_fit_its_game() {
    let good = adaptoid_weights(vec![0.1; Adaptoid::FEATURES.len()]);
    let text = ron::to_string(&good).unwrap();
    assert_eq!(Weights::parse::<Adaptoid>(&text), Ok(good.clone()));
    let error = Weights::parse::<Adomoc>(&text).unwrap_err();
    assert!(error.contains("for adaptoid, not adomoc"), "{error}");
    let short = adaptoid_weights(vec![0.1; 2]);
    let error = Weights::parse::<Adaptoid>(&ron::to_string(&short).unwrap()).unwrap_err();
    assert!(error.contains("finite numbers needed"), "{error}");
    let mut renamed = good.clone();
    renamed.features[0] = "kills".into();
    let error = Weights::parse::<Adaptoid>(&ron::to_string(&renamed).unwrap()).unwrap_err();
    assert!(error.contains("name the features"), "{error}");
    let error = Weights::parse::<Adaptoid>("(game: \"adaptoid\"").unwrap_err();
    assert!(error.starts_with("weights:"), "{error}");
    // A NaN weight would make every chance NaN.
    let text = text.replacen("0.1", "NaN", 1);
    assert!(Weights::parse::<Adaptoid>(&text).is_err());
}

/// Weights given to a search judge its stopped playouts, after the playout plies they
/// name: zero weights (every position even) make every iteration even from the start,
/// where the hand-written search's playouts to the end are not.
#[test]
fn a_search_judges_by_the_weights_it_is_given() {
    let game = Adaptoid::new(Default::default()).unwrap();
    let even = adaptoid_weights(vec![0.0; Adaptoid::FEATURES.len()]);
    let config = MctsConfig {
        solver: false,
        ..MctsConfig::default()
    };
    let mut search = Search::new(game.clone(), config.clone(), 1);
    search.set_weights(Some(Arc::new(even)));
    search.think(Budget::iterations(200));
    // 4-ply playouts from the start: no game ends so soon, so every playout is even.
    assert!(
        (search.root_value() - 0.5).abs() < 1e-9,
        "{}",
        search.root_value()
    );
    let mut hand = Search::new(game, config, 1);
    hand.think(Budget::iterations(200));
    assert!(
        (hand.root_value() - 0.5).abs() > 1e-6,
        "{}",
        hand.root_value()
    );
}

/// The same schedule gives the same games on one job and on two, and so the same fit:
/// the trainer reproduces its weights from its command.
#[test]
fn self_play_and_the_fit_are_reproducible() {
    let game = Adaptoid::new(Default::default()).unwrap();
    let sides = [Side {
        spec: "mcts:iters=40,playout=6".parse().unwrap(),
        weights: None,
    }];
    let schedule = |jobs| Schedule {
        first: 0,
        games: 4,
        seed: 9,
        max_plies: 30,
        record: true,
        jobs,
    };
    let one = play_games(&game, &sides, &schedule(1), &mut |_| {});
    let two = play_games(&game, &sides, &schedule(2), &mut |_| {});
    assert_eq!(one, two);
    // A match stopped early is finished by its last games alone, the same games.
    let last_two = play_games(
        &game,
        &sides,
        &Schedule {
            first: 2,
            ..schedule(1)
        },
        &mut |_| {},
    );
    assert_eq!(last_two, one[2..]);
    let row = 2 * Adaptoid::FEATURES.len();
    assert!(
        one.iter()
            .all(|g| g.positions(row) == g.plies as usize && g.hand.len() == g.plies as usize)
    );
    let data = |games: &[Played]| {
        let mut data = Dataset::new(Adaptoid::FEATURES.len(), 2);
        for game in games {
            for features in game.rows.chunks_exact(row) {
                data.push(features, &game.result);
            }
        }
        data
    };
    assert_eq!(fit(&data(&one)), fit(&data(&two)));
}

/// Every weights file the bot ships fits its game, and the games without one fall back
/// to the hand-written evaluation.
#[test]
fn the_shipped_weights_fit_their_games() {
    for weights in [Absorption::shipped_weights(), Adamas::shipped_weights()] {
        let weights = weights.expect("a shipped file that parses");
        assert!(weights.held_out_loss < weights.hand_loss, "{weights:?}");
        assert!(
            weights.command.starts_with("tabula-cli train "),
            "{}",
            weights.command
        );
    }
    assert!(Adaptoid::shipped_weights().is_none() && Adomoc::shipped_weights().is_none());
}

/// The top level judges by the shipped weights where they fit the game, and by hand where
/// they do not: the Adamas weights were fitted to two players, not three.
#[test]
fn learned_weights_judge_only_the_games_they_were_fitted_to() {
    let learned = MctsConfig {
        evaluation: crate::config::Evaluation::Learned,
        ..MctsConfig::default()
    };
    let two = Adamas::new(Default::default()).unwrap();
    assert!(
        Search::new(two.clone(), learned.clone(), 1)
            .weights()
            .is_some()
    );
    assert!(
        Search::new(two, MctsConfig::default(), 1)
            .weights()
            .is_none()
    );
    let mut options = <Adamas as Game>::Options::default();
    Adamas::set_option(&mut options, "players", "3").unwrap();
    let three = Adamas::new(options).unwrap();
    assert!(Search::new(three, learned.clone(), 1).weights().is_none());
    let adomoc = Adomoc::new(Default::default()).unwrap();
    assert!(Search::new(adomoc, learned, 1).weights().is_none());
    // A file cannot make playouts endless.
    let mut long = adaptoid_weights(vec![0.1; Adaptoid::FEATURES.len()]);
    long.playout_plies = Some(u32::MAX);
    let error = Weights::parse::<Adaptoid>(&ron::to_string(&long).unwrap()).unwrap_err();
    assert!(error.contains("playout_plies is at most 20000"), "{error}");
}

/// A seat out of three-player Adamas has no chance by the weights, whatever its features.
#[test]
fn a_seat_out_of_the_game_gets_no_chance() {
    let mut options = <Adamas as Game>::Options::default();
    Adamas::set_option(&mut options, "players", "3").unwrap();
    let weights = vec![0.2; Adamas::FEATURES.len()];
    let mut rng = SmallRng::seed_from_u64(11);
    for _ in 0..200 {
        let mut game = Adamas::new(options.clone()).unwrap();
        for _ in 0..2000 {
            if game.status().is_over() {
                break;
            }
            if let Some(out) = (0..3).map(Player).find(|&seat| !game.is_active(seat)) {
                let chances = scores_to_chances(&game, &weights);
                assert_eq!(chances[out.index()], 0.0, "{chances:?}");
                assert!((chances.iter().sum::<f64>() - 1.0).abs() < 1e-9);
                return;
            }
            let mv = game
                .random_move(&mut rng)
                .expect("an ongoing game has a move");
            game.play_unchecked(&mv);
        }
    }
    panic!("no random game put a seat out while the others played on");
}
