//! Memref layouts as strides and an offset (MLIR's
//! `getStridesAndOffset`): identity layouts, `strided<...>`, and affine
//! maps that are sums of strided terms.

use silica_ir::types::DYNAMIC;
use silica_ir::{AttrKind, Context, Type, TypeKind};

/// Strides and offset of a memref type ([`DYNAMIC`] where unknown);
/// `None` for layouts that are not strided.
pub fn strides_and_offset(ctx: &Context, t: Type) -> Option<(Vec<i64>, i64)> {
    let TypeKind::MemRef { shape, layout, .. } = ctx.type_kind(t) else {
        return None;
    };
    let identity = |shape: &[i64]| {
        let mut strides = vec![0; shape.len()];
        let mut running = 1i64;
        for i in (0..shape.len()).rev() {
            strides[i] = running;
            running = if running == DYNAMIC || shape[i] == DYNAMIC {
                DYNAMIC
            } else {
                running.checked_mul(shape[i])?
            };
        }
        Some((strides, 0))
    };
    match layout.map(|a| ctx.attr_kind(a)) {
        None => identity(shape),
        Some(AttrKind::StridedLayout { offset, strides }) => Some((strides.to_vec(), *offset)),
        Some(AttrKind::AffineMap(m))
            if m.num_symbols == 0
                && m.results.len() == m.num_dims as usize
                && m.results
                    .iter()
                    .enumerate()
                    .all(|(i, e)| *e == silica_ir::affine::AffineExpr::Dim(i as u32)) =>
        {
            identity(shape)
        }
        Some(AttrKind::AffineMap(m)) if m.results.len() == 1 => {
            let mut strides = vec![0; m.num_dims as usize];
            let mut offset = 0i64;
            strided_terms(&m.results[0], &mut strides, &mut offset)?;
            Some((strides, offset))
        }
        _ => None,
    }
}

/// Adds the terms of a strided layout expression (`d0 * 20 + d1 * s0 +
/// s1 + 1`): dimension coefficients to `strides`, the rest to `offset`
/// (symbols make them dynamic, as MLIR's `getStridesAndOffset`).
fn strided_terms(
    e: &silica_ir::affine::AffineExpr,
    strides: &mut [i64],
    offset: &mut i64,
) -> Option<()> {
    use silica_ir::affine::{AffineExpr, BinOp};
    let add = |slot: &mut i64, v: i64| {
        *slot = if *slot == DYNAMIC || v == DYNAMIC {
            DYNAMIC
        } else {
            slot.wrapping_add(v)
        };
    };
    match e {
        AffineExpr::Dim(i) => add(strides.get_mut(*i as usize)?, 1),
        AffineExpr::Symbol(_) => add(offset, DYNAMIC),
        AffineExpr::Constant(c) => add(offset, *c),
        AffineExpr::Binary(b) => match &**b {
            (BinOp::Add, l, r) => {
                strided_terms(l, strides, offset)?;
                strided_terms(r, strides, offset)?;
            }
            (BinOp::Mul, AffineExpr::Dim(i), k) | (BinOp::Mul, k, AffineExpr::Dim(i)) => {
                let v = match k {
                    AffineExpr::Constant(c) => *c,
                    AffineExpr::Symbol(_) => DYNAMIC,
                    _ => return None,
                };
                add(strides.get_mut(*i as usize)?, v);
            }
            (
                BinOp::Mul,
                AffineExpr::Symbol(_),
                AffineExpr::Constant(_) | AffineExpr::Symbol(_),
            ) => add(offset, DYNAMIC),
            _ => return None,
        },
    }
    Some(())
}
