//! `gpu-map-parallel-loops`: marks each outermost `scf.parallel` and the
//! `scf.parallel` ops directly in its body with the processors their
//! dimensions run on (a `mapping` of `#gpu.loop_dim_map`s): the
//! outermost loop's first three dimensions go to blocks, the next
//! level's to threads, everything else runs sequentially. With
//! `mapping-policy=innermost-first` the last of the first three
//! dimensions takes `x`. Loops that have a mapping keep it.

use crate::dialect::attrs::loop_dim_map;
use silica_ir::affine::{AffineExpr, AffineMap};
use silica_ir::dialect::{inherent_attr, set_discardable_attr};
use silica_ir::pass::{OptionKind, Pass, PassInfo, PassOptionInfo, PassOptions};
use silica_ir::{AttrKind, Context, Diagnostic, Ir, OpId};

pub const PARALLEL: &str = "scf.parallel";
/// The attribute naming a parallel loop's processors.
pub const MAPPING: &str = "mapping";

/// The level of a nest a loop is mapped at.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Level {
    Grid,
    Block,
    Sequential,
}

impl Level {
    fn next(self) -> Level {
        match self {
            Level::Grid => Level::Block,
            _ => Level::Sequential,
        }
    }

    /// The processor of hardware dimension `d` at this level.
    fn processor(self, d: usize) -> &'static str {
        match (self, d) {
            (Level::Grid, 0) => "block_x",
            (Level::Grid, 1) => "block_y",
            (Level::Grid, 2) => "block_z",
            (Level::Block, 0) => "thread_x",
            (Level::Block, 1) => "thread_y",
            (Level::Block, 2) => "thread_z",
            _ => "sequential",
        }
    }
}

/// The number of dimensions a `scf.parallel` has.
pub fn num_loops(ir: &Ir, op: OpId) -> usize {
    ir.regions(op)
        .next()
        .and_then(|r| ir.entry_block(r))
        .map_or(0, |b| ir.block_args(b).len())
}

fn map_loop(ctx: &mut Context, ir: &mut Ir, op: OpId, level: Level, innermost_first: bool) {
    let nested_in_parallel = ir
        .parent_op(op)
        .is_some_and(|p| has_parallel_ancestor(ctx, ir, p));
    if inherent_attr(ctx, ir, op, MAPPING).is_some() || (level == Level::Grid && nested_in_parallel)
    {
        return;
    }
    let n = num_loops(ir, op);
    let mapped = n.min(3);
    let identity = ctx.intern_attr(AttrKind::AffineMap(AffineMap {
        num_dims: 1,
        num_symbols: 0,
        results: Box::new([AffineExpr::Dim(0)]),
    }));
    let attrs: Vec<_> = (0..n)
        .map(|i| {
            let d = match (i < mapped, innermost_first) {
                (false, _) => 3,
                (true, false) => i,
                (true, true) => mapped - 1 - i,
            };
            loop_dim_map(ctx, level.processor(d), identity, identity)
        })
        .collect();
    let mapping = ctx.array_attr(&attrs);
    set_discardable_attr(ctx, ir, op, MAPPING, mapping);
    let Some(body) = ir.regions(op).next().and_then(|r| ir.entry_block(r)) else {
        return;
    };
    let nested: Vec<OpId> = ir
        .block_ops(body)
        .filter(|&o| ctx.str(ir.op_name(o)) == PARALLEL)
        .collect();
    for o in nested {
        map_loop(ctx, ir, o, level.next(), innermost_first);
    }
}

fn has_parallel_ancestor(ctx: &Context, ir: &Ir, mut op: OpId) -> bool {
    loop {
        if ctx.str(ir.op_name(op)) == PARALLEL {
            return true;
        }
        match ir.parent_op(op) {
            Some(p) => op = p,
            None => return false,
        }
    }
}

struct MapParallelLoops {
    innermost_first: bool,
}

impl Pass for MapParallelLoops {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        // MLIR walks post-order; a nested loop is skipped at the grid
        // level and mapped from its outermost loop, so the order of the
        // outermost loops is all that matters.
        let mut loops = Vec::new();
        for r in ir.regions(op).collect::<Vec<_>>() {
            for b in ir.region_blocks(r).collect::<Vec<_>>() {
                for o in ir.block_ops(b).collect::<Vec<_>>() {
                    ir.walk(o, &mut |x| {
                        if ctx.str(ir.op_name(x)) == PARALLEL {
                            loops.push(x);
                        }
                    });
                }
            }
        }
        for l in loops {
            if !ir.is_erased(l) {
                map_loop(ctx, ir, l, Level::Grid, self.innermost_first);
            }
        }
        Ok(())
    }
}

static OPTIONS: &[PassOptionInfo] = &[PassOptionInfo {
    name: "mapping-policy",
    description: "Policy outlining how to assign loops to GPU dimensions.Supported values are `outermost-first` and `innermost-first`.",
    kind: OptionKind::String,
    default: "outermost-first",
}];

/// `gpu-map-parallel-loops`
pub static GPU_MAP_PARALLEL_LOOPS: PassInfo = PassInfo {
    argument: "gpu-map-parallel-loops",
    name: "GpuMapParallelLoopsPass",
    description: "Greedily maps loops to GPU hardware dimensions.",
    anchor: Some("func.func"),
    options: OPTIONS,
    create: |o: &PassOptions| {
        let policy = o.string("mapping-policy").trim().to_lowercase();
        let innermost_first = match policy.as_str() {
            "innermost-first" => true,
            "outermost-first" => false,
            _ => return Err("Invalid mapping policy specified.".to_string()),
        };
        Ok(Box::new(MapParallelLoops { innermost_first }))
    },
};
