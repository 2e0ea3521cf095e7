//! Exception handling: `llvm.invoke` (a call with a normal and an unwind
//! successor), `llvm.landingpad` (`cleanup`, `catch` and `filter`
//! clauses; a clause is a filter when its value is an array) and
//! `llvm.resume`.

use crate::dialect::attrs;
use crate::dialect::call_ops::{callee_props, parse_call_types, parse_callee_args, parse_vararg};
use crate::dialect::switch::parse_dest;
use silica_ir::dialect::{inherent_attr, OpDef, Traits};
use silica_ir::format::{segment_sizes, SEGMENTS};
use silica_ir::lexer::Tok;
use silica_ir::parser::{AsmParser, PResult};
use silica_ir::printer::AsmPrinter;
use silica_ir::verify::OpVerifier;
use silica_ir::{Attr, AttrKind, Context, Ir, OpId, OpSpec, Symbol, Type, ValueId};

fn parse_invoke(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let cconv = crate::dialect::cconv::parse_optional(p)?;
    let (callee, unresolved) = parse_callee_args(p)?;
    p.expect_keyword("to")?;
    let mut normal_ops = Vec::new();
    let (normal, n_normal) = parse_dest(p, &mut normal_ops)?;
    p.expect_keyword("unwind")?;
    let mut unwind_ops = Vec::new();
    let (unwind, n_unwind) = parse_dest(p, &mut unwind_ops)?;
    let var_type = parse_vararg(p)?;
    let attrs = p.parse_optional_attr_dict()?;
    let types = parse_call_types(p, callee.is_none(), unresolved, "invoke")?;
    let (mut operands, outs) = (types.operands.clone(), types.results.clone());
    let n_callee = operands.len() as i64;
    operands.extend(normal_ops);
    operands.extend(unwind_ops);
    let loc = p.op_loc();
    let ctx = p.ctx();
    let mut props: Vec<(Symbol, Attr)> = Vec::new();
    let cc = attrs::keyword_attr(ctx, "cconv", cconv.unwrap_or("ccc"));
    props.push((ctx.sym("CConv"), cc));
    callee_props(ctx, &mut props, callee, var_type);
    types.add_attr_props(ctx, &mut props);
    let b = ctx.int_array_attr(32, &[]);
    props.push((ctx.sym("op_bundle_sizes"), b));
    let seg = ctx.int_array_attr(32, &[n_callee, n_normal, n_unwind, 0]);
    props.push((ctx.sym(SEGMENTS), seg));
    let props = ctx.dict_attr(props);
    let name = ctx.sym("llvm.invoke");
    Ok(p.create_op(OpSpec {
        name,
        loc,
        operands: &operands,
        result_types: &outs,
        successors: &[normal, unwind],
        regions: &[],
        attrs,
        props: Some(props),
    }))
}

/// `(callee operands, normal operands, unwind operands)` counts.
fn invoke_counts(ctx: &Context, ir: &Ir, op: OpId) -> (usize, usize, usize) {
    let seg = segment_sizes(ctx, ir, op).unwrap_or_default();
    (
        seg.first().copied().unwrap_or(0),
        seg.get(1).copied().unwrap_or(0),
        seg.get(2).copied().unwrap_or(0),
    )
}

/// The callee operands of an invoke (the callee pointer first when
/// indirect).
pub fn invoke_call_operands(ctx: &Context, ir: &Ir, op: OpId) -> Vec<ValueId> {
    let (n, _, _) = invoke_counts(ctx, ir, op);
    ir.operands(op).take(n).collect()
}

/// The operand range an invoke forwards to successor `succ`.
pub(crate) fn invoke_successor_operands(
    ctx: &Context,
    ir: &Ir,
    op: OpId,
    succ: usize,
) -> std::ops::Range<usize> {
    let (n, normal, unwind) = invoke_counts(ctx, ir, op);
    if succ == 0 {
        n..n + normal
    } else {
        n + normal..n + normal + unwind
    }
}

