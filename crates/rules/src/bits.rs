//! Sets of up to 64 cells as one `u64` (the games on boards that small use them).

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
