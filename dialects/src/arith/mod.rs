//! The `arith` dialect: integer and float arithmetic, comparisons, casts
//! and constants, each op one declarative definition in MLIR's assembly
//! format.

mod attrs;
mod canonicalize;
mod cmpf_int;
mod fold;

pub use attrs::{flag_bits, flags_attr, CMPF_PREDICATES, CMPI_PREDICATES};
pub use fold::{fold_constant, materialize_constant, to_unsigned, wrap_signed};

use silica_ir::dialect::{AttrHooks, DialectDef, Effects, OpDef, Traits, VerifyFn};
use silica_ir::format::{
    parse_op, print_op, Arity, AttrDefault, AttrParam, AttrSyntax, Signature, TypeConstraint,
    ValueParam, ANY_TYPE,
};
use silica_ir::lexer::Tok;
use silica_ir::parser::{AsmParser, PResult};
use silica_ir::printer::AsmPrinter;
use silica_ir::verify::OpVerifier;
use silica_ir::{Attr, AttrKind, Context, Signedness, Type, TypeKind};

/// The element type of a vector or tensor, or the type itself.
fn element(ctx: &Context, t: Type) -> Type {
    match ctx.type_kind(t) {
        TypeKind::Vector { element, .. }
        | TypeKind::RankedTensor { element, .. }
        | TypeKind::UnrankedTensor { element } => *element,
        _ => t,
    }
}

fn is_signless_int(ctx: &Context, t: Type) -> bool {
    matches!(
        ctx.type_kind(t),
        TypeKind::Integer {
            signedness: Signedness::Signless,
            ..
        }
    )
}

fn is_memref_of(ctx: &Context, t: Type, f: fn(&Context, Type) -> bool) -> bool {
    match ctx.type_kind(t) {
        TypeKind::MemRef { element, .. } | TypeKind::UnrankedMemRef { element, .. } => {
            f(ctx, *element)
        }
        _ => false,
    }
}

pub(crate) const INT_LIKE: TypeConstraint = TypeConstraint {
    desc: "signless-integer-like",
    check: |ctx, t| {
        let e = element(ctx, t);
        is_signless_int(ctx, e) || matches!(ctx.type_kind(e), TypeKind::Index)
    },
    build: None,
};

const FIXED_INT_LIKE: TypeConstraint = TypeConstraint {
    desc: "signless-fixed-width-integer-like",
    check: |ctx, t| is_signless_int(ctx, element(ctx, t)),
    build: None,
};

pub(crate) const FLOAT_LIKE: TypeConstraint = TypeConstraint {
    desc: "floating-point-like",
    check: |ctx, t| ctx.float_kind(element(ctx, t)).is_some(),
    build: None,
};

pub(crate) const BOOL_LIKE: TypeConstraint = TypeConstraint {
    desc: "bool-like",
    check: |ctx, t| {
        ctx.int_width(element(ctx, t)) == Some(1) && is_signless_int(ctx, element(ctx, t))
    },
    build: None,
};

const INDEX_CASTABLE: TypeConstraint = TypeConstraint {
    desc: "signless-integer-like or memref of signless-integer",
    check: |ctx, t| (INT_LIKE.check)(ctx, t) || is_memref_of(ctx, t, is_signless_int),
    build: None,
};

const BITCASTABLE: TypeConstraint = TypeConstraint {
    desc: "signless-integer-or-float-like or memref of signless-integer or float",
    check: |ctx, t| {
        let scalar =
            |ctx: &Context, e: Type| is_signless_int(ctx, e) || ctx.float_kind(e).is_some();
        scalar(ctx, element(ctx, t)) || is_memref_of(ctx, t, scalar)
    },
    build: None,
};

pub(crate) const fn one(name: &'static str, constraint: TypeConstraint) -> ValueParam {
    ValueParam {
        name,
        arity: Arity::One,
        constraint,
    }
}

pub(crate) const fn flags(
    name: &'static str,
    mnemonic: &'static str,
    default: AttrDefault,
) -> AttrParam {
    AttrParam {
        name,
        syntax: AttrSyntax::Dialect("arith", mnemonic),
        optional: false,
        default: Some(default),
    }
}

