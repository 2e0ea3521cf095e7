//! Callees bound to hand-written Verilog (`--ip FILE.sv`): a `func.func`
//! declaration with `hls.ip = "module"` is instantiated as that module,
//! which keeps the brief's contract for a called function (ports
//! `clock`, `reset`, `start`, `done`, `idle`, each scalar argument by its
//! `hls.name` else `arg<i>`, each result `result<i>`, at the scalars'
//! widths). `hls.latency = N` is its latency (cycles from the edge that
//! samples `start` to the cycle of `done`), and `hls.ip_model = @f` names
//! a function with a body and the same type that the co-simulation's
//! software side calls instead. Arguments are scalars only.

use super::signature::string_of;
use crate::model::interface::{names, scalar_width, Direction, Port};
pub use crate::model::ip::Ip;
use silica_ir::dialect::inherent_attr;
use silica_ir::{AttrKind, Context, Diagnostic, Ir, OpId, TypeKind};

/// The `hls.ip` module name of `func`, if it has one.
pub fn ip_module(ctx: &Context, ir: &Ir, func: OpId) -> Option<String> {
    string_of(ctx, inherent_attr(ctx, ir, func, "hls.ip"))
}

/// The function type of `func`: inputs and results.
fn signature(
    ctx: &Context,
    ir: &Ir,
    func: OpId,
) -> Option<(Vec<silica_ir::Type>, Vec<silica_ir::Type>)> {
    let AttrKind::Type(t) = ctx.attr_kind(inherent_attr(ctx, ir, func, "function_type")?) else {
        return None;
    };
    match ctx.type_kind(*t) {
        TypeKind::Function { inputs, results } => Some((inputs.to_vec(), results.to_vec())),
        _ => None,
    }
}

/// Reads the `hls.ip` declaration `func`, or an error at it.
pub fn declaration(ctx: &Context, ir: &Ir, func: OpId) -> Result<Ip, Box<Diagnostic>> {
    let loc = ir.op_loc(func);
    let err = |m: String| Box::new(Diagnostic::error(loc, m));
    let function = super::function_name(ctx, ir, func);
    let module = ip_module(ctx, ir, func)
        .filter(|m| !m.is_empty())
        .ok_or_else(|| err("'hls.ip' must be a module name string".into()))?;
    if ir
        .regions(func)
        .next()
        .and_then(|r| ir.entry_block(r))
        .is_some()
    {
        return Err(err(format!(
            "'@{function}' has 'hls.ip' and a body: an IP function is a declaration (its software model is 'hls.ip_model')"
        )));
    }
    let latency = match inherent_attr(ctx, ir, func, "hls.latency").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Integer { value, .. }) => u64::try_from(value.clone())
            .ok()
            .filter(|&l| l >= 1)
            .ok_or_else(|| err(format!("'hls.latency' of '@{function}' must be at least 1")))?,
        _ => {
            return Err(err(format!(
                "IP function '@{function}' needs its latency as 'hls.latency = N'"
            )))
        }
    };
    let (inputs, outputs) =
        signature(ctx, ir, func).ok_or_else(|| err(format!("'@{function}' has no type")))?;
    let model = inherent_attr(ctx, ir, func, "hls.ip_model")
        .and_then(|sym| silica_ir::symbols::lookup_from(ctx, ir, func, sym))
        .filter(|&f| ctx.str(ir.op_name(f)) == "func.func");
    let Some(model) = model else {
        return Err(err(format!(
            "IP function '@{function}' needs 'hls.ip_model = @f', a function with a body and the same type, for the software side"
        )));
    };
    let model_name = super::function_name(ctx, ir, model);
    if ir
        .regions(model)
        .next()
        .and_then(|r| ir.entry_block(r))
        .is_none()
        || signature(ctx, ir, model) != Some((inputs.clone(), outputs.clone()))
    {
        return Err(err(format!(
            "the model '@{model_name}' of '@{function}' must have a body and the same type"
        )));
    }
    let port = |name: String, direction, width| Port {
        name,
        direction,
        width,
    };
    let mut ports = vec![
        port(names::CLOCK.into(), Direction::In, 1),
        port(names::RESET.into(), Direction::In, 1),
        port(names::START.into(), Direction::In, 1),
        port(names::DONE.into(), Direction::Out, 1),
        port(names::IDLE.into(), Direction::Out, 1),
    ];
    for (i, &t) in inputs.iter().enumerate() {
        let width = scalar_width(ctx, t).ok_or_else(|| {
            err(format!(
                "argument {i} of IP function '@{function}' is not a scalar (IP functions take integers, index and floats)"
            ))
        })?;
        let name = super::arg_name(ctx, ir, func, i).unwrap_or_else(|| names::arg(i));
        ports.push(port(name, Direction::In, width));
    }
    for (i, &t) in outputs.iter().enumerate() {
        let width = scalar_width(ctx, t).ok_or_else(|| {
            err(format!(
                "result {i} of IP function '@{function}' is not a scalar"
            ))
        })?;
        ports.push(port(names::result(i), Direction::Out, width));
    }
    Ok(Ip {
        function,
        module,
        latency,
        ports,
    })
}

/// The model each IP function of `module` names (`hls.ip_model`), by
/// function name: what the software side calls instead.
pub fn models(ctx: &Context, ir: &Ir, module: OpId) -> Vec<(String, String)> {
    let mut out = Vec::new();
    ir.walk(module, &mut |op| {
        if ctx.str(ir.op_name(op)) != "func.func" || ip_module(ctx, ir, op).is_none() {
            return;
        }
        let model = inherent_attr(ctx, ir, op, "hls.ip_model")
            .and_then(|sym| silica_ir::symbols::lookup_from(ctx, ir, op, sym));
        if let Some(m) = model {
            out.push((
                super::function_name(ctx, ir, op),
                super::function_name(ctx, ir, m),
            ));
        }
    });
    out
}
