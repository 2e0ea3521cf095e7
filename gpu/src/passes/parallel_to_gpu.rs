//! `convert-parallel-loops-to-gpu`: each outermost `scf.parallel` with a
//! `mapping` (`gpu-map-parallel-loops`) becomes a `gpu.launch`, as
//! MLIR's `ParallelToGpuLaunchLowering` builds it:
//! - a dimension mapped to a block or thread id is that id scaled by the
//!   step and offset by the lower bound (`affine.apply (d0)[s0, s1] ->
//!   (d0 * s0 + s1)`), and sets the launch's size in that dimension to
//!   the trip count (`(d0)[s0, s1] -> ((d0 - s0) ceildiv s1)` of the
//!   upper bound, lower bound and step, computed before the launch;
//!   constants defined inside the nest are copied out);
//! - a sequential dimension is an `scf.for` in the body;
//! - nested mapped `scf.parallel` ops in the body are spliced in, the
//!   other ops copied; side effects are allowed only in the innermost
//!   scope.
//!
//! An upper bound computed inside the nest (a tiled loop's `affine.min`)
//! sizes the launch by a constant it never exceeds, and the body runs
//! under `scf.if id < bound`. A loop it cannot convert (results, a
//! processor mapped twice, a lower bound or step computed inside the
//! nest, an upper bound with no static bound, side effects outside the
//! innermost scope) is left as it was. The launch gets the loop's
//! other attributes, `SCFToGPU_visited` among them.

use super::map_parallel_loops::{MAPPING, PARALLEL};
use crate::dialect::attrs::loop_dim_map_of;
use crate::dialect::launch::{CONFIG_ARGS, LAUNCH, TERMINATOR};
use rustc_hash::FxHashMap;
use silica_ir::affine::{AffineExpr, AffineMap};
use silica_ir::dialect::{inherent_attr, op_effects, set_discardable_attr, Effects};
use silica_ir::pass::{Pass, PassInfo, PassOptions};
use silica_ir::rewrite::{InsertPoint, NoListener, Rewriter};
use silica_ir::{Attr, AttrKind, Context, Diagnostic, Ir, OpId, OpSpec, ValueId};

/// The attribute that marks a loop the conversion has tried.
const VISITED: &str = "SCFToGPU_visited";

/// The launch's entry argument of a processor (block x..z, thread x..z).
fn processor_arg(processor: &str) -> Option<usize> {
    [
        "block_x", "block_y", "block_z", "thread_x", "thread_y", "thread_z",
    ]
    .iter()
    .position(|p| *p == processor)
}

/// An entry of the work list: an op to copy or splice, or the end of a
/// scope (a loop or conditional the conversion opened).
enum Work {
    Op(OpId),
    EndOfScope,
}

/// Why a loop is left unconverted.
struct Unconverted;

struct Conversion<'r, 'a> {
    rw: &'r mut Rewriter<'a>,
    launch: OpId,
    map: FxHashMap<ValueId, ValueId>,
    /// The launch size each processor gets.
    bounds: Vec<(usize, ValueId)>,
    work: Vec<Work>,
    /// Ops created before the launch (erased if the loop stays).
    outside: Vec<OpId>,
}

fn identity(m: &AffineMap) -> bool {
    m.num_dims == 1 && m.num_symbols == 0 && matches!(&*m.results, [AffineExpr::Dim(0)])
}

/// `outer` applied after `inner` (one dimension each; `inner`'s symbols
/// kept).
fn compose(outer: &AffineMap, inner: &AffineMap) -> AffineMap {
    if identity(outer) {
        return inner.clone();
    }
    AffineMap {
        num_dims: inner.num_dims,
        num_symbols: inner.num_symbols,
        results: outer
            .results
            .iter()
            .map(|e| e.replace(&inner.results, &[]))
            .collect(),
    }
}

