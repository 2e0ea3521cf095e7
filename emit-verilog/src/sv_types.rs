//! The output's flavour and its SystemVerilog types.
//!
//! By default every value is a flat bit vector (`[W-1:0]`), which yosys
//! 0.23 reads. With `full_sv` (`--full-sv`), values of struct and array
//! type keep their types as CIRCT writes them: `struct packed {...}`,
//! packed dimensions (`[2:0][7:0]`), and type aliases as the names of
//! `typedef`s written where their `hw.type_scope` is. Packed types are
//! laid out as the flat vectors are (the first struct field and the last
//! array element most significant), so the two flavours mean the same.

use crate::names::Namespace;
use silica_hw_dialects::types::{bit_width, canonical, hw_type, HwType};
use silica_ir::dialect::inherent_attr;
use silica_ir::{Attr, AttrKind, Context, Ir, OpId, Type};
use std::collections::HashMap;
use std::fmt::Write;

/// How the whole output is written.
#[derive(Default)]
pub(crate) struct Flavor {
    /// Struct and array types kept (`--full-sv`).
    pub full_sv: bool,
    /// `typedef` names by alias reference (`@scope::@decl`), in
    /// `full_sv` only.
    typedefs: HashMap<(String, String), String>,
    /// Names every module's namespace starts with taken: the typedefs'.
    reserved: Namespace,
}

/// A type as declarations write it: a base (empty for bit vectors; a
/// struct or a typedef name) and its packed dimensions, each `[H:0] `.
pub(crate) struct SvType {
    pub base: String,
    pub dims: String,
}

impl SvType {
    /// Whether the type is written as more than a bit vector (so its
    /// values are read with member and element selects).
    pub fn is_aggregate(&self) -> bool {
        !self.base.is_empty() || self.dims.matches('[').count() > 1
    }
}

impl Flavor {
    /// The flavour for `top`: with `full_sv`, the typedef names of every
    /// `hw.typedecl` in its type scopes.
    pub fn new(ctx: &Context, ir: &Ir, top: OpId, full_sv: bool) -> Flavor {
        let mut flavor = Flavor {
            full_sv,
            ..Flavor::default()
        };
        if !full_sv {
            return flavor;
        }
        // Typedefs take names no module or port has, so that ports keep
        // their names; every module's namespace then starts with them.
        let mut typedef_names = Namespace::default();
        for op in top_level_ops(ir, top) {
            if matches!(ctx.str(ir.op_name(op)), "hw.module" | "hw.module.extern") {
                typedef_names.fresh(&silica_hw_dialects::hw::symbol_name(ctx, ir, op));
                for port in silica_hw_dialects::hw::module_ports(ctx, ir, op) {
                    typedef_names.fresh(&port.name);
                }
            }
        }
        for scope in top_level_ops(ir, top) {
            if ctx.str(ir.op_name(scope)) != "hw.type_scope" {
                continue;
            }
            let scope_name = silica_hw_dialects::hw::symbol_name(ctx, ir, scope);
            for decl in top_level_ops(ir, scope) {
                let sym = silica_hw_dialects::hw::symbol_name(ctx, ir, decl);
                let hint =
                    match inherent_attr(ctx, ir, decl, "verilogName").map(|a| ctx.attr_kind(a)) {
                        Some(AttrKind::String { value, .. }) => {
                            String::from_utf8_lossy(value).into_owned()
                        }
                        _ => sym.clone(),
                    };
                let name = typedef_names.fresh(&hint);
                flavor.reserved.fresh(&name);
                flavor.typedefs.insert((scope_name.clone(), sym), name);
            }
        }
        flavor
    }

    /// A namespace for one module: the typedef names taken.
    pub fn namespace(&self) -> Namespace {
        self.reserved.clone()
    }

