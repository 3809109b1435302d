//! Building one function's control-flow graph: its locals, its blocks, the block being filled,
//! and the property site of every check it emits. Every front end's lowering uses it (micro-c's
//! [`crate::lower()`], the C front end).
//!
//! Only bookkeeping lives here: what to emit for a construct is the front end's business. A
//! builder never reorders or drops blocks; [`crate::lower::in_reverse_postorder`] does that.

use symex_syntax::span::Span;

use crate::cfg::*;

struct OpenBlock {
    insts: Vec<Inst>,
    term: Option<(Terminator, Span)>,
}

pub struct FunctionBuilder {
    pub func: FuncId,
    pub locals: Vec<LocalInfo>,
    blocks: Vec<OpenBlock>,
    current: BlockId,
    temp_count: u32,
}

impl FunctionBuilder {
    /// A builder for function `func` whose first locals are `locals` (parameters first), with
    /// an empty entry block as the current block.
    pub fn new(func: FuncId, locals: Vec<LocalInfo>) -> FunctionBuilder {
        FunctionBuilder {
            func,
            locals,
            blocks: vec![OpenBlock {
                insts: Vec::new(),
                term: None,
            }],
            current: Function::ENTRY,
            temp_count: 0,
        }
    }

    /// Adds a named local (a declaration the front end met while lowering).
    pub fn add_local(&mut self, info: LocalInfo) -> LocalId {
        let id = LocalId(self.locals.len() as u32);
        self.locals.push(info);
        id
    }

    /// A fresh temporary holding numbers of `width` (or pointers, aggregates: the default).
    pub fn new_temp(&mut self, span: Span, width: Width) -> LocalId {
        let name = format!("%{}", self.temp_count);
        self.temp_count += 1;
        self.add_local(LocalInfo {
            name,
            kind: LocalKind::Temp,
            span,
            address_taken: false,
            width,
            unsigned: false,
            layout: Default::default(),
        })
    }

    pub fn new_block(&mut self) -> BlockId {
        self.blocks.push(OpenBlock {
            insts: Vec::new(),
            term: None,
        });
        BlockId(self.blocks.len() as u32 - 1)
    }

    /// Whether an instruction or terminator emitted so far reads or assigns `local`: as an
    /// operand, as the base of a place, or as the local it assigns.
    pub fn mentions(&self, local: LocalId) -> bool {
        let target = Operand::Local(local);
        let based = |place: &Place| place.base_local() == Some(local);
        let mentioned = |kind: &InstKind| {
            let mut found = kind.defined_local() == Some(local);
            kind.for_each_operand(|op| found |= op == target);
            found
                || match kind {
                    InstKind::Assign { value, .. } => match value {
                        Rvalue::Read(place) | Rvalue::Len(place) => based(place),
                        Rvalue::AddrOf(l) => *l == local,
                        _ => false,
                    },
                    InstKind::Store { place, .. } => based(place),
                    InstKind::Check {
                        check: Check::Init(place) | Check::InBounds { array: place, .. },
                        ..
                    } => based(place),
                    _ => false,
                }
        };
        self.blocks.iter().any(|block| {
            block.insts.iter().any(|inst| mentioned(&inst.kind))
                || (block.term.as_ref()).is_some_and(|(term, _)| term.operand() == Some(target))
        })
    }

    /// How many blocks there are so far.
    pub fn block_count(&self) -> usize {
        self.blocks.len()
    }

    /// The block being filled.
    pub fn current(&self) -> BlockId {
        self.current
    }

    /// Continues emitting into `block` (a fresh one, or one whose predecessors are all built).
    pub fn switch_to(&mut self, block: BlockId) {
        debug_assert!(self.blocks[block.index()].term.is_none());
        self.current = block;
    }

    pub fn emit(&mut self, kind: InstKind, span: Span) {
        let block = &mut self.blocks[self.current.index()];
        debug_assert!(block.term.is_none(), "emitting into a terminated block");
        block.insts.push(Inst { kind, span });
    }

    /// `dst = value` into a fresh temporary, of the width the operands give the value (the
    /// default where they do not decide it: see [`FunctionBuilder::assign_temp_of`]).
    pub fn assign_temp(&mut self, value: Rvalue, span: Span) -> LocalId {
        let width = value.width(&self.locals).unwrap_or_default();
        self.assign_temp_of(value, width, span)
    }

