//! `convert-scf-to-cf`: structured control flow to blocks and branches as
//! MLIR lowers it. `scf.for` splits its block: a condition block (the
//! loop body's entry, holding the induction variable and iteration
//! arguments) compares and branches into the body or past the loop; the
//! body's end steps the induction variable and branches back. `scf.if`
//! inlines its regions between a conditional branch and a continuation
//! block. `scf.while` becomes a before block and an after block.

use crate::build::Builder;
use silica_ir::diag::Diagnostic;
use silica_ir::pass::{Pass, PassInfo, PassOptions};
use silica_ir::rewrite::{NoListener, Rewriter};
use silica_ir::{Context, Ir, OpId, ValueId};

/// The terminator of `block` and its operands.
fn terminator(ir: &Ir, block: silica_ir::BlockId) -> (OpId, Vec<ValueId>) {
    let t = ir.last_op(block).expect("terminated block");
    (t, ir.operands(t).collect())
}

fn lower_for(ctx: &mut Context, ir: &mut Ir, op: OpId) {
    let loc = ir.op_loc(op);
    let operands: Vec<ValueId> = ir.operands(op).collect();
    let (lb, ub, step, inits) = (operands[0], operands[1], operands[2], &operands[3..]);
    let unsigned = silica_ir::dialect::inherent_attr(ctx, ir, op, "unsignedCmp").is_some();
    let init_block = ir.op_block(op).expect("op in a block");
    let end_block = ir.split_block(init_block, ir.next_op(op));
    let region = ir.regions(op).next().expect("loop body");
    let cond_block = ir.entry_block(region).expect("loop entry");
    let first_body = ir.split_block(cond_block, ir.first_op(cond_block));
    let last_body = ir.region_blocks(region).last().expect("body");
    ir.inline_region_before(region, end_block);
    let iv = ir.block_args(cond_block)[0];
    let (yield_op, yielded) = terminator(ir, last_body);
    let mut listener = NoListener;
    let mut rw = Rewriter::new(ctx, ir, &mut listener);
    rw.set_insertion_point_to_end(last_body);
    let mut b = Builder { rw: &mut rw, loc };
    let stepped = b.binary("arith.addi", iv, step, None);
    let mut carried = vec![stepped];
    carried.extend(yielded);
    b.br(cond_block, &carried);
    // The loop's own attributes (loop annotations) go on the back edge.
    let attrs = rw.ir.op_attrs(op);
    if let Some(latch) = rw.ir.last_op(last_body) {
        rw.ir.set_op_attrs(latch, attrs);
    }
    rw.erase_op(yield_op);
    rw.set_insertion_point_to_end(init_block);
    let mut b = Builder { rw: &mut rw, loc };
    let mut entry = vec![lb];
    entry.extend_from_slice(inits);
    b.br(cond_block, &entry);
    b.rw.set_insertion_point_to_end(cond_block);
    let c = b.cmpi(if unsigned { "ult" } else { "slt" }, iv, ub);
    b.cond_br(c, first_body, &[], end_block, &[]);
    let results: Vec<ValueId> = rw.ir.block_args(cond_block)[1..].to_vec();
    rw.replace_op(op, &results);
}

fn lower_if(ctx: &mut Context, ir: &mut Ir, op: OpId) {
    let loc = ir.op_loc(op);
    let cond = ir.operand(op, 0);
    let cond_block = ir.op_block(op).expect("op in a block");
    let remaining = ir.split_block(cond_block, ir.next_op(op));
    let result_types: Vec<_> = ir.results(op).map(|r| ir.value_type(r)).collect();
    let mut listener = NoListener;
    let mut rw = Rewriter::new(ctx, ir, &mut listener);
    let continue_block = if result_types.is_empty() {
        remaining
    } else {
        let blk = rw.ir.create_block();
        rw.ir.insert_block_before(remaining, blk);
        for t in &result_types {
            rw.ir.add_block_arg(blk, *t, Some(loc));
        }
        rw.set_insertion_point_to_end(blk);
        Builder { rw: &mut rw, loc }.br(remaining, &[]);
        blk
    };
    let regions: Vec<_> = rw.ir.regions(op).collect();
    let mut entries = Vec::new();
    for r in regions {
        let Some(entry) = rw.ir.entry_block(r) else {
            entries.push(continue_block);
            continue;
        };
        let last = rw.ir.region_blocks(r).last().expect("block");
        let (t, values) = terminator(rw.ir, last);
        rw.set_insertion_point_to_end(last);
        Builder { rw: &mut rw, loc }.br(continue_block, &values);
        rw.erase_op(t);
        rw.ir.inline_region_before(r, continue_block);
        entries.push(entry);
    }
    let else_block = entries.get(1).copied().unwrap_or(continue_block);
    rw.set_insertion_point_to_end(cond_block);
    Builder { rw: &mut rw, loc }.cond_br(cond, entries[0], &[], else_block, &[]);
    let results: Vec<ValueId> = rw.ir.block_args(continue_block).to_vec();
    rw.replace_op(op, &results);
}

