//! Printing an op through its declarative format, with the spacing rules
//! of MLIR's generated printers: a space before each element except after
//! opening punctuation or an empty literal, none before `,` `)` `]` `}`
//! `>` and similar single-character punctuation.

use super::syntax::{Elem, Target};
use super::{Arity, AttrSyntax, Signature};
use crate::attrs::AttrKind;
use crate::context::{Attr, Symbol, Type};
use crate::graph::{Ir, OpId, ValueId};
use crate::printer::AsmPrinter;
use smallvec::SmallVec;
use std::ops::Range;

struct State {
    should_space: bool,
    last_punct: bool,
}

/// The operands of an op and the range of each operand group in them.
pub(super) struct OperandGroups {
    values: SmallVec<[ValueId; 8]>,
    ranges: SmallVec<[Range<usize>; 4]>,
}

impl OperandGroups {
    /// The operands of group `i` (none for a missing group).
    fn group(&self, i: usize) -> &[ValueId] {
        self.ranges.get(i).map_or(&[], |r| &self.values[r.clone()])
    }
}

/// The operands of each operand group of `op`, split by arity (one group
/// of variable size at most) or by its segment sizes.
pub(super) fn operand_groups(
    ctx: &crate::context::Context,
    ir: &Ir,
    op: OpId,
    sig: &Signature,
) -> OperandGroups {
    let values: SmallVec<[ValueId; 8]> = ir.operands(op).collect();
    let n = values.len();
    if sig.segmented {
        if let Some(sizes) = segment_sizes(ctx, ir, op) {
            let mut at = 0;
            let mut ranges: SmallVec<[Range<usize>; 4]> = sizes
                .into_iter()
                .map(|len| {
                    let end = (at + len).min(n);
                    let r = at..end;
                    at = end;
                    r
                })
                .collect();
            ranges.resize(sig.operands.len(), n..n);
            return OperandGroups { values, ranges };
        }
    }
    let ranges = super::group_ranges(n, sig.operands.iter().map(|o| o.arity));
    OperandGroups { values, ranges }
}

/// The `operandSegmentSizes` property of `op`, if it has one.
pub fn segment_sizes(ctx: &crate::context::Context, ir: &Ir, op: OpId) -> Option<Vec<usize>> {
    let a = crate::dialect::inherent_attr(ctx, ir, op, SEGMENTS)?;
    ctx.int_array_values(a)?
        .into_iter()
        .map(|v| usize::try_from(v).ok())
        .collect()
}

/// The property holding operand group sizes.
pub const SEGMENTS: &str = "operandSegmentSizes";

/// The value of inherent attribute `name` of `op` (properties first).
pub(super) fn attr_value(
    p: &AsmPrinter<'_, '_>,
    op: OpId,
    sig: &Signature,
    i: usize,
) -> Option<Attr> {
    crate::dialect::signature_attr(p.ctx(), p.ir(), op, i, sig.attrs[i].name)
}

/// Whether the attribute `a` of parameter `i` is worth printing (present
/// and not its default).
fn attr_present(p: &AsmPrinter<'_, '_>, sig: &Signature, i: usize, a: Option<Attr>) -> bool {
    let Some(a) = a else { return false };
    match sig.attrs[i].default {
        Some(_) => !is_default(p, sig, i, a),
        None => true,
    }
}

fn is_default(p: &AsmPrinter<'_, '_>, sig: &Signature, i: usize, a: Attr) -> bool {
    sig.attrs[i]
        .default
        .is_some_and(|d| (d.matches)(p.ctx(), a))
}

/// Prints `op` (after its name) as `sig.format` says.
pub(super) fn print_with_format(p: &mut AsmPrinter<'_, '_>, op: OpId, sig: &'static Signature) {
    let Ok(format) = sig.parsed_format() else {
        p.write(" <<invalid assembly format>>");
        return;
    };
    let groups = operand_groups(p.ctx(), p.ir(), op, sig);
    let mut st = State {
        should_space: true,
        last_punct: false,
    };
    // A space element before anything else changes nothing: the first
    // element is always set off from the op name (`index.cmp slt(...)`).
    let start = format
        .elems
        .iter()
        .take_while(|e| matches!(e, Elem::Space(_)))
        .count();
    let used = &format.used_attrs;
    elems(p, op, sig, &groups, used, &format.elems[start..], &mut st);
}

