//! Where a run starts: the entry function and its arguments.
//!
//! `main` takes no arguments; any other function may be an entry (`--entry f --args 1,2`).
//! [`ArgValue`] is the argument model: numbers today, pointers into an input heap later (it is
//! `non_exhaustive` so that adding them breaks no caller). Nothing here executes.

use symex_ir::cfg::{FuncId, Module};

use crate::value::Value;

/// One argument of the entry function.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ArgValue {
    Int(i32),
}

impl ArgValue {
    pub(crate) fn to_value(&self) -> Value {
        match *self {
            ArgValue::Int(n) => Value::Int(n),
        }
    }
}

/// A resolved entry: the function and its arguments (count already checked).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub func: FuncId,
    pub args: Vec<ArgValue>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EntryError {
    UnknownFunction(String),
    ArgumentCount {
        function: String,
        expected: usize,
        given: usize,
    },
}

impl std::fmt::Display for EntryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EntryError::UnknownFunction(name) => write!(f, "no function named `{name}`"),
            EntryError::ArgumentCount {
                function,
                expected,
                given,
            } => write!(
                f,
                "`{function}` takes {expected} argument(s) but {given} were given"
            ),
        }
    }
}

impl std::error::Error for EntryError {}

impl Entry {
    /// `name(args)`, checked against the module.
    pub fn new(module: &Module, name: &str, args: Vec<ArgValue>) -> Result<Entry, EntryError> {
        let index = module
            .functions
            .iter()
            .position(|f| f.name == name)
            .ok_or_else(|| EntryError::UnknownFunction(name.to_string()))?;
        let entry = Entry {
            func: FuncId(index as u32),
            args,
        };
        entry.check(module)?;
        Ok(entry)
    }

    /// `main()`.
    pub fn main(module: &Module) -> Result<Entry, EntryError> {
        Entry::new(module, "main", Vec::new())
    }

    /// The function exists and takes as many parameters as there are arguments.
    pub(crate) fn check(&self, module: &Module) -> Result<(), EntryError> {
        let function = module
            .functions
            .get(self.func.index())
            .ok_or_else(|| EntryError::UnknownFunction(format!("#{}", self.func.0)))?;
        if function.param_count as usize != self.args.len() {
            return Err(EntryError::ArgumentCount {
                function: function.name.clone(),
                expected: function.param_count as usize,
                given: self.args.len(),
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::*;
    use symex_ir::cfg::{Operand, Terminator};

    fn two_functions() -> Module {
        let ret0 = || vec![block(vec![], Terminator::Return(Operand::Const(0)))];
        module(vec![
            function("f", 2, 2, ret0()),
            function("main", 0, 0, ret0()),
        ])
    }

    #[test]
    fn resolves_by_name_and_checks_arity() {
        let m = two_functions();
        assert_eq!(Entry::main(&m).unwrap().func, FuncId(1));
        let f = Entry::new(&m, "f", vec![ArgValue::Int(1), ArgValue::Int(2)]).unwrap();
        assert_eq!(f.func, FuncId(0));
        assert_eq!(
            Entry::new(&m, "f", vec![ArgValue::Int(1)]),
            Err(EntryError::ArgumentCount {
                function: "f".into(),
                expected: 2,
                given: 1
            })
        );
        assert_eq!(
            Entry::new(&m, "g", vec![]),
            Err(EntryError::UnknownFunction("g".into()))
        );
    }

    #[test]
    fn a_foreign_function_id_is_an_error() {
        let m = two_functions();
        let e = Entry {
            func: FuncId(7),
            args: vec![],
        };
        assert!(e.check(&m).is_err());
    }
}
