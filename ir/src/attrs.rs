//! Builtin attributes and locations: their structure ([`AttrKind`]) and
//! constructors and queries on [`Context`].

use crate::affine::{AffineMap, IntegerSet};
use crate::context::{Attr, Context, Symbol, Type};
use crate::types::TypeKind;
use num_bigint::BigInt;

/// A source location (MLIR's `LocationAttr` family).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Location {
    /// `loc(unknown)`
    Unknown,
    /// `loc("file":line:col)`, or a range `loc("file":l:c to l2:c2)`.
    File {
        file: Symbol,
        line: u32,
        col: u32,
        /// End of a range: `(end_line, end_col)`. An end equal to the
        /// start, column 0, is a line written without its column,
        /// `loc("file":line)`, which MLIR keeps apart from column 0 (and
        /// prints as it).
        end: Option<(u32, u32)>,
    },
    /// `loc("name"(child))`; `child` absent means unknown.
    Name { name: Symbol, child: Option<Attr> },
    /// `loc(callsite(callee at caller))`
    CallSite { callee: Attr, caller: Attr },
    /// `loc(fused<metadata>[locs])`
    Fused {
        locs: Box<[Attr]>,
        metadata: Option<Attr>,
    },
}

/// The structure of an attribute.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum AttrKind {
    /// `unit`
    Unit,
    /// `42 : i32`, `true` (an `i1` integer); `value` is the signed value for
    /// signless and signed types, the unsigned value for unsigned types.
    Integer { ty: Type, value: BigInt },
    /// `1.0 : f32`, kept as its bit pattern.
    Float { ty: Type, bits: u128 },
    /// `"text"`, optionally typed (`"text" : i32`).
    String { value: Box<[u8]>, ty: Option<Type> },
    /// A type used as an attribute.
    Type(Type),
    /// `[a, b]`
    Array(Box<[Attr]>),
    /// `{a = 1, b}`, entries sorted by name, names unique.
    Dictionary(Box<[(Symbol, Attr)]>),
    /// `@root::@nested`
    SymbolRef { root: Symbol, nested: Box<[Symbol]> },
    /// `affine_map<...>`
    AffineMap(AffineMap),
    /// `affine_set<...>`
    IntegerSet(IntegerSet),
    /// `array<i32: 1, 2>`; elements are integer/float attributes of `element`.
    DenseArray { element: Type, values: Box<[Attr]> },
    /// `dense<...> : tensor<...>`; one element when splat, else all
    /// elements in row-major order (integer, float, or `[re, im]` arrays).
    DenseElements { ty: Type, values: Box<[Attr]> },
    /// `dense<"a", "b"> : tensor<2x!x>`; one element when splat.
    DenseStrings { ty: Type, values: Box<[Box<[u8]>]> },
    /// `dense_resource<handle> : tensor<...>`
    DenseResource { ty: Type, handle: Symbol },
    /// `sparse<indices, values> : tensor<...>`
    Sparse {
        ty: Type,
        indices: Attr,
        values: Attr,
    },
    /// `strided<[s0, s1], offset: o>`; dynamic values are [`crate::types::DYNAMIC`].
    StridedLayout { offset: i64, strides: Box<[i64]> },
    /// An attribute of a dialect silica does not know: `#d.body` or
    /// `#d<body>`, with an optional trailing type.
    Opaque {
        dialect: Symbol,
        data: Box<str>,
        ty: Option<Type>,
    },
    /// An attribute of a registered dialect, `#dialect.name<params>`,
    /// written by that dialect's [`crate::dialect::AttrHooks`].
    Dialect {
        dialect: Symbol,
        name: Symbol,
        params: Box<[Attr]>,
    },
    /// `distinct[N]<attr>`; `id` is unique per distinct attribute created.
    Distinct { id: u32, referenced: Attr },
    /// A location.
    Location(Location),
}

impl Context {
    /// The unit attribute.
    pub fn unit_attr(&mut self) -> Attr {
        crate::context::UNIT
    }

    /// An integer attribute.
    pub fn int_attr(&mut self, ty: Type, value: impl Into<BigInt>) -> Attr {
        self.intern_attr(AttrKind::Integer {
            ty,
            value: value.into(),
        })
    }

