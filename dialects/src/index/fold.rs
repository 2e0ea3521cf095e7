//! Folding and canonicalization of the `index` dialect as MLIR does it:
//! `index` has no width until lowering, so an op folds only where its
//! result does not depend on whether `index` is 32 or 64 bits (ops whose
//! low bits depend only on the operands' low bits fold at 64 bits; the
//! others fold when the 64-bit result truncated agrees with the 32-bit
//! one). Chains of associative ops gather their constants, comparisons of
//! a difference with zero compare the operands, and constants materialize
//! as `index.constant` / `index.bool.constant`.

use crate::arith::wrap_signed;
use num_bigint::BigInt;
use silica_ir::dialect::inherent_attr;
use silica_ir::rewrite::fold::constant_value;
use silica_ir::rewrite::{FoldCtx, FoldResult, Pattern, Rewriter};
use silica_ir::{Attr, AttrKind, OpId, Type, TypeKind, ValueId};

/// The binary `index` ops that fold.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Bin {
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
    MaxS,
    MaxU,
    MinS,
    MinU,
    Shl,
    ShrS,
    ShrU,
    And,
    Or,
    Xor,
}

impl Bin {
    fn of(name: &str) -> Option<Bin> {
        Some(match name {
            "index.add" => Bin::Add,
            "index.sub" => Bin::Sub,
            "index.mul" => Bin::Mul,
            "index.divs" => Bin::DivS,
            "index.divu" => Bin::DivU,
            "index.ceildivs" => Bin::CeilDivS,
            "index.ceildivu" => Bin::CeilDivU,
            "index.floordivs" => Bin::FloorDivS,
            "index.rems" => Bin::RemS,
            "index.remu" => Bin::RemU,
            "index.maxs" => Bin::MaxS,
            "index.maxu" => Bin::MaxU,
            "index.mins" => Bin::MinS,
            "index.minu" => Bin::MinU,
            "index.shl" => Bin::Shl,
            "index.shrs" => Bin::ShrS,
            "index.shru" => Bin::ShrU,
            "index.and" => Bin::And,
            "index.or" => Bin::Or,
            "index.xor" => Bin::Xor,
            _ => return None,
        })
    }

    /// Whether the result's low 32 bits depend only on the operands' low
    /// 32 bits, so that the 64-bit result is right for both widths.
    fn width_independent(self) -> bool {
        matches!(
            self,
            Bin::Add | Bin::Sub | Bin::Mul | Bin::Shl | Bin::And | Bin::Or | Bin::Xor
        )
    }
}

/// `v` wrapped to a signed `w`-bit value.
fn wrap(v: i128, w: u32) -> i128 {
    let shift = 128 - w;
    (v << shift) >> shift
}

/// `v` (a signed `w`-bit value) read as unsigned.
fn unsigned(v: i128, w: u32) -> i128 {
    v & ((1i128 << w) - 1)
}

/// `op(a, b)` at width `w` on signed `w`-bit operands, with APInt's
/// wrapping semantics; `None` where MLIR does not fold (a zero divisor,
/// shifts by 32 or more).
fn eval(op: Bin, a: i128, b: i128, w: u32) -> Option<i128> {
    let (ua, ub) = (unsigned(a, w), unsigned(b, w));
    let sdiv = |x: i128, y: i128| wrap(wrap(x, w) / y, w);
    let r = match op {
        Bin::Add => a + b,
        Bin::Sub => a - b,
        Bin::Mul => a.wrapping_mul(b),
        Bin::And => a & b,
        Bin::Or => a | b,
        Bin::Xor => a ^ b,
        Bin::DivS
        | Bin::DivU
        | Bin::CeilDivS
        | Bin::CeilDivU
        | Bin::FloorDivS
        | Bin::RemS
        | Bin::RemU
            if b == 0 =>
        {
            return None
        }
        Bin::DivS => sdiv(a, b),
        Bin::DivU => ua / ub,
        Bin::RemS => a % b,
        Bin::RemU => ua % ub,
        Bin::CeilDivS if a == 0 => 0,
        // Opposite signs: the negative result -(-n / m).
        Bin::CeilDivS if (a > 0) != (b > 0) => -sdiv(-a, b),
        Bin::CeilDivS => sdiv(a + if b > 0 { -1 } else { 1 }, b) + 1,
        Bin::CeilDivU if a == 0 => 0,
        Bin::CeilDivU => unsigned(a - 1, w) / ub + 1,
        Bin::FloorDivS if a == 0 => 0,
        Bin::FloorDivS if (a < 0) == (b < 0) => sdiv(a, b),
        Bin::FloorDivS => -1 - sdiv(if b < 0 { 1 } else { -1 } - a, b),
        Bin::MaxS => a.max(b),
        Bin::MinS => a.min(b),
        Bin::MaxU => return Some(if ua >= ub { a } else { b }),
        Bin::MinU => return Some(if ua <= ub { a } else { b }),
        Bin::Shl | Bin::ShrS | Bin::ShrU if ub >= 32 => return None,
        Bin::Shl => ua << ub,
        Bin::ShrS => a >> ub,
        Bin::ShrU => ua >> ub,
    };
    Some(wrap(r, w))
}

