//! Pruning by lower bounds: before a point is evaluated, its objective
//! vector is bounded from below without scheduling it
//! ([`silica_hls::lower_bound`]: latency from the memory ports, the
//! limited units and the recurrences, the block RAMs exactly, the DSPs
//! and LUTs of the one multiplier every design keeps, plus the LUTs of
//! the loop counters on a path of the loop tree); a point whose bound
//! vector is dominated by a point
//! already evaluated cannot be on the front and is skipped. The bounds
//! are on what the search's level reports: at `estimate` the latency in
//! cycles and in us (cycles at the asked period: the estimate takes the
//! longer of it and the predicted one), the block RAMs, DSPs and LUTs; at
//! `synth` and `pnr` the cycles (and at `synth` the us) only, since
//! yosys and nextpnr measure the rest. Flip-flops are bounded by 0, LUTs
//! far below any design: with either among the objectives, pruning is
//! left off ([`useful`]).

use crate::eval::Level;
use crate::pareto::Objective;
use crate::space::{Knob, Space};

/// Whether bounds can prune anything with these objectives at `level`:
/// each must have a bound above 0 (a point is pruned when an evaluated
/// one is no worse in every objective, and no design has 0 LUTs or
/// flip-flops). LUTs are left out too: their bound, one multiplier's
/// and the loop counters' (at most 28 + 3 x 4 = 40 on ecp5-25k on
/// examples/gemm.mlir's space), is far under any design's (278 and more
/// there), and no sound bound would reach that (the multiplexers and
/// registers that make most of a design follow its schedule), so no
/// point would be pruned.
pub fn useful(objectives: &[Objective], level: Level) -> bool {
    objectives
        .iter()
        .all(|&o| o != Objective::Lut && vector(&[o], &least(), level) != [0.0])
}

/// The bound vector of `b` for `objectives` at `level`.
pub fn vector(objectives: &[Objective], b: &silica_hls::LowerBound, level: Level) -> Vec<f64> {
    objectives
        .iter()
        .map(|o| match (o, level) {
            (Objective::Cycles, _) => b.latency_cycles as f64,
            (Objective::Micros, Level::Estimate | Level::Synth) => {
                b.latency_cycles as f64 * b.clock_ns / 1000.0
            }
            (Objective::Bram, Level::Estimate) => b.bram as f64,
            (Objective::Dsp, Level::Estimate) => b.dsp as f64,
            (Objective::Lut, Level::Estimate) => b.lut as f64,
            _ => 0.0,
        })
        .collect()
}

/// The points (`genes`, by index) each of `threads` bounding threads
/// takes: points that differ only in `[limits]` and the clock period
/// lift to the same kernel ([`silica_hls::flow::lifts`]), so each such group
/// goes whole to one thread (the thread with the fewest points so far,
/// the largest groups first) and is lifted once, not once per thread.
pub fn shares<'a>(
    space: &Space,
    genes: impl IntoIterator<Item = &'a [usize]>,
    threads: usize,
) -> Vec<Vec<usize>> {
    let mut groups = std::collections::BTreeMap::<Vec<usize>, Vec<usize>>::new();
    for (i, g) in genes.into_iter().enumerate() {
        let lifted: Vec<usize> = space
            .dims
            .iter()
            .zip(g)
            .map(|(d, &c)| match d.knob {
                Knob::Limit(_) | Knob::ClockNs => 0,
                _ => c,
            })
            .collect();
        groups.entry(lifted).or_default().push(i);
    }
    let mut groups: Vec<Vec<usize>> = groups.into_values().collect();
    groups.sort_by_key(|g| std::cmp::Reverse(g.len()));
    let mut shares = vec![Vec::new(); threads.max(1)];
    for g in groups {
        if let Some(least) = shares.iter_mut().min_by_key(|s| s.len()) {
            least.extend(g);
        }
    }
    shares.retain(|s| !s.is_empty());
    shares
}

