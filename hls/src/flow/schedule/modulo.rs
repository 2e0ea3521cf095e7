//! Modulo scheduling of a pipelined loop body: the body's nodes, the
//! memory dependences carried across iterations (with their distances),
//! and one latency-1 operation per carried value (the register that
//! holds it between iterations: the value's definition feeds it, and it
//! feeds the next iteration's users at distance 1). The library's
//! iterative modulo scheduler finds the smallest feasible II from
//! max(ResMII, RecMII), or from the II a `pipeline` directive asks for
//! when that is larger. Each bound on the II is kept with what causes it
//! (a memory's ports, a unit limit, a recurrence), for the warning when a
//! directive asks for less.

use super::floats::FloatChoices;
use super::predicated::{meetings, Meeting, REACH};
use super::problem::ProblemBuilder;
use super::Schedules;
use crate::flow::analysis::deps::MemDep;
use crate::model::kernel::{Kernel, LoopId, Val};
use crate::model::target::library::Library;
use silica_scheduling::{modulo_schedule, rec_mii, res_mii, slot_mii, OpId, Problem, Schedule};

/// The modulo schedule of one pipelined loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PipeSchedule {
    pub ii: u32,
    pub res_mii: u32,
    pub rec_mii: u32,
    /// The II's lower bound: max(ResMII, RecMII), or more where
    /// recurrences without slack hold more users of a memory's ports or a
    /// unit class in one slot than it has (`silica_scheduling::slot_mii`).
    pub mii: u32,
    /// Cycles from an iteration's start to its last action.
    pub depth: u32,
    /// The step at which each carried value's register is written (`None`
    /// when the body yields the value unchanged).
    pub carry: Vec<Option<u32>>,
    /// Whether the II equals its lower bound.
    pub optimal: bool,
    /// What bounds the II from below: each bound with its cause.
    pub bounds: Vec<(u32, String)>,
}

/// The modulo problem of loop `l`'s body: its nodes (the units of a
/// limited class capped as `caps` says), carried memory dependences and
/// values, with the recurrences each closes; `None` when the body has
/// no operation.
struct Built<'a> {
    pb: ProblemBuilder<'a>,
    recurrences: Vec<(OpId, OpId, u32, String)>,
    carry_ops: Vec<Option<OpId>>,
}

fn build<'a>(
    k: &'a Kernel,
    l: LoopId,
    operators: (&'a Library, &'a FloatChoices),
    clock_ns: f64,
    memory_deps: &[MemDep],
    caps: &[(String, u32)],
    meetings: &[Meeting],
) -> Result<Built<'a>, String> {
    let lp = &k.loops[l];
    let nodes = k.body_nodes(l);
    let mut pb = ProblemBuilder::new(k, operators, clock_ns, true);
    for (class, units) in caps {
        pb.cap_units(class, *units);
    }
    for &n in &nodes {
        pb.add_node(n)?;
    }
    pb.add_value_and_memory_order(&nodes);
    for m in meetings {
        let (a, b) = (pb.op_of[&m.a], pb.op_of[&m.b]);
        pb.share_slot(a, b, m.distances.clone(), REACH);
    }
    let mut recurrences = Vec::new();
    for d in memory_deps {
        let (Some(&a), Some(&b)) = (pb.op_of.get(&d.src), pb.op_of.get(&d.dst)) else {
            continue;
        };
        pb.depend(a, b, d.distance);
        let memory = k.nodes[d.src]
            .op
            .memory()
            .map_or("", |m| &k.memories[m].name);
        recurrences.push((
            a,
            b,
            d.distance,
            format!(
                "loop-carried dependence on {memory} with distance {}",
                d.distance
            ),
        ));
    }
    let mut carry_ops = Vec::new();
    for (i, &y) in lp.yields.iter().enumerate() {
        if y == Val::Carried(l, i) {
            carry_ops.push(None);
            continue;
        }
        let users: Vec<usize> = nodes
            .iter()
            .copied()
            .filter(|&u| k.nodes[u].args.contains(&Val::Carried(l, i)))
            .collect();
        let latency = if bypasses(&pb, y, &users, clock_ns) {
            0
        } else {
            1
        };
        let reg = pb.add_extra(latency);
        if let Val::Node(n) = y {
            if let Some(&def) = pb.op_of.get(&n) {
                pb.depend(def, reg, 0);
            }
        }
        for &u in &users {
            let user = pb.op_of[&u];
            pb.depend(reg, user, 1);
            recurrences.push((
                reg,
                user,
                1,
                format!("the loop-carried value {i} (iter_args)"),
            ));
        }
        carry_ops.push(Some(reg));
    }
    // A carried value yielded as another (a rotating register) is that
    // one's user in the next iteration.
    for (i, &y) in lp.yields.iter().enumerate() {
        let Val::Carried(cl, j) = y else { continue };
        if cl != l || j == i {
            continue;
        }
        if let (Some(Some(from)), Some(Some(to))) = (carry_ops.get(j), carry_ops.get(i)) {
            pb.depend(*from, *to, 1);
            recurrences.push((
                *from,
                *to,
                1,
                format!("the loop-carried value {i} (iter_args, passed on from {j})"),
            ));
        }
    }
    if !pb.problem().operations.is_empty() {
        pb.time_ram_to_dsp_nets();
        pb.break_long_chains();
        pb.problem().check().map_err(|e| e.message)?;
    }
    Ok(Built {
        pb,
        recurrences,
        carry_ops,
    })
}

