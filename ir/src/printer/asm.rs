//! [`AsmPrinter`]: what a dialect's custom op printer sees of the printer
//! (MLIR's `OpAsmPrinter`). The same hook runs twice: once to collect
//! attributes and types in print order (for aliases, as MLIR's alias
//! initializer does) and once to write text.

use super::walk::{visit_region, visit_region_ext, PrintFlags, Visitor};
use super::OpPrinter;
use crate::context::{Attr, Context, Symbol, Type};
use crate::graph::{Ir, RegionId, ValueId};

/// The printer, as handed to custom printers.
pub struct AsmPrinter<'p, 'a> {
    backend: Backend<'p, 'a>,
    /// Where raw text goes when only collecting.
    scratch: String,
}

enum Backend<'p, 'a> {
    Text(&'p mut OpPrinter<'a>),
    Visit {
        ctx: &'a Context,
        ir: &'a Ir,
        flags: &'p PrintFlags,
        v: &'p mut dyn Visitor,
    },
}

impl<'p, 'a> AsmPrinter<'p, 'a> {
    pub(super) fn text(p: &'p mut OpPrinter<'a>) -> Self {
        AsmPrinter {
            backend: Backend::Text(p),
            scratch: String::new(),
        }
    }

    pub(super) fn visit(
        ctx: &'a Context,
        ir: &'a Ir,
        flags: &'p PrintFlags,
        v: &'p mut dyn Visitor,
    ) -> Self {
        AsmPrinter {
            backend: Backend::Visit { ctx, ir, flags, v },
            scratch: String::new(),
        }
    }

