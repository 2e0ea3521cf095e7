//! The space the flow derives from a kernel (`silica hls --auto`, and
//! `silica dse` without `--space`), from what it offers to parallelise
//! (`silica_hls::profile`) on the target:
//! - every external memory gets the widest ports `--max-port-bits`
//!   allows (`width`: whole elements a word, at most 64), or (where it
//!   is not buffered, and an access whose lane is known only at run time
//!   would be slower than an element a cycle) its elements alone;
//! - a memory whose elements a run accesses more than once on average
//!   (`accesses >= 2 x elements`) is buffered on chip (`buffer`), where
//!   its copy can be partitioned and given two ports, and each element
//!   crosses the ports once each way; one written, and accessed more
//!   than once by the code around the inner loop of a nest that can be
//!   flattened, is buffered or not (flattened, that code runs,
//!   predicated, in every iteration, and its accesses take a port each:
//!   a buffer's two ports may keep the II at 1); where no loop runs
//!   copies of its body side by side, or the copies (each in whole
//!   block RAMs) twice over take more than the device's, a reused
//!   memory is buffered or not, in words as wide or (without copies
//!   side by side) of one element (a small device may fit only one of
//!   those);
//! - a loop with no loop inside is unrolled by each of the three
//!   factors (from 2) that leave it the fewest iterations, a cleanup
//!   loop's included where a factor does not divide its trip count (at
//!   its largest where it varies), of those the device's units can run
//!   side by side (`copies` of its body), where it reads a memory
//!   left off chip, that the memory's words can feed (its lanes), and
//!   no more than the iterations between an element's store and its
//!   load where the loop carries a recurrence through memory (floyd-
//!   warshall's row: more copies only wait on one another); or not at
//!   all (its units left to other loops);
//! - a loop whose body is one such loop, where unroll-and-jam keeps its
//!   dependences, is jammed by factors chosen the same way over its own
//!   trips and the inner body's copies (`jam`; what does not vary with
//!   the jammed loop is computed once for them all), or not, and where the
//!   units hold more copies than a point makes, by wider factors for the
//!   inner loop kept whole; where the inner loop's trip count varies,
//!   also by wider factors at shared units, as where it waits on a
//!   recurrence of several cycles (a float sum: as many times the copies
//!   held, its copies reading the memories left off chip over those
//!   cycles); where it carries a recurrence, by the widest factor, and
//!   the best of at most a half, a quarter and an eighth of it; a loop whose body
//!   is several such loops, one of them a float sum carried from one
//!   iteration to the next (atax's row), is jammed the same way over
//!   them all, and that sum is not unrolled (its copies would wait on
//!   one another);
//! - a loop whose body is a chain of loops of constant trip counts
//!   (a stencil's window, a short reduction) small enough that the
//!   units hold its innermost body's copies side by side (25 at most) is
//!   pipelined
//!   with those loops unrolled (`pipeline`), or not, and the loop around
//!   it, where that holds it alone, flattened with it or not;
//! - the loop around such a window's loop, where the row's copies are
//!   more than that rule takes and few enough ([`pipelines_rows`]),
//!   pipelined whole too, or not, a row or two an iteration (two rows
//!   fill the output's words whole where one row fills them in part);
//!   the rows each iteration shares with the next pass on in registers,
//!   so the arrays the window reads are buffered or not (read in place,
//!   each element once);
//! - the outermost loop of a nest that can be flattened (each loop's
//!   body one loop with straight-line code around it) is flattened or
//!   not (`flatten`).
//!
//! The copies' banks and ports follow from the unroll factors
//! (`silica hls`'s buffers derive them), so they are not searched.

use crate::kernel::Input;
use silica_hls::flow::analysis::profile::{LoopProfile, MemoryProfile, Profile};
use silica_ir::diag::{render, SourceFile};
use std::fmt::Write;

/// Unroll factors tried per loop, at most.
const FACTORS: usize = 3;

/// Copies of an innermost body that a jam and the unroll inside it make
/// together, at most.
const MAX_BODY_COPIES: u64 = 64;

/// Elements a word, at most (a lane a bit of the ports' write enable).
const MAX_LANES: u64 = 64;

/// A derived space: the space file's text, and what each choice is for.
#[derive(Clone, Debug, PartialEq)]
pub struct Derived {
    pub text: String,
    /// A line per knob: why it has the choices it has.
    pub reasons: Vec<String>,
}

/// The profile of the kernel `input` on `target` at `clock_ns`: what
/// its loops and memories offer, lifted with the input's own `hls.*`
/// directives. The error is the rendered diagnostic.
pub fn profile(
    new_context: fn() -> silica_ir::Context,
    input: &Input,
    target: &str,
    clock_ns: f64,
) -> Result<Profile, String> {
    let mut ctx = new_context();
    let parsed = crate::kernel::load(&mut ctx, input)?;
    let ip = silica_hls::model::ip::Library::read(input.ip.clone()).map_err(|e| e.to_string())?;
    let opts = silica_hls::Options {
        clock_ns: Some(clock_ns),
        ip,
        max_port_bits: input.max_port_bits,
        ..silica_hls::Options::new(&input.top, silica_hls::Target::named(target)?)
    };
    silica_hls::profile(&mut ctx, &parsed.module.ir, parsed.module.top, &opts).map_err(|d| {
        let sources = [SourceFile {
            name: &input.name,
            text: input.text.as_bytes(),
        }];
        render(&ctx, &sources, &d)
    })
}

