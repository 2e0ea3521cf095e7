//! A buffered memory's products by one scalar, moved into its copy.
//!
//! Where every read of a buffered memory is multiplied by one scalar
//! argument (`alpha * A[i][k]`), or where the first thing the kernel
//! does to each element is to scale it in place by one (`C[i][j] *=
//! beta`, before anything else reads or writes that element; over the
//! whole array, or a part the loops' bounds give, as `j <= i`), the copy
//! that reads the memory in multiplies each element (of that part) by
//! the scalar as it stores it, and the body's products go. They then run once an element,
//! in the copy loop, instead of in the body's pipelines, where (repeated
//! across the iterations that reuse an element, or sunk into a flattened
//! nest and predicated) they take a multiplier every iteration. The
//! values are the same: the same product of the same operands, once.

use silica_affine::for_op::{self, Bound};
use silica_affine::fusion::graph::{ancestor_in_block, is_before_in_block};
use silica_affine::region::affine_access;
use silica_ir::affine::AffineExpr;
use silica_ir::{Attr, BlockId, Context, Ir, OpId, OpSpec, Symbol, ValueDef, ValueId};

/// The product a memory's copy applies as it reads the memory in.
pub(super) struct Fold {
    /// The scalar: an argument of the function.
    pub factor: ValueId,
    /// The body's product's operation (name, attributes, properties).
    op: (Symbol, Attr, Option<Attr>),
    /// Whether the scalar was the product's first operand.
    factor_first: bool,
    /// The elements it applies to: those where every expression (over
    /// the element's indices, `d0` the first) is at least 0; every
    /// element where there are none.
    pub domain: Vec<AffineExpr>,
}

impl Fold {
    /// A detached product of `value` (an element read in) by the
    /// scalar, of `value`'s type.
    pub fn product(&self, ir: &mut Ir, value: ValueId, loc: Attr) -> OpId {
        let ty = ir.value_type(value);
        let operands = if self.factor_first {
            [self.factor, value]
        } else {
            [value, self.factor]
        };
        let (name, attrs, props) = self.op;
        ir.create_op(OpSpec {
            name,
            loc,
            operands: &operands,
            result_types: &[ty],
            successors: &[],
            regions: &[],
            attrs,
            props,
        })
    }
}

/// Moves the products by one scalar of the memory `memref` (every use a
/// load or store; `entry` the function's entry block, `shape` the
/// memory's) out of the body, where the copy can apply them instead:
/// gives the product the copy applies, or `None` where nothing moved.
pub(super) fn fold(
    ctx: &Context,
    ir: &mut Ir,
    entry: BlockId,
    memref: ValueId,
    shape: &[i64],
) -> Option<Fold> {
    let users: Vec<OpId> = ir.uses(memref).map(|u| ir.use_owner(u)).collect();
    if let Some((fold, products)) = reads_scaled(ctx, ir, entry, &users) {
        for (product, load) in products {
            ir.replace_all_uses(ir.result(product, 0), ir.result(load, 0));
            ir.erase_op(product);
        }
        return Some(fold);
    }
    let (fold, [load, product, store]) = first_touch_scaled(ctx, ir, entry, shape, &users)?;
    // A loop the scaling alone made up stays, empty: lifting drops it
    // (and the other loops keep their positions in report paths).
    ir.erase_op(store);
    ir.erase_op(product);
    ir.erase_op(load);
    Some(fold)
}

/// Where `op` multiplies `value` by an argument of `entry`: the product.
fn product_by_argument(
    ctx: &Context,
    ir: &Ir,
    entry: BlockId,
    op: OpId,
    value: ValueId,
) -> Option<Fold> {
    if !matches!(ctx.str(ir.op_name(op)), "arith.muli" | "arith.mulf") || ir.num_operands(op) != 2 {
        return None;
    }
    let is_argument =
        |v: ValueId| matches!(ir.value_def(v), ValueDef::Argument { block, .. } if block == entry);
    let (a, b) = (ir.operand(op, 0), ir.operand(op, 1));
    let factor_first = match (a == value, b == value) {
        (false, true) if is_argument(a) => true,
        (true, false) if is_argument(b) => false,
        _ => return None,
    };
    Some(Fold {
        factor: if factor_first { a } else { b },
        op: (ir.op_name(op), ir.op_attrs(op), ir.op_props(op)),
        factor_first,
        domain: Vec::new(),
    })
}