fn is_zero_flags(ctx: &Context, a: Attr) -> bool {
    flag_bits(ctx, a) == Some(0)
}

const NO_OVERFLOW: AttrDefault = AttrDefault {
    make: |ctx| flags_attr(ctx, "overflow", 0),
    matches: is_zero_flags,
};

pub(crate) const NO_FASTMATH: AttrDefault = AttrDefault {
    make: |ctx| flags_attr(ctx, "fastmath", 0),
    matches: is_zero_flags,
};

const OVERFLOW: &[AttrParam] = &[flags("overflowFlags", "overflow", NO_OVERFLOW)];
const FASTMATH: &[AttrParam] = &[flags("fastmath", "fastmath", NO_FASTMATH)];
const EXACT: &[AttrParam] = &[AttrParam {
    name: "isExact",
    syntax: AttrSyntax::Unit,
    optional: true,
    default: None,
}];

const INT_BINARY: &[ValueParam] = &[one("lhs", INT_LIKE), one("rhs", INT_LIKE)];
const INT_RESULT: &[ValueParam] = &[one("result", INT_LIKE)];
const FLOAT_BINARY: &[ValueParam] = &[one("lhs", FLOAT_LIKE), one("rhs", FLOAT_LIKE)];
const FLOAT_RESULT: &[ValueParam] = &[one("result", FLOAT_LIKE)];
const SAME: &[&[&str]] = &[&["lhs", "rhs", "result"]];

const INT_OVERFLOW_FORMAT: &str =
    "$lhs `,` $rhs (`overflow` `` $overflowFlags^)? attr-dict `:` type($result)";
const INT_FORMAT: &str = "$lhs `,` $rhs attr-dict `:` type($result)";
const INT_EXACT_FORMAT: &str = "$lhs `,` $rhs (`exact` $isExact^)? attr-dict `:` type($result)";
const FLOAT_FORMAT: &str = "$lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($result)";
const CAST_FORMAT: &str = "$in attr-dict `:` type($in) `to` type($out)";

static INT_OVERFLOW_SIG: Signature =
    Signature::new(INT_BINARY, INT_RESULT, OVERFLOW, INT_OVERFLOW_FORMAT).same_types(SAME);
static INT_SIG: Signature =
    Signature::new(INT_BINARY, INT_RESULT, &[], INT_FORMAT).same_types(SAME);
static INT_EXACT_SIG: Signature =
    Signature::new(INT_BINARY, INT_RESULT, EXACT, INT_EXACT_FORMAT).same_types(SAME);
static FLOAT_SIG: Signature =
    Signature::new(FLOAT_BINARY, FLOAT_RESULT, FASTMATH, FLOAT_FORMAT).same_types(SAME);
static NEGF_SIG: Signature = Signature::new(
    &[one("operand", FLOAT_LIKE)],
    FLOAT_RESULT,
    FASTMATH,
    "$operand (`fastmath` `` $fastmath^)? attr-dict `:` type($result)",
)
.same_types(&[&["operand", "result"]]);

static INT_CAST_SIG: Signature = Signature::new(
    &[one("in", FIXED_INT_LIKE)],
    &[one("out", FIXED_INT_LIKE)],
    &[],
    CAST_FORMAT,
);
static TRUNCI_SIG: Signature = Signature::new(
    &[one("in", FIXED_INT_LIKE)],
    &[one("out", FIXED_INT_LIKE)],
    OVERFLOW,
    "$in (`overflow` `` $overflowFlags^)? attr-dict `:` type($in) `to` type($out)",
);
static FLOAT_CAST_SIG: Signature = Signature::new(
    &[one("in", FLOAT_LIKE)],
    &[one("out", FLOAT_LIKE)],
    &[OPTIONAL_FASTMATH],
    "$in (`fastmath` `` $fastmath^)? attr-dict `:` type($in) `to` type($out)",
);
/// `arith.truncf` rounding modes in value order.
const ROUNDING_MODES: &[&str] = &[
    "to_nearest_even",
    "downward",
    "upward",
    "toward_zero",
    "to_nearest_away",
];