fn map_of(ctx: &Context, a: Attr) -> Option<AffineMap> {
    match ctx.attr_kind(a) {
        AttrKind::AffineMap(m) => Some(m.clone()),
        _ => None,
    }
}

impl Conversion<'_, '_> {
    fn ctx(&self) -> &Context {
        self.rw.ctx
    }

    fn lookup(&self, v: ValueId) -> ValueId {
        *self.map.get(&v).unwrap_or(&v)
    }

    /// Whether `v` is defined in a region around the launch (MLIR's
    /// launch independence: values of the nest being converted are not).
    fn independent(&self, v: ValueId) -> bool {
        let ir = &*self.rw.ir;
        let block = match ir.defining_op(v) {
            Some(op) => ir.op_block(op),
            None => ir.value_block(v),
        };
        let Some(region) = block.and_then(|b| ir.block_region(b)) else {
            return false;
        };
        let mut around = ir.op_block(self.launch).and_then(|b| ir.block_region(b));
        while let Some(r) = around {
            if r == region {
                return true;
            }
            around = ir
                .region_op(r)
                .and_then(|o| ir.op_block(o))
                .and_then(|b| ir.block_region(b));
        }
        false
    }

    fn is_constant(&self, v: ValueId) -> bool {
        self.rw
            .ir
            .defining_op(v)
            .is_some_and(|d| self.ctx().str(self.rw.ir.op_name(d)) == "arith.constant")
    }

    /// `v`, or where it is a constant inside the launch, a copy of the
    /// constant at the insertion point.
    fn ensure_independent(&mut self, v: ValueId) -> Result<ValueId, Unconverted> {
        if self.independent(v) {
            return Ok(v);
        }
        let Some(def) = self.rw.ir.defining_op(v).filter(|_| self.is_constant(v)) else {
            return Err(Unconverted);
        };
        let copy = self.rw.clone_op(def);
        if self.rw.ir.is_ancestor(self.launch, copy) {
            // Copied inside the launch: nothing to erase on failure.
        } else {
            self.outside.push(copy);
        }
        Ok(self.rw.ir.result(copy, 0))
    }

    fn apply(&mut self, map: AffineMap, operands: &[ValueId], loc: Attr) -> ValueId {
        let index = self.rw.ctx.index_type();
        let key = self.rw.ctx.sym("map");
        let m = self.rw.ctx.intern_attr(AttrKind::AffineMap(map));
        let props = self.rw.ctx.dict_attr(vec![(key, m)]);
        let op = self
            .rw
            .create_simple("affine.apply", operands, &[index], Some(props), loc);
        if !self.rw.ir.is_ancestor(self.launch, op) {
            self.outside.push(op);
        }
        self.rw.ir.result(op, 0)
    }

