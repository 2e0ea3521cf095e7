//! How much of a design's DMA time its computation hides, measured in
//! silica's simulator: the design is run on the co-simulation's inputs
//! and every cycle from `start` to `done` is classified by the
//! controller's `state` register (computing: neither idle nor in a DMA
//! operation's state; waiting: in a `dma_wait` state, or in the drain
//! state before `done`) and the DMA
//! engines' busy registers (a transfer active, a word in flight or
//! held).

use super::stimuli::Stimuli;
use super::{silica_sim, CosimError, Options};
use crate::flow::construct::DmaProbe;
use crate::flow::report::dma::Overlap;
use crate::model::interface::Interface;
use silica_hw_dialects::sim::ModuleSim;
use silica_ir::dialect::inherent_attr;
use silica_ir::{AttrKind, Context, Ir, OpId};

/// Reads the probed registers each cycle.
pub struct Observer {
    state: Option<OpId>,
    busy: Vec<OpId>,
    probe: DmaProbe,
    pub overlap: Overlap,
}

/// The register named `name` in `module`.
fn register(ctx: &Context, ir: &Ir, module: OpId, name: &str) -> Option<OpId> {
    let mut found = None;
    ir.walk(module, &mut |op| {
        if found.is_none() && ctx.str(ir.op_name(op)) == "seq.compreg" {
            if let Some(AttrKind::String { value, .. }) =
                inherent_attr(ctx, ir, op, "name").map(|a| ctx.attr_kind(a))
            {
                if String::from_utf8_lossy(value) == name {
                    found = Some(op);
                }
            }
        }
    });
    found
}

impl Observer {
    pub fn new(ctx: &Context, ir: &Ir, module: OpId, probe: &DmaProbe) -> Result<Self, String> {
        let state = register(ctx, ir, module, "state");
        let busy = probe
            .busy
            .iter()
            .map(|n| {
                register(ctx, ir, module, n)
                    .ok_or_else(|| format!("the design has no register '{n}'"))
            })
            .collect::<Result<_, _>>()?;
        Ok(Observer {
            state,
            busy,
            probe: probe.clone(),
            overlap: Overlap::default(),
        })
    }

    /// Classifies the current cycle.
    pub fn observe(&mut self, sim: &ModuleSim) {
        let value = |op: OpId| sim.register(op).map(|b| b.value().clone());
        let state = self
            .state
            .and_then(value)
            .and_then(|v| u32::try_from(v).ok())
            .unwrap_or(0);
        let dma = self
            .busy
            .iter()
            .any(|&r| value(r).is_some_and(|v| v != 0u8.into()));
        let in_dma =
            self.probe.start_states.contains(&state) || self.probe.wait_states.contains(&state);
        let compute = state != crate::flow::construct::control::IDLE && !in_dma;
        let o = &mut self.overlap;
        o.cycles += 1;
        o.compute += u64::from(compute);
        o.dma += u64::from(dma);
        o.both += u64::from(compute && dma);
        o.waiting += u64::from(self.probe.wait_states.contains(&state));
    }
}

/// Runs `design_module` of `design` in silica's simulator on the inputs
/// of seed `seed` and classifies its cycles.
pub fn measure(
    ctx: &Context,
    design: &Ir,
    design_module: OpId,
    iface: &Interface,
    probe: &DmaProbe,
    seed: u64,
    options: &Options,
) -> Result<Overlap, CosimError> {
    let stimuli = Stimuli::generate(iface, seed, options).map_err(CosimError::Input)?;
    let mut observer =
        Observer::new(ctx, design, design_module, probe).map_err(CosimError::Hardware)?;
    silica_sim::run_observed(
        ctx,
        design,
        design_module,
        iface,
        &stimuli,
        options.max_cycles,
        Some(&mut observer),
    )?;
    Ok(observer.overlap)
}
