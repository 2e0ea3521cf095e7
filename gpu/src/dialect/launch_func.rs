//! `gpu.launch_func`: the host's launch of a kernel of a `gpu.module`
//! on a grid, with the kernel's arguments.
//!
//! ```text
//! gpu.launch_func  @module::@kernel blocks in (%gx, %gy, %gz)
//!     threads in (%bx, %by, %bz) [: i64] [dynamic_shared_memory_size %s]
//!     [args(%a : T, ...)] [attr-dict]
//! ```
//!
//! The sizes are `index`, or of the type after them (`: i64` once
//! `gpu-to-llvm` has converted the host). (The spaces are mlir-opt-22's:
//! its format prints the empty async and launch-dimension-type
//! directives as spaces.)

use super::kernel::{function_type, is_kernel, FUNC};
use silica_ir::dialect::{inherent_attr, Effects, OpDef};
use silica_ir::lexer::Tok;
use silica_ir::parser::{AsmParser, PResult, UnresolvedOperand};
use silica_ir::printer::AsmPrinter;
use silica_ir::verify::OpVerifier;
use silica_ir::{Attr, AttrKind, Context, Ir, OpId, OpSpec, Type, ValueId};

pub const LAUNCH_FUNC: &str = "gpu.launch_func";

/// The operand groups of a launch: grid sizes and block sizes (three
/// each), the optional dynamic shared memory size, the kernel's
/// arguments.
pub struct LaunchOperands {
    pub grid: [ValueId; 3],
    pub block: [ValueId; 3],
    pub dynamic_shared: Option<ValueId>,
    pub args: Vec<ValueId>,
}

/// `operandSegmentSizes`: async dependencies, grid sizes, block sizes,
/// cluster sizes, dynamic shared memory size, kernel operands, async
/// object.
fn segments(ctx: &mut Context, dynamic_shared: bool, args: usize) -> Attr {
    ctx.int_array_attr(
        32,
        &[
            0,
            1,
            1,
            1,
            1,
            1,
            1,
            0,
            0,
            0,
            i64::from(dynamic_shared),
            args as i64,
            0,
        ],
    )
}

/// The operands in order and the properties of a launch of `kernel`.
pub fn parts(ctx: &mut Context, kernel: Attr, o: &LaunchOperands) -> (Vec<ValueId>, Attr) {
    let mut operands: Vec<ValueId> = o.grid.iter().chain(&o.block).copied().collect();
    operands.extend(o.dynamic_shared);
    operands.extend(&o.args);
    let kernel_key = ctx.sym("kernel");
    let segments_key = ctx.sym(silica_ir::format::SEGMENTS);
    let sizes = segments(ctx, o.dynamic_shared.is_some(), o.args.len());
    let props = ctx.dict_attr(vec![(kernel_key, kernel), (segments_key, sizes)]);
    (operands, props)
}

/// Creates a launch of `kernel` (`@module::@func`) at `loc`, unplaced.
pub fn create(ctx: &mut Context, ir: &mut Ir, kernel: Attr, o: &LaunchOperands, loc: Attr) -> OpId {
    let (operands, props) = parts(ctx, kernel, o);
    let name = ctx.sym(LAUNCH_FUNC);
    let attrs = ctx.empty_dict();
    ir.create_op(OpSpec {
        name,
        loc,
        operands: &operands,
        result_types: &[],
        successors: &[],
        regions: &[],
        attrs,
        props: Some(props),
    })
}

/// A launch's operands by group.
pub fn operands(ctx: &Context, ir: &Ir, op: OpId) -> Option<LaunchOperands> {
    let all: Vec<ValueId> = ir.operands(op).collect();
    let sizes = silica_ir::format::segment_sizes(ctx, ir, op)?;
    if sizes.len() != 13 || sizes[0] != 0 || sizes[7..10].iter().any(|&n| n != 0) {
        return None;
    }
    let grid = [*all.first()?, *all.get(1)?, *all.get(2)?];
    let block = [*all.get(3)?, *all.get(4)?, *all.get(5)?];
    let dynamic_shared = (sizes[10] == 1).then(|| all.get(6).copied()).flatten();
    let from = 6 + sizes[10];
    let args = all.get(from..from + sizes[11])?.to_vec();
    Some(LaunchOperands {
        grid,
        block,
        dynamic_shared,
        args,
    })
}

/// `(%a, %b, %c)` after `keyword in`.
fn parse_triple<'a>(
    p: &mut AsmParser<'_, 'a>,
    keyword: &str,
) -> PResult<Vec<UnresolvedOperand<'a>>> {
    p.expect_keyword(keyword)?;
    p.expect_keyword("in")?;
    p.expect(Tok::LParen, "'('")?;
    let mut values = Vec::new();
    p.comma_list(Tok::RParen, "')'", |p| {
        values.push(p.parse_operand()?);
        Ok(())
    })?;
    if values.len() != 3 {
        return p.op_error("custom op 'gpu.launch_func' expected 3 sizes");
    }
    Ok(values)
}

