//! memref's atomic read-modify-write ops: `memref.atomic_rmw` (an `arith`
//! atomic kind applied to one element), `memref.generic_atomic_rmw`
//! (a pure region computing the new value) and its terminator
//! `memref.atomic_yield`, with MLIR's syntax and checks.

use crate::memref::{value, INDEX};
use silica_ir::dialect::{inherent_attr, Effects, OpDef, Traits};
use silica_ir::format::{
    parse_op, print_op, Arity, AttrParam, AttrSyntax, Signature, TypeConstraint,
};
use silica_ir::lexer::Tok;
use silica_ir::parser::{AsmParser, PResult};
use silica_ir::printer::{type_to_string, AsmPrinter};
use silica_ir::rewrite::effects::is_memory_effect_free;
use silica_ir::verify::OpVerifier;
use silica_ir::{AttrKind, Context, OpId, OpSpec, Type, TypeKind};

/// `arith`'s atomic kinds in value order (MLIR's `AtomicRMWKind`).
pub const ATOMIC_KINDS: &[&str] = &[
    "addf", "addi", "andi", "assign", "maximumf", "maxnumf", "maxs", "maxu", "minimumf", "minnumf",
    "mins", "minu", "mulf", "muli", "ori", "xori",
];

fn is_int_or_float(ctx: &Context, t: Type) -> bool {
    match ctx.type_kind(t) {
        TypeKind::Integer { signedness, .. } => {
            *signedness == silica_ir::types::Signedness::Signless
        }
        _ => ctx.float_kind(t).is_some(),
    }
}

const INT_OR_FLOAT: TypeConstraint = TypeConstraint {
    desc: "signless integer or floating-point",
    check: is_int_or_float,
    build: None,
};

const INT_OR_FLOAT_MEMREF: TypeConstraint = TypeConstraint {
    desc: "memref of signless integer or floating-point values",
    check: |ctx, t| matches!(ctx.type_kind(t), TypeKind::MemRef { element, .. } if is_int_or_float(ctx, *element)),
    build: None,
};

static ATOMIC_RMW_SIG: Signature = Signature::new(
    &[
        value("value", Arity::One, INT_OR_FLOAT),
        value("memref", Arity::One, INT_OR_FLOAT_MEMREF),
        value("indices", Arity::Variadic, INDEX),
    ],
    &[value("result", Arity::One, INT_OR_FLOAT)],
    &[AttrParam {
        name: "kind",
        syntax: AttrSyntax::IntEnum(64, ATOMIC_KINDS),
        optional: false,
        default: None,
    }],
    "$kind $value `,` $memref `[` $indices `]` attr-dict `:` `(` type($value) `,` type($memref) `)` \
     `->` type($result)",
)
.same_types(&[&["value", "result"]]);

static ATOMIC_YIELD_SIG: Signature = Signature::new(
    &[value("result", Arity::One, silica_ir::format::ANY_TYPE)],
    &[],
    &[],
    "$result attr-dict `:` type($result)",
);

/// The element type and rank of a memref type.
fn element_and_rank(ctx: &Context, t: Type) -> Option<(Type, usize)> {
    match ctx.type_kind(t) {
        TypeKind::MemRef { element, shape, .. } => Some((*element, shape.len())),
        _ => None,
    }
}

/// `memref.atomic_rmw`: the value is of the memref's element type, one
/// index per dimension, and a float or integer kind to match the value.
fn verify_atomic_rmw(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let value = ir.value_type(ir.operand(op, 0));
    let Some((element, rank)) = element_and_rank(ctx, ir.value_type(ir.operand(op, 1))) else {
        return Ok(());
    };
    if element != value {
        return Err(v.op_error(
            op,
            "failed to verify that value type matches element type of memref",
        ));
    }
    if rank != ir.num_operands(op) - 2 {
        return Err(v.op_error(
            op,
            "expects the number of subscripts to be equal to memref rank",
        ));
    }
    let kind = inherent_attr(ctx, ir, op, "kind").and_then(|a| match ctx.attr_kind(a) {
        AttrKind::Integer { value, .. } => usize::try_from(value).ok(),
        _ => None,
    });
    let Some(name) = kind.and_then(|k| ATOMIC_KINDS.get(k)) else {
        return Ok(());
    };
    let is_float = ctx.float_kind(value).is_some();
    let is_int = matches!(ctx.type_kind(value), TypeKind::Integer { .. });
    match *name {
        "addf" | "maximumf" | "minimumf" | "mulf" if !is_float => Err(v.op_error(
            op,
            format!("with kind '{name}' expects a floating-point type"),
        )),
        "addi" | "maxs" | "maxu" | "mins" | "minu" | "muli" | "ori" | "xori" | "andi"
            if !is_int =>
        {
            Err(v.op_error(op, format!("with kind '{name}' expects an integer type")))
        }
        _ => Ok(()),
    }
}

