//! Datapath operators: each node as comb ops on its operands as seen
//! where it starts (a multi-cycle operator is its comb circuit followed
//! by as many registers as its latency, but for a divider, whose array
//! the registers cut into stages, `divider_array.rs`; a load is the
//! memory's read data a cycle after its access), and affine bound
//! expressions.

use super::{divider_array, shift_add, Access, At, Builder, Env};
use crate::float::FloatOp;
use crate::flow::analysis::constant_product::{self, Form, Forms, Products};
use crate::flow::front::{reciprocal, MAX_RECIPROCAL_WIDTH};
use crate::model::kernel::{Bound, NodeId, Op, Operator, Predicate};
use silica_ir::affine::{AffineExpr, BinOp};
use silica_ir::ValueId;

impl Builder<'_, '_> {
    /// Builds node `n` (its memory access included); a store gives its
    /// enable.
    pub(super) fn build_node(&mut self, n: NodeId) -> ValueId {
        if let Some(&u) = self.binding.unit.get(&n) {
            return self.shared(n, u);
        }
        let (start, _) = self.home(n);
        let node = self.k.nodes[n].clone();
        let args: Vec<ValueId> = node.args.iter().map(|&a| self.seen(a, start)).collect();
        match node.op {
            Op::Load(m) | Op::Store(m) => {
                let active = self.active(start);
                let (data, predicate) = match node.op {
                    Op::Load(_) => (None, args.get(1).copied()),
                    _ => (args.get(1).copied(), args.get(2).copied()),
                };
                // A store to a packed memory enables one bit a lane.
                let packed = self.k.memories[m].lanes > 1 && data.is_some();
                let enable = match predicate {
                    Some(p) if packed => {
                        let none = self.hw.constant(0, self.hw.width(p));
                        let any = self.hw.icmp(Predicate::Ne.code(), p, none);
                        self.hw.and(active, any)
                    }
                    Some(p) => self.hw.and(active, p),
                    None => active,
                };
                let lanes = packed.then(|| {
                    let width = self.k.memories[m].lanes;
                    let mask = predicate.unwrap_or_else(|| self.hw.constant(u128::MAX, width));
                    let none = self.hw.constant(0, width);
                    self.hw.mux(active, mask, none)
                });
                let aw = self.address_width(m);
                // A channel's word `w` is in slot `w mod depth`.
                let width = self.hw.width(args[0]);
                let address = match self.k.memories[m].channel {
                    Some(1) => self.hw.constant(0, width),
                    Some(depth) if depth.is_power_of_two() => {
                        let mask = self.hw.constant(u128::from(depth - 1), width);
                        self.hw.comb("comb.and", &[args[0], mask])
                    }
                    Some(depth) => {
                        let d = self.hw.constant(u128::from(depth), width);
                        self.hw.comb("comb.modu", &[args[0], d])
                    }
                    None => args[0],
                };
                let address = self.hw.resize(address, aw, false);
                let port = self.binding.port.get(&n).copied().unwrap_or(0);
                self.accesses[m].push(Access {
                    port,
                    enable,
                    address,
                    data,
                    lanes,
                });
                match node.op {
                    Op::Load(_) => self.read_data[m][port as usize],
                    _ => enable,
                }
            }
            Op::Float(o) => self.float_instance(n, o, &args),
            op @ (Op::DivS | Op::DivU | Op::RemS | Op::RemU) if self.s.latency[n] > 0 => {
                let latency = self.s.latency[n];
                let width = self.hw.width(args[0]);
                let rows = crate::model::target::library::rows_per_stage(width, latency);
                self.dividers.push((width, rows));
                divider_array::pipelined_division(
                    &mut self.hw,
                    op,
                    &args,
                    latency,
                    &format!("op{n}"),
                )
            }
            Op::Mul => {
                let significant =
                    [0, 1].map(|i| constant_product::significant(self.k, node.args[i]));
                let (forms, products) = (self.forms, &mut self.products);
                let v = multiply(
                    &mut self.hw,
                    forms,
                    products,
                    (args[0], args[1]),
                    significant,
                );
                let latency = self.s.latency[n];
                self.hw.delayed(v, latency, &format!("op{n}"))
            }
            op => {
                let v = self.operator(op, &args, node.width);
                let latency = self.s.latency[n];
                self.hw.delayed(v, latency, &format!("op{n}"))
            }
        }
    }

