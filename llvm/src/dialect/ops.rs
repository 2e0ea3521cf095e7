//! The llvm dialect's ops that have declarative formats: arithmetic,
//! comparisons, casts, memory access, constants, branches, aggregates,
//! vectors and the intrinsics the conversions produce. `func_ops.rs` has
//! the ones MLIR parses by hand.

use crate::dialect::attrs::{self, FCMP_PREDICATES, ICMP_PREDICATES};
use silica_ir::dialect::{Effects, OpDef, Traits};
use silica_ir::format::{
    parse_op, print_op, Arity, AttrConstraint, AttrDefault, AttrParam, AttrSyntax,
    CustomAttrSyntax, Signature, TypeConstraint, ValueParam, ANY_TYPE,
};
use silica_ir::lexer::Tok;
use silica_ir::{Context, Type};

const I1: TypeConstraint = TypeConstraint {
    desc: "1-bit signless integer",
    check: |ctx, t| ctx.int_width(t) == Some(1),
    build: Some(|ctx| ctx.signless(1)),
};

const PTR: TypeConstraint = TypeConstraint {
    desc: "LLVM pointer type",
    check: crate::dialect::types::is_ptr,
    build: None,
};

/// `!llvm.ptr` (address space 0), which formats need not spell.
const PTR0: TypeConstraint = TypeConstraint {
    desc: "LLVM pointer in address space 0",
    check: |ctx, t| crate::dialect::types::is_ptr(ctx, t),
    build: Some(|ctx| crate::dialect::types::ptr(ctx, 0)),
};

const fn one(name: &'static str) -> ValueParam {
    ValueParam {
        name,
        arity: Arity::One,
        constraint: ANY_TYPE,
    }
}

const fn typed(name: &'static str, constraint: TypeConstraint) -> ValueParam {
    ValueParam {
        name,
        arity: Arity::One,
        constraint,
    }
}

const fn variadic(name: &'static str) -> ValueParam {
    ValueParam {
        name,
        arity: Arity::Variadic,
        constraint: ANY_TYPE,
    }
}

const fn optional(name: &'static str) -> ValueParam {
    ValueParam {
        name,
        arity: Arity::Optional,
        constraint: ANY_TYPE,
    }
}

const fn unit(name: &'static str) -> AttrParam {
    AttrParam {
        name,
        syntax: AttrSyntax::Unit,
        optional: true,
        default: None,
    }
}

const fn string(name: &'static str) -> AttrParam {
    AttrParam {
        name,
        syntax: AttrSyntax::Str,
        optional: false,
        default: None,
    }
}

const fn plain(name: &'static str, optional: bool) -> AttrParam {
    AttrParam {
        name,
        syntax: AttrSyntax::Plain,
        optional,
        default: None,
    }
}

fn is_zero(ctx: &Context, a: silica_ir::Attr) -> bool {
    attrs::bits_of(ctx, a) == 0
}

const ZERO_I32: AttrDefault = AttrDefault {
    make: |ctx| {
        let t = ctx.signless(32);
        ctx.int_attr(t, 0)
    },
    matches: is_zero,
};

const ZERO_I64: AttrDefault = AttrDefault {
    make: |ctx| {
        let t = ctx.signless(64);
        ctx.int_attr(t, 0)
    },
    matches: is_zero,
};

const NO_FASTMATH: AttrDefault = AttrDefault {
    make: |ctx| attrs::fastmath(ctx, 0),
    matches: is_zero,
};

const OVERFLOW: AttrParam = AttrParam {
    name: "overflowFlags",
    syntax: AttrSyntax::Custom(&attrs::OVERFLOW),
    optional: false,
    default: Some(ZERO_I32),
};

const FASTMATH: AttrParam = AttrParam {
    name: "fastmathFlags",
    syntax: AttrSyntax::Dialect("llvm", "fastmath"),
    optional: false,
    default: Some(NO_FASTMATH),
};

/// A comparison predicate written as a string (`"slt"`) over an `i64`
/// property.
macro_rules! predicate_syntax {
    ($name:ident, $table:expr) => {
        static $name: CustomAttrSyntax = CustomAttrSyntax {
            starts: |p| !p.peek(Tok::PercentId),
            parse: |p| {
                let at = p.pos();
                if !p.peek(Tok::String) {
                    return p.error_at(at, "invalid kind of attribute specified");
                }
                let s = p.parse_string()?;
                let Some(i) = $table.iter().position(|n| n.as_bytes() == s.as_slice()) else {
                    return p.error_at(
                        at,
                        format!(
                            "'{}' is an incorrect value of the 'predicate' attribute",
                            String::from_utf8_lossy(&s)
                        ),
                    );
                };
                let ctx = p.ctx();
                let t = ctx.signless(64);
                Ok(ctx.int_attr(t, i as i64))
            },
            print: |ctx, a, out| {
                let i = attrs::bits_of(ctx, a) as usize;
                out.push('"');
                out.push_str($table.get(i).copied().unwrap_or("?"));
                out.push('"');
            },
        };
    };
}

predicate_syntax!(ICMP_PRED, ICMP_PREDICATES);
predicate_syntax!(FCMP_PRED, FCMP_PREDICATES);

/// `i1` results, or vectors of `i1` for vector comparisons.
fn infer_i1(
    ctx: &mut Context,
    operands: &[Type],
    _: &[Option<silica_ir::Attr>],
) -> Option<Vec<Type>> {
    let i1 = ctx.signless(1);
    let t = operands.first()?;
    Some(vec![match ctx.type_kind(*t).clone() {
        silica_ir::TypeKind::Vector {
            shape, scalable, ..
        } => ctx.intern_type(silica_ir::TypeKind::Vector {
            shape,
            scalable,
            element: i1,
        }),
        _ => i1,
    }])
}

const LHS_RHS: &[ValueParam] = &[one("lhs"), one("rhs")];
const RES: &[ValueParam] = &[one("res")];
const SAME: &[&[&str]] = &[&["lhs", "rhs", "res"]];

static INT_BINARY: Signature =
    Signature::new(LHS_RHS, RES, &[], "$lhs `,` $rhs attr-dict `:` type($res)").same_types(SAME);

static INT_BINARY_OVERFLOW: Signature = Signature::new(
    LHS_RHS,
    RES,
    &[OVERFLOW],
    "$lhs `,` $rhs ($overflowFlags^)? attr-dict `:` type($res)",
)
.same_types(SAME);

static INT_BINARY_EXACT: Signature = Signature::new(
    LHS_RHS,
    RES,
    &[unit("isExact")],
    "(`exact` $isExact^)? $lhs `,` $rhs attr-dict `:` type($res)",
)
.same_types(SAME);

static OR: Signature = Signature::new(
    LHS_RHS,
    RES,
    &[unit("isDisjoint")],
    "(`disjoint` $isDisjoint^)? $lhs `,` $rhs attr-dict `:` type($res)",
)
.same_types(SAME);

static FLOAT_BINARY: Signature = Signature::new(
    LHS_RHS,
    RES,
    &[FASTMATH],
    "$lhs `,` $rhs attr-dict `:` type($res)",
)
.same_types(SAME);

static FNEG: Signature = Signature::new(
    &[one("operand")],
    RES,
    &[FASTMATH],
    "$operand attr-dict `:` type($res)",
)
.same_types(&[&["operand", "res"]]);

static ICMP: Signature = Signature::new(
    LHS_RHS,
    RES,
    &[AttrParam {
        name: "predicate",
        syntax: AttrSyntax::Custom(&ICMP_PRED),
        optional: false,
        default: None,
    }],
    "$predicate $lhs `,` $rhs attr-dict `:` type($lhs)",
)
.same_types(&[&["lhs", "rhs"]])
.infer(infer_i1);

