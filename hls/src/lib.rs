//! High-level synthesis (`silica hls`): a `func.func` over memrefs and
//! scalars in the affine/arith/memref dialects becomes a scheduled,
//! pipelined circuit in hw/comb/seq that keeps the brief's port contract.
//!
//! The crate is arranged in stages, each importing only those before it
//! (`tests/layering.rs` checks it):
//!
//! - `float`: the IEEE-754 operators as pipelined circuits (on their own);
//! - `model`: the kernel model, the target (device and measured operator
//!   library), the interface, the directives, the user's options;
//! - `flow`: front → analysis → schedule → rewrite → construct →
//!   estimate → fit → report, driven by `flow::run`;
//! - `wrappers`: the AXI interface, the board shell, the host code;
//! - `verification`: co-simulation against the software, system runs;
//! - `fpga`: the open FPGA tools, timing and area closure, operator
//!   characterization.
//!
//! [`synthesize`] runs the flow, wraps the core as asked and emits it;
//! [`estimate`] stops before emission.

pub mod float;
pub mod flow;
pub mod fpga;
pub mod model;
#[cfg(test)]
mod test_support;
pub mod verification;
pub mod wrappers;

pub use flow::design::{Design, Estimated, Measurements};
pub use flow::lifts::Lifts;
pub use flow::lower_bound::{lower_bound, LowerBound};
pub use model::options::{Options, Wrapper};
pub use model::target::Target;

use flow::run::Built;
use silica_ir::printer::module_text;
use silica_ir::verify::{verify, VerifyOptions};
use silica_ir::{Context, Diagnostic, Ir, OpId};

/// Synthesizes `opts.top` from the module `module` of `ir`: the flow,
/// the wrapper `opts.wrapper` asks for, and the texts emitted.
pub fn synthesize(
    ctx: &mut Context,
    ir: &Ir,
    module: OpId,
    opts: &Options,
) -> Result<Design, Box<Diagnostic>> {
    let built = flow::run::build(ctx, ir, module, opts)?;
    emit(ctx, built, opts)
}

/// [`synthesize`] without emission: the schedule, the binding and the
/// reports' figures (latency, resource estimate) of a design, as
/// `silica dse`'s `estimate` level evaluates a point.
pub fn estimate(
    ctx: &mut Context,
    ir: &Ir,
    module: OpId,
    opts: &Options,
) -> Result<Estimated, Box<Diagnostic>> {
    flow::run::build(ctx, ir, module, opts).map(|b| b.estimated)
}

/// What the kernel `opts.top` (lifted with `opts`' directives) offers
/// to parallelise on `opts.target`: `--auto`'s space is derived from it.
pub fn profile(
    ctx: &mut Context,
    ir: &Ir,
    module: OpId,
    opts: &Options,
) -> Result<flow::analysis::profile::Profile, Box<Diagnostic>> {
    // The loops as written: no line buffer turns a stencil's nest.
    let opts = &Options {
        line_buffers: false,
        ..opts.clone()
    };
    let lifted = flow::run::lift(ctx, ir, module, opts, &[], &Default::default())?;
    // Jamming is offered only for a loop with one loop inside, or with
    // several that have none inside.
    let mut work = lifted.work.clone();
    let k = &lifted.kernel;
    let inside = |l: &model::kernel::Loop| -> Vec<usize> {
        (l.body.iter())
            .filter_map(|i| match *i {
                model::kernel::Item::Loop(m) => Some(m),
                _ => None,
            })
            .collect()
    };
    let innermost = |m: usize| inside(&k.loops[m]).is_empty();
    let jam_shape = |l: &model::kernel::Loop| match inside(l)[..] {
        [] => false,
        [_] => true,
        ref several => several.iter().all(|&m| innermost(m)),
    };
    let jams: Vec<bool> = (k.loops.iter())
        .map(|l| jam_shape(l) && flow::front::jam_breaks(ctx, &mut work, l.op).is_none())
        .collect();
    let mut p = flow::analysis::profile::of(
        &lifted.kernel,
        opts.target.library(),
        flow::front::flattens,
        &jams,
    );
    // The recurrences through memory of the loops with no loop inside.
    let k = &lifted.kernel;
    for (l, lp) in k.loops.iter().enumerate() {
        if lp
            .body
            .iter()
            .any(|i| matches!(i, model::kernel::Item::Loop(_)))
        {
            continue;
        }
        let nodes = k.body_nodes(l);
        let through_memory: Vec<_> =
            (flow::analysis::deps::loop_dependences(ctx, &lifted.work, k, l, &nodes))
                .into_iter()
                .filter(|d| {
                    matches!(k.nodes[d.src].op, model::kernel::Op::Store(_))
                        && matches!(k.nodes[d.dst].op, model::kernel::Op::Load(_))
                })
                .collect();
        let recurrence = (through_memory.iter())
            .map(|d| u64::from(d.distance.max(1)))
            .min();
        // Float operators at the latency the clock gives them unshared.
        let library = opts.target.library();
        let mut latency = |n: model::kernel::NodeId| match k.nodes[n].op {
            model::kernel::Op::Float(o) => u64::from(
                library
                    .choose_float_latency(ctx, o, opts.clock_ns(), false, 0.0)
                    .latency,
            ),
            _ => 0,
        };
        let mut recurrence_ii = None;
        for d in &through_memory {
            let cycles = flow::analysis::profile::recurrence_cycles(
                k,
                (model::kernel::Val::Node(d.dst), 1),
                &k.nodes[d.src].args,
                &mut latency,
            );
            let ii = cycles.map(|c| c.div_ceil(u64::from(d.distance.max(1))));
            recurrence_ii = recurrence_ii.max(ii);
        }
        for (i, &y) in lp.yields.iter().enumerate() {
            let carried = (model::kernel::Val::Carried(l, i), 0);
            let ii = flow::analysis::profile::recurrence_cycles(k, carried, &[y], &mut latency);
            recurrence_ii = recurrence_ii.max(ii);
        }
        if let Some(entry) = p.loops.iter_mut().find(|e| e.path == lp.path) {
            entry.recurrence = recurrence;
            entry.recurrence_ii = recurrence_ii;
        }
    }
    p.once_jammed = once_jammed(ctx, ir, module, opts, &lifted.kernel, &p);
    Ok(p)
}

