//! What the synthesis tools simplify before mapping, found before
//! pricing: constant operands folded (yosys's `opt_expr`) and duplicate
//! ops merged (`opt_merge`). A module's comb ops are visited operands
//! first; each one either
//! - computes a constant (all its operands constant: evaluated bit for
//!   bit by the simulator's evaluator),
//! - equals one of its operands (a multiplexer with a constant select or
//!   equal arms, `and`/`or`/`xor` whose other operands are their
//!   identities, `add`/`sub` of zero, a one-bit `icmp` against a
//!   constant, or a one-bit multiplexer between `true` and `false`),
//! - is an operand inverted (one-bit `xor` with `true`, `icmp eq x,
//!   false`, a multiplexer between `false` and `true`): an inverter that
//!   the consuming LUT absorbs,
//! - or repeats an earlier op on the same operands (commutative operands
//!   in any order), and is that op.
//!
//! Such ops cost nothing and add no delay; the rest are priced with their
//! operands resolved (`crate::flow::estimate::price`).

use rustc_hash::{FxHashMap, FxHashSet};
use silica_hw_dialects::eval::eval_op;
use silica_hw_dialects::eval::Bits;
use silica_hw_dialects::types::bit_width;
use silica_ir::{Attr, BlockId, Context, Ir, OpId, Symbol, Type, ValueId};

/// The folding of one module's comb ops.
#[derive(Default)]
pub struct Fold {
    /// Values known to be constant (resolved values only).
    constants: FxHashMap<ValueId, Bits>,
    /// Values equal to another (an op's result to its representative).
    alias: FxHashMap<ValueId, ValueId>,
    /// One-bit values that are another inverted.
    inverted: FxHashMap<ValueId, ValueId>,
    /// Ops that cost nothing: constants, aliases, inverters, duplicates.
    free: FxHashSet<OpId>,
}

/// What identifies an op for merging: name, properties, attributes,
/// resolved operands and result types.
type Key = (Symbol, Option<Attr>, Attr, Vec<ValueId>, Vec<Type>);

impl Fold {
    /// Folds the comb ops `order` (a block's, operands first: [`order`]).
    pub fn of(ctx: &Context, ir: &Ir, order: &[OpId]) -> Fold {
        Fold::seeded(ctx, ir, order, FxHashMap::default())
    }

    /// Folds the comb ops `order` given values already known equal to
    /// others (`alias`: merged registers' outputs to their
    /// representatives', `super::flops`).
    pub fn seeded(
        ctx: &Context,
        ir: &Ir,
        order: &[OpId],
        alias: FxHashMap<ValueId, ValueId>,
    ) -> Fold {
        let mut fold = Fold {
            alias,
            ..Fold::default()
        };
        let mut seen: FxHashMap<Key, ValueId> = FxHashMap::default();
        for &op in order {
            let name = ctx.str(ir.op_name(op));
            if ir.num_results(op) != 1 {
                continue;
            }
            let r = ir.result(op, 0);
            if name == "hw.constant" {
                if let Ok(bits) = eval_op(ctx, ir, op, &[]) {
                    fold.constants.insert(r, bits);
                }
                continue;
            }
            let operands: Vec<ValueId> = ir.operands(op).map(|v| fold.resolve(v)).collect();
            let consts: Option<Vec<Bits>> = operands
                .iter()
                .map(|v| fold.constants.get(v).cloned())
                .collect();
            if let Some(args) = consts.filter(|_| !operands.is_empty()) {
                if let Ok(bits) = eval_op(ctx, ir, op, &args) {
                    fold.constants.insert(r, bits);
                    fold.free.insert(op);
                    continue;
                }
            }
            match fold.simplify(ctx, ir, op, &operands) {
                Some(Simple::Same(v)) => {
                    fold.alias.insert(r, v);
                    fold.free.insert(op);
                    continue;
                }
                Some(Simple::Not(v)) => {
                    fold.inverted.insert(r, v);
                    fold.free.insert(op);
                    continue;
                }
                Some(Simple::Constant(bits)) => {
                    fold.constants.insert(r, bits);
                    fold.free.insert(op);
                    continue;
                }
                None => {}
            }
            let mut key_operands = operands;
            if matches!(
                name,
                "comb.add" | "comb.mul" | "comb.and" | "comb.or" | "comb.xor"
            ) {
                key_operands.sort_unstable();
            }
            let key = (
                ir.op_name(op),
                ir.op_props(op),
                ir.op_attrs(op),
                key_operands,
                ir.results(op).map(|v| ir.value_type(v)).collect(),
            );
            match seen.get(&key) {
                Some(&first) => {
                    fold.alias.insert(r, first);
                    fold.free.insert(op);
                }
                None => {
                    seen.insert(key, r);
                }
            }
        }
        fold
    }

    /// The value `v` equals (itself unless it was folded onto another).
    pub fn resolve(&self, mut v: ValueId) -> ValueId {
        while let Some(&a) = self.alias.get(&v) {
            v = a;
        }
        v
    }

    /// The constant `v` is, if known.
    pub fn constant(&self, v: ValueId) -> Option<&Bits> {
        self.constants.get(&self.resolve(v))
    }