/// The space of a kernel of profile `p`, for memory ports of at most
/// `max_port_bits` bits.
pub fn space(p: &Profile, max_port_bits: u32) -> Derived {
    let mut text = String::from(
        "# The space silica derives from the kernel (silica hls --auto, silica dse without --space).\n",
    );
    let mut reasons = Vec::new();
    let mut lanes_of = Vec::new();
    let mut buffered = Vec::new();
    let sunk: Vec<&String> = (p.loops.iter())
        .filter(|l| l.flattens && l.inner > 0)
        .flat_map(|l| &l.repeated)
        .collect();
    // The arrays' knobs, written once the loops' say whether any copies
    // run side by side.
    let mut arrays: Vec<(&MemoryProfile, u64, ArrayChoice)> = Vec::new();
    for m in &p.memories {
        let lanes = (u64::from(max_port_bits) / u64::from(m.element_width.max(1))).min(MAX_LANES);
        let buffer = m.accesses >= 2 * m.elements;
        let may_buffer = !buffer && m.written && sunk.contains(&&m.name);
        lanes_of.push((m.name.clone(), lanes.max(1)));
        if lanes < 2 && !buffer && !may_buffer {
            continue;
        }
        let choice = if buffer {
            buffered.push(m.name.clone());
            ArrayChoice::Buffered
        } else if may_buffer {
            ArrayChoice::MayBuffer
        } else {
            ArrayChoice::External
        };
        arrays.push((m, lanes, choice));
    }
    let nests = p.loops.iter().filter(|l| l.depth == 0).count();
    if nests >= 2 {
        // The flow schedules the nests (and the copies in and out of
        // buffers among them) both ways and keeps the faster; without
        // it, the nests' latencies add up, so the descent (`descent.rs`)
        // chooses each nest's directives apart, and then whether they
        // run at once. (A single nest's copies are left one after
        // another: at once they seldom gain and their ports, divided,
        // make the body's schedules slow to find.)
        text.push_str("dataflow = [false, true]\n");
        reasons.insert(
            0,
            format!("the body's {nests} loop nests: at once (dataflow) where that is faster than one after another"),
        );
    }
    // The loops' knobs, and whether any makes copies of a body side by
    // side.
    let mut loops_text = String::new();
    let mut parallel = false;
    let mut flattened: Vec<String> = Vec::new();
    // Loops pipelined whole: the loops inside them are unrolled then.
    let mut whole: Vec<String> = Vec::new();
    // Loops jammed around several loops.
    let mut jammed_around: Vec<String> = Vec::new();
    // The memories of windows whose rows a loop pipelined whole carries
    // ([`pipelines_rows`]): read in place, each element is read once.
    let mut carried: Vec<String> = Vec::new();
    for (i, l) in p.loops.iter().enumerate() {
        if let Some(factors) = jam_factors(p, i, &lanes_of, &buffered) {
            let list = factor_knob(&mut loops_text, &l.path, "jam", &factors);
            if l.inner > 1 {
                jammed_around.push(l.path.clone());
            }
            parallel = true;
            reasons.push(format!(
                "{}: unroll-and-jam {}, its iterations side by side in the loop inside",
                l.path,
                list.join(" or "),
            ));
        }
        let inside_flattened = (flattened.iter()).any(|f| l.path.starts_with(&format!("{f}/")));
        let inside_whole = |path: &str| (whole.iter()).any(|w| path.starts_with(&format!("{w}/")));
        let emptied = p.once_jammed.emptied.contains(&l.path);
        // A float sum carried from one iteration to the next gains
        // nothing unrolled (its copies wait on one another); where the
        // loop around it is jammed, its rows' sums run side by side.
        let sum_in_jam = l.recurrence.is_none()
            && l.recurrence_ii.is_some_and(|ii| ii > 1)
            && (l.path.rsplit_once('/'))
                .is_some_and(|(parent, _)| jammed_around.iter().any(|j| j == parent));
        if sum_in_jam {
            reasons.push(format!(
                "{}: not unrolled: its sum waits on itself; jammed, the loop around it runs several side by side",
                l.path
            ));
        } else if l.inner == 0 && !emptied {
            let factors = factors(l, &lanes_of, &buffered);
            if factors.len() > 1 {
                let list = factor_knob(&mut loops_text, &l.path, "unroll", &factors);
                parallel = true;
                let trips = match (l.trip, l.max_trip, l.mean_trip) {
                    (Some(t), _, _) => format!("{t}"),
                    (None, Some(max), Some(mean)) => format!("up to {max} (on average {mean})"),
                    _ => "varying".into(),
                };
                reasons.push(format!(
                    "{}: unroll {}, of its {trips} trips, {} copies of its body side by side at most",
                    l.path,
                    list.join(" or "),
                    l.copies.map_or("any".into(), |c| c.to_string())
                ));
            }
        } else if let Some(copies) = pipelines_whole(p, i).filter(|_| !inside_whole(&l.path)) {
            whole.push(l.path.clone());
            parallel = true;
            either_knob(&mut loops_text, &l.path, "pipeline");
            reasons.push(format!(
                "{}: pipelined with the loops inside unrolled ({copies} copies of their body) or not",
                l.path
            ));
            // Pipelined whole, it may be the inner loop of a flattened pair.
            let parent = (p.loops[..i].iter().rev()).find(|o| o.depth + 1 == l.depth);
            if let Some(o) = parent.filter(|o| o.inner == 1 && !o.flattens) {
                let taken = (flattened.iter())
                    .any(|f| o.path == *f || o.path.starts_with(&format!("{f}/")));
                if !taken {
                    flattened.push(o.path.clone());
                    either_knob(&mut loops_text, &o.path, "flatten");
                    reasons.push(format!(
                        "{}: flattened with {} pipelined whole, or not",
                        o.path, l.path
                    ));
                }
            }
        }
        if let Some(c) = pipelines_rows(p, i).filter(|_| !inside_flattened) {
            // Two rows an iteration, where the trip count is even: a
            // row's stores that fill words only in part (14 elements in
            // words of 4) fill them whole over two.
            let pair = l.trip.is_some_and(|t| t % 2 == 0);
            let _ = writeln!(
                loops_text,
                "\n[[loop]]\nname = \"{}\"\npipeline = [true, false]{}",
                l.path,
                if pair { "\nunroll = [2, 1]" } else { "" }
            );
            parallel = true;
            reasons.push(format!(
                "{}: pipelined with the loops inside unrolled ({} copies of their body), {}the window's rows it shares with the next iteration carried, or not",
                l.path,
                c.copies,
                if pair { "one or two rows an iteration, " } else { "" }
            ));
            carried.extend(c.memories);
        }
        let once_jammed = p.once_jammed.flattened.contains(&l.path);
        if l.inner > 0 && (l.flattens || once_jammed) && !inside_flattened {
            flattened.push(l.path.clone());
            either_knob(&mut loops_text, &l.path, "flatten");
            reasons.push(format!(
                "{}: flattened into one pipeline or not{}",
                l.path,
                if once_jammed {
                    " (where the loop inside it is jammed fully)"
                } else {
                    ""
                }
            ));
        }
    }
    // Without copies side by side, a buffer serves only the ports it
    // adds and the reuse it keeps on chip, at the logic, block RAMs and
    // (for a copy that scales what it reads in) multipliers it takes: on
    // a small device the kernel may fit only without it, or only with
    // its words an element wide (a word that spans two rows of a
    // partitioned copy writes one bank twice). So too where the copies
    // fill more than half the device's block RAMs.
    // The copies, each rounded up to whole block RAMs by its bits, and as
    // many again for the banks' rounding and the read ports' copies,
    // within the device's block RAMs: otherwise they may fit only some
    // of them (mvt on ice40-up5k: by bits, A's copy takes 13 of the 30,
    // and x1, x2, y_1 and y_2, of 40 elements, one each).
    let in_blocks = |bits: u64| match p.block_ram_size {
        0 => bits,
        size => bits.div_ceil(size) * size,
    };
    let copy_bits: u64 = (arrays.iter())
        .filter(|a| a.2 == ArrayChoice::Buffered)
        .map(|(m, _, _)| in_blocks(m.elements * u64::from(m.element_width)))
        .sum();
    let roomy = p.block_ram_bits == 0 || 2 * copy_bits <= p.block_ram_bits;
    let reused = match (parallel, roomy) {
        (true, true) => Reused::Buffered,
        (true, false) => Reused::MayBuffer,
        (false, _) => Reused::MayBufferNarrow,
    };
    let (array_text, array_reasons) = array_knobs(&arrays, reused, &carried, max_port_bits);
    text.push_str(&array_text);
    text.push_str(&loops_text);
    let first = usize::from(nests >= 2);
    reasons.splice(first..first, array_reasons);
    Derived { text, reasons }
}