/// Whether the after region of a while only forwards its arguments
/// (MLIR lowers such loops as do-while: one block, no after block).
fn is_do_while(ir: &Ir, after: silica_ir::RegionId) -> bool {
    let blocks: Vec<_> = ir.region_blocks(after).collect();
    let [b] = blocks.as_slice() else {
        return false;
    };
    let ops: Vec<_> = ir.block_ops(*b).collect();
    let [y] = ops.as_slice() else {
        return false;
    };
    ir.operands(*y).collect::<Vec<_>>() == ir.block_args(*b)
}

fn lower_while(ctx: &mut Context, ir: &mut Ir, op: OpId) {
    let loc = ir.op_loc(op);
    let inits: Vec<ValueId> = ir.operands(op).collect();
    let current = ir.op_block(op).expect("op in a block");
    let continuation = ir.split_block(current, ir.next_op(op));
    let regions: Vec<_> = ir.regions(op).collect();
    let (before_r, after_r) = (regions[0], regions[1]);
    let before = ir.entry_block(before_r).expect("before block");
    let before_last = ir.region_blocks(before_r).last().expect("block");
    let do_while = is_do_while(ir, after_r);
    let after = if do_while {
        None
    } else {
        Some((
            ir.entry_block(after_r).expect("after block"),
            ir.region_blocks(after_r).last().expect("block"),
        ))
    };
    match after {
        Some((after_first, _)) => {
            ir.inline_region_before(after_r, continuation);
            ir.inline_region_before(before_r, after_first);
        }
        None => ir.inline_region_before(before_r, continuation),
    }
    let mut listener = NoListener;
    let mut rw = Rewriter::new(ctx, ir, &mut listener);
    rw.set_insertion_point_to_end(current);
    Builder { rw: &mut rw, loc }.br(before, &inits);
    let (cond_op, operands) = terminator(rw.ir, before_last);
    let (cond, args) = (operands[0], operands[1..].to_vec());
    rw.set_insertion_point(cond_op);
    let target = after.map_or(before, |(first, _)| first);
    Builder { rw: &mut rw, loc }.cond_br(cond, target, &args, continuation, &[]);
    rw.erase_op(cond_op);
    if let Some((_, after_last)) = after {
        let (yield_op, yielded) = terminator(rw.ir, after_last);
        rw.set_insertion_point(yield_op);
        Builder { rw: &mut rw, loc }.br(before, &yielded);
        rw.erase_op(yield_op);
    }
    rw.replace_op(op, &args);
}

/// Lowers every `scf.for`, `scf.if` and `scf.while` nested in `root`,
/// outermost first.
pub fn convert_scf_to_cf(
    ctx: &mut Context,
    ir: &mut Ir,
    root: OpId,
) -> Result<(), Box<Diagnostic>> {
    let mut ops = Vec::new();
    ir.walk(root, &mut |o| ops.push(o));
    for op in ops {
        if ir.is_erased(op) {
            continue;
        }
        match ctx.str(ir.op_name(op)) {
            "scf.for" => lower_for(ctx, ir, op),
            "scf.if" => lower_if(ctx, ir, op),
            "scf.while" => lower_while(ctx, ir, op),
            "scf.parallel" | "scf.index_switch" | "scf.execute_region" | "scf.forall" => {
                let name = ctx.str(ir.op_name(op)).to_string();
                return Err(Box::new(Diagnostic::error(
                    ir.op_loc(op),
                    format!("convert-scf-to-cf does not lower '{name}' yet"),
                )));
            }
            _ => {}
        }
    }
    Ok(())
}

struct ScfToCf;

impl Pass for ScfToCf {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        convert_scf_to_cf(ctx, ir, op)
    }
}

/// The `convert-scf-to-cf` pass.
pub static CONVERT_SCF_TO_CF: PassInfo = PassInfo {
    argument: "convert-scf-to-cf",
    name: "SCFToControlFlowPass",
    description:
        "Convert SCF dialect to ControlFlow dialect, replacing structured control flow with a CFG",
    anchor: None,
    options: &[silica_ir::pass::PassOptionInfo {
        name: "allow-pattern-rollback",
        description: "Experimental performance flag to disallow pattern rollback",
        kind: silica_ir::pass::OptionKind::Bool,
        default: "true",
    }],
    create: |_: &PassOptions| Ok(Box::new(ScfToCf)),
};
