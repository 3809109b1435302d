//! The SMT-LIB2 process back end: any solver that reads SMT-LIB2 on standard input.
//!
//! The solver (`z3 -in`, `cvc5 --incremental --lang smt2`, `yices-smt2 --incremental`, or any
//! command) runs as a child process; the quirks of each are in [`Dialect`] (logic, time-limit
//! option, whether `check-sat-assuming` takes any Boolean term; every dialect gets
//! `(push 1)`/`(pop 1)`, which yices requires). The solver keeps a
//! mirror of the assertion stack, so when the process dies, hangs past its time limit or
//! prints garbage, the check answers `unknown` with the reason, the process is killed, and the
//! next check starts a new one and replays the stack: the engine goes on. Every read has a
//! deadline (the check's time limit plus a grace period, or the response limit for other
//! commands). A program that cannot be started at all is an error naming it.

use std::time::{Duration, Instant};

use rustc_hash::FxHashSet;

use crate::child::{Child, ReadError};
use crate::error::SolverError;
use crate::printer;
use crate::response::value_of;
use crate::sexp::{clip, parse, Parsed, Sexp};
use crate::solver::{Model, SatResult, Solver, SolverStats, StoreBinding, DEFAULT_TIMEOUT};
use crate::term::{TermId, TermStore, VarId};
use crate::value::Value;

/// The quirks of a solver family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// Z3 (`z3 -in`): time limit through `:timeout`.
    Z3,
    /// cvc5 (`cvc5 --incremental --lang smt2`): logic `ALL`, time limit through `:tlimit-per`.
    Cvc5,
    /// Yices 2 (`yices-smt2 --incremental`): needs a logic (default `QF_AUFBVLIA`); no time-limit
    /// option, so only the wall-clock limit applies.
    Yices,
    /// Any other SMT-LIB2 solver: no logic, no time-limit option.
    Generic,
}

impl Dialect {
    /// The dialect a program name suggests.
    pub fn guess(program: &str) -> Dialect {
        let base = program.rsplit('/').next().unwrap_or(program);
        if base.starts_with("z3") {
            Dialect::Z3
        } else if base.starts_with("cvc5") {
            Dialect::Cvc5
        } else if base.starts_with("yices") {
            Dialect::Yices
        } else {
            Dialect::Generic
        }
    }

    fn default_logic(self) -> Option<&'static str> {
        match self {
            Dialect::Cvc5 => Some("ALL"),
            Dialect::Yices => Some("QF_AUFBVLIA"),
            Dialect::Z3 | Dialect::Generic => None,
        }
    }

    /// Whether `check-sat-assuming` accepts arbitrary Boolean terms (otherwise assumptions are
    /// asserted in a temporary scope).
    fn check_sat_assuming(self) -> bool {
        matches!(self, Dialect::Z3 | Dialect::Cvc5)
    }

    fn timeout_command(self, timeout: Option<Duration>) -> Option<String> {
        let ms = timeout.map(|d| d.as_millis().max(1));
        match self {
            Dialect::Z3 => Some(format!(
                "(set-option :timeout {})\n",
                ms.unwrap_or(u128::from(u32::MAX))
            )),
            Dialect::Cvc5 => Some(format!("(set-option :tlimit-per {})\n", ms.unwrap_or(0))),
            Dialect::Yices | Dialect::Generic => None,
        }
    }
}

/// How to run a solver process.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProcessConfig {
    /// The program (looked up on `PATH`).
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Its quirks.
    pub dialect: Dialect,
    /// The `set-logic` to send first (`None`: none).
    pub logic: Option<String>,
    /// How long past a check's time limit to wait before killing the process.
    pub grace: Duration,
    /// How long to wait for answers to commands other than `check-sat`.
    pub response_timeout: Duration,
}

impl ProcessConfig {
    /// `program args...` with the given dialect and that dialect's default logic.
    pub fn new(program: &str, args: &[&str], dialect: Dialect) -> Self {
        ProcessConfig {
            program: program.to_string(),
            args: args.iter().map(|a| a.to_string()).collect(),
            dialect,
            logic: dialect.default_logic().map(str::to_string),
            grace: Duration::from_secs(2),
            response_timeout: Duration::from_secs(10),
        }
    }

    /// `z3 -in -smt2`.
    pub fn z3() -> Self {
        Self::new("z3", &["-in", "-smt2"], Dialect::Z3)
    }

    /// `cvc5 --incremental --lang smt2`.
    pub fn cvc5() -> Self {
        Self::new("cvc5", &["--incremental", "--lang", "smt2"], Dialect::Cvc5)
    }

    /// `yices-smt2 --incremental`.
    pub fn yices() -> Self {
        Self::new("yices-smt2", &["--incremental"], Dialect::Yices)
    }

