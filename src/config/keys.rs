//! Key bindings: as the settings file names them, and resolved to Bevy's key codes (an
//! unknown name is reported and the default key used).

use super::Settings;
use bevy::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct KeyNames {
    pub pause: String,
    pub confirm: String,
    pub take_back_step: String,
    pub reset_camera: String,
    pub toggle_labels: String,
    pub orbit_left: String,
    pub orbit_right: String,
    pub tilt_up: String,
    pub tilt_down: String,
    pub zoom_in: String,
    pub zoom_out: String,
}

/// The key bindings, resolved to key codes.
#[derive(Resource, Clone, Debug)]
pub struct Keys {
    pub pause: KeyCode,
    pub confirm: KeyCode,
    pub take_back_step: KeyCode,
    pub reset_camera: KeyCode,
    pub toggle_labels: KeyCode,
    pub orbit_left: KeyCode,
    pub orbit_right: KeyCode,
    pub tilt_up: KeyCode,
    pub tilt_down: KeyCode,
    pub zoom_in: KeyCode,
    pub zoom_out: KeyCode,
}

impl KeyNames {
    pub fn resolve(&self, problems: &mut Vec<String>) -> Keys {
        let defaults = Settings::default().keys;
        let mut key = |name: &str, fallback: &str, what: &str| {
            key_code(name).unwrap_or_else(|| {
                problems.push(format!(
                    "keys.{what}: unknown key {}; using {fallback}",
                    tabula_session::rules::text::quoted(name)
                ));
                key_code(fallback).unwrap_or(KeyCode::Escape)
            })
        };
        Keys {
            pause: key(&self.pause, &defaults.pause, "pause"),
            confirm: key(&self.confirm, &defaults.confirm, "confirm"),
            take_back_step: key(
                &self.take_back_step,
                &defaults.take_back_step,
                "take_back_step",
            ),
            reset_camera: key(&self.reset_camera, &defaults.reset_camera, "reset_camera"),
            toggle_labels: key(
                &self.toggle_labels,
                &defaults.toggle_labels,
                "toggle_labels",
            ),
            orbit_left: key(&self.orbit_left, &defaults.orbit_left, "orbit_left"),
            orbit_right: key(&self.orbit_right, &defaults.orbit_right, "orbit_right"),
            tilt_up: key(&self.tilt_up, &defaults.tilt_up, "tilt_up"),
            tilt_down: key(&self.tilt_down, &defaults.tilt_down, "tilt_down"),
            zoom_in: key(&self.zoom_in, &defaults.zoom_in, "zoom_in"),
            zoom_out: key(&self.zoom_out, &defaults.zoom_out, "zoom_out"),
        }
    }
}

/// Key names as Bevy spells its `KeyCode`s, for the keys a binding is likely to use.
pub fn key_code(name: &str) -> Option<KeyCode> {
    use KeyCode::*;
    let letters = [
        KeyA, KeyB, KeyC, KeyD, KeyE, KeyF, KeyG, KeyH, KeyI, KeyJ, KeyK, KeyL, KeyM, KeyN, KeyO,
        KeyP, KeyQ, KeyR, KeyS, KeyT, KeyU, KeyV, KeyW, KeyX, KeyY, KeyZ,
    ];
    let digits = [
        Digit0, Digit1, Digit2, Digit3, Digit4, Digit5, Digit6, Digit7, Digit8, Digit9,
    ];
    if let Some(letter) = name.strip_prefix("Key")
        && let [c @ b'A'..=b'Z'] = letter.as_bytes()
    {
        return Some(letters[(c - b'A') as usize]);
    }
    if let Some(digit) = name.strip_prefix("Digit")
        && let [c @ b'0'..=b'9'] = digit.as_bytes()
    {
        return Some(digits[(c - b'0') as usize]);
    }
    Some(match name {
        "Escape" => Escape,
        "Enter" => Enter,
        "Space" => Space,
        "Backspace" => Backspace,
        "Tab" => Tab,
        "Delete" => Delete,
        "Home" => Home,
        "End" => End,
        "PageUp" => PageUp,
        "PageDown" => PageDown,
        "ArrowLeft" => ArrowLeft,
        "ArrowRight" => ArrowRight,
        "ArrowUp" => ArrowUp,
        "ArrowDown" => ArrowDown,
        "Equal" => Equal,
        "Minus" => Minus,
        "NumpadAdd" => NumpadAdd,
        "NumpadSubtract" => NumpadSubtract,
        "F1" => F1,
        "F2" => F2,
        "F3" => F3,
        "F4" => F4,
        _ => return None,
    })
}
