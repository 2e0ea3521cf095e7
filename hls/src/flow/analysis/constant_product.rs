//! How a product by a constant is built, decided per target from the
//! measured operator library, so that the scheduler, datapath
//! rewriting's cost model and the circuit builder agree:
//!
//! - by 0 or a power of two: wiring (a constant, a shift);
//! - by minus a power of two: a negation (`0 - (x << k)`, one subtract);
//! - by any other constant: its canonical signed digits (non-adjacent
//!   form: the fewest nonzero digits, none adjacent), each digit a
//!   shifted copy of the operand, the positive and the negative copies
//!   summed as balanced trees and subtracted (`construct::shift_add` builds
//!   it), or, where that takes fewer adds and is no slower or fits the
//!   cycle, the constant factored into stages (`adder_chain`: a
//!   division's reciprocal in a third of the adds), when multipliers
//!   are scarce (a `[limits] mul` entry, which fitting sets where the
//!   design's DSP blocks exceed the device's, or a device without them)
//!   or where its adders' LUTs are at most what the multiplier costs
//!   ([`DSP_LUTS`] LUTs per DSP block plus its own LUTs, at the measured
//!   multiplier covering the width);
//! - else a multiplier (`comb.mul`), which yosys maps to DSP blocks.
//!
//! Yosys itself maps every product to hard multipliers where the device
//! has them (`synth_ice40 -dsp`, `synth_ecp5`), constants included: a
//! product by 9 took an SB_MAC16.

use super::adder_chain::{self, Stage};
use crate::model::kernel::{Kernel, Op, Val};
use crate::model::target::library::Library;

/// LUTs a DSP block stands for when a product's forms are compared (and
/// in datapath rewriting's area term).
pub const DSP_LUTS: f64 = 100.0;

/// The form a product by a constant is built in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Form {
    /// By zero: the constant 0.
    Zero,
    /// By `2^k`: a shift.
    Shift(u32),
    /// By `-2^k`: the shifted operand negated.
    Negated(u32),
    /// Shifts, adds and subtracts in stages (`adder_chain`): one stage
    /// of the constant's signed digits `(negative, position)`, at least
    /// two, or the stages of a factored constant, where fewer adds.
    ShiftAdd(Vec<Stage>),
    /// A multiplier.
    Multiplier,
}

impl Form {
    /// The adds and subtracts the form builds (digits all negative
    /// take one more: their sum is subtracted from zero).
    pub fn adders(&self) -> usize {
        match self {
            Form::Zero | Form::Shift(_) | Form::Multiplier => 0,
            Form::Negated(_) => 1,
            Form::ShiftAdd(stages) => stages.iter().map(Stage::adders).sum(),
        }
    }

    /// The adds and subtracts on the longest path: each stage's (the
    /// deeper of its positive and negative digits' balanced trees, and
    /// the subtract of one from the other), one stage after another.
    pub fn depth(&self) -> u32 {
        match self {
            Form::Zero | Form::Shift(_) | Form::Multiplier => 0,
            Form::Negated(_) => 1,
            Form::ShiftAdd(stages) => stages.iter().map(Stage::depth).sum(),
        }
    }

    /// The form of the signed digits `d` in one stage.
    pub fn digits(d: Vec<(bool, u32)>) -> Form {
        Form::ShiftAdd(vec![Stage::digits(d)])
    }

    /// Whether the form is built without a multiplier.
    pub fn in_luts(&self) -> bool {
        *self != Form::Multiplier
    }

