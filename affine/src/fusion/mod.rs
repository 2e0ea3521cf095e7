//! `affine-loop-fusion`: MLIR's greedy fusion of affine loop nests
//! (`LoopFusion.cpp`). Each block with two or more top-level `affine.for`
//! nests (inner blocks first) gets a memref dependence graph
//! ([`graph`]); producer-consumer fusion slices a producer nest
//! ([`slice`]) into each consumer at the depth the cost model picks
//! ([`cost`]; the deepest legal one with `maximal`), gives the fused nest
//! a private, smaller copy of a memref only it uses, and removes the
//! producer when nothing else needs it ([`transform`]); sibling fusion
//! fuses nests that read the same memref and share no dependence. The
//! checks of [`legality`] come on top of MLIR's: a fusion that could
//! change what the program computes is not made.
//!
//! Options as mlir-opt-22's: `mode` (`greedy`, `producer`, `sibling`),
//! `compute-tolerance`, `fast-mem-space`, `local-buf-threshold` (KiB),
//! `maximal`.

pub mod cost;
pub mod graph;
pub mod legality;
mod order;
pub mod shift;
#[cfg(test)]
mod shift_tests;
pub mod slice;
pub mod test_pass;
pub mod transform;

use graph::{is_read, is_write, memref_of, Graph};
use silica_ir::pass::{OptionKind, Pass, PassInfo, PassOptionInfo, PassOptions};
use silica_ir::{BlockId, Context, Diagnostic, Ir, OpId, ValueId};
use slice::{can_fuse, enclosing_fors, innermost_common_loops, Slice, Strategy};

/// Which fusions to try.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Greedy,
    Producer,
    Sibling,
}

/// The pass's settings.
#[derive(Clone, Copy, Debug)]
pub struct FusionOptions {
    pub mode: Mode,
    pub compute_tolerance: f64,
    pub fast_mem_space: Option<u64>,
    /// In bytes.
    pub local_buf_threshold: u64,
    pub maximal: bool,
}

struct Greedy<'a> {
    ctx: &'a mut Context,
    ir: &'a mut Ir,
    g: Graph,
    opts: FusionOptions,
}

fn is_for(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    ctx.str(ir.op_name(op)) == "affine.for"
}

/// Whether `memref` may be seen outside the block's affine accesses
/// (MLIR's `isEscapingMemref`).
fn is_escaping(ctx: &Context, ir: &Ir, memref: ValueId, block: BlockId) -> bool {
    let Some(def) = ir.defining_op(memref) else {
        return true;
    };
    let name = ctx.str(ir.op_name(def));
    let view = matches!(
        name,
        "memref.subview"
            | "memref.cast"
            | "memref.view"
            | "memref.reinterpret_cast"
            | "memref.collapse_shape"
            | "memref.expand_shape"
            | "memref.transpose"
    );
    if view && is_escaping(ctx, ir, ir.operand(def, 0), block) {
        return true;
    }
    if !matches!(name, "memref.alloc" | "memref.alloca") {
        return true;
    }
    let users: Vec<OpId> = ir.uses(memref).map(|u| ir.use_owner(u)).collect();
    users.into_iter().any(|user| {
        let Some(top) = graph::ancestor_in_block(ir, user, block) else {
            // Outside the block: only uses inside the block's region are
            // looked at, the others escape.
            let region = ir.block_region(block);
            return !region.is_some_and(|r| ir.is_in_region(user, r));
        };
        let _ = top;
        !(is_read(ctx, ir, user)
            || is_write(ctx, ir, user)
            || matches!(
                ctx.str(ir.op_name(user)),
                "affine.dma_start" | "affine.dma_wait" | "affine.prefetch"
            ))
    })
}

