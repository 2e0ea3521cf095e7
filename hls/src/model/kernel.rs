//! The kernel model between the MLIR input and the circuit: scalar
//! arguments and results, memories, a tree of straight-line blocks and
//! loops, and the datapath nodes of every block at their hardware widths.
//! The front end builds it; analysis, scheduling and construction read it.

pub use crate::float::Operator;
use rustc_hash::{FxHashMap, FxHashSet};
pub use silica_hw_dialects::eval::Predicate;
use silica_ir::affine::AffineMap;
use silica_ir::{Attr, OpId};

pub type NodeId = usize;
pub type LoopId = usize;
pub type MemId = usize;
pub type BlockId = usize;
pub type DmaId = usize;
pub type TagId = usize;
pub type CallId = usize;

/// The width `index` values get before range analysis picks one.
pub const INDEX: u32 = u32::MAX;

/// A value of the datapath.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Val {
    /// The result of a node.
    Node(NodeId),
    /// A scalar argument (latched at start).
    Arg(usize),
    /// A loop's induction variable.
    Iv(LoopId),
    /// A loop-carried value (`iter_args`), also the loop's result.
    Carried(LoopId, usize),
    /// A constant (index into [`Kernel::consts`]).
    Const(usize),
    /// Result `i` of a call.
    Result(CallId, usize),
}

/// What a node computes. Operands of arithmetic have the node's width;
/// `FloorDivC`/`CeilDivC`/`ModC` divide by a positive constant with
/// affine (floor) semantics.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Op {
    Add,
    Sub,
    Mul,
    DivS,
    DivU,
    RemS,
    RemU,
    Shl,
    ShrU,
    ShrS,
    And,
    Or,
    Xor,
    MinS,
    MaxS,
    MinU,
    MaxU,
    Cmp(Predicate),
    /// `[condition, true value, false value]`.
    Mux,
    SExt,
    ZExt,
    Trunc,
    /// `math.absi`, `math.ctlz`, `math.cttz`, `math.ctpop`.
    AbsI,
    Ctlz,
    Cttz,
    Ctpop,
    FloorDivC(i64),
    CeilDivC(i64),
    ModC(i64),
    /// `[word address]` or `[word address, predicate]`; the result is
    /// the word, a cycle later.
    Load(MemId),
    /// `[word address, data]` or `[word address, data, predicate]`; no
    /// result. A predicate (an `i1`) gates the access (if-conversion).
    Store(MemId),
    /// An IEEE-754 operation on raw bits (`arith.addf`, `arith.cmpf`,
    /// ...): an instance of the operator's pipelined `hw.module`.
    Float(Operator),
}

impl Op {
    /// Whether the node accesses a memory.
    pub fn memory(self) -> Option<MemId> {
        match self {
            Op::Load(m) | Op::Store(m) => Some(m),
            _ => None,
        }
    }
}

/// A datapath operation.
#[derive(Clone, Debug)]
pub struct Node {
    pub op: Op,
    pub args: Vec<Val>,
    /// Result width (0 for stores).
    pub width: u32,
    pub loc: Attr,
    pub block: BlockId,
    /// The MLIR op the node comes from.
    pub source: OpId,
}

/// A memory: an external memref argument (ports on the top module), an
/// on-chip RAM from `memref.alloc`/`alloca`, or a ROM holding a constant
/// `memref.global`.
#[derive(Clone, Debug)]
pub struct Memory {
    pub name: String,
    pub shape: Vec<u64>,
    pub element_width: u32,
    /// The element type as MLIR prints it.
    pub element_type: String,
    /// The argument position for external memories.
    pub arg: Option<usize>,
    /// The words of a ROM (row-major, low `element_width` bits).
    pub rom: Option<Vec<u128>>,
    pub loc: Attr,
    /// Ports (1, or 2 by the `ports` directive).
    pub ports: u32,
    /// Elements a word (an external memory's `width` directive): word
    /// `w` holds elements `w * lanes ..`, element `w * lanes + j` in
    /// bits `[j * b, (j + 1) * b)` of `b`-bit elements. Accesses of such
    /// a memory address words (`front/widen.rs`).
    pub lanes: u32,
    /// The partitioned array this memory is a bank of.
    pub bank_of: Option<String>,
    /// A dataflow channel's words (`schedule/dataflow.rs`): an on-chip
    /// array one task writes and a later one reads, kept in a circular
    /// buffer of that many words, word `w` at `w mod depth`.
    pub channel: Option<u64>,
    /// The channel depth a `depth` directive asks for.
    pub asked_depth: Option<u64>,
    /// The function's result this external memory is: a buffer the
    /// kernel allocates and returns (`front/returned.rs`).
    pub returned: Option<usize>,
}

