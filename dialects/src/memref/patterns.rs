//! memref canonicalization patterns: constant sizes of an allocation
//! become static (with a cast back to the old type), the size of a
//! `memref.reshape` result is loaded from its shape operand, reshapes of
//! one kind in a row compose, and copies of nothing or onto the source
//! are erased.

use crate::memref::verify::{dropped_dims, strided_memref};
use silica_ir::dialect::inherent_attr;
use silica_ir::rewrite::fold::constant_i64;
use silica_ir::rewrite::{Pattern, Rewriter};
use silica_ir::types::DYNAMIC;
use silica_ir::{Context, Ir, OpId, RegionId, Type, TypeKind, ValueId};

/// Whether `t` is a memref with a static zero extent.
fn has_no_elements(ctx: &Context, t: Type) -> bool {
    matches!(ctx.type_kind(t), TypeKind::MemRef { shape, .. } if shape.contains(&0))
}

/// A copy of nothing, or of a buffer onto itself, does nothing (MLIR's
/// `FoldEmptyCopy` and `FoldSelfCopy`).
fn copy_does_nothing(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let (source, target) = (rw.ir.operand(op, 0), rw.ir.operand(op, 1));
    let empty = [source, target]
        .iter()
        .any(|&v| has_no_elements(rw.ctx, rw.ir.value_type(v)));
    if !empty && source != target {
        return false;
    }
    rw.erase_op(op);
    true
}

/// A `memref.view` whose dynamic sizes are constants views with those
/// sizes static, cast back to the old type (MLIR's `ViewOpShapeFolder`).
fn view_constant_sizes(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let operands: Vec<ValueId> = rw.ir.operands(op).collect();
    let old_type = rw.ir.value_type(rw.ir.result(op, 0));
    let Some((new_type, sizes)) = with_constant_sizes(rw.ctx, rw.ir, old_type, &operands[2..])
    else {
        return false;
    };
    let mut kept = operands[..2].to_vec();
    kept.extend(sizes);
    let props = rw.ir.op_props(op);
    replace_with_cast(rw, op, &kept, new_type, props);
    true
}

/// The memref type `ty` with the dynamic extents given by non-negative
/// constants among `sizes` (one per dynamic extent) made static, and the
/// sizes left dynamic; `None` when no size is such a constant.
fn with_constant_sizes(
    ctx: &mut Context,
    ir: &Ir,
    ty: Type,
    sizes: &[ValueId],
) -> Option<(Type, Vec<ValueId>)> {
    let TypeKind::MemRef {
        shape,
        element,
        layout,
        memory_space,
    } = ctx.type_kind(ty).clone()
    else {
        return None;
    };
    let mut sizes = sizes.iter();
    let mut kept = Vec::new();
    let mut new_shape = Vec::with_capacity(shape.len());
    for &d in shape.iter() {
        if d != DYNAMIC {
            new_shape.push(d);
            continue;
        }
        let &v = sizes.next()?;
        match constant_i64(ctx, ir, v).filter(|&c| c >= 0) {
            Some(c) => new_shape.push(c),
            None => {
                new_shape.push(d);
                kept.push(v);
            }
        }
    }
    if new_shape.as_slice() == &*shape {
        return None;
    }
    let new_type = ctx.intern_type(TypeKind::MemRef {
        shape: new_shape.into(),
        element,
        layout,
        memory_space,
    });
    Some((new_type, kept))
}

/// `memref.view` patterns.
pub static VIEW: &[Pattern] = &[Pattern::new("ViewOpShapeFolder", view_constant_sizes)];

/// `memref.copy` patterns.
pub static COPY: &[Pattern] = &[Pattern::new("FoldEmptyOrSelfCopy", copy_does_nothing)];

