//! One `llvm.func` to a `define` (or `declare`): named values (`%aN`
//! arguments, `%vN` results, `bbN` blocks), `phi` nodes for block
//! arguments gathered from every branch, one instruction per op.

use super::constants::{constant, zero};
use super::symbols::{comdat_clause, symbol_prefix, unnamed_addr};
use super::types::{ir_type, mangle};
use super::{attributes, err, string_attr, type_attr, ModuleState};
use crate::dialect::attrs::{bits_of, keyword_of, FCMP_PREDICATES, ICMP_PREDICATES};
use crate::dialect::blockaddress::target_block;
use crate::dialect::types::is_void;
use silica_ir::diag::Diagnostic;
use silica_ir::dialect::inherent_attr;
use silica_ir::{AttrKind, BlockId, Context, Ir, OpId, Type, ValueId};
use std::collections::HashMap;

type Res<T> = Result<T, Box<Diagnostic>>;

struct Fn<'a> {
    ctx: &'a Context,
    ir: &'a Ir,
    /// The operand text of each value (`%v3`, `42`, `@g`, `poison`).
    values: HashMap<ValueId, String>,
    blocks: HashMap<BlockId, String>,
    /// Incoming `(value, predecessor label)` pairs of each block argument.
    incoming: HashMap<ValueId, Vec<(ValueId, String)>>,
    /// Labels of forwarding blocks for repeated successors with arguments,
    /// by `(terminator, successor index)` (LLVM allows one phi value per
    /// predecessor block, as MLIR's export splits such edges).
    edges: HashMap<(OpId, usize), String>,
    next: usize,
}

impl Fn<'_> {
    fn ty(&self, op: OpId, t: Type) -> Res<String> {
        ir_type(self.ctx, t).map_err(|m| err(self.ir, op, m))
    }

    fn val(&self, op: OpId, v: ValueId) -> Res<String> {
        self.values.get(&v).cloned().ok_or_else(|| {
            err(
                self.ir,
                op,
                "operand defined after its use (unsupported order)",
            )
        })
    }

    /// `T value`
    fn typed(&self, op: OpId, v: ValueId) -> Res<String> {
        Ok(format!(
            "{} {}",
            self.ty(op, self.ir.value_type(v))?,
            self.val(op, v)?
        ))
    }

    /// The label a terminator's `i`th successor edge goes to.
    fn edge(&self, op: OpId, i: usize) -> String {
        match self.edges.get(&(op, i)) {
            Some(l) => l.clone(),
            None => self.blocks[&self.ir.successors(op)[i]].clone(),
        }
    }

    fn name_result(&mut self, op: OpId) -> Option<String> {
        let r = self.ir.results(op).next()?;
        let n = format!("%v{}", self.next);
        self.next += 1;
        self.values.insert(r, n.clone());
        Some(n)
    }
}

fn int_prop(ctx: &Context, ir: &Ir, op: OpId, name: &str) -> Option<i64> {
    match inherent_attr(ctx, ir, op, name).map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Integer { value, .. }) => i64::try_from(value).ok(),
        _ => None,
    }
}

fn has(ctx: &Context, ir: &Ir, op: OpId, name: &str) -> bool {
    inherent_attr(ctx, ir, op, name).is_some()
}

/// ` nnan ninf` (or ` fast`) for fast-math flags.
fn fastmath(ctx: &Context, ir: &Ir, op: OpId) -> String {
    let bits = inherent_attr(ctx, ir, op, "fastmathFlags").map_or(0, |a| bits_of(ctx, a));
    if bits == 127 {
        return " fast".into();
    }
    let names = ["nnan", "ninf", "nsz", "arcp", "contract", "afn", "reassoc"];
    names
        .iter()
        .enumerate()
        .filter(|(i, _)| bits & (1 << i) != 0)
        .map(|(_, n)| format!(" {n}"))
        .collect()
}

/// ` nuw nsw` for overflow flags.
fn overflow(ctx: &Context, ir: &Ir, op: OpId) -> String {
    let bits = int_prop(ctx, ir, op, "overflowFlags").unwrap_or(0);
    let mut s = String::new();
    if bits & 2 != 0 {
        s.push_str(" nuw");
    }
    if bits & 1 != 0 {
        s.push_str(" nsw");
    }
    s
}

