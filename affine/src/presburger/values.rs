//! Constraint systems whose dimensions and symbols stand for SSA values
//! (MLIR's `FlatAffineValueConstraints`), and the constraints the affine
//! ops put on them: `affine.for` bounds and steps, `affine.parallel`
//! bounds, `affine.if` conditions, and affine maps over SSA operands.
//!
//! Operands resolve to columns by value: the induction variable of an
//! `affine.for`/`affine.parallel` is a dimension (its loop's domain is
//! added when it first appears), a value invariant in the affine scope is
//! a symbol (a constant one pinned to its value), and any other value a
//! dimension of its own. `affine.apply` producers are composed into the
//! maps that use their results, constants folded.

use super::flatten::{Flattener, LocalDivisions};
use super::int::Int;
use super::system::{IntegerSystem, VarKind};
use crate::parallel::group_sizes;
use crate::scope::{affine_scope, is_valid_symbol_in};
use silica_ir::affine::{AffineExpr, AffineMap, IntegerSet};
use silica_ir::dialect::inherent_attr;
use silica_ir::rewrite::fold::constant_i64;
use silica_ir::{AttrKind, Context, Ir, OpId, ValueDef, ValueId};

/// Why a system could not be built.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum DomainError {
    /// A bound, condition or subscript is not affine (semi-affine
    /// expressions, missing maps).
    NotAffine(OpId),
}

/// A constraint system with the SSA value of each dimension and symbol.
#[derive(Clone, Debug, Default)]
pub struct ValueSystem {
    pub system: IntegerSystem,
    /// The value of each dimension (`None`: an anonymous variable).
    pub dim_values: Vec<Option<ValueId>>,
    /// The value of each symbol.
    pub symbol_values: Vec<Option<ValueId>>,
    /// The local divisions, shared by the expressions flattened into it.
    pub locals: LocalDivisions,
}

fn op_is(ctx: &Context, ir: &Ir, op: OpId, name: &str) -> bool {
    ctx.str(ir.op_name(op)) == name
}

/// The affine loop (`affine.for` or `affine.parallel`) whose induction
/// variable `v` is.
pub fn loop_of_iv(ctx: &Context, ir: &Ir, v: ValueId) -> Option<OpId> {
    let ValueDef::Argument { block, .. } = ir.value_def(v) else {
        return None;
    };
    let op = ir.region_op(ir.block_region(block)?)?;
    match ctx.str(ir.op_name(op)) {
        "affine.for" if matches!(ir.value_def(v), ValueDef::Argument { index: 0, .. }) => Some(op),
        "affine.parallel" => Some(op),
        _ => None,
    }
}

/// Argument `i` of the entry block of `op`'s first region.
fn entry_arg(ir: &Ir, op: OpId, i: usize) -> Option<ValueId> {
    let region = ir.regions(op).next()?;
    ir.block_args(ir.entry_block(region)?).get(i).copied()
}

/// The map attribute `name` of `op`.
pub fn map_attr(ctx: &Context, ir: &Ir, op: OpId, name: &str) -> Option<AffineMap> {
    match ctx.attr_kind(inherent_attr(ctx, ir, op, name)?) {
        AttrKind::AffineMap(m) => Some(m.clone()),
        _ => None,
    }
}

