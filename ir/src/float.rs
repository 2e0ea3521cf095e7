//! Floating-point formats: bit-level decoding, correctly rounded decimal
//! parsing, and decimal printing with the exact digits LLVM's `APFloat`
//! produces (which is what `mlir-opt` prints).
//!
//! Values are carried as raw bit patterns (`u128`), so every format
//! (f16 ... f128, the f8/f6/f4 families, tf32, x87 f80) is handled by the
//! same exact big-integer arithmetic.

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, ToPrimitive, Zero};

/// Every builtin float type.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum FloatKind {
    F16,
    BF16,
    F32,
    F64,
    F80,
    F128,
    TF32,
    F8E5M2,
    F8E4M3,
    F8E4M3FN,
    F8E5M2FNUZ,
    F8E4M3FNUZ,
    F8E4M3B11FNUZ,
    F8E3M4,
    F8E8M0FNU,
    F6E2M3FN,
    F6E3M2FN,
    F4E2M1FN,
}

/// How a format spends its top exponent value.
#[derive(Clone, Copy, PartialEq, Eq)]
enum NonFinite {
    /// IEEE 754: all-ones exponent is infinity (zero mantissa) or NaN.
    Ieee,
    /// No infinity; the all-ones pattern (sign aside) is NaN.
    NanAllOnes,
    /// No infinity, no negative zero; `0x80...` is NaN.
    NanNegZero,
    /// Neither infinity nor NaN.
    FiniteOnly,
}

struct Format {
    exp_bits: u32,
    /// Stored mantissa bits (f80 stores its integer bit too).
    man_bits: u32,
    bias: i64,
    non_finite: NonFinite,
    explicit_int_bit: bool,
    signed: bool,
}

const ALL: [FloatKind; FloatKind::COUNT] = [
    FloatKind::F16,
    FloatKind::BF16,
    FloatKind::F32,
    FloatKind::F64,
    FloatKind::F80,
    FloatKind::F128,
    FloatKind::TF32,
    FloatKind::F8E5M2,
    FloatKind::F8E4M3,
    FloatKind::F8E4M3FN,
    FloatKind::F8E5M2FNUZ,
    FloatKind::F8E4M3FNUZ,
    FloatKind::F8E4M3B11FNUZ,
    FloatKind::F8E3M4,
    FloatKind::F8E8M0FNU,
    FloatKind::F6E2M3FN,
    FloatKind::F6E3M2FN,
    FloatKind::F4E2M1FN,
];

