//! The flow driven from one stage to the next: the top function lifted
//! (`front`), scheduled and rewritten (`schedule`, `rewrite`), built
//! (`construct`) and estimated (`estimate`), fitted to its device
//! (`fit`) by building the lifted kernel again under unit limits, and
//! built again with deeper float pipelines where an estimate finds their
//! first stages late. [`build`] gives the design the flow keeps with its
//! circuit, which the crate root wraps and emits.

use super::design::{Callee, Clock, Construction, Estimated, Lifted, Remarks, Scheduled};
use crate::float::Operator;
use crate::flow::analysis::constant_product;
use crate::flow::construct::stream::{self, Streams};
use crate::flow::estimate::{self, CircuitEstimate};
use crate::flow::schedule::figures::figures;
use crate::flow::schedule::floats::FloatChoices;
use crate::flow::schedule::Schedules;
use crate::flow::{analysis, fit, front, rewrite, schedule};
use crate::model::directives::{Directives, Origin, LIMITED_CLASSES};
use crate::model::interface::{self, Interface, Port};
use crate::model::ip::Ip;
use crate::model::kernel::Kernel;
use crate::model::options::{FrontStep, Options, Stage, Wrapper};
use crate::model::register_map::RegisterMap;
use crate::model::target::library::{class_of, Library};
use silica_ir::printer::module_text;
use silica_ir::{Context, Diagnostic, Ir, OpId};
use std::collections::BTreeMap;

/// A design estimated, with the circuit it was estimated on (the top's
/// `hw.module` in `module` of `circuit`) and the hand-written modules
/// the circuit instantiates: what the crate root wraps and emits.
pub struct Built {
    pub estimated: Estimated,
    pub circuit: Ir,
    pub module: OpId,
    pub ips: Vec<Ip>,
    /// The output of the stage `Options::dump_after` names.
    pub dump: Option<String>,
}

/// The flow: `opts.top` of the module `module` of `ir` lifted and built
/// ([`fitted`]), with the output of the stage `opts.dump_after` names.
pub fn build(
    ctx: &mut Context,
    ir: &Ir,
    module: OpId,
    opts: &Options,
) -> Result<Built, Box<Diagnostic>> {
    let lifted = lift(ctx, ir, module, opts, &[], &BTreeMap::new())?;
    let first = reserving(ctx, ir, module, opts, &lifted, &BTreeMap::new())?;
    let (lifted, first, banks_note) = fit_block_rams(ctx, (ir, module), opts, lifted, first)?;
    let mut built = fitted(ctx, ir, module, opts, &lifted, first)?;
    built.estimated.remarks.notes.extend(banks_note);
    // What fitting left over the device (it shares units; nothing it
    // does lowers the BRAMs).
    let device = opts.target.device();
    for limit in fit::limits(device, &built.estimated.summary()) {
        if let Some(message) = fit::limit_warning(device, &limit) {
            built.estimated.remarks.warnings.push(Diagnostic {
                severity: silica_ir::diag::Severity::Warning,
                loc: built.estimated.scheduled.kernel.loc,
                message,
                notes: Vec::new(),
            });
        }
    }
    built.dump = match opts.dump_after {
        Some(Stage::Schedule) => {
            let s = &built.estimated.scheduled;
            Some(schedule::dump::text(&s.kernel, &s.schedules))
        }
        Some(Stage::Construct) => Some(module_text(ctx, &built.circuit, built.module)),
        _ => lifted.dump,
    };
    Ok(built)
}

/// How many times the banks derived for on-chip copies are halved where
/// the device's block RAMs do not hold them ([`fit_block_rams`]).
const BANK_HALVINGS: u32 = 3;