    /// The value `v` inverts, if it is an inverter's output.
    pub fn inverts(&self, v: ValueId) -> Option<ValueId> {
        self.inverted
            .get(&self.resolve(v))
            .map(|&x| self.resolve(x))
    }

    /// Whether `op` costs nothing after folding.
    pub fn is_free(&self, op: OpId) -> bool {
        self.free.contains(&op)
    }

    /// The simplification of `op` (operands resolved) with some constant
    /// operands or repeated operands.
    fn simplify(&self, ctx: &Context, ir: &Ir, op: OpId, operands: &[ValueId]) -> Option<Simple> {
        let width = bit_width(ctx, ir.value_type(ir.result(op, 0)))? as u32;
        let c = |v: ValueId| self.constants.get(&v);
        let zero = |v: ValueId| c(v).is_some_and(Bits::is_zero);
        let ones = |v: ValueId| c(v).is_some_and(all_ones);
        match ctx.str(ir.op_name(op)) {
            "comb.mux" => {
                let (s, a, b) = (operands[0], operands[1], operands[2]);
                if let Some(sel) = c(s) {
                    return Some(Simple::Same(if sel.is_zero() { b } else { a }));
                }
                if a == b {
                    return Some(Simple::Same(a));
                }
                if width == 1 && ones(a) && zero(b) {
                    return Some(Simple::Same(s));
                }
                (width == 1 && zero(a) && ones(b)).then_some(Simple::Not(s))
            }
            name @ ("comb.and" | "comb.or") => {
                let (identity, absorbing): (&dyn Fn(ValueId) -> bool, &dyn Fn(ValueId) -> bool) =
                    if name == "comb.and" {
                        (&ones, &zero)
                    } else {
                        (&zero, &ones)
                    };
                if let Some(&v) = operands.iter().find(|&&v| absorbing(v)) {
                    return c(v).cloned().map(Simple::Constant);
                }
                let mut rest: Vec<ValueId> =
                    operands.iter().copied().filter(|&v| !identity(v)).collect();
                rest.sort_unstable();
                rest.dedup();
                match rest[..] {
                    [v] => Some(Simple::Same(v)),
                    _ => None,
                }
            }
            "comb.xor" => {
                let rest: Vec<ValueId> = operands.iter().copied().filter(|&v| !zero(v)).collect();
                match rest[..] {
                    [v] => Some(Simple::Same(v)),
                    [a, b] if width == 1 && ones(b) => Some(Simple::Not(a)),
                    [a, b] if width == 1 && ones(a) => Some(Simple::Not(b)),
                    _ => None,
                }
            }
            "comb.add" | "comb.sub" | "comb.shl" | "comb.shru" | "comb.shrs"
                if operands.len() == 2 && zero(operands[1]) =>
            {
                Some(Simple::Same(operands[0]))
            }
            "comb.add" if operands.len() == 2 && zero(operands[0]) => {
                Some(Simple::Same(operands[1]))
            }
            "comb.icmp" if operands.len() == 2 => {
                let (a, b) = (operands[0], operands[1]);
                let one_bit = bit_width(ctx, ir.value_type(a)) == Some(1);
                let (x, k) = match (c(a), c(b)) {
                    (None, Some(k)) => (a, k),
                    (Some(k), None) => (b, k),
                    _ => return None,
                };
                // eq 0 / ne 1: inverted; eq 1 / ne 0: itself.
                let same = match predicate(ctx, ir, op)? {
                    0 => !k.is_zero(),
                    1 => k.is_zero(),
                    _ => return None,
                };
                one_bit.then_some(if same {
                    Simple::Same(x)
                } else {
                    Simple::Not(x)
                })
            }
            _ => None,
        }
    }
}

/// What an op folds to.
enum Simple {
    Same(ValueId),
    Not(ValueId),
    Constant(Bits),
}

/// Whether every bit of `b` is set.
fn all_ones(b: &Bits) -> bool {
    b.width() > 0 && b.value().count_ones() == u64::from(b.width())
}

/// Whether `op` is an ordering compare that reads only the sign bit of
/// its operand: `x < 0` or `x >= 0`, `x <= -1` or `x > -1` (the top bit,
/// inverted or not: wiring once mapped).
pub fn is_sign_test(ctx: &Context, ir: &Ir, fold: &Fold, op: OpId) -> bool {
    if ctx.str(ir.op_name(op)) != "comb.icmp" {
        return false;
    }
    let Some(k) = ir.operands(op).nth(1).and_then(|v| fold.constant(v)) else {
        return false;
    };
    match predicate(ctx, ir, op) {
        Some(2 | 5) => k.is_zero(),
        Some(3 | 4) => all_ones(k),
        _ => false,
    }
}

/// The `predicate` of a `comb.icmp`.
pub fn predicate(ctx: &Context, ir: &Ir, op: OpId) -> Option<i64> {
    int_attr(ctx, ir, op, "predicate")
}

