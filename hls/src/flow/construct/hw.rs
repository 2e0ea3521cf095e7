//! Creating hw/comb/seq ops in an `hw.module` body through the IR API:
//! uniqued constants, comb arithmetic, comparisons, multiplexers,
//! resizes, registers whose inputs are connected once every write to
//! them is known, delay lines and instances of other modules.

use rustc_hash::FxHashMap;
use silica_ir::{Attr, AttrKind, BlockId, Context, Ir, OpId, OpSpec, Type, ValueId};

/// A builder appending to one module body.
pub struct Hw<'c> {
    pub ctx: &'c mut Context,
    pub ir: Ir,
    pub body: BlockId,
    pub loc: Attr,
    pub clock: ValueId,
    pub reset: ValueId,
    consts: FxHashMap<(u128, u32), ValueId>,
    const_bits: FxHashMap<ValueId, u128>,
    delays: FxHashMap<(ValueId, u32), ValueId>,
    placeholders: Vec<OpId>,
    /// Register bits made so far (for the flip-flop estimate).
    pub register_bits: u64,
    names: FxHashMap<String, u32>,
}

/// A register whose next value is connected later.
#[derive(Clone, Copy, Debug)]
pub struct Reg {
    pub op: OpId,
    pub q: ValueId,
    pub width: u32,
}

impl<'c> Hw<'c> {
    /// A builder for `body` (whose clock and reset values are given).
    pub fn new(
        ctx: &'c mut Context,
        ir: Ir,
        body: BlockId,
        clock: ValueId,
        reset: ValueId,
    ) -> Self {
        let loc = ctx.unknown_loc();
        Hw {
            ctx,
            ir,
            body,
            loc,
            clock,
            reset,
            consts: FxHashMap::default(),
            const_bits: FxHashMap::default(),
            delays: FxHashMap::default(),
            placeholders: Vec::new(),
            register_bits: 0,
            names: FxHashMap::default(),
        }
    }

    /// `iN`.
    pub fn int(&mut self, width: u32) -> Type {
        self.ctx.signless(width)
    }

    /// The width of a value.
    pub fn width(&self, v: ValueId) -> u32 {
        match self.ctx.type_kind(self.ir.value_type(v)) {
            silica_ir::TypeKind::Integer { width, .. } => *width,
            _ => 0,
        }
    }

    /// Appends an `hw.instance` named `name` of `module` (no parameters)
    /// with `inputs` named `arg_names`, and outputs of the names and
    /// types `results`.
    pub fn instance(
        &mut self,
        module: &str,
        name: &str,
        inputs: &[ValueId],
        arg_names: &[&str],
        results: &[(&str, Type)],
    ) -> OpId {
        let strings = |ctx: &mut Context, v: &[&str]| {
            let items: Vec<Attr> = v.iter().map(|s| ctx.string_attr(s.as_bytes())).collect();
            ctx.array_attr(&items)
        };
        let arg_names = strings(self.ctx, arg_names);
        let result_names: Vec<&str> = results.iter().map(|r| r.0).collect();
        let result_names = strings(self.ctx, &result_names);
        let root = self.ctx.sym(module);
        let attrs = vec![
            ("argNames", arg_names),
            ("instanceName", self.ctx.string_attr(name.as_bytes())),
            (
                "moduleName",
                self.ctx.intern_attr(AttrKind::SymbolRef {
                    root,
                    nested: Box::new([]),
                }),
            ),
            ("parameters", self.ctx.array_attr(&[])),
            ("resultNames", result_names),
        ];
        let types: Vec<Type> = results.iter().map(|r| r.1).collect();
        self.op("hw.instance", inputs, &types, vec![], attrs)
    }

    /// Appends an op to the body.
    pub fn op(
        &mut self,
        name: &str,
        operands: &[ValueId],
        results: &[Type],
        props: Vec<(&str, Attr)>,
        attrs: Vec<(&str, Attr)>,
    ) -> OpId {
        let props = if props.is_empty() {
            None
        } else {
            let entries: Vec<_> = props
                .into_iter()
                .map(|(k, v)| (self.ctx.sym(k), v))
                .collect();
            Some(self.ctx.dict_attr(entries))
        };
        let entries: Vec<_> = attrs
            .into_iter()
            .map(|(k, v)| (self.ctx.sym(k), v))
            .collect();
        let attrs = self.ctx.dict_attr(entries);
        let name = self.ctx.sym(name);
        let op = self.ir.create_op(OpSpec {
            name,
            loc: self.loc,
            operands,
            result_types: results,
            successors: &[],
            regions: &[],
            attrs,
            props,
        });
        self.ir.append_op(self.body, op);
        op
    }