/// `map` with its `affine.apply` operands composed in and constant
/// operands folded: each result becomes an expression over the returned
/// operands (all treated as dimensions). The operands come in MLIR's
/// order (`composeAffineMapAndOperands`): the map's own dimensions then
/// symbols, each replaced producer's dimensions appended to the
/// dimensions and its symbols to the symbols, the first use of a value
/// kept.
pub fn compose_operands(
    ctx: &Context,
    ir: &Ir,
    map: &AffineMap,
    operands: &[ValueId],
) -> (Vec<AffineExpr>, Vec<ValueId>) {
    let nd = (map.num_dims as usize).min(operands.len());
    let mut dims: Vec<Option<ValueId>> = operands[..nd].iter().map(|&v| Some(v)).collect();
    let mut syms: Vec<Option<ValueId>> = operands[nd..].iter().map(|&v| Some(v)).collect();
    let mut exprs: Vec<AffineExpr> = map.results.to_vec();
    let apply_of = |v: ValueId| {
        ir.defining_op(v)
            .filter(|&d| op_is(ctx, ir, d, "affine.apply"))
            .and_then(|d| {
                let m = map_attr(ctx, ir, d, "map").filter(|m| m.results.len() == 1)?;
                Some((m, ir.operands(d).collect::<Vec<ValueId>>()))
            })
    };
    for _ in 0..MAX_COMPOSE_STEPS {
        let slot = |p: usize| {
            if p < dims.len() {
                dims[p]
            } else {
                syms[p - dims.len()]
            }
        };
        let is_apply = |v: ValueId| {
            ir.defining_op(v).is_some_and(|d| {
                op_is(ctx, ir, d, "affine.apply")
                    && matches!(
                        inherent_attr(ctx, ir, d, "map").map(|a| ctx.attr_kind(a)),
                        Some(AttrKind::AffineMap(m)) if m.results.len() == 1
                    )
            })
        };
        let Some(p) = (0..dims.len() + syms.len())
            .find(|&p| slot(p).is_some_and(|v| constant_i64(ctx, ir, v).is_some() || is_apply(v)))
        else {
            break;
        };
        let Some(v) = slot(p) else {
            break;
        };
        let is_dim = p < dims.len();
        let at = if is_dim { p } else { p - dims.len() };
        if is_dim {
            dims[at] = None;
        } else {
            syms[at] = None;
        }
        let replacement = match (constant_i64(ctx, ir, v), apply_of(v)) {
            (Some(c), _) => AffineExpr::Constant(c),
            (None, Some((m, ops))) => {
                let (dbase, sbase) = (dims.len() as u32, syms.len() as u32);
                let md = (m.num_dims as usize).min(ops.len());
                dims.extend(ops[..md].iter().map(|&o| Some(o)));
                syms.extend(ops[md..].iter().map(|&o| Some(o)));
                let d: Vec<AffineExpr> =
                    (0..md as u32).map(|i| AffineExpr::Dim(dbase + i)).collect();
                let s: Vec<AffineExpr> = (0..(ops.len() - md) as u32)
                    .map(|i| AffineExpr::Symbol(sbase + i))
                    .collect();
                m.results[0].replace(&d, &s)
            }
            (None, None) => break,
        };
        let dim_repl: Vec<AffineExpr> = (0..dims.len() as u32)
            .map(|i| {
                if is_dim && i as usize == at {
                    replacement.clone()
                } else {
                    AffineExpr::Dim(i)
                }
            })
            .collect();
        let sym_repl: Vec<AffineExpr> = (0..syms.len() as u32)
            .map(|i| {
                if !is_dim && i as usize == at {
                    replacement.clone()
                } else {
                    AffineExpr::Symbol(i)
                }
            })
            .collect();
        exprs = exprs
            .iter()
            .map(|e| e.replace(&dim_repl, &sym_repl))
            .collect();
    }
    // Every remaining operand a dimension, in order, each value once.
    let mut out: Vec<ValueId> = Vec::new();
    let mut position = |v: Option<ValueId>| -> AffineExpr {
        let Some(v) = v else {
            return AffineExpr::Constant(0);
        };
        let i = out.iter().position(|&o| o == v).unwrap_or_else(|| {
            out.push(v);
            out.len() - 1
        });
        AffineExpr::Dim(i as u32)
    };
    let dim_repl: Vec<AffineExpr> = dims.iter().map(|&v| position(v)).collect();
    let sym_repl: Vec<AffineExpr> = syms.iter().map(|&v| position(v)).collect();
    // Distinct dimension operands and no symbols: nothing to renumber.
    let identity = sym_repl.is_empty()
        && dim_repl
            .iter()
            .enumerate()
            .all(|(i, e)| *e == AffineExpr::Dim(i as u32));
    if identity {
        return (exprs, out);
    }
    let exprs = exprs
        .iter()
        .map(|e| e.replace(&dim_repl, &sym_repl))
        .collect();
    (exprs, out)
}

/// How many producers (and constants) are composed in at most.
const MAX_COMPOSE_STEPS: usize = 256;

impl ValueSystem {
    /// The empty system (no variables, no constraints).
    pub fn new() -> Self {
        Self::default()
    }

