//! `partition` of an on-chip array: the array becomes banks, separate
//! memories with a port (or two) each, split along one dimension or
//! several: cyclic (bank `i mod F`, offset `i floordiv F`), block (blocks
//! of `ceil(S/F)`: bank `i floordiv B`, offset `i mod B`) or complete (one
//! bank per index, the dimension gone; a one-word bank is a register
//! after synthesis). Split along several dimensions, the banks are every
//! combination of each dimension's (numbered with the first dimension's
//! bank most significant). An access whose bank in a dimension is known
//! at compile time (from the residues and ranges of its index:
//! constants, loop counters with constant lower bounds and steps, as
//! unrolling leaves them) goes to that dimension's bank alone; where it
//! is not, the access reaches every bank of that dimension it may reach
//! and selects (a load) or writes the bank its index selects (a store,
//! predicated per bank).

use super::lift::{err, Lifter};
use crate::model::directives::{PartitionKind, Partitioning};
use crate::model::kernel::{Item, MemId, Op, Predicate, Val, INDEX};
use silica_ir::affine::{AffineExpr, AffineMap, BinOp};
use silica_ir::Diagnostic;

type Res<T> = Result<T, Box<Diagnostic>>;

/// Banks allowed for one array.
pub const MAX_BANKS: u64 = 256;

/// How one dimension of an array is split.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Split {
    /// The dimension split (from 0).
    pub dim: usize,
    pub kind: PartitionKind,
    /// Cyclic: the factor; block: the block size; complete: 1.
    pub step: u64,
    pub banks: u64,
}

/// How an array of a given shape is split.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The dimensions split, in order.
    pub splits: Vec<Split>,
    /// Every combination of the splits' banks.
    pub banks: u64,
    /// The shape of every bank.
    pub bank_shape: Vec<u64>,
}

/// The plan of partition `p` of an array of `shape`, or why it cannot be
/// carried out.
pub fn plan(shape: &[u64], p: &Partitioning) -> Result<Plan, String> {
    let mut bank_shape = shape.to_vec();
    let mut splits: Vec<Split> = Vec::new();
    let mut total = 1u64;
    for p in &p.0 {
        let dim = p.dim as usize - 1;
        let Some(&size) = shape.get(dim) else {
            return Err(format!(
                "the array has {} dimension(s), not {}",
                shape.len(),
                p.dim
            ));
        };
        if splits.iter().any(|s| s.dim == dim) {
            return Err(format!("dimension {} is split twice", p.dim));
        }
        let (step, banks, bank_dim) = match p.kind {
            PartitionKind::Cyclic => {
                if p.factor > size {
                    return Err(format!(
                        "the factor {} exceeds the dimension's size {size}",
                        p.factor
                    ));
                }
                (p.factor, p.factor, size.div_ceil(p.factor))
            }
            PartitionKind::Block => {
                if p.factor > size {
                    return Err(format!(
                        "the factor {} exceeds the dimension's size {size}",
                        p.factor
                    ));
                }
                let b = size.div_ceil(p.factor);
                (b, size.div_ceil(b), b)
            }
            PartitionKind::Complete => (1, size, 1),
        };
        total = total.saturating_mul(banks);
        bank_shape[dim] = bank_dim;
        splits.push(Split {
            dim,
            kind: p.kind,
            step,
            banks,
        });
    }
    if total > MAX_BANKS {
        return Err(format!("it would make {total} banks (at most {MAX_BANKS})"));
    }
    splits.sort_by_key(|s| s.dim);
    Ok(Plan {
        splits,
        banks: total,
        bank_shape,
    })
}

/// A partitioned array: its plan and its banks.
#[derive(Clone, Debug)]
pub struct Banked {
    pub plan: Plan,
    pub banks: Vec<MemId>,
}

impl Split {
    /// The modulus whose residue of an in-bounds index is its bank:
    /// the factor of a cyclic partition, the size of a complete one.
    fn residues(&self) -> Option<i64> {
        match self.kind {
            PartitionKind::Cyclic => Some(self.step as i64),
            PartitionKind::Complete => Some(self.banks as i64),
            PartitionKind::Block => None,
        }
    }