impl Memory {
    /// Number of elements.
    pub fn elements(&self) -> u64 {
        self.shape.iter().product::<u64>().max(1)
    }

    /// Number of words: elements packed `lanes` a word (a channel's
    /// depth).
    pub fn words(&self) -> u64 {
        self.channel.unwrap_or_else(|| self.array_words())
    }

    /// The words of the whole array (elements packed `lanes` a word).
    pub fn array_words(&self) -> u64 {
        self.elements().div_ceil(u64::from(self.lanes.max(1)))
    }

    /// Bits of a word.
    pub fn word_width(&self) -> u32 {
        self.element_width * self.lanes.max(1)
    }

    /// Address bits: ceil(log2(words)), at least 1.
    pub fn address_width(&self) -> u32 {
        let w = self.words();
        (64 - (w - 1).leading_zeros()).max(1)
    }
}

/// A scalar argument.
#[derive(Clone, Debug)]
pub struct Scalar {
    pub name: String,
    pub width: u32,
    pub ty: String,
}

/// A function argument: a scalar or a memory.
#[derive(Clone, Debug)]
pub enum Arg {
    Scalar(Scalar),
    Memory(MemId),
}

/// A loop bound: the max (lower) or min (upper) of an affine map's results
/// over operand values.
#[derive(Clone, Debug)]
pub struct Bound {
    pub map: AffineMap,
    pub operands: Vec<Val>,
}

impl Bound {
    /// The bound where `operand` gives its operands' values: the largest
    /// of its results for a lower bound, the least for an upper one.
    pub fn value_with(&self, operand: impl Fn(Val) -> Option<i64>, lower: bool) -> Option<i64> {
        let vals: Vec<i64> = self
            .operands
            .iter()
            .map(|&v| operand(v))
            .collect::<Option<_>>()?;
        let nd = self.map.num_dims as usize;
        let results: Vec<i64> = (self.map.results.iter())
            .map(|e| e.eval(&vals[..nd], &vals[nd..]))
            .collect::<Option<_>>()?;
        if lower {
            results.into_iter().max()
        } else {
            results.into_iter().min()
        }
    }

    /// The bound when it is one constant.
    pub fn constant(&self) -> Option<i64> {
        match self.map.results.as_ref() {
            [silica_ir::affine::AffineExpr::Constant(c)] => Some(*c),
            _ => None,
        }
    }
}

/// The exit test of an `scf.while` loop: after the first `split` items
/// of the body (the `before` region) the loop goes on into the rest (the
/// `do` region) while `cond` holds, and leaves otherwise.
#[derive(Clone, Copy, Debug)]
pub struct WhileTest {
    pub split: usize,
    pub cond: Val,
}

