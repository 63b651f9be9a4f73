//! The kept corpus: for each target, one archive of its inputs (`fuzz/corpus/TARGET.tar.gz`,
//! named by content as libFuzzer names them), and beside it a folder of inputs kept under
//! names of their own (`fuzz/corpus/TARGET/`: the regressions, inputs that once failed).
//! One archive a target instead of a file an input keeps the repository small (twenty
//! thousand inputs were 98% of its files). The archives are written deterministically, so
//! an unchanged corpus packs to the same bytes.

use flate2::Compression;
use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

/// An input's name and bytes.
pub type Inputs = BTreeMap<String, Vec<u8>>;

/// The largest archive read, and the largest input in it: far past any corpus kept.
const MAX_ARCHIVE_BYTES: u64 = 256 << 20;
const MAX_INPUT_BYTES: u64 = 1 << 20;

pub fn archive_path(corpus: &Path, target: &str) -> PathBuf {
    corpus.join(format!("{target}.tar.gz"))
}

/// The inputs in `target`'s archive (none if it has none).
pub fn read_archive(corpus: &Path, target: &str) -> Result<Inputs, String> {
    let path = archive_path(corpus, target);
    let at = |e: std::io::Error| format!("{}: {e}", path.display());
    let file = match std::fs::File::open(&path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Inputs::new()),
        Err(e) => return Err(at(e)),
    };
    let unzipped = GzDecoder::new(file.take(MAX_ARCHIVE_BYTES)).take(MAX_ARCHIVE_BYTES);
    let mut archive = tar::Archive::new(unzipped);
    let mut inputs = Inputs::new();
    for entry in archive.entries().map_err(at)? {
        let entry = entry.map_err(at)?;
        if entry.header().entry_type() != tar::EntryType::Regular {
            continue;
        }
        let name = entry
            .path()
            .map_err(at)?
            .file_name()
            .and_then(|n| n.to_str())
            .ok_or_else(|| format!("{}: an entry without a file name", path.display()))?
            .to_string();
        let mut bytes = Vec::new();
        entry
            .take(MAX_INPUT_BYTES)
            .read_to_end(&mut bytes)
            .map_err(at)?;
        inputs.insert(name, bytes);
    }
    Ok(inputs)
}

/// The files in `dir`, by name (none if there is no such folder).
pub fn read_folder(dir: &Path) -> Result<Inputs, String> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Inputs::new()),
        Err(e) => return Err(format!("{}: {e}", dir.display())),
    };
    let mut inputs = Inputs::new();
    for entry in entries.flatten() {
        let path = entry.path();
        if !path.is_file() {
            continue;
        }
        let name = entry.file_name().to_string_lossy().into_owned();
        let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        inputs.insert(name, bytes);
    }
    Ok(inputs)
}

/// Every input kept for `target`, by name: its archive's and its folder's.
pub fn kept(corpus: &Path, target: &str) -> Result<Inputs, String> {
    let mut inputs = read_archive(corpus, target)?;
    inputs.extend(read_folder(&corpus.join(target))?);
    Ok(inputs)
}

/// Every input kept for `target`, in name order.
pub fn read(corpus: &Path, target: &str) -> Result<Vec<Vec<u8>>, String> {
    Ok(kept(corpus, target)?.into_values().collect())
}

/// Writes `inputs` as `target`'s archive, leaving out those its folder keeps by name.
/// Written beside it and renamed over it, so a failed write leaves the old one whole.
pub fn write_archive(corpus: &Path, target: &str, inputs: &Inputs) -> Result<usize, String> {
    let named = read_folder(&corpus.join(target))?;
    let path = archive_path(corpus, target);
    let at = |e: std::io::Error| format!("{}: {e}", path.display());
    let mut builder = tar::Builder::new(GzEncoder::new(Vec::new(), Compression::best()));
    let mut written = 0;
    for (name, bytes) in inputs.iter().filter(|(name, _)| !named.contains_key(*name)) {
        let mut header = tar::Header::new_gnu();
        header.set_size(bytes.len() as u64);
        header.set_mode(0o644);
        header.set_mtime(0);
        header.set_entry_type(tar::EntryType::Regular);
        builder
            .append_data(&mut header, name, bytes.as_slice())
            .map_err(at)?;
        written += 1;
    }
    let packed = builder
        .into_inner()
        .and_then(|gz| gz.finish())
        .map_err(at)?;
    let partial = path.with_extension("gz.partial");
    std::fs::write(&partial, packed).map_err(at)?;
    std::fs::rename(&partial, &path).map_err(at)?;
    Ok(written)
}

/// Adds `inputs` to `target`'s archive; how many it holds then.
pub fn add(corpus: &Path, target: &str, inputs: Inputs) -> Result<usize, String> {
    let mut all = read_archive(corpus, target)?;
    all.extend(inputs);
    write_archive(corpus, target, &all)
}

/// Writes every input kept for `target` (archive and folder) as files in `into`, for a
/// fuzzer that wants a folder; how many.
pub fn unpack(corpus: &Path, target: &str, into: &Path) -> Result<usize, String> {
    std::fs::create_dir_all(into).map_err(|e| format!("{}: {e}", into.display()))?;
    let inputs = kept(corpus, target)?;
    for (name, bytes) in &inputs {
        let path = into.join(name);
        std::fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(inputs.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_archive_reads_back_and_packs_to_the_same_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let corpus = dir.path();
        let inputs: Inputs = [("b", &b"second"[..]), ("a", b""), ("c", &[0, 255, 10])]
            .into_iter()
            .map(|(n, b)| (n.to_string(), b.to_vec()))
            .collect();
        assert_eq!(write_archive(corpus, "t", &inputs).unwrap(), 3);
        let first = std::fs::read(archive_path(corpus, "t")).unwrap();
        assert_eq!(read_archive(corpus, "t").unwrap(), inputs);
        write_archive(corpus, "t", &inputs).unwrap();
        assert_eq!(std::fs::read(archive_path(corpus, "t")).unwrap(), first);
        // A named input in the folder is read with the archive's, and kept out of it.
        std::fs::create_dir(corpus.join("t")).unwrap();
        std::fs::write(corpus.join("t").join("regression-x"), b"x").unwrap();
        assert_eq!(read(corpus, "t").unwrap().len(), 4);
        let mut with_named = inputs.clone();
        with_named.insert("regression-x".into(), b"x".to_vec());
        assert_eq!(write_archive(corpus, "t", &with_named).unwrap(), 3);
        let out = corpus.join("out");
        assert_eq!(unpack(corpus, "t", &out).unwrap(), 4);
        assert_eq!(read_folder(&out).unwrap(), with_named);
        assert_eq!(add(corpus, "t", [("d".into(), vec![1])].into()).unwrap(), 4);
        assert!(read(corpus, "none").unwrap().is_empty());
    }

    #[test]
    fn a_damaged_archive_is_an_error_not_a_panic() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(archive_path(dir.path(), "t"), b"not a gzip file").unwrap();
        assert!(read(dir.path(), "t").is_err());
    }
}
