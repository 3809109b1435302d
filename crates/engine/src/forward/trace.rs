//! The path of a state as a persistent list of symbolic events, turned into the report's trace
//! only when a counterexample needs it.
//!
//! Forked states share the list's common prefix (`Rc`), so recording costs one small node per
//! event and forking costs nothing; values stay terms until a model evaluates them. Nothing here
//! decides what is worth recording: the executor does.

use std::rc::Rc;

use symex_ir::cfg::{FuncId, LocalId, Module, PropertyKind};
use symex_report::{ArgValue, Event, Locator, TraceStep};
use symex_smt::{eval, Assignment, TermId, TermStore};
use symex_syntax::span::Span;

use crate::common::terms::value_as_i32;

#[derive(Clone, Debug)]
pub enum SymEvent {
    Branch {
        condition: bool,
    },
    /// Numeric arguments only: pointers have no report form yet.
    Call {
        callee: FuncId,
        args: Vec<TermId>,
    },
    Return {
        value: TermId,
    },
    /// A source variable of the event's function.
    Assign {
        var: LocalId,
        value: TermId,
    },
    Input {
        index: u32,
        value: TermId,
    },
    Fail {
        kind: PropertyKind,
    },
}

#[derive(Debug)]
enum Node {
    Event {
        func: FuncId,
        span: Span,
        event: SymEvent,
        prev: Option<Rc<Node>>,
    },
    /// Two merged states' traces: `then` where `cond` holds, `other` elsewhere.
    Join {
        cond: TermId,
        then: Option<Rc<Node>>,
        other: Option<Rc<Node>>,
    },
}

impl Node {
    fn take_links(&mut self, out: &mut Vec<Rc<Node>>) {
        match self {
            Node::Event { prev, .. } => out.extend(prev.take()),
            Node::Join { then, other, .. } => {
                out.extend(then.take());
                out.extend(other.take());
            }
        }
    }
}

impl Drop for Node {
    /// Unlinks iteratively: a long path (or many nested merges) must not overflow the stack
    /// when it is dropped.
    fn drop(&mut self) {
        let mut work = Vec::new();
        self.take_links(&mut work);
        while let Some(node) = work.pop() {
            if let Ok(mut node) = Rc::try_unwrap(node) {
                node.take_links(&mut work);
            }
        }
    }
}

#[derive(Clone, Debug, Default)]
pub struct Trace {
    last: Option<Rc<Node>>,
}

impl Trace {
    pub fn push(&mut self, func: FuncId, span: Span, event: SymEvent) {
        self.last = Some(Rc::new(Node::Event {
            func,
            span,
            event,
            prev: self.last.take(),
        }));
    }

