//! Bot seats and hints. A search runs on a background task on the desktop, or in the
//! page's search worker on the web (in slices of each frame where there is none); its move
//! enters the turn as a [`PlayerInput::BotMove`], like a person's. Frames keep coming while
//! it thinks, and pausing, leaving or starting again never waits for it.

use crate::AppSystems;
use crate::background::{
    Background, GameSetup, Job, KeptSearches, KeptSeat, SearchJob, Steps, forget_kept,
};
use crate::config::Settings;
use crate::current_game::{CurrentGame, Seat};
use crate::phase::{Pause, TurnPhase};
use crate::screens::{InGame, Screen};
use crate::table::Thinker;
use crate::turn::PlayerInput;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use serde::{Deserialize, Serialize};
use tabula_bot::BotSpec;
use web_time::Duration;

pub use crate::background::BotRunner;

/// The frame time a sliced search may take while pieces move, leaving the rest for drawing.
const ANIMATING_SLICE: Duration = Duration::from_millis(12);
/// The slice while the board is still: about 30 frames a second keep hover and buttons
/// responsive, and the search, which counts only its own time, ends sooner.
const STILL_SLICE: Duration = Duration::from_millis(30);
/// The level a hint thinks at: about the former level 3's budget, in a fraction of a second
/// (Advanced; in Absorption, whose ladder has more levels, Tournament).
pub(crate) const HINT_LEVEL: u8 = 8;

/// What a search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// The move of the bot in this seat.
    Move { seat: usize },
    /// A suggestion for the person to move.
    Hint,
}

/// A search under way, for the position of the table's `revision`.
#[derive(Resource)]
pub struct Thinking {
    pub purpose: Purpose,
    pub revision: u64,
    search: Background<MoveSearch>,
    /// A finished bot move waiting for the pause menu to close.
    ready: Option<String>,
    failure: Option<String>,
}

/// A bot's move or a hint to search for: the game, the bot, and the seat whose tree from
/// its last move the search goes on from and is kept for its next (none for a hint).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveJob {
    game: GameSetup,
    /// The bot's spec, as text.
    spec: String,
    seed: u64,
    keep: Option<KeptSeat>,
    /// The most threads it searches on (`BotSpec::on_threads`).
    threads: u32,
}

impl From<MoveJob> for SearchJob {
    fn from(job: MoveJob) -> SearchJob {
        SearchJob::Move(job)
    }
}

impl Job for MoveJob {
    type Work = MoveSearch;

    fn build(self, kept: &KeptSearches) -> Result<MoveSearch, String> {
        let spec = self.spec.parse::<BotSpec>()?.on_threads(self.threads);
        let game = self.game.build()?;
        let tree = self.keep.and_then(|seat| kept.take(seat));
        let thinker = game.thinker_from(&spec, self.seed, tree);
        Ok(MoveSearch {
            kept_nodes: thinker.tree_size().saturating_sub(1),
            thinker,
            answer: None,
            keep: self.keep.map(|seat| (kept.clone(), seat)),
        })
    }
}

/// A bot's search as work in steps; the frame is shown how far through its budget it is.
/// Its answer is made where it ran, as its last step: moving the root past the move copies
/// the subtree kept, which would cost the frame a big tree's time. The tree is kept there
/// too, for the seat's next move.
pub struct MoveSearch {
    thinker: Box<dyn Thinker>,
    kept_nodes: usize,
    answer: Option<Answer>,
    keep: Option<(KeptSearches, KeptSeat)>,
}

/// How far a bot's search is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MoveShown {
    /// Through its budget, from 0 to 1.
    pub progress: f32,
    /// Nodes of the seat's last search that it goes on from (0 for a fresh one).
    pub kept_nodes: usize,
}

/// A search's move, and the chance the bot gives the seat to move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    text: Option<String>,
    value: f64,
}

impl MoveSearch {
    /// A seat's bot (a search kept for the seat) plays its move, which a temperature may
    /// make a weaker one; a hint (nothing kept) shows the best found.
    fn choice(&mut self) -> Option<String> {
        if self.keep.is_some() {
            self.thinker.move_to_play()
        } else {
            self.thinker.best_move()
        }
    }
}

