//! `affine.parallel`: `(%i, %j) = (lb, max(lb, lb)) to (ub, min(..))
//! step (s, s) reduce ("addf", ...) -> (types) { body }` — bounds as
//! groups of SSA affine expressions (one map per side, with group sizes),
//! steps, and reductions by `arith` atomic kind.

use crate::canonicalize::compose_map;
use crate::dialect::{create, map_of, print_map_of_ssa};
use silica_ir::affine::AffineMap;
use silica_ir::dialect::{inherent_attr, set_inherent_attr, Effects, OpDef, Traits};
use silica_ir::lexer::Tok;
use silica_ir::parser::{AsmParser, PResult};
use silica_ir::printer::AsmPrinter;
use silica_ir::rewrite::{FoldCtx, FoldResult};
use silica_ir::verify::OpVerifier;
use silica_ir::{Attr, AttrKind, Context, Ir, OpId, Type, TypeKind, ValueId};

/// `arith` atomic kinds in value order (MLIR's `AtomicRMWKind`).
pub const REDUCTIONS: &[&str] = silica_dialects::memref::atomic::ATOMIC_KINDS;

const ELIDED: &[&str] = &[
    "reductions",
    "lowerBoundsMap",
    "lowerBoundsGroups",
    "upperBoundsMap",
    "upperBoundsGroups",
    "steps",
];

pub(crate) fn i64_array(ctx: &mut Context, values: &[i64]) -> Attr {
    let t = ctx.signless(64);
    let elems: Vec<Attr> = values.iter().map(|&v| ctx.int_attr(t, v)).collect();
    ctx.array_attr(&elems)
}

pub(crate) fn groups_attr(ctx: &mut Context, groups: &[i64]) -> Attr {
    let i32t = ctx.signless(32);
    let ty = ctx.intern_type(TypeKind::RankedTensor {
        shape: Box::new([groups.len() as i64]),
        element: i32t,
        encoding: None,
    });
    let mut values: Vec<Attr> = groups.iter().map(|&g| ctx.int_attr(i32t, g)).collect();
    if !values.is_empty() && values.iter().all(|v| *v == values[0]) {
        values.truncate(1);
    }
    ctx.intern_attr(AttrKind::DenseElements {
        ty,
        values: values.into(),
    })
}

