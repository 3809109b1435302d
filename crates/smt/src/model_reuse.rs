//! Model reuse (KLEE's counterexample cache): answering `sat` without the solver when a model
//! built from earlier answers already satisfies a query.
//!
//! Every model the solver gives for a satisfiable set of constraints is kept under that set,
//! restricted to the set's variables. For a new question `C ∧ q`, the constraints `C` are split
//! into groups that share no variable; when every group has a kept model, their union
//! satisfies `C` (each model satisfies its group, and the groups share no variable, so the
//! models do not clash), and the query needs only to evaluate to true under it. A variable of
//! no group (one the query brings in) is tried at its sort's default and, for bit-vectors,
//! failing that at a value of its own (its number plus one, skipping values the assignment
//! holds): a fresh input is most often wanted zero or different from everything (a new
//! object's identity, a counter that must not be 0), and the evaluation is cheap where a
//! solver call is not. The value follows the variable's number rather than the assignment
//! alone because independence splits the path condition: a variable fresh to one group must
//! still differ from the fresh variables of the others, which join it later. Only `sat` is
//! answered here: a miss says nothing, and the caller asks the solver. The model that answered
//! is returned; where values were chosen for it (fresh inputs, or one of the last few kept
//! models for a group of constraints no kept model is known to satisfy), the caller keeps it
//! for the longer path condition the query starts (keeping every hit's model filled the cache
//! on programs with many paths and cost 20 % on the 16-branch bench).
//!
//! A path condition grows one branch at a time, and each branch's question was answered (and
//! its model kept) when the branch was taken, so the final check of a path whose constraints
//! are independent of each other costs a few evaluations instead of a solver call.
//!
//! More ways to a model, for searches that interleave states and questions that compare
//! through `ite` chains or aliasing clauses (POSE's reads through references that may alias):
//! * **by prefix**: a kept model is also found by every prefix of the ordered constraints it
//!   satisfies (compared term by term after the hash), so a state finds the model of its own
//!   last question however many other states' questions came in between;
//! * **repair**: where the model satisfies the constraints but not the query, one variable a
//!   comparison of the query reads (through the `ite` branches the model takes, and through
//!   additions, subtractions, negations and xors whose other side the model fixes, undone on
//!   the value wanted) is tried at the other side's value or a neighbour of it, or an alias the model chose (`p = q` true
//!   on the way) is first undone. A change is kept only when every constraint that mentions
//!   the changed variable, and the query, evaluate to true under it;
//! * **implied values**: a new variable that neither its default nor a fresh value completes
//!   is tried at the value of a term a constraint equates it with (POSE's clause
//!   `y = yi → z = zi` where the model aliases `y` and `yi`);
//! * **joined groups**: where a constraint added without a question joined groups that each
//!   have the model of their own last question (a key compared with the input, tied by a
//!   clause to the references of a walk), no kept model covers a prefix of the joined group;
//!   it is split before the last joining constraint and the parts' models are united.
//!
//! Evaluation is lazy (an `ite` evaluates the branch it takes), so a variable that only an
//! untaken branch mentions needs no value. Nothing here talks to a solver, and nothing here
//! answers `unsat`.

use std::collections::VecDeque;
use std::sync::Arc;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::bv::BvConst;
use crate::eval::{all_true_lazy, eval_lazy_into, Assignment};
use crate::generations::Generations;
use crate::independence::Independence;
use crate::sort::Sort;
use crate::term::{TermId, TermStore, VarId};
use crate::value::Value;

/// Kept models per generation: beyond two generations the older is forgotten (a bound on
/// memory; the models kept last are the ones live states ask for).
const MAX_MODELS: usize = 1 << 16;

/// How many times [`ModelCache::joined_model_of`] splits a part again (each split walks the
/// part: a path whose groups were joined one step at a time would otherwise recurse once per
/// step).
const JOIN_DEPTH: usize = 4;

/// The most recent models tried for a group of constraints no kept model is known to satisfy.
const RECENT_MODELS: usize = 4;

/// The kept models, by the sorted set of constraints each satisfies.
#[derive(Debug)]
pub(crate) struct ModelCache {
    models: Generations<Box<[TermId]>, Arc<Assignment>>,
    /// The last models kept, newest last (shared with `models`).
    recent: VecDeque<Arc<Assignment>>,
    /// Kept models by the hash of every prefix of the ordered constraint sequence each one
    /// satisfies (a model of `c1 … cn` satisfies `c1 … ck` for every k). A path condition
    /// grows by appending, so the model of a state's parent question is found here under
    /// the child's longest known prefix whatever question was asked in between (the search
    /// may interleave states; `recent` holds only the last few models). Each entry holds the
    /// whole sequence, so a prefix is compared term by term (a hash collision finds nothing).
    /// A model is kept under every prefix of its sequence: eight generations' worth of
    /// entries per model generation.
    by_prefix: Generations<u64, Prefixed>,
}

impl Default for ModelCache {
    fn default() -> Self {
        ModelCache {
            models: Generations::new(MAX_MODELS),
            recent: VecDeque::new(),
            by_prefix: Generations::new(MAX_MODELS * 8),
        }
    }
}

/// A kept model and the ordered constraints it satisfies.
#[derive(Clone, Debug)]
struct Prefixed {
    model: Arc<Assignment>,
    sequence: Arc<[TermId]>,
}

/// The hashes of the prefixes of `terms` (order-dependent), shortest first.
fn prefix_hashes(terms: &[TermId]) -> Vec<u64> {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    terms
        .iter()
        .map(|t| {
            h = (h ^ (t.index() as u64).wrapping_add(0x9e37_79b9_7f4a_7c15))
                .wrapping_mul(0x0000_0100_0000_01b3)
                .rotate_left(29);
            h
        })
        .collect()
}

