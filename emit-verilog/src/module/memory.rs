//! Memories and shift registers as SystemVerilog, in the shapes yosys
//! maps to iCE40 block RAM: an unpacked array of words written by one
//! `always_ff` block (ports in op order), read either combinationally or
//! into a data register clocked by its port (a synchronous read, which
//! becomes the RAM's read port). Addresses past a non-power-of-two end
//! are guarded so they read zero and write nothing, as `silica sim` has
//! it (see `silica_hw_dialects::seq::memory`). A `firmem` whose
//! read-under-write behaviour is undefined carries yosys's
//! `no_rw_check`, so a collision needs no bypass logic (simulators still
//! read old data, which "undefined" allows); one that asks for a kind of
//! RAM (`sv.ram_style`) carries yosys's `ram_style` with it. A memory with an
//! initialisation file loads it with `$readmemh`/`$readmemb` at power-up;
//! the file is read when the Verilog is written, so that the words it
//! leaves out can be zeroed as `silica sim` has them.

use super::{err, literal, range, Expr, ModuleEmitter, Res, TERNARY};
use silica_hw_dialects::seq::memory::{memory, MemPort, Memory};
use silica_hw_dialects::seq::memory_ops::{int_prop, memory_name, ram_style, shiftreg_operands};
use silica_ir::{AttrKind, OpId, ValueId};
use std::fmt::Write;
use std::rc::Rc;

