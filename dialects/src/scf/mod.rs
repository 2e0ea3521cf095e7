//! The `scf` dialect: structured control flow. `scf.yield` and
//! `scf.condition` come from formats; `scf.for`, `scf.if`, `scf.while`
//! and `scf.execute_region` have MLIR's hand-written syntax (loop headers,
//! `iter_args`, implicit `scf.yield` terminators left out when printing).
//!
//! Beside them: `scf.forall` (`forall`), the other ops' verifiers
//! (`verify`), how values flow through the region ops (`region_branch`)
//! and the canonicalization patterns ([`patterns`], `parallel_patterns`).

pub(crate) mod forall;
mod parallel_patterns;
pub mod patterns;
mod region_branch;
pub(crate) mod verify;

use silica_ir::dialect::{DialectDef, Effects, OpDef, Traits};
use silica_ir::format::{parse_op, print_op, Arity, Signature, ValueParam, ANY_TYPE};
use silica_ir::lexer::Tok;
use silica_ir::parser::{AsmParser, PResult, UnresolvedOperand};
use silica_ir::printer::AsmPrinter;
use silica_ir::verify::OpVerifier;
use silica_ir::{Attr, OpId, OpSpec, RegionId, Type, TypeKind, ValueId};

const FOR: &str = "scf.for";
const IF: &str = "scf.if";
const WHILE: &str = "scf.while";
const EXECUTE_REGION: &str = "scf.execute_region";
const YIELD: &str = "scf.yield";
const PARALLEL: &str = "scf.parallel";
const REDUCE: &str = "scf.reduce";
/// The property of `scf.for unsigned`.
const UNSIGNED_CMP: &str = "unsignedCmp";

const fn variadic(name: &'static str) -> ValueParam {
    ValueParam {
        name,
        arity: Arity::Variadic,
        constraint: ANY_TYPE,
    }
}

static YIELD_SIG: Signature = Signature::new(
    &[variadic("results")],
    &[],
    &[],
    "attr-dict ($results^ `:` type($results))?",
);

static CONDITION_SIG: Signature = Signature::new(
    &[
        ValueParam {
            name: "condition",
            arity: Arity::One,
            constraint: silica_ir::format::TypeConstraint {
                desc: "1-bit signless integer",
                check: |ctx, t| ctx.int_width(t) == Some(1),
                build: Some(|ctx| ctx.signless(1)),
            },
        },
        variadic("args"),
    ],
    &[],
    &[],
    "`(` $condition `)` attr-dict ($args^ `:` type($args))?",
);

const SIGNLESS_OR_INDEX: silica_ir::format::TypeConstraint = silica_ir::format::TypeConstraint {
    desc: "signless integer or index",
    check: |ctx, t| match ctx.type_kind(t) {
        TypeKind::Index => true,
        TypeKind::Integer { signedness, .. } => *signedness == silica_ir::Signedness::Signless,
        _ => false,
    },
    build: None,
};

const I1: silica_ir::format::TypeConstraint = silica_ir::format::TypeConstraint {
    desc: "1-bit signless integer",
    check: |ctx, t| ctx.int_width(t) == Some(1),
    build: Some(|ctx| ctx.signless(1)),
};

const fn single(name: &'static str, constraint: silica_ir::format::TypeConstraint) -> ValueParam {
    ValueParam {
        name,
        arity: Arity::One,
        constraint,
    }
}

/// Operand checks of the hand-written ops (they have no format).
static FOR_SIG: Signature = Signature::new(
    &[
        single("lowerBound", SIGNLESS_OR_INDEX),
        single("upperBound", SIGNLESS_OR_INDEX),
        single("step", SIGNLESS_OR_INDEX),
        variadic("initArgs"),
    ],
    &[variadic("results")],
    &[],
    "",
)
.same_types(&[&["lowerBound", "upperBound", "step"]]);

static IF_SIG: Signature =
    Signature::new(&[single("condition", I1)], &[variadic("results")], &[], "");

