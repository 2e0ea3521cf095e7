//! arith canonicalization patterns, as MLIR's (`ArithCanonicalization.td`
//! and the C++ ones): reassociation of constants through add/sub/mul,
//! negated compares, selects of booleans, extension chains and bitwise
//! ops of extensions. New ops take the fused location of the matched ops,
//! and overflow flags are intersected, as MLIR's generated rewriters do.

use super::fold::wrap_signed;
use super::{flag_bits, flags_attr};
use silica_ir::dialect::inherent_attr;
use silica_ir::rewrite::{fold::constant_int, Pattern, Rewriter};
use silica_ir::{Attr, AttrKind, BigInt, Context, OpId, Type, TypeKind, ValueId};

fn name_is(ctx: &Context, rw_ir: &silica_ir::Ir, op: OpId, name: &str) -> bool {
    ctx.str(rw_ir.op_name(op)) == name
}

/// The op defining `v` if it is named `name`.
fn def_named(rw: &Rewriter<'_>, v: ValueId, name: &str) -> Option<OpId> {
    let d = rw.ir.defining_op(v)?;
    name_is(rw.ctx, rw.ir, d, name).then_some(d)
}

/// The integer constant `v` holds (scalar `IntegerAttr` only).
fn int_const(rw: &mut Rewriter<'_>, v: ValueId) -> Option<BigInt> {
    constant_int(rw.ctx, rw.ir, v)
}

fn width(ctx: &Context, ty: Type) -> Option<u32> {
    match ctx.type_kind(ty) {
        TypeKind::Integer { width, .. } => Some(*width),
        TypeKind::Index => Some(64),
        _ => None,
    }
}

fn flags(rw: &Rewriter<'_>, op: OpId) -> u32 {
    inherent_attr(rw.ctx, rw.ir, op, "overflowFlags")
        .and_then(|a| flag_bits(rw.ctx, a))
        .unwrap_or(0)
}

/// Creates `arith.constant value : ty` at the insertion point.
fn constant(rw: &mut Rewriter<'_>, ty: Type, value: BigInt, loc: Attr) -> ValueId {
    let w = width(rw.ctx, ty).unwrap_or(64);
    let attr = rw.ctx.int_attr(ty, wrap_signed(&value, w));
    let key = rw.ctx.sym("value");
    let props = rw.ctx.dict_attr(vec![(key, attr)]);
    let c = rw.create_simple("arith.constant", &[], &[ty], Some(props), loc);
    rw.ir.result(c, 0)
}

/// Creates a binary arith op with overflow flags `bits`.
fn binary(
    rw: &mut Rewriter<'_>,
    name: &str,
    a: ValueId,
    b: ValueId,
    bits: u32,
    loc: Attr,
) -> ValueId {
    let ty = rw.ir.value_type(a);
    let props = (bits != 0).then(|| {
        let f = flags_attr(rw.ctx, "overflow", bits);
        let key = rw.ctx.sym("overflowFlags");
        rw.ctx.dict_attr(vec![(key, f)])
    });
    let op = rw.create_simple(name, &[a, b], &[ty], props, loc);
    rw.ir.result(op, 0)
}

/// `root(inner(x, c0), c1)` with constants: x, c0, c1, the inner op.
fn match_const_chain(
    rw: &mut Rewriter<'_>,
    root: OpId,
    inner_name: &str,
    inner_const_on_rhs: bool,
) -> Option<(ValueId, BigInt, BigInt, OpId)> {
    let lhs = rw.ir.operand(root, 0);
    let rhs = rw.ir.operand(root, 1);
    let c1 = int_const(rw, rhs)?;
    let inner = def_named(rw, lhs, inner_name)?;
    let (x, k) = if inner_const_on_rhs {
        (rw.ir.operand(inner, 0), rw.ir.operand(inner, 1))
    } else {
        (rw.ir.operand(inner, 1), rw.ir.operand(inner, 0))
    };
    let c0 = int_const(rw, k)?;
    Some((x, c0, c1, inner))
}

