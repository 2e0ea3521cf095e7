//! Type converters: functions from a type to its converted type, tried
//! most recently added first (MLIR's order); a type no function handles
//! has no conversion.

use crate::context::{Context, Type};

/// Converts a type: `Some(t)` converted, `None` this function declines.
/// A closure, so that a conversion can carry its options (the width of
/// `index`, say).
pub type TypeConversionFn = Box<dyn Fn(&mut Context, Type) -> Option<Type> + Send + Sync>;

/// The type conversions of a conversion (MLIR's `TypeConverter`, 1:1).
#[derive(Default)]
pub struct TypeConverter {
    conversions: Vec<TypeConversionFn>,
}

impl TypeConverter {
    /// A converter that converts nothing.
    pub fn new() -> Self {
        Self::default()
    }

    /// A converter that keeps every type as it is.
    pub fn identity() -> Self {
        let mut tc = Self::new();
        tc.add(|_, t| Some(t));
        tc
    }

    /// Adds a conversion, tried before the ones added earlier.
    pub fn add(
        &mut self,
        f: impl Fn(&mut Context, Type) -> Option<Type> + Send + Sync + 'static,
    ) -> &mut Self {
        self.conversions.push(Box::new(f));
        self
    }

    /// The converted type of `t`, if some conversion handles it.
    pub fn convert(&self, ctx: &mut Context, t: Type) -> Option<Type> {
        self.conversions.iter().rev().find_map(|f| f(ctx, t))
    }

    /// Whether `t` converts to itself.
    pub fn is_legal(&self, ctx: &mut Context, t: Type) -> bool {
        self.convert(ctx, t) == Some(t)
    }
}