static REDUCE_RETURN_SIG: Signature = Signature::new(
    &[single("result", silica_ir::format::ANY_TYPE)],
    &[],
    &[],
    "$result attr-dict `:` type($result)",
);

static OPS: &[OpDef] = &[
    OpDef {
        verify: Some(crate::scf::forall::verify_forall),
        inherent_attrs: &[
            "operandSegmentSizes",
            "staticLowerBound",
            "staticUpperBound",
            "staticStep",
            "mapping",
        ],
        parse: Some(crate::scf::forall::parse_forall),
        print: Some(crate::scf::forall::print_forall),
        effects: Effects::Recursive,
        traits: Traits::SINGLE_BLOCK
            .with(Traits::LOOP_LIKE)
            .with(Traits::ALLOCATION_SCOPE),
        ..OpDef::new(crate::scf::forall::FORALL)
    },
    OpDef {
        traits: Traits::TERMINATOR
            .with(Traits::SINGLE_BLOCK)
            .with(Traits::NO_REGION_ARGUMENTS)
            .with(Traits::NO_TERMINATOR),
        parents: &[crate::scf::forall::FORALL],
        parse: Some(crate::scf::forall::parse_in_parallel),
        print: Some(crate::scf::forall::print_in_parallel),
        effects: Effects::Recursive,
        ..OpDef::new(crate::scf::forall::IN_PARALLEL)
    },
    OpDef {
        verify: Some(crate::scf::verify::verify_parallel),
        verify_regions: Some(crate::scf::verify::verify_parallel_results),
        inherent_attrs: &["operandSegmentSizes"],
        parse: Some(parse_parallel),
        print: Some(print_parallel),
        effects: Effects::Recursive,
        traits: Traits::LOOP_LIKE.with(Traits::ALLOCATION_SCOPE),
        patterns: crate::scf::parallel_patterns::PARALLEL_PATTERNS,
        ..OpDef::new(PARALLEL)
    },
    OpDef {
        verify: Some(crate::scf::verify::verify_index_switch),
        inherent_attrs: &["cases"],
        parse: Some(parse_index_switch),
        print: Some(print_index_switch),
        effects: Effects::Recursive,
        region_branch: Some(&crate::scf::region_branch::CONDITIONAL),
        patterns: crate::scf::patterns::INDEX_SWITCH_PATTERNS,
        ..OpDef::new("scf.index_switch")
    },
    OpDef {
        verify: Some(crate::scf::verify::verify_reduce),
        verify_regions: Some(crate::scf::verify::verify_reduce_regions),
        traits: Traits::TERMINATOR,
        parents: &[PARALLEL],
        parse: Some(parse_reduce),
        print: Some(print_reduce),
        effects: Effects::Recursive,
        ..OpDef::new(REDUCE)
    },
    OpDef {
        verify: Some(crate::scf::verify::verify_reduce_return),
        traits: Traits::TERMINATOR,
        parents: &[REDUCE],
        parse: Some(parse_op),
        print: Some(print_op),
        signature: Some(&REDUCE_RETURN_SIG),
        effects: Effects::None,
        ..OpDef::new("scf.reduce.return")
    },
    OpDef {
        traits: Traits::SINGLE_BLOCK
            .with(Traits::LOOP_LIKE)
            .with(Traits::ALLOCATION_SCOPE),
        inherent_attrs: &[UNSIGNED_CMP],
        parse: Some(parse_for),
        print: Some(print_for),
        verify: Some(verify_for),
        signature: Some(&FOR_SIG),
        effects: Effects::Recursive,
        patterns: crate::scf::patterns::FOR_PATTERNS,
        region_branch: Some(&crate::scf::region_branch::FOR),
        ..OpDef::new(FOR)
    },
    OpDef {
        traits: Traits::SINGLE_BLOCK.with(Traits::NO_REGION_ARGUMENTS),
        parse: Some(parse_if),
        print: Some(print_if),
        verify: Some(verify_if),
        verify_regions: Some(crate::scf::verify::verify_yields_to_parent),
        signature: Some(&IF_SIG),
        effects: Effects::Recursive,
        patterns: crate::scf::patterns::IF_PATTERNS,
        region_branch: Some(&crate::scf::region_branch::CONDITIONAL),
        ..OpDef::new(IF)
    },
    OpDef {
        verify: Some(crate::scf::verify::verify_while),
        verify_regions: Some(crate::scf::verify::verify_while_edges),
        parse: Some(parse_while),
        print: Some(print_while),
        effects: Effects::Recursive,
        traits: Traits::LOOP_LIKE,
        patterns: crate::scf::patterns::WHILE_PATTERNS,
        region_branch: Some(&crate::scf::region_branch::WHILE),
        ..OpDef::new(WHILE)
    },
    OpDef {
        inherent_attrs: &["no_inline"],
        parse: Some(parse_execute_region),
        print: Some(print_execute_region),
        verify: Some(verify_execute_region),
        verify_regions: Some(crate::scf::verify::verify_yields_to_parent),
        effects: Effects::Recursive,
        region_branch: Some(&crate::scf::region_branch::CONDITIONAL),
        patterns: crate::scf::patterns::REGION_BRANCH_PATTERNS,
        ..OpDef::new(EXECUTE_REGION)
    },
    OpDef {
        traits: Traits::TERMINATOR,
        parents: &[EXECUTE_REGION, FOR, IF, "scf.index_switch", WHILE],
        parse: Some(parse_op),
        print: Some(print_op),
        signature: Some(&YIELD_SIG),
        effects: Effects::None,
        ..OpDef::new(YIELD)
    },
    OpDef {
        traits: Traits::TERMINATOR,
        parents: &[WHILE],
        parse: Some(parse_op),
        print: Some(print_op),
        signature: Some(&CONDITION_SIG),
        effects: Effects::None,
        ..OpDef::new("scf.condition")
    },
];

