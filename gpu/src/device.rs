//! The device side of a module after `convert-gpu-to-nvvm`: the llvm
//! functions of every `gpu.module` in one `builtin.module` for the
//! modules' NVVM target (`nvptx64-nvidia-cuda` unless its
//! `#nvvm.target` says otherwise), translated to LLVM IR by silica's
//! LLVM path and to PTX by `llc-22`. Each kernel is named after its
//! `gpu.module` (unique in the host module: outlining makes it so), so
//! that `@m::@f` is `m` on the device; device functions and the device
//! library's declarations are shared. As MLIR's translation does it,
//! the `nvvm` ops become calls of their intrinsics (the barrier
//! `llvm.nvvm.barrier.cta.sync.aligned.all(0)`), a function marked
//! `nvvm.kernel` gets the `ptx_kernel` calling convention and its
//! launch bounds (`nvvm.maxntid`, ...) become function attributes.
//! [`ptx`] compiles LLVM IR as `gpu-module-to-binary{format=isa}` does;
//! [`module_llvm_ir`] gives one `gpu.module` as that pass translates it.

use crate::dialect::kernel::{symbol_name, MODULE};
use crate::nvvm::{self, target::Target};
use silica_ir::dialect::inherent_attr;
use silica_ir::{AttrKind, Context, Diagnostic, Ir, OpId, OpSpec, Symbol};

/// `llc-22`, which writes PTX.
pub const LLC: &str = "llc-22";
/// `opt-22`, which optimises the device code first, as MLIR does.
pub const OPT: &str = "opt-22";

/// A kernel of the device module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kernel {
    /// Its `gpu.module`, the name of its PTX entry.
    pub module: String,
    /// Its function in that module.
    pub function: String,
}

/// The device module built from a host module.
pub struct DeviceModule {
    /// The `builtin.module` of llvm ops (in the host module's IR,
    /// detached).
    pub module: OpId,
    pub kernels: Vec<Kernel>,
    /// The modules' target (the first `#nvvm.target` of the first).
    pub target: Target,
}

fn err(ir: &Ir, op: OpId, msg: impl Into<String>) -> Box<Diagnostic> {
    Box::new(Diagnostic::error(ir.op_loc(op), msg.into()))
}

/// Copies the llvm functions of every `gpu.module` of `host` (converted
/// by `convert-gpu-to-nvvm`) into a new module.
pub fn extract(
    ctx: &mut Context,
    ir: &mut Ir,
    host: OpId,
) -> Result<DeviceModule, Box<Diagnostic>> {
    let body = ir
        .regions(host)
        .next()
        .and_then(|r| ir.entry_block(r))
        .ok_or_else(|| err(ir, host, "the module has no body"))?;
    let modules: Vec<OpId> = ir
        .block_ops(body)
        .filter(|&m| ctx.str(ir.op_name(m)) == MODULE)
        .collect();
    let mut target = Target::default();
    if let Some(first) = modules.first() {
        let targets = inherent_attr(ctx, ir, *first, "targets").map(|a| ctx.attr_kind(a).clone());
        if let Some(AttrKind::Array(ts)) = targets {
            if let Some(t) = ts.iter().find_map(|&t| Target::of(ctx, t)) {
                target = t;
            }
        }
    }
    let (device, block) = empty_module(ctx, ir, host, &target);
    let mut kernels = Vec::new();
    let mut defined: Vec<String> = Vec::new();
    for m in modules {
        let module_name = symbol_name(ctx, ir, m).unwrap_or_default();
        let Some(mbody) = ir.regions(m).next().and_then(|r| ir.entry_block(r)) else {
            continue;
        };
        for f in ir.block_ops(mbody).collect::<Vec<_>>() {
            let op_name = ctx.str(ir.op_name(f)).to_string();
            if op_name != "llvm.func" {
                return Err(err(
                    ir,
                    f,
                    format!("'{op_name}' in a gpu.module has no device translation: run convert-gpu-to-nvvm first"),
                ));
            }
            let name = symbol_name_of(ctx, ir, f);
            let declaration = ir.regions(f).next().is_none_or(|r| ir.region_is_empty(r));
            let kernel = has_attr(ctx, ir, f, "nvvm.kernel");
            if declaration && defined.contains(&name) {
                continue;
            }
            let new_name = if kernel {
                kernels.push(Kernel {
                    module: module_name.clone(),
                    function: name.clone(),
                });
                module_name.clone()
            } else {
                name.clone()
            };
            if defined.contains(&new_name) {
                return Err(err(
                    ir,
                    f,
                    format!("device function '@{new_name}' is defined in two gpu.modules"),
                ));
            }
            defined.push(new_name.clone());
            let f = ir.clone_op(f);
            if new_name != name {
                let renamed = ctx_string(ctx, &new_name);
                set_prop(ctx, ir, f, "sym_name", renamed);
            }
            if kernel {
                mark_kernel(ctx, ir, f);
            }
            ir.append_op(block, f);
        }
    }
    lower_nvvm_ops(ctx, ir, device);
    define_library_functions(ctx, ir, device)?;
    Ok(DeviceModule {
        module: device,
        kernels,
        target,
    })
}