impl FloatKind {
    /// The number of float types.
    pub const COUNT: usize = 18;
    /// All float kinds.
    pub fn all() -> &'static [FloatKind] {
        &ALL
    }

    /// The keyword of the type.
    pub fn name(self) -> &'static str {
        use FloatKind::*;
        match self {
            F16 => "f16",
            BF16 => "bf16",
            F32 => "f32",
            F64 => "f64",
            F80 => "f80",
            F128 => "f128",
            TF32 => "tf32",
            F8E5M2 => "f8E5M2",
            F8E4M3 => "f8E4M3",
            F8E4M3FN => "f8E4M3FN",
            F8E5M2FNUZ => "f8E5M2FNUZ",
            F8E4M3FNUZ => "f8E4M3FNUZ",
            F8E4M3B11FNUZ => "f8E4M3B11FNUZ",
            F8E3M4 => "f8E3M4",
            F8E8M0FNU => "f8E8M0FNU",
            F6E2M3FN => "f6E2M3FN",
            F6E3M2FN => "f6E3M2FN",
            F4E2M1FN => "f4E2M1FN",
        }
    }

    /// The kind named by a type keyword.
    pub fn from_name(s: &str) -> Option<FloatKind> {
        // Every float type name starts with `f`, `bf` or `tf`.
        if !matches!(s.as_bytes().first(), Some(b'f' | b'b' | b't')) {
            return None;
        }
        ALL.iter().copied().find(|k| k.name() == s)
    }

    fn format(self) -> Format {
        use FloatKind::*;
        let (exp_bits, man_bits, bias, non_finite) = match self {
            F16 => (5, 10, 15, NonFinite::Ieee),
            BF16 => (8, 7, 127, NonFinite::Ieee),
            F32 => (8, 23, 127, NonFinite::Ieee),
            F64 => (11, 52, 1023, NonFinite::Ieee),
            F80 => (15, 64, 16383, NonFinite::Ieee),
            F128 => (15, 112, 16383, NonFinite::Ieee),
            TF32 => (8, 10, 127, NonFinite::Ieee),
            F8E5M2 => (5, 2, 15, NonFinite::Ieee),
            F8E4M3 => (4, 3, 7, NonFinite::Ieee),
            F8E4M3FN => (4, 3, 7, NonFinite::NanAllOnes),
            F8E5M2FNUZ => (5, 2, 16, NonFinite::NanNegZero),
            F8E4M3FNUZ => (4, 3, 8, NonFinite::NanNegZero),
            F8E4M3B11FNUZ => (4, 3, 11, NonFinite::NanNegZero),
            F8E3M4 => (3, 4, 3, NonFinite::Ieee),
            F8E8M0FNU => (8, 0, 127, NonFinite::NanAllOnes),
            F6E2M3FN => (2, 3, 1, NonFinite::FiniteOnly),
            F6E3M2FN => (3, 2, 3, NonFinite::FiniteOnly),
            F4E2M1FN => (2, 1, 1, NonFinite::FiniteOnly),
        };
        Format {
            exp_bits,
            man_bits,
            bias,
            non_finite,
            explicit_int_bit: self == F80,
            signed: self != F8E8M0FNU,
        }
    }

    /// Storage width in bits.
    pub fn bit_width(self) -> u32 {
        let f = self.format();
        f.exp_bits + f.man_bits + u32::from(f.signed)
    }

    /// The binary exponent of the largest finite value (`ilogb` of it).
    pub fn max_exponent(self) -> i64 {
        let f = self.format();
        let top = mask(f.exp_bits) as i64;
        let biased = if f.non_finite == NonFinite::Ieee {
            top - 1
        } else {
            top
        };
        biased - f.bias
    }

    /// Significand precision in bits, the implicit bit included.
    pub fn precision(self) -> u32 {
        let f = self.format();
        if f.explicit_int_bit {
            f.man_bits
        } else {
            f.man_bits + 1
        }
    }
}

/// A decoded float value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Zero {
        negative: bool,
    },
    Infinity {
        negative: bool,
    },
    NaN,
    /// `(-1)^negative * significand * 2^exponent`, significand non-zero.
    Finite {
        negative: bool,
        significand: BigUint,
        exponent: i64,
    },
}

fn mask(bits: u32) -> u128 {
    if bits >= 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    }
}

/// How two values of `kind` compare; `None` when either is a NaN. Exact
/// for every format (zeros of either sign are equal).
pub fn compare(kind: FloatKind, a: u128, b: u128) -> Option<std::cmp::Ordering> {
    use std::cmp::Ordering;
    /// A value as (sign, rank, magnitude): rank 0 zero, 1 finite, 2 infinite.
    fn key(v: Value) -> Option<(i8, u8, BigUint, i64)> {
        match v {
            Value::NaN => None,
            Value::Zero { .. } => Some((0, 0, BigUint::default(), 0)),
            Value::Infinity { negative } => {
                Some((if negative { -1 } else { 1 }, 2, BigUint::default(), 0))
            }
            Value::Finite {
                negative,
                significand,
                exponent,
            } => Some((if negative { -1 } else { 1 }, 1, significand, exponent)),
        }
    }
    let (sa, ra, ma, ea) = key(decode(kind, a))?;
    let (sb, rb, mb, eb) = key(decode(kind, b))?;
    // Magnitudes first (|a| vs |b|), then the signs decide.
    let magnitude = |ra: u8, ma: &BigUint, ea: i64, rb: u8, mb: &BigUint, eb: i64| -> Ordering {
        if ra != rb || ra != 1 {
            return ra.cmp(&rb);
        }
        let e = ea.min(eb);
        let x = ma << ((ea - e) as u64);
        let y = mb << ((eb - e) as u64);
        x.cmp(&y)
    };
    Some(match (sa, sb) {
        (0, 0) => Ordering::Equal,
        (0, s) => 0.cmp(&s),
        (s, 0) => s.cmp(&0),
        (x, y) if x != y => x.cmp(&y),
        (1, _) => magnitude(ra, &ma, ea, rb, &mb, eb),
        _ => magnitude(rb, &mb, eb, ra, &ma, ea),
    })
}

