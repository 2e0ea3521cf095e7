//! Parsing of builtin attributes, locations, affine maps and sets, and
//! dense element literals.

use super::{AffineSsa, AsmParser, PResult, Parser};
use crate::affine::{AffineExpr, AffineMap, BinOp, IntegerSet};
use crate::attrs::{AttrKind, Location};
use crate::context::{Attr, Symbol, Type};
use crate::diag::Diagnostic;
use crate::dynamic::ParamsKind;
use crate::float::{self, FloatKind};
use crate::lexer::{unescape, Tok};
use crate::types::{Signedness, TypeKind, DYNAMIC};
use num_bigint::{BigInt, BigUint, Sign};
use num_traits::{Num, One, Zero};

/// One element of a `dense<...>` literal before its type is known.
enum Lit {
    List(Vec<Lit>, usize),
    Number {
        negative: bool,
        text: String,
        is_float: bool,
        pos: usize,
    },
    Bool(bool, usize),
    Str(Vec<u8>, usize),
    Complex(Box<Lit>, Box<Lit>, usize),
}

impl Lit {
    fn pos(&self) -> usize {
        match self {
            Lit::List(_, p)
            | Lit::Number { pos: p, .. }
            | Lit::Bool(_, p)
            | Lit::Str(_, p)
            | Lit::Complex(_, _, p) => *p,
        }
    }
}

impl<'a> Parser<'a> {
    /// Parses an attribute. `ty` is a type known from context (it replaces
    /// the default type of literals and disables the `: type` suffix).
    pub(crate) fn parse_attribute(&mut self, ty: Option<Type>) -> PResult<Attr> {
        self.enter()?;
        let a = self.parse_attribute_inner(ty);
        self.leave();
        a
    }

    fn parse_attribute_inner(&mut self, ty: Option<Type>) -> PResult<Attr> {
        let pos = self.tok().start;
        match self.kind() {
            Tok::LSquare => {
                self.bump();
                let mut elems = Vec::new();
                self.comma_list(Tok::RSquare, "',' or ']'", |p| {
                    elems.push(p.parse_attribute(None)?);
                    Ok(())
                })?;
                Ok(self.ctx.array_attr(&elems))
            }
            Tok::LBrace => self.parse_attr_dict(),
            Tok::AtId => self.parse_symbol_ref(),
            Tok::String => {
                let value = self.parse_string_bytes()?;
                let ty = self.parse_optional_colon_type(ty)?;
                Ok(self.ctx.typed_string_attr(&value, ty))
            }
            Tok::Minus | Tok::Integer | Tok::Float => self.parse_number_attr(ty),
            Tok::HashId => self.parse_extended_attr(ty),
            Tok::BareId => self.parse_keyword_attr(pos, ty),
            Tok::LParen | Tok::BangId => {
                let t = self.parse_type()?;
                Ok(self.ctx.intern_attr(AttrKind::Type(t)))
            }
            _ => self.wrong_token("expected attribute value"),
        }
    }

    fn parse_optional_colon_type(&mut self, known: Option<Type>) -> PResult<Option<Type>> {
        if known.is_some() {
            return Ok(known);
        }
        if self.eat(Tok::Colon) {
            return Ok(Some(self.parse_type()?));
        }
        Ok(None)
    }

    /// Parses a string literal token into bytes.
    pub(crate) fn parse_string_bytes(&mut self) -> PResult<Vec<u8>> {
        if !self.is(Tok::String) {
            return self.err("expected string");
        }
        let start = self.tok().start;
        match unescape(self.token_bytes()) {
            Ok(v) => {
                self.bump();
                Ok(v)
            }
            Err(off) => self.err_at(start + off, "unknown escape in string literal"),
        }
    }

    /// Parses `{name = attr, name, ...}` into a dictionary attribute.
    pub(crate) fn parse_attr_dict(&mut self) -> PResult<Attr> {
        self.expect(Tok::LBrace, "'{'")?;
        let base = self.entry_stack.len();
        let r = self.parse_attr_dict_entries(base);
        self.entry_stack.truncate(base);
        r
    }

