//! Verifiers of the affine ops, with MLIR's checks and messages: map
//! operand counts and types, memory-op subscripts, loop bounds,
//! `affine.if` conditions, DMA indices, `affine.yield` types, and that
//! every map operand is a valid dimension or symbol where it is used.

use crate::dialect::map_of;
use crate::scope::{affine_scope, dim_and_symbol_error, is_valid_dim_in, is_valid_symbol_in};
use silica_ir::dialect::inherent_attr;
use silica_ir::format::segment_sizes;
use silica_ir::parser::PResult;
use silica_ir::printer::type_to_string;
use silica_ir::verify::OpVerifier;
use silica_ir::{AttrKind, Context, Ir, OpId, Type, TypeKind, ValueId};

fn is_index(ctx: &Context, t: Type) -> bool {
    matches!(ctx.type_kind(t), TypeKind::Index)
}

fn memref_parts(ctx: &Context, t: Type) -> Option<(Type, usize)> {
    match ctx.type_kind(t) {
        TypeKind::MemRef { element, shape, .. } => Some((*element, shape.len())),
        _ => None,
    }
}

/// Checks the dimension and symbol operands of `op` (`dims` of them
/// dimensions).
fn check_identifiers(
    v: &mut OpVerifier<'_, '_>,
    op: OpId,
    operands: &[ValueId],
    dims: usize,
) -> PResult<()> {
    match dim_and_symbol_error(v.ctx(), v.ir(), op, operands, dims) {
        Some(msg) => Err(v.op_error(op, msg)),
        None => Ok(()),
    }
}

/// `affine.apply`: index operands and result, one operand per map input,
/// one map result, and no dimension where a symbol goes.
pub fn verify_apply(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    verify_index_values(v, op)?;
    let (ctx, ir) = (v.ctx(), v.ir());
    let Some(m) = map_of(ctx, inherent_attr(ctx, ir, op, "map")).cloned() else {
        return Err(v.op_error(op, "requires attribute 'map'"));
    };
    let operands: Vec<ValueId> = ir.operands(op).collect();
    if operands.len() != (m.num_dims + m.num_symbols) as usize {
        return Err(v.op_error(
            op,
            "operand count and affine map dimension and symbol count must match",
        ));
    }
    if m.results.len() != 1 {
        return Err(v.op_error(op, "mapping must produce one value"));
    }
    let scope = affine_scope(ctx, ir, op);
    for &x in &operands[m.num_dims as usize..] {
        if is_valid_dim_in(ctx, ir, x, scope) && !is_valid_symbol_in(ctx, ir, x, scope) {
            return Err(v.error(op, "dimensional operand cannot be used as a symbol"));
        }
    }
    Ok(())
}

/// Operands "variadic of index" and results "index", as ODS checks them
/// for `affine.apply`, `min` and `max`.
fn verify_index_values(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    for (i, x) in ir.operands(op).enumerate() {
        let t = ir.value_type(x);
        if !is_index(ctx, t) {
            let msg = format!(
                "operand #{i} must be variadic of index, but got '{}'",
                type_to_string(ctx, t)
            );
            return Err(v.op_error(op, msg));
        }
    }
    for (i, x) in ir.results(op).enumerate() {
        let t = ir.value_type(x);
        if !is_index(ctx, t) {
            let msg = format!(
                "result #{i} must be index, but got '{}'",
                type_to_string(ctx, t)
            );
            return Err(v.op_error(op, msg));
        }
    }
    Ok(())
}

/// `affine.min`/`affine.max`: one operand per map input, some result.
pub fn verify_min_max(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    verify_index_values(v, op)?;
    let (ctx, ir) = (v.ctx(), v.ir());
    let Some(m) = map_of(ctx, inherent_attr(ctx, ir, op, "map")) else {
        return Err(v.op_error(op, "requires attribute 'map'"));
    };
    if ir.num_operands(op) != (m.num_dims + m.num_symbols) as usize {
        return Err(v.op_error(
            op,
            "operand count and affine map dimension and symbol count must match",
        ));
    }
    if m.results.is_empty() {
        return Err(v.op_error(op, "affine map expect at least one result"));
    }
    Ok(())
}

