//! Reading the values before the entry out of a satisfying solver model: the entry's arguments,
//! the `input` symbols and the input heap's field arrays (T §7.3.3: the model exists only while
//! the solver still holds it, so this runs right after the `sat` answer).
//!
//! Nothing here walks the path or writes JSON (see `walk` and `witness`).

use symex_smt::{ArrayValue, BvConst, Node, Solver, TermId, TermStore, Value};

use crate::backward::encode::{EntryModel, InputSymbols};
use crate::backward::ops::FieldSlot;
use crate::common::terms::{value_as_i32, WIDTH};
use crate::error::EngineError;

pub fn read_entry_model(
    solver: &mut dyn Solver,
    store: &TermStore,
    params: &[Option<TermId>],
    inputs: &InputSymbols,
    input_count: u32,
    input_arrays: &[(FieldSlot, TermId)],
) -> Result<EntryModel, EngineError> {
    let mut vars: Vec<TermId> = params.iter().flatten().copied().collect();
    let input_terms: Vec<(u32, TermId)> = inputs.made().collect();
    vars.extend(input_terms.iter().map(|&(_, t)| t));
    let arrays = input_arrays.to_vec();
    // A bookkeeping field's input array is a constant (`heap.rs`), no symbol of the model.
    vars.extend(
        arrays
            .iter()
            .map(|&(_, t)| t)
            .filter(|&t| store.var_id(t).is_some()),
    );
    let model = solver.model(store, &vars)?;
    let number = |t: TermId| model.get(t).and_then(value_as_i32).unwrap_or(0);
    let args = params.iter().map(|p| p.map_or(0, number)).collect();
    let mut input_values = vec![0; input_count as usize];
    for (i, t) in input_terms {
        if let Some(slot) = input_values.get_mut(i as usize) {
            *slot = number(t);
        }
    }
    let zero = Value::Bv(BvConst::new(WIDTH, 0)?);
    let mut fields = Vec::with_capacity(arrays.len());
    for (f, t) in arrays {
        let array = match (store.node(t), model.get(t)) {
            (Node::ConstArray { value, .. }, _) => match store.as_bv(*value) {
                Some(c) => ArrayValue::constant(Value::Bv(c)),
                None => {
                    return Err(EngineError::Internal(
                        "a constant array of no number".into(),
                    ))
                }
            },
            (_, Some(Value::Array(a))) => a.clone(),
            _ => ArrayValue::constant(zero.clone()),
        };
        fields.push((f, array));
    }
    Ok(EntryModel {
        args,
        inputs: input_values,
        fields,
    })
}
