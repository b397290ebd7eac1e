//! A fast, non-cryptographic hasher for stored states.
//!
//! States are small packed integers hashed millions of times a second; SipHash (the standard library's
//! default, built to resist deliberate collisions) would cost more than the rest of an expansion. A search
//! hashes only states its own puzzle generated, so flooding is not a concern. A plain multiply would leave
//! the low bits (the ones that pick a bucket) depending only on the low bits of the state, so each word is
//! folded through a full 128-bit product: every input bit reaches every output bit.

use std::hash::{BuildHasher, Hasher};

/// An odd constant with well-spread bits (the golden ratio in fixed point).
const K: u64 = 0x9E37_79B9_7F4A_7C15;

/// The high and low halves of the 128-bit product, xored.
#[inline]
fn fold_mul(a: u64, b: u64) -> u64 {
    let p = (a as u128) * (b as u128);
    (p as u64) ^ ((p >> 64) as u64)
}

#[derive(Clone, Copy, Default)]
pub(crate) struct FastHasher(u64);

impl Hasher for FastHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        // Whole words straight from the slice (a fixed-size read, no copy call: this runs for every word of
        // every state stored, and again when the table grows); a short tail zero-padded. (Two words to a
        // multiply halves the chain but let two one-bit changes cancel: the test below caught it.)
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            self.write_u64(u64::from_le_bytes(word.try_into().expect("8 bytes")));
        }
        let tail = words.remainder();
        if !tail.is_empty() {
            let mut word = [0u8; 8];
            word[..tail.len()].copy_from_slice(tail);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    #[inline]
    fn write_u8(&mut self, x: u8) {
        self.write_u64(x as u64);
    }

    #[inline]
    fn write_u16(&mut self, x: u16) {
        self.write_u64(x as u64);
    }

    #[inline]
    fn write_u32(&mut self, x: u32) {
        self.write_u64(x as u64);
    }

    #[inline]
    fn write_u64(&mut self, x: u64) {
        self.0 = fold_mul(self.0 ^ x, K);
    }

    #[inline]
    fn write_u128(&mut self, x: u128) {
        self.write_u64(x as u64);
        self.write_u64((x >> 64) as u64);
    }

    #[inline]
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

/// Builds [`FastHasher`]s; every one starts from the same seed, so a state's hash is stable within a run.
#[derive(Clone, Copy, Default)]
pub(crate) struct FastBuild;

impl BuildHasher for FastBuild {
    type Hasher = FastHasher;

    #[inline]
    fn build_hasher(&self) -> FastHasher {
        FastHasher(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Long byte strings (packed water sort states) that differ in one bit anywhere hash apart, and their
    /// low bits spread over the buckets.
    #[test]
    fn every_bit_of_a_byte_string_counts() {
        let base = [0x5Au8; 160];
        let mut hashes = std::collections::HashSet::new();
        let mut buckets = [0u32; 64];
        for bit in 0..base.len() * 8 {
            let mut bytes = base;
            bytes[bit / 8] ^= 1 << (bit % 8);
            let mut h = FastHasher::default();
            h.write(&bytes);
            hashes.insert(h.finish());
            buckets[(h.finish() & 63) as usize] += 1;
        }
        assert_eq!(hashes.len(), base.len() * 8);
        assert!(buckets.iter().all(|&b| (5..=40).contains(&b)), "{buckets:?}");
    }

    /// Packed tile states differ mostly in their high nibbles; the low bits of their hashes must still
    /// spread over the buckets.
    #[test]
    fn low_bits_spread_for_states_differing_only_in_high_bits() {
        let mut buckets = [0u32; 256];
        for i in 0..4096u64 {
            buckets[(FastBuild.hash_one(i << 40) & 255) as usize] += 1;
        }
        assert!(buckets.iter().all(|&b| (4..=40).contains(&b)), "{buckets:?}");
    }
}
