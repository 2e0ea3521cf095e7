//! Parsing an op through its declarative format: elements are read in
//! order (an optional group when its first element is there), then types
//! not spelled are inferred (equal-type groups, the signature's inference
//! function), operands are resolved, defaults are materialised, and the
//! op is built with its inherent attributes as properties.

use super::syntax::{Elem, Target};
use super::{Arity, AttrSyntax, Signature, Slot};
use crate::attrs::AttrKind;
use crate::context::{Attr, Symbol, Type};
use crate::graph::{OpId, OpSpec, RegionId};
use crate::lexer::Tok;
use crate::parser::{AsmParser, PResult, UnresolvedOperand};
use smallvec::{smallvec, SmallVec};

/// The values of one operand or result group (most hold one).
type Group<T> = SmallVec<[T; 2]>;

/// What the elements parsed so far gave, per signature slot. Inline
/// storage: most ops fit without a heap allocation.
struct State<'a> {
    /// The operands in the order written, each with its group.
    operands: SmallVec<[(usize, UnresolvedOperand<'a>); 4]>,
    operand_types: SmallVec<[Option<Group<Type>>; 4]>,
    result_types: SmallVec<[Option<Group<Type>>; 2]>,
    attrs: SmallVec<[Option<Attr>; 4]>,
    regions: SmallVec<[Option<RegionId>; 2]>,
    successors: SmallVec<[Option<crate::graph::BlockId>; 2]>,
    dict: Vec<(Symbol, Attr)>,
}

impl<'a> State<'a> {
    /// The operands of group `g`, in order.
    fn group(&self, g: usize) -> impl Iterator<Item = UnresolvedOperand<'a>> + '_ {
        self.operands
            .iter()
            .filter(move |(k, _)| *k == g)
            .map(|&(_, u)| u)
    }

    fn group_len(&self, g: usize) -> usize {
        self.operands.iter().filter(|(k, _)| *k == g).count()
    }
}

/// Parses the op `p` stands after the name of, as `sig.format` says.
pub(super) fn parse_with_format<'a>(
    p: &mut AsmParser<'_, 'a>,
    sig: &'static Signature,
) -> PResult<OpId> {
    let format = match sig.parsed_format() {
        Ok(f) => f,
        Err(e) => return p.op_error(format!("invalid assembly format: {e}")),
    };
    let mut st = State {
        operands: SmallVec::new(),
        operand_types: smallvec![None; sig.operands.len()],
        result_types: smallvec![None; sig.results.len()],
        attrs: smallvec![None; sig.attrs.len()],
        regions: smallvec![None; sig.regions.len()],
        successors: smallvec![None; sig.successors.len()],
        dict: Vec::new(),
    };
    elems(p, sig, &format.elems, &mut st)?;
    build(p, sig, &mut st)
}

/// Whether the element that opens an optional group is next.
fn starts(p: &AsmParser<'_, '_>, sig: &Signature, e: &Elem) -> bool {
    match e {
        Elem::Literal(s) => p.peek_keyword(s),
        Elem::Punct(_, t) => p.peek(*t),
        Elem::Operand(_) | Elem::Operands => p.peek(Tok::PercentId),
        Elem::Region(_) | Elem::Regions => p.peek(Tok::LBrace),
        Elem::Successor(_) => p.peek(Tok::CaretId),
        Elem::Attr(i) => match sig.attrs[*i].syntax {
            AttrSyntax::IntEnum(_, names) => {
                names.iter().any(|n| p.peek_keyword(n)) || p.peek(Tok::String)
            }
            AttrSyntax::Dialect(..) => p.peek(Tok::Less),
            AttrSyntax::Unit => false,
            AttrSyntax::I32Array | AttrSyntax::I64Array => p.peek(Tok::LSquare),
            AttrSyntax::Custom(c) => (c.starts)(p),
            AttrSyntax::IndexInt | AttrSyntax::Int(_) => {
                matches!(p.peek_kind(), Tok::Integer | Tok::Minus)
            }
            AttrSyntax::Str => p.peek(Tok::String),
            AttrSyntax::Plain | AttrSyntax::FlatSymbolRef => !matches!(
                p.peek_kind(),
                Tok::Colon
                    | Tok::Comma
                    | Tok::Equal
                    | Tok::RParen
                    | Tok::RSquare
                    | Tok::RBrace
                    | Tok::Eof
            ),
        },
        Elem::Type(_) | Elem::FunctionalType(..) => {
            matches!(p.peek_kind(), Tok::BangId | Tok::BareId | Tok::LParen)
        }
        Elem::AttrDict { .. } => p.peek(Tok::LBrace),
        Elem::DynamicIndexList { paren, .. } => {
            p.peek(if *paren { Tok::LParen } else { Tok::LSquare })
        }
        Elem::Space(_) | Elem::Optional { .. } => true,
    }
}

