//! Text a person typed, as messages quote it, and whole numbers read from it with their
//! range named when they fall outside it.

use std::ops::RangeInclusive;

/// Characters of typed text a message quotes (counted as shown, escapes included);
/// longer text is cut with its length given.
const QUOTED_CHARS: usize = 40;

/// `text` in double quotes for a message: control characters escaped, so that input cannot
/// start a line of its own or send escape sequences to a terminal, and long text cut short.
pub fn quoted(text: &str) -> String {
    match escaped_within(text, QUOTED_CHARS, |_| false) {
        (inner, false) => format!("\"{inner}\""),
        (inner, true) => format!("\"{inner}…\" ({} characters)", text.chars().count()),
    }
}

/// `text` with each character escaped as `escape_debug` does unless `keep` says it stays as
/// it is, cut before the result would pass `limit` characters; and whether it was cut.
fn escaped_within(text: &str, limit: usize, keep: impl Fn(char) -> bool) -> (String, bool) {
    let mut out = String::new();
    let mut shown_chars = 0;
    for c in text.chars() {
        let before = out.len();
        if keep(c) {
            out.push(c);
        } else {
            out.extend(c.escape_debug());
        }
        shown_chars += out[before..].chars().count();
        if shown_chars > limit {
            out.truncate(before);
            return (out, true);
        }
    }
    (out, false)
}

/// Characters of a message any error shows, whatever it quotes.
const MESSAGE_CHARS: usize = 300;

/// A message as it is shown: characters that do not print (controls, bidirectional
/// overrides, line separators) escaped but line breaks kept, and cut to 300 characters
/// with its length noted. The
/// last guard for errors that quote input raw: no input makes a message long or drives a
/// terminal.
pub fn shown(message: &str) -> String {
    shown_with(message, true)
}

/// `shown` on one line: for what another crate's parser says (RON, JSON), which may quote
/// a line break from its input.
pub fn shown_line(message: &str) -> String {
    shown_with(message, false)
}

/// Whether a message shows `text` as it is: nothing in it is escaped and it is not cut.
/// For text from elsewhere (a server) that is shown whole or refused.
pub fn shows_as_is(text: &str) -> bool {
    text.chars().count() <= MESSAGE_CHARS && text.chars().all(prints)
}

/// Whether a character prints as itself (escape_debug escapes quotes and backslashes too,
/// which print).
fn prints(c: char) -> bool {
    matches!(c, '"' | '\'' | '\\') || c.escape_debug().count() == 1
}

fn shown_with(message: &str, line_breaks: bool) -> String {
    let keep = |c: char| prints(c) || (c == '\n' && line_breaks);
    match escaped_within(message, MESSAGE_CHARS, keep) {
        (out, false) => out,
        // The note of the length counts within the limit, so that a message shown again
        // (a server's, passed on by a client) comes out the same.
        (_, true) => {
            let note = format!("… ({} characters)", message.chars().count());
            let room = MESSAGE_CHARS - note.chars().count();
            format!("{}{note}", escaped_within(message, room, keep).0)
        }
    }
}

/// The character position (from 1) of byte offset `at` in `text`, as errors report it.
pub fn character_number(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    text[..at].chars().count() + 1
}

/// The byte offset of the first character that is not ASCII, if any.
pub fn first_non_ascii(text: &str) -> Option<usize> {
    text.char_indices()
        .find(|(_, c)| !c.is_ascii())
        .map(|(at, _)| at)
}

/// Why typed text is not a number in range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NumberProblem {
    NotANumber,
    OutOfRange,
}

/// A whole number from typed text (surrounding spaces ignored) within `range`. A number
/// written correctly but too big for any type is out of range, not "not a number".
pub fn whole_number(text: &str, range: RangeInclusive<u64>) -> Result<u64, NumberProblem> {
    let text = text.trim();
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(NumberProblem::NotANumber);
    }
    let negative = text.starts_with('-') && digits.bytes().any(|b| b != b'0');
    match digits.parse::<u64>() {
        Ok(n) if !negative && range.contains(&n) => Ok(n),
        _ => Err(NumberProblem::OutOfRange),
    }
}

