//! One `hw.module` as a SystemVerilog module.
//!
//! Values become expressions: a comb op used once is inlined into its
//! user, parenthesised by SystemVerilog's operator precedence; an op used
//! more than once, or whose text grows too long, or whose user needs an
//! identifier (part-selects, clocks and resets), is spilled to a `wire`
//! declared with its expression. Signed division, remainder and
//! arithmetic shift are always spilled, so that no unsigned context
//! around them changes their signedness. Registers are `always_ff`
//! blocks with an `initial` power-up value; zero-width values and ports
//! are left out.

mod fifo;
mod memory;
mod params;

use crate::names::Namespace;
use crate::sv_types::{field_names, range, Flavor};
use silica_hw_dialects::hw::aggregates::{array_of, field_of, field_offset, struct_fields};
use silica_hw_dialects::hw::unions::{accessed, field_bits};
use silica_hw_dialects::hw::{instance_name, instance_target, module_ports, name_attr};
use silica_hw_dialects::seq::memory::{is_memory, is_port};
use silica_hw_dialects::seq::{is_async, reg_operands};
use silica_hw_dialects::sim::schedule;
use silica_hw_dialects::types::{bit_width, hw_type, Direction, HwType};
use silica_ir::diag::Diagnostic;
use silica_ir::dialect::inherent_attr;
use silica_ir::{AttrKind, Context, Ir, OpId, ValueId};
use std::collections::HashMap;
use std::fmt::Write;

type Res<T> = Result<T, Box<Diagnostic>>;

fn err(ir: &Ir, op: OpId, msg: impl Into<String>) -> Box<Diagnostic> {
    Box::new(Diagnostic::error(ir.op_loc(op), msg))
}

/// Precedence levels, tightest first.
const PRIMARY: u8 = 0;
const UNARY: u8 = 2;
const MUL: u8 = 3;
const ADD: u8 = 4;
const SHIFT: u8 = 5;
const RELATIONAL: u8 = 6;
const EQUALITY: u8 = 7;
const AND: u8 = 8;
const XOR: u8 = 9;
const OR: u8 = 10;
const TERNARY: u8 = 11;

/// Expressions longer than this are spilled to a wire.
const MAX_INLINE: usize = 120;

/// The width [`ModuleEmitter::width`] gives a value whose width is a
/// parameter expression: never zero, never used as a number (only the ops
/// in [`PARAMETRIC_OPS`] take such values, and none of them needs it).
const PARAMETRIC_WIDTH: u64 = 1 << 40;

/// The ops whose Verilog does not depend on their values' widths, which
/// may therefore be parametric (`!hw.int<#hw.param.decl.ref<"W">>`).
const PARAMETRIC_OPS: &[&str] = &[
    "hw.wire",
    "hw.output",
    "hw.instance",
    "hw.param.value",
    "comb.add",
    "comb.sub",
    "comb.mul",
    "comb.and",
    "comb.or",
    "comb.xor",
    "comb.divu",
    "comb.modu",
    "comb.divs",
    "comb.mods",
    "comb.shl",
    "comb.shru",
    "comb.shrs",
    "comb.icmp",
    "comb.mux",
    "comb.parity",
    "seq.compreg",
    "seq.compreg.ce",
    "seq.firreg",
];

#[derive(Clone)]
struct Expr {
    text: String,
    prec: u8,
    /// The operator, for associativity (`+` inside `+` needs no
    /// parentheses).
    op: &'static str,
}

impl Expr {
    fn primary(text: String) -> Expr {
        Expr {
            text,
            prec: PRIMARY,
            op: "",
        }
    }

    /// The text as an operand of an operator at level `prec`.
    fn operand(&self, prec: u8, op: &str) -> String {
        let associative = matches!(op, "+" | "*" | "&" | "|" | "^") && self.op == op;
        if self.prec < prec || (self.prec == prec && associative) {
            self.text.clone()
        } else {
            format!("({})", self.text)
        }
    }

    fn is_identifier(&self) -> bool {
        self.prec == PRIMARY
            && self
                .text
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
    }
}

/// The ops whose values reach an output or an instance (dead logic and
/// dead registers are not written, so no signal is left unused).
fn live_ops(ctx: &Context, ir: &Ir, order: &[OpId]) -> std::collections::HashSet<OpId> {
    let mut live = std::collections::HashSet::new();
    let mut work: Vec<OpId> = order
        .iter()
        .copied()
        .filter(|&op| matches!(ctx.str(ir.op_name(op)), "hw.output" | "hw.instance"))
        .collect();
    while let Some(op) = work.pop() {
        if !live.insert(op) {
            continue;
        }
        work.extend(ir.operands(op).filter_map(|v| ir.defining_op(v)));
        // A live memory keeps all its ports (its writes) live.
        if is_memory(ctx.str(ir.op_name(op))) {
            work.extend(ir.uses(ir.result(op, 0)).map(|u| ir.use_owner(u)));
        }
    }
    live
}

/// Whether `op` may read only some bits of its operands (part-selects).
fn partial_read(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    matches!(
        ctx.str(ir.op_name(op)),
        "comb.extract"
            | "hw.array_get"
            | "hw.array_slice"
            | "hw.struct_extract"
            | "hw.struct_inject"
            | "hw.struct_explode"
            | "hw.union_extract"
    )
}

/// Whether some bits of `v` reach no live op: nothing live reads it, or
/// only `comb.extract`s whose ranges leave bits out.
fn bits_unread(ctx: &Context, ir: &Ir, v: ValueId, live: &std::collections::HashSet<OpId>) -> bool {
    let width = bit_width(ctx, ir.value_type(v)).unwrap_or(0);
    let mut covered = vec![false; width as usize];
    let mut any = false;
    for op in ir
        .uses(v)
        .map(|u| ir.use_owner(u))
        .filter(|o| live.contains(o))
    {
        any = true;
        if ctx.str(ir.op_name(op)) != "comb.extract" {
            return false;
        }
        let low = silica_hw_dialects::seq::memory_ops::int_prop(ctx, ir, op, "lowBit").unwrap_or(0);
        let w = bit_width(ctx, ir.value_type(ir.result(op, 0))).unwrap_or(0);
        for b in low.max(0) as u64..(low.max(0) as u64 + w).min(width) {
            covered[b as usize] = true;
        }
    }
    !any || covered.iter().any(|c| !c)
}

