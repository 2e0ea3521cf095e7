//! What the reader and the writer share about use-list orders: the
//! reference order of a value's uses is by decreasing use id (the owner's
//! pre-order number, then the operand number), the order building the IR
//! op by op gives.

use silica_ir::{Ir, OpId, UseId, ValueId};

/// Pre-order numbers of the ops under `roots` (in order), by op id.
pub(crate) fn op_numbers(ir: &Ir, roots: impl IntoIterator<Item = OpId>) -> Vec<u32> {
    let mut numbers = vec![u32::MAX; ir.op_capacity()];
    let mut next = 0u32;
    for root in roots {
        ir.walk(root, &mut |op| {
            numbers[op.0 as usize] = next;
            next += 1;
        });
    }
    numbers
}

/// The use id of `u`: its owner's number, then its operand number.
pub(crate) fn use_id(ir: &Ir, numbers: &[u32], u: UseId) -> u64 {
    let owner = ir.use_owner(u);
    let first = ir.operand_uses(owner).next().map_or(u.0, |f| f.0);
    (u64::from(numbers[owner.0 as usize]) << 32) | u64::from(u.0 - first)
}

/// MLIR's `shuffleUseList`: the use at position `i` moves to position
/// `indices[i]`.
pub(crate) fn shuffle(ir: &mut Ir, v: ValueId, indices: &[usize]) {
    let current: Vec<UseId> = ir.uses(v).collect();
    let mut shuffled = current.clone();
    for (i, &u) in current.iter().enumerate() {
        shuffled[indices[i]] = u;
    }
    // Each use set again goes to the front: set them last to first.
    for &u in shuffled.iter().rev() {
        ir.set_use(u, v);
    }
}

/// A value's uses with their ids, and whether they are already in the
/// reference order (strictly decreasing ids).
pub(crate) fn current_order(ir: &Ir, numbers: &[u32], v: ValueId) -> (Vec<(usize, u64)>, bool) {
    let mut order = Vec::new();
    let mut sorted = true;
    let mut prev = u64::MAX;
    for (i, u) in ir.uses(v).enumerate() {
        let id = use_id(ir, numbers, u);
        sorted &= i == 0 || prev > id;
        prev = id;
        order.push((i, id));
    }
    (order, sorted)
}
