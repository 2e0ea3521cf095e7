//! The host side of `silica gpu` (`F_host.ll`): the kernel function `F`
//! with the same signature (memrefs as `convert-func-to-llvm` passes
//! them, so a caller compiled by silica's LLVM path links unchanged),
//! whose body is the host code the passes left, each `gpu.launch_func` a
//! call of the driver layer (`gpu/runtime/silica_gpu.h`):
//! `silica_gpu_load(ptx)` on entry (the device module's PTX, a constant
//! of the module), then per launch `silica_gpu_launch(name, grid,
//! block, count, args, kinds)`, each argument on the stack and described
//! by its kind (a scalar, or a memref's rank and element bytes, its
//! descriptor passed whole: the layer copies it to the device and back).

use crate::dialect::kernel::{CONTAINER_MODULE, MODULE};
use crate::dialect::launch_func::{operands as launch_operands, LAUNCH_FUNC};
use silica_ir::conversion::{ConversionPattern, ConversionRewriter};
use silica_ir::dialect::inherent_attr;
use silica_ir::pass::{Instrumentation, OpPassManager};
use silica_ir::rewrite::{NoListener, Rewriter};
use silica_ir::{AttrKind, Context, Diagnostic, Ir, OpId, OpSpec, Type, TypeKind, ValueId};
use silica_llvm::conversion::{GepIndex, Llvm};
use silica_llvm::dialect::types;

/// The global holding the PTX text.
const PTX_GLOBAL: &str = "__silica_gpu_ptx";

/// The global holding a kernel's name.
fn name_global(kernel: &str) -> String {
    format!("__silica_gpu_name_{kernel}")
}

/// A constant global `@name` of the bytes of `text` and a NUL.
fn string_global(ctx: &mut Context, ir: &mut Ir, body: silica_ir::BlockId, name: &str, text: &str) {
    let mut bytes = text.as_bytes().to_vec();
    bytes.push(0);
    let i8t = ctx.signless(8);
    let array = types::array(ctx, bytes.len() as u64, i8t);
    let (t32, t64) = (ctx.signless(32), ctx.signless(64));
    let props = vec![
        (ctx.sym("addr_space"), ctx.int_attr(t32, 0)),
        (ctx.sym("constant"), ctx.unit_attr()),
        (
            ctx.sym("global_type"),
            ctx.intern_attr(AttrKind::Type(array)),
        ),
        (
            ctx.sym("linkage"),
            silica_llvm::dialect::attrs::keyword_attr(ctx, "linkage", "private"),
        ),
        (ctx.sym("sym_name"), ctx.string_attr(name.as_bytes())),
        (ctx.sym("value"), ctx.string_attr(&bytes)),
        (ctx.sym("visibility_"), ctx.int_attr(t64, 0)),
    ];
    let props = ctx.dict_attr(props);
    let region = ir.create_region();
    let op_name = ctx.sym("llvm.mlir.global");
    let attrs = ctx.empty_dict();
    let loc = ctx.unknown_loc();
    let global = ir.create_op(OpSpec {
        name: op_name,
        loc,
        operands: &[],
        result_types: &[],
        successors: &[],
        regions: &[region],
        attrs,
        props: Some(props),
    });
    match ir.first_op(body) {
        Some(first) => ir.insert_op_before(first, global),
        None => ir.append_op(body, global),
    }
}

/// `llvm.mlir.addressof @name` at the builder's insertion point.
fn address_of(b: &mut Llvm<'_, '_>, name: &str) -> ValueId {
    let ptr = types::ptr(b.rw.ctx, 0);
    let root = b.rw.ctx.sym(name);
    let symbol = b.rw.ctx.intern_attr(AttrKind::SymbolRef {
        root,
        nested: Box::new([]),
    });
    b.value("llvm.mlir.addressof", &[], ptr, &[("global_name", symbol)])
}

/// The bytes an element of a memref of `element` takes in memory.
fn element_bytes(ctx: &Context, element: Type) -> Option<i64> {
    match ctx.type_kind(element) {
        TypeKind::Index => Some(8),
        TypeKind::Integer { width, .. } => Some(i64::from(width.div_ceil(8)).max(1)),
        TypeKind::Float(k) => Some(i64::from(k.bit_width().div_ceil(8))),
        _ => None,
    }
}

