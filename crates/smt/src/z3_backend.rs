//! The in-process back end: Z3 through its C API (the system `libz3`, 4.8.12 on Debian).
//!
//! Terms are translated once per term id (iteratively, children first) and the Z3 ASTs are
//! kept alive with Z3's reference counting (`Z3_mk_context_rc`) for the solver's lifetime, so
//! a growing path condition costs one translation per new node. Assumptions go to
//! `Z3_solver_check_assumptions`, which accepts any Boolean term (measured twice as fast as a
//! push/assert/pop scope around each check). Z3's error handler is replaced by one that does nothing and
//! every call that can fail is checked, so Z3 errors become `SolverError::Z3`, never an abort.
//! Model values are read through numerals, `as-array` function interpretations and
//! `store`/`const` applications recognised by name. Everything unsafe in the crate is here.
//!
//! Z3's incremental core (used as soon as there are scopes or assumptions) is much slower than
//! its one-shot bit-blasting pipeline on some linear bit-vector queries (loop summaries' chained
//! phases: 9.6 s against 1.7 s). With [`Z3Solver::set_one_shot_after`], a check that the
//! incremental core has not decided within that time's worth of work (Z3's `rlimit`, at the
//! nominal [`crate::WORK_PER_SECOND`]: counted, so that the same check is handed over on every
//! run whatever the load; session 59, timed before) is asked again from scratch by the
//! one-shot solver: a fresh solver gets the assertions and the check's assumptions, and its only
//! check runs Z3's one-shot pipeline. A scope pushed on the incremental solver instead would make
//! Z3 internalize every assertion there first, which takes seconds on large formulas and cannot
//! be interrupted. The one-shot pipeline itself (bit-blasting) may run far past both its time
//! limit and an interrupt, so the retry runs in a context of its own on a thread of its own
//! ([`Isolated`]): past its limit plus [`ABANDON_GRACE`] it is abandoned (the thread finishes
//! and frees its context in the background) and the check answers `unknown`. A `sat` answer's
//! model is translated back into our context and read until the next change of the stack.
//!
//! Z3 sets its incremental core up at the first push or check, for the logic it was given or,
//! without one, for everything (every theory, relevancy propagation on): a scope pushed before
//! any assertion leaves it nothing to detect the logic from. Set up for bit-vectors instead
//! (relevancy off, Z3's `setup_QF_BV`), the core decides the forward engine's checks faster:
//! 1.5× as many checks within the same 3 s (median over the generated programs of
//! `bench/subsume/work_rate.sh`; up to 12×), subsumption's induction queries on SV-COMP's
//! `ddlm2013` in 10.0 s instead of 11.7 (session 67, BENCHMARKS.md). So [`Z3Solver::new`]
//! starts as Z3's solver for `QF_UFBV`, which sets the core up so. (For `QF_BV` Z3 makes its
//! SAT solver over bit-blasted terms the incremental solver: `ddlm2013` in 3.9 s, but 30 checks
//! in 3 s of a generated program with products of inputs where the core made 19,154.) That
//! setup has no theory of arrays or integers (it answered `unknown` to a read of a `store`), so
//! the first term of such a sort makes the solver stale, and the next check rebuilds it, stack
//! and all, as the general-purpose one (no restart: the answers so far stand).
//!
//! Z3's incremental core does not always stop at its time limit or at an interrupt: on a query
//! with 130 nested multiplications of inputs (a generated program's loop, unrolled) it ran 47 s
//! past a 3 s deadline, inside one check. So a check whose assertions and assumptions hold more
//! than [`HEAVY_NONLINEAR`] multiplications, divisions or remainders of two non-constant terms
//! goes to the one-shot solver at once (where the handover is on), which can be abandoned.
//!
//! A hard deadline ([`Solver::set_deadline`]) arms the process's watchdog
//! (`z3_watchdog.rs`): past it, a running assert, scope change or check is interrupted, and
//! the solver makes no further such call (checks answer `Unknown`). Z3 may not stop at the
//! interrupt either (a check with 176 signed divisions of a generated program, bit-blasted on
//! the incremental core, ran 0.5 s past it), so while a deadline is set every check runs on the
//! solver's worker thread (`z3_thread.rs`, kept from check to check) and is waited for until
//! the deadline plus [`ABANDON_GRACE`]: past that, the thread gets the context (it deletes it
//! when Z3 returns), and the solver goes on, expired, with a fresh context and a new worker.
//!
//! A check cut short leaves a solver that cannot be trusted. After a check of the incremental
//! core ended `unknown` at a time limit, a later check of the same solver answered `sat`
//! where a fresh Z3 answers `unsat` (with Z3's time limit at subsumption's share of the
//! time: 5 of 40 runs of `loops_irregular_4_11.uc` under `klee --subsume` ended with a
//! counterexample the interpreter did not reproduce), and a later push failed as "canceled"
//! (5 of 37 runs of SV-COMP's `bitvector/gcd_2`, 500-ms handover), which left Z3's stack out
//! of step with ours: after a failed push the matching pop drops an outer scope (wrong
//! `sat`s), after a failed pop assertions stay that should be gone (wrong `unsat`s, which
//! replay cannot catch: a path dropped, perhaps a wrong `safe`).
//! Z3 4.8.12's timer (`scoped_timer`, shared by the process) is the likely culprit: its
//! compare-and-swap writes the shared expected value back on failure, so a timer can fire
//! into a check that has already returned. So a solver whose check ended `unknown` (time,
//! resource or conflict limit, interrupt, error), or one of whose calls failed, is *stale*:
//! it takes no further call, and the next check first rebuilds it ([`Z3Solver::rebuild`]) in
//! a new context: the scopes pushed and the asserted terms translated and asserted again. On
//! the runs above: no wrong answer in 40 runs, every one of 20 runs of `gcd_2` answered. The
//! price is one internalization of the stack per check cut short, and a cold solver: no change
//! above the noise on the SV-COMP tasks that hand checks over nor on the degree counting
//! table's `conj-loops`, but one generated program whose next check the warm solver decided
//! at once finds two violations fewer in 6 s (BENCHMARKS.md, "Rebuilding Z3 after a check cut
//! short").

use std::ffi::{CStr, CString};
use std::mem::take;
use std::os::raw::c_char;
use std::ptr;
use std::time::{Duration, Instant};

use rustc_hash::FxHashMap;

use crate::bv::BvConst;
use crate::error::SolverError;
use crate::printer::symbol_text;
use crate::solver::{
    work_of, Model, SatResult, Solver, SolverStats, StoreBinding, DEFAULT_TIMEOUT,
};
use crate::sort::Sort;
use crate::term::{Node, Op, TermId, TermStore};
use crate::value::{ArrayValue, Value};
use crate::z3_ffi::*;
use crate::z3_thread::{on_own_thread, Unfinished, Worker};
use crate::z3_watchdog::Watch;

/// The value of a Z3 solver parameter ([`Z3Solver::set_param`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Z3Param {
    Bool(bool),
    Uint(u32),
}

/// Z3 in process. See the module documentation.
pub struct Z3Solver {
    ctx: Z3_context,
    solver: Z3_solver,
    /// Which of Z3's solvers this is: a general-purpose one may start set up for bit-vectors
    /// alone and outgrow it (module doc).
    kind: Kind,
    /// Translations by term index (null: not translated yet); each holds one reference.
    asts: Vec<Z3_ast>,
    /// Translated sorts; each holds one reference (through its AST).
    sorts: FxHashMap<Sort, Z3_sort>,
    binding: StoreBinding,
    model_ready: bool,
    /// The model of the last check's one-shot retry, if it answered `sat` (one reference).
    one_shot_model: Option<Z3_model>,
    timeout: Option<Duration>,
    /// How long the incremental core may try before the one-shot solver takes over.
    one_shot_after: Option<Duration>,
    /// Z3's `rlimit` per check (its deterministic resource count), applied with the time limit.
    resource_limit: Option<u32>,
    /// Z3's `max_conflicts` per check, applied with the time limit.
    conflict_limit: Option<u32>,
    /// Solver parameters set by [`Z3Solver::set_param`], applied with the time limit.
    params: Vec<(CString, Z3Param)>,
    /// The time limit and `solver2_timeout` last given to Z3 (`None`: give them again).
    applied: Option<(u32, u32, u32)>,
    /// The watchdog's hold while a hard deadline is set.
    watch: Option<Watch>,
    /// The terms asserted, in order, and where each scope starts in it (for the heavy-query
    /// rule of the module doc and the rebuild; one start per scope pushed: the stack's level).
    asserted: Vec<TermId>,
    scopes: Vec<usize>,
    /// Nonlinear terms ever translated: no check can hold more, so while this stays within
    /// [`HEAVY_NONLINEAR`] the rule costs no walk over a check's terms.
    nonlinear_translated: usize,
    /// How long a check on a thread of its own is waited for past its limit before it is
    /// abandoned ([`ABANDON_GRACE`]; tests shorten it).
    abandon_grace: Duration,
    /// The thread checks run on while a deadline is set.
    checker: Worker,
    /// A hard deadline has passed: the solver makes no more interruptible calls, for good
    /// (skipped calls left its stack out of step, and the context may be cancelled).
    expired: bool,
    /// A check of the solver ended `unknown` (a limit, the handover to the one-shot solver, an
    /// interrupt, an error) or one of its calls failed: Z3 was seen to answer later checks of
    /// such a solver wrongly (module doc), so it takes no more calls, and the next check runs
    /// on a new solver holding the same stack ([`Z3Solver::rebuild`]).
    stale: bool,
    /// The solver was set up for bit-vectors alone and a term of another sort was translated:
    /// it is stale, and its rebuild is a general-purpose solver, not a restart.
    outgrown: bool,
    /// Z3's work count ([`Solver::work`]) of the contexts this solver has left behind: those
    /// it rebuilt from and its one-shot retries'.
    work_elsewhere: u64,
    stats: SolverStats,
    version: String,
}

// SAFETY: a Z3 context may be used from any thread as long as it is not used from two at
// once; `Z3Solver` owns its context exclusively and every use goes through `&mut self` (or
// `&self` for pure reads of Rust fields), so moving it to another thread is sound.
unsafe impl Send for Z3Solver {}

unsafe extern "C" fn ignore_error(_c: Z3_context, _e: Z3_error_code) {}

/// Copies a C string owned by Z3 (valid until the next Z3 call).
fn c_text(p: *const c_char) -> String {
    if p.is_null() {
        String::new()
    } else {
        // SAFETY: Z3 returns NUL-terminated strings that live until its next call; we copy
        // immediately.
        unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
    }
}

