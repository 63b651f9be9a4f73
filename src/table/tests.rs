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

/// A piece's way from `from` through `via` to `to` goes from cell to linked cell (the
/// lines drawn on the board), so it travels along the board's own lines.
fn assert_path_follows_links(layout: &BoardLayout, from: usize, via: &[usize], to: usize) {
    if via.is_empty() {
        return;
    }
    let way: Vec<usize> = std::iter::once(from)
        .chain(via.iter().copied())
        .chain(std::iter::once(to))
        .collect();
    for pair in way.windows(2) {
        let linked = layout.links.iter().any(|link| {
            (link.a, link.b) == (pair[0], pair[1]) || (link.b, link.a) == (pair[0], pair[1])
        });
        assert!(linked, "{way:?}: {pair:?} is not a line on the board");
    }
}

fn cells_named(anim: &Anim) -> Vec<usize> {
    match anim {
        Anim::Glide { from, to, via, .. } => {
            let mut cells = vec![*from, *to];
            cells.extend(via);
            cells
        }
        Anim::Fly { from, to, .. } => vec![*from, *to],
        Anim::Split { from, parts } => std::iter::once(*from)
            .chain(parts.iter().map(|p| p.0))
            .collect(),
        Anim::Merge { into, from } => std::iter::once(*into).chain(from.clone()).collect(),
        Anim::Absorb { cell, gifts, .. } => std::iter::once(*cell)
            .chain(gifts.iter().map(|g| g.0))
            .collect(),
        Anim::LiftAway { cell, .. }
        | Anim::Consume { cell, .. }
        | Anim::Appear { cell }
        | Anim::Fade { cell, .. } => {
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
        // Moves that travel a way of several cells (Adomoc's lines, Adaptoid's walks).
        let mut paths = 0;
        for game in 0..3 {
            let mut table = new_table(kind, &[]).unwrap();
            let cells = table.layout().cells.len();
            for _ in 0..150 {
                if table.as_match().status().is_over() {
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
                for event in &events {
                    if let Anim::Glide { from, to, via, .. } = &event.anim {
                        assert_path_follows_links(table.layout(), *from, via, *to);
                        paths += usize::from(!via.is_empty());
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
            assert!(!table.as_match().record().is_empty());
        }
        if matches!(kind, GameKind::Adomoc | GameKind::Adaptoid) {
            assert!(
                paths > 0,
                "{kind:?}: no move travelled a way of several cells"
            );
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
    assert_eq!(table.as_match().num_players(), 3);
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
        for _ in 0..GAMES_BUILT {
            check_built_game(kind, &mut rng);
        }
    }
}

/// Whole games built by clicks, each played alike from its notation: the server and the
/// other side of an online game play the page's moves from their notation.
const GAMES_BUILT: usize = 20;

fn check_built_game(kind: GameKind, rng: &mut SmallRng) {
    let mut built = new_table(kind, &[]).unwrap();
    let mut typed = new_table(kind, &[]).unwrap();
    while !built.as_match().status().is_over() && built.as_match().record().len() < 120 {
        random_move(built.as_mut(), rng);
        let record = built.as_match().record();
        let text = record.last().unwrap().clone();
        typed.play_notation(&text).unwrap();
        assert_eq!(
            built.as_match().position_string(),
            typed.as_match().position_string(),
            "{kind:?}, move {} ({text}) of {record:?}",
            record.len()
        );
        assert_eq!(built.last_move_cells(), typed.last_move_cells());
    }
    let error = typed.play_notation("zz99").unwrap_err();
    assert!(!error.is_empty());
    assert_eq!(
        built.as_match().position_string(),
        typed.as_match().position_string()
    );
}

/// The pieces on a board, by cell.
fn by_cell(pieces: Vec<(usize, PieceLook)>) -> std::collections::BTreeMap<usize, PieceLook> {
    pieces.into_iter().collect()
}

/// At every step of moves built by clicks, the preview shows exactly what the move then
/// does: each cell it names ends with the piece it shows (none: emptied), and every other
/// cell keeps its piece. In Adamas the mover's pieces over those cells add up to the same
/// before and after: the parts sent out and what stays behind are the source's pieces.
#[test]
fn the_move_preview_shows_what_the_move_does() {
    let mut rng = SmallRng::seed_from_u64(11);
    for kind in GameKind::ALL {
        let mut table = new_table(kind, &[]).unwrap();
        let mut previews_seen = 0;
        let mut partials_seen = 0;
        for _ in 0..60 {
            if table.as_match().status().is_over() {
                break;
            }
            let before = by_cell(table.pieces());
            let mover = table.colour_of_seat(table.as_match().to_move());
            let preview = loop {
                let complete = table.complete_move().is_some();
                let preview = table.move_preview();
                if !complete && let Some(partial) = &preview {
                    // Before the move is complete, ghosts only of its steps on empty cells.
                    assert_eq!(kind, GameKind::Absorption, "{partial:?}");
                    let occupied = by_cell(table.pieces());
                    assert!(
                        partial
                            .iter()
                            .all(|ghost| !occupied.contains_key(&ghost.cell))
                    );
                    assert!(partial.iter().all(|ghost| ghost.after.is_some()));
                    partials_seen += 1;
                }
                let preview = preview.filter(|_| complete);
                let choices = table.choices().len();
                if let Some(preview) = preview
                    && (choices == 0 || rng.random_bool(0.5))
                {
                    break preview;
                }
                table.choose(rng.random_range(0..choices)).unwrap();
            };
            // Some moves change no piece (Absorption's pass ends a turn).
            previews_seen += usize::from(!preview.is_empty());
            if kind == GameKind::Adamas {
                let own = |pieces: &std::collections::BTreeMap<usize, PieceLook>, cell| {
                    pieces
                        .get(&cell)
                        .filter(|look: &&PieceLook| look.colour == mover)
                        .map_or(0, |look| look.height as u32)
                };
                let sent: u32 = preview
                    .iter()
                    .filter_map(|ghost| ghost.after)
                    .filter(|look| look.colour == mover)
                    .map(|look| look.height as u32)
                    .sum();
                let had: u32 = preview.iter().map(|ghost| own(&before, ghost.cell)).sum();
                assert_eq!(
                    sent, had,
                    "Adamas: parts and what stays behind, {preview:?}"
                );
            }
            table.commit().unwrap();
            let after = by_cell(table.pieces());
            for cell in 0..table.layout().cells.len() {
                let shown = match preview.iter().find(|ghost| ghost.cell == cell) {
                    Some(ghost) => ghost.after,
                    None => before.get(&cell).copied(),
                };
                assert_eq!(after.get(&cell).copied(), shown, "{kind:?}: cell {cell}");
            }
        }
        assert!(
            previews_seen > 10,
            "{kind:?}: {previews_seen} moves previewed"
        );
        if kind == GameKind::Absorption {
            assert!(
                partials_seen > 0,
                "a split's parts show before its stack is chosen"
            );
        }
    }
}

/// The cells two boards differ on, and what the second has there.
#[test]
fn ghosts_are_the_cells_that_differ() {
    let stack = |colour, height| PieceLook {
        colour,
        shape: Shape::Stack,
        height,
        prime: false,
    };
    let before = [(1, stack(0, 3)), (2, stack(1, 1)), (4, stack(0, 1))];
    let after = [(1, stack(0, 1)), (3, stack(0, 2)), (4, stack(0, 1))];
    assert_eq!(
        ghosts_between(&before, &after),
        vec![
            Ghost {
                cell: 1,
                after: Some(stack(0, 1))
            },
            Ghost {
                cell: 2,
                after: None
            },
            Ghost {
                cell: 3,
                after: Some(stack(0, 2))
            },
        ]
    );
}

/// A cell's − and + are exactly the builder's steps there, and each moves one piece: in
/// Adamas, + makes the cell's part one more and − one fewer, while the mover's pieces
/// over the cells the move changes stay as many; Absorption offers counts.
#[test]
fn a_cells_minus_and_plus_move_one_piece() {
    let mut rng = SmallRng::seed_from_u64(5);
    let part_at = |table: &dyn Table, cell: usize| table.part_count(cell).unwrap_or(0) as i32;
    let mut stepped = 0;
    let mut table = new_table(GameKind::Adamas, &[]).unwrap();
    for _ in 0..40 {
        if table.as_match().status().is_over() {
            break;
        }
        for _ in 0..12 {
            let choices = table.choices().to_vec();
            if choices.is_empty() {
                break;
            }
            for cell in 0..table.layout().cells.len() {
                let counts = counts_at(&choices, cell);
                for (index, change) in [(counts.more, 1), (counts.fewer, -1)] {
                    let Some(index) = index else { continue };
                    assert_eq!(choices[index].cell, Some(cell));
                    let before = part_at(table.as_ref(), cell);
                    let total_before = preview_total(table.as_ref());
                    table.choose(index).unwrap();
                    assert_eq!(
                        part_at(table.as_ref(), cell),
                        before + change,
                        "cell {cell}"
                    );
                    // The same pieces, moved: the mover's total after the move.
                    let total_after = preview_total(table.as_ref());
                    if total_before.is_some() && total_after.is_some() {
                        assert_eq!(total_after, total_before);
                        stepped += 1;
                    }
                    assert!(table.take_back_choice());
                }
            }
            let pick = rng.random_range(0..choices.len());
            table.choose(pick).unwrap();
        }
        while table.complete_move().is_none() {
            if !table.take_back_choice() {
                break;
            }
        }
        if table.complete_move().is_some() {
            table.commit().unwrap();
        } else {
            random_move(table.as_mut(), &mut rng);
        }
    }
    assert!(stepped > 20, "{stepped} steps of − and + checked");
    // Absorption's split offers each height it may place, as counts at the cell.
    let mut absorption = new_table(GameKind::Absorption, &[]).unwrap();
    let mut offered = false;
    for _ in 0..30 {
        let choices = absorption.choices().to_vec();
        offered |= (0..absorption.layout().cells.len())
            .any(|cell| !counts_at(&choices, cell).exactly.is_empty());
        random_move(absorption.as_mut(), &mut rng);
    }
    assert!(offered, "Absorption offers counts at a cell");
}

/// The mover's pieces on the whole board once the move built so far is played, as the
/// preview shows it.
fn preview_total(table: &dyn Table) -> Option<i32> {
    let mover = table.colour_of_seat(table.as_match().to_move());
    let preview = table.move_preview()?;
    let mut board = by_cell(table.pieces());
    for ghost in preview {
        match ghost.after {
            Some(look) => board.insert(ghost.cell, look),
            None => board.remove(&ghost.cell),
        };
    }
    Some(
        board
            .values()
            .filter(|look| look.colour == mover)
            .map(|look| look.height as i32)
            .sum(),
    )
}