/// The kind of a launch argument of type `t` (`silica_gpu.h`): 0 for a
/// scalar, `(rank << 8) | element bytes` for a memref.
fn kind(ctx: &Context, t: Type) -> Option<i64> {
    match ctx.type_kind(t) {
        TypeKind::MemRef {
            shape,
            element,
            layout,
            ..
        } => {
            if layout.is_some() || shape.len() > 8 {
                return None;
            }
            Some(((shape.len() as i64) << 8) | element_bytes(ctx, *element)?)
        }
        TypeKind::UnrankedMemRef { .. } => None,
        _ => Some(0),
    }
}

/// `gpu.launch_func` as the launch of the driver layer.
fn lower_launch(cr: &mut ConversionRewriter<'_, '_>, op: OpId, operands: &[ValueId]) -> bool {
    let (ctx, ir) = (&*cr.rw.ctx, &*cr.rw.ir);
    let Some(groups) = launch_operands(ctx, ir, op) else {
        return false;
    };
    let Some(AttrKind::SymbolRef { root, .. }) =
        inherent_attr(ctx, ir, op, "kernel").map(|a| ctx.attr_kind(a))
    else {
        return false;
    };
    let kernel = ctx.str(*root).to_string();
    let kinds: Option<Vec<i64>> = groups
        .args
        .iter()
        .map(|&a| kind(ctx, ir.value_type(a)))
        .collect();
    let Some(kinds) = kinds else {
        cr.error(op, "a kernel argument of a type the GPU driver layer cannot pass (a memref with a layout, of rank above 8, or unranked)");
        return false;
    };
    let first_arg = 6 + usize::from(groups.dynamic_shared.is_some());
    let loc = cr.rw.ir.op_loc(op);
    let mut b = Llvm::new(cr, loc);
    let (i32t, i64t) = (b.rw.ctx.signless(32), b.rw.ctx.signless(64));
    let ptr = types::ptr(b.rw.ctx, 0);
    let count = kinds.len() as i64;
    let one = {
        let a = b.rw.ctx.int_attr(i64t, 1);
        b.constant(a, i64t)
    };
    let n = {
        let a = b.rw.ctx.int_attr(i64t, count.max(1));
        b.constant(a, i64t)
    };
    let ptr_type = b.rw.ctx.intern_attr(AttrKind::Type(ptr));
    let args = b.value("llvm.alloca", &[n], ptr, &[("elem_type", ptr_type)]);
    let i64_type = b.rw.ctx.intern_attr(AttrKind::Type(i64t));
    let kind_slots = b.value("llvm.alloca", &[n], ptr, &[("elem_type", i64_type)]);
    for (i, (&value, &k)) in operands[first_arg..].iter().zip(&kinds).enumerate() {
        let slot = b.store_on_stack(value, one);
        let at = b.gep(args, ptr, &[GepIndex::Const(i as i32)], 0);
        b.op("llvm.store", &[slot, at], &[], &[]);
        let k = {
            let a = b.rw.ctx.int_attr(i64t, k);
            b.constant(a, i64t)
        };
        let at = b.gep(kind_slots, i64t, &[GepIndex::Const(i as i32)], 0);
        b.op("llvm.store", &[k, at], &[], &[]);
    }
    let name = address_of(&mut b, &name_global(&kernel));
    let count = {
        let a = b.rw.ctx.int_attr(i32t, count);
        b.constant(a, i32t)
    };
    let mut call_args = vec![name];
    call_args.extend_from_slice(&operands[0..6]);
    call_args.extend([count, args, kind_slots]);
    b.call("silica_gpu_launch", &call_args, &[]);
    let params = [ptr, i64t, i64t, i64t, i64t, i64t, i64t, i32t, ptr, ptr];
    let void = types::void(cr.rw.ctx);
    silica_llvm::conversion::declare_function(&mut cr.rw, op, "silica_gpu_launch", &params, void);
    cr.replace_op(op, &[]);
    true
}

