//! Printing of types, attributes and locations in MLIR's textual form,
//! substituting aliases where the alias table has one.

use super::aliases::AliasTable;
use crate::affine;
use crate::attrs::{AttrKind, Location};
use crate::context::{Attr, Context, Type};
use crate::float;
use crate::types::{Signedness, TypeKind, DYNAMIC};
use std::fmt::Write;

/// Prints types and attributes into a string buffer.
pub struct AttrPrinter<'a> {
    pub ctx: &'a Context,
    pub aliases: Option<&'a AliasTable>,
    /// Renumbering of distinct attribute ids in order of appearance.
    pub distinct: &'a std::cell::RefCell<rustc_hash::FxHashMap<u32, u32>>,
}

/// Whether `s` is a bare identifier (`[a-zA-Z_][a-zA-Z0-9_$.]*`).
pub fn is_bare_identifier(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && (b[0].is_ascii_alphabetic() || b[0] == b'_')
        && b[1..]
            .iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.'))
}

/// Appends `bytes` escaped as LLVM's `printEscapedString` does.
pub fn escape_into(out: &mut String, bytes: &[u8]) {
    for &c in bytes {
        if c == b'\\' {
            out.push_str("\\\\");
        } else if (0x20..0x7f).contains(&c) && c != b'"' {
            out.push(c as char);
        } else {
            let _ = write!(out, "\\{c:02X}");
        }
    }
}

/// Appends `"escaped"`.
pub fn quoted_into(out: &mut String, bytes: &[u8]) {
    out.push('"');
    escape_into(out, bytes);
    out.push('"');
}

/// Appends `s` bare if it is an identifier, else quoted.
pub fn keyword_or_string(out: &mut String, s: &str) {
    if is_bare_identifier(s) {
        out.push_str(s);
    } else {
        quoted_into(out, s.as_bytes());
    }
}

/// Appends a symbol reference `@name`.
pub fn symbol_ref_into(out: &mut String, s: &str) {
    out.push('@');
    keyword_or_string(out, s);
}

fn dims_into(out: &mut String, shape: &[i64], scalable: Option<&[bool]>) {
    for (i, &d) in shape.iter().enumerate() {
        let sc = scalable.is_some_and(|s| s[i]);
        if sc {
            out.push('[');
        }
        if d == DYNAMIC {
            out.push('?');
        } else {
            super::decimal::push_i64(out, d);
        }
        if sc {
            out.push(']');
        }
        out.push('x');
    }
}

/// Whether a dialect symbol body can be printed in the pretty `d.body` form.
fn is_pretty_dialect_body(s: &str) -> bool {
    let b = s.as_bytes();
    if b.is_empty() || !b[0].is_ascii_alphabetic() {
        return false;
    }
    let rest = s.trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '.' || c == '_');
    rest.is_empty() || (rest.starts_with('<') && rest.ends_with('>'))
}

fn dialect_symbol_into(out: &mut String, prefix: char, dialect: &str, data: &str) {
    out.push(prefix);
    out.push_str(dialect);
    if is_pretty_dialect_body(data) {
        out.push('.');
        out.push_str(data);
    } else {
        out.push('<');
        out.push_str(data);
        out.push('>');
    }
}

/// What a dialect's attribute printer is given to print parameters with.
pub struct ParamPrinter<'x> {
    inner: &'x AttrPrinter<'x>,
}

impl ParamPrinter<'_> {
    /// The context the attribute lives in.
    pub fn ctx(&self) -> &Context {
        self.inner.ctx
    }

    /// Appends an attribute as mlir-opt writes it.
    pub fn attr(&self, out: &mut String, a: Attr) {
        self.inner.print_attr(out, a, false);
    }

    /// Appends a type.
    pub fn ty(&self, out: &mut String, t: Type) {
        self.inner.print_type(out, t);
    }

    /// Appends a dialect attribute nested in another's parameters as
    /// MLIR writes a parameter of a known attribute class: its alias if it
    /// has one, or just its parameters (`<full = true>`).
    pub fn nested_dialect_attr(&self, out: &mut String, a: Attr) {
        if let Some(name) = self.inner.aliases.and_then(|t| t.attr_alias(a)) {
            out.push_str(name);
            return;
        }
        self.inner.dialect_attr_params(out, a);
    }

    /// Appends an attribute without its type, whatever it is (MLIR's
    /// `printAttributeWithoutType`): `17` for `17 : i8`.
    pub fn attr_without_type(&self, out: &mut String, a: Attr) {
        self.inner.print_attr_no_type(out, a);
    }

    /// Appends `<p0, p1>`, or nothing when there are no parameters (the
    /// generic syntax of parameters, as dynamic dialects write them).
    pub fn params(&self, out: &mut String, params: &[Attr]) {
        if params.is_empty() {
            return;
        }
        out.push('<');
        for (i, p) in params.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            self.attr(out, *p);
        }
        out.push('>');
    }
}

