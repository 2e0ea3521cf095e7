//! Loading `irdl.dialect` ops as dynamic dialects: each definition's body
//! becomes a list of [`Constraint`]s (one variable per SSA value), and
//! each type, attribute and op a check over them registered with
//! [`Context::register_dynamic_dialect`].

use super::base_names::is_known_base;
use super::constraint::{verify_params, Constraint, ConstraintVerifier, DefRef, Val};
use super::ops::{self, op_variadicities, region_block_count, string_array_prop, string_prop};
use super::Variadicity;
use crate::attrs::AttrKind;
use crate::context::{Attr, Context};
use crate::diag::Diagnostic;
use crate::dialect::inherent_attr;
use crate::dynamic::{DynamicDialect, ParamsKind};
use crate::graph::{Ir, OpId, ValueId};
use crate::parser::PResult;
use crate::verify::OpVerifier;
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::Arc;

/// What a region of a dynamic op must look like.
#[derive(Debug)]
struct RegionConstraint {
    /// Variables of the entry block's arguments, when constrained.
    args: Option<Vec<usize>>,
    blocks: Option<i64>,
}

/// The compiled definition of a dynamic op.
#[derive(Debug, Default)]
struct OpDefinition {
    constraints: Vec<Constraint>,
    operands: Vec<(usize, Variadicity)>,
    results: Vec<(usize, Variadicity)>,
    attributes: Vec<(String, usize)>,
    /// An op without `irdl.regions` has no regions.
    regions: Vec<RegionConstraint>,
}

/// The compiled definition of a dynamic type or attribute.
#[derive(Debug, Default)]
struct ParamsDefinition {
    constraints: Vec<Constraint>,
    params: Vec<usize>,
}

/// The `irdl.type`/`irdl.attribute` an `irdl.base`/`irdl.parametric`
/// refers to through its attribute `attr`, resolved from the module that
/// holds the enclosing `irdl.dialect`.
fn resolve_definition(ctx: &Context, ir: &Ir, op: OpId, attr: &str) -> Result<OpId, String> {
    let Some(sym) = inherent_attr(ctx, ir, op, attr) else {
        return Err(format!("requires attribute '{attr}'"));
    };
    let AttrKind::SymbolRef { root, nested } = ctx.attr_kind(sym) else {
        return Err(format!("attribute '{attr}' must be a symbol reference"));
    };
    let shown = crate::printer::attr_to_string(ctx, sym);
    let mut scope = ir.parent_op(op);
    while let Some(s) = scope {
        if ctx.str(ir.op_name(s)) == ops::DIALECT {
            break;
        }
        scope = ir.parent_op(s);
    }
    let table = scope.and_then(|d| ir.parent_op(d));
    let target = table.and_then(|t| crate::symbols::lookup_nested(ctx, ir, t, *root, nested));
    let Some(target) = target else {
        return Err(format!("symbol '{shown}' not found"));
    };
    let kind = ctx.str(ir.op_name(target));
    if kind != ops::TYPE && kind != ops::ATTRIBUTE {
        return Err(format!(
            "symbol '{shown}' does not refer to a type or attribute definition (refers to '{kind}')"
        ));
    }
    Ok(target)
}

/// The verifier's check that a symbol reference names a type or
/// attribute definition.
pub(crate) fn check_definition_ref(
    v: &mut OpVerifier<'_, '_>,
    op: OpId,
    attr: &str,
) -> PResult<()> {
    match resolve_definition(v.ctx(), v.ir(), op, attr) {
        Ok(_) => Ok(()),
        Err(msg) => Err(v.op_error(op, msg)),
    }
}

/// The dialect and name of the definition `def` (an `irdl.type` or
/// `irdl.attribute` inside an `irdl.dialect`).
fn def_ref(ctx: &Context, ir: &Ir, def: OpId) -> DefRef {
    let dialect = ir
        .parent_op(def)
        .and_then(|d| string_prop(ctx, ir, d, "sym_name"));
    DefRef {
        dialect: dialect.unwrap_or_default(),
        name: string_prop(ctx, ir, def, "sym_name").unwrap_or_default(),
    }
}

/// The types and attributes about to be defined, by full name, so that
/// definitions may refer to each other in any order.
struct Pending {
    types: FxHashSet<String>,
    attrs: FxHashSet<String>,
}

