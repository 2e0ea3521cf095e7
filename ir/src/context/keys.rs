//! Borrowed lookup keys: find an already interned function type,
//! dictionary, array or string attribute from slices, without building
//! (and allocating) the owned [`TypeKind`] / [`AttrKind`] first.
//!
//! Each key hashes exactly as the derived `Hash` of the owned variant it
//! stands for (discriminant, then the fields in order; a boxed slice hashes
//! as its slice), and is [`Equivalent`] to it. The unit tests check both.

use super::{Attr, Symbol, Type};
use crate::attrs::AttrKind;
use crate::types::TypeKind;
use indexmap::Equivalent;
use std::hash::{Hash, Hasher};

/// Stands for `TypeKind::Function { inputs, results }`.
pub(super) struct FunctionKey<'a> {
    pub inputs: &'a [Type],
    pub results: &'a [Type],
}

impl Hash for FunctionKey<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        std::mem::discriminant(&TypeKind::Function {
            inputs: Box::new([]),
            results: Box::new([]),
        })
        .hash(state);
        self.inputs.hash(state);
        self.results.hash(state);
    }
}

impl Equivalent<TypeKind> for FunctionKey<'_> {
    fn equivalent(&self, key: &TypeKind) -> bool {
        matches!(key, TypeKind::Function { inputs, results }
            if **inputs == *self.inputs && **results == *self.results)
    }
}

/// Stands for `AttrKind::Dictionary(entries)` (entries sorted).
pub(super) struct DictKey<'a>(pub &'a [(Symbol, Attr)]);

impl Hash for DictKey<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        std::mem::discriminant(&AttrKind::Dictionary(Box::new([]))).hash(state);
        self.0.hash(state);
    }
}

impl Equivalent<AttrKind> for DictKey<'_> {
    fn equivalent(&self, key: &AttrKind) -> bool {
        matches!(key, AttrKind::Dictionary(e) if **e == *self.0)
    }
}

/// Stands for `AttrKind::Array(elements)`.
pub(super) struct ArrayKey<'a>(pub &'a [Attr]);

impl Hash for ArrayKey<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        std::mem::discriminant(&AttrKind::Array(Box::new([]))).hash(state);
        self.0.hash(state);
    }
}

impl Equivalent<AttrKind> for ArrayKey<'_> {
    fn equivalent(&self, key: &AttrKind) -> bool {
        matches!(key, AttrKind::Array(e) if **e == *self.0)
    }
}

/// Stands for `AttrKind::String { value, ty }`.
pub(super) struct StringKey<'a> {
    pub value: &'a [u8],
    pub ty: Option<Type>,
}

impl Hash for StringKey<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        std::mem::discriminant(&AttrKind::String {
            value: Box::new([]),
            ty: None,
        })
        .hash(state);
        self.value.hash(state);
        self.ty.hash(state);
    }
}

impl Equivalent<AttrKind> for StringKey<'_> {
    fn equivalent(&self, key: &AttrKind) -> bool {
        matches!(key, AttrKind::String { value, ty } if **value == *self.value && *ty == self.ty)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustc_hash::FxHasher;

    fn hash_of(v: &impl Hash) -> u64 {
        let mut h = FxHasher::default();
        v.hash(&mut h);
        h.finish()
    }

    #[test]
    fn keys_hash_like_the_owned_values() {
        let (a, b) = (Type(3), Type(7));
        let owned = TypeKind::Function {
            inputs: vec![a, b].into(),
            results: vec![b].into(),
        };
        let key = FunctionKey {
            inputs: &[a, b],
            results: &[b],
        };
        assert_eq!(hash_of(&owned), hash_of(&key));
        assert!(key.equivalent(&owned));
        assert!(!FunctionKey {
            inputs: &[a],
            results: &[a, b],
        }
        .equivalent(&owned));

        let entries = [(Symbol(1), Attr(2)), (Symbol(4), Attr(5))];
        let dict = AttrKind::Dictionary(entries.to_vec().into());
        assert_eq!(hash_of(&dict), hash_of(&DictKey(&entries)));
        assert!(DictKey(&entries).equivalent(&dict));

        let elems = [Attr(9), Attr(1)];
        let array = AttrKind::Array(elems.to_vec().into());
        assert_eq!(hash_of(&array), hash_of(&ArrayKey(&elems)));
        assert!(!ArrayKey(&elems[..1]).equivalent(&array));

        for ty in [None, Some(a)] {
            let s = AttrKind::String {
                value: b"nsw".to_vec().into(),
                ty,
            };
            let key = StringKey { value: b"nsw", ty };
            assert_eq!(hash_of(&s), hash_of(&key));
            assert!(key.equivalent(&s));
        }
    }
}