static FCMP: Signature = Signature::new(
    LHS_RHS,
    RES,
    &[
        AttrParam {
            name: "predicate",
            syntax: AttrSyntax::Custom(&FCMP_PRED),
            optional: false,
            default: None,
        },
        FASTMATH,
    ],
    "$predicate $lhs `,` $rhs attr-dict `:` type($lhs)",
)
.same_types(&[&["lhs", "rhs"]])
.infer(infer_i1);

static CAST: Signature = Signature::new(
    &[one("arg")],
    RES,
    &[],
    "$arg attr-dict `:` type($arg) `to` type($res)",
);

static CAST_NNEG: Signature = Signature::new(
    &[one("arg")],
    RES,
    &[unit("nonNeg")],
    "(`nneg` $nonNeg^)? $arg attr-dict `:` type($arg) `to` type($res)",
);

static TRUNC: Signature = Signature::new(
    &[one("arg")],
    RES,
    &[OVERFLOW],
    "$arg ($overflowFlags^)? attr-dict `:` type($arg) `to` type($res)",
);

/// LLVM rounding modes in value order (`llvm::RoundingMode`).
pub(crate) const ROUNDING_MODES: &[&str] = &[
    "towardzero",
    "tonearest",
    "upward",
    "downward",
    "tonearestaway",
    "",
    "",
    "dynamic",
];

/// Floating-point exception behaviours in value order.
pub(crate) const FP_EXCEPTION_BEHAVIORS: &[&str] = &["ignore", "maytrap", "strict"];

/// `llvm.intr.experimental.constrained.fptrunc %x tonearest ignore : f64 to f32`
static CONSTRAINED_FPTRUNC: Signature = Signature::new(
    &[one("arg_0")],
    RES,
    &[
        AttrParam {
            name: "roundingmode",
            syntax: AttrSyntax::IntEnum(64, ROUNDING_MODES),
            optional: false,
            default: None,
        },
        AttrParam {
            name: "fpExceptionBehavior",
            syntax: AttrSyntax::IntEnum(64, FP_EXCEPTION_BEHAVIORS),
            optional: false,
            default: None,
        },
    ],
    "$arg_0 $roundingmode $fpExceptionBehavior attr-dict `:` type($arg_0) `to` type($res)",
);

static SELECT: Signature = Signature::new(
    &[
        typed("condition", ANY_TYPE),
        one("trueValue"),
        one("falseValue"),
    ],
    RES,
    &[FASTMATH],
    "operands attr-dict `:` type($condition) `,` type($res)",
)
.same_types(&[&["trueValue", "falseValue", "res"]]);

static FREEZE: Signature = Signature::new(&[one("val")], RES, &[], "$val attr-dict `:` type($val)")
    .same_types(&[&["val", "res"]]);

/// Atomic orderings in value order (3 is unused).
const ORDERINGS: &[&str] = &[
    "not_atomic",
    "unordered",
    "monotonic",
    "",
    "acquire",
    "release",
    "acq_rel",
    "seq_cst",
];

/// A load reads; a volatile one, or an atomic one ordered monotonic or
/// stricter, may also write (MLIR's `LoadOp::getEffects`).
fn load_effects(ctx: &silica_ir::Context, ir: &silica_ir::Ir, op: silica_ir::OpId) -> Effects {
    use silica_ir::dialect::inherent_attr;
    let volatile = inherent_attr(ctx, ir, op, "volatile_").is_some();
    let ordering = inherent_attr(ctx, ir, op, "ordering")
        .map_or(0, |a| crate::dialect::attrs::bits_of(ctx, a));
    if volatile || ordering > 1 {
        Effects::Write
    } else {
        Effects::Read
    }
}

/// `cmpxchg`: the result is `{value type, i1}`, the value type one an
/// atomic access can have; orderings both at least `monotonic`, on
/// failure neither `release` nor `acq_rel`.
fn verify_cmpxchg(
    v: &mut silica_ir::verify::OpVerifier<'_, '_>,
    op: silica_ir::OpId,
) -> silica_ir::parser::PResult<()> {
    use silica_ir::dialect::inherent_attr;
    let (ctx, ir) = (v.ctx(), v.ir());
    if let (Some(val), Some(res)) = (ir.operands(op).nth(2), ir.results(op).next()) {
        let val = ir.value_type(val);
        let pair = match crate::dialect::types::llvm_type(ctx, ir.value_type(res)) {
            Some(crate::dialect::types::LlvmType::Struct {
                name: None, body, ..
            }) => body.len() == 2 && body[0] == val && ctx.int_width(body[1]) == Some(1),
            _ => false,
        };
        if !pair {
            return Err(v.op_error(
                op,
                "failed to verify that result #0 has an LLVM struct type consisting of the type of operand #2 and a bool",
            ));
        }
        if !atomic_compatible(ctx, val) {
            return Err(v.op_error(op, "unexpected LLVM IR type"));
        }
    }
    let (ctx, ir) = (v.ctx(), v.ir());
    let ordering =
        |key: &str| inherent_attr(ctx, ir, op, key).map_or(0, |a| attrs::bits_of(ctx, a));
    let (success, failure) = (ordering("success_ordering"), ordering("failure_ordering"));
    if success < 2 || failure < 2 {
        return Err(v.op_error(op, "ordering must be at least 'monotonic'"));
    }
    if matches!(
        ORDERINGS.get(failure as usize),
        Some(&"release" | &"acq_rel")
    ) {
        return Err(v.op_error(op, "failure ordering cannot be 'release' or 'acq_rel'"));
    }
    Ok(())
}

/// Whether values of type `t` can be accessed atomically: integers,
/// floats and pointers of a power-of-two size of at least a byte (MLIR's
/// `isTypeCompatibleWithAtomicOp`).
fn atomic_compatible(ctx: &silica_ir::Context, t: silica_ir::Type) -> bool {
    let bits = match ctx.type_kind(t) {
        silica_ir::TypeKind::Integer { width, .. } => u64::from(*width),
        silica_ir::TypeKind::Float(f) => u64::from(f.bit_width()),
        _ if crate::dialect::types::is_ptr(ctx, t) => 64,
        _ => return false,
    };
    bits >= 8 && bits.is_power_of_two()
}

/// MLIR's checks of an atomic `load` or `store` accessing `value_type`:
/// a type that can be accessed atomically, an ordering the op allows and
/// an alignment; a non-atomic access has no synchronisation scope.
fn verify_atomic_access(
    v: &mut silica_ir::verify::OpVerifier<'_, '_>,
    op: silica_ir::OpId,
    value_type: silica_ir::Type,
    unsupported: &[&str],
) -> silica_ir::parser::PResult<()> {
    use silica_ir::dialect::inherent_attr;
    let (ctx, ir) = (v.ctx(), v.ir());
    let ordering = inherent_attr(ctx, ir, op, "ordering").map_or(0, |a| attrs::bits_of(ctx, a));
    if ordering == 0 {
        if inherent_attr(ctx, ir, op, "syncscope").is_some() {
            return Err(v.op_error(op, "expected syncscope to be null for non-atomic access"));
        }
        return Ok(());
    }
    if !atomic_compatible(ctx, value_type) {
        let t = silica_ir::printer::type_to_string(ctx, value_type);
        return Err(v.op_error(op, format!("unsupported type '{t}' for atomic access")));
    }
    let name = ORDERINGS.get(ordering as usize).copied().unwrap_or("");
    if unsupported.contains(&name) {
        return Err(v.op_error(op, format!("unsupported ordering '{name}'")));
    }
    if inherent_attr(ctx, ir, op, "alignment").is_none() {
        return Err(v.op_error(op, "expected alignment for atomic access"));
    }
    Ok(())
}

fn verify_load(
    v: &mut silica_ir::verify::OpVerifier<'_, '_>,
    op: silica_ir::OpId,
) -> silica_ir::parser::PResult<()> {
    let Some(res) = v.ir().results(op).next() else {
        return Ok(());
    };
    let t = v.ir().value_type(res);
    if crate::dialect::types::target_ext_in_memory(v.ctx(), t) == Some(false) {
        let shown = silica_ir::printer::type_to_string(v.ctx(), t);
        return Err(v.op_error(
            op,
            format!("result #0 must be LLVM type with size, but got '{shown}'"),
        ));
    }
    verify_atomic_access(v, op, t, &["release", "acq_rel"])
}