/// Turns one definition body into constraints; `region_vars` receives the
/// `irdl.region` results as indices into the returned region list.
struct BodyCompiler<'a> {
    ctx: &'a Context,
    ir: &'a Ir,
    pending: &'a Pending,
    vars: FxHashMap<ValueId, usize>,
    constraints: Vec<Constraint>,
    regions: FxHashMap<ValueId, (Option<Vec<usize>>, Option<i64>)>,
}

impl<'a> BodyCompiler<'a> {
    fn new(ctx: &'a Context, ir: &'a Ir, pending: &'a Pending) -> Self {
        BodyCompiler {
            ctx,
            ir,
            pending,
            vars: FxHashMap::default(),
            constraints: Vec::new(),
            regions: FxHashMap::default(),
        }
    }

    fn error(&self, op: OpId, msg: impl Into<String>) -> Box<Diagnostic> {
        Box::new(Diagnostic::error(self.ir.op_loc(op), msg))
    }

    fn var(&self, v: ValueId) -> usize {
        self.vars.get(&v).copied().unwrap_or(0)
    }

    fn vars_of(&self, op: OpId) -> Vec<usize> {
        self.ir.operands(op).map(|v| self.var(v)).collect()
    }

    fn known(&self, kind: ParamsKind, name: &str) -> bool {
        let pending = match kind {
            ParamsKind::Type => &self.pending.types,
            ParamsKind::Attr => &self.pending.attrs,
        };
        pending.contains(name) || is_known_base(self.ctx, kind, name)
    }

    /// Compiles the constraint op `op`, if it is one.
    fn constraint(&mut self, op: OpId) -> PResult<()> {
        let (ctx, ir) = (self.ctx, self.ir);
        let c = match ctx.str(ir.op_name(op)) {
            ops::IS => {
                let expected = inherent_attr(ctx, ir, op, "expected");
                let Some(expected) = expected else {
                    return Err(self.error(op, "'irdl.is' requires attribute 'expected'"));
                };
                Constraint::Is(Val::of(ctx, expected))
            }
            ops::BASE => self.base(op)?,
            ops::PARAMETRIC => {
                let def = resolve_definition(ctx, ir, op, "base_type")
                    .map_err(|m| self.error(op, m))?;
                let args = self.vars_of(op);
                match ctx.str(ir.op_name(def)) {
                    ops::TYPE => Constraint::ParametricType(def_ref(ctx, ir, def), args),
                    _ => Constraint::ParametricAttr(def_ref(ctx, ir, def), args),
                }
            }
            ops::ANY => Constraint::Any,
            ops::ANY_OF => Constraint::AnyOf(self.vars_of(op)),
            ops::ALL_OF => Constraint::AllOf(self.vars_of(op)),
            ops::C_PRED => {
                return Err(self.error(
                    op,
                    "'irdl.c_pred' is not supported: silica cannot evaluate C++ predicates; use irdl.is, irdl.base, irdl.parametric, irdl.any_of or irdl.all_of",
                ))
            }
            ops::REGION => {
                let args = ops_region_args(ctx, ir, op).then(|| self.vars_of(op));
                let blocks = region_block_count(ctx, ir, op);
                self.regions.insert(ir.result(op, 0), (args, blocks));
                return Ok(());
            }
            _ => return Ok(()),
        };
        self.vars.insert(ir.result(op, 0), self.constraints.len());
        self.constraints.push(c);
        Ok(())
    }

    fn base(&self, op: OpId) -> PResult<Constraint> {
        let (ctx, ir) = (self.ctx, self.ir);
        if inherent_attr(ctx, ir, op, "base_ref").is_some() {
            let def = resolve_definition(ctx, ir, op, "base_ref").map_err(|m| self.error(op, m))?;
            let full = format!(
                "{}.{}",
                def_ref(ctx, ir, def).dialect,
                def_ref(ctx, ir, def).name
            );
            return Ok(match ctx.str(ir.op_name(def)) {
                ops::TYPE => Constraint::BaseType(full),
                _ => Constraint::BaseAttr(full),
            });
        }
        let name = string_prop(ctx, ir, op, "base_name").unwrap_or_default();
        let (kind, what, base) = match name.split_at(name.len().min(1)) {
            ("!", base) => (ParamsKind::Type, "type", base),
            ("#", base) => (ParamsKind::Attr, "attribute", base),
            _ => {
                return Err(self.error(
                    op,
                    "the base type or attribute name should start with '!' or '#'",
                ))
            }
        };
        if !self.known(kind, base) {
            return Err(self.error(op, format!("no registered {what} with name {name}")));
        }
        Ok(match kind {
            ParamsKind::Type => Constraint::BaseType(base.to_string()),
            ParamsKind::Attr => Constraint::BaseAttr(base.to_string()),
        })
    }
}

