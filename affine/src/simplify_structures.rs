//! `affine-simplify-structures`: every affine map attribute of the ops in
//! a function simplified (each result flattened and rebuilt, MLIR's
//! `simplifyAffineExpr`), every integer set simplified as MLIR's
//! `simplifyIntegerSet` (an empty set becomes the canonical `1 == 0`; a
//! linear one loses trivially redundant constraints: GCD-tightened
//! inequalities, duplicates, those implied by another with the same
//! coefficients and a smaller constant, and `c >= 0` for `c >= 0`), then
//! the canonicalization patterns and folds of `affine.apply`, `affine.for`
//! and `affine.if` applied to those ops (MLIR's strict-mode driver). Sets
//! with `floordiv`/`mod` constraints are only tested for emptiness.

use crate::presburger::{Flattener, Int, IntegerSystem, LocalDivisions};
use silica_ir::affine::{AffineExpr, AffineMap, IntegerSet};
use silica_ir::affine_flatten::{flatten_linear, from_linear, simplify_map};
use silica_ir::pass::{Pass, PassInfo};
use silica_ir::rewrite::{apply_op_patterns_greedily, GreedyConfig, PatternSet};
use silica_ir::{Attr, AttrKind, Context, Diagnostic, Ir, OpId};

fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a as i64
}

/// Divides `row` by the GCD of its first `n` entries; returns that GCD.
fn normalize_row(row: &mut [i64], n: usize) -> i64 {
    let g = row[..n].iter().fold(0, |g, &x| gcd(g, x));
    if g > 1 {
        for x in &mut row[..n] {
            *x /= g;
        }
    }
    g
}

/// MLIR's `removeTrivialRedundancy` on linear rows `[coefficients..,
/// constant]`.
fn remove_trivial_redundancy(eqs: &mut [Vec<i64>], ineqs: &mut Vec<Vec<i64>>) {
    for row in ineqs.iter_mut() {
        let n = row.len() - 1;
        let g = normalize_row(row, n);
        if g > 1 {
            row[n] = row[n].div_euclid(g);
        }
    }
    for row in eqs.iter_mut() {
        let n = row.len();
        normalize_row(row, n);
    }
    for row in ineqs.iter_mut() {
        let n = row.len();
        normalize_row(row, n);
    }
    let mut redundant = vec![false; ineqs.len()];
    let mut seen: Vec<&[i64]> = Vec::new();
    let mut by_coefficients: Vec<(&[i64], usize, i64)> = Vec::new();
    for (r, row) in ineqs.iter().enumerate() {
        let n = row.len() - 1;
        let trivially_valid = row[..n].iter().all(|&x| x == 0) && row[n] >= 0;
        if trivially_valid || seen.contains(&row.as_slice()) {
            redundant[r] = true;
            continue;
        }
        seen.push(row);
        match by_coefficients.iter_mut().find(|(c, _, _)| *c == &row[..n]) {
            Some(entry) => {
                if entry.2 > row[n] {
                    redundant[entry.1] = true;
                    entry.1 = r;
                    entry.2 = row[n];
                } else {
                    redundant[r] = true;
                }
            }
            None => by_coefficients.push((&row[..n], r, row[n])),
        }
    }
    let mut r = 0;
    ineqs.retain(|_| {
        r += 1;
        !redundant[r - 1]
    });
}

/// The system of a set's constraints, when every one is linear.
fn linear_rows(set: &IntegerSet) -> Option<Vec<Vec<i64>>> {
    set.constraints
        .iter()
        .map(|c| flatten_linear(c, set.num_dims, set.num_symbols))
        .collect()
}

/// Whether the set has no integer point (over its dims and symbols).
fn is_empty(set: &IntegerSet) -> bool {
    let (nd, ns) = (set.num_dims as usize, set.num_symbols as usize);
    let mut sys = IntegerSystem::new(nd, ns, 0);
    let dims: Vec<usize> = (0..nd).collect();
    let symbols: Vec<usize> = (nd..nd + ns).collect();
    let mut locals = LocalDivisions::default();
    let mut rows = Vec::new();
    {
        let mut f = Flattener {
            system: &mut sys,
            dims: &dims,
            symbols: &symbols,
            locals: &mut locals,
        };
        for c in set.constraints.iter() {
            match f.flatten(c) {
                Some(row) => rows.push(row),
                None => return false,
            }
        }
    }
    let width = sys.num_cols();
    for (row, &eq) in rows.into_iter().zip(set.eq.iter()) {
        // Locals added after a row was built go before its constant.
        let mut full: Vec<Int> = row[..row.len() - 1].to_vec();
        full.resize(width - 1, Int::ZERO);
        full.push(row[row.len() - 1].clone());
        if eq {
            sys.add_equality_int(full);
        } else {
            sys.add_inequality_int(full);
        }
    }
    sys.is_empty()
}

