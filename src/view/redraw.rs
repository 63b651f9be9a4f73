//! Reactive rendering draws a frame only on input; while pieces move, ask for frames.

use crate::animation::Animating;
use bevy::prelude::*;
use bevy::window::RequestRedraw;

pub fn plugin(app: &mut App) {
    app.add_systems(Last, keep_drawing_while_animating);
}

fn keep_drawing_while_animating(
    animating: Res<Animating>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    if animating.0 {
        redraw.write(RequestRedraw);
    }
}
