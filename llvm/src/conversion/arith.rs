//! `arith` to llvm: one-to-one ops (overflow and fast-math flags carried
//! over), comparisons with the same predicate numbering, constants,
//! index casts by width, min/max as intrinsics, and the extended ops
//! (`addui_extended`, `mului_extended`, `mulsi_extended`) expanded.

use super::Llvm;
use silica_ir::conversion::{ConversionPattern, ConversionRewriter};
use silica_ir::dialect::inherent_attr;
use silica_ir::{Attr, OpId, ValueId};

/// How an arith op's attributes carry over.
#[derive(Clone, Copy, PartialEq)]
enum Flags {
    None,
    Overflow,
    Fastmath,
    Exact,
}

/// arith op, llvm op, flags.
const ONE_TO_ONE: &[(&str, &str, Flags)] = &[
    ("arith.addi", "llvm.add", Flags::Overflow),
    ("arith.subi", "llvm.sub", Flags::Overflow),
    ("arith.muli", "llvm.mul", Flags::Overflow),
    ("arith.shli", "llvm.shl", Flags::Overflow),
    ("arith.divsi", "llvm.sdiv", Flags::Exact),
    ("arith.divui", "llvm.udiv", Flags::Exact),
    ("arith.shrsi", "llvm.ashr", Flags::Exact),
    ("arith.shrui", "llvm.lshr", Flags::Exact),
    ("arith.remsi", "llvm.srem", Flags::None),
    ("arith.remui", "llvm.urem", Flags::None),
    ("arith.andi", "llvm.and", Flags::None),
    ("arith.ori", "llvm.or", Flags::None),
    ("arith.xori", "llvm.xor", Flags::None),
    ("arith.addf", "llvm.fadd", Flags::Fastmath),
    ("arith.subf", "llvm.fsub", Flags::Fastmath),
    ("arith.mulf", "llvm.fmul", Flags::Fastmath),
    ("arith.divf", "llvm.fdiv", Flags::Fastmath),
    ("arith.remf", "llvm.frem", Flags::Fastmath),
    ("arith.negf", "llvm.fneg", Flags::Fastmath),
    ("arith.select", "llvm.select", Flags::None),
    ("arith.extsi", "llvm.sext", Flags::None),
    ("arith.extui", "llvm.zext", Flags::None),
    ("arith.trunci", "llvm.trunc", Flags::Overflow),
    ("arith.sitofp", "llvm.sitofp", Flags::None),
    ("arith.uitofp", "llvm.uitofp", Flags::None),
    ("arith.fptosi", "llvm.fptosi", Flags::None),
    ("arith.fptoui", "llvm.fptoui", Flags::None),
    ("arith.extf", "llvm.fpext", Flags::None),
    ("arith.truncf", "llvm.fptrunc", Flags::None),
    ("arith.bitcast", "llvm.bitcast", Flags::None),
    ("arith.maxsi", "llvm.intr.smax", Flags::None),
    ("arith.minsi", "llvm.intr.smin", Flags::None),
    ("arith.maxui", "llvm.intr.umax", Flags::None),
    ("arith.minui", "llvm.intr.umin", Flags::None),
    ("arith.maximumf", "llvm.intr.maximum", Flags::Fastmath),
    ("arith.minimumf", "llvm.intr.minimum", Flags::Fastmath),
    ("arith.maxnumf", "llvm.intr.maxnum", Flags::Fastmath),
    ("arith.minnumf", "llvm.intr.minnum", Flags::Fastmath),
];

/// arith fast-math bits (reassoc nnan ninf nsz arcp contract afn) to
/// llvm's (nnan ninf nsz arcp contract afn reassoc).
fn llvm_fastmath(arith_bits: u32) -> u32 {
    let reassoc = arith_bits & 1;
    (arith_bits >> 1) | (reassoc << 6)
}

