//! Affine maps applied to SSA operands (MLIR's `AffineValueMap`), as a
//! [`Bound`]: the difference of two such maps with their operands
//! concatenated, composed with the `affine.apply` ops that feed them,
//! canonicalized and simplified (MLIR's `AffineValueMap::difference`).

use crate::canonicalize::{canonicalize_map, compose_map};
use crate::for_op::Bound;
use silica_ir::affine::{AffineExpr, AffineMap};
use silica_ir::affine_flatten::simplify_map;
use silica_ir::{Context, Ir};

/// `a - b` result by result (both have as many results): the operands are
/// `a`'s dims, `b`'s dims, `a`'s symbols, `b`'s symbols before the
/// composition and canonicalization.
pub fn difference(ctx: &mut Context, ir: &mut Ir, a: &Bound, b: &Bound) -> Bound {
    let (ad, asy) = (a.map.num_dims, a.map.num_symbols);
    let (bd, bs) = (b.map.num_dims, b.map.num_symbols);
    let shifted_dims: Vec<AffineExpr> = (0..bd).map(|i| AffineExpr::Dim(ad + i)).collect();
    let shifted_syms: Vec<AffineExpr> = (0..bs).map(|i| AffineExpr::Symbol(asy + i)).collect();
    let diff = AffineMap {
        num_dims: ad + bd,
        num_symbols: asy + bs,
        results: a
            .map
            .results
            .iter()
            .zip(b.map.results.iter())
            .map(|(x, y)| x.clone().minus(y.replace(&shifted_dims, &shifted_syms)))
            .collect(),
    };
    let (nad, nbd) = (ad as usize, bd as usize);
    let mut operands = a.operands[..nad].to_vec();
    operands.extend(&b.operands[..nbd]);
    operands.extend(&a.operands[nad..]);
    operands.extend(&b.operands[nbd..]);
    let (map, operands) = compose_map(ctx, ir, &diff, &operands);
    let (map, operands) = canonicalize_map(ctx, ir, &map, &operands);
    Bound {
        map: simplify_map(&map),
        operands,
    }
}