/// The `scf` dialect.
pub static SCF: DialectDef = DialectDef {
    name: "scf",
    ops: OPS,
    attrs: None,
    types: None,
    materialize_constant: None,
};

// ----- shared pieces ---------------------------------------------------------

/// `(t1, t2)`, or `t` for one non-function type.
pub(crate) fn print_result_types(p: &mut AsmPrinter<'_, '_>, tys: &[Type], parens_always: bool) {
    if parens_always {
        p.write("(");
        p.types(tys);
        p.write(")");
    } else {
        p.result_types(tys);
    }
}

/// `(%a = %x, %b = %y)`: block arguments and the values they start as.
type Assignments<'a> = Vec<(UnresolvedOperand<'a>, UnresolvedOperand<'a>)>;

pub(crate) fn parse_assignments<'a>(p: &mut AsmParser<'_, 'a>) -> PResult<Assignments<'a>> {
    let mut out = Vec::new();
    p.expect(Tok::LParen, "'('")?;
    p.comma_list(Tok::RParen, "')'", |p| {
        let arg = p.parse_operand()?;
        p.expect(Tok::Equal, "'='")?;
        let init = p.parse_operand()?;
        out.push((arg, init));
        Ok(())
    })?;
    Ok(out)
}

fn print_assignments(p: &mut AsmPrinter<'_, '_>, args: &[ValueId], inits: &[ValueId]) {
    p.write("(");
    for (i, (&a, &v)) in args.iter().zip(inits).enumerate() {
        if i > 0 {
            p.write(", ");
        }
        p.operand(a);
        p.write(" = ");
        p.operand(v);
    }
    p.write(")");
}

pub(crate) fn create(
    p: &mut AsmParser<'_, '_>,
    name: &str,
    operands: &[ValueId],
    results: &[Type],
    regions: &[RegionId],
    attrs: Attr,
) -> OpId {
    let loc = p.op_loc();
    let name = p.ctx().sym(name);
    p.create_op(OpSpec {
        name,
        loc,
        operands,
        result_types: results,
        successors: &[],
        regions,
        attrs,
        props: None,
    })
}

