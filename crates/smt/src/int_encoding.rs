//! Bit-vector queries decided over the integers: [`IntEncodingSolver`].
//!
//! Z3 decides formulas of wrap-around counters, signed comparisons and array reads and writes
//! many times faster when a `w`-bit number is an integer in `[-2^(w-1), 2^(w-1))` than when it
//! is bit-blasted (the backward engine's degree-counting queries, BENCHMARKS.md). The encoding
//! is exact, not an approximation; every bit-vector model is an integer model and back:
//!
//! * a variable gets its range as a side constraint, a constant its signed value;
//! * `+`, `-`, negation, and multiplication or left shift by a constant wrap: the integer result
//!   `s` becomes `s - k·2^w` for a fresh integer `k`, with the range as a side constraint (one
//!   `k` puts it in range) and `k` bounded by what `s` can be (`x + 1`: `0 ≤ k ≤ 1`; no `k`
//!   where only one is possible);
//! * `bvnot x` is `-x - 1`; signed comparisons are integer ones; unsigned ones compare
//!   `ite(x < 0, x + 2^w, x)`; sign extension keeps the value, zero extension is the unsigned
//!   value, extracting the low bits wraps;
//! * arrays become integer-indexed arrays. Every read gets its element's range as a side
//!   constraint, and an array equality that may be false in a model (it occurs under a
//!   negation, an `ite` condition, ...) gets a witness: an index (in range, for a bit-vector
//!   index) where the two arrays differ. Without it two integer arrays could differ only
//!   outside the range, where no bit-vector index reaches, and be "different" for the integers
//!   but equal as bit-vectors. The witnesses also make Z3's extensionality axioms redundant:
//!   the backward engine turns them off (`smt.array.extensional`).
//!
//! The ranges of variables and array reads are *deferred*: they are not asserted up front but
//! checked against each `sat` model, and only those the model breaks are asserted before the
//! solver is asked again (until a model keeps them all, or `unsat`). Leaving them out only
//! removes constraints, so `unsat` stays exact; a `sat` is answered only for a model that keeps
//! every range, a model of the whole encoding. Z3 decides the backward engine's queries 2–3×
//! faster so (BENCHMARKS.md): most ranges are implied or irrelevant, and each is a pair of
//! arithmetic bounds it would otherwise propagate. A wrapped operation keeps the ranges of its
//! result and its inputs up front: without the first `k` is free and the result anything;
//! without the others the solver may take an input out of range, which the wrap folds back in,
//! and only another round rejects that.
//!
//! Anything else (division, remainder, bitwise and/or/xor, shifts by a variable, products of
//! two variables, concatenation, widths over 64) has no linear encoding. On the first such
//! term the solver falls back for good to a bit-vector solver from its factory, replays the
//! assertions of every open scope there, and answers from it: it never fails for want of an
//! encoding. This module translates and forwards; it does not solve.

use std::time::{Duration, Instant};

use rustc_hash::{FxHashMap, FxHashSet};

use crate::error::SolverError;
use crate::eval::eval_all;
use crate::solver::{AssertionStack, Model, SatResult, Solver, SolverStats, StoreBinding};
use crate::sort::Sort;
use crate::term::{Node, Op, TermId, TermStore};
use crate::value::{ArrayValue, Value};
use crate::BvConst;

/// Makes the bit-vector solver that an [`IntEncodingSolver`] falls back to.
pub type SolverFactory = Box<dyn FnMut() -> Result<Box<dyn Solver>, SolverError>>;

/// The widest bit-vector encoded (`k·2^w` and products by constants stay within `i128`).
const MAX_WIDTH: u32 = 64;

/// A solver that hands bit-vector queries to another solver as integer arithmetic (see the
/// module documentation), or, from the first term without a linear encoding on, to a
/// bit-vector solver.
pub struct IntEncodingSolver {
    mode: Mode,
    binding: StoreBinding,
    /// Replayed on falling back.
    assertions: AssertionStack,
    fallback: SolverFactory,
    limits: Limits,
    stats: SolverStats,
}

/// The limits set so far, for the solver fallen back to.
#[derive(Clone, Copy, Default)]
struct Limits {
    timeout: Option<Duration>,
    deadline: Option<Instant>,
    resources: Option<u32>,
    conflicts: Option<u32>,
}

enum Mode {
    Integers(Box<Encoder>),
    Bits(Box<dyn Solver>),
}

