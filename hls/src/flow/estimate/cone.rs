//! The cones of gates as the mapper takes them: a gate's LUT levels
//! are those of its whole cone, back through gates (those that other
//! logic reads too: ABC duplicates them), equalities and wiring to the
//! values no gate computes, a tree of LUT4s over the bits the cone reads
//! after its latest input. A signed compare read by a cone gives it its
//! last LUT. Timing each gate as a level of its own put ECP5
//! floyd-warshall's exit logic at 7.1 ns (4.9 placed).

use super::{fold, Arrival, Walk};
use rustc_hash::{FxHashMap, FxHashSet};
use silica_ir::{OpId, ValueId};

impl Walk<'_> {
    /// The leaves of gate `op`'s cone (the values no gate computes,
    /// through gates that other ops read too, which the mapper
    /// duplicates), with their arrivals on the way to an enable
    /// (`control`) or a data input, earliest first, and how many of
    /// their bits one bit of `op`'s result depends on (a signed
    /// compare's last LUT taken into the cone, `Pricer::is_signed_compare`).
    /// None for a cone too large to map so.
    fn cone_leaves(&self, op: OpId, control: bool) -> Option<Vec<(Arrival, u32)>> {
        let width = |v: ValueId| {
            silica_hw_dialects::types::bit_width(self.ctx, self.ir.value_type(v)).unwrap_or(1)
                as u32
        };
        // The bits of each value read, as ranges: a bitwise gate's
        // operands, a multiplexer's arms, a slice's, a concatenation's
        // and a shift's by a constant the bits under the bits read; a
        // select one bit; a reduction (an equality) every bit.
        let mut leaves: FxHashMap<ValueId, Ranges> = FxHashMap::default();
        let mut seen: FxHashMap<ValueId, Ranges> = FxHashMap::default();
        let mut stack: Vec<(ValueId, (u32, u32))> = vec![(self.ir.result(op, 0), (0, 1))];
        let mut visits = 0;
        while let Some((v, range)) = stack.pop() {
            let v = self.price.resolve(v);
            let (lo, hi) = (range.0, range.1.min(width(v)));
            if lo >= hi || self.price.is_constant(v) || !seen.entry(v).or_default().add(lo, hi) {
                continue;
            }
            visits += 1;
            if visits > CONE_VALUES {
                return None;
            }
            let Some(d) = self
                .ir
                .defining_op(v)
                .filter(|&d| d == op || self.in_cone(d))
            else {
                leaves.entry(v).or_default().add(lo, hi);
                continue;
            };
            let operands: Vec<ValueId> = self.ir.operands(d).collect();
            let shift = || operands.get(1).and_then(|&k| self.price.small_constant(k));
            match self.ctx.str(self.ir.op_name(d)) {
                "comb.and" | "comb.or" | "comb.xor" => {
                    stack.extend(operands.iter().map(|&o| (o, (lo, hi))));
                }
                "comb.mux" => {
                    stack.push((operands[0], (0, 1)));
                    stack.extend(operands[1..].iter().map(|&o| (o, (lo, hi))));
                }
                "comb.extract" => {
                    let low = fold::int_attr(self.ctx, self.ir, d, "lowBit").unwrap_or(0) as u32;
                    stack.push((operands[0], (lo + low, hi + low)));
                }
                "comb.concat" => {
                    // The last operand holds the lowest bits.
                    let mut offset = 0;
                    for &o in operands.iter().rev() {
                        let w = width(o);
                        let (l, h) = (lo.max(offset), hi.min(offset + w));
                        if l < h {
                            stack.push((o, (l - offset, h - offset)));
                        }
                        offset += w;
                    }
                }
                "comb.shl" if shift().is_some() => {
                    let k = shift().unwrap_or(0);
                    stack.push((operands[0], (lo.saturating_sub(k), hi.saturating_sub(k))));
                }
                "comb.shru" | "comb.shrs" if shift().is_some() => {
                    let k = shift().unwrap_or(0);
                    stack.push((operands[0], (lo.saturating_add(k), hi.saturating_add(k))));
                    if self.ctx.str(self.ir.op_name(d)) == "comb.shrs" {
                        let w = width(operands[0]);
                        stack.push((operands[0], (w.saturating_sub(1), w)));
                    }
                }
                "comb.icmp" if self.price.top_bits_bound(d) => {
                    let w = width(operands[0]);
                    stack.push((operands[0], (w.saturating_sub(2), w)));
                }
                _ => stack.extend(operands.iter().map(|&o| (o, (0, width(o))))),
            }
        }
        let step = self.levels.map_or(0.0, |l| l.1);
        let mut inputs: Vec<(Arrival, u32)> = leaves
            .iter()
            .map(|(&v, ranges)| {
                let mut a = self.arrival.get(&(v, control)).cloned().unwrap_or_default();
                let bits = ranges.bits();
                if self
                    .ir
                    .defining_op(v)
                    .is_some_and(|d| self.price.is_signed_compare(d))
                {
                    // Its last LUT (the sign bits' correction of the
                    // chain's carry) is the cone's: one level less, the
                    // two sign bits more.
                    a.t -= step;
                    return (a, bits + 2);
                }
                (a, bits)
            })
            .collect();
        inputs.sort_by(|a, b| a.0.t.total_cmp(&b.0.t));
        (inputs.iter().map(|i| i.1 as usize).sum::<usize>() <= CONE_VALUES).then_some(inputs)
    }

    /// On the way to an enable, when gate `op` settles as the tools map
    /// its whole cone of gates (`cone_leaves`): a tree of LUT4s over the
    /// bits it reads after its latest leaf, each LUT a measured further
    /// level. ECP5 floyd-warshall's exit logic (a compare and six gates
    /// that other logic reads too, nine inputs) is two levels, where a
    /// level per gate put it at 7.1 ns against 4.9 placed. None for a
    /// cone too large to map so (the gate's own levels then).
    pub(super) fn cone_arrival(&self, op: OpId, step: f64) -> Option<Arrival> {
        let (latest, levels) = self.cone_end(op, true)?;
        Some(Arrival {
            t: latest.t + f64::from(levels) * step,
            gate: true,
            run: 0.0,
            levels,
            ..latest
        })
    }

    /// On the way to a flip-flop's data input, when gate `op` settles
    /// as the tools map its whole cone (`cone_leaves`): a tree of LUT4s
    /// over the bits it reads after its latest leaf, each LUT but the
    /// last a measured further level, the last (merged into the
    /// flip-flop's cell) the cone's slowest gate, as a run of gates is
    /// timed (`Arrival::run`). None for a cone too large to map so.
    pub(super) fn cone_run(&self, op: OpId, step: f64) -> Option<Arrival> {
        let (latest, levels) = self.cone_end(op, false)?;
        let run = f64::from(levels.saturating_sub(1)) * step + self.cone_slowest(op);
        Some(Arrival {
            t: latest.t + run,
            gate: false,
            run,
            levels,
            ..latest
        })
    }

    /// Gate `op`'s cone (`cone_leaves`): its latest leaf's arrival, the
    /// path gone on through `op` and not a chain's sums, and the levels
    /// of its LUT tree.
    fn cone_end(&self, op: OpId, control: bool) -> Option<(Arrival, u32)> {
        let inputs = self.cone_leaves(op, control)?;
        let levels = lut_levels(&inputs);
        let mut latest = inputs.last().map(|a| a.0.clone()).unwrap_or_default();
        let name = self.ctx.str(self.ir.op_name(op));
        latest
            .path
            .push(name.trim_start_matches("comb.").to_string());
        latest.chain = false;
        Some((latest, levels))
    }

    /// The delay of the slowest gate's LUT in gate `op`'s cone.
    fn cone_slowest(&self, op: OpId) -> f64 {
        let mut seen = FxHashSet::default();
        let mut stack = vec![op];
        let mut slowest = 0.0f64;
        while let Some(d) = stack.pop() {
            if !seen.insert(d) || seen.len() > CONE_VALUES {
                continue;
            }
            // One LUT of it (an equality's tree is the cone's levels).
            if let Some(levels) = self.price.levels(d) {
                slowest = slowest.max(self.price.delay(d) / f64::from(levels.max(1)));
            }
            stack.extend(
                self.ir
                    .operands(d)
                    .filter_map(|v| self.ir.defining_op(v))
                    .filter(|&x| self.in_cone(x)),
            );
        }
        slowest
    }

    /// Whether `op` is logic that a cone of gates takes in: a gate or
    /// an equality's LUT tree, or wiring.
    fn in_cone(&self, op: OpId) -> bool {
        let name = self.ctx.str(self.ir.op_name(op));
        name.starts_with("comb.")
            && (self.price.levels(op).is_some()
                || (self.price.delay(op) == 0.0 && !self.price.is_sign_test(op)))
    }
}