/// `id[low]` or `id[high:low]`.
fn select(id: &str, low: u64, width: u64) -> String {
    if width == 1 {
        format!("{id}[{low}]")
    } else {
        format!("{id}[{}:{low}]", low + width - 1)
    }
}

fn literal(width: u64, value: &num_bigint::BigInt) -> String {
    let m = num_bigint::BigInt::from(1u8) << width;
    let v = ((value % &m) + &m) % &m;
    if width <= 64 {
        format!("{width}'h{v:X}")
    } else {
        format!("{width}'h{}", v.to_str_radix(16).to_uppercase())
    }
}

pub(crate) struct ModuleEmitter<'a> {
    ctx: &'a Context,
    ir: &'a Ir,
    module: OpId,
    names: Namespace,
    exprs: HashMap<ValueId, Expr>,
    /// Memories' array names.
    memories: HashMap<OpId, (String, std::rc::Rc<silica_hw_dialects::seq::memory::Memory>)>,
    /// Shift registers' stage names.
    shiftregs: HashMap<OpId, Vec<String>>,
    /// FIFOs' state names, until their logic is written.
    fifos: HashMap<OpId, fifo::FifoNames>,
    /// The read registers of memory ports with a read latency, by port:
    /// the data register first, the last holding the port's value.
    read_pipelines: HashMap<OpId, Vec<String>>,
    /// Values fixed at power-up (`seq.initial` results).
    initials: HashMap<ValueId, silica_hw_dialects::eval::Bits>,
    /// The module's parameters' Verilog names.
    params: HashMap<String, String>,
    decls: String,
    body: String,
    flavor: &'a Flavor,
    /// Values whose identifiers are declared with a struct or array type
    /// (full SystemVerilog), read with member and element selects; every
    /// other value is a bit vector, read with part-selects.
    typed: std::collections::HashSet<ValueId>,
}

impl<'a> ModuleEmitter<'a> {
    pub(crate) fn new(ctx: &'a Context, ir: &'a Ir, module: OpId, flavor: &'a Flavor) -> Self {
        ModuleEmitter {
            ctx,
            ir,
            module,
            names: flavor.namespace(),
            exprs: HashMap::new(),
            memories: HashMap::new(),
            shiftregs: HashMap::new(),
            fifos: HashMap::new(),
            initials: HashMap::new(),
            read_pipelines: HashMap::new(),
            params: HashMap::new(),
            decls: String::new(),
            body: String::new(),
            flavor,
            typed: std::collections::HashSet::new(),
        }
    }

    /// `keyword type name` declaring a value of type `t` (an inout's
    /// element): its type kept in full SystemVerilog, else a bit vector.
    /// A variable (`reg`) of a struct or typedef type is declared by its
    /// type alone.
    fn declaration(&self, keyword: &str, t: silica_ir::Type, name: &str) -> String {
        let t = match hw_type(self.ctx, t) {
            Some(HwType::InOut(e)) => e,
            _ => t,
        };
        if let Some(w) = self.param_width(t) {
            let width = self
                .param_expr(self.module, w)
                .map(|e| e.operand(ADD, "-"))
                .unwrap_or_default();
            return format!("{keyword} [{width} - 1:0] {name}");
        }
        let ty = self.flavor.sv_type(self.ctx, t);
        match (ty.base.as_str(), keyword) {
            ("", _) => format!("{keyword} {}{name}", ty.dims),
            (base, "reg") => format!("{base} {}{name}", ty.dims),
            (base, _) => format!("{keyword} {base} {}{name}", ty.dims),
        }
    }

    /// The parameter expression that is `t`'s width, for an integer of a
    /// parametric width (aliases looked through).
    fn param_width(&self, t: silica_ir::Type) -> Option<silica_ir::Attr> {
        let t = silica_hw_dialects::types::canonical(self.ctx, t);
        match hw_type(self.ctx, t)? {
            HwType::ParamInt(w) => Some(w),
            _ => None,
        }
    }

    /// Declares `v` under `name` with `keyword` (see
    /// [`Self::declaration`]), remembering whether it is typed.
    fn declare_value(&mut self, keyword: &str, v: ValueId, name: &str) -> String {
        let t = self.ir.value_type(v);
        if self.flavor.is_aggregate(self.ctx, t) {
            self.typed.insert(v);
        }
        self.declaration(keyword, t, name)
    }

    /// The bits of `v` (of its element, for an inout value);
    /// [`PARAMETRIC_WIDTH`] when they are a parameter expression.
    fn width(&self, v: ValueId) -> u64 {
        let t = self.ir.value_type(v);
        let t = match hw_type(self.ctx, t) {
            Some(HwType::InOut(e)) => e,
            _ => t,
        };
        // Widths are asked for every value: the parametric case only
        // where there is no constant width.
        match bit_width(self.ctx, t) {
            Some(w) => w,
            None if self.param_width(t).is_some() => PARAMETRIC_WIDTH,
            None => 0,
        }
    }

