//! Estimated propagation delays of the comb ops the generators emit,
//! for placing pipeline registers and for the scheduler's latency
//! choice. These are estimates, not measurements: a model of an
//! iCE40-class FPGA with 4-input LUTs, where one LUT level with its
//! local routing costs [`LUT_NS`] and a carry chain [`CARRY_NS`] per
//! bit. Wiring (constants, bit selects, concatenations, constant
//! shifts) is free; a multiplier is modelled as a DSP-style block whose
//! delay grows with its width ([`MUL_NS`] plus a carry chain). Refine
//! these from synthesis timing reports (the FPGA issue measures them).

use silica_hw_dialects::types::bit_width;
use silica_ir::{Context, Ir, OpId};

/// One LUT level and its routing, in ns.
pub const LUT_NS: f64 = 0.7;
/// One bit of a carry chain, in ns.
pub const CARRY_NS: f64 = 0.08;
/// The fixed part of a multiplier block, in ns.
pub const MUL_NS: f64 = 3.0;

/// LUT levels of a reduction of `inputs` bits with 4-input LUTs.
fn reduction_levels(inputs: u32) -> f64 {
    let mut levels = 0;
    let mut n = inputs.max(1);
    while n > 1 {
        n = n.div_ceil(4);
        levels += 1;
    }
    f64::from(levels.max(1))
}

/// The estimated delay of `op` in ns.
pub fn op_delay_ns(ctx: &Context, ir: &Ir, op: OpId) -> f64 {
    let width = |v| bit_width(ctx, ir.value_type(v)).unwrap_or(0) as u32;
    let operand_width = ir.operands(op).next().map_or(0, width);
    let operands = ir.num_operands(op) as u32;
    let constant_operand = |i: usize| {
        ir.operands(op)
            .nth(i)
            .and_then(|v| ir.defining_op(v))
            .is_some_and(|d| ctx.str(ir.op_name(d)) == "hw.constant")
    };
    match ctx.str(ir.op_name(op)) {
        "comb.add" | "comb.sub" => LUT_NS + CARRY_NS * f64::from(operand_width),
        "comb.mul" => MUL_NS + CARRY_NS * f64::from(operand_width),
        "comb.icmp" => {
            let predicate = silica_ir::dialect::inherent_attr(ctx, ir, op, "predicate")
                .and_then(|a| match ctx.attr_kind(a) {
                    silica_ir::AttrKind::Integer { value, .. } => i64::try_from(value).ok(),
                    _ => None,
                })
                .unwrap_or(0);
            if predicate <= 1 {
                // Equality: a reduction of pairwise comparisons (two bits
                // per LUT), or of the bits against a constant.
                let inputs = if constant_operand(1) {
                    operand_width
                } else {
                    2 * operand_width
                };
                reduction_levels(inputs) * LUT_NS
            } else {
                LUT_NS + CARRY_NS * f64::from(operand_width)
            }
        }
        "comb.and" | "comb.or" | "comb.xor" => reduction_levels(operands) * LUT_NS,
        "comb.mux" => LUT_NS,
        "comb.shl" | "comb.shru" | "comb.shrs" => {
            if constant_operand(1) {
                0.0
            } else {
                f64::from(32 - operand_width.max(1).leading_zeros()) * LUT_NS
            }
        }
        "comb.parity" => reduction_levels(operand_width) * LUT_NS,
        _ => 0.0,
    }
}