/// A memory only read, every read used only by products by one scalar:
/// that product and each product with its load.
fn reads_scaled(
    ctx: &Context,
    ir: &Ir,
    entry: BlockId,
    users: &[OpId],
) -> Option<(Fold, Vec<(OpId, OpId)>)> {
    let mut fold: Option<Fold> = None;
    let mut products = Vec::new();
    for &load in users {
        if !matches!(ctx.str(ir.op_name(load)), "affine.load" | "memref.load") {
            return None;
        }
        let value = ir.result(load, 0);
        for u in ir.uses(value) {
            let product = ir.use_owner(u);
            let f = product_by_argument(ctx, ir, entry, product, value)?;
            // One scalar, and one operation (its flags too) for all.
            if fold
                .as_ref()
                .is_some_and(|g| g.factor != f.factor || g.op != f.op)
            {
                return None;
            }
            fold.get_or_insert(f);
            products.push((product, load));
        }
    }
    Some((fold?, products))
}

/// A store of `load * scalar` back where `load` read, in a nest whose
/// loops (of step 1, bounded by the counters of the loops around them)
/// each index one dimension of the memory, so that it scales each
/// element it reaches once (its domain); every other access of the
/// memory after it in the program order of the loops they share and, in
/// those loops' dimensions, at their counters, so that each element it
/// reaches is scaled before anything else touches it. Gives the product
/// the copy applies, and the load, product and store it replaces.
fn first_touch_scaled(
    ctx: &Context,
    ir: &Ir,
    entry: BlockId,
    shape: &[i64],
    users: &[OpId],
) -> Option<(Fold, [OpId; 3])> {
    users.iter().find_map(|&store| {
        let (_, map, operands, true) = affine_access(ctx, ir, store)? else {
            return None;
        };
        let product = ir.defining_op(ir.operand(store, 0))?;
        let load = (0..ir.num_operands(product))
            .filter_map(|i| ir.defining_op(ir.operand(product, i)))
            .find(|l| users.contains(l))?;
        let (_, load_map, load_operands, false) = affine_access(ctx, ir, load)? else {
            return None;
        };
        let single_use = |v: ValueId| ir.uses(v).count() == 1;
        if load_map != map
            || load_operands != operands
            || ir.op_block(load) != ir.op_block(store)
            || !single_use(ir.result(load, 0))
            || !single_use(ir.result(product, 0))
        {
            return None;
        }
        let mut fold = product_by_argument(ctx, ir, entry, product, ir.result(load, 0))?;
        // Each dimension's counter, and the loops around the store.
        let counters = dimension_counters(&map.results, &operands)?;
        let loops = nest_loops(ctx, ir, store, entry)?;
        fold.domain = domain(ir, &loops, &counters, shape)?;
        let others_after = users
            .iter()
            .filter(|&&x| x != load && x != store)
            .all(|&x| follows_at_shared_counters(ctx, ir, x, store, &loops, &counters, entry));
        others_after.then_some((fold, [load, product, store]))
    })
}

