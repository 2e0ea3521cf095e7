//! Writes the resource sections: external resources by owner (their
//! values parsed back from text: `true`/`false`, hex blobs, strings),
//! then the builtin dialect's blobs the module refers to, those without
//! data as empty declarations.

use super::Writer;
use crate::encoding::{section, Emitter};
use silica_ir::resources::Resources;
use silica_ir::{Context, Symbol};

/// A resource value, from its text.
enum Value {
    Bool(bool),
    String(Vec<u8>),
    Blob { alignment: u32, data: Vec<u8> },
}

/// The bytes of a quoted, escaped string's text.
fn unquote(text: &str) -> Option<Vec<u8>> {
    let inner = text.strip_prefix('"')?.strip_suffix('"')?;
    let b = inner.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            out.push(b[i]);
            i += 1;
            continue;
        }
        match b.get(i + 1)? {
            b'\\' => out.push(b'\\'),
            b'"' => out.push(b'"'),
            b'n' => out.push(b'\n'),
            b't' => out.push(b'\t'),
            _ => {
                let hex = std::str::from_utf8(b.get(i + 1..i + 3)?).ok()?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 3;
                continue;
            }
        }
        i += 2;
    }
    Some(out)
}

/// A resource value's text as MLIR's parser reads it: `true`/`false`, a
/// string starting `0x` as a blob (its first four bytes the alignment),
/// other strings.
fn parse_value(text: &str) -> Option<Value> {
    match text {
        "true" => return Some(Value::Bool(true)),
        "false" => return Some(Value::Bool(false)),
        _ => {}
    }
    let bytes = unquote(text)?;
    let Some(hex) = bytes.strip_prefix(b"0x") else {
        return Some(Value::String(bytes));
    };
    if hex.len() % 2 != 0 || hex.len() < 8 {
        return None;
    }
    let raw: Option<Vec<u8>> = hex
        .chunks(2)
        .map(|c| u8::from_str_radix(std::str::from_utf8(c).ok()?, 16).ok())
        .collect();
    let raw = raw?;
    let alignment = u32::from_le_bytes([raw[0], raw[1], raw[2], raw[3]]);
    Some(Value::Blob {
        alignment,
        data: raw[4..].to_vec(),
    })
}

/// The builtin blobs with data, by key.
pub(super) struct Blobs<'r> {
    resources: &'r Resources,
}

impl<'r> Blobs<'r> {
    pub(super) fn new(resources: &'r Resources) -> Self {
        Blobs { resources }
    }

    fn blob(&self, ctx: &Context, handle: Symbol) -> Option<(u32, Vec<u8>)> {
        let key = ctx.str(handle);
        let entry = self
            .resources
            .dialect
            .iter()
            .find(|e| e.owner == "builtin" && e.key == key)?;
        match parse_value(&entry.value)? {
            Value::Blob { alignment, data } => Some((alignment, data)),
            _ => None,
        }
    }

    pub(super) fn has_data(&self, ctx: &Context, handle: Symbol) -> bool {
        self.blob(ctx, handle).is_some()
    }
}

/// One group's entries as they are written: key, kind and size.
struct Group {
    entries: Vec<(Vec<u8>, u8, u64)>,
}

impl Writer<'_> {
    pub(super) fn resource_sections(
        &mut self,
        out: &mut Emitter,
        blobs: &Blobs<'_>,
        resources: &Resources,
        elide: bool,
    ) {
        let mut data = Emitter::new();
        let mut offsets = Emitter::new();
        let mut prev = 0usize;
        let mut owners: Vec<&str> = Vec::new();
        for e in &resources.external {
            if !owners.contains(&e.owner.as_str()) {
                owners.push(&e.owner);
            }
        }
        offsets.varint(owners.len() as u64);
        for owner in owners {
            let mut group = Group {
                entries: Vec::new(),
            };
            for e in resources.external.iter().filter(|e| e.owner == owner) {
                let kind = match parse_value(&e.value) {
                    Some(Value::Bool(b)) => {
                        if !elide {
                            data.byte(u8::from(b));
                        }
                        1
                    }
                    Some(Value::String(s)) => {
                        if !elide {
                            let i = self.strings.insert(&s);
                            data.varint(i);
                        }
                        2
                    }
                    Some(Value::Blob { alignment, data: d }) => {
                        if !elide {
                            blob(&mut data, alignment, &d);
                        }
                        0
                    }
                    None => continue,
                };
                group
                    .entries
                    .push((e.key.as_bytes().to_vec(), kind, (data.len() - prev) as u64));
                prev = data.len();
            }
            let key = self.strings.insert(owner.as_bytes());
            self.group(&mut offsets, key, group);
        }
        if let Some(builtin) = self.numbering.dialects.iter().position(|d| d == "builtin") {
            let ctx = self.ctx;
            let mut group = Group {
                entries: Vec::new(),
            };
            let handles = &self.numbering.resources;
            let mut declared = Vec::new();
            for &h in handles {
                match blobs.blob(ctx, h) {
                    Some((alignment, d)) => {
                        if !elide {
                            blob(&mut data, alignment, &d);
                        }
                        group.entries.push((
                            ctx.str(h).as_bytes().to_vec(),
                            0,
                            (data.len() - prev) as u64,
                        ));
                        prev = data.len();
                    }
                    None => declared.push(h),
                }
            }
            for h in declared {
                group.entries.push((ctx.str(h).as_bytes().to_vec(), 0, 0));
            }
            if !group.entries.is_empty() {
                self.group(&mut offsets, builtin as u64, group);
            }
        }
        out.section(section::RESOURCE_OFFSET, offsets);
        out.section(section::RESOURCE, data);
    }

    fn group(&mut self, offsets: &mut Emitter, key: u64, group: Group) {
        offsets.varint(key);
        offsets.varint(group.entries.len() as u64);
        for (k, kind, size) in group.entries {
            let i = self.strings.insert(&k);
            offsets.varint(i);
            offsets.varint(size);
            offsets.byte(kind);
        }
    }
}

/// An aligned blob: alignment, size, padding, data.
fn blob(e: &mut Emitter, alignment: u32, data: &[u8]) {
    e.varint(u64::from(alignment));
    e.varint(data.len() as u64);
    e.align_to(u64::from(alignment));
    e.bytes(data);
}