    /// The delay (ns) of the form at `width` bits on an operand of
    /// `significant` low bits (the others zero): none for wiring; for
    /// adds, the widest add (`construct::shift_add` spans the bits where
    /// both operands may be nonzero: the last add the operand's bits and
    /// the digits' span, the stages' spans summed) and a chained add for
    /// each further level (ripple chains overlap, `Library::chained_add_ns`
    /// at the first adds' width: the operand's bits and the widest gap
    /// between two shifts of the first stage;
    /// seidel-2d's 65-bit reciprocal of a division by 9 on the iCE40
    /// UP5K: 33 ns by this, 33 ns by nextpnr); `None` for a multiplier
    /// (the caller times it as one) or where the library has no add.
    pub fn delay_ns(&self, lib: &Library, width: u32, significant: u32) -> Option<f64> {
        let (first, widest) = match self {
            Form::Multiplier => return None,
            Form::Zero | Form::Shift(_) => return Some(0.0),
            Form::Negated(p) => (width - p, width - p),
            Form::ShiftAdd(stages) => {
                let first = stages.first().map_or(&[][..], |s| &s.previous[..]);
                let gap = [false, true]
                    .iter()
                    .flat_map(|&sign| {
                        let at: Vec<u32> =
                            first.iter().filter(|t| t.0 == sign).map(|t| t.1).collect();
                        at.windows(2).map(|w| w[1] - w[0]).collect::<Vec<_>>()
                    })
                    .max()
                    .unwrap_or(0);
                let span: u32 = stages
                    .iter()
                    .map(|s| {
                        let max = s.all().map(|t| t.1).max().unwrap_or(0);
                        max - s.all().map(|t| t.1).min().unwrap_or(0)
                    })
                    .sum();
                (
                    (significant + gap + 1).min(width),
                    (significant + span + 1).min(width),
                )
            }
        };
        let add = lib.kind_figures("add", "add", widest.max(1))?.0;
        let hop = match lib.chained_add_ns(first.max(1)) {
            Some(h) => h,
            None => lib.kind_figures("add", "add", first.max(1))?.0,
        };
        Some(add + f64::from(self.depth().saturating_sub(1)) * hop)
    }

    /// The LUTs of the form's adds at `width` bits (none for a multiplier).
    pub fn luts(&self, lib: &Library, width: u32) -> f64 {
        let add = lib.kind_figures("add", "add", width).map_or(0.0, |f| f.1);
        self.adders() as f64 * add
    }
}

/// The forms of one design's products: its library, whether its
/// multipliers are scarce, and the delay operators may chain in a cycle.
#[derive(Clone, Copy)]
pub struct Forms<'a> {
    pub lib: &'a Library,
    pub scarce: bool,
    /// The chaining budget (ns): the clock less the register period.
    pub budget_ns: f64,
}

impl Forms<'_> {
    /// The forms of kernel `k`'s products on `lib`'s target at
    /// `clock_ns`.
    pub fn of<'a>(k: &Kernel, lib: &'a Library, clock_ns: f64) -> Forms<'a> {
        Forms {
            lib,
            scarce: scarce(k, lib),
            budget_ns: budget_ns(lib, clock_ns),
        }
    }

    /// The form of a product by `c` at `width` bits of an operand of
    /// `significant` low bits ([`form`]).
    pub fn form(&self, c: i128, width: u32, significant: u32) -> Form {
        form(self.lib, self.scarce, self.budget_ns, c, width, significant)
    }
}

/// The low bits of kernel value `v` that may be nonzero: a zero-extended
/// value's own width (the dividend of a reciprocal division), else its
/// width.
pub fn significant(k: &Kernel, v: Val) -> u32 {
    match v {
        Val::Node(n) if k.nodes[n].op == Op::ZExt => k.width(k.nodes[n].args[0]),
        _ => k.width(v),
    }
}

/// The delay operators may chain within `clock_ns`: the period less the
/// library's register period (at least a tenth of the period).
pub fn budget_ns(lib: &Library, clock_ns: f64) -> f64 {
    (clock_ns - lib.register_ns).max(clock_ns / 10.0)
}

/// Whether multipliers are scarce: a `[limits] mul` entry (fitting sets
/// one where the design's DSP blocks exceed the device's), or a device
/// without DSP blocks.
pub fn scarce(k: &Kernel, lib: &Library) -> bool {
    k.limit("mul").is_some() || lib.device.dsps == 0
}