/// The element type of a vector, or the type itself.
fn scalar_of(ctx: &silica_ir::Context, t: silica_ir::Type) -> silica_ir::Type {
    match ctx.type_kind(t) {
        silica_ir::TypeKind::Vector { element, .. } => *element,
        _ => t,
    }
}

/// `sext`/`zext` widen their integers, vectors element-wise.
fn verify_extension(
    v: &mut silica_ir::verify::OpVerifier<'_, '_>,
    op: silica_ir::OpId,
) -> silica_ir::parser::PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let (Some(from), Some(to)) = (ir.operands(op).next(), ir.results(op).next()) else {
        return Ok(());
    };
    let (from, to) = (ir.value_type(from), ir.value_type(to));
    let shape = |t| match ctx.type_kind(t) {
        silica_ir::TypeKind::Vector {
            shape, scalable, ..
        } => Some((shape.clone(), scalable.clone())),
        _ => None,
    };
    let shape_error = match (shape(from), shape(to)) {
        (Some(a), Some(b)) if a != b => Some("input and output vectors are of incompatible shape"),
        (Some(_), None) => Some("input type is a vector but output type is an integer"),
        (None, Some(_)) => Some("input type is an integer but output type is a vector"),
        _ => None,
    };
    if let Some(msg) = shape_error {
        return Err(v.op_error(op, msg));
    }
    let width = |t| ctx.int_width(scalar_of(ctx, t));
    if let (Some(a), Some(b)) = (width(from), width(to)) {
        if b <= a {
            return Err(v.op_error(
                op,
                "integer width of the output type is smaller or equal to the integer width of the input type",
            ));
        }
    }
    Ok(())
}

/// MLIR's bitcast rules for pointers: both sides pointers or neither,
/// vectors of pointers only to vectors, one address space.
fn verify_bitcast(
    v: &mut silica_ir::verify::OpVerifier<'_, '_>,
    op: silica_ir::OpId,
) -> silica_ir::parser::PResult<()> {
    use crate::dialect::types::LlvmType;
    let (ctx, ir) = (v.ctx(), v.ir());
    let (Some(from), Some(to)) = (ir.operands(op).next(), ir.results(op).next()) else {
        return Ok(());
    };
    let (from, to) = (ir.value_type(from), ir.value_type(to));
    let space = |t| match crate::dialect::types::llvm_type(ctx, scalar_of(ctx, t)) {
        Some(LlvmType::Ptr(s)) => Some(s),
        _ => None,
    };
    let is_vector = |t| matches!(ctx.type_kind(t), silica_ir::TypeKind::Vector { .. });
    let msg = match (space(from), space(to)) {
        (None, None) => return Ok(()),
        (Some(_), None) | (None, Some(_)) => "can only cast pointers from and to pointers",
        (Some(_), Some(_)) if is_vector(to) && !is_vector(from) => {
            "cannot cast pointer to vector of pointers"
        }
        (Some(_), Some(_)) if !is_vector(to) && is_vector(from) => {
            "cannot cast vector of pointers to pointer"
        }
        (Some(a), Some(b)) if a != b => {
            "cannot cast pointers of different address spaces, use 'llvm.addrspacecast' instead"
        }
        _ => return Ok(()),
    };
    Err(v.op_error(op, msg))
}

/// `llvm.mlir.zero` of a target extension type needs one with a zero
/// value (MLIR: `spirv.*` types).
fn verify_zero(
    v: &mut silica_ir::verify::OpVerifier<'_, '_>,
    op: silica_ir::OpId,
) -> silica_ir::parser::PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let Some(r) = ir.results(op).next() else {
        return Ok(());
    };
    if let Some(crate::dialect::types::LlvmType::Target(name)) =
        crate::dialect::types::llvm_type(ctx, ir.value_type(r))
    {
        if !name.starts_with(b"spirv.") {
            return Err(v.op_error(
                op,
                "target extension type does not support zero-initializer",
            ));
        }
    }
    Ok(())
}

fn verify_store(
    v: &mut silica_ir::verify::OpVerifier<'_, '_>,
    op: silica_ir::OpId,
) -> silica_ir::parser::PResult<()> {
    let Some(value) = v.ir().operands(op).next() else {
        return Ok(());
    };
    let t = v.ir().value_type(value);
    verify_atomic_access(v, op, t, &["acquire", "acq_rel"])
}

/// A fence orders: acquire, release, acq_rel or seq_cst.
fn verify_fence(
    v: &mut silica_ir::verify::OpVerifier<'_, '_>,
    op: silica_ir::OpId,
) -> silica_ir::parser::PResult<()> {
    use silica_ir::dialect::inherent_attr;
    let (ctx, ir) = (v.ctx(), v.ir());
    let ordering = inherent_attr(ctx, ir, op, "ordering").map_or(0, |a| attrs::bits_of(ctx, a));
    if !(4..=7).contains(&ordering) {
        return Err(v.op_error(
            op,
            "can be given only acquire, release, acq_rel, and seq_cst orderings",
        ));
    }
    Ok(())
}

/// `atomicrmw`: floating-point operations take floats (or fixed vectors
/// of them), `xchg` a type that can be accessed atomically, the others
/// integers of 8, 16, 32 or 64 bits.
fn verify_atomicrmw(
    v: &mut silica_ir::verify::OpVerifier<'_, '_>,
    op: silica_ir::OpId,
) -> silica_ir::parser::PResult<()> {
    use silica_ir::dialect::inherent_attr;
    let (ctx, ir) = (v.ctx(), v.ir());
    let Some(val) = ir.operands(op).nth(1) else {
        return Ok(());
    };
    let t = ir.value_type(val);
    let bin_op = inherent_attr(ctx, ir, op, "bin_op").map_or(0, |a| attrs::bits_of(ctx, a));
    let name = ATOMIC_BIN_OPS.get(bin_op as usize).copied().unwrap_or("");
    let is_float = |t| matches!(ctx.type_kind(t), silica_ir::TypeKind::Float(_));
    let msg = if name.starts_with('f') {
        match ctx.type_kind(t) {
            silica_ir::TypeKind::Vector {
                element, scalable, ..
            } => {
                if scalable.iter().any(|&s| s) {
                    Some("expected LLVM IR fixed vector type")
                } else if !is_float(*element) {
                    Some("expected LLVM IR floating point type for vector element")
                } else {
                    None
                }
            }
            _ if !is_float(t) => Some("expected LLVM IR floating point type"),
            _ => None,
        }
    } else if name == "xchg" {
        (!atomic_compatible(ctx, t)).then_some("unexpected LLVM IR type for 'xchg' bin_op")
    } else {
        let ok = matches!(
            ctx.type_kind(t),
            silica_ir::TypeKind::Integer {
                width: 8 | 16 | 32 | 64,
                ..
            }
        );
        (!ok).then_some("expected LLVM IR integer type")
    };
    match msg {
        Some(m) => Err(v.op_error(op, m)),
        None => Ok(()),
    }
}

/// A return gives the enclosing `llvm.func` its result: nothing for a
/// void function, else one value of the result type.
fn verify_return(
    v: &mut silica_ir::verify::OpVerifier<'_, '_>,
    op: silica_ir::OpId,
) -> silica_ir::parser::PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let mut parent = ir.parent_op(op);
    while let Some(p) = parent.filter(|&p| ctx.str(ir.op_name(p)) != "llvm.func") {
        parent = ir.parent_op(p);
    }
    let Some(func) = parent else {
        return Ok(());
    };
    let Some((result, _, _)) = crate::dialect::func_ops::func_type(ctx, ir, func) else {
        return Ok(());
    };
    let arg = ir.operands(op).next();
    let msg = match arg {
        Some(_) if crate::dialect::types::is_void(ctx, result) => "expected no operands",
        None if !crate::dialect::types::is_void(ctx, result) => "expected 1 operand",
        Some(a) if ir.value_type(a) != result => "mismatching result types",
        _ => return Ok(()),
    };
    let at = ir.op_loc(func);
    Err(Box::new(
        v.op_error(op, msg)
            .with_note(at, "when returning from function"),
    ))
}

