//! Starting a game: the new-game form's contents and [`StartGame`], which puts a new
//! [`CurrentGame`] on the table. The form itself is drawn by `view::new_game`.

use crate::config::Settings;
use crate::current_game::{CurrentGame, Seat};
use crate::lesson::Lesson;
use crate::puzzle::PuzzleRun;
use crate::queued_moves::QueuedMoves;
use crate::screens::{Screen, show_new_game};
use crate::table::{GameKind, default_settings, new_table, players_for, table_at};
use crate::turn::TurnMessage;
use bevy::prelude::*;

/// The new-game form: the game and its options as text, as `--option key=value` takes them.
#[derive(Resource, Clone, Debug)]
pub struct NewGameForm {
    pub kind: GameKind,
    pub settings: Vec<(String, String)>,
    /// Up to three seats; a game takes as many as it has players.
    pub seats: Vec<Seat>,
    pub error: Option<String>,
}

impl NewGameForm {
    pub fn for_game(kind: GameKind, settings: &Settings) -> Self {
        let mut form_settings = default_settings(kind);
        for (key, value) in settings.game_defaults(kind.key()) {
            match form_settings.iter_mut().find(|(k, _)| *k == key) {
                Some(slot) => slot.1 = value,
                None => form_settings.push((key, value)),
            }
        }
        NewGameForm {
            kind,
            settings: form_settings,
            // Most people come to play the computer: you first, against a club player.
            seats: vec![Seat::Human, Seat::Bot(6), Seat::Bot(6)],
            error: None,
        }
    }

    /// How many seats the chosen options make (three-player Adamas).
    pub fn players(&self) -> usize {
        players_for(self.kind, &self.settings)
    }

    /// The settings that differ from the game's defaults (empty means "the default"), as
    /// typed: `@path` values are read when the game starts.
    pub fn chosen_settings(&self) -> Vec<(String, String)> {
        let defaults = default_settings(self.kind);
        self.settings
            .iter()
            .filter(|(key, value)| {
                !value.is_empty() && !defaults.iter().any(|(k, v)| k == key && v == value)
            })
            .cloned()
            .collect()
    }
}

/// Settings with each `@path` value replaced by the text of that file (a Super-Adaptoid
/// board), as on the command line; a file that cannot be read is an error naming it.
pub fn read_setting_files(settings: &[(String, String)]) -> Result<Vec<(String, String)>, String> {
    tabula_session::options::read_file_values(settings, read_file)
}

/// As the terminal reads them: a regular file of at most 1 MB, so a path to a device or a
/// huge file is refused rather than read without end.
#[cfg(not(target_arch = "wasm32"))]
fn read_file(path: &str) -> Result<String, String> {
    tabula_files::read_value_file(path)
}

#[cfg(target_arch = "wasm32")]
fn read_file(_path: &str) -> Result<String, String> {
    Err("the browser version cannot read files; paste the board as the value".to_string())
}

/// Asks for a new game of `kind` with `settings`.
#[derive(Message, Clone, Debug)]
pub struct StartGame {
    pub kind: GameKind,
    /// `key=value` options; `@path` values stand for the text of a file.
    pub settings: Vec<(String, String)>,
    /// Who plays each seat; missing seats are people.
    pub seats: Vec<Seat>,
}

/// Asks for a game against a bot from the position on the table (a lesson's, a puzzle's,
/// the analysis board's, a pasted position's): the person takes `seat`, bots of `level`
/// the others.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayFromHere {
    pub seat: usize,
    pub level: u8,
}

pub fn plugin(app: &mut App) {
    app.add_message::<StartGame>()
        .add_message::<PlayFromHere>()
        .add_systems(Startup, init_form)
        .add_systems(Update, (start_games, play_from_here));
}

fn init_form(mut commands: Commands, settings: Res<Settings>) {
    commands.insert_resource(NewGameForm::for_game(GameKind::default(), &settings));
}

fn start_games(
    mut commands: Commands,
    mut requests: MessageReader<StartGame>,
    mut form: ResMut<NewGameForm>,
    mut next: ResMut<NextState<Screen>>,
) {
    for request in requests.read() {
        let settings = read_setting_files(&request.settings);
        match settings.and_then(|settings| new_table(request.kind, &settings)) {
            Ok(table) => {
                let mut seats = request.seats.clone();
                seats.resize(table.as_match().num_players(), Seat::Human);
                commands.insert_resource(CurrentGame::new(table, seats));
                form.error = None;
                next.set(Screen::Playing);
            }
            Err(error) => form.error = Some(error),
        }
    }
}

/// The position on the table as a new game: its options and position string, so the bot
/// and the person start from exactly what the board shows. A lesson ends here.
fn play_from_here(
    mut commands: Commands,
    mut requests: MessageReader<PlayFromHere>,
    game: Option<Res<CurrentGame>>,
    mut message: ResMut<TurnMessage>,
) {
    let (Some(request), Some(game)) = (requests.read().last().copied(), game) else {
        return;
    };
    let playing = game.table.as_match();
    let started = table_at(
        playing.kind(),
        &playing.settings(),
        &playing.position_string(),
    );
    match started {
        Ok(table) => {
            let players = table.as_match().num_players();
            let seats = (0..players)
                .map(|seat| match seat == request.seat {
                    true => Seat::Human,
                    false => Seat::Bot(request.level),
                })
                .collect();
            commands.insert_resource(CurrentGame::new(table, seats));
            commands.remove_resource::<Lesson>();
            commands.remove_resource::<PuzzleRun>();
            // Nothing a lesson or puzzle meant to show is played in the new game.
            commands.insert_resource(QueuedMoves::default());
            message.0 = None;
            commands.queue(show_new_game);
        }
        Err(error) => message.0 = Some(format!("The game cannot start from here: {error}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A board value from a device or a huge file is refused before it is read.
    #[test]
    fn option_files_are_read_only_when_small_and_regular() {
        let error = read_setting_files(&[("board".into(), "@/dev/zero".into())]).unwrap_err();
        assert!(error.contains("not a regular file"), "{error}");
        let board = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/boards/super-adaptoid-example.txt"
        );
        let read = read_setting_files(&[("board".into(), format!("@{board}"))]).unwrap();
        assert!(read[0].1.contains("link c1 c13"), "{read:?}");
    }
}
