//! The title's showcase: two bots play a slow game on the lit board behind the menus, one
//! game after another through the four. It is only to look at: nothing of it is saved,
//! rated or heard (those run in a match only), it waits while a menu is in use, and a game
//! started or loaded takes its place.

use crate::AppSystems;
use crate::bot::BotSeeds;
use crate::current_game::{CurrentGame, Seat};
use crate::phase::BoardShows;
use crate::screens::{BoardScene, Screen, build_board, rebuild_board};
use crate::table::{GameKind, new_table};
use crate::turn::RulesEvent;
use bevy::prelude::*;

/// The bots' level: a Casual search takes a few milliseconds, so it runs within a frame.
const LEVEL: u8 = 4;
/// Seconds from one move's end to the next move.
const MOVE_PAUSE: f64 = 1.8;
/// Seconds a finished game stays before the next one begins.
const END_PAUSE: f64 = 6.0;
/// A game still going after this many moves gives way to the next game.
const MOST_MOVES: usize = 120;
/// A step is taken this early: the app wakes for it a little before it is due (winit
/// counts the wait from the start of the frame that set it).
const EARLY: f64 = 0.1;

/// The showcase game on the board, while the menus show.
#[derive(Resource, Debug)]
pub struct Showcase {
    /// The showcase's match: a game started or loaded meanwhile is never touched.
    game: u64,
    /// The position the board last settled on, and when the next step is due (seconds
    /// of real time: the app sleeps between moves, and virtual time would not count it).
    settled: Option<(u64, u64)>,
    due: f64,
    /// Time for the next game.
    next_game: bool,
    /// A menu is in use (a window over the title): the game waits.
    pub paused: bool,
}

/// Which game the showcase plays next; kept from one visit of the title to the next, so
/// each brings another game.
#[derive(Resource, Debug)]
struct ShowcaseTurns {
    next_kind: usize,
}

impl ShowcaseTurns {
    /// A new showcase game: the next of the four, with its default options.
    fn next_match(&mut self) -> Option<CurrentGame> {
        let kind = GameKind::ALL[self.next_kind % GameKind::ALL.len()];
        self.next_kind = (self.next_kind + 1) % GameKind::ALL.len();
        match new_table(kind, &[]) {
            Ok(table) => {
                let seats = vec![Seat::Bot(LEVEL); table.as_match().num_players()];
                Some(CurrentGame::new(table, seats))
            }
            Err(error) => {
                warn!("the showcase cannot start {}: {error}", kind.title());
                None
            }
        }
    }
}

impl Showcase {
    /// How many times slower than in play the showcase's pieces move: an unhurried pace.
    pub const SLOWER: f32 = 1.6;

    /// When the showcase's next step is due, in seconds of real time; none while paused.
    pub fn due(&self) -> Option<f64> {
        (!self.paused).then_some(self.due)
    }
}

pub fn plugin(app: &mut App) {
    let since = web_time::SystemTime::now()
        .duration_since(web_time::UNIX_EPOCH)
        .unwrap_or_default();
    app.insert_resource(ShowcaseTurns {
        // A different game first each time the app starts (by the millisecond: a page's
        // clock counts no finer, so its nanoseconds all end in zeros).
        next_kind: (since.as_millis() % GameKind::ALL.len() as u128) as usize,
    })
    .add_systems(OnEnter(BoardScene::Showcase), begin.before(build_board))
    .add_systems(OnExit(BoardScene::Showcase), end)
    // The new-game and online screens are menus in use too; the title's own windows
    // are the title's to say (`paused`).
    .add_systems(OnEnter(Screen::Title), pause(false))
    .add_systems(OnExit(Screen::Title), pause(true))
    .add_systems(
        Update,
        (
            // After the animations, so the frame a move's motions end already counts the
            // pause from then.
            play.in_set(AppSystems::Keep)
                .run_if(in_state(Screen::Title).and_then(resource_exists::<Showcase>)),
            next_game.in_set(AppSystems::Keep).run_if(
                in_state(Screen::Title).and_then(|showcase: Option<Res<Showcase>>| {
                    showcase.is_some_and(|s| s.next_game)
                }),
            ),
        ),
    );
}

/// The title's board gets a game of its own, in place of the one left.
fn begin(world: &mut World) {
    let game = world.resource_mut::<ShowcaseTurns>().next_match();
    if let Some(game) = game {
        // From a game to the new-game screen, the showcase comes in waiting.
        let on_title = world
            .get_resource::<State<Screen>>()
            .is_some_and(|screen| *screen.get() == Screen::Title);
        world.insert_resource(Showcase {
            game: game.id,
            settled: None,
            due: 0.0,
            next_game: false,
            paused: !on_title,
        });
        world.insert_resource(game);
    }
}

