//! The controller: one FSM for the whole kernel. State 0 is idle; each
//! sequential block has one state per schedule step, each sequential loop
//! a head state that tests its bound, each pipelined loop one state in
//! which its pipeline runs (`pipeline.rs`). Leaving a state performs the
//! actions of the structure that follows: entering a loop (counter to its
//! lower bound, carried values to their initial values), the latch at the
//! end of a loop body (counter stepped, carried values to what the body
//! yields), or finishing (results latched, `done` raised for one cycle).

mod pipeline;

use crate::build::hw::Reg;
use crate::build::{At, Builder};
use crate::kernel::{Item, Kernel, LoopId, Pred, Val};
use crate::schedule::{in_pipelined_loop, Schedules};
use rustc_hash::FxHashMap;
use silica_ir::ValueId;

/// The idle state.
pub const IDLE: u32 = 0;

/// The controller's states and the registers it owns.
#[derive(Default)]
pub struct Control {
    /// First state of each sequential block.
    pub block_base: Vec<u32>,
    /// The head (sequential) or pipeline (pipelined) state of each loop.
    pub loop_state: Vec<u32>,
    /// Enclosing loop and position of each block and loop.
    block_pos: Vec<(Option<LoopId>, usize)>,
    loop_pos: Vec<(Option<LoopId>, usize)>,
    pub num_states: u32,
    pub result_regs: Vec<Reg>,
    pub done: Option<Reg>,
    /// II counters of loops pipelined at II > 1.
    pub ii_counters: FxHashMap<LoopId, Reg>,
    /// When each pipeline state is left.
    pub pipe_exit: FxHashMap<LoopId, ValueId>,
}

impl Control {
    /// Numbers the states of `k`.
    pub fn plan(k: &Kernel, s: &Schedules) -> Control {
        let mut c = Control {
            block_base: vec![0; k.blocks.len()],
            loop_state: vec![0; k.loops.len()],
            block_pos: vec![(None, 0); k.blocks.len()],
            loop_pos: vec![(None, 0); k.loops.len()],
            num_states: 1,
            ..Control::default()
        };
        c.walk(k, s, &k.body, None);
        c
    }

    fn walk(&mut self, k: &Kernel, s: &Schedules, items: &[Item], parent: Option<LoopId>) {
        for (i, it) in items.iter().enumerate() {
            match *it {
                Item::Block(b) => {
                    self.block_pos[b] = (parent, i);
                    if in_pipelined_loop(k, b).is_none() {
                        self.block_base[b] = self.num_states;
                        self.num_states += s.states[b];
                    }
                }
                Item::Loop(l) => {
                    self.loop_pos[l] = (parent, i);
                    self.loop_state[l] = self.num_states;
                    self.num_states += 1;
                    if !k.loops[l].pipelined {
                        self.walk(k, s, &k.loops[l].body, Some(l));
                    }
                }
            }
        }
    }
}

impl Builder<'_, '_> {
    fn goto_state(&mut self, cond: ValueId, target: u32) {
        let v = self.hw.constant(u128::from(target), self.state.width);
        self.write(self.state, cond, v);
    }

