//! `online-sessions.ron` in the data directory (`TABULA_DATA_DIR`, or `tabula` in the
//! platform's data directory, beside the app's saves): written like a save, the last
//! version kept as `.bak`, readable by its owner alone; a damaged file is set aside as
//! `.unreadable`, never written over.

use std::path::PathBuf;
use tabula_online::sessions::{KeptSession, KeptSessions, SESSIONS_FILE};

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
    let shown = path.display().to_string();
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    if path.exists() {
        std::fs::copy(&path, path.with_extension("ron.bak"))
            .map_err(|e| format!("cannot keep a backup of {shown}: {e}"))?;
    }
    let partial = path.with_extension("ron.partial");
    write_private(&partial, kept.to_text().as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", partial.display()))?;
    std::fs::rename(&partial, &path).map_err(|e| format!("cannot write {shown}: {e}"))
}

/// Writes a file only its owner may read: a session is as good as a password.
fn write_private(path: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}
