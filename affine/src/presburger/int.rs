//! Exact integers for constraint coefficients: machine `i64` while the
//! value fits, a `BigInt` otherwise. Every operation checks for overflow
//! and moves to the big representation instead of wrapping, so no
//! coefficient of a constraint system is ever silently wrong.

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{Signed, ToPrimitive, Zero};
use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, Mul, Neg, Sub};

/// An exact integer. Invariant: `Big` only holds values outside `i64`.
#[derive(Clone, PartialEq, Eq, Hash)]
pub enum Int {
    Small(i64),
    Big(Box<BigInt>),
}

impl Int {
    pub const ZERO: Int = Int::Small(0);
    pub const ONE: Int = Int::Small(1);

    /// The value as a `BigInt`.
    pub fn to_big(&self) -> BigInt {
        match self {
            Int::Small(v) => BigInt::from(*v),
            Int::Big(b) => (**b).clone(),
        }
    }

    /// A `BigInt` brought back to the smallest representation.
    pub fn from_big(b: BigInt) -> Int {
        match b.to_i64() {
            Some(v) => Int::Small(v),
            None => Int::Big(Box::new(b)),
        }
    }

    /// The value when it fits in `i64`.
    pub fn to_i64(&self) -> Option<i64> {
        match self {
            Int::Small(v) => Some(*v),
            Int::Big(_) => None,
        }
    }

    pub fn is_zero(&self) -> bool {
        matches!(self, Int::Small(0))
    }

    pub fn is_one(&self) -> bool {
        matches!(self, Int::Small(1))
    }

    /// -1, 0 or 1.
    pub fn signum(&self) -> i32 {
        match self {
            Int::Small(v) => v.signum() as i32,
            Int::Big(b) => {
                if b.is_negative() {
                    -1
                } else {
                    1
                }
            }
        }
    }

    pub fn is_positive(&self) -> bool {
        self.signum() > 0
    }

    pub fn is_negative(&self) -> bool {
        self.signum() < 0
    }

    pub fn abs(&self) -> Int {
        if self.is_negative() {
            -self
        } else {
            self.clone()
        }
    }

    /// Greatest common divisor (non-negative; `gcd(0, 0) = 0`).
    pub fn gcd(&self, other: &Int) -> Int {
        match (self, other) {
            (Int::Small(a), Int::Small(b)) => {
                let g = gcd_u64(a.unsigned_abs(), b.unsigned_abs());
                i64::try_from(g)
                    .map(Int::Small)
                    .unwrap_or_else(|_| Int::from_big(BigInt::from(g)))
            }
            _ => Int::from_big(self.to_big().gcd(&other.to_big())),
        }
    }

    /// `floor(self / d)`; `d` must not be zero (zero gives zero).
    pub fn floor_div(&self, d: &Int) -> Int {
        if d.is_zero() {
            return Int::ZERO;
        }
        match (self, d) {
            (Int::Small(a), Int::Small(b)) => match a.checked_div_euclid(*b) {
                // Euclidean division rounds toward -inf only for b > 0.
                Some(q) if *b > 0 => Int::Small(q),
                _ => Int::from_big(self.to_big().div_floor(&d.to_big())),
            },
            _ => Int::from_big(self.to_big().div_floor(&d.to_big())),
        }
    }

    /// `ceil(self / d)`; `d` must not be zero (zero gives zero).
    pub fn ceil_div(&self, d: &Int) -> Int {
        -(&(-self).floor_div(d))
    }

    /// Whether `d` divides `self` (only zero divides by zero).
    pub fn divisible_by(&self, d: &Int) -> bool {
        if d.is_zero() {
            return self.is_zero();
        }
        match (self, d) {
            (Int::Small(a), Int::Small(b)) => a.checked_rem(*b).is_none_or(|r| r == 0),
            _ => (self.to_big() % d.to_big()).is_zero(),
        }
    }

