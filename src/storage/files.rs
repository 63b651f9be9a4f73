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

/// The largest file read back. The record of a long game is tens of kilobytes: this only
/// refuses what the game never wrote, before it fills memory.
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// The text of a regular file of at most [`MAX_FILE_BYTES`]; `None` if there is no file.
pub fn read(path: &Path) -> std::io::Result<Option<String>> {
    let Some(bytes) = read_bytes(path)? else {
        return Ok(None);
    };
    String::from_utf8(bytes).map(Some).map_err(|e| {
        let why = format!("not UTF-8 text: {}", e.utf8_error());
        std::io::Error::new(ErrorKind::InvalidData, why)
    })
}

/// The bytes of a regular file of at most [`MAX_FILE_BYTES`]; `None` if there is no file.
fn read_bytes(path: &Path) -> std::io::Result<Option<Vec<u8>>> {
    match tabula_files::read_bounded(path, MAX_FILE_BYTES, "a saved file") {
        Ok(bytes) => Ok(Some(bytes)),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// Writes through a temporary file and a rename; the replaced file becomes `PATH.bak`.
pub fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    write_through(&mut Disk, path, text)
}

/// The file operations a save is made of, so tests can make any of them fail part-way
/// as a full disk, a read-only folder or a crash would.
pub trait WriteSteps {
    fn create_dir_all(&mut self, dir: &Path) -> std::io::Result<()>;
    /// Creates or truncates `path`, writes `bytes` and waits for them to reach the disk.
    fn write_synced(&mut self, path: &Path, bytes: &[u8]) -> std::io::Result<()>;
    fn rename(&mut self, from: &Path, to: &Path) -> std::io::Result<()>;
    fn remove(&mut self, path: &Path);
}

/// The real file system.
pub struct Disk;

impl WriteSteps for Disk {
    fn create_dir_all(&mut self, dir: &Path) -> std::io::Result<()> {
        std::fs::create_dir_all(dir)
    }

    fn write_synced(&mut self, path: &Path, bytes: &[u8]) -> std::io::Result<()> {
        let mut file = std::fs::File::create(path)?;
        file.write_all(bytes)?;
        file.sync_all()
    }

    fn rename(&mut self, from: &Path, to: &Path) -> std::io::Result<()> {
        std::fs::rename(from, to)
    }

    fn remove(&mut self, path: &Path) {
        let _ = std::fs::remove_file(path);
    }
}

/// A save in steps that each leave a whole file behind: the new text goes to `PATH.tmp`;
/// the old file is copied to `PATH.bak.tmp` and renamed to `PATH.bak` (so a good backup
/// is never replaced by a partial one); only then is `PATH.tmp` renamed over `PATH`. A
/// failure at any step leaves `PATH` as it was, and removes the partial temporary file (a
/// crash leaves it, and the next save writes over it).
pub fn write_through(steps: &mut impl WriteSteps, path: &Path, text: &str) -> std::io::Result<()> {
    if let Some(parent) = path.parent() {
        steps
            .create_dir_all(parent)
            .map_err(|e| naming(e, "making the folder", parent))?;
    }
    let temporary = with_suffix(path, ".tmp");
    if let Err(e) = steps.write_synced(&temporary, text.as_bytes()) {
        steps.remove(&temporary);
        return Err(naming(e, "writing", &temporary));
    }
    // What is there is copied only if the game could read it back: a pipe would wait, a
    // huge file fill memory, and either is left as it is, the save refused.
    let kept = match read_bytes(path) {
        Ok(Some(old)) => keep_backup(steps, path, &old),
        Ok(None) => Ok(()),
        Err(e) => Err(naming(e, "reading", path)),
    };
    let replaced = kept.and_then(|()| {
        steps
            .rename(&temporary, path)
            .map_err(|e| naming(e, "renaming", &temporary))
    });
    if let Err(e) = replaced {
        steps.remove(&temporary);
        return Err(e);
    }
    Ok(())
}

/// The error with the step and the file it failed on, which may not be the file saved
/// (its temporary copy or its backup).
fn naming(error: std::io::Error, step: &str, path: &Path) -> std::io::Error {
    let name = path
        .file_name()
        .unwrap_or(path.as_os_str())
        .to_string_lossy();
    std::io::Error::new(error.kind(), format!("{error} ({step} {name})"))
}

fn keep_backup(steps: &mut impl WriteSteps, path: &Path, old: &[u8]) -> std::io::Result<()> {
    let backup = with_suffix(path, ".bak");
    let temporary = with_suffix(&backup, ".tmp");
    let written = steps
        .write_synced(&temporary, old)
        .map_err(|e| naming(e, "writing the backup", &temporary));
    let renamed = written.and_then(|()| {
        steps
            .rename(&temporary, &backup)
            .map_err(|e| naming(e, "renaming the backup", &temporary))
    });
    if let Err(e) = renamed {
        steps.remove(&temporary);
        return Err(e);
    }
    Ok(())
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