    /// A string attribute.
    pub fn string_attr(&mut self, s: &[u8]) -> Attr {
        self.typed_string_attr(s, None)
    }

    /// A dictionary attribute; entries are sorted by name here.
    pub fn dict_attr(&mut self, mut entries: impl AsMut<[(Symbol, Attr)]>) -> Attr {
        let entries = entries.as_mut();
        if entries.is_empty() {
            return crate::context::EMPTY_DICT;
        }
        entries.sort_by(|a, b| self.str(a.0).cmp(self.str(b.0)));
        self.sorted_dict_attr(entries)
    }

    /// The empty dictionary.
    pub fn empty_dict(&mut self) -> Attr {
        crate::context::EMPTY_DICT
    }

    /// Entries of a dictionary attribute (empty for any other attribute).
    pub fn dict_entries(&self, a: Attr) -> &[(Symbol, Attr)] {
        match self.attr_kind(a) {
            AttrKind::Dictionary(e) => e,
            _ => &[],
        }
    }

    /// A location attribute. `loc("n"(unknown))` is `loc("n")`: one
    /// attribute, as MLIR's name location defaults its child to unknown.
    pub fn loc(&mut self, l: Location) -> Attr {
        let l = match l {
            Location::Name {
                name,
                child: Some(c),
            } if c == crate::context::UNKNOWN_LOC => Location::Name { name, child: None },
            l => l,
        };
        self.intern_attr(AttrKind::Location(l))
    }

    /// `loc(fused<metadata>[locs])` as MLIR's `FusedLoc::get` builds it:
    /// nested fusions with the same metadata flattened (their parts taken
    /// as they are), other unknown parts and repeats dropped; without metadata, no part left is `loc(unknown)`
    /// and a lone part is itself; with metadata, no part left is
    /// `fused<metadata>[unknown]`.
    pub fn fused_loc(&mut self, locs: &[Attr], metadata: Option<Attr>) -> Attr {
        let unknown = self.unknown_loc();
        let mut kept: Vec<Attr> = Vec::new();
        let mut keep = |l: Attr| {
            if !kept.contains(&l) {
                kept.push(l);
            }
        };
        for &l in locs {
            match self.attr_kind(l) {
                // Taken whole, as MLIR does: an inner `fused<m>[unknown]`
                // brings its unknown along.
                AttrKind::Location(Location::Fused {
                    locs: inner,
                    metadata: m,
                }) if *m == metadata => inner.iter().for_each(|&i| keep(i)),
                _ if l == unknown => {}
                _ => keep(l),
            }
        }
        match (kept.len(), metadata) {
            (0, None) => unknown,
            (1, None) => kept[0],
            (0, Some(_)) => self.loc(Location::Fused {
                locs: Box::new([unknown]),
                metadata,
            }),
            _ => self.loc(Location::Fused {
                locs: kept.into(),
                metadata,
            }),
        }
    }

    /// `loc(unknown)`
    pub fn unknown_loc(&self) -> Attr {
        crate::context::UNKNOWN_LOC
    }

    /// Whether `a` is a location attribute.
    pub fn is_location(&self, a: Attr) -> bool {
        matches!(self.attr_kind(a), AttrKind::Location(_))
    }

    /// `array<iN: v, ...>` of signless `width`-bit integers.
    pub fn int_array_attr(&mut self, width: u32, values: &[i64]) -> Attr {
        let element = self.signless(width);
        let values: Vec<Attr> = values.iter().map(|&v| self.int_attr(element, v)).collect();
        self.intern_attr(AttrKind::DenseArray {
            element,
            values: values.into(),
        })
    }

    /// The integers of an integer dense array attribute.
    pub fn int_array_values(&self, a: Attr) -> Option<Vec<i64>> {
        let AttrKind::DenseArray { values, .. } = self.attr_kind(a) else {
            return None;
        };
        values
            .iter()
            .map(|v| match self.attr_kind(*v) {
                AttrKind::Integer { value, .. } => i64::try_from(value).ok(),
                _ => None,
            })
            .collect()
    }

    /// Whether `t` is `i1`, the type of boolean attributes.
    pub fn is_bool_type(&self, t: Type) -> bool {
        matches!(
            self.type_kind(t),
            TypeKind::Integer {
                width: 1,
                signedness: crate::types::Signedness::Signless
            }
        )
    }
}
