//! Folding and canonicalization of `affine.delinearize_index` and
//! `affine.linearize_index`, with the results of MLIR's: constant basis
//! values become static, constant indices fold, unit basis elements and
//! leading zeros drop, and a linearization and delinearization over the
//! same basis elements cancel (wholly, at their common tail, or where a
//! linearization takes consecutive results of a delinearization).

use crate::canonicalize::constant_ints;
use silica_dialects::build::Builder;
use silica_ir::affine::{AffineExpr, AffineMap, BinOp};
use silica_ir::dialect::inherent_attr;
use silica_ir::format::segment_sizes;
use silica_ir::rewrite::fold::constant_i64;
use silica_ir::rewrite::{FoldCtx, FoldResult, OpFoldResult, Pattern, Rewriter};
use silica_ir::types::DYNAMIC;
use silica_ir::{Attr, AttrKind, Context, Ir, OpId, ValueDef, ValueId};

const DELINEARIZE: &str = "affine.delinearize_index";
const LINEARIZE: &str = "affine.linearize_index";

/// One basis element: a static size or an SSA value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Size {
    Static(i64),
    Value(ValueId),
}

/// The mixed basis of `op`, whose dynamic values start at operand `at`.
fn mixed_basis(ctx: &Context, ir: &Ir, op: OpId, at: usize) -> Vec<Size> {
    let statics = inherent_attr(ctx, ir, op, "static_basis")
        .and_then(|a| ctx.int_array_values(a))
        .unwrap_or_default();
    let mut dynamic = ir.operands(op).skip(at);
    statics
        .into_iter()
        .map(|s| match s {
            DYNAMIC => dynamic.next().map_or(Size::Static(DYNAMIC), Size::Value),
            s => Size::Static(s),
        })
        .collect()
}

/// The bound of element `i` of `count` elements over `basis`: the first
/// element has none when the basis has no outer bound (one element less).
fn bound_at(basis: &[Size], count: usize, i: usize) -> Option<Size> {
    if count == basis.len() {
        basis.get(i).copied()
    } else {
        i.checked_sub(1).and_then(|j| basis.get(j).copied())
    }
}

/// `basis` without its outer bound, for `count` elements.
fn inner_basis(basis: &[Size], count: usize) -> &[Size] {
    &basis[(count == basis.len()) as usize..]
}

fn is_disjoint(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    inherent_attr(ctx, ir, op, "disjoint")
        .is_some_and(|a| matches!(ctx.attr_kind(a), AttrKind::Unit))
}

/// A delinearization: `linear into (basis)` with `results` results.
struct Delinearize {
    linear: ValueId,
    basis: Vec<Size>,
    results: usize,
}

impl Delinearize {
    fn of(ctx: &Context, ir: &Ir, op: OpId) -> Option<Self> {
        if ctx.str(ir.op_name(op)) != DELINEARIZE || ir.num_operands(op) == 0 {
            return None;
        }
        Some(Delinearize {
            linear: ir.operand(op, 0),
            basis: mixed_basis(ctx, ir, op, 1),
            results: ir.num_results(op),
        })
    }

    /// The bound of result `i` (none for an unbounded first result).
    fn bound(&self, i: usize) -> Option<Size> {
        bound_at(&self.basis, self.results, i)
    }

    /// The basis without its outer bound: the sizes that divide.
    fn inner(&self) -> &[Size] {
        inner_basis(&self.basis, self.results)
    }
}

/// A linearization: `[indices] by (basis)`.
struct Linearize {
    indices: Vec<ValueId>,
    basis: Vec<Size>,
    disjoint: bool,
}

impl Linearize {
    fn of(ctx: &Context, ir: &Ir, op: OpId) -> Option<Self> {
        if ctx.str(ir.op_name(op)) != LINEARIZE {
            return None;
        }
        let n = segment_sizes(ctx, ir, op)?.first().copied()?;
        Some(Linearize {
            indices: ir.operands(op).take(n).collect(),
            basis: mixed_basis(ctx, ir, op, n),
            disjoint: is_disjoint(ctx, ir, op),
        })
    }

    fn has_outer_bound(&self) -> bool {
        self.indices.len() == self.basis.len()
    }