/// Decodes a bit pattern of `kind`.
pub fn decode(kind: FloatKind, bits: u128) -> Value {
    let f = kind.format();
    let man = bits & mask(f.man_bits);
    let exp = ((bits >> f.man_bits) & mask(f.exp_bits)) as i64;
    let negative = f.signed && (bits >> (f.man_bits + f.exp_bits)) & 1 == 1;
    let max_exp = mask(f.exp_bits) as i64;
    match f.non_finite {
        NonFinite::Ieee if exp == max_exp => {
            let frac = if f.explicit_int_bit {
                man & mask(f.man_bits - 1)
            } else {
                man
            };
            return if frac == 0 {
                Value::Infinity { negative }
            } else {
                Value::NaN
            };
        }
        NonFinite::NanAllOnes if exp == max_exp && man == mask(f.man_bits) => return Value::NaN,
        NonFinite::NanNegZero if negative && exp == 0 && man == 0 => return Value::NaN,
        _ => {}
    }
    if kind == FloatKind::F8E8M0FNU {
        return Value::Finite {
            negative: false,
            significand: BigUint::one(),
            exponent: exp - f.bias,
        };
    }
    let p = kind.precision() as i64;
    let (significand, exponent) = if f.explicit_int_bit {
        (man, exp.max(1) - f.bias - (p - 1))
    } else if exp == 0 {
        (man, 1 - f.bias - (p - 1))
    } else {
        (man | (1u128 << f.man_bits), exp - f.bias - (p - 1))
    };
    if significand == 0 {
        return Value::Zero { negative };
    }
    Value::Finite {
        negative,
        significand: BigUint::from(significand),
        exponent,
    }
}

/// The bit pattern of a NaN of `kind` (the quiet NaN LLVM produces).
pub fn nan_bits(kind: FloatKind) -> u128 {
    let f = kind.format();
    match f.non_finite {
        NonFinite::Ieee => {
            let exp = mask(f.exp_bits) << f.man_bits;
            let quiet = 1u128 << (f.man_bits - 1);
            let int_bit = if f.explicit_int_bit {
                1u128 << (f.man_bits - 1) | 1u128 << (f.man_bits - 2)
            } else {
                quiet
            };
            exp | int_bit
        }
        NonFinite::NanAllOnes => mask(f.exp_bits + f.man_bits),
        NonFinite::NanNegZero => 1u128 << (f.exp_bits + f.man_bits),
        NonFinite::FiniteOnly => 0,
    }
}

fn sign_bit(kind: FloatKind, negative: bool) -> u128 {
    let f = kind.format();
    if negative && f.signed {
        1u128 << (f.exp_bits + f.man_bits)
    } else {
        0
    }
}

/// Encodes `(-1)^negative * num / den` (exact rational, `num > 0`) into
/// `kind`, rounding to nearest, ties to even.
fn encode_rational(kind: FloatKind, negative: bool, num: &BigUint, den: &BigUint) -> u128 {
    let f = kind.format();
    let p = kind.precision() as i64;
    // Exponent of the leading bit: 2^lead <= num/den < 2^(lead+1).
    let mut lead = num.bits() as i64 - den.bits() as i64;
    let ge = |lead: i64| -> bool {
        // num/den >= 2^lead ?
        if lead >= 0 {
            *num >= den << (lead as u64)
        } else {
            num << ((-lead) as u64) >= *den
        }
    };
    if !ge(lead) {
        lead -= 1;
    }
    let min_normal_lead = if kind == FloatKind::F8E8M0FNU {
        -f.bias
    } else {
        1 - f.bias
    };
    // Scale so that the integer quotient has `p` bits (fewer when subnormal).
    let e2 = lead.max(min_normal_lead) - (p - 1);
    let (scaled_num, scaled_den) = if e2 >= 0 {
        (num.clone(), den << (e2 as u64))
    } else {
        (num << ((-e2) as u64), den.clone())
    };
    let (mut q, r) = scaled_num.div_rem(&scaled_den);
    let twice_r: BigUint = r << 1u32;
    if twice_r > scaled_den || (twice_r == scaled_den && q.bit(0)) {
        q += 1u32;
    }
    let mut e2 = e2;
    if q.bits() as i64 > p {
        q >>= 1u32;
        e2 += 1;
    }
    let sign = sign_bit(kind, negative);
    if q.is_zero() {
        return if f.non_finite == NonFinite::NanNegZero {
            0
        } else {
            sign
        };
    }
    let q = q.to_u128().unwrap_or(u128::MAX);
    let overflow = || match f.non_finite {
        NonFinite::Ieee => sign | (mask(f.exp_bits) << f.man_bits),
        NonFinite::NanAllOnes | NonFinite::NanNegZero => nan_bits(kind),
        NonFinite::FiniteOnly => sign | mask(f.exp_bits + f.man_bits),
    };
    if kind == FloatKind::F8E8M0FNU {
        let biased = e2 + f.bias;
        return if biased >= 255 {
            overflow()
        } else {
            biased as u128
        };
    }
    let is_normal = q >> (p - 1) == 1;
    let biased = if is_normal { e2 + (p - 1) + f.bias } else { 0 };
    let man = if f.explicit_int_bit {
        q
    } else {
        q & mask(f.man_bits)
    };
    let max_exp = mask(f.exp_bits) as i64;
    let too_big = match f.non_finite {
        NonFinite::Ieee => biased >= max_exp,
        NonFinite::NanAllOnes => biased > max_exp || (biased == max_exp && man == mask(f.man_bits)),
        NonFinite::NanNegZero | NonFinite::FiniteOnly => biased > max_exp,
    };
    if too_big {
        return overflow();
    }
    sign | ((biased as u128) << f.man_bits) | man
}

