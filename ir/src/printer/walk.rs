//! Visits the attributes and types of an operation tree in exactly the
//! order the printer emits them; alias selection depends on that order.

use super::AsmPrinter;
use crate::context::{Attr, Context, Type};
use crate::graph::{BlockId, Ir, OpId, RegionId};

/// Printing options (mlir-opt's flags).
#[derive(Clone, Copy, Default, Debug)]
pub struct PrintFlags {
    /// `--mlir-print-op-generic`
    pub generic: bool,
    /// `--mlir-print-debuginfo`
    pub debug_info: bool,
    /// `--mlir-print-skip-regions`: regions print as `{...}`.
    pub skip_regions: bool,
}

/// Receives attributes and types in print order.
pub trait Visitor {
    fn attr(&mut self, a: Attr, deferrable: bool);
    fn ty(&mut self, t: Type);
}

/// Visits `op` as the printer would print it.
pub fn visit_op_order(ctx: &Context, ir: &Ir, op: OpId, flags: &PrintFlags, v: &mut dyn Visitor) {
    if flags.debug_info {
        v.attr(ir.op_loc(op), true);
    }
    let custom = if flags.generic {
        None
    } else {
        ctx.op_def(ir.op_name(op)).and_then(|d| d.print)
    };
    match custom {
        Some(print) => print(&mut AsmPrinter::visit(ctx, ir, flags, v), op),
        None => {
            for r in ir.regions(op) {
                visit_region(ctx, ir, r, flags, v, true);
            }
            for o in ir.operands(op) {
                v.ty(ir.value_type(o));
            }
            for r in ir.results(op) {
                v.ty(ir.value_type(r));
            }
            for (_, a) in ctx.dict_entries(ir.op_attrs(op)) {
                v.attr(*a, false);
            }
            // Registered ops' properties take part in aliasing last, as
            // MLIR numbers them.
            if let Some(props) = ir
                .op_props(op)
                .filter(|_| ctx.op_def(ir.op_name(op)).is_some())
            {
                for (_, a) in ctx.dict_entries(props) {
                    v.attr(*a, false);
                }
            }
        }
    }
}

pub(super) fn visit_region(
    ctx: &Context,
    ir: &Ir,
    r: RegionId,
    flags: &PrintFlags,
    v: &mut dyn Visitor,
    entry_args: bool,
) {
    visit_region_ext(ctx, ir, r, flags, v, entry_args, true);
}

/// [`visit_region`], leaving out the blocks' terminators unless
/// `terminators` (they are not printed, so they take no aliases, as in
/// MLIR's alias pass).
pub(super) fn visit_region_ext(
    ctx: &Context,
    ir: &Ir,
    r: RegionId,
    flags: &PrintFlags,
    v: &mut dyn Visitor,
    entry_args: bool,
    terminators: bool,
) {
    if flags.skip_regions {
        return;
    }
    for (i, b) in ir.region_blocks(r).enumerate() {
        if i > 0 || entry_args {
            visit_block_args(ir, b, flags, v);
        }
        let last = if terminators { None } else { ir.last_op(b) };
        for op in ir.block_ops(b) {
            if Some(op) != last {
                visit_op_order(ctx, ir, op, flags, v);
            }
        }
    }
}

fn visit_block_args(ir: &Ir, b: BlockId, flags: &PrintFlags, v: &mut dyn Visitor) {
    for &a in ir.block_args(b) {
        v.ty(ir.value_type(a));
        if flags.debug_info {
            if let Some(l) = ir.value_loc(a) {
                v.attr(l, false);
            }
        }
    }
}
