//! Bit-vector constants and their exact SMT-LIB semantics.
//!
//! This is the single place where bit-vector arithmetic on constants is defined; the simplifier
//! (constant folding) and the evaluator both call it, so they cannot disagree. Semantics follow
//! the SMT-LIB `FixedSizeBitVectors` theory exactly, including division by zero
//! (`bvudiv x 0 = ~0`, `bvurem x 0 = x`, `bvsdiv x 0 = (x <s 0 ? 1 : -1)`, `bvsrem x 0 = x`).
//! At width 32 this coincides with `i32::wrapping_*` wherever the divisor is non-zero.
//! Widths are `1..=MAX_BV_WIDTH` (128); wider vectors are rejected with an error.
//! Binary operations require equal widths (callers check sorts first); nothing here panics on
//! user data.

use crate::error::TermError;

/// The widest bit-vector this crate supports.
pub const MAX_BV_WIDTH: u32 = 128;

/// A bit-vector constant: `width` bits, stored zero-extended in a `u128`.
///
/// Invariant: `1 <= width <= MAX_BV_WIDTH` and `bits < 2^width`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct BvConst {
    width: u32,
    bits: u128,
}

/// The all-ones mask of `width` bits.
fn mask(width: u32) -> u128 {
    if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    }
}

/// Checks that `width` is a supported bit-vector width.
pub fn check_width(what: &'static str, width: u64) -> Result<u32, TermError> {
    if width == 0 || width > u64::from(MAX_BV_WIDTH) {
        Err(TermError::Width { what, width })
    } else {
        // In range 1..=128, so it fits.
        Ok(width as u32)
    }
}

impl BvConst {
    /// The constant `value mod 2^width`.
    pub fn new(width: u32, value: u128) -> Result<Self, TermError> {
        let width = check_width("bit-vector constant", u64::from(width))?;
        Ok(BvConst {
            width,
            bits: value & mask(width),
        })
    }

    /// The two's-complement encoding of `value` in `width` bits (truncating).
    pub fn from_i128(width: u32, value: i128) -> Result<Self, TermError> {
        Self::new(width, value as u128)
    }

    /// Builds a constant whose width is already known to be valid.
    fn raw(width: u32, bits: u128) -> Self {
        BvConst {
            width,
            bits: bits & mask(width),
        }
    }

    /// Zero of the given (valid) width.
    pub(crate) fn zero(width: u32) -> Self {
        Self::raw(width, 0)
    }

    /// All ones of the given (valid) width.
    pub(crate) fn ones(width: u32) -> Self {
        Self::raw(width, u128::MAX)
    }

    /// The width in bits.
    pub fn width(self) -> u32 {
        self.width
    }

    /// The value read as an unsigned number.
    pub fn bits(self) -> u128 {
        self.bits
    }

    /// The value read as a two's-complement signed number.
    pub fn to_i128(self) -> i128 {
        let shift = 128 - self.width;
        ((self.bits << shift) as i128) >> shift
    }

    /// Whether the sign bit is set.
    pub fn is_negative(self) -> bool {
        (self.bits >> (self.width - 1)) & 1 == 1
    }

    /// Whether every bit is zero.
    pub fn is_zero(self) -> bool {
        self.bits == 0
    }

    /// Whether the value is one.
    pub fn is_one(self) -> bool {
        self.bits == 1
    }

    /// Whether every bit is one.
    pub fn is_ones(self) -> bool {
        self.bits == mask(self.width)
    }

    fn same(self, other: Self, f: impl FnOnce(u128, u128) -> u128) -> Self {
        debug_assert_eq!(self.width, other.width, "bit-vector widths differ");
        Self::raw(self.width, f(self.bits, other.bits))
    }

    /// `bvnot`.
    pub fn bvnot(self) -> Self {
        Self::raw(self.width, !self.bits)
    }

    /// `bvneg`.
    pub fn bvneg(self) -> Self {
        Self::raw(self.width, self.bits.wrapping_neg())
    }

