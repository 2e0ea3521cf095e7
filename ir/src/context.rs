//! The uniquing context: interned identifiers, hash-consed types and
//! attributes.
//!
//! Every identifier, type and attribute lives exactly once in a [`Context`];
//! the handles ([`Symbol`], [`Type`], [`Attr`]) are `u32` indices, so
//! equality is index equality and handles are `Copy`.

use crate::attrs::AttrKind;
use crate::types::TypeKind;
use indexmap::IndexSet;
use rustc_hash::FxBuildHasher;

/// An interned string (identifier, op name, attribute name, file name).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Symbol(pub(crate) u32);

/// A hash-consed type.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Type(pub(crate) u32);

/// A hash-consed attribute (locations are attributes too).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Attr(pub(crate) u32);

type Set<T> = IndexSet<T, FxBuildHasher>;

/// Owns all uniqued objects. Mutation (interning) takes `&mut self`;
/// lookups take `&self`.
pub struct Context {
    strings: Set<Box<str>>,
    types: Set<TypeKind>,
    attrs: Set<AttrKind>,
    next_distinct: u32,
    /// Dialect names whose unregistered ops are accepted.
    pub allow_unregistered: bool,
}

impl Default for Context {
    fn default() -> Self {
        Self::new()
    }
}

impl Context {
    /// A fresh context.
    pub fn new() -> Self {
        Context {
            strings: Set::default(),
            types: Set::default(),
            attrs: Set::default(),
            next_distinct: 0,
            allow_unregistered: false,
        }
    }

    /// Interns `s`.
    pub fn sym(&mut self, s: &str) -> Symbol {
        if let Some(i) = self.strings.get_index_of(s) {
            return Symbol(i as u32);
        }
        let (i, _) = self.strings.insert_full(s.into());
        Symbol(i as u32)
    }

    /// Looks up `s` without interning it.
    pub fn lookup_sym(&self, s: &str) -> Option<Symbol> {
        self.strings.get_index_of(s).map(|i| Symbol(i as u32))
    }

    /// The text of an interned string.
    pub fn str(&self, s: Symbol) -> &str {
        &self.strings[s.0 as usize]
    }

    /// A fresh id for a `distinct[...]` attribute.
    pub fn fresh_distinct_id(&mut self) -> u32 {
        self.next_distinct += 1;
        self.next_distinct - 1
    }

    /// Uniques a type.
    pub fn intern_type(&mut self, kind: TypeKind) -> Type {
        if let Some(i) = self.types.get_index_of(&kind) {
            return Type(i as u32);
        }
        Type(self.types.insert_full(kind).0 as u32)
    }

    /// The structure of a type.
    pub fn type_kind(&self, t: Type) -> &TypeKind {
        &self.types[t.0 as usize]
    }

    /// Uniques an attribute.
    pub fn intern_attr(&mut self, kind: AttrKind) -> Attr {
        if let Some(i) = self.attrs.get_index_of(&kind) {
            return Attr(i as u32);
        }
        Attr(self.attrs.insert_full(kind).0 as u32)
    }

    /// The structure of an attribute.
    pub fn attr_kind(&self, a: Attr) -> &AttrKind {
        &self.attrs[a.0 as usize]
    }
}
