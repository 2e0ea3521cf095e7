//! The `index` dialect: arithmetic on `index` values, comparisons with
//! `#index<cmp_predicate ...>`, casts, constants and `sizeof`.

mod fold;

use silica_ir::dialect::{inherent_attr, AttrHooks, DialectDef, Effects, OpDef, Traits};
use silica_ir::format::{
    parse_op, print_op, Arity, AttrParam, AttrSyntax, Signature, TypeConstraint, ValueParam,
};
use silica_ir::parser::{AsmParser, PResult};
use silica_ir::printer::ParamPrinter;
use silica_ir::verify::OpVerifier;
use silica_ir::{Attr, AttrKind, Context, Ir, OpId, Signedness, TypeKind};

/// `index.cmp` predicates in value order.
const PREDICATES: &[&str] = &[
    "eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge",
];

const INDEX: TypeConstraint = TypeConstraint {
    desc: "index",
    check: |ctx, t| matches!(ctx.type_kind(t), TypeKind::Index),
    build: Some(|ctx| ctx.index_type()),
};

const I1: TypeConstraint = TypeConstraint {
    desc: "1-bit signless integer",
    check: |ctx, t| ctx.int_width(t) == Some(1),
    build: Some(|ctx| ctx.signless(1)),
};

const INT_OR_INDEX: TypeConstraint = TypeConstraint {
    desc: "integer or index",
    check: |ctx, t| matches!(ctx.type_kind(t), TypeKind::Index | TypeKind::Integer { .. }),
    build: None,
};

const fn one(name: &'static str, constraint: TypeConstraint) -> ValueParam {
    ValueParam {
        name,
        arity: Arity::One,
        constraint,
    }
}

const fn value(syntax: AttrSyntax) -> AttrParam {
    AttrParam {
        name: "value",
        syntax,
        optional: false,
        default: None,
    }
}

static BINARY: Signature = Signature::new(
    &[one("lhs", INDEX), one("rhs", INDEX)],
    &[one("result", INDEX)],
    &[],
    "$lhs `,` $rhs attr-dict",
);

static CMP: Signature = Signature::new(
    &[one("lhs", INDEX), one("rhs", INDEX)],
    &[one("result", I1)],
    &[AttrParam {
        name: "pred",
        syntax: AttrSyntax::Dialect("index", "cmp_predicate"),
        optional: false,
        default: None,
    }],
    "`` $pred `(` $lhs `,` $rhs `)` attr-dict",
);

static CAST: Signature = Signature::new(
    &[one("input", INT_OR_INDEX)],
    &[one("output", INT_OR_INDEX)],
    &[],
    "$input attr-dict `:` type($input) `to` type($output)",
);

static CONSTANT: Signature = Signature::new(
    &[],
    &[one("result", INDEX)],
    &[value(AttrSyntax::IndexInt)],
    "attr-dict $value",
);

static BOOL_CONSTANT: Signature = Signature::new(
    &[],
    &[one("result", I1)],
    &[value(AttrSyntax::Plain)],
    "attr-dict $value",
);

static SIZEOF: Signature = Signature::new(&[], &[one("result", INDEX)], &[], "attr-dict");

const fn op(name: &'static str, sig: &'static Signature) -> OpDef {
    OpDef {
        effects: Effects::None,
        parse: Some(parse_op),
        print: Some(print_op),
        signature: Some(sig),
        ..OpDef::new(name)
    }
}

/// `%idx42`, `%idx-3`.
fn constant_name(ctx: &Context, ir: &Ir, op: OpId) -> Option<String> {
    match ctx.attr_kind(inherent_attr(ctx, ir, op, "value")?) {
        AttrKind::Integer { value, .. } => Some(format!("idx{value}")),
        _ => None,
    }
}

/// `%true`, `%false`.
fn bool_name(ctx: &Context, ir: &Ir, op: OpId) -> Option<String> {
    match ctx.attr_kind(inherent_attr(ctx, ir, op, "value")?) {
        AttrKind::Integer { value, .. } => {
            Some(if *value != 0.into() { "true" } else { "false" }.into())
        }
        _ => None,
    }
}

