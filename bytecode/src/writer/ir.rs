//! Writes the IR section: the top-level op as a block of one op; each op
//! with its parts and use-list orders, and its regions inline or, for
//! ops written as isolated, as a section of their own. The ops'
//! properties are numbered first, in the order the section writes them,
//! so that a large module's top-level ops can be written on two threads.

use super::{Encode, Numbering, OpProps, Plan, Writer, PARALLEL_OPS};
use crate::builtin::write::AttrKey;
use crate::encoding::{op_mask, section, version, Emitter};
use crate::use_list::{current_order, dense_map_order, in_order};
use silica_ir::{BlockId, Context, Diagnostic, Ir, OpId, RegionId, ValueId};
use smallvec::SmallVec;

/// An op without properties in [`Writer::number_properties`]' table.
const NO_PROPERTIES: u32 = u32::MAX;

impl Writer<'_> {
    pub(super) fn ir_section(
        &mut self,
        out: &mut Emitter,
        top: OpId,
    ) -> Result<(), Box<Diagnostic>> {
        let props = self.number_properties(top)?;
        let mut w = IrWriter {
            ctx: self.ctx,
            ir: self.ir,
            plan: self.plan,
            numbering: self.numbering,
            props: &props,
            ops_scratch: Vec::new(),
            split: self.ir.op_capacity() >= PARALLEL_OPS,
        };
        let at = out.begin_section();
        out.varint_flag(1, false);
        w.op(out, top);
        out.end_section(section::IR, at);
        Ok(())
    }

    /// Each op's index in the properties section (by op id), numbered in
    /// the order the IR section writes the ops (pre-order).
    fn number_properties(&mut self, top: OpId) -> Result<Vec<u32>, Box<Diagnostic>> {
        let ir = self.ir;
        let mut index = vec![NO_PROPERTIES; ir.op_capacity()];
        let mut failed = None;
        ir.walk(top, &mut |op| {
            if failed.is_some() {
                return;
            }
            match self.properties(op) {
                Ok(Some(i)) => index[op.0 as usize] = i as u32,
                Ok(None) => {}
                Err(e) => failed = Some(e),
            }
        });
        match failed {
            Some(e) => Err(e),
            None => Ok(index),
        }
    }

    /// The index of `op`'s properties in the properties section, if it
    /// has any.
    fn properties(&mut self, op: OpId) -> Result<Option<u64>, Box<Diagnostic>> {
        let (ctx, ir) = (self.ctx, self.ir);
        let mut raw = std::mem::take(&mut self.scratch);
        raw.buf.clear();
        match self.plan.props(ir, op) {
            OpProps::None | OpProps::Unregistered(None) => {
                self.scratch = raw;
                return Ok(None);
            }
            OpProps::Unregistered(Some(a)) => {
                raw.varint(
                    self.numbering
                        .attr_number(crate::builtin::write::key(ctx, a)),
                );
            }
            OpProps::Registered(slots) => {
                let mut enc = Encode {
                    ctx,
                    out: &mut raw,
                    numbering: self.numbering,
                    strings: &mut self.strings,
                };
                crate::properties::write(ctx, slots, ir.op_props(op), self.plan.version, &mut enc)
                    .map_err(|m| {
                        Box::new(Diagnostic::error(
                            ir.op_loc(op),
                            format!("'{}' op cannot be written: {m}", ctx.str(ir.op_name(op))),
                        ))
                    })?;
            }
        }
        let index = self.properties.insert(&raw.buf);
        self.scratch = raw;
        Ok(Some(index))
    }
}

/// Writes ops, regions and blocks with everything numbered.
struct IrWriter<'w> {
    ctx: &'w Context,
    ir: &'w Ir,
    plan: &'w Plan,
    numbering: &'w Numbering,
    props: &'w [u32],
    /// The ops of the blocks being written, innermost last.
    ops_scratch: Vec<OpId>,
    /// Whether the next block of several ops is written in two halves,
    /// the second on a thread of its own.
    split: bool,
}

