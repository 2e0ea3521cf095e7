//! Numbers everything the writer refers to by index, as MLIR's
//! `IRNumbering` does: dialects in the order first met; op names,
//! attributes and types by decreasing reference count (first met first
//! among equals), then grouped by dialect within each varint byte width;
//! values per isolated region, in the order MLIR's region worklist meets
//! them; and which ops can be written as isolated (lazily loadable)
//! sections: those isolated from above, and those whose regions use no
//! value from outside.

use super::{OpProps, Plan};
use crate::builtin::write::{
    attr_dialect, key, type_dialect, write_attr, write_type, AttrKey, Sink,
};
use crate::properties::{self, PropSink};
use rustc_hash::FxHashMap;
use silica_ir::dialect::Traits;
use silica_ir::{Attr, BlockId, Context, Ir, OpId, RegionId, Symbol, Type, ValueDef, ValueId};

/// A table from handle ids to `u32`s (`u32::MAX`: none), dense in both
/// of the ranges handle ids take (from 0, and from 2^31 for file
/// locations).
#[derive(Default)]
pub(crate) struct IdTable {
    low: Vec<u32>,
    high: Vec<u32>,
}

impl IdTable {
    const HIGH: u32 = 1 << 31;

    fn get(&self, id: u32) -> Option<u32> {
        let (table, i) = match id.checked_sub(Self::HIGH) {
            Some(i) => (&self.high, i),
            None => (&self.low, id),
        };
        table.get(i as usize).copied().filter(|&v| v != u32::MAX)
    }

    fn set(&mut self, id: u32, v: u32) {
        let (table, i) = match id.checked_sub(Self::HIGH) {
            Some(i) => (&mut self.high, i as usize),
            None => (&mut self.low, id as usize),
        };
        if table.len() <= i {
            table.resize((i + 1).max(table.len() * 2), u32::MAX);
        }
        table[i] = v;
    }

    /// Replaces every value `v` by `map[v]`.
    fn remap(&mut self, map: &[u32]) {
        for v in self.low.iter_mut().chain(self.high.iter_mut()) {
            if *v != u32::MAX {
                *v = map[*v as usize];
            }
        }
    }
}

/// Where the attribute keys' entries are, then (after numbering) their
/// numbers.
#[derive(Default)]
struct AttrTables {
    attrs: IdTable,
    strs: IdTable,
    flat_refs: IdTable,
    identity_maps: IdTable,
}

impl AttrTables {
    fn table(&mut self, k: AttrKey) -> (&mut IdTable, u32) {
        match k {
            AttrKey::Attr(a) => (&mut self.attrs, a.id()),
            AttrKey::Str(s) => (&mut self.strs, s.id()),
            AttrKey::FlatRef(s) => (&mut self.flat_refs, s.id()),
            AttrKey::IdentityMap(n) => (&mut self.identity_maps, n),
        }
    }

    fn get(&self, k: AttrKey) -> Option<u32> {
        match k {
            AttrKey::Attr(a) => self.attrs.get(a.id()),
            AttrKey::Str(s) => self.strs.get(s.id()),
            AttrKey::FlatRef(s) => self.flat_refs.get(s.id()),
            AttrKey::IdentityMap(n) => self.identity_maps.get(n),
        }
    }

    fn set(&mut self, k: AttrKey, v: u32) {
        let (t, id) = self.table(k);
        t.set(id, v);
    }

    fn remap(&mut self, map: &[u32]) {
        self.attrs.remap(map);
        self.strs.remap(map);
        self.flat_refs.remap(map);
        self.identity_maps.remap(map);
    }
}

/// A numbered attribute, type or op name.
pub(crate) struct Entry<K> {
    pub key: K,
    pub dialect: u32,
    pub refs: u32,
    /// Whether it has a dialect encoding (attributes and types).
    pub custom: bool,
}

