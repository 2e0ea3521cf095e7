//! Calls: `llvm.call` (direct, indirect, variadic; calling convention
//! and tail-call kind before the callee) and `llvm.call_intrinsic`, their
//! trailing types with argument and result attributes (`CallTypes`,
//! shared with `llvm.invoke`), and their checks against the callee.

use crate::dialect::attrs;
use crate::dialect::func_ops::{
    entry_attrs, print_extra_attrs, prop, split_attrs, type_attr, type_of_attr,
};
use crate::dialect::types::{self, LlvmType};
use silica_ir::dialect::{inherent_attr, OpDef};
use silica_ir::format::{segment_sizes, SEGMENTS};
use silica_ir::lexer::Tok;
use silica_ir::parser::{AsmParser, PResult, UnresolvedOperand};
use silica_ir::printer::AsmPrinter;
use silica_ir::verify::OpVerifier;
use silica_ir::{Attr, AttrKind, Context, OpId, OpSpec, Symbol, Type, ValueId};

// ----- llvm.call ------------------------------------------------------------

const CALL_INHERENT: &[&str] = &[
    "callee",
    "var_callee_type",
    "CConv",
    "TailCallKind",
    "fastmathFlags",
    "op_bundle_sizes",
    "op_bundle_tags",
    "operandSegmentSizes",
    "branch_weights",
    "no_inline",
    "always_inline",
    "inline_hint",
    "convergent",
    "no_unwind",
    "will_return",
    "memory_effects",
    "arg_attrs",
    "res_attrs",
    "access_groups",
    "alias_scopes",
    "noalias_scopes",
    "tbaa",
];

const CALL_ELIDED: &[&str] = &[
    "arg_attrs",
    "res_attrs",
    "callee",
    "var_callee_type",
    "CConv",
    "TailCallKind",
    "op_bundle_sizes",
    "operandSegmentSizes",
];

/// `@callee(%args)` or `%ptr(%args)`: the callee symbol, if direct, and
/// the operands (the callee pointer first when indirect).
pub(crate) fn parse_callee_args<'a>(
    p: &mut AsmParser<'_, 'a>,
) -> PResult<(Option<Symbol>, Vec<UnresolvedOperand<'a>>)> {
    let callee = p.parse_optional_symbol_name()?;
    let mut unresolved = Vec::new();
    if callee.is_none() {
        unresolved.push(p.parse_operand()?);
    }
    p.expect(Tok::LParen, "'('")?;
    if !p.peek(Tok::RParen) {
        unresolved.extend(p.parse_operand_list()?);
    }
    p.expect(Tok::RParen, "')'")?;
    Ok((callee, unresolved))
}

/// `vararg(!llvm.func<...>)`, if next.
pub(crate) fn parse_vararg(p: &mut AsmParser<'_, '_>) -> PResult<Option<Type>> {
    if !p.eat_keyword("vararg") {
        return Ok(None);
    }
    p.expect(Tok::LParen, "'('")?;
    let t = p.parse_type()?;
    p.expect(Tok::RParen, "')'")?;
    Ok(Some(t))
}

/// What follows the `:` of a call, an invoke or a `call_intrinsic`.
pub(crate) struct CallTypes {
    pub operands: Vec<ValueId>,
    pub results: Vec<Type>,
    /// `arg_attrs` and `res_attrs` when any argument or result has
    /// attributes (`(i32 {llvm.signext}) -> (i32 {llvm.zeroext})`).
    pub arg_attrs: Option<Attr>,
    pub res_attrs: Option<Attr>,
}

impl CallTypes {
    /// Adds `arg_attrs` and `res_attrs` to `props`.
    pub fn add_attr_props(&self, ctx: &mut Context, props: &mut Vec<(Symbol, Attr)>) {
        if let Some(a) = self.arg_attrs {
            prop(ctx, props, "arg_attrs", a);
        }
        if let Some(a) = self.res_attrs {
            prop(ctx, props, "res_attrs", a);
        }
    }
}

/// `T {attrs}, ...` up to `)`, the opening `(` read: the types and
/// their dictionaries (all empty ones as `None`).
fn parse_attributed_types(p: &mut AsmParser<'_, '_>) -> PResult<(Vec<Type>, Option<Vec<Attr>>)> {
    let mut types = Vec::new();
    let mut dicts = Vec::new();
    if !p.eat(Tok::RParen) {
        loop {
            types.push(p.parse_type()?);
            dicts.push(p.parse_optional_nonempty_attr_dict()?);
            if !p.eat(Tok::Comma) {
                break;
            }
        }
        p.expect(Tok::RParen, "')'")?;
    }
    if dicts.iter().all(Option::is_none) {
        return Ok((types, None));
    }
    let empty = p.ctx().empty_dict();
    Ok((
        types,
        Some(dicts.into_iter().map(|d| d.unwrap_or(empty)).collect()),
    ))
}

