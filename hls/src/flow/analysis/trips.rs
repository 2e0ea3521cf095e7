//! Trip counts at given values of the induction variables: the value
//! of the index arithmetic bounds are made of (`value`), a loop's bounds
//! and its iterations, those of the loops flattened into it included
//! (`flat_iterations`; where an inner loop's bounds vary, counted by
//! walking the counter chain, `walk_flat`). The latency figures (`schedule/figures.rs`),
//! the static DMA model, the lower bound and the multiplication count
//! walk the loop tree with them.

use crate::model::kernel::{Bound, Kernel, LoopId, Op, Predicate, Val};

/// Nodes followed back from a bound's operand before giving up.
pub(crate) const DEPTH: u32 = 64;

/// The value of `v` where the induction variables have the values of
/// `env`: a constant, an induction variable, or index arithmetic over
/// them (what `affine.apply` lifts to, e.g. the shifted tile loop of
/// `affine-pipeline-data-transfer`), wrapped to the node's width. None
/// when it depends on data.
pub(crate) fn value(k: &Kernel, env: &[Option<i64>], v: Val, depth: u32) -> Option<i64> {
    let n = match v {
        Val::Iv(l) => return env[l],
        Val::Node(n) => n,
        _ => return k.const_value(v).and_then(|c| i64::try_from(c).ok()),
    };
    let node = &k.nodes[n];
    let depth = depth.checked_sub(1)?;
    let arg = |i: usize| value(k, env, *node.args.get(i)?, depth);
    let r = match node.op {
        Op::Add => arg(0)?.checked_add(arg(1)?)?,
        Op::Sub => arg(0)?.checked_sub(arg(1)?)?,
        Op::Mul => arg(0)?.checked_mul(arg(1)?)?,
        Op::MinS => arg(0)?.min(arg(1)?),
        Op::MaxS => arg(0)?.max(arg(1)?),
        Op::FloorDivC(c) if c > 0 => arg(0)?.div_euclid(c),
        Op::CeilDivC(c) if c > 0 => -(-arg(0)?).div_euclid(c),
        Op::ModC(c) if c > 0 => arg(0)?.rem_euclid(c),
        Op::Shl => arg(0)?.checked_mul(1i64.checked_shl(u32::try_from(arg(1)?).ok()?)?)?,
        Op::ShrS => arg(0)? >> u32::try_from(arg(1)?).ok().filter(|&s| s < 64)?,
        Op::And => arg(0)? & arg(1)?,
        Op::Or => arg(0)? | arg(1)?,
        Op::Xor => arg(0)? ^ arg(1)?,
        Op::SExt | Op::Trunc => arg(0)?,
        Op::ZExt => unsigned(k, node.args[0], arg(0)?)?,
        Op::Mux => {
            if arg(0)? != 0 {
                arg(1)?
            } else {
                arg(2)?
            }
        }
        Op::Cmp(p) => {
            let (a, b) = (arg(0)?, arg(1)?);
            let (ua, ub) = (unsigned(k, node.args[0], a)?, unsigned(k, node.args[1], b)?);
            i64::from(match p {
                Predicate::Eq => a == b,
                Predicate::Ne => a != b,
                Predicate::Slt => a < b,
                Predicate::Sle => a <= b,
                Predicate::Sgt => a > b,
                Predicate::Sge => a >= b,
                Predicate::Ult => ua < ub,
                Predicate::Ule => ua <= ub,
                Predicate::Ugt => ua > ub,
                Predicate::Uge => ua >= ub,
            })
        }
        _ => return None,
    };
    // The node's result wraps at its width (`index` before the range
    // analysis narrows it: the software's 64 bits).
    let w = match node.width {
        crate::model::kernel::INDEX => 64,
        w => w,
    };
    (w > 0 && w <= 64).then(|| {
        i64::try_from(crate::model::kernel::sign_extend(r as u128 & mask(w), w)).unwrap_or(r)
    })
}

/// The unsigned reading of value `x` of `v` (at `v`'s width, at most 63
/// bits).
fn unsigned(k: &Kernel, v: Val, x: i64) -> Option<i64> {
    match k.width(v) {
        crate::model::kernel::INDEX => Some(x),
        w if w < 64 => Some((x as u128 & mask(w)) as i64),
        _ => None,
    }
}

fn mask(w: u32) -> u128 {
    (1u128 << w) - 1
}