/// Why a term was not encoded.
enum Unencodable {
    /// No linear encoding: fall back.
    NotLinear,
    Failed(SolverError),
}

impl From<SolverError> for Unencodable {
    fn from(e: SolverError) -> Self {
        Unencodable::Failed(e)
    }
}

impl From<crate::TermError> for Unencodable {
    fn from(e: crate::TermError) -> Self {
        Unencodable::Failed(SolverError::Term(e))
    }
}

/// Polarities in which a Boolean term occurs (bit set).
const POSITIVE: u8 = 1;
const NEGATIVE: u8 = 2;
const BOTH: u8 = POSITIVE | NEGATIVE;

/// What was added at some scope level, undone when that level is popped.
enum Undo {
    Encoded(TermId),
    Visited(TermId, u8),
    /// A deferred range was added (the last one).
    Deferred,
    /// The deferred range at this index was asserted.
    Asserted(usize),
}

/// A range side constraint not asserted until a model breaks it.
struct DeferredRange {
    within: TermId,
    asserted: bool,
}

/// The integer solver and the translation into its term store.
struct Encoder {
    inner: Box<dyn Solver>,
    ints: TermStore,
    /// Outer term -> integer term; closed under subterms (children are encoded first).
    encoded: FxHashMap<TermId, TermId>,
    /// (outer Boolean term, polarities) already looked at for array equalities.
    visited: FxHashSet<(TermId, u8)>,
    undo: Vec<Undo>,
    /// `undo.len()` at each open push.
    marks: Vec<usize>,
    /// Side constraints made while encoding, not yet asserted.
    pending: Vec<TermId>,
    /// Ranges of variables and reads, asserted only once a model breaks them.
    deferred: Vec<DeferredRange>,
    fresh: u32,
}

impl IntEncodingSolver {
    /// Encodes for `inner` (which must accept integer arithmetic and integer-indexed arrays);
    /// `fallback` makes the bit-vector solver used once a term has no linear encoding.
    pub fn new(inner: Box<dyn Solver>, fallback: SolverFactory) -> Self {
        let limits = Limits {
            timeout: inner.timeout(),
            ..Limits::default()
        };
        IntEncodingSolver {
            mode: Mode::Integers(Box::new(Encoder {
                inner,
                ints: TermStore::new(),
                encoded: FxHashMap::default(),
                visited: FxHashSet::default(),
                undo: Vec::new(),
                marks: Vec::new(),
                pending: Vec::new(),
                deferred: Vec::new(),
                fresh: 0,
            })),
            binding: StoreBinding::default(),
            assertions: AssertionStack::default(),
            fallback,
            limits,
            stats: SolverStats::default(),
        }
    }

    /// Whether the solver has fallen back to bit-vectors.
    pub fn fell_back(&self) -> bool {
        matches!(self.mode, Mode::Bits(_))
    }

    /// Switches to a bit-vector solver holding the assertions of every open scope.
    fn fall_back(&mut self, store: &TermStore) -> Result<(), SolverError> {
        let mut bits = (self.fallback)()?;
        bits.set_timeout(self.limits.timeout);
        bits.set_deadline(self.limits.deadline);
        bits.set_resource_limit(self.limits.resources);
        bits.set_conflict_limit(self.limits.conflicts);
        for (level, scope) in self.assertions.scopes().enumerate() {
            if level > 0 {
                bits.push()?;
            }
            for &t in scope {
                bits.assert(store, t)?;
            }
        }
        self.mode = Mode::Bits(bits);
        Ok(())
    }

    fn active(&mut self) -> &mut dyn Solver {
        match &mut self.mode {
            Mode::Integers(e) => &mut *e.inner,
            Mode::Bits(s) => &mut **s,
        }
    }
}

impl Solver for IntEncodingSolver {
    fn name(&self) -> String {
        match &self.mode {
            Mode::Integers(e) => format!("{} (bit-vectors as integers)", e.inner.name()),
            Mode::Bits(s) => s.name(),
        }
    }

    fn push(&mut self) -> Result<(), SolverError> {
        match &mut self.mode {
            Mode::Integers(e) => {
                e.inner.push()?;
                e.marks.push(e.undo.len());
            }
            Mode::Bits(s) => s.push()?,
        }
        self.assertions.push();
        Ok(())
    }

