//! The `affine` dialect's core ops in MLIR's syntax: `affine.for` (constant,
//! symbol and `max`/`min` map bounds, `step`, `iter_args`), `affine.if`
//! (integer sets, `else`), `affine.load`/`affine.store` with subscripts
//! written over SSA values (`%A[%i + 1, symbol(%n)]`),
//! `affine.apply`/`min`/`max`, and `affine.yield`.

use silica_ir::affine::{print_expr_with, AffineExpr, AffineMap};
use silica_ir::dialect::{
    inherent_attr, DialectDef, Effects, OpDef, RegionBranchDef, RegionEdge, RegionPoint, Traits,
};
use silica_ir::format::{
    parse_op, print_op, segment_sizes, Arity, AttrDefault, AttrParam, AttrSyntax, Signature,
    TypeConstraint, ValueParam, ANY_TYPE,
};
use silica_ir::lexer::Tok;
use silica_ir::parser::{AsmParser, PResult, UnresolvedOperand};
use silica_ir::printer::AsmPrinter;
use silica_ir::{
    Attr, AttrKind, Context, Ir, OpId, OpSpec, RegionId, Symbol, Type, TypeKind, ValueId,
};
use std::ops::Range;

const FOR: &str = "affine.for";
const IF: &str = "affine.if";
const YIELD: &str = "affine.yield";

static YIELD_SIG: Signature = Signature::new(
    &[ValueParam {
        name: "operands",
        arity: Arity::Variadic,
        constraint: ANY_TYPE,
    }],
    &[],
    &[],
    "attr-dict ($operands^ `:` type($operands))?",
);

static OPS: &[OpDef] = &[
    crate::parallel::PARALLEL,
    OpDef {
        verify: Some(crate::verify::verify_for),
        traits: Traits::SINGLE_BLOCK
            .with(Traits::LOOP_LIKE)
            .with(Traits::ALLOCATION_SCOPE),
        inherent_attrs: &[
            "lowerBoundMap",
            "upperBoundMap",
            "step",
            "operandSegmentSizes",
        ],
        parse: Some(parse_for),
        print: Some(print_for),
        patterns: crate::canonicalize::FOR,
        fold: Some(crate::for_fold::fold_for),
        effects: Effects::Recursive,
        region_branch: Some(&FOR_BRANCH),
        ..OpDef::new(FOR)
    },
    OpDef {
        verify: Some(crate::verify::verify_if),
        traits: Traits::SINGLE_BLOCK.with(Traits::NO_REGION_ARGUMENTS),
        inherent_attrs: &["condition"],
        parse: Some(parse_if),
        print: Some(print_if),
        fold: Some(crate::canonicalize::fold_if),
        effects: Effects::Recursive,
        region_branch: Some(&IF_BRANCH),
        patterns: &[
            silica_ir::rewrite::Pattern::new(
                "SimplifyDeadElse",
                silica_dialects::scf::patterns::if_empty_else,
            ),
            silica_ir::rewrite::Pattern::new(
                "AlwaysTrueOrFalseIf",
                crate::canonicalize::always_true_or_false_if,
            ),
        ],
        ..OpDef::new(IF)
    },
    OpDef {
        inherent_attrs: &["map"],
        parse: Some(parse_load),
        print: Some(print_load),
        verify: Some(crate::verify::verify_load_store),
        effects: Effects::Read,
        patterns: crate::canonicalize::SIMPLIFY,
        fold: Some(crate::load_fold::fold_load),
        ..OpDef::new("affine.load")
    },
    OpDef {
        inherent_attrs: &["map", "isWrite", "localityHint", "isDataCache"],
        parse: Some(parse_prefetch),
        print: Some(print_prefetch),
        verify: Some(crate::verify::verify_prefetch),
        patterns: crate::canonicalize::SIMPLIFY,
        effects: Effects::Write,
        ..OpDef::new("affine.prefetch")
    },
    OpDef {
        inherent_attrs: &["map"],
        parse: Some(parse_store),
        print: Some(print_store),
        verify: Some(crate::verify::verify_load_store),
        effects: Effects::Write,
        patterns: crate::canonicalize::SIMPLIFY,
        ..OpDef::new("affine.store")
    },
    OpDef {
        inherent_attrs: &["map"],
        parse: Some(parse_apply),
        print: Some(print_apply),
        verify: Some(crate::verify::verify_apply),
        effects: Effects::None,
        patterns: crate::canonicalize::SIMPLIFY,
        fold: Some(crate::canonicalize::fold_apply),
        ..OpDef::new("affine.apply")
    },
    OpDef {
        inherent_attrs: &["map"],
        parse: Some(parse_apply),
        print: Some(print_apply),
        verify: Some(crate::verify::verify_min_max),
        effects: Effects::None,
        patterns: crate::min_max::MIN_MAX,
        fold: Some(crate::min_max::fold_min),
        ..OpDef::new("affine.min")
    },
    OpDef {
        inherent_attrs: &["map"],
        parse: Some(parse_apply),
        print: Some(print_apply),
        verify: Some(crate::verify::verify_min_max),
        effects: Effects::None,
        patterns: crate::min_max::MIN_MAX,
        fold: Some(crate::min_max::fold_max),
        ..OpDef::new("affine.max")
    },
    OpDef {
        verify: Some(crate::verify::verify_dma),
        parse: Some(parse_dma_start),
        print: Some(print_dma_start),
        effects: Effects::Write,
        ..OpDef::new("affine.dma_start")
    },
    OpDef {
        verify: Some(crate::verify::verify_dma),
        parse: Some(parse_dma_wait),
        print: Some(print_dma_wait),
        effects: Effects::Write,
        ..OpDef::new("affine.dma_wait")
    },
    OpDef {
        verify: Some(crate::verify::verify_delinearize),
        parse: Some(parse_op),
        print: Some(print_op),
        signature: Some(&DELINEARIZE_SIG),
        effects: Effects::None,
        fold: Some(crate::index_ops::fold_delinearize),
        patterns: crate::index_ops::DELINEARIZE_PATTERNS,
        ..OpDef::new("affine.delinearize_index")
    },
    OpDef {
        verify: Some(crate::verify::verify_linearize),
        parse: Some(parse_op),
        print: Some(print_op),
        signature: Some(&LINEARIZE_SIG),
        effects: Effects::None,
        fold: Some(crate::index_ops::fold_linearize),
        patterns: crate::index_ops::LINEARIZE_PATTERNS,
        ..OpDef::new("affine.linearize_index")
    },
    OpDef {
        verify: Some(crate::verify::verify_yield),
        traits: Traits::TERMINATOR,
        parents: &[FOR, IF, "affine.parallel"],
        parse: Some(parse_op),
        print: Some(print_op),
        signature: Some(&YIELD_SIG),
        effects: Effects::None,
        ..OpDef::new(YIELD)
    },
];

