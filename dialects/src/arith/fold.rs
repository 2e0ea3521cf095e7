//! Folding of arith ops as MLIR does it: exact constant folding on any
//! integer width (two's complement wraparound, like `APInt`), IEEE float
//! folding with correct rounding for f16, bf16, f32 and f64, the
//! algebraic identities of each op's `fold`, and constant
//! materialisation (`arith.constant`).

use num_traits::{One, Signed, Zero};
use silica_ir::dialect::inherent_attr;
use silica_ir::float::{from_f64, nan_bits, to_f64, FloatKind};
use silica_ir::rewrite::{FoldCtx, FoldResult, OpFoldResult, Rewriter};
use silica_ir::{Attr, AttrKind, BigInt, Context, OpId, Type, TypeKind, ValueId};

/// The bit width integer arithmetic on `ty` wraps at (index is 64 bits).
fn int_width(ctx: &Context, ty: Type) -> Option<u32> {
    match ctx.type_kind(ty) {
        TypeKind::Integer { width, .. } => Some(*width),
        TypeKind::Index => Some(64),
        _ => None,
    }
}

/// `v` wrapped to the signed range of `w` bits.
pub fn wrap_signed(v: &BigInt, w: u32) -> BigInt {
    if w == 0 {
        return BigInt::zero();
    }
    let modulus = BigInt::one() << w;
    let mut r = v % &modulus;
    if r.is_negative() {
        r += &modulus;
    }
    if r >= (BigInt::one() << (w - 1)) {
        r -= modulus;
    }
    r
}

/// `v` as an unsigned number of `w` bits.
pub fn to_unsigned(v: &BigInt, w: u32) -> BigInt {
    let modulus = BigInt::one() << w;
    let mut r = v % &modulus;
    if r.is_negative() {
        r += modulus;
    }
    r
}

fn int_value(ctx: &Context, a: Option<Attr>) -> Option<BigInt> {
    match ctx.attr_kind(a?) {
        AttrKind::Integer { value, .. } => Some(value.clone()),
        _ => None,
    }
}

fn float_value(ctx: &Context, a: Option<Attr>) -> Option<(FloatKind, u128)> {
    match ctx.attr_kind(a?) {
        AttrKind::Float { ty, bits } => Some((ctx.float_kind(*ty)?, *bits)),
        _ => None,
    }
}

fn result_type(fc: &FoldCtx<'_>, op: OpId) -> Type {
    fc.ir.value_type(fc.ir.result(op, 0))
}

fn int_result(fc: &mut FoldCtx<'_>, op: OpId, v: BigInt) -> FoldResult {
    let ty = result_type(fc, op);
    let Some(w) = int_width(fc.ctx, ty) else {
        return FoldResult::Fail;
    };
    FoldResult::attr(fc.ctx.int_attr(ty, wrap_signed(&v, w)))
}

fn operand(fc: &FoldCtx<'_>, op: OpId, i: usize) -> ValueId {
    fc.ir.operand(op, i)
}

/// `arith.constant`: its value.
pub fn fold_constant(fc: &mut FoldCtx<'_>, op: OpId, _: &[Option<Attr>]) -> FoldResult {
    match inherent_attr(fc.ctx, fc.ir, op, "value") {
        Some(v) => FoldResult::attr(v),
        None => FoldResult::Fail,
    }
}

/// Builds `arith.constant` for integer, index and float values.
pub fn materialize_constant(
    rw: &mut Rewriter<'_>,
    value: Attr,
    ty: Type,
    loc: Attr,
) -> Option<OpId> {
    if crate::ub::is_poison_attr(rw.ctx, value) {
        return crate::ub::materialize_constant(rw, value, ty, loc);
    }
    let ok = match rw.ctx.attr_kind(value) {
        AttrKind::Integer { ty: t, .. } | AttrKind::Float { ty: t, .. } => *t == ty,
        AttrKind::DenseElements { ty: t, .. } => *t == ty,
        _ => false,
    };
    if !ok {
        return None;
    }
    let key = rw.ctx.sym("value");
    let props = rw.ctx.dict_attr(vec![(key, value)]);
    Some(rw.create_simple("arith.constant", &[], &[ty], Some(props), loc))
}

/// Which integer binary op.
#[derive(Clone, Copy, PartialEq, Eq)]
enum IntOp {
    Add,
    Sub,
    Mul,
    DivS,
    DivU,
    CeilDivS,
    CeilDivU,
    FloorDivS,
    RemS,
    RemU,
    And,
    Or,
    Xor,
    Shl,
    ShrS,
    ShrU,
    MaxS,
    MaxU,
    MinS,
    MinU,
}

fn floor_div(a: &BigInt, b: &BigInt) -> BigInt {
    let (q, r) = (a / b, a % b);
    if !r.is_zero() && (r.is_negative() != b.is_negative()) {
        q - 1
    } else {
        q
    }
}

fn ceil_div(a: &BigInt, b: &BigInt) -> BigInt {
    let (q, r) = (a / b, a % b);
    if !r.is_zero() && (r.is_negative() == b.is_negative()) {
        q + 1
    } else {
        q
    }
}