    fn pop(&mut self) -> Result<(), SolverError> {
        match &mut self.mode {
            Mode::Integers(e) => {
                e.inner.pop()?;
                let mark = e.marks.pop().unwrap_or(0);
                // Newest first, so that an index names the range it was recorded for.
                for undo in e.undo.drain(mark..).rev() {
                    match undo {
                        Undo::Encoded(t) => {
                            e.encoded.remove(&t);
                        }
                        Undo::Visited(t, p) => {
                            e.visited.remove(&(t, p));
                        }
                        Undo::Deferred => {
                            e.deferred.pop();
                        }
                        Undo::Asserted(i) => {
                            // Still there (deferred before it was asserted, undone newest
                            // first); `get_mut` keeps a broken invariant from panicking.
                            if let Some(range) = e.deferred.get_mut(i) {
                                range.asserted = false;
                            }
                        }
                    }
                }
            }
            Mode::Bits(s) => s.pop()?,
        }
        self.assertions.pop();
        Ok(())
    }

    fn level(&self) -> usize {
        self.assertions.level()
    }

    fn assert(&mut self, store: &TermStore, term: TermId) -> Result<(), SolverError> {
        self.binding.booleans(store, &[term])?;
        let asserted = match &mut self.mode {
            Mode::Integers(e) => e.assert(store, term),
            Mode::Bits(s) => s.assert(store, term).map_err(Unencodable::Failed),
        };
        match asserted {
            Ok(()) => {}
            Err(Unencodable::NotLinear) => {
                self.fall_back(store)?;
                self.active().assert(store, term)?;
            }
            Err(Unencodable::Failed(err)) => return Err(err),
        }
        self.assertions.assert(term);
        Ok(())
    }

    fn check(
        &mut self,
        store: &TermStore,
        assumptions: &[TermId],
    ) -> Result<SatResult, SolverError> {
        self.binding.booleans(store, assumptions)?;
        let start = Instant::now();
        let refine = self.limits.resources.is_none();
        let checked = match &mut self.mode {
            Mode::Integers(e) => e.check(store, assumptions, refine),
            Mode::Bits(s) => s.check(store, assumptions).map_err(Unencodable::Failed),
        };
        let result = match checked {
            Ok(result) => result,
            Err(Unencodable::NotLinear) => {
                self.fall_back(store)?;
                self.active().check(store, assumptions)?
            }
            Err(Unencodable::Failed(err)) => return Err(err),
        };
        self.stats.record(&result, start.elapsed());
        Ok(result)
    }

    fn model(&mut self, store: &TermStore, vars: &[TermId]) -> Result<Model, SolverError> {
        self.binding.variables(store, vars)?;
        let start = Instant::now();
        let model = match &mut self.mode {
            Mode::Bits(s) => s.model(store, vars),
            Mode::Integers(e) => e.model(store, vars),
        };
        self.stats.time += start.elapsed();
        model
    }

    fn set_timeout(&mut self, timeout: Option<Duration>) {
        self.limits.timeout = timeout;
        self.active().set_timeout(timeout);
    }

    fn timeout(&self) -> Option<Duration> {
        self.limits.timeout
    }

    fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.limits.deadline = deadline;
        self.active().set_deadline(deadline);
    }

    fn stats(&self) -> &SolverStats {
        &self.stats
    }

    fn set_resource_limit(&mut self, limit: Option<u32>) -> bool {
        self.limits.resources = limit;
        self.active().set_resource_limit(limit)
    }

    fn set_conflict_limit(&mut self, limit: Option<u32>) -> bool {
        self.limits.conflicts = limit;
        self.active().set_conflict_limit(limit)
    }
}

/// `2^w`.
fn modulus(width: u32) -> i128 {
    1i128 << width
}

/// `⌈a / m⌉` for `m > 0`.
fn div_ceil(a: i128, m: i128) -> i128 {
    -(-a).div_euclid(m)
}

/// The signed range of `w`-bit numbers.
fn range(width: u32) -> (i128, i128) {
    let half = 1i128 << (width - 1);
    (-half, half - 1)
}

impl Encoder {
    /// Encodes `term` and asserts it with its side constraints.
    fn assert(&mut self, store: &TermStore, term: TermId) -> Result<(), Unencodable> {
        let ints = self.encode_all(store, &[term])?;
        Ok(self.inner.assert(&self.ints, ints[0])?)
    }

    /// Encodes `assumptions` and checks under them (see [`Encoder::check_in_range`]).
    fn check(
        &mut self,
        store: &TermStore,
        assumptions: &[TermId],
        refine: bool,
    ) -> Result<SatResult, Unencodable> {
        let ints = self.encode_all(store, assumptions)?;
        Ok(self.check_in_range(&ints, refine)?)
    }

