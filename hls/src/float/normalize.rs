//! Normalisation: a leading-zero count fused with the left shift that
//! brings a significand's leading one to its top bit, as a binary
//! search (one stage per power of two: if the top `s` bits are zero,
//! shift by `s`), the exponent reduced by the count.

use super::builder::Builder;
use silica_ir::ValueId;

/// `(sig << lz, exp - lz)` where `lz` counts `sig`'s leading zeros. A
/// zero `sig` stays zero (its exponent is then meaningless).
pub fn normalize(b: &mut Builder<'_>, sig: ValueId, exp: ValueId) -> (ValueId, ValueId) {
    let n = b.width(sig);
    let ew = b.width(exp);
    let mut stage = 1u32;
    while stage * 2 < n {
        stage *= 2;
    }
    let mut x = sig;
    let mut count_bits = Vec::new();
    while stage >= 1 {
        if stage < n {
            let top = b.extract(x, n - stage, stage);
            let top_zero = b.is_zero(top);
            let low = b.extract(x, 0, n - stage);
            let shifted = b.append_zeros(low, stage);
            x = b.mux(top_zero, shifted, x);
            count_bits.push(top_zero);
        } else {
            let never = b.zero(1);
            count_bits.push(never);
        }
        stage /= 2;
    }
    let count = b.concat(&count_bits);
    let count = b.resize(count, ew);
    let exp = b.sub(exp, count);
    (x, exp)
}
