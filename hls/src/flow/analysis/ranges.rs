//! Value ranges and the `index` width. Every `index` value of the kernel
//! (induction variables and the counters that step past them, affine
//! subscripts, addresses, bound expressions) gets a signed interval by
//! interval arithmetic from constants and loop bounds; the hardware
//! computes `index` at the fewest bits that hold every such interval, so
//! no value it computes differs from the 64-bit software's.

use crate::model::kernel::{sign_extend, truncate, Arg, Bound, Kernel, Op, Val, INDEX};
use silica_ir::affine::{AffineExpr, BinOp};

/// A signed interval `[lo, hi]`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Range {
    pub lo: i128,
    pub hi: i128,
}

const FULL: Range = Range {
    lo: i64::MIN as i128,
    hi: i64::MAX as i128,
};

impl Range {
    fn exact(v: i128) -> Range {
        Range { lo: v, hi: v }
    }

    /// The signed range of `w`-bit integers.
    fn of_width(w: u32) -> Range {
        if w >= 64 {
            return FULL;
        }
        Range {
            lo: -(1i128 << (w.max(1) - 1)),
            hi: (1i128 << (w.max(1) - 1)) - 1,
        }
    }

    /// Clamped to 64-bit `index` values (wider ranges wrap as software's).
    fn clamp(self) -> Range {
        if self.lo < FULL.lo || self.hi > FULL.hi || self.lo > self.hi {
            FULL
        } else {
            self
        }
    }

    fn corners(a: Range, b: Range, f: impl Fn(i128, i128) -> Option<i128>) -> Range {
        let vals: Option<Vec<i128>> = [(a.lo, b.lo), (a.lo, b.hi), (a.hi, b.lo), (a.hi, b.hi)]
            .iter()
            .map(|&(x, y)| f(x, y))
            .collect();
        match vals {
            Some(v) => Range {
                lo: *v.iter().min().unwrap_or(&0),
                hi: *v.iter().max().unwrap_or(&0),
            }
            .clamp(),
            None => FULL,
        }
    }

    fn union(a: Range, b: Range) -> Range {
        Range {
            lo: a.lo.min(b.lo),
            hi: a.hi.max(b.hi),
        }
    }

    /// Bits of a signed integer that holds every value in the range.
    pub fn signed_bits(self) -> u32 {
        (1..=64)
            .find(|&w| {
                let r = Range::of_width(w);
                r.lo <= self.lo && self.hi <= r.hi
            })
            .unwrap_or(64)
    }
}

fn floor_div(a: i128, c: i128) -> i128 {
    a.div_euclid(c)
}

fn ceil_div(a: i128, c: i128) -> i128 {
    -((-a).div_euclid(c))
}

/// The ranges of the kernel's values, computed once.
pub struct Ranges<'k> {
    k: &'k Kernel,
    node: Vec<Option<Range>>,
    /// Ranges of every intermediate of bound expressions and counters.
    extra: Vec<Range>,
}

impl<'k> Ranges<'k> {
    /// Computes the ranges of every node, induction variable and bound.
    pub fn compute(k: &'k Kernel) -> Self {
        let mut r = Ranges {
            k,
            node: vec![None; k.nodes.len()],
            extra: Vec::new(),
        };
        for l in k.loops_in_order() {
            let lp = &k.loops[l];
            let lo = r.bound(&lp.lower, true);
            let hi = r.bound(&lp.upper, false);
            r.extra.push(lo);
            r.extra.push(hi);
            // The counter steps to at most ub - 1 + step.
            r.extra.push(Range {
                lo: lo.lo,
                hi: (hi.hi - 1 + i128::from(lp.step)).max(lo.lo),
            });
        }
        for n in 0..k.nodes.len() {
            r.node_range(n);
        }
        r
    }

    /// The range of `v`.
    pub fn of(&mut self, v: Val) -> Range {
        match v {
            Val::Node(n) => self.node_range(n),
            Val::Const(c) => {
                let (bits, w) = self.k.consts[c];
                Range::exact(if w == INDEX {
                    bits as i128
                } else {
                    sign_extend(bits, w)
                })
            }
            Val::Arg(i) => match &self.k.args[i] {
                Arg::Scalar(s) if s.width != INDEX => Range::of_width(s.width),
                _ => FULL,
            },
            Val::Iv(l) => {
                let lp = &self.k.loops[l];
                let lo = self.bound(&lp.lower, true);
                let hi = self.bound(&lp.upper, false);
                Range {
                    lo: lo.lo,
                    hi: (hi.hi - 1).max(lo.lo),
                }
            }
            Val::Result(c, i) => match self.k.calls[c].results[i] {
                INDEX => FULL,
                w => Range::of_width(w),
            },
            Val::Carried(l, k) => {
                let w = self.k.loops[l].carried_widths[k];
                if w == INDEX {
                    FULL
                } else {
                    Range::of_width(w)
                }
            }
        }
    }

