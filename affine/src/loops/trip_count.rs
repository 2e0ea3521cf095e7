//! Trip counts of `affine.for` loops, as MLIR's loop analysis computes
//! them: the trip count as an affine map of the bound operands (upper
//! bound minus the single lower bound, divided by the step rounded up, the
//! maps composed with the `affine.apply` ops that feed them and
//! simplified), the constant trip count when every result of that map is
//! one, and the largest known divisor of the trip count.

use crate::for_op::{bounds, step, Bound};
use crate::value_map::difference;
use silica_ir::affine::{AffineExpr, AffineMap};
use silica_ir::{Context, Ir, OpId};

/// The single-result lower bound `lower` repeated once per result of
/// `upper`, so that the two can be subtracted result by result.
pub fn padded_lower(lower: &Bound, upper: &Bound) -> Bound {
    Bound {
        map: AffineMap {
            results: vec![lower.map.results[0].clone(); upper.map.results.len()].into(),
            ..lower.map.clone()
        },
        operands: lower.operands.clone(),
    }
}

/// The trip count of `op` as a map of bound operands (one result per
/// upper bound result; the trip count is their minimum), or `None` when
/// it is not affine (several lower bounds). MLIR's
/// `getTripCountMapAndOperands`.
pub fn trip_count_map(ctx: &mut Context, ir: &mut Ir, op: OpId) -> Option<Bound> {
    let step = step(ctx, ir, op).max(1);
    let (lower, upper) = bounds(ctx, ir, op)?;
    if let (Some(lb), Some(ub)) = (lower.as_constant(), upper.as_constant()) {
        let span = ub.saturating_sub(lb).max(0);
        let count = span / step + i64::from(span % step != 0);
        return Some(Bound {
            map: AffineMap {
                num_dims: 0,
                num_symbols: 0,
                results: Box::new([AffineExpr::Constant(count)]),
            },
            operands: Vec::new(),
        });
    }
    if lower.map.results.len() != 1 {
        return None;
    }
    let Bound { map, operands } = difference(ctx, ir, &upper, &padded_lower(&lower, &upper));
    let results = map
        .results
        .iter()
        .map(|e| e.clone().ceil_div(AffineExpr::Constant(step)))
        .collect();
    Some(Bound {
        map: AffineMap { results, ..map },
        operands,
    })
}

/// The trip count of `op` when it is a known constant (the smallest of
/// the trip count map's results, all constants). MLIR's
/// `getConstantTripCount`; a negative difference counts as zero trips.
pub fn constant_trip_count(ctx: &mut Context, ir: &mut Ir, op: OpId) -> Option<u64> {
    let tc = trip_count_map(ctx, ir, op)?;
    let mut count: Option<u64> = None;
    for e in tc.map.results.iter() {
        let AffineExpr::Constant(c) = e else {
            return None;
        };
        let c = u64::try_from(*c).unwrap_or(0);
        count = Some(count.map_or(c, |m| m.min(c)));
    }
    count
}

/// The largest number of trips `op` may make, when known. MLIR derives it
/// from the value ranges of the trip count's operands, which only GPU
/// thread and block ids provide; for the ops here it is the constant trip
/// count.
pub fn upper_bound_on_trip_count(ctx: &mut Context, ir: &mut Ir, op: OpId) -> Option<u64> {
    constant_trip_count(ctx, ir, op)
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The largest number known to divide the trip count of `op` (1 when the
/// trip count is not affine, `u64::MAX` for a loop that never runs). MLIR's
/// `getLargestDivisorOfTripCount`.
pub fn largest_divisor_of_trip_count(ctx: &mut Context, ir: &mut Ir, op: OpId) -> u64 {
    let Some(tc) = trip_count_map(ctx, ir, op) else {
        return 1;
    };
    let mut divisor: Option<u64> = None;
    for e in tc.map.results.iter() {
        let this = match e {
            AffineExpr::Constant(c) if *c <= 0 => u64::MAX,
            AffineExpr::Constant(c) => c.unsigned_abs(),
            e => e.largest_known_divisor().unsigned_abs(),
        };
        divisor = Some(divisor.map_or(this, |d| gcd(d, this)));
    }
    divisor.unwrap_or(1)
}
