//! What the reader and the writer share about use-list orders: the
//! reference order of a value's uses is by decreasing use id (the owner's
//! pre-order number, then the operand number), the order building the IR
//! op by op gives.

use silica_ir::{Ir, OpId, UseId, ValueId};

/// Pre-order numbers of the ops under `roots` (in order), by op id, into
/// `numbers` (grown to the graph's ops; other ops' entries are left as
/// they are).
pub(crate) fn op_numbers(ir: &Ir, roots: impl IntoIterator<Item = OpId>, numbers: &mut Vec<u32>) {
    if numbers.len() < ir.op_capacity() {
        numbers.resize(ir.op_capacity(), u32::MAX);
    }
    let mut next = 0u32;
    for root in roots {
        ir.walk(root, &mut |op| {
            numbers[op.0 as usize] = next;
            next += 1;
        });
    }
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

/// Whether a value's uses are in the reference order (strictly
/// decreasing ids).
pub(crate) fn in_order(ir: &Ir, numbers: &[u32], v: ValueId) -> bool {
    let mut prev = u64::MAX;
    for u in ir.uses(v) {
        let id = use_id(ir, numbers, u);
        if id >= prev {
            return false;
        }
        prev = id;
    }
    true
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

/// The order LLVM's `DenseMap<unsigned, _>` iterates keys inserted in the
/// given order (MLIR's writer keeps use-list orders in one): by bucket,
/// the hash `key * 37` probed quadratically among at least 64 buckets.
pub(crate) fn dense_map_order(keys: &[u32]) -> Vec<usize> {
    const EMPTY: u32 = u32::MAX;
    let lookup = |buckets: &[(u32, usize)], key: u32| -> usize {
        let mask = buckets.len() - 1;
        let mut at = (key.wrapping_mul(37) as usize) & mask;
        let mut probe = 1;
        while buckets[at].0 != EMPTY && buckets[at].0 != key {
            at = (at + probe) & mask;
            probe += 1;
        }
        at
    };
    let mut buckets: Vec<(u32, usize)> = Vec::new();
    let mut entries = 0usize;
    for (i, &key) in keys.iter().enumerate() {
        if buckets.is_empty() || (entries + 1) * 4 >= buckets.len() * 3 {
            let size = (buckets.len() * 2).max(64).next_power_of_two();
            let old = std::mem::replace(&mut buckets, vec![(EMPTY, 0); size]);
            for b in old.into_iter().filter(|b| b.0 != EMPTY) {
                let at = lookup(&buckets, b.0);
                buckets[at] = b;
            }
        }
        let at = lookup(&buckets, key);
        if buckets[at].0 == EMPTY {
            buckets[at] = (key, i);
            entries += 1;
        }
    }
    buckets
        .into_iter()
        .filter(|b| b.0 != EMPTY)
        .map(|b| b.1)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::dense_map_order;

    #[test]
    fn dense_map_iterates_by_bucket() {
        // Hashes 111, 148, 185 fall in buckets 47, 20 and 57 of 64.
        assert_eq!(dense_map_order(&[3, 4, 5]), [1, 0, 2]);
        assert_eq!(dense_map_order(&[1, 2]), [1, 0]);
        let many: Vec<u32> = (0..100).collect();
        let order = dense_map_order(&many);
        assert_eq!(order.len(), 100);
    }
}
