//! `--seq-reg-of-vec-to-mem`: a register of array type written one
//! element at a time and read by index becomes a memory (CIRCT's pass of
//! that name), so that the Verilog emitter writes an array yosys maps to
//! block RAM instead of N registers and a multiplexer tree.
//!
//! The shape recognised is
//! `%mem = seq.firreg (comb.mux %we, (hw.array_inject %mem[%a], %d), %mem)`
//! with no reset, where the register is otherwise read only through
//! `hw.array_get`. It becomes a `seq.firmem` named `mem` (read latency 0,
//! write latency 1, as the register reads the old contents and updates at
//! the clock edge), one always-enabled read port per `hw.array_get` and
//! one write port enabled by `%we`. Anything else is left as it is.

use crate::hw::create_constant;
use crate::seq::memory_ops::firmem_address_width;
use crate::types::{firmem, hw_type, HwType};
use silica_ir::graph::OpSpec;
use silica_ir::pass::{Pass, PassInfo, PassOptions};
use silica_ir::{Attr, Context, Diagnostic, Ir, OpId, Type, ValueId};

/// Rewrites every register under `top` that has the memory's shape.
pub fn reg_of_vec_to_mem(ctx: &mut Context, ir: &mut Ir, top: OpId) {
    let mut regs = Vec::new();
    ir.walk(top, &mut |o| {
        if ctx.str(ir.op_name(o)) == "seq.firreg" {
            regs.push(o);
        }
    });
    for reg in regs {
        if let Some(shape) = match_memory(ctx, ir, reg) {
            rewrite(ctx, ir, reg, &shape);
        }
    }
}

/// A register recognised as a memory.
struct Memory {
    depth: u64,
    width: u64,
    clock: ValueId,
    write_enable: ValueId,
    write_address: ValueId,
    write_data: ValueId,
    mux: OpId,
    inject: OpId,
    reads: Vec<OpId>,
}

fn named(ctx: &Context, ir: &Ir, op: OpId, name: &str) -> bool {
    ctx.str(ir.op_name(op)) == name
}

fn single_use(ir: &Ir, v: ValueId) -> Option<OpId> {
    let mut uses = ir.uses(v);
    let first = uses.next()?;
    uses.next().is_none().then(|| ir.use_owner(first))
}

fn match_memory(ctx: &Context, ir: &Ir, reg: OpId) -> Option<Memory> {
    // Only a plain register: next value and clock, no reset or preset.
    let operands: Vec<_> = ir.operands(reg).collect();
    if operands.len() != 2 || silica_ir::dialect::inherent_attr(ctx, ir, reg, "preset").is_some() {
        return None;
    }
    let state = ir.result(reg, 0);
    let Some(HwType::Array(depth, element)) = hw_type(ctx, ir.value_type(state)) else {
        return None;
    };
    let width = u64::from(ctx.int_width(element)?);
    let mux = ir
        .defining_op(operands[0])
        .filter(|&m| named(ctx, ir, m, "comb.mux"))?;
    let [write_enable, written, kept]: [ValueId; 3] =
        ir.operands(mux).collect::<Vec<_>>().try_into().ok()?;
    let inject = ir
        .defining_op(written)
        .filter(|&i| named(ctx, ir, i, "hw.array_inject"))?;
    let [array, write_address, write_data]: [ValueId; 3] =
        ir.operands(inject).collect::<Vec<_>>().try_into().ok()?;
    if kept != state || array != state {
        return None;
    }
    if single_use(ir, ir.result(mux, 0)) != Some(reg) || single_use(ir, written) != Some(mux) {
        return None;
    }
    let mut reads = Vec::new();
    for u in ir.uses(state) {
        let user = ir.use_owner(u);
        if user == mux || user == inject {
            continue;
        }
        let reads_element =
            named(ctx, ir, user, "hw.array_get") && ir.operands(user).next() == Some(state);
        if !reads_element {
            return None;
        }
        reads.push(user);
    }
    // In block order, as the read ports are created.
    let block = ir.op_block(reg)?;
    let reads: Vec<OpId> = ir.block_ops(block).filter(|o| reads.contains(o)).collect();
    Some(Memory {
        depth,
        width,
        clock: operands[1],
        write_enable,
        write_address,
        write_data,
        mux,
        inject,
        reads,
    })
}

