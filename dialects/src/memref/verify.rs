//! Verifiers of the memref view ops, with MLIR's messages: the
//! offsets/sizes/strides lists of `subview` and `reinterpret_cast`,
//! `subview`'s inferred result type and rank reduction, `reshape`,
//! `expand_shape`/`collapse_shape` reassociations and layouts, `view`,
//! `cast` compatibility, `copy` and `realloc`.

use crate::memref::layout::strides_and_offset;
use silica_ir::dialect::inherent_attr;
use silica_ir::format::segment_sizes;
use silica_ir::parser::PResult;
use silica_ir::printer::type_to_string;
use silica_ir::types::DYNAMIC;
use silica_ir::verify::OpVerifier;
use silica_ir::{Attr, AttrKind, Context, OpId, Type, TypeKind};

/// A ranked memref type's parts.
pub(crate) struct MemRefParts {
    pub shape: Vec<i64>,
    pub element: Type,
    pub layout: Option<Attr>,
    pub space: Option<Attr>,
}

pub(crate) fn ranked(ctx: &Context, t: Type) -> Option<MemRefParts> {
    match ctx.type_kind(t) {
        TypeKind::MemRef {
            shape,
            element,
            layout,
            memory_space,
        } => Some(MemRefParts {
            shape: shape.to_vec(),
            element: *element,
            layout: *layout,
            space: *memory_space,
        }),
        _ => None,
    }
}

/// Element type and memory space of a ranked or unranked memref.
fn element_and_space(ctx: &Context, t: Type) -> Option<(Type, Option<Attr>)> {
    match ctx.type_kind(t) {
        TypeKind::MemRef {
            element,
            memory_space,
            ..
        }
        | TypeKind::UnrankedMemRef {
            element,
            memory_space,
        } => Some((*element, *memory_space)),
        _ => None,
    }
}

/// Whether a memref's layout is the identity (none, or a strided layout
/// whose map is the identity), as MLIR's `getLayout().isIdentity()`.
pub(crate) fn has_identity_layout(ctx: &Context, t: Type) -> bool {
    let Some(m) = ranked(ctx, t) else {
        return true;
    };
    match m.layout.map(|a| ctx.attr_kind(a)) {
        None => true,
        Some(AttrKind::StridedLayout { offset, strides }) => {
            *offset == 0 && (strides.is_empty() || strides[..] == [1])
        }
        Some(_) => false,
    }
}

/// The types of a view op's source (operand 0) and result.
fn source_and_result(ir: &silica_ir::Ir, op: OpId) -> (Type, Type) {
    (
        ir.value_type(ir.operand(op, 0)),
        ir.value_type(ir.result(op, 0)),
    )
}

/// Whether two extents agree (equal, or one of them dynamic).
fn extents_fit(p: i64, q: i64) -> bool {
    p == DYNAMIC || q == DYNAMIC || p == q
}

/// Whether two shapes agree extent by extent.
fn shapes_fit(a: &[i64], b: &[i64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(&p, &q)| extents_fit(p, q))
}

fn quoted(ctx: &Context, t: Type) -> String {
    format!("'{}'", type_to_string(ctx, t))
}

/// `a * b` where either may be dynamic (0 times anything is 0), as
/// MLIR's saturated integers.
pub(crate) fn sat_mul(a: i64, b: i64) -> i64 {
    if a == 0 || b == 0 {
        0
    } else if a == DYNAMIC || b == DYNAMIC {
        DYNAMIC
    } else {
        a.wrapping_mul(b)
    }
}

/// `a + b` where either may be dynamic.
pub(crate) fn sat_add(a: i64, b: i64) -> i64 {
    if a == DYNAMIC || b == DYNAMIC {
        DYNAMIC
    } else {
        a.wrapping_add(b)
    }
}

fn show_int(v: i64) -> String {
    if v == DYNAMIC {
        "dynamic".into()
    } else {
        v.to_string()
    }
}

/// The memref type with `shape`, `element`, the strided layout and
/// `space`.
pub(crate) fn strided_memref(
    ctx: &mut Context,
    shape: &[i64],
    element: Type,
    offset: i64,
    strides: &[i64],
    space: Option<Attr>,
) -> Type {
    let layout = ctx.intern_attr(AttrKind::StridedLayout {
        offset,
        strides: strides.into(),
    });
    ctx.intern_type(TypeKind::MemRef {
        shape: shape.into(),
        element,
        layout: Some(layout),
        memory_space: space,
    })
}

