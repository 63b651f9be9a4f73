//! Where the game keeps what the player saves: the autosaved game and saved records, in
//! the platform's data directory (`TABULA_DATA_DIR` overrides it), or in the browser's
//! local storage on the web. Every write goes to a temporary file that is then renamed
//! over the old one, and the old one is kept as `NAME.bak`, so a crash or a full disk
//! never leaves the player with nothing.

use bevy::prelude::*;
use std::path::{Path, PathBuf};

#[cfg(not(target_arch = "wasm32"))]
#[path = "storage/files.rs"]
mod backend;
#[cfg(target_arch = "wasm32")]
#[path = "storage/browser.rs"]
mod backend;

pub use backend::write_atomic;
#[cfg(not(target_arch = "wasm32"))]
pub use backend::{Disk, WriteSteps, write_through};
pub(crate) use backend::{exists as file_exists, read as read_file, rename as rename_file};

/// The data directory; `None` keeps nothing on disk (headless tests, or no home).
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct Storage {
    pub dir: Option<PathBuf>,
}

pub const AUTOSAVE: &str = "autosave.ron";
pub const RECORDS: &str = "records";

impl Storage {
    /// `TABULA_DATA_DIR`, or `tabula` in the platform's data directory; on the web,
    /// `tabula/` keys in local storage (if the browser allows it).
    pub fn platform() -> Storage {
        Storage {
            dir: backend::data_dir(),
        }
    }

    /// Where the files of `folder` are, in words, for the load window.
    pub fn describe(&self, folder: &str) -> Option<String> {
        self.path(folder).map(|path| backend::describe(&path))
    }

    pub fn at(dir: impl Into<PathBuf>) -> Storage {
        Storage {
            dir: Some(dir.into()),
        }
    }

    pub fn path(&self, name: &str) -> Option<PathBuf> {
        self.dir.as_ref().map(|dir| dir.join(name))
    }

