//! The `memref` dialect (in part): allocation (`alloc`, `alloca`,
//! `dealloc`), access (`load`, `store`), `dim`, `rank`, `cast`, `copy`,
//! views (`subview`, `reinterpret_cast`, `collapse_shape`,
//! `expand_shape`) and globals (`global`, `get_global`).
//!
//! The ops' definitions are here; beside them: the atomics ([`atomic`]),
//! `alloca_scope` (`scope`), `transpose` ([`transpose`]), the view ops'
//! verifiers ([`verify`]), layouts as strides and an offset ([`layout`]),
//! folds (`fold`), canonicalization patterns (`patterns`,
//! `reshape_patterns`, and [`metadata`] for `reinterpret_cast` and
//! `extract_strided_metadata`).

pub mod atomic;
mod fold;
pub mod layout;
pub mod metadata;
mod patterns;
mod reshape_patterns;
mod scope;
pub mod transpose;
pub mod verify;

use silica_ir::dialect::{inherent_attr, DialectDef, Effects, OpDef, Traits};
use silica_ir::format::{
    parse_op, print_op, Arity, AttrConstraint, AttrDefault, AttrParam, AttrSyntax, DerivedType,
    Signature, TypeConstraint, ValueParam,
};
use silica_ir::lexer::Tok;
use silica_ir::parser::{AsmParser, PResult};
use silica_ir::printer::AsmPrinter;
use silica_ir::verify::OpVerifier;
use silica_ir::{Attr, AttrKind, Context, Ir, OpId, OpSpec, Symbol, Type, TypeKind};

const MEMREF: TypeConstraint = TypeConstraint {
    desc: "memref of any type values",
    check: |ctx, t| matches!(ctx.type_kind(t), TypeKind::MemRef { .. }),
    build: None,
};

const ANY_MEMREF: TypeConstraint = TypeConstraint {
    desc: "ranked or unranked memref of any type values",
    check: |ctx, t| {
        matches!(
            ctx.type_kind(t),
            TypeKind::MemRef { .. } | TypeKind::UnrankedMemRef { .. }
        )
    },
    build: None,
};

pub(crate) const INDEX: TypeConstraint = TypeConstraint {
    desc: "index",
    check: |ctx, t| matches!(ctx.type_kind(t), TypeKind::Index),
    build: Some(|ctx| ctx.index_type()),
};

const ANY: TypeConstraint = silica_ir::format::ANY_TYPE;

pub(crate) const fn value(
    name: &'static str,
    arity: Arity,
    constraint: TypeConstraint,
) -> ValueParam {
    ValueParam {
        name,
        arity,
        constraint,
    }
}

const fn optional_attr(name: &'static str) -> AttrParam {
    AttrParam {
        name,
        syntax: AttrSyntax::Plain,
        optional: true,
        default: None,
    }
}

/// The integer value of an attribute of signless type `width`, if it is one.
fn int_of_width(ctx: &Context, a: Attr, width: u32) -> Option<i64> {
    match ctx.attr_kind(a) {
        AttrKind::Integer { ty, value } if ctx.int_width(*ty) == Some(width) => {
            i64::try_from(value).ok()
        }
        _ => None,
    }
}

/// An `alignment` of loads, stores, allocations and globals.
const POW2_ALIGNMENT: AttrConstraint = AttrConstraint {
    desc: "64-bit signless integer attribute whose value is positive and whose value is a power of two > 0",
    check: |ctx, a| int_of_width(ctx, a, 64).is_some_and(|n| n > 0 && n & (n - 1) == 0),
};

/// The checked `alignment` attribute of loads, stores and allocations.
const ALIGNMENT: &[(&str, AttrConstraint)] = &[("alignment", POW2_ALIGNMENT)];

/// `nontemporal`, false unless given (and then printed in `{...}`).
const NONTEMPORAL: AttrParam = AttrParam {
    name: "nontemporal",
    syntax: AttrSyntax::Plain,
    optional: true,
    default: Some(AttrDefault {
        make: |ctx| {
            let i1 = ctx.signless(1);
            ctx.int_attr(i1, 0)
        },
        matches: |ctx, a| matches!(ctx.attr_kind(a), AttrKind::Integer { value, .. } if *value == 0.into()),
    }),
};

/// The element type of a memref type.
fn element_of(ctx: &Context, t: Type) -> Option<Type> {
    match ctx.type_kind(t) {
        TypeKind::MemRef { element, .. } | TypeKind::UnrankedMemRef { element, .. } => {
            Some(*element)
        }
        _ => None,
    }
}

static ALLOC_SIG: Signature = Signature::new(
    &[
        value("dynamicSizes", Arity::Variadic, INDEX),
        value("symbolOperands", Arity::Variadic, INDEX),
    ],
    &[value("memref", Arity::One, MEMREF)],
    &[optional_attr("alignment")],
    "`(`$dynamicSizes`)` (`` `[` $symbolOperands^ `]`)? attr-dict `:` type($memref)",
)
.segmented()
.attr_constraints(ALIGNMENT);

static DEALLOC_SIG: Signature = Signature::new(
    &[value("memref", Arity::One, ANY_MEMREF)],
    &[],
    &[],
    "$memref attr-dict `:` type($memref)",
);

static LOAD_SIG: Signature = Signature::new(
    &[
        value("memref", Arity::One, MEMREF),
        value("indices", Arity::Variadic, INDEX),
    ],
    &[value("result", Arity::One, ANY)],
    &[NONTEMPORAL, optional_attr("alignment")],
    "$memref `[` $indices `]` attr-dict `:` type($memref)",
)
.infer(|ctx, operands, _| Some(vec![element_of(ctx, *operands.first()?)?]))
.attr_constraints(ALIGNMENT);