/// The memref type with `shape`, `element`, no layout and `space`.
fn plain_memref(ctx: &mut Context, shape: &[i64], element: Type, space: Option<Attr>) -> Type {
    ctx.intern_type(TypeKind::MemRef {
        shape: shape.into(),
        element,
        layout: None,
        memory_space: space,
    })
}

/// A reshape's result type is the `expected` one, or MLIR's "expected
/// {what} type to be ... but found ..." error.
fn check_reshaped_type(
    v: &mut OpVerifier<'_, '_>,
    op: OpId,
    what: &str,
    expected: Type,
    result: Type,
) -> PResult<()> {
    if expected == result {
        return Ok(());
    }
    let ctx = v.ctx();
    let msg = format!(
        "expected {what} type to be {} but found {}",
        quoted(ctx, expected),
        quoted(ctx, result)
    );
    Err(v.op_error(op, msg))
}

/// The static offsets, sizes and strides of a view op, and the numbers
/// of its dynamic ones.
struct MixedLists {
    statics: [Vec<i64>; 3],
    dynamic: [usize; 3],
}

fn mixed_lists(ctx: &Context, ir: &silica_ir::Ir, op: OpId) -> Option<MixedLists> {
    let get = |n| {
        inherent_attr(ctx, ir, op, n)
            .and_then(|a| ctx.int_array_values(a))
            .unwrap_or_default()
    };
    let sizes = segment_sizes(ctx, ir, op)?;
    Some(MixedLists {
        statics: [
            get("static_offsets"),
            get("static_sizes"),
            get("static_strides"),
        ],
        dynamic: [
            *sizes.get(1).unwrap_or(&0),
            *sizes.get(2).unwrap_or(&0),
            *sizes.get(3).unwrap_or(&0),
        ],
    })
}

/// MLIR's `OffsetSizeAndStrideOpInterface` checks: list ranks, static
/// entries against dynamic operands, no negative offsets or sizes.
fn verify_offset_size_stride(
    v: &mut OpVerifier<'_, '_>,
    op: OpId,
    lists: &MixedLists,
    max_ranks: [usize; 3],
) -> PResult<()> {
    let [offsets, sizes, strides] = &lists.statics;
    if !(offsets.len() == 1 && max_ranks[0] == 1) && offsets.len() != sizes.len() {
        let msg = format!(
            "expected mixed offsets rank to match mixed sizes rank ({} vs {}) so the rank of the result type is well-formed.",
            offsets.len(),
            sizes.len()
        );
        return Err(v.error(op, msg));
    }
    if sizes.len() != strides.len() {
        let msg = format!(
            "expected mixed sizes rank to match mixed strides rank ({} vs {}) so the rank of the result type is well-formed.",
            sizes.len(),
            strides.len()
        );
        return Err(v.error(op, msg));
    }
    for (i, name) in ["offset", "size", "stride"].into_iter().enumerate() {
        let values = &lists.statics[i];
        if values.len() != max_ranks[i] {
            let msg = format!(
                "expected {} {name} values, got {}",
                max_ranks[i],
                values.len()
            );
            return Err(v.error(op, msg));
        }
        let dynamic = values.iter().filter(|&&x| x == DYNAMIC).count();
        if dynamic != lists.dynamic[i] {
            let msg = format!(
                "expected the number of '{name}s' to match the number of dynamic entries in 'static_{name}s' ({} vs {dynamic})",
                lists.dynamic[i]
            );
            return Err(v.error(op, msg));
        }
    }
    for (name, values) in [("offsets", offsets), ("sizes", sizes)] {
        if let Some(x) = values.iter().find(|&&x| x < 0 && x != DYNAMIC) {
            let msg = format!("expected {name} to be non-negative, but got {x}");
            return Err(v.error(op, msg));
        }
    }
    Ok(())
}

