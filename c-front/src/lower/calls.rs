//! Calls: of the functions the translation unit defines (`func.call`,
//! arrays passed whole as their memrefs), and of `<math.h>`'s functions
//! (the `math` and `arith` ops of the same meaning). Calls through
//! pointers, dynamic allocation and functions without a definition
//! are errors at the call.

use super::signature::Param;
use super::value::Val;
use super::{Func, R};
use crate::json::Node;
use crate::types::CType;
use crate::unit::direct_callee;

/// What a `<math.h>` function is in MLIR: one op on its operands.
fn math_op(name: &str) -> Option<(&'static str, usize)> {
    let base = name.strip_prefix("__builtin_").unwrap_or(name);
    // `sqrtf` is `sqrt` on float: the operand types tell which.
    let base = match base {
        "sqrtf" | "expf" | "logf" | "powf" | "fabsf" | "fmaxf" | "fminf" | "floorf" | "ceilf"
        | "roundf" | "truncf" | "sinf" | "cosf" | "tanf" | "atanf" | "atan2f" | "tanhf"
        | "exp2f" | "log2f" | "log10f" | "log1pf" | "expm1f" | "cbrtf" | "erff" | "fmaf"
        | "copysignf" | "fmodf" => &base[..base.len() - 1],
        b => b,
    };
    Some(match base {
        "sqrt" => ("math.sqrt", 1),
        "exp" => ("math.exp", 1),
        "log" => ("math.log", 1),
        "pow" => ("math.powf", 2),
        "fabs" => ("math.absf", 1),
        "fmax" => ("fmax", 2),
        "fmin" => ("fmin", 2),
        "floor" => ("math.floor", 1),
        "ceil" => ("math.ceil", 1),
        "round" => ("math.round", 1),
        "trunc" => ("math.trunc", 1),
        "sin" => ("math.sin", 1),
        "cos" => ("math.cos", 1),
        "tan" => ("math.tan", 1),
        "atan" => ("math.atan", 1),
        "atan2" => ("math.atan2", 2),
        "tanh" => ("math.tanh", 1),
        "exp2" => ("math.exp2", 1),
        "log2" => ("math.log2", 1),
        "log10" => ("math.log10", 1),
        "log1p" => ("math.log1p", 1),
        "expm1" => ("math.expm1", 1),
        "cbrt" => ("math.cbrt", 1),
        "erf" => ("math.erf", 1),
        "fma" => ("math.fma", 3),
        "copysign" => ("math.copysign", 2),
        "fmod" => ("arith.remf", 2),
        "abs" | "labs" | "llabs" => ("math.absi", 1),
        _ => return None,
    })
}

/// The functions that allocate memory.
pub const ALLOCATION: [&str; 6] = [
    "malloc",
    "calloc",
    "realloc",
    "free",
    "alloca",
    "aligned_alloc",
];