/// `: [!llvm.ptr,] (ins) -> outs` (the pointer type when indirect), each
/// argument and result with optional attributes. `what` names the op in
/// the operand-count error.
pub(crate) fn parse_call_types<'a>(
    p: &mut AsmParser<'_, 'a>,
    indirect: bool,
    unresolved: Vec<UnresolvedOperand<'a>>,
    what: &str,
) -> PResult<CallTypes> {
    p.expect(Tok::Colon, "':'")?;
    let mut operand_types = Vec::new();
    let kind = if indirect { "indirect" } else { "direct" };
    let at = p.pos();
    if indirect {
        if p.peek(Tok::LParen) {
            return p.error_at(
                at,
                format!("expected {kind} {what} to have 2 trailing types"),
            );
        }
        operand_types.push(p.parse_type()?);
        p.expect(Tok::Comma, "','")?;
    }
    let at = p.pos();
    if !p.peek(Tok::LParen) {
        // MLIR reports what it expected and then the missing `(`.
        let first = if indirect {
            "expected trailing function type".to_string()
        } else {
            format!("expected {kind} {what} to have 1 trailing type")
        };
        let loc = p.loc_at(at);
        p.ctx().emit(silica_ir::diag::Diagnostic::error(loc, first));
        return p.error_at(at, "expected '('");
    }
    p.expect(Tok::LParen, "'('")?;
    let (ins, arg_dicts) = parse_attributed_types(p)?;
    p.expect(Tok::Arrow, "'->'")?;
    let (results, res_dicts) = if p.eat(Tok::LParen) {
        parse_attributed_types(p)?
    } else {
        (vec![p.parse_type()?], None)
    };
    if results.len() > 1 {
        return p.error_at(at, "expected function with 0 or 1 result");
    }
    if results.first().is_some_and(|&r| types::is_void(p.ctx(), r)) {
        return p.error_at(at, "expected a non-void result type");
    }
    operand_types.extend(ins);
    if operand_types.len() != unresolved.len() {
        return p.error_at(at, format!("incorrect number of operands for the {what}"));
    }
    let mut operands = Vec::new();
    for (u, t) in unresolved.into_iter().zip(operand_types) {
        operands.push(p.resolve_operand(u, t)?);
    }
    let ctx = p.ctx();
    Ok(CallTypes {
        operands,
        results,
        arg_attrs: arg_dicts.map(|d| ctx.array_attr(&d)),
        res_attrs: res_dicts.map(|d| ctx.array_attr(&d)),
    })
}

/// Prints `(ins) -> outs` of a call, with each argument's and result's
/// attributes from `arg_attrs`/`res_attrs`.
pub(crate) fn print_call_types(p: &mut AsmPrinter<'_, '_>, op: OpId, ins: &[Type], outs: &[Type]) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let has = |key: &str, n: usize| (0..n).any(|i| entry_attrs(ctx, ir, op, key, i).is_some());
    let (args, results) = (has("arg_attrs", ins.len()), has("res_attrs", outs.len()));
    if !args && !results {
        p.functional_type(ins, outs);
        return;
    }
    let list = |p: &mut AsmPrinter<'_, '_>, key: &str, types: &[Type]| {
        p.write("(");
        for (i, &t) in types.iter().enumerate() {
            if i > 0 {
                p.write(", ");
            }
            p.ty(t);
            let (ctx, ir) = (p.ctx(), p.ir());
            if let Some(d) = entry_attrs(ctx, ir, op, key, i) {
                p.write(" ");
                p.attr(d);
            }
        }
        p.write(")");
    };
    list(p, "arg_attrs", ins);
    p.write(" -> ");
    if results {
        list(p, "res_attrs", outs);
    } else {
        match outs {
            [t] => p.ty(*t),
            _ => list(p, "res_attrs", outs),
        }
    }
}

/// The `callee` and `var_callee_type` properties of a call or invoke.
pub(crate) fn callee_props(
    ctx: &mut Context,
    props: &mut Vec<(Symbol, Attr)>,
    callee: Option<Symbol>,
    var_type: Option<Type>,
) {
    if let Some(c) = callee {
        let r = ctx.intern_attr(AttrKind::SymbolRef {
            root: c,
            nested: Box::new([]),
        });
        prop(ctx, props, "callee", r);
    }
    if let Some(t) = var_type {
        let a = type_attr(ctx, t);
        prop(ctx, props, "var_callee_type", a);
    }
}

