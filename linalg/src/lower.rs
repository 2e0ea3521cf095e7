//! `convert-linalg-to-affine-loops` and `convert-linalg-to-loops`: each
//! structured op on memrefs becomes a nest of `affine.for` (or `scf.for`
//! from `arith.constant` bounds) over its loop dimensions, each bounded by
//! the first operand dimension its indexing maps give it, in which the
//! elements of the inputs and then of the outputs its payload uses are
//! loaded (`affine.load` or `memref.load` at the maps' results, a result
//! that is not a plain dimension through an `affine.apply`), the payload
//! runs with `linalg.index` as the loop counters, and each yielded value
//! is stored to its output. Then, as MLIR's pass does, the function is
//! folded greedily (constants uniqued and hoisted, `affine.apply`
//! canonicalized), so the output is mlir-opt-22's.

use crate::structured::{operands, structure};
use rustc_hash::FxHashMap;
use silica_affine::canonicalize::canonicalize_map;
use silica_affine::for_op::{create_for, Bound};
use silica_affine::loops::{
    clone_mapped, create, create_apply, create_index_constant, create_op, NewOp,
};
use silica_ir::affine::{AffineExpr, AffineMap};
use silica_ir::diag::Diagnostic;
use silica_ir::pass::{Pass, PassInfo, PassOptions};
use silica_ir::rewrite::{apply_patterns_greedily, GreedyConfig, PatternSet};
use silica_ir::{AttrKind, Context, Ir, OpId, TypeKind, ValueId};

/// The loops a structured op becomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loops {
    /// `affine.for`, `affine.load`, `affine.store`.
    Affine,
    /// `scf.for`, `memref.load`, `memref.store`.
    Scf,
}

/// Lowers every structured op under `root` to affine loops (see
/// [`linalg_to_loops`]).
pub fn linalg_to_affine_loops(
    ctx: &mut Context,
    ir: &mut Ir,
    root: OpId,
) -> Result<(), Box<Diagnostic>> {
    linalg_to_loops(ctx, ir, root, Loops::Affine)
}

/// Lowers every structured op on memrefs under `root` to `loops` (ops on
/// tensors stay, as in MLIR); an error at the first op with dynamic
/// sizes, or with a loop dimension no operand bounds.
pub fn linalg_to_loops(
    ctx: &mut Context,
    ir: &mut Ir,
    root: OpId,
    loops: Loops,
) -> Result<(), Box<Diagnostic>> {
    let mut ops = Vec::new();
    ir.walk(root, &mut |op| {
        let name = ctx.str(ir.op_name(op));
        if name.starts_with("linalg.") && name != "linalg.yield" && name != "linalg.index" {
            ops.push(op);
        }
    });
    if ops.is_empty() {
        return Ok(());
    }
    for op in ops {
        lower(ctx, ir, op, loops).map_err(|msg| Box::new(Diagnostic::error(ir.op_loc(op), msg)))?;
    }
    let mut patterns = PatternSet::default();
    let apply = ctx.sym("affine.apply");
    if let Some(def) = ctx.op_def_by_name("affine.apply") {
        patterns.add(apply, def.patterns.iter());
    }
    apply_patterns_greedily(ctx, ir, root, &patterns, GreedyConfig::default());
    Ok(())
}

/// The static sizes of `v`'s memref type.
fn shape(ctx: &Context, ir: &Ir, v: ValueId) -> Option<Vec<i64>> {
    match ctx.type_kind(ir.value_type(v)) {
        TypeKind::MemRef { shape, .. } if shape.iter().all(|&d| d >= 0) => Some(shape.to_vec()),
        _ => None,
    }
}

