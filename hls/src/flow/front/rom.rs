//! Constant `memref.global`s as ROMs: `memref.get_global` of a global
//! marked `constant` with a dense integer initial value becomes a
//! [`Memory`](crate::model::kernel::Memory) holding its words (every
//! `get_global` of one symbol the same ROM). Stores into a ROM, mutable
//! or uninitialized globals are errors at the op.

use super::lift::{err, Lifter, Res};
use super::signature::memory_of;
use crate::model::kernel::truncate;
use silica_ir::dialect::inherent_attr;
use silica_ir::{AttrKind, Diagnostic, OpId};

impl Lifter<'_> {
    /// The ROM that `memref.get_global` op `get` names.
    pub(super) fn global_memory(&mut self, get: OpId) -> Res<usize> {
        let (ctx, ir) = (self.ctx, self.ir);
        let Some(sym) = inherent_attr(ctx, ir, get, "name") else {
            return err(self.loc, "'memref.get_global' without a symbol");
        };
        let global = silica_ir::symbols::lookup_from(ctx, ir, get, sym)
            .filter(|&g| ctx.str(ir.op_name(g)) == "memref.global");
        let Some(global) = global else {
            return err(self.loc, "'memref.get_global' names no 'memref.global'");
        };
        let name = super::signature::string_of(ctx, inherent_attr(ctx, ir, global, "sym_name"))
            .unwrap_or_default();
        if let Some(&m) = self.globals.get(&name) {
            return Ok(m);
        }
        if inherent_attr(ctx, ir, global, "constant").is_none() {
            return err(
                self.loc,
                format!(
                    "global '@{name}' is not constant; silica hls builds constant globals as ROMs"
                ),
            );
        }
        let value = inherent_attr(ctx, ir, global, "initial_value").map(|a| ctx.attr_kind(a));
        let Some(AttrKind::DenseElements { values, .. }) = value else {
            return err(
                self.loc,
                format!("global '@{name}' has no dense initial value to build a ROM from"),
            );
        };
        let ty = ir.value_type(ir.result(get, 0));
        let mut mem = memory_of(ctx, ty, format!("rom_{name}"), None, self.loc)
            .map_err(|m| Box::new(Diagnostic::error(self.loc, m)))?;
        let mut words = Vec::with_capacity(values.len());
        for &v in values.iter() {
            let AttrKind::Integer { value, .. } = ctx.attr_kind(v) else {
                return err(
                    self.loc,
                    format!("global '@{name}' has non-integer elements"),
                );
            };
            let Ok(x) = i128::try_from(value).or_else(|_| u128::try_from(value).map(|u| u as i128))
            else {
                return err(
                    self.loc,
                    format!("global '@{name}' has an element wider than 128 bits"),
                );
            };
            words.push(truncate(x, mem.element_width));
        }
        let n = mem.words() as usize;
        if words.len() == 1 {
            words = vec![words[0]; n];
        }
        if words.len() != n {
            return err(
                self.loc,
                format!(
                    "global '@{name}' has {} elements for {n} words",
                    words.len()
                ),
            );
        }
        mem.rom = Some(words);
        let m = self.k.memories.len();
        self.k.memories.push(mem);
        self.globals.insert(name, m);
        Ok(m)
    }
}