/// Replaces `root` by `name(a, b)` where one side is a new constant.
fn rewrite_chain(
    rw: &mut Rewriter<'_>,
    root: OpId,
    inner: OpId,
    name: &str,
    operands: (Option<ValueId>, Option<ValueId>),
    value: BigInt,
) {
    let loc = {
        let (a, b) = (rw.ir.op_loc(root), rw.ir.op_loc(inner));
        rw.ctx.fused_loc(&[a, b], None)
    };
    let ty = rw.ir.value_type(rw.ir.result(root, 0));
    let bits = flags(rw, root) & flags(rw, inner);
    let c = constant(rw, ty, value, loc);
    let (a, b) = (operands.0.unwrap_or(c), operands.1.unwrap_or(c));
    let v = binary(rw, name, a, b, bits, loc);
    rw.replace_op(root, &[v]);
}

macro_rules! chain_pattern {
    ($fn_name:ident, $inner:literal, $const_rhs:expr, $new:literal, $x_first:expr, |$c0:ident, $c1:ident| $value:expr) => {
        fn $fn_name(rw: &mut Rewriter<'_>, op: OpId) -> bool {
            let Some((x, $c0, $c1, inner)) = match_const_chain(rw, op, $inner, $const_rhs) else {
                return false;
            };
            let operands = if $x_first {
                (Some(x), None)
            } else {
                (None, Some(x))
            };
            rewrite_chain(rw, op, inner, $new, operands, $value);
            true
        }
    };
}

// addi(addi(x, c0), c1) -> addi(x, c0 + c1)
chain_pattern!(
    addi_addi_constant,
    "arith.addi",
    true,
    "arith.addi",
    true,
    |c0, c1| c0 + c1
);
// addi(subi(x, c0), c1) -> addi(x, c1 - c0)
chain_pattern!(
    addi_subi_constant_rhs,
    "arith.subi",
    true,
    "arith.addi",
    true,
    |c0, c1| c1 - c0
);
// addi(subi(c0, x), c1) -> subi(c0 + c1, x)
chain_pattern!(
    addi_subi_constant_lhs,
    "arith.subi",
    false,
    "arith.subi",
    false,
    |c0, c1| c0 + c1
);
// muli(muli(x, c0), c1) -> muli(x, c0 * c1)
chain_pattern!(
    muli_muli_constant,
    "arith.muli",
    true,
    "arith.muli",
    true,
    |c0, c1| c0 * c1
);
// subi(addi(x, c0), c1) -> addi(x, c0 - c1)
chain_pattern!(
    subi_rhs_addi_constant,
    "arith.addi",
    true,
    "arith.addi",
    true,
    |c0, c1| c0 - c1
);
// subi(subi(x, c0), c1) -> subi(x, c0 + c1)
chain_pattern!(
    subi_rhs_subi_constant_rhs,
    "arith.subi",
    true,
    "arith.subi",
    true,
    |c0, c1| c0 + c1
);
// subi(subi(c0, x), c1) -> subi(c0 - c1, x)
chain_pattern!(
    subi_rhs_subi_constant_lhs,
    "arith.subi",
    false,
    "arith.subi",
    false,
    |c0, c1| c0 - c1
);

/// `v` as `muli(y, -1)`: `y`, and the op of the constant (whose location
/// MLIR fuses into the result's).
fn negated(rw: &mut Rewriter<'_>, v: ValueId) -> Option<(ValueId, OpId)> {
    let mul = def_named(rw, v, "arith.muli")?;
    let (a, b) = (rw.ir.operand(mul, 0), rw.ir.operand(mul, 1));
    let bits = width(rw.ctx, rw.ir.value_type(v))?;
    let all_ones = (BigInt::from(1) << bits) - 1;
    let c = int_const(rw, b)?;
    let constant = rw.ir.defining_op(b)?;
    (c == BigInt::from(-1) || c == all_ones).then_some((a, constant))
}

