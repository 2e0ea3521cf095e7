//! DMA in the front end. Memory spaces: a memref in the default space
//! (none, or integer 0) is external when it is a function argument and an
//! on-chip RAM when it is allocated; integer memory space 1 is the
//! on-chip space (`affine-data-copy-generate{fast-mem-space=1}`), only
//! for allocations. A memref allocated in the kernel and used as the tag
//! of `affine.dma_start`/`affine.dma_wait` is a [`Tag`] (completion
//! counters, no memory); it may serve nothing else. Each DMA operation
//! becomes an [`Item::Dma`] of its own (a controller state), after the
//! nodes that compute its addresses, tag index and sizes.

use super::lift::{err, Lifter};
use crate::model::kernel::{Dma, Item, Tag, Transfer};
use rustc_hash::{FxHashMap, FxHashSet};
use silica_ir::affine::AffineMap;
use silica_ir::dialect::inherent_attr;
use silica_ir::{AttrKind, Context, Diagnostic, Ir, OpId, Type, TypeKind, ValueId};

type Res<T> = Result<T, Box<Diagnostic>>;

/// The on-chip memory space of the encoding.
pub const ON_CHIP_SPACE: u32 = 1;

/// The memory space of memref type `t`: 0 for the default; `None` for a
/// space that is not an integer.
pub fn memory_space(ctx: &Context, t: Type) -> Option<u32> {
    let TypeKind::MemRef { memory_space, .. } = ctx.type_kind(t) else {
        return Some(0);
    };
    let Some(a) = memory_space else {
        return Some(0);
    };
    match ctx.attr_kind(*a) {
        AttrKind::Integer { value, .. } => u32::try_from(value).ok(),
        _ => None,
    }
}

/// The static shape of a tag memref type.
pub fn tag_shape(ctx: &Context, t: Type) -> Option<Vec<u64>> {
    match ctx.type_kind(t) {
        TypeKind::MemRef { shape, .. } if !shape.contains(&silica_ir::types::DYNAMIC) => {
            Some(shape.iter().map(|&d| d as u64).collect())
        }
        _ => None,
    }
}

/// The number of operands of the map `key` of `op`.
fn map_inputs(ctx: &Context, ir: &Ir, op: OpId, key: &str) -> usize {
    match inherent_attr(ctx, ir, op, key).map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::AffineMap(m)) => (m.num_dims + m.num_symbols) as usize,
        _ => 0,
    }
}

/// Where the tag memref is among the operands of a DMA op.
fn tag_operand(ctx: &Context, ir: &Ir, op: OpId) -> Option<usize> {
    match ctx.str(ir.op_name(op)) {
        "affine.dma_start" => {
            Some(2 + map_inputs(ctx, ir, op, "src_map") + map_inputs(ctx, ir, op, "dst_map"))
        }
        "affine.dma_wait" => Some(0),
        _ => None,
    }
}

/// The memrefs `func` uses as DMA tags.
pub fn tag_memrefs(ctx: &Context, ir: &Ir, func: OpId) -> FxHashSet<ValueId> {
    let mut tags = FxHashSet::default();
    let mut stack = vec![func];
    while let Some(op) = stack.pop() {
        if let Some(i) = tag_operand(ctx, ir, op) {
            tags.extend(ir.operands(op).nth(i));
        }
        for r in ir.regions(op) {
            for b in ir.region_blocks(r) {
                stack.extend(ir.block_ops(b));
            }
        }
    }
    tags
}

/// The ops of `op`'s regions, in program order (pre-order).
fn ops_in(ir: &Ir, op: OpId, out: &mut Vec<OpId>) {
    for r in ir.regions(op) {
        for b in ir.region_blocks(r) {
            for o in ir.block_ops(b) {
                out.push(o);
                ops_in(ir, o, out);
            }
        }
    }
}

/// The memrefs (source, destination) an `affine.dma_start` copies
/// between.
fn dma_ends(ctx: &Context, ir: &Ir, op: OpId) -> Option<(ValueId, ValueId)> {
    if ctx.str(ir.op_name(op)) != "affine.dma_start" {
        return None;
    }
    let dst = 1 + map_inputs(ctx, ir, op, "src_map");
    Some((ir.operands(op).next()?, ir.operands(op).nth(dst)?))
}

/// Names of the on-chip buffers of DMA copies (`memref.alloc` in memory
/// space 1 without an `hls.name`, as `affine-data-copy-generate` makes
/// them): `<memory>_buf` after the memory the first `affine.dma_start`
/// using it copies from or to (its `hls.name`, else `arg<i>`), then
/// `<memory>_buf1`, `<memory>_buf2`, ... where that name is taken. Stable:
/// it depends on the program order only. The directives, the report and
/// the circuit name these memories so.
pub fn buffer_names(ctx: &Context, ir: &Ir, func: OpId) -> FxHashMap<OpId, String> {
    let mut names = FxHashMap::default();
    let Some(entry) = ir.regions(func).next().and_then(|r| ir.entry_block(r)) else {
        return names;
    };
    let args = ir.block_args(entry);
    let mut ops = Vec::new();
    ops_in(ir, func, &mut ops);
    let mut taken: FxHashSet<String> = (0..args.len())
        .map(|i| {
            super::arg_name(ctx, ir, func, i)
                .unwrap_or_else(|| crate::model::interface::names::arg(i))
        })
        .collect();
    taken.extend(ops.iter().filter_map(|&o| super::op_name_attr(ctx, ir, o)));
    let name_of = |v: ValueId| -> Option<String> {
        if let Some(i) = args.iter().position(|&a| a == v) {
            return Some(
                super::arg_name(ctx, ir, func, i)
                    .unwrap_or_else(|| crate::model::interface::names::arg(i)),
            );
        }
        super::op_name_attr(ctx, ir, ir.defining_op(v)?)
    };
    let tags = tag_memrefs(ctx, ir, func);
    for &op in &ops {
        if !matches!(ctx.str(ir.op_name(op)), "memref.alloc" | "memref.alloca")
            || super::op_name_attr(ctx, ir, op).is_some()
        {
            continue;
        }
        let Some(buffer) = ir.results(op).next() else {
            continue;
        };
        if tags.contains(&buffer) || memory_space(ctx, ir.value_type(buffer)) != Some(ON_CHIP_SPACE)
        {
            continue;
        }
        let other = ops.iter().find_map(|&d| match dma_ends(ctx, ir, d)? {
            (src, dst) if dst == buffer => name_of(src),
            (src, dst) if src == buffer => name_of(dst),
            _ => None,
        });
        let Some(base) = other else { continue };
        let base = format!("{base}_buf");
        let name = (0..)
            .map(|k| match k {
                0 => base.clone(),
                k => format!("{base}{k}"),
            })
            .find(|n| !taken.contains(n))
            .unwrap_or(base);
        taken.insert(name.clone());
        names.insert(op, name);
    }
    names
}

