//! A run's events as a counterexample's trace steps: the interpreter's ids become the names a
//! reader knows. Variables by their source names, record fields by theirs, and memory cells as
//! the witness names heap objects: an input heap's objects by their ids in the heap document,
//! every cell `alloc` makes as the next free `o1`, `o2`, ..., and the cell of an address-taken
//! variable by the variable's name.
//!
//! Fields whose names hold a `#` are bookkeeping of a front end (the C front end's `#heap`
//! state and `#assigned` flags), never shown, except that an object's heap state set to freed
//! is shown as its `free`. Nothing here runs or judges a program.

use rustc_hash::{FxHashMap, FxHashSet};
use symex_interp::{Access, CellId, EventKind, InputHeap, RunEvent, StoreTarget, Value};
use symex_ir::cfg::{FuncId, BOOKKEEPING_MARK, HEAP_FREED, HEAP_STATE_FIELD};
use symex_report::{ArgValue, Event, Fields, Locator, TraceStep, Uninit};

/// Turns the events of one run, in order, into trace steps.
pub struct StepNamer<'l, 'm> {
    locator: &'l Locator<'m>,
    names: FxHashMap<CellId, String>,
    taken: FxHashSet<String>,
    next_object: u32,
}

impl<'l, 'm> StepNamer<'l, 'm> {
    /// A namer for a run whose first cells hold `heap`'s objects, in its order (how a run
    /// loads an input heap).
    pub fn new(locator: &'l Locator<'m>, heap: &InputHeap) -> StepNamer<'l, 'm> {
        let mut namer = StepNamer {
            locator,
            names: FxHashMap::default(),
            taken: FxHashSet::default(),
            next_object: 1,
        };
        for (index, object) in heap.objects().iter().enumerate() {
            namer.name(CellId(index as u32), object.name().to_string());
        }
        namer
    }

    /// The step of `event`; `None` for an event that names a cell and shows nothing, or that
    /// writes only bookkeeping.
    pub fn step(&mut self, event: &RunEvent) -> Option<TraceStep> {
        let locator = self.locator;
        let event_of = match &event.kind {
            EventKind::Branch { condition } => Event::Branch {
                condition: *condition,
            },
            EventKind::Call { callee, args } => Event::Call {
                callee: locator.function_name(*callee).to_string(),
                args: args.iter().map(|a| self.value(a)).collect(),
            },
            EventKind::Return { value } => Event::Return {
                value: self.value(value),
            },
            EventKind::Assign { var, value } => Event::Assign {
                var: locator.local_name(event.func, *var).to_string(),
                value: self.value(value),
            },
            EventKind::Input { index, value } => Event::Input {
                index: *index,
                value: *value,
            },
            EventKind::Alloc { cell, value } => {
                let object = self.fresh_object(*cell);
                Event::Alloc {
                    object,
                    value: self.value(value),
                }
            }
            EventKind::LocalCell { var, cell } => {
                let name = locator.local_name(event.func, *var);
                self.name_variable(*cell, name);
                return None;
            }
            EventKind::Store {
                target: StoreTarget::Cell(cell),
                path,
                value: Value::Int(HEAP_FREED),
            } if self.is_heap_state(path) => Event::Free {
                object: self.cell_name(*cell),
            },
            EventKind::Store {
                target,
                path,
                value,
            } => Event::Store {
                target: self.target(event.func, *target, path)?,
                value: self.value(value),
            },
        };
        Some(locator.step(event.func, event.span, event_of))
    }

    /// Whether `path` is the heap-state field of an object (`free` writes it).
    fn is_heap_state(&self, path: &[Access]) -> bool {
        matches!(path, [Access::Field(field)] if self.locator.field_name(*field) == HEAP_STATE_FIELD)
    }

    fn name(&mut self, cell: CellId, name: String) {
        self.taken.insert(name.clone());
        self.names.insert(cell, name);
    }

    /// `o1`, `o2`, ...: the first such name no other cell has.
    fn fresh_object(&mut self, cell: CellId) -> String {
        loop {
            let name = format!("o{}", self.next_object);
            self.next_object += 1;
            if !self.taken.contains(&name) {
                self.name(cell, name.clone());
                return name;
            }
        }
    }

