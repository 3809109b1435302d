//! A run's events as a counterexample's trace steps: the interpreter's ids become the names a
//! reader knows. Variables by their source names, record fields by theirs, and memory cells as
//! the witness names heap objects: an input heap's objects by their ids in the heap document,
//! every cell `alloc` makes as the next `o1`, `o2`, ... that no object or variable has, and the
//! cell of an address-taken variable by the variable's name (primed, `x'`, while an earlier
//! cell has it: another call's). A write through a pointer into a variable of another call
//! names that call's function: `main:x = 5`.
//!
//! Fields whose names hold a `#` are bookkeeping of a front end (the C front end's `#heap`
//! state and `#assigned` flags), never shown as such: a field whose `#assigned` flag is 0 is
//! shown unassigned (`?`), an object of one scalar (`value`, `#assigned`) as that scalar, and
//! an object's heap state set to freed as its `free`. An array that stands for something else
//! in the source is indexed as the source does ([`Layout`]): `m[1][2]` for element 5 of C's
//! `int m[2][3]`, `x` for the one element of a variable that is an array of one. Nothing here
//! runs or judges a program.

use rustc_hash::{FxHashMap, FxHashSet};
use symex_interp::{Access, CellId, EventKind, InputHeap, Record, RunEvent, StoreTarget, Value};
use symex_ir::cfg::{
    FieldId, FuncId, Layout, LocalId, LocalKind, ASSIGNED_FLAG_SUFFIX, BOOKKEEPING_MARK,
    ELEMENT_POINTER_FIELDS, HEAP_FREED, HEAP_STATE_FIELD, SCALAR_OBJECT_FIELDS,
};
use symex_report::{ArgValue, Event, Fields, Locator, TraceStep, Uninit};

/// Turns the events of one run, in order, into trace steps.
pub struct StepNamer<'l, 'm> {
    locator: &'l Locator<'m>,
    names: FxHashMap<CellId, String>,
    taken: FxHashSet<String>,
    /// Every source variable's name: objects are not named like variables.
    variables: FxHashSet<&'m str>,
    next_object: u32,
    /// The cells of address-taken variables: the function of their call and the variable.
    variable_cells: FxHashMap<CellId, (FuncId, LocalId)>,
    /// The cell of each address-taken variable's latest call.
    cell_of_variable: FxHashMap<(FuncId, LocalId), CellId>,
    /// Cells seen holding a front end's object of one scalar: a write of its `value` field is
    /// shown as a write of the object.
    scalar_cells: FxHashSet<CellId>,
    /// The index just stored into the element-pointer member at each target (`s.data`), which
    /// the store of its cell that follows shows as the element's address.
    pending_indices: FxHashMap<String, i32>,
}

