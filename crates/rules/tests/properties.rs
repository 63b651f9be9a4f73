//! Properties every game must have, checked the same way for all four over random games:
//! the legal list agrees with `check_move`, the count and `random_move`; the hash agrees
//! with a recomputation; moves, records and position strings read back what was written;
//! and no text, however malformed, makes any reader panic: `parse_move` (at the start and
//! in mid-game), `from_position`, `set_option` for every option and `split_moves`.
//! Game-specific checks (candidate near misses, piece conservation) stay in each game's
//! own property file.

mod common;

use proptest::prelude::*;
use proptest::sample::Index;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use tabula_rules::Game;
use tabula_rules::absorption::{Absorption, AbsorptionOptions};
use tabula_rules::adamas::{Adamas, AdamasOptions};
use tabula_rules::adaptoid::{Adaptoid, AdaptoidOptions};
use tabula_rules::adomoc::{Adomoc, AdomocOptions, SpiralMode};

/// Legal moves checked one by one in a position; an Adamas stack can split millions of ways.
const LEGAL_LIMIT: usize = 5_000;

/// Any text at all, control characters and line breaks included.
const ANY_TEXT: &str = "(?s).{0,40}";

const SUPER_ADAPTOID_BOARD: &str = include_str!("../../../boards/super-adaptoid-example.txt");

/// Values some option of some game accepts: flags, numbers, spiral families and a board.
const PLAUSIBLE_VALUES: &[&str] = &[
    "true",
    "false",
    "on",
    "0",
    "1",
    "2",
    "3",
    "8",
    "99",
    "both",
    "ccw",
    "cw",
    "o o",
    SUPER_ADAPTOID_BOARD,
];

/// Characters the games' texts are made of, and some that look like them but are not
/// ASCII, to catch readers that slice text at byte offsets.
const ALPHABET: &str = "0123456789abcdefghijopxyzLDWBFMSlwbdfms.-+x:/,;^*[]> \n#é٣ẞ\u{0}";

/// One change to a real text: the cursor positions wrap around its length.
#[derive(Clone, Debug)]
enum Edit {
    Replace(usize, char),
    Insert(usize, char),
    Delete(usize),
    /// Overwrites one character with another of the text, keeping to its alphabet.
    Copy {
        from: usize,
        to: usize,
    },
    /// Changes the `at`th digit (a height, a count, a cell number).
    Digit {
        at: usize,
        digit: char,
    },
    /// Copies the characters between two positions to after the later one.
    Repeat(usize, usize),
    Truncate(usize),
}

/// A few edits, mostly ones that keep to the text's own alphabet so that many results
/// still read and get past the first check.
fn edits() -> impl Strategy<Value = Vec<Edit>> {
    let alphabet: Vec<char> = ALPHABET.chars().collect();
    let letter = prop_oneof![4 => prop::sample::select(alphabet), 1 => any::<char>()];
    let edit = prop_oneof![
        2 => (any::<usize>(), letter.clone()).prop_map(|(at, c)| Edit::Replace(at, c)),
        2 => (any::<usize>(), letter).prop_map(|(at, c)| Edit::Insert(at, c)),
        2 => any::<usize>().prop_map(Edit::Delete),
        3 => (any::<usize>(), any::<usize>()).prop_map(|(from, to)| Edit::Copy { from, to }),
        3 => (any::<usize>(), prop::char::range('0', '9'))
            .prop_map(|(at, digit)| Edit::Digit { at, digit }),
        1 => (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Edit::Repeat(a, b)),
        1 => any::<usize>().prop_map(Edit::Truncate),
    ];
    prop::collection::vec(edit, 1..4)
}

fn mutate(text: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for edit in edits {
        let len = chars.len();
        match *edit {
            Edit::Replace(at, c) if len > 0 => chars[at % len] = c,
            Edit::Insert(at, c) => chars.insert(at % (len + 1), c),
            Edit::Delete(at) if len > 0 => {
                chars.remove(at % len);
            }
            Edit::Copy { from, to } if len > 0 => chars[to % len] = chars[from % len],
            Edit::Digit { at, digit } => {
                let digits: Vec<usize> = (0..len).filter(|&i| chars[i].is_ascii_digit()).collect();
                if !digits.is_empty() {
                    chars[digits[at % digits.len()]] = digit;
                }
            }
            Edit::Repeat(a, b) => {
                let (start, end) = (a % (len + 1), b % (len + 1));
                let (start, end) = (start.min(end), start.max(end));
                let copy: Vec<char> = chars[start..end].to_vec();
                chars.splice(end..end, copy);
            }
            Edit::Truncate(at) => chars.truncate(at % (len + 1)),
            _ => {}
        }
    }
    chars.into_iter().collect()
}

