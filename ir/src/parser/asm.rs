//! [`AsmParser`]: what a dialect's custom op and attribute parsers see of
//! the parser (MLIR's `OpAsmParser`/`DialectAsmParser`): tokens,
//! keywords, attributes, types, SSA operands resolved with their types,
//! regions, and diagnostics placed as mlir-opt places them.

use super::{PResult, Parser};
use crate::context::{Attr, Context, Symbol, Type};
use crate::graph::{Ir, OpId, OpSpec, RegionId, ValueId};
use crate::lexer::Tok;

/// The parser, as handed to custom parsers.
pub struct AsmParser<'p, 'a> {
    pub(crate) p: &'p mut Parser<'a>,
    /// Where the op (or attribute) being parsed starts.
    start: usize,
    /// The definition of the op being parsed (none for attributes).
    op_def: Option<&'static crate::dialect::OpDef>,
    /// The interned name of the op being parsed.
    op_symbol: Option<crate::context::Symbol>,
    /// Whether the op's regions are isolated from above.
    isolated: bool,
    /// How many result names the op binds.
    bound_results: u32,
    /// The op's first result name, without `%`.
    result_name: Option<&'a str>,
}

/// An SSA operand seen but not yet given a type (`%x`, `%x#1`).
#[derive(Clone, Copy, Debug)]
pub struct UnresolvedOperand<'a> {
    pub name: &'a str,
    pub index: u32,
    /// Byte offset of the reference, for diagnostics.
    pub pos: usize,
}

impl<'p, 'a> AsmParser<'p, 'a> {
    pub(crate) fn new(p: &'p mut Parser<'a>, start: usize, isolated: bool) -> Self {
        let bound_results = p.bound_results;
        let result_name = p.first_result_name;
        AsmParser {
            p,
            start,
            op_def: None,
            op_symbol: None,
            isolated,
            bound_results,
            result_name,
        }
    }

    pub(crate) fn for_op(
        p: &'p mut Parser<'a>,
        start: usize,
        def: &'static crate::dialect::OpDef,
        name: crate::context::Symbol,
    ) -> Self {
        let isolated = def.traits.has(crate::dialect::Traits::ISOLATED_FROM_ABOVE);
        AsmParser {
            op_def: Some(def),
            op_symbol: Some(name),
            ..AsmParser::new(p, start, isolated)
        }
    }

