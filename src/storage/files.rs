//! Saves as files in a directory, for the desktop.

use super::with_suffix;
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};

pub fn data_dir() -> Option<PathBuf> {
    std::env::var_os("TABULA_DATA_DIR")
        .map(PathBuf::from)
        .or_else(|| dirs::data_dir().map(|d| d.join("tabula")))
}

pub fn describe(dir: &Path) -> String {
    dir.display().to_string()
}

pub fn read(path: &Path) -> std::io::Result<Option<String>> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// Writes through a temporary file and a rename; the replaced file becomes `PATH.bak`.
pub fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    let temporary = with_suffix(path, ".tmp");
    {
        let mut file = std::fs::File::create(&temporary)?;
        file.write_all(text.as_bytes())?;
        file.sync_all()?;
    }
    if path.exists() {
        std::fs::copy(path, with_suffix(path, ".bak"))?;
    }
    std::fs::rename(&temporary, path)
}

pub fn rename(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::rename(from, to)
}

pub fn exists(path: &Path) -> bool {
    path.exists()
}

/// The `.ron` files in `dir`, newest first.
pub fn list(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<(std::time::SystemTime, PathBuf)> = entries
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "ron"))
        .map(|e| {
            let modified = e.metadata().and_then(|m| m.modified());
            (modified.unwrap_or(std::time::UNIX_EPOCH), e.path())
        })
        .collect();
    files.sort_by(|a, b| b.cmp(a));
    files.into_iter().map(|(_, path)| path).collect()
}