fn print_invoke(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let cconv = inherent_attr(ctx, ir, op, "CConv")
        .and_then(|a| attrs::keyword_of(ctx, a))
        .unwrap_or("ccc");
    if cconv != "ccc" {
        p.write(" ");
        p.write(cconv);
    }
    let operands: Vec<ValueId> = ir.operands(op).collect();
    let (n, normal, _) = invoke_counts(ctx, ir, op);
    let callee = inherent_attr(ctx, ir, op, "callee");
    let args = if callee.is_some() {
        &operands[..n]
    } else {
        &operands[1..n]
    };
    p.write(" ");
    match callee {
        Some(c) => p.attr(c),
        None => p.operand(operands[0]),
    }
    p.write("(");
    p.operands(args.iter().copied());
    p.write(") to ");
    let succs = ir.successors(op).to_vec();
    p.successor_with_operands(succs[0], &operands[n..n + normal]);
    p.write(" unwind ");
    p.successor_with_operands(succs[1], &operands[n + normal..]);
    if let Some(AttrKind::Type(t)) =
        inherent_attr(ctx, ir, op, "var_callee_type").map(|a| ctx.attr_kind(a))
    {
        p.write(" vararg(");
        p.ty(*t);
        p.write(")");
    }
    let elided = [
        "CConv",
        "callee",
        "var_callee_type",
        "op_bundle_sizes",
        SEGMENTS,
    ];
    p.attr_dict(ir.op_attrs(op), &elided, false);
    p.write(" : ");
    if callee.is_none() {
        p.ty(ir.value_type(operands[0]));
        p.write(", ");
    }
    let ins: Vec<Type> = args.iter().map(|v| ir.value_type(*v)).collect();
    let outs: Vec<Type> = ir.results(op).map(|v| ir.value_type(v)).collect();
    crate::dialect::call_ops::print_call_types(p, op, &ins, &outs);
}

fn verify_invoke(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let (n, normal, unwind) = invoke_counts(ctx, ir, op);
    let direct = inherent_attr(ctx, ir, op, "callee").is_some();
    if n + normal + unwind != ir.num_operands(op)
        || ir.successors(op).len() != 2
        || ir.num_results(op) > 1
        || (!direct && n == 0)
    {
        return Err(v.op_error(
            op,
            "expects callee operands, two successors with their operands and at most one result",
        ));
    }
    let operands: Vec<ValueId> = ir.operands(op).take(n).collect();
    crate::dialect::call_ops::verify_var_callee_type(v, op, &operands)
}

fn parse_landingpad(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let cleanup = p.eat_keyword("cleanup");
    let mut operands = Vec::new();
    while p.eat(Tok::LParen) {
        if !p.eat_keyword("catch") {
            p.expect_keyword("filter")?;
        }
        let v = p.parse_operand()?;
        p.expect(Tok::Colon, "':'")?;
        let t = p.parse_type()?;
        p.expect(Tok::RParen, "')'")?;
        operands.push(p.resolve_operand(v, t)?);
    }
    let attrs = p.parse_optional_attr_dict()?;
    p.expect(Tok::Colon, "':'")?;
    let ty = p.parse_type()?;
    let loc = p.op_loc();
    let ctx = p.ctx();
    let props = if cleanup {
        let u = ctx.unit_attr();
        let k = ctx.sym("cleanup");
        Some(ctx.dict_attr(vec![(k, u)]))
    } else {
        None
    };
    let name = ctx.sym("llvm.landingpad");
    Ok(p.create_op(OpSpec {
        name,
        loc,
        operands: &operands,
        result_types: &[ty],
        successors: &[],
        regions: &[],
        attrs,
        props,
    }))
}

/// Whether a landingpad clause value is a filter (an array) rather than a
/// catch.
pub fn is_filter(ctx: &Context, t: Type) -> bool {
    matches!(
        crate::dialect::types::llvm_type(ctx, t),
        Some(crate::dialect::types::LlvmType::Array(..))
    )
}

fn print_landingpad(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    if inherent_attr(ctx, ir, op, "cleanup").is_some() {
        p.write(" cleanup");
    }
    for v in ir.operands(op).collect::<Vec<_>>() {
        let t = ir.value_type(v);
        p.write(if is_filter(ctx, t) {
            " (filter "
        } else {
            " (catch "
        });
        p.operand(v);
        p.write(" : ");
        p.ty(t);
        p.write(")");
    }
    p.attr_dict(ir.op_attrs(op), &["cleanup"], false);
    p.write(" : ");
    p.ty(ir.value_type(ir.result(op, 0)));
}

