//! The cost model of datapath rewriting, from the target's operator
//! library: each operation's delay (its combinational delay, or whole
//! clock periods when the library registers it) and area (LUTs per bit
//! times the width, plus a DSP block's worth of LUTs per DSP). Costs
//! compare lexicographically: first the delay of the path from the
//! enclosing loop's carried values (the recurrence that bounds the II),
//! then, where the design shares its multipliers and the ranking counts
//! them, the products of two variables (each one a unit's turn: they
//! bound the II), then the longest path (chaining, pipeline depth),
//! then area. Shifts
//! by constants are wiring. A product by a constant is priced as the
//! circuit builds it (`crate::flow::analysis::constant_product`: wiring, a negation,
//! shifts and adds, or a multiplier). Where multipliers are scarce (a
//! `[limits] mul` directive, or a device without DSP blocks) a product
//! of two variables is priced as the library's LUT multiplier (where the
//! library measured none at the width, as one LUT per partial-product
//! bit).

use crate::flow::analysis::constant_product::{budget_ns, form, DSP_LUTS};
use crate::model::target::library::{class_of, Library, Row};
use egg::{CostFunction, Id, Language, Symbol};
use rustc_hash::FxHashMap;
use silica_eqsat::lang::IntExpr;
use std::cmp::Ordering;

use crate::model::kernel::Op;

/// The cost of an expression.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cost {
    /// Delay (ns) from the loop's carried values; `-inf` when the
    /// expression does not depend on them.
    pub carried: f64,
    /// Products of two variables on shared multipliers (per use; zero
    /// where they are not counted).
    pub shared: f64,
    /// Longest path delay (ns).
    pub delay: f64,
    /// Area in LUT equivalents (shared subterms counted per use).
    pub area: f64,
    /// The expression's value where it is a constant (not compared).
    pub constant: Option<i128>,
}

impl Cost {
    /// A leaf: a carried value of the loop or any other value, valid
    /// `arrival` ns into the block or iteration.
    pub fn leaf(carried: bool, arrival: f64) -> Cost {
        Cost {
            carried: if carried { 0.0 } else { f64::NEG_INFINITY },
            shared: 0.0,
            delay: arrival,
            area: 0.0,
            constant: None,
        }
    }

    /// The cost of several roots together: the longest paths, the areas
    /// summed.
    pub fn join(costs: impl IntoIterator<Item = Cost>) -> Cost {
        costs.into_iter().fold(
            Cost {
                carried: f64::NEG_INFINITY,
                shared: 0.0,
                delay: 0.0,
                area: 0.0,
                constant: None,
            },
            |a, b| Cost {
                carried: a.carried.max(b.carried),
                shared: a.shared + b.shared,
                delay: a.delay.max(b.delay),
                area: a.area + b.area,
                constant: None,
            },
        )
    }

    /// Whether `self` is cheaper than `other` by more than rounding.
    pub fn better_than(&self, other: &Cost) -> bool {
        self.partial_cmp(other) == Some(Ordering::Less)
    }
}

impl PartialOrd for Cost {
    fn partial_cmp(&self, o: &Cost) -> Option<Ordering> {
        const EPS: f64 = 1e-6;
        let cmp = |a: f64, b: f64| {
            if a == b || (a - b).abs() < EPS {
                Ordering::Equal
            } else if a < b {
                Ordering::Less
            } else {
                Ordering::Greater
            }
        };
        Some(
            cmp(self.carried, o.carried)
                .then(cmp(self.shared, o.shared))
                .then(cmp(self.delay, o.delay))
                .then(cmp(self.area, o.area)),
        )
    }
}