    /// The bound of index `i` (none for an unbounded first index).
    fn bound(&self, i: usize) -> Option<Size> {
        bound_at(&self.basis, self.indices.len(), i)
    }

    /// The basis without its outer bound: the sizes that multiply.
    fn inner(&self) -> &[Size] {
        inner_basis(&self.basis, self.indices.len())
    }
}

/// The `static_basis` attribute and dynamic values of a mixed basis.
fn split_basis(ctx: &mut Context, basis: &[Size]) -> (Attr, Vec<ValueId>) {
    let mut statics = Vec::with_capacity(basis.len());
    let mut dynamic = Vec::new();
    for s in basis {
        match *s {
            Size::Static(v) => statics.push(v),
            Size::Value(v) => {
                statics.push(DYNAMIC);
                dynamic.push(v);
            }
        }
    }
    (ctx.int_array_attr(64, &statics), dynamic)
}

fn delinearize_props(ctx: &mut Context, basis: &[Size]) -> (Attr, Vec<ValueId>) {
    let (statics, dynamic) = split_basis(ctx, basis);
    let key = ctx.sym("static_basis");
    (ctx.dict_attr(vec![(key, statics)]), dynamic)
}

fn linearize_props(
    ctx: &mut Context,
    indices: usize,
    basis: &[Size],
    disjoint: bool,
) -> (Attr, Vec<ValueId>) {
    let (statics, dynamic) = split_basis(ctx, basis);
    let segments = ctx.int_array_attr(32, &[indices as i64, dynamic.len() as i64]);
    let mut entries = vec![
        (ctx.sym("operandSegmentSizes"), segments),
        (ctx.sym("static_basis"), statics),
    ];
    if disjoint {
        let unit = ctx.intern_attr(AttrKind::Unit);
        entries.push((ctx.sym("disjoint"), unit));
    }
    (ctx.dict_attr(entries), dynamic)
}

/// Creates `affine.delinearize_index linear into (basis)` with `results`
/// results at the insertion point.
fn build_delinearize(
    rw: &mut Rewriter<'_>,
    linear: ValueId,
    basis: &[Size],
    results: usize,
    loc: Attr,
) -> Vec<ValueId> {
    let (props, dynamic) = delinearize_props(rw.ctx, basis);
    let mut operands = vec![linear];
    operands.extend(dynamic);
    let index = rw.ctx.index_type();
    let types = vec![index; results];
    let op = rw.create_simple(DELINEARIZE, &operands, &types, Some(props), loc);
    rw.ir.results(op).collect()
}

/// Creates `affine.linearize_index [indices] by (basis)` at the insertion
/// point.
fn build_linearize(
    rw: &mut Rewriter<'_>,
    indices: &[ValueId],
    basis: &[Size],
    disjoint: bool,
    loc: Attr,
) -> ValueId {
    let (props, dynamic) = linearize_props(rw.ctx, indices.len(), basis, disjoint);
    let mut operands = indices.to_vec();
    operands.extend(dynamic);
    let index = rw.ctx.index_type();
    let op = rw.create_simple(LINEARIZE, &operands, &[index], Some(props), loc);
    rw.ir.result(op, 0)
}

fn zero(rw: &mut Rewriter<'_>, loc: Attr) -> ValueId {
    Builder { rw, loc }.index_const(0)
}

fn is_constant(ctx: &Context, ir: &Ir, v: ValueId, value: i64) -> bool {
    constant_i64(ctx, ir, v) == Some(value)
}

/// Rewrites `op` in place so that basis values defined by constants
/// become static (MLIR's `foldCstValueToCstAttrBasis`); `indices` is the
/// number of operands before the dynamic basis values.
fn fold_constant_basis(fc: &mut FoldCtx<'_>, op: OpId, indices: usize, linearize: bool) -> bool {
    let basis = mixed_basis(fc.ctx, fc.ir, op, indices);
    let folded: Vec<Size> = basis
        .iter()
        .map(|s| match *s {
            Size::Value(v) => constant_i64(fc.ctx, fc.ir, v).map_or(*s, Size::Static),
            s => s,
        })
        .collect();
    if folded == basis {
        return false;
    }
    let mut operands: Vec<ValueId> = fc.ir.operands(op).take(indices).collect();
    let (props, dynamic) = if linearize {
        let disjoint = is_disjoint(fc.ctx, fc.ir, op);
        linearize_props(fc.ctx, indices, &folded, disjoint)
    } else {
        delinearize_props(fc.ctx, &folded)
    };
    operands.extend(dynamic);
    fc.ir.set_operands(op, &operands);
    fc.ir.set_op_props(op, Some(props));
    true
}

