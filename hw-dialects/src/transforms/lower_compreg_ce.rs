//! `--lower-seq-compreg-ce`: a register with a clock enable becomes a
//! plain `seq.compreg` whose next value is `comb.mux %en, %input, %reg`,
//! keeping its name, inner symbol, reset and initial value (CIRCT's pass
//! of that name).

use crate::seq::reg_operands;
use silica_ir::graph::OpSpec;
use silica_ir::pass::{Pass, PassInfo, PassOptions};
use silica_ir::{Context, Diagnostic, Ir, OpId};

/// Rewrites every `seq.compreg.ce` under `top`.
pub fn lower_compreg_ce(ctx: &mut Context, ir: &mut Ir, top: OpId) {
    let mut regs = Vec::new();
    ir.walk(top, &mut |o| {
        if ctx.str(ir.op_name(o)) == "seq.compreg.ce" {
            regs.push(o);
        }
    });
    for reg in regs {
        lower_one(ctx, ir, reg);
    }
}

fn lower_one(ctx: &mut Context, ir: &mut Ir, reg: OpId) {
    let r = reg_operands(ctx, ir, reg);
    let (Some(input), Some(clock), Some(enable)) = (r.input, r.clock, r.enable) else {
        return;
    };
    let result = ir.result(reg, 0);
    let ty = ir.value_type(result);
    let loc = ir.op_loc(reg);
    let no_attrs = ctx.dict_attr(Vec::new());
    let mux_name = ctx.sym("comb.mux");
    let mux = ir.create_op(OpSpec {
        name: mux_name,
        loc,
        operands: &[enable, input, result],
        result_types: &[ty],
        successors: &[],
        regions: &[],
        attrs: no_attrs,
        props: None,
    });
    ir.insert_op_before(reg, mux);
    let next = ir.result(mux, 0);
    let (operands, sizes) = crate::seq::compreg_operands(&r, next, clock);
    // Name and inner symbol carry over; the segment sizes lose the enable.
    let segments = ctx.int_array_attr(32, &sizes);
    let segment_key = ctx.sym("operandSegmentSizes");
    let mut props: Vec<_> = ir
        .op_props(reg)
        .map(|p| ctx.dict_entries(p).to_vec())
        .unwrap_or_default();
    props.retain(|(k, _)| *k != segment_key);
    props.push((segment_key, segments));
    let props = ctx.dict_attr(props);
    let name = ctx.sym("seq.compreg");
    let attrs = ir.op_attrs(reg);
    let plain = ir.create_op(OpSpec {
        name,
        loc,
        operands: &operands,
        result_types: &[ty],
        successors: &[],
        regions: &[],
        attrs,
        props: Some(props),
    });
    ir.insert_op_before(reg, plain);
    let new = ir.result(plain, 0);
    ir.replace_all_uses(result, new);
    ir.erase_op(reg);
}

struct LowerCompregCe;

impl Pass for LowerCompregCe {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        lower_compreg_ce(ctx, ir, op);
        Ok(())
    }
}

/// The `lower-seq-compreg-ce` pass.
pub static LOWER_SEQ_COMPREG_CE: PassInfo = PassInfo {
    argument: "lower-seq-compreg-ce",
    name: "LowerSeqCompRegCE",
    description: "Lowers seq.compreg.ce to seq.compreg with a multiplexer",
    anchor: Some("builtin.module"),
    options: &[],
    create: |_: &PassOptions| Ok(Box::new(LowerCompregCe)),
};
