//! Where a run starts: the entry function and its arguments.
//!
//! `main` takes no arguments; any other function may be an entry (`--entry f --args 1,2`, or
//! `--entry f --heap FILE` for pointer arguments). [`ArgValue`] is the argument model: numbers,
//! `null`, and references to the objects of the entry's [`InputHeap`] (parsed in `heap.rs`).
//! Nothing here executes.

use symex_ir::cfg::{FuncId, Function, Module, Width};

use crate::fault::Fault;
use crate::heap::{self, HeapError, InputHeap, ObjectId};
use crate::value::{CellId, Value};

/// One argument of the entry function, or one value stored in its input heap.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ArgValue {
    Int(i32),
    /// A 64-bit number (for a parameter of 64 bits: C's `long long`).
    Int64(i64),
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
            ArgValue::Int64(n) => Value::Int64(n),
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
    /// A number beyond 32 bits for a parameter of 32 bits.
    NotAnInt32 {
        function: String,
        param: String,
        number: i64,
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
            EntryError::NotAnInt32 {
                function,
                param,
                number,
            } => write!(
                f,
                "the argument {number} of `{function}` does not fit its parameter `{param}` of \
                 32 bits"
            ),
        }
    }
}

impl std::error::Error for EntryError {}

impl Entry {
    /// `name(numbers)`: each number an argument of its parameter's width (refused where it
    /// does not fit 32 bits and the parameter has them); no input heap.
    pub fn with_numbers(module: &Module, name: &str, numbers: &[i64]) -> Result<Entry, EntryError> {
        let (_, function) =
            find(module, name).ok_or_else(|| EntryError::UnknownFunction(name.to_string()))?;
        let mut args = Vec::with_capacity(numbers.len());
        for (param, &n) in function.params().zip(numbers) {
            let info = &function.locals[param.index()];
            args.push(match info.width {
                Width::W64 => ArgValue::Int64(n),
                Width::W32 => {
                    ArgValue::Int(i32::try_from(n).map_err(|_| EntryError::NotAnInt32 {
                        function: name.to_string(),
                        param: info.name.clone(),
                        number: n,
                    })?)
                }
            });
        }
        if numbers.len() > args.len() {
            // More numbers than parameters: the count check below names it.
            args.extend(numbers[args.len()..].iter().map(|&n| ArgValue::Int64(n)));
        }
        Entry::new(module, name, args)
    }

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
    fn numbers_take_their_parameters_widths() {
        let mut m = two_functions();
        m.functions[0].locals[1].width = Width::W64;
        let wide = 1i64 << 40;
        let entry = Entry::with_numbers(&m, "f", &[-3, wide]).unwrap();
        assert_eq!(entry.args, vec![ArgValue::Int(-3), ArgValue::Int64(wide)]);
        assert!(matches!(
            Entry::with_numbers(&m, "f", &[wide, 1]),
            Err(EntryError::NotAnInt32 { .. })
        ));
        assert!(matches!(
            Entry::with_numbers(&m, "f", &[1, 2, 3]),
            Err(EntryError::ArgumentCount { given: 3, .. })
        ));
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
