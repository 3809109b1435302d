//! A symbolic state of the forward engine: where it is, its call stack, its memory, its path
//! condition and what it has read and done so far.
//!
//! Forking clones a state cheaply: frames are `Rc`-shared and copied on their first write
//! (their locals by chunks, and the chunks of locals nothing reads any more forgotten at a
//! fork: `forward/locals.rs`), in a persistent vector (a fork and a path's end cost a
//! constant however deep the recursion:
//! pending states of a deeply recursive run held a vector of thousands of frames each, and
//! freeing them ran seconds past the time limit), memory is shared by chunks, the path
//! condition is a persistent sequence (a fork costs a constant however long the path; the
//! query layer keeps a model per path by its numbers).
//! Nothing here executes instructions.

use std::rc::Rc;

use imbl::shared_ptr::RcK;
use symex_ir::cfg::{BlockId, FuncId, LocalId};
use symex_smt::PathCondition;

use crate::forward::locals::Locals;
use crate::forward::memory::Memory;
use crate::forward::merge::PathCount;
use crate::forward::subsume::Track;
use crate::forward::value::SymValue;
use crate::heap::HeapState;

/// A state's number, unique within one check.
pub type StateId = u64;

#[derive(Clone, Debug)]
pub struct Frame {
    pub func: FuncId,
    pub block: BlockId,
    /// The next instruction; `insts.len()` means the terminator.
    pub inst: usize,
    /// Cell-backed locals hold `SymValue::Cell` of their cell.
    pub locals: Locals,
    /// Where the caller wants the result (none for the entry).
    pub return_to: Option<LocalId>,
    /// Back edges taken per loop of the function since the loop was last entered.
    pub iterations: Vec<u32>,
}

/// Replaces the values of `frame`'s locals for which `change` gives a new one; a frame in
/// which nothing changes stays shared.
pub fn replace_locals<E>(
    frame: &mut Rc<Frame>,
    change: impl FnMut(&SymValue) -> Result<Option<SymValue>, E>,
) -> Result<(), E> {
    if let Some(locals) = frame.locals.replaced(change)? {
        Rc::make_mut(frame).locals = locals;
    }
    Ok(())
}

/// A call stack, the entry's frame first.
pub type Stack = imbl::GenericVector<Rc<Frame>, RcK>;

#[derive(Clone, Debug)]
pub struct State {
    pub stack: Stack,
    pub memory: Memory,
    /// Satisfiable conjunction of Boolean terms (ask about it as it is, not as a copied
    /// slice: the query layer answers most questions from the model it keeps for the path).
    pub pc: PathCondition,
    /// How many `input`s this path has read: the symbols `#0 .. #n-1`.
    pub inputs_read: u32,
    /// Symbolic branch forks on this path (for `--max-depth`).
    pub depth: u32,
    /// The paths this state stands for (more than one after `--merge`).
    pub paths: PathCount,
    /// The blocks run so far, kept only with `--subsume`.
    pub annotation_track: Track,
    /// The symbolic input heap (empty unless the entry has pointer parameters).
    pub heap: HeapState,
}

impl State {
    pub fn frame(&self) -> Option<&Frame> {
        self.stack.back().map(|f| &**f)
    }

    /// The top frame, copied first if another state shares it.
    pub fn frame_mut(&mut self) -> Option<&mut Frame> {
        self.stack.back_mut().map(Rc::make_mut)
    }

    /// Where the state is: function, block, instruction.
    pub fn location(&self) -> Option<(FuncId, BlockId, usize)> {
        self.frame().map(|f| (f.func, f.block, f.inst))
    }

    /// Active activations of `func`.
    pub fn activations(&self, func: FuncId) -> usize {
        self.stack.iter().filter(|f| f.func == func).count()
    }
}
