//! Bit-exact semantics of comb and hw values on any width: one
//! evaluator shared by the simulator and the tests that check rewrites.
//!
//! A [`Bits`] is an unsigned big integer reduced modulo 2^width. Operators
//! follow CIRCT's definitions: arithmetic wraps; shifts by the width or
//! more give zero (sign bits for `shrs`); `concat` puts its first operand
//! in the most significant bits; division or remainder by zero gives zero
//! (CIRCT leaves it undefined; the simulator and emitted Verilog tests
//! avoid it).

use num_bigint::BigUint;
use num_traits::{One, ToPrimitive, Zero};

/// A bit vector of a fixed width.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Bits {
    width: u32,
    value: BigUint,
}

/// `comb.icmp` predicates, numbered as `comb.icmp` and `arith.cmpi`
/// number them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Predicate {
    Eq,
    Ne,
    Slt,
    Sle,
    Sgt,
    Sge,
    Ult,
    Ule,
    Ugt,
    Uge,
}

impl Predicate {
    /// The predicate of `comb.icmp`'s integer code (the case equalities
    /// `ceq`/`weq` are `eq` on two-state values, `cne`/`wne` are `ne`).
    pub fn from_code(c: i64) -> Option<Predicate> {
        use Predicate::*;
        Some(match c {
            0 | 10 | 12 => Eq,
            1 | 11 | 13 => Ne,
            2 => Slt,
            3 => Sle,
            4 => Sgt,
            5 => Sge,
            6 => Ult,
            7 => Ule,
            8 => Ugt,
            9 => Uge,
            _ => return None,
        })
    }

    /// The predicate's integer code (both dialects use the same numbers).
    pub fn code(self) -> i64 {
        self as i64
    }
}

impl Bits {
    /// `value` truncated to `width` bits.
    pub fn new(width: u32, value: BigUint) -> Bits {
        let mut b = Bits { width, value };
        b.truncate();
        b
    }

    /// `value` truncated to `width` bits.
    pub fn from_u64(width: u32, value: u64) -> Bits {
        Bits::new(width, BigUint::from(value))
    }

    /// A signed `value` in two's complement of `width` bits.
    pub fn from_bigint(width: u32, value: &num_bigint::BigInt) -> Bits {
        let modulus = BigUint::one() << width;
        let m = num_bigint::BigInt::from(modulus.clone());
        let v = ((value % &m) + &m) % &m;
        Bits::new(width, v.to_biguint().unwrap_or_default())
    }

    pub fn zero(width: u32) -> Bits {
        Bits {
            width,
            value: BigUint::zero(),
        }
    }

    fn bool(b: bool) -> Bits {
        Bits::from_u64(1, u64::from(b))
    }

    fn truncate(&mut self) {
        if self.value.bits() > u64::from(self.width) {
            let mask = (BigUint::one() << self.width) - 1u32;
            self.value &= mask;
        }
    }

    pub fn width(&self) -> u32 {
        self.width
    }

    /// The unsigned value.
    pub fn value(&self) -> &BigUint {
        &self.value
    }

    pub fn is_zero(&self) -> bool {
        self.value.is_zero()
    }

    /// Bit `i` (least significant first).
    pub fn bit(&self, i: u32) -> bool {
        self.value.bit(u64::from(i))
    }

    /// The two's-complement signed value.
    pub fn signed(&self) -> num_bigint::BigInt {
        let v = num_bigint::BigInt::from(self.value.clone());
        if self.width > 0 && self.bit(self.width - 1) {
            v - (num_bigint::BigInt::one() << self.width)
        } else {
            v
        }
    }

    /// Lower-case hexadecimal digits (at least one).
    pub fn to_hex(&self) -> String {
        format!("{:x}", self.value)
    }

    /// The bits as `0`/`1` characters, most significant first.
    pub fn to_binary(&self) -> String {
        (0..self.width)
            .rev()
            .map(|i| if self.bit(i) { '1' } else { '0' })
            .collect()
    }

