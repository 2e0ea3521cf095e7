//! Affine accesses that the affine layer proves out of bounds: an
//! `affine.load`/`affine.store` one of whose iterations addresses an
//! element past a static dimension of its memref (or below 0) is an
//! error at the op, with the element and the loop counters that reach
//! it. The proof is an integer point of the access's region, computed
//! with every enclosing `affine.for` counter kept (its loop bounds as
//! constraints, nothing projected), outside the memref: exact where the
//! subscripts and bounds use no other symbol and no division, and where
//! no condition guards the access; other accesses are not judged.
//!
//! Accesses at addresses computed from the data (`memref.load` and
//! `memref.store` whose index reads a memory or a scalar argument) cannot
//! be proven in bounds: each gets a note, and co-simulation checks them
//! at run time (`verification::cosim::software`: the software run stops
//! at the first past its memref, naming the op and the index).

use silica_affine::for_op;
use silica_affine::presburger::{BoundKind, Int, IntegerSystem, Sample, VarKind};
use silica_affine::region::{affine_access, enclosing_ivs, memref_shape, MemRefRegion};
use silica_ir::affine::{AffineExpr, BinOp};
use silica_ir::{Context, Diagnostic, Ir, OpId};

/// The first access of `func` proven out of bounds, as an error.
pub fn out_of_bounds(ctx: &Context, ir: &Ir, func: OpId) -> Result<(), Box<Diagnostic>> {
    let mut ops = Vec::new();
    ir.walk(func, &mut |o| ops.push(o));
    for op in ops {
        if let Some(message) = proven_out(ctx, ir, op) {
            return Err(Box::new(Diagnostic::error(ir.op_loc(op), message)));
        }
    }
    Ok(())
}

/// A note for each access of `func` at an address computed from the
/// data (`file:line:col: ...`).
pub fn data_dependent_accesses(ctx: &Context, ir: &Ir, func: OpId) -> Vec<String> {
    let Some(entry) = ir.regions(func).next().and_then(|r| ir.entry_block(r)) else {
        return Vec::new();
    };
    let mut notes = Vec::new();
    ir.walk(func, &mut |op| {
        let first_index = match ctx.str(ir.op_name(op)) {
            "memref.load" => 1,
            "memref.store" => 2,
            _ => return,
        };
        let from_data = ir
            .operands(op)
            .skip(first_index)
            .any(|v| from_data(ctx, ir, entry, v, 0));
        if !from_data {
            return;
        }
        let at = silica_ir::diag::file_line_col(ctx, ir.op_loc(op))
            .map_or(String::new(), |(f, l, c)| format!("{f}:{l}:{c}: "));
        notes.push(format!(
            "{at}'{}' at an address computed from the data cannot be proven within its memref: \
             co-simulation checks it at run time",
            ctx.str(ir.op_name(op))
        ));
    });
    notes
}

/// Whether `v` is computed from the data: a function argument (`entry`'s),
/// a value loaded from a memory, or an op's result over such a value
/// (`depth` bounds the walk up the definitions).
fn from_data(
    ctx: &Context,
    ir: &Ir,
    entry: silica_ir::BlockId,
    v: silica_ir::ValueId,
    depth: u32,
) -> bool {
    use silica_ir::graph::ValueDef;
    match ir.value_def(v) {
        ValueDef::Argument { block, .. } => block == entry,
        ValueDef::Result { op, .. } => {
            let name = ctx.str(ir.op_name(op));
            name.ends_with(".load")
                || (depth < 64
                    && ir
                        .operands(op)
                        .any(|o| from_data(ctx, ir, entry, o, depth + 1)))
        }
        ValueDef::Placeholder => false,
    }
}

/// Why `op` is out of bounds, where it provably is.
fn proven_out(ctx: &Context, ir: &Ir, op: OpId) -> Option<String> {
    let (memref, map, _, write) = affine_access(ctx, ir, op)?;
    if map.results.iter().any(divides) || guarded(ctx, ir, op) {
        return None;
    }
    let shape = memref_shape(ctx, ir, memref)?;
    if shape.iter().any(|&d| d < 0) {
        return None;
    }
    let ivs = enclosing_ivs(ctx, ir, op, true);
    let region = MemRefRegion::compute(ctx, ir, op, ivs.len()).ok()?;
    // Every symbol a loop counter: no argument's value is assumed.
    if region.symbols != ivs {
        return None;
    }
    let rank = shape.len();
    let mut strided = region.constraints.clone();
    if !add_strides(ctx, ir, &ivs, rank, &mut strided) {
        return None;
    }
    for (d, &size) in shape.iter().enumerate() {
        for (kind, value) in [(BoundKind::Lower, size), (BoundKind::Upper, -1)] {
            let mut past = strided.clone();
            past.add_bound(d, kind, value);
            let Sample::Point(point) = past.integer_sample() else {
                continue;
            };
            let show = |v: &Int| v.to_string();
            let element: Vec<String> = point[..rank].iter().map(show).collect();
            let counters: Vec<String> = point[rank..rank + ivs.len()].iter().map(show).collect();
            let at = if counters.is_empty() {
                String::new()
            } else {
                format!(
                    " (the enclosing loops' counters at {})",
                    counters.join(", ")
                )
            };
            return Some(format!(
                "'{}' {} element [{}] of a {}, out of bounds of dimension {} (size {size}){at}",
                ctx.str(ir.op_name(op)),
                if write { "writes" } else { "reads" },
                element.join(", "),
                silica_ir::printer::type_to_string(ctx, ir.value_type(memref)),
                d + 1,
            ));
        }
    }
    None
}

/// Adds each enclosing loop's step to `system` (whose counter `s` is
/// column `rank + s`): a counter of step `k > 1` is `lb + k * q` for a
/// new local `q`. False where such a loop's lower bound is not a
/// constant (its counters are not judged).
fn add_strides(
    ctx: &Context,
    ir: &Ir,
    ivs: &[silica_ir::ValueId],
    rank: usize,
    system: &mut IntegerSystem,
) -> bool {
    for (s, &iv) in ivs.iter().enumerate() {
        let Some(lp) = for_op::loop_of_iv(ctx, ir, iv) else {
            continue;
        };
        let step = for_op::step(ctx, ir, lp);
        if step <= 1 {
            continue;
        }
        let Some(lb) = for_op::bounds(ctx, ir, lp).and_then(|(lb, _)| lb.as_constant()) else {
            return false;
        };
        let q = system.append_vars(VarKind::Local, 1);
        let mut row = vec![Int::ZERO; system.num_cols()];
        row[rank + s] = Int::ONE;
        row[q] = Int::from(-step);
        row[system.num_vars()] = Int::from(-lb);
        system.add_equality_int(row);
    }
    true
}

/// Whether `e` holds a division or a remainder (whose projection may
/// not be exact).
fn divides(e: &AffineExpr) -> bool {
    match e {
        AffineExpr::Binary(b) => {
            let (op, l, r) = &**b;
            !matches!(op, BinOp::Add | BinOp::Mul) || divides(l) || divides(r)
        }
        _ => false,
    }
}

/// Whether a conditional encloses `op`.
fn guarded(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    let mut cur = ir.parent_op(op);
    while let Some(p) = cur {
        match ctx.str(ir.op_name(p)) {
            "func.func" => return false,
            "affine.for" => {}
            _ => return true,
        }
        cur = ir.parent_op(p);
    }
    false
}