/// The folded value of `op(a, b)` on index constants, when it is the same
/// for 32- and 64-bit `index`.
fn fold_constants(op: Bin, a: i64, b: i64) -> Option<i64> {
    let r64 = eval(op, a.into(), b.into(), 64)?;
    if !op.width_independent() {
        let r32 = eval(op, wrap(a.into(), 32), wrap(b.into(), 32), 32)?;
        if wrap(r64, 32) != r32 {
            return None;
        }
    }
    i64::try_from(r64).ok()
}

/// What a binary op folds to.
enum Folded {
    Lhs,
    Constant(i64),
}

/// MLIR's folders: constant operands, then the identities `x + 0`,
/// `x - 0`, `x * 1` and `x * 0` (a new zero constant, as MLIR folds it to
/// the attribute).
fn fold_binary(op: Bin, a: Option<i64>, b: Option<i64>) -> Option<Folded> {
    if let (Some(a), Some(b)) = (a, b) {
        if let Some(v) = fold_constants(op, a, b) {
            return Some(Folded::Constant(v));
        }
    }
    match (op, b) {
        (Bin::Add | Bin::Sub, Some(0)) | (Bin::Mul, Some(1)) => Some(Folded::Lhs),
        (Bin::Mul, Some(0)) => Some(Folded::Constant(0)),
        _ => None,
    }
}

fn index_value(fc: &FoldCtx<'_>, a: Option<Attr>) -> Option<i64> {
    match fc.ctx.attr_kind(a?) {
        AttrKind::Integer { value, .. } => i64::try_from(value).ok(),
        _ => None,
    }
}

fn index_result(fc: &mut FoldCtx<'_>, v: i64) -> FoldResult {
    let ty = fc.ctx.index_type();
    FoldResult::attr(fc.ctx.int_attr(ty, v))
}

/// Folds a binary `index` op.
pub fn fold_binary_op(fc: &mut FoldCtx<'_>, op: OpId, c: &[Option<Attr>]) -> FoldResult {
    let Some(kind) = Bin::of(fc.ctx.str(fc.ir.op_name(op))) else {
        return FoldResult::Fail;
    };
    let (a, b) = (index_value(fc, c[0]), index_value(fc, c[1]));
    match fold_binary(kind, a, b) {
        Some(Folded::Lhs) => FoldResult::value(fc.ir.operand(op, 0)),
        Some(Folded::Constant(v)) => index_result(fc, v),
        None => FoldResult::Fail,
    }
}

/// `index.casts` / `index.castu` of a constant to `index` (the value
/// extended or truncated to 64 bits, right for 32 bits too). Casts from
/// `index` would give an integer constant, which the dialect does not
/// materialize.
fn fold_cast(fc: &mut FoldCtx<'_>, op: OpId, c: &[Option<Attr>], signed: bool) -> FoldResult {
    let result_ty = fc.ir.value_type(fc.ir.result(op, 0));
    if !matches!(fc.ctx.type_kind(result_ty), TypeKind::Index) {
        return FoldResult::Fail;
    }
    let Some(AttrKind::Integer { value, ty }) = c[0].map(|a| fc.ctx.attr_kind(a).clone()) else {
        return FoldResult::Fail;
    };
    let Some(w) = fc.ctx.int_width(ty) else {
        return FoldResult::Fail;
    };
    let value: BigInt = if signed {
        value
    } else {
        crate::arith::to_unsigned(&value, w)
    };
    match i64::try_from(wrap_signed(&value, 64)) {
        Ok(v) => index_result(fc, v),
        Err(_) => FoldResult::Fail,
    }
}

