//! IRDL: dialects defined at run time. The `irdl` dialect itself
//! ([`IRDL`]: `irdl.dialect`, `irdl.type`, `irdl.operation`, the
//! constraint ops, `!irdl.attribute`, `#irdl<variadicity_array[...]>`)
//! in mlir-opt's syntax; [`load_dialects`], which turns the
//! `irdl.dialect` ops of a module into [`crate::dynamic`] dialects whose
//! types, attributes and ops are checked with IRDL's constraint semantics
//! (`constraint.rs`); and [`export`], which writes the IRDL definition of
//! a native dialect from its op signatures.

mod base_names;
mod constraint;
mod export;
mod load;
mod ops;

pub use base_names::{attr_base_name, type_base_name};
pub use export::export;
pub use load::load_dialects;

use crate::attrs::AttrKind;
use crate::context::{Attr, Context, Type};
use crate::dialect::{AttrHooks, DialectDef, TypeHooks};
use crate::lexer::Tok;
use crate::parser::{AsmParser, PResult};
use crate::printer::ParamPrinter;
use crate::types::TypeKind;

/// The `irdl` dialect.
pub static IRDL: DialectDef = DialectDef {
    name: "irdl",
    ops: &ops::OPS,
    attrs: Some(AttrHooks {
        parse: parse_attr,
        print: print_attr,
        type_of: None,
        alias: None,
    }),
    types: Some(TypeHooks {
        parse: parse_type,
        print: print_type,
        vector_element: None,
    }),
    materialize_constant: None,
};

/// How many values an operand or result definition stands for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Variadicity {
    Single,
    Optional,
    Variadic,
}

impl Variadicity {
    const ALL: [Variadicity; 3] = [
        Variadicity::Single,
        Variadicity::Optional,
        Variadicity::Variadic,
    ];

    /// The keyword of the variadicity.
    pub fn word(self) -> &'static str {
        match self {
            Variadicity::Single => "single",
            Variadicity::Optional => "optional",
            Variadicity::Variadic => "variadic",
        }
    }

    fn from_word(w: &str) -> Option<Variadicity> {
        Variadicity::ALL.into_iter().find(|v| v.word() == w)
    }
}

/// `!irdl.attribute`: a handle on a constraint over attributes and types.
pub fn attribute_type(ctx: &mut Context) -> Type {
    irdl_type(ctx, "attribute")
}

/// `!irdl.region`: a handle on a region constraint.
pub fn region_type(ctx: &mut Context) -> Type {
    irdl_type(ctx, "region")
}

fn irdl_type(ctx: &mut Context, name: &str) -> Type {
    let dialect = ctx.sym("irdl");
    let name = ctx.sym(name);
    ctx.intern_type(TypeKind::Dialect {
        dialect,
        name,
        params: Box::new([]),
    })
}

/// Whether `t` is the irdl type `name`.
fn is_irdl_type(ctx: &Context, t: Type, name: &str) -> bool {
    matches!(ctx.type_kind(t), TypeKind::Dialect { dialect, name: n, .. }
        if ctx.str(*dialect) == "irdl" && ctx.str(*n) == name)
}

/// `#irdl<variadicity_array[...]>` of `vs`.
pub fn variadicity_array(ctx: &mut Context, vs: &[Variadicity]) -> Attr {
    let params: Vec<Attr> = vs
        .iter()
        .map(|v| ctx.string_attr(v.word().as_bytes()))
        .collect();
    let dialect = ctx.sym("irdl");
    let name = ctx.sym("variadicity_array");
    ctx.intern_attr(AttrKind::Dialect {
        dialect,
        name,
        params: params.into(),
    })
}

/// The variadicities of a `#irdl<variadicity_array[...]>`.
pub fn variadicities(ctx: &Context, a: Attr) -> Option<Vec<Variadicity>> {
    let AttrKind::Dialect { name, params, .. } = ctx.attr_kind(a) else {
        return None;
    };
    if ctx.str(*name) != "variadicity_array" {
        return None;
    }
    params
        .iter()
        .map(|p| match ctx.attr_kind(*p) {
            AttrKind::String { value, .. } => {
                Variadicity::from_word(std::str::from_utf8(value).ok()?)
            }
            _ => None,
        })
        .collect()
}

fn parse_type(p: &mut AsmParser<'_, '_>, mnemonic: &str) -> PResult<Type> {
    match mnemonic {
        "attribute" | "region" => Ok(irdl_type(p.ctx(), mnemonic)),
        _ => p.op_error(format!("unknown irdl type: {mnemonic}")),
    }
}

fn print_type(_: &ParamPrinter<'_>, out: &mut String, name: &str, _: &[Attr]) {
    out.push_str(name);
}

fn parse_variadicity(p: &mut AsmParser<'_, '_>) -> PResult<Attr> {
    let pos = p.pos();
    let word = p.parse_keyword()?;
    match Variadicity::from_word(word) {
        Some(v) => Ok(p.ctx().string_attr(v.word().as_bytes())),
        None => p.error_at(
            pos,
            format!(
                "expected one of [single, optional, variadic] for variadicity kind, got: {word}"
            ),
        ),
    }
}

fn parse_attr(p: &mut AsmParser<'_, '_>, mnemonic: &str) -> PResult<Attr> {
    let params = match mnemonic {
        "variadicity" => vec![parse_variadicity(p)?],
        "variadicity_array" => {
            p.expect(Tok::LSquare, "'['")?;
            let mut params = Vec::new();
            if !p.eat(Tok::RSquare) {
                p.comma_list(Tok::RSquare, "']'", |p| {
                    params.push(parse_variadicity(p)?);
                    Ok(())
                })?;
            }
            params
        }
        _ => return p.op_error(format!("unknown irdl attribute: {mnemonic}")),
    };
    let ctx = p.ctx();
    let dialect = ctx.sym("irdl");
    let name = ctx.sym(mnemonic);
    Ok(ctx.intern_attr(AttrKind::Dialect {
        dialect,
        name,
        params: params.into(),
    }))
}

fn print_attr(pp: &ParamPrinter<'_>, out: &mut String, name: &str, params: &[Attr]) {
    let word = |a: Attr| match pp.ctx().attr_kind(a) {
        AttrKind::String { value, .. } => String::from_utf8_lossy(value).into_owned(),
        _ => String::new(),
    };
    if name == "variadicity" {
        if let Some(&v) = params.first() {
            out.push_str(&word(v));
        }
        return;
    }
    // mlir-opt writes each element after a space: `[ single,  variadic]`.
    out.push('[');
    for (i, &v) in params.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push(' ');
        out.push_str(&word(v));
    }
    out.push(']');
}
