//! `silica characterize`: measures a target's operator library. Every
//! operator kind the HLS flow instantiates is built as a small registered
//! test design (`design`: hw IR, emitted by the Verilog emitter) at a
//! ladder of widths (integer operators), data widths (RAM) or pipeline
//! latencies (float operator circuits), synthesised, placed and routed
//! by the target's tools (`measure`), and recorded with what the test
//! frame adds subtracted: LUTs, flip-flops, DSPs, block RAMs, and the
//! delay the operator adds to a register-to-register path. The result is
//! the library file `hls/library/<target>.toml` ([`crate::model::target::library`]).

pub mod design;
pub mod measure;

use crate::float::{choose_latency, latency_choices, FloatOp, FloatPredicate, Format, Operator};
use crate::model::target::device::{self, Device};
use crate::model::target::library::{float_kind, LibraryFile, Point, DIVIDER_STAGE};
use design::Circuit;
use measure::Tools;
use silica_ir::Context;

/// The integer operator kinds: name, library class, comb op, predicate,
/// whether the operand is fed by logic (`design`'s docs: multipliers;
/// `mul_reg` is the multiplier straight from registers, which yosys packs
/// into a hard multiplier's input registers).
const INTEGER_KINDS: [(&str, &str, &str, i64, bool); 10] = [
    ("add", "add", "comb.add", 0, false),
    ("sub", "add", "comb.sub", 0, false),
    ("cmp", "cmp", "comb.icmp", 2, false),
    ("shift", "shift", "comb.shl", 0, false),
    ("mux", "mux", "comb.mux", 0, false),
    ("logic", "logic", "comb.and", 0, false),
    ("mul", "mul", "comb.mul", 0, true),
    ("mul_reg", "mul", "comb.mul", 0, false),
    ("div", "div", "comb.divu", 0, false),
    ("rem", "div", "comb.modu", 0, false),
];

/// The kind of a signed division by a constant (3: odd, not a power of
/// two), which yosys folds into a far smaller circuit than a divider.
const DIV_BY_CONSTANT: &str = "div_const";

/// The rows per stage the pipelined divider is measured at.
const DIVIDER_ROWS: [u32; 2] = [2, 4];

/// The kinds of a signed less-than against a constant (a loop bound's
/// compare), which yosys builds without the second operand's logic: one
/// of alternating bits, and a power of two (`design::Circuit::AgainstConstant`).
const CMP_CONSTANT: [(&str, bool); 2] = [("cmp_const", false), ("cmp_pow2", true)];

/// The control and routing kinds (library class `route`): `level`, a
/// chain of `width` LUT levels; `fanout`, one LUT driving the enables of
/// `width` flip-flops; `add_add`, an add of `width` bits reading another
/// (the net between carry chains) (`design::Circuit::Levels`,
/// `Circuit::Enables`, `Circuit::ChainedAdds`).
const ROUTING_KINDS: [(&str, Circuit); 3] = [
    ("level", Circuit::Levels),
    ("fanout", Circuit::Enables),
    ("add_add", Circuit::ChainedAdds),
];

/// The kind of a `width`-bit register read by several adds (library
/// class `route`, its latency the readers, [`READERS`] of them): the
/// nets to the carry chains of an operand's readers
/// (`design::Circuit::Readers`).
pub const WORD_FANOUT: &str = "word_fanout";

/// The readers [`WORD_FANOUT`] is measured at.
const READERS: [u32; 4] = [1, 2, 4, 8];

/// The float operator kinds: name (= library class) and operation.
const FLOAT_KINDS: [(&str, FloatOp); 11] = [
    ("fadd", FloatOp::Add),
    ("fmul", FloatOp::Mul),
    ("fdiv", FloatOp::Div),
    ("fsqrt", FloatOp::Sqrt),
    ("fma", FloatOp::Fma),
    ("fcmp", FloatOp::Cmp(FloatPredicate::Olt)),
    ("fsign", FloatOp::Neg),
    (
        "fconv",
        FloatOp::IntToFloat {
            signed: true,
            int_bits: 32,
        },
    ),
    ("fexp", FloatOp::Exp),
    ("flog", FloatOp::Log),
    ("fpow", FloatOp::Pow),
];

