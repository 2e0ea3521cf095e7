//! The memref dependence graph of one block (MLIR's
//! `MemRefDependenceGraph`): a node per top-level `affine.for` nest, per
//! top-level affine load/store, per op whose results are used and per op
//! with memory effects; an edge from an earlier to a later node for each
//! memref both access (at least one writing, and for two loop nests only
//! where the dependence analysis finds a dependence at the block's depth)
//! and for each SSA value one defines and a loop nest uses.

use super::order::DenseOrder;
use crate::dependence::{accesses_of, check_dependence, DependenceResult, Precision};
use rustc_hash::FxHashMap;
use silica_ir::dialect::{op_effects, Effects};
use silica_ir::{BlockId, Context, Ir, OpId, TypeKind, ValueId};

/// One node: a top-level op and the memory accesses under it.
#[derive(Clone, Debug)]
pub struct Node {
    pub id: usize,
    pub op: OpId,
    /// Affine loads and stores.
    pub loads: Vec<OpId>,
    pub stores: Vec<OpId>,
    /// Other ops reading, writing or freeing memrefs.
    pub memref_loads: Vec<OpId>,
    pub memref_stores: Vec<OpId>,
    pub memref_frees: Vec<OpId>,
}

/// An edge's other end and the value (memref or SSA value) it is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Edge {
    pub id: usize,
    pub value: ValueId,
}

/// The affine accesses and memref effects under an op (MLIR's
/// `LoopNestStateCollector`).
#[derive(Default)]
pub struct Collected {
    pub fors: Vec<OpId>,
    pub loads: Vec<OpId>,
    pub stores: Vec<OpId>,
    pub memref_loads: Vec<OpId>,
    pub memref_stores: Vec<OpId>,
    pub memref_frees: Vec<OpId>,
}

/// Whether `op` is an affine read (`affine.load`, `affine.vector_load`).
pub fn is_read(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    matches!(
        ctx.str(ir.op_name(op)),
        "affine.load" | "affine.vector_load"
    )
}

/// Whether `op` is an affine write.
pub fn is_write(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    matches!(
        ctx.str(ir.op_name(op)),
        "affine.store" | "affine.vector_store"
    )
}

/// The memref an affine read or write accesses.
pub fn memref_of(ctx: &Context, ir: &Ir, op: OpId) -> ValueId {
    if is_write(ctx, ir, op) {
        ir.operand(op, 1)
    } else {
        ir.operand(op, 0)
    }
}

pub fn is_memref(ctx: &Context, ir: &Ir, v: ValueId) -> bool {
    matches!(
        ctx.type_kind(ir.value_type(v)),
        TypeKind::MemRef { .. } | TypeKind::UnrankedMemRef { .. }
    )
}

/// Collects the accesses under `root` (itself included).
pub fn collect(ctx: &Context, ir: &Ir, root: OpId) -> Collected {
    let mut c = Collected::default();
    ir.walk(root, &mut |op| {
        let name = ctx.str(ir.op_name(op));
        if name == "affine.for" {
            c.fors.push(op);
        } else if is_read(ctx, ir, op) {
            c.loads.push(op);
        } else if is_write(ctx, ir, op) {
            c.stores.push(op);
        } else {
            let has_memref = ir.operands(op).any(|v| is_memref(ctx, ir, v));
            match op_effects(ctx, ir, op) {
                Effects::None | Effects::Recursive | Effects::Alloc => {}
                Effects::Read => {
                    if has_memref {
                        c.memref_loads.push(op);
                    }
                }
                Effects::Write => {
                    if name == "memref.dealloc" {
                        c.memref_frees.push(op);
                    } else if has_memref {
                        c.memref_loads.push(op);
                        c.memref_stores.push(op);
                    }
                }
                _ => {
                    if has_memref {
                        c.memref_loads.push(op);
                        c.memref_stores.push(op);
                    }
                }
            }
        }
    });
    c
}

/// The memref operands of a non-affine accessing op.
fn memref_operands(ctx: &Context, ir: &Ir, op: OpId) -> Vec<ValueId> {
    ir.operands(op).filter(|&v| is_memref(ctx, ir, v)).collect()
}

impl Node {
    fn new(id: usize, op: OpId) -> Node {
        Node {
            id,
            op,
            loads: Vec::new(),
            stores: Vec::new(),
            memref_loads: Vec::new(),
            memref_stores: Vec::new(),
            memref_frees: Vec::new(),
        }
    }