/// Both operands constant: the wrapped result, or `None` where MLIR does
/// not fold (division by zero, signed overflow of division, shifts by the
/// width or more).
fn eval_int(kind: IntOp, a: &BigInt, b: &BigInt, w: u32) -> Option<BigInt> {
    let (ua, ub) = (to_unsigned(a, w), to_unsigned(b, w));
    let (sa, sb) = (wrap_signed(a, w), wrap_signed(b, w));
    let signed_min = -(BigInt::one() << w.saturating_sub(1));
    let div_overflows = |x: &BigInt, y: &BigInt| *x == signed_min && *y == -BigInt::one() && w > 0;
    Some(match kind {
        IntOp::Add => a + b,
        IntOp::Sub => a - b,
        IntOp::Mul => a * b,
        IntOp::And => ua & ub,
        IntOp::Or => ua | ub,
        IntOp::Xor => ua ^ ub,
        IntOp::DivU | IntOp::RemU | IntOp::CeilDivU if ub.is_zero() => return None,
        IntOp::DivU => ua / ub,
        IntOp::RemU => ua % ub,
        IntOp::CeilDivU => ceil_div(&ua, &ub),
        IntOp::DivS | IntOp::RemS | IntOp::CeilDivS | IntOp::FloorDivS if sb.is_zero() => {
            return None
        }
        IntOp::DivS | IntOp::CeilDivS | IntOp::FloorDivS if div_overflows(&sa, &sb) => return None,
        IntOp::DivS => &sa / &sb,
        IntOp::RemS => &sa % &sb,
        IntOp::CeilDivS => ceil_div(&sa, &sb),
        IntOp::FloorDivS => floor_div(&sa, &sb),
        IntOp::Shl | IntOp::ShrS | IntOp::ShrU if ub >= BigInt::from(w) => return None,
        IntOp::Shl => {
            let s: usize = (&ub).try_into().ok()?;
            ua << s
        }
        IntOp::ShrU => {
            let s: usize = (&ub).try_into().ok()?;
            ua >> s
        }
        IntOp::ShrS => {
            let s: usize = (&ub).try_into().ok()?;
            sa >> s
        }
        IntOp::MaxS => sa.max(sb),
        IntOp::MinS => sa.min(sb),
        IntOp::MaxU => ua.max(ub),
        IntOp::MinU => ua.min(ub),
    })
}

fn fold_int(kind: IntOp, fc: &mut FoldCtx<'_>, op: OpId, c: &[Option<Attr>]) -> FoldResult {
    let ty = result_type(fc, op);
    let Some(w) = int_width(fc.ctx, ty) else {
        return FoldResult::Fail;
    };
    let a = int_value(fc.ctx, c[0]);
    let b = int_value(fc.ctx, c[1]);
    // Identities come first, as in MLIR's folders: `x + 0` is `x` even
    // when `x` is a constant.
    let identity = fold_identity(kind, fc, op, b.as_ref(), w);
    if identity != FoldResult::Fail {
        return identity;
    }
    // A poison operand makes the result poison (not for shifts, as MLIR).
    if !matches!(kind, IntOp::Shl | IntOp::ShrS | IntOp::ShrU) {
        if let Some(p) = poison_operand(fc, c) {
            return FoldResult::attr(p);
        }
    }
    match (&a, &b) {
        (Some(a), Some(b)) => match eval_int(kind, a, b, w) {
            Some(v) => int_result(fc, op, v),
            None => FoldResult::Fail,
        },
        _ => FoldResult::Fail,
    }
}

fn fold_identity(
    kind: IntOp,
    fc: &mut FoldCtx<'_>,
    op: OpId,
    b: Option<&BigInt>,
    w: u32,
) -> FoldResult {
    let lhs = operand(fc, op, 0);
    let rhs = operand(fc, op, 1);
    let zero = BigInt::zero();
    let one = BigInt::one();
    let all_ones = -BigInt::one();
    let rb = b.map(|v| wrap_signed(v, w));
    let is = |v: &BigInt| rb.as_ref() == Some(v);
    let signed_max = (BigInt::one() << w.saturating_sub(1)) - 1;
    let signed_min = -(BigInt::one() << w.saturating_sub(1));
    let same = lhs == rhs;
    let def_of = |fc: &FoldCtx<'_>, v: ValueId, name: &str| defining_named(fc, v, name);
    match kind {
        IntOp::Add if is(&zero) => return FoldResult::value(lhs),
        IntOp::Add => {
            // addi(subi(a, b), b) and addi(b, subi(a, b)) are a.
            if let Some(sub) = def_of(fc, lhs, "arith.subi") {
                if operand(fc, sub, 1) == rhs {
                    return FoldResult::value(operand(fc, sub, 0));
                }
            }
            if let Some(sub) = def_of(fc, rhs, "arith.subi") {
                if operand(fc, sub, 1) == lhs {
                    return FoldResult::value(operand(fc, sub, 0));
                }
            }
        }
        IntOp::Sub if !same && !is(&zero) => {
            // subi(addi(a, b), b) is a; subi(addi(a, b), a) is b.
            if let Some(add) = def_of(fc, lhs, "arith.addi") {
                if operand(fc, add, 1) == rhs {
                    return FoldResult::value(operand(fc, add, 0));
                }
                if operand(fc, add, 0) == rhs {
                    return FoldResult::value(operand(fc, add, 1));
                }
            }
        }
        _ => {}
    }
    match kind {
        IntOp::Sub if is(&zero) => FoldResult::value(lhs),
        IntOp::Sub if same => int_result(fc, op, zero),
        IntOp::Mul if is(&zero) => FoldResult::value(rhs),
        IntOp::Mul if is(&one) => FoldResult::value(lhs),
        IntOp::DivS | IntOp::DivU | IntOp::CeilDivS | IntOp::CeilDivU | IntOp::FloorDivS
            if is(&one) =>
        {
            FoldResult::value(lhs)
        }
        IntOp::RemS | IntOp::RemU if is(&one) => int_result(fc, op, zero),
        IntOp::And if is(&zero) => FoldResult::value(rhs),
        IntOp::And if is(&all_ones) || same => FoldResult::value(lhs),
        IntOp::Or if is(&zero) || same => FoldResult::value(lhs),
        IntOp::Or if is(&all_ones) => FoldResult::value(rhs),
        IntOp::Xor if is(&zero) => FoldResult::value(lhs),
        IntOp::Xor if same => int_result(fc, op, zero),
        IntOp::Shl | IntOp::ShrS | IntOp::ShrU if is(&zero) => FoldResult::value(lhs),
        IntOp::MaxS | IntOp::MaxU | IntOp::MinS | IntOp::MinU if same => FoldResult::value(lhs),
        IntOp::MaxS if is(&signed_max) => FoldResult::value(rhs),
        IntOp::MaxS if is(&signed_min) => FoldResult::value(lhs),
        IntOp::MinS if is(&signed_min) => FoldResult::value(rhs),
        IntOp::MinS if is(&signed_max) => FoldResult::value(lhs),
        IntOp::MaxU if is(&all_ones) => FoldResult::value(rhs),
        IntOp::MaxU if is(&zero) => FoldResult::value(lhs),
        IntOp::MinU if is(&zero) => FoldResult::value(rhs),
        IntOp::MinU if is(&all_ones) => FoldResult::value(lhs),
        _ => FoldResult::Fail,
    }
}

