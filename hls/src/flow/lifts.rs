//! Kernels lifted for [`super::lower_bound`], kept for the points that
//! lift to the same kernel. Lifting (unrolling, hoisting, carrying,
//! flattening, the memories and their ports) is most of a bound's cost,
//! and in a design space many points differ only in what lifting does
//! not read: the `[limits]` (only copied into the kernel's `limits`,
//! which the bound sets per point) and the clock period (read only to
//! schedule callees: a kernel without callees is kept for every clock).
//! The key is everything else lifting reads: the caller's name for the
//! input IR (a tiled or copied kernel is another IR), the target, the
//! pipelining option and the resolved loop and array directives. The
//! latencies the flow would choose for float operators on a target at a
//! clock period (`Library::choose_float_latency`, which builds the
//! operator) are kept too.

use crate::float::Operator;
use crate::model::directives::{Directives, Setting};
use crate::model::kernel::{Kernel, NodeId, Op};
use crate::model::target::library::{class_of, Library};
use rustc_hash::FxHashMap;
use silica_ir::Context;
use std::fmt::Write;

/// A lifted kernel.
pub(crate) struct Entry {
    pub kernel: Kernel,
    /// The carried memory dependences of each pipelined loop.
    pub deps: Vec<Vec<crate::flow::analysis::deps::MemDep>>,
}

/// Lifted kernels by key (see the module's doc).
#[derive(Default)]
pub struct Lifts {
    /// Kernels without callees, by key without the clock period.
    any_clock: FxHashMap<String, Entry>,
    /// Kernels with callees, by key and clock period.
    at_clock: FxHashMap<(String, u64), Entry>,
    /// The latency chosen for each float operator on a target (its
    /// library's name) at a clock period.
    float: FxHashMap<(&'static str, Operator, u64), u32>,
}

impl Lifts {
    /// `f` of the kernel kept for `key` at `clock_ns` (with the float
    /// latencies kept, [`Floats`]); where none is, of the one `lift`
    /// gives (with whether it has callees, whose schedules depend on the
    /// clock period), which is then kept.
    pub(crate) fn with<T, E>(
        &mut self,
        ctx: &mut Context,
        key: String,
        clock_ns: f64,
        lift: impl FnOnce(&mut Context) -> Result<(Entry, bool), E>,
        f: impl FnOnce(&mut Entry, &mut Floats<'_>) -> T,
    ) -> Result<T, E> {
        let at = (key, clock_ns.to_bits());
        let mut floats = Floats {
            ctx,
            clock_ns,
            kept: &mut self.float,
        };
        if let Some(e) = self.any_clock.get_mut(&at.0) {
            return Ok(f(e, &mut floats));
        }
        if let Some(e) = self.at_clock.get_mut(&at) {
            return Ok(f(e, &mut floats));
        }
        let (mut entry, callees) = lift(floats.ctx)?;
        let out = f(&mut entry, &mut floats);
        if callees {
            self.at_clock.insert(at, entry);
        } else {
            self.any_clock.insert(at.0, entry);
        }
        Ok(out)
    }
}

/// The latencies of float operations at one clock period, as the
/// schedule's problem gives them (`schedule/problem.rs`).
pub(crate) struct Floats<'a> {
    ctx: &'a mut Context,
    clock_ns: f64,
    kept: &'a mut FxHashMap<(&'static str, Operator, u64), u32>,
}

impl Floats<'_> {
    /// The cycles of float operation `n` of `k` (0 for other operations):
    /// the latency chosen for its operator (its shared unit's, at least
    /// 1, where `[limits]` share it) where the library's row is chosen
    /// per clock, else the row's (at least 1 on a shared unit).
    pub fn cycles(&mut self, k: &Kernel, lib: &Library, n: NodeId) -> u64 {
        let Op::Float(o) = k.nodes[n].op else {
            return 0;
        };
        let limited = k.limited(n).is_some();
        let Some(row) = lib.row(class_of(k.nodes[n].op), o.format.width()) else {
            return 0;
        };
        if !row.auto {
            return u64::from(if limited {
                row.latency.max(1)
            } else {
                row.latency
            });
        }
        let o = if limited { o.shared_unit() } else { o };
        let (ctx, clock_ns) = (&mut *self.ctx, self.clock_ns);
        let latency = *self
            .kept
            .entry((lib.device.name, o, clock_ns.to_bits()))
            .or_insert_with(|| {
                lib.choose_float_latency(ctx, o, clock_ns, limited, 0.0)
                    .latency
            });
        u64::from(latency)
    }
}

/// The key of a point: `input` (the caller's name for the IR), the
/// target, `pipeline` and the directives that lifting reads (not the
/// limits, not the clock period).
pub(crate) fn key(input: &str, target: &str, pipeline: bool, d: &Directives) -> String {
    let mut key = format!(
        "{input}\u{0}{target}\u{0}{pipeline}\u{0}{:?}",
        value(&d.dataflow)
    );
    let mut loops: Vec<_> = d.loops.iter().collect();
    loops.sort_by_key(|(op, _)| **op);
    for (op, l) in loops {
        let _ = write!(
            key,
            "\u{0}{op:?}:{:?}:{:?}:{:?}:{:?}:{:?}:{:?}",
            value(&l.pipeline),
            value(&l.unroll),
            value(&l.flatten),
            value(&l.hoist),
            value(&l.jam),
            value(&l.interchange),
        );
    }
    for (name, a) in &d.arrays {
        let _ = write!(
            key,
            "\u{0}{name}:{:?}:{:?}:{:?}:{:?}",
            value(&a.partition),
            value(&a.ports),
            value(&a.width),
            value(&a.buffer)
        );
    }
    key
}

/// A directive's value, without where it was written.
fn value<T: Clone>(s: &Option<Setting<T>>) -> Option<T> {
    s.as_ref().map(|s| s.value.clone())
}

/// The `[limits]` of `d` as the lifted kernel holds them.
pub(crate) fn limits(d: &Directives) -> Vec<(String, u32)> {
    d.limits.iter().map(|(c, s)| (c.clone(), s.value)).collect()
}

#[cfg(test)]
mod tests {
    use super::key;
    use crate::model::directives::{Directives, LoopDirectives, Origin, Setting};
    use silica_ir::OpId;

    #[test]
    fn points_that_differ_in_a_directive_lifting_reads_do_not_share_a_lift() {
        let ctx = crate::test_support::context();
        let at = ctx.unknown_loc();
        let with = |l: LoopDirectives, dataflow: Option<bool>| {
            let mut d = Directives::default();
            d.loops.insert(OpId(3), l);
            d.dataflow = dataflow.map(|v| Setting::new(v, at, Origin::File));
            key("p", "ecp5-25k", true, &d)
        };
        let plain = with(LoopDirectives::default(), None);
        let jammed = LoopDirectives {
            jam: Some(Setting::new(4, at, Origin::File)),
            ..Default::default()
        };
        let swapped = LoopDirectives {
            interchange: Some(Setting::new(true, at, Origin::File)),
            ..Default::default()
        };
        assert_ne!(plain, with(jammed, None));
        assert_ne!(plain, with(swapped, None));
        assert_ne!(plain, with(LoopDirectives::default(), Some(true)));
        assert_eq!(plain, with(LoopDirectives::default(), None));
    }
}
