//! Module flags: `llvm.module_flags [#llvm.mlir.module_flag<behavior,
//! "key", value>, ...]` at module level, in MLIR's syntax with its checks
//! (integer and string values; `CG Profile` and `ProfileSummary` take
//! their own attributes), translated to `!llvm.module.flags` metadata.

use silica_ir::dialect::{inherent_attr, OpDef};
use silica_ir::format::{parse_op, print_op, AttrParam, AttrSyntax, Signature};
use silica_ir::lexer::Tok;
use silica_ir::parser::{AsmParser, PResult};
use silica_ir::printer::ParamPrinter;
use silica_ir::verify::OpVerifier;
use silica_ir::{Attr, AttrKind, Context, Ir, OpId};

/// The merge behaviours, from 1 (LLVM's `Module::ModFlagBehavior`).
pub(crate) const BEHAVIORS: &[&str] = &[
    "error",
    "warning",
    "require",
    "override",
    "append",
    "appendunique",
    "max",
    "min",
];

/// `<behavior, "key", value>` after `#llvm.mlir.module_flag`.
pub(crate) fn parse_flag(p: &mut AsmParser<'_, '_>) -> PResult<Attr> {
    p.expect(Tok::Less, "'<'")?;
    let at = p.pos();
    let word = p.parse_keyword()?.to_string();
    if !BEHAVIORS.contains(&word.as_str()) {
        let msg = format!(
            "expected ::mlir::LLVM::ModFlagBehavior to be one of: {}",
            BEHAVIORS.join(", ")
        );
        return p.error_at(at, msg);
    }
    p.expect(Tok::Comma, "','")?;
    let key = p.parse_string()?;
    p.expect(Tok::Comma, "','")?;
    let value = p.parse_attribute()?;
    p.expect(Tok::Greater, "'>'")?;
    let ctx = p.ctx();
    let behavior = ctx.string_attr(word.as_bytes());
    let key = ctx.string_attr(&key);
    let dialect = ctx.sym("llvm");
    let name = ctx.sym("mlir.module_flag");
    Ok(ctx.intern_attr(AttrKind::Dialect {
        dialect,
        name,
        params: Box::new([behavior, key, value]),
    }))
}

/// Prints what [`parse_flag`] reads.
pub(crate) fn print_flag(pp: &ParamPrinter<'_>, out: &mut String, params: &[Attr]) {
    let [behavior, key, value] = params else {
        return;
    };
    out.push('<');
    if let AttrKind::String { value, .. } = pp.ctx().attr_kind(*behavior) {
        out.push_str(&String::from_utf8_lossy(value));
    }
    out.push_str(", ");
    pp.attr(out, *key);
    out.push_str(", ");
    pp.attr(out, *value);
    out.push('>');
}

/// The behaviour, key and value of a module flag attribute.
pub(crate) fn flag_parts(ctx: &Context, a: Attr) -> Option<(&str, &[u8], Attr)> {
    let AttrKind::Dialect { name, params, .. } = ctx.attr_kind(a) else {
        return None;
    };
    if ctx.str(*name) != "mlir.module_flag" {
        return None;
    }
    let [behavior, key, value] = &**params else {
        return None;
    };
    let (AttrKind::String { value: b, .. }, AttrKind::String { value: k, .. }) =
        (ctx.attr_kind(*behavior), ctx.attr_kind(*key))
    else {
        return None;
    };
    Some((std::str::from_utf8(b).ok()?, k, *value))
}

/// The flags of an `llvm.module_flags` op.
pub(crate) fn flags(ctx: &Context, ir: &Ir, op: OpId) -> Vec<Attr> {
    match inherent_attr(ctx, ir, op, "flags").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Array(xs)) => xs.to_vec(),
        _ => Vec::new(),
    }
}

/// Whether `a` is the llvm dialect attribute `mnemonic`.
fn is_llvm_attr(ctx: &Context, a: Attr, mnemonic: &str) -> bool {
    matches!(ctx.attr_kind(a), AttrKind::Dialect { dialect, name, .. }
        if ctx.str(*dialect) == "llvm" && ctx.str(*name) == mnemonic)
}

/// Module flags at module level; values integers or strings, except the
/// `CG Profile` and `ProfileSummary` keys.
fn verify(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let at_module = ir
        .parent_op(op)
        .is_some_and(|p| ctx.str(ir.op_name(p)) == "builtin.module");
    if !at_module {
        return Err(v.op_error(op, "must appear at the module level"));
    }
    for a in flags(ctx, ir, op) {
        let Some((_, key, value)) = flag_parts(ctx, a) else {
            return Err(v.op_error(op, "expected a module flag attribute"));
        };
        let message = match key {
            b"CG Profile" => {
                let entries = match ctx.attr_kind(value) {
                    AttrKind::Array(xs) => {
                        xs.iter().all(|&x| is_llvm_attr(ctx, x, "cgprofile_entry"))
                    }
                    _ => false,
                };
                (!entries).then_some("'CG Profile' key expects an array of '#llvm.cgprofile_entry'")
            }
            b"ProfileSummary" => (!is_llvm_attr(ctx, value, "profile_summary"))
                .then_some("'ProfileSummary' key expects a '#llvm.profile_summary' attribute"),
            _ => (!matches!(
                ctx.attr_kind(value),
                AttrKind::Integer { .. } | AttrKind::String { .. }
            ))
            .then_some("only integer and string values are currently supported"),
        };
        if let Some(m) = message {
            return Err(v.op_error(op, m));
        }
    }
    Ok(())
}

static MODULE_FLAGS: Signature = Signature::new(
    &[],
    &[],
    &[AttrParam {
        name: "flags",
        syntax: AttrSyntax::Plain,
        optional: false,
        default: None,
    }],
    "$flags attr-dict",
);

pub(crate) const MODULE_FLAGS_OP: OpDef = OpDef {
    verify: Some(verify),
    parse: Some(parse_op),
    print: Some(print_op),
    signature: Some(&MODULE_FLAGS),
    ..OpDef::new("llvm.module_flags")
};
