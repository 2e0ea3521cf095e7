//! `func` to llvm (`convert-func-to-llvm`): functions with memref
//! arguments expanded into descriptor fields (or single pointers under
//! the bare-pointer convention), several results packed in a struct,
//! calls and returns to match, and `_mlir_ciface_` wrappers for
//! functions marked `llvm.emit_c_interface`.

use super::Llvm;
use crate::dialect::types;
use silica_ir::conversion::{ConversionPattern, ConversionRewriter};
use silica_ir::dialect::inherent_attr;
use silica_ir::{Attr, AttrKind, Context, Ir, OpId, OpSpec, Symbol, Type, TypeKind, ValueId};

/// Attributes of `func.func` that do not carry over.
const DROPPED: &[&str] = &[
    "sym_name",
    "function_type",
    "arg_attrs",
    "res_attrs",
    "llvm.linkage",
    "func.varargs",
];

fn is_memref(ctx: &Context, t: Type) -> bool {
    matches!(ctx.type_kind(t), TypeKind::MemRef { .. })
}

/// The llvm argument types a value of type `t` is passed as.
fn expanded(cr: &mut ConversionRewriter<'_, '_>, t: Type, bare: bool) -> Option<Vec<Type>> {
    let ctx = &mut *cr.rw.ctx;
    if let TypeKind::MemRef {
        shape,
        memory_space,
        ..
    } = ctx.type_kind(t).clone()
    {
        cr.convert_type(t)?;
        let space = super::memory_space_of(cr.rw.ctx, memory_space)?;
        let ptr = types::ptr(cr.rw.ctx, space);
        if bare {
            return Some(vec![ptr]);
        }
        let i64t = super::index_type(cr);
        let mut v = vec![ptr, ptr, i64t];
        v.extend(std::iter::repeat_n(i64t, 2 * shape.len()));
        return Some(v);
    }
    if let TypeKind::UnrankedMemRef { .. } = ctx.type_kind(t) {
        if bare {
            return None;
        }
        let converted = cr.convert_type(t)?;
        let ctx = &*cr.rw.ctx;
        let Some(crate::dialect::types::LlvmType::Struct { body, .. }) =
            types::llvm_type(ctx, converted)
        else {
            return None;
        };
        return Some(body);
    }
    Some(vec![cr.convert_type(t)?])
}

fn is_unranked(ctx: &Context, t: Type) -> bool {
    matches!(ctx.type_kind(t), TypeKind::UnrankedMemRef { .. })
}

/// The single llvm result type for `results` (void, the one converted
/// type, or a struct of them); memrefs are pointers when `bare`.
fn packed_result(
    cr: &mut ConversionRewriter<'_, '_>,
    results: &[Type],
    bare: bool,
) -> Option<Type> {
    let mut converted = Vec::new();
    for &t in results {
        // Returned unranked descriptors go through the heap (see
        // `copy_unranked`); the bare-pointer convention has none.
        if bare && is_unranked(cr.rw.ctx, t) {
            return None;
        }
        converted.push(if bare && is_memref(cr.rw.ctx, t) {
            // The bare pointer, in the memref's address space.
            expanded(cr, t, true)?.into_iter().next()?
        } else {
            cr.convert_type(t)?
        });
    }
    Some(match converted.len() {
        0 => types::void(cr.rw.ctx),
        1 => converted[0],
        _ => types::literal_struct(cr.rw.ctx, &converted, false),
    })
}

fn signature(ctx: &Context, ir: &silica_ir::Ir, op: OpId) -> Option<(Vec<Type>, Vec<Type>)> {
    let a = inherent_attr(ctx, ir, op, "function_type")?;
    let AttrKind::Type(t) = ctx.attr_kind(a) else {
        return None;
    };
    Some((
        ctx.function_inputs(*t).to_vec(),
        ctx.function_results(*t).to_vec(),
    ))
}

fn string_attr(ctx: &mut Context, s: &str) -> Attr {
    ctx.string_attr(s.as_bytes())
}