fn pause(paused: bool) -> impl Fn(Option<ResMut<Showcase>>) {
    move |showcase| {
        if let Some(mut showcase) = showcase {
            showcase.paused = paused;
        }
    }
}

fn end(mut commands: Commands) {
    commands.remove_resource::<Showcase>();
}

/// Once the board has settled and the pause is over, the bot to move plays.
fn play(
    mut showcase: ResMut<Showcase>,
    game: Option<ResMut<CurrentGame>>,
    board: Res<BoardShows>,
    real: Res<Time<Real>>,
    mut seeds: ResMut<BotSeeds>,
    mut events: MessageWriter<RulesEvent>,
) {
    let Some(mut game) = game.filter(|game| game.id == showcase.game) else {
        return;
    };
    if !board.settled(&game) {
        return;
    }
    let now = real.elapsed_secs_f64();
    let finished = game.is_over() || game.table.as_match().record().len() >= MOST_MOVES;
    if showcase.settled != Some(game.position()) {
        showcase.settled = Some(game.position());
        showcase.due = now + if finished { END_PAUSE } else { MOVE_PAUSE };
    }
    if showcase.paused {
        showcase.due = showcase.due.max(now + MOVE_PAUSE);
        return;
    }
    if now + EARLY < showcase.due {
        return;
    }
    if finished {
        showcase.next_game = true;
        return;
    }
    let Some(spec) = Seat::Bot(LEVEL).spec() else {
        return;
    };
    let played = game
        .table
        .as_match()
        .thinker(&spec, seeds.next())
        .think_through()
        .ok_or_else(|| "the bot found no move".to_string())
        .and_then(|text| game.table.play_notation(&text));
    match played {
        Ok(played) => {
            let move_number = game.table.as_match().record().len();
            for event in played {
                events.write(RulesEvent { move_number, event });
            }
        }
        Err(error) => {
            warn!("the showcase game stops: {error}");
            showcase.next_game = true;
        }
    }
}

/// The next game replaces the finished one: its board is built as on entering the title.
fn next_game(world: &mut World) {
    let (Some(showcase), Some(shown)) = (
        world.get_resource::<Showcase>(),
        world.get_resource::<CurrentGame>(),
    ) else {
        return;
    };
    if shown.id != showcase.game {
        // A game started or loaded in this frame: it is the player's.
        return;
    }
    let game = world.resource_mut::<ShowcaseTurns>().next_match();
    let now = world.resource::<Time<Real>>().elapsed_secs_f64();
    let mut showcase = world.resource_mut::<Showcase>();
    showcase.settled = None;
    showcase.next_game = false;
    // Due now: the app, asleep for the end's pause, wakes for the new board.
    showcase.due = now;
    // Should a game fail to start, the one shown stays until the next one's turn.
    let Some(game) = game else {
        return;
    };
    showcase.game = game.id;
    world.insert_resource(game);
    rebuild_board(world);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::screens::BuildBoard;

    fn world_with(turns: ShowcaseTurns, showcase_game: u64, shown: CurrentGame) -> World {
        let mut world = World::new();
        world.init_resource::<Time<Real>>();
        world.add_schedule(Schedule::new(BuildBoard));
        world.insert_resource(turns);
        world.insert_resource(shown);
        world.insert_resource(Showcase {
            game: showcase_game,
            settled: None,
            due: 0.0,
            next_game: true,
            paused: false,
        });
        world
    }

    /// A game the player started or loaded in the frame the showcase's game ended stays;
    /// the showcase's own finished game gives way to the next of the four.
    #[test]
    fn the_next_showcase_game_replaces_only_the_showcase_game() {
        let mut turns = ShowcaseTurns { next_kind: 0 };
        let showcase_game = turns.next_match().unwrap();
        let players_game = turns.next_match().unwrap();
        let (showcase_id, players_id) = (showcase_game.id, players_game.id);
        let mut world = world_with(turns, showcase_id, players_game);
        next_game(&mut world);
        assert_eq!(world.resource::<CurrentGame>().id, players_id);

        let turns = ShowcaseTurns { next_kind: 3 };
        let mut world = world_with(turns, showcase_id, showcase_game);
        next_game(&mut world);
        let next = world.resource::<CurrentGame>();
        assert_ne!(next.id, showcase_id);
        assert_eq!(next.table.as_match().kind(), GameKind::ALL[3]);
        assert!(next.seats.iter().all(Seat::is_bot));
        let showcase = world.resource::<Showcase>();
        assert_eq!(showcase.game, next.id);
        assert!(!showcase.next_game);
    }
}
