//! The dependence test between two accesses at one loop depth, as MLIR's
//! `checkMemrefAccessDependence`: both iteration domains side by side
//! (symbols shared by value), the accessed elements equal, the source
//! ordered before the destination at that depth, then exact integer
//! emptiness; for a dependence, the bounds of `dst_iv - src_iv` for every
//! common loop, read from the projection onto those differences (the
//! integer optimum when that projection was not exact).

use super::access::{AccessKind, Elements, MemoryAccess};
use super::order::{analysis_scope, common_block, src_before_dst};
use crate::presburger::{BoundKind, Int, IntegerSystem, ValueSystem, VarKind};
use silica_ir::{Context, Ir, OpId, ValueId};

/// The bounds of `dst_iv - src_iv` for one common loop (`None`:
/// unbounded on that side).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct DependenceComponent {
    /// The common loop (`affine.for` or `affine.parallel`).
    pub loop_op: OpId,
    /// Its induction variable.
    pub iv: ValueId,
    pub lower: Option<i64>,
    pub upper: Option<i64>,
}

/// The answer of the dependence test.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum DependenceResult {
    NoDependence,
    /// A dependence, with a component per common loop.
    Dependence(Vec<DependenceComponent>),
    /// The accesses could not be analysed (different affine scopes,
    /// non-affine domains); treat as dependent.
    Failure,
}

/// How many leading loops two accesses share.
pub fn num_common_loops(src: &MemoryAccess, dst: &MemoryAccess) -> usize {
    let n = src.num_loops.min(dst.num_loops);
    (0..n)
        .take_while(|&i| src.domain.dim_values[i] == dst.domain.dim_values[i])
        .count()
}

/// Both systems side by side: the columns each one's variables get.
type Product = DependenceSystem;

fn product(src: &ValueSystem, dst: &ValueSystem) -> Product {
    let (s, d) = (&src.system, &dst.system);
    let shared: Vec<Option<usize>> = dst
        .symbol_values
        .iter()
        .map(|v| v.and_then(|v| src.symbol_values.iter().position(|&x| x == Some(v))))
        .collect();
    let dst_own_symbols = shared.iter().filter(|x| x.is_none()).count();
    let num_dims = s.num_dims() + d.num_dims();
    let num_symbols = s.num_symbols() + dst_own_symbols;
    let system = IntegerSystem::new(num_dims, num_symbols, s.num_locals() + d.num_locals());
    let sym0 = num_dims;
    let loc0 = num_dims + num_symbols;
    let mut src_cols: Vec<usize> = (0..s.num_dims()).collect();
    src_cols.extend((0..s.num_symbols()).map(|i| sym0 + i));
    src_cols.extend((0..s.num_locals()).map(|i| loc0 + i));
    let mut dst_cols: Vec<usize> = (0..d.num_dims()).map(|i| s.num_dims() + i).collect();
    let mut own = 0;
    for sh in &shared {
        dst_cols.push(match sh {
            Some(i) => sym0 + i,
            None => {
                own += 1;
                sym0 + s.num_symbols() + own - 1
            }
        });
    }
    dst_cols.extend((0..d.num_locals()).map(|i| loc0 + s.num_locals() + i));
    Product {
        system,
        src_cols,
        dst_cols,
        symbol_values: Vec::new(),
    }
}

/// `row` (over a system mapped by `cols`) as a row of `width` columns.
fn mapped(row: &[Int], cols: &[usize], width: usize) -> Vec<Int> {
    let mut out = vec![Int::ZERO; width];
    for (j, v) in row[..row.len() - 1].iter().enumerate() {
        if !v.is_zero() {
            out[cols[j]] = &out[cols[j]] + v;
        }
    }
    out[width - 1] = row[row.len() - 1].clone();
    out
}

fn copy_constraints(into: &mut IntegerSystem, from: &IntegerSystem, cols: &[usize]) {
    let width = into.num_cols();
    for r in from.equalities() {
        into.add_equality_int(mapped(r, cols, width));
    }
    for r in from.inequalities() {
        into.add_inequality_int(mapped(r, cols, width));
    }
}