/// An `llvm.func` op (empty body region) with the given type.
fn create_llvm_func(
    cr: &mut ConversionRewriter<'_, '_>,
    name: &str,
    fty: Type,
    attrs: Attr,
    loc: Attr,
) -> OpId {
    let ctx = &mut *cr.rw.ctx;
    let t64 = ctx.signless(64);
    let zero = ctx.int_attr(t64, 0);
    let props = vec![
        (
            "CConv",
            crate::dialect::attrs::keyword_attr(ctx, "cconv", "ccc"),
        ),
        ("function_type", ctx.intern_attr(AttrKind::Type(fty))),
        (
            "linkage",
            crate::dialect::attrs::keyword_attr(ctx, "linkage", "external"),
        ),
        ("sym_name", string_attr(ctx, name)),
        ("visibility_", zero),
    ];
    let mut entries: Vec<(Symbol, Attr)> =
        props.into_iter().map(|(k, v)| (ctx.sym(k), v)).collect();
    // The symbol's visibility is a property of `llvm.func`.
    let (visibility, rest): (Vec<_>, Vec<_>) = ctx
        .dict_entries(attrs)
        .iter()
        .partition(|(k, _)| ctx.str(*k) == "sym_visibility");
    entries.extend(visibility);
    let attrs = ctx.dict_attr(rest);
    let props = ctx.dict_attr(entries);
    let fname = ctx.sym("llvm.func");
    let region = cr.rw.ir.create_region();
    cr.rw.create(OpSpec {
        name: fname,
        loc,
        operands: &[],
        result_types: &[],
        successors: &[],
        regions: &[region],
        attrs,
        props: Some(props),
    })
}

fn convert_func(cr: &mut ConversionRewriter<'_, '_>, op: OpId, bare: bool) -> bool {
    let Some((inputs, results)) = signature(cr.rw.ctx, cr.rw.ir, op) else {
        return false;
    };
    if bare
        && inputs
            .iter()
            .chain(&results)
            .any(|t| is_memref(cr.rw.ctx, *t) && !static_shape(cr.rw.ctx, *t))
    {
        return false;
    }
    let mut params = Vec::new();
    let mut groups = Vec::new();
    for &t in &inputs {
        let Some(e) = expanded(cr, t, bare) else {
            return false;
        };
        groups.push(e.len());
        params.extend(e);
    }
    let Some(result) = packed_result(cr, &results, bare) else {
        return false;
    };
    let ctx = &mut *cr.rw.ctx;
    let name = match inherent_attr(ctx, cr.rw.ir, op, "sym_name").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::String { value, .. }) => String::from_utf8_lossy(value).into_owned(),
        _ => return false,
    };
    // `func.varargs`: a variadic function.
    let vararg = inherent_attr(ctx, cr.rw.ir, op, "func.varargs").is_some_and(
        |a| matches!(ctx.attr_kind(a), AttrKind::Integer { value, .. } if *value != 0.into()),
    );
    let fty = types::func(ctx, result, &params, vararg);
    // `llvm.linkage` must be a linkage attribute.
    let linkage = inherent_attr(ctx, cr.rw.ir, op, "llvm.linkage");
    if let Some(l) = linkage {
        if crate::dialect::attrs::keyword_of(ctx, l)
            .is_none_or(|k| !crate::dialect::attrs::LINKAGES.contains(&k))
        {
            cr.emit(
                op,
                "Contains llvm.linkage attribute not of type LLVM::LinkageAttr",
            );
            return false;
        }
    }
    let mut kept: Vec<(Symbol, Attr)> = Vec::new();
    let props = cr
        .rw
        .ir
        .op_props(op)
        .map(|d| ctx.dict_entries(d).to_vec())
        .unwrap_or_default();
    for (k, v) in props
        .into_iter()
        .chain(ctx.dict_entries(cr.rw.ir.op_attrs(op)).to_vec())
    {
        if !DROPPED.contains(&ctx.str(k)) {
            kept.push((k, v));
        }
    }
    let c_interface = kept
        .iter()
        .any(|(k, _)| ctx.str(*k) == "llvm.emit_c_interface");
    // `llvm.readnone`: memory effects of none at all.
    if let Some(at) = kept
        .iter()
        .position(|(k, _)| ctx.str(*k) == "llvm.readnone")
    {
        let none = crate::dialect::attrs::raw_attr(
            ctx,
            "memory_effects",
            "other = none, argMem = none, inaccessibleMem = none, errnoMem = none, targetMem0 = none, targetMem1 = none",
        );
        let key = ctx.sym("memory_effects");
        kept[at] = (key, none);
    }
    if vararg && c_interface {
        cr.emit(
            op,
            "C interface for variadic functions is not supported yet.",
        );
        return false;
    }
    let attrs = ctx.dict_attr(kept);
    let loc = cr.rw.ir.op_loc(op);
    let new = create_llvm_func(cr, &name, fty, attrs, loc);
    carry_arg_attrs(cr, op, new, &groups, results.len());
    if let Some(l) = linkage {
        silica_ir::dialect::set_inherent_attr(cr.rw.ctx, cr.rw.ir, new, "linkage", l);
    }
    // Move the body over.
    let old_region = cr.rw.ir.regions(op).next().expect("func body");
    let new_region = cr.rw.ir.regions(new).next().expect("llvm.func body");
    let blocks: Vec<_> = cr.rw.ir.region_blocks(old_region).collect();
    for b in blocks {
        cr.rw.ir.detach_block(b);
        cr.rw.ir.append_block(new_region, b);
    }
    if let Some(entry) = cr.rw.ir.entry_block(new_region) {
        let old_args = cr.rw.ir.block_args(entry).to_vec();
        let mut new_args = Vec::new();
        let mut next = 0;
        for (&a, &n) in old_args.iter().zip(&groups) {
            let arg_loc = cr.rw.ir.value_loc(a);
            let group: Vec<ValueId> = params[next..next + n]
                .iter()
                .map(|&t| cr.rw.ir.add_block_arg(entry, t, arg_loc))
                .collect();
            next += n;
            new_args.push(group);
        }
        // MLIR materialises an argument when its first user is
        // converted, each at the start of the entry block: unused
        // arguments get nothing, and the last used first comes first.
        // Casts for users the conversion leaves come at the end, so
        // before those.
        let mut order: Vec<usize> = Vec::new();
        for b in cr.rw.ir.region_blocks(new_region).collect::<Vec<_>>() {
            for o in cr.rw.ir.block_ops(b).collect::<Vec<_>>() {
                cr.rw.ir.walk(o, &mut |inner| {
                    for v in cr.rw.ir.operands(inner) {
                        if let Some(i) = old_args.iter().position(|a| *a == v) {
                            if !order.contains(&i) {
                                order.push(i);
                            }
                        }
                    }
                });
            }
        }
        let descriptor_for_converted_user = |cr: &ConversionRewriter<'_, '_>, i: usize| {
            let a = old_args[i];
            let ty = cr.rw.ir.value_type(a);
            (is_memref(cr.rw.ctx, ty) || is_unranked(cr.rw.ctx, ty))
                && cr
                    .rw
                    .ir
                    .uses(a)
                    .any(|u| cr.has_patterns(cr.rw.ir.use_owner(u)))
        };
        let (mut order, mut later): (Vec<usize>, Vec<usize>) = order
            .into_iter()
            .partition(|&i| descriptor_for_converted_user(cr, i));
        // Those go in the order of the arguments (MLIR materialises them
        // when the conversion ends, argument by argument).
        if !order.is_empty() {
            later.sort_unstable();
        }
        order.extend(later);
        for i in order {
            let (a, group) = (old_args[i], &new_args[i]);
            cr.rw.set_insertion_point_to_start(entry);
            let ty = cr.rw.ir.value_type(a);
            let v = if is_unranked(cr.rw.ctx, ty) {
                let Some(desc_ty) = cr.convert_type(ty) else {
                    return false;
                };
                let mut b = Llvm::new(cr, loc);
                let mut d = b.poison(desc_ty);
                d = b.insert(d, group[0], &[0]);
                b.insert(d, group[1], &[1])
            } else if is_memref(cr.rw.ctx, ty) {
                let Some(desc_ty) = cr.convert_type(ty) else {
                    return false;
                };
                let mut b = Llvm::new(cr, loc);
                if bare {
                    match b.static_descriptor(ty, group[0]) {
                        Some(d) => d,
                        None => return false,
                    }
                } else {
                    pack_expanded(&mut b, desc_ty, group)
                }
            } else {
                group[0]
            };
            cr.replace_value(a, v);
        }
        for _ in 0..old_args.len() {
            cr.rw.ir.erase_block_arg(entry, 0);
        }
    }
    // Only the entry block's signature changes here: the other blocks'
    // change with the branches that reach them (as in MLIR).
    if c_interface && !bare {
        let attrs = ciface_arg_attrs(cr, op, &results);
        if cr.rw.ir.region_is_empty(new_region) {
            extern_c_wrapper(cr, new, &name, &inputs, &results, &params, result, &attrs);
        } else {
            cr.rw.set_insertion_point_after(new);
            c_wrapper(cr, &name, &inputs, &results, &params, result, loc, &attrs);
        }
    }
    cr.rw.erase_op(op);
    true
}

