//! A recursive-descent parser for MLIR's textual format: top-level alias
//! definitions and file metadata, generic operations, regions, blocks, SSA
//! names with forward references, and trailing locations.
//!
//! Types and attributes are parsed in the `types` and `attrs` submodules.
//! Parsing stops at the first error, as mlir-opt does.

mod asm;
mod attrs;
mod custom;
mod split;
mod types;

pub use asm::{AsmParser, UnresolvedOperand};
pub(crate) use custom::{parse_module, parse_unrealized_cast};

use crate::attrs::Location;
use crate::context::{Attr, Context, Symbol, Type};
use crate::diag::Diagnostic;
use crate::graph::{BlockId, Ir, OpId, OpSpec, RegionId, ValueDef, ValueId};
use crate::lexer::{lex, Tok, Token};
use crate::resources::Resources;
use rustc_hash::FxHashMap;

/// A parse (or verification) result: the first error as a diagnostic.
pub type PResult<T> = Result<T, Box<Diagnostic>>;

/// How deep types, attributes and regions may nest before the parser
/// gives up (instead of overflowing the stack).
const MAX_DEPTH: u32 = 400;

/// The result of parsing one buffer.
pub struct ParsedModule {
    pub ir: Ir,
    /// The top-level `builtin.module`.
    pub top: OpId,
    /// `{-# dialect_resources #-}` blobs.
    pub resources: Resources,
}

/// Options for parsing.
#[derive(Clone, Copy, Default)]
pub struct ParseOptions {
    /// 1-based line number of the buffer's first line in its file (for
    /// `--split-input-file` chunks).
    pub first_line: u32,
    /// Where the implicit top-level module is (`line:col`); `0:0` when
    /// absent. mlir-opt puts a `--split-input-file` chunk's module just
    /// after the separator that opens the chunk.
    pub implicit_module_loc: Option<(u32, u32)>,
}

/// The values bound to one SSA name, by result index.
enum Slots {
    /// Consecutive value ids (the results of one op, a block argument).
    Run { first: u32, len: u32 },
    /// Any ids: the placeholders of forward uses ([`NO_VALUE`] for holes).
    List(Vec<ValueId>),
}

/// A hole in [`Slots::List`].
const NO_VALUE: ValueId = ValueId(u32::MAX);

impl Slots {
    fn get(&self, i: usize) -> Option<ValueId> {
        match self {
            Slots::Run { first, len } => (i < *len as usize).then(|| ValueId(first + i as u32)),
            Slots::List(v) => v.get(i).copied().filter(|&v| v != NO_VALUE),
        }
    }

    fn into_list(self) -> Vec<ValueId> {
        match self {
            Slots::Run { first, len } => (first..first + len).map(ValueId).collect(),
            Slots::List(v) => v,
        }
    }
}

struct ValueEntry {
    slots: Slots,
    /// Byte offset of the definition, or of the first forward use.
    pos: usize,
    defined: bool,
}

#[derive(Default)]
struct IsolatedScope<'a> {
    values: FxHashMap<&'a str, ValueEntry>,
    /// Names defined in each open region, removed when it closes.
    sub_scopes: Vec<Vec<&'a str>>,
}

struct BlockEntry {
    block: BlockId,
    pos: usize,
    defined: bool,
}

/// Where a deferred location alias must be written once known.
enum LocTarget {
    Op(OpId),
    Arg(ValueId),
    /// Element `index` of the array attribute `name` of an op (a port's
    /// location in a module's `port_locs`, say).
    AttrElement(OpId, crate::context::Symbol, usize),
}

/// A `loc(...)` read before the value it locates exists.
pub enum PendingLoc {
    /// A location.
    Known(Attr),
    /// `loc(#name)` naming an alias not defined yet, at this offset.
    Alias(Box<str>, usize),
}

pub(crate) struct Parser<'a> {
    pub(crate) ctx: &'a mut Context,
    pub(crate) ir: Ir,
    src: &'a [u8],
    /// `src` as text when it is valid UTF-8 (almost always), so token
    /// texts need no per-token validation.
    src_str: Option<&'a str>,
    file: Symbol,
    line_starts: Vec<usize>,
    /// The line of the last [`Parser::loc_at`] query.
    last_line: usize,
    first_line: u32,
    implicit_module_loc: Option<(u32, u32)>,
    tok: Token,
    /// End of the last consumed token.
    prev_end: usize,
    pub(crate) attr_aliases: FxHashMap<Box<str>, Attr>,
    pub(crate) type_aliases: FxHashMap<Box<str>, Type>,
    /// Dialect types parsed through their hooks, by their exact text
    /// (`!llvm.struct<(ptr, i64)>` repeats on every op that uses it).
    pub(crate) dialect_types: FxHashMap<&'a str, Type>,
    scopes: Vec<IsolatedScope<'a>>,
    block_scopes: Vec<FxHashMap<&'a str, BlockEntry>>,
    deferred_locs: Vec<(LocTarget, Box<str>, usize)>,
    /// Where each forward-reference placeholder was first used.
    placeholder_pos: FxHashMap<ValueId, usize>,
    /// `distinct[N]` ids of this buffer mapped to the ids created for them.
    pub(crate) distinct_ids: FxHashMap<String, (u32, Attr)>,
    pub(crate) resources: Resources,
    depth: u32,
    // Scratch stacks shared by nested parses, so that lists need no
    // allocation per op: each user pushes above the current length and
    // truncates back to it when done.
    ref_stack: Vec<(&'a str, u32, usize)>,
    value_stack: Vec<ValueId>,
    pub(crate) type_stack: Vec<Type>,
    pub(crate) entry_stack: Vec<(Symbol, Attr)>,
    /// Generic-op tails (`<{props}> {attrs} : (types) -> types` up to the
    /// end of the line) already parsed, by their exact text: large files
    /// repeat the same few tails, and a tail's meaning does not depend on
    /// where it appears (aliases cannot be redefined).
    tail_cache: FxHashMap<&'a [u8], CachedTail>,
    /// The dialect whose op names may drop their prefix, per enclosing
    /// custom op (`builtin` at the top).
    default_dialects: Vec<&'static str>,
    /// The custom ops being parsed, innermost last.
    pub(crate) custom_ops: Vec<&'static str>,
    /// How many result names the op being parsed binds (`%a, %b:2 =`: 3).
    bound_results: u32,
    /// The first result name the op being parsed binds (`%r` gives `r`).
    pub(crate) first_result_name: Option<&'a str>,
    /// Where the ops parsed on another thread go in (see [`split`]).
    splice: Option<split::Splice>,
    /// While parsing affine expressions over SSA values (`%i + 1`,
    /// `symbol(%n)`), the values met as dimensions and as symbols.
    pub(crate) affine_ssa: Option<AffineSsa<'a>>,
    /// The type of the typed dialect attribute being parsed (written
    /// after it or given by its context), for its dialect's parser.
    pub(crate) attr_type: Option<Type>,
}