macro_rules! int_folds {
    ($($fn_name:ident => $kind:ident),* $(,)?) => {
        $(
            #[doc = concat!("Folds the integer op `", stringify!($kind), "`.")]
            pub fn $fn_name(fc: &mut FoldCtx<'_>, op: OpId, c: &[Option<Attr>]) -> FoldResult {
                fold_int(IntOp::$kind, fc, op, c)
            }
        )*
    };
}

int_folds!(
    fold_addi => Add, fold_subi => Sub, fold_muli => Mul,
    fold_ceildivsi => CeilDivS, fold_ceildivui => CeilDivU,
    fold_floordivsi => FloorDivS, fold_remsi => RemS, fold_remui => RemU,
    fold_shli => Shl,
    fold_shrsi => ShrS, fold_shrui => ShrU, fold_maxsi => MaxS, fold_maxui => MaxU,
    fold_minsi => MinS, fold_minui => MinU,
);

fn defining_named(fc: &FoldCtx<'_>, v: ValueId, name: &str) -> Option<OpId> {
    let d = fc.ir.defining_op(v)?;
    (fc.ctx.str(fc.ir.op_name(d)) == name).then_some(d)
}

fn is_i1(fc: &FoldCtx<'_>, v: ValueId) -> bool {
    fc.ctx.int_width(fc.ir.value_type(v)) == Some(1)
}

/// `arith.cmpi`, in MLIR's order: an operand compared with itself;
/// `ext(%b : i1) != 0` and `%b != 0`, `%b == 1` on booleans; a constant
/// left operand moved right (predicate swapped, in place); constants.
/// `arith.cmpf` of two float constants (a NaN operand decides alone:
/// ordered predicates fail, unordered ones hold), as MLIR's fold.
pub fn fold_cmpf(fc: &mut FoldCtx<'_>, op: OpId, c: &[Option<Attr>]) -> FoldResult {
    use std::cmp::Ordering::{Equal, Greater, Less};
    let Some(pred) = inherent_attr(fc.ctx, fc.ir, op, "predicate")
        .and_then(|a| int_value(fc.ctx, Some(a)))
        .and_then(|p| usize::try_from(p).ok())
        .and_then(|p| super::attrs::CMPF_PREDICATES.get(p).copied())
    else {
        return FoldResult::Fail;
    };
    let (mut lhs, mut rhs) = (float_value(fc.ctx, c[0]), float_value(fc.ctx, c[1]));
    if let Some(l) = lhs.filter(|&(k, b)| is_nan(k, b)) {
        rhs = Some(l);
    }
    if let Some(r) = rhs.filter(|&(k, b)| is_nan(k, b)) {
        lhs = Some(r);
    }
    let (Some((kind, a)), Some((_, b))) = (lhs, rhs) else {
        return FoldResult::Fail;
    };
    let order = silica_ir::float::compare(kind, a, b);
    let holds = match pred {
        "false" => false,
        "oeq" => order == Some(Equal),
        "ogt" => order == Some(Greater),
        "oge" => matches!(order, Some(Greater | Equal)),
        "olt" => order == Some(Less),
        "ole" => matches!(order, Some(Less | Equal)),
        "one" => matches!(order, Some(Less | Greater)),
        "ord" => order.is_some(),
        "ueq" => matches!(order, None | Some(Equal)),
        "ugt" => matches!(order, None | Some(Greater)),
        "uge" => matches!(order, None | Some(Greater | Equal)),
        "ult" => matches!(order, None | Some(Less)),
        "ule" => matches!(order, None | Some(Less | Equal)),
        "une" => order != Some(Equal),
        "uno" => order.is_none(),
        _ => true,
    };
    let rt = result_type(fc, op);
    if fc.ctx.int_width(rt) != Some(1) {
        return FoldResult::Fail;
    }
    FoldResult::attr(fc.ctx.int_attr(rt, if holds { -1 } else { 0 }))
}