/// `memref.reinterpret_cast`: the result type agrees with the static
/// sizes, offset and strides.
pub fn verify_reinterpret_cast(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let ir = v.ir();
    let (src, result) = source_and_result(ir, op);
    let Some(res) = ranked(v.ctx(), result) else {
        return Ok(());
    };
    let Some(lists) = mixed_lists(v.ctx(), ir, op) else {
        return Ok(());
    };
    let rank = res.shape.len();
    verify_offset_size_stride(v, op, &lists, [1, rank, rank])?;
    let ctx = v.ctx();
    let Some((src_element, src_space)) = element_and_space(ctx, src) else {
        return Ok(());
    };
    let (s, r) = (type_to_string(ctx, src), type_to_string(ctx, result));
    if src_space != res.space {
        let msg = format!(
            "different memory spaces specified for source type '{s}' and result memref type '{r}'"
        );
        return Err(v.error(op, msg));
    }
    if src_element != res.element {
        let msg = format!(
            "different element types specified for source type '{s}' and result memref type '{r}'"
        );
        return Err(v.error(op, msg));
    }
    let [offsets, sizes, strides] = &lists.statics;
    for (i, (&have, &want)) in res.shape.iter().zip(sizes).enumerate() {
        if have != DYNAMIC && have != want {
            let msg = format!(
                "expected result type with size = {} instead of {have} in dim = {i}",
                show_int(want)
            );
            return Err(v.error(op, msg));
        }
    }
    let Some((res_strides, res_offset)) = strides_and_offset(ctx, result) else {
        let msg = format!("expected result type to have strided layout but found '{r}'");
        return Err(v.error(op, msg));
    };
    let want = offsets.first().copied().unwrap_or(0);
    if res_offset != DYNAMIC && res_offset != want {
        let msg = format!(
            "expected result type with offset = {} instead of {res_offset}",
            show_int(want)
        );
        return Err(v.error(op, msg));
    }
    for (i, (&have, &want)) in res_strides.iter().zip(strides).enumerate() {
        if have != DYNAMIC && have != want {
            let msg = format!(
                "expected result type with stride = {} instead of {have} in dim = {i}",
                show_int(want)
            );
            return Err(v.error(op, msg));
        }
    }
    Ok(())
}

/// Which dimensions of `original` a rank-reduced `reduced` shape drops
/// (only size-1 ones may go), as MLIR's `computeRankReductionMask`.
fn rank_reduction_mask(original: &[i64], reduced: &[i64]) -> Option<Vec<bool>> {
    let mut dropped = vec![false; original.len()];
    let mut at = 0;
    for (i, &size) in original.iter().enumerate() {
        if at < reduced.len() && size == reduced[at] {
            at += 1;
            continue;
        }
        dropped[i] = true;
        if size != 1 {
            return None;
        }
    }
    (at == reduced.len()).then_some(dropped)
}

/// The dimensions a subview drops, told apart by their strides when
/// several are of size 1 (MLIR's `computeMemRefRankReductionMask`).
pub(crate) fn dropped_dims(
    ctx: &Context,
    expected: Type,
    actual: Type,
    static_sizes: &[i64],
) -> Option<Vec<bool>> {
    let (e, a) = (ranked(ctx, expected)?, ranked(ctx, actual)?);
    let mut dropped = vec![false; e.shape.len()];
    if e.shape.len() == a.shape.len() {
        return Some(dropped);
    }
    for (i, &s) in static_sizes.iter().enumerate() {
        if s == 1 && i < dropped.len() {
            dropped[i] = true;
        }
    }
    let count = |d: &[bool]| d.iter().filter(|&&x| x).count();
    if count(&dropped) + a.shape.len() == e.shape.len() {
        return Some(dropped);
    }
    let (e_strides, _) = strides_and_offset(ctx, expected)?;
    let (a_strides, _) = strides_and_offset(ctx, actual)?;
    let occurrences = |s: &[i64]| {
        let mut m = std::collections::BTreeMap::<i64, usize>::new();
        for &x in s {
            *m.entry(x).or_default() += 1;
        }
        m
    };
    let mut unaccounted = occurrences(&e_strides);
    let candidate = occurrences(&a_strides);
    for (dim, d) in dropped.iter_mut().enumerate() {
        if !*d {
            continue;
        }
        let stride = e_strides[dim];
        let have = unaccounted.get(&stride).copied().unwrap_or(0);
        let want = candidate.get(&stride).copied().unwrap_or(0);
        match have.cmp(&want) {
            std::cmp::Ordering::Greater => *unaccounted.entry(stride).or_default() -= 1,
            std::cmp::Ordering::Equal => *d = false,
            std::cmp::Ordering::Less => return None,
        }
    }
    (count(&dropped) + a.shape.len() == e.shape.len()).then_some(dropped)
}