/// An `affine.for`/`scf.for` loop, or an `scf.while` (bounds `0 to 0`,
/// unused, and a [`WhileTest`]).
#[derive(Clone, Debug)]
pub struct Loop {
    /// The `affine.for`.
    pub op: OpId,
    pub loc: Attr,
    /// `top/label-or-position/...`, as the report names loops.
    pub path: String,
    pub lower: Bound,
    pub upper: Bound,
    pub step: i64,
    /// Initial values of the carried values.
    pub inits: Vec<Val>,
    /// Widths of the carried values.
    pub carried_widths: Vec<u32>,
    /// What the body yields for the next iteration.
    pub yields: Vec<Val>,
    pub body: Vec<Item>,
    /// Whether the loop is pipelined (an innermost loop, unless turned off).
    pub pipelined: bool,
    /// The II a `pipeline` directive asks for.
    pub target_ii: Option<u32>,
    /// The loops of a perfect nest folded into this one (`flatten`),
    /// outermost first: their counters form one chain stepped per
    /// iteration, and the innermost one's body is this loop's body.
    pub flat: Vec<LoopId>,
    /// Blocks of a flattened nest's code from around its inner loops,
    /// sunk into the body (`front/flatten.rs`).
    pub sunk: Vec<BlockId>,
    /// The exit test of an `scf.while` (whose trip count depends on data).
    pub test: Option<WhileTest>,
}

/// A `func.call` of a function of the same module: an instance of the
/// callee's module, started from a controller state of its own.
#[derive(Clone, Debug)]
pub struct Call {
    pub op: OpId,
    pub loc: Attr,
    /// The callee (its `hw.module`'s name).
    pub callee: String,
    /// The scalar operands, in the callee's argument order.
    pub scalars: Vec<Val>,
    /// The caller's memory passed for each memref argument, in order.
    pub memories: Vec<MemId>,
    /// Widths of the results.
    pub results: Vec<u32>,
    /// The callee's latency when fixed, and its least (set once the
    /// callee is scheduled).
    pub latency: Option<u64>,
    pub latency_min: Option<u64>,
}

/// One element of a sequence: straight-line nodes, a loop, a call, or a
/// DMA operation (a controller state of its own).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Item {
    Block(BlockId),
    Loop(LoopId),
    Call(CallId),
    Dma(DmaId),
}

/// Sibling loop nests of the function's body that run concurrently
/// (`dataflow`): items `first .. first + tasks` of [`Kernel::body`],
/// each a loop (a *task*). Task 0 runs in the controller's own thread;
/// each other task in a thread of its own, started a fixed number of
/// cycles after task 0 (`Schedules::starts`); the controller goes on
/// past the group once every task has finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Group {
    pub first: usize,
    pub tasks: usize,
    /// The task that may use every port of the memories it shares with
    /// the group's others, which divide the ports among themselves
    /// (none: every task that accesses a memory takes its share).
    pub exclusive: Option<usize>,
}

impl Group {
    /// The body positions of the group's tasks.
    pub fn items(self) -> std::ops::Range<usize> {
        self.first..self.first + self.tasks
    }
}

/// The ports of each memory that each dataflow task may use
/// ([`Kernel::port_shares`]).
pub struct PortShares {
    /// The group and task of each block, if it is in a task.
    task: Vec<Option<(usize, usize)>>,
    /// The tasks of each group that access each memory and take a share
    /// of its ports (the exclusive task left out), in order.
    sharers: FxHashMap<(usize, MemId), Vec<usize>>,
}

impl PortShares {
    /// The ports of memory `m` (of `ports`) that the code of block `b`
    /// may use, as the first and how many: all of them outside a
    /// dataflow task and in its group's exclusive task; otherwise the
    /// task's share of those the group's sharers of `m` divide among
    /// them (at least one), after the shares of the sharers before it
    /// (modulo the ports, where there are more sharers than ports).
    pub fn of(&self, m: MemId, b: BlockId, ports: u32) -> (u32, u32) {
        let ports = ports.max(1);
        let Some((g, t)) = self.task[b] else {
            return (0, ports);
        };
        let Some(tasks) = self.sharers.get(&(g, m)) else {
            return (0, ports);
        };
        let Some(rank) = tasks.iter().position(|&x| x == t) else {
            return (0, ports);
        };
        let share = (ports / tasks.len() as u32).max(1);
        ((rank as u32 * share) % ports, share)
    }

    /// The dataflow group and task of block `b`, if it is in a task.
    pub fn task_of(&self, b: BlockId) -> Option<(usize, usize)> {
        self.task[b]
    }

