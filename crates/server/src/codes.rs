//! Game codes people read out to each other, and the secret tokens that hold seats.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// No 0/O, 1/I/L: a code read over the phone comes through.
const CODE_LETTERS: &[u8] = b"23456789ABCDEFGHJKMNPQRSTUVWXYZ";
pub const CODE_LENGTH: usize = 6;

/// A fresh code for a game (about 887 million of them).
pub fn new_code() -> String {
    let mut rng = StdRng::from_os_rng();
    (0..CODE_LENGTH)
        .map(|_| CODE_LETTERS[rng.random_range(0..CODE_LETTERS.len())] as char)
        .collect()
}

/// A seat's token: 128 random bits in hex, from the operating system.
pub fn new_token() -> String {
    let mut rng = StdRng::from_os_rng();
    let bits: u128 = rng.random();
    format!("{bits:032x}")
}

/// A code as a person may type it: any case, spaces and dashes ignored.
pub fn normalize_code(text: &str) -> Result<String, String> {
    let code: String = text
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .map(|c| c.to_ascii_uppercase())
        .collect();
    if code.len() == CODE_LENGTH && code.bytes().all(|b| CODE_LETTERS.contains(&b)) {
        Ok(code)
    } else {
        let shown: String = text.chars().take(20).collect();
        Err(format!(
            "{shown:?} is not a game code ({CODE_LENGTH} letters and digits)"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_and_tokens_look_right() {
        let code = new_code();
        assert_eq!(normalize_code(&code.to_lowercase()), Ok(code.clone()));
        assert_eq!(
            normalize_code(&format!(" {}-{} ", &code[..3], &code[3..])),
            Ok(code)
        );
        assert!(normalize_code("ABC10O").is_err());
        assert!(
            normalize_code("ABCD")
                .unwrap_err()
                .contains("not a game code")
        );
        let token = new_token();
        assert_eq!(token.len(), 32);
        assert_ne!(token, new_token());
    }
}
