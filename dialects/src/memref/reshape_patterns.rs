//! Canonicalization patterns of `memref.expand_shape` and
//! `memref.collapse_shape` beyond composing two reshapes of one kind:
//! a collapse of an expansion becomes one reshape (or a cast), and a
//! reshape of a `memref.cast` that only drops static information reshapes
//! the cast's source, cast back to the old type.

use crate::build::Builder;
use crate::memref::patterns::{compose_reshapes, reassociation_attr};
use crate::memref::verify::{
    collapsed_type, expanded_type, has_identity_layout, ranked, reassociation,
};
use silica_ir::dialect::inherent_attr;
use silica_ir::rewrite::fold::constant_i64;
use silica_ir::rewrite::{Pattern, Rewriter};
use silica_ir::types::DYNAMIC;
use silica_ir::{OpId, Type, ValueId};

/// An output size of an expansion: static, or a value.
type Size = Result<i64, ValueId>;

/// The output sizes of `expand_shape` `op`.
fn output_shape(rw: &Rewriter<'_>, op: OpId) -> Option<Vec<Size>> {
    let statics = inherent_attr(rw.ctx, rw.ir, op, "static_output_shape")
        .and_then(|a| rw.ctx.int_array_values(a))?;
    let mut dynamic = rw.ir.operands(op).skip(1);
    statics
        .into_iter()
        .map(|s| {
            if s == DYNAMIC {
                dynamic.next().map(Err)
            } else {
                Some(Ok(s))
            }
        })
        .collect()
}

/// Creates a reshape op `name` of `source` along `groups` to
/// `result_type` (with `sizes` for an expansion) at `op`'s location.
fn create_reshape(
    rw: &mut Rewriter<'_>,
    op: OpId,
    name: &str,
    source: ValueId,
    groups: &[Vec<i64>],
    result_type: Type,
    sizes: Option<&[Size]>,
) -> ValueId {
    let reassociation = reassociation_attr(rw.ctx, groups);
    let mut props = vec![(rw.ctx.sym("reassociation"), reassociation)];
    let mut operands = vec![source];
    if let Some(sizes) = sizes {
        let statics: Vec<i64> = sizes.iter().map(|s| s.unwrap_or(DYNAMIC)).collect();
        operands.extend(sizes.iter().filter_map(|s| s.err()));
        let key = rw.ctx.sym("static_output_shape");
        props.push((key, rw.ctx.int_array_attr(64, &statics)));
    }
    let props = rw.ctx.dict_attr(props);
    let loc = rw.ir.op_loc(op);
    let new = rw.create_simple(name, &operands, &[result_type], Some(props), loc);
    rw.ir.result(new, 0)
}

/// Replaces `op` by `value`, through a `memref.cast` when the types differ.
fn replace_casting(rw: &mut Rewriter<'_>, op: OpId, value: ValueId) {
    let old_type = rw.ir.value_type(rw.ir.result(op, 0));
    let value = if rw.ir.value_type(value) == old_type {
        value
    } else {
        let loc = rw.ir.op_loc(op);
        let cast = rw.create_simple("memref.cast", &[value], &[old_type], None, loc);
        rw.ir.result(cast, 0)
    };
    rw.replace_op(op, &[value]);
}

/// The source of the `memref.cast` defining `v`, when that cast only
/// drops static information.
fn folding_cast_source(rw: &Rewriter<'_>, v: ValueId) -> Option<ValueId> {
    let cast = rw.ir.defining_op(v)?;
    if rw.ctx.str(rw.ir.op_name(cast)) != "memref.cast" {
        return None;
    }
    let source = rw.ir.operand(cast, 0);
    let (from, to) = (rw.ir.value_type(source), rw.ir.value_type(v));
    crate::memref::patterns::cast_only_loses_information(rw.ctx, from, to).then_some(source)
}

/// A collapse of a `memref.cast` that only drops static information
/// collapses the cast's source (MLIR's `CollapseShapeOpMemRefCastFolder`).
fn collapse_of_cast(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let Some(source) = folding_cast_source(rw, rw.ir.operand(op, 0)) else {
        return false;
    };
    let Some(groups) = reassociation(rw.ctx, rw.ir, op) else {
        return false;
    };
    let source_type = rw.ir.value_type(source);
    let Some(new_type) = collapsed_type(rw.ctx, source_type, &groups) else {
        return false;
    };
    if new_type == rw.ir.value_type(rw.ir.result(op, 0)) {
        rw.set_operand(op, 0, source);
        return true;
    }
    let value = create_reshape(
        rw,
        op,
        "memref.collapse_shape",
        source,
        &groups,
        new_type,
        None,
    );
    replace_casting(rw, op, value);
    true
}

/// An expansion of a `memref.cast` that only drops static information
/// expands the cast's source when the constant output sizes make every
/// group static exactly where the source is, cast back to the old type.
fn expand_of_cast(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let Some(source) = folding_cast_source(rw, rw.ir.operand(op, 0)) else {
        return false;
    };
    let (Some(groups), Some(sizes)) = (reassociation(rw.ctx, rw.ir, op), output_shape(rw, op))
    else {
        return false;
    };
    let source_type = rw.ir.value_type(source);
    let Some(parts) = ranked(rw.ctx, source_type) else {
        return false;
    };
    let sizes: Vec<Size> = sizes
        .into_iter()
        .map(|s| match s {
            Err(v) => constant_i64(rw.ctx, rw.ir, v).filter(|&c| c >= 0).ok_or(v),
            ok => ok,
        })
        .collect();
    for (group, &dim) in groups.iter().zip(&parts.shape) {
        let mut product = Some(1i64);
        for &d in group {
            product = match sizes.get(d as usize) {
                Some(Ok(c)) => product.and_then(|p| p.checked_mul(*c)),
                _ => None,
            };
        }
        let fits = match product {
            Some(p) => p == dim,
            None => dim == DYNAMIC && group.iter().any(|&d| sizes[d as usize].is_err()),
        };
        if !fits {
            return false;
        }
    }
    let shape: Vec<i64> = sizes.iter().map(|s| s.unwrap_or(DYNAMIC)).collect();
    let Some(new_type) = expanded_type(rw.ctx, source_type, &shape, &groups) else {
        return false;
    };
    let value = create_reshape(
        rw,
        op,
        "memref.expand_shape",
        source,
        &groups,
        new_type,
        Some(&sizes),
    );
    replace_casting(rw, op, value);
    true
}

