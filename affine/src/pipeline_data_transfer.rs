//! `affine-pipeline-data-transfer`: double buffering of the DMA
//! transfers of a loop (MLIR's `PipelineDataTransfer`). In a loop with a
//! constant trip count, each `affine.dma_start` into a faster memory
//! space with its matching `affine.dma_wait` (same tag memref and tag
//! indices) gets its destination buffer and its tag doubled — a new
//! leading dimension of 2 indexed by `(iv floordiv step) mod 2`, the
//! accesses in the loop rewritten and the maps composed — and the loop
//! body is skewed ([`crate::skew`]): the transfers (and the
//! `affine.apply` ops computing their indices) run one iteration ahead
//! of everything else, so the transfer of the next tile overlaps the
//! computation on the current one. Buffers used outside the loop (but
//! by deallocations) and transfers whose source an outgoing transfer of
//! the loop writes are left alone.

use crate::canonicalize::compose_map;
use crate::for_op;
use crate::loops::{constant_trip_count, loops_post_order};
use crate::skew::{is_opwise_shift_valid, skew_loop_body};
use silica_ir::affine::{AffineExpr, AffineMap};
use silica_ir::dialect::{inherent_attr, set_inherent_attr};
use silica_ir::pass::{Pass, PassInfo, PassOptions};
use silica_ir::types::DYNAMIC;
use silica_ir::{Attr, AttrKind, Context, Diagnostic, Ir, OpId, OpSpec, Type, TypeKind, ValueId};

/// A memref operand of an access: its position, the map attribute that
/// subscripts it and how many index operands follow it.
#[derive(Clone, Copy, Debug)]
struct MemrefUse {
    at: usize,
    map_name: &'static str,
    indices: usize,
}

fn map_named(ctx: &Context, ir: &Ir, op: OpId, name: &str) -> Option<AffineMap> {
    match ctx.attr_kind(inherent_attr(ctx, ir, op, name)?) {
        AttrKind::AffineMap(m) => Some(m.clone()),
        _ => None,
    }
}

fn inputs(m: &AffineMap) -> usize {
    (m.num_dims + m.num_symbols) as usize
}

/// The memref operands of an affine access op, in operand order.
fn memref_uses(ctx: &Context, ir: &Ir, op: OpId) -> Option<Vec<MemrefUse>> {
    let one = |at: usize, name: &'static str| -> Option<MemrefUse> {
        Some(MemrefUse {
            at,
            map_name: name,
            indices: inputs(&map_named(ctx, ir, op, name)?),
        })
    };
    match ctx.str(ir.op_name(op)) {
        "affine.load" => Some(vec![one(0, "map")?]),
        "affine.store" => Some(vec![one(1, "map")?]),
        "affine.dma_wait" => Some(vec![one(0, "tag_map")?]),
        "affine.dma_start" => {
            let src = one(0, "src_map")?;
            let dst = one(src.at + 1 + src.indices, "dst_map")?;
            let tag = one(dst.at + 1 + dst.indices, "tag_map")?;
            Some(vec![src, dst, tag])
        }
        _ => None,
    }
}

fn memory_space(ctx: &Context, t: Type) -> i64 {
    match ctx.type_kind(t) {
        TypeKind::MemRef {
            memory_space: Some(a),
            ..
        } => match ctx.attr_kind(*a) {
            AttrKind::Integer { value, .. } => i64::try_from(value).unwrap_or(0),
            _ => 0,
        },
        _ => 0,
    }
}

/// The source, destination and tag memrefs of a `dma_start`, and the tag
/// index operands.
struct DmaStart {
    src: ValueId,
    dst: ValueId,
    tag: ValueId,
    tag_indices: Vec<ValueId>,
}

fn dma_start(ctx: &Context, ir: &Ir, op: OpId) -> Option<DmaStart> {
    if ctx.str(ir.op_name(op)) != "affine.dma_start" {
        return None;
    }
    let uses = memref_uses(ctx, ir, op)?;
    let operands: Vec<ValueId> = ir.operands(op).collect();
    let tag = uses[2];
    Some(DmaStart {
        src: operands[uses[0].at],
        dst: operands[uses[1].at],
        tag: operands[tag.at],
        tag_indices: operands.get(tag.at + 1..tag.at + 1 + tag.indices)?.to_vec(),
    })
}