/// The library's prices at one width, with the leaves' costs (the
/// enclosing loop's carried values, and when each leaf is valid in the
/// schedule as written).
pub struct LibraryCost<'a> {
    pub lib: &'a Library,
    pub clock_ns: f64,
    pub width: u32,
    /// Multipliers priced as LUT multipliers.
    pub scarce: bool,
    /// Products of two variables counted ([`Cost::shared`]).
    pub count_shared: bool,
    /// The cost of each leaf symbol (`v<i>`); others cost nothing.
    pub leaves: &'a FxHashMap<Symbol, Cost>,
    /// [`LibraryCost::op`]'s figures by operation and constant operand,
    /// each looked up in the library once (extraction prices every
    /// e-node many times).
    memo: FxHashMap<(std::mem::Discriminant<IntExpr>, Option<i128>), (f64, f64)>,
}

impl<'a> LibraryCost<'a> {
    /// Prices `width`-bit operations from `lib` at `clock_ns`, with the
    /// leaves' costs `leaves`; multipliers priced in LUTs where `scarce`,
    /// and counted where `count_shared`.
    pub fn new(
        lib: &'a Library,
        clock_ns: f64,
        width: u32,
        (scarce, count_shared): (bool, bool),
        leaves: &'a FxHashMap<Symbol, Cost>,
    ) -> LibraryCost<'a> {
        LibraryCost {
            lib,
            clock_ns,
            width,
            scarce,
            count_shared,
            leaves,
            memo: FxHashMap::default(),
        }
    }
}

impl LibraryCost<'_> {
    fn row(&self, op: Op) -> Option<&Row> {
        let class = class_of(op);
        if op == Op::Mul && self.scarce {
            if let Some(r) = self
                .lib
                .rows
                .iter()
                .find(|r| r.class == "mul" && r.resource == "lut" && r.max_width >= self.width)
            {
                return Some(r);
            }
        }
        self.lib.row(class, self.width)
    }

    /// The delay (ns) and area of one operation; `constant`, the value
    /// of an operand that is a constant.
    pub fn op(&self, node: &IntExpr, constant: Option<i128>) -> (f64, f64) {
        let op = match node {
            IntExpr::Add(_) => Op::Add,
            IntExpr::Sub(_) => Op::Sub,
            IntExpr::Mul(_) => Op::Mul,
            IntExpr::And(_) => Op::And,
            IntExpr::Or(_) => Op::Or,
            IntExpr::Xor(_) => Op::Xor,
            IntExpr::Shl(_) | IntExpr::Num(_) | IntExpr::Var(_) => return (0.0, 0.0),
        };
        if let (Op::Mul, Some(c)) = (op, constant) {
            let budget = budget_ns(self.lib, self.clock_ns);
            let f = form(self.lib, self.scarce, budget, c, self.width, self.width);
            if let Some(delay) = f.delay_ns(self.lib, self.width, self.width) {
                return (delay.min(self.clock_ns), f.luts(self.lib, self.width));
            }
        }
        // Less a constant, or a negation: an add (as the estimate prices
        // it), whether written `0 - x` or `x * -1`.
        if let (Op::Sub, Some(_)) = (op, constant) {
            if let Some((delay, luts)) = self.lib.kind_figures("add", "add", self.width) {
                return (delay.min(self.clock_ns), luts);
            }
        }
        let Some(row) = self.row(op) else {
            return (self.clock_ns, f64::from(self.width));
        };
        let delay = if row.latency > 0 {
            f64::from(row.latency) * self.clock_ns
        } else {
            row.delay_ns.min(self.clock_ns)
        };
        let area = if op == Op::Mul && self.scarce && row.dsp > 0 {
            // No LUT multiplier measured at this width: an array of
            // about one LUT4 per partial-product bit (as the iCE40 HX's
            // LUT multipliers measure).
            f64::from(self.width).powi(2)
        } else {
            row.luts_per_bit * f64::from(self.width) + f64::from(row.dsp) * DSP_LUTS
        };
        (delay, area)
    }
}

