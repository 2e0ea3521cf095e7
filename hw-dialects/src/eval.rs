//! Bit-exact semantics of comb and hw values on any width: one
//! evaluator shared by the simulator, the folds, the Verilog emitter and
//! the tests that check rewrites. [`eval_op`] gives an op's result from
//! its operands' values (every comb op, hw's constants and aggregates,
//! seq's clock ops).
//!
//! A [`Bits`] is an unsigned big integer reduced modulo 2^width. Operators
//! follow CIRCT's definitions: arithmetic wraps; shifts by the width or
//! more give zero (sign bits for `shrs`); `concat` puts its first operand
//! in the most significant bits; division or remainder by zero gives zero
//! (CIRCT leaves it undefined; the simulator and emitted Verilog tests
//! avoid it).

use crate::hw::aggregates::{array_of, field_of, field_offset, struct_fields};
use crate::types::bit_width;
use num_bigint::BigUint;
use num_traits::{One, ToPrimitive, Zero};
use silica_ir::diag::Diagnostic;
use silica_ir::dialect::inherent_attr;
use silica_ir::{AttrKind, Context, Ir, OpId, ValueId};

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

// ----- ops ---------------------------------------------------------------

type Res<T> = Result<T, Box<Diagnostic>>;

fn err(ir: &Ir, op: OpId, msg: impl Into<String>) -> Box<Diagnostic> {
    Box::new(Diagnostic::error(ir.op_loc(op), msg))
}

/// The integer value of `op`'s inherent attribute `name`.
pub(crate) fn int_attr(ctx: &Context, ir: &Ir, op: OpId, name: &str) -> Option<num_bigint::BigInt> {
    match ctx.attr_kind(inherent_attr(ctx, ir, op, name)?) {
        AttrKind::Integer { value, .. } => Some(value.clone()),
        _ => None,
    }
}

/// The bit width of `v`'s type (zero for a type without one).
pub(crate) fn width_of(ctx: &Context, ir: &Ir, v: ValueId) -> u32 {
    bit_width(ctx, ir.value_type(v)).unwrap_or(0) as u32
}

/// The values of an op's results from its operands' values.
pub fn eval_results(ctx: &Context, ir: &Ir, op: OpId, args: &[Bits]) -> Res<Vec<Bits>> {
    if ctx.str(ir.op_name(op)) != "hw.struct_explode" {
        return Ok(vec![eval_op(ctx, ir, op, args)?]);
    }
    let fields = ir
        .operands(op)
        .next()
        .and_then(|v| struct_fields(ctx, ir.value_type(v)))
        .unwrap_or_default();
    Ok((0..fields.len())
        .map(|i| {
            let w = bit_width(ctx, fields[i].1).unwrap_or(0) as u32;
            args[0].extract(field_offset(ctx, &fields, i) as u32, w)
        })
        .collect())
}

/// The bits of an `hw.aggregate_constant`'s `fields` (or a nested
/// element) as a value of type `t`.
pub(crate) fn aggregate_bits(
    ctx: &Context,
    a: silica_ir::Attr,
    t: silica_ir::Type,
) -> Option<Bits> {
    let w = bit_width(ctx, t)? as u32;
    match ctx.attr_kind(a) {
        AttrKind::Integer { value, .. } => Some(Bits::from_bigint(w, value)),
        // An enum field: its index.
        AttrKind::String { value, .. } => {
            let fields = crate::hw::enums::enum_fields(ctx, t)?;
            let index = fields.iter().position(|f| f.as_bytes() == &value[..])?;
            Some(Bits::from_u64(w, index as u64))
        }
        AttrKind::Array(items) => {
            let element_types: Vec<silica_ir::Type> = match array_of(ctx, t) {
                Some((n, e)) => vec![e; n as usize],
                None => struct_fields(ctx, t)?.into_iter().map(|f| f.1).collect(),
            };
            if element_types.len() != items.len() {
                return None;
            }
            let mut out = Bits::zero(0);
            for (&i, &et) in items.iter().zip(&element_types) {
                out = out.concat(&aggregate_bits(ctx, i, et)?);
            }
            Some(out)
        }
        _ => None,
    }
}

