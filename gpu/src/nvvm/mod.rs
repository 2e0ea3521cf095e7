//! The `nvvm` dialect, as far as the lowering of the `gpu` dialect needs
//! it: the special registers a thread reads its place from
//! (`nvvm.read.ptx.sreg.tid.x range <i32, 0, 32> : i32`), the block's
//! barrier (`nvvm.barrier0`), and the target attribute a `gpu.module`
//! carries (`#nvvm.target<chip = "sm_90">`). LLVM IR names each op's
//! intrinsic ([`intrinsic`]).

pub mod target;

use silica_ir::dialect::{AttrHooks, DialectDef, Effects, OpDef};
use silica_ir::format::{parse_op, print_op, Signature};
use silica_ir::lexer::Tok;
use silica_ir::parser::{AsmParser, PResult};
use silica_ir::printer::AsmPrinter;
use silica_ir::verify::OpVerifier;
use silica_ir::{Attr, Context, Ir, OpId, OpSpec};

/// The prefix of the special register ops.
pub const SREG: &str = "nvvm.read.ptx.sreg.";
pub const BARRIER0: &str = "nvvm.barrier0";

/// The special registers read as `i32`: thread id, block size, block id
/// and grid size per dimension, the lane id and the warp size.
pub const REGISTERS: [&str; 14] = [
    "tid.x", "tid.y", "tid.z", "ntid.x", "ntid.y", "ntid.z", "ctaid.x", "ctaid.y", "ctaid.z",
    "nctaid.x", "nctaid.y", "nctaid.z", "laneid", "warpsize",
];

/// The LLVM intrinsic of an `nvvm` op.
pub fn intrinsic(op_name: &str) -> Option<String> {
    if let Some(register) = op_name.strip_prefix(SREG) {
        return Some(format!("llvm.nvvm.read.ptx.sreg.{register}"));
    }
    (op_name == BARRIER0).then(|| "llvm.nvvm.barrier0".to_string())
}

/// Creates `nvvm.read.ptx.sreg.<register> [range <i32, lo, hi>] : i32`
/// at `loc`, unplaced.
pub fn create_register(
    ctx: &mut Context,
    ir: &mut Ir,
    register: &str,
    range: Option<(i64, i64)>,
    loc: Attr,
) -> OpId {
    let i32 = ctx.signless(32);
    let props = range.map(|(lo, hi)| {
        let key = ctx.sym("range");
        let value = silica_llvm::dialect::attrs::raw_attr(
            ctx,
            "constant_range",
            &format!("i32, {lo}, {hi}"),
        );
        ctx.dict_attr(vec![(key, value)])
    });
    let name = ctx.sym(&format!("{SREG}{register}"));
    let attrs = ctx.empty_dict();
    ir.create_op(OpSpec {
        name,
        loc,
        operands: &[],
        result_types: &[i32],
        successors: &[],
        regions: &[],
        attrs,
        props,
    })
}

/// `[range <i32, lo, hi>] attr-dict : i32`.
fn parse_register(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let name = p.op_name();
    let mut props = None;
    if p.eat_keyword("range") {
        let raw = p.parse_balanced_body()?;
        let ctx = p.ctx();
        let key = ctx.sym("range");
        let value = silica_llvm::dialect::attrs::raw_attr(ctx, "constant_range", &raw);
        props = Some(ctx.dict_attr(vec![(key, value)]));
    }
    let attrs = p.parse_optional_attr_dict()?;
    p.expect(Tok::Colon, "':'")?;
    let ty = p.parse_type()?;
    let loc = p.op_loc();
    let name = p.ctx().sym(name);
    Ok(p.create_op(OpSpec {
        name,
        loc,
        operands: &[],
        result_types: &[ty],
        successors: &[],
        regions: &[],
        attrs,
        props,
    }))
}

fn print_register(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    if let Some(range) = silica_ir::dialect::inherent_attr(ctx, ir, op, "range") {
        if let Some((_, raw)) = silica_llvm::dialect::attrs::raw_text(ctx, range) {
            p.write(" range <");
            p.write(raw);
            p.write(">");
        }
    }
    p.attr_dict(ir.op_attrs(op), &[], false);
    if let Some(r) = ir.results(op).next() {
        p.write(" : ");
        p.ty(ir.value_type(r));
    }
}

fn verify_register(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let ir = v.ir();
    let i32 = ir.results(op).map(|r| ir.value_type(r)).collect::<Vec<_>>();
    if i32.len() != 1 || v.ctx().int_width(i32[0]) != Some(32) {
        return Err(v.op_error(op, "requires a single 32-bit integer result"));
    }
    if ir.operands(op).next().is_some() || ir.regions(op).next().is_some() {
        return Err(v.op_error(op, "takes no operands and no regions"));
    }
    Ok(())
}

const fn register(name: &'static str) -> OpDef {
    OpDef {
        parse: Some(parse_register),
        print: Some(print_register),
        verify: Some(verify_register),
        inherent_attrs: &["range"],
        effects: Effects::None,
        ..OpDef::new(name)
    }
}

static BARRIER_SIG: Signature = Signature::new(&[], &[], &[], "attr-dict");

static OPS: [OpDef; 15] = [
    register("nvvm.read.ptx.sreg.tid.x"),
    register("nvvm.read.ptx.sreg.tid.y"),
    register("nvvm.read.ptx.sreg.tid.z"),
    register("nvvm.read.ptx.sreg.ntid.x"),
    register("nvvm.read.ptx.sreg.ntid.y"),
    register("nvvm.read.ptx.sreg.ntid.z"),
    register("nvvm.read.ptx.sreg.ctaid.x"),
    register("nvvm.read.ptx.sreg.ctaid.y"),
    register("nvvm.read.ptx.sreg.ctaid.z"),
    register("nvvm.read.ptx.sreg.nctaid.x"),
    register("nvvm.read.ptx.sreg.nctaid.y"),
    register("nvvm.read.ptx.sreg.nctaid.z"),
    register("nvvm.read.ptx.sreg.laneid"),
    register("nvvm.read.ptx.sreg.warpsize"),
    OpDef {
        parse: Some(parse_op),
        print: Some(print_op),
        signature: Some(&BARRIER_SIG),
        effects: Effects::Unknown,
        ..OpDef::new(BARRIER0)
    },
];

/// The `nvvm` dialect.
pub static NVVM: DialectDef = DialectDef {
    name: "nvvm",
    ops: &OPS,
    attrs: Some(AttrHooks {
        parse: target::parse_attr,
        print: target::print_attr,
        type_of: None,
        alias: None,
    }),
    types: None,
    materialize_constant: None,
};