impl<'l, 'm> StepNamer<'l, 'm> {
    /// A namer for a run whose first cells hold `heap`'s objects, in its order (how a run
    /// loads an input heap).
    pub fn new(locator: &'l Locator<'m>, heap: &InputHeap) -> StepNamer<'l, 'm> {
        let module = locator.module();
        let variables = module
            .functions
            .iter()
            .flat_map(|f| f.locals.iter())
            .filter(|l| l.kind != LocalKind::Temp)
            .map(|l| l.name.as_str())
            .collect();
        let mut namer = StepNamer {
            locator,
            names: FxHashMap::default(),
            taken: FxHashSet::default(),
            variables,
            next_object: 1,
            cell_of_variable: FxHashMap::default(),
            scalar_cells: FxHashSet::default(),
            variable_cells: FxHashMap::default(),
            pending_indices: FxHashMap::default(),
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
                args: (args.iter().enumerate())
                    .map(|(k, a)| {
                        let value = self.value(a);
                        locator.shown(*callee, LocalId(k as u32), value)
                    })
                    .collect(),
            },
            EventKind::Return { value } => Event::Return {
                value: self.value(value),
            },
            EventKind::Assign { var, value } => {
                if let Some(&cell) = self.cell_of_variable.get(&(event.func, *var)) {
                    self.learn_shape(cell, value);
                }
                let (local, var) = (*var, locator.local_name(event.func, *var));
                if is_bookkeeping(var) {
                    // A front end's own counter (C's `#live`), not a variable of the program.
                    return None;
                }
                let shown = match (locator.local_layout(event.func, local), self.value(value)) {
                    (Layout::One, ArgValue::Array { mut array }) if array.len() == 1 => {
                        array.remove(0)
                    }
                    (Layout::RowMajor(dims), ArgValue::Array { array }) => nested(array, dims),
                    (_, value) => value,
                };
                let shown = locator.shown(event.func, local, shown);
                Event::Assign {
                    var: var.to_string(),
                    value: shown,
                }
            }
            EventKind::Input { index, value } => Event::Input {
                index: *index,
                value: *value,
            },
            EventKind::Alloc { cell, value } => {
                self.learn_shape(*cell, value);
                let object = self.fresh_object(*cell);
                Event::Alloc {
                    object,
                    value: self.value(value),
                }
            }
            EventKind::LocalCell { var, cell } => {
                let name = locator.local_name(event.func, *var);
                self.name_variable(*cell, name);
                self.variable_cells.insert(*cell, (event.func, *var));
                self.cell_of_variable.insert((event.func, *var), *cell);
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
            } => {
                if let (Some(member), Value::Int(index)) =
                    (self.element_member(event.func, *target, path), value)
                {
                    self.pending_indices.insert(member, *index);
                    return None;
                }
                let target = self.target(event.func, *target, path)?;
                let value = match (value, self.pending_indices.remove(&target)) {
                    (Value::Ptr(cell), Some(index)) => ArgValue::Ref {
                        object: self.element_name(*cell, index),
                    },
                    _ => self.value(value),
                };
                Event::Store { target, value }
            }
        };
        Some(locator.step(event.func, event.span, event_of))
    }

    /// Whether `path` is the heap-state field of an object, or of a heap array's first element
    /// (`free` writes it).
    fn is_heap_state(&self, path: &[Access]) -> bool {
        matches!(path, [Access::Field(field)] | [Access::Index(0), Access::Field(field)]
            if self.locator.field_name(*field) == HEAP_STATE_FIELD)
    }

    /// `s.data` where `path` is the index field of an element-pointer member (`data#index`,
    /// which the C front end stores before the member's cell).
    fn element_member(
        &mut self,
        func: FuncId,
        target: StoreTarget,
        path: &[Access],
    ) -> Option<String> {
        let (Access::Field(last), outer) = path.split_last()? else {
            return None;
        };
        let member = (self.locator.field_name(*last))
            .strip_suffix(ELEMENT_POINTER_FIELDS[1])
            .filter(|member| !member.is_empty() && !is_bookkeeping(member))?;
        let mut text = self.target(func, target, outer)?;
        // An object of one scalar is shown as that scalar (`target`): its `value` field too.
        let cell = match target {
            StoreTarget::Cell(cell) => Some(cell),
            StoreTarget::Local(var) => self.cell_of_variable.get(&(func, var)).copied(),
        };
        let scalar = outer.is_empty()
            && member == SCALAR_OBJECT_FIELDS[0]
            && cell.is_some_and(|c| self.scalar_cells.contains(&c));
        if !scalar {
            text.push('.');
            text.push_str(member);
        }
        Some(text)
    }

    /// Remembers whether `cell` holds a front end's object of one scalar (`value`, `#assigned`),
    /// or an array of one such object.
    fn learn_shape(&mut self, cell: CellId, value: &Value) {
        // A variable that is an array of one holds its object as the one element.
        let value = match value {
            Value::Array(array) if array.len() == 1 => &array.items()[0],
            other => other,
        };
        if let Value::Record(record) = value {
            let names: Vec<&str> = record
                .fields()
                .iter()
                .map(|(f, _)| self.locator.field_name(*f))
                .filter(|n| !is_bookkeeping(n) || *n == SCALAR_OBJECT_FIELDS[1])
                .collect();
            if names.len() == 2 && SCALAR_OBJECT_FIELDS.iter().all(|f| names.contains(f)) {
                self.scalar_cells.insert(cell);
            }
        }
    }

    fn name(&mut self, cell: CellId, name: String) {
        self.taken.insert(name.clone());
        self.names.insert(cell, name);
    }

    /// `o1`, `o2`, ...: the first such name no other cell and no variable has.
    fn fresh_object(&mut self, cell: CellId) -> String {
        loop {
            let name = format!("o{}", self.next_object);
            self.next_object += 1;
            if !self.taken.contains(&name) && !self.variables.contains(name.as_str()) {
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
            // A variable of another call: its function says whose.
            StoreTarget::Cell(cell) => match self.variable_cells.get(&cell) {
                Some(&(owner, var)) => format!(
                    "{}:{}",
                    self.locator.function_name(owner),
                    self.locator.local_name(owner, var)
                ),
                None => self.cell_name(cell),
            },
        };
        let layout = match target {
            StoreTarget::Local(var) => self.locator.local_layout(func, var),
            StoreTarget::Cell(cell) => self.cell_layout(cell),
        };
        let cell = match target {
            StoreTarget::Cell(cell) => Some(cell),
            StoreTarget::Local(var) => self.cell_of_variable.get(&(func, var)).copied(),
        };
        let scalar = |field: &FieldId| {
            cell.is_some_and(|c| self.scalar_cells.contains(&c))
                && self.locator.field_name(*field) == SCALAR_OBJECT_FIELDS[0]
        };
        let path = match path {
            [Access::Field(field)] if scalar(field) => &[],
            [Access::Index(0), Access::Field(field)] if *layout == Layout::One && scalar(field) => {
                &[]
            }
            _ => path,
        };
        for (k, access) in path.iter().enumerate() {
            match access {
                Access::Field(field) => {
                    let name = self.locator.field_name(*field);
                    if is_bookkeeping(name) {
                        return None;
                    }
                    text.push('.');
                    text.push_str(name);
                }
                // The array itself is indexed as the source does.
                Access::Index(index) if k == 0 => push_indices(&mut text, layout, *index),
                Access::Index(index) => text.push_str(&format!("[{index}]")),
            }
        }
        Some(text)
    }

    /// How the source indexes the array in `cell`: a variable's as its layout says.
    fn cell_layout(&self, cell: CellId) -> &'m Layout {
        match self.variable_cells.get(&cell) {
            Some(&(func, var)) => self.locator.local_layout(func, var),
            None => &Layout::Plain,
        }
    }

    /// `a[2]`, `m[1][2]`, `x`: the element `index` of the array in `cell`.
    fn element_name(&mut self, cell: CellId, index: i32) -> String {
        let mut name = self.cell_name(cell);
        push_indices(&mut name, self.cell_layout(cell), index);
        name
    }

    fn value(&mut self, value: &Value) -> ArgValue {
        match value {
            Value::Uninit => ArgValue::Uninit(Uninit),
            Value::Int(n) => ArgValue::Int(i64::from(*n)),
            Value::Int64(n) => ArgValue::Int(*n),
            Value::Null => ArgValue::Null,
            Value::Ptr(cell) => ArgValue::Ref {
                object: self.cell_name(*cell),
            },
            Value::Record(record) => {
                match self.element_pointer(record) {
                    Some((Value::Ptr(cell), Value::Int(index))) => {
                        return ArgValue::Ref {
                            object: self.element_name(*cell, *index),
                        }
                    }
                    Some(_) => return ArgValue::Null,
                    None => {}
                }
                let name_of = |field: FieldId| self.locator.field_name(field);
                // The bookkeeping field `name` + `suffix` beside the field `name`.
                let sibling = |name: &str, suffix: &str| {
                    record.fields().iter().find_map(|(f, v)| {
                        (name_of(*f).strip_suffix(suffix) == Some(name)).then_some(v)
                    })
                };
                let flag = |name: &str| sibling(name, ASSIGNED_FLAG_SUFFIX);
                let unassigned = |name: &str| matches!(flag(name), Some(Value::Int(0)));
                let index_of = |name: &str| sibling(name, ELEMENT_POINTER_FIELDS[1]);
                let shown: Vec<(&str, &Value)> = record
                    .fields()
                    .iter()
                    .map(|(f, v)| (name_of(*f), v))
                    .filter(|(name, _)| !is_bookkeeping(name))
                    .collect();
                // A field's value; a front end's pointer into an array kept in memory has its
                // cell here and its index in the field's `#index` sibling.
                let mut shown_value = |name: &str, value: &Value| match (value, index_of(name)) {
                    (Value::Ptr(cell), Some(Value::Int(index))) => ArgValue::Ref {
                        object: self.element_name(*cell, *index),
                    },
                    (value, _) => self.value(value),
                };
                // A front end's object of one scalar is that scalar.
                let scalar =
                    shown.len() == 1 && shown[0].0 == SCALAR_OBJECT_FIELDS[0] && flag("").is_some();
                if scalar {
                    return match unassigned("") {
                        true => ArgValue::Uninit(Uninit),
                        false => shown_value(shown[0].0, shown[0].1),
                    };
                }
                let mut fields = Fields::new();
                for (name, value) in shown {
                    let value = match unassigned(name) {
                        true => ArgValue::Uninit(Uninit),
                        false => shown_value(name, value),
                    };
                    fields.push(name, value);
                }
                ArgValue::Record { record: fields }
            }
            Value::Array(array) => ArgValue::Array {
                array: array.items().iter().map(|v| self.value(v)).collect(),
            },
        }
    }
}