/// The elements the loops `loops` (around a store at `counters`, one a
/// dimension) reach, as constraints over the element's indices (none
/// where they reach every element of `shape`); `None` where a loop does
/// not index a dimension of its own, or a bound depends on anything
/// but the loops' counters.
fn domain(
    ir: &Ir,
    loops: &[(OpId, Bound, Bound)],
    counters: &[ValueId],
    shape: &[i64],
) -> Option<Vec<AffineExpr>> {
    if loops.len() != shape.len() {
        return None;
    }
    let dim_of = |v: ValueId| counters.iter().position(|&c| c == v);
    let mut out = Vec::new();
    for (l, lower, upper) in loops {
        let d = dim_of(for_op::induction_var(ir, *l)?)?;
        if lower.as_constant() == Some(0) && upper.as_constant() == Some(shape[d]) {
            continue;
        }
        let index = AffineExpr::Dim(d as u32);
        for (bound, is_lower) in [(lower, true), (upper, false)] {
            let n = bound.map.num_dims as usize;
            let ids: Vec<AffineExpr> = (bound.operands.iter())
                .map(|&v| dim_of(v).map(|k| AffineExpr::Dim(k as u32)))
                .collect::<Option<_>>()?;
            let (dims, syms) = ids.split_at(n.min(ids.len()));
            for e in bound.map.results.iter() {
                let e = e.replace(dims, syms);
                out.push(if is_lower {
                    index.clone().minus(e)
                } else {
                    e.minus(AffineExpr::Constant(1)).minus(index.clone())
                });
            }
        }
    }
    Some(out)
}

/// The operand each of `results` is (a distinct one each), or `None`
/// where one is not a plain dimension.
fn dimension_counters(results: &[AffineExpr], operands: &[ValueId]) -> Option<Vec<ValueId>> {
    let mut out: Vec<ValueId> = Vec::new();
    for e in results {
        let AffineExpr::Dim(q) = e else {
            return None;
        };
        let v = *operands.get(*q as usize)?;
        if out.contains(&v) {
            return None;
        }
        out.push(v);
    }
    Some(out)
}

/// The loops around `op` up to the block `entry`, innermost first, with
/// their bounds: `None` where one is not an `affine.for` of step 1 (or
/// something else encloses `op`).
fn nest_loops(
    ctx: &Context,
    ir: &Ir,
    op: OpId,
    entry: BlockId,
) -> Option<Vec<(OpId, Bound, Bound)>> {
    let mut out = Vec::new();
    let mut at = op;
    while ir.op_block(at) != Some(entry) {
        let l = ir.parent_op(at)?;
        if !for_op::is_for(ctx, ir, l) || for_op::step(ctx, ir, l) != 1 {
            return None;
        }
        let (lower, upper) = for_op::bounds(ctx, ir, l)?;
        out.push((l, lower, upper));
        at = l;
    }
    Some(out)
}

