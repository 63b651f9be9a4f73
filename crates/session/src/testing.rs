//! Helpers for tests of the crates that read what players keep (records, settings).

/// Damages `text` as a crash or a careless edit might: cut at `cut`, then overwrite bytes
/// with printable characters.
pub fn damage(text: &str, cut: usize, edits: &[(usize, u8)]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    bytes.truncate(cut % (bytes.len() + 1));
    for &(at, byte) in edits {
        if !bytes.is_empty() {
            let at = at % bytes.len();
            bytes[at] = b' ' + byte % 95;
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}
