//! `affine-data-copy-generate`: moves the data affine loop nests access
//! into buffers of a fast memory space (MLIR's `affineDataCopyGenerate`).
//!
//! Each block of a function is cut into ranges (straight-line runs of
//! loads/stores, and single `affine.for` loops); a loop whose memory
//! footprint exceeds `fast-mem-capacity` KiB (or, with
//! `skip-non-unit-stride-loops`, whose step is not one) is entered and its
//! body handled the same way. For a range, the [`MemRefRegion`] of every
//! affine load/store on a memref of `slow-mem-space` is computed at the
//! range's loop depth (regions of one memref united into their bounding
//! box); each memref gets a buffer of the box's constant shape in
//! `fast-mem-space`, filled before the range (for reads) and written back
//! after it (for writes), hoisted out of every enclosing loop the region
//! does not depend on, either by point-wise copy loop nests or by
//! `affine.dma_start`/`affine.dma_wait` pairs with a tag memref in
//! `tag-mem-space` (`generate-dma`, with one level of stride). The
//! accesses in the range are rewritten into the buffer, indices shifted by
//! the box's lower bounds. A range whose buffers together exceed the
//! capacity gets MLIR's warning at the enclosing op. Finally copy loops of
//! one iteration are promoted and the copies' maps simplified.

use crate::canonicalize::{canonicalize_map, compose_map};
use crate::for_op::{self, Bound};
use crate::region::{affine_access, has_identity_layout, MemRefRegion};
use silica_ir::affine::{AffineExpr, AffineMap};
use silica_ir::affine_flatten::simplify_map;
use silica_ir::diag::Severity;
use silica_ir::dialect::set_inherent_attr;
use silica_ir::pass::{OptionKind, Pass, PassInfo, PassOptionInfo, PassOptions};
use silica_ir::{
    Attr, AttrKind, BlockId, Context, Diagnostic, Ir, OpId, OpSpec, Type, TypeKind, ValueId,
};

/// The options of one run.
#[derive(Clone, Debug)]
pub struct CopyOptions {
    pub generate_dma: bool,
    pub slow_space: u64,
    pub fast_space: u64,
    pub tag_space: u64,
    /// In bytes; `u64::MAX`: unlimited.
    pub capacity_bytes: u64,
    pub skip_non_unit_stride_loops: bool,
}

fn name_is(ctx: &Context, ir: &Ir, op: OpId, name: &str) -> bool {
    ctx.str(ir.op_name(op)) == name
}

fn is_access(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    name_is(ctx, ir, op, "affine.load") || name_is(ctx, ir, op, "affine.store")
}

/// Whether region `inner` is `outer` or nested in it.
fn region_within(ir: &Ir, inner: silica_ir::RegionId, outer: silica_ir::RegionId) -> bool {
    let mut r = inner;
    loop {
        if r == outer {
            return true;
        }
        match ir
            .region_op(r)
            .and_then(|o| ir.op_block(o))
            .and_then(|b| ir.block_region(b))
        {
            Some(p) => r = p,
            None => return false,
        }
    }
}

/// The region holding the definition of `v`.
fn value_region(ir: &Ir, v: ValueId) -> Option<silica_ir::RegionId> {
    ir.value_block(v).and_then(|b| ir.block_region(b))
}

fn identity_map(n: usize) -> AffineMap {
    AffineMap {
        num_dims: n as u32,
        num_symbols: 0,
        results: (0..n as u32).map(AffineExpr::Dim).collect(),
    }
}

/// Whether `map` is the identity over its dimensions.
fn is_identity(map: &AffineMap) -> bool {
    *map == identity_map(map.num_dims as usize)
}

/// MLIR's `fullyComposeAffineMapAndOperands`: only when some operand is
/// an `affine.apply` result.
fn fully_compose(
    ctx: &mut Context,
    ir: &mut Ir,
    map: &AffineMap,
    operands: &[ValueId],
) -> (AffineMap, Vec<ValueId>) {
    let has_apply = operands.iter().any(|&v| {
        ir.defining_op(v)
            .is_some_and(|d| name_is(ctx, ir, d, "affine.apply"))
    });
    if has_apply {
        compose_map(ctx, ir, map, operands)
    } else {
        (map.clone(), operands.to_vec())
    }
}

/// Drops repeated results of a map.
fn dedup_results(map: AffineMap) -> AffineMap {
    let mut results: Vec<AffineExpr> = Vec::new();
    for r in map.results.iter() {
        if !results.contains(r) {
            results.push(r.clone());
        }
    }
    AffineMap {
        results: results.into(),
        ..map
    }
}

/// The result of copying one region.
struct Copied {
    bytes: u64,
    end: OpId,
}

/// State for one function.
pub(crate) struct Gen<'a> {
    ctx: &'a mut Context,
    ir: &'a mut Ir,
    func: OpId,
    opts: &'a CopyOptions,
    copy_nests: Vec<OpId>,
    /// Only this memref is copied (MLIR's `filterMemRef`).
    filter: Option<ValueId>,
}

