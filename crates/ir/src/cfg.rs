//! The IR's data: a [`Module`] of per-function control-flow graphs of three-address instructions.
//!
//! Invariants (checked by `verify`):
//! * every block ends in exactly one [`Terminator`]; block and local ids are in range;
//! * operands are constants or locals; only [`Place`]s reach into memory, and a place has at most
//!   one dereference, at its base;
//! * numbers have a width (32 or 64 bits, see [`Operand`]): every operation's operands agree on
//!   it, and every local receives numbers of the [`Width`] it declares;
//! * every operation that can fail at runtime is preceded, in the same block, by the [`Check`]
//!   that guards it (divisor non-zero, pointer non-null, index in bounds, `var` local initialized),
//!   so engines find every property as an explicit instruction;
//! * temporaries are assigned before use on every path;
//! * every block is reachable from the entry, and the entry block has no predecessors
//!   (lowering numbers blocks in reverse postorder).
//!
//! The exact guard rule the verifier applies is in `verify/guards.rs`; the lowering rules
//! (evaluation order, when `Init` checks reads through pointers) are in `lower/mod.rs`.
//! Nothing here executes or analyses; see `interp` and the analyses modules.

use symex_syntax::span::Span;

/// Fields whose names hold a `#` are a front end's bookkeeping (the C front end's `#assigned`
/// flags and heap state), which traces leave out.
pub const BOOKKEEPING_MARK: char = '#';

/// The bookkeeping flag of a value field `f` of a front end's object: `f#assigned` is 0 while
/// `f` holds no value yet (C's indeterminate members); a scalar object is the record of
/// [`SCALAR_OBJECT_FIELDS`]. Traces show such a field as unassigned and such an object as its
/// value.
pub const ASSIGNED_FLAG_SUFFIX: &str = "#assigned";

/// The fields of a front end's object holding one scalar: its value and its flag.
pub const SCALAR_OBJECT_FIELDS: [&str; 2] = ["value", ASSIGNED_FLAG_SUFFIX];

/// The fields of a front end's pointer into an array (C's `&a[i]`): the pointer to the cell
/// holding the array and an element index. Traces show such a record as the element's address.
pub const ELEMENT_POINTER_FIELDS: [&str; 2] = ["#base", "#index"];

/// The bookkeeping field that holds an object's heap state (C's `malloc`/`free`); a write of
/// [`HEAP_FREED`] to it is the object's `free`, which traces show as such.
pub const HEAP_STATE_FIELD: &str = "#heap";

/// The heap state of an object that `free` released.
pub const HEAP_FREED: i32 = 2;

/// The heap state of a live object that `malloc` made.
pub const HEAP_LIVE: i32 = 1;

/// The heap state of a variable whose function returned (C's end of its lifetime).
pub const HEAP_DEAD: i32 = 5;

/// The value of the bookkeeping field `name` in an object of an entry function's input heap
/// (one its caller made): every member is assigned (`#assigned` flags 1, as KLEE's and CBMC's
/// harnesses give their inputs values) and the object is a live heap object (`#heap`); `None`
/// for the fields whose values are inputs.
pub fn input_bookkeeping(name: &str) -> Option<i32> {
    if name.ends_with(ASSIGNED_FLAG_SUFFIX) {
        Some(1)
    } else if name == HEAP_STATE_FIELD {
        Some(HEAP_LIVE)
    } else {
        None
    }
}

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub u32);
        impl $name {
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}

id_type!(
    /// A function of the module.
    FuncId
);
id_type!(
    /// A basic block of one function.
    BlockId
);
id_type!(
    /// A local slot of one function: parameter, `var` variable or temporary.
    LocalId
);
id_type!(
    /// A record field name, interned module-wide.
    FieldId
);
id_type!(
    /// A property (check or assertion) site, numbered module-wide.
    PropId
);

#[derive(Clone, Debug, Default)]
pub struct Module {
    /// Functions in source order; `FuncId(i)` is `functions[i]`.
    pub functions: Vec<Function>,
    /// Field names; `FieldId(i)` is `fields[i]`.
    pub fields: Vec<String>,
    /// Every property site; `PropId(i)` is `properties[i]`.
    pub properties: Vec<Property>,
}

