//! The LUTs, DSPs and delay of each comb op of a module, from the
//! target's measured library, after folding (`super::fold`: constants,
//! identities, inverters and duplicates cost nothing) and with the
//! register-input multiplexers that become flip-flop enables free
//! (`super::absorb`).
//!
//! - `add`/`sub`: their own measured kinds (an iCE40 subtract costs about
//!   twice an add: its subtrahend is inverted by LUTs of its own before
//!   the carry chain); a subtract of a constant is an add, and so is a
//!   subtract whose subtrahend an earlier one inverts already (yosys
//!   merges the inverters: iCE40 16-bit subtracts of one subtrahend, 1,
//!   2 and 4 of them, take 31, 48 and 80 LUT4s, adds 16 each; a pipelined
//!   divider's stages all subtract the divisor).
//! - `icmp eq`/`ne`: a tree of LUT4s over the bits compared (one operand's
//!   bits only against a constant), as slow as its levels of one-bit
//!   logic; a sign test (`x < 0`, `x >= 0`, `x <= -1`, `x > -1`): its
//!   operand's top bit, wiring; the other ordering predicates: the
//!   measured comparator, and against
//!   a constant the carry chain of an add of the constant (yosys folds
//!   some constants further, with no simple rule; a signed bound of
//!   `2^(w-2)` is one LUT level), timed as the measured compare against
//!   a constant (the slower of `cmp_pow2` and `cmp_const`: loop bounds
//!   that are no powers of two take the power of two's iCE40 circuit).
//! - `mul`: by a power of two, wiring; by another constant, the measured
//!   multiplier where the nearest measured width uses hard multipliers,
//!   else one adder per further set bit of the constant; otherwise the
//!   measured multiplier.
//! - Shifts by a variable amount, `div`/`mod`: their measured classes;
//!   `hw.array_get` (a ROM): a tree of multiplexers, four words per level.
//! - Gates (`mux`, `and`, `or`, `xor`), bit by bit: a LUT4 holds a gate's
//!   cone of up to four inputs, so a gate whose only user is a gate of
//!   the same width merges into that user's LUTs while their inputs
//!   (constants and inverters left out) stay within four; a gate of `n`
//!   inputs costs `(n - 1) / 3` LUT4 levels per bit (the measured logic
//!   per bit), one of at most one input none. On iCE40 a gate of one more
//!   input after an adder used only there fits in the adder's LUTs (their
//!   fourth input is free; ECP5's carry cells have no such room).
//! - Wiring (extract, concat, replicate, shifts by constants, a
//!   multiplexer between two constants: each bit a constant, the select
//!   or the select inverted) costs nothing.
//! - On ECP5 each carry chain (an add, subtract or ordering compare of
//!   more than four bits, each adder of a product by a constant) takes
//!   [`ECP5_CHAIN_CELLS`] more LUT cells when placed than yosys counts:
//!   nextpnr-ecp5 feeds the chain's carry in and out through cells of
//!   their own.

use super::demand::Demand;
use super::fanout::Fanout;
use super::fold::{is_sign_test, predicate, Fold};
use crate::model::target::library::Library;
use rustc_hash::{FxHashMap, FxHashSet};
use silica_hw_dialects::eval::Bits;
use silica_hw_dialects::types::bit_width;
use silica_ir::{BlockId, Context, Ir, OpId, ValueId};

/// The LUT cells (`TRELLIS_COMB`) nextpnr-ecp5 places for a carry chain
/// besides its `CCU2C`s: 4, measured (yosys and nextpnr `yowasp` builds
/// of the flow) on registered adds of 8, 16, 32 and 64
/// bits (8, 16, 32, 64 carry cells placed in 14, 22, 38, 70) and on 2 and
/// 4 independent 16-bit adds (32 and 64 in 42 and 82). yosys maps adds of
/// four bits or fewer to LUT4s (no chain).
pub const ECP5_CHAIN_CELLS: f64 = 4.0;

/// The narrowest add yosys maps to a carry chain on ECP5.
const ECP5_CHAIN_BITS: u32 = 5;

/// How many ops deep [`Pricer::significant_bits`] looks.
const SIGNIFICANT_DEPTH: u32 = 8;

