//! Products by constants in fewer adds than their signed digits: the
//! constant factored into stages (Bernstein's method), each a short sum
//! of shifted copies of the stage before it and of the operand.
//!
//! A reciprocal of a small divisor repeats a short pattern of bits
//! (`2^35 / 5` rounded up is `0x1_9999_999a`): its signed digits take 16
//! adds, while `0xcccc_cccd = 0xcccc_cccc + 1` and
//! `0x3333_3333 = 3 * 17 * 257 * 65537` take 5, one a stage. [`fewest`]
//! searches, for an odd
//! constant `c`, the least of: its signed digits in one stage; a factor
//! `2^k ± 1` of it, a stage `(t << k) ± t` after the product by
//! `c / (2^k ± 1)`; and `c = 2^s d ± 1`, a stage `(t << s) ± x` after
//! the product by the odd `d` (every candidate is smaller than `c`, so
//! the search ends). The search is exponential in the constant's bits:
//! it expands at most [`BUDGET`] constants (a 32-bit division's
//! reciprocal takes about 1,600, so its best is found; past the budget
//! the constants left are taken at their digits), remembers each, and
//! each answer is kept for the thread's later products by the same
//! constant.

use super::constant_product::digits;
use rustc_hash::FxHashMap;
use std::cell::RefCell;

/// The constants the search expands at most, for one product.
pub const BUDGET: usize = 4000;

/// [`fewest`]'s answers by constant and width.
type Found = FxHashMap<(i128, u32), Option<Vec<Stage>>>;

thread_local! {
    static FOUND: RefCell<Found> = RefCell::new(Found::default());
}

/// One stage of a product by a constant: the sum of the previous stage's
/// value (the operand, for the first stage) shifted by each of
/// `previous`'s digits and of the operand shifted by each of `operand`'s,
/// a digit `(negative, position)` subtracted where negative.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stage {
    pub previous: Vec<(bool, u32)>,
    pub operand: Vec<(bool, u32)>,
}

impl Stage {
    /// The stage summing the operand's copies at `digits` (a product in
    /// one stage).
    pub fn digits(digits: Vec<(bool, u32)>) -> Stage {
        Stage {
            previous: digits,
            operand: Vec::new(),
        }
    }

    /// Every digit, the previous stage's then the operand's.
    pub fn all(&self) -> impl Iterator<Item = &(bool, u32)> {
        self.previous.iter().chain(&self.operand)
    }

    /// The adds and subtracts of the stage (digits all negative take one
    /// more: their sum is subtracted from zero).
    pub fn adders(&self) -> usize {
        let n = self.previous.len() + self.operand.len();
        n.saturating_sub(1) + usize::from(n > 0 && self.all().all(|d| d.0))
    }

    /// The adds and subtracts on its longest path: the deeper of the
    /// positive and the negative digits' balanced trees, and the
    /// subtract of one from the other.
    pub fn depth(&self) -> u32 {
        let tree = |n: usize| (n.max(1) as f64).log2().ceil() as u32;
        let neg = self.all().filter(|t| t.0).count();
        let pos = self.previous.len() + self.operand.len() - neg;
        tree(pos).max(tree(neg)) + u32::from(neg > 0)
    }

    /// The value of the stage for a previous stage's `previous` and an
    /// operand of 1 (`None` past `i128`).
    pub fn value(&self, previous: i128) -> Option<i128> {
        let term = |&(negative, p): &(bool, u32), v: i128| {
            let t = v.checked_mul(1i128.checked_shl(p)?)?;
            Some(if negative { -t } else { t })
        };
        let mut sum = 0i128;
        for d in &self.previous {
            sum = sum.checked_add(term(d, previous)?)?;
        }
        for d in &self.operand {
            sum = sum.checked_add(term(d, 1)?)?;
        }
        Some(sum)
    }
}

/// The stages of a product by `c` modulo `2^width` in fewer adds than
/// its signed digits (`constant_product::digits`), the fewest found,
/// then the shallowest; `None` where none takes fewer (or `c` is zero, or
/// the width is past what the search covers).
pub fn fewest(c: i128, width: u32) -> Option<Vec<Stage>> {
    if width > MAX_WIDTH {
        return None;
    }
    if let Some(found) = FOUND.with(|f| f.borrow().get(&(c, width)).cloned()) {
        return found;
    }
    let found = search_stages(c, width);
    FOUND.with(|f| f.borrow_mut().insert((c, width), found.clone()));
    found
}

/// [`fewest`], searched.
fn search_stages(c: i128, width: u32) -> Option<Vec<Stage>> {
    let u = (c as u128) & ((1u128 << width) - 1);
    if u == 0 {
        return None;
    }
    let shift = u.trailing_zeros();
    let mut search = Search {
        memo: FxHashMap::default(),
        left: BUDGET,
    };
    let plan = search.best(u >> shift);
    let one_stage = Stage::digits(digits(c, width));
    if plan.adders >= one_stage.adders() {
        return None;
    }
    let mut stages = plan.stages;
    if let Some(last) = stages.last_mut() {
        for d in last.previous.iter_mut().chain(&mut last.operand) {
            d.1 += shift;
        }
    }
    Some(stages)
}