/// `atomicrmw` operations in value order (MLIR spells `and`/`or`/`xor`
/// with a leading underscore).
pub(crate) const ATOMIC_BIN_OPS: &[&str] = &[
    "xchg",
    "add",
    "sub",
    "_and",
    "nand",
    "_or",
    "_xor",
    "max",
    "min",
    "umax",
    "umin",
    "fadd",
    "fsub",
    "fmax",
    "fmin",
    "uinc_wrap",
    "udec_wrap",
    "usub_cond",
    "usub_sat",
    "fmaximum",
    "fminimum",
];

const fn ordering(name: &'static str, default: Option<AttrDefault>) -> AttrParam {
    AttrParam {
        name,
        syntax: AttrSyntax::IntEnum(64, ORDERINGS),
        optional: false,
        default,
    }
}

const ORDERING: AttrParam = ordering("ordering", Some(ZERO_I64));
const SYNCSCOPE: AttrParam = plain("syncscope", true);

/// Whether `a` is an array of llvm attributes with this mnemonic.
fn array_of(ctx: &silica_ir::Context, a: silica_ir::Attr, mnemonic: &str) -> bool {
    match ctx.attr_kind(a) {
        silica_ir::AttrKind::Array(xs) => xs.iter().all(|x| {
            matches!(ctx.attr_kind(*x), silica_ir::AttrKind::Dialect { name, .. }
                if ctx.str(*name) == mnemonic)
        }),
        _ => false,
    }
}

/// The alias-analysis and access-group metadata of memory accesses, as
/// inherent attributes checked as MLIR checks them.
const ACCESS_METADATA: [AttrParam; 4] = [
    plain("access_groups", true),
    plain("alias_scopes", true),
    plain("noalias_scopes", true),
    plain("tbaa", true),
];

const ACCESS_METADATA_CONSTRAINTS: &[(&str, AttrConstraint)] = &[
    (
        "access_groups",
        AttrConstraint {
            desc: "LLVM dialect access group metadata array",
            check: |ctx, a| array_of(ctx, a, "access_group"),
        },
    ),
    (
        "alias_scopes",
        AttrConstraint {
            desc: "LLVM dialect alias scope array",
            check: |ctx, a| array_of(ctx, a, "alias_scope"),
        },
    ),
    (
        "noalias_scopes",
        AttrConstraint {
            desc: "LLVM dialect alias scope array",
            check: |ctx, a| array_of(ctx, a, "alias_scope"),
        },
    ),
    (
        "tbaa",
        AttrConstraint {
            desc: "LLVM dialect TBAA tag metadata array",
            check: |ctx, a| array_of(ctx, a, "tbaa_tag"),
        },
    ),
];

static LOAD: Signature = Signature::new(
    &[typed("addr", PTR)],
    RES,
    &[
        unit("volatile_"),
        plain("alignment", true),
        unit("nontemporal"),
        unit("invariant"),
        ORDERING,
        SYNCSCOPE,
        ACCESS_METADATA[0],
        ACCESS_METADATA[1],
        ACCESS_METADATA[2],
        ACCESS_METADATA[3],
    ],
    "(`volatile` $volatile_^)? $addr (`atomic` (`syncscope` `(` $syncscope^ `)`)? $ordering^)? \
     (`invariant` $invariant^)? attr-dict `:` qualified(type($addr)) `->` type($res)",
)
.attr_constraints(ACCESS_METADATA_CONSTRAINTS);

static STORE: Signature = Signature::new(
    &[one("value"), typed("addr", PTR)],
    &[],
    &[
        unit("volatile_"),
        plain("alignment", true),
        unit("nontemporal"),
        ORDERING,
        SYNCSCOPE,
        ACCESS_METADATA[0],
        ACCESS_METADATA[1],
        ACCESS_METADATA[2],
        ACCESS_METADATA[3],
    ],
    "(`volatile` $volatile_^)? $value `,` $addr (`atomic` (`syncscope` `(` $syncscope^ `)`)? $ordering^)? \
     attr-dict `:` type($value) `,` qualified(type($addr))",
)
.attr_constraints(ACCESS_METADATA_CONSTRAINTS);

static CONSTANT: Signature = Signature::new(
    &[],
    RES,
    &[plain("value", false)],
    "`(` $value `)` attr-dict `:` type($res)",
);

/// A type with an LLVM equivalent.
const COMPATIBLE: TypeConstraint = TypeConstraint {
    desc: "LLVM dialect-compatible type",
    check: crate::dialect::types::is_compatible,
    build: None,
};

static NULLARY: Signature = Signature::new(
    &[],
    &[typed("res", COMPATIBLE)],
    &[],
    "attr-dict `:` type($res)",
);

static ADDRESSOF: Signature = Signature::new(
    &[],
    RES,
    &[plain("global_name", false)],
    "$global_name attr-dict `:` qualified(type($res))",
);

static DSO_LOCAL_EQUIVALENT: Signature = Signature::new(
    &[],
    RES,
    &[plain("function_name", false)],
    "$function_name attr-dict `:` qualified(type($res))",
);

/// `extractelement` yields, and `insertelement` takes, the vector's
/// element type.
fn verify_vector_element(
    v: &mut silica_ir::verify::OpVerifier<'_, '_>,
    op: silica_ir::OpId,
) -> silica_ir::parser::PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let extract = ctx.str(ir.op_name(op)) == "llvm.extractelement";
    let vector = ir.value_type(ir.operand(op, 0));
    let Some((_, element)) = ctx.shaped(vector) else {
        return Ok(());
    };
    let (actual, what) = if extract {
        (ir.value_type(ir.result(op, 0)), "result")
    } else {
        (ir.value_type(ir.operand(op, 1)), "argument")
    };
    if actual != element {
        return Err(v.op_error(
            op,
            format!("failed to verify that {what} type matches vector element type"),
        ));
    }
    Ok(())
}

/// `llvm.mlir.addressof` names a global, function, alias or ifunc, and a
/// global's or alias's address space is the pointer's.
fn verify_addressof(
    v: &mut silica_ir::verify::OpVerifier<'_, '_>,
    op: silica_ir::OpId,
) -> silica_ir::parser::PResult<()> {
    use silica_ir::dialect::inherent_attr;
    let (ctx, ir) = (v.ctx(), v.ir());
    let Some(sym) = inherent_attr(ctx, ir, op, "global_name") else {
        return Ok(());
    };
    if !matches!(ctx.attr_kind(sym), silica_ir::AttrKind::SymbolRef { .. }) {
        return Err(v.error(op, "invalid kind of attribute specified"));
    }
    let target = silica_ir::symbols::lookup_from(ctx, ir, op, sym);
    let kind = target.map(|t| ctx.str(ir.op_name(t)));
    let Some(target) = target.filter(|_| {
        matches!(
            kind,
            Some("llvm.mlir.global" | "llvm.func" | "llvm.mlir.alias" | "llvm.mlir.ifunc")
        )
    }) else {
        return Err(v.op_error(
            op,
            "must reference a global defined by 'llvm.mlir.global', 'llvm.mlir.alias' or 'llvm.func' or 'llvm.mlir.ifunc'",
        ));
    };
    let space_of = |key: &str| match inherent_attr(ctx, ir, target, key).map(|a| ctx.attr_kind(a)) {
        Some(silica_ir::AttrKind::Integer { value, .. }) => u32::try_from(value).unwrap_or(0),
        _ => 0,
    };
    let pointer = match crate::dialect::types::llvm_type(ctx, ir.value_type(ir.result(op, 0))) {
        Some(crate::dialect::types::LlvmType::Ptr(space)) => space,
        _ => 0,
    };
    if matches!(kind, Some("llvm.mlir.global" | "llvm.mlir.alias"))
        && space_of("addr_space") != pointer
    {
        return Err(v.op_error(
            op,
            "pointer address space must match address space of the referenced global",
        ));
    }
    Ok(())
}

