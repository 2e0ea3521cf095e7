//! Directives resolved: the settings of the directives file and of the
//! `hls.*` attributes of the input read into one [`Directives`] value,
//! each checked where it was written (a bad value is an error at the
//! attribute or at the key in the file, and so is a name that denotes no
//! loop or array, `names.rs`); the file wins, setting by setting.
//! [`write_attributes`] writes resolved directives back as attributes
//! (the `hls-directives` pass), so that they resolve from the attributes
//! alone.

use super::buffer::buffer_name;
use super::names::{self, find_loops, ArrayName, LoopName};
use super::string_of;
use crate::model::directives::{
    file, ArrayDirectives, Directives, LoopDirectives, Origin, Partition, PartitionKind,
    Partitioning, Pipeline, Setting, Unroll, LIMITED_CLASSES,
};
use silica_ir::{Attr, AttrKind, Context, Diagnostic, Ir, OpId};
use toml::Value;

type Res<T> = Result<T, Box<Diagnostic>>;

fn bad<T>(loc: Attr, msg: String) -> Res<T> {
    Err(Box::new(Diagnostic::error(loc, msg)))
}

/// A positive integer of `value`.
fn positive(v: &Value) -> Option<u64> {
    match v {
        Value::Integer(i) if *i >= 1 => u64::try_from(*i).ok(),
        _ => None,
    }
}

fn pipeline_of(v: &Value, loc: Attr) -> Res<Pipeline> {
    match v {
        Value::Boolean(true) => Ok(Pipeline::Smallest),
        Value::Boolean(false) => Ok(Pipeline::Off),
        _ => match positive(v).and_then(|n| u32::try_from(n).ok()) {
            Some(n) => Ok(Pipeline::Ii(n)),
            None => bad(
                loc,
                format!("pipeline must be true, false or a target II of at least 1, not {v}"),
            ),
        },
    }
}

fn unroll_of(v: &Value, loc: Attr) -> Res<Unroll> {
    match v {
        Value::String(s) if s == "full" => Ok(Unroll::Full),
        _ => match positive(v) {
            Some(k) => Ok(Unroll::Factor(k)),
            None => bad(
                loc,
                format!("unroll must be a factor of at least 1 or \"full\", not {v}"),
            ),
        },
    }
}

fn flatten_of(v: &Value, loc: Attr) -> Res<bool> {
    bool_of("flatten", v, loc)
}

fn hoist_of(v: &Value, loc: Attr) -> Res<bool> {
    bool_of("hoist", v, loc)
}

fn interchange_of(v: &Value, loc: Attr) -> Res<bool> {
    bool_of("interchange", v, loc)
}

fn dataflow_of(v: &Value, loc: Attr) -> Res<bool> {
    bool_of("dataflow", v, loc)
}

fn jam_of(v: &Value, loc: Attr) -> Res<u64> {
    match positive(v) {
        Some(k) => Ok(k),
        None => bad(loc, format!("jam must be a factor of at least 1, not {v}")),
    }
}

/// A `buffer` value: `true`/`false`, or (as the `hls.buffer` attribute
/// carries them) a table of the on-chip copy's own `partition` and
/// `ports`.
fn buffer_of(v: &Value, loc: Attr, origin: Origin) -> Res<(bool, ArrayDirectives)> {
    let Value::Table(t) = v else {
        return Ok((bool_of("buffer", v, loc)?, ArrayDirectives::default()));
    };
    let mut copy = ArrayDirectives::default();
    for (k, x) in t {
        match k.as_str() {
            "partition" => {
                copy.partition = Some(Setting::new(partitioning_of(x, loc)?, loc, origin));
            }
            "ports" => copy.ports = Some(Setting::new(ports_of(x, loc)?, loc, origin)),
            _ => {
                return bad(
                    loc,
                    format!("buffer has an unknown key '{k}' (partition, ports)"),
                )
            }
        }
    }
    Ok((true, copy))
}

fn bool_of(key: &str, v: &Value, loc: Attr) -> Res<bool> {
    match v {
        Value::Boolean(b) => Ok(*b),
        _ => bad(loc, format!("{key} must be true or false, not {v}")),
    }
}

