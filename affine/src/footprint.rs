//! The memory footprint of a loop nest, as MLIR's
//! `getMemoryFootprintBytes`: for each memref accessed by an
//! `affine.load`/`affine.store` in the nest, the bounding box of the
//! elements it touches (each subscript bounded over the nest's induction
//! variables, symbolic in the values defined outside it, and clipped to
//! the memref's static shape), united across the accesses, times the
//! element size. The bounds of a subscript are the sums of the bounds
//! of its terms (exact for the boxes and triangles loop nests give,
//! where MLIR projects with Fourier–Motzkin); an extent counts only when
//! some lower and upper bound differ by a constant. `None` where MLIR
//! fails too: a non-affine subscript, an extent that is not constant on
//! a dynamic dimension, a union of boxes whose bounds do not differ by
//! constants, a non-identity layout or an element that is not an
//! integer, a float or a vector of those.

use crate::for_op;
use silica_ir::affine_flatten::flatten_linear;
use silica_ir::dialect::inherent_attr;
use silica_ir::rewrite::fold::constant_i64;
use silica_ir::types::DYNAMIC;
use silica_ir::{AttrKind, Context, Ir, OpId, Type, TypeKind, ValueId};

/// Bound combinations kept per expression (sums multiply them).
const MAX_BOUNDS: usize = 64;

/// A linear form `sum(coeff * value) + constant` over values defined
/// outside the nest, terms sorted.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Lin {
    terms: Vec<(ValueId, i64)>,
    constant: i64,
}

impl Lin {
    fn constant(c: i64) -> Lin {
        Lin {
            terms: Vec::new(),
            constant: c,
        }
    }

    fn scaled(&self, k: i64) -> Lin {
        Lin {
            terms: self.terms.iter().map(|&(v, c)| (v, c * k)).collect(),
            constant: self.constant * k,
        }
    }

    fn plus(&self, other: &Lin) -> Lin {
        let mut terms = self.terms.clone();
        for &(v, c) in &other.terms {
            match terms.iter_mut().find(|(x, _)| *x == v) {
                Some(t) => t.1 += c,
                None => terms.push((v, c)),
            }
        }
        terms.retain(|&(_, c)| c != 0);
        terms.sort_by_key(|&(v, _)| v);
        Lin {
            terms,
            constant: self.constant + other.constant,
        }
    }

    /// `self - other` when it is a constant.
    fn constant_diff(&self, other: &Lin) -> Option<i64> {
        let d = self.plus(&other.scaled(-1));
        d.terms.is_empty().then_some(d.constant)
    }
}

/// Lower and upper (inclusive) bounds of a quantity: it is at least each
/// of `lows` and at most each of `highs`.
#[derive(Clone, Debug, Default)]
struct Range {
    lows: Vec<Lin>,
    highs: Vec<Lin>,
}

fn sums(a: &[Lin], b: &[Lin]) -> Vec<Lin> {
    let mut out = Vec::new();
    for x in a {
        for y in b {
            let s = x.plus(y);
            if !out.contains(&s) && out.len() < MAX_BOUNDS {
                out.push(s);
            }
        }
    }
    out
}

struct Nest<'a> {
    ctx: &'a Context,
    ir: &'a Ir,
    root: OpId,
}

