//! Random problem instances for property tests and benchmarks: a layered
//! dataflow graph (dependences from earlier to later operations), a few
//! operator types and limited resources, and for cyclic kinds loop-carried
//! dependences back to earlier operations with distances 1 to 3.

use crate::problem::{OpId, Problem, ProblemKind, ResourceTypeId};

/// Shape of a generated instance.
#[derive(Clone, Copy, Debug)]
pub struct RandomShape {
    pub kind: ProblemKind,
    pub operations: usize,
    /// Average incoming dependences per operation.
    pub fan_in: usize,
    /// Loop-carried dependences per 100 operations (cyclic kinds).
    pub back_edges_per_100: usize,
    /// Multiplies the resource limits (1, 2 and 3 units).
    pub resource_scale: u32,
}

/// A small deterministic generator (xorshift64*), so that a seed names an
/// instance.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// The instance of `shape` named by `seed`.
pub fn random_problem(shape: RandomShape, seed: u64) -> Problem {
    let mut rng = Rng(seed
        .wrapping_mul(2654435761)
        .wrapping_add(0x9E37_79B9_7F4A_7C15)
        | 1);
    let mut p = Problem::new(shape.kind);
    let latencies = [0, 1, 1, 2, 3];
    let types: Vec<_> = latencies
        .iter()
        .enumerate()
        .map(|(i, &l)| p.add_operator_type(&format!("t{i}_{l}"), l))
        .collect();
    if shape.kind.has_chaining() {
        for (i, t) in p.operator_types.iter_mut().enumerate() {
            let delay = 0.5 + (i % 3) as f64 * 0.5;
            t.incoming_delay = Some(delay);
            t.outgoing_delay = Some(delay);
        }
    }
    let resources: Vec<ResourceTypeId> = if shape.kind.has_resources() {
        vec![
            p.add_resource_type("port", shape.resource_scale),
            p.add_resource_type("mul", 2 * shape.resource_scale),
            p.add_resource_type("alu", 3 * shape.resource_scale),
        ]
    } else {
        Vec::new()
    };
    for _ in 0..shape.operations {
        let t = types[rng.below(types.len())];
        let latency = p.operator_types[t.0 as usize].latency.unwrap_or(0);
        let mut uses = Vec::new();
        // Limited resources need operations with a latency.
        if latency > 0 && !resources.is_empty() && rng.below(3) > 0 {
            uses.push(resources[rng.below(resources.len())]);
        }
        p.add_operation(t, &uses);
    }
    let n = shape.operations;
    for j in 1..n {
        let fan_in = rng.below(shape.fan_in * 2 + 1);
        for _ in 0..fan_in {
            // Mostly nearby producers, like straight-line code.
            let back = 1 + rng.below(j.min(8));
            p.add_dependence(OpId((j - back) as u32), OpId(j as u32), 0);
        }
    }
    if shape.kind.is_cyclic() && n > 1 {
        let count = (n * shape.back_edges_per_100).div_ceil(100);
        for _ in 0..count {
            let src = 1 + rng.below(n - 1);
            let dst = src - 1 - rng.below(src.min(10));
            let distance = 1 + rng.below(3) as u32;
            p.add_dependence(OpId(src as u32), OpId(dst as u32), distance);
        }
    }
    p
}
