//! Control-flow analyses over one [`Function`](crate::cfg::Function)'s graph: reverse postorder,
//! dominators and post-dominators (with a virtual exit joining every `Return`), dominance
//! frontiers, natural loops with their nesting forest, the low bits every path agrees on
//! (congruences modulo powers of two, `low_bits`), the bits every path keeps a value within
//! (`value_bits`), and where a `var` local is assigned on every path (`must_assigned`).
//!
//! Every analysis accepts any graph, including blocks unreachable from the entry (they are
//! left out: not dominated, in no loop) and blocks that reach no `Return` (they have no
//! post-dominator). They read the IR only; none of them changes it.

mod dominators;
mod domtree;
mod graph;
mod local_facts;
mod loops;
mod low_bits;
pub(crate) mod must_assigned;
mod order;
mod value_bits;

pub use dominators::{Dominators, PostDominators};
pub use loops::{Loop, LoopForest, LoopId};
pub use low_bits::LowBits;
pub use must_assigned::{init_checks_that_hold, MustAssigned, Point};
pub use order::{reverse_postorder, rpo_numbers};
pub use value_bits::ValueBits;