/// The integers of an array attribute of integers.
pub fn int_list(ctx: &Context, a: Option<Attr>) -> Vec<i64> {
    let Some(a) = a else { return Vec::new() };
    match ctx.attr_kind(a) {
        AttrKind::Array(items) => items
            .iter()
            .filter_map(|i| match ctx.attr_kind(*i) {
                AttrKind::Integer { value, .. } => i64::try_from(value).ok(),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The group sizes of a bounds side (`dense<...> : tensor<Nxi32>`).
pub fn group_sizes(ctx: &Context, a: Option<Attr>) -> Vec<usize> {
    let Some(a) = a else { return Vec::new() };
    let AttrKind::DenseElements { ty, values } = ctx.attr_kind(a) else {
        return Vec::new();
    };
    let n = ctx
        .shaped(*ty)
        .and_then(|(s, _)| s)
        .map_or(values.len(), |s| s.iter().product::<i64>().max(0) as usize);
    (0..n)
        .filter_map(
            |i| match ctx.attr_kind(values[if values.len() == 1 { 0 } else { i }]) {
                AttrKind::Integer { value, .. } => usize::try_from(value).ok(),
                _ => None,
            },
        )
        .collect()
}

fn parse_parallel(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    p.expect(Tok::LParen, "'('")?;
    let mut ivs = Vec::new();
    if !p.eat(Tok::RParen) {
        ivs = p.parse_operand_list()?;
        p.expect(Tok::RParen, "')'")?;
    }
    p.expect(Tok::Equal, "'='")?;
    let (lb_map, lb_groups, lb_ops) = p.parse_affine_groups_of_ssa("max")?;
    p.expect_keyword("to")?;
    let (ub_map, ub_groups, ub_ops) = p.parse_affine_groups_of_ssa("min")?;
    let mut steps = vec![1; ivs.len()];
    if p.eat_keyword("step") {
        p.expect(Tok::LParen, "'('")?;
        steps.clear();
        p.comma_list(Tok::RParen, "')'", |p| {
            steps.push(p.parse_u64()? as i64);
            Ok(())
        })?;
    }
    let mut reductions = Vec::new();
    let mut result_types: Vec<Type> = Vec::new();
    if p.eat_keyword("reduce") {
        p.expect(Tok::LParen, "'('")?;
        p.comma_list(Tok::RParen, "')'", |p| {
            let at = p.pos();
            let s = p.parse_string()?;
            match REDUCTIONS.iter().position(|k| k.as_bytes() == s.as_slice()) {
                Some(i) => reductions.push(i as i64),
                None => {
                    let msg = format!(
                        "custom op 'affine.parallel' invalid reduction value: \"{}\"",
                        String::from_utf8_lossy(&s)
                    );
                    return p.error_at(at, msg);
                }
            }
            Ok(())
        })?;
    }
    if p.eat(Tok::Arrow) {
        result_types = p.parse_result_types()?;
    }
    let index = p.ctx().index_type();
    let args: Vec<_> = ivs.iter().map(|u| (*u, index)).collect();
    let region = p.ir().create_region();
    p.parse_region_with_args(region, &args)?;
    p.ensure_terminator(region, "affine.yield");
    let attrs = p.parse_optional_attr_dict()?;
    let mut operands = p.resolve_indices(&lb_ops)?;
    operands.extend(p.resolve_indices(&ub_ops)?);
    let ctx = p.ctx();
    let props = vec![
        ("lowerBoundsGroups", groups_attr(ctx, &lb_groups)),
        ("lowerBoundsMap", lb_map),
        ("reductions", i64_array(ctx, &reductions)),
        ("steps", i64_array(ctx, &steps)),
        ("upperBoundsGroups", groups_attr(ctx, &ub_groups)),
        ("upperBoundsMap", ub_map),
    ];
    Ok(create(
        p,
        "affine.parallel",
        &operands,
        &result_types,
        &[region],
        attrs,
        props,
    ))
}

/// The number of map operands of the lower bounds.
fn lower_operand_count(ctx: &Context, ir: &Ir, op: OpId) -> usize {
    map_of(ctx, inherent_attr(ctx, ir, op, "lowerBoundsMap"))
        .map_or(0, |m| (m.num_dims + m.num_symbols) as usize)
}

/// Prints `e, kw(e, e)` for one side of the bounds.
fn print_groups(
    p: &mut AsmPrinter<'_, '_>,
    m: &AffineMap,
    groups: &[usize],
    operands: &[ValueId],
    kw: &str,
) {
    let mut start = 0;
    for (i, &size) in groups.iter().enumerate() {
        if i > 0 {
            p.write(", ");
        }
        let end = (start + size).min(m.results.len());
        let sub = AffineMap {
            num_dims: m.num_dims,
            num_symbols: m.num_symbols,
            results: m.results[start..end].into(),
        };
        if size != 1 {
            p.write(kw);
            p.write("(");
        }
        print_map_of_ssa(p, &sub, operands);
        if size != 1 {
            p.write(")");
        }
        start = end;
    }
}

fn print_parallel(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let operands: Vec<ValueId> = ir.operands(op).collect();
    let n_lb = lower_operand_count(ctx, ir, op).min(operands.len());
    let (Some(lb), Some(ub)) = (
        map_of(ctx, inherent_attr(ctx, ir, op, "lowerBoundsMap")).cloned(),
        map_of(ctx, inherent_attr(ctx, ir, op, "upperBoundsMap")).cloned(),
    ) else {
        return;
    };
    let lb_groups = group_sizes(ctx, inherent_attr(ctx, ir, op, "lowerBoundsGroups"));
    let ub_groups = group_sizes(ctx, inherent_attr(ctx, ir, op, "upperBoundsGroups"));
    let steps = int_list(ctx, inherent_attr(ctx, ir, op, "steps"));
    let reductions = int_list(ctx, inherent_attr(ctx, ir, op, "reductions"));
    let Some(region) = ir.regions(op).next() else {
        return;
    };
    let ivs: Vec<ValueId> = ir
        .entry_block(region)
        .map(|b| ir.block_args(b).to_vec())
        .unwrap_or_default();
    p.write(" (");
    for (i, &iv) in ivs.iter().enumerate() {
        if i > 0 {
            p.write(", ");
        }
        p.operand(iv);
    }
    p.write(") = (");
    print_groups(p, &lb, &lb_groups, &operands[..n_lb], "max");
    p.write(") to (");
    print_groups(p, &ub, &ub_groups, &operands[n_lb..], "min");
    p.write(")");
    if steps.iter().any(|s| *s != 1) {
        let text: Vec<String> = steps.iter().map(i64::to_string).collect();
        p.write(" step (");
        p.write(&text.join(", "));
        p.write(")");
    }
    let results: Vec<Type> = ir.results(op).map(|r| ir.value_type(r)).collect();
    if !results.is_empty() {
        let kinds: Vec<String> = reductions
            .iter()
            .map(|r| {
                format!(
                    "\"{}\"",
                    REDUCTIONS.get(*r as usize).copied().unwrap_or("?")
                )
            })
            .collect();
        p.write(" reduce (");
        p.write(&kinds.join(", "));
        p.write(") -> (");
        p.types(&results);
        p.write(")");
    }
    p.write(" ");
    if results.is_empty() {
        p.region_without_terminators(region, false);
    } else {
        p.region(region, false, true);
    }
    p.attr_dict(ir.op_attrs(op), ELIDED, false);
}

fn verify_parallel(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let sides = ["lowerBounds", "upperBounds"].map(|side| {
        let m = map_of(ctx, inherent_attr(ctx, ir, op, &format!("{side}Map"))).cloned();
        let g = group_sizes(ctx, inherent_attr(ctx, ir, op, &format!("{side}Groups")));
        (m, g)
    });
    let steps = int_list(ctx, inherent_attr(ctx, ir, op, "steps"));
    let reductions = int_list(ctx, inherent_attr(ctx, ir, op, "reductions"));
    let ivs = ir
        .regions(op)
        .next()
        .and_then(|r| ir.entry_block(r))
        .map_or(0, |b| ir.block_args(b).len());
    let [(_, lb_groups), (_, ub_groups)] = &sides;
    let dims = lb_groups.len();
    if ub_groups.len() != dims || steps.len() != dims || ivs != dims {
        let msg = format!(
            "the number of region arguments ({ivs}) and the number of map groups for lower ({}) and upper bound ({}), and the number of steps ({}) must all match",
            lb_groups.len(),
            ub_groups.len(),
            steps.len()
        );
        return Err(v.op_error(op, msg));
    }
    for ((m, groups), which) in sides.iter().zip(["lower", "upper"]) {
        let Some(m) = m else {
            return Err(v.op_error(op, format!("requires attribute '{which}BoundsMap'")));
        };
        if groups.contains(&0) {
            let msg = format!("expected {which} bound map to have at least one result");
            return Err(v.op_error(op, msg));
        }
        let expected: usize = groups.iter().sum();
        if expected != m.results.len() {
            let msg = format!("expected {which} bounds map to have {expected} results");
            return Err(v.op_error(op, msg));
        }
    }
    if reductions.len() != ir.num_results(op) {
        return Err(v.op_error(op, "a reduction must be specified for each output"));
    }
    for (r, result) in reductions.iter().zip(ir.results(op)) {
        let Some(kind) = usize::try_from(*r).ok().and_then(|r| REDUCTIONS.get(r)) else {
            return Err(v.op_error(op, "invalid reduction attribute"));
        };
        let t = ir.value_type(result);
        let fits = match *kind {
            "addf" | "mulf" | "maximumf" | "minimumf" => ctx.float_kind(t).is_some(),
            "addi" | "muli" | "maxs" | "mins" | "maxu" | "minu" | "andi" | "ori" => {
                matches!(ctx.type_kind(t), TypeKind::Integer { .. })
            }
            _ => true,
        };
        if !fits {
            return Err(v.op_error(op, "result type cannot match reduction attribute"));
        }
    }
    let operands: Vec<ValueId> = ir.operands(op).collect();
    let mut at = 0;
    for (m, _) in &sides {
        let Some(m) = m else {
            continue;
        };
        let n = (m.num_dims + m.num_symbols) as usize;
        let group = operands.get(at..at + n).unwrap_or(&[]);
        if let Some(msg) =
            crate::scope::dim_and_symbol_error(ctx, ir, op, group, m.num_dims as usize)
        {
            return Err(v.op_error(op, msg));
        }
        at += n;
    }
    Ok(())
}

/// The `affine.parallel` op.
pub(crate) const PARALLEL: OpDef = OpDef {
    traits: Traits::SINGLE_BLOCK
        .with(Traits::LOOP_LIKE)
        .with(Traits::ALLOCATION_SCOPE),
    inherent_attrs: ELIDED,
    parse: Some(parse_parallel),
    print: Some(print_parallel),
    verify: Some(verify_parallel),
    fold: Some(fold_parallel),
    effects: Effects::Recursive,
    ..OpDef::new("affine.parallel")
};

/// `affine.parallel`'s fold: both bound maps composed and canonicalized
/// with their operands (MLIR's `canonicalizeLoopBounds` for it).
fn fold_parallel(fc: &mut FoldCtx<'_>, op: OpId, _: &[Option<Attr>]) -> FoldResult {
    let (ctx, ir) = (&*fc.ctx, &*fc.ir);
    let (Some(lb), Some(ub)) = (
        map_of(ctx, inherent_attr(ctx, ir, op, "lowerBoundsMap")).cloned(),
        map_of(ctx, inherent_attr(ctx, ir, op, "upperBoundsMap")).cloned(),
    ) else {
        return FoldResult::Fail;
    };
    let operands: Vec<ValueId> = ir.operands(op).collect();
    let nl = lower_operand_count(ctx, ir, op).min(operands.len());
    let (lb_map, mut new_operands) = compose_map(fc.ctx, fc.ir, &lb, &operands[..nl]);
    let (ub_map, ub_ops) = compose_map(fc.ctx, fc.ir, &ub, &operands[nl..]);
    new_operands.extend(ub_ops);
    if lb_map == lb && ub_map == ub && new_operands == operands {
        return FoldResult::Fail;
    }
    fc.ir.set_operands(op, &new_operands);
    let lb_attr = fc.ctx.intern_attr(AttrKind::AffineMap(lb_map));
    set_inherent_attr(fc.ctx, fc.ir, op, "lowerBoundsMap", lb_attr);
    let ub_attr = fc.ctx.intern_attr(AttrKind::AffineMap(ub_map));
    set_inherent_attr(fc.ctx, fc.ir, op, "upperBoundsMap", ub_attr);
    FoldResult::InPlace
}