/// What the space offers the arrays a run reuses.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reused {
    /// Buffered, in wide words: loops run copies side by side, and the
    /// copies fit the device.
    Buffered,
    /// Buffered or not, in wide words (copies side by side that may not
    /// leave room for the copies).
    MayBuffer,
    /// Buffered or not, in wide words or of one element (no copies side
    /// by side).
    MayBufferNarrow,
}

/// The `[[array]]` tables of `arrays` (each with the lanes a word of
/// `max_port_bits` holds), those reused as `reused` says (and those
/// `carried` reads in place or buffered), and why each has its choices.
fn array_knobs(
    arrays: &[(&MemoryProfile, u64, ArrayChoice)],
    reused: Reused,
    carried: &[String],
    max_port_bits: u32,
) -> (String, Vec<String>) {
    let (mut text, mut reasons) = (String::new(), Vec::new());
    for &(m, lanes, choice) in arrays {
        let name = &m.name;
        let _ = writeln!(text, "\n[[array]]\nname = \"{name}\"");
        let fixed = choice == ArrayChoice::Buffered && reused != Reused::MayBufferNarrow;
        if lanes >= 2 && fixed {
            let _ = writeln!(text, "width = [{lanes}]");
            reasons.push(format!(
                "{name}: width {lanes}, the elements of {} bits a {max_port_bits}-bit word holds",
                m.element_width
            ));
        } else if lanes >= 2 {
            let _ = writeln!(text, "width = [{lanes}, 1]");
            reasons.push(format!(
                "{name}: width {lanes} (the elements of {} bits a {max_port_bits}-bit word holds) or 1",
                m.element_width
            ));
        }
        match choice {
            ArrayChoice::Buffered if reused == Reused::Buffered && carried.contains(name) => {
                let _ = writeln!(text, "buffer = [true, false]");
                reasons.push(format!(
                    "{name}: buffered or not, {} accesses of {} elements (a loop pipelined whole may carry its rows, reading each element once)",
                    m.accesses, m.elements
                ));
            }
            ArrayChoice::Buffered if reused == Reused::Buffered => {
                let _ = writeln!(text, "buffer = [true]");
                reasons.push(format!(
                    "{name}: buffered, {} accesses of {} elements",
                    m.accesses, m.elements
                ));
            }
            ArrayChoice::Buffered => {
                let _ = writeln!(text, "buffer = [false, true]");
                reasons.push(format!(
                    "{name}: buffered or not, {} accesses of {} elements (no loop runs copies of its body side by side, or the copies fill more than half the block RAMs)",
                    m.accesses, m.elements
                ));
            }
            ArrayChoice::MayBuffer => {
                let _ = writeln!(text, "buffer = [false, true]");
                reasons.push(format!(
                    "{name}: buffered or not (accessed more than once around an inner loop: flattened, a port each access every iteration)"
                ));
            }
            ArrayChoice::External => {}
        }
    }
    (text, reasons)
}

/// How the space treats an array.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ArrayChoice {
    /// Buffered on chip (reused), where copies run side by side.
    Buffered,
    /// Buffered or not.
    MayBuffer,
    /// Left off chip, its width chosen.
    External,
}

/// Copies of an innermost body a loop pipelined whole makes, at most (a
/// 5x5 window): wider bodies take long to build and seldom fit.
const MAX_WHOLE_COPIES: u64 = 25;

/// Copies of an innermost body a loop pipelined whole over a window of
/// two loops or more makes per copy the device's units hold side by
/// side, at most: the units are shared at an
/// II of about the ratio (a 5x5 window of i32 products on the nine
/// multipliers of ecp5-25k, at an II of 3, keeps them all busy).
const WHOLE_SHARING: u64 = 3;

/// The loops inside a loop `i` whose body is a chain of loops of
/// constant trip counts (each the only loop in the one around it).
struct Chain {
    /// The copies of the innermost body that pipelining `i` makes (the
    /// loops inside unrolled fully).
    copies: u64,
    /// The loops in the chain (1: a single reduction; 2 or more: a
    /// window, or the loop around one).
    loops: usize,
    /// The copies of the innermost body the device's units hold side by
    /// side, where its body does work that units do.
    held: Option<u64>,
    /// The external memories the innermost body accesses.
    memories: Vec<String>,
}

/// The chain of loops inside loop `i` of `p`, where its body is one.
fn chain(p: &Profile, i: usize) -> Option<Chain> {
    if p.loops[i].inner != 1 {
        return None;
    }
    let mut copies = 1u64;
    for (depth, n) in p.loops[i + 1..].iter().enumerate() {
        copies = copies.checked_mul(n.trip?)?;
        match n.inner {
            0 => {
                return Some(Chain {
                    copies,
                    loops: depth + 1,
                    held: n.copies,
                    memories: n.memories.clone(),
                })
            }
            1 => {}
            _ => return None,
        }
    }
    None
}

/// The copies of the innermost body that pipelining loop `i` makes
/// (the loops inside unrolled fully), where its body is a chain of loops
/// ([`chain`]) and the device's units hold that many copies of the
/// innermost body side by side, or a third of them for a window of two
/// loops or more
/// (at most [`MAX_WHOLE_COPIES`]): a stencil's window or a short
/// reduction becomes one pipelined iteration, a window's units shared
/// where they are fewer. (Units shared among many more copies make
/// designs that seldom fit and are slow to build.)
fn pipelines_whole(p: &Profile, i: usize) -> Option<u64> {
    let c = chain(p, i)?;
    // A window of two loops or more; a single reduction has its unroll
    // (and the loop around it its jam) instead.
    let sharing = if c.loops > 1 { WHOLE_SHARING } else { 1 };
    let held = (c.held.unwrap_or(MAX_WHOLE_COPIES))
        .saturating_mul(sharing)
        .min(MAX_WHOLE_COPIES);
    (c.copies >= 2 && c.copies <= held).then_some(c.copies)
}

/// Copies of an innermost body a loop pipelined whole around a window's
/// loop makes, at most (a 3x3 window over a row of 14).
const MAX_ROW_COPIES: u64 = 128;

