//! egui's text reaches the screen in the frame it is laid out. New glyphs go into egui's
//! font atlas, an `Image` asset that bevy_egui edits in `PostUpdate`; the render world
//! uploads an image that frame only if its change is announced (`AssetEventSystems`, also
//! `PostUpdate`) after the edit. Bevy leaves the two unordered, so under load a frame could
//! draw new text on the old atlas: letters missing ("Split c1 (8): c  : 1"), a count label
//! blank, until the next frame came (and an app that draws only on input may wait long for
//! it). Ordered here, as Bevy orders its own text before the asset events.

use bevy::asset::AssetEventSystems;
use bevy::prelude::*;
use bevy_egui::EguiPostUpdateSet;

pub fn plugin(app: &mut App) {
    app.configure_sets(
        PostUpdate,
        EguiPostUpdateSet::PostProcessOutput.before(AssetEventSystems),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::asset::AssetPlugin;
    use bevy::image::Image;
    use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};

    /// The frames in which egui's stand-in edited the atlas, and those whose asset events
    /// (read in `Last`, before the render world extracts) announced it.
    #[derive(Resource, Default)]
    struct Seen {
        edited: Vec<u32>,
        announced: Vec<u32>,
        frame: u32,
    }

    #[derive(Resource)]
    struct Atlas(Handle<Image>);

    /// Edits the atlas as bevy_egui's texture system does, in its set, each frame.
    fn add_glyphs(atlas: Res<Atlas>, mut images: ResMut<Assets<Image>>, mut seen: ResMut<Seen>) {
        if let Some(mut image) = images.get_mut(&atlas.0) {
            if let Some(data) = image.data.as_mut() {
                data[0] = data[0].wrapping_add(1);
            }
            let frame = seen.frame;
            seen.edited.push(frame);
        }
    }

    fn announced(mut events: MessageReader<AssetEvent<Image>>, mut seen: ResMut<Seen>) {
        let frame = seen.frame;
        if events
            .read()
            .any(|e| matches!(e, AssetEvent::Modified { .. }))
        {
            seen.announced.push(frame);
        }
        seen.frame += 1;
    }

    /// With the order above, every frame that adds glyphs to the atlas announces it in the
    /// same frame, so the upload and the text that needs it are drawn together. (Without
    /// it, this schedule ran the asset events first and each edit was announced a frame
    /// late.)
    #[test]
    fn an_atlas_edited_is_announced_in_the_same_frame() {
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, AssetPlugin::default()))
            .init_asset::<Image>()
            .init_resource::<Seen>()
            .add_systems(
                PostUpdate,
                add_glyphs.in_set(EguiPostUpdateSet::PostProcessOutput),
            )
            .add_systems(Last, announced);
        plugin(&mut app);
        let image = Image::new_fill(
            Extent3d {
                width: 4,
                height: 4,
                depth_or_array_layers: 1,
            },
            TextureDimension::D2,
            &[0, 0, 0, 255],
            TextureFormat::Rgba8UnormSrgb,
            default(),
        );
        let handle = app.world_mut().resource_mut::<Assets<Image>>().add(image);
        app.insert_resource(Atlas(handle));
        for _ in 0..5 {
            app.update();
        }
        let seen = app.world().resource::<Seen>();
        assert_eq!(seen.edited, [0, 1, 2, 3, 4]);
        assert_eq!(seen.announced, seen.edited);
    }
}
