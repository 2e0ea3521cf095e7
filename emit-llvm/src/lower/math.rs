//! `math` to llvm: the elementary functions LLVM has intrinsics for,
//! fast-math flags carried over.

use super::Llvm;
use silica_ir::conversion::{ConversionPattern, ConversionRewriter};
use silica_ir::dialect::inherent_attr;
use silica_ir::{OpId, ValueId};

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
    let mut props = Vec::new();
    if let Some(a) = inherent_attr(ctx, cr.rw.ir, op, "fastmath") {
        let bits = silica_dialects::arith::flag_bits(ctx, a).unwrap_or(0);
        let reassoc = bits & 1;
        props.push((
            "fastmathFlags",
            crate::attrs::fastmath(ctx, (bits >> 1) | (reassoc << 6)),
        ));
    }
    if name == "math.ctpop" {
        props.clear();
    }
    let loc = cr.rw.ir.op_loc(op);
    let v = Llvm::new(cr, loc).value(target, operands, ty, &props);
    cr.replace_op(op, &[v]);
    true
}

/// The patterns of `convert-math-to-llvm`.
pub(crate) fn patterns(out: &mut Vec<ConversionPattern>) {
    for (root, _) in INTRINSICS {
        out.push(ConversionPattern {
            root,
            name: "MathIntrinsicLowering",
            benefit: 1,
            apply: intrinsic,
        });
    }
}