/// The function a `dso_local_equivalent` names may not be `extern_weak`.
fn verify_dso_local_equivalent(
    v: &mut silica_ir::verify::OpVerifier<'_, '_>,
    op: silica_ir::OpId,
) -> silica_ir::parser::PResult<()> {
    use silica_ir::dialect::inherent_attr;
    let (ctx, ir) = (v.ctx(), v.ir());
    let Some(sym) = inherent_attr(ctx, ir, op, "function_name") else {
        return Ok(());
    };
    let Some(target) = silica_ir::symbols::lookup_from(ctx, ir, op, sym) else {
        return Err(v.op_error(
            op,
            "must reference a global defined by 'llvm.func' or 'llvm.mlir.alias'",
        ));
    };
    if ctx.str(ir.op_name(target)) == "llvm.func" {
        let linkage =
            inherent_attr(ctx, ir, target, "linkage").and_then(|a| attrs::keyword_of(ctx, a));
        if linkage == Some("extern_weak") {
            return Err(v.op_error(op, "target function with 'extern_weak' linkage not allowed"));
        }
    }
    Ok(())
}

static BR: Signature = Signature::new(
    &[variadic("destOperands")],
    &[],
    &[plain("loop_annotation", true)],
    "$dest (`(` $destOperands^ `:` type($destOperands) `)`)? attr-dict",
)
.successors(&["dest"]);

static COND_BR: Signature = Signature::new(
    &[
        typed("condition", I1),
        variadic("trueDestOperands"),
        variadic("falseDestOperands"),
    ],
    &[],
    &[
        AttrParam {
            name: "branch_weights",
            syntax: AttrSyntax::I32Array,
            optional: true,
            default: None,
        },
        plain("loop_annotation", true),
    ],
    "$condition (`weights` `(` $branch_weights^ `)` )? `,` \
     $trueDest (`(` $trueDestOperands^ `:` type($trueDestOperands) `)`)? `,` \
     $falseDest (`(` $falseDestOperands^ `:` type($falseDestOperands) `)`)? attr-dict",
)
.successors(&["trueDest", "falseDest"])
.segmented();

static RETURN: Signature = Signature::new(
    &[optional("arg")],
    &[],
    &[],
    "attr-dict ($arg^ `:` type($arg))?",
);

static UNREACHABLE: Signature = Signature::new(&[], &[], &[], "attr-dict");

static RESUME: Signature = Signature::new(
    &[one("value")],
    &[],
    &[],
    "$value attr-dict `:` type($value)",
);

static EXTRACTELEMENT: Signature = Signature::new(
    &[one("vector"), one("position")],
    RES,
    &[],
    "$vector `[` $position `:` type($position) `]` attr-dict `:` type($vector)",
)
.infer(|ctx, ops, _| ctx.shaped(*ops.first()?).map(|(_, e)| vec![e]));

static INSERTELEMENT: Signature = Signature::new(
    &[one("vector"), one("value"), one("position")],
    RES,
    &[],
    "$value `,` $vector `[` $position `:` type($position) `]` attr-dict `:` type($vector)",
)
.same_types(&[&["vector", "res"]])
.derived_types(&[silica_ir::format::DerivedType {
    target: "value",
    source: "vector",
    derive: |ctx, t| ctx.shaped(t).map(|(_, e)| e),
}]);

static ATOMICRMW: Signature = Signature::new(
    &[typed("ptr", PTR), one("val")],
    RES,
    &[
        AttrParam {
            name: "bin_op",
            syntax: AttrSyntax::IntEnum(64, ATOMIC_BIN_OPS),
            optional: false,
            default: None,
        },
        ordering("ordering", None),
        SYNCSCOPE,
        plain("alignment", true),
        unit("volatile_"),
        ACCESS_METADATA[0],
        ACCESS_METADATA[1],
        ACCESS_METADATA[2],
        ACCESS_METADATA[3],
    ],
    "(`volatile` $volatile_^)? $bin_op $ptr `,` $val (`syncscope` `(` $syncscope^ `)`)? $ordering \
     attr-dict `:` qualified(type($ptr)) `,` type($val)",
)
.attr_constraints(ACCESS_METADATA_CONSTRAINTS)
.same_types(&[&["val", "res"]])
.same_types_described(&["result #0 and operand #1 have the same type"]);

static CMPXCHG: Signature = Signature::new(
    &[typed("ptr", PTR), one("cmp"), one("val")],
    RES,
    &[
        ordering("success_ordering", None),
        ordering("failure_ordering", None),
        SYNCSCOPE,
        plain("alignment", true),
        unit("weak"),
        unit("volatile_"),
        ACCESS_METADATA[0],
        ACCESS_METADATA[1],
        ACCESS_METADATA[2],
        ACCESS_METADATA[3],
    ],
    "(`weak` $weak^)? (`volatile` $volatile_^)? $ptr `,` $cmp `,` $val \
     (`syncscope` `(` $syncscope^ `)`)? $success_ordering $failure_ordering \
     attr-dict `:` qualified(type($ptr)) `,` type($val)",
)
.same_types(&[&["cmp", "val"]])
.same_types_described(&["operand #1 and operand #2 have the same type"])
.attr_constraints(ACCESS_METADATA_CONSTRAINTS)
.infer(|ctx, ops, _| {
    let i1 = ctx.signless(1);
    Some(vec![crate::dialect::types::literal_struct(
        ctx,
        &[*ops.get(1)?, i1],
        false,
    )])
});

static FENCE: Signature = Signature::new(
    &[],
    &[],
    &[ordering("ordering", None), SYNCSCOPE],
    "(`syncscope` `(` $syncscope^ `)`)? $ordering attr-dict",
);

const NO_TAIL_CALL: AttrDefault = AttrDefault {
    make: |ctx| attrs::keyword_attr(ctx, "tailcallkind", "none"),
    matches: |ctx, a| attrs::keyword_of(ctx, a) == Some("none"),
};

static INLINE_ASM: Signature = Signature::new(
    &[variadic("operands")],
    &[optional("res")],
    &[
        unit("has_side_effects"),
        unit("is_align_stack"),
        AttrParam {
            name: "tail_call_kind",
            syntax: AttrSyntax::Dialect("llvm", "tailcallkind"),
            optional: false,
            default: Some(NO_TAIL_CALL),
        },
        AttrParam {
            name: "asm_dialect",
            syntax: AttrSyntax::IntEnum(64, &["att", "intel"]),
            optional: true,
            default: None,
        },
        plain("operand_attrs", true),
        string("asm_string"),
        string("constraints"),
    ],
    "(`has_side_effects` $has_side_effects^)? (`is_align_stack` $is_align_stack^)? \
     (`tail_call_kind` `=` $tail_call_kind^)? (`asm_dialect` `=` $asm_dialect^)? \
     (`operand_attrs` `=` $operand_attrs^)? attr-dict $asm_string `,` $constraints \
     operands `:` functional-type(operands, results)",
);

/// Inline assembly cannot be a `musttail` call (LLVM has none).
fn verify_inline_asm(
    v: &mut silica_ir::verify::OpVerifier<'_, '_>,
    op: silica_ir::OpId,
) -> silica_ir::parser::PResult<()> {
    let ctx = v.ctx();
    let kind = silica_ir::dialect::inherent_attr(ctx, v.ir(), op, "tail_call_kind")
        .and_then(|a| attrs::keyword_of(ctx, a));
    if kind == Some("musttail") {
        return Err(v.op_error(op, "tail call kind 'musttail' is not supported"));
    }
    Ok(())
}

