//! Loop headers: turning the annotations the explored paths left at loop headers into inductive
//! invariants that cover every number of iterations (seed 002 §4.2.1, §5.4.2).
//!
//! The loop headers of a function are cut points. From the tried header, every *segment* (a
//! path from a header to the next header, to the entry's return, or to where it leaves the
//! tried loop just before something this check cannot follow) is run once from a *general*
//! state whose locals are the placeholders themselves; every header a segment reaches is added
//! and its segments are run too. Nested and sequential loops are so proved together: an outer
//! loop's proof needs the inner header's invariant, and the inner loop's exit needs the outer
//! one's. Each header's candidates are its initialization facts (locals initialized on every
//! way to it, `facts.rs`), the atoms of its annotation (the conjuncts of its disjuncts), the
//! congruences modulo powers of two that every way to it agrees on (`x & 3 == 0`), the
//! signed orders of the few locals its loop assigns (`k <= i`) and, at the tried header, the
//! affine equalities that every sampled reachable state satisfies (`a + b == 3*i`,
//! [`Induction::sampled_equalities`]).
//! Houdini-style, candidates some segment does not establish at its end are dropped until every
//! segment establishes what its end header keeps. The invariants `I_h` are annotations (no state
//! satisfying one reaches an error) when, in addition, every segment passes its checks under its
//! start's invariant and a segment that stops elsewhere arrives where the annotation there holds.
//! By induction on the number of segments run, a state satisfying `I_h` at `h` fails no check.
//! Memory reads give any value, so segments over-approximate what runs: never a wrong proof.
//! The thesis's per-loop counter `_t` is not needed: states that come round a back edge wait
//! (the driver parks them) instead of being counted.
//! Nothing here changes annotations (the caller adds the invariants) or runs states.

use std::collections::{BTreeSet, VecDeque};
use std::rc::Rc;

use rustc_hash::FxHashMap;
use symex_ir::cfg::{BlockId, InstKind, LocalId, LocalKind, Module, Operand, Terminator, Width};
use symex_smt::{
    eval_all, Answer, Assignment, BvConst, ModelResult, Node, Op, SatResult, Sort, TermId,
    TermStore, Value,
};

use crate::common::solver::Queries;
use crate::common::terms::{self, WIDTH};
use crate::error::EngineError;
use crate::forward::program::ProgramInfo;
use crate::forward::state::State;
use crate::forward::subsume::equalities::{affine_equalities, with_eliminations};
use crate::forward::subsume::facts::FunctionFacts;
use crate::forward::subsume::placeholders::{Placeholders, Role};
use crate::forward::subsume::semantics::{self, Locals};
use crate::forward::subsume::{instantiate, Annotation, Location};
use crate::forward::value::SymValue;

type Result<T> = std::result::Result<T, EngineError>;

/// Segments enumerated at most over all headers of one attempt; a bigger nest is not tried.
const MAX_SEGMENTS: usize = 256;

/// Loop headers proved together at most.
const MAX_HEADERS: usize = 24;

/// Block runs at most while enumerating the segments of one header.
const MAX_BLOCK_RUNS: usize = 4096;

/// Locals a loop assigns at most for their orders (`i <= k`, both ways for each pair) to be
/// candidates: the candidates grow with the square of their number.
const MAX_ORDERED_LOCALS: usize = 4;

/// Two-atom clauses (`a ∨ b`, from two disjuncts of an annotation) at most per header: a
/// disjunctive invariant like `j <= 8 ∨ j <= j0` is no conjunction of atoms.
const MAX_CLAUSES: usize = 32;

/// Most guards of assertions proposed per header (each costs queries of the attempt's budget).
const MAX_ERROR_GUARDS: usize = 32;

/// Locals (not temporaries) holding numbers a header may have for its states to be sampled.
const MAX_SAMPLED_LOCALS: usize = 10;

/// Models of the parked state's path the samples start from (a query each).
const MAX_SAMPLE_STARTS: usize = 3;

/// Samples of a header's states at most, and rounds of its loop run from each start.
const MAX_SAMPLES: usize = 48;
const MAX_SAMPLE_ROUNDS: usize = 12;

/// Equalities proposed per width of number at most.
const MAX_EQUALITIES: usize = 16;

/// Values tried in turn for everything a segment reads from input or memory (any value):
/// zero, one and all ones, for guards like `while (__VERIFIER_nondet_int())`.
const ANY_CHOICES: [i128; 3] = [0, 1, -1];

/// Solver queries one attempt may ask. Past it every question is answered "not shown", which
/// only drops candidates or keeps a stronger invariant: never a wrong one.
pub const QUERY_BUDGET: u32 = 500;

/// The locals of the loop's frame along one segment.
#[derive(Clone)]
struct PathLocals {
    /// Per local: its number (`None`: not a number) and whether it is initialized.
    values: Vec<(Option<TermId>, TermId)>,
    cell_backed: Vec<bool>,
}

impl Locals for PathLocals {
    fn number(&mut self, _: &mut TermStore, local: LocalId) -> Result<Option<TermId>> {
        if self.cell_backed.get(local.index()).copied().unwrap_or(true) {
            return Ok(None);
        }
        Ok(self.values.get(local.index()).and_then(|v| v.0))
    }

    fn initialized(&mut self, _: &mut TermStore, local: LocalId) -> Result<Option<TermId>> {
        if self.cell_backed.get(local.index()).copied().unwrap_or(true) {
            return Ok(None);
        }
        Ok(self.values.get(local.index()).map(|v| v.1))
    }
}