    /// The column of the dimension or symbol standing for `v`.
    pub fn find(&self, v: ValueId) -> Option<usize> {
        if let Some(i) = self.dim_values.iter().position(|&d| d == Some(v)) {
            return Some(i);
        }
        self.symbol_values
            .iter()
            .position(|&s| s == Some(v))
            .map(|i| self.system.num_dims() + i)
    }

    /// Appends a dimension for `v`; returns its column.
    pub fn append_dim(&mut self, v: Option<ValueId>) -> usize {
        let at = self.system.append_vars(VarKind::Dim, 1);
        self.locals.columns_inserted(at, 1);
        self.dim_values.push(v);
        at
    }

    /// Appends a symbol for `v`; returns its column.
    pub fn append_symbol(&mut self, v: Option<ValueId>) -> usize {
        let at = self.system.append_vars(VarKind::Symbol, 1);
        self.locals.columns_inserted(at, 1);
        self.symbol_values.push(v);
        at
    }

    /// The column of an operand, adding it as MLIR's
    /// `addInductionVarOrTerminalSymbol` does (see the module docs).
    pub fn operand_column(
        &mut self,
        ctx: &Context,
        ir: &Ir,
        v: ValueId,
    ) -> Result<usize, DomainError> {
        if let Some(c) = self.find(v) {
            return Ok(c);
        }
        if let Some(lp) = loop_of_iv(ctx, ir, v) {
            let col = self.append_dim(Some(v));
            if op_is(ctx, ir, lp, "affine.for") {
                self.add_for_domain(ctx, ir, lp)?;
            } else {
                self.add_parallel_domain(ctx, ir, lp)?;
            }
            return Ok(col);
        }
        let scope = ir.defining_op(v).map_or_else(
            || match ir.value_def(v) {
                ValueDef::Argument { block, .. } => ir.block_region(block),
                _ => None,
            },
            |d| affine_scope(ctx, ir, d),
        );
        if is_valid_symbol_in(ctx, ir, v, scope) {
            let col = self.append_symbol(Some(v));
            if let Some(c) = constant_i64(ctx, ir, v) {
                let mut row = vec![Int::ZERO; self.system.num_cols()];
                let col = self.find(v).unwrap_or(col);
                row[col] = Int::ONE;
                row[self.system.num_vars()] = Int::from(-c);
                self.system.add_equality_int(row);
            }
            return Ok(self.find(v).unwrap_or(col));
        }
        let col = self.append_dim(Some(v));
        Ok(col)
    }

    /// The rows (over this system's columns) of the results of `map`
    /// applied to `operands`, adding the operands and locals needed.
    pub fn map_rows(
        &mut self,
        ctx: &Context,
        ir: &Ir,
        at: OpId,
        map: &AffineMap,
        operands: &[ValueId],
    ) -> Result<Vec<Vec<Int>>, DomainError> {
        let (exprs, values) = compose_operands(ctx, ir, map, operands);
        for &v in &values {
            self.operand_column(ctx, ir, v)?;
        }
        // Columns are final only once every operand is in.
        let columns: Vec<usize> = values
            .iter()
            .map(|&v| self.find(v).ok_or(DomainError::NotAffine(at)))
            .collect::<Result<_, _>>()?;
        let mut rows = Vec::with_capacity(exprs.len());
        for e in &exprs {
            let mut fl = Flattener {
                system: &mut self.system,
                dims: &columns,
                symbols: &[],
                locals: &mut self.locals,
            };
            rows.push(fl.flatten(e).ok_or(DomainError::NotAffine(at))?);
        }
        let width = self.system.num_cols();
        Ok(rows.into_iter().map(|r| widen(r, width)).collect())
    }

    /// Adds `iv >= result` for each result of a lower bound map, or
    /// `iv <= result - 1` for an upper bound map.
    fn add_bound_map(
        &mut self,
        ctx: &Context,
        ir: &Ir,
        at: OpId,
        iv: ValueId,
        (map, operands): (&AffineMap, &[ValueId]),
        upper: bool,
    ) -> Result<(), DomainError> {
        let rows = self.map_rows(ctx, ir, at, map, operands)?;
        let col = self.find(iv).ok_or(DomainError::NotAffine(at))?;
        for r in rows {
            // lower: iv - r >= 0; upper: r - 1 - iv >= 0.
            let mut row = r;
            if !upper {
                for v in row.iter_mut() {
                    *v = -&*v;
                }
            }
            let sign = if upper { Int::from(-1) } else { Int::ONE };
            row[col] = &row[col] + &sign;
            if upper {
                let last = row.len() - 1;
                row[last] = &row[last] - &Int::ONE;
            }
            self.system.add_inequality_int(row);
        }
        Ok(())
    }

