//! Conversion targets: which ops are legal, by op name or dialect, with
//! per-op dynamic legality.

use crate::context::Context;
use crate::graph::{Ir, OpId};
use rustc_hash::FxHashMap;

/// Whether an op may stay after conversion.
#[derive(Clone, Copy)]
pub enum Legality {
    Legal,
    /// Must be converted (a conversion fails if it cannot be).
    Illegal,
    /// Legal when the function says so.
    Dynamic(fn(&Context, &Ir, OpId) -> bool),
}

/// The legality rules of a conversion (MLIR's `ConversionTarget`).
#[derive(Default)]
pub struct ConversionTarget {
    ops: FxHashMap<String, Legality>,
    dialects: FxHashMap<String, Legality>,
}

impl ConversionTarget {
    /// An empty target: every op's legality is unknown.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the legality of the op named `name`.
    pub fn set_op(&mut self, name: &str, legality: Legality) -> &mut Self {
        self.ops.insert(name.to_string(), legality);
        self
    }

    /// Sets the legality of every op of dialect `name` (op rules win).
    pub fn set_dialect(&mut self, name: &str, legality: Legality) -> &mut Self {
        self.dialects.insert(name.to_string(), legality);
        self
    }

    /// The rule for ops named `name` (op rules win over dialect rules).
    pub fn rule(&self, name: &str) -> Option<Legality> {
        self.ops
            .get(name)
            .or_else(|| {
                let dialect = name.split('.').next().unwrap_or(name);
                self.dialects.get(dialect)
            })
            .copied()
    }

    /// `Some(true)` legal, `Some(false)` illegal, `None` unknown.
    pub fn is_legal(&self, ctx: &Context, ir: &Ir, op: OpId) -> Option<bool> {
        let name = ctx.str(ir.op_name(op));
        let rule = self.ops.get(name).or_else(|| {
            let dialect = name.split('.').next().unwrap_or(name);
            self.dialects.get(dialect)
        })?;
        Some(match rule {
            Legality::Legal => true,
            Legality::Illegal => false,
            Legality::Dynamic(f) => f(ctx, ir, op),
        })
    }

    /// Whether `op` was explicitly marked illegal (not merely unknown).
    pub fn is_illegal(&self, ctx: &Context, ir: &Ir, op: OpId) -> bool {
        self.is_legal(ctx, ir, op) == Some(false)
    }
}