fn depth_of(v: &Value, loc: Attr) -> Res<u64> {
    match positive(v) {
        Some(n) => Ok(n),
        None => bad(
            loc,
            format!("depth must be a number of words of at least 1, not {v}"),
        ),
    }
}

fn width_of(v: &Value, loc: Attr) -> Res<u32> {
    match positive(v).and_then(|n| u32::try_from(n).ok()) {
        Some(n) => Ok(n),
        None => bad(
            loc,
            format!("width must be a number of elements of at least 1, not {v}"),
        ),
    }
}

/// A partitioning as the `hls.partition` attribute writes it: the
/// dictionary of its one split, or an array of them.
fn partitioning_attr(ctx: &mut Context, p: &Partitioning) -> Attr {
    match p.0.as_slice() {
        [one] => partition_attr(ctx, *one),
        all => {
            let each: Vec<Attr> = all.iter().map(|&q| partition_attr(ctx, q)).collect();
            ctx.array_attr(&each)
        }
    }
}

/// One split as the `hls.partition` attribute writes it.
fn partition_attr(ctx: &mut Context, p: Partition) -> Attr {
    let i64 = ctx.signless(64);
    let kind = match p.kind {
        PartitionKind::Cyclic => "cyclic",
        PartitionKind::Block => "block",
        PartitionKind::Complete => "complete",
    };
    let mut fields = vec![
        (ctx.sym("dim"), ctx.int_attr(i64, p.dim)),
        (ctx.sym("kind"), ctx.string_attr(kind.as_bytes())),
    ];
    if p.kind != PartitionKind::Complete {
        fields.push((ctx.sym("factor"), ctx.int_attr(i64, p.factor)));
    }
    ctx.dict_attr(fields)
}

fn ports_of(v: &Value, loc: Attr) -> Res<u32> {
    match positive(v) {
        Some(p @ 1..=2) => Ok(p as u32),
        _ => bad(loc, format!("ports must be 1 or 2, not {v}")),
    }
}

/// A partitioning: a table `{ dim, kind, factor }`, or a list of them
/// splitting distinct dimensions.
fn partitioning_of(v: &Value, loc: Attr) -> Res<Partitioning> {
    let Value::Array(list) = v else {
        return Ok(Partitioning::one(partition_of(v, loc)?));
    };
    if list.is_empty() {
        return bad(loc, "partition lists no dimension to split".into());
    }
    let mut all: Vec<Partition> = Vec::new();
    for x in list {
        let p = partition_of(x, loc)?;
        if all.iter().any(|q| q.dim == p.dim) {
            return bad(loc, format!("partition splits dimension {} twice", p.dim));
        }
        all.push(p);
    }
    all.sort_by_key(|p| p.dim);
    Ok(Partitioning(all))
}

fn partition_of(v: &Value, loc: Attr) -> Res<Partition> {
    let Value::Table(t) = v else {
        return bad(
            loc,
            format!("partition must be a table {{ dim, kind, factor }} or a list of them, not {v}"),
        );
    };
    if let Some(k) = t
        .keys()
        .find(|k| !["dim", "kind", "factor"].contains(&k.as_str()))
    {
        return bad(
            loc,
            format!("partition has an unknown key '{k}' (dim, kind, factor)"),
        );
    }
    let kind = match t.get("kind").and_then(Value::as_str) {
        Some("cyclic") => PartitionKind::Cyclic,
        Some("block") => PartitionKind::Block,
        Some("complete") => PartitionKind::Complete,
        _ => {
            return bad(
                loc,
                "partition kind must be \"cyclic\", \"block\" or \"complete\"".into(),
            )
        }
    };
    let dim = match t.get("dim") {
        None => 1,
        Some(d) => match positive(d).and_then(|d| u32::try_from(d).ok()) {
            Some(d) => d,
            None => return bad(loc, format!("partition dim must be at least 1, not {d}")),
        },
    };
    let factor = match (kind, t.get("factor")) {
        (PartitionKind::Complete, None) => 0,
        (_, Some(f)) => match positive(f) {
            Some(f) if f >= 2 => f,
            _ => return bad(loc, format!("partition factor must be at least 2, not {f}")),
        },
        (_, None) => return bad(loc, "a cyclic or block partition needs a factor".into()),
    };
    Ok(Partition { dim, kind, factor })
}