/// Inline assembly writes memory when it has side effects.
fn inline_asm_effects(ctx: &Context, ir: &silica_ir::Ir, op: silica_ir::OpId) -> Effects {
    if silica_ir::dialect::inherent_attr(ctx, ir, op, "has_side_effects").is_some() {
        Effects::Write
    } else {
        Effects::None
    }
}

static SHUFFLEVECTOR: Signature = Signature::new(
    &[one("v1"), one("v2")],
    RES,
    &[AttrParam {
        name: "mask",
        syntax: AttrSyntax::I32Array,
        optional: false,
        default: None,
    }],
    "$v1 `,` $v2 $mask attr-dict `:` type($v1) ` `",
)
.same_types(&[&["v1", "v2"]])
.infer(|ctx, ops, attrs| {
    let n = match attrs.first().copied().flatten() {
        Some(a) => ctx.int_array_values(a)?.len() as i64,
        None => return None,
    };
    let element = ctx.shaped(*ops.first()?)?.1;
    Some(vec![ctx.intern_type(silica_ir::TypeKind::Vector {
        shape: Box::new([n]),
        scalable: Box::new([false]),
        element,
    })])
});

const NO_BUNDLES: AttrDefault = AttrDefault {
    make: |ctx| ctx.int_array_attr(32, &[]),
    matches: |ctx, a| ctx.int_array_values(a).is_some_and(|v| v.is_empty()),
};

/// `llvm.call_intrinsic "llvm.name"(args) attr-dict : (types) -> results`
/// (operand bundles are not supported yet); the custom syntax, with
/// argument and result attributes, is `func_ops::parse_call_intrinsic`.
static CALL_INTRINSIC: Signature = Signature::new(
    &[variadic("args"), variadic("op_bundle_operands")],
    &[ValueParam {
        name: "results",
        arity: Arity::Optional,
        constraint: ANY_TYPE,
    }],
    &[
        plain("intrin", false),
        FASTMATH,
        AttrParam {
            name: "op_bundle_sizes",
            syntax: AttrSyntax::I32Array,
            optional: false,
            default: Some(NO_BUNDLES),
        },
    ],
    "$intrin `(` $args `)` attr-dict `:` functional-type($args, results)",
)
.segmented();

/// `llvm.intr.lifetime.start %p : !llvm.ptr`
/// `llvm.intr.vastart %list : !llvm.ptr` (and `vaend`).
static VA_LIST: Signature = Signature::new(
    &[typed("arg_list", PTR)],
    &[],
    &[],
    "$arg_list attr-dict `:` qualified(type($arg_list))",
);

/// `llvm.intr.vacopy %src to %dest : !llvm.ptr, !llvm.ptr`
static VA_COPY: Signature = Signature::new(
    &[typed("dest_list", PTR), typed("src_list", PTR)],
    &[],
    &[],
    "$src_list `to` $dest_list attr-dict `:` type($dest_list) `,` type($src_list)",
);

/// `%v = llvm.va_arg %list : (!llvm.ptr) -> i32`
static VA_ARG: Signature = Signature::new(
    &[typed("arg", PTR)],
    RES,
    &[],
    "$arg attr-dict `:` functional-type($arg, $res)",
);

static LIFETIME: Signature = Signature::new(
    &[typed("ptr", PTR)],
    &[],
    &[],
    "$ptr attr-dict `:` qualified(type($ptr))",
);

const SIZE: AttrParam = AttrParam {
    name: "size",
    syntax: AttrSyntax::Int(64),
    optional: false,
    default: None,
};

/// `llvm.intr.invariant.start 1, %p : !llvm.ptr` (the result is an
/// `!llvm.ptr`).
static INVARIANT_START: Signature = Signature::new(
    &[typed("ptr", PTR)],
    &[typed("res", PTR0)],
    &[SIZE],
    "$size `,` $ptr attr-dict `:` qualified(type($ptr))",
);

/// `llvm.intr.invariant.end %start, 1, %p : !llvm.ptr`
static INVARIANT_END: Signature = Signature::new(
    &[typed("start", PTR0), typed("ptr", PTR)],
    &[],
    &[SIZE],
    "$start `,` $size `,` $ptr attr-dict `:` qualified(type($ptr))",
);

/// `llvm.intr.launder.invariant.group %p : !llvm.ptr` (and `strip`).
static INVARIANT_GROUP: Signature = Signature::new(
    &[typed("ptr", PTR)],
    RES,
    &[],
    "$ptr attr-dict `:` qualified(type($ptr))",
)
.infer(|_, ops, _| Some(vec![*ops.first()?]));

/// `llvm.mlir.global_ctors ctors = [@f], priorities = [0 : i32], data = [#llvm.zero]`
static GLOBAL_CTORS: Signature = Signature::new(
    &[],
    &[],
    &[
        plain("ctors", false),
        plain("priorities", false),
        plain("data", false),
    ],
    "`ctors` `=` $ctors `,` `priorities` `=` $priorities `,` `data` `=` $data attr-dict",
);

/// `llvm.mlir.global_dtors dtors = [@f], priorities = [0 : i32], data = [#llvm.zero]`
static GLOBAL_DTORS: Signature = Signature::new(
    &[],
    &[],
    &[
        plain("dtors", false),
        plain("priorities", false),
        plain("data", false),
    ],
    "`dtors` `=` $dtors `,` `priorities` `=` $priorities `,` `data` `=` $data attr-dict",
);

/// `llvm.intr.trap`
static NO_OPERANDS: Signature = Signature::new(&[], &[], &[], "attr-dict");

/// A debug intrinsic's variable (`#llvm.di_local_variable<...>`).
const DEBUG_VARIABLE: AttrParam = AttrParam {
    name: "varInfo",
    syntax: AttrSyntax::Plain,
    optional: false,
    default: None,
};

/// A debug intrinsic's expression, the empty `#llvm.di_expression<>`
/// when absent.
const DEBUG_EXPRESSION: AttrParam = AttrParam {
    name: "locationExpr",
    syntax: AttrSyntax::Plain,
    optional: false,
    default: Some(AttrDefault {
        make: |ctx| crate::dialect::attrs::dialect_attr(ctx, "di_expression", Vec::new()),
        matches: |ctx, a| {
            matches!(ctx.attr_kind(a), silica_ir::AttrKind::Dialect { name, params, .. }
                if ctx.str(*name) == "di_expression" && params.is_empty())
        },
    }),
};

/// `llvm.intr.dbg.declare #var #expr = %addr : !llvm.ptr`.
static DBG_DECLARE: Signature = Signature::new(
    &[typed("addr", PTR)],
    &[],
    &[DEBUG_VARIABLE, DEBUG_EXPRESSION],
    "qualified($varInfo) (qualified($locationExpr)^)? `=` $addr `:` qualified(type($addr)) attr-dict",
);

/// `llvm.intr.dbg.value #var #expr = %value : type`.
static DBG_VALUE: Signature = Signature::new(
    &[one("value")],
    &[],
    &[DEBUG_VARIABLE, DEBUG_EXPRESSION],
    "qualified($varInfo) (qualified($locationExpr)^)? `=` $value `:` qualified(type($value)) attr-dict",
);

/// `llvm.intr.dbg.label #label`.
static DBG_LABEL: Signature = Signature::new(
    &[],
    &[],
    &[AttrParam {
        name: "label",
        syntax: AttrSyntax::Plain,
        optional: false,
        default: None,
    }],
    "$label attr-dict",
);

/// `llvm.intr.stacksave : !llvm.ptr`
static STACKSAVE: Signature = Signature::new(&[], RES, &[], "attr-dict `:` qualified(type($res))");

/// `llvm.intr.stackrestore %ptr : !llvm.ptr`
static STACKRESTORE: Signature = Signature::new(
    &[typed("ptr", PTR)],
    &[],
    &[],
    "$ptr attr-dict `:` qualified(type($ptr))",
);

/// `llvm.intr.*`: `(operands) attr-dict : functional-type`.
static INTRINSIC: Signature = Signature::new(
    &[variadic("args")],
    &[ValueParam {
        name: "res",
        arity: Arity::Variadic,
        constraint: ANY_TYPE,
    }],
    &[FASTMATH],
    "`(` operands `)` attr-dict `:` functional-type(operands, results)",
);

