//! Attributes in LLVM IR as mlir-translate writes them: parameter and
//! result attributes (`noalias`, `align 16`, `sret(i32)`, `range(i32 0,
//! 12)`), function attributes (`passthrough` entries, `memory(...)`,
//! `nounwind`, `"target-cpu"="..."`, ...) and the attributes of a call
//! site. Attributes mlir-translate drops are dropped here too.

use super::types::ir_type;
use crate::dialect::attrs::{keyword_of, raw_text};
use silica_ir::dialect::inherent_attr;
use silica_ir::{Attr, AttrKind, Context, Ir, OpId};

/// Parameter attributes without a value, by MLIR name.
const UNIT_PARAMS: &[(&str, &str)] = &[
    ("llvm.noalias", "noalias"),
    ("llvm.readonly", "readonly"),
    ("llvm.readnone", "readnone"),
    ("llvm.writeonly", "writeonly"),
    ("llvm.nest", "nest"),
    ("llvm.nocapture", "captures(none)"),
    ("llvm.nofree", "nofree"),
    ("llvm.nonnull", "nonnull"),
    ("llvm.noundef", "noundef"),
    ("llvm.inreg", "inreg"),
    ("llvm.returned", "returned"),
    ("llvm.signext", "signext"),
    ("llvm.zeroext", "zeroext"),
    ("llvm.allocalign", "allocalign"),
    ("llvm.allocptr", "allocptr"),
];

/// Parameter attributes whose value is a type: `name(T)`.
const TYPE_PARAMS: &[&str] = &[
    "sret",
    "byval",
    "byref",
    "elementtype",
    "inalloca",
    "preallocated",
];

/// Parameter attributes whose value is an integer: `align N`, `name(N)`.
const INT_PARAMS: &[(&str, &str)] = &[
    ("llvm.align", "align "),
    ("llvm.dereferenceable", "dereferenceable("),
    ("llvm.dereferenceable_or_null", "dereferenceable_or_null("),
    ("llvm.alignstack", "alignstack("),
];

fn int_value(ctx: &Context, a: Attr) -> Option<String> {
    match ctx.attr_kind(a) {
        AttrKind::Integer { value, .. } => Some(value.to_string()),
        _ => None,
    }
}

fn string_value(ctx: &Context, a: Attr) -> Option<&str> {
    match ctx.attr_kind(a) {
        AttrKind::String { value, .. } => std::str::from_utf8(value).ok(),
        _ => None,
    }
}

/// The LLVM IR of one argument or result attribute dictionary, each
/// attribute followed by a space.
pub(super) fn parameter(ctx: &Context, dict: Option<Attr>) -> Result<String, String> {
    let mut out = String::new();
    let Some(dict) = dict else {
        return Ok(out);
    };
    for &(k, v) in ctx.dict_entries(dict) {
        let key = ctx.str(k);
        if let Some((_, text)) = UNIT_PARAMS.iter().find(|(n, _)| *n == key) {
            out.push_str(text);
        } else if let Some(name) = key
            .strip_prefix("llvm.")
            .filter(|n| TYPE_PARAMS.contains(n))
        {
            let AttrKind::Type(t) = ctx.attr_kind(v) else {
                continue;
            };
            out.push_str(&format!("{name}({})", ir_type(ctx, *t)?));
        } else if let Some((_, text)) = INT_PARAMS.iter().find(|(n, _)| *n == key) {
            let Some(n) = int_value(ctx, v) else {
                continue;
            };
            let close = if text.ends_with('(') { ")" } else { "" };
            out.push_str(&format!("{text}{n}{close}"));
        } else if key == "llvm.range" {
            // `#llvm.constant_range<i32, 0, 12>`: `range(i32 0, 12)`.
            let Some((_, raw)) = raw_text(ctx, v) else {
                continue;
            };
            let Some((ty, bounds)) = raw.split_once(", ") else {
                continue;
            };
            out.push_str(&format!("range({ty} {bounds})"));
        } else {
            continue;
        }
        out.push(' ');
    }
    Ok(out)
}

