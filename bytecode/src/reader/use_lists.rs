//! Use-list orders read from the file, applied once the IR is built
//! (MLIR's `processUseLists`): every value's uses are put in the
//! reference order, then shuffled as the file says.

use crate::encoding::{Cursor, DResult};
use crate::use_list::{current_order, op_numbers, shuffle};
use rustc_hash::FxHashMap;
use silica_ir::{BlockId, Ir, ValueId};

/// One value's recorded order: a position for each use, or pairs of
/// positions that differ.
pub(super) struct UseListOrder {
    index_pairs: bool,
    indices: Vec<u64>,
}

impl UseListOrder {
    /// The orders of a range of `n` values (results or block arguments):
    /// `(index in the range, order)`.
    pub(super) fn read_range(c: &mut Cursor<'_>, n: usize) -> DResult<Vec<(usize, UseListOrder)>> {
        let count = if n > 1 {
            c.count(1, "use-list order")?
        } else {
            1
        };
        let mut out = Vec::with_capacity(count);
        for _ in 0..count {
            let index = if n > 1 { c.varint()? as usize } else { 0 };
            let (len, index_pairs) = c.varint_flag()?;
            if len > c.remaining() as u64 {
                return Err(c.error("use-list order longer than the data left"));
            }
            let mut indices = Vec::with_capacity(len as usize);
            for _ in 0..len {
                indices.push(c.varint()?);
            }
            if !out.iter().any(|(i, _)| *i == index) {
                out.push((
                    index,
                    UseListOrder {
                        index_pairs,
                        indices,
                    },
                ));
            }
        }
        Ok(out)
    }
}

/// The orders read, by value.
#[derive(Default)]
pub(super) struct UseLists {
    orders: FxHashMap<ValueId, UseListOrder>,
    /// Op numbers, by op id: kept from one region to the next, so that
    /// numbering a region costs its size only.
    numbers: Vec<u32>,
}

impl UseLists {
    pub(super) fn is_empty(&self) -> bool {
        self.orders.is_empty()
    }

    pub(super) fn add(&mut self, v: ValueId, order: UseListOrder) {
        self.orders.entry(v).or_insert(order);
    }

    /// Sorts the use lists of every value defined in `blocks` (their
    /// arguments and everything their ops hold: MLIR's `sortUseListOrder`
    /// on each); `Err` when a recorded order is not a permutation of the
    /// value's uses.
    pub(super) fn apply(&mut self, ir: &mut Ir, blocks: &[BlockId]) -> Result<(), ()> {
        let roots: Vec<_> = blocks.iter().flat_map(|&b| ir.block_ops(b)).collect();
        op_numbers(ir, roots.iter().copied(), &mut self.numbers);
        let numbers = &self.numbers;
        let mut values = Vec::new();
        for &b in blocks {
            values.extend_from_slice(ir.block_args(b));
        }
        for &root in &roots {
            ir.walk(root, &mut |op| {
                for r in ir.regions(op) {
                    for b in ir.region_blocks(r) {
                        values.extend_from_slice(ir.block_args(b));
                    }
                }
                values.extend(ir.results(op));
            });
        }
        for v in values {
            let mut uses = ir.uses(v);
            if uses.next().is_none() || uses.next().is_none() {
                continue;
            }
            let custom = self.orders.remove(&v);
            let (mut order, sorted) = current_order(ir, numbers, v);
            if sorted && custom.is_none() {
                continue;
            }
            if !sorted {
                order.sort_by_key(|&(_, id)| std::cmp::Reverse(id));
            }
            let Some(custom) = custom else {
                let indices: Vec<usize> = order.iter().map(|&(i, _)| i).collect();
                shuffle(ir, v, &indices);
                continue;
            };
            let n = order.len();
            let mut indices: Vec<u64> = custom.indices;
            if custom.index_pairs {
                if indices.len() % 2 == 1 {
                    return Err(());
                }
                let mut full: Vec<u64> = (0..n as u64).collect();
                for pair in indices.chunks(2) {
                    *full.get_mut(pair[0] as usize).ok_or(())? = pair[1];
                }
                indices = full;
            }
            let mut seen = vec![false; n];
            for &i in &indices {
                match seen.get_mut(i as usize) {
                    Some(s) if !*s => *s = true,
                    _ => return Err(()),
                }
            }
            if indices.len() != n {
                return Err(());
            }
            let shuffled: Vec<usize> = order.iter().map(|&(i, _)| indices[i] as usize).collect();
            shuffle(ir, v, &shuffled);
        }
        Ok(())
    }
}