    /// The `typedef`s of type scope `scope` (empty unless `full_sv`).
    pub fn typedefs(&self, ctx: &Context, ir: &Ir, scope: OpId) -> String {
        let mut out = String::new();
        if !self.full_sv {
            return out;
        }
        let scope_name = silica_hw_dialects::hw::symbol_name(ctx, ir, scope);
        for decl in top_level_ops(ir, scope) {
            let sym = silica_hw_dialects::hw::symbol_name(ctx, ir, decl);
            let (Some(name), Some(AttrKind::Type(t))) = (
                self.typedefs.get(&(scope_name.clone(), sym)),
                inherent_attr(ctx, ir, decl, "type").map(|a| ctx.attr_kind(a)),
            ) else {
                continue;
            };
            // Zero-width types have no SystemVerilog form.
            if bit_width(ctx, *t).unwrap_or(0) == 0 {
                continue;
            }
            let ty = self.sv_type(ctx, *t);
            let base = if ty.base.is_empty() {
                "logic"
            } else {
                &ty.base
            };
            let _ = writeln!(out, "typedef {base} {}{name};", ty.dims);
        }
        out
    }

    /// `t` as declarations write it; a bit vector of its width unless
    /// `full_sv`.
    pub fn sv_type(&self, ctx: &Context, t: Type) -> SvType {
        let flat = || SvType {
            base: String::new(),
            dims: range(bit_width(ctx, t).unwrap_or(0)),
        };
        if !self.full_sv {
            return flat();
        }
        match hw_type(ctx, t) {
            Some(HwType::Alias(reference, inner)) => match self.typedef_name(ctx, reference) {
                Some(name) => SvType {
                    base: name.clone(),
                    dims: String::new(),
                },
                None => self.sv_type(ctx, inner),
            },
            Some(HwType::Struct(fields)) => {
                let names = field_names(&fields);
                let mut base = String::from("struct packed {");
                for ((_, ft), fname) in fields.iter().zip(&names) {
                    if bit_width(ctx, *ft).unwrap_or(0) == 0 {
                        continue;
                    }
                    let f = self.sv_type(ctx, *ft);
                    let fbase = if f.base.is_empty() { "logic" } else { &f.base };
                    let _ = write!(base, "{fbase} {}{fname}; ", f.dims);
                }
                base.push('}');
                SvType {
                    base,
                    dims: String::new(),
                }
            }
            Some(HwType::Array(n, element)) => {
                let e = self.sv_type(ctx, element);
                // A one-bit element adds no dimension of its own.
                let inner = if e.dims.is_empty() { " " } else { &e.dims };
                let dims = format!("[{}:0]{inner}", n.saturating_sub(1));
                SvType { base: e.base, dims }
            }
            _ => flat(),
        }
    }

    fn typedef_name(&self, ctx: &Context, reference: Attr) -> Option<&String> {
        match ctx.attr_kind(reference) {
            AttrKind::SymbolRef { root, nested } if nested.len() == 1 => {
                let key = (ctx.str(*root).to_string(), ctx.str(nested[0]).to_string());
                self.typedefs.get(&key)
            }
            _ => None,
        }
    }

    /// Whether values of type `t` are declared with an aggregate type.
    pub fn is_aggregate(&self, ctx: &Context, t: Type) -> bool {
        self.full_sv && self.sv_type(ctx, canonical(ctx, t)).is_aggregate()
    }
}

/// The SystemVerilog names of a struct's fields, in field order (legal
/// and unique within the struct).
pub(crate) fn field_names(fields: &[(String, Type)]) -> Vec<String> {
    let mut ns = Namespace::default();
    fields.iter().map(|(n, _)| ns.fresh(n)).collect()
}

/// `[W-1:0] ` for a width above one, nothing for one bit.
pub(crate) fn range(w: u64) -> String {
    if w > 1 {
        format!("[{}:0] ", w - 1)
    } else {
        String::new()
    }
}

fn top_level_ops(ir: &Ir, op: OpId) -> Vec<OpId> {
    ir.regions(op)
        .next()
        .and_then(|r| ir.entry_block(r))
        .map(|b| ir.block_ops(b).collect())
        .unwrap_or_default()
}
