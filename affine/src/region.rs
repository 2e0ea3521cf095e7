//! The region of a memref that an affine access touches (MLIR's
//! `MemRefRegion`), for copy generation, on-chip buffer sizing (HLS) and
//! design-space exploration.
//!
//! [`MemRefRegion::compute`] builds, for one `affine.load`/`affine.store`,
//! the set of elements it accesses as constraints over the memref's
//! dimensions (the region's dimensions) parametric in the induction
//! variables of its `depth` outermost enclosing loops and in the other
//! affine symbols (the region's symbols): the access map as equalities,
//! the domains of the loops whose induction variables it uses, the inner
//! induction variables and local divisions projected out (Fourier–Motzkin,
//! [`IntegerSystem::project_out_all_but`]), constant symbols folded in,
//! trivially redundant constraints dropped.
//!
//! On a region: [`MemRefRegion::bounding_box`] is a constant-size box
//! holding it (per dimension a lower bound in terms of the symbols and a
//! constant extent, never larger than the memref's static size; MLIR's
//! `getConstantBoundingSizeAndShape`), [`MemRefRegion::size_in_bytes`] that
//! box's footprint, [`MemRefRegion::dim_bounds`] the lower/upper bound
//! expressions of one dimension in terms of the symbols (MLIR's
//! `getLowerAndUpperBound`, what copy loops iterate over), and
//! [`MemRefRegion::union_bounding_box`] the bounding box of two regions of
//! one memref (MLIR's `unionBoundingBox`: per dimension the lower and
//! upper bounds with a constant difference, the smaller lower and the
//! larger upper one, plus the constraints both share).

use crate::presburger::{BoundKind, Int, IntegerSystem, ValueSystem};
use silica_ir::affine::{AffineExpr, AffineMap};
use silica_ir::rewrite::fold::constant_i64;
use silica_ir::types::DYNAMIC;
use silica_ir::{Attr, AttrKind, Context, Ir, OpId, TypeKind, ValueId};

/// Why a region could not be computed.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RegionError {
    /// The op is not an `affine.load`/`affine.store` on a memref.
    NotAnAccess,
    /// A subscript or a loop bound is not affine.
    NotAffine,
    /// A subscript uses a value that is neither an affine induction
    /// variable nor a valid symbol.
    UnknownValue,
    /// The whole memref was asked for, and it has a dynamic size.
    DynamicShape,
    /// Projecting the inner variables out made more constraints than
    /// [`MAX_CONSTRAINTS`] (Fourier–Motzkin can square their number at each
    /// step, e.g. on nested `mod`s).
    TooComplex,
}

/// The most constraints a region's projection may go through.
pub const MAX_CONSTRAINTS: usize = 512;

/// The elements of `memref` one or more accesses touch.
#[derive(Clone, Debug)]
pub struct MemRefRegion {
    pub memref: ValueId,
    /// Whether the accesses write (a store) rather than read.
    pub write: bool,
    /// The location of the access the region was computed for.
    pub loc: Attr,
    /// One dimension per memref dimension, then one symbol per entry of
    /// `symbols`; no local variables.
    pub constraints: IntegerSystem,
    /// The value each symbol stands for: induction variables of the outer
    /// loops and other affine symbols, in column order.
    pub symbols: Vec<ValueId>,
}

/// Bounds on some enclosing loops (a computation slice): per induction
/// variable a lower and an exclusive upper bound map over `operands`.
pub struct SliceBounds<'a> {
    pub ivs: &'a [ValueId],
    pub lbs: &'a [Option<AffineMap>],
    pub ubs: &'a [Option<AffineMap>],
    pub operands: &'a [ValueId],
}

/// A constant-size box holding a region.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoundingBox {
    /// The extent of each dimension.
    pub shape: Vec<i64>,
    /// The lower bound of each dimension, an expression over the region's
    /// symbols (as dimensions `d0..`, in `MemRefRegion::symbols` order).
    pub lower_bounds: Vec<AffineExpr>,
    /// The product of the extents.
    pub num_elements: i64,
}

/// A constant bound on the extent of one dimension: `divisor * x` lies
/// in `[lower, upper]` (affine forms over the symbols and the constant,
/// `lower` already rounded up to a floor), `extent` values in all.
struct DimExtent {
    extent: Int,
    lower: Vec<Int>,
    upper: Vec<Int>,
    divisor: Int,
    /// The lower bound row (over the symbols and the constant) the extent
    /// came from; `None` for an equality.
    lower_row: Option<Vec<Int>>,
}