impl AttrPrinter<'_> {
    /// Appends a dialect attribute without its `#dialect.` prefix
    /// (`latency<1>`): its mnemonic, then its parameters.
    pub fn dialect_attr_body(&self, out: &mut String, a: Attr) {
        if let AttrKind::Dialect { name, .. } = self.ctx.attr_kind(a) {
            out.push_str(self.ctx.str(*name));
            let mut params = String::new();
            self.dialect_attr_params(&mut params, a);
            // Keyword parameters are set off by a space (`cmp_predicate slt`).
            if params.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
                out.push(' ');
            }
            out.push_str(&params);
        }
    }

    /// Appends a dialect type without its `!dialect.` prefix (`ptr<1>`),
    /// through its dialect's printer.
    pub fn dialect_type_body(&self, out: &mut String, t: Type) {
        let TypeKind::Dialect {
            dialect,
            name,
            params,
        } = self.ctx.type_kind(t)
        else {
            return;
        };
        let name = self.ctx.str(*name);
        let hooks = self
            .ctx
            .dialect(self.ctx.str(*dialect))
            .and_then(|d| d.types);
        let pp = ParamPrinter { inner: self };
        match hooks {
            Some(h) => (h.print)(&pp, out, name, params),
            None => {
                out.push_str(name);
                pp.params(out, params);
            }
        }
    }

    /// Appends `#dialect.mnemonic<...>` without any `: type`.
    fn dialect_attr_untyped(&self, out: &mut String, a: Attr) {
        if let AttrKind::Dialect { dialect, .. } = self.ctx.attr_kind(a) {
            let mut body = String::new();
            self.dialect_attr_body(&mut body, a);
            dialect_symbol_into(out, '#', self.ctx.str(*dialect), &body);
        }
    }

    /// The type a typed dialect attribute prints after itself (not
    /// `none`).
    fn dialect_attr_type(&self, a: Attr) -> Option<Type> {
        let AttrKind::Dialect {
            dialect,
            name,
            params,
        } = self.ctx.attr_kind(a)
        else {
            return None;
        };
        let type_of = self.ctx.dialect(self.ctx.str(*dialect))?.attrs?.type_of?;
        type_of(self.ctx, self.ctx.str(*name), params)
            .filter(|&t| !matches!(self.ctx.type_kind(t), TypeKind::None))
    }

    /// Appends what follows a dialect attribute's mnemonic (`<nsw>`),
    /// through its dialect's printer, or as `<p0, p1>` when the dialect
    /// has none.
    pub fn dialect_attr_params(&self, out: &mut String, a: Attr) {
        let AttrKind::Dialect {
            dialect,
            name,
            params,
        } = self.ctx.attr_kind(a)
        else {
            return;
        };
        let name = self.ctx.str(*name);
        let hooks = self
            .ctx
            .dialect(self.ctx.str(*dialect))
            .and_then(|d| d.attrs);
        let pp = ParamPrinter { inner: self };
        match hooks {
            Some(h) => (h.print)(&pp, out, name, params),
            None => pp.params(out, params),
        }
    }
}

