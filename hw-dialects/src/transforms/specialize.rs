//! `--hw-specialize`: one copy of a parametric module per set of
//! parameter values it is instantiated with (`@m<N: i32 = 4>` becomes
//! `@m_N_4`), with the values substituted into its types, its
//! `hw.param.value`s (which become `hw.constant`s) and the parameters of
//! the instances it holds. Instances are retargeted to the copies; a
//! parametric module left without instances is erased.
//!
//! The simulator elaborates a design the same way before running it.

use crate::hw::{self, elaborate_type, instance_bindings, instance_target, parameters, params};
use silica_ir::dialect::{inherent_attr, set_inherent_attr};
use silica_ir::graph::OpSpec;
use silica_ir::pass::{Pass, PassInfo, PassOptions};
use silica_ir::{Attr, AttrKind, Context, Diagnostic, Ir, OpId};

type Res<T> = Result<T, Box<Diagnostic>>;
type Bindings = Vec<(String, Attr)>;

fn err(ir: &Ir, op: OpId, msg: impl Into<String>) -> Box<Diagnostic> {
    Box::new(Diagnostic::error(ir.op_loc(op), msg))
}

/// The `hw.module`s and `hw.module.extern`s directly in `top`.
fn modules(ctx: &Context, ir: &Ir, top: OpId) -> Vec<OpId> {
    let Some(block) = ir.regions(top).next().and_then(|r| ir.entry_block(r)) else {
        return Vec::new();
    };
    ir.block_ops(block)
        .filter(|&o| matches!(ctx.str(ir.op_name(o)), "hw.module" | "hw.module.extern"))
        .collect()
}