// addi(x, muli(y, -1)) -> subi(x, y); addi(muli(x, -1), y) -> subi(y, x)
fn addi_negated(rw: &mut Rewriter<'_>, op: OpId, negated_rhs: bool) -> bool {
    let (lhs, rhs) = (rw.ir.operand(op, 0), rw.ir.operand(op, 1));
    let (kept, neg) = if negated_rhs { (lhs, rhs) } else { (rhs, lhs) };
    let Some((y, constant)) = negated(rw, neg) else {
        return false;
    };
    let loc = {
        let (l1, l2) = (rw.ir.op_loc(op), rw.ir.op_loc(constant));
        rw.ctx.fused_loc(&[l1, l2], None)
    };
    let v = binary(rw, "arith.subi", kept, y, 0, loc);
    rw.replace_op(op, &[v]);
    true
}

fn addi_mul_negative_one_rhs(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    addi_negated(rw, op, true)
}

fn addi_mul_negative_one_lhs(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    addi_negated(rw, op, false)
}

// subi(subi(a, b), a) -> subi(0, b)
fn subi_subi_lhs_rhs_lhs(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let (lhs, rhs) = (rw.ir.operand(op, 0), rw.ir.operand(op, 1));
    let Some(inner) = def_named(rw, lhs, "arith.subi") else {
        return false;
    };
    if rw.ir.operand(inner, 0) != rhs {
        return false;
    }
    let b = rw.ir.operand(inner, 1);
    let loc = {
        let (l1, l2) = (rw.ir.op_loc(op), rw.ir.op_loc(inner));
        rw.ctx.fused_loc(&[l1, l2], None)
    };
    let ty = rw.ir.value_type(rw.ir.result(op, 0));
    let zero = constant(rw, ty, BigInt::from(0), loc);
    let v = binary(rw, "arith.subi", zero, b, 0, loc);
    rw.replace_op(op, &[v]);
    true
}

/// `subi(c1, inner(...))` with a constant on the left.
fn match_lhs_const(rw: &mut Rewriter<'_>, root: OpId, inner_name: &str) -> Option<(BigInt, OpId)> {
    let lhs = rw.ir.operand(root, 0);
    let rhs = rw.ir.operand(root, 1);
    let c1 = int_const(rw, lhs)?;
    let inner = def_named(rw, rhs, inner_name)?;
    Some((c1, inner))
}

// subi(c1, addi(x, c0)) -> subi(c1 - c0, x)
fn subi_lhs_addi_constant(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let Some((c1, inner)) = match_lhs_const(rw, op, "arith.addi") else {
        return false;
    };
    let (x, k) = (rw.ir.operand(inner, 0), rw.ir.operand(inner, 1));
    let Some(c0) = int_const(rw, k) else {
        return false;
    };
    rewrite_chain(rw, op, inner, "arith.subi", (None, Some(x)), c1 - c0);
    true
}

// subi(c1, subi(x, c0)) -> subi(c0 + c1, x); subi(c1, subi(c0, x)) -> addi(x, c1 - c0)
fn subi_lhs_subi_constant(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let Some((c1, inner)) = match_lhs_const(rw, op, "arith.subi") else {
        return false;
    };
    let (a, b) = (rw.ir.operand(inner, 0), rw.ir.operand(inner, 1));
    if let Some(c0) = int_const(rw, b) {
        rewrite_chain(rw, op, inner, "arith.subi", (None, Some(a)), c0 + c1);
        return true;
    }
    if let Some(c0) = int_const(rw, a) {
        rewrite_chain(rw, op, inner, "arith.addi", (Some(b), None), c1 - c0);
        return true;
    }
    false
}

/// The predicate that holds exactly when `p` does not.
fn invert_cmpi(p: i64) -> i64 {
    // eq ne slt sle sgt sge ult ule ugt uge
    [1, 0, 5, 4, 3, 2, 9, 8, 7, 6][p as usize]
}

