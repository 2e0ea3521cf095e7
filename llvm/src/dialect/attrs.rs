//! The llvm dialect's attributes and enum properties: `#llvm.fastmath<...>`
//! (a bit set), keyword attributes (`#llvm.linkage<internal>`,
//! `#llvm.cconv<ccc>`, `#llvm.tailcallkind<none>`), and the integer
//! properties with a custom form: overflow flags (`overflow<nsw, nuw>`)
//! and GEP no-wrap flags (`inbounds|nuw`).

use silica_ir::format::CustomAttrSyntax;
use silica_ir::lexer::Tok;
use silica_ir::parser::{AsmParser, PResult};
use silica_ir::printer::ParamPrinter;
use silica_ir::{Attr, AttrKind, Context};

/// Fast-math flag bits in print order; `fast` is all of them.
const FASTMATH: &[(&str, u32)] = &[
    ("nnan", 1),
    ("ninf", 2),
    ("nsz", 4),
    ("arcp", 8),
    ("contract", 16),
    ("afn", 32),
    ("reassoc", 64),
];
const FAST: u32 = 127;

/// `icmp` predicates in value order.
pub const ICMP_PREDICATES: &[&str] = &[
    "eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge",
];

/// `fcmp` predicates in value order.
pub const FCMP_PREDICATES: &[&str] = &[
    "_false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule",
    "une", "uno", "_true",
];

/// Linkage keywords in value order (MLIR's `linkage::Linkage`).
pub const LINKAGES: &[&str] = &[
    "private",
    "internal",
    "available_externally",
    "linkonce",
    "weak",
    "common",
    "appending",
    "extern_weak",
    "linkonce_odr",
    "weak_odr",
    "external",
];

fn bits_attr(ctx: &mut Context, mnemonic: &str, bits: u32) -> Attr {
    let t = ctx.signless(32);
    let v = ctx.int_attr(t, bits);
    dialect_attr(ctx, mnemonic, vec![v])
}

/// `#llvm.<mnemonic>` with these parameters.
pub(crate) fn dialect_attr(ctx: &mut Context, mnemonic: &str, params: Vec<Attr>) -> Attr {
    let dialect = ctx.sym("llvm");
    let name = ctx.sym(mnemonic);
    ctx.intern_attr(AttrKind::Dialect {
        dialect,
        name,
        params: params.into(),
    })
}

/// `#llvm.fastmath<...>` with the given bits.
pub fn fastmath(ctx: &mut Context, bits: u32) -> Attr {
    bits_attr(ctx, "fastmath", bits)
}

/// `#llvm.<mnemonic><keyword>` (`#llvm.linkage<internal>`).
pub fn keyword_attr(ctx: &mut Context, mnemonic: &str, keyword: &str) -> Attr {
    let k = ctx.string_attr(keyword.as_bytes());
    dialect_attr(ctx, mnemonic, vec![k])
}

/// The keyword of a keyword attribute (`internal` of a linkage).
pub fn keyword_of(ctx: &Context, a: Attr) -> Option<&str> {
    match ctx.attr_kind(a) {
        AttrKind::Dialect { params, .. } => match params.first().map(|p| ctx.attr_kind(*p)) {
            Some(AttrKind::String { value, .. }) => std::str::from_utf8(value).ok(),
            _ => None,
        },
        _ => None,
    }
}

/// The keyword an integer enum property `key` of `op` names in `names`
/// (value order); `None` when absent, out of range or unnamed (the
/// default a format leaves out).
pub fn enum_keyword(
    ctx: &Context,
    ir: &silica_ir::Ir,
    op: silica_ir::OpId,
    key: &str,
    names: &[&'static str],
) -> Option<&'static str> {
    let i = silica_ir::dialect::inherent_attr(ctx, ir, op, key).map_or(0, |a| bits_of(ctx, a));
    names.get(i as usize).copied().filter(|n| !n.is_empty())
}