    /// Adds the domain of an `affine.for` (its induction variable becomes
    /// a dimension if it is not one yet): the bounds, and with a constant
    /// lower bound, `iv = lb + step * q` for a new local `q`.
    pub fn add_for_domain(&mut self, ctx: &Context, ir: &Ir, op: OpId) -> Result<(), DomainError> {
        let Some(iv) = entry_arg(ir, op, 0) else {
            return Err(DomainError::NotAffine(op));
        };
        if self.find(iv).is_none() {
            self.append_dim(Some(iv));
        }
        let lb = map_attr(ctx, ir, op, "lowerBoundMap").ok_or(DomainError::NotAffine(op))?;
        let ub = map_attr(ctx, ir, op, "upperBoundMap").ok_or(DomainError::NotAffine(op))?;
        let operands: Vec<ValueId> = ir.operands(op).collect();
        let nlb = (lb.num_dims + lb.num_symbols) as usize;
        let nub = (ub.num_dims + ub.num_symbols) as usize;
        let (lb_ops, rest) = operands.split_at(nlb.min(operands.len()));
        let ub_ops = &rest[..nub.min(rest.len())];
        let step = crate::bounds::step(ctx, ir, op).unwrap_or(1);
        if step > 1 {
            if let [AffineExpr::Constant(lb_value)] = &*lb.results {
                // iv - lb - step * q == 0
                let q = self.system.append_vars(VarKind::Local, 1);
                let col = self.find(iv).ok_or(DomainError::NotAffine(op))?;
                let mut row = vec![Int::ZERO; self.system.num_cols()];
                row[col] = Int::ONE;
                row[q] = Int::from(-step);
                row[self.system.num_vars()] = -&Int::from(*lb_value);
                self.system.add_equality_int(row);
            }
        }
        self.add_bound_map(ctx, ir, op, iv, (&lb, lb_ops), false)?;
        self.add_bound_map(ctx, ir, op, iv, (&ub, ub_ops), true)
    }

    /// Adds the bounds of every induction variable of an `affine.parallel`
    /// (steps are not modelled: the domain is a superset).
    pub fn add_parallel_domain(
        &mut self,
        ctx: &Context,
        ir: &Ir,
        op: OpId,
    ) -> Result<(), DomainError> {
        let lb = map_attr(ctx, ir, op, "lowerBoundsMap").ok_or(DomainError::NotAffine(op))?;
        let ub = map_attr(ctx, ir, op, "upperBoundsMap").ok_or(DomainError::NotAffine(op))?;
        let lb_groups = group_sizes(ctx, inherent_attr(ctx, ir, op, "lowerBoundsGroups"));
        let ub_groups = group_sizes(ctx, inherent_attr(ctx, ir, op, "upperBoundsGroups"));
        let operands: Vec<ValueId> = ir.operands(op).collect();
        let nlb = (lb.num_dims + lb.num_symbols) as usize;
        let (lb_ops, ub_ops) = operands.split_at(nlb.min(operands.len()));
        let ivs: Vec<ValueId> = (0..lb_groups.len())
            .filter_map(|i| entry_arg(ir, op, i))
            .collect();
        for &iv in &ivs {
            if self.find(iv).is_none() {
                self.append_dim(Some(iv));
            }
        }
        let group = |m: &AffineMap, sizes: &[usize], i: usize| {
            let start: usize = sizes[..i].iter().sum();
            AffineMap {
                num_dims: m.num_dims,
                num_symbols: m.num_symbols,
                results: m.results
                    [start.min(m.results.len())..(start + sizes[i]).min(m.results.len())]
                    .into(),
            }
        };
        for (i, &iv) in ivs.iter().enumerate() {
            if i < ub_groups.len() {
                let l = group(&lb, &lb_groups, i);
                let u = group(&ub, &ub_groups, i);
                self.add_bound_map(ctx, ir, op, iv, (&l, lb_ops), false)?;
                self.add_bound_map(ctx, ir, op, iv, (&u, ub_ops), true)?;
            }
        }
        Ok(())
    }