    fn with(&self, value: BigUint) -> Bits {
        Bits::new(self.width, value)
    }

    fn modulus(&self) -> BigUint {
        BigUint::one() << self.width
    }

    pub fn add(&self, o: &Bits) -> Bits {
        self.with(&self.value + &o.value)
    }

    pub fn sub(&self, o: &Bits) -> Bits {
        self.with(&self.value + self.modulus() - &o.value)
    }

    pub fn mul(&self, o: &Bits) -> Bits {
        self.with(&self.value * &o.value)
    }

    pub fn and(&self, o: &Bits) -> Bits {
        self.with(&self.value & &o.value)
    }

    pub fn or(&self, o: &Bits) -> Bits {
        self.with(&self.value | &o.value)
    }

    pub fn xor(&self, o: &Bits) -> Bits {
        self.with(&self.value ^ &o.value)
    }

    pub fn divu(&self, o: &Bits) -> Bits {
        if o.is_zero() {
            return Bits::zero(self.width);
        }
        self.with(&self.value / &o.value)
    }

    pub fn modu(&self, o: &Bits) -> Bits {
        if o.is_zero() {
            return Bits::zero(self.width);
        }
        self.with(&self.value % &o.value)
    }

    /// Signed division truncating toward zero.
    pub fn divs(&self, o: &Bits) -> Bits {
        if o.is_zero() {
            return Bits::zero(self.width);
        }
        Bits::from_bigint(self.width, &(self.signed() / o.signed()))
    }

    /// Signed remainder with the dividend's sign.
    pub fn mods(&self, o: &Bits) -> Bits {
        if o.is_zero() {
            return Bits::zero(self.width);
        }
        Bits::from_bigint(self.width, &(self.signed() % o.signed()))
    }

    /// The shift amount, or `None` when it is the width or more.
    fn amount(&self, o: &Bits) -> Option<u32> {
        o.value.to_u32().filter(|&n| n < self.width)
    }

    pub fn shl(&self, o: &Bits) -> Bits {
        match self.amount(o) {
            Some(n) => self.with(&self.value << n),
            None => Bits::zero(self.width),
        }
    }

    pub fn shru(&self, o: &Bits) -> Bits {
        match self.amount(o) {
            Some(n) => self.with(&self.value >> n),
            None => Bits::zero(self.width),
        }
    }

    pub fn shrs(&self, o: &Bits) -> Bits {
        let n = self.amount(o).unwrap_or(self.width.saturating_sub(1));
        Bits::from_bigint(self.width, &(self.signed() >> n))
    }

    pub fn icmp(&self, pred: Predicate, o: &Bits) -> Bits {
        use Predicate::*;
        let (a, b) = (&self.value, &o.value);
        let (sa, sb) = (self.signed(), o.signed());
        Bits::bool(match pred {
            Eq => a == b,
            Ne => a != b,
            Ult => a < b,
            Ule => a <= b,
            Ugt => a > b,
            Uge => a >= b,
            Slt => sa < sb,
            Sle => sa <= sb,
            Sgt => sa > sb,
            Sge => sa >= sb,
        })
    }

    /// The XOR of all bits.
    pub fn parity(&self) -> Bits {
        Bits::bool(self.value.count_ones() % 2 == 1)
    }

    /// `width` bits starting at `low`.
    pub fn extract(&self, low: u32, width: u32) -> Bits {
        Bits::new(width, &self.value >> low)
    }

    /// `self` in the high bits, `low` in the low bits.
    pub fn concat(&self, low: &Bits) -> Bits {
        Bits::new(
            self.width + low.width,
            (&self.value << low.width) | &low.value,
        )
    }

    /// `times` copies side by side.
    pub fn replicate(&self, times: u32) -> Bits {
        let mut out = Bits::zero(0);
        for _ in 0..times {
            out = out.concat(self);
        }
        out
    }

