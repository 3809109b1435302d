//! Known low bits: at every block start, each local's value modulo a power of two wherever every
//! path from the entry agrees on it, a congruence `x ≡ c (mod 2^j)`.
//!
//! A forward data flow over one function's graph. Per local the fact is `j` known low bits and
//! their value `c` (`j = 0`: nothing known); a constant knows all 32 bits, `+ - *`, negation,
//! complement, bitwise operations and left shifts by constants keep what their operands
//! determine (the IR's arithmetic wraps modulo 2^32, a multiple of every `2^j`), and anything
//! else (parameters, inputs, memory, calls, division, comparisons, right shifts, a store into a
//! local aggregate) knows nothing.
//! A join keeps the low bits both sides agree on; a local never assigned on a path does not
//! weaken the join (a read of it there fails its `Init` check). Each local's `j` only shrinks,
//! so the fixed point comes after at most 33 rounds per local. Address-taken locals live in
//! memory and are never known.
//!
//! What it finds holds on every path; path subsumption still proves the loop invariants it
//! proposes (`x & 3 == 0` where `x` grows by multiples of 4) before using them. It reads the
//! IR only.

use super::local_facts::{solve, LocalFact};
use crate::cfg::{BinOp, BlockId, Function, LocalId, Operand, Rvalue, UnOp};

/// What is known of one local's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fact {
    /// Not assigned on any path so far.
    Unassigned,
    /// The low `bits` bits are `value` (the rest of `value` is 0); `bits == 0`: nothing known.
    Low { bits: u32, value: u32 },
}

const UNKNOWN: Fact = Fact::Low { bits: 0, value: 0 };

fn mask(bits: u32) -> u32 {
    if bits >= 32 {
        u32::MAX
    } else {
        (1u32 << bits) - 1
    }
}

fn low(bits: u32, value: u32) -> Fact {
    let bits = bits.min(32);
    Fact::Low {
        bits,
        value: value & mask(bits),
    }
}

impl Fact {
    fn known(self) -> (u32, u32) {
        match self {
            Fact::Low { bits, value } => (bits, value),
            Fact::Unassigned => (0, 0),
        }
    }

    fn join(self, other: Fact) -> Fact {
        match (self, other) {
            (Fact::Unassigned, x) | (x, Fact::Unassigned) => x,
            (Fact::Low { bits: a, value: x }, Fact::Low { bits: b, value: y }) => {
                let agree = (x ^ y).trailing_zeros();
                low(a.min(b).min(agree), x)
            }
        }
    }
}

/// Trailing zeros of a known part, counting an all-zero part as 32.
fn zeros(bits: u32, value: u32) -> u32 {
    if value == 0 {
        32
    } else {
        value.trailing_zeros().min(bits)
    }
}

fn binary(op: BinOp, a: Fact, b: Fact) -> Fact {
    let ((ja, ca), (jb, cb)) = (a.known(), b.known());
    let both = ja.min(jb);
    match op {
        BinOp::Add => low(both, ca.wrapping_add(cb)),
        BinOp::Sub => low(both, ca.wrapping_sub(cb)),
        // x = ca + 2^ja·u, y = cb + 2^jb·v: x·y = ca·cb + ca·2^jb·v + cb·2^ja·u + 2^(ja+jb)·u·v.
        BinOp::Mul => {
            let bits = (jb + zeros(ja, ca)).min(ja + zeros(jb, cb)).min(ja + jb);
            low(bits, ca.wrapping_mul(cb))
        }
        BinOp::BitXor => low(both, ca ^ cb),
        BinOp::BitOr => low(both, ca | cb),
        // A bit known 0 on either side is 0, also above what the other side knows.
        BinOp::BitAnd => {
            let mut bits = both;
            while bits < 32 {
                let bit = 1u32 << bits;
                let zero_a = bits < ja && ca & bit == 0;
                let zero_b = bits < jb && cb & bit == 0;
                if !(zero_a || zero_b) {
                    break;
                }
                bits += 1;
            }
            low(bits, ca & cb)
        }
        BinOp::Shl if jb == 32 => {
            if cb >= 32 {
                low(32, 0)
            } else {
                low(ja + cb, ca << cb)
            }
        }
        _ => UNKNOWN,
    }
}

fn operand(facts: &[Fact], op: Operand) -> Fact {
    match op {
        Operand::Const(n) => low(32, n as u32),
        // A 64-bit constant with high bits would count as a shift amount below 32.
        Operand::Const64(n) => match u32::try_from(n) {
            Ok(n) => low(32, n),
            Err(_) => UNKNOWN,
        },
        Operand::Local(l) => facts.get(l.index()).copied().unwrap_or(UNKNOWN),
        Operand::Null => UNKNOWN,
    }
}