impl ModuleEmitter<'_> {
    /// Declares memory `op` and its ports' read registers (and keeps its
    /// decoded view for the ports); their definitions follow in
    /// [`ModuleEmitter::memory_logic`].
    pub(super) fn declare_memory(&mut self, op: OpId) -> Res<()> {
        let mem = memory(self.ctx, self.ir, op)?;
        let hint = memory_name(self.ctx, self.ir, op).unwrap_or_else(|| "_mem".into());
        let id = self.names.fresh(&hint);
        if mem.width > 0 && mem.depth > 0 {
            // Read-under-write "undefined": yosys need not keep old data
            // on a collision, so the RAM needs no bypass logic.
            if self.ctx.str(self.ir.op_name(op)) == "seq.firmem"
                && int_prop(self.ctx, self.ir, op, "ruw") == Some(0)
            {
                self.decls.push_str("  (* no_rw_check *)\n");
            }
            if let Some(style) = ram_style(self.ctx, self.ir, op) {
                let _ = writeln!(self.decls, "  (* ram_style = {style:?} *)");
            }
            let _ = writeln!(
                self.decls,
                "  reg {}{id} [0:{}];",
                range(mem.width),
                mem.depth - 1
            );
        }
        for p in &mem.ports {
            // Reads nobody uses need no registers.
            let used = p.read.is_some_and(|r| self.ir.has_uses(r));
            if let (Some(r), true) = (p.read, p.read_latency > 0 && used) {
                // The data register, then the pipeline after it.
                let stages: Vec<String> = (0..p.read_latency)
                    .map(|_| self.names.fresh(&format!("{id}_rdata")))
                    .collect();
                if mem.width > 0 {
                    for reg in &stages {
                        let _ = writeln!(self.decls, "  reg {}{reg};", range(mem.width));
                    }
                }
                self.exprs
                    .insert(r, Expr::primary(stages.last().cloned().unwrap_or_default()));
                self.read_pipelines.insert(p.op, stages);
            }
        }
        self.memories.insert(op, (id, Rc::new(mem)));
        Ok(())
    }

    /// The flat address of a port: its address, or the concatenation of
    /// an `hlmem`'s per-dimension addresses.
    fn address(&self, p: &MemPort) -> String {
        let parts: Vec<String> = p
            .address
            .iter()
            .filter(|&&a| self.width(a) > 0)
            .map(|&a| self.expr(a).text)
            .collect();
        match parts.len() {
            0 => "1'h0".into(),
            1 => parts[0].clone(),
            _ => format!("{{{}}}", parts.join(", ")),
        }
    }

    /// `address < depth` when the address can pass the end.
    fn in_range(&self, mem: &Memory, address: &str) -> Option<String> {
        let full = 1u128.checked_shl(mem.address_width).unwrap_or(u128::MAX);
        (u128::from(mem.depth) < full).then(|| {
            let d = literal(u64::from(mem.address_width), &mem.depth.into());
            format!("{address} < {d}")
        })
    }

    /// A combinational read port's expression.
    pub(super) fn read_port(&mut self, port: OpId) -> Res<()> {
        let Some(mem_op) = self
            .ir
            .operands(port)
            .next()
            .and_then(|m| self.ir.defining_op(m))
        else {
            return Err(err(self.ir, port, "port without a memory"));
        };
        let Some((id, mem)) = self.memories.get(&mem_op).cloned() else {
            return Err(err(self.ir, port, "port of an undeclared memory"));
        };
        let Some(p) = mem.ports.iter().find(|p| p.op == port) else {
            return Ok(());
        };
        let (Some(r), 0) = (p.read, p.read_latency) else {
            return Ok(());
        };
        let address = self.address(p);
        let word = format!("{id}[{address}]");
        let e = match self.in_range(&mem, &address) {
            Some(cond) => Expr {
                text: format!("{cond} ? {word} : {}", literal(mem.width, &0.into())),
                prec: TERNARY,
                op: "?",
            },
            None => Expr::primary(word),
        };
        self.define(r, e, true, &format!("{id}_rdata"));
        Ok(())
    }

    /// The clock of a memory's ports, as an identifier: one clock for
    /// the whole memory.
    fn memory_clock(&mut self, mem: &Memory) -> Res<Option<String>> {
        let mut clock: Option<ValueId> = None;
        for p in &mem.ports {
            match (clock, p.clock) {
                (None, c) => clock = c,
                (Some(a), Some(b)) if a != b => {
                    return Err(err(
                        self.ir,
                        p.op,
                        "memory ports on different clocks cannot be emitted as Verilog yet",
                    ))
                }
                _ => {}
            }
        }
        Ok(clock.map(|c| self.ident(c, "_clock")))
    }

    /// Memory `op`'s power-up contents, writes and registered reads.
    pub(super) fn memory_logic(&mut self, op: OpId) -> Res<()> {
        let Some((id, mem)) = self.memories.get(&op).cloned() else {
            return Err(err(self.ir, op, "undeclared memory"));
        };
        if mem.width == 0 || mem.depth == 0 {
            return Ok(());
        }
        let Some(clk) = self.memory_clock(&mem)? else {
            return Ok(());
        };
        let zero = literal(mem.width, &0.into());
        let mut s = String::new();
        match &mem.init {
            // Words the file leaves out are zeroed after it is read (yosys
            // lets a later zero override the file's word, so only those).
            Some(init) => {
                let set =
                    silica_hw_dialects::seq::mem_init::load(init, mem.depth, mem.width as u32)
                        .map_err(|m| err(self.ir, op, m))?;
                let task = if init.binary {
                    "$readmemb"
                } else {
                    "$readmemh"
                };
                let mut file = String::new();
                silica_ir::printer::quoted_into(&mut file, init.file.as_bytes());
                let _ = writeln!(s, "  initial begin\n    {task}({file}, {id});");
                for (start, end) in unset_runs(&set) {
                    let _ = writeln!(
                        s,
                        "    for (int i = {start}; i < {end}; i++)\n      {id}[i] = {zero};"
                    );
                }
                s.push_str("  end\n");
            }
            None => s.push_str(&zero_words(&id, mem.depth, mem.width)),
        }
        let mut writes = String::new();
        let mut reads = String::new();
        let mut read_inits = String::new();
        for p in &mem.ports {
            let address = self.address(p);
            let mut conds: Vec<String> = Vec::new();
            if let Some(e) = p.enable {
                conds.push(self.expr(e).operand(super::AND, "&&"));
            }
            if p.writes {
                let mut wc = conds.clone();
                if let Some(m) = p.mode {
                    wc.push(self.expr(m).operand(super::AND, "&&"));
                }
                if let Some(c) = self.in_range(&mem, &address) {
                    wc.push(format!("({c})"));
                }
                let data = p.data.map(|d| self.expr(d).text).unwrap_or_default();
                match (p.mask, mem.mask_group) {
                    (Some(m), Some(g)) => {
                        let mask = self.ident(m, "_mask");
                        let data = p.data.map(|d| self.ident(d, "_wdata")).unwrap_or_default();
                        for k in 0..mem.width / g.max(1) {
                            let mut c = wc.clone();
                            c.push(format!("{mask}[{k}]"));
                            let (hi, lo) = ((k + 1) * g - 1, k * g);
                            writes.push_str(&guarded(
                                &c,
                                &format!("{id}[{address}][{hi}:{lo}]"),
                                &format!("{data}[{hi}:{lo}]"),
                            ));
                        }
                    }
                    _ => {
                        writes.push_str(&guarded(&wc, &format!("{id}[{address}]"), &data));
                    }
                }
            }
            if let Some(stages) = self.read_pipelines.get(&p.op).cloned() {
                let reg = stages.first().cloned().unwrap_or_default();
                let mut rc = conds.clone();
                if let Some(m) = p.mode {
                    rc.push(format!("!{}", self.expr(m).operand(super::UNARY, "!")));
                }
                let word = match self.in_range(&mem, &address) {
                    Some(c) => format!("{c} ? {id}[{address}] : {zero}"),
                    None => format!("{id}[{address}]"),
                };
                reads.push_str(&guarded(&rc, &reg, &word));
                for pair in stages.windows(2) {
                    let _ = writeln!(reads, "    {} <= {};", pair[1], pair[0]);
                }
                for reg in &stages {
                    let _ = writeln!(read_inits, "  initial {reg} = {zero};");
                }
            }
        }
        for block in [writes, reads] {
            if !block.is_empty() {
                let _ = writeln!(s, "  always_ff @(posedge {clk}) begin\n{block}  end");
            }
        }
        s.push_str(&read_inits);
        self.body.push_str(&s);
        Ok(())
    }

    /// Declares a shift register's stages; the last is its value.
    pub(super) fn declare_shiftreg(&mut self, op: OpId) -> Res<()> {
        let r = self.ir.result(op, 0);
        self.check_type(op, r)?;
        let n = int_prop(self.ctx, self.ir, op, "numElements")
            .unwrap_or(1)
            .max(1);
        let hint = silica_hw_dialects::hw::name_attr(self.ctx, self.ir, op)
            .unwrap_or_else(|| "_shreg".into());
        let w = self.width(r);
        let mut stages = Vec::new();
        for k in 1..=n {
            let id = self.names.fresh(&format!("{hint}_sh{k}"));
            if w > 0 {
                let _ = writeln!(self.decls, "  reg {}{id};", range(w));
            }
            stages.push(id);
        }
        if let Some(last) = stages.last() {
            self.exprs.insert(r, Expr::primary(last.clone()));
        }
        self.shiftregs.insert(op, stages);
        Ok(())
    }

    /// A shift register's `always_ff` block and power-up values.
    pub(super) fn shiftreg_logic(&mut self, op: OpId) -> Res<()> {
        let r = self.ir.result(op, 0);
        let w = self.width(r);
        if w == 0 {
            return Ok(());
        }
        let [input, clock, enable, reset, reset_value, power_on] =
            shiftreg_operands(self.ctx, self.ir, op);
        let stages = self.shiftregs.get(&op).cloned().unwrap_or_default();
        let clk = match clock {
            Some(c) => self.ident(c, "_clock"),
            None => return Err(err(self.ir, op, "shift register without a clock")),
        };
        let input = input.map(|v| self.expr(v).text).unwrap_or_default();
        let en = enable.map(|v| self.expr(v).text).unwrap_or_default();
        let mut shift = String::new();
        for (k, s) in stages.iter().enumerate() {
            let from = if k == 0 { &input } else { &stages[k - 1] };
            let _ = writeln!(shift, "      {s} <= {from};");
        }
        let mut s = format!("  always_ff @(posedge {clk}) begin\n");
        if let (Some(rst), Some(v)) = (reset, reset_value) {
            let rst = self.ident(rst, "_reset");
            let v = self.expr(v).text;
            let _ = writeln!(s, "    if ({rst}) begin");
            for st in &stages {
                let _ = writeln!(s, "      {st} <= {v};");
            }
            let _ = write!(s, "    end else if ({en}) begin\n{shift}    end\n");
        } else {
            let _ = write!(s, "    if ({en}) begin\n{shift}    end\n");
        }
        s.push_str("  end\n");
        let init = match power_on.and_then(|v| self.constant_of(v)) {
            Some(v) => literal(w, &v),
            None if power_on.is_some() => {
                return Err(err(
                    self.ir,
                    op,
                    "a shift register's power-on value must be an hw.constant",
                ))
            }
            None => literal(w, &0.into()),
        };
        for st in &stages {
            let _ = writeln!(s, "  initial {st} = {init};");
        }
        self.body.push_str(&s);
        Ok(())
    }
}