static TRUNCF_SIG: Signature = Signature::new(
    &[one("in", FLOAT_LIKE)],
    &[one("out", FLOAT_LIKE)],
    &[
        AttrParam {
            name: "roundingmode",
            syntax: AttrSyntax::IntEnum(32, ROUNDING_MODES),
            optional: true,
            default: None,
        },
        OPTIONAL_FASTMATH,
    ],
    "$in ($roundingmode^)? (`fastmath` `` $fastmath^)? attr-dict `:` type($in) `to` type($out)",
);
static INT_TO_FLOAT_SIG: Signature = Signature::new(
    &[one("in", FIXED_INT_LIKE)],
    &[one("out", FLOAT_LIKE)],
    &[],
    CAST_FORMAT,
);
static FLOAT_TO_INT_SIG: Signature = Signature::new(
    &[one("in", FLOAT_LIKE)],
    &[one("out", FIXED_INT_LIKE)],
    &[],
    CAST_FORMAT,
);
static INDEX_CAST_SIG: Signature = Signature::new(
    &[one("in", INDEX_CASTABLE)],
    &[one("out", INDEX_CASTABLE)],
    &[],
    CAST_FORMAT,
);
static BITCAST_SIG: Signature = Signature::new(
    &[one("in", BITCASTABLE)],
    &[one("out", BITCASTABLE)],
    &[],
    CAST_FORMAT,
);

/// `i1`, or a vector/tensor of `i1` shaped like `t`.
fn bool_like(ctx: &mut Context, t: Type) -> Type {
    let i1 = ctx.signless(1);
    let kind = match ctx.type_kind(t).clone() {
        TypeKind::Vector {
            shape, scalable, ..
        } => TypeKind::Vector {
            shape,
            scalable,
            element: i1,
        },
        TypeKind::RankedTensor {
            shape, encoding, ..
        } => TypeKind::RankedTensor {
            shape,
            element: i1,
            encoding,
        },
        TypeKind::UnrankedTensor { .. } => TypeKind::UnrankedTensor { element: i1 },
        _ => return i1,
    };
    ctx.intern_type(kind)
}

pub(crate) fn infer_bool_like(
    ctx: &mut Context,
    operands: &[Type],
    _: &[Option<Attr>],
) -> Option<Vec<Type>> {
    let t = *operands.first()?;
    Some(vec![bool_like(ctx, t)])
}

static CMPI_SIG: Signature = Signature::new(
    INT_BINARY,
    &[one("result", BOOL_LIKE)],
    &[AttrParam {
        name: "predicate",
        syntax: AttrSyntax::IntEnum(64, CMPI_PREDICATES),
        optional: false,
        default: None,
    }],
    "$predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs)",
)
.same_types(&[&["lhs", "rhs"]])
.infer(infer_bool_like);

static CMPF_SIG: Signature = Signature::new(
    FLOAT_BINARY,
    &[one("result", BOOL_LIKE)],
    &[
        AttrParam {
            name: "predicate",
            syntax: AttrSyntax::IntEnum(64, CMPF_PREDICATES),
            optional: false,
            default: None,
        },
        flags("fastmath", "fastmath", NO_FASTMATH),
    ],
    "$predicate `,` $lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($lhs)",
)
.same_types(&[&["lhs", "rhs"]])
.infer(infer_bool_like);

/// The type of a typed attribute (`0 : i32`, `dense<...> : vector<4xi32>`).
fn typed_attr_type(ctx: &Context, a: Attr) -> Option<Type> {
    match ctx.attr_kind(a) {
        AttrKind::Integer { ty, .. } | AttrKind::Float { ty, .. } => Some(*ty),
        AttrKind::DenseElements { ty, .. }
        | AttrKind::DenseStrings { ty, .. }
        | AttrKind::DenseResource { ty, .. }
        | AttrKind::Sparse { ty, .. } => Some(*ty),
        AttrKind::String { ty, .. } => *ty,
        _ => None,
    }
}

static CONSTANT_SIG: Signature = Signature::new(
    &[],
    &[one("result", ANY_TYPE)],
    &[AttrParam {
        name: "value",
        syntax: AttrSyntax::Plain,
        optional: false,
        default: None,
    }],
    "attr-dict $value",
)
.infer(|ctx, _, attrs| Some(vec![typed_attr_type(ctx, (*attrs.first()?)?)?]));

