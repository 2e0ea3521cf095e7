//! Loop annotations as structured attributes: `#llvm.loop_annotation<...>`
//! and its parts (`loop_vectorize`, `loop_unroll`, ...), and
//! `#llvm.access_group<id = ...>`. They are parsed into key/value
//! parameters so that they print as MLIR prints them: each gets an alias
//! named by its mnemonic (`#loop_unroll = #llvm.loop_unroll<full = true>`),
//! and a part nested in another is written as its alias, or as just its
//! parameters (`unroll = <full = true>`).

use silica_ir::lexer::Tok;
use silica_ir::parser::{AsmParser, PResult};
use silica_ir::printer::ParamPrinter;
use silica_ir::{Attr, AttrKind, Context};

/// The mnemonics kept structured; each is its own alias name.
const STRUCTURED: &[&str] = &[
    "loop_annotation",
    "loop_vectorize",
    "loop_interleave",
    "loop_unroll",
    "loop_unroll_and_jam",
    "loop_licm",
    "loop_distribute",
    "loop_pipeline",
    "loop_peeled",
    "loop_unswitch",
    "access_group",
];

/// Each kind's parameters in the order MLIR declares (and prints) them.
fn parameter_order(mnemonic: &str) -> &'static [&'static str] {
    match mnemonic {
        "loop_annotation" => &[
            "disableNonforced",
            "vectorize",
            "interleave",
            "unroll",
            "unrollAndJam",
            "licm",
            "distribute",
            "pipeline",
            "peeled",
            "unswitch",
            "mustProgress",
            "isVectorized",
            "startLoc",
            "endLoc",
            "parallelAccesses",
        ],
        "loop_vectorize" => &[
            "disable",
            "predicateEnable",
            "scalableEnable",
            "width",
            "followupVectorized",
            "followupEpilogue",
            "followupAll",
        ],
        "loop_unroll" => &[
            "disable",
            "count",
            "runtimeDisable",
            "full",
            "followupUnrolled",
            "followupRemainder",
            "followupAll",
        ],
        "loop_unroll_and_jam" => &[
            "disable",
            "count",
            "followupOuter",
            "followupInner",
            "followupRemainderOuter",
            "followupRemainderInner",
            "followupAll",
        ],
        "loop_licm" => &["disable", "versioningDisable"],
        "loop_distribute" => &[
            "disable",
            "followupCoincident",
            "followupSequential",
            "followupFallback",
            "followupAll",
        ],
        "loop_pipeline" => &["disable", "initiationinterval"],
        _ => &[],
    }
}

/// The key whose value is a list of access groups.
const PARALLEL_ACCESSES: &str = "parallelAccesses";

/// The alias name of an llvm attribute with this mnemonic, if it gets
/// one.
pub(crate) fn alias_name(mnemonic: &str) -> Option<&'static str> {
    STRUCTURED.iter().find(|m| **m == mnemonic).copied()
}

/// The mnemonic of the loop attribute a parameter `key` of `owner`
/// holds: follow-ups are loop annotations, the annotation's parts their
/// own kinds.
pub(crate) fn nested_mnemonic(owner: &str, key: &str) -> Option<&'static str> {
    if key.starts_with("followup") {
        return Some("loop_annotation");
    }
    if owner != "loop_annotation" {
        return None;
    }
    Some(match key {
        "vectorize" => "loop_vectorize",
        "interleave" => "loop_interleave",
        "unroll" => "loop_unroll",
        "unrollAndJam" => "loop_unroll_and_jam",
        "licm" => "loop_licm",
        "distribute" => "loop_distribute",
        "pipeline" => "loop_pipeline",
        "peeled" => "loop_peeled",
        "unswitch" => "loop_unswitch",
        _ => return None,
    })
}

/// Parses `<key = value, ...>` after the mnemonic; the parameters are
/// stored as key (a string), value pairs.
pub(crate) fn parse(p: &mut AsmParser<'_, '_>, mnemonic: &str) -> PResult<Attr> {
    p.expect(Tok::Less, "'<'")?;
    let mut entries: Vec<(String, Vec<Attr>)> = Vec::new();
    if !p.eat(Tok::Greater) {
        loop {
            let continues_list =
                p.peek(Tok::HashId) && entries.last().is_some_and(|(k, _)| k == PARALLEL_ACCESSES);
            if continues_list {
                let group = p.parse_attribute()?;
                if let Some((_, values)) = entries.last_mut() {
                    values.push(group);
                }
            } else {
                let key = p.parse_keyword()?.to_string();
                p.expect(Tok::Equal, "'='")?;
                let value = parse_value(p, mnemonic, &key)?;
                entries.push((key, vec![value]));
            }
            if !p.eat(Tok::Comma) {
                break;
            }
        }
        p.expect(Tok::Greater, "'>'")?;
    }
    let order = parameter_order(mnemonic);
    entries.sort_by_key(|(k, _)| order.iter().position(|o| o == k).unwrap_or(order.len()));
    let ctx = p.ctx();
    let mut params = Vec::with_capacity(entries.len() * 2);
    for (key, values) in entries {
        params.push(ctx.string_attr(key.as_bytes()));
        params.push(if key == PARALLEL_ACCESSES {
            ctx.array_attr(&values)
        } else {
            values[0]
        });
    }
    Ok(crate::dialect::attrs::dialect_attr(ctx, mnemonic, params))
}

fn parse_value(p: &mut AsmParser<'_, '_>, owner: &str, key: &str) -> PResult<Attr> {
    if let Some(nested) = nested_mnemonic(owner, key) {
        if p.peek(Tok::Less) {
            return parse(p, nested);
        }
    }
    // `true` as the builtin parser makes it (an i1 of all ones), so that
    // the annotation is the one read from its bytecode.
    for (word, value) in [("true", -1), ("false", 0)] {
        if p.eat_keyword(word) {
            let ctx = p.ctx();
            let i1 = ctx.signless(1);
            return Ok(ctx.int_attr(i1, value));
        }
    }
    p.parse_attribute()
}

/// The key/value parameters of a structured attribute.
pub(crate) fn entries(ctx: &Context, a: Attr) -> Vec<(String, Attr)> {
    let AttrKind::Dialect { params, .. } = ctx.attr_kind(a) else {
        return Vec::new();
    };
    params
        .chunks(2)
        .filter_map(|pair| match (ctx.attr_kind(pair[0]), pair.get(1)) {
            (AttrKind::String { value, .. }, Some(v)) => {
                Some((String::from_utf8_lossy(value).into_owned(), *v))
            }
            _ => None,
        })
        .collect()
}

/// Prints `<key = value, ...>`.
pub(crate) fn print(pp: &ParamPrinter<'_>, out: &mut String, mnemonic: &str, params: &[Attr]) {
    let ctx = pp.ctx();
    out.push('<');
    for (i, pair) in params.chunks(2).enumerate() {
        let [key, value] = pair else { continue };
        let AttrKind::String { value: key, .. } = ctx.attr_kind(*key) else {
            continue;
        };
        let key = String::from_utf8_lossy(key);
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&key);
        out.push_str(" = ");
        match ctx.attr_kind(*value) {
            AttrKind::Array(groups) if key == PARALLEL_ACCESSES => {
                for (j, g) in groups.iter().enumerate() {
                    if j > 0 {
                        out.push_str(", ");
                    }
                    pp.attr(out, *g);
                }
            }
            AttrKind::Dialect { .. } if nested_mnemonic(mnemonic, &key).is_some() => {
                pp.nested_dialect_attr(out, *value)
            }
            _ => pp.attr(out, *value),
        }
    }
    out.push('>');
}
