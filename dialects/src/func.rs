//! The `func` dialect: `func.func` (hand-written: MLIR parses function
//! signatures with a custom directive), and `func.return`, `func.call`,
//! `func.constant` from their declarative formats.

use silica_ir::dialect::{inherent_attr, DialectDef, Effects, OpDef, Traits};
use silica_ir::format::{
    parse_op, print_op, Arity, AttrParam, AttrSyntax, Signature, ValueParam, ANY_TYPE,
};
use silica_ir::lexer::Tok;
use silica_ir::parser::{AsmParser, PResult, UnresolvedOperand};
use silica_ir::printer::AsmPrinter;
use silica_ir::verify::OpVerifier;
use silica_ir::{Attr, AttrKind, Context, Ir, OpId, OpSpec, Symbol, Type, TypeKind};

const FUNC: &str = "func.func";

/// Properties `func.func` prints itself (not in `attributes {...}`).
const SIGNATURE_ATTRS: &[&str] = &[
    "sym_name",
    "function_type",
    "sym_visibility",
    "arg_attrs",
    "res_attrs",
];

const VARIADIC_ANY: ValueParam = ValueParam {
    name: "operands",
    arity: Arity::Variadic,
    constraint: ANY_TYPE,
};

static RETURN_SIG: Signature = Signature::new(
    &[VARIADIC_ANY],
    &[],
    &[],
    "attr-dict ($operands^ `:` type($operands))?",
);

static CALL_SIG: Signature = Signature::new(
    &[VARIADIC_ANY],
    &[ValueParam {
        name: "results",
        arity: Arity::Variadic,
        constraint: ANY_TYPE,
    }],
    &[
        AttrParam {
            name: "callee",
            syntax: AttrSyntax::FlatSymbolRef,
            optional: false,
            default: None,
        },
        AttrParam {
            name: "no_inline",
            syntax: AttrSyntax::Unit,
            optional: true,
            default: None,
        },
    ],
    "$callee `(` $operands `)` attr-dict `:` functional-type($operands, results)",
);

static CONSTANT_SIG: Signature = Signature::new(
    &[],
    &[ValueParam {
        name: "result",
        arity: Arity::One,
        constraint: ANY_TYPE,
    }],
    &[AttrParam {
        name: "value",
        syntax: AttrSyntax::FlatSymbolRef,
        optional: false,
        default: None,
    }],
    "attr-dict $value `:` type(results)",
);

static OPS: [OpDef; 5] = [
    OpDef {
        traits: Traits::ISOLATED_FROM_ABOVE
            .with(Traits::ALLOCATION_SCOPE)
            .with(Traits::AFFINE_SCOPE),
        inherent_attrs: SIGNATURE_ATTRS,
        default_dialect: "func",
        parse: Some(parse_func),
        print: Some(print_func),
        verify: Some(verify_func),
        ..OpDef::new(FUNC)
    },
    OpDef {
        traits: Traits::TERMINATOR,
        parents: &[FUNC],
        parse: Some(parse_op),
        print: Some(print_op),
        verify: Some(verify_return),
        signature: Some(&RETURN_SIG),
        effects: Effects::None,
        ..OpDef::new("func.return")
    },
    OpDef {
        parse: Some(parse_op),
        print: Some(print_op),
        verify: Some(verify_call),
        signature: Some(&CALL_SIG),
        ..OpDef::new("func.call")
    },
    OpDef {
        parse: Some(parse_call_indirect),
        print: Some(print_call_indirect),
        verify: Some(verify_call_indirect),
        ..OpDef::new("func.call_indirect")
    },
    OpDef {
        parse: Some(parse_op),
        print: Some(print_op),
        verify: Some(verify_constant),
        signature: Some(&CONSTANT_SIG),
        result_names: Some(|_, _, _| Some("f".into())),
        effects: Effects::None,
        traits: Traits::CONSTANT_LIKE,
        ..OpDef::new("func.constant")
    },
];

/// The `func` dialect.
pub static FUNC_DIALECT: DialectDef = DialectDef {
    name: "func",
    ops: &OPS,
    attrs: None,
    types: None,
    materialize_constant: None,
};

/// One argument or result of a signature being parsed.
struct SigEntry<'a> {
    name: Option<UnresolvedOperand<'a>>,
    ty: Type,
    attrs: Option<Attr>,
}