fn entry_args(p: &AsmPrinter<'_, '_>, r: RegionId) -> Vec<ValueId> {
    let ir = p.ir();
    ir.entry_block(r)
        .map(|b| ir.block_args(b).to_vec())
        .unwrap_or_default()
}

// ----- scf.for -------------------------------------------------------------

/// `%iv = %lb to %ub step %s [iter_args(%a = %x, ...) -> (types)] [: type]
/// region attr-dict`
fn parse_for(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let unsigned = p.eat_keyword("unsigned");
    let iv = p.parse_operand()?;
    p.expect(Tok::Equal, "'='")?;
    let lb = p.parse_operand()?;
    p.expect_keyword("to")?;
    let ub = p.parse_operand()?;
    p.expect_keyword("step")?;
    let step = p.parse_operand()?;
    let mut iter = Vec::new();
    let mut result_types = Vec::new();
    if p.eat_keyword("iter_args") {
        iter = parse_assignments(p)?;
        p.expect(Tok::Arrow, "'->'")?;
        result_types = p.parse_result_types()?;
    }
    let iv_ty = if p.eat(Tok::Colon) {
        p.parse_type()?
    } else {
        p.ctx().index_type()
    };
    if iter.len() != result_types.len() {
        return p.op_error("mismatch in number of loop-carried values and defined values");
    }
    let mut operands = vec![
        p.resolve_operand(lb, iv_ty)?,
        p.resolve_operand(ub, iv_ty)?,
        p.resolve_operand(step, iv_ty)?,
    ];
    let mut args = vec![(iv, iv_ty)];
    for (&(arg, init), &t) in iter.iter().zip(&result_types) {
        operands.push(p.resolve_operand(init, t)?);
        args.push((arg, t));
    }
    let region = p.ir().create_region();
    p.parse_region_with_args(region, &args)?;
    p.ensure_terminator(region, YIELD);
    let attrs = p.parse_optional_attr_dict()?;
    let op = create(p, FOR, &operands, &result_types, &[region], attrs);
    if unsigned {
        let ctx = p.ctx();
        let k = ctx.sym(UNSIGNED_CMP);
        let unit = ctx.unit_attr();
        let props = ctx.dict_attr(vec![(k, unit)]);
        p.ir().set_op_props(op, Some(props));
    }
    Ok(op)
}

