//! Threads that would race. mlir-opt's mapping runs the body of a loop
//! mapped to blocks in every thread of the block, splitting among the
//! threads only the `scf.parallel` loops directly in it; whatever else
//! the body does, every thread does. A write there (gemm's `C[i][j] +=`
//! in a sequential `k` loop around its `j` loop) is a race between the
//! threads, and a read after a split loop may read what another thread
//! has not written yet (there is no barrier). Where a block's body does
//! either, `silica gpu` does not split its loops (they become nests of
//! `scf.for`): one thread a block runs the body as written.

use crate::dialect::attrs::loop_dim_map_of;
use crate::passes::map_parallel_loops::{MAPPING, PARALLEL};
use silica_ir::dialect::inherent_attr;
use silica_ir::rewrite::effects::{is_memory_effect_free, only_reads};
use silica_ir::{Attr, AttrKind, Context, Ir, OpId, OpSpec};

/// The `mapping` of an `scf.parallel`.
fn mapping(ctx: &Context, ir: &Ir, op: OpId) -> Option<Attr> {
    ctx.lookup_sym(MAPPING)
        .and_then(|k| {
            ctx.dict_entries(ir.op_attrs(op))
                .iter()
                .find(|(n, _)| *n == k)
        })
        .map(|(_, v)| *v)
        .or_else(|| inherent_attr(ctx, ir, op, MAPPING))
}

/// The processors of a mapped `scf.parallel`.
fn processors(ctx: &Context, ir: &Ir, op: OpId) -> Vec<String> {
    match mapping(ctx, ir, op).map(|m| ctx.attr_kind(m)) {
        Some(AttrKind::Array(dims)) => dims
            .iter()
            .filter_map(|&d| loop_dim_map_of(ctx, d).map(|(p, _, _)| p.to_string()))
            .collect(),
        _ => Vec::new(),
    }
}

fn is_parallel_on(ctx: &Context, ir: &Ir, op: OpId, prefix: &str) -> bool {
    ctx.str(ir.op_name(op)) == PARALLEL
        && processors(ctx, ir, op)
            .iter()
            .any(|p| p.starts_with(prefix))
}

/// The ops directly in the body of the loop `l`.
fn body_ops(ir: &Ir, l: OpId) -> Vec<OpId> {
    ir.regions(l)
        .next()
        .and_then(|r| ir.entry_block(r))
        .map(|b| ir.block_ops(b).collect())
        .unwrap_or_default()
}

/// Whether the threads of the block loop `l` would race: an op of its
/// body outside the loops split among them writes memory, or reads it
/// after one of those loops.
fn races(ctx: &Context, ir: &Ir, l: OpId) -> bool {
    let mut after_split = false;
    for op in body_ops(ir, l) {
        if is_parallel_on(ctx, ir, op, "thread") {
            after_split = true;
            continue;
        }
        if is_memory_effect_free(ctx, ir, op) {
            continue;
        }
        if !only_reads(ctx, ir, op) || after_split {
            return true;
        }
    }
    false
}

/// Makes the thread loops of every racing block loop under `root`
/// sequential (`scf.for` nests); gives how many block loops were changed.
pub fn serialize_racing_threads(ctx: &mut Context, ir: &mut Ir, root: OpId) -> usize {
    let mut blocks = Vec::new();
    ir.walk(root, &mut |o| {
        if is_parallel_on(ctx, ir, o, "block") {
            blocks.push(o);
        }
    });
    let mut changed = 0;
    for l in blocks {
        if !races(ctx, ir, l) {
            continue;
        }
        let threads: Vec<OpId> = body_ops(ir, l)
            .into_iter()
            .filter(|&o| is_parallel_on(ctx, ir, o, "thread") && ir.results(o).next().is_none())
            .collect();
        if threads.is_empty() {
            continue;
        }
        for t in threads {
            to_for_nest(ctx, ir, t);
        }
        changed += 1;
    }
    changed
}

/// Replaces the `scf.parallel` `par` (without results) by a nest of
/// `scf.for`, a loop a dimension, outermost first.
fn to_for_nest(ctx: &mut Context, ir: &mut Ir, par: OpId) {
    let operands: Vec<_> = ir.operands(par).collect();
    let Some(body) = ir.regions(par).next().and_then(|r| ir.entry_block(r)) else {
        return;
    };
    let ivs = ir.block_args(body).to_vec();
    let n = ivs.len();
    let loc = ir.op_loc(par);
    let index = ctx.index_type();
    let mut at = par;
    let mut inside: Option<OpId> = None;
    for (d, &old_iv) in ivs.iter().enumerate() {
        let region = ir.create_region();
        let block = ir.create_block();
        ir.append_block(region, block);
        let iv = ir.add_block_arg(block, index, Some(loc));
        ir.replace_all_uses(old_iv, iv);
        let name = ctx.sym("scf.for");
        let attrs = ctx.empty_dict();
        let for_op = ir.create_op(OpSpec {
            name,
            loc,
            operands: &[operands[d], operands[n + d], operands[2 * n + d]],
            result_types: &[],
            successors: &[],
            regions: &[region],
            attrs,
            props: None,
        });
        ir.insert_op_before(at, for_op);
        let name = ctx.sym("scf.yield");
        let attrs = ctx.empty_dict();
        let y = ir.create_op(OpSpec {
            name,
            loc,
            operands: &[],
            result_types: &[],
            successors: &[],
            regions: &[],
            attrs,
            props: None,
        });
        ir.append_op(block, y);
        at = y;
        inside = Some(y);
    }
    let Some(end) = inside else {
        return;
    };
    let ops: Vec<OpId> = ir.block_ops(body).collect();
    for op in &ops[..ops.len().saturating_sub(1)] {
        ir.move_op_before(*op, end);
    }
    ir.erase_op(par);
}