impl Lifter<'_> {
    /// Registers the allocation `result` of static shape `shape` as a tag.
    pub(super) fn lift_tag(&mut self, result: ValueId, name: String, shape: Vec<u64>) {
        let id = self.k.tags.len();
        self.k.tags.push(Tag {
            name,
            slots: shape.iter().product::<u64>().max(1),
            shape,
            loc: self.loc,
        });
        self.tags.insert(result, id);
    }

    fn map_of(&self, op: OpId, key: &str) -> Res<AffineMap> {
        match inherent_attr(self.ctx, self.ir, op, key).map(|a| self.ctx.attr_kind(a)) {
            Some(AttrKind::AffineMap(m)) => Ok(m.clone()),
            _ => err(self.loc, format!("missing affine map '{key}'")),
        }
    }

    /// The memref at `operands[at]` and the word address its map gives;
    /// the position after its subscripts.
    fn subscripted(
        &mut self,
        op: OpId,
        key: &str,
        operands: &[ValueId],
        at: usize,
        items: &mut Vec<Item>,
        shape: Option<&[u64]>,
    ) -> Res<(ValueId, crate::model::kernel::Val, usize)> {
        let map = self.map_of(op, key)?;
        let n = (map.num_dims + map.num_symbols) as usize;
        let Some(subs) = operands.get(at + 1..at + 1 + n) else {
            return err(self.loc, "DMA operation with too few operands");
        };
        let vals = subs.iter().map(|&v| self.val(v)).collect::<Res<Vec<_>>>()?;
        let shape = match shape {
            Some(s) => s.to_vec(),
            None => self.k.memories[self.mem(operands[at])?].shape.clone(),
        };
        let address = self.shaped_address(items, &shape, &map, &vals)?;
        Ok((operands[at], address, at + 1 + n))
    }

    /// `affine.dma_start` or `affine.dma_wait` as an [`Item::Dma`].
    pub(super) fn lift_dma(
        &mut self,
        op: OpId,
        name: &str,
        operands: &[ValueId],
        items: &mut Vec<Item>,
    ) -> Res<()> {
        if self.predicate.is_some() {
            return err(
                self.loc,
                format!("'{name}' inside a conditional is not supported yet"),
            );
        }
        let mut ends = None;
        let mut at = 0;
        if name == "affine.dma_start" {
            let (src, src_address, next) =
                self.subscripted(op, "src_map", operands, 0, items, None)?;
            let (dst, dst_address, next) =
                self.subscripted(op, "dst_map", operands, next, items, None)?;
            at = next;
            ends = Some((src, src_address, dst, dst_address));
        }
        let Some(&tag_value) = operands.get(at) else {
            return err(self.loc, "DMA operation without a tag");
        };
        let Some(&tag) = self.tags.get(&tag_value) else {
            return err(
                self.loc,
                "the tag of a DMA operation must be a memref allocated in the kernel",
            );
        };
        let shape = self.k.tags[tag].shape.clone();
        let (_, tag_index, next) =
            self.subscripted(op, "tag_map", operands, at, items, Some(&shape))?;
        let transfer = match ends {
            None => None,
            Some((src, src_address, dst, dst_address)) => {
                // `%num [, %stride, %per_stride]` follow the tag's subscripts.
                let rest = &operands[next..];
                let (sm, dm) = (self.mem(src)?, self.mem(dst)?);
                let (sw, dw) = (
                    self.k.memories[sm].element_width,
                    self.k.memories[dm].element_width,
                );
                if sw != dw {
                    return err(
                        self.loc,
                        "DMA between memrefs of different element types is not supported",
                    );
                }
                let stride = match rest {
                    [_, s, p] => Some((self.val(*s)?, self.val(*p)?)),
                    _ => None,
                };
                let space = |v: ValueId| memory_space(self.ctx, self.ir.value_type(v)).unwrap_or(0);
                Some(Transfer {
                    src: sm,
                    dst: dm,
                    src_address,
                    dst_address,
                    count: self.val(rest[0])?,
                    stride,
                    src_is_slow: space(src) <= space(dst),
                })
            }
        };
        let id = self.k.dmas.len();
        self.k.dmas.push(Dma {
            tag,
            tag_index,
            transfer,
            loc: self.loc,
            source: op,
        });
        items.push(Item::Dma(id));
        self.open = None;
        Ok(())
    }
}