impl DimExtent {
    /// The lower bound as MLIR's `getConstantBoundOnDimSize` writes it:
    /// the equality's value, or `(-(row) + divisor - 1) floordiv divisor`
    /// built without simplification.
    fn lower_expr(&self) -> Option<AffineExpr> {
        let Some(row) = &self.lower_row else {
            return expr_of(&self.lower);
        };
        let d = self.divisor.to_i64()?;
        Some(
            expr_of(row)?
                .negate()
                .plus(AffineExpr::Constant(d - 1))
                .floor_div(AffineExpr::Constant(d)),
        )
    }
}

/// The memref, access map and map operands of an affine load or store,
/// and whether it writes.
pub fn affine_access(
    ctx: &Context,
    ir: &Ir,
    op: OpId,
) -> Option<(ValueId, AffineMap, Vec<ValueId>, bool)> {
    let (memref, first, write) = match ctx.str(ir.op_name(op)) {
        "affine.load" => (ir.operand(op, 0), 1, false),
        "affine.store" => (ir.operand(op, 1), 2, true),
        _ => return None,
    };
    let map = crate::presburger::map_attr(ctx, ir, op, "map")?;
    Some((memref, map, ir.operands(op).skip(first).collect(), write))
}

/// The shape of a ranked memref type.
pub fn memref_shape(ctx: &Context, ir: &Ir, memref: ValueId) -> Option<Vec<i64>> {
    match ctx.type_kind(ir.value_type(memref)) {
        TypeKind::MemRef { shape, .. } => Some(shape.to_vec()),
        _ => None,
    }
}

/// The induction variables of the affine loops (`affine.for` and
/// `affine.parallel`) around `op`, outermost first (MLIR's `getAffineIVs`);
/// with `for_only`, those of `affine.for` loops only.
pub fn enclosing_ivs(ctx: &Context, ir: &Ir, op: OpId, for_only: bool) -> Vec<ValueId> {
    let mut ivs = Vec::new();
    let mut cur = ir.parent_op(op);
    while let Some(p) = cur {
        let args = ir
            .regions(p)
            .next()
            .and_then(|r| ir.entry_block(r))
            .map(|b| ir.block_args(b).to_vec())
            .unwrap_or_default();
        match ctx.str(ir.op_name(p)) {
            "affine.for" => ivs.extend(args.into_iter().take(1).rev()),
            "affine.parallel" if !for_only => ivs.extend(args.into_iter().rev()),
            _ => {}
        }
        cur = ir.parent_op(p);
    }
    ivs.reverse();
    ivs
}

fn zeros(n: usize) -> Vec<Int> {
    vec![Int::ZERO; n]
}

/// MLIR's `removeTrivialRedundancy` on inequalities: GCD tightening,
/// dropping rows that always hold and duplicates, and of rows differing
/// only in their constant keeping the tightest (in its place).
fn remove_trivial_redundancy(ineqs: Vec<Vec<Int>>) -> Vec<Vec<Int>> {
    let mut rows: Vec<Option<Vec<Int>>> = Vec::with_capacity(ineqs.len());
    for mut row in ineqs {
        let n = row.len() - 1;
        let g = row[..n].iter().fold(Int::ZERO, |g, c| g.gcd(c));
        if !g.is_zero() && !g.is_one() {
            for c in row[..n].iter_mut() {
                *c = c.exact_div(&g);
            }
            row[n] = row[n].floor_div(&g);
        }
        if row[..n].iter().all(Int::is_zero) && !row[n].is_negative() {
            continue;
        }
        let same = rows
            .iter()
            .position(|r| r.as_ref().is_some_and(|r| r[..n] == row[..n]));
        match same {
            Some(i) => {
                let kept = rows[i].as_ref().map(|r| r[n].clone()).unwrap_or_default();
                if row[n] < kept {
                    rows[i] = None;
                    rows.push(Some(row));
                }
            }
            None => rows.push(Some(row)),
        }
    }
    rows.into_iter().flatten().collect()
}

/// `a · x` as an affine expression over `num_dims` dimensions (the first
/// entries) plus the constant (the last), built as MLIR's
/// `getAffineExprFromFlatForm` does.
fn expr_of(row: &[Int]) -> Option<AffineExpr> {
    let (constant, coeffs) = row.split_last()?;
    let mut e = AffineExpr::Constant(0);
    for (j, c) in coeffs.iter().enumerate() {
        if !c.is_zero() {
            e = e.plus(AffineExpr::Dim(j as u32).times(AffineExpr::Constant(c.to_i64()?)));
        }
    }
    let c = constant.to_i64()?;
    if c != 0 {
        e = e.plus(AffineExpr::Constant(c));
    }
    Some(e)
}

