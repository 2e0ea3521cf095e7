//! The test designs of the characterization, built as hw IR: one
//! `hw.module @<name>` per operator kind and width whose only ports are
//! `clock`, `scan_in` and `scan_out`, so any width fits any package.
//! The operands are bits of a shift register fed by `scan_in` (flip-flops,
//! no logic); the operator's result is captured in a register `r`; `r`
//! is xored into a second shift register ending at `scan_out`. Every
//! path of the operator therefore runs from a flip-flop to a flip-flop,
//! and nothing it computes can be optimised away. A multiplier's first
//! operand passes through one LUT level first (xored with the second
//! operand rotated by a bit): the flow's multipliers are fed by logic,
//! and straight from the chain yosys would pack the operand registers
//! into the hard multiplier and time its registered path. What the frame
//! adds besides the operator is known exactly ([`Frame`]) and is
//! subtracted from the tools' figures.
//!
//! The flow's pipelined divider is measured as it is built
//! ([`Circuit::Divider`]): its slowest stage, a negation and the rows
//! between two of its registers, is the design's period.
//!
//! Four designs measure the control logic and routing around operators
//! rather than an operator: a chain of `width` LUT4 levels
//! ([`Circuit::Levels`]), one LUT's output driving the enables of
//! `width` flip-flops ([`Circuit::Enables`]), an add reading an add
//! ([`Circuit::ChainedAdds`]: the net between two carry chains), and one
//! `width`-bit register read by several adds ([`Circuit::Readers`]: nets
//! whose sinks lie in carry chains the placer cannot all put beside it).

use crate::float::{operator_module, Operator};
use crate::flow::construct::divider_array::pipelined_division;
use crate::flow::construct::hw::Hw;
use crate::model::kernel::Op;
use silica_hw_dialects::types::{self, module_type, Direction, Port};
use silica_ir::{AttrKind, Context, Ir, OpId, OpSpec, ValueId};

/// What a test design computes between its operand and result registers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Circuit {
    /// No operator: `scan_in` through a `width`-bit shift register to
    /// `scan_out` (the register-to-register period of the fabric).
    Register,
    /// A comb op on two `width`-bit operands (`comb.add`, `comb.icmp`
    /// with its predicate, ...), or a select (`comb.mux` with a one-bit
    /// condition); `fed_by_logic`: the first operand through one LUT
    /// level (see the module's docs).
    Comb {
        op: &'static str,
        predicate: i64,
        fed_by_logic: bool,
    },
    /// A comb op (a division) of one `width`-bit operand by the
    /// constant `by`.
    ByConstant { op: &'static str, by: u128 },
    /// A comparison (`comb.icmp` with `predicate`) of one `width`-bit
    /// operand against a constant (a loop bound's compare): alternating
    /// bits `0b...0101`, or with `power_of_two` `2^(width/2 - 1)` (yosys
    /// maps a bound with low zero bits to a slower circuit on iCE40).
    AgainstConstant { predicate: i64, power_of_two: bool },
    /// A `words`-deep `seq.firmem` of `width`-bit words with one read and
    /// one write port (the flow's on-chip RAM): address, write enable and
    /// data from the operand register, read data into `r`.
    Ram { words: u64 },
    /// A float operator module at a pipeline latency, instantiated.
    Float { operator: Operator, latency: u32 },
    /// The flow's pipelined divider: a signed division of two
    /// `width`-bit operands cut into `stages` stages (its rows spread
    /// evenly, `construct::divider_array`), its result registered by the
    /// last stage.
    Divider { stages: u32 },
    /// `width` levels of LUT4 logic in a chain: `y = (y & a) ^ (b | c)`
    /// per level, on three fresh operand bits each (no level merges with
    /// the next, and the chain cannot be rebalanced into a tree).
    Levels,
    /// The and of two operand bits as the enable of `width` flip-flops
    /// (the register `r`, loading the other operand bits): a control
    /// signal's fan-out.
    Enables,
    /// `(a + b) + c` on `width`-bit operands, `a + b` registered too: a
    /// second use, so yosys keeps two carry chains, the second reading
    /// the first's sums (one add of three operands would become a carry
    /// save adder and one chain). Its delay less two adds' is the net
    /// between the chains.
    ChainedAdds,
    /// One `width`-bit operand added to each of `readers` others, the
    /// sums registered: each of its bits reaches a cell of `readers`
    /// carry chains, which the placer lays side by side (iCE40 UP5K, by
    /// hand, 32 bits: the net 1.8 ns to one chain, 3.0 to 4, 3.7 to 8),
    /// as a carried register's or a loop counter's bits reach the ops
    /// that read them.
    Readers { readers: u32 },
}

