//! Parsing of builtin types, type aliases and opaque dialect types.

use super::{AsmParser, PResult, Parser};
use crate::attrs::AttrKind;
use crate::context::{Attr, Type};
use crate::dynamic::ParamsKind;
use crate::float::FloatKind;
use crate::lexer::Tok;
use crate::types::{Signedness, TypeKind, DYNAMIC, MAX_INT_WIDTH};

impl Parser<'_> {
    /// Parses a type.
    pub(crate) fn parse_type(&mut self) -> PResult<Type> {
        self.enter()?;
        let t = self.parse_type_inner();
        self.leave();
        t
    }

    fn parse_type_inner(&mut self) -> PResult<Type> {
        match self.kind() {
            Tok::LParen => self.parse_function_type(),
            Tok::BangId => self.parse_extended_type(),
            Tok::BareId => match self.parse_optional_builtin_type()? {
                Some(t) => Ok(t),
                None => self.wrong_token("expected non-function type"),
            },
            _ => self.wrong_token("expected non-function type"),
        }
    }

    /// Parses `(inputs) -> results`.
    pub(crate) fn parse_function_type(&mut self) -> PResult<Type> {
        let base = self.type_stack.len();
        let r = self.parse_function_type_on_stack(base);
        self.type_stack.truncate(base);
        r
    }

    /// Parses a function type, collecting its inputs and results on
    /// `type_stack` above `base`.
    fn parse_function_type_on_stack(&mut self, base: usize) -> PResult<Type> {
        self.push_type_list_parens()?;
        let mid = self.type_stack.len();
        self.expect(Tok::Arrow, "'->' in function type")?;
        if self.is(Tok::LParen) {
            self.push_type_list_parens()?;
        } else {
            let t = self.parse_type()?;
            self.type_stack.push(t);
        }
        let (inputs, results) = self.type_stack[base..].split_at(mid - base);
        Ok(self.ctx.function_type(inputs, results))
    }

    /// Parses `( type, ... )` onto `type_stack`.
    fn push_type_list_parens(&mut self) -> PResult<()> {
        self.expect(Tok::LParen, "'('")?;
        self.comma_list(Tok::RParen, "')'", |p| {
            let t = p.parse_type()?;
            p.type_stack.push(t);
            Ok(())
        })
    }

    fn parse_extended_type(&mut self) -> PResult<Type> {
        let pos = self.tok().start;
        let ident = &self.text()[1..];
        let src = self.src();
        let end = self.tok().end;
        let has_body = src.get(end) == Some(&b'<');
        if !ident.contains('.') && !has_body {
            self.bump();
            return match self.type_aliases.get(ident) {
                Some(&t) => Ok(t),
                None => self.err_at(end, format!("undefined symbol alias id '{ident}'")),
            };
        }
        let (dialect, rest) = match ident.split_once('.') {
            Some((d, r)) => (d, r),
            None => (ident, ""),
        };
        if dialect.is_empty() {
            return self.err_at(pos + 2, "invalid dialect namespace '\"\"'");
        }
        if let Some(hooks) = self.ctx.dialect(dialect).and_then(|d| d.types) {
            // The text of the whole type, for the cache of parsed ones.
            let text_end = if has_body {
                self.balanced_body_end(end)?
            } else {
                end
            };
            let text = self.src_text(pos, text_end);
            if let Some(&t) = text.and_then(|t| self.dialect_types.get(t)) {
                self.reset_to(text_end);
                return Ok(t);
            }
            let bracketed = rest.is_empty();
            let dialect = dialect.to_string();
            // Re-lex from the mnemonic: after `!dialect.` or `!dialect<`.
            self.reset_to(pos + 1 + dialect.len() + 1);
            if !self.is(Tok::BareId) {
                return self.wrong_token("expected dialect type mnemonic");
            }
            let mnemonic = self.text();
            self.bump();
            let t = (hooks.parse)(&mut AsmParser::new(self, pos, false), mnemonic)?;
            if bracketed {
                self.expect(Tok::Greater, "'>'")?;
            }
            if let Some(text) = text.filter(|_| self.prev_end() == text_end) {
                self.dialect_types.insert(text, t);
            }
            return Ok(t);
        }
        if self.ctx.is_dynamic_dialect(dialect) {
            let dialect = dialect.to_string();
            // Re-lex from the mnemonic: after `!dialect.` or `!dialect<`.
            self.reset_to(pos + 1 + dialect.len() + 1);
            return self.parse_dynamic_type(&dialect, rest.is_empty());
        }
        let (dialect, mut data) = (dialect.to_string(), rest.to_string());
        let body_end = if has_body {
            self.balanced_body_end(end)?
        } else {
            end
        };
        let Ok(body) = std::str::from_utf8(&src[end..body_end]) else {
            return self.err_at(pos, "invalid UTF-8 in dialect type");
        };
        data.push_str(body);
        if !has_body && data.is_empty() {
            return self.err_at(pos, "expected dialect type");
        }
        // `!dialect<body>` keeps only what is inside the brackets.
        if rest.is_empty() {
            data = data[1..data.len() - 1].to_string();
        }
        self.reset_to(body_end);
        if !self.ctx.allow_unregistered && self.ctx.dialect(&dialect).is_none() {
            // Reported where the body starts (`!d.body`) or at `!` (`!d<body>`).
            let at = if rest.is_empty() {
                pos
            } else {
                pos + 2 + dialect.len()
            };
            return self.err_at(
                at,
                format!("`!\"{dialect}\"<\"{data}\">` type created with unregistered dialect. If this is intended, please call allowUnregisteredDialects() on the MLIRContext, or use -allow-unregistered-dialect with the MLIR opt tool used"),
            );
        }
        let d = self.ctx.sym(&dialect);
        Ok(self.ctx.intern_type(TypeKind::Opaque {
            dialect: d,
            data: data.into(),
        }))
    }

    /// A type of a dialect defined at run time from its mnemonic on:
    /// `name` or `name<param, ...>`, checked by the dialect's definition.
    fn parse_dynamic_type(&mut self, dialect: &str, bracketed: bool) -> PResult<Type> {
        let at = self.tok().start;
        if !self.is(Tok::BareId) {
            return self.wrong_token("expected dialect type mnemonic");
        }
        let mnemonic = self.text().to_string();
        if !self
            .ctx
            .has_dynamic_def(ParamsKind::Type, dialect, &mnemonic)
        {
            return self.err_at(at, "expected dynamic type");
        }
        self.bump();
        let params = self.parse_dynamic_params()?;
        if bracketed {
            self.expect(Tok::Greater, "'>'")?;
        }
        let checked = self
            .ctx
            .check_dynamic_params(ParamsKind::Type, dialect, &mnemonic, &params);
        if let Some(Err(msg)) = checked {
            return self.err_at(at, msg);
        }
        let dialect = self.ctx.sym(dialect);
        let name = self.ctx.sym(&mnemonic);
        Ok(self.ctx.intern_type(TypeKind::Dialect {
            dialect,
            name,
            params: params.into(),
        }))
    }

    /// The parameters of a dynamic type or attribute: nothing, `<>` or
    /// `<attr, ...>` (types stand for type attributes).
    pub(crate) fn parse_dynamic_params(&mut self) -> PResult<Vec<Attr>> {
        let mut params = Vec::new();
        if self.eat(Tok::Less) && !self.eat(Tok::Greater) {
            self.comma_list(Tok::Greater, "'>'", |p| {
                params.push(p.parse_attribute(None)?);
                Ok(())
            })?;
        }
        Ok(params)
    }

    /// The end of a balanced `<...>` body starting at byte `start` (which
    /// holds `<`), honouring nested brackets and string literals. Like
    /// MLIR, an unbalanced body is reported at the token being looked at
    /// (the `<`, or the last string skipped), naming the innermost open
    /// bracket.
    pub(crate) fn balanced_body_end(&mut self, start: usize) -> PResult<usize> {
        let src = self.src();
        let mut stack: Vec<u8> = Vec::new();
        let mut token = start;
        let mut i = start;
        let unbalanced = |p: &mut Self, token: usize, stack: &[u8]| {
            let open = stack.last().copied().unwrap_or(b'<') as char;
            p.err_at(
                token,
                format!("unbalanced '{open}' character in pretty dialect name"),
            )
        };
        loop {
            let Some(&c) = src.get(i) else {
                return unbalanced(self, token, &stack);
            };
            i += 1;
            match c {
                0 => return unbalanced(self, token, &stack),
                b'<' | b'(' | b'[' | b'{' => stack.push(c),
                // `->` is an arrow, not a closing bracket.
                b'-' if src.get(i) == Some(&b'>') => i += 1,
                b'>' | b')' | b']' | b'}' => {
                    let open = match c {
                        b'>' => b'<',
                        b')' => b'(',
                        b']' => b'[',
                        _ => b'{',
                    };
                    if stack.last() != Some(&open) {
                        return unbalanced(self, token, &stack);
                    }
                    stack.pop();
                    if stack.is_empty() {
                        return Ok(i);
                    }
                }
                b'"' => match crate::lexer::string_end(src, i - 1) {
                    Some(e) => {
                        token = i - 1;
                        i = e;
                    }
                    None => return self.err_at(i - 1, "expected '\"' in string literal"),
                },
                _ => {}
            }
        }
    }

    /// Parses a builtin type keyword if the current token is one.
    pub(crate) fn parse_optional_builtin_type(&mut self) -> PResult<Option<Type>> {
        let text = self.text();
        let pos = self.tok().start;
        if let Some(k) = FloatKind::from_name(text) {
            self.bump();
            return Ok(Some(self.ctx.float_type(k)));
        }
        let int = if let Some(w) = text.strip_prefix("si") {
            Some((w, Signedness::Signed))
        } else if let Some(w) = text.strip_prefix("ui") {
            Some((w, Signedness::Unsigned))
        } else {
            text.strip_prefix('i').map(|w| (w, Signedness::Signless))
        };
        if let Some((w, s)) = int {
            if !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()) {
                // MLIR: a width beyond 32 bits is invalid, one beyond the
                // limit too large.
                let width = match w.parse::<u32>() {
                    Ok(v) if v <= MAX_INT_WIDTH => v,
                    Ok(_) => {
                        return self.err(format!(
                            "integer bitwidth is limited to {MAX_INT_WIDTH} bits"
                        ))
                    }
                    Err(_) => return self.err("invalid integer width"),
                };
                self.bump();
                return Ok(Some(self.ctx.int_type(width, s)));
            }
        }
        let t = match text {
            "index" => {
                self.bump();
                self.ctx.index_type()
            }
            "none" => {
                self.bump();
                self.ctx.none_type()
            }
            "complex" => {
                self.bump();
                self.expect(Tok::Less, "'<' in complex type")?;
                let epos = self.tok().start;
                let e = self.parse_type()?;
                if !matches!(
                    self.ctx.type_kind(e),
                    TypeKind::Float(_) | TypeKind::Integer { .. }
                ) {
                    return self.err_at(epos, "invalid element type for complex");
                }
                self.expect(Tok::Greater, "'>' in complex type")?;
                self.ctx.intern_type(TypeKind::Complex(e))
            }
            "tuple" => {
                self.bump();
                self.expect(Tok::Less, "'<' in tuple type")?;
                let mut elems = Vec::new();
                self.comma_list(Tok::Greater, "'>' in tuple type", |p| {
                    elems.push(p.parse_type()?);
                    Ok(())
                })?;
                self.ctx.intern_type(TypeKind::Tuple(elems.into()))
            }
            "vector" => {
                self.bump();
                self.parse_vector_type(pos)?
            }
            "tensor" => {
                self.bump();
                self.parse_tensor_type()?
            }
            "memref" => {
                self.bump();
                self.parse_memref_type(pos)?
            }
            _ => return Ok(None),
        };
        Ok(Some(t))
    }

    /// Consumes the `x` separating dimensions, which the lexer glued to the
    /// following identifier (`4xf32` lexes as `4` and `xf32`).
    fn parse_x_in_dims(&mut self) -> PResult<()> {
        if self.kind() != Tok::BareId || !self.text().starts_with('x') {
            return self.err("expected 'x' in dimension list");
        }
        let p = self.tok().start + 1;
        self.reset_to(p);
        Ok(())
    }

    /// Parses `dim x dim x ...` up to the element type. With
    /// `allow_dynamic`, `?` is accepted; with `allow_scalable`, `[N]`.
    pub(crate) fn parse_dims(
        &mut self,
        allow_dynamic: bool,
        allow_scalable: bool,
    ) -> PResult<(Vec<i64>, Vec<bool>)> {
        let mut shape = Vec::new();
        let mut scalable = Vec::new();
        loop {
            let mut is_scalable = false;
            if allow_scalable && self.is(Tok::LSquare) {
                self.bump();
                is_scalable = true;
            }
            let dim = if self.is(Tok::Question) {
                if !allow_dynamic {
                    return self.err("expected static shape");
                }
                self.bump();
                DYNAMIC
            } else if self.is(Tok::Integer) {
                let text = self.text();
                // `0x4` would lex as a hex integer: split it like MLIR does.
                if text.starts_with("0x") {
                    let p = self.tok().start + 1;
                    self.reset_to(p);
                    0
                } else {
                    let Ok(v) = text.parse::<i64>() else {
                        return self.err("invalid dimension");
                    };
                    self.bump();
                    v
                }
            } else if is_scalable {
                return self.err("expected integer value");
            } else {
                break;
            };
            if is_scalable {
                self.expect(Tok::RSquare, "']'")?;
            }
            shape.push(dim);
            scalable.push(is_scalable);
            self.parse_x_in_dims()?;
        }
        Ok((shape, scalable))
    }

    fn parse_vector_type(&mut self, pos: usize) -> PResult<Type> {
        self.expect(Tok::Less, "'<' in vector type")?;
        let (shape, scalable) = self.parse_dims(false, true)?;
        let epos = self.tok().start;
        let element = self.parse_type()?;
        self.expect(Tok::Greater, "'>' in vector type")?;
        if shape.iter().any(|&d| d <= 0) {
            return self
                .err_at(
                    pos,
                    "vector types must have positive constant sizes but got ",
                )
                .map_err(|mut d| {
                    d.message.push_str(&join_dims(&shape));
                    d
                });
        }
        let dialect_element = match self.ctx.type_kind(element) {
            TypeKind::Dialect { dialect, .. } => self
                .ctx
                .dialect(self.ctx.str(*dialect))
                .and_then(|d| d.types.as_ref())
                .and_then(|h| h.vector_element)
                .is_some_and(|allowed| allowed(self.ctx, element)),
            _ => false,
        };
        if !dialect_element
            && !matches!(
                self.ctx.type_kind(element),
                TypeKind::Integer { .. } | TypeKind::Index | TypeKind::Float(_)
            )
        {
            return self.err_at(
                epos,
                "failed to verify 'elementType': integer or index or floating-point",
            );
        }
        Ok(self.ctx.intern_type(TypeKind::Vector {
            shape: shape.into(),
            scalable: scalable.into(),
            element,
        }))
    }

    fn parse_tensor_type(&mut self) -> PResult<Type> {
        self.expect(Tok::Less, "'<' in tensor type")?;
        if self.is(Tok::Star) {
            self.bump();
            self.parse_x_in_dims()?;
            let element = self.parse_type()?;
            self.expect(Tok::Greater, "'>' in tensor type")?;
            return Ok(self.ctx.intern_type(TypeKind::UnrankedTensor { element }));
        }
        let (shape, _) = self.parse_dims(true, false)?;
        let epos = self.tok().start;
        let element = self.parse_type()?;
        self.check_element_type(epos, element, "invalid tensor element type")?;
        let mut encoding = None;
        if self.eat(Tok::Comma) {
            encoding = Some(self.parse_attribute(None)?);
        }
        self.expect(Tok::Greater, "'>' in tensor type")?;
        if shape.iter().any(|&d| d < 0 && d != DYNAMIC) {
            return self.err_at(epos, "invalid tensor dimension size");
        }
        Ok(self.ctx.intern_type(TypeKind::RankedTensor {
            shape: shape.into(),
            element,
            encoding,
        }))
    }

    fn check_element_type(&mut self, pos: usize, element: Type, msg: &str) -> PResult<()> {
        if matches!(
            self.ctx.type_kind(element),
            TypeKind::Function { .. } | TypeKind::None | TypeKind::Tuple(_)
        ) || self.is_shaped_non_vector(element)
        {
            return self.err_at(pos, msg);
        }
        Ok(())
    }

    /// MLIR's supported memory spaces: integers, strings, dictionaries and
    /// attributes of (registered) non-builtin dialects.
    fn is_memory_space(&self, a: Attr) -> bool {
        matches!(
            self.ctx.attr_kind(a),
            AttrKind::Integer { .. }
                | AttrKind::String { .. }
                | AttrKind::Dictionary(_)
                | AttrKind::Dialect { .. }
        )
    }

    fn is_shaped_non_vector(&self, t: Type) -> bool {
        matches!(
            self.ctx.type_kind(t),
            TypeKind::RankedTensor { .. }
                | TypeKind::UnrankedTensor { .. }
                | TypeKind::MemRef { .. }
                | TypeKind::UnrankedMemRef { .. }
        )
    }

    /// Parses `memref<...>` after its keyword, which starts at `pos` (where
    /// MLIR reports the type's own checks).
    fn parse_memref_type(&mut self, pos: usize) -> PResult<Type> {
        self.expect(Tok::Less, "'<' in memref type")?;
        let unranked = self.is(Tok::Star);
        let mut shape = Vec::new();
        if unranked {
            self.bump();
            self.parse_x_in_dims()?;
        } else {
            shape = self.parse_dims(true, false)?.0;
        }
        let epos = self.tok().start;
        let element = self.parse_type()?;
        if matches!(
            self.ctx.type_kind(element),
            TypeKind::Function { .. }
                | TypeKind::None
                | TypeKind::Tuple(_)
                | TypeKind::RankedTensor { .. }
                | TypeKind::UnrankedTensor { .. }
        ) {
            return self.err_at(epos, "invalid memref element type");
        }
        let mut layout: Option<Attr> = None;
        let mut memory_space: Option<Attr> = None;
        if !self.eat(Tok::Greater) {
            self.expect(Tok::Comma, "',' or '>' in memref type")?;
            if self.is(Tok::Greater) {
                return self.wrong_token("expected list element");
            }
            // Layouts and the memory space, checked in MLIR's order: a later
            // layout replaces an earlier one; the memory space comes last.
            loop {
                let a = self.parse_attribute(None)?;
                if matches!(
                    self.ctx.attr_kind(a),
                    AttrKind::AffineMap(_) | AttrKind::StridedLayout { .. }
                ) {
                    if unranked {
                        return self.err("cannot have affine map for unranked memref type");
                    }
                    if memory_space.is_some() {
                        return self.err("expected memory space to be last in memref type");
                    }
                    layout = Some(a);
                } else if memory_space.is_some() {
                    return self.err("multiple memory spaces specified in memref type");
                } else {
                    memory_space = Some(a);
                }
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::Greater, "',' or '>'")?;
        }
        if memory_space.is_some_and(|ms| !self.is_memory_space(ms)) {
            return self.err_at(pos, "unsupported memory space Attribute");
        }
        // MLIR drops the default memory space (integer 0) and identity maps.
        if let Some(ms) = memory_space {
            if let AttrKind::Integer { value, .. } = self.ctx.attr_kind(ms) {
                if value == &num_bigint::BigInt::from(0) {
                    memory_space = None;
                }
            }
        }
        if let Some(l) = layout {
            if let AttrKind::StridedLayout { strides, .. } = self.ctx.attr_kind(l) {
                if strides.len() != shape.len() {
                    return self.err_at(pos, "expected the number of strides to match the rank");
                }
            }
            if let AttrKind::AffineMap(m) = self.ctx.attr_kind(l).clone() {
                if m.num_dims as usize != shape.len() {
                    let msg = format!(
                        "memref layout mismatch between rank and affine map: {} != {}",
                        shape.len(),
                        m.num_dims
                    );
                    return self.err_at(pos, msg);
                }
                // Symbols do not matter (MLIR's `AffineMap::isIdentity`).
                let identity = m.results.len() == shape.len()
                    && m.results
                        .iter()
                        .enumerate()
                        .all(|(i, e)| *e == crate::affine::AffineExpr::Dim(i as u32));
                if identity {
                    layout = None;
                }
            }
        }
        if unranked {
            return Ok(self.ctx.intern_type(TypeKind::UnrankedMemRef {
                element,
                memory_space,
            }));
        }
        Ok(self.ctx.intern_type(TypeKind::MemRef {
            shape: shape.into(),
            element,
            layout,
            memory_space,
        }))
    }
}

fn join_dims(shape: &[i64]) -> String {
    shape
        .iter()
        .map(|d| {
            if *d == DYNAMIC {
                "?".to_string()
            } else {
                d.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("x")
}
