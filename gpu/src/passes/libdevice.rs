//! `math` ops in kernels to calls of CUDA's device library, as
//! `convert-gpu-to-nvvm` lowers them: `math.sqrt` of `f32` is
//! `llvm.call @__nv_sqrtf`, of `f64` `@__nv_sqrt` (`math.absf` is
//! `fabs`, `math.powf` is `pow`), each function declared once in the
//! `gpu.module`, before the first function that calls it. Other element
//! types, and `math` ops without such a function (`math.trunc`), stay.

use silica_ir::conversion::{ConversionPattern, ConversionRewriter};
use silica_ir::{OpId, TypeKind, ValueId};

/// The `math` ops with a device library function of the same name (but
/// `absf` and `powf`).
const OPS: [&str; 30] = [
    "math.sqrt",
    "math.exp",
    "math.log",
    "math.absf",
    "math.tanh",
    "math.sin",
    "math.cos",
    "math.floor",
    "math.rsqrt",
    "math.exp2",
    "math.log2",
    "math.ceil",
    "math.log1p",
    "math.expm1",
    "math.erf",
    "math.tan",
    "math.atan",
    "math.round",
    "math.cbrt",
    "math.log10",
    "math.asin",
    "math.acos",
    "math.sinh",
    "math.cosh",
    "math.atanh",
    "math.asinh",
    "math.acosh",
    "math.powf",
    "math.atan2",
    "math.copysign",
];

/// The library function of `op` on `float` elements (`f32` or `f64`).
fn function(op: &str, float: &TypeKind) -> Option<String> {
    let base = match op.strip_prefix("math.")? {
        "absf" => "fabs",
        "powf" => "pow",
        other => other,
    };
    match float {
        TypeKind::Float(k) if k.name() == "f32" => Some(format!("__nv_{base}f")),
        TypeKind::Float(k) if k.name() == "f64" => Some(format!("__nv_{base}")),
        _ => None,
    }
}

fn lower(cr: &mut ConversionRewriter<'_, '_>, op: OpId, operands: &[ValueId]) -> bool {
    let (ctx, ir) = (&*cr.rw.ctx, &*cr.rw.ir);
    let name = ctx.str(ir.op_name(op)).to_string();
    let result = ir.value_type(ir.result(op, 0));
    let Some(callee) = function(&name, ctx.type_kind(result)) else {
        return false;
    };
    // The function being converted and the module around it.
    let mut function_op = ir.parent_op(op);
    while let Some(f) =
        function_op.filter(|&f| !matches!(ctx.str(ir.op_name(f)), "llvm.func" | "gpu.func"))
    {
        function_op = ir.parent_op(f);
    }
    let Some(function_op) = function_op else {
        return false;
    };
    let Some(table) = ir.parent_op(function_op) else {
        return false;
    };
    let params: Vec<_> = operands.iter().map(|&v| ir.value_type(v)).collect();
    silica_llvm::conversion::declare_function_before(
        &mut cr.rw,
        (table, function_op),
        &callee,
        &params,
        result,
    );
    let loc = cr.rw.ir.op_loc(op);
    let call = silica_llvm::conversion::create_call(cr, &callee, operands, &[result], loc);
    let value = cr.rw.ir.result(call, 0);
    cr.replace_op(op, &[value]);
    true
}

/// The patterns, ahead of `convert-math-to-llvm`'s.
pub fn patterns(out: &mut Vec<ConversionPattern>) {
    for root in OPS.into_iter().chain(["math.fma"]) {
        out.push(ConversionPattern {
            root,
            name: "OpToFuncCallLowering",
            benefit: 1,
            apply: lower,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use silica_ir::float::FloatKind;

    #[test]
    fn names_follow_the_device_library() {
        let f32 = TypeKind::Float(FloatKind::F32);
        let f64 = TypeKind::Float(FloatKind::F64);
        assert_eq!(function("math.sqrt", &f32).as_deref(), Some("__nv_sqrtf"));
        assert_eq!(function("math.absf", &f64).as_deref(), Some("__nv_fabs"));
        assert_eq!(function("math.powf", &f32).as_deref(), Some("__nv_powf"));
        assert_eq!(function("math.fma", &f64).as_deref(), Some("__nv_fma"));
        assert_eq!(function("math.exp", &TypeKind::Index), None);
    }
}