    /// `bvand`.
    pub fn bvand(self, o: Self) -> Self {
        self.same(o, |a, b| a & b)
    }

    /// `bvor`.
    pub fn bvor(self, o: Self) -> Self {
        self.same(o, |a, b| a | b)
    }

    /// `bvxor`.
    pub fn bvxor(self, o: Self) -> Self {
        self.same(o, |a, b| a ^ b)
    }

    /// `bvadd` (wraps around).
    pub fn bvadd(self, o: Self) -> Self {
        self.same(o, u128::wrapping_add)
    }

    /// `bvsub` (wraps around).
    pub fn bvsub(self, o: Self) -> Self {
        self.same(o, u128::wrapping_sub)
    }

    /// `bvmul` (wraps around).
    pub fn bvmul(self, o: Self) -> Self {
        self.same(o, u128::wrapping_mul)
    }

    /// `bvudiv`; division by zero gives all ones.
    pub fn bvudiv(self, o: Self) -> Self {
        self.same(o, |a, b| a.checked_div(b).unwrap_or(u128::MAX))
    }

    /// `bvurem`; remainder by zero gives the dividend.
    pub fn bvurem(self, o: Self) -> Self {
        self.same(o, |a, b| a.checked_rem(b).unwrap_or(a))
    }

    /// `bvsdiv`: signed division truncating toward zero, defined through `bvudiv` exactly as
    /// SMT-LIB does (so `MIN / -1 = MIN` and `x / 0 = (x <s 0 ? 1 : -1)`).
    pub fn bvsdiv(self, o: Self) -> Self {
        match (self.is_negative(), o.is_negative()) {
            (false, false) => self.bvudiv(o),
            (true, false) => self.bvneg().bvudiv(o).bvneg(),
            (false, true) => self.bvudiv(o.bvneg()).bvneg(),
            (true, true) => self.bvneg().bvudiv(o.bvneg()),
        }
    }

    /// `bvsrem`: remainder with the sign of the dividend, defined through `bvurem` exactly as
    /// SMT-LIB does (so `MIN % -1 = 0` and `x % 0 = x`).
    pub fn bvsrem(self, o: Self) -> Self {
        match (self.is_negative(), o.is_negative()) {
            (false, false) => self.bvurem(o),
            (true, false) => self.bvneg().bvurem(o).bvneg(),
            (false, true) => self.bvurem(o.bvneg()),
            (true, true) => self.bvneg().bvurem(o.bvneg()).bvneg(),
        }
    }

    /// `bvshl`; shifting by the width or more gives zero.
    pub fn bvshl(self, o: Self) -> Self {
        let w = self.width;
        self.same(o, |a, b| if b >= u128::from(w) { 0 } else { a << b })
    }

    /// `bvlshr`; shifting by the width or more gives zero.
    pub fn bvlshr(self, o: Self) -> Self {
        let w = self.width;
        self.same(o, |a, b| if b >= u128::from(w) { 0 } else { a >> b })
    }

    /// `bvashr`; shifting by the width or more gives all sign bits.
    pub fn bvashr(self, o: Self) -> Self {
        debug_assert_eq!(self.width, o.width, "bit-vector widths differ");
        // `min` keeps the shift below 128; for shifts >= width the sign-extended value shifted
        // by 127 is all sign bits, which is the SMT-LIB answer.
        let s = o.bits.min(127) as u32;
        Self::raw(self.width, (self.to_i128() >> s) as u128)
    }

    /// `bvult`.
    pub fn bvult(self, o: Self) -> bool {
        self.bits < o.bits
    }

    /// `bvule`.
    pub fn bvule(self, o: Self) -> bool {
        self.bits <= o.bits
    }

    /// `bvslt`.
    pub fn bvslt(self, o: Self) -> bool {
        self.to_i128() < o.to_i128()
    }

    /// `bvsle`.
    pub fn bvsle(self, o: Self) -> bool {
        self.to_i128() <= o.to_i128()
    }