impl CostFunction<IntExpr> for LibraryCost<'_> {
    type Cost = Cost;

    fn cost<C>(&mut self, enode: &IntExpr, mut costs: C) -> Cost
    where
        C: FnMut(Id) -> Cost,
    {
        match enode {
            IntExpr::Num(n) => Cost {
                constant: Some(*n),
                ..Cost::leaf(false, 0.0)
            },
            IntExpr::Var(s) => self
                .leaves
                .get(s)
                .copied()
                .unwrap_or(Cost::leaf(false, 0.0)),
            _ => {
                let children: Vec<Cost> = enode.children().iter().map(|&ch| costs(ch)).collect();
                let constant = children.iter().find_map(|k| k.constant);
                let key = (std::mem::discriminant(enode), constant);
                let (delay, area) = match self.memo.get(&key) {
                    Some(&figures) => figures,
                    None => {
                        let figures = self.op(enode, constant);
                        self.memo.insert(key, figures);
                        figures
                    }
                };
                let product = matches!(enode, IntExpr::Mul(_)) && constant.is_none();
                let mut c = Cost {
                    carried: f64::NEG_INFINITY,
                    shared: if product && self.count_shared {
                        1.0
                    } else {
                        0.0
                    },
                    delay: 0.0,
                    area,
                    constant: None,
                };
                for k in children {
                    c.carried = c.carried.max(k.carried + delay);
                    c.delay = c.delay.max(k.delay + delay);
                    c.shared += k.shared;
                    c.area += k.area;
                }
                c
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use egg::RecExpr;

    fn cost(text: &str, scarce: bool) -> Cost {
        counted(text, scarce, false)
    }

    fn counted(text: &str, scarce: bool, count_shared: bool) -> Cost {
        let lib = Library::for_target("ecp5").unwrap();
        let mut leaves = FxHashMap::default();
        leaves.insert(Symbol::from("v0"), Cost::leaf(true, 0.0));
        // v3 arrives late: a path through it is long.
        leaves.insert(Symbol::from("v3"), Cost::leaf(false, 40.0));
        let mut c = LibraryCost::new(&lib, 5.0, 32, (scarce, count_shared), &leaves);
        let e: RecExpr<IntExpr> = text.parse().unwrap();
        c.cost_rec(&e)
    }

    #[test]
    fn the_carried_path_comes_first() {
        let chain = cost("(+ (+ v0 v1) v2)", false);
        let reassociated = cost("(+ v0 (+ v1 v2))", false);
        assert!(reassociated.better_than(&chain));
        assert_eq!(chain.delay, reassociated.delay);
        assert!(cost("(+ v1 v2)", false).carried.is_infinite());
    }

    #[test]
    fn multipliers_cost_more_where_they_are_scarce() {
        let dsp = cost("(* v1 v2)", false);
        let lut = cost("(* v1 v2)", true);
        assert!(dsp.better_than(&lut));
    }

    #[test]
    fn shared_products_come_before_the_path_where_counted() {
        // a*b*c + a*d*e, and a times the sum of products: one product
        // fewer, but the late c's path goes through one more multiplier.
        let spread = "(+ (* (* v1 v4) v3) (* (* v1 v5) v6))";
        let factored = "(* v1 (+ (* v4 v3) (* v5 v6)))";
        assert!(cost(spread, true).better_than(&cost(factored, true)));
        assert!(counted(factored, true, true).better_than(&counted(spread, true, true)));
        assert_eq!(counted(spread, true, true).shared, 4.0);
        assert_eq!(counted("(* v1 10)", true, true).shared, 0.0);
    }

    #[test]
    fn products_by_constants_cost_what_is_built() {
        // By 10 (two digits): one add of two shifted copies, either way.
        let by_ten = cost("(* v1 10)", false);
        let shift_add = cost("(+ (<< v1 3) (<< v1 1))", false);
        assert_eq!(by_ten.delay, shift_add.delay);
        assert_eq!(by_ten.area, shift_add.area);
        assert_eq!(cost("(* v1 10)", true).area, by_ten.area);
        // By -1: a negation, as `0 - x`, not a multiplier.
        let negated = cost("(* v1 -1)", false);
        let sub = cost("(- 0 v1)", false);
        assert_eq!(negated.area, sub.area);
        assert_eq!(negated.delay, sub.delay);
        // By 8: wiring.
        assert_eq!(cost("(* v1 8)", false).area, 0.0);
    }
}
