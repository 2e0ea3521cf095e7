//! `test-affine-data-copy` (MLIR's test pass of the same name): the copy
//! generation utilities of `data_copy.rs` driven on a function's single
//! loop nest.
//!
//! The pass applies to a function whose blocks hold one top-level
//! `affine.for` and whose deepest loop level holds one loop (the loops of
//! each depth gathered as MLIR's `gatherLoops`: `affine.for` ops directly
//! in the blocks, then in their bodies). Then
//! - `memref-filter`: copies for the nest's body (MLIR's
//!   `affineDataCopyGenerate` on the outermost loop), of the memref of the
//!   first `affine.load` directly in the innermost loop's body only;
//! - `for-memref-region`: the region of that load at depth 0, bounded by
//!   the memref's shape, copied in around the whole nest (MLIR's
//!   `generateCopyForMemRegion`; a read region: the nest's writes to the
//!   memref go to the buffer and are not copied back, as MLIR's);
//! - otherwise copies of every memref for the nest's body, with a warning
//!   when the buffers exceed `capacity-kib` (a number of bytes, despite
//!   its name, as MLIR's test pass reads it; unlimited by default).
//!
//! Copies go between memory spaces 0 and 0, point-wise. The single
//! iteration loops of the copy nests are promoted and their stores' maps
//! simplified; their loads keep theirs (MLIR's test pass gathers only the
//! last access's canonicalization patterns, a store's).

use crate::data_copy::{CopyOptions, Gen};
use crate::for_op;
use crate::region::MemRefRegion;
use silica_ir::pass::{OptionKind, Pass, PassInfo, PassOptionInfo, PassOptions};
use silica_ir::{BlockId, Context, Diagnostic, Ir, OpId};

/// The pass with its options.
pub struct TestAffineDataCopy {
    memref_filter: bool,
    for_memref_region: bool,
    /// MLIR's test pass takes the `capacity-kib` value as bytes.
    capacity_bytes: u64,
}

/// The `affine.for` ops of each loop depth, outermost first (MLIR's
/// `gatherLoops`).
fn gather_loops(ctx: &Context, ir: &Ir, func: OpId) -> Vec<Vec<OpId>> {
    fn visit(ctx: &Context, ir: &Ir, block: BlockId, depth: usize, out: &mut Vec<Vec<OpId>>) {
        if out.len() == depth {
            out.push(Vec::new());
        }
        for op in ir.block_ops(block) {
            if for_op::is_for(ctx, ir, op) {
                out[depth].push(op);
                if let Some(body) = for_op::body(ir, op) {
                    visit(ctx, ir, body, depth + 1, out);
                }
            }
        }
    }
    let mut out = Vec::new();
    for region in ir.regions(func) {
        for block in ir.region_blocks(region) {
            visit(ctx, ir, block, 0, &mut out);
        }
    }
    while out.last().is_some_and(Vec::is_empty) {
        out.pop();
    }
    out
}

impl Pass for TestAffineDataCopy {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, func: OpId) -> Result<(), Box<Diagnostic>> {
        let loops = gather_loops(ctx, ir, func);
        let (Some(outermost), Some(innermost)) = (loops.first(), loops.last()) else {
            return Ok(());
        };
        if outermost.len() != 1 || innermost.len() != 1 {
            return Ok(());
        }
        let (nest, innermost) = (outermost[0], innermost[0]);
        let load = for_op::body(ir, innermost).and_then(|b| {
            ir.block_ops(b)
                .find(|&op| ctx.str(ir.op_name(op)) == "affine.load")
        });
        let filter = self.memref_filter || self.for_memref_region;
        if filter && load.is_none() {
            return Ok(());
        }
        let opts = CopyOptions {
            generate_dma: false,
            slow_space: 0,
            fast_space: 0,
            tag_space: 0,
            capacity_bytes: self.capacity_bytes,
            skip_non_unit_stride_loops: false,
        };
        if self.for_memref_region {
            let Some(load) = load else {
                return Ok(());
            };
            let Ok(mut region) = MemRefRegion::compute(ctx, ir, load, 0) else {
                return Ok(());
            };
            region.add_memref_dim_bounds(ctx, ir);
            Gen::new(ctx, ir, func, &opts, None).copy_region_around(&region, nest);
            return Ok(());
        }
        let memref = load
            .filter(|_| self.memref_filter)
            .map(|l| ir.operand(l, 0));
        let Some(body) = for_op::body(ir, nest) else {
            return Ok(());
        };
        let (Some(first), Some(last)) = (ir.first_op(body), ir.last_op(body)) else {
            return Ok(());
        };
        let mut g = Gen::new(ctx, ir, func, &opts, memref);
        if g.copy_range(first, last) {
            g.finish(false);
        }
        Ok(())
    }
}

fn create(options: &PassOptions) -> Result<Box<dyn Pass>, String> {
    let text = options.string("capacity-kib").trim();
    let capacity_bytes = text.parse::<u64>().map_err(|_| {
        format!("for the --capacity-kib option: '{text}' value invalid for ulong argument!")
    })?;
    Ok(Box::new(TestAffineDataCopy {
        memref_filter: options.bool("memref-filter"),
        for_memref_region: options.bool("for-memref-region"),
        capacity_bytes,
    }))
}

/// The `test-affine-data-copy` pass.
pub static TEST_AFFINE_DATA_COPY: PassInfo = PassInfo {
    argument: "test-affine-data-copy",
    name: "TestAffineDataCopy",
    description: "Tests affine data copy utility functions.",
    anchor: Some("func.func"),
    options: &[
        PassOptionInfo {
            name: "capacity-kib",
            description: "Test copy generation enforcing a limit of capacity (default: unlimited)",
            kind: OptionKind::String,
            default: "18446744073709551615",
        },
        PassOptionInfo {
            name: "for-memref-region",
            description: "Test copy generation for a single memref region",
            kind: OptionKind::Bool,
            default: "false",
        },
        PassOptionInfo {
            name: "memref-filter",
            description: "Enable memref filter testing in affine data copy optimization",
            kind: OptionKind::Bool,
            default: "false",
        },
    ],
    create,
};