    /// Checks that `v`'s type is one the emitter writes (integers,
    /// clocks, and arrays and structs of them, flattened to bit
    /// vectors).
    fn check_type(&self, op: OpId, v: ValueId) -> Res<()> {
        let t = self.ir.value_type(v);
        // Inout values only reach instance ports (nothing in hw, comb
        // or seq reads or drives them), connected by name.
        let t = match hw_type(self.ctx, t) {
            Some(HwType::InOut(e)) => e,
            _ => t,
        };
        if let Some(w) = self.param_width(t) {
            let name = self.ctx.str(self.ir.op_name(op));
            if !PARAMETRIC_OPS.contains(&name) {
                let shown = silica_ir::printer::type_to_string(self.ctx, t);
                return Err(err(
                    self.ir,
                    op,
                    format!("'{name}' on values of parametric type '{shown}' cannot be emitted as Verilog; run --hw-specialize first"),
                ));
            }
            return self.param_expr(op, w).map(|_| ());
        }
        let ok = bit_width(self.ctx, t).is_some();
        if ok {
            Ok(())
        } else {
            let shown = silica_ir::printer::type_to_string(self.ctx, t);
            Err(err(
                self.ir,
                op,
                format!("values of type '{shown}' cannot be emitted as Verilog yet"),
            ))
        }
    }

    fn expr(&self, v: ValueId) -> Expr {
        self.exprs
            .get(&v)
            .cloned()
            .unwrap_or_else(|| Expr::primary(format!("{}'h0", self.width(v).max(1))))
    }

    /// `v` as an identifier: spilled to a wire when it is an expression.
    fn ident(&mut self, v: ValueId, hint: &str) -> String {
        let e = self.expr(v);
        if e.is_identifier() {
            return e.text;
        }
        let name = self.names.fresh(hint);
        self.declare_wire(v, &name, &e.text);
        self.exprs.insert(v, Expr::primary(name.clone()));
        name
    }

    /// `wire [..] name = text;`. A wire read through part-selects may
    /// have bits nobody reads, which Verilator's lint is told.
    fn declare_wire(&mut self, v: ValueId, name: &str, text: &str) {
        let partial = self
            .ir
            .uses(v)
            .any(|u| partial_read(self.ctx, self.ir, self.ir.use_owner(u)));
        let decl = format!("  {} = {text};\n", self.declare_value("wire", v, name));
        if partial {
            self.decls
                .push_str("  // verilator lint_off UNUSEDSIGNAL\n");
            self.decls.push_str(&decl);
            self.decls.push_str("  // verilator lint_on UNUSEDSIGNAL\n");
        } else {
            self.decls.push_str(&decl);
        }
    }

    /// Gives `v` the expression `e`, spilled to a wire named after `hint`
    /// when `spill`.
    fn define(&mut self, v: ValueId, e: Expr, spill: bool, hint: &str) {
        if spill || e.text.len() > MAX_INLINE {
            let name = self.names.fresh(hint);
            self.declare_wire(v, &name, &e.text);
            self.exprs.insert(v, Expr::primary(name));
        } else {
            self.exprs.insert(v, e);
        }
    }

    /// `v` (named `id`) as a bit vector with `pad` zero bits above it:
    /// `id` itself when it is an untyped vector, else a wire.
    fn flat_view(&mut self, v: ValueId, id: &str, pad: u64) -> String {
        if pad == 0 && !self.typed.contains(&v) {
            return id.to_string();
        }
        let w = self.width(v);
        let text = if pad == 0 {
            id.to_string()
        } else {
            format!("{{{}, {id}}}", literal(pad, &0.into()))
        };
        let view = self.names.fresh("_GEN");
        let _ = writeln!(
            self.decls,
            "  // verilator lint_off UNUSEDSIGNAL\n  wire {}{view} = {text};\n  // verilator lint_on UNUSEDSIGNAL",
            range(w + pad)
        );
        view
    }

    /// Whether `v` may be inlined into its user: one use, and a user
    /// that takes an expression there.
    fn inlinable(&self, v: ValueId) -> bool {
        let mut uses = self.ir.uses(v);
        let (Some(u), None) = (uses.next(), uses.next()) else {
            return false;
        };
        !self.needs_identifier(self.ir.use_owner(u), v)
    }

    /// Whether `user` needs `v` as an identifier: part-selects, and a
    /// register's clock and reset.
    fn needs_identifier(&self, user: OpId, v: ValueId) -> bool {
        match self.ctx.str(self.ir.op_name(user)) {
            "comb.extract" | "comb.reverse" | "hw.struct_extract" | "hw.struct_inject"
            | "hw.struct_explode" | "hw.array_inject" | "hw.union_extract" => true,
            "hw.array_get" | "hw.array_slice" => self.ir.operands(user).next() == Some(v),
            "seq.compreg" | "seq.compreg.ce" | "seq.firreg" => {
                let r = reg_operands(self.ctx, self.ir, user);
                r.clock == Some(v) || r.reset == Some(v)
            }
            "seq.shiftreg" => {
                let r =
                    silica_hw_dialects::seq::memory_ops::shiftreg_operands(self.ctx, self.ir, user);
                r[1] == Some(v) || r[3] == Some(v)
            }
            _ => false,
        }
    }