/// Whether the access `x` comes after `store` in the body of the
/// innermost of `loops` (around `store`, innermost first) that also
/// encloses `x` (the function's body where none does), and indexes each
/// dimension that one of those shared loops indexes in `store`
/// (`counters`) by that loop's counter too.
fn follows_at_shared_counters(
    ctx: &Context,
    ir: &Ir,
    x: OpId,
    store: OpId,
    loops: &[(OpId, Bound, Bound)],
    counters: &[ValueId],
    entry: BlockId,
) -> bool {
    let Some((_, map, operands, _)) = affine_access(ctx, ir, x) else {
        return false;
    };
    let shared: Vec<OpId> = loops
        .iter()
        .map(|(l, _, _)| *l)
        .filter(|&l| ir.is_ancestor(l, x))
        .collect();
    let block = match shared.first() {
        Some(&l) => for_op::body(ir, l),
        None => Some(entry),
    };
    let Some(block) = block else {
        return false;
    };
    let (Some(from_store), Some(from_x)) = (
        ancestor_in_block(ir, store, block),
        ancestor_in_block(ir, x, block),
    ) else {
        return false;
    };
    if !is_before_in_block(ir, from_store, from_x) {
        return false;
    }
    counters.iter().enumerate().all(|(dim, &v)| {
        let by_shared = shared
            .iter()
            .any(|&l| for_op::induction_var(ir, l) == Some(v));
        !by_shared
            || matches!(map.results.get(dim), Some(AffineExpr::Dim(q))
                if operands.get(*q as usize) == Some(&v))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use silica_ir::parser::{parse, ParseOptions};

    /// Folds the products of the `index`th argument of `text`'s function
    /// `f`: the scalar's argument position, and how many products by a
    /// scalar are left in the body.
    fn folded(text: &str, index: usize) -> (Option<u32>, usize) {
        let mut ctx = crate::test_support::context();
        let mut m = parse(&mut ctx, "t.mlir", text.as_bytes(), ParseOptions::default())
            .unwrap_or_else(|d| panic!("{}", d.message));
        let func = crate::flow::front::find_top(&ctx, &m.ir, m.top, "f").unwrap();
        let entry =
            m.ir.entry_block(m.ir.regions(func).next().unwrap())
                .unwrap();
        let memref = m.ir.block_args(entry)[index];
        let shape = silica_affine::region::memref_shape(&ctx, &m.ir, memref).unwrap();
        let fold = fold(&ctx, &mut m.ir, entry, memref, &shape);
        let position = fold.map(|f| match m.ir.value_def(f.factor) {
            ValueDef::Argument { index, .. } => index,
            _ => panic!("the scalar is an argument"),
        });
        let mut products = 0;
        let mut stack = vec![entry];
        while let Some(b) = stack.pop() {
            for op in m.ir.block_ops(b) {
                products += usize::from(ctx.str(m.ir.op_name(op)) == "arith.muli");
                for r in m.ir.regions(op) {
                    stack.extend(m.ir.entry_block(r));
                }
            }
        }
        (position, products)
    }

    const GEMM: &str = "func.func @f(%alpha: i32, %beta: i32, %C: memref<4x5xi32>,
        %A: memref<4x3xi32>, %B: memref<3x5xi32>) {
      affine.for %i = 0 to 4 {
        affine.for %j = 0 to 5 {
          %c = affine.load %C[%i, %j] : memref<4x5xi32>
          %s = arith.muli %c, %beta : i32
          affine.store %s, %C[%i, %j] : memref<4x5xi32>
        }
        affine.for %k = 0 to 3 {
          affine.for %j = 0 to 5 {
            %c = affine.load %C[%i, %j] : memref<4x5xi32>
            %a = affine.load %A[%i, %k] : memref<4x3xi32>
            %x = arith.muli %alpha, %a : i32
            %b = affine.load %B[%k, %j] : memref<3x5xi32>
            %p = arith.muli %x, %b : i32
            %t = arith.addi %c, %p : i32
            affine.store %t, %C[%i, %j] : memref<4x5xi32>
          }
        }
      }
      return
    }";

    #[test]
    fn reads_all_scaled_by_one_argument_are_scaled_in_the_copy() {
        // A's one read is multiplied by alpha: the product goes.
        assert_eq!(folded(GEMM, 3), (Some(0), 2));
        // B's read is multiplied by a product, not an argument.
        assert_eq!(folded(GEMM, 4), (None, 3));
    }

    #[test]
    fn reads_scaled_by_two_scalars_or_two_kinds_of_product_keep_them() {
        let two = GEMM.replace(
            "%b = affine.load %B[%k, %j] : memref<3x5xi32>",
            "%b0 = affine.load %B[%k, %j] : memref<3x5xi32>\n            %b = arith.muli %b0, %beta : i32\n            %b2 = affine.load %B[%j, %k] : memref<3x5xi32>\n            %b3 = arith.muli %alpha, %b2 : i32",
        );
        assert_ne!(two, GEMM);
        assert_eq!(folded(&two, 4), (None, 5));
        let flags = two.replace(
            "%b3 = arith.muli %alpha, %b2 : i32",
            "%b3 = arith.muli %beta, %b2 overflow<nsw> : i32",
        );
        assert_eq!(folded(&flags, 4), (None, 5));
        // The same scalar and operation for both: both go.
        let same = two.replace(
            "%b3 = arith.muli %alpha, %b2",
            "%b3 = arith.muli %beta, %b2",
        );
        assert_eq!(folded(&same, 4), (Some(1), 3));
    }

    #[test]
    fn float_reads_scaled_by_one_argument_are_scaled_in_the_copy() {
        let text = "func.func @f(%s: f32, %a: memref<8xf32>, %o: memref<8xf32>) {
          affine.for %i = 0 to 8 {
            %x = affine.load %a[%i] : memref<8xf32>
            %y = arith.mulf %x, %s fastmath<contract> : f32
            affine.store %y, %o[%i] : memref<8xf32>
          }
          return
        }";
        assert_eq!(folded(text, 1).0, Some(0));
    }

    #[test]
    fn a_scaling_before_any_other_access_is_the_copys() {
        // C[i][j] *= beta comes first for every element of C.
        assert_eq!(folded(GEMM, 2), (Some(1), 2));
    }

    #[test]
    fn a_scaling_of_some_elements_is_the_copys_for_those() {
        // Four of each row's five elements, then those on or below the
        // diagonal: the copy scales where the loops' bounds reach.
        let partial = GEMM.replacen("affine.for %j = 0 to 5", "affine.for %j = 0 to 4", 1);
        assert_eq!(folded(&partial, 2), (Some(1), 2));
        let triangle = GEMM.replacen(
            "affine.for %j = 0 to 5",
            "affine.for %j = 0 to affine_map<(d0) -> (d0 + 1)>(%i)",
            1,
        );
        assert_eq!(folded(&triangle, 2), (Some(1), 2));
        let mut ctx = crate::test_support::context();
        let mut m = parse(
            &mut ctx,
            "t.mlir",
            triangle.as_bytes(),
            ParseOptions::default(),
        )
        .unwrap_or_else(|d| panic!("{}", d.message));
        let func = crate::flow::front::find_top(&ctx, &m.ir, m.top, "f").unwrap();
        let entry =
            m.ir.entry_block(m.ir.regions(func).next().unwrap())
                .unwrap();
        let memref = m.ir.block_args(entry)[2];
        let f = fold(&ctx, &mut m.ir, entry, memref, &[4, 5]).unwrap();
        // Element (r, c) is scaled where c >= 0 and r - c >= 0.
        let holds = |r: i64, c: i64| f.domain.iter().all(|e| e.eval(&[r, c], &[]).unwrap() >= 0);
        assert!(holds(0, 0) && holds(3, 2) && holds(3, 3));
        assert!(!holds(0, 1) && !holds(2, 4));
        // A bound on something else than the loops' counters: kept.
        let symbolic = GEMM.replacen(
            "affine.for %j = 0 to 5",
            "%n = arith.index_cast %beta : i32 to index\n        affine.for %j = 0 to %n",
            1,
        );
        assert_eq!(folded(&symbolic, 2), (None, 3));
    }

    #[test]
    fn a_scaling_after_another_access_or_repeated_stays() {
        // The product reads C[i][j] before it is scaled.
        let late = GEMM.replace(
            "affine.for %i = 0 to 4 {\n        affine.for %j = 0 to 5 {",
            "affine.for %i = 0 to 4 {\n        %e = affine.load %C[0, 0] : memref<4x5xi32>\n        affine.store %e, %B[0, 0] : memref<3x5xi32>\n        affine.for %j = 0 to 5 {",
        );
        assert_ne!(late, GEMM);
        assert_eq!(folded(&late, 2), (None, 3));
        // Each element is scaled three times.
        let thrice = GEMM.replacen(
            "affine.for %j = 0 to 5 {",
            "affine.for %r = 0 to 3 {\n        affine.for %j = 0 to 5 {",
            1,
        );
        let thrice = thrice.replacen(
            "        }\n        affine.for %k",
            "        }\n        }\n        affine.for %k",
            1,
        );
        assert_eq!(thrice.matches('{').count(), thrice.matches('}').count());
        assert_eq!(folded(&thrice, 2), (None, 3));
    }
}