    /// Takes in the mapped loop `par`: its dimensions become ids or
    /// sequential loops, its body goes on the work list.
    fn process(&mut self, par: OpId) -> Result<(), Unconverted> {
        let ctx = self.rw.ctx as &Context;
        let ir = &*self.rw.ir;
        let Some(mapping) = inherent_attr(ctx, ir, par, MAPPING) else {
            return Err(Unconverted);
        };
        if ir.results(par).next().is_some() {
            return Err(Unconverted);
        }
        let AttrKind::Array(dims) = ctx.attr_kind(mapping).clone() else {
            return Err(Unconverted);
        };
        let loc = ir.op_loc(par);
        let Some(body) = ir.regions(par).next().and_then(|r| ir.entry_block(r)) else {
            return Err(Unconverted);
        };
        let ivs = ir.block_args(body).to_vec();
        let n = ivs.len();
        let operands: Vec<ValueId> = ir.operands(par).collect();
        if operands.len() < 3 * n || dims.len() < n {
            return Err(Unconverted);
        }
        let launch_args: Vec<ValueId> = {
            let r = ir.regions(self.launch).next();
            r.and_then(|r| ir.entry_block(r))
                .map(|b| ir.block_args(b).to_vec())
                .unwrap_or_default()
        };
        for i in 0..n {
            let (lb, ub, step) = (operands[i], operands[n + i], operands[2 * n + i]);
            let Some((processor, map, bound)) = loop_dim_map_of(self.ctx(), dims[i]) else {
                return Err(Unconverted);
            };
            let (processor, map, bound) = (
                processor.to_string(),
                map_of(self.ctx(), map).ok_or(Unconverted)?,
                map_of(self.ctx(), bound).ok_or(Unconverted)?,
            );
            let new_index = match processor_arg(&processor) {
                Some(arg) => {
                    let id = *launch_args.get(arg).ok_or(Unconverted)?;
                    let lower_and_step = AffineMap {
                        num_dims: 1,
                        num_symbols: 2,
                        results: Box::new([AffineExpr::Dim(0)
                            .times(AffineExpr::Symbol(0))
                            .plus(AffineExpr::Symbol(1))]),
                    };
                    let step_in = self.ensure_independent(self.lookup(step))?;
                    let lb_in = self.ensure_independent(self.lookup(lb))?;
                    let index =
                        self.apply(compose(&map, &lower_and_step), &[id, step_in, lb_in], loc);
                    let precise = self.launch_bound(&bound, (lb, ub, step), arg, loc)?;
                    if !precise {
                        self.guard(index, self.lookup(ub), loc);
                    }
                    index
                }
                None => {
                    self.sequential_loop(self.lookup(lb), self.lookup(ub), self.lookup(step), loc)
                }
            };
            self.map.insert(ivs[i], new_index);
        }
        let ctx = self.rw.ctx as &Context;
        let ir = &*self.rw.ir;
        let extra: Vec<(String, Attr)> = ctx
            .dict_entries(ir.op_attrs(par))
            .iter()
            .filter(|(k, _)| !matches!(ctx.str(*k), MAPPING | "operandSegmentSizes"))
            .map(|(k, v)| (ctx.str(*k).to_string(), *v))
            .collect();
        for (k, v) in extra {
            set_discardable_attr(self.rw.ctx, self.rw.ir, self.launch, &k, v);
        }
        let ops: Vec<OpId> = self.rw.ir.block_ops(body).collect();
        let without_terminator = &ops[..ops.len().saturating_sub(1)];
        self.work
            .extend(without_terminator.iter().rev().map(|&o| Work::Op(o)));
        Ok(())
    }

    /// The launch size of processor `arg`: the loop's trip count by
    /// `bound`, computed before the launch. Whether it is exact: an upper
    /// bound computed inside the nest is replaced by a constant it never
    /// exceeds ([`Self::static_upper_bound`]), and the body is guarded.
    fn launch_bound(
        &mut self,
        bound: &AffineMap,
        (lb, ub, step): (ValueId, ValueId, ValueId),
        arg: usize,
        loc: Attr,
    ) -> Result<bool, Unconverted> {
        let fixed = |c: &Self, v: ValueId| c.independent(v) || c.is_constant(v);
        if !fixed(self, lb) || !fixed(self, step) {
            return Err(Unconverted);
        }
        let precise = fixed(self, ub);
        let here = self.rw.insertion_point();
        self.rw.set_insertion_point(self.launch);
        let result = self.launch_size(bound, (lb, ub, step), arg, precise, loc);
        self.rw.restore_insertion_point(here);
        result.map(|()| precise)
    }

