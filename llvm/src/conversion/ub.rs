//! `ub` to llvm: `ub.poison` becomes `llvm.mlir.poison` of the converted
//! type.

use super::Llvm;
use silica_ir::conversion::{ConversionPattern, ConversionRewriter};
use silica_ir::{OpId, ValueId};

fn poison(cr: &mut ConversionRewriter<'_, '_>, op: OpId, _: &[ValueId]) -> bool {
    let result = cr.rw.ir.result(op, 0);
    let ty = cr.rw.ir.value_type(result);
    let Some(ty) = cr.convert_type(ty) else {
        return false;
    };
    let loc = cr.rw.ir.op_loc(op);
    let v = Llvm::new(cr, loc).poison(ty);
    cr.replace_op(op, &[v]);
    true
}

pub(crate) fn patterns(out: &mut Vec<ConversionPattern>) {
    out.push(ConversionPattern {
        root: "ub.poison",
        name: "PoisonOpLowering",
        benefit: 1,
        apply: poison,
    });
}