    /// The range of a bound: the max (lower) or min (upper) of its
    /// results; intermediates are recorded.
    fn bound(&mut self, b: &Bound, lower: bool) -> Range {
        let mut acc: Option<Range> = None;
        for e in b.map.results.iter() {
            let v = self.expr(e, b);
            acc = Some(match acc {
                None => v,
                Some(a) if lower => Range {
                    lo: a.lo.max(v.lo),
                    hi: a.hi.max(v.hi),
                },
                Some(a) => Range {
                    lo: a.lo.min(v.lo),
                    hi: a.hi.min(v.hi),
                },
            });
        }
        acc.unwrap_or(FULL)
    }

    fn expr(&mut self, e: &AffineExpr, b: &Bound) -> Range {
        let nd = b.map.num_dims as usize;
        let r = match e {
            AffineExpr::Dim(i) => self.of(b.operands[*i as usize]),
            AffineExpr::Symbol(i) => self.of(b.operands[nd + *i as usize]),
            AffineExpr::Constant(c) => Range::exact(i128::from(*c)),
            AffineExpr::Binary(bin) => {
                let (op, l, r) = &**bin;
                let x = self.expr(l, b);
                let y = self.expr(r, b);
                match op {
                    BinOp::Add => Range::corners(x, y, |a, b| a.checked_add(b)),
                    BinOp::Mul => Range::corners(x, y, |a, b| a.checked_mul(b)),
                    BinOp::FloorDiv if y.lo > 0 => {
                        Range::corners(x, y, |a, b| Some(floor_div(a, b)))
                    }
                    BinOp::CeilDiv if y.lo > 0 => Range::corners(x, y, |a, b| Some(ceil_div(a, b))),
                    BinOp::Mod if y.lo > 0 => Range {
                        lo: 0,
                        hi: y.hi - 1,
                    },
                    _ => FULL,
                }
            }
        };
        self.extra.push(r);
        r
    }

    fn node_range(&mut self, n: usize) -> Range {
        if let Some(r) = self.node[n] {
            return r;
        }
        let node = &self.k.nodes[n];
        let r = if let (Op::Load(m), INDEX) = (node.op, node.width) {
            self.stored_range(m, n)
        } else if node.width != INDEX {
            if node.width == 1 {
                Range { lo: -1, hi: 0 }
            } else {
                Range::of_width(node.width)
            }
        } else {
            let args: Vec<Range> = node.args.clone().into_iter().map(|a| self.of(a)).collect();
            let a = args.first().copied().unwrap_or(FULL);
            let b = args.get(1).copied().unwrap_or(FULL);
            let k = self.k;
            match node.op {
                Op::Add => Range::corners(a, b, |x, y| x.checked_add(y)),
                Op::Sub => Range::corners(a, b, |x, y| x.checked_sub(y)),
                Op::Mul => Range::corners(a, b, |x, y| x.checked_mul(y)),
                Op::DivS if b.lo > 0 || b.hi < 0 => Range::corners(a, b, |x, y| x.checked_div(y)),
                Op::DivU if a.lo >= 0 && b.lo > 0 => Range::corners(a, b, |x, y| x.checked_div(y)),
                Op::RemS | Op::RemU if a.lo >= 0 && b.lo > 0 => Range {
                    lo: 0,
                    hi: a.hi.min(b.hi - 1),
                },
                Op::MinS => Range::corners(a, b, |x, y| Some(x.min(y))),
                Op::MaxS => Range::corners(a, b, |x, y| Some(x.max(y))),
                Op::MinU | Op::MaxU if a.lo >= 0 && b.lo >= 0 => Range::union(a, b),
                Op::And if a.lo >= 0 || b.lo >= 0 => Range {
                    lo: 0,
                    hi: if a.lo >= 0 && b.lo >= 0 {
                        a.hi.min(b.hi)
                    } else if a.lo >= 0 {
                        a.hi
                    } else {
                        b.hi
                    },
                },
                Op::ShrU | Op::ShrS if a.lo >= 0 => Range { lo: 0, hi: a.hi },
                Op::Mux => {
                    let c = args.get(2).copied().unwrap_or(FULL);
                    Range::union(b, c)
                }
                Op::SExt => a,
                Op::ZExt | Op::Trunc => {
                    let w = node.args.first().map_or(64, |&v| k.width(v));
                    if a.lo >= 0 {
                        a
                    } else if w < 64 {
                        Range {
                            lo: 0,
                            hi: (1i128 << w) - 1,
                        }
                    } else {
                        FULL
                    }
                }
                Op::FloorDivC(c) => Range {
                    lo: floor_div(a.lo, i128::from(c)),
                    hi: floor_div(a.hi, i128::from(c)),
                },
                Op::CeilDivC(c) => Range {
                    lo: ceil_div(a.lo, i128::from(c)),
                    hi: ceil_div(a.hi, i128::from(c)),
                },
                Op::ModC(c) => Range {
                    lo: 0,
                    hi: i128::from(c) - 1,
                },
                _ => FULL,
            }
        };
        let r = r.clamp();
        self.node[n] = Some(r);
        r
    }