    fn launch_size(
        &mut self,
        bound: &AffineMap,
        (lb, ub, step): (ValueId, ValueId, ValueId),
        arg: usize,
        precise: bool,
        loc: Attr,
    ) -> Result<(), Unconverted> {
        let ub = if precise {
            ub
        } else {
            self.static_upper_bound(ub).ok_or(Unconverted)?
        };
        let step_map = AffineMap {
            num_dims: 1,
            num_symbols: 2,
            results: Box::new([AffineExpr::Dim(0)
                .minus(AffineExpr::Symbol(0))
                .ceil_div(AffineExpr::Symbol(1))]),
        };
        let u = self.ensure_independent(self.lookup(ub))?;
        let l = self.ensure_independent(self.lookup(lb))?;
        let s = self.ensure_independent(self.lookup(step))?;
        if self.bounds.iter().any(|(a, _)| *a == arg) {
            return Err(Unconverted);
        }
        let size = self.apply(compose(bound, &step_map), &[u, l, s], loc);
        self.bounds.push((arg, size));
        Ok(())
    }

    /// A constant at the insertion point that `ub` never exceeds: a
    /// constant, the constant among an `affine.min`'s results, either
    /// operand's of an `arith.minsi`, the product of two such of one
    /// sign.
    fn static_upper_bound(&mut self, ub: ValueId) -> Option<ValueId> {
        let value = self.static_value(ub)?;
        let loc = self.rw.ir.op_loc(self.rw.ir.defining_op(ub)?);
        if self.is_constant(ub) {
            return Some(ub);
        }
        Some(self.index_constant(value, loc))
    }

    fn static_value(&self, v: ValueId) -> Option<i64> {
        let ctx = self.ctx();
        let ir = &*self.rw.ir;
        let def = ir.defining_op(v)?;
        match ctx.str(ir.op_name(def)) {
            "arith.constant" => match ctx.attr_kind(inherent_attr(ctx, ir, def, "value")?) {
                AttrKind::Integer { value, .. } => i64::try_from(value).ok(),
                _ => None,
            },
            "affine.min" => {
                let m = map_of(ctx, inherent_attr(ctx, ir, def, "map")?)?;
                m.results.iter().find_map(|e| match e {
                    AffineExpr::Constant(c) => Some(*c),
                    _ => None,
                })
            }
            "arith.minsi" => ir.operands(def).find_map(|o| self.static_value(o)),
            "arith.muli" => {
                let mut operands = ir.operands(def);
                let (a, b) = (operands.next()?, operands.next()?);
                let (a, b) = (self.static_value(a)?, self.static_value(b)?);
                ((a < 0) == (b < 0)).then(|| a.checked_mul(b)).flatten()
            }
            _ => None,
        }
    }

    fn index_constant(&mut self, value: i64, loc: Attr) -> ValueId {
        let index = self.rw.ctx.index_type();
        let v = self.rw.ctx.int_attr(index, value);
        let key = self.rw.ctx.sym("value");
        let props = self.rw.ctx.dict_attr(vec![(key, v)]);
        let op = self
            .rw
            .create_simple("arith.constant", &[], &[index], Some(props), loc);
        self.outside.push(op);
        self.rw.ir.result(op, 0)
    }

    /// `scf.if index < bound` at the insertion point; later ops go into it
    /// until the scope ends.
    fn guard(&mut self, index: ValueId, bound: ValueId, loc: Attr) {
        let i64 = self.rw.ctx.signless(64);
        let slt = self.rw.ctx.int_attr(i64, 2);
        let key = self.rw.ctx.sym("predicate");
        let props = self.rw.ctx.dict_attr(vec![(key, slt)]);
        let i1 = self.rw.ctx.signless(1);
        let cmp = self
            .rw
            .create_simple("arith.cmpi", &[index, bound], &[i1], Some(props), loc);
        let condition = self.rw.ir.result(cmp, 0);
        let then = self.rw.ir.create_region();
        let block = self.rw.ir.create_block();
        self.rw.ir.append_block(then, block);
        let otherwise = self.rw.ir.create_region();
        let name = self.rw.ctx.sym("scf.if");
        let attrs = self.rw.ctx.empty_dict();
        self.rw.create(OpSpec {
            name,
            loc,
            operands: &[condition],
            result_types: &[],
            successors: &[],
            regions: &[then, otherwise],
            attrs,
            props: None,
        });
        self.rw.set_insertion_point_to_end(block);
        let y = self.rw.create_simple("scf.yield", &[], &[], None, loc);
        self.rw.set_insertion_point(y);
        self.work.push(Work::EndOfScope);
    }

