//! The operation graph: operations, blocks, regions and SSA values in dense
//! arenas keyed by `u32` ids, program order as intrusive links, operands in
//! a shared pool with per-value use-lists.
//!
//! All mutation goes through `&mut Ir`; no reference counting, no interior
//! mutability. Erased entities stay in their arena as tombstones.

use crate::context::{Attr, Symbol, Type};

mod absorb;
pub use absorb::Shift;

macro_rules! entity {
    ($(#[$m:meta])* $name:ident) => {
        $(#[$m])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
        pub struct $name(pub u32);
        impl $name {
            #[inline]
            fn idx(self) -> usize {
                self.0 as usize
            }
        }
    };
}

entity!(
    /// An operation.
    OpId
);
entity!(
    /// A block.
    BlockId
);
entity!(
    /// A region.
    RegionId
);
entity!(
    /// An SSA value (op result or block argument).
    ValueId
);
entity!(
    /// One operand slot (a use of a value).
    UseId
);

const NONE: u32 = u32::MAX;

/// Where a value is defined.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ValueDef {
    /// Result `index` of `op`.
    Result { op: OpId, index: u32 },
    /// Argument `index` of `block`.
    Argument { block: BlockId, index: u32 },
    /// A forward reference not yet resolved by the parser.
    Placeholder,
}

#[derive(Clone, Debug)]
struct ValueData {
    ty: Type,
    def: ValueDef,
    /// Location of block arguments (op results use their op's location).
    loc: Option<Attr>,
    first_use: u32,
}

#[derive(Clone, Copy, Debug)]
struct UseData {
    value: ValueId,
    owner: OpId,
    prev: u32,
    next: u32,
}

/// The fixed-size record of an operation.
#[derive(Clone, Debug)]
struct OpData {
    name: Symbol,
    loc: Attr,
    /// Discardable attributes: a dictionary attribute.
    attrs: Attr,
    /// Properties (inherent attributes) as one attribute, if any.
    props: Option<Attr>,
    operands_start: u32,
    num_operands: u32,
    first_result: u32,
    num_results: u32,
    successors_start: u32,
    num_successors: u32,
    regions_start: u32,
    num_regions: u32,
    parent: u32,
    prev: u32,
    next: u32,
    erased: bool,
}

#[derive(Clone, Debug)]
struct BlockData {
    parent: u32,
    prev: u32,
    next: u32,
    first_op: u32,
    last_op: u32,
    args: Vec<ValueId>,
}

#[derive(Clone, Debug)]
struct RegionData {
    parent: u32,
    first_block: u32,
    last_block: u32,
}

/// Everything needed to create an operation.
#[derive(Clone, Debug)]
pub struct OpSpec<'a> {
    pub name: Symbol,
    pub loc: Attr,
    pub operands: &'a [ValueId],
    pub result_types: &'a [Type],
    pub successors: &'a [BlockId],
    /// Detached regions (from [`Ir::create_region`]) the op takes over.
    pub regions: &'a [RegionId],
    pub attrs: Attr,
    pub props: Option<Attr>,
}

/// The arenas holding one IR graph.
#[derive(Default, Clone)]
pub struct Ir {
    ops: Vec<OpData>,
    blocks: Vec<BlockData>,
    regions: Vec<RegionData>,
    values: Vec<ValueData>,
    uses: Vec<UseData>,
    successors: Vec<BlockId>,
    region_lists: Vec<RegionId>,
}

/// Iterator over an intrusive list.
pub struct OpIter<'a> {
    ir: &'a Ir,
    cur: u32,
}

impl Iterator for OpIter<'_> {
    type Item = OpId;
    fn next(&mut self) -> Option<OpId> {
        if self.cur == NONE {
            return None;
        }
        let id = OpId(self.cur);
        self.cur = self.ir.ops[id.idx()].next;
        Some(id)
    }
}

/// Iterator over the blocks of a region.
pub struct BlockIter<'a> {
    ir: &'a Ir,
    cur: u32,
}

impl Iterator for BlockIter<'_> {
    type Item = BlockId;
    fn next(&mut self) -> Option<BlockId> {
        if self.cur == NONE {
            return None;
        }
        let id = BlockId(self.cur);
        self.cur = self.ir.blocks[id.idx()].next;
        Some(id)
    }
}

