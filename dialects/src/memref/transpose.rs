//! `memref.transpose`: a permutation of a strided memref's sizes and
//! strides, written `%v (d0, d1) -> (d1, d0) : type to type`, and the
//! canonical strided layouts its verifier compares (MLIR's
//! `canonicalizeStridedLayout`).

use crate::memref::layout::strides_and_offset;
use crate::memref::verify::{ranked, strided_memref};
use silica_ir::affine::{AffineExpr, AffineMap};
use silica_ir::affine_flatten::simplify_expr;
use silica_ir::dialect::{inherent_attr, Effects, OpDef};
use silica_ir::parser::{AsmParser, PResult};
use silica_ir::printer::{type_to_string, AsmPrinter};
use silica_ir::types::DYNAMIC;
use silica_ir::verify::OpVerifier;
use silica_ir::{AttrKind, Context, OpId, OpSpec, Type, TypeKind};

const PERMUTATION: &str = "permutation";

fn parse_transpose(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let input = p.parse_operand()?;
    let permutation = p.parse_affine_map()?;
    let attrs = p.parse_optional_attr_dict()?;
    p.expect(silica_ir::lexer::Tok::Colon, "':'")?;
    let src = p.parse_type()?;
    let operand = p.resolve_operand(input, src)?;
    p.expect_keyword("to")?;
    let dst = p.parse_type()?;
    let loc = p.op_loc();
    let ctx = p.ctx();
    let key = ctx.sym(PERMUTATION);
    let props = ctx.dict_attr(vec![(key, permutation)]);
    let name = ctx.sym("memref.transpose");
    Ok(p.create_op(OpSpec {
        name,
        loc,
        operands: &[operand],
        result_types: &[dst],
        successors: &[],
        regions: &[],
        attrs,
        props: Some(props),
    }))
}

fn print_transpose(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let ir = p.ir();
    let input = ir.operand(op, 0);
    p.write(" ");
    p.operand(input);
    if let Some(a) = inherent_attr(p.ctx(), ir, op, PERMUTATION) {
        if let AttrKind::AffineMap(m) = p.ctx().attr_kind(a) {
            let mut text = String::from(" ");
            silica_ir::affine::print_map(&mut text, m);
            p.write(&text);
        }
    }
    p.attr_dict(ir.op_attrs(op), &[], false);
    p.write(" : ");
    p.ty(ir.value_type(input));
    p.write(" to ");
    p.ty(ir.value_type(ir.result(op, 0)));
}

/// The dimension each result of `m` is, if `m` permutes its dimensions.
pub fn permutation_of(m: &AffineMap) -> Option<Vec<usize>> {
    if m.results.len() != m.num_dims as usize {
        return None;
    }
    let mut seen = vec![false; m.num_dims as usize];
    m.results
        .iter()
        .map(|e| match e {
            AffineExpr::Dim(d) if !std::mem::replace(&mut seen[*d as usize], true) => {
                Some(*d as usize)
            }
            _ => None,
        })
        .collect()
}

/// The single-result layout map of a strided layout (MLIR's
/// `makeStridedLinearLayoutMap`): one symbol per dynamic offset or stride.
fn strided_linear_map(strides: &[i64], offset: i64) -> AffineMap {
    let mut symbols = 0;
    let mut next_symbol = || {
        symbols += 1;
        AffineExpr::Symbol(symbols - 1)
    };
    let mut expr = if offset == DYNAMIC {
        next_symbol()
    } else {
        AffineExpr::Constant(offset)
    };
    for (d, &s) in strides.iter().enumerate() {
        let stride = if s == DYNAMIC {
            next_symbol()
        } else {
            AffineExpr::Constant(s)
        };
        expr = expr.plus(AffineExpr::Dim(d as u32).times(stride));
    }
    AffineMap {
        num_dims: strides.len() as u32,
        num_symbols: symbols,
        results: Box::new([expr]),
    }
}

/// The row-major layout expression of `shape`, a symbol for each stride
/// after a dynamic size (MLIR's `makeCanonicalStridedLayoutExpr`).
fn canonical_layout_expr(shape: &[i64]) -> (AffineExpr, u32) {
    let mut symbols = 0;
    let mut expr: Option<AffineExpr> = None;
    let mut running = 1i64;
    let mut dynamic = false;
    for (d, &size) in shape.iter().enumerate().rev() {
        let stride = if dynamic {
            symbols += 1;
            AffineExpr::Symbol(symbols - 1)
        } else {
            AffineExpr::Constant(running)
        };
        let term = AffineExpr::Dim(d as u32).times(stride);
        expr = Some(match expr {
            Some(e) => e.plus(term),
            None => term,
        });
        if size > 0 {
            running = running.wrapping_mul(size);
        } else {
            dynamic = true;
        }
    }
    let expr = expr.unwrap_or(AffineExpr::Constant(0));
    (simplify_expr(&expr, shape.len() as u32, symbols), symbols)
}