    /// Parses dictionary entries up to `}` onto `entry_stack` above `base`.
    fn parse_attr_dict_entries(&mut self, base: usize) -> PResult<Attr> {
        self.comma_list(Tok::RBrace, "'}' in attribute dictionary", |p| {
            let pos = p.tok().start;
            let name: std::borrow::Cow<'_, str> = match p.kind() {
                Tok::BareId => {
                    let s = p.text();
                    p.bump();
                    s.into()
                }
                Tok::String => {
                    let b = p.parse_string_bytes()?;
                    if b.is_empty() {
                        return p.err_at(pos, "expected valid attribute name");
                    }
                    String::from_utf8_lossy(&b).into_owned().into()
                }
                _ => return p.err("expected attribute name"),
            };
            let sym = p.ctx.sym(&name);
            if p.entry_stack[base..].iter().any(|e| e.0 == sym) {
                return p.err_at(
                    pos,
                    format!("duplicate key '{name}' in dictionary attribute"),
                );
            }
            let value = if p.eat(Tok::Equal) {
                p.parse_attribute(None)?
            } else {
                p.ctx.unit_attr()
            };
            p.entry_stack.push((sym, value));
            Ok(())
        })?;
        let ctx = &mut *self.ctx;
        let entries = &mut self.entry_stack[base..];
        entries.sort_by(|a, b| ctx.str(a.0).cmp(ctx.str(b.0)));
        Ok(ctx.sorted_dict_attr(entries))
    }

    fn parse_symbol_ref(&mut self) -> PResult<Attr> {
        let root = self.parse_symbol_name()?;
        let mut nested = Vec::new();
        // `::` lexes as two colons. As in MLIR, a lone `:` is given back
        // unless the input ends after it.
        while self.is(Tok::Colon) {
            let s = self.tok().start;
            self.bump();
            if !self.eat(Tok::Colon) {
                if !matches!(self.kind(), Tok::Eof | Tok::Error) {
                    self.reset_to(s);
                }
                break;
            }
            if !self.is(Tok::AtId) {
                return self.err("expected nested symbol reference identifier");
            }
            nested.push(self.parse_symbol_name()?);
        }
        Ok(self.ctx.intern_attr(AttrKind::SymbolRef {
            root,
            nested: nested.into(),
        }))
    }

    /// Parses `@name` or `@"name"` into the interned name.
    pub(crate) fn parse_symbol_name(&mut self) -> PResult<Symbol> {
        if !self.is(Tok::AtId) {
            return self.err("expected symbol reference");
        }
        let bytes = self.token_bytes();
        let name = if bytes.get(1) == Some(&b'"') {
            let start = self.tok().start;
            match unescape(&bytes[1..]) {
                Ok(b) => String::from_utf8_lossy(&b).into_owned(),
                Err(off) => {
                    return self.err_at(start + 1 + off, "unknown escape in string literal")
                }
            }
        } else {
            String::from_utf8_lossy(&bytes[1..]).into_owned()
        };
        self.bump();
        Ok(self.ctx.sym(&name))
    }

    fn parse_keyword_attr(&mut self, pos: usize, ty: Option<Type>) -> PResult<Attr> {
        match self.text() {
            "unit" => {
                self.bump();
                Ok(self.ctx.unit_attr())
            }
            "true" | "false" => {
                let v = self.text() == "true";
                self.bump();
                let i1 = self.ctx.signless(1);
                Ok(self.ctx.int_attr(i1, if v { -1 } else { 0 }))
            }
            "affine_map" => {
                self.bump();
                self.expect(Tok::Less, "'<'")?;
                let m = self.parse_affine_map_or_set(false)?;
                self.expect(Tok::Greater, "'>'")?;
                Ok(m)
            }
            "affine_set" => {
                self.bump();
                self.expect(Tok::Less, "'<'")?;
                let s = self.parse_affine_map_or_set(true)?;
                self.expect(Tok::Greater, "'>'")?;
                Ok(s)
            }
            "array" => {
                self.bump();
                self.parse_dense_array()
            }
            "dense" => {
                self.bump();
                self.parse_dense_elements(pos, ty)
            }
            "dense_resource" => {
                self.bump();
                self.expect(Tok::Less, "'<' after 'dense_resource'")?;
                if !matches!(self.kind(), Tok::BareId | Tok::String) {
                    return self.err("expected identifier");
                }
                let name = self.text().trim_matches('"').to_string();
                self.bump();
                self.expect(Tok::Greater, "'>'")?;
                let tpos = self.tok().start;
                let ty = match self.parse_optional_colon_type(ty)? {
                    Some(t) => t,
                    None => return self.wrong_token("expected ':'"),
                };
                if !matches!(
                    self.ctx.type_kind(ty),
                    TypeKind::RankedTensor { .. }
                        | TypeKind::UnrankedTensor { .. }
                        | TypeKind::Vector { .. }
                        | TypeKind::MemRef { .. }
                        | TypeKind::UnrankedMemRef { .. }
                ) {
                    return self.err_at(tpos, "`dense_resource` expected a shaped type");
                }
                let handle = self.ctx.sym(&name);
                self.resources.referenced.push(handle);
                Ok(self.ctx.intern_attr(AttrKind::DenseResource { ty, handle }))
            }
            "sparse" => {
                self.bump();
                self.parse_sparse(pos, ty)
            }
            "strided" => {
                self.bump();
                self.parse_strided()
            }
            "distinct" => {
                self.bump();
                self.parse_distinct(pos)
            }
            "loc" => {
                self.bump();
                self.expect(Tok::LParen, "'(' in location")?;
                let l = if self.is(Tok::HashId) {
                    // MLIR reports an unknown alias just after its name.
                    let p = self.tok().end;
                    let name = self.text()[1..].to_string();
                    self.bump();
                    match self.attr_aliases.get(name.as_str()) {
                        Some(&a) => a,
                        None => {
                            return self.err_at(p, format!("undefined symbol alias id '{name}'"))
                        }
                    }
                } else {
                    self.parse_location_body()?
                };
                self.expect(Tok::RParen, "')' in location")?;
                Ok(l)
            }
            _ => match self.parse_optional_builtin_type()? {
                Some(t) => Ok(self.ctx.intern_attr(AttrKind::Type(t))),
                None => self.err_at(pos, "expected attribute value"),
            },
        }
    }

    fn parse_extended_attr(&mut self, ty: Option<Type>) -> PResult<Attr> {
        let pos = self.tok().start;
        let ident = self.text()[1..].to_string();
        let end = self.tok().end;
        let src = self.src();
        let has_body = src.get(end) == Some(&b'<');
        if !ident.contains('.') && !has_body {
            self.bump();
            return match self.attr_aliases.get(ident.as_str()) {
                Some(&a) => Ok(a),
                None => self.err_at(end, format!("undefined symbol alias id '{ident}'")),
            };
        }
        let (dialect, rest) = match ident.split_once('.') {
            Some((d, r)) => (d.to_string(), r.to_string()),
            None => (ident.clone(), String::new()),
        };
        if dialect.is_empty() {
            return self.err_at(pos + 2, "invalid dialect namespace '\"\"'");
        }
        if self.ctx.dialect(&dialect).is_some() {
            return self.parse_registered_dialect_attr(pos, end, &dialect, rest.is_empty(), ty);
        }
        let body_end = self.attr_body_end(end)?;
        let mut data = rest.clone();
        let Ok(body) = std::str::from_utf8(&src[end..body_end]) else {
            return self.err_at(pos, "invalid UTF-8 in dialect attribute");
        };
        data.push_str(body);
        if !has_body && data.is_empty() {
            return self.err_at(pos, "expected dialect attribute");
        }
        // `#dialect<body>` keeps only what is inside the brackets.
        if rest.is_empty() {
            data = data[1..data.len() - 1].to_string();
        }
        self.reset_to(body_end);
        let ty = self.parse_optional_colon_type(None)?;
        if !self.ctx.allow_unregistered && self.ctx.dialect(&dialect).is_none() {
            // Reported where the body starts (`#d.body`) or at `#` (`#d<body>`).
            let at = if rest.is_empty() {
                pos
            } else {
                pos + 2 + dialect.len()
            };
            let ty_text = match ty {
                Some(t) => crate::printer::type_to_string(self.ctx, t),
                None => "none".to_string(),
            };
            return self.err_at(
                at,
                format!("#\"{dialect}\"<\"{data}\"> : '{ty_text}' attribute created with unregistered dialect. If this is intended, please call allowUnregisteredDialects() on the MLIRContext, or use -allow-unregistered-dialect with the MLIR opt tool used"),
            );
        }
        let d = self.ctx.sym(&dialect);
        Ok(self.ctx.intern_attr(AttrKind::Opaque {
            dialect: d,
            data: data.into(),
            ty,
        }))
    }

    /// `#dialect.mnemonic...` or `#dialect<mnemonic...>` of a registered
    /// dialect (the token at `pos`), through the dialect's parser.
    fn parse_registered_dialect_attr(
        &mut self,
        pos: usize,
        end: usize,
        dialect: &str,
        bracketed: bool,
        ty: Option<Type>,
    ) -> PResult<Attr> {
        let typed = self
            .ctx
            .dialect(dialect)
            .and_then(|d| d.attrs)
            .is_some_and(|h| h.type_of.is_some());
        // A typed attribute's `: type` follows its body but is known to
        // its parser (as MLIR does): find it first.
        let mut after_type = None;
        if typed {
            let body_end = self.attr_body_end(end)?;
            self.reset_to(body_end);
            let written = self.parse_optional_colon_type(None)?;
            if written.is_some() {
                after_type = Some(self.tok().start);
            }
            self.attr_type = written.or(ty);
        }
        // Re-lex from the mnemonic: after `#dialect.` or `#dialect<`.
        self.reset_to(pos + 1 + dialect.len() + 1);
        let a = self.parse_dialect_attr_from_mnemonic(pos, dialect);
        self.attr_type = None;
        let a = a?;
        if bracketed {
            self.expect(Tok::Greater, "'>'")?;
        }
        if let Some(at) = after_type {
            self.reset_to(at);
        }
        Ok(a)
    }

    /// Where the text of an extended attribute whose `#` token ends at
    /// `end` ends: after its `<...>` body, or at `end`.
    fn attr_body_end(&mut self, end: usize) -> PResult<usize> {
        if self.src().get(end) == Some(&b'<') {
            self.balanced_body_end(end)
        } else {
            Ok(end)
        }
    }

    /// A dialect attribute from its mnemonic on (`latency<1>`).
    pub(crate) fn parse_dialect_attr_from_mnemonic(
        &mut self,
        pos: usize,
        dialect: &str,
    ) -> PResult<Attr> {
        if !self.is(Tok::BareId) {
            return self.wrong_token("expected dialect attribute mnemonic");
        }
        let mnemonic = self.text();
        self.bump();
        self.parse_dialect_attr_params(pos, dialect, mnemonic)
    }

    /// The parameters of the `dialect` attribute `mnemonic`, through the
    /// dialect's parser or as `<attr, ...>` (dialects without their own
    /// syntax).
    pub(crate) fn parse_dialect_attr_params(
        &mut self,
        pos: usize,
        dialect: &str,
        mnemonic: &str,
    ) -> PResult<Attr> {
        if let Some(h) = self.ctx.dialect(dialect).and_then(|d| d.attrs) {
            return (h.parse)(&mut AsmParser::new(self, pos, false), mnemonic);
        }
        // The mnemonic was the last token.
        let at = self.prev_end().saturating_sub(mnemonic.len());
        if self.ctx.is_dynamic_dialect(dialect)
            && !self
                .ctx
                .has_dynamic_def(ParamsKind::Attr, dialect, mnemonic)
        {
            return self.err_at(at, "expected dynamic attribute");
        }
        let params = self.parse_dynamic_params()?;
        if let Some(Err(msg)) =
            self.ctx
                .check_dynamic_params(ParamsKind::Attr, dialect, mnemonic, &params)
        {
            return self.err_at(at, msg);
        }
        let name = self.ctx.sym(mnemonic);
        let dialect = self.ctx.sym(dialect);
        Ok(self.ctx.intern_attr(AttrKind::Dialect {
            dialect,
            name,
            params: params.into(),
        }))
    }

    // ----- numbers ---------------------------------------------------------

    fn parse_number_attr(&mut self, known: Option<Type>) -> PResult<Attr> {
        let pos = self.tok().start;
        let negative = self.eat(Tok::Minus);
        if !matches!(self.kind(), Tok::Integer | Tok::Float) {
            return self.err("expected constant integer or floating point value");
        }
        let is_float = self.is(Tok::Float);
        let text = self.text().to_string();
        self.bump();
        let ty = match self.parse_optional_colon_type(known)? {
            Some(t) => t,
            None if is_float => self.ctx.float_type(FloatKind::F64),
            None => self.ctx.signless(64),
        };
        let lit = Lit::Number {
            negative,
            text,
            is_float,
            pos,
        };
        self.scalar_attr(&lit, ty)
    }

    /// Builds an integer or float attribute of type `ty` from a literal.
    fn scalar_attr(&mut self, lit: &Lit, ty: Type) -> PResult<Attr> {
        let kind = self.ctx.type_kind(ty).clone();
        match (lit, kind) {
            (Lit::Bool(b, pos), TypeKind::Integer { width: 1, .. }) => {
                let _ = pos;
                Ok(self.ctx.int_attr(ty, if *b { -1 } else { 0 }))
            }
            (Lit::Bool(_, pos), _) => {
                self.err_at(*pos, "expected i1 type for 'true' or 'false' values")
            }
            (
                Lit::Number {
                    negative,
                    text,
                    is_float,
                    pos,
                },
                TypeKind::Float(fk),
            ) => {
                let bits = if *is_float {
                    let mut s = String::new();
                    if *negative {
                        s.push('-');
                    }
                    s.push_str(text);
                    match float::parse_literal(fk, &s) {
                        Some(b) => b,
                        None => return self.err_at(*pos, "invalid floating point value"),
                    }
                } else if let Some(hex) = text.strip_prefix("0x") {
                    if *negative {
                        return self.err_at(
                            *pos,
                            "hexadecimal float literal should not have a leading minus",
                        );
                    }
                    let v = BigUint::from_str_radix(hex, 16).unwrap_or_default();
                    if v.bits() > u64::from(fk.bit_width()) {
                        return self
                            .err_at(*pos, "hexadecimal float constant out of range for type");
                    }
                    let mut b = 0u128;
                    for (i, d) in v.to_u64_digits().iter().enumerate().take(2) {
                        b |= u128::from(*d) << (64 * i);
                    }
                    b
                } else {
                    let loc = self.loc_at(*pos);
                    return Err(Box::new(
                        crate::diag::Diagnostic::error(
                            loc,
                            "unexpected decimal integer literal for a floating point value",
                        )
                        .with_note(loc, "add a trailing dot to make the literal a float"),
                    ));
                };
                Ok(self.ctx.intern_attr(AttrKind::Float { ty, bits }))
            }
            (
                Lit::Number {
                    negative,
                    text,
                    is_float,
                    pos,
                },
                TypeKind::Integer { .. } | TypeKind::Index,
            ) => {
                if *is_float {
                    return self.err_at(*pos, "floating point value not valid for specified type");
                }
                match self.int_value(*negative, text, ty) {
                    Ok(v) => Ok(self.ctx.int_attr(ty, v)),
                    Err(msg) => self.err_at(*pos, msg),
                }
            }
            (l, _) => self.err_at(l.pos(), "integer literal not valid for specified type"),
        }
    }

    /// The canonical value of an integer literal of type `ty`: signed for
    /// signless/signed types, unsigned for unsigned ones.
    fn int_value(&self, negative: bool, text: &str, ty: Type) -> Result<BigInt, &'static str> {
        if let Some(v) = self.small_int_value(negative, text, ty) {
            return v;
        }
        let magnitude = if let Some(h) = text.strip_prefix("0x") {
            BigUint::from_str_radix(h, 16).map_err(|_| "invalid integer")?
        } else {
            BigUint::from_str_radix(text, 10).map_err(|_| "invalid integer")?
        };
        let (width, signedness) = match self.ctx.type_kind(ty) {
            TypeKind::Integer { width, signedness } => (*width, *signedness),
            TypeKind::Index => (64, Signedness::Signed),
            _ => (64, Signedness::Signless),
        };
        let v = BigInt::from_biguint(if negative { Sign::Minus } else { Sign::Plus }, magnitude);
        if negative && signedness == Signedness::Unsigned {
            return Err("negative integer literal not valid for unsigned integer type");
        }
        fit_int(&v, width, signedness).ok_or("integer constant out of range for attribute")
    }

    /// [`Parser::int_value`] without big integers, for decimal literals of
    /// at most 18 digits and types of at most 64 bits; `None` otherwise.
    fn small_int_value(
        &self,
        negative: bool,
        text: &str,
        ty: Type,
    ) -> Option<Result<BigInt, &'static str>> {
        let (width, signedness) = match self.ctx.type_kind(ty) {
            TypeKind::Integer { width, signedness } if *width <= 64 => (*width, *signedness),
            // Index values are signed 64-bit ones.
            TypeKind::Index => (64, Signedness::Signed),
            _ => return None,
        };
        if text.len() > 18 || !text.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let magnitude: i128 = text.parse::<u64>().ok()?.into();
        if negative && signedness == Signedness::Unsigned {
            return Some(Err(
                "negative integer literal not valid for unsigned integer type",
            ));
        }
        let v = if negative { -magnitude } else { magnitude };
        Some(
            fit_small_int(v, width, signedness)
                .map(BigInt::from)
                .ok_or("integer constant out of range for attribute"),
        )
    }

    // ----- locations --------------------------------------------------------

    /// Parses what is inside `loc(...)`.
    pub(crate) fn parse_location_body(&mut self) -> PResult<Attr> {
        self.enter()?;
        let r = self.parse_location_inner();
        self.leave();
        r
    }

    fn parse_location_inner(&mut self) -> PResult<Attr> {
        match self.kind() {
            Tok::HashId => {
                let (pos, end) = (self.tok().start, self.tok().end);
                let name = self.text()[1..].to_string();
                self.bump();
                match self.attr_aliases.get(name.as_str()) {
                    Some(&a) if self.ctx.is_location(a) => Ok(a),
                    Some(&a) => self.not_a_location(pos, a),
                    None => self.err_at(end, format!("undefined symbol alias id '{name}'")),
                }
            }
            Tok::String => {
                let name = self.parse_string_bytes()?;
                let name = self.ctx.sym(&String::from_utf8_lossy(&name));
                if self.is(Tok::Colon) {
                    self.bump();
                    let line = self.parse_u32("expected integer line number in FileLineColLoc")?;
                    if !self.eat(Tok::Colon) {
                        // A line without a column: MLIR keeps it apart
                        // from column 0 (a range of one line).
                        return Ok(self.ctx.loc(Location::File {
                            file: name,
                            line,
                            col: 0,
                            end: Some((line, 0)),
                        }));
                    }
                    let col = self.parse_u32("expected integer column number in FileLineColLoc")?;
                    let mut end = None;
                    if self.eat_keyword("to") {
                        if self.eat(Tok::Colon) {
                            let c = self.parse_u32("expected integer column number")?;
                            end = Some((line, c));
                        } else {
                            let l = self.parse_u32("expected integer line number")?;
                            self.expect(Tok::Colon, "':'")?;
                            let c = self.parse_u32("expected integer column number")?;
                            end = Some((l, c));
                        }
                    }
                    let end = end.filter(|&e| e != (line, col));
                    return Ok(self.ctx.loc(Location::File {
                        file: name,
                        line,
                        col,
                        end,
                    }));
                }
                let mut child = None;
                if self.eat(Tok::LParen) {
                    let c = self.parse_location_body()?;
                    self.expect(Tok::RParen, "')' after child location of NameLoc")?;
                    child = Some(c);
                }
                Ok(self.ctx.loc(Location::Name { name, child }))
            }
            Tok::BareId => match self.text() {
                "unknown" => {
                    self.bump();
                    Ok(self.ctx.unknown_loc())
                }
                "callsite" => {
                    self.bump();
                    self.expect(Tok::LParen, "'(' in callsite location")?;
                    let callee = self.parse_location_body()?;
                    if !self.eat_keyword("at") {
                        return self.err("expected 'at' in callsite location");
                    }
                    let caller = self.parse_location_body()?;
                    self.expect(Tok::RParen, "')' in callsite location")?;
                    Ok(self.ctx.loc(Location::CallSite { callee, caller }))
                }
                "fused" => {
                    self.bump();
                    let mut metadata = None;
                    if self.eat(Tok::Less) {
                        metadata = Some(self.parse_attribute(None)?);
                        self.expect(Tok::Greater, "'>' after fused location metadata")?;
                    }
                    self.expect(Tok::LSquare, "'[' in fused location")?;
                    let mut locs = Vec::new();
                    self.comma_list(Tok::RSquare, "']' in fused location", |p| {
                        locs.push(p.parse_location_body()?);
                        Ok(())
                    })?;
                    Ok(self.ctx.fused_loc(&locs, metadata))
                }
                _ => self.err("expected location instance"),
            },
            _ => self.err("expected location instance"),
        }
    }

    fn parse_u32(&mut self, msg: &str) -> PResult<u32> {
        if !self.is(Tok::Integer) {
            return self.err(msg.to_string());
        }
        match self.text().parse::<u32>() {
            Ok(v) => {
                self.bump();
                Ok(v)
            }
            Err(_) => self.err(msg.to_string()),
        }
    }

    // ----- affine ------------------------------------------------------------

    /// Parses `(dims)[syms] -> (exprs)` or, for sets, `(dims)[syms] : (constraints)`.
    pub(crate) fn parse_affine_map_or_set(&mut self, set: bool) -> PResult<Attr> {
        let mut names: Vec<(String, AffineExpr)> = Vec::new();
        self.expect(Tok::LParen, "'(' at start of dimensional identifiers list")?;
        let mut num_dims = 0u32;
        self.comma_list(Tok::RParen, "')' in dimensional identifier list", |p| {
            let name = p.parse_affine_id_name(&names)?;
            names.push((name, AffineExpr::Dim(num_dims)));
            num_dims += 1;
            Ok(())
        })?;
        let mut num_symbols = 0u32;
        if self.eat(Tok::LSquare) {
            self.comma_list(Tok::RSquare, "']' in symbol list", |p| {
                let name = p.parse_affine_id_name(&names)?;
                names.push((name, AffineExpr::Symbol(num_symbols)));
                num_symbols += 1;
                Ok(())
            })?;
        }
        if set {
            self.expect(Tok::Colon, "':' or '['")?;
            self.expect(Tok::LParen, "'(' in integer set constraint list")?;
            let mut constraints = Vec::new();
            let mut eq = Vec::new();
            self.comma_list(Tok::RParen, "')'", |p| {
                let (e, is_eq) = p.parse_affine_constraint(&names)?;
                constraints.push(e);
                eq.push(is_eq);
                Ok(())
            })?;
            if constraints.is_empty() {
                // An empty constraint list is the universe, which MLIR
                // stores (and prints) as the one constraint `0 == 0`.
                constraints.push(crate::affine::AffineExpr::Constant(0));
                eq.push(true);
            }
            return Ok(self.ctx.intern_attr(AttrKind::IntegerSet(IntegerSet {
                num_dims,
                num_symbols,
                constraints: constraints.into(),
                eq: eq.into(),
            })));
        }
        self.expect(Tok::Arrow, "'->' or ':'")?;
        self.expect(Tok::LParen, "'(' in affine map range")?;
        let mut results = Vec::new();
        self.comma_list(Tok::RParen, "')' in affine map range", |p| {
            results.push(p.parse_affine_expr(&names)?);
            Ok(())
        })?;
        Ok(self.ctx.intern_attr(AttrKind::AffineMap(AffineMap {
            num_dims,
            num_symbols,
            results: results.into(),
        })))
    }

    /// A new dimension or symbol name, distinct from those in `names`.
    fn parse_affine_id_name(&mut self, names: &[(String, AffineExpr)]) -> PResult<String> {
        if !self.is(Tok::BareId) {
            return self.err("expected bare identifier");
        }
        let s = self.text().to_string();
        if names.iter().any(|(n, _)| *n == s) {
            return self.wrong_token(format!("redefinition of identifier '{s}'"));
        }
        self.bump();
        Ok(s)
    }

    fn parse_affine_constraint(
        &mut self,
        names: &[(String, AffineExpr)],
    ) -> PResult<(AffineExpr, bool)> {
        let lhs = self.parse_affine_expr(names)?;
        let src = self.src();
        let s = self.tok().start;
        let two = |a: u8, b: u8| src.get(s) == Some(&a) && src.get(s + 1) == Some(&b);
        if two(b'>', b'=') {
            self.reset_to(s + 2);
            let rhs = self.parse_affine_expr(names)?;
            return Ok((lhs.minus(rhs), false));
        }
        if two(b'<', b'=') {
            self.reset_to(s + 2);
            let rhs = self.parse_affine_expr(names)?;
            return Ok((rhs.minus(lhs), false));
        }
        if two(b'=', b'=') {
            self.reset_to(s + 2);
            let rhs = self.parse_affine_expr(names)?;
            return Ok((lhs.minus(rhs), true));
        }
        self.err("expected '== affine-expr' or '>= affine-expr' at end of affine constraint")
    }

    /// Parses `open expr, ... close` where expressions use SSA values as
    /// dimensions (`%i`) and symbols (`symbol(%n)`): the map (dimensions
    /// and symbols numbered in order of first use) and its operands,
    /// dimensions first.
    pub(crate) fn parse_affine_exprs_of_ssa(
        &mut self,
        open: Tok,
        close: Tok,
        close_what: &str,
    ) -> PResult<(Attr, Vec<super::SsaRef<'a>>)> {
        self.expect(open, "'['")?;
        let saved = self.affine_ssa.replace(AffineSsa::default());
        let mut results = Vec::new();
        let r = self.comma_list(close, close_what, |p| {
            results.push(p.parse_affine_expr(&[])?);
            Ok(())
        });
        let ssa = std::mem::replace(&mut self.affine_ssa, saved).unwrap_or_default();
        r?;
        let map = AffineMap {
            num_dims: ssa.dims.len() as u32,
            num_symbols: ssa.syms.len() as u32,
            results: results.into(),
        };
        let mut operands = ssa.dims;
        operands.extend(ssa.syms);
        Ok((self.ctx.intern_attr(AttrKind::AffineMap(map)), operands))
    }

    /// `(e, kw(e, e), ...)` of SSA affine expressions: one map with every
    /// expression, the size of each group (1 for a bare expression), and
    /// the operands (dims, then symbols); `kw` is `max` or `min`
    /// (`affine.parallel` bounds).
    pub(crate) fn parse_affine_groups_of_ssa(
        &mut self,
        kw: &str,
    ) -> PResult<(Attr, Vec<i64>, Vec<super::SsaRef<'a>>)> {
        self.expect(Tok::LParen, "'('")?;
        let saved = self.affine_ssa.replace(AffineSsa::default());
        let mut results = Vec::new();
        let mut groups = Vec::new();
        let r = self.comma_list(Tok::RParen, "')'", |p| {
            if p.eat_keyword(kw) {
                p.expect(Tok::LParen, "'('")?;
                let before = results.len();
                p.comma_list(Tok::RParen, "')'", |p| {
                    results.push(p.parse_affine_expr(&[])?);
                    Ok(())
                })?;
                groups.push((results.len() - before) as i64);
            } else {
                results.push(p.parse_affine_expr(&[])?);
                groups.push(1);
            }
            Ok(())
        });
        let ssa = std::mem::replace(&mut self.affine_ssa, saved).unwrap_or_default();
        r?;
        let map = AffineMap {
            num_dims: ssa.dims.len() as u32,
            num_symbols: ssa.syms.len() as u32,
            results: results.into(),
        };
        let mut operands = ssa.dims;
        operands.extend(ssa.syms);
        Ok((
            self.ctx.intern_attr(AttrKind::AffineMap(map)),
            groups,
            operands,
        ))
    }

    /// Parses a full affine expression (low-precedence `+`/`-` chain).
    fn parse_affine_expr(&mut self, names: &[(String, AffineExpr)]) -> PResult<AffineExpr> {
        self.enter()?;
        let mut lhs = self.parse_affine_high(names)?;
        loop {
            let sub = if self.is(Tok::Plus) {
                false
            } else if self.is(Tok::Minus) {
                true
            } else {
                break;
            };
            self.bump();
            let rhs = self.parse_affine_high_after(names, true)?;
            lhs = if sub { lhs.minus(rhs) } else { lhs.plus(rhs) };
        }
        self.leave();
        Ok(lhs)
    }

    fn parse_affine_high(&mut self, names: &[(String, AffineExpr)]) -> PResult<AffineExpr> {
        self.parse_affine_high_after(names, false)
    }

    /// A `*`/`floordiv`/`ceildiv`/`mod` chain; `rhs` when it is the right
    /// operand of a binary operator (MLIR's messages say so).
    fn parse_affine_high_after(
        &mut self,
        names: &[(String, AffineExpr)],
        rhs: bool,
    ) -> PResult<AffineExpr> {
        let mut lhs = self.parse_affine_operand_of(names, rhs)?;
        loop {
            let op = match self.kind() {
                Tok::Star => BinOp::Mul,
                Tok::BareId => match self.text() {
                    "floordiv" => BinOp::FloorDiv,
                    "ceildiv" => BinOp::CeilDiv,
                    "mod" => BinOp::Mod,
                    _ => break,
                },
                _ => break,
            };
            let op_pos = self.tok().start;
            self.bump();
            let rhs = self.parse_affine_operand_of(names, true)?;
            match op {
                BinOp::Mul if !lhs.is_symbolic_or_constant() && !rhs.is_symbolic_or_constant() => {
                    return self.err_at(op_pos, "non-affine expression: at least one of the multiply operands has to be either a constant or symbolic");
                }
                BinOp::FloorDiv | BinOp::CeilDiv | BinOp::Mod if !rhs.is_symbolic_or_constant() => {
                    let word = match op {
                        BinOp::FloorDiv => "floordiv",
                        BinOp::CeilDiv => "ceildiv",
                        _ => "mod",
                    };
                    return self.err_at(op_pos, format!("non-affine expression: right operand of {word} has to be either a constant or symbolic"));
                }
                _ => {}
            }
            lhs = lhs.apply(op, rhs);
        }
        Ok(lhs)
    }

    fn parse_affine_operand(&mut self, names: &[(String, AffineExpr)]) -> PResult<AffineExpr> {
        self.parse_affine_operand_of(names, false)
    }

    fn parse_affine_operand_of(
        &mut self,
        names: &[(String, AffineExpr)],
        rhs: bool,
    ) -> PResult<AffineExpr> {
        match self.kind() {
            Tok::Minus => {
                self.bump();
                self.enter()?;
                let e = self.parse_affine_operand(names);
                self.leave();
                e.map(AffineExpr::negate).map_err(|mut d| {
                    // MLIR adds this error after the operand's own.
                    let loc = self.loc_at(self.tok.start);
                    d.notes
                        .push(Diagnostic::error(loc, "missing operand of negation"));
                    d
                })
            }
            Tok::Integer => {
                let Ok(v) = self.text().parse::<i64>() else {
                    return self.err("constant too large for index");
                };
                self.bump();
                Ok(AffineExpr::Constant(v))
            }
            Tok::LParen => {
                self.bump();
                if self.is(Tok::RParen) {
                    return self.err("no expression inside parentheses");
                }
                let e = self.parse_affine_expr(names)?;
                self.expect(Tok::RParen, "')'")?;
                Ok(e)
            }
            Tok::PercentId if self.affine_ssa.is_some() => {
                let (name, index, pos) = self.parse_value_ref()?;
                let ssa = self.affine_ssa.as_mut().expect("affine SSA state");
                let k = match ssa.dims.iter().position(|d| d.0 == name && d.1 == index) {
                    Some(k) => k,
                    None => {
                        ssa.dims.push((name, index, pos));
                        ssa.dims.len() - 1
                    }
                };
                Ok(AffineExpr::Dim(k as u32))
            }
            Tok::BareId if self.affine_ssa.is_some() && self.text() == "symbol" => {
                self.bump();
                self.expect(Tok::LParen, "'('")?;
                let (name, index, pos) = self.parse_value_ref()?;
                self.expect(Tok::RParen, "')'")?;
                let ssa = self.affine_ssa.as_mut().expect("affine SSA state");
                let k = match ssa.syms.iter().position(|d| d.0 == name && d.1 == index) {
                    Some(k) => k,
                    None => {
                        ssa.syms.push((name, index, pos));
                        ssa.syms.len() - 1
                    }
                };
                Ok(AffineExpr::Symbol(k as u32))
            }
            Tok::BareId => {
                let t = self.text();
                match names.iter().rev().find(|(n, _)| n == t) {
                    Some((_, e)) => {
                        let e = e.clone();
                        self.bump();
                        Ok(e)
                    }
                    None => self.wrong_token("use of undeclared identifier"),
                }
            }
            _ if rhs => self.err("missing right operand of binary operator"),
            Tok::Plus | Tok::Star => self.err("missing left operand of binary operator"),
            _ => self.err("expected affine expression"),
        }
    }

    // ----- structured attributes ---------------------------------------------

    fn parse_strided(&mut self) -> PResult<Attr> {
        self.expect(Tok::Less, "'<' after 'strided'")?;
        self.expect(Tok::LSquare, "'['")?;
        let mut strides = Vec::new();
        self.comma_list(Tok::RSquare, "']'", |p| {
            strides.push(p.parse_stride_or_offset()?);
            Ok(())
        })?;
        let mut offset = 0;
        if self.eat(Tok::Comma) {
            if !self.eat_keyword("offset") {
                return self.err("expected 'offset' after comma");
            }
            self.expect(Tok::Colon, "':' after 'offset'")?;
            offset = self.parse_stride_or_offset()?;
        }
        self.expect(Tok::Greater, "'>'")?;
        Ok(self.ctx.intern_attr(AttrKind::StridedLayout {
            offset,
            strides: strides.into(),
        }))
    }

    /// `?` or a (decimal or hex) integer whose magnitude fits in an i64.
    fn parse_stride_or_offset(&mut self) -> PResult<i64> {
        if self.eat(Tok::Question) {
            return Ok(DYNAMIC);
        }
        let pos = self.tok().start;
        let negative = self.eat(Tok::Minus);
        if self.is(Tok::Integer) {
            let t = self.text();
            let value = match t.strip_prefix("0x") {
                Some(h) => i64::from_str_radix(h, 16).ok(),
                None => t.parse::<i64>().ok(),
            };
            if let Some(v) = value {
                self.bump();
                return Ok(if negative { -v } else { v });
            }
        }
        self.err_at(pos, "expected a 64-bit signed integer or '?'")
    }

    fn parse_distinct(&mut self, pos: usize) -> PResult<Attr> {
        self.expect(Tok::LSquare, "'[' after 'distinct'")?;
        if !self.is(Tok::Integer) {
            return self.err("expected distinct ID");
        }
        let key = self.text().to_string();
        let fits = match key.strip_prefix("0x") {
            Some(h) => u64::from_str_radix(h, 16).is_ok(),
            None => key.parse::<u64>().is_ok(),
        };
        self.bump();
        if !fits {
            // MLIR reports it past the ID.
            let after = self.tok().start;
            return self.err_at(after, "expected an unsigned 64-bit integer");
        }
        self.expect(Tok::RSquare, "']' to close distinct ID")?;
        self.expect(Tok::Less, "'<' after distinct ID")?;
        let referenced = if self.is(Tok::Greater) {
            self.ctx.unit_attr()
        } else {
            self.parse_attribute(None)?
        };
        self.expect(Tok::Greater, "'>' to close distinct attribute")?;
        let id = match self.distinct_ids.get(&key) {
            Some(&(id, r)) => {
                if r != referenced {
                    let shown = crate::printer::attr_to_string(self.ctx, r);
                    return self.err_at(
                        pos,
                        format!("referenced attribute does not match previous definition: {shown}"),
                    );
                }
                id
            }
            None => {
                let id = self.ctx.fresh_distinct_id();
                self.distinct_ids.insert(key, (id, referenced));
                id
            }
        };
        Ok(self.ctx.intern_attr(AttrKind::Distinct { id, referenced }))
    }

    fn parse_dense_array(&mut self) -> PResult<Attr> {
        self.expect(Tok::Less, "'<' after 'array'")?;
        let tpos = self.tok().start;
        let element = self.parse_type()?;
        let width = match self.ctx.type_kind(element) {
            TypeKind::Integer { width, .. } => Some(*width),
            TypeKind::Float(k) => Some(k.bit_width()),
            _ => None,
        };
        let Some(width) = width else {
            let shown = crate::printer::type_to_string(self.ctx, element);
            return self.err_at(
                tpos,
                format!("expected integer or float type, got: {shown}"),
            );
        };
        let is_i1 = self.ctx.is_bool_type(element);
        if !is_i1 && width % 8 != 0 {
            return self.err_at(tpos, "element type bitwidth must be a multiple of 8");
        }
        let mut values = Vec::new();
        if !self.is(Tok::Greater) {
            self.expect(Tok::Colon, "':' after dense array type")?;
            loop {
                let lit = self.parse_dense_scalar()?;
                if is_i1 && matches!(lit, Lit::Number { .. }) {
                    // MLIR reports it past the number.
                    let after = self.tok().start;
                    return self.err_at(after, "expected 'true' or 'false' values for i1 type");
                }
                values.push(self.scalar_attr(&lit, element)?);
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
        }
        self.expect(Tok::Greater, "'>' to close an array attribute")?;
        Ok(self.ctx.intern_attr(AttrKind::DenseArray {
            element,
            values: values.into(),
        }))
    }

    fn parse_dense_scalar(&mut self) -> PResult<Lit> {
        let pos = self.tok().start;
        match self.kind() {
            Tok::BareId if self.text() == "true" || self.text() == "false" => {
                let v = self.text() == "true";
                self.bump();
                Ok(Lit::Bool(v, pos))
            }
            Tok::Minus | Tok::Integer | Tok::Float => {
                let negative = self.eat(Tok::Minus);
                if !matches!(self.kind(), Tok::Integer | Tok::Float) {
                    return self.err("expected integer or float literal");
                }
                let lit = Lit::Number {
                    negative,
                    text: self.text().to_string(),
                    is_float: self.is(Tok::Float),
                    pos,
                };
                self.bump();
                Ok(lit)
            }
            Tok::String => {
                let b = self.parse_string_bytes()?;
                Ok(Lit::Str(b, pos))
            }
            Tok::LParen => {
                self.bump();
                let re = self.parse_dense_scalar()?;
                self.expect(Tok::Comma, "','")?;
                let im = self.parse_dense_scalar()?;
                self.expect(Tok::RParen, "')'")?;
                Ok(Lit::Complex(Box::new(re), Box::new(im), pos))
            }
            _ => self.err("expected element literal of primitive type"),
        }
    }

    fn parse_dense_literal(&mut self) -> PResult<Lit> {
        self.enter()?;
        let r = if self.is(Tok::LSquare) {
            let pos = self.tok().start;
            self.bump();
            let mut elems = Vec::new();
            let r = self.comma_list(Tok::RSquare, "']'", |p| {
                elems.push(p.parse_dense_literal()?);
                Ok(())
            });
            r.map(|_| Lit::List(elems, pos))
        } else {
            self.parse_dense_scalar()
        };
        self.leave();
        r
    }

    fn parse_dense_elements(&mut self, pos: usize, known: Option<Type>) -> PResult<Attr> {
        self.expect(Tok::Less, "'<' after 'dense'")?;
        let lit = if self.is(Tok::Greater) {
            Lit::List(Vec::new(), self.tok().start)
        } else {
            self.parse_dense_literal()?
        };
        self.expect(Tok::Greater, "'>'")?;
        // MLIR reports type errors at `dense`.
        let tpos = pos;
        let ty = match self.parse_optional_colon_type(known)? {
            Some(t) => t,
            None => return self.err("expected ':'"),
        };
        self.build_dense(lit, ty, tpos)
    }

    fn build_dense(&mut self, lit: Lit, ty: Type, tpos: usize) -> PResult<Attr> {
        let (shape, element) = match self.ctx.type_kind(ty) {
            TypeKind::RankedTensor { shape, element, .. }
            | TypeKind::Vector { shape, element, .. } => (shape.to_vec(), *element),
            _ => return self.err_at(tpos, "elements literal must be a shaped type"),
        };
        if shape.contains(&DYNAMIC) {
            return self.err_at(tpos, "elements literal type must have static shape");
        }
        let numel: i128 = shape.iter().map(|&d| d as i128).product();
        // Hex form.
        if let Lit::Str(bytes, pos) = &lit {
            if bytes.starts_with(b"0x") && self.is_int_or_float_like(element) {
                return self.dense_from_hex(bytes, *pos, ty, element, numel);
            }
        }
        let is_string_elem = !self.is_int_or_float_like(element);
        // Flatten and check the shape.
        let mut flat: Vec<&Lit> = Vec::new();
        let lit_shape = match infer_shape(&lit, &mut flat) {
            Ok(s) => s,
            Err(pos) => {
                return self.err_at(
                    pos,
                    "tensor literal is invalid; ranks are not consistent between elements",
                )
            }
        };
        let is_splat = !matches!(lit, Lit::List(..));
        if !is_splat && lit_shape.iter().map(|&d| d as i64).collect::<Vec<_>>() != shape {
            let fmt = |s: &[i64]| {
                s.iter()
                    .map(|d| d.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let ls: Vec<i64> = lit_shape.iter().map(|&d| d as i64).collect();
            return self.err_at(
                tpos,
                format!(
                    "inferred shape of elements literal ([{}]) does not match type ([{}])",
                    fmt(&ls),
                    fmt(&shape)
                ),
            );
        }
        if is_string_elem {
            let mut values: Vec<Box<[u8]>> = Vec::new();
            for l in &flat {
                match l {
                    Lit::Str(b, _) => values.push(b.clone().into()),
                    other => return self.err_at(other.pos(), "expected string token"),
                }
            }
            if values.len() > 1 && values.iter().all(|v| *v == values[0]) {
                values.truncate(1);
            }
            return Ok(self.ctx.intern_attr(AttrKind::DenseStrings {
                ty,
                values: values.into(),
            }));
        }
        let mut values = Vec::with_capacity(flat.len());
        for l in flat {
            values.push(self.dense_element(l, element)?);
        }
        if values.len() > 1 && values.iter().all(|v| *v == values[0]) {
            values.truncate(1);
        }
        let _ = numel;
        Ok(self.ctx.intern_attr(AttrKind::DenseElements {
            ty,
            values: values.into(),
        }))
    }

    fn is_int_or_float_like(&self, t: Type) -> bool {
        match self.ctx.type_kind(t) {
            TypeKind::Integer { .. } | TypeKind::Index | TypeKind::Float(_) => true,
            TypeKind::Complex(e) => self.is_int_or_float_like(*e),
            _ => false,
        }
    }

    fn dense_element(&mut self, lit: &Lit, element: Type) -> PResult<Attr> {
        if let TypeKind::Complex(inner) = self.ctx.type_kind(element).clone() {
            let Lit::Complex(re, im, _) = lit else {
                return self.err_at(lit.pos(), "expected complex literal");
            };
            let re = self.scalar_attr(re, inner)?;
            let im = self.scalar_attr(im, inner)?;
            return Ok(self.ctx.intern_attr(AttrKind::Array(vec![re, im].into())));
        }
        if let Lit::Complex(_, _, pos) = lit {
            return self.err_at(*pos, "unexpected complex literal for non-complex type");
        }
        self.scalar_attr(lit, element)
    }

    fn dense_from_hex(
        &mut self,
        text: &[u8],
        pos: usize,
        ty: Type,
        element: Type,
        numel: i128,
    ) -> PResult<Attr> {
        let hex = &text[2..];
        if !hex.len().is_multiple_of(2) || !hex.iter().all(|b| b.is_ascii_hexdigit()) {
            return self.err_at(
                pos,
                "expected string containing hex digits starting with `0x`",
            );
        }
        let bytes: Vec<u8> = hex
            .chunks(2)
            .map(|c| u8::from_str_radix(std::str::from_utf8(c).unwrap_or("0"), 16).unwrap_or(0))
            .collect();
        let (scalar, parts) = match self.ctx.type_kind(element) {
            TypeKind::Complex(e) => (*e, 2usize),
            _ => (element, 1usize),
        };
        let bit_width = match self.ctx.type_kind(scalar) {
            TypeKind::Integer { width, .. } => *width as usize,
            TypeKind::Index => 64,
            TypeKind::Float(k) => k.bit_width() as usize,
            _ => 64,
        };
        let elem_bytes = bit_width.div_ceil(8).max(1);
        let per_elem = elem_bytes * parts;
        let count = bytes.len() / per_elem.max(1);
        if !bytes.len().is_multiple_of(per_elem) || (count as i128 != numel && count != 1) {
            return self.err_at(
                pos,
                format!(
                    "elements hex data size is invalid for provided type: {}",
                    crate::printer::type_to_string(self.ctx, ty)
                ),
            );
        }
        let mut values = Vec::with_capacity(count);
        for chunk in bytes.chunks(per_elem) {
            let mut parts_attrs = Vec::new();
            for part in chunk.chunks(elem_bytes) {
                let mut raw = BigUint::zero();
                for (i, b) in part.iter().enumerate() {
                    raw |= BigUint::from(*b) << (8 * i);
                }
                if bit_width < elem_bytes * 8 {
                    raw &= (BigUint::one() << bit_width) - 1u32;
                }
                parts_attrs.push(self.attr_from_bits(scalar, raw));
            }
            values.push(if parts == 2 {
                self.ctx.intern_attr(AttrKind::Array(parts_attrs.into()))
            } else {
                parts_attrs[0]
            });
        }
        if values.len() > 1 && values.iter().all(|v| *v == values[0]) {
            values.truncate(1);
        }
        Ok(self.ctx.intern_attr(AttrKind::DenseElements {
            ty,
            values: values.into(),
        }))
    }

    /// An integer or float attribute from a raw bit pattern.
    fn attr_from_bits(&mut self, ty: Type, raw: BigUint) -> Attr {
        match self.ctx.type_kind(ty).clone() {
            TypeKind::Float(_) => {
                let d = raw.to_u64_digits();
                let bits = u128::from(d.first().copied().unwrap_or(0))
                    | (u128::from(d.get(1).copied().unwrap_or(0)) << 64);
                self.ctx.intern_attr(AttrKind::Float { ty, bits })
            }
            TypeKind::Integer { width, signedness } => {
                let v = BigInt::from(raw);
                let v = fit_int(&v, width, signedness).unwrap_or_default();
                self.ctx.int_attr(ty, v)
            }
            _ => {
                let v = fit_int(&BigInt::from(raw), 64, Signedness::Signless).unwrap_or_default();
                self.ctx.int_attr(ty, v)
            }
        }
    }

    fn parse_sparse(&mut self, pos: usize, known: Option<Type>) -> PResult<Attr> {
        self.expect(Tok::Less, "'<' after 'sparse'")?;
        // `sparse<>` has no elements.
        let literals = if self.is(Tok::Greater) {
            None
        } else {
            let indices = self.parse_dense_literal()?;
            self.expect(Tok::Comma, "','")?;
            Some((indices, self.parse_dense_literal()?))
        };
        self.expect(Tok::Greater, "'>'")?;
        let tpos = pos;
        let Some(ty) = self.parse_optional_colon_type(known)? else {
            return self.err("expected ':'");
        };
        let Some((Some(shape), element)) =
            self.ctx.shaped(ty).map(|(s, e)| (s.map(|s| s.to_vec()), e))
        else {
            return self.err_at(tpos, "elements literal must be a shaped type");
        };
        let rank = shape.len() as i64;
        let i64t = self.ctx.signless(64);
        let Some((indices_lit, values_lit)) = literals else {
            let empty = |ctx: &mut crate::context::Context, shape: Vec<i64>, element| {
                let ty = ctx.intern_type(TypeKind::RankedTensor {
                    shape: shape.into(),
                    element,
                    encoding: None,
                });
                ctx.intern_attr(AttrKind::DenseElements {
                    ty,
                    values: Box::new([]),
                })
            };
            let indices = empty(self.ctx, vec![0, rank], i64t);
            let values = empty(self.ctx, vec![0], element);
            return Ok(self.ctx.intern_attr(AttrKind::Sparse {
                ty,
                indices,
                values,
            }));
        };
        let mut flat = Vec::new();
        let ishape = infer_shape(&indices_lit, &mut flat).unwrap_or_default();
        let n = if matches!(indices_lit, Lit::List(..)) {
            ishape.first().copied().unwrap_or(0) as i64
        } else {
            1
        };
        let idx_ty = self.ctx.intern_type(TypeKind::RankedTensor {
            shape: vec![n, rank].into(),
            element: i64t,
            encoding: None,
        });
        let indices = self.build_dense(indices_lit, idx_ty, tpos)?;
        let mut vflat = Vec::new();
        let vshape = infer_shape(&values_lit, &mut vflat).unwrap_or_default();
        let vn = if matches!(values_lit, Lit::List(..)) {
            vshape.first().copied().unwrap_or(0) as i64
        } else {
            n
        };
        let val_ty = self.ctx.intern_type(TypeKind::RankedTensor {
            shape: vec![vn].into(),
            element,
            encoding: None,
        });
        let values = self.build_dense(values_lit, val_ty, tpos)?;
        Ok(self.ctx.intern_attr(AttrKind::Sparse {
            ty,
            indices,
            values,
        }))
    }
}

/// Flattens a literal into `flat` and returns its shape, or the position
/// of an element whose rank disagrees.
fn infer_shape<'l>(lit: &'l Lit, flat: &mut Vec<&'l Lit>) -> Result<Vec<usize>, usize> {
    match lit {
        Lit::List(elems, _) => {
            let mut sub: Option<Vec<usize>> = None;
            for e in elems {
                let s = infer_shape(e, flat)?;
                match &sub {
                    None => sub = Some(s),
                    Some(prev) if *prev != s => return Err(e.pos()),
                    _ => {}
                }
            }
            let mut shape = vec![elems.len()];
            shape.extend(sub.unwrap_or_default());
            Ok(shape)
        }
        other => {
            flat.push(other);
            Ok(Vec::new())
        }
    }
}

/// Interprets `v` as an integer of `width` bits: accepts any value that
/// fits as signed or unsigned and returns the canonical value.
/// [`fit_int`] for widths up to 64 bits, in machine integers.
fn fit_small_int(v: i128, width: u32, signedness: Signedness) -> Option<i128> {
    let modulus = 1i128 << width;
    let half = if width == 0 { 0 } else { 1i128 << (width - 1) };
    // Signed (and index) values may not set the sign bit when positive.
    let end = if signedness == Signedness::Signed {
        half
    } else {
        modulus
    };
    if v < -half || v >= end {
        return None;
    }
    let unsigned = if v < 0 { v + modulus } else { v };
    Some(match signedness {
        Signedness::Unsigned => unsigned,
        _ if width > 0 && unsigned >= half => unsigned - modulus,
        _ => unsigned,
    })
}

pub(crate) fn fit_int(v: &BigInt, width: u32, signedness: Signedness) -> Option<BigInt> {
    let w = width as u64;
    let modulus = BigInt::one() << w;
    let min_signed = if w == 0 {
        BigInt::zero()
    } else {
        -(BigInt::one() << (w - 1))
    };
    let end = if signedness == Signedness::Signed {
        -&min_signed
    } else {
        modulus.clone()
    };
    if *v < min_signed || *v >= end {
        return None;
    }
    let unsigned = if v.sign() == Sign::Minus {
        v + &modulus
    } else {
        v.clone()
    };
    Some(match signedness {
        Signedness::Unsigned => unsigned,
        _ => {
            if w > 0 && unsigned >= (BigInt::one() << (w - 1)) {
                unsigned - modulus
            } else {
                unsigned
            }
        }
    })
}

#[cfg(test)]
mod int_fit_tests {
    use super::*;

    #[test]
    fn small_fit_agrees_with_big_fit() {
        for width in [0u32, 1, 2, 7, 8, 31, 32, 63, 64] {
            for s in [
                Signedness::Signless,
                Signedness::Signed,
                Signedness::Unsigned,
            ] {
                let edge = 1i128 << width;
                for v in [
                    -edge - 1,
                    -edge,
                    -edge / 2 - 1,
                    -edge / 2,
                    -1,
                    0,
                    1,
                    edge / 2 - 1,
                    edge / 2,
                    edge - 1,
                    edge,
                ] {
                    let small = fit_small_int(v, width, s).map(BigInt::from);
                    let big = fit_int(&BigInt::from(v), width, s);
                    assert_eq!(small, big, "v={v} width={width} {s:?}");
                }
            }
        }
    }
}