/// A model that kept models show satisfies a question.
pub(crate) struct Reused {
    pub(crate) model: Assignment,
    /// Whether values were chosen here (for new inputs, or a recent model for a group), not
    /// only read from models kept under the question's groups: such a model is kept again,
    /// under the set the answer starts, or the next question along the path would miss.
    pub(crate) built: bool,
}

/// The sorted, de-duplicated set of `terms` (the key of a model).
fn key_of(terms: impl IntoIterator<Item = TermId>) -> Box<[TermId]> {
    let mut key: Vec<TermId> = terms.into_iter().collect();
    key.sort_unstable();
    key.dedup();
    key.into_boxed_slice()
}

impl ModelCache {
    /// Keeps `model` (restricted to `vars`, the variables of `satisfied`), which satisfies
    /// every term of `satisfied`.
    pub(crate) fn remember(&mut self, satisfied: &[TermId], vars: &[VarId], model: &Assignment) {
        let mut kept = Assignment::new();
        for &var in vars {
            match model.get(var) {
                Some(value) => kept.insert(var, value.clone()),
                // A model without a value for one of the variables is not kept.
                None => return,
            }
        }
        let kept = Arc::new(kept);
        if self.recent.len() == RECENT_MODELS {
            self.recent.pop_front();
        }
        self.recent.push_back(Arc::clone(&kept));
        let sequence: Arc<[TermId]> = satisfied.into();
        for h in prefix_hashes(satisfied) {
            let entry = Prefixed {
                model: Arc::clone(&kept),
                sequence: Arc::clone(&sequence),
            };
            self.by_prefix.insert(h, entry);
        }
        self.models.insert(key_of(satisfied.iter().copied()), kept);
    }

    /// Keeps `model` (of `satisfied`, in order) for the prefix lookup only, under the whole
    /// sequence.
    pub(crate) fn remember_prefix(&mut self, satisfied: &[TermId], model: Assignment) {
        if let Some(&h) = prefix_hashes(satisfied).last() {
            let entry = Prefixed {
                model: Arc::new(model),
                sequence: satisfied.into(),
            };
            self.by_prefix.insert(h, entry);
        }
    }

    /// A model of `constraints ∧ query` built from kept models, if they show it satisfiable.
    pub(crate) fn satisfies(
        &self,
        store: &TermStore,
        independence: &mut Independence,
        constraints: &[TermId],
        query: Option<TermId>,
    ) -> Option<Reused> {
        let (groups, ground) = independence.components(store, constraints);
        let mut assignment = Assignment::new();
        if !ground.iter().all(|&c| holds(store, c, &assignment)) {
            return None;
        }
        let mut built = false;
        for group in &groups {
            match self.models.get(&key_of(group.iter().copied())) {
                Some(model) => assignment.extend(model),
                None => {
                    let found = self.derived_model_of(store, independence, group, &assignment, 0);
                    assignment = match found {
                        Some(a) => a,
                        None => self.recent_model_of(store, independence, group, assignment)?,
                    };
                    built = true;
                }
            }
        }
        let Some(query) = query else {
            return Some(Reused {
                model: assignment,
                built,
            });
        };
        let vars = independence.vars_of(store, query).to_vec();
        let assignment = match complete(store, assignment, &vars, &[query]) {
            Ok((model, completed)) => {
                return Some(Reused {
                    model,
                    built: built || completed,
                })
            }
            Err(assignment) => assignment,
        };
        // The model satisfies every constraint but not the query: change one variable of a
        // comparison the query makes to a value next to the other side's (evaluated: the
        // changed model must satisfy the constraints and the query).
        let model = repair(store, independence, assignment, &vars, constraints, query)?;
        Some(Reused { model, built: true })
    }

    /// `assignment` extended by the model kept for the longest prefix of `group` (in path
    /// order) that a kept model satisfies, if it (completed) satisfies the whole group.
    fn prefix_model_of(
        &self,
        store: &TermStore,
        independence: &mut Independence,
        group: &[TermId],
        assignment: &Assignment,
    ) -> Option<Assignment> {
        let hashes = prefix_hashes(group);
        // The longest prefix `group[..k]` a kept model is known to satisfy.
        let (k, found) = hashes.iter().enumerate().rev().find_map(|(i, h)| {
            let entry = self.by_prefix.get(h)?;
            let k = i + 1;
            (entry.sequence.len() >= k && entry.sequence[..k] == group[..k]).then_some((k, entry))
        })?;
        let vars = independence.vars_of_all(store, group);
        let mut candidate = assignment.clone();
        for &var in &vars {
            if let Some(value) = found.model.get(var) {
                candidate.insert(var, value.clone());
            }
        }
        // The model satisfies `group[..k]`; the rest is evaluated (its new variables completed).
        let rest = &group[k..];
        let rest_vars = independence.vars_of_all(store, rest);
        if vars
            .iter()
            .any(|v| candidate.get(*v).is_none() && rest_vars.binary_search(v).is_err())
        {
            return None;
        }
        extend(store, independence, candidate, rest).ok()
    }

    /// `assignment` extended by the models kept for the groups that a later constraint of
    /// `group` joined, if they (completed) satisfy the whole group. A path's constraints about
    /// different inputs form groups of their own, each with the model of its last question;
    /// a constraint that connects them (POSE's clause `y = yi → z = zi` ties a key compared
    /// with the input to the references of a walk) starts one group whose prefixes no kept
    /// model covers. `group` is split before the last constraint that connects two parts
    /// holding constraints of their own, and each part's model is looked up as a group's
    /// (a part that is itself joined, split again, at most [`JOIN_DEPTH`] deep).
    fn joined_model_of(
        &self,
        store: &TermStore,
        independence: &mut Independence,
        group: &[TermId],
        assignment: &Assignment,
        depth: usize,
    ) -> Option<Assignment> {
        let join = last_joining(store, independence, group)?;
        let (parts, ground) = independence.components(store, &group[..join]);
        if !ground.is_empty() {
            return None;
        }
        let mut candidate = assignment.clone();
        for part in &parts {
            candidate = match self.models.get(&key_of(part.iter().copied())) {
                Some(model) => {
                    candidate.extend(model);
                    candidate
                }
                None => self.derived_model_of(store, independence, part, &candidate, depth + 1)?,
            };
        }
        extend(store, independence, candidate, &group[join..]).ok()
    }

