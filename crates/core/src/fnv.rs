//! FNV-1a, the one small hash of the crate: tag names while framing, the
//! moves of a game, and the identity of settings files. Not for anything
//! an adversary chooses to collide.

pub const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const PRIME: u64 = 0x0000_0100_0000_01b3;

/// Mixes one value into a running hash.
pub fn mix(hash: u64, value: u64) -> u64 {
    (hash ^ value).wrapping_mul(PRIME)
}

/// The FNV-1a hash of some bytes.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(OFFSET, |h, &b| mix(h, u64::from(b)))
}

#[cfg(test)]
mod tests {
    #[test]
    fn known_values() {
        // The FNV-1a 64-bit test vectors.
        assert_eq!(super::fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(super::fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(super::fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
    }
}
