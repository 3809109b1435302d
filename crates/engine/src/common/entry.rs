//! The entry function of a check: resolved by name, with its parameters classified.
//!
//! Integer parameters become fresh symbols named after the parameter. Parameters of any other
//! type (pointers into an input heap, records, arrays) are refused for now with a clear error:
//! input heaps come with the heap engines. Nothing here creates terms or runs anything.

use symex_ir::cfg::{FuncId, Module};
use symex_syntax::types::{Type, TypeTable};

use crate::error::EngineError;

/// A resolved entry function whose parameters are all integers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntrySetup {
    pub func: FuncId,
    pub name: String,
    /// Parameter names in order.
    pub params: Vec<String>,
}

/// Resolves `entry` in `module`, checking its parameter types in `types`.
pub fn resolve_entry(
    module: &Module,
    types: &TypeTable,
    entry: &str,
) -> Result<EntrySetup, EngineError> {
    let func = module
        .function_by_name(entry)
        .ok_or_else(|| EngineError::UnknownEntry(entry.to_string()))?;
    let function = module.function(func);
    let mut params = Vec::with_capacity(function.param_count as usize);
    for local in function.params() {
        let name = function.local(local).name.clone();
        let ty = types.local_type(entry, &name).unwrap_or(Type::Unknown);
        if let Some(reason) = unsupported_reason(&ty) {
            return Err(EngineError::UnsupportedEntry {
                function: entry.to_string(),
                parameter: name,
                reason,
            });
        }
        params.push(name);
    }
    Ok(EntrySetup {
        func,
        name: entry.to_string(),
        params,
    })
}

/// Why a parameter of type `ty` cannot be symbolic yet; `None` for integers (and for types
/// nothing constrains, which any integer satisfies).
fn unsupported_reason(ty: &Type) -> Option<String> {
    let unfolded = ty.unfold();
    match unfolded.as_ref() {
        Type::Int | Type::Var(_) | Type::Unknown => None,
        Type::Pointer(_) | Type::Recursive(..) | Type::RecVar(_) => {
            Some("not supported yet: input heaps come with the heap engines".to_string())
        }
        other => Some(format!(
            "not supported yet: only integer parameters can be symbolic (this one is {other})"
        )),
    }
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
    fn pointer_parameters_and_unknown_names_are_refused() {
        let err = setup("f(p) { return *p; } main() { return 0; }", "f").unwrap_err();
        assert!(
            matches!(&err, EngineError::UnsupportedEntry { parameter, reason, .. }
                if parameter == "p" && reason.contains("not supported yet")),
            "{err:?}"
        );
        assert_eq!(
            setup("main() { return 0; }", "g"),
            Err(EngineError::UnknownEntry("g".into()))
        );
    }
}