    /// `assignment` extended to a model of `group` from the kept models of its prefixes, or
    /// else of the groups it joined ([`Self::joined_model_of`], `depth` splits deep so far).
    fn derived_model_of(
        &self,
        store: &TermStore,
        independence: &mut Independence,
        group: &[TermId],
        assignment: &Assignment,
        depth: usize,
    ) -> Option<Assignment> {
        self.prefix_model_of(store, independence, group, assignment)
            .or_else(|| {
                (depth < JOIN_DEPTH)
                    .then(|| self.joined_model_of(store, independence, group, assignment, depth))?
            })
    }

    /// `assignment` extended to satisfy `group` (constraints no kept model is known to
    /// satisfy, such as those a path adds without asking) by one of the recent models.
    fn recent_model_of(
        &self,
        store: &TermStore,
        independence: &mut Independence,
        group: &[TermId],
        assignment: Assignment,
    ) -> Option<Assignment> {
        let vars = independence.vars_of_all(store, group);
        self.recent.iter().rev().find_map(|recent| {
            let mut candidate = assignment.clone();
            for &var in &vars {
                if let Some(value) = recent.get(var) {
                    candidate.insert(var, value.clone());
                }
            }
            complete(store, candidate, &vars, group)
                .ok()
                .map(|(model, _)| model)
        })
    }
}

/// The index of the last constraint of `constraints` that shares variables with two parts
/// of those before it, each holding a constraint (`None` if none does).
fn last_joining(
    store: &TermStore,
    independence: &mut Independence,
    constraints: &[TermId],
) -> Option<usize> {
    // The part of each variable seen so far: a small union-find of its own (the shared one
    // holds `independence`'s current grouping).
    let mut part_of: FxHashMap<VarId, usize> = FxHashMap::default();
    let mut parent: Vec<usize> = Vec::new();
    fn root(parent: &mut [usize], mut p: usize) -> usize {
        while parent[p] != p {
            parent[p] = parent[parent[p]];
            p = parent[p];
        }
        p
    }
    let mut last = None;
    for (i, &c) in constraints.iter().enumerate() {
        let vars = independence.vars_of(store, c);
        let mut touched: Vec<usize> = vars
            .iter()
            .filter_map(|v| part_of.get(v).copied())
            .map(|p| root(&mut parent, p))
            .collect();
        touched.sort_unstable();
        touched.dedup();
        if touched.len() > 1 {
            last = Some(i);
        }
        let part = match touched.first() {
            Some(&p) => p,
            None => {
                parent.push(parent.len());
                parent.len() - 1
            }
        };
        for &other in touched.iter().skip(1) {
            parent[other] = part;
        }
        for &v in vars {
            part_of.entry(v).or_insert(part);
        }
    }
    last
}

fn holds(store: &TermStore, t: TermId, asg: &Assignment) -> bool {
    all_true_lazy(store, &[t], asg)
}

/// `model` completed over `terms` ([`complete`] with their variables); `Err` gives it back.
pub(crate) fn extend(
    store: &TermStore,
    independence: &mut Independence,
    model: Assignment,
    terms: &[TermId],
) -> Result<Assignment, Assignment> {
    let vars = independence.vars_of_all(store, terms);
    complete(store, model, &vars, terms).map(|(model, _)| model)
}

/// `assignment` with values for the variables of `vars` (those of `terms`) it lacks, such
/// that every term of `terms` holds: all at their sorts' defaults, or else bit-vectors at
/// fresh values (values no variable of `vars` holds: the only values the terms compare them
/// with); and whether it lacked any. `Err` gives `assignment` back unchanged (model repair
/// goes on from it without a copy made for every question).
pub(crate) fn complete(
    store: &TermStore,
    assignment: Assignment,
    vars: &[VarId],
    terms: &[TermId],
) -> Result<(Assignment, bool), Assignment> {
    // One evaluation of all the terms, sharing their common subterms.
    let all_hold = |asg: &Assignment| all_true_lazy(store, terms, asg);
    let missing: Vec<VarId> = vars
        .iter()
        .copied()
        .filter(|&var| assignment.get(var).is_none())
        .collect();
    if missing.is_empty() {
        return match all_hold(&assignment) {
            true => Ok((assignment, false)),
            false => Err(assignment),
        };
    }
    let mut defaults = assignment.clone();
    for &var in &missing {
        let sort = store.sort(store.var_info(var).term);
        defaults.insert(var, Value::default_of(store.sorts(), sort));
    }
    if all_hold(&defaults) {
        return Ok((defaults, true));
    }
    // Fresh values are never 0, so the defaults just set do not change which are chosen.
    let fresh = with_fresh_values(store, defaults, &missing, vars);
    if all_hold(&fresh) {
        return Ok((fresh, true));
    }
    for (var, value) in implied_values(store, &fresh, &missing, terms) {
        let mut candidate = fresh.clone();
        candidate.insert(var, Value::Bv(value));
        if all_hold(&candidate) {
            return Ok((candidate, true));
        }
    }
    Err(assignment)
}

