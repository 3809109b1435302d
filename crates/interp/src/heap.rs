//! Input heaps: the JSON form of an entry function's arguments and of the heap cells they point
//! into (`docs/heap-json.md`), checked against a module, and loaded into a run's memory.
//!
//! Parsing has two phases. First serde reads the document's *shape*: malformed JSON, a value of
//! the wrong kind and duplicate keys are rejected with serde_json's message (line and column).
//! Then the names are resolved against the module and the entry function: parameters, field
//! names, object ids, and every number is checked against the 32-bit range; each of these errors
//! names the arg, object or field at fault. An [`InputHeap`] is consistent by construction (every
//! reference inside it names one of its objects, record fields are sorted by [`FieldId`]).
//!
//! This module never executes anything and never looks at the program's static types: the
//! interpreter is dynamically typed, so a number given for a pointer parameter is accepted here
//! and becomes a runtime type error only if the run actually misuses it.

use std::collections::HashMap;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, Visitor};
use symex_ir::cfg::{
    input_bookkeeping, FieldId, Function, Module, ASSIGNED_FLAG_SUFFIX, HEAP_STATE_FIELD,
    SCALAR_OBJECT_FIELDS,
};

use crate::entry::ArgValue;
use crate::fault::Fault;
use crate::memory::Memory;
use crate::value::{CellId, Value};

/// An object of an [`InputHeap`]: its position in the heap, whose objects are sorted by their
/// ids in the document (byte-wise), whatever the document's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjectId(pub u32);

impl ObjectId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The objects an entry's pointer arguments point into; each becomes one memory cell when a run
/// starts. Built only by parsing (see [`crate::Entry::with_heap_json`]); empty for entries
/// without one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InputHeap {
    objects: Vec<HeapObject>,
}

/// One heap cell of the input: its id in the JSON document and what it holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeapObject {
    name: String,
    contents: HeapContents,
}

/// What an input heap cell holds. References ([`ArgValue::Ref`]) name objects of the same heap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HeapContents {
    /// A record; fields sorted by [`FieldId`], no duplicates.
    Record(Vec<(FieldId, ArgValue)>),
    /// A plain value: the target of a pointer to a number or to a pointer.
    Value(ArgValue),
}

impl InputHeap {
    /// The objects sorted by id: `ObjectId(i)` is `objects()[i]`.
    pub fn objects(&self) -> &[HeapObject] {
        &self.objects
    }

    pub fn len(&self) -> usize {
        self.objects.len()
    }

    pub fn is_empty(&self) -> bool {
        self.objects.is_empty()
    }

    /// The object with id `name` in the JSON document.
    pub fn find(&self, name: &str) -> Option<ObjectId> {
        self.objects
            .iter()
            .position(|o| o.name == name)
            .and_then(|i| u32::try_from(i).ok())
            .map(ObjectId)
    }

    /// Allocates one fresh cell per object (in object order), fills them, and returns the cell
    /// of every object (`cells[i]` holds `ObjectId(i)`). Fails only on the run's cell limit.
    pub(crate) fn load(&self, memory: &mut Memory) -> Result<Vec<CellId>, Fault> {
        let cells = self
            .objects
            .iter()
            .map(|_| memory.alloc(Value::Uninit))
            .collect::<Result<Vec<CellId>, Fault>>()?;
        for (object, &cell) in self.objects.iter().zip(&cells) {
            let value = match &object.contents {
                HeapContents::Value(v) => v.to_value(&cells)?,
                HeapContents::Record(fields) => Value::record(
                    fields
                        .iter()
                        .map(|(f, v)| Ok((*f, v.to_value(&cells)?)))
                        .collect::<Result<Vec<_>, Fault>>()?,
                ),
            };
            *memory.get_mut(cell)? = value;
        }
        Ok(cells)
    }
}

impl HeapObject {
    /// The object's id in the JSON document.
    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn contents(&self) -> &HeapContents {
        &self.contents
    }
}

/// Where in the document a value sits, for error messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HeapSite {
    /// The value of parameter `.0` in `args`.
    Arg(String),
    /// Field `field` of the record object `object`.
    Field { object: String, field: String },
    /// The `value` of the plain object `.0`.
    Value(String),
}