/// Every kind `--kinds` may name (`reg` is the frame's own period).
pub fn kind_names() -> Vec<&'static str> {
    let mut names = vec!["reg"];
    names.extend(INTEGER_KINDS.iter().map(|k| k.0));
    names.push(DIV_BY_CONSTANT);
    names.push(DIVIDER_STAGE);
    names.extend(CMP_CONSTANT.iter().map(|k| k.0));
    names.extend(ROUTING_KINDS.iter().map(|k| k.0));
    names.push(WORD_FANOUT);
    names.push("ram");
    names.extend(FLOAT_KINDS.iter().map(|k| k.0));
    names
}

/// The default width ladder.
pub const WIDTHS: [u32; 5] = [1, 8, 16, 32, 64];

/// Words of the RAM test designs.
const RAM_WORDS: u64 = 256;

/// The pipeline latencies measured per float operator and format (of
/// the useful ones, `float::latency_choices`): evenly spread, the middle
/// one when only one is measured (each float design takes minutes to
/// place and route; the library scales flip-flops with the latency).
pub const FLOAT_DEPTHS: usize = 1;

/// Which pipeline latencies of each float operator are measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Depths {
    /// Up to this many of the useful latencies, evenly spread
    /// ([`FLOAT_DEPTHS`] by default).
    Spread(usize),
    /// The one latency whose stages fit a clock of this period (ns) by
    /// the generator's estimates alone ([`choose_latency`]; the flow
    /// scales them by the measured points,
    /// `crate::model::target::library::Library::choose_float_latency`).
    Clock(f64),
    /// This latency (one of each operator's useful ones): the one the
    /// flow picks on a target whose scaled choice differs from
    /// [`Depths::Clock`]'s.
    Latency(u32),
}

/// One test design to run.
#[derive(Clone, Debug)]
pub struct Job {
    pub kind: String,
    pub class: String,
    pub width: u32,
    pub latency: u32,
    pub circuit: Circuit,
}

impl Job {
    /// The design's module name.
    pub fn name(&self) -> String {
        format!("char_{}_w{}_l{}", self.kind, self.width, self.latency)
    }
}