/// `%c42_i32`, `%c1` (index), `%true`/`%false`, else `%cst`.
fn constant_name(ctx: &Context, ir: &silica_ir::Ir, op: silica_ir::OpId) -> Option<String> {
    let value = silica_ir::dialect::inherent_attr(ctx, ir, op, "value")?;
    let AttrKind::Integer { ty, value } = ctx.attr_kind(value) else {
        return Some("cst".into());
    };
    match ctx.type_kind(*ty) {
        TypeKind::Integer { width: 1, .. } => {
            Some(if *value != 0.into() { "true" } else { "false" }.into())
        }
        TypeKind::Integer { .. } => Some(format!(
            "c{value}_{}",
            silica_ir::printer::type_to_string(ctx, *ty)
        )),
        _ => Some(format!("c{value}")),
    }
}

/// A constant's value is a typed attribute of its result's type, and an
/// integer, float or elements attribute; integers are signless. Checked in
/// MLIR's order (the attribute constraint and type match first).
fn verify_constant(v: &mut OpVerifier<'_, '_>, op: silica_ir::OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let Some(result) = ir.results(op).next().map(|r| ir.value_type(r)) else {
        return Ok(());
    };
    let Some(value) = silica_ir::dialect::inherent_attr(ctx, ir, op, "value") else {
        return Ok(());
    };
    let same_type = match ctx.attr_kind(value) {
        // A string without a type has type `none`.
        AttrKind::String { ty: None, .. } => matches!(ctx.type_kind(result), TypeKind::None),
        _ => match typed_attr_type(ctx, value) {
            Some(t) => t == result,
            None => {
                let msg = "attribute 'value' failed to satisfy constraint: TypedAttr instance";
                return Err(v.op_error(op, msg));
            }
        },
    };
    if !same_type {
        return Err(v.op_error(
            op,
            "failed to verify that all of {value, result} have same type",
        ));
    }
    if let TypeKind::Integer { signedness, .. } = ctx.type_kind(result) {
        if *signedness != Signedness::Signless {
            return Err(v.op_error(op, "integer return type must be signless"));
        }
    }
    if matches!(ctx.attr_kind(value), AttrKind::String { .. }) {
        return Err(v.op_error(op, "value must be an integer, float, or elements attribute"));
    }
    Ok(())
}

/// The container of a type (scalar, vector, tensor) with its shape and
/// encoding, for shape comparisons.
fn container(ctx: &Context, t: Type) -> (u8, Vec<i64>, Vec<bool>, Option<Attr>) {
    match ctx.type_kind(t) {
        TypeKind::Vector {
            shape, scalable, ..
        } => (1, shape.to_vec(), scalable.to_vec(), None),
        TypeKind::RankedTensor {
            shape, encoding, ..
        } => (2, shape.to_vec(), Vec::new(), *encoding),
        TypeKind::UnrankedTensor { .. } => (3, Vec::new(), Vec::new(), None),
        TypeKind::MemRef { shape, .. } => (4, shape.to_vec(), Vec::new(), None),
        TypeKind::UnrankedMemRef { .. } => (5, Vec::new(), Vec::new(), None),
        _ => (0, Vec::new(), Vec::new(), None),
    }
}

/// The element type of any shaped type (memrefs too).
fn scalar(ctx: &Context, t: Type) -> Type {
    ctx.shaped(t).map_or(t, |(_, e)| e)
}

/// Bits of an integer or float element type.
fn width(ctx: &Context, t: Type) -> Option<u32> {
    ctx.int_width(t)
        .or_else(|| ctx.float_kind(t).map(|k| k.bit_width()))
}

/// How a cast's element types must relate.
#[derive(Clone, Copy)]
enum CastRule {
    Wider,
    Narrower,
    OneIndex,
    SameWidth,
    Any,
}

