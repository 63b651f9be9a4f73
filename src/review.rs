//! A review of the game on the table: every position of its line judged by the bot's
//! search on a background task (the search worker on the web), shown under the move
//! list, with the better move on the board when the player goes to a reviewed move.

use crate::AppSystems;
use crate::background::{Background, BotRunner, GameSetup, Job, KeptSearches, SearchJob, Steps};
use crate::bot::{Hint, Thinking};
use crate::config::Settings;
use crate::current_game::CurrentGame;
use crate::phase::{BoardShows, TurnPhase, phase_now};
use crate::screens::InGame;
use bevy::prelude::*;
use serde::{Deserialize, Serialize};
use tabula_session::{Evaluation, MoveReview, PlayerSummary, Review, ReviewSettings};
use web_time::Duration;

/// Review the game's whole line, at the level in the settings.
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct StartReview;

/// Stop the review under way and forget it.
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct StopReview;

/// What the panel shows of a review: a copy, taken as the search goes on.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct ReviewShown {
    pub evaluations: Vec<Evaluation>,
    /// Each seat's chance at each position judged, for the graph (`Review::chances_at`).
    pub chances: Vec<Vec<f64>>,
    pub moves: Vec<MoveReview>,
    pub summary: Vec<PlayerSummary>,
    pub progress: f64,
    pub done: bool,
    pub failure: Option<String>,
}

impl ReviewShown {
    fn of(review: &Review) -> ReviewShown {
        ReviewShown {
            evaluations: review.evaluations().to_vec(),
            chances: (0..review.evaluations().len())
                .filter_map(|at| review.chances_at(at))
                .collect(),
            moves: review.move_reviews(),
            summary: review.summary(),
            progress: review.progress(),
            done: review.is_done(),
            failure: review.failure().map(str::to_string),
        }
    }
}

/// The review of the game on the table.
#[derive(Resource)]
pub struct GameReview {
    /// The game reviewed ([`CurrentGame::id`]) and its line when the review began.
    pub game_id: u64,
    pub line: Vec<String>,
    pub level: u8,
    search: Background<Review>,
    /// What is shown once the review has failed: its last copy, with why.
    failed: Option<ReviewShown>,
}

/// A game's main line to review, at a level.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReviewJob {
    game: GameSetup,
    level: u8,
    seed: u64,
    /// The most threads it studies the moves played on (`BotSpec::on_threads`); a search
    /// for time searches each position on one (`Review::new`).
    threads: u32,
}

impl From<ReviewJob> for SearchJob {
    fn from(job: ReviewJob) -> SearchJob {
        SearchJob::Review(job)
    }
}

impl Job for ReviewJob {
    type Work = Review;

    fn build(self, _kept: &KeptSearches) -> Result<Review, String> {
        let spec = tabula_bot::BotSpec::level(self.level as usize)?.on_threads(self.threads);
        let game = self.game.build()?;
        Review::new(game.as_ref(), spec, ReviewSettings::built_in(), self.seed)
    }
}

impl Steps for Review {
    type Shown = ReviewShown;
    type Output = ();
    /// For the progress bar within a position; a copy is taken as each position is judged.
    const SHOW_EVERY: Duration = Duration::from_millis(100);

    fn step(&mut self, iterations: u64) -> bool {
        Review::step(self, iterations)
    }

    fn shown(&self, _finished: bool) -> ReviewShown {
        ReviewShown::of(self)
    }

    fn milestone(&self) -> usize {
        self.evaluations().len()
    }

    fn output(self) {}
}

impl GameReview {
    /// What the review has found so far.
    pub fn shown(&self) -> &ReviewShown {
        self.failed.as_ref().unwrap_or(self.search.shown())
    }

    pub fn is_running(&self) -> bool {
        !self.shown().done
    }

    /// Whether the review runs in slices of frames (so it needs frames to go on), rather
    /// than on a background task (which needs a frame now and then to show its progress).
    pub fn runs_in_frames(&self) -> bool {
        self.search.runs_in_frames()
    }

    /// The time a sliced review has spent searching: its wall time less the frames'
    /// own work, which is how long it would take with the whole of a core.
    pub fn searched_in_slices(&self) -> Option<Duration> {
        self.search.searched_in_slices()
    }

    /// Whether the review is of this game as it now stands or of an earlier part of its
    /// line (moves played since are not judged).
    pub fn fits(&self, game: &CurrentGame) -> bool {
        game.id == self.game_id && game.table.as_match().main_line().starts_with(&self.line)
    }

    /// The judged move played from the position after `ply` moves, if any.
    pub fn move_from(&self, ply: usize) -> Option<&MoveReview> {
        self.shown().moves.get(ply)
    }
}