// xori(cmpi(p, a, b), true) -> cmpi(!p, a, b)
fn xori_not_cmpi(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let (lhs, rhs) = (rw.ir.operand(op, 0), rw.ir.operand(op, 1));
    let Some(one) = int_const(rw, rhs) else {
        return false;
    };
    if one != BigInt::from(-1) || width(rw.ctx, rw.ir.value_type(rhs)) != Some(1) {
        return false;
    }
    let Some(cmp) = def_named(rw, lhs, "arith.cmpi") else {
        return false;
    };
    let Some(pred) = inherent_attr(rw.ctx, rw.ir, cmp, "predicate") else {
        return false;
    };
    let (pty, p) = match rw.ctx.attr_kind(pred) {
        AttrKind::Integer { ty, value } => (*ty, i64::try_from(value).unwrap_or(0)),
        _ => return false,
    };
    if !(0..10).contains(&p) {
        return false;
    }
    let loc = {
        let (a, b) = (rw.ir.op_loc(op), rw.ir.op_loc(cmp));
        rw.ctx.fused_loc(&[a, b], None)
    };
    let new_pred = rw.ctx.int_attr(pty, invert_cmpi(p));
    let key = rw.ctx.sym("predicate");
    let props = rw.ctx.dict_attr(vec![(key, new_pred)]);
    let (a, b) = (rw.ir.operand(cmp, 0), rw.ir.operand(cmp, 1));
    let ty = rw.ir.value_type(rw.ir.result(op, 0));
    let new = rw.create_simple("arith.cmpi", &[a, b], &[ty], Some(props), loc);
    let v = rw.ir.result(new, 0);
    rw.replace_op(op, &[v]);
    true
}

// extsi(extui(x)) -> extui(x)
fn extsi_of_extui(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let input = rw.ir.operand(op, 0);
    let Some(inner) = def_named(rw, input, "arith.extui") else {
        return false;
    };
    let loc = {
        let (a, b) = (rw.ir.op_loc(op), rw.ir.op_loc(inner));
        rw.ctx.fused_loc(&[a, b], None)
    };
    let x = rw.ir.operand(inner, 0);
    let ty = rw.ir.value_type(rw.ir.result(op, 0));
    let new = rw.create_simple("arith.extui", &[x], &[ty], None, loc);
    let v = rw.ir.result(new, 0);
    rw.replace_op(op, &[v]);
    true
}

/// `op(ext(a), ext(b))` -> `ext(op(a, b))` for the same extension of the
/// same source type.
fn bitwise_of_ext(rw: &mut Rewriter<'_>, op: OpId, ext: &str) -> bool {
    let (l, r) = (rw.ir.operand(op, 0), rw.ir.operand(op, 1));
    let (Some(le), Some(re)) = (def_named(rw, l, ext), def_named(rw, r, ext)) else {
        return false;
    };
    let (a, b) = (rw.ir.operand(le, 0), rw.ir.operand(re, 0));
    let src = rw.ir.value_type(a);
    if src != rw.ir.value_type(b) {
        return false;
    }
    let loc = {
        let locs = [rw.ir.op_loc(op), rw.ir.op_loc(le), rw.ir.op_loc(re)];
        rw.ctx.fused_loc(&locs, None)
    };
    let name = rw.ctx.str(rw.ir.op_name(op)).to_string();
    let inner = rw.create_simple(&name, &[a, b], &[src], None, loc);
    let iv = rw.ir.result(inner, 0);
    let ty = rw.ir.value_type(rw.ir.result(op, 0));
    let outer = rw.create_simple(ext, &[iv], &[ty], None, loc);
    let v = rw.ir.result(outer, 0);
    rw.replace_op(op, &[v]);
    true
}

fn bitwise_of_extui(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    bitwise_of_ext(rw, op, "arith.extui")
}

fn bitwise_of_extsi(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    bitwise_of_ext(rw, op, "arith.extsi")
}