    /// The context.
    pub fn ctx(&self) -> &'a Context {
        match &self.backend {
            Backend::Text(p) => p.ctx,
            Backend::Visit { ctx, .. } => ctx,
        }
    }

    /// The IR being printed.
    pub fn ir(&self) -> &'a Ir {
        match &self.backend {
            Backend::Text(p) => p.ir,
            Backend::Visit { ir, .. } => ir,
        }
    }

    /// Appends raw text.
    pub fn write(&mut self, s: &str) {
        if let Backend::Text(p) = &mut self.backend {
            p.out.push_str(s);
        }
    }

    /// The output buffer for raw text (a scratch buffer when collecting).
    pub fn out(&mut self) -> &mut String {
        match &mut self.backend {
            Backend::Text(p) => &mut p.out,
            Backend::Visit { .. } => {
                self.scratch.clear();
                &mut self.scratch
            }
        }
    }

    /// `%name` of a value.
    /// MLIR's dynamic index list, `[4, %n, 2]` (in parentheses when
    /// `paren`): `statics` with the next of `values` where `i64::MIN`
    /// (MLIR's dynamic marker) stands.
    pub fn dynamic_index_list(&mut self, values: &[ValueId], statics: &[i64], paren: bool) {
        self.write(if paren { "(" } else { "[" });
        let mut dynamic = values.iter();
        for (k, s) in statics.iter().enumerate() {
            if k > 0 {
                self.write(", ");
            }
            if *s == i64::MIN {
                if let Some(&v) = dynamic.next() {
                    self.operand(v);
                }
            } else {
                self.write(&s.to_string());
            }
        }
        self.write(if paren { ")" } else { "]" });
    }

    pub fn operand(&mut self, v: ValueId) {
        if let Backend::Text(p) = &mut self.backend {
            p.names.value_into(&mut p.out, p.ir, v);
        }
    }

    /// ` loc(...)` of `l`, with `--mlir-print-debuginfo` (inline, as
    /// argument locations print).
    pub fn loc(&mut self, l: crate::Attr) {
        match &mut self.backend {
            Backend::Text(p) => {
                if p.flags.debug_info {
                    p.out.push_str(" loc(");
                    p.attrs.location_body(&mut p.out, l, true);
                    p.out.push(')');
                }
            }
            Backend::Visit {
                flags, v: visitor, ..
            } => {
                if flags.debug_info {
                    visitor.attr(l, false);
                }
            }
        }
    }

    /// ` loc(...)` of a region argument, with `--mlir-print-debuginfo`
    /// (always inline, as MLIR prints argument locations).
    pub fn arg_loc(&mut self, v: ValueId) {
        match &mut self.backend {
            Backend::Text(p) => {
                if p.flags.debug_info {
                    if let Some(l) = p.ir.value_loc(v) {
                        p.out.push_str(" loc(");
                        p.attrs.location_body(&mut p.out, l, true);
                        p.out.push(')');
                    }
                }
            }
            Backend::Visit {
                ir,
                flags,
                v: visitor,
                ..
            } => {
                if flags.debug_info {
                    if let Some(l) = ir.value_loc(v) {
                        visitor.attr(l, false);
                    }
                }
            }
        }
    }

    /// The name a value prints as (`%arg0`, `%3#1`); empty when only
    /// collecting.
    pub fn value_name(&self, v: ValueId) -> String {
        match &self.backend {
            Backend::Text(p) => {
                let mut s = String::new();
                p.names.value_into(&mut s, p.ir, v);
                s
            }
            Backend::Visit { .. } => String::new(),
        }
    }

    /// Values separated by `, `.
    pub fn operands(&mut self, vs: impl IntoIterator<Item = ValueId>) {
        for (i, v) in vs.into_iter().enumerate() {
            if i > 0 {
                self.write(", ");
            }
            self.operand(v);
        }
    }

    /// A type (or its alias).
    pub fn ty(&mut self, t: Type) {
        match &mut self.backend {
            Backend::Text(p) => p.attrs.print_type(&mut p.out, t),
            Backend::Visit { v, .. } => v.ty(t),
        }
    }

    /// Types separated by `, `.
    pub fn types(&mut self, ts: &[Type]) {
        for (i, &t) in ts.iter().enumerate() {
            if i > 0 {
                self.write(", ");
            }
            self.ty(t);
        }
    }

    /// Result types as MLIR writes them after `->`: one type bare
    /// (unless a function type), otherwise in parentheses.
    pub fn result_types(&mut self, ts: &[Type]) {
        let bare = ts.len() == 1
            && !matches!(
                self.ctx().type_kind(ts[0]),
                crate::types::TypeKind::Function { .. }
            );
        if !bare {
            self.write("(");
        }
        self.types(ts);
        if !bare {
            self.write(")");
        }
    }

    /// An attribute (or its alias).
    pub fn attr(&mut self, a: Attr) {
        match &mut self.backend {
            Backend::Text(p) => p.attrs.print_attr(&mut p.out, a, false),
            Backend::Visit { v, .. } => v.attr(a, false),
        }
    }

    /// An attribute without any type: `17` for `17 : i8`.
    pub fn attr_without_type(&mut self, a: Attr) {
        match &mut self.backend {
            Backend::Text(p) => p.attrs.print_attr_no_type(&mut p.out, a),
            Backend::Visit { v, .. } => v.attr(a, false),
        }
    }

    /// An attribute without its `: type` suffix (MLIR's
    /// `printAttributeWithoutType`).
    pub fn attr_elided_type(&mut self, a: Attr) {
        match &mut self.backend {
            Backend::Text(p) => p.attrs.print_attr_without_type(&mut p.out, a),
            Backend::Visit { v, .. } => v.attr(a, false),
        }
    }

    /// A dialect attribute without its `#dialect.` prefix (`latency<1>`).
    pub fn dialect_attr_stripped(&mut self, a: Attr) {
        match &mut self.backend {
            Backend::Text(p) => p.attrs.dialect_attr_body(&mut p.out, a),
            Backend::Visit { v, .. } => v.attr(a, false),
        }
    }

    /// What follows a dialect attribute's mnemonic (`<nsw>` of
    /// `#arith.overflow<nsw>`).
    pub fn dialect_attr_params(&mut self, a: Attr) {
        match &mut self.backend {
            Backend::Text(p) => p.attrs.dialect_attr_params(&mut p.out, a),
            Backend::Visit { v, .. } => v.attr(a, false),
        }
    }

    /// `(ins) -> outs` (outs parenthesised unless one non-function type).
    pub fn functional_type(&mut self, ins: &[Type], outs: &[Type]) {
        match &mut self.backend {
            Backend::Text(p) => p.attrs.print_function_type(&mut p.out, ins, outs),
            Backend::Visit { v, .. } => ins.iter().chain(outs).for_each(|t| v.ty(*t)),
        }
    }

    /// A line break, then the op's indentation plus `extra` spaces.
    pub fn newline(&mut self, extra: usize) {
        if let Backend::Text(p) = &mut self.backend {
            p.out.push('\n');
            for _ in 0..p.indent + extra {
                p.out.push(' ');
            }
        }
    }

    /// `^bbN` of a successor.
    pub fn successor(&mut self, b: crate::graph::BlockId) {
        if let Backend::Text(p) = &mut self.backend {
            p.names.block_into(&mut p.out, b);
        }
    }

    /// `^bbN` or `^bbN(%a, %b : t1, t2)`: a successor and the values
    /// passed to it (MLIR's `printSuccessorAndUseList`).
    pub fn successor_with_operands(&mut self, b: crate::graph::BlockId, values: &[ValueId]) {
        self.successor(b);
        if values.is_empty() {
            return;
        }
        self.write("(");
        self.operands(values.iter().copied());
        self.write(" : ");
        let tys: Vec<_> = values.iter().map(|v| self.ir().value_type(*v)).collect();
        self.types(&tys);
        self.write(")");
    }

    /// `@name`, quoted when it is not a bare identifier.
    pub fn symbol_name(&mut self, name: &str) {
        if let Backend::Text(p) = &mut self.backend {
            super::types_attrs::symbol_ref_into(&mut p.out, name);
        }
    }

    /// A string literal.
    pub fn string(&mut self, bytes: &[u8]) {
        if let Backend::Text(p) = &mut self.backend {
            super::types_attrs::quoted_into(&mut p.out, bytes);
        }
    }

    /// ` {a = 1, b}` (or ` attributes {...}` with `keyword`) of the
    /// entries, nothing when there are none.
    pub fn attr_entries(&mut self, entries: &[(Symbol, Attr)], keyword: bool) {
        if entries.is_empty() {
            return;
        }
        match &mut self.backend {
            Backend::Text(p) => {
                p.out.push_str(if keyword { " attributes {" } else { " {" });
                p.attrs.dict_entries(&mut p.out, entries);
                p.out.push('}');
            }
            Backend::Visit { v, .. } => {
                for &(_, a) in entries {
                    v.attr(a, false);
                }
            }
        }
    }

    /// The entries of `dict` not named in `elided`, as [`Self::attr_entries`].
    pub fn attr_dict(&mut self, dict: Attr, elided: &[&str], keyword: bool) {
        let ctx = self.ctx();
        let entries: Vec<(Symbol, Attr)> = ctx
            .dict_entries(dict)
            .iter()
            .filter(|(k, _)| !elided.contains(&ctx.str(*k)))
            .copied()
            .collect();
        self.attr_entries(&entries, keyword);
    }

    /// A region whose blocks' terminators are left out (MLIR's
    /// `printBlockTerminators = false`).
    pub fn region_without_terminators(&mut self, r: RegionId, entry_args: bool) {
        match &mut self.backend {
            Backend::Text(p) => p.region_ext(r, entry_args, false, false),
            Backend::Visit { ctx, ir, flags, v } => {
                visit_region_ext(ctx, ir, r, flags, *v, entry_args, false)
            }
        }
    }

    /// A region: `{`, its blocks, `}`. `entry_args` prints the entry
    /// block's header when it has arguments; `empty_block` prints an
    /// empty entry block's header.
    pub fn region(&mut self, r: RegionId, entry_args: bool, empty_block: bool) {
        match &mut self.backend {
            Backend::Text(p) => p.region(r, entry_args, empty_block),
            Backend::Visit { ctx, ir, flags, v } => visit_region(ctx, ir, r, flags, *v, entry_args),
        }
    }
}
