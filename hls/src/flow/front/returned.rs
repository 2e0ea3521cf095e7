//! Buffers a kernel allocates and returns, as lowering tensor code to
//! memrefs leaves them: each memref the top function returns, allocated
//! by `memref.alloc`/`memref.alloca` in the function's entry block,
//! becomes a memory argument appended after the others, named
//! `result<i>` (`i` its position among the function's results) and
//! marked with [`RETURNED_ATTR`]: the kernel writes it through memory
//! ports as it would an output argument, and the JSON, the AXI wrapper
//! and the host stub know it as the returned buffer. The rewrite acts on
//! the flow's copy of the input: the co-simulation's software side runs
//! the function as written.

use crate::model::interface::{function_type, names, RETURNED_ATTR};
use silica_ir::dialect::{inherent_attr, set_inherent_attr};
use silica_ir::{Attr, AttrKind, Context, Diagnostic, Ir, OpId, TypeKind, ValueId};

/// Makes each buffer `func` returns a memory argument (see the module's
/// documentation); an error at a `func.return` whose memref is anything
/// else.
pub fn returned_buffers_to_arguments(
    ctx: &mut Context,
    ir: &mut Ir,
    func: OpId,
) -> Result<(), Box<Diagnostic>> {
    let Some((inputs, outputs)) = function_type(ctx, ir, func) else {
        return Ok(());
    };
    let memrefs: Vec<usize> = (0..outputs.len())
        .filter(|&i| matches!(ctx.type_kind(outputs[i]), TypeKind::MemRef { .. }))
        .collect();
    if memrefs.is_empty() {
        return Ok(());
    }
    let Some(entry) = ir.regions(func).next().and_then(|r| ir.entry_block(r)) else {
        return Ok(());
    };
    let mut returns = Vec::new();
    ir.walk(func, &mut |op| {
        if ctx.str(ir.op_name(op)) == "func.return" {
            returns.push(op);
        }
    });
    // The buffer of each memref result, the same at every return.
    let mut buffers = Vec::with_capacity(memrefs.len());
    for &i in &memrefs {
        let mut buffer = None;
        for &r in &returns {
            let v = ir.operand(r, i);
            let alloc = allocated_in(ctx, ir, v, entry).ok_or_else(|| {
                Box::new(Diagnostic::error(
                    ir.op_loc(r),
                    format!(
                        "result {i} is not a buffer the function allocates: silica hls returns a memref only where it is a 'memref.alloc' of the function's body (it becomes the output memory 'result{i}')"
                    ),
                ))
            })?;
            if buffer.is_some_and(|b| b != alloc) {
                return Err(Box::new(Diagnostic::error(
                    ir.op_loc(r),
                    format!("result {i} is another buffer than at the function's other returns"),
                )));
            }
            buffer = Some(alloc);
        }
        buffers.extend(buffer);
    }
    let mut new_inputs = inputs.clone();
    let mut entries = arg_dicts(ctx, ir, func, inputs.len());
    for (&i, &alloc) in memrefs.iter().zip(&buffers) {
        let result = ir.result(alloc, 0);
        let ty = ir.value_type(result);
        let arg = ir.add_block_arg(entry, ty, Some(ir.op_loc(alloc)));
        ir.replace_all_uses(result, arg);
        ir.erase_op(alloc);
        new_inputs.push(ty);
        let name_key = ctx.sym("hls.name");
        let name = ctx.string_attr(names::result(i).as_bytes());
        let returned_key = ctx.sym(RETURNED_ATTR);
        let i64t = ctx.signless(64);
        let position = ctx.int_attr(i64t, i as i64);
        entries.push(ctx.dict_attr(vec![(name_key, name), (returned_key, position)]));
    }
    for &r in &returns {
        let kept: Vec<ValueId> = ir
            .operands(r)
            .enumerate()
            .filter(|(i, _)| !memrefs.contains(i))
            .map(|(_, v)| v)
            .collect();
        ir.set_operands(r, &kept);
    }
    let new_outputs: Vec<_> = (0..outputs.len())
        .filter(|i| !memrefs.contains(i))
        .map(|i| outputs[i])
        .collect();
    let fty = ctx.function_type(&new_inputs, &new_outputs);
    let fty = ctx.intern_attr(AttrKind::Type(fty));
    set_inherent_attr(ctx, ir, func, "function_type", fty);
    let arg_attrs = ctx.array_attr(&entries);
    set_inherent_attr(ctx, ir, func, "arg_attrs", arg_attrs);
    if let Some(AttrKind::Array(results)) =
        inherent_attr(ctx, ir, func, "res_attrs").map(|a| ctx.attr_kind(a).clone())
    {
        let kept: Vec<Attr> = results
            .iter()
            .enumerate()
            .filter(|(i, _)| !memrefs.contains(i))
            .map(|(_, &a)| a)
            .collect();
        let res_attrs = ctx.array_attr(&kept);
        set_inherent_attr(ctx, ir, func, "res_attrs", res_attrs);
    }
    Ok(())
}

/// The `memref.alloc`/`memref.alloca` of block `entry` that defines `v`.
fn allocated_in(ctx: &Context, ir: &Ir, v: ValueId, entry: silica_ir::BlockId) -> Option<OpId> {
    let op = ir.defining_op(v)?;
    let name = ctx.str(ir.op_name(op));
    ((name == "memref.alloc" || name == "memref.alloca")
        && ir.op_block(op) == Some(entry)
        && ir.operands(op).next().is_none())
    .then_some(op)
}

/// The argument attribute dictionaries of `func`'s `count` arguments
/// (empty where it has none).
fn arg_dicts(ctx: &mut Context, ir: &Ir, func: OpId, count: usize) -> Vec<Attr> {
    let existing = match inherent_attr(ctx, ir, func, "arg_attrs").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Array(dicts)) => dicts.to_vec(),
        _ => Vec::new(),
    };
    let empty = ctx.empty_dict();
    (0..count)
        .map(|i| existing.get(i).copied().unwrap_or(empty))
        .collect()
}
