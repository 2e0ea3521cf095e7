//! Datapath rewriting with e-graphs, before scheduling: the integer
//! expressions of every block (`group`) go through the equality-
//! saturation rules of `silica_eqsat`, and the library's
//! cost model (`cost`) extracts the form with the shortest path from the
//! loop's carried values (reassociating a recurrence lowers RecMII),
//! then the shortest longest path (balanced trees chain better), then
//! the least area (constant products as shifts and adds, `csd`, where
//! multipliers are scarce). `apply` writes the cheaper forms back. The
//! flow schedules the kernel both ways and keeps the rewritten one only
//! when its schedule is better ([`Summary::better_than`]). Where shared
//! multipliers bound a pipeline's II, the rewrite ranks the products of
//! two variables before the path instead (each one a unit's turn), each
//! long sum seeded with its common factors taken out (`factor`). Float
//! operations are never members, so never reassociated.

pub mod apply;
mod clock;
pub mod cost;
pub mod csd;
mod factor;
pub mod group;

use crate::flow::schedule::figures::figures;
use crate::flow::schedule::Schedules;
use crate::model::kernel::{Kernel, Val};
use crate::model::target::library::{class_of, Library};
pub use group::Settings;
use std::fmt::Write;

/// One rewritten expression.
#[derive(Clone, Debug)]
pub struct Change {
    /// The enclosing loop's path, or the function's name.
    pub place: String,
    pub before: String,
    pub after: String,
}

/// A leaf's name in the report.
fn leaf_name(k: &Kernel, v: Val) -> String {
    let last = |path: &str| path.rsplit('/').next().unwrap_or(path).to_string();
    match v {
        Val::Node(n) => format!("{}#{n}", class_of(k.nodes[n].op)),
        Val::Arg(i) => match &k.args[i] {
            crate::model::kernel::Arg::Scalar(s) => s.name.clone(),
            crate::model::kernel::Arg::Memory(_) => format!("arg{i}"),
        },
        Val::Iv(l) => last(&k.loops[l].path),
        Val::Carried(l, i) => format!("carried{i}@{}", last(&k.loops[l].path)),
        Val::Const(_) => k.const_value(v).unwrap_or(0).to_string(),
        Val::Result(c, i) => format!("{}.result{i}", k.calls[c].callee),
    }
}

/// Rewrites every block of `k` where the cost model finds a cheaper
/// form; gives what changed (node numbers as before the rewrite).
pub fn rewrite_kernel(k: &mut Kernel, s: &Settings<'_>) -> Vec<Change> {
    let mut changes = Vec::new();
    for b in 0..k.blocks.len() {
        let place = k
            .loops
            .iter()
            .find(|l| l.body.contains(&crate::model::kernel::Item::Block(b)))
            .map_or_else(|| k.name.clone(), |l| l.path.clone());
        for g in group::groups(k, b) {
            let Some(plan) = group::plan(k, b, &g, s) else {
                continue;
            };
            let name = |i: usize| leaf_name(k, plan.leaves[i]);
            let texts: Vec<(String, String)> = plan
                .before
                .iter()
                .zip(&plan.after)
                .map(|(x, y)| (apply::infix(x, &name), apply::infix(y, &name)))
                .filter(|(x, y)| x != y)
                .collect();
            if apply::apply(k, b, &g.members, g.width, &plan) {
                changes.extend(texts.into_iter().map(|(before, after)| Change {
                    place: place.clone(),
                    before,
                    after,
                }));
            }
        }
    }
    if !changes.is_empty() {
        k.compact();
    }
    changes
}

/// The figures a rewrite is judged by.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Static latency (its least where data decide).
    pub latency: Option<u64>,
    /// Each pipelined loop: path, II, RecMII, depth.
    pub loops: Vec<(String, u32, u32, u32)>,
    /// DSP blocks and LUTs of the operators (estimates).
    pub dsp: u64,
    pub lut: u64,
    /// Whether DSP blocks count before LUTs (multipliers are scarce).
    pub scarce: bool,
}

