//! Keeping games: the game in progress is autosaved after every change, offered again at
//! the next launch, and saved or loaded as records on request.

use crate::AppSystems;
use crate::config::ConfigProblems;
use crate::current_game::CurrentGame;
use crate::record::{Loaded, Record, load, record_of};
use crate::screens::{InGame, Screen};
use crate::storage::{AUTOSAVE, RECORDS, Storage, timestamp};
use bevy::prelude::*;
use std::path::PathBuf;

/// An unfinished game from the last session, offered on the title screen.
#[derive(Resource, Clone, Debug, Default)]
pub struct Resumable(pub Option<Record>);

/// Start a game from a record (resumed, loaded or pasted).
#[derive(Message, Clone, Debug)]
pub struct LoadRecord(pub Record);

/// Save the game on the table as a new record file.
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct SaveGame;

/// Why the game on the table is not kept (the autosave cannot be written, or the game it
/// would replace cannot be kept first), for the side panel while it lasts.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct AutosaveProblem(pub Option<String>);

/// The outcome of the last save or load, for the overlay.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct SaveMessage(pub Option<Result<String, String>>);

pub fn plugin(app: &mut App) {
    app.init_resource::<Storage>()
        .init_resource::<Resumable>()
        .init_resource::<SaveMessage>()
        .init_resource::<AutosaveProblem>()
        .add_message::<LoadRecord>()
        .add_message::<SaveGame>()
        .add_systems(OnEnter(Screen::Title), find_resumable)
        .add_systems(OnEnter(InGame), forget_message)
        .add_systems(Update, load_records)
        .add_systems(
            Update,
            (autosave, save_games)
                .in_set(AppSystems::Keep)
                .run_if(in_state(InGame)),
        );
}

/// Reads the autosave for the title screen. One that cannot be read is moved aside (kept,
/// never overwritten) and reported.
fn find_resumable(
    storage: Res<Storage>,
    mut resumable: ResMut<Resumable>,
    mut problems: ResMut<ConfigProblems>,
) {
    let (record, problem) = read_autosave(&storage);
    resumable.0 = record;
    problems.0.extend(problem);
}

/// The unfinished game in the autosave, if any, and what went wrong reading it. An
/// autosave that cannot be read is set aside whole, and the autosave before it (`.bak`) is
/// put back in its place if it holds an unfinished game: offered at every visit to the
/// title, and kept in `records/` before another game's autosave replaces it, as any is.
pub fn read_autosave(storage: &Storage) -> (Option<Record>, Option<String>) {
    let problem = match offer_of(storage, AUTOSAVE) {
        Ok(offer) => return (offer.map(|(record, _)| record), None),
        Err(problem) => problem,
    };
    // Kept under another name, so the next autosave does not write over it.
    let kept = match storage.set_aside(AUTOSAVE, "unreadable") {
        Ok(path) => format!("kept as {}", path.display()),
        // Still where it was: nothing may be written in its place.
        Err(e) => return (None, Some(format!("{problem}; {e}."))),
    };
    let restored = match offer_of(storage, &format!("{AUTOSAVE}.bak")) {
        Ok(Some((earlier, text))) => storage.write(AUTOSAVE, &text).ok().map(|_| earlier),
        _ => None,
    };
    match restored {
        Some(earlier) => (
            Some(earlier),
            Some(format!(
                "{problem}; {kept}. Continue offers the autosave before it."
            )),
        ),
        None => (None, Some(format!("{problem}; {kept}."))),
    }
}

/// The game in `name`, with its text, if it is worth offering (unfinished, with moves),
/// or why it cannot be read.
fn offer_of(storage: &Storage, name: &str) -> Result<Option<(Record, String)>, String> {
    let text = match storage.read(name) {
        Ok(None) => return Ok(None),
        Ok(Some(text)) => text,
        Err(e) => return Err(format!("The saved game could not be read ({e})")),
    };
    let record = Record::parse(&text).map_err(|e| format!("The saved game is damaged ({e})"))?;
    let loaded = load(&record).map_err(|e| format!("The saved game is damaged ({e})"))?;
    let worth_offering = !loaded.table.as_match().status().is_over() && !record.moves.is_empty();
    Ok(worth_offering.then_some((record, text)))
}

fn forget_message(mut message: ResMut<SaveMessage>) {
    message.0 = None;
}

fn load_records(
    mut commands: Commands,
    mut requests: MessageReader<LoadRecord>,
    mut message: ResMut<SaveMessage>,
    mut next: ResMut<NextState<Screen>>,
) {
    for LoadRecord(record) in requests.read() {
        match load(record) {
            Ok(Loaded { table, seats }) => {
                message.0 = None;
                commands.insert_resource(CurrentGame::new(table, seats));
                // A finished game shows its result from the game screen.
                next.set(Screen::Playing);
            }
            Err(e) => message.0 = Some(Err(format!("The record could not be loaded: {e}"))),
        }
    }
}

