//! The IR changes of loop fusion: a slice of the source nest cloned into
//! the destination nest with its bounds (MLIR's `fuseLoops`, single
//! iteration slice loops promoted), a private, smaller memref for a
//! producer-consumer memref only the fused nest uses (MLIR's
//! `createPrivateMemRef` with `replaceAllMemRefUsesWith`), and the
//! sinking of sequential loops below parallel ones in the destination
//! (MLIR's `sinkSequentialLoops`).

use super::graph::{is_read, is_write, memref_of};
use super::slice::Slice;
use crate::canonicalize::{canonicalize_map, compose_map};
use crate::dependence::{accesses_of, check_dependence, DependenceResult, Precision};
use crate::for_op::{self, Bound};
use crate::loops::build::{clone_mapped, create_apply, set_lower_bound, set_upper_bound};
use crate::region::MemRefRegion;
use rustc_hash::FxHashMap;
use silica_ir::affine::{AffineExpr, AffineMap};
use silica_ir::affine_flatten::{simplify_expr, simplify_map};
use silica_ir::dialect::set_inherent_attr;
use silica_ir::{AttrKind, BlockId, Context, Ir, OpId, TypeKind, ValueId};

fn pre_order(ir: &Ir, root: OpId) -> Vec<OpId> {
    let mut v = Vec::new();
    ir.walk(root, &mut |o| v.push(o));
    v
}

/// Clones `src` into the slice's insertion point with the slice's
/// bounds, promoting the slice loops that run once (MLIR's `fuseLoops`).
pub fn fuse_loops(ctx: &mut Context, ir: &mut Ir, src: OpId, slice: &Slice) {
    let Some(body) = for_op::body(ir, slice.insert_loop) else {
        return;
    };
    let mut map = FxHashMap::default();
    let clone = clone_mapped(ir, src, &mut map);
    let anchor = if slice.at_start {
        ir.first_op(body)
    } else {
        ir.last_op(body)
    };
    match anchor {
        Some(a) => ir.insert_op_before(a, clone),
        None => ir.append_op(body, clone),
    }
    // Old induction variable -> cloned loop.
    let mut loop_of: FxHashMap<ValueId, OpId> = FxHashMap::default();
    for (o, c) in pre_order(ir, src).into_iter().zip(pre_order(ir, clone)) {
        if for_op::is_for(ctx, ir, o) {
            if let Some(iv) = for_op::induction_var(ir, o) {
                loop_of.insert(iv, c);
            }
        }
    }
    let mut slice_loops = Vec::new();
    for (i, iv) in slice.ivs.iter().enumerate() {
        let Some(&lp) = loop_of.get(iv) else { continue };
        slice_loops.push(lp);
        if let Some(lb) = &slice.lbs[i] {
            let (m, o) = canonicalize_map(ctx, ir, lb, &slice.operands);
            set_lower_bound(
                ctx,
                ir,
                lp,
                &Bound {
                    map: m,
                    operands: o,
                },
            );
        }
        if let Some(ub) = &slice.ubs[i] {
            let (m, o) = canonicalize_map(ctx, ir, ub, &slice.operands);
            set_upper_bound(
                ctx,
                ir,
                lp,
                &Bound {
                    map: m,
                    operands: o,
                },
            );
        }
    }
    for lp in slice_loops {
        crate::loops::promote_if_single_iteration(ctx, ir, lp);
    }
}

fn identity(n: usize) -> AffineMap {
    AffineMap {
        num_dims: n as u32,
        num_symbols: 0,
        results: (0..n as u32).map(AffineExpr::Dim).collect(),
    }
}

/// Whether `op` is `anchor` or after it (nested ops included) in
/// `anchor`'s block.
fn at_or_after(ir: &Ir, anchor: OpId, op: OpId) -> bool {
    let Some(block) = ir.op_block(anchor) else {
        return false;
    };
    let Some(top) = super::graph::ancestor_in_block(ir, op, block) else {
        return false;
    };
    top == anchor || super::graph::is_before_in_block(ir, anchor, top)
}

/// The first op, in the innermost block holding the slice and every
/// store, that holds a store (MLIR's dominance filter for the private
/// memref's uses).
fn dominance_filter(ir: &Ir, slice_block: BlockId, stores: &[OpId]) -> Option<OpId> {
    let blocks_of = |op: OpId| {
        let mut v = Vec::new();
        let mut cur = Some(op);
        while let Some(o) = cur {
            if let Some(b) = ir.op_block(o) {
                v.push(b);
            }
            cur = ir.parent_op(o);
        }
        v
    };
    let mut common: Option<BlockId> = Some(slice_block);
    for &s in stores {
        let bs = blocks_of(s);
        let c = common?;
        // The innermost block around `c`'s ops that also holds `s`.
        let mut cur = Some(c);
        let mut found = None;
        while let Some(b) = cur {
            if bs.contains(&b) {
                found = Some(b);
                break;
            }
            cur = ir
                .block_region(b)
                .and_then(|r| ir.region_op(r))
                .and_then(|o| ir.op_block(o));
        }
        common = found;
    }
    let common = common?;
    let mut first: Option<OpId> = None;
    for &s in stores {
        let a = super::graph::ancestor_in_block(ir, s, common)?;
        if first.is_none_or(|f| super::graph::is_before_in_block(ir, a, f)) {
            first = Some(a);
        }
    }
    first
}

