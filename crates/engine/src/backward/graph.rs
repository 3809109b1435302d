//! The CFG preprocessing of P §3.1: the entry function with loops unwound K times and calls
//! inlined to depth K, as an acyclic [`Graph`] of atomic operations with one sink for the target.
//!
//! A node is one stretch of one IR block in one activation and one iteration of each enclosing
//! loop. Unwinding follows `--unwind`'s meaning in the forward engine: a path stops where it
//! would take a loop's back edge for the (K+1)-th time since it entered the loop, or where a call
//! would make K+1 activations of one function active. Every such stop is recorded as a [`Cut`]
//! when the target might lie beyond it, so no verdict can be `safe` where the bound cut the
//! search. The graph is handed to `simplify` before it is returned. Nothing here builds terms or
//! asks a solver.

use rustc_hash::FxHashMap;
use symex_ir::analysis::{Dominators, LoopForest};
use symex_ir::cfg::{
    input_bookkeeping, BlockId, Check, FuncId, Function, Inst, InstKind, LocalId, LocalKind,
    Module, Operand, Place, PlaceBase, Projection, PropId, Rvalue, Terminator,
};
use symex_report::{Cut, Cuts};
use symex_syntax::span::Span;

use crate::backward::ops::{
    Atom, CallSite, Cond, Edge, Expr, FieldSlot, Graph, Located, Node, NodeId, Op, VarId, VarInfo,
    VarKind,
};
use crate::backward::simplify;
use crate::backward::types::TypeFacts;
use crate::backward::typing::CellTyping;
use crate::common::budget::Budget;

/// A point of the unwinding: activation, block, first instruction, loop iteration counters.
type Key = (u32, BlockId, usize, Vec<u32>);

struct Frame {
    func: FuncId,
    /// For an inlined activation: the caller's activation, the local receiving the result and
    /// the caller's continuation.
    ret: Option<(u32, LocalId, Key)>,
    /// Activations of each function on the chain from the entry to this one.
    active: FxHashMap<FuncId, u32>,
}

/// Per-function facts computed once.
struct FunctionFacts {
    loops: LoopForest,
    /// Locals that ever hold a record value (only `alloc` may consume them).
    record_locals: FxHashMap<LocalId, Vec<u32>>,
}

/// Builds the unwound graph of `entry` for the property `target` with bound `unwind`, and the
/// cuts it made; `Err` with the cut of the check's limit when it runs out first (an unwound graph
/// can grow exponentially with the bound).
pub fn build(
    module: &Module,
    facts: &TypeFacts<'_>,
    typing: Option<&CellTyping>,
    entry: FuncId,
    target: PropId,
    unwind: u32,
    budget: &Budget,
) -> Result<(Graph, Cuts), Cut> {
    let mut builder = Builder::new(module, facts, typing, target, unwind);
    let mut graph = builder.run(entry, budget)?;
    simplify::simplify(&mut graph, budget)?;
    Ok((graph, builder.cuts))
}

struct Builder<'a> {
    module: &'a Module,
    facts: &'a TypeFacts<'a>,
    typing: Option<&'a CellTyping>,
    target: PropId,
    unwind: u32,
    functions: Vec<FunctionFacts>,
    nodes: Vec<Node>,
    keys: FxHashMap<Key, NodeId>,
    work: Vec<(Key, NodeId)>,
    frames: Vec<Frame>,
    vars: Vec<VarInfo>,
    var_ids: FxHashMap<(u32, VarKind), VarId>,
    next_site: u32,
    next_input: u32,
    cuts: Cuts,
    target_origin: Option<(FuncId, Span)>,
    sink: NodeId,
}