impl AttrPrinter<'_> {
    /// Appends a type (its alias if it has one).
    pub fn print_type(&self, out: &mut String, t: Type) {
        if let Some(name) = self.aliases.and_then(|a| a.type_alias(t)) {
            out.push_str(name);
            return;
        }
        self.print_type_body(out, t);
    }

    /// Appends a type's own text, never its alias.
    pub fn print_type_body(&self, out: &mut String, t: Type) {
        match self.ctx.type_kind(t) {
            TypeKind::Integer { width, signedness } => {
                let p = match signedness {
                    Signedness::Signless => "i",
                    Signedness::Signed => "si",
                    Signedness::Unsigned => "ui",
                };
                out.push_str(p);
                super::decimal::push_u64(out, u64::from(*width));
            }
            TypeKind::Index => out.push_str("index"),
            TypeKind::Float(k) => out.push_str(k.name()),
            TypeKind::None => out.push_str("none"),
            TypeKind::Complex(e) => {
                out.push_str("complex<");
                self.print_type(out, *e);
                out.push('>');
            }
            TypeKind::Function { inputs, results } => {
                self.print_function_type(out, inputs, results);
            }
            TypeKind::Tuple(elems) => {
                out.push_str("tuple<");
                self.type_list(out, elems);
                out.push('>');
            }
            TypeKind::Vector {
                shape,
                scalable,
                element,
            } => {
                out.push_str("vector<");
                dims_into(out, shape, Some(scalable));
                self.print_type(out, *element);
                out.push('>');
            }
            TypeKind::RankedTensor {
                shape,
                element,
                encoding,
            } => {
                out.push_str("tensor<");
                dims_into(out, shape, None);
                self.print_type(out, *element);
                if let Some(e) = encoding {
                    out.push_str(", ");
                    self.print_attr(out, *e, false);
                }
                out.push('>');
            }
            TypeKind::UnrankedTensor { element } => {
                out.push_str("tensor<*x");
                self.print_type(out, *element);
                out.push('>');
            }
            TypeKind::MemRef {
                shape,
                element,
                layout,
                memory_space,
            } => {
                out.push_str("memref<");
                dims_into(out, shape, None);
                self.print_type(out, *element);
                if let Some(l) = layout {
                    out.push_str(", ");
                    self.print_attr(out, *l, true);
                }
                if let Some(m) = memory_space {
                    out.push_str(", ");
                    self.print_attr(out, *m, true);
                }
                out.push('>');
            }
            TypeKind::UnrankedMemRef {
                element,
                memory_space,
            } => {
                out.push_str("memref<*x");
                self.print_type(out, *element);
                if let Some(m) = memory_space {
                    out.push_str(", ");
                    self.print_attr(out, *m, true);
                }
                out.push('>');
            }
            TypeKind::Opaque { dialect, data } => {
                dialect_symbol_into(out, '!', self.ctx.str(*dialect), data);
            }
            TypeKind::Dialect { dialect, .. } => {
                out.push('!');
                out.push_str(self.ctx.str(*dialect));
                out.push('.');
                self.dialect_type_body(out, t);
            }
        }
    }

    /// Appends `a, b, c`.
    pub fn type_list(&self, out: &mut String, types: &[Type]) {
        for (i, t) in types.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            self.print_type(out, *t);
        }
    }

    /// Appends `(inputs) -> results`, parenthesising results unless there
    /// is exactly one non-function result.
    pub fn print_function_type(&self, out: &mut String, inputs: &[Type], results: &[Type]) {
        out.push('(');
        self.type_list(out, inputs);
        out.push_str(") -> ");
        let wrap = results.len() != 1
            || matches!(self.ctx.type_kind(results[0]), TypeKind::Function { .. });
        if wrap {
            out.push('(');
        }
        self.type_list(out, results);
        if wrap {
            out.push(')');
        }
    }

    /// Appends an attribute. With `elide_type`, integer and float
    /// attributes omit their `: type` suffix.
    pub fn print_attr(&self, out: &mut String, a: Attr, elide_type: bool) {
        if let Some(name) = self.aliases.and_then(|t| t.attr_alias(a)) {
            out.push_str(name);
            return;
        }
        self.print_attr_body(out, a, elide_type);
    }

    /// Appends an attribute without any `: type` suffix (MLIR's
    /// `printAttributeWithoutType`).
    pub fn print_attr_without_type(&self, out: &mut String, a: Attr) {
        match self.ctx.attr_kind(a) {
            AttrKind::DenseElements { ty, values } => {
                out.push_str("dense<");
                self.dense_body(out, *ty, values);
                out.push('>');
            }
            _ => self.print_attr(out, a, true),
        }
    }

    /// Appends an attribute without its type, whatever it is: `17` for
    /// `17 : i8`, a typed dialect attribute without its `: type`.
    pub fn print_attr_no_type(&self, out: &mut String, a: Attr) {
        match self.ctx.attr_kind(a) {
            AttrKind::Integer { ty, value } if !self.ctx.is_bool_type(*ty) => {
                super::decimal::push_bigint(out, value);
            }
            AttrKind::String { value, .. } => quoted_into(out, value),
            AttrKind::Dialect { .. } => self.dialect_attr_untyped(out, a),
            _ => self.print_attr_without_type(out, a),
        }
    }

    /// Appends an attribute's own text, never its alias.
    pub fn print_attr_body(&self, out: &mut String, a: Attr, elide_type: bool) {
        match self.ctx.attr_kind(a) {
            AttrKind::Unit => out.push_str("unit"),
            AttrKind::Integer { ty, value } => {
                if self.ctx.is_bool_type(*ty) {
                    out.push_str(if value.sign() == num_bigint::Sign::NoSign {
                        "false"
                    } else {
                        "true"
                    });
                    return;
                }
                super::decimal::push_bigint(out, value);
                if !elide_type || !self.is_i64(*ty) {
                    out.push_str(" : ");
                    self.print_type(out, *ty);
                }
            }
            AttrKind::Float { ty, bits } => {
                let k = self.ctx.float_kind(*ty).unwrap_or(float::FloatKind::F64);
                let text = float::format_mlir(k, *bits);
                let hex = text.starts_with("0x");
                out.push_str(&text);
                if !elide_type || k != float::FloatKind::F64 || hex {
                    out.push_str(" : ");
                    self.print_type(out, *ty);
                }
            }
            AttrKind::String { value, ty } => {
                quoted_into(out, value);
                if let Some(t) = ty {
                    if !matches!(self.ctx.type_kind(*t), TypeKind::None) {
                        out.push_str(" : ");
                        self.print_type(out, *t);
                    }
                }
            }
            AttrKind::Type(t) => self.print_type(out, *t),
            AttrKind::Array(elems) => {
                out.push('[');
                for (i, e) in elems.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.print_attr(out, *e, true);
                }
                out.push(']');
            }
            AttrKind::Dictionary(entries) => {
                out.push('{');
                self.dict_entries(out, entries);
                out.push('}');
            }
            AttrKind::SymbolRef { root, nested } => {
                symbol_ref_into(out, self.ctx.str(*root));
                for n in nested.iter() {
                    out.push_str("::");
                    symbol_ref_into(out, self.ctx.str(*n));
                }
            }
            AttrKind::AffineMap(m) => {
                out.push_str("affine_map<");
                affine::print_map(out, m);
                out.push('>');
            }
            AttrKind::IntegerSet(s) => {
                out.push_str("affine_set<");
                affine::print_set(out, s);
                out.push('>');
            }
            AttrKind::DenseArray { element, values } => {
                out.push_str("array<");
                self.print_type(out, *element);
                if !values.is_empty() {
                    out.push_str(": ");
                    for (i, v) in values.iter().enumerate() {
                        if i > 0 {
                            out.push_str(", ");
                        }
                        self.scalar(out, *v);
                    }
                }
                out.push('>');
            }
            AttrKind::DenseElements { ty, values } => {
                out.push_str("dense<");
                self.dense_body(out, *ty, values);
                out.push_str("> : ");
                self.print_type(out, *ty);
            }
            AttrKind::DenseStrings { ty, values } => {
                out.push_str("dense<");
                let shape = self.ctx.shaped(*ty).and_then(|s| s.0).unwrap_or(&[]);
                if values.len() == 1 {
                    quoted_into(out, &values[0]);
                } else {
                    nested_elements(out, shape, values.len(), |o, i| quoted_into(o, &values[i]));
                }
                out.push_str("> : ");
                self.print_type(out, *ty);
            }
            AttrKind::DenseResource { ty, handle } => {
                out.push_str("dense_resource<");
                out.push_str(self.ctx.str(*handle));
                out.push_str("> : ");
                self.print_type(out, *ty);
            }
            AttrKind::Sparse {
                ty,
                indices,
                values,
            } => {
                let empty = matches!(
                    self.ctx.attr_kind(*indices),
                    AttrKind::DenseElements { values, .. } if values.is_empty()
                );
                if empty {
                    out.push_str("sparse<> : ");
                } else {
                    out.push_str("sparse<");
                    self.dense_literal_of(out, *indices);
                    out.push_str(", ");
                    self.dense_literal_of(out, *values);
                    out.push_str("> : ");
                }
                self.print_type(out, *ty);
            }
            AttrKind::StridedLayout { offset, strides } => {
                out.push_str("strided<[");
                for (i, s) in strides.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    dyn_or(out, *s);
                }
                out.push(']');
                if *offset != 0 {
                    out.push_str(", offset: ");
                    dyn_or(out, *offset);
                }
                out.push('>');
            }
            AttrKind::Opaque { dialect, data, ty } => {
                dialect_symbol_into(out, '#', self.ctx.str(*dialect), data);
                if let Some(t) = ty {
                    out.push_str(" : ");
                    self.print_type(out, *t);
                }
            }
            AttrKind::Dialect { .. } => {
                self.dialect_attr_untyped(out, a);
                if let Some(t) = self.dialect_attr_type(a) {
                    out.push_str(" : ");
                    self.print_type(out, t);
                }
            }
            AttrKind::Distinct { id, referenced } => {
                let n = {
                    let mut m = self.distinct.borrow_mut();
                    let next = m.len() as u32;
                    *m.entry(*id).or_insert(next)
                };
                let _ = write!(out, "distinct[{n}]<");
                if !matches!(self.ctx.attr_kind(*referenced), AttrKind::Unit) {
                    self.print_attr(out, *referenced, false);
                }
                out.push('>');
            }
            AttrKind::Location(_) => {
                out.push_str("loc(");
                self.location_body(out, a, true);
                out.push(')');
            }
        }
    }

    fn is_i64(&self, t: Type) -> bool {
        matches!(
            self.ctx.type_kind(t),
            TypeKind::Integer {
                width: 64,
                signedness: Signedness::Signless
            }
        )
    }

    /// Appends `a = 1 : i64, b` (sorted entries).
    pub fn dict_entries(&self, out: &mut String, entries: &[(crate::context::Symbol, Attr)]) {
        for (i, (k, v)) in entries.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            keyword_or_string(out, self.ctx.str(*k));
            if !matches!(self.ctx.attr_kind(*v), AttrKind::Unit) {
                out.push_str(" = ");
                self.print_attr(out, *v, false);
            }
        }
    }

    /// An element of a dense attribute, without its type.
    fn scalar(&self, out: &mut String, a: Attr) {
        match self.ctx.attr_kind(a) {
            AttrKind::Integer { ty, value } => {
                if self.ctx.is_bool_type(*ty) {
                    out.push_str(if value.sign() == num_bigint::Sign::NoSign {
                        "false"
                    } else {
                        "true"
                    });
                } else {
                    let _ = write!(out, "{value}");
                }
            }
            AttrKind::Float { ty, bits } => {
                let k = self.ctx.float_kind(*ty).unwrap_or(float::FloatKind::F64);
                out.push_str(&float::format_mlir(k, *bits));
            }
            AttrKind::Array(parts) if parts.len() == 2 => {
                out.push('(');
                self.scalar(out, parts[0]);
                out.push(',');
                self.scalar(out, parts[1]);
                out.push(')');
            }
            _ => self.print_attr(out, a, true),
        }
    }

    fn dense_literal_of(&self, out: &mut String, a: Attr) {
        match self.ctx.attr_kind(a) {
            AttrKind::DenseElements { ty, values } => self.dense_body(out, *ty, values),
            _ => self.print_attr(out, a, false),
        }
    }

    fn dense_body(&self, out: &mut String, ty: Type, values: &[Attr]) {
        let shape = self.ctx.shaped(ty).and_then(|s| s.0).unwrap_or(&[]);
        let numel: i64 = shape.iter().product();
        if values.len() == 1 {
            self.scalar(out, values[0]);
            return;
        }
        if numel > 100 {
            self.hex_body(out, values);
            return;
        }
        nested_elements(out, shape, values.len(), |o, i| self.scalar(o, values[i]));
    }

    fn hex_body(&self, out: &mut String, values: &[Attr]) {
        out.push_str("\"0x");
        let push_bits = |out: &mut String, bits: u128, width: u32| {
            let nbytes = width.div_ceil(8).max(1);
            for i in 0..nbytes {
                let _ = write!(out, "{:02X}", (bits >> (8 * i)) as u8);
            }
        };
        for &v in values {
            let parts: Vec<Attr> = match self.ctx.attr_kind(v) {
                AttrKind::Array(p) => p.to_vec(),
                _ => vec![v],
            };
            for p in parts {
                match self.ctx.attr_kind(p) {
                    AttrKind::Integer { ty, value } => {
                        let w = self.ctx.int_width(*ty).unwrap_or(64);
                        let (_, digits) = value.to_u64_digits();
                        let mut bits: u128 = 0;
                        for (i, d) in digits.iter().enumerate().take(2) {
                            bits |= u128::from(*d) << (64 * i);
                        }
                        if value.sign() == num_bigint::Sign::Minus {
                            bits = bits.wrapping_neg();
                        }
                        if w > 128 {
                            let bytes = value.to_signed_bytes_le();
                            let fill = if value.sign() == num_bigint::Sign::Minus {
                                0xFF
                            } else {
                                0
                            };
                            for i in 0..w.div_ceil(8) as usize {
                                let _ =
                                    write!(out, "{:02X}", bytes.get(i).copied().unwrap_or(fill));
                            }
                        } else {
                            push_bits(out, bits, w);
                        }
                    }
                    AttrKind::Float { ty, bits } => {
                        let w = self.ctx.float_kind(*ty).map_or(64, |k| k.bit_width());
                        push_bits(out, *bits, w);
                    }
                    _ => {}
                }
            }
        }
        out.push('"');
    }

    /// Appends a location's body (what is inside `loc(...)`); children use
    /// aliases, the location itself does not when `top_level`.
    pub fn location_body(&self, out: &mut String, loc: Attr, top_level: bool) {
        if !top_level {
            if let Some(name) = self.aliases.and_then(|t| t.attr_alias(loc)) {
                out.push_str(name);
                return;
            }
        }
        let AttrKind::Location(l) = self.ctx.attr_kind(loc) else {
            self.print_attr(out, loc, false);
            return;
        };
        match l {
            Location::Unknown => out.push_str("unknown"),
            Location::File {
                file,
                line,
                col,
                end,
            } => {
                quoted_into(out, self.ctx.str(*file).as_bytes());
                let _ = write!(out, ":{line}:{col}");
                match end {
                    Some(e) if *e == (*line, *col) => {}
                    Some((el, ec)) if *el == *line => {
                        let _ = write!(out, " to :{ec}");
                    }
                    Some((el, ec)) => {
                        let _ = write!(out, " to {el}:{ec}");
                    }
                    None => {}
                }
            }
            Location::Name { name, child } => {
                quoted_into(out, self.ctx.str(*name).as_bytes());
                if let Some(c) = child {
                    if !matches!(
                        self.ctx.attr_kind(*c),
                        AttrKind::Location(Location::Unknown)
                    ) {
                        out.push('(');
                        self.location_body(out, *c, false);
                        out.push(')');
                    }
                }
            }
            Location::CallSite { callee, caller } => {
                out.push_str("callsite(");
                self.location_body(out, *callee, false);
                out.push_str(" at ");
                self.location_body(out, *caller, false);
                out.push(')');
            }
            Location::Fused { locs, metadata } => {
                out.push_str("fused");
                if let Some(m) = metadata {
                    out.push('<');
                    self.print_attr(out, *m, false);
                    out.push('>');
                }
                out.push('[');
                for (i, l) in locs.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.location_body(out, *l, false);
                }
                out.push(']');
            }
        }
    }
}

fn dyn_or(out: &mut String, v: i64) {
    if v == DYNAMIC {
        out.push('?');
    } else {
        let _ = write!(out, "{v}");
    }
}

/// Prints `count` elements nested in brackets following `shape`, as MLIR's
/// mixed-radix counter does.
fn nested_elements(
    out: &mut String,
    shape: &[i64],
    count: usize,
    mut elem: impl FnMut(&mut String, usize),
) {
    if count == 0 {
        return;
    }
    let rank = shape.len();
    if rank == 0 {
        elem(out, 0);
        return;
    }
    let mut counter = vec![0i64; rank];
    let mut open = 0usize;
    for idx in 0..count {
        if idx != 0 {
            out.push_str(", ");
        }
        while open < rank {
            out.push('[');
            open += 1;
        }
        elem(out, idx);
        counter[rank - 1] += 1;
        for i in (1..rank).rev() {
            if counter[i] >= shape[i] {
                counter[i] = 0;
                counter[i - 1] += 1;
                open -= 1;
                out.push(']');
            }
        }
    }
    for _ in 0..open {
        out.push(']');
    }
}
