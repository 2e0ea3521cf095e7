//! `arith.cmpf` of an integer converted to float (`sitofp`/`uitofp`)
//! against a float constant becomes an integer comparison against an
//! integer constant, or a constant, where the conversion cannot change
//! the outcome (MLIR's `CmpFIntToFPConst`, after LLVM's InstCombine).

use super::attrs::{CMPF_PREDICATES, CMPI_PREDICATES};
use super::fold::wrap_signed;
use silica_ir::dialect::inherent_attr;
use silica_ir::float::{compare, decode, from_integer, FloatKind, Value};
use silica_ir::rewrite::fold::constant_value;
use silica_ir::rewrite::{Pattern, Rewriter};
use silica_ir::{AttrKind, BigInt, OpId, TypeKind, ValueId};
use std::cmp::Ordering;

/// The integer predicate of a float one (ordered and unordered alike).
fn integer_predicate(pred: &str, unsigned: bool) -> Option<&'static str> {
    let pick = |s: &'static str, u: &'static str| if unsigned { u } else { s };
    Some(match pred {
        "oeq" | "ueq" => "eq",
        "one" | "une" => "ne",
        "ogt" | "ugt" => pick("sgt", "ugt"),
        "oge" | "uge" => pick("sge", "uge"),
        "olt" | "ult" => pick("slt", "ult"),
        "ole" | "ule" => pick("sle", "ule"),
        _ => return None,
    })
}

/// The integer `v` as a float of `kind`, rounded to nearest even.
fn to_float(kind: FloatKind, v: &BigInt) -> u128 {
    from_integer(kind, v.sign() == num_bigint::Sign::Minus, v.magnitude())
}

/// `ilogb` of a finite non-zero value.
fn ilogb(significand: &num_bigint::BigUint, exponent: i64) -> i64 {
    exponent + significand.bits() as i64 - 1
}

/// A finite value truncated toward zero.
fn truncate(v: &Value) -> Option<BigInt> {
    match v {
        Value::Zero { .. } => Some(BigInt::from(0)),
        Value::Finite {
            negative,
            significand,
            exponent,
        } => {
            let magnitude = if *exponent >= 0 {
                significand << (*exponent as u64)
            } else {
                significand >> (exponent.unsigned_abs())
            };
            let m = BigInt::from(magnitude);
            Some(if *negative { -m } else { m })
        }
        _ => None,
    }
}