/// The kernel lifted again where `opts.fit` asks for it and `first`, built
/// from `lifted`, needs more block RAMs than the device has while
/// on-chip copies have banks the flow derived (for the unrolled accesses:
/// a bank a copy, where the units the device holds may leave the copies
/// cycles apart anyway): their banks are halved (to a divisor, so that
/// an access's bank stays fixed), up to [`BANK_HALVINGS`] times, and the first design whose
/// block RAMs the device holds is kept, with the report's note saying so;
/// else `lifted` and `first`.
fn fit_block_rams(
    ctx: &mut Context,
    (ir, module): (&Ir, OpId),
    opts: &Options,
    lifted: Lifted,
    first: Built,
) -> Result<(Lifted, Built, Option<String>), Box<Diagnostic>> {
    let device = opts.target.device();
    let brams = |b: &Built| b.estimated.summary().bram;
    if !(opts.fit && device.family.is_device()) || brams(&first) <= device.brams {
        return Ok((lifted, first, None));
    }
    let derived = |l: &Lifted, name: &str| {
        (l.directives.arrays.get(name))
            .and_then(|a| a.partition.as_ref())
            .filter(|p| p.origin == Origin::Derived)
            .map(|p| p.value.describe())
    };
    let banked: Vec<String> = (lifted.directives.arrays.keys())
        .filter(|name| derived(&lifted, name).is_some())
        .cloned()
        .collect();
    if banked.is_empty() {
        return Ok((lifted, first, None));
    }
    for halvings in 1..=BANK_HALVINGS {
        let divisors: BTreeMap<String, u64> = (banked.iter())
            .map(|name| (name.clone(), 1 << halvings))
            .collect();
        let fewer = lift(ctx, ir, module, opts, &[], &divisors)?;
        let built = reserving(ctx, ir, module, opts, &fewer, &BTreeMap::new())?;
        if brams(&built) <= device.brams {
            let halved: Vec<String> = (banked.iter())
                .filter_map(|name| {
                    let now = derived(&fewer, name).unwrap_or_else(|| "one bank".into());
                    let was = derived(&lifted, name)?;
                    (now != was).then(|| format!("{name}: {now}, not {was}"))
                })
                .collect();
            let note = format!(
                "block RAM: fewer banks for the unrolled accesses ({}), as the device's {} block RAMs do not hold the {} the design needs with the banks derived",
                halved.join("; "),
                device.brams,
                brams(&first)
            );
            return Ok((fewer, built, Some(note)));
        }
    }
    Ok((lifted, first, None))
}

/// The flow after lifting, fitted to the target device where `opts.fit`
/// asks for it and the design's estimate exceeds the device (`fit`):
/// limits of the classes the directives leave unlimited are chosen on
/// estimates, each choice scheduled and built from the same lifted
/// kernel (lifting does not depend on the limits), and the design kept
/// is returned.
fn fitted(
    ctx: &mut Context,
    ir: &Ir,
    module: OpId,
    opts: &Options,
    lifted: &Lifted,
    first: Built,
) -> Result<Built, Box<Diagnostic>> {
    let device = opts.target.device();
    if !(opts.fit && device.family.is_device()) {
        return Ok(first);
    }
    let tried = |e: &Estimated| fit::Tried {
        estimate: e.summary(),
        latency: e.latency(),
        units: e
            .construction
            .units
            .iter()
            .map(|(c, n, _)| (c.clone(), *n))
            .collect(),
    };
    let start = tried(&first.estimated);
    let budget = fit::Budget {
        device,
        share: opts.fit_share.unwrap_or(fit::MARGIN),
        tries: opts.fit_tries,
    };
    let past_share = opts.fit_share.is_some() && fit::excess(&budget, &start.estimate) > 0.0;
    if !fit::exceeds(device, &start.estimate) && !past_share {
        return Ok(first);
    }
    let free = shareable(&first.estimated.scheduled.kernel);
    let (limits, found) = fit::choose(&budget, &free, start.clone(), |limits| {
        reserving(ctx, ir, module, opts, lifted, limits).map(|b| tried(&b.estimated))
    })?;
    let (limits, mut built) = if limits.is_empty() {
        (limits, first)
    } else {
        // A class may build fewer units than its limit: the limit a user
        // would write for the same design is the units built, unless
        // that lower limit changes the schedule (a pipeline's resource
        // bound comes from the limit), when the searched limits are kept.
        let tight: BTreeMap<String, u32> = limits
            .iter()
            .map(|(c, &n)| {
                let built = found.units.get(c).copied().unwrap_or(n);
                (c.clone(), n.min(built).max(1))
            })
            .collect();
        match reserving(ctx, ir, module, opts, lifted, &tight)? {
            b if tight == limits || b.estimated.latency() == found.latency => (tight, b),
            _ => {
                let b = reserving(ctx, ir, module, opts, lifted, &limits)?;
                (limits, b)
            }
        }
    };
    let kept = tried(&built.estimated).estimate;
    let units = built
        .estimated
        .construction
        .units
        .iter()
        .filter(|(c, _, _)| limits.contains_key(c))
        .map(|(c, n, ops)| fit::Units {
            class: c.clone(),
            units: *n,
            operations: *ops,
        })
        .collect();
    built.estimated.fit = Some(fit::Fit {
        device: device.name.into(),
        fits: fit::excess(&budget, &kept) == 0.0,
        over: fit::beyond(&budget, &kept),
        share: budget.share,
        limits,
        units,
        unfitted: start.estimate,
        unfitted_latency: start.latency,
    });
    Ok(built)
}