/// Copies of such a body per copy the units hold side by side, at most:
/// the units shared at an II of about the ratio (126 products of i16
/// on the 28 multipliers of ecp5-25k, at an II of 5).
const ROW_SHARING: u64 = 8;

/// The chain inside loop `i` where `i` may be pipelined whole around a
/// window's loop (conv2d's row loop around its column loop, whose body
/// is the window): an iteration computes a whole row, the window's rows
/// it shares with the next iteration carried in registers, so each
/// element of the array it slides over is read once, in words. Offered
/// where the window's loop is pipelined whole ([`pipelines_whole`]) and
/// the row's copies are more than that rule takes, within
/// [`MAX_ROW_COPIES`] and [`ROW_SHARING`] times the copies the units
/// hold.
fn pipelines_rows(p: &Profile, i: usize) -> Option<Chain> {
    let c = chain(p, i)?;
    let held = c.held?;
    let rows = c.loops >= 3
        && pipelines_whole(p, i + 1).is_some()
        && c.copies > MAX_WHOLE_COPIES
        && c.copies <= MAX_ROW_COPIES
        && c.copies <= held.saturating_mul(ROW_SHARING);
    rows.then_some(c)
}

/// Writes the `[[loop]]` table of loop `path` choosing `key` on or off.
fn either_knob(text: &mut String, path: &str, key: &str) {
    let _ = writeln!(text, "\n[[loop]]\nname = \"{path}\"\n{key} = [true, false]");
}

/// Writes the `[[loop]]` table of loop `path` choosing `key` among
/// `factors`; the factors as text.
fn factor_knob(text: &mut String, path: &str, key: &str, factors: &[u64]) -> Vec<String> {
    let list: Vec<String> = factors.iter().map(u64::to_string).collect();
    let _ = writeln!(
        text,
        "\n[[loop]]\nname = \"{path}\"\n{key} = [{}]",
        list.join(", ")
    );
    list
}

/// The unroll-and-jam factors of loop `i` of `p`, where its body is one
/// loop with no loop inside, or several ([`loops_inside`]), and jamming
/// keeps its dependences: chosen as
/// an innermost loop's unroll factors are ([`factors`]), over its own
/// trips and the copies of the inner loop's body the units hold, and at
/// most [`MAX_BODY_COPIES`] with the inner loop's largest unroll factor:
/// the two multiply the body's copies, and a point of many more copies
/// than the units hold only takes long to build. Where the units hold
/// [`MAX_BODY_COPIES`] or more, the [`FACTORS`] best wider ones of up to
/// that many are offered too, for the points that leave the inner loop
/// whole. Where the inner loop's trip count varies (a triangular loop:
/// short runs, each paying the pipeline's fill and the code after it), the [`FACTORS`] best
/// factors of up to [`JAM_SHARING`] times the copies the units hold
/// (and [`MAX_BODY_COPIES`]) are offered too: fewer, longer runs at an
/// II of about the ratio.
fn jam_factors(
    p: &Profile,
    i: usize,
    lanes_of: &[(String, u64)],
    buffered: &[String],
) -> Option<Vec<u64>> {
    let l = &p.loops[i];
    if l.inner == 0 || !l.jams {
        return None;
    }
    let (inner, unrolled) = loops_inside(p, i, lanes_of, buffered)?;
    let inner = &inner;
    // The copies the units hold of the body jammed, where what does not
    // vary with this loop's counter is computed once for them all, or of
    // the body unrolled, whichever are more: a jam over 2mm's `j` shares
    // `alpha * A[i][k]`; one over gemm's `k` does not, but its units
    // shared at an II of 3 still run its copies of the unrolled `j` best
    // (with several loops inside, the fewest of any alone).
    let jammed = if l.inner == 1 { l.jam_copies } else { None };
    let held = match (jammed, inner.copies) {
        (Some(a), Some(b)) => a.max(b),
        (a, b) => a.or(b).unwrap_or(MAX_BODY_COPIES),
    };
    let as_innermost = LoopProfile {
        copies: Some(held.min(MAX_BODY_COPIES / unrolled)),
        memories: inner.memories.clone(),
        ..l.clone()
    };
    // Where the loop inside waits on a recurrence of several cycles, its
    // copies read their rows from memories left off chip over those
    // cycles: at most as many rows as those cycles' words hold (a copy
    // reads a word's worth where the loop inside is unrolled too).
    let waiting: Vec<(String, u64)>;
    let lanes_of = match inner.recurrence_ii.filter(|&ii| ii > 1) {
        Some(ii) => {
            waiting = (lanes_of.iter())
                .map(|(m, lanes)| (m.clone(), lanes * ii))
                .collect();
            &waiting[..]
        }
        None => lanes_of,
    };
    let mut out = factors(&as_innermost, lanes_of, buffered);
    // The factors the loop would have as an innermost loop of `copies`.
    let at_most = |copies: u64| {
        let l = LoopProfile {
            copies: Some(copies),
            ..as_innermost.clone()
        };
        factors(&l, lanes_of, buffered)
    };
    let largest = out[0];
    let mut wider = Vec::new();
    // With the inner loop not unrolled, the jam alone makes the copies:
    // where the units hold more of them than any point may make
    // (cheap operations: covariance's subtraction of the means, whose
    // buffer is partitioned along the rows the outer loop walks), the
    // wider jams are offered too (the descent skips their points with
    // the inner loop unrolled as well). Elsewhere they would only grow
    // the space the descent has its time for.
    if held >= MAX_BODY_COPIES {
        wider.push(held);
    }
    if inner.trip.is_none() {
        wider.push(held.saturating_mul(JAM_SHARING));
    }
    // Where the inner loop waits on a recurrence of several cycles (a
    // float sum), its II is about that many however widely it is jammed:
    // as many times the copies the units hold share them at no cost.
    if let Some(ii) = inner.recurrence_ii.filter(|&ii| ii > 1) {
        wider.push(held.saturating_mul(ii));
    }
    for copies in wider {
        let more = at_most(copies.min(MAX_BODY_COPIES));
        out.extend(more.into_iter().filter(|&f| f > largest).take(FACTORS));
    }
    out.sort_unstable_by(|a, b| b.cmp(a));
    out.dedup();
    if inner.recurrence.is_some() {
        // The jam is the loop's only parallelism, and its widest factors
        // may not fit (floyd-warshall's f32 rows: deep pipelines, their
        // registers beyond the device): the widest, then the best of at
        // most a half, a quarter and an eighth of it, and the same below
        // the widest the units hold where a recurrence offered wider ones
        // (floyd-warshall fits a jam of a few rows, not of 15: in i32,
        // 60 rows' units held, a jam of 15 needs 62k flip-flops, one of
        // 5 or 6 fits).
        let widest = out[0];
        out = vec![widest, largest];
        for top in [widest, largest] {
            for cap in [top / 2, top / 4, top / 8].into_iter().filter(|&c| c >= 2) {
                out.push(at_most(cap)[0]);
            }
        }
        out.push(1);
        out.sort_unstable_by(|a, b| b.cmp(a));
        out.dedup();
    }
    Some(out).filter(|f| f.len() > 1)
}