pub fn fold_cmpi(fc: &mut FoldCtx<'_>, op: OpId, c: &[Option<Attr>]) -> FoldResult {
    let Some(pred_attr) = inherent_attr(fc.ctx, fc.ir, op, "predicate") else {
        return FoldResult::Fail;
    };
    let Some(pred) = int_value(fc.ctx, Some(pred_attr)).and_then(|p| i64::try_from(p).ok()) else {
        return FoldResult::Fail;
    };
    let (lhs, rhs) = (operand(fc, op, 0), operand(fc, op, 1));
    let ty = fc.ir.value_type(lhs);
    let Some(w) = int_width(fc.ctx, ty) else {
        return FoldResult::Fail;
    };
    let rt = result_type(fc, op);
    let boolean = |fc: &mut FoldCtx<'_>, b: bool| {
        if fc.ctx.int_width(rt) == Some(1) {
            FoldResult::attr(fc.ctx.int_attr(rt, if b { -1 } else { 0 }))
        } else {
            FoldResult::Fail
        }
    };
    if lhs == rhs {
        // eq, sle, sge, ule, uge hold; ne, slt, sgt, ult, ugt do not.
        return boolean(fc, matches!(pred, 0 | 3 | 5 | 7 | 9));
    }
    let rhs_value = int_value(fc.ctx, c[1]);
    if rhs_value.as_ref().is_some_and(Zero::is_zero) {
        for ext in ["arith.extsi", "arith.extui"] {
            if let Some(e) = defining_named(fc, lhs, ext) {
                let x = operand(fc, e, 0);
                if is_i1(fc, x) && pred == 1 {
                    return FoldResult::value(x);
                }
            }
        }
        if is_i1(fc, lhs) && pred == 1 {
            return FoldResult::value(lhs);
        }
    }
    if rhs_value
        .as_ref()
        .is_some_and(|v| wrap_signed(v, w) == BigInt::from(-1))
        && w == 1
        && pred == 0
    {
        return FoldResult::value(lhs);
    }
    if c[0].is_some() && c[1].is_none() {
        // slt<->sgt, sle<->sge, ult<->ugt, ule<->uge; eq and ne stay.
        let swapped = [0, 1, 4, 5, 2, 3, 8, 9, 6, 7].get(pred as usize).copied();
        let Some(swapped) = swapped else {
            return FoldResult::Fail;
        };
        let pty = match fc.ctx.attr_kind(pred_attr) {
            AttrKind::Integer { ty, .. } => *ty,
            _ => return FoldResult::Fail,
        };
        let new_pred = fc.ctx.int_attr(pty, swapped);
        silica_ir::dialect::set_inherent_attr(fc.ctx, fc.ir, op, "predicate", new_pred);
        fc.ir.set_operand(op, 0, rhs);
        fc.ir.set_operand(op, 1, lhs);
        return FoldResult::InPlace;
    }
    let (Some(a), Some(b)) = (int_value(fc.ctx, c[0]), rhs_value) else {
        return FoldResult::Fail;
    };
    let (sa, sb) = (wrap_signed(&a, w), wrap_signed(&b, w));
    let (ua, ub) = (to_unsigned(&a, w), to_unsigned(&b, w));
    let result = match pred {
        0 => sa == sb,
        1 => sa != sb,
        2 => sa < sb,
        3 => sa <= sb,
        4 => sa > sb,
        5 => sa >= sb,
        6 => ua < ub,
        7 => ua <= ub,
        8 => ua > ub,
        9 => ua >= ub,
        _ => return FoldResult::Fail,
    };
    boolean(fc, result)
}

/// `arith.select`: a constant condition picks its value; equal values or
/// `select %c, true, false` fold away.
pub fn fold_select(fc: &mut FoldCtx<'_>, op: OpId, c: &[Option<Attr>]) -> FoldResult {
    let (t, f) = (operand(fc, op, 1), operand(fc, op, 2));
    if t == f {
        return FoldResult::value(t);
    }
    if let Some(cond) = int_value(fc.ctx, c[0]) {
        return FoldResult::value(if cond.is_zero() { f } else { t });
    }
    // select(a == b, a, b) is b; select(a != b, a, b) is a.
    let cond = operand(fc, op, 0);
    if let Some(cmp) = defining_named(fc, cond, "arith.cmpi") {
        let pred = inherent_attr(fc.ctx, fc.ir, cmp, "predicate")
            .and_then(|p| int_value(fc.ctx, Some(p)))
            .and_then(|p| i64::try_from(p).ok());
        let (a, b) = (operand(fc, cmp, 0), operand(fc, cmp, 1));
        if matches!(pred, Some(0 | 1)) && ((a == t && b == f) || (b == t && a == f)) {
            return FoldResult::value(if pred == Some(1) { t } else { f });
        }
    }
    let rt = result_type(fc, op);
    if fc.ctx.int_width(rt) == Some(1)
        && fc.ctx.type_kind(rt)
            == &(TypeKind::Integer {
                width: 1,
                signedness: silica_ir::Signedness::Signless,
            })
    {
        let (tv, fv) = (int_value(fc.ctx, c[1]), int_value(fc.ctx, c[2]));
        if tv.as_ref().is_some_and(|v| !v.is_zero()) && fv.as_ref().is_some_and(Zero::is_zero) {
            return FoldResult::value(operand(fc, op, 0));
        }
    }
    FoldResult::Fail
}