/// The `define`/`declare` of `op`.
pub(super) fn function(ctx: &Context, ir: &Ir, op: OpId, state: &mut ModuleState) -> Res<String> {
    let name = string_attr(ctx, inherent_attr(ctx, ir, op, "sym_name")).unwrap_or_default();
    let (result, params, vararg) = crate::dialect::func_type(ctx, ir, op)
        .ok_or_else(|| err(ir, op, "llvm.func without a type"))?;
    let mut f = Fn {
        ctx,
        ir,
        values: HashMap::new(),
        blocks: HashMap::new(),
        incoming: HashMap::new(),
        edges: HashMap::new(),
        next: 0,
    };
    let body = ir.regions(op).next().filter(|r| !ir.region_is_empty(*r));
    // linkage, dso_local, visibility, calling convention, result
    // attributes and type; after the parameters, unnamed_addr, function
    // attributes, section and alignment.
    let cconv = inherent_attr(ctx, ir, op, "CConv")
        .and_then(|a| crate::dialect::attrs::keyword_of(ctx, a))
        .map(crate::dialect::cconv::llvm_prefix)
        .unwrap_or_default();
    let result_attrs =
        attributes::of_entry(ctx, ir, op, "res_attrs", 0).map_err(|m| err(ir, op, m))?;
    let ret = format!(
        "{}{cconv}{result_attrs}{}",
        symbol_prefix(ctx, ir, op, false)?,
        f.ty(op, result)?
    );
    let unnamed = unnamed_addr(ctx, ir, op);
    let unnamed = if unnamed.is_empty() {
        unnamed
    } else {
        format!(" {}", unnamed.trim_end())
    };
    let (section, align) = attributes::placement(ctx, ir, op, body.is_some());
    let comdat = comdat_clause(ctx, ir, op, &name);
    let suffix = format!(
        "{unnamed}{}{section}{comdat}{align}",
        attributes::function(ctx, ir, op, body.is_some()),
    );
    let param_attrs =
        |i: usize| attributes::of_entry(ctx, ir, op, "arg_attrs", i).map_err(|m| err(ir, op, m));
    let Some(body) = body else {
        let mut ps = Vec::new();
        for (i, p) in params.iter().enumerate() {
            let t = f.ty(op, *p)?;
            let a = param_attrs(i)?;
            ps.push(format!("{t} {a}").trim_end().to_string());
        }
        if vararg {
            ps.push("...".into());
        }
        return Ok(format!(
            "declare {ret} @{name}({}){suffix}\n",
            ps.join(", ")
        ));
    };
    let blocks: Vec<BlockId> = ir.region_blocks(body).collect();
    for (i, b) in blocks.iter().enumerate() {
        f.blocks.insert(*b, format!("bb{i}"));
    }
    let entry_args = ir.block_args(blocks[0]);
    let mut ps = Vec::new();
    for (i, &a) in entry_args.iter().enumerate() {
        let n = format!("%a{i}");
        ps.push(format!(
            "{} {}{n}",
            f.ty(op, ir.value_type(a))?,
            param_attrs(i)?
        ));
        f.values.insert(a, n);
    }
    if vararg {
        ps.push("...".into());
    }
    // Incoming values of block arguments, from every branch; a repeated
    // successor with arguments goes through a forwarding block.
    let mut forwarding = Vec::new();
    for &b in &blocks {
        let Some(t) = ir.last_op(b) else { continue };
        let Some(branch) = ctx.op_def(ir.op_name(t)).and_then(|d| d.branch) else {
            continue;
        };
        let succs = ir.successors(t);
        for (i, &succ) in succs.iter().enumerate() {
            let mut pred = f.blocks[&b].clone();
            if succs[..i].contains(&succ) && !ir.block_args(succ).is_empty() {
                pred = format!("{pred}.e{i}");
                f.edges.insert((t, i), pred.clone());
                forwarding.push((pred.clone(), f.blocks[&succ].clone()));
            }
            let range = (branch.successor_operands)(ctx, ir, t, i);
            let operands: Vec<ValueId> = ir.operands(t).collect();
            for (arg, v) in ir.block_args(succ).iter().zip(&operands[range]) {
                f.incoming.entry(*arg).or_default().push((*v, pred.clone()));
            }
        }
    }
    // Name every block argument and result first: phis may use values
    // defined later in the function.
    for &b in &blocks[1..] {
        for &a in ir.block_args(b) {
            let n = format!("%v{}", f.next);
            f.next += 1;
            f.values.insert(a, n);
        }
    }
    let personality = match inherent_attr(ctx, ir, op, "personality").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::SymbolRef { root, .. }) => format!(" personality ptr @{}", ctx.str(*root)),
        _ => String::new(),
    };
    let mut text = format!(
        "define {ret} @{name}({}){suffix}{personality} {{\n",
        ps.join(", ")
    );
    for &b in &blocks {
        for o in ir.block_ops(b) {
            name_value(&mut f, o)?;
        }
    }
    for &b in &blocks {
        text.push_str(&format!("{}:\n", f.blocks[&b]));
        if b != blocks[0] {
            for &a in ir.block_args(b) {
                let ty = f.ty(op, ir.value_type(a))?;
                let mut entries = Vec::new();
                // Latest predecessor first, as MLIR's export lists them.
                for (v, pred) in f
                    .incoming
                    .get(&a)
                    .map(Vec::as_slice)
                    .unwrap_or(&[])
                    .iter()
                    .rev()
                {
                    entries.push(format!("[ {}, %{pred} ]", f.val(op, *v)?));
                }
                text.push_str(&format!(
                    "  {} = phi {ty} {}\n",
                    f.values[&a],
                    entries.join(", ")
                ));
            }
        }
        for o in ir.block_ops(b) {
            if let Some(line) = instruction(&mut f, o, state)? {
                text.push_str("  ");
                text.push_str(&line);
                text.push_str(&metadata_attachments(ctx, ir, o, state));
                text.push('\n');
            }
        }
    }
    for (label, target) in forwarding {
        text.push_str(&format!("{label}:\n  br label %{target}\n"));
    }
    text.push_str("}\n");
    Ok(text)
}

/// Gives `op`'s result its operand text: a constant's literal, or a
/// fresh name for an instruction.
fn name_value(f: &mut Fn<'_>, op: OpId) -> Res<()> {
    let (ctx, ir) = (f.ctx, f.ir);
    let Some(r) = ir.results(op).next() else {
        return Ok(());
    };
    let t = ir.value_type(r);
    let text = match ctx.str(ir.op_name(op)) {
        "llvm.mlir.constant" => {
            let v = inherent_attr(ctx, ir, op, "value")
                .ok_or_else(|| err(ir, op, "constant without value"))?;
            constant(ctx, v, t).map_err(|m| err(ir, op, m))?
        }
        "llvm.mlir.undef" => "undef".into(),
        "llvm.mlir.poison" => "poison".into(),
        "llvm.mlir.zero" => zero(ctx, t),
        "llvm.mlir.addressof" => {
            match inherent_attr(ctx, ir, op, "global_name").map(|a| ctx.attr_kind(a)) {
                Some(AttrKind::SymbolRef { root, .. }) => format!("@{}", ctx.str(*root)),
                _ => return Err(err(ir, op, "addressof without a symbol")),
            }
        }
        "llvm.blockaddress" => {
            let (function, label) = blockaddress_target(ctx, ir, op).map_err(|m| err(ir, op, m))?;
            format!("blockaddress(@{function}, %{label})")
        }
        "llvm.dso_local_equivalent" => {
            match inherent_attr(ctx, ir, op, "function_name").map(|a| ctx.attr_kind(a)) {
                Some(AttrKind::SymbolRef { root, .. }) => {
                    format!("dso_local_equivalent @{}", ctx.str(*root))
                }
                _ => return Err(err(ir, op, "dso_local_equivalent without a symbol")),
            }
        }
        _ => {
            f.name_result(op);
            return Ok(());
        }
    };
    f.values.insert(r, text);
    Ok(())
}

