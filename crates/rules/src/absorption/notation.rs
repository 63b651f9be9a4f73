//! Action notation (absorption.md §6, our decision): split `c1/b2:2,c2:1`, follow-up
//! `c2>c4`, merge `b2+c2>c2`, move `d3-d4`, `pass`, absorb `xd4[c4:1,e4:1]`.

use super::moves::{AbsorptionMove, Allotment, SquareList};
use super::squares::{label, parse_label};
use crate::NotationError;

pub fn format_move(mv: &AbsorptionMove) -> String {
    let counts = |allotment: &Allotment| {
        allotment
            .iter()
            .map(|(s, n)| format!("{}:{n}", label(s)))
            .collect::<Vec<_>>()
            .join(",")
    };
    match mv {
        AbsorptionMove::Split { from, parts } => format!("{}/{}", label(*from), counts(parts)),
        AbsorptionMove::Merge { dest, others } => {
            let mut all: Vec<u8> = others.as_slice().to_vec();
            all.push(*dest);
            all.sort_unstable();
            let names: Vec<String> = all.into_iter().map(label).collect();
            format!("{}>{}", names.join("+"), label(*dest))
        }
        AbsorptionMove::FollowUp { from, to } => format!("{}>{}", label(*from), label(*to)),
        AbsorptionMove::Move { from, to } => format!("{}-{}", label(*from), label(*to)),
        AbsorptionMove::Pass => "pass".into(),
        AbsorptionMove::Absorb { target, gifts } => {
            format!("x{}[{}]", label(*target), counts(gifts))
        }
    }
}

/// A cursor over the move text, for errors that point at the offending character.
struct Reader<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Reader<'a> {
    fn error<T>(&self, message: impl Into<String>) -> Result<T, NotationError> {
        Err(NotationError::new(self.text, self.at, message))
    }

    fn square(&mut self) -> Result<u8, NotationError> {
        let rest = &self.text[self.at..];
        match rest.get(..2).and_then(parse_label) {
            Some(square) => {
                self.at += 2;
                Ok(square)
            }
            None => self.error("expected a square such as c4 (files a-h, ranks 1-8)"),
        }
    }

    fn expect(&mut self, c: char) -> Result<(), NotationError> {
        if self.text[self.at..].starts_with(c) {
            self.at += 1;
            Ok(())
        } else {
            self.error(format!("expected '{c}'"))
        }
    }

    fn eat(&mut self, c: char) -> bool {
        let found = self.text[self.at..].starts_with(c);
        self.at += found as usize;
        found
    }

    fn digit(&mut self, max: u8) -> Result<u8, NotationError> {
        match self.text.as_bytes().get(self.at) {
            Some(&d @ b'1'..=b'9') if d - b'0' <= max => {
                self.at += 1;
                Ok(d - b'0')
            }
            _ => self.error(format!("expected a count from 1 to {max}")),
        }
    }

    fn end(&self) -> Result<(), NotationError> {
        if self.at == self.text.len() {
            Ok(())
        } else {
            self.error("unexpected text after the move")
        }
    }

    /// `sq:n,sq:n...` with counts up to `max`, as an allotment.
    fn counts(&mut self, max: u8) -> Result<Allotment, NotationError> {
        let start = self.at;
        let mut pairs = Vec::new();
        loop {
            let square = self.square()?;
            self.expect(':')?;
            let n = self.digit(max)?;
            pairs.push((square, n));
            if !self.eat(',') {
                break;
            }
        }
        Allotment::new(&pairs).ok_or_else(|| {
            NotationError::new(self.text, start, "at most four squares, each named once")
        })
    }
}

pub fn parse_move(text: &str) -> Result<AbsorptionMove, NotationError> {
    let trimmed = text.trim();
    if trimmed.eq_ignore_ascii_case("pass") {
        return Ok(AbsorptionMove::Pass);
    }
    if let Some(at) = crate::text::first_non_ascii(text) {
        return Err(NotationError::new(text, at, "moves are written in ASCII"));
    }
    let mut r = Reader {
        text: trimmed,
        at: 0,
    };
    if r.eat('x') || r.eat('X') {
        let target = r.square()?;
        r.expect('[')?;
        let gifts = r.counts(3)?;
        r.expect(']')?;
        r.end()?;
        return Ok(AbsorptionMove::Absorb { target, gifts });
    }
    if r.text.is_empty() {
        return r.error("empty move");
    }
    let first = r.square()?;
    if r.eat('/') {
        let parts = r.counts(2)?;
        r.end()?;
        if parts.len() < 2 || parts.len() > 3 {
            return Err(NotationError::new(
                trimmed,
                0,
                "a split makes two or three stacks",
            ));
        }
        return Ok(AbsorptionMove::Split { from: first, parts });
    }
    if r.text[r.at..].starts_with('+') {
        let mut all = vec![first];
        while r.eat('+') {
            all.push(r.square()?);
        }
        let dest_at = r.at;
        r.expect('>')?;
        let dest = r.square()?;
        r.end()?;
        let Some(index) = all.iter().position(|&s| s == dest) else {
            return Err(NotationError::new(
                trimmed,
                dest_at + 1,
                "the destination must be one of the merged squares",
            ));
        };
        all.remove(index);
        let others = SquareList::new(&all)
            .filter(|_| !all.contains(&dest))
            .ok_or_else(|| {
                NotationError::new(trimmed, 0, "a merge joins 2 or 3 distinct squares")
            })?;
        return Ok(AbsorptionMove::Merge { dest, others });
    }
    if r.eat('>') {
        let to = r.square()?;
        r.end()?;
        return Ok(AbsorptionMove::FollowUp { from: first, to });
    }
    if r.eat('-') {
        let to = r.square()?;
        r.end()?;
        return Ok(AbsorptionMove::Move { from: first, to });
    }
    r.error("expected '/' (split), '+' (merge), '>' (follow-up) or '-' (move)")
}
