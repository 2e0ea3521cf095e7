//! `lower-affine`: affine ops to arith, memref and scf as MLIR lowers
//! them. Affine expressions expand to `arith` index arithmetic (floor
//! and ceiling division and modulo by positive constants with MLIR's
//! sign corrections), `affine.for` becomes `scf.for` with bounds reduced
//! by `arith.maxsi`/`arith.minsi`, `affine.if` becomes `scf.if` on a
//! conjunction of comparisons, loads and stores become `memref` ones,
//! `affine.delinearize_index` divisions and remainders by the basis'
//! suffix products.

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

/// Expands `e` over `dims` and `symbols` into arith ops (divisors need
/// not be constants, as in MLIR 22).
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
            match op {
                BinOp::Add => Ok(b.binary("arith.addi", lhs, rhs, None)),
                BinOp::Mul => Ok(b.binary("arith.muli", lhs, rhs, Some(1))),

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

/// MLIR's `computeStrides` for a non-negative basis: the products of
/// the basis elements from the right, one per element (`nsw nuw`
/// multiplications of the dynamic ones by a constant of the static ones).
fn strides(b: &mut Builder<'_, '_>, dynamic: &[ValueId], statics: &[i64]) -> Vec<ValueId> {
    let mut out = Vec::with_capacity(statics.len());
    let mut next_dynamic = dynamic.len();
    let mut dynamic_part: Option<ValueId> = None;
    let mut static_part = 1i64;
    for &elem in statics.iter().rev() {
        if elem == silica_ir::types::DYNAMIC {
            next_dynamic = next_dynamic.saturating_sub(1);
            let v = dynamic[next_dynamic];
            dynamic_part = Some(match dynamic_part {
                Some(p) => b.binary("arith.muli", p, v, Some(3)),
                None => v,
            });
        } else {
            static_part = static_part.wrapping_mul(elem);
        }
        let stride = match dynamic_part {
            Some(p) if static_part == 1 => p,
            Some(p) => {
                let c = b.index_const(static_part);
                b.binary("arith.muli", p, c, Some(3))
            }
            None => b.index_const(static_part),
        };
        out.push(stride);
    }
    out.reverse();
    out
}

/// `affine.delinearize_index` as MLIR's `lowerAffineDelinearizeIndexOp`:
/// the first result a floor division by the first stride, each next one
/// the (sign-corrected) remainder by its stride divided by the next
/// stride, the last the remainder by the last stride.
fn lower_delinearize(
    b: &mut Builder<'_, '_>,
    linear: ValueId,
    dynamic: &[ValueId],
    statics: &[i64],
    results: usize,
) -> Vec<ValueId> {
    if results == 1 {
        return vec![linear];
    }
    let basis = if results == statics.len() {
        &statics[1..]
    } else {
        statics
    };
    let strides = strides(b, dynamic, basis);
    let zero = b.index_const(0);
    let mut out = vec![b.binary("arith.floordivsi", linear, strides[0], None)];
    let modulo = |b: &mut Builder<'_, '_>, stride: ValueId| {
        let rem = b.binary("arith.remsi", linear, stride, None);
        let negative = b.cmpi("slt", rem, zero);
        let corrected = b.binary("arith.addi", rem, stride, Some(1));
        b.select(negative, corrected, rem)
    };
    for w in strides.windows(2) {
        let m = modulo(b, w[0]);
        out.push(b.binary("arith.divsi", m, w[1], None));
    }
    if let Some(&last) = strides.last() {
        out.push(modulo(b, last));
    }
    out
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

/// The lower bound (the largest of its map's results) and the upper
/// bound (the smallest) of a loop, expanded into arith ops at the
/// rewriter's insertion point (MLIR's `lowerAffineLowerBound` and
/// `lowerAffineUpperBound`).
fn expand_bounds(
    rw: &mut Rewriter<'_>,
    (lb_map, ub_map): (&AffineMap, &AffineMap),
    (lb_operands, ub_operands): (&[ValueId], &[ValueId]),
    loc: Attr,
) -> Result<(ValueId, ValueId), String> {
    let mut b = Builder { rw, loc };
    let lbs = expand_map(&mut b, lb_map, lb_operands)?;
    let lb = reduce(&mut b, "arith.maxsi", &lbs);
    let ubs = expand_map(&mut b, ub_map, ub_operands)?;
    let ub = reduce(&mut b, "arith.minsi", &ubs);
    Ok((lb, ub))
}

/// The bounds of the `affine.for` `op` as [`expand_bounds`] gives them,
/// at the rewriter's insertion point.
pub fn loop_bounds(rw: &mut Rewriter<'_>, op: OpId) -> Result<(ValueId, ValueId), String> {
    let loc = rw.ir.op_loc(op);
    let seg = segment_sizes(rw.ctx, rw.ir, op).ok_or("missing operand segments")?;
    let (nl, nu) = (seg[0], seg[1]);
    let operands: Vec<ValueId> = rw.ir.operands(op).collect();
    let lb_map = map_of(rw.ctx, inherent_attr(rw.ctx, rw.ir, op, "lowerBoundMap"))
        .ok_or("missing lower bound")?;
    let ub_map = map_of(rw.ctx, inherent_attr(rw.ctx, rw.ir, op, "upperBoundMap"))
        .ok_or("missing upper bound")?;
    expand_bounds(
        rw,
        (&lb_map, &ub_map),
        (&operands[..nl], &operands[nl..nl + nu]),
        loc,
    )
}

/// Lowers one affine op; `Ok(false)` when `op` is not one this pass
/// lowers.
fn lower_op(ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<bool, String> {
    let name = ctx.str(ir.op_name(op)).to_string();
    if name == "affine.parallel" {
        lower_parallel(ctx, ir, op)?;
        return Ok(true);
    }
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
        "affine.delinearize_index" => {
            let statics = inherent_attr(rw.ctx, rw.ir, op, "static_basis")
                .and_then(|a| rw.ctx.int_array_values(a))
                .ok_or("missing static_basis")?;
            let results = rw.ir.num_results(op);
            let mut b = Builder { rw: &mut rw, loc };
            let values = lower_delinearize(&mut b, operands[0], &operands[1..], &statics, results);
            rw.replace_op(op, &values);
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
        "affine.dma_start" | "affine.dma_wait" => {
            let maps: &[&str] = if name == "affine.dma_start" {
                &["src_map", "dst_map", "tag_map"]
            } else {
                &["tag_map"]
            };
            let mut groups = Vec::new();
            let mut at = 0;
            for key in maps {
                let m = map_of(rw.ctx, inherent_attr(rw.ctx, rw.ir, op, key))
                    .ok_or_else(|| format!("missing {key}"))?;
                let n = (m.num_dims + m.num_symbols) as usize;
                let memref = operands[at];
                let map_operands = &operands[at + 1..(at + 1 + n).min(operands.len())];
                let mut b = Builder { rw: &mut rw, loc };
                let indices = expand_map(&mut b, &m, map_operands)?;
                groups.push((memref, indices));
                at += 1 + n;
            }
            let rest = &operands[at..];
            let mut new_operands = Vec::new();
            if let [(src, si), (dst, di), (tag, ti)] = groups.as_slice() {
                new_operands.push(*src);
                new_operands.extend(si);
                new_operands.push(*dst);
                new_operands.extend(di);
                new_operands.push(rest[0]);
                new_operands.push(*tag);
                new_operands.extend(ti);
                new_operands.extend(&rest[1..]);
            } else if let [(tag, ti)] = groups.as_slice() {
                new_operands.push(*tag);
                new_operands.extend(ti);
                new_operands.extend(rest);
            }
            let target = if name == "affine.dma_start" {
                "memref.dma_start"
            } else {
                "memref.dma_wait"
            };
            create(&mut rw, target, &new_operands, &[], &[], loc);
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
            let (lb, ub) = expand_bounds(
                &mut rw,
                (&lb_map, &ub_map),
                (&operands[..nl], &operands[nl..nl + nu]),
                loc,
            )?;
            let mut b = Builder { rw: &mut rw, loc };
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

/// The identity of a reduction (MLIR's `getIdentityValueAttr`).
fn identity(ctx: &mut Context, kind: &str, ty: silica_ir::Type) -> Option<Attr> {
    use silica_ir::float::FloatKind;
    if let Some(k) = ctx.float_kind(ty) {
        // (sign, exponent bits, mantissa bits) of the supported formats.
        let (width, mant) = match k {
            FloatKind::F16 => (16u32, 10u32),
            FloatKind::BF16 => (16, 7),
            FloatKind::F32 => (32, 23),
            FloatKind::F64 => (64, 52),
            _ => return None,
        };
        let sign = 1u128 << (width - 1);
        let exp_all = ((1u128 << (width - 1 - mant)) - 1) << mant;
        let quiet = 1u128 << (mant - 1);
        let one = ((1u128 << (width - 2 - mant)) - 1) << mant;
        let bits = match kind {
            "addf" => 0,
            "mulf" => one,
            "maximumf" => sign | exp_all,
            "minimumf" => exp_all,
            "maxnumf" => sign | exp_all | quiet,
            "minnumf" => exp_all | quiet,
            _ => return None,
        };
        return Some(ctx.intern_attr(AttrKind::Float { ty, bits }));
    }
    let width = ctx.int_width(ty)?;
    let v: silica_ir::BigInt = match kind {
        "addi" | "maxu" | "ori" | "xori" => 0.into(),
        "andi" | "minu" => (-1).into(),
        "muli" => 1.into(),
        "maxs" => -(silica_ir::BigInt::from(1) << (width - 1)),
        "mins" => (silica_ir::BigInt::from(1) << (width - 1)) - 1,
        _ => return None,
    };
    Some(ctx.int_attr(ty, v))
}

/// The arith op combining two values of a reduction.
fn combiner(kind: &str) -> Option<&'static str> {
    Some(match kind {
        "addf" => "arith.addf",
        "addi" => "arith.addi",
        "andi" => "arith.andi",
        "maximumf" => "arith.maximumf",
        "maxnumf" => "arith.maxnumf",
        "maxs" => "arith.maxsi",
        "maxu" => "arith.maxui",
        "minimumf" => "arith.minimumf",
        "minnumf" => "arith.minnumf",
        "mins" => "arith.minsi",
        "minu" => "arith.minui",
        "mulf" => "arith.mulf",
        "muli" => "arith.muli",
        "ori" => "arith.ori",
        "xori" => "arith.xori",
        _ => return None,
    })
}

/// `affine.parallel` to `scf.parallel`: bounds reduced per dimension,
/// step constants, reductions initialised with their identities and
/// combined in `scf.reduce` regions.
fn lower_parallel(ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), String> {
    use crate::parallel::{group_sizes, int_list, REDUCTIONS};
    let loc = ir.op_loc(op);
    let operands: Vec<ValueId> = ir.operands(op).collect();
    let side = |ctx: &Context, ir: &Ir, name: &str| {
        let m = map_of(ctx, inherent_attr(ctx, ir, op, &format!("{name}Map")));
        let g = group_sizes(ctx, inherent_attr(ctx, ir, op, &format!("{name}Groups")));
        (m, g)
    };
    let (Some(lb), lb_groups) = side(ctx, ir, "lowerBounds") else {
        return Err("missing lower bounds".into());
    };
    let (Some(ub), ub_groups) = side(ctx, ir, "upperBounds") else {
        return Err("missing upper bounds".into());
    };
    let steps = int_list(ctx, inherent_attr(ctx, ir, op, "steps"));
    let kinds: Vec<&str> = int_list(ctx, inherent_attr(ctx, ir, op, "reductions"))
        .iter()
        .map(|r| REDUCTIONS.get(*r as usize).copied().unwrap_or("?"))
        .collect();
    let n_lb = ((lb.num_dims + lb.num_symbols) as usize).min(operands.len());
    let (lb_ops, ub_ops) = operands.split_at(n_lb);
    // As MLIR's fold of the op before it is converted: constant and
    // `affine.apply` operands go into the bound maps.
    let (lb, lb_ops) = {
        let (m, o) = crate::canonicalize::compose_map(ctx, ir, &lb, lb_ops);
        crate::canonicalize::canonicalize_map(ctx, ir, &m, &o)
    };
    let (ub, ub_ops) = {
        let (m, o) = crate::canonicalize::compose_map(ctx, ir, &ub, ub_ops);
        crate::canonicalize::canonicalize_map(ctx, ir, &m, &o)
    };
    let (lb_ops, ub_ops) = (lb_ops.as_slice(), ub_ops.as_slice());
    let result_types: Vec<_> = ir.results(op).map(|r| ir.value_type(r)).collect();
    if result_types.is_empty() && lb_groups.is_empty() {
        return Err("'scf.parallel' op needs at least one tuple element for lowerBound, upperBound and step".into());
    }
    let mut listener = NoListener;
    let mut rw = Rewriter::new(ctx, ir, &mut listener);
    rw.set_insertion_point(op);
    let mut b = Builder { rw: &mut rw, loc };
    let sub = |m: &AffineMap, start: usize, size: usize| AffineMap {
        num_dims: m.num_dims,
        num_symbols: m.num_symbols,
        results: m.results[start..start + size].into(),
    };
    let (mut lbs, mut ubs) = (Vec::new(), Vec::new());
    let (mut at_l, mut at_u) = (0, 0);
    for (&gl, &gu) in lb_groups.iter().zip(&ub_groups) {
        let l = expand_map(&mut b, &sub(&lb, at_l, gl), lb_ops)?;
        lbs.push(reduce(&mut b, "arith.maxsi", &l));
        let u = expand_map(&mut b, &sub(&ub, at_u, gu), ub_ops)?;
        ubs.push(reduce(&mut b, "arith.minsi", &u));
        at_l += gl;
        at_u += gu;
    }
    let steps: Vec<ValueId> = steps.iter().map(|&s| b.index_const(s)).collect();
    let mut inits = Vec::new();
    for (kind, &t) in kinds.iter().zip(&result_types) {
        let value = identity(b.rw.ctx, kind, t)
            .ok_or_else(|| format!("no identity for reduction '{kind}'"))?;
        let key = b.rw.ctx.sym("value");
        let props = b.rw.ctx.dict_attr(vec![(key, value)]);
        let c =
            b.rw.create_simple("arith.constant", &[], &[t], Some(props), loc);
        inits.push(b.rw.ir.result(c, 0));
    }
    let n = lbs.len() as i64;
    let mut par_operands = lbs;
    par_operands.extend(ubs);
    par_operands.extend(steps);
    par_operands.extend(inits.iter().copied());
    let seg = rw.ctx.int_array_attr(32, &[n, n, n, inits.len() as i64]);
    let key = rw.ctx.sym(silica_ir::format::SEGMENTS);
    let props = rw.ctx.dict_attr(vec![(key, seg)]);
    let regions = take_regions(rw.ir, op);
    let name = rw.ctx.sym("scf.parallel");
    let attrs = rw.ctx.empty_dict();
    let par = rw.create(OpSpec {
        name,
        loc,
        operands: &par_operands,
        result_types: &result_types,
        successors: &[],
        regions: &regions,
        attrs,
        props: Some(props),
    });
    // The affine.yield becomes scf.reduce with one region per reduction.
    let body = rw.ir.entry_block(regions[0]).expect("body");
    let yield_op = rw.ir.last_op(body).expect("terminator");
    let yielded: Vec<ValueId> = rw.ir.operands(yield_op).collect();
    let mut reduce_regions = Vec::new();
    for (kind, &t) in kinds.iter().zip(&result_types) {
        let r = rw.ir.create_region();
        let blk = rw.ir.create_block();
        rw.ir.append_block(r, blk);
        let a = rw.ir.add_block_arg(blk, t, Some(loc));
        let c = rw.ir.add_block_arg(blk, t, Some(loc));
        rw.set_insertion_point_to_end(blk);
        let op_name =
            combiner(kind).ok_or_else(|| format!("no combiner for reduction '{kind}'"))?;
        let comb = rw.create_simple(op_name, &[a, c], &[t], None, loc);
        let v = rw.ir.result(comb, 0);
        rw.create_simple("scf.reduce.return", &[v], &[], None, loc);
        reduce_regions.push(r);
    }
    rw.set_insertion_point(yield_op);
    let name = rw.ctx.sym("scf.reduce");
    let attrs = rw.ctx.empty_dict();
    rw.create(OpSpec {
        name,
        loc,
        operands: &yielded,
        result_types: &[],
        successors: &[],
        regions: &reduce_regions,
        attrs,
        props: None,
    });
    rw.erase_op(yield_op);
    let values: Vec<ValueId> = rw.ir.results(par).collect();
    rw.replace_op(op, &values);
    Ok(())
}

/// Folds an `affine.apply`, `affine.min` or `affine.max` whose value the
/// operands decide, or an `affine.load` of a constant splat global, as
/// MLIR's conversion folds an op before lowering it (a constant is
/// materialised before the op); whether it went.
fn fold_before_lowering(ctx: &mut Context, ir: &mut Ir, op: OpId) -> bool {
    if !matches!(
        ctx.str(ir.op_name(op)),
        "affine.apply" | "affine.min" | "affine.max" | "affine.load"
    ) {
        return false;
    }
    let silica_ir::rewrite::FoldResult::Results(results) =
        silica_ir::rewrite::fold::fold_op(ctx, ir, op)
    else {
        return false;
    };
    let [result] = results.as_slice() else {
        return false;
    };
    let value = match *result {
        silica_ir::rewrite::OpFoldResult::Value(v) => v,
        silica_ir::rewrite::OpFoldResult::Attr(a) => {
            let loc = ir.op_loc(op);
            let ty = ir.value_type(ir.result(op, 0));
            let c = crate::loops::create(
                ctx,
                ir,
                "arith.constant",
                &[],
                &[ty],
                vec![("value", a)],
                loc,
            );
            ir.insert_op_before(op, c);
            ir.result(c, 0)
        }
    };
    let r = ir.result(op, 0);
    ir.replace_all_uses(r, value);
    ir.erase_op(op);
    true
}

/// Lowers every affine op nested in `root`.
pub fn lower_affine(ctx: &mut Context, ir: &mut Ir, root: OpId) -> Result<(), Box<Diagnostic>> {
    let mut ops = Vec::new();
    ir.walk(root, &mut |o| ops.push(o));
    // MLIR's conversion folds each loop before lowering it, while the
    // `affine.apply` ops its bounds use are still there to compose.
    for &op in &ops {
        if ctx.str(ir.op_name(op)) == "affine.for" {
            silica_ir::rewrite::fold::fold_op(ctx, ir, op);
        }
    }
    for op in ops {
        if ir.is_erased(op) || !ctx.str(ir.op_name(op)).starts_with("affine.") {
            continue;
        }
        let loc = ir.op_loc(op);
        let name = ctx.str(ir.op_name(op)).to_string();
        if fold_before_lowering(ctx, ir, op) {
            continue;
        }
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
    // MLIR's lower-affine is a conversion whose target knows only these
    // dialects: it folds the ops of every other dialect it visits.
    let mut target = silica_ir::conversion::ConversionTarget::new();
    for d in ["arith", "memref", "scf", "vector", "affine"] {
        target.set_dialect(d, silica_ir::conversion::Legality::Legal);
    }
    silica_ir::conversion::fold_ops_of_unknown_legality(ctx, ir, root, &target)
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
