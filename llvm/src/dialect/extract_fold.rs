//! The fold of `llvm.extractvalue` (MLIR's `ExtractValueOp::fold`): an
//! extract of an extract reads the outer container at the joined
//! position; an extract of a constant (dense, struct array, sparse,
//! undef/poison/zero) is the element's constant; through a chain of
//! `llvm.insertvalue`, the value inserted at exactly the extracted
//! position replaces the extract, and inserts at unrelated positions are
//! skipped.

use silica_ir::dialect::{inherent_attr, set_inherent_attr};
use silica_ir::rewrite::{FoldCtx, FoldResult};
use silica_ir::{Attr, AttrKind, Context, OpId, ValueId};

/// The `position` of an extract or insert op.
fn position(fc: &FoldCtx<'_>, op: OpId) -> Option<Vec<i64>> {
    let a = inherent_attr(fc.ctx, fc.ir, op, "position")?;
    fc.ctx.int_array_values(a)
}

/// The `llvm.insertvalue` defining `v`, if one does (operands: the
/// container, then the inserted value).
fn insert_defining(fc: &FoldCtx<'_>, v: ValueId) -> Option<OpId> {
    let def = fc.ir.defining_op(v)?;
    (fc.ctx.str(fc.ir.op_name(def)) == "llvm.insertvalue").then_some(def)
}

/// Points the extract `op` at `container`, position `pos`.
fn retarget(fc: &mut FoldCtx<'_>, op: OpId, container: ValueId, pos: Option<&[i64]>) {
    fc.ir.set_operand(op, 0, container);
    if let Some(pos) = pos {
        let a = fc.ctx.int_array_attr(64, pos);
        set_inherent_attr(fc.ctx, fc.ir, op, "position", a);
    }
}

/// The element at `pos` of the constant aggregate `a`.
fn constant_element(ctx: &mut Context, a: Attr, pos: &[i64]) -> Option<Attr> {
    if crate::dialect::folds::value_attr_kind(ctx, a).is_some() {
        return Some(a);
    }
    let Some((&first, rest)) = pos.split_first() else {
        return Some(a);
    };
    let i = usize::try_from(first).ok()?;
    match ctx.attr_kind(a).clone() {
        AttrKind::Array(elements) => constant_element(ctx, *elements.get(i)?, rest),
        AttrKind::DenseElements { ty, values } => {
            let shape = ctx.shaped(ty)?.0?.to_vec();
            if pos.len() < shape.len() {
                return None;
            }
            let (index, rest) = pos.split_at(shape.len());
            let element = if values.len() == 1 {
                values[0]
            } else {
                values[linear_index(&shape, index)?]
            };
            constant_element(ctx, element, rest)
        }
        AttrKind::Sparse {
            ty,
            indices,
            values,
        } => {
            let (shape, element_ty) = ctx.shaped(ty)?;
            let shape = shape?.to_vec();
            if pos.len() != shape.len() {
                return None;
            }
            let (
                AttrKind::DenseElements { values: at, .. },
                AttrKind::DenseElements { values: vs, .. },
            ) = (
                ctx.attr_kind(indices).clone(),
                ctx.attr_kind(values).clone(),
            )
            else {
                return None;
            };
            let coords: Vec<i64> = at
                .iter()
                .map(|c| match ctx.attr_kind(*c) {
                    AttrKind::Integer { value, .. } => i64::try_from(value).ok(),
                    _ => None,
                })
                .collect::<Option<_>>()?;
            let found = coords.chunks(shape.len()).position(|c| c == pos);
            match found {
                Some(_) if vs.len() == 1 => Some(vs[0]),
                Some(k) => vs.get(k).copied(),
                None => match ctx.type_kind(element_ty) {
                    silica_ir::TypeKind::Float(_) => Some(ctx.intern_attr(AttrKind::Float {
                        ty: element_ty,
                        bits: 0,
                    })),
                    _ if ctx.int_width(element_ty).is_some() => Some(ctx.int_attr(element_ty, 0)),
                    _ => None,
                },
            }
        }
        _ => None,
    }
}

/// The row-major position of `index` in `shape`.
fn linear_index(shape: &[i64], index: &[i64]) -> Option<usize> {
    let mut at = 0i64;
    for (&n, &i) in shape.iter().zip(index) {
        if i < 0 || i >= n {
            return None;
        }
        at = at.checked_mul(n)?.checked_add(i)?;
    }
    usize::try_from(at).ok()
}

pub(crate) fn fold_extractvalue(
    fc: &mut FoldCtx<'_>,
    op: OpId,
    constants: &[Option<Attr>],
) -> FoldResult {
    let Some(pos) = position(fc, op) else {
        return FoldResult::Fail;
    };
    if let Some(c) = constants.first().copied().flatten() {
        return match constant_element(fc.ctx, c, &pos) {
            Some(e) => FoldResult::attr(e),
            None => FoldResult::Fail,
        };
    }
    let container = fc.ir.operand(op, 0);
    if let Some(inner) = fc.ir.defining_op(container) {
        if fc.ctx.str(fc.ir.op_name(inner)) == "llvm.extractvalue" {
            let Some(mut joined) = position(fc, inner) else {
                return FoldResult::Fail;
            };
            joined.extend_from_slice(&pos);
            let outer = fc.ir.operand(inner, 0);
            retarget(fc, op, outer, Some(&joined));
            return FoldResult::InPlace;
        }
    }
    let mut changed = false;
    let mut extract = pos.as_slice();
    let mut into_inserted = false;
    let mut insert = insert_defining(fc, container);
    while let Some(ins) = insert {
        let Some(ins_pos) = position(fc, ins) else {
            break;
        };
        if extract == ins_pos.as_slice() {
            return FoldResult::value(fc.ir.operand(ins, 1));
        }
        if extract.len() > ins_pos.len() && extract.starts_with(&ins_pos) {
            // The extracted element lies inside the inserted value.
            extract = &extract[ins_pos.len()..];
            into_inserted = true;
            let inserted = fc.ir.operand(ins, 1);
            insert = insert_defining(fc, inserted);
            if insert.is_none() {
                // A constant inserted value: its element.
                let element = silica_ir::rewrite::fold::constant_value(fc.ctx, fc.ir, inserted)
                    .and_then(|c| constant_element(fc.ctx, c, extract));
                if let Some(e) = element {
                    return FoldResult::attr(e);
                }
            }
            continue;
        }
        let common = extract.len().min(ins_pos.len());
        if extract[..common] == ins_pos[..common] {
            // The insert covers part of the extracted element.
            break;
        }
        let inner = fc.ir.operand(ins, 0);
        if !into_inserted {
            retarget(fc, op, inner, None);
            changed = true;
        }
        insert = insert_defining(fc, inner);
    }
    if changed {
        FoldResult::InPlace
    } else {
        FoldResult::Fail
    }
}