/// The prices of one module's ops.
pub struct Pricer<'a> {
    ctx: &'a Context,
    ir: &'a Ir,
    lib: &'a Library,
    fold: Fold,
    /// The bits of each value that are read.
    demand: Demand,
    /// Multiplexers that become flip-flop enables and resets.
    absorbed: FxHashSet<OpId>,
    /// Gates merged into another op's LUTs.
    packed: FxHashSet<OpId>,
    /// Subtracts whose subtrahend an earlier subtract inverts already.
    reinverted: FxHashSet<OpId>,
    /// The cone of each gate that has LUTs of its own.
    cones: FxHashMap<OpId, Cone>,
    /// The readers of each signal.
    fanout: Fanout,
    /// The multipliers yosys's `share` merges, each with the select of
    /// its operand multiplexers (`super::share`).
    shared: FxHashMap<OpId, ValueId>,
}

/// The inputs of a gate's cone, bit by bit: data bits, and one-bit
/// signals that force the result to a constant (combined once for all
/// bits into one input).
#[derive(Clone, Default)]
struct Cone {
    data: Vec<ValueId>,
    gates: Vec<ValueId>,
}

impl Cone {
    fn normalize(&mut self) {
        self.data.sort_unstable();
        self.data.dedup();
        self.gates.sort_unstable();
        self.gates.dedup();
    }

    /// Inputs per bit.
    fn inputs(&self) -> usize {
        self.data.len() + usize::from(!self.gates.is_empty())
    }
}

/// Whether `name` is a gate packed bit by bit.
fn gate(name: &str) -> bool {
    matches!(name, "comb.mux" | "comb.and" | "comb.or" | "comb.xor")
}

