//! Writes a module as bytecode, as MLIR 22's `BytecodeWriter` does, byte
//! for byte: the dialect section, attributes and types (builtin ones in
//! their dialect encoding, others as text), the IR, resources, strings
//! and properties, for any version from 0 to 6.

mod ir;
mod numbering;
mod resources;

use crate::builtin::write::{attr_dialect, key, write_attr, write_type, AttrKey, Sink};
use crate::encoding::{section, version, Emitter, MAGIC};
use crate::properties::{Layouts, Slot};
use numbering::Numbering;
use rustc_hash::FxHashMap;
use silica_ir::resources::Resources;
use silica_ir::{Attr, Context, Diagnostic, Ir, OpId, Symbol, Type};
use std::sync::Arc;

/// How to write.
#[derive(Clone, Debug)]
pub struct WriteOptions {
    /// The format version, 0 to 6.
    pub version: u64,
    /// The producer string recorded in the header.
    pub producer: String,
    /// Leave resource data out (their keys stay).
    pub elide_resource_data: bool,
}

impl Default for WriteOptions {
    fn default() -> Self {
        WriteOptions {
            version: version::CURRENT,
            producer: crate::PRODUCER.to_string(),
            elide_resource_data: false,
        }
    }
}

/// How an op's properties are written.
pub(crate) enum OpProps<'p> {
    /// By the op's layout.
    Registered(&'p [Slot]),
    /// As an attribute (ops silica does not know).
    Unregistered(Option<Attr>),
    /// Not at all.
    None,
}

/// What is decided of an op name before numbering.
#[derive(Clone)]
enum NameKind {
    Unregistered,
    /// A registered op and its properties' slots (none: no properties).
    Registered(Option<Arc<[Slot]>>),
}

/// Decisions made before numbering: each op's properties layout, and the
/// attribute dictionaries written in place of an op's own (its
/// properties merged in before version 5; properties its layout lacks).
pub(crate) struct Plan {
    pub version: u64,
    /// The empty dictionary (an op without attributes has it).
    pub empty: Attr,
    /// By op name symbol id.
    names: Vec<Option<NameKind>>,
    dicts: FxHashMap<OpId, Attr>,
}

impl Plan {
    fn new(ctx: &mut Context, ir: &Ir, top: OpId, version: u64) -> Plan {
        let mut layouts = Layouts::default();
        let mut plan = Plan {
            version,
            empty: ctx.empty_dict(),
            names: Vec::new(),
            dicts: FxHashMap::default(),
        };
        let mut with_props = Vec::new();
        ir.walk(top, &mut |op| {
            let name = ir.op_name(op);
            let i = name.id() as usize;
            if plan.names.len() <= i {
                plan.names.resize(i + 1, None);
            }
            if plan.names[i].is_none() {
                plan.names[i] = Some(match ctx.op_def(name) {
                    Some(_) => NameKind::Registered(layouts.get(ctx, name)),
                    None => NameKind::Unregistered,
                });
            }
            if ir.op_props(op).is_some() {
                with_props.push(op);
            }
        });
        for op in with_props {
            let props = ir.op_props(op).expect("kept above");
            let moved: Vec<(Symbol, Attr)> = match plan.name_kind(ir, op).clone() {
                // Before version 5 an op's properties join its attributes;
                // an unregistered op's are lost, as in MLIR.
                NameKind::Unregistered => Vec::new(),
                NameKind::Registered(_) if version < version::NATIVE_PROPERTIES => {
                    ctx.dict_entries(props).to_vec()
                }
                NameKind::Registered(slots) => ctx
                    .dict_entries(props)
                    .iter()
                    .copied()
                    .filter(|(k, _)| {
                        !slots
                            .as_ref()
                            .is_some_and(|s| s.iter().any(|s| s.name() == ctx.str(*k)))
                    })
                    .collect(),
            };
            if moved.is_empty() {
                continue;
            }
            let mut entries = ctx.dict_entries(ir.op_attrs(op)).to_vec();
            for (k, v) in moved {
                if !entries.iter().any(|(e, _)| *e == k) {
                    entries.push((k, v));
                }
            }
            let dict = ctx.dict_attr(entries);
            plan.dicts.insert(op, dict);
        }
        plan
    }

