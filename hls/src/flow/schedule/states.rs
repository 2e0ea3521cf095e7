//! Which controller states a schedule gives a loop: whether a
//! sequential loop needs a head state of its own (the controller, the
//! latency figures and the overlap of pipelines all ask).

use super::Schedules;
use crate::model::kernel::{Item, Kernel, LoopId};

/// Whether sequential loop `l` runs at least one iteration whenever it is
/// entered (constant bounds).
fn runs_once(k: &Kernel, l: LoopId) -> bool {
    let lp = &k.loops[l];
    matches!((lp.lower.constant(), lp.upper.constant()), (Some(a), Some(b)) if b > a)
}

/// Whether the body of loop `l` has a controller state (so a transition
/// through it ends).
fn body_has_state(k: &Kernel, s: &Schedules, l: LoopId) -> bool {
    k.loops[l].body.iter().any(|it| match *it {
        Item::Block(b) => s.states[b] > 0,
        Item::Dma(_) => true,
        Item::Loop(m) => k.loops[m].pipelined || needs_head(k, s, m) || body_has_state(k, s, m),
        Item::Call(_) => true,
    })
}

/// Whether sequential loop `l` needs a head state: it may run no
/// iteration, or its body has no state.
pub fn needs_head(k: &Kernel, s: &Schedules, l: LoopId) -> bool {
    if k.loops[l].test.is_some() {
        return !body_has_state(k, s, l);
    }
    !k.loops[l].pipelined && (!runs_once(k, l) || !body_has_state(k, s, l))
}
