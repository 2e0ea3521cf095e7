//! `scf-parallel-loop-tiling{parallel-loop-tile-sizes=... no-min-max-bounds}`:
//! each innermost `scf.parallel` without reductions becomes a loop over
//! tiles (its steps times the tile sizes, 1 past the sizes given) around
//! a loop within the tile, from 0 by the old steps to the tile step, or
//! to `affine.min(tile step, upper bound - tile start)` where the trip
//! count is not known to be a multiple of the tile size (with
//! `no-min-max-bounds`: to the tile step, the body under an `scf.if`
//! that checks every index against its bound). Inside, each old index is
//! the tile's start plus the index within it. The output is mlir-opt-22's.

use silica_ir::affine::{AffineExpr, AffineMap};
use silica_ir::dialect::inherent_attr;
use silica_ir::pass::{OptionKind, Pass, PassInfo, PassOptionInfo, PassOptions};
use silica_ir::rewrite::{NoListener, Rewriter};
use silica_ir::{Attr, AttrKind, Context, Diagnostic, Ir, OpId, OpSpec, ValueId};

const PARALLEL: &str = "scf.parallel";

/// The innermost `scf.parallel` ops under `root` (those enclosing no
/// other), in MLIR's order; whether `root` encloses any.
fn innermost(ctx: &Context, ir: &Ir, root: OpId, out: &mut Vec<OpId>) -> bool {
    let mut encloses = false;
    for r in ir.regions(root).collect::<Vec<_>>() {
        for b in ir.region_blocks(r).collect::<Vec<_>>() {
            for op in ir.block_ops(b).collect::<Vec<_>>() {
                let nested = innermost(ctx, ir, op, out);
                encloses |= nested;
                if ctx.str(ir.op_name(op)) == PARALLEL {
                    encloses = true;
                    if !nested {
                        out.push(op);
                    }
                }
            }
        }
    }
    encloses
}

/// The value of an `arith.constant` of index type defining `v`.
fn constant_index(ctx: &Context, ir: &Ir, v: ValueId) -> Option<i64> {
    let d = ir.defining_op(v)?;
    if ctx.str(ir.op_name(d)) != "arith.constant"
        || !matches!(ctx.type_kind(ir.value_type(v)), silica_ir::TypeKind::Index)
    {
        return None;
    }
    match ctx.attr_kind(inherent_attr(ctx, ir, d, "value")?) {
        AttrKind::Integer { value, .. } => i64::try_from(value).ok(),
        _ => None,
    }
}

fn index_constant(rw: &mut Rewriter<'_>, value: i64, loc: Attr) -> ValueId {
    let index = rw.ctx.index_type();
    let v = rw.ctx.int_attr(index, value);
    let key = rw.ctx.sym("value");
    let props = rw.ctx.dict_attr(vec![(key, v)]);
    let op = rw.create_simple("arith.constant", &[], &[index], Some(props), loc);
    rw.ir.result(op, 0)
}

fn binary(rw: &mut Rewriter<'_>, name: &str, a: ValueId, b: ValueId, loc: Attr) -> ValueId {
    let ty = rw.ir.value_type(a);
    let op = rw.create_simple(name, &[a, b], &[ty], None, loc);
    rw.ir.result(op, 0)
}

/// A new `scf.parallel` of `lbs`, `ubs`, `steps` at the insertion point,
/// its region `region` (or a fresh one with the index arguments and an
/// `scf.reduce`).
fn parallel(
    rw: &mut Rewriter<'_>,
    bounds: (&[ValueId], &[ValueId], &[ValueId]),
    region: Option<silica_ir::RegionId>,
    loc: Attr,
) -> OpId {
    let (lbs, ubs, steps) = bounds;
    let n = lbs.len() as i64;
    let region = region.unwrap_or_else(|| {
        let region = rw.ir.create_region();
        let block = rw.ir.create_block();
        rw.ir.append_block(region, block);
        let index = rw.ctx.index_type();
        for _ in 0..n {
            rw.ir.add_block_arg(block, index, Some(loc));
        }
        let name = rw.ctx.sym("scf.reduce");
        let attrs = rw.ctx.empty_dict();
        let reduce = rw.ir.create_op(OpSpec {
            name,
            loc,
            operands: &[],
            result_types: &[],
            successors: &[],
            regions: &[],
            attrs,
            props: None,
        });
        rw.ir.append_op(block, reduce);
        region
    });
    let operands: Vec<ValueId> = lbs.iter().chain(ubs).chain(steps).copied().collect();
    let segments = rw.ctx.int_array_attr(32, &[n, n, n, 0]);
    let key = rw.ctx.sym(silica_ir::format::SEGMENTS);
    let props = rw.ctx.dict_attr(vec![(key, segments)]);
    let name = rw.ctx.sym(PARALLEL);
    let attrs = rw.ctx.empty_dict();
    rw.create(OpSpec {
        name,
        loc,
        operands: &operands,
        result_types: &[],
        successors: &[],
        regions: &[region],
        attrs,
        props: Some(props),
    })
}