    /// The trace of a merged state: `then` on the paths where `cond` holds, `other` elsewhere;
    /// a model chooses when the trace is turned into steps.
    pub fn join(cond: TermId, then: &Trace, other: &Trace) -> Trace {
        let same = match (&then.last, &other.last) {
            (Some(a), Some(b)) => Rc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        if same {
            return then.clone();
        }
        Trace {
            last: Some(Rc::new(Node::Join {
                cond,
                then: then.last.clone(),
                other: other.last.clone(),
            })),
        }
    }

    /// The events in execution order, evaluated under `assignment`.
    pub fn to_steps(
        &self,
        module: &Module,
        store: &TermStore,
        assignment: &Assignment,
        locator: &Locator<'_>,
    ) -> Vec<TraceStep> {
        let mut nodes = Vec::new();
        let mut cursor = self.last.as_deref();
        while let Some(node) = cursor {
            cursor = match node {
                Node::Event {
                    func,
                    span,
                    event,
                    prev,
                } => {
                    nodes.push((*func, *span, event));
                    prev.as_deref()
                }
                Node::Join { cond, then, other } => {
                    let holds = eval(store, *cond, assignment)
                        .ok()
                        .and_then(|v| v.as_bool())
                        .unwrap_or(false);
                    if holds {
                        then.as_deref()
                    } else {
                        other.as_deref()
                    }
                }
            };
        }
        let value = |t: TermId| -> i32 {
            eval(store, t, assignment)
                .ok()
                .and_then(|v| value_as_i32(&v))
                .unwrap_or(0)
        };
        nodes
            .iter()
            .rev()
            .map(|&(func, span, event)| {
                let event = match event {
                    SymEvent::Branch { condition } => Event::Branch {
                        condition: *condition,
                    },
                    SymEvent::Call { callee, args } => Event::Call {
                        callee: module
                            .functions
                            .get(callee.index())
                            .map_or_else(|| "?".to_string(), |f| f.name.clone()),
                        args: args.iter().map(|&a| ArgValue::Int(value(a))).collect(),
                    },
                    SymEvent::Return { value: v } => Event::Return {
                        value: ArgValue::Int(value(*v)),
                    },
                    SymEvent::Assign { var, value: v } => Event::Assign {
                        var: module
                            .functions
                            .get(func.index())
                            .and_then(|f| f.locals.get(var.index()))
                            .map_or_else(|| "?".to_string(), |l| l.name.clone()),
                        value: ArgValue::Int(value(*v)),
                    },
                    SymEvent::Input { index, value: v } => Event::Input {
                        index: *index,
                        value: value(*v),
                    },
                    SymEvent::Fail { kind } => Event::Fail { kind: *kind },
                };
                locator.step(func, span, event)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_come_out_in_order_with_model_values() {
        let source = "main() { var a; a = input; return a; }";
        let front = symex_syntax::analyze(source).expect("valid");
        let module = symex_ir::lower(&front.program);
        let locator = Locator::new(&module, source);
        let mut store = TermStore::new();
        let x = store.bv_var("#0", 32).unwrap();
        let mut trace = Trace::default();
        let span = Span::new(13, 14);
        trace.push(FuncId(0), span, SymEvent::Input { index: 0, value: x });
        let shared = trace.clone();
        trace.push(
            FuncId(0),
            span,
            SymEvent::Assign {
                var: LocalId(0),
                value: x,
            },
        );
        let mut asg = Assignment::new();
        asg.insert(
            store.var_id(x).unwrap(),
            symex_smt::Value::Bv(symex_smt::BvConst::from_i128(32, -4).unwrap()),
        );
        let steps = trace.to_steps(&module, &store, &asg, &locator);
        assert_eq!(steps.len(), 2);
        assert_eq!(
            steps[0].event,
            Event::Input {
                index: 0,
                value: -4
            }
        );
        assert_eq!(
            steps[1].event,
            Event::Assign {
                var: "a".into(),
                value: ArgValue::Int(-4)
            }
        );
        assert_eq!(shared.to_steps(&module, &store, &asg, &locator).len(), 1);
    }

    #[test]
    fn a_join_follows_the_side_the_model_satisfies() {
        let source = "main() { var a; a = input; return a; }";
        let front = symex_syntax::analyze(source).expect("valid");
        let module = symex_ir::lower(&front.program);
        let locator = Locator::new(&module, source);
        let mut store = TermStore::new();
        let c = store.bool_var("c").unwrap();
        let span = Span::new(13, 14);
        let mut common = Trace::default();
        common.push(FuncId(0), span, SymEvent::Branch { condition: true });
        let (mut yes, mut no) = (common.clone(), common.clone());
        yes.push(FuncId(0), span, SymEvent::Branch { condition: true });
        no.push(FuncId(0), span, SymEvent::Branch { condition: false });
        no.push(FuncId(0), span, SymEvent::Branch { condition: false });
        let joined = Trace::join(c, &yes, &no);
        let mut asg = Assignment::new();
        let var = store.var_id(c).unwrap();
        asg.insert(var, symex_smt::Value::Bool(true));
        assert_eq!(joined.to_steps(&module, &store, &asg, &locator).len(), 2);
        asg.insert(var, symex_smt::Value::Bool(false));
        let steps = joined.to_steps(&module, &store, &asg, &locator);
        assert_eq!(steps.len(), 3);
        assert_eq!(steps[2].event, Event::Branch { condition: false });
        assert!(Rc::ptr_eq(
            Trace::join(c, &yes, &yes).last.as_ref().unwrap(),
            yes.last.as_ref().unwrap()
        ));
    }

    #[test]
    fn long_traces_drop_without_recursion() {
        let mut trace = Trace::default();
        for _ in 0..200_000 {
            trace.push(
                FuncId(0),
                Span::new(0, 1),
                SymEvent::Branch { condition: true },
            );
        }
        drop(trace);
    }
}