fn parse_call(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let cconv = crate::dialect::cconv::parse_optional(p)?;
    let tail = ["none", "tail", "musttail", "notail"]
        .into_iter()
        .find(|c| p.peek_keyword(c));
    if let Some(t) = tail {
        p.expect_keyword(t)?;
    }
    let (callee, unresolved) = parse_callee_args(p)?;
    let var_type = parse_vararg(p)?;
    let attrs = p.parse_optional_attr_dict()?;
    let types = parse_call_types(p, callee.is_none(), unresolved, "call")?;
    let loc = p.op_loc();
    let ctx = p.ctx();
    let mut props = Vec::new();
    callee_props(ctx, &mut props, callee, var_type);
    types.add_attr_props(ctx, &mut props);
    let (operands, outs) = (types.operands, types.results);
    let cc = attrs::keyword_attr(ctx, "cconv", cconv.unwrap_or("ccc"));
    prop(ctx, &mut props, "CConv", cc);
    let tk = attrs::keyword_attr(ctx, "tailcallkind", tail.unwrap_or("none"));
    prop(ctx, &mut props, "TailCallKind", tk);
    let fm = attrs::fastmath(ctx, 0);
    prop(ctx, &mut props, "fastmathFlags", fm);
    let b = ctx.int_array_attr(32, &[]);
    prop(ctx, &mut props, "op_bundle_sizes", b);
    let seg = ctx.int_array_attr(32, &[operands.len() as i64, 0]);
    prop(ctx, &mut props, SEGMENTS, seg);
    let attrs = split_attrs(ctx, attrs, CALL_INHERENT, &mut props);
    let props = ctx.dict_attr(props);
    let name = ctx.sym("llvm.call");
    Ok(p.create_op(OpSpec {
        name,
        loc,
        operands: &operands,
        result_types: &outs,
        successors: &[],
        regions: &[],
        attrs,
        props: Some(props),
    }))
}

fn print_call(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    for (key, default) in [("CConv", "ccc"), ("TailCallKind", "none")] {
        let k = inherent_attr(ctx, ir, op, key)
            .and_then(|a| attrs::keyword_of(ctx, a))
            .unwrap_or(default);
        if k != default {
            p.write(" ");
            p.write(k);
        }
    }
    let callee = inherent_attr(ctx, ir, op, "callee");
    let operands: Vec<ValueId> = ir.operands(op).collect();
    let args = if callee.is_some() {
        &operands[..]
    } else {
        &operands[1..]
    };
    p.write(" ");
    match callee {
        Some(c) => p.attr(c),
        None => p.operand(operands[0]),
    }
    p.write("(");
    p.operands(args.iter().copied());
    p.write(")");
    if let Some(t) = type_of_attr(ctx, inherent_attr(ctx, ir, op, "var_callee_type")) {
        p.write(" vararg(");
        p.ty(t);
        p.write(")");
    }
    let mut elided = CALL_ELIDED.to_vec();
    if inherent_attr(ctx, ir, op, "fastmathFlags").is_some_and(|a| attrs::bits_of(ctx, a) == 0) {
        elided.push("fastmathFlags");
    }
    print_extra_attrs(p, op, &elided, false);
    p.write(" : ");
    let ir = p.ir();
    if callee.is_none() {
        p.ty(ir.value_type(operands[0]));
        p.write(", ");
    }
    let ins: Vec<Type> = args.iter().map(|v| ir.value_type(*v)).collect();
    let outs: Vec<Type> = ir.results(op).map(|v| ir.value_type(v)).collect();
    print_call_types(p, op, &ins, &outs);
}

// ----- llvm.call_intrinsic --------------------------------------------------

const CALL_INTRINSIC_INHERENT: &[&str] = &[
    "intrin",
    "fastmathFlags",
    "op_bundle_sizes",
    "op_bundle_tags",
    "operandSegmentSizes",
    "arg_attrs",
    "res_attrs",
];