/// The tag memref and tag index operands of a `dma_wait`.
fn dma_wait(ctx: &Context, ir: &Ir, op: OpId) -> Option<(ValueId, Vec<ValueId>)> {
    if ctx.str(ir.op_name(op)) != "affine.dma_wait" {
        return None;
    }
    let tag = memref_uses(ctx, ir, op)?[0];
    let operands: Vec<ValueId> = ir.operands(op).collect();
    Some((operands[0], operands.get(1..1 + tag.indices)?.to_vec()))
}

/// The `dma_start`/`dma_wait` pairs of the body of `op` to pipeline
/// (MLIR's `findMatchingStartFinishInsts`).
fn start_wait_pairs(ctx: &Context, ir: &Ir, op: OpId) -> Vec<(OpId, OpId)> {
    let body = for_op::body_ops(ir, op);
    let space = |v: ValueId| memory_space(ctx, ir.value_type(v));
    let outgoing: Vec<DmaStart> = body
        .iter()
        .filter_map(|&o| dma_start(ctx, ir, o))
        .filter(|d| space(d.src) > space(d.dst))
        .collect();
    let inside = |user: OpId| body.iter().any(|&o| ir.is_ancestor(o, user));
    let mut starts = Vec::new();
    for &o in &body {
        let Some(d) = dma_start(ctx, ir, o) else {
            continue;
        };
        if space(d.dst) <= space(d.src) || outgoing.iter().any(|x| x.dst == d.src) {
            continue;
        }
        let escapes = ir.uses(d.dst).any(|u| {
            let user = ir.use_owner(u);
            ctx.str(ir.op_name(user)) != "memref.dealloc" && !inside(user)
        });
        if !escapes {
            starts.push((o, d));
        }
    }
    let waits: Vec<(OpId, (ValueId, Vec<ValueId>))> = body
        .iter()
        .filter_map(|&o| dma_wait(ctx, ir, o).map(|w| (o, w)))
        .collect();
    starts
        .into_iter()
        .filter_map(|(s, d)| {
            waits
                .iter()
                .find(|(_, (tag, idx))| *tag == d.tag && *idx == d.tag_indices)
                .map(|&(w, _)| (s, w))
        })
        .collect()
}

fn create(
    ctx: &mut Context,
    ir: &mut Ir,
    name: &str,
    operands: &[ValueId],
    results: &[Type],
    props: Vec<(&str, Attr)>,
    loc: Attr,
) -> OpId {
    let entries: Vec<_> = props.into_iter().map(|(k, v)| (ctx.sym(k), v)).collect();
    let props = (!entries.is_empty()).then(|| ctx.dict_attr(entries));
    let name = ctx.sym(name);
    let attrs = ctx.empty_dict();
    ir.create_op(OpSpec {
        name,
        loc,
        operands,
        result_types: results,
        successors: &[],
        regions: &[],
        attrs,
        props,
    })
}

/// Sets the map attribute `name` of `op`, wherever (properties or
/// attributes) it is held.
fn set_map(ctx: &mut Context, ir: &mut Ir, op: OpId, name: &str, map: AffineMap) {
    let attr = ctx.intern_attr(AttrKind::AffineMap(map));
    let key = ctx.sym(name);
    let in_attrs = ctx
        .dict_entries(ir.op_attrs(op))
        .iter()
        .any(|(k, _)| *k == key);
    if in_attrs {
        let entries: Vec<_> = ctx
            .dict_entries(ir.op_attrs(op))
            .iter()
            .map(|&(k, v)| (k, if k == key { attr } else { v }))
            .collect();
        let dict = ctx.dict_attr(entries);
        ir.set_op_attrs(op, dict);
    } else {
        set_inherent_attr(ctx, ir, op, name, attr);
    }
}