/// `memref.subview`: the result is the inferred strided type or a
/// rank-reduced version of it, and static slices stay in bounds.
pub fn verify_subview(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let ir = v.ir();
    let (src, result) = source_and_result(ir, op);
    let (Some(base), Some(res)) = (ranked(v.ctx(), src), ranked(v.ctx(), result)) else {
        return Ok(());
    };
    let Some(lists) = mixed_lists(v.ctx(), ir, op) else {
        return Ok(());
    };
    let rank = base.shape.len();
    verify_offset_size_stride(v, op, &lists, [rank; 3])?;
    let ctx = v.ctx();
    let (s, r) = (type_to_string(ctx, src), type_to_string(ctx, result));
    if base.space != res.space {
        let msg = format!(
            "different memory spaces specified for base memref type '{s}' and subview memref type '{r}'"
        );
        return Err(v.error(op, msg));
    }
    let Some((base_strides, base_offset)) = strides_and_offset(ctx, src) else {
        return Err(v.error(op, format!("base type '{s}' is not strided")));
    };
    let [offsets, sizes, strides] = &lists.statics;
    let mut offset = base_offset;
    for (&o, &st) in offsets.iter().zip(&base_strides) {
        offset = sat_add(offset, sat_mul(o, st));
    }
    let target_strides: Vec<i64> = base_strides
        .iter()
        .zip(strides)
        .map(|(&a, &b)| sat_mul(a, b))
        .collect();
    let expected = strided_memref(
        v.ctx_mut()?,
        sizes,
        base.element,
        offset,
        &target_strides,
        base.space,
    );
    let ctx = v.ctx();
    let e = quoted(ctx, expected);
    let layout_mismatch = format!(
        "expected result type to be {e} or a rank-reduced version. (mismatch of result layout)"
    );
    if expected != result {
        if res.shape.len() > sizes.len() {
            let msg = format!(
                "expected result rank to be smaller or equal to the source rank, but got '{r}'"
            );
            return Err(v.error(op, msg));
        }
        if rank_reduction_mask(sizes, &res.shape).is_none() {
            let msg = format!(
                "expected result type to be {e} or a rank-reduced version. (mismatch of result sizes), but got '{r}'"
            );
            return Err(v.error(op, msg));
        }
        if base.element != res.element {
            let msg = format!(
                "expected result element type to be {}, but got '{r}'",
                quoted(ctx, base.element)
            );
            return Err(v.error(op, msg));
        }
        let offsets_agree = strides_and_offset(ctx, result).is_some_and(|(_, o)| o == offset);
        if !offsets_agree {
            return Err(v.error(op, layout_mismatch));
        }
        let Some(dropped) = dropped_dims(ctx, expected, result, sizes) else {
            return Err(v.error(op, layout_mismatch));
        };
        let res_strides = strides_and_offset(ctx, result).map(|(s, _)| s);
        let kept = target_strides
            .iter()
            .zip(&dropped)
            .filter(|(_, &d)| !d)
            .map(|(&s, _)| s);
        if !res_strides.is_some_and(|rs| kept.eq(rs.iter().copied())) {
            return Err(v.error(op, layout_mismatch));
        }
    }
    match slice_out_of_bounds(&base.shape, offsets, sizes, strides) {
        Some(msg) => Err(v.error(op, msg)),
        None => Ok(()),
    }
}

/// Why a slice with these static offsets, sizes and strides leaves a
/// source of `shape`, if it does (MLIR's `verifyInBoundsSlice`).
pub(crate) fn slice_out_of_bounds(
    shape: &[i64],
    offsets: &[i64],
    sizes: &[i64],
    strides: &[i64],
) -> Option<String> {
    for (i, (((&dim, &o), &size), &stride)) in shape
        .iter()
        .zip(offsets)
        .zip(sizes)
        .zip(strides)
        .enumerate()
    {
        if dim == DYNAMIC || o == DYNAMIC {
            continue;
        }
        if o >= dim {
            return Some(format!("offset {i} is out-of-bounds: {o} >= {dim}"));
        }
        if size != DYNAMIC && stride != DYNAMIC && size > 0 {
            let last = o + (size - 1) * stride;
            if last >= dim {
                return Some(format!(
                    "slice along dimension {i} runs out-of-bounds: {last} >= {dim}"
                ));
            }
        }
    }
    None
}