    /// A command line split at whitespace (no quoting), the dialect guessed from the program
    /// name; `None` for an empty line.
    pub fn from_command_line(line: &str) -> Option<Self> {
        let mut words = line.split_whitespace();
        let program = words.next()?;
        let args: Vec<&str> = words.collect();
        Some(Self::new(program, &args, Dialect::guess(program)))
    }
}

/// An SMT-LIB2 solver process. See the module documentation.
pub struct ProcessSolver {
    config: ProcessConfig,
    child: Option<Child>,
    /// The assertions of each scope; `frames[0]` is the base scope.
    frames: Vec<Vec<TermId>>,
    /// Variables declared in the live process, and per scope which (for `pop`).
    declared: FxHashSet<VarId>,
    decl_frames: Vec<Vec<VarId>>,
    assumption_scope: bool,
    /// A write to the live process failed: its answers can no longer be trusted.
    pipe_broken: bool,
    binding: StoreBinding,
    timeout: Option<Duration>,
    timeout_sent: bool,
    model_ready: bool,
    stats: SolverStats,
}

impl ProcessSolver {
    /// Starts the solver. Fails (naming the program) if it cannot be started.
    pub fn new(config: ProcessConfig) -> Result<Self, SolverError> {
        let mut solver = ProcessSolver {
            config,
            child: None,
            frames: vec![Vec::new()],
            declared: FxHashSet::default(),
            decl_frames: vec![Vec::new()],
            assumption_scope: false,
            pipe_broken: false,
            binding: StoreBinding::default(),
            timeout: Some(DEFAULT_TIMEOUT),
            timeout_sent: false,
            model_ready: false,
            stats: SolverStats::default(),
        };
        solver.start()?;
        Ok(solver)
    }

    /// The configuration this solver runs with.
    pub fn config(&self) -> &ProcessConfig {
        &self.config
    }

    /// Starts the process and sends the preamble (options, logic).
    fn start(&mut self) -> Result<(), SolverError> {
        let child = Child::spawn(&self.config.program, &self.config.args).map_err(|e| {
            SolverError::Spawn {
                program: self.config.program.clone(),
                message: e.to_string(),
            }
        })?;
        self.child = Some(child);
        self.pipe_broken = false;
        let mut preamble =
            String::from("(set-option :print-success false)\n(set-option :produce-models true)\n");
        if let Some(logic) = &self.config.logic {
            preamble.push_str(&format!("(set-logic {logic})\n"));
        }
        self.send(&preamble);
        Ok(())
    }

    /// Forgets the process after a fault; the next check starts a new one.
    fn fault(&mut self) {
        self.child = None;
        self.pipe_broken = false;
        self.assumption_scope = false;
        self.model_ready = false;
        self.declared.clear();
        self.decl_frames = vec![Vec::new(); self.frames.len()];
    }

    /// Starts a new process and replays the assertion stack.
    fn restart(&mut self, store: &TermStore) -> Result<(), SolverError> {
        self.start()?;
        self.stats.restarts += 1;
        self.timeout_sent = false;
        self.declared.clear();
        self.decl_frames.clear();
        let frames = std::mem::take(&mut self.frames);
        for (k, frame) in frames.iter().enumerate() {
            if k > 0 {
                self.send("(push 1)\n");
            }
            self.decl_frames.push(Vec::new());
            for &t in frame {
                self.send_assert(store, t);
            }
        }
        self.frames = frames;
        Ok(())
    }

    /// Queues `text` for the live process (if any). A write failure is remembered: the next
    /// read still collects what the process said before it went away.
    fn send(&mut self, text: &str) {
        if let Some(child) = &mut self.child {
            if child.write(text).is_err() {
                self.pipe_broken = true;
            }
        }
    }

    fn declare(&mut self, store: &TermStore, roots: &[TermId]) {
        let mut text = String::new();
        for v in store.vars_of(roots) {
            if self.declared.insert(v) {
                text.push_str(&printer::declaration(store, v));
                text.push('\n');
                if let Some(frame) = self.decl_frames.last_mut() {
                    frame.push(v);
                }
            }
        }
        if !text.is_empty() {
            self.send(&text);
        }
    }

    fn send_assert(&mut self, store: &TermStore, t: TermId) {
        if self.child.is_none() {
            return;
        }
        self.declare(store, &[t]);
        let mut text = String::from("(assert ");
        printer::write_term(store, t, &mut text);
        text.push_str(")\n");
        self.send(&text);
    }

    fn close_assumption_scope(&mut self) {
        self.model_ready = false;
        if self.assumption_scope {
            self.assumption_scope = false;
            if let Some(vars) = self.decl_frames.pop() {
                for v in vars {
                    self.declared.remove(&v);
                }
            }
            self.send("(pop 1)\n");
        }
    }