/// The reassociation of two reshapes of one kind in a row: the groups of
/// the longer one, gathered by the groups of the shorter (MLIR's
/// `composeReassociationIndices`); none when both have the same length.
fn compose_reassociations(a: &[Vec<i64>], b: &[Vec<i64>]) -> Option<Vec<Vec<i64>>> {
    let (longer, shorter) = match a.len().cmp(&b.len()) {
        std::cmp::Ordering::Equal => return None,
        std::cmp::Ordering::Greater => (a, b),
        std::cmp::Ordering::Less => (b, a),
    };
    let covered: usize = shorter.iter().map(Vec::len).sum();
    if !shorter.is_empty() && covered != longer.len() {
        return None;
    }
    shorter
        .iter()
        .map(|group| {
            group
                .iter()
                .map(|&i| longer.get(usize::try_from(i).ok()?).cloned())
                .collect::<Option<Vec<Vec<i64>>>>()
                .map(|parts| parts.concat())
        })
        .collect()
}

fn identity_layout(ctx: &Context, t: Type) -> bool {
    matches!(ctx.type_kind(t), TypeKind::MemRef { layout: None, .. })
}

/// The `reassociation` attribute of `groups`: an array of `i64` arrays.
pub(crate) fn reassociation_attr(ctx: &mut Context, groups: &[Vec<i64>]) -> silica_ir::Attr {
    let i64_ty = ctx.signless(64);
    let group_attrs: Vec<_> = groups
        .iter()
        .map(|g| {
            let xs: Vec<_> = g.iter().map(|&x| ctx.int_attr(i64_ty, x)).collect();
            ctx.array_attr(&xs)
        })
        .collect();
    ctx.array_attr(&group_attrs)
}

/// A collapse of a collapse (or an expansion of an expansion) of
/// identity-layout memrefs becomes one reshape (MLIR's
/// `ComposeReassociativeReshapeOps`).
pub(crate) fn compose_reshapes(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let ir = &*rw.ir;
    let source = ir.operand(op, 0);
    let Some(inner) = ir
        .defining_op(source)
        .filter(|&d| ir.op_name(d) == ir.op_name(op))
    else {
        return false;
    };
    let original = ir.operand(inner, 0);
    let result = ir.result(op, 0);
    if ![original, source, result]
        .iter()
        .all(|&v| identity_layout(rw.ctx, ir.value_type(v)))
    {
        return false;
    }
    let (Some(producer), Some(consumer)) = (
        crate::memref::verify::reassociation(rw.ctx, ir, inner),
        crate::memref::verify::reassociation(rw.ctx, ir, op),
    ) else {
        return false;
    };
    let Some(groups) = compose_reassociations(&producer, &consumer) else {
        return false;
    };
    let mut operands = vec![original];
    operands.extend(ir.operands(op).skip(1));
    let (name, loc, attrs) = (ir.op_name(op), ir.op_loc(op), ir.op_attrs(op));
    let result_type = ir.value_type(result);
    let reassociation = reassociation_attr(rw.ctx, &groups);
    let new = rw.create(silica_ir::OpSpec {
        name,
        loc,
        operands: &operands,
        result_types: &[result_type],
        successors: &[],
        regions: &[],
        attrs,
        props: rw.ir.op_props(op),
    });
    silica_ir::dialect::set_inherent_attr(rw.ctx, rw.ir, new, "reassociation", reassociation);
    let value = rw.ir.result(new, 0);
    rw.replace_op(op, &[value]);
    true
}

/// `memref.alloc(%c4)`: non-negative constant sizes become static
/// dimensions of a new allocation, cast to the old type (MLIR's
/// `SimplifyAllocConst`).
fn allocation_constant_sizes(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let old_type = rw.ir.value_type(rw.ir.result(op, 0));
    let operands: Vec<ValueId> = rw.ir.operands(op).collect();
    let dynamic = match rw.ctx.type_kind(old_type) {
        TypeKind::MemRef { shape, .. } => shape.iter().filter(|&&d| d == DYNAMIC).count(),
        _ => return false,
    };
    if dynamic == 0 || operands.len() < dynamic {
        return false;
    }
    let Some((new_type, mut new_operands)) =
        with_constant_sizes(rw.ctx, rw.ir, old_type, &operands[..dynamic])
    else {
        return false;
    };
    let dynamic_left = new_operands.len();
    new_operands.extend_from_slice(&operands[dynamic..]);
    let segments = rw.ctx.int_array_attr(
        32,
        &[dynamic_left as i64, (operands.len() - dynamic) as i64],
    );
    let key = rw.ctx.sym("operandSegmentSizes");
    let mut entries: Vec<_> = rw
        .ir
        .op_props(op)
        .map(|p| rw.ctx.dict_entries(p).to_vec())
        .unwrap_or_default();
    entries.retain(|(k, _)| *k != key);
    entries.push((key, segments));
    let props = rw.ctx.dict_attr(entries);
    replace_with_cast(rw, op, &new_operands, new_type, Some(props));
    true
}