/// The `affine` dialect.
pub static AFFINE: DialectDef = DialectDef {
    name: "affine",
    ops: OPS,
    attrs: None,
    types: None,
    materialize_constant: Some(silica_dialects::arith::materialize_constant),
};

// ----- shared pieces ---------------------------------------------------------

pub(crate) fn map_of(ctx: &Context, a: Option<Attr>) -> Option<&AffineMap> {
    match ctx.attr_kind(a?) {
        AttrKind::AffineMap(m) => Some(m),
        _ => None,
    }
}

pub(crate) fn create(
    p: &mut AsmParser<'_, '_>,
    name: &str,
    operands: &[ValueId],
    results: &[Type],
    regions: &[RegionId],
    attrs: Attr,
    props: Vec<(&str, Attr)>,
) -> OpId {
    let loc = p.op_loc();
    let ctx = p.ctx();
    let entries: Vec<(Symbol, Attr)> = props.into_iter().map(|(k, v)| (ctx.sym(k), v)).collect();
    let props = (!entries.is_empty()).then(|| ctx.dict_attr(entries));
    let name = ctx.sym(name);
    p.create_op(OpSpec {
        name,
        loc,
        operands,
        result_types: results,
        successors: &[],
        regions,
        attrs,
        props,
    })
}

/// `(%d, ...)[%s, ...]`: the operands, and how many are dimensions.
fn parse_dim_and_symbol_list<'a>(
    p: &mut AsmParser<'_, 'a>,
) -> PResult<(Vec<UnresolvedOperand<'a>>, u32)> {
    let mut ops = Vec::new();
    p.expect(Tok::LParen, "'('")?;
    p.comma_list(Tok::RParen, "')'", |p| {
        ops.push(p.parse_operand()?);
        Ok(())
    })?;
    let dims = ops.len() as u32;
    if p.eat(Tok::LSquare) {
        p.comma_list(Tok::RSquare, "']'", |p| {
            ops.push(p.parse_operand()?);
            Ok(())
        })?;
    }
    Ok((ops, dims))
}

/// The operands of a map (`what` = "affine map") or set (`what` =
/// "integer set") written with `dims` dimensions and `total` operands
/// match its `(dims, syms)`, as MLIR's parsers check.
fn check_dim_and_symbol_counts(
    p: &mut AsmParser<'_, '_>,
    what: &str,
    (map_dims, map_syms): (u32, u32),
    dims: u32,
    total: usize,
) -> PResult<()> {
    let name = p.op_name();
    if dims != map_dims {
        return p.op_error(format!(
            "custom op '{name}' dim operand count and {what} dim count must match"
        ));
    }
    if total != (map_dims + map_syms) as usize {
        return p.op_error(format!(
            "custom op '{name}' symbol operand count and {what} symbol count must match"
        ));
    }
    Ok(())
}

