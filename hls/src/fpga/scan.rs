//! A scan wrapper for designs whose ports outnumber the package's pins:
//! `hw.module @<top>_scan` keeps `clock`, `reset`, `start`, `done` and
//! `idle` as pins and adds `scan_in` and `scan_out`. Every other input of
//! the core (scalars, memories' read data) is a bit of a shift register
//! fed by `scan_in`; every other output (results, addresses, enables,
//! write data) is xored into a second shift register that ends at
//! `scan_out`. Nothing of the core is left unobservable, so synthesis
//! keeps all of it, and its paths from and to the ports become paths
//! between registers, as they are when the core sits between registered
//! block RAMs. The wrapper adds one flip-flop per port bit (and one LUT
//! per output bit), which `Scan` reports beside the figures.
//!
//! The wrapper is built through the IR API next to the core (parsed back
//! from `F.hw.mlir`) and emitted with the core by the Verilog emitter
//! (`crate::flow::construct::beside`).

use crate::flow::construct::beside::emit_beside;
use crate::flow::report::synthesis::Scan;
use crate::model::interface::names::{self, CONTROL};
use crate::model::interface::{Direction, Interface};
use silica_hw_dialects::types;
use silica_ir::{Context, Type, ValueId};

/// The design's SystemVerilog with the scan wrapper of its top added, and
/// what the wrapper adds.
pub fn wrap(ctx: &mut Context, hw_mlir: &str, iface: &Interface) -> Result<(String, Scan), String> {
    let ports = iface.ports();
    let scanned = |dir| {
        ports
            .iter()
            .filter(move |p| p.direction == dir && !CONTROL.contains(&p.name.as_str()))
    };
    let input_bits: u32 = scanned(Direction::In).map(|p| p.width).sum();
    let output_bits: u32 = scanned(Direction::Out).map(|p| p.width).sum();
    let name = format!("{}_scan", iface.top);
    let clock_ty = types::clock(ctx);
    let i1 = ctx.signless(1);
    let wrapper_ports = [
        (types::Direction::Input, names::CLOCK, clock_ty),
        (types::Direction::Input, names::RESET, i1),
        (types::Direction::Input, names::START, i1),
        (types::Direction::Input, "scan_in", i1),
        (types::Direction::Output, names::DONE, i1),
        (types::Direction::Output, names::IDLE, i1),
        (types::Direction::Output, "scan_out", i1),
    ];
    let verilog = emit_beside(
        ctx,
        hw_mlir,
        &name,
        "the scan wrapper",
        &wrapper_ports,
        |hw, args| {
            let (clock, reset, start, scan_in) = (args[0], args[1], args[2], args[3]);
            let one = hw.constant(1, 1);
            // The input chain: shifts scan_in in at bit 0 every cycle.
            let mut operands = vec![clock, reset, start];
            if input_bits > 0 {
                let chain = hw.shift_in("scan_in_chain", scan_in, input_bits);
                let mut low = 0;
                for p in scanned(Direction::In) {
                    operands.push(hw.extract(chain, low, p.width));
                    low += p.width;
                }
            }
            let results: Vec<(String, u32)> = ports
                .iter()
                .filter(|p| p.direction == Direction::Out)
                .map(|p| (p.name.clone(), p.width))
                .collect();
            let typed: Vec<(&str, Type)> = results
                .iter()
                .map(|r| (r.0.as_str(), hw.int(r.1)))
                .collect();
            let arg_names: Vec<&str> = ports
                .iter()
                .filter(|p| p.direction == Direction::In)
                .map(|p| p.name.as_str())
                .collect();
            let inst = hw.instance(&iface.top, "core", &operands, &arg_names, &typed);
            let outs: Vec<ValueId> = (0..results.len()).map(|i| hw.ir.result(inst, i)).collect();
            let out = |n: &str| results.iter().position(|r| r.0 == n).map(|i| outs[i]);
            let (done, idle) = (
                out(names::DONE).ok_or("the core has no done port")?,
                out(names::IDLE).ok_or("the core has no idle port")?,
            );
            // The output chain: shifts towards scan_out, every output xored in.
            let scan_out = if output_bits == 0 {
                hw.constant(0, 1)
            } else {
                let chain = hw.reg("scan_out_chain", output_bits, None);
                let mut all: Option<ValueId> = None;
                for (r, &v) in results.iter().zip(&outs) {
                    if CONTROL.contains(&r.0.as_str()) {
                        continue;
                    }
                    all = Some(match all {
                        None => v,
                        Some(lo) => hw.concat(v, lo),
                    });
                }
                let all = all.ok_or("the core has no scanned outputs")?;
                let shifted = if output_bits == 1 {
                    hw.constant(0, 1)
                } else {
                    let kept = hw.extract(chain.q, 0, output_bits - 1);
                    let zero = hw.constant(0, 1);
                    hw.concat(kept, zero)
                };
                let next = hw.comb("comb.xor", &[shifted, all]);
                hw.connect(chain, &[(one, next)]);
                hw.extract(chain.q, output_bits - 1, 1)
            };
            Ok(vec![done, idle, scan_out])
        },
    )?;
    Ok((
        verilog,
        Scan {
            module: name,
            input_bits: u64::from(input_bits),
            output_bits: u64::from(output_bits),
        },
    ))
}