/// The reason of an `unknown` answer after the hard deadline.
const DEADLINE: &str = "timeout: the deadline passed";

fn c_string(s: &str) -> Result<CString, SolverError> {
    CString::new(s).map_err(|_| SolverError::Z3(format!("string with a NUL byte: {s:?}")))
}

/// The pending error of `ctx` (a live context), if its last call failed.
fn context_error(ctx: Z3_context) -> Option<String> {
    // SAFETY: reading the error state of a live context.
    unsafe {
        let code = Z3_get_error_code(ctx);
        (code != Z3_OK).then(|| c_text(Z3_get_error_msg(ctx, code)))
    }
}

/// Z3's count of the work done in `ctx` so far, its `rlimit count` statistic (`None` if Z3
/// does not report it). The count is the context's, so it grows with every check of any of
/// its solvers, and it is deterministic: the same calls count the same, whatever the load.
fn rlimit_count(ctx: Z3_context, solver: Z3_solver) -> Option<u64> {
    const KEY: &[u8] = b"rlimit count";
    // SAFETY: a live solver of a live context; the statistics are held by a reference while
    // read, and each key is compared before Z3's next call.
    unsafe {
        let stats = Z3_solver_get_statistics(ctx, solver);
        if stats.is_null() || context_error(ctx).is_some() {
            return None;
        }
        Z3_stats_inc_ref(ctx, stats);
        let count = (0..Z3_stats_size(ctx, stats)).find_map(|i| {
            let key = Z3_stats_get_key(ctx, stats, i);
            (!key.is_null() && CStr::from_ptr(key).to_bytes() == KEY).then(|| {
                if Z3_stats_is_uint(ctx, stats, i) {
                    u64::from(Z3_stats_get_uint_value(ctx, stats, i))
                } else {
                    Z3_stats_get_double_value(ctx, stats, i) as u64
                }
            })
        });
        Z3_stats_dec_ref(ctx, stats);
        count
    }
}

/// A fresh context with models enabled and Z3's error handler replaced (see the module doc).
fn new_context() -> Result<Z3_context, SolverError> {
    // SAFETY: plain calls into the C API with valid arguments; each result is checked.
    unsafe {
        let cfg = Z3_mk_config();
        if cfg.is_null() {
            return Err(SolverError::Z3("Z3_mk_config failed".into()));
        }
        let model = c_string("model")?;
        let yes = c_string("true")?;
        Z3_set_param_value(cfg, model.as_ptr(), yes.as_ptr());
        let ctx = Z3_mk_context_rc(cfg);
        Z3_del_config(cfg);
        if ctx.is_null() {
            return Err(SolverError::Z3("Z3_mk_context_rc failed".into()));
        }
        Z3_set_error_handler(ctx, ignore_error);
        Ok(ctx)
    }
}

/// Which of Z3's solvers a [`Z3Solver`] drives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// The general-purpose solver for `QF_UFBV` (`Z3_mk_solver_for_logic`), whose core is
    /// set up for bit-vectors, until a term of another sort is translated (module doc).
    BitVectors,
    /// The general-purpose solver (`Z3_mk_solver`), set up for whatever its first check holds.
    General,
    /// The bare SMT core ([`Z3Solver::core`]): no one-shot mode, no `solver2_timeout`.
    Core,
}

/// A solver of `kind` in a context of its own, holding one reference.
fn fresh_solver(kind: Kind) -> Result<(Z3_context, Z3_solver), SolverError> {
    let ctx = new_context()?;
    match new_solver(ctx, kind) {
        Ok(solver) => Ok((ctx, solver)),
        Err(e) => {
            // SAFETY: nothing else holds the context yet.
            unsafe { Z3_del_context(ctx) };
            Err(e)
        }
    }
}

/// A new, empty solver of `kind` in `ctx`, holding one reference.
fn new_solver(ctx: Z3_context, kind: Kind) -> Result<Z3_solver, SolverError> {
    // SAFETY: plain calls into the C API with a live context; the result is checked.
    unsafe {
        let solver = match kind {
            Kind::BitVectors => {
                Z3_mk_solver_for_logic(ctx, Z3_mk_string_symbol(ctx, c"QF_UFBV".as_ptr()))
            }
            Kind::General => Z3_mk_solver(ctx),
            Kind::Core => Z3_mk_simple_solver(ctx),
        };
        if solver.is_null() {
            return Err(SolverError::Z3("Z3_mk_solver failed".into()));
        }
        Z3_solver_inc_ref(ctx, solver);
        Ok(solver)
    }
}

/// A check with more nonlinear operations than this (module doc) skips the incremental core.
/// Measured with Z3 4.8.12 on `p = p·y + x` repeated n times, `p = 0 ∧ x ≠ 0`: one-shot 0.29 s
/// and 0.39 s, incremental 0.88 s and 3.8 s, for n = 32 and 64.
const HEAVY_NONLINEAR: usize = 32;

/// How long a check on a thread of its own (a one-shot retry past its limit, any check past
/// the hard deadline) is waited for before it is abandoned.
const ABANDON_GRACE: Duration = Duration::from_millis(200);

/// A one-shot retry in a context of its own (see the module doc).
struct Isolated {
    ctx: Z3_context,
    solver: Z3_solver,
}

// SAFETY: the context and solver are used by one thread at a time: the creating thread until
// `check` hands them to the retry's thread, which hands them back with the answer (or, when
// the caller has stopped waiting, frees them itself).
unsafe impl Send for Isolated {}

impl Isolated {
    /// A fresh solver in a new context holding `solver`'s assertions and `assumptions`
    /// (ASTs of `ctx`), translated; an assertion that cannot be copied is an error (a retry
    /// without it could answer `sat` wrongly).
    fn copy(
        ctx: Z3_context,
        solver: Z3_solver,
        assumptions: &[Z3_ast],
    ) -> Result<Isolated, SolverError> {
        let own = new_context()?;
        let failed = |what: &str| SolverError::Z3(format!("one-shot retry: {what} failed"));
        // SAFETY: live objects of `ctx` are read and translated into `own`; the vector and the
        // solver are held by a reference while used, and `isolated` frees `own` on every path.
        unsafe {
            let fresh = Z3_mk_solver(own);
            if fresh.is_null() {
                Z3_del_context(own);
                return Err(failed("Z3_mk_solver"));
            }
            Z3_solver_inc_ref(own, fresh);
            let isolated = Isolated {
                ctx: own,
                solver: fresh,
            };
            let assertions = Z3_solver_get_assertions(ctx, solver);
            if assertions.is_null() {
                return Err(failed("Z3_solver_get_assertions"));
            }
            Z3_ast_vector_inc_ref(ctx, assertions);
            let copy_all = || -> Result<(), SolverError> {
                let stored = (0..Z3_ast_vector_size(ctx, assertions))
                    .map(|i| Z3_ast_vector_get(ctx, assertions, i));
                for a in stored.chain(assumptions.iter().copied()) {
                    let copied = if a.is_null() {
                        ptr::null_mut()
                    } else {
                        Z3_translate(ctx, a, own)
                    };
                    if copied.is_null() || context_error(ctx).is_some() {
                        return Err(failed("translating an assertion"));
                    }
                    Z3_solver_assert(own, fresh, copied);
                    if let Some(msg) = context_error(own) {
                        return Err(SolverError::Z3(format!("one-shot retry: {msg}")));
                    }
                }
                Ok(())
            };
            let copied = copy_all();
            Z3_ast_vector_dec_ref(ctx, assertions);
            copied.map(|()| isolated)
        }
    }

    /// Runs the check on a thread of its own and waits for it at most `wait`: the answer,
    /// Z3's reason for `unknown`, and the retry (to read a model from); `None` when the
    /// thread could not start or the wait ran out. An abandoned retry is interrupted and
    /// frees its context when Z3 returns.
    fn check(self, wait: Option<Duration>) -> Option<(Z3_lbool, String, Isolated)> {
        let ctx = self.ctx as usize;
        let isolated = self;
        let work = move || {
            let isolated = isolated;
            // SAFETY: this thread alone uses the context now.
            let answer = unsafe {
                Z3_solver_check_assumptions(isolated.ctx, isolated.solver, 0, ptr::null())
            };
            let reason = match context_error(isolated.ctx) {
                Some(msg) => format!("Z3 error: {msg}"),
                // SAFETY: as above, after a check.
                None => {
                    c_text(unsafe { Z3_solver_get_reason_unknown(isolated.ctx, isolated.solver) })
                }
            };
            (answer, reason, isolated)
        };
        let abandon = || {
            // SAFETY: the retry, which owns the context, is not dropped while this runs
            // (`on_own_thread`); `Z3_interrupt` may be called from any thread, also after the
            // check has ended.
            unsafe { Z3_interrupt(ctx as Z3_context) };
            true
        };
        on_own_thread("z3-one-shot", wait, work, abandon).ok()
    }
}

/// The incremental solver's context with one check of it, lent to a thread of its own
/// ([`Z3Solver::check_on_own_thread`]). It frees nothing: dropped unrun, the context stays
/// the solver's.
struct LentCheck {
    ctx: Z3_context,
    solver: Z3_solver,
    assumptions: Vec<Z3_ast>,
    /// `assumptions.len()`, checked to fit.
    n: u32,
}

// SAFETY: the solver does not touch the context while it is lent (it waits for the answer,
// or has given the context up for good).
unsafe impl Send for LentCheck {}

impl LentCheck {
    fn run(self) -> ReturnedCheck {
        // SAFETY: the solver's live Boolean ASTs; this thread alone uses the context now.
        let answer = unsafe {
            Z3_solver_check_assumptions(self.ctx, self.solver, self.n, self.assumptions.as_ptr())
        };
        ReturnedCheck {
            ctx: self.ctx,
            answer,
        }
    }
}

/// The answer of a [`LentCheck`], with its context, which it deletes when dropped: a solver
/// that takes the answer back keeps the context ([`ReturnedCheck::keep`]); one that gave up
/// waiting leaves it to be freed wherever the answer is dropped.
struct ReturnedCheck {
    ctx: Z3_context,
    answer: Z3_lbool,
}

// SAFETY: as for `LentCheck`.
unsafe impl Send for ReturnedCheck {}

impl ReturnedCheck {
    fn keep(self) -> Z3_lbool {
        let answer = self.answer;
        std::mem::forget(self);
        answer
    }
}