    /// Exact division when `d` divides `self`.
    pub fn exact_div(&self, d: &Int) -> Int {
        match (self, d) {
            (Int::Small(a), Int::Small(b)) => match a.checked_div(*b) {
                Some(q) => Int::Small(q),
                None => Int::from_big(self.to_big() / d.to_big()),
            },
            _ => Int::from_big(self.to_big() / d.to_big()),
        }
    }
}

fn gcd_u64(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl From<i64> for Int {
    fn from(v: i64) -> Int {
        Int::Small(v)
    }
}

impl Default for Int {
    fn default() -> Int {
        Int::ZERO
    }
}

impl fmt::Debug for Int {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for Int {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Int::Small(v) => write!(f, "{v}"),
            Int::Big(b) => write!(f, "{b}"),
        }
    }
}

impl Ord for Int {
    fn cmp(&self, other: &Int) -> Ordering {
        match (self, other) {
            (Int::Small(a), Int::Small(b)) => a.cmp(b),
            _ => self.to_big().cmp(&other.to_big()),
        }
    }
}

impl PartialOrd for Int {
    fn partial_cmp(&self, other: &Int) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

macro_rules! checked_binop {
    ($trait:ident, $method:ident, $checked:ident) => {
        impl $trait<&Int> for &Int {
            type Output = Int;
            fn $method(self, rhs: &Int) -> Int {
                if let (Int::Small(a), Int::Small(b)) = (self, rhs) {
                    if let Some(v) = a.$checked(*b) {
                        return Int::Small(v);
                    }
                }
                Int::from_big(self.to_big().$method(rhs.to_big()))
            }
        }
        impl $trait<Int> for Int {
            type Output = Int;
            fn $method(self, rhs: Int) -> Int {
                (&self).$method(&rhs)
            }
        }
        impl $trait<&Int> for Int {
            type Output = Int;
            fn $method(self, rhs: &Int) -> Int {
                (&self).$method(rhs)
            }
        }
    };
}

checked_binop!(Add, add, checked_add);
checked_binop!(Sub, sub, checked_sub);
checked_binop!(Mul, mul, checked_mul);

impl Neg for &Int {
    type Output = Int;
    fn neg(self) -> Int {
        match self {
            Int::Small(v) => match v.checked_neg() {
                Some(n) => Int::Small(n),
                None => Int::from_big(-BigInt::from(*v)),
            },
            Int::Big(b) => Int::from_big(-(**b).clone()),
        }
    }
}

impl Neg for Int {
    type Output = Int;
    fn neg(self) -> Int {
        -&self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overflow_moves_to_big_and_back() {
        let max = Int::from(i64::MAX);
        let sum = &max + &Int::ONE;
        assert!(matches!(sum, Int::Big(_)));
        assert_eq!(sum.to_big(), BigInt::from(i64::MAX) + 1);
        assert_eq!(&sum - &Int::ONE, max);
        let min = Int::from(i64::MIN);
        assert_eq!((-&min).to_big(), -BigInt::from(i64::MIN));
        assert_eq!(&(&min * &Int::from(-1)) + &Int::from(-1), max);
    }

    #[test]
    fn divisions_round_as_named() {
        let (a, b) = (Int::from(-7), Int::from(2));
        assert_eq!(a.floor_div(&b), Int::from(-4));
        assert_eq!(a.ceil_div(&b), Int::from(-3));
        assert_eq!(Int::from(7).floor_div(&Int::from(-2)), Int::from(-4));
        assert_eq!(
            Int::from(i64::MIN).floor_div(&Int::from(-1)).to_big(),
            -BigInt::from(i64::MIN)
        );
        assert!(Int::from(12).divisible_by(&Int::from(-4)));
        assert_eq!(Int::from(-12).gcd(&Int::from(18)), Int::from(6));
        assert_eq!(
            Int::from(i64::MIN).gcd(&Int::ZERO).to_big(),
            BigInt::from(i64::MIN).abs()
        );
    }
}