/// `llvm.intr.*` without fast-math flags.
static INTRINSIC_PLAIN: Signature = Signature::new(
    &[variadic("args")],
    &[ValueParam {
        name: "res",
        arity: Arity::Variadic,
        constraint: ANY_TYPE,
    }],
    &[],
    "`(` operands `)` attr-dict `:` functional-type(operands, results)",
);

const fn op(name: &'static str, sig: &'static Signature, effects: Effects) -> OpDef {
    OpDef {
        effects,
        parse: Some(parse_op),
        print: Some(print_op),
        signature: Some(sig),
        ..OpDef::new(name)
    }
}

const fn pure(name: &'static str, sig: &'static Signature) -> OpDef {
    op(name, sig, Effects::None)
}

const fn commutative(name: &'static str, sig: &'static Signature) -> OpDef {
    OpDef {
        traits: Traits::COMMUTATIVE,
        ..pure(name, sig)
    }
}

const fn terminator(name: &'static str, sig: &'static Signature) -> OpDef {
    OpDef {
        traits: Traits::TERMINATOR,
        ..pure(name, sig)
    }
}

const fn branch(name: &'static str, sig: &'static Signature) -> OpDef {
    OpDef {
        branch: Some(&crate::dialect::func_ops::BRANCH),
        ..terminator(name, sig)
    }
}