impl Drop for ReturnedCheck {
    fn drop(&mut self) {
        // SAFETY: the solver gave this context up (it works on a fresh one), and the check is
        // over: nobody else uses it. Deleting a context frees every object of it, also those
        // still referenced (the solver's translations): Z3's documentation does not say so,
        // but 4.8.12 does it cleanly (checked under valgrind's memcheck, session 42, with
        // referenced terms, sorts and solver, deleted on another thread after an interrupt).
        unsafe { Z3_del_context(self.ctx) };
    }
}

impl Drop for Isolated {
    fn drop(&mut self) {
        // SAFETY: the retry's own solver and context, used by nobody else any more.
        unsafe {
            Z3_solver_dec_ref(self.ctx, self.solver);
            Z3_del_context(self.ctx);
        }
    }
}

/// One reference to a Z3 AST, released on drop.
struct Held {
    ctx: Z3_context,
    ast: Z3_ast,
}

impl Held {
    /// Takes a reference to `ast` (which must be non-null and live).
    fn new(ctx: Z3_context, ast: Z3_ast) -> Self {
        // SAFETY: `ast` is a live AST of `ctx` returned by the last Z3 call.
        unsafe { Z3_inc_ref(ctx, ast) };
        Held { ctx, ast }
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        // SAFETY: balances the `Z3_inc_ref` of `Held::new`.
        unsafe { Z3_dec_ref(self.ctx, self.ast) };
    }
}

impl Z3Solver {
    /// A fresh Z3 solver (general-purpose incremental solver, set up for bit-vectors until a
    /// term of another sort comes (module doc), models enabled, time limit [`DEFAULT_TIMEOUT`]).
    pub fn new() -> Result<Self, SolverError> {
        Self::create(Kind::BitVectors)
    }

    /// [`Z3Solver::new`] with Z3's bare incremental SMT core (`Z3_mk_simple_solver`) instead
    /// of its general-purpose solver: no preprocessing tactics, no one-shot mode, the theory
    /// solvers set up by [`Z3Solver::set_param`]. On small queries the preprocessing costs more
    /// than it saves: the backward engine's integer-encoded array queries are decided up to 2×
    /// faster so than by the `QF_AUFLIA` solver, and that one was 5× faster than the
    /// general-purpose one (BENCHMARKS.md).
    pub fn core() -> Result<Self, SolverError> {
        Self::create(Kind::Core)
    }

    fn create(kind: Kind) -> Result<Self, SolverError> {
        let (ctx, solver) = fresh_solver(kind)?;
        Ok(Z3Solver {
            ctx,
            solver,
            kind,
            asts: Vec::new(),
            sorts: FxHashMap::default(),
            binding: StoreBinding::default(),
            model_ready: false,
            one_shot_model: None,
            timeout: Some(DEFAULT_TIMEOUT),
            one_shot_after: None,
            resource_limit: None,
            conflict_limit: None,
            params: Vec::new(),
            applied: None,
            watch: None,
            asserted: Vec::new(),
            scopes: Vec::new(),
            nonlinear_translated: 0,
            abandon_grace: ABANDON_GRACE,
            checker: Worker::new("z3-check"),
            expired: false,
            stale: false,
            outgrown: false,
            work_elsewhere: 0,
            stats: SolverStats::default(),
            // SAFETY: a static string of the library.
            version: c_text(unsafe { Z3_get_full_version() }),
        })
    }

    /// The pending Z3 error, if the last call failed.
    fn error(&self) -> Option<String> {
        context_error(self.ctx)
    }

    /// Fails with Z3's message if the last call failed or returned null.
    fn checked<T>(&self, what: &str, p: *mut T) -> Result<*mut T, SolverError> {
        match self.error() {
            Some(msg) => Err(SolverError::Z3(format!("{what}: {msg}"))),
            None if p.is_null() => Err(SolverError::Z3(format!("{what} returned nothing"))),
            None => Ok(p),
        }
    }

    fn sort(&mut self, store: &TermStore, sort: Sort) -> Result<Z3_sort, SolverError> {
        if let Some(&s) = self.sorts.get(&sort) {
            return Ok(s);
        }
        if self.kind == Kind::BitVectors && matches!(sort, Sort::Int | Sort::Array(_)) {
            // The bit-vector setup has no theory of these sorts: no call reaches this solver
            // again, and the next check rebuilds it as a general-purpose one.
            self.kind = Kind::General;
            self.stale = true;
            self.outgrown = true;
        }
        // SAFETY: building sorts in our context from live sorts.
        let s = unsafe {
            match sort {
                Sort::Bool => Z3_mk_bool_sort(self.ctx),
                Sort::Int => Z3_mk_int_sort(self.ctx),
                Sort::BitVec(w) => Z3_mk_bv_sort(self.ctx, w),
                Sort::Array(_) => {
                    let (i, e) = store.array_parts(sort).ok_or_else(|| {
                        SolverError::Term(crate::TermError::Unknown("array sort".into()))
                    })?;
                    let zi = self.sort(store, i)?;
                    let ze = self.sort(store, e)?;
                    Z3_mk_array_sort(self.ctx, zi, ze)
                }
            }
        };
        let s = self.checked("making a sort", s)?;
        // SAFETY: `s` is live; keep it alive for the solver's lifetime.
        unsafe { Z3_inc_ref(self.ctx, Z3_sort_to_ast(self.ctx, s)) };
        self.sorts.insert(sort, s);
        Ok(s)
    }

    fn cached(&self, t: TermId) -> Option<Z3_ast> {
        self.asts.get(t.index()).copied().filter(|a| !a.is_null())
    }

    /// The Z3 AST of `t`, translating whatever part of it is new.
    fn translate(&mut self, store: &TermStore, t: TermId) -> Result<Z3_ast, SolverError> {
        if let Some(a) = self.cached(t) {
            return Ok(a);
        }
        let order = store.postorder_where(&[t], |u| self.cached(u).is_none());
        for u in order {
            self.nonlinear_translated += usize::from(store.is_nonlinear(u));
            let ast = self.translate_node(store, u)?;
            let ast = self.checked("translating a term", ast)?;
            // SAFETY: `ast` is live; the cache keeps one reference until drop.
            unsafe { Z3_inc_ref(self.ctx, ast) };
            if self.asts.len() <= u.index() {
                self.asts.resize(u.index() + 1, ptr::null_mut());
            }
            self.asts[u.index()] = ast;
        }
        self.cached(t)
            .ok_or_else(|| SolverError::Z3("term translation left a gap".into()))
    }

    fn translate_node(&mut self, store: &TermStore, t: TermId) -> Result<Z3_ast, SolverError> {
        let node = *store.node(t);
        let mut args = [ptr::null_mut(); 3];
        for (k, &c) in node.args().iter().enumerate() {
            args[k] = self
                .cached(c)
                .ok_or_else(|| SolverError::Z3("child not translated".into()))?;
        }
        let [a, b, c] = args;
        let ctx = self.ctx;
        let sort = self.sort(store, store.sort(t))?;
        // SAFETY: every argument is a live AST of `ctx` of the sort Z3 expects (terms are
        // sort-checked when built); results are checked by the caller.
        let ast = unsafe {
            match node {
                Node::Bool(true) => Z3_mk_true(ctx),
                Node::Bool(false) => Z3_mk_false(ctx),
                Node::Bv(k) => {
                    let text = c_string(&k.bits().to_string())?;
                    Z3_mk_numeral(ctx, text.as_ptr(), sort)
                }
                Node::Int(i) => {
                    let text = c_string(&i.to_string())?;
                    Z3_mk_numeral(ctx, text.as_ptr(), sort)
                }
                Node::Var(v) => {
                    let name = c_string(&symbol_text(store, v))?;
                    let sym = Z3_mk_string_symbol(ctx, name.as_ptr());
                    Z3_mk_const(ctx, sym, sort)
                }
                Node::ConstArray { sort: arr, .. } => {
                    let (index, _) = store.array_parts(arr).ok_or_else(|| {
                        SolverError::Term(crate::TermError::Unknown("array sort".into()))
                    })?;
                    let domain = self.sort(store, index)?;
                    Z3_mk_const_array(ctx, domain, a)
                }
                Node::Extract { hi, lo, .. } => Z3_mk_extract(ctx, hi, lo, a),
                Node::ZeroExtend { by, .. } => Z3_mk_zero_ext(ctx, by, a),
                Node::SignExtend { by, .. } => Z3_mk_sign_ext(ctx, by, a),
                Node::App1(op, _) => match op {
                    Op::Not => Z3_mk_not(ctx, a),
                    Op::BvNot => Z3_mk_bvnot(ctx, a),
                    Op::BvNeg => Z3_mk_bvneg(ctx, a),
                    _ => Z3_mk_unary_minus(ctx, a),
                },
                Node::App2(op, _, _) => {
                    let pair = [a, b];
                    match op {
                        Op::And => Z3_mk_and(ctx, 2, pair.as_ptr()),
                        Op::Or => Z3_mk_or(ctx, 2, pair.as_ptr()),
                        Op::Xor => Z3_mk_xor(ctx, a, b),
                        Op::Implies => Z3_mk_implies(ctx, a, b),
                        Op::Eq => Z3_mk_eq(ctx, a, b),
                        Op::BvAnd => Z3_mk_bvand(ctx, a, b),
                        Op::BvOr => Z3_mk_bvor(ctx, a, b),
                        Op::BvXor => Z3_mk_bvxor(ctx, a, b),
                        Op::BvAdd => Z3_mk_bvadd(ctx, a, b),
                        Op::BvSub => Z3_mk_bvsub(ctx, a, b),
                        Op::BvMul => Z3_mk_bvmul(ctx, a, b),
                        Op::BvUdiv => Z3_mk_bvudiv(ctx, a, b),
                        Op::BvSdiv => Z3_mk_bvsdiv(ctx, a, b),
                        Op::BvUrem => Z3_mk_bvurem(ctx, a, b),
                        Op::BvSrem => Z3_mk_bvsrem(ctx, a, b),
                        Op::BvShl => Z3_mk_bvshl(ctx, a, b),
                        Op::BvLshr => Z3_mk_bvlshr(ctx, a, b),
                        Op::BvAshr => Z3_mk_bvashr(ctx, a, b),
                        Op::BvUlt => Z3_mk_bvult(ctx, a, b),
                        Op::BvUle => Z3_mk_bvule(ctx, a, b),
                        Op::BvSlt => Z3_mk_bvslt(ctx, a, b),
                        Op::BvSle => Z3_mk_bvsle(ctx, a, b),
                        Op::Concat => Z3_mk_concat(ctx, a, b),
                        Op::Select => Z3_mk_select(ctx, a, b),
                        Op::IntAdd => Z3_mk_add(ctx, 2, pair.as_ptr()),
                        Op::IntSub => Z3_mk_sub(ctx, 2, pair.as_ptr()),
                        Op::IntMul => Z3_mk_mul(ctx, 2, pair.as_ptr()),
                        Op::IntDiv => Z3_mk_div(ctx, a, b),
                        Op::IntMod => Z3_mk_mod(ctx, a, b),
                        Op::IntLe => Z3_mk_le(ctx, a, b),
                        Op::IntLt => Z3_mk_lt(ctx, a, b),
                        _ => ptr::null_mut(),
                    }
                }
                Node::App3(Op::Ite, _, _, _) => Z3_mk_ite(ctx, a, b, c),
                Node::App3(_, _, _, _) => Z3_mk_store(ctx, a, b, c),
            }
        };
        Ok(ast)
    }

