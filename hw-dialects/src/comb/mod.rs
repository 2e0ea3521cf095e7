//! The `comb` dialect: combinational operators on bit vectors of any
//! width, in CIRCT's syntax (`comb.add bin %a, %b : i8`,
//! `comb.icmp ult %a, %b : i8`, `comb.extract %a from 2 : (i8) -> i4`).
//! The `bin` keyword is the `twoState` unit property.
//!
//! The folds of its ops are in [`fold`].

pub mod fold;

use crate::types::{bit_width, is_int};
use silica_ir::dialect::{inherent_attr, DialectDef, Effects, OpDef, Traits};
use silica_ir::format::{
    parse_op, print_op, Arity, AttrParam, AttrSyntax, Signature, TypeConstraint, ValueParam,
};
use silica_ir::lexer::Tok;
use silica_ir::parser::{AsmParser, PResult};
use silica_ir::verify::OpVerifier;
use silica_ir::{AttrKind, Context, Ir, OpId, OpSpec, Type};

/// `comb.icmp` predicates in value order.
pub const PREDICATES: &[&str] = &[
    "eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge", "ceq", "cne", "weq", "wne",
];

const INT: TypeConstraint = TypeConstraint {
    desc: "a signless integer bitvector",
    check: is_int,
    build: None,
};

const I1: TypeConstraint = TypeConstraint {
    desc: "1-bit signless integer",
    check: |ctx, t| ctx.int_width(t) == Some(1),
    build: Some(|ctx| ctx.signless(1)),
};

const fn one(name: &'static str, constraint: TypeConstraint) -> ValueParam {
    ValueParam {
        name,
        arity: Arity::One,
        constraint,
    }
}

const fn many(name: &'static str, constraint: TypeConstraint) -> ValueParam {
    ValueParam {
        name,
        arity: Arity::Variadic,
        constraint,
    }
}

const TWO_STATE: AttrParam = AttrParam {
    name: "twoState",
    syntax: AttrSyntax::Unit,
    optional: true,
    default: None,
};

static VARIADIC: Signature = Signature::new(
    &[many("inputs", INT)],
    &[one("result", INT)],
    &[TWO_STATE],
    "(`bin` $twoState^)? $inputs attr-dict `:` qualified(type($result))",
)
.same_types(&[&["inputs", "result"]]);

static BINARY: Signature = Signature::new(
    &[one("lhs", INT), one("rhs", INT)],
    &[one("result", INT)],
    &[TWO_STATE],
    "(`bin` $twoState^)? $lhs `,` $rhs attr-dict `:` qualified(type($result))",
)
.same_types(&[&["lhs", "rhs", "result"]]);

static ICMP: Signature = Signature::new(
    &[one("lhs", INT), one("rhs", INT)],
    &[one("result", I1)],
    &[
        AttrParam {
            name: "predicate",
            syntax: AttrSyntax::IntEnum(64, PREDICATES),
            optional: false,
            default: None,
        },
        TWO_STATE,
    ],
    "(`bin` $twoState^)? $predicate $lhs `,` $rhs attr-dict `:` qualified(type($lhs))",
)
.same_types(&[&["lhs", "rhs"]]);

static PARITY: Signature = Signature::new(
    &[one("input", INT)],
    &[one("result", I1)],
    &[TWO_STATE],
    "(`bin` $twoState^)? $input attr-dict `:` qualified(type($input))",
);

static EXTRACT: Signature = Signature::new(
    &[one("input", INT)],
    &[one("result", INT)],
    &[AttrParam {
        name: "lowBit",
        syntax: AttrSyntax::Int(32),
        optional: false,
        default: None,
    }],
    "$input `from` $lowBit attr-dict `:` functional-type($input, $result)",
);

static CONCAT: Signature = Signature::new(
    &[many("inputs", INT)],
    &[one("result", INT)],
    &[],
    "$inputs attr-dict `:` qualified(type($inputs))",
)
.infer(infer_concat);

