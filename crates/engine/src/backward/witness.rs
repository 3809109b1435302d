//! Counterexamples of the backward engine: the entry model as the entry's arguments and an input
//! heap document (`docs/heap-json.md`) that `symex run --entry f --heap FILE` accepts, and the
//! heap graphs of a path as Graphviz (`--heap-dot`).
//!
//! Input cells are the negative references: cell `-k` is object `ok`. An object lists every
//! field of its record type (from the inferred types), pointer fields as `null` or refs to other
//! input objects, reached transitively from the pointer arguments. With typed cells a reference
//! whose tag is not its pointee's is one the path never uses and is written as `null`, so each
//! object gets exactly one type. Nothing here runs anything.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::{json, Map, Value as Json};
use symex_ir::cfg::{input_bookkeeping, Module};
use symex_report::{ArgValue, Args};
use symex_smt::{BvConst, Value};
use symex_syntax::types::Type;

use crate::backward::encode::EntryModel;
use crate::backward::ops::FieldSlot;
use crate::backward::types::TypeFacts;
use crate::backward::typing::{cell_kind, CellKind, CellTyping};
use crate::backward::walk::HeapSnapshot;
use crate::common::terms::{value_as_i32, WIDTH};
use crate::heap::bookkeeping_at_input;

/// The object id of input cell `cell` (negative).
fn object_id(cell: i32) -> String {
    format!("o{}", -(cell as i64))
}

/// The model's value of field `slot` in input cell `cell`, if a constraint read the field.
fn field_value(model: &EntryModel, slot: FieldSlot, cell: i32) -> Option<i32> {
    let index = BvConst::new(WIDTH, cell as u32 as u128).ok()?;
    model
        .fields
        .iter()
        .find(|(f, _)| *f == slot)
        .and_then(|(_, array)| value_as_i32(array.get(&Value::Bv(index))))
}

/// The value of the module's field `slot` in input cell `cell`: the model's, or for a field
/// no constraint read 0 (a bookkeeping field: its input value).
fn input_field(module: &Module, model: &EntryModel, slot: FieldSlot, cell: i32) -> i32 {
    field_value(model, slot, cell).unwrap_or_else(|| {
        (module.fields.get(slot as usize))
            .and_then(|name| input_bookkeeping(name))
            .unwrap_or(0)
    })
}

/// A pointer's value in a counterexample.
fn pointer(cell: i32) -> ArgValue {
    if cell < 0 {
        ArgValue::Ref {
            object: object_id(cell),
        }
    } else {
        // Positive cells do not exist before the entry; only null can be meant.
        ArgValue::Null
    }
}

fn to_json(v: &ArgValue) -> Json {
    serde_json::to_value(v).unwrap_or(Json::Null)
}

/// How the model's input cells are typed: by the tags of `typing`, read from the model's input
/// array at `tag_slot` (`Graph::tag_slot`).
#[derive(Clone, Copy)]
pub struct CellTags<'a> {
    pub typing: Option<&'a CellTyping>,
    pub tag_slot: FieldSlot,
}

impl CellTags<'_> {
    /// Whether input cell `cell` can be a cell of type `target` in the model. With typed cells,
    /// every input reference the path uses is constrained to its pointee's tag, so a reference
    /// of another tag is one the path never uses (an unread field, an unused parameter), and
    /// the witness gives null for it.
    fn admits(&self, model: &EntryModel, cell: i32, target: &Type) -> bool {
        match self.typing.and_then(|typing| typing.tag_of(target)) {
            Some(tag) => field_value(model, self.tag_slot, cell).unwrap_or(0) == tag as i32,
            None => true,
        }
    }
}

