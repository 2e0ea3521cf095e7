//! Control flow that does not nest (irreducible cycles, branches that
//! meet elsewhere than where they part) as a state machine: one
//! `scf.while` on a block number and every value that crosses blocks,
//! whose step runs the block the number names (a chain of `scf.if`) and
//! gives the number of the block its branch goes to, with that block's
//! arguments. The entry block runs first, outside the loop; the return
//! block's values leave the loop. It runs a block a step: correct for
//! any control flow, slower than loops the structurizer lifts.

use super::structure::{cmpi, constant, create, edge_args, Res, EQ, NE};
use rustc_hash::FxHashMap;
use silica_ir::{Attr, BlockId, Context, Ir, OpId, OpSpec, RegionId, Type, ValueId};

/// The number of the state after the return.
const DONE: i64 = -1;

/// Rewrites the blocks of `region` (its returns unified into one block,
/// its switches split) into one block holding the state machine.
pub fn state_machine(ctx: &mut Context, ir: &mut Ir, region: RegionId) -> Res<()> {
    let blocks: Vec<BlockId> = ir.region_blocks(region).collect();
    for &b in &blocks {
        let Some(t) = ir.last_op(b) else { continue };
        let name = ctx.str(ir.op_name(t));
        if !ir.successors(t).is_empty() && name != "cf.br" && name != "cf.cond_br" {
            return Err(Box::new(silica_ir::Diagnostic::error(
                ir.op_loc(t),
                format!("'{name}' is not supported by silica hls: it lifts cf.br, cf.cond_br and cf.switch"),
            )));
        }
    }
    let index: FxHashMap<BlockId, usize> =
        blocks.iter().enumerate().map(|(i, &b)| (b, i)).collect();
    let entry = blocks[0];
    let home = |ir: &Ir, op: OpId| -> Option<usize> {
        let mut cur = Some(op);
        while let Some(o) = cur {
            if let Some(&i) = ir.op_block(o).and_then(|b| index.get(&b)) {
                return Some(i);
            }
            cur = ir.parent_op(o);
        }
        None
    };
    // The values the loop carries: every block's arguments (but the
    // entry's) and every value used in another block than its own (but
    // the entry's, which precede the loop).
    let mut carried: Vec<ValueId> = Vec::new();
    for (i, &b) in blocks.iter().enumerate().skip(1) {
        carried.extend(ir.block_args(b));
        for op in ir.block_ops(b) {
            for r in ir.results(op) {
                if ir.uses(r).any(|u| home(ir, ir.use_owner(u)) != Some(i)) {
                    carried.push(r);
                }
            }
        }
    }
    let slot: FxHashMap<ValueId, usize> =
        carried.iter().enumerate().map(|(k, &v)| (v, k)).collect();
    // The block whose ops define each carried op result (before any op
    // moves).
    let defined_in: FxHashMap<ValueId, usize> = carried
        .iter()
        .filter_map(|&v| Some((v, home(ir, ir.defining_op(v)?)?)))
        .collect();
    // The return (after unification, one) and what it returns.
    let ret = blocks
        .iter()
        .filter_map(|&b| ir.last_op(b))
        .find(|&t| ctx.str(ir.op_name(t)) == "func.return")
        .ok_or_else(|| {
            Box::new(silica_ir::Diagnostic::error(
                ir.op_loc(ir.region_op(region).expect("a function")),
                "control flow without a return",
            ))
        })?;
    let ret_block = index[&ir.op_block(ret).expect("a block")];
    let result_types: Vec<Type> = ir.operands(ret).map(|v| ir.value_type(v)).collect();
    let loc = ir.op_loc(ret);
    let i32t = ctx.signless(32);
    let mut types = vec![i32t];
    types.extend(carried.iter().map(|&v| ir.value_type(v)));
    types.extend(&result_types);
    let n = carried.len();
    // The entry's branch gives the first state.
    let entry_branch = ir.last_op(entry).expect("a terminator");
    let mut b = Build { ctx, ir, loc };
    let poisons: Vec<ValueId> = types[1..]
        .iter()
        .map(|&t| b.poison(t, entry_branch))
        .collect();
    let init = b.step(entry_branch, &index, &slot, &poisons);
    b.ir.erase_op(entry_branch);
    // The loop: test the state, then run the block it names.
    let before = b.ir.create_block();
    let before_args: Vec<ValueId> = types
        .iter()
        .map(|&t| b.ir.add_block_arg(before, t, Some(loc)))
        .collect();
    let done = b.constant(i32t, DONE, None, before);
    let ne = b.cmpi(NE, before_args[0], done, None, before);
    let mut forwarded = vec![ne];
    forwarded.extend(&before_args);
    b.append(before, "scf.condition", &forwarded, &[]);
    let after = b.ir.create_block();
    let after_args: Vec<ValueId> = types
        .iter()
        .map(|&t| b.ir.add_block_arg(after, t, Some(loc)))
        .collect();
    // Each block's ops, their crossing values read from the state.
    let ops_of: Vec<Vec<OpId>> = blocks
        .iter()
        .map(|&bl| b.ir.block_ops(bl).collect())
        .collect();
    for (i, ops) in ops_of.iter().enumerate().skip(1) {
        for &op in ops {
            let mut nested = Vec::new();
            b.ir.walk(op, &mut |o| nested.push(o));
            for o in nested {
                let count = b.ir.operands(o).len();
                for k in 0..count {
                    let v = b.ir.operand(o, k);
                    let local = defined_in.get(&v) == Some(&i);
                    if let (Some(&s), false) = (slot.get(&v), local) {
                        b.ir.set_operand(o, k, after_args[1 + s]);
                    }
                }
            }
        }
    }
    // The chain of conditionals, innermost (the last block) first.
    let mut otherwise: Option<RegionId> = None;
    for i in (1..blocks.len()).rev() {
        let region_i = b.ir.create_region();
        let block_i = b.ir.create_block();
        b.ir.append_block(region_i, block_i);
        let ops = &ops_of[i];
        let (terminator, body) = ops.split_last().expect("a terminator");
        for &op in body {
            b.ir.detach_op(op);
            b.ir.append_op(block_i, op);
        }
        let next: Vec<ValueId> = if i == ret_block {
            let mut next = vec![b.constant(i32t, DONE, None, block_i)];
            next.extend(&after_args[1..=n]);
            let returned: Vec<ValueId> = b.ir.operands(*terminator).collect();
            next.extend(returned.iter().map(|&v| match slot.get(&v) {
                Some(&s) if defined_in.get(&v) != Some(&i) => after_args[1 + s],
                _ => v,
            }));
            b.ir.erase_op(*terminator);
            next
        } else {
            // This block's own values leave with their new definitions.
            let mut state = after_args.clone();
            for (k, &v) in carried.iter().enumerate() {
                if defined_in.get(&v) == Some(&i) {
                    state[1 + k] = v;
                }
            }
            let next = b.step_in(*terminator, &index, &slot, &state, block_i);
            b.ir.erase_op(*terminator);
            next
        };
        b.append(block_i, "scf.yield", &next, &[]);
        let else_region = match otherwise {
            Some(r) => r,
            None => {
                // No block has this number: the state as it is.
                let r = b.ir.create_region();
                let blk = b.ir.create_block();
                b.ir.append_block(r, blk);
                b.append(blk, "scf.yield", &after_args, &[]);
                r
            }
        };
        let number = b.constant(i32t, i as i64, None, after);
        let eq = b.cmpi(EQ, after_args[0], number, None, after);
        let branch = b.ir.create_op(OpSpec {
            name: b.ctx.sym("scf.if"),
            loc,
            operands: &[eq],
            result_types: &types,
            successors: &[],
            regions: &[region_i, else_region],
            attrs: b.ctx.empty_dict(),
            props: None,
        });
        if i == 1 {
            b.ir.append_op(after, branch);
            let results: Vec<ValueId> = b.ir.results(branch).collect();
            b.append(after, "scf.yield", &results, &[]);
        } else {
            // Moved into the `else` of the block before, with its test.
            let r = b.ir.create_region();
            let blk = b.ir.create_block();
            b.ir.append_block(r, blk);
            for op in [
                b.ir.defining_op(number).expect("a constant"),
                b.ir.defining_op(eq).expect("a compare"),
            ] {
                b.ir.detach_op(op);
                b.ir.append_op(blk, op);
            }
            b.ir.append_op(blk, branch);
            let results: Vec<ValueId> = b.ir.results(branch).collect();
            b.append(blk, "scf.yield", &results, &[]);
            otherwise = Some(r);
            continue;
        }
    }
    let regions = [b.ir.create_region(), b.ir.create_region()];
    b.ir.append_block(regions[0], before);
    b.ir.append_block(regions[1], after);
    let machine = b.ir.create_op(OpSpec {
        name: b.ctx.sym("scf.while"),
        loc,
        operands: &init,
        result_types: &types,
        successors: &[],
        regions: &regions,
        attrs: b.ctx.empty_dict(),
        props: None,
    });
    b.ir.append_op(entry, machine);
    let results: Vec<ValueId> = b.ir.results(machine).skip(1 + n).collect();
    b.append(entry, "func.return", &results, &[]);
    for &bl in &blocks[1..] {
        b.ir.erase_block(bl);
    }
    Ok(())
}

