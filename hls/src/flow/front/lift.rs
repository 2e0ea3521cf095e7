//! Lifting a `func.func` body into the kernel model: `affine.for` loops
//! (bounds, steps, `iter_args`) become [`Loop`]s, straight-line integer
//! and `index` arithmetic becomes datapath [`Node`]s in blocks, memory
//! accesses become loads and stores of row-major word addresses.
//! `affine.if`/`scf.if` are if-converted: both branches are computed,
//! their results selected, their memory accesses predicated; a loop in a
//! branch gets one more upper bound that makes it run no iteration when
//! the branch is not taken (an `scf.while` one more term in its exit
//! test). `scf.for` with `index` or integer bounds and a constant step is
//! a loop like `affine.for`;
//! `scf.while` (`while_loop.rs`) a loop with an exit test; constant
//! globals (`rom.rs`) ROMs. Float operations are lifted by `float.rs`.
//! Any other operation is an error at that operation.

use super::line_buffer::WINDOW_GUARD;
use super::scf_unroll::{trips, Counter};
use super::signature::{memory_of, op_name_attr, scalar_width, signature, string_of};
use crate::model::directives::{Directives, Pipeline};
use crate::model::kernel::{
    Bound, Item, Kernel, Loop, LoopId, Node, NodeId, Op, Predicate, Val, WindowGuard, INDEX,
};
use rustc_hash::FxHashMap;
use silica_ir::affine::{AffineExpr, AffineMap};
use silica_ir::affine_flatten::flatten_linear;
use silica_ir::dialect::inherent_attr;
use silica_ir::format::segment_sizes;
use silica_ir::{Attr, AttrKind, Context, Diagnostic, Ir, OpId, ValueId};

/// The state of one lift.
pub(super) struct Lifter<'a> {
    pub ctx: &'a Context,
    pub ir: &'a Ir,
    pub k: Kernel,
    /// What each MLIR value is in the datapath.
    pub vals: FxHashMap<ValueId, Val>,
    /// Which memory each memref value is.
    pub mems: FxHashMap<ValueId, usize>,
    /// The banks of each partitioned array.
    parts: FxHashMap<ValueId, super::partition::Banked>,
    /// Which DMA tag each tag memref is, and the memrefs used as tags.
    pub tags: FxHashMap<ValueId, usize>,
    tag_memrefs: rustc_hash::FxHashSet<ValueId>,
    /// The names of DMA buffers without `hls.name`.
    buffer_names: FxHashMap<OpId, String>,
    pub consts: FxHashMap<(u128, u32), usize>,
    /// The ROM of each constant global already used (by symbol).
    pub globals: FxHashMap<String, usize>,
    /// The block nodes are appended to, if one is open.
    pub open: Option<usize>,
    pub loc: Attr,
    /// The op being lifted.
    pub source: OpId,
    /// The condition under which the ops being lifted run (inside
    /// if-converted branches).
    pub predicate: Option<Val>,
    pipeline: bool,
    directives: &'a Directives,
}

pub(super) type Res<T> = Result<T, Box<Diagnostic>>;

pub(super) fn err<T>(loc: Attr, msg: impl Into<String>) -> Res<T> {
    Err(Box::new(Diagnostic::error(loc, msg)))
}

/// Lifts `func` (named `top`); innermost loops are marked pipelined when
/// `pipeline` is set, or as a `pipeline` directive says.
pub fn lift_function(
    ctx: &mut Context,
    ir: &Ir,
    func: OpId,
    top: &str,
    pipeline: bool,
    directives: &Directives,
) -> Res<Kernel> {
    let loc = ir.op_loc(func);
    let Some(block) = ir.regions(func).next().and_then(|r| ir.entry_block(r)) else {
        return err(loc, "function has no body to synthesize");
    };
    let entry: Vec<ValueId> = ir.block_args(block).to_vec();
    let (args, memories, results, result_positions) = signature(ctx, ir, func, &entry)?;
    let ctx: &Context = ctx;
    let mut l = Lifter {
        ctx,
        ir,
        k: Kernel {
            name: top.to_string(),
            loc,
            args,
            memories,
            consts: Vec::new(),
            nodes: Vec::new(),
            blocks: Vec::new(),
            loops: Vec::new(),
            tags: Vec::new(),
            dmas: Vec::new(),
            calls: Vec::new(),
            body: Vec::new(),
            results,
            result_positions,
            returned: Vec::new(),
            index_width: INDEX,
            limits: directives
                .limits
                .iter()
                .map(|(c, s)| (c.clone(), s.value))
                .collect(),
            combined: FxHashMap::default(),
            groups: Vec::new(),
            dataflow: Vec::new(),
            windows: Vec::new(),
        },
        vals: FxHashMap::default(),
        mems: FxHashMap::default(),
        parts: FxHashMap::default(),
        tags: FxHashMap::default(),
        tag_memrefs: super::dma::tag_memrefs(ctx, ir, func),
        buffer_names: super::dma::buffer_names(ctx, ir, func),
        consts: FxHashMap::default(),
        globals: FxHashMap::default(),
        open: None,
        loc,
        source: func,
        predicate: None,
        pipeline,
        directives,
    };
    for (i, &v) in entry.iter().enumerate() {
        match l.k.args[i] {
            crate::model::kernel::Arg::Scalar(_) => {
                l.vals.insert(v, Val::Arg(i));
            }
            crate::model::kernel::Arg::Memory(m) => {
                l.mems.insert(v, m);
            }
        }
    }
    let mut body = Vec::new();
    let mut returned = None;
    l.lift_block(block, &mut body, top, &mut returned)?;
    l.k.body = body;
    l.k.returned = returned.unwrap_or_default();
    Ok(l.k)
}