static OPS: &[OpDef] = &[
    OpDef {
        traits: Traits::COMMUTATIVE,
        fold: Some(crate::index::fold::fold_binary_op),
        patterns: crate::index::fold::ASSOCIATIVE,
        ..op("index.add", &BINARY)
    },
    OpDef {
        fold: Some(crate::index::fold::fold_binary_op),
        ..op("index.sub", &BINARY)
    },
    OpDef {
        traits: Traits::COMMUTATIVE,
        fold: Some(crate::index::fold::fold_binary_op),
        patterns: crate::index::fold::ASSOCIATIVE,
        ..op("index.mul", &BINARY)
    },
    OpDef {
        traits: Traits::DIVISION,
        fold: Some(crate::index::fold::fold_binary_op),
        ..op("index.divs", &BINARY)
    },
    OpDef {
        traits: Traits::DIVISION,
        fold: Some(crate::index::fold::fold_binary_op),
        ..op("index.divu", &BINARY)
    },
    OpDef {
        traits: Traits::DIVISION,
        fold: Some(crate::index::fold::fold_binary_op),
        ..op("index.ceildivs", &BINARY)
    },
    OpDef {
        traits: Traits::DIVISION,
        fold: Some(crate::index::fold::fold_binary_op),
        ..op("index.ceildivu", &BINARY)
    },
    OpDef {
        traits: Traits::DIVISION,
        fold: Some(crate::index::fold::fold_binary_op),
        ..op("index.floordivs", &BINARY)
    },
    OpDef {
        traits: Traits::DIVISION,
        fold: Some(crate::index::fold::fold_binary_op),
        ..op("index.rems", &BINARY)
    },
    OpDef {
        traits: Traits::DIVISION,
        fold: Some(crate::index::fold::fold_binary_op),
        ..op("index.remu", &BINARY)
    },
    OpDef {
        traits: Traits::COMMUTATIVE,
        fold: Some(crate::index::fold::fold_binary_op),
        patterns: crate::index::fold::ASSOCIATIVE,
        ..op("index.maxs", &BINARY)
    },
    OpDef {
        traits: Traits::COMMUTATIVE,
        fold: Some(crate::index::fold::fold_binary_op),
        patterns: crate::index::fold::ASSOCIATIVE,
        ..op("index.maxu", &BINARY)
    },
    OpDef {
        traits: Traits::COMMUTATIVE,
        fold: Some(crate::index::fold::fold_binary_op),
        patterns: crate::index::fold::ASSOCIATIVE,
        ..op("index.mins", &BINARY)
    },
    OpDef {
        traits: Traits::COMMUTATIVE,
        fold: Some(crate::index::fold::fold_binary_op),
        patterns: crate::index::fold::ASSOCIATIVE,
        ..op("index.minu", &BINARY)
    },
    OpDef {
        fold: Some(crate::index::fold::fold_binary_op),
        ..op("index.shl", &BINARY)
    },
    OpDef {
        fold: Some(crate::index::fold::fold_binary_op),
        ..op("index.shrs", &BINARY)
    },
    OpDef {
        fold: Some(crate::index::fold::fold_binary_op),
        ..op("index.shru", &BINARY)
    },
    OpDef {
        traits: Traits::COMMUTATIVE,
        fold: Some(crate::index::fold::fold_binary_op),
        patterns: crate::index::fold::ASSOCIATIVE,
        ..op("index.and", &BINARY)
    },
    OpDef {
        traits: Traits::COMMUTATIVE,
        fold: Some(crate::index::fold::fold_binary_op),
        patterns: crate::index::fold::ASSOCIATIVE,
        ..op("index.or", &BINARY)
    },
    OpDef {
        traits: Traits::COMMUTATIVE,
        fold: Some(crate::index::fold::fold_binary_op),
        patterns: crate::index::fold::ASSOCIATIVE,
        ..op("index.xor", &BINARY)
    },
    OpDef {
        fold: Some(crate::index::fold::fold_cmp),
        patterns: crate::index::fold::CMP,
        ..op("index.cmp", &CMP)
    },
    OpDef {
        verify: Some(verify_cast),
        fold: Some(crate::index::fold::fold_casts),
        ..op("index.casts", &CAST)
    },
    OpDef {
        verify: Some(verify_cast),
        fold: Some(crate::index::fold::fold_castu),
        ..op("index.castu", &CAST)
    },
    op("index.sizeof", &SIZEOF),
    OpDef {
        result_names: Some(constant_name),
        traits: Traits::CONSTANT_LIKE,
        fold: Some(crate::arith::fold_constant),
        ..op("index.constant", &CONSTANT)
    },
    OpDef {
        result_names: Some(bool_name),
        traits: Traits::CONSTANT_LIKE,
        fold: Some(crate::arith::fold_constant),
        ..op("index.bool.constant", &BOOL_CONSTANT)
    },
];

/// Exactly one side of a cast is `index`.
fn verify_cast(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let (Some(a), Some(b)) = (ir.operands(op).next(), ir.results(op).next()) else {
        return Ok(());
    };
    let (ta, tb) = (ir.value_type(a), ir.value_type(b));
    let is_index = |t| matches!(ctx.type_kind(t), TypeKind::Index);
    if is_index(ta) == is_index(tb) {
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

/// `cmp_predicate slt`: the predicate keyword, stored as an `i64`.
fn parse_attr(p: &mut AsmParser<'_, '_>, mnemonic: &str) -> PResult<Attr> {
    if mnemonic != "cmp_predicate" {
        let at = p.start_pos();
        return p.error_at(at, format!("unknown index attribute '{mnemonic}'"));
    }
    let at = p.pos();
    let word = p.parse_keyword()?;
    let Some(v) = PREDICATES.iter().position(|n| *n == word) else {
        return p.error_at(
            at,
            format!(
                "expected ::mlir::index::IndexCmpPredicate to be one of: {}",
                PREDICATES.join(", ")
            ),
        );
    };
    let ctx = p.ctx();
    let ty = ctx.int_type(64, Signedness::Signless);
    let value = ctx.int_attr(ty, v as i64);
    let dialect = ctx.sym("index");
    let name = ctx.sym(mnemonic);
    Ok(ctx.intern_attr(AttrKind::Dialect {
        dialect,
        name,
        params: Box::new([value]),
    }))
}

fn print_attr(pp: &ParamPrinter<'_>, out: &mut String, _mnemonic: &str, params: &[Attr]) {
    if let Some(AttrKind::Integer { value, .. }) = params.first().map(|p| pp.ctx().attr_kind(*p)) {
        let name = usize::try_from(value).ok().and_then(|i| PREDICATES.get(i));
        out.push_str(name.copied().unwrap_or("eq"));
    }
}

/// The `index` dialect.
pub static INDEX_DIALECT: DialectDef = DialectDef {
    name: "index",
    ops: OPS,
    attrs: Some(AttrHooks {
        parse: parse_attr,
        print: print_attr,
        type_of: None,
        alias: None,
    }),
    types: None,
    materialize_constant: Some(crate::index::fold::materialize_constant),
};
