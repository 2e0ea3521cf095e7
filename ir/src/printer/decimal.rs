//! Decimal integer formatting straight into the output buffer, without the
//! `fmt` machinery: names and integers are printed for nearly every op.

use num_bigint::BigInt;
use num_traits::ToPrimitive;

/// Appends `n` in decimal.
pub fn push_u64(out: &mut String, mut n: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend(buf[i..].iter().map(|&b| b as char));
}

/// Appends `n` in decimal.
pub fn push_i64(out: &mut String, n: i64) {
    if n < 0 {
        out.push('-');
    }
    push_u64(out, n.unsigned_abs());
}

/// Appends `n` in decimal.
pub fn push_bigint(out: &mut String, n: &BigInt) {
    match n.to_i64() {
        Some(v) => push_i64(out, v),
        None => out.push_str(&n.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_like_display() {
        for v in [0i64, 7, -7, 10, 1234567890, i64::MIN, i64::MAX] {
            let mut s = String::new();
            push_i64(&mut s, v);
            assert_eq!(s, v.to_string());
            let mut s = String::new();
            push_bigint(&mut s, &BigInt::from(v));
            assert_eq!(s, v.to_string());
        }
        let big = BigInt::from(u64::MAX) * 3;
        let mut s = String::new();
        push_bigint(&mut s, &big);
        assert_eq!(s, big.to_string());
        let mut s = String::new();
        push_u64(&mut s, u64::MAX);
        assert_eq!(s, u64::MAX.to_string());
    }
}
