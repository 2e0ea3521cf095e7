//! Checks silica makes beyond MLIR's before fusing, so that a fusion
//! never changes what a program computes (MLIR's checks look at the
//! producer-consumer memrefs and the block order only):
//!
//! * the sliced nest holds only loops, affine loads/stores/applies and
//!   ops without memory effects (an op that is run again or skipped
//!   must not be observable);
//! * no slice iteration reads an element that a consumer iteration
//!   running before it has overwritten (decided exactly);
//! * where slice iterations may run more than once (overlapping slices
//!   of consecutive consumer iterations), the producer must give the
//!   same values again: it reads no memref it writes, no element is
//!   written by two of its iterations; otherwise each producer iteration
//!   must belong to one consumer iteration's slice only (decided exactly)
//!   and the producer nest must go away;
//! * where the consumer writes what the producer writes, each producer
//!   iteration must belong to one slice only (the slice then runs before
//!   the consumer iteration that overwrites its elements).

use super::graph::{is_read, is_write, memref_of};
use super::slice::Slice;
use crate::dependence::{
    accesses_of, check_dependence, pair_system, DependenceResult, MemoryAccess, Precision,
};
use crate::presburger::{Int, IntegerSystem, ValueSystem};
use silica_ir::affine_flatten::flatten_linear;
use silica_ir::dialect::{op_effects, Effects};
use silica_ir::{Context, Ir, OpId, ValueId};

fn memrefs(ctx: &Context, ir: &Ir, root: OpId, write: bool) -> Vec<ValueId> {
    let mut out = Vec::new();
    ir.walk(root, &mut |o| {
        if (write && is_write(ctx, ir, o)) || (!write && is_read(ctx, ir, o)) {
            let m = memref_of(ctx, ir, o);
            if !out.contains(&m) {
                out.push(m);
            }
        }
    });
    out
}

/// Whether every op under `root` may be run again or skipped.
pub fn only_affine_memory_ops(ctx: &Context, ir: &Ir, root: OpId) -> bool {
    let mut ok = true;
    ir.walk(root, &mut |o| {
        let name = ctx.str(ir.op_name(o));
        if matches!(
            name,
            "affine.for" | "affine.yield" | "affine.load" | "affine.store" | "affine.apply"
        ) {
            return;
        }
        let registered = ctx.op_def(ir.op_name(o)).is_some();
        let effects = op_effects(ctx, ir, o);
        let free = matches!(effects, Effects::None)
            || (matches!(effects, Effects::Recursive) && ir.num_regions(o) == 0);
        // Unregistered ops stand for computations in MLIR's tests: like
        // MLIR, they are taken to touch only their memref operands.
        let unknown_pure = !registered
            && ir.num_regions(o) == 0
            && !ir.operands(o).any(|v| super::graph::is_memref(ctx, ir, v));
        ok &= free || unknown_pure;
    });
    ok
}

/// Whether running any of `src`'s iterations again writes the same
/// values: none of its loads whose value is used reads a memref it
/// writes (a load whose result goes unused cannot change what is
/// stored), and no element is written by two of its store instances
/// within one run of the nest.
fn is_idempotent(ctx: &Context, ir: &Ir, src: OpId) -> bool {
    let written = memrefs(ctx, ir, src, true);
    let mut reads_written = false;
    ir.walk(src, &mut |o| {
        let used = ir.results(o).any(|r| ir.has_uses(r));
        reads_written |= is_read(ctx, ir, o) && used && written.contains(&memref_of(ctx, ir, o));
    });
    if reads_written {
        return false;
    }
    let mut stores = Vec::new();
    ir.walk(src, &mut |o| {
        if is_write(ctx, ir, o) {
            stores.push(o);
        }
    });
    let mut accesses = Vec::new();
    for &s in &stores {
        match accesses_of(ctx, ir, s) {
            Ok(a) => accesses.extend(a),
            Err(_) => return false,
        }
    }
    // Loops around the nest run it again as a whole, as before fusion:
    // only its own loops count.
    let surrounding = super::slice::enclosing_fors(ctx, ir, src).len();
    for a in &accesses {
        for b in &accesses {
            let depth = a.num_loops.min(b.num_loops) + 1;
            for d in surrounding + 1..=depth {
                if check_dependence(ctx, ir, a, b, d, Precision::Shadow)
                    != DependenceResult::NoDependence
                {
                    return false;
                }
            }
        }
    }
    true
}