/// The linear index range `(first, count)` of an access's elements.
fn linear_range(e: &Elements) -> Option<(&[Int], i64)> {
    match e {
        Elements::Point { linear, .. } => linear.as_deref().map(|l| (l, 1)),
        Elements::Run { first, count } => Some((first.as_slice(), *count)),
        Elements::Whole => None,
    }
}

/// Constrains the two accesses to touch a common element.
fn add_same_element(p: &mut Product, src: &MemoryAccess, dst: &MemoryAccess) {
    if let (Elements::Point { subscripts: a, .. }, Elements::Point { subscripts: b, .. }) =
        (&src.elements, &dst.elements)
    {
        if a.len() == b.len() {
            let width = p.system.num_cols();
            for (ra, rb) in a.iter().zip(b) {
                let ma = mapped(ra, &p.src_cols, width);
                let mb = mapped(rb, &p.dst_cols, width);
                p.system
                    .add_equality_int(ma.iter().zip(&mb).map(|(x, y)| x - y).collect());
            }
            return;
        }
    }
    let (Some((fa, ca)), Some((fb, cb))) =
        (linear_range(&src.elements), linear_range(&dst.elements))
    else {
        return;
    };
    // A common linear index e: first <= e <= first + count - 1 for both.
    let (fa, fb) = (fa.to_vec(), fb.to_vec());
    let e = p.system.append_vars(VarKind::Local, 1);
    let width = p.system.num_cols();
    for (first, count, cols) in [(fa, ca, p.src_cols.clone()), (fb, cb, p.dst_cols.clone())] {
        let f = mapped(&first, &cols, width);
        // e - first >= 0
        let mut lo: Vec<Int> = f.iter().map(|v| -v).collect();
        lo[e] = &lo[e] + &Int::ONE;
        // first + count - 1 - e >= 0
        let mut hi = f;
        hi[e] = &hi[e] - &Int::ONE;
        hi[width - 1] = &hi[width - 1] + &Int::from(count - 1);
        p.system.add_inequality_int(lo);
        p.system.add_inequality_int(hi);
    }
}

/// How the distance bounds of a dependence are computed.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Precision {
    /// MLIR's: constant bounds of the projection onto the distances (the
    /// GCD-tightened real shadow when the projection is not exact).
    Shadow,
    /// The integer minimum and maximum of each distance.
    Exact,
}

/// The dependence from `src` to `dst` at loop depth `depth` (1-based;
/// `num_common_loops + 1` is the loop-independent dependence). Whether a
/// dependence exists is decided exactly either way; `precision` only
/// concerns the distance bounds.
pub fn check_dependence(
    ctx: &Context,
    ir: &Ir,
    src: &MemoryAccess,
    dst: &MemoryAccess,
    depth: usize,
    precision: Precision,
) -> DependenceResult {
    match dependence_system(ctx, ir, src, dst, depth, false) {
        Err(NotAnalysable) => DependenceResult::Failure,
        Ok(None) => DependenceResult::NoDependence,
        Ok(Some(p)) => {
            let common = num_common_loops(src, dst);
            DependenceResult::Dependence(components(ctx, ir, &p, src, common, precision))
        }
    }
}

/// The constraints of a dependence (MLIR's `dependenceConstraints`): the
/// source domain's variables, the destination's beside them (symbols
/// shared by value), the same element, the ordering at `depth`.
#[derive(Clone, Debug)]
pub struct DependenceSystem {
    pub system: IntegerSystem,
    /// The column of each source domain variable (dims, symbols, locals).
    pub src_cols: Vec<usize>,
    /// The column of each destination domain variable.
    pub dst_cols: Vec<usize>,
    /// The value of each symbol column.
    pub symbol_values: Vec<Option<ValueId>>,
}

/// Two accesses the dependence test cannot relate (different affine
/// scopes, no common block).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct NotAnalysable;

/// The system of [`check_dependence`] at `depth` when it is not empty
/// (`Ok(None)`: no dependence). With `allow_rar`, two reads are related
/// too (sibling fusion's input reuse).
pub fn dependence_system(
    ctx: &Context,
    ir: &Ir,
    src: &MemoryAccess,
    dst: &MemoryAccess,
    depth: usize,
    allow_rar: bool,
) -> Result<Option<DependenceSystem>, NotAnalysable> {
    match ordered_system(ctx, ir, src, dst, depth, allow_rar)? {
        Some(p) if !p.system.is_empty() => Ok(Some(p)),
        _ => Ok(None),
    }
}