impl IrWriter<'_> {
    fn op(&mut self, e: &mut Emitter, op: OpId) {
        let (ir, n) = (self.ir, self.numbering);
        e.varint(n.op_name_number(ir.op_name(op)));
        let mask_at = e.len();
        e.byte(0);
        let mut mask = 0u8;
        e.varint(n.attr_number(AttrKey::Attr(ir.op_loc(op))));
        let attrs = self.plan.attrs(ir, op);
        if attrs != self.plan.empty {
            mask |= op_mask::HAS_ATTRS;
            e.varint(n.attr_number(AttrKey::Attr(attrs)));
        }
        let props = self.props[op.0 as usize];
        if props != NO_PROPERTIES {
            mask |= op_mask::HAS_PROPERTIES;
            e.varint(u64::from(props));
        }
        let num_results = ir.num_results(op);
        if num_results > 0 {
            mask |= op_mask::HAS_RESULTS;
            e.varint(num_results as u64);
            for v in ir.results(op) {
                e.varint(n.type_number(ir.value_type(v)));
            }
        }
        if ir.num_operands(op) > 0 {
            mask |= op_mask::HAS_OPERANDS;
            e.varint(ir.num_operands(op) as u64);
            for v in ir.operands(op) {
                e.varint(n.value_number(v));
            }
        }
        let successors = ir.successors(op);
        if !successors.is_empty() {
            mask |= op_mask::HAS_SUCCESSORS;
            e.varint(successors.len() as u64);
            for &b in successors {
                e.varint(n.block_number(b));
            }
        }
        if self.plan.version >= version::USE_LIST_ORDERING && num_results > 0 {
            let results: SmallVec<[ValueId; 4]> = ir.results(op).collect();
            if self.use_list_orders(e, &results) {
                mask |= op_mask::HAS_USE_LIST_ORDERS;
            }
        }
        let num_regions = ir.num_regions(op);
        if num_regions > 0 {
            mask |= op_mask::HAS_INLINE_REGIONS;
        }
        e.buf[mask_at] = mask;
        if num_regions == 0 {
            return;
        }
        let isolated = n.is_isolated(op);
        e.varint_flag(num_regions as u64, isolated);
        let regions: SmallVec<[RegionId; 2]> = ir.regions(op).collect();
        if isolated && self.plan.version >= version::LAZY_LOADING {
            let at = e.begin_section();
            for r in regions {
                self.region(e, r);
            }
            e.end_section(section::IR, at);
        } else {
            for r in regions {
                self.region(e, r);
            }
        }
    }

    fn region(&mut self, e: &mut Emitter, r: RegionId) {
        let ir = self.ir;
        if ir.region_is_empty(r) {
            e.varint(0);
            return;
        }
        let (blocks, values) = self.numbering.region_counts[&r];
        e.varint(u64::from(blocks));
        e.varint(u64::from(values));
        let list: Vec<BlockId> = ir.region_blocks(r).collect();
        for b in list {
            self.block(e, b);
        }
    }

    fn block(&mut self, e: &mut Emitter, b: BlockId) {
        let (ctx, ir, n) = (self.ctx, self.ir, self.numbering);
        let args = ir.block_args(b);
        let mut ops = std::mem::take(&mut self.ops_scratch);
        let start = ops.len();
        ops.extend(ir.block_ops(b));
        let num_ops = ops.len() - start;
        e.varint_flag(num_ops as u64, !args.is_empty());
        if !args.is_empty() {
            e.varint(args.len() as u64);
            let unknown = ctx.unknown_loc();
            for &a in args {
                let loc = ir.value_loc(a).unwrap_or(unknown);
                let ty = n.type_number(ir.value_type(a));
                if self.plan.version >= version::ELIDE_UNKNOWN_BLOCK_ARG_LOCATION {
                    e.varint_flag(ty, loc != unknown);
                    if loc != unknown {
                        e.varint(n.attr_number(AttrKey::Attr(loc)));
                    }
                } else {
                    e.varint(ty);
                    e.varint(n.attr_number(AttrKey::Attr(loc)));
                }
            }
            if self.plan.version >= version::USE_LIST_ORDERING {
                let mask_at = e.len();
                e.byte(0);
                if self.use_list_orders(e, args) {
                    e.buf[mask_at] = op_mask::HAS_USE_LIST_ORDERS;
                }
            }
        }
        self.ops_scratch = ops;
        if self.split && num_ops >= 2 {
            self.split = false;
            let ops = self.ops_scratch.split_off(start);
            self.halves(e, &ops);
            return;
        }
        for i in start..start + num_ops {
            let op = self.ops_scratch[i];
            self.op(e, op);
        }
        self.ops_scratch.truncate(start);
    }

    /// Writes a block's ops in two halves of about as many ops each (by
    /// their pre-order numbers), the second on a thread of its own.
    fn halves(&mut self, e: &mut Emitter, ops: &[OpId]) {
        let numbers = &self.numbering.op_numbers;
        let number = |op: OpId| numbers[op.0 as usize];
        let (first, last) = (number(ops[0]), number(ops[ops.len() - 1]));
        let middle = first + (last - first) / 2;
        let k = ops
            .iter()
            .position(|&op| number(op) > middle)
            .unwrap_or(ops.len() - 1)
            .max(1);
        let (mine, theirs) = ops.split_at(k);
        let mut other = IrWriter {
            ops_scratch: Vec::new(),
            split: false,
            ..*self
        };
        let second = std::thread::scope(|s| {
            let helper = s.spawn(move || {
                let mut part = Emitter::new();
                for &op in theirs {
                    other.op(&mut part, op);
                }
                part
            });
            for &op in mine {
                self.op(e, op);
            }
            helper
                .join()
                .unwrap_or_else(|p| std::panic::resume_unwind(p))
        });
        e.bytes(&second.buf);
    }

    /// Writes the use-list orders of `values` that differ from the
    /// reference order; whether any did.
    fn use_list_orders(&mut self, e: &mut Emitter, values: &[ValueId]) -> bool {
        let (ir, numbers) = (self.ir, &self.numbering.op_numbers);
        let mut orders: Vec<(usize, Vec<usize>)> = Vec::new();
        for (i, &v) in values.iter().enumerate() {
            let mut uses = ir.uses(v);
            if uses.next().is_none() || uses.next().is_none() {
                continue;
            }
            if in_order(ir, numbers, v) {
                continue;
            }
            let (mut order, _) = current_order(ir, numbers, v);
            order.sort_by_key(|&(_, id)| std::cmp::Reverse(id));
            orders.push((i, order.iter().map(|&(u, _)| u).collect()));
        }
        if orders.is_empty() {
            return false;
        }
        // MLIR keeps them in a `DenseMap`: its order is theirs.
        let keys: Vec<u32> = orders.iter().map(|(i, _)| *i as u32).collect();
        let mut orders: Vec<_> = orders.into_iter().map(Some).collect();
        let orders: Vec<(usize, Vec<usize>)> = dense_map_order(&keys)
            .into_iter()
            .filter_map(|i| orders[i].take())
            .collect();
        if values.len() != 1 {
            e.varint(orders.len() as u64);
        }
        for (i, order) in orders {
            let shuffled = order.iter().enumerate().filter(|(k, &u)| *k != u).count();
            let pairs = shuffled < order.len() / 2;
            if values.len() != 1 {
                e.varint(i as u64);
            }
            if pairs {
                e.varint_flag(shuffled as u64 * 2, true);
                for (k, &u) in order.iter().enumerate() {
                    if k != u {
                        e.varint(u as u64);
                        e.varint(k as u64);
                    }
                }
            } else {
                e.varint_flag(order.len() as u64, false);
                for &u in &order {
                    e.varint(u as u64);
                }
            }
        }
        true
    }
}