fn converted_results(
    cr: &mut ConversionRewriter<'_, '_>,
    op: OpId,
) -> Option<Vec<silica_ir::Type>> {
    let tys: Vec<_> = cr
        .rw
        .ir
        .results(op)
        .map(|r| cr.rw.ir.value_type(r))
        .collect();
    tys.into_iter().map(|t| cr.convert_type(t)).collect()
}

fn one_to_one(cr: &mut ConversionRewriter<'_, '_>, op: OpId, operands: &[ValueId]) -> bool {
    let name = cr.rw.ctx.str(cr.rw.ir.op_name(op)).to_string();
    let Some(&(_, target, flags)) = ONE_TO_ONE.iter().find(|(n, ..)| *n == name) else {
        return false;
    };
    let Some(results) = converted_results(cr, op) else {
        return false;
    };
    // A truncation with a rounding mode: the constrained intrinsic.
    if name == "arith.truncf" {
        if let Some(mode) = inherent_attr(cr.rw.ctx, cr.rw.ir, op, "roundingmode") {
            // arith's to_nearest_even, downward, upward, toward_zero,
            // to_nearest_away as LLVM numbers them.
            const LLVM_MODE: [i64; 5] = [1, 3, 2, 0, 4];
            let Some(&mode) =
                LLVM_MODE.get(crate::dialect::attrs::bits_of(cr.rw.ctx, mode) as usize)
            else {
                return false;
            };
            let ctx = &mut *cr.rw.ctx;
            let t = ctx.signless(64);
            let props = [
                ("roundingmode", ctx.int_attr(t, mode)),
                ("fpExceptionBehavior", ctx.int_attr(t, 0)),
            ];
            let loc = cr.rw.ir.op_loc(op);
            let v = Llvm::new(cr, loc).value(
                "llvm.intr.experimental.constrained.fptrunc",
                operands,
                results[0],
                &props,
            );
            cr.replace_op(op, &[v]);
            return true;
        }
    }
    // A bitcast between types that convert alike (memrefs) folds away.
    if target == "llvm.bitcast" && cr.rw.ir.value_type(operands[0]) == results[0] {
        cr.replace_op(op, &[operands[0]]);
        return true;
    }
    let ctx = &mut *cr.rw.ctx;
    let mut props: Vec<(&str, Attr)> = Vec::new();
    match flags {
        Flags::Overflow => {
            if let Some(a) = inherent_attr(ctx, cr.rw.ir, op, "overflowFlags") {
                let bits = silica_dialects::arith::flag_bits(ctx, a).unwrap_or(0);
                let t = ctx.signless(32);
                props.push(("overflowFlags", ctx.int_attr(t, bits)));
            }
        }
        Flags::Fastmath => {
            if let Some(a) = inherent_attr(ctx, cr.rw.ir, op, "fastmath") {
                let bits = silica_dialects::arith::flag_bits(ctx, a).unwrap_or(0);
                props.push((
                    "fastmathFlags",
                    crate::dialect::attrs::fastmath(ctx, llvm_fastmath(bits)),
                ));
            }
        }
        Flags::Exact => {
            if inherent_attr(ctx, cr.rw.ir, op, "isExact").is_some() {
                props.push(("isExact", ctx.unit_attr()));
            }
        }
        Flags::None => {}
    }
    let loc = cr.rw.ir.op_loc(op);
    let new = Llvm::new(cr, loc).op(target, operands, &results, &props);
    let values: Vec<ValueId> = cr.rw.ir.results(new).collect();
    cr.replace_op(op, &values);
    true
}

fn constant(cr: &mut ConversionRewriter<'_, '_>, op: OpId, _: &[ValueId]) -> bool {
    let Some(results) = converted_results(cr, op) else {
        return false;
    };
    let Some(value) = inherent_attr(cr.rw.ctx, cr.rw.ir, op, "value") else {
        return false;
    };
    let loc = cr.rw.ir.op_loc(op);
    let v = Llvm::new(cr, loc).constant(value, results[0]);
    cr.replace_op(op, &[v]);
    true
}