    fn name_kind(&self, ir: &Ir, op: OpId) -> &NameKind {
        self.names[ir.op_name(op).id() as usize]
            .as_ref()
            .expect("every op's name is planned")
    }

    /// The attribute dictionary written for `op`.
    pub(crate) fn attrs(&self, ir: &Ir, op: OpId) -> Attr {
        if self.dicts.is_empty() {
            return ir.op_attrs(op);
        }
        self.dicts.get(&op).copied().unwrap_or(ir.op_attrs(op))
    }

    /// How `op`'s properties are written.
    pub(crate) fn props(&self, ir: &Ir, op: OpId) -> OpProps<'_> {
        if self.version < version::NATIVE_PROPERTIES {
            return OpProps::None;
        }
        match self.name_kind(ir, op) {
            NameKind::Unregistered => OpProps::Unregistered(ir.op_props(op)),
            NameKind::Registered(Some(slots)) => OpProps::Registered(slots),
            NameKind::Registered(None) => OpProps::None,
        }
    }
}

/// Writes the module `top` of `ir` (with its resources) as bytecode.
pub fn write(
    ctx: &mut Context,
    ir: &Ir,
    top: OpId,
    resources: &Resources,
    opts: &WriteOptions,
) -> Result<Vec<u8>, Box<Diagnostic>> {
    if opts.version > version::CURRENT {
        let loc = ir.op_loc(top);
        return Err(Box::new(Diagnostic::error(
            loc,
            format!(
                "unsupported version requested {}, must be in range [0, {}]",
                opts.version,
                version::CURRENT
            ),
        )));
    }
    let plan = Plan::new(ctx, ir, top, opts.version);
    let ctx = &*ctx;
    let mut numbering = Numbering::new(ctx, ir, top, &plan);
    let blobs = resources::Blobs::new(resources);
    numbering.number_resources(|r| blobs.has_data(ctx, r));
    let mut w = Writer {
        ctx,
        ir,
        plan: &plan,
        numbering: &numbering,
        strings: Strings::default(),
        properties: Properties::default(),
        scratch: Emitter::new(),
    };
    let mut out = Emitter::new();
    out.bytes(MAGIC);
    out.varint(opts.version);
    out.cstr(opts.producer.as_bytes());
    w.dialect_section(&mut out);
    // The attribute and type sections and the IR section need nothing of
    // each other: a large module's are written at once, on two threads.
    let mut strings = std::mem::take(&mut w.strings);
    if ir.op_capacity() < PARALLEL_OPS {
        attr_type_section(ctx, &numbering, &mut strings, &mut out);
        w.ir_section(&mut out, top)?;
    } else {
        let (attrs, ir_part) = std::thread::scope(|s| {
            let attrs = s.spawn(|| {
                let mut part = Emitter::new();
                attr_type_section(ctx, &numbering, &mut strings, &mut part);
                part
            });
            let mut ir_part = Emitter::new();
            let r = w.ir_section(&mut ir_part, top);
            let attrs = attrs
                .join()
                .unwrap_or_else(|e| std::panic::resume_unwind(e));
            (attrs, r.map(|()| ir_part))
        });
        out.bytes(&attrs.buf);
        out.bytes(&ir_part?.buf);
    }
    w.strings = strings;
    w.resource_sections(&mut out, &blobs, resources, opts.elide_resource_data);
    w.string_section(&mut out);
    if opts.version >= version::NATIVE_PROPERTIES {
        w.properties_section(&mut out);
    }
    Ok(out.buf)
}

