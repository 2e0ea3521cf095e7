//! IRDL's constraint semantics. Each SSA value of a definition's body is
//! a constraint variable; while one instance (a type's parameters, an
//! op's operands, results, attributes and regions) is checked, a variable
//! binds to the first value that satisfies it, and every later use must
//! see that same value. Messages are mlir-opt's.

use super::base_names::{attr_base_name, type_base_name};
use crate::attrs::AttrKind;
use crate::context::{Attr, Context, Type};
use crate::printer::{attr_to_string, type_to_string};
use crate::types::TypeKind;

/// A value a constraint sees: a type (MLIR wraps these in a `TypeAttr`)
/// or any other attribute.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Val {
    Type(Type),
    Attr(Attr),
}

impl Val {
    /// The value of an attribute: type attributes stand for their type.
    pub(crate) fn of(ctx: &Context, a: Attr) -> Val {
        match ctx.attr_kind(a) {
            AttrKind::Type(t) => Val::Type(*t),
            _ => Val::Attr(a),
        }
    }

    fn show(self, ctx: &Context) -> String {
        match self {
            Val::Type(t) => type_to_string(ctx, t),
            Val::Attr(a) => attr_to_string(ctx, a),
        }
    }
}

/// A type or attribute defined in a dynamic dialect.
#[derive(Clone, Debug)]
pub(crate) struct DefRef {
    pub dialect: String,
    pub name: String,
}

impl DefRef {
    fn full(&self) -> String {
        format!("{}.{}", self.dialect, self.name)
    }

    fn matches(&self, ctx: &Context, dialect: crate::Symbol, name: crate::Symbol) -> bool {
        ctx.str(dialect) == self.dialect && ctx.str(name) == self.name
    }
}

/// One constraint; operands are the indices of other variables.
#[derive(Clone, Debug)]
pub(crate) enum Constraint {
    /// Exactly this value (`irdl.is`).
    Is(Val),
    /// A type of the named base (`builtin.integer`, `testd.parametric`).
    BaseType(String),
    /// An attribute of the named base.
    BaseAttr(String),
    /// A dynamic type whose parameters satisfy the variables.
    ParametricType(DefRef, Vec<usize>),
    /// A dynamic attribute whose parameters satisfy the variables.
    ParametricAttr(DefRef, Vec<usize>),
    Any,
    AnyOf(Vec<usize>),
    AllOf(Vec<usize>),
}

/// The state of one check: the constraints and what each variable is
/// bound to so far.
pub(crate) struct ConstraintVerifier<'c> {
    constraints: &'c [Constraint],
    assigned: Vec<Option<Val>>,
}

impl<'c> ConstraintVerifier<'c> {
    pub(crate) fn new(constraints: &'c [Constraint]) -> Self {
        ConstraintVerifier {
            constraints,
            assigned: vec![None; constraints.len()],
        }
    }

    /// Checks `val` against variable `var`, binding it on success.
    pub(crate) fn verify(&mut self, ctx: &Context, val: Val, var: usize) -> Result<(), String> {
        if let Some(bound) = self.assigned[var] {
            if bound == val {
                return Ok(());
            }
            return Err(format!(
                "expected '{}' but got '{}'",
                bound.show(ctx),
                val.show(ctx)
            ));
        }
        self.check(ctx, val, &self.constraints[var])?;
        self.assigned[var] = Some(val);
        Ok(())
    }

    fn check(&mut self, ctx: &Context, val: Val, c: &Constraint) -> Result<(), String> {
        match c {
            Constraint::Is(expected) if *expected == val => Ok(()),
            Constraint::Is(expected) => Err(format!(
                "expected '{}' but got '{}'",
                expected.show(ctx),
                val.show(ctx)
            )),
            Constraint::BaseType(base) => {
                let Val::Type(t) = val else {
                    return Err(format!("expected type, got attribute '{}'", val.show(ctx)));
                };
                let got = type_base_name(ctx, t);
                if got == *base {
                    return Ok(());
                }
                Err(format!("expected base type '{base}' but got '{got}'"))
            }
            Constraint::BaseAttr(base) => {
                let got = match val {
                    Val::Type(_) => "builtin.type".to_string(),
                    Val::Attr(a) => attr_base_name(ctx, a),
                };
                if got == *base {
                    return Ok(());
                }
                Err(format!("expected base attribute '{base}' but got '{got}'"))
            }
            Constraint::ParametricType(def, vars) => {
                let Val::Type(t) = val else {
                    return Err(format!("expected type, got attribute '{}'", val.show(ctx)));
                };
                match ctx.type_kind(t) {
                    TypeKind::Dialect {
                        dialect,
                        name,
                        params,
                    } if def.matches(ctx, *dialect, *name) => {
                        self.check_params(ctx, "type", def, params, vars)
                    }
                    _ => Err(format!(
                        "expected base type '{}' but got '{}'",
                        def.full(),
                        val.show(ctx)
                    )),
                }
            }
            Constraint::ParametricAttr(def, vars) => {
                let kind = match val {
                    Val::Attr(a) => Some(ctx.attr_kind(a)),
                    Val::Type(_) => None,
                };
                match kind {
                    Some(AttrKind::Dialect {
                        dialect,
                        name,
                        params,
                    }) if def.matches(ctx, *dialect, *name) => {
                        self.check_params(ctx, "attribute", def, params, vars)
                    }
                    _ => Err(format!(
                        "expected base attribute '{}' but got '{}'",
                        def.full(),
                        val.show(ctx)
                    )),
                }
            }
            Constraint::Any => Ok(()),
            Constraint::AnyOf(vars) => {
                // Alternatives are tried without reporting; bindings made
                // by a failed alternative stay, as in MLIR.
                if vars.iter().any(|&v| self.verify(ctx, val, v).is_ok()) {
                    return Ok(());
                }
                Err(format!(
                    "'{}' does not satisfy the constraint",
                    val.show(ctx)
                ))
            }
            Constraint::AllOf(vars) => vars.iter().try_for_each(|&v| self.verify(ctx, val, v)),
        }
    }

    fn check_params(
        &mut self,
        ctx: &Context,
        what: &str,
        def: &DefRef,
        params: &[Attr],
        vars: &[usize],
    ) -> Result<(), String> {
        if params.len() != vars.len() {
            return Err(format!(
                "{what} '{}' expects {} parameters but got {}",
                def.full(),
                params.len(),
                vars.len()
            ));
        }
        params
            .iter()
            .zip(vars)
            .try_for_each(|(&p, &v)| self.verify(ctx, Val::of(ctx, p), v))
    }
}

/// Checks the parameters of a dynamic type or attribute: their number,
/// then each against its variable.
pub(crate) fn verify_params(
    ctx: &Context,
    constraints: &[Constraint],
    param_vars: &[usize],
    params: &[Attr],
) -> Result<(), String> {
    if params.len() != param_vars.len() {
        return Err(format!(
            "expected {} type arguments, but had {}",
            param_vars.len(),
            params.len()
        ));
    }
    let mut v = ConstraintVerifier::new(constraints);
    params
        .iter()
        .zip(param_vars)
        .try_for_each(|(&p, &var)| v.verify(ctx, Val::of(ctx, p), var))
}