/// The frame around the operator: operand bits (flip-flops of the input
/// chain), the LUTs feeding the operator (one level, see the module's
/// docs) and result bits (the `r` register, the output chain's
/// flip-flops and one xor LUT per bit but the first).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    pub input_bits: u32,
    pub feeding_luts: u32,
    pub output_bits: u32,
}

impl Frame {
    /// Flip-flops of the frame.
    pub fn ffs(self) -> u64 {
        u64::from(self.input_bits) + 2 * u64::from(self.output_bits)
    }

    /// LUTs of the frame (the feeding level, the output chain's xors;
    /// its first bit takes `r` alone).
    pub fn luts(self) -> u64 {
        u64::from(self.feeding_luts) + u64::from(self.output_bits.saturating_sub(1))
    }

    /// Whether a LUT level lies between the operand registers and the
    /// operator (its delay is then the frame's, not the operator's).
    pub fn fed_by_logic(self) -> bool {
        self.feeding_luts > 0
    }
}

/// Builds the test design `name` of `circuit` at `width` into `ir` (a
/// fresh `builtin.module` holding it and the modules it instantiates);
/// returns the module op and the frame.
pub fn build(
    ctx: &mut Context,
    name: &str,
    circuit: Circuit,
    width: u32,
) -> Result<(Ir, OpId, Frame), String> {
    let mut ir = Ir::new();
    let loc = ctx.unknown_loc();
    let top = new_op(ctx, &mut ir, "builtin.module", vec![], loc);
    let top_block = ir.regions(top).next().and_then(|r| ir.entry_block(r));
    let top_block = top_block.ok_or("no module body")?;
    if let Circuit::Float { operator, latency } = circuit {
        operator_module(ctx, &mut ir, top, operator, latency).map_err(|d| d.message)?;
    }
    let clock_ty = types::clock(ctx);
    let i1 = ctx.signless(1);
    let ports: Vec<Port> = [
        (Direction::Input, "clock", clock_ty),
        (Direction::Input, "scan_in", i1),
        (Direction::Output, "scan_out", i1),
    ]
    .into_iter()
    .map(|(dir, name, ty)| Port {
        dir,
        name: name.into(),
        ty,
    })
    .collect();
    let mty = module_type(ctx, &ports);
    let attrs = vec![
        (ctx.sym("module_type"), ctx.intern_attr(AttrKind::Type(mty))),
        (ctx.sym("parameters"), ctx.array_attr(&[])),
        (ctx.sym("sym_name"), ctx.string_attr(name.as_bytes())),
    ];
    let module = new_op(ctx, &mut ir, "hw.module", attrs, loc);
    ir.append_op(top_block, module);
    let body = ir.regions(module).next().and_then(|r| ir.entry_block(r));
    let body = body.ok_or("no module body")?;
    let clock = ir.add_block_arg(body, clock_ty, None);
    let scan_in = ir.add_block_arg(body, i1, None);
    let mut hw = Hw::new(ctx, ir, body, clock, clock);
    let input_bits = match circuit {
        Circuit::Register => width,
        Circuit::Comb { op: "comb.mux", .. } => 2 * width + 1,
        Circuit::Comb { .. } | Circuit::Divider { .. } => 2 * width,
        Circuit::ByConstant { .. } | Circuit::AgainstConstant { .. } => width,
        Circuit::Ram { words } => address_width(words) + 1 + width,
        Circuit::Float { operator, .. } => operator.operands().iter().map(|o| o.1).sum(),
        Circuit::Levels => 3 * width + 1,
        Circuit::Enables => width + 2,
        Circuit::ChainedAdds => 3 * width,
        Circuit::Readers { readers } => width * (readers + 1),
    };
    let chain = hw.shift_in("operands", scan_in, input_bits);
    let scan_out = match circuit {
        Circuit::Register => hw.extract(chain, width - 1, 1),
        _ => {
            let (result, enable) = match circuit {
                Circuit::Enables => {
                    let a = hw.extract(chain, 0, 1);
                    let b = hw.extract(chain, 1, 1);
                    (hw.extract(chain, 2, width), hw.and(a, b))
                }
                _ => (operator(&mut hw, circuit, chain, width)?, hw.constant(1, 1)),
            };
            let output_bits = hw.width(result);
            let r = hw.reg("r", output_bits, None);
            hw.connect(r, &[(enable, result)]);
            shift_out(&mut hw, r.q)
        }
    };
    let output_bits = match circuit {
        Circuit::Register => 0,
        Circuit::Comb {
            op: "comb.icmp", ..
        } => 1,
        Circuit::Levels | Circuit::AgainstConstant { .. } => 1,
        Circuit::Float { operator, .. } => operator.result_width(),
        Circuit::ChainedAdds => 2 * width,
        Circuit::Readers { readers } => width * readers,
        _ => width,
    };
    hw.op("hw.output", &[scan_out], &[], vec![], vec![]);
    hw.finish();
    let Hw { ir, .. } = hw;
    Ok((
        ir,
        top,
        Frame {
            input_bits,
            feeding_luts: match circuit {
                Circuit::Comb {
                    fed_by_logic: true, ..
                } => width,
                _ => 0,
            },
            output_bits,
        },
    ))
}

