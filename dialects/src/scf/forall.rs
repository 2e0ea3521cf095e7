//! `scf.forall` and its terminator `scf.forall.in_parallel`: a parallel
//! loop nest over index bounds given as SSA values or constants
//! (`in (%n, 8)` from zero by one, or `= (lbs) to (ubs) step (steps)`),
//! with `shared_outs` tensors, in MLIR's syntax and with its checks.

use crate::scf::{create, parse_assignments, print_result_types};
use silica_ir::format::SEGMENTS;
use silica_ir::lexer::Tok;
use silica_ir::parser::{AsmParser, PResult};
use silica_ir::printer::AsmPrinter;
use silica_ir::verify::OpVerifier;
use silica_ir::{OpId, RegionId, TypeKind, ValueId};

pub(crate) const FORALL: &str = "scf.forall";
pub(crate) const IN_PARALLEL: &str = "scf.forall.in_parallel";

/// MLIR's marker of a bound given by an SSA value.
pub(crate) const DYNAMIC: i64 = i64::MIN;

const LOWER: &str = "staticLowerBound";
const UPPER: &str = "staticUpperBound";
const STEP: &str = "staticStep";

/// `(%i, %j) in (ubs)` or `(%i, %j) = (lbs) to (ubs) step (steps)`, then
/// `shared_outs(%o = %t, ...) -> (types)`, the body and an attribute
/// dictionary.
pub(crate) fn parse_forall(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let ivs = crate::scf::parse_paren_operands(p)?;
    let rank = ivs.len();
    let (lbs, ubs, steps) = if p.eat_keyword("in") {
        let ubs = p.parse_dynamic_index_list(true)?;
        (
            (Vec::new(), vec![0; rank]),
            ubs,
            (Vec::new(), vec![1; rank]),
        )
    } else {
        p.expect(Tok::Equal, "'='")?;
        let lbs = p.parse_dynamic_index_list(true)?;
        p.expect_keyword("to")?;
        let ubs = p.parse_dynamic_index_list(true)?;
        p.expect_keyword("step")?;
        (lbs, ubs, p.parse_dynamic_index_list(true)?)
    };
    let mut outs = Vec::new();
    let mut result_types = Vec::new();
    if p.eat_keyword("shared_outs") {
        outs = parse_assignments(p)?;
        p.expect(Tok::Arrow, "'->'")?;
        result_types = p.parse_result_types()?;
    }
    if outs.len() != result_types.len() {
        return p.op_error(format!(
            "custom op '{FORALL}' number of operands and types do not match: got {} operands and {} types",
            outs.len(),
            result_types.len()
        ));
    }
    let mut operands = Vec::new();
    for group in [&lbs.0, &ubs.0, &steps.0] {
        operands.extend(p.resolve_indices(group)?);
    }
    for ((_, init), ty) in outs.iter().zip(&result_types) {
        operands.push(p.resolve_operand(*init, *ty)?);
    }
    let index = p.ctx().index_type();
    let mut args: Vec<_> = ivs.iter().map(|u| (*u, index)).collect();
    args.extend(
        outs.iter()
            .zip(&result_types)
            .map(|((arg, _), ty)| (*arg, *ty)),
    );
    let region = p.ir().create_region();
    p.parse_region_with_args(region, &args)?;
    ensure_in_parallel(p, region);
    let attrs = p.parse_optional_attr_dict()?;
    let op = create(p, FORALL, &operands, &result_types, &[region], attrs);
    let ctx = p.ctx();
    let sizes = [lbs.0.len(), ubs.0.len(), steps.0.len(), outs.len()].map(|n| n as i64);
    let mut props = vec![
        (ctx.sym(SEGMENTS), ctx.int_array_attr(32, &sizes)),
        (ctx.sym(LOWER), ctx.int_array_attr(64, &lbs.1)),
        (ctx.sym(UPPER), ctx.int_array_attr(64, &ubs.1)),
        (ctx.sym(STEP), ctx.int_array_attr(64, &steps.1)),
    ];
    // `mapping` written in the dictionary is a property too.
    let mapping = ctx.sym("mapping");
    let entries = ctx.dict_entries(attrs).to_vec();
    if let Some(&(_, m)) = entries.iter().find(|(k, _)| *k == mapping) {
        props.push((mapping, m));
        let rest: Vec<_> = entries.into_iter().filter(|(k, _)| *k != mapping).collect();
        let rest = ctx.dict_attr(rest);
        p.ir().set_op_attrs(op, rest);
    }
    let props = p.ctx().dict_attr(props);
    p.ir().set_op_props(op, Some(props));
    Ok(op)
}