impl Lifter<'_> {
    /// Appends a node to the open block (opening one in `items`).
    pub fn node(&mut self, items: &mut Vec<Item>, op: Op, args: Vec<Val>, width: u32) -> Val {
        let block = match self.open {
            Some(b) => b,
            None => {
                let b = self.k.blocks.len();
                self.k.blocks.push(Vec::new());
                items.push(Item::Block(b));
                self.open = Some(b);
                b
            }
        };
        let id: NodeId = self.k.nodes.len();
        self.k.nodes.push(Node {
            op,
            args,
            width,
            loc: self.loc,
            block,
            source: self.source,
        });
        self.k.blocks[block].push(id);
        Val::Node(id)
    }

    /// The datapath value of an MLIR value.
    pub(super) fn val(&self, v: ValueId) -> Res<Val> {
        match self.vals.get(&v) {
            Some(&x) => Ok(x),
            None => err(
                self.loc,
                "operand is not a value silica hls can compute (a memref used as data?)",
            ),
        }
    }

    pub(super) fn mem(&self, v: ValueId) -> Res<usize> {
        match self.mems.get(&v) {
            Some(&m) => Ok(m),
            None if self.tags.contains_key(&v) => err(
                self.loc,
                "a DMA tag memref can only be used by 'affine.dma_start' and 'affine.dma_wait'",
            ),
            None => err(
                self.loc,
                "memref operand is not an argument or an allocation of the function",
            ),
        }
    }

    pub(super) fn result_width(&self, op: OpId) -> Res<u32> {
        self.result_width_of(self.ir.result(op, 0))
    }

    pub(super) fn result_width_of(&self, v: ValueId) -> Res<u32> {
        let t = self.ir.value_type(v);
        scalar_width(self.ctx, t).ok_or_else(|| {
            Box::new(Diagnostic::error(
                self.loc,
                format!(
                    "result type '{}' is not supported; silica hls computes integers, index, f32 and f64",
                    silica_ir::printer::type_to_string(self.ctx, t)
                ),
            ))
        })
    }

    /// The widths of a loop's carried values, or an error at the loop for
    /// the first whose type the flow does not compute.
    pub(super) fn carried_widths(&self, values: impl Iterator<Item = ValueId>) -> Res<Vec<u32>> {
        values
            .map(|v| {
                let t = self.ir.value_type(v);
                scalar_width(self.ctx, t).ok_or_else(|| {
                    Box::new(Diagnostic::error(
                        self.loc,
                        format!(
                            "loop-carried value of type '{}' is not supported",
                            silica_ir::printer::type_to_string(self.ctx, t)
                        ),
                    ))
                })
            })
            .collect()
    }

    /// Lifts the ops of `block` into `items`; `path` names loops.
    pub(super) fn lift_block(
        &mut self,
        block: silica_ir::BlockId,
        items: &mut Vec<Item>,
        path: &str,
        returned: &mut Option<Vec<Val>>,
    ) -> Res<Option<Vec<Val>>> {
        let mut loop_position = 0;
        let ops: Vec<OpId> = self.ir.block_ops(block).collect();
        for op in ops {
            self.loc = self.ir.op_loc(op);
            self.source = op;
            let name = self.ctx.str(self.ir.op_name(op)).to_string();
            let operands: Vec<ValueId> = self.ir.operands(op).collect();
            match name.as_str() {
                "affine.if" | "scf.if" => self.lift_if(op, &name, &operands, items, path)?,
                "scf.for" => {
                    let label =
                        string_of(self.ctx, inherent_attr(self.ctx, self.ir, op, "hls.label"))
                            .unwrap_or_else(|| loop_position.to_string());
                    loop_position += 1;
                    self.lift_for(op, items, &format!("{path}/{label}"))?;
                }
                "affine.for" => {
                    let label =
                        string_of(self.ctx, inherent_attr(self.ctx, self.ir, op, "hls.label"))
                            .unwrap_or_else(|| loop_position.to_string());
                    // A copy loop (`buffer.rs`) takes no position.
                    loop_position += usize::from(!super::is_copy_loop(self.ctx, self.ir, op));
                    // A loop with nothing to do is no loop.
                    if !is_idle_loop(self.ctx, self.ir, op) {
                        self.lift_for(op, items, &format!("{path}/{label}"))?;
                    }
                }
                "scf.while" => {
                    let label =
                        string_of(self.ctx, inherent_attr(self.ctx, self.ir, op, "hls.label"))
                            .unwrap_or_else(|| loop_position.to_string());
                    loop_position += 1;
                    self.lift_while(op, items, &format!("{path}/{label}"))?;
                }
                // `scf.condition` gives the condition, then what it forwards.
                "affine.yield" | "scf.yield" | "scf.condition" => {
                    let vals = operands.iter().map(|&v| self.val(v)).collect::<Res<_>>()?;
                    return Ok(Some(vals));
                }
                "func.return" => {
                    let vals = operands.iter().map(|&v| self.val(v)).collect::<Res<_>>()?;
                    *returned = Some(vals);
                }
                "memref.alloc" | "memref.alloca" => {
                    if !operands.is_empty() {
                        return err(self.loc, format!("'{name}' with dynamic sizes is not supported; silica hls needs static shapes"));
                    }
                    let result = self.ir.result(op, 0);
                    let m = self.k.memories.len();
                    let mem_name = op_name_attr(self.ctx, self.ir, op)
                        .or_else(|| self.buffer_names.get(&op).cloned())
                        .unwrap_or_else(|| format!("mem{m}"));
                    if self.tag_memrefs.contains(&result) {
                        let shape = super::dma::tag_shape(self.ctx, self.ir.value_type(result))
                            .ok_or_else(|| {
                                Box::new(Diagnostic::error(
                                    self.loc,
                                    "a DMA tag memref needs a static shape",
                                ))
                            })?;
                        self.lift_tag(result, format!("tag{}", self.k.tags.len()), shape);
                        continue;
                    }
                    let mem = memory_of(
                        self.ctx,
                        self.ir.value_type(result),
                        mem_name,
                        None,
                        self.loc,
                    )
                    .map_err(|msg| Box::new(Diagnostic::error(self.loc, msg)))?;
                    let mem = self.narrowed_index(result, mem);
                    let partition = self
                        .directives
                        .arrays
                        .get(&mem.name)
                        .and_then(|a| a.partition.as_ref())
                        .and_then(|p| super::partition::plan(&mem.shape, &p.value).ok());
                    match partition {
                        Some(plan) => {
                            let mut banks = Vec::new();
                            for b in 0..plan.banks {
                                let mut bank = mem.clone();
                                bank.name = format!("{}_{b}", mem.name);
                                bank.shape.clone_from(&plan.bank_shape);
                                bank.bank_of = Some(mem.name.clone());
                                banks.push(self.k.memories.len());
                                self.k.memories.push(bank);
                            }
                            self.parts
                                .insert(result, super::partition::Banked { plan, banks });
                        }
                        None => {
                            self.k.memories.push(mem);
                            self.mems.insert(result, m);
                        }
                    }
                }
                "func.call" => self.lift_call(op, items)?,
                "memref.get_global" => {
                    let m = self.global_memory(op)?;
                    self.mems.insert(self.ir.result(op, 0), m);
                }
                "memref.dealloc" => {}
                "affine.dma_start" | "affine.dma_wait" => {
                    self.lift_dma(op, &name, &operands, items)?
                }
                _ if self.lift_composite(op, &name, &operands, items)? => {}
                _ => {
                    let v = self.lift_op(op, &name, &operands, items)?;
                    if let Some(v) = v {
                        self.vals.insert(self.ir.result(op, 0), v);
                    }
                }
            }
        }
        Ok(None)
    }

    /// An `affine.for` as a loop item.
    fn lift_for(&mut self, op: OpId, items: &mut Vec<Item>, path: &str) -> Res<()> {
        let ctx = self.ctx;
        let operands: Vec<ValueId> = self.ir.operands(op).collect();
        let mut iv_width = None;
        let (lmap, umap, step, lower_ops, upper_ops, first_init) = if ctx.str(self.ir.op_name(op))
            == "scf.for"
        {
            let bounds = self.scf_bounds(items, &operands)?;
            iv_width = bounds.1;
            bounds.0
        } else {
            let seg = segment_sizes(ctx, self.ir, op).unwrap_or_default();
            let (nl, nu) = (
                seg.first().copied().unwrap_or(0),
                seg.get(1).copied().unwrap_or(0),
            );
            let map =
                |key: &str| match inherent_attr(ctx, self.ir, op, key).map(|a| ctx.attr_kind(a)) {
                    Some(AttrKind::AffineMap(m)) => Some(m.clone()),
                    _ => None,
                };
            let (Some(lmap), Some(umap)) = (map("lowerBoundMap"), map("upperBoundMap")) else {
                return err(self.loc, "'affine.for' without bound maps");
            };
            let step = match inherent_attr(ctx, self.ir, op, "step").map(|a| ctx.attr_kind(a)) {
                Some(AttrKind::Integer { value, .. }) => i64::try_from(value).unwrap_or(1),
                _ => 1,
            };
            let lower_ops = operands[..nl]
                .iter()
                .map(|&v| self.val(v))
                .collect::<Res<Vec<_>>>()?;
            let upper_ops = operands[nl..nl + nu]
                .iter()
                .map(|&v| self.val(v))
                .collect::<Res<Vec<_>>>()?;
            (lmap, umap, step, lower_ops, upper_ops, nl + nu)
        };
        let inits = operands[first_init..]
            .iter()
            .map(|&v| self.val(v))
            .collect::<Res<Vec<_>>>()?;
        let carried_widths = self.carried_widths(self.ir.results(op))?;
        // Inside an if-converted branch the loop runs no iteration when
        // the branch is not taken.
        let (umap, upper_ops) = match self.predicate {
            Some(taken) => self.guard_upper(items, taken, (&lmap, &lower_ops), umap, upper_ops)?,
            None => (umap, upper_ops),
        };
        let id = self.k.loops.len();
        self.k.loops.push(Loop {
            op,
            loc: self.loc,
            path: path.to_string(),
            lower: Bound {
                map: lmap,
                operands: lower_ops,
            },
            upper: Bound {
                map: umap,
                operands: upper_ops,
            },
            step,
            inits,
            carried_widths,
            yields: Vec::new(),
            body: Vec::new(),
            pipelined: false,
            target_ii: None,
            flat: Vec::new(),
            sunk: Vec::new(),
            test: None,
        });
        let Some(block) = self
            .ir
            .regions(op)
            .next()
            .and_then(|r| self.ir.entry_block(r))
        else {
            return err(self.loc, "'affine.for' without a body");
        };
        let args: Vec<ValueId> = self.ir.block_args(block).to_vec();
        for (i, &a) in args.iter().enumerate() {
            let v = if i == 0 {
                Val::Iv(id)
            } else {
                Val::Carried(id, i - 1)
            };
            self.vals.insert(a, v);
        }
        for (k, r) in self.ir.results(op).enumerate() {
            self.vals.insert(r, Val::Carried(id, k));
        }
        items.push(Item::Loop(id));
        self.open = None;
        let mut body = Vec::new();
        if let (Some(w), Some(&iv)) = (iv_width, args.first()) {
            // The counter counts in `index`; the body sees it at the
            // loop's integer type.
            let narrowed = self.resize(&mut body, Op::SExt, Val::Iv(id), w);
            self.vals.insert(iv, narrowed);
        }
        let mut no_return = None;
        let loc = self.loc;
        let outer = self.predicate.take();
        let yields = self.lift_block(block, &mut body, path, &mut no_return);
        self.predicate = outer;
        let yields = yields?.unwrap_or_default();
        self.open = None;
        self.loc = loc;
        let innermost = body.iter().all(|it| matches!(it, Item::Block(_)));
        // A `pipeline` directive overrides the default.
        let wanted = self
            .directives
            .loops
            .get(&op)
            .and_then(|d| d.pipeline.as_ref())
            .map(|s| s.value);
        let l = &mut self.k.loops[id];
        l.yields = yields;
        l.body = body;
        l.pipelined = innermost
            && match wanted {
                Some(Pipeline::Off) => false,
                Some(_) => true,
                None => self.pipeline,
            };
        if let Some(Pipeline::Ii(n)) = wanted {
            l.target_ii = Some(n);
        }
        Ok(())
    }

    /// The bounds of an `scf.for` (lower and upper bound values, a
    /// positive constant step) as identity maps, and where its initial
    /// values start among its operands; with the width of its induction
    /// variable when it counts in an integer type rather than `index`
    /// (its bounds then sign-extended to `index` before the loop, as
    /// `scf.for` compares them signed, or zero-extended for `scf.for
    /// unsigned`). A loop whose constant bounds take the counter out of
    /// its type (software wraps it around) is an error.
    #[allow(clippy::type_complexity)]
    fn scf_bounds(
        &mut self,
        items: &mut Vec<Item>,
        operands: &[ValueId],
    ) -> Res<(
        (AffineMap, AffineMap, i64, Vec<Val>, Vec<Val>, usize),
        Option<u32>,
    )> {
        if operands.len() < 3 {
            return err(self.loc, "'scf.for' without bounds and step");
        }
        let t = self.ir.value_type(operands[0]);
        let iv_width = match self.ctx.type_kind(t) {
            silica_ir::TypeKind::Index => None,
            _ => Some(scalar_width(self.ctx, t).ok_or_else(|| {
                Box::new(Diagnostic::error(
                    self.loc,
                    "'scf.for' needs index or integer bounds",
                ))
            })?),
        };
        let Some(counter) = Counter::of(self.ctx, self.ir, self.source) else {
            return err(self.loc, "'scf.for' needs index or integer bounds");
        };
        let (mut lower, mut upper) = (self.val(operands[0])?, self.val(operands[1])?);
        let constant_bound = |v: Val| self.k.const_value(v).map(|c| counter.value(c));
        if counter.unsigned && iv_width.is_none() {
            let known = [lower, upper]
                .map(|v| self.k.const_value(v).filter(|&c| c >= 0))
                .iter()
                .all(Option::is_some);
            if !known {
                return err(
                    self.loc,
                    "'scf.for unsigned' over index is supported with non-negative constant bounds only",
                );
            }
        }
        if let (Some(l), Some(u), Some(s)) = (
            constant_bound(lower),
            constant_bound(upper),
            constant_bound(self.val(operands[2])?),
        ) {
            let t = trips(l, u, s);
            if s > 0 && t > 0 && !counter.fits(l + t * s) {
                return err(
                    self.loc,
                    format!(
                        "the counter of this 'scf.for' leaves its {}-bit type after its last iteration ({} + {t} x {s}), where software wraps it around; silica hls needs a counter that stays in range",
                        counter.width, l
                    ),
                );
            }
        }
        if iv_width.is_some() {
            let extend = if counter.unsigned { Op::ZExt } else { Op::SExt };
            for bound in [&mut lower, &mut upper] {
                *bound = match self.k.const_value(*bound) {
                    Some(c) => self.constant(counter.value(c), INDEX),
                    None => self.resize(items, extend, *bound, INDEX),
                };
            }
        }
        let step = self
            .k
            .const_value(self.val(operands[2])?)
            .map(|c| counter.value(c))
            .and_then(|c| i64::try_from(c).ok())
            .filter(|&c| c > 0);
        let Some(step) = step else {
            return err(self.loc, "'scf.for' needs a constant step");
        };
        let identity = AffineMap {
            num_dims: 1,
            num_symbols: 0,
            results: vec![AffineExpr::Dim(0)].into(),
        };
        Ok((
            (
                identity.clone(),
                identity,
                step,
                vec![lower],
                vec![upper],
                3,
            ),
            iv_width,
        ))
    }

    /// The upper bound of a loop inside an if-converted branch: one more
    /// result, the loop's first upper bound when the branch is taken and
    /// its first lower bound otherwise, so the loop runs as written when
    /// `taken` holds and not at all when it does not.
    fn guard_upper(
        &mut self,
        items: &mut Vec<Item>,
        taken: Val,
        (lmap, lower_ops): (&AffineMap, &[Val]),
        umap: AffineMap,
        mut upper_ops: Vec<Val>,
    ) -> Res<(AffineMap, Vec<Val>)> {
        let (Some(first_lower), Some(first_upper)) = (lmap.results.first(), umap.results.first())
        else {
            return err(self.loc, "loop without bounds");
        };
        let lower = self.apply(items, first_lower, lmap, lower_ops)?;
        let upper = self.apply(items, first_upper, &umap, &upper_ops)?;
        let guard = self.node(items, Op::Mux, vec![taken, upper, lower], INDEX);
        upper_ops.push(guard);
        let mut results = umap.results.to_vec();
        results.push(AffineExpr::Symbol(umap.num_symbols));
        Ok((
            AffineMap {
                num_dims: umap.num_dims,
                num_symbols: umap.num_symbols + 1,
                results: results.into(),
            },
            upper_ops,
        ))
    }

    /// The counters and their first values a line buffer's guard
    /// (`line_buffer.rs`, marked `hls.window`: `d_k - c >= 0` on loop
    /// counters) asks for, where `op` is one.
    fn window_guard(&self, op: OpId, operands: &[ValueId]) -> Option<Vec<(LoopId, i64)>> {
        inherent_attr(self.ctx, self.ir, op, WINDOW_GUARD)?;
        let set = match inherent_attr(self.ctx, self.ir, op, "condition")
            .map(|a| self.ctx.attr_kind(a))
        {
            Some(AttrKind::IntegerSet(set)) => set.clone(),
            _ => return None,
        };
        let mut from = Vec::new();
        for e in set.constraints.iter() {
            let coefficients = flatten_linear(e, set.num_dims, set.num_symbols)?;
            let (&constant, vars) = coefficients.split_last()?;
            let k = vars.iter().position(|&c| c == 1)?;
            match self.vals.get(operands.get(k)?) {
                Some(Val::Iv(l)) => from.push((*l, -constant)),
                _ => return None,
            }
        }
        Some(from)
    }

    /// If-conversion of `affine.if`/`scf.if`: each branch lifted under its
    /// predicate, results selected by the condition.
    fn lift_if(
        &mut self,
        op: OpId,
        name: &str,
        operands: &[ValueId],
        items: &mut Vec<Item>,
        path: &str,
    ) -> Res<()> {
        let cond = if name == "scf.if" {
            self.val(operands[0])?
        } else {
            let set = match inherent_attr(self.ctx, self.ir, op, "condition")
                .map(|a| self.ctx.attr_kind(a))
            {
                Some(AttrKind::IntegerSet(set)) => set.clone(),
                _ => return err(self.loc, "'affine.if' without a condition"),
            };
            let vals = operands
                .iter()
                .map(|&v| self.val(v))
                .collect::<Res<Vec<_>>>()?;
            let map = AffineMap {
                num_dims: set.num_dims,
                num_symbols: set.num_symbols,
                results: Vec::new().into(),
            };
            let zero = self.constant(0, INDEX);
            let mut cond = self.constant(1, 1);
            for (e, &eq) in set.constraints.iter().zip(set.eq.iter()) {
                let v = self.apply(items, e, &map, &vals)?;
                let pred = if eq { Predicate::Eq } else { Predicate::Sge };
                let c = self.node(items, Op::Cmp(pred), vec![v, zero], 1);
                cond = if self.k.const_value(cond) == Some(-1) {
                    c
                } else {
                    self.node(items, Op::And, vec![cond, c], 1)
                };
            }
            cond
        };
        let outer = self.predicate;
        let one = self.constant(1, 1);
        let not_cond = self.node(items, Op::Xor, vec![cond, one], 1);
        let mut branch_yields = Vec::new();
        for (r, region) in self
            .ir
            .regions(op)
            .collect::<Vec<_>>()
            .into_iter()
            .enumerate()
        {
            let Some(block) = self.ir.entry_block(region) else {
                branch_yields.push(None);
                continue;
            };
            let guard = if r == 0 { cond } else { not_cond };
            self.predicate = Some(match outer {
                Some(p) => self.node(items, Op::And, vec![p, guard], 1),
                None => guard,
            });
            let mut no_return = None;
            let first = self.k.nodes.len();
            let yields = self.lift_block(block, items, path, &mut no_return)?;
            if r == 0 {
                if let Some(from) = self.window_guard(op, operands) {
                    let nodes = first..self.k.nodes.len();
                    self.k.windows.push(WindowGuard { nodes, from });
                }
            }
            branch_yields.push(yields);
            self.loc = self.ir.op_loc(op);
            self.source = op;
        }
        self.predicate = outer;
        let results: Vec<ValueId> = self.ir.results(op).collect();
        for (i, &r) in results.iter().enumerate() {
            let pick = |b: &Option<Vec<Val>>| b.as_ref().and_then(|v| v.get(i).copied());
            let (Some(t), Some(f)) = (
                branch_yields.first().and_then(pick),
                branch_yields.get(1).and_then(pick),
            ) else {
                return err(
                    self.loc,
                    format!("'{name}' with results needs both branches"),
                );
            };
            let w = self.result_width_of(r)?;
            let v = self.node(items, Op::Mux, vec![cond, t, f], w);
            self.vals.insert(r, v);
        }
        Ok(())
    }

    /// A datapath op; `None` for ops without a value result.
    fn lift_op(
        &mut self,
        op: OpId,
        name: &str,
        operands: &[ValueId],
        items: &mut Vec<Item>,
    ) -> Res<Option<Val>> {
        let binary = match name {
            "arith.addi" => Some(Op::Add),
            "arith.subi" => Some(Op::Sub),
            "arith.muli" => Some(Op::Mul),
            "arith.divsi" => Some(Op::DivS),
            "arith.divui" => Some(Op::DivU),
            "arith.remsi" => Some(Op::RemS),
            "arith.remui" => Some(Op::RemU),
            "arith.shli" => Some(Op::Shl),
            "arith.shrui" => Some(Op::ShrU),
            "arith.shrsi" => Some(Op::ShrS),
            "arith.andi" => Some(Op::And),
            "arith.ori" => Some(Op::Or),
            "arith.xori" => Some(Op::Xor),
            "arith.minsi" => Some(Op::MinS),
            "arith.maxsi" => Some(Op::MaxS),
            "arith.minui" => Some(Op::MinU),
            "arith.maxui" => Some(Op::MaxU),
            _ => None,
        };
        if let Some(v) = self.lift_float(op, name, operands, items)? {
            return Ok(Some(v));
        }
        if let Some(b) = binary {
            let w = self.result_width(op)?;
            let (a, c) = (self.val(operands[0])?, self.val(operands[1])?);
            if let Op::DivS | Op::DivU | Op::RemS | Op::RemU = b {
                return Ok(Some(self.divide(items, b, a, c, w)));
            }
            return Ok(Some(self.binary(items, b, a, c, w)));
        }
        match name {
            "arith.constant" => {
                if let Some(v) = self.float_constant(op) {
                    return Ok(Some(v));
                }
                let w = self.result_width(op)?;
                let value = match inherent_attr(self.ctx, self.ir, op, "value")
                    .map(|a| self.ctx.attr_kind(a))
                {
                    Some(AttrKind::Integer { value, .. }) => i128::try_from(value).ok(),
                    _ => None,
                };
                let Some(value) = value else {
                    return err(
                        self.loc,
                        "'arith.constant' must be an integer of at most 128 bits",
                    );
                };
                Ok(Some(self.constant(value, w)))
            }
            // Any value refines poison: zero.
            "ub.poison" => {
                let w = self.result_width(op)?;
                Ok(Some(self.constant(0, w)))
            }
            "arith.cmpi" => {
                let pred = match inherent_attr(self.ctx, self.ir, op, "predicate")
                    .map(|a| self.ctx.attr_kind(a))
                {
                    Some(AttrKind::Integer { value, .. }) => {
                        i64::try_from(value).ok().and_then(Predicate::from_code)
                    }
                    _ => None,
                };
                let Some(pred) = pred else {
                    return err(self.loc, "'arith.cmpi' without a predicate");
                };
                let (a, b) = (self.val(operands[0])?, self.val(operands[1])?);
                Ok(Some(self.node(items, Op::Cmp(pred), vec![a, b], 1)))
            }
            "arith.select" => {
                let w = self.result_width(op)?;
                let c = self.val(operands[0])?;
                if self.k.width(c) != 1 {
                    return err(self.loc, "'arith.select' needs an i1 condition");
                }
                let (a, b) = (self.val(operands[1])?, self.val(operands[2])?);
                Ok(Some(self.node(items, Op::Mux, vec![c, a, b], w)))
            }
            "math.absi" | "math.ctlz" | "math.cttz" | "math.ctpop" => {
                let w = self.result_width(op)?;
                let a = self.val(operands[0])?;
                let m = match name {
                    "math.absi" => Op::AbsI,
                    "math.ctlz" => Op::Ctlz,
                    "math.cttz" => Op::Cttz,
                    _ => Op::Ctpop,
                };
                Ok(Some(self.node(items, m, vec![a], w)))
            }
            "arith.extsi" | "arith.index_cast" => {
                let w = self.result_width(op)?;
                let a = self.val(operands[0])?;
                Ok(Some(self.resize(items, Op::SExt, a, w)))
            }
            "arith.extui" | "arith.trunci" | "arith.index_castui" => {
                let w = self.result_width(op)?;
                let a = self.val(operands[0])?;
                Ok(Some(self.resize(items, Op::ZExt, a, w)))
            }
            "affine.apply" => {
                let map = self.map_attr(op, "map")?;
                if map.results.len() != 1 {
                    return err(self.loc, "'affine.apply' needs a map with one result");
                }
                let vals = operands
                    .iter()
                    .map(|&v| self.val(v))
                    .collect::<Res<Vec<_>>>()?;
                Ok(Some(self.apply(items, &map.results[0], &map, &vals)?))
            }
            "affine.min" | "affine.max" => {
                let map = self.map_attr(op, "map")?;
                let vals = operands
                    .iter()
                    .map(|&v| self.val(v))
                    .collect::<Res<Vec<_>>>()?;
                let combine = if name == "affine.min" {
                    Op::MinS
                } else {
                    Op::MaxS
                };
                let mut acc: Option<Val> = None;
                for e in map.results.iter() {
                    let v = self.apply(items, e, &map, &vals)?;
                    acc = Some(match acc {
                        Some(a) => self.binary(items, combine, a, v, INDEX),
                        None => v,
                    });
                }
                match acc {
                    Some(v) => Ok(Some(v)),
                    None => err(self.loc, format!("'{name}' needs a map with results")),
                }
            }
            "affine.load" | "memref.load" if self.parts.contains_key(&operands[0]) => {
                let (map, vals) = self.access_indices(op, name, &operands[1..])?;
                let p = self.parts[&operands[0]].clone();
                let v = self.banked_access(items, &p, &map, &vals, None)?;
                Ok(v.map(|v| self.loaded_index(items, p.banks[0], v)))
            }
            "affine.store" | "memref.store" if self.parts.contains_key(&operands[1]) => {
                let p = self.parts[&operands[1]].clone();
                let data = self.val(operands[0])?;
                let data = self.stored_index(items, p.banks[0], data);
                let (map, vals) = self.access_indices(op, name, &operands[2..])?;
                self.banked_access(items, &p, &map, &vals, Some(data))
            }
            "affine.load" | "memref.load" => {
                let m = self.mem(operands[0])?;
                let address = if name == "affine.load" {
                    let map = self.map_attr(op, "map")?;
                    let vals = operands[1..]
                        .iter()
                        .map(|&v| self.val(v))
                        .collect::<Res<Vec<_>>>()?;
                    self.affine_address(items, m, &map, &vals)?
                } else {
                    let idx = operands[1..]
                        .iter()
                        .map(|&v| self.val(v))
                        .collect::<Res<Vec<_>>>()?;
                    self.linear_address(items, m, &idx)
                };
                let w = self.k.memories[m].element_width;
                let mut args = vec![address];
                args.extend(self.predicate);
                let v = self.node(items, Op::Load(m), args, w);
                Ok(Some(self.loaded_index(items, m, v)))
            }
            "affine.store" | "memref.store" => {
                let m = self.mem(operands[1])?;
                let data = self.val(operands[0])?;
                let data = self.stored_index(items, m, data);
                if self.k.memories[m].rom.is_some() {
                    return err(self.loc, format!("'{name}' into a constant global (a ROM)"));
                }
                let address = if name == "affine.store" {
                    let map = self.map_attr(op, "map")?;
                    let vals = operands[2..]
                        .iter()
                        .map(|&v| self.val(v))
                        .collect::<Res<Vec<_>>>()?;
                    self.affine_address(items, m, &map, &vals)?
                } else {
                    let idx = operands[2..]
                        .iter()
                        .map(|&v| self.val(v))
                        .collect::<Res<Vec<_>>>()?;
                    self.linear_address(items, m, &idx)
                };
                let mut args = vec![address, data];
                args.extend(self.predicate);
                self.node(items, Op::Store(m), args, 0);
                Ok(None)
            }
            _ if name.starts_with("linalg.") => err(
                self.loc,
                format!("'{name}' on tensors is not supported by silica hls: bufferize it to memrefs first (mlir-opt-22 --one-shot-bufferize)"),
            ),
            _ => err(self.loc, format!("'{name}' is not supported by silica hls")),
        }
    }

    /// The indices of an access as a map over values: an `affine.*`
    /// access's map, or the identity over a `memref.*` access's indices.
    fn access_indices(
        &self,
        op: OpId,
        name: &str,
        index_operands: &[ValueId],
    ) -> Res<(AffineMap, Vec<Val>)> {
        let vals = index_operands
            .iter()
            .map(|&v| self.val(v))
            .collect::<Res<Vec<_>>>()?;
        let map = if name.starts_with("affine.") {
            self.map_attr(op, "map")?
        } else {
            AffineMap {
                num_dims: vals.len() as u32,
                num_symbols: 0,
                results: (0..vals.len() as u32).map(AffineExpr::Dim).collect(),
            }
        };
        Ok((map, vals))
    }

    fn map_attr(&self, op: OpId, key: &str) -> Res<silica_ir::affine::AffineMap> {
        match inherent_attr(self.ctx, self.ir, op, key).map(|a| self.ctx.attr_kind(a)) {
            Some(AttrKind::AffineMap(m)) => Ok(m.clone()),
            _ => err(self.loc, format!("missing affine map '{key}'")),
        }
    }
}

/// Whether the `affine.for` `op` does nothing: no results, and nothing
/// in its body but loops that do nothing.
fn is_idle_loop(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    ir.num_results(op) == 0
        && silica_affine::for_op::body_ops(ir, op)
            .into_iter()
            .all(|inner| ctx.str(ir.op_name(inner)) == "affine.for" && is_idle_loop(ctx, ir, inner))
}