fn print_dim_and_symbol_list(p: &mut AsmPrinter<'_, '_>, operands: &[ValueId], dims: u32) {
    let (d, s) = operands.split_at((dims as usize).min(operands.len()));
    p.write("(");
    p.operands(d.iter().copied());
    p.write(")");
    if !s.is_empty() {
        p.write("[");
        p.operands(s.iter().copied());
        p.write("]");
    }
}

/// A map's results with its dimensions and symbols written as the SSA
/// operands (`%i + 1`, `symbol(%n)`).
pub(crate) fn print_map_of_ssa(p: &mut AsmPrinter<'_, '_>, m: &AffineMap, operands: &[ValueId]) {
    let names: Vec<String> = operands.iter().map(|v| p.value_name(*v)).collect();
    let dims = m.num_dims;
    let ids = |out: &mut String, symbol: bool, i: u32| {
        let k = if symbol { dims + i } else { i } as usize;
        let name = names.get(k).map_or("<<?>>", String::as_str);
        if symbol {
            out.push_str("symbol(");
            out.push_str(name);
            out.push(')');
        } else {
            out.push_str(name);
        }
    };
    let mut text = String::new();
    for (i, e) in m.results.iter().enumerate() {
        if i > 0 {
            text.push_str(", ");
        }
        print_expr_with(&mut text, e, &ids);
    }
    p.write(&text);
}

// ----- affine.for ------------------------------------------------------------

/// A loop bound: `0`, `%n`, or `[max|min] #map(dims)[syms]`.
fn parse_bound<'a>(
    p: &mut AsmParser<'_, 'a>,
    lower: bool,
) -> PResult<(Attr, Vec<UnresolvedOperand<'a>>)> {
    let prefix = if lower { "max" } else { "min" };
    let prefixed = p.eat_keyword(prefix);
    if p.peek(Tok::PercentId) {
        let u = p.parse_operand()?;
        let map = AffineMap {
            num_dims: 0,
            num_symbols: 1,
            results: Box::new([AffineExpr::Symbol(0)]),
        };
        return Ok((p.ctx().intern_attr(AttrKind::AffineMap(map)), vec![u]));
    }
    let at = p.pos();
    // MLIR reads a bound as an attribute of type index.
    let index = p.ctx().index_type();
    let a = p.parse_attribute_of_type(index)?;
    if let AttrKind::Integer { value, .. } = p.ctx().attr_kind(a) {
        let Ok(c) = i64::try_from(value) else {
            return p.error_at(at, "integer constant out of range for bound");
        };
        let map = AffineMap {
            num_dims: 0,
            num_symbols: 0,
            results: Box::new([AffineExpr::Constant(c)]),
        };
        return Ok((p.ctx().intern_attr(AttrKind::AffineMap(map)), Vec::new()));
    }
    let Some(m) = map_of(p.ctx(), Some(a)).cloned() else {
        return p.error_at(
            at,
            "expected valid affine map representation for loop bounds",
        );
    };
    if m.results.len() > 1 && !prefixed {
        let which = if lower { "lower" } else { "upper" };
        let msg = format!(
            "{which} loop bound affine map with multiple results requires '{prefix}' prefix"
        );
        return p.error_at(at, msg);
    }
    let (ops, dims) = parse_dim_and_symbol_list(p)?;
    check_dim_and_symbol_counts(
        p,
        "affine map",
        (m.num_dims, m.num_symbols),
        dims,
        ops.len(),
    )?;
    Ok((a, ops))
}

fn print_bound(p: &mut AsmPrinter<'_, '_>, map: Attr, operands: &[ValueId], prefix: &str) {
    let Some(m) = map_of(p.ctx(), Some(map)).cloned() else {
        return;
    };
    if m.results.len() == 1 {
        let simple = m.num_dims == 0 && m.num_symbols == 0;
        if let (true, AffineExpr::Constant(c)) = (simple, &m.results[0]) {
            p.write(&c.to_string());
            return;
        }
        if m.num_dims == 0 && m.num_symbols == 1 && matches!(m.results[0], AffineExpr::Symbol(_)) {
            if let Some(&v) = operands.first() {
                p.operand(v);
                return;
            }
        }
    } else {
        p.write(prefix);
        p.write(" ");
    }
    p.attr(map);
    print_dim_and_symbol_list(p, operands, m.num_dims);
}