/// The kernel lifted again with the memories it accesses twice an
/// element or more buffered: the loops the buffers' copies leave empty
/// (a scaling in place, folded into the copy); and, where a nest cannot
/// be flattened as written, lifted so with the loops inside it that
/// unroll-and-jam keeps jammed fully (one loop inside, a constant trip
/// count) and the nest flattened: the nests that flatten only so.
/// Nothing where a lift fails.
fn once_jammed(
    ctx: &mut Context,
    ir: &Ir,
    module: OpId,
    opts: &Options,
    plain: &model::kernel::Kernel,
    p: &flow::analysis::profile::Profile,
) -> flow::analysis::profile::OnceJammed {
    use std::fmt::Write as _;
    let mut buffers = String::new();
    for m in p.memories.iter().filter(|m| m.accesses >= 2 * m.elements) {
        let _ = writeln!(buffers, "[[array]]\nname = {:?}\nbuffer = true", m.name);
    }
    let mut lift = |text: &str| {
        let file = model::directives::file::parse("(once jammed)", text).ok()?;
        let again = Options {
            directives: Some(file),
            ..opts.clone()
        };
        flow::run::lift(ctx, ir, module, &again, &[], &Default::default()).ok()
    };
    // An innermost loop the lift drops (paths keep their positions).
    let emptied = (!buffers.is_empty())
        .then(|| lift(&buffers))
        .flatten()
        .map_or_else(Vec::new, |lifted| {
            let k = &lifted.kernel;
            (plain.loops.iter())
                .filter(|l| {
                    !l.body
                        .iter()
                        .any(|i| matches!(i, model::kernel::Item::Loop(_)))
                })
                .filter(|l| !k.loops.iter().any(|m| m.path == l.path))
                .map(|l| l.path.clone())
                .collect()
        });
    let nests: Vec<&String> = (p.loops.iter())
        .filter(|l| l.depth == 0 && l.inner > 0 && !l.flattens)
        .map(|l| &l.path)
        .collect();
    let inside = |path: &str| nests.iter().any(|n| path.starts_with(&format!("{n}/")));
    let mut text = buffers;
    let mut jammed = false;
    for l in (p.loops.iter()).filter(|l| l.jams && l.inner == 1 && inside(&l.path)) {
        if let Some(t) = l.trip {
            let _ = writeln!(text, "[[loop]]\nlabel = {:?}\njam = {t}", l.path);
            jammed = true;
        }
    }
    let mut flattened = Vec::new();
    if jammed {
        for path in &nests {
            let _ = writeln!(text, "[[loop]]\nlabel = {path:?}\nflatten = true");
        }
        if let Some(lifted) = lift(&text) {
            let k = &lifted.kernel;
            flattened = (nests.into_iter())
                .filter(|path| (k.loops.iter()).any(|m| m.path == **path && !m.flat.is_empty()))
                .cloned()
                .collect();
        }
    }
    flow::analysis::profile::OnceJammed { flattened, emptied }
}

/// The design of `built` wrapped (`--interface axi`: the AXI wrapper
/// around the core) and emitted: `F.sv`, `F.hw.mlir` and the
/// hand-written modules it instantiates.
fn emit(ctx: &mut Context, built: Built, opts: &Options) -> Result<Design, Box<Diagnostic>> {
    let Built {
        estimated,
        mut circuit,
        module,
        ips,
        dump,
    } = built;
    if let Some(map) = &estimated.axi {
        circuit = wrappers::axi::wrap(
            ctx,
            circuit,
            module,
            &estimated.interface,
            map,
            estimated.scheduled.kernel.loc,
        );
    }
    verify(ctx, &circuit, module, VerifyOptions::default())?;
    let mut verilog = silica_emit_verilog::emit_verilog(
        ctx,
        &circuit,
        module,
        silica_emit_verilog::Options::default(),
    )?;
    let ip_verilog = opts.ip.sources(&ips);
    verilog.push_str(&ip_verilog);
    let hw_mlir = module_text(ctx, &circuit, module);
    Ok(Design {
        estimated,
        verilog,
        hw_mlir,
        ip_verilog,
        dump,
    })
}
