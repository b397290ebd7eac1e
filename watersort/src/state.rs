//! A whole position as `W` 64-bit words: the tube codes laid end to end, a tube possibly straddling two
//! words. `W` is a const generic so a state is a plain array (no heap, cheap hash and compare); the
//! solver picks the smallest supported `W` that holds the level (see `solve::dispatch`).

use crate::level::MAX_TUBES;
use crate::tube::TubeCode;

/// A packed position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Packed<const W: usize>(pub [u64; W]);

/// Tube codes of one position, unpacked onto the stack.
pub type Codes = [u64; MAX_TUBES];

/// Words needed for `tubes` tubes of `code`.
pub fn words_needed(code: TubeCode, tubes: usize) -> usize {
    (tubes * code.width() as usize).div_ceil(64)
}

impl<const W: usize> Packed<W> {
    /// Packs `codes` (one a tube). The caller guarantees they fit in `W` words.
    pub fn pack(code: TubeCode, codes: &[u64]) -> Self {
        let mut packer = Packer::new(code);
        codes.iter().for_each(|&c| packer.push(c));
        packer.finish()
    }

    /// Unpacks `tubes` tube codes into `out`.
    pub fn unpack(&self, code: TubeCode, tubes: usize, out: &mut Codes) {
        for (t, slot) in out.iter_mut().enumerate().take(tubes) {
            *slot = self.tube(code, t);
        }
    }

    /// The code of tube `t`, alone: for tests that can stop at the first tube that fails them.
    pub fn tube(&self, code: TubeCode, t: usize) -> u64 {
        let width = code.width() as usize;
        let mask = if width == 64 { u64::MAX } else { (1u64 << width) - 1 };
        let (w, s) = (t * width / 64, t * width % 64);
        let mut c = self.0[w] >> s;
        if s + width > 64 {
            c |= self.0[w + 1] << (64 - s);
        }
        c & mask
    }
}

/// Packs tube codes one at a time, in order, so that a successor is packed as it is put together (no
/// array of its codes in between).
pub struct Packer<const W: usize> {
    words: [u64; W],
    width: usize,
    /// Where the next code goes, in bits.
    at: usize,
}

impl<const W: usize> Packer<W> {
    /// An empty state for tubes coded by `code`.
    pub fn new(code: TubeCode) -> Self {
        Packer { words: [0; W], width: code.width() as usize, at: 0 }
    }

    /// Appends the next tube's code. The caller guarantees the tubes fit in `W` words.
    #[inline]
    pub fn push(&mut self, c: u64) {
        let (w, s) = (self.at / 64, self.at % 64);
        self.words[w] |= c << s;
        if s + self.width > 64 {
            self.words[w + 1] |= c >> (64 - s);
        }
        self.at += self.width;
    }

    /// The state, once every tube is pushed.
    pub fn finish(self) -> Packed<W> {
        Packed(self.words)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_across_word_boundaries() {
        for (bits, capacity, tubes) in [(3u32, 4u32, 10usize), (6, 4, 52), (8, 8, 16), (5, 7, 20)] {
            let code = TubeCode::new(bits, capacity);
            let max = if code.width() == 64 { u64::MAX } else { (1u64 << code.width()) - 1 };
            let codes: Vec<u64> = (0..tubes as u64).map(|t| max - t * 7919 % max.max(1)).collect();
            assert!(words_needed(code, tubes) <= 32);
            let packed = Packed::<32>::pack(code, &codes);
            let mut out = [0u64; MAX_TUBES];
            packed.unpack(code, tubes, &mut out);
            assert_eq!(&out[..tubes], &codes[..]);
        }
    }
}
