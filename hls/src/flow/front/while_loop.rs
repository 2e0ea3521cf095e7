//! `scf.while` as a loop whose trip count depends on data: its `before`
//! arguments are the loop's carried values (initialised from the
//! operands), the `before` region's items come first in the body, then
//! the exit test (`scf.condition`), then the `do` region, whose yields
//! feed the carried values. The values `scf.condition` forwards are the
//! `do` region's arguments and, once the test fails, the loop's results.

use super::lift::{err, Lifter, Res};
use crate::model::kernel::{Bound, Item, Loop, Op, Val, WhileTest};
use silica_ir::affine::{AffineExpr, AffineMap};
use silica_ir::{OpId, ValueId};

impl Lifter<'_> {
    /// Lifts `scf.while` op `op` into `items` as loop `path`.
    pub(super) fn lift_while(&mut self, op: OpId, items: &mut Vec<Item>, path: &str) -> Res<()> {
        let ir = self.ir;
        let inits = ir
            .operands(op)
            .map(|v| self.val(v))
            .collect::<Res<Vec<_>>>()?;
        let regions: Vec<_> = ir.regions(op).collect();
        let blocks: Vec<_> = regions.iter().filter_map(|&r| ir.entry_block(r)).collect();
        let [before, after] = blocks[..] else {
            return err(self.loc, "'scf.while' needs a before and a do region");
        };
        let carried_widths = self.carried_widths(ir.block_args(before).iter().copied())?;
        let zero = Bound {
            map: AffineMap {
                num_dims: 0,
                num_symbols: 0,
                results: vec![AffineExpr::Constant(0)].into(),
            },
            operands: Vec::new(),
        };
        let id = self.k.loops.len();
        self.k.loops.push(Loop {
            op,
            loc: self.loc,
            path: path.to_string(),
            lower: zero.clone(),
            upper: zero,
            step: 1,
            inits,
            carried_widths,
            yields: Vec::new(),
            body: Vec::new(),
            pipelined: false,
            target_ii: None,
            flat: Vec::new(),
            sunk: Vec::new(),
            test: None,
        });
        let before_args: Vec<ValueId> = ir.block_args(before).to_vec();
        for (i, &a) in before_args.iter().enumerate() {
            self.vals.insert(a, Val::Carried(id, i));
        }
        items.push(Item::Loop(id));
        self.open = None;
        let loc = self.loc;
        let mut body = Vec::new();
        let mut no_return = None;
        let Some(condition) = self.lift_block(before, &mut body, path, &mut no_return)? else {
            return err(loc, "'scf.while' before region without 'scf.condition'");
        };
        let (mut cond, forwarded) = (condition[0], condition[1..].to_vec());
        // Inside an if-converted branch the `before` region runs once under
        // the branch's predicate and the loop goes on only if it is taken.
        let outer = self.predicate.take();
        if let Some(taken) = outer {
            cond = self.node(&mut body, Op::And, vec![cond, taken], 1);
        }
        self.open = None;
        let split = body.len();
        for (&a, &v) in ir.block_args(after).iter().zip(&forwarded) {
            self.vals.insert(a, v);
        }
        let yields = self.lift_block(after, &mut body, path, &mut no_return);
        self.predicate = outer;
        let yields = yields?.unwrap_or_default();
        self.open = None;
        self.loc = loc;
        for (r, &v) in ir.results(op).zip(&forwarded) {
            self.vals.insert(r, v);
        }
        let l = &mut self.k.loops[id];
        l.yields = yields;
        l.body = body;
        l.test = Some(WhileTest { split, cond });
        Ok(())
    }
}
