//! `--lower-seq-shiftreg`: a `seq.shiftreg[N]` becomes a chain of N
//! `seq.compreg.ce` registers named `<name>_sh1` ... `<name>_shN` (each with
//! that inner symbol), sharing the clock, enable and reset; a constant
//! power-on value becomes one `seq.initial` that every stage starts from
//! (CIRCT's pass of that name).

use crate::hw::name_attr;
use crate::seq::memory_ops::shiftreg_operands;
use silica_ir::dialect::inherent_attr;
use silica_ir::graph::OpSpec;
use silica_ir::pass::{Pass, PassInfo, PassOptions};
use silica_ir::{AttrKind, Context, Diagnostic, Ir, OpId, Type, ValueId};

/// Rewrites every `seq.shiftreg` under `top`.
pub fn lower_shiftregs(ctx: &mut Context, ir: &mut Ir, top: OpId) -> Result<(), Box<Diagnostic>> {
    let mut regs = Vec::new();
    ir.walk(top, &mut |o| {
        if ctx.str(ir.op_name(o)) == "seq.shiftreg" {
            regs.push(o);
        }
    });
    for reg in regs {
        lower_one(ctx, ir, reg)?;
    }
    Ok(())
}

fn lower_one(ctx: &mut Context, ir: &mut Ir, reg: OpId) -> Result<(), Box<Diagnostic>> {
    let [input, clock, enable, reset, reset_value, power_on] = shiftreg_operands(ctx, ir, reg);
    let (Some(input), Some(clock), Some(enable)) = (input, clock, enable) else {
        return Ok(());
    };
    let loc = ir.op_loc(reg);
    let ty = ir.value_type(ir.result(reg, 0));
    let stages = match inherent_attr(ctx, ir, reg, "numElements").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Integer { value, .. }) => u64::try_from(value).unwrap_or(0),
        _ => 0,
    };
    let initial = match power_on {
        Some(v) => Some(constant_initial(ctx, ir, reg, v, ty)?),
        None => None,
    };
    let base = name_attr(ctx, ir, reg).unwrap_or_default();
    let mut value = input;
    for stage in 1..=stages {
        let name = format!("{base}_sh{stage}");
        let mut operands = vec![value, clock, enable];
        let mut sizes = vec![1, 1, 1];
        match (reset, reset_value) {
            (Some(r), Some(v)) => {
                operands.extend([r, v]);
                sizes.extend([1, 1]);
            }
            _ => sizes.extend([0, 0]),
        }
        operands.extend(initial);
        sizes.push(i64::from(initial.is_some()));
        let sym = crate::hw::inner_sym::make(
            ctx,
            &[crate::hw::inner_sym::InnerSymProp {
                name: name.clone(),
                field_id: 0,
                visibility: "public".into(),
            }],
        );
        let props = vec![
            (ctx.sym("inner_sym"), sym),
            (ctx.sym("name"), ctx.string_attr(name.as_bytes())),
            (
                ctx.sym("operandSegmentSizes"),
                ctx.int_array_attr(32, &sizes),
            ),
        ];
        let props = ctx.dict_attr(props);
        let (op_name, attrs) = (ctx.sym("seq.compreg.ce"), ctx.dict_attr(Vec::new()));
        let stage_op = ir.create_op(OpSpec {
            name: op_name,
            loc,
            operands: &operands,
            result_types: &[ty],
            successors: &[],
            regions: &[],
            attrs,
            props: Some(props),
        });
        ir.insert_op_before(reg, stage_op);
        value = ir.result(stage_op, 0);
    }
    ir.replace_all_uses(ir.result(reg, 0), value);
    ir.erase_op(reg);
    Ok(())
}

/// A `seq.initial` before `reg` yielding a copy of the `hw.constant`
/// that defines `power_on`; another power-on value is an error at `reg`.
fn constant_initial(
    ctx: &mut Context,
    ir: &mut Ir,
    reg: OpId,
    power_on: ValueId,
    ty: Type,
) -> Result<ValueId, Box<Diagnostic>> {
    let constant = ir
        .defining_op(power_on)
        .filter(|&d| ctx.str(ir.op_name(d)) == "hw.constant");
    let Some(constant) = constant else {
        let msg = "'seq.shiftreg' op power-on value must be an hw.constant to be lowered";
        return Err(Box::new(Diagnostic::error(ir.op_loc(reg), msg)));
    };
    let loc = ir.op_loc(reg);
    let copy = ir.clone_op(constant);
    let region = ir.create_region();
    let block = ir.create_block();
    ir.append_block(region, block);
    ir.append_op(block, copy);
    let no_attrs = ctx.dict_attr(Vec::new());
    let yield_name = ctx.sym("seq.yield");
    let copied = ir.result(copy, 0);
    let terminator = ir.create_op(OpSpec {
        name: yield_name,
        loc,
        operands: &[copied],
        result_types: &[],
        successors: &[],
        regions: &[],
        attrs: no_attrs,
        props: None,
    });
    ir.append_op(block, terminator);
    let immutable = crate::types::immutable(ctx, ty);
    let initial_name = ctx.sym("seq.initial");
    let initial = ir.create_op(OpSpec {
        name: initial_name,
        loc,
        operands: &[],
        result_types: &[immutable],
        successors: &[],
        regions: &[region],
        attrs: no_attrs,
        props: None,
    });
    ir.insert_op_before(reg, initial);
    Ok(ir.result(initial, 0))
}

struct LowerShiftRegs;

impl Pass for LowerShiftRegs {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        lower_shiftregs(ctx, ir, op)
    }
}

/// The `lower-seq-shiftreg` pass.
pub static LOWER_SEQ_SHIFTREG: PassInfo = PassInfo {
    argument: "lower-seq-shiftreg",
    name: "LowerSeqShiftReg",
    description: "Lowers seq.shiftreg to a chain of seq.compreg.ce registers",
    anchor: Some("builtin.module"),
    options: &[],
    create: |_: &PassOptions| Ok(Box::new(LowerShiftRegs)),
};