fn limit_of(v: &Value, loc: Attr) -> Res<u32> {
    match positive(v).and_then(|n| u32::try_from(n).ok()) {
        Some(n) => Ok(n),
        None => bad(loc, format!("a limit must be at least 1, not {v}")),
    }
}

/// An attribute as a directive value: `true`/`false` (`i1`) and unit as
/// booleans, other integers, strings, dictionaries as tables.
fn value_of_attr(ctx: &Context, a: Attr) -> Option<Value> {
    match ctx.attr_kind(a) {
        AttrKind::Unit => Some(Value::Boolean(true)),
        AttrKind::Integer { ty, value } => {
            let one_bit = matches!(
                ctx.type_kind(*ty),
                silica_ir::TypeKind::Integer { width: 1, .. }
            );
            if one_bit {
                Some(Value::Boolean(*value != 0.into()))
            } else {
                i64::try_from(value).ok().map(Value::Integer)
            }
        }
        AttrKind::String { .. } => string_of(ctx, Some(a)).map(Value::String),
        AttrKind::Dictionary(entries) => {
            let mut t = toml::Table::new();
            for &(k, v) in entries.iter() {
                t.insert(ctx.str(k).to_string(), value_of_attr(ctx, v)?);
            }
            Some(Value::Table(t))
        }
        AttrKind::Array(items) => {
            let items: Option<Vec<Value>> = items.iter().map(|&x| value_of_attr(ctx, x)).collect();
            items.map(Value::Array)
        }
        _ => None,
    }
}

/// The directive attribute `key` of `op` as a value, or an error at the
/// op when it is of no directive's form.
fn attr_value(ctx: &Context, ir: &Ir, op: OpId, key: &str) -> Res<Option<Value>> {
    let Some(a) = silica_ir::dialect::inherent_attr(ctx, ir, op, key) else {
        return Ok(None);
    };
    match value_of_attr(ctx, a) {
        Some(v) => Ok(Some(v)),
        None => bad(
            ir.op_loc(op),
            format!("'{key}' must be a boolean, an integer, a string, a dictionary or an array of dictionaries"),
        ),
    }
}

/// The `key` entry of argument `i`'s attribute dictionary.
fn arg_attr(ctx: &Context, ir: &Ir, func: OpId, i: usize, key: &str) -> Option<Attr> {
    let a = silica_ir::dialect::inherent_attr(ctx, ir, func, "arg_attrs")?;
    let AttrKind::Array(dicts) = ctx.attr_kind(a) else {
        return None;
    };
    let d = *dicts.get(i)?;
    ctx.dict_entries(d)
        .iter()
        .find(|(k, _)| ctx.str(*k) == key)
        .map(|e| e.1)
}

/// The directives of the top function `func` (named `top`) of `ir`: its
/// attributes, then the file's entries over them.
pub fn resolve(
    ctx: &mut Context,
    ir: &Ir,
    func: OpId,
    top: &str,
    file: Option<&file::File>,
) -> Res<Directives> {
    let (loops, arrays) = names::collect(ctx, ir, func, top);
    let mut d = Directives {
        loop_paths: loops.iter().map(|l| (l.op, l.path.clone())).collect(),
        ..Directives::default()
    };
    from_attributes(ctx, ir, func, &loops, &arrays, &mut d)?;
    if let Some(f) = file {
        from_file(ctx, f, &loops, &arrays, &mut d)?;
    }
    Ok(d)
}