/// Rewrites the access `op`'s uses of `old` to `new` with `extra` as a
/// new leading subscript, the maps composed with the `affine.apply` ops
/// feeding them.
fn redirect_access(
    ctx: &mut Context,
    ir: &mut Ir,
    op: OpId,
    old: ValueId,
    new: ValueId,
    extra: ValueId,
) -> Option<()> {
    let uses = memref_uses(ctx, ir, op)?;
    let mut operands: Vec<ValueId> = ir.operands(op).collect();
    // Right to left, so that earlier positions stay valid.
    for u in uses.into_iter().rev() {
        if operands[u.at] != old {
            continue;
        }
        let map = map_named(ctx, ir, op, u.map_name)?;
        let nd = map.num_dims;
        let dims: Vec<AffineExpr> = (0..nd).map(|i| AffineExpr::Dim(i + 1)).collect();
        let syms: Vec<AffineExpr> = (0..map.num_symbols).map(AffineExpr::Symbol).collect();
        let mut results = vec![AffineExpr::Dim(0)];
        results.extend(map.results.iter().map(|e| e.replace(&dims, &syms)));
        let widened = AffineMap {
            num_dims: nd + 1,
            num_symbols: map.num_symbols,
            results: results.into_boxed_slice(),
        };
        let mut map_operands = vec![extra];
        map_operands.extend_from_slice(&operands[u.at + 1..u.at + 1 + u.indices]);
        let (map, map_operands) = compose_map(ctx, ir, &widened, &map_operands);
        operands[u.at] = new;
        operands.splice(u.at + 1..u.at + 1 + u.indices, map_operands);
        set_map(ctx, ir, op, u.map_name, map);
    }
    ir.set_operands(op, &operands);
    Some(())
}

/// Doubles the buffer `old` for the loop `op`: a new buffer with a
/// leading dimension of 2 allocated before the loop and freed after it,
/// every access in the loop redirected to half `(iv floordiv step) mod 2`
/// of it (MLIR's `doubleBuffer`; dynamic sizes are read from the old
/// buffer). `false` when a use in the loop is not an affine access or a
/// deallocation (the new buffer then stays unused, as in MLIR).
fn double_buffer(ctx: &mut Context, ir: &mut Ir, old: ValueId, op: OpId) -> bool {
    let old_type = ir.value_type(old);
    let TypeKind::MemRef {
        shape,
        element,
        memory_space,
        ..
    } = ctx.type_kind(old_type).clone()
    else {
        return false;
    };
    let body = for_op::body_ops(ir, op);
    let (Some(first), Some(iv)) = (body.first().copied(), for_op::induction_var(ir, op)) else {
        return false;
    };
    let mut new_shape = vec![2];
    new_shape.extend_from_slice(&shape);
    let new_type = ctx.intern_type(TypeKind::MemRef {
        shape: new_shape.into_boxed_slice(),
        element,
        layout: None,
        memory_space,
    });
    let loc = ir.op_loc(op);
    // The sizes of the dynamic dimensions, read from the old buffer.
    let index = ctx.index_type();
    let mut sizes = Vec::new();
    for (i, _) in shape.iter().enumerate().filter(|(_, &d)| d == DYNAMIC) {
        let v = ctx.int_attr(index, i as i64);
        let c = create(
            ctx,
            ir,
            "arith.constant",
            &[],
            &[index],
            vec![("value", v)],
            loc,
        );
        ir.insert_op_before(op, c);
        let c = ir.result(c, 0);
        let dim = create(ctx, ir, "memref.dim", &[old, c], &[index], Vec::new(), loc);
        ir.insert_op_before(op, dim);
        sizes.push(ir.result(dim, 0));
    }
    let segments = ctx.int_array_attr(32, &[sizes.len() as i64, 0]);
    let alloc = create(
        ctx,
        ir,
        "memref.alloc",
        &sizes,
        &[new_type],
        vec![("operandSegmentSizes", segments)],
        loc,
    );
    ir.insert_op_before(op, alloc);
    let new = ir.result(alloc, 0);
    // As MLIR, the new buffer stays (unused) when the accesses cannot all
    // be redirected.
    let inside = |user: OpId| body.iter().any(|&o| ir.is_ancestor(o, user));
    let users: Vec<OpId> = ir
        .uses(old)
        .map(|u| ir.use_owner(u))
        .filter(|&u| inside(u))
        .collect();
    let redirectable =
        |u: OpId| ctx.str(ir.op_name(u)) == "memref.dealloc" || memref_uses(ctx, ir, u).is_some();
    if !users.iter().all(|&u| redirectable(u)) {
        return false;
    }
    let step = for_op::step(ctx, ir, op);
    let half = AffineMap {
        num_dims: 1,
        num_symbols: 0,
        results: Box::new([AffineExpr::Dim(0)
            .floor_div(AffineExpr::Constant(step))
            .modulo(AffineExpr::Constant(2))]),
    };
    let half = ctx.intern_attr(AttrKind::AffineMap(half));
    let apply = create(
        ctx,
        ir,
        "affine.apply",
        &[iv],
        &[index],
        vec![("map", half)],
        loc,
    );
    ir.insert_op_before(first, apply);
    let extra = ir.result(apply, 0);
    let mut seen = Vec::new();
    for u in users {
        if seen.contains(&u) || ctx.str(ir.op_name(u)) == "memref.dealloc" {
            continue;
        }
        seen.push(u);
        if redirect_access(ctx, ir, u, old, new, extra).is_none() {
            return false;
        }
    }
    let dealloc = create(ctx, ir, "memref.dealloc", &[new], &[], Vec::new(), loc);
    match ir.next_op(op) {
        Some(next) => ir.insert_op_before(next, dealloc),
        None => {
            if let Some(b) = ir.op_block(op) {
                ir.append_op(b, dealloc);
            }
        }
    }
    // The old buffer, now unused (but by a deallocation), goes.
    if let Some(def) = ir.defining_op(old) {
        let uses: Vec<OpId> = ir.uses(old).map(|u| ir.use_owner(u)).collect();
        match uses[..] {
            [] => ir.erase_op(def),
            [d] if ctx.str(ir.op_name(d)) == "memref.dealloc" => {
                ir.erase_op(d);
                ir.erase_op(def);
            }
            _ => {}
        }
    }
    true
}