impl<'a> Gen<'a> {
    pub(crate) fn new(
        ctx: &'a mut Context,
        ir: &'a mut Ir,
        func: OpId,
        opts: &'a CopyOptions,
        filter: Option<ValueId>,
    ) -> Self {
        Gen {
            ctx,
            ir,
            func,
            opts,
            copy_nests: Vec::new(),
            filter,
        }
    }

    fn entry(&self) -> Option<BlockId> {
        let r = self.ir.regions(self.func).next()?;
        self.ir.entry_block(r)
    }

    fn insert_before(&mut self, at: OpId, op: OpId) {
        self.ir.insert_op_before(at, op);
    }

    fn create(
        &mut self,
        name: &str,
        operands: &[ValueId],
        results: &[Type],
        props: Option<Attr>,
        attrs: Option<Attr>,
        loc: Attr,
    ) -> OpId {
        let name = self.ctx.sym(name);
        let attrs = attrs.unwrap_or_else(|| self.ctx.empty_dict());
        self.ir.create_op(OpSpec {
            name,
            loc,
            operands,
            result_types: results,
            successors: &[],
            regions: &[],
            attrs,
            props,
        })
    }

    fn map_props(&mut self, map: AffineMap) -> Attr {
        let a = self.ctx.intern_attr(AttrKind::AffineMap(map));
        let key = self.ctx.sym("map");
        self.ctx.dict_attr(vec![(key, a)])
    }

    /// `arith.constant v : index` at the start of the function body, or
    /// right before `before`.
    fn constant_before(&mut self, v: i64, loc: Attr, before: ValueId) -> Option<ValueId> {
        let at = self.ir.defining_op(before)?;
        let index = self.ctx.index_type();
        let value = self.ctx.int_attr(index, v);
        let key = self.ctx.sym("value");
        let props = self.ctx.dict_attr(vec![(key, value)]);
        let op = self.create("arith.constant", &[], &[index], Some(props), None, loc);
        self.insert_before(at, op);
        Some(self.ir.result(op, 0))
    }

    /// `arith.constant v : index` at the start of the function body.
    fn top_constant(&mut self, v: i64, loc: Attr) -> Option<ValueId> {
        let entry = self.entry()?;
        let index = self.ctx.index_type();
        let value = self.ctx.int_attr(index, v);
        let key = self.ctx.sym("value");
        let props = self.ctx.dict_attr(vec![(key, value)]);
        let op = self.create("arith.constant", &[], &[index], Some(props), None, loc);
        match self.ir.first_op(entry) {
            Some(first) => self.insert_before(first, op),
            None => self.ir.append_op(entry, op),
        }
        Some(self.ir.result(op, 0))
    }

    /// `affine.apply map(operands)` before `at`.
    fn apply(&mut self, map: AffineMap, operands: &[ValueId], at: OpId, loc: Attr) -> ValueId {
        let index = self.ctx.index_type();
        let props = self.map_props(map);
        let op = self.create("affine.apply", operands, &[index], Some(props), None, loc);
        self.insert_before(at, op);
        self.ir.result(op, 0)
    }

    fn alloc(&mut self, ty: Type, at: OpId, loc: Attr) -> ValueId {
        let seg = self.ctx.int_array_attr(32, &[0, 0]);
        let key = self.ctx.sym("operandSegmentSizes");
        let props = self.ctx.dict_attr(vec![(key, seg)]);
        let op = self.create("memref.alloc", &[], &[ty], Some(props), None, loc);
        self.insert_before(at, op);
        self.ir.result(op, 0)
    }

    fn dealloc(&mut self, v: ValueId, at: OpId, loc: Attr) -> OpId {
        let op = self.create("memref.dealloc", &[v], &[], None, None, loc);
        self.insert_before(at, op);
        op
    }

    fn memref_type(&mut self, shape: &[i64], element: Type, space: u64) -> Type {
        let memory_space = (space != 0).then(|| {
            let i64t = self.ctx.signless(64);
            self.ctx.int_attr(i64t, space as i64)
        });
        self.ctx.intern_type(TypeKind::MemRef {
            shape: shape.into(),
            element,
            layout: None,
            memory_space,
        })
    }

    fn erase_if_dead(&mut self, v: ValueId) {
        if !self.ir.has_uses(v) {
            if let Some(d) = self.ir.defining_op(v) {
                self.ir.erase_op(d);
            }
        }
    }

    /// The copies of the function body and of every loop nest in it.
    fn run(&mut self) {
        let Some(region) = self.ir.regions(self.func).next() else {
            return;
        };
        let blocks: Vec<BlockId> = self.ir.region_blocks(region).collect();
        for b in blocks {
            self.run_on_block(b);
        }
    }