/// Integer casts of constants: `extui`, `extsi`, `trunci`, `index_cast`,
/// `index_castui`.
fn fold_int_cast(fc: &mut FoldCtx<'_>, op: OpId, c: &[Option<Attr>], unsigned: bool) -> FoldResult {
    let Some(v) = int_value(fc.ctx, c[0]) else {
        return FoldResult::Fail;
    };
    let in_ty = fc.ir.value_type(operand(fc, op, 0));
    let Some(in_w) = int_width(fc.ctx, in_ty) else {
        return FoldResult::Fail;
    };
    let v = if unsigned {
        to_unsigned(&v, in_w)
    } else {
        wrap_signed(&v, in_w)
    };
    int_result(fc, op, v)
}

/// `ext(ext(x))` of the same kind extends `x` directly (in place).
fn fold_ext(
    fc: &mut FoldCtx<'_>,
    op: OpId,
    c: &[Option<Attr>],
    name: &str,
    unsigned: bool,
) -> FoldResult {
    let input = operand(fc, op, 0);
    if let Some(inner) = defining_named(fc, input, name) {
        let x = operand(fc, inner, 0);
        fc.ir.set_operand(op, 0, x);
        return FoldResult::InPlace;
    }
    fold_int_cast(fc, op, c, unsigned)
}

/// `arith.extui`: chains and constants.
pub fn fold_extui(fc: &mut FoldCtx<'_>, op: OpId, c: &[Option<Attr>]) -> FoldResult {
    fold_ext(fc, op, c, "arith.extui", true)
}

/// `arith.extsi`: chains and constants.
pub fn fold_extsi(fc: &mut FoldCtx<'_>, op: OpId, c: &[Option<Attr>]) -> FoldResult {
    fold_ext(fc, op, c, "arith.extsi", false)
}

/// `arith.trunci`: of an extension (to the source type, or truncating the
/// source in place), of a truncation (in place), of a constant.
pub fn fold_trunci(fc: &mut FoldCtx<'_>, op: OpId, c: &[Option<Attr>]) -> FoldResult {
    let input = operand(fc, op, 0);
    let dst = result_type(fc, op);
    for ext in ["arith.extui", "arith.extsi"] {
        if let Some(e) = defining_named(fc, input, ext) {
            let src = operand(fc, e, 0);
            let src_ty = fc.ir.value_type(src);
            let (sw, dw) = (fc.ctx.int_width(src_ty), fc.ctx.int_width(dst));
            if sw > dw {
                fc.ir.set_operand(op, 0, src);
                return FoldResult::InPlace;
            }
            if src_ty == dst {
                return FoldResult::value(src);
            }
        }
    }
    if let Some(t) = defining_named(fc, input, "arith.trunci") {
        let x = operand(fc, t, 0);
        fc.ir.set_operand(op, 0, x);
        return FoldResult::InPlace;
    }
    fold_int_cast(fc, op, c, false)
}

/// `arith.index_cast`: of the opposite cast back to the same type, or
/// of a constant.
pub fn fold_index_cast(fc: &mut FoldCtx<'_>, op: OpId, c: &[Option<Attr>]) -> FoldResult {
    fold_index_cast_of(fc, op, c, "arith.index_cast", false)
}

/// `arith.index_castui`: likewise, zero-extending constants.
pub fn fold_index_castui(fc: &mut FoldCtx<'_>, op: OpId, c: &[Option<Attr>]) -> FoldResult {
    fold_index_cast_of(fc, op, c, "arith.index_castui", true)
}

fn fold_index_cast_of(
    fc: &mut FoldCtx<'_>,
    op: OpId,
    c: &[Option<Attr>],
    name: &str,
    unsigned: bool,
) -> FoldResult {
    let input = operand(fc, op, 0);
    if let Some(inner) = defining_named(fc, input, name) {
        let x = operand(fc, inner, 0);
        if fc.ir.value_type(x) == result_type(fc, op) {
            return FoldResult::value(x);
        }
    }
    fold_int_cast(fc, op, c, unsigned)
}

/// `arith.bitcast`: to the same type, of a bitcast, of a constant.
pub fn fold_bitcast(fc: &mut FoldCtx<'_>, op: OpId, c: &[Option<Attr>]) -> FoldResult {
    if let Some(p) = c
        .first()
        .copied()
        .flatten()
        .filter(|&a| crate::ub::is_poison_attr(fc.ctx, a))
    {
        return FoldResult::Results(vec![OpFoldResult::Attr(p)]);
    }
    let input = operand(fc, op, 0);
    let rt = result_type(fc, op);
    if fc.ir.value_type(input) == rt {
        return FoldResult::value(input);
    }
    if let Some(inner) = defining_named(fc, input, "arith.bitcast") {
        let x = operand(fc, inner, 0);
        if fc.ir.value_type(x) == rt {
            return FoldResult::value(x);
        }
        fc.ir.set_operand(op, 0, x);
        return FoldResult::InPlace;
    }
    let Some(a) = c[0] else {
        return FoldResult::Fail;
    };
    let bits: u128 = match fc.ctx.attr_kind(a) {
        AttrKind::Float { bits, .. } => *bits,
        AttrKind::Integer { value, ty } => {
            let Some(w) = int_width(fc.ctx, *ty) else {
                return FoldResult::Fail;
            };
            match u128::try_from(to_unsigned(value, w)) {
                Ok(b) => b,
                Err(_) => return FoldResult::Fail,
            }
        }
        _ => return FoldResult::Fail,
    };
    if fc.ctx.float_kind(rt).is_some() {
        return FoldResult::attr(fc.ctx.intern_attr(AttrKind::Float { ty: rt, bits }));
    }
    match int_width(fc.ctx, rt) {
        Some(w) => {
            let v = wrap_signed(&BigInt::from(bits), w);
            FoldResult::attr(fc.ctx.int_attr(rt, v))
        }
        None => FoldResult::Fail,
    }
}