impl Steps for MoveSearch {
    type Shown = MoveShown;
    type Output = Answer;
    const SHOW_EVERY: Duration = Duration::from_millis(50);

    fn step(&mut self, iterations: u64) -> bool {
        if self.answer.is_some() {
            return false;
        }
        if self.thinker.think(iterations) {
            return true;
        }
        let value = self.thinker.value();
        let text = self.choice();
        if let Some(text) = &text {
            // The search goes on from after its move next time.
            self.thinker.advance(text);
        }
        self.answer = Some(Answer { text, value });
        false
    }

    fn shown(&self, finished: bool) -> MoveShown {
        MoveShown {
            progress: if finished {
                1.0
            } else {
                self.thinker.progress() as f32
            },
            kept_nodes: self.kept_nodes,
        }
    }

    fn output(mut self) -> Answer {
        let answer = match self.answer.take() {
            Some(answer) => answer,
            None => Answer {
                value: self.thinker.value(),
                text: self.choice(),
            },
        };
        if let Some((kept, seat)) = self.keep {
            kept.keep(seat, self.thinker);
        }
        answer
    }
}

impl Thinking {
    /// How far through its budget the search is, from 0 to 1.
    pub fn progress(&self) -> f32 {
        self.search.shown().progress
    }

    /// Nodes of the seat's last search that this one goes on from (0 for a fresh one),
    /// once the search has been built.
    pub fn kept_nodes(&self) -> usize {
        self.search.shown().kept_nodes
    }

    /// Whether the search runs in slices of frames, not off the frame.
    pub fn runs_in_frames(&self) -> bool {
        self.search.runs_in_frames()
    }

    /// Why the search ended without a move (a bug in it), if it did.
    pub fn failure(&self) -> Option<&str> {
        self.failure.as_deref()
    }
}

/// The last hint: a move in notation, the cells it touches, and the bot's win chance.
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct Hint {
    pub revision: u64,
    pub text: String,
    pub cells: Vec<usize>,
    pub value: f64,
}

/// Ask for a hint for the person to move.
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct RequestHint;

/// Seeds for the bots: different each game, from the clock.
#[derive(Resource, Debug)]
pub(crate) struct BotSeeds(u64);

impl BotSeeds {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0
    }
}

pub fn plugin(app: &mut App) {
    let clock_seed = web_time::SystemTime::now()
        .duration_since(web_time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64);
    app.init_resource::<BotRunner>()
        .init_resource::<KeptSearches>()
        .insert_resource(BotSeeds(clock_seed))
        .add_message::<RequestHint>()
        .add_systems(OnExit(InGame), stop_thinking)
        .add_systems(
            Update,
            (
                start_bot_move.run_if(in_state(TurnPhase::BotToMove)),
                start_hint.run_if(in_state(TurnPhase::PersonToMove)),
                think,
                forget_old_hint,
            )
                .chain()
                .in_set(AppSystems::Think)
                .run_if(in_state(Screen::Playing)),
        );
}

fn stop_thinking(mut commands: Commands, kept: Res<KeptSearches>, runner: Res<BotRunner>) {
    commands.remove_resource::<Thinking>();
    commands.remove_resource::<Hint>();
    forget_kept(&kept, *runner);
}

/// What starting a bot's search needs besides the game: where searches run, the next seed,
/// the seats' kept trees, and the threads the settings give.
#[derive(SystemParam)]
struct SearchStart<'w> {
    runner: Res<'w, BotRunner>,
    seeds: ResMut<'w, BotSeeds>,
    kept: Res<'w, KeptSearches>,
    settings: Res<'w, Settings>,
}

impl SearchStart<'_> {
    fn begin(&mut self, game: &CurrentGame, purpose: Purpose, seat: &Seat) -> Option<Thinking> {
        let spec = seat.spec()?;
        let the_match = game.table.as_match();
        let job = MoveJob {
            game: GameSetup::at(the_match),
            spec: spec.to_string(),
            seed: self.seeds.next(),
            keep: match purpose {
                Purpose::Move { seat } => Some(self.kept.seat(seat)),
                Purpose::Hint => None,
            },
            threads: self.settings.search_threads(),
        };
        Some(Thinking {
            purpose,
            revision: the_match.revision(),
            search: Background::start(job, *self.runner, &self.kept),
            ready: None,
            failure: None,
        })
    }
}

