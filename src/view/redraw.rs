//! Reactive rendering draws a frame only on input; while pieces move or a bot thinks,
//! or a review runs, ask for frames.

use crate::analysis::LiveEvaluation;
use crate::bot::Thinking;
use crate::current_game::CurrentGame;
use crate::online::{OnlineGame, OnlineWake};
use crate::phase::{BoardShows, TurnPhase, phase_now};
use crate::review::GameReview;
use crate::screens::Screen;
use crate::showcase::Showcase;
use crate::turn::PlayerInput;
use bevy::prelude::*;
use bevy::window::RequestRedraw;
use bevy::winit::{EventLoopProxyWrapper, UpdateMode, WinitSettings, WinitUserEvent};
use bevy_egui::{EguiContext, EguiInput, EguiPreUpdateSet, egui};
use std::time::Duration;

pub fn plugin(app: &mut App) {
    app.add_systems(Startup, wake_for_the_server)
        .add_systems(Update, wake_for_timers.after(crate::AppSystems::Keep))
        .add_systems(Last, (keep_drawing_while_animating, draw_again_after_input))
        .add_systems(
            PreUpdate,
            (drop_unchanged_modifiers, click_allows_a_frame)
                .after(EguiPreUpdateSet::ProcessInput)
                .before(EguiPreUpdateSet::BeginPass),
        );
}

/// How long egui lets a press last and still be a click (its own default).
const CLICK_SECONDS: f64 = 0.8;
/// The frames a press may last besides.
const CLICK_FRAMES: usize = 4;

/// egui times a press by the clocks of the frames its touch and its lifting arrive in. Where
/// a frame takes seconds (software rendering in the browser test, a slow phone), a quick
/// tap's lifting comes a frame or two after its touch (the app draws again while a finger
/// rests), and egui took it for a long press: no click (the browser test lost a panel
/// choice so). A press may last the four frames up to this one besides egui's own 0.8 s;
/// at 60 frames a second that is 67 ms more. Two were allowed at first, and an empty-cache
/// CI run lost the phone's first tap with its lifting three frames after its touch.
fn click_allows_a_frame(
    mut contexts: Query<&mut EguiContext>,
    time: Res<Time<Real>>,
    mut last_frames: Local<[f64; CLICK_FRAMES - 1]>,
) {
    let frame = time.delta_secs_f64();
    let allowed = CLICK_SECONDS + frame + last_frames.iter().sum::<f64>();
    last_frames.rotate_right(1);
    last_frames[0] = frame;
    for mut context in &mut contexts {
        // Only egui's options change, not what the context is to anything else.
        context
            .bypass_change_detection()
            .get_mut()
            .options_mut(|o| o.input_options.max_click_duration = allowed);
    }
}

/// bevy_egui 0.42 tells egui the modifier keys every frame, changed or not; egui takes
/// any event as a reason to draw again, so the app would never rest (measured: 1.6 cores
/// busy on a still title screen). Only real changes are passed on.
fn drop_unchanged_modifiers(
    mut inputs: Query<&mut EguiInput>,
    mut last: Local<Option<egui::Modifiers>>,
) {
    for mut input in &mut inputs {
        input.events.retain(|event| match event {
            egui::Event::ModifiersChanged(now) => {
                let changed = *last != Some(*now);
                *last = Some(*now);
                changed
            }
            _ => true,
        });
    }
}

