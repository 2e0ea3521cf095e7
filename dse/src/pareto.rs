//! Objectives (all minimised), Pareto dominance, the non-dominated
//! front, NSGA-II's non-dominated sorting and crowding distance, and the
//! hypervolume of a front (exact, by slicing one objective at a time:
//! fine for the fronts of a few hundred points and up to four
//! objectives that design spaces give).

use crate::eval::Metrics;

/// An objective to minimise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Objective {
    Cycles,
    Micros,
    Lut,
    Ff,
    Dsp,
    Bram,
}

impl Objective {
    pub const ALL: [(&'static str, Objective); 6] = [
        ("latency", Objective::Cycles),
        ("latency_us", Objective::Micros),
        ("lut", Objective::Lut),
        ("ff", Objective::Ff),
        ("dsp", Objective::Dsp),
        ("bram", Objective::Bram),
    ];

    pub fn parse(s: &str) -> Result<Objective, String> {
        Objective::ALL
            .iter()
            .find(|(n, _)| *n == s)
            .map(|&(_, o)| o)
            .ok_or_else(|| {
                format!(
                    "unknown objective '{s}' ({})",
                    Objective::ALL.map(|(n, _)| n).join(", ")
                )
            })
    }

    pub fn name(self) -> &'static str {
        Objective::ALL
            .iter()
            .find(|(_, o)| *o == self)
            .map_or("?", |(n, _)| n)
    }

    pub fn of(self, m: &Metrics) -> f64 {
        match self {
            Objective::Cycles => m.latency_cycles as f64,
            Objective::Micros => m.latency_us,
            Objective::Lut => m.lut as f64,
            Objective::Ff => m.ff as f64,
            Objective::Dsp => m.dsp as f64,
            Objective::Bram => m.bram as f64,
        }
    }
}

/// The objective vector of `m`.
pub fn vector(objectives: &[Objective], m: &Metrics) -> Vec<f64> {
    objectives.iter().map(|o| o.of(m)).collect()
}

/// Whether `a` dominates `b` (no worse in all, better in one).
pub fn dominates(a: &[f64], b: &[f64]) -> bool {
    a.iter().zip(b).all(|(x, y)| x <= y) && a.iter().zip(b).any(|(x, y)| x < y)
}

/// The indices of the non-dominated vectors, one per distinct vector
/// (the first), in input order.
pub fn front(points: &[Vec<f64>]) -> Vec<usize> {
    (0..points.len())
        .filter(|&i| {
            !points
                .iter()
                .enumerate()
                .any(|(j, q)| dominates(q, &points[i]) || (j < i && q == &points[i]))
        })
        .collect()
}

/// NSGA-II's fronts: rank 0 non-dominated, rank 1 non-dominated once
/// rank 0 is removed, ...
pub fn sort_fronts(points: &[Vec<f64>]) -> Vec<Vec<usize>> {
    let n = points.len();
    let mut dominated_by = vec![0usize; n];
    let mut dominates_list: Vec<Vec<usize>> = vec![Vec::new(); n];
    for i in 0..n {
        for j in 0..n {
            if dominates(&points[i], &points[j]) {
                dominates_list[i].push(j);
            } else if dominates(&points[j], &points[i]) {
                dominated_by[i] += 1;
            }
        }
    }
    let mut fronts = Vec::new();
    let mut current: Vec<usize> = (0..n).filter(|&i| dominated_by[i] == 0).collect();
    while !current.is_empty() {
        let mut next = Vec::new();
        for &i in &current {
            for &j in &dominates_list[i] {
                dominated_by[j] -= 1;
                if dominated_by[j] == 0 {
                    next.push(j);
                }
            }
        }
        next.sort_unstable();
        fronts.push(current);
        current = next;
    }
    fronts
}

