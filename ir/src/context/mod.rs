//! The uniquing context: interned identifiers, hash-consed types and
//! attributes.
//!
//! Every identifier, type and attribute lives exactly once in a [`Context`];
//! the handles ([`Symbol`], [`Type`], [`Attr`]) are `u32` indices, so
//! equality is index equality and handles are `Copy`.

mod chunked;
mod elements;
mod fork;
mod keys;

pub use elements::Element;
pub(crate) use elements::{attr_children, type_children};
pub use fork::{ForkPoint, Import};

use crate::attrs::{AttrKind, Location};
use crate::types::TypeKind;
use indexmap::IndexSet;
use rustc_hash::{FxBuildHasher, FxHashMap};

/// An interned string (identifier, op name, attribute name, file name).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Symbol(pub(crate) u32);

/// A hash-consed type.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Type(pub(crate) u32);

/// A hash-consed attribute (locations are attributes too).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Attr(pub(crate) u32);

impl Symbol {
    /// The handle's number, unique in its context (for tables indexed by
    /// handle).
    pub fn id(self) -> u32 {
        self.0
    }
}

impl Type {
    /// The handle's number, unique in its context and dense from 0.
    pub fn id(self) -> u32 {
        self.0
    }
}

impl Attr {
    /// The handle's number, unique in its context: dense from 0, except
    /// file locations, dense from 2^31.
    pub fn id(self) -> u32 {
        self.0
    }
}

type Set<T> = IndexSet<T, FxBuildHasher>;

/// Slots of [`Context::common_types`].
pub(crate) const COMMON_TYPE_SLOTS: usize = 66 + crate::float::FloatKind::COUNT;

/// The empty dictionary, interned first in every context.
pub(crate) const EMPTY_DICT: Attr = Attr(0);
/// The unit attribute, interned second in every context.
pub(crate) const UNIT: Attr = Attr(1);
/// `loc(unknown)`, interned third in every context.
pub(crate) const UNKNOWN_LOC: Attr = Attr(2);

/// [`Attr`] ids from here on index [`Context::file_locs`].
const FILE_LOC_BASE: u32 = 1 << 31;

/// A file location of a per-file run: `(line, col)` and its id.
type LocRunEntry = ((u32, u32), Attr);

/// Owns all uniqued objects. Mutation (interning) takes `&mut self`;
/// lookups take `&self`.
pub struct Context {
    strings: Set<Box<str>>,
    types: Set<TypeKind>,
    attrs: Set<AttrKind>,
    /// Per type: whether it is or holds something the printer may alias.
    type_alias_flags: Vec<bool>,
    /// Per attribute (file locations aside, which always may).
    attr_alias_flags: Vec<bool>,
    /// `loc("file":line:col)` locations, uniqued apart from `attrs` by a
    /// small key: the parser makes one per op, and hashing whole
    /// [`AttrKind`]s for them was a fifth of parsing.
    file_locs: chunked::Chunked<AttrKind>,
    /// Per file, the locations met in increasing `(line, col)` order
    /// (the parser's order): appended without hashing, found by binary
    /// search.
    file_loc_runs: FxHashMap<Symbol, chunked::Chunked<LocRunEntry>>,
    /// The other file locations.
    file_loc_ids: FxHashMap<(Symbol, u32, u32), Attr>,
    next_distinct: u32,
    /// Attributes built by functions that always build the same one
    /// (declared defaults), by function address.
    built_attrs: FxHashMap<usize, Attr>,
    /// Signless `i0`..`i64`, `index` (slot 65) and the float types (from
    /// slot 66 on, in [`crate::float::FloatKind`] order), once interned:
    /// the parser asks for them constantly.
    pub(crate) common_types: [Option<Type>; COMMON_TYPE_SLOTS],
    /// Whether ops, types and attributes of unregistered dialects are
    /// accepted.
    pub allow_unregistered: bool,
    /// The registered dialects and ops.
    pub(crate) registry: crate::dialect::Registry,
    /// Diagnostics emitted without failing (MLIR's `emitError` from a
    /// pattern that then declines): the driver reports them.
    emitted: Vec<crate::diag::Diagnostic>,
}

impl Default for Context {
    fn default() -> Self {
        Self::new()
    }
}

impl Context {
    /// A fresh context.
    pub fn new() -> Self {
        let mut ctx = Context {
            strings: Set::default(),
            types: Set::default(),
            attrs: Set::default(),
            type_alias_flags: Vec::new(),
            attr_alias_flags: Vec::new(),
            file_locs: Default::default(),
            file_loc_runs: FxHashMap::default(),
            file_loc_ids: FxHashMap::default(),
            next_distinct: 0,
            built_attrs: FxHashMap::default(),
            common_types: [None; COMMON_TYPE_SLOTS],
            allow_unregistered: false,
            registry: Default::default(),
            emitted: Vec::new(),
        };
        ctx.register_dialect(&crate::builtin::BUILTIN);
        let empty = ctx.intern_attr(AttrKind::Dictionary(Box::new([])));
        let unit = ctx.intern_attr(AttrKind::Unit);
        let unknown = ctx.intern_attr(AttrKind::Location(Location::Unknown));
        debug_assert_eq!((empty, unit, unknown), (EMPTY_DICT, UNIT, UNKNOWN_LOC));
        ctx
    }