impl Summary {
    /// The figures of `k` scheduled as `s`.
    pub fn of(k: &Kernel, s: &Schedules, lib: &Library, clock_ns: f64) -> Summary {
        let f = figures(k, s);
        let loops = s
            .pipes
            .iter()
            .enumerate()
            .filter_map(|(l, p)| {
                p.as_ref()
                    .map(|p| (k.loops[l].path.clone(), p.ii, p.rec_mii, p.depth))
            })
            .collect();
        let (mut dsp, mut lut) = (0u64, 0.0f64);
        let forms = crate::flow::analysis::constant_product::Forms::of(k, lib, clock_ns);
        for (i, n) in k.nodes.iter().enumerate() {
            let wiring =
                n.op == crate::model::kernel::Op::Shl && k.const_value(n.args[1]).is_some();
            if k.limited(i).is_some() || n.width == 0 || wiring {
                continue;
            }
            // A product by a constant: as the circuit builds it.
            let constant = n.args.iter().find_map(|&a| k.const_value(a));
            if let (crate::model::kernel::Op::Mul, Some(c)) = (n.op, constant) {
                let form = forms.form(c, n.width, n.width);
                if form.in_luts() {
                    lut += form.luts(lib, n.width);
                    continue;
                }
            }
            if let Some(row) = lib.row(class_of(n.op), n.width) {
                lut += row.luts_per_bit * f64::from(n.width);
                dsp += u64::from(row.dsp);
            }
        }
        Summary {
            latency: f.latency.or(f.latency_min),
            loops,
            dsp,
            lut: lut.ceil() as u64,
            scarce: crate::flow::analysis::constant_product::scarce(k, lib),
        }
    }

    fn key(&self) -> (u64, u32, u32, u64, u64) {
        (
            self.latency.unwrap_or(u64::MAX),
            self.loops.iter().map(|l| l.1).sum(),
            self.loops.iter().map(|l| l.3).sum(),
            if self.scarce { self.dsp } else { 0 },
            self.lut,
        )
    }

    /// Whether these figures beat `other`'s: never with more DSP blocks;
    /// lower latency, else lower IIs, else shallower pipelines, else
    /// fewer DSP blocks where they are scarce, else fewer LUTs.
    pub fn better_than(&self, other: &Summary) -> bool {
        self.dsp <= other.dsp && self.key() < other.key()
    }

    fn line(&self) -> String {
        let mut s = match self.latency {
            Some(l) => format!("latency {l}"),
            None => "latency unknown".into(),
        };
        for (path, ii, rec, depth) in &self.loops {
            let _ = write!(s, "; {path} II {ii} (RecMII {rec}) depth {depth}");
        }
        let _ = write!(s, "; {} DSP, {} LUT (operators)", self.dsp, self.lut);
        s
    }
}

/// What datapath rewriting did, for `report.txt`.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// Whether rewriting ran (off with `--no-rewrite`).
    pub enabled: bool,
    pub changes: Vec<Change>,
    /// The schedule as written and as rewritten (when anything changed).
    pub before: Option<Summary>,
    pub after: Option<Summary>,
    /// Whether the rewritten kernel was kept.
    pub kept: bool,
}

impl Outcome {
    /// `report.txt`'s lines.
    pub fn text(&self, out: &mut String) {
        if !self.enabled {
            let _ = writeln!(out, "datapath rewriting (e-graphs): off (--no-rewrite)");
            return;
        }
        if !self.changed(out, "datapath rewriting (e-graphs)") {
            let _ = writeln!(
                out,
                "datapath rewriting (e-graphs): no cheaper integer expression found"
            );
        }
    }

    /// `report.txt`'s lines for the callee `name`: only where a cheaper
    /// form was found.
    pub fn callee_text(&self, name: &str, out: &mut String) {
        self.changed(
            out,
            &format!("datapath rewriting (e-graphs) in callee {name}"),
        );
    }