/// A bound with every figure at 1 (what [`useful`] tests against).
fn least() -> silica_hls::LowerBound {
    silica_hls::LowerBound {
        latency_cycles: 1,
        bram: 1,
        dsp: 1,
        lut: 1,
        clock_ns: 1.0,
    }
}

/// The first of `evaluated` (objective vectors) that dominates `bound`.
pub fn dominated_by<'a>(
    bound: &[f64],
    evaluated: impl IntoIterator<Item = (usize, &'a [f64])>,
) -> Option<usize> {
    evaluated
        .into_iter()
        .find(|(_, v)| crate::pareto::dominates(v, bound))
        .map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn useful_only_where_every_objective_can_be_dominated() {
        use Objective::*;
        assert!(useful(&[Cycles, Micros, Bram], Level::Estimate));
        assert!(useful(&[Cycles, Dsp, Bram], Level::Estimate));
        assert!(!useful(&[Cycles, Lut, Dsp, Bram], Level::Estimate));
        assert!(!useful(&[Dsp, Ff], Level::Estimate));
        assert!(useful(&[Cycles], Level::Pnr));
        assert!(!useful(&[Micros, Bram], Level::Pnr));
        assert!(!useful(&[Cycles, Lut], Level::Synth));
        assert!(useful(&[Dsp], Level::Estimate));
    }

    #[test]
    fn shares_keep_each_lifted_kernel_on_one_thread() {
        use crate::space::Dimension;
        let dim = |knob: Knob, n: usize| Dimension {
            knob,
            choices: (0..n as i64).map(toml::Value::Integer).collect(),
        };
        let space = Space {
            dims: vec![
                dim(Knob::Loop("j".into(), "unroll"), 3),
                dim(Knob::ClockNs, 2),
                dim(Knob::Limit("mul".into()), 2),
            ],
            dma_capacity_kib: 0,
            buffers: Vec::new(),
        };
        let genes: Vec<Vec<usize>> = (0..3)
            .flat_map(|u| (0..2).flat_map(move |c| (0..2).map(move |m| vec![u, c, m])))
            .collect();
        let shares = shares(&space, genes.iter().map(|g| g.as_slice()), 2);
        assert_eq!(shares.len(), 2);
        let mut all: Vec<usize> = shares.concat();
        all.sort_unstable();
        assert_eq!(all, (0..12).collect::<Vec<_>>());
        // Each unroll factor (the lifted kernel) is on one thread only.
        for u in 0..3 {
            let holding = shares
                .iter()
                .filter(|s| s.iter().any(|&i| genes[i][0] == u))
                .count();
            assert_eq!(holding, 1, "unroll choice {u}");
        }
        assert_eq!(shares.iter().map(Vec::len).max(), Some(8));
    }

    #[test]
    fn vectors_follow_the_level() {
        let b = silica_hls::LowerBound {
            latency_cycles: 200,
            bram: 3,
            dsp: 6,
            lut: 40,
            clock_ns: 10.0,
        };
        let all = [
            Objective::Cycles,
            Objective::Micros,
            Objective::Dsp,
            Objective::Bram,
        ];
        assert_eq!(vector(&all, &b, Level::Estimate), [200.0, 2.0, 6.0, 3.0]);
        assert_eq!(vector(&all, &b, Level::Synth), [200.0, 2.0, 0.0, 0.0]);
        assert_eq!(vector(&all, &b, Level::Pnr), [200.0, 0.0, 0.0, 0.0]);
        let evaluated = [vec![210.0, 2.1, 4.0, 3.0], vec![190.0, 1.9, 6.0, 3.0]];
        let bound = vector(&all, &b, Level::Estimate);
        let found = dominated_by(
            &bound,
            evaluated.iter().enumerate().map(|(i, v)| (i, v.as_slice())),
        );
        assert_eq!(found, Some(1));
        assert_eq!(dominated_by(&bound, [(0, evaluated[0].as_slice())]), None);
    }
}
