//! The software side of a co-simulation: the kernel run on the host.
//!
//! A harness is added to (a printed copy of) the kernel's module, less
//! the functions the kernel does not call: one
//! `memref.global` of integers per memory argument holding its random
//! words, and `cosim_main`, which copies them into freshly allocated
//! memrefs of the kernel's types (`arith.bitcast` for floats,
//! `arith.index_cast` for `index`), calls the kernel with them and the
//! scalar inputs, and prints every word of every memory argument (a
//! returned buffer's from the call's result), then every scalar result, one per line in hex (`printf`, 64-bit chunks for
//! wider values; a module that declares `printf` itself, as a program
//! printing its results does, keeps its declaration). The module is lowered in process by silica's own
//! passes (`convert-linalg-to-affine-loops`, `lower-affine`, DMA transfers as plain copies
//! (`dma_copies.rs`), `convert-scf-to-cf`, `convert-to-llvm`,
//! `reconcile-unrealized-casts`), translated to LLVM IR and run by
//! `lli-22`.

use super::outputs::Outputs;
use super::process::{run_tool, Limits};
use super::stimuli::Stimuli;
use super::CosimError;
use crate::model::interface::element_type;
use crate::model::interface::{ArgKind, Interface};
use num_bigint::{BigInt, BigUint, Sign};
use silica_ir::dialect::inherent_attr;
use silica_ir::parser::{parse, ParseOptions};
use silica_ir::pass::{Instrumentation, OpPassManager};
use silica_ir::printer::module_text;
use silica_ir::{AttrKind, Context, Ir, OpId, Type, ValueId};
use std::collections::BTreeSet;
use std::fmt::Write;
use std::path::Path;

/// The LLVM interpreter that runs the software side.
pub const LLI: &str = "lli-22";

/// The entry point of the harness.
const ENTRY: &str = "cosim_main";

/// Runs the kernel `iface.top` of `module` on `stimuli` in `lli-22`,
/// working in `dir`, and returns what it printed.
pub fn run(
    ctx: &mut Context,
    ir: &Ir,
    module: OpId,
    iface: &Interface,
    stimuli: &Stimuli,
    dir: &Path,
    limits: &Limits,
) -> Result<Outputs, CosimError> {
    let declares_printf = check_symbols(ctx, ir, module).map_err(CosimError::Input)?;
    let with_models = call_models(ctx, ir, module);
    let ir = with_models.as_ref().unwrap_or(ir);
    let kernel_only = only_the_kernel(ctx, ir, module, &iface.top);
    let ir = kernel_only.as_ref().unwrap_or(ir);
    let checked = bounds_checked(ctx, ir, module);
    let kernel = module_text(ctx, checked.as_ref().unwrap_or(ir), module);
    let source = with_harness(
        &kernel,
        iface,
        stimuli,
        (declares_printf, checked.is_some()),
    )
    .map_err(CosimError::Input)?;
    let llvm_ir = lower(ctx, &source)?;
    let file = dir.join("software.ll");
    std::fs::write(&file, llvm_ir)
        .map_err(|e| CosimError::Tool(format!("cannot write {}: {e}", file.display())))?;
    let entry = format!("--entry-function={ENTRY}");
    let out = run_tool(LLI, &[entry.as_str(), "software.ll"], dir, limits).map_err(|e| {
        // A bounds check that failed said why on standard output.
        let printed = std::fs::read_to_string(dir.join(format!("{LLI}.stdout")));
        if let Some(check) = printed
            .iter()
            .flat_map(|t| t.lines())
            .find(|l| l.contains(BOUNDS_CHECK))
        {
            return CosimError::OutOfBounds(format!("{check}: the run stopped there"));
        }
        let hint = if iface.scalars().next().is_some() {
            "\n(random scalar inputs may be outside what the kernel expects: give them fixed values)"
        } else {
            ""
        };
        CosimError::Software(format!("{e}{hint}"))
    })?;
    Outputs::parse(&out, iface).map_err(|e| CosimError::Software(format!("{LLI}: {e}")))
}