impl MemRefRegion {
    fn rank(&self) -> usize {
        self.constraints.num_dims()
    }

    /// The region `op` (an affine load or store) accesses, parametric in
    /// the induction variables of its `depth` outermost enclosing loops
    /// (see the module docs).
    pub fn compute(
        ctx: &Context,
        ir: &Ir,
        op: OpId,
        depth: usize,
    ) -> Result<MemRefRegion, RegionError> {
        Self::compute_in_slice(ctx, ir, op, depth, None)
    }

    /// [`MemRefRegion::compute`] with the enclosing loops restricted to a
    /// computation slice (MLIR's `compute` with a `ComputationSliceState`):
    /// the slice's bound operands stay as symbols of the region.
    pub fn compute_in_slice(
        ctx: &Context,
        ir: &Ir,
        op: OpId,
        depth: usize,
        slice: Option<&SliceBounds<'_>>,
    ) -> Result<MemRefRegion, RegionError> {
        let (memref, map, operands, write) =
            affine_access(ctx, ir, op).ok_or(RegionError::NotAnAccess)?;
        let rank = memref_shape(ctx, ir, memref)
            .ok_or(RegionError::NotAnAccess)?
            .len();
        let mut outer = enclosing_ivs(ctx, ir, op, false);
        outer.truncate(depth);
        let loc = ir.op_loc(op);
        if rank == 0 {
            return Ok(MemRefRegion {
                memref,
                write,
                loc,
                constraints: IntegerSystem::new(0, outer.len(), 0),
                symbols: outer,
            });
        }
        let mut vs = ValueSystem::new();
        for _ in 0..rank {
            vs.append_dim(None);
        }
        // As MLIR: the access's loop variables first, then their domains
        // (which may add the outer loops their bounds use).
        let (_, values) = crate::presburger::compose_operands(ctx, ir, &map, &operands);
        let loops: Vec<(ValueId, OpId)> = values
            .iter()
            .filter_map(|&v| crate::for_op::loop_of_iv(ctx, ir, v).map(|l| (v, l)))
            .collect();
        for &(v, _) in &loops {
            if vs.find(v).is_none() {
                vs.append_dim(Some(v));
            }
        }
        for &(_, l) in &loops {
            vs.add_for_domain(ctx, ir, l)
                .map_err(|_| RegionError::NotAffine)?;
        }
        let rows = vs
            .map_rows(ctx, ir, op, &map, &operands)
            .map_err(|_| RegionError::NotAffine)?;
        for (d, mut row) in rows.into_iter().enumerate() {
            row[d] = &row[d] - &Int::ONE;
            vs.system.add_equality_int(row);
        }
        if let Some(slice) = slice {
            for &v in slice.operands {
                if vs.find(v).is_none() {
                    vs.append_symbol(Some(v));
                }
            }
            for (i, &iv) in slice.ivs.iter().enumerate() {
                if vs.find(iv).is_none() {
                    continue;
                }
                let (Some(lb), Some(ub)) = (&slice.lbs[i], &slice.ubs[i]) else {
                    continue;
                };
                let lo = vs
                    .map_rows(ctx, ir, op, lb, slice.operands)
                    .map_err(|_| RegionError::NotAffine)?;
                let hi = vs
                    .map_rows(ctx, ir, op, ub, slice.operands)
                    .map_err(|_| RegionError::NotAffine)?;
                let col = vs.find(iv).ok_or(RegionError::UnknownValue)?;
                for (r, lower) in lo
                    .into_iter()
                    .map(|r| (r, true))
                    .chain(hi.into_iter().map(|r| (r, false)))
                {
                    if r.len() != vs.system.num_cols() {
                        return Err(RegionError::NotAffine);
                    }
                    let n = r.len() - 1;
                    let mut row: Vec<Int> = if lower {
                        r.iter().map(|x| -x).collect()
                    } else {
                        r
                    };
                    if lower {
                        row[col] = &row[col] + &Int::ONE;
                    } else {
                        row[col] = &row[col] - &Int::ONE;
                        row[n] = &row[n] - &Int::ONE;
                    }
                    vs.system.add_inequality_int(row);
                }
            }
        }
        // Every non-region column: projected (inner induction variables),
        // kept (outer ones and symbols), or unknown.
        let nd = vs.system.num_dims();
        let ns = vs.system.num_symbols();
        let mut values = Vec::with_capacity(nd + ns);
        for c in 0..nd + ns {
            let v = if c < nd {
                vs.dim_values[c]
            } else {
                vs.symbol_values[c - nd]
            };
            values.push(v);
        }
        let mut keep = vec![false; vs.system.num_vars()];
        for (c, v) in values.iter().enumerate() {
            if c < rank {
                keep[c] = true;
                continue;
            }
            let Some(v) = *v else {
                return Err(RegionError::UnknownValue);
            };
            if slice.is_some_and(|s| s.operands.contains(&v)) {
                keep[c] = true;
            } else if crate::presburger::loop_of_iv(ctx, ir, v).is_some() {
                keep[c] = outer.contains(&v);
            } else if c < nd {
                return Err(RegionError::UnknownValue);
            } else {
                keep[c] = true;
            }
        }
        let mut system = vs.system;
        // Column by column as `project_out_all_but`, within a budget.
        let mut kept = Vec::new();
        for (original, &k) in keep.iter().enumerate() {
            if k {
                kept.push(original);
            } else {
                system.project_out(kept.len(), 1);
                if system.num_constraints() > MAX_CONSTRAINTS {
                    return Err(RegionError::TooComplex);
                }
            }
        }
        let symbols: Vec<ValueId> = kept[rank..].iter().filter_map(|&c| values[c]).collect();
        let mut region = MemRefRegion {
            memref,
            write,
            loc,
            constraints: IntegerSystem::new(rank, symbols.len(), 0),
            symbols,
        };
        let eqs = system.equalities().to_vec();
        let ineqs = system.inequalities().to_vec();
        region.set_rows(eqs, ineqs);
        region.fold_constant_symbols(ctx, ir);
        let ineqs = remove_trivial_redundancy(region.constraints.inequalities().to_vec());
        let eqs = region.constraints.equalities().to_vec();
        region.set_rows(eqs, ineqs);
        Ok(region)
    }