fn index_attr(fc: &mut FoldCtx<'_>, v: i64) -> OpFoldResult {
    let index = fc.ctx.index_type();
    OpFoldResult::Attr(fc.ctx.int_attr(index, v))
}

/// `affine.delinearize_index`: constant basis values become static; a
/// single result is the linear index; a constant index over a static
/// basis folds to constants.
pub fn fold_delinearize(fc: &mut FoldCtx<'_>, op: OpId, c: &[Option<Attr>]) -> FoldResult {
    if fold_constant_basis(fc, op, 1, false) {
        return FoldResult::InPlace;
    }
    let Some(d) = Delinearize::of(fc.ctx, fc.ir, op) else {
        return FoldResult::Fail;
    };
    if d.results == 1 {
        return FoldResult::Results(vec![OpFoldResult::Value(d.linear)]);
    }
    let Some(mut high) = constant_ints(fc.ctx, c).first().copied().flatten() else {
        return FoldResult::Fail;
    };
    let mut sizes = Vec::new();
    for s in d.inner() {
        match *s {
            Size::Static(v) if v > 0 => sizes.push(v),
            _ => return FoldResult::Fail,
        }
    }
    let mut out = Vec::with_capacity(d.results);
    for &m in sizes.iter().rev() {
        out.push(high.rem_euclid(m));
        high = high.div_euclid(m);
    }
    out.push(high);
    out.reverse();
    let results = out.into_iter().map(|v| index_attr(fc, v)).collect();
    FoldResult::Results(results)
}

/// `affine.linearize_index`: constant basis values become static; no
/// index is zero, one index is itself, constant indices over a static
/// basis fold to a constant.
pub fn fold_linearize(fc: &mut FoldCtx<'_>, op: OpId, c: &[Option<Attr>]) -> FoldResult {
    let n = segment_sizes(fc.ctx, fc.ir, op)
        .and_then(|s| s.first().copied())
        .unwrap_or(0);
    if fold_constant_basis(fc, op, n, true) {
        return FoldResult::InPlace;
    }
    let Some(l) = Linearize::of(fc.ctx, fc.ir, op) else {
        return FoldResult::Fail;
    };
    match l.indices.len() {
        0 => return FoldResult::Results(vec![index_attr(fc, 0)]),
        1 => return FoldResult::value(l.indices[0]),
        _ => {}
    }
    let values: Option<Vec<i64>> = constant_ints(fc.ctx, &c[..n]).into_iter().collect();
    let Some(values) = values else {
        return FoldResult::Fail;
    };
    let mut total = 0i64;
    let mut stride = 1i64;
    let inner = l.inner();
    for (i, &v) in values.iter().enumerate().rev() {
        total = total.wrapping_add(v.wrapping_mul(stride));
        if i > 0 {
            match inner[i - 1] {
                Size::Static(s) => stride = stride.wrapping_mul(s),
                Size::Value(_) => return FoldResult::Fail,
            }
        }
    }
    FoldResult::Results(vec![index_attr(fc, total)])
}

/// Results whose basis element is 1 are zero; the others come from a
/// delinearization without those elements (MLIR's `DropUnitExtentBasis`).
fn drop_unit_extent_basis(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let Some(d) = Delinearize::of(rw.ctx, rw.ir, op) else {
        return false;
    };
    let unit: Vec<bool> = (0..d.results)
        .map(|i| d.bound(i) == Some(Size::Static(1)))
        .collect();
    if !unit.contains(&true) {
        return false;
    }
    let loc = rw.ir.op_loc(op);
    let c0 = zero(rw, loc);
    let basis: Vec<Size> = d
        .basis
        .iter()
        .copied()
        .filter(|&s| s != Size::Static(1))
        .collect();
    let kept = unit.iter().filter(|&&u| !u).count();
    let mut new_results = if kept > 0 {
        build_delinearize(rw, d.linear, &basis, kept, loc).into_iter()
    } else {
        Vec::new().into_iter()
    };
    let values: Vec<ValueId> = unit
        .iter()
        .map(|&u| {
            if u {
                c0
            } else {
                new_results.next().unwrap_or(c0)
            }
        })
        .collect();
    rw.replace_op(op, &values);
    true
}