    fn starts_range(&self, op: OpId) -> bool {
        (is_access(self.ctx, self.ir, op) || for_op::is_for(self.ctx, self.ir, op))
            && !self.copy_nests.contains(&op)
    }

    fn next_start(&self, mut cur: Option<OpId>) -> Option<OpId> {
        while let Some(op) = cur {
            if self.starts_range(op) {
                return Some(op);
            }
            cur = self.ir.next_op(op);
        }
        None
    }

    fn exceeds_capacity(&self, op: OpId) -> bool {
        crate::footprint::footprint_bytes(self.ctx, self.ir, op)
            .is_some_and(|b| b > self.opts.capacity_bytes)
    }

    fn run_on_block(&mut self, block: BlockId) {
        let Some(first) = self.ir.first_op(block) else {
            return;
        };
        let mut begin = self.next_start(Some(first));
        let mut it = begin;
        while let Some(op) = it {
            if for_op::is_for(self.ctx, self.ir, op) && !self.copy_nests.contains(&op) {
                if let Some(b) = begin {
                    self.copy_range(b, op);
                }
                let recurse = if self.opts.skip_non_unit_stride_loops {
                    for_op::step(self.ctx, self.ir, op) != 1
                } else {
                    self.exceeds_capacity(op)
                };
                if recurse {
                    if let Some(body) = for_op::body(self.ir, op) {
                        self.run_on_block(body);
                    }
                } else if let Some(next) = self.ir.next_op(op) {
                    self.copy_range(op, next);
                }
                begin = self.next_start(self.ir.next_op(op));
                it = begin;
            } else {
                it = self.ir.next_op(op);
            }
        }
        if let (Some(b), Some(last)) = (begin, self.ir.last_op(block)) {
            self.copy_range(b, last);
        }
    }

    /// The loop nesting depth of `op` (enclosing `affine.for` and
    /// `affine.parallel` ops).
    fn depth(&self, op: OpId) -> usize {
        crate::region::enclosing_ivs(self.ctx, self.ir, op, false).len()
    }

    /// The ops of `[begin, end)` and everything nested in them.
    fn range_ops(&self, begin: OpId, end: OpId) -> Vec<OpId> {
        let mut out = Vec::new();
        let mut cur = Some(begin);
        while let Some(op) = cur {
            if op == end {
                break;
            }
            self.ir.walk(op, &mut |o| out.push(o));
            cur = self.ir.next_op(op);
        }
        out
    }

    /// Copies for the range `[begin, end)` of one block (MLIR's
    /// `affineDataCopyGenerate`); `false` when some region failed.
    pub(crate) fn copy_range(&mut self, begin: OpId, mut end: OpId) -> bool {
        if begin == end {
            return true;
        }
        let Some(block) = self.ir.op_block(begin) else {
            return false;
        };
        let Some(block_region) = self.ir.block_region(block) else {
            return false;
        };
        let depth = self.depth(begin);
        let mut reads: Vec<MemRefRegion> = Vec::new();
        let mut writes: Vec<MemRefRegion> = Vec::new();
        for op in self.range_ops(begin, end) {
            let Some((memref, _, _, _)) = affine_access(self.ctx, self.ir, op) else {
                continue;
            };
            if self.filter.is_some_and(|f| f != memref) {
                continue;
            }
            if let TypeKind::MemRef {
                memory_space: Some(s),
                ..
            } = self.ctx.type_kind(self.ir.value_type(memref))
            {
                if let AttrKind::Integer { value, .. } = self.ctx.attr_kind(*s) {
                    if *value != num_bigint::BigInt::from(self.opts.slow_space) {
                        continue;
                    }
                }
            }
            if !value_region(self.ir, memref)
                .is_some_and(|r| region_within(self.ir, block_region, r))
            {
                continue;
            }
            let computed = MemRefRegion::compute(self.ctx, self.ir, op, depth)
                .or_else(|_| MemRefRegion::whole_memref(self.ctx, self.ir, op, depth));
            let Ok(mut region) = computed else {
                return false;
            };
            let mut exists = [false, false];
            for (k, list) in [&mut reads, &mut writes].into_iter().enumerate() {
                let Some(existing) = list.iter_mut().find(|r| r.memref == memref) else {
                    continue;
                };
                exists[k] = true;
                if existing.union_bounding_box(&region).is_err() {
                    let Ok(whole) = MemRefRegion::whole_memref(self.ctx, self.ir, op, depth) else {
                        return false;
                    };
                    region = whole;
                    existing.constraints = region.constraints.clone();
                    existing.symbols = region.symbols.clone();
                } else {
                    region.constraints = existing.constraints.clone();
                    region.symbols = existing.symbols.clone();
                }
            }
            if region.write && !exists[1] {
                writes.push(region);
            } else if !region.write && !exists[0] {
                reads.push(region);
            }
        }
        let mut total = 0u64;
        let mut ok = true;
        let mut buffers: Vec<(ValueId, ValueId)> = Vec::new();
        for region in reads.iter().chain(writes.iter()) {
            let (place_in, place_out) = self.placement(region, block, begin, end);
            match self.generate_copy(
                region,
                block,
                begin,
                end,
                (place_in, place_out),
                &mut buffers,
            ) {
                Some(c) => {
                    end = c.end;
                    total = total.saturating_add(c.bytes);
                }
                None => ok = false,
            }
            if self.ir.is_erased(begin) {
                return ok;
            }
        }
        if !ok {
            return false;
        }
        if total > self.opts.capacity_bytes {
            let parent = self.ir.region_op(block_region).unwrap_or(self.func);
            self.ctx.emit(Diagnostic {
                severity: Severity::Warning,
                loc: self.ir.op_loc(parent),
                message:
                    "total size of all copy buffers' for this block exceeds fast memory capacity"
                        .to_string(),
                notes: Vec::new(),
            });
        }
        true
    }

