//! The DMA engines a kernel's transfers need: memories linked by
//! transfers form a group (union of the transfers' ends) and each group
//! has one engine, which queues [`QUEUE_DEPTH`] transfers besides the
//! active one. The static DMA model (`schedule/dma_timing.rs`) and the
//! engines built (`construct/dma.rs`) follow this plan.

use crate::model::kernel::{Kernel, MemId};

/// Transfers an engine queues besides the active one.
pub const QUEUE_DEPTH: u32 = 2;

/// An engine's routes: the (source, destination) memories of its
/// transfers.
pub type Routes = Vec<(MemId, MemId)>;

fn find(parent: &mut [usize], x: usize) -> usize {
    let mut r = x;
    while parent[r] != r {
        r = parent[r];
    }
    parent[x] = r;
    r
}

/// The engines' routes (source and destination memories), memories
/// linked by transfers sharing one engine, and each DMA operation's engine
/// and route (`None` for waits).
pub fn groups(k: &Kernel) -> (Vec<Routes>, Vec<Option<(usize, usize)>>) {
    let mut of_start = vec![None; k.dmas.len()];
    let mut parent: Vec<usize> = (0..k.memories.len()).collect();
    for d in &k.dmas {
        if let Some(t) = &d.transfer {
            let (a, b) = (find(&mut parent, t.src), find(&mut parent, t.dst));
            parent[a] = b;
        }
    }
    let mut engine_of_root: Vec<Option<usize>> = vec![None; k.memories.len()];
    let mut groups: Vec<Vec<(MemId, MemId)>> = Vec::new();
    for (i, d) in k.dmas.iter().enumerate() {
        let Some(t) = &d.transfer else { continue };
        let root = find(&mut parent, t.src);
        let n = *engine_of_root[root].get_or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        let routes = &mut groups[n];
        let r = match routes.iter().position(|&x| x == (t.src, t.dst)) {
            Some(r) => r,
            None => {
                routes.push((t.src, t.dst));
                routes.len() - 1
            }
        };
        of_start[i] = Some((n, r));
    }
    (groups, of_start)
}