/// The value of a comb/hw op's result from its operands' values.
pub fn eval_op(ctx: &Context, ir: &Ir, op: OpId, args: &[Bits]) -> Res<Bits> {
    let name = ctx.str(ir.op_name(op));
    let result_width = ir.results(op).next().map_or(0, |r| width_of(ctx, ir, r));
    let fold = |f: fn(&Bits, &Bits) -> Bits| -> Res<Bits> {
        let mut it = args.iter();
        let first = it.next().ok_or_else(|| err(ir, op, "expected operands"))?;
        Ok(it.fold(first.clone(), |acc, x| f(&acc, x)))
    };
    let two = || -> Res<(&Bits, &Bits)> {
        match args {
            [a, b] => Ok((a, b)),
            _ => Err(err(ir, op, "expected two operands")),
        }
    };
    Ok(match name {
        "hw.constant" => {
            let v = int_attr(ctx, ir, op, "value").unwrap_or_default();
            Bits::from_bigint(result_width, &v)
        }
        "comb.add" => fold(Bits::add)?,
        "comb.mul" => fold(Bits::mul)?,
        "comb.and" => fold(Bits::and)?,
        "comb.or" => fold(Bits::or)?,
        "comb.xor" => fold(Bits::xor)?,
        "comb.sub" => two().map(|(a, b)| a.sub(b))?,
        "comb.divu" => two().map(|(a, b)| a.divu(b))?,
        "comb.divs" => two().map(|(a, b)| a.divs(b))?,
        "comb.modu" => two().map(|(a, b)| a.modu(b))?,
        "comb.mods" => two().map(|(a, b)| a.mods(b))?,
        "comb.shl" => two().map(|(a, b)| a.shl(b))?,
        "comb.shru" => two().map(|(a, b)| a.shru(b))?,
        "comb.shrs" => two().map(|(a, b)| a.shrs(b))?,
        "comb.icmp" => {
            let code = int_attr(ctx, ir, op, "predicate")
                .and_then(|v| i64::try_from(v).ok())
                .and_then(Predicate::from_code)
                .ok_or_else(|| err(ir, op, "unknown predicate"))?;
            two().map(|(a, b)| a.icmp(code, b))?
        }
        "comb.parity" => args[0].parity(),
        "comb.extract" => {
            let low = int_attr(ctx, ir, op, "lowBit")
                .and_then(|v| u32::try_from(v).ok())
                .unwrap_or(0);
            args[0].extract(low, result_width)
        }
        "comb.concat" => args.iter().fold(Bits::zero(0), |acc, x| acc.concat(x)),
        "comb.replicate" => {
            let w = args[0].width();
            args[0].replicate(result_width.checked_div(w).unwrap_or(0))
        }
        "comb.mux" => {
            if args[0].is_zero() {
                args[2].clone()
            } else {
                args[1].clone()
            }
        }
        "comb.reverse" => args[0].reverse(),
        "comb.truth_table" => {
            let mut index = 0usize;
            for a in args {
                index = (index << 1) | usize::from(!a.is_zero());
            }
            let entry = match inherent_attr(ctx, ir, op, "lookupTable").map(|a| ctx.attr_kind(a)) {
                Some(AttrKind::Array(items)) => items.get(index).copied(),
                _ => None,
            };
            let bit = entry.is_some_and(|e| matches!(ctx.attr_kind(e), AttrKind::Integer { value, .. } if *value != 0.into()));
            Bits::from_u64(1, u64::from(bit))
        }
        "hw.wire" | "seq.to_clock" | "seq.from_clock" => args[0].clone(),
        "hw.bitcast" if args[0].width() == result_width => args[0].clone(),
        "hw.array_create" | "hw.array_concat" | "hw.struct_create" => {
            args.iter().fold(Bits::zero(0), |acc, x| acc.concat(x))
        }
        "hw.array_get" | "hw.array_slice" => {
            let (n, e) = ir
                .operands(op)
                .next()
                .and_then(|v| array_of(ctx, ir.value_type(v)))
                .ok_or_else(|| err(ir, op, "expected an array operand"))?;
            let ew = bit_width(ctx, e).unwrap_or(0);
            let index = args[1].value().to_u64().filter(|&i| i < n);
            match index {
                Some(i) => args[0].extract((i * ew) as u32, result_width),
                None => Bits::zero(result_width),
            }
        }
        "hw.array_inject" => {
            let (n, e) = ir
                .operands(op)
                .next()
                .and_then(|v| array_of(ctx, ir.value_type(v)))
                .ok_or_else(|| err(ir, op, "expected an array operand"))?;
            let ew = bit_width(ctx, e).unwrap_or(0) as u32;
            // An index past the end leaves the array as it is.
            match args[1].value().to_u64().filter(|&i| i < n) {
                Some(i) => {
                    let low = i as u32 * ew;
                    let total = args[0].width();
                    let high = args[0].extract(low + ew, total - low - ew);
                    high.concat(&args[2]).concat(&args[0].extract(0, low))
                }
                None => args[0].clone(),
            }
        }
        "hw.struct_extract" | "hw.struct_inject" => {
            let fields = ir
                .operands(op)
                .next()
                .and_then(|v| struct_fields(ctx, ir.value_type(v)))
                .ok_or_else(|| err(ir, op, "expected a struct operand"))?;
            let i = field_of(ctx, ir, op)
                .filter(|&i| i < fields.len())
                .ok_or_else(|| err(ir, op, "field index out of range"))?;
            let off = field_offset(ctx, &fields, i) as u32;
            let fw = bit_width(ctx, fields[i].1).unwrap_or(0) as u32;
            if name == "hw.struct_extract" {
                args[0].extract(off, fw)
            } else {
                let total = args[0].width();
                let high = args[0].extract(off + fw, total - off - fw);
                let low = args[0].extract(0, off);
                high.concat(&args[1]).concat(&low)
            }
        }
        "hw.enum.constant" => {
            let index = crate::hw::enums::constant_index(ctx, ir, op)
                .ok_or_else(|| err(ir, op, "enum value not in its type"))?;
            Bits::from_u64(result_width, index as u64)
        }
        "hw.enum.cmp" => Bits::from_u64(1, u64::from(args[0] == args[1])),
        "hw.union_create" | "hw.union_extract" => {
            let (lo, w) = crate::hw::unions::accessed(ctx, ir, op)
                .and_then(|(fields, i)| crate::hw::unions::field_bits(ctx, &fields, i))
                .ok_or_else(|| err(ir, op, "field index out of range"))?;
            if name == "hw.union_extract" {
                args[0].extract(lo as u32, w as u32)
            } else {
                let high = Bits::zero(result_width - (lo + w) as u32);
                high.concat(&args[0]).concat(&Bits::zero(lo as u32))
            }
        }
        "hw.aggregate_constant" => {
            let t = ir.value_type(ir.result(op, 0));
            inherent_attr(ctx, ir, op, "fields")
                .and_then(|a| aggregate_bits(ctx, a, t))
                .ok_or_else(|| err(ir, op, "malformed aggregate constant"))?
        }
        "seq.clock_inv" => Bits::from_u64(1, u64::from(args[0].is_zero())),
        "seq.const_clock" => {
            let v = int_attr(ctx, ir, op, "value").unwrap_or_default();
            Bits::from_bigint(1, &v)
        }
        _ => return Err(err(ir, op, format!("'{name}' is not simulated"))),
    })
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
