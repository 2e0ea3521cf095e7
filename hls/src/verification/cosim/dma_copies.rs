//! DMA in the software side of a co-simulation. MLIR has no LLVM
//! lowering of `memref.dma_start`/`memref.dma_wait` (what `lower-affine`
//! makes of the affine ones), so before `convert-to-llvm` the software
//! path makes each start a plain copy at once and drops each wait: a
//! `scf.for` over the transferred words that loads from the source and
//! stores to the destination. Words run in row-major order from the
//! start elements; with a stride, the side in the slower memory space
//! (the lower space number; the source when they are equal, as the
//! hardware's engine has it) moves `per_stride` words every `stride`.
//! The program's order is kept, so a kernel that waits before it uses a
//! transfer's words computes what the hardware computes.

use silica_dialects::build::Builder;
use silica_ir::rewrite::{NoListener, Rewriter};
use silica_ir::types::DYNAMIC;
use silica_ir::{AttrKind, Context, Ir, OpId, OpSpec, Type, TypeKind, ValueId};

/// Shape, element type and memory space of a memref type.
fn memref_of(ctx: &Context, t: Type) -> Option<(Vec<i64>, Type, i64)> {
    let TypeKind::MemRef {
        shape,
        element,
        memory_space,
        ..
    } = ctx.type_kind(t)
    else {
        return None;
    };
    let space = match memory_space.map(|a| ctx.attr_kind(a)) {
        None => 0,
        Some(AttrKind::Integer { value, .. }) => i64::try_from(value).ok()?,
        Some(_) => return None,
    };
    Some((shape.to_vec(), *element, space))
}

/// Replaces every `memref.dma_start` under `top` by a copy loop and
/// erases every `memref.dma_wait`.
pub fn lower_dma_to_copies(ctx: &mut Context, ir: &mut Ir, top: OpId) -> Result<(), String> {
    let mut ops = Vec::new();
    ir.walk(top, &mut |op| ops.push(op));
    for op in ops {
        match ctx.str(ir.op_name(op)) {
            "memref.dma_start" => copy(ctx, ir, op)?,
            "memref.dma_wait" => ir.erase_op(op),
            _ => {}
        }
    }
    Ok(())
}

/// The row-major linear index of `idx` in `shape`.
fn linearize(b: &mut Builder<'_, '_>, idx: &[ValueId], shape: &[i64]) -> ValueId {
    let mut acc = b.index_const(0);
    for (&i, &d) in idx.iter().zip(shape) {
        let dim = b.index_const(d);
        let scaled = b.binary("arith.muli", acc, dim, None);
        acc = b.binary("arith.addi", scaled, i, None);
    }
    acc
}

/// The indices of linear index `lin` in `shape`.
fn delinearize(b: &mut Builder<'_, '_>, lin: ValueId, shape: &[i64]) -> Vec<ValueId> {
    let mut out = Vec::new();
    let mut stride = shape.iter().product::<i64>();
    for &d in shape {
        stride /= d.max(1);
        let s = b.index_const(stride);
        let q = b.binary("arith.divui", lin, s, None);
        let dim = b.index_const(d);
        out.push(b.binary("arith.remui", q, dim, None));
    }
    out
}

fn copy(ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), String> {
    let operands: Vec<ValueId> = ir.operands(op).collect();
    let loc = ir.op_loc(op);
    let info = |ctx: &Context, ir: &Ir, v: ValueId| {
        memref_of(ctx, ir.value_type(v))
            .filter(|(shape, _, _)| !shape.contains(&DYNAMIC))
            .ok_or_else(|| "a DMA transfer needs memrefs of static shape".to_string())
    };
    let src = operands[0];
    let (src_shape, element, src_space) = info(ctx, ir, src)?;
    let dst_at = 1 + src_shape.len();
    let dst = operands[dst_at];
    let (dst_shape, _, dst_space) = info(ctx, ir, dst)?;
    let num_at = dst_at + 1 + dst_shape.len();
    let num = operands[num_at];
    let tag_rank = info(ctx, ir, operands[num_at + 1])?.0.len();
    let stride = operands
        .get(num_at + 2 + tag_rank..)
        .unwrap_or(&[])
        .to_vec();
    let src_is_slow = src_space <= dst_space;
    let index = ctx.index_type();
    let mut listener = NoListener;
    let mut rw = Rewriter::new(ctx, ir, &mut listener);
    rw.set_insertion_point(op);
    let mut b = Builder { rw: &mut rw, loc };
    let src_base = linearize(&mut b, &operands[1..dst_at], &src_shape);
    let dst_base = linearize(&mut b, &operands[dst_at + 1..num_at], &dst_shape);
    let zero = b.index_const(0);
    let one = b.index_const(1);
    let region = b.rw.ir.create_region();
    let body = b.rw.ir.create_block();
    b.rw.ir.append_block(region, body);
    let e = b.rw.ir.add_block_arg(body, index, Some(loc));
    let name = b.rw.ctx.sym("scf.for");
    let attrs = b.rw.ctx.empty_dict();
    b.rw.create(OpSpec {
        name,
        loc,
        operands: &[zero, num, one],
        result_types: &[],
        successors: &[],
        regions: &[region],
        attrs,
        props: None,
    });
    b.rw.set_insertion_point_to_end(body);
    let slow = match stride.as_slice() {
        [stride, per] => {
            let rows = b.binary("arith.divui", e, *per, None);
            let col = b.binary("arith.remui", e, *per, None);
            let row = b.binary("arith.muli", rows, *stride, None);
            b.binary("arith.addi", row, col, None)
        }
        _ => e,
    };
    let (src_off, dst_off) = if src_is_slow { (slow, e) } else { (e, slow) };
    let s = b.binary("arith.addi", src_base, src_off, None);
    let d = b.binary("arith.addi", dst_base, dst_off, None);
    let mut load_ops = vec![src];
    load_ops.extend(delinearize(&mut b, s, &src_shape));
    let mut store_ops = vec![dst];
    store_ops.extend(delinearize(&mut b, d, &dst_shape));
    let load =
        b.rw.create_simple("memref.load", &load_ops, &[element], None, loc);
    let word = b.rw.ir.result(load, 0);
    store_ops.insert(0, word);
    b.rw.create_simple("memref.store", &store_ops, &[], None, loc);
    b.rw.create_simple("scf.yield", &[], &[], None, loc);
    rw.erase_op(op);
    Ok(())
}