fn from_attributes(
    ctx: &Context,
    ir: &Ir,
    func: OpId,
    loops: &[LoopName],
    arrays: &[ArrayName],
    d: &mut Directives,
) -> Res<()> {
    let origin = Origin::Attribute;
    for l in loops {
        let loc = ir.op_loc(l.op);
        let mut ld = LoopDirectives::default();
        if let Some(v) = attr_value(ctx, ir, l.op, "hls.pipeline")? {
            ld.pipeline = Some(Setting::new(pipeline_of(&v, loc)?, loc, origin));
        }
        if let Some(v) = attr_value(ctx, ir, l.op, "hls.unroll")? {
            ld.unroll = Some(Setting::new(unroll_of(&v, loc)?, loc, origin));
        }
        if let Some(v) = attr_value(ctx, ir, l.op, "hls.flatten")? {
            ld.flatten = Some(Setting::new(flatten_of(&v, loc)?, loc, origin));
        }
        if let Some(v) = attr_value(ctx, ir, l.op, "hls.hoist")? {
            ld.hoist = Some(Setting::new(hoist_of(&v, loc)?, loc, origin));
        }
        if let Some(v) = attr_value(ctx, ir, l.op, "hls.jam")? {
            ld.jam = Some(Setting::new(jam_of(&v, loc)?, loc, origin));
        }
        if let Some(v) = attr_value(ctx, ir, l.op, "hls.interchange")? {
            ld.interchange = Some(Setting::new(interchange_of(&v, loc)?, loc, origin));
        }
        if ld != LoopDirectives::default() {
            d.loops.insert(l.op, ld);
        }
    }
    let entry = ir.regions(func).next().and_then(|r| ir.entry_block(r));
    for a in arrays {
        let mut ad = ArrayDirectives::default();
        if let (None, Some(op)) = (a.arg, a.alloc) {
            if let Some(v) = attr_value(ctx, ir, op, "hls.depth")? {
                let loc = ir.op_loc(op);
                ad.depth = Some(Setting::new(depth_of(&v, loc)?, loc, origin));
            }
        }
        let (ports, partition, width, buffer, loc) = match (a.arg, a.alloc) {
            (Some(i), _) => {
                let loc = entry
                    .and_then(|b| ir.block_args(b).get(i).copied())
                    .and_then(|v| ir.value_loc(v))
                    .unwrap_or(ir.op_loc(func));
                let read = |key| arg_attr(ctx, ir, func, i, key).map(|x| value_of_attr(ctx, x));
                (
                    read("hls.ports"),
                    read("hls.partition"),
                    read("hls.width"),
                    read("hls.buffer"),
                    loc,
                )
            }
            (None, Some(op)) => {
                let loc = ir.op_loc(op);
                (
                    attr_value(ctx, ir, op, "hls.ports")?.map(Some),
                    attr_value(ctx, ir, op, "hls.partition")?.map(Some),
                    attr_value(ctx, ir, op, "hls.width")?.map(Some),
                    attr_value(ctx, ir, op, "hls.buffer")?.map(Some),
                    loc,
                )
            }
            (None, None) => continue,
        };
        let unreadable = || {
            bad::<Value>(
                loc,
                "'hls.ports'/'hls.partition'/'hls.width'/'hls.buffer' must be an integer, a boolean or a dictionary".into(),
            )
        };
        if let Some(v) = width {
            let v = match v {
                Some(v) => v,
                None => unreadable()?,
            };
            ad.width = Some(Setting::new(width_of(&v, loc)?, loc, origin));
        }
        if let Some(v) = buffer {
            let v = match v {
                Some(v) => v,
                None => unreadable()?,
            };
            let (on, copy) = buffer_of(&v, loc, origin)?;
            ad.buffer = Some(Setting::new(on, loc, origin));
            if copy != ArrayDirectives::default() {
                d.arrays.insert(buffer_name(&a.name), copy);
            }
        }
        if let Some(v) = ports {
            let v = match v {
                Some(v) => v,
                None => unreadable()?,
            };
            ad.ports = Some(Setting::new(ports_of(&v, loc)?, loc, origin));
        }
        if let Some(v) = partition {
            let v = match v {
                Some(v) => v,
                None => unreadable()?,
            };
            ad.partition = Some(Setting::new(partitioning_of(&v, loc)?, loc, origin));
        }
        if ad != ArrayDirectives::default() {
            d.arrays.insert(a.name.clone(), ad);
        }
    }
    if let Some(v) = attr_value(ctx, ir, func, "hls.dataflow")? {
        let loc = ir.op_loc(func);
        d.dataflow = Some(Setting::new(dataflow_of(&v, loc)?, loc, origin));
    }
    if let Some(v) = attr_value(ctx, ir, func, "hls.limits")? {
        let loc = ir.op_loc(func);
        let Value::Table(t) = v else {
            return bad(
                loc,
                "'hls.limits' must be a dictionary of unit counts".into(),
            );
        };
        for (class, n) in &t {
            if !LIMITED_CLASSES.contains(&class.as_str()) {
                return bad(
                    loc,
                    format!(
                        "no functional unit is named '{class}' (limits: {})",
                        LIMITED_CLASSES.join(", ")
                    ),
                );
            }
            let n = limit_of(n, loc)?;
            d.limits.insert(class.clone(), Setting::new(n, loc, origin));
        }
    }
    Ok(())
}

