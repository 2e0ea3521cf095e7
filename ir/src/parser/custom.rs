//! Custom-form parsing of the builtin ops (`module`,
//! `builtin.unrealized_conversion_cast`) and of the `{-# ... #-}` file
//! metadata section.

use super::{AsmParser, PResult, Parser};
use crate::context::{Attr, Type};
use crate::graph::{OpId, OpSpec};
use crate::lexer::Tok;
use crate::resources::ResourceEntry;

impl Parser<'_> {
    /// Parses an op in its custom form: the name (a registered op, or one
    /// of the default dialect with its prefix left off), then the op's own
    /// syntax through its definition's parser, then a trailing location.
    pub(super) fn parse_custom_op(&mut self) -> PResult<OpId> {
        let pos = self.tok().start;
        let written = self.text();
        let default = self.default_dialects.last().copied().unwrap_or("");
        let name = if written.contains('.') {
            self.ctx.lookup_sym(written)
        } else if default.is_empty() {
            None
        } else {
            self.ctx.lookup_sym(&format!("{default}.{written}"))
        };
        let Some((name, def)) = name.and_then(|n| Some((n, self.ctx.op_def(n)?))) else {
            return self.unknown_custom_op(pos, written, default);
        };
        let Some(parse) = def.parse else {
            return self.err_at(
                pos,
                format!("custom op '{written}' has no custom assembly form; write it in the generic form"),
            );
        };
        self.bump();
        self.default_dialects.push(def.default_dialect);
        self.custom_ops.push(def.name);
        let op = parse(&mut AsmParser::for_op(self, pos, def, name));
        self.custom_ops.pop();
        self.default_dialects.pop();
        let op = op?;
        self.parse_trailing_loc(op)?;
        Ok(op)
    }

    fn unknown_custom_op(&mut self, pos: usize, written: &str, default: &str) -> PResult<OpId> {
        if let Some((dialect, _)) = written.split_once('.') {
            if self.ctx.dialect(dialect).is_none() {
                let loc = self.loc_at(pos);
                let available = self.ctx.dialect_names().join(", ");
                return Err(Box::new(
                    crate::diag::Diagnostic::error(
                        loc,
                        format!("Dialect `{dialect}' not found for custom op '{written}' "),
                    )
                    .with_note(loc, format!("Available dialects: {available}")),
                ));
            }
            return self.err_at(pos, format!("custom op '{written}' is unknown"));
        }
        if default.is_empty() {
            return self.err_at(pos, format!("custom op '{written}' is unknown"));
        }
        self.err_at(
            pos,
            format!("custom op '{written}' is unknown (tried '{default}.{written}' as well)"),
        )
    }
}

/// `module @name attributes {...} { ... }`
pub(crate) fn parse_module(ap: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let pos = ap.start_pos();
    let p = &mut *ap.p;
    let mut props: Vec<(crate::context::Symbol, Attr)> = Vec::new();
    if p.is(Tok::AtId) {
        let name = p.parse_symbol_name()?;
        let text = p.ctx.str(name).as_bytes().to_vec();
        let key = p.ctx.sym("sym_name");
        let v = p.ctx.string_attr(&text);
        props.push((key, v));
    }
    let mut attrs = p.ctx.empty_dict();
    if p.eat_keyword("attributes") {
        let dict = p.parse_attr_dict()?;
        let mut discardable = Vec::new();
        for &(k, v) in p.ctx.dict_entries(dict) {
            if p.ctx.str(k) == "sym_visibility" || p.ctx.str(k) == "sym_name" {
                props.push((k, v));
            } else {
                discardable.push((k, v));
            }
        }
        attrs = p.ctx.dict_attr(discardable);
    }
    let region = p.ir.create_region();
    p.parse_region(region, &[], true)?;
    if p.ir.region_is_empty(region) {
        let b = p.ir.create_block();
        p.ir.append_block(region, b);
    }
    let name = p.ctx.sym("builtin.module");
    let loc = p.loc_at(pos);
    let props = if props.is_empty() {
        None
    } else {
        Some(p.ctx.dict_attr(props))
    };
    Ok(p.ir.create_op(OpSpec {
        name,
        loc,
        operands: &[],
        result_types: &[],
        successors: &[],
        regions: &[region],
        attrs,
        props,
    }))
}

/// `unrealized_conversion_cast %a, %b : t1, t2 to t3 {attrs}`
pub(crate) fn parse_unrealized_cast(ap: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let pos = ap.start_pos();
    let p = &mut *ap.p;
    let mut refs = Vec::new();
    if p.is(Tok::PercentId) {
        loop {
            let (n, i, vp) = p.parse_value_ref()?;
            refs.push((n, i, vp));
            if !p.eat(Tok::Comma) {
                break;
            }
        }
        p.expect(Tok::Colon, "':'")?;
    }
    let mut in_types: Vec<Type> = Vec::new();
    if !refs.is_empty() {
        loop {
            in_types.push(p.parse_type()?);
            if !p.eat(Tok::Comma) {
                break;
            }
        }
    }
    if !p.eat_keyword("to") {
        return p.err("expected 'to'");
    }
    let mut out_types = Vec::new();
    loop {
        out_types.push(p.parse_type()?);
        if !p.eat(Tok::Comma) {
            break;
        }
    }
    let attrs = if p.is(Tok::LBrace) {
        p.parse_attr_dict()?
    } else {
        p.ctx.empty_dict()
    };
    if refs.len() != in_types.len() {
        return p.err_at(
            pos,
            format!(
                "{} operands present, but expected {}",
                refs.len(),
                in_types.len()
            ),
        );
    }
    let mut operands = Vec::new();
    for ((n, i, vp), t) in refs.into_iter().zip(in_types) {
        operands.push(p.resolve_value(n, i, vp, t)?);
    }
    let name = p.ctx.sym("builtin.unrealized_conversion_cast");
    let loc = p.loc_at(pos);
    Ok(p.ir.create_op(OpSpec {
        name,
        loc,
        operands: &operands,
        result_types: &out_types,
        successors: &[],
        regions: &[],
        attrs,
        props: None,
    }))
}