const BINARY: &[(&str, &str)] = &[
    ("llvm.add", "add"),
    ("llvm.sub", "sub"),
    ("llvm.mul", "mul"),
    ("llvm.shl", "shl"),
    ("llvm.sdiv", "sdiv"),
    ("llvm.udiv", "udiv"),
    ("llvm.srem", "srem"),
    ("llvm.urem", "urem"),
    ("llvm.lshr", "lshr"),
    ("llvm.ashr", "ashr"),
    ("llvm.and", "and"),
    ("llvm.or", "or"),
    ("llvm.xor", "xor"),
    ("llvm.fadd", "fadd"),
    ("llvm.fsub", "fsub"),
    ("llvm.fmul", "fmul"),
    ("llvm.fdiv", "fdiv"),
    ("llvm.frem", "frem"),
];

const CASTS: &[(&str, &str)] = &[
    ("llvm.sext", "sext"),
    ("llvm.zext", "zext"),
    ("llvm.trunc", "trunc"),
    ("llvm.sitofp", "sitofp"),
    ("llvm.uitofp", "uitofp"),
    ("llvm.fptosi", "fptosi"),
    ("llvm.fptoui", "fptoui"),
    ("llvm.fpext", "fpext"),
    ("llvm.fptrunc", "fptrunc"),
    ("llvm.bitcast", "bitcast"),
    ("llvm.addrspacecast", "addrspacecast"),
    ("llvm.ptrtoint", "ptrtoint"),
    ("llvm.inttoptr", "inttoptr"),
];

/// ` acquire` for an atomic ordering.
fn ordering_name(v: i64) -> &'static str {
    match v {
        1 => " unordered",
        2 => " monotonic",
        4 => " acquire",
        5 => " release",
        6 => " acq_rel",
        7 => " seq_cst",
        _ => "",
    }
}

/// ` syncscope("x")` when the op has one.
fn syncscope(ctx: &Context, ir: &Ir, op: OpId) -> String {
    match string_attr(ctx, inherent_attr(ctx, ir, op, "syncscope")) {
        Some(s) => format!(" syncscope(\"{s}\")"),
        None => String::new(),
    }
}

/// The store size in bytes of integer, float and pointer types.
fn store_size(ctx: &Context, t: Type) -> Option<i64> {
    use silica_ir::float::FloatKind;
    let bits = match ctx.type_kind(t) {
        silica_ir::TypeKind::Integer { width, .. } => i64::from(*width),
        silica_ir::TypeKind::Float(FloatKind::F16 | FloatKind::BF16) => 16,
        silica_ir::TypeKind::Float(FloatKind::F32) => 32,
        silica_ir::TypeKind::Float(FloatKind::F64) => 64,
        _ if crate::dialect::types::is_ptr(ctx, t) => 64,
        _ => return None,
    };
    Some((bits as u64).div_ceil(8).max(1).next_power_of_two() as i64)
}