    /// Where the copies of `region` go: before/after the outermost loop
    /// around `block` that the region does not depend on (MLIR's
    /// `findHighestBlockForPlacement`), else at `begin`/`end`.
    fn placement(
        &self,
        region: &MemRefRegion,
        block: BlockId,
        begin: OpId,
        end: OpId,
    ) -> (OpId, OpId) {
        let Some(first) = self.ir.first_op(block) else {
            return (begin, end);
        };
        let mut enclosing = Vec::new();
        let mut cur = self.ir.parent_op(first);
        while let Some(p) = cur {
            if name_is(self.ctx, self.ir, p, "func.func") {
                break;
            }
            let n = self.ctx.str(self.ir.op_name(p));
            if matches!(n, "affine.for" | "affine.if" | "affine.parallel") {
                enclosing.push(p);
            }
            cur = self.ir.parent_op(p);
        }
        let memref_region = value_region(self.ir, region.memref);
        let mut last_invariant = None;
        for &op in &enclosing {
            let Some(mr) = memref_region else { break };
            if !self.ir.is_in_region(op, mr) {
                break;
            }
            if !for_op::is_for(self.ctx, self.ir, op) {
                break;
            }
            match for_op::induction_var(self.ir, op) {
                Some(iv) if !region.symbols.contains(&iv) => last_invariant = Some(op),
                _ => break,
            }
        }
        match last_invariant.and_then(|l| Some((l, self.ir.next_op(l)?))) {
            Some(placed) => placed,
            None => (begin, end),
        }
    }

