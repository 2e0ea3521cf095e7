//! Seeded random inputs for a co-simulation: one value per scalar
//! argument and per memory word, reproducible across versions.
//!
//! The generator is splitmix64 (Steele, Lea and Flood's mix of a Weyl
//! sequence; its constants below are part of the format). Argument `i`
//! draws from its own stream, a splitmix64 whose state starts at the
//! `(i + 1)`th output of a splitmix64 seeded with `seed` (so streams are
//! not shifted copies of each other, and fixing one argument's value
//! changes no other argument's). A value of `w` bits takes `ceil(w / 64)`
//! draws, least significant 64 bits first, the last one masked to `w`.
//!
//! Kinds of values (by the MLIR type of the scalar or memory element):
//! - integers of any width: uniform over all `2^w` patterns;
//! - `index`: uniform in [`Options::index_range`] (inclusive), since an
//!   `index` argument is usually a trip count or a bound;
//! - `f16`, `bf16`, `f32`, `f64`: one value in eight a special one (one
//!   of: +0, -0, +inf, -inf, a quiet NaN with a random payload, a
//!   subnormal with a random sign and mantissa, the largest finite value
//!   or the smallest normal one with a random sign, equally likely), the
//!   others finite values with a uniform sign and mantissa and an
//!   unbiased exponent uniform in [-8, 7], so sums and products of a few
//!   stay finite and round in interesting ways; passed as their raw
//!   bits.

use super::Options;
use crate::model::interface::element_type;
use crate::model::interface::{ArgKind, Interface};
use num_bigint::BigUint;
use std::collections::HashMap;

/// splitmix64: a 64-bit state advanced by a Weyl constant and mixed.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

const GOLDEN: u64 = 0x9e37_79b9_7f4a_7c15;

impl SplitMix64 {
    /// A generator starting at `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GOLDEN);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniform value in `lo..=hi` (`lo <= hi`).
    pub fn in_range(&mut self, lo: u64, hi: u64) -> u64 {
        let span = hi.wrapping_sub(lo).wrapping_add(1);
        if span == 0 {
            return self.next_u64();
        }
        lo + self.next_u64() % span
    }

    /// `width` uniform random bits.
    pub fn bits(&mut self, width: u32) -> BigUint {
        let chunks = width.div_ceil(64) as usize;
        let mut digits: Vec<u64> = (0..chunks).map(|_| self.next_u64()).collect();
        if !width.is_multiple_of(64) {
            if let Some(top) = digits.last_mut() {
                *top &= (1u64 << (width % 64)) - 1;
            }
        }
        BigUint::from_slice(
            &digits
                .iter()
                .flat_map(|d| [*d as u32, (*d >> 32) as u32])
                .collect::<Vec<u32>>(),
        )
    }
}

/// How one value is drawn, from its MLIR type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKind {
    /// An integer of this many bits.
    Integer(u32),
    /// An `index`.
    Index,
    /// An IEEE float with these exponent and stored mantissa bits.
    Float { exponent: u32, mantissa: u32 },
}

impl ValueKind {
    /// The kind of the scalar type written `ty` with `width` bits.
    pub fn of(ty: &str, width: u32) -> ValueKind {
        match ty {
            "index" => ValueKind::Index,
            "f16" => ValueKind::Float {
                exponent: 5,
                mantissa: 10,
            },
            "bf16" => ValueKind::Float {
                exponent: 8,
                mantissa: 7,
            },
            "f32" => ValueKind::Float {
                exponent: 8,
                mantissa: 23,
            },
            "f64" => ValueKind::Float {
                exponent: 11,
                mantissa: 52,
            },
            _ => ValueKind::Integer(width),
        }
    }

    /// Whether `bits` is a NaN of this float kind (never for integers).
    pub fn is_nan(self, bits: &BigUint) -> bool {
        let ValueKind::Float { exponent, mantissa } = self else {
            return false;
        };
        let all_ones = (BigUint::from(1u8) << exponent) - 1u8;
        let exp = (bits >> mantissa) & &all_ones;
        let frac = bits & ((BigUint::from(1u8) << mantissa) - 1u8);
        exp == all_ones && frac != BigUint::ZERO
    }
}

/// One random value of `kind`.
fn draw(rng: &mut SplitMix64, kind: ValueKind, options: &Options) -> BigUint {
    match kind {
        ValueKind::Integer(w) => rng.bits(w),
        ValueKind::Index => {
            let (lo, hi) = options.index_range;
            BigUint::from(rng.in_range(lo.min(hi), hi.max(lo)))
        }
        ValueKind::Float { exponent, mantissa } if rng.in_range(0, 7) == 0 => {
            special_float(rng, exponent, mantissa)
        }
        ValueKind::Float { exponent, mantissa } => {
            let bias = (1u64 << (exponent - 1)) - 1;
            let e = bias - 8 + rng.in_range(0, 15);
            let sign = rng.bits(1);
            let frac = rng.bits(mantissa);
            (sign << (exponent + mantissa)) | (BigUint::from(e) << mantissa) | frac
        }
    }
}