/// The classes whose units fitting may share in `k`: those of
/// `LIMITED_CLASSES` without a limit, with their operations, where there
/// are at least two. Multiplications by constants count: they share no
/// unit, but a `mul` limit has datapath rewriting build them as shifts
/// and adds instead of DSP blocks (`rewrite`).
fn shareable(k: &Kernel) -> Vec<(String, u32)> {
    LIMITED_CLASSES
        .iter()
        .filter(|c| k.limit(c).is_none())
        .map(|&c| {
            let ops = k.nodes.iter().filter(|n| class_of(n.op) == c).count();
            (c.to_string(), ops as u32)
        })
        .filter(|&(_, ops)| ops > 1)
        .collect()
}

/// The clock of a design ([`Options::clock_ns`]) with the options'
/// uncertainty; an error at the module where the period is not a
/// positive number or the uncertainty leaves none of it.
pub(crate) fn clock_of(
    ir: &Ir,
    module: OpId,
    directives: &Directives,
    opts: &Options,
) -> Result<Clock, Box<Diagnostic>> {
    let clock_ns = directives.clock_ns.unwrap_or_else(|| opts.clock_ns());
    let uncertainty_ns = opts.clock_uncertainty_ns;
    let error = |m: String| Err(Box::new(Diagnostic::error(ir.op_loc(module), m)));
    if !(clock_ns > 0.0 && clock_ns.is_finite()) {
        return error(format!(
            "clock period {clock_ns} ns is not a positive number"
        ));
    }
    if !(uncertainty_ns >= 0.0 && uncertainty_ns < clock_ns) {
        return error(format!(
            "clock uncertainty {uncertainty_ns} ns is not between 0 and the clock period of {clock_ns} ns"
        ));
    }
    Ok(Clock {
        asked_ns: clock_ns,
        uncertainty_ns,
        default: directives.clock_ns.is_none() && !opts.clock_asked(),
    })
}