    /// The whole memref accessed by `op` as a region parametric in the
    /// induction variables of its `depth` outermost enclosing
    /// `affine.for` loops (MLIR's `getFullMemRefAsRegion`, the fallback
    /// for accesses whose region cannot be computed).
    pub fn whole_memref(
        ctx: &Context,
        ir: &Ir,
        op: OpId,
        depth: usize,
    ) -> Result<MemRefRegion, RegionError> {
        let (memref, _, _, write) = affine_access(ctx, ir, op).ok_or(RegionError::NotAnAccess)?;
        let shape = memref_shape(ctx, ir, memref).ok_or(RegionError::NotAnAccess)?;
        if shape.contains(&DYNAMIC) {
            return Err(RegionError::DynamicShape);
        }
        let mut symbols = enclosing_ivs(ctx, ir, op, true);
        symbols.truncate(depth);
        let mut constraints = IntegerSystem::new(shape.len(), symbols.len(), 0);
        for (d, &size) in shape.iter().enumerate() {
            constraints.add_bound(d, BoundKind::Lower, 0);
            constraints.add_bound(d, BoundKind::Upper, size - 1);
        }
        Ok(MemRefRegion {
            memref,
            write,
            loc: ir.op_loc(op),
            constraints,
            symbols,
        })
    }

    /// Bounds every dimension by the memref's static shape, `0 <= d` and
    /// `d <= size - 1` (MLIR's `compute` with `addMemRefDimBounds`), then
    /// drops the trivially redundant constraints again.
    pub fn add_memref_dim_bounds(&mut self, ctx: &Context, ir: &Ir) {
        let Some(shape) = memref_shape(ctx, ir, self.memref) else {
            return;
        };
        for (d, &size) in shape.iter().enumerate() {
            self.constraints.add_bound(d, BoundKind::Lower, 0);
            if size != DYNAMIC {
                self.constraints.add_bound(d, BoundKind::Upper, size - 1);
            }
        }
        let ineqs = remove_trivial_redundancy(self.constraints.inequalities().to_vec());
        let eqs = self.constraints.equalities().to_vec();
        self.set_rows(eqs, ineqs);
    }

    /// Replaces the constraints (rows over this region's columns).
    fn set_rows(&mut self, eqs: Vec<Vec<Int>>, ineqs: Vec<Vec<Int>>) {
        let mut s = IntegerSystem::new(self.rank(), self.symbols.len(), 0);
        for r in eqs {
            if r.iter().any(|c| !c.is_zero()) {
                s.add_equality_int(r);
            }
        }
        for r in ineqs {
            s.add_inequality_int(r);
        }
        self.constraints = s;
    }