fn position(ctx: &Context, ir: &Ir, op: OpId) -> String {
    inherent_attr(ctx, ir, op, "position")
        .and_then(|a| ctx.int_array_values(a))
        .unwrap_or_default()
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The instruction text of `op` (`None` for ops folded into operands).
fn instruction(f: &mut Fn<'_>, op: OpId, state: &mut ModuleState) -> Res<Option<String>> {
    let (ctx, ir) = (f.ctx, f.ir);
    let name = ctx.str(ir.op_name(op));
    let operands: Vec<ValueId> = ir.operands(op).collect();
    let result = ir.results(op).next();
    let lhs = result
        .map(|r| format!("{} = ", f.values[&r]))
        .unwrap_or_default();
    let rty = match result {
        Some(r) => f.ty(op, ir.value_type(r))?,
        None => String::new(),
    };
    let line = if let Some((_, inst)) = BINARY.iter().find(|(n, _)| *n == name) {
        let mut flags = String::new();
        if inst.starts_with('f') {
            flags = fastmath(ctx, ir, op);
        } else if matches!(*inst, "add" | "sub" | "mul" | "shl") {
            flags = overflow(ctx, ir, op);
        } else if has(ctx, ir, op, "isExact") {
            flags = " exact".into();
        } else if has(ctx, ir, op, "isDisjoint") {
            flags = " disjoint".into();
        }
        format!(
            "{lhs}{inst}{flags} {}, {}",
            f.typed(op, operands[0])?,
            f.val(op, operands[1])?
        )
    } else if let Some((_, inst)) = CASTS.iter().find(|(n, _)| *n == name) {
        let flags = if name == "llvm.trunc" {
            overflow(ctx, ir, op)
        } else if has(ctx, ir, op, "nonNeg") {
            " nneg".into()
        } else {
            String::new()
        };
        format!("{lhs}{inst}{flags} {} to {rty}", f.typed(op, operands[0])?)
    } else if name.starts_with("llvm.intr.") {
        intrinsic(f, op, name, &operands, state)?
    } else {
        match name {
            "llvm.mlir.constant"
            | "llvm.mlir.undef"
            | "llvm.mlir.poison"
            | "llvm.mlir.zero"
            | "llvm.mlir.addressof"
            | "llvm.blockaddress"
            | "llvm.dso_local_equivalent"
            | "llvm.blocktag" => return Ok(None),
            "llvm.indirectbr" => {
                let labels: Vec<String> = (0..ir.successors(op).len())
                    .map(|i| format!("label %{}", f.edge(op, i)))
                    .collect();
                format!(
                    "indirectbr {}, [{}]",
                    f.typed(op, operands[0])?,
                    labels.join(", ")
                )
            }
            "llvm.fneg" => format!(
                "{lhs}fneg{} {}",
                fastmath(ctx, ir, op),
                f.typed(op, operands[0])?
            ),
            "llvm.icmp" | "llvm.fcmp" => {
                let i = int_prop(ctx, ir, op, "predicate").unwrap_or(0) as usize;
                let (inst, pred, flags) = if name == "llvm.icmp" {
                    ("icmp", ICMP_PREDICATES[i.min(9)], String::new())
                } else {
                    (
                        "fcmp",
                        FCMP_PREDICATES[i.min(15)].trim_start_matches('_'),
                        fastmath(ctx, ir, op),
                    )
                };
                format!(
                    "{lhs}{inst}{flags} {pred} {}, {}",
                    f.typed(op, operands[0])?,
                    f.val(op, operands[1])?
                )
            }
            "llvm.select" => format!(
                "{lhs}select{} {}, {}, {}",
                fastmath(ctx, ir, op),
                f.typed(op, operands[0])?,
                f.typed(op, operands[1])?,
                f.typed(op, operands[2])?
            ),
            "llvm.freeze" => format!("{lhs}freeze {}", f.typed(op, operands[0])?),
            "llvm.load" | "llvm.store" => {
                let vol = if has(ctx, ir, op, "volatile_") {
                    "volatile "
                } else {
                    ""
                };
                let order = int_prop(ctx, ir, op, "ordering").unwrap_or(0);
                let (atomic, suffix) = if order != 0 {
                    (
                        "atomic ",
                        format!("{}{}", syncscope(ctx, ir, op), ordering_name(order)),
                    )
                } else {
                    ("", String::new())
                };
                let value_ty = if name == "llvm.load" {
                    ir.value_type(ir.result(op, 0))
                } else {
                    ir.value_type(operands[0])
                };
                let mut s = if name == "llvm.load" {
                    format!(
                        "{lhs}load {atomic}{vol}{rty}, {}{suffix}",
                        f.typed(op, operands[0])?
                    )
                } else {
                    format!(
                        "store {atomic}{vol}{}, {}{suffix}",
                        f.typed(op, operands[0])?,
                        f.typed(op, operands[1])?
                    )
                };
                let align = int_prop(ctx, ir, op, "alignment")
                    .or_else(|| (order != 0).then(|| store_size(ctx, value_ty)).flatten());
                if let Some(a) = align {
                    s.push_str(&format!(", align {a}"));
                } else if order != 0 {
                    return Err(err(
                        ir,
                        op,
                        "atomic access of a type without a known size needs an alignment",
                    ));
                }
                s
            }
            "llvm.atomicrmw" => {
                let vol = if has(ctx, ir, op, "volatile_") {
                    " volatile"
                } else {
                    ""
                };
                let bin = int_prop(ctx, ir, op, "bin_op").unwrap_or(0) as usize;
                let bin = crate::dialect::ops::ATOMIC_BIN_OPS
                    .get(bin)
                    .copied()
                    .unwrap_or("xchg")
                    .trim_start_matches('_');
                let mut s = format!(
                    "{lhs}atomicrmw{vol} {bin} {}, {}{}{}",
                    f.typed(op, operands[0])?,
                    f.typed(op, operands[1])?,
                    syncscope(ctx, ir, op),
                    ordering_name(int_prop(ctx, ir, op, "ordering").unwrap_or(0))
                );
                if let Some(a) = int_prop(ctx, ir, op, "alignment") {
                    s.push_str(&format!(", align {a}"));
                }
                s
            }
            "llvm.cmpxchg" => {
                let weak = if has(ctx, ir, op, "weak") {
                    " weak"
                } else {
                    ""
                };
                let vol = if has(ctx, ir, op, "volatile_") {
                    " volatile"
                } else {
                    ""
                };
                let mut s = format!(
                    "{lhs}cmpxchg{weak}{vol} {}, {}, {}{}{}{}",
                    f.typed(op, operands[0])?,
                    f.typed(op, operands[1])?,
                    f.typed(op, operands[2])?,
                    syncscope(ctx, ir, op),
                    ordering_name(int_prop(ctx, ir, op, "success_ordering").unwrap_or(0)),
                    ordering_name(int_prop(ctx, ir, op, "failure_ordering").unwrap_or(0))
                );
                if let Some(a) = int_prop(ctx, ir, op, "alignment") {
                    s.push_str(&format!(", align {a}"));
                }
                s
            }
            "llvm.fence" => format!(
                "fence{}{}",
                syncscope(ctx, ir, op),
                ordering_name(int_prop(ctx, ir, op, "ordering").unwrap_or(0))
            ),
            "llvm.shufflevector" => {
                let mask: Vec<String> = inherent_attr(ctx, ir, op, "mask")
                    .and_then(|a| ctx.int_array_values(a))
                    .unwrap_or_default()
                    .iter()
                    .map(|m| {
                        if *m < 0 {
                            "i32 poison".into()
                        } else {
                            format!("i32 {m}")
                        }
                    })
                    .collect();
                format!(
                    "{lhs}shufflevector {}, {}, <{} x i32> <{}>",
                    f.typed(op, operands[0])?,
                    f.typed(op, operands[1])?,
                    mask.len(),
                    mask.join(", ")
                )
            }
            "llvm.alloca" => {
                let elem = type_attr(ctx, inherent_attr(ctx, ir, op, "elem_type"))
                    .ok_or_else(|| err(ir, op, "alloca without an element type"))?;
                let mut s = format!(
                    "{lhs}alloca {}, {}",
                    f.ty(op, elem)?,
                    f.typed(op, operands[0])?
                );
                if let Some(a) = int_prop(ctx, ir, op, "alignment").filter(|a| *a > 0) {
                    s.push_str(&format!(", align {a}"));
                }
                s
            }
            "llvm.getelementptr" => {
                let elem = type_attr(ctx, inherent_attr(ctx, ir, op, "elem_type"))
                    .ok_or_else(|| err(ir, op, "getelementptr without an element type"))?;
                let flags = int_prop(ctx, ir, op, "noWrapFlags").unwrap_or(0) as u32;
                let mut fl = String::new();
                if flags & 1 != 0 {
                    fl.push_str(" inbounds");
                } else if flags & 2 != 0 {
                    fl.push_str(" nusw");
                }
                if flags & 4 != 0 {
                    fl.push_str(" nuw");
                }
                let raw = inherent_attr(ctx, ir, op, "rawConstantIndices")
                    .and_then(|a| ctx.int_array_values(a))
                    .unwrap_or_default();
                let mut idx = Vec::new();
                let mut next = 1;
                for r in raw {
                    if r == crate::dialect::DYNAMIC_INDEX {
                        idx.push(f.typed(op, operands[next])?);
                        next += 1;
                    } else {
                        idx.push(format!("i32 {r}"));
                    }
                }
                let mut s = format!(
                    "{lhs}getelementptr{fl} {}, {}",
                    f.ty(op, elem)?,
                    f.typed(op, operands[0])?
                );
                for i in idx {
                    s.push_str(", ");
                    s.push_str(&i);
                }
                s
            }
            "llvm.extractvalue" => format!(
                "{lhs}extractvalue {}, {}",
                f.typed(op, operands[0])?,
                position(ctx, ir, op)
            ),
            "llvm.insertvalue" => format!(
                "{lhs}insertvalue {}, {}, {}",
                f.typed(op, operands[0])?,
                f.typed(op, operands[1])?,
                position(ctx, ir, op)
            ),
            "llvm.extractelement" => format!(
                "{lhs}extractelement {}, {}",
                f.typed(op, operands[0])?,
                f.typed(op, operands[1])?
            ),
            "llvm.insertelement" => format!(
                "{lhs}insertelement {}, {}, {}",
                f.typed(op, operands[0])?,
                f.typed(op, operands[1])?,
                f.typed(op, operands[2])?
            ),
            "llvm.call" => call(f, op, &operands, &lhs)?,
            "llvm.va_arg" => format!("{lhs}va_arg {}, {rty}", f.typed(op, operands[0])?),
            "llvm.call_intrinsic" => call_intrinsic(f, op, &operands, &lhs, state)?,
            "llvm.inline_asm" => inline_asm(f, op, &operands, &lhs)?,
            "llvm.br" => format!("br label %{}", f.edge(op, 0)),
            "llvm.cond_br" => format!(
                "br {}, label %{}, label %{}",
                f.typed(op, operands[0])?,
                f.edge(op, 0),
                f.edge(op, 1)
            ),
            "llvm.switch" => {
                let ty = f.ty(op, ir.value_type(operands[0]))?;
                let cases: Vec<String> = crate::dialect::switch::case_values(ctx, ir, op)
                    .iter()
                    .enumerate()
                    .map(|(i, v)| format!("{ty} {v}, label %{}", f.edge(op, i + 1)))
                    .collect();
                format!(
                    "switch {}, label %{} [ {} ]",
                    f.typed(op, operands[0])?,
                    f.edge(op, 0),
                    cases.join(" ")
                )
            }
            "llvm.invoke" => {
                let call_ops = crate::dialect::eh::invoke_call_operands(ctx, ir, op);
                let call = call(f, op, &call_ops, &lhs)?;
                let call = call.replacen("call", "invoke", 1);
                format!(
                    "{call} to label %{} unwind label %{}",
                    f.edge(op, 0),
                    f.edge(op, 1)
                )
            }
            "llvm.landingpad" => {
                let mut s = format!("{lhs}landingpad {rty}");
                if has(ctx, ir, op, "cleanup") {
                    s.push_str(" cleanup");
                }
                for &v in &operands {
                    let t = ir.value_type(v);
                    let kind = if crate::dialect::eh::is_filter(ctx, t) {
                        // LLVM takes arrays of type-info pointers (or zero).
                        let of_ptrs = matches!(
                            crate::dialect::types::llvm_type(ctx, t),
                            Some(crate::dialect::types::LlvmType::Array(_, e)) if crate::dialect::types::is_ptr(ctx, e)
                        );
                        if !of_ptrs && f.val(op, v)? != "zeroinitializer" {
                            return Err(err(
                                ir,
                                op,
                                "a landingpad filter must be an array of pointers (type infos)",
                            ));
                        }
                        "filter"
                    } else {
                        "catch"
                    };
                    s.push_str(&format!(" {kind} {}", f.typed(op, v)?));
                }
                s
            }
            "llvm.resume" => format!("resume {}", f.typed(op, operands[0])?),
            "llvm.return" => match operands.first() {
                Some(&v) => format!("ret {}", f.typed(op, v)?),
                None => "ret void".into(),
            },
            "llvm.unreachable" => "unreachable".into(),
            _ => {
                return Err(err(
                    ir,
                    op,
                    format!(
                        "'{name}' has no LLVM IR translation (lower it to the llvm dialect first)"
                    ),
                ))
            }
        }
    };
    Ok(Some(line))
}

fn call(f: &mut Fn<'_>, op: OpId, operands: &[ValueId], lhs: &str) -> Res<String> {
    let (ctx, ir) = (f.ctx, f.ir);
    let callee = match inherent_attr(ctx, ir, op, "callee").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::SymbolRef { root, .. }) => Some(format!("@{}", ctx.str(*root))),
        _ => None,
    };
    let (target, args) = match callee {
        Some(c) => (c, operands),
        None => (f.val(op, operands[0])?, &operands[1..]),
    };
    let ret = match ir.results(op).next() {
        Some(r) => f.ty(op, ir.value_type(r))?,
        None => "void".into(),
    };
    let fn_ty = match type_attr(ctx, inherent_attr(ctx, ir, op, "var_callee_type")) {
        Some(t) => f.ty(op, t)?,
        None => ret,
    };
    let keyword = |key: &str| inherent_attr(ctx, ir, op, key).and_then(|a| keyword_of(ctx, a));
    let tail = match keyword("TailCallKind") {
        Some(k @ ("tail" | "musttail" | "notail")) => format!("{k} "),
        _ => String::new(),
    };
    let cconv = keyword("CConv")
        .map(crate::dialect::cconv::llvm_prefix)
        .unwrap_or_default();
    let ret_attrs =
        attributes::of_entry(ctx, ir, op, "res_attrs", 0).map_err(|m| err(ir, op, m))?;
    let args = typed_with_attrs(f, op, args)?;
    Ok(format!(
        "{lhs}{tail}call{} {cconv}{ret_attrs}{fn_ty} {target}({}){}",
        fastmath(ctx, ir, op),
        args.join(", "),
        attributes::call_site(ctx, ir, op)
    ))
}

