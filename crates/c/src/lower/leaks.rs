//! The `memory-leak` check (`Options::memory_leaks`, SV-COMP's `valid-memtrack`): a count of
//! live heap objects, a local of `main` (`#live`, hidden from traces like every `#` name) that
//! `malloc` and `calloc` raise and a valid `free` lowers, checked to be 0 where `main` returns.
//!
//! Used where nothing calls `main` (`lower_unit` checks, and inlines into `main` every call of
//! a function that may allocate, `free` or `exit`, [`counting_functions`], so that one count
//! sees them all; other calls stay calls, recursive ones too). Where such a function is
//! recursive it cannot be inlined: there every object gets a heap state, nothing is counted,
//! and the checks count the live objects by their states (`Rvalue::LiveObjects`), also where
//! a recursion calls `exit`. When `main` returns, with its
//! locals gone, an object still allocated is one nothing points to, unless a global can hold
//! a pointer: then the objects that certainly no chain of pointers from the globals reaches
//! are a leak (`Rvalue::Unreached`, by their heap states, which such files get; `main`'s
//! variables ended first), and objects left beyond them an `unmodelled` check. A path that
//! ends in `exit` or `abort` keeps `main`'s locals alive, and whether its objects are still
//! reachable there is not decided: with objects allocated, it fails an `unmodelled` check (its
//! verdicts become `unknown`) rather than claim a leak or its absence. A path that never ends
//! is never checked, so a search that cuts such paths (path subsumption, loop summaries)
//! cannot show that there is no leak: `symex svcomp` takes `TRUE` for `valid-memtrack` only
//! from a search that follows every path to its end.
//!
//! Nothing here follows pointers: `symex_ir::unreached` does, in the interpreter and engine.

use std::collections::HashSet;

use symex_ir::cfg::{
    BinOp, Check, InstKind, LocalId, LocalInfo, LocalKind, Operand, Place, PropertyKind, Rvalue,
    Width,
};
use symex_syntax::span::Span;

use super::allocation::{ALLOCATING_FUNCTIONS, DUPLICATING_FUNCTIONS};
use super::expr::{ERROR_FUNCTIONS, EXIT_FUNCTIONS};
use super::func::FnCx;

/// The defined functions whose calls may change or check the count: those that call an
/// allocation function (`strdup` among them), `free`, `realloc`, an exit or error function
/// (`assert` among them: a failing one calls `__assert_fail`), or such a function, in the
/// file's call graph (`lower/mod.rs`, [`super::call_graph`]).
pub(super) fn counting_functions(graph: &[(&String, HashSet<String>)]) -> HashSet<String> {
    let library = [
        ALLOCATING_FUNCTIONS,
        DUPLICATING_FUNCTIONS,
        &["free", "assert"],
        EXIT_FUNCTIONS,
        ERROR_FUNCTIONS,
    ];
    let counting: HashSet<String> = library
        .iter()
        .flat_map(|names| names.iter().map(|name| name.to_string()))
        .collect();
    let mut reached = super::reaching(graph, counting);
    // Only the file's own functions are inlined.
    reached.retain(|name| graph.iter().any(|(defined, _)| *defined == name));
    reached
}

/// The name of the count (a `#` name: bookkeeping, not shown in traces).
const LIVE_OBJECTS: &str = "#live";

impl FnCx<'_, '_> {
    /// In `main`'s prologue: the count of live objects, 0, where leaks are checked.
    pub fn start_counting_objects(&mut self, span: Span) {
        if !self.unit.track_leaks || self.unit.live_by_state {
            return;
        }
        let live = self.b.add_local(LocalInfo {
            name: LIVE_OBJECTS.to_string(),
            kind: LocalKind::Assigned,
            span,
            address_taken: false,
            width: Width::W32,
            unsigned: false,
            layout: Default::default(),
        });
        let value = Rvalue::Use(Operand::Const(0));
        self.b.emit(InstKind::Assign { dst: live, value }, span);
        self.live_objects = Some(live);
    }

    /// One more (`delta` 1) or one fewer (`delta` -1) live object, if they are counted here.
    pub fn count_objects(&mut self, delta: i32, span: Span) {
        if let Some(live) = self.live_objects {
            let value = Rvalue::Binary(BinOp::Add, Operand::Local(live), Operand::Const(delta));
            self.b.emit(InstKind::Assign { dst: live, value }, span);
        }
    }

    /// Where `main` returns (not an inlined call's `return`): the `memory-leak` check that no
    /// object is lost. Where a global may hold a pointer, an object still allocated is lost
    /// only if no global reaches it: `main`'s variables end, and the objects that certainly no
    /// chain of pointers from the globals reaches (`Rvalue::Unreached`) are a leak; objects
    /// still allocated beyond them stop the run at an `unmodelled` check (reached is no proof
    /// of reachable in C: a pointer in an overwritten union member, in a variable whose block
    /// ended).
    pub fn check_no_leak(&mut self, span: Span) {
        if !self.is_main {
            return;
        }
        if !self.unit.globals_hold_pointers {
            return self.check_none_live(PropertyKind::MemoryLeak, span);
        }
        if self.live_objects.is_none() && !self.unit.live_by_state {
            return;
        }
        self.end_variables(span);
        let mut globals: Vec<LocalId> = self.globals_scope.values().map(|&(g, _)| g).collect();
        globals.sort();
        globals.dedup();
        for &global in &globals {
            self.check(Check::Init(Place::local(global)), span);
        }
        let roots = globals.into_iter().map(Operand::Local).collect();
        let lost = Operand::Local(self.b.assign_temp(Rvalue::Unreached(roots), span));
        let none = Rvalue::Binary(BinOp::Eq, lost, Operand::Const(0));
        let holds = Operand::Local(self.b.assign_temp(none, span));
        let kind = PropertyKind::MemoryLeak;
        self.check(Check::Condition { holds, kind }, span);
        let cause = "heap objects still allocated where `main` returns, which a global may \
                     still point to";
        self.unmodelled_cause(span, cause);
        self.check_none_live(PropertyKind::Unmodelled, span);
    }

    /// Where the run ends in `exit` or `abort`: objects still allocated may be reachable from
    /// `main`'s locals, which symex does not decide (`unmodelled`).
    pub fn check_none_live_at_exit(&mut self, span: Span) {
        let cause = "heap objects still allocated at `exit` or `abort`, which may still be \
                     reachable";
        self.unmodelled_cause(span, cause);
        self.check_none_live(PropertyKind::Unmodelled, span);
    }

    fn check_none_live(&mut self, kind: PropertyKind, span: Span) {
        let live = if self.unit.live_by_state {
            self.b.assign_temp(Rvalue::LiveObjects, span)
        } else {
            // Counted only in `main` (calls that allocate are inlined into it).
            let Some(live) = self.live_objects else {
                return;
            };
            live
        };
        let none = Rvalue::Binary(BinOp::Eq, Operand::Local(live), Operand::Const(0));
        let holds = Operand::Local(self.b.assign_temp(none, span));
        self.check(Check::Condition { holds, kind }, span);
    }
}
