//! The controller: one FSM for the whole kernel. State 0 is idle; each
//! sequential block has one state per schedule step, each pipelined loop
//! one state in which its pipeline runs (`pipeline.rs`). Leaving a state
//! performs the actions of the structure that follows, computed on the
//! transition (`continue_at`): entering a loop (counter to its lower
//! bound, carried values to their initial values, then on into its body),
//! the latch at the end of a loop body (counter stepped, carried values to
//! what the body yields, then back into the body while the stepped counter
//! is below the bound, else on past the loop), or finishing (results
//! latched, `done` raised for one cycle; a kernel with DMA transfers
//! first waits in a drain state until no transfer is under way, so that
//! every write-back has landed when `done` rises, also one started and
//! never waited for, and one whose pipelines overlap what follows them
//! (`overlap.rs`) until no pipeline drains). So a sequential loop costs no
//! cycle of its own; only a loop that may run no iteration (its bounds are
//! not constants) or whose body has no state keeps a head state that tests
//! its bound. A DMA operation has one state: a start stays until its
//! engine takes the transfer, a wait until its tag's transfers are done
//! (`construct/dma.rs`).
//!
//! A dataflow group's tasks (`Kernel::dataflow`) run in threads: task 0
//! in the controller's own, each other task in a thread with a state
//! register of its own (its states numbered with the others). Entering
//! the group enters task 0 and, in the same transition, every task that
//! starts at once; a task that starts `d` cycles later waits in its
//! thread's wait state, counting down, and is entered from there. A task
//! other than task 0 ends in its thread's idle state; task 0 ends in the
//! group's join state, left for what follows the group in the first
//! cycle every other thread is idle.

mod bound_test;

mod pipeline;

use crate::flow::construct::hw::Reg;
use crate::flow::construct::{At, Builder, Env};
use crate::flow::schedule::{needs_head, Schedules};
use crate::model::kernel::{Item, Kernel, LoopId, Predicate, Val};
use rustc_hash::FxHashMap;
use silica_ir::ValueId;

/// The idle state.
pub const IDLE: u32 = 0;

/// The controller's states and the registers it owns.
#[derive(Default)]
pub struct Control {
    /// First state of each sequential block.
    pub block_base: Vec<u32>,
    /// The head (sequential loops that need one) or pipeline (pipelined)
    /// state of each loop; 0 for loops without a state.
    pub loop_state: Vec<u32>,
    /// The state of each call (where it waits for the callee's `done`).
    pub call_state: Vec<u32>,
    /// Enclosing loop and position of each block, loop and call.
    block_pos: Vec<(Option<LoopId>, usize)>,
    loop_pos: Vec<(Option<LoopId>, usize)>,
    /// The state of each DMA operation, and its place.
    pub dma_state: Vec<u32>,
    dma_pos: Vec<(Option<LoopId>, usize)>,
    call_pos: Vec<(Option<LoopId>, usize)>,
    pub num_states: u32,
    /// Where each scalar result is held from the finish on.
    pub results: Vec<ResultHold>,
    pub done: Option<Reg>,
    /// The drain state (kernels with DMA transfers, or a pipeline left
    /// before it drains: `overlap.rs`), and the conditions of finishing,
    /// which go there unless no transfer is under way and no pipeline
    /// still drains.
    pub drain: Option<u32>,
    finishes: Vec<ValueId>,
    /// II counters of loops pipelined at II > 1.
    pub ii_counters: FxHashMap<LoopId, Reg>,
    /// When each pipeline state is left.
    pub pipe_exit: FxHashMap<LoopId, ValueId>,
    /// The loop-bound tests held in registers (`bound_test.rs`).
    pub bound_tests: FxHashMap<LoopId, bound_test::BoundTest>,
    /// The thread of each state.
    pub thread_of: Vec<usize>,
    /// The idle state of each thread (the controller's: [`IDLE`]).
    pub idle: Vec<u32>,
    /// Each dataflow group's join state, its tasks' threads and the wait
    /// states of those that start later than task 0.
    pub joins: Vec<u32>,
    pub task_threads: Vec<Vec<usize>>,
    pub waits: Vec<Vec<Option<u32>>>,
    /// The countdown register of each wait state, by group and task.
    countdowns: FxHashMap<(usize, usize), Reg>,
    /// The thread whose states [`Control::walk`] numbers.
    thread: usize,
}