/// Parses a decimal literal (`[-+]?digits[.digits][(e|E)[-+]?digits]`)
/// into `kind` with correct rounding. `None` if the text is malformed.
pub fn parse_decimal(kind: FloatKind, text: &str) -> Option<u128> {
    let bytes = text.as_bytes();
    let mut i = 0;
    let mut negative = false;
    if i < bytes.len() && (bytes[i] == b'-' || bytes[i] == b'+') {
        negative = bytes[i] == b'-';
        i += 1;
    }
    let mut digits = Vec::new();
    let mut exp10: i64 = 0;
    let mut seen_digit = false;
    while i < bytes.len() && bytes[i].is_ascii_digit() {
        digits.push(bytes[i] - b'0');
        seen_digit = true;
        i += 1;
    }
    if i < bytes.len() && bytes[i] == b'.' {
        i += 1;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            digits.push(bytes[i] - b'0');
            exp10 -= 1;
            seen_digit = true;
            i += 1;
        }
    }
    if !seen_digit {
        return None;
    }
    if i < bytes.len() && (bytes[i] == b'e' || bytes[i] == b'E') {
        i += 1;
        let mut eneg = false;
        if i < bytes.len() && (bytes[i] == b'-' || bytes[i] == b'+') {
            eneg = bytes[i] == b'-';
            i += 1;
        }
        let start = i;
        let mut e: i64 = 0;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            e = (e * 10 + i64::from(bytes[i] - b'0')).min(1 << 40);
            i += 1;
        }
        if start == i {
            return None;
        }
        exp10 += if eneg { -e } else { e };
    }
    if i != bytes.len() {
        return None;
    }
    // Strip leading zeros; all-zero means a signed zero.
    let first = digits.iter().position(|&d| d != 0);
    let Some(first) = first else {
        let f = kind.format();
        return Some(if f.non_finite == NonFinite::NanNegZero {
            0
        } else {
            sign_bit(kind, negative)
        });
    };
    let digits = &digits[first..];
    // Values far outside every format's range saturate early, which keeps
    // the big-integer work bounded for inputs like `1e1000000000`.
    let magnitude = digits.len() as i64 + exp10;
    if magnitude > 5000 {
        return Some(encode_rational(
            kind,
            negative,
            &(BigUint::one() << 20000u32),
            &BigUint::one(),
        ));
    }
    if magnitude < -5000 {
        return Some(encode_rational(
            kind,
            negative,
            &BigUint::one(),
            &(BigUint::one() << 20000u32),
        ));
    }
    let mut m = BigUint::zero();
    for &d in digits {
        m = m * 10u32 + u32::from(d);
    }
    let (num, den) = if exp10 >= 0 {
        (m * BigUint::from(10u32).pow(exp10 as u32), BigUint::one())
    } else {
        (m, BigUint::from(10u32).pow((-exp10) as u32))
    };
    Some(encode_rational(kind, negative, &num, &den))
}