/// The LLVM IR of entry `i` of `op`'s `arg_attrs` or `res_attrs`, each
/// attribute followed by a space.
pub(super) fn of_entry(
    ctx: &Context,
    ir: &Ir,
    op: OpId,
    key: &str,
    i: usize,
) -> Result<String, String> {
    parameter(
        ctx,
        crate::dialect::func_ops::entry_attrs(ctx, ir, op, key, i),
    )
}

/// Unit attributes of functions and calls, by MLIR name.
const UNIT_FN_ATTRS: &[(&str, &str)] = &[
    ("convergent", "convergent"),
    ("no_inline", "noinline"),
    ("always_inline", "alwaysinline"),
    ("inline_hint", "inlinehint"),
    ("no_unwind", "nounwind"),
    ("will_return", "willreturn"),
    ("optimize_none", "optnone"),
];

/// Unit attributes of functions written as LLVM string attributes.
const KEY_FN_ATTRS: &[(&str, &str)] = &[
    ("arm_streaming", "aarch64_pstate_sm_enabled"),
    ("arm_locally_streaming", "aarch64_pstate_sm_body"),
    ("arm_streaming_compatible", "aarch64_pstate_sm_compatible"),
    ("arm_new_za", "aarch64_new_za"),
    ("arm_in_za", "aarch64_in_za"),
    ("arm_out_za", "aarch64_out_za"),
    ("arm_inout_za", "aarch64_inout_za"),
    ("arm_preserves_za", "aarch64_preserves_za"),
];

/// String attributes of function definitions, by MLIR name.
const STRING_FN_ATTRS: &[(&str, &str)] = &[
    ("target_cpu", "target-cpu"),
    ("tune_cpu", "tune-cpu"),
    ("reciprocal_estimates", "reciprocal-estimates"),
    ("prefer_vector_width", "prefer-vector-width"),
    ("denormal_fp_math", "denormal-fp-math"),
    ("denormal_fp_math_f32", "denormal-fp-math-f32"),
    ("fp_contract", "fp-contract"),
    ("instrument_function_entry", "instrument-function-entry"),
    ("instrument_function_exit", "instrument-function-exit"),
];

/// Boolean attributes of function definitions, written `"name"="true"`.
const BOOL_FN_ATTRS: &[(&str, &str)] = &[
    ("no_infs_fp_math", "no-infs-fp-math"),
    ("no_nans_fp_math", "no-nans-fp-math"),
    ("no_signed_zeros_fp_math", "no-signed-zeros-fp-math"),
];

/// LLVM's enum attributes a `passthrough` entry may name (anything else
/// is a string attribute).
const ENUM_ATTRS: &[&str] = &[
    "alignstack",
    "allockind",
    "allocsize",
    "alwaysinline",
    "builtin",
    "cold",
    "convergent",
    "disable_sanitizer_instrumentation",
    "fn_ret_thunk_extern",
    "hot",
    "hybrid_patchable",
    "inlinehint",
    "jumptable",
    "minsize",
    "mustprogress",
    "naked",
    "nobuiltin",
    "nocallback",
    "nocf_check",
    "noduplicate",
    "nofree",
    "noimplicitfloat",
    "noinline",
    "nomerge",
    "nonlazybind",
    "noprofile",
    "norecurse",
    "noredzone",
    "noreturn",
    "nosanitize_bounds",
    "nosanitize_coverage",
    "nosync",
    "nounwind",
    "null_pointer_is_valid",
    "optdebug",
    "optforfuzzing",
    "optnone",
    "optsize",
    "presplitcoroutine",
    "returns_twice",
    "safestack",
    "sanitize_address",
    "sanitize_hwaddress",
    "sanitize_memory",
    "sanitize_memtag",
    "sanitize_numerical_stability",
    "sanitize_realtime",
    "sanitize_realtime_blocking",
    "sanitize_thread",
    "shadowcallstack",
    "skipprofile",
    "speculatable",
    "speculative_load_hardening",
    "ssp",
    "sspreq",
    "sspstrong",
    "strictfp",
    "uwtable",
    "willreturn",
];