/// `%iv = lb to ub [step N] [iter_args(...) -> (types)] region attr-dict`
fn parse_for(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let iv = p.parse_argument()?;
    let iv_loc = p.parse_optional_location()?;
    p.expect(Tok::Equal, "'='")?;
    let (lb_map, lb_ops) = parse_bound(p, true)?;
    if !p.eat_keyword("to") {
        return p.error_at(
            p.pos(),
            "custom op 'affine.for' expected 'to' between bounds",
        );
    }
    let (ub_map, ub_ops) = parse_bound(p, false)?;
    let mut step = 1i64;
    if p.eat_keyword("step") {
        let at = p.pos();
        let index = p.ctx().index_type();
        let a = p.parse_attribute_of_type(index)?;
        let s = match p.ctx().attr_kind(a) {
            AttrKind::Integer { value, .. } => i64::try_from(value).ok(),
            _ => None,
        };
        match s {
            Some(s) if s > 0 => step = s,
            _ => {
                return p.error_at(
                    at,
                    "expected step to be representable as a positive signed integer",
                )
            }
        }
    }
    let mut inits = Vec::new();
    let mut result_types = Vec::new();
    if p.eat_keyword("iter_args") {
        p.expect(Tok::LParen, "'('")?;
        p.comma_list(Tok::RParen, "')'", |p| {
            let arg = p.parse_operand()?;
            p.expect(Tok::Equal, "'='")?;
            let init = p.parse_operand()?;
            inits.push((arg, init));
            Ok(())
        })?;
        p.expect(Tok::Arrow, "'->'")?;
        result_types = p.parse_result_types()?;
        if inits.len() != result_types.len() {
            return p.op_error("mismatch between the number of loop-carried values and results");
        }
    }
    let mut operands = p.resolve_indices(&lb_ops)?;
    operands.extend(p.resolve_indices(&ub_ops)?);
    let index = p.ctx().index_type();
    let mut args = vec![(iv, index)];
    for (&(arg, init), &t) in inits.iter().zip(&result_types) {
        operands.push(p.resolve_operand(init, t)?);
        args.push((arg, t));
    }
    let region = p.ir().create_region();
    let mut locs = vec![iv_loc];
    locs.resize_with(args.len(), || None);
    p.parse_region_with_located_args(region, &args, locs)?;
    p.ensure_terminator(region, YIELD);
    let attrs = p.parse_optional_attr_dict()?;
    let ctx = p.ctx();
    let sizes = [lb_ops.len(), ub_ops.len(), inits.len()].map(|n| n as i64);
    let segments = ctx.int_array_attr(32, &sizes);
    let step = ctx.int_attr(index, step);
    let props = vec![
        ("lowerBoundMap", lb_map),
        ("operandSegmentSizes", segments),
        ("step", step),
        ("upperBoundMap", ub_map),
    ];
    Ok(create(
        p,
        FOR,
        &operands,
        &result_types,
        &[region],
        attrs,
        props,
    ))
}

fn print_for(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let operands: Vec<ValueId> = ir.operands(op).collect();
    let sizes = segment_sizes(ctx, ir, op).unwrap_or_default();
    let (nl, nu) = (
        sizes.first().copied().unwrap_or(0),
        sizes.get(1).copied().unwrap_or(0),
    );
    let Some(region) = ir.regions(op).next() else {
        return;
    };
    let args: Vec<ValueId> = ir
        .entry_block(region)
        .map(|b| ir.block_args(b).to_vec())
        .unwrap_or_default();
    let (Some(lb), Some(ub), Some(&iv)) = (
        inherent_attr(ctx, ir, op, "lowerBoundMap"),
        inherent_attr(ctx, ir, op, "upperBoundMap"),
        args.first(),
    ) else {
        return;
    };
    let lb_ops = &operands[..nl.min(operands.len())];
    let ub_ops = &operands[nl.min(operands.len())..(nl + nu).min(operands.len())];
    let inits = &operands[(nl + nu).min(operands.len())..];
    p.write(" ");
    p.operand(iv);
    p.arg_loc(iv);
    p.write(" = ");
    print_bound(p, lb, lb_ops, "max");
    p.write(" to ");
    print_bound(p, ub, ub_ops, "min");
    let step = inherent_attr(ctx, ir, op, "step").and_then(|a| match ctx.attr_kind(a) {
        AttrKind::Integer { value, .. } => i64::try_from(value).ok(),
        _ => None,
    });
    if let Some(s) = step.filter(|s| *s != 1) {
        p.write(" step ");
        p.write(&s.to_string());
    }
    if !inits.is_empty() {
        p.write(" iter_args(");
        for (i, (&a, &v)) in args[1..].iter().zip(inits).enumerate() {
            if i > 0 {
                p.write(", ");
            }
            p.operand(a);
            p.write(" = ");
            p.operand(v);
        }
        p.write(") -> (");
        let tys: Vec<Type> = ir.results(op).map(|r| ir.value_type(r)).collect();
        p.types(&tys);
        p.write(")");
    }
    p.write(" ");
    if inits.is_empty() {
        p.region_without_terminators(region, false);
    } else {
        p.region(region, false, false);
    }
    let attrs = ir.op_attrs(op);
    p.attr_dict(attrs, &[], false);
}

// ----- affine.if -------------------------------------------------------------