    pub fn load_count(&self, ctx: &Context, ir: &Ir, memref: ValueId) -> usize {
        self.loads
            .iter()
            .filter(|&&o| memref_of(ctx, ir, o) == memref)
            .count()
            + self
                .memref_loads
                .iter()
                .filter(|&&o| memref_operands(ctx, ir, o).contains(&memref))
                .count()
    }

    pub fn store_count(&self, ctx: &Context, ir: &Ir, memref: ValueId) -> usize {
        self.stores
            .iter()
            .filter(|&&o| memref_of(ctx, ir, o) == memref)
            .count()
            + self
                .memref_stores
                .iter()
                .filter(|&&o| memref_operands(ctx, ir, o).contains(&memref))
                .count()
    }

    fn has_free(&self, ctx: &Context, ir: &Ir, memref: ValueId) -> bool {
        self.memref_frees
            .iter()
            .any(|&o| memref_operands(ctx, ir, o).contains(&memref))
    }

    pub fn loads_of(&self, ctx: &Context, ir: &Ir, memref: ValueId) -> Vec<OpId> {
        self.loads
            .iter()
            .copied()
            .filter(|&o| memref_of(ctx, ir, o) == memref)
            .collect()
    }

    /// The memrefs this node both loads and stores (affine accesses).
    pub fn load_and_store_memrefs(&self, ctx: &Context, ir: &Ir) -> Vec<ValueId> {
        let loaded: Vec<ValueId> = self.loads.iter().map(|&o| memref_of(ctx, ir, o)).collect();
        let mut out = Vec::new();
        for &s in &self.stores {
            let m = memref_of(ctx, ir, s);
            if loaded.contains(&m) && !out.contains(&m) {
                out.push(m);
            }
        }
        out
    }

    fn set(&mut self, c: Collected) {
        self.loads = c.loads;
        self.stores = c.stores;
        self.memref_loads = c.memref_loads;
        self.memref_stores = c.memref_stores;
        self.memref_frees = c.memref_frees;
    }
}

/// The dependence graph of one block.
pub struct Graph {
    pub block: BlockId,
    nodes: FxHashMap<usize, Node>,
    /// Node ids in the iteration order of MLIR's `DenseMap`.
    order: DenseOrder,
    pub in_edges: FxHashMap<usize, Vec<Edge>>,
    pub out_edges: FxHashMap<usize, Vec<Edge>>,
    /// Per memref, the number of edges on it (in first-edge order).
    pub memref_edge_count: Vec<(ValueId, i64)>,
    next_id: usize,
}

impl Graph {
    /// Builds the graph; `None` where MLIR's `init` fails (an unknown
    /// region-holding op).
    pub fn new(ctx: &Context, ir: &Ir, block: BlockId) -> Option<Graph> {
        let mut g = Graph {
            block,
            nodes: FxHashMap::default(),
            order: DenseOrder::default(),
            in_edges: FxHashMap::default(),
            out_edges: FxHashMap::default(),
            memref_edge_count: Vec::new(),
            next_id: 0,
        };
        // Memref -> nodes accessing it, in first-access order.
        let mut accesses: Vec<(ValueId, Vec<usize>)> = Vec::new();
        let mut note =
            |memref: ValueId, id: usize| match accesses.iter_mut().find(|(m, _)| *m == memref) {
                Some((_, ids)) => {
                    if !ids.contains(&id) {
                        ids.push(id);
                    }
                }
                None => accesses.push((memref, vec![id])),
            };
        let mut for_nodes: FxHashMap<OpId, usize> = FxHashMap::default();
        let ops: Vec<OpId> = ir.block_ops(block).collect();
        for op in ops {
            let name = ctx.str(ir.op_name(op));
            let collected = if name == "affine.for" {
                Some(collect(ctx, ir, op))
            } else if is_read(ctx, ir, op) || is_write(ctx, ir, op) {
                let mut c = Collected::default();
                if is_read(ctx, ir, op) {
                    c.loads.push(op);
                } else {
                    c.stores.push(op);
                }
                Some(c)
            } else if ir.results(op).any(|r| ir.has_uses(r)) {
                Some(collect(ctx, ir, op))
            } else if !silica_ir::rewrite::effects::is_memory_effect_free(ctx, ir, op) {
                if ir.num_regions(op) > 0 && !is_region_branch(ctx, ir, op) {
                    return None;
                }
                Some(collect(ctx, ir, op))
            } else if ir.num_regions(op) > 0 && !is_region_branch(ctx, ir, op) {
                return None;
            } else {
                None
            };
            let Some(c) = collected else { continue };
            let id = g.next_id;
            g.next_id += 1;
            for &o in c.loads.iter().chain(&c.stores) {
                note(memref_of(ctx, ir, o), id);
            }
            for &o in c
                .memref_loads
                .iter()
                .chain(&c.memref_stores)
                .chain(&c.memref_frees)
            {
                for m in memref_operands(ctx, ir, o) {
                    note(m, id);
                }
            }
            let mut node = Node::new(id, op);
            node.set(c);
            if name == "affine.for" {
                for_nodes.insert(op, id);
            }
            g.insert_node(node);
        }
        // SSA edges from nodes without stores to the loop nests using
        // their results.
        let ids = g.order.keys();
        for id in ids {
            let node = &g.nodes[&id];
            if !node.stores.is_empty() {
                continue;
            }
            let op = node.op;
            let mut edges = Vec::new();
            for r in ir.results(op) {
                for u in ir.uses(r) {
                    let user = ir.use_owner(u);
                    let Some(top) = ancestor_in_block(ir, user, block) else {
                        continue;
                    };
                    if top == user {
                        continue;
                    }
                    if let Some(&nid) = for_nodes.get(&top) {
                        edges.push((nid, r));
                    }
                }
            }
            for (nid, r) in edges {
                g.add_edge(id, nid, r);
            }
        }
        let mut new_edges = Vec::new();
        for (memref, ids) in accesses {
            for i in 0..ids.len() {
                let src = &g.nodes[&ids[i]];
                let src_writes =
                    src.store_count(ctx, ir, memref) > 0 || src.has_free(ctx, ir, memref);
                for &dst_id in &ids[i + 1..] {
                    let dst = &g.nodes[&dst_id];
                    let dst_writes =
                        dst.store_count(ctx, ir, memref) > 0 || dst.has_free(ctx, ir, memref);
                    if (src_writes || dst_writes) && may_depend(ctx, ir, src, dst, memref) {
                        new_edges.push((ids[i], dst_id, memref));
                    }
                }
            }
        }
        for (a, b, m) in new_edges {
            g.add_edge(a, b, m);
        }
        Some(g)
    }