/// A boolean written as one of two keywords (`read`/`write`,
/// `instr`/`data`): the keyword for false, then for true, and what MLIR
/// says of another keyword.
macro_rules! keyword_bool {
    ($name:ident, $no:literal, $yes:literal, $wrong:literal) => {
        pub static $name: silica_ir::format::CustomAttrSyntax = silica_ir::format::CustomAttrSyntax {
            starts: |p| p.peek_keyword($no) || p.peek_keyword($yes),
            parse: |p| {
                let v = match p.parse_keyword()? {
                    $yes => true,
                    $no => false,
                    _ => {
                        let msg = format!("custom op '{}' {}", p.op_name(), $wrong);
                        return p.op_error(msg);
                    }
                };
                let ctx = p.ctx();
                let i1 = ctx.signless(1);
                Ok(ctx.int_attr(i1, i64::from(v)))
            },
            print: |ctx, a, out| {
                let yes = matches!(ctx.attr_kind(a), AttrKind::Integer { value, .. } if *value != 0.into());
                out.push_str(if yes { $yes } else { $no });
            },
        };
    };
}

keyword_bool!(
    READ_WRITE,
    "read",
    "write",
    "rw specifier has to be 'read' or 'write'"
);
keyword_bool!(
    INSTR_DATA,
    "instr",
    "data",
    "cache type has to be 'data' or 'instr'"
);

/// `isWrite`, `localityHint`, `isDataCache` of the prefetch ops.
pub const PREFETCH_ATTRS: [AttrParam; 3] = [
    AttrParam {
        name: "isWrite",
        syntax: AttrSyntax::Custom(&READ_WRITE),
        optional: false,
        default: None,
    },
    AttrParam {
        name: "localityHint",
        syntax: AttrSyntax::Int(32),
        optional: false,
        default: None,
    },
    AttrParam {
        name: "isDataCache",
        syntax: AttrSyntax::Custom(&INSTR_DATA),
        optional: false,
        default: None,
    },
];

static PREFETCH_SIG: Signature = Signature::new(
    &[
        value("memref", Arity::One, MEMREF),
        value("indices", Arity::Variadic, INDEX),
    ],
    &[],
    &PREFETCH_ATTRS,
    "$memref `[` $indices `]` `,` $isWrite `,` `locality` `<` $localityHint `>` `,` $isDataCache \
     attr-dict `:` type($memref)",
)
.attr_constraints(&[(
    "localityHint",
    AttrConstraint {
        desc: "32-bit signless integer attribute whose minimum value is 0 whose maximum value is 3",
        check: |ctx, a| int_of_width(ctx, a, 32).is_some_and(|n| (0..=3).contains(&n)),
    },
)]);

static STORE_SIG: Signature = Signature::new(
    &[
        value("value", Arity::One, ANY),
        value("memref", Arity::One, MEMREF),
        value("indices", Arity::Variadic, INDEX),
    ],
    &[],
    &[NONTEMPORAL, optional_attr("alignment")],
    "$value `,` $memref `[` $indices `]` attr-dict `:` type($memref)",
)
.derived_types(&[DerivedType {
    target: "value",
    source: "memref",
    derive: element_of,
}])
.attr_constraints(ALIGNMENT);

/// `memref.dim`'s source: unranked, or ranked with a dimension.
const DIMENSIONED_MEMREF: TypeConstraint = TypeConstraint {
    desc: "unranked.memref of any type values or non-0-ranked.memref of any type values",
    check: |ctx, t| match ctx.type_kind(t) {
        TypeKind::MemRef { shape, .. } => !shape.is_empty(),
        TypeKind::UnrankedMemRef { .. } => true,
        _ => false,
    },
    build: None,
};

static DIM_SIG: Signature = Signature::new(
    &[
        value("source", Arity::One, DIMENSIONED_MEMREF),
        value("index", Arity::One, INDEX),
    ],
    &[value("result", Arity::One, INDEX)],
    &[],
    "attr-dict $source `,` $index `:` type($source)",
);

static RANK_SIG: Signature = Signature::new(
    &[value("memref", Arity::One, ANY_MEMREF)],
    &[value("result", Arity::One, INDEX)],
    &[],
    "$memref attr-dict `:` type($memref)",
);

static CAST_SIG: Signature = Signature::new(
    &[value("source", Arity::One, ANY_MEMREF)],
    &[value("dest", Arity::One, ANY_MEMREF)],
    &[],
    "$source attr-dict `:` type($source) `to` type($dest)",
);

static COPY_SIG: Signature = Signature::new(
    &[
        value("source", Arity::One, ANY_MEMREF),
        value("target", Arity::One, ANY_MEMREF),
    ],
    &[],
    &[],
    "$source `,` $target attr-dict `:` type($source) `to` type($target)",
);

static GET_GLOBAL_SIG: Signature = Signature::new(
    &[],
    &[value("result", Arity::One, MEMREF)],
    &[AttrParam {
        name: "name",
        syntax: AttrSyntax::FlatSymbolRef,
        optional: false,
        default: None,
    }],
    "$name `:` type($result) attr-dict",
);

const fn required(name: &'static str) -> AttrParam {
    AttrParam {
        name,
        syntax: AttrSyntax::Plain,
        optional: false,
        default: None,
    }
}

const OFFSETS_SIZES_STRIDES: &[AttrParam] = &[
    required("static_offsets"),
    required("static_sizes"),
    required("static_strides"),
];