/// `op` as a delinearization of a disjoint linearization, with it.
fn delinearize_of_disjoint_linearize(
    ctx: &Context,
    ir: &Ir,
    op: OpId,
) -> Option<(Delinearize, Linearize)> {
    let d = Delinearize::of(ctx, ir, op)?;
    let l = Linearize::of(ctx, ir, ir.defining_op(d.linear)?).filter(|l| l.disjoint)?;
    Some((d, l))
}

/// A delinearization of a disjoint linearization whose bases end alike:
/// those results are the linearization's indices (MLIR's
/// `CancelDelinearizeOfLinearizeDisjointExactTail`).
fn cancel_delinearize_of_linearize_tail(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let Some((d, l)) = delinearize_of_disjoint_linearize(rw.ctx, rw.ir, op) else {
        return false;
    };
    let (li, di) = (l.inner(), d.inner());
    let common = li
        .iter()
        .rev()
        .zip(di.iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    if common == 0 {
        return false;
    }
    let tail = l.indices[l.indices.len() - common..].to_vec();
    if common == li.len() && common == di.len() {
        rw.replace_op(op, &l.indices);
        return true;
    }
    let loc = rw.ir.op_loc(op);
    let head = &l.indices[..l.indices.len() - common];
    let lin_basis = &l.basis[..l.basis.len() - common];
    let new_lin = build_linearize(rw, head, lin_basis, true, loc);
    let delin_basis = &d.basis[..d.basis.len() - common];
    let mut values = build_delinearize(rw, new_lin, delin_basis, d.results - common, loc);
    values.extend(tail);
    rw.replace_op(op, &values);
    true
}

/// A delinearization of a disjoint linearization whose last basis
/// element is the product of several trailing delinearization elements:
/// the last index is delinearized on its own (MLIR's
/// `SplitDelinearizeSpanningLastLinearizeArg`).
fn split_delinearize_spanning_last(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let Some((d, l)) = delinearize_of_disjoint_linearize(rw.ctx, rw.ir, op) else {
        return false;
    };
    let Some(&Size::Static(last)) = l.inner().last() else {
        return false;
    };
    let mut product = 1i64;
    let mut count = 0;
    for s in d.inner().iter().rev() {
        let Size::Static(v) = *s else {
            return false;
        };
        product = product.saturating_mul(v);
        count += 1;
        if product >= last {
            break;
        }
    }
    if product != last || count < 2 {
        return false;
    }
    let loc = rw.ir.op_loc(op);
    let head = &l.indices[..l.indices.len() - 1];
    let new_lin = build_linearize(rw, head, &l.basis[..l.basis.len() - 1], true, loc);
    let split = d.basis.len() - count;
    let mut values = build_delinearize(rw, new_lin, &d.basis[..split], d.results - count, loc);
    let last_index = *l.indices.last().expect("indices");
    values.extend(build_delinearize(
        rw,
        last_index,
        &d.basis[split..],
        count,
        loc,
    ));
    rw.replace_op(op, &values);
    true
}

/// A leading constant-zero index drops (MLIR's `DropLinearizeLeadingZero`).
fn drop_linearize_leading_zero(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let Some(l) = Linearize::of(rw.ctx, rw.ir, op) else {
        return false;
    };
    if l.indices.len() < 2 || !is_constant(rw.ctx, rw.ir, l.indices[0], 0) {
        return false;
    }
    let basis = l.inner();
    let loc = rw.ir.op_loc(op);
    let v = build_linearize(rw, &l.indices[1..], basis, l.disjoint, loc);
    rw.replace_op(op, &[v]);
    true
}

/// Indices whose basis element is 1 drop when the linearization is
/// disjoint or they are zero (MLIR's
/// `DropLinearizeUnitComponentsIfDisjointOrZero`).
fn drop_linearize_unit_components(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let Some(l) = Linearize::of(rw.ctx, rw.ir, op) else {
        return false;
    };
    let drop: Vec<bool> = (0..l.indices.len())
        .map(|i| {
            l.bound(i) == Some(Size::Static(1))
                && (l.disjoint || is_constant(rw.ctx, rw.ir, l.indices[i], 0))
        })
        .collect();
    if !drop.contains(&true) {
        return false;
    }
    let loc = rw.ir.op_loc(op);
    let offset = (!l.has_outer_bound()) as usize;
    let indices: Vec<ValueId> = l
        .indices
        .iter()
        .zip(&drop)
        .filter(|(_, &d)| !d)
        .map(|(&v, _)| v)
        .collect();
    let basis: Vec<Size> = l
        .basis
        .iter()
        .enumerate()
        .filter(|(j, _)| !drop[j + offset])
        .map(|(_, &s)| s)
        .collect();
    let v = if indices.is_empty() {
        zero(rw, loc)
    } else {
        build_linearize(rw, &indices, &basis, l.disjoint, loc)
    };
    rw.replace_op(op, &[v]);
    true
}

/// Whether `v` is available just before `op`: an argument of a block
/// around it or the result of an op before it (or before an op around it).
fn available_before(ir: &Ir, v: ValueId, op: OpId) -> bool {
    let mut at = Some(op);
    while let Some(a) = at {
        let block = ir.op_block(a);
        match ir.value_def(v) {
            ValueDef::Argument { block: b, .. } if Some(b) == block => return true,
            ValueDef::Result { op: d, .. } if ir.op_block(d) == block && block.is_some() => {
                let mut p = ir.prev_op(a);
                while let Some(q) = p {
                    if q == d {
                        return true;
                    }
                    p = ir.prev_op(q);
                }
                return false;
            }
            _ => {}
        }
        at = ir.parent_op(a);
    }
    false
}

/// Consecutive results of one delinearization used as consecutive
/// indices of a linearization over the same sizes.
struct Run {
    delin: OpId,
    /// First linearization index of the run.
    index: usize,
    /// First delinearization result of the run.
    result: usize,
    len: usize,
    /// The sizes of the run's elements; `None` first when unbounded.
    sizes: Vec<Option<Size>>,
}

/// Which of a delinearization's result `k` a value is.
fn delin_result(ctx: &Context, ir: &Ir, v: ValueId) -> Option<(OpId, usize)> {
    match ir.value_def(v) {
        ValueDef::Result { op, index } if ctx.str(ir.op_name(op)) == DELINEARIZE => {
            Some((op, index as usize))
        }
        _ => None,
    }
}

/// The size of one run element: index `i` of `l` and result `k` of `d`;
/// `None` when they cannot be merged, `Some(None)` when unbounded.
fn element_size(
    ir: &Ir,
    l: &Linearize,
    i: usize,
    d: &Delinearize,
    k: usize,
    d_op: OpId,
) -> Option<Option<Size>> {
    match (l.bound(i), d.bound(k)) {
        (Some(a), Some(b)) => (a == b).then_some(Some(a)),
        (None, _) => (k == 0).then_some(None),
        (Some(a), None) => {
            let sound = l.disjoint || i == 0;
            let available = match a {
                Size::Static(_) => true,
                Size::Value(v) => available_before(ir, v, d_op),
            };
            (sound && available).then_some(Some(a))
        }
    }
}

/// The runs (of two or more elements) in a linearization's indices.
fn find_runs(ctx: &Context, ir: &Ir, l: &Linearize) -> Vec<Run> {
    let mut runs: Vec<Run> = Vec::new();
    let mut i = 0;
    while i < l.indices.len() {
        let Some((d_op, k)) = delin_result(ctx, ir, l.indices[i]) else {
            i += 1;
            continue;
        };
        let d = Delinearize::of(ctx, ir, d_op).expect("delinearize");
        let Some(first) = element_size(ir, l, i, &d, k, d_op) else {
            i += 1;
            continue;
        };
        let mut sizes = vec![first];
        let mut len = 1;
        while i + len < l.indices.len()
            && delin_result(ctx, ir, l.indices[i + len]) == Some((d_op, k + len))
        {
            match element_size(ir, l, i + len, &d, k + len, d_op) {
                Some(s @ Some(_)) => sizes.push(s),
                _ => break,
            }
            len += 1;
        }
        let overlaps = runs
            .iter()
            .any(|r| r.delin == d_op && k < r.result + r.len && r.result < k + len);
        if len >= 2 && !overlaps {
            runs.push(Run {
                delin: d_op,
                index: i,
                result: k,
                len,
                sizes,
            });
        }
        i += len;
    }
    runs
}

/// The product of sizes: a static size, or an `affine.apply` of the
/// dynamic ones created at the insertion point (MLIR's `computeProduct`).
fn product(rw: &mut Rewriter<'_>, sizes: &[Option<Size>], loc: Attr) -> Option<Size> {
    let mut expr = AffineExpr::Constant(1);
    let mut dynamic = Vec::new();
    for s in sizes {
        match (*s)? {
            Size::Static(v) => expr = expr.times(AffineExpr::Constant(v)),
            Size::Value(v) => {
                expr = expr.times(AffineExpr::Symbol(dynamic.len() as u32));
                dynamic.push(v);
            }
        }
    }
    if let AffineExpr::Constant(c) = expr {
        return Some(Size::Static(c));
    }
    let map = AffineMap {
        num_dims: 0,
        num_symbols: dynamic.len() as u32,
        results: Box::new([expr]),
    };
    let attr = rw.ctx.intern_attr(AttrKind::AffineMap(map));
    let key = rw.ctx.sym("map");
    let props = rw.ctx.dict_attr(vec![(key, attr)]);
    let index = rw.ctx.index_type();
    let op = rw.create_simple("affine.apply", &dynamic, &[index], Some(props), loc);
    Some(Size::Value(rw.ir.result(op, 0)))
}

/// Rebuilds delinearization `d_op` with each of its `runs` merged into
/// one result; the old results are recovered from the merged ones by
/// small delinearizations. Returns, per run, the merged value and size.
fn merge_delinearize(
    rw: &mut Rewriter<'_>,
    d_op: OpId,
    runs: &[&Run],
) -> Vec<(ValueId, Option<Size>)> {
    let d = Delinearize::of(rw.ctx, rw.ir, d_op).expect("delinearize");
    let loc = rw.ir.op_loc(d_op);
    rw.set_insertion_point(d_op);
    let products: Vec<Option<Size>> = runs.iter().map(|r| product(rw, &r.sizes, loc)).collect();
    if runs.len() == 1 && runs[0].result == 0 && runs[0].len == d.results {
        return vec![(d.linear, products[0])];
    }
    // The merged basis: one element per group of results.
    let mut basis: Vec<Option<Size>> = Vec::new();
    let mut group_of = vec![0usize; d.results];
    let mut k = 0;
    while k < d.results {
        match runs.iter().position(|r| r.result == k) {
            Some(g) => {
                basis.push(products[g]);
                group_of[k..k + runs[g].len].fill(basis.len() - 1);
                k += runs[g].len;
            }
            None => {
                basis.push(d.bound(k));
                group_of[k] = basis.len() - 1;
                k += 1;
            }
        }
    }
    let merged = build_delinearize(rw, d.linear, &without_unbounded(&basis), basis.len(), loc);
    let mut replacement: Vec<ValueId> = group_of.iter().map(|&g| merged[g]).collect();
    let mut by_result: Vec<&&Run> = runs.iter().collect();
    by_result.sort_by_key(|r| r.result);
    for r in by_result {
        let span = r.result..r.result + r.len;
        let part_basis: Vec<Size> = span.clone().filter_map(|k| d.bound(k)).collect();
        let part = build_delinearize(rw, merged[group_of[r.result]], &part_basis, r.len, loc);
        replacement[span].copy_from_slice(&part);
    }
    rw.replace_op(d_op, &replacement);
    runs.iter()
        .zip(products)
        .map(|(r, p)| (merged[group_of[r.result]], p))
        .collect()
}

/// A basis from per-element bounds, of which only the first may be
/// missing (then the op has no outer bound).
fn without_unbounded(bounds: &[Option<Size>]) -> Vec<Size> {
    bounds.iter().flatten().copied().collect()
}

/// A linearization of consecutive results of a delinearization over the
/// same sizes takes the merged result instead (MLIR's
/// `CancelLinearizeOfDelinearizePortion`).
fn cancel_linearize_of_delinearize(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let Some(l) = Linearize::of(rw.ctx, rw.ir, op) else {
        return false;
    };
    let runs = find_runs(rw.ctx, rw.ir, &l);
    if runs.is_empty() {
        return false;
    }
    let loc = rw.ir.op_loc(op);
    let mut merged_value = vec![None; runs.len()];
    let mut delins: Vec<OpId> = Vec::new();
    for r in &runs {
        if !delins.contains(&r.delin) {
            delins.push(r.delin);
        }
    }
    for d_op in delins {
        let of_d: Vec<usize> = (0..runs.len()).filter(|&i| runs[i].delin == d_op).collect();
        let refs: Vec<&Run> = of_d.iter().map(|&i| &runs[i]).collect();
        for (i, v) in of_d.into_iter().zip(merge_delinearize(rw, d_op, &refs)) {
            merged_value[i] = Some(v);
        }
    }
    rw.set_insertion_point(op);
    let current: Vec<ValueId> = rw.ir.operands(op).take(l.indices.len()).collect();
    let mut indices = Vec::new();
    let mut bounds: Vec<Option<Size>> = Vec::new();
    let mut i = 0;
    while i < current.len() {
        match runs.iter().position(|r| r.index == i) {
            Some(g) => {
                let (value, size) = merged_value[g].expect("merged");
                indices.push(value);
                bounds.push(size);
                i += runs[g].len;
            }
            None => {
                indices.push(current[i]);
                bounds.push(l.bound(i));
                i += 1;
            }
        }
    }
    let v = build_linearize(rw, &indices, &without_unbounded(&bounds), l.disjoint, loc);
    rw.replace_op(op, &[v]);
    true
}

/// `affine.delinearize_index` patterns.
pub static DELINEARIZE_PATTERNS: &[Pattern] = &[
    Pattern::new(
        "CancelDelinearizeOfLinearizeDisjointExactTail",
        cancel_delinearize_of_linearize_tail,
    ),
    Pattern::new("DropUnitExtentBasis", drop_unit_extent_basis),
    Pattern::new(
        "SplitDelinearizeSpanningLastLinearizeArg",
        split_delinearize_spanning_last,
    ),
];

/// `affine.linearize_index` patterns.
pub static LINEARIZE_PATTERNS: &[Pattern] = &[
    Pattern::new(
        "CancelLinearizeOfDelinearizePortion",
        cancel_linearize_of_delinearize,
    ),
    Pattern::new("DropLinearizeLeadingZero", drop_linearize_leading_zero),
    Pattern::new(
        "DropLinearizeUnitComponentsIfDisjointOrZero",
        drop_linearize_unit_components,
    ),
];

/// Replaces sums over all results of a delinearization weighted by their
/// strides (`r0 * 20 + r1 * 5 + r2` for `into (3, 4, 5)`) with its
/// linear index, appended as a new symbol; `None` when nothing matches.
pub fn cancel_delinearize_sums(
    ctx: &Context,
    ir: &Ir,
    map: &AffineMap,
    operands: &[ValueId],
) -> Option<(AffineMap, Vec<ValueId>)> {
    let mut canceller = SumCanceller {
        ctx,
        ir,
        map,
        operands,
        added: Vec::new(),
    };
    operands
        .iter()
        .any(|&v| delin_result(ctx, ir, v).is_some())
        .then_some(())?;
    let results: Vec<AffineExpr> = map.results.iter().map(|e| canceller.rewrite(e)).collect();
    if canceller.added.is_empty() {
        return None;
    }
    let mut new_operands = operands.to_vec();
    new_operands.extend(canceller.added.iter().copied());
    let new_map = AffineMap {
        num_dims: map.num_dims,
        num_symbols: map.num_symbols + canceller.added.len() as u32,
        results: results.into_boxed_slice(),
    };
    Some((new_map, new_operands))
}

/// State of [`cancel_delinearize_sums`]: the linear indices added.
struct SumCanceller<'a> {
    ctx: &'a Context,
    ir: &'a Ir,
    map: &'a AffineMap,
    operands: &'a [ValueId],
    added: Vec<ValueId>,
}

