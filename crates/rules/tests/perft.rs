//! Perft tables kept as data files, as shakmaty does.

use tabula_rules::absorption::Absorption;
use tabula_rules::adamas::Adamas;
use tabula_rules::adaptoid::Adaptoid;
use tabula_rules::adomoc::Adomoc;
use tabula_rules::{Game, perft};

fn check_table<G: Game>(table: &str) {
    let mut checked = 0;
    for line in table.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        // `OPTIONS DEPTH COUNT`, from the start, or `... @ POSITION` from a position string.
        let (line_fields, position) = match line.split_once(" @ ") {
            Some((fields, position)) => (fields, Some(position)),
            None => (line, None),
        };
        let fields: Vec<&str> = line_fields.split_whitespace().collect();
        let [options_text, depth, expected] = fields[..] else {
            panic!("malformed perft line {line:?}");
        };
        let mut options = G::Options::default();
        if options_text != "default" {
            for pair in options_text.split(',') {
                let (key, value) = pair.split_once('=').expect("key=value");
                G::set_option(&mut options, key, value).unwrap();
            }
        }
        let game = match position {
            Some(text) => G::from_position(options, text).unwrap(),
            None => G::new(options).unwrap(),
        };
        let count = perft(&game, depth.parse().unwrap());
        assert_eq!(count.to_string(), expected, "{line}");
        checked += 1;
    }
    assert!(checked > 0, "the table has no entries");
}

#[test]
fn adamas_perft_table() {
    check_table::<Adamas>(include_str!("perft/adamas.txt"));
}

#[test]
fn absorption_perft_table() {
    check_table::<Absorption>(include_str!("perft/absorption.txt"));
}

#[test]
fn adaptoid_perft_table() {
    check_table::<Adaptoid>(include_str!("perft/adaptoid.txt"));
}

#[test]
fn adomoc_perft_table() {
    check_table::<Adomoc>(include_str!("perft/adomoc.txt"));
}