/// Writes the directives `d` of function `func` (named `top`) of `ir` as
/// `hls.*` attributes: on its loops (`hls.pipeline`, `hls.unroll`,
/// `hls.flatten`, `hls.hoist`), its memref arguments and allocations
/// (`hls.ports`, `hls.partition`) and itself (`hls.dataflow`, `hls.limits`), replacing
/// those there, so that [`resolve`] from the attributes gives them again.
pub fn write_attributes(ctx: &mut Context, ir: &mut Ir, func: OpId, top: &str, d: &Directives) {
    let i64 = ctx.signless(64);
    let i1 = ctx.signless(1);
    let mut loops: Vec<_> = d.loops.iter().collect();
    loops.sort_by_key(|(op, _)| **op);
    for (&op, l) in loops {
        if let Some(s) = &l.pipeline {
            let v = match s.value {
                Pipeline::Off => ctx.int_attr(i1, 0),
                Pipeline::Smallest => ctx.int_attr(i1, 1),
                Pipeline::Ii(n) => ctx.int_attr(i64, n),
            };
            set_attr(ctx, ir, op, "hls.pipeline", v);
        }
        if let Some(s) = &l.unroll {
            let v = match s.value {
                Unroll::Factor(k) => ctx.int_attr(i64, k),
                Unroll::Full => ctx.string_attr(b"full"),
            };
            set_attr(ctx, ir, op, "hls.unroll", v);
        }
        if let Some(s) = &l.jam {
            let v = ctx.int_attr(i64, s.value);
            set_attr(ctx, ir, op, "hls.jam", v);
        }
        for (key, s) in [
            ("hls.flatten", &l.flatten),
            ("hls.hoist", &l.hoist),
            ("hls.interchange", &l.interchange),
        ] {
            if let Some(s) = s {
                let v = ctx.int_attr(i1, u8::from(s.value));
                set_attr(ctx, ir, op, key, v);
            }
        }
    }
    let (_, arrays) = names::collect(ctx, ir, func, top);
    for a in arrays {
        let Some(ad) = d.arrays.get(&a.name) else {
            continue;
        };
        let copy = d.arrays.get(&buffer_name(&a.name));
        for (key, v) in array_attrs(ctx, ad, copy) {
            match (a.arg, a.alloc) {
                (Some(i), _) => set_arg_attr(ctx, ir, func, i, key, v),
                (None, Some(op)) => set_attr(ctx, ir, op, key, v),
                (None, None) => {}
            }
        }
    }
    if let Some(s) = &d.dataflow {
        let v = ctx.int_attr(i1, u8::from(s.value));
        set_attr(ctx, ir, func, "hls.dataflow", v);
    }
    if !d.limits.is_empty() {
        let fields: Vec<_> = d
            .limits
            .iter()
            .map(|(class, s)| (ctx.sym(class), ctx.int_attr(i64, s.value)))
            .collect();
        let v = ctx.dict_attr(fields);
        set_attr(ctx, ir, func, "hls.limits", v);
    }
}