/// What the comparison becomes.
enum Outcome {
    Constant(bool),
    Compare(&'static str, BigInt),
}

/// The outcome of comparing an integer of `width` bits converted to `kind`
/// with the float `bits` under `pred`; `None` where the conversion could
/// change the outcome.
fn decide(pred: &str, unsigned: bool, width: u32, kind: FloatKind, bits: u128) -> Option<Outcome> {
    let rhs = decode(kind, bits);
    if rhs == Value::NaN {
        return None;
    }
    let mantissa = i64::from(kind.precision());
    let value_bits = i64::from(if unsigned { width } else { width - 1 });
    if i64::from(width) > mantissa {
        match &rhs {
            Value::Infinity { .. } if kind.max_exponent() < value_bits => return None,
            Value::Finite {
                significand,
                exponent,
                ..
            } => {
                let e = ilogb(significand, *exponent);
                if mantissa <= e && e <= value_bits {
                    return None;
                }
            }
            _ => {}
        }
    }
    match pred {
        "ord" => return Some(Outcome::Constant(true)),
        "uno" => return Some(Outcome::Constant(false)),
        _ => {}
    }
    let mut ipred = integer_predicate(pred, unsigned)?;
    let one = BigInt::from(1);
    let (min, max) = if unsigned {
        (BigInt::from(0), (&one << width) - 1)
    } else {
        (-(&one << (width - 1)), (&one << (width - 1)) - 1)
    };
    let order = |v: &BigInt| compare(kind, to_float(kind, v), bits);
    if order(&max) == Some(Ordering::Less) {
        return Some(Outcome::Constant(matches!(
            ipred,
            "ne" | "slt" | "sle" | "ult" | "ule"
        )));
    }
    if order(&min) == Some(Ordering::Greater) {
        return Some(Outcome::Constant(matches!(
            ipred,
            "ne" | "sgt" | "sge" | "ugt" | "uge"
        )));
    }
    let rhs_int = truncate(&rhs)?;
    if rhs_int < min || rhs_int > max {
        return None;
    }
    let zero = matches!(rhs, Value::Zero { .. });
    let negative = matches!(rhs, Value::Finite { negative: true, .. });
    if !zero && compare(kind, to_float(kind, &rhs_int), bits) != Some(Ordering::Equal) {
        // A fractional constant: `rhs_int` is rounded toward zero.
        ipred = match ipred {
            "ne" => return Some(Outcome::Constant(true)),
            "eq" => return Some(Outcome::Constant(false)),
            "ule" | "ult" if negative => return Some(Outcome::Constant(false)),
            "ult" => "ule",
            "sle" if negative => "slt",
            "slt" if !negative => "sle",
            "ugt" | "uge" if negative => return Some(Outcome::Constant(true)),
            "uge" => "ugt",
            "sgt" if negative => "sge",
            "sge" if !negative => "sgt",
            p => p,
        };
    }
    Some(Outcome::Compare(ipred, rhs_int))
}

fn cmpf_of_int_to_fp(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let Some(pred) = inherent_attr(rw.ctx, rw.ir, op, "predicate")
        .and_then(|a| match rw.ctx.attr_kind(a) {
            AttrKind::Integer { value, .. } => usize::try_from(value).ok(),
            _ => None,
        })
        .and_then(|p| CMPF_PREDICATES.get(p).copied())
    else {
        return false;
    };
    let (lhs, rhs) = (rw.ir.operand(op, 0), rw.ir.operand(op, 1));
    let Some(constant) = constant_value(rw.ctx, rw.ir, rhs) else {
        return false;
    };
    let (kind, bits) = match rw.ctx.attr_kind(constant) {
        AttrKind::Float { ty, bits } => match rw.ctx.float_kind(*ty) {
            Some(k) => (k, *bits),
            None => return false,
        },
        _ => return false,
    };
    let Some(conversion) = rw.ir.defining_op(lhs) else {
        return false;
    };
    let unsigned = match rw.ctx.str(rw.ir.op_name(conversion)) {
        "arith.sitofp" => false,
        "arith.uitofp" => true,
        _ => return false,
    };
    let int_value: ValueId = rw.ir.operand(conversion, 0);
    let int_type = rw.ir.value_type(int_value);
    let width = match rw.ctx.type_kind(int_type) {
        TypeKind::Integer { width, .. } if *width > 0 => *width,
        _ => return false,
    };
    let Some(outcome) = decide(pred, unsigned, width, kind, bits) else {
        return false;
    };
    let loc = rw.ir.op_loc(op);
    let key = rw.ctx.sym("value");
    let value = match outcome {
        Outcome::Constant(b) => {
            let i1 = rw.ctx.signless(1);
            let attr = rw.ctx.int_attr(i1, i64::from(b));
            let props = rw.ctx.dict_attr(vec![(key, attr)]);
            let c = rw.create_simple("arith.constant", &[], &[i1], Some(props), loc);
            rw.ir.result(c, 0)
        }
        Outcome::Compare(ipred, n) => {
            let attr = rw.ctx.int_attr(int_type, wrap_signed(&n, width));
            let props = rw.ctx.dict_attr(vec![(key, attr)]);
            let c = rw.create_simple("arith.constant", &[], &[int_type], Some(props), loc);
            let c = rw.ir.result(c, 0);
            let index = CMPI_PREDICATES
                .iter()
                .position(|p| *p == ipred)
                .unwrap_or(0);
            let i64_ty = rw.ctx.signless(64);
            let pred_attr = rw.ctx.int_attr(i64_ty, index as i64);
            let pred_key = rw.ctx.sym("predicate");
            let props = rw.ctx.dict_attr(vec![(pred_key, pred_attr)]);
            let i1 = rw.ctx.signless(1);
            let cmp = rw.create_simple("arith.cmpi", &[int_value, c], &[i1], Some(props), loc);
            rw.ir.result(cmp, 0)
        }
    };
    rw.replace_op(op, &[value]);
    true
}

/// `arith.cmpf` patterns.
pub(crate) static CMPF: &[Pattern] = &[Pattern::new("CmpFIntToFPConst", cmpf_of_int_to_fp)];