    /// Sets a parameter of Z3's solver (e.g. `smt.bv.eq_axioms`), from the next check on. Only
    /// parameters that change how Z3 searches, never what it answers, belong here. Z3 4.8.12
    /// ignores a name it does not know: measure that a parameter takes effect.
    pub fn set_param(&mut self, name: &str, value: Z3Param) -> Result<(), SolverError> {
        let name = c_string(name)?;
        self.params.retain(|(n, _)| *n != name);
        self.params.push((name, value));
        self.applied = None;
        Ok(())
    }

    /// Lets a check that Z3's incremental core has not decided within `after`'s worth of work
    /// (its `rlimit` at [`crate::WORK_PER_SECOND`]) start again in Z3's one-shot solver,
    /// within what is left of the time limit (`None`: never). Ignored
    /// while a resource limit is set: the retry is timed, and a resource-limited check must
    /// give the same answer on every run; and by [`Z3Solver::core`], which has no one-shot
    /// solver.
    pub fn set_one_shot_after(&mut self, after: Option<Duration>) {
        self.one_shot_after = after.filter(|_| self.kind != Kind::Core);
    }

    /// Gives Z3 the time limit `limit` (`None`: none) and hands checks without assumptions
    /// to the one-shot solver after `incremental_ms` (`u32::MAX`: never), with the resource
    /// limit and the parameters of [`Z3Solver::set_param`].
    fn apply_params(
        &mut self,
        limit: Option<Duration>,
        incremental_ms: u32,
        rlimit: u32,
    ) -> Result<(), SolverError> {
        let ms = match limit {
            Some(d) => u32::try_from(d.as_millis())
                .unwrap_or(u32::MAX - 1)
                .clamp(1, u32::MAX - 1),
            None => u32::MAX,
        };
        if self.applied == Some((ms, incremental_ms, rlimit)) {
            return Ok(());
        }
        self.set_params(self.ctx, self.solver, ms, incremental_ms, rlimit)?;
        self.applied = Some((ms, incremental_ms, rlimit));
        Ok(())
    }

    /// Gives `solver` (of `ctx`) the time limit `ms` (`u32::MAX`: none), `solver2_timeout`
    /// `incremental_ms`, the resource limits and the parameters of [`Z3Solver::set_param`].
    fn set_params(
        &self,
        ctx: Z3_context,
        solver: Z3_solver,
        ms: u32,
        incremental_ms: u32,
        rlimit: u32,
    ) -> Result<(), SolverError> {
        let key = c_string("timeout")?;
        // SAFETY: a params object is created, used and released within this block.
        unsafe {
            let p = Z3_mk_params(ctx);
            if p.is_null() {
                return Err(SolverError::Z3("Z3_mk_params failed".into()));
            }
            Z3_params_inc_ref(ctx, p);
            let sym = Z3_mk_string_symbol(ctx, key.as_ptr());
            Z3_params_set_uint(ctx, p, sym, ms);
            // Z3 counts the limit from where the check starts (0: none).
            let rlimit_key = c_string("rlimit")?;
            let sym = Z3_mk_string_symbol(ctx, rlimit_key.as_ptr());
            Z3_params_set_uint(ctx, p, sym, rlimit);
            let conflicts = c_string("max_conflicts")?;
            let sym = Z3_mk_string_symbol(ctx, conflicts.as_ptr());
            Z3_params_set_uint(ctx, p, sym, self.conflict_limit.unwrap_or(u32::MAX));
            // By default a check installs a process-wide Ctrl-C handler pointing at itself;
            // checks overlapping on several threads (the one-shot retry, a check abandoned at
            // the deadline) could leave it pointing at a deleted one.
            let ctrl_c = c_string("ctrl_c")?;
            let sym = Z3_mk_string_symbol(ctx, ctrl_c.as_ptr());
            Z3_params_set_bool(ctx, p, sym, false);
            // The core does not know the name, and Z3 then drops every parameter given with it.
            if self.kind != Kind::Core {
                let handover = c_string("solver2_timeout")?;
                let sym = Z3_mk_string_symbol(ctx, handover.as_ptr());
                Z3_params_set_uint(ctx, p, sym, incremental_ms);
            }
            for (name, value) in &self.params {
                let sym = Z3_mk_string_symbol(ctx, name.as_ptr());
                match *value {
                    Z3Param::Bool(b) => Z3_params_set_bool(ctx, p, sym, b),
                    Z3Param::Uint(n) => Z3_params_set_uint(ctx, p, sym, n),
                }
            }
            Z3_solver_set_params(ctx, solver, p);
            Z3_params_dec_ref(ctx, p);
        }
        match context_error(ctx) {
            Some(msg) => Err(SolverError::Z3(format!(
                "setting the solver parameters: {msg}"
            ))),
            None => Ok(()),
        }
    }

    /// Starts an interruptible Z3 call (assert, scope change, check): `false` when the hard
    /// deadline has passed, and then the call must not be made.
    fn begin(&mut self) -> bool {
        if !self.expired && !self.watch.as_ref().is_none_or(Watch::begin) {
            self.expired = true;
        }
        !self.expired
    }

    /// Ends the call [`Z3Solver::begin`] allowed: `false` when the deadline passed during it
    /// (it may have been interrupted, so its result is void).
    fn end(&mut self) -> bool {
        if self.watch.as_ref().is_some_and(Watch::end) {
            self.expired = true;
        }
        !self.expired
    }

    /// Makes the interruptible call `call` (push, pop, assert) on the solver unless the
    /// deadline has passed, and returns Z3's message if it failed. A call the deadline cut
    /// short counts as done: the solver is expired and answers nothing more.
    fn stack_call(&mut self, call: impl FnOnce(Z3_context, Z3_solver)) -> Option<String> {
        if !self.begin() {
            return None;
        }
        call(self.ctx, self.solver);
        if !self.end() {
            return None;
        }
        self.error()
    }

    /// [`Z3Solver::stack_call`] on a solver that is not stale; a failure makes it stale: Z3
    /// 4.8.12 was seen to fail a push as "canceled" after a check was cut short (module doc),
    /// which left its stack out of step with ours. The stack is rebuilt before the next check,
    /// and a call that fails for good makes that check `unknown` with Z3's message.
    fn stack_call_or_stale(&mut self, call: impl FnOnce(Z3_context, Z3_solver)) {
        if !self.stale && self.stack_call(call).is_some() {
            self.stale = true;
        }
    }

    /// Drops the model of the last one-shot retry, if there is one.
    fn drop_one_shot(&mut self) {
        if let Some(model) = self.one_shot_model.take() {
            // SAFETY: balances the `Z3_model_inc_ref` of `one_shot_check`.
            unsafe { Z3_model_dec_ref(self.ctx, model) };
        }
    }

    /// Replaces the stale solver by a new one, in a context of its own, holding the same stack:
    /// the scopes and the asserted terms, translated again. A new context, because a Z3 call
    /// was seen to fail as "canceled" twice in a row in the old one after a check was cut
    /// short (module doc). The new solver internalizes the assertions again (in its pushes or
    /// its first check), the price of an answer that can be trusted. On a failure the solver
    /// stays stale, and the next check tries again.
    fn rebuild(&mut self, store: &TermStore) -> Result<(), SolverError> {
        let fresh = fresh_solver(self.kind)?;
        let deadline = self.watch.take().map(|w| w.deadline());
        self.work_elsewhere += rlimit_count(self.ctx, self.solver).unwrap_or(0);
        self.release_context();
        self.switch_to(fresh.0, fresh.1);
        self.watch = deadline.map(|d| Watch::arm(self.ctx, d));
        self.stale = false;
        if !take(&mut self.outgrown) {
            self.stats.restarts += 1;
        }
        let (asserted, scopes) = (take(&mut self.asserted), take(&mut self.scopes));
        let replayed = self.replay(store, &asserted, &scopes);
        (self.asserted, self.scopes) = (asserted, scopes);
        self.stale = replayed.is_err() && !self.expired;
        replayed
    }

    /// Pushes `scopes` (where each starts in `asserted`) and asserts `asserted` on the solver,
    /// in order.
    fn replay(
        &mut self,
        store: &TermStore,
        asserted: &[TermId],
        scopes: &[usize],
    ) -> Result<(), SolverError> {
        let mut starts = scopes.iter().peekable();
        for (i, &term) in asserted.iter().enumerate() {
            while starts.next_if(|&&start| start == i).is_some() {
                // SAFETY: our own solver.
                self.replay_call("push", |ctx, solver| unsafe { Z3_solver_push(ctx, solver) })?;
            }
            let ast = self.translate(store, term)?;
            // SAFETY: a live Boolean AST of our context.
            self.replay_call("assert", |ctx, solver| unsafe {
                Z3_solver_assert(ctx, solver, ast)
            })?;
        }
        for _ in starts {
            // SAFETY: our own solver.
            self.replay_call("push", |ctx, solver| unsafe { Z3_solver_push(ctx, solver) })?;
        }
        Ok(())
    }

    /// [`Z3Solver::stack_call`] of the call named `what` in a rebuild.
    fn replay_call(
        &mut self,
        what: &str,
        call: impl FnOnce(Z3_context, Z3_solver),
    ) -> Result<(), SolverError> {
        match self.stack_call(call) {
            Some(msg) => Err(SolverError::Z3(format!(
                "rebuilding the solver: {what}: {msg}"
            ))),
            None => Ok(()),
        }
    }