    /// An `scf.for` at the insertion point; later ops go into its body
    /// until the scope ends. Its induction variable.
    fn sequential_loop(&mut self, lb: ValueId, ub: ValueId, step: ValueId, loc: Attr) -> ValueId {
        let index = self.rw.ctx.index_type();
        let region = self.rw.ir.create_region();
        let block = self.rw.ir.create_block();
        self.rw.ir.append_block(region, block);
        let iv = self.rw.ir.add_block_arg(block, index, Some(loc));
        let name = self.rw.ctx.sym("scf.for");
        let attrs = self.rw.ctx.empty_dict();
        self.rw.create(OpSpec {
            name,
            loc,
            operands: &[lb, ub, step],
            result_types: &[],
            successors: &[],
            regions: &[region],
            attrs,
            props: None,
        });
        self.rw.set_insertion_point_to_end(block);
        let y = self.rw.create_simple("scf.yield", &[], &[], None, loc);
        self.rw.set_insertion_point(y);
        self.work.push(Work::EndOfScope);
        iv
    }

    /// Copies or splices the work list's ops into the launch.
    fn run(&mut self) -> Result<(), Unconverted> {
        let mut side_effects = false;
        let mut left_scope = false;
        while let Some(item) = self.work.pop() {
            match item {
                Work::Op(op) if self.ctx().str(self.rw.ir.op_name(op)) == PARALLEL => {
                    if side_effects {
                        return Err(Unconverted);
                    }
                    self.process(op)?;
                }
                Work::EndOfScope => {
                    let parent = match self.rw.insertion_point() {
                        Some(InsertPoint::Before(o)) => self.rw.ir.parent_op(o),
                        Some(InsertPoint::End(b)) => self
                            .rw
                            .ir
                            .block_region(b)
                            .and_then(|r| self.rw.ir.region_op(r)),
                        None => None,
                    };
                    let Some(parent) = parent else {
                        return Err(Unconverted);
                    };
                    self.rw.set_insertion_point_after(parent);
                    left_scope = true;
                    side_effects = false;
                }
                Work::Op(op) => {
                    let copy = silica_affine::loops::clone_mapped(self.rw.ir, op, &mut self.map);
                    self.rw.move_op(copy);
                    let free = matches!(op_effects(self.rw.ctx, self.rw.ir, copy), Effects::None);
                    side_effects |= !free || self.rw.ir.regions(copy).next().is_some();
                    if side_effects && left_scope {
                        return Err(Unconverted);
                    }
                }
            }
        }
        Ok(())
    }
}

/// Creates a launch of sizes `one` at the insertion point, its body a
/// `gpu.terminator`; the insertion point is left before that.
pub(crate) fn create_launch(rw: &mut Rewriter<'_>, one: ValueId, loc: Attr) -> OpId {
    create_launch_of(rw, &[one; 6], loc)
}

/// Creates a launch of grid and block `sizes` (x, y, z each) at the
/// insertion point, its body a `gpu.terminator`; the insertion point is
/// left before that.
pub(crate) fn create_launch_of(rw: &mut Rewriter<'_>, sizes: &[ValueId], loc: Attr) -> OpId {
    let index = rw.ctx.index_type();
    let region = rw.ir.create_region();
    let block = rw.ir.create_block();
    rw.ir.append_block(region, block);
    for _ in 0..CONFIG_ARGS {
        rw.ir.add_block_arg(block, index, Some(loc));
    }
    let key = rw.ctx.sym(silica_ir::format::SEGMENTS);
    let segments = rw
        .ctx
        .int_array_attr(32, &[0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0]);
    let props = rw.ctx.dict_attr(vec![(key, segments)]);
    let key = rw.ctx.sym("workgroup_attributions");
    let i64 = rw.ctx.signless(64);
    let zero = rw.ctx.int_attr(i64, 0);
    let attrs = rw.ctx.dict_attr(vec![(key, zero)]);
    let name = rw.ctx.sym(LAUNCH);
    let launch = rw.create(OpSpec {
        name,
        loc,
        operands: sizes,
        result_types: &[],
        successors: &[],
        regions: &[region],
        attrs,
        props: Some(props),
    });
    rw.set_insertion_point_to_end(block);
    let t = rw.create_simple(TERMINATOR, &[], &[], None, loc);
    rw.set_insertion_point(t);
    launch
}