/// A copy of `module` without the functions with a body that the kernel
/// `top` does not call (a program's `main`, other kernels: nothing the
/// harness runs, and maybe nothing the LLVM path takes); none where
/// every function is the kernel's.
fn only_the_kernel(ctx: &Context, ir: &Ir, module: OpId, top: &str) -> Option<Ir> {
    let func = crate::flow::front::find_top(ctx, ir, module, top).ok()?;
    let kept = crate::flow::front::call_order(ctx, ir, func).ok()?;
    let block = ir.regions(module).next().and_then(|r| ir.entry_block(r))?;
    let unrelated: Vec<OpId> = ir
        .block_ops(block)
        .filter(|&op| {
            ctx.str(ir.op_name(op)) == "func.func"
                && ir
                    .regions(op)
                    .next()
                    .is_some_and(|r| !ir.region_is_empty(r))
                && !kept.contains(&op)
        })
        .collect();
    if unrelated.is_empty() {
        return None;
    }
    let mut copy = ir.clone();
    for op in unrelated {
        copy.erase_op(op);
    }
    Some(copy)
}

/// What a failed bounds check of the software run prints, after the
/// access's place and index (`bounds_checked`).
const BOUNDS_CHECK: &str = "is past its memref's dimension";

/// A copy of `module` in which every `memref.load` and `memref.store`
/// whose index is not a constant (an address the data may compute) first
/// asserts each index below its dimension (`cf.assert`, its message
/// naming the op's place): a software run past a memory stops there,
/// instead of reading or writing another memory's words. None where no
/// such access is.
fn bounds_checked(ctx: &mut Context, ir: &Ir, module: OpId) -> Option<Ir> {
    let mut accesses = Vec::new();
    ir.walk(module, &mut |op| {
        let memref = match ctx.str(ir.op_name(op)) {
            "memref.load" => 0,
            "memref.store" => 1,
            _ => return,
        };
        let constant = |v| {
            ir.defining_op(v)
                .is_some_and(|d| ctx.str(ir.op_name(d)) == "arith.constant")
        };
        if ir.operands(op).skip(memref + 1).any(|v| !constant(v)) {
            accesses.push((op, memref));
        }
    });
    if accesses.is_empty() {
        return None;
    }
    let mut out = ir.clone();
    let index = ctx.index_type();
    let (i1, i64t) = (ctx.signless(1), ctx.signless(64));
    for (op, memref) in accesses {
        let loc = out.op_loc(op);
        let place = silica_ir::diag::file_line_col(ctx, loc)
            .map_or(String::new(), |(f, l, c)| format!("{f}:{l}:{c}: "));
        let name = ctx.str(out.op_name(op)).to_string();
        let shape = silica_affine::region::memref_shape(ctx, &out, out.operand(op, memref))
            .unwrap_or_default();
        let indices: Vec<ValueId> = out.operands(op).skip(memref + 1).collect();
        for (d, (&size, &i)) in shape.iter().zip(&indices).enumerate() {
            if size < 0 {
                continue;
            }
            let bound = ctx.int_attr(index, i128::from(size));
            let c = insert(
                ctx,
                &mut out,
                op,
                "arith.constant",
                &[],
                &[index],
                vec![("value", bound)],
                loc,
            );
            let c = out.result(c, 0);
            let ult = ctx.int_attr(i64t, 6);
            let ok = insert(
                ctx,
                &mut out,
                op,
                "arith.cmpi",
                &[i, c],
                &[i1],
                vec![("predicate", ult)],
                loc,
            );
            let ok = out.result(ok, 0);
            let msg = ctx.string_attr(
                format!("{place}'{name}' index {d} {BOUNDS_CHECK} of {size}").as_bytes(),
            );
            insert(
                ctx,
                &mut out,
                op,
                "cf.assert",
                &[ok],
                &[],
                vec![("msg", msg)],
                loc,
            );
        }
    }
    Some(out)
}

/// Inserts op `name` before `before`.
#[allow(clippy::too_many_arguments)]
fn insert(
    ctx: &mut Context,
    ir: &mut Ir,
    before: OpId,
    name: &str,
    operands: &[ValueId],
    results: &[Type],
    attrs: Vec<(&str, silica_ir::Attr)>,
    loc: silica_ir::Attr,
) -> OpId {
    let attrs: Vec<_> = attrs.into_iter().map(|(k, v)| (ctx.sym(k), v)).collect();
    let attrs = ctx.dict_attr(attrs);
    let name = ctx.sym(name);
    let op = ir.create_op(silica_ir::OpSpec {
        name,
        loc,
        operands,
        result_types: results,
        successors: &[],
        regions: &[],
        attrs,
        props: None,
    });
    ir.insert_op_before(before, op);
    op
}