fn create(
    ctx: &mut Context,
    ir: &mut Ir,
    before: OpId,
    name: &str,
    operands: &[ValueId],
    results: &[Type],
    props: Option<Attr>,
) -> OpId {
    let loc = ir.op_loc(before);
    let (name, attrs) = (ctx.sym(name), ctx.dict_attr(Vec::new()));
    let op = ir.create_op(OpSpec {
        name,
        loc,
        operands,
        result_types: results,
        successors: &[],
        regions: &[],
        attrs,
        props,
    });
    ir.insert_op_before(before, op);
    op
}

/// `address` as the memory's address: a zero-width index (a one-element
/// array) becomes the constant 0 of the memory's one-bit address.
fn port_address(ctx: &mut Context, ir: &mut Ir, reg: OpId, address: ValueId, bits: u32) -> ValueId {
    if ctx.int_width(ir.value_type(address)) != Some(0) {
        return address;
    }
    let ty = ctx.signless(bits);
    let zero = ctx.int_attr(ty, 0);
    let c = create_constant(ctx, ir, ir.op_loc(reg), zero, ty);
    ir.insert_op_before(reg, c);
    ir.result(c, 0)
}

fn rewrite(ctx: &mut Context, ir: &mut Ir, reg: OpId, m: &Memory) {
    let mem_ty = firmem(ctx, m.depth, m.width, Some(1));
    let i32_ty = ctx.signless(32);
    let mut props: Vec<_> = [
        ("readLatency", 0),
        ("writeLatency", 1),
        ("ruw", 0),
        ("wuw", 0),
    ]
    .into_iter()
    .map(|(k, v)| (ctx.sym(k), ctx.int_attr(i32_ty, v)))
    .collect();
    let name = (ctx.sym("name"), ctx.string_attr(b"mem"));
    props.push(name);
    let props = ctx.dict_attr(props);
    let mem = create(ctx, ir, reg, "seq.firmem", &[], &[mem_ty], Some(props));
    let mem = ir.result(mem, 0);
    let bits = firmem_address_width(m.depth);
    let data_ty = ctx.signless(m.width as u32);
    let i1 = ctx.signless(1);
    for &get in &m.reads {
        let Some(index) = ir.operands(get).nth(1) else {
            continue;
        };
        let address = port_address(ctx, ir, reg, index, bits);
        let one = ctx.int_attr(i1, 1);
        let enable = create_constant(ctx, ir, ir.op_loc(reg), one, i1);
        ir.insert_op_before(reg, enable);
        let enable = ir.result(enable, 0);
        let operands = [mem, address, m.clock, enable];
        let port = create(
            ctx,
            ir,
            reg,
            "seq.firmem.read_port",
            &operands,
            &[data_ty],
            None,
        );
        ir.replace_all_uses(ir.result(get, 0), ir.result(port, 0));
    }
    let address = port_address(ctx, ir, reg, m.write_address, bits);
    let segments = ctx.int_array_attr(32, &[1, 1, 1, 1, 1, 0]);
    let key = ctx.sym("operandSegmentSizes");
    let segments = ctx.dict_attr(vec![(key, segments)]);
    let operands = [mem, address, m.clock, m.write_enable, m.write_data];
    create(
        ctx,
        ir,
        reg,
        "seq.firmem.write_port",
        &operands,
        &[],
        Some(segments),
    );
    for &get in &m.reads {
        ir.erase_op(get);
    }
    // The register, the mux and the inject use each other only: cut the
    // cycle, then erase them users first.
    ir.set_operands(reg, &[]);
    ir.erase_op(m.mux);
    ir.erase_op(m.inject);
    ir.erase_op(reg);
}

struct RegOfVecToMem;

impl Pass for RegOfVecToMem {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        reg_of_vec_to_mem(ctx, ir, op);
        Ok(())
    }
}

/// The `seq-reg-of-vec-to-mem` pass.
pub static SEQ_REG_OF_VEC_TO_MEM: PassInfo = PassInfo {
    argument: "seq-reg-of-vec-to-mem",
    name: "RegOfVecToMem",
    description: "Turns registers of arrays written and read by index into seq.firmem memories",
    anchor: Some("builtin.module"),
    options: &[],
    create: |_: &PassOptions| Ok(Box::new(RegOfVecToMem)),
};
