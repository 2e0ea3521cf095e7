//! The multiplications a kernel executes over a run, counted on its loop
//! tree with the values of the enclosing induction variables (bounds
//! through index arithmetic included, so tiled and DMA-copied nests are
//! counted). A multiplication is a node of library class `mul` that is not
//! by a constant (those become shifts and adds) or of class `fmul`.
//! Calls are not counted: a callee is a module of its own.

use crate::model::kernel::{Item, Kernel, LoopId, NodeId, Op};

/// Iterations visited before giving up.
const BUDGET: u64 = 20_000_000;

/// Whether node `n` of `k` is a multiplication (see the module's doc).
pub fn is_multiplication(k: &Kernel, n: NodeId) -> bool {
    let node = &k.nodes[n];
    match crate::model::target::library::class_of(node.op) {
        "fmul" => true,
        "mul" => !(node.op == Op::Mul && node.args.iter().any(|&a| k.const_value(a).is_some())),
        _ => false,
    }
}

/// The multiplications `k` executes over a run: each executes once per
/// iteration of the loops around its block (a flattened nest's body and
/// sunk code once per iteration of the flattened loop, as its pipeline
/// does). None when a bound depends on data, an `scf.while` runs, or the
/// nest is too large to walk.
pub fn executed(k: &Kernel) -> Option<u64> {
    executed_where(k, is_multiplication)
}

/// The nodes of `k` for which `counted` holds that a run executes,
/// counted as [`executed`] counts multiplications.
pub fn executed_where(k: &Kernel, counted: impl Fn(&Kernel, NodeId) -> bool) -> Option<u64> {
    let per_block: Vec<u64> = k
        .blocks
        .iter()
        .map(|nodes| nodes.iter().filter(|&&n| counted(k, n)).count() as u64)
        .collect();
    let mut c = Count {
        k,
        per_block,
        env: vec![None; k.loops.len()],
        budget: BUDGET,
    };
    c.items(&k.body)
}

struct Count<'a> {
    k: &'a Kernel,
    per_block: Vec<u64>,
    env: Vec<Option<i64>>,
    budget: u64,
}

impl Count<'_> {
    fn items(&mut self, items: &[Item]) -> Option<u64> {
        let mut total = 0u64;
        for it in items {
            total = total.checked_add(match *it {
                Item::Block(b) => self.per_block[b],
                Item::Loop(l) => self.run_loop(l)?,
                Item::Dma(_) | Item::Call(_) => 0,
            })?;
        }
        Some(total)
    }

    fn run_loop(&mut self, l: LoopId) -> Option<u64> {
        let k = self.k;
        let lp = &k.loops[l];
        if lp.test.is_some() {
            return None;
        }
        let super::trips::Iterations { lo, step, count: n } =
            super::trips::flat_iterations(k, &self.env, l)?;
        let sunk: u64 = lp.sunk.iter().map(|&b| self.per_block[b]).sum();
        // A body without loops counts the same in every iteration.
        if !lp.body.iter().any(|it| matches!(it, Item::Loop(_))) {
            return n.checked_mul(self.items(&lp.body)?.checked_add(sunk)?);
        }
        let mut total = n.checked_mul(sunk)?;
        let mut iv = lo;
        for _ in 0..n {
            self.budget = self.budget.checked_sub(1)?;
            self.env[l] = Some(iv);
            total = total.checked_add(self.items(&lp.body)?)?;
            iv += step;
        }
        self.env[l] = None;
        Some(total)
    }
}