/// The part of each frame a sliced review takes on the web: 12 ms of a 60 Hz frame's
/// 16.7 by default. The browser test lengthens it to time a review under software
/// rendering, whose own frames take most of a second.
#[derive(Resource, Clone, Copy, Debug)]
pub struct ReviewSlice(pub Duration);

impl Default for ReviewSlice {
    fn default() -> Self {
        ReviewSlice(Duration::from_millis(12))
    }
}

pub fn plugin(app: &mut App) {
    app.add_message::<StartReview>()
        .add_message::<StopReview>()
        .init_resource::<ReviewSlice>()
        .add_systems(OnExit(InGame), |mut commands: Commands| {
            commands.remove_resource::<GameReview>();
        })
        .add_systems(
            Update,
            (stop_review, start_review, run_review, show_better_move)
                .chain()
                .in_set(AppSystems::Think)
                .run_if(in_state(InGame)),
        );
}

fn stop_review(mut commands: Commands, mut requests: MessageReader<StopReview>) {
    if requests.read().count() > 0 {
        commands.remove_resource::<GameReview>();
    }
}

fn start_review(
    mut commands: Commands,
    mut requests: MessageReader<StartReview>,
    game: Option<Res<CurrentGame>>,
    settings: Res<Settings>,
    runner: Res<BotRunner>,
    kept: Res<KeptSearches>,
) {
    if requests.read().count() == 0 {
        return;
    }
    let Some(game) = game else {
        return;
    };
    // One review level serves every game: above this game's top, its top.
    let game_name = game.table.as_match().kind().key();
    let level = tabula_bot::Levels::built_in()
        .number_in(game_name, usize::from(settings.review_level)) as u8;
    if let Err(e) = tabula_bot::BotSpec::level(level as usize) {
        warn!("review: {e}");
        return;
    }
    let job = ReviewJob {
        game: GameSetup::main_line(game.table.as_match()),
        level,
        seed: game.id,
        threads: settings.search_threads(),
    };
    // Any review before this one is dropped, which stops it.
    commands.insert_resource(GameReview {
        game_id: game.id,
        line: game.table.as_match().main_line(),
        level,
        search: Background::start(job, *runner, &kept),
        failed: None,
    });
}

/// Takes the background review's newest copy, or runs a slice of a sliced one.
fn run_review(
    mut commands: Commands,
    review: Option<ResMut<GameReview>>,
    game: Option<Res<CurrentGame>>,
    thinking: Option<Res<Thinking>>,
    board: Res<BoardShows>,
    slice: Res<ReviewSlice>,
) {
    let (Some(mut review), Some(game)) = (review, game) else {
        return;
    };
    // Another game, or a line that replaced the one judged: the review is of nothing here.
    if !review.fits(&game) {
        commands.remove_resource::<GameReview>();
        return;
    }
    // The frame's spare time goes to a bot's search and to moving pieces first.
    let frame_is_free = thinking.is_none() && !animating(&game, &board);
    review.search.poll(frame_is_free.then_some(slice.0));
    if let Some(Err(failure)) = review.search.take_finished() {
        error!("review: {failure}");
        review.failed = Some(ReviewShown {
            done: true,
            failure: Some("The review stopped unexpectedly.".to_string()),
            ..review.search.shown().clone()
        });
    }
}

fn animating(game: &CurrentGame, board: &BoardShows) -> bool {
    phase_now(game, board) == TurnPhase::Animating
}

/// At a reviewed move that the search would have played otherwise, its move shows on the
/// board as a hint does.
fn show_better_move(
    mut commands: Commands,
    review: Option<Res<GameReview>>,
    game: Option<Res<CurrentGame>>,
    hint: Option<Res<Hint>>,
) {
    let (Some(review), Some(game)) = (review, game) else {
        return;
    };
    let revision = game.table.as_match().revision();
    match hint {
        // A person's hint, or this move's better move already shown.
        Some(hint) if hint.revision == revision => return,
        // A hint is for the position it was given in (the bots forget theirs only in play).
        Some(_) => commands.remove_resource::<Hint>(),
        None => {}
    }
    if !review.fits(&game) {
        return;
    }
    // The review judged the main line, not a variation being explored.
    let at = game.table.as_match().record().len();
    if game.table.as_match().main_line_ply() != at {
        return;
    }
    let Some(judged) = review.move_from(at) else {
        return;
    };
    let Some(better) = &judged.preferred else {
        return;
    };
    commands.insert_resource(Hint {
        revision,
        text: better.clone(),
        cells: game.table.move_cells(better).unwrap_or_default(),
        value: judged.before,
    });
}