/// Replaces `op` with an op of its name and attributes over `operands`,
/// typed `new_type` with properties `props`, cast back to `op`'s type.
pub(crate) fn replace_with_cast(
    rw: &mut Rewriter<'_>,
    op: OpId,
    operands: &[ValueId],
    new_type: Type,
    props: Option<silica_ir::Attr>,
) {
    let old_type = rw.ir.value_type(rw.ir.result(op, 0));
    let loc = rw.ir.op_loc(op);
    let name = rw.ir.op_name(op);
    let attrs = rw.ir.op_attrs(op);
    let new = rw.create(silica_ir::OpSpec {
        name,
        loc,
        operands,
        result_types: &[new_type],
        successors: &[],
        regions: &[],
        attrs,
        props,
    });
    let v = rw.ir.result(new, 0);
    let cast = rw.create_simple("memref.cast", &[v], &[old_type], None, loc);
    let c = rw.ir.result(cast, 0);
    rw.replace_op(op, &[c]);
}

/// Whether `a` comes before `b` in their block.
fn is_before(ir: &Ir, a: OpId, b: OpId) -> bool {
    let mut p = ir.prev_op(b);
    while let Some(q) = p {
        if q == a {
            return true;
        }
        p = ir.prev_op(q);
    }
    false
}

fn is_named(ctx: &Context, ir: &Ir, op: OpId, name: &str) -> bool {
    ctx.str(ir.op_name(op)) == name
}

/// `memref.dim` of a `memref.reshape`: the size is loaded from the shape
/// operand just after the reshape (MLIR's `DimOfMemRefReshape`).
fn dim_of_reshape(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let (source, index) = (rw.ir.operand(op, 0), rw.ir.operand(op, 1));
    let Some(reshape) = rw
        .ir
        .defining_op(source)
        .filter(|&r| is_named(rw.ctx, rw.ir, r, "memref.reshape"))
    else {
        return false;
    };
    // The index must dominate the reshape, checked cheaply as MLIR does: in
    // the reshape's block it is defined before it (or is an argument);
    // elsewhere the dim is in the reshape's block or the index's region
    // encloses the reshape's.
    let reshape_block = rw.ir.op_block(reshape);
    let index_block = rw.ir.value_block(index);
    if index_block == reshape_block {
        if let Some(d) = rw.ir.defining_op(index) {
            if is_before(rw.ir, reshape, d) {
                return false;
            }
        }
    } else if rw.ir.op_block(op) != reshape_block {
        let index_region = index_block.and_then(|b| rw.ir.block_region(b));
        let reshape_region = reshape_block.and_then(|b| rw.ir.block_region(b));
        if !region_encloses(rw.ir, index_region, reshape_region) {
            return false;
        }
    }
    let shape = rw.ir.operand(reshape, 1);
    let TypeKind::MemRef { element, .. } = *rw.ctx.type_kind(rw.ir.value_type(shape)) else {
        return false;
    };
    let loc = rw.ir.op_loc(op);
    let dim_type = rw.ir.value_type(rw.ir.result(op, 0));
    rw.set_insertion_point_after(reshape);
    let load = rw.create_simple("memref.load", &[shape, index], &[element], None, loc);
    let mut value = rw.ir.result(load, 0);
    if element != dim_type {
        let cast = rw.create_simple("arith.index_cast", &[value], &[dim_type], None, loc);
        value = rw.ir.result(cast, 0);
    }
    rw.replace_op(op, &[value]);
    true
}