    /// MLIR's `generateCopy` for one region; `None` when it cannot copy.
    fn generate_copy(
        &mut self,
        region: &MemRefRegion,
        block: BlockId,
        begin: OpId,
        end: OpId,
        (copy_in_at, copy_out_at): (OpId, OpId),
        buffers: &mut Vec<(ValueId, ValueId)>,
    ) -> Option<Copied> {
        let func_loc = self.ir.op_loc(self.func);
        let zero = self.top_constant(0, func_loc)?;
        let mut out = Copied { bytes: 0, end };
        let last_copied = self.ir.prev_op(end)?;
        let copy_out_at_end = end == copy_out_at;
        let prologue = copy_in_at;
        let epilogue = copy_out_at;
        let at = if region.write { epilogue } else { prologue };
        let loc = region.loc;
        let memref = region.memref;
        let memref_ty = self.ir.value_type(memref);
        if !has_identity_layout(self.ctx, memref_ty) {
            return None;
        }
        let TypeKind::MemRef {
            shape: memref_shape,
            element,
            ..
        } = self.ctx.type_kind(memref_ty).clone()
        else {
            return None;
        };
        let rank = memref_shape.len();
        if rank == 0 {
            return None;
        }
        let bbox = region.bounding_box(self.ctx, self.ir)?;
        if bbox.num_elements == 0 {
            return Some(out);
        }
        let mut lb_maps = Vec::with_capacity(rank);
        let mut ub_maps = Vec::with_capacity(rank);
        let nsym = region.symbols.len() as u32;
        for d in 0..rank {
            let (lbs, ubs) = region.dim_bounds(d)?;
            if lbs.is_empty() || ubs.is_empty() {
                return None;
            }
            lb_maps.push(AffineMap {
                num_dims: nsym,
                num_symbols: 0,
                results: lbs.into(),
            });
            ub_maps.push(AffineMap {
                num_dims: nsym,
                num_symbols: 0,
                results: ubs.into(),
            });
        }
        let symbols = region.symbols.clone();
        let mut mem_indices = Vec::with_capacity(rank);
        let mut offsets = Vec::with_capacity(rank);
        for lb in &bbox.lower_bounds {
            match lb {
                AffineExpr::Constant(0) => mem_indices.push(zero),
                AffineExpr::Constant(c) => mem_indices.push(self.constant_before(*c, loc, zero)?),
                e => {
                    let map = AffineMap {
                        num_dims: nsym,
                        num_symbols: 0,
                        results: Box::new([e.clone()]),
                    };
                    mem_indices.push(self.apply(map, &symbols, at, loc));
                }
            }
            offsets.push(lb.clone());
        }
        let buf_indices = vec![zero; rank];
        let existing = buffers.iter().find(|(m, _)| *m == memref).map(|&(_, f)| f);
        let fast = match existing {
            Some(f) => f,
            None => {
                let ty = self.memref_type(&bbox.shape, element, self.opts.fast_space);
                let f = self.alloc(ty, prologue, loc);
                buffers.push((memref, f));
                let bytes = crate::region::element_bytes(self.ctx, element)
                    .and_then(|b| b.checked_mul(u64::try_from(bbox.num_elements).ok()?));
                out.bytes = bytes.unwrap_or(0);
                f
            }
        };
        let num_elements = self.constant_before(bbox.num_elements, loc, zero)?;
        let mut stride = None;
        if self.opts.generate_dma {
            let strides = multi_level_strides(&memref_shape, &bbox.shape);
            if strides.len() > 1 {
                return None;
            }
            if let Some(&(s, per)) = strides.first() {
                let s = self.constant_before(s, loc, zero)?;
                let per = self.constant_before(per, loc, zero)?;
                stride = Some((s, per));
            }
        }
        if !self.opts.generate_dma {
            let nest = self.point_wise_copy(
                memref,
                fast,
                (&lb_maps, &ub_maps),
                &symbols,
                &offsets,
                region.write,
                at,
                loc,
            )?;
            self.copy_nests.push(nest);
            if region.write && copy_out_at_end {
                out.end = nest;
            }
        } else {
            let (mem_map, mem_ops) =
                fully_compose(self.ctx, self.ir, &identity_map(rank), &mem_indices);
            let (buf_map, buf_ops) =
                fully_compose(self.ctx, self.ir, &identity_map(rank), &buf_indices);
            let i32t = self.ctx.signless(32);
            let tag_ty = self.memref_type(&[1], i32t, self.opts.tag_space);
            let tag = self.alloc(tag_ty, prologue, loc);
            let (tag_map, tag_ops) = fully_compose(self.ctx, self.ir, &identity_map(1), &[zero]);
            let maps = [&mem_map, &buf_map, &tag_map].map(|m| m.clone());
            let (src, src_map, src_ops, dst, dst_map, dst_ops) = if region.write {
                (
                    fast,
                    maps[1].clone(),
                    &buf_ops,
                    memref,
                    maps[0].clone(),
                    &mem_ops,
                )
            } else {
                (
                    memref,
                    maps[0].clone(),
                    &mem_ops,
                    fast,
                    maps[1].clone(),
                    &buf_ops,
                )
            };
            let mut operands = vec![src];
            operands.extend(src_ops.iter());
            operands.push(dst);
            operands.extend(dst_ops.iter());
            operands.push(tag);
            operands.extend(tag_ops.iter());
            operands.push(num_elements);
            if let Some((s, per)) = stride {
                operands.extend([s, per]);
            }
            let attrs = {
                let entries = [
                    ("dst_map", dst_map),
                    ("src_map", src_map),
                    ("tag_map", tag_map.clone()),
                ];
                let v: Vec<_> = entries
                    .into_iter()
                    .map(|(k, m)| {
                        let a = self.ctx.intern_attr(AttrKind::AffineMap(m));
                        (self.ctx.sym(k), a)
                    })
                    .collect();
                self.ctx.dict_attr(v)
            };
            let start = self.create("affine.dma_start", &operands, &[], None, Some(attrs), loc);
            self.insert_before(at, start);
            if region.write && copy_out_at_end {
                out.end = start;
            }
            let wait_attrs = {
                let a = self.ctx.intern_attr(AttrKind::AffineMap(tag_map));
                let k = self.ctx.sym("tag_map");
                self.ctx.dict_attr(vec![(k, a)])
            };
            let wait = self.create(
                "affine.dma_wait",
                &[tag, zero, num_elements],
                &[],
                None,
                Some(wait_attrs),
                loc,
            );
            self.insert_before(at, wait);
            let tag_dealloc = self.dealloc(tag, epilogue, loc);
            if out.end == end && copy_out_at_end {
                out.end = tag_dealloc;
            }
        }
        if existing.is_none() {
            let d = self.dealloc(fast, epilogue, loc);
            if !self.opts.generate_dma && out.end == end && copy_out_at_end {
                out.end = d;
            }
        }
        self.replace_uses(
            memref,
            fast,
            &symbols,
            &offsets,
            block,
            (begin, last_copied),
        );
        Some(out)
    }