    /// The attribute `make` builds, which must always be the same one
    /// (a declared default): built once per context.
    pub fn built_attr(&mut self, make: fn(&mut Context) -> Attr) -> Attr {
        let key = make as usize;
        if let Some(&a) = self.built_attrs.get(&key) {
            return a;
        }
        let a = make(self);
        self.built_attrs.insert(key, a);
        a
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

    /// Whether any `distinct[...]` attribute was created.
    pub fn has_distinct(&self) -> bool {
        self.next_distinct > 0
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
        let flag = self.type_alias_flag(&kind);
        self.type_alias_flags.push(flag);
        Type(self.types.insert_full(kind).0 as u32)
    }

    /// Reports `d` without failing what is running: the driver shows it
    /// (or matches it against `expected-*` comments) once the chunk is
    /// done.
    pub fn emit(&mut self, d: crate::diag::Diagnostic) {
        self.emitted.push(d);
    }

    /// [`Context::emit`], unless the same message at the same place is
    /// already waiting to be reported.
    pub fn emit_once(&mut self, d: crate::diag::Diagnostic) {
        let seen = self
            .emitted
            .iter()
            .any(|e| e.loc == d.loc && e.message == d.message);
        if !seen {
            self.emitted.push(d);
        }
    }

    /// The diagnostics emitted so far, in order, leaving none.
    pub fn take_emitted(&mut self) -> Vec<crate::diag::Diagnostic> {
        std::mem::take(&mut self.emitted)
    }

    /// Every type interned so far, in the order first met.
    pub fn types(&self) -> impl ExactSizeIterator<Item = Type> + '_ {
        (0..self.types.len() as u32).map(Type)
    }

    /// The structure of a type.
    pub fn type_kind(&self, t: Type) -> &TypeKind {
        &self.types[t.0 as usize]
    }

    /// Uniques an attribute.
    pub fn intern_attr(&mut self, kind: AttrKind) -> Attr {
        if let AttrKind::Location(Location::File {
            file,
            line,
            col,
            end: None,
        }) = kind
        {
            return self.file_loc(file, line, col);
        }
        if let Some(i) = self.attrs.get_index_of(&kind) {
            return Attr(i as u32);
        }
        let flag = self.attr_alias_flag(&kind);
        self.attr_alias_flags.push(flag);
        Attr(self.attrs.insert_full(kind).0 as u32)
    }

    /// The location `loc("file":line:col)`.
    pub fn file_loc(&mut self, file: Symbol, line: u32, col: u32) -> Attr {
        let key = (line, col);
        let run = self.file_loc_runs.entry(file).or_default();
        let fresh = Attr(FILE_LOC_BASE + self.file_locs.len() as u32);
        let id = match run.last() {
            Some(&(last, _)) if key > last => {
                run.push((key, fresh));
                fresh
            }
            None => {
                run.push((key, fresh));
                fresh
            }
            _ => {
                let i = run.partition_point(|(k, _)| *k < key);
                match i < run.len() && run.get(i).0 == key {
                    true => run.get(i).1,
                    false => *self.file_loc_ids.entry((file, line, col)).or_insert(fresh),
                }
            }
        };
        if id == fresh {
            self.file_locs.push(AttrKind::Location(Location::File {
                file,
                line,
                col,
                end: None,
            }));
        }
        id
    }

    /// The interned function type `(inputs) -> results`.
    pub fn function_type(&mut self, inputs: &[Type], results: &[Type]) -> Type {
        if let Some(i) = self
            .types
            .get_index_of(&keys::FunctionKey { inputs, results })
        {
            return Type(i as u32);
        }
        self.intern_type(TypeKind::Function {
            inputs: inputs.into(),
            results: results.into(),
        })
    }

    /// The dictionary attribute of `entries`, which must be sorted by name
    /// with unique names.
    pub fn sorted_dict_attr(&mut self, entries: &[(Symbol, Attr)]) -> Attr {
        if let Some(i) = self.attrs.get_index_of(&keys::DictKey(entries)) {
            return Attr(i as u32);
        }
        self.intern_attr(AttrKind::Dictionary(entries.into()))
    }

    /// The array attribute `[elements]`.
    pub fn array_attr(&mut self, elements: &[Attr]) -> Attr {
        if let Some(i) = self.attrs.get_index_of(&keys::ArrayKey(elements)) {
            return Attr(i as u32);
        }
        self.intern_attr(AttrKind::Array(elements.into()))
    }

    /// The string attribute `"value"` (typed `"value" : ty` when `ty` is given).
    pub fn typed_string_attr(&mut self, value: &[u8], ty: Option<Type>) -> Attr {
        if let Some(i) = self.attrs.get_index_of(&keys::StringKey { value, ty }) {
            return Attr(i as u32);
        }
        self.intern_attr(AttrKind::String {
            value: value.into(),
            ty,
        })
    }

    /// The structure of an attribute.
    pub fn attr_kind(&self, a: Attr) -> &AttrKind {
        match a.0.checked_sub(FILE_LOC_BASE) {
            Some(i) => self.file_locs.get(i as usize),
            None => &self.attrs[a.0 as usize],
        }
    }
}