/// The system of [`dependence_system`] before its emptiness test
/// (`Ok(None)`: no dependence for a reason found without it).
fn ordered_system(
    ctx: &Context,
    ir: &Ir,
    src: &MemoryAccess,
    dst: &MemoryAccess,
    depth: usize,
    allow_rar: bool,
) -> Result<Option<DependenceSystem>, NotAnalysable> {
    if src.memref != dst.memref {
        return Ok(None);
    }
    if !allow_rar && src.kind == AccessKind::Read && dst.kind == AccessKind::Read {
        return Ok(None);
    }
    if analysis_scope(ctx, ir, src.op) != analysis_scope(ctx, ir, dst.op)
        || common_block(ctx, ir, src.op, dst.op).is_none()
    {
        return Err(NotAnalysable);
    }
    let common = num_common_loops(src, dst);
    if depth > common && !src_before_dst(ctx, ir, src.op, dst.op) {
        return Ok(None);
    }
    let mut p = pair_system(src, dst);
    // Ordering: equal outer iterations, then dst later at `depth`.
    let width = p.system.num_cols();
    for i in 0..common.min(depth) {
        let mut row = vec![Int::ZERO; width];
        row[p.src_cols[i]] = Int::from(-1);
        row[p.dst_cols[i]] = Int::ONE;
        if i + 1 == depth {
            row[width - 1] = Int::from(-1);
            p.system.add_inequality_int(row);
        } else {
            p.system.add_equality_int(row);
        }
    }
    Ok(Some(p))
}

/// Whether the dependence from `src` to `dst` carried at `depth` (below
/// the number of common loops) has a component of a loop deeper than
/// `depth` that `reversed` rejects, with the bounds [`check_dependence`]
/// computes (`Precision::Shadow`); `false` also when the accesses cannot
/// be analysed. The components are computed before the emptiness test,
/// which only runs when one is rejected (most pairs have none).
pub fn has_reversed_component(
    ctx: &Context,
    ir: &Ir,
    src: &MemoryAccess,
    dst: &MemoryAccess,
    depth: usize,
    reversed: &dyn Fn(&DependenceComponent) -> bool,
) -> bool {
    let Ok(Some(p)) = ordered_system(ctx, ir, src, dst, depth, false) else {
        return false;
    };
    let common = num_common_loops(src, dst);
    let found = components_from(ctx, ir, &p, src, depth, common, Precision::Shadow)
        .iter()
        .any(reversed);
    found && !p.system.is_empty()
}

/// Both accesses' domains side by side with the same element accessed,
/// in no particular order (the system [`dependence_system`] orders).
pub fn pair_system(src: &MemoryAccess, dst: &MemoryAccess) -> DependenceSystem {
    let mut p = product(&src.domain, &dst.domain);
    copy_constraints(&mut p.system, &src.domain.system, &p.src_cols);
    copy_constraints(&mut p.system, &dst.domain.system, &p.dst_cols);
    add_same_element(&mut p, src, dst);
    let mut symbol_values = src.domain.symbol_values.clone();
    for v in &dst.domain.symbol_values {
        if v.is_none() || !src.domain.symbol_values.contains(v) {
            symbol_values.push(*v);
        }
    }
    p.symbol_values = symbol_values;
    p
}

/// The bounds of `dst_iv - src_iv` for the `common` outer loops.
fn components(
    ctx: &Context,
    ir: &Ir,
    p: &Product,
    src: &MemoryAccess,
    common: usize,
    precision: Precision,
) -> Vec<DependenceComponent> {
    components_from(ctx, ir, p, src, 0, common, precision)
}