/// Frames also keep coming while a bot thinks (its progress shows, and its answer is
/// collected by a frame), while assets load (the loading screen polls them; a page that
/// nobody touches would otherwise wait there), and for the frame after a new screen
/// (egui lays its windows out over two).
fn keep_drawing_while_animating(
    game: Option<Res<CurrentGame>>,
    board: Res<BoardShows>,
    phase: Option<Res<State<TurnPhase>>>,
    thinking: Option<Res<Thinking>>,
    (review, live): (Option<Res<GameReview>>, Option<Res<LiveEvaluation>>),
    screen: Res<State<Screen>>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    // Pieces move, or the phase is behind what happened this frame (a move, a jump, an
    // animation's end): the next frame brings it up to date, and whatever follows from it
    // (a bot starting, the result) happens without waiting for the mouse.
    let pending = game.is_some_and(|game| {
        let now = phase_now(&game, &board);
        // Outside a match (the title's showcase) there is no phase to catch up with.
        now == TurnPhase::Animating || phase.is_some_and(|phase| *phase.get() != now)
    });
    let reviewing_in_frames = review.is_some_and(|r| r.is_running() && r.runs_in_frames());
    let evaluating_in_frames = live.is_some_and(|l| !l.shown().done && l.runs_in_frames());
    if pending
        || thinking.is_some_and(|thinking| thinking.failure().is_none())
        || reviewing_in_frames
        || evaluating_in_frames
        || *screen.get() == Screen::Loading
        || screen.is_changed()
    {
        redraw.write(RequestRedraw);
    }
}

/// A tap or click that chose a cell or a step changes the board's lights and the panel in
/// the frames after it: one more frame shows them, not the next touch (a still finger or
/// mouse sends nothing more). Frames also keep coming while a finger rests on the screen:
/// a resting finger sends nothing, and what egui does for a finger held on a button (its
/// hover text, after a delay) needs frames to happen in.
fn draw_again_after_input(
    mut inputs: MessageReader<PlayerInput>,
    touches: Res<Touches>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    if inputs.read().count() > 0 || touches.iter().next().is_some() {
        redraw.write(RequestRedraw);
    }
}

/// A server's message wakes the app like input does: an opponent's move shows at once.
fn wake_for_the_server(mut commands: Commands, proxy: Option<Res<EventLoopProxyWrapper>>) {
    let Some(proxy) = proxy else {
        return;
    };
    let proxy = std::sync::Mutex::new((**proxy).clone());
    commands.insert_resource(OnlineWake(std::sync::Arc::new(move || {
        if let Ok(proxy) = proxy.lock() {
            let _ = proxy.send_event(WinitUserEvent::WakeUp);
        }
    })));
}

/// While an online move has a time limit, a frame a second keeps its clock counting; while
/// a review or the analysis board's evaluation runs on a background task, four frames a
/// second show its progress; the title's showcase wakes the app when its next move is due.
fn wake_for_timers(
    online: Option<Res<OnlineGame>>,
    review: Option<Res<GameReview>>,
    live: Option<Res<LiveEvaluation>>,
    showcase: Option<Res<Showcase>>,
    real: Res<Time<Real>>,
    mut showcase_wait: Local<Option<(f64, Duration)>>,
    mut winit: ResMut<WinitSettings>,
) {
    if matches!(winit.focused_mode, UpdateMode::Continuous) {
        // The scripted demo draws every frame anyway.
        return;
    }
    let clock = online.is_some_and(|online| {
        online
            .client
            .game()
            .is_some_and(|game| game.state.deadline_ms.is_some() && !game.is_over())
    });
    let reviewing = review.is_some_and(|r| r.is_running()) || live.is_some_and(|l| !l.shown().done);
    let wait = if reviewing {
        Duration::from_millis(250)
    } else {
        Duration::from_secs(if clock { 1 } else { 60 })
    };
    // The showcase's next move: its wait is worked out once a move, since winit draws a
    // frame at once whenever the wait changes (a new one each frame would never sleep).
    let wait = match showcase.and_then(|showcase| showcase.due()) {
        Some(due) => {
            // Frames that come meanwhile (input) leave winit's wake-up where it was set.
            if showcase_wait.is_none_or(|(was_due, _)| was_due != due) {
                let left = (due - real.elapsed_secs_f64()).clamp(0.01, 60.0);
                *showcase_wait = Some((due, Duration::from_secs_f64(left)));
            }
            showcase_wait.map_or(wait, |(_, left)| left.min(wait))
        }
        None => wait,
    };
    let wanted = WinitSettings {
        focused_mode: UpdateMode::reactive(wait),
        unfocused_mode: UpdateMode::reactive_low_power(wait),
    };
    if winit.focused_mode != wanted.focused_mode {
        *winit = wanted;
    }
}