    /// The text of `name`, or `None` if there is no such file.
    pub fn read(&self, name: &str) -> Result<Option<String>, String> {
        let Some(path) = self.path(name) else {
            return Ok(None);
        };
        backend::read(&path).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Writes `name` atomically, keeping the file it replaces as `NAME.bak`.
    pub fn write(&self, name: &str, text: &str) -> Result<PathBuf, String> {
        let path = self
            .path(name)
            .ok_or("there is no data directory to save in")?;
        write_atomic(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(path)
    }

    /// Moves `name` aside to a new name that says why, so it is kept but not read again.
    pub fn set_aside(&self, name: &str, why: &str) -> Result<PathBuf, String> {
        let path = self.path(name).ok_or("there is no data directory")?;
        let aside = free_name(&path.with_file_name(format!("{name}.{why}")));
        backend::rename(&path, &aside).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(aside)
    }

    /// A name for a new file in `folder` starting with `stem` that no file has yet.
    pub fn new_name(&self, folder: &str, stem: &str, extension: &str) -> Option<String> {
        let dir = self.path(folder)?;
        let path = free_name(&dir.join(format!("{stem}.{extension}")));
        let file = path.file_name()?.to_str()?;
        Some(format!("{folder}/{file}"))
    }

    /// The files in `folder`, newest first.
    pub fn list(&self, folder: &str) -> Vec<PathBuf> {
        match self.path(folder) {
            Some(dir) => backend::list(&dir),
            None => Vec::new(),
        }
    }

    /// The text of a file the load window listed.
    pub fn read_path(&self, path: &Path) -> Result<String, String> {
        match backend::read(path) {
            Ok(Some(text)) => Ok(text),
            Ok(None) => Err(format!("{}: there is no such file", path.display())),
            Err(e) => Err(format!("{}: {e}", path.display())),
        }
    }
}

pub(crate) fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// `path` itself if it is free, else the first of `stem-2.ext`, `stem-3.ext`, … that is.
pub fn free_name(path: &Path) -> PathBuf {
    if !backend::exists(path) {
        return path.to_path_buf();
    }
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("file");
    let extension = path.extension().and_then(|s| s.to_str());
    (2..)
        .map(|n| {
            let name = match extension {
                Some(ext) => format!("{stem}-{n}.{ext}"),
                None => format!("{stem}-{n}"),
            };
            path.with_file_name(name)
        })
        .find(|candidate| !backend::exists(candidate))
        .expect("some number is free")
}

/// A timestamp for file names, `YYYY-MM-DD-HHMMSS` in UTC.
pub fn timestamp() -> String {
    let seconds = web_time::SystemTime::now()
        .duration_since(web_time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rest) = (seconds / 86_400, seconds % 86_400);
    let (year, month, day) = civil_from_days(days as i64);
    format!(
        "{year:04}-{month:02}-{day:02}-{:02}{:02}{:02}",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

/// The calendar date of a day counted from 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("tabula-storage-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn writes_replace_atomically_and_keep_the_old_file() {
        let dir = scratch("write");
        let storage = Storage::at(&dir);
        assert_eq!(storage.read("a.ron"), Ok(None));
        storage.write("a.ron", "first").unwrap();
        storage.write("a.ron", "second").unwrap();
        assert_eq!(storage.read("a.ron"), Ok(Some("second".to_string())));
        assert_eq!(storage.read("a.ron.bak"), Ok(Some("first".to_string())));
        assert!(!dir.join("a.ron.tmp").exists());

        let name = storage.new_name(RECORDS, "game", "ron").unwrap();
        assert_eq!(name, "records/game.ron");
        storage.write(&name, "kept").unwrap();
        assert_eq!(
            storage.new_name(RECORDS, "game", "ron").unwrap(),
            "records/game-2.ron"
        );
        assert_eq!(storage.list(RECORDS), vec![dir.join("records/game.ron")]);

        let aside = storage.set_aside("a.ron", "unreadable").unwrap();
        assert_eq!(std::fs::read_to_string(aside).unwrap(), "second");
        assert_eq!(storage.read("a.ron"), Ok(None));
        std::fs::remove_dir_all(&dir).unwrap();

        let nowhere = Storage::default();
        assert_eq!(nowhere.read("a.ron"), Ok(None));
        assert!(nowhere.write("a.ron", "x").is_err());
    }

    /// A file the game never wrote (huge, not text, not a file at all) is refused with a
    /// reason, quickly, and left where it is.
    #[test]
    fn reading_refuses_what_is_not_a_saved_file() {
        let dir = scratch("refuse");
        let storage = Storage::at(&dir);
        std::fs::create_dir_all(&dir).unwrap();

        // Sparse: it takes no room on the disk.
        let huge = std::fs::File::create(dir.join("huge.ron")).unwrap();
        huge.set_len(backend::MAX_FILE_BYTES + 1).unwrap();
        let error = storage.read("huge.ron").unwrap_err();
        assert!(error.contains("more than the"), "{error}");
        let exact = std::fs::File::create(dir.join("exact.ron")).unwrap();
        exact.set_len(backend::MAX_FILE_BYTES).unwrap();
        assert_eq!(
            storage
                .read("exact.ron")
                .unwrap()
                .map(|text| text.len() as u64),
            Some(backend::MAX_FILE_BYTES)
        );

        std::fs::create_dir(dir.join("folder.ron")).unwrap();
        let error = storage.read("folder.ron").unwrap_err();
        assert!(error.contains("not a regular file"), "{error}");

        std::fs::write(dir.join("binary.ron"), b"(moves: [\xff])").unwrap();
        let error = storage.read("binary.ron").unwrap_err();
        assert!(error.contains("not UTF-8"), "{error}");

        // A pipe would make opening it wait for a writer that never comes.
        #[cfg(unix)]
        {
            let made = std::process::Command::new("mkfifo")
                .arg(dir.join("pipe.ron"))
                .status()
                .unwrap();
            assert!(made.success());
            let error = storage.read_path(&dir.join("pipe.ron")).unwrap_err();
            assert!(error.contains("not a regular file"), "{error}");
        }

        // A save does not write over such a file, nor copy it as its backup.
        let error = storage.write("huge.ron", "(moves: [])").unwrap_err();
        assert!(error.contains("more than the"), "{error}");
        let huge = std::fs::metadata(dir.join("huge.ron")).unwrap();
        assert_eq!(huge.len(), backend::MAX_FILE_BYTES + 1);
        assert!(!dir.join("huge.ron.bak").exists());

        // The autosave too: the player is told, and the file is set aside whole, so the
        // next autosave cannot write over it.
        std::fs::rename(dir.join("huge.ron"), dir.join(AUTOSAVE)).unwrap();
        let (record, problem) = crate::saving::read_autosave(&storage);
        assert!(record.is_none());
        let problem = problem.unwrap();
        assert!(
            problem.contains("could not be read")
                && problem.contains("more than the")
                && problem.contains("kept as"),
            "{problem}"
        );
        assert!(!dir.join(AUTOSAVE).exists());
        let aside = std::fs::metadata(dir.join("autosave.ron.unreadable")).unwrap();
        assert_eq!(aside.len(), backend::MAX_FILE_BYTES + 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Fails one step of a save: after `bytes` bytes for a write (a full disk), at once for
    /// anything else (a folder that cannot be written). `crash` leaves what a killed process
    /// would: no clean-up either.
    struct Faulty {
        fail_at: usize,
        bytes: usize,
        crash: bool,
        step: usize,
    }

    impl Faulty {
        fn fails_now(&mut self) -> bool {
            self.step += 1;
            self.step - 1 == self.fail_at
        }

        fn failed(&self) -> bool {
            self.step > self.fail_at
        }
    }

    fn full() -> std::io::Error {
        std::io::Error::new(std::io::ErrorKind::StorageFull, "no space left on the disk")
    }

    impl WriteSteps for Faulty {
        fn create_dir_all(&mut self, dir: &Path) -> std::io::Result<()> {
            if self.fails_now() {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::ReadOnlyFilesystem,
                    "the folder is read-only",
                ));
            }
            Disk.create_dir_all(dir)
        }

        fn write_synced(&mut self, path: &Path, bytes: &[u8]) -> std::io::Result<()> {
            if self.fails_now() {
                std::fs::write(path, &bytes[..self.bytes.min(bytes.len())]).unwrap();
                return Err(full());
            }
            Disk.write_synced(path, bytes)
        }

        fn rename(&mut self, from: &Path, to: &Path) -> std::io::Result<()> {
            if self.fails_now() {
                return Err(full());
            }
            Disk.rename(from, to)
        }

        fn remove(&mut self, path: &Path) {
            if !self.crash {
                Disk.remove(path);
            }
        }
    }

    /// Every step of a save failed, after every number of bytes written, with and without
    /// the clean-up a crash skips: the saved file keeps its old text whole, the backup is
    /// whole (the old text or the one before), and the error says why. A save after a
    /// crash replaces what the crash left.
    #[test]
    fn a_save_that_fails_part_way_leaves_the_old_file_whole() {
        const STEPS: usize = 5;
        let (older, old, new) = ("(older)", "(the old save)", "(the new save, the longest)");
        let dir = scratch("faults");
        let storage = Storage::at(&dir);
        let path = storage.path("save.ron").unwrap();
        for fail_at in 0..=STEPS {
            // Steps 1 and 2 write (the new text, then the backup); the others do not.
            let byte_counts = if matches!(fail_at, 1 | 2) {
                new.len()
            } else {
                0
            };
            for bytes in 0..=byte_counts {
                for crash in [false, true] {
                    let _ = std::fs::remove_dir_all(&dir);
                    storage.write("save.ron", older).unwrap();
                    storage.write("save.ron", old).unwrap();
                    let mut faulty = Faulty {
                        fail_at,
                        bytes,
                        crash,
                        step: 0,
                    };
                    let result = write_through(&mut faulty, &path, new);
                    let case = format!("step {fail_at}, {bytes} bytes, crash {crash}");
                    let read = |name: &str| storage.read(name).unwrap();
                    if faulty.failed() {
                        let error = result.expect_err(&case).to_string();
                        assert!(
                            error.contains("read-only") || error.contains("no space"),
                            "{case}: {error}"
                        );
                        assert_eq!(read("save.ron").as_deref(), Some(old), "{case}");
                        let backup = read("save.ron.bak");
                        assert!(
                            matches!(backup.as_deref(), Some(b) if b == older || b == old),
                            "{case}: {backup:?}"
                        );
                        if !crash {
                            assert_eq!(read("save.ron.tmp"), None, "{case}");
                            assert_eq!(read("save.ron.bak.tmp"), None, "{case}");
                        }
                        storage.write("save.ron", new).unwrap();
                    } else {
                        result.unwrap();
                    }
                    assert_eq!(read("save.ron").as_deref(), Some(new), "{case}");
                    assert_eq!(read("save.ron.bak").as_deref(), Some(old), "{case}");
                    assert_eq!(read("save.ron.tmp"), None, "{case}");
                    if fail_at == STEPS {
                        break;
                    }
                }
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn dates_are_civil() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_415), (2025, 11, 23));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }
}
