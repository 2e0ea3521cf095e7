//! Reads a bytecode file into a module, as MLIR 22's `BytecodeReader`
//! does: the header, then every section, then the IR section op by op.
//! Any version from 0 to 6 is read. Damaged input is an error at the
//! byte where it was found, never a panic.

mod entries;
mod ir;
mod parallel;
mod resources;
mod use_lists;

use crate::encoding::{section, version, Cursor, DResult, DecodeError, MAGIC};
use crate::properties::Layouts;
use silica_ir::parser::ParsedModule;
use silica_ir::resources::Resources;
use silica_ir::{Attr, Context, Diagnostic, Ir, OpId, Symbol};

/// A dialect named in the dialect section.
#[derive(Clone)]
struct DialectEntry<'a> {
    name: &'a str,
    /// Whether it is `builtin` (whose encodings silica reads).
    builtin: bool,
    /// Whether it is `llvm` (whose loop annotations' encoding silica
    /// reads).
    llvm: bool,
    /// Checked to be usable (registered, or unregistered ones allowed).
    loaded: bool,
}

/// An op name of the dialect section.
#[derive(Clone)]
struct OpNameEntry<'a> {
    dialect: usize,
    name: &'a [u8],
    /// Whether the writer had the op registered (from version 5 on).
    was_registered: Option<bool>,
    resolved: Option<Symbol>,
}

/// What a reader knows of a file, but for the context: a second thread
/// reads with it.
struct Parts<'a> {
    file: Symbol,
    version: u64,
    strings: Vec<&'a [u8]>,
    dialects: Vec<DialectEntry<'a>>,
    op_names: Vec<OpNameEntry<'a>>,
    entries: entries::Entries<'a>,
    resource_handles: Vec<Symbol>,
    properties: Vec<Cursor<'a>>,
}

/// The state of one read.
pub(crate) struct Reader<'a, 'c> {
    ctx: &'c mut Context,
    /// The file's name, in locations and diagnostics.
    file: Symbol,
    version: u64,
    strings: Vec<&'a [u8]>,
    dialects: Vec<DialectEntry<'a>>,
    op_names: Vec<OpNameEntry<'a>>,
    entries: entries::Entries<'a>,
    /// The dialect resources, by handle index: their keys.
    resource_handles: Vec<Symbol>,
    /// The properties entries, by index.
    properties: Vec<Cursor<'a>>,
    layouts: Layouts,
}

/// Reads the bytecode in `bytes` (named `file` in diagnostics) into a
/// module: a `builtin.module` holding what the file holds.
pub fn read(ctx: &mut Context, file: &str, bytes: &[u8]) -> Result<ParsedModule, Box<Diagnostic>> {
    let file_sym = ctx.sym(file);
    let loc = ctx.file_loc(file_sym, 0, 0);
    let mut producer = None;
    let mut version = None;
    let result = read_inner(
        ctx,
        file_sym,
        loc,
        bytes,
        false,
        &mut version,
        &mut producer,
    )
    .and_then(|lazy| lazy.finish_inner());
    result.map_err(|e| diagnostic(loc, &e, version, producer.as_deref()))
}

/// Reads the bytecode in `bytes` as [`read`] does, but leaves the regions
/// of isolated ops that the file puts in sections of their own (from
/// version 2 on: functions, modules and the like) unread until
/// [`LazyModule::materialize`] or [`LazyModule::finish`] asks for them,
/// as MLIR's lazy loading does.
pub fn read_lazy<'a, 'c>(
    ctx: &'c mut Context,
    file: &str,
    bytes: &'a [u8],
) -> Result<LazyModule<'a, 'c>, Box<Diagnostic>> {
    let file_sym = ctx.sym(file);
    let loc = ctx.file_loc(file_sym, 0, 0);
    let mut producer = None;
    let mut version = None;
    read_inner(ctx, file_sym, loc, bytes, true, &mut version, &mut producer)
        .map_err(|e| diagnostic(loc, &e, version, producer.as_deref()))
}

/// The error `e` as a diagnostic at the file, with the file's version
/// and producer when they were read.
fn diagnostic(
    loc: Attr,
    e: &DecodeError,
    version: Option<u64>,
    producer: Option<&str>,
) -> Box<Diagnostic> {
    let mut d = Diagnostic::error(loc, format!("{} (at byte {})", e.message(), e.offset()));
    if let (Some(v), Some(p)) = (version, producer) {
        d = d.with_note(loc, format!("in bytecode version {v} produced by: {p}"));
    }
    Box::new(d)
}