fn static_shape(ctx: &Context, t: Type) -> bool {
    ctx.shaped(t)
        .and_then(|(s, _)| s)
        .is_some_and(|s| !s.contains(&silica_ir::types::DYNAMIC))
}

/// The argument and result attributes of `func` on `new`, its
/// `llvm.func`: an argument that stays one parameter (a bare memref
/// pointer too) keeps its dictionary, one expanded into several (a memref
/// descriptor) loses it; a single result keeps its own.
fn carry_arg_attrs(
    cr: &mut ConversionRewriter<'_, '_>,
    func: OpId,
    new: OpId,
    groups: &[usize],
    results: usize,
) {
    let ctx = &mut *cr.rw.ctx;
    let ir = &mut *cr.rw.ir;
    let dicts = |ctx: &Context, ir: &Ir, name: &str| -> Vec<Attr> {
        match inherent_attr(ctx, ir, func, name).map(|a| ctx.attr_kind(a)) {
            Some(AttrKind::Array(items)) => items.to_vec(),
            _ => Vec::new(),
        }
    };
    let arg_dicts = dicts(ctx, ir, "arg_attrs");
    let res_dicts = dicts(ctx, ir, "res_attrs");
    let empty = ctx.dict_attr(Vec::new());
    let mut arg_attrs = Vec::new();
    for (i, &n) in groups.iter().enumerate() {
        let kept = arg_dicts.get(i).copied().filter(|_| n == 1);
        arg_attrs.push(kept.unwrap_or(empty));
        arg_attrs.extend(std::iter::repeat_n(empty, n.saturating_sub(1)));
    }
    // Kept where the function had them (as MLIR does, even all empty).
    let arg_attrs = if arg_dicts.is_empty() {
        Vec::new()
    } else {
        arg_attrs
    };
    let res_attrs = if results == 1 { res_dicts } else { Vec::new() };
    for (name, items) in [("arg_attrs", arg_attrs), ("res_attrs", res_attrs)] {
        if !items.is_empty() {
            let a = ctx.array_attr(&items);
            silica_ir::dialect::set_inherent_attr(ctx, ir, new, name, a);
        }
    }
}

