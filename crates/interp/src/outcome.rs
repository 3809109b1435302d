//! What a run produces: the printed numbers, how the run ended, how many instructions it took,
//! and optionally the path it took and the events along it. Plain data; nothing here executes.

use symex_ir::cfg::{BlockId, FieldId, FuncId, LocalId, PropId, PropertyKind};
use symex_syntax::span::Span;

use crate::config::Limit;
use crate::value::{CellId, Value};

#[derive(Clone, Debug, PartialEq)]
pub struct RunOutcome {
    /// Every `output`, in order (also streamed to the caller's sink as they happen).
    pub outputs: Vec<i32>,
    pub end: RunEnd,
    /// IR instructions executed, terminators included.
    pub steps: u64,
    /// Input numbers consumed (reads past the end, which give -1, not counted).
    pub inputs_read: usize,
    /// The blocks entered, in order, when [`crate::RunConfig::record_path`] was set.
    pub path: Option<Vec<PathStep>>,
    /// What happened along the run, in order, when [`crate::RunConfig::record_events`] was set
    /// (the first [`crate::MAX_EVENTS`] events).
    pub events: Option<Vec<RunEvent>>,
    /// The instructions and branch directions executed, when
    /// [`crate::RunConfig::record_coverage`] was set.
    pub coverage: Option<RunCoverage>,
    /// The span of each `input` instruction executed, in order, when
    /// [`crate::RunConfig::record_input_sites`] was set.
    pub input_sites: Option<Vec<Span>>,
}

/// What one run executed: per function and block, one flag per instruction and one for the
/// terminator (an instruction counts once it starts, so a failing check is covered); per
/// conditional branch, its then and else directions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunCoverage {
    pub instructions: Vec<Vec<Vec<bool>>>,
    pub branches: Vec<Vec<[bool; 2]>>,
}

impl RunCoverage {
    /// Nothing executed yet, shaped like `module`.
    pub fn new(module: &symex_ir::cfg::Module) -> RunCoverage {
        RunCoverage {
            instructions: module
                .functions
                .iter()
                .map(|f| {
                    f.blocks
                        .iter()
                        .map(|b| vec![false; b.insts.len() + 1])
                        .collect()
                })
                .collect(),
            branches: module
                .functions
                .iter()
                .map(|f| vec![[false; 2]; f.blocks.len()])
                .collect(),
        }
    }
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq)]
pub enum RunEnd {
    /// The entry function returned this value (`main`'s result).
    Returned(Value),
    /// A check or assertion failed: one of the five properties, at the property's source span.
    RuntimeError {
        prop: PropId,
        kind: PropertyKind,
        span: Span,
    },
    /// `assume(e)` with `e == 0`: the input is outside the precondition.
    AssumeFailed { span: Span },
    /// A dynamic type mismatch (`*5`, `1 + null`, a missing field, a wrong argument count...).
    TypeError { message: String, span: Span },
    /// A configured limit stopped the run at the instruction with this span.
    LimitExceeded { limit: Limit, span: Span },
    /// The IR broke one of its own invariants (a lowering bug), e.g. a division by zero that no
    /// `Check` guarded or a read of an uninitialized value without `Check::Init`.
    IrInvariant { message: String, span: Span },
}

impl RunEnd {
    /// The returned number, if the run returned one.
    pub fn returned_int(&self) -> Option<i32> {
        match self {
            RunEnd::Returned(v) => v.as_int(),
            _ => None,
        }
    }

    /// The violated property's kind, if the run stopped on a runtime error.
    pub fn error_kind(&self) -> Option<PropertyKind> {
        match self {
            RunEnd::RuntimeError { kind, .. } => Some(*kind),
            _ => None,
        }
    }

    /// The source span the run ended at (none for a normal return).
    pub fn span(&self) -> Option<Span> {
        match self {
            RunEnd::Returned(_) => None,
            RunEnd::RuntimeError { span, .. }
            | RunEnd::AssumeFailed { span }
            | RunEnd::TypeError { span, .. }
            | RunEnd::LimitExceeded { span, .. }
            | RunEnd::IrInvariant { span, .. } => Some(*span),
        }
    }
}

/// One block entry of the executed path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PathStep {
    pub func: FuncId,
    pub block: BlockId,
}

/// One event of a run, at the source span of the instruction or terminator that caused it, in
/// the function `func` executing it.
#[derive(Clone, Debug, PartialEq)]
pub struct RunEvent {
    pub func: FuncId,
    pub span: Span,
    pub kind: EventKind,
}

/// What happened. Only source variables (never the lowering's temporaries) are assigned here.
#[derive(Clone, Debug, PartialEq)]
pub enum EventKind {
    /// A two-way branch went to its `then` side (`true`) or its `else` side.
    Branch { condition: bool },
    /// `callee` was called with these argument values.
    Call { callee: FuncId, args: Vec<Value> },
    /// The event's function returned this value.
    Return { value: Value },
    /// The source variable `var` of the event's function now holds `value` (a whole-variable
    /// write: assignment, `input`, or a call's result).
    Assign { var: LocalId, value: Value },
    /// `input` read the `index`-th input number (0-based); past the end it reads -1.
    Input { index: u32, value: i32 },
    /// `alloc` made `cell`, holding `value`.
    Alloc { cell: CellId, value: Value },
    /// The address-taken source variable `var` of the event's function lives in `cell` for this
    /// activation (recorded when the function starts, before its first event).
    LocalCell { var: LocalId, cell: CellId },
    /// A write of part of a variable (`a[i] = v`, `r.f = v`) or of a cell (`*p = v`,
    /// `p->f = v`): `value` now sits at `path` below `target`.
    Store {
        target: StoreTarget,
        path: Vec<Access>,
        value: Value,
    },
}

/// What a [`EventKind::Store`] wrote into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StoreTarget {
    /// A source variable of the event's call (also one whose address is taken, written
    /// through a pointer).
    Local(LocalId),
    /// A memory cell: from `alloc`, an input heap, or a variable of another call.
    Cell(CellId),
}

/// One step below a stored-into value: a record field or an array element.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    Field(FieldId),
    Index(i32),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accessors() {
        let span = Span::new(3, 5);
        let ret = RunEnd::Returned(Value::Int(7));
        assert_eq!(ret.returned_int(), Some(7));
        assert_eq!(ret.span(), None);
        let err = RunEnd::RuntimeError {
            prop: PropId(0),
            kind: PropertyKind::DivByZero,
            span,
        };
        assert_eq!(err.error_kind(), Some(PropertyKind::DivByZero));
        assert_eq!(err.span(), Some(span));
        assert_eq!(RunEnd::Returned(Value::Null).returned_int(), None);
    }
}
