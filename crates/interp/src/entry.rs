//! Where a run starts: the entry function and its arguments.
//!
//! `main` takes no arguments; any other function may be an entry (`--entry f --args 1,2`, or
//! `--entry f --heap FILE` for pointer arguments). [`ArgValue`] is the argument model: numbers,
//! `null`, and references to the objects of the entry's [`InputHeap`] (parsed in `heap.rs`).
//! Nothing here executes.

use symex_ir::cfg::{FuncId, Function, Module};

use crate::fault::Fault;
use crate::heap::{self, HeapError, InputHeap, ObjectId};
use crate::value::{CellId, Value};

/// One argument of the entry function, or one value stored in its input heap.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ArgValue {
    Int(i32),
    Null,
    /// A pointer to an object of the entry's input heap.
    Ref(ObjectId),
}

impl ArgValue {
    /// The runtime value, given the cell of every input heap object (`cells[i]` holds
    /// `ObjectId(i)`); a reference outside the heap is an invariant fault, never a panic.
    pub(crate) fn to_value(&self, cells: &[CellId]) -> Result<Value, Fault> {
        Ok(match *self {
            ArgValue::Int(n) => Value::Int(n),
            ArgValue::Null => Value::Null,
            ArgValue::Ref(id) => Value::Ptr(*cells.get(id.index()).ok_or_else(|| {
                Fault::Invariant(format!("reference to input heap object #{}", id.0))
            })?),
        })
    }
}

/// A resolved entry: the function, its arguments (count already checked) and the input heap its
/// [`ArgValue::Ref`] arguments point into (empty unless built by [`Entry::with_heap_json`] or
/// [`Entry::with_heap_value`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub func: FuncId,
    pub args: Vec<ArgValue>,
    pub heap: InputHeap,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EntryError {
    UnknownFunction(String),
    ArgumentCount {
        function: String,
        expected: usize,
        given: usize,
    },
    /// An argument refers to an object that the entry's input heap does not have.
    UnknownObject {
        function: String,
        object: u32,
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
            EntryError::UnknownObject { function, object } => write!(
                f,
                "an argument of `{function}` refers to input heap object #{object}, which the \
                 entry's heap does not have"
            ),
        }
    }
}

impl std::error::Error for EntryError {}

impl Entry {
    /// `name(args)`, checked against the module; no input heap.
    pub fn new(module: &Module, name: &str, args: Vec<ArgValue>) -> Result<Entry, EntryError> {
        let (func, _) =
            find(module, name).ok_or_else(|| EntryError::UnknownFunction(name.to_string()))?;
        let entry = Entry {
            func,
            args,
            heap: InputHeap::default(),
        };
        entry.check(module)?;
        Ok(entry)
    }

    /// `name` with the arguments and input heap of a heap document (`docs/heap-json.md`).
    pub fn with_heap_json(module: &Module, name: &str, json: &str) -> Result<Entry, HeapError> {
        let (func, function) =
            find(module, name).ok_or_else(|| HeapError::UnknownFunction(name.to_string()))?;
        let (args, heap) = heap::parse_str(module, function, json)?;
        Ok(Entry { func, args, heap })
    }

    /// As [`Entry::with_heap_json`], from an already parsed document (a witness's `heap`); a
    /// `serde_json::Value` has already dropped duplicate keys, so they cannot be rejected here.
    pub fn with_heap_value(
        module: &Module,
        name: &str,
        json: &serde_json::Value,
    ) -> Result<Entry, HeapError> {
        let (func, function) =
            find(module, name).ok_or_else(|| HeapError::UnknownFunction(name.to_string()))?;
        let (args, heap) = heap::parse_value(module, function, json)?;
        Ok(Entry { func, args, heap })
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
        let dangling = self.args.iter().find_map(|a| match a {
            ArgValue::Ref(id) if id.index() >= self.heap.len() => Some(id.0),
            _ => None,
        });
        if let Some(object) = dangling {
            return Err(EntryError::UnknownObject {
                function: function.name.clone(),
                object,
            });
        }
        Ok(())
    }
}

/// The function named `name` and its id.
fn find<'m>(module: &'m Module, name: &str) -> Option<(FuncId, &'m Function)> {
    let (index, function) = module
        .functions
        .iter()
        .enumerate()
        .find(|(_, f)| f.name == name)?;
    Some((FuncId(u32::try_from(index).ok()?), function))
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
            heap: InputHeap::default(),
        };
        assert!(e.check(&m).is_err());
    }

    #[test]
    fn a_reference_outside_the_heap_is_an_error() {
        let m = two_functions();
        let e = Entry {
            func: FuncId(0),
            args: vec![ArgValue::Ref(ObjectId(0)), ArgValue::Null],
            heap: InputHeap::default(),
        };
        assert_eq!(
            e.check(&m),
            Err(EntryError::UnknownObject {
                function: "f".into(),
                object: 0
            })
        );
        assert!(ArgValue::Ref(ObjectId(3)).to_value(&[CellId(0)]).is_err());
    }
}