/// A quoted LLVM string attribute part.
fn quoted(s: &str) -> String {
    crate::translate::function::asm_quoted(s.as_bytes())
}

/// One `passthrough` entry: `"name"`, or `["name", "value"]`.
fn passthrough_entry(ctx: &Context, a: Attr) -> Option<String> {
    match ctx.attr_kind(a) {
        AttrKind::String { .. } => {
            let name = string_value(ctx, a)?;
            Some(if ENUM_ATTRS.contains(&name) {
                name.to_string()
            } else {
                quoted(name)
            })
        }
        AttrKind::Array(pair) => {
            let [k, v] = pair.as_ref() else {
                return None;
            };
            let (k, v) = (string_value(ctx, *k)?, string_value(ctx, *v)?);
            if k == "allocsize" {
                return allocsize(v);
            }
            Some(if ENUM_ATTRS.contains(&k) {
                format!("{k}({v})")
            } else {
                format!("{}={}", quoted(k), quoted(v))
            })
        }
        _ => None,
    }
}

/// `allocsize` from LLVM's packed integer: the element size argument in
/// the high half, the count argument (all ones when absent) in the low.
fn allocsize(packed: &str) -> Option<String> {
    let n: u64 = packed.parse().ok()?;
    let (size, count) = (n >> 32, n & 0xffff_ffff);
    Some(if count == 0xffff_ffff {
        format!("allocsize({size})")
    } else {
        format!("allocsize({size},{count})")
    })
}

/// `#llvm.memory_effects<other = none, argMem = read, ...>` as
/// `memory(...)`: the default access, then each location that differs.
fn memory(raw: &str) -> Option<String> {
    // Locations the attribute leaves out have no access.
    let mut other = "none";
    let mut locations = [
        ("argmem", "none"),
        ("inaccessiblemem", "none"),
        ("errnomem", "none"),
        ("target_mem0", "none"),
        ("target_mem1", "none"),
    ];
    for part in raw.split(',') {
        let (k, v) = part.split_once('=')?;
        let (k, v) = (k.trim(), v.trim());
        let slot = match k {
            "other" => {
                other = v;
                continue;
            }
            "argMem" => 0,
            "inaccessibleMem" => 1,
            "errnoMem" => 2,
            "targetMem0" => 3,
            "targetMem1" => 4,
            _ => return None,
        };
        locations[slot].1 = v;
    }
    let mut parts = vec![other.to_string()];
    parts.extend(
        locations
            .into_iter()
            .filter(|(_, v)| *v != other)
            .map(|(l, v)| format!("{l}: {v}")),
    );
    if parts.len() > 1 && other == "none" {
        parts.remove(0);
    }
    Some(format!("memory({})", parts.join(", ")))
}

/// The unit attributes and memory effects of a function or call.
fn common(ctx: &Context, ir: &Ir, op: OpId, out: &mut Vec<String>) {
    for (name, text) in UNIT_FN_ATTRS {
        if inherent_attr(ctx, ir, op, name).is_some() {
            out.push((*text).to_string());
        }
    }
    if let Some(m) = inherent_attr(ctx, ir, op, "memory_effects")
        .and_then(|a| raw_text(ctx, a))
        .and_then(|(_, raw)| memory(raw))
    {
        out.push(m);
    }
}