/// `#set(dims)[syms] [-> (types)] region [else region] attr-dict`
fn parse_if(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let at = p.pos();
    let set = p.parse_attribute()?;
    let (dims, syms) = match p.ctx().attr_kind(set) {
        AttrKind::IntegerSet(s) => (s.num_dims, s.num_symbols),
        _ => return p.error_at(at, "expected valid integer set attr"),
    };
    let (ops, given) = parse_dim_and_symbol_list(p)?;
    check_dim_and_symbol_counts(p, "integer set", (dims, syms), given, ops.len())?;
    let operands = p.resolve_indices(&ops)?;
    let result_types = if p.eat(Tok::Arrow) {
        p.parse_result_types()?
    } else {
        Vec::new()
    };
    let then_region = p.ir().create_region();
    p.parse_region(then_region)?;
    p.ensure_terminator(then_region, YIELD);
    let else_region = p.ir().create_region();
    if p.eat_keyword("else") {
        p.parse_region(else_region)?;
        p.ensure_terminator(else_region, YIELD);
    }
    let attrs = p.parse_optional_attr_dict()?;
    Ok(create(
        p,
        IF,
        &operands,
        &result_types,
        &[then_region, else_region],
        attrs,
        vec![("condition", set)],
    ))
}

fn print_if(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let Some(set) = inherent_attr(ctx, ir, op, "condition") else {
        return;
    };
    let dims = match ctx.attr_kind(set) {
        AttrKind::IntegerSet(s) => s.num_dims,
        _ => 0,
    };
    let operands: Vec<ValueId> = ir.operands(op).collect();
    p.write(" ");
    p.attr(set);
    print_dim_and_symbol_list(p, &operands, dims);
    let results: Vec<Type> = ir.results(op).map(|r| ir.value_type(r)).collect();
    if !results.is_empty() {
        p.write(" -> ");
        p.result_types(&results);
    }
    let regions: Vec<RegionId> = ir.regions(op).collect();
    let print_region = |p: &mut AsmPrinter<'_, '_>, r: RegionId| {
        if results.is_empty() {
            p.region_without_terminators(r, false);
        } else {
            p.region(r, false, false);
        }
    };
    if let Some(&then_region) = regions.first() {
        p.write(" ");
        print_region(p, then_region);
    }
    if let Some(&else_region) = regions.get(1).filter(|r| !ir.region_is_empty(**r)) {
        p.write(" else ");
        print_region(p, else_region);
    }
    let attrs = ir.op_attrs(op);
    p.attr_dict(attrs, &[], false);
}

// ----- loads, stores, apply/min/max --------------------------------------------

/// The element type of a memref.
fn element_of(ctx: &Context, t: Type) -> Option<Type> {
    match ctx.type_kind(t) {
        TypeKind::MemRef { element, .. } => Some(*element),
        _ => None,
    }
}

/// A parsed `%A[subscripts] attr-dict : memref-type`, not yet resolved.
struct Access<'a> {
    memref: UnresolvedOperand<'a>,
    ty: Type,
    element: Type,
    subscripts: Vec<UnresolvedOperand<'a>>,
    map: Attr,
    attrs: Attr,
}

/// `%A[subscripts] attr-dict : memref-type` (a load, or a store after its
/// value).
fn parse_access<'a>(p: &mut AsmParser<'_, 'a>) -> PResult<Access<'a>> {
    let (memref, map, subscripts) = parse_subscripted(p)?;
    let attrs = p.parse_optional_attr_dict()?;
    p.expect(Tok::Colon, "':'")?;
    let at = p.pos();
    let ty = p.parse_type()?;
    let Some(element) = element_of(p.ctx(), ty) else {
        return p.error_at(at, "expected memref type");
    };
    Ok(Access {
        memref,
        ty,
        element,
        subscripts,
        map,
        attrs,
    })
}

/// `%A[subscripts] attr-dict : memref-type`
fn parse_load(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let a = parse_access(p)?;
    let mut operands = vec![p.resolve_operand(a.memref, a.ty)?];
    operands.extend(p.resolve_indices(&a.subscripts)?);
    let props = vec![("map", a.map)];
    Ok(create(
        p,
        "affine.load",
        &operands,
        &[a.element],
        &[],
        a.attrs,
        props,
    ))
}

/// `%v, %A[subscripts] attr-dict : memref-type`
fn parse_store(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let value = p.parse_operand()?;
    p.expect(Tok::Comma, "','")?;
    let a = parse_access(p)?;
    let mut operands = vec![
        p.resolve_operand(value, a.element)?,
        p.resolve_operand(a.memref, a.ty)?,
    ];
    operands.extend(p.resolve_indices(&a.subscripts)?);
    let props = vec![("map", a.map)];
    Ok(create(
        p,
        "affine.store",
        &operands,
        &[],
        &[],
        a.attrs,
        props,
    ))
}

