//! The IR section: the top-level block's ops, each with its name,
//! location, attributes, properties, results, operands, successors,
//! use-list orders and regions; regions of isolated ops are sections of
//! their own (from version 2), with value numbers of their own.

use super::use_lists::{UseListOrder, UseLists};
use super::Reader;
use crate::encoding::{op_mask, section, version, Cursor, DResult, DecodeError};
use crate::properties;
use silica_ir::{Attr, AttrKind, BlockId, Ir, OpId, OpSpec, RegionId, Type, ValueId};
use smallvec::SmallVec;

/// How deep regions may nest (as the text parser's limit).
const MAX_NESTING: u32 = 400;

/// The values of one isolated scope: defined or forward-referenced, by
/// number; `next` is the next number to define in each region being read.
#[derive(Default)]
struct Scope {
    values: Vec<Option<ValueId>>,
    next: Vec<usize>,
}

/// An isolated op whose regions are left to read (lazy loading): their
/// section, and how deep the op is.
#[derive(Clone)]
pub(super) struct Pending<'a> {
    pub(super) op: OpId,
    pub(super) body: Cursor<'a>,
    depth: u32,
    /// The op's location, when left to read with its regions: where its
    /// index is, and the index.
    loc: Option<(usize, u64)>,
}

/// State while reading the IR section.
pub(super) struct IrState<'a> {
    pub(super) ir: Ir,
    /// Whether regions of isolated ops in sections of their own are left
    /// for later ([`Pending`]).
    pub(super) lazy: bool,
    /// Whether the ops left pending get their locations only when read.
    pub(super) defer_locs: bool,
    pub(super) pending: std::collections::VecDeque<Pending<'a>>,
    scopes: Vec<Scope>,
    /// Placeholders standing for values referenced before their
    /// definition, not yet defined.
    forward_refs: usize,
    /// Whether any value was referenced before its definition (its uses
    /// then are not in the order building the IR gives).
    had_forward_refs: bool,
    use_lists: UseLists,
    depth: u32,
    placeholder_type: Type,
}