fn space_before(lit: &str, last_punct: bool) -> bool {
    if lit.len() != 1 && lit != "->" {
        return true;
    }
    let c = lit.as_bytes()[0];
    if last_punct {
        return !b">)}],".contains(&c);
    }
    !b"<>(){}[],".contains(&c)
}

/// Whether the anchor of an optional group is present.
fn present(
    p: &AsmPrinter<'_, '_>,
    op: OpId,
    sig: &Signature,
    groups: &OperandGroups,
    e: &Elem,
) -> bool {
    match e {
        Elem::Operand(i) => !groups.group(*i).is_empty(),
        Elem::Attr(i) => attr_present(p, sig, *i, attr_value(p, op, sig, *i)),
        Elem::Region(i) => p
            .ir()
            .regions(op)
            .nth(*i)
            .is_some_and(|r| !p.ir().region_is_empty(r)),
        Elem::Operands => p.ir().num_operands(op) > 0,
        Elem::Type(t) => !target_types(p, op, sig, groups, *t).is_empty(),
        _ => true,
    }
}

fn target_types(
    p: &AsmPrinter<'_, '_>,
    op: OpId,
    sig: &Signature,
    groups: &OperandGroups,
    t: Target,
) -> SmallVec<[Type; 4]> {
    let ir = p.ir();
    match t {
        Target::Operand(i) => groups.group(i).iter().map(|v| ir.value_type(*v)).collect(),
        Target::Operands => groups.values.iter().map(|v| ir.value_type(*v)).collect(),
        // Results: single-result groups in order (one variable group at most).
        Target::Result(i) => {
            let n = ir.num_results(op);
            let range = if sig.results.iter().all(|r| r.arity == Arity::One) {
                i..(i + 1).min(n)
            } else {
                let ranges = super::group_ranges(n, sig.results.iter().map(|r| r.arity));
                ranges.get(i).cloned().unwrap_or(0..0)
            };
            range.map(|k| ir.value_type(ir.result(op, k))).collect()
        }
        Target::Results => ir.results(op).map(|v| ir.value_type(v)).collect(),
    }
}

fn elems(
    p: &mut AsmPrinter<'_, '_>,
    op: OpId,
    sig: &'static Signature,
    groups: &OperandGroups,
    used: &[usize],
    list: &[Elem],
    st: &mut State,
) {
    for e in list {
        match e {
            Elem::Literal(s) | Elem::Punct(s, _) => {
                if st.should_space && space_before(s, st.last_punct) {
                    p.write(" ");
                }
                p.write(s);
                st.should_space = !(s.len() == 1 && "<({[".contains(*s));
                st.last_punct = !s.starts_with(|c: char| c == '_' || c.is_ascii_alphabetic());
            }
            Elem::Space(true) => {
                p.write(" ");
                st.last_punct = false;
                st.should_space = false;
            }
            Elem::Space(false) => {
                st.last_punct = true;
                st.should_space = false;
            }
            Elem::AttrDict { keyword } => {
                attr_dict(p, op, sig, used, *keyword);
                st.last_punct = false;
            }
            Elem::Optional {
                elems: inner,
                anchor,
            } => {
                if present(p, op, sig, groups, &inner[*anchor]) {
                    elems(p, op, sig, groups, used, inner, st);
                }
            }
            Elem::Attr(i) if matches!(sig.attrs[*i].syntax, AttrSyntax::Unit) => {}
            _ => {
                if st.should_space || !st.last_punct {
                    p.write(" ");
                }
                st.last_punct = false;
                st.should_space = true;
                value(p, op, sig, groups, e);
            }
        }
    }
}