/// An empty `builtin.module` for `target` (detached), and its body.
fn empty_module(
    ctx: &mut Context,
    ir: &mut Ir,
    at: OpId,
    target: &Target,
) -> (OpId, silica_ir::BlockId) {
    let region = ir.create_region();
    let block = ir.create_block();
    ir.append_block(region, block);
    let triple = ctx.string_attr(target.triple.as_bytes());
    let key = ctx.sym("llvm.target_triple");
    let attrs = ctx.dict_attr(vec![(key, triple)]);
    let name = ctx.sym("builtin.module");
    let module = ir.create_op(OpSpec {
        name,
        loc: ir.op_loc(at),
        operands: &[],
        result_types: &[],
        successors: &[],
        regions: &[region],
        attrs,
        props: None,
    });
    (module, block)
}

/// The launch bounds MLIR's NVVM translation makes function attributes.
const LAUNCH_BOUNDS: [&str; 4] = [
    "nvvm.maxntid",
    "nvvm.reqntid",
    "nvvm.minctasm",
    "nvvm.maxnreg",
];

/// The kernel `f`: the `ptx_kernel` calling convention, its launch
/// bounds as `"nvvm.maxntid"="x,y,z"` function attributes.
fn mark_kernel(ctx: &mut Context, ir: &mut Ir, f: OpId) {
    let cc = silica_llvm::dialect::attrs::keyword_attr(ctx, "cconv", "ptx_kernelcc");
    set_prop(ctx, ir, f, "CConv", cc);
    let mut entries = Vec::new();
    for &(k, v) in ctx.dict_entries(ir.op_attrs(f)) {
        let key = ctx.str(k);
        if !LAUNCH_BOUNDS.contains(&key) {
            continue;
        }
        let value = match ctx.attr_kind(v) {
            AttrKind::DenseArray { .. } => ctx
                .int_array_values(v)
                .map(|xs| xs.iter().map(i64::to_string).collect::<Vec<_>>().join(",")),
            AttrKind::Integer { value, .. } => Some(value.to_string()),
            _ => None,
        };
        if let Some(value) = value {
            entries.push((key.to_string(), value));
        }
    }
    if entries.is_empty() {
        return;
    }
    let pairs: Vec<silica_ir::Attr> = entries
        .iter()
        .map(|(k, v)| {
            let k = ctx.string_attr(k.as_bytes());
            let v = ctx.string_attr(v.as_bytes());
            ctx.array_attr(&[k, v])
        })
        .collect();
    let passthrough = ctx.array_attr(&pairs);
    set_prop(ctx, ir, f, "passthrough", passthrough);
}

/// The LLVM IR of the `gpu.module` `m` (converted by
/// `convert-gpu-to-nvvm`) for `target`, as `gpu-module-to-binary`
/// translates it: its functions as they are (device library functions
/// stay declarations: CUDA's libdevice is not linked).
pub fn module_llvm_ir(
    ctx: &mut Context,
    ir: &mut Ir,
    m: OpId,
    target: &Target,
) -> Result<String, Box<Diagnostic>> {
    let (module, block) = empty_module(ctx, ir, m, target);
    let body = ir.regions(m).next().and_then(|r| ir.entry_block(r));
    for f in body
        .map(|b| ir.block_ops(b).collect::<Vec<_>>())
        .unwrap_or_default()
    {
        let op_name = ctx.str(ir.op_name(f)).to_string();
        if !op_name.starts_with("llvm.") {
            return Err(err(
                ir,
                f,
                format!("'{op_name}' in a gpu.module has no device translation: run convert-gpu-to-nvvm first"),
            ));
        }
        let f = ir.clone_op(f);
        if op_name == "llvm.func" && has_attr(ctx, ir, f, "nvvm.kernel") {
            mark_kernel(ctx, ir, f);
        }
        ir.append_op(block, f);
    }
    lower_nvvm_ops(ctx, ir, module);
    let text = silica_llvm::translate::translate_module(ctx, ir, module);
    ir.erase_op(module);
    text
}

fn ctx_string(ctx: &mut Context, s: &str) -> silica_ir::Attr {
    ctx.string_attr(s.as_bytes())
}

