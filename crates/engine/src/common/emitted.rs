//! The tests an engine emits, one per explored path (`symex check --emit-tests DIR`): a list
//! shared with the caller, which writes the files once the check ends. Emitting never makes a
//! verdict wrong (a path whose inputs the solver cannot give is left without a test), but the
//! solver time it costs counts against the check's time limit.

use std::sync::{Mutex, PoisonError};

use symex_report::PathTest;

use crate::common::shared::Shared;

pub type TestSink = Shared<Mutex<Vec<PathTest>>>;

impl TestSink {
    pub fn emit(&self, test: PathTest) {
        if let Some(tests) = self.get() {
            tests
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(test);
        }
    }
}
