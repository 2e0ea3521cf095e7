//! The top module's ports, in the brief's order: `clock`, `reset`,
//! `start`, `done`, `idle`, each scalar argument, each result
//! (`result<i>`), then per memref argument and port `p` `<A>_address<p>`,
//! `_ce<p>`, `_we<p>`, `_d<p>` (outputs) and `_q<p>` (input). Names come from the
//! arguments' `hls.name` (else `arg<i>`), spelled by
//! `interface::names`, which the co-simulation testbench shares.

use crate::model::interface::{names, Stream};
use crate::model::kernel::{Arg, Kernel};
use silica_hw_dialects::types::{self as hwt, Direction, Port};
use silica_ir::Context;

/// The name of port `kind` (`address`, `ce`, `we`, `d`, `q`) number `p`
/// of memory `name`.
pub fn memory_port(name: &str, kind: &str, p: u32) -> String {
    match kind {
        "address" => names::address(name, p),
        "ce" => names::ce(name, p),
        "we" => names::we(name, p),
        "d" => names::d(name, p),
        _ => names::q(name, p),
    }
}

/// The name of result `i`.
pub fn result_port(i: usize) -> String {
    names::result(i)
}

/// Every port of the kernel's top module, in order (the memories that
/// `streams` move have none; the streams' ports come last).
pub fn ports(ctx: &mut Context, k: &Kernel, streams: &[Stream]) -> Vec<Port> {
    let mut ports = Vec::new();
    let mut port = |dir: Direction, name: String, ty| ports.push(Port { dir, name, ty });
    let i1 = ctx.signless(1);
    port(Direction::Input, names::CLOCK.into(), hwt::clock(ctx));
    port(Direction::Input, names::RESET.into(), i1);
    port(Direction::Input, names::START.into(), i1);
    port(Direction::Output, names::DONE.into(), i1);
    port(Direction::Output, names::IDLE.into(), i1);
    for (_, s) in k.scalars() {
        port(Direction::Input, s.name.clone(), ctx.signless(s.width));
    }
    for (&w, &position) in k.results.iter().zip(&k.result_positions) {
        port(Direction::Output, result_port(position), ctx.signless(w));
    }
    for a in &k.args {
        let Arg::Memory(m) = a else { continue };
        if super::stream::streamed(k, streams, *m) {
            continue;
        }
        let m = &k.memories[*m];
        let aw = ctx.signless(m.address_width());
        let dw = ctx.signless(m.word_width());
        let we = ctx.signless(m.lanes);
        for p in 0..m.ports {
            port(Direction::Output, memory_port(&m.name, "address", p), aw);
            port(Direction::Output, memory_port(&m.name, "ce", p), i1);
            port(Direction::Output, memory_port(&m.name, "we", p), we);
            port(Direction::Output, memory_port(&m.name, "d", p), dw);
            port(Direction::Input, memory_port(&m.name, "q", p), dw);
        }
    }
    for p in streams.iter().flat_map(|s| s.ports()) {
        let dir = match p.direction {
            crate::model::interface::Direction::In => Direction::Input,
            crate::model::interface::Direction::Out => Direction::Output,
        };
        port(dir, p.name, ctx.signless(p.width));
    }
    ports
}