/// The argument and result attributes of `func`'s C wrapper: each
/// argument's own (a memref passes as one pointer), none on the pointer
/// to a struct result, a result's own when it is returned directly.
fn ciface_arg_attrs(
    cr: &mut ConversionRewriter<'_, '_>,
    func: OpId,
    results: &[Type],
) -> Vec<(&'static str, Attr)> {
    let ctx = &mut *cr.rw.ctx;
    let ir = &*cr.rw.ir;
    let by_pointer = returns_struct(ctx, results);
    let mut out = Vec::new();
    if let Some(AttrKind::Array(items)) =
        inherent_attr(ctx, ir, func, "arg_attrs").map(|a| ctx.attr_kind(a))
    {
        let mut items = items.to_vec();
        if by_pointer {
            items.insert(0, ctx.dict_attr(Vec::new()));
        }
        out.push(("arg_attrs", ctx.array_attr(&items)));
    }
    if !by_pointer {
        if let Some(a) = inherent_attr(ctx, ir, func, "res_attrs") {
            out.push(("res_attrs", a));
        }
    }
    out
}

/// Whether a function's results reach C through a pointer to their
/// storage: a memref descriptor or several results (a struct).
fn returns_struct(ctx: &Context, results: &[Type]) -> bool {
    results.len() > 1
        || results
            .iter()
            .any(|t| is_memref(ctx, *t) || is_unranked(ctx, *t))
}

/// The parameters and result of `_mlir_ciface_<name>`: memrefs by pointer
/// to their descriptor, a struct result through a pointer first; `None`
/// where MLIR writes no wrapper (unranked memref arguments).
fn c_signature(
    cr: &mut ConversionRewriter<'_, '_>,
    inputs: &[Type],
    results: &[Type],
    result: Type,
) -> Option<(Vec<Type>, Type)> {
    let ctx = &*cr.rw.ctx;
    if inputs.iter().any(|t| is_unranked(ctx, *t)) {
        return None;
    }
    let by_pointer = returns_struct(ctx, results);
    let ptr = types::ptr(cr.rw.ctx, 0);
    let mut params = Vec::new();
    if by_pointer {
        params.push(ptr);
    }
    for &t in inputs {
        if is_memref(cr.rw.ctx, t) {
            params.push(ptr);
        } else {
            params.push(cr.convert_type(t)?);
        }
    }
    let result = if by_pointer {
        types::void(cr.rw.ctx)
    } else {
        result
    };
    Some((params, result))
}