    /// The point-wise copy nest (MLIR's `generatePointWiseCopy`), inserted
    /// before `at`; returns its outermost loop.
    #[allow(clippy::too_many_arguments)]
    fn point_wise_copy(
        &mut self,
        memref: ValueId,
        fast: ValueId,
        (lb_maps, ub_maps): (&[AffineMap], &[AffineMap]),
        symbols: &[ValueId],
        offsets: &[AffineExpr],
        copy_out: bool,
        at: OpId,
        loc: Attr,
    ) -> Option<OpId> {
        let rank = lb_maps.len();
        let mut insert_at = at;
        let mut root = None;
        let mut mem_indices = Vec::new();
        let mut fast_exprs = Vec::new();
        let mut fast_ops = Vec::new();
        let mut offsets_made = Vec::new();
        for d in 0..rank {
            let bound = |g: &mut Gen<'_>, m: &AffineMap| {
                let (m, o) = fully_compose(g.ctx, g.ir, m, symbols);
                let (m, o) = canonicalize_map(g.ctx, g.ir, &m, &o);
                Bound {
                    map: dedup_results(m),
                    operands: o,
                }
            };
            let lb = bound(self, &lb_maps[d]);
            let ub = bound(self, &ub_maps[d]);
            let l = for_op::create_for(self.ctx, self.ir, loc, &lb, &ub, 1);
            self.insert_before(insert_at, l);
            root.get_or_insert(l);
            let body = for_op::body(self.ir, l)?;
            insert_at = self.ir.last_op(body)?;
            let offset_map = AffineMap {
                num_dims: symbols.len() as u32,
                num_symbols: 0,
                results: Box::new([offsets[d].clone()]),
            };
            let offset = self.apply(offset_map, symbols, insert_at, loc);
            let iv = for_op::induction_var(self.ir, l)?;
            fast_exprs.push(AffineExpr::Dim(2 * d as u32 + 1).minus(AffineExpr::Dim(2 * d as u32)));
            fast_ops.extend([offset, iv]);
            offsets_made.push(offset);
            mem_indices.push(iv);
        }
        let fast_map = AffineMap {
            num_dims: 2 * rank as u32,
            num_symbols: 0,
            results: fast_exprs.into(),
        };
        let (fast_map, fast_ops) = fully_compose(self.ctx, self.ir, &fast_map, &fast_ops);
        let fast_map = simplify_map(&fast_map);
        let (fast_map, fast_ops) = canonicalize_map(self.ctx, self.ir, &fast_map, &fast_ops);
        for v in offsets_made {
            self.erase_if_dead(v);
        }
        let element = match self.ctx.type_kind(self.ir.value_type(memref)) {
            TypeKind::MemRef { element, .. } => *element,
            _ => return None,
        };
        let (src, src_map, src_ops, dst, dst_map, dst_ops) = if copy_out {
            (
                fast,
                fast_map,
                fast_ops,
                memref,
                identity_map(rank),
                mem_indices,
            )
        } else {
            (
                memref,
                identity_map(rank),
                mem_indices,
                fast,
                fast_map,
                fast_ops,
            )
        };
        let props = self.map_props(src_map);
        let mut ops = vec![src];
        ops.extend(src_ops);
        let load = self.create("affine.load", &ops, &[element], Some(props), None, loc);
        self.insert_before(insert_at, load);
        let v = self.ir.result(load, 0);
        let props = self.map_props(dst_map);
        let mut ops = vec![v, dst];
        ops.extend(dst_ops);
        let store = self.create("affine.store", &ops, &[], Some(props), None, loc);
        self.insert_before(insert_at, store);
        root
    }

    /// Rewrites the affine loads/stores of `memref` in `[begin, last]` of
    /// `block` into `fast`, each index less its offset (MLIR's
    /// `replaceAllMemRefUsesWith` with the offsets as index remapping);
    /// nothing when another kind of op than a deallocation uses the memref
    /// there.
    fn replace_uses(
        &mut self,
        memref: ValueId,
        fast: ValueId,
        symbols: &[ValueId],
        offsets: &[AffineExpr],
        block: BlockId,
        (begin, last): (OpId, OpId),
    ) {
        let in_range = |ir: &Ir, user: OpId| -> bool {
            let mut a = user;
            while ir.op_block(a) != Some(block) {
                match ir.parent_op(a) {
                    Some(p) => a = p,
                    None => return false,
                }
            }
            let mut cur = Some(begin);
            while let Some(o) = cur {
                if o == a {
                    return true;
                }
                if o == last {
                    return false;
                }
                cur = ir.next_op(o);
            }
            false
        };
        let mut users: Vec<OpId> = Vec::new();
        for u in self.ir.uses(memref) {
            let owner = self.ir.use_owner(u);
            // Deallocations keep the old memref (MLIR skips them).
            if name_is(self.ctx, self.ir, owner, "memref.dealloc") {
                continue;
            }
            if in_range(self.ir, owner) && !users.contains(&owner) {
                users.push(owner);
            }
        }
        let memref_position = |ctx: &Context, ir: &Ir, op: OpId| -> Option<usize> {
            match ctx.str(ir.op_name(op)) {
                "affine.load" => Some(0),
                "affine.store" => Some(1),
                _ => None,
            }
        };
        if users.iter().any(|&u| {
            memref_position(self.ctx, self.ir, u).is_none_or(|p| self.ir.operand(u, p) != memref)
        }) {
            return;
        }
        let rank = offsets.len();
        let nsym = symbols.len();
        let remap = AffineMap {
            num_dims: (nsym + rank) as u32,
            num_symbols: 0,
            results: (0..rank)
                .map(|i| AffineExpr::Dim((nsym + i) as u32).minus(offsets[i].clone()))
                .collect(),
        };
        for op in users {
            let Some(pos) = memref_position(self.ctx, self.ir, op) else {
                continue;
            };
            let Some((_, old_map, old_ops, _)) = affine_access(self.ctx, self.ir, op) else {
                continue;
            };
            let loc = self.ir.op_loc(op);
            let mut temps = Vec::new();
            let old_mem_ops: Vec<ValueId> = if is_identity(&old_map) && old_map.num_symbols == 0 {
                old_ops.clone()
            } else {
                let mut v = Vec::new();
                for r in old_map.results.iter() {
                    let m = AffineMap {
                        results: Box::new([r.clone()]),
                        ..old_map.clone()
                    };
                    let a = self.apply(m, &old_ops, op, loc);
                    temps.push(a);
                    v.push(a);
                }
                v
            };
            let mut remap_ops = symbols.to_vec();
            remap_ops.extend(old_mem_ops);
            let new_ops: Vec<ValueId> = if is_identity(&remap) {
                remap_ops
            } else {
                let mut v = Vec::new();
                for r in remap.results.iter() {
                    let m = AffineMap {
                        results: Box::new([r.clone()]),
                        ..remap.clone()
                    };
                    let a = self.apply(m, &remap_ops, op, loc);
                    temps.push(a);
                    v.push(a);
                }
                v
            };
            let (map, ops) = fully_compose(self.ctx, self.ir, &identity_map(rank), &new_ops);
            let map = simplify_map(&map);
            let (map, ops) = canonicalize_map(self.ctx, self.ir, &map, &ops);
            let mut operands: Vec<ValueId> = self.ir.operands(op).take(pos).collect();
            operands.push(fast);
            operands.extend(ops);
            self.ir.set_operands(op, &operands);
            let attr = self.ctx.intern_attr(AttrKind::AffineMap(map));
            set_inherent_attr(self.ctx, self.ir, op, "map", attr);
            for t in temps {
                self.erase_if_dead(t);
            }
        }
    }

    /// Copies `region` in before `op` and, for a write, out after it
    /// (MLIR's `generateCopyForMemRegion`: no hoisting, no capacity
    /// check, the copy nests left as built); `false` when no buffer was
    /// made.
    pub(crate) fn copy_region_around(&mut self, region: &MemRefRegion, op: OpId) -> bool {
        let (Some(block), Some(end)) = (self.ir.op_block(op), self.ir.next_op(op)) else {
            return false;
        };
        let mut buffers = Vec::new();
        let nests = std::mem::take(&mut self.copy_nests);
        let made = self
            .generate_copy(region, block, op, end, (op, end), &mut buffers)
            .is_some();
        self.copy_nests = nests;
        made && !buffers.is_empty()
    }

    /// Promotes the single-iteration loops of the copy nests and
    /// simplifies the maps of their stores and, with `loads`, of their
    /// loads.
    pub(crate) fn finish(&mut self, loads: bool) {
        let nests = std::mem::take(&mut self.copy_nests);
        let mut accesses = Vec::new();
        for nest in nests {
            let mut order = Vec::new();
            post_order(self.ir, nest, &mut order);
            for op in order {
                if for_op::is_for(self.ctx, self.ir, op) {
                    crate::loops::promote_if_single_iteration(self.ctx, self.ir, op);
                } else if name_is(self.ctx, self.ir, op, "affine.store")
                    || (loads && name_is(self.ctx, self.ir, op, "affine.load"))
                {
                    accesses.push(op);
                }
            }
        }
        for op in accesses {
            if self.ir.is_erased(op) {
                continue;
            }
            let Some((_, map, ops, write)) = affine_access(self.ctx, self.ir, op) else {
                continue;
            };
            let (m, o) = compose_map(self.ctx, self.ir, &map, &ops);
            let m = crate::bounds::simplify_map_with_operands(self.ctx, self.ir, &m, &o);
            if m == map && o == ops {
                continue;
            }
            let keep = if write { 2 } else { 1 };
            let mut operands: Vec<ValueId> = self.ir.operands(op).take(keep).collect();
            operands.extend(o);
            self.ir.set_operands(op, &operands);
            let attr = self.ctx.intern_attr(AttrKind::AffineMap(m));
            set_inherent_attr(self.ctx, self.ir, op, "map", attr);
        }
    }
}