/// `%A[subscripts], read|write, locality<N>, data|instr attr-dict : type`
fn parse_prefetch(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    use silica_dialects::memref::{INSTR_DATA, READ_WRITE};
    let (memref, map, subscripts) = parse_subscripted(p)?;
    p.expect(Tok::Comma, "','")?;
    let write = (READ_WRITE.parse)(p)?;
    p.expect(Tok::Comma, "','")?;
    p.expect_keyword("locality")?;
    p.expect(Tok::Less, "'<'")?;
    let hint = p.parse_u64()?;
    p.expect(Tok::Greater, "'>'")?;
    p.expect(Tok::Comma, "','")?;
    let data = (INSTR_DATA.parse)(p)?;
    let attrs = p.parse_optional_attr_dict()?;
    p.expect(Tok::Colon, "':'")?;
    let ty = p.parse_type()?;
    let mut operands = vec![p.resolve_operand(memref, ty)?];
    operands.extend(p.resolve_indices(&subscripts)?);
    let ctx = p.ctx();
    let i32t = ctx.signless(32);
    let hint = ctx.int_attr(i32t, hint as i64);
    let props = vec![
        ("isDataCache", data),
        ("isWrite", write),
        ("localityHint", hint),
        ("map", map),
    ];
    Ok(create(
        p,
        "affine.prefetch",
        &operands,
        &[],
        &[],
        attrs,
        props,
    ))
}

fn print_prefetch(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    use silica_dialects::memref::{INSTR_DATA, READ_WRITE};
    let (ctx, ir) = (p.ctx(), p.ir());
    let operands: Vec<ValueId> = ir.operands(op).collect();
    let Some(&memref) = operands.first() else {
        return;
    };
    p.write(" ");
    print_subscripted(p, op, &operands, 0, "map");
    let mut text = String::new();
    for (key, syntax) in [
        ("isWrite", &READ_WRITE),
        ("localityHint", &READ_WRITE),
        ("isDataCache", &INSTR_DATA),
    ] {
        let Some(a) = inherent_attr(ctx, ir, op, key) else {
            continue;
        };
        text.push_str(", ");
        if key == "localityHint" {
            if let AttrKind::Integer { value, .. } = ctx.attr_kind(a) {
                text.push_str(&format!("locality<{value}>"));
            }
        } else {
            (syntax.print)(ctx, a, &mut text);
        }
    }
    p.write(&text);
    p.attr_dict(ir.op_attrs(op), &[], false);
    p.write(" : ");
    p.ty(ir.value_type(memref));
}

/// Prints `%A[subscripts] attr-dict : memref-type` from operand `at`.
fn print_access(p: &mut AsmPrinter<'_, '_>, op: OpId, at: usize) {
    let ir = p.ir();
    let operands: Vec<ValueId> = ir.operands(op).collect();
    let Some(&memref) = operands.get(at) else {
        return;
    };
    print_subscripted(p, op, &operands, at, "map");
    p.attr_dict(ir.op_attrs(op), &[], false);
    p.write(" : ");
    p.ty(ir.value_type(memref));
}

fn print_load(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    p.write(" ");
    print_access(p, op, 0);
}

fn print_store(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let ir = p.ir();
    let Some(value) = ir.operands(op).next() else {
        return;
    };
    p.write(" ");
    p.operand(value);
    p.write(", ");
    print_access(p, op, 1);
}

/// `#map(dims)[syms] attr-dict` (`affine.apply`, `affine.min`, `affine.max`).
fn parse_apply(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let name = p.op_name();
    let at = p.pos();
    let map = p.parse_attribute()?;
    let Some(m) = map_of(p.ctx(), Some(map)).cloned() else {
        return p.error_at(at, "expected affine map");
    };
    let (ops, dims) = parse_dim_and_symbol_list(p)?;
    if name == "affine.apply"
        && (dims != m.num_dims || ops.len() != (m.num_dims + m.num_symbols) as usize)
    {
        return p.op_error("custom op 'affine.apply' dimension or symbol index mismatch");
    }
    let operands = p.resolve_indices(&ops)?;
    let attrs = p.parse_optional_attr_dict()?;
    let index = p.ctx().index_type();
    Ok(create(
        p,
        name,
        &operands,
        &[index],
        &[],
        attrs,
        vec![("map", map)],
    ))
}

fn print_apply(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let Some(map) = inherent_attr(ctx, ir, op, "map") else {
        return;
    };
    let dims = map_of(ctx, Some(map)).map_or(0, |m| m.num_dims);
    let operands: Vec<ValueId> = ir.operands(op).collect();
    p.write(" ");
    p.attr(map);
    print_dim_and_symbol_list(p, &operands, dims);
    p.attr_dict(ir.op_attrs(op), &[], false);
}

// ----- delinearize_index / linearize_index -------------------------------------

const INDEX: TypeConstraint = TypeConstraint {
    desc: "index",
    check: |ctx, t| matches!(ctx.type_kind(t), TypeKind::Index),
    build: Some(|ctx| ctx.index_type()),
};

const fn index_values(name: &'static str, arity: Arity) -> ValueParam {
    ValueParam {
        name,
        arity,
        constraint: INDEX,
    }
}

const STATIC_BASIS: AttrParam = AttrParam {
    name: "static_basis",
    syntax: AttrSyntax::Plain,
    optional: false,
    default: None,
};

