//! `lower-affine`: affine ops to arith, memref and scf as MLIR lowers
//! them. Affine expressions expand to `arith` index arithmetic (floor
//! and ceiling division and modulo by positive constants with MLIR's
//! sign corrections), `affine.for` becomes `scf.for` with bounds reduced
//! by `arith.maxsi`/`arith.minsi`, `affine.if` becomes `scf.if` on a
//! conjunction of comparisons, loads and stores become `memref` ones.

use silica_dialects::build::Builder;
use silica_ir::affine::{AffineExpr, AffineMap, BinOp};
use silica_ir::diag::Diagnostic;
use silica_ir::dialect::inherent_attr;
use silica_ir::format::segment_sizes;
use silica_ir::pass::{Pass, PassInfo, PassOptions};
use silica_ir::rewrite::{NoListener, Rewriter};
use silica_ir::{Attr, AttrKind, Context, Ir, OpId, OpSpec, ValueId};

fn map_of(ctx: &Context, a: Option<Attr>) -> Option<AffineMap> {
    match ctx.attr_kind(a?) {
        AttrKind::AffineMap(m) => Some(m.clone()),
        _ => None,
    }
}

/// Expands `e` over `dims` and `symbols` into arith ops; `Err` names an
/// unsupported expression.
fn expand(
    b: &mut Builder<'_, '_>,
    e: &AffineExpr,
    dims: &[ValueId],
    symbols: &[ValueId],
) -> Result<ValueId, String> {
    match e {
        AffineExpr::Dim(i) => Ok(dims[*i as usize]),
        AffineExpr::Symbol(i) => Ok(symbols[*i as usize]),
        AffineExpr::Constant(c) => Ok(b.index_const(*c)),
        AffineExpr::Binary(bin) => {
            let (op, l, r) = &**bin;
            let lhs = expand(b, l, dims, symbols)?;
            let rhs = expand(b, r, dims, symbols)?;
            let positive_rhs = matches!(r, AffineExpr::Constant(c) if *c > 0);
            match op {
                BinOp::Add => Ok(b.binary("arith.addi", lhs, rhs, None)),
                BinOp::Mul => Ok(b.binary("arith.muli", lhs, rhs, Some(1))),
                _ if !positive_rhs => Err(match op {
                    BinOp::Mod => "semi-affine expressions (modulo by non-const) are not supported",
                    BinOp::FloorDiv => {
                        "semi-affine expressions (division by non-const) are not supported"
                    }
                    _ => "semi-affine expressions (division by non-const) are not supported",
                }
                .into()),
                BinOp::Mod => {
                    let rem = b.binary("arith.remsi", lhs, rhs, None);
                    let zero = b.index_const(0);
                    let negative = b.cmpi("slt", rem, zero);
                    let corrected = b.binary("arith.addi", rem, rhs, None);
                    Ok(b.select(negative, corrected, rem))
                }
                BinOp::FloorDiv => {
                    let zero = b.index_const(0);
                    let minus_one = b.index_const(-1);
                    let negative = b.cmpi("slt", lhs, zero);
                    let negated = b.binary("arith.subi", minus_one, lhs, None);
                    let dividend = b.select(negative, negated, lhs);
                    let quotient = b.binary("arith.divsi", dividend, rhs, None);
                    let corrected = b.binary("arith.subi", minus_one, quotient, None);
                    Ok(b.select(negative, corrected, quotient))
                }
                BinOp::CeilDiv => {
                    let zero = b.index_const(0);
                    let one = b.index_const(1);
                    let non_positive = b.cmpi("sle", lhs, zero);
                    let negated = b.binary("arith.subi", zero, lhs, None);
                    let decremented = b.binary("arith.subi", lhs, one, None);
                    let dividend = b.select(non_positive, negated, decremented);
                    let quotient = b.binary("arith.divsi", dividend, rhs, None);
                    let negated_quotient = b.binary("arith.subi", zero, quotient, None);
                    let incremented = b.binary("arith.addi", quotient, one, None);
                    Ok(b.select(non_positive, negated_quotient, incremented))
                }
            }
        }
    }
}

/// Every result of `map` applied to `operands` (dims, then symbols).
fn expand_map(
    b: &mut Builder<'_, '_>,
    map: &AffineMap,
    operands: &[ValueId],
) -> Result<Vec<ValueId>, String> {
    let (dims, symbols) = operands.split_at((map.num_dims as usize).min(operands.len()));
    map.results
        .iter()
        .map(|e| expand(b, e, dims, symbols))
        .collect()
}

