//! The first screen: the board's texture is made (wood.rs) and the title follows at once.
//! Nothing is loaded from files: the fonts, the sounds' formulas and the texture's are
//! built into the executable, so the game runs from any directory and `cargo install`
//! installs all of it.

use super::wood::wood_texture;
use crate::screens::Screen;
use bevy::prelude::*;

#[derive(Resource)]
pub struct BoardTextures {
    pub wood: Handle<Image>,
}

pub fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Loading), make_textures);
}

fn make_textures(
    mut commands: Commands,
    mut images: ResMut<Assets<Image>>,
    mut next: ResMut<NextState<Screen>>,
) {
    commands.insert_resource(BoardTextures {
        wood: images.add(wood_texture()),
    });
    // The check that an installed executable runs from an empty directory reads this line.
    info!("tabula: the board textures made");
    next.set(Screen::Title);
}
