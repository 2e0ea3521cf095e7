//! `math` to llvm: the elementary functions LLVM has intrinsics for,
//! fast-math flags carried over; `absi`, `ctlz` and `cttz` with their
//! poison flags off; `rsqrt`, `expm1` and (approximately) `log1p` built
//! from a constant one and intrinsics, as MLIR lowers them.

use super::Llvm;
use silica_ir::conversion::{ConversionPattern, ConversionRewriter};
use silica_ir::dialect::inherent_attr;
use silica_ir::{AttrKind, OpId, TypeKind, ValueId};

/// math op, llvm intrinsic.
const INTRINSICS: &[(&str, &str)] = &[
    ("math.absf", "llvm.intr.fabs"),
    ("math.ceil", "llvm.intr.ceil"),
    ("math.floor", "llvm.intr.floor"),
    ("math.round", "llvm.intr.round"),
    ("math.roundeven", "llvm.intr.roundeven"),
    ("math.trunc", "llvm.intr.trunc"),
    ("math.sqrt", "llvm.intr.sqrt"),
    ("math.exp", "llvm.intr.exp"),
    ("math.exp2", "llvm.intr.exp2"),
    ("math.log", "llvm.intr.log"),
    ("math.log2", "llvm.intr.log2"),
    ("math.log10", "llvm.intr.log10"),
    ("math.powf", "llvm.intr.pow"),
    ("math.sin", "llvm.intr.sin"),
    ("math.cos", "llvm.intr.cos"),
    ("math.tan", "llvm.intr.tan"),
    ("math.tanh", "llvm.intr.tanh"),
    ("math.acos", "llvm.intr.acos"),
    ("math.asin", "llvm.intr.asin"),
    ("math.atan", "llvm.intr.atan"),
    ("math.atan2", "llvm.intr.atan2"),
    ("math.cosh", "llvm.intr.cosh"),
    ("math.sinh", "llvm.intr.sinh"),
    ("math.fpowi", "llvm.intr.powi"),
    ("math.absi", "llvm.intr.abs"),
    ("math.ctlz", "llvm.intr.ctlz"),
    ("math.cttz", "llvm.intr.cttz"),
    ("math.copysign", "llvm.intr.copysign"),
    ("math.fma", "llvm.intr.fma"),
    ("math.ctpop", "llvm.intr.ctpop"),
];

fn intrinsic(cr: &mut ConversionRewriter<'_, '_>, op: OpId, operands: &[ValueId]) -> bool {
    let name = cr.rw.ctx.str(cr.rw.ir.op_name(op)).to_string();
    let Some(&(_, target)) = INTRINSICS.iter().find(|(n, _)| *n == name) else {
        return false;
    };
    let ty = cr.rw.ir.value_type(cr.rw.ir.result(op, 0));
    let Some(ty) = cr.convert_type(ty) else {
        return false;
    };
    let ctx = &mut *cr.rw.ctx;
    let mut props = fastmath_props(ctx, cr.rw.ir, op);
    let i1 = ctx.signless(1);
    let no = ctx.int_attr(i1, 0);
    match name.as_str() {
        "math.ctpop" => props.clear(),
        "math.absi" => props = vec![("is_int_min_poison", no)],
        "math.ctlz" | "math.cttz" => props = vec![("is_zero_poison", no)],
        _ => {}
    }
    let loc = cr.rw.ir.op_loc(op);
    let v = Llvm::new(cr, loc).value(target, operands, ty, &props);
    cr.replace_op(op, &[v]);
    true
}

/// The llvm `fastmathFlags` of `op`'s `fastmath` attribute, if any.
fn fastmath_props(
    ctx: &mut silica_ir::Context,
    ir: &silica_ir::Ir,
    op: OpId,
) -> Vec<(&'static str, silica_ir::Attr)> {
    let Some(a) = inherent_attr(ctx, ir, op, "fastmath") else {
        return Vec::new();
    };
    let bits = silica_dialects::arith::flag_bits(ctx, a).unwrap_or(0);
    let reassoc = bits & 1;
    vec![(
        "fastmathFlags",
        crate::dialect::attrs::fastmath(ctx, (bits >> 1) | (reassoc << 6)),
    )]
}