/// `values` reduced by `op` (`arith.minsi`/`arith.maxsi`) left to right.
fn reduce(b: &mut Builder<'_, '_>, op: &str, values: &[ValueId]) -> ValueId {
    let mut acc = values[0];
    for &v in &values[1..] {
        acc = b.binary(op, acc, v, None);
    }
    acc
}

fn create(
    rw: &mut Rewriter<'_>,
    name: &str,
    operands: &[ValueId],
    results: &[silica_ir::Type],
    regions: &[silica_ir::RegionId],
    loc: Attr,
) -> OpId {
    let name = rw.ctx.sym(name);
    let attrs = rw.ctx.empty_dict();
    rw.create(OpSpec {
        name,
        loc,
        operands,
        result_types: results,
        successors: &[],
        regions,
        attrs,
        props: None,
    })
}

/// Moves the regions of `from` into new regions, turning their
/// `affine.yield` terminators into `scf.yield`.
fn take_regions(ir: &mut Ir, from: OpId) -> Vec<silica_ir::RegionId> {
    let olds: Vec<_> = ir.regions(from).collect();
    let mut news = Vec::new();
    for old in olds {
        let new = ir.create_region();
        let blocks: Vec<_> = ir.region_blocks(old).collect();
        for blk in blocks {
            ir.detach_block(blk);
            ir.append_block(new, blk);
        }
        news.push(new);
    }
    news
}