fn parse(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    if p.peek_keyword("async") || p.peek(Tok::LSquare) || p.peek(Tok::Less) {
        return p.op_error(
            "custom op 'gpu.launch_func' with async dependencies is not supported by silica",
        );
    }
    let at = p.pos();
    let kernel = p.parse_attribute()?;
    if !matches!(p.ctx().attr_kind(kernel), AttrKind::SymbolRef { .. }) {
        return p.error_at(at, "expected a symbol reference to the kernel");
    }
    if p.peek_keyword("clusters") {
        return p.op_error("custom op 'gpu.launch_func' with clusters is not supported by silica");
    }
    let grid = parse_triple(p, "blocks")?;
    let block = parse_triple(p, "threads")?;
    let dim_type = if p.eat(Tok::Colon) {
        p.parse_type()?
    } else {
        p.ctx().index_type()
    };
    let dynamic_shared = if p.eat_keyword("dynamic_shared_memory_size") {
        Some(p.parse_operand()?)
    } else {
        None
    };
    let mut args: Vec<(UnresolvedOperand<'_>, Type)> = Vec::new();
    if p.eat_keyword("args") {
        p.expect(Tok::LParen, "'('")?;
        p.comma_list(Tok::RParen, "')'", |p| {
            let u = p.parse_operand()?;
            p.expect(Tok::Colon, "':'")?;
            args.push((u, p.parse_type()?));
            Ok(())
        })?;
    }
    let attrs = p.parse_optional_attr_dict()?;
    let mut sizes = Vec::new();
    for u in grid.into_iter().chain(block) {
        sizes.push(p.resolve_operand(u, dim_type)?);
    }
    let dynamic_shared = match dynamic_shared {
        Some(u) => {
            let i32 = p.ctx().signless(32);
            Some(p.resolve_operand(u, i32)?)
        }
        None => None,
    };
    let mut resolved = Vec::new();
    for (u, t) in args {
        resolved.push(p.resolve_operand(u, t)?);
    }
    let loc = p.op_loc();
    let o = LaunchOperands {
        grid: [sizes[0], sizes[1], sizes[2]],
        block: [sizes[3], sizes[4], sizes[5]],
        dynamic_shared,
        args: resolved,
    };
    let (operands, props) = parts(p.ctx(), kernel, &o);
    let name = p.ctx().sym(LAUNCH_FUNC);
    let op = p.create_op(OpSpec {
        name,
        loc,
        operands: &operands,
        result_types: &[],
        successors: &[],
        regions: &[],
        attrs,
        props: Some(props),
    });
    Ok(op)
}

fn print(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let Some(o) = operands(ctx, ir, op) else {
        return;
    };
    p.write("  ");
    if let Some(k) = inherent_attr(ctx, ir, op, "kernel") {
        p.attr(k);
    }
    p.write(" blocks in (");
    p.operands(o.grid);
    p.write(") threads in (");
    p.operands(o.block);
    p.write(") ");
    let dim_type = ir.value_type(o.grid[0]);
    if !matches!(ctx.type_kind(dim_type), silica_ir::TypeKind::Index) {
        p.write(": ");
        p.ty(dim_type);
    }
    p.write(" ");
    if let Some(s) = o.dynamic_shared {
        p.write("dynamic_shared_memory_size ");
        p.operand(s);
        p.write(" ");
    }
    if !o.args.is_empty() {
        p.write("args(");
        for (i, &a) in o.args.iter().enumerate() {
            if i > 0 {
                p.write(", ");
            }
            p.operand(a);
            p.write(" : ");
            p.ty(ir.value_type(a));
        }
        p.write(")");
    }
    p.attr_dict(ir.op_attrs(op), &[], false);
}

/// The kernel's checks as MLIR's `gpu.container_module` verifier makes
/// them: the module and function exist, the function is a kernel, and
/// the arguments match its parameters.
fn verify(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let Some(o) = operands(ctx, ir, op) else {
        return Err(v.op_error(op, "expects a grid, a block and no async operands"));
    };
    let Some(kernel) = inherent_attr(ctx, ir, op, "kernel") else {
        return Err(v.op_error(op, "requires attribute 'kernel'"));
    };
    let AttrKind::SymbolRef { root, nested } = ctx.attr_kind(kernel) else {
        return Err(v.op_error(op, "requires attribute 'kernel'"));
    };
    let module_name = ctx.str(*root).to_string();
    let Some(module) = silica_ir::symbols::resolve_ref(ctx, ir, op, *root, &[]) else {
        return Err(v.op_error(op, format!("kernel container '{module_name}' is undefined")));
    };
    // A compiled module's kernels are not checked (they are in its
    // objects).
    if ctx.str(ir.op_name(module)) == super::binary::BINARY {
        return Ok(());
    }
    let func = nested
        .first()
        .and_then(|f| silica_ir::symbols::lookup(ctx, ir, module, ctx.str(*f)));
    let Some(func) = func else {
        let shown = silica_ir::printer::attr_to_string(ctx, kernel);
        return Err(v.op_error(op, format!("kernel function '{shown}' is undefined")));
    };
    if ctx.str(ir.op_name(func)) == FUNC && !is_kernel(ctx, ir, func) {
        return Err(v.op_error(op, "kernel function is missing the 'gpu.kernel' attribute"));
    }
    let Some((ins, _)) = function_type(ctx, ir, func) else {
        return Ok(());
    };
    if ins.len() != o.args.len() {
        return Err(v.op_error(
            op,
            format!(
                "got {} kernel operands but expected {}",
                o.args.len(),
                ins.len()
            ),
        ));
    }
    for (i, (&a, &t)) in o.args.iter().zip(&ins).enumerate() {
        if ir.value_type(a) != t {
            return Err(v.op_error(op, format!("type of function argument {i} does not match")));
        }
    }
    Ok(())
}

pub(super) const OPS: [OpDef; 1] = [OpDef {
    parse: Some(parse),
    print: Some(print),
    verify: Some(verify),
    inherent_attrs: &["kernel", "operandSegmentSizes"],
    effects: Effects::Unknown,
    ..OpDef::new(LAUNCH_FUNC)
}];
