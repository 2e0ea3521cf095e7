//! The fusion cost model (MLIR's `LoopNestStats`, `getComputeCost`,
//! `getFusionComputeCost` and `isFusionProfitable`): a nest costs the
//! number of op instances it runs; a fused nest adds the slice's cost at
//! its insertion loop (minus the stores and loads that store-to-load
//! forwarding removes when the slice runs one iteration). Among the
//! legal depths whose extra computation stays under the tolerance, the
//! one that shrinks the producer's written region the most wins, and
//! fusion goes ahead only if the fused footprint is no larger.

use super::graph::{is_read, is_write, memref_of};
use super::slice::{enclosing_fors, Slice};
use crate::region::{MemRefRegion, SliceBounds};
use rustc_hash::FxHashMap;
use silica_ir::{Context, Ir, OpId};

/// Per loop of a nest: its child loops, body op count and trip count.
#[derive(Default)]
pub struct Stats {
    children: FxHashMap<OpId, Vec<OpId>>,
    op_count: FxHashMap<OpId, i64>,
    trip_count: FxHashMap<OpId, i64>,
}

/// The stats of the nest rooted at `root`; `None` when a loop has no
/// constant trip count or a loop is not directly in a loop.
pub fn stats(ctx: &mut Context, ir: &mut Ir, root: OpId) -> Option<Stats> {
    let mut fors = Vec::new();
    ir.walk(root, &mut |o| {
        if ctx.str(ir.op_name(o)) == "affine.for" {
            fors.push(o);
        }
    });
    let mut s = Stats::default();
    for f in fors {
        if f != root {
            let parent = ir.parent_op(f)?;
            if ctx.str(ir.op_name(parent)) != "affine.for" {
                return None;
            }
            s.children.entry(parent).or_default().push(f);
        }
        let count = crate::for_op::body(ir, f).map_or(0, |b| {
            ir.block_ops(b)
                .filter(|&o| !matches!(ctx.str(ir.op_name(o)), "affine.for" | "affine.if"))
                .count()
        });
        s.op_count.insert(f, count as i64);
        let tc = crate::loops::constant_trip_count(ctx, ir, f)?;
        s.trip_count.insert(f, i64::try_from(tc).ok()?);
    }
    Some(s)
}

/// MLIR's `getComputeCostHelper`.
fn cost_of(
    lp: OpId,
    s: &Stats,
    trip_override: Option<&FxHashMap<OpId, i64>>,
    extra: Option<&FxHashMap<OpId, i64>>,
) -> i64 {
    let mut ops = s.op_count.get(&lp).copied().unwrap_or(0) - 1;
    for &c in s.children.get(&lp).map_or(&[][..], |v| v.as_slice()) {
        ops += cost_of(c, s, trip_override, extra);
    }
    if let Some(x) = extra.and_then(|m| m.get(&lp)) {
        ops += x;
    }
    let trips = trip_override
        .and_then(|m| m.get(&lp))
        .copied()
        .unwrap_or_else(|| s.trip_count.get(&lp).copied().unwrap_or(0));
    trips.saturating_mul(ops)
}

/// The cost of the whole nest.
pub fn compute_cost(root: OpId, s: &Stats) -> i64 {
    cost_of(root, s, None, None)
}

/// The cost of `dst` with `slice` of `src` fused in (MLIR's
/// `getFusionComputeCost`).
fn fusion_cost(
    ctx: &mut Context,
    ir: &mut Ir,
    src: OpId,
    src_stats: &Stats,
    dst: OpId,
    dst_stats: &Stats,
    slice: &Slice,
) -> Option<i64> {
    let trips: FxHashMap<OpId, i64> = slice
        .trip_counts(ctx, ir)?
        .into_iter()
        .map(|(l, t)| (l, t as i64))
        .collect();
    let iterations: i64 = trips.values().product();
    let mut extra: FxHashMap<OpId, i64> = FxHashMap::default();
    let parent = slice.insert_loop;
    if iterations == 1 {
        let mut store_count = 0;
        let mut memrefs = Vec::new();
        ir.walk(src, &mut |o| {
            if is_write(ctx, ir, o) {
                store_count += 1;
                let m = memref_of(ctx, ir, o);
                if !memrefs.contains(&m) {
                    memrefs.push(m);
                }
            }
        });
        if store_count > 0 {
            extra.insert(parent, -store_count);
        }
        for m in memrefs {
            let users: Vec<OpId> = ir.uses(m).map(|u| ir.use_owner(u)).collect();
            for user in users {
                if !is_read(ctx, ir, user) {
                    continue;
                }
                if enclosing_fors(ctx, ir, user).contains(&parent) {
                    if let Some(p) = ir.parent_op(user) {
                        if ctx.str(ir.op_name(p)) == "affine.for" {
                            *extra.entry(p).or_insert(0) -= 1;
                        }
                    }
                }
            }
        }
    }
    let slice_cost = cost_of(src, src_stats, Some(&trips), Some(&extra));
    extra.insert(parent, slice_cost);
    Some(cost_of(dst, dst_stats, None, Some(&extra)))
}