/// Builds ops at one location.
struct Build<'a> {
    ctx: &'a mut Context,
    ir: &'a mut Ir,
    loc: Attr,
}

impl Build<'_> {
    fn append(
        &mut self,
        block: BlockId,
        name: &str,
        operands: &[ValueId],
        results: &[Type],
    ) -> OpId {
        let op = create(
            self.ctx,
            self.ir,
            name,
            operands,
            results,
            (&[], None),
            self.loc,
        );
        self.ir.append_op(block, op);
        op
    }

    fn place(&mut self, op: OpId, before: Option<OpId>, block: BlockId) -> ValueId {
        match before {
            Some(b) => self.ir.insert_op_before(b, op),
            None => self.ir.append_op(block, op),
        }
        self.ir.result(op, 0)
    }

    fn constant(&mut self, ty: Type, value: i64, before: Option<OpId>, block: BlockId) -> ValueId {
        let op = constant(self.ctx, self.ir, ty, value, self.loc);
        self.place(op, before, block)
    }

    fn cmpi(
        &mut self,
        predicate: i64,
        a: ValueId,
        b: ValueId,
        before: Option<OpId>,
        block: BlockId,
    ) -> ValueId {
        let op = cmpi(self.ctx, self.ir, predicate, (a, b), self.loc);
        self.place(op, before, block)
    }

    fn poison(&mut self, ty: Type, before: OpId) -> ValueId {
        let value = silica_dialects::ub::poison_attr(self.ctx);
        let key = self.ctx.sym("value");
        let props = Some(self.ctx.dict_attr(vec![(key, value)]));
        let op = create(
            self.ctx,
            self.ir,
            "ub.poison",
            &[],
            &[ty],
            (&[], props),
            self.loc,
        );
        self.ir.insert_op_before(before, op);
        self.ir.result(op, 0)
    }

    /// The state the entry's branch `t` starts: `values` holds the
    /// carried values and results (without the number).
    fn step(
        &mut self,
        t: OpId,
        index: &FxHashMap<BlockId, usize>,
        slot: &FxHashMap<ValueId, usize>,
        values: &[ValueId],
    ) -> Vec<ValueId> {
        let block = self.ir.op_block(t).expect("a block");
        let edges = self.edges(t, index, slot, values);
        self.choose(t, edges, Some(t), block)
    }

    /// The next state after terminator `t` of a block whose state (the
    /// number, the carried values, the results) is `state`, built at the
    /// end of `block`.
    fn step_in(
        &mut self,
        t: OpId,
        index: &FxHashMap<BlockId, usize>,
        slot: &FxHashMap<ValueId, usize>,
        state: &[ValueId],
        block: BlockId,
    ) -> Vec<ValueId> {
        let edges = self.edges(t, index, slot, &state[1..]);
        self.choose(t, edges, None, block)
    }

    /// For each successor of branch `t`: its number and the values it
    /// gives (`values` with its arguments in their slots).
    fn edges(
        &mut self,
        t: OpId,
        index: &FxHashMap<BlockId, usize>,
        slot: &FxHashMap<ValueId, usize>,
        values: &[ValueId],
    ) -> Vec<(i64, Vec<ValueId>)> {
        let successors = self.ir.successors(t).to_vec();
        successors
            .iter()
            .enumerate()
            .map(|(s, target)| {
                let args = edge_args(self.ctx, self.ir, t, s);
                let mut next = values.to_vec();
                for (&param, &arg) in self.ir.block_args(*target).iter().zip(&args) {
                    next[slot[&param]] = arg;
                }
                (index[target] as i64, next)
            })
            .collect()
    }

    /// The state after branch `t`: one edge's, or a select between a
    /// conditional branch's two.
    fn choose(
        &mut self,
        t: OpId,
        mut edges: Vec<(i64, Vec<ValueId>)>,
        before: Option<OpId>,
        block: BlockId,
    ) -> Vec<ValueId> {
        let i32t = self.ctx.signless(32);
        if edges.len() == 1 {
            let (number, values) = edges.pop().expect("an edge");
            let mut state = vec![self.constant(i32t, number, before, block)];
            state.extend(values);
            return state;
        }
        let cond = self.ir.operand(t, 0);
        let (fnum, fstate) = edges.pop().expect("two edges");
        let (tnum, tstate) = edges.pop().expect("two edges");
        let tn = self.constant(i32t, tnum, before, block);
        let fnn = self.constant(i32t, fnum, before, block);
        let sel = |b: &mut Self, x: ValueId, y: ValueId| -> ValueId {
            if x == y {
                return x;
            }
            let ty = b.ir.value_type(x);
            let op = create(
                b.ctx,
                b.ir,
                "arith.select",
                &[cond, x, y],
                &[ty],
                (&[], None),
                b.loc,
            );
            b.place(op, before, block)
        };
        let mut out = vec![sel(self, tn, fnn)];
        for (&x, &y) in tstate.iter().zip(&fstate) {
            out.push(sel(self, x, y));
        }
        out
    }
}
