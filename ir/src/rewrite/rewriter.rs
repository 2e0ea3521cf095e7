//! The [`Rewriter`]: every change a pattern or pass makes through it
//! (create, replace, erase, modify, move) is reported to a [`Listener`],
//! which is how the greedy driver keeps its worklist up to date.

use crate::context::{Attr, Context, Type};
use crate::graph::{BlockId, Ir, OpId, OpSpec, RegionId, ValueId};

/// Told about changes to the IR (MLIR's `RewriterBase::Listener`).
pub trait Listener {
    /// `op` was inserted (created, or moved to a new place).
    fn inserted(&mut self, _ir: &Ir, _op: OpId) {}
    /// `op` was changed in place (operands, attributes, successors).
    fn modified(&mut self, _ir: &Ir, _op: OpId) {}
    /// `op` is about to be erased (its nested ops were reported first).
    fn erasing(&mut self, _ir: &Ir, _op: OpId) {}
}

/// A listener that ignores everything.
pub struct NoListener;

impl Listener for NoListener {}

/// Where the rewriter creates ops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InsertPoint {
    /// Just before this op.
    Before(OpId),
    /// At the end of this block.
    End(BlockId),
}

/// Mutates the IR and reports each change to its listener.
pub struct Rewriter<'a> {
    pub ctx: &'a mut Context,
    pub ir: &'a mut Ir,
    listener: &'a mut dyn Listener,
    insert: Option<InsertPoint>,
}

impl<'a> Rewriter<'a> {
    /// A rewriter with no insertion point yet.
    pub fn new(ctx: &'a mut Context, ir: &'a mut Ir, listener: &'a mut dyn Listener) -> Self {
        Rewriter {
            ctx,
            ir,
            listener,
            insert: None,
        }
    }

    /// The current insertion point.
    pub fn insertion_point(&self) -> Option<InsertPoint> {
        self.insert
    }

    /// Restores an insertion point saved with [`Self::insertion_point`].
    pub fn restore_insertion_point(&mut self, ip: Option<InsertPoint>) {
        self.insert = ip;
    }

    /// New ops go just before `op`.
    pub fn set_insertion_point(&mut self, op: OpId) {
        self.insert = Some(InsertPoint::Before(op));
    }

    /// New ops go just after `op`.
    pub fn set_insertion_point_after(&mut self, op: OpId) {
        self.insert = Some(match self.ir.next_op(op) {
            Some(next) => InsertPoint::Before(next),
            None => InsertPoint::End(self.ir.op_block(op).expect("op in a block")),
        });
    }

    /// New ops go at the start of `block`.
    pub fn set_insertion_point_to_start(&mut self, block: BlockId) {
        self.insert = Some(match self.ir.first_op(block) {
            Some(first) => InsertPoint::Before(first),
            None => InsertPoint::End(block),
        });
    }

    /// New ops go at the end of `block`.
    pub fn set_insertion_point_to_end(&mut self, block: BlockId) {
        self.insert = Some(InsertPoint::End(block));
    }

    fn place(&mut self, op: OpId) {
        match self.insert.expect("rewriter has no insertion point") {
            InsertPoint::Before(before) => self.ir.insert_op_before(before, op),
            InsertPoint::End(block) => self.ir.append_op(block, op),
        }
    }

    /// Creates an op at the insertion point.
    pub fn create(&mut self, spec: OpSpec<'_>) -> OpId {
        let op = self.ir.create_op(spec);
        self.place(op);
        self.listener.inserted(self.ir, op);
        op
    }

    /// Creates an op with operands, result types and properties (no
    /// attributes, regions or successors) at the insertion point.
    pub fn create_simple(
        &mut self,
        name: &str,
        operands: &[ValueId],
        result_types: &[Type],
        props: Option<Attr>,
        loc: Attr,
    ) -> OpId {
        let name = self.ctx.sym(name);
        let attrs = self.ctx.empty_dict();
        self.create(OpSpec {
            name,
            loc,
            operands,
            result_types,
            successors: &[],
            regions: &[],
            attrs,
            props,
        })
    }