/// Whether an `irdl.region` constrains its entry arguments.
fn ops_region_args(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    inherent_attr(ctx, ir, op, "constrainedArguments").is_some()
}

/// The ops of a definition's body.
fn body_ops(ir: &Ir, def: OpId) -> Vec<OpId> {
    ir.regions(def)
        .flat_map(|r| ir.region_blocks(r).collect::<Vec<_>>())
        .flat_map(|b| ir.block_ops(b).collect::<Vec<_>>())
        .collect()
}

fn compile_params(
    ctx: &Context,
    ir: &Ir,
    pending: &Pending,
    def: OpId,
) -> PResult<ParamsDefinition> {
    let mut c = BodyCompiler::new(ctx, ir, pending);
    let mut params = Vec::new();
    for op in body_ops(ir, def) {
        c.constraint(op)?;
        if ctx.str(ir.op_name(op)) == ops::PARAMETERS {
            params = c.vars_of(op);
        }
    }
    Ok(ParamsDefinition {
        constraints: c.constraints,
        params,
    })
}

fn compile_op(ctx: &Context, ir: &Ir, pending: &Pending, def: OpId) -> PResult<OpDefinition> {
    let mut c = BodyCompiler::new(ctx, ir, pending);
    let mut d = OpDefinition::default();
    for op in body_ops(ir, def) {
        c.constraint(op)?;
        let with_kinds = |c: &BodyCompiler<'_>| -> Vec<(usize, Variadicity)> {
            c.vars_of(op)
                .into_iter()
                .zip(op_variadicities(ctx, ir, op))
                .collect()
        };
        match ctx.str(ir.op_name(op)) {
            ops::OPERANDS => d.operands = with_kinds(&c),
            ops::RESULTS => d.results = with_kinds(&c),
            ops::ATTRIBUTES => {
                let names = string_array_prop(ctx, ir, op, "attributeValueNames");
                d.attributes = names.into_iter().zip(c.vars_of(op)).collect();
            }
            ops::REGIONS => {
                let regions = ir.operands(op).map(|v| {
                    let (args, blocks) = c.regions.get(&v).cloned().unwrap_or_default();
                    RegionConstraint { args, blocks }
                });
                d.regions = regions.collect();
            }
            _ => {}
        }
    }
    d.constraints = c.constraints;
    Ok(d)
}