impl<'a> Builder<'a> {
    fn new(
        module: &'a Module,
        facts: &'a TypeFacts<'a>,
        typing: Option<&'a CellTyping>,
        target: PropId,
        unwind: u32,
    ) -> Builder<'a> {
        let functions = module.functions.iter().map(function_facts).collect();
        Builder {
            module,
            facts,
            typing,
            target,
            unwind,
            functions,
            nodes: vec![Node::default()],
            keys: FxHashMap::default(),
            work: Vec::new(),
            frames: Vec::new(),
            vars: Vec::new(),
            var_ids: FxHashMap::default(),
            next_site: 1,
            next_input: 0,
            cuts: Cuts::new(),
            target_origin: None,
            sink: 0,
        }
    }

    fn run(&mut self, entry: FuncId, budget: &Budget) -> Result<Graph, Cut> {
        let mut active = FxHashMap::default();
        active.insert(entry, 1);
        self.frames.push(Frame {
            func: entry,
            ret: None,
            active,
        });
        let function = self.module.function(entry);
        for (i, param) in function.params().enumerate() {
            let v = self.var(0, VarKind::Local(param));
            self.vars[v as usize].entry_param = Some(i);
        }
        let start = self.new_node();
        let mut ops = Vec::new();
        self.init_flags(0, &mut ops, function.span);
        self.nodes[start as usize].ops = ops;
        let first = self.node_for((0, Function::ENTRY, 0, self.zero_counters(entry)));
        self.nodes[start as usize].succs.push(plain_edge(first));
        while let Some((key, node)) = self.work.pop() {
            budget.check()?;
            self.fill(key, node);
        }
        let field_slots = self.module.fields.len() as u32 + 1;
        let mut ref_fields: Vec<bool> = self
            .module
            .fields
            .iter()
            .map(|f| self.facts.is_ref_field(f))
            .collect();
        ref_fields.push(false);
        let mut fixed_inputs: Vec<Option<i32>> = (self.module.fields.iter())
            .map(|name| input_bookkeeping(name))
            .collect();
        fixed_inputs.push(None);
        Ok(Graph {
            nodes: std::mem::take(&mut self.nodes),
            entry: start,
            sink: self.sink,
            vars: std::mem::take(&mut self.vars),
            inputs: self.next_input,
            field_slots,
            ref_fields,
            fixed_inputs,
            target_origin: self.target_origin,
            typing: self.typing.cloned(),
        })
    }

    fn new_node(&mut self) -> NodeId {
        self.nodes.push(Node::default());
        (self.nodes.len() - 1) as NodeId
    }

    fn node_for(&mut self, key: Key) -> NodeId {
        if let Some(&n) = self.keys.get(&key) {
            return n;
        }
        let n = self.new_node();
        let func = self.frames[key.0 as usize].func;
        // The header's copy for the first iteration is where the loop is entered from outside.
        let enters_loop = key.2 == 0
            && self.functions[func.index()]
                .loops
                .loop_of_header(key.1)
                .is_some_and(|l| key.3.get(l.index()) == Some(&0));
        self.nodes[n as usize].loop_entry = enters_loop;
        self.keys.insert(key.clone(), n);
        self.work.push((key, n));
        n
    }

    fn zero_counters(&self, func: FuncId) -> Vec<u32> {
        vec![0; self.functions[func.index()].loops.loops.len()]
    }

    fn var(&mut self, frame: u32, kind: VarKind) -> VarId {
        if let Some(&v) = self.var_ids.get(&(frame, kind)) {
            return v;
        }
        let func = self.frames[frame as usize].func;
        let function = self.module.function(func);
        let mut pointee_tag = None;
        let (base, is_ref) = match kind {
            VarKind::Local(l) => {
                let local = function.local(l);
                let is_ref = local.kind != LocalKind::Temp
                    && self.facts.is_ref_local(&function.name, &local.name);
                if is_ref {
                    pointee_tag = self.typing.and_then(|typing| {
                        let ty = self.facts.local_type(&function.name, &local.name)?;
                        typing.tag_of(&ty.pointee()?)
                    });
                }
                (local.name.clone(), is_ref)
            }
            VarKind::Init(l) => (format!("init({})", function.local(l).name), false),
            VarKind::RecordField(l, f) => {
                let field = self
                    .module
                    .fields
                    .get(f as usize)
                    .cloned()
                    .unwrap_or_default();
                (format!("{}.{field}", function.local(l).name), false)
            }
        };
        let name = if frame == 0 {
            base
        } else {
            format!("{base}@{frame}")
        };
        let v = self.vars.len() as VarId;
        self.vars.push(VarInfo {
            name,
            frame,
            func,
            kind,
            is_ref,
            pointee_tag,
            entry_param: None,
        });
        self.var_ids.insert((frame, kind), v);
        v
    }

    /// `init(x) = 0` for every `var` local of the activation: they start uninitialized.
    fn init_flags(&mut self, frame: u32, ops: &mut Vec<Located>, span: Span) {
        let func = self.frames[frame as usize].func;
        let function = self.module.function(func);
        let vars: Vec<LocalId> = (0..function.locals.len() as u32)
            .map(LocalId)
            .filter(|&l| function.local(l).kind == LocalKind::Var)
            .collect();
        for l in vars {
            let flag = self.var(frame, VarKind::Init(l));
            ops.push(Located {
                op: Op::Assign {
                    dst: flag,
                    value: Expr::Use(Atom::Const(0)),
                },
                func,
                span,
            });
        }
    }

    /// Fills node `node`, which starts at `key`.
    fn fill(&mut self, key: Key, node: NodeId) {
        let (frame, block_id, start, counters) = key;
        let func = self.frames[frame as usize].func;
        let function = self.module.function(func);
        let block = function.block(block_id);
        let mut ops: Vec<Located> = Vec::new();
        let mut succs: Vec<Edge> = Vec::new();
        let mut ended = false;
        for (i, inst) in block.insts.iter().enumerate().skip(start) {
            let continuation = (frame, block_id, i + 1, counters.clone());
            if let Some((fail, pass)) = self.target_hit(inst, frame) {
                self.target_origin.get_or_insert((func, inst.span));
                succs.push(plain_edge_cond(fail, self.sink));
                let next = self.node_for(continuation);
                succs.push(plain_edge_cond(pass, next));
                ended = true;
                break;
            }
            if let InstKind::Call {
                dst,
                func: callee,
                args,
            } = &inst.kind
            {
                self.call(
                    frame,
                    *dst,
                    *callee,
                    args,
                    inst.span,
                    continuation,
                    &mut ops,
                    &mut succs,
                );
                ended = true;
                break;
            }
            self.translate(frame, inst, &mut ops);
        }
        if !ended {
            self.terminator(frame, block_id, &counters, &mut ops, &mut succs);
        }
        let n = &mut self.nodes[node as usize];
        n.ops = ops;
        n.succs = succs;
    }

    /// `(fail, pass)` conditions when instruction `i` of the block is the target.
    fn target_hit(&mut self, inst: &Inst, frame: u32) -> Option<(Cond, Cond)> {
        match &inst.kind {
            InstKind::Check { check, prop } if *prop == self.target => {
                let pass = self.check_condition(frame, check)?;
                Some((negate(pass), pass))
            }
            _ => None,
        }
    }

    /// The condition under which a check passes; `None` for checks this engine does not model.
    fn check_condition(&mut self, frame: u32, check: &Check) -> Option<Cond> {
        match check {
            Check::Assert(op)
            | Check::Condition { holds: op, .. }
            | Check::NonZero(op)
            | Check::NonNull(op) => Some(Cond::nonzero(self.atom(frame, *op)?)),
            // Reaching it is the failure: it never passes.
            Check::Reach => Some(Cond::zero(Atom::Const(1))),
            Check::Init(Place {
                base: PlaceBase::Local(l),
                projections,
            }) if projections.is_empty() => {
                let func = self.frames[frame as usize].func;
                if self.module.function(func).local(*l).kind == LocalKind::Var {
                    Some(Cond::nonzero(Atom::Var(self.var(frame, VarKind::Init(*l)))))
                } else {
                    Some(Cond::True)
                }
            }
            _ => None,
        }
    }

    /// The atom of an operand, `None` for locals this engine cannot model as plain variables.
    fn atom(&mut self, frame: u32, op: Operand) -> Option<Atom> {
        match op {
            Operand::Const(n) => Some(Atom::Const(n)),
            // Refused with its own reason (`computes_with_64_bits`, `no_atom`).
            Operand::Const64(_) => None,
            Operand::Null => Some(Atom::Const(0)),
            Operand::Local(l) => {
                let func = self.frames[frame as usize].func;
                let facts = &self.functions[func.index()];
                if self.module.function(func).local(l).address_taken
                    || facts.record_locals.contains_key(&l)
                {
                    return None;
                }
                Some(Atom::Var(self.var(frame, VarKind::Local(l))))
            }
        }
    }

    fn plain_local(&mut self, frame: u32, l: LocalId) -> Option<VarId> {
        let func = self.frames[frame as usize].func;
        if self.module.function(func).local(l).address_taken {
            return None;
        }
        Some(self.var(frame, VarKind::Local(l)))
    }

    /// Pushes the operations of one non-call instruction.
    fn translate(&mut self, frame: u32, inst: &Inst, ops: &mut Vec<Located>) {
        let func = self.frames[frame as usize].func;
        let translated = self.translate_kind(frame, &inst.kind);
        let located = |op| Located {
            op,
            func,
            span: inst.span,
        };
        match translated {
            Ok(list) => ops.extend(list.into_iter().map(located)),
            Err(reason) => ops.push(located(Op::Unsupported(reason))),
        }
    }

    fn translate_kind(&mut self, frame: u32, kind: &InstKind) -> Result<Vec<Op>, String> {
        let unsupported_local =
            || "a variable whose address is taken, or that holds a record value".to_string();
        if kind.computes_with_64_bits() {
            return Err("64-bit numbers".into());
        }
        let mut out = Vec::new();
        match kind {
            InstKind::Assign { dst, value } => {
                let func = self.frames[frame as usize].func;
                if let Rvalue::Record(fields) = value {
                    if !self.functions[func.index()].record_locals.contains_key(dst) {
                        return Err("a record value".into());
                    }
                    for (field, op) in fields {
                        let atom = self.atom(frame, *op).ok_or_else(unsupported_local)?;
                        let v = self.var(frame, VarKind::RecordField(*dst, field.0));
                        out.push(Op::Assign {
                            dst: v,
                            value: Expr::Use(atom),
                        });
                    }
                    self.mark_initialized(frame, *dst, &mut out);
                    return Ok(out);
                }
                let d = self
                    .plain_local(frame, *dst)
                    .ok_or_else(unsupported_local)?;
                if self.holds_record(frame, *dst) {
                    return Err("a record value held in a variable".into());
                }
                match value {
                    Rvalue::Use(op) => out.push(Op::Assign {
                        dst: d,
                        value: Expr::Use(self.atom(frame, *op).ok_or_else(unsupported_local)?),
                    }),
                    Rvalue::Unary(u, op) => out.push(Op::Assign {
                        dst: d,
                        value: Expr::Unary(
                            *u,
                            self.atom(frame, *op).ok_or_else(unsupported_local)?,
                        ),
                    }),
                    Rvalue::Binary(b, x, y) => {
                        let x = self.atom(frame, *x).ok_or_else(unsupported_local)?;
                        let y = self.atom(frame, *y).ok_or_else(unsupported_local)?;
                        out.push(Op::Assign {
                            dst: d,
                            value: Expr::Binary(*b, x, y),
                        });
                    }
                    Rvalue::Alloc(op) => {
                        let site = self.next_site;
                        self.next_site += 1;
                        out.push(Op::Alloc { dst: d, site });
                        let record = match op {
                            Operand::Local(l) => self.functions[func.index()]
                                .record_locals
                                .get(l)
                                .cloned()
                                .map(|fs| (*l, fs)),
                            _ => None,
                        };
                        match record {
                            Some((l, fields)) => {
                                for field in fields {
                                    let v = self.var(frame, VarKind::RecordField(l, field));
                                    out.push(Op::Store {
                                        base: Atom::Var(d),
                                        field,
                                        value: Atom::Var(v),
                                    });
                                }
                            }
                            None => {
                                let value = self.atom(frame, *op).ok_or_else(unsupported_local)?;
                                out.push(Op::Store {
                                    base: Atom::Var(d),
                                    field: self.module.fields.len() as FieldSlot,
                                    value,
                                });
                            }
                        }
                    }
                    Rvalue::Read(place) => {
                        self.refuse_record_copy(place)?;
                        let (base, field) = self.place(frame, place)?;
                        match base {
                            PlaceTarget::Local(v) => out.push(Op::Assign {
                                dst: d,
                                value: Expr::Use(Atom::Var(v)),
                            }),
                            PlaceTarget::Cell(base) => out.push(Op::Load {
                                dst: d,
                                base,
                                field,
                            }),
                        }
                    }
                    Rvalue::AddrOf(_) => return Err("the address of a local (`&x`)".into()),
                    Rvalue::Array(_) => return Err("an array value".into()),
                    Rvalue::Len(_) => return Err("the length of an array".into()),
                    Rvalue::Unreached(_) | Rvalue::LiveObjects => {
                        return Err("the heap objects left (memory leaks)".into())
                    }
                    Rvalue::Record(_) => return Err("a record value".into()),
                }
                self.mark_initialized(frame, *dst, &mut out);
            }
            InstKind::Store { place, value } => {
                self.refuse_record_copy(place)?;
                let value = self.atom(frame, *value).ok_or_else(unsupported_local)?;
                let (base, field) = self.place(frame, place)?;
                match base {
                    PlaceTarget::Local(v) => out.push(Op::Assign {
                        dst: v,
                        value: Expr::Use(value),
                    }),
                    PlaceTarget::Cell(base) => out.push(Op::Store { base, field, value }),
                }
            }
            InstKind::Input { dst } => {
                let d = self
                    .plain_local(frame, *dst)
                    .ok_or_else(unsupported_local)?;
                let symbol = self.next_input;
                self.next_input += 1;
                out.push(Op::Input { dst: d, symbol });
                self.mark_initialized(frame, *dst, &mut out);
            }
            InstKind::Output(_) => {}
            InstKind::Check { check, .. } => {
                let cond = self
                    .check_condition(frame, check)
                    .ok_or_else(|| "an array bounds check or a check through `&x`".to_string())?;
                out.push(Op::Require(cond));
            }
            InstKind::Assume(op) => {
                let atom = self.atom(frame, *op).ok_or_else(unsupported_local)?;
                out.push(Op::Require(Cond::nonzero(atom)));
            }
            InstKind::Call { .. } => return Err("a call in an unexpected position".into()),
        }
        Ok(out)
    }

    /// A whole cell read or written through a pointer where cells hold records (C's `*p = *q`,
    /// `memcpy` of a struct): this engine has a slot per field and one for a cell's content, so
    /// such an access would read or write the content slot, which no field access sees (a wrong
    /// `safe` found by the session-32 review); it is not modelled.
    fn refuse_record_copy(&self, place: &Place) -> Result<(), String> {
        match (&place.base, place.projections.as_slice()) {
            (PlaceBase::Deref(_), []) if self.module.cells_hold_records() => {
                Err("a whole record read or written through a pointer (`*p = *q`)".into())
            }
            _ => Ok(()),
        }
    }

    /// Whether a named local has a record or array type (a value this engine does not model).
    fn holds_record(&self, frame: u32, local: LocalId) -> bool {
        let function = self.module.function(self.frames[frame as usize].func);
        let info = function.local(local);
        info.kind != LocalKind::Temp
            && self
                .facts
                .local_type(&function.name, &info.name)
                .is_some_and(|ty| ty.is_record() || ty.is_array())
    }

    /// `init(x) = 1` after an assignment to a `var` local.
    fn mark_initialized(&mut self, frame: u32, local: LocalId, out: &mut Vec<Op>) {
        let func = self.frames[frame as usize].func;
        if self.module.function(func).local(local).kind == LocalKind::Var {
            let flag = self.var(frame, VarKind::Init(local));
            out.push(Op::Assign {
                dst: flag,
                value: Expr::Use(Atom::Const(1)),
            });
        }
    }

    /// A place this engine models: a plain local, or a field (or the content) of a cell.
    fn place(&mut self, frame: u32, place: &Place) -> Result<(PlaceTarget, FieldSlot), String> {
        let cell_slot = self.module.fields.len() as FieldSlot;
        match (&place.base, place.projections.as_slice()) {
            (PlaceBase::Local(l), []) => {
                let v = self
                    .plain_local(frame, *l)
                    .ok_or_else(|| "a variable whose address is taken".to_string())?;
                Ok((PlaceTarget::Local(v), cell_slot))
            }
            (PlaceBase::Deref(op), []) => {
                let base = self.atom(frame, *op).ok_or("a pointer held in a cell")?;
                Ok((PlaceTarget::Cell(base), cell_slot))
            }
            (PlaceBase::Deref(op), [Projection::Field(f)]) => {
                let base = self.atom(frame, *op).ok_or("a pointer held in a cell")?;
                Ok((PlaceTarget::Cell(base), f.0))
            }
            _ => Err(
                "a part of a record or array value held in a variable, or an array element".into(),
            ),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn call(
        &mut self,
        frame: u32,
        dst: LocalId,
        callee: FuncId,
        args: &[Operand],
        span: Span,
        continuation: Key,
        ops: &mut Vec<Located>,
        succs: &mut Vec<Edge>,
    ) {
        let caller = self.frames[frame as usize].func;
        let active = self.frames[frame as usize]
            .active
            .get(&callee)
            .copied()
            .unwrap_or(0);
        if active >= self.unwind {
            self.cuts.hit(Cut::Inline(self.unwind));
            return;
        }
        let mut chain = self.frames[frame as usize].active.clone();
        *chain.entry(callee).or_default() += 1;
        let new_frame = self.frames.len() as u32;
        self.frames.push(Frame {
            func: callee,
            ret: Some((frame, dst, continuation)),
            active: chain,
        });
        let function = self.module.function(callee);
        let params: Vec<LocalId> = function.params().collect();
        let mut param_vars = Vec::with_capacity(params.len());
        for (param, arg) in params.iter().zip(args) {
            let p = self.var(new_frame, VarKind::Local(*param));
            param_vars.push(p);
            let op = match self.atom(frame, *arg) {
                Some(atom) => Op::Assign {
                    dst: p,
                    value: Expr::Use(atom),
                },
                None => Op::Unsupported(no_atom(*arg, "an argument whose address is taken")),
            };
            ops.push(Located {
                op,
                func: caller,
                span,
            });
        }
        self.init_flags(new_frame, ops, span);
        let entry = self.node_for((new_frame, Function::ENTRY, 0, self.zero_counters(callee)));
        succs.push(Edge {
            cond: Cond::True,
            to: entry,
            branch: None,
            call: Some(CallSite {
                caller,
                span,
                callee,
                params: param_vars,
            }),
        });
    }

    fn terminator(
        &mut self,
        frame: u32,
        block_id: BlockId,
        counters: &[u32],
        ops: &mut Vec<Located>,
        succs: &mut Vec<Edge>,
    ) {
        let func = self.frames[frame as usize].func;
        let function = self.module.function(func);
        let block = function.block(block_id);
        let span = block.term_span;
        match &block.term {
            Terminator::Goto(t) => {
                if let Some(to) = self.successor(frame, block_id, *t, counters) {
                    succs.push(plain_edge(to));
                }
            }
            Terminator::Branch {
                cond,
                then_block,
                else_block,
            } => {
                let Some(atom) = self.atom(frame, *cond) else {
                    ops.push(Located {
                        op: Op::Unsupported(no_atom(
                            *cond,
                            "a branch on a variable whose address is taken",
                        )),
                        func,
                        span,
                    });
                    return;
                };
                for (target, taken) in [(*then_block, true), (*else_block, false)] {
                    if let Some(to) = self.successor(frame, block_id, target, counters) {
                        succs.push(Edge {
                            cond: if taken {
                                Cond::nonzero(atom)
                            } else {
                                Cond::zero(atom)
                            },
                            to,
                            branch: Some((func, span, taken)),
                            call: None,
                        });
                    }
                }
            }
            Terminator::Return(op) => {
                let Some((caller, dst, continuation)) = self.frames[frame as usize].ret.clone()
                else {
                    return;
                };
                let caller_func = self.frames[caller as usize].func;
                match (self.atom(frame, *op), self.plain_local(caller, dst)) {
                    (Some(value), Some(d)) => {
                        let mut out = vec![Op::Assign {
                            dst: d,
                            value: Expr::Use(value),
                        }];
                        self.mark_initialized(caller, dst, &mut out);
                        ops.extend(out.into_iter().map(|op| Located {
                            op,
                            func: caller_func,
                            span,
                        }));
                    }
                    _ => ops.push(Located {
                        op: Op::Unsupported(no_atom(*op, "a returned value held in a cell")),
                        func,
                        span,
                    }),
                }
                let to = self.node_for(continuation);
                succs.push(plain_edge(to));
            }
        }
    }

    /// The node for the edge `from -> to` of activation `frame`, or `None` (and a cut) when the
    /// edge would exceed the unwinding bound.
    fn successor(
        &mut self,
        frame: u32,
        from: BlockId,
        to: BlockId,
        counters: &[u32],
    ) -> Option<NodeId> {
        let func = self.frames[frame as usize].func;
        let loops = &self.functions[func.index()].loops;
        let mut next = vec![0u32; counters.len()];
        for (i, l) in loops.loops.iter().enumerate() {
            if !l.contains(to) {
                continue;
            }
            if l.header == to && l.contains(from) {
                let iteration = counters[i] + 1;
                if iteration > self.unwind {
                    if self.cut_matters(frame, to) {
                        self.cuts.hit(Cut::Unwind(self.unwind));
                    }
                    return None;
                }
                next[i] = iteration;
            } else if l.header == to {
                next[i] = 0;
            } else {
                next[i] = counters[i];
            }
        }
        Some(self.node_for((frame, to, 0, next)))
    }

    /// Whether paths dropped at the back edge into `header` might reach the target: always,
    /// unless the loop is in the entry function, the target is in that function too, and no block
    /// of the target is reachable from the header.
    fn cut_matters(&self, frame: u32, header: BlockId) -> bool {
        let func = self.frames[frame as usize].func;
        if frame != 0 {
            return true;
        }
        let function = self.module.function(func);
        let prop = self.target;
        let target_blocks: Vec<(FuncId, BlockId)> = self
            .module
            .functions
            .iter()
            .enumerate()
            .flat_map(|(fi, f)| {
                f.blocks.iter().enumerate().filter_map(move |(bi, b)| {
                    b.insts
                        .iter()
                        .any(|inst| matches!(&inst.kind, InstKind::Check { prop: p, .. } if *p == prop))
                        .then_some((FuncId(fi as u32), BlockId(bi as u32)))
                })
            })
            .collect();
        if target_blocks.iter().any(|&(f, _)| f != func) {
            return true;
        }
        let reachable = reachable_blocks(function, header);
        target_blocks.iter().any(|&(_, b)| reachable[b.index()])
    }
}

enum PlaceTarget {
    Local(VarId),
    Cell(Atom),
}

fn function_facts(function: &Function) -> FunctionFacts {
    let dominators = Dominators::compute(function);
    let loops = LoopForest::compute(&dominators);
    let mut record_locals = FxHashMap::default();
    for inst in function.blocks.iter().flat_map(|b| &b.insts) {
        if let InstKind::Assign {
            dst,
            value: Rvalue::Record(fields),
        } = &inst.kind
        {
            record_locals.insert(*dst, fields.iter().map(|(f, _)| f.0).collect());
        }
    }
    FunctionFacts {
        loops,
        record_locals,
    }
}

fn reachable_blocks(function: &Function, from: BlockId) -> Vec<bool> {
    let mut seen = vec![false; function.blocks.len()];
    let mut stack = vec![from];
    seen[from.index()] = true;
    while let Some(b) = stack.pop() {
        for s in function.block(b).term.successors() {
            if !seen[s.index()] {
                seen[s.index()] = true;
                stack.push(s);
            }
        }
    }
    seen
}

fn negate(cond: Cond) -> Cond {
    match cond {
        Cond::True => Cond::zero(Atom::Const(1)),
        Cond::NonZero(a) => Cond::Zero(a),
        Cond::Zero(a) => Cond::NonZero(a),
    }
}

fn plain_edge(to: NodeId) -> Edge {
    plain_edge_cond(Cond::True, to)
}

fn plain_edge_cond(cond: Cond, to: NodeId) -> Edge {
    Edge {
        cond,
        to,
        branch: None,
        call: None,
    }
}

/// Why `op` has no atom: a 64-bit constant, or what `otherwise` says of a local.
fn no_atom(op: Operand, otherwise: &str) -> String {
    match op {
        Operand::Const64(_) => "64-bit numbers".into(),
        _ => otherwise.into(),
    }
}