/// Writes the game after every change to its position or line. The first write for a new
/// game first keeps an unfinished game the autosave still holds, if it is another game.
fn autosave(
    game: Res<CurrentGame>,
    storage: Res<Storage>,
    mut saved: Local<Option<(u64, u64, usize)>>,
    mut problems: ResMut<ConfigProblems>,
    mut shown: ResMut<AutosaveProblem>,
) {
    // An online game is kept by its server and comes back through "my games"; offering
    // it as a game to resume here would make it a game at this screen. A lesson's or a
    // puzzle's board is no game to resume, and must not push the game left out of the
    // autosave.
    if storage.dir.is_none() || game.is_online() || game.practice {
        return;
    }
    let now = (
        game.id,
        game.table.as_match().revision(),
        game.table.as_match().line().len(),
    );
    if *saved == Some(now) {
        return;
    }
    let new_game = saved.is_none_or(|(id, _, _)| id != game.id);
    *saved = Some(now);
    let record = record_of(game.table.as_ref(), game.game_seats());
    let result = if new_game && let Err(e) = keep_replaced_game(&storage, &record) {
        // Writing over it now would lose it; the next change tries again.
        *saved = None;
        Err(format!("The game left unfinished could not be kept: {e}"))
    } else {
        storage
            .write(AUTOSAVE, &record.to_ron())
            .map_err(|e| format!("The game could not be autosaved: {e}"))
    };
    match result {
        Ok(_) => shown.0 = None,
        Err(problem) => {
            if !problems.0.contains(&problem) {
                warn!("{problem}");
                problems.0.push(problem.clone());
            }
            shown.0 = Some(problem);
        }
    }
}

/// Copies an unfinished game in the autosave to `records/` before another game's autosave
/// replaces it (a resumed game is the same game, and is not copied).
fn keep_replaced_game(storage: &Storage, next: &Record) -> Result<(), String> {
    // A file that cannot be read is not written over either: the error says why.
    let Some(text) = storage.read(AUTOSAVE)? else {
        return Ok(());
    };
    let Ok(previous) = Record::parse(&text) else {
        return Ok(());
    };
    let same_game = previous.game == next.game
        && previous.start == next.start
        && next.moves.starts_with(&previous.moves);
    if previous.result.is_some() || previous.moves.is_empty() || same_game {
        return Ok(());
    }
    let stem = format!("{}-{}-unfinished", previous.game, timestamp());
    save_new_record(storage, &stem, &text).map(|_| ())
}

/// Writes a record under a new name in `records/`, never over another file.
fn save_new_record(storage: &Storage, stem: &str, text: &str) -> Result<PathBuf, String> {
    let name = storage
        .new_name(RECORDS, stem, "ron")
        .ok_or("there is no data directory to save in")?;
    storage.write(&name, text)
}

fn save_games(
    mut requests: MessageReader<SaveGame>,
    game: Res<CurrentGame>,
    storage: Res<Storage>,
    mut message: ResMut<SaveMessage>,
) {
    if requests.read().count() == 0 {
        return;
    }
    let stem = format!("{}-{}", game.table.as_match().kind().key(), timestamp());
    let record = record_of(game.table.as_ref(), game.game_seats());
    let saved = save_new_record(&storage, &stem, &record.to_ron()).map(|path| {
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let place = storage.describe(RECORDS).unwrap_or_default();
        format!("Saved {name} in {place}")
    });
    message.0 = Some(saved);
}

