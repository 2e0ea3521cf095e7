//! Module flags as LLVM metadata: `!llvm.module.flags = !{!0, ...}`, one
//! node per flag (`!{i32 behavior, !"key", value}`, integer and string
//! values), numbered from `!0` before the loop metadata.

use super::metadata_string;
use crate::dialect::module_flags::{flag_parts, flags, BEHAVIORS};
use silica_ir::{AttrKind, Context, Ir, OpId};

/// How many metadata nodes the module flags of `module` take (`!0` up).
pub(super) fn node_count(ctx: &Context, ir: &Ir, module: OpId) -> usize {
    ir.regions(module)
        .flat_map(|r| ir.region_blocks(r))
        .flat_map(|b| ir.block_ops(b))
        .filter(|&o| ctx.str(ir.op_name(o)) == "llvm.module_flags")
        .map(|o| flags(ctx, ir, o).len())
        .sum()
}

/// The `!llvm.module.flags` metadata of the module's flags (integer and
/// string values), numbered from `!0`; empty without flags.
pub(super) fn metadata(ctx: &Context, ir: &Ir, module: OpId) -> Result<String, String> {
    let mut entries = Vec::new();
    let ops = ir
        .regions(module)
        .flat_map(|r| ir.region_blocks(r))
        .flat_map(|b| ir.block_ops(b))
        .filter(|&o| ctx.str(ir.op_name(o)) == "llvm.module_flags");
    for op in ops {
        for a in flags(ctx, ir, op) {
            let (behavior, key, value) =
                flag_parts(ctx, a).ok_or("expected a module flag attribute")?;
            let code = BEHAVIORS.iter().position(|b| *b == behavior).unwrap_or(0) + 1;
            let key = metadata_string(key);
            let value = match ctx.attr_kind(value) {
                AttrKind::Integer { value, .. } => format!("i32 {value}"),
                AttrKind::String { value, .. } => metadata_string(value),
                _ => {
                    return Err(format!(
                        "module flag {key}: only integer and string values can be translated"
                    ))
                }
            };
            entries.push(format!("!{{i32 {code}, {key}, {value}}}"));
        }
    }
    if entries.is_empty() {
        return Ok(String::new());
    }
    let refs: Vec<String> = (0..entries.len()).map(|i| format!("!{i}")).collect();
    let mut out = format!("\n!llvm.module.flags = !{{{}}}\n", refs.join(", "));
    for (i, e) in entries.iter().enumerate() {
        out.push_str(&format!("!{i} = {e}\n"));
    }
    Ok(out)
}