/// Where a segment ends.
#[derive(Clone, Copy, PartialEq, Eq)]
enum End {
    /// At the start of this header (an index into the attempt's headers).
    Header(usize),
    /// The entry function returned: nothing more can fail.
    Returned,
    /// At the start of this block, after leaving the loop, because what follows is beyond this
    /// check: the annotation there must hold.
    Left(BlockId),
}

/// A segment's state so far.
#[derive(Clone)]
struct Walked {
    locals: PathLocals,
    /// Branch and `assume` conditions taken.
    conditions: Vec<TermId>,
    /// Conditions under which the checks on the way pass, each with the number of `assume`
    /// conditions taken before it: a check must pass without the assumptions that come after
    /// it (`reach_error(); abort();` is `check 0; assume 0`, and the `assume 0` must not make
    /// the failing check vacuous). Branch conditions after a check may stay: the segments
    /// enumerate both ways of every branch, so their paths still cover every run.
    checks: Vec<(TermId, usize)>,
    /// The positions in `conditions` of the `assume` conditions.
    assumes: Vec<usize>,
    /// The state where the segment first stepped out of its header's loop (with a number that
    /// identifies it): the segment ends there if it later meets what this check cannot follow.
    left: Option<Rc<(usize, BlockId, Walked)>>,
}

/// The headers of one attempt and their segments.
struct Nest {
    headers: Vec<BlockId>,
    /// Per header: its segments could not be enumerated, so it is no cut point of the proof
    /// but a goal (the annotation there must hold where a segment reaches it).
    opaque: Vec<bool>,
    segments: Vec<Segment>,
}

struct Segment {
    /// The header it starts at (an index into the attempt's headers).
    from: usize,
    walked: Walked,
    end: End,
}

pub struct Induction<'a> {
    pub store: &'a mut TermStore,
    pub queries: &'a mut Queries,
    pub ph: &'a mut Placeholders,
    pub module: &'a Module,
    pub info: &'a ProgramInfo,
    pub facts: &'a FunctionFacts,
    pub annotations: &'a FxHashMap<Location, Annotation>,
    pub location: Location,
    /// A state waiting at the tried header: the invariant is for it, so a candidate it does not
    /// satisfy is no candidate. Without this filter the candidates may contradict each other
    /// (`i < n` and `¬(i < n)` from two annotations), and a contradictory set is inductive and
    /// safe, covering nothing.
    pub parked: &'a State,
    /// Queries left ([`QUERY_BUDGET`]).
    pub budget: u32,
    /// The headers and blocks whose annotations the attempt read (so far): with the same
    /// annotations there, another attempt can only fail again.
    pub read: Vec<BlockId>,
}

/// The candidates of one header: facts every reachable state satisfies there (never weakened
/// away: that would cover no more states), then atoms of its annotation.
#[derive(Clone)]
struct Candidates {
    facts: Vec<TermId>,
    atoms: Vec<TermId>,
}

impl Candidates {
    fn all(&self) -> Vec<TermId> {
        self.facts.iter().chain(&self.atoms).copied().collect()
    }
}