/// Reads a record file for the load window.
pub fn read_record(storage: &Storage, path: &std::path::Path) -> Result<Record, String> {
    let text = storage.read_path(path)?;
    Record::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::current_game::Seat;
    use crate::table::{GameKind, new_table};

    fn scratch(case: u64) -> Storage {
        let dir = std::env::temp_dir().join(format!("tabula-saving-{}-{case}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        Storage::at(dir)
    }

    /// An autosave cut at every byte, as a crash or a full disk could leave one written
    /// without the temporary file: each either still reads, left as it is, or is refused
    /// and kept, byte for byte, beside it.
    #[test]
    fn an_autosave_cut_at_every_byte_is_read_or_kept() {
        for (case, kind) in GameKind::ALL.into_iter().enumerate() {
            let mut table = new_table(kind, &[]).unwrap();
            for seed in 0..6 {
                let text = table
                    .as_match()
                    .thinker(&tabula_bot::BotSpec::Random, seed)
                    .best_move()
                    .unwrap();
                table.play_notation(&text).unwrap();
            }
            let good = record_of(table.as_ref(), &[Seat::Human, Seat::Bot(2)]).to_ron();
            let storage = scratch(1_000 + case as u64);
            for cut in 0..=good.len() {
                let text = &good[..cut];
                storage.write(AUTOSAVE, text).unwrap();
                // No earlier autosave to fall back on here (the test below has one).
                let _ = std::fs::remove_file(storage.path("autosave.ron.bak").unwrap());
                let (record, problem) = read_autosave(&storage);
                match problem {
                    None => assert_eq!(storage.read(AUTOSAVE).unwrap().as_deref(), Some(text)),
                    Some(problem) => {
                        assert!(record.is_none() && problem.contains("damaged"), "{problem}");
                        let kept = storage.read("autosave.ron.unreadable").unwrap();
                        assert_eq!(kept.as_deref(), Some(text), "cut at {cut}");
                        std::fs::remove_file(storage.path("autosave.ron.unreadable").unwrap())
                            .unwrap();
                    }
                }
            }
            // Only the whole record is a game to offer.
            storage.write(AUTOSAVE, &good).unwrap();
            assert!(read_autosave(&storage).0.is_some());
            std::fs::remove_dir_all(storage.dir.unwrap()).unwrap();
        }
    }

    /// A damaged autosave with the one before it beside: that one is the autosave again,
    /// offered now and at the next visit; with a damaged one beside, nothing is offered.
    #[test]
    fn a_damaged_autosave_falls_back_on_the_one_before() {
        let mut table = new_table(GameKind::Adaptoid, &[]).unwrap();
        let mut records = Vec::new();
        for seed in 0..2 {
            let text = table
                .as_match()
                .thinker(&tabula_bot::BotSpec::Random, seed)
                .best_move()
                .unwrap();
            table.play_notation(&text).unwrap();
            records.push(record_of(table.as_ref(), &[Seat::Human, Seat::Bot(2)]).to_ron());
        }
        let storage = scratch(2_000);
        storage.write(AUTOSAVE, &records[0]).unwrap();
        let damaged = &records[1][..records[1].len() / 2];
        storage.write(AUTOSAVE, damaged).unwrap();
        let (record, problem) = read_autosave(&storage);
        let problem = problem.unwrap();
        assert!(problem.contains("damaged"), "{problem}");
        assert!(problem.contains("the autosave before it"), "{problem}");
        assert_eq!(record.map(|r| r.to_ron()), Some(records[0].clone()));
        // The damaged one is kept aside; the earlier one is the autosave again.
        let kept = storage.read("autosave.ron.unreadable").unwrap();
        assert_eq!(kept.as_deref(), Some(damaged));
        assert_eq!(storage.read(AUTOSAVE).unwrap(), Some(records[0].clone()));
        // So it is offered at the next visit to the title too, with nothing to report.
        let (again, problem) = read_autosave(&storage);
        assert_eq!(again.map(|r| r.to_ron()), Some(records[0].clone()));
        assert_eq!(problem, None);

        // Both damaged: nothing offered, nothing put back, no earlier game promised.
        std::fs::remove_file(storage.path(AUTOSAVE).unwrap()).unwrap();
        let _ = std::fs::remove_file(storage.path("autosave.ron.bak").unwrap());
        storage
            .write(AUTOSAVE, "(tabula_record: 1, game: \"x\"")
            .unwrap();
        storage.write(AUTOSAVE, "(moves: [").unwrap();
        let (record, problem) = read_autosave(&storage);
        let problem = problem.unwrap();
        assert!(record.is_none(), "{problem}");
        assert!(!problem.contains("before it"), "{problem}");
        assert_eq!(storage.read(AUTOSAVE).unwrap(), None);
        std::fs::remove_dir_all(storage.dir.unwrap()).unwrap();
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

        /// A damaged autosave is either still a game, left where it was, or refused with
        /// a reason and kept, byte for byte, under another name.
        #[test]
        fn a_damaged_autosave_is_refused_and_kept(
            kind in 0usize..4,
            plies in 0usize..12,
            cut in 0usize..3_000,
            edits in proptest::collection::vec((0usize..3_000, proptest::prelude::any::<u8>()), 0..3),
            case in proptest::prelude::any::<u64>(),
        ) {
            let mut table = new_table(GameKind::ALL[kind], &[]).unwrap();
            for seed in 0..plies as u64 {
                let text = table.as_match().thinker(&tabula_bot::BotSpec::Random, seed).best_move().unwrap();
                table.play_notation(&text).unwrap();
            }
            let good = record_of(table.as_ref(), &[Seat::Human, Seat::Bot(2)]).to_ron();
            let text = tabula_session::testing::damage(&good, cut, &edits);
            let storage = scratch(case);
            storage.write(AUTOSAVE, &text).unwrap();
            let (record, problem) = read_autosave(&storage);
            let offered = record.is_some();
            match problem {
                None => {
                    // Still a game (offered unless it is over), and left as it was.
                    proptest::prop_assert_eq!(storage.read(AUTOSAVE).unwrap(), Some(text));
                }
                Some(problem) => {
                    proptest::prop_assert!(!offered);
                    proptest::prop_assert!(problem.contains("damaged"), "{}", problem);
                    proptest::prop_assert_eq!(storage.read(AUTOSAVE).unwrap(), None);
                    let kept = storage.read("autosave.ron.unreadable").unwrap();
                    proptest::prop_assert_eq!(kept, Some(text));
                }
            }
            std::fs::remove_dir_all(storage.dir.unwrap()).unwrap();
        }
    }
}