/// The function attributes of an `llvm.func`, each preceded by a space;
/// a declaration carries fewer, as mlir-translate's.
pub(super) fn function(ctx: &Context, ir: &Ir, op: OpId, definition: bool) -> String {
    let mut out = Vec::new();
    if let Some(AttrKind::Array(entries)) =
        inherent_attr(ctx, ir, op, "passthrough").map(|a| ctx.attr_kind(a))
    {
        out.extend(entries.iter().filter_map(|&e| passthrough_entry(ctx, e)));
    }
    common(ctx, ir, op, &mut out);
    for (name, text) in KEY_FN_ATTRS {
        if inherent_attr(ctx, ir, op, name).is_some() {
            out.push(format!("\"{text}\""));
        }
    }
    if let Some(k) = inherent_attr(ctx, ir, op, "frame_pointer").and_then(|a| keyword_of(ctx, a)) {
        out.push(format!("\"frame-pointer\"={}", quoted(k.trim_matches('"'))));
    }
    if let Some((_, raw)) =
        inherent_attr(ctx, ir, op, "target_features").and_then(|a| raw_text(ctx, a))
    {
        let features: Vec<&str> = raw
            .trim_matches(|c| c == '[' || c == ']')
            .split(',')
            .map(|f| f.trim().trim_matches('"'))
            .filter(|f| !f.is_empty())
            .collect();
        out.push(format!(
            "\"target-features\"={}",
            quoted(&features.join(","))
        ));
    }
    if let Some(k) = inherent_attr(ctx, ir, op, "uwtable_kind").and_then(|a| keyword_of(ctx, a)) {
        match k {
            "sync" => out.push("uwtable(sync)".into()),
            "async" => out.push("uwtable".into()),
            _ => {}
        }
    }
    if definition {
        if let Some((min, max)) = crate::dialect::func_ops::vscale_range(ctx, ir, op) {
            out.push(format!("vscale_range({min},{max})"));
        }
        for (name, text) in STRING_FN_ATTRS {
            if let Some(v) = inherent_attr(ctx, ir, op, name).and_then(|a| string_value(ctx, a)) {
                out.push(format!("\"{text}\"={}", quoted(v)));
            }
        }
        for (name, text) in BOOL_FN_ATTRS {
            if let Some(AttrKind::Integer { ty, value }) =
                inherent_attr(ctx, ir, op, name).map(|a| ctx.attr_kind(a))
            {
                if ctx.int_width(*ty) == Some(1) {
                    let b = *value != 0.into();
                    out.push(format!("\"{text}\"=\"{b}\""));
                }
            }
        }
    }
    out.iter().map(|a| format!(" {a}")).collect()
}

/// The function attributes of a call site, each preceded by a space.
pub(super) fn call_site(ctx: &Context, ir: &Ir, op: OpId) -> String {
    let mut out = Vec::new();
    common(ctx, ir, op, &mut out);
    out.iter().map(|a| format!(" {a}")).collect()
}

/// ` section "name"` (definitions only, as mlir-translate) and
/// ` align N gc "name"` of a function.
pub(super) fn placement(ctx: &Context, ir: &Ir, op: OpId, definition: bool) -> (String, String) {
    let section = inherent_attr(ctx, ir, op, "section")
        .and_then(|a| string_value(ctx, a))
        .filter(|_| definition)
        .map(|s| format!(" section {}", quoted(s)))
        .unwrap_or_default();
    let align = inherent_attr(ctx, ir, op, "alignment")
        .and_then(|a| int_value(ctx, a))
        .map(|n| format!(" align {n}"))
        .unwrap_or_default();
    let gc = inherent_attr(ctx, ir, op, "garbageCollector")
        .and_then(|a| string_value(ctx, a))
        .map(|g| format!(" gc {}", quoted(g)))
        .unwrap_or_default();
    (section, align + &gc)
}

#[cfg(test)]
mod tests {
    use super::memory;

    #[test]
    fn memory_effects_list_what_differs_from_the_default() {
        let all_none = "other = none, argMem = none, inaccessibleMem = none, errnoMem = none, targetMem0 = none, targetMem1 = none";
        assert_eq!(memory(all_none).unwrap(), "memory(none)");
        let some = "other = none, argMem = read, inaccessibleMem = write, errnoMem = none, targetMem0 = none, targetMem1 = none";
        assert_eq!(
            memory(some).unwrap(),
            "memory(argmem: read, inaccessiblemem: write)"
        );
        let read = "other = read, argMem = readwrite, inaccessibleMem = read, errnoMem = read, targetMem0 = read, targetMem1 = read";
        assert_eq!(memory(read).unwrap(), "memory(read, argmem: readwrite)");
    }
}