/// `[visibility] @name(args) [-> results] [attributes {...}] [{ body }]`
fn parse_func(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let visibility = ["private", "public", "nested"]
        .into_iter()
        .find(|v| p.peek_keyword(v));
    if let Some(v) = visibility {
        p.expect_keyword(v)?;
    }
    let name = p.parse_symbol_name()?;
    p.expect(Tok::LParen, "'('")?;
    let mut args: Vec<SigEntry<'_>> = Vec::new();
    let mut arg_locs = Vec::new();
    p.comma_list(Tok::RParen, "')'", |p| {
        let previous_named = args.last().map(|a| a.name.is_some());
        let at = p.pos();
        let name = if p.peek(Tok::PercentId) {
            let u = p.parse_operand()?;
            if previous_named == Some(false) {
                let msg = "custom op 'func.func' expected type instead of SSA identifier";
                return p.error_at(at, msg);
            }
            p.expect(Tok::Colon, "':'")?;
            Some(u)
        } else {
            None
        };
        if name.is_none() && previous_named == Some(true) {
            return p.error_at(at, "custom op 'func.func' expected SSA identifier");
        }
        let ty = p.parse_type()?;
        let attrs = p.parse_optional_nonempty_attr_dict()?;
        arg_locs.push(p.parse_optional_location()?);
        args.push(SigEntry { name, ty, attrs });
        Ok(())
    })?;
    let mut results: Vec<SigEntry<'_>> = Vec::new();
    if p.eat(Tok::Arrow) {
        if p.eat(Tok::LParen) {
            p.comma_list(Tok::RParen, "')'", |p| {
                let ty = p.parse_type()?;
                let attrs = p.parse_optional_nonempty_attr_dict()?;
                results.push(SigEntry {
                    name: None,
                    ty,
                    attrs,
                });
                Ok(())
            })?;
        } else {
            let ty = p.parse_type()?;
            results.push(SigEntry {
                name: None,
                ty,
                attrs: None,
            });
        }
    }
    let dict_at = p.pos();
    let attrs = p.parse_optional_attr_dict_with_keyword()?;
    for inferred in ["sym_visibility", "sym_name", "function_type"] {
        let ctx = p.ctx();
        if ctx
            .dict_entries(attrs)
            .iter()
            .any(|(k, _)| ctx.str(*k) == inferred)
        {
            let msg = format!(
                "custom op 'func.func' '{inferred}' is an inferred attribute and should not be specified in the explicit attribute dictionary"
            );
            return p.error_at(dict_at, msg);
        }
    }
    let region = p.ir().create_region();
    if p.peek(Tok::LBrace) {
        // Unnamed arguments leave the entry block to the body (`^bb0(...)`).
        let entry: Vec<_> = args.iter().filter_map(|a| Some((a.name?, a.ty))).collect();
        let at = p.pos();
        p.parse_region_with_located_args(region, &entry, arg_locs)?;
        if p.ir().region_is_empty(region) {
            return p.error_at(at, "custom op 'func.func' expected non-empty function body");
        }
    }
    let loc = p.op_loc();
    let ctx = p.ctx();
    let ins: Vec<Type> = args.iter().map(|a| a.ty).collect();
    let outs: Vec<Type> = results.iter().map(|r| r.ty).collect();
    let fty = ctx.function_type(&ins, &outs);
    let mut props = vec![
        (
            ctx.sym("function_type"),
            ctx.intern_attr(AttrKind::Type(fty)),
        ),
        (ctx.sym("sym_name"), {
            let text = ctx.str(name).as_bytes().to_vec();
            ctx.string_attr(&text)
        }),
    ];
    if let Some(v) = visibility {
        let k = ctx.sym("sym_visibility");
        props.push((k, ctx.string_attr(v.as_bytes())));
    }
    for (key, list) in [("arg_attrs", &args), ("res_attrs", &results)] {
        if list.iter().any(|e| e.attrs.is_some()) {
            let empty = ctx.empty_dict();
            let dicts: Vec<Attr> = list.iter().map(|e| e.attrs.unwrap_or(empty)).collect();
            let k = ctx.sym(key);
            props.push((k, ctx.array_attr(&dicts)));
        }
    }
    // Inherent attributes written in `attributes {...}` stay discardable
    // except the signature's own.
    let mut discardable = Vec::new();
    for &(k, v) in ctx.dict_entries(attrs) {
        if SIGNATURE_ATTRS.contains(&ctx.str(k)) {
            props.retain(|(pk, _)| *pk != k);
            props.push((k, v));
        } else {
            discardable.push((k, v));
        }
    }
    let props = ctx.dict_attr(props);
    let attrs = ctx.dict_attr(discardable);
    let name = ctx.sym(FUNC);
    Ok(p.create_op(OpSpec {
        name,
        loc,
        operands: &[],
        result_types: &[],
        successors: &[],
        regions: &[region],
        attrs,
        props: Some(props),
    }))
}

