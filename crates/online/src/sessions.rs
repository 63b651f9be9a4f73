//! The accounts a player is logged in to, one per server: what the terminal keeps in
//! `online-sessions.ron` beside the saved games (and what the app will keep there too).
//! A session is as good as the password for as long as it lasts, so the file holds
//! nothing else and is the player's alone.

use crate::connection::socket_url;
use serde::{Deserialize, Serialize};
use tabula_session::rules::text::shown_line;

pub const SESSIONS_FILE: &str = "online-sessions.ron";

/// The most sessions kept: one per server, and nobody plays on a hundred servers.
const MAX_KEPT: usize = 100;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct KeptSessions {
    #[serde(default)]
    pub sessions: Vec<KeptSession>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeptSession {
    /// The server's socket address (see [`socket_url`]), so that `127.0.0.1:8080` and
    /// `http://127.0.0.1:8080` are one server.
    pub server: String,
    pub name: String,
    pub session: String,
    /// When the server said the session ends unless used, in milliseconds since the epoch.
    pub expires_ms: u64,
}

impl KeptSessions {
    /// The sessions a file holds, or what is wrong with it.
    pub fn parse(text: &str) -> Result<KeptSessions, String> {
        // Cut short: an error may quote what it could not read, a whole line of it.
        ron::from_str(text).map_err(|e| shown_line(&format!("{SESSIONS_FILE}: {e}")))
    }

    pub fn to_text(&self) -> String {
        ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default())
            .expect("sessions always serialize")
    }

    /// The session kept for `server`, if any.
    pub fn get(&self, server: &str) -> Option<&KeptSession> {
        let server = socket_url(server).ok()?;
        self.sessions.iter().find(|s| s.server == server)
    }

    /// Keeps `name`'s session for `server`, in place of any other there.
    pub fn set(
        &mut self,
        server: &str,
        name: &str,
        session: &str,
        expires_ms: u64,
    ) -> Result<(), String> {
        let server = socket_url(server)?;
        self.sessions.retain(|s| s.server != server);
        self.sessions.push(KeptSession {
            server,
            name: name.to_string(),
            session: session.to_string(),
            expires_ms,
        });
        let extra = self.sessions.len().saturating_sub(MAX_KEPT);
        self.sessions.drain(..extra);
        Ok(())
    }

    /// Forgets the session kept for `server`; the one forgotten, if there was one.
    pub fn remove(&mut self, server: &str) -> Option<KeptSession> {
        let server = socket_url(server).ok()?;
        let at = self.sessions.iter().position(|s| s.server == server)?;
        Some(self.sessions.remove(at))
    }
}

/// Writes `text` to `path` so that only its owner may read it (on Unix; elsewhere the
/// folder's own permissions hold), at every step: the new text goes to a file of this
/// process's own (`PATH.partial-PID`, owner-only before anything is in it, removed if the
/// write fails), the file it replaces is copied to `PATH.bak` (owner-only before the copy),
/// then the new one takes its place in one rename.
#[cfg(not(target_arch = "wasm32"))]
pub fn write_private(path: &std::path::Path, text: &str) -> std::io::Result<()> {
    let with = |suffix: &str| {
        let mut name = path.as_os_str().to_owned();
        name.push(suffix);
        std::path::PathBuf::from(name)
    };
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let partial = with(&format!(".partial-{}", std::process::id()));
    let written = (|| {
        let mut file = create_private(&partial)?;
        std::io::Write::write_all(&mut file, text.as_bytes())?;
        file.sync_all()?;
        if path.exists() {
            let mut backup = create_private(&with(".bak"))?;
            std::io::copy(&mut std::fs::File::open(path)?, &mut backup)?;
            backup.sync_all()?;
        }
        std::fs::rename(&partial, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    written
}

/// A file created (or emptied) that only its owner may read, even one left readable by
/// an older version.
#[cfg(not(target_arch = "wasm32"))]
fn create_private(path: &std::path::Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let file = options.open(path)?;
    owner_only(path)?;
    Ok(file)
}

#[cfg(all(unix, not(target_arch = "wasm32")))]
fn owner_only(path: &std::path::Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
}

#[cfg(all(not(unix), not(target_arch = "wasm32")))]
fn owner_only(_path: &std::path::Path) -> std::io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_session_per_server_however_it_is_written() {
        let mut kept = KeptSessions::default();
        kept.set("127.0.0.1:8080", "Ada", "aa", 5).unwrap();
        kept.set("http://127.0.0.1:8080/", "Bea", "bb", 6).unwrap();
        kept.set("http://127.0.0.1:9090", "Ada", "cc", 7).unwrap();
        assert_eq!(kept.sessions.len(), 2);
        assert_eq!(kept.get("ws://127.0.0.1:8080/ws").unwrap().name, "Bea");
        let again = KeptSessions::parse(&kept.to_text()).unwrap();
        assert_eq!(again, kept);
        assert_eq!(kept.remove("127.0.0.1:9090").unwrap().session, "cc");
        assert!(kept.get("127.0.0.1:9090").is_none());
        assert!(kept.set("ftp://x", "Ada", "dd", 1).is_err());
        let err = KeptSessions::parse("(sessions: [(server: 3)])").unwrap_err();
        assert!(err.contains(SESSIONS_FILE), "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn a_sessions_file_and_its_backup_are_the_owners_alone() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("deeper").join(SESSIONS_FILE);
        write_private(&path, "first").unwrap();
        // An older file, readable by all, is replaced and its backup is not readable.
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        write_private(&path, "second").unwrap();
        let mode = |name: &str| {
            let file = path.with_file_name(name);
            std::fs::metadata(file).unwrap().permissions().mode() & 0o777
        };
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "second");
        assert_eq!(mode(SESSIONS_FILE), 0o600);
        let backup = format!("{SESSIONS_FILE}.bak");
        assert_eq!(
            std::fs::read_to_string(path.with_file_name(&backup)).unwrap(),
            "first"
        );
        assert_eq!(mode(&backup), 0o600);
    }
}