#[derive(Clone, Debug)]
pub struct Function {
    pub name: String,
    pub span: Span,
    /// The first `params.len()` locals are the parameters, in order.
    pub param_count: u32,
    pub locals: Vec<LocalInfo>,
    /// `BlockId(i)` is `blocks[i]`; the entry block is `BlockId(0)`.
    pub blocks: Vec<Block>,
}

impl Function {
    pub const ENTRY: BlockId = BlockId(0);

    pub fn params(&self) -> impl Iterator<Item = LocalId> {
        (0..self.param_count).map(LocalId)
    }

    pub fn block(&self, id: BlockId) -> &Block {
        &self.blocks[id.index()]
    }

    pub fn local(&self, id: LocalId) -> &LocalInfo {
        &self.locals[id.index()]
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LocalKind {
    Param,
    /// Declared by `var`: starts uninitialized.
    Var,
    /// Introduced by lowering; always assigned before use.
    Temp,
    /// A source variable that every path from the entry assigns before each read (a C local
    /// with an initializer, see [`crate::promote`]): no `Init` check guards its reads.
    Assigned,
}

#[derive(Clone, Debug)]
pub struct LocalInfo {
    /// Source name, or `%N` for temporaries.
    pub name: String,
    pub kind: LocalKind,
    /// Where it is declared (for temporaries: the expression it holds).
    pub span: Span,
    /// Whether `&` is taken of it somewhere (then it lives in a memory cell).
    pub address_taken: bool,
    /// The width of the numbers it holds (a local holding pointers or aggregates has the
    /// default, which nothing reads). The verifier checks every operation against it.
    pub width: Width,
    /// Whether the front end reads its numbers as unsigned (C's `unsigned int`): reports show
    /// them so. No operation reads it (the operators say how they read their operands).
    pub unsigned: bool,
    /// How reports index it where it holds an array that stands for something else in the
    /// source. No operation reads it.
    pub layout: Layout,
}

/// What an array local stands for in the source, for reports ([`LocalInfo::layout`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Layout {
    /// Itself: `a[2]` is element 2.
    #[default]
    Plain,
    /// An array of several dimensions in row-major order (C's `int m[2][3]` is one array of
    /// six): element 5 is shown `m[1][2]`.
    RowMajor(Vec<u32>),
    /// A variable that is an array of one (C counts every object so, for pointer
    /// arithmetic): element 0 is shown as the variable, `x`.
    One,
}

impl Layout {
    /// The source's indices of element `index`.
    pub fn indices(&self, index: i64) -> Vec<i64> {
        match self {
            Layout::Plain => vec![index],
            Layout::One if index == 0 => Vec::new(),
            Layout::One => vec![index],
            Layout::RowMajor(dims) => {
                let mut rest = index;
                let mut indices = vec![0; dims.len()];
                for (k, &dim) in dims.iter().enumerate().rev() {
                    let dim = i64::from(dim.max(1));
                    match k {
                        0 => indices[0] = rest,
                        _ => {
                            indices[k] = rest.rem_euclid(dim);
                            rest = rest.div_euclid(dim);
                        }
                    }
                }
                indices
            }
        }
    }
}

/// The width of a number: see [`Operand`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Width {
    #[default]
    W32,
    W64,
}

