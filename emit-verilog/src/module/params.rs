//! Module parameters as SystemVerilog `parameter`s: the `#(...)` list of
//! a module header, the `#(.p(v))` overrides of an instance, and
//! `#hw.param.*` values (`hw.param.value`) as constant expressions over
//! the parameters.

use super::{err, literal, Expr, ModuleEmitter, Res, ADD, AND, MUL, OR, SHIFT, XOR};
use silica_hw_dialects::hw::parameters;
use silica_hw_dialects::hw::params::{value_type, view, Decl, Param};
use silica_hw_dialects::types::bit_width;
use silica_ir::{Attr, Context, OpId, TypeKind};

/// `[7:0] ` for an integer parameter's type, nothing for others.
fn param_range(ctx: &Context, decl: &Decl) -> String {
    match ctx.type_kind(decl.ty) {
        TypeKind::Integer { width, .. } => format!("[{}:0] ", width.max(&1) - 1),
        _ => String::new(),
    }
}

impl ModuleEmitter<'_> {
    /// Names the module's parameters (after its ports, in the module's
    /// namespace) and writes its `#(...)` header list.
    pub(super) fn parameter_list(&mut self) -> Res<String> {
        let decls = parameters(self.ctx, self.ir, self.module);
        if decls.is_empty() {
            return Ok(String::new());
        }
        let mut items = Vec::with_capacity(decls.len());
        for d in &decls {
            // Named right after the ports, as `crate::param_names` names
            // them for instances.
            let name = self.names.fresh(&d.name);
            // A parameter whose width is an earlier parameter's value.
            let parametric = match self.param_width(d.ty) {
                Some(w) => Some(self.param_expr(self.module, w)?.operand(ADD, "-")),
                None => None,
            };
            self.params.insert(d.name.clone(), name.clone());
            let range = match &parametric {
                Some(w) => format!("[{w} - 1:0] "),
                None => param_range(self.ctx, d),
            };
            let mut item = format!("parameter {range}{name} = ");
            match d.value {
                Some(v) => item.push_str(&self.param_expr(self.module, v)?.text),
                // Icarus wants a default; every instance gives a value.
                None => item.push_str(&match self.ctx.type_kind(d.ty) {
                    TypeKind::Integer { width, .. } => literal(u64::from(*width).max(1), &0.into()),
                    _ if parametric.is_some() => "'0".to_string(),
                    _ => "\"\"".to_string(),
                }),
            }
            items.push(item);
        }
        Ok(format!(" #(\n  {}\n) ", items.join(",\n  ")))
    }

    /// The `#(.p(value), ...)` overrides of instance `op` of `callee`.
    pub(super) fn parameter_overrides(&self, op: OpId, callee: OpId) -> Res<String> {
        let (ctx, ir) = (self.ctx, self.ir);
        let given = parameters(ctx, ir, op);
        if given.is_empty() {
            return Ok(String::new());
        }
        let callee_ports = silica_hw_dialects::hw::module_ports(ctx, ir, callee);
        let names = crate::param_names(
            self.flavor,
            &crate::port_names(self.flavor, &callee_ports),
            &given,
        );
        let mut items = Vec::with_capacity(given.len());
        for (g, name) in given.iter().zip(names) {
            let Some(v) = g.value else {
                return Err(err(
                    ir,
                    op,
                    format!("parameter \"{}\" has no value", g.name),
                ));
            };
            items.push(format!(".{name}({})", self.param_expr(op, v)?.text));
        }
        Ok(format!(" #(\n    {}\n  )", items.join(",\n    ")))
    }

    /// `text` cast to the width of `a`'s integer type (`8'(text)`).
    fn sized(&self, a: Attr, text: String) -> String {
        match value_type(self.ctx, a).map(|t| self.ctx.type_kind(t)) {
            Some(TypeKind::Integer { width, .. }) => format!("{width}'{text}"),
            _ => text,
        }
    }

    /// A parameter value as a constant expression; `at` is the op
    /// reported if it cannot be written.
    pub(super) fn param_expr(&self, at: OpId, a: Attr) -> Res<Expr> {
        let ctx = self.ctx;
        Ok(match view(ctx, a) {
            Param::Int(v, ty) => {
                let w = bit_width(ctx, ty).unwrap_or(32).max(1);
                Expr::primary(literal(w, v))
            }
            Param::Str(s) => {
                let mut text = String::from("\"");
                for &b in s {
                    match b {
                        b'"' | b'\\' => {
                            text.push('\\');
                            text.push(b as char);
                        }
                        0x20..=0x7e => text.push(b as char),
                        _ => text.push_str(&format!("\\{b:03o}")),
                    }
                }
                text.push('"');
                Expr::primary(text)
            }
            Param::Ref(name) => match self.params.get(&name) {
                Some(n) => Expr::primary(n.clone()),
                None => {
                    return Err(err(
                        self.ir,
                        at,
                        format!("use of unknown parameter \"{name}\""),
                    ))
                }
            },
            // Sized to the value's type: `$clog2` and verbatims are 32-bit
            // integers in SystemVerilog.
            Param::Verbatim(text) => Expr::primary(self.sized(a, format!("({text})"))),
            Param::Expr(op, ops) => {
                let args: Vec<Expr> = ops
                    .iter()
                    .map(|&o| self.param_expr(at, o))
                    .collect::<Res<_>>()?;
                let infix = |sym: &'static str, prec: u8| Expr {
                    text: args
                        .iter()
                        .map(|e| e.operand(prec, sym))
                        .collect::<Vec<_>>()
                        .join(&format!(" {sym} ")),
                    prec,
                    op: sym,
                };
                let signed = |sym: &'static str, prec: u8| Expr {
                    text: args
                        .iter()
                        .map(|e| format!("$signed({})", e.text))
                        .collect::<Vec<_>>()
                        .join(&format!(" {sym} ")),
                    prec,
                    op: "",
                };
                match op {
                    "add" => infix("+", ADD),
                    "mul" => infix("*", MUL),
                    "and" => infix("&", AND),
                    "or" => infix("|", OR),
                    "xor" => infix("^", XOR),
                    "shl" => infix("<<", SHIFT),
                    "shru" => infix(">>", SHIFT),
                    "divu" => infix("/", MUL),
                    "modu" => infix("%", MUL),
                    "shrs" => signed(">>>", SHIFT),
                    "divs" => signed("/", MUL),
                    "mods" => signed("%", MUL),
                    "clog2" => Expr::primary(self.sized(a, format!("($clog2({}))", args[0].text))),
                    _ => Expr::primary(format!(
                        "{{{}}}",
                        args.iter()
                            .map(|e| e.text.clone())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )),
                }
            }
            Param::Other => {
                let shown = silica_ir::printer::attr_to_string(ctx, a);
                return Err(err(
                    self.ir,
                    at,
                    format!("parameter value {shown} cannot be emitted as Verilog"),
                ));
            }
        })
    }
}