/// Registers every `irdl.dialect` nested in `top` as a dynamic dialect;
/// returns their names. Errors are reported at the offending IRDL op.
pub fn load_dialects(
    ctx: &mut Context,
    ir: &Ir,
    top: OpId,
) -> Result<Vec<String>, Box<Diagnostic>> {
    let mut dialects = Vec::new();
    ir.walk(top, &mut |op| {
        if ctx.str(ir.op_name(op)) == ops::DIALECT {
            dialects.push(op);
        }
    });
    let mut pending = Pending {
        types: FxHashSet::default(),
        attrs: FxHashSet::default(),
    };
    let mut definitions = Vec::new();
    for &d in &dialects {
        for def in body_ops(ir, d) {
            let kind = ctx.str(ir.op_name(def));
            let r = def_ref(ctx, ir, def);
            match kind {
                ops::TYPE => pending.types.insert(format!("{}.{}", r.dialect, r.name)),
                ops::ATTRIBUTE => pending.attrs.insert(format!("{}.{}", r.dialect, r.name)),
                _ => false,
            };
            definitions.push((d, def));
        }
    }
    let mut names = Vec::new();
    for &d in &dialects {
        let name = string_prop(ctx, ir, d, "sym_name").unwrap_or_default();
        if ctx.dialect(&name).is_some() {
            let msg = format!("a dialect named '{name}' is already registered");
            return Err(Box::new(Diagnostic::error(ir.op_loc(d), msg)));
        }
        let mut dynamic = DynamicDialect::default();
        for &(_, def) in definitions.iter().filter(|(owner, _)| *owner == d) {
            let def_name = string_prop(ctx, ir, def, "sym_name").unwrap_or_default();
            match ctx.str(ir.op_name(def)) {
                ops::OPERATION => {
                    let compiled = Arc::new(compile_op(ctx, ir, &pending, def)?);
                    let check =
                        move |v: &mut OpVerifier<'_, '_>, op: OpId| verify_op(v, op, &compiled);
                    dynamic.ops.insert(def_name, Arc::new(check));
                }
                kind => {
                    let compiled = compile_params(ctx, ir, &pending, def)?;
                    let check = Arc::new(move |ctx: &Context, params: &[Attr]| {
                        verify_params(ctx, &compiled.constraints, &compiled.params, params)
                    });
                    if kind == ops::TYPE {
                        dynamic.types.insert(def_name, check);
                    } else {
                        dynamic.attrs.insert(def_name, check);
                    }
                }
            }
        }
        ctx.register_dynamic_dialect(&name, dynamic)
            .map_err(|m| Box::new(Diagnostic::error(ir.op_loc(d), m)))?;
        names.push(name);
    }
    Ok(names)
}

// ----- checking ops --------------------------------------------------------------

/// The number of values in each operand (or result) definition, from the
/// op's count and, with several non-single definitions, its segment
/// sizes attribute; `what` is "operand" or "result".
fn segment_sizes(
    v: &mut OpVerifier<'_, '_>,
    op: OpId,
    what: &str,
    count: usize,
    kinds: &[Variadicity],
) -> PResult<Vec<usize>> {
    let non_single = kinds.iter().filter(|k| **k != Variadicity::Single).count();
    if non_single == 0 {
        if count != kinds.len() {
            let msg = format!(
                "op expects exactly {} {what}s, but got {count}",
                kinds.len()
            );
            return Err(v.error(op, msg));
        }
        return Ok(vec![1; kinds.len()]);
    }
    if non_single == 1 {
        let Some(size) = (count + 1).checked_sub(kinds.len()) else {
            let msg = format!(
                "op expects at least {} {what}s, but got {count}",
                kinds.len() - 1
            );
            return Err(v.error(op, msg));
        };
        let mut sizes = Vec::with_capacity(kinds.len());
        for &k in kinds {
            if k == Variadicity::Optional && size > 1 {
                let msg = format!(
                    "op expects at most {} {what}s, but got {count}",
                    kinds.len()
                );
                return Err(v.error(op, msg));
            }
            sizes.push(if k == Variadicity::Single { 1 } else { size });
        }
        return Ok(sizes);
    }
    let attr_name = format!("{what}SegmentSizes");
    let (ctx, ir) = (v.ctx(), v.ir());
    let Some(attr) = inherent_attr(ctx, ir, op, &attr_name) else {
        let msg = format!("'{attr_name}' attribute is expected but not provided");
        return Err(v.error(op, msg));
    };
    let values = match ctx.attr_kind(attr) {
        AttrKind::DenseArray { element, values } if ctx.int_width(*element) == Some(32) => {
            ctx.int_array_values(attr).unwrap_or_default()
        }
        _ => {
            let msg = format!("'{attr_name}' attribute is expected to be a dense i32 array");
            return Err(v.error(op, msg));
        }
    };
    if values.len() != kinds.len() {
        let msg = format!(
            "'{attr_name}' attribute for specifying {what} segments must have {} elements, but got {}",
            kinds.len(),
            values.len()
        );
        return Err(v.error(op, msg));
    }
    for (i, (&n, &k)) in values.iter().zip(kinds).enumerate() {
        if n < 0 {
            let msg = format!("'{attr_name}' attribute for specifying {what} segments must have non-negative values");
            return Err(v.error(op, msg));
        }
        if k == Variadicity::Single && n != 1 {
            let msg = format!("element {i} in '{attr_name}' attribute must be equal to 1");
            return Err(v.error(op, msg));
        }
        if k == Variadicity::Optional && n > 1 {
            let msg = format!("element {i} in '{attr_name}' attribute must be equal to 0 or 1");
            return Err(v.error(op, msg));
        }
    }
    if values.iter().sum::<i64>() != count as i64 {
        let msg = format!(
            "sum of elements in '{attr_name}' attribute must be equal to the number of {what}s"
        );
        return Err(v.error(op, msg));
    }
    Ok(values.iter().map(|&n| n as usize).collect())
}

