//! The solver's remembered shots and answers only change the order it tries turns in, never
//! its verdict: against a plain search with no memory, over positions one turn before a
//! shipped puzzle (where a win in two is often there and often not) and over positions of
//! random games; and a first turn found by a stopping walk is the first of all the turns.

use proptest::prelude::*;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use tabula_learn::puzzles_for;
use tabula_learn::solve::{Work, first_turn, turns, winning_turns};
use tabula_session::rules::{Game, Player, Status};
use tabula_session::{GameKind, with_game};

/// Work each search may do: the positions too big for it are passed over.
const WORK: u64 = 400_000;

fn plain_within<G: Game>(game: &G, mover: Player, depth: u32, work: &mut Work) -> Option<bool> {
    if depth == 0 || game.status() != Status::Ongoing {
        return Some(won_by(game, mover));
    }
    for turn in turns(game, work)? {
        if plain_after(&turn.after, mover, depth - 1, work)? {
            return Some(true);
        }
    }
    Some(false)
}

fn plain_after<G: Game>(game: &G, mover: Player, depth: u32, work: &mut Work) -> Option<bool> {
    if game.status() != Status::Ongoing {
        return Some(won_by(game, mover));
    }
    if game.to_move() == mover {
        return plain_within(game, mover, depth, work);
    }
    if depth == 0 {
        return Some(false);
    }
    for answer in turns(game, work)? {
        if !plain_after(&answer.after, mover, depth, work)? {
            return Some(false);
        }
    }
    Some(true)
}

fn won_by<G: Game>(game: &G, mover: Player) -> bool {
    matches!(game.status(), Status::Win { winner, .. } if winner == mover)
}

/// The first turns that win within `depth`, as text, by the plain search; `None` when too
/// big for it.
fn plain_winning<G: Game>(game: &G, depth: u32) -> Option<Vec<String>> {
    let mover = game.to_move();
    let mut work = Work(WORK);
    let mut winning = Vec::new();
    for turn in turns(game, &mut work)? {
        if plain_after(&turn.after, mover, depth - 1, &mut work)? {
            winning.push(turn.text(game));
        }
    }
    Some(winning)
}

/// Whether the solver agrees with the plain search on the winning first turns within one
/// and two turns; true when either is too big to tell.
fn agrees<G: Game>(game: &G, wins_seen: &mut usize) -> bool {
    if game.status() != Status::Ongoing {
        return true;
    }
    for depth in 1..=2 {
        let Some(plain) = plain_winning(game, depth) else {
            return true;
        };
        let Some((solved, _)) = winning_turns(game, depth, &mut Work(WORK)) else {
            return true;
        };
        let solved: Vec<String> = solved.iter().map(|t| t.text(game)).collect();
        if solved != plain {
            return false;
        }
        *wins_seen += plain.len();
    }
    true
}

/// At a shipped puzzle and after each turn of its line: the defender's positions are one
/// turn before a puzzle of a turn less. (The shipped puzzles no longer carry the moves
/// before them.)
#[test]
fn remembered_turns_change_no_verdict_along_a_puzzles_line() {
    for kind in GameKind::ALL {
        with_game!(kind, G => {
            let set = puzzles_for(kind).unwrap();
            let mut wins_seen = 0;
            for puzzle in set.puzzles.iter().take(8) {
                let mut game = puzzle.position::<G>().unwrap();
                assert!(agrees(&game, &mut wins_seen), "{}", puzzle.id);
                for (i, turn) in puzzle.line.iter().enumerate() {
                    for text in G::split_moves(turn) {
                        let mv = game.parse_move(&text).unwrap();
                        game.apply(&mv).unwrap();
                    }
                    assert!(agrees(&game, &mut wins_seen), "{} after line turn {}", puzzle.id, i + 1);
                }
            }
            assert!(wins_seen > 0, "{kind:?}: no winning turn among the positions");
        });
    }
}

fn random_position<G: Game>(seed: u64, plies: u32) -> G {
    let mut game = G::new(Default::default()).unwrap();
    let mut rng = SmallRng::seed_from_u64(seed);
    for _ in 0..plies {
        if game.status() != Status::Ongoing {
            break;
        }
        let Some(mv) = game.random_move(&mut rng) else {
            break;
        };
        game.play_unchecked(&mv);
    }
    game
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn remembered_turns_change_no_verdict_in_random_games(
        game in 0..4usize,
        seed in any::<u64>(),
        plies in 0..120u32,
    ) {
        let kind = GameKind::ALL[game];
        with_game!(kind, G => {
            let position = random_position::<G>(seed, plies);
            prop_assert!(agrees(&position, &mut 0), "{kind:?} seed {seed} plies {plies}");
        });
    }

    #[test]
    fn a_stopping_walk_finds_the_first_turn_wanted(
        game in 0..4usize,
        seed in any::<u64>(),
        plies in 0..120u32,
        pick in 0..1000usize,
    ) {
        let kind = GameKind::ALL[game];
        with_game!(kind, G => {
            let position = random_position::<G>(seed, plies);
            if let Some(all) = turns(&position, &mut Work(WORK)) {
                let texts: Vec<String> = all.iter().map(|t| t.text(&position)).collect();
                let wanted = texts.get(pick % texts.len().max(1)).cloned();
                let found = first_turn(&position, &mut Work(WORK), &mut |t| {
                    Some(t.text(&position)) == wanted
                })
                .unwrap();
                prop_assert_eq!(found.map(|t| t.text(&position)), wanted);
            }
        });
    }
}
