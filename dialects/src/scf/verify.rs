//! Verifiers of `scf.parallel`, `scf.reduce`, `scf.reduce.return`,
//! `scf.index_switch` and `scf.while`, and the value flow along region
//! branches (MLIR's `RegionBranchOpInterface` check) for `scf.if`,
//! `scf.while` and `scf.execute_region`, with MLIR's messages and notes.

use silica_ir::diag::Diagnostic;
use silica_ir::dialect::inherent_attr;
use silica_ir::format::segment_sizes;
use silica_ir::parser::PResult;
use silica_ir::printer::type_to_string;
use silica_ir::verify::OpVerifier;
use silica_ir::{Ir, OpId, RegionId, Type, TypeKind, ValueId};

/// `d` with a note at `op`.
fn with_note(mut d: Box<Diagnostic>, ir: &Ir, op: OpId, msg: &str) -> Box<Diagnostic> {
    d.notes.push(Diagnostic::note(ir.op_loc(op), msg));
    d
}

/// The last op of `region`'s entry block, if it is named `name`; else
/// MLIR's "expects ..." error with a "terminator here" note.
fn terminator_named(
    v: &mut OpVerifier<'_, '_>,
    op: OpId,
    region: Option<RegionId>,
    name: &str,
    msg: &str,
) -> PResult<OpId> {
    let ir = v.ir();
    let last = region
        .and_then(|r| ir.entry_block(r))
        .and_then(|b| ir.last_op(b));
    match last {
        Some(t) if v.ctx().str(ir.op_name(t)) == name => Ok(t),
        Some(t) => {
            let d = v.op_error(op, msg);
            Err(with_note(d, ir, t, "terminator here"))
        }
        None => Err(v.op_error(op, msg)),
    }
}

fn types_of(ir: &Ir, values: impl Iterator<Item = ValueId>) -> Vec<Type> {
    values.map(|x| ir.value_type(x)).collect()
}

/// `scf.parallel`: steps (positive where constant), an index induction
/// variable per step, an `scf.reduce` terminator.
pub fn verify_parallel(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let sizes = segment_sizes(ctx, ir, op).unwrap_or_default();
    let operands: Vec<ValueId> = ir.operands(op).collect();
    let size = |i: usize| sizes.get(i).copied().unwrap_or(0);
    let steps_at = size(0) + size(1);
    let steps = operands.get(steps_at..steps_at + size(2)).unwrap_or(&[]);
    if steps.is_empty() {
        return Err(v.op_error(
            op,
            "needs at least one tuple element for lowerBound, upperBound and step",
        ));
    }
    if steps
        .iter()
        .any(|&s| silica_ir::rewrite::fold::constant_i64(ctx, ir, s).is_some_and(|c| c <= 0))
    {
        return Err(v.op_error(op, "constant step operand must be positive"));
    }
    let region = ir.regions(op).next();
    let args = region
        .and_then(|r| ir.entry_block(r))
        .map(|b| ir.block_args(b))
        .unwrap_or(&[]);
    if args.len() != steps.len() {
        let msg = format!(
            "expects the same number of induction variables: {} as bound and step values: {}",
            args.len(),
            steps.len()
        );
        return Err(v.op_error(op, msg));
    }
    if args
        .iter()
        .any(|&a| !matches!(ctx.type_kind(ir.value_type(a)), TypeKind::Index))
    {
        return Err(v.op_error(
            op,
            "expects arguments for the induction variable to be of index type",
        ));
    }
    terminator_named(
        v,
        op,
        region,
        "scf.reduce",
        "expects body to terminate with 'scf.reduce'",
    )?;
    Ok(())
}

/// `scf.parallel`'s results agree in number and type with its
/// reductions (checked once the `scf.reduce` verified).
pub fn verify_parallel_results(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let sizes = segment_sizes(ctx, ir, op).unwrap_or_default();
    let reduce = ir
        .regions(op)
        .next()
        .and_then(|r| ir.entry_block(r))
        .and_then(|b| ir.last_op(b));
    let Some(reduce) = reduce else {
        return Ok(());
    };
    let results = ir.num_results(op);
    let reductions = ir.num_operands(reduce);
    if results != reductions {
        let msg = format!(
            "expects number of results: {results} to be the same as number of reductions: {reductions}"
        );
        return Err(v.op_error(op, msg));
    }
    let inits = sizes.get(3).copied().unwrap_or(0);
    if results != inits {
        let msg = format!(
            "expects number of results: {results} to be the same as number of initial values: {inits}"
        );
        return Err(v.op_error(op, msg));
    }
    for (i, (r, x)) in ir.results(op).zip(ir.operands(reduce)).enumerate() {
        let (rt, xt) = (ir.value_type(r), ir.value_type(x));
        if rt != xt {
            let msg = format!(
                "expects type of {i}-th reduction operand: '{}' to be the same as the {i}-th result type: '{}'",
                type_to_string(v.ctx(), xt),
                type_to_string(v.ctx(), rt)
            );
            return Err(v.op_error(reduce, msg));
        }
    }
    Ok(())
}