impl Parser<'_> {
    /// Parses `{-# section: { owner: { key: value, ... } }, ... #-}`.
    pub(super) fn parse_file_metadata(&mut self) -> PResult<()> {
        self.bump(); // {-#
        loop {
            if self.eat(Tok::FileMetadataEnd) {
                return Ok(());
            }
            if !self.is(Tok::BareId) {
                return self.err("expected identifier key in file metadata dictionary");
            }
            let section = self.text().to_string();
            let spos = self.tok().start;
            self.bump();
            self.expect(Tok::Colon, "':'")?;
            let external = match section.as_str() {
                "dialect_resources" => false,
                "external_resources" => true,
                _ => {
                    return self.err_at(
                        spos,
                        format!("unknown key '{section}' in file metadata dictionary"),
                    )
                }
            };
            self.expect(Tok::LBrace, "'{'")?;
            self.comma_list(Tok::RBrace, "'}'", |p| {
                let owner_pos = p.tok().start;
                let owner = p.metadata_key()?;
                p.expect(Tok::Colon, "':'")?;
                p.expect(Tok::LBrace, "'{'")?;
                if !external {
                    // Only builtin holds resources (dense_resource blobs).
                    if p.ctx.dialect(&owner).is_none() {
                        return p.err_at(owner_pos, format!("dialect '{owner}' is unknown"));
                    }
                    if owner != "builtin" {
                        return p.err(format!(
                            "unexpected 'resource' section for dialect '{owner}'"
                        ));
                    }
                }
                p.comma_list(Tok::RBrace, "'}'", |p| {
                    let key = p.metadata_key()?;
                    p.expect(Tok::Colon, "':'")?;
                    let vpos = p.tok().start;
                    let value = if external {
                        match p.kind() {
                            Tok::String | Tok::Integer => p.text().to_string(),
                            Tok::BareId if p.text() == "true" || p.text() == "false" => {
                                p.text().to_string()
                            }
                            _ => return p.err_at(vpos, "expected resource value"),
                        }
                    } else {
                        p.check_blob(&key)?;
                        p.text().to_string()
                    };
                    p.bump();
                    let entry = ResourceEntry {
                        owner: owner.clone(),
                        key,
                        value,
                    };
                    if external {
                        p.resources.external.push(entry);
                    } else {
                        p.resources.dialect.push(entry);
                    }
                    Ok(())
                })
            })?;
            if !self.eat(Tok::Comma) {
                self.expect(Tok::FileMetadataEnd, "'#-}'")?;
                return Ok(());
            }
        }
    }

    /// Checks that the current token is a blob as MLIR writes one: a
    /// `"0x..."` hex string whose first 4 bytes give a power-of-2 (or
    /// zero) alignment, little-endian.
    fn check_blob(&mut self, key: &str) -> PResult<()> {
        let bytes = if self.is(Tok::String) {
            let s = self.token_bytes();
            s[1..s.len() - 1]
                .strip_prefix(b"0x")
                .filter(|h| h.len() % 2 == 0 && h.iter().all(u8::is_ascii_hexdigit))
                .map(|h| h.len() / 2)
        } else {
            None
        };
        let msg = match bytes {
            None => format!("expected hex string blob for key '{key}'"),
            Some(n) if n < 4 => {
                format!(
                    "expected hex string blob for key '{key}' to encode alignment in first 4 bytes"
                )
            }
            Some(_) => {
                let hex = &self.token_bytes()[3..11];
                let digit = |i: usize| (hex[i] as char).to_digit(16).unwrap_or(0);
                let align = (0..4).fold(0u32, |acc, i| {
                    acc | ((digit(2 * i) << 4 | digit(2 * i + 1)) << (8 * i))
                });
                if align == 0 || align.is_power_of_two() {
                    return Ok(());
                }
                format!("expected hex string blob for key '{key}' to encode alignment in first 4 bytes, but got non-power-of-2 value: {align}")
            }
        };
        let pos = self.tok().start;
        self.err_at(pos, msg)
    }

    fn metadata_key(&mut self) -> PResult<String> {
        match self.kind() {
            Tok::BareId => {
                let s = self.text().to_string();
                self.bump();
                Ok(s)
            }
            Tok::String => {
                let b = self.parse_string_bytes()?;
                Ok(String::from_utf8_lossy(&b).into_owned())
            }
            _ => self.err("expected identifier key for 'resource' entry"),
        }
    }
}