    /// Encodes `terms` (Boolean) and asserts the side constraints that came with them.
    fn encode_all(
        &mut self,
        store: &TermStore,
        terms: &[TermId],
    ) -> Result<Vec<TermId>, Unencodable> {
        for &t in terms {
            self.witness_negative_array_equalities(store, t)?;
        }
        let todo = store.postorder_where(terms, |t| !self.encoded.contains_key(&t));
        for t in todo {
            let int = self.encode_node(store, t)?;
            self.encoded.insert(t, int);
            self.undo.push(Undo::Encoded(t));
        }
        let ints = terms.iter().map(|t| self.encoded[t]).collect();
        for side in std::mem::take(&mut self.pending) {
            self.inner.assert(&self.ints, side)?;
        }
        Ok(ints)
    }

    /// The integer term of an outer term whose children are encoded.
    fn encode_node(&mut self, store: &TermStore, t: TermId) -> Result<TermId, Unencodable> {
        let kid = |i: usize| self.encoded[&store.node(t).args()[i]];
        Ok(match *store.node(t) {
            Node::Bool(b) => self.ints.bool_val(b)?,
            Node::Int(n) => self.ints.int_val(n)?,
            Node::Bv(c) => {
                check_width(c.width())?;
                self.ints.int_val(c.to_i128())?
            }
            Node::Var(v) => {
                let info = store.var_info(v);
                let sort = self.int_sort(store, info.sort)?;
                let var = self.ints.var(info.name.clone(), sort)?;
                if let Sort::BitVec(w) = info.sort {
                    self.defer_range(var, w)?;
                }
                var
            }
            Node::ConstArray { sort, .. } => {
                let value = kid(0);
                let sort = self.int_sort(store, sort)?;
                self.ints.const_array(sort, value)?
            }
            Node::App1(op, a) => {
                let x = kid(0);
                match op {
                    Op::Not => self.ints.not(x)?,
                    Op::IntNeg => self.ints.int_neg(x)?,
                    Op::BvNot => {
                        let minus = self.ints.int_neg(x)?;
                        let one = self.ints.int_val(1)?;
                        self.ints.int_sub(minus, one)?
                    }
                    Op::BvNeg => {
                        let w = bv_width(store, a)?;
                        let minus = self.ints.int_neg(x)?;
                        self.wrap(minus, w, &[x], w)?
                    }
                    _ => return Err(Unencodable::NotLinear),
                }
            }
            Node::App2(op, a, b) => self.encode_binary(store, op, a, b)?,
            Node::App3(op @ (Op::Ite | Op::Store), ..) => {
                let (x, y, z) = (kid(0), kid(1), kid(2));
                if op == Op::Ite {
                    self.ints.ite(x, y, z)?
                } else {
                    self.ints.store(x, y, z)?
                }
            }
            Node::App3(..) => return Err(Unencodable::NotLinear),
            Node::SignExtend { by, arg } => {
                check_width(bv_width(store, arg)? + by)?;
                kid(0)
            }
            Node::ZeroExtend { by, arg } => {
                let w = bv_width(store, arg)?;
                check_width(w + by)?;
                let x = kid(0);
                self.unsigned(x, w)?
            }
            Node::Extract { hi, lo: 0, arg } => {
                let w = bv_width(store, arg)?;
                let x = kid(0);
                self.wrap(x, hi + 1, &[x], w)?
            }
            Node::Extract { .. } => return Err(Unencodable::NotLinear),
        })
    }