/// `1.0` of the float type `ty` or a splat of it for a vector type.
fn one(ctx: &mut silica_ir::Context, ty: silica_ir::Type) -> Option<silica_ir::Attr> {
    let element = match ctx.type_kind(ty) {
        TypeKind::Vector { element, .. } => *element,
        _ => ty,
    };
    let kind = ctx.float_kind(element)?;
    let bits = silica_ir::float::from_integer(kind, false, &1u32.into());
    let value = ctx.intern_attr(AttrKind::Float { ty: element, bits });
    Some(if element == ty {
        value
    } else {
        ctx.intern_attr(AttrKind::DenseElements {
            ty,
            values: Box::new([value]),
        })
    })
}

/// `log1p(x)` as `log(1 + x)`, `expm1(x)` as `exp(x) - 1`, `rsqrt(x)` as
/// `1 / sqrt(x)`, on scalars and one-dimensional vectors.
fn composite(cr: &mut ConversionRewriter<'_, '_>, op: OpId, operands: &[ValueId]) -> bool {
    let name = cr.rw.ctx.str(cr.rw.ir.op_name(op)).to_string();
    let ty = cr.rw.ir.value_type(cr.rw.ir.result(op, 0));
    let vector_rank = match cr.rw.ctx.type_kind(ty) {
        TypeKind::Vector { shape, .. } => shape.len(),
        _ => 0,
    };
    if vector_rank > 1 {
        return false;
    }
    let Some(ty) = cr.convert_type(ty) else {
        return false;
    };
    let Some(one) = one(cr.rw.ctx, ty) else {
        return false;
    };
    let props = fastmath_props(cr.rw.ctx, cr.rw.ir, op);
    let loc = cr.rw.ir.op_loc(op);
    let x = operands[0];
    let mut b = Llvm::new(cr, loc);
    let one = b.constant(one, ty);
    let v = match name.as_str() {
        "math.log1p" => {
            let sum = b.value("llvm.fadd", &[one, x], ty, &props);
            b.value("llvm.intr.log", &[sum], ty, &props)
        }
        "math.expm1" => {
            let e = b.value("llvm.intr.exp", &[x], ty, &props);
            b.value("llvm.fsub", &[e, one], ty, &props)
        }
        _ => {
            let root = b.value("llvm.intr.sqrt", &[x], ty, &props);
            b.value("llvm.fdiv", &[one, root], ty, &props)
        }
    };
    cr.replace_op(op, &[v]);
    true
}

/// The patterns of `convert-math-to-llvm`; `log1p` only when
/// `approximate_log1p`.
pub(crate) fn patterns_with(out: &mut Vec<ConversionPattern>, approximate_log1p: bool) {
    for (root, _) in INTRINSICS {
        out.push(ConversionPattern {
            root,
            name: "MathIntrinsicLowering",
            benefit: 1,
            apply: intrinsic,
        });
    }
    let composites: &[&'static str] = if approximate_log1p {
        &["math.log1p", "math.expm1", "math.rsqrt"]
    } else {
        &["math.expm1", "math.rsqrt"]
    };
    for &root in composites {
        out.push(ConversionPattern {
            root,
            name: "MathCompositeLowering",
            benefit: 1,
            apply: composite,
        });
    }
}

/// The patterns of `convert-math-to-llvm` with its defaults.
pub(crate) fn patterns(out: &mut Vec<ConversionPattern>) {
    patterns_with(out, true);
}

/// The patterns of `convert-math-to-llvm{approximate-log1p=false}`.
pub(crate) fn patterns_exact_log1p(out: &mut Vec<ConversionPattern>) {
    patterns_with(out, false);
}