/// Modulo-schedules the body of loop `l`, recording node start times.
/// Once the II is found, each limited class gets the fewest units that
/// still give a schedule at that II (from `ceil(operations / II)` up to
/// its `[limits]` entry): a limit is a most, and units idle in every
/// slot of the II would only cost area.
pub fn schedule_loop(
    k: &Kernel,
    l: LoopId,
    operators: (&Library, &FloatChoices),
    clock_ns: f64,
    s: &mut Schedules,
    memory_deps: &[MemDep],
) -> Result<PipeSchedule, String> {
    let lp = &k.loops[l];
    let nodes = k.body_nodes(l);
    let meetings = meetings(k, l);
    let mut built = build(k, l, operators, clock_ns, memory_deps, &[], &meetings)?;
    if built.pb.problem().operations.is_empty() {
        return Ok(PipeSchedule {
            ii: 1,
            res_mii: 1,
            rec_mii: 1,
            mii: 1,
            depth: 1,
            carry: built.carry_ops.iter().map(|_| None).collect(),
            optimal: true,
            bounds: Vec::new(),
        });
    }
    let p = built.pb.problem();
    let (res, rec) = (res_mii(p), rec_mii(p));
    let mii = slot_mii(p, res.max(rec));
    let (mut times, ii) = modulo_schedule(p, lp.target_ii.map_or(mii, |t| t.max(mii)));
    let mut caps: Vec<(String, u32)> = Vec::new();
    for (class, limit) in &k.limits {
        let ops = nodes
            .iter()
            .filter(|&&x| k.limited(x).is_some_and(|(c, _)| c == class))
            .count() as u32;
        for units in ops.div_ceil(ii).max(1)..*limit {
            let mut tried = caps.clone();
            tried.push((class.clone(), units));
            let fewer = build(k, l, operators, clock_ns, memory_deps, &tried, &meetings)?;
            let (t, at) = modulo_schedule(fewer.pb.problem(), ii);
            if at == ii {
                caps = tried;
                built = fewer;
                times = t;
                break;
            }
        }
    }
    let Built {
        pb,
        recurrences,
        carry_ops,
    } = built;
    let p = pb.problem();
    let sched = Schedule {
        start_times: times,
        start_in_cycle: Vec::new(),
        ii: Some(ii),
    };
    p.verify(&sched).map_err(|e| e.message)?;
    let mut bounds = resource_bounds(k, &nodes, &meetings);
    if mii > res.max(rec) {
        bounds.push((
            mii,
            format!(
                "recurrences hold more port or unit users in one slot than there are ports or units below II {mii}"
            ),
        ));
    }
    let mut within = Within::new(p);
    for (src, dst, distance, what) in recurrences {
        if let Some(b) = within.recurrence_bound(src, dst, distance) {
            bounds.push((b, format!("{what} needs II >= {b}")));
        }
    }
    let times = &sched.start_times;
    let mut depth = 1;
    for &n in &nodes {
        let i = pb.op_of[&n].0 as usize;
        s.start[n] = times[i];
        s.latency[n] = pb.latency_of(i);
        depth = depth.max(times[i] + 1);
    }
    let carry: Vec<Option<u32>> = carry_ops
        .iter()
        .map(|o| o.map(|op| times[op.0 as usize]))
        .collect();
    for t in carry.iter().flatten() {
        depth = depth.max(t + 1);
    }
    Ok(PipeSchedule {
        ii,
        res_mii: res,
        rec_mii: rec,
        mii,
        depth,
        carry,
        optimal: ii == mii,
        bounds,
    })
}

