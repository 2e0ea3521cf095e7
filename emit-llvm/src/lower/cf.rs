//! `cf` to llvm: `cf.br`, `cf.cond_br` and `cf.switch` become `llvm.br`,
//! `llvm.cond_br` and `llvm.switch` with the same successors, operands,
//! case values and weights.

use silica_ir::conversion::{ConversionPattern, ConversionRewriter};
use silica_ir::dialect::inherent_attr;
use silica_ir::format::SEGMENTS;
use silica_ir::{OpId, OpSpec, Symbol, ValueId};

fn branch(cr: &mut ConversionRewriter<'_, '_>, op: OpId, operands: &[ValueId]) -> bool {
    // The successors take the converted values (MLIR converts their
    // signatures as it lowers the branches).
    for succ in cr.rw.ir.successors(op).to_vec() {
        if !cr.convert_block_types(succ) {
            return false;
        }
    }
    let ctx = &mut *cr.rw.ctx;
    let ir = &*cr.rw.ir;
    let source = ctx.str(ir.op_name(op)).to_string();
    let cond = source == "cf.cond_br";
    let switch = source == "cf.switch";
    let mut props: Vec<(Symbol, silica_ir::Attr)> = Vec::new();
    if switch {
        for key in [
            SEGMENTS,
            "case_operand_segments",
            "case_values",
            "branch_weights",
        ] {
            if let Some(a) = inherent_attr(ctx, ir, op, key) {
                props.push((ctx.sym(key), a));
            }
        }
    }
    if cond {
        for key in [SEGMENTS, "branch_weights"] {
            if let Some(a) = inherent_attr(ctx, ir, op, key) {
                props.push((ctx.sym(key), a));
            }
        }
    }
    let props = (!props.is_empty()).then(|| ctx.dict_attr(props));
    let successors = ir.successors(op).to_vec();
    let name = ctx.sym(match source.as_str() {
        "cf.cond_br" => "llvm.cond_br",
        "cf.switch" => "llvm.switch",
        _ => "llvm.br",
    });
    let attrs = ir.op_attrs(op);
    let loc = ir.op_loc(op);
    cr.rw.create(OpSpec {
        name,
        loc,
        operands,
        result_types: &[],
        successors: &successors,
        regions: &[],
        attrs,
        props,
    });
    cr.rw.erase_op(op);
    true
}

/// The patterns of `convert-cf-to-llvm`.
pub(crate) fn patterns(out: &mut Vec<ConversionPattern>) {
    for root in ["cf.br", "cf.cond_br", "cf.switch"] {
        out.push(ConversionPattern {
            root,
            name: "BranchOpLowering",
            benefit: 1,
            apply: branch,
        });
    }
}
