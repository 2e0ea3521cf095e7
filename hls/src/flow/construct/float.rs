//! Float operators in the circuit: every float operator the kernel uses
//! gets its pipelined `hw.module` (`crate::float`, at the latency the
//! schedule gave it) beside the top module, and each float node is an
//! `hw.instance` of it whose operands are the node's inputs as seen where
//! it starts; its result is valid `latency` cycles later, where the
//! schedule expects it. Operations sharing a unit (`[limits]`) share one
//! instance of the unit's operator (`datapath.rs`).

use super::Builder;
use crate::flow::schedule::Schedules;
use crate::model::kernel::{Kernel, NodeId, Op, Operator};
use silica_ir::{Context, Diagnostic, Ir, OpId, ValueId};

/// Creates, in the `builtin.module` `top`, the operator modules of every
/// float node of `k` at its scheduled latency.
pub fn operator_modules(
    ctx: &mut Context,
    ir: &mut Ir,
    top: OpId,
    k: &Kernel,
    s: &Schedules,
) -> Result<(), Box<Diagnostic>> {
    for (n, node) in k.nodes.iter().enumerate() {
        if let Op::Float(o) = node.op {
            let o = match k.limited(n) {
                Some(_) => o.shared_unit(),
                None => o,
            };
            crate::float::operator_module(ctx, ir, top, o, s.latency[n])?;
        }
    }
    Ok(())
}

impl Builder<'_, '_> {
    /// An instance of `o`'s module at node `n`'s latency on `args`.
    pub(super) fn float_instance(&mut self, n: NodeId, o: Operator, args: &[ValueId]) -> ValueId {
        let latency = self.s.latency[n];
        let module = o.module_name(latency);
        let mut operands = Vec::new();
        let mut names = Vec::new();
        if latency > 0 {
            operands.push(self.hw.clock);
            names.push("clock");
        }
        for (&a, (name, _)) in args.iter().zip(o.operands()) {
            operands.push(a);
            names.push(name);
        }
        let instance = format!("{}_{n}", module.trim_start_matches("silica_"));
        let result = ("result", self.hw.int(o.result_width()));
        let op = self
            .hw
            .instance(&module, &instance, &operands, &names, &[result]);
        self.hw.ir.result(op, 0)
    }
}
