//! Account names and passwords as the server allows them. A name is kept as written and
//! compared folded, so that no name can pass for another: case does not count, nor
//! `0`/`o`, `1`/`i`/`l`, or `-`/`_`.

use tabula_protocol::{MAX_NAME_CHARS, MAX_PASSWORD_CHARS, MIN_NAME_CHARS, MIN_PASSWORD_CHARS};

/// Folded names the server keeps for itself; and every name that ends in "bot", kept for
/// the server's own bots.
const RESERVED: &[&str] = &[
    "admin",
    "administrator",
    "anonymous",
    "deleted",
    "moderator",
    "nobody",
    "root",
    "server",
    "system",
    "tabula",
];

/// Why `name` cannot be an account's, if it cannot.
pub fn check_name(name: &str) -> Result<(), String> {
    let shown: String = name.chars().take(MAX_NAME_CHARS + 5).collect();
    let chars = name.chars().count();
    if !(MIN_NAME_CHARS..=MAX_NAME_CHARS).contains(&chars) {
        return Err(format!(
            "{shown:?}: a name has {MIN_NAME_CHARS} to {MAX_NAME_CHARS} characters, not {chars}"
        ));
    }
    if !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return Err(format!("{shown:?}: a name begins with a letter (a to z)"));
    }
    if let Some(c) = name
        .chars()
        .find(|&c| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
    {
        return Err(format!(
            "{shown:?}: a name has letters (a to z), digits, - and _ only, not {c:?}"
        ));
    }
    let key = name_key(name);
    if key.ends_with("bot") {
        return Err(format!(
            "{shown:?}: names that end in \"bot\" are kept for the server's bots"
        ));
    }
    if RESERVED.iter().any(|reserved| name_key(reserved) == key) {
        return Err(format!("{shown:?} is kept for the server: choose another"));
    }
    Ok(())
}

/// The name as it is compared with the others.
pub fn name_key(name: &str) -> String {
    name.chars()
        .map(|c| match c.to_ascii_lowercase() {
            '0' => 'o',
            '1' | 'i' => 'l',
            '-' => '_',
            c => c,
        })
        .collect()
}

/// Why `password` is not good enough for the account `name`, if it is not.
pub fn check_password(password: &str, name: &str) -> Result<(), String> {
    let chars = password.chars().count();
    if chars < MIN_PASSWORD_CHARS {
        return Err(format!(
            "a password has at least {MIN_PASSWORD_CHARS} characters (this one has {chars})"
        ));
    }
    if chars > MAX_PASSWORD_CHARS {
        return Err(format!(
            "a password has at most {MAX_PASSWORD_CHARS} characters (this one has {chars})"
        ));
    }
    if password.eq_ignore_ascii_case(name) {
        return Err("a password is not the account's name".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_look_alike_fold_to_one() {
        for (a, b) in [
            ("Alice", "alice"),
            ("Bo0k", "BOOK"),
            ("Il1ya", "llLya"),
            ("ann-x", "Ann_X"),
        ] {
            assert_eq!(name_key(a), name_key(b), "{a} and {b}");
        }
        assert_ne!(name_key("alice"), name_key("alicia"));
    }

    #[test]
    fn a_name_outside_the_rules_is_refused_with_its_reason() {
        for name in ["Ada", "go-player_7", "Z2345678901234567890"] {
            assert_eq!(check_name(name), Ok(()), "{name}");
        }
        for (name, why) in [
            ("Al", "3 to 20 characters, not 2"),
            ("Z23456789012345678901", "not 21"),
            ("7up", "begins with a letter"),
            ("-ab", "begins with a letter"),
            ("Ann Lee", "not ' '"),
            ("Zoë", "not 'ë'"),
            ("Chessbot", "kept for the server's bots"),
            ("ADM1N", "kept for the server"),
            ("Deleted", "kept for the server"),
        ] {
            let err = check_name(name).unwrap_err();
            assert!(err.contains(why), "{name}: {err}");
        }
    }

    #[test]
    fn a_password_outside_the_rules_is_refused_with_its_reason() {
        assert_eq!(check_password("correct horse", "Ada"), Ok(()));
        assert!(
            check_password("short", "Ada")
                .unwrap_err()
                .contains("at least 8")
        );
        assert!(
            check_password(&"x".repeat(MAX_PASSWORD_CHARS + 1), "Ada")
                .unwrap_err()
                .contains("at most")
        );
        assert!(
            check_password("LongName1", "longname1")
                .unwrap_err()
                .contains("not the account's name")
        );
    }
}