/// The numbering of one module.
pub(crate) struct Numbering {
    /// Dialect names, in the order first met.
    pub dialects: Vec<String>,
    /// The number of `builtin`, and of other dialects by symbol id, once
    /// met.
    builtin: Option<u32>,
    dialect_numbers: IdTable,
    pub attrs: Vec<Entry<AttrKey>>,
    /// Attributes', types' and op names' entries while numbering; their
    /// numbers once numbered.
    attr_index: AttrTables,
    pub types: Vec<Entry<Type>>,
    type_index: IdTable,
    pub op_names: Vec<Entry<Symbol>>,
    op_name_index: IdTable,
    /// Final numbers of attributes, types and op names (by entry).
    attr_number: Vec<u32>,
    type_number: Vec<u32>,
    op_name_number: Vec<u32>,
    /// Value numbers, by value id.
    value_number: Vec<u32>,
    /// Block numbers within their region, by block id.
    block_number: Vec<u32>,
    /// Blocks and values of each region.
    pub region_counts: FxHashMap<RegionId, (u32, u32)>,
    /// Pre-order op numbers (for use-list orders), by op id.
    pub op_numbers: Vec<u32>,
    /// Whether each op with regions is written as isolated, by op id.
    isolated: Vec<bool>,
    /// The builtin dialect resources referred to, in order met.
    pub resources: Vec<Symbol>,
    resource_number: FxHashMap<Symbol, u32>,
    next_value: u32,
}

impl Numbering {
    /// Numbers the module under `top`.
    pub(crate) fn new(ctx: &Context, ir: &Ir, top: OpId, plan: &Plan) -> Numbering {
        let mut n = Numbering {
            dialects: Vec::new(),
            builtin: None,
            dialect_numbers: IdTable::default(),
            // Most ops have a location of their own.
            attrs: Vec::with_capacity(ir.op_capacity()),
            attr_index: AttrTables::default(),
            types: Vec::new(),
            type_index: IdTable::default(),
            op_names: Vec::new(),
            op_name_index: IdTable::default(),
            attr_number: Vec::new(),
            type_number: Vec::new(),
            op_name_number: Vec::new(),
            value_number: vec![u32::MAX; ir.value_capacity()],
            block_number: vec![u32::MAX; ir.block_capacity()],
            region_counts: FxHashMap::default(),
            op_numbers: Vec::new(),
            isolated: vec![false; ir.op_capacity()],
            resources: Vec::new(),
            resource_number: FxHashMap::default(),
            next_value: 0,
        };
        n.number_ops_and_isolation(ctx, ir, top);
        n.number_op(ctx, ir, top, plan);
        let mut worklist: Vec<(RegionId, u32)> = Vec::new();
        let push_regions = |n: &Numbering, op: OpId, worklist: &mut Vec<(RegionId, u32)>| {
            if ir.num_regions(op) == 0 {
                return;
            }
            let first = if n.isolated[op.0 as usize] {
                0
            } else {
                n.next_value
            };
            worklist.extend(ir.regions(op).map(|r| (r, first)));
        };
        push_regions(&n, top, &mut worklist);
        while let Some((region, first)) = worklist.pop() {
            n.next_value = first;
            n.number_region(ctx, ir, region, plan);
            for b in ir.region_blocks(region) {
                for op in ir.block_ops(b) {
                    push_regions(&n, op, &mut worklist);
                }
            }
        }
        n.finish();
        n
    }

