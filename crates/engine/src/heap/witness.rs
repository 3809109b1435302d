//! A concrete input heap from a model (digest §6.10): the arguments and objects of the
//! document in docs/heap-json.md, which `replay_witness` runs.
//!
//! Every reference term evaluates to 0 (null) or an address; equal addresses are one object,
//! so aliasing and cycles come out of the model. A slot's value is the model's value of the
//! symbol that *first* initialized it on the path (the aliasing clauses make every later
//! initialization of an alias equal to it); slots the path never read get 0 or null.
//! Nothing here asks the solver: the caller passes the model's values.

use serde_json::{json, Map, Value as Json};
use symex_ir::cfg::input_bookkeeping;
use symex_report::{ArgValue, Args};
use symex_smt::{Node, TermId, TermStore};

use crate::forward::value::SymValue;
use crate::heap::context::{HeapContext, SlotKind, TypeKey};
use crate::heap::objects::{HeapState, Slot};

/// The entry's arguments and the input-heap document.
#[derive(Clone, Debug, PartialEq)]
pub struct HeapWitness {
    pub args: Args,
    pub heap: Json,
}

struct Builder<'a> {
    ctx: &'a mut HeapContext,
    store: &'a TermStore,
    heap: &'a HeapState,
    model: &'a dyn Fn(TermId) -> Option<i32>,
    /// Address, document id, cell content (a record's fields or one value).
    objects: Vec<(i32, String, Cell)>,
}

enum Cell {
    Record(Vec<(String, Json)>),
    Value(Json),
}

impl HeapContext {
    /// The symbols whose values a witness needs.
    pub fn model_vars(
        &self,
        store: &TermStore,
        heap: &HeapState,
        args: &[SymValue],
    ) -> Vec<TermId> {
        let mut vars: Vec<TermId> = Vec::new();
        let mut add = |t: TermId| {
            if !vars.contains(&t) {
                vars.push(t);
            }
        };
        for arg in args {
            if let SymValue::Int(t) | SymValue::Ref(t) = arg {
                add(*t);
            }
        }
        for object in &heap.objects {
            add(object.ident);
        }
        for (_, _, initial) in &heap.initial {
            if let SymValue::Int(t) | SymValue::Ref(t) = initial {
                add(*t);
            }
        }
        vars.retain(|&t| store.var_id(t).is_some());
        vars
    }

    /// The witness for arguments `args` (parameter name and initial value) under a model.
    pub fn witness(
        &mut self,
        store: &TermStore,
        heap: &HeapState,
        args: &[(String, SymValue)],
        model: &dyn Fn(TermId) -> Option<i32>,
    ) -> HeapWitness {
        let mut b = Builder {
            ctx: self,
            store,
            heap,
            model,
            objects: Vec::new(),
        };
        for object in &heap.objects {
            let address = b.address(object.ident);
            if address != 0 {
                b.object(address, object.pointee);
            }
        }
        let mut filled: Vec<(i32, Slot)> = Vec::new();
        for (index, slot, initial) in &heap.initial {
            let object = &heap.objects[*index];
            let address = b.address(object.ident);
            if address == 0 || filled.contains(&(address, *slot)) {
                continue;
            }
            filled.push((address, *slot));
            let kind = b.ctx.slot_kind(object.pointee, *slot);
            let value = b.json_value(initial, kind);
            b.set(address, *slot, value);
        }
        let mut out_args = Args::new();
        let mut doc_args = Map::new();
        for (name, value) in args {
            let arg = match value {
                SymValue::Ref(t) => {
                    let pointee = b.ctx.input_symbol(*t).map(|s| s.pointee);
                    let address = b.address(*t);
                    match (address, pointee) {
                        (0, _) | (_, None) => ArgValue::Null,
                        (a, Some(p)) => ArgValue::Ref {
                            object: b.object(a, p),
                        },
                    }
                }
                SymValue::Int(t) => ArgValue::Int(b.number(*t).into()),
                _ => ArgValue::Null,
            };
            doc_args.insert(name.clone(), arg_json(&arg));
            out_args.push(name.clone(), arg);
        }
        let mut objects = Map::new();
        for (_, id, cell) in b.objects {
            let content = match cell {
                Cell::Record(fields) => {
                    let fields = fields
                        .into_iter()
                        .filter(|(name, v)| !bookkeeping_at_input(name, v));
                    json!({ "record": fields.collect::<Map<_, _>>() })
                }
                Cell::Value(v) => json!({ "value": v }),
            };
            objects.insert(id, content);
        }
        HeapWitness {
            args: out_args,
            heap: json!({ "args": doc_args, "objects": objects }),
        }
    }
}