static REPLICATE: Signature = Signature::new(
    &[one("input", INT)],
    &[one("result", INT)],
    &[],
    "$input attr-dict `:` functional-type($input, $result)",
);

static MUX: Signature = Signature::new(
    &[one("cond", I1), one("trueValue", ANY), one("falseValue", ANY)],
    &[one("result", ANY)],
    &[TWO_STATE],
    "(`bin` $twoState^)? $cond `,` $trueValue `,` $falseValue  attr-dict `:` qualified(type($result))",
)
.same_types(&[&["trueValue", "falseValue", "result"]]);

static REVERSE: Signature = Signature::new(
    &[one("input", INT)],
    &[one("result", INT)],
    &[],
    "$input attr-dict `:` type($input)",
)
.same_types(&[&["input", "result"]]);

static TRUTH_TABLE: Signature = Signature::new(
    &[many("inputs", I1)],
    &[one("result", I1)],
    &[AttrParam {
        name: "lookupTable",
        syntax: AttrSyntax::Plain,
        optional: false,
        default: None,
    }],
    "$inputs `->` $lookupTable attr-dict",
);

const ANY: TypeConstraint = TypeConstraint {
    desc: "any type",
    check: |_, _| true,
    build: None,
};

/// `comb.concat %a, %b attr-dict : t1, t2`, where both lists may be
/// empty, as CIRCT's own parser reads it.
fn parse_concat(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let loc = p.op_loc();
    let at = p.pos();
    let inputs = if p.peek(Tok::PercentId) {
        p.parse_operand_list()?
    } else {
        Vec::new()
    };
    let attrs = p.parse_optional_attr_dict()?;
    p.expect(Tok::Colon, "':'")?;
    let types = p.parse_optional_type_list()?;
    if inputs.len() != types.len() {
        let msg = format!(
            "number of operands and types do not match: got {} operands and {} types",
            inputs.len(),
            types.len()
        );
        return p.custom_error_at(at, msg);
    }
    let operands = inputs
        .into_iter()
        .zip(&types)
        .map(|(u, &t)| p.resolve_operand(u, t))
        .collect::<PResult<Vec<_>>>()?;
    let Some(result) = infer_concat(p.ctx(), &types, &[]) else {
        return p.op_error("failed to infer result types");
    };
    let name = p.ctx().sym("comb.concat");
    Ok(p.create_op(OpSpec {
        name,
        loc,
        operands: &operands,
        result_types: &result,
        successors: &[],
        regions: &[],
        attrs,
        props: None,
    }))
}

/// The concatenation's width is the sum of its inputs'.
fn infer_concat(
    ctx: &mut Context,
    inputs: &[Type],
    _: &[Option<silica_ir::Attr>],
) -> Option<Vec<Type>> {
    let mut total: u64 = 0;
    for &t in inputs {
        total = total.checked_add(bit_width(ctx, t)?)?;
    }
    let w = u32::try_from(total)
        .ok()
        .filter(|&w| w <= silica_ir::types::MAX_INT_WIDTH)?;
    Some(vec![ctx.signless(w)])
}

fn width(ctx: &Context, ir: &Ir, v: silica_ir::ValueId) -> u64 {
    bit_width(ctx, ir.value_type(v)).unwrap_or(0)
}

fn verify_extract(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let low = match inherent_attr(ctx, ir, op, "lowBit").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Integer { value, .. }) => u64::try_from(value).unwrap_or(u64::MAX),
        _ => 0,
    };
    let (Some(input), Some(result)) = (ir.operands(op).next(), ir.results(op).next()) else {
        return Ok(());
    };
    if low.saturating_add(width(ctx, ir, result)) > width(ctx, ir, input) {
        return Err(v.op_error(op, "from bit too large for input"));
    }
    Ok(())
}

