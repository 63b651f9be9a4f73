//! The screens as states: loading, title, new game, the game itself and its result; and
//! the board on screen, built for the [`CurrentGame`] and cleared with its scene.

use crate::current_game::CurrentGame;
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
pub struct InGame;

impl ComputedStates for InGame {
    type SourceStates = Screen;
    // Playing <-> Result keeps the board: no exit and re-entry (camera, pieces, windows).
    const ALLOW_SAME_STATE_TRANSITIONS: bool = false;

    fn compute(screen: Screen) -> Option<Self> {
        matches!(screen, Screen::Playing | Screen::Result).then_some(InGame)
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

/// The schedule that makes the board for the [`CurrentGame`] now in place: tiles, pieces,
/// models, the camera's framing and the animations' starting point. It runs on entering a
/// [`BoardScene`], and again when the showcase goes on to its next game.
#[derive(bevy::ecs::schedule::ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct BuildBoard;

/// An entity of the board on screen, cleared with it.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct BoardPart;

/// Whether a board is on screen, a match's or the showcase's: the board's own systems
/// (animations, tile colours, models) run then.
pub fn board_on_screen(
    scene: Option<Res<State<BoardScene>>>,
    game: Option<Res<CurrentGame>>,
) -> bool {
    scene.is_some() && game.is_some()
}

/// Builds the board for the match in place, if there is one (without the showcase, the
/// title has the last game's match, or none before the first).
pub fn build_board(world: &mut World) {
    if world.contains_resource::<CurrentGame>() {
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

/// Shows the game just put on the table: a board already on screen (a game going on or
/// over, a lesson step, a puzzle) is built anew, since the screen stays in the game and
/// builds its board only on entering; from elsewhere the game screen opens.
pub fn show_new_game(world: &mut World) {
    let screen = *world.resource::<State<Screen>>().get();
    if matches!(screen, Screen::Playing | Screen::Result) {
        rebuild_board(world);
    }
    world
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Playing);
}

pub fn plugin(app: &mut App) {
    app.init_state::<Screen>()
        .add_computed_state::<InGame>()
        .add_computed_state::<BoardScene>()
        .init_schedule(BuildBoard)
        .add_systems(OnEnter(BoardScene::Showcase), build_board)
        .add_systems(OnEnter(BoardScene::Game), build_board)
        .add_systems(OnExit(BoardScene::Showcase), clear_board)
        .add_systems(OnExit(BoardScene::Game), clear_board);
}