/// Tiles the loop `op` by `sizes`.
fn tile(ctx: &mut Context, ir: &mut Ir, op: OpId, sizes: &[i64], no_min_max: bool) {
    let loc = ir.op_loc(op);
    let operands: Vec<ValueId> = ir.operands(op).collect();
    let n = operands.len() / 3;
    let (lbs, ubs, steps) = (
        operands[..n].to_vec(),
        operands[n..2 * n].to_vec(),
        operands[2 * n..3 * n].to_vec(),
    );
    let old_region = ir.regions(op).next().expect("scf.parallel has a region");
    let mut listener = NoListener;
    let mut rw = Rewriter::new(ctx, ir, &mut listener);
    rw.set_insertion_point(op);
    let zero = index_constant(&mut rw, 0, loc);
    let tile_sizes: Vec<i64> = (0..n).map(|i| sizes.get(i).copied().unwrap_or(1)).collect();
    let tile_constants: Vec<ValueId> = tile_sizes
        .iter()
        .map(|&t| index_constant(&mut rw, t, loc))
        .collect();
    let new_steps: Vec<ValueId> = steps
        .iter()
        .zip(&tile_constants)
        .map(|(&s, &t)| binary(&mut rw, "arith.muli", s, t, loc))
        .collect();
    let outer = parallel(&mut rw, (&lbs, &ubs, &new_steps), None, loc);
    let outer_body = rw
        .ir
        .regions(outer)
        .next()
        .and_then(|r| rw.ir.entry_block(r))
        .expect("a body");
    let outer_ivs = rw.ir.block_args(outer_body).to_vec();
    let reduce = rw.ir.last_op(outer_body).expect("scf.reduce");
    rw.set_insertion_point(reduce);
    let min_map = AffineMap {
        num_dims: 3,
        num_symbols: 0,
        results: Box::new([
            AffineExpr::Dim(0),
            AffineExpr::Dim(1).minus(AffineExpr::Dim(2)),
        ]),
    };
    let mut inner_ubs = Vec::new();
    let mut needs_check = false;
    for i in 0..n {
        let constants = (
            constant_index(rw.ctx, rw.ir, lbs[i]),
            constant_index(rw.ctx, rw.ir, ubs[i]),
            constant_index(rw.ctx, rw.ir, steps[i]),
        );
        if let (Some(lb), Some(ub), Some(step)) = constants {
            let trips = if step != 0 {
                (ub - lb + step - 1).div_euclid(step)
            } else {
                0
            };
            if step != 0 && trips % tile_sizes[i] == 0 {
                inner_ubs.push(new_steps[i]);
                continue;
            }
        }
        if no_min_max {
            inner_ubs.push(new_steps[i]);
            needs_check = true;
            continue;
        }
        let index = rw.ctx.index_type();
        let m = rw.ctx.intern_attr(AttrKind::AffineMap(min_map.clone()));
        let key = rw.ctx.sym("map");
        let props = rw.ctx.dict_attr(vec![(key, m)]);
        let min = rw.create_simple(
            "affine.min",
            &[new_steps[i], ubs[i], outer_ivs[i]],
            &[index],
            Some(props),
            loc,
        );
        inner_ubs.push(rw.ir.result(min, 0));
    }
    let zeros = vec![zero; n];
    if no_min_max && needs_check {
        let inner = parallel(&mut rw, (&zeros, &inner_ubs, &steps), None, loc);
        let inner_body = rw
            .ir
            .regions(inner)
            .next()
            .and_then(|r| rw.ir.entry_block(r))
            .expect("a body");
        let inner_ivs = rw.ir.block_args(inner_body).to_vec();
        let inner_reduce = rw.ir.last_op(inner_body).expect("scf.reduce");
        rw.set_insertion_point(inner_reduce);
        let i1 = rw.ctx.signless(1);
        let t = rw.ctx.int_attr(i1, 1);
        let key = rw.ctx.sym("value");
        let props = rw.ctx.dict_attr(vec![(key, t)]);
        let c = rw.create_simple("arith.constant", &[], &[i1], Some(props), loc);
        let mut inbound = rw.ir.result(c, 0);
        for i in 0..n {
            let scaled = binary(&mut rw, "arith.muli", inner_ivs[i], steps[i], loc);
            let index = binary(&mut rw, "arith.addi", scaled, outer_ivs[i], loc);
            let i64t = rw.ctx.signless(64);
            let ult = rw.ctx.int_attr(i64t, 6);
            let key = rw.ctx.sym("predicate");
            let props = rw.ctx.dict_attr(vec![(key, ult)]);
            let cmp = rw.create_simple("arith.cmpi", &[index, ubs[i]], &[i1], Some(props), loc);
            let inside = rw.ir.result(cmp, 0);
            inbound = binary(&mut rw, "arith.andi", inbound, inside, loc);
        }
        // The body moves into `scf.if inbound`, its arguments replaced
        // by the indices.
        let then = rw.ir.create_region();
        let otherwise = rw.ir.create_region();
        let blocks: Vec<_> = rw.ir.region_blocks(old_region).collect();
        for b in blocks {
            rw.ir.detach_block(b);
            rw.ir.append_block(then, b);
        }
        let then_block = rw.ir.entry_block(then).expect("the body");
        if let Some(old_reduce) = rw.ir.last_op(then_block) {
            rw.set_insertion_point(old_reduce);
            rw.create_simple("scf.yield", &[], &[], None, loc);
            rw.erase_op(old_reduce);
        }
        rw.set_insertion_point(inner_reduce);
        let name = rw.ctx.sym("scf.if");
        let attrs = rw.ctx.empty_dict();
        rw.create(OpSpec {
            name,
            loc,
            operands: &[inbound],
            result_types: &[],
            successors: &[],
            regions: &[then, otherwise],
            attrs,
            props: None,
        });
        let first = rw.ir.first_op(inner_body).expect("the check");
        rw.set_insertion_point(first);
        let old_args = rw.ir.block_args(then_block).to_vec();
        for i in 0..n {
            let index = binary(&mut rw, "arith.addi", inner_ivs[i], outer_ivs[i], loc);
            rw.ir.replace_all_uses(old_args[i], index);
        }
        for _ in 0..old_args.len() {
            rw.ir.erase_block_arg(then_block, 0);
        }
    } else {
        let body = rw.ir.create_region();
        let blocks: Vec<_> = rw.ir.region_blocks(old_region).collect();
        for b in blocks {
            rw.ir.detach_block(b);
            rw.ir.append_block(body, b);
        }
        let inner = parallel(&mut rw, (&zeros, &inner_ubs, &steps), Some(body), loc);
        let inner_body = rw
            .ir
            .regions(inner)
            .next()
            .and_then(|r| rw.ir.entry_block(r))
            .expect("a body");
        let inner_ivs = rw.ir.block_args(inner_body).to_vec();
        if let Some(first) = rw.ir.first_op(inner_body) {
            rw.set_insertion_point(first);
        } else {
            rw.set_insertion_point_to_end(inner_body);
        }
        for i in 0..n {
            let index = binary(&mut rw, "arith.addi", inner_ivs[i], outer_ivs[i], loc);
            let def = rw.ir.defining_op(index).expect("the add");
            let uses: Vec<_> = rw
                .ir
                .uses(inner_ivs[i])
                .filter(|&u| rw.ir.use_owner(u) != def)
                .collect();
            for u in uses {
                rw.ir.set_use(u, index);
            }
        }
    }
    rw.erase_op(op);
}