/// `arith.xori`: `xori(xori(x, a), a)` is `x`; then the integer folds.
pub fn fold_xori(fc: &mut FoldCtx<'_>, op: OpId, c: &[Option<Attr>]) -> FoldResult {
    let r = fold_int(IntOp::Xor, fc, op, c);
    if r != FoldResult::Fail {
        return r;
    }
    let (lhs, rhs) = (operand(fc, op, 0), operand(fc, op, 1));
    for (inner_v, other) in [(lhs, rhs), (rhs, lhs)] {
        if let Some(inner) = defining_named(fc, inner_v, "arith.xori") {
            if operand(fc, inner, 1) == other {
                return FoldResult::value(operand(fc, inner, 0));
            }
            if operand(fc, inner, 0) == other {
                return FoldResult::value(operand(fc, inner, 1));
            }
        }
    }
    FoldResult::Fail
}

/// Whether `v` is `xori(x, -1)` (the bitwise negation of `x`).
fn is_not_of(fc: &mut FoldCtx<'_>, v: ValueId, x: ValueId) -> bool {
    let Some(inner) = defining_named(fc, v, "arith.xori") else {
        return false;
    };
    if operand(fc, inner, 0) != x {
        return false;
    }
    let k = operand(fc, inner, 1);
    let Some(kv) = silica_ir::rewrite::fold::constant_value(fc.ctx, fc.ir, k) else {
        return false;
    };
    let ty = fc.ir.value_type(k);
    match (int_value(fc.ctx, Some(kv)), int_width(fc.ctx, ty)) {
        (Some(v), Some(w)) => wrap_signed(&v, w) == BigInt::from(-1),
        _ => false,
    }
}

/// `arith.andi`: `x & ~x` is zero; then the integer folds.
pub fn fold_andi(fc: &mut FoldCtx<'_>, op: OpId, c: &[Option<Attr>]) -> FoldResult {
    let r = fold_int(IntOp::And, fc, op, c);
    if r != FoldResult::Fail {
        return r;
    }
    let (lhs, rhs) = (operand(fc, op, 0), operand(fc, op, 1));
    if is_not_of(fc, rhs, lhs) || is_not_of(fc, lhs, rhs) {
        return int_result(fc, op, BigInt::zero());
    }
    // and(x, and(x, y)) is and(x, y), in every operand order.
    for (inner_v, other) in [(lhs, rhs), (rhs, lhs)] {
        if let Some(inner) = defining_named(fc, inner_v, "arith.andi") {
            if operand(fc, inner, 0) == other || operand(fc, inner, 1) == other {
                return FoldResult::value(inner_v);
            }
        }
    }
    FoldResult::Fail
}

/// `arith.ori`: `x | ~x` is the all-ones constant of the `xori`; then the
/// integer folds.
pub fn fold_ori(fc: &mut FoldCtx<'_>, op: OpId, c: &[Option<Attr>]) -> FoldResult {
    let r = fold_int(IntOp::Or, fc, op, c);
    if r != FoldResult::Fail {
        return r;
    }
    let (lhs, rhs) = (operand(fc, op, 0), operand(fc, op, 1));
    for (not, x) in [(rhs, lhs), (lhs, rhs)] {
        if let Some(xor) = fc.ir.defining_op(not).filter(|_| is_not_of(fc, not, x)) {
            return FoldResult::value(operand(fc, xor, 1));
        }
    }
    FoldResult::Fail
}

/// `divui(muli(x, y) nuw, x)` is `y` (and `divsi` with `nsw`).
fn fold_div_of_mul(fc: &mut FoldCtx<'_>, op: OpId, flag: u32) -> FoldResult {
    let (lhs, rhs) = (operand(fc, op, 0), operand(fc, op, 1));
    let Some(mul) = defining_named(fc, lhs, "arith.muli") else {
        return FoldResult::Fail;
    };
    let bits = inherent_attr(fc.ctx, fc.ir, mul, "overflowFlags")
        .and_then(|a| super::flag_bits(fc.ctx, a))
        .unwrap_or(0);
    if bits & flag == 0 {
        return FoldResult::Fail;
    }
    let (a, b) = (operand(fc, mul, 0), operand(fc, mul, 1));
    if a == rhs {
        return FoldResult::value(b);
    }
    if b == rhs {
        return FoldResult::value(a);
    }
    FoldResult::Fail
}

/// `arith.divui`.
pub fn fold_divui(fc: &mut FoldCtx<'_>, op: OpId, c: &[Option<Attr>]) -> FoldResult {
    let r = fold_div_of_mul(fc, op, NUW);
    if r != FoldResult::Fail {
        return r;
    }
    fold_int(IntOp::DivU, fc, op, c)
}

/// `arith.divsi`.
pub fn fold_divsi(fc: &mut FoldCtx<'_>, op: OpId, c: &[Option<Attr>]) -> FoldResult {
    let r = fold_div_of_mul(fc, op, NSW);
    if r != FoldResult::Fail {
        return r;
    }
    fold_int(IntOp::DivS, fc, op, c)
}

const NSW: u32 = 1;
const NUW: u32 = 2;