/// The loops inside loop `i` of `p` taken as one, for its jam: the one
/// loop, or several (atax's row: a sum along it, then an update of
/// every element of another vector) where one waits on a recurrence of
/// several cycles (a float sum: unrolled, its copies wait on one
/// another, and jammed, the rows' sums run side by side); with no loop
/// inside them. The copies the units hold of the bodies (the fewest),
/// the memories they access, trips (none where one varies) and
/// recurrences (the tightest); and the largest unroll factor of any.
fn loops_inside(
    p: &Profile,
    i: usize,
    lanes_of: &[(String, u64)],
    buffered: &[String],
) -> Option<(LoopProfile, u64)> {
    let l = &p.loops[i];
    let inside = p.loops.get(i + 1..i + 1 + l.inner)?;
    if inside
        .iter()
        .any(|n| n.inner != 0 || n.depth != l.depth + 1)
    {
        return None;
    }
    let unrolled = (inside.iter())
        .map(|n| factors(n, lanes_of, buffered)[0])
        .max()?;
    let [first, rest @ ..] = inside else {
        return None;
    };
    if !rest.is_empty()
        && !inside
            .iter()
            .any(|n| n.recurrence_ii.is_some_and(|ii| ii > 1))
    {
        return None;
    }
    let fewest = |a: Option<u64>, b: Option<u64>| match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    let mut merged = first.clone();
    for n in rest {
        merged.copies = fewest(merged.copies, n.copies);
        for m in &n.memories {
            if !merged.memories.contains(m) {
                merged.memories.push(m.clone());
            }
        }
        if n.trip.is_none() {
            merged.trip = None;
        }
        merged.recurrence = fewest(merged.recurrence, n.recurrence);
        merged.recurrence_ii = merged.recurrence_ii.max(n.recurrence_ii);
    }
    Some((merged, unrolled))
}

/// Copies of the inner loop's body a jam around a loop of varying trip
/// count may make per copy the device's units hold, at most: the units
/// shared at an II of about the ratio (a triangular loop's runs are short
/// and many; jammed wider, they are fewer, and each pays its fill once:
/// syr2k's four i32 products a copy, two copies held, gain most at a jam
/// of 20, an II of 5).
const JAM_SHARING: u64 = 10;

/// Cycles a cleanup loop's pipeline takes to fill, about: what a factor
/// that leaves a remainder pays once a run of the loop.
const CLEANUP_FILL: u64 = 3;