/// `memref.reshape`: same element types, identity layouts, and a shape
/// operand as long as the result's rank.
pub fn verify_reshape(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let ir = v.ir();
    let ctx = v.ctx();
    let (src, result) = source_and_result(ir, op);
    let shape = ir.value_type(ir.operand(op, 1));
    let (Some((se, _)), Some((re, _))) =
        (element_and_space(ctx, src), element_and_space(ctx, result))
    else {
        return Ok(());
    };
    if se != re {
        return Err(v.op_error(
            op,
            "element types of source and destination memref types should be the same",
        ));
    }
    if !has_identity_layout(ctx, src) {
        return Err(v.op_error(op, "source memref type should have identity affine map"));
    }
    let Some(res) = ranked(ctx, result) else {
        return Ok(());
    };
    let length = ranked(ctx, shape).and_then(|m| m.shape.first().copied());
    if !has_identity_layout(ctx, result) {
        return Err(v.op_error(op, "result memref type should have identity affine map"));
    }
    if length == Some(DYNAMIC) {
        return Err(v.op_error(
            op,
            "cannot use shape operand with dynamic length to reshape to statically-ranked memref type",
        ));
    }
    if length != Some(res.shape.len() as i64) {
        return Err(v.op_error(
            op,
            "length of shape operand differs from the result's memref rank",
        ));
    }
    Ok(())
}

/// The `reassociation` groups of a reshape op.
pub fn reassociation(ctx: &Context, ir: &silica_ir::Ir, op: OpId) -> Option<Vec<Vec<i64>>> {
    let a = inherent_attr(ctx, ir, op, "reassociation")?;
    let AttrKind::Array(groups) = ctx.attr_kind(a) else {
        return None;
    };
    groups
        .iter()
        .map(|g| match ctx.attr_kind(*g) {
            AttrKind::Array(xs) => xs
                .iter()
                .map(|x| match ctx.attr_kind(*x) {
                    AttrKind::Integer { value, .. } => i64::try_from(value).ok(),
                    _ => None,
                })
                .collect(),
            _ => None,
        })
        .collect()
}

/// MLIR's `verifyCollapsedShape`: one contiguous group per collapsed
/// dimension, whose sizes multiply to it (dynamic exactly when one of
/// them is).
fn verify_collapsed_shape(
    v: &mut OpVerifier<'_, '_>,
    op: OpId,
    collapsed: &[i64],
    expanded: &[i64],
    groups: &[Vec<i64>],
) -> PResult<()> {
    if collapsed.len() != groups.len() {
        let msg = format!(
            "invalid number of reassociation groups: found {}, expected {}",
            groups.len(),
            collapsed.len()
        );
        return Err(v.op_error(op, msg));
    }
    let mut next = 0i64;
    for (dim, group) in groups.iter().enumerate() {
        let mut dynamic = false;
        for &d in group {
            if d != next {
                return Err(v.op_error(op, "reassociation indices must be contiguous"));
            }
            next += 1;
            let Some(&size) = usize::try_from(d).ok().and_then(|d| expanded.get(d)) else {
                return Err(v.op_error(op, format!("reassociation index {d} is out of bounds")));
            };
            dynamic |= size == DYNAMIC;
        }
        if (collapsed[dim] == DYNAMIC) != dynamic {
            let msg = format!(
                "collapsed dim ({dim}) must be dynamic if and only if reassociation group is dynamic"
            );
            return Err(v.op_error(op, msg));
        }
        if !dynamic {
            let product = group
                .iter()
                .fold(1i64, |acc, &d| acc.wrapping_mul(expanded[d as usize]));
            if product != collapsed[dim] {
                let msg = format!(
                    "collapsed dim size ({}) must equal reassociation group size ({product})",
                    collapsed[dim]
                );
                return Err(v.op_error(op, msg));
            }
        }
    }
    if collapsed.is_empty() {
        if expanded.iter().any(|&d| d != 1) {
            return Err(v.op_error(
                op,
                "rank 0 memrefs can only be extended/collapsed with/from ones",
            ));
        }
    } else if next != expanded.len() as i64 {
        let msg = format!(
            "expanded rank ({}) inconsistent with number of reassociation indices ({next})",
            expanded.len()
        );
        return Err(v.op_error(op, msg));
    }
    Ok(())
}

/// The type of expanding `src` to `shape` along `groups`: the source's
/// layout spread over the new dimensions (MLIR's
/// `ExpandShapeOp::computeExpandedType`); `None` for a layout that is not
/// strided.
pub(crate) fn expanded_type(
    ctx: &mut Context,
    src: Type,
    shape: &[i64],
    groups: &[Vec<i64>],
) -> Option<Type> {
    let s = ranked(ctx, src)?;
    if has_identity_layout(ctx, src) {
        return Some(plain_memref(ctx, shape, s.element, s.space));
    }
    let (strides, offset) = strides_and_offset(ctx, src)?;
    let rank = shape.len();
    let mut reversed = Vec::with_capacity(rank);
    let mut at = rank;
    for (group, &stride) in groups.iter().zip(&strides).rev() {
        let mut current = stride;
        for _ in group {
            reversed.push(current);
            at = at.saturating_sub(1);
            current = sat_mul(current, shape[at]);
        }
    }
    let mut result_strides: Vec<i64> = reversed.into_iter().rev().collect();
    result_strides.resize(rank, 1);
    Some(strided_memref(
        ctx,
        shape,
        s.element,
        offset,
        &result_strides,
        s.space,
    ))
}

