//! Saves as local-storage entries in the browser, keyed by their path (`tabula/…`). A
//! write replaces one entry at once; the entry it replaces is kept under `KEY.bak`, and
//! `KEY#modified` holds the time, so saved games list newest first.

use super::with_suffix;
use std::io::{Error, ErrorKind};
use std::path::{Path, PathBuf};

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

fn key(path: &Path) -> String {
    path.to_string_lossy().replace('\\', "/")
}

fn unavailable() -> Error {
    Error::new(
        ErrorKind::Unsupported,
        "this browser keeps no local storage",
    )
}

fn refused(error: wasm_bindgen::JsValue) -> Error {
    // Usually the quota (a few megabytes a site) is full.
    Error::other(format!("the browser refused to store it ({error:?})"))
}

pub fn data_dir() -> Option<PathBuf> {
    local_storage().map(|_| PathBuf::from("tabula"))
}

pub fn describe(_dir: &Path) -> String {
    "this browser's storage".to_string()
}

pub fn read(path: &Path) -> std::io::Result<Option<String>> {
    let storage = local_storage().ok_or_else(unavailable)?;
    storage.get_item(&key(path)).map_err(refused)
}

pub fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    let storage = local_storage().ok_or_else(unavailable)?;
    let key = key(path);
    if let Some(old) = storage.get_item(&key).map_err(refused)? {
        storage
            .set_item(
                &with_suffix(Path::new(&key), ".bak").to_string_lossy(),
                &old,
            )
            .map_err(refused)?;
    }
    storage.set_item(&key, text).map_err(refused)?;
    let now = web_time::SystemTime::now()
        .duration_since(web_time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    storage
        .set_item(&format!("{key}#modified"), &now.to_string())
        .map_err(refused)
}

pub fn rename(from: &Path, to: &Path) -> std::io::Result<()> {
    let storage = local_storage().ok_or_else(unavailable)?;
    let text = storage
        .get_item(&key(from))
        .map_err(refused)?
        .ok_or_else(|| Error::new(ErrorKind::NotFound, "there is no such entry"))?;
    storage.set_item(&key(to), &text).map_err(refused)?;
    remove(from)
}

fn remove(path: &Path) -> std::io::Result<()> {
    let storage = local_storage().ok_or_else(unavailable)?;
    storage.remove_item(&key(path)).map_err(refused)?;
    storage
        .remove_item(&format!("{}#modified", key(path)))
        .map_err(refused)
}

pub fn exists(path: &Path) -> bool {
    local_storage().is_some_and(|s| s.get_item(&key(path)).ok().flatten().is_some())
}

/// The `.ron` entries under `dir/`, newest first.
pub fn list(dir: &Path) -> Vec<PathBuf> {
    let Some(storage) = local_storage() else {
        return Vec::new();
    };
    let prefix = format!("{}/", key(dir));
    let count = storage.length().unwrap_or(0);
    let mut entries: Vec<(u128, PathBuf)> = (0..count)
        .filter_map(|i| storage.key(i).ok().flatten())
        .filter(|k| k.starts_with(&prefix) && k.ends_with(".ron"))
        .map(|k| {
            let modified = storage
                .get_item(&format!("{k}#modified"))
                .ok()
                .flatten()
                .and_then(|t| t.parse().ok())
                .unwrap_or(0);
            (modified, PathBuf::from(k))
        })
        .collect();
    entries.sort_by(|a, b| b.cmp(a));
    entries.into_iter().map(|(_, path)| path).collect()
}