/// The host module `host` (after `crate::flow::compile`, the devices'
/// code moved out) as `F_host.ll`, loading `ptx`.
pub fn host_code(
    ctx: &mut Context,
    ir: &mut Ir,
    host: OpId,
    top: &str,
    kernels: &[crate::device::Kernel],
    ptx: &str,
) -> Result<String, Box<Diagnostic>> {
    let body = ir
        .regions(host)
        .next()
        .and_then(|r| ir.entry_block(r))
        .ok_or_else(|| Box::new(Diagnostic::error(ir.op_loc(host), "the module has no body")))?;
    string_global(ctx, ir, body, PTX_GLOBAL, ptx);
    for k in kernels {
        string_global(ctx, ir, body, &name_global(&k.module), &k.module);
    }
    load_on_entry(ctx, ir, host, top)?;
    let mut pm = OpPassManager::new("builtin.module");
    for pass in [
        &silica_dialects::transforms::scf_to_cf::CONVERT_SCF_TO_CF,
        &silica_ir::conversion::RECONCILE_UNREALIZED_CASTS,
    ] {
        pm.add_pass(pass, Vec::new())
            .map_err(|e| Box::new(Diagnostic::error(ir.op_loc(host), e)))?;
    }
    let instr = Instrumentation {
        verify_each: true,
        ..Instrumentation::default()
    };
    pm.run(ctx, ir, host, &instr)?;
    // The kernels are the device's now.
    for m in ir.block_ops(body).collect::<Vec<_>>() {
        if ctx.str(ir.op_name(m)) == MODULE {
            ir.erase_op(m);
        }
    }
    let container = ctx.sym(CONTAINER_MODULE);
    let attrs: Vec<_> = ctx
        .dict_entries(ir.op_attrs(host))
        .iter()
        .filter(|(k, _)| *k != container)
        .copied()
        .collect();
    let attrs = ctx.dict_attr(attrs);
    ir.set_op_attrs(host, attrs);
    let mut patterns = Vec::new();
    silica_llvm::conversion::passes::standard_patterns(&mut patterns);
    silica_llvm::conversion::passes::math_patterns(&mut patterns);
    patterns.push(ConversionPattern {
        root: LAUNCH_FUNC,
        name: "LaunchFuncToDriverLayer",
        benefit: 1,
        apply: lower_launch,
    });
    let lowering = silica_llvm::conversion::passes::conversion_pass(
        "silica-gpu-host",
        vec!["arith", "cf", "func", "memref", "index", "gpu"],
        patterns,
        64,
        false,
    );
    lowering.run(ctx, ir, host)?;
    let mut pm = OpPassManager::new("builtin.module");
    pm.add_pass(
        &silica_ir::conversion::RECONCILE_UNREALIZED_CASTS,
        Vec::new(),
    )
    .map_err(|e| Box::new(Diagnostic::error(ir.op_loc(host), e)))?;
    pm.run(ctx, ir, host, &instr)?;
    silica_llvm::translate::translate_module(ctx, ir, host)
}

