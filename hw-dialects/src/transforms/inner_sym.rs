//! Passes over inner symbols: `--hw-verify-irn` (each inner symbol is
//! defined once in its module, ports included, and `hw.hierpath`s
//! resolve) and
//! `--hw-bypass-inner-symbols` (port symbols move onto wires, and values
//! read through a wire with a symbol read the wire's input instead, so
//! that symbols no longer stand in the way of optimisation).

use crate::hw::inner_sym::{self, definitions, port_symbol, EXPORT_PORT};
use crate::hw::{module_ports, port_attributes};
use crate::types::Direction;
use silica_ir::graph::OpSpec;
use silica_ir::pass::{Pass, PassInfo, PassOptions};
use silica_ir::{Attr, Context, Diagnostic, Ir, OpId};

type Res<T> = Result<T, Box<Diagnostic>>;

/// The `hw.module`s directly in `top`.
fn modules(ctx: &Context, ir: &Ir, top: OpId) -> Vec<OpId> {
    let Some(block) = ir.regions(top).next().and_then(|r| ir.entry_block(r)) else {
        return Vec::new();
    };
    ir.block_ops(block)
        .filter(|&o| ctx.str(ir.op_name(o)) == "hw.module")
        .collect()
}

// ----- hw-verify-irn ---------------------------------------------------------------

/// An error at the second definition of a name within one module, or at
/// an `hw.hierpath` whose steps do not exist.
pub fn verify_irn(ctx: &Context, ir: &Ir, top: OpId) -> Res<()> {
    for module in modules(ctx, ir, top) {
        let defs = definitions(ctx, ir, module);
        for (i, (p, loc)) in defs.iter().enumerate() {
            if let Some((_, first)) = defs[..i].iter().find(|(q, _)| q.name == p.name) {
                let msg = format!("redefinition of inner symbol named '{}'", p.name);
                return Err(Box::new(
                    Diagnostic::error(*loc, msg)
                        .with_note(*first, "see existing inner symbol definition here"),
                ));
            }
        }
    }
    crate::hw::hierpath::verify_paths(ctx, ir, top)
}

struct VerifyIrn;

impl Pass for VerifyIrn {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Res<()> {
        verify_irn(ctx, ir, op)
    }
}

/// The `hw-verify-irn` pass.
pub static HW_VERIFY_IRN: PassInfo = PassInfo {
    argument: "hw-verify-irn",
    name: "VerifyInnerRefNamespace",
    description: "Checks that each inner symbol is defined once in its module and that hierarchical paths resolve",
    anchor: Some("builtin.module"),
    options: &[],
    create: |_: &PassOptions| Ok(Box::new(VerifyIrn)),
};

// ----- hw-bypass-inner-symbols -----------------------------------------------------

/// A detached `hw.wire` of `input` named `name`, carrying `sym` (a
/// port's wire is named after its symbol).
fn symbol_wire(
    ctx: &mut Context,
    ir: &mut Ir,
    loc: Attr,
    input: silica_ir::ValueId,
    name: &str,
    sym: Attr,
) -> OpId {
    let name = ctx.string_attr(name.as_bytes());
    let entries = vec![(ctx.sym("inner_sym"), sym), (ctx.sym("name"), name)];
    let attrs = ctx.dict_attr(entries);
    let op_name = ctx.sym("hw.wire");
    let ty = ir.value_type(input);
    ir.create_op(OpSpec {
        name: op_name,
        loc,
        operands: &[input],
        result_types: &[ty],
        successors: &[],
        regions: &[],
        attrs,
        props: None,
    })
}

/// Moves `module`'s port symbols onto wires: an input's wire opens the
/// body, an output's wire reads the value output, before `hw.output`.
fn move_port_symbols(ctx: &mut Context, ir: &mut Ir, module: OpId) {
    let ports = module_ports(ctx, ir, module);
    let dicts = port_attributes(ctx, ir, module);
    let Some(block) = ir.regions(module).next().and_then(|r| ir.entry_block(r)) else {
        return;
    };
    let args = ir.block_args(block).to_vec();
    let Some(output) = ir.block_ops(block).last() else {
        return;
    };
    let outputs: Vec<_> = ir.operands(output).collect();
    let first = ir.block_ops(block).next();
    let loc = ir.op_loc(module);
    let (mut next_arg, mut next_out) = (0, 0);
    let mut kept = Vec::with_capacity(dicts.len());
    for (port, &dict) in ports.iter().zip(&dicts) {
        let value = if port.dir == Direction::Output {
            next_out += 1;
            outputs.get(next_out - 1).copied()
        } else {
            next_arg += 1;
            args.get(next_arg - 1).copied()
        };
        let (Some(sym), Some(value)) = (port_symbol(ctx, dict), value) else {
            kept.push(dict);
            continue;
        };
        let name = inner_sym::top_name(ctx, sym).unwrap_or_else(|| port.name.clone());
        let wire = symbol_wire(ctx, ir, loc, value, &name, sym);
        match (port.dir, first) {
            (Direction::Output, _) => ir.insert_op_before(output, wire),
            (_, Some(f)) => ir.insert_op_before(f, wire),
            (_, None) => ir.insert_op_before(output, wire),
        }
        let rest: Vec<_> = ctx
            .dict_entries(dict)
            .iter()
            .copied()
            .filter(|(k, _)| ctx.str(*k) != EXPORT_PORT)
            .collect();
        kept.push(ctx.dict_attr(rest));
    }
    let mut entries: Vec<_> = ctx
        .dict_entries(ir.op_attrs(module))
        .iter()
        .copied()
        .filter(|(k, _)| ctx.str(*k) != "per_port_attrs")
        .collect();
    if kept.iter().any(|&d| !ctx.dict_entries(d).is_empty()) {
        let a = ctx.array_attr(&kept);
        entries.push((ctx.sym("per_port_attrs"), a));
    }
    let attrs = ctx.dict_attr(entries);
    ir.set_op_attrs(module, attrs);
}

/// Moves port symbols onto wires, then lets every use of a wire with a
/// symbol read the wire's input.
pub fn bypass_inner_symbols(ctx: &mut Context, ir: &mut Ir, top: OpId) {
    for module in modules(ctx, ir, top) {
        move_port_symbols(ctx, ir, module);
        let mut wires = Vec::new();
        ir.walk(module, &mut |o| {
            if ctx.str(ir.op_name(o)) == "hw.wire" && inner_sym::of_op(ctx, ir, o).is_some() {
                wires.push(o);
            }
        });
        for wire in wires {
            let input = ir.operands(wire).next();
            if let Some(input) = input {
                let result = ir.result(wire, 0);
                ir.replace_all_uses(result, input);
            }
        }
    }
}

struct BypassInnerSymbols;

impl Pass for BypassInnerSymbols {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Res<()> {
        bypass_inner_symbols(ctx, ir, op);
        Ok(())
    }
}

/// The `hw-bypass-inner-symbols` pass.
pub static HW_BYPASS_INNER_SYMBOLS: PassInfo = PassInfo {
    argument: "hw-bypass-inner-symbols",
    name: "HWBypassInnerSymbols",
    description: "Moves port symbols onto wires and reads around wires with symbols",
    anchor: Some("builtin.module"),
    options: &[],
    create: |_: &PassOptions| Ok(Box::new(BypassInnerSymbols)),
};