    /// Node `n`'s result from the unit `u` of its class that it shares:
    /// the unit (built once) computes at the widest of its operations,
    /// each operand the one of the operation active where it starts.
    fn shared(&mut self, n: NodeId, u: u32) -> ValueId {
        let class = crate::model::target::library::class_of(self.k.nodes[n].op);
        let out = match self.units.get(&(class, u)) {
            Some(&v) => v,
            None => {
                let members = self.binding.members[&(class, u)].clone();
                if let Op::Float(o) = self.k.nodes[n].op {
                    return self.shared_float(n, o, (class, u), &members);
                }
                let width = members
                    .iter()
                    .map(|&m| self.k.nodes[m].width)
                    .max()
                    .unwrap_or(1);
                if class == "div" {
                    let out = self.shared_divider(n, u, &members, width);
                    return self.hw.resize(out, self.k.nodes[n].width, false);
                }
                // The unit first, on placeholder operands: an operand may
                // be the result of another operation on this very unit
                // (through a register, as they run in different cycles).
                let arity = self.k.nodes[n].args.len();
                let zero = self.hw.constant(0, width);
                let placeholders = vec![zero; arity];
                let v = match self.k.nodes[n].op {
                    // A multiplier of its members' operands, never a
                    // product by the placeholder constant.
                    Op::Mul => self.hw.comb("comb.mul", &placeholders),
                    op => self.operator(op, &placeholders, width),
                };
                let unit = self.hw.ir.defining_op(v);
                let out = self
                    .hw
                    .delayed(v, self.s.latency[n], &format!("unit_{class}{u}"));
                self.units.insert((class, u), out);
                for i in 0..arity {
                    let mut acc = zero;
                    for &m in members.iter().rev() {
                        let (start, _) = self.home(m);
                        let x = self.seen(self.k.nodes[m].args[i], start);
                        let x = self.hw.resize(x, width, false);
                        let active = self.active(start);
                        acc = self.hw.mux(active, x, acc);
                    }
                    if let Some(op) = unit {
                        self.hw.ir.set_operand(op, i, acc);
                    }
                }
                out
            }
        };
        self.hw.resize(out, self.k.nodes[n].width, false)
    }