    /// Flushes and reads one complete S-expression (possibly over several lines).
    fn read_sexp(&mut self) -> Result<Sexp, String> {
        let deadline = Some(Instant::now() + self.config.response_timeout);
        let child = self
            .child
            .as_mut()
            .ok_or_else(|| "the solver process is gone".to_string())?;
        if child.flush().is_err() || self.pipe_broken {
            return Err("the solver stopped reading its input".to_string());
        }
        let mut text = String::new();
        loop {
            match child.read_line(deadline) {
                Ok(line) => {
                    text.push_str(&line);
                    text.push('\n');
                }
                Err(ReadError::Timeout) => {
                    return Err(format!(
                        "no answer within {:.1} s",
                        self.config.response_timeout.as_secs_f64()
                    ))
                }
                Err(ReadError::Closed(why)) => return Err(format!("solver died: {why}")),
            }
            match parse(&text) {
                Ok(Parsed::Done(sexp, _)) => return Ok(sexp),
                Ok(Parsed::Incomplete) => continue,
                Err(e) => return Err(format!("garbled answer: {e}")),
            }
        }
    }

    /// Asks why the last check answered `unknown`.
    fn reason_unknown(&mut self) -> String {
        self.send("(get-info :reason-unknown)\n");
        match self.read_sexp() {
            Ok(sexp) => match sexp.list() {
                Some([key, reason]) if key.is_atom(":reason-unknown") => reason
                    .text()
                    .map_or_else(|| format!("{reason:?}"), str::to_string),
                _ => "unknown (no reason given)".to_string(),
            },
            Err(e) => {
                self.fault();
                format!("unknown (no reason given: {e})")
            }
        }
    }

    /// Sends `command` (a check) and reads the answer; faults become `Unknown`.
    fn run_check(&mut self, command: &str) -> SatResult {
        self.send(command);
        let deadline = self.timeout.map(|t| Instant::now() + t + self.config.grace);
        let limit = self.timeout.map(|t| t + self.config.grace);
        let child = match self.child.as_mut() {
            Some(c) => c,
            None => return SatResult::Unknown("the solver process is gone".into()),
        };
        if child.flush().is_err() {
            self.pipe_broken = true;
        }
        loop {
            let line = match child.read_line(deadline) {
                Ok(line) => line,
                Err(ReadError::Timeout) => {
                    self.fault();
                    return SatResult::Unknown(format!(
                        "timeout: no answer within {:.1} s, solver killed",
                        limit.unwrap_or_default().as_secs_f64()
                    ));
                }
                Err(ReadError::Closed(why)) => {
                    self.fault();
                    return SatResult::Unknown(format!("solver died: {why}"));
                }
            };
            let answer = line.trim();
            if self.pipe_broken && !answer.is_empty() {
                // Part of the query never reached the solver: its answer is meaningless.
                self.fault();
                return SatResult::Unknown(format!(
                    "the solver stopped reading its input (it said: {})",
                    clip(answer)
                ));
            }
            match answer {
                "" => continue,
                "sat" => return SatResult::Sat,
                "unsat" => return SatResult::Unsat,
                "unknown" => return SatResult::Unknown(self.reason_unknown()),
                _ if answer.starts_with("(error") => {
                    self.fault();
                    return SatResult::Unknown(format!("solver error: {}", clip(answer)));
                }
                _ => {
                    self.fault();
                    return SatResult::Unknown(format!(
                        "unexpected solver output: {}",
                        clip(answer)
                    ));
                }
            }
        }
    }
}

impl Solver for ProcessSolver {
    fn name(&self) -> String {
        let mut line = self.config.program.clone();
        for a in &self.config.args {
            line.push(' ');
            line.push_str(a);
        }
        format!("SMT-LIB2 process `{line}`")
    }

    fn push(&mut self) -> Result<(), SolverError> {
        self.close_assumption_scope();
        self.frames.push(Vec::new());
        self.decl_frames.push(Vec::new());
        self.send("(push 1)\n");
        Ok(())
    }

    fn pop(&mut self) -> Result<(), SolverError> {
        self.close_assumption_scope();
        if self.frames.len() <= 1 {
            return Err(SolverError::PopEmpty);
        }
        self.frames.pop();
        if let Some(vars) = self.decl_frames.pop() {
            for v in vars {
                self.declared.remove(&v);
            }
        }
        self.send("(pop 1)\n");
        Ok(())
    }

    fn level(&self) -> usize {
        self.frames.len() - 1
    }

    fn assert(&mut self, store: &TermStore, term: TermId) -> Result<(), SolverError> {
        self.binding.booleans(store, &[term])?;
        self.close_assumption_scope();
        if let Some(frame) = self.frames.last_mut() {
            frame.push(term);
        }
        self.send_assert(store, term);
        Ok(())
    }