impl StepNamer<'_, '_> {
    /// The cell and index of a front end's pointer into an array (`ELEMENT_POINTER_FIELDS`).
    fn element_pointer<'v>(&self, record: &'v Record) -> Option<(&'v Value, &'v Value)> {
        let [(base, cell), (index, at)] = record.fields() else {
            return None;
        };
        let names = [base, index].map(|f| self.locator.field_name(*f));
        (names == ELEMENT_POINTER_FIELDS).then_some((cell, at))
    }
}

/// Whether a field or local is a front end's bookkeeping (C's `#assigned` flags, `#heap`
/// states, `#live` count), not part of the program's data.
fn is_bookkeeping(name: &str) -> bool {
    name.contains(BOOKKEEPING_MARK)
}

/// The elements `array` of a row-major array of dimensions `dims` as nested arrays, one per
/// row (`[[1, 2, 3], [4, 5, 6]]` for `int m[2][3]`); flat where they do not fill the rows.
fn nested(array: Vec<ArgValue>, dims: &[u32]) -> ArgValue {
    let row = dims.iter().skip(1).map(|&d| d as usize).product::<usize>();
    if dims.len() < 2 || row == 0 || array.len() % row != 0 {
        return ArgValue::Array { array };
    }
    let mut rows = Vec::with_capacity(array.len() / row);
    let mut items = array.into_iter();
    while items.len() > 0 {
        let chunk: Vec<ArgValue> = items.by_ref().take(row).collect();
        rows.push(nested(chunk, &dims[1..]));
    }
    ArgValue::Array { array: rows }
}

/// `[i]` for each of the source's indices of element `index` of an array of `layout`.
fn push_indices(text: &mut String, layout: &Layout, index: i32) {
    for index in layout.indices(i64::from(index)) {
        text.push_str(&format!("[{index}]"));
    }
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
                "p = &x",
                "main:x = 5",
                "return 0",
                "a[1] = 0",
                "return 5",
            ]
        );
    }

    #[test]
    fn objects_are_never_named_like_variables_and_each_call_has_its_own_cells() {
        let shown = steps(
            "h() { var y, q; y = 1; q = &y; *q = 2; return y; } \
             main() { var o1, p, r; p = alloc {f: 1}; o1 = {f: 2}; r = h(); r = h(); return 0; }",
            &[],
        );
        assert!(shown.contains(&"new o2 = {f: 1}".to_string()), "{shown:?}");
        assert!(shown.contains(&"o1 = {f: 2}".to_string()), "{shown:?}");
        // `*q = 2` writes h's own `y`; the second call's `y` is another cell, `y'`.
        assert_eq!(
            shown.iter().filter(|s| *s == "y = 2").count(),
            2,
            "{shown:?}"
        );
        assert!(shown.contains(&"q = &y'".to_string()), "{shown:?}");
    }
}
