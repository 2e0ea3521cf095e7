//! Pipeline control of a modulo-scheduled loop, in its one controller
//! state: an iteration issues every II cycles (an II counter) while the
//! counter is below the upper bound, stepping the counter (a flattened
//! nest's counters as one chain, the innermost fastest); a valid bit per
//! step of an iteration (the issue signal, then a shift register) enables
//! that step's memory accesses and carried-value writes, so the prologue
//! fills and the epilogue drains without stalls. The state is left in the
//! cycle after which no step of any iteration remains but the last
//! `lead` steps of the last iteration (`overlap.rs`; the valid bits go on
//! shifting outside the state, so those steps run while what follows
//! starts), with the II counter back at phase 0, so that every entry
//! issues its first iteration at once (`(N - 1) * II + depth - lead`
//! cycles a run, as `schedule/figures.rs` counts).

use crate::flow::construct::hw::Reg;
use crate::flow::construct::{At, Builder};
use crate::model::kernel::{Predicate, Val};
use silica_ir::ValueId;

impl Builder<'_, '_> {
    /// Issue and valid signals of every pipelined loop, and the pipeline
    /// state's exit condition. Returns the pipelines' own register writes
    /// (counters stepped, carried values yielded), for the caller to add
    /// once the controller's transitions have added theirs (see
    /// [`PipeWrites`]).
    pub fn build_pipeline_valids(&mut self) -> PipeWrites {
        let k = self.k;
        let mut writes = PipeWrites::default();
        for l in 0..k.loops.len() {
            let Some(p) = self.s.pipes[l].clone() else {
                continue;
            };
            let st = self.control.loop_state[l];
            let here = self.in_state(st);
            let at = At::State(st);
            let upper = self.bound(&k.loops[l].upper, false, at, &Vec::new());
            let more = self.iv_below(l, upper);
            let mut issue = self.hw.and(here, more);
            let mut counter_next = None;
            if p.ii > 1 {
                let bits = 32 - (p.ii - 1).leading_zeros();
                let counter = self.hw.reg(&format!("ii_count{l}"), bits.max(1), None);
                let zero = self.hw.constant(0, counter.width);
                let last = self.hw.constant(u128::from(p.ii - 1), counter.width);
                let one = self.hw.constant(1, counter.width);
                let at_last = self.hw.icmp(Predicate::Eq.code(), counter.q, last);
                let inc = self.hw.comb("comb.add", &[counter.q, one]);
                let next = self.hw.mux(at_last, zero, inc);
                counter_next = Some((counter, next, zero));
                let phase0 = self.hw.icmp(Predicate::Eq.code(), counter.q, zero);
                issue = self.hw.and(issue, phase0);
                self.control.ii_counters.insert(l, counter);
            }
            let stepped = self.step_iv(l);
            // A flattened nest's counters step as one chain: the
            // innermost every iteration, each outer one when all inside
            // it wrap around to their lower bounds.
            let mut advance = issue;
            for &m in k.loops[l].flat.iter().rev() {
                let next = self.step_iv(m);
                let upper = self.bound(&k.loops[m].upper, false, at, &Vec::new());
                let lower = self.bound(&k.loops[m].lower, true, at, &Vec::new());
                let inside = self.iv_next_below(m, upper);
                let wrap = self.hw.not(inside);
                let value = self.hw.mux(wrap, lower, next);
                writes.0.push((self.iv_regs[m], advance, value));
                advance = self.hw.and(advance, wrap);
            }
            writes.0.push((self.iv_regs[l], advance, stepped));
            let mut valid = vec![issue];
            let always = self.hw.constant(1, 1);
            for t in 1..p.depth {
                let r = self.hw.reg(&format!("valid{l}_{t}"), 1, Some(0));
                self.write(r, always, valid[t as usize - 1]);
                valid.push(r.q);
            }
            // Leave when no step of an iteration remains after this cycle
            // but the last `lead` ones (which drain while what follows
            // starts, `overlap.rs`) and no iteration is left to issue (the
            // stepped counter's test made beside the step, not after it).
            // With a lead of depth - 1 the last issue may leave: an entry
            // in that transition resets the counters (its writes win).
            let stepped_below = self.iv_next_below(l, upper);
            let more_next = self.hw.mux(advance, stepped_below, more);
            let lead = self.s.lead[l] as usize;
            let busy: Vec<ValueId> = valid[..(p.depth as usize - 1 - lead)].to_vec();
            let busy = self.hw.any(&busy);
            let pending = self.hw.any(&[busy, more_next]);
            let idle_next = self.hw.not(pending);
            let exit = self.hw.and(here, idle_next);
            // The II counter is back at phase 0 when the state is left,
            // so an iteration issues in the first cycle of every entry
            // (also one straight from this state back into it, where the
            // entry's own reset has the lower priority).
            if let Some((counter, next, zero)) = counter_next {
                let next = self.hw.mux(exit, zero, next);
                self.write(counter, here, next);
            }
            self.valid.insert(l, valid);
            self.control.pipe_exit.insert(l, exit);
        }
        for l in 0..k.loops.len() {
            let Some(p) = self.s.pipes[l].clone() else {
                continue;
            };
            for (i, t) in p.carry.iter().enumerate() {
                let Some(t) = *t else { continue };
                let y = k.loops[l].yields[i];
                if y == Val::Carried(l, i) {
                    continue;
                }
                let at = At::Pipe(l, t);
                let v = self.seen(y, at);
                let en = self.active(at);
                writes.0.push((self.carried_regs[l][i], en, v));
            }
        }
        writes
    }

    /// Adds the pipelines' own register writes after the controller's: a
    /// loop's entry (lower bounds, initial values) wins over its
    /// pipeline's writes at the same clock edge.
    pub fn add_pipeline_writes(&mut self, writes: PipeWrites) {
        for (reg, cond, value) in writes.0 {
            self.write(reg, cond, value);
        }
    }
}

/// The register writes of the pipelines (register, condition, value),
/// held back until the controller's transitions are built. A pipeline's
/// last iteration writes its carried values up to its last step, which
/// is the cycle the state is left in; where an enclosing loop enters the
/// pipelined loop again in that very transition, the entry's initial
/// values must win over those last writes (the first write whose
/// condition holds is taken), or the next entry starts from the previous
/// entry's last values.
#[derive(Default)]
pub struct PipeWrites(Vec<(Reg, ValueId, ValueId)>);