/// Iterator over the uses of a value.
pub struct UseIter<'a> {
    ir: &'a Ir,
    cur: u32,
}

impl Iterator for UseIter<'_> {
    type Item = UseId;
    fn next(&mut self) -> Option<UseId> {
        if self.cur == NONE {
            return None;
        }
        let id = UseId(self.cur);
        self.cur = self.ir.uses[id.idx()].next;
        Some(id)
    }
}

fn opt(x: u32) -> Option<u32> {
    (x != NONE).then_some(x)
}

impl Ir {
    /// An empty graph.
    pub fn new() -> Self {
        Self::default()
    }

    /// Reserves room for about `ops` operations.
    pub fn reserve(&mut self, ops: usize) {
        self.ops.reserve(ops);
        self.values.reserve(ops);
        self.uses.reserve(ops * 2);
    }

    // ----- creation -------------------------------------------------------

    /// Creates a detached operation with fresh empty regions.
    pub fn create_op(&mut self, spec: OpSpec<'_>) -> OpId {
        let id = OpId(self.ops.len() as u32);
        let operands_start = self.uses.len() as u32;
        for &v in spec.operands {
            self.push_use(v, id);
        }
        let first_result = self.values.len() as u32;
        for (i, &ty) in spec.result_types.iter().enumerate() {
            self.values.push(ValueData {
                ty,
                def: ValueDef::Result {
                    op: id,
                    index: i as u32,
                },
                loc: None,
                first_use: NONE,
            });
        }
        let successors_start = self.successors.len() as u32;
        self.successors.extend_from_slice(spec.successors);
        let regions_start = self.region_lists.len() as u32;
        for &r in spec.regions {
            debug_assert_eq!(self.regions[r.idx()].parent, NONE, "region already owned");
            self.regions[r.idx()].parent = id.0;
            self.region_lists.push(r);
        }
        self.ops.push(OpData {
            name: spec.name,
            loc: spec.loc,
            attrs: spec.attrs,
            props: spec.props,
            operands_start,
            num_operands: spec.operands.len() as u32,
            first_result,
            num_results: spec.result_types.len() as u32,
            successors_start,
            num_successors: spec.successors.len() as u32,
            regions_start,
            num_regions: spec.regions.len() as u32,
            parent: NONE,
            prev: NONE,
            next: NONE,
            erased: false,
        });
        id
    }

    fn push_use(&mut self, v: ValueId, owner: OpId) -> UseId {
        let id = self.uses.len() as u32;
        let head = self.values[v.idx()].first_use;
        self.uses.push(UseData {
            value: v,
            owner,
            prev: NONE,
            next: head,
        });
        if head != NONE {
            self.uses[head as usize].prev = id;
        }
        self.values[v.idx()].first_use = id;
        UseId(id)
    }

    /// Creates a detached, empty region.
    pub fn create_region(&mut self) -> RegionId {
        let id = RegionId(self.regions.len() as u32);
        self.regions.push(RegionData {
            parent: NONE,
            first_block: NONE,
            last_block: NONE,
        });
        id
    }

    /// Creates `n` detached, empty regions.
    pub fn create_regions(&mut self, n: usize) -> Vec<RegionId> {
        (0..n).map(|_| self.create_region()).collect()
    }

    /// Creates a detached block without arguments.
    pub fn create_block(&mut self) -> BlockId {
        let id = BlockId(self.blocks.len() as u32);
        self.blocks.push(BlockData {
            parent: NONE,
            prev: NONE,
            next: NONE,
            first_op: NONE,
            last_op: NONE,
            args: Vec::new(),
        });
        id
    }

    /// Appends an argument of type `ty` to `block`.
    pub fn add_block_arg(&mut self, block: BlockId, ty: Type, loc: Option<Attr>) -> ValueId {
        let v = ValueId(self.values.len() as u32);
        let index = self.blocks[block.idx()].args.len() as u32;
        self.values.push(ValueData {
            ty,
            def: ValueDef::Argument { block, index },
            loc,
            first_use: NONE,
        });
        self.blocks[block.idx()].args.push(v);
        v
    }

