//! A tube as one integer: unit k (from the bottom) in bits `k*bits .. (k+1)*bits`, colour codes from 1,
//! 0 for no unit. Units fill from the bottom, so the height is read off the highest set bit and a pour is
//! a mask and an or.

/// How tubes of one level are coded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TubeCode {
    /// Bits a unit.
    pub bits: u32,
    /// Units a tube holds.
    pub capacity: u32,
    /// Height by the code's bit length: a lookup instead of a division at every tube of every node.
    heights: [u8; 65],
    /// The lowest bit of each unit's field: `c * low` is a tube of `capacity` units of colour c.
    low: u64,
    /// The highest bit of each unit's field.
    high: u64,
}

/// What successor generation and the heuristics need about one tube.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Top {
    /// Units in the tube.
    pub height: u32,
    /// Colour code of the top unit, 0 when empty.
    pub colour: u32,
    /// Units in the top run of equal colours.
    pub run: u32,
}

impl TubeCode {
    /// The coding of tubes of `capacity` units of `bits` bits (both at least 1, their product at most 64).
    pub fn new(bits: u32, capacity: u32) -> TubeCode {
        let mut heights = [0u8; 65];
        for (len, h) in heights.iter_mut().enumerate() {
            *h = (len as u32).div_ceil(bits) as u8;
        }
        let low = (0..capacity).fold(0u64, |m, k| m | 1 << (k * bits));
        TubeCode { bits, capacity, heights, low, high: low << (bits - 1) }
    }

    /// Bits one tube takes.
    pub fn width(&self) -> u32 {
        self.bits * self.capacity
    }

    fn mask(&self) -> u64 {
        (1u64 << self.bits) - 1
    }

    /// Colour code of unit `k` from the bottom.
    pub fn unit(&self, code: u64, k: u32) -> u32 {
        ((code >> (k * self.bits)) & self.mask()) as u32
    }

    /// Units in the tube.
    pub fn height(&self, code: u64) -> u32 {
        self.heights[(u64::BITS - code.leading_zeros()) as usize] as u32
    }

    /// The tube's height, top colour and top run.
    pub fn top(&self, code: u64) -> Top {
        let height = self.height(code);
        if height == 0 {
            return Top::default();
        }
        let colour = self.unit(code, height - 1);
        // Units other than the top colour, below the top, are the non-zero fields of this xor; the highest
        // of them ends the run.
        let others = (code ^ (colour as u64 * self.low)) & (u64::MAX >> (64 - height * self.bits));
        let run = height - self.height(others);
        Top { height, colour, run }
    }

    /// The tube's bottom colour and how many units of it lie at the bottom in one run (0, 0 when empty).
    pub fn bottom_run(&self, code: u64) -> (u32, u32) {
        let height = self.height(code);
        let colour = self.unit(code, 0);
        // The fields that differ from the bottom colour; the lowest of them ends the run.
        let others = (code ^ (colour as u64 * self.low)) & (u64::MAX >> (64 - height.max(1) * self.bits));
        let run = if others == 0 { height } else { others.trailing_zeros() / self.bits };
        (colour, run)
    }

    /// Maximal runs of equal colours in the tube: the units that differ from the unit above them, the
    /// top unit differing from the 0 above it. One xor compares every unit with the one above; the
    /// non-zero fields of the result are then counted at once: adding all-ones below each field's top bit
    /// carries into that bit exactly when the low bits are not all zero (no carry crosses a field).
    pub fn runs(&self, code: u64) -> u32 {
        let differs = code ^ (code >> self.bits);
        let below_top = self.high - self.low;
        ((((differs & below_top) + below_top) | differs) & self.high).count_ones()
    }

    /// `code` with `n` units of `colour` added on top of its `height` units.
    pub fn push(&self, code: u64, height: u32, colour: u32, n: u32) -> u64 {
        (0..n).fold(code, |c, k| c | (colour as u64) << ((height + k) * self.bits))
    }

    /// `code` with its top `n` of `height` units removed.
    pub fn pop(&self, code: u64, height: u32, n: u32) -> u64 {
        let keep = (height - n) * self.bits;
        if keep == 0 {
            0
        } else {
            code & (u64::MAX >> (64 - keep))
        }
    }

    /// The code of a tube of colour indices (0-based, as in a level), bottom to top.
    pub fn encode(&self, tube: &[u8]) -> u64 {
        tube.iter().enumerate().fold(0, |c, (k, &u)| c | (u as u64 + 1) << (k as u32 * self.bits))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heights_tops_runs_and_pours() {
        let tc = TubeCode::new(3, 4);
        let code = tc.encode(&[0, 1, 1]);
        assert_eq!(tc.height(code), 3);
        assert_eq!(tc.top(code), Top { height: 3, colour: 2, run: 2 });
        assert_eq!(tc.runs(code), 2);
        assert_eq!(tc.bottom_run(code), (1, 1));
        assert_eq!(tc.bottom_run(tc.encode(&[1, 1, 1, 0])), (2, 3));
        assert_eq!(tc.bottom_run(tc.encode(&[1, 1, 1, 1])), (2, 4));
        assert_eq!(tc.bottom_run(0), (0, 0));
        assert_eq!(tc.pop(code, 3, 2), tc.encode(&[0]));
        assert_eq!(tc.pop(code, 3, 3), 0);
        assert_eq!(tc.push(tc.encode(&[0]), 1, 2, 2), code);
        assert_eq!(tc.top(0), Top::default());
        let wide = TubeCode::new(8, 8);
        let full = wide.encode(&[254; 8]);
        assert_eq!(wide.height(full), 8);
        assert_eq!(wide.pop(full, 8, 1), wide.encode(&[254; 7]));
    }
}
