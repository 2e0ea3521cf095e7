//! Forking a context to intern into on another thread, and importing
//! what the fork interned back into the original (the parallel parser
//! parses a buffer's second half against a fork, the bytecode reader
//! the second half of a file's functions).
//!
//! Everything the fork held when it was made keeps its id in both; what
//! it interned later is interned again in the original, in the fork's
//! order, so ids keep the relative order one parser would have given.

use super::{Attr, Context, Symbol, Type, FILE_LOC_BASE};
use crate::attrs::{AttrKind, Location};
use crate::types::TypeKind;

/// How much a context held when it was forked.
#[derive(Clone, Copy, Debug)]
pub struct ForkPoint {
    strings: usize,
    types: usize,
    attrs: usize,
    file_locs: usize,
    next_distinct: u32,
}

impl Context {
    /// A copy to intern into elsewhere, and what it held when made;
    /// `None` when dialects defined at run time are registered.
    pub fn fork(&self) -> Option<(Context, ForkPoint)> {
        let at = ForkPoint {
            strings: self.strings.len(),
            types: self.types.len(),
            attrs: self.attrs.len(),
            file_locs: self.file_locs.len(),
            next_distinct: self.next_distinct,
        };
        let copy = Context {
            strings: self.strings.clone(),
            types: self.types.clone(),
            attrs: self.attrs.clone(),
            type_alias_flags: self.type_alias_flags.clone(),
            attr_alias_flags: self.attr_alias_flags.clone(),
            file_locs: self.file_locs.clone(),
            file_loc_runs: self.file_loc_runs.clone(),
            file_loc_ids: self.file_loc_ids.clone(),
            next_distinct: self.next_distinct,
            built_attrs: self.built_attrs.clone(),
            common_types: self.common_types,
            allow_unregistered: self.allow_unregistered,
            registry: self.registry.fork()?,
            emitted: Vec::new(),
        };
        Some((copy, at))
    }
}

/// Translates the ids of a fork into those of the context it was forked
/// from, once everything the fork interned has been imported.
pub struct Import {
    at: ForkPoint,
    syms: Vec<Symbol>,
    types: Vec<Type>,
    attrs: Vec<Attr>,
    file_locs: Vec<Attr>,
}

/// The state of an import in progress: entries of the fork above the
/// fork point, translated lazily (children before parents).
struct Importer<'a> {
    from: &'a Context,
    at: ForkPoint,
    syms: Vec<Option<Symbol>>,
    types: Vec<Option<Type>>,
    attrs: Vec<Option<Attr>>,
    file_locs: Vec<Attr>,
}

impl Import {
    /// Interns into `into` everything `from` (forked from `into` at `at`)
    /// interned since; `None` when `from` made `distinct` attributes
    /// (their ids would clash).
    pub fn new(into: &mut Context, from: &Context, at: ForkPoint) -> Option<Import> {
        if from.next_distinct != at.next_distinct {
            return None;
        }
        let mut im = Importer {
            from,
            at,
            syms: vec![None; from.strings.len() - at.strings],
            types: vec![None; from.types.len() - at.types],
            attrs: vec![None; from.attrs.len() - at.attrs],
            file_locs: Vec::with_capacity(from.file_locs.len() - at.file_locs),
        };
        for i in at.strings..from.strings.len() {
            im.sym(into, Symbol(i as u32));
        }
        // File locations in the fork's (the parser's) order, so that they
        // join the per-file runs as one parser would have added them.
        for i in at.file_locs..from.file_locs.len() {
            let AttrKind::Location(Location::File {
                file, line, col, ..
            }) = *from.file_locs.get(i)
            else {
                unreachable!("file locations hold only file locations")
            };
            let file = im.sym(into, file);
            let id = into.file_loc(file, line, col);
            im.file_locs.push(id);
        }
        for i in at.types..from.types.len() {
            im.ty(into, Type(i as u32));
        }
        for i in at.attrs..from.attrs.len() {
            im.attr(into, Attr(i as u32));
        }
        Some(Import {
            at,
            syms: done(im.syms),
            types: done(im.types),
            attrs: done(im.attrs),
            file_locs: im.file_locs,
        })
    }

    /// The original's id of the fork's `s`.
    pub fn sym(&self, s: Symbol) -> Symbol {
        match (s.0 as usize).checked_sub(self.at.strings) {
            Some(i) => self.syms[i],
            None => s,
        }
    }

    /// The original's id of the fork's `t`.
    pub fn ty(&self, t: Type) -> Type {
        match (t.0 as usize).checked_sub(self.at.types) {
            Some(i) => self.types[i],
            None => t,
        }
    }

    /// The original's id of the fork's `a`.
    pub fn attr(&self, a: Attr) -> Attr {
        if let Some(loc) = a.0.checked_sub(FILE_LOC_BASE) {
            return match (loc as usize).checked_sub(self.at.file_locs) {
                Some(i) => self.file_locs[i],
                None => a,
            };
        }
        match (a.0 as usize).checked_sub(self.at.attrs) {
            Some(i) => self.attrs[i],
            None => a,
        }
    }
}