    /// Substitutes symbols an equality pins to a constant (or that are
    /// constants in the IR) and drops them (MLIR's `constantFoldVarRange`);
    /// induction variables are kept.
    fn fold_constant_symbols(&mut self, ctx: &Context, ir: &Ir) {
        let rank = self.rank();
        let mut s = rank;
        while s < rank + self.symbols.len() {
            let n = self.constraints.num_vars();
            // An induction variable stays: only normalization's merging
            // of a single-iteration loop's two bounds can pin it, and
            // MLIR, which keeps those as inequalities, keeps it.
            let is_iv = crate::presburger::loop_of_iv(ctx, ir, self.symbols[s - rank]).is_some();
            let pinned = self
                .constraints
                .equalities()
                .iter()
                .filter(|_| !is_iv)
                .find_map(|r| {
                    let unit = r[s].is_one() || (-&r[s]).is_one();
                    let alone = (0..n).all(|c| c == s || r[c].is_zero());
                    (unit && alone).then(|| (-&r[n]).exact_div(&r[s]))
                });
            let value =
                pinned.or_else(|| constant_i64(ctx, ir, self.symbols[s - rank]).map(Int::from));
            let Some(value) = value else {
                s += 1;
                continue;
            };
            let substitute = |rows: &[Vec<Int>]| -> Vec<Vec<Int>> {
                rows.iter()
                    .map(|r| {
                        let mut r = r.clone();
                        let last = r.len() - 1;
                        r[last] = &r[last] + &(&r[s] * &value);
                        r.remove(s);
                        r
                    })
                    .collect()
            };
            let eqs = substitute(self.constraints.equalities());
            let ineqs = substitute(self.constraints.inequalities());
            self.symbols.remove(s - rank);
            self.set_rows(eqs, ineqs);
        }
    }

    /// MLIR's `getConstantBoundOnDimSize` on `sys` for dimension `pos`.
    fn dim_extent(sys: &IntegerSystem, pos: usize) -> Option<DimExtent> {
        let nd = sys.num_dims();
        let n = sys.num_vars();
        for r in sys.equalities() {
            let unit = r[pos].is_one() || (-&r[pos]).is_one();
            if !unit || (0..nd).any(|c| c != pos && !r[c].is_zero()) {
                continue;
            }
            // lower = upper = the symbolic value.
            let value: Vec<Int> = r[nd..=n]
                .iter()
                .map(|c| if r[pos].is_negative() { c.clone() } else { -c })
                .collect();
            return Some(DimExtent {
                extent: Int::ONE,
                lower: value.clone(),
                upper: value,
                divisor: Int::ONE,
                lower_row: None,
            });
        }
        let bound_rows = |lower: bool| -> Vec<&Vec<Int>> {
            sys.inequalities()
                .iter()
                .filter(|r| {
                    (if lower {
                        r[pos].is_positive()
                    } else {
                        r[pos].is_negative()
                    }) && (0..nd).all(|c| c == pos || r[c].is_zero())
                })
                .collect()
        };
        let (lbs, ubs) = (bound_rows(true), bound_rows(false));
        let mut best: Option<(Int, &Vec<Int>, &Vec<Int>)> = None;
        for &ub in &ubs {
            for &lb in &lbs {
                if (0..n).any(|j| ub[j] != -&lb[j]) {
                    continue;
                }
                let diff = (&(&ub[n] + &lb[n]) + &Int::ONE).ceil_div(&lb[pos]);
                let diff = if diff.is_negative() { Int::ZERO } else { diff };
                if best.as_ref().is_none_or(|(d, _, _)| diff < *d) {
                    best = Some((diff, lb, ub));
                }
            }
        }
        let (extent, lb, ub) = best?;
        let divisor = lb[pos].clone();
        let mut lower: Vec<Int> = lb[nd..=n].iter().map(|c| -c).collect();
        let last = lower.len() - 1;
        lower[last] = &lower[last] + &(&divisor - &Int::ONE);
        Some(DimExtent {
            extent,
            lower,
            upper: ub[nd..=n].to_vec(),
            divisor,
            lower_row: Some(lb[nd..=n].to_vec()),
        })
    }