fn print_for(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let ir = p.ir();
    let operands: Vec<ValueId> = ir.operands(op).collect();
    let Some(region) = ir.regions(op).next() else {
        return;
    };
    let args = entry_args(p, region);
    let (Some(&iv), [lb, ub, step, inits @ ..]) = (args.first(), operands.as_slice()) else {
        return;
    };
    if silica_ir::dialect::inherent_attr(p.ctx(), ir, op, UNSIGNED_CMP).is_some() {
        p.write(" unsigned");
    }
    p.write(" ");
    p.operand(iv);
    p.write(" = ");
    p.operand(*lb);
    p.write(" to ");
    p.operand(*ub);
    p.write(" step ");
    p.operand(*step);
    if !inits.is_empty() {
        p.write(" iter_args");
        print_assignments(p, &args[1..], inits);
        p.write(" -> ");
        let tys: Vec<Type> = ir.results(op).map(|r| ir.value_type(r)).collect();
        print_result_types(p, &tys, true);
    }
    let iv_ty = ir.value_type(iv);
    if !matches!(p.ctx().type_kind(iv_ty), TypeKind::Index) {
        // MLIR leaves a space after the (possibly empty) iteration
        // arguments before this one.
        p.write("  : ");
        p.ty(iv_ty);
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

fn verify_for(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let ir = v.ir();
    let operands: Vec<ValueId> = ir.operands(op).collect();
    let lb_ty = ir.value_type(operands[0]);
    if ir.num_regions(op) != 1 {
        return Err(v.op_error(op, "requires one region"));
    }
    let Some(body) = ir.regions(op).next().and_then(|r| ir.entry_block(r)) else {
        return Ok(());
    };
    let args = ir.block_args(body);
    if args.first().is_none_or(|a| ir.value_type(*a) != lb_ty) {
        return Err(v.op_error(
            op,
            "expected induction variable to be same type as bounds and step",
        ));
    }
    let inits = &operands[3..];
    let results: Vec<Type> = ir.results(op).map(|r| ir.value_type(r)).collect();
    if inits.len() != results.len() {
        return Err(v.op_error(
            op,
            "mismatch in number of loop-carried values and defined values",
        ));
    }
    let iter_args = &args[1..];
    if inits.len() != iter_args.len() {
        let msg = format!(
            "different number of inits and region iter_args: {} != {}",
            inits.len(),
            iter_args.len()
        );
        return Err(v.op_error(op, msg));
    }
    let yielded: Vec<Type> = ir
        .last_op(body)
        .map(|y| ir.operands(y).map(|x| ir.value_type(x)).collect())
        .unwrap_or_default();
    if yielded.len() != iter_args.len() {
        let msg = format!(
            "different number of region iter_args and yielded values: {} != {}",
            iter_args.len(),
            yielded.len()
        );
        return Err(v.op_error(op, msg));
    }
    let show = |t| silica_ir::printer::type_to_string(v.ctx(), t);
    for (i, &a) in iter_args.iter().enumerate() {
        let at = ir.value_type(a);
        if at != results[i] {
            let msg = format!(
                "{i}-th region iter_arg and {i}-th loop result have different type: '{}' != '{}'",
                show(at),
                show(results[i])
            );
            return Err(v.op_error(op, msg));
        }
        if at != yielded[i] {
            let msg = format!(
                "{i}-th region iter_arg and {i}-th yielded value have different type: '{}' != '{}'",
                show(at),
                show(yielded[i])
            );
            return Err(v.op_error(op, msg));
        }
    }
    Ok(())
}

// ----- scf.if --------------------------------------------------------------

/// `%cond [-> (types)] region [else region] attr-dict`
fn parse_if(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let cond = p.parse_operand()?;
    let i1 = p.ctx().signless(1);
    let cond = p.resolve_operand(cond, i1)?;
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
        &[cond],
        &result_types,
        &[then_region, else_region],
        attrs,
    ))
}