/// The type of C's `printf` as the harness declares it, and the same in
/// `llvm.func`'s custom form.
const PRINTF_TYPE: &str = "!llvm.func<i32 (ptr, ...)>";
const PRINTF_SIGNATURE: &str = "(!llvm.ptr, ...) -> i32";

/// Checks that the module defines none of the harness's symbols
/// (`cosim_*`, and `printf` other than as the harness's own external
/// declaration); says whether it declares `printf` (a program that
/// prints its results does), so the harness does not declare it again.
fn check_symbols(ctx: &Context, ir: &Ir, module: OpId) -> Result<bool, String> {
    let Some(body) = ir.regions(module).next().and_then(|r| ir.entry_block(r)) else {
        return Ok(false);
    };
    let mut declares_printf = false;
    for op in ir.block_ops(body) {
        let name = inherent_attr(ctx, ir, op, "sym_name").map(|a| ctx.attr_kind(a));
        let Some(AttrKind::String { value, .. }) = name else {
            continue;
        };
        let name = String::from_utf8_lossy(value);
        if name == "printf" && is_printf_declaration(ctx, ir, op) {
            declares_printf = true;
        } else if name == "printf" || name.starts_with("cosim_") {
            let what = if name == "printf" {
                format!("'@printf' other than as `llvm.func @printf{PRINTF_SIGNATURE}`")
            } else {
                format!("'@{name}'")
            };
            return Err(format!(
                "the kernel module defines {what}, a name the co-simulation harness uses"
            ));
        }
    }
    Ok(declares_printf)
}

/// Whether `op` is the external declaration `llvm.func @printf(!llvm.ptr,
/// ...) -> i32`.
fn is_printf_declaration(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    let bodiless = ir.regions(op).all(|r| ir.region_is_empty(r));
    let ty = inherent_attr(ctx, ir, op, "function_type").map(|a| ctx.attr_kind(a));
    ctx.str(ir.op_name(op)) == "llvm.func"
        && bodiless
        && matches!(ty, Some(AttrKind::Type(t)) if silica_ir::printer::type_to_string(ctx, *t) == PRINTF_TYPE)
}

/// The module with every call of a function bound to Verilog (`hls.ip`)
/// calling its software model (`hls.ip_model`) instead; `None` when
/// there is none.
fn call_models(ctx: &mut Context, ir: &Ir, module: OpId) -> Option<Ir> {
    let models = crate::flow::front::ip::models(ctx, ir, module);
    if models.is_empty() {
        return None;
    }
    let mut out = ir.clone();
    let mut calls = Vec::new();
    ir.walk(module, &mut |op| {
        if ctx.str(ir.op_name(op)) == "func.call" {
            calls.push(op);
        }
    });
    for op in calls {
        let callee = inherent_attr(ctx, ir, op, "callee").and_then(|a| match ctx.attr_kind(a) {
            AttrKind::SymbolRef { root, .. } => Some(ctx.str(*root).to_string()),
            _ => None,
        });
        if let Some((_, model)) = models.iter().find(|(f, _)| Some(f) == callee.as_ref()) {
            let root = ctx.sym(model);
            let sym = ctx.intern_attr(AttrKind::SymbolRef {
                root,
                nested: Box::new([]),
            });
            silica_ir::dialect::set_inherent_attr(ctx, &mut out, op, "callee", sym);
        }
    }
    Some(out)
}