    /// The bank and the offset within it of index expression `e`.
    fn split(&self, e: &AffineExpr) -> (AffineExpr, AffineExpr) {
        let c = AffineExpr::Constant(self.step as i64);
        match self.kind {
            PartitionKind::Cyclic => (
                e.clone().apply(BinOp::Mod, c.clone()),
                e.clone().apply(BinOp::FloorDiv, c),
            ),
            PartitionKind::Block => (
                e.clone().apply(BinOp::FloorDiv, c.clone()),
                e.clone().apply(BinOp::Mod, c),
            ),
            PartitionKind::Complete => (e.clone(), AffineExpr::Constant(0)),
        }
    }
}

impl Lifter<'_> {
    /// What is known of value `v` modulo `f`: `(d, r)`, `v` ≡ `r` (mod
    /// `d`) for a divisor `d` of `f` (`d` = `f`: the residue itself; 1:
    /// nothing). Constants are known exactly; a loop counter with a
    /// constant lower bound modulo its step (as far as `f` goes); sums,
    /// differences and products as their parts allow (up to `depth`
    /// nodes deep).
    fn val_residue(&self, v: Val, f: i64, depth: u32) -> (i64, i64) {
        if let Some(c) = self.k.const_value(v).and_then(|c| i64::try_from(c).ok()) {
            return (f, c.rem_euclid(f));
        }
        match v {
            Val::Iv(l) => {
                let lp = &self.k.loops[l];
                match lp.lower.constant() {
                    Some(lb) => {
                        let d = gcd(lp.step, f);
                        (d, lb.rem_euclid(d))
                    }
                    None => (1, 0),
                }
            }
            Val::Node(n) if depth > 0 => {
                let node = &self.k.nodes[n];
                let arg = |i: usize| self.val_residue(node.args[i], f, depth - 1);
                match node.op {
                    Op::Add => sum(arg(0), arg(1), 1),
                    Op::Sub => sum(arg(0), arg(1), -1),
                    Op::Mul => product(arg(0), arg(1), f),
                    _ => (1, 0),
                }
            }
            _ => (1, 0),
        }
    }

    /// Bounds of value `v`: constants, loop counters with constant
    /// bounds, and sums, differences and constant multiples of those.
    fn val_range(&self, v: Val, depth: u32) -> Option<(i64, i64)> {
        if let Some(c) = self.k.const_value(v) {
            let c = i64::try_from(c).ok()?;
            return Some((c, c));
        }
        match v {
            Val::Iv(l) => {
                let lp = &self.k.loops[l];
                let (lb, ub) = (lp.lower.constant()?, lp.upper.constant()?);
                if ub <= lb {
                    return None;
                }
                let step = lp.step.max(1);
                Some((lb, lb + (ub - 1 - lb) / step * step))
            }
            Val::Node(n) if depth > 0 => {
                let node = &self.k.nodes[n];
                let arg = |i: usize| self.val_range(node.args[i], depth - 1);
                match node.op {
                    Op::Add => {
                        let ((a0, a1), (b0, b1)) = (arg(0)?, arg(1)?);
                        Some((a0.checked_add(b0)?, a1.checked_add(b1)?))
                    }
                    Op::Sub => {
                        let ((a0, a1), (b0, b1)) = (arg(0)?, arg(1)?);
                        Some((a0.checked_sub(b1)?, a1.checked_sub(b0)?))
                    }
                    Op::Mul => {
                        let ((a0, a1), (b0, b1)) = (arg(0)?, arg(1)?);
                        let p = [
                            a0.checked_mul(b0)?,
                            a0.checked_mul(b1)?,
                            a1.checked_mul(b0)?,
                            a1.checked_mul(b1)?,
                        ];
                        Some((*p.iter().min()?, *p.iter().max()?))
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// What is known of `e` modulo `f` (as [`Self::val_residue`]).
    fn residue(&self, e: &AffineExpr, map: &AffineMap, vals: &[Val], f: i64) -> (i64, i64) {
        let nd = map.num_dims as usize;
        let of_val = |v: Val| self.val_residue(v, f, 8);
        match e {
            AffineExpr::Constant(c) => (f, c.rem_euclid(f)),
            AffineExpr::Dim(i) => of_val(vals[*i as usize]),
            AffineExpr::Symbol(i) => of_val(vals[nd + *i as usize]),
            AffineExpr::Binary(b) => {
                let (op, l, r) = &**b;
                match (op, r) {
                    (BinOp::Add, _) => sum(
                        self.residue(l, map, vals, f),
                        self.residue(r, map, vals, f),
                        1,
                    ),
                    (BinOp::Mul, AffineExpr::Constant(c)) => {
                        product(self.residue(l, map, vals, f), (f, c.rem_euclid(f)), f)
                    }
                    (BinOp::Mod, AffineExpr::Constant(c)) if c % f == 0 => {
                        self.residue(l, map, vals, f)
                    }
                    _ => (1, 0),
                }
            }
        }
    }

    /// Bounds of `e` over the values it may take.
    fn range(&self, e: &AffineExpr, map: &AffineMap, vals: &[Val]) -> Option<(i64, i64)> {
        let nd = map.num_dims as usize;
        let of_val = |v: Val| self.val_range(v, 8);
        match e {
            AffineExpr::Constant(c) => Some((*c, *c)),
            AffineExpr::Dim(i) => of_val(vals[*i as usize]),
            AffineExpr::Symbol(i) => of_val(vals[nd + *i as usize]),
            AffineExpr::Binary(b) => {
                let (op, l, r) = &**b;
                let (a0, a1) = self.range(l, map, vals)?;
                match (op, r) {
                    (BinOp::Add, _) => {
                        let (b0, b1) = self.range(r, map, vals)?;
                        Some((a0.checked_add(b0)?, a1.checked_add(b1)?))
                    }
                    (BinOp::Mul, AffineExpr::Constant(c)) => {
                        let (x, y) = (a0.checked_mul(*c)?, a1.checked_mul(*c)?);
                        Some((x.min(y), x.max(y)))
                    }
                    (BinOp::FloorDiv, AffineExpr::Constant(c)) if *c > 0 => {
                        Some((a0.div_euclid(*c), a1.div_euclid(*c)))
                    }
                    (BinOp::Mod, AffineExpr::Constant(c)) if *c > 0 => {
                        if a0.div_euclid(*c) == a1.div_euclid(*c) {
                            Some((a0.rem_euclid(*c), a1.rem_euclid(*c)))
                        } else {
                            Some((0, c - 1))
                        }
                    }
                    _ => None,
                }
            }
        }
    }

    /// The bank of split `split` an access at index `index` (bank
    /// expression `bank`) reaches, when it is known at compile time.
    fn static_bank(
        &self,
        split: &Split,
        index: &AffineExpr,
        bank: &AffineExpr,
        map: &AffineMap,
        vals: &[Val],
    ) -> Option<u64> {
        let constant = self
            .range(bank, map, vals)
            .filter(|r| r.0 == r.1)
            .map(|r| r.0);
        let b = match split.residues() {
            Some(f) => match self.residue(index, map, vals, f) {
                (d, r) if d == f => Some(r),
                _ => None,
            }
            .or(constant)?,
            None => constant?,
        };
        u64::try_from(b).ok().filter(|&b| b < split.banks)
    }

    /// A load (`data` is `None`) or store of the partitioned array `p`
    /// at the indices `map` gives over `vals`; the load's value.
    pub fn banked_access(
        &mut self,
        items: &mut Vec<Item>,
        p: &Banked,
        map: &AffineMap,
        vals: &[Val],
        data: Option<Val>,
    ) -> Res<Option<Val>> {
        if map.results.len() != p.plan.bank_shape.len() {
            return err(self.loc, "access map does not match the memref's rank");
        }
        let mut results: Vec<AffineExpr> = map.results.to_vec();
        let mut banks_of: Vec<AffineExpr> = Vec::new();
        for split in &p.plan.splits {
            let (bank, offset) = split.split(&map.results[split.dim]);
            results[split.dim] = offset;
            banks_of.push(bank);
        }
        let bank_map = AffineMap {
            num_dims: map.num_dims,
            num_symbols: map.num_symbols,
            results: results.into(),
        };
        let address = self.affine_address(items, p.banks[0], &bank_map, vals)?;
        let width = self.k.memories[p.banks[0]].element_width;
        // Per split: the banks the access may reach, and where it is not
        // known at compile time, the node computing which.
        let mut reach: Vec<(Vec<u64>, Option<Val>)> = Vec::new();
        for (split, bank) in p.plan.splits.iter().zip(&banks_of) {
            let index = &map.results[split.dim];
            if let Some(b) = self.static_bank(split, index, bank, map, vals) {
                reach.push((vec![b], None));
                continue;
            }
            let which = self.apply(items, bank, map, vals)?;
            // The index modulo a divisor of the banks may be known: only
            // the banks of that residue are reached.
            let (d, r) = match split.residues() {
                Some(f) => self.residue(index, map, vals, f),
                None => (1, 0),
            };
            let banks = (0..split.banks).filter(|&b| b as i64 % d == r).collect();
            reach.push((banks, Some(which)));
        }
        let mut value = self.constant(0, width);
        // Each split's test of a bank, made where first needed.
        let mut tests: Vec<Vec<Option<Val>>> = (reach.iter())
            .map(|(banks, _)| vec![None; banks.len()])
            .collect();
        let combos: u64 = reach.iter().map(|(banks, _)| banks.len() as u64).product();
        for c in 0..combos {
            // The combination's bank in each split, the last fastest.
            let mut rest = c;
            let mut pick = vec![0usize; reach.len()];
            for (i, (banks, _)) in reach.iter().enumerate().rev() {
                pick[i] = (rest % banks.len() as u64) as usize;
                rest /= banks.len() as u64;
            }
            let mut b = 0u64;
            let mut here: Option<Val> = None;
            for (i, split) in p.plan.splits.iter().enumerate() {
                let (banks, which) = &reach[i];
                b = b * split.banks + banks[pick[i]];
                let Some(w) = *which else { continue };
                let eq = match tests[i][pick[i]] {
                    Some(t) => t,
                    None => {
                        let index = self.constant(banks[pick[i]] as i128, INDEX);
                        let t = self.node(items, Op::Cmp(Predicate::Eq), vec![w, index], 1);
                        tests[i][pick[i]] = Some(t);
                        t
                    }
                };
                here = Some(match here {
                    Some(h) => self.node(items, Op::And, vec![h, eq], 1),
                    None => eq,
                });
            }
            let m = p.banks[b as usize];
            match data {
                Some(d) => {
                    let enable = match (self.predicate, here) {
                        (Some(q), Some(h)) => Some(self.node(items, Op::And, vec![q, h], 1)),
                        (q, None) => q,
                        (None, h) => h,
                    };
                    let mut args = vec![address, d];
                    args.extend(enable);
                    self.node(items, Op::Store(m), args, 0);
                }
                None => {
                    let mut args = vec![address];
                    args.extend(self.predicate);
                    let v = self.node(items, Op::Load(m), args, width);
                    value = match here {
                        Some(h) => self.node(items, Op::Mux, vec![h, v, value], width),
                        None => v,
                    };
                }
            }
        }
        Ok(data.is_none().then_some(value))
    }
}

fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.max(1) as i64
}

/// What is known of `x + sign * y` from what is known of `x` and `y`.
fn sum((dx, rx): (i64, i64), (dy, ry): (i64, i64), sign: i64) -> (i64, i64) {
    let d = gcd(dx, dy);
    (d, (rx + sign * ry).rem_euclid(d))
}

/// What is known of `x * y` modulo `f` from what is known of `x` and
/// `y`: `(rx + k dx)(ry + l dy)` is `rx ry` modulo every term's factor.
fn product((dx, rx): (i64, i64), (dy, ry): (i64, i64), f: i64) -> (i64, i64) {
    let m = [rx * dy, ry * dx, dx * dy].into_iter().fold(f, gcd);
    (m, (rx * ry).rem_euclid(m))
}