/// Whether no sliced iteration belongs to the slices of two different
/// iterations of the insertion loops (decided exactly).
fn slices_disjoint(ctx: &Context, ir: &Ir, slice: &Slice) -> bool {
    let own: Vec<usize> = (0..slice.ivs.len())
        .filter(|&i| !slice.operands.contains(&slice.ivs[i]))
        .collect();
    let kept: Vec<ValueId> = slice
        .operands
        .iter()
        .copied()
        .filter(|&v| crate::presburger::loop_of_iv(ctx, ir, v).is_some())
        .collect();
    let k = kept.len();
    // The insertion loops' domain.
    let mut dom = ValueSystem::new();
    for &v in &slice.operands {
        if dom.operand_column(ctx, ir, v).is_err() {
            return false;
        }
    }
    let dd = dom.system.num_dims();
    let ds = dom.system.num_symbols();
    let dl = dom.system.num_locals();
    let n = own.len();
    // Columns: t1 dims (dd), t2 dims (dd), s (n), symbols (ds), locals (2 dl).
    let mut sys = IntegerSystem::new(2 * dd + n, ds, 2 * dl);
    let width = sys.num_cols();
    let dim_col = |copy: usize, j: usize| copy * dd + j;
    let sym_col = |j: usize| 2 * dd + n + j;
    let loc_col = |copy: usize, j: usize| 2 * dd + n + ds + copy * dl + j;
    for copy in 0..2 {
        let map_row = |r: &[Int]| -> Vec<Int> {
            let mut out = vec![Int::ZERO; width];
            for (j, x) in r[..r.len() - 1].iter().enumerate() {
                let c = if j < dd {
                    dim_col(copy, j)
                } else if j < dd + ds {
                    sym_col(j - dd)
                } else {
                    loc_col(copy, j - dd - ds)
                };
                out[c] = &out[c] + x;
            }
            out[width - 1] = r[r.len() - 1].clone();
            out
        };
        for r in dom.system.equalities() {
            sys.add_equality_int(map_row(r));
        }
        for r in dom.system.inequalities() {
            sys.add_inequality_int(map_row(r));
        }
    }
    // Columns of the slice maps' operands.
    let nd_map = slice
        .lbs
        .iter()
        .chain(&slice.ubs)
        .flatten()
        .next()
        .map_or(0, |m| m.num_dims as usize);
    let operand_col = |copy: usize, j: usize| -> Option<usize> {
        let v = slice.operands[j];
        let c = dom.find(v)?;
        Some(if c < dd {
            dim_col(copy, c)
        } else {
            sym_col(c - dd)
        })
    };
    for copy in 0..2 {
        for (si, &i) in own.iter().enumerate() {
            let s_col = 2 * dd + si;
            for (map, lower) in [(&slice.lbs[i], true), (&slice.ubs[i], false)] {
                let Some(map) = map else { continue };
                let Some(lin) = flatten_linear(&map.results[0], map.num_dims, map.num_symbols)
                else {
                    return false;
                };
                let mut row = vec![Int::ZERO; width];
                for (j, &c) in lin[..lin.len() - 1].iter().enumerate() {
                    if c == 0 {
                        continue;
                    }
                    let _ = nd_map;
                    let Some(col) = operand_col(copy, j) else {
                        return false;
                    };
                    row[col] = &row[col] + &Int::from(c);
                }
                row[width - 1] = Int::from(lin[lin.len() - 1]);
                // lower: s - lb >= 0; upper: ub - 1 - s >= 0.
                if lower {
                    row = row.iter().map(|x| -x).collect();
                    row[s_col] = Int::ONE;
                } else {
                    row[s_col] = Int::from(-1);
                    row[width - 1] = &row[width - 1] - &Int::ONE;
                }
                sys.add_inequality_int(row);
            }
        }
    }
    // t1 <lex t2 over the insertion loops, one case per first difference.
    let kcols: Vec<usize> = kept.iter().filter_map(|&v| dom.find(v)).collect();
    if kcols.len() != k {
        return false;
    }
    for first in 0..k {
        let mut s = sys.clone();
        for (idx, &c) in kcols.iter().enumerate().take(first + 1) {
            let mut row = vec![Int::ZERO; width];
            row[dim_col(1, c)] = Int::ONE;
            row[dim_col(0, c)] = Int::from(-1);
            if idx == first {
                row[width - 1] = Int::from(-1);
                s.add_inequality_int(row);
            } else {
                s.add_equality_int(row);
            }
        }
        if !s.is_empty() {
            return false;
        }
    }
    true
}