/// A module read by [`read_lazy`]: its IR is there but for the regions
/// of the [pending](LazyModule::pending) ops, each empty until read.
pub struct LazyModule<'a, 'c> {
    reader: Reader<'a, 'c>,
    st: ir::IrState<'a>,
    top: OpId,
    resources: Resources,
    /// Where errors are: the file.
    loc: Attr,
    version: u64,
    producer: String,
}

impl<'a, 'c> LazyModule<'a, 'c> {
    /// The IR read so far.
    pub fn ir(&self) -> &Ir {
        &self.st.ir
    }

    /// The top-level `builtin.module`.
    pub fn top(&self) -> OpId {
        self.top
    }

    /// The context the module is read into.
    pub fn context(&self) -> &Context {
        self.reader.ctx
    }

    /// The ops whose regions are not read yet, in the order of the file.
    pub fn pending(&self) -> impl Iterator<Item = OpId> + '_ {
        self.st.pending.iter().map(|p| p.op)
    }

    /// Whether `op`'s regions are left to read.
    pub fn is_pending(&self, op: OpId) -> bool {
        self.st.pending.iter().any(|p| p.op == op)
    }

    /// Reads the regions of `op` if they are pending (the isolated ops
    /// they hold become pending in turn); nothing otherwise.
    pub fn materialize(&mut self, op: OpId) -> Result<(), Box<Diagnostic>> {
        let Some(i) = self.st.pending.iter().position(|p| p.op == op) else {
            return Ok(());
        };
        self.reader
            .materialize(&mut self.st, i)
            .map_err(|e| self.error(&e))
    }

    /// Reads every pending region and returns the whole module.
    pub fn finish(self) -> Result<ParsedModule, Box<Diagnostic>> {
        let (loc, version, producer) = (self.loc, self.version, self.producer.clone());
        self.finish_inner()
            .map_err(|e| diagnostic(loc, &e, Some(version), Some(&producer)))
    }

    fn finish_inner(mut self) -> DResult<ParsedModule> {
        self.reader.read_pending_in_two(&mut self.st)?;
        while !self.st.pending.is_empty() {
            self.reader.materialize(&mut self.st, 0)?;
        }
        let mut resources = self.resources;
        resources.referenced = self.reader.referenced_resources();
        Ok(ParsedModule {
            ir: self.st.ir,
            top: self.top,
            resources,
        })
    }

    fn error(&self, e: &DecodeError) -> Box<Diagnostic> {
        diagnostic(self.loc, e, Some(self.version), Some(&self.producer))
    }
}