    /// Whether the first task of a group of `k` shares a memory of more
    /// than one port with another task of the group.
    pub fn first_task_shares(&self, k: &Kernel) -> bool {
        (self.sharers.iter())
            .any(|(&(_, m), tasks)| tasks.len() > 1 && tasks[0] == 0 && k.memories[m].ports > 1)
    }
}

/// A DMA tag memref (`memref.alloc` used as the tag of `dma_start`/
/// `dma_wait`): one completion counter per element, no memory.
#[derive(Clone, Debug)]
pub struct Tag {
    pub name: String,
    /// Elements (one counter each).
    pub slots: u64,
    pub shape: Vec<u64>,
    pub loc: Attr,
}

/// A transfer `dma_start` queues: `count` words from `src` to `dst`,
/// starting at word addresses `src_address` and `dst_address`. With a
/// stride `(stride, per_stride)`, the side in the slower memory space
/// (the lower space number; the source when both are equal) moves
/// `per_stride` words every `stride` words; the other side is contiguous.
#[derive(Clone, Debug)]
pub struct Transfer {
    pub src: MemId,
    pub dst: MemId,
    pub src_address: Val,
    pub dst_address: Val,
    pub count: Val,
    pub stride: Option<(Val, Val)>,
    /// Whether the source is the strided (slower) side.
    pub src_is_slow: bool,
}

/// `affine.dma_start` (with its transfer) or `affine.dma_wait` (without)
/// on element `tag_index` (row-major) of tag memref `tag`.
#[derive(Clone, Debug)]
pub struct Dma {
    pub tag: TagId,
    pub tag_index: Val,
    pub transfer: Option<Transfer>,
    pub loc: Attr,
    pub source: OpId,
}

/// The whole kernel.
#[derive(Clone, Debug)]
pub struct Kernel {
    pub name: String,
    pub loc: Attr,
    pub args: Vec<Arg>,
    pub memories: Vec<Memory>,
    /// Constants: value (two's complement, low `width` bits) and width.
    pub consts: Vec<(u128, u32)>,
    pub nodes: Vec<Node>,
    /// The nodes of each block, in program order.
    pub blocks: Vec<Vec<NodeId>>,
    pub loops: Vec<Loop>,
    /// DMA tag memrefs and DMA operations.
    pub tags: Vec<Tag>,
    pub dmas: Vec<Dma>,
    pub calls: Vec<Call>,
    pub body: Vec<Item>,
    /// Widths of the scalar results.
    pub results: Vec<u32>,
    /// Each scalar result's position among the input function's results
    /// (the buffers it returns are memory arguments): its port is
    /// `result<position>`.
    pub result_positions: Vec<usize>,
    /// The returned values.
    pub returned: Vec<Val>,
    /// The width every `index` value gets (from range analysis).
    pub index_width: u32,
    /// Functional units per library class (`[limits]`); classes not
    /// listed get one unit per operation.
    pub limits: Vec<(String, u32)>,
    /// Word accesses of packed memories that stand for several accesses
    /// of the input: the ops of all but the first (the node's `source`).
    pub combined: FxHashMap<NodeId, Vec<OpId>>,
    /// The groups of loop nests that may run at once (`front/dataflow.rs`),
    /// and those that do (scheduling keeps them where they are faster).
    pub groups: Vec<Group>,
    pub dataflow: Vec<Group>,
    /// The work a line buffer guards (`front/line_buffer.rs`).
    pub windows: Vec<WindowGuard>,
}

/// The nodes of a line buffer's body: its nest reads the rows and columns
/// before the first whole window too, so the body does the kernel's work
/// only where every loop of `from` has reached its value.
#[derive(Clone, Debug)]
pub struct WindowGuard {
    pub nodes: std::ops::Range<NodeId>,
    pub from: Vec<(LoopId, i64)>,
}

impl Kernel {
    /// Whether node `n` is, or stands for, an access made by input op
    /// `op`.
    pub fn stands_for(&self, n: NodeId, op: OpId) -> bool {
        self.nodes[n].source == op || self.combined.get(&n).is_some_and(|ops| ops.contains(&op))
    }