/// `llvm.call_intrinsic "llvm.name"(args) {attrs} : (T {attrs}) -> R`
pub(crate) fn parse_call_intrinsic(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let name = p.parse_string()?;
    p.expect(Tok::LParen, "'('")?;
    let unresolved = if p.peek(Tok::RParen) {
        Vec::new()
    } else {
        p.parse_operand_list()?
    };
    p.expect(Tok::RParen, "')'")?;
    let attrs = p.parse_optional_attr_dict()?;
    let types = parse_call_types(p, false, unresolved, "call_intrinsic")?;
    let loc = p.op_loc();
    let ctx = p.ctx();
    let mut props = Vec::new();
    let n = ctx.string_attr(&name);
    prop(ctx, &mut props, "intrin", n);
    let fm = attrs::fastmath(ctx, 0);
    prop(ctx, &mut props, "fastmathFlags", fm);
    let b = ctx.int_array_attr(32, &[]);
    prop(ctx, &mut props, "op_bundle_sizes", b);
    let seg = ctx.int_array_attr(32, &[types.operands.len() as i64, 0]);
    prop(ctx, &mut props, SEGMENTS, seg);
    types.add_attr_props(ctx, &mut props);
    let attrs = split_attrs(ctx, attrs, CALL_INTRINSIC_INHERENT, &mut props);
    let props = ctx.dict_attr(props);
    let op_name = ctx.sym("llvm.call_intrinsic");
    Ok(p.create_op(OpSpec {
        name: op_name,
        loc,
        operands: &types.operands,
        result_types: &types.results,
        successors: &[],
        regions: &[],
        attrs,
        props: Some(props),
    }))
}

pub(crate) fn print_call_intrinsic(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    p.write(" ");
    if let Some(n) = inherent_attr(ctx, ir, op, "intrin") {
        p.attr(n);
    }
    let args: Vec<ValueId> = ir.operands(op).collect();
    p.write("(");
    p.operands(args.iter().copied());
    p.write(")");
    let mut elided = vec![
        "intrin",
        "op_bundle_sizes",
        SEGMENTS,
        "arg_attrs",
        "res_attrs",
    ];
    if inherent_attr(ctx, ir, op, "fastmathFlags").is_some_and(|a| attrs::bits_of(ctx, a) == 0) {
        elided.push("fastmathFlags");
    }
    print_extra_attrs(p, op, &elided, false);
    p.write(" : ");
    let ir = p.ir();
    let ins: Vec<Type> = args.iter().map(|v| ir.value_type(*v)).collect();
    let outs: Vec<Type> = ir.results(op).map(|v| ir.value_type(v)).collect();
    print_call_types(p, op, &ins, &outs);
}

pub(crate) const CALL: OpDef = OpDef {
    verify: Some(verify_call),
    inherent_attrs: CALL_INHERENT,
    parse: Some(parse_call),
    print: Some(print_call),
    ..OpDef::new("llvm.call")
};

fn verify_call(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let direct = inherent_attr(ctx, ir, op, "callee").is_some();
    if !direct && ir.num_operands(op) == 0 {
        return Err(v.op_error(
            op,
            "must have either a `callee` attribute or at least an operand",
        ));
    }
    if ir.num_results(op) > 1 {
        return Err(v.op_error(op, "must have 0 or 1 result"));
    }
    let show = |t| silica_ir::printer::type_to_string(ctx, t);
    if let Some((i, t)) = ir
        .operands(op)
        .map(|o| ir.value_type(o))
        .enumerate()
        .find(|(_, t)| !types::is_compatible(ctx, *t))
    {
        return Err(v.op_error(
            op,
            format!(
                "operand #{i} must be variadic of LLVM dialect-compatible type, but got '{}'",
                show(t)
            ),
        ));
    }
    if let Some(t) = ir
        .results(op)
        .map(|r| ir.value_type(r))
        .find(|t| !types::is_compatible(ctx, *t))
    {
        return Err(v.op_error(
            op,
            format!(
                "result #0 must be LLVM dialect-compatible type, but got '{}'",
                show(t)
            ),
        ));
    }
    let callee_ty = (!direct).then(|| ir.value_type(ir.operand(op, 0)));
    if let Some(callee_ty) = callee_ty.filter(|&t| !types::is_ptr(ctx, t)) {
        let shown = silica_ir::printer::type_to_string(ctx, callee_ty);
        return Err(v.op_error(
            op,
            format!("indirect call expects a pointer as callee: '{shown}'"),
        ));
    }
    let n = segment_sizes(ctx, ir, op)
        .and_then(|s| s.first().copied())
        .unwrap_or(ir.num_operands(op));
    let operands: Vec<ValueId> = ir.operands(op).take(n).collect();
    verify_var_callee_type(v, op, &operands)?;
    if direct {
        verify_direct_callee(v, op, &operands)?;
    }
    Ok(())
}