    /// Checks the assertions and `assumptions` (all asserted) from scratch in an [`Isolated`]
    /// solver within `limit`; a `sat` answer's model goes to `one_shot_model`.
    fn one_shot_check(
        &mut self,
        assumptions: &[Z3_ast],
        limit: Option<Duration>,
    ) -> Result<SatResult, SolverError> {
        if !self.begin() {
            return Ok(SatResult::Unknown(DEADLINE.into()));
        }
        let isolated = Isolated::copy(self.ctx, self.solver, assumptions);
        if !self.end() {
            return Ok(SatResult::Unknown(DEADLINE.into()));
        }
        let isolated = match isolated {
            Ok(isolated) => isolated,
            Err(e) => return Ok(SatResult::Unknown(e.to_string())),
        };
        // The retry's own limit: the check's, and never past the hard deadline.
        let until_deadline = self
            .watch
            .as_ref()
            .map(|w| w.deadline().saturating_duration_since(Instant::now()));
        let limit = match (limit, until_deadline) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let ms = limit.map_or(u32::MAX, |d| {
            u32::try_from(d.as_millis())
                .unwrap_or(u32::MAX - 1)
                .clamp(1, u32::MAX - 1)
        });
        let rlimit = self.resource_limit.unwrap_or(0);
        if let Err(e) = self.set_params(isolated.ctx, isolated.solver, ms, u32::MAX, rlimit) {
            return Ok(SatResult::Unknown(e.to_string()));
        }
        let Some((answer, reason, finished)) =
            isolated.check(limit.map(|d| d + self.abandon_grace))
        else {
            return Ok(SatResult::Unknown(
                "timeout: the one-shot retry ran past its time limit and was abandoned".into(),
            ));
        };
        self.work_elsewhere += rlimit_count(finished.ctx, finished.solver).unwrap_or(0);
        Ok(match answer {
            Z3_L_TRUE => match self.translated_model(&finished) {
                Some(model) => {
                    self.one_shot_model = Some(model);
                    SatResult::Sat
                }
                None => SatResult::Unknown("one-shot retry: its model could not be read".into()),
            },
            Z3_L_FALSE => SatResult::Unsat,
            _ => SatResult::Unknown(reason),
        })
    }

    /// The model of a finished retry that answered `sat`, translated into our context and
    /// held by one reference; `None` if Z3 fails to give or translate it.
    fn translated_model(&self, finished: &Isolated) -> Option<Z3_model> {
        // SAFETY: the finished retry's context is ours (it came back from its thread); the
        // model is held by a reference while translated, the translation by one afterwards.
        unsafe {
            let model = Z3_solver_get_model(finished.ctx, finished.solver);
            if model.is_null() {
                return None;
            }
            Z3_model_inc_ref(finished.ctx, model);
            let ours = Z3_model_translate(finished.ctx, model, self.ctx);
            Z3_model_dec_ref(finished.ctx, model);
            if ours.is_null() || context_error(self.ctx).is_some() {
                return None;
            }
            Z3_model_inc_ref(self.ctx, ours);
            Some(ours)
        }
    }

    /// One Z3 check of the solver's assertions and `assumptions`.
    fn run_check(&mut self, assumptions: &[Z3_ast]) -> Result<SatResult, SolverError> {
        let n = u32::try_from(assumptions.len())
            .map_err(|_| SolverError::Z3("too many assumptions".into()))?;
        if !self.begin() {
            return Ok(SatResult::Unknown(DEADLINE.into()));
        }
        let on_thread = self
            .watch
            .as_ref()
            .map(Watch::deadline)
            .map(|deadline| self.check_on_own_thread(assumptions, n, deadline));
        let answer = match on_thread {
            Some(Ok(answer)) => answer,
            // The solver is expired now: `end` answers `false`.
            Some(Err(Unfinished::Abandoned)) => Z3_L_UNDEF,
            // No deadline, or no thread to run the check on: it runs here.
            // SAFETY: our own solver and live Boolean ASTs of our context.
            None | Some(Err(Unfinished::NoResult)) => unsafe {
                Z3_solver_check_assumptions(self.ctx, self.solver, n, assumptions.as_ptr())
            },
        };
        if !self.end() {
            return Ok(SatResult::Unknown(DEADLINE.into()));
        }
        Ok(if let Some(msg) = self.error() {
            SatResult::Unknown(format!("Z3 error: {msg}"))
        } else {
            match answer {
                Z3_L_TRUE => SatResult::Sat,
                Z3_L_FALSE => SatResult::Unsat,
                // SAFETY: our own solver, after a check.
                _ => SatResult::Unknown(c_text(unsafe {
                    Z3_solver_get_reason_unknown(self.ctx, self.solver)
                })),
            }
        })
    }

    /// Runs the check on a thread of its own and waits until `deadline` plus
    /// [`ABANDON_GRACE`], since Z3 may not stop at the watchdog's interrupt (module doc). Past
    /// that, the check is interrupted (again), the context goes to the thread, which deletes
    /// it when Z3 returns, and the solver carries on expired, with a fresh context.
    fn check_on_own_thread(
        &mut self,
        assumptions: &[Z3_ast],
        n: u32,
        deadline: Instant,
    ) -> Result<Z3_lbool, Unfinished> {
        let lent = LentCheck {
            ctx: self.ctx,
            solver: self.solver,
            assumptions: assumptions.to_vec(),
            n,
        };
        let wait = deadline.saturating_duration_since(Instant::now()) + self.abandon_grace;
        let (kind, old) = (self.kind, self.ctx as usize);
        let watch = &mut self.watch;
        let mut replacement = None;
        let abandon = || match fresh_solver(kind) {
            Ok(fresh) => {
                // SAFETY: the context lives while this runs (`on_own_thread`). The watchdog
                // may not have fired yet (a loaded machine), and must not touch the context
                // once the thread may delete it: so interrupt here, then disarm.
                unsafe { Z3_interrupt(old as Z3_context) };
                *watch = None;
                replacement = Some(fresh);
                true
            }
            // Without a context to go on with, the solver waits for its own.
            Err(_) => false,
        };
        let answer = self.checker.run(Some(wait), move || lent.run(), abandon);
        if let Some((ctx, solver)) = replacement {
            self.abandon_context(ctx, solver);
        }
        answer.map(ReturnedCheck::keep)
    }

    /// Goes on with the fresh `ctx` and `solver` in place of a context given up: nothing of
    /// the old one is touched again (a thread deletes it), and the solver is expired.
    fn abandon_context(&mut self, ctx: Z3_context, solver: Z3_solver) {
        self.watch = None;
        self.one_shot_model = None;
        self.switch_to(ctx, solver);
        self.expired = true;
    }

    /// Makes `ctx` and `solver` the solver's own, with nothing translated in them yet. The old
    /// context must be released or given away first, and the watchdog disarmed.
    fn switch_to(&mut self, ctx: Z3_context, solver: Z3_solver) {
        self.ctx = ctx;
        self.solver = solver;
        self.asts.clear();
        self.sorts.clear();
        self.nonlinear_translated = 0;
        self.applied = None;
        self.model_ready = false;
    }

    /// Releases every reference this solver took in its context, then the context itself.
    /// The watchdog must be disarmed first.
    fn release_context(&mut self) {
        self.drop_one_shot();
        // SAFETY: releases references this solver took, each once; nothing else uses the
        // context (checks of it that were given away run in contexts of their own).
        unsafe {
            for &a in &self.asts {
                if !a.is_null() {
                    Z3_dec_ref(self.ctx, a);
                }
            }
            for &s in self.sorts.values() {
                Z3_dec_ref(self.ctx, Z3_sort_to_ast(self.ctx, s));
            }
            Z3_solver_dec_ref(self.ctx, self.solver);
            Z3_del_context(self.ctx);
        }
    }

    /// Reads the model value `ast` as a value of `sort`.
    fn read_value(
        &self,
        store: &TermStore,
        model: Z3_model,
        ast: Z3_ast,
        sort: Sort,
    ) -> Result<Value, SolverError> {
        let ctx = self.ctx;
        // SAFETY: `ast` is a live AST held by the caller; `ast_to_string` only reads it.
        let show = || c_text(unsafe { Z3_ast_to_string(ctx, ast) });
        let bad = |what: &str| SolverError::Protocol(format!("Z3 gave {} for {what}", show()));
        match sort {
            Sort::Bool => {
                // SAFETY: reading a live AST.
                match unsafe { Z3_get_bool_value(ctx, ast) } {
                    Z3_L_TRUE => Ok(Value::Bool(true)),
                    Z3_L_FALSE => Ok(Value::Bool(false)),
                    _ => Err(bad("a Boolean")),
                }
            }
            Sort::BitVec(w) => {
                let text = self.numeral(ast).ok_or_else(|| bad("a bit-vector"))?;
                let v = text.parse::<u128>().map_err(|_| bad("a bit-vector"))?;
                Ok(Value::Bv(BvConst::new(w, v)?))
            }
            Sort::Int => {
                let text = self.numeral(ast).ok_or_else(|| bad("an integer"))?;
                let v = text
                    .parse::<i128>()
                    .map_err(|_| bad("an integer within i128"))?;
                Ok(Value::Int(v))
            }
            Sort::Array(_) => self.read_array(store, model, ast, sort).map(Value::Array),
        }
    }

    fn numeral(&self, ast: Z3_ast) -> Option<String> {
        // SAFETY: reading a live AST.
        unsafe {
            if Z3_get_ast_kind(self.ctx, ast) != Z3_NUMERAL_AST {
                return None;
            }
            Some(c_text(Z3_get_numeral_string(self.ctx, ast)))
        }
    }