/// Gives the body the implicit `scf.forall.in_parallel` terminator (with
/// its empty block) when it does not end with a terminator.
fn ensure_in_parallel(p: &mut AsmParser<'_, '_>, region: RegionId) {
    if p.ir().region_is_empty(region) {
        let b = p.ir().create_block();
        p.ir().append_block(region, b);
    }
    let Some(body) = p.ir().entry_block(region) else {
        return;
    };
    let ends = p.ir().last_op(body).is_some_and(|o| {
        let name = p.ir().op_name(o);
        p.ctx()
            .op_def(name)
            .is_some_and(|d| d.traits.has(silica_ir::dialect::Traits::TERMINATOR))
    });
    if !ends {
        let inner = p.ir().create_region();
        let block = p.ir().create_block();
        p.ir().append_block(inner, block);
        let attrs = p.ctx().empty_dict();
        let t = create(p, IN_PARALLEL, &[], &[], &[inner], attrs);
        p.ir().append_op(body, t);
    }
}

/// `in_parallel` with an empty body reads as `scf.forall.in_parallel {}`;
/// its block always exists.
pub(crate) fn parse_in_parallel(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let region = p.ir().create_region();
    p.parse_region(region)?;
    if p.ir().region_is_empty(region) {
        let b = p.ir().create_block();
        p.ir().append_block(region, b);
    }
    let attrs = p.parse_optional_attr_dict()?;
    Ok(create(p, IN_PARALLEL, &[], &[], &[region], attrs))
}

pub(crate) fn print_in_parallel(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let ir = p.ir();
    if let Some(r) = ir.regions(op).next() {
        p.write(" ");
        p.region(r, false, false);
    }
    p.attr_dict(ir.op_attrs(op), &[], false);
}

/// A forall's operands by group, its static bounds and its body.
pub(crate) struct Parts {
    pub lbs: Vec<ValueId>,
    pub ubs: Vec<ValueId>,
    pub steps: Vec<ValueId>,
    pub outs: Vec<ValueId>,
    pub static_lbs: Vec<i64>,
    pub static_ubs: Vec<i64>,
    pub static_steps: Vec<i64>,
    pub body: Option<RegionId>,
}

pub(crate) fn parts(ctx: &silica_ir::Context, ir: &silica_ir::Ir, op: OpId) -> Parts {
    let operands: Vec<ValueId> = ir.operands(op).collect();
    let sizes = silica_ir::format::segment_sizes(ctx, ir, op).unwrap_or_default();
    let mut at = 0;
    let mut group = |i: usize| {
        let n = sizes.get(i).copied().unwrap_or(0);
        let g = operands[at.min(operands.len())..(at + n).min(operands.len())].to_vec();
        at += n;
        g
    };
    let statics = |name: &str| {
        silica_ir::dialect::inherent_attr(ctx, ir, op, name)
            .and_then(|a| ctx.int_array_values(a))
            .unwrap_or_default()
    };
    Parts {
        lbs: group(0),
        ubs: group(1),
        steps: group(2),
        outs: group(3),
        static_lbs: statics(LOWER),
        static_ubs: statics(UPPER),
        static_steps: statics(STEP),
        body: ir.regions(op).next(),
    }
}

pub(crate) fn print_forall(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let parts = parts(ctx, ir, op);
    let Some(body) = parts.body else { return };
    let args: Vec<ValueId> = ir
        .entry_block(body)
        .map(|b| ir.block_args(b).to_vec())
        .unwrap_or_default();
    let rank = parts.static_ubs.len().min(args.len());
    p.write(" (");
    p.operands(args[..rank].iter().copied());
    p.write(")");
    let normalized = parts.lbs.is_empty()
        && parts.steps.is_empty()
        && parts.static_lbs.iter().all(|&l| l == 0)
        && parts.static_steps.iter().all(|&s| s == 1);
    if normalized {
        p.write(" in ");
        p.dynamic_index_list(&parts.ubs, &parts.static_ubs, true);
    } else {
        p.write(" = ");
        p.dynamic_index_list(&parts.lbs, &parts.static_lbs, true);
        p.write(" to ");
        p.dynamic_index_list(&parts.ubs, &parts.static_ubs, true);
        p.write(" step ");
        p.dynamic_index_list(&parts.steps, &parts.static_steps, true);
    }
    if !parts.outs.is_empty() {
        p.write(" shared_outs(");
        for (k, (arg, init)) in args[rank..].iter().zip(&parts.outs).enumerate() {
            if k > 0 {
                p.write(", ");
            }
            p.operand(*arg);
            p.write(" = ");
            p.operand(*init);
        }
        p.write(") -> ");
        let tys: Vec<_> = ir.results(op).map(|r| ir.value_type(r)).collect();
        print_result_types(p, &tys, true);
    }
    p.write(" ");
    // The terminator is left out when it says nothing (no results).
    if ir.num_results(op) > 0 {
        p.region(body, false, false);
    } else {
        p.region_without_terminators(body, false);
    }
    let skip = [SEGMENTS, LOWER, UPPER, STEP];
    let props = ir.op_props(op).map(|d| ctx.dict_entries(d)).unwrap_or(&[]);
    let mut entries: Vec<_> = props
        .iter()
        .chain(ctx.dict_entries(ir.op_attrs(op)))
        .filter(|(k, _)| !skip.contains(&ctx.str(*k)))
        .copied()
        .collect();
    entries.sort_by(|a, b| ctx.str(a.0).cmp(ctx.str(b.0)));
    p.attr_entries(&entries, false);
}

