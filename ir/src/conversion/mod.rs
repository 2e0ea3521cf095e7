//! Dialect conversion (MLIR's framework): a [`ConversionTarget`] says
//! which ops are legal, a [`TypeConverter`] maps types, and conversion
//! patterns rewrite illegal ops given their operands already converted
//! (the "adaptor" operands). Where values of old and new types meet,
//! `builtin.unrealized_conversion_cast` ops are materialised; the ones
//! left unused at the end are erased, and `reconcile-unrealized-casts`
//! removes round trips. A failed conversion leaves the IR as it was.

mod driver;
mod reconcile;
mod target;
mod type_converter;

pub use driver::{
    apply_full_conversion, apply_partial_conversion, fold_ops_of_unknown_legality,
    ConversionPattern, ConversionPatternFn, ConversionRewriter,
};
pub use reconcile::{reconcile_unrealized_casts, RECONCILE_UNREALIZED_CASTS};
pub use target::{ConversionTarget, Legality};
pub use type_converter::{TypeConversionFn, TypeConverter};

/// The name of the cast op conversions materialise.
pub const CAST: &str = "builtin.unrealized_conversion_cast";