fn lower(ctx: &mut Context, ir: &mut Ir, op: OpId, kind: Loops) -> Result<(), String> {
    let name = ctx.str(ir.op_name(op)).to_string();
    let (maps, reductions) =
        structure(ctx, ir, op).ok_or_else(|| format!("'{name}' without indexing maps"))?;
    let (inputs, outputs) = operands(ctx, ir, op);
    // An op on tensors stays (as in MLIR: only buffers become loops).
    let on_tensors = inputs.iter().chain(&outputs).any(|&v| {
        matches!(
            ctx.type_kind(ir.value_type(v)),
            TypeKind::RankedTensor { .. } | TypeKind::UnrankedTensor { .. }
        )
    });
    if on_tensors || ir.results(op).next().is_some() {
        return Ok(());
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
    // `scf.for` bounds: zero, the size and one for each loop, before the op.
    let mut bounds = Vec::new();
    if kind == Loops::Scf {
        for &size in &sizes {
            let values: Vec<ValueId> = [0, size, 1]
                .iter()
                .map(|&v| {
                    let c = create_index_constant(ctx, ir, v, loc);
                    ir.insert_op_before(op, c);
                    ir.result(c, 0)
                })
                .collect();
            bounds.push(values);
        }
    }
    // The nest, outermost first, in place of the op.
    let mut ivs = Vec::with_capacity(loops);
    let mut at: Option<OpId> = None;
    for (d, &size) in sizes.iter().enumerate() {
        let lp = match kind {
            Loops::Affine => {
                create_for(ctx, ir, loc, &Bound::constant(0), &Bound::constant(size), 1)
            }
            Loops::Scf => scf_for(ctx, ir, &bounds[d], loc),
        };
        match at {
            None => ir.insert_op_before(op, lp),
            Some(outer) => {
                let b = loop_body(ir, outer);
                let end = ir.last_op(b).expect("a yield");
                ir.insert_op_before(end, lp);
            }
        }
        let b = loop_body(ir, lp);
        ivs.push(ir.block_args(b)[0]);
        at = Some(lp);
    }
    let insert_before = match at {
        Some(inner) => {
            let b = loop_body(ir, inner);
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
        let load = access(
            ctx,
            ir,
            (kind, Access::Load),
            &[v],
            &indices,
            Some(element),
            loc,
        );
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
        let store = access(
            ctx,
            ir,
            (kind, Access::Store),
            &[value, out],
            &indices,
            None,
            loc,
        );
        ir.insert_op_before(insert_before, store);
    }
    ir.erase_op(op);
    Ok(())
}

/// The body of a loop just built.
fn loop_body(ir: &Ir, lp: OpId) -> silica_ir::BlockId {
    ir.regions(lp)
        .next()
        .and_then(|r| ir.entry_block(r))
        .expect("a loop has a body")
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

/// A load or a store.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Access {
    Load,
    Store,
}

/// A load (result `element`) or store of `operands` (the memref last)
/// at `indices`: `affine.*` through the identity map, or `memref.*`.
fn access(
    ctx: &mut Context,
    ir: &mut Ir,
    (kind, access): (Loops, Access),
    operands: &[ValueId],
    indices: &[ValueId],
    element: Option<silica_ir::Type>,
    loc: silica_ir::Attr,
) -> OpId {
    let mut all = operands.to_vec();
    all.extend(indices);
    let results: Vec<silica_ir::Type> = element.into_iter().collect();
    let name = match (kind, access) {
        (Loops::Affine, Access::Load) => "affine.load",
        (Loops::Affine, Access::Store) => "affine.store",
        (Loops::Scf, Access::Load) => "memref.load",
        (Loops::Scf, Access::Store) => "memref.store",
    };
    if kind == Loops::Scf {
        return create(ctx, ir, name, &all, &results, vec![], loc);
    }
    let identity = AffineMap {
        num_dims: indices.len() as u32,
        num_symbols: 0,
        results: (0..indices.len() as u32).map(AffineExpr::Dim).collect(),
    };
    let map = ctx.intern_attr(AttrKind::AffineMap(identity));
    create(ctx, ir, name, &all, &results, vec![("map", map)], loc)
}

/// A detached `scf.for` over `bounds` (lower, upper, step) whose body
/// holds only its `scf.yield`.
fn scf_for(ctx: &mut Context, ir: &mut Ir, bounds: &[ValueId], loc: silica_ir::Attr) -> OpId {
    let index = ctx.index_type();
    let region = ir.create_region();
    let block = ir.create_block();
    ir.add_block_arg(block, index, Some(loc));
    ir.append_block(region, block);
    let end = create(ctx, ir, "scf.yield", &[], &[], vec![], loc);
    ir.append_op(block, end);
    create_op(
        ctx,
        ir,
        NewOp {
            name: "scf.for",
            operands: bounds,
            result_types: &[],
            regions: &[region],
            props: vec![],
            loc,
        },
    )
}

struct ConvertLinalg(Loops);

impl Pass for ConvertLinalg {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        linalg_to_loops(ctx, ir, op, self.0)
    }
}

/// The `convert-linalg-to-affine-loops` pass.
pub static CONVERT_LINALG_TO_AFFINE_LOOPS: PassInfo = PassInfo {
    argument: "convert-linalg-to-affine-loops",
    name: "ConvertLinalgToAffineLoopsPass",
    description: "Lower the operations from the linalg dialect into affine loops",
    anchor: None,
    options: &[],
    create: |_: &PassOptions| Ok(Box::new(ConvertLinalg(Loops::Affine))),
};

/// The `convert-linalg-to-loops` pass.
pub static CONVERT_LINALG_TO_LOOPS: PassInfo = PassInfo {
    argument: "convert-linalg-to-loops",
    name: "ConvertLinalgToLoopsPass",
    description: "Lower the operations from the linalg dialect into loops",
    anchor: None,
    options: &[],
    create: |_: &PassOptions| Ok(Box::new(ConvertLinalg(Loops::Scf))),
};
