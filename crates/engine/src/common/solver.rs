//! Builds the query layer over the chosen solver back end.
//!
//! The engine talks only to a [`QueryEngine`] over a boxed [`Solver`], so every back end is
//! interchangeable. Nothing here asks a query.

use std::time::Duration;

use symex_smt::{
    Dialect, ProcessConfig, ProcessSolver, QueryEngine, QueryOptions, Solver, SolverError, Z3Param,
    Z3Solver,
};

use crate::common::options::SolverChoice;
use crate::error::EngineError;

/// The query engine every engine uses.
pub type Queries = QueryEngine<Box<dyn Solver>>;

/// A fresh solver of the chosen kind behind a query layer with `options`.
///
/// Z3 hands a query that its incremental core has not decided within [`ONE_SHOT_AFTER`] to its
/// one-shot solver: the query engine's questions are independent of each other, and the hard
/// ones (loop summaries' chained phases) are decided several times faster from scratch.
pub fn query_engine(choice: &SolverChoice, options: &QueryOptions) -> Result<Queries, EngineError> {
    let solver = solver_with_handover(choice, ONE_SHOT_AFTER)?;
    Ok(QueryEngine::new(solver, options.clone())?)
}

/// A fresh solver of the chosen kind; an in-process Z3 hands a check its incremental core has
/// not decided within `after` to its one-shot solver.
pub fn solver_with_handover(
    choice: &SolverChoice,
    after: Duration,
) -> Result<Box<dyn Solver>, SolverError> {
    Ok(match choice {
        SolverChoice::Z3 => {
            let mut z3 = Z3Solver::new()?;
            z3.set_one_shot_after(Some(after));
            Box::new(z3)
        }
        _ => solver_backend(choice)?,
    })
}

/// How long Z3's incremental core may try a query before its one-shot solver takes over, as
/// work at the nominal rate (`symex_smt::WORK_PER_SECOND`: 2 million of Z3's `rlimit`), so
/// that the same query is handed over on every run. Almost every query is decided well
/// within it.
pub const ONE_SHOT_AFTER: Duration = Duration::from_millis(500);

/// A fresh solver of the chosen kind with no query layer, for engines that drive the assertion
/// stack themselves (the backward engine's incremental conjunct combination).
pub fn solver_backend(choice: &SolverChoice) -> Result<Box<dyn Solver>, SolverError> {
    solver_backend_tuned(choice, None, &[])
}

/// [`solver_backend`] for queries of one SMT-LIB logic, with parameters for Z3: only ones that
/// change how Z3 searches, never what it answers on the queries the solver is for. With a
/// logic, an in-process Z3 is its bare SMT core ([`Z3Solver::core`]) set up by the parameters,
/// and a Z3 process is told the logic (`set-logic`, so that it configures itself for it); other
/// processes keep their dialect's logic, and no process gets the parameters.
pub fn solver_backend_tuned(
    choice: &SolverChoice,
    z3_logic: Option<&str>,
    z3_params: &[(&str, Z3Param)],
) -> Result<Box<dyn Solver>, SolverError> {
    Ok(match choice {
        SolverChoice::Z3 => {
            let mut z3 = match z3_logic {
                Some(_) => Z3Solver::core()?,
                None => Z3Solver::new()?,
            };
            for &(name, value) in z3_params {
                z3.set_param(name, value)?;
            }
            Box::new(z3)
        }
        SolverChoice::Process { command, dialect } => {
            let mut words = command.split_whitespace();
            let program = words.next().ok_or_else(|| SolverError::Spawn {
                program: command.clone(),
                message: "the solver command line is empty".to_string(),
            })?;
            let args: Vec<&str> = words.collect();
            let mut config = ProcessConfig::new(program, &args, *dialect);
            if let (Dialect::Z3, Some(logic)) = (dialect, z3_logic) {
                config.logic = Some(logic.to_string());
            }
            Box::new(ProcessSolver::new(config)?)
        }
    })
}