/// Lifts `opts.top` of the module `module` of `ir` (see [`Lifted`]),
/// its float operators' first stages keeping `reserves` for the logic
/// before their operands, the banks derived for each on-chip copy
/// divided by its `bank_divisors` entry.
pub(crate) fn lift(
    ctx: &mut Context,
    ir: &Ir,
    module: OpId,
    opts: &Options,
    reserves: &[(Operator, f64)],
    bank_divisors: &BTreeMap<String, u64>,
) -> Result<Lifted, Box<Diagnostic>> {
    let lib = opts.target.library();
    let mut floats = FloatChoices::reserving(reserves);
    let func = front::find_top(ctx, ir, module, &opts.top)?;
    let mut directives =
        front::directives::resolve(ctx, ir, func, &opts.top, opts.directives.as_ref())?;
    directives.bank_divisors.clone_from(bank_divisors);
    let clock = clock_of(ir, module, &directives, opts)?;
    let clock_ns = clock.scheduled_ns();
    for f in front::call_order(ctx, ir, func)? {
        front::out_of_bounds(ctx, ir, f)?;
    }
    let mut remarks = Remarks {
        warnings: front::call_order(ctx, ir, func)?
            .into_iter()
            .flat_map(|f| front::uninitialised_reads(ctx, ir, f))
            .collect(),
        notes: front::call_order(ctx, ir, func)?
            .into_iter()
            .flat_map(|f| front::data_dependent_accesses(ctx, ir, f))
            .collect(),
        ..Remarks::default()
    };
    // Directives that rewrite loops act on a copy: the input stays as
    // written for the co-simulation's software side.
    let mut work = ir.clone();
    front::returned_buffers_to_arguments(ctx, &mut work, func)?;
    for f in front::call_order(ctx, &work, func)? {
        silica_linalg::lower::linalg_to_affine_loops(ctx, &mut work, f)?;
        remarks.notes.extend(front::structure(ctx, &mut work, f)?);
        front::while_to_for(ctx, &mut work, f);
    }
    remarks
        .notes
        .extend(front::inline::guarded_calls(ctx, &mut work, func));
    // The directives as attributes, as the `hls-directives` pass writes
    // them: each step sees what a pipeline of its passes would.
    front::directives::write_attributes(ctx, &mut work, func, &opts.top, &directives);
    let mut dump = None;
    for step in FrontStep::ALL {
        if step == FrontStep::LineBuffer && !opts.line_buffers {
            continue;
        }
        front::passes::run(
            step,
            ctx,
            &mut work,
            (func, &opts.top),
            &mut directives,
            (&mut remarks.directives, &mut remarks.notes),
        );
        if opts.dump_after == Some(Stage::Front(step)) {
            dump = Some(module_text(ctx, &work, module));
        }
    }
    let ir = &work;
    // Callees first, each a module of its own (without directives, which
    // name the top's loops and arrays); the top last.
    let order = front::call_order(ctx, ir, func)?;
    let none = Directives::default();
    let mut callees: Vec<Callee> = Vec::new();
    let mut ips = Vec::new();
    let mut callee_rewrites = Vec::new();
    for &f in &order[..order.len() - 1] {
        if front::ip::ip_module(ctx, ir, f).is_some() {
            let ip = front::ip::declaration(ctx, ir, f)?;
            opts.ip
                .check(&ip)
                .map_err(|m| Box::new(Diagnostic::error(ir.op_loc(f), m)))?;
            ips.push(ip);
            continue;
        }
        let name = front::function_name(ctx, ir, f);
        let mut k = lift_calling(ctx, ir, f, &name, opts.pipeline, &none, &callees)?;
        let (s, n, outcome) =
            schedule_rewritten(ctx, ir, &mut k, (lib, &mut floats), clock_ns, opts.rewrite)?;
        callee_rewrites.push((name, outcome));
        remarks.notes.extend(n);
        let figures = figures(&k, &s);
        callees.push(Callee {
            kernel: k,
            schedules: s,
            figures,
        });
    }
    let mut kernel = lift_calling(
        ctx,
        ir,
        func,
        &opts.top,
        opts.pipeline,
        &directives,
        &callees,
    )?;
    let multiplications = analysis::muls::executed(&kernel);
    let workload = analysis::work::of(&kernel);
    front::flatten(&mut kernel, &directives, &mut remarks.directives);
    let mut interface = interface::build(ctx, ir, func, lib.device.name, clock.asked_ns)?;
    let limits = front::PortLimits {
        max_bits: opts.max_port_bits,
        wrapper: opts.wrapper,
    };
    front::memories(
        &mut kernel,
        &mut interface,
        &directives,
        limits,
        &mut remarks.directives,
    );
    front::dataflow(
        &mut kernel,
        &mut interface,
        &directives,
        &mut remarks.directives,
    );
    front::widen(&mut kernel);
    schedule::exclusive::merge_exclusive_accesses(&mut kernel);
    schedule::predicated::predicate_needed_loads(&mut kernel);
    Ok(Lifted {
        work,
        func,
        directives,
        clock,
        callees,
        callee_rewrites,
        ips,
        kernel,
        multiplications,
        workload,
        interface,
        floats,
        remarks,
        dump,
    })
}

