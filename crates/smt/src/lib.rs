//! `symex-smt`: the solver layer of symex.
//!
//! * [`TermStore`]: one hash-consed term graph (Bool, bit-vectors of 1 to [`MAX_BV_WIDTH`] =
//!   128 bits, mathematical integers with `i128` constants, arrays) with sort-checked,
//!   simplifying constructors (`bv_add`, `select`, `ite`, ...; [`TermStore::without_simplification`]
//!   for plain ones); every constructor returns a [`TermResult`], never panics on bad input;
//! * [`eval()`]: the reference evaluator over an [`Assignment`]; [`Value`]: concrete values;
//! * [`printer`]: SMT-LIB2 text; [`dump`]: standalone query files ([`Dumper`]);
//! * [`Solver`]: push/pop, assert, check under assumptions, models, time limits, statistics;
//!   back ends [`Z3Solver`] (Z3's C API, in process, the system `libz3`) and [`ProcessSolver`]
//!   (any SMT-LIB2 solver over pipes: [`ProcessConfig::z3`], [`ProcessConfig::cvc5`],
//!   [`ProcessConfig::yices`], or any command with a [`Dialect`]);
//! * [`IntEncodingSolver`]: bit-vector queries decided exactly as integer arithmetic where they
//!   are linear, falling back to bit-vectors where not;
//! * [`QueryEngine`]: what engines call (`is_satisfiable`, `must_be_true`, `may_be_true`,
//!   `get_model`), with a fast path, constraint independence and a query cache
//!   ([`QueryOptions`], [`QueryStats`]); [`PathCondition`]: the persistent path condition
//!   engines keep, whose models the query layer keeps per path.
//!
//! Solver answers are [`SatResult`]s: `unknown`, time-outs and solver crashes are
//! `SatResult::Unknown(reason)`. Errors ([`SolverError`], [`TermError`], [`EvalError`]) are
//! for misuse and for solvers that cannot be started. This crate knows nothing about
//! programs: engines translate their states into terms.

mod build;
pub mod bv;
mod child;
pub mod dump;
mod error;
mod eval;
mod generations;
mod implied;
mod independence;
mod int_encoding;
mod model_reuse;
mod path;
mod path_groups;
mod path_models;
pub mod printer;
mod process;
mod query;
mod range;
mod response;
mod sexp;
mod simplify;
mod solver;
mod sort;
mod term;
mod unsat_subsets;
mod value;
mod z3_backend;
mod z3_ffi;
mod z3_thread;
mod z3_watchdog;

pub use build::TermResult;
pub use bv::{BvConst, MAX_BV_WIDTH};
pub use dump::{Dumper, DumpingSolver, SharedDumper};
pub use error::{EvalError, SolverError, TermError};
pub use eval::{eval, eval_all, eval_all_lazy, eval_subterms, Assignment};
pub use independence::connected;
pub use int_encoding::{IntEncodingSolver, SolverFactory};
pub use path::PathCondition;
pub use process::{Dialect, ProcessConfig, ProcessSolver};
pub use query::{Answer, Constraints, ModelResult, QueryEngine, QueryOptions, QueryStats};
pub use range::SignedRange;
pub use solver::{
    work_of, Model, SatResult, Solver, SolverStats, DEFAULT_TIMEOUT, WORK_PER_SECOND,
};
pub use sort::{ArraySortId, Sort, SortTable};
pub use term::{Args, Node, Op, StoreId, TermId, TermStore, VarId, VarInfo};
pub use value::{ArrayValue, Value};
pub use z3_backend::{Z3Param, Z3Solver};
