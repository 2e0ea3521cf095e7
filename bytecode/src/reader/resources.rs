//! The resource sections: external resources by owner, then dialect
//! resources by dialect (only `builtin`'s blobs, which `dense_resource`
//! attributes refer to). Values are kept in their textual form.

use super::Reader;
use crate::encoding::{Cursor, DResult, DecodeError};
use silica_ir::resources::{ResourceEntry, Resources};
use silica_ir::Symbol;

/// What a resource entry holds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Kind {
    Blob = 0,
    Bool = 1,
    String = 2,
}

impl Kind {
    fn from_byte(b: u8) -> Option<Kind> {
        match b {
            0 => Some(Kind::Blob),
            1 => Some(Kind::Bool),
            2 => Some(Kind::String),
            _ => None,
        }
    }

    fn word(self) -> &'static str {
        match self {
            Kind::Blob => "blob",
            Kind::Bool => "bool",
            Kind::String => "string",
        }
    }
}

/// A blob's text: its alignment (4 bytes, little-endian) and data in hex.
pub(crate) fn blob_text(alignment: u32, data: &[u8]) -> String {
    use std::fmt::Write;
    let mut s = String::with_capacity(2 * data.len() + 12);
    s.push_str("\"0x");
    for b in alignment.to_le_bytes().iter().chain(data) {
        let _ = write!(s, "{b:02X}");
    }
    s.push('"');
    s
}

impl<'a> Reader<'a, '_> {
    /// One entry's value as text.
    fn resource_value(&self, kind: Kind, mut c: Cursor<'a>) -> DResult<String> {
        let value = match kind {
            Kind::Bool => {
                if c.byte()? != 0 {
                    "true".to_string()
                } else {
                    "false".to_string()
                }
            }
            Kind::String => {
                let s = self.string(&mut c)?;
                let mut out = String::new();
                silica_ir::printer::quoted_into(&mut out, s);
                out
            }
            Kind::Blob => {
                let alignment = c.varint()?;
                let size = c.varint()?;
                let alignment_u32 = u32::try_from(alignment)
                    .ok()
                    .filter(|a| a.is_power_of_two())
                    .ok_or_else(|| c.error("expected alignment to be a power-of-two"))?;
                c.align_to(alignment)?;
                blob_text(alignment_u32, c.bytes(size)?)
            }
        };
        if !c.is_empty() {
            return Err(c.error("unexpected trailing bytes in resource entry"));
        }
        Ok(value)
    }

    /// One group's entries: key, size and kind each, the data in `data`.
    fn resource_group(
        &mut self,
        offsets: &mut Cursor<'a>,
        data: &mut Cursor<'a>,
        mut entry: impl FnMut(&mut Self, usize, &'a str, Kind, Cursor<'a>) -> DResult<()>,
    ) -> DResult<()> {
        let n = offsets.count(1, "resource")?;
        for _ in 0..n {
            let at = offsets.offset();
            let key = self.string(offsets)?;
            let key = self.utf8(at, key)?;
            let size = offsets.varint()?;
            let kind_at = offsets.offset();
            let kind = offsets.byte()?;
            let kind = Kind::from_byte(kind).ok_or_else(|| {
                DecodeError::new(kind_at, format!("unknown resource entry kind {kind}"))
            })?;
            let value = data.sub(size)?;
            entry(self, at, key, kind, value)?;
        }
        Ok(())
    }

    pub(super) fn read_resources(
        &mut self,
        data: Cursor<'a>,
        offsets: Cursor<'a>,
    ) -> DResult<Resources> {
        let mut data = data;
        let mut offsets = offsets;
        let mut resources = Resources::default();
        let groups = offsets.count(1, "external resource group")?;
        for _ in 0..groups {
            let at = offsets.offset();
            let owner = self.string(&mut offsets)?;
            let owner = self.utf8(at, owner)?.to_string();
            let mut external = Vec::new();
            self.resource_group(&mut offsets, &mut data, |r, _, key, kind, value| {
                external.push(ResourceEntry {
                    owner: owner.clone(),
                    key: key.to_string(),
                    value: r.resource_value(kind, value)?,
                });
                Ok(())
            })?;
            resources.external.extend(external);
        }
        while !offsets.is_empty() {
            let at = offsets.offset();
            let dialect = self.dialect_index(&mut offsets)?;
            self.load_dialect(at, dialect)?;
            let name = self.dialects[dialect].name;
            if self.ctx.dialect(name).is_none() {
                return Err(DecodeError::new(at, format!("dialect '{name}' is unknown")));
            }
            if name != "builtin" {
                return Err(DecodeError::new(
                    at,
                    format!("unexpected resources for dialect '{name}'"),
                ));
            }
            let mut dialect_entries = Vec::new();
            self.resource_group(&mut offsets, &mut data, |r, _, key, kind, value| {
                let handle = r.ctx.sym(key);
                r.resource_handles.push(handle);
                // An empty entry declares a resource without data.
                if value.is_empty() {
                    return Ok(());
                }
                if kind != Kind::Blob {
                    return Err(value.error(format!(
                        "expected a blob resource entry, but found a {} entry instead",
                        kind.word()
                    )));
                }
                dialect_entries.push(ResourceEntry {
                    owner: name.to_string(),
                    key: key.to_string(),
                    value: r.resource_value(kind, value)?,
                });
                Ok(())
            })?;
            resources.dialect.extend(dialect_entries);
        }
        Ok(resources)
    }

    /// The dialect resources the module refers to.
    pub(super) fn referenced_resources(&self) -> Vec<Symbol> {
        self.resource_handles.clone()
    }
}
