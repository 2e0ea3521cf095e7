//! The `ub` dialect: undefined behaviour made explicit. `ub.poison` is a
//! constant-like op whose value is the `#ub.poison` attribute (folds and
//! dead-value removal put it where a value no longer matters);
//! `ub.unreachable` terminates a block control never reaches.

use silica_ir::dialect::{AttrHooks, DialectDef, Effects, OpDef, Traits};
use silica_ir::format::{
    parse_op, print_op, AttrDefault, AttrParam, AttrSyntax, Signature, ValueParam, ANY_TYPE,
};
use silica_ir::parser::{AsmParser, PResult};
use silica_ir::printer::ParamPrinter;
use silica_ir::rewrite::{FoldCtx, FoldResult, OpFoldResult, Rewriter};
use silica_ir::{Attr, AttrKind, Context, OpId, Type};

/// The `#ub.poison` attribute.
pub fn poison_attr(ctx: &mut Context) -> Attr {
    let dialect = ctx.sym("ub");
    let name = ctx.sym("poison");
    ctx.intern_attr(AttrKind::Dialect {
        dialect,
        name,
        params: Box::new([]),
    })
}

/// Whether `a` is `#ub.poison`.
pub fn is_poison_attr(ctx: &Context, a: Attr) -> bool {
    matches!(ctx.attr_kind(a), AttrKind::Dialect { dialect, name, params }
        if ctx.str(*dialect) == "ub" && ctx.str(*name) == "poison" && params.is_empty())
}

const POISON_DEFAULT: AttrDefault = AttrDefault {
    make: poison_attr,
    matches: is_poison_attr,
};

static POISON_SIG: Signature = Signature::new(
    &[],
    &[ValueParam {
        name: "result",
        arity: silica_ir::format::Arity::One,
        constraint: ANY_TYPE,
    }],
    &[AttrParam {
        name: "value",
        syntax: AttrSyntax::Plain,
        optional: false,
        default: Some(POISON_DEFAULT),
    }],
    "attr-dict (`<` $value^ `>`)? `:` type($result)",
);

static UNREACHABLE_SIG: Signature = Signature::new(&[], &[], &[], "attr-dict");

fn fold_poison(f: &mut FoldCtx<'_>, op: OpId, _: &[Option<Attr>]) -> FoldResult {
    match silica_ir::dialect::inherent_attr(f.ctx, f.ir, op, "value") {
        Some(a) => FoldResult::Results(vec![OpFoldResult::Attr(a)]),
        None => FoldResult::Fail,
    }
}

/// Creates `ub.poison` of type `ty` for a `#ub.poison` value.
pub fn materialize_constant(
    rw: &mut Rewriter<'_>,
    value: Attr,
    ty: Type,
    loc: Attr,
) -> Option<OpId> {
    if !is_poison_attr(rw.ctx, value) {
        return None;
    }
    let key = rw.ctx.sym("value");
    let props = rw.ctx.dict_attr(vec![(key, value)]);
    Some(rw.create_simple("ub.poison", &[], &[ty], Some(props), loc))
}

fn parse_attr(p: &mut AsmParser<'_, '_>, mnemonic: &str) -> PResult<Attr> {
    if mnemonic != "poison" {
        let at = p.start_pos();
        return p.error_at(at, format!("unknown ub attribute '{mnemonic}'"));
    }
    Ok(poison_attr(p.ctx()))
}

fn print_attr(_: &ParamPrinter<'_>, _: &mut String, _: &str, _: &[Attr]) {}

static OPS: &[OpDef] = &[
    OpDef {
        parse: Some(parse_op),
        print: Some(print_op),
        signature: Some(&POISON_SIG),
        traits: Traits::CONSTANT_LIKE,
        effects: Effects::None,
        fold: Some(fold_poison),
        ..OpDef::new("ub.poison")
    },
    OpDef {
        parse: Some(parse_op),
        print: Some(print_op),
        signature: Some(&UNREACHABLE_SIG),
        traits: Traits::TERMINATOR,
        ..OpDef::new("ub.unreachable")
    },
];

/// The `ub` dialect.
pub static UB: DialectDef = DialectDef {
    name: "ub",
    ops: OPS,
    attrs: Some(AttrHooks {
        parse: parse_attr,
        print: print_attr,
        type_of: None,
        alias: None,
    }),
    types: None,
    materialize_constant: Some(materialize_constant),
};