/// A direct call names an `llvm.func` (or `llvm.mlir.ifunc`) whose type
/// its arguments and result match, as MLIR's `verifySymbolUses` checks.
fn verify_direct_callee(v: &mut OpVerifier<'_, '_>, op: OpId, args: &[ValueId]) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let Some(sym) = inherent_attr(ctx, ir, op, "callee") else {
        return Ok(());
    };
    let name = match ctx.attr_kind(sym) {
        AttrKind::SymbolRef { root, .. } => ctx.str(*root).to_string(),
        _ => String::new(),
    };
    let Some(callee) = silica_ir::symbols::lookup_from(ctx, ir, op, sym) else {
        return Err(v.op_error(
            op,
            format!("'{name}' does not reference a symbol in the current scope"),
        ));
    };
    let fn_type = match ctx.str(ir.op_name(callee)) {
        "llvm.func" => type_of_attr(ctx, inherent_attr(ctx, ir, callee, "function_type")),
        "llvm.mlir.ifunc" => type_of_attr(ctx, inherent_attr(ctx, ir, callee, "i_func_type")),
        _ => {
            return Err(v.op_error(
                op,
                format!("'{name}' does not reference a valid LLVM function"),
            ));
        }
    };
    let Some(LlvmType::Func {
        result,
        params,
        vararg,
    }) = fn_type.and_then(|t| types::llvm_type(ctx, t))
    else {
        return Ok(());
    };
    let show = |t| silica_ir::printer::type_to_string(ctx, t);
    let msg = if vararg && inherent_attr(ctx, ir, op, "var_callee_type").is_none() {
        Some("missing var_callee_type attribute for vararg call".to_string())
    } else if !vararg && params.len() != args.len() {
        Some(format!(
            "incorrect number of operands ({}) for callee (expecting: {})",
            args.len(),
            params.len()
        ))
    } else if params.len() > args.len() {
        Some(format!(
            "incorrect number of operands ({}) for varargs callee (expecting at least: {})",
            args.len(),
            params.len()
        ))
    } else if let Some(i) = params
        .iter()
        .zip(args)
        .position(|(&p, &a)| ir.value_type(a) != p)
    {
        Some(format!(
            "operand type mismatch for operand {i}: '{}' != '{}'",
            show(ir.value_type(args[i])),
            show(params[i])
        ))
    } else {
        let void = types::is_void(ctx, result);
        match ir.results(op).next() {
            None if !void => Some("expected function call to produce a value".to_string()),
            Some(_) if void => {
                Some("calling function with void result must not produce values".to_string())
            }
            Some(r) if ir.value_type(r) != result => Some(format!(
                "result type mismatch: '{}' != '{}'",
                show(ir.value_type(r)),
                show(result)
            )),
            _ => None,
        }
    };
    match msg {
        Some(m) => Err(v.op_error(op, m)),
        None => Ok(()),
    }
}

/// The `var_callee_type` of a call or invoke against its arguments
/// (`operands`, the callee pointer first when indirect) and result.
pub(crate) fn verify_var_callee_type(
    v: &mut OpVerifier<'_, '_>,
    op: OpId,
    operands: &[ValueId],
) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let Some(t) = type_of_attr(ctx, inherent_attr(ctx, ir, op, "var_callee_type")) else {
        return Ok(());
    };
    let Some(LlvmType::Func {
        result,
        params,
        vararg,
    }) = types::llvm_type(ctx, t)
    else {
        return Ok(());
    };
    if !vararg {
        return Err(v.op_error(
            op,
            "expected var_callee_type to be a variadic function type",
        ));
    }
    let direct = inherent_attr(ctx, ir, op, "callee").is_some();
    let args = &operands[usize::from(!direct).min(operands.len())..];
    if params.len() > args.len() {
        return Err(v.op_error(
            op,
            format!(
                "expected var_callee_type to have at most {} parameters",
                args.len()
            ),
        ));
    }
    let name = |t: Type| silica_ir::printer::type_to_string(ctx, t);
    for (&p, &a) in params.iter().zip(args) {
        let at = ir.value_type(a);
        if p != at {
            let msg = format!(
                "var_callee_type parameter type mismatch: '{}' != '{}'",
                name(p),
                name(at)
            );
            return Err(v.op_error(op, msg));
        }
    }
    match ir.results(op).next() {
        None if !types::is_void(ctx, result) => {
            Err(v.op_error(op, "expected var_callee_type to return void"))
        }
        Some(r) if ir.value_type(r) != result => {
            let msg = format!(
                "var_callee_type return type mismatch: '{}' != '{}'",
                name(result),
                name(ir.value_type(r))
            );
            Err(v.op_error(op, msg))
        }
        _ => Ok(()),
    }
}