/// The components `first..common` of [`components`].
fn components_from(
    ctx: &Context,
    ir: &Ir,
    p: &Product,
    src: &MemoryAccess,
    first: usize,
    common: usize,
    precision: Precision,
) -> Vec<DependenceComponent> {
    if common == 0 {
        return Vec::new();
    }
    let mut s = with_leading_dims(&p.system, common);
    let rest = p.system.num_vars();
    let width = s.num_cols();
    for j in 0..common {
        // t_j - dst_j + src_j == 0
        let mut row = vec![Int::ZERO; width];
        row[j] = Int::ONE;
        row[common + p.dst_cols[j]] = Int::from(-1);
        row[common + p.src_cols[j]] = Int::ONE;
        s.add_equality_int(row);
    }
    // The unprojected system, for exact bounds of an inexact projection.
    let full = (precision == Precision::Exact).then(|| s.clone());
    let exact = s.project_out(common, rest);
    (first..common)
        .map(|j| {
            let iv = src.domain.dim_values[j].unwrap_or(src.memref);
            // An inexact projection can leave the real shadow's looser
            // bounds: with `Exact`, the integer optimum is searched then.
            let (lower, upper) = match &full {
                Some(full) if !exact => (
                    full.exact_constant_bound(j, BoundKind::Lower),
                    full.exact_constant_bound(j, BoundKind::Upper),
                ),
                _ => s.constant_bounds(j),
            };
            DependenceComponent {
                loop_op: crate::presburger::loop_of_iv(ctx, ir, iv).unwrap_or(src.op),
                iv,
                lower,
                upper,
            }
        })
        .collect()
}

/// `system` with `count` new dimensions before its variables (as
/// `insert_vars(VarKind::Dim, 0, count)` on a copy), each row built once.
fn with_leading_dims(system: &IntegerSystem, count: usize) -> IntegerSystem {
    let mut s = IntegerSystem::new(
        system.num_dims() + count,
        system.num_symbols(),
        system.num_locals(),
    );
    let widened = |r: &Vec<Int>| {
        let mut row = Vec::with_capacity(r.len() + count);
        row.resize(count, Int::ZERO);
        row.extend_from_slice(r);
        row
    };
    for r in system.equalities() {
        s.add_equality_int(widened(r));
    }
    for r in system.inequalities() {
        s.add_inequality_int(widened(r));
    }
    s
}

/// The bounds of `dst_iv - src_iv` for common loop `j`: the system with
/// that difference as a new first variable, every other one projected
/// out.
fn component(
    ctx: &Context,
    ir: &Ir,
    p: &Product,
    src: &MemoryAccess,
    j: usize,
    precision: Precision,
) -> DependenceComponent {
    let mut s = with_leading_dims(&p.system, 1);
    let rest = p.system.num_vars();
    let width = s.num_cols();
    // t - dst_j + src_j == 0
    let mut row = vec![Int::ZERO; width];
    row[0] = Int::ONE;
    row[1 + p.dst_cols[j]] = Int::from(-1);
    row[1 + p.src_cols[j]] = Int::ONE;
    s.add_equality_int(row);
    let full = s.clone();
    let exact = s.project_out(1, rest);
    let iv = src.domain.dim_values[j].unwrap_or(src.memref);
    // An inexact projection can leave the real shadow's looser bounds:
    // with `Exact`, the integer optimum is searched then.
    let bound = |kind| match precision {
        Precision::Exact if !exact => full.exact_constant_bound(0, kind),
        _ => s.constant_bound(0, kind),
    };
    DependenceComponent {
        loop_op: crate::presburger::loop_of_iv(ctx, ir, iv).unwrap_or(src.op),
        iv,
        lower: bound(BoundKind::Lower),
        upper: bound(BoundKind::Upper),
    }
}

/// [`check_dependence`] with the bounds of one common loop only
/// (`component`, 0-based, below the number of common loops): what a
/// client of one loop needs, for a fraction of the work. `Ok(None)`: no
/// dependence; `Err`: the accesses cannot be analysed.
pub fn check_dependence_at(
    ctx: &Context,
    ir: &Ir,
    src: &MemoryAccess,
    dst: &MemoryAccess,
    depth: usize,
    precision: Precision,
    component_of: usize,
) -> Result<Option<DependenceComponent>, NotAnalysable> {
    let Some(p) = dependence_system(ctx, ir, src, dst, depth, false)? else {
        return Ok(None);
    };
    if component_of >= num_common_loops(src, dst) {
        return Err(NotAnalysable);
    }
    Ok(Some(component(ctx, ir, &p, src, component_of, precision)))
}
