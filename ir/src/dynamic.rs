//! Dialects defined at run time (MLIR's extensible dialects), which IRDL
//! builds from a file: their types and attributes are written in the
//! generic `!dialect.name<param, ...>` syntax and their ops in the generic
//! op form; closures given at registration check type and attribute
//! parameters (when parsed) and ops (when verified).
//!
//! A dynamic dialect's names and op definitions are leaked so that they
//! live as long as the process, like the `'static` definitions of native
//! dialects; a tool loads a few such dialects once, at start-up.

use crate::context::{Attr, Context};
use crate::dialect::{DialectDef, OpDef};
use crate::graph::OpId;
use crate::parser::PResult;
use crate::verify::OpVerifier;
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// Checks the parameters of a dynamic type or attribute; the error is
/// reported where its name is written.
pub type ParamsCheck = Arc<dyn Fn(&Context, &[Attr]) -> Result<(), String> + Send + Sync>;

/// Verifies an op of a dynamic dialect.
pub type OpCheck = Arc<dyn Fn(&mut OpVerifier<'_, '_>, OpId) -> PResult<()> + Send + Sync>;

/// A dialect defined at run time: its types, attributes and ops by name
/// (without the `dialect.` prefix).
#[derive(Default)]
pub struct DynamicDialect {
    pub types: FxHashMap<String, ParamsCheck>,
    pub attrs: FxHashMap<String, ParamsCheck>,
    pub ops: FxHashMap<String, OpCheck>,
}

/// Whether a dynamic definition is a type or an attribute.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ParamsKind {
    Type,
    Attr,
}

impl Context {
    /// Registers the dynamic dialect `name`; fails when a dialect of that
    /// name is already registered.
    pub fn register_dynamic_dialect(
        &mut self,
        name: &str,
        dialect: DynamicDialect,
    ) -> Result<(), String> {
        if self.dialect(name).is_some() {
            return Err(format!("a dialect named '{name}' is already registered"));
        }
        let name: &'static str = Box::leak(name.to_string().into_boxed_str());
        let mut op_names: Vec<&String> = dialect.ops.keys().collect();
        op_names.sort();
        let ops: Vec<OpDef> = op_names
            .into_iter()
            .map(|op| OpDef {
                verify: Some(verify_dynamic_op),
                ..OpDef::new(Box::leak(format!("{name}.{op}").into_boxed_str()))
            })
            .collect();
        let def: &'static DialectDef = Box::leak(Box::new(DialectDef {
            name,
            ops: Box::leak(ops.into_boxed_slice()),
            attrs: None,
            types: None,
            materialize_constant: None,
        }));
        self.register_dialect(def);
        self.registry.dynamic.insert(name, dialect);
        Ok(())
    }

    /// Whether any dialect was defined at run time.
    pub fn has_dynamic_dialects(&self) -> bool {
        !self.registry.dynamic.is_empty()
    }

    /// Whether `dialect` was defined at run time.
    pub fn is_dynamic_dialect(&self, dialect: &str) -> bool {
        // Most contexts have none: skip hashing the name on the parser's
        // paths for dialect types and attributes.
        self.has_dynamic_dialects() && self.registry.dynamic.contains_key(dialect)
    }

    /// Checks the parameters of the dynamic type or attribute
    /// `dialect.name`: `None` when `dialect` is not dynamic, an error when
    /// it has no such definition or the parameters break its constraints.
    pub fn check_dynamic_params(
        &self,
        kind: ParamsKind,
        dialect: &str,
        name: &str,
        params: &[Attr],
    ) -> Option<Result<(), String>> {
        if !self.has_dynamic_dialects() {
            return None;
        }
        let d = self.registry.dynamic.get(dialect)?;
        let (defs, missing) = match kind {
            ParamsKind::Type => (&d.types, "expected dynamic type"),
            ParamsKind::Attr => (&d.attrs, "expected dynamic attribute"),
        };
        Some(match defs.get(name) {
            Some(check) => check(self, params),
            None => Err(missing.to_string()),
        })
    }

    /// Whether the dynamic dialect `dialect` defines a type (or attribute)
    /// named `name`.
    pub fn has_dynamic_def(&self, kind: ParamsKind, dialect: &str, name: &str) -> bool {
        self.registry
            .dynamic
            .get(dialect)
            .is_some_and(|d| match kind {
                ParamsKind::Type => d.types.contains_key(name),
                ParamsKind::Attr => d.attrs.contains_key(name),
            })
    }
}

/// The verifier of every dynamic op: runs the check registered for it.
fn verify_dynamic_op(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let full = v.ctx().str(v.ir().op_name(op));
    let check = full.split_once('.').and_then(|(d, name)| {
        let dialect = v.ctx().registry.dynamic.get(d)?;
        dialect.ops.get(name).cloned()
    });
    match check {
        Some(check) => check(v, op),
        None => Ok(()),
    }
}