impl Control {
    /// Numbers the states of `k`.
    pub fn plan(k: &Kernel, s: &Schedules) -> Control {
        let mut c = Control {
            block_base: vec![0; k.blocks.len()],
            loop_state: vec![0; k.loops.len()],
            block_pos: vec![(None, 0); k.blocks.len()],
            loop_pos: vec![(None, 0); k.loops.len()],
            dma_state: vec![0; k.dmas.len()],
            dma_pos: vec![(None, 0); k.dmas.len()],
            call_state: vec![0; k.calls.len()],
            call_pos: vec![(None, 0); k.calls.len()],
            num_states: 1,
            thread_of: vec![0],
            idle: vec![IDLE],
            ..Control::default()
        };
        for (g, group) in k.dataflow.iter().enumerate() {
            let (mut threads, mut waits) = (vec![0], vec![None]);
            for t in 1..group.tasks {
                let thread = c.idle.len();
                let idle = c.alloc(1, thread);
                c.idle.push(idle);
                threads.push(thread);
                let later = s.starts[g][t] > 0;
                waits.push(later.then(|| c.alloc(1, thread)));
            }
            let join = c.alloc(1, 0);
            c.joins.push(join);
            c.task_threads.push(threads);
            c.waits.push(waits);
        }
        c.walk(k, s, &k.body, None);
        if k.dmas.iter().any(|d| d.transfer.is_some()) || s.lead.iter().any(|&e| e > 0) {
            c.drain = Some(c.alloc(1, 0));
        }
        c
    }

    /// `n` new states of thread `thread`; the first.
    fn alloc(&mut self, n: u32, thread: usize) -> u32 {
        let first = self.num_states;
        self.num_states += n;
        self.thread_of.extend((0..n).map(|_| thread));
        first
    }

    fn walk(&mut self, k: &Kernel, s: &Schedules, items: &[Item], parent: Option<LoopId>) {
        for (i, it) in items.iter().enumerate() {
            if parent.is_none() {
                self.thread = k.task_at(i).map_or(0, |(g, t)| self.task_threads[g][t]);
            }
            let thread = self.thread;
            match *it {
                Item::Block(b) => {
                    self.block_pos[b] = (parent, i);
                    if k.pipelined_loop_of(b).is_none() {
                        self.block_base[b] = self.alloc(s.states[b], thread);
                    }
                }
                Item::Loop(l) => {
                    self.loop_pos[l] = (parent, i);
                    if k.loops[l].pipelined || needs_head(k, s, l) {
                        self.loop_state[l] = self.alloc(1, thread);
                    }
                    if !k.loops[l].pipelined {
                        self.walk(k, s, &k.loops[l].body, Some(l));
                    }
                }
                Item::Dma(d) => {
                    self.dma_pos[d] = (parent, i);
                    self.dma_state[d] = self.alloc(1, thread);
                }
                Item::Call(c) => {
                    self.call_pos[c] = (parent, i);
                    self.call_state[c] = self.alloc(1, thread);
                }
            }
        }
        if parent.is_none() {
            self.thread = 0;
        }
    }
}

/// The name of thread `t`'s state register: `state` for the
/// controller's own, `task_state<t>` for a dataflow task's.
pub fn state_register(t: usize) -> String {
    if t == 0 {
        "state".to_string()
    } else {
        format!("task_state{t}")
    }
}

/// The controller's states as a waveform shows them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ControllerStates {
    /// Each thread's state register and its idle state (the register
    /// holds its state XOR its idle state).
    pub registers: Vec<(String, u32)>,
    /// What each state (by number) runs: a loop's path, the function's
    /// body (its name), `idle`, `join`, `wait`, `drain`, `DMA`, `call`.
    pub labels: Vec<String>,
}