impl fmt::Display for HeapSite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeapSite::Arg(name) => write!(f, "arg `{name}`"),
            HeapSite::Field { object, field } => write!(f, "object `{object}`, field `{field}`"),
            HeapSite::Value(object) => write!(f, "object `{object}`, value"),
        }
    }
}

/// Why a heap document was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HeapError {
    /// No entry function of that name.
    UnknownFunction(String),
    /// Not JSON, or not the document's shape: serde_json's message, with line and column.
    Malformed(String),
    /// `args` has no value for a parameter.
    MissingArg { function: String, param: String },
    /// `args` names something that is not a parameter.
    UnknownArg {
        function: String,
        name: String,
        params: Vec<String>,
    },
    /// A record field that no record of the program has.
    UnknownField { object: String, field: String },
    /// A reference to an object id that `objects` does not define.
    UnknownRef { at: HeapSite, target: String },
    /// A number that is not an integer in `i32` range (as written in the document).
    NotAnInt32 { at: HeapSite, number: String },
}

impl fmt::Display for HeapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeapError::UnknownFunction(name) => write!(f, "no function named `{name}`"),
            HeapError::Malformed(message) => write!(f, "malformed heap JSON: {message}"),
            HeapError::MissingArg { function, param } => {
                write!(f, "args: no value for parameter `{param}` of `{function}`")
            }
            HeapError::UnknownArg {
                function,
                name,
                params,
            } => {
                write!(f, "args: `{name}` is not a parameter of `{function}` ")?;
                if params.is_empty() {
                    write!(f, "(it has none)")
                } else {
                    write!(f, "(its parameters: {})", params.join(", "))
                }
            }
            HeapError::UnknownField { object, field } => write!(
                f,
                "object `{object}`: no record in the program has a field `{field}`"
            ),
            HeapError::UnknownRef { at, target } => write!(
                f,
                "{at}: reference to object `{target}`, which `objects` does not define"
            ),
            HeapError::NotAnInt32 { at, number } => write!(
                f,
                "{at}: {number} is not a 32-bit integer (from {} to {})",
                i32::MIN,
                i32::MAX
            ),
        }
    }
}

impl std::error::Error for HeapError {}

/// The arguments of `function` and the heap they point into, from a JSON document.
pub(crate) fn parse_str(
    module: &Module,
    function: &Function,
    json: &str,
) -> Result<(Vec<ArgValue>, InputHeap), HeapError> {
    let doc: RawDoc =
        serde_json::from_str(json).map_err(|e| HeapError::Malformed(e.to_string()))?;
    resolve(module, function, doc)
}

/// As [`parse_str`], from an already parsed JSON value (e.g. a witness's `heap`). Duplicate
/// keys cannot be detected here: parsing into a `serde_json::Value` already dropped them.
pub(crate) fn parse_value(
    module: &Module,
    function: &Function,
    json: &serde_json::Value,
) -> Result<(Vec<ArgValue>, InputHeap), HeapError> {
    let doc = RawDoc::deserialize(json).map_err(|e| HeapError::Malformed(e.to_string()))?;
    resolve(module, function, doc)
}

// ---- Phase 1: the document's shape. ----

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDoc {
    args: Entries<RawValue>,
    #[serde(default)]
    objects: Entries<RawObject>,
}

/// A JSON object read in document order, with duplicate keys rejected.
struct Entries<T>(Vec<(String, T)>);