/// The result's width is the inputs' total, reported as MLIR reports a
/// result type that disagrees with the inferred one.
fn verify_concat(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let Some(result) = ir.results(op).next() else {
        return Ok(());
    };
    let total: u64 = ir.operands(op).map(|x| width(ctx, ir, x)).sum();
    let given = width(ctx, ir, result);
    if total == given {
        return Ok(());
    }
    let given = silica_ir::printer::type_to_string(ctx, ir.value_type(result));
    let msg = format!(
        "inferred type(s) 'i{total}' are incompatible with return type(s) of operation '{given}'"
    );
    let mut first = v.op_error(op, msg);
    let then = silica_ir::Diagnostic::error(
        v.ir().op_loc(op),
        "'comb.concat' op failed to infer returned types",
    );
    first.notes.push(then);
    Err(first)
}

fn verify_replicate(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let (Some(input), Some(result)) = (ir.operands(op).next(), ir.results(op).next()) else {
        return Ok(());
    };
    let (i, r) = (width(ctx, ir, input), width(ctx, ir, result));
    if i == 0 || r % i != 0 {
        return Err(v.op_error(op, "replicate must produce integer multiple of operand"));
    }
    Ok(())
}

fn verify_variadic(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    if v.ir().operands(op).next().is_none() {
        return Err(v.op_error(op, "expected 1 or more operands, but found 0"));
    }
    Ok(())
}

fn verify_truth_table(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let n = ir.operands(op).count();
    let table = inherent_attr(ctx, ir, op, "lookupTable").map(|a| ctx.attr_kind(a));
    let Some(AttrKind::Array(entries)) = table else {
        return Err(v.op_error(op, "requires a lookup table of booleans"));
    };
    let all_bool = entries.iter().all(|&e| {
        matches!(ctx.attr_kind(e), AttrKind::Integer { ty, .. } if ctx.int_width(*ty) == Some(1))
    });
    if !all_bool {
        return Err(v.op_error(op, "requires a lookup table of booleans"));
    }
    if n >= 64 {
        return Err(v.op_error(
            op,
            "Truth tables support a maximum of 63 inputs on 64-bit platforms",
        ));
    }
    if entries.len() as u128 != 1u128 << n {
        return Err(v.op_error(op, "Expected lookup table of 2^n length"));
    }
    Ok(())
}

const fn op(name: &'static str, sig: &'static Signature) -> OpDef {
    OpDef {
        effects: Effects::None,
        fold: Some(crate::comb::fold::fold_comb),
        parse: Some(parse_op),
        print: Some(print_op),
        signature: Some(sig),
        ..OpDef::new(name)
    }
}

const fn variadic(name: &'static str, commutative: bool) -> OpDef {
    OpDef {
        traits: if commutative {
            Traits::COMMUTATIVE
        } else {
            Traits::NONE
        },
        verify: Some(verify_variadic),
        ..op(name, &VARIADIC)
    }
}

static OPS: &[OpDef] = &[
    variadic("comb.add", true),
    variadic("comb.mul", true),
    variadic("comb.and", true),
    variadic("comb.or", true),
    variadic("comb.xor", true),
    op("comb.sub", &BINARY),
    op("comb.divu", &BINARY),
    op("comb.divs", &BINARY),
    op("comb.modu", &BINARY),
    op("comb.mods", &BINARY),
    op("comb.shl", &BINARY),
    op("comb.shru", &BINARY),
    op("comb.shrs", &BINARY),
    op("comb.icmp", &ICMP),
    op("comb.parity", &PARITY),
    OpDef {
        verify: Some(verify_extract),
        ..op("comb.extract", &EXTRACT)
    },
    OpDef {
        parse: Some(parse_concat),
        verify: Some(verify_concat),
        ..op("comb.concat", &CONCAT)
    },
    OpDef {
        verify: Some(verify_replicate),
        ..op("comb.replicate", &REPLICATE)
    },
    op("comb.mux", &MUX),
    op("comb.reverse", &REVERSE),
    OpDef {
        verify: Some(verify_truth_table),
        ..op("comb.truth_table", &TRUTH_TABLE)
    },
];

/// The `comb` dialect.
pub static COMB: DialectDef = DialectDef {
    name: "comb",
    ops: OPS,
    attrs: None,
    types: None,
    materialize_constant: Some(crate::hw::fold::materialize_constant),
};
