//! The memory footprint of a loop nest, as MLIR's
//! `getMemoryFootprintBytes`: the [`MemRefRegion`] of every
//! `affine.load`/`affine.store` in the nest, computed at the nest's own
//! loop depth (symbolic in the induction variables around it), regions of
//! one memref united into their bounding box, and the bytes of each box
//! summed (a region too costly to project counts as the whole memref).
//! `None` where MLIR fails too: a region that cannot be computed or
//! united, a dimension with neither a constant extent nor a static
//! size, a non-identity layout or an element that is not an integer, a
//! float or a vector of those.

use crate::region::{affine_access, enclosing_ivs, MemRefRegion, RegionError};
use silica_ir::{Context, Ir, OpId};

/// The bytes of memory the nest rooted at the op `root` touches.
pub fn footprint_bytes(ctx: &Context, ir: &Ir, root: OpId) -> Option<u64> {
    let mut ops = Vec::new();
    ir.walk(root, &mut |o| ops.push(o));
    let depth = enclosing_ivs(ctx, ir, root, false).len();
    let mut regions: Vec<MemRefRegion> = Vec::new();
    for op in ops {
        if affine_access(ctx, ir, op).is_none() {
            continue;
        }
        let region = match MemRefRegion::compute(ctx, ir, op, depth) {
            Ok(r) => r,
            // MLIR projects without a budget and, where the projection
            // keeps no constant extent, sizes a dimension by the memref's
            // static size: the whole memref is that bound.
            Err(RegionError::TooComplex) => MemRefRegion::whole_memref(ctx, ir, op, depth).ok()?,
            Err(_) => return None,
        };
        match regions.iter_mut().find(|r| r.memref == region.memref) {
            Some(existing) => existing.union_bounding_box(&region).ok()?,
            None => regions.push(region),
        }
    }
    regions.iter().try_fold(0u64, |total, r| {
        total.checked_add(r.size_in_bytes(ctx, ir)?)
    })
}