/// `llvm.call_intrinsic "llvm.name"(args)`: a call of the intrinsic by
/// its full name, declared once.
fn call_intrinsic(
    f: &mut Fn<'_>,
    op: OpId,
    operands: &[ValueId],
    lhs: &str,
    state: &mut ModuleState,
) -> Res<String> {
    let (ctx, ir) = (f.ctx, f.ir);
    let name = string_attr(ctx, inherent_attr(ctx, ir, op, "intrin"))
        .ok_or_else(|| err(ir, op, "call_intrinsic without an intrinsic name"))?;
    let ret = match ir.results(op).next() {
        Some(r) => f.ty(op, ir.value_type(r))?,
        None => "void".into(),
    };
    let params: Vec<String> = operands
        .iter()
        .map(|a| f.ty(op, ir.value_type(*a)))
        .collect::<Res<_>>()?;
    state
        .intrinsics
        .entry(name.clone())
        .or_insert_with(|| format!("declare {ret} @{name}({})", params.join(", ")));
    let ret_attrs =
        attributes::of_entry(ctx, ir, op, "res_attrs", 0).map_err(|m| err(ir, op, m))?;
    let args = typed_with_attrs(f, op, operands)?;
    Ok(format!(
        "{lhs}call{} {ret_attrs}{ret} @{name}({})",
        fastmath(ctx, ir, op),
        args.join(", ")
    ))
}