/// Whether region `outer` properly encloses region `inner`.
fn region_encloses(ir: &Ir, outer: Option<RegionId>, inner: Option<RegionId>) -> bool {
    let (Some(outer), Some(mut inner)) = (outer, inner) else {
        return false;
    };
    while let Some(parent) = ir
        .region_op(inner)
        .and_then(|op| ir.op_block(op))
        .and_then(|b| ir.block_region(b))
    {
        if parent == outer {
            return true;
        }
        inner = parent;
    }
    false
}

/// A subview of a whole static source with zero offsets and unit strides
/// and no dropped dimension is its source, cast to the result type when
/// that differs (MLIR's `TrivialSubViewOpFolder`).
fn trivial_subview(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let Some(lists) = MixedLists::of(rw.ctx, rw.ir, op) else {
        return false;
    };
    let source = rw.ir.operand(op, 0);
    let (source_type, result_type) = (
        rw.ir.value_type(source),
        rw.ir.value_type(rw.ir.result(op, 0)),
    );
    let (Some(from), Some(to)) = (
        crate::memref::verify::ranked(rw.ctx, source_type),
        crate::memref::verify::ranked(rw.ctx, result_type),
    ) else {
        return false;
    };
    let constant = |e: &Result<i64, ValueId>| match *e {
        Ok(c) => Some(c),
        Err(v) => constant_i64(rw.ctx, rw.ir, v),
    };
    let [offsets, sizes, strides] = &lists.lists;
    let trivial = from.shape.len() == to.shape.len()
        && offsets.iter().all(|e| constant(e) == Some(0))
        && strides.iter().all(|e| constant(e) == Some(1))
        && sizes
            .iter()
            .zip(&from.shape)
            .all(|(e, &d)| d != DYNAMIC && constant(e) == Some(d));
    if !trivial {
        return false;
    }
    if source_type == result_type {
        rw.replace_op(op, &[source]);
    } else {
        let loc = rw.ir.op_loc(op);
        let cast = rw.create_simple("memref.cast", &[source], &[result_type], None, loc);
        let c = rw.ir.result(cast, 0);
        rw.replace_op(op, &[c]);
    }
    true
}

/// An allocation only stored into and freed is erased with its users
/// (MLIR's `SimplifyDeadAlloc`).
fn dead_allocation(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let buffer = rw.ir.result(op, 0);
    let mut users = Vec::new();
    for u in rw.ir.uses(buffer) {
        let user = rw.ir.use_owner(u);
        let dead = match rw.ctx.str(rw.ir.op_name(user)) {
            "memref.store" => rw.ir.operand(user, 0) != buffer,
            "memref.dealloc" => true,
            _ => false,
        };
        if !dead {
            return false;
        }
        if !users.contains(&user) {
            users.push(user);
        }
    }
    for user in users {
        rw.erase_op(user);
    }
    rw.erase_op(op);
    true
}

/// `memref.alloc` / `memref.alloca` patterns.
pub static ALLOC: &[Pattern] = &[
    Pattern::new("SimplifyAllocConst", allocation_constant_sizes),
    Pattern::new("SimplifyDeadAlloc", dead_allocation),
];

/// `memref.realloc` patterns.
pub static REALLOC: &[Pattern] = &[Pattern::new("SimplifyDeadAlloc", dead_allocation)];

/// `memref.dim` patterns.
pub static DIM: &[Pattern] = &[Pattern::new("DimOfMemRefReshape", dim_of_reshape)];

/// A view op's offsets, sizes and strides, each static or a value.
pub(crate) struct MixedLists {
    pub(crate) lists: [Vec<Result<i64, ValueId>>; 3],
}

const LIST_NAMES: [&str; 3] = ["static_offsets", "static_sizes", "static_strides"];

impl MixedLists {
    /// The lists of `op`, whose dynamic values start at operand 1.
    pub(crate) fn of(ctx: &Context, ir: &Ir, op: OpId) -> Option<Self> {
        let mut dynamic = ir.operands(op).skip(1);
        let mut lists: [Vec<Result<i64, ValueId>>; 3] = Default::default();
        for (list, name) in lists.iter_mut().zip(LIST_NAMES) {
            let statics = inherent_attr(ctx, ir, op, name).and_then(|a| ctx.int_array_values(a))?;
            for s in statics {
                list.push(if s == DYNAMIC {
                    Err(dynamic.next()?)
                } else {
                    Ok(s)
                });
            }
        }
        Some(MixedLists { lists })
    }