    fn insert_node(&mut self, node: Node) {
        self.order.insert(node.id);
        self.nodes.insert(node.id, node);
    }

    /// Node ids in MLIR's iteration order.
    pub fn ids(&self) -> Vec<usize> {
        self.order.keys()
    }

    pub fn node(&self, id: usize) -> Option<&Node> {
        self.nodes.get(&id)
    }

    pub fn node_mut(&mut self, id: usize) -> Option<&mut Node> {
        self.nodes.get_mut(&id)
    }

    /// The node of a top-level op.
    pub fn node_of_op(&self, op: OpId) -> Option<usize> {
        self.order
            .keys()
            .into_iter()
            .find(|id| self.nodes[id].op == op)
    }

    /// A node for a new op (a private memref's allocation).
    pub fn add_node(&mut self, op: OpId) -> usize {
        let id = self.next_id;
        self.next_id += 1;
        self.insert_node(Node::new(id, op));
        id
    }

    pub fn remove_node(&mut self, id: usize) {
        for e in self.in_edges.get(&id).cloned().unwrap_or_default() {
            self.remove_edge(e.id, id, e.value);
        }
        for e in self.out_edges.get(&id).cloned().unwrap_or_default() {
            self.remove_edge(id, e.id, e.value);
        }
        self.in_edges.remove(&id);
        self.out_edges.remove(&id);
        self.nodes.remove(&id);
        self.order.erase(id);
    }

    pub fn has_edge(&self, src: usize, dst: usize, value: Option<ValueId>) -> bool {
        let matches = |e: &Edge, other: usize| e.id == other && value.is_none_or(|v| e.value == v);
        self.out_edges
            .get(&src)
            .is_some_and(|es| es.iter().any(|e| matches(e, dst)))
            && self
                .in_edges
                .get(&dst)
                .is_some_and(|es| es.iter().any(|e| matches(e, src)))
    }

    pub fn add_edge(&mut self, src: usize, dst: usize, value: ValueId) {
        if self.has_edge(src, dst, Some(value)) {
            return;
        }
        self.out_edges
            .entry(src)
            .or_default()
            .push(Edge { id: dst, value });
        self.in_edges
            .entry(dst)
            .or_default()
            .push(Edge { id: src, value });
        match self.memref_edge_count.iter_mut().find(|(m, _)| *m == value) {
            Some((_, n)) => *n += 1,
            None => self.memref_edge_count.push((value, 1)),
        }
    }