impl<'a> Pricer<'a> {
    /// The prices of the ops of `block`.
    pub fn new(ctx: &'a Context, ir: &'a Ir, lib: &'a Library, block: BlockId) -> Pricer<'a> {
        let order = super::fold::order(ctx, ir, block);
        let fold = Fold::of(ctx, ir, &order);
        let mut p = Pricer {
            ctx,
            ir,
            lib,
            demand: Demand::of(ctx, ir, block, &order, &fold),
            fanout: Fanout::of(ctx, ir, block, &fold, lib.fabric().folds_sign_tests),
            fold,
            absorbed: super::absorb::absorbed(ctx, ir, block),
            packed: FxHashSet::default(),
            reinverted: FxHashSet::default(),
            cones: FxHashMap::default(),
            shared: FxHashMap::default(),
        };
        p.pack(block, &order);
        p.share_inverters(&order);
        p.shared = super::share::multipliers(ctx, ir, &p, block);
        p
    }

    /// Finds the subtracts whose subtrahend (at the same width) an
    /// earlier subtract inverts.
    fn share_inverters(&mut self, order: &[OpId]) {
        let mut inverted = FxHashSet::default();
        for &op in order {
            if self.name(op) != "comb.sub" || self.free(op) {
                continue;
            }
            let Some(b) = self.ir.operands(op).nth(1) else {
                continue;
            };
            if self.fold.constant(b).is_some() {
                continue;
            }
            let width = self.class(op).map_or(0, |c| c.1);
            if !inverted.insert((self.fold.resolve(b), width)) {
                self.reinverted.insert(op);
            }
        }
    }

    fn name(&self, op: OpId) -> &str {
        self.ctx.str(self.ir.op_name(op))
    }

    fn width(&self, v: ValueId) -> u32 {
        bit_width(self.ctx, self.ir.value_type(v)).unwrap_or(0) as u32
    }

    /// Whether `op` costs nothing and adds no delay.
    fn free(&self, op: OpId) -> bool {
        self.fold.is_free(op)
            || self.absorbed.contains(&op)
            || self.packed.contains(&op)
            || self.read(op) == 0
            || self.is_wiring(op)
    }

    /// Operand `i` of `op` when it is a constant after folding.
    fn constant_operand(&self, op: OpId, i: usize) -> Option<&Bits> {
        self.ir
            .operands(op)
            .nth(i)
            .and_then(|v| self.fold.constant(v))
    }

    /// Whether `op` is wiring once mapped: a sign test (`x < 0`, `x >= 0`,
    /// `x > -1`, `x <= -1`: the top bit, inverted or not), or a
    /// multiplexer between two constants (each bit a constant, the select
    /// or the select inverted). A signed division by a power of two
    /// becomes both: its rounding bias is the dividend's sign bit copied.
    fn is_wiring(&self, op: OpId) -> bool {
        let constant = |i: usize| self.constant_operand(op, i);
        match self.name(op) {
            "comb.mux" => constant(1).is_some() && constant(2).is_some(),
            "comb.icmp" => self.is_sign_test(op),
            _ => false,
        }
    }

    /// Whether `op` is a signed ordering compare of two variables, as
    /// the library's `cmp` is measured: a carry chain, then a LUT that
    /// corrects the carry by the operands' sign bits. The mapper merges
    /// that LUT into the logic reading the compare: UP5K symm's path has
    /// two LUT levels from the chain to the enable where the measured
    /// compare and the gates make three (`super::cone`), and on ECP5 a
    /// multiplexer it selects takes it into each bit (`area`).
    pub fn is_signed_compare(&self, op: OpId) -> bool {
        self.name(op) == "comb.icmp"
            && matches!(predicate(self.ctx, self.ir, op), Some(2..=5))
            && !self.ir.operands(op).any(|v| self.is_constant(v))
    }

    /// Whether `op` is an ordering compare that reads only the sign bit
    /// of its operand (`super::fold::is_sign_test`) and the target's
    /// synthesis maps it so (`Library::folds_sign_tests`).
    pub fn is_sign_test(&self, op: OpId) -> bool {
        self.lib.fabric().folds_sign_tests && is_sign_test(self.ctx, self.ir, &self.fold, op)
    }

    /// The bits of `op`'s result that are read (all for an op without
    /// one result).
    fn read(&self, op: OpId) -> u32 {
        match self.ir.num_results(op) {
            1 => self
                .demand
                .read_of(self.fold.resolve(self.ir.result(op, 0))),
            _ => u32::MAX,
        }
    }

    /// `v` resolved, through inverters.
    fn signal(&self, v: ValueId) -> ValueId {
        let mut v = self.fold.resolve(v);
        while let Some(x) = self.fold.inverts(v) {
            v = x;
        }
        v
    }

    /// Packs the gates of `block` (comb ops `order`, operands first) into
    /// LUT4 cones.
    fn pack(&mut self, block: BlockId, order: &[OpId]) {
        let (ir, fold) = (self.ir, &self.fold);
        // Uses of each signal by the ops that remain.
        let mut uses: FxHashMap<ValueId, usize> = FxHashMap::default();
        for op in ir.block_ops(block) {
            if !fold.is_free(op) {
                for v in ir.operands(op) {
                    *uses.entry(self.signal(v)).or_default() += 1;
                }
            }
        }
        let adders_pack_an_input = self.lib.fabric().adders_pack_an_input;
        let mut cones: FxHashMap<OpId, Cone> = FxHashMap::default();
        for &op in order {
            if !gate(self.name(op)) || self.free(op) {
                continue;
            }
            let r = ir.result(op, 0);
            let width = self.width(r);
            let operands: Vec<ValueId> = ir.operands(op).collect();
            let mut own = Cone::default();
            // A multiplexer's select against a constant arm gates the
            // other: the gates of a cone combine into one signal.
            let gating = self.name(op) == "comb.mux"
                && width > 1
                && (fold.constant(operands[1]).is_some() || fold.constant(operands[2]).is_some());
            for (i, &v) in operands.iter().enumerate() {
                if fold.constant(v).is_some() {
                    continue;
                }
                let s = self.signal(v);
                if gating && i == 0 {
                    own.gates.push(s);
                } else {
                    own.data.push(s);
                }
            }
            own.normalize();
            // Single-use gates of the same width below merge while the cone
            // has at most four inputs.
            let mut cone = own.clone();
            for &x in &own.data {
                let Some(d) = ir.defining_op(x) else { continue };
                let Some(below) = cones.get(&d) else { continue };
                if uses.get(&x) != Some(&1) || self.width(x) != width {
                    continue;
                }
                let mut merged = cone.clone();
                merged.data.retain(|&v| v != x);
                merged.data.extend(below.data.iter().copied());
                merged.gates.extend(below.gates.iter().copied());
                merged.normalize();
                if merged.inputs() <= 4 {
                    cone = merged;
                    self.packed.insert(d);
                    cones.remove(&d);
                }
            }
            // iCE40: one more input after an adder fits in its LUTs.
            let adder = |x: &ValueId| {
                ir.defining_op(*x).is_some_and(|d| {
                    matches!(self.name(d), "comb.add" | "comb.sub")
                        && !fold.is_free(d)
                        && uses.get(x) == Some(&1)
                        && self.width(*x) == width
                })
            };
            if adders_pack_an_input && cone.inputs() <= 2 && cone.data.iter().any(adder) {
                self.packed.insert(op);
                continue;
            }
            cones.insert(op, cone);
        }
        self.cones = cones;
    }

    /// The library class and width an op's delay is measured as.
    fn class(&self, op: OpId) -> Option<(&'static str, u32)> {
        if self.free(op) {
            return None;
        }
        let ir = self.ir;
        // Adds, multiplies and gates are as wide as what is read of them.
        let out = ir
            .results(op)
            .next()
            .map_or(0, |v| self.width(v).min(self.read(op)));
        let first = ir.operands(op).next().map_or(0, |v| self.width(v));
        let constant = |i: usize| self.constant_operand(op, i);
        Some(match self.name(op) {
            "comb.add" | "comb.sub" => ("add", out),
            "comb.icmp" => ("cmp", first),
            "comb.mux" => ("mux", out),
            "comb.and" | "comb.or" | "comb.xor" | "comb.parity" => ("logic", out.max(first)),
            "comb.shl" | "comb.shru" | "comb.shrs" if constant(1).is_none() => ("shift", out),
            "comb.mul" => {
                let c = constant(0).or(constant(1));
                if c.is_some_and(|c| c.value().count_ones() <= 1) {
                    return None;
                }
                // A wide product of narrow operands (a reciprocal
                // multiplication) is as large as its widest operand.
                let operands = ir.operands(op).map(|v| self.significant_bits(v)).max();
                ("mul", out.min(operands.unwrap_or(out)))
            }
            "comb.divu" | "comb.divs" | "comb.modu" | "comb.mods" => ("div", out),
            "hw.array_get" => ("mux", out),
            _ => return None,
        })
    }

    /// The low bits of `v` that can be nonzero: a constant's bit length,
    /// a value zero-extended by `comb.concat` its low part's, a
    /// multiplexer's its arms', a register's its input's and reset
    /// value's (yosys removes the flip-flops of bits that stay zero, so
    /// a zero-extended operand registered before a product is as narrow
    /// as before the register).
    fn significant_bits(&self, v: ValueId) -> u32 {
        self.significant_within(v, &mut Vec::new(), SIGNIFICANT_DEPTH)
    }

    /// [`Pricer::significant_bits`] of `v`, looking through at most
    /// `depth` more ops; `open` holds the registers whose inputs are
    /// being read (a register's own output, fed back through its enable
    /// multiplexer, adds no bits).
    fn significant_within(&self, v: ValueId, open: &mut Vec<ValueId>, depth: u32) -> u32 {
        let v = self.fold.resolve(v);
        if let Some(c) = self.fold.constant(v) {
            return c.value().bits() as u32;
        }
        if open.contains(&v) {
            return 0;
        }
        let ir = self.ir;
        let width = self.width(v);
        let Some(def) = ir.defining_op(v).filter(|_| depth > 0) else {
            return width;
        };
        let parts: Vec<ValueId> = ir.operands(def).collect();
        let within =
            |x: ValueId, open: &mut Vec<ValueId>| self.significant_within(x, open, depth - 1);
        match (self.name(def), &parts[..]) {
            ("comb.concat", &[high, low]) if within(high, open) == 0 => within(low, open),
            ("comb.mux", &[_, a, b]) => within(a, open).max(within(b, open)),
            ("seq.compreg", &[data, _clock, ref reset @ ..]) => {
                open.push(v);
                let mut bits = within(data, open);
                if let &[_, value] = reset {
                    bits = bits.max(within(value, open));
                }
                open.pop();
                bits
            }
            _ => width,
        }
        .min(width)
    }

    /// The words of a ROM read, over four words per LUT level.
    fn rom_units(&self, op: OpId, width: u32) -> f64 {
        let words = self
            .ir
            .operands(op)
            .next()
            .map_or(1, |a| self.width(a) / width.max(1));
        f64::from(words.max(2)) / 3.0
    }

    /// Whether `op` is a multiplier the circuit keeps: a product of two
    /// variable operands, not folded into another.
    pub fn is_multiplier(&self, op: OpId) -> bool {
        let constant = |i: usize| self.constant_operand(op, i);
        self.name(op) == "comb.mul"
            && self.class(op).is_some()
            && constant(0).or(constant(1)).is_none()
    }

    /// The LUTs and DSPs of one op, as placed: [`Pricer::area`] and, on
    /// ECP5, its carry chains' feed cells.
    pub fn placed_area(&self, op: OpId) -> (f64, u64) {
        let (lut, dsp) = self.area(op);
        let chains = match self.class(op) {
            Some((_, width))
                if self.lib.fabric().carry_chains_take_feed_cells && width >= ECP5_CHAIN_BITS =>
            {
                self.chains(op)
            }
            _ => 0,
        };
        (lut + chains as f64 * ECP5_CHAIN_CELLS, dsp)
    }

    /// The carry chains of `op` (as wide as a chain).
    fn chains(&self, op: OpId) -> u64 {
        let constant = |i: usize| self.constant_operand(op, i);
        match self.name(op) {
            "comb.add" | "comb.sub" => 1,
            "comb.icmp" => match predicate(self.ctx, self.ir, op) {
                Some(0 | 1) => 0,
                _ if self.top_bits_bound(op) => 0,
                _ => 1,
            },
            "comb.mul" => match constant(0).or(constant(1)) {
                Some(c) if !self.hard_multiplier(self.class(op).map_or(0, |c| c.1)) => {
                    c.value().count_ones().saturating_sub(1)
                }
                _ => 0,
            },
            _ => 0,
        }
    }

    /// The LUTs and DSPs of one op (yosys's count).
    pub fn area(&self, op: OpId) -> (f64, u64) {
        let Some((class, width)) = self.class(op) else {
            return (0.0, 0);
        };
        let ir = self.ir;
        let lib = self.lib;
        let constant = |i: usize| self.constant_operand(op, i);
        let any_constant = constant(0).or(constant(1));
        let lut = match self.name(op) {
            "comb.add" => lib.kind_figures("add", class, width).map(|f| f.1),
            // a - c is a + (-c).
            "comb.sub" if any_constant.is_some() || self.reinverted.contains(&op) => {
                lib.kind_figures("add", class, width).map(|f| f.1)
            }
            "comb.sub" => lib.kind_figures("sub", class, width).map(|f| f.1),
            "comb.icmp" => match (predicate(self.ctx, ir, op), any_constant) {
                (Some(0 | 1), None) => Some(tree(2 * width as usize)),
                (Some(0 | 1), Some(_)) => Some(tree(width as usize)),
                (Some(2), Some(_)) if self.top_bits_bound(op) => Some(1.0),
                // Against a constant: the carry of an add of the constant.
                (_, Some(_)) => lib.kind_figures("add", "add", width).map(|f| f.1),
                _ => lib.luts(class, width),
            },
            "comb.mul" => {
                if let Some(c) = any_constant.filter(|_| !self.hard_multiplier(width)) {
                    let adds = c.value().count_ones().saturating_sub(1) as f64;
                    return (
                        lib.kind_figures("add", "add", width).map_or(0.0, |f| f.1) * adds,
                        0,
                    );
                }
                let dsps = self
                    .product_tiles(op)
                    .or_else(|| lib.dsps(class, width))
                    .unwrap_or(0);
                return (lib.luts(class, width).unwrap_or(0.0), dsps);
            }
            "comb.divu" | "comb.divs" | "comb.modu" | "comb.mods" if constant(1).is_some() => {
                lib.kind_figures("div_const", class, width).map(|f| f.1)
            }
            "comb.parity" => Some(tree(width as usize)),
            "hw.array_get" => lib
                .luts(class, width)
                .map(|l| l * self.rom_units(op, width)),
            // ECP5 min and max: ABC takes the compare's last LUT into
            // each bit, a six-input function (four LUT4s, two PFUMX, an
            // L6MUX21; ECP5 floyd-warshall's `path_d0`, nussinov's).
            "comb.mux" if self.lib.fabric().wide_min_max && self.is_min_or_max(op) => {
                lib.luts("logic", width).map(|l| l * WIDE_MUX_LUTS)
            }
            name if gate(name) => {
                let Some(cone) = self.cones.get(&op) else {
                    return (0.0, 0);
                };
                lib.luts("logic", width)
                    .map(|l| l * tree(cone.inputs()) + tree(cone.gates.len()))
            }
            _ => lib.luts(class, width),
        };
        (lut.unwrap_or(0.0), 0)
    }

    /// Whether `op` is a signed min or max: a multiplexer between the two
    /// variables that a signed compare selecting it compares.
    fn is_min_or_max(&self, op: OpId) -> bool {
        let resolved = |o: OpId| -> Vec<ValueId> {
            let mut v: Vec<ValueId> = self.ir.operands(o).map(|v| self.fold.resolve(v)).collect();
            v.sort_unstable();
            v
        };
        let operands: Vec<ValueId> = self.ir.operands(op).collect();
        let [select, ..] = operands[..] else {
            return false;
        };
        let mut arms = resolved(op);
        arms.retain(|&v| v != self.fold.resolve(select));
        self.ir
            .defining_op(self.fold.resolve(select))
            .is_some_and(|c| self.is_signed_compare(c) && resolved(c) == arms)
    }

    /// The hard multipliers of a product wider than its operands (a
    /// reciprocal multiplication) whose operands span more than one:
    /// yosys splits each operand into chunks of a multiplier's width and
    /// keeps the partial products that reach the bits read (the
    /// library's `w`-bit products, whose high half is dropped, count
    /// likewise: 3 and 10 `MULT18X18D` at 32 and 64 bits); `None` where
    /// the library's figure at the operands' width applies.
    fn product_tiles(&self, op: OpId) -> Option<u64> {
        let t = self.lib.fabric().multiplier_bits?;
        let bits: Vec<u32> = self
            .ir
            .operands(op)
            .map(|v| self.significant_bits(v))
            .collect();
        let &[a, b] = &bits[..] else { return None };
        let out = self
            .ir
            .results(op)
            .next()
            .map_or(0, |v| self.width(v).min(self.read(op)));
        if a.max(b) >= out || a.max(b) <= t {
            return None;
        }
        let tiles = (0..a.div_ceil(t))
            .flat_map(|i| (0..b.div_ceil(t)).map(move |j| i + j))
            .filter(|&k| k * t < out)
            .count();
        Some(tiles as u64)
    }

    /// Whether `op` is `x < 2^(w-2)`, signed: neither of the top two bits
    /// of `x` set alone (one LUT).
    pub fn top_bits_bound(&self, op: OpId) -> bool {
        let width = self.ir.operands(op).next().map_or(0, |v| self.width(v));
        let bound = self
            .ir
            .operands(op)
            .nth(1)
            .and_then(|v| self.fold.constant(v));
        predicate(self.ctx, self.ir, op) == Some(2)
            && width >= 2
            && bound.is_some_and(|c| {
                c.value().count_ones() == 1
                    && c.value().trailing_zeros() == Some(u64::from(width - 2))
            })
    }

    /// Whether the target's multiplier at the measured width nearest
    /// `width` is a hard one.
    fn hard_multiplier(&self, width: u32) -> bool {
        self.lib
            .points
            .iter()
            .filter(|p| p.class == "mul")
            .min_by_key(|p| (p.width.abs_diff(width), p.width))
            .is_some_and(|p| p.dsp > 0)
    }

    /// Whether every operand of `op` is a register's output or a module
    /// input (timed as a register's, as behind a scan wrapper): yosys packs
    /// such registers into a hard multiplier (the library's `mul_reg`).
    /// A multiplier yosys shares is fed by its operand multiplexers.
    fn fed_by_registers(&self, op: OpId) -> bool {
        !self.shared.contains_key(&op)
            && self.ir.operands(op).all(|v| {
                self.ir
                    .defining_op(v)
                    .is_none_or(|d| matches!(self.name(d), "seq.compreg" | "seq.firreg"))
            })
    }

    /// The delay (ns) the nets carrying the word `v` into a carry chain
    /// add for their fan-out (`Library::fanout_net_ns` of the most carry
    /// chains that read one of its signals, at its width; 0 for a bit, a
    /// constant, or where not measured).
    pub fn net_delay(&self, v: ValueId) -> f64 {
        if self.width(v) < 2 || self.fold.constant(v).is_some() {
            return 0.0;
        }
        let readers = self.fanout.of_value(self.ctx, self.ir, &self.fold, v);
        self.lib
            .fanout_net_ns(readers, self.width(v))
            .unwrap_or(0.0)
    }

    /// The value `v` equals after folding.
    pub fn resolve(&self, v: ValueId) -> ValueId {
        self.fold.resolve(v)
    }

    /// Whether `v` is a constant after folding.
    pub fn is_constant(&self, v: ValueId) -> bool {
        self.fold.constant(v).is_some()
    }

    /// The value of `v` when it is a constant that fits 32 bits.
    pub fn small_constant(&self, v: ValueId) -> Option<u32> {
        u32::try_from(self.fold.constant(v)?.value()).ok()
    }

    /// Whether `v`'s bits come out of LUTs: back through wiring and ops
    /// that cost nothing to an op with LUTs of its own, not only to
    /// registers, ports, constants, memory reads and instances (a
    /// flip-flop loaded from such a value shares its logic cell with that
    /// LUT).
    pub fn computed_by_luts(&self, v: ValueId) -> bool {
        let mut stack = vec![self.fold.resolve(v)];
        let mut seen = FxHashSet::default();
        while let Some(x) = stack.pop() {
            if !seen.insert(x) {
                continue;
            }
            let Some(op) = self.ir.defining_op(x) else {
                continue;
            };
            let name = self.name(op);
            if !name.starts_with("comb.") && name != "hw.array_get" {
                continue;
            }
            if self.area(op).0 > 0.0 {
                return true;
            }
            stack.extend(self.ir.operands(op).map(|o| self.fold.resolve(o)));
        }
        false
    }

    /// Whether `op` is an add, subtract or multiply that yosys's
    /// `opt_share` merges with its peers under the multiplexers that read
    /// it (every use of its result a multiplexer or a slice, or `user`'s
    /// operand):
    /// one shared operator on multiplexed operands, so the select's path
    /// runs through the operator.
    pub fn shareable(&self, op: OpId, user: Option<OpId>) -> bool {
        let ir = self.ir;
        matches!(self.name(op), "comb.add" | "comb.sub" | "comb.mul")
            && self.delay(op) > 0.0
            && ir.num_results(op) == 1
            && ir.uses(ir.result(op, 0)).all(|u| {
                let owner = ir.use_owner(u);
                Some(owner) == user || matches!(self.name(owner), "comb.mux" | "comb.extract")
            })
    }

    /// The delay (ns) of `op` when an operand comes straight from another
    /// carry chain's sums, for an add, a subtract or a product by a
    /// constant priced as adds: ripple chains overlap, so the measured
    /// chained add ([`Library::chained_add_ns`]) per add; `None` for other
    /// ops or where the chained add is not measured.
    pub fn chained_delay(&self, op: OpId) -> Option<f64> {
        let (_, width) = self.class(op)?;
        let hop = self.lib.chained_add_ns(width)?;
        let ones = self
            .ir
            .operands(op)
            .filter_map(|v| self.fold.constant(v))
            .map(|c| c.value().count_ones())
            .max();
        match self.name(op) {
            "comb.add" | "comb.sub" => Some(hop),
            "comb.mul" if ones.is_some() && !self.hard_multiplier(width) => {
                Some(hop * (ones.unwrap_or(1).max(1) as f64).log2().ceil())
            }
            _ => None,
        }
    }

    /// The select of the operand multiplexers of `op` when `op` is a
    /// multiplier that yosys's `share` merges with another
    /// (`super::share`).
    pub fn shared_select(&self, op: OpId) -> Option<ValueId> {
        self.shared.get(&op).copied()
    }

    /// Whether `op` is a multiplexer that becomes a flip-flop's enable or
    /// synchronous reset.
    pub fn is_absorbed(&self, op: OpId) -> bool {
        self.absorbed.contains(&op)
    }

    /// The LUT levels of a gate with LUTs of its own (its cone's tree), or
    /// of an equality's LUT tree; `None` for other ops.
    pub fn levels(&self, op: OpId) -> Option<u32> {
        let (_, width) = self.class(op)?;
        let inputs = match self.name(op) {
            name if gate(name) => self.cones.get(&op)?.inputs() as u32,
            "comb.icmp" if self.top_bits_bound(op) => 2,
            "comb.icmp" if matches!(predicate(self.ctx, self.ir, op), Some(0 | 1)) => {
                let constant = self
                    .ir
                    .operands(op)
                    .any(|v| self.fold.constant(v).is_some());
                if constant {
                    width
                } else {
                    2 * width
                }
            }
            _ => return None,
        };
        Some(f64::from(inputs.max(2)).log(4.0).ceil() as u32)
    }

    /// The delay of one op (ns).
    pub fn delay(&self, op: OpId) -> f64 {
        let Some((class, width)) = self.class(op) else {
            return 0.0;
        };
        let ir = self.ir;
        let constant = ir
            .operands(op)
            .take(2)
            .any(|v| self.fold.constant(v).is_some());
        let add = |kind| self.lib.kind_figures(kind, "add", width).map(|f| f.0);
        let divisor_constant = ir
            .operands(op)
            .nth(1)
            .is_some_and(|v| self.fold.constant(v).is_some());
        let d = match self.name(op) {
            // By a constant, in LUTs: its tree of adds (as its area).
            "comb.mul" if constant && !self.hard_multiplier(width) => {
                let ones = ir
                    .operands(op)
                    .filter_map(|v| self.fold.constant(v))
                    .map(|c| c.value().count_ones())
                    .max()
                    .unwrap_or(1);
                // The adds of the tree overlap as chained adds do.
                let depth = (ones.max(1) as f64).log2().ceil();
                let chained = self.lib.chained_add_ns(width);
                add("add").map(|d| d + (depth - 1.0).max(0.0) * chained.unwrap_or(d))
            }
            "comb.mul" if self.fed_by_registers(op) => {
                self.lib.kind_figures("mul_reg", "mul", width).map(|f| f.0)
            }
            "comb.add" => add("add"),
            "comb.divu" | "comb.divs" | "comb.modu" | "comb.mods" if divisor_constant => self
                .lib
                .kind_figures("div_const", "div", width)
                .map(|f| f.0),
            "comb.sub" if constant => add("add"),
            "comb.sub" => add("sub"),
            // Equality: the levels of its LUT4 tree.
            "comb.icmp" if matches!(predicate(self.ctx, ir, op), Some(0 | 1)) => {
                let bits = if constant { width } else { 2 * width };
                let levels = f64::from(bits.max(2)).log(4.0).ceil();
                self.lib.delay_ns("logic", 1).map(|d| d * levels)
            }
            "comb.icmp" if self.top_bits_bound(op) => self.lib.delay_ns("logic", 1),
            // Ordering against a constant: the slower of the measured
            // compares against a power of two and against 0b0101...
            // nextpnr's critical paths through loop bounds that are no
            // powers of two (iCE40 mvt's 40, atax's 42, trmm's 20,
            // floyd-warshall's 60) show the power of two's circuit, a LUT
            // before the carry chain and two after it.
            "comb.icmp" if constant => ["cmp_pow2", "cmp_const"]
                .iter()
                .filter_map(|kind| self.lib.kind_figures(kind, "cmp", width))
                .map(|f| f.0)
                .reduce(f64::max),
            _ => self.lib.delay_ns(class, width),
        }
        .unwrap_or(0.0);
        match self.name(op) {
            "hw.array_get" => d * self.rom_units(op, width).log(4.0).ceil().max(1.0),
            _ => d,
        }
    }
}

/// LUT4s per bit of an ECP5 min or max (`Pricer::area`): a six-input
/// function, Shannon-split into four LUT4s that a slice's PFUMX and
/// L6MUX21 join.
const WIDE_MUX_LUTS: f64 = 4.0;

/// LUT4s of a tree over `n` inputs: `(n - 1) / 3`, none for one input.
fn tree(n: usize) -> f64 {
    (n.saturating_sub(1)).div_ceil(3) as f64
}