impl Func<'_> {
    /// A call expression.
    pub fn call(&mut self, n: &Node, t: &CType) -> R<Val> {
        let Some(name) = direct_callee(n)
            .map(str::to_string)
            .or_else(|| builtin_callee(n))
        else {
            return Err(self.error_at(
                n,
                "calls through function pointers are not supported in a kernel",
            ));
        };
        let args = &n.inner[1..];
        if self.sigs.contains_key(&name) {
            return self.user_call(n, &name, args, t);
        }
        if ALLOCATION.contains(&name.trim_start_matches("__builtin_")) {
            return Err(self.error_at(n, format!("dynamic allocation ('{name}') is not supported in a kernel: use arrays of static size")));
        }
        if let Some((op, arity)) = math_op(&name) {
            if args.len() == arity && self.unit.definition(&name).is_none() {
                return self.math_call(op, args, t);
            }
        }
        Err(self.error_at(
            n,
            format!(
                "'{name}' has no definition in the translation unit: a kernel calls only the functions defined there and those of <math.h>"
            ),
        ))
    }

    fn math_call(&mut self, op: &str, args: &[Node], t: &CType) -> R<Val> {
        let mut vals = Vec::new();
        for a in args {
            let v = self.rvalue(a)?;
            vals.push(v);
        }
        let m = t.mlir().unwrap_or_default();
        let names: Vec<&str> = vals.iter().map(|v| v.v.as_str()).collect();
        match op {
            // C's fmax/fmin: the other operand where one is a NaN.
            "fmax" | "fmin" => {
                let (x, y) = (&vals[0], &vals[1]);
                let p = if op == "fmax" { "ogt" } else { "olt" };
                let better = self.op(&format!("arith.cmpf {p}, {}, {} : {m}", x.v, y.v));
                let nan = self.op(&format!("arith.cmpf uno, {}, {} : {m}", y.v, y.v));
                let take_x = self.op(&format!("arith.ori {better}, {nan} : i1"));
                Ok(self.value(
                    &format!("arith.select {take_x}, {}, {} : {m}", x.v, y.v),
                    t,
                    None,
                ))
            }
            "math.absi" => Ok(self.value(&format!("math.absi {} : {m}", names[0]), t, None)),
            _ => {
                if !matches!(t, CType::Float(_)) {
                    return Err(self.error(format!("'{op}' on a value that is not floating")));
                }
                Ok(self.value(&format!("{op} {} : {m}", names.join(", ")), t, None))
            }
        }
    }

    fn user_call(&mut self, n: &Node, name: &str, args: &[Node], t: &CType) -> R<Val> {
        self.not_speculative()?;
        let sig = self.sigs[name].clone();
        if args.len() != sig.params.len() {
            return Err(self.error_at(n, format!("'{name}' takes {} arguments", sig.params.len())));
        }
        let mut operands = Vec::new();
        let mut types = Vec::new();
        for (a, p) in args.iter().zip(&sig.params) {
            match p {
                Param::Scalar(pt) => {
                    let v = self.rvalue(a)?;
                    let v = self.convert(&v, pt)?;
                    operands.push(v.v);
                    types.push(pt.mlir().unwrap_or_default());
                }
                Param::Memory(m) => {
                    let ptr = self.pointer(a)?;
                    let whole = ptr.fixed.is_empty()
                        && ptr.offset.aff.as_ref().and_then(|x| x.as_constant()) == Some(0);
                    if !whole || ptr.mem.shape != m.shape || ptr.mem.elem != m.elem {
                        return Err(self.error_at(
                            a,
                            format!(
                                "'{name}' takes an array of type {}: pass a whole array of that shape (part of an array, or another shape, is not supported)",
                                m.ty
                            ),
                        ));
                    }
                    operands.push(ptr.mem.v.clone());
                    types.push(m.ty.clone());
                }
            }
        }
        self.at = n.loc.clone();
        let signature = format!("({})", types.join(", "));
        self.stored();
        match &sig.result {
            Some(rt) => {
                let m = rt.mlir().unwrap_or_default();
                let v = self.value(
                    &format!(
                        "func.call @{name}({}) : {signature} -> {m}",
                        operands.join(", ")
                    ),
                    rt,
                    None,
                );
                self.convert(&v, t)
            }
            None => {
                self.effect(&format!(
                    "func.call @{name}({}) : {signature} -> ()",
                    operands.join(", ")
                ));
                Ok(Val {
                    v: String::new(),
                    ty: CType::Void,
                    aff: None,
                    konst: None,
                })
            }
        }
    }
}

/// The name of a builtin a call calls (`__builtin_fabs`).
fn builtin_callee(call: &Node) -> Option<String> {
    let mut c = call.inner.first()?;
    while matches!(c.kind.as_str(), "ImplicitCastExpr" | "ParenExpr") {
        c = c.inner.first()?;
    }
    let d = c.attr("referencedDecl")?;
    let name = d.get("name")?.as_str()?;
    name.starts_with("__builtin_").then(|| name.to_string())
}