/// Values for the variables of `missing` that the terms equate with something else (`v = t`,
/// `t` evaluated under `assignment`). A constraint that comes without a question may need a
/// new variable at another's value, which neither a default nor a fresh value is: POSE's
/// aliasing clause `y = yi → z = zi` for a new slot `z` of an object `y` the model aliases
/// with `yi` (a solver's model of a tree's parent pointers makes a node's parent the root).
fn implied_values(
    store: &TermStore,
    assignment: &Assignment,
    missing: &[VarId],
    terms: &[TermId],
) -> Vec<Change> {
    use crate::term::{Node, Op};
    let mut memo = FxHashMap::default();
    let mut changes: Vec<Change> = Vec::new();
    let mut seen = FxHashSet::default();
    let mut work = terms.to_vec();
    while let Some(t) = work.pop() {
        if !seen.insert(t) || changes.len() >= REPAIR_CANDIDATES {
            continue;
        }
        match *store.node(t) {
            Node::App1(Op::Not, a) => work.push(a),
            Node::App2(Op::And | Op::Or | Op::Implies, a, b) => work.extend([a, b]),
            Node::App3(Op::Ite, c, a, b) if store.sort(a) == Sort::Bool => work.extend([c, a, b]),
            Node::App2(Op::Eq, a, b) if matches!(store.sort(a), Sort::BitVec(_)) => {
                for (this, other) in [(a, b), (b, a)] {
                    let Node::Var(v) = *store.node(this) else {
                        continue;
                    };
                    if !missing.contains(&v)
                        || eval_lazy_into(store, &[other], assignment, &mut memo).is_err()
                    {
                        continue;
                    }
                    if let Some(value) = memo.get(&other).and_then(Value::as_bv) {
                        if !changes.contains(&(v, value)) {
                            changes.push((v, value));
                        }
                    }
                }
            }
            _ => {}
        }
    }
    changes
}

/// `assignment` with every bit-vector variable of `missing` at a value of its own: its number
/// plus one, or the next one up that no variable of `mentioned` holds (the others at their
/// sorts' defaults). Only the values of `mentioned` are looked at, not the whole assignment:
/// a model of a long path holds a value per input.
fn with_fresh_values(
    store: &TermStore,
    mut assignment: Assignment,
    missing: &[VarId],
    mentioned: &[VarId],
) -> Assignment {
    if missing.is_empty() {
        return assignment;
    }
    let mut used = held_by(&assignment, mentioned);
    for &var in missing {
        let sort = store.sort(store.var_info(var).term);
        let fresh = match sort {
            Sort::BitVec(width) => fresh_value(var, width, &used),
            _ => None,
        };
        let value = match fresh {
            Some(c) => {
                used.insert(c);
                Value::Bv(c)
            }
            None => Value::default_of(store.sorts(), sort),
        };
        assignment.insert(var, value);
    }
    assignment
}

/// A candidate change of [`repair`]: a variable and its new value.
type Change = (VarId, BvConst);

/// Most candidate values [`repair`] collects in one round.
const REPAIR_CANDIDATES: usize = 24;

/// Most rounds of [`repair`] (each may first separate two aliased references).
const REPAIR_ROUNDS: usize = 3;

/// A model of `constraints ∧ query` near `assignment` (a model of the constraints; the
/// query's variables it lacks are put at fresh values), from the query's comparisons. For
/// each comparison `a ⋈ b` (`=`, `<`, `≤`, signed or not) the `ite` branches the model takes
/// on each side, and additions, subtractions, negations and xors with a value the model
/// fixes, are followed down to a variable `v`, which is tried where `a` takes the other
/// side's value `b` and, for an order, its neighbours `b ± 1` (`v = b - 1` for `a = v + 1`),
/// for an equality also at a value nothing else holds. A model may also make two references equal
/// that need not be (a solver's model, or a recent one, may alias a new object with an old
/// one), so that the chain of a read picks an old object's value the path already compared:
/// an `ite` condition `p = q` on the way that holds is also a candidate, its active variable
/// at a fresh value. When no single change satisfies the query, the first such separation
/// that keeps the constraints true is applied and the search goes on from there (at most
/// [`REPAIR_ROUNDS`] rounds). A change is kept only when every constraint that mentions the
/// changed variable and the query evaluate to true under it (the others keep their values),
/// so a returned assignment is a model; `None` says nothing.
pub(crate) fn repair(
    store: &TermStore,
    independence: &mut Independence,
    assignment: Assignment,
    query_vars: &[VarId],
    constraints: &[TermId],
    query: TermId,
) -> Option<Assignment> {
    // The variables whose values the evaluated terms compare a changed variable with.
    let mentioned = {
        let mut vars = independence.vars_of_all(store, constraints);
        vars.extend_from_slice(independence.vars_of(store, query));
        vars
    };
    let mut base = {
        let missing: Vec<VarId> = query_vars
            .iter()
            .copied()
            .filter(|&v| assignment.get(v).is_none())
            .collect();
        with_fresh_values(store, assignment, &missing, &mentioned)
    };
    // The constraints that mention each variable tried, found once per variable (candidates
    // try a few variables many times; a path may hold 100,000 constraints).
    let mut mentioning: FxHashMap<VarId, Vec<TermId>> = FxHashMap::default();
    for _ in 0..REPAIR_ROUNDS {
        let (values, separations) = repair_candidates(store, &base, &mentioned, query)?;
        let mut keeps_constraints = |candidate: &Assignment, var: VarId, with_query: bool| {
            let mut terms: Vec<TermId> = mentioning
                .entry(var)
                .or_insert_with(|| {
                    (constraints.iter().copied())
                        .filter(|&c| independence.vars_of(store, c).contains(&var))
                        .collect()
                })
                .clone();
            if with_query {
                terms.push(query);
            }
            all_true_lazy(store, &terms, candidate)
        };
        let mut next = None;
        for (var, value, separation) in values
            .into_iter()
            .map(|(v, c)| (v, c, false))
            .chain(separations.into_iter().map(|(v, c)| (v, c, true)))
        {
            let mut candidate = base.clone();
            candidate.insert(var, Value::Bv(value));
            if keeps_constraints(&candidate, var, true) {
                return Some(candidate);
            }
            if separation && next.is_none() && keeps_constraints(&candidate, var, false) {
                next = Some(candidate);
            }
        }
        base = next?;
    }
    None
}

