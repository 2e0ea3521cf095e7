//! Differential tests of the dependence analysis against enumeration:
//! random small loop nests (constant or outer-loop-relative bounds,
//! steps, affine subscripts with `floordiv`/`mod`) are printed as MLIR,
//! analysed, and executed; every dependence the execution exhibits must
//! be reported with distance bounds containing it, and where the model is
//! exact (no step with a non-constant lower bound) no dependence may be
//! reported that the execution lacks, and exact bounds must be attained.

use super::*;
use crate::presburger::test_ir::{ops_named, parse_module};
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Bound {
    Const(i64),
    /// The induction variable of enclosing loop `k` plus a constant.
    OuterPlus(usize, i64),
}

#[derive(Clone, Debug)]
enum Node {
    Loop {
        lb: Bound,
        ub: Bound,
        step: i64,
        body: Vec<Node>,
    },
    Access {
        write: bool,
        coeffs: Vec<i64>,
        constant: i64,
        div: Option<(bool, i64)>,
    },
}

/// A deterministic generator from one seed (proptest shrinks the seed).
struct Gen(u64);

impl Gen {
    fn next(&mut self, n: u64) -> i64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n) as i64
    }

    fn bound(&mut self, depth: usize, upper: bool) -> Bound {
        if depth > 0 && self.next(3) == 0 {
            let k = self.next(depth as u64) as usize;
            Bound::OuterPlus(
                k,
                if upper {
                    1 + self.next(4)
                } else {
                    self.next(3) - 1
                },
            )
        } else if upper {
            Bound::Const(2 + self.next(5))
        } else {
            Bound::Const(self.next(3))
        }
    }

    fn nodes(&mut self, depth: usize, budget: &mut usize) -> Vec<Node> {
        let mut out = Vec::new();
        let count = 1 + self.next(3);
        for _ in 0..count {
            if *budget == 0 {
                break;
            }
            if depth < 3 && self.next(2) == 0 {
                let lb = self.bound(depth, false);
                let ub = self.bound(depth, true);
                let step = if self.next(4) == 0 { 2 } else { 1 };
                let body = self.nodes(depth + 1, budget);
                out.push(Node::Loop { lb, ub, step, body });
            } else {
                *budget -= 1;
                let coeffs = (0..depth).map(|_| self.next(5) - 2).collect();
                let div = match self.next(5) {
                    0 => Some((false, 2 + self.next(2))),
                    1 => Some((true, 2 + self.next(2))),
                    _ => None,
                };
                out.push(Node::Access {
                    write: self.next(2) == 0,
                    coeffs,
                    constant: self.next(6),
                    div,
                });
            }
        }
        out
    }
}

fn bound_text(b: &Bound) -> String {
    match b {
        Bound::Const(c) => c.to_string(),
        Bound::OuterPlus(k, c) => format!("affine_map<(d0) -> (d0 + {c})>(%i{k})"),
    }
}

fn print(nodes: &[Node], depth: usize, out: &mut String) {
    for n in nodes {
        match n {
            Node::Loop { lb, ub, step, body } => {
                out.push_str(&format!(
                    "affine.for %i{depth} = {} to {} step {step} {{\n",
                    bound_text(lb),
                    bound_text(ub)
                ));
                print(body, depth + 1, out);
                out.push_str("}\n");
            }
            Node::Access {
                write,
                coeffs,
                constant,
                div,
            } => {
                let mut e = constant.to_string();
                for (k, c) in coeffs.iter().enumerate() {
                    if *c != 0 {
                        e = format!("{e} + %i{k} * {c}");
                    }
                }
                if let Some((is_mod, d)) = div {
                    e = format!("({e}) {} {d}", if *is_mod { "mod" } else { "floordiv" });
                }
                if *write {
                    out.push_str(&format!("affine.store %v, %m[{e}] : memref<64xf32>\n"));
                } else {
                    let n = out.matches("affine.load").count();
                    out.push_str(&format!("%x{n} = affine.load %m[{e}] : memref<64xf32>\n"));
                }
            }
        }
    }
}

/// One executed access instance.
struct Instance {
    access: usize,
    ivs: Vec<i64>,
    element: i64,
}

/// An access in the tree: its path of child positions and loops.
struct Site {
    write: bool,
    path: Vec<usize>,
    loops: Vec<usize>,
}

fn sites(
    nodes: &[Node],
    path: &mut Vec<usize>,
    loops: &mut Vec<usize>,
    out: &mut Vec<Site>,
    next_loop: &mut usize,
) {
    for (i, n) in nodes.iter().enumerate() {
        path.push(i);
        match n {
            Node::Loop { body, .. } => {
                loops.push(*next_loop);
                *next_loop += 1;
                sites(body, path, loops, out, next_loop);
                loops.pop();
            }
            Node::Access { write, .. } => out.push(Site {
                write: *write,
                path: path.clone(),
                loops: loops.clone(),
            }),
        }
        path.pop();
    }
}