/// MLIR's checks of `scf.forall`: bound counts, body arguments, shared
/// outputs, mapping, and the terminator.
pub(crate) fn verify_forall(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let parts = parts(ctx, ir, op);
    for (i, &o) in parts.outs.iter().enumerate() {
        let t = ir.value_type(o);
        if !matches!(ctx.type_kind(t), TypeKind::RankedTensor { .. }) {
            let ty = silica_ir::printer::type_to_string(ctx, t);
            let index = parts.lbs.len() + parts.ubs.len() + parts.steps.len() + i;
            let msg = format!(
                "operand #{index} must be variadic of ranked tensor of any type values, but got '{ty}'"
            );
            return Err(v.op_error(op, msg));
        }
    }
    let rank = parts.static_ubs.len();
    if parts.static_lbs.len() != rank || parts.static_steps.len() != rank {
        return Err(v.op_error(
            op,
            "requires the same number of lower bounds, upper bounds and steps",
        ));
    }
    let dynamic = |s: &[i64]| s.iter().filter(|&&x| x == DYNAMIC).count();
    if dynamic(&parts.static_lbs) != parts.lbs.len()
        || dynamic(&parts.static_ubs) != parts.ubs.len()
        || dynamic(&parts.static_steps) != parts.steps.len()
    {
        return Err(v.op_error(
            op,
            "expected as many dynamic bounds as their static placeholders",
        ));
    }
    if parts.outs.len() != ir.num_results(op) {
        return Err(v.op_error(op, "requires the same number of shared outputs and results"));
    }
    let Some(body) = parts.body.and_then(|r| ir.entry_block(r)) else {
        return Ok(());
    };
    let args = ir.block_args(body);
    if args.len() != rank + parts.outs.len() {
        let msg = format!("region expects {} arguments", rank + parts.outs.len());
        return Err(v.op_error(op, msg));
    }
    if args[..rank]
        .iter()
        .any(|&a| !matches!(ctx.type_kind(ir.value_type(a)), TypeKind::Index))
    {
        return Err(v.op_error(op, "expects index type for all induction variables"));
    }
    for (i, (&arg, &o)) in args[rank..].iter().zip(&parts.outs).enumerate() {
        if ir.value_type(arg) != ir.value_type(o) {
            let msg =
                format!("type mismatch between {i}th output and corresponding block argument");
            return Err(v.op_error(op, msg));
        }
    }
    if let Some(mapping) = silica_ir::dialect::inherent_attr(ctx, ir, op, "mapping") {
        // Device mapping attributes come from the GPU dialect, which
        // silica does not have: only an empty array meets the constraint.
        let empty =
            matches!(ctx.attr_kind(mapping), silica_ir::attrs::AttrKind::Array(e) if e.is_empty());
        if !empty {
            return Err(v.op_error(
                op,
                "attribute 'mapping' failed to satisfy constraint: Device Mapping array attribute",
            ));
        }
        if rank != 0 {
            return Err(v.op_error(op, "mapping attribute size must match op rank"));
        }
    }
    if let Some(t) = ir.last_op(body) {
        let name = ctx.str(ir.op_name(t));
        if name != IN_PARALLEL {
            let msg = format!("expects regions to end with '{IN_PARALLEL}', found '{name}'");
            let loc = ir.op_loc(op);
            let d = v.op_error(op, msg);
            let note = format!(
                "in custom textual format, the absence of terminator implies '{IN_PARALLEL}'"
            );
            return Err(Box::new((*d).with_note(loc, note)));
        }
    }
    Ok(())
}