/// The start, or a position `plies` random moves into a game.
fn random_position<G: Game>(options: G::Options, seed: u64, plies: usize) -> G {
    let mut game = G::new(options).expect("the strategies give valid options");
    let mut rng = SmallRng::seed_from_u64(seed);
    for _ in 0..plies {
        let Some(mv) = game.random_move(&mut rng) else {
            break;
        };
        game.play_unchecked(&mv);
    }
    game
}

/// The written form of some legal move here (or `pass` once the game is over), as raw
/// material for near-miss texts.
fn some_move_text<G: Game>(game: &G, seed: u64) -> String {
    let mut rng = SmallRng::seed_from_u64(seed);
    game.random_move(&mut rng)
        .map_or_else(|| "pass".to_string(), |mv| game.format_move(&mv))
}

/// Along a random game every position passes its own checks, reads back from its string
/// and lists exactly the moves it counts and accepts; then the game's record, written
/// with `join_moves`, splits and reads back to the same moves.
fn random_game_agrees_with_itself<G: Game>(
    options: G::Options,
    seed: u64,
    plies: usize,
) -> Result<(), TestCaseError> {
    let mut game = G::new(options.clone()).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let mut rng = SmallRng::seed_from_u64(seed);
    let played = common::walk_random_game(&mut game, &mut rng, plies, 2, &mut |g, _| {
        common::check_position_text(g, true)?;
        common::check_legal_moves(g, LEGAL_LIMIT)
    })?;

    let mut replay = G::new(options.clone()).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let mut written = Vec::new();
    for mv in &played {
        written.push(replay.format_move(mv));
        replay.play_unchecked(mv);
    }
    let record = G::join_moves(&written);
    prop_assert_eq!(G::split_moves(&record), written.clone(), "{}", record);
    let mut reread = G::new(options).map_err(|e| TestCaseError::fail(e.to_string()))?;
    for (text, mv) in written.iter().zip(&played) {
        prop_assert_eq!(reread.parse_move(text), Ok(mv.clone()), "{}", text);
        reread.play_unchecked(mv);
    }
    prop_assert_eq!(reread.position_string(), game.position_string());
    Ok(())
}

/// Reads `text` as a move in `game`. A move it reads is judged by `check_move` and written
/// by `format_move`; one judged legal plays, leaving a consistent position.
fn check_move_text<G: Game>(game: &G, text: &str) -> Result<(), TestCaseError> {
    let Ok(mv) = game.parse_move(text) else {
        return Ok(());
    };
    game.format_move(&mv);
    if game.check_move(&mv).is_ok() {
        let mut after = game.clone();
        after
            .apply(&mv)
            .map_err(|e| TestCaseError::fail(format!("{text:?}: {e}")))?;
        after.check_invariants().map_err(TestCaseError::fail)?;
        prop_assert_eq!(after.hash(), after.recompute_hash());
    }
    Ok(())
}

/// Reads `text` as a position. A position it accepts passes its own checks, reads back from
/// its string, lists the moves it counts, draws, and plays a random move.
fn check_position_text_input<G: Game>(
    options: G::Options,
    text: &str,
) -> Result<(), TestCaseError> {
    let Ok(game) = G::from_position(options, text) else {
        return Ok(());
    };
    common::check_position_text(&game, false)
        .map_err(|e| TestCaseError::fail(format!("{text:?} read as {game:?}: {e}")))?;
    common::check_legal_moves(&game, LEGAL_LIMIT)?;
    game.ascii();
    let mut rng = SmallRng::seed_from_u64(game.hash());
    if let Some(mv) = game.random_move(&mut rng) {
        let mut after = game.clone();
        after
            .apply(&mv)
            .map_err(|e| TestCaseError::fail(format!("{text:?}: {e}")))?;
        after.check_invariants().map_err(TestCaseError::fail)?;
    }
    Ok(())
}

/// Splits `text` as a record and reads each part as a move in `game`.
fn check_record_text<G: Game>(game: &G, text: &str) -> Result<(), TestCaseError> {
    for part in G::split_moves(text) {
        prop_assert!(!part.is_empty(), "an empty move split from {:?}", text);
        check_move_text(game, &part)?;
    }
    Ok(())
}

/// The option keys, read from the options' serde form: the keys are the field names.
fn option_fields<G: Game>(options: &G::Options) -> Vec<(String, ron::Value)> {
    let text = ron::to_string(options).expect("options serialize");
    let Ok(ron::Value::Map(map)) = ron::from_str(&text) else {
        panic!("options serialize as a struct: {text}");
    };
    map.into_iter()
        .map(|(key, value)| match key {
            ron::Value::String(key) => (key, value),
            other => panic!("option key {other:?} is not a name"),
        })
        .collect()
}