/// How many times the flow runs again for float operators whose first
/// stage misses the clock after their operands' logic ([`reserving`]).
const RESERVE_PASSES: usize = 2;

/// The flow after lifting, for the limits `auto_limits`: `lifted` built
/// ([`build_lifted`]). Where the built design's estimate has a float
/// operator's first stage miss the clock after the logic before its
/// operands (a shared unit's operand multiplexer), the kernel is lifted
/// again with that logic kept out of the stage's budget
/// ([`FloatChoices::late_inputs`]) and built, so the operator gets a
/// deeper pipeline; the new design is kept where its predicted period
/// is shorter and meets the clock.
fn reserving(
    ctx: &mut Context,
    ir: &Ir,
    module: OpId,
    opts: &Options,
    lifted: &Lifted,
    auto_limits: &BTreeMap<String, u32>,
) -> Result<Built, Box<Diagnostic>> {
    let lib = opts.target.library();
    let mut reserves: Vec<(Operator, f64)> = Vec::new();
    let mut built = build_lifted(ctx, lifted.clone(), opts, auto_limits)?;
    for _ in 0..RESERVE_PASSES {
        let e = &built.estimated;
        let scheduled_ns = e.clock.scheduled_ns();
        let late = e
            .scheduled
            .floats
            .late_inputs(lib, &e.estimate.float_inputs, scheduled_ns);
        if late.is_empty() {
            break;
        }
        for (o, t) in late {
            match reserves.iter_mut().find(|(x, _)| *x == o) {
                Some(r) => *r = (o, t),
                None => reserves.push((o, t)),
            }
        }
        let relifted = lift(
            ctx,
            ir,
            module,
            opts,
            &reserves,
            &lifted.directives.bank_divisors,
        )?;
        let mut next = build_lifted(ctx, relifted, opts, auto_limits)?;
        let (before, after) = (e.estimate.period_ns, next.estimated.estimate.period_ns);
        // Deeper pipelines cost cycles: worth it only for the clock.
        if after >= before - 1e-6 || after > scheduled_ns + 1e-6 {
            break;
        }
        let names: Vec<String> = reserves
            .iter()
            .filter_map(|&(o, t)| {
                let c = next.estimated.scheduled.floats.latency(o)?;
                Some(format!(
                    "{} after {t:.1} ns of logic before its operands",
                    o.module_name(c.latency)
                ))
            })
            .collect();
        next.estimated.remarks.notes.push(format!(
            "float pipelines deepened for the clock: {}; with the shallower ones the design was predicted at {before:.2} ns ({} cycles), now at {after:.2} ns",
            names.join(", "),
            e.latency()
                .map_or("unknown".to_string(), |l| l.to_string()),
        ));
        built = next;
    }
    Ok(built)
}