/// A bot to move starts thinking once the board has settled.
fn start_bot_move(
    mut commands: Commands,
    game: Option<Res<CurrentGame>>,
    thinking: Option<Res<Thinking>>,
    mut start: SearchStart,
) {
    let Some(game) = game else {
        return;
    };
    // Bots also wait while the player looks back at earlier moves (there are moves to
    // replay), until a new move or "play on" ends the look back.
    let looking_back = game.table.as_match().is_looking_back();
    let seat_index = game.table.as_match().to_move();
    let revision = game.table.as_match().revision();
    let busy = thinking
        .is_some_and(|t| t.revision == revision && t.purpose == Purpose::Move { seat: seat_index });
    if looking_back || busy {
        return;
    }
    let seat = game.seats.get(seat_index).cloned().unwrap_or_default();
    // Any other search (a hint, an older move) is dropped, which stops it.
    if let Some(thinking) = start.begin(&game, Purpose::Move { seat: seat_index }, &seat) {
        commands.insert_resource(thinking);
    }
}

fn start_hint(
    mut commands: Commands,
    mut requests: MessageReader<RequestHint>,
    game: Option<Res<CurrentGame>>,
    thinking: Option<Res<Thinking>>,
    mut start: SearchStart,
) {
    if requests.read().count() == 0 {
        return;
    }
    let Some(game) = game else {
        return;
    };
    if thinking.is_some() {
        return;
    }
    if let Some(thinking) = start.begin(&game, Purpose::Hint, &Seat::Bot(HINT_LEVEL)) {
        commands.insert_resource(thinking);
    }
}

/// Runs a slice of a sliced search, collects a finished one, and hands a bot's move to
/// the turn (after the pause menu closes) or shows a hint.
fn think(
    mut commands: Commands,
    thinking: Option<ResMut<Thinking>>,
    game: Option<Res<CurrentGame>>,
    pause: Res<State<Pause>>,
    phase: Res<State<TurnPhase>>,
    mut input: MessageWriter<PlayerInput>,
) {
    let (Some(mut thinking_res), Some(game)) = (thinking, game) else {
        return;
    };
    if thinking_res.revision != game.table.as_match().revision() {
        // The game moved on without this search.
        commands.remove_resource::<Thinking>();
        return;
    }
    let thinking = &mut *thinking_res;
    thinking
        .search
        .poll(Some(if *phase.get() == TurnPhase::Animating {
            ANIMATING_SLICE
        } else {
            STILL_SLICE
        }));
    match thinking.search.take_finished() {
        Some(Ok(answer)) => match thinking.purpose {
            Purpose::Move { .. } => thinking.ready = answer.text,
            Purpose::Hint => {
                if let Some(text) = answer.text {
                    let cells = game.table.move_cells(&text).unwrap_or_default();
                    commands.insert_resource(Hint {
                        revision: thinking.revision,
                        text,
                        cells,
                        value: answer.value,
                    });
                }
                commands.remove_resource::<Thinking>();
                return;
            }
        },
        Some(Err(failure)) => {
            error!("bot: {failure}");
            if thinking.purpose == Purpose::Hint {
                // A hint is asked for again by a click, so a bug cannot spin.
                commands.remove_resource::<Thinking>();
                return;
            }
            // Not started again by itself: the panel says so, and the game waits.
            thinking.failure = Some(failure);
        }
        None => {}
    }
    if *pause.get() == Pause::Running
        && let Some(text) = thinking.ready.take()
    {
        input.write(PlayerInput::BotMove(text));
        commands.remove_resource::<Thinking>();
    }
}

fn forget_old_hint(
    mut commands: Commands,
    hint: Option<Res<Hint>>,
    game: Option<Res<CurrentGame>>,
) {
    if let (Some(hint), Some(game)) = (hint, game)
        && hint.revision != game.table.as_match().revision()
    {
        commands.remove_resource::<Hint>();
    }
}