/// The products by constants a design builds, by form (for the report).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Products {
    /// Shifts, adds and subtracts ([`Form::ShiftAdd`]).
    pub shift_add: u32,
    /// Negations ([`Form::Negated`]).
    pub negations: u32,
    /// Multipliers ([`Form::Multiplier`]).
    pub multipliers: u32,
}

impl Products {
    /// Counts a product built as `form` (wiring is not counted).
    pub fn count(&mut self, form: &Form) {
        match form {
            Form::ShiftAdd(_) => self.shift_add += 1,
            Form::Negated(_) => self.negations += 1,
            Form::Multiplier => self.multipliers += 1,
            Form::Zero | Form::Shift(_) => {}
        }
    }

    /// Adds `other`'s counts.
    pub fn merge(&mut self, other: Products) {
        self.shift_add += other.shift_add;
        self.negations += other.negations;
        self.multipliers += other.multipliers;
    }

    /// `report.txt`'s line, `None` where no product by a constant was
    /// built but as wiring.
    pub fn line(&self, scarce: bool) -> Option<String> {
        if *self == Products::default() {
            return None;
        }
        let why = if scarce {
            "multipliers are scarce: every one in LUTs"
        } else {
            "in LUTs where its adders cost less than the multiplier"
        };
        Some(format!(
            "products by constants: {} as shifts and adds, {} negated, {} on multipliers ({why})",
            self.shift_add, self.negations, self.multipliers
        ))
    }
}

/// The form of a product by `c` (its low `width` bits) at `width` bits;
/// `scarce`: multipliers are scarce (every product by a constant in
/// LUTs); `budget_ns`: the delay a cycle leaves operators (where the
/// adds take longer and the multiplier does not, the multiplier), on an
/// operand of `significant` low bits.
pub fn form(
    lib: &Library,
    scarce: bool,
    budget_ns: f64,
    c: i128,
    width: u32,
    significant: u32,
) -> Form {
    let d = digits(c, width);
    match d.as_slice() {
        [] => Form::Zero,
        [(false, k)] => Form::Shift(*k),
        [(true, k)] => Form::Negated(*k),
        _ => {
            let lut = fewer_adds(lib, budget_ns, Form::digits(d), c, width, significant);
            if scarce {
                return lut;
            }
            let cheaper = lut.luts(lib, width) <= multiplier_luts(lib, width);
            let slower = lut.delay_ns(lib, width, significant).unwrap_or(0.0) > budget_ns
                && lib.delay_ns("mul", width).is_some_and(|m| m <= budget_ns);
            if cheaper && !slower {
                lut
            } else {
                Form::Multiplier
            }
        }
    }
}

/// `digits`, the constant `c`'s signed digits in one stage, or its
/// factored stages (`adder_chain::fewest`) where they take fewer adds
/// and either fit the chaining budget or are no slower.
fn fewer_adds(
    lib: &Library,
    budget_ns: f64,
    digits: Form,
    c: i128,
    width: u32,
    significant: u32,
) -> Form {
    let Some(stages) = adder_chain::fewest(c, width) else {
        return digits;
    };
    let factored = Form::ShiftAdd(stages);
    let delay = |f: &Form| f.delay_ns(lib, width, significant).unwrap_or(f64::INFINITY);
    let d = delay(&factored);
    if d <= budget_ns || d <= delay(&digits) {
        factored
    } else {
        digits
    }
}

/// What a multiplier at `width` bits costs in LUTs: its own LUTs and
/// [`DSP_LUTS`] per DSP block, at the measured multiplier covering the
/// width; unbounded where the library has no multiplier.
pub fn multiplier_luts(lib: &Library, width: u32) -> f64 {
    match (lib.luts("mul", width), lib.dsps("mul", width)) {
        (None, None) => f64::INFINITY,
        (l, d) => l.unwrap_or(0.0) + d.unwrap_or(0) as f64 * DSP_LUTS,
    }
}