/// The bits of a bit-set attribute or of an integer property.
pub fn bits_of(ctx: &Context, a: Attr) -> u32 {
    let a = match ctx.attr_kind(a) {
        AttrKind::Dialect { params, .. } => match params.first() {
            Some(p) => *p,
            None => return 0,
        },
        _ => a,
    };
    match ctx.attr_kind(a) {
        AttrKind::Integer { value, .. } => u32::try_from(value).unwrap_or(0),
        _ => 0,
    }
}

/// The dialect attribute hook: parses what follows `#llvm.<mnemonic>`.
pub(crate) fn parse(p: &mut AsmParser<'_, '_>, mnemonic: &str) -> PResult<Attr> {
    if mnemonic == "mlir.module_flag" {
        return crate::dialect::module_flags::parse_flag(p);
    }
    if crate::dialect::loop_attrs::alias_name(mnemonic).is_some() {
        return crate::dialect::loop_attrs::parse(p, mnemonic);
    }
    if crate::dialect::di_attrs::is_di(mnemonic) {
        return crate::dialect::di_attrs::parse(p, mnemonic);
    }
    if mnemonic != "fastmath" && !KEYWORD_ATTRS.contains(&mnemonic) {
        // Other structured attributes (TBAA, alias scopes, ...) are kept
        // as their text, the aliases it names written out.
        let raw = if p.peek(Tok::Less) {
            let body = p.parse_balanced_body()?;
            one_line(&expand_aliases(p, &body))
        } else {
            String::new()
        };
        return Ok(raw_attr(p.ctx(), mnemonic, &raw));
    }
    p.expect(Tok::Less, "'<'")?;
    if mnemonic == "fastmath" {
        let mut bits = 0;
        loop {
            let at = p.pos();
            let word = p.parse_keyword()?;
            bits |= match word {
                "none" => 0,
                "fast" => FAST,
                w => match FASTMATH.iter().find(|(n, _)| *n == w) {
                    Some((_, b)) => *b,
                    None => {
                        return p.error_at(
                            at,
                            "expected ::mlir::LLVM::FastmathFlags to be one of: none, nnan, ninf, nsz, arcp, contract, afn, reassoc, fast",
                        )
                    }
                },
            };
            if !p.eat(Tok::Comma) {
                break;
            }
        }
        p.expect(Tok::Greater, "'>'")?;
        return Ok(fastmath(p.ctx(), bits));
    }
    let at = p.pos();
    // A keyword that is not an identifier (`"non-leaf"`) is quoted.
    let word = if p.peek(Tok::String) {
        String::from_utf8_lossy(&p.parse_string()?).into_owned()
    } else {
        p.parse_keyword()?.to_string()
    };
    if mnemonic == "cconv" && !crate::dialect::cconv::is_known(&word) {
        let loc = p.loc_at(at);
        let first =
            silica_ir::diag::Diagnostic::error(loc, crate::dialect::cconv::unknown_error(&word));
        p.ctx().emit(first);
        return p.error_at(
            at,
            "failed to parse CConvAttr parameter 'CallingConv' which is to be a `CConv`",
        );
    }
    p.expect(Tok::Greater, "'>'")?;
    Ok(keyword_attr(p.ctx(), mnemonic, &word))
}

/// `text` with each alias it names (`#tbaa_root`, `!ty`) replaced by what
/// the alias stands for, written out: the text then reads alone (in
/// bytecode, whose text entries have no aliases).
fn expand_aliases(p: &mut AsmParser<'_, '_>, text: &str) -> String {
    let is_name = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.' | '-');
    let mut out = String::with_capacity(text.len());
    let mut chars = text.char_indices().peekable();
    let mut literal = Literal::default();
    while let Some((i, c)) = chars.next() {
        if literal.step(c) {
            out.push(c);
            continue;
        }
        if c != '#' && c != '!' {
            out.push(c);
            continue;
        }
        let start = i + 1;
        let mut end = start;
        while let Some(&(j, n)) = chars.peek() {
            if !is_name(n) {
                break;
            }
            end = j + n.len_utf8();
            chars.next();
        }
        let name = &text[start..end];
        let written = match c {
            '#' => p
                .attr_alias(name)
                .map(|a| silica_ir::printer::attr_to_string(p.ctx(), a)),
            _ => p
                .type_alias(name)
                .map(|t| silica_ir::printer::type_to_string(p.ctx(), t)),
        };
        out.push_str(written.as_deref().unwrap_or(&text[i..end]));
    }
    out
}