impl<'a> Reader<'a, '_> {
    /// Reads the IR section: the top-level op (a `builtin.module`, or the
    /// ops wrapped in one). With `lazy`, the regions of isolated ops in
    /// sections of their own are left pending.
    pub(super) fn read_ir(
        &mut self,
        mut c: Cursor<'a>,
        lazy: bool,
        defer_locs: bool,
    ) -> DResult<(IrState<'a>, OpId)> {
        let mut st = self.ir_state(lazy);
        st.defer_locs = defer_locs;
        st.ir.reserve(c.remaining() / 8);
        let block = st.ir.create_block();
        let (num_ops, has_args) = c.varint_flag()?;
        if has_args {
            return Err(c.error("the top-level block has arguments"));
        }
        // The top-level ops define no values others may use.
        st.scopes[0].next.push(0);
        for _ in 0..num_ops {
            self.read_op(&mut c, &mut st, block, false, &[])?;
        }
        if !c.is_empty() {
            return Err(c.error("unexpected trailing data in the IR section"));
        }
        if st.forward_refs != 0 {
            return Err(c.error("not all forward unresolved forward operand references"));
        }
        // Building the IR op by op leaves uses in the reference order,
        // but for forward references: only those and recorded orders
        // need sorting.
        if st.had_forward_refs || !st.use_lists.is_empty() {
            st.use_lists.apply(&mut st.ir, &[block]).map_err(|()| {
                c.error("parsed use-list orders were invalid and could not be applied")
            })?;
        }
        let top = self.top_module(&mut st.ir, block);
        Ok((st, top))
    }

    /// A fresh state: an empty graph, the top scope open.
    pub(super) fn ir_state(&mut self, lazy: bool) -> IrState<'a> {
        IrState {
            ir: Ir::new(),
            lazy,
            defer_locs: false,
            pending: Default::default(),
            scopes: vec![Scope::default()],
            forward_refs: 0,
            had_forward_refs: false,
            use_lists: UseLists::default(),
            depth: 0,
            placeholder_type: self.ctx.none_type(),
        }
    }

    /// Reads the regions of the pending op at `index` of `st.pending`
    /// (their own isolated ops pending in turn), then applies the
    /// use-list orders of the values they define.
    pub(super) fn materialize(&mut self, st: &mut IrState<'a>, index: usize) -> DResult<()> {
        let Some(p) = st.pending.remove(index) else {
            return Ok(());
        };
        let op = p.op;
        let regions: SmallVec<[RegionId; 2]> = st.ir.regions(op).collect();
        if let Some(loc) = self.read_pending(st, p, &regions)? {
            st.ir.set_op_loc(op, loc);
        }
        Ok(())
    }

    /// Reads the section of `p` into `regions` (its op's, or stand-ins
    /// for them), then applies the use-list orders of the values they
    /// define. Returns the op's location if it was left to read.
    pub(super) fn read_pending(
        &mut self,
        st: &mut IrState<'a>,
        p: Pending<'a>,
        regions: &[RegionId],
    ) -> DResult<Option<Attr>> {
        let Pending {
            mut body,
            depth,
            loc,
            ..
        } = p;
        let loc = match loc {
            Some((at, i)) => Some(self.loc_at(at, i)?),
            None => None,
        };
        st.depth = depth;
        st.had_forward_refs = false;
        st.scopes.push(Scope::default());
        let r = self.read_regions(&mut body, st, regions);
        st.scopes.pop();
        r?;
        if !body.is_empty() {
            return Err(body.error("unexpected trailing data in a region section"));
        }
        if st.forward_refs != 0 {
            return Err(body.error("not all forward unresolved forward operand references"));
        }
        if st.had_forward_refs || !st.use_lists.is_empty() {
            let blocks: Vec<BlockId> = regions
                .iter()
                .flat_map(|&r| st.ir.region_blocks(r))
                .collect();
            st.use_lists.apply(&mut st.ir, &blocks).map_err(|()| {
                body.error("parsed use-list orders were invalid and could not be applied")
            })?;
        }
        Ok(loc)
    }

    /// The top-level `builtin.module`: the only op of `block` if it is one,
    /// else a new one (at `file:0:0`) holding the ops.
    fn top_module(&mut self, ir: &mut Ir, block: BlockId) -> OpId {
        let module = self.ctx.sym("builtin.module");
        let ops: Vec<OpId> = ir.block_ops(block).collect();
        if ops.len() == 1 && ir.op_name(ops[0]) == module {
            ir.detach_op(ops[0]);
            return ops[0];
        }
        let loc = self.ctx.file_loc(self.file, 0, 0);
        let region = ir.create_region();
        let attrs = self.ctx.empty_dict();
        let top = ir.create_op(OpSpec {
            name: module,
            loc,
            operands: &[],
            result_types: &[],
            successors: &[],
            regions: &[region],
            attrs,
            props: None,
        });
        ir.append_block(region, block);
        top
    }

    /// The location of index `i` (read at `at`).
    fn loc_at(&mut self, at: usize, i: u64) -> DResult<Attr> {
        let a = self.attr_at(at, i)?;
        if matches!(self.ctx.attr_kind(a), AttrKind::Location(_)) {
            Ok(a)
        } else {
            Err(DecodeError::new(at, "expected a location"))
        }
    }

    fn attr_of_kind(
        &mut self,
        c: &mut Cursor<'a>,
        ok: fn(&AttrKind) -> bool,
        what: &str,
    ) -> DResult<Attr> {
        let at = c.offset();
        let i = c.varint()?;
        let a = self.attr_at(at, i)?;
        if ok(self.ctx.attr_kind(a)) {
            Ok(a)
        } else {
            Err(DecodeError::new(at, format!("expected {what}")))
        }
    }

    fn type_ref(&mut self, c: &mut Cursor<'a>) -> DResult<Type> {
        let at = c.offset();
        let i = c.varint()?;
        self.type_at(at, i)
    }

    /// The value whose number comes next, a placeholder when it is not
    /// defined yet.
    fn operand(&mut self, c: &mut Cursor<'a>, st: &mut IrState<'a>) -> DResult<ValueId> {
        let at = c.offset();
        let i = c.varint()? as usize;
        let scope = st.scopes.last_mut().expect("a scope is open");
        match scope.values.get(i) {
            Some(Some(v)) => Ok(*v),
            Some(None) => {
                let v = st.ir.create_placeholder(st.placeholder_type);
                scope.values[i] = Some(v);
                st.forward_refs += 1;
                st.had_forward_refs = true;
                Ok(v)
            }
            None => Err(DecodeError::new(at, format!("invalid value index: {i}"))),
        }
    }

    /// Gives the next numbers of the current region to `values`.
    fn define(&self, at: usize, st: &mut IrState<'a>, values: &[ValueId]) -> DResult<()> {
        let IrState {
            ir,
            scopes,
            forward_refs,
            ..
        } = st;
        let scope = scopes.last_mut().expect("a scope is open");
        let next = scope.next.last_mut().expect("a region is open");
        let end = *next + values.len();
        if end > scope.values.len() {
            return Err(DecodeError::new(at, format!(
                    "value index range was outside of the expected range for the parent region, got [{next}, {end}), but the maximum index was {}",
                    scope.values.len() as i64 - 1
                )));
        }
        for (slot, &v) in scope.values[*next..end].iter_mut().zip(values) {
            if let Some(placeholder) = slot.replace(v) {
                if !is_placeholder(ir, placeholder) {
                    return Err(DecodeError::new(at, "value index was already defined"));
                }
                ir.replace_all_uses(placeholder, v);
                *forward_refs -= 1;
            }
        }
        *next = end;
        Ok(())
    }

    /// Reads one op into `block`, then its regions. `defines` says whether
    /// its results get numbers (they do inside regions that define
    /// values); `blocks` are the successors it may name.
    fn read_op(
        &mut self,
        c: &mut Cursor<'a>,
        st: &mut IrState<'a>,
        block: BlockId,
        defines: bool,
        blocks: &[BlockId],
    ) -> DResult<()> {
        let at = c.offset();
        let (name, was_registered) = self.op_name(c)?;
        let mask = c.byte()?;
        let loc_at = c.offset();
        let loc_index = c.varint()?;
        // An op whose regions are left pending gets its location when
        // they are read: locations then come in the file's order.
        let defer_loc = st.lazy && st.defer_locs && mask & op_mask::HAS_INLINE_REGIONS != 0;
        let mut loc = None;
        if !defer_loc {
            loc = Some(self.loc_at(loc_at, loc_index)?);
        }
        let mut attrs = self.ctx.empty_dict();
        if mask & op_mask::HAS_ATTRS != 0 {
            attrs = self.attr_of_kind(
                c,
                |k| matches!(k, AttrKind::Dictionary(_)),
                "a dictionary attribute",
            )?;
        }
        let mut props = None;
        if mask & op_mask::HAS_PROPERTIES != 0 {
            let Some(was_registered) = was_registered else {
                return Err(c.error(format!(
                    "Unexpected missing `wasRegistered` opname flag at bytecode version {} with properties.",
                    self.version
                )));
            };
            props = self.read_properties(c, name, was_registered)?;
        }
        let mut result_types: SmallVec<[Type; 4]> = SmallVec::new();
        if mask & op_mask::HAS_RESULTS != 0 {
            let n = c.count(1, "result")?;
            result_types.reserve(n);
            for _ in 0..n {
                result_types.push(self.type_ref(c)?);
            }
        }
        let mut operands: SmallVec<[ValueId; 4]> = SmallVec::new();
        if mask & op_mask::HAS_OPERANDS != 0 {
            let n = c.count(1, "operand")?;
            operands.reserve(n);
            for _ in 0..n {
                operands.push(self.operand(c, st)?);
            }
        }
        let mut successors: SmallVec<[BlockId; 2]> = SmallVec::new();
        if mask & op_mask::HAS_SUCCESSORS != 0 {
            let n = c.count(1, "successor")?;
            for _ in 0..n {
                let at = c.offset();
                let i = c.varint()? as usize;
                successors.push(*blocks.get(i).ok_or_else(|| {
                    DecodeError::new(at, format!("invalid successor index: {i}"))
                })?);
            }
        }
        let mut orders = Vec::new();
        if self.version >= version::USE_LIST_ORDERING && mask & op_mask::HAS_USE_LIST_ORDERS != 0 {
            orders = UseListOrder::read_range(c, result_types.len())?;
        }
        let mut regions: SmallVec<[RegionId; 2]> = SmallVec::new();
        let mut isolated = false;
        if mask & op_mask::HAS_INLINE_REGIONS != 0 {
            let (n, iso) = c.varint_flag()?;
            isolated = iso;
            if n > c.remaining() as u64 {
                return Err(c.error("more regions than data left"));
            }
            regions.extend((0..n).map(|_| st.ir.create_region()));
        }
        let pending = isolated && st.lazy && self.version >= version::LAZY_LOADING;
        let mut deferred_loc = None;
        let loc = match loc {
            Some(loc) => loc,
            None if pending => {
                deferred_loc = Some((loc_at, loc_index));
                self.ctx.unknown_loc()
            }
            None => self.loc_at(loc_at, loc_index)?,
        };
        let op = st.ir.create_op(OpSpec {
            name,
            loc,
            operands: &operands,
            result_types: &result_types,
            successors: &successors,
            regions: &regions,
            attrs,
            props,
        });
        st.ir.append_op(block, op);
        if !self.ctx.dict_entries(attrs).is_empty() || was_registered != Some(true) {
            silica_ir::dialect::normalize_inherent(self.ctx, &mut st.ir, op);
        }
        let results: SmallVec<[ValueId; 4]> = st.ir.results(op).collect();
        if defines && !results.is_empty() {
            self.define(at, st, &results)?;
        }
        for (i, order) in orders {
            let v = *results
                .get(i)
                .ok_or_else(|| c.error("use-list order of a result the op lacks"))?;
            st.use_lists.add(v, order);
        }
        if regions.is_empty() {
            return Ok(());
        }
        if st.depth >= MAX_NESTING {
            return Err(c.error("regions nest too deeply"));
        }
        st.depth += 1;
        let result = if isolated && self.version >= version::LAZY_LOADING {
            let (id, mut body) = c.section()?;
            if id != section::IR {
                return Err(c.error("expected IR section for region"));
            }
            if st.lazy {
                st.pending.push_back(Pending {
                    op,
                    body,
                    depth: st.depth,
                    loc: deferred_loc,
                });
                st.depth -= 1;
                return Ok(());
            }
            st.scopes.push(Scope::default());
            let r = self.read_regions(&mut body, st, &regions).and_then(|()| {
                if body.is_empty() {
                    Ok(())
                } else {
                    Err(body.error("unexpected trailing data in a region section"))
                }
            });
            st.scopes.pop();
            r
        } else if isolated {
            st.scopes.push(Scope::default());
            let r = self.read_regions(c, st, &regions);
            st.scopes.pop();
            r
        } else {
            self.read_regions(c, st, &regions)
        };
        st.depth -= 1;
        result
    }

    fn read_regions(
        &mut self,
        c: &mut Cursor<'a>,
        st: &mut IrState<'a>,
        regions: &[RegionId],
    ) -> DResult<()> {
        for &r in regions {
            self.read_region(c, st, r)?;
        }
        Ok(())
    }

    /// A region: its block count, the number of values it defines, and
    /// its blocks.
    fn read_region(
        &mut self,
        c: &mut Cursor<'a>,
        st: &mut IrState<'a>,
        region: RegionId,
    ) -> DResult<()> {
        let num_blocks = c.varint()?;
        if num_blocks == 0 {
            return Ok(());
        }
        if num_blocks > c.remaining() as u64 {
            return Err(c.error("more blocks than data left"));
        }
        let num_values = c.varint()?;
        if num_values > c.remaining() as u64 {
            return Err(c.error("more values than data left"));
        }
        let blocks: Vec<BlockId> = (0..num_blocks)
            .map(|_| {
                let b = st.ir.create_block();
                st.ir.append_block(region, b);
                b
            })
            .collect();
        let scope = st.scopes.last_mut().expect("a scope is open");
        let start = scope.values.len();
        scope.next.push(start);
        scope.values.resize(start + num_values as usize, None);
        let result = (|| {
            for &b in &blocks {
                let (num_ops, has_args) = c.varint_flag()?;
                if has_args {
                    self.read_block_args(c, st, b)?;
                }
                if num_ops > c.remaining() as u64 {
                    return Err(c.error("more operations than data left"));
                }
                for _ in 0..num_ops {
                    self.read_op(c, st, b, num_values > 0, &blocks)?;
                }
            }
            Ok(())
        })();
        let scope = st.scopes.last_mut().expect("a scope is open");
        scope.next.pop();
        if result.is_ok()
            && scope.values[start..]
                .iter()
                .flatten()
                .any(|&v| is_placeholder(&st.ir, v))
        {
            return Err(c.error("not all forward unresolved forward operand references"));
        }
        scope.values.truncate(start);
        result
    }

    /// A block's arguments (type and location each), with their use-list
    /// orders from version 3 on.
    fn read_block_args(
        &mut self,
        c: &mut Cursor<'a>,
        st: &mut IrState<'a>,
        block: BlockId,
    ) -> DResult<()> {
        let at = c.offset();
        let n = c.count(1, "block argument")?;
        let mut args = Vec::with_capacity(n);
        for _ in 0..n {
            let (ty, loc) = if self.version >= version::ELIDE_UNKNOWN_BLOCK_ARG_LOCATION {
                let at = c.offset();
                let (t, has_loc) = c.varint_flag()?;
                let ty = self.type_at(at, t)?;
                let loc = if has_loc {
                    Some(self.attr_of_kind(
                        c,
                        |k| matches!(k, AttrKind::Location(_)),
                        "a location",
                    )?)
                } else {
                    None
                };
                (ty, loc)
            } else {
                let ty = self.type_ref(c)?;
                let loc =
                    self.attr_of_kind(c, |k| matches!(k, AttrKind::Location(_)), "a location")?;
                (ty, Some(loc))
            };
            // Every argument has a location: an elided one is unknown.
            let loc = loc.unwrap_or(self.ctx.unknown_loc());
            args.push(st.ir.add_block_arg(block, ty, Some(loc)));
        }
        self.define(at, st, &args)?;
        if self.version >= version::USE_LIST_ORDERING && c.byte()? != 0 {
            let orders = UseListOrder::read_range(c, n)?;
            if orders.is_empty() {
                return Err(c.error("expected use-list orders"));
            }
            for (i, order) in orders {
                let v = *args
                    .get(i)
                    .ok_or_else(|| c.error("use-list order of an argument the block lacks"))?;
                st.use_lists.add(v, order);
            }
        }
        Ok(())
    }

    /// An op's properties, through the properties section: decoded by the
    /// op's layout when the writer had it registered, else an attribute.
    fn read_properties(
        &mut self,
        c: &mut Cursor<'a>,
        name: silica_ir::Symbol,
        was_registered: bool,
    ) -> DResult<Option<Attr>> {
        let at = c.offset();
        let i = c.varint()?;
        let mut entry = *self.properties.get(i as usize).ok_or_else(|| {
            DecodeError::new(
                at,
                format!("Properties idx out-of-bound for {}", self.ctx.str(name)),
            )
        })?;
        if !was_registered {
            let at = entry.offset();
            let i = entry.varint()?;
            return self.attr_at(at, i).map(Some);
        }
        let Some(slots) = self.layouts.get(self.ctx, name) else {
            return Err(entry.error(format!(
                "op '{}' was written with properties that silica cannot read: it has no properties here",
                self.ctx.str(name)
            )));
        };
        let version = self.version;
        let entries = properties::read(self, &slots, &mut entry, version)?;
        if !entry.is_empty() {
            return Err(entry.error(format!(
                "unexpected trailing bytes in the properties of '{}'",
                self.ctx.str(name)
            )));
        }
        // No properties set: none, as MLIR's ops give no attribute then.
        if entries.is_empty() {
            return Ok(None);
        }
        Ok(Some(self.ctx.dict_attr(entries)))
    }
}

impl<'a> properties::PropSource<'a> for Reader<'a, '_> {
    fn ctx(&mut self) -> &mut silica_ir::Context {
        self.ctx
    }

    fn attr_at(&mut self, at: usize, i: u64) -> DResult<Attr> {
        Reader::attr_at(self, at, i)
    }
}

/// Whether `v` stands for a value not defined yet.
fn is_placeholder(ir: &Ir, v: ValueId) -> bool {
    ir.value_def(v) == silica_ir::ValueDef::Placeholder
}