impl Width {
    pub fn bits(self) -> u32 {
        match self {
            Width::W32 => 32,
            Width::W64 => 64,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Block {
    pub insts: Vec<Inst>,
    pub term: Terminator,
    pub term_span: Span,
}

#[derive(Clone, Debug)]
pub struct Inst {
    pub kind: InstKind,
    pub span: Span,
}

/// A value an instruction reads without touching memory.
///
/// Numbers have a width: 32 bits (micro-c's only kind, C's types up to `int`) or 64 bits (C's
/// `long long`, and `long` in LP64). An operation's operands have one width, and its result has
/// that width too, except that comparisons and `!` yield a 32-bit 0 or 1; only the conversions
/// [`UnOp::SignExtend`], [`UnOp::ZeroExtend`] and [`UnOp::Truncate`] change it. Inputs, array
/// indices and lengths are 32-bit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    Const(i32),
    /// A 64-bit number.
    Const64(i64),
    Null,
    /// The current value of a local (for a `var` local, a preceding `Check::Init` guards it).
    Local(LocalId),
}

/// A memory location: a local or the cell a pointer points to, then field and index projections.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Place {
    pub base: PlaceBase,
    pub projections: Vec<Projection>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlaceBase {
    Local(LocalId),
    /// The cell `*p`; a preceding `Check::NonNull(p)` guards it.
    Deref(Operand),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Projection {
    Field(FieldId),
    /// A preceding `Check::InBounds` guards it.
    Index(Operand),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    /// 1 if zero, else 0.
    Not,
    /// Wrapping negation.
    Neg,
    /// Bitwise complement (`~`).
    BitNot,
    /// A 32-bit number as the 64-bit number of the same signed value.
    SignExtend,
    /// A 32-bit number as the 64-bit number of the same unsigned value.
    ZeroExtend,
    /// The low 32 bits of a 64-bit number.
    Truncate,
}

impl UnOp {
    /// The operator as the IR printer writes it.
    pub fn symbol(self) -> &'static str {
        match self {
            UnOp::Not => "!",
            UnOp::Neg => "-",
            UnOp::BitNot => "~",
            UnOp::SignExtend => "sext64 ",
            UnOp::ZeroExtend => "zext64 ",
            UnOp::Truncate => "trunc32 ",
        }
    }
}

/// Binary operators on numbers of one width (wrapping; see [`Operand`]) and, for `Eq`/`Ne`, on
/// pointers.
/// Short-circuit `&&`/`||` are lowered to branches and never appear here. The operators whose
/// result depends on signedness come in two forms: the plain ones read their operands as signed
/// (two's complement, micro-c's only kind), the `U` ones as unsigned (C's `unsigned int`); the
/// others are the same on the bits either way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    /// Truncating; `MIN / -1 == MIN` (`MIN` the width's least number). Guarded by
    /// `Check::NonZero`.
    Div,
    /// Sign of the dividend; `MIN % -1 == 0`. Guarded by `Check::NonZero`.
    Rem,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    /// Left shift by an amount of the value's width; the amount (read as unsigned) is below
    /// the width where C defines it (a `Check::Condition` guards C's shifts); the width or more
    /// gives 0, as in SMT-LIB.
    Shl,
    /// Arithmetic (sign-filling) right shift; the width or more fills with the sign.
    AShr,
    /// Logical (zero-filling) right shift; the width or more gives 0.
    LShr,
    /// Unsigned quotient. Guarded by `Check::NonZero`.
    UDiv,
    /// Unsigned remainder. Guarded by `Check::NonZero`.
    URem,
    ULt,
    ULe,
    UGt,
    UGe,
    /// Bitwise and, or, exclusive or.
    BitAnd,
    BitOr,
    BitXor,
    /// 1 if the product of the operands, both read as signed, fits in their width, else 0: the
    /// condition of C's signed-overflow check of `*`, which the other operators cannot state
    /// without a division that would need its own check.
    MulFits,
}

impl BinOp {
    /// The operator as written in micro-c.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Shl => "<<",
            BinOp::AShr => ">>",
            BinOp::LShr => ">>u",
            BinOp::UDiv => "/u",
            BinOp::URem => "%u",
            BinOp::ULt => "<u",
            BinOp::ULe => "<=u",
            BinOp::UGt => ">u",
            BinOp::UGe => ">=u",
            BinOp::BitAnd => "&",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::MulFits => "*fits",
        }
    }

    /// Whether the result is a truth value: a 32-bit 0 or 1 whatever the operands' width.
    pub fn yields_truth(self) -> bool {
        matches!(
            self,
            BinOp::Eq
                | BinOp::Ne
                | BinOp::Lt
                | BinOp::Le
                | BinOp::Gt
                | BinOp::Ge
                | BinOp::ULt
                | BinOp::ULe
                | BinOp::UGt
                | BinOp::UGe
                | BinOp::MulFits
        )
    }

    /// Whether the operator divides (and so needs a `Check::NonZero` of its divisor).
    pub fn divides(self) -> bool {
        matches!(self, BinOp::Div | BinOp::Rem | BinOp::UDiv | BinOp::URem)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Rvalue {
    Use(Operand),
    Unary(UnOp, Operand),
    Binary(BinOp, Operand, Operand),
    /// A fresh heap cell holding the value.
    Alloc(Operand),
    /// The address of a local's cell (the local is `address_taken`).
    AddrOf(LocalId),
    /// A record value; fields sorted by `FieldId`, no duplicates.
    Record(Vec<(FieldId, Operand)>),
    Array(Vec<Operand>),
    /// The value stored at a place (locals, fields, elements, `*p`).
    Read(Place),
    /// The length of the array stored at a place (guarded as a read of it): what C's
    /// `realloc` copies of the old array.
    Len(Place),
    /// How many live heap objects certainly no chain of pointers from the operands' values
    /// reaches (C's memory leaks where a program ends, the operands being its globals): above
    /// 0 a leak, 0 no claim; defined in [`crate::unreached`].
    Unreached(Vec<Operand>),
    /// How many live heap objects there are (by their heap states, [`HEAP_LIVE`]): where a
    /// program ends with its variables gone, each is a leak; defined in [`crate::unreached`].
    LiveObjects,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum InstKind {
    /// `dst = value`
    Assign {
        dst: LocalId,
        value: Rvalue,
    },
    /// `place = value` (writes into memory or into part of a local aggregate).
    Store {
        place: Place,
        value: Operand,
    },
    /// `dst = func(args)`
    Call {
        dst: LocalId,
        func: FuncId,
        args: Vec<Operand>,
    },
    /// `dst = input`: next input number (concrete) or a fresh symbol (symbolic).
    Input {
        dst: LocalId,
    },
    Output(Operand),
    /// A runtime-error check or assertion: the run stops with the property's error if it fails.
    Check {
        check: Check,
        prop: PropId,
    },
    /// Drop the run (silently) unless the operand is non-zero.
    Assume(Operand),
}

/// The condition a [`InstKind::Check`] requires.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Check {
    /// `assert(op)`: op != 0.
    Assert(Operand),
    /// `holds != 0`, where the front end computed `holds` from the operands of the guarded
    /// operation; reported as `kind` (e.g. C's shift amounts: [`PropertyKind::ShiftOutOfRange`]).
    /// Every engine treats it as it treats `Assert`, so a front end adds a kind of undefined
    /// behaviour without touching the engines.
    Condition { holds: Operand, kind: PropertyKind },
    /// Divisor op != 0.
    NonZero(Operand),
    /// Pointer op != null.
    NonNull(Operand),
    /// `0 <= index < len(array at place)`.
    InBounds { array: Place, index: Operand },
    /// The value at the place was assigned (a `var` local, or a cell reached through `&x`).
    Init(Place),
    /// Never holds: a reachability target (`--reach LINE`), inserted only by [`crate::reach`],
    /// so that running into it is a "failure" every engine and the interpreter already report.
    Reach,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PropertyKind {
    Assert,
    DivByZero,
    NullDeref,
    OutOfBounds,
    Uninit,
    /// A statement of a `--reach` line is executed (never produced by lowering).
    Reach,
    /// C: a shift by a negative amount or by at least the operand's width (32 bits).
    ShiftOutOfRange,
    /// C: an operation on signed integers whose result does not fit its type (checked only on
    /// request: `--signed-overflow`, SV-COMP's `no-overflow`).
    Overflow,
    /// C: a value or operation outside what the front end models (a 64-bit integer beyond 32
    /// bits, `free` of a pointer into an object). Not an error of the program: a report turns a run that fails
    /// it into `unknown` for every property it could hide (`Report::new`).
    Unmodelled,
    /// C: an access to a heap object after `free` released it (SV-COMP's `valid-deref`).
    UseAfterFree,
    /// C: an access to a function's local variable after the function returned, through a
    /// pointer that outlived it (SV-COMP's `valid-deref`).
    UseAfterReturn,
    /// C: an access through a pointer made from a nonzero integer, which points to no object
    /// (SV-COMP's `valid-deref`).
    InvalidPointer,
    /// C: `free` of a pointer that is not to a live heap object: a second `free`, the address
    /// of a variable, or a pointer made from an integer (SV-COMP's `valid-free`).
    InvalidFree,
    /// C: a write into a string literal, whose characters C leaves read-only (C11 6.4.5p7:
    /// undefined).
    LiteralWrite,
    /// C: heap memory still allocated when `main` returns, where no global variable can point
    /// to it, so it is lost (checked only on request: `--memory-leaks`, SV-COMP's
    /// `valid-memtrack`).
    MemoryLeak,
}

impl PropertyKind {
    /// The name used by reports and by the corpus headers.
    pub fn name(self) -> &'static str {
        match self {
            PropertyKind::Assert => "assert",
            PropertyKind::DivByZero => "div-by-zero",
            PropertyKind::NullDeref => "null-deref",
            PropertyKind::OutOfBounds => "out-of-bounds",
            PropertyKind::Uninit => "uninit",
            PropertyKind::Reach => "reach",
            PropertyKind::ShiftOutOfRange => "shift-out-of-range",
            PropertyKind::Overflow => "overflow",
            PropertyKind::Unmodelled => "unmodelled",
            PropertyKind::UseAfterFree => "use-after-free",
            PropertyKind::UseAfterReturn => "use-after-return",
            PropertyKind::InvalidPointer => "invalid-pointer",
            PropertyKind::InvalidFree => "invalid-free",
            PropertyKind::LiteralWrite => "literal-write",
            PropertyKind::MemoryLeak => "memory-leak",
        }
    }

    /// Every kind, in the order reports list them.
    pub const ALL: [PropertyKind; 15] = [
        PropertyKind::Assert,
        PropertyKind::DivByZero,
        PropertyKind::NullDeref,
        PropertyKind::OutOfBounds,
        PropertyKind::Uninit,
        PropertyKind::Reach,
        PropertyKind::ShiftOutOfRange,
        PropertyKind::Overflow,
        PropertyKind::Unmodelled,
        PropertyKind::UseAfterFree,
        PropertyKind::UseAfterReturn,
        PropertyKind::InvalidPointer,
        PropertyKind::InvalidFree,
        PropertyKind::LiteralWrite,
        PropertyKind::MemoryLeak,
    ];

    pub fn from_name(name: &str) -> Option<PropertyKind> {
        PropertyKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

impl Check {
    pub fn kind(&self) -> PropertyKind {
        match self {
            Check::Assert(_) => PropertyKind::Assert,
            Check::Condition { kind, .. } => *kind,
            Check::NonZero(_) => PropertyKind::DivByZero,
            Check::NonNull(_) => PropertyKind::NullDeref,
            Check::InBounds { .. } => PropertyKind::OutOfBounds,
            Check::Init(_) => PropertyKind::Uninit,
            Check::Reach => PropertyKind::Reach,
        }
    }
}

/// A property site: what can go wrong, where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Property {
    pub kind: PropertyKind,
    pub func: FuncId,
    /// The source construct whose evaluation fails (the division, the dereference, ...).
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Terminator {
    Goto(BlockId),
    /// Jump to `then_block` if `cond != 0`, else to `else_block`.
    Branch {
        cond: Operand,
        then_block: BlockId,
        else_block: BlockId,
    },
    Return(Operand),
}

impl Terminator {
    pub fn successors(&self) -> impl Iterator<Item = BlockId> + '_ {
        let (a, b) = match *self {
            Terminator::Goto(t) => (Some(t), None),
            Terminator::Branch {
                then_block,
                else_block,
                ..
            } => (Some(then_block), Some(else_block)),
            Terminator::Return(_) => (None, None),
        };
        a.into_iter().chain(b)
    }
}

#[cfg(test)]
mod tests {
    use super::Layout;

    #[test]
    fn layouts_give_the_sources_indices() {
        let matrix = Layout::RowMajor(vec![2, 3]);
        assert_eq!(matrix.indices(0), vec![0, 0]);
        assert_eq!(matrix.indices(5), vec![1, 2]);
        // One past the end, and a pointer moved before the start, keep C's arithmetic.
        assert_eq!(matrix.indices(6), vec![2, 0]);
        assert_eq!(matrix.indices(-1), vec![-1, 2]);
        assert_eq!(Layout::RowMajor(vec![2, 2, 2]).indices(7), vec![1, 1, 1]);
        assert_eq!(Layout::One.indices(0), Vec::<i64>::new());
        assert_eq!(Layout::One.indices(1), vec![1]);
        assert_eq!(Layout::Plain.indices(4), vec![4]);
    }
}