fn verify_cast(v: &mut OpVerifier<'_, '_>, op: silica_ir::OpId, rule: CastRule) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let (Some(a), Some(b)) = (ir.operands(op).next(), ir.results(op).next()) else {
        return Ok(());
    };
    let (ta, tb) = (ir.value_type(a), ir.value_type(b));
    let (ca, cb) = (container(ctx, ta), container(ctx, tb));
    if (ca.0, &ca.1, &ca.2) != (cb.0, &cb.1, &cb.2) {
        return Err(v.op_error(op, "requires the same shape for all operands and results"));
    }
    let (ea, eb) = (scalar(ctx, ta), scalar(ctx, tb));
    let is_index = |t| matches!(ctx.type_kind(t), TypeKind::Index);
    let ok = ca.3 == cb.3
        && match rule {
            CastRule::Wider => width(ctx, ea) < width(ctx, eb),
            CastRule::Narrower => width(ctx, ea) > width(ctx, eb),
            CastRule::OneIndex => is_index(ea) != is_index(eb),
            CastRule::SameWidth => width(ctx, ea).is_some() && width(ctx, ea) == width(ctx, eb),
            CastRule::Any => true,
        };
    if !ok {
        let show = |t| silica_ir::printer::type_to_string(ctx, t);
        let msg = format!(
            "operand type '{}' and result type '{}' are cast incompatible",
            show(ta),
            show(tb)
        );
        return Err(v.op_error(op, msg));
    }
    Ok(())
}

/// The result of a comparison is `i1` shaped like its operands.
fn verify_cmp(v: &mut OpVerifier<'_, '_>, op: silica_ir::OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let (Some(a), Some(r)) = (ir.operands(op).next(), ir.results(op).next()) else {
        return Ok(());
    };
    let (ta, tr) = (ir.value_type(a), ir.value_type(r));
    let (ca, cr) = (container(ctx, ta), container(ctx, tr));
    let i1 = ctx.int_width(element(ctx, tr)) == Some(1);
    if !i1 || (ca.0, &ca.1, &ca.2) != (cr.0, &cr.1, &cr.2) {
        return Err(v.op_error(
            op,
            "failed to verify that result type has i1 element type and same shape as operands",
        ));
    }
    Ok(())
}

static SELECT_SIG: Signature = Signature::new(
    &[
        one("condition", BOOL_LIKE),
        one("true_value", ANY_TYPE),
        one("false_value", ANY_TYPE),
    ],
    &[one("result", ANY_TYPE)],
    &[],
    "",
)
.same_types(&[&["true_value", "false_value", "result"]]);

/// `%c, %a, %b attr-dict : [cond-type,] type` (MLIR's `SelectOpType`
/// custom directive: the condition's type is left out when it is `i1`).
fn parse_select(p: &mut AsmParser<'_, '_>) -> PResult<silica_ir::OpId> {
    let c = p.parse_operand()?;
    p.expect(Tok::Comma, "','")?;
    let a = p.parse_operand()?;
    p.expect(Tok::Comma, "','")?;
    let b = p.parse_operand()?;
    let attrs = p.parse_optional_attr_dict()?;
    p.expect(Tok::Colon, "':'")?;
    let first = p.parse_type()?;
    let (cond_ty, ty) = if p.eat(Tok::Comma) {
        (first, p.parse_type()?)
    } else {
        (p.ctx().signless(1), first)
    };
    let operands = [
        p.resolve_operand(c, cond_ty)?,
        p.resolve_operand(a, ty)?,
        p.resolve_operand(b, ty)?,
    ];
    let loc = p.op_loc();
    let name = p.ctx().sym("arith.select");
    Ok(p.create_op(silica_ir::OpSpec {
        name,
        loc,
        operands: &operands,
        result_types: &[ty],
        successors: &[],
        regions: &[],
        attrs,
        props: None,
    }))
}

fn print_select(p: &mut AsmPrinter<'_, '_>, op: silica_ir::OpId) {
    let ir = p.ir();
    let operands: Vec<_> = ir.operands(op).collect();
    let cond_ty = operands.first().map(|v| ir.value_type(*v));
    let ty = ir.results(op).next().map(|v| ir.value_type(v));
    let attrs = ir.op_attrs(op);
    p.write(" ");
    p.operands(operands);
    p.attr_dict(attrs, &[], false);
    p.write(" : ");
    if let Some(c) =
        cond_ty.filter(|c| !matches!(p.ctx().type_kind(*c), TypeKind::Integer { width: 1, .. }))
    {
        p.ty(c);
        p.write(", ");
    }
    if let Some(t) = ty {
        p.ty(t);
    }
}