/// `whole_number` with the problem put in words: "`what` needs a whole number, not …" or
/// "`what` must be LO to HI, not …".
pub fn whole_number_for(what: &str, text: &str, range: RangeInclusive<u64>) -> Result<u64, String> {
    whole_number(text, range.clone()).map_err(|problem| match problem {
        NumberProblem::NotANumber => format!("{what} needs a whole number, not {}", quoted(text)),
        NumberProblem::OutOfRange => format!(
            "{what} must be {} to {}, not {}",
            range.start(),
            range.end(),
            quoted(text)
        ),
    })
}

/// `whole_number_for` as the type of the field it fills; `range` must fit that type.
pub fn whole_number_as<T: TryFrom<u64>>(
    what: &str,
    text: &str,
    range: RangeInclusive<u64>,
) -> Result<T, String> {
    let n = whole_number_for(what, text, range)?;
    T::try_from(n).map_err(|_| format!("{what} is too big: {n}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_escapes_control_characters_and_cuts_long_text() {
        assert_eq!(quoted("c5-a3"), "\"c5-a3\"");
        assert_eq!(quoted("a\nerror: x"), "\"a\\nerror: x\"");
        assert_eq!(quoted("\u{1b}[31m"), "\"\\u{1b}[31m\"");
        let long = "x".repeat(131_072);
        let shown = quoted(&long);
        assert!(shown.len() < 80, "{shown}");
        assert!(shown.ends_with("…\" (131072 characters)"), "{shown}");
        // Escapes count as shown: 20 overrides are 160 characters escaped, so cut short.
        let hidden = quoted(&"\u{202e}".repeat(20));
        assert!(
            hidden.starts_with("\"\\u{202e}") && hidden.chars().count() < 80,
            "{hidden}"
        );
    }

    #[test]
    fn shown_messages_are_short_and_print() {
        assert_eq!(shown("a \"b\"\nc"), "a \"b\"\nc");
        assert_eq!(shown_line("a\nb"), "a\\nb");
        assert_eq!(shown("x\u{202e}\u{1b}y"), "x\\u{202e}\\u{1b}y");
        assert!(shows_as_is("O resigned: X wins \"ok\" \\ é"));
        for text in ["a\nb", "\u{1b}[2J", "x\u{202e}y", "e\u{301}"] {
            assert!(!shows_as_is(text), "{text:?}");
        }
        assert!(!shows_as_is(&"a".repeat(301)));
        // What is shown shows as it is, and comes out the same shown again.
        for text in ["a\u{1b}b", &"é\u{7}".repeat(500), &"x".repeat(301)] {
            let once = shown_line(text);
            assert!(shows_as_is(&once), "{once}");
            assert_eq!(shown_line(&once), once);
        }
        let long = shown(&"ab\u{7f}".repeat(1_000));
        assert!(long.chars().count() < 330, "{long}");
        assert!(long.ends_with("… (3000 characters)"), "{long}");
    }

    #[test]
    fn character_numbers_count_characters_not_bytes() {
        assert_eq!(character_number("éé-c1-", 6), 5);
        assert_eq!(character_number("abc", 0), 1);
        // An offset inside a character points at that character.
        assert_eq!(character_number("é", 1), 1);
        assert_eq!(character_number("ab", 99), 3);
        assert_eq!(first_non_ascii("c1é"), Some(2));
        assert_eq!(first_non_ascii("c1"), None);
    }

    #[test]
    fn numbers_out_of_range_name_the_range() {
        assert_eq!(whole_number(" 7 ", 2..=8), Ok(7));
        assert_eq!(whole_number("+3", 2..=8), Ok(3));
        assert_eq!(whole_number("1000", 2..=8), Err(NumberProblem::OutOfRange));
        assert_eq!(whole_number("-1", 0..=8), Err(NumberProblem::OutOfRange));
        assert_eq!(whole_number("-0", 0..=8), Ok(0));
        assert_eq!(
            whole_number("99999999999999999999", 0..=u64::MAX),
            Err(NumberProblem::OutOfRange)
        );
        for bad in ["", "-", "x", "1e3", "3.5", "٣"] {
            assert_eq!(
                whole_number(bad, 0..=9),
                Err(NumberProblem::NotANumber),
                "{bad}"
            );
        }
        assert_eq!(
            whole_number_for("size", "1000", 2..=8).unwrap_err(),
            "size must be 2 to 8, not \"1000\""
        );
    }
}