/// Sets the discardable attribute `key` of `op` to `value`.
/// The directives `ad` of an array as its `hls.*` attributes (`copy`:
/// those of its on-chip copy, carried by `hls.buffer`).
fn array_attrs(
    ctx: &mut Context,
    ad: &ArrayDirectives,
    copy: Option<&ArrayDirectives>,
) -> Vec<(&'static str, Attr)> {
    let i64 = ctx.signless(64);
    let mut entries = Vec::new();
    if let Some(s) = &ad.ports {
        entries.push(("hls.ports", ctx.int_attr(i64, s.value)));
    }
    if let Some(s) = &ad.width {
        entries.push(("hls.width", ctx.int_attr(i64, s.value)));
    }
    if let Some(s) = &ad.depth {
        entries.push(("hls.depth", ctx.int_attr(i64, s.value)));
    }
    if let Some(s) = &ad.buffer {
        let mut fields = Vec::new();
        if let Some(p) = copy.and_then(|c| c.partition.as_ref()) {
            fields.push((ctx.sym("partition"), partitioning_attr(ctx, &p.value)));
        }
        if let Some(p) = copy.and_then(|c| c.ports.as_ref()) {
            fields.push((ctx.sym("ports"), ctx.int_attr(i64, p.value)));
        }
        let value = if s.value && !fields.is_empty() {
            ctx.dict_attr(fields)
        } else {
            let i1 = ctx.signless(1);
            ctx.int_attr(i1, u8::from(s.value))
        };
        entries.push(("hls.buffer", value));
    }
    if let Some(s) = &ad.partition {
        entries.push(("hls.partition", partitioning_attr(ctx, &s.value)));
    }
    entries
}

/// Writes the directives `ad` of an on-chip array as `hls.*`
/// attributes of its allocation `op`.
pub(super) fn write_array_attrs(ctx: &mut Context, ir: &mut Ir, op: OpId, ad: &ArrayDirectives) {
    for (key, v) in array_attrs(ctx, ad, None) {
        set_attr(ctx, ir, op, key, v);
    }
}

pub(super) use silica_ir::dialect::set_discardable_attr as set_attr;

/// Sets the attribute `key` of argument `i` of function `func`.
fn set_arg_attr(ctx: &mut Context, ir: &mut Ir, func: OpId, i: usize, key: &str, value: Attr) {
    let args = ir
        .regions(func)
        .next()
        .and_then(|r| ir.entry_block(r))
        .map_or(0, |b| ir.block_args(b).len());
    let mut dicts: Vec<Attr> = match silica_ir::dialect::inherent_attr(ctx, ir, func, "arg_attrs")
        .map(|a| ctx.attr_kind(a))
    {
        Some(AttrKind::Array(a)) => a.to_vec(),
        _ => Vec::new(),
    };
    let empty = ctx.empty_dict();
    dicts.resize(args.max(dicts.len()), empty);
    let key = ctx.sym(key);
    let mut entries: Vec<_> = ctx.dict_entries(dicts[i]).to_vec();
    entries.retain(|(k, _)| *k != key);
    entries.push((key, value));
    dicts[i] = ctx.dict_attr(entries);
    let array = ctx.array_attr(&dicts);
    silica_ir::dialect::set_inherent_attr(ctx, ir, func, "arg_attrs", array);
}

