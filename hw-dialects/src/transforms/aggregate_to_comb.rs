//! `--hw-aggregate-to-comb`: arrays and structs become the integers of
//! their bits, and their ops comb logic (CIRCT's pass of that name).
//!
//! Element `i` of an array of N elements of width w is bits
//! `[i*w, (i+1)*w)`; a struct's first field is its most significant. So
//! `hw.array_create` and `hw.struct_create` are `comb.concat`s, a constant
//! index or a field is a `comb.extract`, and a dynamic index selects
//! through a tree of `comb.mux`es on the index's bits (an index past the
//! end reads the last element). `hw.array_inject` builds the array for
//! each index and selects one. `hw.aggregate_constant` is an
//! `hw.constant`; `comb.mux` of aggregates muxes their bits.
//!
//! Values crossing from ops that stay (ports, instances, registers,
//! `hw.output`) are `hw.bitcast` at the boundary: an aggregate read by a
//! lowered op is cast where it is defined (block arguments at the start
//! of the body), and a lowered value read by an op that stays is cast
//! back right after it is made. Ops are folded as they are made (an
//! extract of a constant is a constant), as CIRCT's `createOrFold`.

use crate::hw::create_constant;
use crate::types::{bit_width, hw_type, HwType};
use silica_ir::dialect::inherent_attr;
use silica_ir::graph::OpSpec;
use silica_ir::pass::{Pass, PassInfo, PassOptions};
use silica_ir::rewrite::fold::fold_op;
use silica_ir::rewrite::{FoldResult, OpFoldResult};
use silica_ir::{Attr, AttrKind, Context, Diagnostic, Ir, OpId, Type, ValueDef, ValueId};
use std::collections::HashMap;

/// Lowers the aggregate ops of every `hw.module` under `top`.
pub fn aggregate_to_comb(ctx: &mut Context, ir: &mut Ir, top: OpId) {
    let mut modules = Vec::new();
    ir.walk(top, &mut |o| {
        if ctx.str(ir.op_name(o)) == "hw.module" {
            modules.push(o);
        }
    });
    for module in modules {
        let Some(block) = ir.regions(module).next().and_then(|r| ir.entry_block(r)) else {
            continue;
        };
        let ops: Vec<OpId> = ir.block_ops(block).collect();
        let mut lowering = Lowering {
            ctx,
            ir,
            lowered: HashMap::new(),
        };
        let mut done = Vec::new();
        for op in ops {
            if lowering.lowers(op) && lowering.lower(op).is_some() {
                done.push(op);
            }
        }
        // The lowered ops are now read only by each other.
        for &op in &done {
            ir.set_operands(op, &[]);
        }
        for op in done.into_iter().rev() {
            ir.erase_op(op);
        }
    }
}

struct Lowering<'a> {
    ctx: &'a mut Context,
    ir: &'a mut Ir,
    /// Each aggregate value's bits.
    lowered: HashMap<ValueId, ValueId>,
}

fn is_aggregate(ctx: &Context, t: Type) -> bool {
    matches!(hw_type(ctx, t), Some(HwType::Array(..) | HwType::Struct(_)))
}

