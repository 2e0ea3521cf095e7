//! Sign operations: `arith.negf` flips the sign bit and `math.absf`
//! clears it, NaNs included (as LLVM's `fneg` and `fabs` do).

use super::builder::Builder;
use super::format::Format;
use silica_ir::ValueId;

/// `-a` (`negate`) or `|a|`.
pub fn build_sign(b: &mut Builder<'_>, fmt: Format, negate: bool, a: ValueId) -> ValueId {
    let w = fmt.width();
    let sign = b.bit(a, w - 1);
    let magnitude = b.extract(a, 0, w - 1);
    let new_sign = if negate { b.not(sign) } else { b.zero(1) };
    b.concat(&[new_sign, magnitude])
}
