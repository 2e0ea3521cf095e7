//! The properties layouts bytecode uses hold every inherent attribute
//! silica's op definitions declare: none is lost when an op is written.

use silica_bytecode::properties::upstream_layout;
use silica_ir::Context;

/// Attributes silica declares that MLIR's ops do not have: the subgroup
/// and lane id ops share `dimension` with `gpu.thread_id` in silica;
/// `llvm.call`'s `branch_weights` is a discardable attribute in MLIR 22
/// (the writer puts it among the attributes, as mlir-opt-22 does).
const NOT_UPSTREAM: &[(&str, &str)] = &[
    ("llvm.call", "branch_weights"),
    ("gpu.lane_id", "dimension"),
    ("gpu.num_subgroups", "dimension"),
    ("gpu.subgroup_id", "dimension"),
    ("gpu.subgroup_size", "dimension"),
];

#[test]
fn layouts_hold_every_declared_inherent_attribute() {
    let mut ctx = Context::new();
    silica_cli::register_dialects(&mut ctx);
    let mut missing = Vec::new();
    for name in ctx.registered_ops() {
        let def = ctx.op_def_by_name(name).expect("registered");
        let Some(slots) = upstream_layout(name) else {
            continue;
        };
        let sig = def.signature.map(|s| s.attrs).unwrap_or_default();
        let declared = def
            .inherent_attrs
            .iter()
            .copied()
            .chain(sig.iter().map(|a| a.name));
        for attr in declared {
            if !slots.iter().any(|s| s.name() == attr) && !NOT_UPSTREAM.contains(&(name, attr)) {
                missing.push(format!("{name}: {attr}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "not in the layouts:\n{}",
        missing.join("\n")
    );
}