// cmpi(eq/ne, ext(a), ext(b)) -> cmpi(eq/ne, a, b)
fn cmpi_of_ext(rw: &mut Rewriter<'_>, op: OpId, ext: &str) -> bool {
    let Some(pred) = inherent_attr(rw.ctx, rw.ir, op, "predicate") else {
        return false;
    };
    let p = match rw.ctx.attr_kind(pred) {
        AttrKind::Integer { value, .. } => i64::try_from(value).unwrap_or(-1),
        _ => return false,
    };
    if p != 0 && p != 1 {
        return false;
    }
    let (l, r) = (rw.ir.operand(op, 0), rw.ir.operand(op, 1));
    let (Some(le), Some(re)) = (def_named(rw, l, ext), def_named(rw, r, ext)) else {
        return false;
    };
    let (a, b) = (rw.ir.operand(le, 0), rw.ir.operand(re, 0));
    if rw.ir.value_type(a) != rw.ir.value_type(b) {
        return false;
    }
    let loc = {
        let locs = [rw.ir.op_loc(op), rw.ir.op_loc(le), rw.ir.op_loc(re)];
        rw.ctx.fused_loc(&locs, None)
    };
    let key = rw.ctx.sym("predicate");
    let props = rw.ctx.dict_attr(vec![(key, pred)]);
    let ty = rw.ir.value_type(rw.ir.result(op, 0));
    let new = rw.create_simple("arith.cmpi", &[a, b], &[ty], Some(props), loc);
    let v = rw.ir.result(new, 0);
    rw.replace_op(op, &[v]);
    true
}

fn cmpi_of_extsi(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    cmpi_of_ext(rw, op, "arith.extsi")
}

fn cmpi_of_extui(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    cmpi_of_ext(rw, op, "arith.extui")
}

// select(c, 1, 0) -> extui(c); select(c, 0, 1) -> extui(xori(c, true))
fn select_to_extui(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let ty = rw.ir.value_type(rw.ir.result(op, 0));
    if !matches!(rw.ctx.type_kind(ty), TypeKind::Integer { .. }) || width(rw.ctx, ty) == Some(1) {
        return false;
    }
    let (c, t, f) = (
        rw.ir.operand(op, 0),
        rw.ir.operand(op, 1),
        rw.ir.operand(op, 2),
    );
    if width(rw.ctx, rw.ir.value_type(c)) != Some(1) {
        return false;
    }
    let (Some(tv), Some(fv)) = (int_const(rw, t), int_const(rw, f)) else {
        return false;
    };
    let (one, zero) = (BigInt::from(1), BigInt::from(0));
    let loc = rw.ir.op_loc(op);
    let cond = if tv == one && fv == zero {
        c
    } else if tv == zero && fv == one {
        let i1 = rw.ir.value_type(c);
        let t = constant(rw, i1, BigInt::from(-1), loc);
        binary(rw, "arith.xori", c, t, 0, loc)
    } else {
        return false;
    };
    let new = rw.create_simple("arith.extui", &[cond], &[ty], None, loc);
    let v = rw.ir.result(new, 0);
    rw.replace_op(op, &[v]);
    true
}

