//! The flip-flops yosys keeps of a module's registers (`seq.compreg`,
//! `seq.firreg`), measured against the bits the circuit is built with
//! (the bits built over-count yosys's flip-flops by 17% to 300% on the
//! PolyBench points of `silica dse`):
//!
//! - registers loading the same value (after `super::fold`'s merging of
//!   duplicate comb ops) under the same reset are one (`opt_merge`), and
//!   so are the registers after them: a delay chain of a duplicated
//!   address is one chain;
//! - a register's bits that nothing reads are removed (`opt_clean`): what
//!   is read of a register is what its readers read, through extracts,
//!   concats and the low bits of adds, subtracts, multiplies and gates
//!   (as `super::demand`), and a register passes on to its input what is
//!   read of it (a delay chain of an address keeps the address's bits);
//! - a register's high bits that load only zeros (its initial and reset
//!   value) or themselves are constant (`opt_dff`), as is a register that
//!   loads only its own value.
//!
//! Besides, behind the scan wrapper a register loading an input port as
//! it is (no enable, no reset) holds what the input chain's next bit
//! holds, and yosys merges the two ([`Flops::chain_merged`]).

use super::fold::{int_attr, order, Fold};
use rustc_hash::{FxHashMap, FxHashSet};
use silica_hw_dialects::types::bit_width;
use silica_ir::{Attr, BlockId, Context, Ir, OpId, Symbol, Type, ValueId};

/// The registers of one module as yosys keeps them.
pub struct Flops {
    /// Registers merged into another: a register's output to the
    /// output of the register it is.
    alias: FxHashMap<ValueId, ValueId>,
    /// The low bits of each kept register that are read and not constant.
    kept: FxHashMap<OpId, u32>,
    /// The folding of the module's comb ops with the merged registers.
    fold: Fold,
}

/// What identifies a register for merging: name, properties, attributes,
/// resolved operands (a sum `x + c`'s keyed by `x`), type, and the high
/// part of such a sum's constant.
type Key = (Symbol, Option<Attr>, Attr, Vec<ValueId>, Type, u64);

fn is_register(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    matches!(ctx.str(ir.op_name(op)), "seq.compreg" | "seq.firreg")
}

/// `v` (resolved) as `x + c` where `x` has `t` known zero low bits (an
/// index times 40, plus 3): `x`, `t` and `c >> t`. The sum's bits from
/// `t` up are `(x >> t) + (c >> t)`, its low bits `c`'s: registers of
/// `x + 8`, `x + 9`, ... `x + 15` share their high flip-flops (yosys
/// merges flip-flops bit by bit once adds are mapped), and their low
/// ones are constant.
fn low_constant(ctx: &Context, ir: &Ir, fold: &Fold, v: ValueId) -> Option<(ValueId, u32, u64)> {
    let op = ir.defining_op(v)?;
    if ctx.str(ir.op_name(op)) != "comb.add" || ir.num_operands(op) != 2 {
        return None;
    }
    let (a, b) = (
        fold.resolve(ir.operand(op, 0)),
        fold.resolve(ir.operand(op, 1)),
    );
    let (x, c) = match (fold.constant(a), fold.constant(b)) {
        (None, Some(c)) => (a, c),
        (Some(c), None) => (b, c),
        _ => return None,
    };
    let t = zeros(ctx, ir, fold, x, ZEROS_DEPTH);
    let high = u64::try_from(c.value() >> t).ok()?;
    (t > 0).then_some((x, t, high))
}

/// How many ops deep [`zeros`] looks.
const ZEROS_DEPTH: u32 = 6;

/// The low bits of `v` (resolved) known to be zero: a product's, its
/// factors' together (a constant's trailing zeros), a left shift's by a
/// constant, a sum's or multiplexer's, the fewest of its operands', a
/// concat's, its low operands' (a product by a constant built as shifts
/// and adds ends in zero bits), a low slice's, its operand's.
fn zeros(ctx: &Context, ir: &Ir, fold: &Fold, v: ValueId, depth: u32) -> u32 {
    let width = bit_width(ctx, ir.value_type(v)).unwrap_or(0) as u32;
    if let Some(c) = fold.constant(v) {
        return c
            .value()
            .trailing_zeros()
            .map_or(width, |z| z as u32)
            .min(width);
    }
    let Some(op) = ir.defining_op(v).filter(|_| depth > 0) else {
        return 0;
    };
    let of = |i: usize| zeros(ctx, ir, fold, fold.resolve(ir.operand(op, i)), depth - 1);
    let z = match ctx.str(ir.op_name(op)) {
        "comb.mul" if ir.num_operands(op) == 2 => of(0) + of(1),
        "comb.shl" if ir.num_operands(op) == 2 => fold
            .constant(ir.operand(op, 1))
            .and_then(|k| u32::try_from(k.value()).ok())
            .map_or(0, |k| of(0).saturating_add(k)),
        "comb.add" if ir.num_operands(op) == 2 => of(0).min(of(1)),
        "comb.mux" if ir.num_operands(op) == 3 => of(1).min(of(2)),
        "comb.extract" if int_attr(ctx, ir, op, "lowBit") == Some(0) => of(0),
        // The last operand holds the lowest bits.
        "comb.concat" => {
            let mut z = 0;
            for i in (0..ir.num_operands(op)).rev() {
                let w = bit_width(ctx, ir.value_type(ir.operand(op, i))).unwrap_or(0) as u32;
                let zi = of(i);
                z += zi;
                if zi < w {
                    break;
                }
            }
            z
        }
        _ => 0,
    };
    z.min(width)
}

