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

/// The exact product of unsigned `a` and `c`, `wa + wc` bits wide.
pub fn umul(b: &mut Builder<'_>, a: ValueId, c: ValueId) -> ValueId {
    let w = b.width(a) + b.width(c);
    let a = b.resize(a, w);
    let c = b.resize(c, w);
    b.mul(a, c)
}

/// The exact product of two's-complement `a` and `c`, `wa + wc` bits.
pub fn smul(b: &mut Builder<'_>, a: ValueId, c: ValueId) -> ValueId {
    let w = b.width(a) + b.width(c);
    let a = sext(b, a, w);
    let c = sext(b, c, w);
    b.mul(a, c)
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
