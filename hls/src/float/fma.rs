//! Fused multiply-add (`math.fma`): `a × b + c` rounded once. The exact
//! product of the significands (`2 m + 2` bits, [`wide_product`]) and
//! `c`'s significand widened to the same width are normalised and added
//! exactly by the adder's [`add_terms`] (its window of guard, round and
//! sticky bits is wide enough for any precision), then rounded by
//! [`round_pack`].

use super::add::{add_terms, Term};
use super::builder::Builder;
use super::format::Format;
use super::mul::wide_product;
use super::normalize::normalize;
use super::round::round_pack;
use super::unpack::{infinity, quiet_nan, unpack};
use silica_ir::ValueId;

/// `a × y + c` in `fmt`, raw bits in and out.
pub fn build_fma(b: &mut Builder<'_>, fmt: Format, a: ValueId, y: ValueId, c: ValueId) -> ValueId {
    let m = fmt.man_bits;
    let ew = fmt.internal_exp_bits(0) + 1;
    let x = unpack(b, fmt, a, ew);
    let y = unpack(b, fmt, y, ew);
    let z = unpack(b, fmt, c, ew);
    let product_sign = b.xor(x.sign, y.sign);
    // The product's top bit (2m + 1) has exponent ea + eb - bias + 1.
    let product = wide_product(b, x.sig, y.sig);
    let exp = b.add(x.exp, y.exp);
    let exp = b.add_const(exp, 1 - fmt.bias());
    let (product, product_exp) = normalize(b, product, exp);
    let product_zero = b.or(x.is_zero, y.is_zero);
    let addend = b.append_zeros(z.sig, m + 1);
    let (addend, addend_exp) = normalize(b, addend, z.exp);
    let (sign, exp, sig) = add_terms(
        b,
        Term {
            sign: product_sign,
            exp: product_exp,
            sig: product,
            is_zero: product_zero,
        },
        Term {
            sign: z.sign,
            exp: addend_exp,
            sig: addend,
            is_zero: z.is_zero,
        },
        false,
    );
    let finite = round_pack(b, fmt, sign, exp, sig);
    // Infinities and NaNs: inf × 0, inf - inf, or a NaN operand.
    let inf_times_zero_x = b.and(x.is_inf, y.is_zero);
    let inf_times_zero_y = b.and(y.is_inf, x.is_zero);
    let product_inf = b.or(x.is_inf, y.is_inf);
    let opposite = b.xor(product_sign, z.sign);
    let both_inf = b.and(product_inf, z.is_inf);
    let inf_minus_inf = b.and(both_inf, opposite);
    let nan = b.or_all(&[
        x.is_nan,
        y.is_nan,
        z.is_nan,
        inf_times_zero_x,
        inf_times_zero_y,
        inf_minus_inf,
    ]);
    let inf_sign = b.mux(product_inf, product_sign, z.sign);
    let inf = infinity(b, fmt, inf_sign);
    let any_inf = b.or(product_inf, z.is_inf);
    let result = b.mux(any_inf, inf, finite);
    let qnan = quiet_nan(b, fmt);
    b.mux(nan, qnan, result)
}