/// The integer attribute `name` of `op`.
pub fn int_attr(ctx: &Context, ir: &Ir, op: OpId, name: &str) -> Option<i64> {
    let a = silica_ir::dialect::inherent_attr(ctx, ir, op, name)?;
    match ctx.attr_kind(a) {
        silica_ir::AttrKind::Integer { value, .. } => i64::try_from(value).ok(),
        _ => None,
    }
}

/// The comb ops and constants of `block`, each after the ops defining
/// its operands (ops on a combinational loop, which has no such order,
/// last, in the block's order).
pub fn order(ctx: &Context, ir: &Ir, block: BlockId) -> Vec<OpId> {
    let comb = |op: OpId| {
        let name = ctx.str(ir.op_name(op));
        name.starts_with("comb.") || name == "hw.constant" || name == "hw.array_get"
    };
    let ops: Vec<OpId> = ir.block_ops(block).filter(|&op| comb(op)).collect();
    let mut done: FxHashSet<OpId> = FxHashSet::default();
    let mut out = Vec::with_capacity(ops.len());
    let mut on_stack: FxHashSet<OpId> = FxHashSet::default();
    for &root in &ops {
        let mut stack = vec![root];
        while let Some(&op) = stack.last() {
            if done.contains(&op) {
                stack.pop();
                continue;
            }
            let pending: Vec<OpId> = ir
                .operands(op)
                .filter_map(|v| ir.defining_op(v))
                .filter(|&d| comb(d) && !done.contains(&d) && !on_stack.contains(&d))
                .collect();
            if on_stack.insert(op) && !pending.is_empty() {
                stack.extend(pending);
                continue;
            }
            done.insert(op);
            out.push(op);
            stack.pop();
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::circuit_module;

    fn folded(src: &str) -> (Context, Ir, OpId, Fold) {
        let (ctx, ir, module, block) = circuit_module(src);
        let fold = Fold::of(&ctx, &ir, &order(&ctx, &ir, block));
        (ctx, ir, module, fold)
    }

    /// The `i`-th comb op of `module`.
    fn nth(ctx: &Context, ir: &Ir, module: OpId, i: usize) -> OpId {
        let block = ir.entry_block(ir.regions(module).next().unwrap()).unwrap();
        ir.block_ops(block)
            .filter(|&op| ctx.str(ir.op_name(op)).starts_with("comb."))
            .nth(i)
            .unwrap()
    }

    #[test]
    fn constants_identities_inverters_and_duplicates_cost_nothing() {
        let (ctx, ir, m, fold) = folded(
            "hw.module @m(in %a : i8, in %b : i8, in %s : i1, out y : i8, out z : i1, out w : i8, out v : i8) {
               %c3 = hw.constant 3 : i8
               %c4 = hw.constant 4 : i8
               %t = hw.constant true
               %f = hw.constant false
               %0 = comb.add %c3, %c4 : i8
               %1 = comb.mux %t, %a, %b : i8
               %2 = comb.mux %s, %t, %f : i1
               %3 = comb.xor %s, %t : i1
               %4 = comb.icmp eq %s, %f : i1
               %5 = comb.add %a, %b : i8
               %6 = comb.add %b, %a : i8
               %7 = comb.and %a, %0 : i8
               %8 = comb.sub %a, %b : i8
               %9 = comb.and %3, %4 : i1
               hw.output %1, %9, %6, %7 : i8, i1, i8, i8
             }",
        );
        let free: Vec<bool> = (0..10)
            .map(|i| fold.is_free(nth(&ctx, &ir, m, i)))
            .collect();
        assert_eq!(
            free,
            [true, true, true, true, true, false, true, false, false, false]
        );
        let result = |i| ir.result(nth(&ctx, &ir, m, i), 0);
        assert_eq!(fold.constant(result(0)).unwrap().value().to_string(), "7");
        assert_eq!(fold.resolve(result(6)), result(5));
        let s = ir.operand(nth(&ctx, &ir, m, 2), 0);
        assert_eq!(fold.resolve(result(2)), s);
        assert_eq!(fold.inverts(result(3)), Some(s));
        assert_eq!(fold.inverts(result(4)), Some(s));
        assert_eq!(fold.inverts(result(5)), None);
        assert!(fold.constant(result(5)).is_none());
    }

    #[test]
    fn ops_are_folded_after_their_operands_whatever_the_order() {
        // `%1` uses `%0` defined after it; both fold to constants, and
        // the register loop is no comb loop.
        let (ctx, ir, m, fold) = folded(
            "hw.module @m(in %clk : !seq.clock, in %a : i4, out y : i4, out z : i4) {
               %c1 = hw.constant 1 : i4
               %1 = comb.add %0, %c1 : i4
               %0 = comb.mul %c1, %c1 : i4
               %r = seq.compreg %2, %clk : i4
               %2 = comb.add %r, %a : i4
               hw.output %1, %2 : i4, i4
             }",
        );
        let first = nth(&ctx, &ir, m, 0);
        assert!(fold.is_free(first));
        assert_eq!(
            fold.constant(ir.result(first, 0))
                .unwrap()
                .value()
                .to_string(),
            "2"
        );
        assert!(!fold.is_free(nth(&ctx, &ir, m, 2)));
    }
}