static DELINEARIZE_SIG: Signature = Signature::new(
    &[
        index_values("linear_index", Arity::One),
        index_values("dynamic_basis", Arity::Variadic),
    ],
    &[index_values("multi_index", Arity::Variadic)],
    &[STATIC_BASIS],
    "$linear_index `into` \
     custom<DynamicIndexList>($dynamic_basis, $static_basis, \"{}\", \"::mlir::AsmParser::Delimiter::Paren\") \
     attr-dict `:` type($multi_index)",
);

/// `disjoint`: a unit property, `false` when absent.
const DISJOINT: AttrParam = AttrParam {
    name: "disjoint",
    syntax: AttrSyntax::Unit,
    optional: false,
    default: Some(AttrDefault {
        make: |ctx| {
            let i1 = ctx.signless(1);
            ctx.int_attr(i1, 0)
        },
        matches: |ctx, a| !matches!(ctx.attr_kind(a), AttrKind::Unit),
    }),
};

static LINEARIZE_SIG: Signature = Signature::new(
    &[
        index_values("multi_index", Arity::Variadic),
        index_values("dynamic_basis", Arity::Variadic),
    ],
    &[index_values("linear_index", Arity::One)],
    &[DISJOINT, STATIC_BASIS],
    "(`disjoint` $disjoint^)? ` ` `[` $multi_index `]` `by` \
     custom<DynamicIndexList>($dynamic_basis, $static_basis, \"{}\", \"::mlir::AsmParser::Delimiter::Paren\") \
     attr-dict `:` type($linear_index)",
)
.segmented();

// ----- DMA -------------------------------------------------------------------

/// `%m[subscripts]`: a memref and its affine subscripts.
fn parse_subscripted<'a>(
    p: &mut AsmParser<'_, 'a>,
) -> PResult<(UnresolvedOperand<'a>, Attr, Vec<UnresolvedOperand<'a>>)> {
    let m = p.parse_operand()?;
    let (map, ops) = p.parse_affine_exprs_of_ssa(Tok::LSquare, Tok::RSquare, "']'")?;
    Ok((m, map, ops))
}

/// The map operand count of the map attribute `name` of `op`.
fn map_arity(ctx: &Context, ir: &Ir, op: OpId, name: &str) -> (Option<AffineMap>, usize) {
    let m = map_of(ctx, inherent_attr(ctx, ir, op, name)).cloned();
    let n = m
        .as_ref()
        .map_or(0, |m| (m.num_dims + m.num_symbols) as usize);
    (m, n)
}

/// Prints `%m[subscripts]` from `ops[at..]` with the map `name`; returns
/// the index after it.
fn print_subscripted(
    p: &mut AsmPrinter<'_, '_>,
    op: OpId,
    ops: &[ValueId],
    at: usize,
    name: &str,
) -> usize {
    let (ctx, ir) = (p.ctx(), p.ir());
    let (m, n) = map_arity(ctx, ir, op, name);
    let Some(&memref) = ops.get(at) else {
        return at;
    };
    let end = (at + 1 + n).min(ops.len());
    p.operand(memref);
    p.write("[");
    if let Some(m) = m {
        print_map_of_ssa(p, &m, &ops[at + 1..end]);
    }
    p.write("]");
    end
}

fn create_with_attrs(
    p: &mut AsmParser<'_, '_>,
    name: &str,
    operands: &[ValueId],
    attrs: Vec<(&str, Attr)>,
) -> OpId {
    let loc = p.op_loc();
    let ctx = p.ctx();
    let entries: Vec<(Symbol, Attr)> = attrs.into_iter().map(|(k, v)| (ctx.sym(k), v)).collect();
    let attrs = ctx.dict_attr(entries);
    let name = ctx.sym(name);
    p.create_op(OpSpec {
        name,
        loc,
        operands,
        result_types: &[],
        successors: &[],
        regions: &[],
        attrs,
        props: None,
    })
}

/// `%src[..], %dst[..], %tag[..], %n [, %stride, %per_stride] : types`
fn parse_dma_start(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let (src, src_map, src_ops) = parse_subscripted(p)?;
    p.expect(Tok::Comma, "','")?;
    let (dst, dst_map, dst_ops) = parse_subscripted(p)?;
    p.expect(Tok::Comma, "','")?;
    let (tag, tag_map, tag_ops) = parse_subscripted(p)?;
    p.expect(Tok::Comma, "','")?;
    let mut rest = vec![p.parse_operand()?];
    // Optional stride operands; a trailing comma alone is allowed.
    if p.eat(Tok::Comma) && p.peek(Tok::PercentId) {
        rest.extend(p.parse_operand_list()?);
    }
    if rest.len() != 1 && rest.len() != 3 {
        return p.op_error("expected two stride related operands");
    }
    p.expect(Tok::Colon, "':'")?;
    let src_ty = p.parse_type()?;
    p.expect(Tok::Comma, "','")?;
    let dst_ty = p.parse_type()?;
    p.expect(Tok::Comma, "','")?;
    let tag_ty = p.parse_type()?;
    let mut operands = vec![p.resolve_operand(src, src_ty)?];
    operands.extend(p.resolve_indices(&src_ops)?);
    operands.push(p.resolve_operand(dst, dst_ty)?);
    operands.extend(p.resolve_indices(&dst_ops)?);
    operands.push(p.resolve_operand(tag, tag_ty)?);
    operands.extend(p.resolve_indices(&tag_ops)?);
    operands.extend(p.resolve_indices(&rest)?);
    Ok(create_with_attrs(
        p,
        "affine.dma_start",
        &operands,
        vec![
            ("dst_map", dst_map),
            ("src_map", src_map),
            ("tag_map", tag_map),
        ],
    ))
}