    /// Gives every op its pre-order number and decides which ops with
    /// regions are isolated (MLIR's `computeGlobalNumberingState`).
    fn number_ops_and_isolation(&mut self, ctx: &Context, ir: &Ir, top: OpId) {
        struct Frame {
            op: OpId,
            /// `None` while undecided.
            isolated: Option<bool>,
            unresolved: bool,
        }
        self.op_numbers = vec![u32::MAX; ir.op_capacity()];
        let mut next = 0u32;
        let mut stack: Vec<Frame> = Vec::new();
        // (op, whether its regions are done)
        let mut todo: Vec<(OpId, bool)> = vec![(top, false)];
        let isolated_trait = |op: OpId| {
            ctx.op_def(ir.op_name(op))
                .is_some_and(|d| d.traits.has(Traits::ISOLATED_FROM_ABOVE))
        };
        while let Some((op, done)) = todo.pop() {
            if done {
                let f = stack.pop().expect("pushed before its regions");
                self.isolated[f.op.0 as usize] = f.isolated.unwrap_or(true);
                continue;
            }
            if stack.last().is_some_and(|f| f.unresolved) {
                let parent = ir.op_block(op).and_then(|b| ir.block_region(b));
                for v in ir.operands(op) {
                    let region = value_region(ir, v);
                    if region == parent {
                        continue;
                    }
                    let container = region.and_then(|r| ir.region_op(r));
                    let stop = stack
                        .iter()
                        .rposition(|f| !f.unresolved || Some(f.op) == container);
                    let from = stop.map_or(0, |i| i + 1);
                    let unresolved = stop.is_some_and(|i| stack[i].unresolved);
                    for f in &mut stack[from..] {
                        f.unresolved = unresolved;
                        f.isolated = Some(false);
                    }
                }
            }
            self.op_numbers[op.0 as usize] = next;
            next += 1;
            if ir.num_regions(op) == 0 {
                continue;
            }
            let isolated = isolated_trait(op).then_some(true);
            stack.push(Frame {
                op,
                isolated,
                unresolved: isolated.is_none(),
            });
            todo.push((op, true));
            let base = todo.len();
            for r in ir.regions(op) {
                for b in ir.region_blocks(r) {
                    todo.extend(ir.block_ops(b).map(|o| (o, false)));
                }
            }
            todo[base..].reverse();
        }
    }

    /// The number of a dialect, by name (few: a scan finds it).
    fn dialect(&mut self, name: &str) -> u32 {
        if let Some(i) = self.dialects.iter().position(|d| d == name) {
            return i as u32;
        }
        self.dialects.push(name.to_string());
        self.dialects.len() as u32 - 1
    }

    /// The number of the dialect `d` (`None`: builtin).
    fn dialect_of(&mut self, ctx: &Context, d: Option<Symbol>) -> u32 {
        match d {
            None => match self.builtin {
                Some(n) => n,
                None => {
                    let n = self.dialect("builtin");
                    self.builtin = Some(n);
                    n
                }
            },
            Some(s) => match self.dialect_numbers.get(s.id()) {
                Some(n) => n,
                None => {
                    let n = self.dialect(ctx.str(s));
                    self.dialect_numbers.set(s.id(), n);
                    n
                }
            },
        }
    }

    /// Numbers an attribute (and, the first time, what its encoding
    /// refers to).
    pub(crate) fn attr(&mut self, ctx: &Context, k: AttrKey) {
        if let Some(i) = self.attr_index.get(k) {
            self.attrs[i as usize].refs += 1;
            return;
        }
        let i = self.attrs.len();
        let d = attr_dialect(ctx, k);
        let dialect = self.dialect_of(ctx, d);
        self.attrs.push(Entry {
            key: k,
            dialect,
            refs: 1,
            custom: false,
        });
        self.attr_index.set(k, i as u32);
        let custom = match d {
            None => write_attr(ctx, k, &mut Visit(self)),
            Some(_) => crate::llvm::write_attr(ctx, k, &mut Visit(self)),
        };
        self.attrs[i].custom = custom;
    }

    /// Numbers a type.
    pub(crate) fn ty(&mut self, ctx: &Context, t: Type) {
        if let Some(i) = self.type_index.get(t.id()) {
            self.types[i as usize].refs += 1;
            return;
        }
        let i = self.types.len();
        let d = type_dialect(ctx, t);
        let dialect = self.dialect_of(ctx, d);
        self.types.push(Entry {
            key: t,
            dialect,
            refs: 1,
            custom: false,
        });
        self.type_index.set(t.id(), i as u32);
        if d.is_none() {
            let custom = write_type(ctx, t, &mut Visit(self));
            self.types[i].custom = custom;
        }
    }

    fn op_name(&mut self, ctx: &Context, name: Symbol) {
        if let Some(i) = self.op_name_index.get(name.id()) {
            self.op_names[i as usize].refs += 1;
            return;
        }
        let text = ctx.str(name);
        let dialect = self.dialect(text.split('.').next().unwrap_or(text));
        self.op_name_index
            .set(name.id(), self.op_names.len() as u32);
        self.op_names.push(Entry {
            key: name,
            dialect,
            refs: 1,
            custom: false,
        });
    }