    fn encode_binary(
        &mut self,
        store: &TermStore,
        op: Op,
        a: TermId,
        b: TermId,
    ) -> Result<TermId, Unencodable> {
        let (x, y) = (self.encoded[&a], self.encoded[&b]);
        let ints = &mut self.ints;
        Ok(match op {
            Op::And => ints.and(x, y)?,
            Op::Or => ints.or(x, y)?,
            Op::Xor => ints.xor(x, y)?,
            Op::Implies => ints.implies(x, y)?,
            Op::Eq => ints.eq(x, y)?,
            Op::IntAdd => ints.int_add(x, y)?,
            Op::IntSub => ints.int_sub(x, y)?,
            Op::IntMul => ints.int_mul(x, y)?,
            Op::IntDiv => ints.int_div(x, y)?,
            Op::IntMod => ints.int_mod(x, y)?,
            Op::IntLe => ints.int_le(x, y)?,
            Op::IntLt => ints.int_lt(x, y)?,
            Op::BvSlt => ints.int_lt(x, y)?,
            Op::BvSle => ints.int_le(x, y)?,
            Op::BvUlt | Op::BvUle => {
                let w = bv_width(store, a)?;
                let (ux, uy) = (self.unsigned(x, w)?, self.unsigned(y, w)?);
                if op == Op::BvUlt {
                    self.ints.int_lt(ux, uy)?
                } else {
                    self.ints.int_le(ux, uy)?
                }
            }
            Op::BvAdd | Op::BvSub => {
                let w = bv_width(store, a)?;
                let s = if op == Op::BvAdd {
                    self.ints.int_add(x, y)?
                } else {
                    self.ints.int_sub(x, y)?
                };
                self.wrap(s, w, &[x, y], w)?
            }
            Op::BvMul => {
                let w = bv_width(store, a)?;
                let (factor, other) = match (store.as_bv(a), store.as_bv(b)) {
                    (Some(c), _) => (c.to_i128(), y),
                    (_, Some(c)) => (c.to_i128(), x),
                    (None, None) => return Err(Unencodable::NotLinear),
                };
                self.times(other, factor, w)?
            }
            Op::BvShl => {
                let w = bv_width(store, a)?;
                let Some(shift) = store.as_bv(b) else {
                    return Err(Unencodable::NotLinear);
                };
                if shift.bits() >= u128::from(w) {
                    self.ints.int_val(0)?
                } else {
                    self.times(x, 1i128 << shift.bits(), w)?
                }
            }
            Op::Select => {
                let read = ints.select(x, y)?;
                if let Some((_, Sort::BitVec(w))) = store.array_parts(store.sort(a)) {
                    self.defer_range(read, w)?;
                }
                read
            }
            _ => return Err(Unencodable::NotLinear),
        })
    }

    /// `x · factor` wrapped to `w` bits.
    fn times(&mut self, x: TermId, factor: i128, w: u32) -> Result<TermId, Unencodable> {
        let c = self.ints.int_val(factor)?;
        let product = self.ints.int_mul(c, x)?;
        self.wrap(product, w, &[x], w)
    }

    /// `s - k·2^w` for a fresh `k`, required to be in the `w`-bit range, where `s` is computed
    /// from the `width`-bit numbers `inputs`, whose ranges are required up front too (see the
    /// module documentation; measured on the (4, 6) degree-counting query: 4.5 s with them
    /// deferred, 0.57 s up front).
    ///
    /// `k` is bounded by the interval of `s` over those ranges (`x + 1` wraps by `k ∈ {0, 1}`):
    /// the range of the result implies the bounds, but Z3 finds them only by branching and cuts
    /// (BENCHMARKS.md "Bounded wrap counts"). Where the interval fixes `k`, there is no `k`.
    fn wrap(
        &mut self,
        s: TermId,
        w: u32,
        inputs: &[TermId],
        width: u32,
    ) -> Result<TermId, Unencodable> {
        check_width(w)?;
        for &x in inputs {
            self.require_range(x, width)?;
        }
        if let Some(n) = self.ints.as_int(s) {
            let wrapped = BvConst::from_i128(w, n)?.to_i128();
            return Ok(self.ints.int_val(wrapped)?);
        }
        let m = modulus(w);
        let (lo, hi) = range(w);
        let ks = self.interval(s, inputs, width).and_then(|(s_lo, s_hi)| {
            let k_lo = div_ceil(s_lo.checked_sub(hi)?, m);
            Some((k_lo, s_hi.checked_sub(lo)?.div_euclid(m)))
        });
        if let Some((k, _)) = ks.filter(|(k_lo, k_hi)| k_lo == k_hi) {
            let km = self.ints.int_val(k * m)?;
            return Ok(self.ints.int_sub(s, km)?);
        }
        self.fresh += 1;
        let k = self.ints.int_var(format!("wrap!{}", self.fresh))?;
        if let Some((k_lo, k_hi)) = ks {
            let (k_lo, k_hi) = (self.ints.int_val(k_lo)?, self.ints.int_val(k_hi)?);
            let above = self.ints.int_le(k_lo, k)?;
            let below = self.ints.int_le(k, k_hi)?;
            let bounded = self.ints.and(above, below)?;
            self.pending.push(bounded);
        }
        let m = self.ints.int_val(m)?;
        let km = self.ints.int_mul(m, k)?;
        let r = self.ints.int_sub(s, km)?;
        self.require_range(r, w)?;
        Ok(r)
    }

