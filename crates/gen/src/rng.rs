//! The generator's random source: ChaCha8 from `rand_chacha`, whose output stream is fixed by
//! the algorithm, so a seed names the same program on every machine and dependency version.

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[derive(Clone, Debug)]
pub struct Rng(ChaCha8Rng);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(ChaCha8Rng::seed_from_u64(seed))
    }

    /// A number in `0..bound` (`bound == 0` is treated as 1).
    pub fn below(&mut self, bound: u64) -> u64 {
        self.0.next_u64() % bound.max(1)
    }
}
