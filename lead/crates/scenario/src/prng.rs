//! A tiny seeded PRNG (xorshift64*) for the chaos soak: the same seed gives the same faults on
//! every machine and every version of every crate, which `rand`'s generators do not promise.

/// xorshift64* (Vigna 2016), seeded through splitmix64 so that seeds 0, 1, 2 … all diverge.
#[derive(Debug, Clone)]
pub struct XorShift {
    state: u64,
}

impl XorShift {
    /// A generator for `seed`.
    pub fn new(seed: u64) -> XorShift {
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        // xorshift's only fixed point is 0.
        XorShift {
            state: if z == 0 { 0x2545_F491_4F6C_DD1D } else { z },
        }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.state;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.state = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`n` > 0; the modulo bias is irrelevant at these sizes).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }

    /// A number in `lo..=hi`.
    pub fn between(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi.saturating_sub(lo) + 1)
    }

    /// One element of a non-empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        let i = usize::try_from(self.below(items.len() as u64)).unwrap_or(0);
        &items[i.min(items.len().saturating_sub(1))]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_sequence_and_seeds_differ() {
        let a: Vec<u64> = {
            let mut r = XorShift::new(7);
            (0..5).map(|_| r.next_u64()).collect()
        };
        let mut r = XorShift::new(7);
        let b: Vec<u64> = (0..5).map(|_| r.next_u64()).collect();
        assert_eq!(a, b);
        let mut zero = XorShift::new(0);
        let mut one = XorShift::new(1);
        assert_ne!(zero.next_u64(), one.next_u64());
        assert_ne!(zero.next_u64(), 0);
    }

    #[test]
    fn the_sequence_is_pinned_so_a_seed_replays_across_versions() {
        let mut r = XorShift::new(42);
        let first: Vec<u64> = (0..3).map(|_| r.below(1000)).collect();
        assert_eq!(first, PINNED_42);
    }

    // Computed independently (a Python transcription of the algorithm); a change here means
    // old soak seeds no longer replay.
    const PINNED_42: [u64; 3] = [842, 923, 559];

    #[test]
    fn ranges_and_picks_stay_inside() {
        let mut r = XorShift::new(3);
        for _ in 0..1000 {
            assert!((5..=9).contains(&r.between(5, 9)));
            assert!(["a", "b"].contains(r.pick(&["a", "b"])));
        }
    }
}