/// MLIR's `simplifyIntegerSet`.
pub fn simplify_set(set: &IntegerSet) -> IntegerSet {
    if is_empty(set) {
        return IntegerSet {
            num_dims: set.num_dims,
            num_symbols: set.num_symbols,
            constraints: Box::new([AffineExpr::Constant(1)]),
            eq: Box::new([true]),
        };
    }
    let Some(rows) = linear_rows(set) else {
        return set.clone();
    };
    let mut eqs = Vec::new();
    let mut ineqs = Vec::new();
    for (row, &eq) in rows.into_iter().zip(set.eq.iter()) {
        if eq {
            eqs.push(row);
        } else {
            ineqs.push(row);
        }
    }
    remove_trivial_redundancy(&mut eqs, &mut ineqs);
    let (nd, ns) = (set.num_dims, set.num_symbols);
    if eqs.is_empty() && ineqs.is_empty() {
        return IntegerSet {
            num_dims: nd,
            num_symbols: ns,
            constraints: Box::new([AffineExpr::Constant(0)]),
            eq: Box::new([true]),
        };
    }
    let eq_flags: Vec<bool> = eqs
        .iter()
        .map(|_| true)
        .chain(ineqs.iter().map(|_| false))
        .collect();
    let constraints: Vec<AffineExpr> = eqs
        .iter()
        .chain(ineqs.iter())
        .map(|r| from_linear(r, nd, ns))
        .collect();
    IntegerSet {
        num_dims: nd,
        num_symbols: ns,
        constraints: constraints.into(),
        eq: eq_flags.into(),
    }
}

/// The simplified form of an affine map or integer set attribute.
fn simplify_attr(ctx: &mut Context, a: Attr) -> Option<Attr> {
    let kind = match ctx.attr_kind(a) {
        AttrKind::AffineMap(m) => {
            let s: AffineMap = simplify_map(m);
            (s != *m).then_some(AttrKind::AffineMap(s))
        }
        AttrKind::IntegerSet(set) => {
            let s = simplify_set(set);
            (s != *set).then_some(AttrKind::IntegerSet(s))
        }
        _ => None,
    }?;
    Some(ctx.intern_attr(kind))
}

/// The dictionary `d` with its map and set entries simplified, if any
/// changed.
fn simplify_dict(ctx: &mut Context, d: Attr) -> Option<Attr> {
    let AttrKind::Dictionary(entries) = ctx.attr_kind(d) else {
        return None;
    };
    let mut entries = entries.to_vec();
    let mut changed = false;
    for e in &mut entries {
        if let Some(s) = simplify_attr(ctx, e.1) {
            e.1 = s;
            changed = true;
        }
    }
    changed.then(|| ctx.dict_attr(entries))
}

struct SimplifyAffineStructures;

impl Pass for SimplifyAffineStructures {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        let mut all = Vec::new();
        ir.walk(op, &mut |o| all.push(o));
        let mut to_simplify = Vec::new();
        for o in all {
            if let Some(p) = ir.op_props(o).and_then(|p| simplify_dict(ctx, p)) {
                ir.set_op_props(o, Some(p));
            }
            if let Some(a) = simplify_dict(ctx, ir.op_attrs(o)) {
                ir.set_op_attrs(o, a);
            }
            if matches!(
                ctx.str(ir.op_name(o)),
                "affine.for" | "affine.if" | "affine.apply"
            ) && o != op
            {
                to_simplify.push(o);
            }
        }
        let mut patterns = PatternSet::default();
        for name in ["affine.apply", "affine.for", "affine.if"] {
            if let Some(def) = ctx.op_def_by_name(name) {
                let list = def.patterns;
                let sym = ctx.sym(name);
                patterns.add(sym, list.iter());
            }
        }
        if !to_simplify.is_empty() {
            apply_op_patterns_greedily(ctx, ir, &to_simplify, &patterns, GreedyConfig::default());
        }
        Ok(())
    }
}

/// The `affine-simplify-structures` pass.
pub static AFFINE_SIMPLIFY_STRUCTURES: PassInfo = PassInfo {
    argument: "affine-simplify-structures",
    name: "SimplifyAffineStructures",
    description: "Simplify affine expressions in maps/sets and normalize memrefs",
    anchor: Some("func.func"),
    options: &[],
    create: |_| Ok(Box::new(SimplifyAffineStructures)),
};