impl Flops {
    /// The registers of `block` as yosys keeps them.
    pub fn of(ctx: &Context, ir: &Ir, block: BlockId) -> Flops {
        let order = order(ctx, ir, block);
        let regs: Vec<OpId> = ir
            .block_ops(block)
            .filter(|&op| is_register(ctx, ir, op) && ir.num_results(op) == 1)
            .collect();
        // Merge registers of the same inputs until no more merge: merged
        // registers make the comb ops and registers they feed duplicates.
        let mut alias: FxHashMap<ValueId, ValueId> = FxHashMap::default();
        let mut low: FxHashMap<OpId, u32> = FxHashMap::default();
        let fold = loop {
            let fold = Fold::seeded(ctx, ir, &order, alias.clone());
            let mut seen: FxHashMap<Key, ValueId> = FxHashMap::default();
            let mut merged = false;
            for &r in &regs {
                let q = ir.result(r, 0);
                if alias.contains_key(&q) {
                    continue;
                }
                let mut operands: Vec<ValueId> = ir.operands(r).map(|v| fold.resolve(v)).collect();
                // Low bits loaded constant: of a sum `x + c` (keyed by
                // `x`), of a value with low zero bits, of a register's
                // whose low bits are.
                let (x, t, high) = low_constant(ctx, ir, &fold, operands[0]).unwrap_or_else(|| {
                    let v = operands[0];
                    let t = match ir.defining_op(v) {
                        Some(d) if is_register(ctx, ir, d) => low.get(&d).copied().unwrap_or(0),
                        _ => zeros(ctx, ir, &fold, v, ZEROS_DEPTH),
                    };
                    (v, t, 0)
                });
                operands[0] = x;
                if t > 0 && low.insert(r, t) != Some(t) {
                    merged = true;
                }
                let key = (
                    ir.op_name(r),
                    ir.op_props(r),
                    ir.op_attrs(r),
                    operands,
                    ir.value_type(q),
                    high,
                );
                // A register's name does not keep it apart.
                let key = (key.0, None, key.2, key.3, key.4, key.5);
                match seen.get(&key) {
                    Some(&first) => {
                        alias.insert(q, first);
                        merged = true;
                    }
                    None => {
                        seen.insert(key, q);
                    }
                }
            }
            if !merged {
                break fold;
            }
        };
        let mut f = Flops {
            alias,
            kept: FxHashMap::default(),
            fold,
        };
        let read = f.read(ctx, ir, block, &order);
        for &r in &regs {
            let q = ir.result(r, 0);
            if f.alias.contains_key(&q) {
                continue;
            }
            let bits = read
                .get(&q)
                .copied()
                .unwrap_or(0)
                .min(f.loaded_bits(ctx, ir, r));
            let low = low.get(&r).copied().unwrap_or(0);
            f.kept.insert(r, bits.saturating_sub(low));
        }
        f
    }

    /// The flip-flops kept of register `op` (none when merged into
    /// another).
    pub fn kept(&self, op: OpId) -> u32 {
        self.kept.get(&op).copied().unwrap_or(0)
    }

    /// The flip-flops kept.
    pub fn bits(&self) -> u64 {
        self.kept.values().map(|&b| u64::from(b)).sum()
    }

    /// The value `v` is once registers and comb ops merge.
    fn resolve(&self, v: ValueId) -> ValueId {
        self.fold.resolve(v)
    }