/// The unroll factors of innermost loop `l`: of those up to the copies
/// of its body the device's units hold, the words of the unbuffered
/// memories it reads can feed and the distance of a recurrence through
/// memory it carries, the [`FACTORS`] that leave the fewest
/// iterations, of those that leave fewer than every smaller factor (a run
/// of `t` iterations unrolled by `f`: `t / f`, and
/// where `f` does not divide `t`, a cleanup loop of the remainder and
/// its fill; a trip count that varies is taken at its mean, with a
/// remainder of half the factor, and factors go up to its largest), the
/// smaller on a tie; then 1 (not unrolled). `[1]` where none is.
fn factors(l: &LoopProfile, lanes_of: &[(String, u64)], buffered: &[String]) -> Vec<u64> {
    let Some(trip) = l.trip.or(l.max_trip).filter(|&t| t >= 2) else {
        return vec![1];
    };
    let fed = (l.memories.iter())
        .filter(|m| !buffered.contains(m))
        .filter_map(|m| {
            lanes_of
                .iter()
                .find(|(n, _)| n == m)
                .map(|&(_, lanes)| lanes)
        })
        .min();
    let cap = match (l.copies, fed) {
        (Some(c), Some(f)) => c.min(f),
        (Some(c), None) => c,
        (None, Some(f)) => f,
        (None, None) => trip,
    };
    // Copies past a recurrence's distance wait on one another.
    let cap = l.recurrence.map_or(cap, |r| cap.min(r));
    // Iterations left, doubled (a varying remainder is half a factor).
    let left = |f: u64| match l.trip {
        Some(t) if t % f == 0 => 2 * (t / f),
        Some(t) => 2 * (t / f + t % f + CLEANUP_FILL),
        None => 2 * (l.mean_trip.unwrap_or(trip) / f + CLEANUP_FILL) + (f - 1),
    };
    // A factor is worth its units only if it leaves fewer iterations than
    // every smaller one.
    let mut scored: Vec<(u64, u64)> = Vec::new();
    for f in 2..=trip.min(cap) {
        let l = left(f);
        if scored.iter().all(|&(fewest, _)| l < fewest) {
            scored.push((l, f));
        }
    }
    scored.sort_unstable();
    let mut out: Vec<u64> = scored.iter().take(FACTORS).map(|&(_, f)| f).collect();
    out.sort_unstable_by(|a, b| b.cmp(a));
    out.push(1);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use silica_hls::flow::analysis::profile::MemoryProfile;

    fn memory(name: &str, width: u32, elements: u64, accesses: u64) -> MemoryProfile {
        MemoryProfile {
            name: name.into(),
            element_width: width,
            elements,
            accesses,
            written: false,
        }
    }

    fn innermost(path: &str, trip: u64, copies: Option<u64>, memories: &[&str]) -> LoopProfile {
        LoopProfile {
            path: path.into(),
            trip: Some(trip),
            max_trip: Some(trip),
            mean_trip: Some(trip),
            inner: 0,
            depth: 2,
            flattens: false,
            jams: false,
            copies,
            jam_copies: None,
            memories: memories.iter().map(|m| m.to_string()).collect(),
            repeated: vec![],
            recurrence: None,
            recurrence_ii: None,
        }
    }

    /// A loop of `trip` iterations whose body is one loop, `depth` loops in.
    fn around(path: &str, trip: u64, depth: usize) -> LoopProfile {
        LoopProfile {
            inner: 1,
            depth,
            ..innermost(path, trip, None, &[])
        }
    }

    #[test]
    fn a_stencils_window_is_pipelined_whole_and_its_nest_flattened() {
        let q = LoopProfile {
            depth: 3,
            ..innermost("conv/0/0/0/0", 3, Some(9), &["I", "W"])
        };
        let mut p = Profile {
            loops: vec![
                around("conv/0", 14, 0),
                around("conv/0/0", 14, 1),
                around("conv/0/0/0", 3, 2),
                q,
            ],
            memories: vec![memory("I", 32, 256, 1764), memory("W", 32, 9, 1764)],
            ..Default::default()
        };
        let d = space(&p, 64);
        assert!(d
            .text
            .contains("name = \"conv/0/0\"\npipeline = [true, false]"));
        assert!(d
            .text
            .contains("name = \"conv/0\"\nflatten = [true, false]"));
        // The loop inside one pipelined whole is unrolled then: no knob.
        assert!(!d.text.contains("name = \"conv/0/0/0\"\npipeline"));
        // Nine copies of the body where the units hold three: the window
        // is, its units shared at an II of about 3.
        p.loops[3].copies = Some(3);
        let d = space(&p, 64);
        assert!(d
            .text
            .contains("name = \"conv/0/0\"\npipeline = [true, false]"));
        // Where they hold two, neither the window (nine copies) nor its
        // rows (a reduction of three: no sharing) is.
        p.loops[3].copies = Some(2);
        let d = space(&p, 64);
        assert!(!d.text.contains("pipeline"), "{}", d.text);
    }

    #[test]
    fn a_row_loop_around_a_window_is_pipelined_whole_and_its_array_may_stay_off_chip() {
        let q = LoopProfile {
            depth: 3,
            ..innermost("conv/0/0/0/0", 3, Some(28), &["I", "W"])
        };
        let mut p = Profile {
            loops: vec![
                around("conv/0", 14, 0),
                around("conv/0/0", 14, 1),
                around("conv/0/0/0", 3, 2),
                q,
            ],
            memories: vec![
                memory("I", 16, 256, 1764),
                memory("W", 16, 9, 1764),
                memory("O", 16, 196, 196),
            ],
            ..Default::default()
        };
        // 126 products a row where the units hold 28: the row loop is
        // pipelined whole, a row or two an iteration, and the arrays the
        // window reads may be read in place (each element once).
        let d = space(&p, 64);
        assert!(
            (d.text).contains("name = \"conv/0\"\npipeline = [true, false]\nunroll = [2, 1]"),
            "{}",
            d.text
        );
        assert!(d
            .text
            .contains("name = \"conv/0/0\"\npipeline = [true, false]"));
        assert!(d
            .text
            .contains("name = \"I\"\nwidth = [4]\nbuffer = [true, false]"));
        // An odd number of rows: one an iteration.
        p.loops[0].trip = Some(13);
        let d = space(&p, 64);
        assert!(d
            .text
            .contains("name = \"conv/0\"\npipeline = [true, false]\n\n"));
        // Where the units hold 9, the row's copies would share them 14
        // times over: only the window's loop is pipelined whole, and the
        // reused arrays are buffered.
        p.loops[0].trip = Some(14);
        p.loops[3].copies = Some(9);
        let d = space(&p, 64);
        assert!(
            !d.text.contains("name = \"conv/0\"\npipeline"),
            "{}",
            d.text
        );
        assert!(d
            .text
            .contains("name = \"I\"\nwidth = [4]\nbuffer = [true]\n"));
    }

    #[test]
    fn a_product_buffers_its_reused_inputs_and_unrolls_to_the_multipliers() {
        let p = Profile {
            loops: vec![
                LoopProfile {
                    path: "gemm/0".into(),
                    trip: Some(32),
                    max_trip: Some(32),
                    mean_trip: Some(32),
                    inner: 1,
                    depth: 0,
                    flattens: true,
                    jams: false,
                    copies: None,
                    jam_copies: None,
                    memories: vec![],
                    repeated: vec![],
                    recurrence: None,
                    recurrence_ii: None,
                },
                innermost("gemm/0/0/0", 32, Some(28), &["A", "B", "C"]),
            ],
            memories: vec![
                memory("A", 16, 1024, 32768),
                memory("B", 16, 1024, 32768),
                memory("C", 16, 1024, 65536),
            ],
            ..Default::default()
        };
        let d = space(&p, 64);
        assert!(d
            .text
            .contains("name = \"A\"\nwidth = [4]\nbuffer = [true]"));
        assert!(d
            .text
            .contains("name = \"gemm/0/0/0\"\nunroll = [16, 8, 4, 1]"));
        assert!(d
            .text
            .contains("name = \"gemm/0\"\nflatten = [true, false]"));
    }

    #[test]
    fn without_copies_side_by_side_or_room_for_them_a_reused_array_may_stay_off_chip_or_take_narrow_words(
    ) {
        // gemm on ice40-up5k: its units hold one copy of the body, so no
        // loop unrolls; the buffers (and their wide words) are choices.
        let p = Profile {
            loops: vec![innermost("gemm/0/0/0", 25, Some(1), &["A", "B", "C"])],
            memories: vec![memory("A", 32, 600, 15000), memory("B", 32, 750, 15000)],
            ..Default::default()
        };
        let d = space(&p, 64);
        assert!(d
            .text
            .contains("name = \"A\"\nwidth = [2, 1]\nbuffer = [false, true]"));
        assert!(!d.text.contains("unroll"));
        // With copies side by side, they are buffered in wide words.
        let mut wide = p.clone();
        wide.loops[0].copies = Some(9);
        let d = space(&wide, 64);
        assert!(d
            .text
            .contains("name = \"A\"\nwidth = [2]\nbuffer = [true]"));
        assert!(d.text.contains("unroll = ["));
        // Unless the copies (43,200 bits), twice over, fill more than the
        // device's block RAMs: then they are optional, in wide words.
        wide.block_ram_bits = 64 * 1024;
        let d = space(&wide, 64);
        assert!(d
            .text
            .contains("name = \"A\"\nwidth = [2]\nbuffer = [false, true]"));
        assert!(d.text.contains("unroll = ["));
        // Each copy takes whole block RAMs: 43,200 bits twice over fit in
        // 96 Kibit, but not once A (19,200 bits) and B (24,000) take two
        // blocks of 18 Kibit each.
        wide.block_ram_bits = 96 * 1024;
        let d = space(&wide, 64);
        assert!(d
            .text
            .contains("name = \"A\"\nwidth = [2]\nbuffer = [true]"));
        wide.block_ram_size = 18 * 1024;
        let d = space(&wide, 64);
        assert!(d
            .text
            .contains("name = \"A\"\nwidth = [2]\nbuffer = [false, true]"));
    }

    #[test]
    fn an_output_written_around_a_flattened_loop_may_be_buffered() {
        // covariance's nest: cov written after each k loop (twice, once
        // mirrored), once per element; data read only inside.
        let p = Profile {
            loops: vec![
                LoopProfile {
                    path: "cov/0".into(),
                    trip: Some(28),
                    max_trip: Some(28),
                    mean_trip: Some(28),
                    inner: 1,
                    depth: 0,
                    flattens: true,
                    jams: false,
                    copies: None,
                    jam_copies: None,
                    memories: vec!["cov".into()],
                    repeated: vec!["cov".into()],
                    recurrence: None,
                    recurrence_ii: None,
                },
                innermost("cov/0/0", 32, Some(9), &["data"]),
            ],
            memories: vec![
                MemoryProfile {
                    written: true,
                    ..memory("cov", 32, 784, 812)
                },
                memory("data", 32, 896, 896),
            ],
            ..Default::default()
        };
        let d = space(&p, 64);
        assert!(
            d.text
                .contains("name = \"cov\"\nwidth = [2, 1]\nbuffer = [false, true]"),
            "{}",
            d.text
        );
        assert!(!d.text.contains("name = \"data\"\nwidth = [2, 1]\nbuffer"));
        // Not where the nest cannot be flattened, where it is only read,
        // nor where it is accessed once around the inner loop.
        let mut q = p.clone();
        q.loops[0].flattens = false;
        assert!(!space(&q, 64).text.contains("buffer"));
        let mut q = p.clone();
        q.memories[0].written = false;
        assert!(!space(&q, 64).text.contains("buffer"));
        let mut q = p;
        q.loops[0].repeated.clear();
        assert!(!space(&q, 64).text.contains("buffer"));
    }

    #[test]
    fn a_loop_carrying_a_recurrence_through_memory_unrolls_no_further_than_its_distance() {
        // 60 trips, 22 copies held: 20, 15 and 12; an element stored is
        // loaded the next iteration: not unrolled; two iterations on, 2.
        let row = innermost("floyd_warshall/0/0/0", 60, Some(22), &[]);
        assert_eq!(factors(&row, &[], &[]), vec![20, 15, 12, 1]);
        let recurrent = LoopProfile {
            recurrence: Some(1),
            ..row.clone()
        };
        assert_eq!(factors(&recurrent, &[], &[]), vec![1]);
        let every_other = LoopProfile {
            recurrence: Some(2),
            ..row
        };
        assert_eq!(factors(&every_other, &[], &[]), vec![2, 1]);
    }

    #[test]
    fn a_jam_around_a_recurrence_is_offered_at_its_widest_a_half_a_quarter_and_an_eighth() {
        let outer = LoopProfile {
            inner: 1,
            depth: 1,
            jams: true,
            ..innermost("floyd_warshall/0/0", 60, None, &[])
        };
        let row = LoopProfile {
            recurrence: Some(1),
            ..innermost("floyd_warshall/0/0/0", 60, Some(22), &[])
        };
        let p = Profile {
            loops: vec![outer, row],
            memories: vec![],
            ..Default::default()
        };
        assert_eq!(jam_factors(&p, 0, &[], &[]), Some(vec![20, 10, 5, 2, 1]));
        // The units hold all 60 rows (floyd-warshall i32 on ecp5-25k):
        // 60, 30, 15 and 6 (60 / 6 in whole iterations), of which only 6
        // fits.
        let mut all = p.clone();
        all.loops[1].copies = Some(400);
        assert_eq!(jam_factors(&all, 0, &[], &[]), Some(vec![60, 30, 15, 6, 1]));
    }

    #[test]
    fn a_jam_around_a_float_sum_shares_the_units_among_its_ii() {
        let outer = LoopProfile {
            inner: 1,
            depth: 1,
            jams: true,
            ..innermost("k2mm/0/0", 18, None, &[])
        };
        // Three copies held, an II of 4 however wide the jam: twelve.
        let sum = LoopProfile {
            recurrence: Some(1),
            recurrence_ii: Some(4),
            ..innermost("k2mm/0/0/0", 22, Some(3), &[])
        };
        let mut p = Profile {
            loops: vec![outer, sum],
            memories: vec![],
            ..Default::default()
        };
        assert_eq!(jam_factors(&p, 0, &[], &[]), Some(vec![9, 3, 2, 1]));
        p.loops[1].recurrence_ii = Some(1);
        assert_eq!(jam_factors(&p, 0, &[], &[]), Some(vec![3, 1]));
        // Jammed, alpha * A[i][k] is made once for all the copies: six
        // held, 24 at the II of 4, the whole row of 18.
        p.loops[1].recurrence_ii = Some(4);
        p.loops[0].jam_copies = Some(6);
        assert_eq!(jam_factors(&p, 0, &[], &[]), Some(vec![18, 9, 6, 3, 2, 1]));
        // Fewer copies jammed than unrolled (gemm's jam over k, each
        // copy its own alpha * A[i][k]): the unrolled body's are offered.
        p.loops[0].jam_copies = Some(1);
        assert_eq!(jam_factors(&p, 0, &[], &[]), Some(vec![9, 3, 2, 1]));
    }

    #[test]
    fn a_loop_around_two_loops_is_jammed_where_one_waits_on_a_float_sum_and_the_sum_not_unrolled() {
        // atax's row loop: a float sum along the row, then an update of
        // y in place; every array on chip.
        let rows = LoopProfile {
            path: "atax/1".into(),
            inner: 2,
            depth: 0,
            jams: true,
            ..innermost("atax/1", 38, None, &[])
        };
        let at = |l: LoopProfile| LoopProfile { depth: 1, ..l };
        let sum = at(LoopProfile {
            recurrence_ii: Some(4),
            ..innermost("atax/1/0", 42, Some(3), &[])
        });
        let update = at(innermost("atax/1/1", 42, Some(3), &[]));
        let mut p = Profile {
            loops: vec![rows, sum, update],
            memories: vec![],
            ..Default::default()
        };
        let d = space(&p, 64);
        assert!(d.text.contains("name = \"atax/1\"\njam = ["), "{}", d.text);
        assert!(
            !d.text.contains("name = \"atax/1/0\"\nunroll"),
            "{}",
            d.text
        );
        assert!(
            d.text.contains("name = \"atax/1/1\"\nunroll = ["),
            "{}",
            d.text
        );
        // With no sum waiting on its adder (integers), the loops inside
        // are unrolled and the row loop is not jammed.
        p.loops[1].recurrence_ii = Some(1);
        let d = space(&p, 64);
        assert!(!d.text.contains("jam"), "{}", d.text);
        assert!(
            d.text.contains("name = \"atax/1/0\"\nunroll = ["),
            "{}",
            d.text
        );
        // Nor where a loop inside has loops of its own.
        p.loops[1].recurrence_ii = Some(4);
        p.loops[1].inner = 1;
        assert_eq!(jam_factors(&p, 0, &[], &[]), None);
    }

    #[test]
    fn a_jam_around_a_recurrence_widened_by_its_ii_keeps_the_factors_below_the_units_held() {
        let outer = LoopProfile {
            inner: 1,
            depth: 1,
            jams: true,
            ..innermost("fw/0/0", 60, None, &[])
        };
        // Twenty copies held at an II of 7: the widest jam takes all 60
        // rows, and those of at most 30, 15 and 7, 20, 10 and 5 are
        // offered too (floyd-warshall f32 fits a jam of 6).
        let rows = LoopProfile {
            recurrence: Some(1),
            recurrence_ii: Some(7),
            ..innermost("fw/0/0/0", 60, Some(20), &[])
        };
        let p = Profile {
            loops: vec![outer, rows],
            memories: vec![],
            ..Default::default()
        };
        assert_eq!(
            jam_factors(&p, 0, &[], &[]),
            Some(vec![60, 30, 20, 15, 10, 6, 5, 2, 1])
        );
    }

    #[test]
    fn a_streaming_loop_unrolls_to_its_memories_words() {
        let p = Profile {
            loops: vec![innermost("vadd/0", 64, Some(1000), &["a", "b", "c"])],
            memories: vec![
                memory("a", 16, 64, 64),
                memory("b", 16, 64, 64),
                memory("c", 32, 64, 64),
            ],
            ..Default::default()
        };
        let d = space(&p, 64);
        assert!(!d.text.contains("buffer"));
        // c's words hold two elements: two copies a cycle at most.
        assert!(d.text.contains("unroll = [2, 1]"), "{}", d.text);
        assert!(d.text.contains("name = \"c\"\nwidth = [2, 1]"));
    }

    #[test]
    fn a_jam_leaves_the_inner_unroll_its_share_of_the_copies_or_takes_them_alone() {
        let outer = LoopProfile {
            inner: 1,
            depth: 1,
            jams: true,
            ..innermost("gemm/0/1", 30, None, &[])
        };
        // 8 copies held: 4 and 7 leave no fewer of 30 trips than 3 and 6.
        let p = Profile {
            loops: vec![outer.clone(), innermost("gemm/0/1/0", 25, Some(8), &[])],
            memories: vec![],
            ..Default::default()
        };
        assert_eq!(jam_factors(&p, 0, &[], &[]), Some(vec![6, 5, 3, 1]));
        // Unrolled by all its 30 trips: 64 copies allow a jam of 2.
        let p = Profile {
            loops: vec![outer.clone(), innermost("f/0/1/0", 30, Some(45), &[])],
            memories: vec![],
            ..Default::default()
        };
        assert_eq!(jam_factors(&p, 0, &[], &[]), Some(vec![2, 1]));
        // The units hold 759 copies, more than any point makes: with the
        // inner loop whole, jams of 30, 15 and 10 as well.
        let p = Profile {
            loops: vec![outer, innermost("f/0/1/0", 30, Some(759), &[])],
            memories: vec![],
            ..Default::default()
        };
        assert_eq!(jam_factors(&p, 0, &[], &[]), Some(vec![30, 15, 10, 2, 1]));
    }

    #[test]
    fn a_jam_around_a_triangular_loop_is_offered_wider_at_shared_units() {
        let outer = LoopProfile {
            inner: 1,
            depth: 1,
            jams: true,
            ..innermost("trmm/0/0", 30, None, &[])
        };
        // A loop of 1 to 19 trips, 9 copies held: besides 6, 5 and 3 (as
        // for a loop of constant trips), 30, 15 and 10 of up to 64 copies.
        let triangular = LoopProfile {
            trip: None,
            mean_trip: Some(9),
            ..innermost("trmm/0/0/0", 19, Some(9), &[])
        };
        let p = Profile {
            loops: vec![outer.clone(), triangular],
            memories: vec![],
            ..Default::default()
        };
        assert_eq!(
            jam_factors(&p, 0, &[], &[]),
            Some(vec![30, 15, 10, 6, 5, 3, 1])
        );
        // Two copies held (four products a copy): 20, 10 and 5 of 20 trips.
        let p = Profile {
            loops: vec![
                LoopProfile {
                    inner: 1,
                    depth: 1,
                    jams: true,
                    ..innermost("syr2k/0/1", 20, None, &[])
                },
                LoopProfile {
                    copies: Some(2),
                    ..p.loops[1].clone()
                },
            ],
            memories: vec![],
            ..Default::default()
        };
        assert_eq!(jam_factors(&p, 0, &[], &[]), Some(vec![20, 10, 5, 2, 1]));
        let p = Profile {
            loops: vec![outer, innermost("trmm/0/0/0", 19, Some(9), &[])],
            memories: vec![],
            ..Default::default()
        };
        assert_eq!(jam_factors(&p, 0, &[], &[]), Some(vec![6, 5, 3, 1]));
    }

    #[test]
    fn a_nest_that_flattens_once_jammed_is_offered_flattening() {
        // syrk: a row's scaling by beta (folded into C's copy) and its
        // k loop around a triangular j loop; jammed fully, the row is
        // one triangular loop.
        let row = LoopProfile {
            inner: 2,
            depth: 0,
            ..innermost("syrk/0", 30, None, &[])
        };
        let scaling = LoopProfile {
            depth: 1,
            ..innermost("syrk/0/0", 30, Some(9), &["C"])
        };
        let k = LoopProfile {
            inner: 1,
            depth: 1,
            jams: true,
            ..innermost("syrk/0/1", 20, None, &[])
        };
        let j = innermost("syrk/0/1/0", 30, Some(4), &["A", "C"]);
        let mut p = Profile {
            loops: vec![row, scaling, k, j],
            memories: vec![],
            ..Default::default()
        };
        let d = space(&p, 64);
        assert!(!d.text.contains("flatten"));
        assert!(d.text.contains("name = \"syrk/0/0\"\nunroll"));
        p.once_jammed.flattened = vec!["syrk/0".into()];
        p.once_jammed.emptied = vec!["syrk/0/0".into()];
        let d = space(&p, 64);
        assert!(d
            .text
            .contains("name = \"syrk/0\"\nflatten = [true, false]"));
        assert!(!d.text.contains("syrk/0/0\""));
        assert!(d.text.contains("name = \"syrk/0/1\"\njam"));
    }

    #[test]
    fn factors_that_leave_a_remainder_pay_for_a_cleanup_loop() {
        // 25 trips, 8 copies: 5 leaves 5 iterations; 8 leaves 3, a
        // cleanup iteration and its fill, more than 5 does.
        let l = innermost("gemm/0/1/0", 25, Some(8), &[]);
        assert_eq!(factors(&l, &[], &[]), [5, 4, 3, 1]);
        let l = innermost("gemm/0/1/0", 32, Some(31), &[]);
        assert_eq!(factors(&l, &[], &[]), [16, 8, 4, 1]);
        // A triangular loop of 1 to 30 trips, 15 on average: 6 and 8
        // leave no fewer than 4.
        let l = LoopProfile {
            trip: None,
            mean_trip: Some(15),
            ..innermost("syrk/0/1/0", 30, Some(8), &[])
        };
        assert_eq!(factors(&l, &[], &[]), [4, 3, 2, 1]);
    }
}