/// The jobs for `kinds` (all when empty) at `widths`, float kinds in
/// `formats` (`f32`, `f64`) at the latencies `depths` picks.
pub fn jobs(
    ctx: &mut Context,
    kinds: &[String],
    widths: &[u32],
    formats: &[String],
    depths: Depths,
) -> Result<Vec<Job>, String> {
    for k in kinds {
        if !kind_names().contains(&k.as_str()) {
            return Err(format!(
                "unknown operator kind '{k}'; known kinds: {}",
                kind_names().join(", ")
            ));
        }
    }
    let wanted = |k: &str| kinds.is_empty() || kinds.iter().any(|x| x == k);
    let mut jobs = Vec::new();
    let mut push = |kind: &str, class: &str, width, latency, circuit| {
        jobs.push(Job {
            kind: kind.into(),
            class: class.into(),
            width,
            latency,
            circuit,
        })
    };
    if wanted("reg") {
        push("reg", "reg", 8, 0, Circuit::Register);
    }
    for (kind, class, op, predicate, fed_by_logic) in INTEGER_KINDS {
        if wanted(kind) {
            for &w in widths {
                let circuit = Circuit::Comb {
                    op,
                    predicate,
                    fed_by_logic,
                };
                push(kind, class, w, 0, circuit);
            }
        }
    }
    if wanted(DIV_BY_CONSTANT) {
        for &w in widths.iter().filter(|&&w| w >= 3) {
            let circuit = Circuit::ByConstant {
                op: "comb.divs",
                by: 3,
            };
            push(DIV_BY_CONSTANT, "div", w, 0, circuit);
        }
    }
    if wanted(DIVIDER_STAGE) {
        for &w in widths.iter().filter(|&&w| w >= 4) {
            for rows in DIVIDER_ROWS {
                let stages = w.div_ceil(rows);
                push(DIVIDER_STAGE, "div", w, stages, Circuit::Divider { stages });
            }
        }
    }
    for (kind, power_of_two) in CMP_CONSTANT {
        if wanted(kind) {
            for &w in widths.iter().filter(|&&w| w >= 2) {
                let circuit = Circuit::AgainstConstant {
                    predicate: 2,
                    power_of_two,
                };
                push(kind, "cmp", w, 0, circuit);
            }
        }
    }
    for (kind, circuit) in ROUTING_KINDS {
        if wanted(kind) {
            for &w in widths {
                push(kind, "route", w, 0, circuit);
            }
        }
    }
    if wanted(WORD_FANOUT) {
        for &w in widths {
            for readers in READERS {
                push(
                    WORD_FANOUT,
                    "route",
                    w,
                    readers,
                    Circuit::Readers { readers },
                );
            }
        }
    }
    if wanted("ram") {
        for &w in widths.iter().filter(|&&w| w >= 8) {
            push("ram", "ram", w, 1, Circuit::Ram { words: RAM_WORDS });
        }
    }
    for (name, op) in FLOAT_KINDS {
        if !wanted(name) {
            continue;
        }
        for format in [Format::F32, Format::F64] {
            if !formats.iter().any(|f| *f == format.name()) {
                continue;
            }
            let operator = Operator::new(op, format);
            let kind = float_kind(operator);
            let latencies = match depths {
                Depths::Spread(n) => spread(&latency_choices(ctx, operator), n),
                Depths::Clock(ns) => vec![choose_latency(ctx, operator, ns).latency],
                Depths::Latency(l) => vec![useful_latency(ctx, operator, &kind, l)?],
            };
            for latency in latencies {
                push(
                    &kind,
                    name,
                    format.width(),
                    latency,
                    Circuit::Float { operator, latency },
                );
            }
        }
    }
    Ok(jobs)
}

/// `latency` if it is one of `operator`'s useful latencies, else an
/// error listing them.
fn useful_latency(
    ctx: &mut Context,
    operator: Operator,
    kind: &str,
    latency: u32,
) -> Result<u32, String> {
    let all: Vec<String> = latency_choices(ctx, operator)
        .iter()
        .map(|c| c.latency.to_string())
        .collect();
    if all.contains(&latency.to_string()) {
        return Ok(latency);
    }
    Err(format!(
        "latency {latency} is not one of {kind}'s useful latencies ({})",
        all.join(", ")
    ))
}

/// At most `n` of the choices' latencies: the middle one for one, else
/// the first, the last and evenly between.
fn spread(choices: &[crate::float::LatencyChoice], n: usize) -> Vec<u32> {
    let all: Vec<u32> = choices.iter().map(|c| c.latency).collect();
    if all.len() <= n {
        return all;
    }
    if n <= 1 {
        return vec![all[all.len() / 2]];
    }
    let mut picked: Vec<u32> = (0..n).map(|i| all[i * (all.len() - 1) / (n - 1)]).collect();
    picked.dedup();
    picked
}

/// What every delay is relative to: the register-to-register period, and
/// the delay one LUT level adds to it (the `logic` point at width 1),
/// subtracted from operators fed by logic.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Baseline {
    pub register_ns: Option<f64>,
    pub lut_ns: Option<f64>,
}

impl Baseline {
    /// The baseline of an earlier library file's points.
    pub fn of(file: &LibraryFile) -> Baseline {
        Baseline {
            register_ns: Some(file.register_ns),
            lut_ns: file
                .op
                .iter()
                .find(|p| p.kind == "logic" && p.width == 1)
                .map(|p| p.delay_ns),
        }
    }
}