fn rvalue(facts: &[Fact], value: &Rvalue) -> Fact {
    match value {
        Rvalue::Use(op) => operand(facts, *op),
        Rvalue::Unary(UnOp::Neg, op) => {
            let (bits, value) = operand(facts, *op).known();
            low(bits, value.wrapping_neg())
        }
        Rvalue::Unary(UnOp::BitNot, op) => {
            let (bits, value) = operand(facts, *op).known();
            low(bits, !value)
        }
        Rvalue::Binary(op, a, b) => binary(*op, operand(facts, *a), operand(facts, *b)),
        // The low 32 bits are the same at either width.
        Rvalue::Unary(UnOp::SignExtend | UnOp::ZeroExtend | UnOp::Truncate, op) => {
            operand(facts, *op)
        }
        _ => UNKNOWN,
    }
}

/// The known low bits of every local at every block start of one function.
#[derive(Clone, Debug)]
pub struct LowBits {
    /// Per block: per local, or `None` for a block no path reaches.
    at_start: Vec<Option<Vec<Fact>>>,
}

impl LocalFact for Fact {
    const UNASSIGNED: Fact = Fact::Unassigned;
    const UNKNOWN: Fact = UNKNOWN;

    fn join(self, other: Fact) -> Fact {
        Fact::join(self, other)
    }

    fn of_rvalue(facts: &[Fact], value: &Rvalue) -> Fact {
        rvalue(facts, value)
    }
}

impl LowBits {
    pub fn compute(function: &Function) -> LowBits {
        LowBits {
            at_start: solve(function),
        }
    }

    /// `(bits, value)`: at the start of `block`, every path that assigned `local` left it with
    /// the low `bits` bits equal to `value` (`bits` ≥ 1); `None` when nothing is known.
    pub fn at(&self, block: BlockId, local: LocalId) -> Option<(u32, u32)> {
        let facts = self.at_start.get(block.index())?.as_ref()?;
        match facts.get(local.index())? {
            Fact::Low { bits, value } if *bits > 0 => Some((*bits, *value)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{first_header_and_local, lower_ok};

    fn facts_at_header(src: &str, name: &str) -> Option<(u32, u32)> {
        let module = lower_ok(src);
        let function = &module.functions[0];
        let (header, local) = first_header_and_local(function, name);
        LowBits::compute(function).at(header, local)
    }

    #[test]
    fn sums_of_multiples_keep_their_low_bits() {
        let src = "main() { var x, y; x = 0; y = 4; while (x != 30) { x = x + y; y = y + 4; } return 0; }";
        assert_eq!(facts_at_header(src, "x"), Some((2, 0)));
        assert_eq!(facts_at_header(src, "y"), Some((2, 0)));
    }

    #[test]
    fn products_add_zeros_and_inputs_know_nothing() {
        let src = "main() { var x, z, a, b; x = 1; z = 0; while (z < 9) { a = input; b = input; x = x + 2 * a; z = z + b * 8; } return 0; }";
        assert_eq!(facts_at_header(src, "x"), Some((1, 1)));
        assert_eq!(facts_at_header(src, "z"), Some((3, 0)));
        let src = "main() { var x, a; x = 0; while (x < 9) { a = input; x = x + a; } return 0; }";
        assert_eq!(facts_at_header(src, "x"), None);
    }

    #[test]
    fn bitwise_operations_products_and_shifts_keep_what_their_operands_fix() {
        // `x & 0xf0`: the low four bits are 0 whatever `x` is.
        assert_eq!(binary(BinOp::BitAnd, UNKNOWN, low(32, 0xf0)), low(4, 0));
        // An odd number shifted by 3 ends in `1000`; a shift by 32 or more gives 0 in the IR.
        assert_eq!(binary(BinOp::Shl, low(1, 1), low(32, 3)), low(4, 8));
        assert_eq!(binary(BinOp::Shl, UNKNOWN, low(32, 40)), low(32, 0));
        assert_eq!(binary(BinOp::Shl, low(32, 1), UNKNOWN), UNKNOWN);
        // Even times a multiple of 4 is a multiple of 8; odd times odd is odd.
        assert_eq!(binary(BinOp::Mul, low(1, 0), low(2, 0)), low(3, 0));
        assert_eq!(binary(BinOp::Mul, low(1, 1), low(1, 1)), low(1, 1));
        assert_eq!(binary(BinOp::BitXor, low(3, 5), low(2, 3)), low(2, 2));
        // Division, comparisons and right shifts know nothing.
        assert_eq!(binary(BinOp::Div, low(32, 8), low(32, 2)), UNKNOWN);
        assert_eq!(binary(BinOp::Lt, low(32, 8), low(32, 2)), UNKNOWN);
        assert_eq!(binary(BinOp::LShr, low(32, 8), low(32, 2)), UNKNOWN);
    }

    #[test]
    fn a_join_keeps_the_bits_both_sides_agree_on() {
        let src = "main() { var x, a; x = 5; a = input; if (a) { x = 13; } while (x < 100) { x = x + 16; } return 0; }";
        // 5 = 0b0101, 13 = 0b1101: three low bits agree; + 16 keeps them.
        assert_eq!(facts_at_header(src, "x"), Some((3, 5)));
    }
}
