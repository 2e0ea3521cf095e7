//! `memref.alloca_scope` to llvm (MLIR's `AllocaScopeOpLowering`): the
//! block is split at the scope, the stack is saved and control branches
//! into the inlined body, whose `alloca_scope.return` restores the stack
//! and branches on with the results (to a block taking them, which
//! branches to the rest of the original block).

use crate::conversion::Llvm;
use silica_ir::conversion::ConversionRewriter;
use silica_ir::{OpId, ValueId};

pub(super) fn alloca_scope(cr: &mut ConversionRewriter<'_, '_>, op: OpId, _: &[ValueId]) -> bool {
    let Some(region) = cr.rw.ir.regions(op).next() else {
        return false;
    };
    let (Some(first), Some(last)) = (
        cr.rw.ir.region_blocks(region).next(),
        cr.rw.ir.region_blocks(region).last(),
    ) else {
        return false;
    };
    let Some(ret) = cr.rw.ir.last_op(last) else {
        return false;
    };
    let Some(current) = cr.rw.ir.op_block(op) else {
        return false;
    };
    let loc = cr.rw.ir.op_loc(op);
    let result_types: Vec<_> = cr
        .rw
        .ir
        .results(op)
        .map(|r| cr.rw.ir.value_type(r))
        .collect();
    let remaining = cr.rw.ir.split_block(current, cr.rw.ir.next_op(op));
    let continuation = if result_types.is_empty() {
        remaining
    } else {
        let block = cr.rw.ir.create_block();
        cr.rw.ir.insert_block_before(remaining, block);
        for &t in &result_types {
            cr.rw.ir.add_block_arg(block, t, Some(loc));
        }
        cr.rw.set_insertion_point_to_end(block);
        Llvm::new(cr, loc).branch("llvm.br", &[], &[remaining], &[]);
        block
    };
    cr.rw.ir.inline_region_before(region, continuation);
    // The scope op is still last in `current`: save the stack before it.
    cr.rw.set_insertion_point(op);
    let ptr = crate::dialect::types::ptr(cr.rw.ctx, 0);
    let saved = Llvm::new(cr, loc).value("llvm.intr.stacksave", &[], ptr, &[]);
    Llvm::new(cr, loc).branch("llvm.br", &[], &[first], &[]);
    let results: Vec<ValueId> = cr.rw.ir.operands(ret).collect();
    cr.rw.set_insertion_point(ret);
    Llvm::new(cr, loc).op("llvm.intr.stackrestore", &[saved], &[], &[]);
    Llvm::new(cr, loc).branch("llvm.br", &results, &[continuation], &[]);
    cr.rw.erase_op(ret);
    let args: Vec<ValueId> = cr.rw.ir.block_args(continuation).to_vec();
    cr.replace_op(op, &args);
    true
}