    /// The width of `v`.
    pub fn width(&self, v: Val) -> u32 {
        match v {
            Val::Node(n) => self.nodes[n].width,
            Val::Arg(i) => match &self.args[i] {
                Arg::Scalar(s) => s.width,
                Arg::Memory(_) => 0,
            },
            Val::Iv(_) => self.index_width,
            Val::Carried(l, k) => self.loops[l].carried_widths[k],
            Val::Const(c) => self.consts[c].1,
            Val::Result(c, i) => self.calls[c].results[i],
        }
    }

    /// The ports each memory may write through, up to its ports (which
    /// store takes which port is the schedule's binding, made later):
    /// the most stores to it in one block, as the binding gives an
    /// on-chip memory's stores the same first ports in every slot; where
    /// nests run at once, whose tasks take ports of their own, all its
    /// stores.
    pub fn stores_per_memory(&self) -> Vec<u32> {
        let mut total = vec![0u32; self.memories.len()];
        let mut in_block: FxHashMap<(MemId, BlockId), u32> = FxHashMap::default();
        for n in &self.nodes {
            if let Op::Store(m) = n.op {
                total[m] = total[m].saturating_add(1);
                *in_block.entry((m, n.block)).or_insert(0) += 1;
            }
        }
        if !self.dataflow.is_empty() {
            return total;
        }
        let mut most = vec![0u32; self.memories.len()];
        for ((m, _), c) in in_block {
            most[m] = most[m].max(c);
        }
        most
    }

    /// The constant value of `v` as a signed integer, when it is one.
    pub fn const_value(&self, v: Val) -> Option<i128> {
        let Val::Const(c) = v else { return None };
        let (bits, w) = self.consts[c];
        Some(sign_extend(bits, w))
    }

    /// The scalar arguments with their positions.
    pub fn scalars(&self) -> impl Iterator<Item = (usize, &Scalar)> {
        self.args.iter().enumerate().filter_map(|(i, a)| match a {
            Arg::Scalar(s) => Some((i, s)),
            Arg::Memory(_) => None,
        })
    }

    /// The pipelined loop whose iterations step loop `l`'s counter: `l`
    /// itself, or the loop it is flattened into.
    pub fn counter_owner(&self, l: LoopId) -> LoopId {
        self.loops
            .iter()
            .position(|o| o.flat.contains(&l))
            .unwrap_or(l)
    }

    /// The limit on units of library class `class`, if any.
    pub fn limit(&self, class: &str) -> Option<u32> {
        self.limits.iter().find(|(c, _)| c == class).map(|x| x.1)
    }

    /// The limited class whose units node `n` shares, with its limit: an
    /// operation of a class with a `[limits]` entry, except memory
    /// accesses, multiplications by constants (shifts and adds, not
    /// multipliers) and float operations in another format than the
    /// class's first.
    pub fn limited(&self, n: NodeId) -> Option<(&'static str, u32)> {
        let node = &self.nodes[n];
        if node.op.memory().is_some()
            || (node.op == Op::Mul && node.args.iter().any(|&a| self.const_value(a).is_some()))
        {
            return None;
        }
        let class = crate::model::target::library::class_of(node.op);
        let limit = self.limit(class)?;
        if let Op::Float(o) = node.op {
            // A unit computes in one format: operations in another format
            // than the class's first keep units of their own.
            let first = self.nodes.iter().find_map(|m| match m.op {
                Op::Float(p) if crate::model::target::library::class_of(m.op) == class => {
                    Some(p.format)
                }
                _ => None,
            });
            if first != Some(o.format) {
                return None;
            }
        }
        Some((class, limit))
    }
    /// Every value the kernel reads outside node arguments: loop bounds,
    /// initial and yielded values, exit tests, call operands, DMA operands,
    /// the returned values.
    pub fn other_vals(&self) -> Vec<Val> {
        let mut out = Vec::new();
        for l in &self.loops {
            out.extend(&l.lower.operands);
            out.extend(&l.upper.operands);
            out.extend(&l.inits);
            out.extend(&l.yields);
            out.extend(l.test.map(|t| t.cond));
        }
        for c in &self.calls {
            out.extend(&c.scalars);
        }
        for d in &self.dmas {
            out.push(d.tag_index);
            if let Some(t) = &d.transfer {
                out.extend([t.src_address, t.dst_address, t.count]);
                if let Some((a, b)) = t.stride {
                    out.extend([a, b]);
                }
            }
        }
        out.extend(&self.returned);
        out
    }