/// `T attrs value` for each argument of a call, with the attributes of
/// its `arg_attrs` entry.
fn typed_with_attrs(f: &Fn<'_>, op: OpId, args: &[ValueId]) -> Res<Vec<String>> {
    let (ctx, ir) = (f.ctx, f.ir);
    let mut out = Vec::with_capacity(args.len());
    for (i, &a) in args.iter().enumerate() {
        let attrs =
            attributes::of_entry(ctx, ir, op, "arg_attrs", i).map_err(|m| err(ir, op, m))?;
        out.push(format!(
            "{} {attrs}{}",
            f.ty(op, ir.value_type(a))?,
            f.val(op, a)?
        ));
    }
    Ok(out)
}

/// `, !llvm.loop !N` of a branch with a loop annotation and
/// `, !llvm.access.group !N` of an access in access groups.
fn metadata_attachments(ctx: &Context, ir: &Ir, op: OpId, state: &mut ModuleState) -> String {
    let mut out = String::new();
    if let Some(a) = inherent_attr(ctx, ir, op, "loop_annotation") {
        if matches!(ctx.str(ir.op_name(op)), "llvm.br" | "llvm.cond_br") {
            out.push_str(&format!(
                ", !llvm.loop !{}",
                state.metadata.loop_node(ctx, a)
            ));
        }
    }
    if let Some(id) = inherent_attr(ctx, ir, op, "access_groups")
        .and_then(|a| state.metadata.access_groups(ctx, a))
    {
        out.push_str(&format!(", !llvm.access.group !{id}"));
    }
    out
}

/// The function and the LLVM IR label (`bbN`, the block's position, as
/// [`function`] names blocks) of the block a `llvm.blockaddress` takes
/// the address of; LLVM takes no address of an entry block.
pub(super) fn blockaddress_target(
    ctx: &Context,
    ir: &Ir,
    op: OpId,
) -> Result<(String, String), String> {
    let (name, func, block) = target_block(ctx, ir, op)?;
    let region = ir.regions(func).next().ok_or("function without a body")?;
    let index = ir
        .region_blocks(region)
        .position(|b| b == block)
        .ok_or("block tag outside the function's body")?;
    if index == 0 {
        return Err("LLVM IR takes no address of a function's entry block".into());
    }
    let mut function = String::new();
    silica_ir::printer::keyword_or_string(&mut function, &name);
    Ok((function, format!("bb{index}")))
}

/// A string as LLVM prints inline assembly and metadata strings
/// (`printEscapedString`): backslashes doubled, other
/// unprintable bytes and quotes as `\XX`.
pub(crate) fn asm_quoted(bytes: &[u8]) -> String {
    let mut s = String::from("\"");
    for &b in bytes {
        match b {
            b'\\' => s.push_str("\\\\"),
            0x20..=0x7e if b != b'"' => s.push(b as char),
            _ => s.push_str(&format!("\\{b:02X}")),
        }
    }
    s.push('"');
    s
}

