//! Builtin types: their structure ([`TypeKind`]) and convenience
//! constructors and queries on [`Context`].

use crate::context::{Attr, Context, Symbol, Type};
use crate::float::FloatKind;

/// Marker for a dynamic dimension (`?`) in shapes, as MLIR's
/// `ShapedType::kDynamic`.
pub const DYNAMIC: i64 = i64::MIN;

/// The largest integer width MLIR accepts.
pub const MAX_INT_WIDTH: u32 = 16_777_215;

/// Signedness semantics of an integer type.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Signedness {
    /// `iN`
    Signless,
    /// `siN`
    Signed,
    /// `uiN`
    Unsigned,
}

/// The structure of a type.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum TypeKind {
    /// `i32`, `si8`, `ui1`, ...
    Integer { width: u32, signedness: Signedness },
    /// `index`
    Index,
    /// `f32`, `bf16`, `f8E4M3FN`, ...
    Float(FloatKind),
    /// `none`
    None,
    /// `complex<f32>`
    Complex(Type),
    /// `(i32) -> f32`
    Function {
        inputs: Box<[Type]>,
        results: Box<[Type]>,
    },
    /// `tuple<i32, f32>`
    Tuple(Box<[Type]>),
    /// `vector<4x[8]xf32>`; `scalable[i]` marks `[N]` dimensions.
    Vector {
        shape: Box<[i64]>,
        scalable: Box<[bool]>,
        element: Type,
    },
    /// `tensor<?x4xf32, #enc>`
    RankedTensor {
        shape: Box<[i64]>,
        element: Type,
        encoding: Option<Attr>,
    },
    /// `tensor<*xf32>`
    UnrankedTensor { element: Type },
    /// `memref<4x?xf32, #layout, 1>`
    MemRef {
        shape: Box<[i64]>,
        element: Type,
        layout: Option<Attr>,
        memory_space: Option<Attr>,
    },
    /// `memref<*xf32, 1>`
    UnrankedMemRef {
        element: Type,
        memory_space: Option<Attr>,
    },
    /// A type of a dialect silica does not know: `!dialect.body` or
    /// `!dialect<body>`, kept as its raw body text.
    Opaque { dialect: Symbol, data: Box<str> },
    /// A type of a registered dialect, `!dialect.name<params>`, written by
    /// that dialect's [`crate::dialect::TypeHooks`]; parameters are
    /// attributes (types as type attributes).
    Dialect {
        dialect: Symbol,
        name: Symbol,
        params: Box<[Attr]>,
    },
}

impl Context {
    /// `iN`, `siN` or `uiN`.
    pub fn int_type(&mut self, width: u32, signedness: Signedness) -> Type {
        if signedness == Signedness::Signless && width <= 64 {
            return self.common_type(width as usize, TypeKind::Integer { width, signedness });
        }
        self.intern_type(TypeKind::Integer { width, signedness })
    }

    /// The type in `common_types[slot]`, interning `kind` there first.
    fn common_type(&mut self, slot: usize, kind: TypeKind) -> Type {
        if let Some(t) = self.common_types[slot] {
            return t;
        }
        let t = self.intern_type(kind);
        self.common_types[slot] = Some(t);
        t
    }

    /// Signless `iN`.
    pub fn signless(&mut self, width: u32) -> Type {
        self.int_type(width, Signedness::Signless)
    }

    /// `index`
    pub fn index_type(&mut self) -> Type {
        self.common_type(65, TypeKind::Index)
    }

    /// A float type.
    pub fn float_type(&mut self, kind: FloatKind) -> Type {
        self.common_type(66 + kind as usize, TypeKind::Float(kind))
    }

    /// `none`
    pub fn none_type(&mut self) -> Type {
        self.intern_type(TypeKind::None)
    }

    /// `(inputs) -> results`
    /// The inputs of a function type (empty for any other type).
    pub fn function_inputs(&self, t: Type) -> &[Type] {
        match self.type_kind(t) {
            TypeKind::Function { inputs, .. } => inputs,
            _ => &[],
        }
    }

    /// The results of a function type (empty for any other type).
    pub fn function_results(&self, t: Type) -> &[Type] {
        match self.type_kind(t) {
            TypeKind::Function { results, .. } => results,
            _ => &[],
        }
    }

    /// The width of an integer type, if `t` is one.
    pub fn int_width(&self, t: Type) -> Option<u32> {
        match self.type_kind(t) {
            TypeKind::Integer { width, .. } => Some(*width),
            _ => None,
        }
    }

    /// The float format of `t`, if it is a float type.
    pub fn float_kind(&self, t: Type) -> Option<FloatKind> {
        match self.type_kind(t) {
            TypeKind::Float(k) => Some(*k),
            _ => None,
        }
    }

    /// Whether `t` is an integer or index type.
    pub fn is_int_or_index(&self, t: Type) -> bool {
        matches!(
            self.type_kind(t),
            TypeKind::Integer { .. } | TypeKind::Index
        )
    }

    /// The shape and element type of a shaped type (vector, tensor, memref);
    /// `None` for the shape of unranked types.
    pub fn shaped(&self, t: Type) -> Option<(Option<&[i64]>, Type)> {
        match self.type_kind(t) {
            TypeKind::Vector { shape, element, .. }
            | TypeKind::RankedTensor { shape, element, .. }
            | TypeKind::MemRef { shape, element, .. } => Some((Some(shape), *element)),
            TypeKind::UnrankedTensor { element } | TypeKind::UnrankedMemRef { element, .. } => {
                Some((None, *element))
            }
            _ => None,
        }
    }
}