    fn check(
        &mut self,
        store: &TermStore,
        assumptions: &[TermId],
    ) -> Result<SatResult, SolverError> {
        self.binding.booleans(store, assumptions)?;
        self.close_assumption_scope();
        let start = Instant::now();
        if self.child.is_none() {
            if let Err(e) = self.restart(store) {
                let result = SatResult::Unknown(format!("cannot restart the solver: {e}"));
                self.stats.record(&result, start.elapsed());
                return Ok(result);
            }
        }
        if !self.timeout_sent {
            if let Some(cmd) = self.config.dialect.timeout_command(self.timeout) {
                self.send(&cmd);
            }
            self.timeout_sent = true;
        }
        let command = if assumptions.is_empty() {
            "(check-sat)\n".to_string()
        } else if self.config.dialect.check_sat_assuming() {
            self.declare(store, assumptions);
            let mut cmd = String::from("(check-sat-assuming (");
            for (k, &a) in assumptions.iter().enumerate() {
                if k > 0 {
                    cmd.push(' ');
                }
                printer::write_term(store, a, &mut cmd);
            }
            cmd.push_str("))\n");
            cmd
        } else {
            self.send("(push 1)\n");
            self.decl_frames.push(Vec::new());
            self.assumption_scope = true;
            for &a in assumptions {
                self.send_assert(store, a);
            }
            "(check-sat)\n".to_string()
        };
        let result = self.run_check(&command);
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
        let mut model = Model::new();
        let mut asked = Vec::new();
        for &t in vars {
            match store.var_id(t) {
                Some(v) if self.declared.contains(&v) => asked.push((t, v)),
                _ => model.insert(t, Value::default_of(store.sorts(), store.sort(t))),
            }
        }
        if !asked.is_empty() {
            let mut cmd = String::from("(get-value (");
            for (k, &(_, v)) in asked.iter().enumerate() {
                if k > 0 {
                    cmd.push(' ');
                }
                cmd.push_str(&printer::symbol(store, v));
            }
            cmd.push_str("))\n");
            self.send(&cmd);
            let answer = match self.read_sexp() {
                Ok(a) => a,
                Err(e) => {
                    self.fault();
                    return Err(SolverError::Protocol(e));
                }
            };
            let pairs = answer
                .list()
                .filter(|p| p.len() == asked.len())
                .ok_or_else(|| SolverError::Protocol(format!("bad get-value answer {answer:?}")))?;
            for (&(t, _), pair) in asked.iter().zip(pairs) {
                let value = match pair.list() {
                    Some([_, v]) => {
                        value_of(store.sorts(), store.sort(t), v).map_err(SolverError::Protocol)?
                    }
                    _ => {
                        return Err(SolverError::Protocol(format!(
                            "bad get-value pair {pair:?}"
                        )))
                    }
                };
                model.insert(t, value);
            }
        }
        self.stats.time += start.elapsed();
        Ok(model)
    }

    fn set_timeout(&mut self, timeout: Option<Duration>) {
        if timeout != self.timeout {
            self.timeout = timeout;
            self.timeout_sent = false;
        }
    }

    fn timeout(&self) -> Option<Duration> {
        self.timeout
    }

    fn stats(&self) -> &SolverStats {
        &self.stats
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dialects_are_guessed_from_the_program() {
        assert_eq!(Dialect::guess("/usr/bin/z3"), Dialect::Z3);
        assert_eq!(Dialect::guess("cvc5"), Dialect::Cvc5);
        assert_eq!(Dialect::guess("yices-smt2"), Dialect::Yices);
        assert_eq!(Dialect::guess("bitwuzla"), Dialect::Generic);
        let c = ProcessConfig::from_command_line("cvc5 --incremental --lang smt2").expect("cmd");
        assert_eq!(c.args.len(), 3);
        assert_eq!(c.logic.as_deref(), Some("ALL"));
        assert!(ProcessConfig::from_command_line("   ").is_none());
    }

    #[test]
    fn time_limit_options() {
        let t = Some(Duration::from_millis(250));
        assert_eq!(
            Dialect::Z3.timeout_command(t).as_deref(),
            Some("(set-option :timeout 250)\n")
        );
        assert_eq!(
            Dialect::Cvc5.timeout_command(None).as_deref(),
            Some("(set-option :tlimit-per 0)\n")
        );
        assert_eq!(Dialect::Yices.timeout_command(t), None);
    }

    #[test]
    fn a_missing_program_is_named() {
        let err = ProcessSolver::new(ProcessConfig::new(
            "no-such-solver-xyz",
            &[],
            Dialect::Generic,
        ))
        .err()
        .expect("cannot start");
        assert!(err.to_string().contains("`no-such-solver-xyz`"), "{err}");
    }
}