    /// Creates a value standing for a not-yet-defined name (parser
    /// forward references); replace it with [`Ir::replace_all_uses`].
    pub fn create_placeholder(&mut self, ty: Type) -> ValueId {
        let v = ValueId(self.values.len() as u32);
        self.values.push(ValueData {
            ty,
            def: ValueDef::Placeholder,
            loc: None,
            first_use: NONE,
        });
        v
    }

    // ----- queries --------------------------------------------------------

    /// The op's name.
    pub fn op_name(&self, op: OpId) -> Symbol {
        self.ops[op.idx()].name
    }

    /// The op's location.
    pub fn op_loc(&self, op: OpId) -> Attr {
        self.ops[op.idx()].loc
    }

    /// Sets the op's location.
    pub fn set_op_loc(&mut self, op: OpId, loc: Attr) {
        self.ops[op.idx()].loc = loc;
    }

    /// The op's discardable attributes (a dictionary attribute).
    pub fn op_attrs(&self, op: OpId) -> Attr {
        self.ops[op.idx()].attrs
    }

    /// Replaces the op's discardable attribute dictionary.
    pub fn set_op_attrs(&mut self, op: OpId, dict: Attr) {
        self.ops[op.idx()].attrs = dict;
    }

    /// The op's properties attribute.
    pub fn op_props(&self, op: OpId) -> Option<Attr> {
        self.ops[op.idx()].props
    }

    /// Replaces the op's properties.
    pub fn set_op_props(&mut self, op: OpId, props: Option<Attr>) {
        self.ops[op.idx()].props = props;
    }

    /// Number of operations ever created (erased ones included).
    pub fn op_capacity(&self) -> usize {
        self.ops.len()
    }

    /// Number of values ever created.
    pub fn value_capacity(&self) -> usize {
        self.values.len()
    }

    /// Number of blocks ever created.
    pub fn block_capacity(&self) -> usize {
        self.blocks.len()
    }

