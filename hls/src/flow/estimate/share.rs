//! The multipliers yosys's `share` pass merges: two products of variable
//! operands, of one width, that only the two arms of one multiplexer read
//! (each through multiplexers, adds, subtracts and slices that nothing
//! else reads) are never needed in the same cycle, so yosys builds one
//! multiplier whose operands are multiplexed by that multiplexer's
//! select. The shared multiplier's operands then arrive through the
//! select's logic and a LUT level of operand multiplexers, not straight
//! from registers (ECP5 2mm: `s ? D * beta : acc + tmp * C` becomes one
//! MULT18X18D fed by the state decode and the operand multiplexers, two
//! LUT levels, on nextpnr's critical path).

use super::price::Pricer;
use rustc_hash::FxHashMap;
use silica_ir::{BlockId, Context, Ir, OpId, ValueId};

/// How many ops deep below a multiplexer's arm the products are looked
/// for.
const DEPTH: u32 = 4;

/// The shared multipliers of `block`, each with the select of the
/// multiplexer whose arms read it (the first found, in block order).
pub fn multipliers(
    ctx: &Context,
    ir: &Ir,
    price: &Pricer,
    block: BlockId,
) -> FxHashMap<OpId, ValueId> {
    let mut shared = FxHashMap::default();
    for mux in ir.block_ops(block) {
        if ctx.str(ir.op_name(mux)) != "comb.mux" || price.is_absorbed(mux) {
            continue;
        }
        let mut operands = ir.operands(mux);
        let Some(select) = operands.next() else {
            continue;
        };
        let arms: Vec<Vec<(OpId, u32)>> = operands
            .map(|arm| {
                let mut found = Vec::new();
                products(ctx, ir, price, arm, mux, DEPTH, &mut found);
                found
            })
            .collect();
        let [a, b] = arms.as_slice() else {
            continue;
        };
        for &(x, wx) in a {
            for &(y, wy) in b {
                let same = price.resolve(ir.result(x, 0)) == price.resolve(ir.result(y, 0));
                if wx == wy && !same {
                    shared.entry(x).or_insert(select);
                    shared.entry(y).or_insert(select);
                }
            }
        }
    }
    shared
}

/// The products of variable operands (with their widths) under `v`, read
/// by `user`: `v` itself when it is one, or below it through
/// multiplexers' arms, adds, subtracts and slices, each read by its user
/// alone.
fn products(
    ctx: &Context,
    ir: &Ir,
    price: &Pricer,
    v: ValueId,
    user: OpId,
    depth: u32,
    found: &mut Vec<(OpId, u32)>,
) {
    let Some(op) = ir.defining_op(v) else {
        return;
    };
    if depth == 0 || ir.num_results(op) != 1 || ir.uses(v).any(|u| ir.use_owner(u) != user) {
        return;
    }
    if price.is_multiplier(op) {
        let width = silica_hw_dialects::types::bit_width(ctx, ir.value_type(v)).unwrap_or(0);
        found.push((op, width as u32));
        return;
    }
    let below: Vec<ValueId> = match ctx.str(ir.op_name(op)) {
        "comb.mux" => ir.operands(op).skip(1).collect(),
        "comb.add" | "comb.sub" | "comb.extract" => ir.operands(op).collect(),
        _ => return,
    };
    for o in below {
        products(ctx, ir, price, o, op, depth - 1, found);
    }
}