/// The terms of a sum of `c`, `c * dim`, `c * sym` and `c * dim * sym`
/// terms, gathered: (dimension, symbol and product coefficients, constant).
#[derive(Default)]
struct LayoutTerms {
    dims: std::collections::BTreeMap<u32, i64>,
    syms: std::collections::BTreeMap<u32, i64>,
    products: std::collections::BTreeMap<(u32, u32), i64>,
    constant: i64,
}

impl LayoutTerms {
    /// Adds `coef * e`; false when `e` is not such a term.
    fn add(&mut self, e: &AffineExpr, coef: i64) -> bool {
        use silica_ir::affine::BinOp;
        match e {
            AffineExpr::Constant(c) => self.constant += coef * c,
            AffineExpr::Dim(i) => *self.dims.entry(*i).or_default() += coef,
            AffineExpr::Symbol(j) => *self.syms.entry(*j).or_default() += coef,
            AffineExpr::Binary(b) => match &**b {
                (BinOp::Add, l, r) => return self.add(l, coef) && self.add(r, coef),
                (BinOp::Mul, x, AffineExpr::Constant(c)) => return self.add(x, coef * c),
                (BinOp::Mul, AffineExpr::Dim(i), AffineExpr::Symbol(j))
                | (BinOp::Mul, AffineExpr::Symbol(j), AffineExpr::Dim(i)) => {
                    *self.products.entry((*i, *j)).or_default() += coef;
                }
                _ => return false,
            },
        }
        true
    }
}

/// `e` simplified as MLIR simplifies a layout expression: pure affine
/// ones by flattening, semi-affine sums of dimension-times-symbol terms
/// reordered as MLIR's `getSemiAffineExprFromFlatForm` orders them (by
/// dimension: the dimension, its products, then symbols of that
/// position); other semi-affine expressions are kept.
fn simplify_layout_expr(e: &AffineExpr, num_dims: u32, num_symbols: u32) -> AffineExpr {
    if e.is_pure_affine() {
        return simplify_expr(e, num_dims, num_symbols);
    }
    let mut terms = LayoutTerms::default();
    if !terms.add(e, 1) {
        return e.clone();
    }
    let symbol_key = i64::from(num_dims.max(num_symbols));
    let mut keyed: Vec<((u32, i64), AffineExpr, i64)> = Vec::new();
    for (&j, &c) in &terms.syms {
        keyed.push(((j, symbol_key), AffineExpr::Symbol(j), c));
    }
    for (&(i, j), &c) in &terms.products {
        let product = AffineExpr::Dim(i).times(AffineExpr::Symbol(j));
        keyed.push(((i, i64::from(j)), product, c));
    }
    for (&i, &c) in &terms.dims {
        keyed.push(((i, -1), AffineExpr::Dim(i), c));
    }
    keyed.retain(|(_, _, c)| *c != 0);
    keyed.sort_by_key(|(k, _, _)| *k);
    let mut out = AffineExpr::Constant(0);
    for (_, term, c) in keyed {
        out = out.plus(term.times(AffineExpr::Constant(c)));
    }
    if terms.constant != 0 {
        out = out.plus(AffineExpr::Constant(terms.constant));
    }
    out
}

/// `t` with its strided layout written as the simplest affine map, or
/// none when that map is the row-major one.
fn canonical_strided(ctx: &mut Context, t: Type) -> Type {
    let TypeKind::MemRef {
        shape,
        element,
        layout,
        memory_space,
    } = ctx.type_kind(t).clone()
    else {
        return t;
    };
    let map = match layout.map(|a| ctx.attr_kind(a)) {
        None => return t,
        Some(AttrKind::AffineMap(m)) => m.clone(),
        Some(AttrKind::StridedLayout { offset, strides }) => strided_linear_map(strides, *offset),
        Some(_) => return t,
    };
    let identity = map.results.len() == map.num_dims as usize
        && map
            .results
            .iter()
            .enumerate()
            .all(|(i, e)| *e == AffineExpr::Dim(i as u32));
    if identity || map.results.len() > 1 {
        return t;
    }
    let with_layout = |ctx: &mut Context, layout| {
        ctx.intern_type(TypeKind::MemRef {
            shape: shape.clone(),
            element,
            layout,
            memory_space,
        })
    };
    if map.num_dims == 0 && map.num_symbols == 0 {
        return match map.results[0] {
            AffineExpr::Constant(0) => with_layout(ctx, None),
            _ => t,
        };
    }
    if shape.is_empty() {
        return t;
    }
    let simplified = simplify_layout_expr(&map.results[0], map.num_dims, map.num_symbols);
    let (canonical, _) = canonical_layout_expr(&shape);
    if canonical == simplified {
        return with_layout(ctx, None);
    }
    let map = AffineMap {
        num_dims: map.num_dims,
        num_symbols: map.num_symbols,
        results: Box::new([simplified]),
    };
    let layout = ctx.intern_attr(AttrKind::AffineMap(map));
    with_layout(ctx, Some(layout))
}