/// `_mlir_ciface_<name>` for a function with a body: memref arguments by
/// pointer to their descriptor, forwarded to `name` field by field; a
/// struct result stored through the first argument.
#[allow(clippy::too_many_arguments)]
fn c_wrapper(
    cr: &mut ConversionRewriter<'_, '_>,
    name: &str,
    inputs: &[Type],
    results: &[Type],
    params: &[Type],
    result: Type,
    loc: Attr,
    arg_attrs: &[(&str, Attr)],
) {
    let Some((wrapper_params, wrapper_result)) = c_signature(cr, inputs, results, result) else {
        return;
    };
    let by_pointer = returns_struct(cr.rw.ctx, results);
    let fty = types::func(cr.rw.ctx, wrapper_result, &wrapper_params, false);
    let key = cr.rw.ctx.sym("llvm.emit_c_interface");
    let unit = cr.rw.ctx.unit_attr();
    let attrs = cr.rw.ctx.dict_attr(vec![(key, unit)]);
    let wrapper = create_llvm_func(cr, &format!("_mlir_ciface_{name}"), fty, attrs, loc);
    for &(k, v) in arg_attrs {
        silica_ir::dialect::set_inherent_attr(cr.rw.ctx, cr.rw.ir, wrapper, k, v);
    }
    let region = cr.rw.ir.regions(wrapper).next().expect("body");
    let entry = cr.rw.ir.create_block();
    cr.rw.ir.append_block(region, entry);
    let args: Vec<ValueId> = wrapper_params
        .iter()
        .map(|&t| cr.rw.ir.add_block_arg(entry, t, Some(loc)))
        .collect();
    cr.rw.set_insertion_point_to_end(entry);
    let mut b = Llvm::new(cr, loc);
    let mut forwarded = Vec::new();
    let inputs_args = &args[usize::from(by_pointer)..];
    for (&t, &a) in inputs.iter().zip(inputs_args) {
        if !is_memref(b.rw.ctx, t) {
            forwarded.push(a);
            continue;
        }
        let Some(desc_ty) = b.convert(t) else {
            return;
        };
        let d = b.value("llvm.load", &[a], desc_ty, &[]);
        let rank = memref_rank(b.rw.ctx, t);
        forwarded.extend(unpack_expanded(&mut b, d, rank));
    }
    debug_assert_eq!(forwarded.len(), params.len());
    let void = types::is_void(b.rw.ctx, result);
    let call = b.call(
        name,
        &forwarded,
        if void {
            &[]
        } else {
            std::slice::from_ref(&result)
        },
    );
    let values: Vec<ValueId> = b.rw.ir.results(call).collect();
    if by_pointer {
        b.op("llvm.store", &[values[0], args[0]], &[], &[]);
        b.op("llvm.return", &[], &[], &[]);
    } else {
        b.op("llvm.return", &values, &[], &[]);
    }
}

fn memref_rank(ctx: &Context, t: Type) -> usize {
    ctx.shaped(t).and_then(|(s, _)| s).map_or(0, <[i64]>::len)
}

/// A memref descriptor from its expanded parameters (pointers, offset,
/// sizes, strides), filled as MLIR's signature conversion fills it: each
/// size followed by its stride.
fn pack_expanded(b: &mut Llvm<'_, '_>, desc_ty: Type, group: &[ValueId]) -> ValueId {
    let rank = (group.len() - 3) / 2;
    let mut d = b.poison(desc_ty);
    for (k, &v) in group[..3].iter().enumerate() {
        d = b.insert(d, v, &[k as i64]);
    }
    for i in 0..rank {
        d = b.insert(d, group[3 + i], &[3, i as i64]);
        d = b.insert(d, group[3 + rank + i], &[4, i as i64]);
    }
    d
}

/// The expanded parameters of the descriptor `d` of a rank-`rank` memref:
/// pointers, offset, sizes, strides.
fn unpack_expanded(b: &mut Llvm<'_, '_>, d: ValueId, rank: usize) -> Vec<ValueId> {
    let mut out: Vec<ValueId> = (0..3).map(|k| b.extract(d, &[k])).collect();
    for field in [3, 4] {
        for i in 0..rank {
            out.push(b.extract(d, &[field, i as i64]));
        }
    }
    out
}