/// Converts an exact integer value to `kind` with correct rounding.
pub fn from_integer(kind: FloatKind, negative: bool, magnitude: &BigUint) -> u128 {
    if magnitude.is_zero() {
        return if kind.format().non_finite == NonFinite::NanNegZero {
            0
        } else {
            sign_bit(kind, negative)
        };
    }
    encode_rational(kind, negative, magnitude, &BigUint::one())
}

/// Drops decimal digits from `sig` (exponent `exp`) until it needs no more
/// than `precision` digits, truncating; LLVM's first rounding stage.
fn adjust_significand(sig: &mut BigUint, exp: &mut i64, precision: u32) {
    let bits = sig.bits();
    let required = (u64::from(precision) * 196).div_ceil(59);
    if bits <= required {
        return;
    }
    let removable = (bits - required) * 59 / 196;
    if removable == 0 {
        return;
    }
    *exp += removable as i64;
    *sig /= BigUint::from(10u32).pow(removable as u32);
}

/// LLVM's second rounding stage on the digit buffer (least significant
/// digit first), rounding half up.
fn adjust_digits(buffer: &mut Vec<u8>, exp: &mut i64, precision: usize) {
    let n = buffer.len();
    if n <= precision {
        return;
    }
    let mut first = n - precision;
    if buffer[first - 1] < b'5' {
        while first < n && buffer[first] == b'0' {
            first += 1;
        }
        *exp += first as i64;
        buffer.drain(..first);
        return;
    }
    let start = first;
    for digit in &mut buffer[start..n] {
        if *digit == b'9' {
            first += 1;
        } else {
            *digit += 1;
            break;
        }
    }
    if first == n {
        *exp += first as i64;
        buffer.clear();
        buffer.push(b'1');
        return;
    }
    *exp += first as i64;
    buffer.drain(..first);
}

/// Formats a value the way `APFloat::toString(Str, FormatPrecision,
/// FormatMaxPadding, TruncateZero)` does.
pub fn to_string(
    kind: FloatKind,
    bits: u128,
    format_precision: u32,
    max_padding: u32,
    truncate_zero: bool,
) -> String {
    let mut out = String::new();
    let (negative, significand, exponent) = match decode(kind, bits) {
        Value::Infinity { negative } => return if negative { "-Inf" } else { "+Inf" }.to_string(),
        Value::NaN => return "NaN".to_string(),
        Value::Zero { negative } => {
            if negative {
                out.push('-');
            }
            if max_padding == 0 {
                if truncate_zero {
                    out.push_str("0.0E+0");
                } else {
                    out.push_str("0.0");
                    for _ in 1..format_precision {
                        out.push('0');
                    }
                    out.push_str("e+00");
                }
            } else {
                out.push('0');
            }
            return out;
        }
        Value::Finite {
            negative,
            significand,
            exponent,
        } => (negative, significand, exponent),
    };
    if negative {
        out.push('-');
    }
    let precision = if format_precision == 0 {
        2 + kind.precision() * 59 / 196
    } else {
        format_precision
    };
    let mut sig = significand;
    let mut exp = exponent;
    let tz = sig.trailing_zeros().unwrap_or(0);
    sig >>= tz;
    exp += tz as i64;
    if exp > 0 {
        sig <<= exp as u64;
        exp = 0;
    } else if exp < 0 {
        sig *= BigUint::from(5u32).pow((-exp) as u32);
    }
    adjust_significand(&mut sig, &mut exp, precision);
    // Digits, least significant first, trailing zeros folded into `exp`.
    let mut buffer: Vec<u8> = Vec::new();
    let text = sig.to_str_radix(10);
    let mut in_trail = true;
    for &d in text.as_bytes().iter().rev() {
        if in_trail && d == b'0' {
            exp += 1;
        } else {
            buffer.push(d);
            in_trail = false;
        }
    }
    adjust_digits(&mut buffer, &mut exp, precision as usize);
    let ndigits = buffer.len();
    let scientific = if max_padding == 0 {
        true
    } else if exp >= 0 {
        exp as u64 > u64::from(max_padding) || ndigits as u64 + exp as u64 > u64::from(precision)
    } else {
        let msd = exp + ndigits as i64 - 1;
        msd < 0 && (-msd) as u64 > u64::from(max_padding)
    };
    if scientific {
        exp += ndigits as i64 - 1;
        out.push(buffer[ndigits - 1] as char);
        out.push('.');
        if ndigits == 1 && truncate_zero {
            out.push('0');
        } else {
            for i in 1..ndigits {
                out.push(buffer[ndigits - 1 - i] as char);
            }
        }
        if !truncate_zero && precision as usize > ndigits - 1 {
            for _ in 0..(precision as usize - ndigits + 1) {
                out.push('0');
            }
        }
        out.push(if truncate_zero { 'E' } else { 'e' });
        out.push(if exp >= 0 { '+' } else { '-' });
        let digits = exp.unsigned_abs().to_string();
        if !truncate_zero && digits.len() < 2 {
            out.push('0');
        }
        out.push_str(&digits);
        return out;
    }
    if exp >= 0 {
        for i in 0..ndigits {
            out.push(buffer[ndigits - 1 - i] as char);
        }
        for _ in 0..exp {
            out.push('0');
        }
        return out;
    }
    let whole = exp + ndigits as i64;
    let mut i = 0usize;
    if whole > 0 {
        while i < whole as usize {
            out.push(buffer[ndigits - i - 1] as char);
            i += 1;
        }
        out.push('.');
    } else {
        out.push_str("0.");
        for _ in 0..(-whole) {
            out.push('0');
        }
    }
    while i < ndigits {
        out.push(buffer[ndigits - i - 1] as char);
        i += 1;
    }
    out
}