/// `ceil(log2(words))`, at least 1.
fn address_width(words: u64) -> u32 {
    (64 - (words.max(2) - 1).leading_zeros()).max(1)
}

/// An op with one region of one block.
fn new_op(
    ctx: &mut Context,
    ir: &mut Ir,
    name: &str,
    attrs: Vec<(silica_ir::Symbol, silica_ir::Attr)>,
    loc: silica_ir::Attr,
) -> OpId {
    let region = ir.create_region();
    let block = ir.create_block();
    ir.append_block(region, block);
    let name = ctx.sym(name);
    let attrs = ctx.dict_attr(attrs);
    ir.create_op(OpSpec {
        name,
        loc,
        operands: &[],
        result_types: &[],
        successors: &[],
        regions: &[region],
        attrs,
        props: None,
    })
}

/// A shift register towards its top bit with `v` xored in; its top bit.
fn shift_out(hw: &mut Hw<'_>, v: ValueId) -> ValueId {
    let bits = hw.width(v);
    let chain = hw.reg("results", bits, None);
    let next = if bits == 1 {
        v
    } else {
        let kept = hw.extract(chain.q, 0, bits - 1);
        let zero = hw.constant(0, 1);
        let shifted = hw.concat(kept, zero);
        hw.comb("comb.xor", &[shifted, v])
    };
    let one = hw.constant(1, 1);
    hw.connect(chain, &[(one, next)]);
    hw.extract(chain.q, bits - 1, 1)
}