/// Writes the attribute and type offset and data sections.
fn attr_type_section(ctx: &Context, n: &Numbering, strings: &mut Strings, out: &mut Emitter) {
    let mut data = Emitter::new();
    let mut offsets = Emitter::new();
    offsets.varint(n.attrs.len() as u64);
    offsets.varint(n.types.len() as u64);
    let mut prev = 0usize;
    let attrs = Numbering::ordered(&n.attrs, n.attr_numbers());
    dialect_groups(
        &mut offsets,
        &attrs,
        |x| x.dialect,
        |offsets, entry| {
            if entry.custom {
                let mut enc = Encode {
                    ctx,
                    out: &mut data,
                    numbering: n,
                    strings,
                };
                match attr_dialect(ctx, entry.key) {
                    None => write_attr(ctx, entry.key, &mut enc),
                    Some(_) => crate::llvm::write_attr(ctx, entry.key, &mut enc),
                };
            } else {
                data.cstr(crate::builtin::write::attr_text(ctx, entry.key).as_bytes());
            }
            offsets.varint_flag((data.len() - prev) as u64, entry.custom);
            prev = data.len();
        },
    );
    let types = Numbering::ordered(&n.types, n.type_numbers());
    dialect_groups(
        &mut offsets,
        &types,
        |x| x.dialect,
        |offsets, entry| {
            if entry.custom {
                let mut enc = Encode {
                    ctx,
                    out: &mut data,
                    numbering: n,
                    strings,
                };
                write_type(ctx, entry.key, &mut enc);
            } else {
                data.cstr(silica_ir::printer::type_to_string(ctx, entry.key).as_bytes());
            }
            offsets.varint_flag((data.len() - prev) as u64, entry.custom);
            prev = data.len();
        },
    );
    out.section(section::ATTR_TYPE_OFFSET, offsets);
    out.section(section::ATTR_TYPE, data);
}

/// How many ops a module has for its sections to be written on two
/// threads.
const PARALLEL_OPS: usize = 20_000;

/// The string section as it fills: each string once, numbered in the
/// order first written.
#[derive(Default)]
struct Strings {
    list: Vec<Vec<u8>>,
    index: FxHashMap<Vec<u8>, u64>,
}

impl Strings {
    fn insert(&mut self, s: &[u8]) -> u64 {
        if let Some(&i) = self.index.get(s) {
            return i;
        }
        let i = self.list.len() as u64;
        self.list.push(s.to_vec());
        self.index.insert(s.to_vec(), i);
        i
    }
}

/// The properties section as it fills: each distinct encoding once.
#[derive(Default)]
struct Properties {
    entries: Vec<Vec<u8>>,
    index: FxHashMap<Vec<u8>, u64>,
}

impl Properties {
    /// The index of an op's properties encoding.
    fn insert(&mut self, raw: &[u8]) -> u64 {
        if let Some(&i) = self.index.get(raw) {
            return i;
        }
        let i = self.entries.len() as u64;
        let mut e = Emitter::new();
        e.varint(raw.len() as u64);
        e.bytes(raw);
        self.index.insert(raw.to_vec(), i);
        self.entries.push(e.buf);
        i
    }
}

/// The state of one write.
struct Writer<'w> {
    ctx: &'w Context,
    ir: &'w Ir,
    plan: &'w Plan,
    numbering: &'w Numbering,
    strings: Strings,
    properties: Properties,
    /// A buffer reused for each op's properties.
    scratch: Emitter,
}

/// Writes entries in groups sharing a dialect: the dialect, the count,
/// then each entry.
fn dialect_groups<T>(
    out: &mut Emitter,
    items: &[T],
    dialect: impl Fn(&T) -> u32,
    mut each: impl FnMut(&mut Emitter, &T),
) {
    let mut i = 0;
    while i < items.len() {
        let d = dialect(&items[i]);
        let end = items[i..]
            .iter()
            .position(|x| dialect(x) != d)
            .map_or(items.len(), |n| i + n);
        out.varint(u64::from(d));
        out.varint((end - i) as u64);
        for item in &items[i..end] {
            each(out, item);
        }
        i = end;
    }
}

