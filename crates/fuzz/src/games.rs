//! Targets over each game's own texts: move notation, position strings, options and the
//! Super-Adaptoid board.

use crate::{check_error, text};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use tabula_session::options::{options_from, players_for, settings_of};
use tabula_session::rules::adaptoid::Adaptoid;
use tabula_session::rules::{Game, Status};
use tabula_session::{GameKind, with_game};

/// A small Super-Adaptoid board (two rows of three discs and a link), so the targets
/// also play on a board that is not the standard hexagon.
pub const SMALL_BOARD: &str = "o o o\n o o o\nlink a1 b3";

/// Option sets each game's targets play under, picked by the input's first byte.
pub(crate) fn setups(kind: GameKind) -> &'static [&'static [(&'static str, &'static str)]] {
    match kind {
        GameKind::Absorption => &[
            &[],
            &[("dark_first", "true")],
            &[
                ("merge_connected", "true"),
                ("forbid_pass_over_origin", "true"),
            ],
            &[("symmetric_absorption", "true")],
        ],
        GameKind::Adamas => &[
            &[],
            &[("players", "3")],
            &[("size", "4"), ("prog_cap", "true")],
            &[("size", "2"), ("pieces", "2"), ("capture_cap", "6")],
        ],
        GameKind::Adaptoid => &[
            &[],
            &[("pie_start", "true")],
            &[("forbid_losing_attacks", "true")],
            &[("board", SMALL_BOARD)],
        ],
        GameKind::Adomoc => &[
            &[],
            &[("spirals", "ccw")],
            &[("infinite", "true")],
            &[("altogether", "true"), ("ply_cap", "40")],
        ],
    }
}