    fn number_op(&mut self, ctx: &Context, ir: &Ir, op: OpId, plan: &Plan) {
        self.op_name(ctx, ir.op_name(op));
        for v in ir.results(op) {
            self.value_number[v.0 as usize] = self.next_value;
            self.next_value += 1;
            self.ty(ctx, ir.value_type(v));
        }
        let attrs = plan.attrs(ir, op);
        if attrs != plan.empty {
            self.attr(ctx, AttrKey::Attr(attrs));
        }
        match plan.props(ir, op) {
            OpProps::Registered(slots) => {
                // A missing required property is reported when the op is
                // written.
                let _ = properties::write(
                    ctx,
                    slots,
                    ir.op_props(op),
                    plan.version,
                    &mut PropVisit(self, ctx),
                );
            }
            OpProps::Unregistered(Some(a)) => self.attr(ctx, key(ctx, a)),
            OpProps::Unregistered(None) | OpProps::None => {}
        }
        self.attr(ctx, AttrKey::Attr(ir.op_loc(op)));
    }

    fn number_region(&mut self, ctx: &Context, ir: &Ir, region: RegionId, plan: &Plan) {
        if ir.region_is_empty(region) {
            return;
        }
        let first = self.next_value;
        let mut blocks = 0u32;
        for b in ir.region_blocks(region) {
            self.block_number[b.0 as usize] = blocks;
            blocks += 1;
            for &arg in ir.block_args(b) {
                self.value_number[arg.0 as usize] = self.next_value;
                self.next_value += 1;
                let loc = ir.value_loc(arg).unwrap_or(ctx.unknown_loc());
                self.attr(ctx, AttrKey::Attr(loc));
                self.ty(ctx, ir.value_type(arg));
            }
            for op in ir.block_ops(b) {
                self.number_op(ctx, ir, op, plan);
            }
        }
        self.region_counts
            .insert(region, (blocks, self.next_value - first));
    }

    /// Orders and numbers the entries; the tables then give numbers.
    fn finish(&mut self) {
        fn order<K>(entries: &[Entry<K>]) -> Vec<u32> {
            // By decreasing reference count, first met first among equals.
            let mut packed: Vec<u64> = entries
                .iter()
                .enumerate()
                .map(|(i, e)| (u64::from(u32::MAX - e.refs) << 32) | i as u64)
                .collect();
            packed.sort_unstable();
            let mut order: Vec<u32> = packed.into_iter().map(|p| p as u32).collect();
            group_by_dialect_per_byte(&mut order, |i| entries[i as usize].dialect);
            let mut number = vec![0u32; entries.len()];
            for (n, &i) in order.iter().enumerate() {
                number[i as usize] = n as u32;
            }
            number
        }
        self.attr_number = order(&self.attrs);
        self.type_number = order(&self.types);
        self.op_name_number = order(&self.op_names);
        self.attr_index.remap(&self.attr_number);
        self.type_index.remap(&self.type_number);
        self.op_name_index.remap(&self.op_name_number);
    }