/// The flow after lifting: `lifted` scheduled with `auto_limits` added
/// to its limits (those of classes the directives leave unlimited),
/// rewritten, built and estimated.
fn build_lifted(
    ctx: &mut Context,
    lifted: Lifted,
    opts: &Options,
    auto_limits: &BTreeMap<String, u32>,
) -> Result<Built, Box<Diagnostic>> {
    let func = lifted.func;
    let (mut kernel, mut interface) = (lifted.kernel, lifted.interface);
    let (mut floats, mut remarks) = (lifted.floats, lifted.remarks);
    let lib = opts.target.library();
    for (class, &n) in auto_limits {
        if kernel.limit(class).is_none() {
            kernel.limits.push((class.clone(), n));
        }
    }
    let ir = &lifted.work;
    let clock = lifted.clock;
    let clock_ns = clock.scheduled_ns();
    let (schedules, n, rewritten) = schedule_rewritten(
        ctx,
        ir,
        &mut kernel,
        (lib, &mut floats),
        clock_ns,
        opts.rewrite,
    )?;
    remarks.notes.extend(n);
    schedule::dataflow::log_depths(
        &kernel,
        &schedules,
        &lifted.directives,
        &mut remarks.directives,
    )?;
    let mut parts: Vec<(&Kernel, &Schedules)> = lifted
        .callees
        .iter()
        .map(|c| (&c.kernel, &c.schedules))
        .collect();
    parts.push((&kernel, &schedules));
    let externs: Vec<(String, Vec<Port>)> = lifted
        .ips
        .iter()
        .map(|ip| (ip.module.clone(), ip.ports.clone()))
        .collect();
    // Behind the AXI wrapper, DMA engines between host memory and on-chip
    // tiles leave the host side to the wrapper's master (bursts).
    let streams = if opts.wrapper == Wrapper::Axi {
        let kernels: Vec<&Kernel> = parts.iter().map(|(k, _)| *k).collect();
        stream::plan_all(&kernels)
    } else {
        Streams::default()
    };
    let mut circuit =
        crate::flow::construct::build(ctx, lib, clock_ns, &parts, &externs, &streams)?;
    let streams = streams.top;
    if !streams.is_empty() {
        for s in &streams {
            for r in &s.routes {
                if let Some(m) = interface.memory_mut(&r.memory) {
                    m.streamed = true;
                }
            }
        }
        interface.streams = streams;
        interface::check_port_names(&interface)
            .map_err(|m| Box::new(Diagnostic::error(ir.op_loc(func), m)))?;
    }
    let mut circuit_estimate = estimate_circuit(ctx, &circuit, (lib, &floats), opts, &interface);
    let used = estimate::rams::storage(lib.device, &kernel.memories, &circuit_estimate.rams);
    let relieved = estimate::rams::lut_ram_relief(lib.device, &used, &circuit_estimate.rams);
    if !relieved.is_empty() {
        in_lut_ram(ctx, &mut circuit, &relieved);
        circuit_estimate = estimate_circuit(ctx, &circuit, (lib, &floats), opts, &interface);
        remarks.notes.push(format!(
            "in LUT RAM (ram_style \"distributed\"), as the device's {} block RAMs do not hold {} for the design: {}",
            lib.device.brams,
            used.bram,
            relieved.join(", ")
        ));
    }
    // The AXI wrapper is built at emission: `fpga::implement`
    // synthesizes the core (or its scan wrapper), never the AXI wrapper,
    // and the estimate counts what it builds.
    let axi = match opts.wrapper {
        Wrapper::Axi => Some(
            RegisterMap::new(&interface)
                .map_err(|m| Box::new(Diagnostic::error(ir.op_loc(func), m)))?,
        ),
        Wrapper::Ports | Wrapper::Shell => None,
    };
    let figures = figures(&kernel, &schedules);
    let directives = &lifted.directives;
    schedule::log_pipeline_directives(&kernel, &schedules, directives, &mut remarks.directives);
    for (class, units, ops) in &circuit.units {
        if let Some(s) = directives.limits.get(class) {
            remarks.directives.honoured(
                s,
                "limits",
                format!("{class} = {}", s.value),
                format!("{ops} {class} operation(s) on {units} unit(s)"),
            );
        }
    }
    let construction = Construction {
        register_bits: circuit.register_bits,
        units: circuit.units.clone(),
        products: circuit.products,
        dma_engines: circuit.dma_busy.len(),
        dma_probe: circuit.dma_probe(&kernel),
        states: circuit.states.clone(),
    };
    let estimated = Estimated {
        target: opts.target.clone(),
        clock,
        interface,
        scheduled: Scheduled {
            kernel,
            schedules,
            floats,
            figures,
            rewrite: rewritten,
        },
        callee_rewrites: lifted.callee_rewrites,
        multiplications: lifted.multiplications,
        workload: lifted.workload,
        construction,
        estimate: circuit_estimate,
        fit: None,
        wrapper: opts.wrapper,
        axi,
        remarks,
    };
    Ok(Built {
        estimated,
        circuit: circuit.ir,
        module: circuit.module,
        ips: lifted.ips,
        dump: None,
    })
}