fn arg_json(arg: &ArgValue) -> Json {
    match arg {
        ArgValue::Int(n) => json!(n),
        ArgValue::Ref { object } => json!({ "ref": object }),
        _ => Json::Null,
    }
}

impl Builder<'_> {
    /// A term's value: constants as they are, resolved symbols through their resolution,
    /// others from the model (0 when it has none).
    fn number(&self, t: TermId) -> i32 {
        let mut t = t;
        while let Some(v) = self.heap.resolution(t) {
            if v == t {
                break;
            }
            t = v;
        }
        if let Node::Bv(bv) = self.store.node(t) {
            return bv.bits() as u32 as i32;
        }
        (self.model)(t).unwrap_or(0)
    }

    fn address(&self, t: TermId) -> i32 {
        self.number(t)
    }

    /// The document id of the object at `address`, made with the default content of
    /// `pointee` if new.
    fn object(&mut self, address: i32, pointee: TypeKey) -> String {
        if let Some((_, id, cell)) = self.objects.iter_mut().find(|(a, _, _)| *a == address) {
            if let Cell::Record(fields) = cell {
                for f in self.ctx.fields(pointee) {
                    let name = self.ctx.field_name(f).to_string();
                    if !fields.iter().any(|(n, _)| *n == name) {
                        let default = default_json(&name, self.ctx.slot_kind(pointee, Some(f)));
                        fields.push((name, default));
                    }
                }
            }
            return id.clone();
        }
        let id = format!("o{}", self.objects.len() + 1);
        let cell = if self.ctx.is_record(pointee) {
            let fields = self
                .ctx
                .fields(pointee)
                .into_iter()
                .map(|f| {
                    let name = self.ctx.field_name(f).to_string();
                    let default = default_json(&name, self.ctx.slot_kind(pointee, Some(f)));
                    (name, default)
                })
                .collect();
            Cell::Record(fields)
        } else if matches!(
            self.ctx.type_of(pointee).unfold().as_ref(),
            symex_syntax::types::Type::Var(_) | symex_syntax::types::Type::Unknown
        ) {
            Cell::Record(Vec::new())
        } else {
            Cell::Value(default_json("", self.ctx.slot_kind(pointee, None)))
        };
        self.objects.push((address, id.clone(), cell));
        id
    }

    fn set(&mut self, address: i32, slot: Slot, value: Json) {
        let name = slot.map(|f| self.ctx.field_name(f).to_string());
        let Some((_, _, cell)) = self.objects.iter_mut().find(|(a, _, _)| *a == address) else {
            return;
        };
        match (cell, name) {
            (Cell::Record(fields), Some(name)) => {
                match fields.iter_mut().find(|(n, _)| *n == name) {
                    Some(entry) => entry.1 = value,
                    None => fields.push((name, value)),
                }
            }
            (cell @ Cell::Value(_), None) => *cell = Cell::Value(value),
            (cell @ Cell::Record(_), None) => *cell = Cell::Value(value),
            (Cell::Value(_), Some(_)) => {}
        }
    }

    fn json_value(&mut self, initial: &SymValue, kind: SlotKind) -> Json {
        match (initial, kind) {
            (SymValue::Int(t), _) => json!(self.number(*t)),
            (SymValue::Ref(t), SlotKind::Pointer(pointee)) => match self.address(*t) {
                0 => Json::Null,
                a => json!({ "ref": self.object(a, pointee) }),
            },
            _ => Json::Null,
        }
    }
}

/// The content of a slot nothing read: 0 or null, and a bookkeeping field's input value.
fn default_json(name: &str, kind: SlotKind) -> Json {
    match kind {
        SlotKind::Int => json!(input_bookkeeping(name).unwrap_or(0)),
        SlotKind::Pointer(_) => Json::Null,
    }
}

/// Whether a record's field `name` is a front end's bookkeeping field holding its input value
/// (`symex_ir::cfg::input_bookkeeping`): documents leave it out, and reading one fills it in
/// (`docs/heap-json.md`), so that witnesses show only the program's own fields.
pub fn bookkeeping_at_input(name: &str, value: &serde_json::Value) -> bool {
    input_bookkeeping(name).is_some_and(|v| value.as_i64() == Some(i64::from(v)))
}