/// `affine.load`/`affine.store`: the value is of the element type, the
/// map has one result per dimension and an index subscript per input,
/// each a valid dimension or symbol.
pub fn verify_load_store(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let is_store = ctx.str(ir.op_name(op)) == "affine.store";
    let memref_at = usize::from(is_store);
    let operands: Vec<ValueId> = ir.operands(op).collect();
    let Some(&memref) = operands.get(memref_at) else {
        return Ok(());
    };
    let Some((element, rank)) = memref_parts(ctx, ir.value_type(memref)) else {
        return Ok(());
    };
    let value = if is_store {
        operands.first().map(|&x| ir.value_type(x))
    } else {
        ir.results(op).next().map(|x| ir.value_type(x))
    };
    if value.is_some_and(|t| t != element) {
        let msg = if is_store {
            "value to store must have the same type as memref element type"
        } else {
            "result type must match element type of memref"
        };
        return Err(v.op_error(op, msg));
    }
    let Some(m) = map_of(ctx, inherent_attr(ctx, ir, op, "map")).cloned() else {
        return Err(v.op_error(op, "requires attribute 'map'"));
    };
    if m.results.len() != rank {
        return Err(v.op_error(op, "affine map num results must equal memref rank"));
    }
    let subscripts = &operands[memref_at + 1..];
    if subscripts.len() != (m.num_dims + m.num_symbols) as usize {
        return Err(v.op_error(op, "expects as many subscripts as affine map inputs"));
    }
    if subscripts.iter().any(|&x| !is_index(ctx, ir.value_type(x))) {
        return Err(v.op_error(op, "index to load must have 'index' type"));
    }
    check_identifiers(v, op, subscripts, m.num_dims as usize)
}

/// Whether each of `values` is a valid dimension or symbol at `op` (a
/// valid symbol is a valid dimension too).
fn valid_index_operands(ctx: &Context, ir: &Ir, op: OpId, values: &[ValueId]) -> bool {
    let scope = affine_scope(ctx, ir, op);
    values.iter().all(|&x| is_valid_dim_in(ctx, ir, x, scope))
}

/// `affine.prefetch`: a map over the memref's rank and a valid subscript
/// per map input.
pub fn verify_prefetch(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let operands: Vec<ValueId> = ir.operands(op).collect();
    let Some((_, rank)) = operands
        .first()
        .and_then(|&m| memref_parts(ctx, ir.value_type(m)))
    else {
        return Ok(());
    };
    if let Some(m) = map_of(ctx, inherent_attr(ctx, ir, op, "map")) {
        if m.results.len() != rank {
            return Err(v.op_error(
                op,
                "affine.prefetch affine map num results must equal memref rank",
            ));
        }
        if (m.num_dims + m.num_symbols) as usize + 1 != operands.len() {
            return Err(v.op_error(op, "too few operands"));
        }
    } else if operands.len() != 1 {
        return Err(v.op_error(op, "too few operands"));
    }
    if !valid_index_operands(ctx, ir, op, &operands[1..]) {
        return Err(v.op_error(op, "index must be a valid dimension or symbol identifier"));
    }
    Ok(())
}

/// `affine.for`: an index induction variable, valid bound operands and
/// bound maps with results.
pub fn verify_for(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let iv = ir
        .regions(op)
        .next()
        .and_then(|r| ir.entry_block(r))
        .and_then(|b| ir.block_args(b).first().copied());
    if !iv.is_some_and(|x| is_index(ctx, ir.value_type(x))) {
        return Err(v.op_error(
            op,
            "expected body to have a single index argument for the induction variable",
        ));
    }
    let sizes = segment_sizes(ctx, ir, op).unwrap_or_default();
    let operands: Vec<ValueId> = ir.operands(op).collect();
    let (lb_n, ub_n) = (
        sizes.first().copied().unwrap_or(0),
        sizes.get(1).copied().unwrap_or(0),
    );
    let maps = ["lowerBoundMap", "upperBoundMap"]
        .map(|k| map_of(ctx, inherent_attr(ctx, ir, op, k)).cloned());
    let ranges = [0..lb_n, lb_n..lb_n + ub_n];
    for (m, range) in maps.iter().zip(ranges) {
        let Some(m) = m else {
            continue;
        };
        if m.num_dims + m.num_symbols > 0 {
            let bound = operands.get(range).unwrap_or(&[]);
            check_identifiers(v, op, bound, m.num_dims as usize)?;
        }
    }
    for (m, which) in maps.iter().zip(["lower", "upper"]) {
        if m.as_ref().is_some_and(|m| m.results.is_empty()) {
            let msg = format!("expected {which} bound map to have at least one result");
            return Err(v.op_error(op, msg));
        }
    }
    Ok(())
}