/// An SSA use not yet resolved: name, result number, position.
pub(crate) type SsaRef<'a> = (&'a str, u32, usize);

/// SSA values used as affine dimensions and symbols, in order of first
/// use.
#[derive(Default)]
pub(crate) struct AffineSsa<'a> {
    pub(crate) dims: Vec<SsaRef<'a>>,
    pub(crate) syms: Vec<SsaRef<'a>>,
}

/// What a generic-op tail parsed to; `type_off` is the offset of the
/// function type from the tail's start.
#[derive(Clone, Copy)]
struct CachedTail {
    props: Option<Attr>,
    attrs: Attr,
    fty: Type,
    type_off: u32,
}

/// Parses `src` (named `file` in locations) into a module.
pub fn parse(
    ctx: &mut Context,
    file: &str,
    src: &[u8],
    opts: ParseOptions,
) -> Result<ParsedModule, Box<Diagnostic>> {
    if src.len() >= split::MIN_BYTES {
        if let Some(module) = split::parse_in_two(ctx, file, src, opts) {
            return Ok(module);
        }
    }
    let mut p = Parser::new(ctx, file, src, opts);
    let top = p.parse_top_level()?;
    Ok(p.finish(top))
}

/// Parses one attribute written alone in `text` (named `file` in
/// diagnostics), without aliases, as MLIR reads the textual entries of
/// bytecode: the attribute and the number of bytes it spans.
pub fn parse_attribute_text(ctx: &mut Context, file: &str, text: &[u8]) -> PResult<(Attr, usize)> {
    let mut p = Parser::new(ctx, file, text, ParseOptions::default());
    let a = p.parse_attribute(None)?;
    Ok((a, p.prev_end()))
}

/// Parses one type written alone in `text`, as [`parse_attribute_text`].
pub fn parse_type_text(ctx: &mut Context, file: &str, text: &[u8]) -> PResult<(Type, usize)> {
    let mut p = Parser::new(ctx, file, text, ParseOptions::default());
    let t = p.parse_type()?;
    Ok((t, p.prev_end()))
}

impl<'a> Parser<'a> {
    /// A parser at the start of `src`.
    fn new(ctx: &'a mut Context, file: &str, src: &'a [u8], opts: ParseOptions) -> Self {
        let line_starts: Vec<usize> = std::iter::once(0)
            .chain(memchr::memchr_iter(b'\n', src).map(|i| i + 1))
            .collect();
        let file = ctx.sym(file);
        let mut p = Parser {
            ctx,
            ir: Ir::new(),
            src,
            src_str: std::str::from_utf8(src).ok(),
            file,
            line_starts,
            last_line: 0,
            first_line: opts.first_line.max(1),
            implicit_module_loc: opts.implicit_module_loc,
            tok: lex(src, 0),
            prev_end: 0,
            attr_aliases: FxHashMap::default(),
            type_aliases: FxHashMap::default(),
            dialect_types: FxHashMap::default(),
            scopes: vec![IsolatedScope::default()],
            block_scopes: Vec::new(),
            deferred_locs: Vec::new(),
            placeholder_pos: FxHashMap::default(),
            distinct_ids: FxHashMap::default(),
            resources: Resources::default(),
            depth: 0,
            ref_stack: Vec::new(),
            value_stack: Vec::new(),
            type_stack: Vec::new(),
            entry_stack: Vec::new(),
            attr_type: None,
            tail_cache: FxHashMap::default(),
            default_dialects: vec!["builtin"],
            custom_ops: Vec::new(),
            affine_ssa: None,
            bound_results: 0,
            first_result_name: None,
            splice: None,
        };
        // About one op per line: reserving that up front saves copying the
        // arenas as they grow (untouched capacity costs no memory).
        p.ir.reserve(p.line_starts.len());
        p
    }

    /// The parsed module whose top-level op is `top`.
    fn finish(self, top: OpId) -> ParsedModule {
        ParsedModule {
            ir: self.ir,
            top,
            resources: self.resources,
        }
    }
}

impl<'a> Parser<'a> {
    // ----- tokens and errors ----------------------------------------------

    pub(crate) fn tok(&self) -> Token {
        self.tok
    }

    pub(crate) fn kind(&self) -> Tok {
        self.tok.kind
    }