/// The bytes the affine accesses under `root` touch, per memref the
/// bounding box of their regions (MLIR's `getMemoryFootprintBytes`).
pub fn footprint(ctx: &Context, ir: &Ir, root: OpId) -> Option<u64> {
    let depth = enclosing_fors(ctx, ir, root).len();
    let mut ops = Vec::new();
    ir.walk(root, &mut |o| {
        if is_read(ctx, ir, o) || is_write(ctx, ir, o) {
            ops.push(o);
        }
    });
    let mut regions: Vec<MemRefRegion> = Vec::new();
    for op in ops {
        let r = MemRefRegion::compute(ctx, ir, op, depth).ok()?;
        match regions.iter_mut().find(|x| x.memref == r.memref) {
            Some(x) => x.union_bounding_box(&r).ok()?,
            None => regions.push(r),
        }
    }
    let mut total = 0u64;
    for r in &regions {
        // MLIR's `getRegionSize` answers `false`, i.e. 0 bytes, for a
        // memref with a non-identity layout (a strided view).
        let bytes = if crate::region::has_identity_layout(ctx, ir.value_type(r.memref)) {
            r.size_in_bytes(ctx, ir)?
        } else {
            0
        };
        total = total.checked_add(bytes)?;
    }
    Some(total)
}

/// MLIR's `isFusionProfitable`: the best depth (1-based, relative) to
/// fuse at among `slices[..max_depth]`, or `None` when fusing does not
/// pay. `src_op` is the producer's store (or, for sibling fusion, its
/// load of the shared memref).
pub fn best_depth(
    ctx: &mut Context,
    ir: &mut Ir,
    src_op: OpId,
    dst: OpId,
    slices: &[Option<Slice>],
    max_depth: usize,
    tolerance: f64,
) -> Option<usize> {
    if max_depth == 0 {
        return None;
    }
    let src_root = *enclosing_fors(ctx, ir, src_op).first()?;
    let src_stats = stats(ctx, ir, src_root)?;
    let dst_stats = stats(ctx, ir, dst)?;
    let src_cost = compute_cost(src_root, &src_stats);
    let dst_cost = compute_cost(dst, &dst_stats);
    let src_region = MemRefRegion::compute(ctx, ir, src_op, 0).ok()?;
    let src_size = src_region.size_in_bytes(ctx, ir)?;
    let mut best: Option<(usize, f64, i64, u64)> = None;
    let mut max_reduction = 0.0f64;
    for i in (1..=max_depth).rev() {
        let Some(slice) = &slices[i - 1] else {
            continue;
        };
        let Some(fused) = fusion_cost(ctx, ir, src_root, &src_stats, dst, &dst_stats, slice) else {
            continue;
        };
        let extra = fused as f64 / (src_cost as f64 + dst_cost as f64) - 1.0;
        let bounds = SliceBounds {
            ivs: &slice.ivs,
            lbs: &slice.lbs,
            ubs: &slice.ubs,
            operands: &slice.operands,
        };
        let Ok(region) = MemRefRegion::compute_in_slice(ctx, ir, src_op, 0, Some(&bounds)) else {
            continue;
        };
        let Some(size) = region.size_in_bytes(ctx, ir) else {
            continue;
        };
        if size == 0 {
            continue;
        }
        let reduction = src_size as f64 / size as f64;
        if reduction > max_reduction && extra <= tolerance {
            max_reduction = reduction;
            best = Some((i, reduction, fused, size));
        }
    }
    let (depth, _, _, slice_mem) = best?;
    let dst_mem = footprint(ctx, ir, dst)?;
    let src_mem = footprint(ctx, ir, src_root)?;
    if dst_mem + slice_mem > src_mem + dst_mem {
        return None;
    }
    Some(depth)
}
