//! Sets of cells as one integer: `u64` for boards of up to 64 cells, `u128` for Adomoc's 81.

/// The members of a set, lowest first.
#[inline]
pub fn members(mut set: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let member = set.trailing_zeros() as u8;
        set &= set - 1;
        Some(member)
    })
}

/// The members of a 128-bit set, lowest first.
#[inline]
pub fn members128(mut set: u128) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let member = set.trailing_zeros() as u8;
        set &= set - 1;
        Some(member)
    })
}
