//! Appends comb/hw ops to the body of the `hw.module` being generated:
//! one method per operator, widths taken from the operands, plus the
//! bit-level helpers the arithmetic is written in (constants, resizing,
//! reductions, a bundle mux). Every value is a plain bit vector
//! (`iN`); signedness lives in the operators (`icmp slt`, sign
//! extension), as in comb.

use num_bigint::BigInt;
use silica_hw_dialects::types::bit_width;
use silica_ir::graph::OpSpec;
use silica_ir::{Attr, BlockId, Context, Ir, ValueId};

/// `comb.icmp` predicates (CIRCT's numbering).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cmp {
    Eq = 0,
    Ne = 1,
    Slt = 2,
    Sgt = 4,
    Sge = 5,
    Ult = 6,
    Ugt = 8,
    Uge = 9,
}

/// Builds ops at the end of `block`.
pub struct Builder<'a> {
    pub ctx: &'a mut Context,
    pub ir: &'a mut Ir,
    block: BlockId,
    loc: Attr,
}

impl<'a> Builder<'a> {
    /// A builder appending to `block`, every op at `loc`.
    pub fn new(ctx: &'a mut Context, ir: &'a mut Ir, block: BlockId, loc: Attr) -> Self {
        Builder {
            ctx,
            ir,
            block,
            loc,
        }
    }

    /// The width of `v`.
    pub fn width(&self, v: ValueId) -> u32 {
        bit_width(self.ctx, self.ir.value_type(v)).unwrap_or(0) as u32
    }

    fn op(
        &mut self,
        name: &str,
        operands: &[ValueId],
        width: u32,
        props: &[(&str, Attr)],
        attrs: &[(&str, Attr)],
    ) -> ValueId {
        let ty = self.ctx.signless(width);
        let props = if props.is_empty() {
            None
        } else {
            let entries: Vec<_> = props.iter().map(|&(k, v)| (self.ctx.sym(k), v)).collect();
            Some(self.ctx.dict_attr(entries))
        };
        let attr_entries: Vec<_> = attrs.iter().map(|&(k, v)| (self.ctx.sym(k), v)).collect();
        let attrs = self.ctx.dict_attr(attr_entries);
        let name = self.ctx.sym(name);
        let op = self.ir.create_op(OpSpec {
            name,
            loc: self.loc,
            operands,
            result_types: &[ty],
            successors: &[],
            regions: &[],
            attrs,
            props,
        });
        self.ir.append_op(self.block, op);
        self.ir.result(op, 0)
    }

    /// `hw.constant` of `value` (reduced modulo 2^width, printed signed
    /// as CIRCT prints it).
    pub fn constant(&mut self, width: u32, value: impl Into<BigInt>) -> ValueId {
        let modulus = BigInt::from(1) << width;
        let mut v: BigInt = value.into() % &modulus;
        if v < BigInt::from(0) {
            v += &modulus;
        }
        if width > 0 && v >= (BigInt::from(1) << (width - 1)) {
            v -= &modulus;
        }
        let ty = self.ctx.signless(width);
        let attr = self.ctx.int_attr(ty, v);
        self.op("hw.constant", &[], width, &[], &[("value", attr)])
    }

    /// The value of `v` (unsigned, its `width` bits) when it is an
    /// `hw.constant`.
    pub fn constant_value(&self, v: ValueId) -> Option<BigInt> {
        let op = self.ir.defining_op(v)?;
        if self.ctx.str(self.ir.op_name(op)) != "hw.constant" {
            return None;
        }
        let attr = silica_ir::dialect::inherent_attr(self.ctx, self.ir, op, "value")?;
        let silica_ir::AttrKind::Integer { value, .. } = self.ctx.attr_kind(attr) else {
            return None;
        };
        let modulus = BigInt::from(1) << self.width(v);
        Some(((value % &modulus) + &modulus) % &modulus)
    }

    /// All ones of `width` bits.
    pub fn ones(&mut self, width: u32) -> ValueId {
        self.constant(width, -1)
    }

    /// Zero of `width` bits.
    pub fn zero(&mut self, width: u32) -> ValueId {
        self.constant(width, 0)
    }

    fn binary(&mut self, name: &str, a: ValueId, b: ValueId) -> ValueId {
        let w = self.width(a);
        self.op(name, &[a, b], w, &[], &[])
    }

    pub fn add(&mut self, a: ValueId, b: ValueId) -> ValueId {
        self.binary("comb.add", a, b)
    }

    pub fn sub(&mut self, a: ValueId, b: ValueId) -> ValueId {
        self.binary("comb.sub", a, b)
    }

    pub fn mul(&mut self, a: ValueId, b: ValueId) -> ValueId {
        self.binary("comb.mul", a, b)
    }

    pub fn and(&mut self, a: ValueId, b: ValueId) -> ValueId {
        self.binary("comb.and", a, b)
    }

    pub fn or(&mut self, a: ValueId, b: ValueId) -> ValueId {
        self.binary("comb.or", a, b)
    }

    pub fn xor(&mut self, a: ValueId, b: ValueId) -> ValueId {
        self.binary("comb.xor", a, b)
    }

    /// Bitwise complement (`xor` with all ones, as CIRCT writes it).
    pub fn not(&mut self, a: ValueId) -> ValueId {
        let w = self.width(a);
        let ones = self.ones(w);
        self.xor(a, ones)
    }

    /// Left shift by the value of `amount` (same width as `a`).
    pub fn shl(&mut self, a: ValueId, amount: ValueId) -> ValueId {
        self.binary("comb.shl", a, amount)
    }

    /// Logical right shift by the value of `amount` (same width as `a`).
    pub fn shru(&mut self, a: ValueId, amount: ValueId) -> ValueId {
        self.binary("comb.shru", a, amount)
    }

