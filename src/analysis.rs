//! The analysis board's live evaluation. While people explore a game on the analysis board
//! ([`CurrentGame::is_analysing`]), the bot searches the position shown, on a background task
//! (the search worker on the web), and the panel shows each seat's winning chance and the line
//! the search expects as it firms up. Every new position starts a new search; nothing
//! ever waits for one.

use crate::AppSystems;
use crate::background::{Background, BotRunner, GameSetup, Job, KeptSearches, SearchJob, Steps};
use crate::bot::Thinking;
use crate::config::Settings;
use crate::current_game::CurrentGame;
use crate::phase::{BoardShows, TurnPhase, phase_now};
use crate::screens::InGame;
use crate::table::Thinker;
use bevy::prelude::*;
use serde::{Deserialize, Serialize};
use tabula_bot::BotSpec;
use web_time::Duration;

/// The longest line shown.
const LINE_MOVES: usize = 8;
/// The part of a frame a sliced search takes on the web.
const SLICE: Duration = Duration::from_millis(12);

/// What the search has found so far about the position shown.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Evaluated {
    /// Each seat's chance of winning (draws shared); empty before the first look.
    pub chances: Vec<f64>,
    /// The moves the search expects from here, in notation.
    pub line: Vec<String>,
    /// How far through its budget, from 0 to 1.
    pub progress: f64,
    pub done: bool,
    /// Whether the result is proved, not estimated.
    pub proved: bool,
}

impl Evaluated {
    fn of(thinker: &dyn Thinker, done: bool) -> Evaluated {
        Evaluated {
            chances: thinker.chances(),
            line: thinker.best_line(LINE_MOVES),
            progress: if done { 1.0 } else { thinker.progress() },
            done,
            proved: thinker.proof().is_some(),
        }
    }
}

/// The search of the position shown on the analysis board.
#[derive(Resource)]
pub struct LiveEvaluation {
    /// The game and position it is of.
    pub position: (u64, u64),
    pub level: u8,
    search: Background<PositionSearch>,
}

/// A position to evaluate, at a level.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PositionJob {
    game: GameSetup,
    level: u8,
    seed: u64,
    /// The most threads it searches on (`BotSpec::on_threads`).
    threads: u32,
}

impl From<PositionJob> for SearchJob {
    fn from(job: PositionJob) -> SearchJob {
        SearchJob::Position(job)
    }
}

impl Job for PositionJob {
    type Work = PositionSearch;

    fn build(self, _kept: &KeptSearches) -> Result<PositionSearch, String> {
        let spec = BotSpec::level(self.level as usize)?.on_threads(self.threads);
        Ok(PositionSearch(self.game.build()?.thinker(&spec, self.seed)))
    }
}

/// The search as work in steps; the frame is shown what it has found so far.
pub struct PositionSearch(Box<dyn Thinker>);

impl Steps for PositionSearch {
    type Shown = Evaluated;
    type Output = ();
    const SHOW_EVERY: Duration = Duration::from_millis(150);

    fn step(&mut self, iterations: u64) -> bool {
        self.0.think(iterations)
    }

    fn shown(&self, finished: bool) -> Evaluated {
        Evaluated::of(self.0.as_ref(), finished)
    }

    fn output(self) {}
}

impl LiveEvaluation {
    /// What the search has found so far.
    pub fn shown(&self) -> &Evaluated {
        self.search.shown()
    }

    pub fn runs_in_frames(&self) -> bool {
        self.search.runs_in_frames()
    }
}

pub fn plugin(app: &mut App) {
    app.add_systems(OnExit(InGame), |mut commands: Commands| {
        commands.remove_resource::<LiveEvaluation>();
    })
    .add_systems(
        Update,
        (follow_the_position, evaluate)
            .chain()
            .in_set(AppSystems::Think)
            .run_if(in_state(InGame)),
    );
}

/// Starts a search for each new position on the analysis board; off the board, none.
fn follow_the_position(
    mut commands: Commands,
    game: Option<Res<CurrentGame>>,
    live: Option<Res<LiveEvaluation>>,
    settings: Res<Settings>,
    runner: Res<BotRunner>,
    kept: Res<KeptSearches>,
) {
    let Some(game) = game.filter(|game| game.is_analysing()) else {
        if live.is_some() {
            commands.remove_resource::<LiveEvaluation>();
        }
        return;
    };
    // One review level serves every game: above this game's top, its top.
    let game_name = game.table.as_match().kind().key();
    let level = tabula_bot::Levels::built_in()
        .number_in(game_name, usize::from(settings.review_level)) as u8;
    if live.is_some_and(|live| live.position == game.position() && live.level == level) {
        return;
    }
    if BotSpec::level(level as usize).is_err() {
        return;
    }
    let job = PositionJob {
        game: GameSetup::at(game.table.as_match()),
        level,
        seed: game.position().1,
        threads: settings.search_threads(),
    };
    // The search of the last position is dropped, which stops it.
    commands.insert_resource(LiveEvaluation {
        position: game.position(),
        level,
        search: Background::start(job, *runner, &kept),
    });
}

/// Takes the background search's latest findings, or runs a slice of a sliced one.
fn evaluate(
    live: Option<ResMut<LiveEvaluation>>,
    game: Option<Res<CurrentGame>>,
    thinking: Option<Res<Thinking>>,
    board: Res<BoardShows>,
) {
    let (Some(mut live), Some(game)) = (live, game) else {
        return;
    };
    if live.position != game.position() {
        return;
    }
    // Moving pieces and a hint's search have the frame first.
    let frame_is_free = thinking.is_none() && phase_now(&game, &board) != TurnPhase::Animating;
    live.search.poll(frame_is_free.then_some(SLICE));
    if let Some(Err(failure)) = live.search.take_finished() {
        error!("analysis: {failure}");
    }
}