/// The function type of a `func.func`.
pub(crate) fn function_type(ctx: &Context, ir: &Ir, op: OpId) -> Option<(Vec<Type>, Vec<Type>)> {
    let a = inherent_attr(ctx, ir, op, "function_type")?;
    let AttrKind::Type(t) = ctx.attr_kind(a) else {
        return None;
    };
    match ctx.type_kind(*t) {
        TypeKind::Function { inputs, results } => Some((inputs.to_vec(), results.to_vec())),
        _ => None,
    }
}

/// The `i`th dictionary of the array attribute `key`, if not empty.
fn entry_attrs(ctx: &Context, ir: &Ir, op: OpId, key: &str, i: usize) -> Option<Attr> {
    let a = inherent_attr(ctx, ir, op, key)?;
    let AttrKind::Array(dicts) = ctx.attr_kind(a) else {
        return None;
    };
    let d = *dicts.get(i)?;
    (!ctx.dict_entries(d).is_empty()).then_some(d)
}

fn string_of(ctx: &Context, a: Option<Attr>) -> Option<String> {
    match ctx.attr_kind(a?) {
        AttrKind::String { value, .. } => Some(String::from_utf8_lossy(value).into_owned()),
        _ => None,
    }
}

fn print_func(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let (ins, outs) = function_type(ctx, ir, op).unwrap_or_default();
    if let Some(v) = string_of(ctx, inherent_attr(ctx, ir, op, "sym_visibility")) {
        p.write(" ");
        p.write(&v);
    }
    p.write(" ");
    let name = string_of(ctx, inherent_attr(ctx, ir, op, "sym_name")).unwrap_or_default();
    p.symbol_name(&name);
    p.write("(");
    let region = ir.regions(op).next();
    let entry = region.and_then(|r| ir.entry_block(r));
    let args: &[silica_ir::ValueId] = entry.map_or(&[], |b| ir.block_args(b));
    for (i, &t) in ins.iter().enumerate() {
        if i > 0 {
            p.write(", ");
        }
        if let Some(&a) = args.get(i) {
            p.operand(a);
            p.write(": ");
        }
        p.ty(t);
        if let Some(d) = entry_attrs(ctx, ir, op, "arg_attrs", i) {
            p.write(" ");
            p.attr(d);
        }
        if let Some(&a) = args.get(i) {
            p.arg_loc(a);
        }
    }
    p.write(")");
    if !outs.is_empty() {
        p.write(" -> ");
        let any_attrs = (0..outs.len()).any(|i| entry_attrs(ctx, ir, op, "res_attrs", i).is_some());
        let bare = outs.len() == 1
            && !any_attrs
            && !matches!(ctx.type_kind(outs[0]), TypeKind::Function { .. });
        if !bare {
            p.write("(");
        }
        for (i, &t) in outs.iter().enumerate() {
            if i > 0 {
                p.write(", ");
            }
            p.ty(t);
            if let Some(d) = entry_attrs(ctx, ir, op, "res_attrs", i) {
                p.write(" ");
                p.attr(d);
            }
        }
        if !bare {
            p.write(")");
        }
    }
    let mut extra: Vec<(Symbol, Attr)> = Vec::new();
    let props = ir.op_props(op).map(|d| ctx.dict_entries(d)).unwrap_or(&[]);
    for &(k, v) in props.iter().chain(ctx.dict_entries(ir.op_attrs(op))) {
        if !SIGNATURE_ATTRS.contains(&ctx.str(k)) {
            extra.push((k, v));
        }
    }
    extra.sort_by(|a, b| ctx.str(a.0).cmp(ctx.str(b.0)));
    p.attr_entries(&extra, true);
    if let Some(r) = region.filter(|r| !ir.region_is_empty(*r)) {
        p.write(" ");
        p.region(r, false, true);
    }
}