    /// The values `s` takes when each of `inputs` is a `width`-bit number, if `s` is built from
    /// them and constants by `+`, `-`, negation and products by constants (what [`Self::wrap`]
    /// is given), and nothing overflows `i128`.
    fn interval(&self, s: TermId, inputs: &[TermId], width: u32) -> Option<(i128, i128)> {
        if let Some(n) = self.ints.as_int(s) {
            return Some((n, n));
        }
        if inputs.contains(&s) {
            return Some(range(width));
        }
        let of = |t: TermId| self.interval(t, inputs, width);
        match *self.ints.node(s) {
            Node::App1(Op::IntNeg, a) => {
                let (lo, hi) = of(a)?;
                Some((hi.checked_neg()?, lo.checked_neg()?))
            }
            Node::App2(Op::IntAdd, a, b) => {
                let ((a_lo, a_hi), (b_lo, b_hi)) = (of(a)?, of(b)?);
                Some((a_lo.checked_add(b_lo)?, a_hi.checked_add(b_hi)?))
            }
            Node::App2(Op::IntSub, a, b) => {
                let ((a_lo, a_hi), (b_lo, b_hi)) = (of(a)?, of(b)?);
                Some((a_lo.checked_sub(b_hi)?, a_hi.checked_sub(b_lo)?))
            }
            Node::App2(Op::IntMul, a, b) => {
                let (c, x) = match (self.ints.as_int(a), self.ints.as_int(b)) {
                    (Some(c), _) => (c, b),
                    (_, Some(c)) => (c, a),
                    (None, None) => return None,
                };
                let (lo, hi) = of(x)?;
                let (p, q) = (c.checked_mul(lo)?, c.checked_mul(hi)?);
                Some((p.min(q), p.max(q)))
            }
            _ => None,
        }
    }

    /// The unsigned value of the `w`-bit number `x`.
    fn unsigned(&mut self, x: TermId, w: u32) -> Result<TermId, Unencodable> {
        let zero = self.ints.int_val(0)?;
        let negative = self.ints.int_lt(x, zero)?;
        let m = self.ints.int_val(modulus(w))?;
        let lifted = self.ints.int_add(x, m)?;
        Ok(self.ints.ite(negative, lifted, x)?)
    }

    /// Adds the side constraint that `x` is a `w`-bit number.
    fn require_range(&mut self, x: TermId, w: u32) -> Result<(), Unencodable> {
        if let Some(within) = self.within_range(x, w)? {
            self.pending.push(within);
        }
        Ok(())
    }

    /// Adds the side constraint that `x` is a `w`-bit number, deferred (see the module
    /// documentation).
    fn defer_range(&mut self, x: TermId, w: u32) -> Result<(), Unencodable> {
        if let Some(within) = self.within_range(x, w)? {
            self.deferred.push(DeferredRange {
                within,
                asserted: false,
            });
            self.undo.push(Undo::Deferred);
        }
        Ok(())
    }

    /// `lo <= x <= hi` for the `w`-bit range, unless it is trivially true.
    fn within_range(&mut self, x: TermId, w: u32) -> Result<Option<TermId>, Unencodable> {
        check_width(w)?;
        let (lo, hi) = range(w);
        let (lo, hi) = (self.ints.int_val(lo)?, self.ints.int_val(hi)?);
        let above = self.ints.int_le(lo, x)?;
        let below = self.ints.int_le(x, hi)?;
        let within = self.ints.and(above, below)?;
        Ok((self.ints.as_bool(within) != Some(true)).then_some(within))
    }

