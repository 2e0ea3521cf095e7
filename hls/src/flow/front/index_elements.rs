//! Memories of `index` values. An external memory holds them as the host
//! does, 64 bits an element: a load is cut to the kernel's `index` width
//! and a store sign-extends its value. An on-chip memory that only the
//! kernel's own loads and stores reach holds them at the kernel's `index`
//! width (range analysis bounds a load by the values stored); one that a
//! DMA, a call or a copy reaches keeps 64 bits like an external one.

use super::lift::Lifter;
use crate::model::interface::INDEX_WIDTH;
use crate::model::kernel::{Item, MemId, Memory, Op, Val, INDEX};
use silica_ir::ValueId;

/// The element type of memories of `index` values, as MLIR prints it.
const INDEX_TYPE: &str = "index";

impl Lifter<'_> {
    /// `mem`, allocated as `result`, with `index` elements at the kernel's
    /// `index` width when only loads and stores reach it.
    pub(super) fn narrowed_index(&self, result: ValueId, mut mem: Memory) -> Memory {
        if mem.element_type != INDEX_TYPE {
            return mem;
        }
        let accessed_only = self.ir.uses(result).all(|u| {
            let owner = self.ir.use_owner(u);
            let name = self.ctx.str(self.ir.op_name(owner));
            match name {
                "affine.load" | "memref.load" => self.ir.operand(owner, 0) == result,
                "affine.store" | "memref.store" => self.ir.operand(owner, 1) == result,
                "memref.dealloc" => true,
                _ => false,
            }
        });
        if accessed_only {
            mem.element_width = INDEX;
        }
        mem
    }

    /// Whether memory `m` holds `index` values at the host's 64 bits.
    fn index_at_host_width(&self, m: MemId) -> bool {
        let mem = &self.k.memories[m];
        mem.element_type == INDEX_TYPE && mem.element_width == INDEX_WIDTH
    }

    /// The value a load of memory `m` read, as the kernel computes it.
    pub(super) fn loaded_index(&mut self, items: &mut Vec<Item>, m: MemId, v: Val) -> Val {
        if self.index_at_host_width(m) {
            self.resize(items, Op::SExt, v, INDEX)
        } else {
            v
        }
    }

    /// Value `v` as memory `m` stores it.
    pub(super) fn stored_index(&mut self, items: &mut Vec<Item>, m: MemId, v: Val) -> Val {
        if self.index_at_host_width(m) {
            self.resize(items, Op::SExt, v, INDEX_WIDTH)
        } else {
            v
        }
    }
}