/// Lowers one affine op; `Ok(false)` when `op` is not one this pass
/// lowers.
fn lower_op(ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<bool, String> {
    let name = ctx.str(ir.op_name(op)).to_string();
    let loc = ir.op_loc(op);
    let operands: Vec<ValueId> = ir.operands(op).collect();
    let map = map_of(ctx, inherent_attr(ctx, ir, op, "map"));
    let mut listener = NoListener;
    let mut rw = Rewriter::new(ctx, ir, &mut listener);
    rw.set_insertion_point(op);
    match name.as_str() {
        "affine.apply" | "affine.min" | "affine.max" => {
            let map = map.ok_or("missing map")?;
            let mut b = Builder { rw: &mut rw, loc };
            let values = expand_map(&mut b, &map, &operands)?;
            let v = match name.as_str() {
                "affine.min" => reduce(&mut b, "arith.minsi", &values),
                "affine.max" => reduce(&mut b, "arith.maxsi", &values),
                _ => values[0],
            };
            rw.replace_op(op, &[v]);
        }
        "affine.load" => {
            let map = map.ok_or("missing map")?;
            let mut b = Builder { rw: &mut rw, loc };
            let mut indices = expand_map(&mut b, &map, &operands[1..])?;
            indices.insert(0, operands[0]);
            let ty = rw.ir.value_type(rw.ir.result(op, 0));
            let new = create(&mut rw, "memref.load", &indices, &[ty], &[], loc);
            let v = rw.ir.result(new, 0);
            rw.replace_op(op, &[v]);
        }
        "affine.store" => {
            let map = map.ok_or("missing map")?;
            let mut b = Builder { rw: &mut rw, loc };
            let indices = expand_map(&mut b, &map, &operands[2..])?;
            let mut all = vec![operands[0], operands[1]];
            all.extend(indices);
            create(&mut rw, "memref.store", &all, &[], &[], loc);
            rw.erase_op(op);
        }
        "affine.prefetch" => {
            let map = map.ok_or("missing map")?;
            let mut b = Builder { rw: &mut rw, loc };
            let mut operands_new = expand_map(&mut b, &map, &operands[1..])?;
            operands_new.insert(0, operands[0]);
            let ctx = &mut *rw.ctx;
            let mut props = Vec::new();
            for key in ["isDataCache", "isWrite", "localityHint"] {
                if let Some(a) = inherent_attr(ctx, rw.ir, op, key) {
                    props.push((ctx.sym(key), a));
                }
            }
            let props = ctx.dict_attr(props);
            rw.create_simple("memref.prefetch", &operands_new, &[], Some(props), loc);
            rw.erase_op(op);
        }
        "affine.yield" => {
            create(&mut rw, "scf.yield", &operands, &[], &[], loc);
            rw.erase_op(op);
        }
        "affine.for" => {
            let seg = segment_sizes(rw.ctx, rw.ir, op).unwrap_or_default();
            let (nl, nu) = (seg[0], seg[1]);
            let lb_map = map_of(rw.ctx, inherent_attr(rw.ctx, rw.ir, op, "lowerBoundMap"))
                .ok_or("missing lower bound")?;
            let ub_map = map_of(rw.ctx, inherent_attr(rw.ctx, rw.ir, op, "upperBoundMap"))
                .ok_or("missing upper bound")?;
            let step = match inherent_attr(rw.ctx, rw.ir, op, "step").map(|a| rw.ctx.attr_kind(a)) {
                Some(AttrKind::Integer { value, .. }) => i64::try_from(value).unwrap_or(1),
                _ => 1,
            };
            let mut b = Builder { rw: &mut rw, loc };
            let lbs = expand_map(&mut b, &lb_map, &operands[..nl])?;
            let lb = reduce(&mut b, "arith.maxsi", &lbs);
            let ubs = expand_map(&mut b, &ub_map, &operands[nl..nl + nu])?;
            let ub = reduce(&mut b, "arith.minsi", &ubs);
            let step = b.index_const(step);
            let mut for_operands = vec![lb, ub, step];
            for_operands.extend_from_slice(&operands[nl + nu..]);
            let results: Vec<_> = rw.ir.results(op).map(|r| rw.ir.value_type(r)).collect();
            let regions = take_regions(rw.ir, op);
            let new = create(&mut rw, "scf.for", &for_operands, &results, &regions, loc);
            let values: Vec<_> = rw.ir.results(new).collect();
            rw.replace_op(op, &values);
        }
        "affine.if" => {
            let set =
                match inherent_attr(rw.ctx, rw.ir, op, "condition").map(|a| rw.ctx.attr_kind(a)) {
                    Some(AttrKind::IntegerSet(s)) => s.clone(),
                    _ => return Err("missing condition".into()),
                };
            let (dims, symbols) = operands.split_at((set.num_dims as usize).min(operands.len()));
            let mut b = Builder { rw: &mut rw, loc };
            let zero = b.index_const(0);
            let mut cond = None;
            for (e, &eq) in set.constraints.iter().zip(set.eq.iter()) {
                let v = expand(&mut b, e, dims, symbols)?;
                let c = b.cmpi(if eq { "eq" } else { "sge" }, v, zero);
                cond = Some(match cond {
                    Some(prev) => b.binary("arith.andi", prev, c, None),
                    None => c,
                });
            }
            let cond = match cond {
                Some(c) => c,
                None => {
                    let i1 = b.rw.ctx.signless(1);
                    b.int_const(i1, 1)
                }
            };
            let results: Vec<_> = rw.ir.results(op).map(|r| rw.ir.value_type(r)).collect();
            let regions = take_regions(rw.ir, op);
            let new = create(&mut rw, "scf.if", &[cond], &results, &regions, loc);
            let values: Vec<_> = rw.ir.results(new).collect();
            rw.replace_op(op, &values);
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// Lowers every affine op nested in `root`.
pub fn lower_affine(ctx: &mut Context, ir: &mut Ir, root: OpId) -> Result<(), Box<Diagnostic>> {
    let mut ops = Vec::new();
    ir.walk(root, &mut |o| ops.push(o));
    for op in ops {
        if ir.is_erased(op) || !ctx.str(ir.op_name(op)).starts_with("affine.") {
            continue;
        }
        let loc = ir.op_loc(op);
        let name = ctx.str(ir.op_name(op)).to_string();
        match lower_op(ctx, ir, op) {
            Ok(true) => {}
            Ok(false) => {
                return Err(Box::new(Diagnostic::error(
                    loc,
                    format!(
                        "failed to legalize operation '{name}' that was explicitly marked illegal"
                    ),
                )))
            }
            Err(msg) => return Err(Box::new(Diagnostic::error(loc, msg))),
        }
    }
    Ok(())
}

struct LowerAffine;

impl Pass for LowerAffine {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        lower_affine(ctx, ir, op)
    }
}

/// The `lower-affine` pass.
pub static LOWER_AFFINE: PassInfo = PassInfo {
    argument: "lower-affine",
    name: "LowerAffinePass",
    description: "Lower Affine operations to a combination of Arith and SCF operations",
    anchor: None,
    options: &[],
    create: |_: &PassOptions| Ok(Box::new(LowerAffine)),
};
