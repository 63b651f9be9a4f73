//! Reading what a player names or saved, bounded: a file that is not a regular file (a
//! folder, a device, a pipe that would wait for a writer) is refused by its kind before it
//! is opened, and one over its limit by its length, so `/dev/zero` or a huge file never
//! hangs or fills a front end. The app reads its saves and `@FILE` option values with
//! this; the terminal reads its `@FILE` values.

use std::io::{Error, ErrorKind, Read};
use std::path::Path;

/// An option value's file is small text: a Super-Adaptoid board is a few hundred bytes.
const MAX_VALUE_FILE: u64 = 1 << 20;

/// The text of an `@FILE` option value: only a regular file of at most 1 MB.
pub fn read_value_file(path: &str) -> Result<String, String> {
    let bytes = read_bounded(Path::new(path), MAX_VALUE_FILE, "an option value")
        .map_err(|e| e.to_string())?;
    String::from_utf8(bytes).map_err(|_| "stream did not contain valid UTF-8".into())
}

/// The bytes of a regular file of at most `max_bytes`, which `what` names in the error
/// for a bigger one.
pub fn read_bounded(path: &Path, max_bytes: u64, what: &str) -> std::io::Result<Vec<u8>> {
    let too_big = |bytes: u64| {
        let why = format!("{bytes} bytes, more than the {max_bytes} {what} may have");
        Error::new(ErrorKind::InvalidData, why)
    };
    let metadata = std::fs::metadata(path)?;
    if !metadata.is_file() {
        return Err(Error::new(ErrorKind::InvalidData, "not a regular file"));
    }
    if metadata.len() > max_bytes {
        return Err(too_big(metadata.len()));
    }
    // The file may grow after the check: read no more than the limit, plus one byte to see it.
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(max_bytes + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max_bytes {
        return Err(too_big(bytes.len() as u64));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_regular_file_within_its_limit_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("board.txt");
        std::fs::write(&file, "abc").unwrap();
        assert_eq!(read_bounded(&file, 3, "a board").unwrap(), b"abc");
        let err = read_bounded(&file, 2, "a board").unwrap_err().to_string();
        assert_eq!(err, "3 bytes, more than the 2 a board may have");
        let err = read_bounded(dir.path(), 10, "a board").unwrap_err();
        assert_eq!(err.to_string(), "not a regular file");
        assert_eq!(
            read_bounded(&dir.path().join("none"), 10, "a board")
                .unwrap_err()
                .kind(),
            ErrorKind::NotFound
        );
        std::fs::write(&file, [0xff, 0xfe]).unwrap();
        let err = read_value_file(file.to_str().unwrap()).unwrap_err();
        assert!(err.contains("UTF-8"), "{err}");
    }
}
