//! Datapath expressions built while lifting: constants (uniqued),
//! arithmetic folded where operands are constant or neutral, resizes,
//! affine expressions over `index` values and row-major word addresses.

use super::lift::{err, Lifter};
use crate::model::kernel::{sign_extend, truncate, Item, MemId, Op, Val, INDEX};
use silica_ir::affine::{AffineExpr, AffineMap, BinOp};
use silica_ir::affine_flatten::simplify_expr;
use silica_ir::Diagnostic;

type Res<T> = Result<T, Box<Diagnostic>>;

impl Lifter<'_> {
    /// The constant `value` at `width` (`INDEX` for index constants,
    /// whose bits are fixed once the index width is known).
    pub fn constant(&mut self, value: i128, width: u32) -> Val {
        let bits = if width == INDEX {
            value as u128
        } else {
            truncate(value, width)
        };
        let next = self.k.consts.len();
        let id = *self.consts.entry((bits, width)).or_insert(next);
        if id == next {
            self.k.consts.push((bits, width));
        }
        Val::Const(id)
    }

    fn signed_const(&self, v: Val) -> Option<i128> {
        let Val::Const(c) = v else { return None };
        let (bits, w) = self.k.consts[c];
        Some(if w == INDEX {
            bits as i128
        } else {
            sign_extend(bits, w)
        })
    }

    /// `a op b` at `width`, folded when both are constants or one is
    /// neutral (index arithmetic only, where values are known to fit).
    pub fn binary(&mut self, items: &mut Vec<Item>, op: Op, a: Val, b: Val, width: u32) -> Val {
        if width == INDEX {
            let (ca, cb) = (self.signed_const(a), self.signed_const(b));
            if let (Some(x), Some(y)) = (ca, cb) {
                let folded = match op {
                    Op::Add => x.checked_add(y),
                    Op::Sub => x.checked_sub(y),
                    Op::Mul => x.checked_mul(y),
                    _ => None,
                };
                if let Some(v) = folded.filter(|v| i64::try_from(*v).is_ok()) {
                    return self.constant(v, INDEX);
                }
            }
            match (op, ca, cb) {
                (Op::Add, Some(0), _) | (Op::Mul, Some(1), _) => return b,
                (Op::Add | Op::Sub, _, Some(0)) | (Op::Mul, _, Some(1)) => return a,
                (Op::Mul, Some(0), _) | (Op::Mul, _, Some(0)) => return self.constant(0, INDEX),
                _ => {}
            }
        }
        self.node(items, op, vec![a, b], width)
    }

    /// `a` sign- (`SExt`) or zero- (`ZExt`) extended or truncated to
    /// `width`.
    pub fn resize(&mut self, items: &mut Vec<Item>, op: Op, a: Val, width: u32) -> Val {
        if self.k.width(a) == width {
            return a;
        }
        self.node(items, op, vec![a], width)
    }

    /// An affine expression of `map` over `vals` (dims, then symbols).
    pub fn apply(
        &mut self,
        items: &mut Vec<Item>,
        e: &AffineExpr,
        map: &AffineMap,
        vals: &[Val],
    ) -> Res<Val> {
        let nd = map.num_dims as usize;
        match e {
            AffineExpr::Dim(i) => Ok(vals[*i as usize]),
            AffineExpr::Symbol(i) => Ok(vals[nd + *i as usize]),
            AffineExpr::Constant(c) => Ok(self.constant(i128::from(*c), INDEX)),
            AffineExpr::Binary(bin) => {
                let (op, l, r) = &**bin;
                let a = self.apply(items, l, map, vals)?;
                let divisor = match r {
                    AffineExpr::Constant(c) => Some(*c),
                    _ => None,
                };
                let node_op = match (op, divisor) {
                    (BinOp::Add, _) => Op::Add,
                    (BinOp::Mul, _) => Op::Mul,
                    (BinOp::FloorDiv, Some(c)) if c > 0 => Op::FloorDivC(c),
                    (BinOp::CeilDiv, Some(c)) if c > 0 => Op::CeilDivC(c),
                    (BinOp::Mod, Some(c)) if c > 0 => Op::ModC(c),
                    _ => {
                        return err(
                            self.loc,
                            "affine division or modulo by a non-constant or non-positive value is not supported",
                        )
                    }
                };
                if let Op::FloorDivC(_) | Op::CeilDivC(_) | Op::ModC(_) = node_op {
                    if let Some(x) = self.signed_const(a) {
                        let x = x as i64;
                        let c = divisor.unwrap_or(1);
                        let v = AffineExpr::Constant(x).apply(*op, AffineExpr::Constant(c));
                        if let AffineExpr::Constant(v) = v {
                            return Ok(self.constant(i128::from(v), INDEX));
                        }
                    }
                    return Ok(self.node(items, node_op, vec![a], INDEX));
                }
                let b = self.apply(items, r, map, vals)?;
                Ok(self.binary(items, node_op, a, b, INDEX))
            }
        }
    }

    /// The row-major word address of an affine access to memory `m`.
    pub fn affine_address(
        &mut self,
        items: &mut Vec<Item>,
        m: MemId,
        map: &AffineMap,
        vals: &[Val],
    ) -> Res<Val> {
        let shape = self.k.memories[m].shape.clone();
        self.shaped_address(items, &shape, map, vals)
    }

    /// The row-major word address of the element `map` gives over
    /// `vals` in an array of `shape`.
    pub fn shaped_address(
        &mut self,
        items: &mut Vec<Item>,
        shape: &[u64],
        map: &AffineMap,
        vals: &[Val],
    ) -> Res<Val> {
        if map.results.len() != shape.len() {
            return err(self.loc, "access map does not match the memref's rank");
        }
        // sum(e_d * stride_d) as one affine expression, so constant terms
        // fold.
        let mut linear = AffineExpr::Constant(0);
        let mut stride = 1i64;
        let mut divides = false;
        for (e, &d) in map.results.iter().zip(shape).rev() {
            divides |= has_division(e);
            linear = e.clone().times(AffineExpr::Constant(stride)).plus(linear);
            stride = stride.saturating_mul(d as i64);
        }
        // Indices that divide (a row-major position split into indices,
        // as a copy loop writes them) are the position again where they
        // are its split (`buffer::delinearized`); otherwise simplified as
        // a whole, which recovers the position of two dimensions (not of
        // more: the nested divisions do not merge).
        if let Some(position) = split_position(map, shape) {
            linear = position;
        } else if divides {
            linear = simplify_expr(&linear, map.num_dims, map.num_symbols);
        }
        self.apply(items, &linear, map, vals)
    }

    /// The row-major word address of `memref.load/store` indices.
    pub fn linear_address(&mut self, items: &mut Vec<Item>, m: MemId, idx: &[Val]) -> Val {
        let shape = self.k.memories[m].shape.clone();
        let mut acc = self.constant(0, INDEX);
        for (d, &i) in idx.iter().enumerate() {
            let dim = self.constant(i128::from(shape[d]), INDEX);
            let scaled = self.binary(items, Op::Mul, acc, dim, INDEX);
            acc = self.binary(items, Op::Add, scaled, i, INDEX);
        }
        acc
    }
}

