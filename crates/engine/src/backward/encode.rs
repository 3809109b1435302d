//! Shared by both search families: operation operands as terms, input symbols, and what a
//! search hands back (an entry model or why there is none).
//!
//! How a program variable becomes a term is the family's business (a fixed symbol substituted
//! away, or the current version); it is passed in as a closure. Nothing here searches.

use std::time::Duration;

use symex_report::Cut;
use symex_smt::{ArrayValue, TermId, TermStore};

use crate::backward::ops::{Atom, Cond, Expr, FieldSlot, VarId};
use crate::common::terms::{binary, int_const, truth, unary, WIDTH};
use crate::error::EngineError;

/// How a search resolves a variable to its current term.
pub type VarTerm<'a> = dyn FnMut(&mut TermStore, VarId) -> Result<TermId, EngineError> + 'a;

pub fn atom(store: &mut TermStore, a: Atom, var: &mut VarTerm<'_>) -> Result<TermId, EngineError> {
    match a {
        Atom::Const(n) => Ok(int_const(store, n)?),
        Atom::Var(v) => var(store, v),
    }
}

pub fn expr(store: &mut TermStore, e: Expr, var: &mut VarTerm<'_>) -> Result<TermId, EngineError> {
    match e {
        Expr::Use(a) => atom(store, a, var),
        Expr::Unary(op, a) => {
            let a = atom(store, a, var)?;
            Ok(unary(store, op, a)?)
        }
        Expr::Binary(op, a, b) => {
            let a = atom(store, a, var)?;
            let b = atom(store, b, var)?;
            Ok(binary(store, op, a, b)?)
        }
    }
}

pub fn cond(store: &mut TermStore, c: Cond, var: &mut VarTerm<'_>) -> Result<TermId, EngineError> {
    match c {
        Cond::True => Ok(store.bool_val(true)?),
        Cond::NonZero(e) => {
            let t = expr(store, e, var)?;
            Ok(truth(store, t)?)
        }
        Cond::Zero(e) => {
            let t = expr(store, e, var)?;
            let nonzero = truth(store, t)?;
            Ok(store.not(nonzero)?)
        }
    }
}

/// The symbols of `input` reads, one per reading node.
#[derive(Default)]
pub struct InputSymbols {
    symbols: Vec<Option<TermId>>,
}

impl InputSymbols {
    pub fn get(&mut self, store: &mut TermStore, symbol: u32) -> Result<TermId, EngineError> {
        let i = symbol as usize;
        if self.symbols.len() <= i {
            self.symbols.resize(i + 1, None);
        }
        if let Some(t) = self.symbols[i] {
            return Ok(t);
        }
        let t = store.bv_var(format!("input#{symbol}"), WIDTH)?;
        self.symbols[i] = Some(t);
        Ok(t)
    }

    /// `(symbol, term)` of every input symbol made.
    pub fn made(&self) -> impl Iterator<Item = (u32, TermId)> + '_ {
        self.symbols
            .iter()
            .enumerate()
            .filter_map(|(i, t)| t.map(|t| (i as u32, t)))
    }
}

/// The values a satisfying model gives to what exists before the entry.
#[derive(Clone, Debug, Default)]
pub struct EntryModel {
    /// Per entry parameter, in order (0 for one the target does not depend on).
    pub args: Vec<i32>,
    /// Per input symbol (0 when unconstrained).
    pub inputs: Vec<i32>,
    /// The input heap: each field's `f_in` array.
    pub fields: Vec<(FieldSlot, ArrayValue)>,
}

/// How one backward search ended.
#[derive(Clone, Debug)]
pub enum SearchOutcome {
    /// No input reaches the target within the graph.
    Unreachable,
    /// Some input does; the model's values.
    Reached(EntryModel),
    /// The solver could not tell.
    Unknown(String),
    /// The check's time or memory limit ran out before the search ended.
    Stopped(Cut),
    /// The part of the graph that leads to the target has an operation the engine does not model.
    Unsupported(String),
}

/// Counters of one search, for the report's statistics.
#[derive(Clone, Copy, Debug, Default)]
pub struct SearchStats {
    /// Nodes whose state was computed.
    pub nodes: u64,
    /// Solver checks.
    pub solver_calls: u64,
    /// Wall-clock time spent in those checks.
    pub solver_time: Duration,
}