fn elems<'a>(
    p: &mut AsmParser<'_, 'a>,
    sig: &'static Signature,
    list: &[Elem],
    st: &mut State<'a>,
) -> PResult<()> {
    for e in list {
        match e {
            Elem::Literal(s) => p.expect_keyword(s)?,
            Elem::Punct(s, t) => {
                if !p.eat(*t) {
                    p.expect(*t, &format!("'{s}'"))?;
                }
            }
            Elem::Space(_) => {}
            Elem::Operand(i) => {
                let group = *i;
                match sig.operands[group].arity {
                    Arity::One => st.operands.push((group, p.parse_operand()?)),
                    Arity::Optional => {
                        if p.peek(Tok::PercentId) {
                            st.operands.push((group, p.parse_operand()?));
                        }
                    }
                    Arity::Variadic => {
                        if p.peek(Tok::PercentId) {
                            loop {
                                st.operands.push((group, p.parse_operand()?));
                                if !p.eat(Tok::Comma) {
                                    break;
                                }
                            }
                        }
                    }
                }
            }
            Elem::Operands => {
                let mut all: Group<UnresolvedOperand<'a>> = Group::new();
                if p.peek(Tok::PercentId) {
                    loop {
                        all.push(p.parse_operand()?);
                        if !p.eat(Tok::Comma) {
                            break;
                        }
                    }
                }
                let arities = sig.operands.iter().map(|o| o.arity);
                let ranges = super::group_ranges(all.len(), arities);
                st.operands.clear();
                for (group, r) in ranges.into_iter().enumerate() {
                    st.operands.extend(all[r].iter().map(|&u| (group, u)));
                }
            }
            Elem::Attr(i) => {
                let param = &sig.attrs[*i];
                let a = match param.syntax {
                    AttrSyntax::Plain => p.parse_attribute()?,
                    AttrSyntax::Str => {
                        if !p.peek(Tok::String) {
                            let at = p.pos();
                            let msg = if p.peek(Tok::Integer) {
                                "integer literal not valid for specified type".to_string()
                            } else {
                                format!(
                                    "custom op '{}' invalid kind of attribute specified",
                                    p.op_name()
                                )
                            };
                            return p.error_at(at, msg);
                        }
                        let bytes = p.parse_string()?;
                        p.ctx().string_attr(&bytes)
                    }
                    AttrSyntax::FlatSymbolRef => {
                        let at = p.pos();
                        let a = p.parse_attribute()?;
                        let flat = matches!(
                            p.ctx().attr_kind(a),
                            AttrKind::SymbolRef { nested, .. } if nested.is_empty()
                        );
                        if !flat {
                            let msg = format!(
                                "custom op '{}' invalid kind of attribute specified",
                                p.op_name()
                            );
                            return p.error_at(at, msg);
                        }
                        a
                    }
                    AttrSyntax::Unit => p.ctx().unit_attr(),
                    AttrSyntax::IndexInt => {
                        // `index` attributes hold 64-bit signed values.
                        let at = p.pos();
                        let v = p.parse_integer()?;
                        if i64::try_from(&v).is_err() {
                            return p.error_at(at, "integer constant out of range for attribute");
                        }
                        let ctx = p.ctx();
                        let index = ctx.index_type();
                        ctx.int_attr(index, v)
                    }
                    AttrSyntax::Int(width) => {
                        let v = p.parse_integer()?;
                        let ctx = p.ctx();
                        let ty = ctx.signless(width);
                        ctx.int_attr(ty, v)
                    }
                    AttrSyntax::Custom(c) => (c.parse)(p)?,
                    AttrSyntax::I32Array | AttrSyntax::I64Array => {
                        p.expect(Tok::LSquare, "'['")?;
                        let mut values = Vec::new();
                        p.comma_list(Tok::RSquare, "']'", |p| {
                            let neg = p.eat(Tok::Minus);
                            let v = p.parse_u64()? as i64;
                            values.push(if neg { -v } else { v });
                            Ok(())
                        })?;
                        let width = if matches!(param.syntax, AttrSyntax::I32Array) {
                            32
                        } else {
                            64
                        };
                        p.ctx().int_array_attr(width, &values)
                    }
                    AttrSyntax::IntEnum(width, names) => {
                        let at = p.pos();
                        // A keyword or a string, as MLIR's enum parsers read.
                        let word = if p.peek(Tok::String) {
                            String::from_utf8_lossy(&p.parse_string()?).into_owned()
                        } else {
                            p.parse_keyword()?.to_string()
                        };
                        let Some(v) = names.iter().position(|n| *n == word) else {
                            let msg = format!(
                                "custom op '{}' expected string or keyword containing one of the following enum values for attribute '{}' [{}]",
                                p.op_name(),
                                param.name,
                                names.join(", ")
                            );
                            return p.error_at(at, msg);
                        };
                        let ctx = p.ctx();
                        let ty = ctx.signless(width);
                        ctx.int_attr(ty, v as i64)
                    }
                    AttrSyntax::Dialect(dialect, mnemonic) => {
                        p.parse_dialect_attr_params(dialect, mnemonic)?
                    }
                };
                st.attrs[*i] = Some(a);
            }
            Elem::Type(t) => {
                let tys = parse_types(p, sig, *t)?;
                set_types(sig, st, *t, tys);
            }
            Elem::FunctionalType(a, b) => {
                let at = p.pos();
                let fty = p.parse_type()?;
                let (ins, outs) = match p.ctx().type_kind(fty) {
                    crate::types::TypeKind::Function { inputs, results } => {
                        (Group::from_slice(inputs), Group::from_slice(results))
                    }
                    _ => return p.error_at(at, "expected function type"),
                };
                set_types(sig, st, *a, ins);
                set_types(sig, st, *b, outs);
            }
            Elem::AttrDict { keyword } => {
                let dict = if *keyword {
                    p.parse_optional_attr_dict_with_keyword()?
                } else {
                    p.parse_optional_attr_dict()?
                };
                st.dict = p.ctx().dict_entries(dict).to_vec();
            }
            Elem::Region(i) => {
                let r = p.ir().create_region();
                p.parse_region(r)?;
                st.regions[*i] = Some(r);
            }
            Elem::Regions => {
                return p.op_error("the `regions` directive is not supported");
            }
            Elem::Successor(i) => st.successors[*i] = Some(p.parse_successor()?),
            Elem::DynamicIndexList {
                operand,
                attr,
                paren,
            } => {
                let (values, statics) = p.parse_dynamic_index_list(*paren)?;
                st.operands.retain(|(g, _)| g != operand);
                st.operands
                    .extend(values.into_iter().map(|u| (*operand, u)));
                st.attrs[*attr] = Some(p.ctx().int_array_attr(64, &statics));
            }
            Elem::Optional {
                elems: inner,
                anchor,
            } => {
                let first = inner.iter().find(|e| !matches!(e, Elem::Space(_)));
                if first.is_some_and(|f| starts(p, sig, f)) {
                    if let Elem::Attr(i) = &inner[*anchor] {
                        if matches!(sig.attrs[*i].syntax, AttrSyntax::Unit) {
                            st.attrs[*i] = Some(p.ctx().unit_attr());
                        }
                    }
                    elems(p, sig, inner, st)?;
                }
            }
        }
    }
    Ok(())
}