    /// `(_ extract hi lo)`; the caller has checked `lo <= hi < width`.
    pub fn extract(self, hi: u32, lo: u32) -> Self {
        Self::raw(hi - lo + 1, self.bits >> lo)
    }

    /// `concat`: `self` supplies the high bits.
    pub fn concat(self, low: Self) -> Result<Self, TermError> {
        let w = check_width("concat", u64::from(self.width) + u64::from(low.width))?;
        Ok(Self::raw(w, (self.bits << low.width) | low.bits))
    }

    /// `(_ zero_extend by)`.
    pub fn zero_extend(self, by: u32) -> Result<Self, TermError> {
        let w = check_width("zero_extend", u64::from(self.width) + u64::from(by))?;
        Ok(Self::raw(w, self.bits))
    }

    /// `(_ sign_extend by)`.
    pub fn sign_extend(self, by: u32) -> Result<Self, TermError> {
        let w = check_width("sign_extend", u64::from(self.width) + u64::from(by))?;
        Ok(Self::raw(w, self.to_i128() as u128))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c32(v: i32) -> BvConst {
        BvConst::from_i128(32, i128::from(v)).expect("valid width")
    }

    #[test]
    fn widths_are_checked() {
        assert!(BvConst::new(0, 0).is_err());
        assert!(BvConst::new(129, 0).is_err());
        assert!(BvConst::new(128, u128::MAX).is_ok());
        let big = BvConst::new(100, 1).expect("valid");
        assert!(big.concat(BvConst::new(29, 0).expect("valid")).is_err());
        assert!(big.zero_extend(28).is_ok());
    }

    #[test]
    fn signed_division_follows_smtlib() {
        assert_eq!(c32(i32::MIN).bvsdiv(c32(-1)), c32(i32::MIN));
        assert_eq!(c32(i32::MIN).bvsrem(c32(-1)), c32(0));
        assert_eq!(c32(-7).bvsdiv(c32(2)), c32(-3));
        assert_eq!(c32(-7).bvsrem(c32(2)), c32(-1));
        assert_eq!(c32(7).bvsrem(c32(-2)), c32(1));
        // Division by zero is defined.
        assert_eq!(c32(5).bvsdiv(c32(0)), c32(-1));
        assert_eq!(c32(-5).bvsdiv(c32(0)), c32(1));
        assert_eq!(c32(-5).bvsrem(c32(0)), c32(-5));
        assert_eq!(c32(5).bvudiv(c32(0)), c32(-1));
        assert_eq!(c32(5).bvurem(c32(0)), c32(5));
    }

    #[test]
    fn shifts_saturate() {
        assert_eq!(c32(1).bvshl(c32(31)), c32(i32::MIN));
        assert_eq!(c32(1).bvshl(c32(32)), c32(0));
        assert_eq!(c32(-8).bvlshr(c32(40)), c32(0));
        assert_eq!(c32(-8).bvashr(c32(40)), c32(-1));
        assert_eq!(c32(-8).bvashr(c32(1)), c32(-4));
        let wide = BvConst::new(128, 1u128 << 127).expect("valid");
        assert_eq!(
            wide.bvashr(BvConst::new(128, 200).expect("valid")).bits(),
            u128::MAX
        );
    }

    #[test]
    fn extension_and_extraction() {
        let x = BvConst::new(8, 0x80).expect("valid");
        assert_eq!(x.sign_extend(8).expect("fits").bits(), 0xff80);
        assert_eq!(x.zero_extend(8).expect("fits").bits(), 0x0080);
        assert_eq!(x.extract(7, 4).bits(), 0x8);
        assert_eq!(x.extract(7, 4).width(), 4);
        let hi = BvConst::new(4, 0xa).expect("valid");
        let lo = BvConst::new(4, 0x5).expect("valid");
        assert_eq!(hi.concat(lo).expect("fits").bits(), 0xa5);
        assert_eq!(x.to_i128(), -128);
    }
}