    fn read_array(
        &self,
        store: &TermStore,
        model: Z3_model,
        ast: Z3_ast,
        sort: Sort,
    ) -> Result<ArrayValue, SolverError> {
        let ctx = self.ctx;
        let (index_sort, elem_sort) = store
            .array_parts(sort)
            .ok_or_else(|| SolverError::Term(crate::TermError::Unknown("array sort".into())))?;
        // SAFETY: every AST read below is a sub-term of `ast` (held by the caller) or owned
        // by a function interpretation / entry that is held by a reference for the duration.
        unsafe {
            if Z3_is_as_array(ctx, ast) {
                let decl = Z3_get_as_array_func_decl(ctx, ast);
                let decl = self.checked("as-array declaration", decl)?;
                let fi = Z3_model_get_func_interp(ctx, model, decl);
                let fi = self.checked("array interpretation", fi)?;
                Z3_func_interp_inc_ref(ctx, fi);
                let result = self.read_func_interp(store, model, fi, index_sort, elem_sort);
                Z3_func_interp_dec_ref(ctx, fi);
                return result;
            }
            let mut writes = Vec::new();
            let mut cur = ast;
            let default = loop {
                if Z3_get_ast_kind(ctx, cur) != Z3_APP_AST {
                    return Err(SolverError::Protocol(format!(
                        "unsupported Z3 array value {}",
                        c_text(Z3_ast_to_string(ctx, cur))
                    )));
                }
                let app = Z3_to_app(ctx, cur);
                let decl = Z3_get_app_decl(ctx, app);
                let name = c_text(Z3_get_symbol_string(ctx, Z3_get_decl_name(ctx, decl)));
                let n = Z3_get_app_num_args(ctx, app);
                match (name.as_str(), n) {
                    ("store", 3) => {
                        writes.push((Z3_get_app_arg(ctx, app, 1), Z3_get_app_arg(ctx, app, 2)));
                        cur = Z3_get_app_arg(ctx, app, 0);
                    }
                    ("const", 1) => {
                        let v = Z3_get_app_arg(ctx, app, 0);
                        break self.read_value(store, model, v, elem_sort)?;
                    }
                    _ => {
                        return Err(SolverError::Protocol(format!(
                            "unsupported Z3 array value {}",
                            c_text(Z3_ast_to_string(ctx, cur))
                        )))
                    }
                }
            };
            let mut array = ArrayValue::constant(default);
            for (i, v) in writes.into_iter().rev() {
                let index = self.read_value(store, model, i, index_sort)?;
                let value = self.read_value(store, model, v, elem_sort)?;
                array.set(index, value);
            }
            Ok(array)
        }
    }

    /// Reads an `as-array` function interpretation (entries plus else value).
    ///
    /// # Safety
    /// `fi` must be a live function interpretation of `model` holding a reference.
    unsafe fn read_func_interp(
        &self,
        store: &TermStore,
        model: Z3_model,
        fi: Z3_func_interp,
        index_sort: Sort,
        elem_sort: Sort,
    ) -> Result<ArrayValue, SolverError> {
        let ctx = self.ctx;
        let default_ast = Z3_func_interp_get_else(ctx, fi);
        let default_ast = self.checked("array default", default_ast)?;
        let mut array =
            ArrayValue::constant(self.read_value(store, model, default_ast, elem_sort)?);
        let n = Z3_func_interp_get_num_entries(ctx, fi);
        for k in 0..n {
            let entry = Z3_func_interp_get_entry(ctx, fi, k);
            let entry = self.checked("array entry", entry)?;
            Z3_func_entry_inc_ref(ctx, entry);
            let read = || -> Result<(Value, Value), SolverError> {
                if Z3_func_entry_get_num_args(ctx, entry) != 1 {
                    return Err(SolverError::Protocol(
                        "array entry with several indices".into(),
                    ));
                }
                let i = Z3_func_entry_get_arg(ctx, entry, 0);
                let v = Z3_func_entry_get_value(ctx, entry);
                Ok((
                    self.read_value(store, model, i, index_sort)?,
                    self.read_value(store, model, v, elem_sort)?,
                ))
            };
            let pair = read();
            Z3_func_entry_dec_ref(ctx, entry);
            let (i, v) = pair?;
            array.set(i, v);
        }
        Ok(array)
    }
}

impl Solver for Z3Solver {
    fn name(&self) -> String {
        format!("z3 C API ({})", self.version)
    }

    fn push(&mut self) -> Result<(), SolverError> {
        self.drop_one_shot();
        self.model_ready = false;
        // SAFETY: our own solver.
        self.stack_call_or_stale(|ctx, solver| unsafe { Z3_solver_push(ctx, solver) });
        self.scopes.push(self.asserted.len());
        Ok(())
    }

    fn pop(&mut self) -> Result<(), SolverError> {
        self.drop_one_shot();
        self.model_ready = false;
        let Some(&start) = self.scopes.last() else {
            return Err(SolverError::PopEmpty);
        };
        // SAFETY: there is a matching push.
        self.stack_call_or_stale(|ctx, solver| unsafe { Z3_solver_pop(ctx, solver, 1) });
        self.scopes.pop();
        self.asserted.truncate(start);
        Ok(())
    }

    fn level(&self) -> usize {
        self.scopes.len()
    }

    fn assert(&mut self, store: &TermStore, term: TermId) -> Result<(), SolverError> {
        self.binding.booleans(store, &[term])?;
        self.drop_one_shot();
        self.model_ready = false;
        let ast = self.translate(store, term)?;
        self.asserted.push(term);
        // SAFETY: a live Boolean AST of our context.
        self.stack_call_or_stale(|ctx, solver| unsafe { Z3_solver_assert(ctx, solver, ast) });
        Ok(())
    }

    fn check(
        &mut self,
        store: &TermStore,
        assumptions: &[TermId],
    ) -> Result<SatResult, SolverError> {
        self.binding.booleans(store, assumptions)?;
        self.drop_one_shot();
        self.model_ready = false;
        // Before the assumptions are translated: the rebuilt solver has a context of its own.
        // An expired solver answers nothing more, so it is not rebuilt. Translating them may
        // outgrow a bit-vector setup: then once more, in the general-purpose solver.
        let asts = loop {
            if self.stale && !self.expired {
                let started = Instant::now();
                if let Err(e) = self.rebuild(store) {
                    let result = SatResult::Unknown(e.to_string());
                    self.stats.record(&result, started.elapsed());
                    return Ok(result);
                }
            }
            let asts = assumptions
                .iter()
                .map(|&a| self.translate(store, a))
                .collect::<Result<Vec<_>, _>>()?;
            if !self.outgrown || self.expired {
                break asts;
            }
        };
        let start = Instant::now();
        let handover = self.one_shot_after.filter(|&after| {
            self.resource_limit.is_none()
                && self.conflict_limit.is_none()
                && self.timeout.is_none_or(|t| after < t)
        });
        let heavy = handover.is_some() && self.nonlinear_translated > HEAVY_NONLINEAR && {
            let mut roots = self.asserted.clone();
            roots.extend_from_slice(assumptions);
            store.more_nonlinear_than(&roots, HEAVY_NONLINEAR)
        };
        if heavy {
            let result = self.one_shot_check(&asts, self.timeout)?;
            self.stats.one_shot += 1;
            self.stats.record(&result, start.elapsed());
            self.model_ready = result.is_sat();
            return Ok(result);
        }
        let mut result = match handover {
            Some(after) => {
                let units = u32::try_from(work_of(after)).unwrap_or(u32::MAX).max(1);
                self.apply_params(self.timeout, u32::MAX, units)?;
                self.run_check(&asts)?
            }
            None => {
                self.apply_params(self.timeout, u32::MAX, self.resource_limit.unwrap_or(0))?;
                self.run_check(&asts)?
            }
        };
        if let SatResult::Unknown(_) = result {
            self.stale = !self.expired;
        }
        // Any `unknown` of the core goes to the one-shot solver, not only a timeout: when the
        // core's slice ends inside a theory's final check, Z3 reports the theory as
        // incomplete ("incomplete (theory arithmetic)" on pure bit-vector queries, seen on a
        // loaded CI host) instead of a timeout.
        if let (Some(_), SatResult::Unknown(_)) = (handover, &result) {
            let left = self.timeout.map(|t| t.saturating_sub(start.elapsed()));
            if !self.expired && left.is_none_or(|d| !d.is_zero()) {
                result = self.one_shot_check(&asts, left)?;
                self.stats.one_shot += 1;
            }
        }
        self.stats.record(&result, start.elapsed());
        self.model_ready = result.is_sat();
        Ok(result)
    }

    fn model(&mut self, store: &TermStore, vars: &[TermId]) -> Result<Model, SolverError> {
        self.binding.variables(store, vars)?;
        if !self.model_ready {
            return Err(SolverError::NoModel);
        }
        let start = Instant::now();
        // SAFETY: the last check answered sat, so the solver has a model; it is held by a
        // reference while read.
        let model = match self.one_shot_model {
            Some(model) => model,
            None => unsafe { Z3_solver_get_model(self.ctx, self.solver) },
        };
        let model = self.checked("Z3_solver_get_model", model)?;
        // SAFETY: as above.
        unsafe { Z3_model_inc_ref(self.ctx, model) };
        let read = || -> Result<Model, SolverError> {
            let mut out = Model::new();
            for &v in vars {
                let sort = store.sort(v);
                let value = match self.cached(v) {
                    None => Value::default_of(store.sorts(), sort),
                    Some(ast) => {
                        let mut result: Z3_ast = ptr::null_mut();
                        // SAFETY: evaluating a live AST in a live model.
                        let ok = unsafe { Z3_model_eval(self.ctx, model, ast, true, &mut result) };
                        let result = self.checked("Z3_model_eval", result)?;
                        if !ok {
                            return Err(SolverError::Z3("Z3_model_eval failed".into()));
                        }
                        let held = Held::new(self.ctx, result);
                        self.read_value(store, model, held.ast, sort)?
                    }
                };
                out.insert(v, value);
            }
            Ok(out)
        };
        let result = read();
        // SAFETY: balances the inc_ref above.
        unsafe { Z3_model_dec_ref(self.ctx, model) };
        self.stats.time += start.elapsed();
        result
    }

    fn set_timeout(&mut self, timeout: Option<Duration>) {
        self.timeout = timeout;
    }

    fn timeout(&self) -> Option<Duration> {
        self.timeout
    }

    fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.watch = None;
        self.watch = deadline.map(|d| Watch::arm(self.ctx, d));
    }

    fn keeps_deadline(&self) -> bool {
        self.watch.is_some()
    }

    fn set_resource_limit(&mut self, limit: Option<u32>) -> bool {
        let limit = limit.filter(|&n| n > 0);
        if limit != self.resource_limit {
            self.resource_limit = limit;
            self.applied = None;
        }
        true
    }

    fn set_conflict_limit(&mut self, limit: Option<u32>) -> bool {
        if limit != self.conflict_limit {
            self.conflict_limit = limit;
            self.applied = None;
        }
        true
    }

    fn stats(&self) -> &SolverStats {
        &self.stats
    }

    /// Z3's `rlimit count`, summed over the contexts the solver has used. A check abandoned
    /// past the hard deadline took its context with it, uncounted (the search is over then).
    fn work(&mut self) -> Option<u64> {
        // A solver set up for a logic has no statistics before its first check.
        let here = rlimit_count(self.ctx, self.solver).unwrap_or(0);
        Some(self.work_elsewhere + here)
    }
}