fn symbol_name_of(ctx: &Context, ir: &Ir, op: OpId) -> String {
    match inherent_attr(ctx, ir, op, "sym_name").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::String { value, .. }) => String::from_utf8_lossy(value).into_owned(),
        _ => String::new(),
    }
}

fn has_attr(ctx: &Context, ir: &Ir, op: OpId, name: &str) -> bool {
    inherent_attr(ctx, ir, op, name).is_some()
}

/// Sets property `key` of `op` (replacing one of that name).
fn set_prop(ctx: &mut Context, ir: &mut Ir, op: OpId, key: &str, value: silica_ir::Attr) {
    let key: Symbol = ctx.sym(key);
    let mut entries: Vec<_> = ir
        .op_props(op)
        .map(|p| ctx.dict_entries(p).to_vec())
        .unwrap_or_default();
    entries.retain(|(k, _)| *k != key);
    entries.push((key, value));
    let props = ctx.dict_attr(entries);
    ir.set_op_props(op, Some(props));
}

/// The device library functions with an exact LLVM intrinsic that the
/// NVPTX back end compiles (`sqrt.rn`, ...), by their name without the
/// `__nv_` prefix and `f` suffix.
const LIBRARY_INTRINSICS: [(&str, &str); 7] = [
    ("sqrt", "llvm.sqrt"),
    ("fabs", "llvm.fabs"),
    ("floor", "llvm.floor"),
    ("ceil", "llvm.ceil"),
    ("round", "llvm.round"),
    ("fma", "llvm.fma"),
    ("copysign", "llvm.copysign"),
];

/// Defines each declared device library function that has an exact
/// intrinsic as a call of it: CUDA's libdevice, which would define the
/// others, is not linked. Any other is an error naming it.
fn define_library_functions(
    ctx: &mut Context,
    ir: &mut Ir,
    module: OpId,
) -> Result<(), Box<Diagnostic>> {
    let Some(body) = ir.regions(module).next().and_then(|r| ir.entry_block(r)) else {
        return Ok(());
    };
    for f in ir.block_ops(body).collect::<Vec<_>>() {
        let name = symbol_name_of(ctx, ir, f);
        let Some(base) = name.strip_prefix("__nv_") else {
            continue;
        };
        if ir.regions(f).next().is_some_and(|r| !ir.region_is_empty(r)) {
            continue;
        }
        let Some((result, params, _)) = silica_llvm::dialect::func_type(ctx, ir, f) else {
            continue;
        };
        let suffix = if ctx.type_kind(result)
            == &silica_ir::TypeKind::Float(silica_ir::float::FloatKind::F32)
        {
            "f32"
        } else {
            "f64"
        };
        let base = base
            .strip_suffix('f')
            .filter(|_| suffix == "f32")
            .unwrap_or(base);
        let Some((_, intrinsic)) = LIBRARY_INTRINSICS.iter().find(|(n, _)| *n == base) else {
            return Err(err(
                ir,
                f,
                format!("the kernel calls '{name}' of CUDA's device library (libdevice), which silica does not link: only sqrt, fabs, floor, ceil, round, fma and copysign run on the GPU"),
            ));
        };
        let region = ir.regions(f).next().expect("llvm.func has a region");
        let block = ir.create_block();
        ir.append_block(region, block);
        let loc = ir.op_loc(f);
        let args: Vec<_> = params
            .iter()
            .map(|&t| ir.add_block_arg(block, t, Some(loc)))
            .collect();
        let props = vec![
            (
                ctx.sym("intrin"),
                ctx_string(ctx, &format!("{intrinsic}.{suffix}")),
            ),
            (ctx.sym("op_bundle_sizes"), ctx.int_array_attr(32, &[])),
            (
                ctx.sym(silica_ir::format::SEGMENTS),
                ctx.int_array_attr(32, &[args.len() as i64, 0]),
            ),
        ];
        let props = ctx.dict_attr(props);
        let name = ctx.sym("llvm.call_intrinsic");
        let attrs = ctx.empty_dict();
        let call = ir.create_op(OpSpec {
            name,
            loc,
            operands: &args,
            result_types: &[result],
            successors: &[],
            regions: &[],
            attrs,
            props: Some(props),
        });
        ir.append_op(block, call);
        let value = ir.result(call, 0);
        let name = ctx.sym("llvm.return");
        let attrs = ctx.empty_dict();
        let ret = ir.create_op(OpSpec {
            name,
            loc,
            operands: &[value],
            result_types: &[],
            successors: &[],
            regions: &[],
            attrs,
            props: None,
        });
        ir.append_op(block, ret);
        let internal = silica_llvm::dialect::attrs::keyword_attr(ctx, "linkage", "internal");
        set_prop(ctx, ir, f, "linkage", internal);
    }
    Ok(())
}