fn post_order(ir: &Ir, op: OpId, out: &mut Vec<OpId>) {
    let regions: Vec<_> = ir.regions(op).collect();
    for r in regions {
        for b in ir.region_blocks(r) {
            for o in ir.block_ops(b) {
                post_order(ir, o, out);
            }
        }
    }
    out.push(op);
}

/// The strides of a DMA of a `buffer`-shaped box out of a `memref`-shaped
/// array, outermost first: `(stride, elements per stride)` for each
/// dimension narrower than the array under a dimension wider than one.
fn multi_level_strides(memref: &[i64], buffer: &[i64]) -> Vec<(i64, i64)> {
    let mut out = Vec::new();
    if buffer.len() <= 1 {
        return out;
    }
    let (mut per, mut stride) = (1i64, 1i64);
    for d in (1..buffer.len()).rev() {
        stride = stride.saturating_mul(memref[d]);
        per = per.saturating_mul(buffer[d]);
        if buffer[d] < memref[d] && buffer[d - 1] > 1 {
            out.push((stride, per));
        }
    }
    out
}

/// The pass.
pub struct AffineDataCopyGenerate {
    opts: CopyOptions,
}

impl Pass for AffineDataCopyGenerate {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, func: OpId) -> Result<(), Box<Diagnostic>> {
        let mut g = Gen::new(ctx, ir, func, &self.opts, None);
        let loc = g.ir.op_loc(func);
        if g.top_constant(0, loc).is_none() {
            return Ok(());
        }
        g.run();
        g.finish(true);
        Ok(())
    }
}