fn compare(cr: &mut ConversionRewriter<'_, '_>, op: OpId, operands: &[ValueId]) -> bool {
    let Some(results) = converted_results(cr, op) else {
        return false;
    };
    let ctx = &mut *cr.rw.ctx;
    let float = ctx.str(cr.rw.ir.op_name(op)) == "arith.cmpf";
    let Some(pred) = inherent_attr(ctx, cr.rw.ir, op, "predicate") else {
        return false;
    };
    let index = crate::dialect::attrs::bits_of(ctx, pred);
    let t = ctx.signless(64);
    let mut props = vec![("predicate", ctx.int_attr(t, index))];
    if float {
        let bits = inherent_attr(ctx, cr.rw.ir, op, "fastmath")
            .and_then(|a| silica_dialects::arith::flag_bits(ctx, a))
            .unwrap_or(0);
        props.push((
            "fastmathFlags",
            crate::dialect::attrs::fastmath(ctx, llvm_fastmath(bits)),
        ));
    }
    let loc = cr.rw.ir.op_loc(op);
    let name = if float { "llvm.fcmp" } else { "llvm.icmp" };
    let v = Llvm::new(cr, loc).value(name, operands, results[0], &props);
    cr.replace_op(op, &[v]);
    true
}

/// `index_cast`/`index_castui`: extension or truncation by width, or
/// the operand itself when widths agree.
fn index_cast(cr: &mut ConversionRewriter<'_, '_>, op: OpId, operands: &[ValueId]) -> bool {
    let Some(results) = converted_results(cr, op) else {
        return false;
    };
    let unsigned = cr.rw.ctx.str(cr.rw.ir.op_name(op)) == "arith.index_castui";
    super::replace_with_resized_int(cr, op, operands[0], results[0], unsigned)
}

/// Signed ceiling and floor division and unsigned ceiling division,
/// expanded as MLIR's `arith-expand` does before lowering.
fn division(cr: &mut ConversionRewriter<'_, '_>, op: OpId, operands: &[ValueId]) -> bool {
    let orig = cr.rw.ir.value_type(cr.rw.ir.result(op, 0));
    if cr.rw.ctx.int_width(orig).is_none()
        && !matches!(cr.rw.ctx.type_kind(orig), silica_ir::TypeKind::Index)
    {
        return false;
    }
    let Some(ty) = cr.convert_type(orig) else {
        return false;
    };
    let name = cr.rw.ctx.str(cr.rw.ir.op_name(op)).to_string();
    let loc = cr.rw.ir.op_loc(op);
    let (a, b) = (operands[0], operands[1]);
    let mut l = Llvm::new(cr, loc);
    let konst = |l: &mut Llvm<'_, '_>, v: i64| {
        let attr = l.ctx().int_attr(orig, v);
        l.constant(attr, ty)
    };
    let v = match name.as_str() {
        "arith.ceildivsi" => {
            let zero = konst(&mut l, 0);
            let one = konst(&mut l, 1);
            let q = l.int_op("llvm.sdiv", a, b, 0);
            let prod = l.int_op("llvm.mul", q, b, 0);
            let inexact = l.icmp("ne", a, prod);
            let a_neg = l.icmp("slt", a, zero);
            let b_neg = l.icmp("slt", b, zero);
            let same = l.icmp("eq", a_neg, b_neg);
            let cond = l.int_op("llvm.and", inexact, same, 0);
            let up = l.int_op("llvm.add", q, one, 0);
            l.value("llvm.select", &[cond, up, q], ty, &[])
        }
        "arith.floordivsi" => {
            let q = l.int_op("llvm.sdiv", a, b, 0);
            let prod = l.int_op("llvm.mul", q, b, 0);
            let inexact = l.icmp("ne", a, prod);
            let zero = konst(&mut l, 0);
            let a_neg = l.icmp("slt", a, zero);
            let b_neg = l.icmp("slt", b, zero);
            let opposite = l.icmp("ne", a_neg, b_neg);
            let cond = l.int_op("llvm.and", inexact, opposite, 0);
            let minus_one = konst(&mut l, -1);
            let down = l.int_op("llvm.add", q, minus_one, 0);
            l.value("llvm.select", &[cond, down, q], ty, &[])
        }
        _ => {
            let zero = konst(&mut l, 0);
            let is_zero = l.icmp("eq", a, zero);
            let one = konst(&mut l, 1);
            let less = l.int_op("llvm.sub", a, one, 0);
            let q = l.int_op("llvm.udiv", less, b, 0);
            let up = l.int_op("llvm.add", q, one, 0);
            l.value("llvm.select", &[is_zero, zero, up], ty, &[])
        }
    };
    cr.replace_op(op, &[v]);
    true
}

