//! Keeping games: the game in progress is autosaved after every change, offered again at
//! the next launch, and saved or loaded as records on request.

use crate::config::ConfigProblems;
use crate::record::{Loaded, Record};
use crate::screens::{InMatch, Match, Screen};
use crate::storage::{AUTOSAVE, RECORDS, Storage, timestamp};
use crate::turn::TurnSystems;
use bevy::prelude::*;

/// An unfinished game from the last session, offered on the title screen.
#[derive(Resource, Clone, Debug, Default)]
pub struct Resumable(pub Option<Record>);

/// Start a game from a record (resumed, loaded or pasted).
#[derive(Message, Clone, Debug)]
pub struct LoadRecord(pub Record);

/// Save the game on the table as a new record file.
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct SaveGame;

/// The outcome of the last save or load, for the overlay.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct SaveMessage(pub Option<Result<String, String>>);

pub fn plugin(app: &mut App) {
    app.init_resource::<Storage>()
        .init_resource::<Resumable>()
        .init_resource::<SaveMessage>()
        .add_message::<LoadRecord>()
        .add_message::<SaveGame>()
        .add_systems(OnEnter(Screen::Title), find_resumable)
        .add_systems(OnEnter(InMatch), forget_message)
        .add_systems(Update, load_records)
        .add_systems(
            Update,
            (autosave, save_games)
                .after(TurnSystems)
                .run_if(in_state(InMatch)),
        );
}

/// Reads the autosave. One that cannot be read is moved aside (kept, never overwritten)
/// and reported.
fn find_resumable(
    storage: Res<Storage>,
    mut resumable: ResMut<Resumable>,
    mut problems: ResMut<ConfigProblems>,
) {
    resumable.0 = None;
    let text = match storage.read(AUTOSAVE) {
        Ok(Some(text)) => text,
        Ok(None) => return,
        Err(e) => {
            problems
                .0
                .push(format!("The saved game could not be read: {e}"));
            return;
        }
    };
    match Record::parse(&text).and_then(|record| record.load().map(|loaded| (record, loaded))) {
        Ok((record, loaded)) => {
            if !loaded.table.status().is_over() {
                resumable.0 = Some(record);
            }
        }
        Err(e) => {
            let kept = storage
                .set_aside(AUTOSAVE, "unreadable")
                .map_or_else(|e| e, |path| format!("kept as {}", path.display()));
            problems
                .0
                .push(format!("The saved game is damaged ({e}); {kept}."));
        }
    }
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
        match record.load() {
            Ok(Loaded { table, seats }) => {
                message.0 = None;
                commands.insert_resource(Match { table, seats });
                // A finished game shows its result from the game screen.
                next.set(Screen::Playing);
            }
            Err(e) => message.0 = Some(Err(format!("The record could not be loaded: {e}"))),
        }
    }
}

/// Writes the game after every change to its position or line.
fn autosave(
    game: Res<Match>,
    storage: Res<Storage>,
    mut saved: Local<Option<(u64, usize)>>,
    mut problems: ResMut<ConfigProblems>,
) {
    if storage.dir.is_none() {
        return;
    }
    let now = (game.table.revision(), game.table.line().len());
    if !game.is_added() && *saved == Some(now) {
        return;
    }
    *saved = Some(now);
    let record = Record::of(game.table.as_ref(), &game.seats);
    if let Err(e) = storage.write(AUTOSAVE, &record.to_ron()) {
        let problem = format!("The game could not be autosaved: {e}");
        if !problems.0.contains(&problem) {
            warn!("{problem}");
            problems.0.push(problem);
        }
    }
}

fn save_games(
    mut requests: MessageReader<SaveGame>,
    game: Res<Match>,
    storage: Res<Storage>,
    mut message: ResMut<SaveMessage>,
) {
    if requests.read().count() == 0 {
        return;
    }
    let stem = format!("{}-{}", game.table.kind().key(), timestamp());
    let record = Record::of(game.table.as_ref(), &game.seats);
    let saved = storage
        .new_name(RECORDS, &stem, "ron")
        .ok_or_else(|| "there is no data directory to save in".to_string())
        .and_then(|name| storage.write(&name, &record.to_ron()))
        .map(|path| format!("Saved to {}", path.display()));
    message.0 = Some(saved);
}

/// Reads a record file for the load window.
pub fn read_record(path: &std::path::Path) -> Result<Record, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Record::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
}