impl SumCanceller<'_> {
    fn operand_of(&self, id: &AffineExpr) -> Option<ValueId> {
        match *id {
            AffineExpr::Dim(i) => self.operands.get(i as usize).copied(),
            AffineExpr::Symbol(i) => self.operands.get((self.map.num_dims + i) as usize).copied(),
            _ => None,
        }
    }

    /// Splits `e` into `coefficient * term` pairs and a constant; terms
    /// that are not dims or symbols are rewritten inside first.
    fn decompose(&mut self, e: &AffineExpr, scale: i64, terms: &mut Vec<(AffineExpr, i64)>) -> i64 {
        match e {
            AffineExpr::Constant(c) => c.wrapping_mul(scale),
            AffineExpr::Dim(_) | AffineExpr::Symbol(_) => {
                add_term(terms, e.clone(), scale);
                0
            }
            AffineExpr::Binary(b) => {
                let (op, l, r) = &**b;
                match (op, l, r) {
                    (BinOp::Add, l, r) => {
                        self.decompose(l, scale, terms) + self.decompose(r, scale, terms)
                    }
                    (BinOp::Mul, x, AffineExpr::Constant(c))
                    | (BinOp::Mul, AffineExpr::Constant(c), x) => {
                        self.decompose(x, scale.wrapping_mul(*c), terms)
                    }
                    _ => {
                        let term = self.rewrite(l).apply(*op, self.rewrite(r));
                        add_term(terms, term, scale);
                        0
                    }
                }
            }
        }
    }

    /// `e` with each weighted sum of a delinearization's results replaced.
    fn rewrite(&mut self, e: &AffineExpr) -> AffineExpr {
        let mut terms = Vec::new();
        let constant = self.decompose(e, 1, &mut terms);
        let mut delins: Vec<OpId> = Vec::new();
        for (t, _) in &terms {
            if let Some((d, _)) = self
                .operand_of(t)
                .and_then(|v| delin_result(self.ctx, self.ir, v))
            {
                if !delins.contains(&d) {
                    delins.push(d);
                }
            }
        }
        for d_op in delins {
            self.cancel(d_op, &mut terms);
        }
        let mut out = AffineExpr::Constant(constant);
        for (t, c) in terms {
            if c != 0 {
                out = out.plus(t.times(AffineExpr::Constant(c)));
            }
        }
        out
    }

    /// Takes as many multiples of `d_op`'s linear index out of `terms` as
    /// every result's coefficient allows.
    fn cancel(&mut self, d_op: OpId, terms: &mut Vec<(AffineExpr, i64)>) {
        let Some(d) = Delinearize::of(self.ctx, self.ir, d_op) else {
            return;
        };
        let mut strides = vec![1i64; d.results];
        for k in (0..d.results.saturating_sub(1)).rev() {
            match d.inner()[k] {
                Size::Static(s) => strides[k] = strides[k + 1].saturating_mul(s),
                Size::Value(_) => return,
            }
        }
        // The term of each result, and the multiple every one allows.
        let mut at = Vec::with_capacity(d.results);
        let mut multiple = i64::MAX;
        for (k, &stride) in strides.iter().enumerate() {
            let result = self.ir.result(d_op, k);
            let Some(pos) = terms
                .iter()
                .position(|(t, _)| self.operand_of(t) == Some(result))
            else {
                return;
            };
            multiple = multiple.min(terms[pos].1 / stride);
            at.push(pos);
        }
        if multiple <= 0 {
            return;
        }
        for (k, pos) in at.into_iter().enumerate() {
            terms[pos].1 -= multiple * strides[k];
        }
        let index = match self.added.iter().position(|&v| v == d.linear) {
            Some(i) => i,
            None => {
                self.added.push(d.linear);
                self.added.len() - 1
            }
        };
        let symbol = AffineExpr::Symbol(self.map.num_symbols + index as u32);
        add_term(terms, symbol, multiple);
    }
}

fn add_term(terms: &mut Vec<(AffineExpr, i64)>, t: AffineExpr, c: i64) {
    match terms.iter_mut().find(|(x, _)| *x == t) {
        Some((_, k)) => *k = k.wrapping_add(c),
        None => terms.push((t, c)),
    }
}