impl Control {
    /// The states of `k`'s controller (scheduled as `s`).
    pub fn states(&self, k: &Kernel, s: &Schedules) -> ControllerStates {
        let mut labels = vec![String::new(); self.num_states as usize];
        let mut label = |state: u32, text: &str| {
            if let Some(l) = labels.get_mut(state as usize) {
                *l = text.to_string();
            }
        };
        for &i in &self.idle {
            label(i, "idle");
        }
        for &j in &self.joins {
            label(j, "join");
        }
        for w in self.waits.iter().flatten().flatten() {
            label(*w, "wait");
        }
        if let Some(d) = self.drain {
            label(d, "drain");
        }
        for (l, &state) in self.loop_state.iter().enumerate() {
            if state != 0 {
                label(state, &k.loops[l].path);
            }
        }
        for (b, &base) in self.block_base.iter().enumerate() {
            if k.pipelined_loop_of(b).is_some() {
                continue;
            }
            let whose = self.block_pos[b]
                .0
                .map_or(k.name.as_str(), |l| &k.loops[l].path);
            for state in base..base + s.states[b] {
                label(state, whose);
            }
        }
        for &d in &self.dma_state {
            label(d, "DMA");
        }
        for &c in &self.call_state {
            label(c, "call");
        }
        ControllerStates {
            registers: self
                .idle
                .iter()
                .enumerate()
                .map(|(t, &i)| (state_register(t), i))
                .collect(),
            labels,
        }
    }
}

/// Where a scalar result is held from the finish until the next start.
#[derive(Clone, Copy)]
pub enum ResultHold {
    /// A register latching it at the finish.
    Register(Reg),
    /// Its loop's carried register ([`held_in_carried`]).
    Carried(LoopId, usize),
}

/// The carried value that holds scalar result `i` from the finish until
/// the next start, so that no result register latches it: the result is
/// a value carried by the `for` loop that ends the kernel's body. Every
/// finish leaves that loop, and the value latched there is what the
/// carried register holds after that edge (the yield written at the
/// latch, or read through on leaving a pipeline); nothing writes the
/// register again before the next start enters the loop.
pub fn held_in_carried(k: &Kernel, i: usize) -> Option<(LoopId, usize)> {
    let Val::Carried(l, j) = k.returned[i] else {
        return None;
    };
    let last = matches!(k.body.last(), Some(&Item::Loop(m)) if m == l);
    (last && k.loops[l].test.is_none()).then_some((l, j))
}

impl Builder<'_, '_> {
    fn goto_state(&mut self, cond: ValueId, target: u32) {
        let thread = self.control.thread_of[target as usize];
        let reg = self.states[thread];
        let code = target ^ self.control.idle[thread];
        let v = self.hw.constant(u128::from(code), reg.width);
        self.write(reg, cond, v);
    }