    /// `a` shifted right by `amount` (same width), and whether a one was
    /// shifted out (the OR of the bits below `amount`: a sticky bit).
    pub fn shru_sticky(&mut self, a: ValueId, amount: ValueId) -> (ValueId, ValueId) {
        let shifted = self.shru(a, amount);
        let ones = self.ones(self.width(a));
        let kept_mask = self.shl(ones, amount);
        let lost_mask = self.not(kept_mask);
        let lost = self.and(a, lost_mask);
        (shifted, self.any(lost))
    }

    /// An `i1` comparison.
    pub fn icmp(&mut self, pred: Cmp, a: ValueId, b: ValueId) -> ValueId {
        let i64t = self.ctx.signless(64);
        let p = self.ctx.int_attr(i64t, pred as i64);
        self.op("comb.icmp", &[a, b], 1, &[("predicate", p)], &[])
    }

    /// `cond ? t : f`.
    pub fn mux(&mut self, cond: ValueId, t: ValueId, f: ValueId) -> ValueId {
        let w = self.width(t);
        self.op("comb.mux", &[cond, t, f], w, &[], &[])
    }

    /// Bits `low .. low + width` of `v`.
    pub fn extract(&mut self, v: ValueId, low: u32, width: u32) -> ValueId {
        if low == 0 && width == self.width(v) {
            return v;
        }
        let i32t = self.ctx.signless(32);
        let l = self.ctx.int_attr(i32t, low);
        self.op("comb.extract", &[v], width, &[("lowBit", l)], &[])
    }

    /// Bit `i` of `v`.
    pub fn bit(&mut self, v: ValueId, i: u32) -> ValueId {
        self.extract(v, i, 1)
    }

    /// The concatenation, most significant part first.
    pub fn concat(&mut self, parts: &[ValueId]) -> ValueId {
        if let [one] = parts {
            return *one;
        }
        let w = parts.iter().map(|&p| self.width(p)).sum();
        self.op("comb.concat", parts, w, &[], &[])
    }

    /// `v` zero-extended or truncated to `width`.
    pub fn resize(&mut self, v: ValueId, width: u32) -> ValueId {
        let w = self.width(v);
        if width <= w {
            return self.extract(v, 0, width);
        }
        let z = self.zero(width - w);
        self.concat(&[z, v])
    }

    /// `v` followed by `count` zero bits (a left shift by a constant).
    pub fn append_zeros(&mut self, v: ValueId, count: u32) -> ValueId {
        if count == 0 {
            return v;
        }
        let z = self.zero(count);
        self.concat(&[v, z])
    }

    /// Whether `v` is zero.
    pub fn is_zero(&mut self, v: ValueId) -> ValueId {
        let w = self.width(v);
        let z = self.zero(w);
        self.icmp(Cmp::Eq, v, z)
    }

    /// Whether `v` is non-zero (the OR of its bits).
    pub fn any(&mut self, v: ValueId) -> ValueId {
        let w = self.width(v);
        let z = self.zero(w);
        self.icmp(Cmp::Ne, v, z)
    }

    /// Whether `v` is all ones.
    pub fn all(&mut self, v: ValueId) -> ValueId {
        let w = self.width(v);
        let ones = self.ones(w);
        self.icmp(Cmp::Eq, v, ones)
    }

    /// `v` compared with a constant.
    pub fn cmp_const(&mut self, pred: Cmp, v: ValueId, c: impl Into<BigInt>) -> ValueId {
        let w = self.width(v);
        let k = self.constant(w, c);
        self.icmp(pred, v, k)
    }

    /// `v + c` for a constant `c` (negative to subtract).
    pub fn add_const(&mut self, v: ValueId, c: impl Into<BigInt>) -> ValueId {
        let w = self.width(v);
        let k = self.constant(w, c);
        self.add(v, k)
    }

    /// The OR of several `i1` values.
    pub fn or_all(&mut self, bits: &[ValueId]) -> ValueId {
        match bits {
            [] => self.zero(1),
            [one] => *one,
            _ => self.op("comb.or", bits, 1, &[], &[]),
        }
    }

    /// The AND of several `i1` values.
    pub fn and_all(&mut self, bits: &[ValueId]) -> ValueId {
        match bits {
            [] => self.ones(1),
            [one] => *one,
            _ => self.op("comb.and", bits, 1, &[], &[]),
        }
    }

    /// A `seq.compreg` of `v` on `clock`, inserted after `v`'s
    /// definition (or at the start of the body for a port).
    pub fn register(&mut self, v: ValueId, clock: ValueId, name: &str) -> ValueId {
        let ty = self.ir.value_type(v);
        let sizes = self.ctx.int_array_attr(32, &[1, 1, 0, 0, 0]);
        let name_attr = self.ctx.string_attr(name.as_bytes());
        let props = vec![
            (self.ctx.sym("name"), name_attr),
            (self.ctx.sym("operandSegmentSizes"), sizes),
        ];
        let props = self.ctx.dict_attr(props);
        let op_name = self.ctx.sym("seq.compreg");
        let attrs = self.ctx.dict_attr(Vec::new());
        let op = self.ir.create_op(OpSpec {
            name: op_name,
            loc: self.loc,
            operands: &[v, clock],
            result_types: &[ty],
            successors: &[],
            regions: &[],
            attrs,
            props: Some(props),
        });
        match self.ir.defining_op(v) {
            Some(d) => self.ir.insert_op_after(d, op),
            None => match self.ir.first_op(self.block) {
                Some(first) => self.ir.insert_op_before(first, op),
                None => self.ir.append_op(self.block, op),
            },
        }
        self.ir.result(op, 0)
    }
}