/// Whether the carried value yielded as `y` may reach its `users` in
/// the next iteration through a wire in the cycle it is computed, not
/// only through its register a cycle later: `y` is a pipelined operator
/// (its result leaves its last register rank through its output-side
/// logic), every user is pipelined too (its input-side logic ends at a
/// register), and the two logic stages fit one clock period together.
/// The carried value's operation then has latency 0, and a recurrence
/// through a float accumulator closes in the adder's latency, not one
/// cycle more.
fn bypasses(pb: &ProblemBuilder<'_>, y: Val, users: &[usize], clock_ns: f64) -> bool {
    let Val::Node(n) = y else { return false };
    let Some(&def) = pb.op_of.get(&n) else {
        return false;
    };
    let p = pb.problem();
    let Some(d) = p.operator_type(def) else {
        return false;
    };
    if d.latency.unwrap_or(0) == 0 || users.is_empty() {
        return false;
    }
    let out = d.outgoing_delay.unwrap_or(0.0);
    users.iter().all(|u| {
        pb.op_of
            .get(u)
            .and_then(|&o| p.operator_type(o))
            .is_some_and(|t| {
                t.latency.unwrap_or(0) > 0
                    && out + t.incoming_delay.unwrap_or(0.0) <= clock_ns + 1e-9
            })
    })
}

/// The II bounds from memory ports and unit limits: accesses (operations)
/// per iteration over ports (units), two accesses of a memory of one port
/// that may share its slot (`meetings`) counted once.
fn resource_bounds(k: &Kernel, nodes: &[usize], meetings: &[Meeting]) -> Vec<(u32, String)> {
    let mut out = Vec::new();
    let mut paired = rustc_hash::FxHashSet::default();
    for m in meetings {
        if !paired.contains(&m.a) && !paired.contains(&m.b) {
            paired.extend([m.a, m.b]);
        }
    }
    for (m, mem) in k.memories.iter().enumerate() {
        let accesses: Vec<usize> = (nodes.iter().copied())
            .filter(|&x| k.nodes[x].op.memory() == Some(m))
            .collect();
        let shared = match mem.ports {
            1 => accesses.iter().filter(|x| paired.contains(x)).count() / 2,
            _ => 0,
        };
        let n = (accesses.len() - shared) as u32;
        let b = n.div_ceil(mem.ports.max(1));
        if b > 1 {
            out.push((
                b,
                format!(
                    "memory {} has {} port(s) for {n} accesses per iteration, which needs II >= {b}",
                    mem.name, mem.ports
                ),
            ));
        }
    }
    for (class, limit) in &k.limits {
        let n = nodes
            .iter()
            .filter(|&&x| k.limited(x).is_some_and(|(c, _)| c == class))
            .count() as u32;
        let b = n.div_ceil((*limit).max(1));
        if b > 1 {
            out.push((
                b,
                format!("{n} {class} operations per iteration on {limit} unit(s) need II >= {b}"),
            ));
        }
    }
    out
}

/// The dependences within an iteration (distance 0) of a verified
/// schedule's problem, which form no cycle: their order, and the longest
/// paths from each node asked about (kept: many carried dependences
/// share their destination).
struct Within<'p> {
    p: &'p Problem,
    /// The nodes in an order every edge goes forward in.
    order: Vec<usize>,
    /// Per node, its successors.
    next: Vec<Vec<usize>>,
    from: rustc_hash::FxHashMap<usize, Vec<Option<u64>>>,
}

impl<'p> Within<'p> {
    fn new(p: &'p Problem) -> Within<'p> {
        let n = p.operations.len();
        let mut next = vec![Vec::new(); n];
        let mut into = vec![0usize; n];
        for d in p.dependences.iter().filter(|d| d.distance == 0) {
            next[d.src.0 as usize].push(d.dst.0 as usize);
            into[d.dst.0 as usize] += 1;
        }
        let mut order: Vec<usize> = (0..n).filter(|&i| into[i] == 0).collect();
        let mut at = 0;
        while at < order.len() {
            for &t in &next[order[at]] {
                into[t] -= 1;
                if into[t] == 0 {
                    order.push(t);
                }
            }
            at += 1;
        }
        Within {
            p,
            order,
            next,
            from: Default::default(),
        }
    }

    /// The II the recurrence closed by the carried dependence `src ->
    /// dst` at `distance` needs: the longest path from `dst` back to
    /// `src` within an iteration, plus `src`'s latency, over the
    /// distance; none where no path closes it (or the edges within an
    /// iteration have a cycle).
    fn recurrence_bound(&mut self, src: OpId, dst: OpId, distance: u32) -> Option<u32> {
        let (p, n) = (self.p, self.p.operations.len());
        if self.order.len() != n {
            return None;
        }
        let (order, next) = (&self.order, &self.next);
        let longest = self.from.entry(dst.0 as usize).or_insert_with(|| {
            let mut longest: Vec<Option<u64>> = vec![None; n];
            longest[dst.0 as usize] = Some(0);
            for &u in order {
                let Some(x) = longest[u] else { continue };
                let v = x + u64::from(p.latency(OpId(u as u32)));
                for &t in &next[u] {
                    if longest[t].is_none_or(|y| v > y) {
                        longest[t] = Some(v);
                    }
                }
            }
            longest
        });
        let cycle = longest[src.0 as usize]? + u64::from(p.latency(src));
        u32::try_from(cycle.div_ceil(u64::from(distance.max(1)))).ok()
    }
}

#[cfg(test)]
mod tests {
    use crate::model::kernel::Op;
    use crate::model::target::library::Library;
    use crate::test_support::kernel;