/// How a parameter value reads in a specialised module's name.
fn value_text(ctx: &Context, a: Attr) -> String {
    let text = match ctx.attr_kind(a) {
        AttrKind::Integer { value, .. } => value.to_string(),
        AttrKind::String { value, .. } => String::from_utf8_lossy(value).into_owned(),
        _ => silica_ir::printer::attr_to_string(ctx, a),
    };
    text.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

/// Specialises every instance of a parametric `hw.module` under `top`.
pub fn specialize(ctx: &mut Context, ir: &mut Ir, top: OpId) -> Res<()> {
    // (generic module, values, specialised name, the copy).
    let mut made: Vec<(String, Bindings, String, OpId)> = Vec::new();
    let mut specialised = Vec::new();
    loop {
        let mut work = None;
        ir.walk(top, &mut |o| {
            if work.is_none()
                && ctx.str(ir.op_name(o)) == "hw.instance"
                && !parameters(ctx, ir, o).is_empty()
                && ir
                    .parent_op(o)
                    .is_some_and(|m| parameters(ctx, ir, m).is_empty())
            {
                work = Some(o);
            }
        });
        let Some(inst) = work else { break };
        let target = instance_target(ctx, ir, inst).unwrap_or_default();
        let Some(module) = hw::find_module(ctx, ir, inst, &target) else {
            return Err(err(ir, inst, format!("cannot find module '{target}'")));
        };
        if ctx.str(ir.op_name(module)) != "hw.module" {
            // External modules keep their parameters; only the instance
            // can say what they are.
            return Err(err(
                ir,
                inst,
                format!("cannot specialize an instance of the external module '{target}'"),
            ));
        }
        let bindings = instance_bindings(ctx, ir, inst);
        let existing = made
            .iter()
            .find(|(t, b, _, _)| *t == target && *b == bindings)
            .map(|m| m.2.clone());
        let name = match existing {
            Some(n) => n,
            None => {
                let n = unique_name(ctx, ir, top, &target, &bindings);
                let copy = specialize_module(ctx, ir, module, module, &bindings, &n)?;
                // Copies open the module, in the order they are made, as
                // CIRCT's pass places them.
                ir.detach_op(copy);
                match made.last() {
                    Some(m) => ir.insert_op_after(m.3, copy),
                    None => {
                        let first = ir
                            .regions(top)
                            .next()
                            .and_then(|r| ir.entry_block(r))
                            .and_then(|b| ir.block_ops(b).next());
                        match first {
                            Some(f) => ir.insert_op_before(f, copy),
                            None => ir.insert_op_after(module, copy),
                        }
                    }
                }
                made.push((target.clone(), bindings, n.clone(), copy));
                specialised.push(module);
                n
            }
        };
        let sym = ctx.sym(&name);
        let r = ctx.intern_attr(AttrKind::SymbolRef {
            root: sym,
            nested: Box::new([]),
        });
        set_inherent_attr(ctx, ir, inst, "moduleName", r);
        let empty = ctx.array_attr(&[]);
        set_inherent_attr(ctx, ir, inst, "parameters", empty);
    }
    // Generic modules no instance refers to any more (erasing one may
    // leave the modules only it instantiated unused, so each is checked
    // after the ones before it are gone).
    for m in specialised {
        if ir.is_erased(m) {
            continue;
        }
        let name = hw::symbol_name(ctx, ir, m);
        let mut used = false;
        ir.walk(top, &mut |o| {
            used |= ctx.str(ir.op_name(o)) == "hw.instance"
                && instance_target(ctx, ir, o).as_deref() == Some(name.as_str());
        });
        if !used {
            ir.erase_op(m);
        }
    }
    Ok(())
}

/// Readies `module` under `top` for simulation: a parametric module is
/// specialised with its parameters' default values, then every
/// parametric instance in the design. Returns the module to run.
pub fn elaborate(ctx: &mut Context, ir: &mut Ir, top: OpId, module: OpId) -> Res<OpId> {
    let decls = parameters(ctx, ir, module);
    let mut module = module;
    if !decls.is_empty() {
        let mut bindings = Vec::with_capacity(decls.len());
        for d in decls {
            let Some(v) = d.value else {
                return Err(err(
                    ir,
                    module,
                    format!(
                        "parameter \"{}\" of the simulated module has no default value",
                        d.name
                    ),
                ));
            };
            bindings.push((d.name, v));
        }
        let target = hw::symbol_name(ctx, ir, module);
        let name = unique_name(ctx, ir, top, &target, &bindings);
        module = specialize_module(ctx, ir, module, module, &bindings, &name)?;
    }
    specialize(ctx, ir, top)?;
    Ok(module)
}

fn unique_name(ctx: &Context, ir: &Ir, top: OpId, target: &str, bindings: &Bindings) -> String {
    let mut base = target.to_string();
    for (n, v) in bindings {
        base.push('_');
        base.push_str(n);
        base.push('_');
        base.push_str(&value_text(ctx, *v));
    }
    let taken: Vec<String> = modules(ctx, ir, top)
        .into_iter()
        .map(|m| hw::symbol_name(ctx, ir, m))
        .collect();
    let mut name = base.clone();
    let mut i = 0;
    while taken.contains(&name) {
        name = format!("{base}_{i}");
        i += 1;
    }
    name
}

/// Adds after `after` the copy of `module` named `name` with `bindings`
/// substituted.
fn specialize_module(
    ctx: &mut Context,
    ir: &mut Ir,
    module: OpId,
    after: OpId,
    bindings: &Bindings,
    name: &str,
) -> Res<OpId> {
    let copy = ir.clone_op(module);
    ir.insert_op_after(after, copy);
    let unbound = |ir: &Ir, op: OpId, p: String| {
        err(
            ir,
            op,
            format!("parameter \"{p}\" has no value to specialize with"),
        )
    };
    // The module's signature.
    let ports = hw::module_ports(ctx, ir, copy);
    let mut elaborated = Vec::with_capacity(ports.len());
    for port in ports {
        let ty = elaborate_type(ctx, port.ty, bindings).map_err(|p| unbound(ir, copy, p))?;
        elaborated.push(crate::types::Port { ty, ..port });
    }
    let mty = crate::types::module_type(ctx, &elaborated);
    let mty = ctx.intern_attr(AttrKind::Type(mty));
    set_inherent_attr(ctx, ir, copy, "module_type", mty);
    let empty = ctx.array_attr(&[]);
    set_inherent_attr(ctx, ir, copy, "parameters", empty);
    let n = ctx.string_attr(name.as_bytes());
    set_inherent_attr(ctx, ir, copy, "sym_name", n);
    // Its body: value types, parameter values, nested instances.
    let mut ops = Vec::new();
    ir.walk(copy, &mut |o| ops.push(o));
    for r in ir.regions(copy).collect::<Vec<_>>() {
        for b in ir.region_blocks(r).collect::<Vec<_>>() {
            for a in ir.block_args(b).to_vec() {
                let t = elaborate_type(ctx, ir.value_type(a), bindings)
                    .map_err(|p| unbound(ir, copy, p))?;
                ir.set_value_type(a, t);
            }
        }
    }
    for op in ops.into_iter().filter(|&o| o != copy) {
        for v in ir.results(op).collect::<Vec<_>>() {
            let t =
                elaborate_type(ctx, ir.value_type(v), bindings).map_err(|p| unbound(ir, op, p))?;
            ir.set_value_type(v, t);
        }
        match ctx.str(ir.op_name(op)) {
            "hw.param.value" => constant_for(ctx, ir, op, bindings)?,
            "hw.array_get" | "hw.array_inject" => fit_index(ctx, ir, op),
            "hw.instance" => {
                let Some(given) = inherent_attr(ctx, ir, op, "parameters") else {
                    continue;
                };
                let items = match ctx.attr_kind(given) {
                    AttrKind::Array(items) => items.to_vec(),
                    _ => continue,
                };
                let mut new = Vec::with_capacity(items.len());
                for a in items {
                    let Some(d) = params::decl_of(ctx, a) else {
                        continue;
                    };
                    let value = match d.value {
                        Some(v) => Some(
                            params::substitute(ctx, v, bindings).map_err(|p| unbound(ir, op, p))?,
                        ),
                        None => None,
                    };
                    let ty = elaborate_type(ctx, d.ty, bindings).map_err(|p| unbound(ir, op, p))?;
                    new.push(params::decl(ctx, &d.name, ty, value));
                }
                let new = ctx.array_attr(&new);
                set_inherent_attr(ctx, ir, op, "parameters", new);
            }
            _ => {}
        }
    }
    Ok(copy)
}

/// Narrows (`comb.extract`) or widens (`comb.concat` with zeros) the
/// index of an array access to `clog2` of the now known length.
fn fit_index(ctx: &mut Context, ir: &mut Ir, op: OpId) {
    let array = ir.operand(op, 0);
    let index = ir.operand(op, 1);
    let Some((n, _)) = crate::hw::aggregates::array_of(ctx, ir.value_type(array)) else {
        return;
    };
    let want = crate::hw::aggregates::index_width(n);
    let Some(have) = ctx.int_width(ir.value_type(index)) else {
        return;
    };
    if have == want {
        return;
    }
    let loc = ir.op_loc(op);
    let ty = ctx.signless(want);
    let new = if have > want {
        let i32_ty = ctx.signless(32);
        let low = ctx.int_attr(i32_ty, 0);
        let name = ctx.sym("lowBit");
        let props = ctx.dict_attr(vec![(name, low)]);
        let op_name = ctx.sym("comb.extract");
        let attrs = ctx.empty_dict();
        ir.create_op(OpSpec {
            name: op_name,
            loc,
            operands: &[index],
            result_types: &[ty],
            successors: &[],
            regions: &[],
            attrs,
            props: Some(props),
        })
    } else {
        let zty = ctx.signless(want - have);
        let zero = ctx.int_attr(zty, 0);
        let z = hw::create_constant(ctx, ir, loc, zero, zty);
        ir.insert_op_before(op, z);
        let zv = ir.result(z, 0);
        let op_name = ctx.sym("comb.concat");
        let empty = ctx.empty_dict();
        ir.create_op(OpSpec {
            name: op_name,
            loc,
            operands: &[zv, index],
            result_types: &[ty],
            successors: &[],
            regions: &[],
            attrs: empty,
            props: None,
        })
    };
    ir.insert_op_before(op, new);
    let v = ir.result(new, 0);
    ir.set_operand(op, 1, v);
}

/// Replaces `hw.param.value` by the `hw.constant` of its value.
fn constant_for(ctx: &mut Context, ir: &mut Ir, op: OpId, bindings: &Bindings) -> Res<()> {
    let Some(value) = inherent_attr(ctx, ir, op, "value") else {
        return Ok(());
    };
    let value = params::substitute(ctx, value, bindings).map_err(|p| {
        err(
            ir,
            op,
            format!("parameter \"{p}\" has no value to specialize with"),
        )
    })?;
    let result = ir.result(op, 0);
    let ty = ir.value_type(result);
    let AttrKind::Integer { value: v, .. } = ctx.attr_kind(value) else {
        return Err(err(
            ir,
            op,
            "parameter value is not a constant once specialized",
        ));
    };
    let v = v.clone();
    let c = params::int(ctx, ty, &v);
    let loc = ir.op_loc(op);
    let constant = hw::create_constant(ctx, ir, loc, c, ty);
    ir.insert_op_before(op, constant);
    let new = ir.result(constant, 0);
    ir.replace_all_uses(result, new);
    ir.erase_op(op);
    Ok(())
}

struct Specialize;

impl Pass for Specialize {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        specialize(ctx, ir, op)
    }
}

fn create(_: &PassOptions) -> Result<Box<dyn Pass>, String> {
    Ok(Box::new(Specialize))
}

/// The `hw-specialize` pass.
pub static HW_SPECIALIZE: PassInfo = PassInfo {
    argument: "hw-specialize",
    name: "HWSpecialize",
    description: "Specializes instances of parametric hw.modules",
    anchor: Some("builtin.module"),
    options: &[],
    create,
};
