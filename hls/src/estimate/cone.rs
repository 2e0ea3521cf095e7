//! The cones of gates as the mapper takes them: a gate's LUT levels
//! are those of its whole cone, back through gates (those that other
//! logic reads too: ABC duplicates them), equalities and wiring to the
//! values no gate computes, a tree of LUT4s over the bits the cone reads
//! after its latest input. A signed compare read by a cone gives it its
//! last LUT. Timing each gate as a level of its own put ECP5
//! floyd-warshall's exit logic at 7.1 ns (4.9 placed).

use super::{Arrival, Walk};
use rustc_hash::{FxHashMap, FxHashSet};
use silica_ir::{OpId, ValueId};

impl Walk<'_> {
    /// The leaves of gate `op`'s cone (the values no gate computes,
    /// through gates that other ops read too, which the mapper
    /// duplicates), with their arrivals on the way to an enable
    /// (`control`) or a data input, earliest first, and the bits the
    /// cone reads of each (a signed compare's last LUT taken into the
    /// cone, `Pricer::is_signed_compare`). None for a cone too large to map so.
    fn cone_leaves(&self, op: OpId, control: bool) -> Option<Vec<(Arrival, u32)>> {
        let width = |v: ValueId| {
            silica_hw_dialects::types::bit_width(self.ctx, self.ir.value_type(v)).unwrap_or(1)
                as u32
        };
        // Per bit of the result: a bitwise gate's, a slice's and a
        // concatenation's operands one bit each, a reduction's (an
        // equality) every bit.
        let mut leaves: FxHashMap<ValueId, u32> = FxHashMap::default();
        let mut seen: FxHashMap<ValueId, u32> = FxHashMap::default();
        let mut stack: Vec<(ValueId, u32)> = vec![(self.ir.result(op, 0), 1)];
        while let Some((v, bits)) = stack.pop() {
            if self.price.is_constant(v) || seen.get(&v).is_some_and(|&b| b >= bits) {
                continue;
            }
            seen.insert(v, bits);
            if seen.len() > CONE_VALUES {
                return None;
            }
            match self.ir.defining_op(v) {
                Some(d) if d == op || self.in_cone(d) => {
                    let name = self.ctx.str(self.ir.op_name(d));
                    let sliced = matches!(
                        name,
                        "comb.and"
                            | "comb.or"
                            | "comb.xor"
                            | "comb.mux"
                            | "comb.extract"
                            | "comb.concat"
                    );
                    for o in self.ir.operands(d) {
                        stack.push((o, if sliced { bits.min(width(o)) } else { width(o) }));
                    }
                }
                _ => {
                    let e = leaves.entry(v).or_default();
                    *e = (*e).max(bits);
                }
            }
        }
        let mut inputs: Vec<(Arrival, u32)> = leaves
            .iter()
            .map(|(&v, &bits)| {
                let mut a = self.arrival.get(&(v, control)).cloned().unwrap_or_default();
                if self
                    .ir
                    .defining_op(v)
                    .is_some_and(|d| self.price.is_signed_compare(d))
                {
                    // Its last LUT (the sign bits' correction of the
                    // chain's carry) is the cone's: one level less, the
                    // two sign bits more.
                    a.t -= self.levels.map_or(0.0, |l| l.1);
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
        let inputs = self.cone_leaves(op, true)?;
        let latest = inputs.last().map(|a| a.0.clone()).unwrap_or_default();
        let l = lut_levels(&inputs);
        let t = latest.t + f64::from(l) * step;
        let mut path = latest.path;
        path.push(
            self.ctx
                .str(self.ir.op_name(op))
                .trim_start_matches("comb.")
                .to_string(),
        );
        Some(Arrival {
            t,
            path,
            gate: true,
            run: 0.0,
            levels: l,
            chain: false,
        })
    }

    /// On the way to a flip-flop's data input, when gate `op` settles
    /// as the tools map its whole cone (`cone_leaves`): a tree of LUT4s
    /// over the bits it reads after its latest leaf, each LUT but the
    /// last a measured further level, the last (merged into the
    /// flip-flop's cell) the cone's slowest gate, as a run of gates is
    /// timed (`Arrival::run`). None for a cone too large to map so.
    pub(super) fn cone_run(&self, op: OpId, step: f64) -> Option<Arrival> {
        let inputs = self.cone_leaves(op, false)?;
        let latest = inputs.last().map(|i| i.0.clone()).unwrap_or_default();
        let levels = lut_levels(&inputs);
        let run = f64::from(levels.saturating_sub(1)) * step + self.cone_slowest(op);
        let mut path = latest.path;
        path.push(
            self.ctx
                .str(self.ir.op_name(op))
                .trim_start_matches("comb.")
                .to_string(),
        );
        Some(Arrival {
            t: latest.t + run,
            path,
            gate: false,
            run,
            levels,
            chain: false,
        })
    }

    /// The delay of the slowest gate in gate `op`'s cone.
    fn cone_slowest(&self, op: OpId) -> f64 {
        let mut seen = FxHashSet::default();
        let mut stack = vec![op];
        let mut slowest = 0.0f64;
        while let Some(d) = stack.pop() {
            if !seen.insert(d) || seen.len() > CONE_VALUES {
                continue;
            }
            if self.price.levels(d).is_some() {
                slowest = slowest.max(self.price.delay(d));
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

/// How many values and input bits `Walk::cone_leaves` looks through.
const CONE_VALUES: usize = 256;