/// MLIR's landingpad checks: a personality on the function, at least one
/// clause or `cleanup`, and catch clauses that are constants (null, a
/// global's address, or a bitcast of one).
fn verify_landingpad(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    if ir.num_results(op) != 1 {
        return Err(v.op_error(op, "expects one result"));
    }
    let func = std::iter::successors(ir.parent_op(op), |&p| ir.parent_op(p))
        .find(|&p| ctx.str(ir.op_name(p)) == "llvm.func");
    if func.is_some_and(|f| inherent_attr(ctx, ir, f, "personality").is_none()) {
        return Err(v.error(
            op,
            "llvm.landingpad needs to be in a function with a personality",
        ));
    }
    if inherent_attr(ctx, ir, op, "cleanup").is_none() && ir.num_operands(op) == 0 {
        return Err(v.error(
            op,
            "landingpad instruction expects at least one clause or cleanup attribute",
        ));
    }
    let def_name = |v: ValueId| ir.defining_op(v).map(|d| (d, ctx.str(ir.op_name(d))));
    for (i, clause) in ir.operands(op).enumerate() {
        if is_filter(ctx, ir.value_type(clause)) {
            continue;
        }
        match def_name(clause) {
            Some((_, "llvm.mlir.zero" | "llvm.mlir.addressof")) => {}
            Some((cast, "llvm.bitcast")) => {
                let source = ir.operand(cast, 0);
                if !matches!(def_name(source), Some((_, "llvm.mlir.addressof"))) {
                    let at = ir.op_loc(cast);
                    return Err(Box::new(v.error(op, "constant clauses expected").with_note(
                        at,
                        "global addresses expected as operand to bitcast used in clauses for landingpad",
                    )));
                }
            }
            _ => {
                return Err(v.error(
                    op,
                    format!("clause #{i} is not a known constant - null, addressof, bitcast"),
                ))
            }
        }
    }
    Ok(())
}

/// Within one function, every landingpad has one result type and every
/// resume takes it (MLIR checks this on the function).
pub(crate) fn verify_consistent_types(v: &mut OpVerifier<'_, '_>, func: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let mut seen: Option<Type> = None;
    let mut failure = None;
    ir.walk(func, &mut |o| {
        if failure.is_some() {
            return;
        }
        let (ty, what) = match ctx.str(ir.op_name(o)) {
            "llvm.landingpad" => (
                ir.value_type(ir.result(o, 0)),
                "'llvm.landingpad' should have a consistent result type inside a function",
            ),
            "llvm.resume" => (
                ir.value_type(ir.operand(o, 0)),
                "'llvm.resume' should have a consistent input type inside a function",
            ),
            _ => return,
        };
        match seen {
            None => seen = Some(ty),
            Some(t) if t != ty => failure = Some(what),
            Some(_) => {}
        }
    });
    match failure {
        Some(msg) => Err(v.error(func, msg)),
        None => Ok(()),
    }
}

/// The `llvm.invoke` op.
pub(crate) const INVOKE: OpDef = OpDef {
    traits: Traits::TERMINATOR,
    inherent_attrs: &[
        "CConv",
        "callee",
        "var_callee_type",
        "op_bundle_sizes",
        SEGMENTS,
        "branch_weights",
        "arg_attrs",
        "res_attrs",
    ],
    parse: Some(parse_invoke),
    print: Some(print_invoke),
    verify: Some(verify_invoke),
    branch: Some(&crate::dialect::func_ops::BRANCH),
    ..OpDef::new("llvm.invoke")
};

/// The `llvm.landingpad` op.
pub(crate) const LANDINGPAD: OpDef = OpDef {
    inherent_attrs: &["cleanup"],
    parse: Some(parse_landingpad),
    print: Some(print_landingpad),
    verify: Some(verify_landingpad),
    ..OpDef::new("llvm.landingpad")
};