/// The entry's arguments and, when it has pointer parameters, the input heap document.
pub fn entry_arguments(
    module: &Module,
    facts: &TypeFacts<'_>,
    tags: CellTags<'_>,
    entry: &str,
    params: &[String],
    model: &EntryModel,
) -> Result<(Args, Option<Json>), IllTypedHeap> {
    let mut args = Args::new();
    let mut pending: Vec<(i32, Type)> = Vec::new();
    let mut has_pointer = false;
    for (i, name) in params.iter().enumerate() {
        let value = model.args.get(i).copied().unwrap_or(0);
        let ty = facts.local_type(entry, name).unwrap_or(Type::Unknown);
        if ty.is_pointer() {
            has_pointer = true;
            let mut arg = pointer(value);
            if value < 0 {
                if let Some(target) = ty.pointee() {
                    if tags.admits(model, value, &target) {
                        pending.push((value, target));
                    } else {
                        arg = ArgValue::Null;
                    }
                }
            }
            args.push(name.clone(), arg);
        } else {
            args.push(name.clone(), ArgValue::Int(value.into()));
        }
    }
    if !has_pointer {
        return Ok((args, None));
    }
    let mut objects: BTreeMap<String, Json> = BTreeMap::new();
    let mut done: BTreeMap<i32, Option<CellKind>> = BTreeMap::new();
    let cell_slot = module.fields.len() as FieldSlot;
    // A pointer to a type variable may point to a cell of any kind: such cells are written only
    // when no typed pointer reaches them, so they come last.
    while let Some((cell, ty)) = take_typed_first(&mut pending) {
        let kind = cell_kind(&ty);
        if let Some(seen) = done.get(&cell) {
            if let (Some(seen), Some(kind)) = (seen, &kind) {
                if seen != kind {
                    // Possible only without tags: no run of the program can build that heap.
                    return Err(IllTypedHeap);
                }
            }
            continue;
        }
        done.insert(cell, kind);
        let mut value_of = |slot: FieldSlot, field_ty: &Type| -> Json {
            let v = input_field(module, model, slot, cell);
            if field_ty.is_pointer() {
                if v < 0 {
                    if let Some(target) = field_ty.pointee() {
                        if !tags.admits(model, v, &target) {
                            return Json::Null;
                        }
                        pending.push((v, target));
                    }
                }
                to_json(&pointer(v))
            } else {
                json!(v)
            }
        };
        let object = match ty.record_fields() {
            Some(fields) => {
                let mut record = Map::new();
                for (name, field_ty) in fields {
                    let Some(slot) = module.fields.iter().position(|f| *f == name) else {
                        continue;
                    };
                    let value = value_of(slot as FieldSlot, &field_ty);
                    if !bookkeeping_at_input(&name, &value) {
                        record.insert(name, value);
                    }
                }
                json!({ "record": record })
            }
            None => json!({ "value": value_of(cell_slot, &ty) }),
        };
        objects.insert(object_id(cell), object);
    }
    let mut arg_map = Map::new();
    for (name, value) in args.iter() {
        arg_map.insert(name.to_string(), to_json(value));
    }
    let heap = json!({ "args": arg_map, "objects": objects });
    Ok((args, Some(heap)))
}

/// The next pending cell, one reached through a pointer of known kind if there is one.
fn take_typed_first(pending: &mut Vec<(i32, Type)>) -> Option<(i32, Type)> {
    let typed = pending
        .iter()
        .rposition(|(_, ty)| cell_kind(ty).is_some())
        .unwrap_or(pending.len().checked_sub(1)?);
    Some(pending.remove(typed))
}

/// A model whose input heap gives one cell two record types.
#[derive(Debug)]
pub struct IllTypedHeap;

/// The heap graphs of a path as one Graphviz digraph, one cluster per step that changed the
/// heap; cells are `oK` (input) or `newK` (allocated at site K), pointer fields are edges.
pub fn heap_dot(module: &Module, ref_fields: &[bool], snapshots: &[HeapSnapshot]) -> String {
    let name = |cell: i32| {
        if cell < 0 {
            object_id(cell)
        } else {
            format!("new{cell}")
        }
    };
    let field_name = |slot: FieldSlot| {
        module
            .fields
            .get(slot as usize)
            .cloned()
            .unwrap_or_else(|| "*".to_string())
    };
    let mut out = String::from("digraph heap {\n  rankdir=LR;\n  node [shape=record];\n");
    for (i, snapshot) in snapshots.iter().enumerate() {
        let _ = writeln!(out, "  subgraph cluster_{i} {{");
        let _ = writeln!(out, "    label=\"after step {}\";", snapshot.step);
        let mut cells: BTreeMap<i32, Vec<(FieldSlot, i32)>> = BTreeMap::new();
        for (&(cell, slot), &value) in &snapshot.cells {
            cells.entry(cell).or_default().push((slot, value));
        }
        for (cell, fields) in &cells {
            let mut label = name(*cell);
            for &(slot, value) in fields {
                if !ref_fields.get(slot as usize).copied().unwrap_or(false) {
                    let _ = write!(label, " | {} = {value}", field_name(slot));
                }
            }
            let _ = writeln!(out, "    s{i}_{} [label=\"{{{label}}}\"];", name(*cell));
        }
        for (cell, fields) in &cells {
            for &(slot, value) in fields {
                if ref_fields.get(slot as usize).copied().unwrap_or(false) && value != 0 {
                    if !cells.contains_key(&value) {
                        let _ =
                            writeln!(out, "    s{i}_{} [label=\"{}\"];", name(value), name(value));
                    }
                    let _ = writeln!(
                        out,
                        "    s{i}_{} -> s{i}_{} [label=\"{}\"];",
                        name(*cell),
                        name(value),
                        field_name(slot)
                    );
                }
            }
        }
        out.push_str("  }\n");
    }
    out.push_str("}\n");
    out
}