/// `addui_extended` (the sum and `sum < a`) and `mul[su]i_extended`
/// (both operands extended to twice the width, multiplied, the low and
/// high halves), as MLIR's lowering computes them.
fn extended(cr: &mut ConversionRewriter<'_, '_>, op: OpId, operands: &[ValueId]) -> bool {
    let orig = cr.rw.ir.value_type(cr.rw.ir.result(op, 0));
    let Some(w) = cr.rw.ctx.int_width(orig) else {
        return false;
    };
    let name = cr.rw.ctx.str(cr.rw.ir.op_name(op)).to_string();
    let loc = cr.rw.ir.op_loc(op);
    let (a, b) = (operands[0], operands[1]);
    let mut l = Llvm::new(cr, loc);
    let (first, second) = if name == "arith.addui_extended" {
        let sum = l.int_op("llvm.add", a, b, 0);
        let carry = l.icmp("ult", sum, a);
        (sum, carry)
    } else {
        let ext = if name == "arith.mulsi_extended" {
            "llvm.sext"
        } else {
            "llvm.zext"
        };
        let wide = l.ctx().signless(2 * w);
        let aw = l.value(ext, &[a], wide, &[]);
        let bw = l.value(ext, &[b], wide, &[]);
        let product = l.int_op("llvm.mul", aw, bw, 0);
        let ty = l.ctx().signless(w);
        let low = l.value("llvm.trunc", &[product], ty, &[]);
        let attr = l.ctx().int_attr(wide, i64::from(w));
        let shift = l.constant(attr, wide);
        let high = l.int_op("llvm.lshr", product, shift, 0);
        let high = l.value("llvm.trunc", &[high], ty, &[]);
        (low, high)
    };
    cr.replace_op(op, &[first, second]);
    true
}

/// The patterns of `convert-arith-to-llvm`.
pub(crate) fn patterns(out: &mut Vec<ConversionPattern>) {
    for (root, ..) in ONE_TO_ONE {
        out.push(ConversionPattern {
            root,
            name: "ArithOneToOne",
            benefit: 1,
            apply: one_to_one,
        });
    }
    out.push(ConversionPattern {
        root: "arith.constant",
        name: "ConstantOpLowering",
        benefit: 1,
        apply: constant,
    });
    for root in ["arith.cmpi", "arith.cmpf"] {
        out.push(ConversionPattern {
            root,
            name: "CmpOpLowering",
            benefit: 1,
            apply: compare,
        });
    }
    for root in ["arith.ceildivsi", "arith.floordivsi", "arith.ceildivui"] {
        out.push(ConversionPattern {
            root,
            name: "DivisionExpansion",
            benefit: 1,
            apply: division,
        });
    }
    for root in [
        "arith.addui_extended",
        "arith.mului_extended",
        "arith.mulsi_extended",
    ] {
        out.push(ConversionPattern {
            root,
            name: "ExtendedOpLowering",
            benefit: 1,
            apply: extended,
        });
    }
    for root in ["arith.index_cast", "arith.index_castui"] {
        out.push(ConversionPattern {
            root,
            name: "IndexCastOpLowering",
            benefit: 1,
            apply: index_cast,
        });
    }
}