    /// A constant-size box holding the region, clipped to the memref's
    /// static shape (MLIR's `getConstantBoundingSizeAndShape`). `None`:
    /// some dimension has neither a constant extent nor a static size.
    pub fn bounding_box(&self, ctx: &Context, ir: &Ir) -> Option<BoundingBox> {
        let shape = memref_shape(ctx, ir, self.memref)?;
        let mut with_shape = self.constraints.clone();
        for (d, &size) in shape.iter().enumerate() {
            with_shape.add_bound(d, BoundKind::Lower, 0);
            if size != DYNAMIC {
                with_shape.add_bound(d, BoundKind::Upper, size - 1);
            }
        }
        let mut out = BoundingBox {
            shape: Vec::new(),
            lower_bounds: Vec::new(),
            num_elements: 1,
        };
        for (d, &size) in shape.iter().enumerate() {
            let (extent, lower) = match Self::dim_extent(&with_shape, d) {
                Some(e) => (e.extent.to_i64()?, e.lower_expr()?),
                None if size != DYNAMIC => (size, AffineExpr::Constant(0)),
                None => return None,
            };
            out.num_elements = out.num_elements.checked_mul(extent)?;
            out.shape.push(extent);
            out.lower_bounds.push(lower);
        }
        Some(out)
    }

    /// The bytes of the region's bounding box (MLIR's `getRegionSize`):
    /// `None` for dynamic extents, non-identity layouts and elements other
    /// than integers, floats and vectors of those.
    pub fn size_in_bytes(&self, ctx: &Context, ir: &Ir) -> Option<u64> {
        let t = ir.value_type(self.memref);
        let TypeKind::MemRef {
            element, layout, ..
        } = ctx.type_kind(t)
        else {
            return None;
        };
        if layout.is_some_and(|l| !is_identity_layout(ctx, l)) {
            return None;
        }
        let elements = u64::try_from(self.bounding_box(ctx, ir)?.num_elements).ok()?;
        elements.checked_mul(element_bytes(ctx, *element)?)
    }

    /// The lower (`max`) and upper (`min`, exclusive) bounds of dimension
    /// `pos` as expressions over the symbols (as dimensions `d0..`), from
    /// the constraints that involve no other dimension (MLIR's
    /// `getLowerAndUpperBound`). `None` when a coefficient overflows.
    pub fn dim_bounds(&self, pos: usize) -> Option<(Vec<AffineExpr>, Vec<AffineExpr>)> {
        let sys = &self.constraints;
        let nd = sys.num_dims();
        let alone = |r: &Vec<Int>| (0..nd).all(|c| c == pos || r[c].is_zero());
        let rest = |r: &Vec<Int>, negate: bool| -> Vec<Int> {
            r[nd..]
                .iter()
                .map(|c| if negate { -c } else { c.clone() })
                .collect()
        };
        let (mut lbs, mut ubs) = (Vec::new(), Vec::new());
        for r in sys.inequalities().iter().filter(|r| alone(r)) {
            let d = r[pos].abs().to_i64()?;
            if r[pos].is_positive() {
                let e = expr_of(&rest(r, true))?;
                lbs.push(
                    e.plus(AffineExpr::Constant(d - 1))
                        .floor_div(AffineExpr::Constant(d)),
                );
            } else if r[pos].is_negative() {
                let e = expr_of(&rest(r, false))?;
                ubs.push(
                    e.floor_div(AffineExpr::Constant(d))
                        .plus(AffineExpr::Constant(1)),
                );
            }
        }
        for r in sys.equalities().iter().filter(|r| alone(r)) {
            if r[pos].is_zero() {
                continue;
            }
            let d = AffineExpr::Constant(r[pos].abs().to_i64()?);
            let b = expr_of(&rest(r, r[pos].is_positive()))?;
            ubs.push(b.clone().floor_div(d.clone()).plus(AffineExpr::Constant(1)));
            lbs.push(b.ceil_div(d));
        }
        Some((lbs, ubs))
    }

    /// Widens this region's symbols to the union of its and `other`'s
    /// (its own first); returns `other`'s rows over those columns.
    fn align(&mut self, other: &MemRefRegion) -> (Vec<Vec<Int>>, Vec<Vec<Int>>) {
        let rank = self.rank();
        for &v in &other.symbols {
            if !self.symbols.contains(&v) {
                self.symbols.push(v);
            }
        }
        let width = rank + self.symbols.len() + 1;
        let widen_own = |r: &Vec<Int>| {
            let mut w = r.clone();
            let c = w.pop().unwrap_or_default();
            w.resize(width - 1, Int::ZERO);
            w.push(c);
            w
        };
        let eqs: Vec<Vec<Int>> = self
            .constraints
            .equalities()
            .iter()
            .map(widen_own)
            .collect();
        let ineqs: Vec<Vec<Int>> = self
            .constraints
            .inequalities()
            .iter()
            .map(widen_own)
            .collect();
        self.set_rows(eqs, ineqs);
        let place = |r: &Vec<Int>| {
            let mut w = zeros(width);
            w[..rank].clone_from_slice(&r[..rank]);
            for (i, v) in other.symbols.iter().enumerate() {
                if let Some(j) = self.symbols.iter().position(|s| s == v) {
                    w[rank + j] = r[rank + i].clone();
                }
            }
            w[width - 1] = r[r.len() - 1].clone();
            w
        };
        (
            other.constraints.equalities().iter().map(place).collect(),
            other.constraints.inequalities().iter().map(place).collect(),
        )
    }