    /// Adds the condition of an `affine.if` (whichever region the
    /// constrained op is in, as MLIR's `addAffineIfOpDomain`).
    pub fn add_if_domain(&mut self, ctx: &Context, ir: &Ir, op: OpId) -> Result<(), DomainError> {
        let set = match ctx
            .attr_kind(inherent_attr(ctx, ir, op, "condition").ok_or(DomainError::NotAffine(op))?)
        {
            AttrKind::IntegerSet(s) => s.clone(),
            _ => return Err(DomainError::NotAffine(op)),
        };
        let operands: Vec<ValueId> = ir.operands(op).collect();
        self.add_set(ctx, ir, op, &set, &operands)
    }

    /// Adds the constraints of an integer set applied to `operands`.
    pub fn add_set(
        &mut self,
        ctx: &Context,
        ir: &Ir,
        at: OpId,
        set: &IntegerSet,
        operands: &[ValueId],
    ) -> Result<(), DomainError> {
        let map = AffineMap {
            num_dims: set.num_dims,
            num_symbols: set.num_symbols,
            results: set.constraints.clone(),
        };
        let rows = self.map_rows(ctx, ir, at, &map, operands)?;
        for (row, &eq) in rows.into_iter().zip(set.eq.iter()) {
            if eq {
                self.system.add_equality_int(row);
            } else {
                self.system.add_inequality_int(row);
            }
        }
        Ok(())
    }
}

/// `row` widened to `width` entries (zeros before the constant).
fn widen(mut row: Vec<Int>, width: usize) -> Vec<Int> {
    if row.len() < width {
        let c = row.pop().unwrap_or_default();
        row.resize(width - 1, Int::ZERO);
        row.push(c);
    }
    row
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presburger::test_ir::{ops_named, parse_module};

    #[test]
    fn loop_nest_domain_with_step_min_and_symbols() {
        let (ctx, ir, top) = parse_module(
            "func.func @f(%n: index) {
               affine.for %i = 0 to 10 step 3 {
                 affine.for %j = max affine_map<(d0) -> (d0, 2)>(%i) to min affine_map<(d0)[s0] -> (d0 + 4, s0)>(%i)[%n] {
                 }
               }
               return
             }",
        );
        let inner = ops_named(&ctx, &ir, top, "affine.for")[1];
        let mut vs = ValueSystem::new();
        vs.add_for_domain(&ctx, &ir, inner).expect("affine");
        // Columns: j, i (added while resolving the bound), n, step local.
        assert_eq!(vs.system.num_dims(), 2);
        assert_eq!(vs.system.num_symbols(), 1);
        let contains = |j: i64, i: i64, n: i64| (0..=4).any(|q| vs.system.contains(&[j, i, n, q]));
        assert!(contains(3, 3, 100)); // j in [max(3, 2), min(7, 100))
        assert!(contains(6, 3, 100));
        assert!(!contains(7, 3, 100));
        assert!(!contains(2, 3, 100));
        assert!(!contains(3, 4, 100)); // i = 4 is not on the step
        assert!(!contains(3, 3, 3)); // j < n
        assert!(contains(2, 0, 5));
    }

    #[test]
    fn if_conditions_and_constant_operands() {
        let (ctx, ir, top) = parse_module(
            "#set = affine_set<(d0)[s0] : (d0 - s0 >= 0, d0 mod 2 == 0)>
             func.func @f() {
               %c4 = arith.constant 4 : index
               affine.for %i = 0 to 10 {
                 affine.if #set(%i)[%c4] {
                 }
               }
               return
             }",
        );
        let iff = ops_named(&ctx, &ir, top, "affine.if")[0];
        let mut vs = ValueSystem::new();
        vs.add_if_domain(&ctx, &ir, iff).expect("affine");
        assert_eq!(vs.system.num_locals(), 1);
        let ok = |i: i64| (0..=10).any(|q| vs.system.contains(&[i, q]));
        // The loop bounds of %i come with it: 12 is outside.
        assert!(ok(4) && ok(8) && !ok(5) && !ok(2) && !ok(12));
    }
}