/// One of the special values of a float format (see the module's
/// documentation).
fn special_float(rng: &mut SplitMix64, exponent: u32, mantissa: u32) -> BigUint {
    let one = || BigUint::from(1u8);
    let sign_bit = one() << (exponent + mantissa);
    let all_exp = ((one() << exponent) - 1u8) << mantissa;
    let quiet = one() << (mantissa - 1);
    let fraction_mask = (one() << mantissa) - 1u8;
    let sign = |rng: &mut SplitMix64| {
        if rng.in_range(0, 1) == 1 {
            sign_bit.clone()
        } else {
            BigUint::ZERO
        }
    };
    match rng.in_range(0, 7) {
        0 => BigUint::ZERO,
        1 => sign_bit.clone(),
        2 => all_exp,
        3 => sign_bit | all_exp,
        4 => sign(rng) | all_exp | quiet | rng.bits(mantissa - 1),
        5 => {
            let fraction = rng.bits(mantissa) | one();
            sign(rng) | fraction
        }
        6 => sign(rng) | (all_exp - (one() << mantissa)) | fraction_mask,
        _ => sign(rng) | (one() << mantissa),
    }
}

/// Reads `NAME=VALUE`, a fixed value for the scalar argument `NAME` of
/// `iface`: a decimal integer (negative ones in two's complement at the
/// argument's width), `0x` hex bits, or for `f32`/`f64` a decimal float.
pub fn parse_scalar(iface: &Interface, assignment: &str) -> Result<(String, BigUint), String> {
    let (name, text) = assignment
        .split_once('=')
        .ok_or_else(|| format!("'{assignment}' is not NAME=VALUE"))?;
    let (name, text) = (name.trim(), text.trim());
    let scalar = iface
        .scalars()
        .find(|(a, _)| a.name == name)
        .map(|(_, s)| s)
        .ok_or_else(|| format!("no scalar argument is named '{name}'"))?;
    let bad = || format!("'{text}' is not a value of type {}", scalar.ty);
    let value = if let Some(hex) = text.strip_prefix("0x") {
        BigUint::parse_bytes(hex.as_bytes(), 16).ok_or_else(bad)?
    } else if scalar.ty == "f32" {
        BigUint::from(text.parse::<f32>().map_err(|_| bad())?.to_bits())
    } else if scalar.ty == "f64" {
        BigUint::from(text.parse::<f64>().map_err(|_| bad())?.to_bits())
    } else {
        let v: num_bigint::BigInt = text.parse().map_err(|_| bad())?;
        let modulus = num_bigint::BigInt::from(1u8) << scalar.width;
        let half = &modulus >> 1u32;
        if v >= modulus || v < -half {
            return Err(format!("{text} does not fit in {} bits", scalar.width));
        }
        let v = if v.sign() == num_bigint::Sign::Minus {
            v + modulus
        } else {
            v
        };
        v.to_biguint().ok_or_else(bad)?
    };
    if value.bits() > u64::from(scalar.width) {
        return Err(format!("{text} does not fit in {} bits", scalar.width));
    }
    Ok((name.to_string(), value))
}

/// The inputs of one run: per argument (by index), a scalar's value or a
/// memory's words in row-major order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stimuli {
    /// `values[i]` holds argument `i`'s words (one for a scalar).
    pub values: Vec<Vec<BigUint>>,
}