fn run(nodes: &[Node], ivs: &mut Vec<i64>, counter: &mut usize, out: &mut Vec<Instance>) {
    for n in nodes {
        match n {
            Node::Loop { lb, ub, step, body } => {
                let eval = |b: &Bound, ivs: &[i64]| match b {
                    Bound::Const(c) => *c,
                    Bound::OuterPlus(k, c) => ivs[*k] + c,
                };
                let (l, u) = (eval(lb, ivs), eval(ub, ivs));
                let mut iv = l;
                while iv < u {
                    ivs.push(iv);
                    let before = *counter;
                    run(body, ivs, counter, out);
                    *counter = before;
                    ivs.pop();
                    iv += step;
                }
                *counter += count_accesses(body);
            }
            Node::Access {
                coeffs,
                constant,
                div,
                ..
            } => {
                let mut e = *constant;
                for (c, iv) in coeffs.iter().zip(ivs.iter()) {
                    e += c * iv;
                }
                if let Some((is_mod, d)) = div {
                    e = if *is_mod {
                        e.rem_euclid(*d)
                    } else {
                        e.div_euclid(*d)
                    };
                }
                out.push(Instance {
                    access: *counter,
                    ivs: ivs.clone(),
                    element: e,
                });
                *counter += 1;
            }
        }
    }
}

fn count_accesses(nodes: &[Node]) -> usize {
    nodes
        .iter()
        .map(|n| match n {
            Node::Loop { body, .. } => count_accesses(body),
            Node::Access { .. } => 1,
        })
        .sum()
}

fn approximated(nodes: &[Node]) -> bool {
    nodes.iter().any(|n| match n {
        Node::Loop { lb, step, body, .. } => {
            (*step > 1 && !matches!(lb, Bound::Const(_))) || approximated(body)
        }
        Node::Access { .. } => false,
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn dependences_match_execution(seed in 1u64..u64::MAX) {
        let mut g = Gen(seed);
        let mut budget = 4;
        let nodes = g.nodes(0, &mut budget);
        let mut body = String::new();
        print(&nodes, 0, &mut body);
        let src = format!("func.func @f(%m: memref<64xf32>, %v: f32) {{\n{body}return\n}}\n");
        let (ctx, ir, top) = parse_module(&src);
        let mut ops = Vec::new();
        ir.walk(top, &mut |op| {
            if matches!(ctx.str(ir.op_name(op)), "affine.load" | "affine.store") {
                ops.push(op);
            }
        });
        let accesses: Vec<MemoryAccess> = ops
            .iter()
            .map(|&op| accesses_of(&ctx, &ir, op).expect("affine").pop().expect("one access"))
            .collect();
        let mut all = Vec::new();
        sites(&nodes, &mut Vec::new(), &mut Vec::new(), &mut all, &mut 0);
        let mut trace = Vec::new();
        run(&nodes, &mut Vec::new(), &mut 0, &mut trace);
        let exact_model = !approximated(&nodes);
        let _ = ops_named(&ctx, &ir, top, "affine.for");
        for (a, sa) in all.iter().enumerate() {
            for (b, sb) in all.iter().enumerate() {
                if !sa.write && !sb.write {
                    continue;
                }
                let common = sa.loops.iter().zip(&sb.loops).take_while(|(x, y)| x == y).count();
                let src_first = sa.path < sb.path;
                for depth in 1..=common + 1 {
                    let witnesses: Vec<Vec<i64>> = trace
                        .iter()
                        .filter(|s| s.access == a)
                        .flat_map(|s| trace.iter().filter(|t| t.access == b).map(move |t| (s, t)))
                        .filter(|(s, t)| s.element == t.element)
                        .filter(|(s, t)| {
                            if depth <= common {
                                s.ivs[..depth - 1] == t.ivs[..depth - 1] && t.ivs[depth - 1] > s.ivs[depth - 1]
                            } else {
                                s.ivs[..common] == t.ivs[..common] && src_first
                            }
                        })
                        .map(|(s, t)| (0..common).map(|j| t.ivs[j] - s.ivs[j]).collect())
                        .collect();
                    for precision in [Precision::Shadow, Precision::Exact] {
                        let r = check_dependence(&ctx, &ir, &accesses[a], &accesses[b], depth, precision);
                        match &r {
                            DependenceResult::Failure => prop_assert!(false, "failure on\n{}", src),
                            DependenceResult::NoDependence => prop_assert!(
                                witnesses.is_empty(),
                                "missed dependence {} -> {} at depth {} in\n{}", a, b, depth, src
                            ),
                            DependenceResult::Dependence(comps) => {
                                prop_assert!(
                                    !exact_model || !witnesses.is_empty(),
                                    "spurious dependence {} -> {} at depth {} in\n{}", a, b, depth, src
                                );
                                prop_assert_eq!(comps.len(), common);
                                for w in &witnesses {
                                    for (j, c) in comps.iter().enumerate() {
                                        prop_assert!(c.lower.is_none_or(|l| l <= w[j]), "lower bound {:?} above distance {} in\n{}", c, w[j], src);
                                        prop_assert!(c.upper.is_none_or(|u| u >= w[j]), "upper bound {:?} below distance {} in\n{}", c, w[j], src);
                                    }
                                }
                                if precision == Precision::Exact && exact_model {
                                    for (j, c) in comps.iter().enumerate() {
                                        let min = witnesses.iter().map(|w| w[j]).min();
                                        let max = witnesses.iter().map(|w| w[j]).max();
                                        prop_assert_eq!((c.lower, c.upper), (min, max), "exact bounds in\n{}", src);
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