/// Checks `op` against its IRDL definition: operand and result counts,
/// attributes, operand and result types, then regions, all with one set
/// of variable bindings.
fn verify_op(v: &mut OpVerifier<'_, '_>, op: OpId, def: &OpDefinition) -> PResult<()> {
    let operand_kinds: Vec<Variadicity> = def.operands.iter().map(|(_, k)| *k).collect();
    let result_kinds: Vec<Variadicity> = def.results.iter().map(|(_, k)| *k).collect();
    let ir = v.ir();
    let operand_sizes = segment_sizes(v, op, "operand", ir.num_operands(op), &operand_kinds)?;
    let result_sizes = segment_sizes(v, op, "result", ir.num_results(op), &result_kinds)?;
    let mut checker = ConstraintVerifier::new(&def.constraints);
    let ctx = v.ctx();
    for (name, var) in &def.attributes {
        let Some(value) = inherent_attr(ctx, ir, op, name) else {
            let msg = format!("attribute \"{name}\" is expected but not provided");
            return Err(v.op_error(op, msg));
        };
        if let Err(msg) = checker.verify(ctx, Val::of(ctx, value), *var) {
            return Err(v.error(op, msg));
        }
    }
    let groups = [
        (
            &def.operands,
            operand_sizes,
            ir.operands(op).collect::<Vec<_>>(),
        ),
        (&def.results, result_sizes, ir.results(op).collect()),
    ];
    for (defs, sizes, values) in groups {
        let mut values = values.into_iter();
        for ((var, _), size) in defs.iter().zip(sizes) {
            for value in values.by_ref().take(size) {
                let ty = Val::Type(ir.value_type(value));
                if let Err(msg) = checker.verify(ctx, ty, *var) {
                    return Err(v.error(op, msg));
                }
            }
        }
    }
    verify_regions(v, op, &def.regions, &mut checker)
}

fn verify_regions(
    v: &mut OpVerifier<'_, '_>,
    op: OpId,
    regions: &[RegionConstraint],
    checker: &mut ConstraintVerifier<'_>,
) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    if ir.num_regions(op) != regions.len() {
        let msg = format!(
            "unexpected number of regions: expected {} but got {}",
            regions.len(),
            ir.num_regions(op)
        );
        return Err(v.op_error(op, msg));
    }
    let op_loc = ir.op_loc(op);
    // Errors at a block argument point back at the op.
    let error = |loc: Attr, msg: String| {
        let d = Diagnostic::error(loc, msg);
        Box::new(if loc == op_loc {
            d
        } else {
            d.with_note(op_loc, "see the operation")
        })
    };
    for (i, (region, c)) in ir.regions(op).zip(regions).enumerate() {
        let blocks = ir.region_blocks(region).count();
        if let Some(n) = c.blocks.filter(|n| *n != blocks as i64) {
            let msg = format!("expected region {i} to have {n} block(s) but got {blocks}");
            return Err(error(op_loc, msg));
        }
        let Some(arg_vars) = &c.args else {
            continue;
        };
        let args = ir.entry_block(region).map_or(&[][..], |b| ir.block_args(b));
        if args.len() != arg_vars.len() {
            let loc = args
                .first()
                .and_then(|a| ir.value_loc(*a))
                .unwrap_or(op_loc);
            let msg = format!(
                "expected region {i} to have {} arguments but got {}",
                arg_vars.len(),
                args.len()
            );
            return Err(error(loc, msg));
        }
        for (&arg, &var) in args.iter().zip(arg_vars) {
            if let Err(msg) = checker.verify(ctx, Val::Type(ir.value_type(arg)), var) {
                return Err(error(ir.value_loc(arg).unwrap_or(op_loc), msg));
            }
        }
    }
    Ok(())
}