impl Greedy<'_> {
    fn node_op(&self, id: usize) -> Option<OpId> {
        self.g.node(id).map(|n| n.op)
    }

    fn escaping_stores(&self, id: usize) -> Vec<ValueId> {
        let mut out = Vec::new();
        let Some(n) = self.g.node(id) else { return out };
        for &s in &n.stores {
            let m = memref_of(self.ctx, self.ir, s);
            if !out.contains(&m) && is_escaping(self.ctx, self.ir, m, self.g.block) {
                out.push(m);
            }
        }
        out
    }

    fn producer_candidates(&self, dst: usize) -> Vec<usize> {
        let (ctx, ir) = (&*self.ctx, &*self.ir);
        let Some(dst_node) = self.g.node(dst) else {
            return Vec::new();
        };
        let consumed: Vec<ValueId> = dst_node
            .loads
            .iter()
            .map(|&l| memref_of(ctx, ir, l))
            .collect();
        let mut out = Vec::new();
        for e in self.g.in_of(dst) {
            let Some(src) = self.g.node(e.id) else {
                continue;
            };
            if !is_for(ctx, ir, src.op) {
                continue;
            }
            if src
                .stores
                .iter()
                .any(|&s| consumed.contains(&memref_of(ctx, ir, s)))
            {
                out.push(e.id);
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    fn can_remove_src(
        &self,
        src: usize,
        dst: usize,
        slice: &Slice,
        ins: OpId,
        escaping: &[ValueId],
    ) -> bool {
        let Some(dst_op) = self.node_op(dst) else {
            return false;
        };
        let mut deps_after = false;
        for e in self.g.out_of(src) {
            let Some(dep_op) = self.node_op(e.id) else {
                continue;
            };
            if dep_op == dst_op {
                continue;
            }
            if self.ir.op_block(dep_op) != self.ir.op_block(dst_op) {
                return false;
            }
            if ins != dep_op && !graph::is_before_in_block(self.ir, ins, dep_op) {
                return false;
            }
            deps_after = true;
        }
        if deps_after || !escaping.is_empty() {
            return slice.is_maximal(self.ctx, self.ir);
        }
        true
    }

    fn can_privatize(
        &self,
        memref: ValueId,
        escaping: &[ValueId],
        src: usize,
        dst: usize,
        remove_src: bool,
    ) -> bool {
        let (ctx, ir) = (&*self.ctx, &*self.ir);
        let Some(dst_node) = self.g.node(dst) else {
            return false;
        };
        if escaping.contains(&memref) && (remove_src || dst_node.store_count(ctx, ir, memref) > 0) {
            return false;
        }
        if self.g.incoming_memref_accesses(ctx, ir, src, memref) > 0
            || self.g.out_edge_count(dst, Some(memref)) > 0
        {
            return false;
        }
        // silica: no other node feeds the consumer through this memref.
        if self.g.in_of(dst).iter().any(|e| {
            e.value == memref
                && e.id != src
                && self
                    .g
                    .node(e.id)
                    .is_some_and(|n| n.store_count(ctx, ir, memref) > 0)
        }) {
            return false;
        }
        if remove_src
            && self
                .g
                .out_of(src)
                .iter()
                .any(|e| e.value == memref && e.id != dst)
        {
            return false;
        }
        true
    }

    fn perform_fusions_into(&mut self, dst: usize, max_src_users: usize) {
        let Some(dst_op) = self.node_op(dst) else {
            return;
        };
        if !is_for(self.ctx, self.ir, dst_op) || self.ir.num_results(dst_op) > 0 {
            return;
        }
        let new_root = transform::sink_sequential_loops(self.ctx, self.ir, dst_op);
        if let Some(n) = self.g.node_mut(dst) {
            n.op = new_root;
        }
        let dst_for = new_root;
        loop {
            let mut changed = false;
            let candidates = self.producer_candidates(dst);
            for &src in candidates.iter().rev() {
                if self.fuse_producer(src, dst, dst_for, max_src_users) {
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
    }

    /// One producer-consumer fusion attempt; whether it fused.
    fn fuse_producer(
        &mut self,
        src: usize,
        dst: usize,
        dst_for: OpId,
        max_src_users: usize,
    ) -> bool {
        let Some(src_for) = self.node_op(src) else {
            return false;
        };
        if self.g.node(dst).is_none() || self.ir.num_results(src_for) > 0 {
            return false;
        }
        let (src_node, dst_node) = match (self.g.node(src), self.g.node(dst)) {
            (Some(a), Some(b)) => (a.clone(), b.clone()),
            _ => return false,
        };
        let pc_memrefs =
            slice::producer_consumer_memrefs(self.ctx, self.ir, &src_node.stores, &dst_node.loads);
        if pc_memrefs
            .iter()
            .any(|&m| self.g.out_edge_count(src, Some(m)) > max_src_users)
        {
            return false;
        }
        let escaping = self.escaping_stores(src);
        let Some(ins) = self.g.fused_insertion_point(self.ctx, self.ir, src, dst) else {
            return false;
        };
        let surrounding = enclosing_fors(self.ctx, self.ir, dst_for).len();
        let dst_mem_ops: Vec<OpId> = dst_node
            .loads
            .iter()
            .chain(&dst_node.stores)
            .copied()
            .filter(|&o| pc_memrefs.contains(&memref_of(self.ctx, self.ir, o)))
            .collect();
        let test_depth = innermost_common_loops(self.ctx, self.ir, &dst_mem_ops)
            .len()
            .saturating_sub(surrounding);
        let mut slices: Vec<Option<Slice>> = Vec::new();
        let mut max_legal = 0;
        for i in 1..=test_depth {
            let s = can_fuse(
                self.ctx,
                self.ir,
                src_for,
                dst_for,
                i + surrounding,
                Strategy::ProducerConsumer,
            );
            if s.is_some() {
                max_legal = i;
            }
            slices.push(s);
        }
        if max_legal == 0 {
            return false;
        }
        let mut best = max_legal;
        if !self.opts.maximal {
            let stores: Vec<OpId> = src_node
                .stores
                .iter()
                .copied()
                .filter(|&s| pc_memrefs.contains(&memref_of(self.ctx, self.ir, s)))
                .collect();
            if stores.len() == 1 {
                match cost::best_depth(
                    self.ctx,
                    self.ir,
                    stores[0],
                    dst_for,
                    &slices,
                    max_legal,
                    self.opts.compute_tolerance,
                ) {
                    Some(d) => best = d,
                    None => return false,
                }
            }
        }
        let Some(slice) = slices[best - 1].clone() else {
            return false;
        };
        let remove_src = self.can_remove_src(src, dst, &slice, ins, &escaping);
        if !legality::is_safe(self.ctx, self.ir, src_for, dst_for, &slice, remove_src) {
            return false;
        }
        let private: Vec<ValueId> = pc_memrefs
            .iter()
            .copied()
            .filter(|&m| self.can_privatize(m, &escaping, src, dst, remove_src))
            .collect();
        transform::fuse_loops(self.ctx, self.ir, src_for, &slice);
        if ins != dst_for {
            self.ir.move_op_before(dst_for, ins);
        }
        self.g.update_edges(src, dst, &private, remove_src);
        if !private.is_empty() {
            let slice_block = crate::for_op::body(self.ir, slice.insert_loop);
            let mut per_memref: Vec<(ValueId, Vec<OpId>)> = Vec::new();
            let mut stores = Vec::new();
            self.ir.walk(dst_for, &mut |o| {
                if is_write(self.ctx, self.ir, o) {
                    stores.push(o);
                }
            });
            for s in stores {
                let m = memref_of(self.ctx, self.ir, s);
                if !private.contains(&m) {
                    continue;
                }
                match per_memref.iter_mut().find(|(x, _)| *x == m) {
                    Some((_, v)) => v.push(s),
                    None => per_memref.push((m, vec![s])),
                }
            }
            for (_, stores) in per_memref {
                let Some(block) = slice_block else { break };
                if let Some(new) = transform::create_private_memref(
                    self.ctx,
                    self.ir,
                    dst_for,
                    &stores,
                    // MLIR computes the region at the fusion depth counted
                    // from the consumer nest, not from the function: under
                    // surrounding loops the buffer is that much larger.
                    best,
                    self.opts.fast_mem_space,
                    block,
                    self.opts.local_buf_threshold,
                ) {
                    if let Some(alloc) = self.ir.defining_op(new) {
                        let id = self.g.add_node(alloc);
                        self.g.add_edge(id, dst, new);
                    }
                }
            }
        }
        self.g.refresh(self.ctx, self.ir, dst);
        if remove_src {
            self.ir.erase_op(src_for);
            self.g.remove_node(src);
        }
        true
    }

    fn fuse_producer_consumer(&mut self, max_src_users: usize) {
        let mut worklist = self.g.ids();
        while let Some(dst) = worklist.pop() {
            self.perform_fusions_into(dst, max_src_users);
        }
    }

    /// A sibling of `dst` reading the same memref with no dependence path
    /// between them (MLIR's `findSiblingNodeToFuse`).
    fn find_sibling(&self, dst: usize, visited: &mut Vec<usize>) -> Option<(usize, ValueId)> {
        let (ctx, ir) = (&*self.ctx, &*self.ir);
        let dst_node = self.g.node(dst)?;
        let can_fuse_with = |sib: usize, memref: ValueId| -> bool {
            let Some(sn) = self.g.node(sib) else {
                return false;
            };
            if sn.load_count(ctx, ir, memref) != 1 {
                return false;
            }
            if self.g.has_dependence_path(ctx, ir, sib, dst)
                || self.g.has_dependence_path(ctx, ir, dst, sib)
            {
                return false;
            }
            if sn
                .load_and_store_memrefs(ctx, ir)
                .iter()
                .any(|&m| self.g.incoming_memref_accesses(ctx, ir, sib, m) > 0)
            {
                return false;
            }
            let first = sn.stores.first().map(|&s| memref_of(ctx, ir, s));
            sn.stores
                .iter()
                .all(|&s| Some(memref_of(ctx, ir, s)) == first)
        };
        // The nest of the block around `user`, when `user` reads and that
        // nest is neither `dst` nor visited.
        let reading_sibling = |user: OpId, visited: &[usize]| -> Option<usize> {
            if !is_read(ctx, ir, user) {
                return None;
            }
            let top = enclosing_fors(ctx, ir, user)
                .into_iter()
                .find(|&l| ir.op_block(l) == Some(self.g.block))?;
            let sib = self.g.node_of_op(top)?;
            (sib != dst && !visited.contains(&sib)).then_some(sib)
        };
        // Siblings loading the same block argument.
        let block = ir.op_block(dst_node.op)?;
        for &arg in ir.block_args(block) {
            let users: Vec<OpId> = ir.uses(arg).map(|u| ir.use_owner(u)).collect();
            for user in users {
                let Some(sib) = reading_sibling(user, visited) else {
                    continue;
                };
                let memref = memref_of(ctx, ir, user);
                if dst_node.load_count(ctx, ir, memref) == 0 {
                    continue;
                }
                if can_fuse_with(sib, memref) {
                    visited.push(sib);
                    return Some((sib, memref));
                }
            }
        }
        // Siblings through a common producer.
        let in_edges: Vec<graph::Edge> = self
            .g
            .in_of(dst)
            .into_iter()
            .filter(|e| {
                graph::is_memref(ctx, ir, e.value)
                    && dst_node.load_count(ctx, ir, e.value) > 0
                    && self
                        .g
                        .node(e.id)
                        .is_some_and(|n| n.store_count(ctx, ir, e.value) > 0)
            })
            .collect();
        for ie in in_edges {
            let mut found = None;
            for oe in self.g.out_of(ie.id) {
                if !graph::is_memref(ctx, ir, oe.value) || visited.contains(&oe.id) {
                    continue;
                }
                if oe.id == dst || oe.value != ie.value {
                    continue;
                }
                let Some(sn) = self.g.node(oe.id) else {
                    continue;
                };
                if !is_for(ctx, ir, sn.op) {
                    continue;
                }
                if can_fuse_with(oe.id, oe.value) {
                    found = Some((oe.id, oe.value));
                    break;
                }
            }
            if let Some((sib, m)) = found {
                visited.push(sib);
                return Some((sib, m));
            }
        }
        // Siblings loading a memref an op of the block defines (an
        // allocation, a view, a cast), as mlir-opt-22 fuses them.
        let mut memrefs: Vec<ValueId> = Vec::new();
        for &l in &dst_node.loads {
            let m = memref_of(ctx, ir, l);
            let defined_here = ir
                .defining_op(m)
                .is_some_and(|d| ir.op_block(d) == Some(block) && !is_for(ctx, ir, d));
            if defined_here && !memrefs.contains(&m) {
                memrefs.push(m);
            }
        }
        for memref in memrefs {
            let users: Vec<OpId> = ir.uses(memref).map(|u| ir.use_owner(u)).collect();
            for user in users {
                let Some(sib) = reading_sibling(user, visited) else {
                    continue;
                };
                if can_fuse_with(sib, memref) {
                    visited.push(sib);
                    return Some((sib, memref));
                }
            }
        }
        None
    }

    fn fuse_with_siblings(&mut self, dst: usize) {
        let mut visited = Vec::new();
        while let Some((sib, memref)) = self.find_sibling(dst, &mut visited) {
            self.fuse_sibling(sib, dst, memref);
        }
    }

    fn fuse_sibling(&mut self, sib: usize, dst: usize, memref: ValueId) {
        let (Some(sib_op), Some(dst_op)) = (self.node_op(sib), self.node_op(dst)) else {
            return;
        };
        let ins = if graph::is_before_in_block(self.ir, sib_op, dst_op) {
            self.g.fused_insertion_point(self.ctx, self.ir, sib, dst)
        } else {
            self.g.fused_insertion_point(self.ctx, self.ir, dst, sib)
        };
        let Some(ins) = ins else { return };
        let (Some(sib_node), Some(dst_node)) =
            (self.g.node(sib).cloned(), self.g.node(dst).cloned())
        else {
            return;
        };
        let sib_loads = sib_node.loads_of(self.ctx, self.ir, memref);
        let dst_loads = dst_node.loads_of(self.ctx, self.ir, memref);
        let (Some(&sib_load), Some(&dst_load)) = (sib_loads.first(), dst_loads.first()) else {
            return;
        };
        let surrounding = enclosing_fors(self.ctx, self.ir, dst_op).len();
        let test_depth = enclosing_fors(self.ctx, self.ir, dst_load)
            .len()
            .saturating_sub(surrounding);
        let mut slices = Vec::new();
        let mut max_legal = 0;
        for i in 1..=test_depth {
            let s = can_fuse(
                self.ctx,
                self.ir,
                sib_op,
                dst_op,
                i + surrounding,
                Strategy::Sibling(memref),
            );
            if s.is_some() {
                max_legal = i;
            }
            slices.push(s);
        }
        if max_legal == 0 {
            return;
        }
        let mut best = max_legal;
        if !self.opts.maximal {
            match cost::best_depth(
                self.ctx,
                self.ir,
                sib_load,
                dst_op,
                &slices,
                max_legal,
                self.opts.compute_tolerance,
            ) {
                Some(d) => best = d,
                None => return,
            }
        }
        let Some(slice) = slices[best - 1].clone() else {
            return;
        };
        // The sibling nest is removed: its slice must run every one of its
        // iterations (MLIR's sibling fusion requires a maximal slice too).
        if !slice.is_maximal(self.ctx, self.ir) {
            return;
        }
        // The sibling goes away when nothing depends on it.
        let remove = self.g.out_edge_count(sib, None) == 0;
        if !remove || !legality::is_safe(self.ctx, self.ir, sib_op, dst_op, &slice, remove) {
            return;
        }
        transform::fuse_loops(self.ctx, self.ir, sib_op, &slice);
        if ins != dst_op {
            self.ir.move_op_before(dst_op, ins);
        }
        self.g.update_sibling_edges(sib, dst);
        self.g.refresh(self.ctx, self.ir, dst);
        if self.g.out_edge_count(sib, None) == 0 {
            self.g.remove_node(sib);
            self.ir.erase_op(sib_op);
        }
    }

    fn fuse_siblings(&mut self) {
        let mut worklist = self.g.ids();
        while let Some(dst) = worklist.pop() {
            let Some(op) = self.node_op(dst) else {
                continue;
            };
            if !is_for(self.ctx, self.ir, op) {
                continue;
            }
            self.fuse_with_siblings(dst);
        }
    }

    fn erase_unused_allocs(&mut self) {
        for (memref, count) in self.g.memref_edge_count.clone() {
            if count > 0 || self.ir.has_uses(memref) {
                continue;
            }
            if let Some(def) = self.ir.defining_op(memref) {
                if !self.ir.is_erased(def) && self.ctx.str(self.ir.op_name(def)) == "memref.alloc" {
                    self.ir.erase_op(def);
                }
            }
        }
    }

    fn run(&mut self) {
        match self.opts.mode {
            Mode::Producer => self.fuse_producer_consumer(usize::MAX),
            Mode::Sibling => self.fuse_siblings(),
            Mode::Greedy => {
                self.fuse_producer_consumer(1);
                self.fuse_siblings();
                self.fuse_producer_consumer(usize::MAX);
            }
        }
        self.erase_unused_allocs();
    }
}

/// Runs fusion on every block under `root` holding two or more
/// `affine.for` ops, inner blocks first.
pub fn fuse_under(ctx: &mut Context, ir: &mut Ir, root: OpId, opts: FusionOptions) {
    let mut ops = Vec::new();
    post_order(ir, root, &mut ops);
    for op in ops {
        if ir.is_erased(op) {
            continue;
        }
        let regions: Vec<_> = ir.regions(op).collect();
        for r in regions {
            let blocks: Vec<BlockId> = ir.region_blocks(r).collect();
            for b in blocks {
                let fors = ir.block_ops(b).filter(|&o| is_for(ctx, ir, o)).count();
                if fors < 2 {
                    continue;
                }
                let Some(g) = Graph::new(ctx, ir, b) else {
                    continue;
                };
                Greedy {
                    ctx: &mut *ctx,
                    ir: &mut *ir,
                    g,
                    opts,
                }
                .run();
            }
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

struct LoopFusion(FusionOptions);

impl Pass for LoopFusion {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        fuse_under(ctx, ir, op, self.0);
        Ok(())
    }
}

static OPTIONS: &[PassOptionInfo] = &[
    PassOptionInfo {
        name: "compute-tolerance",
        description: "Fractional increase in additional computation tolerated while fusing",
        kind: OptionKind::String,
        default: "0.30",
    },
    PassOptionInfo {
        name: "fast-mem-space",
        description: "Faster memory space number to promote fusion buffers to",
        kind: OptionKind::UInt,
        default: "0",
    },
    PassOptionInfo {
        name: "local-buf-threshold",
        description: "Threshold size (KiB) for promoting local buffers to fast memory space",
        kind: OptionKind::UInt,
        default: "0",
    },
    PassOptionInfo {
        name: "maximal",
        description: "Enables maximal loop fusion",
        kind: OptionKind::Bool,
        default: "false",
    },
    PassOptionInfo {
        name: "mode",
        description: "fusion mode to attempt",
        kind: OptionKind::Enum(&["greedy", "producer", "sibling"]),
        default: "greedy",
    },
];

fn create(o: &PassOptions) -> Result<Box<dyn Pass>, String> {
    let text = o.string("compute-tolerance");
    let compute_tolerance: f64 = text.trim().parse().map_err(|_| {
        format!("for the --compute-tolerance option: '{text}' value invalid for number argument!")
    })?;
    let fast_given = o.given.iter().any(|(n, _)| n == "fast-mem-space");
    let mode = match o.string("mode") {
        "producer" => Mode::Producer,
        "sibling" => Mode::Sibling,
        _ => Mode::Greedy,
    };
    Ok(Box::new(LoopFusion(FusionOptions {
        mode,
        compute_tolerance,
        fast_mem_space: fast_given.then(|| o.int("fast-mem-space").unsigned_abs()),
        local_buf_threshold: o
            .int("local-buf-threshold")
            .unsigned_abs()
            .saturating_mul(1024),
        maximal: o.bool("maximal"),
    })))
}

/// The `affine-loop-fusion` pass.
pub static AFFINE_LOOP_FUSION: PassInfo = PassInfo {
    argument: "affine-loop-fusion",
    name: "AffineLoopFusion",
    description: "Fuse affine loop nests",
    anchor: Some("func.func"),
    options: OPTIONS,
    create,
};