    /// Checks the integer query under `assumptions` until a model keeps every deferred range
    /// (asserting those a model breaks) or the answer is not `sat`. The time limit covers all
    /// the rounds together. Without `refine` (a check under a resource limit, whose caller
    /// takes `unknown` for an answer) a `sat` with ranges still deferred answers `unknown` at
    /// once: finding out whether the model keeps them means having Z3 build it, a good part of
    /// a small check (0.4–0.8 ms of `conj-loops`' 1.5–1.7 ms loop-entry checks, BENCHMARKS.md).
    fn check_in_range(
        &mut self,
        assumptions: &[TermId],
        refine: bool,
    ) -> Result<SatResult, SolverError> {
        let limit = self.inner.timeout();
        let start = Instant::now();
        let result = loop {
            let result = self.inner.check(&self.ints, assumptions)?;
            let open = self.deferred.iter().any(|range| !range.asserted);
            if result != SatResult::Sat || !open {
                break result;
            }
            if !refine {
                break SatResult::Unknown("sat without the deferred ranges".into());
            }
            if !self.assert_broken_ranges()? {
                break result;
            }
            if let Some(limit) = limit {
                match limit.checked_sub(start.elapsed()) {
                    Some(left) if !left.is_zero() => self.inner.set_timeout(Some(left)),
                    _ => break SatResult::Unknown("timeout".into()),
                }
            }
        };
        self.inner.set_timeout(limit);
        Ok(result)
    }

    /// Asserts the deferred ranges that the inner solver's model breaks; whether there was one.
    fn assert_broken_ranges(&mut self) -> Result<bool, SolverError> {
        let open: Vec<usize> = (0..self.deferred.len())
            .filter(|&i| !self.deferred[i].asserted)
            .collect();
        if open.is_empty() {
            return Ok(false);
        }
        let ranges: Vec<TermId> = open.iter().map(|&i| self.deferred[i].within).collect();
        let vars: Vec<TermId> = self
            .ints
            .postorder(&ranges)
            .into_iter()
            .filter(|&t| self.ints.var_id(t).is_some())
            .collect();
        let model = self.inner.model(&self.ints, &vars)?;
        // A range that cannot be evaluated (a model value beyond `i128`) counts as broken.
        let kept =
            eval_all(&self.ints, &ranges, &model.to_assignment(&self.ints)).unwrap_or_default();
        let mut broken = false;
        for (k, &i) in open.iter().enumerate() {
            if kept.get(k) != Some(&Value::Bool(true)) {
                self.inner.assert(&self.ints, self.deferred[i].within)?;
                self.deferred[i].asserted = true;
                self.undo.push(Undo::Asserted(i));
                broken = true;
            }
        }
        Ok(broken)
    }

    /// The integer sort standing for an outer sort.
    fn int_sort(&mut self, store: &TermStore, sort: Sort) -> Result<Sort, Unencodable> {
        Ok(match sort {
            Sort::Bool => Sort::Bool,
            Sort::Int => Sort::Int,
            Sort::BitVec(w) => {
                check_width(w)?;
                Sort::Int
            }
            Sort::Array(_) => {
                let (index, element) = store.array_parts(sort).ok_or(Unencodable::NotLinear)?;
                if !matches!(index, Sort::BitVec(_) | Sort::Int)
                    || !matches!(element, Sort::BitVec(_) | Sort::Int | Sort::Bool)
                {
                    return Err(Unencodable::NotLinear);
                }
                let (index, element) =
                    (self.int_sort(store, index)?, self.int_sort(store, element)?);
                self.ints.array_sort(index, element)?
            }
        })
    }

    /// Gives every equality of bit-vector-indexed arrays in `root` that occurs in a negative
    /// position a witness (see the module documentation).
    fn witness_negative_array_equalities(
        &mut self,
        store: &TermStore,
        root: TermId,
    ) -> Result<(), Unencodable> {
        let mut stack = vec![(root, POSITIVE)];
        while let Some((t, polarity)) = stack.pop() {
            if store.sort(t) != Sort::Bool {
                // Boolean subterms of numbers (ite conditions) are looked at with both
                // polarities; the Boolean-free rest needs no visit.
                if !self.visited.insert((t, BOTH)) {
                    continue;
                }
                self.undo.push(Undo::Visited(t, BOTH));
                for &c in store.node(t).args().iter() {
                    stack.push((c, BOTH));
                }
                continue;
            }
            if !self.visited.insert((t, polarity)) {
                continue;
            }
            self.undo.push(Undo::Visited(t, polarity));
            let flip = |p: u8| match p {
                POSITIVE => NEGATIVE,
                NEGATIVE => POSITIVE,
                other => other,
            };
            match *store.node(t) {
                Node::App1(Op::Not, a) => stack.push((a, flip(polarity))),
                Node::App2(Op::And | Op::Or, a, b) => {
                    stack.push((a, polarity));
                    stack.push((b, polarity));
                }
                Node::App2(Op::Implies, a, b) => {
                    stack.push((a, flip(polarity)));
                    stack.push((b, polarity));
                }
                Node::App3(Op::Ite, c, a, b) => {
                    stack.push((c, BOTH));
                    stack.push((a, polarity));
                    stack.push((b, polarity));
                }
                Node::App2(Op::Eq, a, b) if matches!(store.sort(a), Sort::Array(_)) => {
                    if polarity & NEGATIVE != 0 {
                        self.witness_difference(store, a, b)?;
                    }
                    stack.push((a, BOTH));
                    stack.push((b, BOTH));
                }
                ref node => {
                    for &c in node.args().iter() {
                        stack.push((c, BOTH));
                    }
                }
            }
        }
        Ok(())
    }