    /// Calls `f` on every value the kernel reads (node arguments included;
    /// the same places as [`Kernel::other_vals`] besides).
    pub fn each_val_mut(&mut self, f: &mut dyn FnMut(&mut Val)) {
        for n in &mut self.nodes {
            n.args.iter_mut().for_each(&mut *f);
        }
        for l in &mut self.loops {
            l.lower.operands.iter_mut().for_each(&mut *f);
            l.upper.operands.iter_mut().for_each(&mut *f);
            l.inits.iter_mut().for_each(&mut *f);
            l.yields.iter_mut().for_each(&mut *f);
            if let Some(t) = &mut l.test {
                f(&mut t.cond);
            }
        }
        for c in &mut self.calls {
            c.scalars.iter_mut().for_each(&mut *f);
        }
        for d in &mut self.dmas {
            f(&mut d.tag_index);
            if let Some(t) = &mut d.transfer {
                f(&mut t.src_address);
                f(&mut t.dst_address);
                f(&mut t.count);
                if let Some((a, b)) = &mut t.stride {
                    f(a);
                    f(b);
                }
            }
        }
        self.returned.iter_mut().for_each(f);
    }

    /// The constant `v` at width `w`, interned.
    pub fn constant(&mut self, v: i128, w: u32) -> Val {
        let bits = truncate(v, w);
        match self.consts.iter().position(|&c| c == (bits, w)) {
            Some(i) => Val::Const(i),
            None => {
                self.consts.push((bits, w));
                Val::Const(self.consts.len() - 1)
            }
        }
    }

    /// Removes the nodes no block holds and renumbers the rest.
    pub fn compact(&mut self) {
        let held: FxHashSet<NodeId> = self.blocks.iter().flatten().copied().collect();
        let mut map: Vec<Option<NodeId>> = vec![None; self.nodes.len()];
        let mut nodes = Vec::with_capacity(held.len());
        for (i, n) in self.nodes.iter().enumerate() {
            if held.contains(&i) {
                map[i] = Some(nodes.len());
                nodes.push(n.clone());
            }
        }
        self.nodes = nodes;
        for b in &mut self.blocks {
            for n in b.iter_mut() {
                *n = map[*n].expect("held node");
            }
        }
        self.each_val_mut(&mut |v| {
            if let Val::Node(n) = *v {
                *v = Val::Node(map[n].unwrap_or(n));
            }
        });
        self.combined = std::mem::take(&mut self.combined)
            .into_iter()
            .filter_map(|(n, ops)| Some((map[n]?, ops)))
            .collect();
    }

    /// The predicate of access `n` (a load's second operand, a store's
    /// third), if it has one.
    pub fn access_predicate(&self, n: NodeId) -> Option<Val> {
        let node = &self.nodes[n];
        match node.op {
            Op::Load(_) => node.args.get(1).copied(),
            Op::Store(_) => node.args.get(2).copied(),
            _ => None,
        }
    }

    /// The nodes of the body of loop `l` (innermost loops), in
    /// program order.
    pub fn body_nodes(&self, l: LoopId) -> Vec<NodeId> {
        self.loops[l]
            .body
            .iter()
            .flat_map(|it| match it {
                Item::Block(b) => self.blocks[*b].clone(),
                Item::Loop(_) | Item::Dma(_) | Item::Call(_) => Vec::new(),
            })
            .collect()
    }

