//! Division (`arith.divf`) and square root (`math.sqrt`), digit by
//! digit: restoring recurrences of one subtract-and-select per result
//! bit (a chain the pipeline cuts into stages), on significands
//! normalised first (subnormal operands included), producing the
//! quotient or root with two bits beyond the result's precision and a
//! sticky bit (a non-zero remainder), then rounded once by
//! [`round_pack`].

use super::builder::{Builder, Cmp};
use super::format::Format;
use super::normalize::normalize;
use super::round::round_pack;
use super::unpack::{infinity, quiet_nan, unpack};
use silica_ir::ValueId;

/// `floor(n * 2^bits / d)` (as a `bits + 1`-bit value, for `n < 2 d`)
/// and whether the division leaves a remainder; `n` and `d` are
/// unsigned, `d` non-zero, both `w` bits wide.
fn divide_bits(b: &mut Builder<'_>, n: ValueId, d: ValueId, bits: u32) -> (ValueId, ValueId) {
    let w = b.width(n) + 2;
    let d = b.resize(d, w);
    let mut r = b.resize(n, w);
    let mut quotient = Vec::new();
    for i in 0..=bits {
        let t = b.sub(r, d);
        let ge = b.icmp(Cmp::Uge, r, d);
        quotient.push(ge);
        r = b.mux(ge, t, r);
        if i < bits {
            let low = b.extract(r, 0, w - 1);
            r = b.append_zeros(low, 1);
        }
    }
    let inexact = b.any(r);
    (b.concat(&quotient), inexact)
}

/// `a / y` in `fmt`, raw bits in and out.
pub fn build_div(b: &mut Builder<'_>, fmt: Format, a: ValueId, y: ValueId) -> ValueId {
    let m = fmt.man_bits;
    let ew = fmt.internal_exp_bits(0);
    let x = unpack(b, fmt, a, ew);
    let y = unpack(b, fmt, y, ew);
    let sign = b.xor(x.sign, y.sign);
    let (xs, xe) = normalize(b, x.sig, x.exp);
    let (ys, ye) = normalize(b, y.sig, y.exp);
    // xs / ys is in (1/2, 2): m + 3 quotient bits, the first of weight 1.
    let (q, inexact) = divide_bits(b, xs, ys, m + 2);
    let sig = b.concat(&[q, inexact]);
    let exp = b.sub(xe, ye);
    let exp = b.add_const(exp, fmt.bias());
    let (sig, exp) = normalize(b, sig, exp);
    let finite = round_pack(b, fmt, sign, exp, sig);
    let magnitude = b.zero(fmt.exp_bits + fmt.man_bits);
    let zero = b.concat(&[sign, magnitude]);
    let inf = infinity(b, fmt, sign);
    // 0/0, inf/inf and NaN operands: NaN; x/0 and inf/y: infinity;
    // 0/y and x/inf: zero.
    let zero_by_zero = b.and(x.is_zero, y.is_zero);
    let inf_by_inf = b.and(x.is_inf, y.is_inf);
    let nan = b.or_all(&[x.is_nan, y.is_nan, zero_by_zero, inf_by_inf]);
    let to_inf = b.or(x.is_inf, y.is_zero);
    let to_zero = b.or(x.is_zero, y.is_inf);
    let result = b.mux(to_zero, zero, finite);
    let result = b.mux(to_inf, inf, result);
    let qnan = quiet_nan(b, fmt);
    b.mux(nan, qnan, result)
}

/// `floor(sqrt(r))` of an unsigned `2 n`-bit `r` (`n` bits) and whether
/// it leaves a remainder.
fn root_bits(b: &mut Builder<'_>, r: ValueId, n: u32) -> (ValueId, ValueId) {
    let w = n + 3;
    let mut rem = b.zero(w);
    let mut root = b.zero(w);
    let mut digits = Vec::new();
    for i in (0..n).rev() {
        // rem = 4 rem + the next two bits of r; trial = 4 root + 1.
        let pair = b.extract(r, 2 * i, 2);
        let high = b.extract(rem, 0, w - 2);
        rem = b.concat(&[high, pair]);
        let root_high = b.extract(root, 0, w - 2);
        let one = b.constant(2, 1);
        let trial = b.concat(&[root_high, one]);
        let ge = b.icmp(Cmp::Uge, rem, trial);
        let less = b.sub(rem, trial);
        rem = b.mux(ge, less, rem);
        let root_low = b.extract(root, 0, w - 1);
        root = b.concat(&[root_low, ge]);
        digits.push(ge);
    }
    let inexact = b.any(rem);
    (b.concat(&digits), inexact)
}

/// `sqrt(a)` in `fmt`, raw bits in and out.
pub fn build_sqrt(b: &mut Builder<'_>, fmt: Format, a: ValueId) -> ValueId {
    let m = fmt.man_bits;
    let ew = fmt.internal_exp_bits(0);
    let x = unpack(b, fmt, a, ew);
    let (s, e) = normalize(b, x.sig, x.exp);
    // The value is s / 2^m * 2^k with k = e - bias; make k even by
    // doubling s (then s / 2^m is in [1, 4)).
    let k = b.add_const(e, -fmt.bias());
    let odd = b.bit(k, 0);
    let s = b.resize(s, m + 2);
    let low = b.extract(s, 0, m + 1);
    let doubled = b.append_zeros(low, 1);
    let s = b.mux(odd, doubled, s);
    let odd_wide = b.resize(odd, ew);
    let k_even = b.sub(k, odd_wide);
    // sqrt(s / 2^m) * 2^(m + 2) = sqrt(s * 2^(m + 4)): m + 3 bits, the
    // first of weight 1.
    let radicand = b.append_zeros(s, m + 4);
    let (root, inexact) = root_bits(b, radicand, m + 3);
    let sig = b.concat(&[root, inexact]);
    // The exponent: k / 2 (k even, so an arithmetic shift is exact).
    let sign_bit = b.bit(k_even, ew - 1);
    let high = b.extract(k_even, 1, ew - 1);
    let half = b.concat(&[sign_bit, high]);
    let exp = b.add_const(half, fmt.bias());
    let finite = round_pack(b, fmt, x.sign, exp, sig);
    // sqrt(±0) = ±0, sqrt(+inf) = +inf, negative or NaN: NaN.
    let positive = b.not(x.sign);
    let plus_inf = b.and(x.is_inf, positive);
    let not_zero = b.not(x.is_zero);
    let negative = b.and(x.sign, not_zero);
    let nan = b.or(x.is_nan, negative);
    let result = b.mux(x.is_zero, a, finite);
    let inf = infinity(b, fmt, x.sign);
    let result = b.mux(plus_inf, inf, result);
    let qnan = quiet_nan(b, fmt);
    b.mux(nan, qnan, result)
}
