//! The sessions kept, one per server, in `online-sessions.ron` with the saved games (on
//! disk written as the terminal writes it: its owner's alone; in the browser, local storage).

use crate::config::ConfigProblems;
use crate::storage::Storage;
use bevy::prelude::*;
use tabula_online::sessions::{KeptSession, KeptSessions, SESSIONS_FILE};

/// The sessions kept, one per server.
#[derive(Resource, Default)]
pub struct Accounts {
    pub(super) kept: KeptSessions,
    /// Why the file could not be read: it is then never written over.
    unreadable: Option<String>,
}

impl Accounts {
    /// The session kept for `server`, if any.
    pub fn on(&self, server: &str) -> Option<&KeptSession> {
        self.kept.get(server)
    }

    /// Forgets the session kept for `server`, on disk too.
    pub fn forget(&mut self, server: &str, storage: &Storage) -> Result<(), String> {
        forget(self, server, storage)
    }

    fn read(storage: &Storage) -> (Accounts, Option<String>) {
        let text = match storage.read(SESSIONS_FILE) {
            Ok(Some(text)) => text,
            Ok(None) => return (Accounts::default(), None),
            Err(e) => {
                let problem = format!("Your online accounts could not be read: {e}");
                let accounts = Accounts {
                    unreadable: Some(problem.clone()),
                    ..Accounts::default()
                };
                return (accounts, Some(problem));
            }
        };
        match KeptSessions::parse(&text) {
            Ok(kept) => (
                Accounts {
                    kept,
                    unreadable: None,
                },
                None,
            ),
            Err(e) => {
                let kept = storage
                    .set_aside(SESSIONS_FILE, "unreadable")
                    .map_or_else(|e| e, |path| format!("kept as {}", path.display()));
                let problem = format!("Your online accounts are damaged ({e}); {kept}.");
                (Accounts::default(), Some(problem))
            }
        }
    }

    pub(super) fn save(&self, storage: &Storage) -> Result<(), String> {
        if storage.dir.is_none() {
            return Ok(());
        }
        if let Some(why) = &self.unreadable {
            return Err(format!("{why}; it is left as it is"));
        }
        write(storage, &self.kept.to_text())
            .map_err(|e| format!("Your online account could not be kept: {e}"))
    }
}

/// A session is as good as a password while it lasts: on disk, the file (and its backup)
/// are their owner's alone, as the terminal writes them.
#[cfg(not(target_arch = "wasm32"))]
fn write(storage: &Storage, text: &str) -> Result<(), String> {
    let path = storage
        .path(SESSIONS_FILE)
        .ok_or("there is no data directory to save in")?;
    tabula_online::sessions::write_private(&path, text)
        .map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(target_arch = "wasm32")]
fn write(storage: &Storage, text: &str) -> Result<(), String> {
    storage.write(SESSIONS_FILE, text).map(drop)
}

pub(super) fn read_accounts(
    storage: Res<Storage>,
    mut accounts: ResMut<Accounts>,
    mut problems: ResMut<ConfigProblems>,
) {
    let (read, problem) = Accounts::read(&storage);
    *accounts = read;
    problems.0.extend(problem);
}

pub(super) fn forget(
    accounts: &mut Accounts,
    server: &str,
    storage: &Storage,
) -> Result<(), String> {
    if accounts.kept.remove(server).is_some() {
        accounts.save(storage)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sessions_are_kept_for_the_owner_alone_and_a_damaged_file_is_set_aside() {
        let dir = tempfile::tempdir().unwrap();
        let storage = Storage::at(dir.path());
        let (mut accounts, problem) = Accounts::read(&storage);
        assert_eq!(problem, None);
        accounts
            .kept
            .set("127.0.0.1:8080", "Ada", "0123456789abcdef", 5)
            .unwrap();
        accounts.save(&storage).unwrap();
        let (again, _) = Accounts::read(&storage);
        assert_eq!(again.on("http://127.0.0.1:8080").unwrap().name, "Ada");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            accounts.save(&storage).unwrap();
            for name in [SESSIONS_FILE.to_string(), format!("{SESSIONS_FILE}.bak")] {
                let path = dir.path().join(name);
                let mode = std::fs::metadata(path).unwrap().permissions().mode();
                assert_eq!(mode & 0o777, 0o600);
            }
        }
        std::fs::write(dir.path().join(SESSIONS_FILE), "(sessions: [oops").unwrap();
        let (damaged, problem) = Accounts::read(&storage);
        assert!(damaged.on("127.0.0.1:8080").is_none());
        let problem = problem.unwrap();
        assert!(problem.contains("damaged"), "{problem}");
        let aside = dir.path().join(format!("{SESSIONS_FILE}.unreadable"));
        assert_eq!(
            std::fs::read_to_string(aside).unwrap(),
            "(sessions: [oops",
            "the damaged file is kept as it was"
        );
    }
}
