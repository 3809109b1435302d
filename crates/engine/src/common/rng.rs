//! The seeded random source of the randomized search strategies.
//!
//! ChaCha8 from `rand_chacha`, whose output stream is fixed by the algorithm, so `--seed` gives
//! the same choices on every machine and every dependency version. Nothing here is
//! cryptographic. [`mix`] gives draws keyed by a position instead of by their order in one
//! stream, for searches whose choices in one part of the tree must not shift when another
//! part changes.

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[derive(Clone, Debug)]
pub struct Rng(ChaCha8Rng);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(ChaCha8Rng::seed_from_u64(seed))
    }

    /// A number in `0..bound`; 0 for an empty range.
    pub fn below(&mut self, bound: usize) -> usize {
        if bound == 0 {
            return 0;
        }
        (self.0.next_u64() % bound as u64) as usize
    }
}

/// A well-spread hash of `a` and `b` (SplitMix64's finalizer over their combination), fixed
/// by its definition like ChaCha8's stream: the same on every machine.
pub fn mix(a: u64, b: u64) -> u64 {
    let mut z = (a ^ b.wrapping_mul(0x9E37_79B9_7F4A_7C15)).wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream() {
        let draw = |seed| {
            let mut rng = Rng::new(seed);
            (0..16).map(|_| rng.below(1000)).collect::<Vec<_>>()
        };
        assert_eq!(draw(7), draw(7));
        assert_ne!(draw(7), draw(8));
        assert_eq!(Rng::new(1).below(0), 0);
    }

    #[test]
    fn mixing_tells_its_arguments_apart() {
        assert_eq!(mix(3, 4), mix(3, 4));
        assert_ne!(mix(3, 4), mix(4, 3));
        assert_ne!(mix(0, 1), mix(0, 2));
        // Low bits spread too: draws take them modulo small counts.
        let low: std::collections::BTreeSet<_> = (0..64).map(|i| mix(7, i) % 4).collect();
        assert_eq!(low.len(), 4);
    }
}