    /// `a = b ∨ (a[w] != b[w] for a fresh index w in range)`, the reads in range.
    fn witness_difference(
        &mut self,
        store: &TermStore,
        a: TermId,
        b: TermId,
    ) -> Result<(), Unencodable> {
        let (index, element) = store
            .array_parts(store.sort(a))
            .ok_or(Unencodable::NotLinear)?;
        let todo = store.postorder_where(&[a, b], |t| !self.encoded.contains_key(&t));
        for t in todo {
            let int = self.encode_node(store, t)?;
            self.encoded.insert(t, int);
            self.undo.push(Undo::Encoded(t));
        }
        let (x, y) = (self.encoded[&a], self.encoded[&b]);
        self.fresh += 1;
        let w = self.ints.int_var(format!("differ!{}", self.fresh))?;
        if let Sort::BitVec(iw) = index {
            self.defer_range(w, iw)?;
        }
        let (xa, yb) = (self.ints.select(x, w)?, self.ints.select(y, w)?);
        if let Sort::BitVec(ew) = element {
            self.defer_range(xa, ew)?;
            self.defer_range(yb, ew)?;
        }
        let equal = self.ints.eq(x, y)?;
        let differ = self.ints.neq(xa, yb)?;
        let side = self.ints.or(equal, differ)?;
        self.pending.push(side);
        Ok(())
    }

    /// The model of the outer variables `vars`, read back from the integer solver.
    fn model(&mut self, store: &TermStore, vars: &[TermId]) -> Result<Model, SolverError> {
        let known: Vec<TermId> = vars
            .iter()
            .filter_map(|v| self.encoded.get(v).copied())
            .collect();
        let ints = self.inner.model(&self.ints, &known)?;
        let mut out = Model::new();
        for &v in vars {
            let sort = store.sort(v);
            let value = match self.encoded.get(&v).and_then(|i| ints.get(*i)) {
                Some(value) => from_int_value(store, sort, value)?,
                None => Value::default_of(store.sorts(), sort),
            };
            out.insert(v, value);
        }
        Ok(out)
    }
}

/// The outer value of sort `sort` that the integer solver's `value` stands for.
fn from_int_value(store: &TermStore, sort: Sort, value: &Value) -> Result<Value, SolverError> {
    let bad = || SolverError::Protocol(format!("integer model value {value:?} for {sort:?}"));
    Ok(match (sort, value) {
        (Sort::Bool, Value::Bool(_)) | (Sort::Int, Value::Int(_)) => value.clone(),
        (Sort::BitVec(w), Value::Int(n)) => Value::Bv(BvConst::from_i128(w, *n)?),
        (Sort::Array(_), Value::Array(array)) => {
            let (index, element) = store.array_parts(sort).ok_or_else(bad)?;
            let default = from_int_value(store, element, array.default_value())?;
            let mut out = ArrayValue::constant(default);
            for (i, e) in array.entries() {
                // Indices outside the range stand for no bit-vector index.
                let in_range = match (index, i) {
                    (Sort::BitVec(w), Value::Int(n)) => {
                        let (lo, hi) = range(w);
                        (lo..=hi).contains(n)
                    }
                    _ => true,
                };
                if in_range {
                    out.set(
                        from_int_value(store, index, i)?,
                        from_int_value(store, element, e)?,
                    );
                }
            }
            Value::Array(out)
        }
        _ => return Err(bad()),
    })
}

fn check_width(w: u32) -> Result<(), Unencodable> {
    if w <= MAX_WIDTH {
        Ok(())
    } else {
        Err(Unencodable::NotLinear)
    }
}

fn bv_width(store: &TermStore, t: TermId) -> Result<u32, Unencodable> {
    match store.sort(t) {
        Sort::BitVec(w) => Ok(w),
        _ => Err(Unencodable::NotLinear),
    }
}