fn read_inner<'a, 'c>(
    ctx: &'c mut Context,
    file: Symbol,
    loc: Attr,
    bytes: &'a [u8],
    lazy: bool,
    version_out: &mut Option<u64>,
    producer_out: &mut Option<String>,
) -> DResult<LazyModule<'a, 'c>> {
    let mut c = Cursor::new(bytes, 0);
    if !bytes.starts_with(MAGIC) {
        return Err(c.error("input buffer is not an MLIR bytecode file"));
    }
    c.skip(4)?;
    let version_at = c.offset();
    let v = c.varint()?;
    if v > version::CURRENT {
        return Err(DecodeError::new(
            version_at,
            format!(
                "bytecode version {v} is newer than the current version {}",
                version::CURRENT
            ),
        ));
    }
    let producer = c.cstr()?;
    *version_out = Some(v);
    *producer_out = Some(String::from_utf8_lossy(producer).into_owned());

    let mut sections: [Option<Cursor<'_>>; section::COUNT] = Default::default();
    while !c.is_empty() {
        let at = c.offset();
        let (id, data) = c.section()?;
        if sections[id as usize].is_some() {
            return Err(DecodeError::new(
                at,
                format!("duplicate top-level section: {}", section::name(id)),
            ));
        }
        sections[id as usize] = Some(data);
    }
    for (id, s) in sections.iter().enumerate() {
        let optional = match id as u8 {
            section::RESOURCE | section::RESOURCE_OFFSET | section::DIALECT_VERSIONS => true,
            section::PROPERTIES => v < version::NATIVE_PROPERTIES,
            _ => false,
        };
        if s.is_none() && !optional {
            return Err(c.error(format!(
                "missing data for top-level section: {}",
                section::name(id as u8)
            )));
        }
    }
    let take = |id: u8| sections[id as usize].expect("checked above");
    let mut r = Reader {
        ctx,
        file,
        version: v,
        strings: Vec::new(),
        dialects: Vec::new(),
        op_names: Vec::new(),
        entries: entries::Entries::default(),
        resource_handles: Vec::new(),
        properties: Vec::new(),
        layouts: Layouts::default(),
    };
    r.strings = read_strings(take(section::STRING))?;
    if let Some(p) = sections[section::PROPERTIES as usize] {
        r.properties = read_properties(p)?;
    }
    r.read_dialects(take(section::DIALECT))?;
    let resources = match (
        sections[section::RESOURCE as usize],
        sections[section::RESOURCE_OFFSET as usize],
    ) {
        (Some(data), Some(offsets)) => r.read_resources(data, offsets)?,
        (None, None) => Default::default(),
        (Some(d), None) => {
            return Err(d.error("expected resource offset section when resource section is present"))
        }
        (None, Some(o)) => {
            return Err(
                o.error("unexpected resource offset section when resource section is not present")
            )
        }
    };
    r.entries = entries::Entries::new(
        take(section::ATTR_TYPE),
        take(section::ATTR_TYPE_OFFSET),
        r.dialects.len(),
    )?;
    // Reading at once (`!lazy`) reads isolated regions after the ops
    // around them (so that large modules read on two threads), their ops'
    // locations with them.
    let (st, top) = r.read_ir(take(section::IR), true, !lazy)?;
    Ok(LazyModule {
        reader: r,
        st,
        top,
        resources,
        loc,
        version: v,
        producer: producer_out.clone().unwrap_or_default(),
    })
}

impl<'a, 'c> Reader<'a, 'c> {
    /// A copy of what this reader knows, but for the context.
    fn parts(&self) -> Parts<'a> {
        Parts {
            file: self.file,
            version: self.version,
            strings: self.strings.clone(),
            dialects: self.dialects.clone(),
            op_names: self.op_names.clone(),
            entries: self.entries.clone(),
            resource_handles: self.resource_handles.clone(),
            properties: self.properties.clone(),
        }
    }

    /// A reader of `parts` interning into `ctx` (a fork of the one they
    /// were read with).
    fn from_parts(ctx: &'c mut Context, parts: Parts<'a>) -> Self {
        Reader {
            ctx,
            file: parts.file,
            version: parts.version,
            strings: parts.strings,
            dialects: parts.dialects,
            op_names: parts.op_names,
            entries: parts.entries,
            resource_handles: parts.resource_handles,
            properties: parts.properties,
            layouts: Layouts::default(),
        }
    }
}

/// The string section: a count, the lengths in reverse order, then the
/// NUL-terminated strings.
fn read_strings(mut c: Cursor<'_>) -> DResult<Vec<&[u8]>> {
    let n = c.count(1, "string")?;
    let mut lengths = Vec::with_capacity(n);
    for _ in 0..n {
        lengths.push(c.varint()?);
    }
    let data_at = c.offset();
    let data = c.rest();
    let mut strings = vec![&data[..0]; n];
    let mut end = data.len() as u64;
    for (i, &len) in lengths.iter().enumerate() {
        if len == 0 || len > end {
            return Err(DecodeError::new(
                data_at,
                "string size exceeds the available data size",
            ));
        }
        let start = end - len;
        let s = &data[start as usize..end as usize];
        // The strings come last first; each ends with a NUL.
        strings[n - 1 - i] = &s[..s.len() - 1];
        end = start;
    }
    if end != 0 {
        return Err(DecodeError::new(
            data_at,
            "unexpected trailing data between the offsets for strings and their data",
        ));
    }
    Ok(strings)
}

/// The properties section: a count, then each entry as a size and bytes.
fn read_properties(mut c: Cursor<'_>) -> DResult<Vec<Cursor<'_>>> {
    if c.is_empty() {
        return Ok(Vec::new());
    }
    let n = c.count(1, "properties")?;
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let len = c.varint()?;
        out.push(c.sub(len)?);
    }
    if !c.is_empty() {
        return Err(c.error("Broken properties section: didn't exhaust the offsets table"));
    }
    Ok(out)
}