/// `target <= value;` inside an `always_ff`, under `if (c1 && c2 ...)`
/// when there are conditions.
fn guarded(conds: &[String], target: &str, value: &str) -> String {
    if conds.is_empty() {
        format!("    {target} <= {value};\n")
    } else {
        format!(
            "    if ({})\n      {target} <= {value};\n",
            conds.join(" && ")
        )
    }
}

/// The runs `[start, end)` of words a memory file leaves unset.
fn unset_runs<T>(words: &[Option<T>]) -> Vec<(usize, usize)> {
    let mut runs = Vec::new();
    let mut start = None;
    for (i, w) in words.iter().enumerate() {
        match (w, start) {
            (None, None) => start = Some(i),
            (Some(_), Some(s)) => {
                runs.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        runs.push((s, words.len()));
    }
    runs
}

/// The `initial` loop that zeroes the `depth` words of array `id`.
pub(super) fn zero_words(id: &str, depth: u64, width: u64) -> String {
    format!(
        "  initial begin\n    for (int i = 0; i < {depth}; i++)\n      {id}[i] = {};\n  end\n",
        literal(width, &0.into())
    )
}

/// The value of a `seq.const_clock`.
pub(super) fn const_clock_value(ctx: &silica_ir::Context, ir: &silica_ir::Ir, op: OpId) -> bool {
    matches!(
        silica_ir::dialect::inherent_attr(ctx, ir, op, "value").map(|a| ctx.attr_kind(a)),
        Some(AttrKind::Integer { value, .. }) if *value != 0.into()
    )
}