struct ParallelLoopTiling {
    sizes: Vec<i64>,
    no_min_max: bool,
}

impl Pass for ParallelLoopTiling {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        let mut loops = Vec::new();
        innermost(ctx, ir, op, &mut loops);
        for l in loops {
            let reductions = ir.results(l).next().is_some();
            if !reductions {
                tile(ctx, ir, l, &self.sizes, self.no_min_max);
            }
        }
        Ok(())
    }
}

static OPTIONS: &[PassOptionInfo] = &[
    PassOptionInfo {
        name: "parallel-loop-tile-sizes",
        description: "Factors to tile parallel loops by",
        kind: OptionKind::List,
        default: "",
    },
    PassOptionInfo {
        name: "no-min-max-bounds",
        description:
            "Perform tiling with fixed upper bound with inbound check inside the internal loops",
        kind: OptionKind::Bool,
        default: "false",
    },
];

/// `scf-parallel-loop-tiling`
pub static SCF_PARALLEL_LOOP_TILING: PassInfo = PassInfo {
    argument: "scf-parallel-loop-tiling",
    name: "SCFParallelLoopTiling",
    description: "Tile parallel loops",
    anchor: None,
    options: OPTIONS,
    create: |o: &PassOptions| {
        let sizes = o
            .list("parallel-loop-tile-sizes")
            .iter()
            .map(|s| {
                s.trim()
                    .parse::<i64>()
                    .ok()
                    .filter(|&t| t > 0)
                    .ok_or_else(|| format!("invalid tile size '{s}' of scf-parallel-loop-tiling"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Box::new(ParallelLoopTiling {
            sizes,
            no_min_max: o.bool("no-min-max-bounds"),
        }))
    },
};