/// For an external function: `_mlir_ciface_<name>` declared (with the
/// function's attributes) and a body for `func` that packs its memref
/// arguments into descriptors on the stack and calls it, reading a
/// struct result back from a stack slot.
#[allow(clippy::too_many_arguments)]
fn extern_c_wrapper(
    cr: &mut ConversionRewriter<'_, '_>,
    func: OpId,
    name: &str,
    inputs: &[Type],
    results: &[Type],
    params: &[Type],
    result: Type,
    arg_attrs: &[(&str, Attr)],
) {
    let Some((c_params, c_result)) = c_signature(cr, inputs, results, result) else {
        return;
    };
    let loc = cr.rw.ir.op_loc(func);
    let by_pointer = returns_struct(cr.rw.ctx, results);
    // The declaration takes the function's attributes and visibility.
    let mut entries = cr.rw.ctx.dict_entries(cr.rw.ir.op_attrs(func)).to_vec();
    if let Some(v) = silica_ir::dialect::inherent_attr(cr.rw.ctx, cr.rw.ir, func, "sym_visibility")
    {
        entries.push((cr.rw.ctx.sym("sym_visibility"), v));
    }
    let attrs = cr.rw.ctx.dict_attr(entries);
    let fty = types::func(cr.rw.ctx, c_result, &c_params, false);
    cr.rw.set_insertion_point_after(func);
    let ciface = format!("_mlir_ciface_{name}");
    let decl = create_llvm_func(cr, &ciface, fty, attrs, loc);
    for &(k, v) in arg_attrs {
        silica_ir::dialect::set_inherent_attr(cr.rw.ctx, cr.rw.ir, decl, k, v);
    }
    // The function, now defined, is private to the module.
    let private = crate::dialect::attrs::keyword_attr(cr.rw.ctx, "linkage", "private");
    silica_ir::dialect::set_inherent_attr(cr.rw.ctx, cr.rw.ir, func, "linkage", private);
    let region = cr.rw.ir.regions(func).next().expect("llvm.func body");
    let entry = cr.rw.ir.create_block();
    cr.rw.ir.append_block(region, entry);
    let args: Vec<ValueId> = params
        .iter()
        .map(|&t| cr.rw.ir.add_block_arg(entry, t, Some(loc)))
        .collect();
    cr.rw.set_insertion_point_to_end(entry);
    let mut b = Llvm::new(cr, loc);
    let mut call_args = Vec::new();
    let slot = if by_pointer {
        let one = b.index_const(1);
        let ptr = types::ptr(b.rw.ctx, 0);
        let e = b.rw.ctx.intern_attr(AttrKind::Type(result));
        let s = b.value("llvm.alloca", &[one], ptr, &[("elem_type", e)]);
        call_args.push(s);
        Some(s)
    } else {
        None
    };
    let mut next = 0;
    for &t in inputs {
        if !is_memref(b.rw.ctx, t) {
            call_args.push(args[next]);
            next += 1;
            continue;
        }
        let Some(desc_ty) = b.convert(t) else {
            return;
        };
        let rank = memref_rank(b.rw.ctx, t);
        let group = &args[next..next + 3 + 2 * rank];
        next += group.len();
        let d = pack_expanded(&mut b, desc_ty, group);
        let one = b.index_const(1);
        call_args.push(b.store_on_stack(d, one));
    }
    let void = types::is_void(b.rw.ctx, c_result);
    let call = b.call(
        &ciface,
        &call_args,
        if void {
            &[]
        } else {
            std::slice::from_ref(&c_result)
        },
    );
    let values: Vec<ValueId> = match slot {
        Some(s) => vec![b.value("llvm.load", &[s], result, &[])],
        None => b.rw.ir.results(call).collect(),
    };
    b.op("llvm.return", &values, &[], &[]);
}

/// Whether `op` (a function) asks for the bare-pointer convention itself
/// (`llvm.bareptr`).
fn wants_bare(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    ctx.dict_entries(ir.op_attrs(op))
        .iter()
        .any(|(k, _)| ctx.str(*k) == "llvm.bareptr")
}

fn func_default(cr: &mut ConversionRewriter<'_, '_>, op: OpId, _: &[ValueId]) -> bool {
    let bare = wants_bare(cr.rw.ctx, cr.rw.ir, op);
    convert_func(cr, op, bare)
}

fn func_bare(cr: &mut ConversionRewriter<'_, '_>, op: OpId, _: &[ValueId]) -> bool {
    convert_func(cr, op, true)
}

fn ret(cr: &mut ConversionRewriter<'_, '_>, op: OpId, operands: &[ValueId], bare: bool) -> bool {
    let loc = cr.rw.ir.op_loc(op);
    let originals: Vec<Type> = cr
        .rw
        .ir
        .operands(op)
        .map(|v| cr.rw.ir.value_type(v))
        .collect();
    let Some(result) = packed_result(cr, &originals, bare) else {
        return false;
    };
    let unranked = originals.iter().any(|t| is_unranked(cr.rw.ctx, *t));
    if unranked {
        declare_runtime(cr, op, "malloc");
    }
    let mut b = Llvm::new(cr, loc);
    let mut values: Vec<ValueId> = Vec::new();
    for (&v, &t) in operands.iter().zip(&originals) {
        values.push(if bare && is_memref(b.rw.ctx, t) {
            b.extract(v, &[0])
        } else if is_unranked(b.rw.ctx, t) {
            // The descriptor may live in this frame: the caller gets a
            // copy on the heap.
            copy_unranked(&mut b, v, true)
        } else {
            v
        });
    }
    let values = if values.len() > 1 {
        let mut s = b.poison(result);
        for (i, v) in values.iter().enumerate() {
            s = b.insert(s, *v, &[i as i64]);
        }
        vec![s]
    } else {
        values
    };
    b.op("llvm.return", &values, &[], &[]);
    cr.rw.erase_op(op);
    true
}