/// Lowers the module `source` (text) by silica's LLVM path (affine, DMA
/// transfers as copies, scf, everything to the llvm dialect) and translates
/// it to LLVM IR.
pub fn lower(ctx: &mut Context, source: &str) -> Result<String, CosimError> {
    let internal = |ctx: &Context, what: &str, d: &silica_ir::Diagnostic| {
        let at = silica_ir::diag::file_line_col(ctx, d.loc)
            .map(|(f, l, c)| format!("{f}:{l}:{c}: "))
            .unwrap_or_default();
        CosimError::Software(format!(
            "the software harness {what}: {at}{}\n{source}",
            d.message
        ))
    };
    let mut m = parse(
        ctx,
        "cosim-harness.mlir",
        source.as_bytes(),
        ParseOptions::default(),
    )
    .map_err(|d| internal(ctx, "does not parse", &d))?;
    // Blocks no branch reaches are not lowered (as in MLIR): gone first.
    let regions: Vec<_> = m.ir.regions(m.top).collect();
    let mut listener = silica_ir::rewrite::NoListener;
    let mut rw = silica_ir::rewrite::Rewriter::new(ctx, &mut m.ir, &mut listener);
    silica_ir::rewrite::erase_unreachable_blocks(&mut rw, &regions);
    let instr = Instrumentation {
        verify_each: true,
        ..Instrumentation::default()
    };
    let stages: [&[_]; 2] = [
        &[
            &silica_linalg::lower::CONVERT_LINALG_TO_AFFINE_LOOPS,
            &silica_affine::lower::LOWER_AFFINE,
        ],
        &[
            &silica_dialects::transforms::scf_to_cf::CONVERT_SCF_TO_CF,
            &silica_llvm::conversion::passes::CONVERT_TO_LLVM,
            &silica_ir::conversion::RECONCILE_UNREALIZED_CASTS,
        ],
    ];
    for (i, passes) in stages.into_iter().enumerate() {
        if i == 1 {
            // DMA transfers become plain copies (`dma_copies.rs`).
            super::dma_copies::lower_dma_to_copies(ctx, &mut m.ir, m.top)
                .map_err(CosimError::Input)?;
        }
        let mut pm = OpPassManager::new("builtin.module");
        for &pass in passes {
            pm.add_pass(pass, Vec::new())
                .map_err(|e| CosimError::Software(format!("cannot build the lowering: {e}")))?;
        }
        pm.run(ctx, &mut m.ir, m.top, &instr)
            .map_err(|d| internal(ctx, "does not lower to the llvm dialect", &d))?;
    }
    silica_llvm::translate::translate_module(ctx, &m.ir, m.top)
        .map_err(|d| internal(ctx, "does not translate to LLVM IR", &d))
}

/// `kernel` (a printed module) with the harness added at the end of its
/// body; `declares_printf` when the kernel's module declares `printf`
/// already.
pub fn with_harness(
    kernel: &str,
    iface: &Interface,
    stimuli: &Stimuli,
    (declares_printf, unbuffered): (bool, bool),
) -> Result<String, String> {
    let end = kernel
        .rfind('}')
        .ok_or_else(|| "the kernel module has no body".to_string())?;
    let mut h = Harness {
        unbuffered,
        ..Harness::default()
    };
    h.build(iface, stimuli);
    if !declares_printf {
        h.globals
            .push_str(&format!("  llvm.func @printf{PRINTF_SIGNATURE}\n"));
    }
    if unbuffered {
        h.globals.push_str(concat!(
            "  llvm.mlir.global external @stdout() {addr_space = 0 : i32} : !llvm.ptr\n",
            "  llvm.func @setvbuf(!llvm.ptr, !llvm.ptr, i32, i64) -> i32\n",
        ));
    }
    let mut out = String::with_capacity(kernel.len() + h.globals.len() + h.main.len());
    out.push_str(&kernel[..end]);
    out.push_str(&h.globals);
    out.push_str(&h.printers());
    out.push_str(&h.main);
    out.push_str(&kernel[end..]);
    Ok(out)
}

/// The body of a loop nest over a memory: gets the harness, the text
/// being written, the induction variables and the linear index.
type LoopBody<'a> = dyn FnMut(&mut Harness, &mut String, &[String], &str) + 'a;

/// The harness's text, built in pieces.
#[derive(Default)]
struct Harness {
    /// Globals: input words and format strings.
    globals: String,
    /// `cosim_main`.
    main: String,
    /// Bit widths that need a printing function.
    widths: BTreeSet<u32>,
    /// A counter for fresh SSA names.
    next: usize,
    /// Standard output unbuffered (a failed bounds check's message, which
    /// `cf.assert` prints before it aborts, is not lost).
    unbuffered: bool,
}