/// The `affine.apply` ops of the body of `op` that compute operands of
/// `start`, transitively.
fn feeding_applies(ctx: &Context, ir: &Ir, start: OpId) -> Vec<OpId> {
    let mut found = Vec::new();
    let mut work: Vec<ValueId> = ir.operands(start).collect();
    while let Some(v) = work.pop() {
        let Some(d) = ir.defining_op(v) else {
            continue;
        };
        if ctx.str(ir.op_name(d)) == "affine.apply" && !found.contains(&d) {
            found.push(d);
            work.extend(ir.operands(d));
        }
    }
    found
}

/// Pipelines the transfers of the loop `op` (see the module
/// documentation); `false` when nothing was done.
pub fn pipeline_data_transfers(ctx: &mut Context, ir: &mut Ir, op: OpId) -> bool {
    if constant_trip_count(ctx, ir, op).is_none() {
        return false;
    }
    let pairs = start_wait_pairs(ctx, ir, op);
    if pairs.is_empty() {
        return false;
    }
    for &(start, _) in &pairs {
        let Some(d) = dma_start(ctx, ir, start) else {
            return false;
        };
        if !double_buffer(ctx, ir, d.dst, op) {
            return false;
        }
    }
    for &(_, wait) in &pairs {
        let Some((tag, _)) = dma_wait(ctx, ir, wait) else {
            return false;
        };
        if !double_buffer(ctx, ir, tag, op) {
            return false;
        }
    }
    let pairs = start_wait_pairs(ctx, ir, op);
    let body = for_op::body_ops(ir, op);
    let mut ahead: Vec<OpId> = Vec::new();
    for &(start, _) in &pairs {
        ahead.push(start);
        ahead.extend(
            feeding_applies(ctx, ir, start)
                .into_iter()
                .filter(|a| body.contains(a)),
        );
    }
    let shifts: Vec<u64> = body.iter().map(|o| u64::from(!ahead.contains(o))).collect();
    if !is_opwise_shift_valid(ir, op, &shifts) {
        return false;
    }
    skew_loop_body(ctx, ir, op, &shifts)
}

/// The pass.
pub struct PipelineDataTransfer;

impl Pass for PipelineDataTransfer {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, func: OpId) -> Result<(), Box<Diagnostic>> {
        // Inner loops first: pipelining an outer loop replaces it.
        for l in loops_post_order(ctx, ir, func) {
            if !ir.is_erased(l) {
                pipeline_data_transfers(ctx, ir, l);
            }
        }
        Ok(())
    }
}

/// The `affine-pipeline-data-transfer` pass.
pub static AFFINE_PIPELINE_DATA_TRANSFER: PassInfo = PassInfo {
    argument: "affine-pipeline-data-transfer",
    name: "PipelineDataTransfer",
    description: "Pipeline non-blocking data transfers between explicitly managed levels of the memory hierarchy",
    anchor: Some("func.func"),
    options: &[],
    create: |_: &PassOptions| Ok(Box::new(PipelineDataTransfer)),
};