/// Whether fusing `slice` of `src` into `dst` (and erasing `src` when
/// `remove_src`) keeps the program's meaning (see the module docs).
pub fn is_safe(
    ctx: &Context,
    ir: &Ir,
    src: OpId,
    dst: OpId,
    slice: &Slice,
    remove_src: bool,
) -> bool {
    if !only_affine_memory_ops(ctx, ir, src) {
        return false;
    }
    let src_reads = memrefs(ctx, ir, src, false);
    let src_writes = memrefs(ctx, ir, src, true);
    let dst_writes = memrefs(ctx, ir, dst, true);
    if dst_writes.iter().any(|m| src_reads.contains(m))
        && !reads_before_overwrites(ctx, ir, src, dst, slice)
    {
        return false;
    }
    let overwritten = dst_writes.iter().any(|m| src_writes.contains(m));
    if is_idempotent(ctx, ir, src) {
        return !overwritten || slices_disjoint(ctx, ir, slice);
    }
    remove_src && slices_disjoint(ctx, ir, slice)
}

fn ops_of(ctx: &Context, ir: &Ir, root: OpId, write: bool) -> Vec<OpId> {
    let mut out = Vec::new();
    ir.walk(root, &mut |o| {
        if (write && is_write(ctx, ir, o)) || (!write && is_read(ctx, ir, o)) {
            out.push(o);
        }
    });
    out
}

fn one_access(ctx: &Context, ir: &Ir, op: OpId) -> Option<MemoryAccess> {
    accesses_of(ctx, ir, op).ok()?.into_iter().next()
}

/// Whether every element a slice iteration reads is still the original
/// one: no consumer store that runs before the slice instance (an
/// earlier iteration of the insertion loops, or the same one for slices
/// placed at the end of the body) writes an element a sliced load reads.
fn reads_before_overwrites(ctx: &Context, ir: &Ir, src: OpId, dst: OpId, slice: &Slice) -> bool {
    let loads = ops_of(ctx, ir, src, false);
    let stores = ops_of(ctx, ir, dst, true);
    for &l in &loads {
        for &w in &stores {
            if memref_of(ctx, ir, l) != memref_of(ctx, ir, w) {
                continue;
            }
            match overwritten_before(ctx, ir, l, w, slice) {
                Some(false) => {}
                _ => return false,
            }
        }
    }
    true
}