    /// The definition of the op being parsed.
    pub fn op_def(&self) -> Option<&'static crate::dialect::OpDef> {
        self.op_def
    }

    /// The interned name of the op being parsed (none for an attribute).
    pub fn op_symbol(&self) -> Option<crate::context::Symbol> {
        self.op_symbol
    }

    /// The full name of the op being parsed (`dialect.op`; empty for an
    /// attribute).
    pub fn op_name(&self) -> &'static str {
        self.op_def.map_or("", |d| d.name)
    }

    /// The innermost custom op being parsed (for an attribute inside one,
    /// the op it belongs to), as MLIR's "custom op '...'" messages name it.
    pub fn enclosing_op(&self) -> Option<&'static str> {
        self.p.custom_ops.last().copied()
    }

    /// The kind of the current token.
    pub fn peek_kind(&self) -> Tok {
        self.p.kind()
    }

    /// How many results the op's `%name =` bindings name (its result
    /// count when the syntax does not say).
    pub fn num_bound_results(&self) -> usize {
        self.bound_results as usize
    }

    /// The name of the op's first result as written (`r` for `%r = ...`),
    /// for ops that keep their result's name (CIRCT's implicit SSA names).
    pub fn result_name(&self) -> Option<&'a str> {
        self.result_name
    }

    /// The context, to intern types and attributes.
    pub fn ctx(&mut self) -> &mut Context {
        self.p.ctx
    }

    /// The IR being built.
    pub fn ir(&mut self) -> &mut Ir {
        &mut self.p.ir
    }

    /// The context and the IR being built, together (to build ops with
    /// regions while parsing).
    pub fn ctx_and_ir(&mut self) -> (&mut Context, &mut Ir) {
        (self.p.ctx, &mut self.p.ir)
    }

    /// Byte offset of the start of the op (or attribute) being parsed.
    pub fn start_pos(&self) -> usize {
        self.start
    }

    /// Byte offset of the current token.
    pub fn pos(&self) -> usize {
        self.p.tok().start
    }

    /// The location of byte offset `pos` (as an op there would have).
    pub fn loc_at(&mut self, pos: usize) -> Attr {
        self.p.loc_at(pos)
    }

    /// The location of the op being parsed (its name).
    pub fn op_loc(&mut self) -> Attr {
        self.p.loc_at(self.start)
    }

    /// An error at byte offset `pos`.
    pub fn error_at<T>(&mut self, pos: usize, msg: impl Into<String>) -> PResult<T> {
        self.p.err_at(pos, msg)
    }

    /// An error at byte offset `pos` reported as MLIR reports the errors
    /// of a custom op's parser: "custom op 'name' msg" (the enclosing op
    /// for an attribute inside one).
    pub fn custom_error_at<T>(&mut self, pos: usize, msg: impl std::fmt::Display) -> PResult<T> {
        let op = self.op_def.map(|d| d.name).or_else(|| self.enclosing_op());
        match op {
            Some(name) => self.p.err_at(pos, format!("custom op '{name}' {msg}")),
            None => self.p.err_at(pos, msg.to_string()),
        }
    }

    /// An error at the op's name.
    pub fn op_error<T>(&mut self, msg: impl Into<String>) -> PResult<T> {
        self.p.err_at(self.start, msg)
    }

    /// "expected ..." for the current token, placed as MLIR places it.
    pub fn expected<T>(&mut self, what: &str) -> PResult<T> {
        self.p.wrong_token(format!("expected {what}"))
    }

    /// Whether the current token is `k`.
    pub fn peek(&self, k: Tok) -> bool {
        self.p.is(k)
    }

    /// Consumes the current token if it is `k`.
    pub fn eat(&mut self, k: Tok) -> bool {
        self.p.eat(k)
    }

    /// Consumes `k` or reports "expected `what`".
    pub fn expect(&mut self, k: Tok, what: &str) -> PResult<()> {
        self.p.expect(k, what)
    }

    /// Whether the current token is the keyword `kw`.
    pub fn peek_keyword(&self, kw: &str) -> bool {
        self.p.is_keyword(kw)
    }

    /// Consumes the keyword `kw` if it is next.
    pub fn eat_keyword(&mut self, kw: &str) -> bool {
        self.p.eat_keyword(kw)
    }

    /// Consumes the keyword `kw` or reports "expected 'kw'" at the
    /// current token.
    pub fn expect_keyword(&mut self, kw: &str) -> PResult<()> {
        if self.p.eat_keyword(kw) {
            return Ok(());
        }
        // MLIR reports a missing keyword at the token found instead.
        self.p.err(format!("expected '{kw}'"))
    }

    /// The current bare identifier, consumed.
    pub fn parse_keyword(&mut self) -> PResult<&'a str> {
        if !self.p.is(Tok::BareId) {
            // Inside a custom op, MLIR names the op.
            return match self.op_def {
                Some(d) => self.expected("valid keyword").map_err(|mut e| {
                    e.message = format!("custom op '{}' {}", d.name, e.message);
                    e
                }),
                None => self.expected("valid keyword"),
            };
        }
        let s = self.p.text();
        self.p.bump();
        Ok(s)
    }

    /// A non-negative decimal integer that fits in `u64`.
    pub fn parse_u64(&mut self) -> PResult<u64> {
        if !self.p.is(Tok::Integer) {
            return self.expected("integer value");
        }
        let Ok(v) = self.p.text().parse::<u64>() else {
            return self.p.err("integer value too large");
        };
        self.p.bump();
        Ok(v)
    }

    /// Static dimensions each followed by `x` (`4x8x` of `4x8xi32`), up
    /// to the element type, as in builtin shaped types.
    pub fn parse_dimension_list(&mut self) -> PResult<Vec<i64>> {
        self.p.parse_dims(false, false).map(|(shape, _)| shape)
    }

    /// A decimal or hexadecimal integer literal, optionally negative.
    pub fn parse_integer(&mut self) -> PResult<num_bigint::BigInt> {
        let negative = self.p.eat(Tok::Minus);
        if !self.p.is(Tok::Integer) {
            return self.expected("integer value");
        }
        let text = self.p.text();
        let parsed = match text.strip_prefix("0x") {
            Some(hex) => num_bigint::BigInt::parse_bytes(hex.as_bytes(), 16),
            None => num_bigint::BigInt::parse_bytes(text.as_bytes(), 10),
        };
        let Some(v) = parsed else {
            return self.p.err("expected integer value");
        };
        self.p.bump();
        Ok(if negative { -v } else { v })
    }

    /// `@name` if one is next.
    pub fn parse_optional_symbol_name(&mut self) -> PResult<Option<Symbol>> {
        if !self.p.is(Tok::AtId) {
            return Ok(None);
        }
        self.p.parse_symbol_name().map(Some)
    }

    /// `@name`.
    pub fn parse_symbol_name(&mut self) -> PResult<Symbol> {
        if !self.p.is(Tok::AtId) {
            // MLIR reports this at the token found, naming the custom op.
            let msg = "expected valid '@'-identifier for symbol name";
            return match self.op_def {
                Some(d) => self.p.err(format!("custom op '{}' {msg}", d.name)),
                None => self.p.err(msg),
            };
        }
        self.p.parse_symbol_name()
    }

    /// A bare affine map `(d0, d1)[s0] -> (exprs)`, written without
    /// `affine_map<...>`.
    pub fn parse_affine_map(&mut self) -> PResult<Attr> {
        self.p.parse_affine_map_or_set(false)
    }

    /// A string literal's bytes.
    pub fn parse_string(&mut self) -> PResult<Vec<u8>> {
        if !self.p.is(Tok::String) {
            return self.expected("string");
        }
        self.p.parse_string_bytes()
    }

    /// Any attribute.
    pub fn parse_attribute(&mut self) -> PResult<Attr> {
        self.p.parse_attribute(None)
    }

    /// An attribute whose literal takes type `ty` (`dense<[1.0]>` of a
    /// known tensor type).
    pub fn parse_attribute_of_type(&mut self, ty: Type) -> PResult<Attr> {
        self.p.parse_attribute(Some(ty))
    }

    /// The type of the typed dialect attribute being parsed (written
    /// after it, or given by where it appears); see
    /// [`crate::dialect::AttrHooks::type_of`].
    pub fn attr_type(&self) -> Option<Type> {
        self.p.attr_type
    }

    /// Any type.
    pub fn parse_type(&mut self) -> PResult<Type> {
        self.p.parse_type()
    }

    /// `{...}` if one is next and not empty (an argument's or result's
    /// attributes).
    pub fn parse_optional_nonempty_attr_dict(&mut self) -> PResult<Option<Attr>> {
        if !self.peek(Tok::LBrace) {
            return Ok(None);
        }
        let d = self.parse_optional_attr_dict()?;
        Ok((!self.ctx().dict_entries(d).is_empty()).then_some(d))
    }

    /// `{...}` if one is next, else the empty dictionary.
    pub fn parse_optional_attr_dict(&mut self) -> PResult<Attr> {
        if self.p.is(Tok::LBrace) {
            return self.p.parse_attr_dict();
        }
        Ok(self.p.ctx.empty_dict())
    }

    /// `attributes {...}` if next, else the empty dictionary.
    pub fn parse_optional_attr_dict_with_keyword(&mut self) -> PResult<Attr> {
        if self.p.eat_keyword("attributes") {
            return self.p.parse_attr_dict();
        }
        Ok(self.p.ctx.empty_dict())
    }

    /// An attribute of `dialect` written without its `#dialect.` prefix
    /// (`latency<1>` for `#ssp.latency<1>`).
    pub fn parse_dialect_attr(&mut self, dialect: &str) -> PResult<Attr> {
        let start = self.pos();
        self.p.parse_dialect_attr_from_mnemonic(start, dialect)
    }

    /// The attribute an alias defined so far names (`name` without `#`).
    pub fn attr_alias(&self, name: &str) -> Option<Attr> {
        self.p.attr_aliases.get(name).copied()
    }

    /// The type an alias defined so far names (`name` without `!`).
    pub fn type_alias(&self, name: &str) -> Option<Type> {
        self.p.type_aliases.get(name).copied()
    }

    /// The parameters of the `dialect` attribute `mnemonic`, written
    /// without `#dialect.mnemonic` (`<nsw>` for `#arith.overflow<nsw>`).
    pub fn parse_dialect_attr_params(&mut self, dialect: &str, mnemonic: &str) -> PResult<Attr> {
        let start = self.pos();
        self.p.parse_dialect_attr_params(start, dialect, mnemonic)
    }

    /// The text inside a balanced `<...>` that starts at the current
    /// token, consumed with its brackets (for dialect data kept as text).
    pub fn parse_balanced_body(&mut self) -> PResult<String> {
        if !self.p.is(Tok::Less) {
            return self.expected("'<'");
        }
        let start = self.p.tok().start;
        let end = self.p.balanced_body_end(start)?;
        let text = String::from_utf8_lossy(&self.p.src()[start + 1..end - 1]).into_owned();
        self.p.reset_to(end);
        Ok(text)
    }

    /// Parses `elem (, elem)*` up to `close` (consumed); empty allowed.
    pub fn comma_list(
        &mut self,
        close: Tok,
        what: &str,
        mut elem: impl FnMut(&mut AsmParser<'_, 'a>) -> PResult<()>,
    ) -> PResult<()> {
        let (start, op_def, isolated) = (self.start, self.op_def, self.isolated);
        self.p.comma_list(close, what, |p| {
            elem(&mut AsmParser {
                op_def,
                ..AsmParser::new(p, start, isolated)
            })
        })
    }

    /// MLIR's dynamic index list, `[4, %n, 2]` (in parentheses when
    /// `paren`): the SSA values, and the constants with `i64::MIN` (MLIR's
    /// dynamic marker) where a value stands.
    pub fn parse_dynamic_index_list(
        &mut self,
        paren: bool,
    ) -> PResult<(Vec<UnresolvedOperand<'a>>, Vec<i64>)> {
        let (open, close, what) = if paren {
            (Tok::LParen, Tok::RParen, "')'")
        } else {
            (Tok::LSquare, Tok::RSquare, "']'")
        };
        self.expect(open, if paren { "'('" } else { "'['" })?;
        let (mut values, mut statics) = (Vec::new(), Vec::new());
        self.comma_list(close, what, |p| {
            if p.peek(Tok::PercentId) {
                values.push(p.parse_operand()?);
                statics.push(i64::MIN);
            } else {
                let at = p.pos();
                let v = p.parse_integer()?;
                match i64::try_from(&v) {
                    Ok(v) => statics.push(v),
                    Err(_) => return p.error_at(at, "integer value too large"),
                }
            }
            Ok(())
        })?;
        Ok((values, statics))
    }

    /// `%name` or `%name#N`.
    pub fn parse_operand(&mut self) -> PResult<UnresolvedOperand<'a>> {
        let (name, index, pos) = self.p.parse_value_ref()?;
        Ok(UnresolvedOperand { name, index, pos })
    }

    /// `%name`: a value a region argument defines (no `#N` result
    /// number).
    pub fn parse_argument(&mut self) -> PResult<UnresolvedOperand<'a>> {
        let u = self.parse_operand()?;
        let text = &self.p.src()[u.pos + u.name.len()..];
        if text.starts_with(b"#") {
            let at = u.pos + u.name.len();
            return self
                .p
                .err_at(at, "result number not allowed in argument list");
        }
        Ok(u)
    }

    /// `%a, %b, ...`: one or more operands.
    pub fn parse_operand_list(&mut self) -> PResult<Vec<UnresolvedOperand<'a>>> {
        let mut out = vec![self.parse_operand()?];
        while self.p.eat(Tok::Comma) {
            out.push(self.parse_operand()?);
        }
        Ok(out)
    }

    /// `t1, t2, ...`: one or more types.
    pub fn parse_type_list(&mut self) -> PResult<Vec<Type>> {
        let mut out = vec![self.p.parse_type()?];
        while self.p.eat(Tok::Comma) {
            out.push(self.p.parse_type()?);
        }
        Ok(out)
    }

    /// `t1, t2, ...`, or nothing where no type starts (the list of an
    /// op whose custom parser allows zero types).
    pub fn parse_optional_type_list(&mut self) -> PResult<Vec<Type>> {
        let first = match self.p.kind() {
            Tok::LParen | Tok::BangId => self.p.parse_type()?,
            Tok::BareId => match self.p.parse_optional_builtin_type()? {
                Some(t) => t,
                None => return Ok(Vec::new()),
            },
            _ => return Ok(Vec::new()),
        };
        let mut out = vec![first];
        while self.p.eat(Tok::Comma) {
            out.push(self.p.parse_type()?);
        }
        Ok(out)
    }

    /// `t` or `(t1, t2, ...)`: a result type list (after `->`).
    pub fn parse_result_types(&mut self) -> PResult<Vec<Type>> {
        if !self.p.eat(Tok::LParen) {
            return Ok(vec![self.p.parse_type()?]);
        }
        let mut tys = Vec::new();
        self.p.comma_list(Tok::RParen, "')'", |p| {
            tys.push(p.parse_type()?);
            Ok(())
        })?;
        Ok(tys)
    }

    /// `%a, %b : t1, t2`: operands and their types, resolved.
    pub fn parse_typed_operand_list(&mut self) -> PResult<Vec<ValueId>> {
        let refs = self.parse_operand_list()?;
        self.expect(Tok::Colon, "':'")?;
        let tys = self.parse_type_list()?;
        if refs.len() != tys.len() {
            let msg = format!(
                "{} operands present, but expected {}",
                refs.len(),
                tys.len()
            );
            return self.error_at(refs[0].pos, msg);
        }
        refs.into_iter()
            .zip(tys)
            .map(|(u, t)| self.resolve_operand(u, t))
            .collect()
    }

    /// The value `u` names, which must have type `ty` (a forward
    /// reference is resolved when its definition is parsed).
    pub fn resolve_operand(&mut self, u: UnresolvedOperand<'a>, ty: Type) -> PResult<ValueId> {
        self.p.resolve_value(u.name, u.index, u.pos, ty)
    }

    /// `open expr, ... close` over SSA values (`[%i + 1, symbol(%n)]`):
    /// the affine map and its operands, dimensions first.
    pub fn parse_affine_exprs_of_ssa(
        &mut self,
        open: Tok,
        close: Tok,
        close_what: &str,
    ) -> PResult<(Attr, Vec<UnresolvedOperand<'a>>)> {
        let (map, ops) = self.p.parse_affine_exprs_of_ssa(open, close, close_what)?;
        let ops = ops
            .into_iter()
            .map(|(name, index, pos)| UnresolvedOperand { name, index, pos })
            .collect();
        Ok((map, ops))
    }

    /// `(e, max(e, e), ...)`: SSA affine expressions in groups (see
    /// `affine.parallel`); the map, group sizes and operands.
    pub fn parse_affine_groups_of_ssa(
        &mut self,
        kw: &str,
    ) -> PResult<(Attr, Vec<i64>, Vec<UnresolvedOperand<'a>>)> {
        let (map, groups, ops) = self.p.parse_affine_groups_of_ssa(kw)?;
        let ops = ops
            .into_iter()
            .map(|(name, index, pos)| UnresolvedOperand { name, index, pos })
            .collect();
        Ok((map, groups, ops))
    }

    /// The values `ops` name, all of type `index`.
    pub fn resolve_indices(&mut self, ops: &[UnresolvedOperand<'a>]) -> PResult<Vec<ValueId>> {
        let index = self.p.ctx.index_type();
        ops.iter()
            .map(|u| self.resolve_operand(*u, index))
            .collect()
    }

    /// `{ blocks }` into `region`, whose entry block has no arguments.
    pub fn parse_region(&mut self, region: RegionId) -> PResult<()> {
        self.p.parse_region(region, &[], self.isolated)
    }

    /// `{ blocks }` into `region`, whose entry block has the arguments
    /// `args` (named in the op's own syntax, as a function's).
    pub fn parse_region_with_args(
        &mut self,
        region: RegionId,
        args: &[(UnresolvedOperand<'a>, Type)],
    ) -> PResult<()> {
        let mut entry = Vec::with_capacity(args.len());
        for (u, t) in args {
            let loc = self.p.loc_at(u.pos);
            entry.push((u.name, *t, Some(loc), u.pos));
        }
        self.p.parse_region(region, &entry, self.isolated)
    }

    /// An optional trailing `loc(...)` of an argument that is created
    /// later (see [`AsmParser::parse_region_with_located_args`]).
    pub fn parse_optional_location(&mut self) -> PResult<Option<super::PendingLoc>> {
        self.p.parse_optional_pending_loc()
    }

    /// Sets element `index` of `op`'s array attribute `name` to the
    /// location `loc` read with [`AsmParser::parse_optional_location`]
    /// (at the end of the buffer for an alias defined there).
    pub fn set_attr_element_loc(
        &mut self,
        op: OpId,
        name: &str,
        index: usize,
        loc: super::PendingLoc,
    ) {
        self.p.set_attr_element_loc(op, name, index, loc);
    }

    /// Like [`AsmParser::parse_region_with_args`], giving each argument
    /// its `loc(...)` where one was written.
    pub fn parse_region_with_located_args(
        &mut self,
        region: RegionId,
        args: &[(UnresolvedOperand<'a>, Type)],
        locs: Vec<Option<super::PendingLoc>>,
    ) -> PResult<()> {
        self.parse_region_with_args(region, args)?;
        let Some(entry) = self.p.ir.entry_block(region) else {
            return Ok(());
        };
        let values: Vec<_> = self.p.ir.block_args(entry).to_vec();
        for (v, loc) in values.into_iter().zip(locs) {
            if let Some(loc) = loc {
                self.p.set_arg_loc(v, loc);
            }
        }
        Ok(())
    }

    /// `^name`: a successor block (created on first use).
    pub fn parse_successor(&mut self) -> PResult<crate::graph::BlockId> {
        self.p.parse_successor()
    }

    /// Gives each block of `region` that does not end with a terminator an
    /// operand-less `name` op (MLIR's implicit terminators, `scf.yield`),
    /// making an empty region one such block.
    pub fn ensure_terminator(&mut self, region: RegionId, name: &str) {
        let loc = self.op_loc();
        let ir = &mut self.p.ir;
        if ir.region_is_empty(region) {
            let b = ir.create_block();
            ir.append_block(region, b);
        }
        let name = self.p.ctx.sym(name);
        let attrs = self.p.ctx.empty_dict();
        let blocks: Vec<_> = self.p.ir.region_blocks(region).collect();
        for b in blocks {
            let ctx = &*self.p.ctx;
            let ends = self.p.ir.last_op(b).is_some_and(|o| {
                ctx.op_def(self.p.ir.op_name(o))
                    .is_some_and(|d| d.traits.has(crate::dialect::Traits::TERMINATOR))
            });
            if !ends {
                let t = self.p.ir.create_op(OpSpec {
                    name,
                    loc,
                    operands: &[],
                    result_types: &[],
                    successors: &[],
                    regions: &[],
                    attrs,
                    props: None,
                });
                self.p.ir.append_op(b, t);
            }
        }
    }

    /// Creates the op at the op's location.
    pub fn create_op(&mut self, spec: OpSpec<'_>) -> OpId {
        self.p.ir.create_op(spec)
    }
}