impl<'a> Reader<'a, '_> {
    /// The string whose index comes next.
    fn string(&self, c: &mut Cursor<'a>) -> DResult<&'a [u8]> {
        let at = c.offset();
        let i = c.varint()?;
        self.string_at(at, i)
    }

    fn string_at(&self, at: usize, i: u64) -> DResult<&'a [u8]> {
        self.strings
            .get(i as usize)
            .copied()
            .ok_or_else(|| DecodeError::new(at, format!("invalid string index: {i}")))
    }

    fn utf8(&self, at: usize, s: &'a [u8]) -> DResult<&'a str> {
        std::str::from_utf8(s).map_err(|_| DecodeError::new(at, "expected a UTF-8 name"))
    }

    /// The dialect section: dialect names (with versions), then op names
    /// grouped by dialect.
    fn read_dialects(&mut self, mut c: Cursor<'a>) -> DResult<()> {
        let n = c.count(1, "dialect")?;
        for _ in 0..n {
            let at = c.offset();
            let name = if self.version < version::DIALECT_VERSIONING {
                self.string(&mut c)?
            } else {
                let (i, versioned) = c.varint_flag()?;
                let name = self.string_at(at, i)?;
                if versioned {
                    let (id, _) = c.section()?;
                    if id != section::DIALECT_VERSIONS {
                        return Err(c.error("expected dialect version section"));
                    }
                    return Err(DecodeError::new(at, format!(
                            "dialect '{}' does not implement the bytecode interface, but found a version entry",
                            String::from_utf8_lossy(name)
                        )));
                }
                name
            };
            let name = self.utf8(at, name)?;
            self.dialects.push(DialectEntry {
                name,
                builtin: name == "builtin",
                llvm: name == "llvm",
                loaded: false,
            });
        }
        if self.version >= version::ELIDE_UNKNOWN_BLOCK_ARG_LOCATION {
            c.varint()?;
        }
        while !c.is_empty() {
            let dialect = self.dialect_index(&mut c)?;
            let count = c.count(1, "op name")?;
            for _ in 0..count {
                let at = c.offset();
                let (name, was_registered) = if self.version < version::NATIVE_PROPERTIES {
                    (self.string(&mut c)?, None)
                } else {
                    let (i, flag) = c.varint_flag()?;
                    (self.string_at(at, i)?, Some(flag))
                };
                self.op_names.push(OpNameEntry {
                    dialect,
                    name,
                    was_registered,
                    resolved: None,
                });
            }
        }
        Ok(())
    }

    /// The dialect whose index comes next.
    fn dialect_index(&self, c: &mut Cursor<'a>) -> DResult<usize> {
        let at = c.offset();
        let i = c.varint()?;
        if i as usize >= self.dialects.len() {
            return Err(DecodeError::new(at, format!("invalid dialect index: {i}")));
        }
        Ok(i as usize)
    }

    /// Checks that dialect `i` may be used, as MLIR's `BytecodeDialect::load`.
    fn load_dialect(&mut self, at: usize, i: usize) -> DResult<()> {
        let d = &mut self.dialects[i];
        if d.loaded {
            return Ok(());
        }
        let known = self.ctx.dialect(d.name).is_some() || self.ctx.is_dynamic_dialect(d.name);
        if !known && !self.ctx.allow_unregistered {
            return Err(DecodeError::new(at, format!(
                    "dialect '{}' is unknown. If this is intended, please call allowUnregisteredDialects() on the MLIRContext, or use -allow-unregistered-dialect with the MLIR tool used.",
                    d.name
                )));
        }
        d.loaded = true;
        Ok(())
    }

    /// The op name whose index comes next, and whether the writer had
    /// the op registered.
    fn op_name(&mut self, c: &mut Cursor<'a>) -> DResult<(Symbol, Option<bool>)> {
        let at = c.offset();
        let i = c.varint()? as usize;
        let Some(entry) = self.op_names.get(i) else {
            return Err(DecodeError::new(
                at,
                format!("invalid operation name index: {i}"),
            ));
        };
        let was_registered = entry.was_registered;
        if let Some(s) = entry.resolved {
            return Ok((s, was_registered));
        }
        let (dialect, name) = (entry.dialect, entry.name);
        let dialect_name = self.dialects[dialect].name;
        let full = if name.is_empty() {
            dialect_name.to_string()
        } else {
            self.load_dialect(at, dialect)?;
            format!("{dialect_name}.{}", self.utf8(at, name)?)
        };
        let s = self.ctx.sym(&full);
        self.op_names[i].resolved = Some(s);
        Ok((s, was_registered))
    }
}
