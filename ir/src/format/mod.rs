//! Declarative op definitions: an op's operands, results, attributes and
//! regions ([`Signature`]) and its assembly in MLIR's declarative format
//! syntax (`$lhs `,` $rhs attr-dict `:` type($result)`), from which the
//! op's parser, printer and structural verifier follow.
//!
//! This module holds the definitions and the format syntax; `parse.rs`
//! and `print.rs` interpret a format, `check.rs` verifies ops against
//! their signature.

pub(crate) mod check;
mod parse;
mod print;
mod syntax;

pub use check::verify_signature;
pub use print::{segment_sizes, SEGMENTS};

use crate::context::{Attr, Context, Type};
use crate::graph::OpId;
use crate::parser::{AsmParser, PResult};
use crate::printer::AsmPrinter;
use std::sync::OnceLock;
use syntax::Format;

/// The custom-form parser of ops defined by a signature with a format.
pub fn parse_op(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    match p.op_def().and_then(|d| d.signature) {
        Some(sig) => parse::parse_with_format(p, sig),
        None => p.op_error("op has no assembly format"),
    }
}

/// The custom-form printer of ops defined by a signature with a format.
pub fn print_op(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let sig = p.ctx().op_def(p.ir().op_name(op)).and_then(|d| d.signature);
    if let Some(sig) = sig {
        print::print_with_format(p, op, sig);
    }
}

/// The ranges of `n` values split over groups of the given arities:
/// single groups take one, the variable-size group (at most one) the rest.
pub(crate) fn group_ranges(
    n: usize,
    arities: impl ExactSizeIterator<Item = Arity> + Clone,
) -> smallvec::SmallVec<[std::ops::Range<usize>; 4]> {
    let mut fixed = 0;
    for a in arities.clone() {
        fixed += usize::from(a == Arity::One);
    }
    let rest = n.saturating_sub(fixed);
    let mut ranges = smallvec::SmallVec::new();
    let mut at = 0;
    for a in arities {
        let len = if a == Arity::One { 1 } else { rest };
        let end = (at + len).min(n);
        ranges.push(at..end);
        at = end;
    }
    ranges
}

/// How many values an operand or result group holds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Arity {
    One,
    Optional,
    Variadic,
}

/// A predicate on types, with the description MLIR's messages use.
#[derive(Clone, Copy, Debug)]
pub struct TypeConstraint {
    pub desc: &'static str,
    pub check: fn(&Context, Type) -> bool,
    /// The one type the constraint allows, when it allows one (`i1`):
    /// formats need not spell it.
    pub build: Option<fn(&mut Context) -> Type>,
}

/// Any type.
pub const ANY_TYPE: TypeConstraint = TypeConstraint {
    desc: "any type",
    check: |_, _| true,
    build: None,
};

/// A named operand or result group.
#[derive(Clone, Copy, Debug)]
pub struct ValueParam {
    pub name: &'static str,
    pub arity: Arity,
    pub constraint: TypeConstraint,
}

/// How an attribute is written by the format.
#[derive(Clone, Copy, Debug)]
pub enum AttrSyntax {
    /// As any attribute (`0 : i32`, `@callee`).
    Plain,
    /// A string literal (`"text"`), read without a trailing `: type` as
    /// MLIR reads a `StrAttr`; any other attribute is "invalid kind of
    /// attribute specified".
    Str,
    /// A symbol reference without nested references (`@callee`); any
    /// other attribute is "invalid kind of attribute specified".
    FlatSymbolRef,
    /// A keyword standing for an integer of the given width (`slt` for
    /// `2 : i64`): the keywords in value order.
    IntEnum(u32, &'static [&'static str]),
    /// A unit attribute: present or not (written by a literal in an
    /// optional group).
    Unit,
    /// An `array<i32: ...>` attribute written as `[1, 2]`.
    I32Array,
    /// An `array<i64: ...>` attribute written as `[1, 2]`.
    I64Array,
    /// An attribute with its own syntax (an enum property with a custom
    /// form such as `overflow<nsw>` or `inbounds|nuw`).
    Custom(&'static CustomAttrSyntax),
    /// An integer of type `index` written as a bare integer (`42`).
    IndexInt,
    /// A signless integer of the given width written bare (`16`).
    Int(u32),
    /// An attribute of the given dialect and mnemonic, written without
    /// `#dialect.mnemonic` (`<nsw, nuw>` for `#arith.overflow<nsw, nuw>`).
    Dialect(&'static str, &'static str),
}

/// How a [`AttrSyntax::Custom`] attribute is read and written.
#[derive(Debug)]
pub struct CustomAttrSyntax {
    /// Whether the attribute's text is next (decides optional groups).
    pub starts: fn(&AsmParser<'_, '_>) -> bool,
    pub parse: fn(&mut AsmParser<'_, '_>) -> PResult<Attr>,
    pub print: fn(&Context, Attr, &mut String),
}

/// A predicate on an attribute's value, with the description MLIR's
/// "failed to satisfy constraint" messages use.
#[derive(Clone, Copy, Debug)]
pub struct AttrConstraint {
    pub desc: &'static str,
    pub check: fn(&Context, Attr) -> bool,
}

/// A named inherent attribute.
#[derive(Clone, Copy, Debug)]
pub struct AttrParam {
    pub name: &'static str,
    pub syntax: AttrSyntax,
    /// Required unless optional or defaulted.
    pub optional: bool,
    /// The value an absent attribute stands for, elided by the printer.
    /// The parser materialises it unless the attribute is also optional
    /// (MLIR's `DefaultValuedAttr` versus `DefaultValuedOptionalAttr`).
    pub default: Option<AttrDefault>,
}

