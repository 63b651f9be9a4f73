//! Sets of cells as one integer: `u64` for boards of up to 64 cells, `u128` for Adomoc's 81.

/// An integer used as a set of small numbers.
pub trait BitSet: Copy {
    fn is_empty_set(self) -> bool;
    fn lowest(self) -> u8;
    fn without_lowest(self) -> Self;
}

macro_rules! bit_set {
    ($t:ty) => {
        impl BitSet for $t {
            #[inline]
            fn is_empty_set(self) -> bool {
                self == 0
            }
            #[inline]
            fn lowest(self) -> u8 {
                self.trailing_zeros() as u8
            }
            #[inline]
            fn without_lowest(self) -> Self {
                self & (self - 1)
            }
        }
    };
}
bit_set!(u64);
bit_set!(u128);

/// The members of a set, lowest first.
#[inline]
pub fn members<B: BitSet>(mut set: B) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if set.is_empty_set() {
            return None;
        }
        let member = set.lowest();
        set = set.without_lowest();
        Some(member)
    })
}