/// The type of collapsing `src` along `groups` (MLIR's
/// `CollapseShapeOp::computeCollapsedType`); `None` when the collapsed
/// dimensions are not contiguous.
pub(crate) fn collapsed_type(ctx: &mut Context, src: Type, groups: &[Vec<i64>]) -> Option<Type> {
    let s = ranked(ctx, src)?;
    let shape: Vec<i64> = groups
        .iter()
        .map(|g| {
            g.iter().fold(1i64, |acc, &d| {
                sat_mul(acc, s.shape.get(d as usize).copied().unwrap_or(DYNAMIC))
            })
        })
        .collect();
    if has_identity_layout(ctx, src) {
        return Some(plain_memref(ctx, &shape, s.element, s.space));
    }
    let (strides, offset) = collapsed_layout(ctx, src, groups)?;
    Some(strided_memref(
        ctx, &shape, s.element, offset, &strides, s.space,
    ))
}

/// `memref.expand_shape`: a real expansion along the reassociation, to
/// the layout the source's strides give, with output sizes that agree.
pub fn verify_expand_shape(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let ir = v.ir();
    let (src, result) = source_and_result(ir, op);
    let (Some(s), Some(r)) = (ranked(v.ctx(), src), ranked(v.ctx(), result)) else {
        return Ok(());
    };
    let (r0, r1) = (s.shape.len(), r.shape.len());
    if r0 > r1 {
        let msg = format!(
            "has source rank {r0} and result rank {r1}. This is not an expansion ({r0} > {r1})."
        );
        return Err(v.op_error(op, msg));
    }
    let groups = reassociation(v.ctx(), ir, op).unwrap_or_default();
    verify_collapsed_shape(v, op, &s.shape, &r.shape, &groups)?;
    let Some(expected) = expanded_type(v.ctx_mut()?, src, &r.shape, &groups) else {
        return Err(v.op_error(op, "invalid source layout map"));
    };
    check_reshaped_type(v, op, "expanded", expected, result)?;
    let ctx = v.ctx();
    let static_shape = inherent_attr(ctx, ir, op, "static_output_shape")
        .and_then(|a| ctx.int_array_values(a))
        .unwrap_or_default();
    if static_shape.len() != r1 {
        let msg = format!(
            "expected number of static shape bounds to be equal to the output rank ({r1}) but found {} inputs instead",
            static_shape.len()
        );
        return Err(v.op_error(op, msg));
    }
    let dynamic = static_shape.iter().filter(|&&d| d == DYNAMIC).count();
    let given = ir.num_operands(op) - 1;
    if given != dynamic {
        let msg = format!(
            "mismatch in dynamic dims in output_shape and static_output_shape: static_output_shape has {dynamic} dynamic dims while output_shape has {given} values"
        );
        return Err(v.op_error(op, msg));
    }
    for (pos, (&have, &given)) in r.shape.iter().zip(&static_shape).enumerate() {
        if have != DYNAMIC && have != given {
            return Err(v.op_error(op, format!("invalid output shape provided at pos {pos}")));
        }
    }
    Ok(())
}

/// The strided layout of collapsing `src` along `groups`, if the
/// collapsed dimensions are contiguous (MLIR's non-strict
/// `computeCollapsedLayoutMap`).
fn collapsed_layout(ctx: &Context, src: Type, groups: &[Vec<i64>]) -> Option<(Vec<i64>, i64)> {
    let shape = ranked(ctx, src)?.shape;
    let (strides, offset) = strides_and_offset(ctx, src)?;
    let mut result = Vec::with_capacity(groups.len());
    for group in groups {
        let mut g: &[i64] = group;
        while g.len() > 1 && shape[*g.last()? as usize] == 1 {
            g = &g[..g.len() - 1];
        }
        let last = *g.last()? as usize;
        if shape[last] != DYNAMIC || g.len() == 1 {
            result.push(strides[last]);
        } else {
            result.push(DYNAMIC);
        }
    }
    for (group, &stride) in groups.iter().zip(&result).rev() {
        let mut stride = stride;
        for &idx in group.iter().skip(1).rev() {
            let idx = idx as usize;
            stride = if stride == DYNAMIC || shape[idx] == DYNAMIC {
                DYNAMIC
            } else {
                stride.wrapping_mul(shape[idx])
            };
            if shape[idx - 1] == 1 {
                continue;
            }
            let src_stride = strides[idx - 1];
            if stride != DYNAMIC && src_stride != DYNAMIC && stride != src_stride {
                return None;
            }
        }
    }
    Some((result, offset))
}

