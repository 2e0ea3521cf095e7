//! The search: every point when the space is small enough, else NSGA-II
//! (Deb et al. 2002) over the genes (one choice index per dimension):
//! binary tournaments on rank and crowding distance, uniform crossover,
//! per-gene mutation, elitist selection of parents and children by
//! non-dominated fronts. Seeded (`fastrand`'s wyrand) and deterministic:
//! the same seed, space and results give the same points in the same
//! order. Points already evaluated are never asked for twice.

use crate::pareto::{crowding, sort_fronts};
use crate::space::Space;
use std::collections::BTreeMap;

/// Genes: one choice index per dimension.
pub type Genes = Vec<usize>;

/// What the evaluation of a batch gives for each point: its objective
/// vector (none: not a design), whether it cost an evaluation (pruned
/// and cached points cost none), and the share of the device's logic
/// and memory it takes where the search is asked to fit one
/// ([`crate::Capacity::usage`]).
pub struct Evaluated {
    pub objectives: Option<Vec<f64>>,
    pub cost: bool,
    pub usage: Option<f64>,
}

/// NSGA-II's parameters.
#[derive(Clone, Copy, Debug)]
pub struct Nsga2 {
    pub population: usize,
    /// Evaluations at most.
    pub budget: usize,
    pub seed: u64,
    /// No generation starts after this instant (the first always runs).
    pub deadline: Option<std::time::Instant>,
}

/// Every point of `space`, in enumeration order.
pub fn exhaustive(space: &Space) -> Vec<Genes> {
    (0..space.size()).map(|i| space.point(i)).collect()
}

/// `points` with the fewest copies of loop bodies first (the product of
/// their loop knobs' factors; in their order where equal): the points
/// quickest to build, and likeliest to fit, before a deadline.
pub fn smallest_first(space: &Space, mut points: Vec<Genes>) -> Vec<Genes> {
    let loops: Vec<usize> = (0..space.dims.len())
        .filter(|&d| matches!(space.dims[d].knob, crate::space::Knob::Loop(..)))
        .collect();
    points.sort_by_key(|g| crate::descent::copies(space, &loops, g));
    points
}

/// Runs NSGA-II on `space`; `evaluate` takes a batch of new points.
pub fn nsga2(space: &Space, params: Nsga2, evaluate: &mut dyn FnMut(&[Genes]) -> Vec<Evaluated>) {
    let mut rng = fastrand::Rng::with_seed(params.seed);
    let mut known: BTreeMap<Genes, Option<Vec<f64>>> = BTreeMap::new();
    let mut spent = 0usize;
    let total = space.size();
    let radix: Vec<usize> = space.dims.iter().map(|d| d.choices.len()).collect();
    let mut run =
        |batch: Vec<Genes>, known: &mut BTreeMap<Genes, Option<Vec<f64>>>, spent: &mut usize| {
            let results = evaluate(&batch);
            for (g, r) in batch.into_iter().zip(results) {
                *spent += usize::from(r.cost);
                known.insert(g, r.objectives);
            }
        };
    // The first population: random distinct points.
    let mut first = Vec::new();
    let mut tries = 0;
    while first.len() < params.population
        && (first.len() as u128) < total
        && tries < 100 * params.population
    {
        tries += 1;
        let g: Genes = radix.iter().map(|&n| rng.usize(..n)).collect();
        if !first.contains(&g) {
            first.push(g);
        }
    }
    let mut population = first.clone();
    run(first, &mut known, &mut spent);
    let in_time = || {
        params
            .deadline
            .is_none_or(|d| std::time::Instant::now() < d)
    };
    while spent < params.budget && (known.len() as u128) < total && in_time() {
        let ranked = rank(&population, &known);
        let mut children: Vec<Genes> = Vec::new();
        let mut attempts = 0;
        while children.len() < params.population && attempts < 50 * params.population {
            attempts += 1;
            let a = tournament(&ranked, &mut rng);
            let b = tournament(&ranked, &mut rng);
            let mut child: Genes = population[a]
                .iter()
                .zip(&population[b])
                .map(|(&x, &y)| if rng.bool() { x } else { y })
                .collect();
            let rate = 1.0 / radix.len().max(1) as f64;
            for (g, &n) in child.iter_mut().zip(&radix) {
                if n > 1 && rng.f64() < rate {
                    *g = rng.usize(..n);
                }
            }
            if !known.contains_key(&child) && !children.contains(&child) {
                children.push(child);
            }
        }
        if children.is_empty() {
            // Converged: spend what is left on random unseen points.
            let g: Genes = radix.iter().map(|&n| rng.usize(..n)).collect();
            if known.contains_key(&g) {
                continue;
            }
            children.push(g);
        }
        let room = params.budget.saturating_sub(spent).max(1);
        children.truncate(room);
        run(children.clone(), &mut known, &mut spent);
        let mut pool = population;
        pool.extend(children);
        population = select(pool, &known, params.population);
    }
}

