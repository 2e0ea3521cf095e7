//! `flatten = true`: a perfect nest (each loop's body exactly the next
//! loop, the innermost one straight-line code) folds into one pipelined
//! loop. The outermost loop keeps the nest: its body becomes the
//! innermost body and the loops inside are listed in [`Loop::flat`], so
//! their counters form one chain that the pipeline steps once per
//! iteration (the innermost counter first, an outer one when the ones
//! inside it wrap around). The loops inside must have constant bounds
//! with at least one iteration, and no loop of the nest may carry values.
//!
//! [`Loop::flat`]: crate::kernel::Loop::flat

use crate::directives::{Directives, Log, Pipeline};
use crate::kernel::{Item, Kernel, LoopId};

/// Why loop `l` cannot be the outermost loop of a flattened nest, or the
/// nest (the loops inside it, outermost first).
fn nest(k: &Kernel, l: LoopId) -> Result<Vec<LoopId>, String> {
    let mut chain = Vec::new();
    let mut cur = l;
    loop {
        let lp = &k.loops[cur];
        if !lp.inits.is_empty() {
            return Err(format!("{} carries values (iter_args)", lp.path));
        }
        match lp.body.as_slice() {
            [Item::Loop(m)] => {
                chain.push(*m);
                cur = *m;
            }
            body if body.iter().all(|it| matches!(it, Item::Block(_))) => break,
            _ => {
                return Err(format!(
                    "it is not a perfect nest: the body of {} holds more than one loop or code beside a loop",
                    lp.path
                ))
            }
        }
    }
    if chain.is_empty() {
        return Err("no loop is nested in it".into());
    }
    for &m in &chain {
        let lp = &k.loops[m];
        match (lp.lower.constant(), lp.upper.constant()) {
            (Some(a), Some(b)) if b > a => {}
            (Some(_), Some(_)) => return Err(format!("{} runs no iteration", lp.path)),
            _ => return Err(format!("the bounds of {} are not constants", lp.path)),
        }
    }
    Ok(chain)
}

/// Applies the `flatten` directives to the lifted kernel `k`.
pub fn flatten(k: &mut Kernel, d: &Directives, log: &mut Log) {
    for l in k.loops_in_order() {
        let op = k.loops[l].op;
        let Some(dl) = d.loops.get(&op) else { continue };
        let Some(s) = dl.flatten.clone() else {
            continue;
        };
        if !s.value {
            continue;
        }
        let path = k.loops[l].path.clone();
        let directive = "flatten".to_string();
        if k.counter_owner(l) != l {
            log.refused(
                &s,
                &path,
                directive,
                "it is already flattened into an enclosing loop".into(),
            );
            continue;
        }
        if dl
            .pipeline
            .as_ref()
            .is_some_and(|p| p.value == Pipeline::Off)
        {
            log.refused(
                &s,
                &path,
                directive,
                "the loop is not to be pipelined (pipeline = false)".into(),
            );
            continue;
        }
        let chain = match nest(k, l) {
            Ok(c) => c,
            Err(why) => {
                log.refused(&s, &path, directive, why);
                continue;
            }
        };
        let innermost = *chain.last().unwrap_or(&l);
        let body = std::mem::take(&mut k.loops[innermost].body);
        let target = k.loops[l].target_ii.or(k.loops[innermost].target_ii);
        for &m in &chain {
            k.loops[m].body.clear();
            k.loops[m].pipelined = false;
        }
        let names: Vec<String> = chain.iter().map(|&m| k.loops[m].path.clone()).collect();
        let lp = &mut k.loops[l];
        lp.body = body;
        lp.flat = chain;
        lp.pipelined = true;
        lp.target_ii = target;
        log.honoured(
            &s,
            &path,
            directive,
            format!(
                "{} folded into it: one counter chain, one pipeline",
                names.join(", ")
            ),
        );
    }
}
