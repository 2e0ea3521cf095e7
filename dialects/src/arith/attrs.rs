//! The `arith` attributes: integer overflow flags (`#arith.overflow<nsw,
//! nuw>`) and fast-math flags (`#arith.fastmath<nnan,ninf>`), both bit
//! sets stored as one `i32` parameter, and the comparison predicates.

use silica_ir::lexer::Tok;
use silica_ir::parser::{AsmParser, PResult};
use silica_ir::printer::ParamPrinter;
use silica_ir::{Attr, AttrKind, Context};

/// `arith.cmpi` predicates in value order.
pub const CMPI_PREDICATES: &[&str] = &[
    "eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge",
];

/// `arith.cmpf` predicates in value order.
pub const CMPF_PREDICATES: &[&str] = &[
    "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule",
    "une", "uno", "true",
];

/// Overflow flag bits, in print order.
const OVERFLOW: &[(&str, u32)] = &[("nsw", 1), ("nuw", 2)];
/// Fast-math flag bits, in print order; `fast` is all of them.
const FASTMATH: &[(&str, u32)] = &[
    ("reassoc", 1),
    ("nnan", 2),
    ("ninf", 4),
    ("nsz", 8),
    ("arcp", 16),
    ("contract", 32),
    ("afn", 64),
];
const FAST: u32 = 127;

/// The flag table and separator of a flags attribute mnemonic.
fn flags_of(mnemonic: &str) -> Option<(&'static [(&'static str, u32)], &'static str)> {
    match mnemonic {
        "overflow" => Some((OVERFLOW, ", ")),
        "fastmath" => Some((FASTMATH, ",")),
        _ => None,
    }
}

/// The C++ enum name MLIR's messages use for a flags mnemonic.
fn enum_name(mnemonic: &str) -> &'static str {
    if mnemonic == "overflow" {
        "::mlir::arith::IntegerOverflowFlags"
    } else {
        "::mlir::arith::FastMathFlags"
    }
}

/// `#arith.<mnemonic><flags>` with the given bits.
pub fn flags_attr(ctx: &mut Context, mnemonic: &str, bits: u32) -> Attr {
    let i32_ty = ctx.signless(32);
    let value = ctx.int_attr(i32_ty, bits);
    let dialect = ctx.sym("arith");
    let name = ctx.sym(mnemonic);
    ctx.intern_attr(AttrKind::Dialect {
        dialect,
        name,
        params: Box::new([value]),
    })
}

/// The bits of a flags attribute.
pub fn flag_bits(ctx: &Context, a: Attr) -> Option<u32> {
    match ctx.attr_kind(a) {
        AttrKind::Dialect { params, .. } => match params.first().map(|p| ctx.attr_kind(*p)) {
            Some(AttrKind::Integer { value, .. }) => u32::try_from(value).ok(),
            _ => None,
        },
        _ => None,
    }
}

/// Parses `<flag, ...>` (or `<none>`, `<fast>`) after the mnemonic.
pub(crate) fn parse(p: &mut AsmParser<'_, '_>, mnemonic: &str) -> PResult<Attr> {
    let Some((table, _)) = flags_of(mnemonic) else {
        let pos = p.start_pos();
        return p.error_at(pos, format!("unknown arith attribute '{mnemonic}'"));
    };
    p.expect(Tok::Less, "'<'")?;
    let mut bits = 0;
    loop {
        let at = p.pos();
        let word = p.parse_keyword()?;
        bits |= match word {
            "none" => 0,
            "fast" if mnemonic == "fastmath" => FAST,
            w => match table.iter().find(|(n, _)| *n == w) {
                Some((_, b)) => *b,
                None => {
                    let prefix = p
                        .enclosing_op()
                        .map_or(String::new(), |o| format!("custom op '{o}' "));
                    let msg = format!(
                        "{prefix}expected {} to be one of: {}",
                        enum_name(mnemonic),
                        names(table)
                    );
                    return p.error_at(at, msg);
                }
            },
        };
        if !p.eat(Tok::Comma) {
            break;
        }
    }
    p.expect(Tok::Greater, "'>'")?;
    Ok(flags_attr(p.ctx(), mnemonic, bits))
}

fn names(table: &[(&str, u32)]) -> String {
    let mut v: Vec<&str> = vec!["none"];
    v.extend(table.iter().map(|(n, _)| *n));
    v.join(", ")
}

/// Prints `<flag, ...>` after the mnemonic.
pub(crate) fn print(pp: &ParamPrinter<'_>, out: &mut String, mnemonic: &str, params: &[Attr]) {
    let bits = match params.first().map(|p| pp.ctx().attr_kind(*p)) {
        Some(AttrKind::Integer { value, .. }) => u32::try_from(value).unwrap_or(0),
        _ => 0,
    };
    let Some((table, sep)) = flags_of(mnemonic) else {
        return;
    };
    out.push('<');
    if bits == 0 {
        out.push_str("none");
    } else if mnemonic == "fastmath" && bits == FAST {
        out.push_str("fast");
    } else {
        let set: Vec<&str> = table
            .iter()
            .filter(|(_, b)| bits & b != 0)
            .map(|(n, _)| *n)
            .collect();
        out.push_str(&set.join(sep));
    }
    out.push('>');
}