/// `call ty asm sideeffect alignstack inteldialect "asm", "constraints"(args)`,
/// with `elementtype(T)` on the operands `operand_attrs` gives one.
fn inline_asm(f: &mut Fn<'_>, op: OpId, operands: &[ValueId], lhs: &str) -> Res<String> {
    let (ctx, ir) = (f.ctx, f.ir);
    let result = ir.results(op).next().map(|r| ir.value_type(r));
    let (ret, lhs) = match result {
        Some(t) if !is_void(ctx, t) => (f.ty(op, t)?, lhs),
        _ => ("void".to_string(), ""),
    };
    let mut flags = String::new();
    if inherent_attr(ctx, ir, op, "has_side_effects").is_some() {
        flags.push_str(" sideeffect");
    }
    if inherent_attr(ctx, ir, op, "is_align_stack").is_some() {
        flags.push_str(" alignstack");
    }
    if int_prop(ctx, ir, op, "asm_dialect") == Some(1) {
        flags.push_str(" inteldialect");
    }
    let tail = match inherent_attr(ctx, ir, op, "tail_call_kind")
        .and_then(|a| crate::dialect::attrs::keyword_of(ctx, a))
    {
        Some(k @ ("tail" | "musttail" | "notail")) => format!("{k} "),
        _ => String::new(),
    };
    let text = |name: &str| match inherent_attr(ctx, ir, op, name).map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::String { value, .. }) => asm_quoted(value),
        _ => "\"\"".to_string(),
    };
    let (asm, constraints) = (text("asm_string"), text("constraints"));
    let operand_attrs: Vec<silica_ir::Attr> =
        match inherent_attr(ctx, ir, op, "operand_attrs").map(|a| ctx.attr_kind(a)) {
            Some(AttrKind::Array(xs)) => xs.to_vec(),
            _ => Vec::new(),
        };
    let mut args = Vec::with_capacity(operands.len());
    for (i, &a) in operands.iter().enumerate() {
        let element = operand_attrs.get(i).and_then(|&d| {
            let key = ctx.lookup_sym("elementtype")?;
            let (_, v) = ctx.dict_entries(d).iter().find(|(k, _)| *k == key)?;
            type_attr(ctx, Some(*v))
        });
        let arg = match element {
            Some(t) => format!(
                "{} elementtype({}) {}",
                f.ty(op, ir.value_type(a))?,
                f.ty(op, t)?,
                f.val(op, a)?
            ),
            None => f.typed(op, a)?,
        };
        args.push(arg);
    }
    Ok(format!(
        "{lhs}{tail}call {ret} asm{flags} {asm}, {constraints}({})",
        args.join(", ")
    ))
}

/// `call void @llvm.assume(i1 %c) [ "tag"(ty %v, ...), ... ]`; LLVM takes
/// operand bundles on an assume of `true` only.
fn assume(f: &mut Fn<'_>, op: OpId, state: &mut ModuleState) -> Res<String> {
    let (ctx, ir) = (f.ctx, f.ir);
    let bundles = crate::dialect::assume::bundles(ctx, ir, op);
    let cond = f.typed(op, ir.operand(op, 0))?;
    let mut text = format!("call void @llvm.assume({cond})");
    if !bundles.is_empty() {
        if cond != "i1 true" {
            return Err(err(
                ir,
                op,
                "assume with operand bundles must have an i1 true condition",
            ));
        }
        let mut list = Vec::new();
        for (tag, values) in &bundles {
            let args: Vec<String> = values.iter().map(|v| f.typed(op, *v)).collect::<Res<_>>()?;
            let tag = super::constants::quoted(tag.as_bytes());
            list.push(format!("{tag}({})", args.join(", ")));
        }
        text.push_str(&format!(" [ {} ]", list.join(", ")));
    }
    state
        .intrinsics
        .entry("llvm.assume".into())
        .or_insert_with(|| "declare void @llvm.assume(i1)".into());
    Ok(text)
}

/// `call float @llvm.experimental.constrained.fptrunc.f32.f64(double %x,
/// metadata !"round.<mode>", metadata !"fpexcept.<behaviour>") strictfp`.
fn constrained_fptrunc(f: &mut Fn<'_>, op: OpId, state: &mut ModuleState) -> Res<String> {
    let (ctx, ir) = (f.ctx, f.ir);
    let arg = ir.operand(op, 0);
    let result = ir.result(op, 0);
    let (from, to) = (ir.value_type(arg), ir.value_type(result));
    let name = format!(
        "llvm.experimental.constrained.fptrunc.{}.{}",
        mangle(ctx, to).map_err(|m| err(ir, op, m))?,
        mangle(ctx, from).map_err(|m| err(ir, op, m))?
    );
    let keyword = |key: &str, names: &[&'static str]| {
        crate::dialect::attrs::enum_keyword(ctx, ir, op, key, names)
            .ok_or_else(|| err(ir, op, format!("invalid {key}")))
    };
    let mode = keyword("roundingmode", crate::dialect::ops::ROUNDING_MODES)?;
    let except = keyword(
        "fpExceptionBehavior",
        crate::dialect::ops::FP_EXCEPTION_BEHAVIORS,
    )?;
    let (from_ty, to_ty) = (f.ty(op, from)?, f.ty(op, to)?);
    state
        .intrinsics
        .entry(name.clone())
        .or_insert_with(|| format!("declare {to_ty} @{name}({from_ty}, metadata, metadata)"));
    Ok(format!(
        "{} = call {to_ty} @{name}({}, metadata !\"round.{mode}\", metadata !\"fpexcept.{except}\") strictfp",
        f.values[&result],
        f.typed(op, arg)?
    ))
}