    pub(crate) fn statics(&self, i: usize) -> Vec<i64> {
        self.lists[i].iter().map(|e| e.unwrap_or(DYNAMIC)).collect()
    }

    fn dynamic(&self, i: usize) -> Vec<ValueId> {
        self.lists[i].iter().filter_map(|e| e.err()).collect()
    }

    /// The operands (`source`, then the dynamic values) and properties
    /// (static lists and segment sizes) of an op with these lists.
    pub(crate) fn operands_and_props(
        &self,
        ctx: &mut Context,
        source: ValueId,
    ) -> (Vec<ValueId>, silica_ir::Attr) {
        let mut operands = vec![source];
        let mut segments = vec![1i64];
        let mut entries = Vec::new();
        for (i, name) in LIST_NAMES.iter().enumerate() {
            let dynamic = self.dynamic(i);
            segments.push(dynamic.len() as i64);
            operands.extend(dynamic);
            let statics = ctx.int_array_attr(64, &self.statics(i));
            entries.push((ctx.sym(name), statics));
        }
        let seg = ctx.int_array_attr(32, &segments);
        entries.push((ctx.sym("operandSegmentSizes"), seg));
        (operands, ctx.dict_attr(entries))
    }
}

/// The non-rank-reduced result type of a subview of `source` (MLIR's
/// `SubViewOp::inferResultType`), as shape, strides and offset.
fn subview_layout(
    ctx: &Context,
    source: Type,
    lists: &MixedLists,
) -> Option<(Vec<i64>, Vec<i64>, i64)> {
    let (base_strides, base_offset) = crate::memref::layout::strides_and_offset(ctx, source)?;
    let (mul, add) = (
        crate::memref::verify::sat_mul,
        crate::memref::verify::sat_add,
    );
    let mut offset = base_offset;
    for (&o, &s) in lists.statics(0).iter().zip(&base_strides) {
        offset = add(offset, mul(o, s));
    }
    let strides = base_strides
        .iter()
        .zip(lists.statics(2))
        .map(|(&a, b)| mul(a, b))
        .collect();
    Some((lists.statics(1), strides, offset))
}

/// A subview whose dynamic offsets, sizes or strides are constants: those
/// become static, the result type is inferred again (keeping the
/// dimensions the old one dropped) and cast to the old type (MLIR's
/// `OpWithOffsetSizesAndStridesConstantArgumentFolder`).
fn subview_constant_arguments(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let Some(old) = MixedLists::of(rw.ctx, rw.ir, op) else {
        return false;
    };
    let mut new = MixedLists {
        lists: old.lists.clone(),
    };
    let mut changed = false;
    for (i, list) in new.lists.iter_mut().enumerate() {
        for e in list.iter_mut() {
            if let Err(v) = *e {
                // Zero strides stay dynamic, as MLIR keeps them.
                let c = constant_i64(rw.ctx, rw.ir, v)
                    .filter(|&c| if i == 2 { c != 0 } else { c >= 0 });
                if let Some(c) = c {
                    *e = Ok(c);
                    changed = true;
                }
            }
        }
    }
    if !changed {
        return false;
    }
    let source = rw.ir.operand(op, 0);
    // No fold that would make the subview invalid.
    if let Some(parts) = crate::memref::verify::ranked(rw.ctx, rw.ir.value_type(source)) {
        let lists = [new.statics(0), new.statics(1), new.statics(2)];
        if crate::memref::verify::slice_out_of_bounds(&parts.shape, &lists[0], &lists[1], &lists[2])
            .is_some()
        {
            return false;
        }
    }
    rebuild_subview(rw, op, source, &old, &new)
}