/// The operator of `circuit` on operands taken from `chain`.
fn operator(
    hw: &mut Hw<'_>,
    circuit: Circuit,
    chain: ValueId,
    width: u32,
) -> Result<ValueId, String> {
    Ok(match circuit {
        Circuit::Register | Circuit::Enables => chain,
        Circuit::ChainedAdds => {
            let a = hw.extract(chain, 0, width);
            let b = hw.extract(chain, width, width);
            let c = hw.extract(chain, 2 * width, width);
            let sum = hw.comb("comb.add", &[a, b]);
            let chained = hw.comb("comb.add", &[sum, c]);
            hw.concat(chained, sum)
        }
        Circuit::Readers { readers } => {
            let a = hw.extract(chain, 0, width);
            let sum = |hw: &mut Hw<'_>, i: u32| {
                let b = hw.extract(chain, width * (i + 1), width);
                hw.comb("comb.add", &[a, b])
            };
            let mut sums = sum(hw, 0);
            for i in 1..readers {
                let next = sum(hw, i);
                sums = hw.concat(next, sums);
            }
            sums
        }
        Circuit::Levels => {
            let mut y = hw.extract(chain, 0, 1);
            for level in 0..width {
                let bit = |hw: &mut Hw<'_>, i| hw.extract(chain, 3 * level + 1 + i, 1);
                let (a, b, c) = (bit(hw, 0), bit(hw, 1), bit(hw, 2));
                let ya = hw.and(y, a);
                let bc = hw.comb("comb.or", &[b, c]);
                y = hw.comb("comb.xor", &[ya, bc]);
            }
            y
        }
        Circuit::Comb {
            op,
            predicate,
            fed_by_logic,
        } => {
            let a = hw.extract(chain, 0, width);
            let b = hw.extract(chain, width, width);
            let a = if fed_by_logic {
                let rotated = rotate_left(hw, b);
                hw.comb("comb.xor", &[a, rotated])
            } else {
                a
            };
            match op {
                "comb.icmp" => hw.icmp(predicate, a, b),
                "comb.mux" => {
                    let c = hw.extract(chain, 2 * width, 1);
                    let ty = hw.int(width);
                    let m = hw.op("comb.mux", &[c, a, b], &[ty], vec![], vec![]);
                    hw.ir.result(m, 0)
                }
                _ => hw.comb(op, &[a, b]),
            }
        }
        Circuit::AgainstConstant {
            predicate,
            power_of_two,
        } => {
            let a = hw.extract(chain, 0, width);
            let bound = match power_of_two {
                true => 1 << (width / 2).saturating_sub(1),
                false => alternating(width),
            };
            let b = hw.constant(bound, width);
            hw.icmp(predicate, a, b)
        }
        Circuit::ByConstant { op, by } => {
            let a = hw.extract(chain, 0, width);
            let b = hw.constant(by, width);
            hw.comb(op, &[a, b])
        }
        Circuit::Divider { stages } => {
            let a = hw.extract(chain, 0, width);
            let b = hw.extract(chain, width, width);
            pipelined_division(hw, Op::DivS, &[a, b], stages, "divider")
        }
        Circuit::Ram { words } => {
            let aw = address_width(words);
            let address = hw.extract(chain, 0, aw);
            let we = hw.extract(chain, aw, 1);
            let data = hw.extract(chain, aw + 1, width);
            let handle = hw.firmem("ram", words, width);
            let clock = hw.clock;
            let read_enable = hw.not(we);
            let dt = hw.int(width);
            let port = hw.op(
                "seq.firmem.read_port",
                &[handle, address, clock, read_enable],
                &[dt],
                vec![],
                vec![],
            );
            let seg = hw.ctx.int_array_attr(32, &[1, 1, 1, 1, 1, 0]);
            hw.op(
                "seq.firmem.write_port",
                &[handle, address, clock, we, data],
                &[],
                vec![("operandSegmentSizes", seg)],
                vec![],
            );
            hw.ir.result(port, 0)
        }
        Circuit::Float { operator, latency } => {
            let mut operands = Vec::new();
            let mut names = Vec::new();
            if latency > 0 {
                operands.push(hw.clock);
                names.push("clock");
            }
            let mut low = 0;
            for (name, w) in operator.operands() {
                operands.push(hw.extract(chain, low, w));
                names.push(name);
                low += w;
            }
            let module = operator.module_name(latency);
            let result = ("result", hw.int(operator.result_width()));
            let inst = hw.instance(&module, "unit", &operands, &names, &[result]);
            hw.ir.result(inst, 0)
        }
    })
}

/// The `width`-bit constant `0b...0101` with its top bit clear.
pub fn alternating(width: u32) -> u128 {
    let ones = u128::MAX >> (128 - width.saturating_sub(1).clamp(1, 127));
    ones & (u128::MAX / 3)
}

/// `v` rotated by one bit towards its top.
fn rotate_left(hw: &mut Hw<'_>, v: ValueId) -> ValueId {
    let bits = hw.width(v);
    if bits == 1 {
        return v;
    }
    let low = hw.extract(v, 0, bits - 1);
    let top = hw.extract(v, bits - 1, 1);
    hw.concat(low, top)
}

/// The design's SystemVerilog (verified, then emitted).
pub fn verilog(ctx: &mut Context, ir: &Ir, top: OpId) -> Result<String, String> {
    silica_ir::verify::verify(ctx, ir, top, silica_ir::verify::VerifyOptions::default())
        .map_err(|d| format!("a test design does not verify: {}", d.message))?;
    silica_emit_verilog::emit_verilog(ctx, ir, top, silica_emit_verilog::Options::default())
        .map_err(|d| format!("a test design does not emit: {}", d.message))
}
