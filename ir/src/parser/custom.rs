//! Custom-form parsing of the builtin ops (`module`,
//! `builtin.unrealized_conversion_cast`) and of the `{-# ... #-}` file
//! metadata section.

use super::{PResult, Parser};
use crate::context::{Attr, Type};
use crate::graph::{OpId, OpSpec};
use crate::lexer::Tok;
use crate::registry::{builtin_op, is_known_dialect, BuiltinOp};
use crate::resources::ResourceEntry;

impl Parser<'_> {
    pub(super) fn parse_custom_op(&mut self) -> PResult<OpId> {
        let pos = self.tok().start;
        let written = self.text().to_string();
        let full = if written.contains('.') {
            written.clone()
        } else {
            format!("builtin.{written}")
        };
        match builtin_op(&full) {
            Some(BuiltinOp::Module) => {
                self.bump();
                self.parse_module(pos)
            }
            Some(BuiltinOp::UnrealizedConversionCast) => {
                self.bump();
                self.parse_unrealized_cast(pos)
            }
            None => {
                let dialect = written.split('.').next().unwrap_or("");
                if written.contains('.') && !is_known_dialect(dialect) {
                    let loc = self.loc_at(pos);
                    return Err(Box::new(
                        crate::diag::Diagnostic::error(
                            loc,
                            format!("Dialect `{dialect}' not found for custom op '{written}' "),
                        )
                        .with_note(loc, "Available dialects: builtin"),
                    ));
                }
                if written.contains('.') {
                    return self.err_at(pos, format!("custom op '{written}' is unknown"));
                }
                self.err_at(
                    pos,
                    format!("custom op '{written}' is unknown (tried 'builtin.{written}' as well)"),
                )
            }
        }
    }

    fn parse_module(&mut self, pos: usize) -> PResult<OpId> {
        let mut props: Vec<(crate::context::Symbol, Attr)> = Vec::new();
        if self.is(Tok::AtId) {
            let name = self.parse_symbol_name()?;
            let text = self.ctx.str(name).as_bytes().to_vec();
            let key = self.ctx.sym("sym_name");
            let v = self.ctx.string_attr(&text);
            props.push((key, v));
        }
        let mut attrs = self.ctx.empty_dict();
        if self.eat_keyword("attributes") {
            let dict = self.parse_attr_dict()?;
            let mut discardable = Vec::new();
            for &(k, v) in self.ctx.dict_entries(dict) {
                if self.ctx.str(k) == "sym_visibility" || self.ctx.str(k) == "sym_name" {
                    props.push((k, v));
                } else {
                    discardable.push((k, v));
                }
            }
            attrs = self.ctx.dict_attr(discardable);
        }
        let region = self.ir.create_region();
        self.parse_region(region, &[], true)?;
        if self.ir.region_is_empty(region) {
            let b = self.ir.create_block();
            self.ir.append_block(region, b);
        }
        let name = self.ctx.sym("builtin.module");
        let loc = self.loc_at(pos);
        let props = if props.is_empty() {
            None
        } else {
            Some(self.ctx.dict_attr(props))
        };
        let op = self.ir.create_op(OpSpec {
            name,
            loc,
            operands: &[],
            result_types: &[],
            successors: &[],
            regions: &[region],
            attrs,
            props,
        });
        self.parse_trailing_loc(op)?;
        Ok(op)
    }

    fn parse_unrealized_cast(&mut self, pos: usize) -> PResult<OpId> {
        let mut refs = Vec::new();
        if self.is(Tok::PercentId) {
            loop {
                let (n, i, p) = self.parse_value_ref()?;
                refs.push((n, i, p));
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::Colon, "':'")?;
        }
        let mut in_types: Vec<Type> = Vec::new();
        if !refs.is_empty() {
            loop {
                in_types.push(self.parse_type()?);
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
        }
        if !self.eat_keyword("to") {
            return self.err("expected 'to'");
        }
        let mut out_types = Vec::new();
        loop {
            out_types.push(self.parse_type()?);
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        let attrs = if self.is(Tok::LBrace) {
            self.parse_attr_dict()?
        } else {
            self.ctx.empty_dict()
        };
        if refs.len() != in_types.len() {
            return self.err_at(
                pos,
                format!(
                    "{} operands present, but expected {}",
                    refs.len(),
                    in_types.len()
                ),
            );
        }
        let mut operands = Vec::new();
        for ((n, i, p), t) in refs.into_iter().zip(in_types) {
            operands.push(self.resolve_value(n, i, p, t)?);
        }
        let name = self.ctx.sym("builtin.unrealized_conversion_cast");
        let loc = self.loc_at(pos);
        let op = self.ir.create_op(OpSpec {
            name,
            loc,
            operands: &operands,
            result_types: &out_types,
            successors: &[],
            regions: &[],
            attrs,
            props: None,
        });
        self.parse_trailing_loc(op)?;
        Ok(op)
    }

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
                let owner = p.metadata_key()?;
                p.expect(Tok::Colon, "':'")?;
                p.expect(Tok::LBrace, "'{'")?;
                p.comma_list(Tok::RBrace, "'}'", |p| {
                    let key = p.metadata_key()?;
                    p.expect(Tok::Colon, "':'")?;
                    let vpos = p.tok().start;
                    let value = match p.kind() {
                        Tok::String | Tok::Integer => p.text().to_string(),
                        Tok::BareId if p.text() == "true" || p.text() == "false" => {
                            p.text().to_string()
                        }
                        _ => return p.err_at(vpos, "expected resource value"),
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
                        if !is_known_dialect(&owner) && !p.ctx.allow_unregistered {
                            return p.err_at(vpos, format!("dialect '{owner}' is unknown"));
                        }
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
