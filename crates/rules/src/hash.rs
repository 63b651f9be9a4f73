//! Position hashing by mixing feature keys, so any feature (a cell with an owner and a
//! height, the player to move) has a key without a table sized for every combination.

/// The splitmix64 finaliser: a cheap bijective mix with good avalanche.
pub(crate) const fn mix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The key of one feature: `kind` separates feature families, `a` and `b` are its values.
pub(crate) const fn feature_key(kind: u64, a: u64, b: u64) -> u64 {
    mix64((kind << 56) ^ (a << 28) ^ b)
}