/// Parameter text as MLIR prints it back: outside string literals, runs
/// of whitespace become one space, and none is left after `<` or before
/// `>` and `,`.
fn one_line(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut literal = Literal::default();
    let mut pending_space = false;
    for c in raw.chars() {
        if literal.step(c) {
            out.push(c);
            continue;
        }
        if c.is_whitespace() {
            pending_space = true;
            continue;
        }
        if pending_space && !matches!(c, '>' | ',') && !out.is_empty() && !out.ends_with('<') {
            out.push(' ');
        }
        pending_space = false;
        out.push(c);
    }
    out
}

/// Where a scan of parameter text stands: inside a string literal (and
/// just after a backslash in it) or not.
#[derive(Default)]
struct Literal {
    inside: bool,
    escaped: bool,
}

impl Literal {
    /// Steps over `c`: whether it is inside a string literal (its closing
    /// quote included; the opening quote, which starts one, is not).
    fn step(&mut self, c: char) -> bool {
        if !self.inside {
            self.inside = c == '"';
            return false;
        }
        match (self.escaped, c) {
            (true, _) => self.escaped = false,
            (false, '\\') => self.escaped = true,
            (false, '"') => self.inside = false,
            _ => {}
        }
        true
    }
}

/// Attributes whose parameter is one keyword.
const KEYWORD_ATTRS: &[&str] = &[
    "linkage",
    "cconv",
    "tailcallkind",
    "visibility",
    "unnamed_addr",
    "framePointerKind",
    "comdat_selector",
    "uwtableKind",
];

/// An llvm attribute kept as the text of its parameters (`raw` is the
/// text inside `<...>`).
pub fn raw_attr(ctx: &mut Context, mnemonic: &str, raw: &str) -> Attr {
    let text = ctx.string_attr(raw.as_bytes());
    let marker = ctx.unit_attr();
    dialect_attr(ctx, mnemonic, vec![marker, text])
}

/// The mnemonic and parameter text of an attribute kept as text
/// (`("memory_effects", "other = none, ...")`).
pub fn raw_text(ctx: &Context, a: Attr) -> Option<(&str, &str)> {
    match ctx.attr_kind(a) {
        AttrKind::Dialect { name, params, .. } => match params.as_ref() {
            [marker, text] if matches!(ctx.attr_kind(*marker), AttrKind::Unit) => {
                Some((ctx.str(*name), keyword_of_param(ctx, *text)?))
            }
            _ => None,
        },
        _ => None,
    }
}

/// The dialect attribute hook: prints what follows `#llvm.`.
pub(crate) fn print(pp: &ParamPrinter<'_>, out: &mut String, mnemonic: &str, params: &[Attr]) {
    let ctx = pp.ctx();
    if crate::dialect::loop_attrs::alias_name(mnemonic).is_some() {
        crate::dialect::loop_attrs::print(pp, out, mnemonic, params);
        return;
    }
    if crate::dialect::di_attrs::is_di(mnemonic) {
        crate::dialect::di_attrs::print(pp, out, mnemonic, params);
        return;
    }
    if let [marker, text] = params {
        if matches!(ctx.attr_kind(*marker), AttrKind::Unit) {
            if let Some(t) = keyword_of_param(ctx, *text) {
                if !t.is_empty() {
                    out.push('<');
                    out.push_str(t);
                    out.push('>');
                }
            }
            return;
        }
    }
    if mnemonic == "mlir.module_flag" {
        crate::dialect::module_flags::print_flag(pp, out, params);
        return;
    }
    out.push('<');
    if mnemonic == "fastmath" {
        let bits = params.first().map_or(0, |p| bits_of(ctx, *p));
        if bits == 0 {
            out.push_str("none");
        } else if bits == FAST {
            out.push_str("fast");
        } else {
            let set: Vec<&str> = FASTMATH
                .iter()
                .filter(|(_, b)| bits & b != 0)
                .map(|(n, _)| *n)
                .collect();
            out.push_str(&set.join(", "));
        }
    } else if let Some(k) = params.first().and_then(|p| keyword_of_param(ctx, *p)) {
        let bare = k.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && k.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.'));
        if bare {
            out.push_str(k);
        } else {
            out.push('"');
            out.push_str(k);
            out.push('"');
        }
    }
    out.push('>');
}