/// `affine.if`: one valid operand per condition input.
pub fn verify_if(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let set = inherent_attr(ctx, ir, op, "condition").and_then(|a| match ctx.attr_kind(a) {
        AttrKind::IntegerSet(s) => Some((s.num_dims, s.num_symbols)),
        _ => None,
    });
    let Some((dims, syms)) = set else {
        return Err(v.op_error(op, "requires an integer set attribute named 'condition'"));
    };
    let operands: Vec<ValueId> = ir.operands(op).collect();
    if operands.len() != (dims + syms) as usize {
        return Err(v.op_error(
            op,
            "operand count and condition integer set dimension and symbol count must match",
        ));
    }
    check_identifiers(v, op, &operands, dims as usize)
}

/// The number of inputs of the map attribute `key`.
fn map_inputs(ctx: &Context, ir: &Ir, op: OpId, key: &str) -> usize {
    map_of(ctx, inherent_attr(ctx, ir, op, key))
        .map_or(0, |m| (m.num_dims + m.num_symbols) as usize)
}

/// `affine.dma_start`/`affine.dma_wait`: every subscript is a valid
/// dimension or symbol.
pub fn verify_dma(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let operands: Vec<ValueId> = ir.operands(op).collect();
    let groups: &[(&str, &str)] = if ctx.str(ir.op_name(op)) == "affine.dma_start" {
        &[
            ("src_map", "src "),
            ("dst_map", "dst "),
            ("tag_map", "tag "),
        ]
    } else {
        &[("tag_map", "")]
    };
    let mut at = 0;
    for (key, what) in groups {
        let n = map_inputs(ctx, ir, op, key);
        let subscripts = operands.get(at + 1..at + 1 + n).unwrap_or(&[]);
        if !valid_index_operands(ctx, ir, op, subscripts) {
            let msg = format!("{what}index must be a valid dimension or symbol identifier");
            return Err(v.op_error(op, msg));
        }
        at += 1 + n;
    }
    Ok(())
}

/// `affine.yield` yields its parent's result types.
pub fn verify_yield(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let ir = v.ir();
    let Some(parent) = ir.parent_op(op) else {
        return Ok(());
    };
    if ir.num_results(parent) != ir.num_operands(op) {
        return Err(v.op_error(
            op,
            "parent of yield must have same number of results as the yield operands",
        ));
    }
    let same = ir
        .results(parent)
        .zip(ir.operands(op))
        .all(|(r, x)| ir.value_type(r) == ir.value_type(x));
    if !same {
        return Err(v.op_error(op, "types mismatch between yield op and its parent"));
    }
    Ok(())
}

/// The `static_basis` of a (de)linearization and its number of dynamic
/// entries.
fn static_basis(ctx: &Context, ir: &Ir, op: OpId) -> (Vec<i64>, usize) {
    let basis = inherent_attr(ctx, ir, op, "static_basis")
        .and_then(|a| ctx.int_array_values(a))
        .unwrap_or_default();
    let dynamic = basis
        .iter()
        .filter(|&&b| b == silica_ir::types::DYNAMIC)
        .count();
    (basis, dynamic)
}

fn dynamic_basis_error(given: usize, markers: usize) -> String {
    format!(
        "expected number of dynamic basis values to match number of dynamic markers, but got {given} dynamic basis values and {markers} dynamic markers"
    )
}

/// `affine.delinearize_index`: an index per basis element (and maybe one
/// more), a value per dynamic basis element, and no non-positive static
/// basis element.
pub fn verify_delinearize(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let (basis, markers) = static_basis(ctx, ir, op);
    let results = ir.num_results(op);
    if results != basis.len() && results != basis.len() + 1 {
        return Err(v.op_error(
            op,
            "should return an index for each basis element and up to one extra index",
        ));
    }
    let given = ir.num_operands(op).saturating_sub(1);
    if given != markers {
        return Err(v.op_error(op, dynamic_basis_error(given, markers)));
    }
    if basis
        .iter()
        .any(|&b| b <= 0 && b != silica_ir::types::DYNAMIC)
    {
        return Err(v.op_error(op, "no basis element may be statically non-positive"));
    }
    Ok(())
}

/// `affine.linearize_index`: a basis element per index (but maybe the
/// first), and a value per dynamic basis element.
pub fn verify_linearize(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let (basis, markers) = static_basis(ctx, ir, op);
    let sizes = segment_sizes(ctx, ir, op).unwrap_or_default();
    let (indices, given) = (
        sizes.first().copied().unwrap_or(0),
        sizes.get(1).copied().unwrap_or(0),
    );
    if indices != basis.len() && indices != basis.len() + 1 {
        return Err(v.op_error(
            op,
            "should be passed a basis element for each index except possibly the first",
        ));
    }
    if given != markers {
        return Err(v.op_error(op, dynamic_basis_error(given, markers)));
    }
    Ok(())
}
