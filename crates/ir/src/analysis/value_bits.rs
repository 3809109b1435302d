//! Known value widths: at every block start, for each local, a number of bits `k` such that its
//! value read as unsigned is below `2^k` on every path from the entry (`x = input & 255` keeps
//! `x` below 256 wherever it is not assigned again).
//!
//! A forward data flow (`local_facts`). A non-negative constant needs its bit length; `&` needs
//! the fewer bits of its operands, `|` and `^` the more, `+` one more than the more, `*` the
//! sum, a left shift by a constant that many more, a logical right shift by a constant that
//! many fewer, an unsigned division its dividend's, an unsigned remainder the fewer, a
//! comparison or `!` one bit, a zero extension its operand's, a sign extension its operand's
//! where that is below 32 (so the sign bit is 0), a truncation at most 32. Anything else
//! (parameters, inputs, memory, calls, subtraction, signed division, negation, complement,
//! arithmetic shifts) knows nothing. A count of 32 or more says nothing about a 32-bit local:
//! the arithmetic above never wraps below it. A join keeps the more bits; counts only grow, so
//! the fixed point comes after at most 65 rounds per local.
//!
//! What it finds holds on every path; path subsumption still proves the loop invariants it
//! proposes (`n <= 255`) before using them. It reads the IR only.

use super::local_facts::{solve, LocalFact};
use crate::cfg::{BinOp, BlockId, Function, LocalId, Operand, Rvalue, UnOp};

/// A value known below `2^bits`; [`ANY`] bits: nothing known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fact {
    Unassigned,
    Below { bits: u32 },
}

/// The most bits a value has (64-bit locals).
const ANY: u32 = 64;

fn below(bits: u32) -> Fact {
    Fact::Below {
        bits: bits.min(ANY),
    }
}

/// The bits a non-negative number needs.
fn length(n: u64) -> u32 {
    64 - n.leading_zeros()
}

impl Fact {
    fn bits(self) -> u32 {
        match self {
            Fact::Below { bits } => bits,
            Fact::Unassigned => ANY,
        }
    }
}

fn binary(op: BinOp, a: Fact, b: Fact) -> Fact {
    let (x, y) = (a.bits(), b.bits());
    match op {
        BinOp::BitAnd | BinOp::URem => below(x.min(y)),
        BinOp::BitOr | BinOp::BitXor => below(x.max(y)),
        BinOp::Add => below(x.max(y) + 1),
        BinOp::Mul => below(x + y),
        BinOp::UDiv => below(x),
        _ if op.yields_truth() => below(1),
        _ => below(ANY),
    }
}

fn operand(facts: &[Fact], op: Operand) -> Fact {
    match op {
        Operand::Const(n) if n >= 0 => below(length(n as u64)),
        Operand::Const64(n) if n >= 0 => below(length(n as u64)),
        Operand::Local(l) => match facts.get(l.index()) {
            // A local unassigned here fails its `Init` check before it is read.
            Some(&fact) => fact,
            None => below(ANY),
        },
        _ => below(ANY),
    }
}

fn rvalue(facts: &[Fact], value: &Rvalue) -> Fact {
    match value {
        Rvalue::Use(op) => operand(facts, *op),
        Rvalue::Binary(BinOp::Shl, a, Operand::Const(c)) if (0..64).contains(c) => {
            below(operand(facts, *a).bits() + *c as u32)
        }
        Rvalue::Binary(BinOp::LShr, a, Operand::Const(c)) if (0..64).contains(c) => {
            let bits = operand(facts, *a).bits();
            match bits < ANY {
                true => below(bits.saturating_sub(*c as u32)),
                false => below(ANY),
            }
        }
        Rvalue::Binary(BinOp::Shl | BinOp::LShr | BinOp::AShr, ..) => below(ANY),
        Rvalue::Binary(op, a, b) => binary(*op, operand(facts, *a), operand(facts, *b)),
        Rvalue::Unary(UnOp::Not, _) => below(1),
        Rvalue::Unary(UnOp::ZeroExtend, op) => operand(facts, *op),
        Rvalue::Unary(UnOp::SignExtend, op) => match operand(facts, *op).bits() {
            bits if bits < 32 => below(bits),
            _ => below(ANY),
        },
        Rvalue::Unary(UnOp::Truncate, op) => below(operand(facts, *op).bits().min(32)),
        _ => below(ANY),
    }
}

impl LocalFact for Fact {
    const UNASSIGNED: Fact = Fact::Unassigned;
    const UNKNOWN: Fact = Fact::Below { bits: ANY };

    fn join(self, other: Fact) -> Fact {
        match (self, other) {
            (Fact::Unassigned, x) | (x, Fact::Unassigned) => x,
            (Fact::Below { bits: a }, Fact::Below { bits: b }) => below(a.max(b)),
        }
    }

    fn of_rvalue(facts: &[Fact], value: &Rvalue) -> Fact {
        rvalue(facts, value)
    }
}

/// The known value widths of every local at every block start of one function.
#[derive(Clone, Debug)]
pub struct ValueBits {
    at_start: Vec<Option<Vec<Fact>>>,
}

impl ValueBits {
    pub fn compute(function: &Function) -> ValueBits {
        ValueBits {
            at_start: solve(function),
        }
    }

    /// `bits`: at the start of `block`, every path that assigned `local` left it below
    /// `2^bits` read as unsigned, and `bits` is less than `width_bits`, the local's width;
    /// `None` when nothing is known.
    pub fn at(&self, block: BlockId, local: LocalId, width_bits: u32) -> Option<u32> {
        let facts = self.at_start.get(block.index())?.as_ref()?;
        match facts.get(local.index())? {
            Fact::Below { bits } if *bits < width_bits => Some(*bits),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{first_header_and_local, lower_ok};

    fn bits_at_header(src: &str, name: &str) -> Option<u32> {
        let module = lower_ok(src);
        let function = &module.functions[0];
        let (header, local) = first_header_and_local(function, name);
        ValueBits::compute(function).at(header, local, 32)
    }

    #[test]
    fn constants_and_comparisons_bound_and_sums_grow() {
        let src = "main() { var n, v, s, i; n = 200; s = 0; i = 0; v = 0; \
                   while (i < n) { v = input < 7; s = s + v; i = i + 1; } return 0; }";
        assert_eq!(bits_at_header(src, "n"), Some(8));
        assert_eq!(bits_at_header(src, "v"), Some(1));
        // Sums and counters grow round the loop: nothing is known of them.
        assert_eq!(bits_at_header(src, "s"), None);
        assert_eq!(bits_at_header(src, "i"), None);
    }

    #[test]
    fn operators_keep_what_their_operands_bound() {
        let eight = below(8);
        assert_eq!(binary(BinOp::BitAnd, below(ANY), eight), eight);
        assert_eq!(binary(BinOp::Add, eight, below(3)), below(9));
        assert_eq!(binary(BinOp::Mul, eight, eight), below(16));
        assert_eq!(binary(BinOp::Lt, below(ANY), below(ANY)), below(1));
        // Subtraction wraps below zero, signed division and negation too: nothing known.
        assert_eq!(binary(BinOp::Sub, eight, eight), below(ANY));
        assert_eq!(binary(BinOp::Div, eight, eight), below(ANY));
        // A negative constant is large read as unsigned.
        assert_eq!(operand(&[], Operand::Const(-1)), below(ANY));
        assert_eq!(operand(&[], Operand::Const(255)), below(8));
    }
}