    /// The low bits of each value that are read, registers passing on to
    /// their inputs what is read of them (a worklist to the fixpoint:
    /// registers close loops).
    fn read(
        &self,
        ctx: &Context,
        ir: &Ir,
        block: BlockId,
        order: &[OpId],
    ) -> FxHashMap<ValueId, u32> {
        let width = |v: ValueId| bit_width(ctx, ir.value_type(v)).unwrap_or(0) as u32;
        let comb: FxHashSet<OpId> = order.iter().copied().collect();
        let mut read: FxHashMap<ValueId, u32> = FxHashMap::default();
        let mut work: Vec<ValueId> = Vec::new();
        let mark = |read: &mut FxHashMap<ValueId, u32>, work: &mut Vec<ValueId>, v, k| {
            let v = self.resolve(v);
            let e = read.entry(v).or_default();
            if k > *e {
                *e = k;
                work.push(v);
            }
        };
        for op in ir.block_ops(block) {
            if !comb.contains(&op) && !is_register(ctx, ir, op) {
                for v in ir.operands(op) {
                    mark(&mut read, &mut work, v, width(v));
                }
            }
        }
        while let Some(v) = work.pop() {
            let k = read[&v];
            if self.fold.constant(v).is_some() {
                continue;
            }
            let Some(op) = ir.defining_op(v) else {
                continue;
            };
            let operands: Vec<ValueId> = ir.operands(op).collect();
            if is_register(ctx, ir, op) {
                // The data input passes on what is read; the clock, reset
                // and reset value are read whole.
                for (i, &x) in operands.iter().enumerate() {
                    mark(&mut read, &mut work, x, if i == 0 { k } else { width(x) });
                }
                continue;
            }
            if !comb.contains(&op) || ir.num_results(op) != 1 {
                for x in operands {
                    mark(&mut read, &mut work, x, width(x));
                }
                continue;
            }
            match ctx.str(ir.op_name(op)) {
                "comb.add" | "comb.sub" | "comb.mul" | "comb.and" | "comb.or" | "comb.xor" => {
                    for x in operands {
                        mark(&mut read, &mut work, x, k.min(width(x)));
                    }
                }
                "comb.mux" => {
                    mark(&mut read, &mut work, operands[0], width(operands[0]));
                    for &x in &operands[1..] {
                        mark(&mut read, &mut work, x, k.min(width(x)));
                    }
                }
                "comb.extract" => {
                    let low = int_attr(ctx, ir, op, "lowBit").unwrap_or(0) as u32;
                    let r = ir.result(op, 0);
                    mark(&mut read, &mut work, operands[0], low + k.min(width(r)));
                }
                "comb.concat" => {
                    // The last operand holds the lowest bits.
                    let mut offset = 0;
                    for &x in operands.iter().rev() {
                        let w = width(x);
                        mark(&mut read, &mut work, x, k.saturating_sub(offset).min(w));
                        offset += w;
                    }
                }
                _ => {
                    for x in operands {
                        mark(&mut read, &mut work, x, width(x));
                    }
                }
            }
        }
        read
    }

    /// The low bits of register `r` that load something other than
    /// zeros (its initial value, and its reset value when that is zero)
    /// or its own value: what its data input's multiplexers select
    /// between, each taken to its significant bits.
    fn loaded_bits(&self, ctx: &Context, ir: &Ir, r: OpId) -> u32 {
        let q = ir.result(r, 0);
        let width = bit_width(ctx, ir.value_type(q)).unwrap_or(0) as u32;
        // A reset to anything but zero: every bit may load a one.
        if let Some(reset) = ir.operands(r).nth(3) {
            if !self.fold.constant(reset).is_some_and(|b| b.is_zero()) {
                return width;
            }
        }
        let Some(input) = ir.operands(r).next() else {
            return width;
        };
        let mut bits = 0;
        let mut stack = vec![self.resolve(input)];
        let mut seen = FxHashSet::default();
        while let Some(v) = stack.pop() {
            if !seen.insert(v) || v == self.resolve(q) {
                continue;
            }
            if let Some(c) = self.fold.constant(v) {
                bits = bits.max(u32::try_from(c.value().bits()).unwrap_or(u32::MAX));
                continue;
            }
            let op = ir.defining_op(v);
            match op.map(|o| ctx.str(ir.op_name(o))) {
                Some("comb.mux") => {
                    let op = op.unwrap_or_else(|| unreachable!());
                    stack.extend(ir.operands(op).skip(1).map(|x| self.resolve(x)));
                }
                Some("comb.concat") => {
                    // Leading zero operands are constant bits.
                    let op = op.unwrap_or_else(|| unreachable!());
                    let mut w = width;
                    for x in ir.operands(op) {
                        if !self.fold.constant(x).is_some_and(|b| b.is_zero()) {
                            break;
                        }
                        w = w.saturating_sub(bit_width(ctx, ir.value_type(x)).unwrap_or(0) as u32);
                    }
                    bits = bits.max(w);
                }
                _ => return width,
            }
        }
        bits.min(width)
    }