fn verify_func(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let declaration = ir.regions(op).all(|r| ir.region_is_empty(r));
    let public = inherent_attr(ctx, ir, op, "sym_visibility").is_none()
        || silica_ir::symbols::visibility_is(ctx, ir, op, b"public");
    if declaration && public {
        return Err(v.op_error(op, "symbol declaration cannot have public visibility"));
    }
    let Some((ins, outs)) = function_type(ctx, ir, op) else {
        return Err(v.op_error(
            op,
            "attribute 'function_type' failed to satisfy constraint: type attribute of function type",
        ));
    };
    let counts = [ins.len(), outs.len()];
    for ((key, what), count) in [("arg_attrs", "arguments"), ("res_attrs", "results")]
        .into_iter()
        .zip(counts)
    {
        let Some(list) = inherent_attr(ctx, ir, op, key) else {
            continue;
        };
        let AttrKind::Array(dicts) = ctx.attr_kind(list) else {
            continue;
        };
        if dicts.len() != count {
            let (one, many) = match what {
                "arguments" => ("argument", "function arguments"),
                _ => ("result", "function results"),
            };
            let msg = format!(
                "expects {one} attribute array to have the same number of elements as the number of {many}, got {}, but expected {count}",
                dicts.len()
            );
            return Err(v.op_error(op, msg));
        }
        let undialected = dicts
            .iter()
            .flat_map(|d| ctx.dict_entries(*d))
            .any(|(k, _)| !ctx.str(*k).contains('.'));
        if undialected {
            return Err(v.op_error(op, format!("{what} may only have dialect attributes")));
        }
    }
    let Some(entry) = ir.regions(op).next().and_then(|r| ir.entry_block(r)) else {
        return Ok(());
    };
    let args = ir.block_args(entry);
    if args.len() != ins.len() {
        let msg = format!(
            "entry block must have {} arguments to match function signature",
            ins.len()
        );
        return Err(v.op_error(op, msg));
    }
    for (i, (&a, &t)) in args.iter().zip(&ins).enumerate() {
        let at = ir.value_type(a);
        if at != t {
            let show = |t| silica_ir::printer::type_to_string(ctx, t);
            let msg = format!(
                "type of entry block argument #{i}('{}') must match the type of the corresponding argument in function signature('{}')",
                show(at),
                show(t)
            );
            return Err(v.op_error(op, msg));
        }
    }
    Ok(())
}

fn verify_return(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let Some(func) = ir.parent_op(op) else {
        return Ok(());
    };
    let Some((_, outs)) = function_type(ctx, ir, func) else {
        return Ok(());
    };
    let name = string_of(ctx, inherent_attr(ctx, ir, func, "sym_name")).unwrap_or_default();
    let operands: Vec<Type> = ir.operands(op).map(|x| ir.value_type(x)).collect();
    if operands.len() != outs.len() {
        let msg = format!(
            "has {} operands, but enclosing function (@{name}) returns {}",
            operands.len(),
            outs.len()
        );
        return Err(v.op_error(op, msg));
    }
    for (i, (&a, &b)) in operands.iter().zip(&outs).enumerate() {
        if a != b {
            let show = |t| silica_ir::printer::type_to_string(ctx, t);
            let msg = format!(
                "type of return operand {i} ('{}') doesn't match function result type ('{}') in function @{name}",
                show(a),
                show(b)
            );
            return Err(v.op_error(op, msg));
        }
    }
    Ok(())
}

/// The `func.func` the symbol attribute `attr` of `op` names, looked up in
/// the nearest symbol table around `op`.
pub(crate) fn referenced_func(ctx: &Context, ir: &Ir, op: OpId, attr: &str) -> Option<OpId> {
    let sym = inherent_attr(ctx, ir, op, attr)?;
    let found = silica_ir::symbols::lookup_from(ctx, ir, op, sym)?;
    (ctx.str(ir.op_name(found)) == FUNC).then_some(found)
}

fn symbol_text(ctx: &Context, ir: &Ir, op: OpId, attr: &str) -> String {
    inherent_attr(ctx, ir, op, attr)
        .map(|a| silica_ir::printer::attr_to_string(ctx, a))
        .unwrap_or_default()
}

fn type_list(ctx: &Context, tys: &[Type]) -> String {
    let v: Vec<String> = tys
        .iter()
        .map(|t| format!("'{}'", silica_ir::printer::type_to_string(ctx, *t)))
        .collect();
    v.join(", ")
}