/// `memref.transpose`: a permutation of the input's rank, and a result
/// type equivalent to the permuted input.
fn verify_transpose(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    v.check_counts(op, 0, 1, 1, false)?;
    let ir = v.ir();
    let src = ir.value_type(ir.operand(op, 0));
    let result = ir.value_type(ir.result(op, 0));
    for (what, t) in [("operand #0", src), ("result #0", result)] {
        if strides_and_offset(v.ctx(), t).is_none() {
            let msg = format!(
                "{what} must be strided memref of any type values, but got '{}'",
                type_to_string(v.ctx(), t)
            );
            return Err(v.op_error(op, msg));
        }
    }
    let map =
        inherent_attr(v.ctx(), ir, op, PERMUTATION).and_then(|a| match v.ctx().attr_kind(a) {
            AttrKind::AffineMap(m) => Some(m.clone()),
            _ => None,
        });
    let Some(map) = map else {
        return Err(v.op_error(op, "requires attribute 'permutation'"));
    };
    let Some(order) = permutation_of(&map) else {
        return Err(v.op_error(op, "expected a permutation map"));
    };
    let (Some(input), Some((strides, offset))) =
        (ranked(v.ctx(), src), strides_and_offset(v.ctx(), src))
    else {
        return Ok(());
    };
    if order.len() != input.shape.len() {
        return Err(v.op_error(op, "expected a permutation map of same rank as the input"));
    }
    let sizes: Vec<i64> = order.iter().map(|&d| input.shape[d]).collect();
    let strides: Vec<i64> = order.iter().map(|&d| strides[d]).collect();
    let ctx = v.ctx_mut()?;
    let inferred = strided_memref(ctx, &sizes, input.element, offset, &strides, input.space);
    let expected = canonical_strided(ctx, inferred);
    let actual = canonical_strided(ctx, result);
    if actual != expected {
        let ctx = v.ctx();
        let msg = format!(
            "result type '{}' is not equivalent to the canonical transposed input type '{}'",
            type_to_string(ctx, actual),
            type_to_string(ctx, expected)
        );
        return Err(v.op_error(op, msg));
    }
    Ok(())
}

/// `memref.transpose`: by the identity to its own type is its input; of
/// another transpose, it transposes that one's input by the composed
/// permutation.
fn fold_transpose(
    fc: &mut silica_ir::rewrite::FoldCtx<'_>,
    op: OpId,
    _: &[Option<silica_ir::Attr>],
) -> silica_ir::rewrite::FoldResult {
    use silica_ir::rewrite::FoldResult;
    let perm_of = |o: OpId| -> Option<Vec<usize>> {
        match fc
            .ctx
            .attr_kind(inherent_attr(fc.ctx, fc.ir, o, PERMUTATION)?)
        {
            AttrKind::AffineMap(m) => permutation_of(m),
            _ => None,
        }
    };
    let Some(perm) = perm_of(op) else {
        return FoldResult::Fail;
    };
    let input = fc.ir.operand(op, 0);
    let identity = perm.iter().enumerate().all(|(i, &p)| i == p);
    if identity && fc.ir.value_type(input) == fc.ir.value_type(fc.ir.result(op, 0)) {
        return FoldResult::value(input);
    }
    let inner = fc
        .ir
        .defining_op(input)
        .filter(|&d| fc.ctx.str(fc.ir.op_name(d)) == "memref.transpose");
    let Some((inner, inner_perm)) = inner.and_then(|d| Some((d, perm_of(d)?))) else {
        return FoldResult::Fail;
    };
    let composed: Vec<AffineExpr> = perm
        .iter()
        .map(|&p| AffineExpr::Dim(inner_perm[p] as u32))
        .collect();
    let map = AffineMap {
        num_dims: perm.len() as u32,
        num_symbols: 0,
        results: composed.into(),
    };
    let original = fc.ir.operand(inner, 0);
    let attr = fc.ctx.intern_attr(AttrKind::AffineMap(map));
    silica_ir::dialect::set_inherent_attr(fc.ctx, fc.ir, op, PERMUTATION, attr);
    fc.ir.set_operand(op, 0, original);
    FoldResult::InPlace
}

pub const TRANSPOSE: OpDef = OpDef {
    fold: Some(fold_transpose),
    parse: Some(parse_transpose),
    print: Some(print_transpose),
    verify: Some(verify_transpose),
    inherent_attrs: &[PERMUTATION],
    result_names: Some(|_, _, _| Some("transpose".into())),
    effects: Effects::None,
    ..OpDef::new("memref.transpose")
};
