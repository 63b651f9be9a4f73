use super::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Builds one move by random clicks among the offered choices, committing when the move
/// is complete and (half the time, if it could grow) at once.
fn random_move(table: &mut dyn Table, rng: &mut SmallRng) -> Vec<PlayedEvent> {
    loop {
        let complete = table.complete_move().is_some();
        let choices = table.choices().len();
        if complete && (choices == 0 || rng.random_bool(0.5)) {
            return table.commit().expect("a complete move commits");
        }
        assert!(choices > 0, "an incomplete move must offer a next step");
        table
            .choose(rng.random_range(0..choices))
            .expect("an offered choice is taken");
    }
}

fn cells_named(anim: &Anim) -> Vec<usize> {
    match anim {
        Anim::Glide { from, to, .. } | Anim::Fly { from, to, .. } => vec![*from, *to],
        Anim::Split { from, parts } => std::iter::once(*from)
            .chain(parts.iter().map(|p| p.0))
            .collect(),
        Anim::Merge { into, from } => std::iter::once(*into).chain(from.clone()).collect(),
        Anim::Absorb { cell, gifts, .. } => std::iter::once(*cell)
            .chain(gifts.iter().map(|g| g.0))
            .collect(),
        Anim::LiftAway { cell, .. } | Anim::Appear { cell } | Anim::Fade { cell, .. } => {
            vec![*cell]
        }
        Anim::ClearCells { cells } => cells.clone(),
        Anim::Note => Vec::new(),
    }
}

#[test]
fn every_game_plays_through_its_choices() {
    let mut rng = SmallRng::seed_from_u64(7);
    for kind in GameKind::ALL {
        for game in 0..3 {
            let mut table = new_table(kind, &[]).unwrap();
            let cells = table.layout().cells.len();
            for _ in 0..150 {
                if table.status().is_over() {
                    break;
                }
                let events = random_move(table.as_mut(), &mut rng);
                assert!(
                    !events.is_empty(),
                    "{kind:?} game {game}: a move has events"
                );
                for event in &events {
                    for cell in cells_named(&event.anim) {
                        assert!(cell < cells, "{kind:?}: event names cell {cell}");
                    }
                }
                for (cell, _) in table.pieces() {
                    assert!(cell < cells);
                }
                assert!(
                    table.chosen().is_empty(),
                    "the builder restarts after a move"
                );
            }
            assert!(!table.record().is_empty());
        }
    }
}

#[test]
fn settings_round_trip_through_set_option() {
    for kind in GameKind::ALL {
        let settings = default_settings(kind);
        assert!(!settings.is_empty(), "{kind:?} lists its options");
        // Every non-empty default value is accepted back by the rules' own parser.
        let given: Vec<(String, String)> = settings
            .into_iter()
            .filter(|(_, v)| !v.is_empty())
            .collect();
        new_table(kind, &given).unwrap_or_else(|e| panic!("{kind:?}: {e}"));
    }
    let adamas = default_settings(GameKind::Adamas);
    assert!(adamas.contains(&("players".to_string(), "2".to_string())));
    assert!(adamas.contains(&("size".to_string(), String::new())));
    assert!(
        default_settings(GameKind::Adomoc).contains(&("spirals".to_string(), "both".to_string()))
    );
}

#[test]
fn bad_settings_are_reported() {
    let error = new_table(GameKind::Adamas, &[("size".into(), "nine".into())])
        .err()
        .unwrap();
    assert!(error.contains("size"), "{error}");
}

#[test]
fn three_player_adamas_and_layout_sizes() {
    let table = new_table(GameKind::Adamas, &[("players".into(), "3".into())]).unwrap();
    assert_eq!(table.num_players(), 3);
    assert_eq!(table.layout().cells.len(), 37);
    assert_eq!(
        new_table(GameKind::Absorption, &[])
            .unwrap()
            .layout()
            .cells
            .len(),
        64
    );
    let adomoc = new_table(GameKind::Adomoc, &[]).unwrap();
    assert_eq!(adomoc.layout().cells.len(), 81);
    assert_eq!(adomoc.pieces().len(), 30);
}

#[test]
fn a_built_move_replays_from_its_notation() {
    let mut rng = SmallRng::seed_from_u64(3);
    for kind in GameKind::ALL {
        let mut built = new_table(kind, &[]).unwrap();
        let mut typed = new_table(kind, &[]).unwrap();
        for _ in 0..6 {
            random_move(built.as_mut(), &mut rng);
            let text = built.record().last().unwrap().clone();
            typed.play_notation(&text).unwrap();
            assert_eq!(built.position_string(), typed.position_string(), "{kind:?}");
            assert_eq!(built.last_move_cells(), typed.last_move_cells());
        }
        let error = typed.play_notation("zz99").unwrap_err();
        assert!(!error.is_empty());
        assert_eq!(built.position_string(), typed.position_string());
    }
}