/// How a value of a scalar type becomes its bits (`i<w>`) and back.
fn bits_type(ty: &str, width: u32) -> (String, Conversion) {
    let int = format!("i{width}");
    let conversion = if ty == "index" {
        Conversion::Index
    } else if ty == int {
        Conversion::None
    } else {
        Conversion::Bitcast
    };
    (int, conversion)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Conversion {
    None,
    Bitcast,
    Index,
}

impl Harness {
    fn fresh(&mut self) -> String {
        self.next += 1;
        format!("%h{}", self.next)
    }

    fn build(&mut self, iface: &Interface, stimuli: &Stimuli) {
        self.globals.push_str(concat!(
            "  llvm.mlir.global internal constant @cosim_fmt_line(\"%llx\\0A\\00\") {addr_space = 0 : i32}\n",
            "  llvm.mlir.global internal constant @cosim_fmt_top(\"%llx\\00\") {addr_space = 0 : i32}\n",
            "  llvm.mlir.global internal constant @cosim_fmt_chunk(\"%016llx\\00\") {addr_space = 0 : i32}\n",
            "  llvm.mlir.global internal constant @cosim_fmt_last(\"%016llx\\0A\\00\") {addr_space = 0 : i32}\n",
        ));
        let mut m = String::new();
        m.push_str(&format!("  func.func @{ENTRY}() -> i32 {{\n"));
        m.push_str("    %c0 = arith.constant 0 : index\n    %c1 = arith.constant 1 : index\n");
        if self.unbuffered {
            // setvbuf(stdout, NULL, _IONBF, 0)
            m.push_str(concat!(
                "    %cosim_so = llvm.mlir.addressof @stdout : !llvm.ptr\n",
                "    %cosim_out = llvm.load %cosim_so : !llvm.ptr -> !llvm.ptr\n",
                "    %cosim_null = llvm.mlir.zero : !llvm.ptr\n",
                "    %cosim_mode = arith.constant 2 : i32\n",
                "    %cosim_size = arith.constant 0 : i64\n",
                "    %cosim_set = llvm.call @setvbuf(%cosim_out, %cosim_null, %cosim_mode, %cosim_size) : (!llvm.ptr, !llvm.ptr, i32, i64) -> i32\n",
            ));
        }
        // The call's results: the scalars and the returned buffers, each
        // at its position among the function's results.
        let mut result_types: Vec<(usize, &str)> = iface
            .results
            .iter()
            .map(|r| (r.index, r.ty.as_str()))
            .chain(
                iface
                    .memories()
                    .filter_map(|(a, m)| Some((a.returned?, m.ty.as_str()))),
            )
            .collect();
        result_types.sort_unstable();
        let results = if result_types.is_empty() {
            String::new()
        } else {
            self.fresh()
        };
        // Each argument's value (a returned buffer's: the call's result),
        // and the call's operands.
        let mut operands = Vec::new();
        let mut call_operands = Vec::new();
        let mut operand_types = Vec::new();
        for arg in &iface.args {
            let words = &stimuli.values[arg.index];
            if let Some(position) = arg.returned {
                operands.push(format!("{results}#{position}"));
                continue;
            }
            match &arg.kind {
                ArgKind::Scalar(s) => {
                    let v = self.scalar_input(&mut m, &s.ty, s.width, &words[0]);
                    operands.push(v.clone());
                    call_operands.push(v);
                    operand_types.push(s.ty.clone());
                }
                ArgKind::Memory(mem) => {
                    let elem = element_type(&mem.ty).to_string();
                    let (int, _) = bits_type(&elem, mem.element_width);
                    let global = format!("@cosim_in{}", arg.index);
                    let _ = writeln!(
                        self.globals,
                        "  memref.global \"private\" {global} : memref<{}x{int}> = dense<[{}]>",
                        mem.elements(),
                        words
                            .iter()
                            .map(|w| dense_literal(w, mem.element_width))
                            .collect::<Vec<_>>()
                            .join(", ")
                    );
                    let g = self.fresh();
                    let buffer = self.fresh();
                    let _ = writeln!(
                        m,
                        "    {g} = memref.get_global {global} : memref<{}x{int}>",
                        mem.elements()
                    );
                    let _ = writeln!(m, "    {buffer} = memref.alloc() : {}", mem.ty);
                    let copy = Copy {
                        global: &g,
                        words: mem.elements(),
                        buffer: &buffer,
                        ty: &mem.ty,
                        elem: &elem,
                        width: mem.element_width,
                    };
                    self.copy_in(&mut m, &mem.shape, &copy);
                    operands.push(buffer.clone());
                    call_operands.push(buffer);
                    operand_types.push(mem.ty.clone());
                }
            }
        }
        if results.is_empty() {
            m.push_str("    ");
        } else {
            m.push_str(&format!("    {results}:{} = ", result_types.len()));
        }
        let result_types: Vec<&str> = result_types.iter().map(|&(_, t)| t).collect();
        let _ = writeln!(
            m,
            "func.call @{}({}) : ({}) -> ({})",
            iface.top,
            call_operands.join(", "),
            operand_types.join(", "),
            result_types.join(", ")
        );
        for (arg, mem) in iface.memories() {
            let elem = element_type(&mem.ty).to_string();
            let print = Print {
                buffer: &operands[arg.index],
                ty: &mem.ty,
                elem: &elem,
                width: mem.element_width,
            };
            self.print_memory(&mut m, &mem.shape, &print);
        }
        for r in &iface.results {
            let value = format!("{results}#{}", r.index);
            let bits = self.bits_of(&mut m, &value, &r.ty, r.width);
            self.print_bits(&mut m, &bits, r.width);
        }
        m.push_str("    %ok = arith.constant 0 : i32\n    return %ok : i32\n  }\n");
        self.main = m;
    }

    /// A scalar input of type `ty` with the bits `value`.
    fn scalar_input(&mut self, m: &mut String, ty: &str, width: u32, value: &BigUint) -> String {
        let v = self.fresh();
        let (int, conversion) = bits_type(ty, width);
        match conversion {
            Conversion::Index => {
                let literal = dense_literal(value, crate::model::interface::INDEX_WIDTH);
                let _ = writeln!(m, "    {v} = arith.constant {literal} : index");
                return v;
            }
            Conversion::None => {
                // `true`/`false` carry their type.
                let ty = if width == 1 {
                    String::new()
                } else {
                    format!(" : {int}")
                };
                let _ = writeln!(
                    m,
                    "    {v} = arith.constant {}{ty}",
                    dense_literal(value, width)
                );
                return v;
            }
            Conversion::Bitcast => {}
        }
        let bits = self.fresh();
        let _ = writeln!(
            m,
            "    {bits} = arith.constant {} : {int}",
            dense_literal(value, width)
        );
        let _ = writeln!(m, "    {v} = arith.bitcast {bits} : {int} to {ty}");
        v
    }

    /// Loops over every index of `shape`; `body` gets the induction
    /// variables and the row-major linear index, both `index` values.
    fn nest(&mut self, m: &mut String, shape: &[u64], body: &mut LoopBody<'_>) {
        let mut ivs = Vec::new();
        let mut linear = "%c0".to_string();
        for &d in shape {
            let bound = self.fresh();
            let iv = self.fresh();
            let _ = writeln!(m, "    {bound} = arith.constant {d} : index");
            let _ = writeln!(m, "    scf.for {iv} = %c0 to {bound} step %c1 {{");
            let scaled = self.fresh();
            let next = self.fresh();
            let _ = writeln!(m, "    {scaled} = arith.muli {linear}, {bound} : index");
            let _ = writeln!(m, "    {next} = arith.addi {scaled}, {iv} : index");
            ivs.push(iv);
            linear = next;
        }
        body(self, m, &ivs, &linear);
        for _ in shape {
            m.push_str("    }\n");
        }
    }

    fn copy_in(&mut self, m: &mut String, shape: &[u64], c: &Copy<'_>) {
        self.nest(m, shape, &mut |h, m, ivs, linear| {
            let (int, conversion) = bits_type(c.elem, c.width);
            let raw = h.fresh();
            let _ = writeln!(
                m,
                "    {raw} = memref.load {}[{linear}] : memref<{}x{int}>",
                c.global, c.words
            );
            let value = match conversion {
                Conversion::None => raw,
                Conversion::Bitcast => {
                    let v = h.fresh();
                    let _ = writeln!(m, "    {v} = arith.bitcast {raw} : {int} to {}", c.elem);
                    v
                }
                Conversion::Index => {
                    let v = h.fresh();
                    let _ = writeln!(m, "    {v} = arith.index_cast {raw} : {int} to index");
                    v
                }
            };
            let _ = writeln!(
                m,
                "    memref.store {value}, {}[{}] : {}",
                c.buffer,
                ivs.join(", "),
                c.ty
            );
        });
    }

    fn print_memory(&mut self, m: &mut String, shape: &[u64], p: &Print<'_>) {
        self.nest(m, shape, &mut |h, m, ivs, _| {
            let v = h.fresh();
            let _ = writeln!(
                m,
                "    {v} = memref.load {}[{}] : {}",
                p.buffer,
                ivs.join(", "),
                p.ty
            );
            let bits = h.bits_of(m, &v, p.elem, p.width);
            h.print_bits(m, &bits, p.width);
        });
    }

    /// The bits (`i<width>`) of `value` of type `ty`.
    fn bits_of(&mut self, m: &mut String, value: &str, ty: &str, width: u32) -> String {
        let (int, conversion) = bits_type(ty, width);
        let op = match conversion {
            Conversion::None => return value.to_string(),
            Conversion::Bitcast => "arith.bitcast",
            Conversion::Index => "arith.index_cast",
        };
        let b = self.fresh();
        let _ = writeln!(m, "    {b} = {op} {value} : {ty} to {int}");
        b
    }

    fn print_bits(&mut self, m: &mut String, bits: &str, width: u32) {
        self.widths.insert(width);
        let _ = writeln!(
            m,
            "    func.call @cosim_print_i{width}({bits}) : (i{width}) -> ()"
        );
    }

    /// One printing function per width: the value in hex on one line,
    /// its 64-bit chunks most significant first.
    fn printers(&self) -> String {
        let mut out = String::new();
        for &w in &self.widths {
            let _ = writeln!(out, "  func.func private @cosim_print_i{w}(%v: i{w}) {{");
            let chunks = w.div_ceil(64);
            for c in (0..chunks).rev() {
                let shifted = if c == 0 {
                    "%v".to_string()
                } else {
                    let _ = writeln!(out, "    %s{c} = arith.constant {} : i{w}", 64 * c);
                    let _ = writeln!(out, "    %v{c} = arith.shrui %v, %s{c} : i{w}");
                    format!("%v{c}")
                };
                let chunk = match w.cmp(&64) {
                    std::cmp::Ordering::Equal => shifted,
                    std::cmp::Ordering::Less => {
                        let _ = writeln!(out, "    %x{c} = arith.extui {shifted} : i{w} to i64");
                        format!("%x{c}")
                    }
                    std::cmp::Ordering::Greater => {
                        let _ = writeln!(out, "    %x{c} = arith.trunci {shifted} : i{w} to i64");
                        format!("%x{c}")
                    }
                };
                let format = match (c + 1 == chunks, c == 0) {
                    (true, true) => "cosim_fmt_line",
                    (true, false) => "cosim_fmt_top",
                    (false, false) => "cosim_fmt_chunk",
                    (false, true) => "cosim_fmt_last",
                };
                let _ = writeln!(out, "    %f{c} = llvm.mlir.addressof @{format} : !llvm.ptr");
                let _ = writeln!(
                    out,
                    "    %p{c} = llvm.call @printf(%f{c}, {chunk}) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i64) -> i32"
                );
            }
            out.push_str("    return\n  }\n");
        }
        out
    }
}

/// What copying one memory's input words needs.
struct Copy<'a> {
    global: &'a str,
    words: u64,
    buffer: &'a str,
    ty: &'a str,
    elem: &'a str,
    width: u32,
}