    /// The pipelined loop whose body is block `b`, if any.
    pub fn pipelined_loop_of(&self, b: BlockId) -> Option<LoopId> {
        self.loops
            .iter()
            .position(|l| l.pipelined && l.body.contains(&Item::Block(b)))
    }

    /// The group and task of body item `i`, if it is a task.
    pub fn task_at(&self, i: usize) -> Option<(usize, usize)> {
        self.dataflow
            .iter()
            .enumerate()
            .find(|(_, g)| g.items().contains(&i))
            .map(|(gi, g)| (gi, i - g.first))
    }

    /// The body item each loop is in (none for loops of no item, such as
    /// those unrolled away).
    pub fn top_item_of_loops(&self) -> Vec<Option<usize>> {
        fn walk(k: &Kernel, items: &[Item], top: usize, out: &mut Vec<Option<usize>>) {
            for it in items {
                if let Item::Loop(l) = *it {
                    out[l] = Some(top);
                    for &m in &k.loops[l].flat {
                        out[m] = Some(top);
                    }
                    walk(k, &k.loops[l].body, top, out);
                }
            }
        }
        let mut out = vec![None; self.loops.len()];
        for (i, it) in self.body.iter().enumerate() {
            walk(self, std::slice::from_ref(it), i, &mut out);
        }
        out
    }

    /// How the tasks of the dataflow groups share the ports of memories.
    pub fn port_shares(&self) -> PortShares {
        let tops = self.top_item_of_blocks();
        let task: Vec<Option<(usize, usize)>> = tops
            .iter()
            .map(|top| top.and_then(|i| self.task_at(i)))
            .collect();
        let mut sharers: FxHashMap<(usize, MemId), Vec<usize>> = FxHashMap::default();
        for n in &self.nodes {
            let (Some(m), Some((g, t))) = (n.op.memory(), task[n.block]) else {
                continue;
            };
            if self.dataflow[g].exclusive == Some(t) {
                continue;
            }
            let tasks = sharers.entry((g, m)).or_default();
            if !tasks.contains(&t) {
                tasks.push(t);
            }
        }
        for tasks in sharers.values_mut() {
            tasks.sort_unstable();
        }
        PortShares { task, sharers }
    }

    /// The body item each block is in.
    pub fn top_item_of_blocks(&self) -> Vec<Option<usize>> {
        fn walk(k: &Kernel, items: &[Item], top: usize, out: &mut Vec<Option<usize>>) {
            for it in items {
                match *it {
                    Item::Block(b) => out[b] = Some(top),
                    Item::Loop(l) => walk(k, &k.loops[l].body, top, out),
                    Item::Call(_) | Item::Dma(_) => {}
                }
            }
        }
        let mut out = vec![None; self.blocks.len()];
        for (i, it) in self.body.iter().enumerate() {
            walk(self, std::slice::from_ref(it), i, &mut out);
        }
        out
    }

    /// The loops in pre-order (outer before inner; a flattened nest's
    /// loops after the loop they are folded into).
    pub fn loops_in_order(&self) -> Vec<LoopId> {
        fn walk(k: &Kernel, items: &[Item], out: &mut Vec<LoopId>) {
            for it in items {
                if let Item::Loop(l) = *it {
                    out.push(l);
                    out.extend(k.loops[l].flat.iter().copied());
                    walk(k, &k.loops[l].body, out);
                }
            }
        }
        let mut out = Vec::new();
        walk(self, &self.body, &mut out);
        out
    }
}

/// The signed value of the low `w` bits of `bits`.
pub fn sign_extend(bits: u128, w: u32) -> i128 {
    if w == 0 {
        return 0;
    }
    if w >= 128 {
        return bits as i128;
    }
    let shift = 128 - w;
    ((bits << shift) as i128) >> shift
}

/// The low `w` bits of `v`.
pub fn truncate(v: i128, w: u32) -> u128 {
    if w >= 128 {
        v as u128
    } else {
        (v as u128) & ((1u128 << w) - 1)
    }
}