/// Converts the mapped loop `par`; whether it did.
fn convert(ctx: &mut Context, ir: &mut Ir, par: OpId) -> bool {
    let loc = ir.op_loc(par);
    let unit = ctx.unit_attr();
    set_discardable_attr(ctx, ir, par, VISITED, unit);
    let mut listener = NoListener;
    let mut rw = Rewriter::new(ctx, ir, &mut listener);
    rw.set_insertion_point(par);
    let index = rw.ctx.index_type();
    let value = rw.ctx.int_attr(index, 1);
    let key = rw.ctx.sym("value");
    let props = rw.ctx.dict_attr(vec![(key, value)]);
    let one_op = rw.create_simple("arith.constant", &[], &[index], Some(props), loc);
    let one = rw.ir.result(one_op, 0);
    let launch = create_launch(&mut rw, one, loc);
    let mut c = Conversion {
        rw: &mut rw,
        launch,
        map: FxHashMap::default(),
        bounds: Vec::new(),
        work: Vec::new(),
        outside: vec![one_op],
    };
    let done = c.process(par).and_then(|()| c.run());
    let (bounds, outside) = (
        std::mem::take(&mut c.bounds),
        std::mem::take(&mut c.outside),
    );
    match done {
        Ok(()) => {
            for (arg, size) in bounds {
                rw.ir.set_operand(launch, arg, size);
            }
            rw.erase_op(par);
            true
        }
        Err(Unconverted) => {
            rw.erase_op(launch);
            for op in outside.into_iter().rev() {
                rw.erase_op(op);
            }
            false
        }
    }
}

struct ParallelLoopsToGpu;

impl Pass for ParallelLoopsToGpu {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        let mut loops = Vec::new();
        ir.walk(op, &mut |o| {
            if ctx.str(ir.op_name(o)) == PARALLEL && inherent_attr(ctx, ir, o, MAPPING).is_some() {
                loops.push(o);
            }
        });
        for l in loops {
            let outermost = !std::iter::successors(ir.parent_op(l), |&p| ir.parent_op(p))
                .any(|p| ctx.str(ir.op_name(p)) == PARALLEL);
            if !ir.is_erased(l) && outermost {
                convert(ctx, ir, l);
            }
        }
        // The loops left are not marked.
        let mut left = Vec::new();
        ir.walk(op, &mut |o| {
            if ctx.str(ir.op_name(o)) == PARALLEL {
                left.push(o);
            }
        });
        let visited = ctx.sym(VISITED);
        for l in left {
            let mut entries: Vec<_> = ctx.dict_entries(ir.op_attrs(l)).to_vec();
            entries.retain(|(k, _)| *k != visited);
            let dict = ctx.dict_attr(entries);
            ir.set_op_attrs(l, dict);
        }
        Ok(())
    }
}

/// `convert-parallel-loops-to-gpu`
pub static CONVERT_PARALLEL_LOOPS_TO_GPU: PassInfo = PassInfo {
    argument: "convert-parallel-loops-to-gpu",
    name: "ConvertParallelLoopToGpu",
    description: "Convert mapped scf.parallel ops to gpu launch operations",
    anchor: None,
    options: &[],
    create: |_: &PassOptions| Ok(Box::new(ParallelLoopsToGpu)),
};