/// One type, or a comma-separated list for variable-size targets.
fn parse_types(p: &mut AsmParser<'_, '_>, sig: &Signature, t: Target) -> PResult<Group<Type>> {
    let single = match t {
        Target::Operand(i) => sig.operands[i].arity == Arity::One,
        Target::Result(i) => sig.results[i].arity == Arity::One,
        Target::Operands | Target::Results => false,
    };
    let mut out: Group<Type> = smallvec![p.parse_type()?];
    if single {
        return Ok(out);
    }
    while p.eat(Tok::Comma) {
        out.push(p.parse_type()?);
    }
    Ok(out)
}

fn set_types(sig: &Signature, st: &mut State<'_>, t: Target, tys: Group<Type>) {
    match t {
        Target::Operand(i) => st.operand_types[i] = Some(tys),
        Target::Result(i) => st.result_types[i] = Some(tys),
        Target::Operands => {
            let ranges = super::group_ranges(tys.len(), sig.operands.iter().map(|o| o.arity));
            for (slot, r) in st.operand_types.iter_mut().zip(ranges) {
                *slot = Some(Group::from_slice(&tys[r]));
            }
        }
        Target::Results => {
            let ranges = super::group_ranges(tys.len(), sig.results.iter().map(|o| o.arity));
            for (slot, r) in st.result_types.iter_mut().zip(ranges) {
                *slot = Some(Group::from_slice(&tys[r]));
            }
        }
    }
}

