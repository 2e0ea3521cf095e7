//! Creating an operator's `hw.module` in a design: ports per the
//! contract of [`super`], the datapath, dead logic removed, then the
//! pipeline registers; [`operator_module`] reuses a module already
//! created for the same operator and latency.

use super::builder::Builder;
use super::operator::Operator;
use super::pipeline::{insert_registers, plan, Plan};
use silica_hw_dialects::hw::symbol_name;
use silica_hw_dialects::types::{clock, Direction, Port};
use silica_ir::graph::OpSpec;
use silica_ir::{BlockId, Context, Diagnostic, Ir, OpId};

/// The `hw.module` of `operator` at `latency` in the `builtin.module`
/// `top`: the one already there by that name, else a new one appended.
/// An operator that cannot be pipelined at a latency above 0 is an error
/// at `top`.
pub fn operator_module(
    ctx: &mut Context,
    ir: &mut Ir,
    top: OpId,
    operator: Operator,
    latency: u32,
) -> Result<OpId, Box<Diagnostic>> {
    let name = operator.module_name(latency);
    let Some(body) = ir.regions(top).next().and_then(|r| ir.entry_block(r)) else {
        return Err(Box::new(Diagnostic::error(
            ir.op_loc(top),
            "expected a module with a body to hold the operator",
        )));
    };
    let existing = ir
        .block_ops(body)
        .find(|&op| ctx.str(ir.op_name(op)) == "hw.module" && symbol_name(ctx, ir, op) == name);
    if let Some(op) = existing {
        return Ok(op);
    }
    if latency > 0 && !operator.pipelinable() {
        return Err(Box::new(Diagnostic::error(
            ir.op_loc(top),
            format!("'{name}': this operator has no logic to pipeline; use latency 0"),
        )));
    }
    let (module, _) = build_module(ctx, ir, operator, latency);
    ir.append_op(body, module);
    Ok(module)
}

/// A detached `hw.module` of `operator` at `latency`, and its plan.
pub fn build_module(
    ctx: &mut Context,
    ir: &mut Ir,
    operator: Operator,
    latency: u32,
) -> (OpId, Plan) {
    let loc = ctx.unknown_loc();
    let mut ports = Vec::new();
    if latency > 0 {
        ports.push(Port {
            dir: Direction::Input,
            name: "clock".into(),
            ty: clock(ctx),
        });
    }
    for (name, width) in operator.operands() {
        ports.push(Port {
            dir: Direction::Input,
            name: name.into(),
            ty: ctx.signless(width),
        });
    }
    let result_ty = ctx.signless(operator.result_width());
    ports.push(Port {
        dir: Direction::Output,
        name: "result".into(),
        ty: result_ty,
    });
    let region = ir.create_region();
    let block = ir.create_block();
    ir.append_block(region, block);
    let args: Vec<_> = ports
        .iter()
        .filter(|p| p.dir == Direction::Input)
        .map(|p| ir.add_block_arg(block, p.ty, None))
        .collect();
    let (clock_arg, operands) = if latency > 0 {
        (Some(args[0]), &args[1..])
    } else {
        (None, &args[..])
    };
    let mut b = Builder::new(ctx, ir, block, loc);
    let result = operator.build(&mut b, operands);
    let output_name = b.ctx.sym("hw.output");
    let no_attrs = b.ctx.dict_attr(Vec::new());
    let output = b.ir.create_op(OpSpec {
        name: output_name,
        loc,
        operands: &[result],
        result_types: &[],
        successors: &[],
        regions: &[],
        attrs: no_attrs,
        props: None,
    });
    b.ir.append_op(block, output);
    remove_dead_ops(&mut b, block);
    let plan = plan(b.ctx, b.ir, block, latency);
    if let Some(clock) = clock_arg {
        insert_registers(&mut b, block, &plan, clock, latency);
    }
    let name = operator.module_name(latency);
    let module = silica_hw_dialects::hw::create_module(ctx, ir, loc, &name, &ports, region);
    (module, plan)
}

/// Erases ops of `block` whose results nothing uses (the generators
/// build whole bundles and use parts of them).
fn remove_dead_ops(b: &mut Builder<'_>, block: BlockId) {
    loop {
        let dead: Vec<OpId> = b
            .ir
            .block_ops(block)
            .filter(|&op| b.ir.num_results(op) > 0 && b.ir.results(op).all(|r| !b.ir.has_uses(r)))
            .collect();
        if dead.is_empty() {
            return;
        }
        for op in dead.into_iter().rev() {
            b.ir.erase_op(op);
        }
    }
}