static ADDUI_EXTENDED_SIG: Signature = Signature::new(
    INT_BINARY,
    &[one("sum", INT_LIKE), one("overflow", BOOL_LIKE)],
    &[],
    "$lhs `,` $rhs attr-dict `:` type($sum) `,` type($overflow)",
)
.same_types(&[&["lhs", "rhs", "sum"]]);

static MUL_EXTENDED_SIG: Signature = Signature::new(
    INT_BINARY,
    &[one("low", INT_LIKE), one("high", INT_LIKE)],
    &[],
    "$lhs `,` $rhs attr-dict `:` type($lhs)",
)
.same_types(&[&["lhs", "rhs", "low", "high"]]);

const SCALING_OPERANDS: &[ValueParam] = &[one("in", FLOAT_LIKE), one("scale", FLOAT_LIKE)];

/// `fastmath` without a default (the scaling ops leave it out).
pub(crate) const OPTIONAL_FASTMATH: AttrParam = AttrParam {
    name: "fastmath",
    syntax: AttrSyntax::Dialect("arith", "fastmath"),
    optional: true,
    default: None,
};

static SCALING_EXTF_SIG: Signature = Signature::new(
    SCALING_OPERANDS,
    &[one("out", FLOAT_LIKE)],
    &[OPTIONAL_FASTMATH],
    "$in `,` $scale (`fastmath` `` $fastmath^)? attr-dict `:` type($in) `,` type($scale) `to` type($out)",
);

static SCALING_TRUNCF_SIG: Signature = Signature::new(
    SCALING_OPERANDS,
    &[one("out", FLOAT_LIKE)],
    &[
        AttrParam {
            name: "roundingmode",
            syntax: AttrSyntax::IntEnum(32, ROUNDING_MODES),
            optional: true,
            default: None,
        },
        OPTIONAL_FASTMATH,
    ],
    "$in `,` $scale ($roundingmode^)? (`fastmath` `` $fastmath^)? attr-dict `:` type($in) `,` type($scale) `to` type($out)",
);

/// An op of `sig` with the format's parser and printer.
const fn op(name: &'static str, sig: &'static Signature) -> OpDef {
    OpDef {
        effects: Effects::None,
        parse: Some(parse_op),
        print: Some(print_op),
        signature: Some(sig),
        ..OpDef::new(name)
    }
}

/// A cast op whose element types relate by `verify`'s rule.
const fn cast(name: &'static str, sig: &'static Signature, verify: VerifyFn) -> OpDef {
    OpDef {
        verify: Some(verify),
        ..op(name, sig)
    }
}