/// `%memref[%i, ...] : memref-type { ^bb0(%current: T): ... } attr-dict`
fn parse_generic_atomic_rmw(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let memref = p.parse_operand()?;
    let mut indices = Vec::new();
    p.expect(Tok::LSquare, "'['")?;
    p.comma_list(Tok::RSquare, "']'", |p| {
        indices.push(p.parse_operand()?);
        Ok(())
    })?;
    p.expect(Tok::Colon, "':'")?;
    let ty = p.parse_type()?;
    let mut operands = vec![p.resolve_operand(memref, ty)?];
    operands.extend(p.resolve_indices(&indices)?);
    let region = p.ir().create_region();
    p.parse_region(region)?;
    let attrs = p.parse_optional_attr_dict()?;
    let Some((element, _)) = element_and_rank(p.ctx(), ty) else {
        let shown = type_to_string(p.ctx(), ty);
        return p.op_error(format!("expected a memref type, but got '{shown}'"));
    };
    let loc = p.op_loc();
    let name = p.ctx().sym("memref.generic_atomic_rmw");
    Ok(p.create_op(OpSpec {
        name,
        loc,
        operands: &operands,
        result_types: &[element],
        successors: &[],
        regions: &[region],
        attrs,
        props: None,
    }))
}

fn print_generic_atomic_rmw(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let ir = p.ir();
    let operands: Vec<_> = ir.operands(op).collect();
    let Some((&memref, indices)) = operands.split_first() else {
        return;
    };
    p.write(" ");
    p.operand(memref);
    p.write("[");
    p.operands(indices.iter().copied());
    p.write("] : ");
    p.ty(ir.value_type(memref));
    p.write(" ");
    if let Some(r) = ir.regions(op).next() {
        p.region(r, true, true);
    }
    p.attr_dict(ir.op_attrs(op), &[], false);
}

/// `memref.generic_atomic_rmw`: a result of the memref's element type,
/// one block argument of that type, a body free of memory effects.
fn verify_generic_atomic_rmw(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    v.check_counts(op, 1, 1, 1, true)?;
    let (ctx, ir) = (v.ctx(), v.ir());
    let result = ir.value_type(ir.result(op, 0));
    let Some((element, _)) = element_and_rank(ctx, ir.value_type(ir.operand(op, 0))) else {
        return Ok(());
    };
    let Some(region) = ir.regions(op).next() else {
        return Ok(());
    };
    let terminator = ir.entry_block(region).and_then(|b| ir.last_op(b));
    if let Some(t) = terminator {
        let name = ctx.str(ir.op_name(t));
        if name != "memref.atomic_yield" {
            let msg = format!("expects regions to end with 'memref.atomic_yield', found '{name}'");
            return Err(v.op_error(op, msg));
        }
    }
    if element != result {
        return Err(v.op_error(
            op,
            "failed to verify that result type matches element type of memref",
        ));
    }
    let args = ir
        .entry_block(region)
        .map(|b| ir.block_args(b))
        .unwrap_or(&[]);
    if args.len() != 1 {
        return Err(v.op_error(op, "expected single number of entry block arguments"));
    }
    if ir.value_type(args[0]) != result {
        return Err(v.op_error(op, "expected block argument of the same type result type"));
    }
    let mut nested = Vec::new();
    for b in ir.region_blocks(region) {
        for o in ir.block_ops(b) {
            ir.walk(o, &mut |x| nested.push(x));
        }
    }
    if let Some(&bad) = nested.iter().find(|&&o| !is_memory_effect_free(ctx, ir, o)) {
        return Err(v.error(
            bad,
            "body of 'memref.generic_atomic_rmw' should contain only operations with no side effects",
        ));
    }
    Ok(())
}

/// `memref.atomic_yield` yields its parent's result type.
fn verify_atomic_yield(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let Some(parent) = ir.parent_op(op).filter(|&p| ir.num_results(p) > 0) else {
        return Ok(());
    };
    let expected = ir.value_type(ir.result(parent, 0));
    let given = ir.value_type(ir.operand(op, 0));
    if expected != given {
        let msg = format!(
            "types mismatch between yield op: '{}' and its parent: '{}'",
            type_to_string(ctx, given),
            type_to_string(ctx, expected)
        );
        return Err(v.op_error(op, msg));
    }
    Ok(())
}

/// `memref.atomic_rmw`.
pub const ATOMIC_RMW: OpDef = OpDef {
    parse: Some(parse_op),
    print: Some(print_op),
    signature: Some(&ATOMIC_RMW_SIG),
    verify: Some(verify_atomic_rmw),
    effects: Effects::Write,
    fold: Some(crate::memref::fold::fold_cast_writers),
    ..OpDef::new("memref.atomic_rmw")
};

/// `memref.generic_atomic_rmw`.
pub const GENERIC_ATOMIC_RMW: OpDef = OpDef {
    parse: Some(parse_generic_atomic_rmw),
    print: Some(print_generic_atomic_rmw),
    verify: Some(verify_generic_atomic_rmw),
    traits: Traits::SINGLE_BLOCK,
    effects: Effects::Write,
    ..OpDef::new("memref.generic_atomic_rmw")
};

/// `memref.atomic_yield`.
pub const ATOMIC_YIELD: OpDef = OpDef {
    parse: Some(parse_op),
    print: Some(print_op),
    signature: Some(&ATOMIC_YIELD_SIG),
    verify: Some(verify_atomic_yield),
    traits: Traits::TERMINATOR.with(Traits::RETURN_LIKE),
    parents: &["memref.generic_atomic_rmw"],
    effects: Effects::None,
    ..OpDef::new("memref.atomic_yield")
};
