//! The board's wood texture, made when the game starts: rings bent by a few knots and a
//! fine grain, so no picture is needed or downloaded (the PNG it replaces was 36 KB of the
//! browser's module, and it came through the asset loader).

use bevy::asset::RenderAssetUsages;
use bevy::image::Image;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use std::f32::consts::TAU;

/// The texture's side in pixels.
const SIZE: u32 = 256;

/// Knots that bend the rings: (x, y, radius) in pixels. Drawn once by Python's random at
/// seed 7, as the picture this replaces was, so the board looks as it did.
const KNOTS: [(f32, f32, f32); 12] = [
    (82.901, 38.617, 22.321),
    (18.544, 137.186, 16.045),
    (14.848, 129.904, 8.825),
    (111.013, 17.883, 9.996),
    (108.677, 211.674, 10.724),
    (57.149, 160.623, 28.850),
    (147.738, 101.550, 29.478),
    (11.925, 219.768, 14.371),
    (36.929, 30.155, 14.787),
    (208.928, 46.266, 20.795),
    (163.562, 95.334, 20.050),
    (16.074, 15.258, 12.531),
];

/// The wood's colour at its lightest, before the rings shade it.
const WOOD: [f32; 3] = [196.0, 150.0, 102.0];

/// The texture, in sRGB like the picture it replaces.
pub fn wood_texture() -> Image {
    let mut pixels = Vec::with_capacity((SIZE * SIZE * 4) as usize);
    for y in 0..SIZE {
        for x in 0..SIZE {
            let [r, g, b] = shade(x as f32, y as f32);
            pixels.extend_from_slice(&[r, g, b, 255]);
        }
    }
    Image::new(
        Extent3d {
            width: SIZE,
            height: SIZE,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        pixels,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::RENDER_WORLD,
    )
}

fn shade(x: f32, y: f32) -> [u8; 3] {
    let size = SIZE as f32;
    let warp: f32 = KNOTS
        .iter()
        .map(|(kx, ky, r)| {
            let d2 = (x - kx).powi(2) + (y - ky).powi(2);
            6.0 * (-d2 / (2.0 * r * r)).exp()
        })
        .sum();
    let wave = 3.0 * (x * TAU / size).sin() + 1.5 * (x * 3.0 * TAU / size + 1.0).sin();
    let ring = (y + wave + warp) / 23.0;
    let t = 0.5 + 0.5 * ((ring - ring.floor()) * TAU).cos();
    let fine = 0.04 * (y * 1.7 + 0.3 * (x * 0.5).sin()).sin();
    let v = 0.78 + 0.16 * t + fine;
    WOOD.map(|c| (c * v).clamp(0.0, 255.0) as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Wood-brown everywhere, with rings: light and dark bands down each column.
    #[test]
    fn the_wood_is_brown_with_rings() {
        let image = wood_texture();
        let data = image.data.as_ref().unwrap();
        assert_eq!(data.len(), (SIZE * SIZE * 4) as usize);
        let pixel = |x: u32, y: u32| {
            let at = ((y * SIZE + x) * 4) as usize;
            [data[at], data[at + 1], data[at + 2]]
        };
        for (x, y) in [(0, 0), (100, 200), (255, 255)] {
            let [r, g, b] = pixel(x, y);
            assert!(r > g && g > b && b > 60, "({x}, {y}) is {r} {g} {b}");
        }
        let reds: Vec<u8> = (0..SIZE).map(|y| pixel(128, y)[0]).collect();
        let (lightest, darkest) = (reds.iter().max().unwrap(), reds.iter().min().unwrap());
        assert!(lightest - darkest > 25, "{darkest}..{lightest}");
    }
}