/// `arith.negf`: of a negation, or of a constant.
pub fn fold_negf(fc: &mut FoldCtx<'_>, op: OpId, c: &[Option<Attr>]) -> FoldResult {
    let input = operand(fc, op, 0);
    if let Some(inner) = defining_named(fc, input, "arith.negf") {
        return FoldResult::value(operand(fc, inner, 0));
    }
    let Some((kind, bits)) = float_value(fc.ctx, c[0]) else {
        return FoldResult::Fail;
    };
    let sign = 1u128 << (kind.bit_width() - 1);
    let ty = result_type(fc, op);
    FoldResult::attr(fc.ctx.intern_attr(AttrKind::Float {
        ty,
        bits: bits ^ sign,
    }))
}

#[derive(Clone, Copy)]
enum MinMax {
    Maximum,
    Minimum,
    MaxNum,
    MinNum,
}

fn fold_min_max(kind: MinMax, fc: &mut FoldCtx<'_>, op: OpId, c: &[Option<Attr>]) -> FoldResult {
    let (lhs, rhs) = (operand(fc, op, 0), operand(fc, op, 1));
    if lhs == rhs {
        return FoldResult::value(lhs);
    }
    if let Some(p) = poison_operand(fc, c) {
        return FoldResult::attr(p);
    }
    let Some((fk, b)) = float_value(fc.ctx, c[1]) else {
        return FoldResult::Fail;
    };
    let bv = to_f64(fk, b);
    let identity = match kind {
        MinMax::Maximum => bv == f64::NEG_INFINITY,
        MinMax::Minimum => bv == f64::INFINITY,
        MinMax::MaxNum | MinMax::MinNum => bv.is_nan(),
    };
    if identity {
        return FoldResult::value(lhs);
    }
    let Some((_, a)) = float_value(fc.ctx, c[0]) else {
        return FoldResult::Fail;
    };
    if !native_float(fk) {
        return FoldResult::Fail;
    }
    let av = to_f64(fk, a);
    let bits = match kind {
        MinMax::Maximum | MinMax::Minimum if av.is_nan() => quiet(fk, a),
        MinMax::Maximum | MinMax::Minimum if bv.is_nan() => quiet(fk, b),
        MinMax::Maximum => {
            if av > bv || (av == bv && bv.is_sign_negative()) {
                a
            } else {
                b
            }
        }
        MinMax::Minimum => {
            if av < bv || (av == bv && av.is_sign_negative()) {
                a
            } else {
                b
            }
        }
        MinMax::MaxNum if av.is_nan() => b,
        MinMax::MinNum if av.is_nan() => b,
        MinMax::MaxNum => {
            if av > bv || (av == bv && bv.is_sign_negative()) {
                a
            } else {
                b
            }
        }
        MinMax::MinNum => {
            if av < bv || (av == bv && av.is_sign_negative()) {
                a
            } else {
                b
            }
        }
    };
    let ty = result_type(fc, op);
    FoldResult::attr(fc.ctx.intern_attr(AttrKind::Float { ty, bits }))
}

/// `arith.maximumf`.
pub fn fold_maximumf(fc: &mut FoldCtx<'_>, op: OpId, c: &[Option<Attr>]) -> FoldResult {
    fold_min_max(MinMax::Maximum, fc, op, c)
}
/// `arith.minimumf`.
pub fn fold_minimumf(fc: &mut FoldCtx<'_>, op: OpId, c: &[Option<Attr>]) -> FoldResult {
    fold_min_max(MinMax::Minimum, fc, op, c)
}
/// `arith.maxnumf`.
pub fn fold_maxnumf(fc: &mut FoldCtx<'_>, op: OpId, c: &[Option<Attr>]) -> FoldResult {
    fold_min_max(MinMax::MaxNum, fc, op, c)
}
/// `arith.minnumf`.
pub fn fold_minnumf(fc: &mut FoldCtx<'_>, op: OpId, c: &[Option<Attr>]) -> FoldResult {
    fold_min_max(MinMax::MinNum, fc, op, c)
}

/// Float formats folded through native arithmetic (exact after one
/// rounding to the target format).
fn native_float(kind: FloatKind) -> bool {
    matches!(
        kind,
        FloatKind::F16 | FloatKind::BF16 | FloatKind::F32 | FloatKind::F64
    )
}

fn is_nan(kind: FloatKind, bits: u128) -> bool {
    to_f64(kind, bits).is_nan()
}

fn quiet(kind: FloatKind, bits: u128) -> u128 {
    let quiet_bit = 1u128 << (kind.precision() - 2);
    bits | quiet_bit
}

/// Rounds an exact binary operation on two values of `kind` to `kind`.
fn float_binop(
    kind: FloatKind,
    a: u128,
    b: u128,
    f: fn(f64, f64) -> f64,
    f32op: fn(f32, f32) -> f32,
) -> u128 {
    if is_nan(kind, a) {
        return quiet(kind, a);
    }
    if is_nan(kind, b) {
        return quiet(kind, b);
    }
    let r = if kind == FloatKind::F32 {
        let r = f32op(f32::from_bits(a as u32), f32::from_bits(b as u32));
        if r.is_nan() {
            return nan_bits(kind);
        }
        return u128::from(r.to_bits());
    } else {
        f(to_f64(kind, a), to_f64(kind, b))
    };
    if r.is_nan() {
        nan_bits(kind)
    } else {
        from_f64(kind, r)
    }
}

#[derive(Clone, Copy)]
enum FloatOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

