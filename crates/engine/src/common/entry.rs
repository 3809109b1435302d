//! The entry function of a check: resolved by name, with its parameters classified.
//!
//! Integer parameters become fresh symbols named after the parameter; pointer parameters point
//! into a symbolic input heap (`crate::heap`), so their pointee type is kept. Record and array
//! parameters, and pointees holding arrays, are refused with a clear error. The types are those
//! of [`input_heap_types`]: input records that may be one object have one type. Nothing here
//! creates terms or runs anything.

use std::borrow::Cow;

use symex_ir::cfg::{FuncId, Module};
use symex_syntax::types::{Type, TypeTable};

use crate::error::EngineError;

/// A resolved entry function whose parameters are integers or pointers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntrySetup {
    pub func: FuncId,
    pub name: String,
    /// Parameter names in order.
    pub params: Vec<String>,
    /// The pointee type of each pointer parameter (`None` for integers), in order.
    pub pointees: Vec<Option<Type>>,
}

impl EntrySetup {
    /// Whether some parameter points into an input heap.
    pub fn has_pointers(&self) -> bool {
        self.pointees.iter().any(Option::is_some)
    }
}

/// The types every engine analyses `entry` with: `types` with the record types of its input
/// heap merged wherever two may be one object ([`TypeTable::input_heap_view`]), so that "may
/// alias" is "has an equal pointee type"; refused when one type per object cannot say it.
pub fn input_heap_types<'t>(
    types: &'t TypeTable,
    entry: &str,
) -> Result<Cow<'t, TypeTable>, EngineError> {
    types
        .input_heap_view(entry)
        .map_err(|unsupported| EngineError::UnsupportedEntry {
            function: entry.to_string(),
            parameter: unsupported.parameter.clone(),
            reason: unsupported.reason,
        })
}

/// Resolves `entry` in `module`, checking its parameter types in `types` (as
/// [`input_heap_types`] gives them).
pub fn resolve_entry(
    module: &Module,
    types: &TypeTable,
    entry: &str,
) -> Result<EntrySetup, EngineError> {
    let func = module
        .function_by_name(entry)
        .ok_or_else(|| EngineError::UnknownEntry(entry.to_string()))?;
    let function = module.function(func);
    let types = input_heap_types(types, entry)?;
    let mut params = Vec::with_capacity(function.param_count as usize);
    let mut pointees = Vec::with_capacity(function.param_count as usize);
    for local in function.params() {
        let name = function.local(local).name.clone();
        let ty = types.local_type(entry, &name).unwrap_or(Type::Unknown);
        match classify(&ty) {
            Ok(pointee) => pointees.push(pointee),
            Err(reason) => {
                return Err(EngineError::UnsupportedEntry {
                    function: entry.to_string(),
                    parameter: name,
                    reason,
                })
            }
        }
        params.push(name);
    }
    Ok(EntrySetup {
        func,
        name: entry.to_string(),
        params,
        pointees,
    })
}

/// `Ok(None)` for an integer parameter (or a type nothing constrains, which any integer
/// satisfies), `Ok(Some(pointee))` for a pointer into the input heap, or why the parameter
/// cannot be symbolic.
fn classify(ty: &Type) -> Result<Option<Type>, String> {
    let unfolded = ty.unfold();
    match unfolded.as_ref() {
        Type::Int | Type::Var(_) | Type::Unknown => Ok(None),
        Type::Pointer(pointee) => {
            check_pointee(pointee)?;
            Ok(Some(pointee.as_ref().clone()))
        }
        other => Err(format!(
            "not supported: only integer and pointer parameters can be symbolic (this one is {other})"
        )),
    }
}

/// Input cells hold a record of numbers and pointers, a number or a pointer; the pointees
/// reachable from them too (arrays are not part of input heaps, docs/heap-json.md).
fn check_pointee(pointee: &Type) -> Result<(), String> {
    let mut seen: Vec<Type> = Vec::new();
    let mut work = vec![pointee.clone()];
    while let Some(ty) = work.pop() {
        if seen.iter().any(|t| t.equivalent(&ty)) {
            continue;
        }
        seen.push(ty.clone());
        let values = match ty.record_fields() {
            Some(fields) => fields.into_iter().map(|(_, t)| t).collect(),
            None => vec![ty.clone()],
        };
        for value in values {
            match value.unfold().as_ref() {
                Type::Int | Type::Var(_) | Type::Unknown => {}
                Type::Pointer(next) => work.push(next.as_ref().clone()),
                Type::Record(_) if value.equivalent(&ty) => {}
                other => {
                    return Err(format!(
                        "not supported: input heaps hold numbers, pointers and records of them, not {other}"
                    ))
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup(source: &str, entry: &str) -> Result<EntrySetup, EngineError> {
        let front = symex_syntax::analyze(source).expect("valid program");
        let types = front.types.expect("well typed");
        let module = symex_ir::lower(&front.program);
        resolve_entry(&module, &types, entry)
    }

    #[test]
    fn integer_parameters_are_accepted_in_order() {
        let s = setup("f(a, b) { return a + b; } main() { return f(1, 2); }", "f").unwrap();
        assert_eq!(s.params, vec!["a".to_string(), "b".to_string()]);
        assert_eq!(s.name, "f");
    }

    #[test]
    fn pointer_parameters_keep_their_pointee() {
        let s = setup("f(p, n) { return p->val + n; } main() { return 0; }", "f").unwrap();
        assert!(s.has_pointers());
        assert!(s.pointees[0].as_ref().is_some_and(|t| t.is_record()));
        assert_eq!(s.pointees[1], None);
    }

    #[test]
    fn pointees_are_those_of_the_input_heap_view() {
        // `q`'s open record `{val}` may be `p`'s own object: the view gives both one type.
        let source = "g(p) { var q; q = p->next; q->val = 1; return 0; } main() { return 0; }";
        let s = setup(source, "g").unwrap();
        let pointee = s.pointees[0].as_ref().expect("a pointer");
        let next = pointee
            .field("next")
            .and_then(|t| t.pointee())
            .expect("a pointer field");
        assert!(pointee.equivalent(&next), "{pointee} and {next}");
    }

    #[test]
    fn input_objects_that_would_need_two_types_are_refused() {
        let source = "h(p) { var s, t; s = p->a; t = p->b; s->x = 1; t->x = null; return 0; } \
                      main() { return 0; }";
        let err = setup(source, "h").unwrap_err();
        assert!(
            matches!(&err, EngineError::UnsupportedEntry { parameter, reason, .. }
                if parameter == "p" && reason.starts_with("not supported")),
            "{err:?}"
        );
    }

    #[test]
    fn arrays_and_unknown_names_are_refused() {
        let err = setup("f(p) { return p->a[0]; } main() { return 0; }", "f").unwrap_err();
        assert!(
            matches!(&err, EngineError::UnsupportedEntry { parameter, reason, .. }
                if parameter == "p" && reason.contains("not supported")),
            "{err:?}"
        );
        assert_eq!(
            setup("main() { return 0; }", "g"),
            Err(EngineError::UnknownEntry("g".into()))
        );
    }
}