    pub(crate) fn emit(mut self, out: &mut String) -> Res<()> {
        let (ctx, ir) = (self.ctx, self.ir);
        let module = self.module;
        let ports = module_ports(ctx, ir, module);
        let block = ir
            .regions(module)
            .next()
            .and_then(|r| ir.entry_block(r))
            .ok_or_else(|| err(ir, module, "module without a body"))?;
        let args = ir.block_args(block).to_vec();
        // Ports are named first, parameters next (as instances name
        // them), then ports are declared: their widths may name
        // parameters.
        let port_ids: Vec<String> = ports.iter().map(|p| self.names.fresh(&p.name)).collect();
        let header = self.parameter_list()?;
        let mut port_decls = Vec::new();
        // Input ports' positions in `port_decls` and their values.
        let mut input_args = Vec::new();
        let mut output_names = Vec::new();
        let mut next_arg = 0;
        for (port, name) in ports.iter().zip(port_ids) {
            let w = match self.param_width(port.ty) {
                Some(pw) => self
                    .param_expr(module, pw)
                    .map(|_| Some(PARAMETRIC_WIDTH))?,
                None => bit_width(ctx, port.ty),
            };
            let Some(w) = w else {
                let shown = silica_ir::printer::type_to_string(ctx, port.ty);
                let why = if silica_hw_dialects::types::is_parametric(ctx, port.ty) {
                    "of parametric type '{shown}' cannot be emitted as Verilog; run --hw-specialize first"
                } else {
                    "of type '{shown}' cannot be emitted as Verilog yet"
                };
                let why = why.replace("{shown}", &shown);
                return Err(err(ir, module, format!("port '{}' {why}", port.name)));
            };
            match port.dir {
                Direction::Input | Direction::InOut => {
                    let dir = if port.dir == Direction::InOut {
                        "inout "
                    } else {
                        "input "
                    };
                    let decl = match args.get(next_arg) {
                        Some(&a) => {
                            self.exprs.insert(a, Expr::primary(name.clone()));
                            if port.dir == Direction::Input {
                                input_args.push((port_decls.len(), a));
                            }
                            self.declare_value(dir, a, &name)
                        }
                        None => self.declaration(dir, port.ty, &name),
                    };
                    next_arg += 1;
                    if w > 0 {
                        port_decls.push(decl);
                    }
                }
                Direction::Output => {
                    if w > 0 {
                        port_decls.push(self.declaration("output", port.ty, &name));
                    }
                    output_names.push((name, w));
                }
            }
        }
        let order = schedule(ctx, ir, module)?;
        self.initials = silica_hw_dialects::seq::initial::initial_values(ctx, ir, module)?;
        let live = live_ops(ctx, ir, &order);
        // Inputs nothing live reads (a memory port of a memory the design
        // only writes), or reads only in part, are waived for Verilator's
        // lint, as partly read wires are.
        for (i, a) in input_args {
            if bits_unread(ctx, ir, a, &live) {
                if let Some(d) = port_decls.get_mut(i) {
                    *d = format!(
                        "/* verilator lint_off UNUSEDSIGNAL */ {d} /* verilator lint_on UNUSEDSIGNAL */"
                    );
                }
            }
        }
        let order: Vec<OpId> = order.into_iter().filter(|op| live.contains(op)).collect();
        // Registers and instance results are declared first: their
        // values may be used before their definitions are written.
        for &op in &order {
            let name = ctx.str(ir.op_name(op));
            if matches!(name, "seq.compreg" | "seq.compreg.ce" | "seq.firreg") {
                let r = ir.result(op, 0);
                self.check_type(op, r)?;
                let w = self.width(r);
                let hint = name_attr(ctx, ir, op).unwrap_or_else(|| "_reg".into());
                let id = self.names.fresh(&hint);
                if w > 0 {
                    let decl = self.declare_value("reg", r, &id);
                    if bits_unread(ctx, ir, r, &live) {
                        let _ = writeln!(
                            self.decls,
                            "  // verilator lint_off UNUSEDSIGNAL\n  {decl};\n  // verilator lint_on UNUSEDSIGNAL"
                        );
                    } else {
                        let _ = writeln!(self.decls, "  {decl};");
                    }
                }
                self.exprs.insert(r, Expr::primary(id));
            } else if is_memory(name) {
                self.declare_memory(op)?;
            } else if name == "seq.shiftreg" {
                self.declare_shiftreg(op)?;
            } else if name == "seq.fifo" {
                self.declare_fifo(op)?;
            } else if name == "hw.instance" {
                let inst = instance_name(ctx, ir, op);
                let result_names = silica_hw_dialects::hw::instance_result_names(ctx, ir, op);
                for (k, r) in ir.results(op).enumerate() {
                    self.check_type(op, r)?;
                    let w = self.width(r);
                    let hint = format!(
                        "{inst}_{}",
                        result_names.get(k).map_or("out", String::as_str)
                    );
                    let id = self.names.fresh(&hint);
                    if w > 0 {
                        let decl = self.declare_value("wire", r, &id);
                        // An output nothing reads (an instance's `idle`)
                        // is waived as unread registers are.
                        if bits_unread(ctx, ir, r, &live) {
                            let _ = writeln!(
                                self.decls,
                                "  // verilator lint_off UNUSEDSIGNAL\n  {decl};\n  // verilator lint_on UNUSEDSIGNAL"
                            );
                        } else {
                            let _ = writeln!(self.decls, "  {decl};");
                        }
                    }
                    self.exprs.insert(r, Expr::primary(id));
                }
            }
        }
        let mut state = Vec::new();
        for &op in &order {
            let name = ctx.str(ir.op_name(op));
            if matches!(
                name,
                "seq.compreg" | "seq.compreg.ce" | "seq.firreg" | "seq.shiftreg" | "seq.fifo"
            ) || is_memory(name)
            {
                state.push(op);
            } else if is_port(name) {
                self.read_port(op)?;
            } else {
                self.op(op, &output_names)?;
            }
        }
        // State last: next values, addresses and data are defined by now.
        for op in state {
            match ctx.str(ir.op_name(op)) {
                "seq.shiftreg" => self.shiftreg_logic(op)?,
                "seq.fifo" => self.fifo_logic(op)?,
                name if is_memory(name) => self.memory_logic(op)?,
                _ => self.register(op)?,
            }
        }
        let _ = writeln!(out, "module {}{header}(", self.module_name());
        for (i, p) in port_decls.iter().enumerate() {
            let sep = if i + 1 < port_decls.len() { "," } else { "" };
            let _ = writeln!(out, "  {p}{sep}");
        }
        out.push_str(");\n");
        out.push_str(&self.decls);
        out.push_str(&self.body);
        out.push_str("endmodule\n");
        Ok(())
    }

    fn module_name(&self) -> String {
        crate::legal_module_name(&silica_hw_dialects::hw::symbol_name(
            self.ctx,
            self.ir,
            self.module,
        ))
    }