    pub fn remove_edge(&mut self, src: usize, dst: usize, value: ValueId) {
        if let Some((_, n)) = self.memref_edge_count.iter_mut().find(|(m, _)| *m == value) {
            *n -= 1;
        }
        if let Some(es) = self.in_edges.get_mut(&dst) {
            if let Some(i) = es.iter().position(|e| e.id == src && e.value == value) {
                es.remove(i);
            }
        }
        if let Some(es) = self.out_edges.get_mut(&src) {
            if let Some(i) = es.iter().position(|e| e.id == dst && e.value == value) {
                es.remove(i);
            }
        }
    }

    pub fn in_of(&self, id: usize) -> Vec<Edge> {
        self.in_edges.get(&id).cloned().unwrap_or_default()
    }

    pub fn out_of(&self, id: usize) -> Vec<Edge> {
        self.out_edges.get(&id).cloned().unwrap_or_default()
    }

    /// Whether a path of edges leads from `src` to `dst` (nodes after
    /// `dst` in the block are not followed).
    pub fn has_dependence_path(&self, ctx: &Context, ir: &Ir, src: usize, dst: usize) -> bool {
        let _ = ctx;
        let dst_op = self.nodes[&dst].op;
        let mut stack = vec![(src, 0usize)];
        let mut steps = 0usize;
        while let Some(&mut (id, ref mut next)) = stack.last_mut() {
            if id == dst {
                return true;
            }
            steps += 1;
            if steps > 100_000 {
                return true;
            }
            let out = self.out_of(id);
            if *next >= out.len() {
                stack.pop();
                continue;
            }
            let e = out[*next];
            *next += 1;
            let after = self
                .nodes
                .get(&e.id)
                .is_some_and(|n| is_before_in_block(ir, dst_op, n.op));
            if !after && e.id != id {
                stack.push((e.id, 0));
            }
        }
        false
    }

    /// The in edges on `memref` from nodes that store to it.
    pub fn incoming_memref_accesses(
        &self,
        ctx: &Context,
        ir: &Ir,
        id: usize,
        memref: ValueId,
    ) -> usize {
        self.in_of(id)
            .iter()
            .filter(|e| {
                e.value == memref
                    && self
                        .nodes
                        .get(&e.id)
                        .is_some_and(|n| n.store_count(ctx, ir, memref) > 0)
            })
            .count()
    }

    /// The out edges of `id` (on `memref` only, if given).
    pub fn out_edge_count(&self, id: usize, memref: Option<ValueId>) -> usize {
        self.out_of(id)
            .iter()
            .filter(|e| memref.is_none_or(|m| e.value == m))
            .count()
    }

    /// Where the fused nest of `src` and `dst` may go (MLIR's
    /// `getFusedLoopNestInsertionPoint`): before the returned op.
    pub fn fused_insertion_point(
        &self,
        ctx: &Context,
        ir: &Ir,
        src: usize,
        dst: usize,
    ) -> Option<OpId> {
        let dst_op = self.nodes[&dst].op;
        if self.out_of(src).is_empty() {
            return Some(dst_op);
        }
        let defining: Vec<usize> = self
            .in_of(dst)
            .iter()
            .filter(|e| !is_memref(ctx, ir, e.value))
            .map(|e| e.id)
            .collect();
        if defining
            .iter()
            .any(|&d| self.has_dependence_path(ctx, ir, src, d))
        {
            return None;
        }
        let src_deps: Vec<OpId> = self
            .out_of(src)
            .iter()
            .filter(|e| e.id != dst)
            .filter_map(|e| self.nodes.get(&e.id).map(|n| n.op))
            .collect();
        let dst_deps: Vec<OpId> = self
            .in_of(dst)
            .iter()
            .filter(|e| e.id != src)
            .filter_map(|e| self.nodes.get(&e.id).map(|n| n.op))
            .collect();
        let src_op = self.nodes[&src].op;
        let mut first_src_dep = None;
        let mut last_dst_dep = None;
        let mut pos = 0;
        let mut cur = ir.next_op(src_op);
        let mut between = Vec::new();
        while let Some(op) = cur {
            if op == dst_op {
                break;
            }
            if src_deps.contains(&op) && first_src_dep.is_none() {
                first_src_dep = Some(pos);
            }
            if dst_deps.contains(&op) {
                last_dst_dep = Some(pos);
            }
            between.push(op);
            pos += 1;
            cur = ir.next_op(op);
        }
        match (first_src_dep, last_dst_dep) {
            (Some(f), Some(l)) if f <= l => None,
            (Some(f), _) => Some(between[f]),
            _ => Some(dst_op),
        }
    }