/// Sets each key to its value in turn, from the default options. A value taken changes
/// no other option; the options in the end either start a game that plays and reads back,
/// or are refused.
fn check_option_texts<G: Game>(settings: &[(&str, String)]) -> Result<(), TestCaseError> {
    let mut options = G::Options::default();
    for (key, value) in settings {
        let before = option_fields::<G>(&options);
        if G::set_option(&mut options, key, value).is_err() {
            continue;
        }
        for ((name, was), (_, now)) in before.iter().zip(&option_fields::<G>(&options)) {
            if name != key {
                prop_assert_eq!(was, now, "setting {} changed {}", key, name);
            }
        }
    }
    let Ok(mut game) = G::new(options) else {
        return Ok(());
    };
    let mut rng = SmallRng::seed_from_u64(0);
    common::walk_random_game(&mut game, &mut rng, 6, 1, &mut |g, _| {
        common::check_position_text(g, true)?;
        common::check_legal_moves(g, LEGAL_LIMIT)
    })?;
    Ok(())
}

/// Every option key read from serde is one `set_option` knows: some plausible value sets
/// it. An unknown key is refused.
fn every_option_key_is_settable<G: Game>() {
    let keys: Vec<String> = option_fields::<G>(&G::Options::default())
        .into_iter()
        .map(|(key, _)| key)
        .collect();
    assert!(!keys.is_empty());
    for key in &keys {
        let settable = PLAUSIBLE_VALUES
            .iter()
            .any(|value| G::set_option(&mut G::Options::default(), key, value).is_ok());
        assert!(settable, "{} refuses every value for {key}", G::NAME);
    }
    assert!(G::set_option(&mut G::Options::default(), "no_such_option", "1").is_err());
}

fn option_value() -> impl Strategy<Value = String> {
    prop_oneof![
        ANY_TEXT.prop_map(String::from),
        "-?[0-9]{1,3}|[0-9]{4,25}".prop_map(String::from),
        prop::sample::select(PLAUSIBLE_VALUES).prop_map(String::from),
        // Shaped like an Adaptoid board: rows of discs, then links.
        "((#.*)?\n|( ?o){1,7}\n){1,9}((un)?link [a-i][0-9]{1,2} [a-i][0-9]{1,2}\n){0,3}",
        (prop::sample::select(PLAUSIBLE_VALUES), edits()).prop_map(|(v, e)| mutate(v, &e)),
    ]
}

/// The plies into a game of a position to read text in: often the start, else mid-game.
fn plies_into(max: usize) -> impl Strategy<Value = usize> {
    prop_oneof![Just(0), 1..max]
}

/// The generic properties for one game. `options` is a strategy for the rule options to
/// play under, `plies` bounds the random games, `move_like` and `position_like` are
/// regular expressions for text shaped like the game's moves and position strings.
macro_rules! game_properties {
    (
        $module:ident: $game:ty,
        options: $options:expr,
        plies: $plies:expr,
        walks: $walks:expr,
        move_like: $move_like:expr,
        position_like: $position_like:expr $(,)?
    ) => {
        mod $module {
            use super::*;

            type G = $game;

            proptest! {
                #![proptest_config(ProptestConfig::with_cases($walks))]

                #[test]
                fn random_games_agree_with_themselves(
                    options in $options,
                    seed in any::<u64>(),
                    plies in 0..$plies,
                ) {
                    random_game_agrees_with_itself::<G>(options, seed, plies)?;
                }
            }

            proptest! {
                #![proptest_config(ProptestConfig::with_cases(128))]

                #[test]
                fn any_move_text_never_panics(
                    options in $options,
                    seed in any::<u64>(),
                    plies in plies_into($plies),
                    text in ANY_TEXT,
                ) {
                    check_move_text(&random_position::<G>(options, seed, plies), &text)?;
                }

                #[test]
                fn move_like_text_never_panics(
                    options in $options,
                    seed in any::<u64>(),
                    plies in plies_into($plies),
                    text in $move_like,
                ) {
                    check_move_text(&random_position::<G>(options, seed, plies), &text)?;
                }

                #[test]
                fn near_miss_move_text_never_panics(
                    options in $options,
                    seed in any::<u64>(),
                    plies in plies_into($plies),
                    edits in edits(),
                ) {
                    let game = random_position::<G>(options, seed, plies);
                    let text = mutate(&some_move_text(&game, seed), &edits);
                    check_move_text(&game, &text)?;
                }

                #[test]
                fn any_position_text_never_panics(text in ANY_TEXT) {
                    check_position_text_input::<G>(Default::default(), &text)?;
                }

                #[test]
                fn position_like_text_never_panics(text in $position_like) {
                    check_position_text_input::<G>(Default::default(), &text)?;
                }

                #[test]
                fn near_miss_position_text_never_panics(
                    options in $options,
                    seed in any::<u64>(),
                    plies in plies_into($plies),
                    edits in edits(),
                ) {
                    let game = random_position::<G>(options.clone(), seed, plies);
                    let text = mutate(&game.position_string(), &edits);
                    check_position_text_input::<G>(options, &text)?;
                }

                #[test]
                fn option_text_never_panics(
                    settings in prop::collection::vec((any::<Index>(), option_value()), 1..4),
                ) {
                    let fields = option_fields::<G>(&Default::default());
                    let settings: Vec<(&str, String)> = settings
                        .into_iter()
                        .map(|(key, value)| (fields[key.index(fields.len())].0.as_str(), value))
                        .collect();
                    check_option_texts::<G>(&settings)?;
                }

                #[test]
                fn record_text_never_panics(
                    options in $options,
                    seed in any::<u64>(),
                    plies in plies_into($plies),
                    text in ANY_TEXT,
                ) {
                    check_record_text(&random_position::<G>(options, seed, plies), &text)?;
                }
            }

            #[test]
            fn every_option_key_is_settable() {
                super::every_option_key_is_settable::<G>();
            }
        }
    };
}