const VIEW_OPERANDS: &[ValueParam] = &[
    value("source", Arity::One, ANY_MEMREF),
    value("offsets", Arity::Variadic, INDEX),
    value("sizes", Arity::Variadic, INDEX),
    value("strides", Arity::Variadic, INDEX),
];

static SUBVIEW_SIG: Signature = Signature::new(
    VIEW_OPERANDS,
    &[value("result", Arity::One, MEMREF)],
    OFFSETS_SIZES_STRIDES,
    "$source `` custom<DynamicIndexList>($offsets, $static_offsets) \
     custom<DynamicIndexList>($sizes, $static_sizes) \
     custom<DynamicIndexList>($strides, $static_strides) attr-dict `:` type($source) `to` type($result)",
)
.segmented();

static REINTERPRET_CAST_SIG: Signature = Signature::new(
    VIEW_OPERANDS,
    &[value("result", Arity::One, MEMREF)],
    OFFSETS_SIZES_STRIDES,
    "$source `to` `offset` `` `:` custom<DynamicIndexList>($offsets, $static_offsets) \
     `` `,` `sizes` `` `:` custom<DynamicIndexList>($sizes, $static_sizes) \
     `` `,` `strides` `` `:` custom<DynamicIndexList>($strides, $static_strides) \
     attr-dict `:` type($source) `to` type($result)",
)
.segmented();

static COLLAPSE_SHAPE_SIG: Signature = Signature::new(
    &[value("src", Arity::One, MEMREF)],
    &[value("result", Arity::One, MEMREF)],
    &[required("reassociation")],
    "$src $reassociation attr-dict `:` type($src) `into` type($result)",
);

static EXPAND_SHAPE_SIG: Signature = Signature::new(
    &[
        value("src", Arity::One, MEMREF),
        value("output_shape", Arity::Variadic, INDEX),
    ],
    &[value("result", Arity::One, MEMREF)],
    &[required("reassociation"), required("static_output_shape")],
    "$src $reassociation `output_shape` custom<DynamicIndexList>($output_shape, $static_output_shape) \
     attr-dict `:` type($src) `into` type($result)",
);

static EXTRACT_STRIDED_METADATA_SIG: Signature = Signature::new(
    &[value("source", Arity::One, ANY_MEMREF)],
    &[
        value("base_buffer", Arity::One, MEMREF),
        value("offset", Arity::One, INDEX),
        value("sizes", Arity::Variadic, INDEX),
        value("strides", Arity::Variadic, INDEX),
    ],
    &[],
    "$source `:` type($source) `->` type(results) attr-dict",
);

static RESHAPE_SIG: Signature = Signature::new(
    &[
        value("source", Arity::One, ANY_MEMREF),
        value("shape", Arity::One, MEMREF),
    ],
    &[value("result", Arity::One, ANY_MEMREF)],
    &[],
    "$source `(` $shape `)` attr-dict `:` functional-type(operands, results)",
);

static VIEW_SIG: Signature = Signature::new(
    &[
        value("source", Arity::One, MEMREF),
        value("byte_shift", Arity::One, INDEX),
        value("sizes", Arity::Variadic, INDEX),
    ],
    &[value("result", Arity::One, MEMREF)],
    &[],
    "$source `[` $byte_shift `]` `` `[` $sizes `]` attr-dict `:` type($source) `to` type(results)",
);

static ASSUME_ALIGNMENT_SIG: Signature = Signature::new(
    &[value("memref", Arity::One, ANY_MEMREF)],
    &[value("result", Arity::One, ANY_MEMREF)],
    &[AttrParam {
        name: "alignment",
        syntax: AttrSyntax::Int(32),
        optional: false,
        default: None,
    }],
    "$memref `,` $alignment attr-dict `:` type($memref)",
)
.same_types(&[&["memref", "result"]])
.attr_constraints(&[(
    "alignment",
    AttrConstraint {
        desc: "32-bit signless integer attribute whose value is positive",
        check: |ctx, a| int_of_width(ctx, a, 32).is_some_and(|n| n > 0),
    },
)]);

static MEMORY_SPACE_CAST_SIG: Signature = Signature::new(
    &[value("source", Arity::One, ANY_MEMREF)],
    &[value("dest", Arity::One, ANY_MEMREF)],
    &[],
    "$source attr-dict `:` type($source) `to` type($dest)",
);

static ALIGNED_POINTER_SIG: Signature = Signature::new(
    &[value("source", Arity::One, ANY_MEMREF)],
    &[value("aligned_pointer", Arity::One, INDEX)],
    &[],
    "$source `:` type($source) `->` type(results) attr-dict",
);

static DISTINCT_OBJECTS_SIG: Signature = Signature::new(
    &[value("operands", Arity::Variadic, MEMREF)],
    &[value("results", Arity::Variadic, MEMREF)],
    &[],
    "$operands attr-dict `:` type($operands)",
)
.infer(|_, operands, _| Some(operands.to_vec()));

/// `memref.distinct_objects` returns its operands' types.
fn verify_distinct_objects(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let ir = v.ir();
    if ir.num_operands(op) == 0 {
        return Err(v.op_error(op, "expected at least one operand"));
    }
    let same = ir
        .operands(op)
        .map(|x| ir.value_type(x))
        .eq(ir.results(op).map(|x| ir.value_type(x)));
    if !same {
        return Err(v.op_error(op, "operand types and result types must match"));
    }
    Ok(())
}