    /// Replaces this region by the bounding box of it and `other` (a
    /// region of the same memref); see the module docs. `Err(())` when a
    /// dimension has no constant extent in either, or their bounds are
    /// neither comparable nor constant.
    #[allow(clippy::result_unit_err)]
    pub fn union_bounding_box(&mut self, other: &MemRefRegion) -> Result<(), ()> {
        let (other_eqs, other_ineqs) = self.align(other);
        let mut other_sys = IntegerSystem::new(self.rank(), self.symbols.len(), 0);
        for r in &other_eqs {
            other_sys.add_equality_int(r.clone());
        }
        for r in &other_ineqs {
            other_sys.add_inequality_int(r.clone());
        }
        let mine = self.constraints.clone();
        let rank = self.rank();
        let width = rank + self.symbols.len() + 1;
        let mut bounds = Vec::new();
        for d in 0..rank {
            let a = Self::dim_extent(&mine, d).ok_or(())?;
            let b = Self::dim_extent(&other_sys, d).ok_or(())?;
            if a.divisor != b.divisor {
                return Err(());
            }
            let comparable = |x: &[Int], y: &[Int]| x[..x.len() - 1] == y[..y.len() - 1];
            let constant_only = |c: i64| {
                let mut v = zeros(width - rank);
                v[width - rank - 1] = Int::from(c);
                v
            };
            let mut min_lb = if comparable(&a.lower, &b.lower) {
                let mut l = if a.lower.last() <= b.lower.last() {
                    a.lower.clone()
                } else {
                    b.lower.clone()
                };
                let last = l.len() - 1;
                l[last] = &l[last] - &(&a.divisor - &Int::ONE);
                l
            } else {
                let x = mine.constant_bound(d, BoundKind::Lower).ok_or(())?;
                let y = other_sys.constant_bound(d, BoundKind::Lower).ok_or(())?;
                constant_only(x.min(y))
            };
            let max_ub = if comparable(&a.upper, &b.upper) {
                if a.upper.last() >= b.upper.last() {
                    a.upper.clone()
                } else {
                    b.upper.clone()
                }
            } else {
                let x = mine.constant_bound(d, BoundKind::Upper).ok_or(())?;
                let y = other_sys.constant_bound(d, BoundKind::Upper).ok_or(())?;
                constant_only(x.max(y))
            };
            let mut lb = zeros(width);
            let mut ub = zeros(width);
            lb[d] = a.divisor.clone();
            ub[d] = -&a.divisor;
            for (i, c) in min_lb.iter_mut().enumerate() {
                lb[rank + i] = -&*c;
            }
            for (i, c) in max_ub.iter().enumerate() {
                ub[rank + i] = c.clone();
            }
            bounds.push(lb);
            bounds.push(ub);
        }
        let common_ineqs: Vec<Vec<Int>> = mine
            .inequalities()
            .iter()
            .filter(|r| other_ineqs.contains(r))
            .cloned()
            .collect();
        let common_eqs: Vec<Vec<Int>> = mine
            .equalities()
            .iter()
            .filter(|r| other_eqs.contains(r))
            .cloned()
            .collect();
        bounds.extend(common_ineqs);
        self.set_rows(common_eqs, remove_trivial_redundancy(bounds));
        Ok(())
    }
}

/// Whether a layout attribute is the identity map.
fn is_identity_layout(ctx: &Context, l: Attr) -> bool {
    match ctx.attr_kind(l) {
        AttrKind::AffineMap(m) => {
            m.num_symbols == 0
                && m.num_dims as usize == m.results.len()
                && m.results
                    .iter()
                    .enumerate()
                    .all(|(i, e)| *e == AffineExpr::Dim(i as u32))
        }
        _ => false,
    }
}

/// The bytes of one element of an integer, float or vector-of-those type
/// (MLIR's `getMemRefIntOrFloatEltSizeInBytes`).
pub fn element_bytes(ctx: &Context, t: silica_ir::Type) -> Option<u64> {
    let bits = |t: silica_ir::Type| -> Option<u64> {
        match ctx.type_kind(t) {
            TypeKind::Integer { width, .. } => Some(u64::from(*width)),
            TypeKind::Float(k) => Some(u64::from(k.bit_width())),
            _ => None,
        }
    };
    let total = match ctx.type_kind(t) {
        TypeKind::Vector { shape, element, .. } => {
            let n: i64 = shape.iter().product();
            bits(*element)?.checked_mul(u64::try_from(n).ok()?)?
        }
        _ => bits(t)?,
    };
    Some(total.div_ceil(8))
}