    /// The cell of variable `var`: its name, primed while another cell has it (recursion).
    fn name_variable(&mut self, cell: CellId, var: &str) {
        let mut name = var.to_string();
        while self.taken.contains(&name) {
            name.push('\'');
        }
        self.name(cell, name);
    }

    fn cell_name(&mut self, cell: CellId) -> String {
        match self.names.get(&cell) {
            Some(name) => name.clone(),
            // Every cell is named where it is made; a name here keeps the trace readable even
            // past the recorder's event limit, where those events were dropped.
            None => self.fresh_object(cell),
        }
    }

    /// `a[2]`, `r.f`, `o3.next`; `None` when the path reaches bookkeeping.
    fn target(&mut self, func: FuncId, target: StoreTarget, path: &[Access]) -> Option<String> {
        let mut text = match target {
            StoreTarget::Local(var) => self.locator.local_name(func, var).to_string(),
            StoreTarget::Cell(cell) => self.cell_name(cell),
        };
        for access in path {
            match access {
                Access::Field(field) => {
                    let name = self.locator.field_name(*field);
                    if is_bookkeeping(name) {
                        return None;
                    }
                    text.push('.');
                    text.push_str(name);
                }
                Access::Index(index) => text.push_str(&format!("[{index}]")),
            }
        }
        Some(text)
    }

    fn value(&mut self, value: &Value) -> ArgValue {
        match value {
            Value::Uninit => ArgValue::Uninit(Uninit),
            Value::Int(n) => ArgValue::Int(*n),
            Value::Null => ArgValue::Null,
            Value::Ptr(cell) => ArgValue::Ref {
                object: self.cell_name(*cell),
            },
            Value::Record(record) => {
                let mut fields = Fields::new();
                for (field, value) in record.fields() {
                    let name = self.locator.field_name(*field);
                    if !is_bookkeeping(name) {
                        fields.push(name, self.value(value));
                    }
                }
                ArgValue::Record { record: fields }
            }
            Value::Array(array) => ArgValue::Array {
                array: array.items().iter().map(|v| self.value(v)).collect(),
            },
        }
    }
}

fn is_bookkeeping(field: &str) -> bool {
    field.contains(BOOKKEEPING_MARK)
}

#[cfg(test)]
mod tests {
    use super::*;
    use symex_interp::{Entry, Interpreter, RunConfig};

    fn steps(source: &str, inputs: &[i32]) -> Vec<String> {
        let front = symex_syntax::analyze(source).expect("valid program");
        let module = symex_ir::lower(&front.program);
        let locator = Locator::new(&module, source);
        let entry = Entry::new(&module, "main", vec![]).unwrap();
        let config = RunConfig::default().with_events();
        let outcome = Interpreter::new(&module)
            .unwrap()
            .run(&entry, inputs, &config)
            .unwrap();
        let mut namer = StepNamer::new(&locator, &entry.heap);
        outcome
            .events
            .unwrap()
            .iter()
            .filter_map(|e| namer.step(e))
            .map(|s| s.event.to_string())
            .collect()
    }

    #[test]
    fn heap_writes_name_their_objects_and_fields() {
        let shown = steps(
            "main() { var p, q; p = alloc {v: 1, n: null}; q = alloc {v: 2, n: p}; \
             (*p).n = q; (*q).v = input; return 0; }",
            &[7],
        );
        assert_eq!(
            shown,
            [
                "new o1 = {n: null, v: 1}",
                "p = &o1",
                "new o2 = {n: &o1, v: 2}",
                "q = &o2",
                "o1.n = &o2",
                "input #0 is 7",
                "o2.v = 7",
                "return 0",
            ]
        );
    }

    #[test]
    fn variables_in_cells_and_array_elements_are_named_by_their_variables() {
        let shown = steps(
            "f(p) { *p = 5; return 0; } \
             main() { var x, a; x = 1; a = [0, 0]; a[1] = f(&x); return x; }",
            &[],
        );
        assert_eq!(
            shown,
            [
                "x = 1",
                "a = [0, 0]",
                "call f(&x)",
                "x = 5",
                "return 0",
                "a[1] = 0",
                "return 5",
            ]
        );
    }
}