    pub(crate) fn text(&self) -> &'a str {
        let range = self.tok.start..self.tok.end;
        match self.src_str {
            Some(s) => s.get(range).unwrap_or(""),
            None => std::str::from_utf8(&self.src[range]).unwrap_or(""),
        }
    }

    /// The bytes of the current token (valid UTF-8 or not).
    pub(crate) fn token_bytes(&self) -> &'a [u8] {
        &self.src[self.tok.start..self.tok.end]
    }

    pub(crate) fn src(&self) -> &'a [u8] {
        self.src
    }

    /// The source text between two byte offsets, when it is UTF-8.
    pub(crate) fn src_text(&self, start: usize, end: usize) -> Option<&'a str> {
        match self.src_str {
            Some(s) => s.get(start..end),
            None => std::str::from_utf8(self.src.get(start..end)?).ok(),
        }
    }

    /// The end of the last consumed token.
    pub(crate) fn prev_end(&self) -> usize {
        self.prev_end
    }

    pub(crate) fn bump(&mut self) {
        self.prev_end = self.tok.end;
        self.tok = lex(self.src, self.tok.end);
    }

    /// Re-lexes starting at byte `pos` (everything before it consumed).
    pub(crate) fn reset_to(&mut self, pos: usize) {
        self.prev_end = pos;
        self.tok = lex(self.src, pos);
    }

    /// The offset of the end of the line holding `pos`.
    fn line_end(&self, pos: usize) -> usize {
        memchr::memchr(b'\n', &self.src[pos..]).map_or(self.src.len(), |i| pos + i)
    }

    pub(crate) fn is(&self, k: Tok) -> bool {
        self.tok.kind == k
    }

    pub(crate) fn is_keyword(&self, kw: &str) -> bool {
        self.tok.kind == Tok::BareId && self.text() == kw
    }

    pub(crate) fn eat(&mut self, k: Tok) -> bool {
        if self.tok.kind == k {
            self.bump();
            true
        } else {
            false
        }
    }

    pub(crate) fn eat_keyword(&mut self, kw: &str) -> bool {
        if self.is_keyword(kw) {
            self.bump();
            true
        } else {
            false
        }
    }

    /// A location attribute for byte offset `pos`.
    pub(crate) fn loc_at(&mut self, pos: usize) -> Attr {
        // Ops are mostly located in source order: scan forward from the
        // last line found before falling back to a binary search.
        let starts = &self.line_starts;
        let mut line = self.last_line;
        if starts[line] > pos || starts.get(line + 8).is_some_and(|&s| s <= pos) {
            line = match starts.binary_search(&pos) {
                Ok(i) => i,
                Err(i) => i - 1,
            };
        } else {
            while starts.get(line + 1).is_some_and(|&s| s <= pos) {
                line += 1;
            }
        }
        self.last_line = line;
        let col = pos - self.line_starts[line] + 1;
        self.ctx
            .file_loc(self.file, line as u32 + self.first_line, col as u32)
    }

    /// MLIR's complaint about `loc(#alias)` naming an attribute that is
    /// not a location.
    fn not_a_location<T>(&mut self, pos: usize, attr: Attr) -> PResult<T> {
        let text = crate::printer::attr_to_string(self.ctx, attr);
        self.err_at(pos, format!("expected location, but found '{text}'"))
    }

    pub(crate) fn err_at<T>(&mut self, pos: usize, msg: impl Into<String>) -> PResult<T> {
        let loc = self.loc_at(pos);
        Err(Box::new(Diagnostic::error(loc, msg)))
    }

    /// Reports `msg` at the current token; when that token is malformed,
    /// the lexer's complaint about it instead, as MLIR's lexer reports it
    /// before the parser can.
    pub(crate) fn err<T>(&mut self, msg: impl Into<String>) -> PResult<T> {
        if let Some((pos, lexer_msg)) = self.lexer_error() {
            return self.err_at(pos, lexer_msg);
        }
        // The end of input is reported on the character before it.
        let mut pos = self.tok.start;
        if self.tok.kind == Tok::Eof {
            pos = pos.saturating_sub(1);
        }
        self.err_at(pos, msg)
    }

    /// What is wrong with the current token if it is an error token.
    fn lexer_error(&self) -> Option<(usize, &'static str)> {
        if self.tok.kind != Tok::Error {
            return None;
        }
        let start = self.tok.start;
        let unterminated = (self.line_end(start), "expected '\"' in string literal");
        Some(match self.src[start] {
            b'%' => (start, "invalid SSA name"),
            b'^' => (start, "invalid block name"),
            b'!' => (start, "invalid type identifier"),
            b'#' => (start, "invalid attribute name"),
            b'"' => unterminated,
            b'@' if self.src.get(start + 1) == Some(&b'"') => unterminated,
            b'@' => (
                start + 1,
                "@ identifier expected to start with letter or '_'",
            ),
            b'.' => (start + 1, "expected three consecutive dots for an ellipsis"),
            _ => return None,
        })
    }

    pub(crate) fn expect(&mut self, k: Tok, what: &str) -> PResult<()> {
        if self.eat(k) {
            Ok(())
        } else {
            self.wrong_token(format!("expected {what}"))
        }
    }

    /// Reports that the current token is not what was expected. Like MLIR,
    /// a token that starts a new line is blamed on the end of the last
    /// code before it (skipping blank lines and `//` comments), where
    /// the missing piece belongs.
    pub(crate) fn wrong_token<T>(&mut self, msg: impl Into<String>) -> PResult<T> {
        if let Some((pos, lexer_msg)) = self.lexer_error() {
            return self.err_at(pos, lexer_msg);
        }
        let mut at = self.tok.start;
        if self.tok.kind == Tok::Eof {
            at = at.saturating_sub(1);
        }
        let pos = self.end_of_code_before(at).unwrap_or(at);
        self.err_at(pos, msg)
    }

    /// Where the code before `at` ends: `at` itself unless only blanks
    /// separate it from the start of its line, else the end of the last
    /// earlier line with code (before its `//` comment, if any). `None`
    /// when no code precedes `at`.
    fn end_of_code_before(&self, at: usize) -> Option<usize> {
        let src = self.src;
        let mut end = at.min(src.len());
        loop {
            while end > 0 && matches!(src[end - 1], b' ' | b'\t') {
                end -= 1;
            }
            if end == 0 {
                return None;
            }
            if !matches!(src[end - 1], b'\n' | b'\r') {
                return Some(end);
            }
            end -= 1;
            let line_start = memchr::memrchr2(b'\n', b'\r', &src[..end]).map_or(0, |i| i + 1);
            if let Some(c) = memchr::memmem::find(&src[line_start..end], b"//") {
                end = line_start + c;
            }
        }
    }

    pub(crate) fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return self.err("nesting is too deep");
        }
        Ok(())
    }

    pub(crate) fn leave(&mut self) {
        self.depth -= 1;
    }

    /// Parses `elem (, elem)*` up to `close` (which is consumed); an empty
    /// list is allowed.
    pub(crate) fn comma_list(
        &mut self,
        close: Tok,
        what: &str,
        mut elem: impl FnMut(&mut Self) -> PResult<()>,
    ) -> PResult<()> {
        if self.eat(close) {
            return Ok(());
        }
        loop {
            elem(self)?;
            if self.eat(Tok::Comma) {
                continue;
            }
            return self.expect(close, what);
        }
    }

    // ----- top level --------------------------------------------------------

    fn parse_top_level(&mut self) -> PResult<OpId> {
        let block = self.ir.create_block();
        self.block_scopes.push(FxHashMap::default());
        self.scopes[0].sub_scopes.push(Vec::new());
        loop {
            match self.kind() {
                Tok::Eof => break,
                Tok::HashId | Tok::BangId => self.parse_alias_definition()?,
                Tok::FileMetadataBegin => self.parse_file_metadata()?,
                _ if self.splice_due() => self.splice_in(block)?,
                _ => {
                    let op = self.parse_operation()?;
                    self.ir.append_op(block, op);
                }
            }
        }
        self.finish_scope_checks()?;
        self.resolve_deferred_locs()?;
        let module = self.ctx.sym("builtin.module");
        let ops: Vec<OpId> = self.ir.block_ops(block).collect();
        if ops.len() == 1 && self.ir.op_name(ops[0]) == module {
            self.ir.detach_op(ops[0]);
            return Ok(ops[0]);
        }
        let loc = {
            let file = self.file;
            let (line, col) = self.implicit_module_loc.unwrap_or((0, 0));
            self.ctx.loc(Location::File {
                file,
                line,
                col,
                end: None,
            })
        };
        let attrs = self.ctx.empty_dict();
        let region = self.ir.create_region();
        let top = self.ir.create_op(OpSpec {
            name: module,
            loc,
            operands: &[],
            result_types: &[],
            successors: &[],
            regions: &[region],
            attrs,
            props: None,
        });
        let body = self.ir.create_block();
        self.ir.append_block(region, body);
        for op in ops {
            self.ir.detach_op(op);
            self.ir.append_op(body, op);
        }
        Ok(top)
    }

    /// Reports forward references to values that were never defined.
    fn finish_scope_checks(&mut self) -> PResult<()> {
        let scope = self.scopes.pop().unwrap_or_default();
        let undefined = scope
            .values
            .iter()
            .filter(|(_, e)| !e.defined)
            .map(|(_, e)| e.pos)
            .min();
        if let Some(pos) = undefined {
            return self.err_at(pos, "use of undeclared SSA value name");
        }
        let blocks = self.block_scopes.pop().unwrap_or_default();
        if let Some(pos) = blocks.values().filter(|b| !b.defined).map(|b| b.pos).min() {
            return self.err_at(pos, "reference to an undefined block");
        }
        Ok(())
    }

    fn parse_alias_definition(&mut self) -> PResult<()> {
        let is_type = self.is(Tok::BangId);
        let name_pos = self.tok.start;
        let name: Box<str> = self.text()[1..].into();
        if name.bytes().next().is_some_and(|b| b.is_ascii_digit()) {
            return self.err("expected identifier after '#' or '!' in alias definition");
        }
        if name.contains('.') {
            let kind = if is_type { "type" } else { "attribute" };
            return self.err(format!(
                "{kind} names with a '.' are reserved for dialect-defined names"
            ));
        }
        self.bump();
        if is_type {
            self.expect(Tok::Equal, "'=' in type alias definition")?;
        } else {
            self.expect(Tok::Equal, "'=' in attribute alias definition")?;
        }
        if is_type {
            if self.type_aliases.contains_key(&name) {
                return self.err_at(name_pos, format!("redefinition of type alias id '{name}'"));
            }
            let ty = self.parse_type()?;
            self.type_aliases.insert(name, ty);
        } else {
            if self.attr_aliases.contains_key(&name) {
                return self.err_at(
                    name_pos,
                    format!("redefinition of attribute alias id '{name}'"),
                );
            }
            let attr = self.parse_attribute(None)?;
            self.attr_aliases.insert(name, attr);
        }
        Ok(())
    }

    fn resolve_deferred_locs(&mut self) -> PResult<()> {
        for (target, name, pos) in std::mem::take(&mut self.deferred_locs) {
            let Some(&attr) = self.attr_aliases.get(&name) else {
                return self.err_at(pos, "operation location alias was never defined");
            };
            if !self.ctx.is_location(attr) {
                return self.not_a_location(pos, attr);
            }
            match target {
                LocTarget::Op(op) => self.ir.set_op_loc(op, attr),
                LocTarget::Arg(v) => self.ir.set_value_loc(v, attr),
                LocTarget::AttrElement(op, name, index) => {
                    self.set_attr_element(op, name, index, attr)
                }
            }
        }
        Ok(())
    }

    // ----- SSA values ------------------------------------------------------

    /// Parses `%name` or `%name#N` and returns (name, result index, pos).
    pub(crate) fn parse_value_ref(&mut self) -> PResult<(&'a str, u32, usize)> {
        if !self.is(Tok::PercentId) {
            return self.wrong_token("expected SSA operand");
        }
        let pos = self.tok.start;
        let name = self.text();
        self.bump();
        let mut index = 0;
        if self.is(Tok::HashId) {
            let t = &self.text()[1..];
            match t.parse::<u32>() {
                Ok(n) if t.bytes().all(|b| b.is_ascii_digit()) => index = n,
                _ => return self.err("invalid SSA value result number"),
            }
            self.bump();
        }
        Ok((name, index, pos))
    }

    /// Resolves a use of `name#index` with type `ty`.
    pub(crate) fn resolve_value(
        &mut self,
        name: &'a str,
        index: u32,
        pos: usize,
        ty: Type,
    ) -> PResult<ValueId> {
        let scope = self.scopes.last_mut().expect("scope");
        if let Some(entry) = scope.values.get_mut(name) {
            if entry.defined {
                let Some(v) = entry.slots.get(index as usize) else {
                    let msg = "reference to invalid result number";
                    return self.err_at(pos, msg);
                };
                let vt = self.ir.value_type(v);
                if vt != ty {
                    let prior = entry.pos;
                    return self.type_mismatch(name, pos, ty, vt, prior);
                }
                return Ok(v);
            }
            if let Some(v) = entry.slots.get(index as usize) {
                let vt = self.ir.value_type(v);
                if vt != ty {
                    let prior = self.placeholder_pos.get(&v).copied().unwrap_or(entry.pos);
                    return self.type_mismatch(name, pos, ty, vt, prior);
                }
                return Ok(v);
            }
        }
        // A forward reference.
        let placeholder = self.ir.create_placeholder(ty);
        self.placeholder_pos.insert(placeholder, pos);
        let scope = self.scopes.last_mut().expect("scope");
        let entry = scope.values.entry(name).or_insert(ValueEntry {
            slots: Slots::List(Vec::new()),
            pos,
            defined: false,
        });
        // Names not defined yet always hold a list of placeholders.
        if let Slots::List(list) = &mut entry.slots {
            let i = index as usize;
            if list.len() <= i {
                list.resize(i + 1, NO_VALUE);
            }
            list[i] = placeholder;
        }
        Ok(placeholder)
    }

    fn type_mismatch<T>(
        &mut self,
        name: &str,
        pos: usize,
        expected: Type,
        prior: Type,
        prior_pos: usize,
    ) -> PResult<T> {
        let a = crate::printer::type_to_string(self.ctx, expected);
        let b = crate::printer::type_to_string(self.ctx, prior);
        let loc = self.loc_at(pos);
        let prior_loc = self.loc_at(prior_pos);
        let msg =
            format!("use of value '{name}' expects different type than prior uses: '{a}' vs '{b}'");
        Err(Box::new(
            Diagnostic::error(loc, msg).with_note(prior_loc, "prior use here"),
        ))
    }

    /// Binds `name` to the `count` values from `first` on (results of an op
    /// or a block argument).
    fn define_values(
        &mut self,
        name: &'a str,
        pos: usize,
        first: ValueId,
        count: u32,
    ) -> PResult<()> {
        let run = Slots::Run {
            first: first.0,
            len: count,
        };
        let scope = self.scopes.last_mut().expect("scope");
        if let Some(entry) = scope.values.get_mut(name) {
            if entry.defined {
                let prev = entry.pos;
                let loc = self.loc_at(pos);
                let prev_loc = self.loc_at(prev);
                return Err(Box::new(
                    Diagnostic::error(loc, format!("redefinition of SSA value '{name}'"))
                        .with_note(prev_loc, "previously defined here"),
                ));
            }
            let values = std::mem::replace(&mut entry.slots, run);
            let placeholders = values.into_list();
            entry.defined = true;
            entry.pos = pos;
            for (i, ph) in placeholders.into_iter().enumerate() {
                if ph == NO_VALUE {
                    continue;
                }
                let Some(v) = (i < count as usize).then(|| ValueId(first.0 + i as u32)) else {
                    let use_pos = self.placeholder_pos.get(&ph).copied().unwrap_or(pos);
                    return self.err_at(use_pos, "reference to invalid result number");
                };
                let (pt, vt) = (self.ir.value_type(ph), self.ir.value_type(v));
                if pt != vt {
                    let use_pos = self.placeholder_pos.get(&ph).copied().unwrap_or(pos);
                    let a = crate::printer::type_to_string(self.ctx, vt);
                    let b = crate::printer::type_to_string(self.ctx, pt);
                    let loc = self.loc_at(pos);
                    let use_loc = self.loc_at(use_pos);
                    return Err(Box::new(
                        Diagnostic::error(
                            loc,
                            format!("definition of SSA value '{name}#{i}' has type '{a}'"),
                        )
                        .with_note(use_loc, format!("previously used here with type '{b}'")),
                    ));
                }
                self.ir.replace_all_uses(ph, v);
            }
        } else {
            scope.values.insert(
                name,
                ValueEntry {
                    slots: run,
                    pos,
                    defined: true,
                },
            );
        }
        if let Some(sub) = self.scopes.last_mut().and_then(|s| s.sub_scopes.last_mut()) {
            sub.push(name);
        }
        Ok(())
    }

    fn push_region_scope(&mut self, isolated: bool) {
        if isolated {
            self.scopes.push(IsolatedScope::default());
        }
        self.scopes
            .last_mut()
            .expect("scope")
            .sub_scopes
            .push(Vec::new());
        self.block_scopes.push(FxHashMap::default());
    }

    fn pop_region_scope(&mut self, isolated: bool) -> PResult<()> {
        let blocks = self.block_scopes.pop().unwrap_or_default();
        if let Some(pos) = blocks.values().filter(|b| !b.defined).map(|b| b.pos).min() {
            return self.err_at(pos, "reference to an undefined block");
        }
        if isolated {
            let scope = self.scopes.pop().unwrap_or_default();
            if let Some(pos) = scope
                .values
                .values()
                .filter(|e| !e.defined)
                .map(|e| e.pos)
                .min()
            {
                return self.err_at(pos, "use of undeclared SSA value name");
            }
            return Ok(());
        }
        let scope = self.scopes.last_mut().expect("scope");
        let names = scope.sub_scopes.pop().unwrap_or_default();
        for n in names {
            scope.values.remove(n);
        }
        Ok(())
    }

    // ----- operations ------------------------------------------------------

    /// Parses one operation (with its result bindings and trailing
    /// location) and returns it detached.
    pub(crate) fn parse_operation(&mut self) -> PResult<OpId> {
        let start = self.tok.start;
        let mut bindings: smallvec::SmallVec<[(&'a str, u32, usize); 2]> = Default::default();
        if self.is(Tok::PercentId) {
            loop {
                if !self.is(Tok::PercentId) {
                    return self.err("expected valid ssa identifier");
                }
                let pos = self.tok.start;
                let name = self.text();
                self.bump();
                let mut count = 1;
                if self.eat(Tok::Colon) {
                    let ok = self.is(Tok::Integer) && !self.text().starts_with("0x");
                    let n = if ok {
                        self.text().parse::<u32>().ok()
                    } else {
                        None
                    };
                    match n {
                        Some(n) if n >= 1 => count = n,
                        Some(_) => {
                            return self.err("expected named operation to have at least 1 result")
                        }
                        _ => return self.err("expected integer number of results"),
                    }
                    self.bump();
                }
                bindings.push((name, count, pos));
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::Equal, "'=' after SSA name")?;
        }
        self.bound_results = bindings.iter().map(|b| b.1).sum();
        self.first_result_name = bindings.first().map(|b| b.0.trim_start_matches('%'));
        let op = match self.kind() {
            Tok::String => self.parse_generic_op()?,
            // `i32` is an integer type token to MLIR, never an op name.
            Tok::BareId if is_int_type_name(self.text()) => {
                return self.wrong_token("expected operation name in quotes")
            }
            Tok::BareId => self.parse_custom_op()?,
            _ => return self.wrong_token("expected operation name in quotes"),
        };
        let expected: u32 = bindings.iter().map(|b| b.1).sum();
        let num_results = self.ir.num_results(op) as u32;
        if !bindings.is_empty() && num_results == 0 {
            return self.err_at(start, "cannot name an operation with no results");
        }
        if !bindings.is_empty() && expected != num_results {
            return self.err_at(
                start,
                format!(
                    "operation defines {num_results} results but was provided {expected} to bind"
                ),
            );
        }
        let mut next = 0usize;
        for (name, count, pos) in bindings {
            let first = self.ir.result(op, next);
            next += count as usize;
            self.define_values(name, pos, first, count)?;
        }
        Ok(op)
    }

    /// Parses an optional trailing `loc(...)` and applies it to `op`.
    pub(crate) fn parse_trailing_loc(&mut self, op: OpId) -> PResult<()> {
        if let Some(loc) = self.parse_optional_loc(LocTarget::Op(op))? {
            self.ir.set_op_loc(op, loc);
        }
        Ok(())
    }

    fn parse_optional_loc(&mut self, target: LocTarget) -> PResult<Option<Attr>> {
        Ok(match self.parse_optional_pending_loc()? {
            None => None,
            Some(PendingLoc::Known(loc)) => Some(loc),
            Some(PendingLoc::Alias(name, pos)) => {
                self.deferred_locs.push((target, name, pos));
                None
            }
        })
    }

    /// `loc(...)`, if present; an alias not yet defined is left pending.
    pub(crate) fn parse_optional_pending_loc(&mut self) -> PResult<Option<PendingLoc>> {
        if !self.is_keyword("loc") {
            return Ok(None);
        }
        self.bump();
        self.expect(Tok::LParen, "'(' in location")?;
        if self.is(Tok::HashId) {
            let pos = self.tok.start;
            let name: Box<str> = self.text()[1..].into();
            self.bump();
            self.expect(Tok::RParen, "')' in location")?;
            return match self.attr_aliases.get(&name) {
                Some(&a) if self.ctx.is_location(a) => Ok(Some(PendingLoc::Known(a))),
                Some(&a) => self.not_a_location(pos, a),
                None => Ok(Some(PendingLoc::Alias(name, pos))),
            };
        }
        let loc = self.parse_location_body()?;
        self.expect(Tok::RParen, "')' in location")?;
        Ok(Some(PendingLoc::Known(loc)))
    }

    /// Replaces element `index` of `op`'s array attribute `name`.
    fn set_attr_element(
        &mut self,
        op: OpId,
        name: crate::context::Symbol,
        index: usize,
        value: Attr,
    ) {
        let mut entries = self.ctx.dict_entries(self.ir.op_attrs(op)).to_vec();
        for (k, v) in entries.iter_mut() {
            if *k != name {
                continue;
            }
            if let crate::attrs::AttrKind::Array(items) = self.ctx.attr_kind(*v) {
                let mut items = items.to_vec();
                if let Some(slot) = items.get_mut(index) {
                    *slot = value;
                }
                *v = self.ctx.array_attr(&items);
            }
        }
        let dict = self.ctx.dict_attr(entries);
        self.ir.set_op_attrs(op, dict);
    }

    /// Element `index` of `op`'s array attribute `name` becomes `loc`
    /// (now or, for an alias not yet defined, at the end of the buffer).
    pub(crate) fn set_attr_element_loc(
        &mut self,
        op: OpId,
        name: &str,
        index: usize,
        loc: PendingLoc,
    ) {
        let name = self.ctx.sym(name);
        match loc {
            PendingLoc::Known(loc) => self.set_attr_element(op, name, index, loc),
            PendingLoc::Alias(alias, pos) => {
                self.deferred_locs
                    .push((LocTarget::AttrElement(op, name, index), alias, pos))
            }
        }
    }

    /// Gives block argument `v` the location `loc` (now or, for an alias
    /// not yet defined, at the end of the buffer).
    pub(crate) fn set_arg_loc(&mut self, v: ValueId, loc: PendingLoc) {
        match loc {
            PendingLoc::Known(loc) => self.ir.set_value_loc(v, loc),
            PendingLoc::Alias(name, pos) => self.deferred_locs.push((LocTarget::Arg(v), name, pos)),
        }
    }

    fn parse_generic_op(&mut self) -> PResult<OpId> {
        let name_pos = self.tok.start;
        let raw = self.token_bytes();
        let inner = raw.get(1..raw.len().saturating_sub(1)).unwrap_or_default();
        // Names without escapes (nearly all) are borrowed from the source.
        let name_str: std::borrow::Cow<'a, str> = match std::str::from_utf8(inner) {
            Ok(s) if !s.contains('\\') => s.into(),
            _ => {
                let Ok(bytes) = crate::lexer::unescape(raw) else {
                    return self.err("invalid escape sequence in string");
                };
                let Ok(name) = String::from_utf8(bytes) else {
                    return self.err("expected valid UTF-8 operation name");
                };
                name.into()
            }
        };
        if name_str.is_empty() {
            return self.err("empty operation name is invalid");
        }
        self.bump();
        let name = self.ctx.sym(&name_str);
        // An unknown op of a registered dialect is kept: the verifier
        // rejects it, as MLIR's does.
        if self.ctx.op_def(name).is_none() && !self.ctx.allow_unregistered {
            let dialect = name_str.split('.').next().unwrap_or("");
            if self.ctx.dialect(dialect).is_none() || !name_str.contains('.') {
                return self.err(
                    "operation being parsed with an unregistered dialect. If this is intended, please use -allow-unregistered-dialect with the MLIR tool used",
                );
            }
        }
        // Operands.
        self.expect(Tok::LParen, "'(' to start operand list")?;
        let refs_base = self.ref_stack.len();
        let r = self.parse_generic_op_rest(name, name_pos, refs_base);
        self.ref_stack.truncate(refs_base);
        r
    }

    /// The rest of a generic op after `name(`; operand references go on
    /// `ref_stack` above `refs_base`.
    fn parse_generic_op_rest(
        &mut self,
        name: Symbol,
        name_pos: usize,
        refs_base: usize,
    ) -> PResult<OpId> {
        if self.is(Tok::PercentId) {
            loop {
                let r = self.parse_value_ref()?;
                self.ref_stack.push(r);
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
        }
        self.expect(Tok::RParen, "')' to end operand list")?;
        // Successors.
        let mut successors = Vec::new();
        if self.is(Tok::LSquare) {
            let def = self.ctx.op_def(name);
            if def.is_some_and(|d| !d.traits.has(crate::dialect::Traits::TERMINATOR)) {
                return self.err("successors in non-terminator");
            }
        }
        if self.eat(Tok::LSquare) {
            self.comma_list(Tok::RSquare, "']' in successor list", |p| {
                let b = p.parse_successor()?;
                successors.push(b);
                Ok(())
            })?;
        }
        let mut regions = Vec::new();
        let (tail, type_pos) = match self.cached_tail() {
            Some(hit) => hit,
            None => self.parse_generic_tail(&mut regions)?,
        };
        let (props, attrs, fty) = (tail.props, tail.attrs, tail.fty);
        if let Some(props) = props.filter(|_| self.ctx.has_dynamic_dialects()) {
            let op_name = self.ctx.str(name);
            let dialect = op_name.split('.').next().unwrap_or("");
            if self.ctx.is_dynamic_dialect(dialect) {
                let shown = crate::printer::attr_to_string(self.ctx, props);
                let msg = format!("invalid properties {shown} for op {op_name}: extensible Dialects don't support properties");
                return self.err_at(name_pos, msg);
            }
        }
        let num_inputs = match self.ctx.type_kind(fty) {
            crate::types::TypeKind::Function { inputs, .. } => inputs.len(),
            _ => return self.err_at(type_pos, "expected function type"),
        };
        let num_refs = self.ref_stack.len() - refs_base;
        if num_inputs != num_refs {
            return self.err_at(
                type_pos,
                format!(
                    "expected {num_refs} operand type{} but had {num_inputs}",
                    if num_refs == 1 { " " } else { "s" },
                ),
            );
        }
        let values_base = self.value_stack.len();
        for i in 0..num_refs {
            let (n, index, pos) = self.ref_stack[refs_base + i];
            let ty = self.ctx.function_inputs(fty)[i];
            let v = self.resolve_value(n, index, pos, ty)?;
            self.value_stack.push(v);
        }
        let loc = self.loc_at(name_pos);
        let op = self.ir.create_op(OpSpec {
            name,
            loc,
            operands: &self.value_stack[values_base..],
            result_types: self.ctx.function_results(fty),
            successors: &successors,
            regions: &regions,
            attrs,
            props,
        });
        self.value_stack.truncate(values_base);
        crate::dialect::normalize_inherent(self.ctx, &mut self.ir, op);
        self.parse_trailing_loc(op)?;
        Ok(op)
    }

    /// The tail of a generic op starting at the current token, with the
    /// position of its function type, when the same text up to the end of
    /// the line was parsed before; the parser then goes on at the next
    /// line.
    fn cached_tail(&mut self) -> Option<(CachedTail, usize)> {
        if !matches!(self.tok.kind, Tok::Less | Tok::LBrace | Tok::Colon) {
            return None;
        }
        let start = self.tok.start;
        let end = self.line_end(start);
        let tail = *self.tail_cache.get(&self.src[start..end])?;
        self.reset_to(end);
        Some((tail, start + tail.type_off as usize))
    }

    /// Parses `<{props}>? (regions)? {attrs}? : type` of a generic op,
    /// creating the regions into `regions`; returns them with the position
    /// of the function type. What follows the regions (or the whole tail
    /// when there are none) is looked up in and added to the tail cache.
    fn parse_generic_tail(&mut self, regions: &mut Vec<RegionId>) -> PResult<(CachedTail, usize)> {
        let mut start = self.tok.start;
        let mut references = self.resources.referenced.len();
        let mut props = None;
        if self.is(Tok::Less) {
            self.bump();
            props = Some(self.parse_attribute(None)?);
            self.expect(Tok::Greater, "'>' to close properties")?;
        }
        if self.eat(Tok::LParen) {
            loop {
                let r = self.ir.create_region();
                self.parse_region(r, &[], false)?;
                regions.push(r);
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::RParen, "')' to end region list")?;
            start = self.tok.start;
            references = self.resources.referenced.len();
            if let Some((tail, type_pos)) = self.cached_tail() {
                return Ok((CachedTail { props, ..tail }, type_pos));
            }
        }
        let attrs = if self.is(Tok::LBrace) {
            self.parse_attr_dict()?
        } else {
            self.ctx.empty_dict()
        };
        self.expect(Tok::Colon, "':' followed by operation type")?;
        let type_pos = self.tok.start;
        let fty = self.parse_type()?;
        let tail = CachedTail {
            props,
            attrs,
            fty,
            type_off: 0,
        };
        // After regions, the cached text starts past the properties: a
        // hit must not bring them along.
        let cached = CachedTail {
            props: if regions.is_empty() { props } else { None },
            ..tail
        };
        self.remember_tail(start, cached, type_pos, references);
        Ok((tail, type_pos))
    }

    /// Adds the tail parsed from `start` to the cache when it ends its
    /// line and parsing it had no side effect a cache hit would miss.
    fn remember_tail(
        &mut self,
        start: usize,
        tail: CachedTail,
        type_pos: usize,
        references: usize,
    ) {
        let end = self.line_end(start);
        if self.prev_end <= end
            && self.tok.start > end
            && self.resources.referenced.len() == references
            && u32::try_from(type_pos - start).is_ok()
        {
            let type_off = (type_pos - start) as u32;
            self.tail_cache
                .insert(&self.src[start..end], CachedTail { type_off, ..tail });
        }
    }

    pub(crate) fn parse_successor(&mut self) -> PResult<BlockId> {
        if !self.is(Tok::CaretId) {
            return self.err("expected block name");
        }
        let pos = self.tok.start;
        let name = self.text();
        self.bump();
        Ok(self.block_ref(name, pos, false))
    }

    /// The block named `name` in the current region, created on first use.
    fn block_ref(&mut self, name: &'a str, pos: usize, defining: bool) -> BlockId {
        let scope = self.block_scopes.last_mut().expect("block scope");
        if let Some(e) = scope.get_mut(name) {
            return e.block;
        }
        let block = self.ir.create_block();
        let scope = self.block_scopes.last_mut().expect("block scope");
        scope.insert(
            name,
            BlockEntry {
                block,
                pos,
                defined: defining,
            },
        );
        block
    }

    /// Parses `{ blocks }` into `region`. `entry_args` are pre-declared
    /// arguments of the entry block (custom ops such as functions).
    pub(crate) fn parse_region(
        &mut self,
        region: RegionId,
        entry_args: &[(&'a str, Type, Option<Attr>, usize)],
        isolated: bool,
    ) -> PResult<()> {
        self.enter()?;
        self.expect(Tok::LBrace, "'{' to begin a region")?;
        self.push_region_scope(isolated);
        if !entry_args.is_empty() || !(self.is(Tok::RBrace) || self.is(Tok::CaretId)) {
            let entry = self.ir.create_block();
            for (name, ty, loc, pos) in entry_args {
                // A name the enclosing isolated scope has seen (defined or
                // used ahead of its definition) cannot name an argument.
                let seen = self.scopes.last().and_then(|s| s.values.get(name));
                if let Some(prev) = seen.map(|e| e.pos) {
                    let msg = format!("region entry argument '{name}' is already in use");
                    let (at, prev) = (self.loc_at(*pos), self.loc_at(prev));
                    return Err(Box::new(
                        Diagnostic::error(at, msg).with_note(prev, "previously referenced here"),
                    ));
                }
                let v = self.ir.add_block_arg(entry, *ty, *loc);
                self.define_values(name, *pos, v, 1)?;
            }
            self.ir.append_block(region, entry);
            if !entry_args.is_empty() && self.is(Tok::CaretId) {
                return self.err("invalid block name in region with named arguments");
            }
            self.parse_block_body(entry)?;
        }
        while self.is(Tok::CaretId) {
            let pos = self.tok.start;
            let name = self.text();
            self.bump();
            let scope = self.block_scopes.last_mut().expect("block scope");
            let block = match scope.get_mut(name) {
                Some(e) if e.defined => {
                    return self.err_at(pos, format!("redefinition of block '{name}'"));
                }
                Some(e) => {
                    e.defined = true;
                    e.pos = pos;
                    e.block
                }
                None => self.block_ref(name, pos, true),
            };
            self.ir.append_block(region, block);
            if self.eat(Tok::LParen) {
                self.comma_list(Tok::RParen, "')' to end argument list", |p| {
                    let (n, idx, vpos) = p.parse_value_ref()?;
                    if idx != 0 || p.src()[vpos..].starts_with(b"#") {
                        return p.err_at(vpos, "expected block argument name");
                    }
                    p.expect(Tok::Colon, "':' and type for SSA operand")?;
                    let ty = p.parse_type()?;
                    let arg_loc = p.loc_at(vpos);
                    let v = p.ir.add_block_arg(block, ty, Some(arg_loc));
                    if let Some(loc) = p.parse_optional_loc(LocTarget::Arg(v))? {
                        p.ir.set_value_loc(v, loc);
                    }
                    p.define_values(n, vpos, v, 1)
                })?;
            }
            self.expect(Tok::Colon, "':' after block name")?;
            self.parse_block_body(block)?;
        }
        self.expect(Tok::RBrace, "'}' to end region")?;
        self.pop_region_scope(isolated)?;
        self.leave();
        Ok(())
    }

    fn parse_block_body(&mut self, block: BlockId) -> PResult<()> {
        // At the end of input MLIR goes on to parse an op, and fails there.
        while !matches!(self.kind(), Tok::CaretId | Tok::RBrace) {
            if self.splice_due() {
                self.splice_in(block)?;
                continue;
            }
            let op = self.parse_operation()?;
            self.ir.append_op(block, op);
        }
        Ok(())
    }
}

impl Ir {
    /// Whether `v` is an unresolved parser placeholder.
    pub fn is_placeholder(&self, v: ValueId) -> bool {
        self.value_def(v) == ValueDef::Placeholder
    }
}

/// Whether `name` spells an integer type (`i32`, `si8`, `ui16`).
fn is_int_type_name(name: &str) -> bool {
    let digits = name
        .strip_prefix("si")
        .or_else(|| name.strip_prefix("ui"))
        .or_else(|| name.strip_prefix('i'));
    digits.is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
}