/// The row-major position `p` whose split into the indices of an array
/// of `shape` (`buffer::delinearized`) are `map`'s results, if they are
/// one (read from the innermost index, `p mod size`).
fn split_position(map: &AffineMap, shape: &[u64]) -> Option<AffineExpr> {
    if shape.len() < 2 {
        return None;
    }
    let AffineExpr::Binary(last) = map.results.last()? else {
        return None;
    };
    let (BinOp::Mod, position, AffineExpr::Constant(size)) = &**last else {
        return None;
    };
    let sizes: Option<Vec<i64>> = shape.iter().map(|&d| i64::try_from(d).ok()).collect();
    let sizes = sizes?;
    (*size == *sizes.last()?
        && super::buffer::delinearized(position, &sizes)[..] == map.results[..])
        .then(|| position.clone())
}

/// Whether `e` divides (a `floordiv`, `ceildiv` or `mod`).
fn has_division(e: &AffineExpr) -> bool {
    match e {
        AffineExpr::Binary(b) => {
            let (op, l, r) = &**b;
            matches!(op, BinOp::FloorDiv | BinOp::CeilDiv | BinOp::Mod)
                || has_division(l)
                || has_division(r)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(results: Vec<AffineExpr>) -> AffineMap {
        AffineMap {
            num_dims: 1,
            num_symbols: 0,
            results: results.into(),
        }
    }

    #[test]
    fn a_split_position_is_the_position_again() {
        let next = AffineExpr::Dim(0).plus(AffineExpr::Constant(1));
        let shape = [10u64, 8, 12];
        let split = super::super::buffer::delinearized(&next, &[10, 8, 12]);
        assert_eq!(split_position(&map(split.clone()), &shape), Some(next));
        // Another array's split, or other indices, are not.
        assert_eq!(split_position(&map(split), &[10, 12, 8]), None);
        let rows = vec![AffineExpr::Dim(0), AffineExpr::Dim(0)];
        assert_eq!(split_position(&map(rows), &[4, 4]), None);
    }
}