fn print_if(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let ir = p.ir();
    let regions: Vec<RegionId> = ir.regions(op).collect();
    let results: Vec<Type> = ir.results(op).map(|r| ir.value_type(r)).collect();
    p.write(" ");
    p.operands(ir.operands(op));
    if !results.is_empty() {
        p.write(" -> ");
        print_result_types(p, &results, true);
    }
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

fn verify_if(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let ir = v.ir();
    if ir.num_regions(op) != 2 {
        return Err(v.op_error(op, "expected 2 regions"));
    }
    let else_empty = ir.regions(op).nth(1).is_some_and(|r| ir.region_is_empty(r));
    if ir.num_results(op) > 0 && else_empty {
        return Err(v.op_error(op, "must have an else block if defining values"));
    }
    Ok(())
}

// ----- scf.while -----------------------------------------------------------

/// `(%a = %x, ...) : (types) -> types region do region attr-dict`
fn parse_while(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let inits = if p.peek(Tok::LParen) {
        parse_assignments(p)?
    } else {
        Vec::new()
    };
    p.expect(Tok::Colon, "':'")?;
    let at = p.pos();
    let fty = p.parse_type()?;
    let (ins, outs) = match p.ctx().type_kind(fty) {
        TypeKind::Function { inputs, results } => (inputs.to_vec(), results.to_vec()),
        _ => return p.error_at(at, "expected function type"),
    };
    if ins.len() != inits.len() {
        let msg = format!(
            "expected as many input types as operands (expected {} got {})",
            inits.len(),
            ins.len()
        );
        return p.error_at(at, msg);
    }
    let mut operands = Vec::new();
    let mut args = Vec::new();
    for (&(arg, init), &t) in inits.iter().zip(&ins) {
        operands.push(p.resolve_operand(init, t)?);
        args.push((arg, t));
    }
    let before = p.ir().create_region();
    p.parse_region_with_args(before, &args)?;
    p.expect_keyword("do")?;
    let after = p.ir().create_region();
    p.parse_region(after)?;
    let attrs = p.parse_optional_attr_dict_with_keyword()?;
    Ok(create(p, WHILE, &operands, &outs, &[before, after], attrs))
}

fn print_while(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let ir = p.ir();
    let regions: Vec<RegionId> = ir.regions(op).collect();
    let [before, after] = regions.as_slice() else {
        return;
    };
    let inits: Vec<ValueId> = ir.operands(op).collect();
    let args = entry_args(p, *before);
    // No initial values: no `()` (MLIR's `printInitializationList`).
    if !inits.is_empty() {
        p.write(" ");
        print_assignments(p, &args, &inits);
    }
    p.write(" : ");
    let ins: Vec<Type> = inits.iter().map(|v| ir.value_type(*v)).collect();
    let outs: Vec<Type> = ir.results(op).map(|r| ir.value_type(r)).collect();
    p.functional_type(&ins, &outs);
    p.write(" ");
    p.region(*before, false, false);
    p.write(" do ");
    p.region(*after, true, false);
    let attrs = ir.op_attrs(op);
    p.attr_dict(attrs, &[], true);
}

// ----- scf.execute_region ----------------------------------------------------

/// `[-> types] region attr-dict`
fn parse_execute_region(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let result_types = if p.eat(Tok::Arrow) {
        p.parse_result_types()?
    } else {
        Vec::new()
    };
    let no_inline = p.eat_keyword("no_inline");
    let region = p.ir().create_region();
    p.parse_region(region)?;
    let attrs = p.parse_optional_attr_dict()?;
    let op = create(p, EXECUTE_REGION, &[], &result_types, &[region], attrs);
    if no_inline {
        let ctx = p.ctx();
        let k = ctx.sym("no_inline");
        let unit = ctx.unit_attr();
        let props = ctx.dict_attr(vec![(k, unit)]);
        p.ir().set_op_props(op, Some(props));
    }
    Ok(op)
}

fn verify_execute_region(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let ir = v.ir();
    let entry = ir.regions(op).next().and_then(|r| ir.entry_block(r));
    if entry.is_some_and(|b| !ir.block_args(b).is_empty()) {
        return Err(v.op_error(op, "region cannot have any arguments"));
    }
    Ok(())
}

fn print_execute_region(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let ir = p.ir();
    let results: Vec<Type> = ir.results(op).map(|r| ir.value_type(r)).collect();
    if !results.is_empty() {
        p.write(" -> ");
        print_result_types(p, &results, false);
    }
    if silica_ir::dialect::inherent_attr(p.ctx(), ir, op, "no_inline").is_some() {
        p.write(" no_inline");
    }
    if let Some(r) = ir.regions(op).next() {
        p.write(" ");
        p.region(r, false, false);
    }
    let attrs = ir.op_attrs(op);
    p.attr_dict(attrs, &[], false);
}

// ----- scf.parallel and scf.reduce -----------------------------------------------

/// `(%a, %b)`: operands in parentheses.
pub(crate) fn parse_paren_operands<'a>(
    p: &mut AsmParser<'_, 'a>,
) -> PResult<Vec<UnresolvedOperand<'a>>> {
    let mut out = Vec::new();
    p.expect(Tok::LParen, "'('")?;
    p.comma_list(Tok::RParen, "')'", |p| {
        out.push(p.parse_operand()?);
        Ok(())
    })?;
    Ok(out)
}

/// `(%a, ...)` with `n` operands (bounds and steps: one per induction
/// variable).
fn parse_counted_operands<'a>(
    p: &mut AsmParser<'_, 'a>,
    n: usize,
) -> PResult<Vec<UnresolvedOperand<'a>>> {
    let at = p.pos();
    let list = parse_paren_operands(p)?;
    if list.len() != n {
        return p.error_at(
            at,
            format!("custom op 'scf.parallel' expected {n} operands"),
        );
    }
    Ok(list)
}