fn call(cr: &mut ConversionRewriter<'_, '_>, op: OpId, operands: &[ValueId], bare: bool) -> bool {
    let loc = cr.rw.ir.op_loc(op);
    // `func.call_indirect`: the callee is the first operand.
    let indirect = cr.rw.ctx.str(cr.rw.ir.op_name(op)) == "func.call_indirect";
    let (callee_ptr, operands) = if indirect {
        (operands.first().copied(), &operands[1..])
    } else {
        (None, operands)
    };
    let originals: Vec<Type> = cr
        .rw
        .ir
        .operands(op)
        .skip(usize::from(indirect))
        .map(|v| cr.rw.ir.value_type(v))
        .collect();
    if bare && originals.iter().any(|t| is_unranked(cr.rw.ctx, *t)) {
        return false;
    }
    let results: Vec<Type> = cr
        .rw
        .ir
        .results(op)
        .map(|v| cr.rw.ir.value_type(v))
        .collect();
    let Some(result) = packed_result(cr, &results, bare) else {
        return false;
    };
    let callee = match (
        callee_ptr,
        inherent_attr(cr.rw.ctx, cr.rw.ir, op, "callee").map(|a| cr.rw.ctx.attr_kind(a)),
    ) {
        (Some(_), _) => String::new(),
        (None, Some(AttrKind::SymbolRef { root, .. })) => cr.rw.ctx.str(*root).to_string(),
        _ => return false,
    };
    if !bare && results.iter().any(|t| is_unranked(cr.rw.ctx, *t)) {
        declare_runtime(cr, op, "free");
    }
    let mut b = Llvm::new(cr, loc);
    let mut args = Vec::new();
    for (&v, &t) in operands.iter().zip(&originals) {
        if is_unranked(b.rw.ctx, t) {
            args.push(b.extract(v, &[0]));
            args.push(b.extract(v, &[1]));
            continue;
        }
        if !is_memref(b.rw.ctx, t) {
            args.push(v);
            continue;
        }
        if bare {
            args.push(b.extract(v, &[1]));
            continue;
        }
        let rank = memref_rank(b.rw.ctx, t);
        args.extend(unpack_expanded(&mut b, v, rank));
    }
    let void = types::is_void(b.rw.ctx, result);
    let callee = match callee_ptr {
        Some(p) => super::Callee::Pointer(p),
        None => super::Callee::Symbol(&callee),
    };
    let new = b.call_of(
        callee,
        &args,
        if void {
            &[]
        } else {
            std::slice::from_ref(&result)
        },
    );
    let mut values: Vec<ValueId> = b.rw.ir.results(new).collect();
    if results.len() > 1 {
        let s = values[0];
        values = (0..results.len())
            .map(|i| b.extract(s, &[i as i64]))
            .collect();
    } else if bare && results.len() == 1 && is_memref(b.rw.ctx, results[0]) {
        let Some(d) = b.static_descriptor(results[0], values[0]) else {
            return false;
        };
        values = vec![d];
    }
    // Unranked results come on the heap: copied into this frame, freed.
    for (v, &t) in values.iter_mut().zip(&results) {
        if is_unranked(b.rw.ctx, t) && !bare {
            *v = copy_unranked(&mut b, *v, false);
        }
    }
    cr.replace_op(op, &values);
    true
}

/// Declares the C library's `malloc` or `free` in the module of `at`.
fn declare_runtime(cr: &mut ConversionRewriter<'_, '_>, at: OpId, name: &str) {
    let ptr = types::ptr(cr.rw.ctx, 0);
    let index = super::index_type(cr);
    if name == "malloc" {
        super::declare_function(&mut cr.rw, at, name, &[index], ptr);
    } else {
        let void = types::void(cr.rw.ctx);
        super::declare_function(&mut cr.rw, at, name, &[ptr], void);
    }
}

/// The bytes of the ranked descriptor an unranked memref points to, as
/// MLIR counts them: two pointers and 2·rank + 1 index values.
pub(super) fn unranked_descriptor_bytes(b: &mut Llvm<'_, '_>, desc: ValueId) -> ValueId {
    let one = b.index_const(1);
    let two = b.index_const(2);
    let index_bytes = b.index_const(i64::from(b.rw.ctx.int_width(b.index).unwrap_or(64) / 8));
    let pointer_bytes = b.index_const(8);
    let pointers = b.int_op("llvm.mul", two, pointer_bytes, 0);
    let rank = b.extract(desc, &[0]);
    let double_rank = b.int_op("llvm.mul", two, rank, 0);
    let fields = b.int_op("llvm.add", double_rank, one, 0);
    let field_bytes = b.int_op("llvm.mul", fields, index_bytes, 0);
    b.int_op("llvm.add", pointers, field_bytes, 0)
}

