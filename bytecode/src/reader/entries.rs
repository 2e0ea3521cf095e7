//! The attribute and type table: entries located through the offset
//! section, decoded when first referenced (builtin ones from their
//! encoding, others from their text), each once.

use super::Reader;
use crate::builtin::read::{read_attr, read_type, Source};
use crate::encoding::{Cursor, DResult, DecodeError};
use silica_ir::{Attr, AttrKind, Context, Symbol, Type, TypeKind};

/// How deep attribute and type entries may refer to each other while
/// being decoded.
const MAX_DEPTH: u32 = 400;

/// Where an entry is in the section and how it is encoded.
#[derive(Clone, Copy)]
struct Entry {
    start: u32,
    len: u32,
    /// The dialect's index, shifted left once; the low bit says whether
    /// the entry has a dialect encoding (else it is text).
    dialect_custom: u32,
}

/// Resolution state of an entry.
#[derive(Clone, Copy, PartialEq, Eq)]
enum State<T> {
    Pending,
    /// Being decoded: a reference to it now is a cycle.
    Busy,
    Done(T),
}

#[derive(Default, Clone)]
pub(super) struct Entries<'a> {
    /// The section's data.
    data: &'a [u8],
    /// Where it starts in the file.
    base: usize,
    attrs: Vec<Entry>,
    types: Vec<Entry>,
    attr_state: Vec<State<Attr>>,
    type_state: Vec<State<Type>>,
    /// The symbol of each string attribute asked for as one (file names,
    /// dictionary keys), once found.
    symbols: Vec<Option<Symbol>>,
    depth: u32,
}

impl<'a> Entries<'a> {
    /// Locates the entries of the attribute/type section from the offset
    /// section (entry sizes grouped by dialect).
    pub(super) fn new(data: Cursor<'a>, mut offsets: Cursor<'a>, dialects: usize) -> DResult<Self> {
        let num_attrs = offsets.count(1, "attribute")?;
        let num_types = offsets.count(1, "type")?;
        let base = data.offset();
        let mut data = data;
        let mut start = 0u64;
        let section = data;
        let mut read_group = |out: &mut Vec<Entry>, total: usize| -> DResult<()> {
            while out.len() < total {
                let at = offsets.offset();
                let dialect = offsets.varint()?;
                if dialect as usize >= dialects {
                    return Err(DecodeError::new(
                        at,
                        format!("invalid dialect index: {dialect}"),
                    ));
                }
                let n = offsets.varint()?;
                if n > (total - out.len()) as u64 {
                    return Err(offsets.error("more attribute or type entries than declared"));
                }
                for _ in 0..n {
                    let (size, custom) = offsets.varint_flag()?;
                    if size > data.remaining() as u64 {
                        return Err(offsets.error(
                            "Attribute or Type entry offset points past the end of section",
                        ));
                    }
                    data.skip(size)?;
                    out.push(Entry {
                        start: start as u32,
                        len: size as u32,
                        dialect_custom: ((dialect as u32) << 1) | u32::from(custom),
                    });
                    start += size;
                }
            }
            Ok(())
        };
        let mut attrs = Vec::with_capacity(num_attrs);
        read_group(&mut attrs, num_attrs)?;
        let mut types = Vec::with_capacity(num_types);
        read_group(&mut types, num_types)?;
        if !offsets.is_empty() {
            return Err(
                offsets.error("unexpected trailing data in the Attribute/Type offset section")
            );
        }
        let mut section = section;
        Ok(Entries {
            data: section.rest(),
            base,
            attr_state: vec![State::Pending; attrs.len()],
            type_state: vec![State::Pending; types.len()],
            symbols: vec![None; attrs.len()],
            attrs,
            types,
            depth: 0,
        })
    }
}