    /// The entries in number order.
    pub(crate) fn ordered<'s, K>(entries: &'s [Entry<K>], numbers: &[u32]) -> Vec<&'s Entry<K>> {
        let mut out: Vec<Option<&Entry<K>>> = vec![None; entries.len()];
        for (e, &n) in entries.iter().zip(numbers) {
            out[n as usize] = Some(e);
        }
        out.into_iter().flatten().collect()
    }

    pub(crate) fn attr_numbers(&self) -> &[u32] {
        &self.attr_number
    }
    pub(crate) fn type_numbers(&self) -> &[u32] {
        &self.type_number
    }
    pub(crate) fn op_name_numbers(&self) -> &[u32] {
        &self.op_name_number
    }

    pub(crate) fn attr_number(&self, k: AttrKey) -> u64 {
        u64::from(self.attr_index.get(k).expect("numbered"))
    }
    pub(crate) fn type_number(&self, t: Type) -> u64 {
        u64::from(self.type_index.get(t.id()).expect("numbered"))
    }
    pub(crate) fn op_name_number(&self, name: Symbol) -> u64 {
        u64::from(self.op_name_index.get(name.id()).expect("numbered"))
    }
    pub(crate) fn value_number(&self, v: ValueId) -> u64 {
        u64::from(self.value_number[v.0 as usize])
    }
    pub(crate) fn block_number(&self, b: BlockId) -> u64 {
        u64::from(self.block_number[b.0 as usize])
    }
    pub(crate) fn is_isolated(&self, op: OpId) -> bool {
        self.isolated[op.0 as usize]
    }
    pub(crate) fn resource_number(&self, handle: Symbol) -> u64 {
        u64::from(self.resource_number[&handle])
    }

    /// Numbers the resources: those with data first (in the order met),
    /// then those declared only.
    pub(crate) fn number_resources(&mut self, has_data: impl Fn(Symbol) -> bool) {
        let mut next = 0u32;
        for pass in [true, false] {
            for &r in &self.resources {
                if has_data(r) == pass {
                    self.resource_number.insert(r, next);
                    next += 1;
                }
            }
        }
    }
}

/// The region a value is defined in.
fn value_region(ir: &Ir, v: ValueId) -> Option<RegionId> {
    match ir.value_def(v) {
        ValueDef::Result { op, .. } => ir.op_block(op).and_then(|b| ir.block_region(b)),
        ValueDef::Argument { block, .. } => ir.block_region(block),
        ValueDef::Placeholder => None,
    }
}

/// MLIR's `groupByDialectPerByte`: within the entries a varint of each
/// width can number, those of one dialect are kept together, the last
/// dialect of one width first in the next.
fn group_by_dialect_per_byte(order: &mut [u32], dialect: impl Fn(u32) -> u32) {
    if order.is_empty() {
        return;
    }
    let mut first = 0u32;
    let mut in_group: u64 = 0;
    let mut rest = &mut order[..];
    for i in 1..9u64 {
        in_group = (1u64 << (7 * i)) - in_group;
        let take = (in_group as usize).min(rest.len());
        let (group, tail) = rest.split_at_mut(take);
        group.sort_by(|&a, &b| {
            let (da, db) = (dialect(a), dialect(b));
            match (da == first, db == first) {
                (true, true) | (false, false) => da.cmp(&db),
                (true, false) => std::cmp::Ordering::Less,
                (false, true) => std::cmp::Ordering::Greater,
            }
        });
        first = dialect(*group.last().expect("not empty"));
        rest = tail;
        if rest.is_empty() {
            break;
        }
    }
}

/// The numbering's view of an encoding: it numbers what is referred to.
struct Visit<'n>(&'n mut Numbering);

impl Sink for Visit<'_> {
    fn attr(&mut self, ctx: &Context, a: AttrKey) {
        self.0.attr(ctx, a);
    }
    fn present_attr(&mut self, ctx: &Context, a: AttrKey) {
        self.0.attr(ctx, a);
    }
    fn ty(&mut self, ctx: &Context, t: Type) {
        self.0.ty(ctx, t);
    }
    fn varint(&mut self, _: u64) {}
    fn signed_varint(&mut self, _: i64) {}
    fn byte(&mut self, _: u8) {}
    fn string(&mut self, _: &[u8]) {}
    fn blob(&mut self, _: &[u8]) {}
    fn resource(&mut self, handle: Symbol) {
        if !self.0.resources.contains(&handle) {
            self.0.resources.push(handle);
        }
    }
}

/// The numbering's view of properties.
struct PropVisit<'n, 'c>(&'n mut Numbering, &'c Context);

impl PropSink for PropVisit<'_, '_> {
    fn attr(&mut self, a: Attr) {
        let k = key(self.1, a);
        self.0.attr(self.1, k);
    }
    fn optional_attr(&mut self, a: Option<Attr>) {
        if let Some(a) = a {
            self.attr(a);
        }
    }
    fn varint(&mut self, _: u64) {}
    fn byte(&mut self, _: u8) {}
}