    /// Builds every transition of the controller; `start` is the input.
    pub fn build_control(&mut self, start: ValueId) {
        let k = self.k;
        let done = self.hw.reg("done_r", 1, Some(0));
        self.control.done = Some(done);
        for (i, &w) in k.results.iter().enumerate() {
            let r = self.hw.reg(&format!("result{i}_r"), w, None);
            self.control.result_regs.push(r);
        }
        // Idle: latch the scalar arguments and start.
        let idle = self.in_state(IDLE);
        let go = self.hw.and(idle, start);
        for (i, _) in k.scalars() {
            let (reg, port) = (self.arg_regs[&i], self.arg_ports[&i]);
            self.write(reg, go, port);
        }
        self.continue_at(None, 0, At::State(IDLE), go);
        for b in 0..k.blocks.len() {
            if in_pipelined_loop(k, b).is_some() {
                continue;
            }
            let base = self.control.block_base[b];
            let last = base + self.s.states[b] - 1;
            for st in base..last {
                let c = self.in_state(st);
                self.goto_state(c, st + 1);
            }
            let (parent, i) = self.control.block_pos[b];
            let c = self.in_state(last);
            self.continue_at(parent, i + 1, At::State(last), c);
        }
        for l in 0..k.loops.len() {
            let st = self.control.loop_state[l];
            let (parent, i) = self.control.loop_pos[l];
            let here = self.in_state(st);
            if k.loops[l].pipelined {
                let exit = self.control.pipe_exit[&l];
                self.continue_at(parent, i + 1, At::State(st), exit);
                continue;
            }
            let at = At::State(st);
            let upper = self.bound(&k.loops[l].upper, false, at);
            let more = self.hw.icmp(Pred::Slt.number(), self.iv_regs[l].q, upper);
            let body = self.hw.and(here, more);
            let no_more = self.hw.not(more);
            let exit = self.hw.and(here, no_more);
            self.continue_at(Some(l), 0, at, body);
            self.continue_at(parent, i + 1, at, exit);
        }
        // `done` is high for the one cycle after finishing.
        let (one, zero) = (self.hw.constant(1, 1), self.hw.constant(0, 1));
        self.write(done, one, zero);
    }

    /// Continues at item `i` of the body of `parent` (the function when
    /// `None`), leaving a state seen as `at` when `cond` holds.
    fn continue_at(&mut self, parent: Option<LoopId>, i: usize, at: At, cond: ValueId) {
        let k = self.k;
        let items = match parent {
            Some(p) => &k.loops[p].body,
            None => &k.body,
        };
        match items.get(i) {
            Some(&Item::Block(b)) => {
                let base = self.control.block_base[b];
                self.goto_state(cond, base);
            }
            Some(&Item::Loop(l)) => self.enter_loop(l, at, cond),
            None => match parent {
                Some(p) => self.latch(p, at, cond),
                None => self.finish(at, cond),
            },
        }
    }

    fn enter_loop(&mut self, l: LoopId, at: At, cond: ValueId) {
        let lp = &self.k.loops[l];
        let lower = self.bound(&lp.lower, true, at);
        self.write(self.iv_regs[l], cond, lower);
        for (i, &init) in lp.inits.iter().enumerate() {
            let v = self.seen(init, at);
            self.write(self.carried_regs[l][i], cond, v);
        }
        if let Some(&c) = self.control.ii_counters.get(&l) {
            let zero = self.hw.constant(0, c.width);
            self.write(c, cond, zero);
        }
        self.goto_state(cond, self.control.loop_state[l]);
    }

    fn latch(&mut self, l: LoopId, at: At, cond: ValueId) {
        let lp = &self.k.loops[l];
        let next = self.step_iv(l);
        self.write(self.iv_regs[l], cond, next);
        for (i, &y) in lp.yields.iter().enumerate() {
            if y == Val::Carried(l, i) {
                continue;
            }
            let v = self.seen(y, at);
            self.write(self.carried_regs[l][i], cond, v);
        }
        self.goto_state(cond, self.control.loop_state[l]);
    }

    /// The counter of loop `l` plus its step.
    pub fn step_iv(&mut self, l: LoopId) -> ValueId {
        let step = self
            .hw
            .constant(self.k.loops[l].step as u128, self.k.index_width);
        self.hw.comb("comb.add", &[self.iv_regs[l].q, step])
    }

    fn finish(&mut self, at: At, cond: ValueId) {
        let k = self.k;
        for (i, &v) in k.returned.iter().enumerate() {
            let value = self.seen(v, at);
            let value = self.hw.resize(value, k.results[i], true);
            let reg = self.control.result_regs[i];
            self.write(reg, cond, value);
        }
        if let Some(done) = self.control.done {
            let one = self.hw.constant(1, 1);
            self.write(done, cond, one);
        }
        self.goto_state(cond, IDLE);
    }
}