/// Where loop `l` starts and how it steps at the induction variables of
/// an environment, and the iterations it runs: its own trip count times
/// those of the loops flattened into it.
pub(crate) struct Iterations {
    pub lo: i64,
    pub step: i64,
    pub count: u64,
}

/// The [`Iterations`] of loop `l` at `env` (`None` where a bound is
/// unknown or the product overflows).
pub(crate) fn flat_iterations(k: &Kernel, env: &[Option<i64>], l: LoopId) -> Option<Iterations> {
    let lp = &k.loops[l];
    let lo = bound(k, env, &lp.lower, true)?;
    let hi = bound(k, env, &lp.upper, false)?;
    let step = lp.step.max(1);
    let mut count = ((hi - lo).max(0) as u64).div_ceil(step as u64);
    if !constant_inner_bounds(k, l) {
        let mut walked = 0u64;
        walk_flat(k, &mut env.to_vec(), l, &mut |_| {
            walked += 1;
            (walked <= WALK_LIMIT).then_some(())
        })?;
        return Some(Iterations {
            lo,
            step,
            count: walked,
        });
    }
    for &m in &lp.flat {
        let inner = &k.loops[m];
        let (a, b) = (inner.lower.constant()?, inner.upper.constant()?);
        count = count.checked_mul(((b - a).max(0) as u64).div_ceil(inner.step.max(1) as u64))?;
    }
    Some(Iterations { lo, step, count })
}

/// Flattened iterations walked before giving up.
const WALK_LIMIT: u64 = 1 << 24;

/// Whether every loop flattened into loop `l` has constant bounds (its
/// iterations are then the product of their trip counts).
pub(crate) fn constant_inner_bounds(k: &Kernel, l: LoopId) -> bool {
    (k.loops[l].flat.iter())
        .all(|&m| k.loops[m].lower.constant().is_some() && k.loops[m].upper.constant().is_some())
}

/// Visits each iteration of loop `l` and the loops flattened into it
/// (each inner loop's bounds taken at the induction variables around
/// it), in the order its counter chain runs them, with `env` holding
/// all their induction variables; leaves `env` as it was. `None` where
/// a bound is unknown or `visit` gives `None` (which stops the walk).
pub(crate) fn walk_flat(
    k: &Kernel,
    env: &mut [Option<i64>],
    l: LoopId,
    visit: &mut dyn FnMut(&[Option<i64>]) -> Option<()>,
) -> Option<()> {
    let nest: Vec<LoopId> = std::iter::once(l)
        .chain(k.loops[l].flat.iter().copied())
        .collect();
    walk_levels(k, env, &nest, visit)
}

/// The induction variables of each iteration of loop `l` and the loops
/// flattened into it (`walk_flat`'s order), those loops' values a point
/// each, at most `limit` points; the loops, `l` first.
pub(crate) fn flat_points(
    k: &Kernel,
    env: &[Option<i64>],
    l: LoopId,
    limit: usize,
) -> Option<(Vec<LoopId>, Vec<i64>)> {
    let nest: Vec<LoopId> = std::iter::once(l)
        .chain(k.loops[l].flat.iter().copied())
        .collect();
    let mut points: Vec<i64> = Vec::new();
    walk_flat(k, &mut env.to_vec(), l, &mut |env| {
        points.extend(nest.iter().map(|&m| env[m].unwrap_or(0)));
        (points.len() <= limit.saturating_mul(nest.len())).then_some(())
    })?;
    Some((nest, points))
}

fn walk_levels(
    k: &Kernel,
    env: &mut [Option<i64>],
    nest: &[LoopId],
    visit: &mut dyn FnMut(&[Option<i64>]) -> Option<()>,
) -> Option<()> {
    let Some((&m, inside)) = nest.split_first() else {
        return visit(env);
    };
    let lp = &k.loops[m];
    let lo = bound(k, env, &lp.lower, true)?;
    let hi = bound(k, env, &lp.upper, false)?;
    let saved = env[m];
    let mut walked = Some(());
    let mut iv = lo;
    while iv < hi && walked.is_some() {
        env[m] = Some(iv);
        walked = walk_levels(k, env, inside, visit);
        iv += lp.step.max(1);
    }
    env[m] = saved;
    walked
}

/// The value of bound `b` (the largest of its results for a lower bound,
/// the least for an upper one) at the induction variables of `env`.
pub(crate) fn bound(k: &Kernel, env: &[Option<i64>], b: &Bound, lower: bool) -> Option<i64> {
    b.value_with(|v| value(k, env, v, DEPTH), lower)
}