    /// A product carried through a pipelined loop.
    const PRODUCT: &str = r#"
        func.func @f(%a: memref<8xi32>) -> i32 {
          %one = arith.constant 1 : i32
          %r = affine.for %i = 0 to 8 iter_args(%acc = %one) -> (i32) {
            %x = affine.load %a[%i] : memref<8xi32>
            %p = arith.muli %acc, %x : i32
            affine.yield %p : i32
          }
          return %r : i32
        }"#;

    /// The II of the one pipelined loop of `text`'s `f` on ECP5 at 20 ns.
    fn ii(text: &str) -> (u32, u32) {
        let mut k = kernel(text, "f");
        let lib = Library::for_target("ecp5").unwrap();
        let deps = vec![Vec::new(); k.loops.len()];
        let (s, _) =
            super::super::schedule_kernel(&mut k, &lib, &Default::default(), 20.0, &deps).unwrap();
        let p = s.pipes[0].as_ref().unwrap();
        (p.ii, p.rec_mii)
    }

    #[test]
    fn carried_products_recur_at_ii_1() {
        // The measured ECP5 multipliers are combinational (an i32 product
        // 9.6 ns): the carried product's register is the only one on the
        // recurrence.
        assert_eq!(ii(PRODUCT), (1, 1));
        // A sum through a combinational adder still needs its register.
        let sum = PRODUCT.replace("arith.muli", "arith.addi");
        assert_eq!(ii(&sum), (1, 1));
        // A 64-bit product (16.0 ns) still fits the 20 ns cycle.
        let wide = PRODUCT.replace("i32", "i64");
        assert_eq!(ii(&wide), (1, 1));
    }

    /// Adds and subtracts are timed by their own measured kinds: two
    /// chained iCE40 16-bit adds (5.37 ns each) fit the 12.6 ns a 17 ns
    /// cycle leaves, two subtracts (7.94 ns each) do not.
    #[test]
    fn adds_and_subtracts_chain_by_their_own_delays() {
        let chain = |op: &str| {
            let text = r#"
                func.func @f(%a: memref<8xi16>) -> i16 {
                  %one = arith.constant 1 : i16
                  %r = affine.for %i = 0 to 8 iter_args(%acc = %one) -> (i16) {
                    %x = affine.load %a[%i] : memref<8xi16>
                    %s = arith.OP %acc, %x : i16
                    %t = arith.OP %s, %x : i16
                    affine.yield %t : i16
                  }
                  return %r : i16
                }"#
            .replace("OP", op);
            let mut k = kernel(&text, "f");
            let lib = Library::for_target("ice40-up5k").unwrap();
            let deps = vec![Vec::new(); k.loops.len()];
            let (s, _) =
                super::super::schedule_kernel(&mut k, &lib, &Default::default(), 17.0, &deps)
                    .unwrap();
            s.pipes[0].as_ref().unwrap().rec_mii
        };
        assert_eq!(chain("addi"), 1);
        assert_eq!(chain("subi"), 2);
    }

    /// The cycles between the read of `buf` and the product `%p` of
    /// `operands` in the pipelined loop of a kernel whose buffer has
    /// `words` words of `ty`: `%x` the data read, `%y` a variable, `%c`
    /// a constant, `%s` a choice between `%x` and `%y`, at a clock of
    /// `clock_ns`.
    fn read_to_product(words: u32, ty: &str, operands: &str, clock_ns: f64) -> u32 {
        read_to_product_through(1, words, ty, operands, clock_ns)
    }

