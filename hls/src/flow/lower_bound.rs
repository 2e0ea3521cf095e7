//! Least figures of a design before scheduling ([`lower_bound`]): what
//! `silica dse` prunes points by. The kernel is lifted as the flow
//! lifts it (kept in [`Lifts`] for the points that lift to the same
//! one) and bounded by `analysis::bound`.

use super::lifts::{self, Entry, Lifts};
use super::run::{clock_of, lift, pipelined_dependences};
use crate::flow::analysis::{bound, ranges};
use crate::flow::estimate::rams;
use crate::flow::front;
use crate::flow::schedule::floats::FloatChoices;
use crate::flow::schedule::problem::ProblemBuilder;
use crate::model::kernel::Op;
use crate::model::options::Options;
use silica_ir::{Context, Diagnostic, Ir, OpId};

/// Least figures of a design, found before scheduling.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LowerBound {
    /// At most the static latency the schedule gives (or the cycles a
    /// design with DMA runs).
    pub latency_cycles: u64,
    /// The block RAMs the estimate counts, with each RAM written through
    /// one port (a second writer takes as many blocks or more).
    pub bram: u64,
    /// The DSP blocks of the one multiplier every design of the kernel
    /// keeps ([`bound::narrowest_product`]; 0 without).
    pub dsp: u64,
    /// Its LUTs, and the loop counters' adders on a path of the loop tree
    /// ([`bound::counter_luts`]).
    pub lut: u64,
    /// The clock period the design is asked to run at (the estimate's
    /// period is never shorter).
    pub clock_ns: f64,
}

/// Lifts `opts.top` with its directives and bounds what the flow would
/// estimate of it from below ([`bound`]), without scheduling it. The
/// lifted kernel is kept in `lifts` for the points that lift to the
/// same one; `input` names `ir` there (the same name for the same IR).
pub fn lower_bound(
    ctx: &mut Context,
    ir: &Ir,
    module: OpId,
    opts: &Options,
    lifts: &mut Lifts,
    input: &str,
) -> Result<LowerBound, Box<Diagnostic>> {
    let func = front::find_top(ctx, ir, module, &opts.top)?;
    let directives =
        front::directives::resolve(ctx, ir, func, &opts.top, opts.directives.as_ref())?;
    let clock = clock_of(ir, module, &directives, opts)?;
    let clock_ns = clock.scheduled_ns();
    let lib = opts.target.library();
    let key = lifts::key(input, lib.device.name, opts.pipeline, &directives);
    let lift = |ctx: &mut Context| {
        let mut lifted = lift(ctx, ir, module, opts, &[], &Default::default())?;
        let callees = !lifted.callees.is_empty();
        // As the flow schedules it.
        ranges::narrow_index(&mut lifted.kernel);
        let deps = pipelined_dependences(ctx, &lifted.work, &lifted.kernel);
        let entry = Entry {
            kernel: lifted.kernel,
            deps,
        };
        Ok((entry, callees))
    };
    lifts.with(ctx, key, clock_ns, lift, |entry, floats| {
        entry.kernel.limits = lifts::limits(&directives);
        let kernel = &entry.kernel;
        // The sure cycles of a node on a recurrence: a float operation's
        // chosen latency, a divider's stages, a load's cycle.
        let none = FloatChoices::default();
        let problem = ProblemBuilder::new(kernel, (lib, &none), clock_ns, true);
        let mut cycles = |n: usize| match kernel.nodes[n].op {
            Op::Float(_) => floats.cycles(kernel, lib, n),
            Op::Load(_) => 1,
            Op::DivS | Op::DivU | Op::RemS | Op::RemU => {
                problem.latency_of_node(n).map_or(0, u64::from)
            }
            _ => 0,
        };
        let recurrences: Vec<u64> = (0..kernel.loops.len())
            .map(|l| {
                if kernel.loops[l].pipelined {
                    bound::recurrence(kernel, l, &entry.deps[l], &mut cycles)
                } else {
                    0
                }
            })
            .collect();
        let product = bound::narrowest_product(kernel);
        LowerBound {
            latency_cycles: bound::latency(kernel, &recurrences),
            bram: rams::storage(lib.device, &kernel.memories, &[]).bram,
            dsp: product.and_then(|w| lib.dsps("mul", w)).unwrap_or(0),
            lut: product
                .and_then(|w| lib.luts("mul", w))
                .map_or(0, |l| l.max(0.0).floor() as u64)
                + bound::counter_luts(kernel, lib),
            clock_ns: clock.asked_ns,
        }
    })
}