/// An access's map composed with the `affine.apply`s feeding it, and its
/// operands.
fn composed_access(ctx: &mut Context, ir: &mut Ir, op: OpId) -> Option<(AffineMap, Vec<ValueId>)> {
    let (_, map, operands, _) = crate::region::affine_access(ctx, ir, op)?;
    let (m, o) = compose_map(ctx, ir, &map, &operands);
    Some((simplify_map(&m), o))
}

/// `e` (over `num_dims` dims then symbols, bound to `operands`) as an
/// expression over `outer` (as dims `d0..`), where it uses nothing else.
fn over_symbols(
    e: &AffineExpr,
    num_dims: u32,
    operands: &[ValueId],
    outer: &[ValueId],
) -> Option<AffineExpr> {
    let position = |is_dim: bool, i: u32| {
        let k = if is_dim { i } else { num_dims + i } as usize;
        operands
            .get(k)
            .and_then(|v| outer.iter().position(|o| o == v))
    };
    let mut all_outer = true;
    e.walk_ids(&mut |is_dim, i| all_outer &= position(is_dim, i).is_some());
    if !all_outer {
        return None;
    }
    let as_dim = |is_dim: bool, i: u32| AffineExpr::Dim(position(is_dim, i).unwrap_or(0) as u32);
    let dims: Vec<AffineExpr> = (0..num_dims).map(|i| as_dim(true, i)).collect();
    let syms: Vec<AffineExpr> = (0..(operands.len() as u32).saturating_sub(num_dims))
        .map(|i| as_dim(false, i))
        .collect();
    Some(simplify_expr(
        &e.replace(&dims, &syms),
        outer.len() as u32,
        0,
    ))
}

/// Replaces the memref written by `stores` in the fused nest `nest` by a
/// new allocation shaped like the region they write at `depth` (MLIR's
/// `createPrivateMemRef`); returns the new memref.
#[allow(clippy::too_many_arguments)]
pub fn create_private_memref(
    ctx: &mut Context,
    ir: &mut Ir,
    nest: OpId,
    stores: &[OpId],
    depth: usize,
    fast_space: Option<u64>,
    slice_block: BlockId,
    threshold: u64,
) -> Option<ValueId> {
    let store = *stores.first()?;
    let old = memref_of(ctx, ir, store);
    let TypeKind::MemRef {
        element,
        memory_space,
        ..
    } = ctx.type_kind(ir.value_type(old)).clone()
    else {
        return None;
    };
    // Every store must write the same element (MLIR's condition): the
    // buffer is sized from the first one's region.
    let first_access = composed_access(ctx, ir, store)?;
    for &s in &stores[1..] {
        if composed_access(ctx, ir, s)? != first_access {
            return None;
        }
    }
    let region = MemRefRegion::compute(ctx, ir, store, depth).ok()?;
    let mut bbox = region.bounding_box(ctx, ir)?;
    let rank = bbox.shape.len();
    let outer = region.symbols.clone();
    let n = outer.len() as u32;
    // A subscript of the region's symbols alone (`i mod 64` of an outer
    // `i`) is one element: MLIR finds it so, keeping the division as a
    // local variable where the region here projects it out.
    let (access_map, access_operands) = &first_access;
    for (d, r) in access_map.results.iter().enumerate() {
        if bbox.shape[d] > 1 {
            if let Some(lower) = over_symbols(r, access_map.num_dims, access_operands, &outer) {
                bbox.num_elements /= bbox.shape[d];
                bbox.shape[d] = 1;
                bbox.lower_bounds[d] = lower;
            }
        }
    }
    let elt = crate::region::element_bytes(ctx, element)?;
    let bytes = elt.checked_mul(u64::try_from(bbox.num_elements).ok()?)?;
    let space = match fast_space {
        Some(s) if bytes <= threshold => (s != 0).then(|| {
            let i64t = ctx.signless(64);
            ctx.int_attr(i64t, s as i64)
        }),
        _ => memory_space,
    };
    let new_type = ctx.intern_type(TypeKind::MemRef {
        shape: bbox.shape.clone().into(),
        element,
        layout: None,
        memory_space: space,
    });
    // The allocation goes first in the region holding the nest.
    let region_id = ir.block_region(ir.op_block(nest)?)?;
    let entry = ir.entry_block(region_id)?;
    let loc = ir.op_loc(nest);
    let seg = ctx.int_array_attr(32, &[0, 0]);
    let alloc = crate::loops::build::create(
        ctx,
        ir,
        "memref.alloc",
        &[],
        &[new_type],
        vec![("operandSegmentSizes", seg)],
        loc,
    );
    match ir.first_op(entry) {
        Some(f) => ir.insert_op_before(f, alloc),
        None => ir.append_op(entry, alloc),
    }
    let new = ir.result(alloc, 0);
    // Index remapping: old index - lower bound (over the outer IVs).
    let remap: Vec<AffineExpr> = (0..rank)
        .map(|i| {
            simplify_expr(
                &AffineExpr::Dim(n + i as u32).minus(bbox.lower_bounds[i].clone()),
                n + rank as u32,
                0,
            )
        })
        .collect();
    let filter = dominance_filter(ir, slice_block, stores)?;
    let users: Vec<OpId> = ir.uses(old).map(|u| ir.use_owner(u)).collect();
    let mut seen = Vec::new();
    for op in users {
        if seen.contains(&op) || !at_or_after(ir, filter, op) {
            continue;
        }
        seen.push(op);
        if !(is_read(ctx, ir, op) || is_write(ctx, ir, op)) {
            continue;
        }
        let Some((_, map, operands, write)) = crate::region::affine_access(ctx, ir, op) else {
            continue;
        };
        let loc = ir.op_loc(op);
        // The applies made here, erased when dead in creation order (as
        // MLIR's `replaceAllMemRefUsesWith`: an old subscript's apply still
        // feeding a remapping one stays).
        let mut temps = Vec::new();
        let mut old_indices = Vec::new();
        if map != identity(map.num_dims as usize) || map.results.len() != map.num_dims as usize {
            for r in map.results.iter() {
                let m = AffineMap {
                    num_dims: map.num_dims,
                    num_symbols: map.num_symbols,
                    results: Box::new([r.clone()]),
                };
                let a = create_apply(ctx, ir, m, &operands, loc);
                ir.insert_op_before(op, a);
                temps.push(a);
                old_indices.push(ir.result(a, 0));
            }
        } else {
            old_indices = operands.clone();
        }
        let mut remap_ops = outer.clone();
        remap_ops.extend(old_indices);
        let mut new_ops = Vec::new();
        for r in &remap {
            // A remapping to one operand folds to it (MLIR builds these
            // with `createOrFold`).
            if let AffineExpr::Dim(k) = r {
                new_ops.push(remap_ops[*k as usize]);
                continue;
            }
            let m = AffineMap {
                num_dims: n + rank as u32,
                num_symbols: 0,
                results: Box::new([r.clone()]),
            };
            let a = create_apply(ctx, ir, m, &remap_ops, loc);
            ir.insert_op_before(op, a);
            temps.push(a);
            new_ops.push(ir.result(a, 0));
        }
        let (m, o) = compose_map(ctx, ir, &identity(rank), &new_ops);
        let m = simplify_map(&m);
        let (m, o) = canonicalize_map(ctx, ir, &m, &o);
        let keep = if write { 2 } else { 1 };
        let mut ops: Vec<ValueId> = ir.operands(op).take(keep).collect();
        ops[keep - 1] = new;
        ops.extend(o);
        ir.set_operands(op, &ops);
        let attr = ctx.intern_attr(AttrKind::AffineMap(m));
        set_inherent_attr(ctx, ir, op, "map", attr);
        for t in temps {
            if !ir.has_uses(ir.result(t, 0)) {
                ir.erase_op(t);
            }
        }
    }
    Some(new)
}