static OPS: &[OpDef] = &[
    OpDef {
        traits: Traits::COMMUTATIVE,
        patterns: canonicalize::ADDI,
        fold: Some(fold::fold_addi),
        ..op("arith.addi", &INT_OVERFLOW_SIG)
    },
    OpDef {
        patterns: canonicalize::SUBI,
        fold: Some(fold::fold_subi),
        ..op("arith.subi", &INT_OVERFLOW_SIG)
    },
    OpDef {
        traits: Traits::COMMUTATIVE,
        patterns: canonicalize::MULI,
        fold: Some(fold::fold_muli),
        ..op("arith.muli", &INT_OVERFLOW_SIG)
    },
    OpDef {
        fold: Some(fold::fold_shli),
        ..op("arith.shli", &INT_OVERFLOW_SIG)
    },
    OpDef {
        traits: Traits::COMMUTATIVE,
        patterns: canonicalize::ANDI_ORI,
        fold: Some(fold::fold_andi),
        ..op("arith.andi", &INT_SIG)
    },
    OpDef {
        traits: Traits::COMMUTATIVE,
        patterns: canonicalize::ANDI_ORI,
        fold: Some(fold::fold_ori),
        ..op("arith.ori", &INT_SIG)
    },
    OpDef {
        traits: Traits::COMMUTATIVE,
        patterns: canonicalize::XORI,
        fold: Some(fold::fold_xori),
        ..op("arith.xori", &INT_SIG)
    },
    OpDef {
        fold: Some(fold::fold_ceildivsi),
        traits: Traits::DIVISION,
        ..op("arith.ceildivsi", &INT_SIG)
    },
    OpDef {
        fold: Some(fold::fold_ceildivui),
        traits: Traits::DIVISION,
        ..op("arith.ceildivui", &INT_SIG)
    },
    OpDef {
        fold: Some(fold::fold_floordivsi),
        traits: Traits::DIVISION,
        ..op("arith.floordivsi", &INT_SIG)
    },
    OpDef {
        fold: Some(fold::fold_remsi),
        traits: Traits::DIVISION,
        ..op("arith.remsi", &INT_SIG)
    },
    OpDef {
        fold: Some(fold::fold_remui),
        traits: Traits::DIVISION,
        ..op("arith.remui", &INT_SIG)
    },
    OpDef {
        traits: Traits::COMMUTATIVE,
        fold: Some(fold::fold_maxsi),
        ..op("arith.maxsi", &INT_SIG)
    },
    OpDef {
        traits: Traits::COMMUTATIVE,
        fold: Some(fold::fold_maxui),
        ..op("arith.maxui", &INT_SIG)
    },
    OpDef {
        traits: Traits::COMMUTATIVE,
        fold: Some(fold::fold_minsi),
        ..op("arith.minsi", &INT_SIG)
    },
    OpDef {
        traits: Traits::COMMUTATIVE,
        fold: Some(fold::fold_minui),
        ..op("arith.minui", &INT_SIG)
    },
    OpDef {
        fold: Some(fold::fold_divsi),
        traits: Traits::DIVISION,
        ..op("arith.divsi", &INT_EXACT_SIG)
    },
    OpDef {
        fold: Some(fold::fold_divui),
        traits: Traits::DIVISION,
        ..op("arith.divui", &INT_EXACT_SIG)
    },
    OpDef {
        fold: Some(fold::fold_shrsi),
        ..op("arith.shrsi", &INT_EXACT_SIG)
    },
    OpDef {
        fold: Some(fold::fold_shrui),
        ..op("arith.shrui", &INT_EXACT_SIG)
    },
    OpDef {
        traits: Traits::COMMUTATIVE,
        fold: Some(fold::fold_addf),
        ..op("arith.addf", &FLOAT_SIG)
    },
    OpDef {
        fold: Some(fold::fold_subf),
        ..op("arith.subf", &FLOAT_SIG)
    },
    OpDef {
        traits: Traits::COMMUTATIVE,
        fold: Some(fold::fold_mulf),
        patterns: canonicalize::MULF,
        ..op("arith.mulf", &FLOAT_SIG)
    },
    OpDef {
        fold: Some(fold::fold_divf),
        patterns: canonicalize::DIVF,
        ..op("arith.divf", &FLOAT_SIG)
    },
    OpDef {
        fold: Some(fold::fold_remf),
        ..op("arith.remf", &FLOAT_SIG)
    },
    OpDef {
        traits: Traits::COMMUTATIVE,
        fold: Some(fold::fold_maximumf),
        ..op("arith.maximumf", &FLOAT_SIG)
    },
    OpDef {
        traits: Traits::COMMUTATIVE,
        fold: Some(fold::fold_minimumf),
        ..op("arith.minimumf", &FLOAT_SIG)
    },
    OpDef {
        traits: Traits::COMMUTATIVE,
        fold: Some(fold::fold_maxnumf),
        ..op("arith.maxnumf", &FLOAT_SIG)
    },
    OpDef {
        traits: Traits::COMMUTATIVE,
        fold: Some(fold::fold_minnumf),
        ..op("arith.minnumf", &FLOAT_SIG)
    },
    OpDef {
        fold: Some(fold::fold_negf),
        ..op("arith.negf", &NEGF_SIG)
    },
    OpDef {
        patterns: canonicalize::EXTSI,
        fold: Some(fold::fold_extsi),
        ..cast("arith.extsi", &INT_CAST_SIG, |v, op| {
            verify_cast(v, op, CastRule::Wider)
        })
    },
    OpDef {
        fold: Some(fold::fold_extui),
        ..cast("arith.extui", &INT_CAST_SIG, |v, op| {
            verify_cast(v, op, CastRule::Wider)
        })
    },
    OpDef {
        fold: Some(fold::fold_trunci),
        patterns: canonicalize::TRUNCI,
        ..cast("arith.trunci", &TRUNCI_SIG, |v, op| {
            verify_cast(v, op, CastRule::Narrower)
        })
    },
    cast("arith.extf", &FLOAT_CAST_SIG, |v, op| {
        verify_cast(v, op, CastRule::Wider)
    }),
    cast("arith.truncf", &TRUNCF_SIG, |v, op| {
        verify_cast(v, op, CastRule::Narrower)
    }),
    cast("arith.sitofp", &INT_TO_FLOAT_SIG, |v, op| {
        verify_cast(v, op, CastRule::Any)
    }),
    cast("arith.uitofp", &INT_TO_FLOAT_SIG, |v, op| {
        verify_cast(v, op, CastRule::Any)
    }),
    cast("arith.fptosi", &FLOAT_TO_INT_SIG, |v, op| {
        verify_cast(v, op, CastRule::Any)
    }),
    cast("arith.fptoui", &FLOAT_TO_INT_SIG, |v, op| {
        verify_cast(v, op, CastRule::Any)
    }),
    OpDef {
        fold: Some(fold::fold_index_cast),
        ..cast("arith.index_cast", &INDEX_CAST_SIG, |v, op| {
            verify_cast(v, op, CastRule::OneIndex)
        })
    },
    OpDef {
        fold: Some(fold::fold_index_castui),
        ..cast("arith.index_castui", &INDEX_CAST_SIG, |v, op| {
            verify_cast(v, op, CastRule::OneIndex)
        })
    },
    OpDef {
        fold: Some(fold::fold_bitcast),
        ..cast("arith.bitcast", &BITCAST_SIG, |v, op| {
            verify_cast(v, op, CastRule::SameWidth)
        })
    },
    OpDef {
        traits: Traits::COMMUTATIVE,
        ..op("arith.addui_extended", &ADDUI_EXTENDED_SIG)
    },
    OpDef {
        traits: Traits::COMMUTATIVE,
        ..op("arith.mulsi_extended", &MUL_EXTENDED_SIG)
    },
    OpDef {
        traits: Traits::COMMUTATIVE,
        ..op("arith.mului_extended", &MUL_EXTENDED_SIG)
    },
    op("arith.scaling_extf", &SCALING_EXTF_SIG),
    op("arith.scaling_truncf", &SCALING_TRUNCF_SIG),
    OpDef {
        patterns: canonicalize::CMPI,
        fold: Some(fold::fold_cmpi),
        ..cast("arith.cmpi", &CMPI_SIG, verify_cmp)
    },
    OpDef {
        patterns: cmpf_int::CMPF,
        fold: Some(fold::fold_cmpf),
        ..cast("arith.cmpf", &CMPF_SIG, verify_cmp)
    },
    OpDef {
        parse: Some(parse_select),
        print: Some(print_select),
        signature: Some(&SELECT_SIG),
        patterns: canonicalize::SELECT,
        fold: Some(fold::fold_select),
        effects: Effects::None,
        ..OpDef::new("arith.select")
    },
    OpDef {
        result_names: Some(constant_name),
        verify: Some(verify_constant),
        traits: Traits::CONSTANT_LIKE,
        fold: Some(fold::fold_constant),
        ..op("arith.constant", &CONSTANT_SIG)
    },
];

/// The `arith` dialect.
pub static ARITH: DialectDef = DialectDef {
    name: "arith",
    ops: OPS,
    attrs: Some(AttrHooks {
        parse: attrs::parse,
        print: attrs::print,
        type_of: None,
        alias: None,
    }),
    types: None,
    materialize_constant: Some(fold::materialize_constant),
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_is_well_formed() {
        for op in ARITH.ops {
            let sig = op.signature.expect("arith ops are declarative");
            if sig.format.is_empty() {
                continue;
            }
            if let Err(e) = sig.parsed_format() {
                panic!("{}: {e}", op.name);
            }
        }
    }
}