impl Nest<'_> {
    /// The range of the linear `coeffs` (dims, symbols, constant) over
    /// `operands`.
    fn range_of(&self, coeffs: &[i64], operands: &[ValueId], depth: usize) -> Option<Range> {
        let (last, terms) = coeffs.split_last()?;
        let mut acc = Range {
            lows: vec![Lin::constant(*last)],
            highs: vec![Lin::constant(*last)],
        };
        for (&c, &v) in terms.iter().zip(operands) {
            if c == 0 {
                continue;
            }
            let r = self.value_range(v, depth)?;
            let (lo, hi) = if c > 0 {
                (&r.lows, &r.highs)
            } else {
                (&r.highs, &r.lows)
            };
            let lo: Vec<Lin> = lo.iter().map(|l| l.scaled(c)).collect();
            let hi: Vec<Lin> = hi.iter().map(|h| h.scaled(c)).collect();
            acc = Range {
                lows: sums(&acc.lows, &lo),
                highs: sums(&acc.highs, &hi),
            };
        }
        Some(acc)
    }

    /// The range of `v`: a constant, an induction variable of a loop of
    /// the nest (from its bounds), or a symbol.
    fn value_range(&self, v: ValueId, depth: usize) -> Option<Range> {
        if let Some(c) = constant_i64(self.ctx, self.ir, v) {
            let l = Lin::constant(c);
            return Some(Range {
                lows: vec![l.clone()],
                highs: vec![l],
            });
        }
        match for_op::loop_of_iv(self.ctx, self.ir, v) {
            Some(l) if self.ir.is_ancestor(self.root, l) && depth < 64 => {
                self.iv_range(l, depth + 1)
            }
            _ => {
                let l = Lin {
                    terms: vec![(v, 1)],
                    constant: 0,
                };
                Some(Range {
                    lows: vec![l.clone()],
                    highs: vec![l],
                })
            }
        }
    }

    fn iv_range(&self, l: OpId, depth: usize) -> Option<Range> {
        let (lb, ub) = for_op::bounds(self.ctx, self.ir, l)?;
        let mut range = Range::default();
        for e in lb.map.results.iter() {
            let c = flatten_linear(e, lb.map.num_dims, lb.map.num_symbols)?;
            range
                .lows
                .extend(self.range_of(&c, &lb.operands, depth)?.lows);
        }
        for e in ub.map.results.iter() {
            let c = flatten_linear(e, ub.map.num_dims, ub.map.num_symbols)?;
            let highs = self.range_of(&c, &ub.operands, depth)?.highs;
            range
                .highs
                .extend(highs.iter().map(|h| h.plus(&Lin::constant(-1))));
        }
        Some(range)
    }
}

/// The element size in bytes of a memref MLIR sizes regions of.
fn element_bytes(ctx: &Context, t: Type) -> Option<u64> {
    let bits = |t: Type| -> Option<u64> {
        match ctx.type_kind(t) {
            TypeKind::Integer { width, .. } => Some(u64::from(*width)),
            TypeKind::Float(k) => Some(u64::from(k.bit_width())),
            _ => None,
        }
    };
    let total = match ctx.type_kind(t) {
        TypeKind::Vector { shape, element, .. } => {
            let n: i64 = shape.iter().product();
            bits(*element)? * u64::try_from(n).ok()?
        }
        _ => bits(t)?,
    };
    Some(total.div_ceil(8))
}

/// A memref's shape and element size, for identity layouts.
fn memref_shape(ctx: &Context, t: Type) -> Option<(Vec<i64>, u64)> {
    let TypeKind::MemRef {
        shape,
        element,
        layout,
        ..
    } = ctx.type_kind(t)
    else {
        return None;
    };
    if let Some(l) = layout {
        let identity = match ctx.attr_kind(*l) {
            AttrKind::AffineMap(m) => {
                m.num_symbols == 0
                    && m.num_dims as usize == m.results.len()
                    && m.results
                        .iter()
                        .enumerate()
                        .all(|(i, e)| *e == silica_ir::affine::AffineExpr::Dim(i as u32))
            }
            _ => false,
        };
        if !identity {
            return None;
        }
    }
    Some((shape.to_vec(), element_bytes(ctx, *element)?))
}

/// One dimension of a region: its bounds with the smallest constant
/// difference, or `None` when no pair differs by a constant.
type DimBox = Option<(Lin, Lin)>;

fn dim_box(mut range: Range, size: i64) -> DimBox {
    range.lows.push(Lin::constant(0));
    if size != DYNAMIC {
        range.highs.push(Lin::constant(size - 1));
    }
    let mut best: Option<(i64, Lin, Lin)> = None;
    for l in &range.lows {
        for h in &range.highs {
            if let Some(d) = h.constant_diff(l) {
                if best.as_ref().is_none_or(|(b, _, _)| d < *b) {
                    best = Some((d, l.clone(), h.clone()));
                }
            }
        }
    }
    best.map(|(_, l, h)| (l, h))
}

