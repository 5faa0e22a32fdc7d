//! Fixed-width unsigned integers for edge weights.
//!
//! The Dutch criteria are ranked strictly: one pair more in a bracket beats
//! any colour or float improvement, and so on down the list (C.04.3 C.5–C.21).
//! The weights that encode them ([`super::weights`]) therefore need a field
//! per criterion, each wide enough to count every player, laid end to end:
//! several hundred bits for a big tournament. `Wide<N>` is `N` 64-bit words,
//! little-endian, with the few operations the weights and the matching use.
//! Arithmetic wraps at the width, as the encoding sometimes subtracts a small
//! number from a large weight (the result is never negative in use).

use std::cmp::Ordering;

/// An unsigned integer of `64 * N` bits.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Wide<const N: usize>([u64; N]);

impl<const N: usize> Default for Wide<N> {
    fn default() -> Self {
        Wide([0; N])
    }
}

impl<const N: usize> std::fmt::Debug for Wide<N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "0x")?;
        for w in self.0.iter().rev() {
            write!(f, "{w:016x}")?;
        }
        Ok(())
    }
}

impl<const N: usize> Ord for Wide<N> {
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        for i in (0..N).rev() {
            match self.0[i].cmp(&other.0[i]) {
                Ordering::Equal => continue,
                o => return o,
            }
        }
        Ordering::Equal
    }
}

impl<const N: usize> PartialOrd for Wide<N> {
    #[inline]
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<const N: usize> Wide<N> {
    pub const BITS: u32 = 64 * N as u32;

    #[inline]
    pub fn zero() -> Self {
        Wide([0; N])
    }

    #[inline]
    pub fn small(v: u64) -> Self {
        let mut w = [0; N];
        w[0] = v;
        Wide(w)
    }

    /// `1 << bit`.
    #[inline]
    pub fn bit(bit: u32) -> Self {
        let mut w = Self::zero();
        if bit < Self::BITS {
            w.0[(bit / 64) as usize] = 1 << (bit % 64);
        }
        w
    }

    #[inline]
    pub fn is_zero(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// `self <<= bits` (bits shifted past the top are lost).
    #[inline]
    pub fn shl(&mut self, bits: u32) {
        if bits == 0 {
            return;
        }
        let (words, rest) = ((bits / 64) as usize, bits % 64);
        for i in (0..N).rev() {
            let lo = i.checked_sub(words).map_or(0, |j| self.0[j]);
            let below = i.checked_sub(words + 1).map_or(0, |j| self.0[j]);
            self.0[i] = if rest == 0 {
                lo
            } else {
                (lo << rest) | (below >> (64 - rest))
            };
        }
    }

    /// `self >>= 1`.
    #[inline]
    pub fn half(&self) -> Self {
        let mut out = *self;
        for i in 0..N {
            let carry = if i + 1 < N { self.0[i + 1] << 63 } else { 0 };
            out.0[i] = (self.0[i] >> 1) | carry;
        }
        out
    }

    /// `self |= v` on the lowest word.
    #[inline]
    pub fn or_small(&mut self, v: u64) {
        self.0[0] |= v;
    }

    /// `self = 0`.
    #[inline]
    pub fn clear(&mut self) {
        self.0 = [0; N];
    }

    /// Wrapping addition.
    #[inline]
    pub fn add(&self, other: &Self) -> Self {
        let mut out = [0; N];
        let mut carry = false;
        for (i, slot) in out.iter_mut().enumerate() {
            let (s1, c1) = self.0[i].overflowing_add(other.0[i]);
            let (s2, c2) = s1.overflowing_add(carry as u64);
            *slot = s2;
            carry = c1 || c2;
        }
        Wide(out)
    }

    /// Wrapping subtraction.
    #[inline]
    pub fn sub(&self, other: &Self) -> Self {
        let mut out = [0; N];
        let mut borrow = false;
        for (i, slot) in out.iter_mut().enumerate() {
            let (d1, b1) = self.0[i].overflowing_sub(other.0[i]);
            let (d2, b2) = d1.overflowing_sub(borrow as u64);
            *slot = d2;
            borrow = b1 || b2;
        }
        Wide(out)
    }

    #[inline]
    pub fn add_small(&self, v: u64) -> Self {
        self.add(&Self::small(v))
    }

    #[inline]
    pub fn sub_small(&self, v: u64) -> Self {
        self.sub(&Self::small(v))
    }
}

#[cfg(test)]
mod tests {
    use super::Wide;

    #[test]
    fn shifts_carry_across_words() {
        let mut w = Wide::<3>::small(0b101);
        w.shl(63);
        assert_eq!(w, Wide::bit(63).add(&Wide::bit(65)));
        w.shl(64);
        assert_eq!(w, Wide::bit(127).add(&Wide::bit(129)));
        assert_eq!(w.half(), Wide::bit(126).add(&Wide::bit(128)));
    }

    #[test]
    fn arithmetic_wraps_and_orders() {
        let big = Wide::<2>::bit(100);
        let one = Wide::<2>::small(1);
        assert!(big.sub(&one) < big);
        assert_eq!(big.sub(&one).add(&one), big);
        assert_eq!(Wide::<2>::zero().sub(&one).add(&one), Wide::zero());
        assert!(Wide::<2>::bit(64) > Wide::small(u64::MAX));
    }
}