    fn op(&mut self, op: OpId, outputs: &[(String, u64)]) -> Res<()> {
        let (ctx, ir) = (self.ctx, self.ir);
        let name = ctx.str(ir.op_name(op));
        let operands: Vec<ValueId> = ir.operands(op).collect();
        let result = ir.results(op).next();
        // Initial values are constants where they are used.
        match (name, result) {
            ("seq.initial", _) => return Ok(()),
            ("seq.from_immutable", Some(r)) => {
                let w = self.width(r);
                let v = self
                    .initials
                    .get(&r)
                    .map(|b| b.value().clone())
                    .unwrap_or_default();
                self.exprs
                    .insert(r, Expr::primary(literal(w, &num_bigint::BigInt::from(v))));
                return Ok(());
            }
            _ => {}
        }
        if let Some(r) = result {
            self.check_type(op, r)?;
        }
        for &v in &operands {
            self.check_type(op, v)?;
        }
        let int = |n: &str| -> Option<num_bigint::BigInt> {
            match ctx.attr_kind(inherent_attr(ctx, ir, op, n)?) {
                AttrKind::Integer { value, .. } => Some(value.clone()),
                _ => None,
            }
        };
        let e = |s: &Self, i: usize| s.expr(operands[i]);
        let variadic = |s: &Self, sym: &'static str, prec: u8| -> Expr {
            let parts: Vec<String> = operands
                .iter()
                .filter(|&&v| s.width(v) > 0)
                .map(|&v| s.expr(v).operand(prec, sym))
                .collect();
            Expr {
                text: parts.join(&format!(" {sym} ")),
                prec,
                op: sym,
            }
        };
        let binary = |s: &Self, sym: &'static str, prec: u8| -> Expr {
            Expr {
                text: format!(
                    "{} {sym} {}",
                    e(s, 0).operand(prec, sym),
                    e(s, 1).operand(prec, "")
                ),
                prec,
                op: sym,
            }
        };
        let signed = |s: &Self, i: usize| format!("$signed({})", e(s, i).text);
        let width = result.map_or(0, |r| self.width(r));
        let expr = match name {
            "hw.output" => {
                for (k, &v) in operands.iter().enumerate() {
                    let (out_name, w) = &outputs[k];
                    if *w > 0 {
                        let _ = writeln!(self.body, "  assign {out_name} = {};", self.expr(v).text);
                    }
                }
                return Ok(());
            }
            "seq.compreg" | "seq.compreg.ce" | "seq.firreg" => return self.register(op),
            "hw.instance" => return self.instance(op),
            "hw.constant" => Expr::primary(literal(width, &int("value").unwrap_or_default())),
            "hw.param.value" => match inherent_attr(ctx, ir, op, "value") {
                Some(v) => self.param_expr(op, v)?,
                None => return Err(err(ir, op, "'hw.param.value' without a value")),
            },
            "comb.add" => variadic(self, "+", ADD),
            "comb.mul" => variadic(self, "*", MUL),
            "comb.and" => variadic(self, "&", AND),
            "comb.or" => variadic(self, "|", OR),
            "comb.xor" => variadic(self, "^", XOR),
            "comb.sub" => binary(self, "-", ADD),
            "comb.divu" => binary(self, "/", MUL),
            "comb.modu" => binary(self, "%", MUL),
            "comb.shl" => binary(self, "<<", SHIFT),
            "comb.shru" => binary(self, ">>", SHIFT),
            "comb.divs" | "comb.mods" | "comb.shrs" => {
                let sym = match name {
                    "comb.divs" => "/",
                    "comb.mods" => "%",
                    _ => ">>>",
                };
                let rhs = if name == "comb.shrs" {
                    e(self, 1).operand(SHIFT, "")
                } else {
                    signed(self, 1)
                };
                let text = format!("{} {sym} {rhs}", signed(self, 0));
                let r = result.ok_or_else(|| err(ir, op, "missing result"))?;
                self.define(
                    r,
                    Expr {
                        text,
                        prec: MUL,
                        op: sym,
                    },
                    true,
                    "_GEN",
                );
                return Ok(());
            }
            "comb.icmp" => {
                let code = int("predicate")
                    .and_then(|v| i64::try_from(v).ok())
                    .unwrap_or(-1);
                let (sym, prec, is_signed) = match code {
                    0 | 10 | 12 => ("==", EQUALITY, false),
                    1 | 11 | 13 => ("!=", EQUALITY, false),
                    2 => ("<", RELATIONAL, true),
                    3 => ("<=", RELATIONAL, true),
                    4 => (">", RELATIONAL, true),
                    5 => (">=", RELATIONAL, true),
                    6 => ("<", RELATIONAL, false),
                    7 => ("<=", RELATIONAL, false),
                    8 => (">", RELATIONAL, false),
                    9 => (">=", RELATIONAL, false),
                    _ => return Err(err(ir, op, "unknown comparison predicate")),
                };
                if self.width(operands[0]) == 0 {
                    let always = matches!(code, 0 | 10 | 12 | 3 | 5 | 7 | 9);
                    Expr::primary(if always { "1'h1" } else { "1'h0" }.into())
                } else if is_signed {
                    Expr {
                        text: format!("{} {sym} {}", signed(self, 0), signed(self, 1)),
                        prec,
                        op: sym,
                    }
                } else {
                    Expr {
                        text: format!(
                            "{} {sym} {}",
                            e(self, 0).operand(prec, ""),
                            e(self, 1).operand(prec, "")
                        ),
                        prec,
                        op: sym,
                    }
                }
            }
            "comb.parity" => {
                if self.width(operands[0]) == 0 {
                    Expr::primary("1'h0".into())
                } else {
                    Expr {
                        text: format!("^{}", e(self, 0).operand(UNARY, "")),
                        prec: UNARY,
                        op: "^u",
                    }
                }
            }
            "comb.extract" => {
                let low = int("lowBit")
                    .and_then(|v| u64::try_from(v).ok())
                    .unwrap_or(0);
                let input = operands[0];
                let input_width = self.width(input);
                if width == input_width {
                    e(self, 0)
                } else if let Some(c) = self.constant_of(input) {
                    Expr::primary(literal(width, &(c >> low)))
                } else {
                    let id = self.ident(input, "_GEN");
                    Expr::primary(if width == 1 {
                        format!("{id}[{low}]")
                    } else {
                        format!("{id}[{}:{low}]", low + width - 1)
                    })
                }
            }
            // Aggregates are the concatenation of their parts (zero-width
            // parts left out).
            "comb.concat" | "hw.array_create" | "hw.array_concat" | "hw.struct_create" => {
                let parts: Vec<String> = operands
                    .iter()
                    .filter(|&&v| self.width(v) > 0)
                    .map(|&v| self.expr(v).text)
                    .collect();
                let only = operands.iter().find(|&&v| self.width(v) > 0);
                if parts.len() == 1 && !only.is_some_and(|v| self.typed.contains(v)) {
                    e(
                        self,
                        operands
                            .iter()
                            .position(|&v| self.width(v) > 0)
                            .unwrap_or(0),
                    )
                } else {
                    Expr::primary(format!("{{{}}}", parts.join(", ")))
                }
            }
            "comb.replicate" => {
                let w = self.width(operands[0]);
                let times = width.checked_div(w).unwrap_or(0);
                Expr::primary(format!("{{{times}{{{}}}}}", e(self, 0).text))
            }
            "comb.mux" => Expr {
                text: format!(
                    "{} ? {} : {}",
                    e(self, 0).operand(TERNARY, ""),
                    e(self, 1).operand(TERNARY, ""),
                    e(self, 2).operand(TERNARY + 1, "")
                ),
                prec: TERNARY,
                op: "?:",
            },
            "comb.reverse" => {
                let id = self.ident(operands[0], "_GEN");
                let bits: Vec<String> = (0..width).map(|i| format!("{id}[{i}]")).collect();
                Expr::primary(if width == 1 {
                    id
                } else {
                    format!("{{{}}}", bits.join(", "))
                })
            }
            "comb.truth_table" => {
                let table: Vec<bool> = match inherent_attr(ctx, ir, op, "lookupTable").map(|a| ctx.attr_kind(a)) {
                    Some(AttrKind::Array(items)) => items
                        .iter()
                        .map(|&i| matches!(ctx.attr_kind(i), AttrKind::Integer { value, .. } if *value != 0.into()))
                        .collect(),
                    _ => return Err(err(ir, op, "truth table without a lookup table")),
                };
                let bits: String = table
                    .iter()
                    .rev()
                    .map(|&b| if b { '1' } else { '0' })
                    .collect();
                let id = self.names.fresh("_table");
                let _ = writeln!(
                    self.decls,
                    "  wire {}{id} = {}'b{bits};",
                    range(table.len() as u64),
                    table.len()
                );
                let index: Vec<String> = operands.iter().map(|&v| self.expr(v).text).collect();
                if table.len() == 1 {
                    Expr::primary(id)
                } else {
                    Expr::primary(format!("{id}[{{{}}}]", index.join(", ")))
                }
            }
            "hw.wire" => {
                let r = result.ok_or_else(|| err(ir, op, "missing result"))?;
                let hint = name_attr(ctx, ir, op).unwrap_or_else(|| "_wire".into());
                let e0 = e(self, 0);
                let id = self.names.fresh(&hint);
                if width > 0 {
                    let decl = self.declare_value("wire", r, &id);
                    let _ = writeln!(self.decls, "  {decl} = {};", e0.text);
                }
                self.exprs.insert(r, Expr::primary(id));
                return Ok(());
            }
            // A typed value and its bit-vector view (or another type)
            // are different identifiers in full SystemVerilog.
            "hw.bitcast" => {
                let r = result.ok_or_else(|| err(ir, op, "missing result"))?;
                let same = silica_hw_dialects::types::canonical(ctx, ir.value_type(r))
                    == silica_hw_dialects::types::canonical(ctx, ir.value_type(operands[0]));
                if self.flavor.full_sv && !same && width > 0 && self.ir.has_uses(r) {
                    self.define(r, e(self, 0), true, "_GEN");
                    return Ok(());
                }
                e(self, 0)
            }
            // A union is a bit vector: its fields are part-selects, and
            // a union made of one field is zero elsewhere.
            "hw.union_create" | "hw.union_extract" => {
                let (lo, w) = accessed(ctx, ir, op)
                    .and_then(|(fields, i)| field_bits(ctx, &fields, i))
                    .ok_or_else(|| err(ir, op, "field index out of range"))?;
                if name == "hw.union_extract" {
                    let id = self.ident(operands[0], "_GEN");
                    let r = result.ok_or_else(|| err(ir, op, "missing result"))?;
                    let text = Expr::primary(select(&id, lo, w));
                    // A typed field is read through a wire of its type.
                    let field = silica_hw_dialects::types::canonical(ctx, ir.value_type(r));
                    let aggregate = matches!(
                        hw_type(ctx, field),
                        Some(HwType::Struct(_) | HwType::Array(..))
                    );
                    self.define(r, text, self.flavor.full_sv && aggregate, "_GEN");
                    return Ok(());
                }
                let mut parts = Vec::new();
                if width > lo + w {
                    parts.push(literal(width - lo - w, &0.into()));
                }
                if w > 0 {
                    parts.push(e(self, 0).text);
                }
                if lo > 0 {
                    parts.push(literal(lo, &0.into()));
                }
                Expr::primary(format!("{{{}}}", parts.join(", ")))
            }
            "hw.array_get" | "hw.array_slice" => {
                let (n, element) = array_of(ctx, ir.value_type(operands[0]))
                    .ok_or_else(|| err(ir, op, "expected an array operand"))?;
                let ew = bit_width(ctx, element).unwrap_or(0);
                let id = self.ident(operands[0], "_GEN");
                let iw = self.width(operands[1]);
                let constant = match iw {
                    0 => Some(0),
                    _ => self
                        .constant_of(operands[1])
                        .map(|i| u64::try_from(i).unwrap_or(u64::MAX)),
                };
                // Bits past the end read zero, as in `silica sim`: a
                // select that can reach past them reads a zero-padded view.
                let last = constant.unwrap_or_else(|| (1u64 << iw.min(63)) - 1);
                let reach = last.saturating_mul(ew).saturating_add(width);
                let pad = reach.saturating_sub(n * ew);
                let typed = self.typed.contains(&operands[0]);
                match constant {
                    _ if pad > 0 && constant.is_some_and(|i| i >= n) => {
                        Expr::primary(literal(width, &0.into()))
                    }
                    Some(i) if typed && pad == 0 && name == "hw.array_get" => {
                        Expr::primary(format!("{id}[{i}]"))
                    }
                    None if typed && pad == 0 && name == "hw.array_get" => {
                        Expr::primary(format!("{id}[{}]", e(self, 1).text))
                    }
                    // The slice's elements (Icarus cannot take `a[i +: n]`
                    // of a multi-dimensional packed array).
                    Some(low) if typed && pad == 0 => {
                        let parts: Vec<String> = (low..low + width / ew.max(1))
                            .rev()
                            .map(|k| format!("{id}[{k}]"))
                            .collect();
                        Expr::primary(format!("{{{}}}", parts.join(", ")))
                    }
                    _ => {
                        let view = self.flat_view(operands[0], &id, pad);
                        match constant {
                            Some(i) => Expr::primary(select(&view, i * ew, width)),
                            None => {
                                let index = e(self, 1).operand(MUL, "");
                                Expr::primary(format!("{view}[{index} * {ew} +: {width}]"))
                            }
                        }
                    }
                }
            }
            "hw.array_inject" => {
                let (n, element) = array_of(ctx, ir.value_type(operands[0]))
                    .ok_or_else(|| err(ir, op, "expected an array operand"))?;
                let ew = bit_width(ctx, element).unwrap_or(0);
                let id = self.ident(operands[0], "_GEN");
                let value = e(self, 2).operand(TERNARY, "");
                let iw = self.width(operands[1]);
                let index = (iw > 0).then(|| self.ident(operands[1], "_GEN"));
                // One element per slot, the injected value where the
                // index points (none past the end).
                let typed = self.typed.contains(&operands[0]);
                let parts: Vec<String> = (0..n)
                    .rev()
                    .filter(|_| ew > 0)
                    .map(|k| {
                        let old = if typed {
                            format!("{id}[{k}]")
                        } else {
                            select(&id, k * ew, ew)
                        };
                        match &index {
                            Some(ix) => {
                                format!("({ix} == {} ? {value} : {old})", literal(iw, &k.into()))
                            }
                            None => value.clone(),
                        }
                    })
                    .collect();
                Expr::primary(format!("{{{}}}", parts.join(", ")))
            }
            "hw.struct_extract" | "hw.struct_inject" => {
                let fields = struct_fields(ctx, ir.value_type(operands[0]))
                    .ok_or_else(|| err(ir, op, "expected a struct operand"))?;
                let i = field_of(ctx, ir, op)
                    .filter(|&i| i < fields.len())
                    .ok_or_else(|| err(ir, op, "field index out of range"))?;
                let off = field_offset(ctx, &fields, i);
                let fw = bit_width(ctx, fields[i].1).unwrap_or(0);
                let id = self.ident(operands[0], "_GEN");
                if self.typed.contains(&operands[0]) {
                    let names = field_names(&fields);
                    if name == "hw.struct_extract" {
                        Expr::primary(format!("{id}.{}", names[i]))
                    } else {
                        let parts: Vec<String> = fields
                            .iter()
                            .zip(&names)
                            .enumerate()
                            .filter(|(_, ((_, t), _))| bit_width(ctx, *t).unwrap_or(0) > 0)
                            .map(|(k, (_, n))| {
                                if k == i {
                                    e(self, 1).text
                                } else {
                                    format!("{id}.{n}")
                                }
                            })
                            .collect();
                        Expr::primary(format!("{{{}}}", parts.join(", ")))
                    }
                } else if name == "hw.struct_extract" {
                    Expr::primary(select(&id, off, fw))
                } else {
                    let total = self.width(operands[0]);
                    let mut parts = Vec::new();
                    if off + fw < total {
                        parts.push(select(&id, off + fw, total - off - fw));
                    }
                    if fw > 0 {
                        parts.push(e(self, 1).text);
                    }
                    if off > 0 {
                        parts.push(select(&id, 0, off));
                    }
                    Expr::primary(format!("{{{}}}", parts.join(", ")))
                }
            }
            "hw.struct_explode" => {
                let fields = struct_fields(ctx, ir.value_type(operands[0]))
                    .ok_or_else(|| err(ir, op, "expected a struct operand"))?;
                let id = self.ident(operands[0], "_GEN");
                let typed = self.typed.contains(&operands[0]);
                let names = field_names(&fields);
                for (i, r) in ir.results(op).enumerate() {
                    let off = field_offset(ctx, &fields, i);
                    let fw = self.width(r);
                    let text = if fw == 0 {
                        String::new()
                    } else if typed {
                        format!("{id}.{}", names[i])
                    } else {
                        select(&id, off, fw)
                    };
                    self.exprs.insert(r, Expr::primary(text));
                }
                return Ok(());
            }
            // An enum value is its field's index.
            "hw.enum.cmp" => binary(self, "==", EQUALITY),
            "hw.aggregate_constant" | "hw.enum.constant" => {
                let bits = silica_hw_dialects::eval::eval_op(ctx, ir, op, &[])?;
                Expr::primary(literal(
                    width,
                    &num_bigint::BigInt::from(bits.value().clone()),
                ))
            }
            "seq.to_clock" | "seq.from_clock" => e(self, 0),
            "seq.const_clock" => Expr::primary(
                if memory::const_clock_value(ctx, ir, op) {
                    "1'h1"
                } else {
                    "1'h0"
                }
                .into(),
            ),
            "seq.clock_inv" => Expr {
                text: format!("~{}", e(self, 0).operand(UNARY, "")),
                prec: UNARY,
                op: "~",
            },
            "seq.clock_gate" => variadic(self, "&", AND),
            "seq.clock_mux" => Expr {
                text: format!(
                    "{} ? {} : {}",
                    e(self, 0).operand(TERNARY, ""),
                    e(self, 1).operand(TERNARY, ""),
                    e(self, 2).operand(TERNARY + 1, "")
                ),
                prec: TERNARY,
                op: "?:",
            },
            other => {
                return Err(err(
                    ir,
                    op,
                    format!("'{other}' cannot be emitted as Verilog yet"),
                ))
            }
        };
        let Some(r) = result else {
            return Ok(());
        };
        if width == 0 {
            self.exprs.insert(r, Expr::primary(String::new()));
            return Ok(());
        }
        let constant = matches!(
            name,
            "hw.constant" | "hw.aggregate_constant" | "hw.enum.constant"
        );
        let spill = !constant && !self.inlinable(r);
        if constant || !self.ir.has_uses(r) {
            self.exprs.insert(r, expr);
        } else {
            self.define(r, expr, spill, "_GEN");
        }
        Ok(())
    }

    fn constant_of(&self, v: ValueId) -> Option<num_bigint::BigInt> {
        let d = self.ir.defining_op(v)?;
        if self.ctx.str(self.ir.op_name(d)) != "hw.constant" {
            return None;
        }
        match self
            .ctx
            .attr_kind(inherent_attr(self.ctx, self.ir, d, "value")?)
        {
            AttrKind::Integer { value, .. } => {
                let w = self.width(v);
                let m = num_bigint::BigInt::from(1u8) << w;
                Some(((value % &m) + &m) % &m)
            }
            _ => None,
        }
    }

    fn register(&mut self, op: OpId) -> Res<()> {
        let (ctx, ir) = (self.ctx, self.ir);
        let r = reg_operands(ctx, ir, op);
        let reg = ir.result(op, 0);
        if self.width(reg) == 0 {
            return Ok(());
        }
        let id = self.expr(reg).text;
        let clock = r
            .clock
            .ok_or_else(|| err(ir, op, "register without a clock"))?;
        let clk = self.ident(clock, "_clock");
        let asynchronous = ctx.str(ir.op_name(op)) == "seq.firreg" && is_async(ctx, ir, op);
        let reset = match (r.reset, r.reset_value) {
            (Some(rst), Some(v)) => Some((self.ident(rst, "_reset"), self.expr(v).text)),
            _ => None,
        };
        let next = r.input.map(|v| self.expr(v).text).unwrap_or_default();
        let enable = r.enable.map(|v| self.expr(v).text);
        let mut s = String::new();
        match (&reset, asynchronous) {
            (Some((rst, _)), true) => {
                let _ = writeln!(s, "  always_ff @(posedge {clk} or posedge {rst}) begin");
            }
            _ => {
                let _ = writeln!(s, "  always_ff @(posedge {clk}) begin");
            }
        }
        let assign = match &enable {
            Some(en) => format!("if ({en})\n      {id} <= {next};"),
            None => format!("{id} <= {next};"),
        };
        match &reset {
            Some((rst, value)) => {
                let _ = writeln!(s, "    if ({rst})\n      {id} <= {value};");
                match &enable {
                    Some(en) => {
                        let _ = writeln!(s, "    else if ({en})\n      {id} <= {next};");
                    }
                    None => {
                        let _ = writeln!(s, "    else\n      {id} <= {next};");
                    }
                }
            }
            None => {
                let _ = writeln!(s, "    {assign}");
            }
        }
        s.push_str("  end\n");
        // Registers power up at their preset, else zero, as the iCE40's
        // flip-flops do (and as `silica sim` starts them).
        let w = self.width(reg);
        let initial = r.initial.and_then(|i| self.initials.get(&i));
        let value = match inherent_attr(ctx, ir, op, "preset").map(|a| ctx.attr_kind(a)) {
            Some(AttrKind::Integer { value, .. }) => value.clone(),
            _ => initial.map_or(0.into(), |b| num_bigint::BigInt::from(b.value().clone())),
        };
        let init = if w != PARAMETRIC_WIDTH {
            literal(w, &value)
        } else if value == 0.into() {
            "'0".to_string()
        } else {
            return Err(err(
                ir,
                op,
                "a register of a parametric width can only power up at zero; run --hw-specialize first",
            ));
        };
        let _ = writeln!(s, "  initial {id} = {init};");
        self.body.push_str(&s);
        Ok(())
    }

    fn instance(&mut self, op: OpId) -> Res<()> {
        let (ctx, ir) = (self.ctx, self.ir);
        let target = instance_target(ctx, ir, op).unwrap_or_default();
        let callee = silica_hw_dialects::hw::find_module(ctx, ir, op, &target)
            .ok_or_else(|| err(ir, op, format!("cannot find module '{target}'")))?;
        let ports = module_ports(ctx, ir, callee);
        let inst = self.names.fresh(&instance_name(ctx, ir, op));
        let mut conns = Vec::new();
        let mut ins = ir.operands(op);
        let mut outs = ir.results(op);
        let port_names = crate::port_names(self.flavor, &ports);
        for (p, port_name) in ports.iter().zip(&port_names) {
            let v = if p.dir == Direction::Output {
                outs.next()
            } else {
                ins.next()
            };
            let Some(v) = v else { continue };
            if self.width(v) == 0 {
                continue;
            }
            conns.push(format!(".{port_name}({})", self.expr(v).text));
        }
        let overrides = self.parameter_overrides(op, callee)?;
        let _ = write!(
            self.body,
            "  {}{overrides} {inst} (",
            crate::legal_module_name(&target)
        );
        for (i, c) in conns.iter().enumerate() {
            let sep = if i + 1 < conns.len() { "," } else { "" };
            let _ = write!(self.body, "\n    {c}{sep}");
        }
        self.body.push_str("\n  );\n");
        Ok(())
    }
}