/// `0x` followed by the upper-case hex digits of `bits`, as MLIR prints
/// float bit patterns.
pub fn hex_bits(bits: u128) -> String {
    format!("0x{bits:X}")
}

/// The text MLIR prints for a float value (without its type): short
/// scientific form when it round-trips, else the shortest exact decimal,
/// else the hex bit pattern.
pub fn format_mlir(kind: FloatKind, bits: u128) -> String {
    if matches!(
        decode(kind, bits),
        Value::Zero { .. } | Value::Finite { .. }
    ) {
        let short = to_string(kind, bits, 6, 0, false);
        if parse_decimal(kind, &short) == Some(bits) {
            return short;
        }
        let full = to_string(kind, bits, 0, 3, true);
        if full.contains('.') {
            return full;
        }
    }
    hex_bits(bits)
}

/// Reads a decimal float literal as mlir-opt does: correctly rounded to
/// `f64` first, then converted to `kind` with round-to-nearest-even, so
/// every format, narrower or wider than `f64`, sees the double's value
/// (`1.5e-7 : f80` is the double nearest 1.5e-7). `None` if malformed.
pub fn parse_literal(kind: FloatKind, text: &str) -> Option<u128> {
    let double = parse_decimal(FloatKind::F64, text)?;
    Some(match kind {
        FloatKind::F64 => double,
        _ => from_f64(kind, f64::from_bits(double as u64)),
    })
}

/// Converts an `f64` value to the bit pattern of `kind` (exact for f64).
pub fn from_f64(kind: FloatKind, v: f64) -> u128 {
    if kind == FloatKind::F64 {
        return u128::from(v.to_bits());
    }
    if v.is_nan() {
        return nan_bits(kind);
    }
    let d = decode(FloatKind::F64, u128::from(v.to_bits()));
    match d {
        Value::Finite {
            negative,
            significand,
            exponent,
        } => {
            let (num, den) = if exponent >= 0 {
                (significand << (exponent as u64), BigUint::one())
            } else {
                (significand, BigUint::one() << ((-exponent) as u64))
            };
            encode_rational(kind, negative, &num, &den)
        }
        Value::Zero { negative } => from_integer(kind, negative, &BigUint::zero()),
        Value::Infinity { negative } => infinity_bits(kind, negative),
        Value::NaN => nan_bits(kind),
    }
}

/// What LLVM's conversion of an infinity into `kind` gives: the format's
/// infinity (x87's with its explicit integer bit set), else its NaN (signed
/// where the format has a sign), else a zero of that sign.
fn infinity_bits(kind: FloatKind, negative: bool) -> u128 {
    let f = kind.format();
    let sign = sign_bit(kind, negative);
    match f.non_finite {
        NonFinite::Ieee => {
            let int_bit = if f.explicit_int_bit {
                1u128 << (f.man_bits - 1)
            } else {
                0
            };
            sign | mask(f.exp_bits) << f.man_bits | int_bit
        }
        NonFinite::NanAllOnes => sign | mask(f.exp_bits + f.man_bits),
        NonFinite::NanNegZero => nan_bits(kind),
        NonFinite::FiniteOnly => sign,
    }
}