/// The entries of a finished import (each was imported).
fn done<T>(entries: Vec<Option<T>>) -> Vec<T> {
    entries
        .into_iter()
        .map(|x| x.expect("every entry is imported"))
        .collect()
}

impl Importer<'_> {
    fn sym(&mut self, into: &mut Context, s: Symbol) -> Symbol {
        let Some(i) = (s.0 as usize).checked_sub(self.at.strings) else {
            return s;
        };
        if let Some(done) = self.syms[i] {
            return done;
        }
        let done = into.sym(self.from.str(s));
        self.syms[i] = Some(done);
        done
    }

    fn ty(&mut self, into: &mut Context, t: Type) -> Type {
        let Some(i) = (t.0 as usize).checked_sub(self.at.types) else {
            return t;
        };
        if let Some(done) = self.types[i] {
            return done;
        }
        let kind = self.type_kind(into, self.from.type_kind(t));
        let done = into.intern_type(kind);
        self.types[i] = Some(done);
        done
    }

    fn attr(&mut self, into: &mut Context, a: Attr) -> Attr {
        if let Some(loc) = a.0.checked_sub(FILE_LOC_BASE) {
            return match (loc as usize).checked_sub(self.at.file_locs) {
                Some(i) => self.file_locs[i],
                None => a,
            };
        }
        let Some(i) = (a.0 as usize).checked_sub(self.at.attrs) else {
            return a;
        };
        if let Some(done) = self.attrs[i] {
            return done;
        }
        let kind = self.attr_kind(into, self.from.attr_kind(a));
        let done = into.intern_attr(kind);
        self.attrs[i] = Some(done);
        done
    }

    fn opt_ty(&mut self, into: &mut Context, t: Option<Type>) -> Option<Type> {
        t.map(|t| self.ty(into, t))
    }

    fn opt_attr(&mut self, into: &mut Context, a: Option<Attr>) -> Option<Attr> {
        a.map(|a| self.attr(into, a))
    }

    fn types(&mut self, into: &mut Context, ts: &[Type]) -> Box<[Type]> {
        ts.iter().map(|&t| self.ty(into, t)).collect()
    }

    fn attrs(&mut self, into: &mut Context, attrs: &[Attr]) -> Box<[Attr]> {
        attrs.iter().map(|&a| self.attr(into, a)).collect()
    }

    /// `kind` with its types, attributes and names translated.
    fn type_kind(&mut self, into: &mut Context, kind: &TypeKind) -> TypeKind {
        match kind {
            TypeKind::Integer { .. } | TypeKind::Index | TypeKind::Float(_) | TypeKind::None => {
                kind.clone()
            }
            TypeKind::Complex(e) => TypeKind::Complex(self.ty(into, *e)),
            TypeKind::Function { inputs, results } => TypeKind::Function {
                inputs: self.types(into, inputs),
                results: self.types(into, results),
            },
            TypeKind::Tuple(e) => TypeKind::Tuple(self.types(into, e)),
            TypeKind::Vector {
                shape,
                scalable,
                element,
            } => TypeKind::Vector {
                shape: shape.clone(),
                scalable: scalable.clone(),
                element: self.ty(into, *element),
            },
            TypeKind::RankedTensor {
                shape,
                element,
                encoding,
            } => TypeKind::RankedTensor {
                shape: shape.clone(),
                element: self.ty(into, *element),
                encoding: self.opt_attr(into, *encoding),
            },
            TypeKind::UnrankedTensor { element } => TypeKind::UnrankedTensor {
                element: self.ty(into, *element),
            },
            TypeKind::MemRef {
                shape,
                element,
                layout,
                memory_space,
            } => TypeKind::MemRef {
                shape: shape.clone(),
                element: self.ty(into, *element),
                layout: self.opt_attr(into, *layout),
                memory_space: self.opt_attr(into, *memory_space),
            },
            TypeKind::UnrankedMemRef {
                element,
                memory_space,
            } => TypeKind::UnrankedMemRef {
                element: self.ty(into, *element),
                memory_space: self.opt_attr(into, *memory_space),
            },
            TypeKind::Opaque { dialect, data } => TypeKind::Opaque {
                dialect: self.sym(into, *dialect),
                data: data.clone(),
            },
            TypeKind::Dialect {
                dialect,
                name,
                params,
            } => TypeKind::Dialect {
                dialect: self.sym(into, *dialect),
                name: self.sym(into, *name),
                params: self.attrs(into, params),
            },
        }
    }

    /// `kind` with its types, attributes and names translated.
    fn attr_kind(&mut self, into: &mut Context, kind: &AttrKind) -> AttrKind {
        match kind {
            AttrKind::Unit
            | AttrKind::AffineMap(_)
            | AttrKind::IntegerSet(_)
            | AttrKind::StridedLayout { .. } => kind.clone(),
            AttrKind::Integer { ty, value } => AttrKind::Integer {
                ty: self.ty(into, *ty),
                value: value.clone(),
            },
            AttrKind::Float { ty, bits } => AttrKind::Float {
                ty: self.ty(into, *ty),
                bits: *bits,
            },
            AttrKind::String { value, ty } => AttrKind::String {
                value: value.clone(),
                ty: self.opt_ty(into, *ty),
            },
            AttrKind::Type(t) => AttrKind::Type(self.ty(into, *t)),
            AttrKind::Array(e) => AttrKind::Array(self.attrs(into, e)),
            AttrKind::Dictionary(entries) => AttrKind::Dictionary(
                entries
                    .iter()
                    .map(|&(name, a)| (self.sym(into, name), self.attr(into, a)))
                    .collect(),
            ),
            AttrKind::SymbolRef { root, nested } => AttrKind::SymbolRef {
                root: self.sym(into, *root),
                nested: nested.iter().map(|&s| self.sym(into, s)).collect(),
            },
            AttrKind::DenseArray { element, values } => AttrKind::DenseArray {
                element: self.ty(into, *element),
                values: self.attrs(into, values),
            },
            AttrKind::DenseElements { ty, values } => AttrKind::DenseElements {
                ty: self.ty(into, *ty),
                values: self.attrs(into, values),
            },
            AttrKind::DenseStrings { ty, values } => AttrKind::DenseStrings {
                ty: self.ty(into, *ty),
                values: values.clone(),
            },
            AttrKind::DenseResource { ty, handle } => AttrKind::DenseResource {
                ty: self.ty(into, *ty),
                handle: self.sym(into, *handle),
            },
            AttrKind::Sparse {
                ty,
                indices,
                values,
            } => AttrKind::Sparse {
                ty: self.ty(into, *ty),
                indices: self.attr(into, *indices),
                values: self.attr(into, *values),
            },
            AttrKind::Opaque { dialect, data, ty } => AttrKind::Opaque {
                dialect: self.sym(into, *dialect),
                data: data.clone(),
                ty: self.opt_ty(into, *ty),
            },
            AttrKind::Dialect {
                dialect,
                name,
                params,
            } => AttrKind::Dialect {
                dialect: self.sym(into, *dialect),
                name: self.sym(into, *name),
                params: self.attrs(into, params),
            },
            AttrKind::Distinct { id, referenced } => AttrKind::Distinct {
                id: *id,
                referenced: self.attr(into, *referenced),
            },
            AttrKind::Location(l) => AttrKind::Location(self.location(into, l)),
        }
    }

    fn location(&mut self, into: &mut Context, l: &Location) -> Location {
        match l {
            Location::Unknown => Location::Unknown,
            Location::File {
                file,
                line,
                col,
                end,
            } => Location::File {
                file: self.sym(into, *file),
                line: *line,
                col: *col,
                end: *end,
            },
            Location::Name { name, child } => Location::Name {
                name: self.sym(into, *name),
                child: self.opt_attr(into, *child),
            },
            Location::CallSite { callee, caller } => Location::CallSite {
                callee: self.attr(into, *callee),
                caller: self.attr(into, *caller),
            },
            Location::Fused { locs, metadata } => Location::Fused {
                locs: self.attrs(into, locs),
                metadata: self.opt_attr(into, *metadata),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn imports_what_the_fork_interned() {
        let mut ctx = Context::new();
        let i32t = ctx.signless(32);
        let (mut fork, at) = ctx.fork().expect("no dynamic dialects");
        // The original goes on interning on its own...
        let f64t = ctx.float_type(crate::float::FloatKind::F64);
        let shared = ctx.sym("shared");
        // ...and so does the fork, partly the same things.
        let f64_in_fork = fork.float_type(crate::float::FloatKind::F64);
        let mem = fork.intern_type(TypeKind::MemRef {
            shape: Box::new([4]),
            element: f64_in_fork,
            layout: None,
            memory_space: None,
        });
        let name = fork.sym("shared");
        let fresh = fork.sym("fresh");
        let one = fork.int_attr(i32t, 1);
        let unit = fork.unit_attr();
        let dict = fork.dict_attr(vec![(name, one), (fresh, unit)]);
        let file = fork.sym("f.mlir");
        let loc = fork.file_loc(file, 3, 1);
        let import = Import::new(&mut ctx, &fork, at).expect("importable");
        assert_eq!(import.ty(i32t), i32t);
        assert_eq!(import.ty(f64_in_fork), f64t);
        assert_eq!(import.sym(name), shared);
        assert_eq!(ctx.str(import.sym(fresh)), "fresh");
        let TypeKind::MemRef { element, .. } = ctx.type_kind(import.ty(mem)) else {
            panic!("a memref");
        };
        assert_eq!(*element, f64t);
        let entries = ctx.dict_entries(import.attr(dict)).to_vec();
        // Sorted by name: `fresh` first.
        assert_eq!(entries[1].0, shared);
        assert_eq!(entries[1].1, ctx.int_attr(i32t, 1));
        let f = ctx.sym("f.mlir");
        assert_eq!(import.attr(loc), ctx.file_loc(f, 3, 1));
    }

    #[test]
    fn distinct_attributes_are_not_imported() {
        let mut ctx = Context::new();
        let (mut fork, at) = ctx.fork().expect("no dynamic dialects");
        fork.fresh_distinct_id();
        assert!(Import::new(&mut ctx, &fork, at).is_none());
    }
}