/// The `nvvm` ops of `module` as calls of their intrinsics.
fn lower_nvvm_ops(ctx: &mut Context, ir: &mut Ir, module: OpId) {
    let mut ops = Vec::new();
    ir.walk(module, &mut |o| {
        if ctx.str(ir.op_name(o)).starts_with("nvvm.") {
            ops.push(o);
        }
    });
    for op in ops {
        let name = ctx.str(ir.op_name(op)).to_string();
        let loc = ir.op_loc(op);
        let (intrinsic, operands) = if name == nvvm::BARRIER0 {
            let i32 = ctx.signless(32);
            let zero = ctx.int_attr(i32, 0);
            let key = ctx.sym("value");
            let props = ctx.dict_attr(vec![(key, zero)]);
            let cname = ctx.sym("llvm.mlir.constant");
            let attrs = ctx.empty_dict();
            let c = ir.create_op(OpSpec {
                name: cname,
                loc,
                operands: &[],
                result_types: &[i32],
                successors: &[],
                regions: &[],
                attrs,
                props: Some(props),
            });
            ir.insert_op_before(op, c);
            (
                "llvm.nvvm.barrier.cta.sync.aligned.all".to_string(),
                vec![ir.result(c, 0)],
            )
        } else {
            let Some(i) = nvvm::intrinsic(&name) else {
                continue;
            };
            (i, Vec::new())
        };
        let result_types: Vec<_> = ir.results(op).map(|r| ir.value_type(r)).collect();
        let mut props = vec![
            (ctx.sym("intrin"), ctx_string(ctx, &intrinsic)),
            (ctx.sym("op_bundle_sizes"), ctx.int_array_attr(32, &[])),
            (
                ctx.sym(silica_ir::format::SEGMENTS),
                ctx.int_array_attr(32, &[operands.len() as i64, 0]),
            ),
        ];
        if let Some(range) = inherent_attr(ctx, ir, op, "range") {
            let key = ctx.sym("llvm.range");
            let dict = ctx.dict_attr(vec![(key, range)]);
            let k = ctx.sym("res_attrs");
            props.push((k, ctx.array_attr(&[dict])));
        }
        let props = ctx.dict_attr(props);
        let cname = ctx.sym("llvm.call_intrinsic");
        let attrs = ctx.empty_dict();
        let call = ir.create_op(OpSpec {
            name: cname,
            loc,
            operands: &operands,
            result_types: &result_types,
            successors: &[],
            regions: &[],
            attrs,
            props: Some(props),
        });
        ir.insert_op_before(op, call);
        let pairs: Vec<_> = ir.results(op).zip(ir.results(call)).collect();
        for (old, new) in pairs {
            ir.replace_all_uses(old, new);
        }
        ir.erase_op(op);
    }
}

/// The LLVM IR of a device module.
pub fn llvm_ir(ctx: &Context, ir: &Ir, device: &DeviceModule) -> Result<String, Box<Diagnostic>> {
    silica_llvm::translate::translate_module(ctx, ir, device.module)
}

/// PTX for `target` from device LLVM IR, compiled as MLIR's
/// `gpu-module-to-binary{format=isa}` compiles it: LLVM's `O<n>`
/// pipeline for the target (`opt-22`), then the NVPTX back end
/// (`llc-22`, without assembly comments).
pub fn ptx(llvm_ir: &str, target: &Target) -> Result<String, String> {
    let mut args = vec![
        format!("-O{}", target.opt_level),
        format!("-mtriple={}", target.triple),
        format!("-mcpu={}", target.chip),
    ];
    if !target.features.is_empty() {
        args.push(format!("-mattr={}", target.features));
    }
    let mut opt_args = args.clone();
    opt_args.extend(["-S".to_string(), "-o".to_string(), "-".to_string()]);
    let optimized = pipe(OPT, &opt_args, llvm_ir.as_bytes())?;
    args.extend([
        "--asm-verbose=false".to_string(),
        "-o".to_string(),
        "-".to_string(),
    ]);
    let ptx = pipe(LLC, &args, &optimized)?;
    String::from_utf8(ptx).map_err(|e| format!("{LLC} wrote no text: {e}"))
}

/// `tool args` with `input` on its standard input: its standard output.
fn pipe(tool: &str, args: &[String], input: &[u8]) -> Result<Vec<u8>, String> {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(tool)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {tool} (install LLVM 22): {e}"))?;
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let input = input.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = child
        .wait_with_output()
        .map_err(|e| format!("{tool} failed: {e}"))?;
    let _ = writer.join();
    if !out.status.success() {
        return Err(format!(
            "{tool} rejected the device LLVM IR: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(out.stdout)
}