/// Moves the loops of `root`'s perfect nest that carry no dependence
/// outside the others, keeping the order within each group (MLIR's
/// `sinkSequentialLoops`); returns the new outermost loop.
pub fn sink_sequential_loops(ctx: &Context, ir: &mut Ir, root: OpId) -> OpId {
    let loops = for_op::perfect_nest(ctx, ir, root);
    if loops.len() < 2 {
        return root;
    }
    let n = loops.len();
    let mut ops = Vec::new();
    ir.walk(root, &mut |o| {
        if is_read(ctx, ir, o) || is_write(ctx, ir, o) {
            ops.push(o);
        }
    });
    let mut accesses = Vec::new();
    for &o in &ops {
        match accesses_of(ctx, ir, o) {
            Ok(a) => accesses.extend(a),
            Err(_) => return root,
        }
    }
    let base = super::slice::enclosing_fors(ctx, ir, root).len();
    let mut parallel = vec![true; n];
    for d in 1..=n {
        for a in &accesses {
            for b in &accesses {
                match check_dependence(ctx, ir, a, b, base + d, Precision::Shadow) {
                    DependenceResult::NoDependence => {}
                    DependenceResult::Failure => return root,
                    DependenceResult::Dependence(comps) => {
                        for (j, p) in parallel.iter_mut().enumerate() {
                            match comps.get(base + j) {
                                Some(c) if c.lower == Some(0) && c.upper == Some(0) => {}
                                _ => *p = false,
                            }
                        }
                    }
                }
            }
        }
    }
    let num_parallel = parallel.iter().filter(|&&p| p).count();
    let mut perm = vec![0; n];
    let (mut next_par, mut next_seq) = (0, num_parallel);
    for i in 0..n {
        if parallel[i] {
            perm[i] = next_par;
            next_par += 1;
        } else {
            perm[i] = next_seq;
            next_seq += 1;
        }
    }
    if perm.iter().enumerate().all(|(i, &p)| i == p) {
        return root;
    }
    match crate::permute::permute_loops(ir, &loops, &perm) {
        Some(i) => loops[i],
        None => root,
    }
}