    /// The verdict under `head`, the figures before and after and the
    /// changes, if anything was rewritten.
    fn changed(&self, out: &mut String, head: &str) -> bool {
        let (Some(before), Some(after)) = (&self.before, &self.after) else {
            return false;
        };
        let verdict = if self.kept {
            "kept, its schedule is better"
        } else {
            "not kept, its schedule is no better or it needs more DSP blocks"
        };
        let _ = writeln!(
            out,
            "{head}: {} expression(s) rewritten, {verdict}",
            self.changes.len()
        );
        let _ = writeln!(out, "  before: {}", before.line());
        let _ = writeln!(out, "  after:  {}", after.line());
        for c in &self.changes {
            let _ = writeln!(out, "  {}: {} -> {}", c.place, c.before, c.after);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::kernel::{sign_extend, truncate, Op};
    use crate::test_support::kernel;

    fn settings<'a>(lib: &'a Library, s: &'a Schedules, scarce: bool) -> Settings<'a> {
        Settings {
            lib,
            clock_ns: 5.0,
            scarce,
            count_shared: false,
            schedules: s,
        }
    }

    fn counting<'a>(lib: &'a Library, s: &'a Schedules) -> Settings<'a> {
        Settings {
            count_shared: true,
            ..settings(lib, s, true)
        }
    }

    fn unscheduled(k: &Kernel) -> Schedules {
        Schedules {
            start: vec![0; k.nodes.len()],
            latency: vec![0; k.nodes.len()],
            states: vec![1; k.blocks.len()],
            pipes: vec![None; k.loops.len()],
            lead: vec![0; k.loops.len()],
            starts: Vec::new(),
            channels: Vec::new(),
            too_shallow: Vec::new(),
        }
    }

    /// The returned values of a straight-line kernel over scalar
    /// arguments `args`.
    fn run(k: &Kernel, args: &[i128]) -> Vec<u128> {
        let mut vals: Vec<i128> = vec![0; k.nodes.len()];
        let get = |vals: &[i128], v: Val| match v {
            Val::Node(n) => vals[n],
            Val::Arg(i) => args[i],
            Val::Const(_) => k.const_value(v).unwrap(),
            _ => unreachable!(),
        };
        for &n in &k.blocks[0] {
            let node = &k.nodes[n];
            let (a, b) = (get(&vals, node.args[0]), get(&vals, node.args[1]));
            let w = node.width;
            let v = match node.op {
                Op::Add => a + b,
                Op::Sub => a - b,
                Op::Mul => a.wrapping_mul(b),
                Op::And => a & b,
                Op::Or => a | b,
                Op::Xor => a ^ b,
                Op::Shl => a << truncate(b, w),
                other => panic!("unexpected {other:?}"),
            };
            vals[n] = sign_extend(truncate(v, w), w);
        }
        k.returned
            .iter()
            .map(|&v| truncate(get(&vals, v), k.width(v)))
            .collect()
    }

    const EXPRS: &str = r#"
      func.func @f(%a: i16, %b: i16, %c: i16, %d: i16) -> (i16, i16, i16, i16) {
        %c3 = arith.constant 3 : i16
        %c10 = arith.constant 10 : i16
        %cm7 = arith.constant -7 : i16
        %c2 = arith.constant 2 : i16
        %0 = arith.addi %a, %b : i16
        %1 = arith.addi %0, %c : i16
        %2 = arith.addi %1, %d : i16
        %3 = arith.muli %a, %c10 : i16
        %4 = arith.muli %b, %cm7 : i16
        %5 = arith.subi %3, %4 : i16
        %6 = arith.xori %5, %2 : i16
        %7 = arith.shli %6, %c3 : i16
        %8 = arith.muli %1, %c2 : i16
        %9 = arith.andi %8, %7 : i16
        %10 = arith.ori %9, %0 : i16
        %11 = arith.muli %c, %d : i16
        %12 = arith.addi %11, %10 : i16
        %13 = arith.muli %a, %b : i16
        %14 = arith.muli %13, %c : i16
        %15 = arith.muli %d, %a : i16
        %16 = arith.addi %14, %15 : i16
        %17 = arith.muli %a, %12 : i16
        %18 = arith.addi %16, %17 : i16
        return %2, %12, %5, %18 : i16, i16, i16, i16
      }"#;

    #[test]
    fn rewriting_keeps_what_expressions_compute() {
        let lib = Library::for_target("ice40-hx8k").unwrap();
        let k = kernel(EXPRS, "f");
        let s = unscheduled(&k);
        for (scarce, settings) in [
            (false, settings(&lib, &s, false)),
            (true, settings(&lib, &s, true)),
            (true, counting(&lib, &s)),
        ] {
            let mut r = k.clone();
            let changes = rewrite_kernel(&mut r, &settings);
            assert!(!changes.is_empty(), "nothing rewritten (scarce {scarce})");
            let mut seed = 0x9e37_79b9_7f4a_7c15u64;
            for _ in 0..200 {
                let args: Vec<i128> = (0..4)
                    .map(|_| {
                        seed = seed
                            .wrapping_mul(6_364_136_223_846_793_005)
                            .wrapping_add(1_442_695_040_888_963_407);
                        sign_extend(u128::from(seed >> 48), 16)
                    })
                    .collect();
                assert_eq!(run(&k, &args), run(&r, &args), "inputs {args:?}");
            }
        }
    }

    #[test]
    fn counted_products_are_factored_out_of_a_long_sum() {
        // a*b*c + d*a + a*e + a*f: four products of variables by a, one
        // once a is taken out.
        let text = r#"
          func.func @f(%a: i32, %b: i32, %c: i32, %d: i32, %e: i32, %f: i32) -> i32 {
            %0 = arith.muli %a, %b : i32
            %1 = arith.muli %0, %c : i32
            %2 = arith.muli %d, %a : i32
            %3 = arith.addi %1, %2 : i32
            %4 = arith.muli %a, %e : i32
            %5 = arith.addi %3, %4 : i32
            %6 = arith.muli %a, %f : i32
            %7 = arith.addi %5, %6 : i32
            return %7 : i32
          }"#;
        let lib = Library::for_target("ecp5").unwrap();
        let k = kernel(text, "f");
        let s = unscheduled(&k);
        let products = |k: &Kernel| {
            (k.nodes.iter())
                .filter(|n| n.op == Op::Mul && n.args.iter().all(|&a| k.const_value(a).is_none()))
                .count()
        };
        let mut r = k.clone();
        rewrite_kernel(&mut r, &counting(&lib, &s));
        assert_eq!((products(&k), products(&r)), (5, 2), "{:?}", r.nodes);
    }

    #[test]
    fn floats_are_never_rewritten() {
        let text = r#"
          func.func @f(%a: memref<8xf32>, %x: i32, %y: i32, %z: i32) -> (f32, i32) {
            %c0 = arith.constant 0.0 : f32
            %i0 = arith.constant 0 : i32
            %r:2 = affine.for %i = 0 to 8 iter_args(%acc = %c0, %n = %i0) -> (f32, i32) {
              %v = affine.load %a[%i] : memref<8xf32>
              %s1 = arith.addf %acc, %v : f32
              %s2 = arith.addf %s1, %v : f32
              %s3 = arith.mulf %s2, %v : f32
              %t1 = arith.addi %n, %x : i32
              %t2 = arith.addi %t1, %y : i32
              %t3 = arith.addi %t2, %z : i32
              affine.yield %s3, %t3 : f32, i32
            }
            return %r#0, %r#1 : f32, i32
          }"#;
        let lib = Library::for_target("ecp5").unwrap();
        let k = kernel(text, "f");
        let mut r = k.clone();
        let s = unscheduled(&k);
        let changes = rewrite_kernel(&mut r, &settings(&lib, &s, false));
        // The integer recurrence is reassociated ...
        assert_eq!(changes.len(), 1, "{changes:?}");
        assert!(changes[0].after.starts_with("carried1@0 + "), "{changes:?}");
        // ... and the float operations are as written, in order.
        let floats = |k: &Kernel| -> Vec<(Op, Vec<Val>)> {
            k.nodes
                .iter()
                .filter(|n| matches!(n.op, Op::Float(_)))
                .map(|n| (n.op, n.args.clone()))
                .collect()
        };
        let (before, after) = (floats(&k), floats(&r));
        assert_eq!(before.len(), 3);
        assert_eq!(
            before.iter().map(|f| f.0).collect::<Vec<_>>(),
            after.iter().map(|f| f.0).collect::<Vec<_>>()
        );
        assert_eq!(after[0].1[0], Val::Carried(0, 0));
    }
}