/// The value of a bit pattern of `kind` as the nearest `f64`.
pub fn to_f64(kind: FloatKind, bits: u128) -> f64 {
    match kind {
        FloatKind::F64 => f64::from_bits(bits as u64),
        FloatKind::F32 => f64::from(f32::from_bits(bits as u32)),
        _ => match decode(kind, bits) {
            Value::NaN => f64::NAN,
            Value::Infinity { negative } => {
                if negative {
                    f64::NEG_INFINITY
                } else {
                    f64::INFINITY
                }
            }
            Value::Zero { negative } => {
                if negative {
                    -0.0
                } else {
                    0.0
                }
            }
            Value::Finite {
                negative,
                significand,
                exponent,
            } => {
                let m = significand.to_f64().unwrap_or(f64::INFINITY);
                let v = m * 2f64.powi(exponent as i32);
                if negative {
                    -v
                } else {
                    v
                }
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mlir(kind: FloatKind, text: &str) -> String {
        format_mlir(kind, parse_decimal(kind, text).unwrap())
    }

    #[test]
    fn f64_parsing_matches_rust() {
        for s in [
            "0.1",
            "1e308",
            "2.5",
            "4.9e-324",
            "1.7976931348623157e308",
            "123456789.125",
        ] {
            let v: f64 = s.parse().unwrap();
            assert_eq!(
                parse_decimal(FloatKind::F64, s),
                Some(u128::from(v.to_bits())),
                "{s}"
            );
        }
    }

    #[test]
    fn prints_like_mlir() {
        assert_eq!(mlir(FloatKind::F32, "1.0"), "1.000000e+00");
        assert_eq!(mlir(FloatKind::F32, "0.1"), "1.000000e-01");
        assert_eq!(mlir(FloatKind::F64, "0.1"), "1.000000e-01");
        assert_eq!(mlir(FloatKind::F64, "0.123456789"), "0.123456789");
        assert_eq!(mlir(FloatKind::F32, "-0.0"), "-0.000000e+00");
        assert_eq!(mlir(FloatKind::F64, "1e100"), "1.000000e+100");
        assert_eq!(mlir(FloatKind::F16, "65504"), "6.550400e+04");
        assert_eq!(format_mlir(FloatKind::F32, 0x7FC0_0000), "0x7FC00000");
        assert_eq!(format_mlir(FloatKind::F32, 0x7F80_0000), "0x7F800000");
    }

    #[test]
    fn small_formats() {
        assert_eq!(parse_decimal(FloatKind::F8E4M3FN, "448"), Some(0x7E));
        assert_eq!(parse_decimal(FloatKind::F8E4M3FN, "1.0"), Some(0x38));
        assert_eq!(parse_decimal(FloatKind::BF16, "1.0"), Some(0x3F80));
        assert_eq!(parse_decimal(FloatKind::F4E2M1FN, "6.0"), Some(0x7));
        assert_eq!(parse_decimal(FloatKind::F8E8M0FNU, "1.0"), Some(127));
        assert_eq!(
            parse_decimal(FloatKind::F80, "1.0"),
            Some(0x3FFF_8000_0000_0000_0000)
        );
    }

    #[test]
    fn compare_agrees_with_f64() {
        let values = [
            0.0f64,
            -0.0,
            1.0,
            -1.0,
            0.5,
            -2.75,
            1e300,
            -1e-300,
            5e-324,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            3.0,
            3.0000000000000004,
        ];
        for &a in &values {
            for &b in &values {
                let got = compare(FloatKind::F64, a.to_bits() as u128, b.to_bits() as u128);
                assert_eq!(got, a.partial_cmp(&b), "{a} vs {b}");
            }
        }
    }

    #[test]
    fn to_f64_reads_every_width() {
        assert_eq!(to_f64(FloatKind::F64, 0.25f64.to_bits().into()), 0.25);
        assert_eq!(to_f64(FloatKind::F32, 1.5f32.to_bits().into()), 1.5);
        assert_eq!(to_f64(FloatKind::F16, 0x3c00), 1.0);
        assert_eq!(to_f64(FloatKind::BF16, 0xc040), -3.0);
        assert!(to_f64(FloatKind::F16, 0x7e00).is_nan());
        assert_eq!(to_f64(FloatKind::F16, 0x7c00), f64::INFINITY);
    }
}