impl Drop for Z3Solver {
    fn drop(&mut self) {
        // The watchdog must not touch the context once it is deleted.
        self.watch = None;
        self.release_context();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Factoring a product of two 31-bit primes: keeps bit-blasting busy for minutes.
    fn long_factoring() -> (TermStore, [TermId; 5]) {
        let mut s = TermStore::new();
        let x = s.bv_var("x", 64).expect("var");
        let y = s.bv_var("y", 64).expect("var");
        let n = s.bv_val(64, 2_147_483_647 * 2_147_483_629).expect("c");
        let one = s.bv_val(64, 1).expect("c");
        let bound = s.bv_val(64, 1 << 32).expect("c");
        let product = s.bv_mul(x, y).expect("mul");
        let facts = [
            s.eq(product, n).expect("eq"),
            s.bv_ugt(x, one).expect("ugt"),
            s.bv_ugt(y, one).expect("ugt"),
            s.bv_ult(x, bound).expect("ult"),
            s.bv_ult(y, bound).expect("ult"),
        ];
        (s, facts)
    }

    #[test]
    fn work_is_counted_alike_for_the_same_checks_and_kept_across_a_rebuild() {
        let mut s = TermStore::new();
        let x = s.bv_var("x", 32).expect("var");
        let y = s.bv_var("y", 32).expect("var");
        let product = s.bv_mul(x, y).expect("mul");
        let n = s.bv_val(32, 391).expect("c");
        let facts = [s.eq(product, n).expect("eq"), s.bv_ult(x, y).expect("ult")];
        let run = |s: &TermStore| {
            let mut z3 = Z3Solver::new().expect("z3");
            let before = z3.work().expect("Z3 counts its work");
            for &f in &facts {
                z3.assert(s, f).expect("assert");
            }
            assert_eq!(z3.check(s, &[]), Ok(SatResult::Sat));
            let after = z3.work().expect("counted");
            assert!(after > before, "{before} -> {after}");
            // A rebuild moves the stack to a new context; the old one's count is kept.
            z3.stale = true;
            assert_eq!(z3.check(s, &[]), Ok(SatResult::Sat));
            assert_eq!(z3.stats().restarts, 1);
            let rebuilt = z3.work().expect("counted");
            assert!(rebuilt > after, "{after} -> {rebuilt}");
            (after, rebuilt)
        };
        assert_eq!(run(&s), run(&s));
    }

    /// Checks run for one to be abandoned: the watchdog's interrupt and the end of the wait
    /// race (measured: 18 to 20 of 20 checks abandoned, also with both cores busy).
    const ABANDON_TRIES: usize = 5;

    #[test]
    fn a_hard_deadline_interrupts_a_check_without_a_time_limit() {
        let (s, facts) = long_factoring();
        let mut z3 = Z3Solver::new().expect("z3");
        z3.set_timeout(None);
        for &f in &facts {
            z3.assert(&s, f).expect("assert");
        }
        let started = Instant::now();
        z3.set_deadline(Some(started + Duration::from_millis(300)));
        let answer = z3.check(&s, &[]).expect("check");
        assert!(started.elapsed() < Duration::from_secs(5), "{answer:?}");
        assert_eq!(answer, SatResult::Unknown(DEADLINE.into()));
        // Past the deadline the solver takes assertions without work and decides nothing.
        z3.assert(&s, facts[1]).expect("assert");
        assert_eq!(z3.check(&s, &[]), Ok(SatResult::Unknown(DEADLINE.into())));
    }

    #[test]
    fn a_check_past_its_deadline_is_abandoned_and_the_solver_goes_on_expired() {
        let (s, facts) = long_factoring();
        let mut abandoned = 0;
        for _ in 0..ABANDON_TRIES {
            let mut z3 = Z3Solver::new().expect("z3");
            z3.set_timeout(None);
            // No grace: the wait ends at the deadline, as the watchdog interrupts, and
            // whichever comes first decides (the solver's own interrupt covers a late watchdog).
            z3.abandon_grace = Duration::ZERO;
            for &f in &facts {
                z3.assert(&s, f).expect("assert");
            }
            let before = z3.ctx;
            let started = Instant::now();
            z3.set_deadline(Some(started + Duration::from_millis(100)));
            let answer = z3.check(&s, &[]).expect("check");
            assert!(started.elapsed() < Duration::from_secs(5), "{answer:?}");
            assert_eq!(answer, SatResult::Unknown(DEADLINE.into()));
            if z3.ctx != before {
                abandoned += 1;
                // The fresh context takes terms, asserts nothing and decides nothing; the
                // thread deletes the old one.
                z3.push().expect("push");
                z3.assert(&s, facts[1]).expect("assert");
                z3.set_deadline(Some(Instant::now() + Duration::from_secs(60)));
                assert_eq!(z3.check(&s, &[]), Ok(SatResult::Unknown(DEADLINE.into())));
                assert_eq!(z3.model(&s, &[]), Err(SolverError::NoModel));
                z3.pop().expect("pop");
            }
        }
        assert!(abandoned > 0, "no check of {ABANDON_TRIES} was abandoned");
    }

    #[test]
    fn boolean_parameters_reach_the_solver() {
        let mut s = TermStore::new();
        let x = s.bv_var("x", 32).expect("var");
        let ten = s.bv_val(32, 10).expect("c");
        let c = s.bv_ugt(x, ten).expect("ugt");
        let mut z3 = Z3Solver::new().expect("z3");
        z3.set_param("smt.bv.eq_axioms", Z3Param::Bool(false))
            .expect("param");
        z3.set_param("smt.phase_selection", Z3Param::Uint(0))
            .expect("param");
        z3.assert(&s, c).expect("assert");
        assert_eq!(z3.check(&s, &[]), Ok(SatResult::Sat));
        z3.set_param("smt.bv.eq_axioms", Z3Param::Bool(true))
            .expect("param");
        assert_eq!(z3.params.len(), 2, "a name set again replaces its value");
        let nine = s.bv_val(32, 9).expect("c");
        let below = s.bv_ult(x, nine).expect("ult");
        assert_eq!(z3.check(&s, &[below]), Ok(SatResult::Unsat));
    }

    /// Factoring the product of two 16-bit primes: `(x, y, 1 < x, y < 2^16, x * y == product)`.
    /// Far more work than a thousand resource units or a millisecond.
    fn factoring(s: &mut TermStore) -> (TermId, TermId, TermId, TermId) {
        let x = s.bv_var("x", 32).expect("var");
        let y = s.bv_var("y", 32).expect("var");
        let one = s.bv_val(32, 1).expect("c");
        let bound = s.bv_val(32, 1 << 16).expect("c");
        let mut bounds = Vec::new();
        for v in [x, y] {
            bounds.push(s.bv_ugt(v, one).expect("ugt"));
            bounds.push(s.bv_ult(v, bound).expect("ult"));
        }
        let bounds = s.and_all(&bounds).expect("and");
        let product = s.bv_mul(x, y).expect("mul");
        let target = s.bv_val(32, 65_521 * 65_519).expect("c");
        (x, y, bounds, s.eq(product, target).expect("eq"))
    }

    /// Both kinds of solver: the core rejects a parameter of the general-purpose solver, and Z3
    /// then drops every parameter given with it, the limits too.
    const KINDS: [fn() -> Result<Z3Solver, SolverError>; 2] = [Z3Solver::new, Z3Solver::core];

    /// A hard check under the limit `set` to `low` answers `unknown`, and `sat` once lifted.
    fn limited_until_lifted(set: fn(&mut Z3Solver, Option<u32>) -> bool, low: u32) {
        for kind in KINDS {
            let mut s = TermStore::new();
            let (_, _, bounds, factors) = factoring(&mut s);
            let query = s.and(bounds, factors).expect("and");
            let mut z3 = kind().expect("z3");
            assert!(set(&mut z3, Some(low)));
            z3.assert(&s, query).expect("assert");
            assert!(matches!(z3.check(&s, &[]), Ok(SatResult::Unknown(_))));
            assert!(set(&mut z3, None));
            assert_eq!(z3.check(&s, &[]), Ok(SatResult::Sat));
        }
    }

    #[test]
    fn a_conflict_limit_makes_a_hard_check_unknown_until_lifted() {
        limited_until_lifted(Z3Solver::set_conflict_limit, 10);
    }

    #[test]
    fn a_resource_limit_makes_a_hard_check_unknown_until_lifted() {
        limited_until_lifted(Z3Solver::set_resource_limit, 1_000);
    }

    #[test]
    fn after_a_check_cut_short_the_next_runs_on_a_new_solver_with_the_same_stack() {
        for kind in KINDS {
            let mut s = TermStore::new();
            let (x, y, bounds, factors) = factoring(&mut s);
            let ten = s.bv_val(32, 10).expect("c");
            let too_small = s.bv_ult(x, ten).expect("ult");
            let mut z3 = kind().expect("z3");
            z3.assert(&s, bounds).expect("assert");
            z3.set_resource_limit(Some(1_000));
            assert!(matches!(
                z3.check(&s, &[factors]),
                Ok(SatResult::Unknown(_))
            ));
            z3.set_resource_limit(None);
            // Scope changes and assertions while the cut-short solver waits for its
            // replacement: kept, and given to the new solver.
            z3.push().expect("push");
            z3.push().expect("push");
            z3.pop().expect("pop");
            z3.assert(&s, too_small).expect("assert");
            assert_eq!(z3.stats().restarts, 0, "the solver is rebuilt by a check");
            assert_eq!(z3.check(&s, &[factors]), Ok(SatResult::Unsat));
            assert_eq!(z3.stats().restarts, 1);
            z3.pop().expect("pop");
            assert_eq!(z3.check(&s, &[factors]), Ok(SatResult::Sat));
            let m = z3.model(&s, &[x, y]).expect("model");
            let value = |v| m.get(v).and_then(Value::as_bv).expect("bv").bits();
            assert_eq!(value(x) * value(y), 65_521 * 65_519);
            assert_eq!(
                z3.stats().restarts,
                1,
                "only a check cut short costs a rebuild"
            );
        }
    }

    /// A context cancelled for good (`Z3_interrupt` outside a check) fails the next push, as a
    /// stray timer of Z3 4.8.12 was seen to for a moment (module doc).
    #[test]
    fn a_failed_push_makes_the_next_check_rebuild_the_solver_in_a_new_context() {
        for kind in [Kind::BitVectors, Kind::General, Kind::Core] {
            let mut s = TermStore::new();
            let x = s.bv_var("x", 32).expect("var");
            let (five, ten) = (s.bv_val(32, 5).expect("c"), s.bv_val(32, 10).expect("c"));
            let above = s.bv_ugt(x, ten).expect("ugt");
            let below = s.bv_ult(x, five).expect("ult");
            let mut z3 = Z3Solver::create(kind).expect("z3");
            z3.assert(&s, above).expect("assert");
            let cancelled = z3.ctx;
            // SAFETY: our own live context, not in a call.
            unsafe { Z3_interrupt(cancelled) };
            z3.push().expect("push");
            assert!(z3.stale, "the push failed and left Z3's stack out of step");
            z3.assert(&s, below).expect("assert");
            assert_eq!(z3.check(&s, &[]), Ok(SatResult::Unsat));
            assert_ne!(z3.ctx, cancelled, "rebuilt in a new context");
            z3.pop().expect("pop");
            assert_eq!(z3.check(&s, &[]), Ok(SatResult::Sat));
            assert_eq!(z3.stats().restarts, 1);
        }
    }

    #[test]
    fn a_check_with_many_products_of_inputs_goes_to_the_one_shot_solver_at_once() {
        let mut s = TermStore::new();
        let x = s.bv_var("x", 32).expect("var");
        let y = s.bv_var("y", 32).expect("var");
        let zero = s.bv_val(32, 0).expect("c");
        let x_is_zero = s.eq(x, zero).expect("eq");
        // p = (…((x·y + x)·y + x)…) = 0 with x = 0: one product of two inputs per step, and
        // easy once x = 0 is propagated (Z3's incremental core took over 60 s on 64 steps
        // without that equation).
        let chain = |s: &mut TermStore, steps: usize| {
            let mut p = x;
            for _ in 0..steps {
                let product = s.bv_mul(p, y).expect("mul");
                p = s.bv_add(product, x).expect("add");
            }
            let p_is_zero = s.eq(p, zero).expect("eq");
            s.and_all(&[x_is_zero, p_is_zero]).expect("and")
        };
        let light = chain(&mut s, 8);
        let heavy = chain(&mut s, HEAVY_NONLINEAR + 1);
        let mut z3 = Z3Solver::new().expect("z3");
        // A handover far away: only the heavy-query rule sends a check there.
        z3.set_one_shot_after(Some(Duration::from_secs(60)));
        z3.set_timeout(Some(Duration::from_secs(120)));
        assert_eq!(z3.check(&s, &[light]), Ok(SatResult::Sat));
        assert_eq!(z3.stats().one_shot, 0);
        z3.push().expect("push");
        z3.assert(&s, heavy).expect("assert");
        assert_eq!(z3.check(&s, &[]), Ok(SatResult::Sat));
        assert_eq!(z3.stats().one_shot, 1, "the asserted products count too");
        z3.pop().expect("pop");
        assert_eq!(z3.check(&s, &[light]), Ok(SatResult::Sat));
        assert_eq!(z3.stats().one_shot, 1, "popped assertions no longer count");
    }

    #[test]
    fn the_handover_is_decided_by_counted_work_alike_on_every_run() {
        let mut s = TermStore::new();
        let (_, _, bounds, factors) = factoring(&mut s);
        let x = s.bv_var("x", 32).expect("var");
        let ten = s.bv_val(32, 10).expect("c");
        let easy = s.bv_ult(x, ten).expect("ult");
        let run = |s: &TermStore| {
            let mut z3 = Z3Solver::new().expect("z3");
            // 5 ms' worth of work: 20,000 units, which the easy check stays within and
            // factoring does not, however long either takes on this machine.
            z3.set_one_shot_after(Some(Duration::from_millis(5)));
            assert_eq!(z3.check(s, &[easy]), Ok(SatResult::Sat));
            let after_easy = z3.stats().one_shot;
            z3.assert(s, bounds).expect("assert");
            assert_eq!(z3.check(s, &[factors]), Ok(SatResult::Sat));
            (after_easy, z3.stats().one_shot)
        };
        assert_eq!(run(&s), (0, 1));
        assert_eq!(run(&s), (0, 1));
    }

    #[test]
    fn a_check_handed_to_the_one_shot_solver_keeps_the_stack_and_gives_a_model() {
        let mut s = TermStore::new();
        let (x, y, bounds, factors) = factoring(&mut s);
        let bound = s.bv_val(32, 1 << 16).expect("c");
        let mut z3 = Z3Solver::new().expect("z3");
        z3.set_one_shot_after(Some(Duration::from_millis(1)));
        z3.push().expect("push");
        z3.assert(&s, bounds).expect("assert");
        assert_eq!(z3.check(&s, &[factors]), Ok(SatResult::Sat));
        assert_eq!(
            z3.stats().one_shot,
            1,
            "the check went to the one-shot solver"
        );
        let m = z3.model(&s, &[x, y]).expect("model");
        let value = |v| m.get(v).and_then(Value::as_bv).expect("bv").bits();
        assert_eq!(value(x) * value(y), 65_521 * 65_519);
        // The assumption's scope is gone: the stack holds the bounds only.
        assert_eq!(z3.level(), 1);
        let small = s.bv_ult(x, bound).expect("ult");
        assert_eq!(z3.check(&s, &[small]), Ok(SatResult::Sat));
        let ten = s.bv_val(32, 10).expect("c");
        let too_small = s.bv_ult(x, ten).expect("ult");
        let both = s.and_all(&[factors, too_small]).expect("and");
        assert_eq!(z3.check(&s, &[both]), Ok(SatResult::Unsat));
        z3.pop().expect("pop");
        assert_eq!(z3.level(), 0);
        assert_eq!(z3.check(&s, &[too_small]), Ok(SatResult::Sat));
    }

    #[test]
    fn solves_and_reads_a_model() {
        let mut s = TermStore::new();
        let x = s.bv_var("x", 32).expect("var");
        let ten = s.bv_val(32, 10).expect("c");
        let c = s.bv_ugt(x, ten).expect("ugt");
        let mut z3 = Z3Solver::new().expect("z3");
        z3.assert(&s, c).expect("assert");
        assert_eq!(z3.check(&s, &[]), Ok(SatResult::Sat));
        let m = z3.model(&s, &[x]).expect("model");
        let v = m.get(x).and_then(Value::as_bv).expect("bv");
        assert!(v.bits() > 10);
        assert!(z3.name().contains("4."), "{}", z3.name());
    }

    #[test]
    fn any_boolean_term_is_an_assumption() {
        let mut s = TermStore::without_simplification();
        let x = s.bv_var("x", 8).expect("var");
        let y = s.bv_var("y", 8).expect("var");
        let p = s.bool_var("p").expect("var");
        let t = s.bool_val(true).expect("c");
        let f = s.bool_val(false).expect("c");
        let lt = s.bv_ult(x, y).expect("c");
        let both = s.and(p, lt).expect("c");
        let choice = s.ite(p, lt, t).expect("c");
        let eq = s.eq(x, y).expect("c");
        let np = s.not(p).expect("c");
        let mut z3 = Z3Solver::new().expect("z3");
        assert_eq!(z3.check(&s, &[t, both, choice]), Ok(SatResult::Sat));
        assert_eq!(z3.check(&s, &[eq, lt]), Ok(SatResult::Unsat));
        assert_eq!(z3.check(&s, &[f]), Ok(SatResult::Unsat));
        assert_eq!(z3.check(&s, &[np, both]), Ok(SatResult::Unsat));
        assert_eq!(z3.check(&s, &[]), Ok(SatResult::Sat));
    }

    #[test]
    fn reads_as_array_models() {
        let mut s = TermStore::new();
        let arr = s
            .array_sort(Sort::BitVec(8), Sort::BitVec(8))
            .expect("sort");
        let a = s.var("a", arr).expect("var");
        let i = s.bv_val(8, 3).expect("c");
        let v = s.bv_val(8, 9).expect("c");
        let r = s.select(a, i).expect("select");
        let c = s.eq(r, v).expect("eq");
        let mut z3 = Z3Solver::new().expect("z3");
        z3.assert(&s, c).expect("assert");
        assert_eq!(z3.check(&s, &[]), Ok(SatResult::Sat));
        let m = z3.model(&s, &[a]).expect("model");
        let av = m.get(a).and_then(Value::as_array).expect("array");
        assert_eq!(
            av.get(&Value::Bv(BvConst::new(8, 3).expect("c"))),
            &Value::Bv(BvConst::new(8, 9).expect("c"))
        );
    }

    /// A solver set up for bit-vectors that meets an array (in an assertion under a scope, or
    /// only in a check's assumption) goes on as a general-purpose one holding the same stack,
    /// and decides what needs the theory of arrays, `const` arrays included.
    #[test]
    fn an_array_term_moves_a_bit_vector_solver_to_the_general_one_with_its_stack() {
        let mut s = TermStore::new();
        let memory = s
            .array_sort(Sort::BitVec(32), Sort::BitVec(8))
            .expect("sort");
        let (i, j) = (
            s.bv_var("i", 32).expect("var"),
            s.bv_var("j", 32).expect("var"),
        );
        let zero = s.bv_val(8, 0).expect("c");
        let five = s.bv_val(8, 5).expect("c");
        let zeros = s.const_array(memory, zero).expect("const");
        let written = s.store(zeros, i, five).expect("store");
        let read = s.select(written, j).expect("select");
        let read_five = s.eq(read, five).expect("eq");
        let same = s.eq(i, j).expect("eq");
        let apart = s.not(same).expect("not");
        for array_in_assumption in [false, true] {
            let mut z3 = Z3Solver::new().expect("z3");
            z3.assert(&s, apart).expect("assert");
            assert_eq!(z3.check(&s, &[]), Ok(SatResult::Sat));
            z3.push().expect("push");
            let answer = if array_in_assumption {
                z3.check(&s, &[read_five])
            } else {
                z3.assert(&s, read_five).expect("assert");
                z3.check(&s, &[])
            };
            assert_eq!(
                answer,
                Ok(SatResult::Unsat),
                "a write at i is read at j != i"
            );
            assert_eq!(z3.kind, Kind::General);
            z3.pop().expect("pop");
            assert_eq!(z3.check(&s, &[same]), Ok(SatResult::Unsat), "i != j kept");
            assert_eq!(z3.check(&s, &[]), Ok(SatResult::Sat));
            assert_eq!(z3.stats().restarts, 0, "a change of setup is no restart");
        }
    }
}