    /// The constant `bits` (low `width` bits) as an `hw.constant`.
    pub fn constant(&mut self, bits: u128, width: u32) -> ValueId {
        let bits = if width >= 128 {
            bits
        } else {
            bits & ((1u128 << width) - 1)
        };
        if let Some(&v) = self.consts.get(&(bits, width)) {
            return v;
        }
        let ty = self.int(width);
        let value = num_bigint::BigInt::from(crate::model::kernel::sign_extend(bits, width));
        let attr = self.ctx.int_attr(ty, value);
        let op = self.op("hw.constant", &[], &[ty], vec![], vec![("value", attr)]);
        let v = self.ir.result(op, 0);
        self.consts.insert((bits, width), v);
        self.const_bits.insert(v, bits);
        v
    }

    /// The bits of `v` when it is a constant made here.
    pub fn const_of(&self, v: ValueId) -> Option<u128> {
        self.const_bits.get(&v).copied()
    }

    /// A comb op of two or more operands of one width.
    pub fn comb(&mut self, name: &str, operands: &[ValueId]) -> ValueId {
        let ty = self.ir.value_type(operands[0]);
        let op = self.op(name, operands, &[ty], vec![], vec![]);
        self.ir.result(op, 0)
    }

    /// `comb.icmp` with predicate number `pred`.
    pub fn icmp(&mut self, pred: i64, a: ValueId, b: ValueId) -> ValueId {
        let i64t = self.int(64);
        let p = self.ctx.int_attr(i64t, pred);
        let i1 = self.int(1);
        let op = self.op("comb.icmp", &[a, b], &[i1], vec![("predicate", p)], vec![]);
        self.ir.result(op, 0)
    }

    /// `c ? t : f`.
    pub fn mux(&mut self, c: ValueId, t: ValueId, f: ValueId) -> ValueId {
        match self.const_of(c) {
            _ if t == f => return t,
            Some(0) => return f,
            Some(_) => return t,
            None => {}
        }
        let ty = self.ir.value_type(t);
        let op = self.op("comb.mux", &[c, t, f], &[ty], vec![], vec![]);
        self.ir.result(op, 0)
    }

    /// Bits `[low, low + width)` of `v`.
    pub fn extract(&mut self, v: ValueId, low: u32, width: u32) -> ValueId {
        if low == 0 && self.width(v) == width {
            return v;
        }
        let i32t = self.int(32);
        let lb = self.ctx.int_attr(i32t, low);
        let ty = self.int(width);
        let op = self.op("comb.extract", &[v], &[ty], vec![("lowBit", lb)], vec![]);
        self.ir.result(op, 0)
    }

    /// `hi ++ lo`.
    pub fn concat(&mut self, hi: ValueId, lo: ValueId) -> ValueId {
        let w = self.width(hi) + self.width(lo);
        let ty = self.int(w);
        let op = self.op("comb.concat", &[hi, lo], &[ty], vec![], vec![]);
        self.ir.result(op, 0)
    }

    /// `v` resized to `width`, sign- or zero-extending.
    pub fn resize(&mut self, v: ValueId, width: u32, signed: bool) -> ValueId {
        let w = self.width(v);
        if w == width {
            return v;
        }
        if w > width {
            return self.extract(v, 0, width);
        }
        let pad = width - w;
        let high = if signed {
            let sign = self.extract(v, w - 1, 1);
            let ones = self.constant(u128::MAX, pad);
            let zeros = self.constant(0, pad);
            self.mux(sign, ones, zeros)
        } else {
            self.constant(0, pad)
        };
        self.concat(high, v)
    }

    /// `!a` for an `i1`.
    pub fn not(&mut self, a: ValueId) -> ValueId {
        let one = self.constant(1, 1);
        self.comb("comb.xor", &[a, one])
    }

    /// `a & b` for `i1` values.
    pub fn and(&mut self, a: ValueId, b: ValueId) -> ValueId {
        match (self.const_of(a), self.const_of(b)) {
            (Some(0), _) | (_, Some(1)) => a,
            (_, Some(0)) | (Some(1), _) => b,
            _ => self.comb("comb.and", &[a, b]),
        }
    }

    /// The or of `i1` values (false when empty).
    pub fn any(&mut self, vals: &[ValueId]) -> ValueId {
        if vals.iter().any(|&v| self.const_of(v) == Some(1)) {
            return self.constant(1, 1);
        }
        let vals: Vec<ValueId> = vals
            .iter()
            .copied()
            .filter(|&v| self.const_of(v) != Some(0))
            .collect();
        match vals.as_slice() {
            [] => self.constant(0, 1),
            [v] => *v,
            _ => self.comb("comb.or", &vals),
        }
    }

    /// A name for Verilog, made unique.
    fn unique(&mut self, base: &str) -> String {
        let n = self.names.entry(base.to_string()).or_insert(0);
        *n += 1;
        if *n == 1 {
            base.to_string()
        } else {
            format!("{base}_{}", *n - 1)
        }
    }