    /// Updates edges after fusing `src` into `dst` (MLIR's `updateEdges`).
    pub fn update_edges(&mut self, src: usize, dst: usize, private: &[ValueId], remove_src: bool) {
        for e in self.in_of(src) {
            if !private.contains(&e.value) {
                self.add_edge(e.id, dst, e.value);
            }
        }
        for e in self.out_of(src) {
            if e.id == dst {
                self.remove_edge(src, e.id, e.value);
            } else if remove_src {
                self.add_edge(dst, e.id, e.value);
                self.remove_edge(src, e.id, e.value);
            }
        }
        if !private.is_empty() {
            for e in self.in_of(dst) {
                if private.contains(&e.value) {
                    self.remove_edge(e.id, dst, e.value);
                }
            }
        }
    }

    /// Moves the edges of `sib` to `dst` after sibling fusion.
    pub fn update_sibling_edges(&mut self, sib: usize, dst: usize) {
        for e in self.in_of(sib) {
            self.add_edge(e.id, dst, e.value);
            self.remove_edge(e.id, sib, e.value);
        }
        for e in self.out_of(sib) {
            self.add_edge(dst, e.id, e.value);
            self.remove_edge(sib, e.id, e.value);
        }
    }

    /// Recollects the accesses of node `id` from its op.
    pub fn refresh(&mut self, ctx: &Context, ir: &Ir, id: usize) {
        let op = self.nodes[&id].op;
        let c = collect(ctx, ir, op);
        if let Some(n) = self.nodes.get_mut(&id) {
            n.set(c);
        }
    }
}

fn is_region_branch(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    ctx.op_def(ir.op_name(op))
        .is_some_and(|d| d.region_branch.is_some())
}

/// The ancestor of `op` (itself included) directly in `block`.
pub fn ancestor_in_block(ir: &Ir, op: OpId, block: BlockId) -> Option<OpId> {
    let mut cur = Some(op);
    while let Some(o) = cur {
        if ir.op_block(o) == Some(block) {
            return Some(o);
        }
        cur = ir.parent_op(o);
    }
    None
}

/// Whether `a` comes before `b` in their common block.
pub fn is_before_in_block(ir: &Ir, a: OpId, b: OpId) -> bool {
    let mut cur = ir.next_op(a);
    while let Some(o) = cur {
        if o == b {
            return true;
        }
        cur = ir.next_op(o);
    }
    false
}

/// Whether some access of `memref` in `src` may depend on one in `dst`
/// (MLIR's `mayDependence`): always for non-loop nodes and non-affine
/// accesses, else the dependence test at the block's depth.
fn may_depend(ctx: &Context, ir: &Ir, src: &Node, dst: &Node, memref: ValueId) -> bool {
    if ctx.str(ir.op_name(src.op)) != "affine.for" || ctx.str(ir.op_name(dst.op)) != "affine.for" {
        return true;
    }
    let touches = |ops: &[OpId]| {
        ops.iter()
            .any(|&o| memref_operands(ctx, ir, o).contains(&memref))
    };
    let affine_touches = |ops: &[OpId]| ops.iter().any(|&o| memref_of(ctx, ir, o) == memref);
    if touches(&src.memref_stores)
        && (affine_touches(&dst.loads)
            || affine_touches(&dst.stores)
            || touches(&dst.memref_loads)
            || touches(&dst.memref_stores))
    {
        return true;
    }
    if touches(&src.memref_loads) && (affine_touches(&dst.stores) || touches(&dst.memref_stores)) {
        return true;
    }
    if affine_touches(&src.stores) && (touches(&dst.memref_loads) || touches(&dst.memref_stores)) {
        return true;
    }
    if affine_touches(&src.loads) && touches(&dst.memref_stores) {
        return true;
    }
    let depth = crate::dependence::enclosing_loop_ivs(ctx, ir, src.op).len() + 1;
    let accesses = |ops: &[OpId]| {
        let mut v = Vec::new();
        for &o in ops {
            match accesses_of(ctx, ir, o) {
                Ok(a) => v.extend(a.into_iter().filter(|a| a.memref == memref)),
                Err(_) => return None,
            }
        }
        Some(v)
    };
    let (Some(sa), Some(da)) = (
        accesses(&[src.stores.as_slice(), src.loads.as_slice()].concat()),
        accesses(&[dst.stores.as_slice(), dst.loads.as_slice()].concat()),
    ) else {
        return true;
    };
    for s in &sa {
        for d in &da {
            if check_dependence(ctx, ir, s, d, depth, Precision::Shadow)
                != DependenceResult::NoDependence
            {
                return true;
            }
        }
    }
    false
}
