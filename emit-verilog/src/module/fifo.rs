//! `seq.fifo` as SystemVerilog: a word array, a count and two pointers
//! in one `always_ff` block, with the flags as wires — the meaning
//! `silica sim` gives it (`silica_hw_dialects::sim::memory::FifoState`).

use super::{err, literal, range, Expr, ModuleEmitter, Res};
use silica_hw_dialects::hw::aggregates::index_width;
use silica_hw_dialects::seq::memory_ops::{fifo_operands, int_prop};
use silica_ir::OpId;
use std::fmt::Write;

/// The names of one FIFO's state.
pub(super) struct FifoNames {
    mem: String,
    count: String,
    read: String,
    write: String,
    out_reg: Option<String>,
}

impl ModuleEmitter<'_> {
    /// Declares a FIFO's state and gives its results their expressions.
    pub(super) fn declare_fifo(&mut self, op: OpId) -> Res<()> {
        let (ctx, ir) = (self.ctx, self.ir);
        let results: Vec<_> = ir.results(op).collect();
        for &r in &results {
            self.check_type(op, r)?;
        }
        let depth = int_prop(ctx, ir, op, "depth").unwrap_or(1).max(1) as u64;
        let w = self.width(results[0]);
        let (cw, pw) = (
            u64::from(index_width(depth + 1)),
            u64::from(index_width(depth).max(1)),
        );
        let fresh = |s: &mut Self, n: &str| s.names.fresh(&format!("fifo_{n}"));
        let names = FifoNames {
            mem: fresh(self, "mem"),
            count: fresh(self, "count"),
            read: fresh(self, "rd_addr"),
            write: fresh(self, "wr_addr"),
            out_reg: (int_prop(ctx, ir, op, "rdLatency").unwrap_or(0) > 0)
                .then(|| fresh(self, "out")),
        };
        if w > 0 {
            let _ = writeln!(
                self.decls,
                "  reg {}{} [0:{}];",
                range(w),
                names.mem,
                depth - 1
            );
        }
        for (n, width) in [(&names.count, cw), (&names.read, pw), (&names.write, pw)] {
            let _ = writeln!(self.decls, "  reg {}{n};", range(width));
        }
        let out = match &names.out_reg {
            Some(reg) => {
                if w > 0 {
                    let _ = writeln!(self.decls, "  reg {}{reg};", range(w));
                }
                reg.clone()
            }
            None => format!("{}[{}]", names.mem, names.read),
        };
        let count = &names.count;
        let mut flags = vec![
            format!("{count} == {}", literal(cw, &depth.into())),
            format!("{count} == {}", literal(cw, &0.into())),
        ];
        if let Some(t) = int_prop(ctx, ir, op, "almostFullThreshold") {
            flags.push(format!("{count} >= {}", literal(cw, &t.into())));
        }
        if let Some(t) = int_prop(ctx, ir, op, "almostEmptyThreshold") {
            flags.push(format!("{count} <= {}", literal(cw, &t.into())));
        }
        let hints = [
            "fifo_out",
            "fifo_full",
            "fifo_empty",
            "fifo_almost",
            "fifo_almost",
        ];
        let out_result = results[0];
        let out_expr = Expr::primary(out);
        self.define(out_result, out_expr, names.out_reg.is_none(), hints[0]);
        for (k, (&r, text)) in results.iter().skip(1).zip(flags).enumerate() {
            // Full and empty are read by the FIFO's own logic.
            if k >= 2 && ir.uses(r).next().is_none() {
                continue;
            }
            let name = self.names.fresh(hints[k + 1]);
            self.declare_wire(r, &name, &text);
            self.exprs.insert(r, Expr::primary(name));
        }
        self.fifos.insert(op, names);
        Ok(())
    }

    /// A FIFO's `always_ff` blocks and power-up values.
    pub(super) fn fifo_logic(&mut self, op: OpId) -> Res<()> {
        let (ctx, ir) = (self.ctx, self.ir);
        let Some(names) = self.fifos.remove(&op) else {
            return Ok(());
        };
        let [input, rd_en, wr_en, clock, reset] = fifo_operands(ir, op);
        let (Some(input), Some(rd_en), Some(wr_en), Some(clock), Some(reset)) =
            (input, rd_en, wr_en, clock, reset)
        else {
            return Err(err(ir, op, "a FIFO needs five operands"));
        };
        let depth = int_prop(ctx, ir, op, "depth").unwrap_or(1).max(1) as u64;
        let w = self.width(input);
        let (cw, pw) = (
            u64::from(index_width(depth + 1)),
            u64::from(index_width(depth).max(1)),
        );
        let clk = self.ident(clock, "_clock");
        let rst = self.ident(reset, "_reset");
        let (rd, wr) = (
            self.expr(rd_en).operand(super::AND, "&&"),
            self.expr(wr_en).operand(super::AND, "&&"),
        );
        let data = self.expr(input).text;
        let results: Vec<_> = ir.results(op).collect();
        let (full, empty) = (self.expr(results[1]).text, self.expr(results[2]).text);
        let do_write = self.names.fresh("fifo_do_write");
        let do_read = self.names.fresh("fifo_do_read");
        let FifoNames {
            mem,
            count,
            read,
            write,
            out_reg,
        } = names;
        let _ = writeln!(self.decls, "  wire {do_write} = {wr} && !{full};");
        let _ = writeln!(self.decls, "  wire {do_read} = {rd} && !{empty};");
        let last = literal(pw, &(depth - 1).into());
        let (p0, p1) = (literal(pw, &0.into()), literal(pw, &1.into()));
        let (c0, c1) = (literal(cw, &0.into()), literal(cw, &1.into()));
        let next = |p: &str| format!("{p} == {last} ? {p0} : {p} + {p1}");
        let mut s = String::new();
        let _ = writeln!(s, "  always_ff @(posedge {clk}) begin");
        let _ = writeln!(s, "    if ({rst}) begin");
        let _ = writeln!(
            s,
            "      {count} <= {c0};\n      {read} <= {p0};\n      {write} <= {p0};"
        );
        let _ = writeln!(s, "    end else begin");
        let _ = writeln!(s, "      if ({do_write}) begin");
        if w > 0 {
            let _ = writeln!(s, "        {mem}[{write}] <= {data};");
        }
        let _ = writeln!(s, "        {write} <= {};\n      end", next(&write));
        let _ = writeln!(
            s,
            "      if ({do_read})\n        {read} <= {};",
            next(&read)
        );
        let _ = writeln!(
            s,
            "      if ({do_write} && !{do_read})\n        {count} <= {count} + {c1};\n      else if (!{do_write} && {do_read})\n        {count} <= {count} - {c1};"
        );
        let _ = writeln!(s, "    end\n  end");
        if let (Some(reg), true) = (&out_reg, w > 0) {
            let _ = writeln!(
                s,
                "  always_ff @(posedge {clk}) begin\n    if ({rd})\n      {reg} <= {mem}[{read}];\n  end"
            );
            let _ = writeln!(s, "  initial {reg} = {};", literal(w, &0.into()));
        }
        if w > 0 {
            s.push_str(&super::memory::zero_words(&mem, depth, w));
        }
        let _ = writeln!(
            s,
            "  initial {count} = {c0};\n  initial {read} = {p0};\n  initial {write} = {p0};"
        );
        self.body.push_str(&s);
        Ok(())
    }
}
