//! Longest paths over weighted dependence edges by Bellman–Ford, shared
//! by the ASAP start times (`graph`), the chaining scheduler (`chaining`)
//! and the slot bound (`slots`). Edge weights are `latency - distance *
//! ii`; a positive cycle means the II is too small, and the routine then
//! answers `None`. Where the paths start is the caller's choice: from
//! every node at time 0 (earliest start times, nothing unreachable) or
//! from one node (the others unreachable until an edge reaches them).

use crate::problem::Problem;

/// Where longest paths start.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Sources {
    /// Every node, at 0: each result is at least 0 and none unreachable.
    All,
    /// This node alone, at 0: nodes no path reaches stay `None`.
    One(usize),
}

/// The dependences of `p` as edges `(src, dst, latency(src) - distance *
/// ii)`.
pub(crate) fn dependence_edges(p: &Problem, ii: u32) -> Vec<(usize, usize, i64)> {
    p.dependences
        .iter()
        .map(|d| {
            let w = i64::from(p.latency(d.src)) - i64::from(d.distance) * i64::from(ii);
            (d.src.0 as usize, d.dst.0 as usize, w)
        })
        .collect()
}

/// Longest paths over `edges` among `n` nodes from `from` (`None` entries
/// where unreachable), or `None` when a positive cycle is reachable.
pub(crate) fn longest_paths(
    n: usize,
    edges: &[(usize, usize, i64)],
    from: Sources,
) -> Option<Vec<Option<i64>>> {
    let mut d: Vec<Option<i64>> = match from {
        Sources::All => vec![Some(0); n],
        Sources::One(src) => {
            let mut d = vec![None; n];
            d[src] = Some(0);
            d
        }
    };
    // n rounds settle every path (through a virtual source for `All`);
    // a change in the round after that comes from a positive cycle. A
    // cycle among the nodes' last improving edges is a positive cycle
    // too (each edge of it improved its target past the path that last
    // reached its source), and shows up in far fewer rounds: the search
    // looks for one after every round.
    let mut parent = vec![usize::MAX; n];
    for _ in 0..=n {
        let mut changed = false;
        for &(s, t, w) in edges {
            if let Some(ds) = d[s] {
                if d[t].is_none_or(|dt| ds + w > dt) {
                    d[t] = Some(ds + w);
                    parent[t] = s;
                    changed = true;
                }
            }
        }
        if !changed {
            return Some(d);
        }
        if has_cycle(&parent) {
            return None;
        }
    }
    None
}

/// Whether following `parent` from some node (`usize::MAX`: none) comes
/// back around.
fn has_cycle(parent: &[usize]) -> bool {
    // 0: not seen, 1: on the walk being followed, 2: done.
    let mut state = vec![0u8; parent.len()];
    let mut walk = Vec::new();
    for start in 0..parent.len() {
        let mut v = start;
        while v != usize::MAX && state[v] == 0 {
            state[v] = 1;
            walk.push(v);
            v = parent[v];
        }
        if v != usize::MAX && state[v] == 1 {
            return true;
        }
        for u in walk.drain(..) {
            state[u] = 2;
        }
    }
    false
}

/// Earliest start times (longest paths from every node at 0) over
/// `edges`, or `None` when a positive cycle makes them unbounded.
pub(crate) fn earliest(n: usize, edges: &[(usize, usize, i64)]) -> Option<Vec<i64>> {
    let d = longest_paths(n, edges, Sources::All)?;
    Some(d.into_iter().map(|t| t.unwrap_or(0)).collect())
}

#[cfg(test)]
mod tests {
    use super::{earliest, longest_paths, Sources};

    #[test]
    fn paths_from_one_node_leave_the_unreachable_ones_none() {
        // 0 -> 1 (2), 0 -> 2 (1), 2 -> 1 (3), 3 -> 0 (5): from 0 the
        // longest path to 1 is through 2, and 3 is not reached.
        let edges = [(0, 1, 2), (0, 2, 1), (2, 1, 3), (3, 0, 5)];
        assert_eq!(
            longest_paths(4, &edges, Sources::One(0)),
            Some(vec![Some(0), Some(4), Some(1), None])
        );
        assert_eq!(
            longest_paths(4, &edges, Sources::One(3)),
            Some(vec![Some(5), Some(9), Some(6), Some(0)])
        );
    }

    #[test]
    fn paths_from_every_node_start_at_zero() {
        // A negative edge does not pull a start time below 0.
        let edges = [(0, 1, -3), (1, 2, 2), (3, 0, 5)];
        assert_eq!(earliest(4, &edges), Some(vec![5, 2, 4, 0]));
        assert_eq!(earliest(2, &[]), Some(vec![0, 0]));
    }

    #[test]
    fn a_positive_cycle_has_no_longest_paths() {
        // 1 -> 2 -> 1 weighs +1 around; a zero-weight cycle is fine.
        let edges = [(0, 1, 1), (1, 2, 2), (2, 1, -1)];
        assert_eq!(longest_paths(3, &edges, Sources::One(0)), None);
        assert_eq!(earliest(3, &edges), None);
        let tight = [(0, 1, 1), (1, 2, 2), (2, 1, -2)];
        assert_eq!(earliest(3, &tight), Some(vec![0, 1, 3]));
        // From a node the cycle is not reachable from, the answer stands.
        let behind = [(1, 2, 2), (2, 1, -1), (1, 0, 4)];
        assert_eq!(
            longest_paths(3, &behind, Sources::One(0)),
            Some(vec![Some(0), None, None])
        );
    }
}
