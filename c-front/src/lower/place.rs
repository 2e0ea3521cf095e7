//! Where C reads and writes: variables (SSA values in the function's
//! environment) and array elements (memref loads and stores, affine
//! where every subscript has an affine form). Pointers are bounded:
//! a pointer is an array (a parameter, a local or a constant global
//! array) with some of its leading subscripts fixed and an offset in the
//! next dimension, so `A[i][j]`, `*(A[i] + j)`, `*p` of a parameter `p`
//! and `&A[i][0]` all reach the memref; any other pointer is an error.

use super::affine::Aff;
use super::signature::{memref_type, static_array};
use super::value::{float_literal, Idx, Konst, Val};
use super::{Binding, Func, Mem, R};
use crate::json::Node;
use crate::types::CType;

/// An lvalue.
#[derive(Clone)]
pub enum Place {
    Var(usize),
    /// An element: every subscript given.
    Elem(Mem, Vec<Idx>),
    /// A sub-array: its leading subscripts.
    Part(Mem, Vec<Idx>),
    /// A constant that cannot be assigned.
    Const(Val),
}

/// A pointer into an array: fixed leading subscripts and an offset in
/// the next dimension.
pub struct Ptr {
    pub mem: Mem,
    pub fixed: Vec<Idx>,
    pub offset: Idx,
}