const DMA_MAPS: &[&str] = &["src_map", "dst_map", "tag_map"];

fn print_dma_start(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let ir = p.ir();
    let ops: Vec<ValueId> = ir.operands(op).collect();
    p.write(" ");
    let mut at = print_subscripted(p, op, &ops, 0, "src_map");
    p.write(", ");
    let dst = ops.get(at).copied();
    at = print_subscripted(p, op, &ops, at, "dst_map");
    p.write(", ");
    let tag = ops.get(at).copied();
    at = print_subscripted(p, op, &ops, at, "tag_map");
    for &v in ops.get(at..).unwrap_or(&[]) {
        p.write(", ");
        p.operand(v);
    }
    p.attr_dict(ir.op_attrs(op), DMA_MAPS, false);
    p.write(" : ");
    let tys: Vec<Type> = [ops.first().copied(), dst, tag]
        .into_iter()
        .flatten()
        .map(|v| ir.value_type(v))
        .collect();
    p.types(&tys);
}

/// `%tag[..], %n : tag-type`
fn parse_dma_wait(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let (tag, tag_map, tag_ops) = parse_subscripted(p)?;
    p.expect(Tok::Comma, "','")?;
    let num = p.parse_operand()?;
    p.expect(Tok::Colon, "':'")?;
    let tag_ty = p.parse_type()?;
    let mut operands = vec![p.resolve_operand(tag, tag_ty)?];
    operands.extend(p.resolve_indices(&tag_ops)?);
    operands.extend(p.resolve_indices(&[num])?);
    Ok(create_with_attrs(
        p,
        "affine.dma_wait",
        &operands,
        vec![("tag_map", tag_map)],
    ))
}

fn print_dma_wait(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let ir = p.ir();
    let ops: Vec<ValueId> = ir.operands(op).collect();
    p.write(" ");
    let at = print_subscripted(p, op, &ops, 0, "tag_map");
    p.write(", ");
    if let Some(&n) = ops.get(at) {
        p.operand(n);
    }
    p.attr_dict(ir.op_attrs(op), DMA_MAPS, false);
    p.write(" : ");
    if let Some(&t) = ops.first() {
        p.ty(ir.value_type(t));
    }
}

fn region_edge(to: RegionPoint, operands: Range<usize>, inputs: Range<usize>) -> RegionEdge {
    RegionEdge {
        to,
        operands,
        inputs,
    }
}

/// `affine.for`: the inits (its last operands) enter the body after the
/// induction variable or become the results; the yield feeds the next
/// iteration or the results.
static FOR_BRANCH: RegionBranchDef = RegionBranchDef {
    entry_edges: |_, ir, op| {
        let n = ir.num_results(op);
        let inits = ir.num_operands(op) - n..ir.num_operands(op);
        vec![
            region_edge(RegionPoint::Region(0), inits.clone(), 1..1 + n),
            region_edge(RegionPoint::Parent, inits, 0..n),
        ]
    },
    exit_edges: |ctx, ir, op, _, term| {
        if ctx.str(ir.op_name(term)) != "affine.yield" {
            return None;
        }
        let n = ir.num_operands(term);
        Some(vec![
            region_edge(RegionPoint::Region(0), 0..n, 1..1 + n),
            region_edge(RegionPoint::Parent, 0..n, 0..ir.num_results(op)),
        ])
    },
};

/// `affine.if`: both branches are entered without values (a missing else
/// goes straight to the results) and yield the results.
static IF_BRANCH: RegionBranchDef = RegionBranchDef {
    entry_edges: |_, ir, op| {
        ir.regions(op)
            .enumerate()
            .map(|(i, r)| {
                let to = if ir.region_is_empty(r) {
                    RegionPoint::Parent
                } else {
                    RegionPoint::Region(i)
                };
                region_edge(to, 0..0, 0..0)
            })
            .collect()
    },
    exit_edges: |ctx, ir, op, _, term| {
        (ctx.str(ir.op_name(term)) == "affine.yield").then(|| {
            vec![region_edge(
                RegionPoint::Parent,
                0..ir.num_operands(term),
                0..ir.num_results(op),
            )]
        })
    },
};