    /// As [`read_to_product`], the buffer having `ports` ports and
    /// written through as many stores, two words an iteration where it
    /// has two.
    fn read_to_product_through(
        ports: u32,
        words: u32,
        ty: &str,
        operands: &str,
        clock_ns: f64,
    ) -> u32 {
        let fill = if ports == 2 {
            "affine.for %i = 0 to HALF {
                affine.store %y, %buf[2 * %i] : memref<WORDSxTY>
                affine.store %y, %buf[2 * %i + 1] : memref<WORDSxTY>
              }"
        } else {
            "affine.for %i = 0 to WORDS {
                affine.store %y, %buf[%i] : memref<WORDSxTY>
              }"
        };
        let text = r#"
            func.func @f(%a: memref<8xTY>, %y: TY) {
              %c = arith.constant ONE : TY
              %buf = memref.alloc() : memref<WORDSxTY>
              FILL
              affine.for %i = 0 to 8 {
                %x = affine.load %buf[%i] : memref<WORDSxTY>
                %t = arith.cmpi slt, %y, %c : TY
                %s = arith.select %t, %x, %y : TY
                %p = arith.muli OPERANDS : TY
                affine.store %p, %a[%i] : memref<8xTY>
              }
              return
            }"#
        .replace("FILL", fill)
        .replace("HALF", &(words / 2).to_string())
        .replace("WORDS", &words.to_string())
        .replace("ONE", if ty == "i1" { "1" } else { "3" })
        .replace("TY", ty)
        .replace("OPERANDS", operands);
        let mut k = kernel(&text, "f");
        for m in k.memories.iter_mut().filter(|m| m.arg.is_none()) {
            m.ports = ports;
        }
        let lib = Library::for_target("ecp5").unwrap();
        let deps = vec![Vec::new(); k.loops.len()];
        let (s, _) =
            super::super::schedule_kernel(&mut k, &lib, &Default::default(), clock_ns, &deps)
                .unwrap();
        // The last of each: the fill's addresses may be products too.
        let find = |want: &dyn Fn(Op) -> bool| (0..k.nodes.len()).rfind(|&n| want(k.nodes[n].op));
        let load = find(&|op| matches!(op, Op::Load(_))).unwrap();
        let product = find(&|op| op == Op::Mul).unwrap();
        s.start[product] - s.start[load]
    }

    #[test]
    fn block_ram_data_reaches_a_dsp_product_through_a_register_where_the_nets_need_it() {
        // 64 words of 32 bits: a block RAM on ECP5. At 20 ns its data
        // (5.70 ns after the clock), the nets to the DSP column (3.5) and
        // the i32 product (10.10) pass the 18.79 ns a cycle leaves: the
        // data is registered before the product's DSPs (two cycles after
        // the read starts, where the read's own latency is one), also
        // through a multiplexer.
        assert_eq!(read_to_product(64, "i32", "%x, %y", 20.0), 2);
        assert_eq!(read_to_product(64, "i32", "%s, %y", 20.0), 2);
        // Where they fit, they chain: at 25 ns, or an i16 product (6.38).
        assert_eq!(read_to_product(64, "i32", "%x, %y", 25.0), 1);
        assert_eq!(read_to_product(64, "i16", "%x, %y", 20.0), 1);
        // 16 words: LUT RAM, whose read register sits in the fabric.
        assert_eq!(read_to_product(16, "i32", "%x, %y", 20.0), 1);
        // 48 words read through two ports: LUT RAM copies where one port
        // writes, dual-port blocks where both do (no LUT RAM cell has
        // two write ports: 2mm's buffered `tmp`, whose banks the placed
        // design missed its clock through).
        assert_eq!(read_to_product_through(2, 48, "i32", "%x, %y", 20.0), 2);
        // A product by a constant is shifts and adds, no DSP.
        assert_eq!(read_to_product(64, "i32", "%x, %c", 20.0), 1);
        // 1-bit products are gates.
        assert_eq!(read_to_product(64, "i1", "%x, %y", 20.0), 1);
    }

    #[test]
    fn operators_slower_than_the_clock_are_noted() {
        let notes = |clock_ns: f64| {
            let mut k = kernel(PRODUCT, "f");
            let lib = Library::for_target("ecp5").unwrap();
            let deps = vec![Vec::new(); k.loops.len()];
            super::super::schedule_kernel(&mut k, &lib, &Default::default(), clock_ns, &deps)
                .unwrap()
                .1
        };
        // The i32 product (10.10 ns) fits 20 ns, not the 8.79 ns that a
        // 10 ns cycle leaves after the register period.
        assert!(notes(20.0).is_empty());
        let slow = notes(10.0);
        assert_eq!(slow.len(), 1, "{slow:?}");
        assert!(
            slow[0].starts_with("mul#") && slow[0].contains("10.10 ns, more than the 8.79 ns"),
            "{}",
            slow[0]
        );
    }
}