    /// The instance of shared float unit `key` for `members` (first built
    /// for node `n`, whose operator `o` gives the unit's operator), each
    /// operand the one of the member active where it starts; a
    /// subtraction's second operand enters the adder negated.
    fn shared_float(
        &mut self,
        n: NodeId,
        o: Operator,
        key: (&'static str, u32),
        members: &[NodeId],
    ) -> ValueId {
        let unit = o.shared_unit();
        let w = o.format.width();
        let zero = self.hw.constant(0, w);
        let arity = unit.operands().len();
        // The instance first, on placeholder operands, as `shared` does:
        // an operand may come from this very unit.
        let out = self.float_instance(n, unit, &vec![zero; arity]);
        self.units.insert(key, out);
        let instance = self.hw.ir.defining_op(out);
        // The clock comes first on a pipelined operator.
        let first = usize::from(self.s.latency[n] > 0);
        let sign = self.hw.constant(1u128 << (w - 1), w);
        for i in 0..arity {
            let mut acc = zero;
            for &m in members.iter().rev() {
                let (start, _) = self.home(m);
                let mut x = self.seen(self.k.nodes[m].args[i], start);
                if i == 1 && matches!(self.k.nodes[m].op, Op::Float(p) if p.op == FloatOp::Sub) {
                    x = self.hw.comb("comb.xor", &[x, sign]);
                }
                let active = self.active(start);
                acc = self.hw.mux(active, x, acc);
            }
            if let Some(op) = instance {
                self.hw.ir.set_operand(op, first + i, acc);
            }
        }
        out
    }

    /// The comb circuit of `op` on `args`, `width` bits wide.
    pub(super) fn operator(&mut self, op: Op, args: &[ValueId], width: u32) -> ValueId {
        let (forms, products) = (self.forms, &mut self.products);
        let h = &mut self.hw;
        let two = |name: &str, h: &mut super::hw::Hw<'_>| h.comb(name, &[args[0], args[1]]);
        match op {
            Op::Add => two("comb.add", h),
            Op::Sub => two("comb.sub", h),
            Op::Mul => {
                let full = [h.width(args[0]), h.width(args[1])];
                multiply(h, forms, products, (args[0], args[1]), full)
            }
            Op::DivS => two("comb.divs", h),
            Op::DivU => two("comb.divu", h),
            Op::RemS => two("comb.mods", h),
            Op::RemU => two("comb.modu", h),
            Op::Shl => two("comb.shl", h),
            Op::ShrU => two("comb.shru", h),
            Op::ShrS => two("comb.shrs", h),
            Op::And => two("comb.and", h),
            Op::Or => two("comb.or", h),
            Op::Xor => two("comb.xor", h),
            Op::MinS | Op::MaxS | Op::MinU | Op::MaxU => {
                let pred = match op {
                    Op::MinS => Predicate::Slt,
                    Op::MaxS => Predicate::Sgt,
                    Op::MinU => Predicate::Ult,
                    _ => Predicate::Ugt,
                };
                let c = h.icmp(pred.code(), args[0], args[1]);
                h.mux(c, args[0], args[1])
            }
            Op::Cmp(p) => h.icmp(p.code(), args[0], args[1]),
            Op::Mux => h.mux(args[0], args[1], args[2]),
            Op::SExt => h.resize(args[0], width, true),
            Op::ZExt | Op::Trunc => h.resize(args[0], width, false),
            Op::AbsI => {
                let zero = h.constant(0, width);
                let negative = h.icmp(Predicate::Slt.code(), args[0], zero);
                let negated = h.comb("comb.sub", &[zero, args[0]]);
                h.mux(negative, negated, args[0])
            }
            Op::Ctlz | Op::Cttz => {
                // The first set bit from the top (ctlz) or the bottom (cttz):
                // a priority chain, the winning bit applied last.
                let mut r = h.constant(u128::from(width), width);
                let bits: Vec<u32> = if op == Op::Ctlz {
                    (0..width).collect()
                } else {
                    (0..width).rev().collect()
                };
                for i in bits {
                    let bit = h.extract(args[0], i, 1);
                    let count = if op == Op::Ctlz { width - 1 - i } else { i };
                    let c = h.constant(u128::from(count), width);
                    r = h.mux(bit, c, r);
                }
                r
            }
            Op::Ctpop => {
                // A balanced tree of adds over the zero-extended bits.
                let mut level: Vec<ValueId> = (0..width)
                    .map(|i| {
                        let bit = h.extract(args[0], i, 1);
                        h.resize(bit, width, false)
                    })
                    .collect();
                while level.len() > 1 {
                    let mut next = Vec::new();
                    for pair in level.chunks(2) {
                        next.push(if pair.len() == 2 {
                            h.comb("comb.add", &[pair[0], pair[1]])
                        } else {
                            pair[0]
                        });
                    }
                    level = next;
                }
                level[0]
            }
            Op::FloorDivC(c) => floor_div(h, forms, products, args[0], c),
            Op::CeilDivC(c) => {
                let bias = h.constant((c - 1) as u128, width);
                let biased = h.comb("comb.add", &[args[0], bias]);
                floor_div(h, forms, products, biased, c)
            }
            Op::ModC(c) => {
                if c.count_ones() == 1 {
                    let mask = h.constant((c - 1) as u128, width);
                    h.comb("comb.and", &[args[0], mask])
                } else {
                    // a - c * floor(a / c): nonnegative for every a.
                    let q = floor_div(h, forms, products, args[0], c);
                    let d = h.constant(c as u128, width);
                    let product = multiply(h, forms, products, (q, d), [width; 2]);
                    h.comb("comb.sub", &[args[0], product])
                }
            }
            Op::Load(_) | Op::Store(_) | Op::Float(_) => args[0],
        }
    }

    /// A loop bound as seen at `at` (with the values of `env` standing for
    /// theirs): the max (lower) or min (upper) of its results.
    pub fn bound(&mut self, b: &Bound, lower: bool, at: At, env: &Env) -> ValueId {
        let operands: Vec<ValueId> = b
            .operands
            .iter()
            .map(|&v| self.seen_in(v, at, env))
            .collect();
        let nd = b.map.num_dims as usize;
        let mut acc: Option<ValueId> = None;
        for e in b.map.results.iter() {
            let v = self.expr(e, &operands, nd);
            acc = Some(match acc {
                None => v,
                Some(a) => self.operator(if lower { Op::MaxS } else { Op::MinS }, &[a, v], 0),
            });
        }
        acc.unwrap_or_else(|| self.hw.constant(0, self.k.index_width))
    }

    fn expr(&mut self, e: &AffineExpr, operands: &[ValueId], nd: usize) -> ValueId {
        let w = self.k.index_width;
        match e {
            AffineExpr::Dim(i) => operands[*i as usize],
            AffineExpr::Symbol(i) => operands[nd + *i as usize],
            AffineExpr::Constant(c) => self.hw.constant(*c as u128, w),
            AffineExpr::Binary(bin) => {
                let (op, l, r) = &**bin;
                let a = self.expr(l, operands, nd);
                let divisor = match r {
                    AffineExpr::Constant(c) => *c,
                    _ => 0,
                };
                match op {
                    BinOp::Add | BinOp::Mul => {
                        let b = self.expr(r, operands, nd);
                        let name = if *op == BinOp::Add { Op::Add } else { Op::Mul };
                        self.operator(name, &[a, b], w)
                    }
                    BinOp::FloorDiv => self.operator(Op::FloorDivC(divisor.max(1)), &[a], w),
                    BinOp::CeilDiv => self.operator(Op::CeilDivC(divisor.max(1)), &[a], w),
                    BinOp::Mod => self.operator(Op::ModC(divisor.max(1)), &[a], w),
                }
            }
        }
    }

    /// Address bits of memory `m`.
    pub(super) fn address_width(&self, m: usize) -> u32 {
        memory_address_width(&self.k.memories[m])
    }
}

/// `a * b`: a product by a constant in its form (`crate::flow::analysis::constant_product`),
/// counted in `products`, else a multiplier.
/// `significant`: the low bits of each operand that may be nonzero.
fn multiply(
    h: &mut super::hw::Hw<'_>,
    forms: Forms<'_>,
    products: &mut Products,
    (a, b): (ValueId, ValueId),
    significant: [u32; 2],
) -> ValueId {
    let (x, c, s) = match (h.const_of(a), h.const_of(b)) {
        (_, Some(c)) => (a, c, significant[0]),
        (Some(c), None) => (b, c, significant[1]),
        (None, None) => return h.comb("comb.mul", &[a, b]),
    };
    let w = h.width(x);
    constant_product(h, forms, products, x, s.min(w), c as i128, w)
}

/// `a * c` at `width` bits for an `a` whose low `significant` bits may be
/// nonzero: in `c`'s form, counted in `products`.
fn constant_product(
    h: &mut super::hw::Hw<'_>,
    forms: Forms<'_>,
    products: &mut Products,
    a: ValueId,
    significant: u32,
    c: i128,
    width: u32,
) -> ValueId {
    let form = forms.form(c, width, significant);
    products.count(&form);
    if form == Form::Multiplier {
        let a = h.resize(a, width, false);
        let c = h.constant(c as u128, width);
        return h.comb("comb.mul", &[a, c]);
    }
    shift_add::product(h, a, significant, &form, width)
}

/// `floor(a / c)` for a positive constant `c` (an arithmetic shift for
/// powers of two).
fn floor_div(
    h: &mut super::hw::Hw<'_>,
    forms: Forms<'_>,
    products: &mut Products,
    a: ValueId,
    c: i64,
) -> ValueId {
    let w = h.width(a);
    if c.count_ones() == 1 {
        let s = h.constant(u128::from(c.trailing_zeros()), w);
        return h.comb("comb.shrs", &[a, s]);
    }
    // Negative dividends: floor(a / c) = -1 - ((-1 - a) / c).
    let zero = h.constant(0, w);
    let minus_one = h.constant(u128::MAX, w);
    let negative = h.icmp(Predicate::Slt.code(), a, zero);
    let flipped = h.comb("comb.sub", &[minus_one, a]);
    let dividend = h.mux(negative, flipped, a);
    let q = divide_nonnegative(h, forms, products, dividend, c);
    let back = h.comb("comb.sub", &[minus_one, q]);
    h.mux(negative, back, q)
}

/// `a / c` for a nonnegative `a` and a positive constant `c` no power of
/// two: the high part of `a` times the rounded-up reciprocal where the
/// product fits (the lifting's `reciprocal`), a divider otherwise.
fn divide_nonnegative(
    h: &mut super::hw::Hw<'_>,
    forms: Forms<'_>,
    products: &mut Products,
    a: ValueId,
    c: i64,
) -> ValueId {
    let w = h.width(a);
    if w > MAX_RECIPROCAL_WIDTH {
        let d = h.constant(c as u128, w);
        return h.comb("comb.divs", &[a, d]);
    }
    let (m, shift) = reciprocal(c as u128, w);
    let wide = 2 * w + 1;
    let product = constant_product(h, forms, products, a, w, m as i128, wide);
    let s = h.constant(u128::from(shift), wide);
    let high = h.comb("comb.shru", &[product, s]);
    h.extract(high, 0, w)
}

/// The address bits of a memory: an external one's port, an on-chip
/// RAM's `seq.firmem`.
pub(super) fn memory_address_width(mem: &crate::model::kernel::Memory) -> u32 {
    if mem.arg.is_some() {
        mem.address_width()
    } else {
        silica_hw_dialects::seq::memory_ops::firmem_address_width(mem.words())
    }
}