/// Replaces subview `op` (with lists `old`) by a subview of `source` with
/// lists `new`, whose type is inferred again keeping the dimensions the
/// old result drops, cast to the old result type.
fn rebuild_subview(
    rw: &mut Rewriter<'_>,
    op: OpId,
    source: ValueId,
    old: &MixedLists,
    new: &MixedLists,
) -> bool {
    let old_source = rw.ir.value_type(rw.ir.operand(op, 0));
    let (source_type, old_type) = (
        rw.ir.value_type(source),
        rw.ir.value_type(rw.ir.result(op, 0)),
    );
    let Some(parts) = crate::memref::verify::ranked(rw.ctx, source_type) else {
        return false;
    };
    // The dimensions the old result drops.
    let Some((shape, strides, offset)) = subview_layout(rw.ctx, old_source, old) else {
        return false;
    };
    let old_full = strided_memref(rw.ctx, &shape, parts.element, offset, &strides, parts.space);
    let Some(dropped) = dropped_dims(rw.ctx, old_full, old_type, &old.statics(1)) else {
        return false;
    };
    let Some((shape, strides, offset)) = subview_layout(rw.ctx, source_type, new) else {
        return false;
    };
    let keep = |v: &[i64]| -> Vec<i64> {
        v.iter()
            .zip(&dropped)
            .filter(|(_, &d)| !d)
            .map(|(&x, _)| x)
            .collect()
    };
    let new_type = strided_memref(
        rw.ctx,
        &keep(&shape),
        parts.element,
        offset,
        &keep(&strides),
        parts.space,
    );
    let (operands, props) = new.operands_and_props(rw.ctx, source);
    replace_with_cast(rw, op, &operands, new_type, Some(props));
    true
}

/// Whether a `memref.cast` only loses static information, so that its
/// users may take its source instead (MLIR's `canFoldIntoConsumerOp`).
pub(crate) fn cast_only_loses_information(ctx: &Context, from: Type, to: Type) -> bool {
    let (Some(a), Some(b)) = (
        crate::memref::verify::ranked(ctx, from),
        crate::memref::verify::ranked(ctx, to),
    ) else {
        return false;
    };
    if a.element != b.element || a.shape.len() != b.shape.len() {
        return false;
    }
    let (Some((sa, oa)), Some((sb, ob))) = (
        crate::memref::layout::strides_and_offset(ctx, from),
        crate::memref::layout::strides_and_offset(ctx, to),
    ) else {
        return false;
    };
    let loses = |x: i64, y: i64| x == y || x != DYNAMIC || y == DYNAMIC;
    a.shape.iter().zip(&b.shape).all(|(&x, &y)| loses(x, y))
        && loses(oa, ob)
        && sa.iter().zip(&sb).all(|(&x, &y)| loses(x, y))
}

/// A subview of a `memref.cast` that only loses static information views
/// the cast's source (MLIR's `SubViewOpMemRefCastFolder`).
fn subview_of_cast(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let source = rw.ir.operand(op, 0);
    let Some(cast) = rw
        .ir
        .defining_op(source)
        .filter(|&c| is_named(rw.ctx, rw.ir, c, "memref.cast"))
    else {
        return false;
    };
    let operands: Vec<ValueId> = rw.ir.operands(op).collect();
    if operands[1..]
        .iter()
        .any(|&v| constant_i64(rw.ctx, rw.ir, v).is_some())
    {
        return false;
    }
    let inner = rw.ir.operand(cast, 0);
    let (from, to) = (rw.ir.value_type(inner), rw.ir.value_type(source));
    if !cast_only_loses_information(rw.ctx, from, to) {
        return false;
    }
    let Some(lists) = MixedLists::of(rw.ctx, rw.ir, op) else {
        return false;
    };
    let same = MixedLists {
        lists: lists.lists.clone(),
    };
    rebuild_subview(rw, op, inner, &lists, &same)
}

/// `memref.subview` patterns.
pub static SUBVIEW: &[Pattern] = &[
    Pattern::new(
        "OpWithOffsetSizesAndStridesConstantArgumentFolder",
        subview_constant_arguments,
    ),
    Pattern::new("SubViewOpMemRefCastFolder", subview_of_cast),
    Pattern::new("TrivialSubViewOpFolder", trivial_subview),
];