/// `index.casts`.
pub fn fold_casts(fc: &mut FoldCtx<'_>, op: OpId, c: &[Option<Attr>]) -> FoldResult {
    fold_cast(fc, op, c, true)
}

/// `index.castu`.
pub fn fold_castu(fc: &mut FoldCtx<'_>, op: OpId, c: &[Option<Attr>]) -> FoldResult {
    fold_cast(fc, op, c, false)
}

/// `index.cmp` predicates in the order of their stored values.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pred {
    Eq,
    Ne,
    Slt,
    Sle,
    Sgt,
    Sge,
    Ult,
    Ule,
    Ugt,
    Uge,
}

const PREDS: [Pred; 10] = [
    Pred::Eq,
    Pred::Ne,
    Pred::Slt,
    Pred::Sle,
    Pred::Sgt,
    Pred::Sge,
    Pred::Ult,
    Pred::Ule,
    Pred::Ugt,
    Pred::Uge,
];

impl Pred {
    fn holds(self, a: i128, b: i128, w: u32) -> bool {
        let (ua, ub) = (unsigned(a, w), unsigned(b, w));
        match self {
            Pred::Eq => a == b,
            Pred::Ne => a != b,
            Pred::Slt => a < b,
            Pred::Sle => a <= b,
            Pred::Sgt => a > b,
            Pred::Sge => a >= b,
            Pred::Ult => ua < ub,
            Pred::Ule => ua <= ub,
            Pred::Ugt => ua > ub,
            Pred::Uge => ua >= ub,
        }
    }

    fn inverse(self) -> Pred {
        match self {
            Pred::Eq => Pred::Ne,
            Pred::Ne => Pred::Eq,
            Pred::Slt => Pred::Sge,
            Pred::Sle => Pred::Sgt,
            Pred::Sgt => Pred::Sle,
            Pred::Sge => Pred::Slt,
            Pred::Ult => Pred::Uge,
            Pred::Ule => Pred::Ugt,
            Pred::Ugt => Pred::Ule,
            Pred::Uge => Pred::Ult,
        }
    }

    /// `cmp(x, x)`.
    fn reflexive(self) -> bool {
        matches!(
            self,
            Pred::Eq | Pred::Sge | Pred::Sle | Pred::Uge | Pred::Ule
        )
    }
}

/// The predicate of `index.cmp` `op`.
fn predicate(fc: &FoldCtx<'_>, op: OpId) -> Option<Pred> {
    let attr = inherent_attr(fc.ctx, fc.ir, op, "pred")?;
    let AttrKind::Dialect { params, .. } = fc.ctx.attr_kind(attr) else {
        return None;
    };
    match fc.ctx.attr_kind(*params.first()?) {
        AttrKind::Integer { value, .. } => PREDS.get(usize::try_from(value).ok()?).copied(),
        _ => None,
    }
}

/// A range of `w`-bit values known both ways, as MLIR's
/// `ConstantIntRanges` (unsigned bounds as non-negative numbers).
struct Range {
    umin: i128,
    umax: i128,
    smin: i128,
    smax: i128,
}

impl Range {
    fn from_signed(smin: i128, smax: i128, w: u32) -> Range {
        let (umin, umax) = if (smin >= 0) == (smax >= 0) {
            let (a, b) = (unsigned(smin, w), unsigned(smax, w));
            (a.min(b), a.max(b))
        } else {
            (0, (1i128 << w) - 1)
        };
        Range {
            umin,
            umax,
            smin,
            smax,
        }
    }

    fn from_unsigned(umin: i128, umax: i128, w: u32) -> Range {
        let (smin, smax) = if (wrap(umin, w) >= 0) == (wrap(umax, w) >= 0) {
            let (a, b) = (wrap(umin, w), wrap(umax, w));
            (a.min(b), a.max(b))
        } else {
            (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1)
        };
        Range {
            umin,
            umax,
            smin,
            smax,
        }
    }

    fn constant(v: i128, w: u32) -> Range {
        Range::from_signed(v, v, w)
    }