/// The llvm dialect's ops.
pub(crate) static OPS: &[OpDef] = &[
    crate::dialect::func_ops::FUNC,
    crate::dialect::func_ops::GLOBAL,
    crate::dialect::alias::ALIAS,
    crate::dialect::ifunc::IFUNC,
    crate::dialect::comdat::COMDAT,
    crate::dialect::comdat::COMDAT_SELECTOR,
    crate::dialect::blockaddress::OPS[0],
    crate::dialect::blockaddress::OPS[1],
    crate::dialect::blockaddress::OPS[2],
    crate::dialect::module_flags::MODULE_FLAGS_OP,
    crate::dialect::call_ops::CALL,
    crate::dialect::func_ops::ALLOCA,
    crate::dialect::func_ops::GEP,
    crate::dialect::func_ops::EXTRACTVALUE,
    crate::dialect::func_ops::INSERTVALUE,
    crate::dialect::switch::SWITCH,
    crate::dialect::eh::INVOKE,
    crate::dialect::eh::LANDINGPAD,
    terminator("llvm.resume", &RESUME),
    commutative("llvm.add", &INT_BINARY_OVERFLOW),
    pure("llvm.sub", &INT_BINARY_OVERFLOW),
    commutative("llvm.mul", &INT_BINARY_OVERFLOW),
    pure("llvm.shl", &INT_BINARY_OVERFLOW),
    pure("llvm.sdiv", &INT_BINARY_EXACT),
    pure("llvm.udiv", &INT_BINARY_EXACT),
    pure("llvm.lshr", &INT_BINARY_EXACT),
    pure("llvm.ashr", &INT_BINARY_EXACT),
    pure("llvm.srem", &INT_BINARY),
    pure("llvm.urem", &INT_BINARY),
    commutative("llvm.and", &INT_BINARY),
    commutative("llvm.or", &OR),
    commutative("llvm.xor", &INT_BINARY),
    pure("llvm.fadd", &FLOAT_BINARY),
    pure("llvm.fsub", &FLOAT_BINARY),
    pure("llvm.fmul", &FLOAT_BINARY),
    pure("llvm.fdiv", &FLOAT_BINARY),
    pure("llvm.frem", &FLOAT_BINARY),
    pure("llvm.fneg", &FNEG),
    OpDef {
        fold: Some(crate::dialect::folds::fold_icmp),
        ..pure("llvm.icmp", &ICMP)
    },
    pure("llvm.fcmp", &FCMP),
    OpDef {
        verify: Some(verify_extension),
        ..pure("llvm.sext", &CAST)
    },
    OpDef {
        verify: Some(verify_extension),
        ..pure("llvm.zext", &CAST_NNEG)
    },
    pure("llvm.uitofp", &CAST_NNEG),
    pure("llvm.trunc", &TRUNC),
    pure("llvm.sitofp", &CAST),
    pure("llvm.fptosi", &CAST),
    pure("llvm.fptoui", &CAST),
    pure("llvm.fpext", &CAST),
    pure("llvm.fptrunc", &CAST),
    OpDef {
        fold: Some(crate::dialect::folds::fold_chainable_cast),
        verify: Some(verify_bitcast),
        ..pure("llvm.bitcast", &CAST)
    },
    OpDef {
        fold: Some(crate::dialect::folds::fold_chainable_cast),
        ..pure("llvm.addrspacecast", &CAST)
    },
    pure("llvm.ptrtoint", &CAST),
    pure("llvm.inttoptr", &CAST),
    pure("llvm.select", &SELECT),
    pure("llvm.freeze", &FREEZE),
    OpDef {
        verify: Some(verify_load),
        ..op("llvm.load", &LOAD, Effects::Dynamic(load_effects))
    },
    OpDef {
        verify: Some(verify_atomicrmw),
        ..op("llvm.atomicrmw", &ATOMICRMW, Effects::Write)
    },
    OpDef {
        verify: Some(verify_cmpxchg),
        ..op("llvm.cmpxchg", &CMPXCHG, Effects::Write)
    },
    OpDef {
        verify: Some(verify_fence),
        ..op("llvm.fence", &FENCE, Effects::Write)
    },
    OpDef {
        fold: Some(crate::dialect::folds::fold_shufflevector),
        ..pure("llvm.shufflevector", &SHUFFLEVECTOR)
    },
    OpDef {
        verify: Some(verify_store),
        ..op("llvm.store", &STORE, Effects::Write)
    },
    OpDef {
        traits: Traits::CONSTANT_LIKE,
        fold: Some(|fc, op, _| {
            match silica_ir::dialect::inherent_attr(fc.ctx, fc.ir, op, "value") {
                Some(a) => silica_ir::rewrite::FoldResult::attr(a),
                None => silica_ir::rewrite::FoldResult::Fail,
            }
        }),
        verify: Some(crate::dialect::constant_verify::verify_constant),
        ..pure("llvm.mlir.constant", &CONSTANT)
    },
    OpDef {
        traits: Traits::CONSTANT_LIKE,
        fold: Some(crate::dialect::folds::fold_value_op),
        ..pure("llvm.mlir.undef", &NULLARY)
    },
    OpDef {
        traits: Traits::CONSTANT_LIKE,
        fold: Some(crate::dialect::folds::fold_value_op),
        ..pure("llvm.mlir.poison", &NULLARY)
    },
    OpDef {
        traits: Traits::CONSTANT_LIKE,
        fold: Some(crate::dialect::folds::fold_value_op),
        verify: Some(verify_zero),
        ..pure("llvm.mlir.zero", &NULLARY)
    },
    pure("llvm.mlir.none", &NULLARY),
    OpDef {
        traits: Traits::CONSTANT_LIKE,
        fold: Some(crate::dialect::folds::fold_addressof),
        verify: Some(verify_addressof),
        ..pure("llvm.mlir.addressof", &ADDRESSOF)
    },
    OpDef {
        traits: Traits::CONSTANT_LIKE,
        verify: Some(verify_dso_local_equivalent),
        ..pure("llvm.dso_local_equivalent", &DSO_LOCAL_EQUIVALENT)
    },
    branch("llvm.br", &BR),
    branch("llvm.cond_br", &COND_BR),
    OpDef {
        traits: Traits::TERMINATOR.with(Traits::RETURN_LIKE),
        verify: Some(verify_return),
        ..pure("llvm.return", &RETURN)
    },
    terminator("llvm.unreachable", &UNREACHABLE),
    OpDef {
        verify: Some(verify_vector_element),
        ..pure("llvm.extractelement", &EXTRACTELEMENT)
    },
    OpDef {
        verify: Some(verify_vector_element),
        ..pure("llvm.insertelement", &INSERTELEMENT)
    },
    OpDef {
        parse: Some(crate::dialect::call_ops::parse_call_intrinsic),
        print: Some(crate::dialect::call_ops::print_call_intrinsic),
        ..op("llvm.call_intrinsic", &CALL_INTRINSIC, Effects::Unknown)
    },
    op("llvm.intr.vastart", &VA_LIST, Effects::Write),
    op("llvm.intr.vaend", &VA_LIST, Effects::Write),
    op("llvm.intr.vacopy", &VA_COPY, Effects::Write),
    op("llvm.va_arg", &VA_ARG, Effects::Unknown),
    op("llvm.intr.lifetime.start", &LIFETIME, Effects::Write),
    op("llvm.intr.lifetime.end", &LIFETIME, Effects::Write),
    OpDef {
        verify: Some(crate::dialect::ctors::verify),
        ..op("llvm.mlir.global_ctors", &GLOBAL_CTORS, Effects::Write)
    },
    OpDef {
        verify: Some(crate::dialect::ctors::verify),
        ..op("llvm.mlir.global_dtors", &GLOBAL_DTORS, Effects::Write)
    },
    op(
        "llvm.intr.invariant.start",
        &INVARIANT_START,
        Effects::Write,
    ),
    op("llvm.intr.invariant.end", &INVARIANT_END, Effects::Write),
    op(
        "llvm.intr.launder.invariant.group",
        &INVARIANT_GROUP,
        Effects::Write,
    ),
    pure("llvm.intr.strip.invariant.group", &INVARIANT_GROUP),
    OpDef {
        parse: Some(crate::dialect::assume::parse),
        print: Some(crate::dialect::assume::print),
        verify: Some(crate::dialect::assume::verify),
        inherent_attrs: &["op_bundle_sizes", "op_bundle_tags"],
        effects: Effects::Write,
        ..OpDef::new("llvm.intr.assume")
    },
    op("llvm.intr.trap", &NO_OPERANDS, Effects::Write),
    op("llvm.intr.stacksave", &STACKSAVE, Effects::Write),
    op(
        "llvm.intr.experimental.constrained.fptrunc",
        &CONSTRAINED_FPTRUNC,
        Effects::Write,
    ),
    op("llvm.intr.stackrestore", &STACKRESTORE, Effects::Write),
    op("llvm.intr.debugtrap", &NO_OPERANDS, Effects::Write),
    op("llvm.intr.dbg.declare", &DBG_DECLARE, Effects::Write),
    op("llvm.intr.dbg.value", &DBG_VALUE, Effects::Write),
    op("llvm.intr.dbg.label", &DBG_LABEL, Effects::Write),
    pure("llvm.intr.fmuladd", &INTRINSIC),
    pure("llvm.intr.fma", &INTRINSIC),
    pure("llvm.intr.sqrt", &INTRINSIC),
    pure("llvm.intr.fabs", &INTRINSIC),
    pure("llvm.intr.ceil", &INTRINSIC),
    pure("llvm.intr.floor", &INTRINSIC),
    pure("llvm.intr.round", &INTRINSIC),
    pure("llvm.intr.roundeven", &INTRINSIC),
    pure("llvm.intr.trunc", &INTRINSIC),
    pure("llvm.intr.exp", &INTRINSIC),
    pure("llvm.intr.exp2", &INTRINSIC),
    pure("llvm.intr.log", &INTRINSIC),
    pure("llvm.intr.log2", &INTRINSIC),
    pure("llvm.intr.log10", &INTRINSIC),
    pure("llvm.intr.pow", &INTRINSIC),
    pure("llvm.intr.sin", &INTRINSIC),
    pure("llvm.intr.cos", &INTRINSIC),
    pure("llvm.intr.tan", &INTRINSIC),
    pure("llvm.intr.tanh", &INTRINSIC),
    OpDef {
        verify: Some(verify_inline_asm),
        ..op(
            "llvm.inline_asm",
            &INLINE_ASM,
            Effects::Dynamic(inline_asm_effects),
        )
    },
    pure("llvm.intr.acos", &INTRINSIC),
    pure("llvm.intr.asin", &INTRINSIC),
    pure("llvm.intr.atan", &INTRINSIC),
    pure("llvm.intr.atan2", &INTRINSIC),
    pure("llvm.intr.cosh", &INTRINSIC),
    pure("llvm.intr.sinh", &INTRINSIC),
    pure("llvm.intr.powi", &INTRINSIC),
    OpDef {
        inherent_attrs: &["is_int_min_poison"],
        effects: Effects::None,
        ..OpDef::new("llvm.intr.abs")
    },
    OpDef {
        inherent_attrs: &["is_zero_poison"],
        effects: Effects::None,
        ..OpDef::new("llvm.intr.ctlz")
    },
    OpDef {
        inherent_attrs: &["is_zero_poison"],
        effects: Effects::None,
        ..OpDef::new("llvm.intr.cttz")
    },
    pure("llvm.intr.copysign", &INTRINSIC),
    pure("llvm.intr.minnum", &INTRINSIC),
    pure("llvm.intr.maxnum", &INTRINSIC),
    pure("llvm.intr.minimum", &INTRINSIC),
    pure("llvm.intr.maximum", &INTRINSIC),
    pure("llvm.intr.smax", &INTRINSIC_PLAIN),
    pure("llvm.intr.smin", &INTRINSIC_PLAIN),
    pure("llvm.intr.umax", &INTRINSIC_PLAIN),
    pure("llvm.intr.umin", &INTRINSIC_PLAIN),
    pure("llvm.intr.ctpop", &INTRINSIC_PLAIN),
    OpDef {
        verify: Some(crate::dialect::func_ops::verify_sincos),
        ..pure("llvm.intr.sincos", &INTRINSIC)
    },
    OpDef {
        inherent_attrs: &[
            "isVolatile",
            "access_groups",
            "alias_scopes",
            "noalias_scopes",
            "tbaa",
        ],
        verify: Some(crate::dialect::func_ops::verify_mem_intrinsic),
        effects: Effects::Write,
        ..OpDef::new("llvm.intr.memcpy")
    },
    OpDef {
        inherent_attrs: &["rw", "hint", "cache"],
        verify: Some(crate::dialect::func_ops::verify_prefetch),
        effects: Effects::Write,
        ..OpDef::new("llvm.intr.prefetch")
    },
    OpDef {
        inherent_attrs: &[
            "isVolatile",
            "access_groups",
            "alias_scopes",
            "noalias_scopes",
            "tbaa",
        ],
        verify: Some(crate::dialect::func_ops::verify_mem_intrinsic),
        effects: Effects::Write,
        ..OpDef::new("llvm.intr.memmove")
    },
    OpDef {
        inherent_attrs: &[
            "isVolatile",
            "access_groups",
            "alias_scopes",
            "noalias_scopes",
            "tbaa",
        ],
        verify: Some(crate::dialect::func_ops::verify_mem_intrinsic),
        effects: Effects::Write,
        ..OpDef::new("llvm.intr.memset")
    },
    OpDef {
        inherent_attrs: &[
            "isVolatile",
            "len",
            "access_groups",
            "alias_scopes",
            "noalias_scopes",
            "tbaa",
        ],
        verify: Some(crate::dialect::func_ops::verify_inline_mem_intrinsic),
        effects: Effects::Write,
        ..OpDef::new("llvm.intr.memcpy.inline")
    },
    OpDef {
        inherent_attrs: &[
            "isVolatile",
            "len",
            "access_groups",
            "alias_scopes",
            "noalias_scopes",
            "tbaa",
        ],
        verify: Some(crate::dialect::func_ops::verify_inline_mem_intrinsic),
        effects: Effects::Write,
        ..OpDef::new("llvm.intr.memset.inline")
    },
];