    /// A register named `name`, reset to `reset` when given; its input is
    /// connected by [`Hw::connect`].
    pub fn reg(&mut self, name: &str, width: u32, reset: Option<u128>) -> Reg {
        let placeholder = self.placeholder(width);
        self.reg_from(name, placeholder, reset)
    }

    fn placeholder(&mut self, width: u32) -> ValueId {
        let ty = self.int(width);
        let i = self.ctx.int_attr(ty, 0);
        let op = self.op("hw.constant", &[], &[ty], vec![], vec![("value", i)]);
        self.placeholders.push(op);
        self.ir.result(op, 0)
    }

    fn reg_from(&mut self, name: &str, input: ValueId, reset: Option<u128>) -> Reg {
        let width = self.width(input);
        let name = self.unique(name);
        let mut operands = vec![input, self.clock];
        let sizes = match reset {
            Some(r) => {
                let rv = self.constant(r, width);
                operands.extend([self.reset, rv]);
                vec![1, 1, 1, 1, 0]
            }
            None => vec![1, 1, 0, 0, 0],
        };
        let seg = self.ctx.int_array_attr(32, &sizes);
        let name_attr = self.ctx.string_attr(name.as_bytes());
        let ty = self.int(width);
        let op = self.op(
            "seq.compreg",
            &operands,
            &[ty],
            vec![("name", name_attr), ("operandSegmentSizes", seg)],
            vec![],
        );
        self.register_bits += u64::from(width);
        Reg {
            op,
            q: self.ir.result(op, 0),
            width,
        }
    }

    /// Connects a register's next value: the first write whose condition
    /// holds, else the register's own value.
    pub fn connect(&mut self, reg: Reg, writes: &[(ValueId, ValueId)]) {
        let mut next = reg.q;
        for &(c, v) in writes.iter().rev() {
            next = self.mux(c, v, next);
        }
        self.ir.set_operand(reg.op, 0, next);
    }

    /// `v` delayed by `cycles` (a chain of registers that shift every
    /// cycle).
    pub fn delayed(&mut self, v: ValueId, cycles: u32, name: &str) -> ValueId {
        if cycles == 0 {
            return v;
        }
        if let Some(&d) = self.delays.get(&(v, cycles)) {
            return d;
        }
        let prev = self.delayed(v, cycles - 1, name);
        let r = self.reg_from(&format!("{name}_d{cycles}"), prev, None);
        self.delays.insert((v, cycles), r.q);
        r.q
    }

    /// Erases the placeholders registers were created with.
    pub fn finish(&mut self) {
        for op in std::mem::take(&mut self.placeholders) {
            let v = self.ir.result(op, 0);
            if self.ir.uses(v).next().is_none() {
                self.ir.erase_op(op);
            }
        }
    }

    /// A `seq.firmem` named `name` of `words` words of `width` bits, with
    /// the brief's one-cycle read and write latencies: its handle.
    pub fn firmem(&mut self, name: &str, words: u64, width: u32) -> ValueId {
        self.masked_firmem(name, words, width, 1)
    }

    /// As [`Self::firmem`], a word written `lanes` equal parts at a time
    /// (a write port's mask has a bit a lane; no mask for one lane).
    pub fn masked_firmem(&mut self, name: &str, words: u64, width: u32, lanes: u32) -> ValueId {
        let mask = (lanes > 1).then_some(u64::from(lanes));
        let ty = silica_hw_dialects::types::firmem(self.ctx, words, u64::from(width), mask);
        let name = self.ctx.string_attr(name.as_bytes());
        let props = vec![
            ("name", name),
            ("readLatency", self.int_attr(32, 1)),
            ("writeLatency", self.int_attr(32, 1)),
            ("ruw", self.int_attr(32, 0)),
            ("wuw", self.int_attr(32, 0)),
        ];
        let mem = self.op("seq.firmem", &[], &[ty], props, vec![]);
        self.ir.result(mem, 0)
    }

    /// A `bits`-wide shift register (named `name`) that takes `input` in
    /// at bit 0 every cycle: its value.
    pub fn shift_in(&mut self, name: &str, input: ValueId, bits: u32) -> ValueId {
        let chain = self.reg(name, bits, None);
        let next = if bits == 1 {
            input
        } else {
            let kept = self.extract(chain.q, 0, bits - 1);
            self.concat(kept, input)
        };
        let one = self.constant(1, 1);
        self.connect(chain, &[(one, next)]);
        chain.q
    }

    /// An integer attribute of type `iW`.
    pub fn int_attr(&mut self, width: u32, v: i64) -> Attr {
        let t = self.int(width);
        self.ctx.int_attr(t, v)
    }

    /// A type attribute.
    pub fn type_attr(&mut self, t: Type) -> Attr {
        self.ctx.intern_attr(AttrKind::Type(t))
    }
}