pub(crate) static ADDI: &[Pattern] = &[
    Pattern::new("AddIAddConstant", addi_addi_constant),
    Pattern::new("AddISubConstantRHS", addi_subi_constant_rhs),
    Pattern::new("AddISubConstantLHS", addi_subi_constant_lhs),
    Pattern::new("AddIMulNegativeOneRhs", addi_mul_negative_one_rhs),
    Pattern::new("AddIMulNegativeOneLhs", addi_mul_negative_one_lhs),
];
pub(crate) static SUBI: &[Pattern] = &[
    Pattern::new("SubIRHSAddConstant", subi_rhs_addi_constant),
    Pattern::new("SubILHSAddConstant", subi_lhs_addi_constant),
    Pattern::new("SubIRHSSubConstantRHS", subi_rhs_subi_constant_rhs),
    Pattern::new("SubIRHSSubConstantLHS", subi_rhs_subi_constant_lhs),
    Pattern::new("SubILHSSubConstant", subi_lhs_subi_constant),
    Pattern::new("SubISubILHSRHSLHS", subi_subi_lhs_rhs_lhs),
];
pub(crate) static MULI: &[Pattern] = &[Pattern::new("MulIMulIConstant", muli_muli_constant)];
pub(crate) static XORI: &[Pattern] = &[
    Pattern::new("XOrINotCmpI", xori_not_cmpi),
    Pattern::new("XOrIOfExtUI", bitwise_of_extui),
    Pattern::new("XOrIOfExtSI", bitwise_of_extsi),
];
pub(crate) static ANDI_ORI: &[Pattern] = &[
    Pattern::new("BitwiseOfExtUI", bitwise_of_extui),
    Pattern::new("BitwiseOfExtSI", bitwise_of_extsi),
];
pub(crate) static EXTSI: &[Pattern] = &[Pattern::new("ExtSIOfExtUI", extsi_of_extui)];

// trunci(extui(x)) -> extui(x) and trunci(extsi(x)) -> extsi(x) when x is
// narrower than the truncation's result.
fn trunci_of_narrower_ext(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let input = rw.ir.operand(op, 0);
    let ty = rw.ir.value_type(rw.ir.result(op, 0));
    for ext in ["arith.extui", "arith.extsi"] {
        let Some(inner) = def_named(rw, input, ext) else {
            continue;
        };
        let x = rw.ir.operand(inner, 0);
        let (xw, tw) = (width(rw.ctx, rw.ir.value_type(x)), width(rw.ctx, ty));
        if !matches!((xw, tw), (Some(a), Some(b)) if a < b) {
            return false;
        }
        let loc = {
            let (a, b) = (rw.ir.op_loc(op), rw.ir.op_loc(inner));
            rw.ctx.fused_loc(&[a, b], None)
        };
        let new = rw.create_simple(ext, &[x], &[ty], None, loc);
        let v = rw.ir.result(new, 0);
        rw.replace_op(op, &[v]);
        return true;
    }
    false
}

// mulf(negf(a), negf(b)) -> mulf(a, b); divf(negf(a), negf(b)) -> divf(a, b)
fn float_of_negations(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let (lhs, rhs) = (rw.ir.operand(op, 0), rw.ir.operand(op, 1));
    let (Some(n1), Some(n2)) = (
        def_named(rw, lhs, "arith.negf"),
        def_named(rw, rhs, "arith.negf"),
    ) else {
        return false;
    };
    let (a, b) = (rw.ir.operand(n1, 0), rw.ir.operand(n2, 0));
    let loc = {
        let locs = [rw.ir.op_loc(op), rw.ir.op_loc(n1), rw.ir.op_loc(n2)];
        rw.ctx.fused_loc(&locs, None)
    };
    let (name, props) = (rw.ir.op_name(op), rw.ir.op_props(op));
    let ty = rw.ir.value_type(rw.ir.result(op, 0));
    let name = rw.ctx.str(name).to_string();
    let new = rw.create_simple(&name, &[a, b], &[ty], props, loc);
    let v = rw.ir.result(new, 0);
    rw.replace_op(op, &[v]);
    true
}

pub(crate) static MULF: &[Pattern] = &[Pattern::new("MulFOfNegF", float_of_negations)];
pub(crate) static DIVF: &[Pattern] = &[Pattern::new("DivFOfNegF", float_of_negations)];

pub(crate) static TRUNCI: &[Pattern] =
    &[Pattern::new("TruncIExtUIToExtUI", trunci_of_narrower_ext)];
pub(crate) static CMPI: &[Pattern] = &[
    Pattern::new("CmpIExtSI", cmpi_of_extsi),
    Pattern::new("CmpIExtUI", cmpi_of_extui),
];
pub(crate) static SELECT: &[Pattern] = &[Pattern::new("SelectToExtUI", select_to_extui)];