/// Emits encodings with references resolved through the numbering.
struct Encode<'e> {
    ctx: &'e Context,
    out: &'e mut Emitter,
    numbering: &'e Numbering,
    strings: &'e mut Strings,
}

impl Sink for Encode<'_> {
    fn attr(&mut self, _: &Context, a: AttrKey) {
        self.out.varint(self.numbering.attr_number(a));
    }
    fn present_attr(&mut self, _: &Context, a: AttrKey) {
        self.out.varint_flag(self.numbering.attr_number(a), true);
    }
    fn ty(&mut self, _: &Context, t: Type) {
        self.out.varint(self.numbering.type_number(t));
    }
    fn varint(&mut self, v: u64) {
        self.out.varint(v);
    }
    fn signed_varint(&mut self, v: i64) {
        self.out.signed_varint(v);
    }
    fn byte(&mut self, b: u8) {
        self.out.byte(b);
    }
    fn string(&mut self, s: &[u8]) {
        let i = self.strings.insert(s);
        self.out.varint(i);
    }
    fn blob(&mut self, b: &[u8]) {
        self.out.varint(b.len() as u64);
        self.out.bytes(b);
    }
    fn resource(&mut self, handle: Symbol) {
        self.out.varint(self.numbering.resource_number(handle));
    }
}

impl crate::properties::PropSink for Encode<'_> {
    fn attr(&mut self, a: Attr) {
        let k = key(self.ctx, a);
        self.out.varint(self.numbering.attr_number(k));
    }
    fn optional_attr(&mut self, a: Option<Attr>) {
        match a {
            Some(a) => {
                let k = key(self.ctx, a);
                self.out.varint_flag(self.numbering.attr_number(k), true);
            }
            None => self.out.varint(0),
        }
    }
    fn varint(&mut self, v: u64) {
        self.out.varint(v);
    }
    fn byte(&mut self, b: u8) {
        self.out.byte(b);
    }
}

impl Writer<'_> {
    fn dialect_section(&mut self, out: &mut Emitter) {
        let n = self.numbering;
        let mut e = Emitter::new();
        e.varint(n.dialects.len() as u64);
        for d in &n.dialects {
            let id = self.strings.insert(d.as_bytes());
            if self.plan.version < version::DIALECT_VERSIONING {
                e.varint(id);
            } else {
                e.varint_flag(id, false);
            }
        }
        if self.plan.version >= version::ELIDE_UNKNOWN_BLOCK_ARG_LOCATION {
            e.varint(n.op_names.len() as u64);
        }
        let names = Numbering::ordered(&n.op_names, n.op_name_numbers());
        let (ctx, version) = (self.ctx, self.plan.version);
        let strings = &mut self.strings;
        dialect_groups(
            &mut e,
            &names,
            |x| x.dialect,
            |e, entry| {
                let full = ctx.str(entry.key);
                let short = full.split_once('.').map_or("", |(_, s)| s);
                let id = strings.insert(short.as_bytes());
                if version < version::NATIVE_PROPERTIES {
                    e.varint(id);
                } else {
                    e.varint_flag(id, ctx.op_def(entry.key).is_some());
                }
            },
        );
        out.section(section::DIALECT, e);
    }

    fn string_section(&mut self, out: &mut Emitter) {
        let mut e = Emitter::new();
        let list = &self.strings.list;
        e.varint(list.len() as u64);
        for s in list.iter().rev() {
            e.varint(s.len() as u64 + 1);
        }
        for s in list {
            e.cstr(s);
        }
        out.section(section::STRING, e);
    }

    fn properties_section(&mut self, out: &mut Emitter) {
        let mut e = Emitter::new();
        e.varint(self.properties.entries.len() as u64);
        for p in &self.properties.entries {
            e.bytes(p);
        }
        out.section(section::PROPERTIES, e);
    }
}