/// `(ivs) = (lbs) to (ubs) step (steps) [init (inits) -> types] region
/// attr-dict`
fn parse_parallel(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let ivs = parse_paren_operands(p)?;
    p.expect(Tok::Equal, "'='")?;
    let lbs = parse_counted_operands(p, ivs.len())?;
    p.expect_keyword("to")?;
    let ubs = parse_counted_operands(p, ivs.len())?;
    p.expect_keyword("step")?;
    let steps = parse_counted_operands(p, ivs.len())?;
    let mut inits = Vec::new();
    let mut result_types = Vec::new();
    if p.eat_keyword("init") {
        inits = parse_paren_operands(p)?;
    }
    if p.eat(Tok::Arrow) {
        result_types = p.parse_result_types()?;
    }
    if inits.len() != result_types.len() {
        return p.op_error(format!(
            "custom op 'scf.parallel' number of operands and types do not match: got {} operands and {} types",
            inits.len(),
            result_types.len()
        ));
    }
    let index = p.ctx().index_type();
    let mut operands = Vec::new();
    for group in [&lbs, &ubs, &steps] {
        operands.extend(p.resolve_indices(group)?);
    }
    for (u, t) in inits.iter().zip(&result_types) {
        operands.push(p.resolve_operand(*u, *t)?);
    }
    let args: Vec<_> = ivs.iter().map(|u| (*u, index)).collect();
    let region = p.ir().create_region();
    p.parse_region_with_args(region, &args)?;
    p.ensure_terminator(region, REDUCE);
    let attrs = p.parse_optional_attr_dict()?;
    let op = create(p, PARALLEL, &operands, &result_types, &[region], attrs);
    let ctx = p.ctx();
    let sizes = [lbs.len(), ubs.len(), steps.len(), inits.len()].map(|n| n as i64);
    let segments = ctx.int_array_attr(32, &sizes);
    let k = ctx.sym(silica_ir::format::SEGMENTS);
    let props = ctx.dict_attr(vec![(k, segments)]);
    p.ir().set_op_props(op, Some(props));
    Ok(op)
}

fn print_parallel(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let operands: Vec<ValueId> = ir.operands(op).collect();
    let Some(sizes) = silica_ir::format::segment_sizes(ctx, ir, op) else {
        return;
    };
    let Some(region) = ir.regions(op).next() else {
        return;
    };
    let ivs = entry_args(p, region);
    let mut at = 0;
    let mut group = |n: usize| {
        let g = operands[at.min(operands.len())..(at + n).min(operands.len())].to_vec();
        at += n;
        g
    };
    let (lbs, ubs, steps) = (
        group(sizes.first().copied().unwrap_or(0)),
        group(sizes.get(1).copied().unwrap_or(0)),
        group(sizes.get(2).copied().unwrap_or(0)),
    );
    let inits = group(sizes.get(3).copied().unwrap_or(0));
    let list = |p: &mut AsmPrinter<'_, '_>, vs: &[ValueId]| {
        p.write("(");
        p.operands(vs.iter().copied());
        p.write(")");
    };
    p.write(" ");
    list(p, &ivs);
    p.write(" = ");
    list(p, &lbs);
    p.write(" to ");
    list(p, &ubs);
    p.write(" step ");
    list(p, &steps);
    if !inits.is_empty() {
        p.write(" init ");
        list(p, &inits);
        p.write(" -> ");
        let tys: Vec<Type> = ir.results(op).map(|r| ir.value_type(r)).collect();
        print_result_types(p, &tys, false);
    }
    p.write(" ");
    p.region(region, false, false);
    p.attr_dict(ir.op_attrs(op), &[], false);
}

