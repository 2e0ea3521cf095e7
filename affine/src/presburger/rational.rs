//! The simplex's number types behind one trait: `Small`, a reduced
//! `i128` fraction whose every operation is checked (an overflow is
//! reported, never wrapped), and `BigRational`, which never overflows.
//! The simplex runs on `Small` first and starts again on `BigRational`
//! when an operation overflows, so its answers are always exact.

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::cmp::Ordering;

/// An operation's result did not fit the number type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overflow;

/// The exact field operations the simplex needs.
pub trait Field: Clone + Sized {
    fn zero() -> Self;
    fn one() -> Self;
    fn from_int(v: &BigInt) -> Result<Self, Overflow>;
    fn to_big(&self) -> BigRational;
    fn is_zero(&self) -> bool;
    fn is_negative(&self) -> bool;
    fn is_positive(&self) -> bool;
    fn neg(&self) -> Result<Self, Overflow>;
    fn add(&self, o: &Self) -> Result<Self, Overflow>;
    fn sub(&self, o: &Self) -> Result<Self, Overflow>;
    fn mul(&self, o: &Self) -> Result<Self, Overflow>;
    /// `self / o`; `o` is never zero.
    fn div(&self, o: &Self) -> Result<Self, Overflow>;
    fn compare(&self, o: &Self) -> Result<Ordering, Overflow>;
}

impl Field for BigRational {
    fn zero() -> Self {
        Zero::zero()
    }
    fn one() -> Self {
        One::one()
    }
    fn from_int(v: &BigInt) -> Result<Self, Overflow> {
        Ok(BigRational::from_integer(v.clone()))
    }
    fn to_big(&self) -> BigRational {
        self.clone()
    }
    fn is_zero(&self) -> bool {
        Zero::is_zero(self)
    }
    fn is_negative(&self) -> bool {
        Signed::is_negative(self)
    }
    fn is_positive(&self) -> bool {
        Signed::is_positive(self)
    }
    fn neg(&self) -> Result<Self, Overflow> {
        Ok(-self)
    }
    fn add(&self, o: &Self) -> Result<Self, Overflow> {
        Ok(self + o)
    }
    fn sub(&self, o: &Self) -> Result<Self, Overflow> {
        Ok(self - o)
    }
    fn mul(&self, o: &Self) -> Result<Self, Overflow> {
        Ok(self * o)
    }
    fn div(&self, o: &Self) -> Result<Self, Overflow> {
        Ok(self / o)
    }
    fn compare(&self, o: &Self) -> Result<Ordering, Overflow> {
        Ok(self.cmp(o))
    }
}

/// `v` unless it is `i128::MIN`, whose negation and absolute value do
/// not fit: values stay in `-i128::MAX..=i128::MAX`.
fn fits(v: i128) -> Result<i128, Overflow> {
    if v == i128::MIN {
        Err(Overflow)
    } else {
        Ok(v)
    }
}

/// `num / den` in lowest terms with `den > 0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Small {
    num: i128,
    den: i128,
}

impl Small {
    /// `num / den` reduced (`den` non-zero).
    fn new(num: i128, den: i128) -> Result<Small, Overflow> {
        let (num, den) = (fits(num)?, fits(den)?);
        let g = num.gcd(&den);
        let (mut num, mut den) = (num / g, den / g);
        if den < 0 {
            num = num.checked_neg().ok_or(Overflow)?;
            den = den.checked_neg().ok_or(Overflow)?;
        }
        Ok(Small { num, den })
    }

    fn integer(num: i128) -> Small {
        Small { num, den: 1 }
    }
}

impl Field for Small {
    fn zero() -> Self {
        Small::integer(0)
    }
    fn one() -> Self {
        Small::integer(1)
    }
    fn from_int(v: &BigInt) -> Result<Self, Overflow> {
        Ok(Small::integer(fits(v.to_i128().ok_or(Overflow)?)?))
    }
    fn to_big(&self) -> BigRational {
        BigRational::new(BigInt::from(self.num), BigInt::from(self.den))
    }
    fn is_zero(&self) -> bool {
        self.num == 0
    }
    fn is_negative(&self) -> bool {
        self.num < 0
    }
    fn is_positive(&self) -> bool {
        self.num > 0
    }
    fn neg(&self) -> Result<Self, Overflow> {
        Ok(Small {
            num: self.num.checked_neg().ok_or(Overflow)?,
            den: self.den,
        })
    }
    fn add(&self, o: &Self) -> Result<Self, Overflow> {
        if self.den == 1 && o.den == 1 {
            return Ok(Small::integer(fits(
                self.num.checked_add(o.num).ok_or(Overflow)?,
            )?));
        }
        let g = self.den.gcd(&o.den);
        let (a, b) = (self.den / g, o.den / g);
        let num = (self.num.checked_mul(b))
            .and_then(|x| o.num.checked_mul(a).and_then(|y| x.checked_add(y)))
            .ok_or(Overflow)?;
        let den = a.checked_mul(o.den).ok_or(Overflow)?;
        Small::new(num, den)
    }
    fn sub(&self, o: &Self) -> Result<Self, Overflow> {
        self.add(&o.neg()?)
    }
    fn mul(&self, o: &Self) -> Result<Self, Overflow> {
        if self.num == 0 || o.num == 0 {
            return Ok(Small::zero());
        }
        let g1 = self.num.gcd(&o.den);
        let g2 = o.num.gcd(&self.den);
        let num = (self.num / g1).checked_mul(o.num / g2).ok_or(Overflow)?;
        let den = (self.den / g2).checked_mul(o.den / g1).ok_or(Overflow)?;
        Ok(Small {
            num: fits(num)?,
            den: fits(den)?,
        })
    }
    fn div(&self, o: &Self) -> Result<Self, Overflow> {
        let inverse = Small::new(o.den, o.num)?;
        self.mul(&inverse)
    }
    fn compare(&self, o: &Self) -> Result<Ordering, Overflow> {
        let l = self.num.checked_mul(o.den).ok_or(Overflow)?;
        let r = o.num.checked_mul(self.den).ok_or(Overflow)?;
        Ok(l.cmp(&r))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i128, d: i128) -> Small {
        Small::new(n, d).unwrap()
    }

    #[test]
    fn small_fractions_agree_with_big_ones() {
        let values = [q(1, 2), q(-3, 4), q(7, 1), q(0, 1), q(-5, 6), q(9, -3)];
        for a in &values {
            for b in &values {
                let (x, y) = (a.to_big(), b.to_big());
                assert_eq!(a.add(b).unwrap().to_big(), &x + &y);
                assert_eq!(a.sub(b).unwrap().to_big(), &x - &y);
                assert_eq!(a.mul(b).unwrap().to_big(), &x * &y);
                assert_eq!(a.compare(b).unwrap(), x.cmp(&y));
                if !b.is_zero() {
                    assert_eq!(a.div(b).unwrap().to_big(), &x / &y);
                }
            }
        }
    }

    #[test]
    fn overflow_is_reported_not_wrapped() {
        let big = Small::integer(i128::MAX / 2 + 1);
        assert_eq!(big.add(&big), Err(Overflow));
        assert_eq!(big.mul(&Small::integer(3)), Err(Overflow));
        assert_eq!(Small::integer(i128::MIN).neg(), Err(Overflow));
        assert_eq!(
            Small::from_int(&(BigInt::from(i128::MAX) * 2)),
            Err(Overflow)
        );
    }
}