impl<'a> Reader<'a, '_> {
    /// Attribute `i`, decoded on first use.
    pub(super) fn attr_at(&mut self, at: usize, i: u64) -> DResult<Attr> {
        let i = i as usize;
        match self.entries.attr_state.get(i) {
            Some(State::Done(a)) => return Ok(*a),
            Some(State::Pending) => {}
            Some(State::Busy) => {
                return Err(DecodeError::new(
                    at,
                    format!("attribute {i} refers to itself"),
                ))
            }
            None => {
                return Err(DecodeError::new(
                    at,
                    format!("invalid Attribute index: {i}"),
                ))
            }
        }
        let entry = self.entries.attrs[i];
        self.enter(at)?;
        self.entries.attr_state[i] = State::Busy;
        let a = self.decode(entry, true).map(|d| d.0);
        self.entries.depth -= 1;
        let a = a?;
        self.entries.attr_state[i] = State::Done(a);
        Ok(a)
    }

    /// Type `i`, decoded on first use.
    pub(super) fn type_at(&mut self, at: usize, i: u64) -> DResult<Type> {
        let i = i as usize;
        match self.entries.type_state.get(i) {
            Some(State::Done(t)) => return Ok(*t),
            Some(State::Pending) => {}
            Some(State::Busy) => {
                return Err(DecodeError::new(at, format!("type {i} refers to itself")))
            }
            None => return Err(DecodeError::new(at, format!("invalid Type index: {i}"))),
        }
        let entry = self.entries.types[i];
        self.enter(at)?;
        self.entries.type_state[i] = State::Busy;
        let t = self.decode(entry, false).map(|d| d.1);
        self.entries.depth -= 1;
        let t = t?;
        self.entries.type_state[i] = State::Done(t);
        Ok(t)
    }

    fn enter(&mut self, at: usize) -> DResult<()> {
        if self.entries.depth >= MAX_DEPTH {
            return Err(DecodeError::new(at, "attributes and types nest too deeply"));
        }
        self.entries.depth += 1;
        Ok(())
    }

    /// Decodes an entry as an attribute (`is_attr`) or a type; the other
    /// half of the pair is a placeholder.
    fn decode(&mut self, entry: Entry, is_attr: bool) -> DResult<(Attr, Type)> {
        let (start, end) = (entry.start as usize, (entry.start + entry.len) as usize);
        let mut c = Cursor::new(&self.entries.data[start..end], self.entries.base + start);
        let what = if is_attr { "Attribute" } else { "Type" };
        let placeholder = (self.ctx.unit_attr(), self.ctx.index_type());
        let dialect = (entry.dialect_custom >> 1) as usize;
        if entry.dialect_custom & 1 == 1 {
            self.load_dialect(c.offset(), dialect)?;
            if is_attr && self.dialects[dialect].llvm {
                let a = crate::llvm::read_attr(self, &mut c)?;
                if !c.is_empty() {
                    return Err(c.error(format!("unexpected trailing bytes after {what} entry")));
                }
                return Ok((a, placeholder.1));
            }
            if !self.dialects[dialect].builtin {
                let name = self.dialects[dialect].name;
                return Err(c.error(format!(
                    "dialect '{name}' does not implement the bytecode interface"
                )));
            }
            let out = if is_attr {
                (read_attr(self, &mut c)?, placeholder.1)
            } else {
                (placeholder.0, read_type(self, &mut c)?)
            };
            if !c.is_empty() {
                return Err(c.error(format!("unexpected trailing bytes after {what} entry")));
            }
            return Ok(out);
        }
        let at = c.offset();
        let text = c.cstr()?;
        if !c.is_empty() {
            return Err(c.error(format!("unexpected trailing bytes after {what} entry")));
        }
        let file = self.ctx.str(self.file).to_string();
        let parsed = if is_attr {
            silica_ir::parser::parse_attribute_text(self.ctx, &file, text)
                .map(|(a, n)| ((a, placeholder.1), n))
        } else {
            silica_ir::parser::parse_type_text(self.ctx, &file, text)
                .map(|(t, n)| ((placeholder.0, t), n))
        };
        let (out, used) = parsed.map_err(|d| {
            DecodeError::new(
                at,
                format!(
                    "{what} '{}' does not parse: {}",
                    String::from_utf8_lossy(text),
                    d.message
                ),
            )
        })?;
        if used != text.len() {
            return Err(DecodeError::new(
                at,
                format!(
                    "trailing characters found after {what} assembly format: {}",
                    String::from_utf8_lossy(&text[used..])
                ),
            ));
        }
        Ok(out)
    }
}

impl<'a> Source<'a> for Reader<'a, '_> {
    fn ctx(&mut self) -> &mut Context {
        self.ctx
    }

    fn attr(&mut self, c: &mut Cursor<'a>) -> DResult<Attr> {
        let at = c.offset();
        let i = c.varint()?;
        self.attr_at(at, i)
    }

    fn optional_attr(&mut self, c: &mut Cursor<'a>) -> DResult<Option<Attr>> {
        let at = c.offset();
        match c.varint_flag()? {
            (i, true) => self.attr_at(at, i).map(Some),
            // As MLIR reads it: without the flag, absent whatever the rest.
            (_, false) => Ok(None),
        }
    }

    fn ty(&mut self, c: &mut Cursor<'a>) -> DResult<Type> {
        let at = c.offset();
        let i = c.varint()?;
        self.type_at(at, i)
    }

    fn string(&mut self, c: &mut Cursor<'a>) -> DResult<&'a [u8]> {
        Reader::string(self, c)
    }

    fn symbol(&mut self, c: &mut Cursor<'a>) -> DResult<Symbol> {
        let at = c.offset();
        let i = c.varint()?;
        if let Some(Some(s)) = self.entries.symbols.get(i as usize) {
            return Ok(*s);
        }
        let a = self.attr_at(at, i)?;
        let ctx = &mut *self.ctx;
        let text = match ctx.attr_kind(a) {
            AttrKind::String { value, ty }
                if ty.is_none_or(|t| ctx.type_kind(t) == &TypeKind::None) =>
            {
                std::str::from_utf8(value).ok().map(str::to_owned)
            }
            _ => None,
        };
        let Some(text) = text else {
            return Err(DecodeError::new(at, "expected a UTF-8 string attribute"));
        };
        let s = ctx.sym(&text);
        self.entries.symbols[i as usize] = Some(s);
        Ok(s)
    }

    fn resource(&mut self, c: &mut Cursor<'a>) -> DResult<Symbol> {
        let at = c.offset();
        let i = c.varint()?;
        self.resource_handles
            .get(i as usize)
            .copied()
            .ok_or_else(|| DecodeError::new(at, format!("invalid resource handle index: {i}")))
    }
}