/// A call names a function whose signature its operands and results match.
fn verify_call(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let Some(callee) = referenced_func(ctx, ir, op, "callee") else {
        let name = symbol_text(ctx, ir, op, "callee");
        let name = name.trim_start_matches('@').trim_matches('"').to_string();
        return Err(v.op_error(op, format!("'{name}' does not reference a valid function")));
    };
    let (ins, outs) = function_type(ctx, ir, callee).unwrap_or_default();
    let operands: Vec<Type> = ir.operands(op).map(|x| ir.value_type(x)).collect();
    let results: Vec<Type> = ir.results(op).map(|x| ir.value_type(x)).collect();
    if operands.len() != ins.len() {
        return Err(v.op_error(op, "incorrect number of operands for callee"));
    }
    for (i, (&a, &b)) in operands.iter().zip(&ins).enumerate() {
        if a != b {
            let show = |t| silica_ir::printer::type_to_string(ctx, t);
            let msg = format!(
                "operand type mismatch: expected operand type '{}', but provided '{}' for operand number {i}",
                show(b),
                show(a)
            );
            return Err(v.op_error(op, msg));
        }
    }
    if results.len() != outs.len() {
        return Err(v.op_error(op, "incorrect number of results for callee"));
    }
    if let Some(i) = results.iter().zip(&outs).position(|(a, b)| a != b) {
        let loc = ir.op_loc(op);
        let notes = [
            format!("op result types: {}", type_list(ctx, &results)),
            format!("function result types: {}", type_list(ctx, &outs)),
        ];
        let mut d = v.op_error(op, format!("result type mismatch at index {i}"));
        for n in notes {
            d = Box::new(d.with_note(loc, n));
        }
        return Err(d);
    }
    Ok(())
}

/// `func.constant` names a function of its result's type.
fn verify_constant(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let value = inherent_attr(ctx, ir, op, "value");
    if !value.is_some_and(|a| matches!(ctx.attr_kind(a), AttrKind::SymbolRef { .. })) {
        return Err(v.op_error(op, "invalid kind of attribute specified"));
    }
    let Some(f) = referenced_func(ctx, ir, op, "value") else {
        let name = symbol_text(ctx, ir, op, "value");
        let name = name.trim_start_matches('@').trim_matches('"').to_string();
        return Err(v.op_error(op, format!("reference to undefined function '{name}'")));
    };
    let fty = inherent_attr(ctx, ir, f, "function_type").map(|a| ctx.attr_kind(a).clone());
    let result = ir.results(op).next().map(|r| ir.value_type(r));
    if fty != result.map(AttrKind::Type) {
        return Err(v.op_error(op, "reference to function with mismatched type"));
    }
    Ok(())
}

/// `%f(%a, ...) attr-dict : function-type`
fn parse_call_indirect(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let callee = p.parse_operand()?;
    p.expect(Tok::LParen, "'('")?;
    let mut args = Vec::new();
    p.comma_list(Tok::RParen, "')'", |p| {
        args.push(p.parse_operand()?);
        Ok(())
    })?;
    let attrs = p.parse_optional_attr_dict()?;
    p.expect(Tok::Colon, "':'")?;
    let at = p.pos();
    let fty = p.parse_type()?;
    let (ins, outs) = match p.ctx().type_kind(fty) {
        TypeKind::Function { inputs, results } => (inputs.to_vec(), results.to_vec()),
        _ => return p.error_at(at, "expected function type"),
    };
    if ins.len() != args.len() {
        let msg = format!(
            "{} operands present, but expected {}",
            args.len(),
            ins.len()
        );
        return p.error_at(at, msg);
    }
    let mut operands = vec![p.resolve_operand(callee, fty)?];
    for (u, t) in args.iter().zip(&ins) {
        operands.push(p.resolve_operand(*u, *t)?);
    }
    let loc = p.op_loc();
    let name = p.ctx().sym("func.call_indirect");
    Ok(p.create_op(OpSpec {
        name,
        loc,
        operands: &operands,
        result_types: &outs,
        successors: &[],
        regions: &[],
        attrs,
        props: None,
    }))
}

fn print_call_indirect(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let ir = p.ir();
    let operands: Vec<silica_ir::ValueId> = ir.operands(op).collect();
    let Some((&callee, args)) = operands.split_first() else {
        return;
    };
    p.write(" ");
    p.operand(callee);
    p.write("(");
    p.operands(args.iter().copied());
    p.write(")");
    p.attr_dict(ir.op_attrs(op), &[], false);
    p.write(" : ");
    p.ty(ir.value_type(callee));
}

/// The callee is a function whose signature the call matches.
fn verify_call_indirect(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let operands: Vec<Type> = ir.operands(op).map(|x| ir.value_type(x)).collect();
    let Some((&callee, args)) = operands.split_first() else {
        return Err(v.op_error(op, "expected 1 or more operands, but found 0"));
    };
    let TypeKind::Function { inputs, results } = ctx.type_kind(callee) else {
        return Err(v.op_error(op, "operand #0 must be function type"));
    };
    let outs: Vec<Type> = ir.results(op).map(|x| ir.value_type(x)).collect();
    if inputs.as_ref() != args || results.as_ref() != outs.as_slice() {
        return Err(v.op_error(
            op,
            "callee type does not match the operand and result types",
        ));
    }
    Ok(())
}