/// Rank and crowding of each member of `population` (lower rank, then
/// larger crowding, is better); points that are not designs rank last.
fn rank(population: &[Genes], known: &BTreeMap<Genes, Option<Vec<f64>>>) -> Vec<(usize, f64)> {
    let valid: Vec<usize> = (0..population.len())
        .filter(|&i| matches!(known.get(&population[i]), Some(Some(_))))
        .collect();
    let vectors: Vec<Vec<f64>> = valid
        .iter()
        .map(|&i| known[&population[i]].clone().unwrap_or_default())
        .collect();
    let mut out = vec![(usize::MAX, 0.0); population.len()];
    for (r, front) in sort_fronts(&vectors).iter().enumerate() {
        let d = crowding(&vectors, front);
        for (k, &j) in front.iter().enumerate() {
            out[valid[j]] = (r, d[k]);
        }
    }
    out
}

fn better(a: (usize, f64), b: (usize, f64)) -> bool {
    a.0 < b.0 || (a.0 == b.0 && a.1 > b.1)
}

fn tournament(ranked: &[(usize, f64)], rng: &mut fastrand::Rng) -> usize {
    let a = rng.usize(..ranked.len());
    let b = rng.usize(..ranked.len());
    if better(ranked[b], ranked[a]) {
        b
    } else {
        a
    }
}

/// The best `n` of `pool` by rank, then crowding (stable: ties keep the
/// pool's order).
fn select(pool: Vec<Genes>, known: &BTreeMap<Genes, Option<Vec<f64>>>, n: usize) -> Vec<Genes> {
    let ranked = rank(&pool, known);
    let mut order: Vec<usize> = (0..pool.len()).collect();
    order.sort_by(|&a, &b| {
        ranked[a]
            .0
            .cmp(&ranked[b].0)
            .then(ranked[b].1.total_cmp(&ranked[a].1))
    });
    order.truncate(n);
    order.sort_unstable();
    order.into_iter().map(|i| pool[i].clone()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::{Dimension, Knob};
    use toml::Value;

    /// A 3-dimension space of 8 x 8 x 4 points.
    fn space() -> Space {
        let dim = |n: i64| Dimension {
            knob: Knob::Dma,
            choices: (0..n).map(Value::Integer).collect(),
        };
        Space {
            dims: vec![dim(8), dim(8), dim(4)],
            dma_capacity_kib: 1,
            buffers: Vec::new(),
        }
    }

    /// A toy trade-off: latency falls as the genes rise, area grows.
    fn objectives(g: &Genes) -> Vec<f64> {
        let s = (g[0] + g[1] + g[2]) as f64;
        vec![100.0 / (1.0 + s) + (g[0] as f64 - g[1] as f64).abs(), s * s]
    }

    fn run(seed: u64) -> Vec<Genes> {
        let mut seen = Vec::new();
        let params = Nsga2 {
            population: 8,
            budget: 64,
            seed,
            deadline: None,
        };
        nsga2(&space(), params, &mut |batch| {
            seen.extend(batch.iter().cloned());
            batch
                .iter()
                .map(|g| Evaluated {
                    objectives: Some(objectives(g)),
                    cost: true,
                    usage: None,
                })
                .collect()
        });
        seen
    }

    #[test]
    fn the_points_with_the_fewest_body_copies_come_first_in_their_order() {
        let lp = |key: &'static str, c: &[i64]| Dimension {
            knob: Knob::Loop("f/0".into(), key),
            choices: c.iter().map(|&f| Value::Integer(f)).collect(),
        };
        let width = Dimension {
            knob: Knob::Array("a".into(), "width"),
            choices: vec![Value::Integer(4), Value::Integer(1)],
        };
        let space = Space {
            dims: vec![lp("jam", &[4, 1]), lp("unroll", &[8, 2]), width],
            dma_capacity_kib: 1,
            buffers: Vec::new(),
        };
        let order = smallest_first(&space, exhaustive(&space));
        // Copies 2, 2, 8, 8, 8, 8, 32, 32 (the space's order, its first
        // knob turning fastest, among equals); a width is no copy.
        assert_eq!(
            order,
            [
                vec![1, 1, 0],
                vec![1, 1, 1],
                vec![1, 0, 0],
                vec![0, 1, 0],
                vec![1, 0, 1],
                vec![0, 1, 1],
                vec![0, 0, 0],
                vec![0, 0, 1],
            ]
        );
    }

    #[test]
    fn deterministic_for_a_seed_within_budget_and_never_twice() {
        let a = run(5);
        assert_eq!(a, run(5));
        assert_ne!(a, run(6));
        assert!(a.len() <= 64, "{}", a.len());
        let mut sorted = a.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), a.len());
    }

    #[test]
    fn finds_most_of_the_front() {
        let all = exhaustive(&space());
        let vectors: Vec<Vec<f64>> = all.iter().map(objectives).collect();
        let reference = [110.0, 300.0];
        let best = crate::pareto::hypervolume(&vectors, &reference);
        let seen: Vec<Vec<f64>> = run(1).iter().map(objectives).collect();
        let got = crate::pareto::hypervolume(&seen, &reference);
        assert!(got / best > 0.95, "{got} of {best}");
    }
}