    fn constant_value(&self) -> Option<i128> {
        if self.umin == self.umax {
            Some(self.umin)
        } else if self.smin == self.smax {
            Some(self.smin)
        } else {
            None
        }
    }
}

/// Whether `pred` holds for every pair of values of the two ranges (MLIR's
/// `intrange` static evaluation).
fn always(pred: Pred, l: &Range, r: &Range) -> bool {
    match pred {
        Pred::Sle => l.smax <= r.smin,
        Pred::Slt => l.smax < r.smin,
        Pred::Ule => l.umax <= r.umin,
        Pred::Ult => l.umax < r.umin,
        Pred::Sge => l.smin >= r.smax,
        Pred::Sgt => l.smin > r.smax,
        Pred::Uge => l.umin >= r.umax,
        Pred::Ugt => l.umin > r.umax,
        Pred::Eq => {
            matches!((l.constant_value(), r.constant_value()), (Some(a), Some(b)) if a == b)
        }
        Pred::Ne => {
            (always(Pred::Slt, l, r) || always(Pred::Sgt, l, r))
                && (always(Pred::Ult, l, r) || always(Pred::Ugt, l, r))
        }
    }
}

/// `cmp(minmax(x, a), b)` at width `w`, when the range of the min/max
/// decides it.
fn cmp_of_min_max(name: &str, a: i128, b: i128, w: u32, pred: Pred) -> Option<bool> {
    let smin = -(1i128 << (w - 1));
    let smax = (1i128 << (w - 1)) - 1;
    let range = match name {
        "index.mins" => Range::from_signed(smin, a, w),
        "index.minu" => Range::from_unsigned(0, unsigned(a, w), w),
        "index.maxs" => Range::from_signed(a, smax, w),
        "index.maxu" => Range::from_unsigned(unsigned(a, w), (1i128 << w) - 1, w),
        _ => return None,
    };
    let b = Range::constant(b, w);
    if always(pred, &range, &b) {
        Some(true)
    } else if always(pred.inverse(), &range, &b) {
        Some(false)
    } else {
        None
    }
}

fn bool_result(fc: &mut FoldCtx<'_>, v: bool) -> FoldResult {
    let i1 = fc.ctx.signless(1);
    FoldResult::attr(fc.ctx.int_attr(i1, i64::from(v)))
}

/// `index.cmp`: constants compared (when 32 and 64 bits agree), a
/// min/max with a constant against a constant, an operand with itself.
pub fn fold_cmp(fc: &mut FoldCtx<'_>, op: OpId, c: &[Option<Attr>]) -> FoldResult {
    let Some(pred) = predicate(fc, op) else {
        return FoldResult::Fail;
    };
    let (a, b) = (index_value(fc, c[0]), index_value(fc, c[1]));
    if let (Some(a), Some(b)) = (a, b) {
        let r64 = pred.holds(a.into(), b.into(), 64);
        let r32 = pred.holds(wrap(a.into(), 32), wrap(b.into(), 32), 32);
        if r64 == r32 {
            return bool_result(fc, r64);
        }
    }
    let lhs = fc.ir.operand(op, 0);
    let min_max = fc.ir.defining_op(lhs).filter(|&d| {
        matches!(
            fc.ctx.str(fc.ir.op_name(d)),
            "index.mins" | "index.minu" | "index.maxs" | "index.maxu"
        )
    });
    if let (Some(inner), Some(b)) = (min_max, b) {
        let name = fc.ctx.str(fc.ir.op_name(inner)).to_string();
        let bound = fc.ir.operand(inner, 1);
        let bound = constant_value(fc.ctx, fc.ir, bound);
        if let Some(a) = index_value(fc, bound) {
            let r64 = cmp_of_min_max(&name, a.into(), b.into(), 64, pred);
            let r32 = cmp_of_min_max(&name, wrap(a.into(), 32), wrap(b.into(), 32), 32, pred);
            if let (Some(x), Some(y)) = (r64, r32) {
                if x == y {
                    return bool_result(fc, x);
                }
            }
        }
    }
    if lhs == fc.ir.operand(op, 1) {
        return bool_result(fc, pred.reflexive());
    }
    FoldResult::Fail
}

fn constant_index(rw: &mut Rewriter<'_>, v: ValueId) -> Option<i64> {
    let a = constant_value(rw.ctx, rw.ir, v)?;
    match rw.ctx.attr_kind(a) {
        AttrKind::Integer { value, .. } => i64::try_from(value).ok(),
        _ => None,
    }
}