static REALLOC_SIG: Signature = Signature::new(
    &[
        value("source", Arity::One, MEMREF),
        value("dynamicResultSize", Arity::Optional, INDEX),
    ],
    &[value("result", Arity::One, MEMREF)],
    &[optional_attr("alignment")],
    "$source (`(` $dynamicResultSize^ `)`)? attr-dict `:` type($source) `to` type(results)",
)
.attr_constraints(ALIGNMENT);

const fn op(name: &'static str, sig: &'static Signature) -> OpDef {
    OpDef {
        parse: Some(parse_op),
        print: Some(print_op),
        signature: Some(sig),
        ..OpDef::new(name)
    }
}

/// An op whose result is named `name` (`%alloc`, `%dim`, ...).
const fn named(name: &'static str, sig: &'static Signature, hint: ResultName) -> OpDef {
    OpDef {
        result_names: Some(hint),
        ..op(name, sig)
    }
}

type ResultName = fn(&Context, &Ir, OpId) -> Option<String>;

static OPS: &[OpDef] = &[
    crate::memref::atomic::ATOMIC_RMW,
    crate::memref::atomic::GENERIC_ATOMIC_RMW,
    crate::memref::atomic::ATOMIC_YIELD,
    crate::memref::transpose::TRANSPOSE,
    crate::memref::scope::SCOPE_OPS[0],
    crate::memref::scope::SCOPE_OPS[1],
    OpDef {
        verify: Some(verify_distinct_objects),
        effects: Effects::None,
        ..op("memref.distinct_objects", &DISTINCT_OBJECTS_SIG)
    },
    OpDef {
        verify: Some(crate::memref::verify::verify_alloc),
        effects: Effects::Alloc,
        patterns: crate::memref::patterns::ALLOC,
        ..named("memref.alloc", &ALLOC_SIG, |_, _, _| Some("alloc".into()))
    },
    OpDef {
        verify: Some(crate::memref::verify::verify_alloc),
        effects: Effects::Alloc,
        patterns: crate::memref::patterns::ALLOC,
        ..named("memref.alloca", &ALLOC_SIG, |_, _, _| Some("alloca".into()))
    },
    OpDef {
        effects: Effects::Write,
        fold: Some(crate::memref::fold::fold_cast_users),
        ..op("memref.dealloc", &DEALLOC_SIG)
    },
    OpDef {
        verify: Some(verify_access),
        effects: Effects::Read,
        fold: Some(crate::memref::fold::fold_cast_users),
        ..op("memref.load", &LOAD_SIG)
    },
    OpDef {
        effects: Effects::Write,
        fold: Some(crate::memref::fold::fold_cast_users),
        ..op("memref.prefetch", &PREFETCH_SIG)
    },
    OpDef {
        verify: Some(verify_access),
        effects: Effects::Write,
        fold: Some(crate::memref::fold::fold_cast_writers),
        ..op("memref.store", &STORE_SIG)
    },
    OpDef {
        effects: Effects::None,
        fold: Some(crate::memref::fold::fold_dim),
        patterns: crate::memref::patterns::DIM,
        ..named("memref.dim", &DIM_SIG, |_, _, _| Some("dim".into()))
    },
    OpDef {
        effects: Effects::None,
        fold: Some(crate::memref::fold::fold_rank),
        ..op("memref.rank", &RANK_SIG)
    },
    OpDef {
        verify: Some(crate::memref::verify::verify_cast),
        effects: Effects::None,
        fold: Some(crate::memref::fold::fold_cast),
        ..named("memref.cast", &CAST_SIG, |_, _, _| Some("cast".into()))
    },
    OpDef {
        verify: Some(crate::memref::verify::verify_copy),
        effects: Effects::Write,
        fold: Some(crate::memref::fold::fold_cast_users),
        patterns: crate::memref::patterns::COPY,
        ..op("memref.copy", &COPY_SIG)
    },
    OpDef {
        effects: Effects::None,
        patterns: crate::memref::metadata::EXTRACT_STRIDED_METADATA,
        ..op(
            "memref.extract_strided_metadata",
            &EXTRACT_STRIDED_METADATA_SIG,
        )
    },
    OpDef {
        verify: Some(crate::memref::verify::verify_reshape),
        effects: Effects::None,
        ..named("memref.reshape", &RESHAPE_SIG, |_, _, _| {
            Some("reshape".into())
        })
    },
    OpDef {
        verify: Some(crate::memref::verify::verify_view),
        effects: Effects::None,
        fold: Some(crate::memref::fold::fold_view),
        patterns: crate::memref::patterns::VIEW,
        ..named("memref.view", &VIEW_SIG, |_, _, _| Some("view".into()))
    },
    OpDef {
        verify: Some(verify_assume_alignment),
        fold: Some(crate::memref::fold::fold_assume_alignment),
        ..named(
            "memref.assume_alignment",
            &ASSUME_ALIGNMENT_SIG,
            |_, _, _| Some("assume_align".into()),
        )
    },
    OpDef {
        effects: Effects::None,
        fold: Some(crate::memref::fold::fold_memory_space_cast),
        ..named(
            "memref.memory_space_cast",
            &MEMORY_SPACE_CAST_SIG,
            |_, _, _| Some("memspacecast".into()),
        )
    },
    OpDef {
        effects: Effects::None,
        ..named(
            "memref.extract_aligned_pointer_as_index",
            &ALIGNED_POINTER_SIG,
            |_, _, _| Some("intptr".into()),
        )
    },
    OpDef {
        verify: Some(crate::memref::verify::verify_realloc),
        effects: Effects::Write,
        patterns: crate::memref::patterns::REALLOC,
        ..op("memref.realloc", &REALLOC_SIG)
    },
    OpDef {
        parse: Some(parse_dma_start),
        print: Some(print_dma_start),
        verify: Some(verify_dma_start),
        effects: Effects::Write,
        ..OpDef::new("memref.dma_start")
    },
    OpDef {
        parse: Some(parse_dma_wait),
        print: Some(print_dma_wait),
        verify: Some(verify_dma_wait),
        effects: Effects::Write,
        ..OpDef::new("memref.dma_wait")
    },
    OpDef {
        verify: Some(crate::memref::verify::verify_subview),
        effects: Effects::None,
        fold: Some(crate::memref::fold::fold_subview),
        patterns: crate::memref::patterns::SUBVIEW,
        ..named("memref.subview", &SUBVIEW_SIG, |_, _, _| {
            Some("subview".into())
        })
    },
    OpDef {
        verify: Some(crate::memref::verify::verify_reinterpret_cast),
        effects: Effects::None,
        fold: Some(crate::memref::metadata::fold_reinterpret_cast),
        patterns: crate::memref::metadata::REINTERPRET_CAST,
        ..named(
            "memref.reinterpret_cast",
            &REINTERPRET_CAST_SIG,
            |_, _, _| Some("reinterpret_cast".into()),
        )
    },
    OpDef {
        verify: Some(crate::memref::verify::verify_collapse_shape),
        effects: Effects::None,
        fold: Some(crate::memref::fold::fold_collapse_shape),
        patterns: crate::memref::reshape_patterns::COLLAPSE,
        ..named("memref.collapse_shape", &COLLAPSE_SHAPE_SIG, |_, _, _| {
            Some("collapse_shape".into())
        })
    },
    OpDef {
        verify: Some(crate::memref::verify::verify_expand_shape),
        effects: Effects::None,
        fold: Some(crate::memref::fold::fold_expand_shape),
        patterns: crate::memref::reshape_patterns::EXPAND,
        ..named("memref.expand_shape", &EXPAND_SHAPE_SIG, |_, _, _| {
            Some("expand_shape".into())
        })
    },
    OpDef {
        effects: Effects::None,
        verify: Some(verify_get_global),
        ..op("memref.get_global", &GET_GLOBAL_SIG)
    },
    OpDef {
        traits: Traits::NONE,
        inherent_attrs: &[
            "sym_name",
            "sym_visibility",
            "type",
            "initial_value",
            "constant",
            "alignment",
        ],
        parse: Some(parse_global),
        print: Some(print_global),
        verify: Some(verify_global),
        ..OpDef::new("memref.global")
    },
];