/// The crowding distance of each member of `front` (indices into
/// `points`), in `front`'s order.
pub fn crowding(points: &[Vec<f64>], front: &[usize]) -> Vec<f64> {
    let n = front.len();
    let mut d = vec![0.0; n];
    let Some(first) = front.first() else {
        return d;
    };
    let columns: Vec<Vec<f64>> = (0..points[*first].len())
        .map(|k| front.iter().map(|&i| points[i][k]).collect())
        .collect();
    for col in &columns {
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| col[a].total_cmp(&col[b]));
        let lo = col[order[0]];
        let hi = col[order[n - 1]];
        d[order[0]] = f64::INFINITY;
        d[order[n - 1]] = f64::INFINITY;
        if hi > lo {
            for w in 1..n.saturating_sub(1) {
                d[order[w]] += (col[order[w + 1]] - col[order[w - 1]]) / (hi - lo);
            }
        }
    }
    d
}

/// The hypervolume dominated by `points` up to the reference point
/// `reference` (minimisation; points beyond the reference count for
/// nothing).
pub fn hypervolume(points: &[Vec<f64>], reference: &[f64]) -> f64 {
    let inside: Vec<Vec<f64>> = points
        .iter()
        .filter(|p| p.iter().zip(reference).all(|(x, r)| x < r))
        .cloned()
        .collect();
    slice(inside, reference)
}

fn slice(mut points: Vec<Vec<f64>>, reference: &[f64]) -> f64 {
    let d = reference.len();
    if points.is_empty() {
        return 0.0;
    }
    if d == 1 {
        let best = points.iter().map(|p| p[0]).fold(f64::INFINITY, f64::min);
        return reference[0] - best;
    }
    let last = d - 1;
    points.sort_by(|a, b| a[last].total_cmp(&b[last]));
    let mut volume = 0.0;
    for i in 0..points.len() {
        let next = points.get(i + 1).map_or(reference[last], |p| p[last]);
        let height = next - points[i][last];
        if height > 0.0 {
            let below: Vec<Vec<f64>> = points[..=i].iter().map(|p| p[..last].to_vec()).collect();
            let kept: Vec<Vec<f64>> = front(&below)
                .into_iter()
                .map(|j| below[j].clone())
                .collect();
            volume += height * slice(kept, &reference[..last]);
        }
    }
    volume
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn front_keeps_the_non_dominated_once() {
        let p = vec![
            vec![1.0, 5.0],
            vec![2.0, 2.0],
            vec![3.0, 3.0],
            vec![2.0, 2.0],
            vec![5.0, 1.0],
        ];
        assert_eq!(front(&p), vec![0, 1, 4]);
        assert_eq!(sort_fronts(&p), vec![vec![0, 1, 3, 4], vec![2]]);
    }

    #[test]
    fn hypervolume_of_staircases() {
        // Two points in 2-D: 3x1 + 1x2 = ... by hand: union of boxes
        // [1,4]x[3,4] (3) and [2,4]x[1,4] (6) overlap [2,4]x[3,4] (2).
        let hv = hypervolume(&[vec![1.0, 3.0], vec![2.0, 1.0]], &[4.0, 4.0]);
        assert!((hv - 7.0).abs() < 1e-9, "{hv}");
        // One point in 3-D is its box.
        let hv = hypervolume(&[vec![1.0, 1.0, 1.0]], &[2.0, 3.0, 4.0]);
        assert!((hv - 6.0).abs() < 1e-9, "{hv}");
        // A dominated point adds nothing.
        let a = hypervolume(&[vec![1.0, 1.0, 1.0]], &[3.0, 3.0, 3.0]);
        let b = hypervolume(
            &[vec![1.0, 1.0, 1.0], vec![2.0, 2.0, 2.0]],
            &[3.0, 3.0, 3.0],
        );
        assert!((a - b).abs() < 1e-9);
    }

    #[test]
    fn crowding_favours_the_ends() {
        let p = vec![vec![1.0, 4.0], vec![2.0, 3.0], vec![4.0, 1.0]];
        let d = crowding(&p, &[0, 1, 2]);
        assert!(d[0].is_infinite() && d[2].is_infinite() && d[1].is_finite());
    }
}