fn from_file(
    ctx: &mut Context,
    f: &file::File,
    loops: &[LoopName],
    arrays: &[ArrayName],
    d: &mut Directives,
) -> Res<()> {
    let name = ctx.sym(&f.name);
    let mut loc = |p: file::Pos| ctx.file_loc(name, p.line, p.col);
    let origin = Origin::File;
    if let Some(c) = &f.clock_ns {
        if !(c.value > 0.0 && c.value.is_finite()) {
            return bad(
                loc(c.pos),
                format!("clock_ns must be a positive number, not {}", c.value),
            );
        }
        d.clock_ns = Some(c.value);
    }
    if let Some(v) = &f.dataflow {
        let l = loc(v.pos);
        d.dataflow = Some(Setting::new(dataflow_of(&v.value, l)?, l, origin));
    }
    for e in &f.loops {
        let found = find_loops(loops, &e.label.value);
        if found.is_empty() {
            let all: Vec<&str> = loops.iter().map(|l| l.path.as_str()).collect();
            return bad(
                loc(e.label.pos),
                format!(
                    "no loop is named '{}' (loops: {})",
                    e.label.value,
                    if all.is_empty() {
                        "none".to_string()
                    } else {
                        all.join(", ")
                    }
                ),
            );
        }
        let pipeline = match &e.pipeline {
            Some(v) => {
                let l = loc(v.pos);
                Some(Setting::new(pipeline_of(&v.value, l)?, l, origin))
            }
            None => None,
        };
        let unroll = match &e.unroll {
            Some(v) => {
                let l = loc(v.pos);
                Some(Setting::new(unroll_of(&v.value, l)?, l, origin))
            }
            None => None,
        };
        let flatten = match &e.flatten {
            Some(v) => {
                let l = loc(v.pos);
                Some(Setting::new(flatten_of(&v.value, l)?, l, origin))
            }
            None => None,
        };
        let hoist = match &e.hoist {
            Some(v) => {
                let l = loc(v.pos);
                Some(Setting::new(hoist_of(&v.value, l)?, l, origin))
            }
            None => None,
        };
        let jam = match &e.jam {
            Some(v) => {
                let l = loc(v.pos);
                Some(Setting::new(jam_of(&v.value, l)?, l, origin))
            }
            None => None,
        };
        let interchange = match &e.interchange {
            Some(v) => {
                let l = loc(v.pos);
                Some(Setting::new(interchange_of(&v.value, l)?, l, origin))
            }
            None => None,
        };
        for l in found {
            let ld = d.loops.entry(l.op).or_default();
            if pipeline.is_some() {
                ld.pipeline.clone_from(&pipeline);
            }
            if unroll.is_some() {
                ld.unroll.clone_from(&unroll);
            }
            if flatten.is_some() {
                ld.flatten.clone_from(&flatten);
            }
            if hoist.is_some() {
                ld.hoist.clone_from(&hoist);
            }
            if jam.is_some() {
                ld.jam.clone_from(&jam);
            }
            if interchange.is_some() {
                ld.interchange.clone_from(&interchange);
            }
        }
    }
    // The on-chip copies of the arrays to be buffered can be named too.
    let buffered: Vec<String> = (f.arrays.iter())
        .filter(|e| {
            e.buffer
                .as_ref()
                .is_some_and(|b| b.value != Value::Boolean(false))
        })
        .map(|e| buffer_name(&e.name.value))
        .chain(
            (d.arrays.iter())
                .filter(|(_, a)| a.buffer.as_ref().is_some_and(|b| b.value))
                .map(|(n, _)| buffer_name(n)),
        )
        .collect();
    let mut copies = Vec::new();
    for e in &f.arrays {
        if !arrays.iter().any(|a| a.name == e.name.value) && !buffered.contains(&e.name.value) {
            let all: Vec<&str> = arrays.iter().map(|a| a.name.as_str()).collect();
            return bad(
                loc(e.name.pos),
                format!(
                    "no array is named '{}' (arrays: {})",
                    e.name.value,
                    if all.is_empty() {
                        "none".to_string()
                    } else {
                        all.join(", ")
                    }
                ),
            );
        }
        let ad = d.arrays.entry(e.name.value.clone()).or_default();
        if let Some(v) = &e.ports {
            let l = loc(v.pos);
            ad.ports = Some(Setting::new(ports_of(&v.value, l)?, l, origin));
        }
        if let Some(v) = &e.width {
            let l = loc(v.pos);
            ad.width = Some(Setting::new(width_of(&v.value, l)?, l, origin));
        }
        if let Some(v) = &e.depth {
            let l = loc(v.pos);
            ad.depth = Some(Setting::new(depth_of(&v.value, l)?, l, origin));
        }
        if let Some(v) = &e.buffer {
            let l = loc(v.pos);
            let (on, copy) = buffer_of(&v.value, l, origin)?;
            ad.buffer = Some(Setting::new(on, l, origin));
            if copy != ArrayDirectives::default() {
                copies.push((buffer_name(&e.name.value), copy));
            }
        }
        if let Some(v) = &e.partition {
            let l = loc(v.pos);
            ad.partition = Some(Setting::new(partitioning_of(&v.value, l)?, l, origin));
        }
    }
    for (name, copy) in copies {
        let ad = d.arrays.entry(name).or_default();
        ad.partition = ad.partition.take().or(copy.partition);
        ad.ports = ad.ports.take().or(copy.ports);
    }
    for (k, v) in &f.limits {
        let l = loc(k.pos);
        if !LIMITED_CLASSES.contains(&k.value.as_str()) {
            return bad(
                l,
                format!(
                    "no functional unit is named '{}' (limits: {})",
                    k.value,
                    LIMITED_CLASSES.join(", ")
                ),
            );
        }
        let n = limit_of(&v.value, loc(v.pos))?;
        d.limits.insert(k.value.clone(), Setting::new(n, l, origin));
    }
    Ok(())
}