    /// Inserts a copy of `op` (and everything nested in it) at the
    /// insertion point.
    pub fn clone_op(&mut self, op: OpId) -> OpId {
        let new = self.ir.clone_op(op);
        self.place(new);
        self.listener.inserted(self.ir, new);
        new
    }

    /// Moves `op` to the insertion point.
    pub fn move_op(&mut self, op: OpId) {
        self.ir.detach_op(op);
        self.place(op);
        self.listener.inserted(self.ir, op);
    }

    /// Moves `op` just before `before`.
    pub fn move_op_before(&mut self, op: OpId, before: OpId) {
        self.ir.move_op_before(op, before);
        self.listener.inserted(self.ir, op);
    }

    /// Reports that `op` was changed in place by the caller.
    pub fn modified(&mut self, op: OpId) {
        self.listener.modified(self.ir, op);
    }

    /// Sets operand `i` of `op`.
    pub fn set_operand(&mut self, op: OpId, i: usize, value: ValueId) {
        self.ir.set_operand(op, i, value);
        self.listener.modified(self.ir, op);
    }

    /// Replaces every use of `from` with `to`, reporting each user.
    pub fn replace_all_uses(&mut self, from: ValueId, to: ValueId) {
        if from == to {
            return;
        }
        let users: Vec<OpId> = self.ir.uses(from).map(|u| self.ir.use_owner(u)).collect();
        self.ir.replace_all_uses(from, to);
        for user in users {
            self.listener.modified(self.ir, user);
        }
    }

    /// Replaces the uses of `op`'s results with `values` and erases it.
    pub fn replace_op(&mut self, op: OpId, values: &[ValueId]) {
        debug_assert_eq!(values.len(), self.ir.num_results(op));
        for (i, &v) in values.iter().enumerate() {
            let r = self.ir.result(op, i);
            self.replace_all_uses(r, v);
        }
        self.erase_op(op);
    }

    /// Erases `op` and everything nested in it; nested ops are reported
    /// first (innermost, last first), then `op`.
    pub fn erase_op(&mut self, op: OpId) {
        self.report_erasure(op);
        self.ir.erase_op(op);
    }

    fn report_erasure(&mut self, op: OpId) {
        let regions: Vec<RegionId> = self.ir.regions(op).collect();
        for r in regions.into_iter().rev() {
            let blocks: Vec<BlockId> = self.ir.region_blocks(r).collect();
            for b in blocks.into_iter().rev() {
                let ops: Vec<OpId> = self.ir.block_ops(b).collect();
                for o in ops.into_iter().rev() {
                    self.report_erasure(o);
                }
            }
        }
        self.listener.erasing(self.ir, op);
    }

    /// Moves the ops of `source` to the end of `dest`, replacing the
    /// uses of `source`'s arguments with `args`, and erases `source`.
    pub fn merge_blocks(&mut self, source: BlockId, dest: BlockId, args: &[ValueId]) {
        let source_args = self.ir.block_args(source).to_vec();
        for (&a, &v) in source_args.iter().zip(args) {
            self.replace_all_uses(a, v);
        }
        let ops: Vec<OpId> = self.ir.block_ops(source).collect();
        for op in ops {
            self.ir.detach_op(op);
            self.ir.append_op(dest, op);
            self.listener.inserted(self.ir, op);
        }
        self.ir.erase_block(source);
    }

    /// The blocks whose terminators branch to `block`, once per edge.
    pub fn predecessors(&self, block: BlockId) -> Vec<BlockId> {
        let Some(region) = self.ir.block_region(block) else {
            return Vec::new();
        };
        let mut preds = Vec::new();
        for b in self.ir.region_blocks(region) {
            if let Some(t) = self.ir.last_op(b) {
                for &s in self.ir.successors(t) {
                    if s == block {
                        preds.push(b);
                    }
                }
            }
        }
        preds
    }

    /// Erases `block` (its ops reported as erased) from its region; no
    /// branch may still target it.
    pub fn erase_block(&mut self, block: BlockId) {
        let ops: Vec<OpId> = self.ir.block_ops(block).collect();
        for &o in ops.iter().rev() {
            self.report_erasure(o);
        }
        self.ir.erase_block(block);
    }
}
