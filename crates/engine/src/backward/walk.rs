//! The heap model recorder (T §7.3.3): the entry model run forwards along the unwound graph with
//! concrete values, giving the path from the entry to the target, the `input` values in the order
//! they are read, and the heap graph after every step that changes it.
//!
//! It follows the first edge whose condition holds, as a run would. It judges nothing: the
//! interpreter replays the witness. Nothing here asks a solver.

use std::collections::BTreeMap;

use rustc_hash::FxHashMap;
use symex_ir::cfg::PropertyKind;
use symex_report::{ArgValue, Event, Locator, TraceStep};
use symex_smt::{BvConst, TermStore, Value};

use crate::backward::encode::{self, EntryModel};
use crate::backward::ops::{Atom, Cond, FieldSlot, Graph, Op, VarId, VarKind};
use crate::common::terms::{value_as_i32, WIDTH};
use crate::error::EngineError;

/// The heap after one step that changed it: `(field, cell) -> value` for every cell touched.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HeapSnapshot {
    /// The trace step (index into the trace) after which the heap looks like this.
    pub step: usize,
    pub cells: BTreeMap<(i32, FieldSlot), i32>,
}

/// What the forward run produced.
#[derive(Clone, Debug, Default)]
pub struct Walk {
    pub trace: Vec<TraceStep>,
    pub inputs: Vec<i32>,
    pub heaps: Vec<HeapSnapshot>,
    /// Whether the run got to the target.
    pub reached: bool,
}

struct Run<'g> {
    graph: &'g Graph,
    model: &'g EntryModel,
    env: FxHashMap<VarId, i32>,
    cells: BTreeMap<(i32, FieldSlot), i32>,
    store: TermStore,
}

impl Run<'_> {
    fn atom(&self, a: Atom) -> i32 {
        match a {
            Atom::Const(n) => n,
            Atom::Var(v) => self.env.get(&v).copied().unwrap_or(0),
        }
    }

    fn holds(&mut self, c: Cond) -> Result<bool, EngineError> {
        Ok(match c {
            Cond::True => true,
            Cond::NonZero(e) => self.eval(e)? != 0,
            Cond::Zero(e) => self.eval(e)? == 0,
        })
    }

    /// A cell's field: written during the run, else the input heap's value.
    fn load(&self, cell: i32, field: FieldSlot) -> i32 {
        if let Some(&v) = self.cells.get(&(cell, field)) {
            return v;
        }
        let index = BvConst::new(WIDTH, cell as u32 as u128).map(Value::Bv);
        self.model
            .fields
            .iter()
            .find(|(f, _)| *f == field)
            .zip(index.ok())
            .and_then(|((_, array), index)| value_as_i32(array.get(&index)))
            .unwrap_or(0)
    }

    fn eval(&mut self, value: crate::backward::ops::Expr) -> Result<i32, EngineError> {
        let env = &self.env;
        let mut var = |s: &mut TermStore, v: VarId| -> Result<_, EngineError> {
            Ok(crate::common::terms::int_const(
                s,
                env.get(&v).copied().unwrap_or(0),
            )?)
        };
        let t = encode::expr(&mut self.store, value, &mut var)?;
        self.store
            .as_bv(t)
            .map(|bv| bv.bits() as u32 as i32)
            .ok_or_else(|| EngineError::Internal("a constant expression did not fold".into()))
    }
}

/// Runs `model` forwards from the entry of `graph`.
/// `kind` is the target property's kind (`None` for a reach target, whose path has no failing step).
pub fn walk(
    graph: &Graph,
    model: &EntryModel,
    locator: &Locator<'_>,
    kind: Option<PropertyKind>,
) -> Result<Walk, EngineError> {
    let mut run = Run {
        graph,
        model,
        env: FxHashMap::default(),
        cells: BTreeMap::new(),
        store: TermStore::new(),
    };
    for (v, info) in graph.vars.iter().enumerate() {
        if let Some(i) = info.entry_param {
            run.env
                .insert(v as VarId, model.args.get(i).copied().unwrap_or(0));
        }
    }
    let mut out = Walk::default();
    let mut node = graph.entry;
    loop {
        if node == graph.sink {
            if let (Some((func, span)), Some(kind)) = (graph.target_origin, kind) {
                out.trace
                    .push(locator.step(func, span, Event::Fail { kind }));
            }
            out.reached = true;
            return Ok(out);
        }
        for located in &run.graph.nodes[node as usize].ops {
            let mut changed_heap = false;
            let mut assigned: Option<(VarId, i32)> = None;
            match located.op {
                Op::Assign { dst, value } => {
                    let v = run.eval(value)?;
                    run.env.insert(dst, v);
                    assigned = Some((dst, v));
                }
                Op::Input { dst, symbol } => {
                    let v = model.inputs.get(symbol as usize).copied().unwrap_or(0);
                    out.trace.push(locator.step(
                        located.func,
                        located.span,
                        Event::Input {
                            index: out.inputs.len() as u32,
                            value: v,
                        },
                    ));
                    out.inputs.push(v);
                    run.env.insert(dst, v);
                }
                Op::Load { dst, base, field } => {
                    let v = run.load(run.atom(base), field);
                    run.env.insert(dst, v);
                    assigned = Some((dst, v));
                }
                Op::Store { base, field, value } => {
                    let (b, v) = (run.atom(base), run.atom(value));
                    run.cells.insert((b, field), v);
                    changed_heap = true;
                }
                Op::Alloc { dst, site } => {
                    run.env.insert(dst, site as i32);
                    assigned = Some((dst, site as i32));
                }
                Op::Require(c) => {
                    if !run.holds(c)? {
                        return Ok(out);
                    }
                }
                Op::Unsupported(_) => return Ok(out),
            }
            if let Some((v, value)) = assigned {
                let info = &graph.vars[v as usize];
                let function = locator.function_name(info.func);
                let named = matches!(info.kind, VarKind::Local(_)) && !info.is_temporary();
                if let (true, false, VarKind::Local(local)) =
                    (named, function.is_empty(), info.kind)
                {
                    let value = locator.shown(info.func, local, ArgValue::Int(value.into()));
                    out.trace.push(locator.step(
                        located.func,
                        located.span,
                        Event::Assign {
                            var: info.name.clone(),
                            value,
                        },
                    ));
                }
            }
            if changed_heap {
                out.heaps.push(HeapSnapshot {
                    step: out.trace.len(),
                    cells: run.cells.clone(),
                });
            }
        }
        let mut next = None;
        for edge in &graph.nodes[node as usize].succs {
            if run.holds(edge.cond)? {
                next = Some(edge);
                break;
            }
        }
        let Some(edge) = next else {
            return Ok(out);
        };
        if let Some((func, span, taken)) = edge.branch {
            out.trace
                .push(locator.step(func, span, Event::Branch { condition: taken }));
        }
        if let Some(call) = &edge.call {
            let args = call
                .params
                .iter()
                .map(|&p| ArgValue::Int(run.atom(Atom::Var(p)).into()))
                .collect();
            out.trace.push(locator.step(
                call.caller,
                call.span,
                Event::Call {
                    callee: locator.function_name(call.callee).to_string(),
                    args,
                },
            ));
        }
        node = edge.to;
    }
}
