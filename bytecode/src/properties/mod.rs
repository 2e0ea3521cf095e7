//! How an op's properties are encoded: MLIR's ODS writes an op's
//! attributes in the order of their names (required ones by index,
//! others as optional references), then its other properties, then its
//! operand and result segment sizes. [`Layout`] lists these slots for a
//! registered op; ops MLIR 22 defines take theirs from [`upstream`],
//! others derive them from their silica definition.

mod upstream;

use crate::encoding::{version, Cursor, DResult, DecodeError};
use rustc_hash::FxHashMap;
use silica_ir::dialect::OpDef;
use silica_ir::{Attr, AttrKind, Context, Symbol};

/// One slot of an op's properties encoding.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Slot {
    /// An attribute the op always has: its index.
    Required(&'static str),
    /// An attribute the op may lack: `0`, or its index and a set flag.
    Optional(&'static str),
    /// A property holding an integer of the given width, written as a
    /// varint and kept by silica as an integer attribute.
    Int(&'static str, u32),
    /// A property holding a flag, written as a byte; as MLIR prints it, a
    /// unit attribute when set and `false` when not.
    Bool(&'static str),
    /// The sizes of the given number of operand or result groups
    /// (`operandSegmentSizes`, `resultSegmentSizes`): a sparse array from
    /// version 6 on, a dense `i32` array attribute before.
    Segments(&'static str, usize),
}

impl Slot {
    /// The property's name.
    pub fn name(self) -> &'static str {
        match self {
            Slot::Required(n)
            | Slot::Optional(n)
            | Slot::Int(n, _)
            | Slot::Bool(n)
            | Slot::Segments(n, _) => n,
        }
    }
}

/// The name of operand group sizes.
pub const OPERAND_SEGMENTS: &str = "operandSegmentSizes";
/// The name of result group sizes.
pub const RESULT_SEGMENTS: &str = "resultSegmentSizes";

/// The slots of the ops MLIR 22 defines, by op name: `None` when the op
/// has no properties.
pub fn upstream_layout(name: &str) -> Option<&'static [Slot]> {
    upstream::LAYOUTS
        .binary_search_by(|(n, _)| (*n).cmp(name))
        .ok()
        .map(|i| upstream::LAYOUTS[i].1)
}

/// The slots of an op silica defines, from its definition.
fn derived(def: &'static OpDef) -> Vec<Slot> {
    let mut attrs: Vec<Slot> = Vec::new();
    let mut segments = None;
    let mut add = |slot: Slot| {
        if !attrs.iter().any(|s| s.name() == slot.name()) {
            attrs.push(slot);
        }
    };
    if let Some(sig) = def.signature {
        for a in sig.attrs {
            match a.name {
                OPERAND_SEGMENTS => {}
                _ if a.optional || a.default.is_some() => add(Slot::Optional(a.name)),
                _ => add(Slot::Required(a.name)),
            }
        }
        if sig.segmented {
            segments = Some(Slot::Segments(OPERAND_SEGMENTS, sig.operands.len()));
        }
    }
    for &n in def.inherent_attrs {
        if n != OPERAND_SEGMENTS && n != RESULT_SEGMENTS {
            add(Slot::Optional(n));
        }
    }
    attrs.sort_by(|a, b| a.name().cmp(b.name()));
    attrs.extend(segments);
    attrs
}

/// The properties layouts of the ops met while reading or writing.
#[derive(Default)]
pub struct Layouts {
    cache: FxHashMap<Symbol, Option<std::sync::Arc<[Slot]>>>,
}

impl Layouts {
    /// The slots of the registered op `name`; `None` when it is not
    /// registered or has no properties.
    pub fn get(&mut self, ctx: &Context, name: Symbol) -> Option<std::sync::Arc<[Slot]>> {
        self.cache
            .entry(name)
            .or_insert_with(|| {
                let def = ctx.op_def(name)?;
                let slots: std::sync::Arc<[Slot]> = match upstream_layout(def.name) {
                    Some(s) => s.into(),
                    None => derived(def).into(),
                };
                (!slots.is_empty()).then_some(slots)
            })
            .clone()
    }
}

/// Where an op's properties are written.
pub trait PropSink {
    fn attr(&mut self, a: Attr);
    fn optional_attr(&mut self, a: Option<Attr>);
    fn varint(&mut self, v: u64);
    fn byte(&mut self, b: u8);
}

/// The value of property `name` in `props`.
fn lookup(ctx: &Context, props: Option<Attr>, name: &str) -> Option<Attr> {
    ctx.dict_entries(props?)
        .iter()
        .find(|(k, _)| ctx.str(*k) == name)
        .map(|&(_, v)| v)
}

/// The integers of a dense `i32` array attribute.
fn segment_values(ctx: &Context, a: Option<Attr>, n: usize) -> Vec<u64> {
    let mut v: Vec<u64> = a
        .and_then(|a| ctx.int_array_values(a))
        .unwrap_or_default()
        .into_iter()
        .map(|x| x as u32 as u64)
        .collect();
    v.resize(n, 0);
    v
}

/// MLIR's `writeSparseArray`: dense when at least half the values are
/// not zero (or the last one is far), else index/value pairs.
fn sparse_array(out: &mut dyn PropSink, values: &[u64]) {
    let nonzero = values.iter().filter(|&&v| v != 0).count();
    let last = values.iter().rposition(|&v| v != 0).unwrap_or(0);
    if last > 256 || nonzero > values.len() / 2 {
        out.varint((values.len() as u64) << 1);
        for &v in values {
            out.varint(v);
        }
        return;
    }
    out.varint(((nonzero as u64) << 1) | 1);
    if nonzero == 0 {
        return;
    }
    let index_bits = (last as u64 + 1).next_power_of_two().trailing_zeros() as u64;
    out.varint(index_bits);
    for (i, &v) in values.iter().enumerate().take(last + 1) {
        if v != 0 {
            out.varint((v << index_bits) | i as u64);
        }
    }
}

/// Writes the properties `props` of an op with the given slots. Before
/// version 6, segment sizes are written as the `i32` array attribute
/// `props` holds.
pub fn write(
    ctx: &Context,
    slots: &[Slot],
    props: Option<Attr>,
    bytecode_version: u64,
    out: &mut dyn PropSink,
) -> Result<(), String> {
    for &slot in slots {
        let value = lookup(ctx, props, slot.name());
        match slot {
            Slot::Required(n) => match value {
                Some(a) => out.attr(a),
                None => return Err(format!("the required property '{n}' is missing")),
            },
            Slot::Optional(_) => out.optional_attr(value),
            Slot::Int(_, _) => {
                let v = match value.map(|a| ctx.attr_kind(a)) {
                    Some(AttrKind::Integer { value, .. }) => {
                        let (_, digits) = value.to_u64_digits();
                        digits.first().copied().unwrap_or(0)
                    }
                    _ => 0,
                };
                out.varint(v);
            }
            Slot::Bool(_) => {
                let set = match value.map(|a| ctx.attr_kind(a)) {
                    Some(AttrKind::Unit) => true,
                    Some(AttrKind::Integer { value, .. }) => {
                        value.sign() != num_bigint::Sign::NoSign
                    }
                    _ => false,
                };
                out.byte(u8::from(set));
            }
            Slot::Segments(name, n) => {
                if bytecode_version >= version::NATIVE_SEGMENT_SIZES {
                    sparse_array(out, &segment_values(ctx, value, n));
                } else {
                    match value {
                        Some(a) => out.attr(a),
                        None => return Err(format!("the property '{name}' is missing")),
                    }
                }
            }
        }
    }
    Ok(())
}

/// What reading properties needs: the context and the attribute table.
pub trait PropSource<'a> {
    fn ctx(&mut self) -> &mut Context;
    /// Attribute `i`, whose index was at byte `at`.
    fn attr_at(&mut self, at: usize, i: u64) -> DResult<Attr>;
}

/// Reads properties with the given slots: their entries, in slot order.
pub fn read<'a>(
    src: &mut dyn PropSource<'a>,
    slots: &[Slot],
    c: &mut Cursor<'a>,
    bytecode_version: u64,
) -> DResult<Vec<(Symbol, Attr)>> {
    let mut entries = Vec::with_capacity(slots.len());
    for &slot in slots {
        let at = c.offset();
        let value = match slot {
            Slot::Required(_) => {
                let i = c.varint()?;
                Some(src.attr_at(at, i)?)
            }
            Slot::Optional(_) => match c.varint_flag()? {
                (i, true) => Some(src.attr_at(at, i)?),
                (_, false) => None,
            },
            Slot::Int(_, width) => {
                let v = c.varint()?;
                let ctx = src.ctx();
                let t = ctx.signless(width);
                Some(ctx.int_attr(t, v))
            }
            Slot::Bool(_) => {
                let set = c.byte()? != 0;
                let ctx = src.ctx();
                Some(if set {
                    ctx.unit_attr()
                } else {
                    let i1 = ctx.signless(1);
                    ctx.int_attr(i1, 0)
                })
            }
            Slot::Segments(_, n) => {
                let values = if bytecode_version >= version::NATIVE_SEGMENT_SIZES {
                    read_sparse_array(c, n)?
                } else {
                    let i = c.varint()?;
                    let a = src.attr_at(at, i)?;
                    let v = src
                        .ctx()
                        .int_array_values(a)
                        .filter(|v| v.len() <= n)
                        .ok_or_else(|| {
                            DecodeError::new(at, "size mismatch for operand/result_segment_size")
                        })?;
                    let mut v: Vec<u64> = v.into_iter().map(|x| x as u32 as u64).collect();
                    v.resize(n, 0);
                    v
                };
                let values: Vec<i64> = values.iter().map(|&v| v as u32 as i32 as i64).collect();
                Some(src.ctx().int_array_attr(32, &values))
            }
        };
        if let Some(v) = value {
            let k = src.ctx().sym(slot.name());
            entries.push((k, v));
        }
    }
    Ok(entries)
}

/// MLIR's `readSparseArray` into `n` values.
fn read_sparse_array(c: &mut Cursor<'_>, n: usize) -> DResult<Vec<u64>> {
    let mut values = vec![0u64; n];
    let (count, sparse) = c.varint_flag()?;
    if count == 0 {
        return Ok(values);
    }
    if !sparse {
        if count > n as u64 {
            return Err(c.error(format!(
                "trying to read an array of {count} but only {n} storage available."
            )));
        }
        for v in values.iter_mut().take(count as usize) {
            *v = c.varint()?;
        }
        return Ok(values);
    }
    let index_bits = c.varint()?;
    if index_bits > 8 {
        return Err(c.error(format!(
            "reading sparse array with indexing above 8 bits: {index_bits}"
        )));
    }
    for _ in 0..count {
        let pair = c.varint()?;
        let index = (pair & !(u64::MAX << index_bits)) as usize;
        if index >= n {
            return Err(c.error("invalid length for sparse array"));
        }
        values[index] = pair >> index_bits;
    }
    Ok(values)
}