/// Measures `jobs` on `device`, calling `done` with each point as it is
/// measured and the register period (which is measured first, with the
/// one-bit `logic` point before the operators fed by logic: every delay
/// is relative to them).
pub fn characterize(
    ctx: &mut Context,
    tools: &Tools,
    device: &Device,
    jobs: &[Job],
    baseline: Baseline,
    done: &mut dyn FnMut(&Point, Option<f64>),
) -> Result<(), String> {
    let mut baseline = baseline;
    for job in jobs {
        let (ir, top, frame) = design::build(ctx, &job.name(), job.circuit, job.width)?;
        let verilog = design::verilog(ctx, &ir, top)?;
        let m = tools.measure(device, &job.name(), &verilog)?;
        if job.kind == "reg" {
            baseline.register_ns = m.period_ns;
        }
        let reg = baseline
            .register_ns
            .ok_or("measure the register period first (kind 'reg')")?;
        let feeding_ns = if frame.fed_by_logic() {
            baseline
                .lut_ns
                .ok_or("measure one LUT level first (kind 'logic' at width 1)")?
        } else {
            0.0
        };
        let point = Point {
            kind: job.kind.clone(),
            class: job.class.clone(),
            width: job.width,
            latency: job.latency,
            period_ns: m.period_ns.map(round),
            delay_ns: round(m.period_ns.map_or(0.0, |p| (p - reg - feeding_ns).max(0.0))),
            lut: m.lut.saturating_sub(frame.luts()),
            ff: m.ff.saturating_sub(frame.ffs()),
            dsp: m.dsp,
            bram: m.bram,
            note: m.note,
        };
        if job.kind == "logic" && job.width == 1 {
            baseline.lut_ns = Some(point.delay_ns);
        }
        done(&point, baseline.register_ns);
    }
    Ok(())
}