/// The first operand constant that is poison, if any.
fn poison_operand(fc: &FoldCtx<'_>, c: &[Option<Attr>]) -> Option<Attr> {
    c.iter()
        .take(2)
        .flatten()
        .copied()
        .find(|&a| crate::ub::is_poison_attr(fc.ctx, a))
}

fn fold_float(kind_op: FloatOp, fc: &mut FoldCtx<'_>, op: OpId, c: &[Option<Attr>]) -> FoldResult {
    if let Some(p) = poison_operand(fc, c) {
        return FoldResult::attr(p);
    }
    let rt = result_type(fc, op);
    let Some(kind) = fc.ctx.float_kind(rt) else {
        return FoldResult::Fail;
    };
    let a = float_value(fc.ctx, c[0]);
    let b = float_value(fc.ctx, c[1]);
    if let (Some((_, a)), Some((_, b))) = (a, b) {
        if !native_float(kind) {
            return FoldResult::Fail;
        }
        let bits = match kind_op {
            FloatOp::Add => float_binop(kind, a, b, |x, y| x + y, |x, y| x + y),
            FloatOp::Sub => float_binop(kind, a, b, |x, y| x - y, |x, y| x - y),
            FloatOp::Mul => float_binop(kind, a, b, |x, y| x * y, |x, y| x * y),
            FloatOp::Div => float_binop(kind, a, b, |x, y| x / y, |x, y| x / y),
            // fmod is exact: rounding its f64 value loses nothing.
            FloatOp::Rem => float_binop(kind, a, b, |x, y| x % y, |x, y| x % y),
        };
        let ty = rt;
        return FoldResult::attr(fc.ctx.intern_attr(AttrKind::Float { ty, bits }));
    }
    let Some((_, b)) = b else {
        return FoldResult::Fail;
    };
    let v = to_f64(kind, b);
    let lhs = operand(fc, op, 0);
    let neg_zero = v == 0.0 && v.is_sign_negative();
    let pos_zero = v == 0.0 && v.is_sign_positive();
    match kind_op {
        FloatOp::Add if neg_zero => FoldResult::value(lhs),
        FloatOp::Sub if pos_zero => FoldResult::value(lhs),
        FloatOp::Mul | FloatOp::Div if v == 1.0 => FoldResult::value(lhs),
        _ => FoldResult::Fail,
    }
}

/// `arith.addf`.
pub fn fold_addf(fc: &mut FoldCtx<'_>, op: OpId, c: &[Option<Attr>]) -> FoldResult {
    fold_float(FloatOp::Add, fc, op, c)
}
/// `arith.subf`.
pub fn fold_subf(fc: &mut FoldCtx<'_>, op: OpId, c: &[Option<Attr>]) -> FoldResult {
    fold_float(FloatOp::Sub, fc, op, c)
}
/// `arith.mulf`.
pub fn fold_mulf(fc: &mut FoldCtx<'_>, op: OpId, c: &[Option<Attr>]) -> FoldResult {
    let r = fold_float(FloatOp::Mul, fc, op, c);
    if r != FoldResult::Fail {
        return r;
    }
    // x * ±0 is that zero when NaNs and the sign of zero may be ignored.
    const NNAN_NSZ: u32 = 2 | 8;
    let flags = inherent_attr(fc.ctx, fc.ir, op, "fastmath")
        .and_then(|a| super::flag_bits(fc.ctx, a))
        .unwrap_or(0);
    let zero = float_value(fc.ctx, c.get(1).copied().flatten())
        .is_some_and(|(kind, bits)| to_f64(kind, bits) == 0.0);
    if flags & NNAN_NSZ == NNAN_NSZ && zero {
        return FoldResult::value(operand(fc, op, 1));
    }
    FoldResult::Fail
}
/// `arith.divf`.
pub fn fold_divf(fc: &mut FoldCtx<'_>, op: OpId, c: &[Option<Attr>]) -> FoldResult {
    fold_float(FloatOp::Div, fc, op, c)
}

/// `arith.remf`: poison operands and constants (C's `fmod`).
pub fn fold_remf(fc: &mut FoldCtx<'_>, op: OpId, c: &[Option<Attr>]) -> FoldResult {
    fold_float(FloatOp::Rem, fc, op, c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_like_apint() {
        let w = 8;
        assert_eq!(wrap_signed(&BigInt::from(255), w), BigInt::from(-1));
        assert_eq!(to_unsigned(&BigInt::from(-1), w), BigInt::from(255));
        let min = BigInt::from(-128);
        assert_eq!(eval_int(IntOp::DivS, &min, &BigInt::from(-1), w), None);
        assert_eq!(
            eval_int(IntOp::DivU, &BigInt::from(7), &BigInt::zero(), w),
            None
        );
        assert_eq!(
            eval_int(IntOp::FloorDivS, &BigInt::from(-7), &BigInt::from(2), w),
            Some(BigInt::from(-4))
        );
        assert_eq!(
            eval_int(IntOp::CeilDivS, &BigInt::from(-7), &BigInt::from(2), w),
            Some(BigInt::from(-3))
        );
        assert_eq!(
            eval_int(IntOp::ShrS, &BigInt::from(-128), &BigInt::from(7), w),
            Some(BigInt::from(-1))
        );
        assert_eq!(
            eval_int(IntOp::Shl, &BigInt::one(), &BigInt::from(8), w),
            None
        );
        let big = BigInt::one() << 200u32;
        let w = 201;
        let sum = eval_int(IntOp::Add, &big, &big, w).unwrap();
        assert_eq!(wrap_signed(&sum, w), BigInt::zero());
    }
}