/// `func.call @silica_gpu_load(ptx)` at the start of `top`.
fn load_on_entry(
    ctx: &mut Context,
    ir: &mut Ir,
    host: OpId,
    top: &str,
) -> Result<(), Box<Diagnostic>> {
    let func = silica_ir::symbols::lookup(ctx, ir, host, top).ok_or_else(|| {
        Box::new(Diagnostic::error(
            ir.op_loc(host),
            format!("no function '{top}'"),
        ))
    })?;
    let entry = ir
        .regions(func)
        .next()
        .and_then(|r| ir.entry_block(r))
        .ok_or_else(|| Box::new(Diagnostic::error(ir.op_loc(func), "the kernel has no body")))?;
    let loc = ir.op_loc(func);
    let ptr = types::ptr(ctx, 0);
    let i64t = ctx.signless(64);
    let mut listener = NoListener;
    let mut rw = Rewriter::new(ctx, ir, &mut listener);
    match rw.ir.first_op(entry) {
        Some(first) => rw.set_insertion_point(first),
        None => rw.set_insertion_point_to_end(entry),
    }
    let mut b = Llvm::on(&mut rw, loc, i64t);
    let ptx = address_of(&mut b, PTX_GLOBAL);
    let callee = rw.ctx.sym("silica_gpu_load");
    let callee = rw.ctx.intern_attr(AttrKind::SymbolRef {
        root: callee,
        nested: Box::new([]),
    });
    let key = rw.ctx.sym("callee");
    let props = rw.ctx.dict_attr(vec![(key, callee)]);
    rw.create_simple("func.call", &[ptx], &[], Some(props), loc);
    // Its declaration.
    let fty = rw.ctx.function_type(&[ptr], &[]);
    let props = vec![
        (
            rw.ctx.sym("function_type"),
            rw.ctx.intern_attr(AttrKind::Type(fty)),
        ),
        (
            rw.ctx.sym("sym_name"),
            rw.ctx.string_attr(b"silica_gpu_load"),
        ),
        (rw.ctx.sym("sym_visibility"), rw.ctx.string_attr(b"private")),
    ];
    let props = rw.ctx.dict_attr(props);
    let region = rw.ir.create_region();
    let name = rw.ctx.sym("func.func");
    let attrs = rw.ctx.empty_dict();
    let decl = rw.ir.create_op(OpSpec {
        name,
        loc,
        operands: &[],
        result_types: &[],
        successors: &[],
        regions: &[region],
        attrs,
        props: Some(props),
    });
    rw.ir.insert_op_before(func, decl);
    Ok(())
}

/// The C type of a scalar parameter of the kernel.
fn c_type(ctx: &Context, t: Type) -> Option<&'static str> {
    Some(match ctx.type_kind(t) {
        TypeKind::Index => "int64_t",
        TypeKind::Integer { width: 1, .. } => "bool",
        TypeKind::Integer { width: 8, .. } => "int8_t",
        TypeKind::Integer { width: 16, .. } => "int16_t",
        TypeKind::Integer { width: 32, .. } => "int32_t",
        TypeKind::Integer { width: 64, .. } => "int64_t",
        TypeKind::Float(k) if k.bit_width() == 32 => "float",
        TypeKind::Float(k) if k.bit_width() == 64 => "double",
        _ => return None,
    })
}

/// `F.h`: the C declaration of the host side's `F`, each memref as
/// silica's LLVM path passes it (allocated and aligned pointers,
/// offset, sizes, strides).
pub fn header(ctx: &Context, inputs: &[Type], top: &str) -> Result<String, String> {
    let mut params = Vec::new();
    for (i, &t) in inputs.iter().enumerate() {
        match ctx.type_kind(t) {
            TypeKind::MemRef { shape, element, .. } => {
                let e = c_type(ctx, *element)
                    .ok_or_else(|| format!("argument {i}: no C type for its elements"))?;
                params.push(format!("{e}* arg{i}_allocated"));
                params.push(format!("{e}* arg{i}_aligned"));
                params.push(format!("int64_t arg{i}_offset"));
                for d in 0..shape.len() {
                    params.push(format!("int64_t arg{i}_size{d}"));
                }
                for d in 0..shape.len() {
                    params.push(format!("int64_t arg{i}_stride{d}"));
                }
            }
            _ => {
                let c = c_type(ctx, t).ok_or_else(|| format!("argument {i}: no C type"))?;
                params.push(format!("{c} arg{i}"));
            }
        }
    }
    let guard = format!("{}_GPU_H", top.to_uppercase());
    Ok(format!(
        "/* The host side of `silica gpu` for '{top}' ({top}_host.ll): {top} with\n   \
         its memrefs as silica's LLVM path passes them. It runs the kernel on\n   \
         the GPU through silica_gpu.c (see silica_gpu.h for its errors). */\n\
         #ifndef {guard}\n#define {guard}\n\n#include <stdbool.h>\n#include <stdint.h>\n\n\
         void {top}({});\n\n#endif\n",
        params.join(", ")
    ))
}
