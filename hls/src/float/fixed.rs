//! Fixed-point arithmetic for the transcendental operators: full-width
//! unsigned and signed products, arithmetic shifts by constants, sign
//! extension and constant tables (a multiplexer tree over the index
//! bits). A value `v` of such arithmetic stands for `v × 2^-F` for a
//! number of fraction bits `F` the caller keeps track of.

use super::builder::Builder;
use num_bigint::BigInt;
use silica_ir::ValueId;

/// `v` sign-extended to `width` bits.
pub fn sext(b: &mut Builder<'_>, v: ValueId, width: u32) -> ValueId {
    let w = b.width(v);
    if width <= w {
        return b.extract(v, 0, width);
    }
    let sign = b.bit(v, w - 1);
    let ones = b.ones(width - w);
    let zeros = b.zero(width - w);
    let high = b.mux(sign, ones, zeros);
    b.concat(&[high, v])
}

/// A value standing for `bits × 2^offset`.
#[derive(Clone, Copy)]
struct Shifted {
    bits: ValueId,
    offset: u32,
}

/// `x + y`: the bits of the lower one below the other's offset pass
/// through, the rest goes through one adder. No adder input has constant
/// low bits, whose carries yosys's iCE40 flow resolves one bit per pass
/// over the whole design.
fn add_shifted(b: &mut Builder<'_>, x: Shifted, y: Shifted) -> Shifted {
    let (x, y) = if x.offset <= y.offset { (x, y) } else { (y, x) };
    let gap = y.offset - x.offset;
    let (wx, wy) = (b.width(x.bits), b.width(y.bits));
    let bits = if wx <= gap {
        if wx == gap {
            b.concat(&[y.bits, x.bits])
        } else {
            let zeros = b.zero(gap - wx);
            b.concat(&[y.bits, zeros, x.bits])
        }
    } else {
        let high = b.extract(x.bits, gap, wx - gap);
        let w = (wx - gap).max(wy) + 1;
        let high = b.resize(high, w);
        let other = b.resize(y.bits, w);
        let sum = b.add(high, other);
        if gap == 0 {
            sum
        } else {
            let low = b.extract(x.bits, 0, gap);
            b.concat(&[sum, low])
        }
    };
    Shifted {
        bits,
        offset: x.offset,
    }
}

/// The exact product of unsigned `a` and `c`, `wa + wc` bits wide, as
/// partial products summed by a balanced tree of adders (one row per
/// bit of the narrower operand, or per one bit of a constant operand).
/// Not `comb.mul`: yosys maps a wide multiplier through `$macc` into a
/// final adder with constant low bits, which its iCE40 flow takes one
/// pass over the whole design per bit to simplify (tens of minutes for
/// these operators).
pub fn umul(b: &mut Builder<'_>, a: ValueId, c: ValueId) -> ValueId {
    let w = b.width(a) + b.width(c);
    let (a, c) = match (b.constant_value(a), b.constant_value(c)) {
        (Some(_), None) => (c, a),
        (None, None) if b.width(c) > b.width(a) => (c, a),
        _ => (a, c),
    };
    let known = b.constant_value(c);
    let wa = b.width(a);
    let mut rows = Vec::new();
    for i in 0..b.width(c) {
        let bits = match &known {
            Some(k) if !k.bit(u64::from(i)) => continue,
            Some(_) => a,
            None => {
                let select = b.bit(c, i);
                let zero = b.zero(wa);
                b.mux(select, a, zero)
            }
        };
        rows.push(Shifted { bits, offset: i });
    }
    while rows.len() > 1 {
        let mut next = Vec::with_capacity(rows.len().div_ceil(2));
        let mut pending = rows.into_iter();
        while let Some(x) = pending.next() {
            next.push(match pending.next() {
                Some(y) => add_shifted(b, x, y),
                None => x,
            });
        }
        rows = next;
    }
    let Some(total) = rows.pop() else {
        return b.zero(w);
    };
    let placed = b.append_zeros(total.bits, total.offset);
    b.resize(placed, w)
}

/// `v + k` for a constant `k`: the bits below `k`'s lowest one pass
/// through and only the rest goes through an adder (no constant low
/// adder bits, as in [`umul`]).
pub fn add_constant(b: &mut Builder<'_>, v: ValueId, k: &BigInt) -> ValueId {
    let w = b.width(v);
    let modulus = BigInt::from(1) << w;
    let k = ((k % &modulus) + &modulus) % &modulus;
    let Some(low) = k.trailing_zeros().map(|z| z as u32) else {
        return v;
    };
    let high = b.extract(v, low, w - low);
    let constant = b.constant(w - low, k >> low);
    let sum = b.add(high, constant);
    if low == 0 {
        return sum;
    }
    let kept = b.extract(v, 0, low);
    b.concat(&[sum, kept])
}

/// The exact product of two's-complement `a` and `c`, `wa + wc` bits.
/// Read unsigned, `a = a_u − a_s·2^wa` and `c = c_u − c_s·2^wc`, so
/// modulo `2^(wa + wc)` the product is `a_u·c_u − a_s·c_u·2^wa −
/// c_s·a_u·2^wc`: the unsigned `wa × wc` product of [`umul`] (not one
/// of sign-extended `(wa + wc)`-bit operands) and two conditional
/// subtractions on its high bits.
pub fn smul(b: &mut Builder<'_>, a: ValueId, c: ValueId) -> ValueId {
    let (wa, wc) = (b.width(a), b.width(c));
    let mut product = umul(b, a, c);
    for (sign_of, other, at) in [(a, c, wa), (c, a, wc)] {
        let top = b.width(sign_of) - 1;
        if b.constant_value(sign_of)
            .is_some_and(|v| !v.bit(u64::from(top)))
        {
            continue;
        }
        let sign = b.bit(sign_of, top);
        let high = b.extract(product, at, wa + wc - at);
        let zero = b.zero(wa + wc - at);
        let correction = b.mux(sign, other, zero);
        let high = b.sub(high, correction);
        let low = b.extract(product, 0, at);
        product = b.concat(&[high, low]);
    }
    product
}

/// `floor(v / 2^shift)` kept in `width` bits (two's complement when
/// `signed`; the caller knows the result fits).
pub fn shift_right(
    b: &mut Builder<'_>,
    v: ValueId,
    shift: u32,
    width: u32,
    signed: bool,
) -> ValueId {
    let w = b.width(v);
    let kept = b.extract(v, shift, w - shift);
    if signed {
        sext(b, kept, width)
    } else {
        b.resize(kept, width)
    }
}

/// The constant `value` in `width` bits (two's complement).
pub fn constant(b: &mut Builder<'_>, width: u32, value: &BigInt) -> ValueId {
    b.constant(width, value.clone())
}

/// `values[index]` (zero past the end), `width` bits wide, as a tree of
/// multiplexers over the bits of `index`, least significant first.
pub fn table(b: &mut Builder<'_>, index: ValueId, values: &[BigInt], width: u32) -> ValueId {
    let bits = b.width(index);
    let mut level: Vec<ValueId> = (0..1usize << bits)
        .map(|i| {
            let v = values.get(i).cloned().unwrap_or_default();
            b.constant(width, v)
        })
        .collect();
    for i in 0..bits {
        let select = b.bit(index, i);
        level = level
            .chunks(2)
            .map(|pair| b.mux(select, pair[1], pair[0]))
            .collect();
    }
    level[0]
}