/// Marks the `seq.firmem`s of `circuit` named in `names` for LUT RAM
/// (`sv.ram_style = "distributed"`).
fn in_lut_ram(ctx: &mut Context, circuit: &mut crate::flow::construct::Circuit, names: &[String]) {
    let mut marked = Vec::new();
    let ir = &circuit.ir;
    ir.walk(circuit.module, &mut |op| {
        if ctx.str(ir.op_name(op)) == "seq.firmem"
            && silica_hw_dialects::seq::memory_ops::memory_name(ctx, ir, op)
                .is_some_and(|n| names.contains(&n))
        {
            marked.push(op);
        }
    });
    let style = ctx.string_attr(b"distributed");
    for op in marked {
        silica_ir::dialect::set_discardable_attr(
            ctx,
            &mut circuit.ir,
            op,
            silica_hw_dialects::seq::memory_ops::RAM_STYLE,
            style,
        );
    }
}

/// The estimate of a built circuit as `fpga::implement` builds it.
/// Ports that are the package's pins (no shell or scan chains, as
/// `fpga::implement` decides) start and end no timed path. A board
/// shell holds the core's ports itself: neither on pins nor behind the
/// scan wrapper. With the AXI wrapper, `fpga::implement` still puts the
/// core's ports on the pins or, where they outnumber them, behind the
/// scan wrapper (the core is its top), so both count as without it, and
/// the AXI wrapper is not estimated.
fn estimate_circuit(
    ctx: &Context,
    circuit: &crate::flow::construct::Circuit,
    (lib, floats): (&Library, &FloatChoices),
    opts: &Options,
    interface: &Interface,
) -> CircuitEstimate {
    let shell = opts.wrapper == Wrapper::Shell;
    let device = lib.device;
    let pins = (!shell && device.io > 0 && interface.port_bits() <= device.io)
        .then_some(interface.top.as_str());
    let mut e = estimate::estimate(ctx, &circuit.ir, circuit.module, (lib, floats), pins);
    e.add_dividers(&circuit.dividers, lib);
    if let Some(w) = (!shell)
        .then(|| estimate::scan::wrapper(ctx, &circuit.ir, circuit.module, interface, lib))
        .flatten()
    {
        e.add_scan(w, lib);
    }
    e
}

/// Datapath rewriting (`enabled`) of the scheduled kernel `kernel`: the
/// rewritten copy is scheduled, and kept, with its schedules and notes
/// (`scheduled`), where its schedule is better. Where shared multipliers
/// bound a pipeline's II, the copy is rewritten to the fewest products
/// (fewer products lower that II, a shorter path only the depth).
fn rewrite_scheduled(
    ctx: &mut Context,
    ir: &Ir,
    kernel: &mut Kernel,
    scheduled: (&mut Schedules, &mut Vec<String>),
    (lib, floats): (&Library, &mut FloatChoices),
    clock_ns: f64,
    enabled: bool,
) -> rewrite::Outcome {
    let (schedules, notes) = scheduled;
    let mut outcome = rewrite::Outcome {
        enabled,
        ..rewrite::Outcome::default()
    };
    if !enabled {
        return outcome;
    }
    let settings = rewrite::Settings {
        lib,
        clock_ns,
        scarce: constant_product::scarce(kernel, lib),
        count_shared: products_bound_an_ii(kernel, schedules),
        schedules,
    };
    let mut candidate = kernel.clone();
    let changes = rewrite::rewrite_kernel(&mut candidate, &settings);
    if changes.is_empty() {
        return outcome;
    }
    // A candidate that fails to schedule is simply not kept.
    if let Ok((s, n)) = schedule_narrowed(ctx, ir, &mut candidate, (lib, floats), clock_ns) {
        let before = rewrite::Summary::of(kernel, schedules, lib, clock_ns);
        let after = rewrite::Summary::of(&candidate, &s, lib, clock_ns);
        outcome.kept = after.better_than(&before);
        if outcome.kept {
            *kernel = candidate;
            *schedules = s;
            *notes = n;
        }
        outcome.before = Some(before);
        outcome.after = Some(after);
        outcome.changes = changes;
    }
    outcome
}