/// `scf.reduce`: a reduction region per operand.
pub fn verify_reduce(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let ir = v.ir();
    let (regions, operands) = (ir.num_regions(op), ir.num_operands(op));
    if regions != operands {
        let msg = format!(
            "expects number of reduction regions: {regions} to be the same as number of reduction operands: {operands}"
        );
        return Err(v.op_error(op, msg));
    }
    Ok(())
}

/// Each `scf.reduce` region takes two values of its operand's type and
/// ends in `scf.reduce.return` (checked once the regions verified).
pub fn verify_reduce_regions(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let ir = v.ir();
    for (i, (r, x)) in ir.regions(op).zip(ir.operands(op)).enumerate() {
        let t = ir.value_type(x);
        let Some(block) = ir.entry_block(r) else {
            continue;
        };
        if ir.last_op(block).is_none() {
            return Err(v.op_error(op, format!("{i}-th reduction has an empty body")));
        }
        let args = ir.block_args(block);
        if args.len() != 2 || args.iter().any(|&a| ir.value_type(a) != t) {
            let msg = format!(
                "expected two block arguments with type '{}' in the {i}-th reduction region",
                type_to_string(v.ctx(), t)
            );
            return Err(v.op_error(op, msg));
        }
        let last = ir.last_op(block).map(|o| v.ctx().str(ir.op_name(o)));
        if last != Some("scf.reduce.return") {
            return Err(v.op_error(
                op,
                "reduction bodies must be terminated with an 'scf.reduce.return' op",
            ));
        }
    }
    Ok(())
}

/// `scf.reduce.return` returns the type its reduction combines.
pub fn verify_reduce_return(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let ir = v.ir();
    let expected = ir
        .op_block(op)
        .and_then(|b| ir.block_args(b).first().copied())
        .map(|a| ir.value_type(a));
    let given = ir.operands(op).next().map(|x| ir.value_type(x));
    if let (Some(e), Some(g)) = (expected, given) {
        if e != g {
            let msg = format!(
                "must have type '{}' (the type of the reduction inputs)",
                type_to_string(v.ctx(), e)
            );
            return Err(v.op_error(op, msg));
        }
    }
    Ok(())
}

/// `scf.index_switch`: a region per distinct case value, each ending in
/// an `scf.yield` of the result types.
pub fn verify_index_switch(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let cases = inherent_attr(ctx, ir, op, "cases")
        .and_then(|a| ctx.int_array_values(a))
        .unwrap_or_default();
    let regions: Vec<RegionId> = ir.regions(op).collect();
    let case_regions = regions.len().saturating_sub(1);
    if cases.len() != case_regions {
        let msg = format!(
            "has {case_regions} case regions but {} case values",
            cases.len()
        );
        return Err(v.op_error(op, msg));
    }
    let mut seen = std::collections::HashSet::new();
    if let Some(dup) = cases.iter().find(|&&c| !seen.insert(c)) {
        return Err(v.op_error(op, format!("has duplicate case value: {dup}")));
    }
    let results = types_of(ir, ir.results(op));
    for (i, &r) in regions.iter().enumerate() {
        let name = if i == 0 {
            "default region".to_string()
        } else {
            format!("case region #{}", i - 1)
        };
        let Some(last) = ir.entry_block(r).and_then(|b| ir.last_op(b)) else {
            continue;
        };
        let last_name = ctx.str(ir.op_name(last));
        if last_name != "scf.yield" {
            let msg = format!("expected region to end with scf.yield, but got {last_name}");
            return Err(v.op_error(op, msg));
        }
        let yielded = types_of(ir, ir.operands(last));
        if yielded.len() != results.len() {
            let msg = format!(
                "expected each region to return {} values, but {name} returns {}",
                results.len(),
                yielded.len()
            );
            let d = v.op_error(op, msg);
            return Err(with_note(d, ir, last, "see yield operation here"));
        }
        for (idx, (&want, &got)) in results.iter().zip(&yielded).enumerate() {
            if want != got {
                let ctx = v.ctx();
                let msg = format!(
                    "expected result #{idx} of each region to be '{}'",
                    type_to_string(ctx, want)
                );
                let note = format!("{name} returns '{}' here", type_to_string(ctx, got));
                let d = v.op_error(op, msg);
                return Err(with_note(d, ir, last, &note));
            }
        }
    }
    Ok(())
}