/// `[(%a, ... : types)] {reduction}, ... attr-dict`
fn parse_reduce(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let mut operands = Vec::new();
    if p.eat(Tok::LParen) {
        operands = p.parse_typed_operand_list()?;
        p.expect(Tok::RParen, "')'")?;
    }
    let mut regions = Vec::new();
    if p.peek(Tok::LBrace) {
        loop {
            let r = p.ir().create_region();
            p.parse_region(r)?;
            regions.push(r);
            if !p.eat(Tok::Comma) {
                break;
            }
        }
    }
    let attrs = p.parse_optional_attr_dict()?;
    Ok(create(p, REDUCE, &operands, &[], &regions, attrs))
}

fn print_reduce(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let ir = p.ir();
    let operands: Vec<ValueId> = ir.operands(op).collect();
    if !operands.is_empty() {
        p.write("(");
        p.operands(operands.iter().copied());
        p.write(" : ");
        let tys: Vec<Type> = operands.iter().map(|v| ir.value_type(*v)).collect();
        p.types(&tys);
        p.write(")");
    }
    // MLIR writes the (possibly empty) region list after a space.
    p.write(" ");
    let regions: Vec<RegionId> = ir.regions(op).collect();
    for (i, r) in regions.into_iter().enumerate() {
        if i > 0 {
            p.write(", ");
        }
        p.region(r, true, false);
    }
    p.attr_dict(ir.op_attrs(op), &[], false);
}

// ----- scf.index_switch ------------------------------------------------------------

/// `%arg attr-dict [-> types] (case N region)* default region`
fn parse_index_switch(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let arg = p.parse_operand()?;
    let index = p.ctx().index_type();
    let arg = p.resolve_operand(arg, index)?;
    let attrs = p.parse_optional_attr_dict()?;
    let result_types = if p.eat(Tok::Arrow) {
        p.parse_type_list()?
    } else {
        Vec::new()
    };
    let mut cases = Vec::new();
    let mut case_regions = Vec::new();
    while p.eat_keyword("case") {
        let at = p.pos();
        let v = p.parse_integer()?;
        let Ok(v) = i64::try_from(&v) else {
            return p.error_at(at, "integer value too large");
        };
        cases.push(v);
        let r = p.ir().create_region();
        p.parse_region(r)?;
        case_regions.push(r);
    }
    p.expect_keyword("default")?;
    let default = p.ir().create_region();
    p.parse_region(default)?;
    p.ensure_terminator(default, YIELD);
    let mut regions = vec![default];
    regions.extend(case_regions);
    let op = create(
        p,
        "scf.index_switch",
        &[arg],
        &result_types,
        &regions,
        attrs,
    );
    let ctx = p.ctx();
    let cases = ctx.int_array_attr(64, &cases);
    let k = ctx.sym("cases");
    let props = ctx.dict_attr(vec![(k, cases)]);
    p.ir().set_op_props(op, Some(props));
    Ok(op)
}

fn print_index_switch(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let cases: Vec<String> = silica_ir::dialect::inherent_attr(ctx, ir, op, "cases")
        .and_then(|a| ctx.int_array_values(a))
        .unwrap_or_default()
        .iter()
        .map(i64::to_string)
        .collect();
    let regions: Vec<RegionId> = ir.regions(op).collect();
    p.write(" ");
    p.operands(ir.operands(op));
    p.attr_dict(ir.op_attrs(op), &[], false);
    let results: Vec<Type> = ir.results(op).map(|r| ir.value_type(r)).collect();
    if !results.is_empty() {
        p.write(" -> ");
        p.types(&results);
    }
    // MLIR sets the case list off by a space before its first line break.
    p.write(" ");
    for (c, r) in cases.iter().zip(regions.iter().skip(1)) {
        p.newline(0);
        p.write("case ");
        p.write(c);
        p.write(" ");
        p.region(*r, false, false);
    }
    p.newline(0);
    p.write("default ");
    // The default region's implicit yield is left out without results;
    // the cases print theirs.
    if let Some(&d) = regions.first() {
        if results.is_empty() {
            p.region_without_terminators(d, false);
        } else {
            p.region(d, false, false);
        }
    }
}