/// Whether some instance of the consumer store `w` may overwrite, before
/// the slice instance of the sliced load `l` runs, the element `l` reads
/// (`None`: not analysable).
fn overwritten_before(ctx: &Context, ir: &Ir, l: OpId, w: OpId, slice: &Slice) -> Option<bool> {
    let la = one_access(ctx, ir, l)?;
    let wa = one_access(ctx, ir, w)?;
    let p = pair_system(&la, &wa);
    let kept: Vec<ValueId> = slice
        .operands
        .iter()
        .copied()
        .filter(|&v| crate::presburger::loop_of_iv(ctx, ir, v).is_some())
        .collect();
    let k = kept.len();
    let mut dom = ValueSystem::new();
    for &v in &slice.operands {
        dom.operand_column(ctx, ir, v).ok()?;
    }
    // The union of the symbols, by value.
    let mut syms: Vec<Option<ValueId>> = p.symbol_values.clone();
    for v in &dom.symbol_values {
        if v.is_none() || !syms.contains(v) {
            syms.push(*v);
        }
    }
    let nslice_syms = slice.operands.len() - k;
    for &v in &slice.operands[k..] {
        if !syms.contains(&Some(v)) {
            syms.push(Some(v));
        }
    }
    let _ = nslice_syms;
    let pd = p.system.num_dims();
    let ps = p.system.num_symbols();
    let pl = p.system.num_locals();
    let dd = dom.system.num_dims();
    let ds = dom.system.num_symbols();
    let dl = dom.system.num_locals();
    let ns = syms.len();
    let mut sys = IntegerSystem::new(pd + k, ns, pl + dl);
    let width = sys.num_cols();
    let t_col = |j: usize| pd + j;
    let sym_col = |j: usize| pd + k + j;
    let loc_col = |j: usize| pd + k + ns + j;
    let sym_of = |v: Option<ValueId>| syms.iter().position(|x| *x == v && v.is_some());
    // The pair's rows.
    let p_map: Vec<usize> = (0..pd + ps + pl)
        .map(|c| {
            if c < pd {
                Some(c)
            } else if c < pd + ps {
                sym_of(p.symbol_values[c - pd]).map(sym_col)
            } else {
                Some(loc_col(c - pd - ps))
            }
        })
        .collect::<Option<_>>()?;
    // The insertion loops' domain over t.
    let d_map: Vec<usize> = (0..dd + ds + dl)
        .map(|c| {
            if c < dd {
                let v = dom.dim_values[c]?;
                kept.iter().position(|&x| x == v).map(t_col)
            } else if c < dd + ds {
                sym_of(dom.symbol_values[c - dd]).map(sym_col)
            } else {
                Some(loc_col(pl + c - dd - ds))
            }
        })
        .collect::<Option<_>>()?;
    let mapped = |r: &[Int], map: &[usize]| -> Vec<Int> {
        let mut out = vec![Int::ZERO; width];
        for (j, x) in r[..r.len() - 1].iter().enumerate() {
            out[map[j]] = &out[map[j]] + x;
        }
        out[width - 1] = r[r.len() - 1].clone();
        out
    };
    for r in p.system.equalities() {
        sys.add_equality_int(mapped(r, &p_map));
    }
    for r in p.system.inequalities() {
        sys.add_inequality_int(mapped(r, &p_map));
    }
    for r in dom.system.equalities() {
        sys.add_equality_int(mapped(r, &d_map));
    }
    for r in dom.system.inequalities() {
        sys.add_inequality_int(mapped(r, &d_map));
    }
    // The slice bounds of the load's loops, over t and the symbols.
    for (i, iv) in slice.ivs.iter().enumerate() {
        let Some(j) = la.domain.dim_values[..la.num_loops]
            .iter()
            .position(|v| *v == Some(*iv))
        else {
            continue;
        };
        let s_col = p.src_cols[j];
        if kept.contains(iv) {
            // A loop around both nests: the same iteration.
            let mut row = vec![Int::ZERO; width];
            row[s_col] = Int::ONE;
            row[t_col(kept.iter().position(|x| x == iv)?)] = Int::from(-1);
            sys.add_equality_int(row);
            continue;
        }
        for (map, lower) in [(&slice.lbs[i], true), (&slice.ubs[i], false)] {
            let Some(map) = map else { continue };
            let lin = flatten_linear(&map.results[0], map.num_dims, map.num_symbols)?;
            let nd = map.num_dims as usize;
            let mut row = vec![Int::ZERO; width];
            for (c, &x) in lin[..lin.len() - 1].iter().enumerate() {
                if x == 0 {
                    continue;
                }
                let v = slice.operands[c];
                let col = if c < nd {
                    t_col(kept.iter().position(|&y| y == v)?)
                } else {
                    sym_col(sym_of(Some(v))?)
                };
                row[col] = &row[col] + &Int::from(x);
            }
            row[width - 1] = Int::from(lin[lin.len() - 1]);
            if lower {
                row = row.iter().map(|x| -x).collect();
                row[s_col] = &row[s_col] + &Int::ONE;
            } else {
                row[s_col] = &row[s_col] - &Int::ONE;
                row[width - 1] = &row[width - 1] - &Int::ONE;
            }
            sys.add_inequality_int(row);
        }
    }
    // The store's loops shared with the insertion loops, then the order.
    let w_loops = &wa.domain.dim_values[..wa.num_loops];
    let c = w_loops
        .iter()
        .zip(&kept)
        .take_while(|(a, b)| **a == Some(**b))
        .count();
    // At equal prefixes the store runs first unless it is under all the
    // insertion loops with the slice at the start of the body.
    let store_first_at_equal = c < k || !slice.at_start;
    let store_first_at_equal = if c < k {
        // Within iteration `t[..c]`, the store's ancestor at depth `c`
        // against the insertion loop's.
        let block = ir.op_block(crate::presburger::loop_of_iv(ctx, ir, kept[c])?)?;
        let a = super::graph::ancestor_in_block(ir, w, block)?;
        let b = crate::presburger::loop_of_iv(ctx, ir, kept[c])?;
        super::graph::is_before_in_block(ir, a, b)
    } else {
        store_first_at_equal
    };
    let mut cases: Vec<(usize, bool)> = (0..c).map(|f| (f, true)).collect();
    if store_first_at_equal {
        cases.push((c, false));
    }
    for (first, strict) in cases {
        let mut s = sys.clone();
        for j in 0..first.min(c) {
            let mut row = vec![Int::ZERO; width];
            row[p.dst_cols[j]] = Int::ONE;
            row[t_col(j)] = Int::from(-1);
            s.add_equality_int(row);
        }
        if strict {
            // w_first <= t_first - 1
            let mut row = vec![Int::ZERO; width];
            row[t_col(first)] = Int::ONE;
            row[p.dst_cols[first]] = Int::from(-1);
            row[width - 1] = Int::from(-1);
            s.add_inequality_int(row);
        }
        if !s.is_empty() {
            return Some(true);
        }
    }
    Some(false)
}
