//! The transcendental operators' constants, computed exactly enough at
//! generation time in big fixed-point arithmetic (no hand-typed digits):
//! logarithms of rationals by the `atanh` series
//! (`ln(p/q) = 2 atanh((p − q)/(p + q))`) and exponentials by their
//! Taylor series, each with 32 guard bits and rounded once to the
//! requested number of fraction bits.

use num_bigint::BigInt;

/// Guard bits carried through the series.
const GUARD: u32 = 32;

/// `v / 2^shift` rounded to nearest (ties up).
pub fn round_shift(v: BigInt, shift: u32) -> BigInt {
    if shift == 0 {
        return v;
    }
    (v + (BigInt::from(1) << (shift - 1))) >> shift
}

/// `ln(p/q) × 2^bits`, rounded (`p`, `q` > 0).
pub fn ln_ratio(p: u64, q: u64, bits: u32) -> BigInt {
    let g = bits + GUARD;
    let z = (BigInt::from(i128::from(p) - i128::from(q)) << g)
        / BigInt::from(u128::from(p) + u128::from(q));
    let z2 = (&z * &z) >> g;
    let mut term = z;
    let mut sum = BigInt::from(0);
    let mut k = 0u32;
    // Shifts of negative values round down: stop at ±1, not 0.
    while term.magnitude() > &num_bigint::BigUint::from(1u32) {
        sum += &term / BigInt::from(2 * k + 1);
        term = (&term * &z2) >> g;
        k += 1;
    }
    round_shift(sum * 2, GUARD)
}

/// `ln 2 × 2^bits`, rounded.
pub fn ln2(bits: u32) -> BigInt {
    ln_ratio(2, 1, bits)
}

/// `2^(p/q) × 2^bits`, rounded (`|p/q|` at most 1).
pub fn exp2_ratio(p: i64, q: u64, bits: u32) -> BigInt {
    let g = bits + GUARD;
    // t = p/q × ln 2, in g fraction bits.
    let t = ln2(g) * BigInt::from(p) / BigInt::from(q);
    let mut term = BigInt::from(1) << g;
    let mut sum = BigInt::from(0);
    let mut n = 1u32;
    while term.magnitude() > &num_bigint::BigUint::from(1u32) {
        sum += &term;
        term = ((&term * &t) >> g) / BigInt::from(n);
        n += 1;
    }
    round_shift(sum, GUARD)
}

/// `(ln 2)^n / n! × 2^bits`, rounded: the Taylor coefficients of `2^x`.
pub fn exp2_coefficient(n: u32, bits: u32) -> BigInt {
    let g = bits + GUARD;
    let l = ln2(g);
    let mut c = BigInt::from(1) << g;
    for i in 1..=n {
        c = ((c * &l) >> g) / BigInt::from(i);
    }
    round_shift(c, GUARD)
}

/// `2^bits / ln 2`, rounded.
pub fn inv_ln2(bits: u32) -> BigInt {
    let g = bits + GUARD;
    let num = BigInt::from(1) << (g + g);
    round_shift(num / ln2(g), GUARD)
}

/// `2^bits / d`, rounded.
pub fn reciprocal(d: u64, bits: u32) -> BigInt {
    round_shift((BigInt::from(1) << (bits + GUARD)) / BigInt::from(d), GUARD)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn to_f64(v: &BigInt, bits: u32) -> f64 {
        let (sign, digits) = v.to_u64_digits();
        let mut x = 0.0f64;
        for d in digits.iter().rev() {
            x = x * 18_446_744_073_709_551_616.0 + *d as f64;
        }
        let x = x / 2f64.powi(bits as i32);
        if sign == num_bigint::Sign::Minus {
            -x
        } else {
            x
        }
    }

    #[test]
    fn constants_agree_with_the_host() {
        assert_eq!(ln2(64), BigInt::from(0xB172_17F7_D1CF_79ABu64 + 1));
        assert!((to_f64(&ln_ratio(341, 512, 60), 60) - (341.0f64 / 512.0).ln()).abs() < 1e-15);
        assert!((to_f64(&exp2_ratio(37, 64, 60), 60) - 2f64.powf(37.0 / 64.0)).abs() < 1e-15);
        assert!((to_f64(&exp2_ratio(-5, 64, 60), 60) - 2f64.powf(-5.0 / 64.0)).abs() < 1e-15);
        let c3 = std::f64::consts::LN_2.powi(3) / 6.0;
        assert!((to_f64(&exp2_coefficient(3, 60), 60) - c3).abs() < 1e-15);
        assert!((to_f64(&inv_ln2(60), 60) - std::f64::consts::LOG2_E).abs() < 1e-15);
        assert_eq!(reciprocal(4, 10), BigInt::from(256));
    }
}
