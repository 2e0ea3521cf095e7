//! Multiplication (`arith.mulf`): the exact product of the significands
//! (split into partial products of at most [`CHUNK_BITS`] bits of one
//! operand, so a pipeline can cut between them and a DSP-sized
//! multiplier fits each), normalised (subnormal operands give leading
//! zeros), narrowed to the bits rounding reads (a sticky bit for the
//! rest) and rounded once.

use super::builder::Builder;
use super::format::Format;
use super::normalize::normalize;
use super::round::{collapse_sticky, round_pack};
use super::unpack::{infinity, quiet_nan, unpack};
use silica_ir::ValueId;

/// The widest slice of the second operand one partial product takes.
pub const CHUNK_BITS: u32 = 18;

/// The full `wa + wb`-bit unsigned product of `a` and `b`.
pub fn wide_product(b: &mut Builder<'_>, a: ValueId, y: ValueId) -> ValueId {
    let (wa, wb) = (b.width(a), b.width(y));
    let total = wa + wb;
    let chunks = wb.div_ceil(CHUNK_BITS);
    let chunk = wb.div_ceil(chunks);
    let mut partials = Vec::new();
    let mut low = 0;
    while low < wb {
        let width = chunk.min(wb - low);
        let slice = b.extract(y, low, width);
        let pw = wa + width;
        let wide_a = b.resize(a, pw);
        let wide_slice = b.resize(slice, pw);
        let product = b.mul(wide_a, wide_slice);
        let placed = b.append_zeros(product, low);
        partials.push(b.resize(placed, total));
        low += width;
    }
    // A balanced adder tree.
    while partials.len() > 1 {
        let mut next = Vec::new();
        for pair in partials.chunks(2) {
            match pair {
                [p, q] => next.push(b.add(*p, *q)),
                [p] => next.push(*p),
                _ => {}
            }
        }
        partials = next;
    }
    partials[0]
}

/// `a × b` in `fmt`, raw bits in and out.
pub fn build_mul(b: &mut Builder<'_>, fmt: Format, a: ValueId, y: ValueId) -> ValueId {
    let ew = fmt.internal_exp_bits(0);
    let x = unpack(b, fmt, a, ew);
    let y = unpack(b, fmt, y, ew);
    let sign = b.xor(x.sign, y.sign);
    let product = wide_product(b, x.sig, y.sig);
    // The product's top bit (2m + 1) has exponent ea + eb - bias + 1.
    let exp = b.add(x.exp, y.exp);
    let exp = b.add_const(exp, 1 - fmt.bias());
    let (sig, exp) = normalize(b, product, exp);
    let sig = collapse_sticky(b, sig, fmt.man_bits + 3);
    let finite = round_pack(b, fmt, sign, exp, sig);
    let inf_times_zero_x = b.and(x.is_inf, y.is_zero);
    let inf_times_zero_y = b.and(y.is_inf, x.is_zero);
    let nan = b.or_all(&[x.is_nan, y.is_nan, inf_times_zero_x, inf_times_zero_y]);
    let any_inf = b.or(x.is_inf, y.is_inf);
    let inf = infinity(b, fmt, sign);
    let result = b.mux(any_inf, inf, finite);
    let qnan = quiet_nan(b, fmt);
    b.mux(nan, qnan, result)
}