/// What printing one memory needs.
struct Print<'a> {
    buffer: &'a str,
    ty: &'a str,
    elem: &'a str,
    width: u32,
}

/// `bits` as an integer literal of `width` bits: `true`/`false` for
/// `i1`, else the signed (two's complement) decimal value.
pub fn dense_literal(bits: &BigUint, width: u32) -> String {
    if width == 1 {
        return if *bits == BigUint::ZERO {
            "false"
        } else {
            "true"
        }
        .into();
    }
    if width > 0 && bits.bit(u64::from(width) - 1) {
        let modulus = BigUint::from(1u8) << width;
        let magnitude = modulus - bits;
        return BigInt::from_biguint(Sign::Minus, magnitude).to_string();
    }
    bits.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_are_signed_decimals() {
        assert_eq!(dense_literal(&BigUint::from(1u8), 1), "true");
        assert_eq!(dense_literal(&BigUint::from(0u8), 1), "false");
        assert_eq!(dense_literal(&BigUint::from(0x7fu8), 7), "-1");
        assert_eq!(dense_literal(&BigUint::from(0x3fu8), 7), "63");
        let big = (BigUint::from(1u8) << 128u32) | BigUint::from(5u8);
        assert_eq!(
            dense_literal(&big, 129),
            "-340282366920938463463374607431768211451"
        );
    }
}