/// The signed digits of `c` modulo `2^width`, lowest first:
/// `(negative, position)`, the non-adjacent form (the fewest nonzero
/// digits; digits at or above the width vanish modulo `2^width`).
pub fn digits(c: i128, width: u32) -> Vec<(bool, u32)> {
    let mask = if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    };
    let mut u = (c as u128) & mask;
    let mut out = Vec::new();
    let mut pos = 0;
    while u != 0 && pos < width {
        if u & 1 == 1 {
            // 1 when u ends in 01, -1 when it ends in 11.
            let negative = u & 2 != 0;
            out.push((negative, pos));
            u = if negative { u.wrapping_add(1) } else { u - 1 };
        }
        u >>= 1;
        pos += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(d: &[(bool, u32)]) -> i128 {
        d.iter()
            .map(|&(n, p)| if n { -(1i128 << p) } else { 1i128 << p })
            .sum()
    }

    #[test]
    fn digits_are_non_adjacent_and_exact_modulo_the_width() {
        for w in [1u32, 2, 4, 8, 13, 32] {
            let m = 1i128 << w;
            for c in -300i128..300 {
                let d = digits(c, w);
                assert_eq!(value(&d).rem_euclid(m), c.rem_euclid(m), "{c} at {w}");
                assert!(d.iter().all(|&(_, p)| p < w), "{c}: a digit past {w}");
                for pair in d.windows(2) {
                    assert!(pair[1].1 > pair[0].1 + 1, "{c}: adjacent digits");
                }
            }
        }
        assert_eq!(digits(7, 32), vec![(true, 0), (false, 3)]);
        assert_eq!(digits(-1, 8), vec![(true, 0)]);
        assert_eq!(digits(10, 32), vec![(false, 1), (false, 3)]);
        assert_eq!(digits(0, 32), vec![]);
    }

    #[test]
    fn digits_all_negative_take_a_subtract_from_zero() {
        // -5 = -(1 + 4): one add of the two digits and `0 - sum`.
        assert_eq!(Form::digits(digits(-5, 32)).adders(), 2);
        // 7 = 8 - 1: one subtract.
        assert_eq!(Form::digits(digits(7, 32)).adders(), 1);
        // 10 = 2 + 8: one add.
        assert_eq!(Form::digits(digits(10, 32)).adders(), 1);
    }

    #[test]
    fn digits_are_fewest() {
        // The non-adjacent form has the fewest nonzero digits of any
        // signed-digit form: at most the binary ones, and at most half
        // the width rounded up, plus one.
        for c in 1i128..4096 {
            let d = digits(c, 16);
            assert!(d.len() <= c.count_ones() as usize, "{c}");
            assert!(d.len() <= 16 / 2 + 1, "{c}");
        }
        // 2^36 / 9 rounded up (seidel-2d's division by 9): 33 bits,
        // 16 ones, 11 signed digits.
        let m = (1i128 << 36) / 9 + 1;
        assert_eq!(m.count_ones(), 16);
        assert_eq!(digits(m, 65).len(), 11);
        assert_eq!(value(&digits(m, 65)), m);
    }

    #[test]
    fn wide_constants_are_exact() {
        for w in [33u32, 64, 65, 127, 128] {
            for c in [
                i128::MAX,
                i128::MIN,
                -3,
                0x5555_5555_5555_5555,
                (1 << 36) / 9 + 1,
            ] {
                let d = digits(c, w);
                let m = if w >= 128 {
                    u128::MAX
                } else {
                    (1u128 << w) - 1
                };
                let v = d.iter().fold(0u128, |acc, &(n, p)| {
                    if n {
                        acc.wrapping_sub(1u128 << p)
                    } else {
                        acc.wrapping_add(1u128 << p)
                    }
                });
                assert_eq!(v & m, (c as u128) & m, "{c} at {w}");
            }
        }
    }

    #[test]
    fn forms_follow_the_digits_and_the_library() {
        let up5k = Library::for_target("ice40-up5k").unwrap();
        assert_eq!(form(&up5k, false, 30.0, 0, 32, 32), Form::Zero);
        assert_eq!(form(&up5k, false, 30.0, 8, 32, 32), Form::Shift(3));
        assert_eq!(form(&up5k, false, 30.0, -1, 32, 32), Form::Negated(0));
        assert_eq!(form(&up5k, false, 30.0, -4, 32, 32), Form::Negated(2));
        // A product by 9 (two digits) is one add on every target.
        for t in ["ice40-up5k", "ice40-hx8k", "ecp5-25k"] {
            let lib = Library::for_target(t).unwrap();
            assert_eq!(
                form(&lib, false, 30.0, 9, 32, 32),
                Form::digits(vec![(false, 0), (false, 3)]),
                "{t}"
            );
        }
        // A 64-bit constant of 32 digits: 31 adders of 64 bits cost more
        // than the multiplier's DSP blocks, unless multipliers are scarce.
        let c = 0x5555_5555_5555_5555i128;
        assert_eq!(digits(c, 64).len(), 32);
        assert_eq!(form(&up5k, false, 30.0, c, 64, 64), Form::Multiplier);
        assert!(form(&up5k, true, 30.0, c, 64, 64).in_luts());
        // seidel-2d's reciprocal (a 32-bit dividend): 33 ns of adds, in
        // LUTs within a 40 ns budget; within 25 ns, which its adds miss
        // and the multiplier meets, the multiplier, unless multipliers
        // are scarce.
        let m = (1i128 << 36) / 9 + 1;
        assert!(form(&up5k, false, 40.0, m, 65, 32).in_luts());
        assert_eq!(form(&up5k, false, 25.0, m, 65, 32), Form::Multiplier);
        assert!(form(&up5k, true, 25.0, m, 65, 32).in_luts());
    }

    #[test]
    fn a_reciprocal_factors_into_stages_of_fewer_adds() {
        // jacobi-2d's division by 5: 2^35 / 5 rounded up, 17 signed
        // digits (16 adds); factored, 5 adds, one a stage, within the
        // cycle at 18 ns.
        let ecp5 = Library::for_target("ecp5-25k").unwrap();
        let m = (1i128 << 35) / 5 + 1;
        let f = form(&ecp5, false, 18.0, m, 65, 32);
        let Form::ShiftAdd(stages) = &f else {
            panic!("{f:?}")
        };
        assert_eq!(f.adders(), 5);
        assert!(stages.len() > 1);
        assert!(f.adders() < Form::digits(digits(m, 65)).adders());
    }

    #[test]
    fn delay_is_the_widest_add_and_chained_levels() {
        let up5k = Library::for_target("ice40-up5k").unwrap();
        let add = |w| up5k.kind_figures("add", "add", w).unwrap().0;
        let m = (1i128 << 36) / 9 + 1;
        let f = form(&up5k, true, 0.0, m, 65, 32);
        // Digits at 3..33 three apart: the last add spans 32 + 30 + 1
        // bits, the first ones 32 + 6 + 1; four levels.
        assert_eq!(f.depth(), 4);
        let hop = up5k.chained_add_ns(39).unwrap();
        let d = f.delay_ns(&up5k, 65, 32).unwrap();
        assert!((d - (add(63) + 3.0 * hop)).abs() < 1e-9, "{d}");
        assert_eq!(Form::Shift(3).delay_ns(&up5k, 32, 32), Some(0.0));
        assert_eq!(Form::Negated(0).delay_ns(&up5k, 32, 32), Some(add(32)));
        assert_eq!(Form::Multiplier.delay_ns(&up5k, 32, 32), None);
    }

    #[test]
    fn depth_counts_the_trees_and_the_subtract() {
        assert_eq!(Form::digits(vec![(false, 0), (false, 3)]).depth(), 1);
        assert_eq!(Form::digits(vec![(true, 0), (false, 3)]).depth(), 1);
        assert_eq!(
            Form::digits(vec![(true, 0), (false, 3), (false, 6)]).depth(),
            2
        );
        let five = (0..5).map(|i| (false, 2 * i)).collect();
        assert_eq!(Form::digits(five).depth(), 3);
        assert_eq!(Form::Negated(4).depth(), 1);
        assert_eq!(Form::Shift(4).depth(), 0);
    }
}
