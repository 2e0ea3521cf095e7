//! What the scan wrapper (`crate::fpga::scan`) adds to a design whose
//! ports outnumber the package's pins, as yosys keeps it (measured on
//! vadd: the core alone and behind the wrapper, both families):
//!
//! - the input chain's flip-flops up to the last bit the core reads (the
//!   bits past it feed nothing and are removed), each loaded from its
//!   neighbour: no LUT;
//! - the output chain's flip-flops from the first output bit that is not
//!   a constant (the bits before it stay constant); a bit whose output is
//!   a constant only shifts (no LUT), the others take an xor: one LUT per
//!   bit, except on iCE40 where the output comes out of LUTs with an input
//!   to spare (an adder's: yosys merges the xor into it; counted as for
//!   every output computed by LUTs).
//!
//! Which ports are scanned, and when, mirrors `fpga::scan` and
//! `fpga::netlist`: every port but the clock, reset, start, done and
//! idle, once the interface's port bits exceed the device's IO pins.

use super::price::Pricer;
use crate::model::interface::names::CONTROL;
use crate::model::interface::Interface;
use crate::model::target::library::Library;
use silica_hw_dialects::types::{self, bit_width, Direction};
use silica_ir::{Context, Ir, OpId};

/// The wrapper's logic.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Wrapper {
    pub lut: f64,
    pub ff: u64,
    /// Its flip-flops loaded from no LUT.
    pub lone_ff: u64,
    /// The core's flip-flops that hold what a bit of the input chain
    /// holds (registers of input ports): yosys merges them with the
    /// chain's (`super::flops::Flops::chain_merged`).
    pub merged: u64,
    /// The core module whose outputs the output chain reads through xor
    /// LUTs of their own (ECP5: its carry cells have no input to spare),
    /// a LUT level after the core's output paths; `None` on iCE40.
    pub xor_level: Option<String>,
}

/// The scan wrapper of the design whose top module (`iface.top`, in the
/// `builtin.module` `top`) has the interface `iface` on the library's
/// device; `None` when its ports fit the pins (or the target is no
/// device).
pub fn wrapper(
    ctx: &Context,
    ir: &Ir,
    top: OpId,
    iface: &Interface,
    lib: &Library,
) -> Option<Wrapper> {
    let dev = lib.device;
    if !dev.family.is_device() || iface.port_bits() <= dev.io {
        return None;
    }
    let body = ir.regions(top).next().and_then(|r| ir.entry_block(r))?;
    let module = ir.block_ops(body).find(|&m| {
        ctx.str(ir.op_name(m)) == "hw.module"
            && silica_hw_dialects::hw::symbol_name(ctx, ir, m) == iface.top
    })?;
    let block = ir.regions(module).next().and_then(|r| ir.entry_block(r))?;
    let price = Pricer::new(ctx, ir, lib, block);
    let ports = silica_hw_dialects::hw::module_ports(ctx, ir, module);
    let scanned = |dir| {
        ports
            .iter()
            .filter(move |p| p.dir == dir)
            .enumerate()
            .filter(|(_, p)| !CONTROL.contains(&p.name.as_str()))
    };
    let width = |p: &types::Port| bit_width(ctx, p.ty).unwrap_or(1);
    let mut w = Wrapper {
        xor_level: lib
            .fabric()
            .carry_chains_take_feed_cells
            .then(|| iface.top.clone()),
        ..Wrapper::default()
    };
    // The input chain, to the last bit read.
    let args = ir.block_args(block);
    let mut bits = 0;
    let mut offsets = rustc_hash::FxHashMap::default();
    for (i, p) in scanned(Direction::Input) {
        if let Some(&a) = args.get(i) {
            offsets.insert(a, bits as u32);
        }
        bits += width(p);
        if args.get(i).is_some_and(|&a| ir.has_uses(a)) {
            w.ff = bits;
        }
    }
    w.merged =
        super::flops::Flops::of(ctx, ir, block).chain_merged(ir, block, &offsets, w.ff as u32);
    w.lone_ff = w.ff;
    // The output chain, from the first bit that is not a constant.
    let output = ir
        .block_ops(block)
        .find(|&o| ctx.str(ir.op_name(o)) == "hw.output")?;
    let results: Vec<_> = ir.operands(output).collect();
    let mut started = false;
    for (i, p) in scanned(Direction::Output) {
        let bits = width(p);
        let Some(&v) = results.get(i) else { continue };
        if price.is_constant(v) {
            if started {
                w.ff += bits;
                w.lone_ff += bits;
            }
            continue;
        }
        started = true;
        w.ff += bits;
        if !lib.fabric().adders_pack_an_input || !price.computed_by_luts(v) {
            w.lut += bits as f64;
        }
    }
    Some(w)
}

#[cfg(test)]
mod tests {
    use super::Wrapper;
    use crate::test_support::context;
    use silica_ir::parser::{parse, ParseOptions};