    /// The operand slots of `op`.
    pub fn operand_uses(&self, op: OpId) -> impl ExactSizeIterator<Item = UseId> + '_ {
        let d = &self.ops[op.idx()];
        (d.operands_start..d.operands_start + d.num_operands).map(UseId)
    }

    /// The values `op` uses, in order.
    pub fn operands(&self, op: OpId) -> impl ExactSizeIterator<Item = ValueId> + '_ {
        let d = &self.ops[op.idx()];
        self.uses[d.operands_start as usize..(d.operands_start + d.num_operands) as usize]
            .iter()
            .map(|u| u.value)
    }

    /// Operand `i` of `op`.
    pub fn operand(&self, op: OpId, i: usize) -> ValueId {
        let d = &self.ops[op.idx()];
        self.uses[d.operands_start as usize + i].value
    }

    /// Number of operands.
    pub fn num_operands(&self, op: OpId) -> usize {
        self.ops[op.idx()].num_operands as usize
    }

    /// The results of `op`.
    pub fn results(&self, op: OpId) -> impl ExactSizeIterator<Item = ValueId> {
        let d = &self.ops[op.idx()];
        (d.first_result..d.first_result + d.num_results).map(ValueId)
    }

    /// Result `i` of `op`.
    pub fn result(&self, op: OpId, i: usize) -> ValueId {
        ValueId(self.ops[op.idx()].first_result + i as u32)
    }

    /// Number of results.
    pub fn num_results(&self, op: OpId) -> usize {
        self.ops[op.idx()].num_results as usize
    }

    /// The successor blocks of `op`.
    pub fn successors(&self, op: OpId) -> &[BlockId] {
        let d = &self.ops[op.idx()];
        &self.successors
            [d.successors_start as usize..(d.successors_start + d.num_successors) as usize]
    }

    /// The regions of `op`.
    pub fn regions(&self, op: OpId) -> impl ExactSizeIterator<Item = RegionId> + '_ {
        let d = &self.ops[op.idx()];
        self.region_lists[d.regions_start as usize..(d.regions_start + d.num_regions) as usize]
            .iter()
            .copied()
    }

    /// Number of regions.
    pub fn num_regions(&self, op: OpId) -> usize {
        self.ops[op.idx()].num_regions as usize
    }

    /// The block containing `op`.
    pub fn op_block(&self, op: OpId) -> Option<BlockId> {
        opt(self.ops[op.idx()].parent).map(BlockId)
    }

    /// The op following `op` in its block.
    pub fn next_op(&self, op: OpId) -> Option<OpId> {
        opt(self.ops[op.idx()].next).map(OpId)
    }

    /// The op preceding `op` in its block.
    pub fn prev_op(&self, op: OpId) -> Option<OpId> {
        opt(self.ops[op.idx()].prev).map(OpId)
    }

    /// Whether `op` has been erased.
    pub fn is_erased(&self, op: OpId) -> bool {
        self.ops[op.idx()].erased
    }

    /// The ops of `block` in order.
    pub fn block_ops(&self, block: BlockId) -> OpIter<'_> {
        OpIter {
            ir: self,
            cur: self.blocks[block.idx()].first_op,
        }
    }

    /// The first op of `block`.
    pub fn first_op(&self, block: BlockId) -> Option<OpId> {
        opt(self.blocks[block.idx()].first_op).map(OpId)
    }

    /// The last op of `block` (its terminator, when it has one).
    pub fn last_op(&self, block: BlockId) -> Option<OpId> {
        opt(self.blocks[block.idx()].last_op).map(OpId)
    }

    /// The arguments of `block`.
    pub fn block_args(&self, block: BlockId) -> &[ValueId] {
        &self.blocks[block.idx()].args
    }

    /// The region containing `block`.
    pub fn block_region(&self, block: BlockId) -> Option<RegionId> {
        opt(self.blocks[block.idx()].parent).map(RegionId)
    }

    /// The block after `block` in its region.
    pub fn next_block(&self, block: BlockId) -> Option<BlockId> {
        opt(self.blocks[block.idx()].next).map(BlockId)
    }

    /// The blocks of `region` in order.
    pub fn region_blocks(&self, region: RegionId) -> BlockIter<'_> {
        BlockIter {
            ir: self,
            cur: self.regions[region.idx()].first_block,
        }
    }

    /// The entry block of `region`.
    pub fn entry_block(&self, region: RegionId) -> Option<BlockId> {
        opt(self.regions[region.idx()].first_block).map(BlockId)
    }

    /// Whether `region` has no blocks.
    pub fn region_is_empty(&self, region: RegionId) -> bool {
        self.regions[region.idx()].first_block == NONE
    }

    /// The op owning `region` (`None` while detached).
    pub fn region_op(&self, region: RegionId) -> Option<OpId> {
        opt(self.regions[region.idx()].parent).map(OpId)
    }

    /// The index of `region` among its op's regions.
    pub fn region_index(&self, region: RegionId) -> usize {
        self.region_op(region)
            .and_then(|op| self.regions(op).position(|r| r == region))
            .unwrap_or(0)
    }

    /// The op whose region contains `op`, if any.
    pub fn parent_op(&self, op: OpId) -> Option<OpId> {
        let block = self.op_block(op)?;
        let region = self.block_region(block)?;
        self.region_op(region)
    }

    /// Whether `op` is `ancestor` or nested in it.
    pub fn is_ancestor(&self, ancestor: OpId, mut op: OpId) -> bool {
        loop {
            if op == ancestor {
                return true;
            }
            match self.parent_op(op) {
                Some(p) => op = p,
                None => return false,
            }
        }
    }

    /// Whether `op` is in `region`, directly or nested.
    pub fn is_in_region(&self, mut op: OpId, region: RegionId) -> bool {
        loop {
            let Some(r) = self.op_block(op).and_then(|b| self.block_region(b)) else {
                return false;
            };
            if r == region {
                return true;
            }
            match self.region_op(r) {
                Some(p) => op = p,
                None => return false,
            }
        }
    }

    /// The type of a value.
    pub fn value_type(&self, v: ValueId) -> Type {
        self.values[v.idx()].ty
    }

    /// Changes the type of a value.
    pub fn set_value_type(&mut self, v: ValueId, ty: Type) {
        self.values[v.idx()].ty = ty;
    }

    /// Where a value is defined.
    pub fn value_def(&self, v: ValueId) -> ValueDef {
        self.values[v.idx()].def
    }

    /// Sets the location of a block argument.
    pub fn set_value_loc(&mut self, v: ValueId, loc: Attr) {
        self.values[v.idx()].loc = Some(loc);
    }

    /// The location of a block argument.
    pub fn value_loc(&self, v: ValueId) -> Option<Attr> {
        self.values[v.idx()].loc
    }

    /// The op defining `v`, if it is an op result.
    pub fn defining_op(&self, v: ValueId) -> Option<OpId> {
        match self.values[v.idx()].def {
            ValueDef::Result { op, .. } => Some(op),
            _ => None,
        }
    }

    /// The block in which `v` is defined.
    pub fn value_block(&self, v: ValueId) -> Option<BlockId> {
        match self.values[v.idx()].def {
            ValueDef::Result { op, .. } => self.op_block(op),
            ValueDef::Argument { block, .. } => Some(block),
            ValueDef::Placeholder => None,
        }
    }

    /// The uses of `v`.
    pub fn uses(&self, v: ValueId) -> UseIter<'_> {
        UseIter {
            ir: self,
            cur: self.values[v.idx()].first_use,
        }
    }

    /// Whether `v` has any use.
    pub fn has_uses(&self, v: ValueId) -> bool {
        self.values[v.idx()].first_use != NONE
    }

    /// The op owning an operand slot.
    pub fn use_owner(&self, u: UseId) -> OpId {
        self.uses[u.idx()].owner
    }

    /// The value used by an operand slot.
    pub fn use_value(&self, u: UseId) -> ValueId {
        self.uses[u.idx()].value
    }

    // ----- mutation -------------------------------------------------------

    fn unlink_use(&mut self, u: u32) {
        let UseData {
            value, prev, next, ..
        } = self.uses[u as usize];
        if prev != NONE {
            self.uses[prev as usize].next = next;
        } else {
            self.values[value.idx()].first_use = next;
        }
        if next != NONE {
            self.uses[next as usize].prev = prev;
        }
    }

    fn link_use(&mut self, u: u32, value: ValueId) {
        let head = self.values[value.idx()].first_use;
        let d = &mut self.uses[u as usize];
        d.value = value;
        d.prev = NONE;
        d.next = head;
        if head != NONE {
            self.uses[head as usize].prev = u;
        }
        self.values[value.idx()].first_use = u;
    }

    /// Makes operand slot `u` use `value`.
    pub fn set_use(&mut self, u: UseId, value: ValueId) {
        self.unlink_use(u.0);
        self.link_use(u.0, value);
    }

    /// Sets operand `i` of `op`.
    pub fn set_operand(&mut self, op: OpId, i: usize, value: ValueId) {
        let u = self.ops[op.idx()].operands_start + i as u32;
        self.set_use(UseId(u), value);
    }

    /// Replaces every use of `from` with `to`.
    pub fn replace_all_uses(&mut self, from: ValueId, to: ValueId) {
        if from == to {
            return;
        }
        let mut cur = self.values[from.idx()].first_use;
        while cur != NONE {
            let next = self.uses[cur as usize].next;
            self.link_use(cur, to);
            cur = next;
        }
        self.values[from.idx()].first_use = NONE;
    }

    /// Inserts the detached `op` at the end of `block`.
    pub fn append_op(&mut self, block: BlockId, op: OpId) {
        let last = self.blocks[block.idx()].last_op;
        self.link_op(block, op, last, NONE);
    }

    /// Inserts the detached `op` just before `before`.
    pub fn insert_op_before(&mut self, before: OpId, op: OpId) {
        let block = self.ops[before.idx()].parent;
        let prev = self.ops[before.idx()].prev;
        self.link_op(BlockId(block), op, prev, before.0);
    }

    /// Inserts the detached `op` just after `after`.
    pub fn insert_op_after(&mut self, after: OpId, op: OpId) {
        let block = self.ops[after.idx()].parent;
        let next = self.ops[after.idx()].next;
        self.link_op(BlockId(block), op, after.0, next);
    }

    fn link_op(&mut self, block: BlockId, op: OpId, prev: u32, next: u32) {
        debug_assert_eq!(self.ops[op.idx()].parent, NONE, "op already linked");
        let d = &mut self.ops[op.idx()];
        d.parent = block.0;
        d.prev = prev;
        d.next = next;
        if prev != NONE {
            self.ops[prev as usize].next = op.0;
        } else {
            self.blocks[block.idx()].first_op = op.0;
        }
        if next != NONE {
            self.ops[next as usize].prev = op.0;
        } else {
            self.blocks[block.idx()].last_op = op.0;
        }
    }

    /// Unlinks `op` from its block, keeping it alive (detached).
    pub fn detach_op(&mut self, op: OpId) {
        let OpData {
            parent, prev, next, ..
        } = self.ops[op.idx()];
        if parent == NONE {
            return;
        }
        if prev != NONE {
            self.ops[prev as usize].next = next;
        } else {
            self.blocks[parent as usize].first_op = next;
        }
        if next != NONE {
            self.ops[next as usize].prev = prev;
        } else {
            self.blocks[parent as usize].last_op = prev;
        }
        let d = &mut self.ops[op.idx()];
        d.parent = NONE;
        d.prev = NONE;
        d.next = NONE;
    }

    /// Moves `op` to just before `before` (possibly in another block).
    pub fn move_op_before(&mut self, op: OpId, before: OpId) {
        self.detach_op(op);
        self.insert_op_before(before, op);
    }

    /// Erases `op` and everything nested in it. Its results must be unused.
    pub fn erase_op(&mut self, op: OpId) {
        debug_assert!(
            self.results(op).all(|v| !self.has_uses(v)),
            "erasing an op whose results are still used"
        );
        self.detach_op(op);
        self.drop_op(op);
    }

    fn drop_op(&mut self, op: OpId) {
        let uses: Vec<UseId> = self.operand_uses(op).collect();
        for u in uses {
            self.unlink_use(u.0);
        }
        let regions: Vec<RegionId> = self.regions(op).collect();
        for r in regions {
            let blocks: Vec<BlockId> = self.region_blocks(r).collect();
            for b in blocks {
                let ops: Vec<OpId> = self.block_ops(b).collect();
                for o in ops {
                    self.drop_op(o);
                }
            }
            self.regions[r.idx()].first_block = NONE;
            self.regions[r.idx()].last_block = NONE;
        }
        self.ops[op.idx()].erased = true;
    }

    /// Appends the detached `block` to `region`.
    pub fn append_block(&mut self, region: RegionId, block: BlockId) {
        let last = self.regions[region.idx()].last_block;
        let d = &mut self.blocks[block.idx()];
        d.parent = region.0;
        d.prev = last;
        d.next = NONE;
        if last != NONE {
            self.blocks[last as usize].next = block.0;
        } else {
            self.regions[region.idx()].first_block = block.0;
        }
        self.regions[region.idx()].last_block = block.0;
    }

    /// Unlinks `block` from its region, keeping its ops.
    pub fn detach_block(&mut self, block: BlockId) {
        let BlockData {
            parent, prev, next, ..
        } = self.blocks[block.idx()];
        if parent == NONE {
            return;
        }
        if prev != NONE {
            self.blocks[prev as usize].next = next;
        } else {
            self.regions[parent as usize].first_block = next;
        }
        if next != NONE {
            self.blocks[next as usize].prev = prev;
        } else {
            self.regions[parent as usize].last_block = prev;
        }
        let d = &mut self.blocks[block.idx()];
        d.parent = NONE;
        d.prev = NONE;
        d.next = NONE;
    }

    /// Inserts the detached `block` just after `after` in its region.
    pub fn insert_block_after(&mut self, after: BlockId, block: BlockId) {
        let region = self.blocks[after.idx()].parent;
        let next = self.blocks[after.idx()].next;
        let d = &mut self.blocks[block.idx()];
        d.parent = region;
        d.prev = after.0;
        d.next = next;
        self.blocks[after.idx()].next = block.0;
        if next != NONE {
            self.blocks[next as usize].prev = block.0;
        } else {
            self.regions[region as usize].last_block = block.0;
        }
    }

    /// Inserts the detached `block` just before `before` in its region.
    pub fn insert_block_before(&mut self, before: BlockId, block: BlockId) {
        if let Some(p) = self.prev_block(before) {
            return self.insert_block_after(p, block);
        }
        let region = self.blocks[before.idx()].parent;
        let d = &mut self.blocks[block.idx()];
        d.parent = region;
        d.prev = NONE;
        d.next = before.0;
        self.blocks[before.idx()].prev = block.0;
        self.regions[region as usize].first_block = block.0;
    }

    /// Splits `block` before `at`: `at` and the ops after it move, in
    /// order, to a new block inserted after `block`, which is returned.
    pub fn split_block(&mut self, block: BlockId, at: Option<OpId>) -> BlockId {
        let new = self.create_block();
        self.insert_block_after(block, new);
        let mut cur = at;
        while let Some(op) = cur {
            cur = self.next_op(op);
            self.detach_op(op);
            self.append_op(new, op);
        }
        new
    }

    /// Moves every block of `region`, in order, to just before `before`.
    pub fn inline_region_before(&mut self, region: RegionId, before: BlockId) {
        let blocks: Vec<BlockId> = self.region_blocks(region).collect();
        for b in blocks {
            self.detach_block(b);
            self.insert_block_before(before, b);
        }
    }

    /// The block before `block` in its region.
    pub fn prev_block(&self, block: BlockId) -> Option<BlockId> {
        let p = self.blocks[block.idx()].prev;
        (p != NONE).then_some(BlockId(p))
    }

    /// Unlinks `block` from its region and drops its ops (their operand
    /// uses are removed; uses of its values elsewhere must be going too).
    pub fn erase_block(&mut self, block: BlockId) {
        self.detach_block(block);
        let ops: Vec<OpId> = self.block_ops(block).collect();
        for o in ops {
            self.drop_op(o);
        }
        let d = &mut self.blocks[block.idx()];
        d.first_op = NONE;
        d.last_op = NONE;
    }

    /// Removes the argument `index` of `block`; it must be unused.
    pub fn erase_block_arg(&mut self, block: BlockId, index: usize) {
        debug_assert!(!self.has_uses(self.blocks[block.idx()].args[index]));
        let args = &mut self.blocks[block.idx()].args;
        args.remove(index);
        for (i, &a) in args.clone().iter().enumerate().skip(index) {
            self.values[a.idx()].def = ValueDef::Argument {
                block,
                index: i as u32,
            };
        }
    }

    /// Replaces the operands of `op` (their number may change).
    pub fn set_operands(&mut self, op: OpId, operands: &[ValueId]) {
        let old: Vec<UseId> = self.operand_uses(op).collect();
        for u in old {
            self.unlink_use(u.0);
        }
        let start = self.uses.len() as u32;
        for (i, &v) in operands.iter().enumerate() {
            self.uses.push(UseData {
                value: v,
                owner: op,
                prev: NONE,
                next: NONE,
            });
            self.link_use(start + i as u32, v);
        }
        let d = &mut self.ops[op.idx()];
        d.operands_start = start;
        d.num_operands = operands.len() as u32;
    }

    /// Replaces successor `i` of `op`.
    pub fn set_successor(&mut self, op: OpId, i: usize, block: BlockId) {
        let start = self.ops[op.idx()].successors_start as usize;
        self.successors[start + i] = block;
    }

    /// Deep-copies `op` (detached), remapping uses of values defined inside
    /// it; uses of outside values are kept.
    pub fn clone_op(&mut self, op: OpId) -> OpId {
        let mut map = rustc_hash::FxHashMap::default();
        let mut block_map = rustc_hash::FxHashMap::default();
        let new = self.clone_op_with(op, &mut map, &mut block_map);
        // Operands may refer forward to values defined later in the clone
        // (graph regions): fix them up now that all values exist.
        let mut fix: Vec<(UseId, ValueId)> = Vec::new();
        self.walk(new, &mut |o| {
            fix.extend(
                self.operand_uses(o)
                    .filter_map(|u| map.get(&self.use_value(u)).map(|&v| (u, v))),
            );
        });
        for (u, v) in fix {
            self.set_use(u, v);
        }
        new
    }

    fn clone_op_with(
        &mut self,
        op: OpId,
        map: &mut rustc_hash::FxHashMap<ValueId, ValueId>,
        block_map: &mut rustc_hash::FxHashMap<BlockId, BlockId>,
    ) -> OpId {
        let operands: Vec<ValueId> = self
            .operands(op)
            .map(|v| *map.get(&v).unwrap_or(&v))
            .collect();
        let types: Vec<Type> = self.results(op).map(|v| self.value_type(v)).collect();
        let succs: Vec<BlockId> = self
            .successors(op)
            .iter()
            .map(|b| *block_map.get(b).unwrap_or(b))
            .collect();
        let d = self.ops[op.idx()].clone();
        let new_regions = self.create_regions(d.num_regions as usize);
        let new = self.create_op(OpSpec {
            name: d.name,
            loc: d.loc,
            operands: &operands,
            result_types: &types,
            successors: &succs,
            regions: &new_regions,
            attrs: d.attrs,
            props: d.props,
        });
        for (old, newv) in self.results(op).zip(self.results(new)).collect::<Vec<_>>() {
            map.insert(old, newv);
        }
        let old_regions: Vec<RegionId> = self.regions(op).collect();
        for (or, nr) in old_regions.into_iter().zip(new_regions) {
            let blocks: Vec<BlockId> = self.region_blocks(or).collect();
            // Create all blocks first so successors can be remapped.
            for &b in &blocks {
                let nb = self.create_block();
                block_map.insert(b, nb);
                for a in self.block_args(b).to_vec() {
                    let ty = self.value_type(a);
                    let loc = self.value_loc(a);
                    let na = self.add_block_arg(nb, ty, loc);
                    map.insert(a, na);
                }
                self.append_block(nr, nb);
            }
            for &b in &blocks {
                let nb = block_map[&b];
                let ops: Vec<OpId> = self.block_ops(b).collect();
                for o in ops {
                    let no = self.clone_op_with(o, map, block_map);
                    self.append_op(nb, no);
                }
            }
        }
        new
    }

    /// Walks `op` and all ops nested in it, pre-order.
    pub fn walk(&self, op: OpId, f: &mut dyn FnMut(OpId)) {
        let mut stack = vec![op];
        while let Some(o) = stack.pop() {
            f(o);
            let base = stack.len();
            for r in self.regions(o) {
                for b in self.region_blocks(r) {
                    stack.extend(self.block_ops(b));
                }
            }
            stack[base..].reverse();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::Context;

    fn spec<'a>(
        ctx: &mut Context,
        name: &str,
        operands: &'a [ValueId],
        types: &'a [Type],
    ) -> OpSpec<'a> {
        OpSpec {
            name: ctx.sym(name),
            loc: ctx.unknown_loc(),
            operands,
            result_types: types,
            successors: &[],
            regions: &[],
            attrs: ctx.empty_dict(),
            props: None,
        }
    }

    #[test]
    fn rauw_erase_move_clone() {
        let mut ctx = Context::new();
        let i32t = ctx.signless(32);
        let mut ir = Ir::new();
        let block = ir.create_block();
        let a = ir.create_op(spec(&mut ctx, "t.a", &[], &[i32t]));
        ir.append_op(block, a);
        let av = ir.result(a, 0);
        let b = ir.create_op(spec(&mut ctx, "t.b", &[], &[i32t]));
        ir.append_op(block, b);
        let bv = ir.result(b, 0);
        let ops = [av, av];
        let c = ir.create_op(spec(&mut ctx, "t.c", &ops, &[]));
        ir.append_op(block, c);
        assert_eq!(ir.uses(av).count(), 2);
        ir.replace_all_uses(av, bv);
        assert_eq!(ir.uses(av).count(), 0);
        assert_eq!(ir.operands(c).collect::<Vec<_>>(), vec![bv, bv]);
        ir.erase_op(a);
        assert_eq!(ir.block_ops(block).collect::<Vec<_>>(), vec![b, c]);
        ir.move_op_before(c, b);
        assert_eq!(ir.block_ops(block).collect::<Vec<_>>(), vec![c, b]);
        let c2 = ir.clone_op(c);
        ir.insert_op_after(b, c2);
        assert_eq!(ir.uses(bv).count(), 4);
        ir.set_operand(c2, 1, bv);
        assert_eq!(ir.block_ops(block).count(), 3);
    }
}