/// `call @llvm.<name>.<suffix>(...)`, declaring the intrinsic.
fn intrinsic(
    f: &mut Fn<'_>,
    op: OpId,
    name: &str,
    operands: &[ValueId],
    state: &mut ModuleState,
) -> Res<String> {
    let (ctx, ir) = (f.ctx, f.ir);
    // The variadic-argument intrinsics have underscores in LLVM.
    let base = match &name["llvm.intr.".len()..] {
        "vastart" => "va_start",
        "vaend" => "va_end",
        "vacopy" => "va_copy",
        b => b,
    };
    if base == "assume" {
        return assume(f, op, state);
    }
    if base == "experimental.constrained.fptrunc" {
        return constrained_fptrunc(f, op, state);
    }
    if base.starts_with("lifetime.") {
        // LLVM's verifier accepts lifetime markers on allocas and poison
        // only.
        let def = ir.defining_op(operands[0]).map(|d| ctx.str(ir.op_name(d)));
        if !matches!(def, Some("llvm.alloca" | "llvm.mlir.poison")) {
            return Err(err(
                ir,
                op,
                "lifetime markers apply to 'llvm.alloca' results (or poison) only",
            ));
        }
    }
    let result = ir.results(op).next().map(|r| ir.value_type(r));
    let overload_types: Vec<Type> = match base {
        "memcpy" | "memmove" => vec![
            ir.value_type(operands[0]),
            ir.value_type(operands[1]),
            ir.value_type(operands[2]),
        ],
        "memset" => vec![ir.value_type(operands[0]), ir.value_type(operands[2])],
        // The length is a constant of its attribute's type.
        "memcpy.inline" | "memset.inline" => {
            let len = inherent_attr(ctx, ir, op, "len").map(|a| ctx.attr_kind(a));
            let Some(AttrKind::Integer { ty, .. }) = len else {
                return Err(err(ir, op, "requires attribute 'len'"));
            };
            let mut v = vec![ir.value_type(operands[0])];
            if base == "memcpy.inline" {
                v.push(ir.value_type(operands[1]));
            }
            v.push(*ty);
            v
        }
        "prefetch" | "lifetime.start" | "lifetime.end" | "stackrestore" | "invariant.start"
        | "va_start" | "va_end" | "va_copy" => {
            vec![ir.value_type(operands[0])]
        }
        "invariant.end" => vec![ir.value_type(operands[1])],
        "sincos" => vec![ir.value_type(operands[0])],
        "powi" => vec![ir.value_type(operands[0]), ir.value_type(operands[1])],
        "trap" | "debugtrap" | "assume" => vec![],
        _ => vec![result.ok_or_else(|| err(ir, op, "intrinsic without a result"))?],
    };
    let mut full = format!("llvm.{base}");
    for t in &overload_types {
        full.push('.');
        full.push_str(&mangle(ctx, *t).map_err(|m| err(ir, op, m))?);
    }
    let mut args: Vec<String> = operands
        .iter()
        .map(|a| f.typed(op, *a))
        .collect::<Res<_>>()?;
    let mut params: Vec<String> = operands
        .iter()
        .map(|a| f.ty(op, ir.value_type(*a)))
        .collect::<Res<_>>()?;
    // The size comes before the pointer (after the start's token).
    if let ("invariant.start" | "invariant.end", Some(size)) = (base, int_prop(ctx, ir, op, "size"))
    {
        let at = usize::from(base == "invariant.end");
        args.insert(at, format!("i64 {size}"));
        params.insert(at, "i64".into());
    }
    if base == "prefetch" {
        for key in ["rw", "hint", "cache"] {
            let v = int_prop(ctx, ir, op, key).unwrap_or(0);
            args.push(format!("i32 {v}"));
            params.push("i32".into());
        }
    }
    if let ("memcpy.inline" | "memset.inline", Some(AttrKind::Integer { ty, value })) = (
        base,
        inherent_attr(ctx, ir, op, "len").map(|a| ctx.attr_kind(a)),
    ) {
        let t = f.ty(op, *ty)?;
        args.push(format!("{t} {value}"));
        params.push(t);
    }
    if matches!(
        base,
        "memcpy" | "memmove" | "memset" | "memcpy.inline" | "memset.inline"
    ) {
        let volatile = inherent_attr(ctx, ir, op, "isVolatile").is_some_and(
            |a| matches!(ctx.attr_kind(a), AttrKind::Integer { value, .. } if *value != 0.into()),
        );
        args.push(format!("i1 {volatile}"));
        params.push("i1".into());
    }
    // The poison flag of abs/ctlz/cttz is an immediate `i1` argument.
    if let Some(key) = match base {
        "abs" => Some("is_int_min_poison"),
        "ctlz" | "cttz" => Some("is_zero_poison"),
        _ => None,
    } {
        let poison = inherent_attr(ctx, ir, op, key).is_some_and(
            |a| matches!(ctx.attr_kind(a), AttrKind::Integer { value, .. } if *value != 0.into()),
        );
        args.push(format!("i1 {poison}"));
        params.push("i1".into());
    }
    let ret = match result {
        Some(t) if !is_void(ctx, t) => f.ty(op, t)?,
        _ => "void".into(),
    };
    state
        .intrinsics
        .entry(full.clone())
        .or_insert_with(|| format!("declare {ret} @{full}({})", params.join(", ")));
    let lhs = ir
        .results(op)
        .next()
        .map(|r| format!("{} = ", f.values[&r]))
        .unwrap_or_default();
    Ok(format!(
        "{lhs}call{} {ret} @{full}({})",
        fastmath(ctx, ir, op),
        args.join(", ")
    ))
}