/// An unranked memref whose ranked descriptor is copied to the heap
/// (`malloc`, returning it) or into this frame (`alloca`, freeing the
/// callee's heap copy), as MLIR's calling convention has it.
fn copy_unranked(b: &mut Llvm<'_, '_>, desc: ValueId, to_heap: bool) -> ValueId {
    let size = unranked_descriptor_bytes(b, desc);
    let ptr = types::ptr(b.rw.ctx, 0);
    let copy = if to_heap {
        let call = b.call("malloc", &[size], &[ptr]);
        b.rw.ir.result(call, 0)
    } else {
        let i8t = b.rw.ctx.signless(8);
        let e = b.rw.ctx.intern_attr(AttrKind::Type(i8t));
        b.value("llvm.alloca", &[size], ptr, &[("elem_type", e)])
    };
    let source = b.extract(desc, &[1]);
    let i1 = b.rw.ctx.signless(1);
    let f = b.rw.ctx.int_attr(i1, 0);
    b.op(
        "llvm.intr.memcpy",
        &[copy, source, size],
        &[],
        &[("isVolatile", f)],
    );
    if !to_heap {
        b.call("free", &[source], &[]);
    }
    let desc_ty = b.rw.ir.value_type(desc);
    let d = b.poison(desc_ty);
    let rank = b.extract(desc, &[0]);
    let d = b.insert(d, rank, &[0]);
    b.insert(d, copy, &[1])
}

/// `func.constant @f`: the function's address.
fn constant(cr: &mut ConversionRewriter<'_, '_>, op: OpId, _: &[ValueId]) -> bool {
    let Some(name) = inherent_attr(cr.rw.ctx, cr.rw.ir, op, "value") else {
        return false;
    };
    let loc = cr.rw.ir.op_loc(op);
    let mut b = Llvm::new(cr, loc);
    let ptr = types::ptr(b.rw.ctx, 0);
    let v = b.value("llvm.mlir.addressof", &[], ptr, &[("global_name", name)]);
    cr.replace_op(op, &[v]);
    true
}

fn ret_default(cr: &mut ConversionRewriter<'_, '_>, op: OpId, operands: &[ValueId]) -> bool {
    let mut func = cr.rw.ir.parent_op(op);
    while let Some(f) = func.filter(|&f| {
        !matches!(
            cr.rw.ctx.str(cr.rw.ir.op_name(f)),
            "func.func" | "llvm.func"
        )
    }) {
        func = cr.rw.ir.parent_op(f);
    }
    let bare = func.is_some_and(|f| wants_bare(cr.rw.ctx, cr.rw.ir, f));
    ret(cr, op, operands, bare)
}

/// Converts a function-like op other than `func.func` (a `gpu.func`)
/// as `convert-func-to-llvm` converts functions: an `llvm.func` of the
/// same name and body, memref arguments expanded into descriptor fields,
/// the op's attributes but its signature's kept.
pub fn lower_function(cr: &mut ConversionRewriter<'_, '_>, op: OpId) -> bool {
    convert_func(cr, op, false)
}

/// Converts a return-like op (a `gpu.return`) to `llvm.return`.
pub fn lower_return(cr: &mut ConversionRewriter<'_, '_>, op: OpId, operands: &[ValueId]) -> bool {
    ret(cr, op, operands, false)
}

fn ret_bare(cr: &mut ConversionRewriter<'_, '_>, op: OpId, operands: &[ValueId]) -> bool {
    ret(cr, op, operands, true)
}

fn call_default(cr: &mut ConversionRewriter<'_, '_>, op: OpId, operands: &[ValueId]) -> bool {
    // A callee with `llvm.bareptr` is called with bare pointers.
    let callee = inherent_attr(cr.rw.ctx, cr.rw.ir, op, "callee")
        .and_then(|a| silica_ir::symbols::lookup_from(cr.rw.ctx, cr.rw.ir, op, a));
    let bare = callee.is_some_and(|f| wants_bare(cr.rw.ctx, cr.rw.ir, f));
    call(cr, op, operands, bare)
}

fn call_bare(cr: &mut ConversionRewriter<'_, '_>, op: OpId, operands: &[ValueId]) -> bool {
    call(cr, op, operands, true)
}

/// The patterns of `convert-func-to-llvm`; memrefs as bare pointers when
/// `bare` (MLIR's `use-bare-ptr-memref-call-conv`).
pub(crate) fn patterns(out: &mut Vec<ConversionPattern>, bare: bool) {
    out.push(ConversionPattern {
        root: "func.func",
        name: "FuncOpConversion",
        benefit: 1,
        apply: if bare { func_bare } else { func_default },
    });
    out.push(ConversionPattern {
        root: "func.return",
        name: "ReturnOpLowering",
        benefit: 1,
        apply: if bare { ret_bare } else { ret_default },
    });
    for root in ["func.call", "func.call_indirect"] {
        out.push(ConversionPattern {
            root,
            name: "CallOpLowering",
            benefit: 1,
            apply: if bare { call_bare } else { call_default },
        });
    }
    out.push(ConversionPattern {
        root: "func.constant",
        name: "ConstantOpLowering",
        benefit: 1,
        apply: constant,
    });
}