fn value(
    p: &mut AsmPrinter<'_, '_>,
    op: OpId,
    sig: &'static Signature,
    groups: &OperandGroups,
    e: &Elem,
) {
    match e {
        Elem::Operand(i) => p.operands(groups.group(*i).iter().copied()),
        Elem::Operands => p.operands(groups.values.iter().copied()),
        Elem::Attr(i) => {
            let param = &sig.attrs[*i];
            let Some(a) = attr_value(p, op, sig, *i) else {
                return;
            };
            match param.syntax {
                AttrSyntax::Plain
                | AttrSyntax::Str
                | AttrSyntax::FlatSymbolRef
                | AttrSyntax::Unit => p.attr(a),
                AttrSyntax::IntEnum(_, names) => {
                    let ctx = p.ctx();
                    let name = match ctx.attr_kind(a) {
                        AttrKind::Integer { value, .. } => usize::try_from(value)
                            .ok()
                            .and_then(|v| names.get(v).copied()),
                        _ => None,
                    };
                    match name {
                        Some(n) => p.write(n),
                        None => p.attr(a),
                    }
                }
                AttrSyntax::Dialect(..) => p.dialect_attr_params(a),
                AttrSyntax::IndexInt | AttrSyntax::Int(_) => {
                    if let AttrKind::Integer { value, .. } = p.ctx().attr_kind(a) {
                        let text = value.to_string();
                        p.write(&text);
                    }
                }
                AttrSyntax::Custom(c) => {
                    let mut text = String::new();
                    (c.print)(p.ctx(), a, &mut text);
                    p.write(&text);
                }
                AttrSyntax::I32Array | AttrSyntax::I64Array => {
                    let values = p.ctx().int_array_values(a).unwrap_or_default();
                    let text: Vec<String> = values.iter().map(i64::to_string).collect();
                    p.write("[");
                    p.write(&text.join(", "));
                    p.write("]");
                }
            }
        }
        Elem::Type(t) => {
            let tys = target_types(p, op, sig, groups, *t);
            p.types(&tys);
        }
        Elem::FunctionalType(a, b) => {
            let ins = target_types(p, op, sig, groups, *a);
            let outs = target_types(p, op, sig, groups, *b);
            p.functional_type(&ins, &outs);
        }
        Elem::Successor(i) => {
            if let Some(&b) = p.ir().successors(op).get(*i) {
                p.successor(b);
            }
        }
        Elem::Region(i) => {
            if let Some(r) = p.ir().regions(op).nth(*i) {
                p.region(r, true, false);
            }
        }
        Elem::DynamicIndexList {
            operand,
            attr,
            paren,
        } => {
            let statics = attr_value(p, op, sig, *attr)
                .and_then(|a| p.ctx().int_array_values(a))
                .unwrap_or_default();
            p.dynamic_index_list(groups.group(*operand), &statics, *paren);
        }
        Elem::Regions => {
            let rs: Vec<_> = p.ir().regions(op).collect();
            for (k, r) in rs.into_iter().enumerate() {
                if k > 0 {
                    p.write(", ");
                }
                p.region(r, true, false);
            }
        }
        _ => {}
    }
}

/// ` {...}`: the op's attributes (properties and discardable ones) that
/// the format does not print and that do not hold their default.
fn attr_dict(p: &mut AsmPrinter<'_, '_>, op: OpId, sig: &Signature, used: &[usize], keyword: bool) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let mut entries: Vec<(Symbol, Attr)> = Vec::new();
    let props = ir.op_props(op).map(|d| ctx.dict_entries(d)).unwrap_or(&[]);
    for &(k, v) in props.iter().chain(ctx.dict_entries(ir.op_attrs(op))) {
        let name = ctx.str(k);
        let param = sig.attrs.iter().position(|a| a.name == name);
        let elided = param.is_some_and(|i| used.contains(&i) || is_default(p, sig, i, v))
            || (sig.segmented && name == SEGMENTS);
        if !elided {
            entries.push((k, v));
        }
    }
    entries.sort_by(|a, b| ctx.str(a.0).cmp(ctx.str(b.0)));
    p.attr_entries(&entries, keyword);
}
