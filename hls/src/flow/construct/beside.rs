//! A module built beside a design's own (the FPGA scan wrapper, the
//! board shell): the design's `F.hw.mlir` parsed back, the new module
//! built with [`Hw`] from its ports, added to the design, and the whole
//! verified and emitted as SystemVerilog.

use crate::flow::construct::hw::Hw;
use silica_hw_dialects::types::{Direction, Port};
use silica_ir::parser::{parse, ParseOptions};
use silica_ir::{Context, Type, ValueId};

/// The SystemVerilog of the design `hw_mlir` with module `name` added
/// (`what` names it in errors): its ports `ports` (direction, name,
/// type), the first input its clock and the second its reset; `build`
/// makes its body from its inputs and gives its outputs.
pub fn emit_beside(
    ctx: &mut Context,
    hw_mlir: &str,
    name: &str,
    what: &str,
    ports: &[(Direction, &str, Type)],
    build: impl FnOnce(&mut Hw, &[ValueId]) -> Result<Vec<ValueId>, String>,
) -> Result<String, String> {
    let parsed = parse(
        ctx,
        "F.hw.mlir",
        hw_mlir.as_bytes(),
        ParseOptions::default(),
    )
    .map_err(|d| format!("F.hw.mlir does not read back: {}", d.message))?;
    let mut ir = parsed.ir;
    let top = parsed.top;
    let body = ir
        .regions(top)
        .next()
        .and_then(|r| ir.entry_block(r))
        .ok_or("F.hw.mlir has no module body")?;
    let ports: Vec<Port> = ports
        .iter()
        .map(|&(dir, name, ty)| Port {
            dir,
            name: name.into(),
            ty,
        })
        .collect();
    let region = ir.create_region();
    let block = ir.create_block();
    ir.append_block(region, block);
    let args: Vec<ValueId> = ports
        .iter()
        .filter(|p| p.dir == Direction::Input)
        .map(|p| ir.add_block_arg(block, p.ty, None))
        .collect();
    let mut hw = Hw::new(ctx, ir, block, args[0], args[1]);
    let outputs = build(&mut hw, &args)?;
    hw.op("hw.output", &outputs, &[], vec![], vec![]);
    hw.finish();
    let Hw { ctx, mut ir, .. } = hw;
    let loc = ctx.unknown_loc();
    let module = silica_hw_dialects::hw::create_module(ctx, &mut ir, loc, name, &ports, region);
    ir.append_op(body, module);
    silica_ir::verify::verify(ctx, &ir, top, silica_ir::verify::VerifyOptions::default())
        .map_err(|d| format!("{what} does not verify: {}", d.message))?;
    silica_emit_verilog::emit_verilog(ctx, &ir, top, silica_emit_verilog::Options::default())
        .map_err(|d| format!("{what} does not emit: {}", d.message))
}