    /// `dst = value` into a fresh temporary of `width` (for a number read from memory, whose
    /// width only the front end knows).
    pub fn assign_temp_of(&mut self, value: Rvalue, width: Width, span: Span) -> LocalId {
        let dst = self.new_temp(span, width);
        self.emit(InstKind::Assign { dst, value }, span);
        dst
    }

    /// Emits a check and registers its property site in `properties` (the module's table),
    /// spanning the construct that fails.
    pub fn emit_check(&mut self, properties: &mut Vec<Property>, check: Check, span: Span) {
        let prop = PropId(properties.len() as u32);
        properties.push(Property {
            kind: check.kind(),
            func: self.func,
            span,
        });
        self.emit(InstKind::Check { check, prop }, span);
    }

    /// Ends the current block; the next emission needs a [`FunctionBuilder::switch_to`].
    pub fn terminate(&mut self, term: Terminator, span: Span) {
        let block = &mut self.blocks[self.current.index()];
        debug_assert!(block.term.is_none(), "block terminated twice");
        block.term = Some((term, span));
    }

    pub fn goto(&mut self, target: BlockId, span: Span) {
        self.terminate(Terminator::Goto(target), span);
    }

    /// Makes `block`, which ends with a `goto`, go to `target` instead: for a front end that
    /// learns only later what must run on the way.
    pub fn redirect(&mut self, block: BlockId, target: BlockId) {
        let term = self.blocks[block.index()].term.as_mut();
        match term {
            Some((Terminator::Goto(old), _)) => *old = target,
            _ => panic!("redirecting a block that does not end with a `goto`"),
        }
    }

    /// Ends the current block with a branch: to `then_block` if `cond` is non-zero.
    pub fn branch(&mut self, cond: Operand, then_block: BlockId, else_block: BlockId, span: Span) {
        let branch = Terminator::Branch {
            cond,
            then_block,
            else_block,
        };
        self.terminate(branch, span);
    }

    /// Whether some path can reach the current block so far: it is the entry or the target of
    /// a terminator (a block opened after a `return` is not, until a jump to it is lowered).
    pub fn current_is_reached(&self) -> bool {
        self.current == Function::ENTRY
            || self.blocks.iter().any(|b| {
                b.term
                    .as_ref()
                    .is_some_and(|(term, _)| term.successors().any(|s| s == self.current))
            })
    }

    /// Ends every block not yet terminated with `term` (for front ends whose statements may
    /// leave blocks open: code after a `return` that nothing reaches, falling off the end).
    pub fn terminate_open_blocks(&mut self, term: &Terminator, span: Span) {
        for block in &mut self.blocks {
            if block.term.is_none() {
                block.term = Some((term.clone(), span));
            }
        }
    }

    /// The function, blocks in creation order.
    ///
    /// # Panics
    /// If a block was never terminated: a bug in the front end's lowering.
    pub fn finish(self, name: String, span: Span, param_count: u32) -> Function {
        let blocks = self
            .blocks
            .into_iter()
            .map(|b| {
                let (term, term_span) = b.term.expect("lowering terminates every block it creates");
                Block {
                    insts: b.insts,
                    term,
                    term_span,
                }
            })
            .collect();
        Function {
            name,
            span,
            param_count,
            locals: self.locals,
            blocks,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mentions_sees_reads_writes_and_places_of_a_local() {
        let span = Span::default();
        let mut b = FunctionBuilder::new(FuncId(0), Vec::new());
        let var = |b: &mut FunctionBuilder, name: &str| {
            b.add_local(LocalInfo {
                name: name.to_string(),
                kind: LocalKind::Var,
                span,
                address_taken: false,
                width: Width::W32,
                unsigned: false,
                layout: Default::default(),
            })
        };
        let (p, q, r) = (var(&mut b, "p"), var(&mut b, "q"), var(&mut b, "r"));
        assert!(!b.mentions(p));
        let read = b.assign_temp(Rvalue::Use(Operand::Local(q)), span);
        b.emit(
            InstKind::Check {
                check: Check::Init(Place::local(r)),
                prop: PropId(0),
            },
            span,
        );
        assert!(b.mentions(q) && b.mentions(read) && b.mentions(r) && !b.mentions(p));
        b.emit(
            InstKind::Assign {
                dst: p,
                value: Rvalue::Use(Operand::Const(1)),
            },
            span,
        );
        assert!(b.mentions(p));
    }
}
