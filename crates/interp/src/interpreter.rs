//! The public entry point: an [`Interpreter`] validates a module once and then runs it any
//! number of times, each run independent (fresh memory, fresh input position).

use symex_ir::cfg::{FuncId, Module};
use symex_syntax::span::Span;

use crate::config::RunConfig;
use crate::entry::{Entry, EntryError};
use crate::exec::{Inputs, Machine};
use crate::outcome::RunOutcome;
use crate::prepare::{prepare, FunctionInfo, ModuleError};

pub struct Interpreter<'m> {
    module: &'m Module,
    infos: Vec<FunctionInfo>,
}

impl<'m> Interpreter<'m> {
    /// Checks that every id in `module` is in range; fails only on a malformed module (a
    /// lowering bug), never because the program is ill-typed.
    pub fn new(module: &'m Module) -> Result<Interpreter<'m>, ModuleError> {
        Ok(Interpreter {
            module,
            infos: prepare(module)?,
        })
    }

    pub fn module(&self) -> &'m Module {
        self.module
    }

    pub fn function(&self, name: &str) -> Option<FuncId> {
        self.module
            .functions
            .iter()
            .position(|f| f.name == name)
            .map(|i| FuncId(i as u32))
    }

    /// Runs `main()` on `input`, collecting the outputs.
    pub fn run_main(&self, input: &[i32], config: &RunConfig) -> Result<RunOutcome, EntryError> {
        self.run(&Entry::main(self.module)?, input, config)
    }

    /// Runs `entry` on `input`, collecting the outputs.
    pub fn run(
        &self,
        entry: &Entry,
        input: &[i32],
        config: &RunConfig,
    ) -> Result<RunOutcome, EntryError> {
        self.run_with_sink(entry, input, config, &mut |_| {})
    }

    /// Runs `entry` on `input`, also handing every output to `sink` as it happens (so that a
    /// command line prints as it goes).
    pub fn run_with_sink(
        &self,
        entry: &Entry,
        input: &[i32],
        config: &RunConfig,
        sink: &mut dyn FnMut(i32),
    ) -> Result<RunOutcome, EntryError> {
        entry.check(self.module)?;
        let input = Inputs::Numbers(input);
        let machine = Machine::new(self.module, &self.infos, input, config, sink);
        Ok(machine.run(entry))
    }

    /// Runs `entry` with each input number chosen by `choose` from the span of the `input`
    /// instruction that reads it.
    pub fn run_choosing(
        &self,
        entry: &Entry,
        choose: &mut dyn FnMut(Span) -> i32,
        config: &RunConfig,
    ) -> Result<RunOutcome, EntryError> {
        entry.check(self.module)?;
        let input = Inputs::Chosen(choose);
        let mut sink = |_| {};
        let machine = Machine::new(self.module, &self.infos, input, config, &mut sink);
        Ok(machine.run(entry))
    }
}