/// The levels of a tree of LUT4s over the bits of `inputs` (leaves and
/// the bits read of each).
fn lut_levels(inputs: &[(Arrival, u32)]) -> u32 {
    let bits: u32 = inputs.iter().map(|i| i.1).sum();
    f64::from(bits.max(2)).log(4.0).ceil() as u32
}

/// The bits of a value a cone reads: disjoint ranges `[lo, hi)`.
#[derive(Default)]
struct Ranges(Vec<(u32, u32)>);

impl Ranges {
    /// Adds `[lo, hi)`; whether any bit of it is new.
    fn add(&mut self, lo: u32, hi: u32) -> bool {
        let before = self.bits();
        self.0.push((lo, hi));
        self.0.sort_unstable();
        let mut merged: Vec<(u32, u32)> = Vec::with_capacity(self.0.len());
        for &(l, h) in &self.0 {
            match merged.last_mut() {
                Some(last) if l <= last.1 => last.1 = last.1.max(h),
                _ => merged.push((l, h)),
            }
        }
        self.0 = merged;
        self.bits() > before
    }

    /// The bits covered.
    fn bits(&self) -> u32 {
        self.0.iter().map(|(l, h)| h - l).sum()
    }
}

/// How many values and input bits `Walk::cone_leaves` looks through.
const CONE_VALUES: usize = 256;