/// `memref.collapse_shape`: a real collapse along the reassociation, of
/// contiguous dimensions, to the layout they give.
pub fn verify_collapse_shape(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let ir = v.ir();
    let (src, result) = source_and_result(ir, op);
    let (Some(s), Some(r)) = (ranked(v.ctx(), src), ranked(v.ctx(), result)) else {
        return Ok(());
    };
    let (r0, r1) = (s.shape.len(), r.shape.len());
    if r0 < r1 {
        let msg = format!(
            "has source rank {r0} and result rank {r1}. This is not a collapse ({r0} < {r1})."
        );
        return Err(v.op_error(op, msg));
    }
    let groups = reassociation(v.ctx(), ir, op).unwrap_or_default();
    verify_collapsed_shape(v, op, &r.shape, &s.shape, &groups)?;
    let expected = if has_identity_layout(v.ctx(), src) {
        plain_memref(v.ctx_mut()?, &r.shape, s.element, s.space)
    } else {
        let Some((strides, offset)) = collapsed_layout(v.ctx(), src, &groups) else {
            return Err(v.op_error(
                op,
                "invalid source layout map or collapsing non-contiguous dims",
            ));
        };
        strided_memref(v.ctx_mut()?, &r.shape, s.element, offset, &strides, s.space)
    };
    check_reshaped_type(v, op, "collapsed", expected, result)
}

/// `memref.view`: identity layouts, one memory space, and a size operand
/// per dynamic dimension.
pub fn verify_view(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let ir = v.ir();
    let ctx = v.ctx();
    let (src, result) = source_and_result(ir, op);
    let (Some(s), Some(r)) = (ranked(ctx, src), ranked(ctx, result)) else {
        return Ok(());
    };
    let (st, rt) = (quoted(ctx, src), quoted(ctx, result));
    if !has_identity_layout(ctx, src) {
        return Err(v.error(op, format!("unsupported map for base memref type {st}")));
    }
    if !has_identity_layout(ctx, result) {
        return Err(v.error(op, format!("unsupported map for result memref type {rt}")));
    }
    if s.space != r.space {
        let msg = format!(
            "different memory spaces specified for base memref type {st} and view memref type {rt}"
        );
        return Err(v.error(op, msg));
    }
    let dynamic = r.shape.iter().filter(|&&d| d == DYNAMIC).count();
    let given = ir.num_operands(op) - 2;
    if given != dynamic {
        let msg = format!("incorrect number of dynamic sizes, has {given}, expected {dynamic}");
        return Err(v.error(op, msg));
    }
    Ok(())
}

/// Whether `memref.cast` may cast `a` to `b` (MLIR's
/// `CastOp::areCastCompatible`).
fn cast_compatible(ctx: &Context, a: Type, b: Type) -> bool {
    match (ranked(ctx, a), ranked(ctx, b)) {
        (Some(x), Some(y)) => {
            if x.element != y.element {
                return false;
            }
            if x.layout != y.layout {
                let (Some((xs, xo)), Some((ys, yo))) =
                    (strides_and_offset(ctx, a), strides_and_offset(ctx, b))
                else {
                    return false;
                };
                if !extents_fit(xo, yo) || !shapes_fit(&xs, &ys) {
                    return false;
                }
            }
            x.space == y.space && shapes_fit(&x.shape, &y.shape)
        }
        (None, None) => false,
        _ => match (element_and_space(ctx, a), element_and_space(ctx, b)) {
            (Some(x), Some(y)) => x == y,
            _ => false,
        },
    }
}

/// `memref.cast` between compatible types.
pub fn verify_cast(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let ir = v.ir();
    let ctx = v.ctx();
    let a = ir.value_type(ir.operand(op, 0));
    let b = ir.value_type(ir.result(op, 0));
    if !cast_compatible(ctx, a, b) {
        let msg = format!(
            "operand type {} and result type {} are cast incompatible",
            quoted(ctx, a),
            quoted(ctx, b)
        );
        return Err(v.error(op, msg));
    }
    Ok(())
}

