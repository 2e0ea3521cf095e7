//! The sub-elements of types and attributes (the types and attributes
//! they are built from), and which of them can hold an aliased element:
//! the printer chooses `#map`/`#set`/`#loc`/... aliases among those.

use super::{Attr, Context, Type};
use crate::attrs::{AttrKind, Location};
use crate::types::TypeKind;
use smallvec::SmallVec;

/// A type or an attribute.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Element {
    Attr(Attr),
    Type(Type),
}

/// Pushes the sub-elements of an attribute, in print order, onto `out`.
pub(crate) fn attr_children(ctx: &Context, kind: &AttrKind, out: &mut impl Extend<Element>) {
    use Element::{Attr as A, Type as T};
    match kind {
        AttrKind::Integer { ty, .. } | AttrKind::Float { ty, .. } => out.extend([T(*ty)]),
        AttrKind::String { ty: Some(t), .. } => out.extend([T(*t)]),
        AttrKind::Type(t) => out.extend([T(*t)]),
        AttrKind::Array(e) => out.extend(e.iter().map(|a| A(*a))),
        AttrKind::Dictionary(e) => out.extend(e.iter().map(|(_, a)| A(*a))),
        AttrKind::DenseArray { element, .. } => out.extend([T(*element)]),
        AttrKind::DenseElements { ty, .. }
        | AttrKind::DenseStrings { ty, .. }
        | AttrKind::DenseResource { ty, .. } => out.extend([T(*ty)]),
        AttrKind::Sparse {
            ty,
            indices,
            values,
        } => out.extend([T(*ty), A(*indices), A(*values)]),
        AttrKind::Opaque { ty: Some(t), .. } => out.extend([T(*t)]),
        // A dialect attribute prints its affine maps bare (MLIR's
        // `AffineMap` parameters): they are never aliased.
        AttrKind::Dialect { params, .. } => out.extend(
            params
                .iter()
                .filter(|a| !matches!(ctx.attr_kind(**a), AttrKind::AffineMap(_)))
                .map(|a| A(*a)),
        ),
        AttrKind::Distinct { referenced, .. } => out.extend([A(*referenced)]),
        AttrKind::Location(l) => match l {
            Location::Name { child: Some(c), .. } => out.extend([A(*c)]),
            Location::CallSite { callee, caller } => out.extend([A(*callee), A(*caller)]),
            Location::Fused { locs, metadata } => {
                out.extend(metadata.iter().map(|m| A(*m)));
                out.extend(locs.iter().map(|l| A(*l)));
            }
            _ => {}
        },
        _ => {}
    }
}

/// Pushes the sub-elements of a type, in print order, onto `out`.
pub(crate) fn type_children(kind: &TypeKind, out: &mut impl Extend<Element>) {
    use Element::{Attr as A, Type as T};
    match kind {
        TypeKind::Complex(e) => out.extend([T(*e)]),
        TypeKind::Function { inputs, results } => {
            out.extend(inputs.iter().chain(results.iter()).map(|t| T(*t)))
        }
        TypeKind::Tuple(e) => out.extend(e.iter().map(|t| T(*t))),
        TypeKind::Vector { element, .. } | TypeKind::UnrankedTensor { element } => {
            out.extend([T(*element)])
        }
        TypeKind::RankedTensor {
            element, encoding, ..
        } => {
            out.extend([T(*element)]);
            out.extend(encoding.iter().map(|a| A(*a)));
        }
        TypeKind::MemRef {
            element,
            layout,
            memory_space,
            ..
        } => {
            out.extend([T(*element)]);
            out.extend(layout.iter().map(|a| A(*a)));
            out.extend(memory_space.iter().map(|a| A(*a)));
        }
        TypeKind::UnrankedMemRef {
            element,
            memory_space,
        } => {
            out.extend([T(*element)]);
            out.extend(memory_space.iter().map(|a| A(*a)));
        }
        TypeKind::Dialect { params, .. } => out.extend(params.iter().map(|a| A(*a))),
        _ => {}
    }
}

/// Whether an attribute of this kind may get an alias itself (distinct
/// attributes only when they reference something, decided when printing).
fn attr_aliasable(kind: &AttrKind) -> bool {
    matches!(
        kind,
        AttrKind::AffineMap(_)
            | AttrKind::IntegerSet(_)
            | AttrKind::Location(_)
            | AttrKind::Distinct { .. }
    )
}

/// Whether a type of this kind may get an alias itself.
fn type_aliasable(kind: &TypeKind) -> bool {
    matches!(kind, TypeKind::Tuple(e) if e.len() > 16)
}

impl Context {
    /// The alias name a dialect gives its attribute `a`, if any.
    pub fn dialect_attr_alias(&self, a: Attr) -> Option<&'static str> {
        match self.attr_kind(a) {
            AttrKind::Dialect { dialect, name, .. } => self.alias_of_mnemonic(*dialect, *name),
            _ => None,
        }
    }

    fn alias_of_mnemonic(
        &self,
        dialect: super::Symbol,
        name: super::Symbol,
    ) -> Option<&'static str> {
        let hook = self.dialect(self.str(dialect))?.attrs?.alias?;
        hook(self.str(name))
    }

    /// Whether `a` is or holds an attribute or type that may be aliased.
    pub fn may_hold_alias(&self, e: Element) -> bool {
        match e {
            Element::Attr(a) => match a.0.checked_sub(super::FILE_LOC_BASE) {
                Some(_) => true,
                None => self.attr_alias_flags[a.0 as usize],
            },
            Element::Type(t) => self.type_alias_flags[t.0 as usize],
        }
    }

    /// The alias flag of a newly interned attribute.
    pub(super) fn attr_alias_flag(&self, kind: &AttrKind) -> bool {
        if attr_aliasable(kind) {
            return true;
        }
        if let AttrKind::Dialect { dialect, name, .. } = kind {
            if self.alias_of_mnemonic(*dialect, *name).is_some() {
                return true;
            }
        }
        let mut children: SmallVec<[Element; 8]> = SmallVec::new();
        attr_children(self, kind, &mut children);
        children.into_iter().any(|c| self.may_hold_alias(c))
    }

    /// The alias flag of a newly interned type.
    pub(super) fn type_alias_flag(&self, kind: &TypeKind) -> bool {
        if type_aliasable(kind) {
            return true;
        }
        let mut children: SmallVec<[Element; 8]> = SmallVec::new();
        type_children(kind, &mut children);
        children.into_iter().any(|c| self.may_hold_alias(c))
    }
}