/// The `memref` dialect.
pub static MEMREF_DIALECT: DialectDef = DialectDef {
    name: "memref",
    ops: OPS,
    attrs: None,
    types: None,
    materialize_constant: Some(crate::arith::materialize_constant),
};

/// A load or store has one index per dimension.
fn verify_access(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let ir = v.ir();
    let is_load = v.ctx().str(ir.op_name(op)) == "memref.load";
    // The memref is the first operand of a load, the second of a store.
    let memref = ir
        .operands(op)
        .nth(usize::from(!is_load))
        .map(|x| ir.value_type(x));
    let Some(TypeKind::MemRef { shape, .. }) = memref.map(|t| v.ctx().type_kind(t)) else {
        return Ok(());
    };
    let rank = shape.len();
    let indices = ir.num_operands(op) - if is_load { 1 } else { 2 };
    if indices != rank {
        let kind = if is_load { "load" } else { "store" };
        let msg =
            format!("incorrect number of indices for {kind}, expected {rank} but got {indices}");
        return Err(v.op_error(op, msg));
    }
    Ok(())
}

/// The tensor type of a memref type's shape and element, for initial
/// values.
fn tensor_of(ctx: &mut Context, memref: Type) -> Option<Type> {
    let TypeKind::MemRef { shape, element, .. } = ctx.type_kind(memref).clone() else {
        return None;
    };
    Some(ctx.intern_type(TypeKind::RankedTensor {
        shape,
        element,
        encoding: None,
    }))
}

/// `["private"] [constant] @name : memref-type [= uninitialized | = attr]
/// attr-dict`
fn parse_global(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let mut props: Vec<(Symbol, Attr)> = Vec::new();
    if p.peek(Tok::String) {
        let vis = p.parse_string()?;
        let ctx = p.ctx();
        let k = ctx.sym("sym_visibility");
        props.push((k, ctx.string_attr(&vis)));
    }
    if p.eat_keyword("constant") {
        let ctx = p.ctx();
        let k = ctx.sym("constant");
        let unit = ctx.unit_attr();
        props.push((k, unit));
    }
    let name = p.parse_symbol_name()?;
    p.expect(Tok::Colon, "':'")?;
    let ty = p.parse_type()?;
    let static_shape = matches!(p.ctx().type_kind(ty), TypeKind::MemRef { shape, .. } if !shape.contains(&silica_ir::types::DYNAMIC));
    if !static_shape {
        let shown = silica_ir::printer::type_to_string(p.ctx(), ty);
        return p.op_error(format!(
            "custom op 'memref.global' type should be static shaped memref, but got '{shown}'"
        ));
    }
    if p.eat(Tok::Equal) {
        let init = if p.eat_keyword("uninitialized") {
            p.ctx().unit_attr()
        } else {
            let t = tensor_of(p.ctx(), ty);
            let a = match t {
                Some(t) => p.parse_attribute_of_type(t)?,
                None => p.parse_attribute()?,
            };
            if !is_elements(p.ctx(), a) {
                return p.op_error(
                    "custom op 'memref.global' initial value should be a unit or elements attribute",
                );
            }
            a
        };
        let k = p.ctx().sym("initial_value");
        props.push((k, init));
    }
    let attrs = p.parse_optional_attr_dict()?;
    let loc = p.op_loc();
    let ctx = p.ctx();
    let text = ctx.str(name).as_bytes().to_vec();
    let k = ctx.sym("sym_name");
    props.push((k, ctx.string_attr(&text)));
    let k = ctx.sym("type");
    props.push((k, ctx.intern_attr(AttrKind::Type(ty))));
    let mut discardable = Vec::new();
    for &(k, v) in ctx.dict_entries(attrs) {
        if ctx.str(k) == "alignment" {
            props.push((k, v));
        } else {
            discardable.push((k, v));
        }
    }
    let props = ctx.dict_attr(props);
    let attrs = ctx.dict_attr(discardable);
    let name = ctx.sym("memref.global");
    Ok(p.create_op(OpSpec {
        name,
        loc,
        operands: &[],
        result_types: &[],
        successors: &[],
        regions: &[],
        attrs,
        props: Some(props),
    }))
}