game_properties! {
    absorption: Absorption,
    options: (any::<[bool; 4]>(), 0u32..4).prop_map(|(flags, turn_cap)| AbsorptionOptions {
        merge_connected: flags[0],
        forbid_pass_over_origin: flags[1],
        symmetric_absorption: flags[2],
        dark_first: flags[3],
        turn_cap: turn_cap * 20,
        ..AbsorptionOptions::default()
    }),
    plies: 300usize,
    walks: 24,
    move_like: "[xX]?[a-i][0-9]([/+>\\-\\[]?[a-i]?[0-9]?:?[0-4]?[,+\\]]?){0,5}|[Pp][Aa][Ss][Ss]",
    position_like: "[LD1-9/]{0,40} [ldx] (a|c|c2|b(:[a-i1-9,\\-]{0,9}){0,4}) [0-9]{1,2} [0-9]{1,3}",
}

game_properties! {
    adamas: Adamas,
    options: (2u8..=4, 2u8..=3, any::<bool>(), 1u16..=10).prop_map(
        |(size, players, prog_cap, pieces)| AdamasOptions {
            size: Some(size),
            players,
            prog_cap,
            pieces: Some(pieces),
            ..AdamasOptions::default()
        }
    ),
    plies: 40usize,
    walks: 32,
    move_like: "[0-9]{0,3}x?[a-h][0-9]{1,2}(,[0-9]{0,2}x?[a-h][0-9])*-[0-9x]{0,3}[a-h][0-9](,[a-h][0-9])*",
    position_like: "[.ox0-9/ ]{0,40}|[.oxy0-9/ -]{0,60}",
}

game_properties! {
    adaptoid: Adaptoid,
    options: any::<[bool; 2]>().prop_map(|[forbid_losing_attacks, pie_start]| AdaptoidOptions {
        forbid_losing_attacks,
        pie_start,
        ..AdaptoidOptions::default()
    }),
    plies: 150usize,
    walks: 32,
    move_like: "([a-h][0-9]{1,2}[-xX][a-h][0-9]{1,2} ?)?(\\+[a-h][0-9]{1,2}|[a-h][0-9]{1,2}\\+[LPlpx])?|[WBwb]:[a-h][0-9] [WBwb]:[a-h][0-9]|white|black|pass",
    position_like: "[.WB0-7/]{0,50} [wbx] [0-9]{1,2}-[0-9]{1,2} [0-9]{1,3}( swapped| place| choose)?",
}

game_properties! {
    adomoc: Adomoc,
    options: (
        prop_oneof![
            Just(SpiralMode::Both),
            Just(SpiralMode::CcwInward),
            Just(SpiralMode::CwInward)
        ],
        any::<[bool; 2]>(),
    )
        .prop_map(|(spirals, [infinite, altogether])| AdomocOptions {
            spirals,
            infinite,
            altogether,
            ..AdomocOptions::default()
        }),
    plies: 200usize,
    walks: 24,
    move_like: "[FMSfms]\\^?[a-k][0-9][a-k][0-9]([oO][a-k][0-9]|[xX])?\\*?",
    position_like: "[.FMSfms^/]{0,100} [ldx] [0-9]{1,4} (-|[a-j][0-9]>[a-j][0-9]\\+[0-9](,[a-j][0-9]>[a-j][0-9]\\+[0-9])?)",
}