    const VADD: &str = r#"
func.func @vadd(%a: memref<64xi32>, %b: memref<64xi32>, %c: memref<64xi32>) {
  affine.for %i = 0 to 64 {
    %x = affine.load %a[%i] : memref<64xi32>
    %y = affine.load %b[%i] : memref<64xi32>
    %s = arith.addi %x, %y : i32
    affine.store %s, %c[%i] : memref<64xi32>
  }
  return
}
func.func @delayed(%a: memref<64xi32>, %b: memref<64xi32>, %c: memref<64xi32>) {
  affine.for %i = 0 to 64 {
    %x = affine.load %a[%i] : memref<64xi32>
    %y = affine.load %b[%i] : memref<64xi32>
    %p = arith.muli %y, %y : i32
    %s = arith.addi %x, %p : i32
    affine.store %s, %c[%i] : memref<64xi32>
  }
  return
}
func.func @add(%x: i8, %y: i8) -> i8 {
  %s = arith.addi %x, %y : i8
  return %s : i8
}
"#;

    /// The design `top` of `VADD` on `target` at 30 ns (its estimate).
    fn design(top: &str, target: &str) -> crate::Estimated {
        design_at(top, target, 30.0)
    }

    /// The design `top` of `VADD` on `target` at `clock_ns`.
    fn design_at(top: &str, target: &str, clock_ns: f64) -> crate::Estimated {
        let mut ctx = context();
        let m = parse(&mut ctx, "t.mlir", VADD.as_bytes(), ParseOptions::default()).unwrap();
        let opts = crate::Options {
            clock_ns: Some(clock_ns),
            ..crate::Options::new(top, crate::Target::named(target).unwrap())
        };
        crate::estimate(&mut ctx, &m.ir, m.top, &opts).unwrap_or_else(|d| panic!("{}", d.message))
    }

    /// The scan wrapper of that design.
    fn wrapper(top: &str, target: &str) -> Option<Wrapper> {
        design(top, target).estimate.scan
    }

    #[test]
    fn the_scan_wrapper_counts_when_the_ports_outnumber_the_pins() {
        // vadd: 221 port bits, more than either package's pins. The input
        // chain ends at b_q0 (c_q0 is not read): 64 flip-flops loaded from
        // their neighbours. The output chain: 120 bits, of which the write
        // data and write enables of a and b (66 bits) are constants that
        // only shift; the other 54 take an xor each, but on iCE40 the 34
        // computed by LUTs (c_d0 by the adder, two enables) merge into
        // them (yosys: 53 more LUT4s than the core alone on the ECP5, 21
        // on the UP5K).
        let lone = 64 + 66;
        assert_eq!(
            wrapper("vadd", "ecp5-25k"),
            Some(Wrapper {
                lut: 54.0,
                ff: 184,
                lone_ff: lone,
                merged: 0,
                xor_level: Some("vadd".to_string()),
            })
        );
        assert_eq!(
            wrapper("vadd", "ice40-up5k"),
            Some(Wrapper {
                lut: 20.0,
                ff: 184,
                lone_ff: lone,
                merged: 0,
                xor_level: None,
            })
        );
        // 41 port bits fit the ECP5's 197 pins.
        assert_eq!(wrapper("add", "ecp5-25k"), None);
    }

    /// On ECP5 the core's sum goes on through the output chain's xor, a
    /// LUT level after its carry chain: the longest path (the measured
    /// 4.4 ns of ECP5 vadd, 3.6 ns without it).
    #[test]
    fn ecp5_output_paths_go_on_through_the_chain_xor() {
        let d = design("vadd", "ecp5-25k");
        let e = &d.estimate;
        let lib = crate::model::target::library::Library::for_target("ecp5-25k").unwrap();
        let (_, step) = lib.levels_ns().unwrap();
        let out = e.outputs.iter().find(|o| o.0 == "vadd").unwrap();
        assert_eq!(e.path.last().map(String::as_str), Some("scan chain xor"));
        assert!((e.period_ns - (lib.register_ns + out.1 + step)).abs() < 1e-9);
        let up5k = design("vadd", "ice40-up5k");
        assert!(!up5k.estimate.path.iter().any(|p| p == "scan chain xor"));
    }

    /// A core register loading an input port as it is merges into the
    /// input chain's flip-flop: a lone flip-flop of the core no more.
    /// `delayed` at 15 ns holds a's word while b's product is computed:
    /// its 32 bits merge (UP5K: 297 logic cells estimated, 276 placed by
    /// nextpnr; 329 when they were counted twice).
    #[test]
    fn registers_merged_into_the_input_chain_are_not_lone() {
        let d = design_at("delayed", "ice40-up5k", 15.0);
        let e = &d.estimate;
        assert_eq!(e.scan.as_ref().map(|w| w.merged), Some(32));
        assert_eq!(d.summary().lc, Some(297));
    }

    #[test]
    fn ice40_logic_cells_count_the_lone_flip_flops() {
        let d = design("vadd", "ice40-up5k");
        let e = &d.estimate;
        assert!(e.lone_ff >= 130);
        let r = d.summary();
        assert_eq!(r.lc, Some((e.lut + e.lone_ff as f64).ceil() as u64));
        assert_eq!(r.lut, e.lut.ceil() as u64);
        // The core's 22 register bits (the loop's two held bound tests
        // among them): its delayed index feeds a 6-bit address, so yosys
        // keeps 6 of its 8 bits (20 flip-flops, as yosys's synth_ice40 of
        // the core alone).
        assert_eq!((d.construction.register_bits, e.ff), (22, 20));
        assert_eq!(r.ff, e.ff + 184);
        // ECP5 slices hold flip-flops apart from their LUTs.
        let d = design("vadd", "ecp5-25k");
        let r = d.summary();
        assert_eq!((r.lut, r.lc), (d.estimate.lut.ceil() as u64, None));
    }
}
