//! The llvm ops MLIR parses and prints by hand: `llvm.func`,
//! `llvm.mlir.global`, `llvm.alloca`, `llvm.getelementptr`,
//! `llvm.extractvalue` and `llvm.insertvalue`; and the successor operands
//! of the branch ops.

use crate::dialect::attrs::{self, LINKAGES};
use crate::dialect::types::{self, LlvmType};
use silica_ir::dialect::{inherent_attr, BranchDef, Effects, OpDef, Traits};
use silica_ir::format::{segment_sizes, AttrDefault, SEGMENTS};
use silica_ir::lexer::Tok;
use silica_ir::parser::{AsmParser, PResult};
use silica_ir::printer::AsmPrinter;
use silica_ir::{Attr, AttrKind, Context, Ir, OpId, OpSpec, Symbol, Type, TypeKind, ValueId};

/// The marker of a dynamic index in `rawConstantIndices`.
pub const DYNAMIC_INDEX: i64 = i32::MIN as i64;

pub(crate) fn prop(ctx: &mut Context, props: &mut Vec<(Symbol, Attr)>, name: &str, value: Attr) {
    let k = ctx.sym(name);
    props.push((k, value));
}

pub(crate) fn i64_attr(ctx: &mut Context, v: i64) -> Attr {
    let t = ctx.signless(64);
    ctx.int_attr(t, v)
}

pub(crate) fn type_attr(ctx: &mut Context, t: Type) -> Attr {
    ctx.intern_attr(AttrKind::Type(t))
}

pub(crate) fn type_of_attr(ctx: &Context, a: Option<Attr>) -> Option<Type> {
    match ctx.attr_kind(a?) {
        AttrKind::Type(t) => Some(*t),
        _ => None,
    }
}

pub(crate) fn string_of(ctx: &Context, a: Option<Attr>) -> Option<String> {
    match ctx.attr_kind(a?) {
        AttrKind::String { value, .. } => Some(String::from_utf8_lossy(value).into_owned()),
        _ => None,
    }
}

/// Prints `attributes {...}`/`{...}` with the op's properties and
/// attributes except `elided` and defaults.
pub(crate) fn print_extra_attrs(
    p: &mut AsmPrinter<'_, '_>,
    op: OpId,
    elided: &[&str],
    keyword: bool,
) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let mut extra: Vec<(Symbol, Attr)> = Vec::new();
    let props = ir.op_props(op).map(|d| ctx.dict_entries(d)).unwrap_or(&[]);
    for &(k, v) in props.iter().chain(ctx.dict_entries(ir.op_attrs(op))) {
        if !elided.contains(&ctx.str(k)) {
            extra.push((k, v));
        }
    }
    extra.sort_by(|a, b| ctx.str(a.0).cmp(ctx.str(b.0)));
    p.attr_entries(&extra, keyword);
}

/// Splits `{...}` entries into the op's properties (`inherent`) and
/// discardable attributes.
pub(crate) fn split_attrs(
    ctx: &mut Context,
    attrs: Attr,
    inherent: &[&str],
    props: &mut Vec<(Symbol, Attr)>,
) -> Attr {
    let mut discardable = Vec::new();
    for &(k, v) in ctx.dict_entries(attrs) {
        if inherent.contains(&ctx.str(k)) {
            props.retain(|(pk, _)| *pk != k);
            props.push((k, v));
        } else {
            discardable.push((k, v));
        }
    }
    ctx.dict_attr(discardable)
}

// ----- llvm.func ------------------------------------------------------------

const FUNC_INHERENT: &[&str] = &[
    "sym_name",
    "sym_visibility",
    "function_type",
    "linkage",
    "dso_local",
    "CConv",
    "comdat",
    "convergent",
    "personality",
    "garbageCollector",
    "passthrough",
    "arg_attrs",
    "res_attrs",
    "function_entry_count",
    "memory_effects",
    "visibility_",
    "arm_streaming",
    "arm_locally_streaming",
    "arm_streaming_compatible",
    "arm_new_za",
    "arm_in_za",
    "arm_out_za",
    "arm_inout_za",
    "arm_preserves_za",
    "section",
    "unnamed_addr",
    "alignment",
    "vscale_range",
    "frame_pointer",
    "target_cpu",
    "tune_cpu",
    "reciprocal_estimates",
    "prefer_vector_width",
    "target_features",
    "no_infs_fp_math",
    "no_nans_fp_math",
    "no_signed_zeros_fp_math",
    "denormal_fp_math",
    "denormal_fp_math_f32",
    "fp_contract",
    "instrument_function_entry",
    "instrument_function_exit",
    "no_inline",
    "always_inline",
    "inline_hint",
    "no_unwind",
    "will_return",
    "optimize_none",
    "vec_type_hint",
    "work_group_size_hint",
    "reqd_work_group_size",
    "intel_reqd_sub_group_size",
    "uwtable_kind",
];

/// Printed by the custom form itself.
const FUNC_ELIDED: &[&str] = &[
    "vscale_range",
    "CConv",
    "function_type",
    "linkage",
    "sym_name",
    "unnamed_addr",
    "visibility_",
    "arg_attrs",
    "res_attrs",
    "comdat",
];

pub(crate) const VISIBILITIES: &[&str] = &["", "hidden", "protected"];
pub(crate) const UNNAMED_ADDRS: &[&str] = &["", "local_unnamed_addr", "unnamed_addr"];

/// Reads the optional `linkage visibility unnamed_addr` prefix shared by
/// functions and globals (globals take `thread_local` before
/// `unnamed_addr`).
fn parse_linkage_prefix(
    p: &mut AsmParser<'_, '_>,
    props: &mut Vec<(Symbol, Attr)>,
    global: bool,
) -> PResult<()> {
    let linkage = LINKAGES
        .iter()
        .find(|l| p.peek_keyword(l))
        .copied()
        .unwrap_or("external");
    if linkage != "external" || p.peek_keyword("external") {
        p.expect_keyword(linkage)?;
    }
    let ctx = p.ctx();
    let l = attrs::keyword_attr(ctx, "linkage", linkage);
    prop(ctx, props, "linkage", l);
    let mut visibility = 0;
    for (i, v) in VISIBILITIES.iter().enumerate().skip(1) {
        if p.eat_keyword(v) {
            visibility = i as i64;
        }
    }
    if global && p.eat_keyword("thread_local") {
        let ctx = p.ctx();
        let u = ctx.unit_attr();
        prop(ctx, props, "thread_local_", u);
    }
    let mut unnamed = 0;
    for (i, v) in UNNAMED_ADDRS.iter().enumerate().skip(1) {
        if p.eat_keyword(v) {
            unnamed = i as i64;
        }
    }
    let ctx = p.ctx();
    let v = i64_attr(ctx, visibility);
    prop(ctx, props, "visibility_", v);
    let u = i64_attr(ctx, unnamed);
    prop(ctx, props, "unnamed_addr", u);
    Ok(())
}

