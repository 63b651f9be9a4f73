//! `online-sessions.ron` in the data directory (`TABULA_DATA_DIR`, or `tabula` in the
//! platform's data directory, beside the app's saves): written like a save, the last
//! version kept as `.bak`, readable by its owner alone; a damaged file is set aside as
//! `.unreadable`, never written over.

use std::path::PathBuf;
use tabula_online::sessions::{KeptSession, KeptSessions, SESSIONS_FILE, write_private};

/// A sessions file is a few lines per server.
const MAX_BYTES: u64 = 1 << 20;

fn path() -> Result<PathBuf, String> {
    std::env::var_os("TABULA_DATA_DIR")
        .map(PathBuf::from)
        .or_else(|| dirs::data_dir().map(|d| d.join("tabula")))
        .map(|dir| dir.join(SESSIONS_FILE))
        .ok_or_else(|| "no data directory is known here: set TABULA_DATA_DIR".to_string())
}

/// The sessions kept; a file that cannot be read is set aside (and said so) first.
fn load_sessions() -> Result<KeptSessions, String> {
    let path = path()?;
    if !path.exists() {
        return Ok(KeptSessions::default());
    }
    let read = tabula_files::read_bounded(&path, MAX_BYTES, "a sessions file")
        .map_err(|e| e.to_string())
        .and_then(|bytes| String::from_utf8(bytes).map_err(|_| "not UTF-8 text".to_string()))
        .and_then(|text| KeptSessions::parse(&text));
    match read {
        Ok(kept) => Ok(kept),
        Err(why) => {
            let aside = path.with_extension("ron.unreadable");
            std::fs::rename(&path, &aside)
                .map_err(|e| format!("{}: {why}; cannot set it aside: {e}", path.display()))?;
            eprintln!(
                "{} could not be read ({why}): set aside as {}",
                path.display(),
                aside.display()
            );
            Ok(KeptSessions::default())
        }
    }
}

/// The session kept for `server`, if any.
pub fn kept_session(server: &str) -> Result<Option<KeptSession>, String> {
    Ok(load_sessions()?.get(server).cloned())
}

pub fn keep(server: &str, name: &str, session: &str, expires_ms: u64) -> Result<(), String> {
    let mut kept = load_sessions()?;
    kept.set(server, name, session, expires_ms)?;
    save(&kept)
}

pub fn forget(server: &str) -> Result<(), String> {
    let mut kept = load_sessions()?;
    if kept.remove(server).is_some() {
        save(&kept)?;
    }
    Ok(())
}

fn save(kept: &KeptSessions) -> Result<(), String> {
    let path = path()?;
    write_private(&path, &kept.to_text())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}