    /// Builds every transition of the controller; `start` is the input.
    pub fn build_control(&mut self, start: ValueId) {
        let k = self.k;
        let done = self.hw.reg("done_r", 1, Some(0));
        self.control.done = Some(done);
        for (i, &w) in k.results.iter().enumerate() {
            let r = match held_in_carried(k, i) {
                Some((l, j)) => ResultHold::Carried(l, j),
                None => ResultHold::Register(self.hw.reg(&format!("result{i}_r"), w, None)),
            };
            self.control.results.push(r);
        }
        for (g, waits) in self.control.waits.clone().iter().enumerate() {
            for (t, w) in waits.iter().enumerate() {
                if w.is_some() {
                    let d = self.s.starts[g][t] - 1;
                    let bits = (64 - d.leading_zeros()).max(1);
                    let r = self.hw.reg(&format!("task_wait{g}_{t}"), bits, None);
                    self.control.countdowns.insert((g, t), r);
                }
            }
        }
        // Idle: latch the scalar arguments and start.
        let idle = self.in_state(IDLE);
        let go = self.hw.and(idle, start);
        for (i, _) in k.scalars() {
            let (reg, port) = (self.arg_regs[&i], self.arg_ports[&i]);
            self.write(reg, go, port);
        }
        self.continue_at(None, 0, At::State(IDLE), go, &Vec::new());
        for b in 0..k.blocks.len() {
            if k.pipelined_loop_of(b).is_some() {
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
            self.continue_at(parent, i + 1, At::State(last), c, &Vec::new());
        }
        for l in 0..k.loops.len() {
            let st = self.control.loop_state[l];
            if st == 0 {
                continue;
            }
            let (parent, i) = self.control.loop_pos[l];
            let at = At::State(st);
            if k.loops[l].pipelined {
                let exit = self.control.pipe_exit[&l];
                self.continue_at(parent, i + 1, at, exit, &Vec::new());
                continue;
            }
            let here = self.in_state(st);
            if k.loops[l].test.is_some() {
                self.continue_at(Some(l), 0, at, here, &Vec::new());
                continue;
            }
            let upper = self.bound(&k.loops[l].upper, false, at, &Vec::new());
            let more = self.iv_below(l, upper);
            let body = self.hw.and(here, more);
            let no_more = self.hw.not(more);
            let exit = self.hw.and(here, no_more);
            self.continue_at(Some(l), 0, at, body, &Vec::new());
            self.continue_at(parent, i + 1, at, exit, &Vec::new());
        }
        for d in 0..k.dmas.len() {
            let st = self.control.dma_state[d];
            let go = self.dma_go(d);
            let (parent, i) = self.control.dma_pos[d];
            self.continue_at(parent, i + 1, At::State(st), go, &Vec::new());
        }
        // A call's state waits for the callee's `done`.
        for c in 0..k.calls.len() {
            let st = self.control.call_state[c];
            let here = self.in_state(st);
            let leave = self.hw.and(here, self.call_done[c]);
            let (parent, i) = self.control.call_pos[c];
            self.continue_at(parent, i + 1, At::State(st), leave, &Vec::new());
        }
        let (one, zero) = (self.hw.constant(1, 1), self.hw.constant(0, 1));
        for c in 0..k.calls.len() {
            self.write(self.call_start[c], one, zero);
        }
        self.build_threads();
    }

    /// The dataflow threads' wait states (count down, then enter the
    /// task) and the groups' join states.
    fn build_threads(&mut self) {
        let k = self.k;
        for (g, group) in k.dataflow.iter().enumerate() {
            for (t, i) in group.items().enumerate() {
                let Some(wait) = self.control.waits[g][t] else {
                    continue;
                };
                let Item::Loop(l) = k.body[i] else { continue };
                let count = self.control.countdowns[&(g, t)];
                let here = self.in_state(wait);
                let zero = self.hw.constant(0, count.width);
                let done = self.hw.icmp(Predicate::Eq.code(), count.q, zero);
                let go = self.hw.and(here, done);
                self.enter_loop(l, At::State(wait), go, &Vec::new());
                let not_done = self.hw.not(done);
                let tick = self.hw.and(here, not_done);
                let one = self.hw.constant(1, count.width);
                let less = self.hw.comb("comb.sub", &[count.q, one]);
                self.write(count, tick, less);
            }
            let join = self.control.joins[g];
            let mut leave = self.in_state(join);
            for &thread in &self.control.task_threads[g].clone()[1..] {
                let idle = self.in_state(self.control.idle[thread]);
                leave = self.hw.and(leave, idle);
            }
            let after = group.first + group.tasks;
            self.goto_next(None, after, At::State(join), leave, &Vec::new());
        }
    }

    /// Enters dataflow group `g`: task 0 and the tasks that start at once
    /// entered, the others waiting their starts.
    fn enter_group(&mut self, g: usize, at: At, cond: ValueId, env: &Env) {
        let k = self.k;
        let group = k.dataflow[g];
        for (t, i) in group.items().enumerate() {
            let Item::Loop(l) = k.body[i] else { continue };
            match self.control.waits[g][t] {
                None => self.enter_loop(l, at, cond, env),
                Some(wait) => {
                    let count = self.control.countdowns[&(g, t)];
                    let d = self.s.starts[g][t] - 1;
                    let v = self.hw.constant(u128::from(d), count.width);
                    self.write(count, cond, v);
                    self.goto_state(cond, wait);
                }
            }
        }
    }

    /// Continues at item `i` of the body of `parent` (the function when
    /// `None`), leaving a state seen as `at` when `cond` holds, with the
    /// values the transition has computed so far in `env`.
    fn continue_at(&mut self, parent: Option<LoopId>, i: usize, at: At, cond: ValueId, env: &Env) {
        let test = parent.and_then(|p| self.k.loops[p].test.map(|t| (p, t)));
        if let Some((p, t)) = test.filter(|(_, t)| t.split == i) {
            let more = self.seen_in(t.cond, at, env);
            let go = self.hw.and(cond, more);
            let no_more = self.hw.not(more);
            let leave = self.hw.and(cond, no_more);
            self.goto_item(parent, i, at, go, env);
            let (outer, pos) = self.control.loop_pos[p];
            self.continue_at(outer, pos + 1, at, leave, env);
            return;
        }
        self.goto_item(parent, i, at, cond, env);
    }

    /// [`Builder::continue_at`] without an `scf.while` test.
    fn goto_item(&mut self, parent: Option<LoopId>, i: usize, at: At, cond: ValueId, env: &Env) {
        let k = self.k;
        // The end of a dataflow task: its thread idles, or (task 0) the
        // controller joins the others.
        let ended = i.checked_sub(1).and_then(|j| k.task_at(j));
        if let Some((g, t)) = ended.filter(|_| parent.is_none()) {
            let end = match t {
                0 => self.control.joins[g],
                _ => self.control.idle[self.control.task_threads[g][t]],
            };
            return self.goto_state(cond, end);
        }
        self.goto_next(parent, i, at, cond, env);
    }

    /// [`Builder::goto_item`] where no dataflow task ends.
    fn goto_next(&mut self, parent: Option<LoopId>, i: usize, at: At, cond: ValueId, env: &Env) {
        let k = self.k;
        if let Some((g, _)) = k.task_at(i).filter(|_| parent.is_none()) {
            return self.enter_group(g, at, cond, env);
        }
        let items = match parent {
            Some(p) => &k.loops[p].body,
            None => &k.body,
        };
        match items.get(i) {
            Some(&Item::Block(b)) => {
                let base = self.control.block_base[b];
                self.goto_state(cond, base);
            }
            Some(&Item::Loop(l)) => self.enter_loop(l, at, cond, env),
            Some(&Item::Dma(d)) => {
                let st = self.control.dma_state[d];
                self.goto_state(cond, st);
            }
            Some(&Item::Call(c)) => {
                let one = self.hw.constant(1, 1);
                self.write(self.call_start[c], cond, one);
                self.goto_state(cond, self.control.call_state[c]);
            }
            None => match parent {
                Some(p) => self.latch(p, at, cond, env),
                None => self.finish(at, cond, env),
            },
        }
    }

    fn enter_loop(&mut self, l: LoopId, at: At, cond: ValueId, env: &Env) {
        let lp = &self.k.loops[l];
        let lower = self.bound(&lp.lower, true, at, env);
        self.write(self.iv_regs[l], cond, lower);
        let mut inner = env.clone();
        inner.push((Val::Iv(l), lower));
        for &m in &lp.flat {
            let lower = self.bound(&self.k.loops[m].lower, true, at, env);
            self.write(self.iv_regs[m], cond, lower);
            inner.push((Val::Iv(m), lower));
        }
        for (i, &init) in lp.inits.iter().enumerate() {
            let v = self.seen_in(init, at, env);
            self.write(self.carried_regs[l][i], cond, v);
            inner.push((Val::Carried(l, i), v));
        }
        if let Some(&c) = self.control.ii_counters.get(&l) {
            let zero = self.hw.constant(0, c.width);
            self.write(c, cond, zero);
        }
        match self.control.loop_state[l] {
            0 => self.continue_at(Some(l), 0, at, cond, &inner),
            st => self.goto_state(cond, st),
        }
    }

    fn latch(&mut self, l: LoopId, at: At, cond: ValueId, env: &Env) {
        let lp = &self.k.loops[l];
        if lp.test.is_some() {
            return self.latch_while(l, at, cond, env);
        }
        let iv = self.seen_in(Val::Iv(l), at, env);
        let step = self.hw.constant(lp.step as u128, self.k.index_width);
        let next = self.hw.comb("comb.add", &[iv, step]);
        let mut own = vec![(self.iv_regs[l], next)];
        let mut after = env.clone();
        for (i, &y) in lp.yields.iter().enumerate() {
            let v = self.seen_in(y, at, env);
            if y != Val::Carried(l, i) {
                own.push((self.carried_regs[l][i], v));
            }
            after.push((Val::Carried(l, i), v));
        }
        let st = self.control.loop_state[l];
        if st != 0 {
            for (reg, v) in own {
                self.write(reg, cond, v);
            }
            self.goto_state(cond, st);
            return;
        }
        let upper = self.bound(&lp.upper, false, at, env);
        let more = if iv == self.iv_regs[l].q {
            self.iv_next_below(l, upper)
        } else {
            self.next_below(iv, lp.step, upper)
        };
        let again = self.hw.and(cond, more);
        let no_more = self.hw.not(more);
        let leave = self.hw.and(cond, no_more);
        let mut body = after.clone();
        body.push((Val::Iv(l), next));
        self.continue_at(Some(l), 0, at, again, &body);
        let (parent, i) = self.control.loop_pos[l];
        self.continue_at(parent, i + 1, at, leave, &after);
        // The latch's own writes come after those of the continuations:
        // in a perfect nest, the enclosing loop's latch enters this loop
        // again in the same transition, and its fresh counter and
        // initial values must win (the first write whose condition holds
        // is taken).
        for (reg, v) in own {
            self.write(reg, cond, v);
        }
    }

    /// The latch of `scf.while` loop `l`: the yields become the carried
    /// values, and the `before` items run again.
    fn latch_while(&mut self, l: LoopId, at: At, cond: ValueId, env: &Env) {
        let lp = &self.k.loops[l];
        let mut after = env.clone();
        for (i, &y) in lp.yields.iter().enumerate() {
            let v = self.seen_in(y, at, env);
            if y != Val::Carried(l, i) {
                self.write(self.carried_regs[l][i], cond, v);
            }
            after.push((Val::Carried(l, i), v));
        }
        match self.control.loop_state[l] {
            0 => self.continue_at(Some(l), 0, at, cond, &after),
            st => self.goto_state(cond, st),
        }
    }

    /// Whether counter value `iv` plus `step` is below `upper` (signed),
    /// computed as `iv < upper - step` one bit wider: the subtraction
    /// depends on the bound alone (a constant when the bound is), so no
    /// adder precedes the comparison on the counter's path. Exact where
    /// it is used: after an iteration ran, `iv + step` does not overflow
    /// the index width (counters are sized one step past their bounds).
    pub fn next_below(&mut self, iv: ValueId, step: i64, upper: ValueId) -> ValueId {
        if let Some(u) = self.hw.const_of(upper) {
            let u = crate::model::kernel::sign_extend(u, self.hw.width(upper));
            return self.below_by(iv, i128::from(step), u);
        }
        let w = self.hw.width(iv) + 1;
        let wide_iv = self.hw.resize(iv, w, true);
        let u = self.hw.resize(upper, w, true);
        let s = self.hw.constant(step as u128, w);
        let limit = self.hw.comb("comb.sub", &[u, s]);
        self.hw.icmp(Predicate::Slt.code(), wide_iv, limit)
    }

    /// The counter of loop `l` plus its step.
    pub fn step_iv(&mut self, l: LoopId) -> ValueId {
        let step = self
            .hw
            .constant(self.k.loops[l].step as u128, self.k.index_width);
        self.hw.comb("comb.add", &[self.iv_regs[l].q, step])
    }

    fn finish(&mut self, at: At, cond: ValueId, env: &Env) {
        let k = self.k;
        for (i, &v) in k.returned.iter().enumerate() {
            let ResultHold::Register(reg) = self.control.results[i] else {
                continue;
            };
            let value = self.seen_in(v, at, env);
            let value = self.hw.resize(value, k.results[i], true);
            self.write(reg, cond, value);
        }
        if self.control.drain.is_some() {
            self.control.finishes.push(cond);
            return;
        }
        if let Some(done) = self.control.done {
            let one = self.hw.constant(1, 1);
            self.write(done, cond, one);
        }
        self.goto_state(cond, IDLE);
    }

    /// `done`, high for the one cycle after finishing (after the DMA
    /// engines are built): with a drain state, finishing and the drain
    /// state go back to idle when no transfer is under way or starting
    /// and no pipeline has a step left after this cycle, finishing goes
    /// to the drain state otherwise.
    pub fn build_done(&mut self) {
        let Some(done) = self.control.done else {
            return;
        };
        let (one, zero) = (self.hw.constant(1, 1), self.hw.constant(0, 1));
        if let Some(drain) = self.control.drain {
            let dma_quiet = self.dma_quiet();
            let mut draining = Vec::new();
            for l in 0..self.k.loops.len() {
                if self.s.lead[l] > 0 {
                    let valid = &self.valid[&l];
                    draining.extend_from_slice(&valid[..valid.len() - 1]);
                }
            }
            let draining = self.hw.any(&draining);
            let pipes_quiet = self.hw.not(draining);
            let quiet = self.hw.and(dma_quiet, pipes_quiet);
            let finishing = self.hw.any(&self.control.finishes.clone());
            let here = self.in_state(drain);
            let leaving = self.hw.any(&[finishing, here]);
            let over = self.hw.and(leaving, quiet);
            self.write(done, over, one);
            self.goto_state(over, IDLE);
            let busy = self.hw.not(quiet);
            let wait = self.hw.and(finishing, busy);
            self.goto_state(wait, drain);
        }
        self.write(done, one, zero);
    }
}