/// Prints ` linkage visibility [thread_local] unnamed_addr`; functions
/// leave out an `external` linkage, globals always print it.
fn print_linkage_prefix(p: &mut AsmPrinter<'_, '_>, op: OpId, global: bool) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let linkage = inherent_attr(ctx, ir, op, "linkage")
        .and_then(|a| attrs::keyword_of(ctx, a))
        .unwrap_or("external");
    if global || linkage != "external" {
        p.write(" ");
        p.write(linkage);
    }
    if let Some(n) = attrs::enum_keyword(ctx, ir, op, "visibility_", VISIBILITIES) {
        p.write(" ");
        p.write(n);
    }
    if global && inherent_attr(ctx, ir, op, "thread_local_").is_some() {
        p.write(" thread_local");
    }
    if let Some(n) = attrs::enum_keyword(ctx, ir, op, "unnamed_addr", UNNAMED_ADDRS) {
        p.write(" ");
        p.write(n);
    }
}

struct Arg<'a> {
    name: Option<silica_ir::parser::UnresolvedOperand<'a>>,
    ty: Type,
    attrs: Option<Attr>,
    /// The argument's `loc(...)`, given to the entry block's argument.
    loc: Option<silica_ir::parser::PendingLoc>,
}

fn parse_func(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let mut props = Vec::new();
    parse_linkage_prefix(p, &mut props, false)?;
    let cconv = crate::dialect::cconv::parse_optional(p)?;
    let name = p.parse_symbol_name()?;
    p.expect(Tok::LParen, "'('")?;
    let mut args: Vec<Arg<'_>> = Vec::new();
    let mut vararg = false;
    if !p.eat(Tok::RParen) {
        loop {
            if p.eat(Tok::Ellipsis) {
                vararg = true;
                if p.peek(Tok::Comma) {
                    return p
                        .op_error("variadic arguments must be in the end of the argument list");
                }
                break;
            }
            let name = if p.peek(Tok::PercentId) {
                let u = p.parse_operand()?;
                p.expect(Tok::Colon, "':'")?;
                Some(u)
            } else {
                None
            };
            let ty = p.parse_type()?;
            let attrs = p.parse_optional_nonempty_attr_dict()?;
            let loc = p.parse_optional_location()?;
            args.push(Arg {
                name,
                ty,
                attrs,
                loc,
            });
            if !p.eat(Tok::Comma) {
                break;
            }
        }
        p.expect(Tok::RParen, "')'")?;
    }
    let mut result = None;
    let mut result_attrs = None;
    if p.eat(Tok::Arrow) {
        if p.eat(Tok::LParen) {
            if !p.eat(Tok::RParen) {
                result = Some(p.parse_type()?);
                result_attrs = p.parse_optional_nonempty_attr_dict()?;
                if p.peek(Tok::Comma) {
                    return p.op_error(
                        "failed to construct function type: expected zero or one function result",
                    );
                }
                p.expect(Tok::RParen, "')'")?;
            }
        } else {
            result = Some(p.parse_type()?);
        }
    }
    let ctx = p.ctx();
    if args.iter().any(|a| !types::is_compatible(ctx, a.ty)) {
        return p.op_error(
            "failed to construct function type: expected LLVM type for function arguments",
        );
    }
    if result.is_some_and(|r| !types::is_compatible(ctx, r)) {
        return p.op_error(
            "failed to construct function type: expected LLVM type for function results",
        );
    }
    if p.eat_keyword("vscale_range") {
        p.expect(Tok::LParen, "'('")?;
        let min = p.parse_integer()?;
        p.expect(Tok::Comma, "','")?;
        let max = p.parse_integer()?;
        p.expect(Tok::RParen, "')'")?;
        let raw = format!("minRange = {min} : i32, maxRange = {max} : i32");
        let a = attrs::raw_attr(p.ctx(), "vscale_range", &raw);
        prop(p.ctx(), &mut props, "vscale_range", a);
    }
    crate::dialect::comdat::parse_clause(p, &mut props)?;
    let attrs = p.parse_optional_attr_dict_with_keyword()?;
    let region = p.ir().create_region();
    if p.peek(Tok::LBrace) {
        let named: Vec<_> = args.iter_mut().filter(|a| a.name.is_some()).collect();
        let entry: Vec<_> = named.iter().filter_map(|a| Some((a.name?, a.ty))).collect();
        let locs = named.into_iter().map(|a| a.loc.take()).collect();
        p.parse_region_with_located_args(region, &entry, locs)?;
    }
    let loc = p.op_loc();
    let ctx = p.ctx();
    let void = types::void(ctx);
    let ins: Vec<Type> = args.iter().map(|a| a.ty).collect();
    let fty = types::func(ctx, result.unwrap_or(void), &ins, vararg);
    let f = type_attr(ctx, fty);
    prop(ctx, &mut props, "function_type", f);
    let text = ctx.str(name).as_bytes().to_vec();
    let n = ctx.string_attr(&text);
    prop(ctx, &mut props, "sym_name", n);
    let cc = attrs::keyword_attr(ctx, "cconv", cconv.unwrap_or("ccc"));
    prop(ctx, &mut props, "CConv", cc);
    if args.iter().any(|a| a.attrs.is_some()) {
        let empty = ctx.empty_dict();
        let dicts: Vec<Attr> = args.iter().map(|e| e.attrs.unwrap_or(empty)).collect();
        let a = ctx.array_attr(&dicts);
        prop(ctx, &mut props, "arg_attrs", a);
    }
    if let Some(d) = result_attrs {
        let a = ctx.array_attr(&[d]);
        prop(ctx, &mut props, "res_attrs", a);
    }
    let attrs = split_attrs(ctx, attrs, FUNC_INHERENT, &mut props);
    let props = ctx.dict_attr(props);
    let name = ctx.sym("llvm.func");
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

/// The `i`th dictionary of the array attribute `key`, if not empty.
pub(crate) fn entry_attrs(ctx: &Context, ir: &Ir, op: OpId, key: &str, i: usize) -> Option<Attr> {
    let a = inherent_attr(ctx, ir, op, key)?;
    let AttrKind::Array(dicts) = ctx.attr_kind(a) else {
        return None;
    };
    let d = *dicts.get(i)?;
    (!ctx.dict_entries(d).is_empty()).then_some(d)
}

/// The `!llvm.func` type of an `llvm.func`.
pub fn func_type(ctx: &Context, ir: &Ir, op: OpId) -> Option<(Type, Vec<Type>, bool)> {
    let t = type_of_attr(ctx, inherent_attr(ctx, ir, op, "function_type"))?;
    match types::llvm_type(ctx, t)? {
        LlvmType::Func {
            result,
            params,
            vararg,
        } => Some((result, params, vararg)),
        _ => None,
    }
}

fn print_func(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    print_linkage_prefix(p, op, false);
    let (ctx, ir) = (p.ctx(), p.ir());
    let cconv = inherent_attr(ctx, ir, op, "CConv")
        .and_then(|a| attrs::keyword_of(ctx, a))
        .unwrap_or("ccc");
    if cconv != "ccc" {
        p.write(" ");
        p.write(cconv);
    }
    p.write(" ");
    let name = string_of(ctx, inherent_attr(ctx, ir, op, "sym_name")).unwrap_or_default();
    p.symbol_name(&name);
    p.write("(");
    let Some((result, params, vararg)) = func_type(ctx, ir, op) else {
        return;
    };
    let region = ir.regions(op).next();
    let entry = region.and_then(|r| ir.entry_block(r));
    let args: &[ValueId] = entry.map_or(&[], |b| ir.block_args(b));
    for (i, &t) in params.iter().enumerate() {
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
    if vararg {
        p.write(if params.is_empty() { "..." } else { ", ..." });
    }
    p.write(")");
    if !types::is_void(ctx, result) {
        p.write(" -> ");
        match entry_attrs(ctx, ir, op, "res_attrs", 0) {
            Some(d) => {
                p.write("(");
                p.ty(result);
                p.write(" ");
                p.attr(d);
                p.write(")");
            }
            None => p.ty(result),
        }
    }
    if let Some(range) = vscale_range(ctx, ir, op) {
        p.write(&format!(" vscale_range({}, {})", range.0, range.1));
    }
    crate::dialect::comdat::print_clause(p, op);
    print_extra_attrs(p, op, FUNC_ELIDED, true);
    let ir = p.ir();
    if let Some(r) = region.filter(|r| !ir.region_is_empty(*r)) {
        p.write(" ");
        p.region(r, false, true);
    }
}

/// The `(min, max)` of a function's `vscale_range`.
pub(crate) fn vscale_range(ctx: &Context, ir: &Ir, op: OpId) -> Option<(String, String)> {
    let (_, raw) = attrs::raw_text(ctx, inherent_attr(ctx, ir, op, "vscale_range")?)?;
    let mut values = raw.split(',').filter_map(|part| {
        let (_, v) = part.split_once('=')?;
        Some(v.split(':').next()?.trim().to_string())
    });
    Some((values.next()?, values.next()?))
}

// ----- llvm.mlir.global -----------------------------------------------------

const GLOBAL_INHERENT: &[&str] = &[
    "global_type",
    "constant",
    "sym_name",
    "linkage",
    "dso_local",
    "thread_local_",
    "externally_initialized",
    "value",
    "alignment",
    "addr_space",
    "unnamed_addr",
    "section",
    "comdat",
    "dbg_exprs",
    "visibility_",
];

const GLOBAL_ELIDED: &[&str] = &[
    "global_type",
    "constant",
    "sym_name",
    "linkage",
    "value",
    "unnamed_addr",
    "visibility_",
    "thread_local_",
    "comdat",
];

fn parse_global(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let mut props = Vec::new();
    parse_linkage_prefix(p, &mut props, true)?;
    if p.eat_keyword("constant") {
        let ctx = p.ctx();
        let u = ctx.unit_attr();
        prop(ctx, &mut props, "constant", u);
    }
    let name = p.parse_symbol_name()?;
    p.expect(Tok::LParen, "'('")?;
    let mut value = None;
    if !p.peek(Tok::RParen) {
        value = Some(p.parse_attribute()?);
    }
    p.expect(Tok::RParen, "')'")?;
    crate::dialect::comdat::parse_clause(p, &mut props)?;
    let attrs = p.parse_optional_attr_dict()?;
    let mut ty = None;
    if p.eat(Tok::Colon) {
        ty = Some(p.parse_type()?);
        if p.peek(Tok::Comma) {
            return p.op_error("expected zero or one type");
        }
    }
    let region = p.ir().create_region();
    if p.peek(Tok::LBrace) {
        p.parse_region_with_args(region, &[])?;
    }
    let ty = match (ty, value) {
        (Some(t), _) => t,
        (None, Some(v)) => match p.ctx().attr_kind(v).clone() {
            AttrKind::String { value, .. } => {
                let ctx = p.ctx();
                let i8 = ctx.signless(8);
                types::array(ctx, value.len() as u64, i8)
            }
            _ => return p.op_error("type can only be omitted for string globals"),
        },
        (None, None) => return p.op_error("type can only be omitted for string globals"),
    };
    let loc = p.op_loc();
    let ctx = p.ctx();
    let t = type_attr(ctx, ty);
    prop(ctx, &mut props, "global_type", t);
    let text = ctx.str(name).as_bytes().to_vec();
    let n = ctx.string_attr(&text);
    prop(ctx, &mut props, "sym_name", n);
    if let Some(v) = value {
        prop(ctx, &mut props, "value", v);
    }
    let attrs = split_attrs(ctx, attrs, GLOBAL_INHERENT, &mut props);
    if !props.iter().any(|(k, _)| ctx.str(*k) == "addr_space") {
        let t = ctx.signless(32);
        let z = ctx.int_attr(t, 0);
        prop(ctx, &mut props, "addr_space", z);
    }
    let props = ctx.dict_attr(props);
    let name = ctx.sym("llvm.mlir.global");
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

fn print_global(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    print_linkage_prefix(p, op, true);
    let (ctx, ir) = (p.ctx(), p.ir());
    if inherent_attr(ctx, ir, op, "constant").is_some() {
        p.write(" constant");
    }
    p.write(" ");
    let name = string_of(ctx, inherent_attr(ctx, ir, op, "sym_name")).unwrap_or_default();
    p.symbol_name(&name);
    p.write("(");
    let value = inherent_attr(ctx, ir, op, "value");
    if let Some(v) = value {
        p.attr(v);
    }
    p.write(")");
    crate::dialect::comdat::print_clause(p, op);
    print_extra_attrs(p, op, GLOBAL_ELIDED, false);
    let (ctx, ir) = (p.ctx(), p.ir());
    let ty = type_of_attr(ctx, inherent_attr(ctx, ir, op, "global_type"));
    let string_value = value.is_some_and(|v| matches!(ctx.attr_kind(v), AttrKind::String { .. }));
    if let Some(t) = ty.filter(|_| !string_value) {
        p.write(" : ");
        p.ty(t);
    }
    if let Some(r) = ir.regions(op).next().filter(|r| !ir.region_is_empty(*r)) {
        p.write(" ");
        p.region(r, false, true);
    }
}

// ----- llvm.alloca ----------------------------------------------------------

fn parse_alloca(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let inalloca = p.eat_keyword("inalloca");
    let size = p.parse_operand()?;
    p.expect_keyword("x")?;
    let elem = p.parse_type()?;
    let attrs_at = p.pos();
    let attrs = p.parse_optional_attr_dict()?;
    let alignment = p.ctx().lookup_sym("alignment").and_then(|k| {
        let ctx = p.ctx();
        ctx.dict_entries(attrs)
            .iter()
            .find(|(n, _)| *n == k)
            .map(|(_, v)| *v)
    });
    if alignment.is_some_and(|a| !matches!(p.ctx().attr_kind(a), AttrKind::Integer { .. })) {
        return p.error_at(attrs_at, "expected integer alignment");
    }
    p.expect(Tok::Colon, "':'")?;
    let at = p.pos();
    let fty = p.parse_type()?;
    let (ins, outs) = match p.ctx().type_kind(fty) {
        TypeKind::Function { inputs, results } if inputs.len() == 1 && results.len() == 1 => {
            (inputs.to_vec(), results.to_vec())
        }
        _ => {
            return p.error_at(
                at,
                "expected trailing function type with one argument and one result",
            )
        }
    };
    let size = p.resolve_operand(size, ins[0])?;
    let loc = p.op_loc();
    let ctx = p.ctx();
    let mut props = Vec::new();
    let e = type_attr(ctx, elem);
    prop(ctx, &mut props, "elem_type", e);
    if inalloca {
        let u = ctx.unit_attr();
        prop(ctx, &mut props, "inalloca", u);
    }
    let attrs = split_attrs(
        ctx,
        attrs,
        &["alignment", "elem_type", "inalloca"],
        &mut props,
    );
    let props = ctx.dict_attr(props);
    let name = ctx.sym("llvm.alloca");
    Ok(p.create_op(OpSpec {
        name,
        loc,
        operands: &[size],
        result_types: &outs,
        successors: &[],
        regions: &[],
        attrs,
        props: Some(props),
    }))
}

fn print_alloca(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    if inherent_attr(ctx, ir, op, "inalloca").is_some() {
        p.write(" inalloca");
    }
    let size = ir.operand(op, 0);
    p.write(" ");
    p.operand(size);
    p.write(" x ");
    if let Some(t) = type_of_attr(ctx, inherent_attr(ctx, ir, op, "elem_type")) {
        p.ty(t);
    }
    print_extra_attrs(p, op, &["elem_type", "inalloca"], false);
    p.write(" : ");
    let ir = p.ir();
    let outs: Vec<Type> = ir.results(op).map(|v| ir.value_type(v)).collect();
    p.functional_type(&[ir.value_type(size)], &outs);
}

// ----- llvm.getelementptr ---------------------------------------------------

fn parse_gep(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let flags = if (attrs::GEP_FLAGS.starts)(p) {
        (attrs::GEP_FLAGS.parse)(p)?
    } else {
        let ctx = p.ctx();
        let t = ctx.signless(32);
        ctx.int_attr(t, 0)
    };
    let base = p.parse_operand()?;
    p.expect(Tok::LSquare, "'['")?;
    let mut dynamic = Vec::new();
    let mut raw = Vec::new();
    if !p.peek(Tok::RSquare) {
        loop {
            if p.peek(Tok::PercentId) {
                dynamic.push(p.parse_operand()?);
                raw.push(DYNAMIC_INDEX);
            } else {
                let v = p.parse_integer()?;
                raw.push(i64::try_from(v).unwrap_or(0));
            }
            if !p.eat(Tok::Comma) {
                break;
            }
        }
    }
    p.expect(Tok::RSquare, "']'")?;
    let attrs = p.parse_optional_attr_dict()?;
    p.expect(Tok::Colon, "':'")?;
    let at = p.pos();
    let fty = p.parse_type()?;
    let (ins, outs) = match p.ctx().type_kind(fty) {
        TypeKind::Function { inputs, results } => (inputs.to_vec(), results.to_vec()),
        _ => {
            let found = silica_ir::printer::type_to_string(p.ctx(), fty);
            return p.error_at(
                at,
                format!("invalid kind of type specified: expected builtin.function, but found '{found}'"),
            );
        }
    };
    p.expect(Tok::Comma, "','")?;
    let elem = p.parse_type()?;
    if ins.len() != dynamic.len() + 1 {
        return p.error_at(
            at,
            format!(
                "number of operands and types do not match: got {} operands and {} types",
                dynamic.len() + 1,
                ins.len()
            ),
        );
    }
    if outs.len() != 1 {
        return p.error_at(at, "'llvm.getelementptr' op requires one result");
    }
    let mut operands = vec![p.resolve_operand(base, ins[0])?];
    for (u, t) in dynamic.into_iter().zip(&ins[1..]) {
        operands.push(p.resolve_operand(u, *t)?);
    }
    let loc = p.op_loc();
    let ctx = p.ctx();
    let mut props = Vec::new();
    let e = type_attr(ctx, elem);
    prop(ctx, &mut props, "elem_type", e);
    prop(ctx, &mut props, "noWrapFlags", flags);
    let r = ctx.int_array_attr(32, &raw);
    prop(ctx, &mut props, "rawConstantIndices", r);
    let attrs = split_attrs(
        ctx,
        attrs,
        &["elem_type", "noWrapFlags", "rawConstantIndices"],
        &mut props,
    );
    let props = ctx.dict_attr(props);
    let name = ctx.sym("llvm.getelementptr");
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

fn print_gep(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let flags = inherent_attr(ctx, ir, op, "noWrapFlags").map_or(0, |a| attrs::bits_of(ctx, a));
    if flags != 0 {
        p.write(" ");
        p.write(&attrs::gep_flags_text(flags));
    }
    let operands: Vec<ValueId> = ir.operands(op).collect();
    p.write(" ");
    p.operand(operands[0]);
    p.write("[");
    let raw = inherent_attr(ctx, ir, op, "rawConstantIndices")
        .and_then(|a| ctx.int_array_values(a))
        .unwrap_or_default();
    let mut next = 1;
    for (i, r) in raw.iter().enumerate() {
        if i > 0 {
            p.write(", ");
        }
        if *r == DYNAMIC_INDEX {
            if let Some(&v) = operands.get(next) {
                p.operand(v);
            }
            next += 1;
        } else {
            p.write(&r.to_string());
        }
    }
    p.write("]");
    print_extra_attrs(
        p,
        op,
        &["elem_type", "noWrapFlags", "rawConstantIndices"],
        false,
    );
    p.write(" : ");
    let ins: Vec<Type> = operands.iter().map(|v| ir.value_type(*v)).collect();
    let outs: Vec<Type> = ir.results(op).map(|v| ir.value_type(v)).collect();
    p.functional_type(&ins, &outs);
    p.write(", ");
    if let Some(t) = type_of_attr(ctx, inherent_attr(ctx, ir, op, "elem_type")) {
        p.ty(t);
    }
}

// ----- llvm.extractvalue / llvm.insertvalue ---------------------------------

/// The type at `position` inside the aggregate `t`.
pub fn aggregate_element(ctx: &Context, t: Type, position: &[i64]) -> Option<Type> {
    element_at(ctx, t, position).ok()
}

/// The element at `position` of aggregate `t`, or MLIR's message for a
/// position that does not exist.
fn element_at(ctx: &Context, t: Type, position: &[i64]) -> Result<Type, String> {
    if !types::is_compatible(ctx, t) {
        return Err("expected LLVM IR Dialect type".into());
    }
    let mut t = t;
    for &i in position {
        let out_of_bounds = || format!("position out of bounds: {i}");
        t = match types::llvm_type(ctx, t) {
            Some(LlvmType::Struct { body, .. }) => *usize::try_from(i)
                .ok()
                .and_then(|i| body.get(i))
                .ok_or_else(out_of_bounds)?,
            Some(LlvmType::Array(n, e)) => {
                if u64::try_from(i).map_or(true, |i| i >= n) {
                    return Err(out_of_bounds());
                }
                e
            }
            _ => {
                let shown = silica_ir::printer::type_to_string(ctx, t);
                return Err(format!(
                    "expected LLVM IR structure/array type, got: '{shown}'"
                ));
            }
        };
    }
    Ok(t)
}

fn parse_position(p: &mut AsmParser<'_, '_>) -> PResult<Vec<i64>> {
    p.expect(Tok::LSquare, "'['")?;
    let mut v = Vec::new();
    p.comma_list(Tok::RSquare, "']'", |p| {
        v.push(p.parse_u64()? as i64);
        Ok(())
    })?;
    Ok(v)
}

fn parse_extract_insert(p: &mut AsmParser<'_, '_>, insert: bool) -> PResult<OpId> {
    let value = if insert {
        let v = p.parse_operand()?;
        p.expect(Tok::Comma, "','")?;
        Some(v)
    } else {
        None
    };
    let container = p.parse_operand()?;
    let position = parse_position(p)?;
    let attrs = p.parse_optional_attr_dict()?;
    p.expect(Tok::Colon, "':'")?;
    let ty = p.parse_type()?;
    // MLIR reports a bad position where the parser stands after the type.
    let after = p.pos();
    let elem = match element_at(p.ctx(), ty, &position) {
        Ok(e) => e,
        Err(m) => return p.custom_error_at(after, m),
    };
    let container = p.resolve_operand(container, ty)?;
    let mut operands = vec![container];
    if let Some(v) = value {
        operands.push(p.resolve_operand(v, elem)?);
    }
    let loc = p.op_loc();
    let ctx = p.ctx();
    let mut props = Vec::new();
    let a = ctx.int_array_attr(64, &position);
    prop(ctx, &mut props, "position", a);
    let props = ctx.dict_attr(props);
    let name = ctx.sym(if insert {
        "llvm.insertvalue"
    } else {
        "llvm.extractvalue"
    });
    let result = if insert { ty } else { elem };
    Ok(p.create_op(OpSpec {
        name,
        loc,
        operands: &operands,
        result_types: &[result],
        successors: &[],
        regions: &[],
        attrs,
        props: Some(props),
    }))
}

fn print_extract_insert(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let ir = p.ir();
    let operands: Vec<ValueId> = ir.operands(op).collect();
    p.write(" ");
    if let Some(&v) = operands.get(1) {
        p.operand(v);
        p.write(", ");
    }
    p.operand(operands[0]);
    let ctx = p.ctx();
    let position = inherent_attr(ctx, ir, op, "position")
        .and_then(|a| ctx.int_array_values(a))
        .unwrap_or_default();
    let text: Vec<String> = position.iter().map(i64::to_string).collect();
    p.write("[");
    p.write(&text.join(", "));
    p.write("]");
    print_extra_attrs(p, op, &["position"], false);
    p.write(" : ");
    p.ty(ir.value_type(operands[0]));
    // MLIR's format ends with a custom directive that prints nothing
    // after a space.
    p.write(" ");
}

// ----- branches -------------------------------------------------------------

fn successor_operands(ctx: &Context, ir: &Ir, op: OpId, succ: usize) -> std::ops::Range<usize> {
    match ctx.str(ir.op_name(op)) {
        "llvm.br" => 0..ir.num_operands(op),
        "llvm.invoke" => crate::dialect::eh::invoke_successor_operands(ctx, ir, op, succ),
        "llvm.switch" => {
            let counts = crate::dialect::switch::dest_counts(ctx, ir, op);
            let start = 1 + counts[..succ.min(counts.len())].iter().sum::<usize>();
            start..start + counts.get(succ).copied().unwrap_or(0)
        }
        _ => {
            let seg = segment_sizes(ctx, ir, op).unwrap_or_default();
            let (t, f) = (
                seg.get(1).copied().unwrap_or(0),
                seg.get(2).copied().unwrap_or(0),
            );
            if succ == 0 {
                1..1 + t
            } else {
                1 + t..1 + t + f
            }
        }
    }
}

fn erase_successor_operand(ctx: &mut Context, ir: &mut Ir, op: OpId, succ: usize, j: usize) {
    let range = successor_operands(ctx, ir, op, succ);
    let mut operands: Vec<ValueId> = ir.operands(op).collect();
    operands.remove(range.start + j);
    ir.set_operands(op, &operands);
    if ctx.str(ir.op_name(op)) == "llvm.invoke" {
        let seg = segment_sizes(ctx, ir, op).unwrap_or_default();
        let mut seg: Vec<i64> = seg.iter().map(|&s| s as i64).collect();
        seg[1 + succ] -= 1;
        let a = ctx.int_array_attr(32, &seg);
        silica_ir::dialect::set_inherent_attr(ctx, ir, op, SEGMENTS, a);
    } else if ctx.str(ir.op_name(op)) == "llvm.switch" {
        let mut counts: Vec<i64> = crate::dialect::switch::dest_counts(ctx, ir, op)
            .iter()
            .map(|&c| c as i64)
            .collect();
        counts[succ] -= 1;
        let total: i64 = counts[1..].iter().sum();
        let seg = ctx.int_array_attr(32, &[1, counts[0], total]);
        silica_ir::dialect::set_inherent_attr(ctx, ir, op, SEGMENTS, seg);
        let cases = ctx.int_array_attr(32, &counts[1..]);
        silica_ir::dialect::set_inherent_attr(ctx, ir, op, "case_operand_segments", cases);
    } else if ctx.str(ir.op_name(op)) == "llvm.cond_br" {
        let seg = segment_sizes(ctx, ir, op).unwrap_or_default();
        let mut seg: Vec<i64> = seg.iter().map(|&s| s as i64).collect();
        seg[1 + succ] -= 1;
        let a = ctx.int_array_attr(32, &seg);
        silica_ir::dialect::set_inherent_attr(ctx, ir, op, SEGMENTS, a);
    }
}

/// Successor operands of `llvm.br` and `llvm.cond_br`.
pub(crate) static BRANCH: BranchDef = BranchDef {
    successor_operands,
    erase_successor_operand,
};

/// `llvm.func`'s defaulted properties, which MLIR fills in when the
/// generic form leaves them out.
const FUNC_DEFAULTS: &[(&str, AttrDefault)] = &[
    (
        "CConv",
        AttrDefault {
            make: |ctx| attrs::keyword_attr(ctx, "cconv", "ccc"),
            matches: |ctx, a| attrs::keyword_of(ctx, a) == Some("ccc"),
        },
    ),
    (
        "linkage",
        AttrDefault {
            make: |ctx| attrs::keyword_attr(ctx, "linkage", "external"),
            matches: |ctx, a| attrs::keyword_of(ctx, a) == Some("external"),
        },
    ),
    (
        "visibility_",
        AttrDefault {
            make: |ctx| i64_attr(ctx, 0),
            matches: |ctx, a| matches!(ctx.attr_kind(a), AttrKind::Integer { value, .. } if *value == 0.into()),
        },
    ),
];

pub(crate) const FUNC: OpDef = OpDef {
    verify: Some(verify_func),
    traits: Traits::ISOLATED_FROM_ABOVE
        .with(Traits::ALLOCATION_SCOPE)
        .with(Traits::AFFINE_SCOPE),
    inherent_attrs: FUNC_INHERENT,
    defaults: FUNC_DEFAULTS,
    parse: Some(parse_func),
    print: Some(print_func),
    ..OpDef::new("llvm.func")
};

pub(crate) const GLOBAL: OpDef = OpDef {
    verify: Some(verify_global),
    traits: Traits::ISOLATED_FROM_ABOVE,
    inherent_attrs: GLOBAL_INHERENT,
    parse: Some(parse_global),
    print: Some(print_global),
    ..OpDef::new("llvm.mlir.global")
};

pub(crate) const ALLOCA: OpDef = OpDef {
    verify: Some(verify_alloca),
    inherent_attrs: &["alignment", "elem_type", "inalloca"],
    parse: Some(parse_alloca),
    print: Some(print_alloca),
    effects: Effects::Alloc,
    ..OpDef::new("llvm.alloca")
};

pub(crate) const GEP: OpDef = OpDef {
    verify: Some(verify_gep),
    inherent_attrs: &["elem_type", "noWrapFlags", "rawConstantIndices"],
    parse: Some(parse_gep),
    print: Some(print_gep),
    fold: Some(crate::dialect::folds::fold_gep),
    effects: Effects::None,
    ..OpDef::new("llvm.getelementptr")
};

pub(crate) const EXTRACTVALUE: OpDef = OpDef {
    verify: Some(verify_extract_insert),
    inherent_attrs: &["position"],
    parse: Some(|p| parse_extract_insert(p, false)),
    print: Some(print_extract_insert),
    fold: Some(crate::dialect::extract_fold::fold_extractvalue),
    effects: Effects::None,
    ..OpDef::new("llvm.extractvalue")
};

pub(crate) const INSERTVALUE: OpDef = OpDef {
    verify: Some(verify_extract_insert),
    inherent_attrs: &["position"],
    parse: Some(|p| parse_extract_insert(p, true)),
    print: Some(print_extract_insert),
    effects: Effects::None,
    ..OpDef::new("llvm.insertvalue")
};

// ----- verifiers ------------------------------------------------------------

use silica_ir::verify::OpVerifier;

/// Operand and result counts: `(min, max)` operands, exact results.
fn check_counts(
    v: &mut OpVerifier<'_, '_>,
    op: OpId,
    operands: (usize, usize),
    results: usize,
) -> PResult<()> {
    let n = v.ir().num_operands(op);
    if n < operands.0 || n > operands.1 {
        let expected = if operands.0 == operands.1 {
            format!("{}", operands.0)
        } else {
            format!("{} or more", operands.0)
        };
        return Err(v.op_error(op, format!("expected {expected} operands, but found {n}")));
    }
    let r = v.ir().num_results(op);
    if r != results {
        return Err(v.op_error(op, format!("expected {results} results, but found {r}")));
    }
    Ok(())
}

fn require_type(v: &mut OpVerifier<'_, '_>, op: OpId, name: &str) -> PResult<Type> {
    match type_of_attr(v.ctx(), inherent_attr(v.ctx(), v.ir(), op, name)) {
        Some(t) => Ok(t),
        None => Err(v.op_error(op, format!("requires attribute '{name}' holding a type"))),
    }
}

fn verify_func(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    check_counts(v, op, (0, 0), 0)?;
    crate::dialect::comdat::verify_clause(v, op)?;
    let (ctx, ir) = (v.ctx(), v.ir());
    if string_of(ctx, inherent_attr(ctx, ir, op, "sym_name")).is_none() {
        return Err(v.op_error(op, "requires string attribute 'sym_name'"));
    }
    if ir.regions(op).count() != 1 {
        return Err(v.op_error(op, "requires one region"));
    }
    if inherent_attr(ctx, ir, op, "function_type").is_none() {
        return Err(v.op_error(op, "requires attribute 'function_type'"));
    }
    let Some((result, params, _)) = func_type(ctx, ir, op) else {
        return Err(v.op_error(
            op,
            "attribute 'function_type' failed to satisfy constraint: type attribute of LLVM function type",
        ));
    };
    // The `llvm.*` attributes of arguments and the result.
    let lists = [("arg_attrs", false), ("res_attrs", true)];
    for (key, is_result) in lists {
        let Some(AttrKind::Array(dicts)) =
            inherent_attr(ctx, ir, op, key).map(|a| ctx.attr_kind(a))
        else {
            continue;
        };
        let (what, expected) = if is_result {
            ("result", usize::from(!types::is_void(ctx, result)))
        } else {
            ("argument", params.len())
        };
        if dicts.len() != expected {
            return Err(v.op_error(
                op,
                format!(
                    "expects {what} attribute array to have the same number of elements as the number of function {what}s, got {}, but expected {expected}",
                    dicts.len()
                ),
            ));
        }
        for (i, d) in dicts.iter().enumerate() {
            let ty = if is_result {
                Some(result)
            } else {
                params.get(i).copied()
            };
            let Some(ty) = ty else { continue };
            for &(k, val) in ctx.dict_entries(*d) {
                if let Some(msg) =
                    crate::dialect::param_attrs::check(ctx, ctx.str(k), val, ty, is_result)
                {
                    return Err(v.op_error(op, msg));
                }
            }
        }
    }
    let entry = ir.regions(op).next().and_then(|r| ir.entry_block(r));
    if let Some(b) = entry {
        let args: Vec<Type> = ir.block_args(b).iter().map(|a| ir.value_type(*a)).collect();
        if args.len() != params.len() {
            return Err(v.op_error(
                op,
                format!(
                    "entry block must have {} arguments to match function signature",
                    params.len()
                ),
            ));
        }
        if let Some(i) = (0..args.len()).find(|&i| args[i] != params[i]) {
            let show = |t| silica_ir::printer::type_to_string(ctx, t);
            return Err(v.op_error(
                op,
                format!(
                    "entry block argument #{i}('{}') must match the type of the corresponding argument in function signature('{}')",
                    show(args[i]),
                    show(params[i])
                ),
            ));
        }
    }
    crate::dialect::eh::verify_consistent_types(v, op)?;
    let (ctx, ir) = (v.ctx(), v.ir());
    let has = |key: &str| inherent_attr(ctx, ir, op, key).is_some();
    if has("no_inline") && has("always_inline") {
        return Err(v.error(
            op,
            "no_inline and always_inline attributes are incompatible",
        ));
    }
    if has("optimize_none") && !has("no_inline") {
        return Err(v.op_error(op, "with optimize_none must also be no_inline"));
    }
    let linkage = inherent_attr(ctx, ir, op, "linkage")
        .and_then(|a| attrs::keyword_of(ctx, a))
        .unwrap_or("external");
    if linkage == "common" {
        return Err(v.op_error(op, "functions cannot have 'common' linkage"));
    }
    if entry.is_none() && !matches!(linkage, "external" | "extern_weak") {
        return Err(v.op_error(
            op,
            "external functions must have 'external' or 'extern_weak' linkage",
        ));
    }
    Ok(())
}

fn verify_global(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    check_counts(v, op, (0, 0), 0)?;
    let (ctx, ir) = (v.ctx(), v.ir());
    for required in ["global_type", "sym_name"] {
        if inherent_attr(ctx, ir, op, required).is_none() {
            return Err(v.op_error(op, format!("requires attribute '{required}'")));
        }
    }
    let non_negative_i32 = match inherent_attr(ctx, ir, op, "addr_space").map(|a| ctx.attr_kind(a))
    {
        None => true,
        Some(AttrKind::Integer { ty, value }) => {
            ctx.int_width(*ty) == Some(32) && value.sign() != silica_ir::Sign::Minus
        }
        Some(_) => false,
    };
    if !non_negative_i32 {
        return Err(v.op_error(
            op,
            "attribute 'addr_space' failed to satisfy constraint: 32-bit signless integer attribute whose value is non-negative",
        ));
    }
    let global_ty = require_type(v, op, "global_type")?;
    let (ctx, ir) = (v.ctx(), v.ir());
    if string_of(ctx, inherent_attr(ctx, ir, op, "sym_name")).is_none() {
        return Err(v.op_error(op, "requires string attribute 'sym_name'"));
    }
    let element = types::llvm_type(ctx, global_ty);
    if !valid_global_type(ctx, global_ty) {
        return Err(v.op_error(
            op,
            "expects type to be a valid element type for an LLVM global",
        ));
    }
    let value = inherent_attr(ctx, ir, op, "value");
    if let Some(AttrKind::String { value: text, .. }) = value.map(|a| ctx.attr_kind(a)) {
        let i8_array = matches!(element, Some(LlvmType::Array(n, e))
            if n == text.len() as u64 && ctx.int_width(e) == Some(8));
        if !i8_array {
            return Err(v.op_error(
                op,
                "requires an i8 array type of the length equal to that of the string attribute",
            ));
        }
    }
    let zero = |a: Attr| matches!(ctx.attr_kind(a), AttrKind::Dialect { name, .. } if ctx.str(*name) == "zero");
    if matches!(element, Some(LlvmType::Target(_))) && value.is_some_and(|a| !zero(a)) {
        return Err(v.op_error(
            op,
            "global with target extension type can only be initialized with zero-initializer",
        ));
    }
    crate::dialect::comdat::verify_clause(v, op)?;
    let (ctx, ir) = (v.ctx(), v.ir());
    let linkage = inherent_attr(ctx, ir, op, "linkage")
        .and_then(|a| attrs::keyword_of(ctx, a))
        .unwrap_or("external");
    let global_type = type_of_attr(ctx, inherent_attr(ctx, ir, op, "global_type"));
    if linkage == "appending"
        && !matches!(
            global_type.and_then(|t| types::llvm_type(ctx, t)),
            Some(LlvmType::Array(..))
        )
    {
        return Err(v.op_error(op, "expected array type for 'appending' linkage"));
    }
    if linkage == "common" {
        let zero = match inherent_attr(ctx, ir, op, "value").map(|a| ctx.attr_kind(a)) {
            None => true,
            Some(AttrKind::Integer { value, .. }) => value.sign() == silica_ir::Sign::NoSign,
            Some(AttrKind::Float { bits, .. }) => *bits == 0,
            Some(AttrKind::DenseElements { values, .. }) => {
                values.iter().all(|&e| match ctx.attr_kind(e) {
                    AttrKind::Integer { value, .. } => value.sign() == silica_ir::Sign::NoSign,
                    AttrKind::Float { bits, .. } => *bits == 0,
                    _ => false,
                })
            }
            Some(_) => false,
        };
        if !zero {
            return Err(v.op_error(op, "expected zero value for 'common' linkage"));
        }
    }
    if let Some(AttrKind::Integer { value, .. }) =
        inherent_attr(ctx, ir, op, "alignment").map(|a| ctx.attr_kind(a))
    {
        let power_of_two = u64::try_from(value).is_ok_and(u64::is_power_of_two);
        if !power_of_two {
            return Err(v.error(op, "alignment attribute is not a power of 2"));
        }
    }
    verify_initializer(v, op, global_ty)
}

/// The first op of an initializer `block` with side effects, if any.
pub(crate) fn first_effectful_op(
    ctx: &Context,
    ir: &Ir,
    block: silica_ir::BlockId,
) -> Option<OpId> {
    ir.block_ops(block).find(|&o| {
        !matches!(
            silica_ir::dialect::op_effects(ctx, ir, o),
            silica_ir::dialect::Effects::None
        )
    })
}

/// Whether a global or alias may have values of type `t`.
pub(crate) fn valid_global_type(ctx: &Context, t: Type) -> bool {
    match types::llvm_type(ctx, t) {
        Some(LlvmType::Void | LlvmType::Token | LlvmType::Metadata | LlvmType::Label) => false,
        Some(LlvmType::Func { .. }) => false,
        _ => types::is_compatible(ctx, t),
    }
}

/// A global's initializer region returns one value of the global's type,
/// computed without side effects, and excludes an initializer value.
fn verify_initializer(v: &mut OpVerifier<'_, '_>, op: OpId, global_ty: Type) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let Some(block) = ir.regions(op).next().and_then(|r| ir.entry_block(r)) else {
        return Ok(());
    };
    let Some(ret) = ir
        .last_op(block)
        .filter(|&t| ctx.str(ir.op_name(t)) == "llvm.return")
    else {
        return Ok(());
    };
    let Some(returned) = ir.operands(ret).next().map(|r| ir.value_type(r)) else {
        return Err(v.op_error(op, "initializer region cannot return void"));
    };
    if returned != global_ty {
        let show = |t| silica_ir::printer::type_to_string(ctx, t);
        return Err(v.op_error(
            op,
            format!(
                "initializer region type '{}' does not match global type '{}'",
                show(returned),
                show(global_ty)
            ),
        ));
    }
    if let Some(o) = first_effectful_op(ctx, ir, block) {
        return Err(v.error(
            o,
            "ops with side effects not allowed in global initializers",
        ));
    }
    if inherent_attr(ctx, ir, op, "value").is_some() {
        return Err(v.op_error(op, "cannot have both initializer value and region"));
    }
    Ok(())
}

fn verify_alloca(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    check_counts(v, op, (1, 1), 1)?;
    let elem = require_type(v, op, "elem_type")?;
    if types::target_ext_in_memory(v.ctx(), elem) == Some(false) {
        return Err(v.op_error(op, "this target extension type cannot be used in alloca"));
    }
    Ok(())
}

fn verify_gep(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let n = v.ir().num_operands(op);
    check_counts(v, op, (1, usize::MAX), 1)?;
    require_type(v, op, "elem_type")?;
    let (ctx, ir) = (v.ctx(), v.ir());
    let raw =
        inherent_attr(ctx, ir, op, "rawConstantIndices").and_then(|a| ctx.int_array_values(a));
    let dynamic = raw
        .as_ref()
        .map(|r| r.iter().filter(|i| **i == DYNAMIC_INDEX).count());
    if dynamic != Some(n - 1) {
        return Err(v.op_error(
            op,
            "expected as many dynamic indices as specified in 'rawConstantIndices'",
        ));
    }
    // The indices after the first step into the element type: a struct
    // by constant field, arrays and vectors by any index.
    let Some(mut current) = type_of_attr(ctx, inherent_attr(ctx, ir, op, "elem_type")) else {
        return Ok(());
    };
    for (i, &index) in raw.iter().flatten().enumerate().skip(1) {
        match types::llvm_type(ctx, current) {
            Some(LlvmType::Struct { body, .. }) => {
                if index == DYNAMIC_INDEX {
                    return Err(v.op_error(
                        op,
                        format!("expected index {i} indexing a struct to be constant"),
                    ));
                }
                let Some(&field) = usize::try_from(index).ok().and_then(|f| body.get(f)) else {
                    return Err(
                        v.op_error(op, format!("index {i} indexing a struct is out of bounds"))
                    );
                };
                current = field;
            }
            Some(LlvmType::Array(_, e)) => current = e,
            _ => match ctx.type_kind(current) {
                silica_ir::TypeKind::Vector { element, .. } => current = *element,
                _ => {
                    let t = silica_ir::printer::type_to_string(ctx, current);
                    return Err(
                        v.op_error(op, format!("type '{t}' cannot be indexed (index #{i})"))
                    );
                }
            },
        }
    }
    Ok(())
}

fn verify_extract_insert(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let insert = v.ctx().str(v.ir().op_name(op)) == "llvm.insertvalue";
    let n = if insert { 2 } else { 1 };
    check_counts(v, op, (n, n), 1)?;
    let (ctx, ir) = (v.ctx(), v.ir());
    let position = inherent_attr(ctx, ir, op, "position").and_then(|a| ctx.int_array_values(a));
    let container = ir.value_type(ir.operand(op, 0));
    let elem = match position.map(|p| element_at(ctx, container, &p)) {
        Some(Ok(e)) => e,
        Some(Err(m)) => return Err(v.op_error(op, m)),
        None => return Err(v.op_error(op, "requires attribute 'position'")),
    };
    let show = |t| silica_ir::printer::type_to_string(ctx, t);
    if insert {
        let value = ir.value_type(ir.operand(op, 1));
        let result = ir.value_type(ir.result(op, 0));
        if value != elem || result != container {
            return Err(v.op_error(
                op,
                format!(
                    "Type mismatch: cannot insert '{}' into '{}'",
                    show(value),
                    show(container)
                ),
            ));
        }
    } else {
        let result = ir.value_type(ir.result(op, 0));
        if result != elem {
            return Err(v.op_error(
                op,
                format!(
                    "Type mismatch: extracting from '{}' should produce '{}' but this op returns '{}'",
                    show(container),
                    show(elem),
                    show(result)
                ),
            ));
        }
    }
    Ok(())
}

/// `llvm.intr.memcpy`/`memmove`/`memset`: three operands, no result.
pub(crate) fn verify_mem_intrinsic(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    check_counts(v, op, (3, 3), 0)
}

/// `llvm.intr.sincos`: one operand, its sine and cosine as a struct of
/// two values of its type.
pub(crate) fn verify_sincos(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    check_counts(v, op, (1, 1), 1)?;
    let (ctx, ir) = (v.ctx(), v.ir());
    let x = ir.value_type(ir.operand(op, 0));
    let r = ir.value_type(ir.result(op, 0));
    let ok = matches!(
        crate::dialect::types::llvm_type(ctx, r),
        Some(crate::dialect::types::LlvmType::Struct { name: None, body, .. }) if body == [x, x]
    );
    if !ok {
        let msg = "expected result type to be an homogeneous struct with two elements matching the operand type";
        return Err(v.op_error(op, msg));
    }
    Ok(())
}

/// `llvm.intr.memcpy.inline`/`memset.inline`: two operands (destination
/// and source or value), no result, a constant integer length `len`.
pub(crate) fn verify_inline_mem_intrinsic(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    check_counts(v, op, (2, 2), 0)?;
    let (ctx, ir) = (v.ctx(), v.ir());
    if !matches!(
        inherent_attr(ctx, ir, op, "len").map(|a| ctx.attr_kind(a)),
        Some(AttrKind::Integer { .. })
    ) {
        return Err(v.op_error(op, "requires attribute 'len'"));
    }
    Ok(())
}

/// `llvm.intr.prefetch`: one pointer, no result, the three integer
/// properties.
pub(crate) fn verify_prefetch(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    check_counts(v, op, (1, 1), 0)?;
    for key in ["rw", "hint", "cache"] {
        let (ctx, ir) = (v.ctx(), v.ir());
        if !matches!(
            inherent_attr(ctx, ir, op, key).map(|a| ctx.attr_kind(a)),
            Some(AttrKind::Integer { .. })
        ) {
            return Err(v.op_error(op, format!("requires integer attribute '{key}'")));
        }
    }
    Ok(())
}