/// Whether `a` is an elements attribute (`dense`, `sparse`,
/// `dense_resource`).
fn is_elements(ctx: &Context, a: Attr) -> bool {
    elements_type(ctx, a).is_some()
}

/// The shaped type of an elements attribute.
fn elements_type(ctx: &Context, a: Attr) -> Option<Type> {
    match ctx.attr_kind(a) {
        AttrKind::DenseElements { ty, .. }
        | AttrKind::DenseStrings { ty, .. }
        | AttrKind::DenseResource { ty, .. }
        | AttrKind::Sparse { ty, .. } => Some(*ty),
        _ => None,
    }
}

/// `memref.global`: a statically shaped memref type, an initial value
/// of its element type and shape, a power-of-two alignment.
fn verify_global(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let ty = inherent_attr(ctx, ir, op, "type").and_then(|a| match ctx.attr_kind(a) {
        AttrKind::Type(t) => Some(*t),
        _ => None,
    });
    let Some(memref) = ty.filter(|&t| matches!(ctx.type_kind(t), TypeKind::MemRef { .. })) else {
        return Err(v.op_error(
            op,
            "attribute 'type' failed to satisfy constraint: memref type attribute",
        ));
    };
    let show = |t| silica_ir::printer::type_to_string(ctx, t);
    let TypeKind::MemRef { shape, element, .. } = ctx.type_kind(memref) else {
        return Ok(());
    };
    if shape.contains(&silica_ir::types::DYNAMIC) {
        let msg = format!(
            "type should be static shaped memref, but got '{}'",
            show(memref)
        );
        return Err(v.op_error(op, msg));
    }
    if let Some(init) = inherent_attr(ctx, ir, op, "initial_value") {
        if !matches!(ctx.attr_kind(init), AttrKind::Unit) && !is_elements(ctx, init) {
            let msg = format!(
                "initial value should be a unit or elements attribute, but got {}",
                silica_ir::printer::attr_to_string(ctx, init)
            );
            return Err(v.op_error(op, msg));
        }
        let init_type = elements_type(ctx, init).and_then(|t| ctx.shaped(t));
        if let Some((Some(init_shape), init_element)) = init_type {
            if init_element != *element {
                let msg = format!(
                    "initial value element expected to be of type '{}', but was of type '{}'",
                    show(*element),
                    show(init_element)
                );
                return Err(v.op_error(op, msg));
            }
            if init_shape != &shape[..] {
                let list = |s: &[i64]| {
                    s.iter()
                        .map(|d| d.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                let msg = format!(
                    "initial value shape expected to be {} but was {}",
                    list(shape),
                    list(init_shape)
                );
                return Err(v.op_error(op, msg));
            }
        }
    }
    let alignment = inherent_attr(v.ctx(), v.ir(), op, "alignment");
    if alignment.is_some_and(|a| !(POW2_ALIGNMENT.check)(v.ctx(), a)) {
        let msg = format!(
            "attribute 'alignment' failed to satisfy constraint: {}",
            POW2_ALIGNMENT.desc
        );
        return Err(v.op_error(op, msg));
    }
    Ok(())
}

/// `memref.get_global` names a `memref.global` of its result type.
fn verify_get_global(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let Some(sym) = inherent_attr(ctx, ir, op, "name") else {
        return Ok(());
    };
    let shown = silica_ir::printer::attr_to_string(ctx, sym);
    let name = shown.trim_start_matches('@').trim_matches('"').to_string();
    let global = silica_ir::symbols::lookup_from(ctx, ir, op, sym)
        .filter(|&g| ctx.str(ir.op_name(g)) == "memref.global");
    let Some(global) = global else {
        return Err(v.op_error(
            op,
            format!("'{name}' does not reference a valid global memref"),
        ));
    };
    let declared = inherent_attr(ctx, ir, global, "type").and_then(|a| match ctx.attr_kind(a) {
        AttrKind::Type(t) => Some(*t),
        _ => None,
    });
    let result = ir.value_type(ir.result(op, 0));
    if let Some(declared) = declared.filter(|&t| t != result) {
        let show = |t| silica_ir::printer::type_to_string(ctx, t);
        let msg = format!(
            "result type '{}' does not match type '{}' of the global memref @{name}",
            show(result),
            show(declared)
        );
        return Err(v.op_error(op, msg));
    }
    Ok(())
}

fn verify_assume_alignment(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let alignment = inherent_attr(v.ctx(), v.ir(), op, "alignment");
    let n = alignment.and_then(|a| int_of_width(v.ctx(), a, 32));
    if n.is_some_and(|n| n & (n - 1) != 0) {
        return Err(v.op_error(op, "alignment must be power of 2"));
    }
    Ok(())
}

fn print_global(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let get = |n| inherent_attr(ctx, ir, op, n);
    if let Some(AttrKind::String { value, .. }) = get("sym_visibility").map(|a| ctx.attr_kind(a)) {
        p.write(" ");
        p.string(value);
    }
    if get("constant").is_some() {
        p.write(" constant");
    }
    if let Some(AttrKind::String { value, .. }) = get("sym_name").map(|a| ctx.attr_kind(a)) {
        p.write(" ");
        p.symbol_name(&String::from_utf8_lossy(value));
    }
    p.write(" : ");
    if let Some(AttrKind::Type(t)) = get("type").map(|a| ctx.attr_kind(a)) {
        p.ty(*t);
    }
    match get("initial_value") {
        Some(a) if matches!(ctx.attr_kind(a), AttrKind::Unit) => p.write(" = uninitialized"),
        Some(a) => {
            p.write(" = ");
            p.attr_elided_type(a);
        }
        None => {}
    }
    let mut extra: Vec<(Symbol, Attr)> = ir
        .op_props(op)
        .map(|d| ctx.dict_entries(d).to_vec())
        .unwrap_or_default()
        .into_iter()
        .filter(|(k, _)| ctx.str(*k) == "alignment")
        .collect();
    extra.extend(ctx.dict_entries(ir.op_attrs(op)).iter().copied());
    extra.sort_by(|a, b| ctx.str(a.0).cmp(ctx.str(b.0)));
    p.attr_entries(&extra, false);
}

// ----- DMA ---------------------------------------------------------------------

/// `%m[%i, ...]`: a memref operand and its indices.
fn parse_indexed<'a>(
    p: &mut AsmParser<'_, 'a>,
) -> PResult<(
    silica_ir::parser::UnresolvedOperand<'a>,
    Vec<silica_ir::parser::UnresolvedOperand<'a>>,
)> {
    let m = p.parse_operand()?;
    let mut idx = Vec::new();
    p.expect(Tok::LSquare, "'['")?;
    p.comma_list(Tok::RSquare, "']'", |p| {
        idx.push(p.parse_operand()?);
        Ok(())
    })?;
    Ok((m, idx))
}

fn memref_rank(ctx: &Context, t: Type) -> usize {
    match ctx.type_kind(t) {
        TypeKind::MemRef { shape, .. } => shape.len(),
        _ => 0,
    }
}

/// `%src[...], %dst[...], %n, %tag[...] [, %stride, %per_stride] :
/// src-type, dst-type, tag-type`
fn parse_dma_start(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let (src, src_idx) = parse_indexed(p)?;
    p.expect(Tok::Comma, "','")?;
    let (dst, dst_idx) = parse_indexed(p)?;
    p.expect(Tok::Comma, "','")?;
    let num = p.parse_operand()?;
    p.expect(Tok::Comma, "','")?;
    let (tag, tag_idx) = parse_indexed(p)?;
    let mut strides = Vec::new();
    while p.eat(Tok::Comma) {
        strides.push(p.parse_operand()?);
    }
    if !strides.is_empty() && strides.len() != 2 {
        return p.op_error("expected two stride related operands");
    }
    p.expect(Tok::Colon, "':'")?;
    let src_ty = p.parse_type()?;
    p.expect(Tok::Comma, "','")?;
    let dst_ty = p.parse_type()?;
    p.expect(Tok::Comma, "','")?;
    let tag_ty = p.parse_type()?;
    let mut operands = vec![p.resolve_operand(src, src_ty)?];
    operands.extend(p.resolve_indices(&src_idx)?);
    operands.push(p.resolve_operand(dst, dst_ty)?);
    operands.extend(p.resolve_indices(&dst_idx)?);
    operands.extend(p.resolve_indices(&[num])?);
    operands.push(p.resolve_operand(tag, tag_ty)?);
    operands.extend(p.resolve_indices(&tag_idx)?);
    operands.extend(p.resolve_indices(&strides)?);
    let loc = p.op_loc();
    let ctx = p.ctx();
    let name = ctx.sym("memref.dma_start");
    let attrs = ctx.empty_dict();
    Ok(p.create_op(OpSpec {
        name,
        loc,
        operands: &operands,
        result_types: &[],
        successors: &[],
        regions: &[],
        attrs,
        props: None,
    }))
}

/// Prints `%m[%i, ...]` from `ops[at..]` and returns the index after it.
fn print_indexed(p: &mut AsmPrinter<'_, '_>, ops: &[silica_ir::ValueId], at: usize) -> usize {
    let Some(&m) = ops.get(at) else {
        return at;
    };
    let rank = memref_rank(p.ctx(), p.ir().value_type(m));
    let end = (at + 1 + rank).min(ops.len());
    p.operand(m);
    p.write("[");
    p.operands(ops[at + 1..end].iter().copied());
    p.write("]");
    end
}

fn print_dma_start(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let ir = p.ir();
    let ops: Vec<silica_ir::ValueId> = ir.operands(op).collect();
    let Some(&src) = ops.first() else {
        return;
    };
    p.write(" ");
    let mut at = print_indexed(p, &ops, 0);
    p.write(", ");
    let dst = ops.get(at).copied();
    at = print_indexed(p, &ops, at);
    p.write(", ");
    if let Some(&n) = ops.get(at) {
        p.operand(n);
    }
    at += 1;
    p.write(", ");
    let tag = ops.get(at).copied();
    at = print_indexed(p, &ops, at);
    for &v in ops.get(at..).unwrap_or(&[]) {
        p.write(", ");
        p.operand(v);
    }
    p.attr_dict(ir.op_attrs(op), &[], false);
    p.write(" : ");
    let tys: Vec<Type> = [Some(src), dst, tag]
        .into_iter()
        .flatten()
        .map(|v| ir.value_type(v))
        .collect();
    p.types(&tys);
}

/// `%tag[...], %n : tag-type`
fn parse_dma_wait(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let (tag, tag_idx) = parse_indexed(p)?;
    p.expect(Tok::Comma, "','")?;
    let num = p.parse_operand()?;
    p.expect(Tok::Colon, "':'")?;
    let tag_ty = p.parse_type()?;
    let mut operands = vec![p.resolve_operand(tag, tag_ty)?];
    operands.extend(p.resolve_indices(&tag_idx)?);
    operands.extend(p.resolve_indices(&[num])?);
    let loc = p.op_loc();
    let ctx = p.ctx();
    let name = ctx.sym("memref.dma_wait");
    let attrs = ctx.empty_dict();
    Ok(p.create_op(OpSpec {
        name,
        loc,
        operands: &operands,
        result_types: &[],
        successors: &[],
        regions: &[],
        attrs,
        props: None,
    }))
}

fn print_dma_wait(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let ir = p.ir();
    let ops: Vec<silica_ir::ValueId> = ir.operands(op).collect();
    p.write(" ");
    let at = print_indexed(p, &ops, 0);
    p.write(", ");
    if let Some(&n) = ops.get(at) {
        p.operand(n);
    }
    p.attr_dict(ir.op_attrs(op), &[], false);
    p.write(" : ");
    if let Some(&tag) = ops.first() {
        p.ty(ir.value_type(tag));
    }
}

/// `memref.dma_start`: its memrefs, an index per dimension of each, the
/// element count and the optional stride pair, checked in MLIR's order.
fn verify_dma_start(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let types: Vec<Type> = ir.operands(op).map(|x| ir.value_type(x)).collect();
    let n = types.len();
    if n < 4 {
        return Err(v.op_error(op, "expected at least 4 operands"));
    }
    let is_memref = |t: Type| matches!(ctx.type_kind(t), TypeKind::MemRef { .. });
    let all_index = |ts: &[Type]| {
        ts.iter()
            .all(|&t| matches!(ctx.type_kind(t), TypeKind::Index))
    };
    let mut at = 0;
    let mut expected = 4;
    for (what, indices) in [("source", "source"), ("destination", "destination")] {
        if !is_memref(types[at]) {
            return Err(v.op_error(op, format!("expected {what} to be of memref type")));
        }
        let rank = memref_rank(ctx, types[at]);
        expected += rank;
        if n < expected {
            return Err(v.op_error(op, format!("expected at least {expected} operands")));
        }
        if !all_index(&types[at + 1..at + 1 + rank]) {
            return Err(v.op_error(
                op,
                format!("expected {indices} indices to be of index type"),
            ));
        }
        at += 1 + rank;
    }
    if !all_index(&types[at..at + 1]) {
        return Err(v.op_error(op, "expected num elements to be of index type"));
    }
    at += 1;
    if !is_memref(types[at]) {
        return Err(v.op_error(op, "expected tag to be of memref type"));
    }
    let rank = memref_rank(ctx, types[at]);
    expected += rank;
    if n < expected {
        return Err(v.op_error(op, format!("expected at least {expected} operands")));
    }
    if !all_index(&types[at + 1..at + 1 + rank]) {
        return Err(v.op_error(op, "expected tag indices to be of index type"));
    }
    if n != expected && n != expected + 2 {
        return Err(v.op_error(op, "incorrect number of operands"));
    }
    if n == expected + 2 && !all_index(&types[expected..]) {
        return Err(v.op_error(
            op,
            "expected stride and num elements per stride to be of type index",
        ));
    }
    Ok(())
}

/// `memref.dma_wait`: a tag memref, one index per dimension, a count.
fn verify_dma_wait(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let types: Vec<Type> = ir.operands(op).map(|x| ir.value_type(x)).collect();
    let Some(&tag) = types.first() else {
        return Err(v.op_error(op, "expected 2 or more operands, but found 0"));
    };
    if !matches!(ctx.type_kind(tag), TypeKind::MemRef { .. }) {
        let msg = format!(
            "operand #0 must be memref of any type values, but got '{}'",
            silica_ir::printer::type_to_string(ctx, tag)
        );
        return Err(v.op_error(op, msg));
    }
    if types.len() < 2 {
        return Err(v.op_error(
            op,
            format!("expected 2 or more operands, but found {}", types.len()),
        ));
    }
    for (i, &t) in types.iter().enumerate().skip(1) {
        if !matches!(ctx.type_kind(t), TypeKind::Index) {
            let msg = format!(
                "operand #{i} must be variadic of index, but got '{}'",
                silica_ir::printer::type_to_string(ctx, t)
            );
            return Err(v.op_error(op, msg));
        }
    }
    let rank = memref_rank(ctx, tag);
    let indices = types.len() - 2;
    if indices != rank {
        let msg = format!(
            "expected tagIndices to have the same number of elements as the tagMemRef rank, expected {rank}, but got {indices}"
        );
        return Err(v.op_error(op, msg));
    }
    Ok(())
}