/// `memref.copy`: operands of one shape (where both are ranked) and one
/// element type.
pub fn verify_copy(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let ir = v.ir();
    let ctx = v.ctx();
    let a = ir.value_type(ir.operand(op, 0));
    let b = ir.value_type(ir.operand(op, 1));
    if let (Some(x), Some(y)) = (ranked(ctx, a), ranked(ctx, b)) {
        if !shapes_fit(&x.shape, &y.shape) {
            return Err(v.op_error(op, "requires the same shape for all operands"));
        }
    }
    let elements = (element_and_space(ctx, a), element_and_space(ctx, b));
    if let (Some((x, _)), Some((y, _))) = elements {
        if x != y {
            return Err(v.op_error(op, "requires the same element type for all operands"));
        }
    }
    Ok(())
}

/// `memref.realloc`: identity layouts, one memory space and element
/// type, and a size operand exactly when the result is dynamic.
pub fn verify_realloc(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let ir = v.ir();
    let ctx = v.ctx();
    let (src, result) = source_and_result(ir, op);
    let (Some(s), Some(r)) = (ranked(ctx, src), ranked(ctx, result)) else {
        return Ok(());
    };
    let (st, rt) = (quoted(ctx, src), quoted(ctx, result));
    if !has_identity_layout(ctx, src) {
        return Err(v.error(
            op,
            format!("unsupported layout for source memref type {st}"),
        ));
    }
    if !has_identity_layout(ctx, result) {
        return Err(v.error(
            op,
            format!("unsupported layout for result memref type {rt}"),
        ));
    }
    if s.space != r.space {
        let msg = format!(
            "different memory spaces specified for source memref type {st} and result memref type {rt}"
        );
        return Err(v.error(op, msg));
    }
    if s.element != r.element {
        let msg = format!(
            "different element types specified for source memref type {st} and result memref type {rt}"
        );
        return Err(v.error(op, msg));
    }
    let dynamic = r.shape.contains(&DYNAMIC);
    let given = ir.num_operands(op) > 1;
    if dynamic && !given {
        return Err(v.error(
            op,
            format!("missing dimension operand for result type {rt}"),
        ));
    }
    if !dynamic && given {
        return Err(v.error(
            op,
            format!("unnecessary dimension operand for result type {rt}"),
        ));
    }
    Ok(())
}

/// The number of symbols of a memref layout's affine map (a strided
/// layout has one per dynamic offset or stride).
fn layout_symbols(ctx: &Context, layout: Option<Attr>) -> usize {
    match layout.map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::AffineMap(m)) => m.num_symbols as usize,
        Some(AttrKind::StridedLayout { offset, strides }) => std::iter::once(offset)
            .chain(strides.iter())
            .filter(|&&x| x == DYNAMIC)
            .count(),
        _ => 0,
    }
}

/// `memref.alloc`/`alloca`: a size operand per dynamic dimension and a
/// symbol operand per layout symbol; `alloca` inside an allocation scope.
pub fn verify_alloc(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    if ctx.str(ir.op_name(op)) == "memref.alloca" {
        let mut parent = ir.parent_op(op);
        while let Some(p) = parent {
            let scope = ctx
                .op_def(ir.op_name(p))
                .is_some_and(|d| d.traits.has(silica_ir::dialect::Traits::ALLOCATION_SCOPE));
            if scope {
                break;
            }
            parent = ir.parent_op(p);
        }
        if parent.is_none() {
            return Err(v.op_error(
                op,
                "requires an ancestor op with AutomaticAllocationScope trait",
            ));
        }
    }
    let Some(m) = ranked(ctx, ir.value_type(ir.result(op, 0))) else {
        return Ok(());
    };
    let sizes = segment_sizes(ctx, ir, op).unwrap_or_default();
    let (dynamic, symbols) = (
        sizes.first().copied().unwrap_or(0),
        sizes.get(1).copied().unwrap_or(0),
    );
    let expected = m.shape.iter().filter(|&&d| d == DYNAMIC).count();
    if dynamic != expected {
        let msg = format!("incorrect number of dynamic sizes, has {dynamic}, expected {expected}");
        return Err(v.op_error(op, msg));
    }
    let expected = layout_symbols(ctx, m.layout);
    if symbols != expected {
        let msg = format!(
            "symbol operand count does not equal memref symbol count: expected {expected}, got {symbols}"
        );
        return Err(v.op_error(op, msg));
    }
    Ok(())
}
