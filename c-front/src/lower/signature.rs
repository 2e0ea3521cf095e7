//! A function's signature as a kernel: each parameter a scalar or a
//! memref of static shape, the result a scalar or nothing. An array
//! parameter's first dimension, which C drops (`double A[20][30]` is a
//! `double (*)[30]`), comes from clang's printed declaration, else from
//! the arrays the translation unit passes to the function.

use super::Mem;
use crate::json::Node;
use crate::types::CType;
use crate::unit::{direct_callee, params, Unit};
use crate::Error;

/// What a parameter is.
#[derive(Clone, Debug)]
pub enum Param {
    Scalar(CType),
    Memory(Mem),
}

/// A kernel function's signature.
#[derive(Clone, Debug)]
pub struct FnSig {
    pub params: Vec<Param>,
    pub nodes: Vec<Node>,
    pub result: Option<CType>,
}

/// The return type spelled in a function type (`int (int, double *)`).
fn return_spelling(function_type: &str) -> &str {
    let t = function_type.trim_end();
    if !t.ends_with(')') {
        return t;
    }
    let mut depth = 0;
    for (i, c) in t.char_indices().rev() {
        match c {
            ')' => depth += 1,
            '(' => {
                depth -= 1;
                if depth == 0 {
                    return t[..i].trim_end();
                }
            }
            _ => {}
        }
    }
    t
}

/// The memref type of `shape` and `elem`.
pub fn memref_type(shape: &[u64], elem: &CType) -> String {
    let mut s = String::from("memref<");
    for d in shape {
        s.push_str(&format!("{d}x"));
    }
    s.push_str(&elem.mlir().unwrap_or_default());
    s.push('>');
    s
}

/// The static shape and element of an array type (its sizes all known).
pub fn static_array(t: &CType) -> Option<(Vec<u64>, CType)> {
    let (elem, dims) = t.array_shape();
    let dims: Option<Vec<u64>> = dims.into_iter().collect();
    let dims = dims?;
    (elem.is_scalar() && !dims.is_empty() && dims.iter().all(|&d| d > 0))
        .then(|| (dims, elem.clone()))
}

/// The first dimensions of the arrays that calls of `name` in the unit
/// pass as parameter `index`.
fn passed_sizes(unit: &Unit, name: &str, index: usize) -> Vec<u64> {
    let mut out = Vec::new();
    walk_calls(&unit.root, name, index, unit, &mut out);
    out.sort_unstable();
    out.dedup();
    out
}

fn walk_calls(n: &Node, name: &str, index: usize, unit: &Unit, out: &mut Vec<u64>) {
    if n.kind == "CallExpr" && direct_callee(n) == Some(name) {
        if let Some(mut arg) = n.inner.get(index + 1) {
            while arg.kind == "ParenExpr" {
                arg = &arg.inner[0];
            }
            if arg.kind == "ImplicitCastExpr" && arg.str("castKind") == Some("ArrayToPointerDecay")
            {
                if let Some(t) = arg.inner.first().and_then(Node::type_spelling) {
                    if let CType::Array(_, Some(d)) = unit.ctype(t) {
                        out.push(d);
                    }
                }
            }
        }
    }
    for c in &n.inner {
        walk_calls(c, name, index, unit, out);
    }
}

/// The signature of the definition `def`; `printed` is clang's printed
/// declaration of it.
pub fn signature(unit: &Unit, def: &Node, printed: Option<&str>) -> Result<FnSig, Error> {
    let fname = def.name();
    if def.flag("variadic") {
        return Err(Error::new(
            def.loc.clone(),
            format!("'{fname}' takes a variable number of arguments, which a kernel cannot"),
        ));
    }
    let mut sig = FnSig {
        params: Vec::new(),
        nodes: Vec::new(),
        result: None,
    };
    for (i, p) in params(def).enumerate() {
        let spelled = p.type_spelling().unwrap_or_default();
        let t = unit.ctype(spelled);
        let pname = p.name();
        let bad = |why: String| Error::new(p.loc.clone(), why);
        let param = match &t {
            t if t.is_scalar() => Param::Scalar(t.clone()),
            CType::Pointer(f) if **f == CType::Function => {
                return Err(bad(format!(
                    "parameter '{pname}' is a function pointer: function pointers are not supported in a kernel"
                )))
            }
            CType::Pointer(pointee) => {
                let (rest, elem) = match &**pointee {
                    e if e.is_scalar() => (Vec::new(), (**pointee).clone()),
                    a @ CType::Array(..) => match static_array(a) {
                        Some(x) => x,
                        None => {
                            return Err(bad(format!(
                                "parameter '{pname}' is an array of type '{spelled}': a kernel's arrays need static sizes and integer or floating elements"
                            )))
                        }
                    },
                    _ => {
                        return Err(bad(format!(
                            "parameter '{pname}' has type '{spelled}': a kernel takes integers, floats and arrays of them"
                        )))
                    }
                };
                let first = printed
                    .and_then(|s| crate::clang::first_dimension(s, pname))
                    .or_else(|| match passed_sizes(unit, fname, i).as_slice() {
                        [one] => Some(*one),
                        _ => None,
                    });
                let Some(first) = first.filter(|&d| d > 0) else {
                    return Err(bad(format!(
                        "the size of array parameter '{pname}' is unknown: declare it with its size (as '{} {pname}[N]{}') or pass it arrays of one size",
                        elem.c_spelling(),
                        rest.iter().map(|d| format!("[{d}]")).collect::<String>()
                    )));
                };
                let mut shape = vec![first];
                shape.extend(rest);
                Param::Memory(Mem {
                    v: String::new(),
                    ty: memref_type(&shape, &elem),
                    shape,
                    elem,
                })
            }
            _ => {
                return Err(bad(format!(
                    "parameter '{pname}' has type '{spelled}': a kernel takes integers, floats and arrays of them"
                )))
            }
        };
        sig.params.push(param);
        sig.nodes.push(p.clone());
    }
    let ftype = def.type_spelling().unwrap_or_default();
    let ret = unit.ctype(return_spelling(ftype));
    sig.result = match ret {
        CType::Void => None,
        t if t.is_scalar() => Some(t),
        _ => {
            return Err(Error::new(
                def.loc.clone(),
                format!(
                    "'{fname}' returns '{}': a kernel returns an integer, a float or nothing",
                    return_spelling(ftype)
                ),
            ))
        }
    };
    Ok(sig)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn return_types_of_function_types() {
        assert_eq!(return_spelling("void (int, double (*)[20])"), "void");
        assert_eq!(return_spelling("unsigned int (void)"), "unsigned int");
        assert_eq!(return_spelling("int *(int)"), "int *");
        assert_eq!(
            memref_type(&[20, 30], &CType::Float(64)),
            "memref<20x30xf64>"
        );
    }
}