/// The widest product searched (its constants' values stay clear of
/// `i128`'s sign).
const MAX_WIDTH: u32 = 126;

/// A way to multiply by an odd constant: its stages and their adds and
/// levels.
#[derive(Clone)]
struct Plan {
    adders: usize,
    depth: u32,
    stages: Vec<Stage>,
}

impl Plan {
    /// This plan followed by `stage`.
    fn then(&self, stage: Stage) -> Plan {
        let mut stages = self.stages.clone();
        let (adders, depth) = (stage.adders(), stage.depth());
        stages.push(stage);
        Plan {
            adders: self.adders + adders,
            depth: self.depth + depth,
            stages,
        }
    }

    fn key(&self) -> (usize, u32) {
        (self.adders, self.depth)
    }
}

/// The search's state: the plans found, and the constants it may still
/// expand.
struct Search {
    memo: FxHashMap<u128, Plan>,
    left: usize,
}

impl Search {
    /// The best plan found for the odd constant `c`.
    fn best(&mut self, c: u128) -> Plan {
        if let Some(p) = self.memo.get(&c) {
            return p.clone();
        }
        let empty = Plan {
            adders: 0,
            depth: 0,
            stages: Vec::new(),
        };
        if c == 1 {
            return empty;
        }
        let mut best = empty.then(Stage::digits(digits(c as i128, 127)));
        if self.left == 0 {
            return best;
        }
        self.left -= 1;
        let consider = |p: Plan, best: &mut Plan| {
            if p.key() < best.key() {
                *best = p;
            }
        };
        let bits = 128 - c.leading_zeros();
        // c = (2^k - 1) d or (2^k + 1) d, d > 1: (t << k) -/+ t after d;
        // the largest factors first, so that of plans of as many adds the
        // one kept multiplies by the small factors first, its values and
        // so its adds narrowest.
        for k in (1..=bits).rev() {
            for (negative, f) in [(true, (1u128 << k) - 1), (false, (1u128 << k) + 1)] {
                if f < 3 || f >= c || !c.is_multiple_of(f) {
                    continue;
                }
                let stage = Stage::digits(vec![(negative, 0), (false, k)]);
                let p = self.best(c / f).then(stage);
                consider(p, &mut best);
            }
        }
        // c = 2^s d + 1 or 2^s d - 1, d odd and > 1: (t << s) +/- x after d.
        for (negative, near) in [(false, c - 1), (true, c + 1)] {
            let s = near.trailing_zeros();
            let d = near >> s;
            if d > 1 {
                let stage = Stage {
                    previous: vec![(false, s)],
                    operand: vec![(negative, 0)],
                };
                let p = self.best(d).then(stage);
                consider(p, &mut best);
            }
        }
        self.memo.insert(c, best.clone());
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The constant `stages` multiply by, modulo `2^width`.
    fn value(stages: &[Stage], width: u32) -> u128 {
        let v = stages
            .iter()
            .try_fold(1i128, |v, s| s.value(v))
            .expect("fits i128");
        (v as u128) & ((1u128 << width) - 1)
    }

    #[test]
    fn reciprocals_of_small_divisors_take_a_third_of_the_adds() {
        // The reciprocals of 32-bit divisions (products at 65 bits).
        for (d, naf, fewest_adds) in [(3u128, 16, 5), (5, 16, 5), (7, 11, 6), (9, 10, 5)] {
            let l = 128 - (d - 1).leading_zeros();
            let m = (1u128 << (32 + l)) / d + 1;
            let stages = fewest(m as i128, 65).expect("fewer adds");
            assert_eq!(Stage::digits(digits(m as i128, 65)).adders(), naf, "{d}");
            let adds: usize = stages.iter().map(Stage::adders).sum();
            assert_eq!(adds, fewest_adds, "{d}");
            assert_eq!(value(&stages, 65), m, "{d}");
        }
    }

    #[test]
    fn stages_multiply_by_the_constant() {
        let mut next = crate::test_support::xorshift(0x0123_4567_89ab_cdefu64);
        for width in [8u32, 16, 32, 33, 64, 65, 100] {
            for _ in 0..30 {
                let c = i128::from(next()) << 64 | i128::from(next());
                let mask = (1u128 << width) - 1;
                let Some(stages) = fewest(c, width) else {
                    continue;
                };
                let adds: usize = stages.iter().map(Stage::adders).sum();
                assert!(adds < Stage::digits(digits(c, width)).adders());
                assert_eq!(value(&stages, width), (c as u128) & mask, "{c} at {width}");
            }
        }
        // Products the signed digits build best have no stages.
        assert_eq!(fewest(9, 32), None);
        assert_eq!(fewest(0, 32), None);
        assert_eq!(fewest(-1, 32), None);
    }
}
