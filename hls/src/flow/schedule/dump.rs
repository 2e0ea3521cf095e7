//! The schedule as text (`silica hls --dump-after=schedule`): each
//! pipelined loop with its II against its bounds, its depth and its
//! operations by step; each sequential block with its controller states
//! and its operations by step. An operation is its library class and
//! node number (`mul#11`) and, where it takes cycles, its latency.

use super::Schedules;
use crate::model::kernel::{Item, Kernel, NodeId};
use crate::model::target::library::class_of;
use std::fmt::Write;

/// The schedule `s` of kernel `k`.
pub fn text(k: &Kernel, s: &Schedules) -> String {
    let mut out = format!("schedule of {}\n", k.name);
    for l in k.loops_in_order() {
        if let Some(p) = &s.pipes[l] {
            let _ = writeln!(
                out,
                "loop {}: pipelined, II {} (ResMII {}, RecMII {}, MII {}), depth {}",
                k.loops[l].path, p.ii, p.res_mii, p.rec_mii, p.mii, p.depth
            );
            steps(k, s, &k.body_nodes(l), &mut out);
        }
    }
    for (b, nodes) in k.blocks.iter().enumerate() {
        if k.pipelined_loop_of(b).is_some() {
            continue;
        }
        let place = k
            .loops
            .iter()
            .find(|lp| lp.body.contains(&Item::Block(b)))
            .map_or(k.name.as_str(), |lp| lp.path.as_str());
        let _ = writeln!(out, "block {b} in {place}: {} state(s)", s.states[b]);
        steps(k, s, nodes, &mut out);
    }
    out
}

/// The operations `nodes`, by their start step.
fn steps(k: &Kernel, s: &Schedules, nodes: &[NodeId], out: &mut String) {
    let mut starts: Vec<u32> = nodes.iter().map(|&n| s.start[n]).collect();
    starts.sort_unstable();
    starts.dedup();
    for t in starts {
        let ops: Vec<String> = nodes
            .iter()
            .filter(|&&n| s.start[n] == t)
            .map(|&n| match s.latency[n] {
                0 => format!("{}#{n}", class_of(k.nodes[n].op)),
                c => format!("{}#{n} ({c} cycles)", class_of(k.nodes[n].op)),
            })
            .collect();
        let _ = writeln!(out, "  {t}: {}", ops.join(" "));
    }
}

#[cfg(test)]
mod tests {
    use crate::flow::schedule::schedule_kernel;
    use crate::model::target::library::Library;
    use crate::test_support::kernel;

    #[test]
    fn a_pipelined_loop_and_its_blocks_by_step() {
        let mut k = kernel(
            "func.func @f(%a: memref<8xi32>, %b: memref<8xi32>) {
               affine.for %i = 0 to 8 {
                 %v = affine.load %a[%i] : memref<8xi32>
                 %w = arith.muli %v, %v : i32
                 affine.store %w, %b[%i] : memref<8xi32>
               }
               return
             }",
            "f",
        );
        k.loops[0].pipelined = true;
        let lib = Library::for_target("ecp5-25k").unwrap();
        let deps = vec![Vec::new(); k.loops.len()];
        let (s, _) = schedule_kernel(&mut k, &lib, &Default::default(), 20.0, &deps).unwrap();
        let text = super::text(&k, &s);
        let p = s.pipes[0].as_ref().unwrap();
        assert!(
            text.starts_with(&format!(
                "schedule of f\nloop f/0: pipelined, II {} (ResMII {}, RecMII {}, MII {}), depth {}\n  0: ",
                p.ii, p.res_mii, p.rec_mii, p.mii, p.depth
            )),
            "{text}"
        );
        assert!(text.contains("load#"), "{text}");
        assert!(text.contains("mul#"), "{text}");
        assert!(text.contains("store#"), "{text}");
    }
}