impl<T> Default for Entries<T> {
    fn default() -> Entries<T> {
        Entries(Vec::new())
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Entries<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Entries<T>, D::Error> {
        struct EntriesVisitor<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for EntriesVisitor<T> {
            type Value = Entries<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Entries<T>, A::Error> {
                let mut entries: Vec<(String, T)> = Vec::new();
                while let Some(key) = map.next_key::<String>()? {
                    if entries.iter().any(|(k, _)| *k == key) {
                        return Err(de::Error::custom(format!("duplicate key `{key}`")));
                    }
                    let value = map.next_value::<T>()?;
                    entries.push((key, value));
                }
                Ok(Entries(entries))
            }
        }
        deserializer.deserialize_map(EntriesVisitor(std::marker::PhantomData))
    }
}

/// A value as written: numbers keep their written form until the range check.
enum RawValue {
    Int(i128),
    Float(f64),
    Null,
    Ref(String),
}

const VALUE_EXPECTED: &str = r#"a number, null or {"ref": "<object id>"}"#;

impl<'de> Deserialize<'de> for RawValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<RawValue, D::Error> {
        struct ValueVisitor;
        impl<'de> Visitor<'de> for ValueVisitor {
            type Value = RawValue;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(VALUE_EXPECTED)
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<RawValue, E> {
                Ok(RawValue::Int(v.into()))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<RawValue, E> {
                Ok(RawValue::Int(v.into()))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<RawValue, E> {
                Ok(RawValue::Float(v))
            }
            fn visit_unit<E: de::Error>(self) -> Result<RawValue, E> {
                Ok(RawValue::Null)
            }
            fn visit_none<E: de::Error>(self) -> Result<RawValue, E> {
                Ok(RawValue::Null)
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawValue, A::Error> {
                let mut target = None;
                while let Some(key) = map.next_key::<String>()? {
                    if key != "ref" || target.is_some() {
                        return Err(de::Error::custom(format!(
                            "expected {VALUE_EXPECTED}, found an object with key `{key}`"
                        )));
                    }
                    target = Some(map.next_value::<String>()?);
                }
                target.map(RawValue::Ref).ok_or_else(|| {
                    de::Error::custom(format!("expected {VALUE_EXPECTED}, found an empty object"))
                })
            }
        }
        deserializer.deserialize_any(ValueVisitor)
    }
}

enum RawObject {
    Record(Entries<RawValue>),
    Value(RawValue),
}

const OBJECT_EXPECTED: &str = r#"{"record": {...}} or {"value": ...}"#;

impl<'de> Deserialize<'de> for RawObject {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<RawObject, D::Error> {
        struct ObjectVisitor;
        impl<'de> Visitor<'de> for ObjectVisitor {
            type Value = RawObject;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "an object {OBJECT_EXPECTED}")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawObject, A::Error> {
                let mut object = None;
                while let Some(key) = map.next_key::<String>()? {
                    if object.is_some() {
                        return Err(de::Error::custom(format!(
                            "an object is {OBJECT_EXPECTED}, found a second key `{key}`"
                        )));
                    }
                    object = Some(match key.as_str() {
                        "record" => RawObject::Record(map.next_value()?),
                        "value" => RawObject::Value(map.next_value()?),
                        _ => {
                            return Err(de::Error::custom(format!(
                                "an object is {OBJECT_EXPECTED}, found key `{key}`"
                            )))
                        }
                    });
                }
                object.ok_or_else(|| {
                    de::Error::custom(format!("an object is {OBJECT_EXPECTED}, found {{}}"))
                })
            }
        }
        deserializer.deserialize_map(ObjectVisitor)
    }
}

// ---- Phase 2: names and numbers. ----

/// The bookkeeping fields a document may leave out (witnesses do: `docs/heap-json.md`), with
/// their input values: a C member's assigned flag `m#assigned` beside `m`, a scalar object's
/// `#assigned` beside its `value` alone, and the heap state `#heap` where the program has one.
fn add_bookkeeping(
    record: &mut Vec<(FieldId, ArgValue)>,
    ids: &HashMap<&str, FieldId>,
    names: &[String],
) {
    let given: Vec<&str> = (record.iter())
        .filter_map(|(id, _)| names.get(id.index()).map(String::as_str))
        .collect();
    let scalar = given == [SCALAR_OBJECT_FIELDS[0]];
    let mut missing: Vec<String> = (given.iter())
        .filter(|name| input_bookkeeping(name).is_none())
        .map(|name| format!("{name}{ASSIGNED_FLAG_SUFFIX}"))
        .collect();
    missing.push(HEAP_STATE_FIELD.to_string());
    if scalar {
        missing.push(SCALAR_OBJECT_FIELDS[1].to_string());
    }
    for name in missing {
        let (Some(&id), Some(value)) = (ids.get(name.as_str()), input_bookkeeping(&name)) else {
            continue;
        };
        if !record.iter().any(|(given, _)| *given == id) {
            record.push((id, ArgValue::Int(value)));
        }
    }
}

fn resolve(
    module: &Module,
    function: &Function,
    doc: RawDoc,
) -> Result<(Vec<ArgValue>, InputHeap), HeapError> {
    // Canonical order: by id, so that the heap does not depend on the document's key order.
    let mut raw_objects = doc.objects.0;
    raw_objects.sort_by(|(a, _), (b, _)| a.cmp(b));
    let ids: HashMap<&str, ObjectId> = raw_objects
        .iter()
        .zip(0u32..)
        .map(|((name, _), i)| (name.as_str(), ObjectId(i)))
        .collect();
    let value = |raw: &RawValue, at: &dyn Fn() -> HeapSite| -> Result<ArgValue, HeapError> {
        match raw {
            RawValue::Int(n) => {
                i32::try_from(*n)
                    .map(ArgValue::Int)
                    .map_err(|_| HeapError::NotAnInt32 {
                        at: at(),
                        number: n.to_string(),
                    })
            }
            // Debug keeps the fraction (`1000.0` for `1e3`), so the message shows why.
            RawValue::Float(x) => Err(HeapError::NotAnInt32 {
                at: at(),
                number: format!("{x:?}"),
            }),
            RawValue::Null => Ok(ArgValue::Null),
            RawValue::Ref(target) => ids
                .get(target.as_str())
                .map(|&id| ArgValue::Ref(id))
                .ok_or_else(|| HeapError::UnknownRef {
                    at: at(),
                    target: target.clone(),
                }),
        }
    };

    let params: Vec<&str> = function
        .params()
        .filter_map(|p| function.locals.get(p.index()))
        .map(|l| l.name.as_str())
        .collect();
    if let Some((name, _)) = doc
        .args
        .0
        .iter()
        .find(|(n, _)| !params.contains(&n.as_str()))
    {
        return Err(HeapError::UnknownArg {
            function: function.name.clone(),
            name: name.clone(),
            params: params.iter().map(|p| p.to_string()).collect(),
        });
    }
    let args = params
        .iter()
        .map(|&param| {
            let (_, raw) = doc.args.0.iter().find(|(n, _)| n == param).ok_or_else(|| {
                HeapError::MissingArg {
                    function: function.name.clone(),
                    param: param.to_string(),
                }
            })?;
            // A parameter of 64 bits takes any 64-bit number.
            let wide = (function.params())
                .map(|p| &function.locals[p.index()])
                .any(|l| l.name == param && l.width == symex_ir::cfg::Width::W64);
            match raw {
                RawValue::Int(n) if wide => {
                    i64::try_from(*n)
                        .map(ArgValue::Int64)
                        .map_err(|_| HeapError::NotAnInt32 {
                            at: HeapSite::Arg(param.to_string()),
                            number: n.to_string(),
                        })
                }
                _ => value(raw, &|| HeapSite::Arg(param.to_string())),
            }
        })
        .collect::<Result<Vec<ArgValue>, HeapError>>()?;

    let fields: HashMap<&str, FieldId> = module
        .fields
        .iter()
        .zip(0u32..)
        .map(|(name, i)| (name.as_str(), FieldId(i)))
        .collect();
    let objects = raw_objects
        .iter()
        .map(|(name, raw)| {
            let contents = match raw {
                RawObject::Value(v) => {
                    HeapContents::Value(value(v, &|| HeapSite::Value(name.clone()))?)
                }
                RawObject::Record(raw_fields) => {
                    let mut record = raw_fields
                        .0
                        .iter()
                        .map(|(field, v)| {
                            let id = *fields.get(field.as_str()).ok_or_else(|| {
                                HeapError::UnknownField {
                                    object: name.clone(),
                                    field: field.clone(),
                                }
                            })?;
                            let site = || HeapSite::Field {
                                object: name.clone(),
                                field: field.clone(),
                            };
                            Ok((id, value(v, &site)?))
                        })
                        .collect::<Result<Vec<(FieldId, ArgValue)>, HeapError>>()?;
                    add_bookkeeping(&mut record, &fields, &module.fields);
                    record.sort_by_key(|(id, _)| *id);
                    HeapContents::Record(record)
                }
            };
            Ok(HeapObject {
                name: name.clone(),
                contents,
            })
        })
        .collect::<Result<Vec<HeapObject>, HeapError>>()?;
    Ok((args, InputHeap { objects }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Entry, Interpreter, RunConfig, RunEnd};
    use symex_ir::cfg::PropertyKind;

    const PROGRAM: &str = "
        length(l) {
          var n;
          n = 0;
          while (l != null && n < 10) { l = l->next; n = n + 1; }
          return n;
        }
        sum(l) {
          var s;
          s = 0;
          while (l != null) { s = s + l->val; l = l->next; }
          return s;
        }
        alias(p, q) { p->val = 7; return q->val + 10 * (p == q); }
        second(l) { return l->next->val; }
        add(a, b) { return a + b; }
        deref2(pp) { return **pp; }
        main() { var r; r = alloc {val: 0, next: null}; return length(r); }
    ";

    fn module() -> Module {
        let front = symex_syntax::analyze(PROGRAM).expect("the test program is valid");
        symex_ir::lower(&front.program)
    }

    fn entry(m: &Module, name: &str, json: &str) -> Result<Entry, HeapError> {
        Entry::with_heap_json(m, name, json)
    }

    fn run_end(name: &str, json: &str) -> RunEnd {
        let m = module();
        let entry = entry(&m, name, json).expect("a valid heap");
        let interp = Interpreter::new(&m).expect("a valid module");
        interp.run(&entry, &[], &RunConfig::default()).unwrap().end
    }

    fn returned(name: &str, json: &str) -> i32 {
        let end = run_end(name, json);
        end.returned_int()
            .unwrap_or_else(|| panic!("expected a number, got {end:?}"))
    }

    fn error(name: &str, json: &str) -> HeapError {
        entry(&module(), name, json).expect_err("an invalid heap")
    }

    const LIST: &str = r#"{
        "args": {"l": {"ref": "a"}},
        "objects": {
            "c": {"record": {"next": null, "val": 4}},
            "a": {"record": {"val": 1, "next": {"ref": "b"}}},
            "b": {"record": {"val": 2, "next": {"ref": "c"}}}
        }
    }"#;

    #[test]
    fn a_three_node_list() {
        assert_eq!(returned("length", LIST), 3);
        assert_eq!(returned("sum", LIST), 7);
        let m = module();
        let e = entry(&m, "length", LIST).unwrap();
        assert_eq!(e.heap.len(), 3);
        let a = e.heap.find("a").unwrap();
        assert_eq!(e.args, vec![ArgValue::Ref(a)]);
        let b = e.heap.find("b").unwrap();
        let HeapContents::Record(fields) = e.heap.objects()[a.index()].contents() else {
            panic!("a record");
        };
        let names: Vec<&str> = fields
            .iter()
            .map(|(f, _)| m.fields[f.index()].as_str())
            .collect();
        let mut sorted = fields.iter().map(|(f, _)| *f).collect::<Vec<_>>();
        sorted.sort();
        assert_eq!(fields.iter().map(|(f, _)| *f).collect::<Vec<_>>(), sorted);
        assert!(names.contains(&"val") && names.contains(&"next"));
        assert!(fields.contains(&(
            FieldId(m.fields.iter().position(|f| f == "next").unwrap() as u32),
            ArgValue::Ref(b)
        )));
    }

    #[test]
    fn object_order_does_not_matter() {
        let reordered = r#"{"objects": {
            "b": {"record": {"val": 2, "next": {"ref": "c"}}},
            "c": {"record": {"val": 4, "next": null}},
            "a": {"record": {"next": {"ref": "b"}, "val": 1}}
        }, "args": {"l": {"ref": "a"}}}"#;
        assert_eq!(returned("sum", reordered), returned("sum", LIST));
        let m = module();
        assert_eq!(entry(&m, "sum", reordered), entry(&m, "sum", LIST));
        let e = entry(&m, "sum", reordered).unwrap();
        let names: Vec<&str> = e.heap.objects().iter().map(|o| o.name()).collect();
        assert_eq!(names, ["a", "b", "c"]);
    }