/// An unsigned option value; `kind` is LLVM's name of its type in the
/// error (`uint`, `ulong`).
fn parse_u64(option: &str, text: &str, kind: &str) -> Result<u64, String> {
    text.trim().parse::<u64>().map_err(|_| {
        format!(
            "for the --{option} option: '{}' value invalid for {kind} argument!",
            text.trim()
        )
    })
}

fn create(options: &PassOptions) -> Result<Box<dyn Pass>, String> {
    let space = |name: &str, default: u64| -> Result<u64, String> {
        match options.string(name) {
            "" => Ok(default),
            s => parse_u64(name, s, "uint"),
        }
    };
    let capacity_bytes = match options.string("fast-mem-capacity") {
        "" => u64::MAX,
        s => parse_u64("fast-mem-capacity", s, "ulong")?.saturating_mul(1024),
    };
    Ok(Box::new(AffineDataCopyGenerate {
        opts: CopyOptions {
            generate_dma: options.bool("generate-dma"),
            slow_space: space("slow-mem-space", 0)?,
            fast_space: space("fast-mem-space", 1)?,
            tag_space: space("tag-mem-space", 0)?,
            capacity_bytes,
            skip_non_unit_stride_loops: options.bool("skip-non-unit-stride-loops"),
        },
    }))
}

/// The `affine-data-copy-generate` pass.
pub static AFFINE_DATA_COPY_GENERATE: PassInfo = PassInfo {
    argument: "affine-data-copy-generate",
    name: "AffineDataCopyGeneration",
    description: "Generate explicit copying for affine memory operations",
    anchor: Some("func.func"),
    options: &[
        PassOptionInfo {
            name: "fast-mem-capacity",
            description: "Set fast memory space capacity in KiB (default: unlimited)",
            kind: OptionKind::String,
            default: "",
        },
        PassOptionInfo {
            name: "fast-mem-space",
            description: "Fast memory space identifier for copy generation (default: 1)",
            kind: OptionKind::String,
            default: "",
        },
        PassOptionInfo {
            name: "generate-dma",
            description: "Generate DMA instead of point-wise copy",
            kind: OptionKind::Bool,
            default: "false",
        },
        PassOptionInfo {
            name: "min-dma-transfer",
            description: "Minimum DMA transfer size supported by the target in bytes",
            kind: OptionKind::Int,
            default: "1024",
        },
        PassOptionInfo {
            name: "skip-non-unit-stride-loops",
            description:
                "Testing purposes: avoid non-unit stride loop choice depths for copy placement",
            kind: OptionKind::Bool,
            default: "false",
        },
        PassOptionInfo {
            name: "slow-mem-space",
            description: "Slow memory space identifier for copy generation (default: 0)",
            kind: OptionKind::String,
            default: "",
        },
        PassOptionInfo {
            name: "tag-mem-space",
            description: "Tag memory space identifier for copy generation (default: 0)",
            kind: OptionKind::String,
            default: "",
        },
    ],
    create,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_stride_level_for_a_tile_of_a_wider_array() {
        assert_eq!(
            multi_level_strides(&[256, 1024], &[32, 32]),
            vec![(1024, 32)]
        );
        assert!(multi_level_strides(&[100, 100], &[1, 100]).is_empty());
        assert_eq!(multi_level_strides(&[8, 8, 8], &[2, 2, 2]).len(), 2);
    }
}