fn keyword_of_param(ctx: &Context, p: Attr) -> Option<&str> {
    match ctx.attr_kind(p) {
        AttrKind::String { value, .. } => std::str::from_utf8(value).ok(),
        _ => None,
    }
}

fn i32_attr(ctx: &mut Context, v: u32) -> Attr {
    let t = ctx.signless(32);
    ctx.int_attr(t, v)
}

/// Integer overflow flags: `overflow<nsw, nuw>` over an `i32` property.
pub static OVERFLOW: CustomAttrSyntax = CustomAttrSyntax {
    starts: |p| p.peek_keyword("overflow"),
    parse: |p| {
        p.expect_keyword("overflow")?;
        p.expect(Tok::Less, "'<'")?;
        let mut bits = 0;
        loop {
            let word = p.parse_keyword()?;
            bits |= match word {
                "nsw" => 1,
                "nuw" => 2,
                "none" => 0,
                _ => return p.expected("overflow flag"),
            };
            if !p.eat(Tok::Comma) {
                break;
            }
        }
        p.expect(Tok::Greater, "'>'")?;
        Ok(i32_attr(p.ctx(), bits))
    },
    print: |ctx, a, out| {
        let bits = bits_of(ctx, a);
        let set: Vec<&str> = [("nsw", 1), ("nuw", 2)]
            .iter()
            .filter(|(_, b)| bits & b != 0)
            .map(|(n, _)| *n)
            .collect();
        out.push_str("overflow<");
        out.push_str(&set.join(", "));
        out.push('>');
    },
};

/// GEP no-wrap flag bits: `inbounds` includes `nusw`.
const GEP_INBOUNDS: u32 = 1;
const GEP_NUSW: u32 = 2;
const GEP_NUW: u32 = 4;

/// GEP no-wrap flags: `inbounds|nuw` over an `i32` property.
pub static GEP_FLAGS: CustomAttrSyntax = CustomAttrSyntax {
    starts: |p| {
        ["inbounds", "nusw", "nuw", "none"]
            .iter()
            .any(|k| p.peek_keyword(k))
    },
    parse: |p| {
        let mut bits = 0;
        loop {
            let word = p.parse_keyword()?;
            bits |= match word {
                "inbounds" => GEP_INBOUNDS | GEP_NUSW,
                "nusw" => GEP_NUSW,
                "nuw" => GEP_NUW,
                "none" => 0,
                _ => return p.expected("GEP no-wrap flag"),
            };
            if !p.eat(Tok::Vertical) {
                break;
            }
        }
        Ok(i32_attr(p.ctx(), bits))
    },
    print: |ctx, a, out| out.push_str(&gep_flags_text(bits_of(ctx, a))),
};

/// `inbounds|nuw` for GEP no-wrap bits.
pub fn gep_flags_text(bits: u32) -> String {
    let mut parts = Vec::new();
    if bits & GEP_INBOUNDS != 0 {
        parts.push("inbounds");
    } else if bits & GEP_NUSW != 0 {
        parts.push("nusw");
    }
    if bits & GEP_NUW != 0 {
        parts.push("nuw");
    }
    if parts.is_empty() {
        return "none".into();
    }
    parts.join("|")
}