/// Rounds to picoseconds.
fn round(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// A library file for `device` from measured points, the register
/// period and the tools' versions, with the note and default clock of
/// `earlier` (the file measured before, if any).
pub fn library_file(
    device: &Device,
    register_ns: f64,
    tools: String,
    earlier: Option<&LibraryFile>,
    points: Vec<Point>,
) -> LibraryFile {
    LibraryFile {
        target: device.name.to_string(),
        measured_on: device.name.to_string(),
        tools,
        register_ns: round(register_ns),
        default_clock_ns: earlier.and_then(|f| f.default_clock_ns),
        note: earlier.and_then(|f| f.note.clone()),
        op: points,
    }
}

/// The device `target` names, measurable (not `generic`).
pub fn device(target: &str) -> Result<&'static Device, String> {
    let d = device::lookup(target)?;
    if !d.family.is_device() {
        return Err("target 'generic' has no tools to measure; choose a device".into());
    }
    Ok(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn context() -> Context {
        let mut ctx = Context::new();
        silica_hw_dialects::register(&mut ctx);
        ctx
    }

    #[test]
    fn every_kind_has_jobs_and_unknown_kinds_are_refused() {
        let mut ctx = context();
        // The float circuits take long to build at every latency: fadd and
        // fneg stand for them here.
        let kinds: Vec<String> = kind_names()
            .into_iter()
            .filter(|k| !k.starts_with('f') || ["fadd", "fsign"].contains(k))
            .map(String::from)
            .collect();
        let formats = ["f32".to_string(), "f64".to_string()];
        let all = jobs(&mut ctx, &kinds, &[8, 32], &formats, Depths::Spread(3)).unwrap();
        for k in &kinds {
            assert!(
                all.iter().any(|j| &j.kind == k || &j.class == k),
                "no job for {k}"
            );
        }
        // f32 at up to three latencies (the combinational one first), f64
        // at up to two.
        let fadd: Vec<u32> = all
            .iter()
            .filter(|j| j.kind == "fadd_f32")
            .map(|j| j.latency)
            .collect();
        assert_eq!(fadd.len(), 3);
        assert_eq!(fadd[0], 0);
        assert_eq!(
            all.iter().filter(|j| j.kind == "fneg_f64").count(),
            1,
            "fneg has one latency"
        );
        let one: Vec<u32> = jobs(
            &mut ctx,
            &["fadd".into()],
            &[8],
            &formats[..1],
            Depths::Spread(1),
        )
        .unwrap()
        .iter()
        .map(|j| j.latency)
        .collect();
        assert_eq!(one.len(), 1);
        assert!(one[0] > fadd[0] && one[0] < fadd[2], "{one:?} {fadd:?}");
        // At a clock: the estimate's one latency, combinational for a slow
        // clock, pipelined for a fast one.
        let at = |ctx: &mut Context, ns| -> Vec<u32> {
            jobs(
                ctx,
                &["fadd".into()],
                &[8],
                &formats[..1],
                Depths::Clock(ns),
            )
            .unwrap()
            .iter()
            .map(|j| j.latency)
            .collect()
        };
        assert_eq!(at(&mut ctx, 1000.0), [0]);
        let fast = at(&mut ctx, 5.0);
        let operator = Operator::new(FloatOp::Add, Format::F32);
        assert_eq!(fast, [choose_latency(&mut ctx, operator, 5.0).latency]);
        assert!(fast[0] > 0, "{fast:?}");
        // At a given latency: that one, when it is one of the useful ones.
        let third = jobs(
            &mut ctx,
            &["fadd".into()],
            &[8],
            &formats[..1],
            Depths::Latency(fadd[1]),
        )
        .unwrap();
        assert_eq!(
            third.iter().map(|j| j.latency).collect::<Vec<_>>(),
            [fadd[1]]
        );
        let e = jobs(
            &mut ctx,
            &["fadd".into()],
            &[8],
            &formats[..1],
            Depths::Latency(999),
        )
        .unwrap_err();
        assert!(
            e.contains("latency 999 is not one of fadd_f32's useful latencies (0, "),
            "{e}"
        );
        let e = jobs(
            &mut ctx,
            &["fsin".into()],
            &[8],
            &formats,
            Depths::Spread(1),
        )
        .unwrap_err();
        assert!(e.contains("unknown operator kind 'fsin'"), "{e}");
    }

    #[test]
    fn test_designs_verify_and_emit() {
        let mut ctx = context();
        let kinds: Vec<String> = [
            "reg",
            "add",
            "cmp",
            "mux",
            "mul",
            "div_const",
            "cmp_const",
            "cmp_pow2",
            "level",
            "fanout",
            "add_add",
            "word_fanout",
            "ram",
            "fcmp",
            "fconv",
            "div_stage",
        ]
        .map(String::from)
        .to_vec();
        let formats = ["f32".to_string()];
        for job in jobs(&mut ctx, &kinds, &[1, 16], &formats, Depths::Spread(1)).unwrap() {
            if job.kind == "ram" && job.width < 8 {
                continue;
            }
            let (ir, top, frame) =
                design::build(&mut ctx, &job.name(), job.circuit, job.width).unwrap();
            let v = design::verilog(&mut ctx, &ir, top).unwrap();
            assert!(v.contains(&format!("module {}(", job.name())), "{v}");
            assert!(v.contains("scan_out"), "{v}");
            match job.circuit {
                Circuit::Register => assert_eq!(frame.ffs(), 8),
                Circuit::Comb {
                    op: "comb.icmp", ..
                } => {
                    assert_eq!((frame.input_bits, frame.output_bits), (2 * job.width, 1));
                    assert_eq!(frame.luts(), 0);
                }
                Circuit::Ram { .. } => assert!(v.contains("reg [15:0]"), "{v}"),
                // Three operand bits a level, one result bit.
                Circuit::Levels => {
                    assert_eq!(
                        (frame.input_bits, frame.output_bits),
                        (3 * job.width + 1, 1)
                    );
                    assert_eq!(v.matches('^').count(), job.width as usize, "{v}");
                }
                // Two enable bits, the register's bits, which it outputs.
                Circuit::Enables => {
                    assert_eq!(
                        (frame.input_bits, frame.output_bits),
                        (job.width + 2, job.width)
                    );
                    assert_eq!(frame.luts(), u64::from(job.width) - 1);
                }
                // Three operands, the two sums registered.
                Circuit::ChainedAdds => {
                    assert_eq!(
                        (frame.input_bits, frame.output_bits),
                        (3 * job.width, 2 * job.width)
                    );
                    assert_eq!(v.matches(" + ").count(), 2, "{v}");
                }
                // One word added to each of `readers` others, the sums
                // registered.
                Circuit::Readers { readers } => {
                    assert_eq!(readers, job.latency);
                    assert_eq!(
                        (frame.input_bits, frame.output_bits),
                        (job.width * (readers + 1), job.width * readers)
                    );
                    assert_eq!(v.matches(" + ").count(), readers as usize, "{v}");
                }
                // One operand, divided by the constant 3.
                // One operand against 0b0101... (16'h5555 at 16 bits) or
                // 2^7.
                Circuit::AgainstConstant { power_of_two, .. } => {
                    assert_eq!((frame.input_bits, frame.output_bits), (job.width, 1));
                    let bound = if power_of_two { "16'h80" } else { "16'h5555" };
                    assert!(v.contains(bound), "{v}");
                }
                Circuit::ByConstant { .. } => {
                    assert_eq!((frame.input_bits, frame.luts()), (16, 15));
                    assert!(v.contains("16'h3"), "{v}");
                }
                // Two operands; 2 and 4 rows a stage of 16: 8 and 4
                // stages, each ending at the divider's registers.
                Circuit::Divider { stages } => {
                    assert_eq!((frame.input_bits, frame.output_bits), (32, 16));
                    assert!([4, 8].contains(&stages), "{stages}");
                    assert!(v.contains("divider"), "{v}");
                }
                // A multiplier's operand through one LUT level (an xor),
                // whose LUTs are the frame's.
                Circuit::Comb { op: "comb.mul", .. } => {
                    let xors = usize::from(job.width > 1);
                    assert!(frame.fed_by_logic(), "{v}");
                    assert_eq!(v.matches('^').count(), xors + 1, "{v}");
                    assert_eq!(frame.luts(), 2 * u64::from(job.width) - 1);
                }
                Circuit::Comb { .. } => {
                    assert!(!frame.fed_by_logic());
                    assert_eq!(frame.luts(), u64::from(job.width) - 1);
                }
                _ => {}
            }
        }
    }

    /// One design through the real iCE40 tools: a 4-bit adder is four LUTs
    /// (and carries) between registers, slower than the frame alone.
    #[test]
    fn an_adder_is_measured_through_the_tools() {
        let mut ctx = context();
        let device = device("ice40-up5k").unwrap();
        let tools = Tools::find(device).unwrap();
        let jobs = jobs(
            &mut ctx,
            &["reg".into(), "add".into()],
            &[4],
            &[],
            Depths::Spread(1),
        )
        .unwrap();
        let mut points = Vec::new();
        characterize(
            &mut ctx,
            &tools,
            device,
            &jobs,
            Baseline::default(),
            &mut |p, r| points.push((p.clone(), r)),
        )
        .unwrap();
        let (add, register_ns) = &points[1];
        assert_eq!(
            (add.kind.as_str(), add.width, add.lut, add.ff),
            ("add", 4, 4, 0)
        );
        let period = add.period_ns.unwrap();
        assert!(
            period > register_ns.unwrap() && add.delay_ns > 0.0,
            "{points:?}"
        );
        assert!(super::device("generic").is_err());
    }
}