fn union_dim(a: &DimBox, b: &DimBox) -> Option<DimBox> {
    let (Some((al, ah)), Some((bl, bh))) = (a, b) else {
        return None;
    };
    let lo = if al.constant_diff(bl)? <= 0 { al } else { bl };
    let hi = if ah.constant_diff(bh)? >= 0 { ah } else { bh };
    Some(Some((lo.clone(), hi.clone())))
}

/// The memref of an affine read or write and where its subscripts start.
fn access(ctx: &Context, ir: &Ir, op: OpId) -> Option<(ValueId, usize)> {
    match ctx.str(ir.op_name(op)) {
        "affine.load" | "affine.vector_load" => Some((ir.operand(op, 0), 1)),
        "affine.store" | "affine.vector_store" => Some((ir.operand(op, 1), 2)),
        _ => None,
    }
}

/// The bytes of memory the nest rooted at the loop `root` touches.
pub fn footprint_bytes(ctx: &Context, ir: &Ir, root: OpId) -> Option<u64> {
    let mut ops = Vec::new();
    ir.walk(root, &mut |o| ops.push(o));
    let nest = Nest { ctx, ir, root };
    let mut regions: Vec<(ValueId, Vec<DimBox>)> = Vec::new();
    for op in ops {
        let Some((memref, first)) = access(ctx, ir, op) else {
            continue;
        };
        let (shape, _) = memref_shape(ctx, ir.value_type(memref)).unwrap_or_default();
        let map = match ctx.attr_kind(inherent_attr(ctx, ir, op, "map")?) {
            AttrKind::AffineMap(m) => m.clone(),
            _ => return None,
        };
        let operands: Vec<ValueId> = ir.operands(op).skip(first).collect();
        let mut dims = Vec::new();
        for (i, e) in map.results.iter().enumerate() {
            let coeffs = flatten_linear(e, map.num_dims, map.num_symbols)?;
            let range = nest.range_of(&coeffs, &operands, 0)?;
            dims.push(dim_box(range, shape.get(i).copied().unwrap_or(DYNAMIC)));
        }
        match regions.iter_mut().find(|(m, _)| *m == memref) {
            Some((_, existing)) => {
                for (a, b) in existing.iter_mut().zip(&dims) {
                    *a = union_dim(a, b)?;
                }
            }
            None => regions.push((memref, dims)),
        }
    }
    let mut total = 0u64;
    for (memref, dims) in regions {
        let (shape, bytes) = memref_shape(ctx, ir.value_type(memref))?;
        let mut elements = 1u64;
        for (d, &size) in dims.iter().zip(&shape) {
            let extent = match d {
                Some((l, h)) => h.constant_diff(l)? + 1,
                None if size != DYNAMIC => size,
                None => return None,
            };
            elements = elements.saturating_mul(u64::try_from(extent.max(0)).ok()?);
        }
        total = total.saturating_add(elements.saturating_mul(bytes));
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extent_is_clipped_to_the_static_shape() {
        let range = Range {
            lows: vec![Lin::constant(-1)],
            highs: vec![Lin::constant(300)],
        };
        let (lo, hi) = dim_box(range, 256).expect("constant bounds");
        assert_eq!(hi.constant_diff(&lo), Some(255));
    }

    #[test]
    fn symbolic_extent_without_static_size_is_unknown() {
        let mut ctx = Context::new();
        let mut ir = Ir::new();
        let index = ctx.index_type();
        let n = Lin {
            terms: vec![(ir.create_placeholder(index), 1)],
            constant: -1,
        };
        let range = Range {
            lows: vec![Lin::constant(0)],
            highs: vec![n],
        };
        assert_eq!(dim_box(range, DYNAMIC), None);
    }

    #[test]
    fn union_takes_the_outer_bounds() {
        let a = Some((Lin::constant(0), Lin::constant(9)));
        let b = Some((Lin::constant(2), Lin::constant(12)));
        let u = union_dim(&a, &b).expect("comparable");
        assert_eq!(u, Some((Lin::constant(0), Lin::constant(12))));
    }
}