    /// The kept flip-flops that hold what a bit of the scan wrapper's
    /// input chain holds: a register loading the block argument `arg`
    /// (whose bit 0 is the chain's bit `offset`) as it is holds bit `b`
    /// of it one cycle later, what the chain's bit `offset + b + 1`
    /// holds; a register loading such a register, two cycles later, the
    /// bit after; and so on while the chain (`len` bits kept) goes on.
    pub fn chain_merged(
        &self,
        ir: &Ir,
        block: BlockId,
        offsets: &FxHashMap<ValueId, u32>,
        len: u32,
    ) -> u64 {
        // The chain position each value's bit 0 holds the next cycle.
        let mut position: FxHashMap<ValueId, u32> = offsets
            .iter()
            .map(|(&a, &o)| (self.resolve(a), o + 1))
            .collect();
        let mut merged = 0;
        let regs: Vec<OpId> = ir
            .block_ops(block)
            .filter(|&op| self.kept.contains_key(&op))
            .collect();
        // Registers of registers: as deep as the longest chain.
        let mut done = FxHashSet::default();
        loop {
            let mut grew = false;
            for &r in &regs {
                if done.contains(&r) || ir.num_operands(r) != 2 {
                    continue;
                }
                let Some(&p) = ir
                    .operands(r)
                    .next()
                    .and_then(|v| position.get(&self.resolve(v)))
                else {
                    continue;
                };
                done.insert(r);
                grew = true;
                let kept = self.kept[&r];
                merged += u64::from(kept.min(len.saturating_sub(p)));
                position.insert(ir.result(r, 0), p + 1);
            }
            if !grew {
                return merged;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Flops;
    use crate::test_support::circuit_module;
    use rustc_hash::FxHashMap;
    use silica_ir::{BlockId, Context, Ir};

    /// The body of the one module of `src`.
    fn body(src: &str) -> (Context, Ir, BlockId) {
        let (ctx, ir, _, block) = circuit_module(src);
        (ctx, ir, block)
    }

    fn kept(src: &str) -> u64 {
        let (ctx, ir, block) = body(src);
        Flops::of(&ctx, &ir, block).bits()
    }

    #[test]
    fn delay_chains_of_duplicate_values_are_one_chain() {
        // Two chains of two registers delaying `a * 30`, computed twice:
        // yosys keeps one chain, not two, and of each register 7 bits
        // (the product's low bit is zero): 14 flip-flops, not 32.
        assert_eq!(
            kept(
                "hw.module @m(in %clk : !seq.clock, in %a : i8, out y : i8, out z : i8) {
                   %c30 = hw.constant 30 : i8
                   %0 = comb.mul %a, %c30 : i8
                   %1 = comb.mul %a, %c30 : i8
                   %p1 = seq.compreg %0, %clk : i8
                   %p2 = seq.compreg %p1, %clk : i8
                   %q1 = seq.compreg %1, %clk : i8
                   %q2 = seq.compreg %q1, %clk : i8
                   hw.output %p2, %q2 : i8, i8
                 }"
            ),
            14
        );
    }

    #[test]
    fn sums_of_constants_within_low_zero_bits_share_their_high_flip_flops() {
        // Addresses `i * 40 + k` (k = 0, 3, 7) delayed two cycles: their
        // bits from 3 up are `i * 40`'s (one 8-bit chain of 11-bit
        // registers), their low 3 bits constant. `i * 40 + 8` and `+ 9`
        // carry into bit 3: one more chain (8 bits a register, the low 3
        // constant).
        let regs = |k: u32| {
            format!(
                "%c{k} = hw.constant {k} : i11
                 %s{k} = comb.add %m, %c{k} : i11
                 %a{k} = seq.compreg %s{k}, %clk : i11
                 %b{k} = seq.compreg %a{k}, %clk : i11"
            )
        };
        let body: Vec<String> = [0, 3, 7, 8, 9].into_iter().map(regs).collect();
        assert_eq!(
            kept(&format!(
                "hw.module @m(in %clk : !seq.clock, in %i : i11, out y : i11, out z : i11, out w : i11, out v : i11, out u : i11) {{
                   %c40 = hw.constant 40 : i11
                   %m = comb.mul %i, %c40 : i11
                   {}
                   hw.output %b0, %b3, %b7, %b8, %b9 : i11, i11, i11, i11, i11
                 }}",
                body.join("\n")
            )),
            2 * 8 + 2 * 8
        );
    }

