//! `convert-linalg-to-affine-loops`: each structured op on memrefs
//! becomes a nest of `affine.for` over its loop dimensions (each bounded
//! by the first operand dimension its indexing maps give it), in which
//! the elements of the inputs and then of the outputs its payload uses
//! are loaded (`affine.load` at the maps' results, a result that is not a
//! plain dimension through an `affine.apply`), the payload runs with
//! `linalg.index` as the loop counters, and each yielded value is stored
//! to its output, as mlir-opt-22 writes it.

use crate::structured::{operands, structure};
use rustc_hash::FxHashMap;
use silica_affine::canonicalize::canonicalize_map;
use silica_affine::for_op::{body, create_for, Bound};
use silica_affine::loops::{clone_mapped, create, create_apply};
use silica_ir::affine::{AffineExpr, AffineMap};
use silica_ir::diag::Diagnostic;
use silica_ir::pass::{Pass, PassInfo, PassOptions};
use silica_ir::{AttrKind, Context, Ir, OpId, TypeKind, ValueId};

/// Lowers every structured op under `root` to affine loops; an error at
/// the first op on tensors, with dynamic sizes, or with a loop dimension
/// no operand bounds.
pub fn linalg_to_affine_loops(
    ctx: &mut Context,
    ir: &mut Ir,
    root: OpId,
) -> Result<(), Box<Diagnostic>> {
    let mut ops = Vec::new();
    ir.walk(root, &mut |op| {
        let name = ctx.str(ir.op_name(op));
        if name.starts_with("linalg.") && name != "linalg.yield" && name != "linalg.index" {
            ops.push(op);
        }
    });
    for op in ops {
        lower(ctx, ir, op).map_err(|msg| Box::new(Diagnostic::error(ir.op_loc(op), msg)))?;
    }
    Ok(())
}

/// The static sizes of `v`'s memref type.
fn shape(ctx: &Context, ir: &Ir, v: ValueId) -> Option<Vec<i64>> {
    match ctx.type_kind(ir.value_type(v)) {
        TypeKind::MemRef { shape, .. } if shape.iter().all(|&d| d >= 0) => Some(shape.to_vec()),
        _ => None,
    }
}

fn lower(ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), String> {
    let name = ctx.str(ir.op_name(op)).to_string();
    let (maps, reductions) =
        structure(ctx, ir, op).ok_or_else(|| format!("'{name}' without indexing maps"))?;
    let (inputs, outputs) = operands(ctx, ir, op);
    if ir.results(op).next().is_some() {
        return Err(format!(
            "'{name}' on tensors: lower it to memrefs first (bufferize)"
        ));
    }
    let all: Vec<ValueId> = inputs.iter().chain(&outputs).copied().collect();
    if maps.len() != all.len() {
        return Err(format!(
            "'{name}' has {} indexing maps for {} operands",
            maps.len(),
            all.len()
        ));
    }
    let loops = reductions.len();
    for (i, (&v, map)) in all.iter().zip(&maps).enumerate() {
        let expected = crate::structured::rank(ctx, ir, v);
        if map.num_dims as usize != loops || map.num_symbols != 0 {
            return Err(format!(
                "'{name}': indexing map {i} has {} dimensions for {loops} iterators",
                map.num_dims
            ));
        }
        if map.results.len() != expected {
            return Err(format!(
                "'{name}': indexing map {i} has {} results for an operand of rank {expected}",
                map.results.len()
            ));
        }
    }
    // Each loop's size: the first operand dimension that is that loop.

    let mut sizes: Vec<Option<i64>> = vec![None; loops];
    for (&v, map) in all.iter().zip(&maps) {
        let is_scalar = !matches!(ctx.type_kind(ir.value_type(v)), TypeKind::MemRef { .. });
        if is_scalar {
            continue;
        }
        let s = shape(ctx, ir, v)
            .ok_or_else(|| format!("'{name}' on a memref of dynamic sizes is not supported"))?;
        for (r, e) in map.results.iter().enumerate() {
            if let AffineExpr::Dim(d) = e {
                let d = *d as usize;
                if d < loops && sizes[d].is_none() {
                    sizes[d] = s.get(r).copied();
                }
            }
        }
    }
    let sizes: Vec<i64> = sizes
        .into_iter()
        .enumerate()
        .map(|(d, s)| s.ok_or_else(|| format!("'{name}': no operand bounds loop dimension {d}")))
        .collect::<Result<_, _>>()?;
    let loc = ir.op_loc(op);
    // The nest, outermost first, in place of the op.
    let mut ivs = Vec::with_capacity(loops);
    let mut at: Option<OpId> = None;
    for &size in &sizes {
        let lp = create_for(ctx, ir, loc, &Bound::constant(0), &Bound::constant(size), 1);
        match at {
            None => ir.insert_op_before(op, lp),
            Some(outer) => {
                let b = body(ir, outer).expect("a loop body");
                let end = ir.last_op(b).expect("a yield");
                ir.insert_op_before(end, lp);
            }
        }
        let b = body(ir, lp).expect("a loop body");
        ivs.push(ir.block_args(b)[0]);
        at = Some(lp);
    }
    let insert_before = match at {
        Some(inner) => {
            let b = body(ir, inner).expect("a loop body");
            ir.last_op(b).expect("a yield")
        }
        None => op,
    };
    let region = ir
        .regions(op)
        .next()
        .ok_or("a structured op without payload")?;
    let block = ir
        .entry_block(region)
        .ok_or("a structured op without payload")?;
    let args = ir.block_args(block).to_vec();
    let mut mapping: FxHashMap<ValueId, ValueId> = FxHashMap::default();
    // The elements the payload uses: inputs, then outputs.
    for (i, (&v, map)) in all.iter().zip(&maps).enumerate() {
        let Some(&arg) = args.get(i) else { continue };
        if !ir.has_uses(arg) {
            continue;
        }
        if !matches!(ctx.type_kind(ir.value_type(v)), TypeKind::MemRef { .. }) {
            mapping.insert(arg, v);
            continue;
        }
        let indices = indices(ctx, ir, map, &ivs, insert_before, loc);
        let element = ir.value_type(arg);
        let load = access(ctx, ir, "affine.load", &[v], &indices, Some(element), loc);
        ir.insert_op_before(insert_before, load);
        mapping.insert(arg, ir.result(load, 0));
    }
    if args.len() != all.len() {
        return Err(format!(
            "'{name}': the payload takes {} arguments for {} operands",
            args.len(),
            all.len()
        ));
    }
    let payload: Vec<OpId> = ir.block_ops(block).collect();
    let (terminator, body_ops) = payload.split_last().ok_or("an empty payload")?;
    for &o in body_ops {
        if ctx.str(ir.op_name(o)) == "linalg.index" {
            let dim = silica_ir::dialect::inherent_attr(ctx, ir, o, "dim")
                .and_then(|a| match ctx.attr_kind(a) {
                    AttrKind::Integer { value, .. } => usize::try_from(value).ok(),
                    _ => None,
                })
                .filter(|&d| d < ivs.len())
                .ok_or("'linalg.index' of a dimension the op does not have")?;
            mapping.insert(ir.result(o, 0), ivs[dim]);
            continue;
        }
        let copy = clone_mapped(ir, o, &mut mapping);
        ir.insert_op_before(insert_before, copy);
    }
    let yielded: Vec<ValueId> = ir.operands(*terminator).collect();
    if yielded.len() != outputs.len() {
        return Err(format!(
            "'{name}': the payload yields {} values for {} outputs",
            yielded.len(),
            outputs.len()
        ));
    }
    for ((&value, &out), map) in yielded.iter().zip(&outputs).zip(&maps[inputs.len()..]) {
        let value = mapping.get(&value).copied().unwrap_or(value);
        let indices = indices(ctx, ir, map, &ivs, insert_before, loc);
        let store = access(ctx, ir, "affine.store", &[value, out], &indices, None, loc);
        ir.insert_op_before(insert_before, store);
    }
    ir.erase_op(op);
    Ok(())
}