/// The groups composing a collapse of an expansion: each group of the
/// reassociation with fewer groups gathers consecutive groups of the other
/// (MLIR's `ComposeCollapseOfExpandOp`); `None` when they do not nest.
fn compose_collapse_of_expand(higher: &[Vec<i64>], lower: &[Vec<i64>]) -> Option<Vec<Vec<i64>>> {
    let mut next = 0usize;
    let mut composed = Vec::with_capacity(lower.len());
    for group in lower {
        let last = *group.last()?;
        let mut indices = Vec::new();
        while next < higher.len() {
            let rightmost = *higher[next].last()?;
            if rightmost > last {
                return None;
            }
            indices.push(next as i64);
            next += 1;
            if rightmost == last {
                break;
            }
        }
        composed.push(indices);
    }
    Some(composed)
}

/// A collapse of an expansion of identity-layout memrefs becomes one
/// collapse, one expansion (its sizes multiplied out of the old ones) or a
/// cast (MLIR's `ComposeCollapseOfExpandOp`).
fn collapse_of_expand(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let middle = rw.ir.operand(op, 0);
    let Some(expand) = rw.ir.defining_op(middle) else {
        return false;
    };
    if rw.ctx.str(rw.ir.op_name(expand)) != "memref.expand_shape" {
        return false;
    }
    let source = rw.ir.operand(expand, 0);
    let (source_type, result_type) = (
        rw.ir.value_type(source),
        rw.ir.value_type(rw.ir.result(op, 0)),
    );
    if [middle, source]
        .iter()
        .any(|&v| !has_identity_layout(rw.ctx, rw.ir.value_type(v)))
        || source_type == result_type
    {
        return false;
    }
    let (Some(src), Some(res)) = (ranked(rw.ctx, source_type), ranked(rw.ctx, result_type)) else {
        return false;
    };
    let (Some(expand_groups), Some(collapse_groups), Some(sizes)) = (
        reassociation(rw.ctx, rw.ir, expand),
        reassociation(rw.ctx, rw.ir, op),
        output_shape(rw, expand),
    ) else {
        return false;
    };
    let (src_rank, res_rank) = (src.shape.len(), res.shape.len());
    let (higher, lower) = if src_rank > res_rank {
        (&expand_groups, &collapse_groups)
    } else {
        (&collapse_groups, &expand_groups)
    };
    let Some(groups) = compose_collapse_of_expand(higher, lower) else {
        return false;
    };
    if src_rank > res_rank {
        let v = create_reshape(
            rw,
            op,
            "memref.collapse_shape",
            source,
            &groups,
            result_type,
            None,
        );
        rw.replace_op(op, &[v]);
        return true;
    }
    if src_rank == res_rank {
        let loc = rw.ir.op_loc(op);
        let cast = rw.create_simple("memref.cast", &[source], &[result_type], None, loc);
        let c = rw.ir.result(cast, 0);
        rw.replace_op(op, &[c]);
        return true;
    }
    // The new expansion's sizes: each collapsed group's sizes multiplied.
    let loc = rw.ir.op_loc(op);
    let mut new_sizes = Vec::with_capacity(collapse_groups.len());
    for group in &collapse_groups {
        let mut constant = 1i64;
        let mut dynamic = Vec::new();
        for &d in group {
            match sizes[d as usize] {
                Ok(c) => constant = constant.wrapping_mul(c),
                Err(v) => match constant_i64(rw.ctx, rw.ir, v) {
                    Some(c) => constant = constant.wrapping_mul(c),
                    None => dynamic.push(v),
                },
            }
        }
        let Some((&first, rest)) = dynamic.split_first() else {
            new_sizes.push(Ok(constant));
            continue;
        };
        let mut b = Builder { rw: &mut *rw, loc };
        let mut product = first;
        for &v in rest {
            product = b.binary("arith.muli", product, v, None);
        }
        if constant != 1 {
            let c = b.index_const(constant);
            product = b.binary("arith.muli", product, c, None);
        }
        new_sizes.push(Err(product));
    }
    let v = create_reshape(
        rw,
        op,
        "memref.expand_shape",
        source,
        &groups,
        result_type,
        Some(&new_sizes),
    );
    rw.replace_op(op, &[v]);
    true
}

/// `memref.collapse_shape` patterns.
pub static COLLAPSE: &[Pattern] = &[
    Pattern::new("ComposeReassociativeReshapeOps", compose_reshapes),
    Pattern::new("ComposeCollapseOfExpandOp", collapse_of_expand),
    Pattern::new("CollapseShapeOpMemRefCastFolder", collapse_of_cast),
];

/// `memref.expand_shape` patterns.
pub static EXPAND: &[Pattern] = &[
    Pattern::new("ComposeReassociativeReshapeOps", compose_reshapes),
    Pattern::new("ExpandShapeOpMemRefCastFolder", expand_of_cast),
];