/// Whether the products of two variables on shared multipliers bound the
/// II of a pipelined loop of `k` as scheduled (`s`): its II is above 1
/// and no more than their turns on the units.
fn products_bound_an_ii(k: &Kernel, s: &Schedules) -> bool {
    let Some(units) = k.limit("mul").map(|u| u.max(1)) else {
        return false;
    };
    let mut products = vec![0u32; k.loops.len()];
    for n in 0..k.nodes.len() {
        let (Some(("mul", _)), Some(l)) = (k.limited(n), k.pipelined_loop_of(k.nodes[n].block))
        else {
            continue;
        };
        products[l] += 1;
    }
    (s.pipes.iter().zip(&products)).any(|(p, &n)| {
        p.as_ref()
            .is_some_and(|p| p.ii > 1 && p.ii <= n.div_ceil(units))
    })
}

/// Lifts function `func` (named `name`), whose callees are scheduled in
/// `callees`: its calls take their latencies.
fn lift_calling(
    ctx: &mut Context,
    ir: &Ir,
    func: OpId,
    name: &str,
    pipeline: bool,
    directives: &Directives,
    callees: &[Callee],
) -> Result<Kernel, Box<Diagnostic>> {
    let mut kernel = front::lift_function(ctx, ir, func, name, pipeline, directives)?;
    for call in &mut kernel.calls {
        if let Some(c) = callees.iter().find(|c| c.kernel.name == call.callee) {
            call.latency = c.figures.latency;
            call.latency_min = c.figures.latency_min;
        }
    }
    Ok(kernel)
}

/// Narrows `index`, finds the carried memory dependences and schedules
/// a lifted kernel, then rewrites its datapath where that gains
/// (`rewrite`, where `rewrite` is on); gives the schedules, the notes
/// scheduling made and what rewriting did.
fn schedule_rewritten(
    ctx: &mut Context,
    ir: &Ir,
    kernel: &mut Kernel,
    (lib, floats): (&Library, &mut FloatChoices),
    clock_ns: f64,
    rewrite: bool,
) -> Result<(Schedules, Vec<String>, rewrite::Outcome), Box<Diagnostic>> {
    analysis::ranges::narrow_index(kernel);
    let (mut schedules, mut notes) = schedule_narrowed(ctx, ir, kernel, (lib, floats), clock_ns)?;
    let outcome = rewrite_scheduled(
        ctx,
        ir,
        kernel,
        (&mut schedules, &mut notes),
        (lib, floats),
        clock_ns,
        rewrite,
    );
    Ok((schedules, notes, outcome))
}

/// Schedules a kernel whose `index` width is fixed (see
/// [`schedule_rewritten`]), choosing its float operators' latencies first.
fn schedule_narrowed(
    ctx: &mut Context,
    ir: &Ir,
    kernel: &mut Kernel,
    (lib, floats): (&Library, &mut FloatChoices),
    clock_ns: f64,
) -> Result<(Schedules, Vec<String>), Box<Diagnostic>> {
    floats.choose(ctx, lib, kernel, clock_ns);
    let memory_deps = pipelined_dependences(ctx, ir, kernel);
    let loc = kernel.loc;
    schedule::schedule_kernel(kernel, lib, floats, clock_ns, &memory_deps)
        .map_err(|m| Box::new(Diagnostic::error(loc, format!("scheduling failed: {m}"))))
}

/// The carried memory dependences of each pipelined loop of `kernel`
/// (none for the others).
pub(crate) fn pipelined_dependences(
    ctx: &mut Context,
    ir: &Ir,
    kernel: &Kernel,
) -> Vec<Vec<analysis::deps::MemDep>> {
    (0..kernel.loops.len())
        .map(|l| {
            if kernel.loops[l].pipelined {
                let nodes = kernel.body_nodes(l);
                analysis::deps::loop_dependences(ctx, ir, kernel, l, &nodes)
            } else {
                Vec::new()
            }
        })
        .collect()
}
