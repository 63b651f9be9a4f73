//! How much one connection may ask, so that one client cannot starve the others.

use std::time::Instant;

/// Messages a second a connection may keep up.
pub const MESSAGES_PER_SECOND: f64 = 20.0;
/// Messages a connection may send at once after a quiet spell.
const BURST: f64 = 40.0;
/// Refused messages in a row after which the connection is closed.
const REFUSED_BEFORE_CLOSE: u32 = 200;

pub struct RateLimit {
    allowance: f64,
    last: Instant,
    refused: u32,
}

pub struct Over {
    pub message: String,
    pub close: bool,
}

impl Default for RateLimit {
    fn default() -> RateLimit {
        RateLimit::new()
    }
}

impl RateLimit {
    pub fn new() -> RateLimit {
        RateLimit {
            allowance: BURST,
            last: Instant::now(),
            refused: 0,
        }
    }

    /// Counts one message: an error if over the rate, and the close once it goes on.
    pub fn take(&mut self) -> Result<(), Over> {
        let now = Instant::now();
        let earned = now.duration_since(self.last).as_secs_f64() * MESSAGES_PER_SECOND;
        self.allowance = (self.allowance + earned).min(BURST);
        self.last = now;
        if self.allowance >= 1.0 {
            self.allowance -= 1.0;
            self.refused = 0;
            return Ok(());
        }
        self.refused += 1;
        Err(Over {
            message: format!(
                "too many messages: at most {MESSAGES_PER_SECOND} a second; this one was ignored"
            ),
            close: self.refused >= REFUSED_BEFORE_CLOSE,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_passes_and_a_flood_is_refused_then_closed() {
        let mut limit = RateLimit::new();
        let passed = (0..1000).filter(|_| limit.take().is_ok()).count();
        // The burst and what the loop's own time earned, nowhere near the thousand.
        assert!((40..100).contains(&passed), "{passed}");
        let over = limit.take().unwrap_err();
        assert!(over.message.contains("too many messages"));
        assert!(
            over.close,
            "a flood of refused messages ends the connection"
        );
    }
}