/// The index values of `map`'s results over the loop counters `ivs`: a
/// plain dimension is its counter, any other result an `affine.apply`
/// inserted before `before`.
fn indices(
    ctx: &mut Context,
    ir: &mut Ir,
    map: &AffineMap,
    ivs: &[ValueId],
    before: OpId,
    loc: silica_ir::Attr,
) -> Vec<ValueId> {
    map.results
        .iter()
        .map(|e| match e {
            AffineExpr::Dim(d) => ivs[*d as usize],
            _ => {
                let single = AffineMap {
                    num_dims: map.num_dims,
                    num_symbols: map.num_symbols,
                    results: vec![e.clone()].into(),
                };
                let (single, operands) = canonicalize_map(ctx, ir, &single, ivs);
                let apply = create_apply(ctx, ir, single, &operands, loc);
                ir.insert_op_before(before, apply);
                ir.result(apply, 0)
            }
        })
        .collect()
}

/// An `affine.load` (result `element`) or `affine.store` of `operands`
/// (the memref last) at `indices` through the identity map.
fn access(
    ctx: &mut Context,
    ir: &mut Ir,
    name: &str,
    operands: &[ValueId],
    indices: &[ValueId],
    element: Option<silica_ir::Type>,
    loc: silica_ir::Attr,
) -> OpId {
    let identity = AffineMap {
        num_dims: indices.len() as u32,
        num_symbols: 0,
        results: (0..indices.len() as u32).map(AffineExpr::Dim).collect(),
    };
    let map = ctx.intern_attr(AttrKind::AffineMap(identity));
    let mut all = operands.to_vec();
    all.extend(indices);
    let results: Vec<silica_ir::Type> = element.into_iter().collect();
    create(ctx, ir, name, &all, &results, vec![("map", map)], loc)
}

struct ConvertLinalgToAffineLoops;

impl Pass for ConvertLinalgToAffineLoops {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        linalg_to_affine_loops(ctx, ir, op)
    }
}

/// The `convert-linalg-to-affine-loops` pass.
pub static CONVERT_LINALG_TO_AFFINE_LOOPS: PassInfo = PassInfo {
    argument: "convert-linalg-to-affine-loops",
    name: "ConvertLinalgToAffineLoopsPass",
    description: "Lower the operations from the linalg dialect into affine loops",
    anchor: None,
    options: &[],
    create: |_: &PassOptions| Ok(Box::new(ConvertLinalgToAffineLoops)),
};