/// `op(op(x, c1), c2)` becomes `op(x, op(c1, c2))` when `op(c1, c2)`
/// folds (MLIR's `canonicalizeAssociativeCommutativeBinaryOp`).
fn gather_constants(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let Some(kind) = Bin::of(rw.ctx.str(rw.ir.op_name(op))) else {
        return false;
    };
    let (lhs, rhs) = (rw.ir.operand(op, 0), rw.ir.operand(op, 1));
    let Some(c2) = constant_index(rw, rhs) else {
        return false;
    };
    let Some(inner) = rw
        .ir
        .defining_op(lhs)
        .filter(|&d| rw.ir.op_name(d) == rw.ir.op_name(op))
    else {
        return false;
    };
    let (x, inner_rhs) = (rw.ir.operand(inner, 0), rw.ir.operand(inner, 1));
    let Some(c1) = constant_index(rw, inner_rhs) else {
        return false;
    };
    let combined = match fold_binary(kind, Some(c2), Some(c1)) {
        Some(Folded::Lhs) => rhs,
        Some(Folded::Constant(v)) => {
            let loc = rw.ir.op_loc(op);
            let ty = rw.ctx.index_type();
            let attr = rw.ctx.int_attr(ty, v);
            match materialize_constant(rw, attr, ty, loc) {
                Some(c) => rw.ir.result(c, 0),
                None => return false,
            }
        }
        None => return false,
    };
    let (name, loc) = (rw.ir.op_name(op), rw.ir.op_loc(op));
    let name = rw.ctx.str(name).to_string();
    let new = rw.create_simple(&name, &[x, combined], &[rw.ir.value_type(lhs)], None, loc);
    let v = rw.ir.result(new, 0);
    rw.replace_op(op, &[v]);
    true
}

/// `cmp(x - y, 0)` is `cmp(x, y)`; `cmp(0, x - y)` is `cmp(y, x)`.
fn cmp_of_difference(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let (lhs, rhs) = (rw.ir.operand(op, 0), rw.ir.operand(op, 1));
    let rhs_zero = constant_index(rw, rhs) == Some(0);
    let lhs_zero = constant_index(rw, lhs) == Some(0);
    if !rhs_zero && !lhs_zero {
        return false;
    }
    let other = if rhs_zero { lhs } else { rhs };
    let Some(sub) = rw
        .ir
        .defining_op(other)
        .filter(|&d| rw.ctx.str(rw.ir.op_name(d)) == "index.sub")
    else {
        return false;
    };
    let (x, y) = (rw.ir.operand(sub, 0), rw.ir.operand(sub, 1));
    let operands = if rhs_zero { [x, y] } else { [y, x] };
    let props = rw.ir.op_props(op);
    let loc = rw.ir.op_loc(op);
    let i1 = rw.ctx.signless(1);
    let new = rw.create_simple("index.cmp", &operands, &[i1], props, loc);
    let v = rw.ir.result(new, 0);
    rw.replace_op(op, &[v]);
    true
}

/// Patterns of the associative, commutative ops.
pub static ASSOCIATIVE: &[Pattern] = &[Pattern::new("GatherConstants", gather_constants)];

/// `index.cmp` patterns.
pub static CMP: &[Pattern] = &[Pattern::new("CmpOfDifference", cmp_of_difference)];

/// Builds `index.bool.constant` for `i1` values and `index.constant` for
/// index values; nothing else.
pub fn materialize_constant(
    rw: &mut Rewriter<'_>,
    value: Attr,
    ty: Type,
    loc: Attr,
) -> Option<OpId> {
    let attr_ty = match rw.ctx.attr_kind(value) {
        AttrKind::Integer { ty, .. } => *ty,
        _ => return None,
    };
    let name = if rw.ctx.int_width(ty) == Some(1) && attr_ty == ty {
        "index.bool.constant"
    } else if matches!(rw.ctx.type_kind(ty), TypeKind::Index) && attr_ty == ty {
        "index.constant"
    } else {
        return None;
    };
    let key = rw.ctx.sym("value");
    let props = rw.ctx.dict_attr(vec![(key, value)]);
    Some(rw.create_simple(name, &[], &[ty], Some(props), loc))
}