    /// The range of load `n` of an on-chip memory of `index` values: the
    /// values stored into it (a cycle through the memory is not bounded).
    fn stored_range(&mut self, m: usize, n: usize) -> Range {
        self.node[n] = Some(FULL);
        let k = self.k;
        let mut acc: Option<Range> = None;
        for s in 0..k.nodes.len() {
            if k.nodes[s].op == Op::Store(m) {
                let v = self.of(k.nodes[s].args[1]);
                acc = Some(acc.map_or(v, |a| Range::union(a, v)));
            }
        }
        acc.unwrap_or(FULL)
    }

    /// The fewest bits that hold every `index` value of the kernel.
    pub fn index_width(&mut self) -> u32 {
        let k = self.k;
        let mut w = 2;
        for n in 0..k.nodes.len() {
            let node = &k.nodes[n];
            let index_operand = node.args.iter().any(|&a| k.width(a) == INDEX);
            if node.width == INDEX || index_operand {
                for &a in &node.args {
                    if k.width(a) == INDEX {
                        w = w.max(self.of(a).signed_bits());
                    }
                }
                if node.width == INDEX {
                    w = w.max(self.node_range(n).signed_bits());
                }
            }
        }
        for r in &self.extra {
            w = w.max(r.signed_bits());
        }
        // Carried `index` values are not bounded by this analysis.
        if k.loops.iter().any(|lp| lp.carried_widths.contains(&INDEX)) {
            w = 64;
        }
        for &v in &k.returned {
            if k.width(v) == INDEX {
                w = w.max(self.of(v).signed_bits());
            }
        }
        w
    }
}

/// Fixes the width of every `index` value to the width range analysis
/// finds (index arguments and results keep 64 bits at the ports).
pub fn narrow_index(k: &mut Kernel) {
    let w = Ranges::compute(k).index_width();
    k.index_width = w;
    for n in &mut k.nodes {
        if n.width == INDEX {
            n.width = w;
        }
    }
    for c in &mut k.consts {
        if c.1 == INDEX {
            *c = (truncate(c.0 as i128, w), w);
        }
    }
    for l in &mut k.loops {
        for cw in &mut l.carried_widths {
            if *cw == INDEX {
                *cw = w;
            }
        }
    }
    for a in &mut k.args {
        if let Arg::Scalar(s) = a {
            if s.width == INDEX {
                s.width = 64;
            }
        }
    }
    for r in &mut k.results {
        if *r == INDEX {
            *r = 64;
        }
    }
    for m in &mut k.memories {
        if m.element_width == INDEX {
            m.element_width = w;
        }
    }
    for c in &mut k.calls {
        for r in &mut c.results {
            if *r == INDEX {
                *r = w;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::test_support::kernel;

    #[test]
    fn index_width_covers_addresses_and_counters() {
        // Addresses up to 16*15 + 15 = 255 and counters up to 16 need 9
        // signed bits.
        let k = kernel(
            "func.func @f(%a: memref<16x16xi8>) {
               affine.for %i = 0 to 16 {
                 affine.for %j = 0 to 16 {
                   %v = affine.load %a[%i, %j] : memref<16x16xi8>
                   affine.store %v, %a[%j, %i] : memref<16x16xi8>
                 }
               }
               return
             }",
            "f",
        );
        assert_eq!(k.index_width, 9);
    }

    #[test]
    fn unbounded_index_values_keep_64_bits() {
        let k = kernel(
            "func.func @f(%a: memref<16xi8>, %n: index) {
               affine.for %i = 0 to %n {
                 %v = affine.load %a[%i] : memref<16xi8>
                 affine.store %v, %a[%i] : memref<16xi8>
               }
               return
             }",
            "f",
        );
        assert_eq!(k.index_width, 64);
    }
}