    #[test]
    fn bits_nothing_reads_are_removed_along_a_delay_chain() {
        // An 11-bit index delayed three cycles to a 9-bit address: 9
        // flip-flops a stage; a register nothing reads keeps none; a
        // counter keeps the bits of it that are read (through its own
        // increment, which reads only its low bits).
        assert_eq!(
            kept(
                "hw.module @m(in %clk : !seq.clock, in %i : i11, out a : i9, out c : i4) {
                   %d1 = seq.compreg %i, %clk : i11
                   %d2 = seq.compreg %d1, %clk : i11
                   %d3 = seq.compreg %d2, %clk : i11
                   %a = comb.extract %d3 from 0 : (i11) -> i9
                   %dead = seq.compreg %i, %clk : i11
                   %one = hw.constant 1 : i16
                   %n = comb.add %cnt, %one : i16
                   %cnt = seq.compreg %n, %clk : i16
                   %c = comb.extract %cnt from 0 : (i16) -> i4
                   hw.output %a, %c : i9, i4
                 }"
            ),
            27 + 4
        );
    }

    #[test]
    fn bits_loading_only_zeros_or_themselves_are_constant() {
        // A zero-extended byte: 8 flip-flops of 32; a register loading
        // only zero or itself: none; reset to a nonzero value: all.
        assert_eq!(
            kept(
                "hw.module @m(in %clk : !seq.clock, in %rst : i1, in %en : i1, in %x : i8, out y : i32, out z : i8, out w : i8) {
                   %z24 = hw.constant 0 : i24
                   %z8 = hw.constant 0 : i8
                   %c5 = hw.constant 5 : i8
                   %wide = comb.concat %z24, %x : i24, i8
                   %sel = comb.mux %en, %wide, %r : i32
                   %r = seq.compreg %sel, %clk : i32
                   %hold = comb.mux %en, %z8, %h : i8
                   %h = seq.compreg %hold, %clk : i8
                   %k = seq.compreg %hold, %clk reset %rst, %c5 : i8
                   hw.output %r, %h, %k : i32, i8, i8
                 }"
            ),
            8 + 8
        );
    }

    #[test]
    fn products_built_as_shifts_and_adds_end_in_zero_bits() {
        // `i * 8` built as a concat with three zero bits: `+ 1` and `+ 2`
        // share the register's high 8 bits, their low 3 are constant.
        assert_eq!(
            kept(
                "hw.module @m(in %clk : !seq.clock, in %i : i8, out y : i11, out z : i11) {
                   %z3 = hw.constant 0 : i3
                   %c1 = hw.constant 1 : i11
                   %c2 = hw.constant 2 : i11
                   %m = comb.concat %i, %z3 : i8, i3
                   %s1 = comb.add %m, %c1 : i11
                   %s2 = comb.add %m, %c2 : i11
                   %a = seq.compreg %s1, %clk : i11
                   %b = seq.compreg %s2, %clk : i11
                   hw.output %a, %b : i11, i11
                 }"
            ),
            8
        );
    }

    #[test]
    fn registers_of_scanned_input_ports_merge_with_the_chain() {
        // Port `a` (8 bits) sits at bits 0..8 of a 16-bit input chain: a
        // register of it holds chain bits 1..9 (8 merged), the register
        // after it bits 2..10 (8), the third bits 3..11 (8). Port `b`, at
        // bits 8..16: its register's bits 9..17 are past the chain's 16
        // kept bits but 7. A register with an enable holds no chain bit.
        let (ctx, ir, block) = body(
            "hw.module @m(in %clk : !seq.clock, in %a : i8, in %b : i8, in %en : i1, out y : i8, out z : i8, out w : i8) {
               %r1 = seq.compreg %a, %clk : i8
               %r2 = seq.compreg %r1, %clk : i8
               %r3 = seq.compreg %r2, %clk : i8
               %s1 = seq.compreg %b, %clk : i8
               %e = comb.mux %en, %a, %g : i8
               %g = seq.compreg %e, %clk : i8
               %o = comb.xor %r3, %s1 : i8
               hw.output %o, %g, %s1 : i8, i8, i8
             }",
        );
        let f = Flops::of(&ctx, &ir, block);
        assert_eq!(f.bits(), 40);
        let args = ir.block_args(block).to_vec();
        let offsets: FxHashMap<_, _> = [(args[1], 0), (args[2], 8)].into_iter().collect();
        assert_eq!(f.chain_merged(&ir, block, &offsets, 16), 8 * 3 + 7);
    }
}