pub(crate) fn owned(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// The game kind of a rules type.
pub(crate) fn kind_of<G: Game>() -> GameKind {
    GameKind::from_key(G::NAME).expect("every rules type is a game kind")
}

/// The options `selector` names (its low two bits) and a position reached from their start
/// by up to 63 random moves (the other bits, which also seed the moves).
pub(crate) fn position_for<G: Game>(selector: u8) -> (G::Options, G) {
    let setup = setups(kind_of::<G>())[usize::from(selector & 3)];
    let options = options_from::<G>(&owned(setup)).expect("the fuzz setups are valid options");
    let mut game = G::new(options.clone()).expect("the fuzz setups make games");
    let mut rng = SmallRng::seed_from_u64(u64::from(selector));
    for _ in 0..selector >> 2 {
        if game.status() != Status::Ongoing {
            break;
        }
        let Some(mv) = game.random_move(&mut rng) else {
            break;
        };
        game.play_unchecked(&mv);
    }
    (options, game)
}

/// How many legal moves a position may have for the targets to list them all.
const LISTED_MOVES: u64 = 3_000;
/// How many of the listed moves are played and checked one by one.
const PLAYED_MOVES: usize = 200;

/// A move read from text writes back to text that reads as the same move; it passes
/// `check_move` exactly when the legal list (when there is one: `listed`) holds it; once
/// played, invariants hold.
fn check_parsed_move<G: Game>(game: &G, mv: &G::Move, listed: Option<&[G::Move]>) {
    let shown = game.format_move(mv);
    let again = game
        .parse_move(&shown)
        .unwrap_or_else(|e| panic!("{shown:?}, written from a parsed move, does not read: {e}"));
    assert_eq!(&again, mv, "{shown:?} reads as another move");
    let legal = game.check_move(mv).is_ok();
    if let Some(moves) = listed {
        let in_list = moves.contains(mv) || (legal && listed_alike(game, mv, moves));
        assert_eq!(
            legal,
            in_list,
            "{shown:?}: check_move says legal={legal}, the legal list says {in_list}, at {}",
            game.position_string()
        );
    }
    if legal {
        let mut after = game.clone();
        after.apply(mv).expect("a checked move plays");
        after
            .check_invariants()
            .unwrap_or_else(|e| panic!("after {shown:?} at {}: {e}", game.position_string()));
    }
}

/// Whether the legal list holds a move with the same effect as `mv`, named another way
/// (an Adamas split's destinations in another order).
fn listed_alike<G: Game>(game: &G, mv: &G::Move, moves: &[G::Move]) -> bool {
    let after = |m: &G::Move| {
        let mut next = game.clone();
        next.play_unchecked(m);
        (next.position_string(), next.status())
    };
    let wanted = after(mv);
    moves.iter().any(|m| after(m) == wanted)
}

/// The legal moves, when there are few enough to list.
fn legal_list<G: Game>(game: &G) -> Option<Vec<G::Move>> {
    game.has_at_most_moves(LISTED_MOVES)
        .then(|| game.legal_moves().collect())
}

/// Every listed move passes `check_move`, writes and reads back, and plays keeping the
/// invariants; a random move is one of them.
fn check_legal_list<G: Game>(game: &G) {
    if game.status() != Status::Ongoing {
        return;
    }
    let Some(moves) = legal_list(game) else {
        return;
    };
    for mv in moves.iter().take(PLAYED_MOVES) {
        if let Err(e) = game.check_move(mv) {
            panic!(
                "listed move {:?} fails check_move at {}: {e}",
                game.format_move(mv),
                game.position_string()
            );
        }
        check_parsed_move(game, mv, None);
    }
    let mut rng = SmallRng::seed_from_u64(game.hash());
    if let Some(mv) = game.random_move(&mut rng) {
        assert!(
            moves.contains(&mv),
            "a random move is not in the legal list"
        );
    }
}

/// A game's move notation, in a position some random moves in.
pub(crate) fn notation<G: Game>(data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let (_, game) = position_for::<G>(selector);
    match game.parse_move(&text(rest)) {
        Ok(mv) => check_parsed_move(&game, &mv, legal_list(&game).as_deref()),
        Err(e) => check_error("move notation", &e.to_string()),
    }
}

/// A game's position string, under one of its option sets.
pub(crate) fn position<G: Game>(data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let (options, _) = position_for::<G>(selector & 3);
    let game = match G::from_position(options.clone(), &text(rest)) {
        Ok(game) => game,
        Err(e) => return check_error("position string", &e.to_string()),
    };
    game.check_invariants()
        .unwrap_or_else(|e| panic!("a position that reads breaks an invariant: {e}"));
    let written = game.position_string();
    let again = G::from_position(options, &written)
        .unwrap_or_else(|e| panic!("{written:?}, written from a position, does not read: {e}"));
    assert_eq!(
        again.position_string(),
        written,
        "a position reads back differently"
    );
    assert_eq!(
        again.hash(),
        game.hash(),
        "a position read back hashes differently"
    );
    assert_eq!(again.to_move(), game.to_move());
    check_legal_list(&game);
}

/// `key=value` lines for the game the first byte names: options that read make a game (or
/// an error saying why not), and write back to settings that read as the same options.
pub fn options(data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let kind = GameKind::ALL[usize::from(selector) % GameKind::ALL.len()];
    let text = text(rest);
    let settings: Vec<(String, String)> = text
        .lines()
        .filter_map(|line| line.split_once('='))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect();
    with_game!(kind, G => check_options::<G>(&settings));
}

fn check_options<G: Game>(settings: &[(String, String)]) {
    let options = match options_from::<G>(settings) {
        Ok(options) => options,
        Err(e) => return check_error("options", &e),
    };
    let written = settings_of::<G>(&options);
    let again = options_from::<G>(&written)
        .unwrap_or_else(|e| panic!("settings written from options do not read: {e}"));
    assert_eq!(
        again, options,
        "options read back differently from {written:?}"
    );
    match G::new(options) {
        Ok(game) => {
            game.check_invariants()
                .unwrap_or_else(|e| panic!("a new game breaks an invariant: {e}"));
            assert_eq!(players_for::<G>(settings), Ok(game.num_players()));
            check_legal_list(&game);
        }
        Err(e) => check_error("options", &e.to_string()),
    }
}

/// A Super-Adaptoid board's text: a board that reads has symmetric neighbours and labels
/// that read back, and its game keeps its invariants and agrees with `check_move`.
pub fn board(data: &[u8]) {
    let text = text(data);
    let settings = vec![("board".to_string(), text.into_owned())];
    let options = match options_from::<Adaptoid>(&settings) {
        Ok(options) => options,
        Err(e) => return check_error("board", &e),
    };
    let game = match Adaptoid::new(options) {
        Ok(game) => game,
        Err(e) => return check_error("board", &e.to_string()),
    };
    let board = game.board();
    for cell in 0..board.len() as u8 {
        assert_eq!(
            board.parse_label(board.label(cell)),
            Some(cell),
            "label of {cell}"
        );
        let around = board.neighbours(cell);
        assert_eq!(around & (1 << cell), 0, "disc {cell} touches itself");
        for other in 0..board.len() as u8 {
            if around & (1 << other) != 0 {
                assert_ne!(
                    board.neighbours(other) & (1 << cell),
                    0,
                    "{cell}-{other} one way"
                );
            }
        }
    }
    game.check_invariants()
        .unwrap_or_else(|e| panic!("a game on a board that reads breaks an invariant: {e}"));
    check_legal_list(&game);
}
