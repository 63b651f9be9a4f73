//! Exact move counts. Adamas on the largest boards has more legal moves than fit in
//! 128 bits (about 10^54 for a 297-piece stack in the centre of a size-8 board), so
//! counts are 256-bit. That bound covers every option range the games allow; if a
//! sum ever exceeded it the count saturates and says so rather than wrapping.

// Limb arithmetic reads best with explicit limb indices.
#![allow(clippy::needless_range_loop)]

use std::fmt;
use std::ops::{Add, AddAssign};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Count {
    /// Little-endian 64-bit limbs.
    limbs: [u64; 4],
    saturated: bool,
}

impl Count {
    pub const ZERO: Count = Count {
        limbs: [0; 4],
        saturated: false,
    };

    pub fn is_zero(&self) -> bool {
        !self.saturated && self.limbs == [0; 4]
    }

    pub fn is_saturated(&self) -> bool {
        self.saturated
    }

    /// The value if it fits in a `u128`.
    pub fn to_u128(&self) -> Option<u128> {
        if self.saturated || self.limbs[2] != 0 || self.limbs[3] != 0 {
            return None;
        }
        Some(self.limbs[0] as u128 | (self.limbs[1] as u128) << 64)
    }

    pub fn to_u64(&self) -> Option<u64> {
        self.to_u128().and_then(|v| u64::try_from(v).ok())
    }

    /// An approximation, for weights when the exact value does not fit in 64 bits.
    pub fn to_f64(&self) -> f64 {
        if self.saturated {
            return f64::INFINITY;
        }
        self.limbs.iter().rev().fold(0.0, |acc, &limb| {
            acc * 18_446_744_073_709_551_616.0 + limb as f64
        })
    }

    fn saturate() -> Count {
        Count {
            limbs: [u64::MAX; 4],
            saturated: true,
        }
    }

    pub fn mul_small(self, factor: u64) -> Count {
        if self.saturated {
            return self;
        }
        let mut carry: u128 = 0;
        let mut limbs = [0u64; 4];
        for (out, &limb) in limbs.iter_mut().zip(&self.limbs) {
            let product = limb as u128 * factor as u128 + carry;
            *out = product as u64;
            carry = product >> 64;
        }
        if carry != 0 {
            return Count::saturate();
        }
        Count {
            limbs,
            saturated: false,
        }
    }

    /// Exact division by a small divisor; the remainder is discarded.
    pub fn div_small(self, divisor: u64) -> Count {
        if self.saturated || divisor == 0 {
            return self;
        }
        let mut remainder: u128 = 0;
        let mut limbs = [0u64; 4];
        for i in (0..4).rev() {
            let value = (remainder << 64) | self.limbs[i] as u128;
            limbs[i] = (value / divisor as u128) as u64;
            remainder = value % divisor as u128;
        }
        Count {
            limbs,
            saturated: false,
        }
    }

    /// `self - value`, floored at zero.
    pub fn saturating_sub(self, value: Count) -> Count {
        if self.saturated {
            return self;
        }
        let mut borrow = false;
        let mut limbs = [0u64; 4];
        for i in 0..4 {
            let (d1, b1) = self.limbs[i].overflowing_sub(value.limbs[i]);
            let (d2, b2) = d1.overflowing_sub(borrow as u64);
            limbs[i] = d2;
            borrow = b1 || b2;
        }
        if borrow {
            return Count::ZERO;
        }
        Count {
            limbs,
            saturated: false,
        }
    }

    /// The binomial coefficient C(n, k), exactly.
    pub fn binomial(n: u64, k: u64) -> Count {
        if k > n {
            return Count::ZERO;
        }
        let k = k.min(n - k);
        let mut value = Count::from(1u64);
        for i in 0..k {
            // value * (n - i) is divisible by (i + 1) at every step.
            value = value.mul_small(n - i).div_small(i + 1);
        }
        value
    }
}

impl From<u64> for Count {
    fn from(value: u64) -> Self {
        Count {
            limbs: [value, 0, 0, 0],
            saturated: false,
        }
    }
}

impl From<u128> for Count {
    fn from(value: u128) -> Self {
        Count {
            limbs: [value as u64, (value >> 64) as u64, 0, 0],
            saturated: false,
        }
    }
}

impl Add for Count {
    type Output = Count;
    fn add(self, other: Count) -> Count {
        if self.saturated || other.saturated {
            return Count::saturate();
        }
        let mut carry = false;
        let mut limbs = [0u64; 4];
        for i in 0..4 {
            let (s1, c1) = self.limbs[i].overflowing_add(other.limbs[i]);
            let (s2, c2) = s1.overflowing_add(carry as u64);
            limbs[i] = s2;
            carry = c1 || c2;
        }
        if carry {
            return Count::saturate();
        }
        Count {
            limbs,
            saturated: false,
        }
    }
}

impl AddAssign for Count {
    fn add_assign(&mut self, other: Count) {
        *self = *self + other;
    }
}

impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.saturated {
            return write!(f, "more than 2^256");
        }
        if let Some(v) = self.to_u128() {
            return write!(f, "{v}");
        }
        let mut digits = Vec::new();
        let mut rest = *self;
        while !rest.is_zero() {
            let quotient = rest.div_small(10);
            let remainder = rest.saturating_sub(quotient.mul_small(10));
            digits.push(b'0' + remainder.limbs[0] as u8);
            rest = quotient;
        }
        digits.reverse();
        f.write_str(std::str::from_utf8(&digits).expect("ASCII digits"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials_match_small_values() {
        assert_eq!(Count::binomial(18, 10).to_u64(), Some(43_758));
        assert_eq!(Count::binomial(5, 0).to_u64(), Some(1));
        assert_eq!(Count::binomial(3, 5).to_u64(), Some(0));
    }

    #[test]
    fn large_values_print_exactly() {
        // C(200, 100) = 90548514656103281165404177077484163874504589675413336841320
        assert_eq!(
            Count::binomial(200, 100).to_string(),
            "90548514656103281165404177077484163874504589675413336841320"
        );
    }

    #[test]
    fn overflow_saturates_instead_of_wrapping() {
        let big = Count::binomial(400, 200);
        assert!(big.is_saturated());
        assert_eq!(big.to_string(), "more than 2^256");
    }
}