/// Checks one region-branch edge: the values `source` forwards against
/// the inputs of the successor.
fn check_edge(
    v: &mut OpVerifier<'_, '_>,
    op: OpId,
    (source, source_name): (OpId, &str),
    target_name: &str,
    operands: &[Type],
    inputs: &[Type],
) -> PResult<()> {
    let ir = v.ir();
    let edge = format!("along control flow edge from {source_name} to {target_name}");
    if operands.len() != inputs.len() {
        let msg = format!(
            "{edge}: region branch point has {} operands, but region successor needs {} inputs",
            operands.len(),
            inputs.len()
        );
        let d = v.op_error(op, msg);
        return Err(with_note(d, ir, source, "region branch point"));
    }
    for (i, (&a, &b)) in operands.iter().zip(inputs).enumerate() {
        if a != b {
            let ctx = v.ctx();
            let msg = format!(
                "{edge}: successor operand type #{i} '{}' should match successor input type #{i} '{}'",
                type_to_string(ctx, a),
                type_to_string(ctx, b)
            );
            let d = v.op_error(op, msg);
            return Err(with_note(d, ir, source, "region branch point"));
        }
    }
    Ok(())
}

/// The entry block arguments' types of `region`.
fn entry_types(ir: &Ir, region: RegionId) -> Vec<Type> {
    ir.entry_block(region)
        .map(|b| ir.block_args(b).iter().map(|&a| ir.value_type(a)).collect())
        .unwrap_or_default()
}

/// The region terminators of `op` that return to it (`scf.yield`) agree
/// with its results.
pub fn verify_yields_to_parent(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    verify_returns_to_parent(v, op, "scf.yield")
}

/// The region terminators of `op` named `terminator` agree with its
/// results.
pub(crate) fn verify_returns_to_parent(
    v: &mut OpVerifier<'_, '_>,
    op: OpId,
    terminator: &str,
) -> PResult<()> {
    let ir = v.ir();
    let results = types_of(ir, ir.results(op));
    for r in ir.regions(op) {
        let Some(last) = ir.entry_block(r).and_then(|b| ir.last_op(b)) else {
            continue;
        };
        let name = v.ctx().str(ir.op_name(last)).to_string();
        if name != terminator {
            continue;
        }
        let yielded = types_of(ir, ir.operands(last));
        let source = format!("Operation {name}");
        check_edge(v, op, (last, &source), "parent", &yielded, &results)?;
    }
    Ok(())
}

/// `scf.while`: one-block regions ending in `scf.condition` and
/// `scf.yield`.
pub fn verify_while(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let ir = v.ir();
    let regions: Vec<RegionId> = ir.regions(op).collect();
    let [before, after] = regions[..] else {
        return Err(v.op_error(op, "requires 2 regions"));
    };
    for (i, (r, name)) in [(before, "before"), (after, "after")]
        .into_iter()
        .enumerate()
    {
        if ir.region_blocks(r).count() != 1 {
            let msg =
                format!("region #{i} ('{name}') failed to verify constraint: region with 1 blocks");
            return Err(v.op_error(op, msg));
        }
    }
    for r in [before, after] {
        if ir.entry_block(r).and_then(|b| ir.last_op(b)).is_none() {
            return Err(v.op_error(op, "expects a non-empty block"));
        }
    }
    terminator_named(
        v,
        op,
        Some(before),
        "scf.condition",
        "expects the 'before' region to terminate with 'scf.condition'",
    )?;
    terminator_named(
        v,
        op,
        Some(after),
        "scf.yield",
        "expects the 'after' region to terminate with 'scf.yield'",
    )?;
    Ok(())
}

/// The values that flow between `scf.while`'s regions and its parent
/// agree with what receives them (checked once the regions verified).
pub fn verify_while_edges(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let ir = v.ir();
    let regions: Vec<RegionId> = ir.regions(op).collect();
    let [before, after] = regions[..] else {
        return Ok(());
    };
    let last = |r: RegionId| ir.entry_block(r).and_then(|b| ir.last_op(b));
    let (Some(condition), Some(yield_op)) = (last(before), last(after)) else {
        return Ok(());
    };
    let inits = types_of(ir, ir.operands(op));
    check_edge(
        v,
        op,
        (op, "parent"),
        "Region #0",
        &inits,
        &entry_types(ir, before),
    )?;
    let forwarded: Vec<Type> = types_of(ir, ir.operands(condition))
        .into_iter()
        .skip(1)
        .collect();
    let source = "Operation scf.condition";
    check_edge(
        v,
        op,
        (condition, source),
        "Region #1",
        &forwarded,
        &entry_types(ir, after),
    )?;
    let results = types_of(ir, ir.results(op));
    check_edge(v, op, (condition, source), "parent", &forwarded, &results)?;
    let yielded = types_of(ir, ir.operands(yield_op));
    let source = "Operation scf.yield";
    check_edge(
        v,
        op,
        (yield_op, source),
        "Region #0",
        &yielded,
        &entry_types(ir, before),
    )
}
