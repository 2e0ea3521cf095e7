//! A shared integer divider (`[limits] div = N`): the signed and
//! unsigned divisions and remainders of the class take turns on one
//! unsigned core at the width of the widest. Each operation's operands
//! enter as magnitudes (a signed one's negated when negative, so the
//! most negative value becomes its unsigned magnitude), with two flags:
//! whether it wants the remainder, and whether the result is negated
//! (a signed quotient when the operands' signs differ, a signed
//! remainder when the dividend is negative: truncating division). A
//! unit of quotients only is a `comb.divu`, of remainders only a
//! `comb.modu`; a unit of both is one restoring division array that
//! gives both (yosys maps a `divu`/`modu` pair on the same operands onto
//! two dividers). A unit the schedule gives more than one cycle is the
//! array cut into stages (`divider_array.rs`), the flags travelling with
//! its rows.

use super::divider_array::{magnitude, negated_if, restoring_array};
use super::Builder;
use crate::model::kernel::{NodeId, Op};
use crate::model::target::library::rows_per_stage;
use silica_ir::ValueId;

impl Builder<'_, '_> {
    /// The output of shared divider unit `u` (first built for node `n`)
    /// for `members`, `width` bits wide, registered as the schedule's
    /// latency of `n` says (at least one cycle: the output register, after
    /// the array's stages).
    pub(super) fn shared_divider(
        &mut self,
        n: NodeId,
        u: u32,
        members: &[NodeId],
        width: u32,
    ) -> ValueId {
        // The output register first: an operand may be the result of
        // another operation on this very unit (a cycle later at least).
        let name = format!("unit_div{u}");
        let first = self.hw.reg(&name, width, None);
        let out = first.q;
        self.units.insert(("div", u), out);
        let zero = self.hw.constant(0, width);
        let no = self.hw.constant(0, 1);
        let (mut dividend, mut divisor, mut remainder, mut negate) = (zero, zero, no, no);
        for &m in members.iter().rev() {
            let (start, _) = self.home(m);
            let node = self.k.nodes[m].clone();
            let a = self.seen(node.args[0], start);
            let b = self.seen(node.args[1], start);
            let signed = matches!(node.op, Op::DivS | Op::RemS);
            let wants_remainder = matches!(node.op, Op::RemS | Op::RemU);
            let (a, a_negative) = magnitude(&mut self.hw, a, signed);
            let (b, b_negative) = magnitude(&mut self.hw, b, signed);
            let negated = if wants_remainder {
                a_negative
            } else {
                self.hw.comb("comb.xor", &[a_negative, b_negative])
            };
            let a = self.hw.resize(a, width, false);
            let b = self.hw.resize(b, width, false);
            let wants = self.hw.constant(u128::from(wants_remainder), 1);
            let active = self.active(start);
            dividend = self.hw.mux(active, a, dividend);
            divisor = self.hw.mux(active, b, divisor);
            remainder = self.hw.mux(active, wants, remainder);
            negate = self.hw.mux(active, negated, negate);
        }
        let any_division = members
            .iter()
            .any(|&m| matches!(self.k.nodes[m].op, Op::DivS | Op::DivU));
        let any_remainder = members
            .iter()
            .any(|&m| matches!(self.k.nodes[m].op, Op::RemS | Op::RemU));
        // Stages of the array before the output register.
        let registers = self.s.latency[n].max(1) - 1;
        let result = match (any_division, any_remainder) {
            (true, false) if registers == 0 => self.hw.comb("comb.divu", &[dividend, divisor]),
            (false, true) if registers == 0 => self.hw.comb("comb.modu", &[dividend, divisor]),
            _ => {
                let rows = rows_per_stage(width, registers + 1);
                self.dividers.push((width, rows));
                let along = [remainder, negate];
                let (q, r, along) =
                    restoring_array(&mut self.hw, dividend, divisor, &along, registers, &name);
                negate = along[1];
                self.hw.mux(along[0], r, q)
            }
        };
        let result = negated_if(&mut self.hw, negate, result);
        let always = self.hw.constant(1, 1);
        self.hw.connect(first, &[(always, result)]);
        out
    }
}