/// Whether a memref type has an identity (or no) layout.
pub fn has_identity_layout(ctx: &Context, t: silica_ir::Type) -> bool {
    match ctx.type_kind(t) {
        TypeKind::MemRef { layout, .. } => layout.is_none_or(|l| is_identity_layout(ctx, l)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presburger::test_ir::{ops_named, parse_module};
    use silica_ir::affine::print_expr;

    fn show(e: &AffineExpr) -> String {
        let mut s = String::new();
        print_expr(&mut s, e);
        s
    }

    #[test]
    fn tile_region_is_symbolic_in_the_tile_loop() {
        let (ctx, ir, top) = parse_module(
            "func.func @f(%A: memref<4096xf32>) {
               affine.for %i = 0 to 4096 step 100 {
                 affine.for %ii = affine_map<(d0) -> (d0)>(%i) to min affine_map<(d0) -> (4096, d0 + 100)>(%i) {
                   %v = affine.load %A[%ii] : memref<4096xf32>
                 }
               }
               return
             }",
        );
        let load = ops_named(&ctx, &ir, top, "affine.load")[0];
        let r = MemRefRegion::compute(&ctx, &ir, load, 1).expect("region");
        assert_eq!(r.symbols.len(), 1);
        let b = r.bounding_box(&ctx, &ir).expect("box");
        assert_eq!(b.shape, vec![100]);
        assert_eq!(show(&b.lower_bounds[0]), "d0");
        assert_eq!(r.size_in_bytes(&ctx, &ir), Some(400));
        let (lbs, ubs) = r.dim_bounds(0).expect("bounds");
        assert_eq!(lbs.iter().map(show).collect::<Vec<_>>(), vec!["d0"]);
        assert_eq!(
            ubs.iter().map(show).collect::<Vec<_>>(),
            vec!["4096", "d0 + 100"]
        );
        // At depth 0 the whole loop nest's range is the region.
        let r0 = MemRefRegion::compute(&ctx, &ir, load, 0).expect("region");
        assert!(r0.symbols.is_empty());
        assert_eq!(r0.bounding_box(&ctx, &ir).expect("box").shape, vec![4096]);
    }

    #[test]
    fn union_of_shifted_accesses_and_constant_symbols() {
        let (ctx, ir, top) = parse_module(
            "func.func @f(%A: memref<256xf32>) {
               %c9 = arith.constant 9 : index
               affine.for %i = 0 to 10 {
                 %v = affine.load %A[%i + 100] : memref<256xf32>
                 affine.store %v, %A[%i + symbol(%c9)] : memref<256xf32>
               }
               return
             }",
        );
        let load = ops_named(&ctx, &ir, top, "affine.load")[0];
        let store = ops_named(&ctx, &ir, top, "affine.store")[0];
        let mut r = MemRefRegion::compute(&ctx, &ir, load, 0).expect("region");
        let w = MemRefRegion::compute(&ctx, &ir, store, 0).expect("region");
        assert!(w.write && w.symbols.is_empty(), "constant symbol folded");
        r.union_bounding_box(&w).expect("union");
        let b = r.bounding_box(&ctx, &ir).expect("box");
        assert_eq!(b.shape, vec![101]);
        assert_eq!(show(&b.lower_bounds[0]), "9");
    }

    #[test]
    fn whole_memref_needs_a_static_shape() {
        let (ctx, ir, top) = parse_module(
            "func.func @f(%A: memref<?xf32>, %B: memref<8x4xi16>, %n: index) {
               affine.for %i = 0 to 4 {
                 %v = affine.load %A[%i] : memref<?xf32>
                 %w = affine.load %B[%i, %i] : memref<8x4xi16>
               }
               return
             }",
        );
        let loads = ops_named(&ctx, &ir, top, "affine.load");
        assert_eq!(
            MemRefRegion::whole_memref(&ctx, &ir, loads[0], 1).err(),
            Some(RegionError::DynamicShape)
        );
        let r = MemRefRegion::whole_memref(&ctx, &ir, loads[1], 1).expect("region");
        assert_eq!(r.bounding_box(&ctx, &ir).expect("box").shape, vec![8, 4]);
        assert_eq!(r.size_in_bytes(&ctx, &ir), Some(64));
    }
}
