//! Dumping queries as standalone SMT-LIB2 files (`--dump-smt DIR`).
//!
//! Each file holds one satisfiability query: `set-logic`, the declarations of the variables it
//! uses, one `assert` per constraint, `check-sat`. Any SMT-LIB2 solver (z3, cvc5, ...) can
//! replay it. Files are numbered in the order written (`query-000001.smt2`, ...). This module
//! writes files; it does not solve ([`DumpingSolver`] passes every check on to the solver it
//! wraps).

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::error::SolverError;
use crate::printer;
use crate::solver::{AssertionStack, Model, SatResult, Solver, SolverStats};
use crate::term::{TermId, TermStore};

/// The text of a standalone query: is the conjunction of `constraints` satisfiable?
pub fn query_script(store: &TermStore, constraints: &[TermId]) -> String {
    format!(
        "; symex query: {} constraint(s)\n{}",
        constraints.len(),
        printer::script(store, constraints)
    )
}

/// Writes [`query_script`] to `path`.
pub fn write_query(
    store: &TermStore,
    constraints: &[TermId],
    path: &Path,
) -> Result<(), SolverError> {
    for &c in constraints {
        store.check_term(c)?;
    }
    fs::write(path, query_script(store, constraints))
        .map_err(|e| SolverError::Dump(format!("{}: {e}", path.display())))
}

/// Writes numbered query files into one directory.
#[derive(Debug)]
pub struct Dumper {
    dir: PathBuf,
    written: u64,
}

impl Dumper {
    /// A dumper into `dir` (created if missing).
    pub fn new(dir: impl Into<PathBuf>) -> Result<Self, SolverError> {
        let dir = dir.into();
        fs::create_dir_all(&dir)
            .map_err(|e| SolverError::Dump(format!("{}: {e}", dir.display())))?;
        Ok(Dumper { dir, written: 0 })
    }

    /// Writes the next query file and returns its path.
    pub fn dump(
        &mut self,
        store: &TermStore,
        constraints: &[TermId],
    ) -> Result<PathBuf, SolverError> {
        let path = self.dir.join(format!("query-{:06}.smt2", self.written + 1));
        write_query(store, constraints, &path)?;
        self.written += 1;
        Ok(path)
    }

    /// The number of files written.
    pub fn written(&self) -> u64 {
        self.written
    }

    /// The directory written into.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

/// A [`Dumper`] shared by the solvers of one run, so that their files are numbered in one
/// sequence.
pub type SharedDumper = std::sync::Arc<std::sync::Mutex<Dumper>>;

/// A solver that writes every check it is asked, the assertions of all open scopes and the
/// check's assumptions, as a standalone query file before passing the check on: `--dump-smt`
/// for engines that drive a solver's assertion stack themselves instead of asking queries.
pub struct DumpingSolver<S> {
    inner: S,
    dumper: SharedDumper,
    assertions: AssertionStack,
}

impl<S: Solver> DumpingSolver<S> {
    pub fn new(inner: S, dumper: SharedDumper) -> Self {
        DumpingSolver {
            inner,
            dumper,
            assertions: AssertionStack::default(),
        }
    }
}

impl<S: Solver> Solver for DumpingSolver<S> {
    fn name(&self) -> String {
        self.inner.name()
    }

    fn push(&mut self) -> Result<(), SolverError> {
        self.inner.push()?;
        self.assertions.push();
        Ok(())
    }

    fn pop(&mut self) -> Result<(), SolverError> {
        self.inner.pop()?;
        self.assertions.pop();
        Ok(())
    }

    fn level(&self) -> usize {
        self.inner.level()
    }

    fn assert(&mut self, store: &TermStore, term: TermId) -> Result<(), SolverError> {
        self.inner.assert(store, term)?;
        self.assertions.assert(term);
        Ok(())
    }

    fn check(
        &mut self,
        store: &TermStore,
        assumptions: &[TermId],
    ) -> Result<SatResult, SolverError> {
        let query: Vec<TermId> = self
            .assertions
            .all()
            .chain(assumptions.iter().copied())
            .collect();
        self.dumper
            .lock()
            .map_err(|_| SolverError::Dump("another thread failed while writing a query".into()))?
            .dump(store, &query)?;
        self.inner.check(store, assumptions)
    }

    fn model(&mut self, store: &TermStore, vars: &[TermId]) -> Result<Model, SolverError> {
        self.inner.model(store, vars)
    }

    fn set_timeout(&mut self, timeout: Option<Duration>) {
        self.inner.set_timeout(timeout);
    }

    fn timeout(&self) -> Option<Duration> {
        self.inner.timeout()
    }

    fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.inner.set_deadline(deadline)
    }

    fn keeps_deadline(&self) -> bool {
        self.inner.keeps_deadline()
    }

    fn stats(&self) -> &SolverStats {
        self.inner.stats()
    }

    fn work(&mut self) -> Option<u64> {
        self.inner.work()
    }

    fn set_resource_limit(&mut self, limit: Option<u32>) -> bool {
        self.inner.set_resource_limit(limit)
    }

    fn set_conflict_limit(&mut self, limit: Option<u32>) -> bool {
        self.inner.set_conflict_limit(limit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbered_files_hold_whole_queries() {
        let dir = std::env::temp_dir().join(format!("symex-smt-dump-unit-{}", std::process::id()));
        let mut d = Dumper::new(&dir).expect("dir");
        let mut s = TermStore::new();
        let x = s.bv_var("x", 8).expect("var");
        let one = s.bv_val(8, 1).expect("c");
        let c = s.bv_ugt(x, one).expect("c");
        let p = d.dump(&s, &[c]).expect("dump");
        assert!(p.ends_with("query-000001.smt2"));
        let text = fs::read_to_string(&p).expect("read");
        assert!(text.contains("(declare-fun |x!0| () (_ BitVec 8))"));
        assert!(text.contains("(check-sat)"));
        assert_eq!(d.written(), 1);
        let _ = fs::remove_dir_all(&dir);
    }
}