impl Lowering<'_> {
    /// Whether this pass lowers `op`.
    fn lowers(&self, op: OpId) -> bool {
        let (ctx, ir) = (&*self.ctx, &*self.ir);
        let fixed = |v: ValueId| bit_width(ctx, ir.value_type(v)).is_some();
        let all_fixed = ir.operands(op).all(fixed) && ir.results(op).all(fixed);
        match ctx.str(ir.op_name(op)) {
            "hw.aggregate_constant"
            | "hw.array_get"
            | "hw.array_create"
            | "hw.array_concat"
            | "hw.array_slice"
            | "hw.array_inject"
            | "hw.struct_create"
            | "hw.struct_extract"
            | "hw.struct_inject" => all_fixed,
            "comb.mux" => all_fixed && ir.results(op).any(|r| is_aggregate(ctx, ir.value_type(r))),
            _ => false,
        }
    }

    fn int_type(&mut self, v: ValueId) -> Type {
        let w = bit_width(self.ctx, self.ir.value_type(v)).unwrap_or(0);
        self.ctx.signless(w as u32)
    }

    /// Creates `name` before `at`, folding it as it is made.
    fn make(
        &mut self,
        at: OpId,
        name: &str,
        operands: &[ValueId],
        ty: Type,
        attrs: Vec<(&str, Attr)>,
    ) -> ValueId {
        let attrs: Vec<_> = attrs
            .into_iter()
            .map(|(k, v)| (self.ctx.sym(k), v))
            .collect();
        let attrs = self.ctx.dict_attr(attrs);
        let loc = self.ir.op_loc(at);
        let name = self.ctx.sym(name);
        let op = self.ir.create_op(OpSpec {
            name,
            loc,
            operands,
            result_types: &[ty],
            successors: &[],
            regions: &[],
            attrs,
            props: None,
        });
        self.ir.insert_op_before(at, op);
        let result = self.ir.result(op, 0);
        match fold_op(self.ctx, self.ir, op) {
            FoldResult::Results(r) => match r.first() {
                Some(&OpFoldResult::Value(v)) => {
                    self.ir.replace_all_uses(result, v);
                    self.ir.erase_op(op);
                    v
                }
                Some(&OpFoldResult::Attr(a)) => {
                    let c = create_constant(self.ctx, self.ir, loc, a, ty);
                    self.ir.insert_op_before(op, c);
                    self.ir.replace_all_uses(result, self.ir.result(c, 0));
                    self.ir.erase_op(op);
                    self.ir.result(c, 0)
                }
                None => result,
            },
            _ => result,
        }
    }

    fn extract(&mut self, at: OpId, v: ValueId, low: u64, width: u64) -> ValueId {
        let ty = self.ctx.signless(width as u32);
        let i32_ty = self.ctx.signless(32);
        let low = self.ctx.int_attr(i32_ty, low);
        self.make(at, "comb.extract", &[v], ty, vec![("lowBit", low)])
    }

    fn concat(&mut self, at: OpId, parts: &[ValueId]) -> ValueId {
        let w: u64 = parts
            .iter()
            .map(|&p| bit_width(self.ctx, self.ir.value_type(p)).unwrap_or(0))
            .sum();
        let ty = self.ctx.signless(w as u32);
        self.make(at, "comb.concat", parts, ty, Vec::new())
    }

    fn bitcast(&mut self, v: ValueId, ty: Type, before: OpId) -> ValueId {
        let (loc, attrs, name) = (
            self.ir.op_loc(before),
            self.ctx.dict_attr(Vec::new()),
            self.ctx.sym("hw.bitcast"),
        );
        let op = self.ir.create_op(OpSpec {
            name,
            loc,
            operands: &[v],
            result_types: &[ty],
            successors: &[],
            regions: &[],
            attrs,
            props: None,
        });
        self.ir.insert_op_before(before, op);
        self.ir.result(op, 0)
    }

    /// The bits of operand `v`: itself unless an aggregate; a lowered
    /// aggregate's bits; else a cast where `v` is defined.
    fn bits(&mut self, v: ValueId) -> Option<ValueId> {
        if !is_aggregate(self.ctx, self.ir.value_type(v)) {
            return Some(v);
        }
        if let Some(&b) = self.lowered.get(&v) {
            return Some(b);
        }
        let ty = self.int_type(v);
        let cast = match self.ir.value_def(v) {
            ValueDef::Argument { block, .. } => {
                let first = self.ir.block_ops(block).next()?;
                self.bitcast(v, ty, first)
            }
            ValueDef::Result { op, .. } => {
                let block = self.ir.op_block(op)?;
                let next = self.ir.block_ops(block).skip_while(|&o| o != op).nth(1)?;
                self.bitcast(v, ty, next)
            }
            ValueDef::Placeholder => return None,
        };
        self.lowered.insert(v, cast);
        Some(cast)
    }

    /// The integer of a constant index, if it is one.
    fn constant_index(&self, v: ValueId) -> Option<u64> {
        let def = self.ir.defining_op(v)?;
        if self.ctx.str(self.ir.op_name(def)) != "hw.constant" {
            return None;
        }
        match inherent_attr(self.ctx, self.ir, def, "value").map(|a| self.ctx.attr_kind(a)) {
            Some(AttrKind::Integer { ty, value }) => {
                let w = self.ctx.int_width(*ty)?;
                let unsigned = if value.sign() == num_bigint::Sign::Minus {
                    value + (num_bigint::BigInt::from(1) << w)
                } else {
                    value.clone()
                };
                u64::try_from(unsigned).ok()
            }
            _ => None,
        }
    }

    /// One of `leaves` by `index`, through a tree of muxes on its bits
    /// (true branches built first, as CIRCT's `constructMuxTree`); an
    /// index past the end selects the last leaf.
    fn select(&mut self, at: OpId, index: ValueId, leaves: &[ValueId]) -> ValueId {
        let w = self.ctx.int_width(self.ir.value_type(index)).unwrap_or(0);
        let selectors: Vec<ValueId> = (0..w)
            .map(|i| self.extract(at, index, u64::from(i), 1))
            .collect();
        let levels = (leaves.len().max(1) as u64)
            .next_power_of_two()
            .trailing_zeros() as usize;
        let levels = levels.min(selectors.len());
        self.tree(at, &selectors, leaves, 0, levels)
    }

    fn tree(
        &mut self,
        at: OpId,
        selectors: &[ValueId],
        leaves: &[ValueId],
        id: usize,
        level: usize,
    ) -> ValueId {
        if level == 0 {
            return leaves
                .get(id)
                .or(leaves.last())
                .copied()
                .unwrap_or(selectors[0]);
        }
        let on_true = self.tree(at, selectors, leaves, 2 * id + 1, level - 1);
        let on_false = self.tree(at, selectors, leaves, 2 * id, level - 1);
        let ty = self.ir.value_type(on_true);
        self.make(
            at,
            "comb.mux",
            &[selectors[level - 1], on_true, on_false],
            ty,
            Vec::new(),
        )
    }

    /// An array's elements, lowest index first.
    fn elements(&mut self, at: OpId, bits: ValueId, n: u64, w: u64) -> Vec<ValueId> {
        (0..n).map(|i| self.extract(at, bits, i * w, w)).collect()
    }

    /// Lowers `op`, recording its result's bits; `None` leaves it as is.
    fn lower(&mut self, op: OpId) -> Option<()> {
        let name = self.ctx.str(self.ir.op_name(op)).to_string();
        let result = self.ir.results(op).next()?;
        // An op that folds to a value it reads is that value (MLIR's
        // conversion folds before it rewrites): a field of a
        // `hw.struct_create`, say.
        if let FoldResult::Results(r) = fold_op(self.ctx, self.ir, op) {
            if let [OpFoldResult::Value(v)] = r[..] {
                let bits = self.bits(v)?;
                self.finish(op, result, bits);
                return Some(());
            }
        }
        let operands: Vec<ValueId> = self.ir.operands(op).collect();
        let in_type = operands.first().map(|&v| self.ir.value_type(v));
        let bits = match name.as_str() {
            "hw.aggregate_constant" => {
                let t = self.ir.value_type(result);
                let fields = inherent_attr(self.ctx, self.ir, op, "fields")?;
                let value = crate::eval::aggregate_bits(self.ctx, fields, t)?;
                let ty = self.int_type(result);
                let a = self.ctx.int_attr(ty, value.signed());
                let c = create_constant(self.ctx, self.ir, self.ir.op_loc(op), a, ty);
                self.ir.insert_op_before(op, c);
                self.ir.result(c, 0)
            }
            "hw.array_create" | "hw.struct_create" => {
                let parts = operands
                    .iter()
                    .map(|&v| self.bits(v))
                    .collect::<Option<Vec<_>>>()?;
                self.concat(op, &parts)
            }
            "hw.array_concat" => {
                let parts = operands
                    .iter()
                    .map(|&v| self.bits(v))
                    .collect::<Option<Vec<_>>>()?;
                self.concat(op, &parts)
            }
            "hw.array_get" => {
                let Some(HwType::Array(n, e)) = hw_type(self.ctx, in_type?) else {
                    return None;
                };
                let w = bit_width(self.ctx, e)?;
                let array = self.bits(operands[0])?;
                match self.constant_index(operands[1]).filter(|&i| i < n) {
                    Some(i) => self.extract(op, array, i * w, w),
                    None => {
                        let leaves = self.elements(op, array, n, w);
                        self.select(op, operands[1], &leaves)
                    }
                }
            }
            "hw.array_slice" => {
                let Some(HwType::Array(n, e)) = hw_type(self.ctx, in_type?) else {
                    return None;
                };
                let Some(HwType::Array(m, _)) = hw_type(self.ctx, self.ir.value_type(result))
                else {
                    return None;
                };
                let w = bit_width(self.ctx, e)?;
                let array = self.bits(operands[0])?;
                match self.constant_index(operands[1]).filter(|&i| i + m <= n) {
                    Some(i) => self.extract(op, array, i * w, m * w),
                    None => {
                        let count = (n + 1).saturating_sub(m);
                        let leaves: Vec<_> = (0..count)
                            .map(|i| self.extract(op, array, i * w, m * w))
                            .collect();
                        self.select(op, operands[1], &leaves)
                    }
                }
            }
            "hw.array_inject" => {
                let Some(HwType::Array(n, e)) = hw_type(self.ctx, in_type?) else {
                    return None;
                };
                let w = bit_width(self.ctx, e)?;
                let array = self.bits(operands[0])?;
                let value = self.bits(operands[2])?;
                let elements = self.elements(op, array, n, w);
                // The array with each index replaced, highest index first.
                let mut candidates = Vec::new();
                for index in (0..n as usize).rev() {
                    let parts: Vec<ValueId> = (0..n as usize)
                        .rev()
                        .map(|i| if i == index { value } else { elements[i] })
                        .collect();
                    candidates.push(self.concat(op, &parts));
                }
                let all = self.concat(op, &candidates);
                let leaves = self.elements(op, all, n, n * w);
                self.select(op, operands[1], &leaves)
            }
            "hw.struct_extract" | "hw.struct_inject" => {
                let Some(HwType::Struct(fields)) = hw_type(self.ctx, in_type?) else {
                    return None;
                };
                let index = match inherent_attr(self.ctx, self.ir, op, "fieldIndex")
                    .map(|a| self.ctx.attr_kind(a))
                {
                    Some(AttrKind::Integer { value, .. }) => usize::try_from(value).ok()?,
                    _ => return None,
                };
                let widths: Vec<u64> = fields
                    .iter()
                    .map(|f| bit_width(self.ctx, f.1))
                    .collect::<Option<_>>()?;
                let structure = self.bits(operands[0])?;
                if name == "hw.struct_extract" {
                    let low: u64 = widths[index + 1..].iter().sum();
                    self.extract(op, structure, low, *widths.get(index)?)
                } else {
                    let value = self.bits(operands[1])?;
                    let mut parts = Vec::new();
                    for (i, &fw) in widths.iter().enumerate() {
                        let low: u64 = widths[i + 1..].iter().sum();
                        parts.push(if i == index {
                            value
                        } else {
                            self.extract(op, structure, low, fw)
                        });
                    }
                    self.concat(op, &parts)
                }
            }
            "comb.mux" => {
                let on_true = self.bits(operands[1])?;
                let on_false = self.bits(operands[2])?;
                let ty = self.int_type(result);
                self.make(
                    op,
                    "comb.mux",
                    &[operands[0], on_true, on_false],
                    ty,
                    Vec::new(),
                )
            }
            _ => return None,
        };
        self.finish(op, result, bits);
        Some(())
    }

    /// Records `bits` as `result`'s, and casts them back for the users
    /// that stay.
    fn finish(&mut self, op: OpId, result: ValueId, bits: ValueId) {
        if !is_aggregate(self.ctx, self.ir.value_type(result)) {
            self.ir.replace_all_uses(result, bits);
            return;
        }
        self.lowered.insert(result, bits);
        let staying: Vec<_> = self
            .ir
            .uses(result)
            .filter(|&u| !self.lowers(self.ir.use_owner(u)))
            .collect();
        if staying.is_empty() {
            return;
        }
        let ty = self.ir.value_type(result);
        let cast = self.bitcast(bits, ty, op);
        for u in staying {
            self.ir.set_use(u, cast);
        }
    }
}

struct AggregateToComb;

impl Pass for AggregateToComb {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        aggregate_to_comb(ctx, ir, op);
        Ok(())
    }
}

/// The `hw-aggregate-to-comb` pass.
pub static HW_AGGREGATE_TO_COMB: PassInfo = PassInfo {
    argument: "hw-aggregate-to-comb",
    name: "HWAggregateToComb",
    description: "Lowers hw arrays and structs and their ops to integers and comb logic",
    anchor: Some("builtin.module"),
    options: &[],
    create: |_: &PassOptions| Ok(Box::new(AggregateToComb)),
};
