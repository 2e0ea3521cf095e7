//! The loops an operation's value varies with (its *support*): the
//! enclosing loops whose induction variables or carried values reach it
//! through its operands, and, for a load, those in which its memory is
//! written. An operation computes one value per combination of its
//! support's iterations, however often its block runs: `alpha * A[i][k]`
//! inside the `j` loop of a product computes `i x k` values, which a
//! design may compute once each. The roofline's work (`work.rs`) counts
//! operations so, so that it is the same whichever directives (unrolling,
//! unroll-and-jam, hoisting) share such values among a body's copies.

use crate::model::kernel::{Item, Kernel, LoopId, NodeId, Op, Val};
use rustc_hash::FxHashSet;

/// The support of every node of a kernel.
pub struct Support {
    /// Per node, its support (loop ids, ascending); `None` for nodes in
    /// no block the walk reached.
    of: Vec<Option<Vec<LoopId>>>,
    /// Per block, the loops around it, outermost first.
    enclosing: Vec<Vec<LoopId>>,
}

impl Support {
    /// The support of the nodes of `k`.
    pub fn of(k: &Kernel) -> Support {
        let mut enclosing = vec![Vec::new(); k.blocks.len()];
        let mut loop_enclosing = vec![Vec::new(); k.loops.len()];
        let mut call_enclosing = vec![Vec::new(); k.calls.len()];
        let mut stack = Vec::new();
        walk(
            k,
            &k.body,
            &mut stack,
            &mut enclosing,
            &mut loop_enclosing,
            &mut call_enclosing,
        );
        // Per loop, the memories stored to inside it.
        let mut written: Vec<FxHashSet<usize>> = vec![FxHashSet::default(); k.loops.len()];
        for node in &k.nodes {
            if let Op::Store(m) = node.op {
                for &l in enclosing.get(node.block).map_or(&[][..], |e| e) {
                    written[l].insert(m);
                }
            }
        }
        let mut s = Support {
            of: vec![None; k.nodes.len()],
            enclosing,
        };
        let env = Env {
            k,
            loop_enclosing: &loop_enclosing,
            call_enclosing: &call_enclosing,
            written: &written,
        };
        for n in 0..k.nodes.len() {
            s.compute(&env, n, &mut FxHashSet::default());
        }
        s
    }

    /// The support of node `n`.
    pub fn loops(&self, n: NodeId) -> &[LoopId] {
        self.of[n].as_deref().unwrap_or(&[])
    }

    /// Whether node `n` varies with every loop around it (each run of its
    /// block computes a new value).
    pub fn full(&self, k: &Kernel, n: NodeId) -> bool {
        self.loops(n).len() == self.around(k, n).len()
    }

    /// The loops around node `n`'s block, outermost first.
    pub fn around(&self, k: &Kernel, n: NodeId) -> &[LoopId] {
        &self.enclosing[k.nodes[n].block]
    }

    fn compute(
        &mut self,
        env: &Env<'_>,
        n: NodeId,
        visiting: &mut FxHashSet<NodeId>,
    ) -> Vec<LoopId> {
        if let Some(s) = &self.of[n] {
            return s.clone();
        }
        let k = env.k;
        let node = &k.nodes[n];
        let around = self.enclosing[node.block].clone();
        if !visiting.insert(n) {
            // A cycle the datapath does not have: every loop around it.
            return around;
        }
        let mut loops: FxHashSet<LoopId> = FxHashSet::default();
        for &a in &node.args {
            match a {
                Val::Node(m) => loops.extend(self.compute(env, m, visiting)),
                Val::Iv(l) => {
                    loops.insert(l);
                }
                Val::Carried(l, _) => {
                    loops.insert(l);
                    loops.extend(&env.loop_enclosing[l]);
                }
                Val::Result(c, _) => loops.extend(&env.call_enclosing[c]),
                Val::Arg(_) | Val::Const(_) => {}
            }
        }
        if let Op::Load(m) = node.op {
            loops.extend(around.iter().filter(|&&l| env.written[l].contains(&m)));
        }
        // Only the loops around the node: a value from an inner loop's
        // last iteration varies with the loops around that loop alone.
        let mut out: Vec<LoopId> = around.into_iter().filter(|l| loops.contains(l)).collect();
        out.sort_unstable();
        visiting.remove(&n);
        self.of[n] = Some(out.clone());
        out
    }
}

/// What the support of a node is computed from.
struct Env<'a> {
    k: &'a Kernel,
    loop_enclosing: &'a [Vec<LoopId>],
    call_enclosing: &'a [Vec<LoopId>],
    written: &'a [FxHashSet<usize>],
}

/// Records the loops around every block, loop and call of `items`.
fn walk(
    k: &Kernel,
    items: &[Item],
    stack: &mut Vec<LoopId>,
    blocks: &mut [Vec<LoopId>],
    loops: &mut [Vec<LoopId>],
    calls: &mut [Vec<LoopId>],
) {
    for it in items {
        match *it {
            Item::Block(b) => blocks[b] = stack.clone(),
            Item::Loop(l) => {
                loops[l] = stack.clone();
                stack.push(l);
                stack.extend(&k.loops[l].flat);
                for &b in &k.loops[l].sunk {
                    blocks[b] = stack.clone();
                }
                walk(k, &k.loops[l].body, stack, blocks, loops, calls);
                stack.truncate(loops[l].len());
            }
            Item::Call(c) => calls[c] = stack.clone(),
            Item::Dma(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::kernel;

    #[test]
    fn a_product_of_invariant_operands_varies_with_their_loops_alone() {
        let k = kernel(
            "func.func @g(%alpha: i32, %a: memref<4x8xi32>, %b: memref<8x6xi32>, %c: memref<4x6xi32>) {
               affine.for %i = 0 to 4 {
                 affine.for %j = 0 to 6 {
                   affine.for %k = 0 to 8 {
                     %x = affine.load %a[%i, %k] : memref<4x8xi32>
                     %ax = arith.muli %alpha, %x : i32
                     %y = affine.load %b[%k, %j] : memref<8x6xi32>
                     %p = arith.muli %ax, %y : i32
                     %z = affine.load %c[%i, %j] : memref<4x6xi32>
                     %s = arith.addi %z, %p : i32
                     affine.store %s, %c[%i, %j] : memref<4x6xi32>
                   }
                 }
               }
               return
             }",
            "g",
        );
        let s = Support::of(&k);
        let muls: Vec<NodeId> = (0..k.nodes.len())
            .filter(|&n| k.nodes[n].op == Op::Mul && k.nodes[n].width == 32)
            .collect();
        assert_eq!(muls.len(), 2);
        // alpha * A[i][k]: i and k; the product: all three.
        assert_eq!(s.loops(muls[0]).len(), 2);
        assert!(!s.full(&k, muls[0]));
        assert!(s.full(&k, muls[1]));
    }
}
