//! The screens as states: loading, title, new game, the game itself and its result.
//! The match lives in [`Match`] from the start of a game until the next one.

use crate::config::Settings;
use crate::table::{GameKind, Table, default_settings, new_table, players_for};
use bevy::prelude::*;

#[derive(States, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Screen {
    #[default]
    Loading,
    Title,
    NewGame,
    /// Play online: the server, new games, joining by code, my games.
    Online,
    Playing,
    /// The game is over; the board stays and the result is shown over it.
    Result,
}

/// Whether a board is on screen: during play and while its result is shown. Board and
/// piece entities are scoped to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InMatch;

impl ComputedStates for InMatch {
    type SourceStates = Screen;
    // Playing <-> Result keeps the board: no exit and re-entry (camera, pieces, windows).
    const ALLOW_SAME_STATE_TRANSITIONS: bool = false;

    fn compute(screen: Screen) -> Option<Self> {
        matches!(screen, Screen::Playing | Screen::Result).then_some(InMatch)
    }
}

/// Which board is on screen: a match's during play and its result, or the title's
/// showcase behind the menus (the title, new-game and online screens). The board, its
/// pieces and the camera's framing are made on entering either ([`BuildBoard`]) and
/// cleared on leaving it; moving between the menus keeps the showcase as it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoardScene {
    Showcase,
    Game,
}

impl ComputedStates for BoardScene {
    type SourceStates = Screen;
    const ALLOW_SAME_STATE_TRANSITIONS: bool = false;

    fn compute(screen: Screen) -> Option<Self> {
        match screen {
            Screen::Loading => None,
            Screen::Title | Screen::NewGame | Screen::Online => Some(BoardScene::Showcase),
            Screen::Playing | Screen::Result => Some(BoardScene::Game),
        }
    }
}

/// The schedule that makes the board for the [`Match`] now in place: tiles, pieces,
/// models, the camera's framing and the animations' starting point. It runs on entering a
/// [`BoardScene`], and again when the showcase goes on to its next game.
#[derive(bevy::ecs::schedule::ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct BuildBoard;

/// An entity of the board on screen, cleared with it.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct BoardPart;

/// Whether a board is on screen, a match's or the showcase's: the board's own systems
/// (animations, tile colours, models) run then.
pub fn board_on_screen(scene: Option<Res<State<BoardScene>>>, game: Option<Res<Match>>) -> bool {
    scene.is_some() && game.is_some()
}

/// Builds the board for the match in place, if there is one (without the showcase, the
/// title has the last game's match, or none before the first).
pub fn build_board(world: &mut World) {
    if world.contains_resource::<Match>() {
        world.run_schedule(BuildBoard);
    }
}

/// Clears every entity of the board on screen.
pub fn clear_board(world: &mut World) {
    let parts: Vec<Entity> = world
        .query_filtered::<Entity, With<BoardPart>>()
        .iter(world)
        .collect();
    for part in parts {
        // Gone already if it belonged to another part.
        let _ = world.try_despawn(part);
    }
}

/// Clears the board on screen and builds it for the match now in place (the showcase's
/// next game, with no change of screen).
pub fn rebuild_board(world: &mut World) {
    clear_board(world);
    build_board(world);
}

pub use tabula_session::Seat;

/// The game being played.
#[derive(Resource)]
pub struct Match {
    pub table: Box<dyn Table>,
    pub seats: Vec<Seat>,
    /// Tells one game from the next (a resource replaced in place is not "added" again).
    pub id: u64,
    /// How the game ended outside the rules (a resignation, a draw agreed, a clock run
    /// out), in words; such ends come from the server of an online game.
    pub ending: Option<String>,
    /// On the analysis board: the seats of the game, kept while people play every seat.
    analysis_seats: Option<Vec<Seat>>,
    /// The analysis board was opened while the game went on: it is not rated.
    analysed_while_going_on: bool,
    /// The main line's length when the game came to the table: a game is rated only when
    /// it ends after a move played here, not by replaying a finished game loaded.
    main_line_at_start: usize,
}