/// Fills unknown types from equal-type groups: a group member with a
/// known single type gives it to every member.
fn propagate_same_types(sig: &Signature, st: &mut State<'_>) {
    for group in &sig.slots().same_types {
        let known = group.iter().find_map(|slot| {
            let tys = match *slot {
                Slot::Operand(i) => st.operand_types[i].as_ref(),
                Slot::Result(i) => st.result_types[i].as_ref(),
            };
            tys.and_then(|t| t.first().copied())
        });
        let Some(ty) = known else { continue };
        for slot in group {
            match *slot {
                Slot::Operand(i) if st.operand_types[i].is_none() => {
                    st.operand_types[i] = Some(smallvec![ty; st.group_len(i)]);
                }
                Slot::Result(i) if st.result_types[i].is_none() => {
                    st.result_types[i] = Some(smallvec![ty]);
                }
                _ => {}
            }
        }
    }
}

fn build<'a>(
    p: &mut AsmParser<'_, 'a>,
    sig: &'static Signature,
    st: &mut State<'a>,
) -> PResult<OpId> {
    propagate_same_types(sig, st);
    for &(t, src, rule) in &sig.slots().derived_types {
        let source = st.operand_types[src]
            .as_ref()
            .and_then(|tys| tys.first().copied());
        if st.operand_types[t].is_none() {
            if let Some(ty) = source.and_then(|ty| (rule.derive)(p.ctx(), ty)) {
                st.operand_types[t] = Some(smallvec![ty; st.group_len(t)]);
            }
        }
    }
    // Resolve operands (their types must be known by now).
    let mut operands: SmallVec<[_; 8]> = SmallVec::new();
    let mut operand_types: SmallVec<[Type; 8]> = SmallVec::new();
    for i in 0..sig.operands.len() {
        let group: Group<UnresolvedOperand<'a>> = st.group(i).collect();
        let empty = Group::new();
        let built: Group<Type>;
        let tys = match &st.operand_types[i] {
            None if group.is_empty() => Some(&empty),
            None => match sig.operands[i].constraint.build {
                Some(build) => {
                    built = smallvec![build(p.ctx()); group.len()];
                    Some(&built)
                }
                None => None,
            },
            t => t.as_ref(),
        };
        let Some(tys) = tys else {
            return p.op_error(format!(
                "the type of operand '{}' is not given",
                sig.operands[i].name
            ));
        };
        if tys.len() != group.len() {
            let pos = group.first().map_or(p.pos(), |u| u.pos);
            return p.error_at(
                pos,
                format!(
                    "{} operands present, but expected {}",
                    group.len(),
                    tys.len()
                ),
            );
        }
        for (&u, &t) in group.iter().zip(tys) {
            operands.push(p.resolve_operand(u, t)?);
            operand_types.push(t);
        }
    }
    let mut result_types: SmallVec<[Type; 4]> = SmallVec::new();
    if st.result_types.iter().all(Option::is_some) {
        for tys in st.result_types.iter().flatten() {
            result_types.extend(tys.iter().copied());
        }
    } else if sig.results.iter().all(|r| r.constraint.build.is_some()) {
        for r in sig.results {
            if let Some(build) = r.constraint.build {
                result_types.push(build(p.ctx()));
            }
        }
    } else if let Some(infer) = sig.infer {
        match infer(p.ctx(), &operand_types, &st.attrs) {
            Some(tys) => result_types = SmallVec::from_vec(tys),
            None => return p.op_error("failed to infer result types"),
        }
    } else {
        return p.op_error("the result types are not given");
    }
    // Inherent attributes become properties; defaults are materialised.
    let mut props: SmallVec<[(Symbol, Attr); 4]> = SmallVec::new();
    let mut discardable = Vec::new();
    for (k, v) in std::mem::take(&mut st.dict) {
        match sig.attr_index(p.ctx().str(k)) {
            Some(i) if st.attrs[i].is_none() => st.attrs[i] = Some(v),
            Some(_) => {}
            None => discardable.push((k, v)),
        }
    }
    let op_name = p.op_name();
    let name = match p.op_symbol() {
        Some(name) => name,
        None => p.ctx().sym(op_name),
    };
    for (i, (param, value)) in sig.attrs.iter().zip(&st.attrs).enumerate() {
        let value = match (value, param.default) {
            (Some(v), _) => Some(*v),
            (None, Some(d)) if !param.optional => Some(p.ctx().built_attr(d.make)),
            _ => None,
        };
        if let Some(v) = value {
            let ctx = p.ctx();
            let k = match ctx.op_attr_names(name).get(i) {
                Some(&k) => k,
                None => ctx.sym(param.name),
            };
            props.push((k, v));
        }
    }
    if sig.segmented {
        let sizes: SmallVec<[i64; 8]> = (0..sig.operands.len())
            .map(|g| st.group_len(g) as i64)
            .collect();
        let ctx = p.ctx();
        let sizes = ctx.int_array_attr(32, &sizes);
        let k = ctx.sym(super::print::SEGMENTS);
        props.push((k, sizes));
    }
    let regions: SmallVec<[RegionId; 2]> = st.regions.iter().flatten().copied().collect();
    let successors: SmallVec<[crate::graph::BlockId; 2]> =
        st.successors.iter().flatten().copied().collect();
    let loc = p.op_loc();
    let ctx = p.ctx();
    let attrs = ctx.dict_attr(discardable);
    let props = (!props.is_empty()).then(|| ctx.dict_attr(props));
    Ok(p.create_op(OpSpec {
        name,
        loc,
        operands: &operands,
        result_types: &result_types,
        successors: &successors,
        regions: &regions,
        attrs,
        props,
    }))
}