    /// The bits in reverse order.
    pub fn reverse(&self) -> Bits {
        let mut v = BigUint::zero();
        for i in 0..self.width {
            if self.bit(i) {
                v.set_bit(u64::from(self.width - 1 - i), true);
            }
        }
        Bits::new(self.width, v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn b(w: u32, v: u128) -> Bits {
        Bits::new(w, BigUint::from(v))
    }

    fn u(x: &Bits) -> u128 {
        x.value().to_u128().unwrap()
    }

    proptest! {
        /// Agrees with u128/i128 arithmetic on 1..=64-bit values (wide
        /// enough that products and shifts stay exact in 128 bits).
        #[test]
        fn agrees_with_machine_integers(w in 1u32..=64, x: u64, y: u64, s in 0u32..70) {
            let m: u128 = (1u128 << w) - 1;
            let (xa, ya) = (u128::from(x) & m, u128::from(y) & m);
            let (a, bb) = (b(w, xa), b(w, ya));
            let sx = |v: u128| -> i128 { if w < 128 && v >> (w - 1) & 1 == 1 { v as i128 - (1i128 << w) } else { v as i128 } };
            prop_assert_eq!(u(&a.add(&bb)), (xa + ya) & m);
            prop_assert_eq!(u(&a.sub(&bb)), xa.wrapping_sub(ya) & m);
            prop_assert_eq!(u(&a.mul(&bb)), xa.wrapping_mul(ya) & m);
            prop_assert_eq!(u(&a.and(&bb)), xa & ya);
            prop_assert_eq!(u(&a.or(&bb)), xa | ya);
            prop_assert_eq!(u(&a.xor(&bb)), xa ^ ya);
            if let (Some(q), Some(r)) = (xa.checked_div(ya), xa.checked_rem(ya)) {
                prop_assert_eq!(u(&a.divu(&bb)), q);
                prop_assert_eq!(u(&a.modu(&bb)), r);
                prop_assert_eq!(u(&a.divs(&bb)), (sx(xa).wrapping_div(sx(ya)) as u128) & m);
                prop_assert_eq!(u(&a.mods(&bb)), (sx(xa).wrapping_rem(sx(ya)) as u128) & m);
            }
            // The amount is a w-bit value too.
            let s = (u128::from(s) & m) as u32;
            let sh = b(w, u128::from(s));
            let shl = if s < w { (xa << s) & m } else { 0 };
            prop_assert_eq!(u(&a.shl(&sh)), shl);
            let shru = if s < w { xa >> s } else { 0 };
            prop_assert_eq!(u(&a.shru(&sh)), shru);
            let shrs = (sx(xa) >> s.min(w - 1)) as u128 & m;
            prop_assert_eq!(u(&a.shrs(&sh)), shrs);
            prop_assert_eq!(u(&a.icmp(Predicate::Slt, &bb)) == 1, sx(xa) < sx(ya));
            prop_assert_eq!(u(&a.icmp(Predicate::Uge, &bb)) == 1, xa >= ya);
            prop_assert_eq!(u(&a.parity()), u128::from(xa.count_ones() % 2));
            prop_assert_eq!(u(&a.concat(&bb)), (xa << w) | ya);
            prop_assert_eq!(u(&a.reverse()), xa.reverse_bits() >> (128 - w));
        }

        /// Wide values keep every bit: (x * 2^k) >> k == x on 65536-bit
        /// vectors.
        #[test]
        fn wide_shifts_are_exact(x: u64, k in 0u32..65000) {
            let w = 65536;
            let a = Bits::from_u64(w, x);
            let s = Bits::from_u64(w, u64::from(k));
            prop_assert_eq!(a.shl(&s).shru(&s), a.clone());
            prop_assert_eq!(a.shl(&s).extract(k, 64), Bits::from_u64(64, x));
        }
    }

    #[test]
    fn zero_width_values() {
        let z = Bits::zero(0);
        assert_eq!(z.add(&z), z);
        assert_eq!(b(4, 5).concat(&z), b(4, 5));
        assert_eq!(b(4, 5).replicate(3), b(12, 0x555));
    }
}