/// A default attribute value: how to make it and how to recognise it.
#[derive(Clone, Copy, Debug)]
pub struct AttrDefault {
    pub make: fn(&mut Context) -> Attr,
    pub matches: fn(&Context, Attr) -> bool,
}

/// `target`'s type is `derive(type of source)`.
#[derive(Clone, Copy, Debug)]
pub struct DerivedType {
    pub target: &'static str,
    pub source: &'static str,
    pub derive: fn(&Context, Type) -> Option<Type>,
}

/// Result types from operand types and attributes (in signature order),
/// for formats that do not spell them.
pub type InferFn = fn(&mut Context, &[Type], &[Option<Attr>]) -> Option<Vec<Type>>;

/// An op's operands, results, attributes, regions and assembly format.
#[derive(Debug)]
pub struct Signature {
    pub operands: &'static [ValueParam],
    pub results: &'static [ValueParam],
    pub attrs: &'static [AttrParam],
    pub regions: &'static [&'static str],
    pub successors: &'static [&'static str],
    /// Operand group sizes are kept in an `operandSegmentSizes` property
    /// (MLIR's `AttrSizedOperandSegments`).
    pub segmented: bool,
    /// Groups of operand/result names whose types are equal.
    pub same_types: &'static [&'static [&'static str]],
    /// MLIR's wording of each group's check, where the op states it
    /// itself (`TypesMatchWith`); empty for the default wording.
    pub same_types_desc: &'static [&'static str],
    /// Operand types that follow from another operand's type: (target,
    /// source, how) — a stored value's type from its memref's, say.
    pub derived_types: &'static [DerivedType],
    /// The declarative assembly format ("" when the op has none).
    pub format: &'static str,
    pub infer: Option<InferFn>,
    /// Constraints on the values of attributes, when present.
    pub attr_constraints: &'static [(&'static str, AttrConstraint)],
    parsed: OnceLock<Result<Format, String>>,
    slots: OnceLock<Slots>,
}

/// A named operand or result group of a signature, by index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Slot {
    Operand(usize),
    Result(usize),
}

/// The name-based parts of a signature in index form, resolved once.
#[derive(Debug)]
pub(crate) struct Slots {
    /// `same_types` groups (names that are neither operands nor results
    /// left out).
    pub same_types: Vec<Vec<Slot>>,
    /// `derived_types` rules as (target operand, source operand, rule).
    pub derived_types: Vec<(usize, usize, &'static DerivedType)>,
}

impl Signature {
    /// A signature; `format` is parsed on first use.
    pub const fn new(
        operands: &'static [ValueParam],
        results: &'static [ValueParam],
        attrs: &'static [AttrParam],
        format: &'static str,
    ) -> Signature {
        Signature {
            operands,
            results,
            attrs,
            regions: &[],
            successors: &[],
            segmented: false,
            same_types: &[],
            same_types_desc: &[],
            derived_types: &[],
            format,
            infer: None,
            attr_constraints: &[],
            parsed: OnceLock::new(),
            slots: OnceLock::new(),
        }
    }

    /// Constraints on attribute values (checked before operands).
    pub const fn attr_constraints(
        mut self,
        constraints: &'static [(&'static str, AttrConstraint)],
    ) -> Signature {
        self.attr_constraints = constraints;
        self
    }

    /// Types of all these operands and results are equal.
    pub const fn same_types(mut self, groups: &'static [&'static [&'static str]]) -> Signature {
        self.same_types = groups;
        self
    }

    /// How MLIR words the check of each `same_types` group (the
    /// description of a `TypesMatchWith` constraint).
    pub const fn same_types_described(mut self, descs: &'static [&'static str]) -> Signature {
        self.same_types_desc = descs;
        self
    }

    /// Operand types that follow from other operands' types.
    pub const fn derived_types(mut self, rules: &'static [DerivedType]) -> Signature {
        self.derived_types = rules;
        self
    }

    /// Result types follow from operand types through `f`.
    pub const fn infer(mut self, f: InferFn) -> Signature {
        self.infer = Some(f);
        self
    }

    /// Named successors.
    pub const fn successors(mut self, names: &'static [&'static str]) -> Signature {
        self.successors = names;
        self
    }

    /// Operand groups sized by an `operandSegmentSizes` property.
    pub const fn segmented(mut self) -> Signature {
        self.segmented = true;
        self
    }

    /// Named regions.
    pub const fn regions(mut self, names: &'static [&'static str]) -> Signature {
        self.regions = names;
        self
    }

    /// The parsed format, or what is wrong with it.
    pub fn parsed_format(&'static self) -> Result<&'static Format, &'static str> {
        self.parsed
            .get_or_init(|| syntax::parse_format(self))
            .as_ref()
            .map_err(|e| e.as_str())
    }

    /// The signature's groups and rules by index.
    pub(crate) fn slots(&self) -> &Slots {
        self.slots.get_or_init(|| Slots {
            same_types: self
                .same_types
                .iter()
                .map(|group| group.iter().filter_map(|n| self.slot(n)).collect())
                .collect(),
            derived_types: self
                .derived_types
                .iter()
                .filter_map(|rule| {
                    let target = self.operand_index(rule.target)?;
                    Some((target, self.operand_index(rule.source)?, rule))
                })
                .collect(),
        })
    }

    fn slot(&self, name: &str) -> Option<Slot> {
        match self.operand_index(name) {
            Some(i) => Some(Slot::Operand(i)),
            None => self.result_index(name).map(Slot::Result),
        }
    }

    fn operand_index(&self, name: &str) -> Option<usize> {
        self.operands.iter().position(|o| o.name == name)
    }

    fn result_index(&self, name: &str) -> Option<usize> {
        self.results.iter().position(|o| o.name == name)
    }

    fn attr_index(&self, name: &str) -> Option<usize> {
        self.attrs.iter().position(|a| a.name == name)
    }
}