impl Func<'_> {
    /// The lvalue `n` designates.
    pub fn place(&mut self, n: &Node) -> R<Place> {
        match n.kind.as_str() {
            "ParenExpr" => self.place(&n.inner[0]),
            "DeclRefExpr" => self.decl_place(n),
            "ArraySubscriptExpr" => {
                let (base, index) = self.subscript_operands(n)?;
                let ptr = self.pointer(base)?;
                let k = self.rvalue(index)?;
                let k = self.index_of(&k)?;
                let last = self.index_add(&ptr.offset, &k);
                let mut idx = ptr.fixed;
                idx.push(last);
                Ok(self.part_or_elem(ptr.mem, idx))
            }
            "UnaryOperator" if n.str("opcode") == Some("*") => {
                let ptr = self.pointer(&n.inner[0])?;
                let mut idx = ptr.fixed;
                idx.push(ptr.offset);
                Ok(self.part_or_elem(ptr.mem, idx))
            }
            "MemberExpr" => Err(self.error_at(n, "structures are not supported in a kernel")),
            "CompoundLiteralExpr" => Err(self.error_at(n, "compound literals are not supported in a kernel")),
            _ => Err(self.error_at(n, "this expression does not designate a variable or an array element silica can reach")),
        }
    }

    /// The operands of `a[i]` (or `i[a]`): the pointer, the subscript.
    fn subscript_operands<'n>(&self, n: &'n Node) -> R<(&'n Node, &'n Node)> {
        let (a, b) = (&n.inner[0], &n.inner[1]);
        let is_ptr = |x: &Node| {
            x.type_spelling()
                .is_some_and(|t| matches!(self.unit.ctype(t), CType::Pointer(_) | CType::Array(..)))
        };
        if is_ptr(a) {
            Ok((a, b))
        } else if is_ptr(b) {
            Ok((b, a))
        } else {
            Err(self.error_at(n, "a subscript of something that is not an array"))
        }
    }

    fn part_or_elem(&self, mem: Mem, idx: Vec<Idx>) -> Place {
        if idx.len() == mem.shape.len() {
            Place::Elem(mem, idx)
        } else {
            Place::Part(mem, idx)
        }
    }

    /// `a + b` on subscripts.
    pub fn index_add(&mut self, a: &Idx, b: &Idx) -> Idx {
        if a.aff.as_ref().and_then(Aff::as_constant) == Some(0) {
            return b.clone();
        }
        if b.aff.as_ref().and_then(Aff::as_constant) == Some(0) {
            return a.clone();
        }
        let v = self.op(&format!("arith.addi {}, {} : index", a.v, b.v));
        let aff = match (&a.aff, &b.aff) {
            (Some(x), Some(y)) => x.add(y),
            _ => None,
        };
        Idx { v, aff }
    }

    /// The place a declaration names.
    fn decl_place(&mut self, n: &Node) -> R<Place> {
        let Some(r) = n.attr("referencedDecl") else {
            return Err(self.error_at(n, "a reference without a declaration"));
        };
        let id = r.get("id").and_then(|v| v.as_str()).unwrap_or_default();
        let name = r.get("name").and_then(|v| v.as_str()).unwrap_or_default();
        if let Some(v) = self.unit.enum_values.get(id).copied() {
            let t = n
                .type_spelling()
                .map(|t| self.unit.ctype(t))
                .unwrap_or(CType::Int {
                    bits: 32,
                    signed: true,
                });
            let c = self.int_const(&t, v);
            return Ok(Place::Const(c));
        }
        if let Some(b) = self.bindings.get(id).cloned() {
            return Ok(match b {
                Binding::Var(i) => Place::Var(i),
                Binding::Mem(m) => Place::Part(m, Vec::new()),
                Binding::Const(v) => Place::Const(v),
            });
        }
        if self.unit.global(id).is_some() {
            let b = self.global(n, id)?;
            self.bindings.insert(id.to_string(), b.clone());
            return Ok(match b {
                Binding::Mem(m) => Place::Part(m, Vec::new()),
                Binding::Const(v) => Place::Const(v),
                Binding::Var(i) => Place::Var(i),
            });
        }
        Err(self.error_at(n, format!("'{name}' is not a variable of the kernel")))
    }

    /// A global variable the kernel reads: a constant scalar (its value)
    /// or a constant array (a `memref.global`, a ROM in hardware).
    fn global(&mut self, at: &Node, id: &str) -> R<Binding> {
        let g = self.unit.global(id).expect("a global");
        let name = g.name().to_string();
        let spelled = g.type_spelling().unwrap_or_default().to_string();
        let t = self.unit.ctype(&spelled);
        let constant = spelled.trim_start().starts_with("const ") || spelled.contains(" const ");
        let init = g.inner.first().filter(|_| g.str("init").is_some());
        let (Some(init), true) = (init, constant) else {
            return Err(self.error_at(
                at,
                format!(
                    "global variable '{name}' is not a constant with an initializer: a kernel reads only constant globals (pass '{name}' as a parameter)"
                ),
            ));
        };
        if t.is_scalar() {
            let v = self.eval_const(init, &t)?;
            return Ok(Binding::Const(self.konst_val(&t, v)));
        }
        let Some((shape, elem)) = static_array(&t) else {
            return Err(self.error_at(
                at,
                format!("global '{name}' has type '{spelled}', which a kernel cannot read"),
            ));
        };
        let mem = self.rom(&name, shape, elem, init, g)?;
        Ok(Binding::Mem(mem))
    }

    /// A constant array: a private constant `memref.global` (a ROM in
    /// hardware) holding the values of `init`, read through
    /// `memref.get_global`.
    pub fn rom(
        &mut self,
        name: &str,
        shape: Vec<u64>,
        elem: CType,
        init: &Node,
        decl: &Node,
    ) -> R<Mem> {
        let count: u64 = shape.iter().product();
        let zero = match elem {
            CType::Float(_) => Konst::Float(0.0),
            _ => Konst::Int(0),
        };
        let mut values = vec![zero; count as usize];
        self.flatten_init(init, &shape, &elem, 0, &mut values)?;
        let ty = memref_type(&shape, &elem);
        let elems: Vec<String> = values
            .iter()
            .map(|k| match k {
                Konst::Int(i) => super::value::wrap(*i, &elem).to_string(),
                Konst::Float(f) => float_literal(*f, elem.bits()),
            })
            .collect();
        let sym = format!("__silica_c_{name}_{}", self.next);
        let dense = nested(&elems, &shape);
        let loc = decl.loc.as_ref().map(super::loc_text).unwrap_or_default();
        self.globals.push((
            sym.clone(),
            format!("memref.global \"private\" constant @{sym} : {ty} = dense<{dense}> {loc}"),
        ));
        let v = self.fresh();
        self.prologue
            .push(format!("{v} = memref.get_global @{sym} : {ty}"));
        Ok(Mem { v, ty, shape, elem })
    }

    /// A constant's value as a lowered value.
    pub fn konst_val(&mut self, t: &CType, k: Konst) -> Val {
        match k {
            Konst::Int(i) => self.int_const(t, i),
            Konst::Float(f) => self.float_const(t, f),
        }
    }

    /// Writes the values of initializer `init` of an array of `shape`
    /// into `out` from element `at` on (zeros stay where it gives none);
    /// every value must be a constant expression.
    pub fn flatten_init(
        &mut self,
        init: &Node,
        shape: &[u64],
        elem: &CType,
        at: usize,
        out: &mut Vec<Konst>,
    ) -> R<()> {
        let stride: u64 = shape[1..].iter().product();
        if init.kind == "InitListExpr" {
            let items: Vec<&Node> = init.inner.iter().collect();
            for (k, item) in items.iter().enumerate() {
                if k as u64 >= shape[0] {
                    break;
                }
                let pos = at + k * stride as usize;
                if item.kind == "ImplicitValueInitExpr" {
                    continue;
                }
                if shape.len() > 1 {
                    self.flatten_init(item, &shape[1..], elem, pos, out)?;
                } else {
                    out[pos] = self.eval_const(item, elem)?;
                }
            }
            return Ok(());
        }
        Err(self.error_at(init, "an array initializer must be a list of constants"))
    }

    /// The value of a constant expression of type `t` (literals,
    /// conversions, arithmetic: what clang folds for an initializer).
    pub fn eval_const(&mut self, n: &Node, t: &CType) -> R<Konst> {
        let mut k = None;
        let got = self.speculate(&mut |f| {
            let v = f.rvalue(n)?;
            let v = f.convert(&v, t)?;
            k = v.konst;
            Ok(())
        })?;
        match (got, k) {
            (Some(()), Some(k)) => Ok(k),
            _ => Err(self.error_at(
                n,
                "an initializer of a constant must be a constant expression",
            )),
        }
    }

    /// The pointer expression `n` evaluates to.
    pub fn pointer(&mut self, n: &Node) -> R<Ptr> {
        match n.kind.as_str() {
            "ParenExpr" => self.pointer(&n.inner[0]),
            "ImplicitCastExpr" | "CStyleCastExpr" => match n.str("castKind") {
                Some("ArrayToPointerDecay") => match self.place(&n.inner[0])? {
                    Place::Part(mem, fixed) => {
                        let offset = self.index_const(0);
                        Ok(Ptr { mem, fixed, offset })
                    }
                    _ => Err(self.error_at(n, "not an array")),
                },
                Some("LValueToRValue") => {
                    // A pointer parameter (bound to its memref).
                    match self.place(&n.inner[0])? {
                        Place::Part(mem, fixed) if fixed.is_empty() => {
                            let offset = self.index_const(0);
                            Ok(Ptr { mem, fixed, offset })
                        }
                        _ => Err(self.pointer_error(n)),
                    }
                }
                Some("NoOp") => self.pointer(&n.inner[0]),
                _ => Err(self.error_at(n, "pointer conversions are not supported in a kernel")),
            },
            "BinaryOperator" if matches!(n.str("opcode"), Some("+" | "-")) => {
                let (a, b) = (&n.inner[0], &n.inner[1]);
                let is_ptr = |x: &Node| {
                    x.type_spelling()
                        .is_some_and(|t| matches!(self.unit.ctype(t), CType::Pointer(_)))
                };
                let minus = n.str("opcode") == Some("-");
                let (p, k) = if is_ptr(a) {
                    (a, b)
                } else if !minus {
                    (b, a)
                } else {
                    return Err(self.pointer_error(n));
                };
                if is_ptr(k) {
                    return Err(self.error_at(
                        n,
                        "the difference of two pointers is not supported in a kernel",
                    ));
                }
                let ptr = self.pointer(p)?;
                let k = self.rvalue(k)?;
                let mut k = self.index_of(&k)?;
                if minus {
                    let v = self.op(&format!("arith.subi {}, {} : index", ptr.offset.v, k.v));
                    let aff = match (&ptr.offset.aff, &k.aff) {
                        (Some(x), Some(y)) => x.sub(y),
                        _ => None,
                    };
                    k = Idx { v, aff };
                    return Ok(Ptr { offset: k, ..ptr });
                }
                let offset = self.index_add(&ptr.offset, &k);
                Ok(Ptr { offset, ..ptr })
            }
            "UnaryOperator" if n.str("opcode") == Some("&") => match self.place(&n.inner[0])? {
                Place::Elem(mem, mut idx) | Place::Part(mem, mut idx) if !idx.is_empty() => {
                    let offset = idx.pop().expect("a subscript");
                    Ok(Ptr {
                        mem,
                        fixed: idx,
                        offset,
                    })
                }
                Place::Part(mem, idx) => {
                    let offset = self.index_const(0);
                    Ok(Ptr {
                        mem,
                        fixed: idx,
                        offset,
                    })
                }
                _ => Err(self.error_at(
                    n,
                    "taking the address of a variable is not supported in a kernel",
                )),
            },
            _ => Err(self.pointer_error(n)),
        }
    }

    fn pointer_error(&self, n: &Node) -> super::Fail {
        self.error_at(
            n,
            "pointer arithmetic that silica cannot bound: a kernel reaches memory only through its array parameters, local arrays and constant global arrays",
        )
    }

    /// The key under which a load of `mem` at `idx` may be reused.
    fn load_key(mem: &Mem, idx: &[Idx]) -> String {
        let parts: Vec<String> = idx
            .iter()
            .map(|i| i.aff.as_ref().map_or_else(|| i.v.clone(), Aff::inline))
            .collect();
        format!("{}[{}]", mem.v, parts.join(", "))
    }

    /// The subscripts of an access: its inline affine form, or `None`.
    fn affine_subscripts(idx: &[Idx]) -> Option<String> {
        let parts: Option<Vec<String>> = idx
            .iter()
            .map(|i| i.aff.as_ref().map(Aff::inline))
            .collect();
        parts.map(|p| p.join(", "))
    }

    /// The value at a place.
    pub fn load(&mut self, p: &Place) -> R<Val> {
        match p {
            Place::Var(i) => Ok(self.var_value(*i)),
            Place::Const(v) => Ok(v.clone()),
            Place::Part(..) => Err(self.error("an array is not a value")),
            Place::Elem(mem, idx) => {
                let key = Self::load_key(mem, idx);
                if let Some(v) = self.blocks.last().and_then(|b| b.cache.get(&key)) {
                    return Ok(v.clone());
                }
                self.not_speculative()?;
                let elem = mem.elem.clone();
                let text = match Self::affine_subscripts(idx) {
                    Some(s) => format!("affine.load {}[{s}] : {}", mem.v, mem.ty),
                    None => {
                        let names: Vec<&str> = idx.iter().map(|i| i.v.as_str()).collect();
                        format!("memref.load {}[{}] : {}", mem.v, names.join(", "), mem.ty)
                    }
                };
                let v = self.value(&text, &elem, None);
                self.blocks
                    .last_mut()
                    .expect("a block")
                    .cache
                    .insert(key, v.clone());
                Ok(v)
            }
        }
    }

    /// Writes `v` (of the place's type) to a place.
    pub fn store(&mut self, p: &Place, v: Val) -> R<()> {
        self.not_speculative()?;
        match p {
            Place::Var(i) => {
                self.env[*i] = Some(v);
                Ok(())
            }
            Place::Const(_) => Err(self.error("a constant cannot be assigned")),
            Place::Part(..) => Err(self.error("an array cannot be assigned")),
            Place::Elem(mem, idx) => {
                let text = match Self::affine_subscripts(idx) {
                    Some(s) => format!("affine.store {}, {}[{s}] : {}", v.v, mem.v, mem.ty),
                    None => {
                        let names: Vec<&str> = idx.iter().map(|i| i.v.as_str()).collect();
                        format!(
                            "memref.store {}, {}[{}] : {}",
                            v.v,
                            mem.v,
                            names.join(", "),
                            mem.ty
                        )
                    }
                };
                self.effect(&text);
                self.stored();
                // The value stored is what a load there gives next.
                let key = Self::load_key(mem, idx);
                self.blocks
                    .last_mut()
                    .expect("a block")
                    .cache
                    .insert(key, v);
                Ok(())
            }
        }
    }

    /// The type of a place's values.
    pub fn place_type(&self, p: &Place) -> CType {
        match p {
            Place::Var(i) => self.vars[*i].ty.clone(),
            Place::Const(v) => v.ty.clone(),
            Place::Elem(m, _) | Place::Part(m, _) => m.elem.clone(),
        }
    }
}

/// Row-major `elems` as a dense literal of `shape` (`[[1, 2], [3, 4]]`).
fn nested(elems: &[String], shape: &[u64]) -> String {
    match shape {
        [] | [_] => format!("[{}]", elems.join(", ")),
        [n, rest @ ..] => {
            let stride = elems.len() / *n as usize;
            let rows: Vec<String> = elems
                .chunks(stride.max(1))
                .map(|c| nested(c, rest))
                .collect();
            format!("[{}]", rows.join(", "))
        }
    }
}