impl Stimuli {
    /// Draws the inputs of `iface` from `seed`; scalars named in
    /// `options.scalars` take that value instead.
    pub fn generate(iface: &Interface, seed: u64, options: &Options) -> Result<Stimuli, String> {
        let fixed: HashMap<&str, &BigUint> = options
            .scalars
            .iter()
            .map(|(n, v)| (n.as_str(), v))
            .collect();
        for name in fixed.keys() {
            if !iface.scalars().any(|(a, _)| a.name == *name) {
                return Err(format!("no scalar argument is named '{name}'"));
            }
        }
        let values = iface
            .args
            .iter()
            .map(|arg| {
                let mut rng = SplitMix64::new(
                    SplitMix64::new(seed.wrapping_add((arg.index as u64).wrapping_mul(GOLDEN)))
                        .next_u64(),
                );
                match &arg.kind {
                    ArgKind::Scalar(s) => match fixed.get(arg.name.as_str()) {
                        Some(v) if v.bits() > u64::from(s.width) => Err(format!(
                            "the value given for '{}' does not fit in {} bits",
                            arg.name, s.width
                        )),
                        Some(v) => Ok(vec![(*v).clone()]),
                        None => Ok(vec![draw(&mut rng, ValueKind::of(&s.ty, s.width), options)]),
                    },
                    ArgKind::Memory(m) => {
                        let kind = ValueKind::of(element_type(&m.ty), m.element_width);
                        Ok((0..m.elements())
                            .map(|_| draw(&mut rng, kind, options))
                            .collect())
                    }
                }
            })
            .collect::<Result<_, String>>()?;
        Ok(Stimuli { values })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::interface::Access;
    use crate::test_support::{self, memory, scalar};

    #[test]
    fn splitmix64_matches_the_reference_sequence() {
        // The first outputs of splitmix64 seeded with 1234567 (from the
        // reference C implementation).
        let mut rng = SplitMix64::new(1234567);
        let got: Vec<u64> = (0..3).map(|_| rng.next_u64()).collect();
        assert_eq!(
            got,
            [
                6457827717110365317,
                3203168211198807973,
                9817491932198370423
            ]
        );
    }

    #[test]
    fn arguments_draw_from_unrelated_streams() {
        let m = memory("memref<8xi64>", &[8], 64, Access::Read);
        let iface = test_support::interface(&[("m0", m.clone()), ("m1", m)], &[]);
        let s = Stimuli::generate(&iface, 3, &Options::default()).unwrap();
        let (a, b) = (&s.values[0], &s.values[1]);
        assert!(a.iter().all(|w| !b.contains(w)), "{a:?} {b:?}");
        // Same seed, same values; another seed, other values.
        assert_eq!(
            Stimuli::generate(&iface, 3, &Options::default()).unwrap(),
            s
        );
        assert_ne!(
            Stimuli::generate(&iface, 4, &Options::default()).unwrap(),
            s
        );
    }

    #[test]
    fn fixed_scalars_are_read_by_type() {
        let iface = test_support::interface(
            &[
                ("n", scalar("index", 64)),
                ("k", scalar("i8", 8)),
                ("x", scalar("f32", 32)),
            ],
            &[],
        );
        let ok = |a: &str| parse_scalar(&iface, a).map(|(n, v)| (n, v.to_string()));
        assert_eq!(ok("n=3"), Ok(("n".into(), "3".into())));
        assert_eq!(ok("k=-1"), Ok(("k".into(), "255".into())));
        assert_eq!(ok("k = 0x80"), Ok(("k".into(), "128".into())));
        assert_eq!(ok("x=1.5"), Ok(("x".into(), 0x3fc0_0000u32.to_string())));
        assert_eq!(ok("k=256"), Err("256 does not fit in 8 bits".into()));
        assert_eq!(ok("k=-129"), Err("-129 does not fit in 8 bits".into()));
        assert_eq!(ok("k=0x100"), Err("0x100 does not fit in 8 bits".into()));
        assert_eq!(ok("k=one"), Err("'one' is not a value of type i8".into()));
        assert_eq!(ok("m=1"), Err("no scalar argument is named 'm'".into()));
        assert_eq!(ok("k"), Err("'k' is not NAME=VALUE".into()));
        // A fixed value replaces the random one.
        let options = Options {
            scalars: vec![parse_scalar(&iface, "k=7").unwrap()],
            ..Options::default()
        };
        let s = Stimuli::generate(&iface, 1, &options).unwrap();
        assert_eq!(s.values[1], vec![BigUint::from(7u8)]);
    }

    #[test]
    fn values_fit_their_kind() {
        let mut rng = SplitMix64::new(7);
        let options = Options::default();
        for w in [1, 7, 33, 64, 129] {
            for _ in 0..50 {
                assert!(draw(&mut rng, ValueKind::Integer(w), &options).bits() <= u64::from(w));
            }
        }
        let f32k = ValueKind::of("f32", 32);
        let mut specials = std::collections::BTreeSet::new();
        for _ in 0..2000 {
            let v = draw(&mut rng, f32k, &options);
            let f = f32::from_bits(u32::try_from(&v).unwrap());
            let class = if f.is_nan() {
                "nan"
            } else if f.is_infinite() {
                "inf"
            } else if f == 0.0 {
                "zero"
            } else if f.is_subnormal() {
                "subnormal"
            } else if f.abs() == f32::MAX {
                "max"
            } else if f.abs() == f32::MIN_POSITIVE {
                "min"
            } else {
                assert!(f.abs() >= 2f32.powi(-8) && f.abs() < 256.0, "{f}");
                continue;
            };
            specials.insert(class);
        }
        assert_eq!(specials.len(), 6, "{specials:?}");
        for _ in 0..200 {
            let v = u64::try_from(&draw(&mut rng, ValueKind::Index, &options)).unwrap();
            assert!((options.index_range.0..=options.index_range.1).contains(&v));
        }
        assert!(f32k.is_nan(&BigUint::from(0x7fc0_0001u32)));
        assert!(!f32k.is_nan(&BigUint::from(0x7f80_0000u32)));
        assert!(!ValueKind::Integer(32).is_nan(&BigUint::from(0x7fc0_0001u32)));
        assert_eq!(element_type("memref<4x5xf32>"), "f32");
        assert_eq!(element_type("memref<i129>"), "i129");
        assert_eq!(element_type("memref<2xindex>"), "index");
        assert_eq!(
            element_type("memref<2x3xi8, affine_map<(d0, d1) -> (d0, d1)>>"),
            "i8"
        );
    }
}