impl Match {
    pub fn new(table: Box<dyn Table>, seats: Vec<Seat>) -> Match {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        let id = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Match {
            main_line_at_start: table.as_match().main_line().len(),
            table,
            seats,
            id,
            ending: None,
            analysis_seats: None,
            analysed_while_going_on: false,
        }
    }

    /// Whether the analysis board was opened before the game ended.
    pub fn helped_by_analysis(&self) -> bool {
        self.analysed_while_going_on
    }

    /// Whether moves were played here past the main line the game came with.
    pub fn played_on_here(&self) -> bool {
        self.table.as_match().main_line().len() > self.main_line_at_start
    }

    /// Whether the game is on the analysis board: moves for either side, made into
    /// variations, and no bot plays.
    pub fn is_analysing(&self) -> bool {
        self.analysis_seats.is_some()
    }

    /// The game's own seats, also while people play every seat on the analysis board.
    pub fn game_seats(&self) -> &[Seat] {
        self.analysis_seats.as_deref().unwrap_or(&self.seats)
    }

    /// Opens or closes the analysis board. Closing it goes back to the main line, at the
    /// position where the variation shown left it.
    pub fn set_analysing(&mut self, on: bool) -> Result<(), String> {
        if on == self.is_analysing() {
            return Ok(());
        }
        if on {
            if self.is_online() {
                return Err(
                    "an online game is the server's: save it and load the record to analyse it"
                        .to_string(),
                );
            }
            self.analysed_while_going_on |= !self.is_over();
            let people = vec![Seat::Human; self.seats.len()];
            self.analysis_seats = Some(std::mem::replace(&mut self.seats, people));
        } else if let Some(seats) = self.analysis_seats.take() {
            self.seats = seats;
        }
        self.table.change_match(&mut |game| {
            if !on {
                let ply = game.main_line_ply();
                let node = match ply {
                    0 => tabula_session::MoveTree::START,
                    _ => game.tree().main_line()[ply - 1],
                };
                game.go_to_node(node)?;
            }
            game.set_exploring(on);
            Ok(())
        })
    }

    /// Whether the game is over, by the rules or otherwise.
    pub fn is_over(&self) -> bool {
        self.ending.is_some() || self.table.status().is_over()
    }

    /// Where the game stands, in words: its result once it is over.
    pub fn status_text(&self) -> String {
        self.ending
            .clone()
            .unwrap_or_else(|| self.table.status_text())
    }

    /// Whether someone elsewhere plays in this game: an online game, whose line the
    /// server keeps.
    pub fn is_online(&self) -> bool {
        self.game_seats().contains(&Seat::Remote)
    }

    /// Whether a player elsewhere has the turn in a game that goes on.
    pub fn remote_to_move(&self) -> bool {
        !self.is_over() && self.seats.get(self.table.to_move()) == Some(&Seat::Remote)
    }

    /// Which game and which position of it: changes with every move, undo or jump.
    pub fn position(&self) -> (u64, u64) {
        (self.id, self.table.revision())
    }

    /// Whether a bot has the turn in a game that goes on.
    pub fn bot_to_move(&self) -> bool {
        !self.is_over()
            && self
                .seats
                .get(self.table.to_move())
                .is_some_and(Seat::is_bot)
    }
}

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
            seats: vec![Seat::Human, Seat::Bot(3), Seat::Bot(3)],
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

pub fn plugin(app: &mut App) {
    app.init_state::<Screen>()
        .add_computed_state::<InMatch>()
        .add_computed_state::<BoardScene>()
        .init_schedule(BuildBoard)
        .add_systems(OnEnter(BoardScene::Showcase), build_board)
        .add_systems(OnEnter(BoardScene::Game), build_board)
        .add_systems(OnExit(BoardScene::Showcase), clear_board)
        .add_systems(OnExit(BoardScene::Game), clear_board)
        .add_message::<StartGame>()
        .add_systems(Startup, init_form)
        .add_systems(Update, start_games);
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
                seats.resize(table.num_players(), Seat::Human);
                commands.insert_resource(Match::new(table, seats));
                form.error = None;
                next.set(Screen::Playing);
            }
            Err(error) => form.error = Some(error),
        }
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
