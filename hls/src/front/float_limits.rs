//! `[limits]` on a float class whose shared unit would have no pipeline
//! stage at the clock: a shared unit registers its result (its operands
//! change with the next user), which a combinational float operator
//! cannot do, so such a limit is refused with a warning saying why and
//! each operation of the class keeps its own unit.

use crate::directives::{Directives, Log};
use crate::float::choose_latency;
use crate::kernel::{Kernel, Op};
use silica_ir::Context;

/// Drops from `kernel`'s limits every float class whose shared operator
/// is combinational at `clock_ns`, with a warning at its directive.
pub fn refuse_combinational_float_limits(
    ctx: &mut Context,
    kernel: &mut Kernel,
    directives: &Directives,
    clock_ns: f64,
    log: &mut Log,
) {
    let mut refused = Vec::new();
    for (class, _) in &kernel.limits {
        let shared = (0..kernel.nodes.len()).find_map(|n| match kernel.nodes[n].op {
            Op::Float(o) if kernel.limited(n).is_some_and(|(c, _)| c == class) => {
                Some(o.shared_unit())
            }
            _ => None,
        });
        if let Some(o) = shared {
            if choose_latency(ctx, o, clock_ns).latency == 0 {
                refused.push((class.clone(), o));
            }
        }
    }
    for (class, o) in refused {
        kernel.limits.retain(|(c, _)| *c != class);
        if let Some(s) = directives.limits.get(&class) {
            log.refused(
                s,
                "limits",
                format!("{class} = {}", s.value),
                format!(
                    "a shared unit registers its result, but at a {clock_ns} ns clock {} has no \
                     pipeline stage; each {class} operation keeps its own unit",
                    o.module_name(0)
                ),
            );
        }
    }
}