impl Induction<'_> {
    /// The loop's frame (0 = the entry's): the parked state's top frame.
    fn frame(&self) -> usize {
        self.parked.stack.len().saturating_sub(1)
    }

    /// Inductive annotations for the tried header and the headers its segments reach, if the
    /// candidates give them.
    ///
    /// The weakest candidates (the facts alone) are tried first. Otherwise Houdini gives the
    /// strongest inductive subset of all candidates; it may hold only where a loop exits at
    /// once (a candidate like `¬(i < n)` is preserved vacuously), so it is then weakened, atom
    /// by atom, as long as it stays inductive and safe.
    pub fn invariants(&mut self) -> Result<Option<Vec<(BlockId, TermId)>>> {
        let frame = self.frame();
        let Some(nest) = self.nest()? else {
            return Ok(None);
        };
        let headers = &nest.headers;
        let (_, func, _) = self.location;
        let function = &self.module.functions[func.index()];
        let mut full = Vec::with_capacity(headers.len());
        for &h in headers {
            let mut facts = Vec::new();
            for local in self.facts.initialized_at(function, h) {
                let cell_backed = self.info.functions[func.index()].is_cell_backed(local);
                if !cell_backed {
                    facts.push(self.ph.init(self.store, frame, local)?);
                }
            }
            let atoms = self.atom_candidates(h, &nest)?;
            full.push(Candidates { facts, atoms });
        }
        let weakest: Vec<Candidates> = full
            .iter()
            .map(|c| Candidates {
                facts: c.facts.clone(),
                atoms: Vec::new(),
            })
            .collect();
        for start in [weakest, full] {
            let Some(mut kept) = self.houdini(start, &nest)? else {
                continue;
            };
            if !self.all_safe(&kept, &nest)? {
                continue;
            }
            for h in 0..kept.len() {
                // Often none of the atoms is needed: one try drops them all.
                let mut none = kept.clone();
                none[h].atoms.clear();
                if !kept[h].atoms.is_empty() && self.segments_hold_from(h, &none, &nest)? {
                    kept = none;
                    continue;
                }
                let mut i = kept[h].atoms.len();
                while i > 0 {
                    i -= 1;
                    let mut weaker = kept.clone();
                    weaker[h].atoms.remove(i);
                    if self.segments_hold_from(h, &weaker, &nest)? {
                        kept = weaker;
                    }
                }
            }
            let mut proved = Vec::with_capacity(headers.len());
            for ((h, c), &opaque) in headers.iter().zip(&kept).zip(&nest.opaque) {
                if !opaque {
                    proved.push((*h, self.store.and_all(&c.all())?));
                }
            }
            return Ok(Some(proved));
        }
        Ok(None)
    }

    /// The atom candidates of header `h`: congruences, orders of the locals its loop assigns,
    /// sampled equalities (at the tried header), then its annotation's atoms; at the tried
    /// header only those the parked state satisfies. Congruences and orders come first because
    /// the weakening drops atoms from the last, and an annotation atom like `¬(i < n)` makes a
    /// set inductive only where the loop exits at once, which covers no state that comes round
    /// the loop.
    fn atom_candidates(&mut self, h: BlockId, nest: &Nest) -> Result<Vec<TermId>> {
        let frame = self.frame();
        let (_, func, tried) = self.location;
        let function = &self.module.functions[func.index()];
        let info = &self.info.functions[func.index()];
        let mut atoms = Vec::new();
        for (local, bits, value) in self.facts.congruences_at(function, info, h) {
            let width = function.local(local).width;
            atoms.push(self.congruence(local, width, bits, value)?);
        }
        let assigned = self.facts.assigned_in_loop(function, info, h);
        let (read, unsigned) = self.facts.read_at_header(function, info, h);
        let bounds = self.facts.bounds_at(function, info, h);
        let width = |l: LocalId| function.local(l).width;
        // Bounds of the locals the loop assigns or tests: `n <= 255` of an `unsigned char`.
        for &(x, bits) in &bounds {
            if assigned.contains(&x) || read.contains(&x) {
                let vx = self.ph.value(self.store, frame, x, width(x))?;
                let most = self.store.bv_val(width(x).bits(), (1u128 << bits) - 1)?;
                atoms.push(self.store.bv_ule(vx, most)?);
            }
        }
        if assigned.len() <= MAX_ORDERED_LOCALS {
            for &x in &assigned {
                for &y in assigned.iter().filter(|&&y| y != x && width(y) == width(x)) {
                    let vx = self.ph.value(self.store, frame, x, width(x))?;
                    let vy = self.ph.value(self.store, frame, y, width(y))?;
                    atoms.push(self.store.bv_sle(vx, vy)?);
                }
                // `i <= n` of a loop `while (i < n)`, compared as its condition compares.
                for &y in read
                    .iter()
                    .filter(|y| !assigned.contains(y) && width(**y) == width(x))
                {
                    let vx = self.ph.value(self.store, frame, x, width(x))?;
                    let vy = self.ph.value(self.store, frame, y, width(y))?;
                    atoms.push(match unsigned {
                        true => self.store.bv_ule(vx, vy)?,
                        false => self.store.bv_sle(vx, vy)?,
                    });
                }
            }
            atoms.extend(self.scaled_orders(&assigned, &bounds)?);
        }
        if h == tried {
            atoms.extend(self.sampled_equalities(nest, &assigned)?);
        }
        // That no assertion's guard holds (`0 <= level`, `level <= 2` for `if (level < 0 ||
        // level > 2) reach_error();`): a loop no path leaves has no annotation to offer.
        let guards = self.facts.error_guards(function, info, h);
        for (op, a, b, error_when) in guards.into_iter().take(MAX_ERROR_GUARDS) {
            let mut operand = |op: Operand| match op {
                Operand::Local(x) => self.ph.value(self.store, frame, x, width(x)),
                Operand::Const(n) => Ok(terms::int_const(self.store, n)?),
                Operand::Const64(n) => Ok(terms::int64_const(self.store, n)?),
                _ => Err(EngineError::Internal("a guard of another operand".into())),
            };
            let (va, vb) = (operand(a)?, operand(b)?);
            if self.store.sort(va) != self.store.sort(vb) {
                continue;
            }
            let holds = terms::binary(self.store, op, va, vb)?;
            let holds = terms::truth(self.store, holds)?;
            atoms.push(match error_when {
                true => self.store.not(holds)?,
                false => holds,
            });
        }
        if let Some(a) = self.annotation_of(h) {
            let disjuncts = self.disjuncts_atoms(a);
            atoms.extend(distinct_atoms(&disjuncts));
            atoms.extend(self.clauses(&disjuncts)?);
        }
        if h != tried {
            return Ok(atoms);
        }
        let mut satisfied = Vec::with_capacity(atoms.len());
        for atom in atoms {
            if self.parked_satisfies(atom)? {
                satisfied.push(atom);
            }
        }
        Ok(satisfied)
    }

    /// `a <= B * b` (unsigned) for every two locals `a`, `b` the loop assigns and the bound
    /// `B = 2^k - 1` of a third it assigns (`s <= 255 * i` where `s += v` adds an `unsigned
    /// char` `v` on each of `i` rounds): the sum of `i` values of at most `B` each.
    fn scaled_orders(
        &mut self,
        assigned: &[LocalId],
        bounds: &[(LocalId, u32)],
    ) -> Result<Vec<TermId>> {
        let frame = self.frame();
        let (_, func, _) = self.location;
        let function = &self.module.functions[func.index()];
        let width = |l: LocalId| function.local(l).width;
        let mut atoms = Vec::new();
        for &(v, bits) in bounds
            .iter()
            .filter(|(v, bits)| assigned.contains(v) && *bits >= 2)
        {
            let others = || assigned.iter().copied().filter(move |&l| l != v);
            for a in others() {
                for b in others().filter(|&b| b != a && width(b) == width(a)) {
                    let va = self.ph.value(self.store, frame, a, width(a))?;
                    let vb = self.ph.value(self.store, frame, b, width(b))?;
                    let most = self.store.bv_val(width(a).bits(), (1u128 << bits) - 1)?;
                    let scaled = self.store.bv_mul(most, vb)?;
                    atoms.push(self.store.bv_ule(va, scaled)?);
                }
            }
        }
        Ok(atoms)
    }

    /// Affine equalities among the tried header's numbers that every sampled state satisfies
    /// (`equalities.rs`), at most [`MAX_EQUALITIES`] per width. The samples are reachable
    /// states: models of the parked state's path (each differing from the earlier ones in a
    /// local the loop does not assign, so that a bound like `n` varies), then what the
    /// segments back to the header make of them, breadth first. A segment runs on the sample's
    /// values, with each of [`ANY_CHOICES`] for what it reads from input or memory; a sample
    /// that is no reachable state only makes the guess weaker.
    fn sampled_equalities(&mut self, nest: &Nest, assigned: &[LocalId]) -> Result<Vec<TermId>> {
        let frame = self.frame();
        let (_, func, _) = self.location;
        let function = &self.module.functions[func.index()];
        let info = &self.info.functions[func.index()];
        let Some(top) = self.parked.stack.get(frame) else {
            return Ok(Vec::new());
        };
        let mut tracked: Vec<(LocalId, Width, TermId)> = Vec::new();
        for (l, decl) in function.locals.iter().enumerate() {
            let local = LocalId(l as u32);
            if decl.kind == LocalKind::Temp || info.is_cell_backed(local) {
                continue;
            }
            if let Some(SymValue::Int(t)) = top.locals.get(l) {
                if self.store.sort(*t) == Sort::BitVec(decl.width.bits()) {
                    tracked.push((local, decl.width, *t));
                }
            }
        }
        if tracked.is_empty() || tracked.len() > MAX_SAMPLED_LOCALS {
            return Ok(Vec::new());
        }
        let starts = self.sample_starts(&tracked, assigned)?;
        let round_trips: Vec<&Segment> = (nest.segments.iter())
            .filter(|s| s.from == 0 && s.end == End::Header(0))
            .collect();
        let mut seen = BTreeSet::new();
        let mut samples = Vec::new();
        let mut queue: VecDeque<(Vec<i128>, usize)> = starts.into_iter().map(|s| (s, 0)).collect();
        while let Some((sample, round)) = queue.pop_front() {
            if samples.len() == MAX_SAMPLES {
                break;
            }
            if !seen.insert(sample.clone()) {
                continue;
            }
            if round < MAX_SAMPLE_ROUNDS {
                for segment in &round_trips {
                    if let Some(next) = self.run_on_sample(segment, &tracked, &sample)? {
                        queue.push_back((next, round + 1));
                    }
                }
            }
            samples.push(sample);
        }
        let mut atoms = Vec::new();
        for width in [Width::W32, Width::W64] {
            let columns: Vec<usize> = (0..tracked.len())
                .filter(|&c| tracked[c].1 == width)
                .collect();
            // Fewer samples than unknowns leave relations the samples cannot tell apart.
            if columns.is_empty() || samples.len() <= columns.len() {
                continue;
            }
            let rows: Vec<Vec<i128>> = (samples.iter())
                .map(|s| columns.iter().map(|&c| s[c]).collect())
                .collect();
            let equalities = with_eliminations(affine_equalities(&rows).unwrap_or_default());
            for equality in equalities.into_iter().take(MAX_EQUALITIES) {
                // Positive coefficients on one side, negative ones on the other: Z3 bit-blasts
                // `x * -1` as a multiplier, and an equality of two such circuits took it 16 s
                // where `a + b == 3 * i` takes milliseconds.
                let (&constant, coefficients) = equality.split_last().expect("a constant");
                let bits = width.bits();
                let mut sides = [self.store.bv_val(bits, 0)?, self.store.bv_val(bits, 0)?];
                let terms = coefficients
                    .iter()
                    .zip(&columns)
                    .map(|(&c, &col)| (c, Some(col)));
                for (c, column) in terms.chain([(constant, None)]).filter(|&(c, _)| c != 0) {
                    let term = match column {
                        None => self.store.bv_val(bits, c.unsigned_abs())?,
                        Some(column) => {
                            let x = self.ph.value(self.store, frame, tracked[column].0, width)?;
                            self.scaled(x, c.unsigned_abs(), bits)?
                        }
                    };
                    let side = &mut sides[usize::from(c < 0)];
                    *side = self.store.bv_add(*side, term)?;
                }
                atoms.push(self.store.eq(sides[0], sides[1])?);
            }
        }
        Ok(atoms)
    }

    /// `factor * x` in `bits` bits, a power of two as a shift: Z3 proved a query of `2 * x`
    /// terms in 0.13 s with shifts and in 3.9 s with `bvmul` (and with `x + x`). Other factors
    /// stay products: as shifts and additions, `3 * i` cost Z3 more work on the corpus's
    /// `subsume_sampled_equality.uc` (33 against 12 million units).
    fn scaled(&mut self, x: TermId, factor: u128, bits: u32) -> Result<TermId> {
        if factor.is_power_of_two() {
            let by = self.store.bv_val(bits, factor.trailing_zeros().into())?;
            return Ok(self.store.bv_shl(x, by)?);
        }
        let factor = self.store.bv_val(bits, factor)?;
        Ok(self.store.bv_mul(factor, x)?)
    }

    /// The values of the `tracked` locals in up to [`MAX_SAMPLE_STARTS`] models of the parked
    /// state's path, each differing from the earlier ones in a local not `assigned` in the
    /// loop (in any tracked local if the loop assigns them all).
    fn sample_starts(
        &mut self,
        tracked: &[(LocalId, Width, TermId)],
        assigned: &[LocalId],
    ) -> Result<Vec<Vec<i128>>> {
        let terms: Vec<TermId> = tracked.iter().map(|t| t.2).collect();
        let vars: Vec<TermId> = (self.store.vars_of(&terms).into_iter())
            .map(|v| self.store.var_info(v).term)
            .collect();
        // Whether some tracked local is not assigned in the loop, a bound that should vary.
        let fixed = tracked.iter().any(|t| !assigned.contains(&t.0));
        let mut facts = self.parked.pc.to_vec();
        let mut starts = Vec::new();
        while starts.len() < MAX_SAMPLE_STARTS && self.budget > 0 {
            self.budget -= 1;
            let ModelResult::Sat(model) = self.queries.get_model(self.store, &facts, &vars)? else {
                break;
            };
            let model = model.to_assignment(self.store);
            let values = eval_all(self.store, &terms, &model).ok();
            let Some(start) = values.and_then(|v| numbers(&v)) else {
                break;
            };
            let mut differs = Vec::new();
            for (&(local, width, term), &value) in tracked.iter().zip(&start) {
                if !fixed || !assigned.contains(&local) {
                    let value = self.store.bv_signed(width.bits(), value)?;
                    let same = self.store.eq(term, value)?;
                    differs.push(self.store.not(same)?);
                }
            }
            facts.push(self.store.or_all(&differs)?);
            starts.push(start);
        }
        Ok(starts)
    }

    /// The `tracked` locals' values after `segment` from a state where they hold `sample`:
    /// `None` when it cannot run there (a condition or check fails for each of
    /// [`ANY_CHOICES`]) or reads or leaves something else than those numbers.
    fn run_on_sample(
        &mut self,
        segment: &Segment,
        tracked: &[(LocalId, Width, TermId)],
        sample: &[i128],
    ) -> Result<Option<Vec<i128>>> {
        let frame = self.frame();
        let walked = &segment.walked;
        let mut asked: Vec<TermId> = walked.conditions.clone();
        asked.extend(walked.checks.iter().map(|&(check, _)| check));
        let guards = asked.len();
        for &(local, _, _) in tracked {
            match walked.locals.values.get(local.index()) {
                Some(&(Some(end), _)) => asked.push(end),
                _ => return Ok(None),
            }
        }
        let mut given = Assignment::new();
        for (&(local, width, _), &value) in tracked.iter().zip(sample) {
            let value = Value::Bv(BvConst::from_i128(width.bits(), value)?);
            let placeholder = self.ph.value(self.store, frame, local, width)?;
            let init = self.ph.init(self.store, frame, local)?;
            for (term, value) in [(placeholder, value), (init, Value::Bool(true))] {
                if let Some(var) = self.store.var_id(term) {
                    given.insert(var, value);
                }
            }
        }
        let any: Vec<_> = (self.store.vars_of(&asked).into_iter())
            .filter(|&v| self.ph.role(v) == Some(Role::Any))
            .collect();
        for choice in ANY_CHOICES {
            let mut chosen = given.clone();
            for &var in &any {
                let value = match self.store.sort(self.store.var_info(var).term) {
                    Sort::Bool => Value::Bool(choice != 0),
                    Sort::BitVec(bits) => Value::Bv(BvConst::from_i128(bits, choice)?),
                    _ => return Ok(None),
                };
                chosen.insert(var, value);
            }
            let Ok(values) = eval_all(self.store, &asked, &chosen) else {
                return Ok(None);
            };
            if values[..guards].iter().all(|v| *v == Value::Bool(true)) {
                return Ok(numbers(&values[guards..]));
            }
        }
        Ok(None)
    }

    /// Whether the parked state satisfies `atom` (its path condition implies `atom` with its
    /// values put in, or the solver could not tell).
    fn parked_satisfies(&mut self, atom: TermId) -> Result<bool> {
        // An atom its values cannot be put into (a local that holds no number) cannot cover it.
        let Some(instance) = instantiate(self.store, self.ph, self.parked, atom)? else {
            return Ok(false);
        };
        if let Some(value) = self.store.as_bool(instance) {
            return Ok(value);
        }
        if self.budget == 0 {
            return Ok(true);
        }
        self.budget -= 1;
        let answer = self
            .queries
            .must_be_true(self.store, &self.parked.pc, instance)?;
        Ok(!matches!(answer, Answer::No))
    }

    /// `local`'s low `bits` bits (at most 32) are `value`: `local & (2^bits - 1) == value`.
    fn congruence(
        &mut self,
        local: LocalId,
        width: Width,
        bits: u32,
        value: u32,
    ) -> Result<TermId> {
        let frame = self.frame();
        let x = self.ph.value(self.store, frame, local, width)?;
        let mask = if bits >= WIDTH {
            u32::MAX
        } else {
            (1 << bits) - 1
        };
        let mask = self.store.bv_val(width.bits(), u128::from(mask))?;
        let low = self.store.bv_and(x, mask)?;
        let value = self.store.bv_val(width.bits(), u128::from(value))?;
        Ok(self.store.eq(low, value)?)
    }

    /// Drops the candidates some segment does not establish at its end header (assuming its
    /// start's candidates and its checks) until none is dropped.
    fn houdini(
        &mut self,
        mut candidates: Vec<Candidates>,
        nest: &Nest,
    ) -> Result<Option<Vec<Candidates>>> {
        loop {
            let mut changed = false;
            for segment in &nest.segments {
                let End::Header(to) = segment.end else {
                    continue;
                };
                if nest.opaque[to] {
                    continue;
                }
                let assumed = self.store.and_all(&candidates[segment.from].all())?;
                let target = &candidates[to];
                let listed: Vec<(bool, TermId)> = (target.facts.iter().map(|&f| (true, f)))
                    .chain(target.atoms.iter().map(|&a| (false, a)))
                    .collect();
                let mut at_end = Vec::with_capacity(listed.len());
                for &(_, candidate) in &listed {
                    at_end.push(self.at_end_of(&segment.walked, candidate)?);
                }
                let surviving = self.surviving(assumed, &segment.walked, &at_end)?;
                if surviving.iter().all(|&e| e) {
                    continue;
                }
                changed = true;
                let mut kept = Candidates {
                    facts: Vec::new(),
                    atoms: Vec::new(),
                };
                for ((is_fact, candidate), keep) in listed.into_iter().zip(surviving) {
                    match (keep, is_fact) {
                        (false, _) => {}
                        (true, true) => kept.facts.push(candidate),
                        (true, false) => kept.atoms.push(candidate),
                    }
                }
                if self.budget == 0 {
                    return Ok(None);
                }
                candidates[to] = kept;
            }
            if !changed {
                return Ok(Some(candidates));
            }
        }
    }

    /// Whether every segment passes its checks under its start's candidates and arrives where
    /// its end's candidates (or the annotation there) hold.
    fn all_safe(&mut self, candidates: &[Candidates], nest: &Nest) -> Result<bool> {
        for h in 0..candidates.len() {
            if !nest.opaque[h] && !self.segments_hold_from(h, candidates, nest)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Whether every segment from header `h` passes its checks under `h`'s candidates and
    /// arrives where its end's candidates (or the annotation there) hold.
    fn segments_hold_from(
        &mut self,
        h: usize,
        candidates: &[Candidates],
        nest: &Nest,
    ) -> Result<bool> {
        let assumed = self.store.and_all(&candidates[h].all())?;
        for segment in nest.segments.iter().filter(|s| s.from == h) {
            let walked = &segment.walked;
            // Checks before an assumption are asked without it (and what follows it).
            let mut after_all = Vec::new();
            for &(check, assumes_before) in &walked.checks {
                match walked.assumes.get(assumes_before) {
                    None => after_all.push(check),
                    Some(&first_later) => {
                        let before = &walked.conditions[..first_later];
                        if !self.valid(assumed, before, &[], check)? {
                            return Ok(false);
                        }
                    }
                }
            }
            let checks = self.store.and_all(&after_all)?;
            let at_end = match segment.end {
                End::Returned => self.store.bool_val(true)?,
                End::Header(to) if !nest.opaque[to] => self.store.and_all(&candidates[to].all())?,
                End::Header(to) => match self.annotation_at(nest.headers.get(to).copied()) {
                    Some(a) => a,
                    None => return Ok(false),
                },
                End::Left(block) => match self.annotation_at(Some(block)) {
                    Some(a) => a,
                    None => return Ok(false),
                },
            };
            let at_end = self.at_end_of(&segment.walked, at_end)?;
            let goal = self.store.and(checks, at_end)?;
            if !self.valid(assumed, &walked.conditions, &[], goal)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn annotation_at(&mut self, block: Option<BlockId>) -> Option<TermId> {
        self.annotation_of(block?)
    }

    /// The annotation of `header` in the tried location's context and function.
    fn annotation_of(&mut self, block: BlockId) -> Option<TermId> {
        if !self.read.contains(&block) {
            self.read.push(block);
        }
        let (context, func, _) = self.location;
        self.annotations
            .get(&(context, func, block))
            .map(|a| a.term)
    }

    /// Per goal: whether it survives, i.e. may hold at the end of every run of `path` from a
    /// state satisfying `invariant` (the end is reached only past every check and assumption
    /// of the path, so all are facts). One query asks for all; when they do not all hold, its
    /// counterexample shows each goal it falsifies (Houdini's step: all of them are dropped at
    /// once), and the rest stay for the next round, which asks again. A counterexample that
    /// falsifies none (a value it does not give) falls back to one query per goal.
    fn surviving(
        &mut self,
        invariant: TermId,
        path: &Walked,
        goals: &[TermId],
    ) -> Result<Vec<bool>> {
        let all = self.store.and_all(goals)?;
        if self.store.as_bool(all) == Some(true) {
            return Ok(vec![true; goals.len()]);
        }
        if self.budget == 0 {
            return Ok(vec![false; goals.len()]);
        }
        self.budget -= 1;
        let mut facts = vec![invariant];
        facts.extend(&path.conditions);
        facts.extend(path.checks.iter().map(|&(check, _)| check));
        facts.push(self.store.not(all)?);
        let mut asked: Vec<TermId> = facts.iter().chain(goals).copied().collect();
        asked = (self.store.vars_of(&asked).into_iter())
            .map(|v| self.store.var_info(v).term)
            .collect();
        let model = match self.queries.get_model(self.store, &facts, &asked)? {
            ModelResult::Unsat => return Ok(vec![true; goals.len()]),
            ModelResult::Sat(model) => model.to_assignment(self.store),
            ModelResult::Unknown(_) => return Ok(vec![false; goals.len()]),
        };
        let values = eval_all(self.store, goals, &model).unwrap_or_default();
        let falsified: Vec<bool> = (0..goals.len())
            .map(|i| values.get(i) == Some(&Value::Bool(false)))
            .collect();
        if falsified.contains(&true) {
            return Ok(falsified.into_iter().map(|f| !f).collect());
        }
        let mut kept = Vec::with_capacity(goals.len());
        for &goal in goals {
            kept.push(self.valid(invariant, &path.conditions, &path.checks, goal)?);
        }
        Ok(kept)
    }

    /// Does `invariant ∧ conditions ⇒ goal` hold, assuming that `checks` pass?
    fn valid(
        &mut self,
        invariant: TermId,
        conditions: &[TermId],
        checks: &[(TermId, usize)],
        goal: TermId,
    ) -> Result<bool> {
        if self.store.as_bool(goal) == Some(true) {
            return Ok(true);
        }
        if self.budget == 0 {
            return Ok(false);
        }
        self.budget -= 1;
        let mut facts = vec![invariant];
        facts.extend(conditions);
        facts.extend(checks.iter().map(|&(check, _)| check));
        let negated = self.store.not(goal)?;
        facts.push(negated);
        Ok(matches!(
            self.queries.is_satisfiable(self.store, &facts, None)?,
            SatResult::Unsat
        ))
    }

    /// `t` (about the state at a segment's start) about the state at its end.
    fn at_end_of(&mut self, path: &Walked, t: TermId) -> Result<TermId> {
        let frame = self.frame();
        let mut map = FxHashMap::default();
        for var in self.store.vars_of(&[t]) {
            let term = self.store.var_info(var).term;
            match self.ph.role(var) {
                Some(Role::Value(f, l)) if f == frame => match path.locals.values.get(l.index()) {
                    Some((Some(v), _)) => {
                        map.insert(term, *v);
                    }
                    _ => {
                        let any = self.ph.any_like(self.store, term)?;
                        map.insert(term, any);
                    }
                },
                Some(Role::Init(f, l)) if f == frame => {
                    if let Some((_, init)) = path.locals.values.get(l.index()) {
                        map.insert(term, *init);
                    }
                }
                _ => {}
            }
        }
        Ok(self.store.substitute(t, &map)?)
    }

    /// The tried header, the headers its segments reach (transitively) and all their segments;
    /// `None` when the tried header's own segments cannot be enumerated or the nest is too big.
    fn nest(&mut self) -> Result<Option<Nest>> {
        let (_, func, header) = self.location;
        let info = &self.info.functions[func.index()];
        if !info.loops().is_reducible() || info.loops().loop_of_header(header).is_none() {
            return Ok(None);
        }
        let mut nest = Nest {
            headers: vec![header],
            opaque: vec![false],
            segments: Vec::new(),
        };
        let mut next = 0;
        while next < nest.headers.len() {
            match self.segments_from(next, &mut nest)? {
                Some(found) => nest.segments.extend(found),
                None if next == 0 => return Ok(None),
                None => nest.opaque[next] = true,
            }
            if nest.segments.len() > MAX_SEGMENTS || nest.headers.len() > MAX_HEADERS {
                return Ok(None);
            }
            next += 1;
        }
        Ok(Some(nest))
    }

    /// The segments from header `from` of the nest (headers they reach are added to it), or
    /// `None` when one meets something this check cannot follow before leaving the loop.
    fn segments_from(&mut self, from: usize, nest: &mut Nest) -> Result<Option<Vec<Segment>>> {
        let frame = self.frame();
        let (_, func, _) = self.location;
        let header = nest.headers[from];
        let info = &self.info.functions[func.index()];
        let Some(id) = info.loops().loop_of_header(header) else {
            return Ok(None);
        };
        let body = info.loops().get(id);
        let function = &self.module.functions[func.index()];
        let mut values = Vec::with_capacity(function.locals.len());
        for l in 0..function.locals.len() {
            let local = LocalId(l as u32);
            let value = self
                .ph
                .value(self.store, frame, local, function.local(local).width)?;
            let init = self.ph.init(self.store, frame, local)?;
            values.push((Some(value), init));
        }
        let start = Walked {
            locals: PathLocals {
                values,
                cell_backed: info.cell_backed.clone(),
            },
            conditions: Vec::new(),
            checks: Vec::new(),
            assumes: Vec::new(),
            left: None,
        };
        let mut done: Vec<Segment> = Vec::new();
        // Snapshots already turned into segments.
        let mut used_snapshots: Vec<usize> = Vec::new();
        let mut snapshots = 0usize;
        let mut runs = 0usize;
        let mut work = vec![(header, start)];
        'paths: while let Some((block_id, mut path)) = work.pop() {
            runs += 1;
            if runs > MAX_BLOCK_RUNS || done.len() + work.len() > MAX_SEGMENTS {
                return Ok(None);
            }
            let block = function.block(block_id);
            let mut beyond = false;
            for inst in &block.insts {
                let env = &mut path.locals;
                match &inst.kind {
                    InstKind::Assign { dst, value } => {
                        let v = match (semantics::rvalue(self.store, env, value)?, value) {
                            // What memory holds is not tracked: any value (also a count over it).
                            (None, value) if semantics::reads_memory(value) => {
                                let width = function.local(*dst).width;
                                Some(self.ph.any_value(self.store, width)?)
                            }
                            (v, _) => v,
                        };
                        set(self.store, env, *dst, v)?;
                    }
                    InstKind::Store { place, value } => {
                        if let Some(l) = semantics::plain_local(place) {
                            let v = semantics::operand(self.store, env, *value)?;
                            set(self.store, env, l, v)?;
                        }
                    }
                    InstKind::Input { dst } => {
                        let v = self.ph.any_value(self.store, Width::W32)?;
                        set(self.store, env, *dst, Some(v))?;
                    }
                    InstKind::Output(_) => {}
                    InstKind::Check { check, .. } => {
                        match semantics::check_passes(self.store, env, self.facts, check)? {
                            Some(c) => path.checks.push((c, path.assumes.len())),
                            None => {
                                beyond = true;
                                break;
                            }
                        }
                    }
                    // An `assume` not about numbers only keeps fewer runs: ignoring it keeps more.
                    InstKind::Assume(op) => {
                        if let Some(c) = semantics::condition(self.store, env, *op)? {
                            path.assumes.push(path.conditions.len());
                            path.conditions.push(c);
                        }
                    }
                    InstKind::Call { .. } => {
                        beyond = true;
                        break;
                    }
                }
            }
            let mut targets: Vec<(BlockId, Option<TermId>)> = Vec::new();
            if !beyond {
                match block.term {
                    Terminator::Goto(t) => targets.push((t, None)),
                    Terminator::Branch {
                        cond,
                        then_block,
                        else_block,
                    } => match semantics::condition(self.store, &mut path.locals, cond)? {
                        Some(c) => {
                            let not_c = self.store.not(c)?;
                            targets.push((then_block, Some(c)));
                            targets.push((else_block, Some(not_c)));
                        }
                        // Not about numbers: both ways, as if the condition were unknown.
                        None => {
                            targets.push((then_block, None));
                            targets.push((else_block, None));
                        }
                    },
                    Terminator::Return(_) if frame == 0 => {
                        done.push(Segment {
                            from,
                            walked: path,
                            end: End::Returned,
                        });
                        continue 'paths;
                    }
                    Terminator::Return(_) => beyond = true,
                }
            }
            if beyond {
                let Some(left) = path.left.clone() else {
                    return Ok(None);
                };
                let (number, block, walked) = &*left;
                if !used_snapshots.contains(number) {
                    used_snapshots.push(*number);
                    done.push(Segment {
                        from,
                        walked: walked.clone(),
                        end: End::Left(*block),
                    });
                }
                continue;
            }
            for (target, condition) in targets {
                if condition.is_some_and(|c| self.store.as_bool(c) == Some(false)) {
                    continue;
                }
                let mut next = path.clone();
                next.conditions.extend(condition);
                if info.loops().loop_of_header(target).is_some() {
                    let to = match nest.headers.iter().position(|&h| h == target) {
                        Some(to) => to,
                        None => {
                            nest.headers.push(target);
                            nest.opaque.push(false);
                            nest.headers.len() - 1
                        }
                    };
                    done.push(Segment {
                        from,
                        walked: next,
                        end: End::Header(to),
                    });
                    continue;
                }
                if next.left.is_none() && !body.contains(target) {
                    snapshots += 1;
                    let snapshot = next.clone();
                    next.left = Some(Rc::new((snapshots, target, snapshot)));
                }
                work.push((target, next));
            }
        }
        Ok(Some(done))
    }

    /// Clauses `a ∨ b` of an atom `a` of one of an annotation's `disjuncts` (their atoms, from
    /// [`Self::disjuncts_atoms`]) and an atom `b` of a later one (each disjunct implies the
    /// clause, so the annotation does), at most [`MAX_CLAUSES`], in a fixed order. They let
    /// Houdini find an invariant that holds on either of two ways through a loop (listing
    /// 4.11's `j <= 8 ∨ j <= j0`).
    fn clauses(&mut self, disjuncts: &[Vec<TermId>]) -> Result<Vec<TermId>> {
        let mut clauses = Vec::new();
        for (i, first) in disjuncts.iter().enumerate() {
            for second in &disjuncts[i + 1..] {
                for &a in first.iter().filter(|a| !second.contains(a)) {
                    for &b in second.iter().filter(|b| !first.contains(b)) {
                        let clause = self.store.or_all(&[a, b])?;
                        if self.store.as_bool(clause).is_none() && !clauses.contains(&clause) {
                            clauses.push(clause);
                            if clauses.len() == MAX_CLAUSES {
                                return Ok(clauses);
                            }
                        }
                    }
                }
            }
        }
        Ok(clauses)
    }

    /// Per disjunct of `annotation`: its conjuncts that speak only of locals (no inputs, no
    /// unknown values), the annotation's atoms.
    fn disjuncts_atoms(&self, annotation: TermId) -> Vec<Vec<TermId>> {
        let mut disjuncts = Vec::new();
        flatten(self.store, annotation, Op::Or, &mut disjuncts);
        disjuncts
            .into_iter()
            .map(|d| {
                let mut conjuncts = Vec::new();
                flatten(self.store, d, Op::And, &mut conjuncts);
                conjuncts.retain(|&c| {
                    self.store
                        .vars_of(&[c])
                        .into_iter()
                        .all(|v| matches!(self.ph.role(v), Some(Role::Value(..) | Role::Init(..))))
                });
                conjuncts
            })
            .collect()
    }
}

/// `values` as signed numbers, if all are bit-vectors.
fn numbers(values: &[Value]) -> Option<Vec<i128>> {
    (values.iter())
        .map(|v| match v {
            Value::Bv(c) => Some(c.to_i128()),
            _ => None,
        })
        .collect()
}

/// The atoms of all `disjuncts`, without repetition, in a fixed order.
fn distinct_atoms(disjuncts: &[Vec<TermId>]) -> Vec<TermId> {
    let mut atoms = Vec::new();
    for &atom in disjuncts.iter().flatten() {
        if !atoms.contains(&atom) {
            atoms.push(atom);
        }
    }
    atoms
}

fn set(
    store: &mut TermStore,
    env: &mut PathLocals,
    local: LocalId,
    value: Option<TermId>,
) -> Result<()> {
    if let Some(slot) = env.values.get_mut(local.index()) {
        *slot = (value, store.bool_val(true)?);
    }
    Ok(())
}

/// The arguments of nested `op` applications at the top of `t` (`t` itself if it is not one).
pub fn flatten(store: &TermStore, t: TermId, op: Op, out: &mut Vec<TermId>) {
    match *store.node(t) {
        Node::App2(o, a, b) if o == op => {
            flatten(store, a, op, out);
            flatten(store, b, op, out);
        }
        _ => out.push(t),
    }
}