/// A nonzero value of `width` bits for `var` that `used` does not hold (its number plus one,
/// or the next one up). At most `used.len()` values are taken, so this ends within that many
/// steps unless the width has fewer values than that.
fn fresh_value(var: VarId, width: u32, used: &FxHashSet<BvConst>) -> Option<BvConst> {
    let mask = u128::MAX >> (128 - width);
    (0..=used.len() as u128)
        .map(|step| (var.index() as u128 + 1 + step) & mask)
        .filter(|&bits| bits != 0)
        .filter_map(|bits| BvConst::new(width, bits).ok())
        .find(|c| !used.contains(c))
}

/// [`held_by`], computed into `used` the first time it is wanted.
fn held<'u>(
    used: &'u mut Option<FxHashSet<BvConst>>,
    base: &Assignment,
    mentioned: &[VarId],
) -> &'u mut FxHashSet<BvConst> {
    used.get_or_insert_with(|| held_by(base, mentioned))
}

/// The bit-vector values `assignment` gives the variables of `vars`.
fn held_by(assignment: &Assignment, vars: &[VarId]) -> FxHashSet<BvConst> {
    (vars.iter())
        .filter_map(|&v| assignment.get(v).and_then(Value::as_bv))
        .collect()
}

/// The candidate changes of [`repair`] under `base`: values from comparisons, and
/// separations (a variable at a fresh value) of equalities that hold in `ite` conditions.
fn repair_candidates(
    store: &TermStore,
    base: &Assignment,
    mentioned: &[VarId],
    query: TermId,
) -> Option<(Vec<Change>, Vec<Change>)> {
    use crate::term::{Node, Op};
    let mut memo = FxHashMap::default();
    eval_lazy_into(store, &[query], base, &mut memo).ok()?;
    let truth = |t: TermId| memo.get(&t).and_then(Value::as_bool);
    // The values of the variables the terms mention, gathered only where a fresh value is
    // wanted.
    let mut used: Option<FxHashSet<BvConst>> = None;
    let mut values: Vec<Change> = Vec::new();
    let mut separations: Vec<Change> = Vec::new();
    // The variable a bit-vector term's value comes from under the model, and the value it needs
    // for the term to take `target`: through the `ite` branches the model takes (the
    // conditions `p = q`, bit-vectors, that hold on the way are collected), and through
    // negations and additions, subtractions and xors with a side whose value the model
    // fixes, each undone on the target (AVL heights compared after `rh + 1`).
    let mut conditions: Vec<TermId> = Vec::new();
    let solve = |mut t: TermId, mut target: BvConst, conditions: &mut Vec<TermId>| loop {
        match *store.node(t) {
            Node::App3(Op::Ite, c, a, b) => {
                let holds = truth(c)?;
                if holds
                    && matches!(*store.node(c), Node::App2(Op::Eq, p, _)
                        if matches!(store.sort(p), Sort::BitVec(_)))
                    && !conditions.contains(&c)
                {
                    conditions.push(c);
                }
                t = if holds { a } else { b };
            }
            Node::App1(Op::BvNeg, a) => (t, target) = (a, target.bvneg()),
            Node::App1(Op::BvNot, a) => (t, target) = (a, target.bvnot()),
            Node::App2(op @ (Op::BvAdd | Op::BvSub | Op::BvXor), a, b) => {
                // Into the side that is not a constant (the left one where neither is).
                let into_left = !matches!(store.node(a), Node::Bv(_));
                let (inner, other) = if into_left { (a, b) } else { (b, a) };
                let k = memo.get(&other).and_then(Value::as_bv)?;
                target = match (op, into_left) {
                    (Op::BvAdd, _) => target.bvsub(k),
                    (Op::BvXor, _) => target.bvxor(k),
                    (_, true) => target.bvadd(k),
                    (_, false) => k.bvsub(target),
                };
                t = inner;
            }
            Node::Var(v) => return Some((v, target)),
            _ => return None,
        }
    };
    let mut seen = FxHashSet::default();
    let mut work = vec![query];
    while let Some(t) = work.pop() {
        if !seen.insert(t) || values.len() >= REPAIR_CANDIDATES {
            continue;
        }
        match *store.node(t) {
            Node::App1(Op::Not, a) => work.push(a),
            Node::App2(Op::And | Op::Or | Op::Xor | Op::Implies, a, b) => work.extend([a, b]),
            // A condition that is an `ite` (POSE: `ite(p = y, false, p = z)`, a comparison
            // with a slot that a write changed where `y` is the written object).
            Node::App3(Op::Ite, c, a, b) if store.sort(a) == Sort::Bool => work.extend([c, a, b]),
            Node::App2(op @ (Op::Eq | Op::BvUlt | Op::BvUle | Op::BvSlt | Op::BvSle), a, b)
                if matches!(store.sort(a), Sort::BitVec(_)) =>
            {
                for (this, other) in [(a, b), (b, a)] {
                    let Some(value) = memo.get(&other).and_then(Value::as_bv) else {
                        continue;
                    };
                    // An equality is made true by the other side's value and false by a value
                    // nothing holds (a neighbour could be another reference's: an alias
                    // nobody asked for); an order by the value or a neighbour.
                    let one = BvConst::new(value.width(), 1).ok()?;
                    let targets = match op {
                        Op::Eq => [Some(value), None, None],
                        _ => [Some(value), Some(value.bvadd(one)), Some(value.bvsub(one))],
                    };
                    for target in targets.into_iter().flatten() {
                        let Some((v, c)) = solve(this, target, &mut conditions) else {
                            continue;
                        };
                        if !values.contains(&(v, c)) {
                            values.push((v, c));
                        }
                        if op == Op::Eq {
                            let used = held(&mut used, base, mentioned);
                            if let Some(fresh) = fresh_value(v, value.width(), used) {
                                if !values.contains(&(v, fresh)) {
                                    values.push((v, fresh));
                                }
                            }
                        }
                    }
                }
            }
            _ => {}
        }
    }
    // Separations: each side of a holding equality, its active variable at a fresh value.
    let mut i = 0;
    while i < conditions.len() && separations.len() < REPAIR_CANDIDATES {
        let Node::App2(Op::Eq, p, q) = *store.node(conditions[i]) else {
            i += 1;
            continue;
        };
        for side in [q, p] {
            let Some(current) = memo.get(&side).and_then(Value::as_bv) else {
                continue;
            };
            let Some((v, _)) = solve(side, current, &mut conditions) else {
                continue;
            };
            let width = current.width();
            if let Some(c) = fresh_value(v, width, held(&mut used, base, mentioned)) {
                held(&mut used, base, mentioned).insert(c);
                if !separations.iter().any(|&(w, _)| w == v) {
                    separations.push((v, c));
                }
            }
        }
        i += 1;
    }
    Some((values, separations))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bv::BvConst;

    #[test]
    fn independent_groups_combine_and_the_query_is_evaluated() {
        let mut s = TermStore::new();
        let x = s.bv_var("x", 32).expect("var");
        let y = s.bv_var("y", 32).expect("var");
        let bv = |n: u128| BvConst::new(32, n).expect("fits");
        let one = s.bv_const(bv(1)).expect("const");
        let two = s.bv_const(bv(2)).expect("const");
        let x_big = s.bv_ugt(x, one).expect("term");
        let y_big = s.bv_ugt(y, two).expect("term");
        let sum = s.bv_add(x, y).expect("term");
        let ten = s.bv_const(bv(10)).expect("const");
        let sum_is_ten = s.eq(sum, ten).expect("term");
        let sum_not_ten = s.not(sum_is_ten).expect("term");
        let model = |value: u128, var| {
            let mut a = Assignment::new();
            a.insert(s.var_id(var).expect("a var"), Value::Bv(bv(value)));
            a
        };
        let (mx, my) = (model(5, x), model(3, y));
        let mut cache = ModelCache::default();
        let mut independence = Independence::default();
        let pc = [x_big, y_big];
        // Nothing kept for y's group yet.
        let vars = |t| s.vars_of(&[t]);
        cache.remember(&[x_big], &vars(x_big), &mx);
        assert!(cache
            .satisfies(&s, &mut independence, &pc, Some(sum_not_ten))
            .is_none());
        cache.remember(&[y_big], &vars(y_big), &my);
        // x = 5, y = 3: the sum is 8.
        assert!(cache
            .satisfies(&s, &mut independence, &pc, Some(sum_not_ten))
            .is_some());
        // The sum 10 by repair (x moved to 10 - y), evaluated.
        let repaired = cache
            .satisfies(&s, &mut independence, &pc, Some(sum_is_ten))
            .expect("x = 7");
        assert!(all_true_lazy(
            &s,
            &[x_big, y_big, sum_is_ten],
            &repaired.model
        ));
        // x = 1 contradicts x > 1: no model, whatever the repair tries.
        let x_one = s.eq(x, one).expect("term");
        assert!(cache
            .satisfies(&s, &mut independence, &pc, Some(x_one))
            .is_none());
        assert!(cache.satisfies(&s, &mut independence, &pc, None).is_some());
    }

    /// A constraint the path added without a question has no kept model of its own: the last
    /// kept models are tried on it (evaluated, so a model that fails it is not used).
    #[test]
    fn a_group_without_a_kept_model_is_tried_with_recent_models() {
        let mut s = TermStore::new();
        let x = s.bv_var("x", 32).expect("var");
        let bv = |n: u128| BvConst::new(32, n).expect("fits");
        let one = s.bv_const(bv(1)).expect("const");
        let hundred = s.bv_const(bv(100)).expect("const");
        let x_big = s.bv_ugt(x, one).expect("term");
        let x_small = s.bv_ult(x, hundred).expect("term");
        let x_huge = s.bv_ugt(x, hundred).expect("term");
        let mut model = Assignment::new();
        model.insert(s.var_id(x).expect("a var"), Value::Bv(bv(5)));
        let mut cache = ModelCache::default();
        let mut independence = Independence::default();
        cache.remember(&[x_big], &s.vars_of(&[x_big]), &model);
        let reused = cache
            .satisfies(&s, &mut independence, &[x_big, x_small], None)
            .expect("x = 5 satisfies both");
        assert!(
            reused.built,
            "a model chosen here is kept again by the caller"
        );
        assert!(cache
            .satisfies(&s, &mut independence, &[x_big, x_huge], None)
            .is_none());
    }

    /// The search interleaves states, so the model of a state's last question must be found
    /// by the longest prefix of its path condition whatever was kept in between (the recent
    /// models are other states').
    #[test]
    fn a_path_condition_finds_the_model_of_its_longest_kept_prefix() {
        let mut s = TermStore::new();
        let x = s.bv_var("x", 32).expect("var");
        let y = s.bv_var("y", 32).expect("var");
        let bv = |n: u128| Value::Bv(BvConst::new(32, n).expect("fits"));
        let one = s.bv_val(32, 1).expect("const");
        let twelve = s.bv_val(32, 12).expect("const");
        let x_big = s.bv_ugt(x, one).expect("term");
        let y_above = s.bv_ugt(y, x).expect("term");
        let sum = s.bv_add(x, y).expect("term");
        let sum_twelve = s.eq(sum, twelve).expect("term");
        let model = |xv, yv| {
            let mut a = Assignment::new();
            a.insert(s.var_id(x).expect("var"), bv(xv));
            a.insert(s.var_id(y).expect("var"), bv(yv));
            a
        };
        let mut cache = ModelCache::default();
        let mut independence = Independence::default();
        let vars = s.vars_of(&[x_big, y_above]);
        cache.remember(&[x_big, y_above], &vars, &model(5, 7));
        for other in 0..8 {
            cache.remember(&[y_above], &vars, &model(0, other + 1));
        }
        let reused = cache
            .satisfies(&s, &mut independence, &[x_big, y_above, sum_twelve], None)
            .expect("x = 5, y = 7 satisfies the longer path condition");
        assert_eq!(reused.model.get(s.var_id(x).expect("var")), Some(&bv(5)));
        // A prefix that differs in one term finds nothing (the sequence is compared).
        assert!(cache
            .satisfies(&s, &mut independence, &[y_above, x_big, sum_twelve], None)
            .is_none());
    }

    /// A key comparison through an `ite` chain that the kept model falsifies is answered by
    /// changing the variable the model's branch reads, or, where the constraints pin it, by
    /// first separating two references the model aliases; whatever comes back is a model of
    /// the constraints and the query, and an unsatisfiable query gets no answer.
    #[test]
    fn model_repair_changes_the_read_variable_or_separates_an_alias() {
        let mut s = TermStore::new();
        let var = |s: &mut TermStore, name: &str| s.bv_var(name, 32).expect("var");
        let (n, y1, e1, e2, x) = (
            var(&mut s, "n"),
            var(&mut s, "y1"),
            var(&mut s, "e1"),
            var(&mut s, "e2"),
            var(&mut s, "x"),
        );
        let val = |s: &mut TermStore, v: u128| s.bv_val(32, v).expect("const");
        let (five, six, ten) = (val(&mut s, 5), val(&mut s, 6), val(&mut s, 10));
        let alias = s.eq(n, y1).expect("term");
        let key = s.ite(alias, e1, e2).expect("term");
        let x_below_key = s.bv_ult(x, key).expect("term");
        let x_below_e1 = s.bv_ult(x, e1).expect("term");
        let e1_small = s.bv_ult(e1, ten).expect("term");
        let e1_tiny = s.bv_ult(e1, five).expect("term");
        let x_big = s.bv_ugt(x, six).expect("term");
        let zero = val(&mut s, 0);
        let n_set = s.bv_ugt(n, zero).expect("term");
        let y1_set = s.bv_ugt(y1, zero).expect("term");
        let e2_small = s.bv_ult(e2, ten).expect("term");
        let bv = |v: u128| Value::Bv(BvConst::new(32, v).expect("fits"));
        let mut model = Assignment::new();
        for (t, v) in [(n, 1), (y1, 1), (e1, 5), (e2, 0), (x, 7)] {
            model.insert(s.var_id(t).expect("var"), bv(v));
        }
        let check = |s: &TermStore, pc: &[TermId], query: TermId, cache: &ModelCache| {
            let mut independence = Independence::default();
            let reused = cache.satisfies(s, &mut independence, pc, Some(query))?;
            let mut terms = pc.to_vec();
            terms.push(query);
            assert!(all_true_lazy(s, &terms, &reused.model), "not a model");
            Some(reused.model)
        };
        let mut cache = ModelCache::default();
        let pc = [e1_small, x_big, n_set, y1_set, e2_small];
        cache.remember(&pc, &s.vars_of(&pc), &model);
        // e1 = 8 (x + 1) makes `x < e1` true and keeps `e1 < 10`.
        let repaired = check(&s, &pc, x_below_key, &cache).expect("e1 can move");
        assert_eq!(repaired.get(s.var_id(e1).expect("var")), Some(&bv(8)));
        let mut cache = ModelCache::default();
        let pc = [e1_tiny, x_big, n_set, y1_set, e2_small];
        model.insert(s.var_id(e1).expect("var"), bv(3));
        cache.remember(&pc, &s.vars_of(&pc), &model);
        // e1 < 5 and x > 6 pin both sides: n must leave y1, then e2 can move.
        let repaired = check(&s, &pc, x_below_key, &cache).expect("n can move");
        assert_ne!(
            repaired.get(s.var_id(n).expect("var")),
            repaired.get(s.var_id(y1).expect("var"))
        );
        assert_eq!(check(&s, &pc, x_below_e1, &cache), None, "unsatisfiable");
    }

    /// 32-bit variables of these names.
    fn bv_vars<const N: usize>(s: &mut TermStore, names: [&str; N]) -> [TermId; N] {
        names.map(|name| s.bv_var(name, 32).expect("var"))
    }

    /// A constraint that comes without a question and needs a new variable at another's
    /// value (POSE's aliasing clause `y = y1 → z = z1` where the model aliases `y` and `y1`)
    /// is completed with that value, which neither a default nor a fresh value is.
    #[test]
    fn a_new_variable_takes_the_value_a_constraint_equates_it_with() {
        let mut s = TermStore::new();
        let [y, y1, z, z1] = bv_vars(&mut s, ["y", "y1", "z", "z1"]);
        let alias = s.eq(y, y1).expect("term");
        let apart = s.not(alias).expect("term");
        let agree = s.eq(z, z1).expect("term");
        let clause = s.or(apart, agree).expect("term");
        let bv = |v: u128| Value::Bv(BvConst::new(32, v).expect("fits"));
        let mut model = Assignment::new();
        for (t, v) in [(y, 3), (y1, 3), (z1, 7)] {
            model.insert(s.var_id(t).expect("var"), bv(v));
        }
        let vars = s.vars_of(&[clause]);
        let (completed, chose) = complete(&s, model, &vars, &[clause]).expect("z = 7 does");
        assert!(chose);
        assert_eq!(completed.get(s.var_id(z).expect("var")), Some(&bv(7)));
    }

    /// A comparison inside a Boolean `ite` (a slot that a write changed: `ite(p = w, false,
    /// p = z)`) is repaired like one outside it.
    #[test]
    fn repair_looks_inside_boolean_ites() {
        let mut s = TermStore::new();
        let [p, w, z] = bv_vars(&mut s, ["p", "w", "z"]);
        let written = s.eq(p, w).expect("term");
        let no = s.bool_val(false).expect("term");
        let same = s.eq(p, z).expect("term");
        let query = s.ite(written, no, same).expect("term");
        let zero = s.bv_val(32, 0).expect("const");
        let p_set = s.bv_ugt(p, zero).expect("term");
        let bv = |v: u128| Value::Bv(BvConst::new(32, v).expect("fits"));
        let mut model = Assignment::new();
        for (t, v) in [(p, 4), (w, 9), (z, 0)] {
            model.insert(s.var_id(t).expect("var"), bv(v));
        }
        let mut cache = ModelCache::default();
        let mut independence = Independence::default();
        let pc = [p_set];
        let vars = s.vars_of(&[p_set, query]);
        cache.remember(&pc, &vars, &model);
        let reused = cache
            .satisfies(&s, &mut independence, &pc, Some(query))
            .expect("z can move to p");
        assert!(all_true_lazy(&s, &[p_set, query], &reused.model));
    }

    /// A comparison after arithmetic (AVL heights: `lh == rh + 1`) is repaired by undoing the
    /// arithmetic on the other side's value: each query needs `h` at one value no default,
    /// fresh value or neighbour of the other side gives.
    #[test]
    fn repair_solves_through_additions_subtractions_and_negations() {
        let mut s = TermStore::new();
        let [h] = bv_vars(&mut s, ["h"]);
        let bv = |v: u128| BvConst::new(32, v).expect("fits");
        let c = |s: &mut TermStore, v: u128| s.bv_const(bv(v)).expect("const");
        let minus_one = c(&mut s, u32::MAX.into());
        let is_minus_one = s.eq(h, minus_one).expect("term");
        let not_null = s.not(is_minus_one).expect("term");
        let one = c(&mut s, 1);
        let succ = s.bv_add(one, h).expect("term");
        let ten = c(&mut s, 10);
        let from_ten = s.bv_sub(ten, h).expect("term");
        let four = c(&mut s, 4);
        let below = s.bv_sub(h, four).expect("term");
        let negated = s.bv_neg(below).expect("term");
        let three = c(&mut s, 3);
        let queries = [
            (
                s.eq(minus_one, succ).expect("term"),
                u128::from(u32::MAX) - 1,
            ),
            (s.eq(from_ten, three).expect("term"), 7),
            (s.eq(negated, one).expect("term"), 3),
        ];
        let mut model = Assignment::new();
        model.insert(s.var_id(h).expect("var"), Value::Bv(bv(5)));
        for (query, wanted) in queries {
            let mut cache = ModelCache::default();
            let mut independence = Independence::default();
            let pc = [not_null];
            cache.remember(&pc, &s.vars_of(&pc), &model);
            let reused = cache
                .satisfies(&s, &mut independence, &pc, Some(query))
                .expect("h can be solved for");
            let value = reused.model.get(s.var_id(h).expect("var"));
            assert_eq!(value.and_then(Value::as_bv), Some(bv(wanted)));
        }
    }

    /// Two groups, each with the model of its own last question, joined by a constraint added
    /// without a question: the joined group has no kept prefix, and its model is the union
    /// of the parts' models, completed over the joining constraint.
    #[test]
    fn groups_a_constraint_joins_combine_their_models() {
        let mut s = TermStore::new();
        let [x, k, n, m] = bv_vars(&mut s, ["x", "k", "n", "m"]);
        let zero = s.bv_val(32, 0).expect("const");
        let hundred = s.bv_val(32, 100).expect("const");
        // Neither defaults nor values by number (x = 1, k = 2) satisfy it.
        let k_below_x = s.bv_slt(k, x).expect("term");
        // Neither a default nor a fresh value (a variable's number plus one) satisfies it.
        let n_set = s.bv_ugt(n, hundred).expect("term");
        // n = m → k = 0 (false where the models keep n and m apart).
        let alias = s.eq(n, m).expect("term");
        let apart = s.not(alias).expect("term");
        let k_zero = s.eq(k, zero).expect("term");
        let join = s.or(apart, k_zero).expect("term");
        let bv = |v: u128| Value::Bv(BvConst::new(32, v).expect("fits"));
        let model = |pairs: &[(TermId, u128)]| {
            let mut a = Assignment::new();
            for &(t, v) in pairs {
                a.insert(s.var_id(t).expect("var"), bv(v));
            }
            a
        };
        let mut cache = ModelCache::default();
        cache.remember(
            &[k_below_x],
            &s.vars_of(&[k_below_x]),
            &model(&[(x, 5), (k, 1)]),
        );
        cache.remember(&[n_set], &s.vars_of(&[n_set]), &model(&[(n, 200)]));
        let mut independence = Independence::default();
        let pc = [k_below_x, n_set, join];
        let reused = cache
            .satisfies(&s, &mut independence, &pc, None)
            .expect("the parts' models and m fresh satisfy the join");
        assert!(all_true_lazy(&s, &pc, &reused.model));
        assert_eq!(reused.model.get(s.var_id(k).expect("var")), Some(&bv(1)));
    }
}