    #[test]
    fn a_cycle() {
        let cycle = r#"{"args": {"l": {"ref": "x"}}, "objects": {
            "x": {"record": {"val": 1, "next": {"ref": "y"}}},
            "y": {"record": {"val": 2, "next": {"ref": "x"}}}
        }}"#;
        assert_eq!(returned("length", cycle), 10);
        let self_loop = r#"{"args": {"l": {"ref": "x"}}, "objects": {
            "x": {"record": {"val": 1, "next": {"ref": "x"}}}
        }}"#;
        assert_eq!(returned("length", self_loop), 10);
    }

    #[test]
    fn two_parameters_aliasing_one_object() {
        let aliased = r#"{"args": {"p": {"ref": "o"}, "q": {"ref": "o"}},
            "objects": {"o": {"record": {"val": 1, "next": null}}}}"#;
        assert_eq!(returned("alias", aliased), 17);
        let distinct = r#"{"args": {"p": {"ref": "o"}, "q": {"ref": "r"}},
            "objects": {"o": {"record": {"val": 1, "next": null}},
                        "r": {"record": {"val": 2, "next": null}}}}"#;
        assert_eq!(returned("alias", distinct), 2);
    }

    #[test]
    fn null_arguments_and_null_fields() {
        assert_eq!(returned("length", r#"{"args": {"l": null}}"#), 0);
        let one = r#"{"args": {"l": {"ref": "a"}},
            "objects": {"a": {"record": {"val": 1, "next": null}}}}"#;
        let end = run_end("second", one);
        assert_eq!(end.error_kind(), Some(PropertyKind::NullDeref), "{end:?}");
    }

    #[test]
    fn plain_value_objects() {
        let json = r#"{"args": {"pp": {"ref": "p"}},
            "objects": {"p": {"value": {"ref": "n"}}, "n": {"value": 42}}}"#;
        assert_eq!(returned("deref2", json), 42);
        let end = run_end(
            "deref2",
            r#"{"args": {"pp": {"ref": "p"}}, "objects": {"p": {"value": null}}}"#,
        );
        assert_eq!(end.error_kind(), Some(PropertyKind::NullDeref), "{end:?}");
    }

    #[test]
    fn integers() {
        assert_eq!(returned("add", r#"{"args": {"a": 2, "b": -5}}"#), -3);
        assert_eq!(
            returned("add", r#"{"args": {"a": -2147483648, "b": 2147483647}}"#),
            -1
        );
        for (number, written) in [
            ("2147483648", "2147483648"),
            ("-2147483649", "-2147483649"),
            ("18446744073709551615", "18446744073709551615"),
            ("1.5", "1.5"),
            ("1e3", "1000.0"),
            ("-0", "-0.0"),
        ] {
            let json = format!(r#"{{"args": {{"a": 1, "b": {number}}}}}"#);
            assert_eq!(
                error("add", &json),
                HeapError::NotAnInt32 {
                    at: HeapSite::Arg("b".into()),
                    number: written.into()
                }
            );
        }
        let json = r#"{"args": {"l": {"ref": "a"}},
            "objects": {"a": {"record": {"val": 4294967296, "next": null}}}}"#;
        let e = error("sum", json);
        assert_eq!(
            e.to_string(),
            "object `a`, field `val`: 4294967296 is not a 32-bit integer \
             (from -2147483648 to 2147483647)"
        );
    }

    #[test]
    fn bad_references_are_located() {
        assert_eq!(
            error("length", r#"{"args": {"l": {"ref": "nowhere"}}}"#),
            HeapError::UnknownRef {
                at: HeapSite::Arg("l".into()),
                target: "nowhere".into()
            }
        );
        let json = r#"{"args": {"l": {"ref": "a"}},
            "objects": {"a": {"record": {"val": 1, "next": {"ref": "b"}}}}}"#;
        let e = error("length", json);
        assert_eq!(
            e,
            HeapError::UnknownRef {
                at: HeapSite::Field {
                    object: "a".into(),
                    field: "next".into()
                },
                target: "b".into()
            }
        );
        assert_eq!(
            e.to_string(),
            "object `a`, field `next`: reference to object `b`, which `objects` does not define"
        );
        let json = r#"{"args": {"pp": {"ref": "p"}}, "objects": {"p": {"value": {"ref": "q"}}}}"#;
        assert_eq!(
            error("deref2", json).to_string(),
            "object `p`, value: reference to object `q`, which `objects` does not define"
        );
    }

    #[test]
    fn bad_field_names() {
        let json = r#"{"args": {"l": {"ref": "a"}},
            "objects": {"a": {"record": {"val": 1, "nxet": null}}}}"#;
        let e = error("length", json);
        assert_eq!(
            e,
            HeapError::UnknownField {
                object: "a".into(),
                field: "nxet".into()
            }
        );
        assert_eq!(
            e.to_string(),
            "object `a`: no record in the program has a field `nxet`"
        );
    }

    #[test]
    fn missing_and_unknown_parameters() {
        assert_eq!(
            error("add", r#"{"args": {"a": 1}}"#).to_string(),
            "args: no value for parameter `b` of `add`"
        );
        assert_eq!(
            error("add", r#"{"args": {"a": 1, "b": 2, "c": 3}}"#).to_string(),
            "args: `c` is not a parameter of `add` (its parameters: a, b)"
        );
        assert_eq!(
            error("main", r#"{"args": {"x": 1}}"#).to_string(),
            "args: `x` is not a parameter of `main` (it has none)"
        );
        assert_eq!(
            error("nope", r#"{"args": {}}"#),
            HeapError::UnknownFunction("nope".into())
        );
    }

    #[test]
    fn malformed_documents_name_the_problem_and_position() {
        let cases = [
            (r#"{"args": {"a": 1, "b": 2}"#, "EOF while parsing"),
            (r#"{"args": {"a": 1, "b": "2"}}"#, "invalid type: string"),
            (r#"{"args": {"a": 1, "a": 2}}"#, "duplicate key `a`"),
            (r#"{"objects": {}}"#, "missing field `args`"),
            (r#"{"args": {}, "heap": {}}"#, "unknown field `heap`"),
            (
                r#"{"args": {"a": {"ptr": "o"}, "b": 1}}"#,
                "found an object with key `ptr`",
            ),
            (r#"{"args": {"a": {}, "b": 1}}"#, "found an empty object"),
            (
                r#"{"args": {"a": 1, "b": 1}, "objects": {"o": {"value": 1, "record": {}}}}"#,
                "found a second key `record`",
            ),
            (
                r#"{"args": {"a": 1, "b": 1}, "objects": {"o": {"cell": 1}}}"#,
                "found key `cell`",
            ),
            (
                r#"{"args": {"a": 1, "b": 1}, "objects": {"o": {}}}"#,
                "found {}",
            ),
            (
                r#"{"args": {"a": 1, "b": 1}, "objects": {"o": {"value": 1}, "o": {"value": 2}}}"#,
                "duplicate key `o`",
            ),
        ];
        for (json, expected) in cases {
            let e = error("add", json);
            let HeapError::Malformed(message) = &e else {
                panic!("{json}: expected a malformed document, got {e:?}");
            };
            assert!(message.contains(expected), "{json}: {message}");
            assert!(message.contains("line 1 column"), "{json}: {message}");
            assert!(e.to_string().starts_with("malformed heap JSON: "));
        }
    }

    #[test]
    fn from_a_parsed_json_value() {
        let m = module();
        let value: serde_json::Value = serde_json::from_str(LIST).unwrap();
        let e = Entry::with_heap_value(&m, "length", &value).unwrap();
        assert_eq!(e, entry(&m, "length", LIST).unwrap());
        let bad = serde_json::json!({"args": {"l": true}});
        assert!(matches!(
            Entry::with_heap_value(&m, "length", &bad),
            Err(HeapError::Malformed(_))
        ));
    }

    #[test]
    fn heap_cells_count_against_the_cell_limit() {
        let m = module();
        let e = entry(&m, "length", LIST).unwrap();
        let interp = Interpreter::new(&m).unwrap();
        let config = RunConfig {
            max_cells: 2,
            ..RunConfig::default()
        };
        let end = interp.run(&e, &[], &config).unwrap().end;
        assert!(matches!(end, RunEnd::LimitExceeded { .. }), "{end:?}");
    }

    #[test]
    fn int_entries_are_unchanged() {
        let m = module();
        let by_args = Entry::new(&m, "add", vec![ArgValue::Int(3), ArgValue::Int(4)]).unwrap();
        let by_heap = entry(&m, "add", r#"{"args": {"b": 4, "a": 3}}"#).unwrap();
        assert_eq!(by_args, by_heap);
    }
}
