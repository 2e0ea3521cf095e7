//! Expressions. clang's AST makes C's conversions explicit (integer
//! promotions, the usual arithmetic conversions, the conversion of an
//! assigned value), so each operator here works on operands of its own
//! type: the op follows the type's signedness (`divsi` or `divui`,
//! `shrsi` or `shrui`, `slt` or `ult`), integer constants fold modulo
//! the type's width, and conditions become `i1` values, with an affine
//! set beside them where they compare affine forms.

use super::affine::{Aff, Constraint};

use super::value::{wrap, Konst, Val};
use super::{Func, R};
use crate::json::Node;
use crate::types::CType;

/// A condition: its `i1`, and the affine constraints that state it
/// where it is a conjunction of comparisons of affine forms.
#[derive(Clone, Debug)]
pub struct Cond {
    pub i1: String,
    pub set: Option<Vec<Constraint>>,
}

/// What an unsupported expression is, for its error.
fn unsupported(kind: &str) -> String {
    let what = match kind {
        "StringLiteral" => "string literals",
        "MemberExpr" => "structures",
        "CompoundLiteralExpr" => "compound literals",
        "StmtExpr" => "statement expressions",
        "InitListExpr" => "initializer lists outside declarations",
        "PredefinedExpr" => "__func__",
        "VAArgExpr" => "variable arguments",
        "AddrLabelExpr" => "labels as values",
        "GenericSelectionExpr" => "_Generic",
        "BlockExpr" => "blocks",
        other => return format!("'{other}' is not supported in a kernel"),
    };
    format!("{what} are not supported in a kernel")
}

impl Func<'_> {
    /// The C type of an expression node.
    pub fn ty(&self, n: &Node) -> CType {
        n.type_spelling()
            .map(|t| self.unit.ctype(t))
            .unwrap_or(CType::Void)
    }

    /// The value of `n`, its side effects done.
    pub fn rvalue(&mut self, n: &Node) -> R<Val> {
        if n.loc.is_some() {
            self.at = n.loc.clone();
        }
        let t = self.ty(n);
        match n.kind.as_str() {
            "IntegerLiteral" => {
                let v: i128 = n
                    .str("value")
                    .and_then(|s| s.parse().ok())
                    .ok_or_else(|| self.error_at(n, "an integer literal silica cannot read"))?;
                Ok(self.int_const(&t, v))
            }
            "CharacterLiteral" => {
                let v = n.attr("value").and_then(|v| v.as_i64()).unwrap_or(0);
                Ok(self.int_const(&t, i128::from(v)))
            }
            "FloatingLiteral" => {
                if !matches!(t, CType::Float(_)) {
                    return Err(self.error_at(
                        n,
                        format!(
                            "{} is not supported in a kernel",
                            n.type_spelling().unwrap_or("this floating type")
                        ),
                    ));
                }
                let v: f64 = n
                    .str("value")
                    .and_then(|s| s.parse().ok())
                    .ok_or_else(|| self.error_at(n, "a floating literal silica cannot read"))?;
                // A float literal's value is exact in double; read it as
                // float directly so that no double rounding happens.
                if t.bits() == 32 {
                    let f: f32 = n
                        .str("value")
                        .and_then(|s| s.parse().ok())
                        .unwrap_or(v as f32);
                    return Ok(self.float_const(&t, f64::from(f)));
                }
                Ok(self.float_const(&t, v))
            }
            "ConstantExpr" => match (
                n.str("value").and_then(|s| s.parse::<i128>().ok()),
                t.is_integer(),
            ) {
                (Some(v), true) => Ok(self.int_const(&t, v)),
                _ => self.rvalue(&n.inner[0]),
            },
            "ParenExpr" => self.rvalue(&n.inner[0]),
            "ImplicitCastExpr" | "CStyleCastExpr" => self.cast(n, &t),
            "DeclRefExpr" => {
                let p = self.place(n)?;
                self.load(&p)
            }
            "ArraySubscriptExpr" => {
                let p = self.place(n)?;
                self.load(&p)
            }
            "UnaryOperator" => self.unary(n, &t),
            "BinaryOperator" => self.binary(n, &t),
            "CompoundAssignOperator" => self.compound_assign(n, &t),
            "ConditionalOperator" => self.conditional(n, &t),
            "CallExpr" => self.call(n, &t),
            "UnaryExprOrTypeTraitExpr" => self.size_of(n, &t),
            "BinaryConditionalOperator" => {
                Err(self.error_at(n, "the GNU ?: operator is not supported in a kernel"))
            }
            other => Err(self.error_at(n, unsupported(other))),
        }
    }

    /// A value of type void (an expression evaluated for its effects).
    fn void(&self) -> Val {
        Val {
            v: String::new(),
            ty: CType::Void,
            aff: None,
            konst: None,
        }
    }

    fn cast(&mut self, n: &Node, t: &CType) -> R<Val> {
        let inner = &n.inner[0];
        match n.str("castKind").unwrap_or_default() {
            "LValueToRValue" => {
                let p = self.place(inner)?;
                let v = self.load(&p)?;
                Ok(Val { ty: t.clone(), ..v })
            }
            "NoOp" => {
                let v = self.rvalue(inner)?;
                Ok(Val { ty: t.clone(), ..v })
            }
            "ToVoid" => {
                self.rvalue(inner)?;
                Ok(self.void())
            }
            "IntegralCast" | "IntegralToBoolean" | "IntegralToFloating" | "FloatingToIntegral"
            | "FloatingCast" | "FloatingToBoolean" | "BooleanToSignedIntegral" => {
                let v = self.rvalue(inner)?;
                if !t.is_scalar() {
                    return Err(self.error_at(n, format!("conversion to '{}' is not supported in a kernel", n.type_spelling().unwrap_or_default())));
                }
                self.convert(&v, t)
            }
            "ArrayToPointerDecay" | "FunctionToPointerDecay" | "BuiltinFnToFnPtr" => Err(self
                .error_at(n, "a pointer is not a value a kernel computes with: subscript the array instead")),
            kind => Err(self.error_at(
                n,
                format!("the conversion '{kind}' (between pointers and integers) is not supported in a kernel"),
            )),
        }
    }

    fn unary(&mut self, n: &Node, t: &CType) -> R<Val> {
        let op = n.str("opcode").unwrap_or_default();
        let inner = &n.inner[0];
        match op {
            "+" => self.rvalue(inner),
            "-" => {
                let v = self.rvalue(inner)?;
                let m = t.mlir().unwrap_or_default();
                match (&v.ty, v.konst) {
                    (CType::Float(_), Some(Konst::Float(f))) => Ok(self.float_const(t, -f)),
                    (CType::Float(_), _) => Ok(self.value(&format!("arith.negf {} : {m}", v.v), t, None)),
                    (_, Some(Konst::Int(k))) => Ok(self.int_const(t, -k)),
                    _ => {
                        let zero = self.zero(t);
                        let aff = if t.is_unsigned() {
                            None
                        } else {
                            v.aff.as_ref().and_then(|a| a.scale(-1))
                        };
                        Ok(self.value(&format!("arith.subi {}, {} : {m}", zero.v, v.v), t, aff))
                    }
                }
            }
            "~" => {
                let v = self.rvalue(inner)?;
                if let Some(Konst::Int(k)) = v.konst {
                    return Ok(self.int_const(t, !k));
                }
                let ones = self.int_const(t, -1);
                let m = t.mlir().unwrap_or_default();
                Ok(self.value(&format!("arith.xori {}, {} : {m}", v.v, ones.v), t, None))
            }
            "!" => {
                let c = self.condition(n)?;
                Ok(self.bool_to_int(&c.i1, t))
            }
            "++" | "--" => {
                let p = self.place(inner)?;
                let old = self.load(&p)?;
                let pt = self.place_type(&p);
                let m = pt.mlir().unwrap_or_default();
                let new = match &pt {
                    CType::Float(_) => {
                        let one = self.float_const(&pt, 1.0);
                        let f = if op == "++" { "arith.addf" } else { "arith.subf" };
                        self.value(&format!("{f} {}, {} : {m}", old.v, one.v), &pt, None)
                    }
                    CType::Int { .. } => {
                        let delta: i64 = if op == "++" { 1 } else { -1 };
                        if let Some(Konst::Int(k)) = old.konst {
                            // Folded modulo the type's width.
                            let new = self.int_const(&pt, k + i128::from(delta));
                            self.store(&p, new.clone())?;
                            return Ok(if n.flag("isPostfix") { old } else { new });
                        }
                        let one = self.int_const(&pt, 1);
                        // A type narrower than `int` wraps (C computes in
                        // `int` and converts back): its form is exact only
                        // where overflow is undefined, from `int` up.
                        let aff = if pt.is_unsigned() || pt.bits() < 32 {
                            None
                        } else {
                            old.aff.as_ref().and_then(|a| a.add(&Aff::constant(delta)))
                        };
                        let f = if op == "++" { "arith.addi" } else { "arith.subi" };
                        self.value(&format!("{f} {}, {} : {m}", old.v, one.v), &pt, aff)
                    }
                    _ => return Err(self.error_at(n, format!("'{op}' on a pointer or a _Bool is not supported in a kernel"))),
                };
                self.store(&p, new.clone())?;
                Ok(if n.flag("isPostfix") { old } else { new })
            }
            "*" => {
                let p = self.place(n)?;
                self.load(&p)
            }
            "&" => Err(self.error_at(n, "taking an address is not supported in a kernel (except of an array element passed on)")),
            "__extension__" => self.rvalue(inner),
            other => Err(self.error_at(n, format!("the operator '{other}' is not supported in a kernel"))),
        }
    }

    fn binary(&mut self, n: &Node, t: &CType) -> R<Val> {
        let op = n.str("opcode").unwrap_or_default();
        let (a, b) = (&n.inner[0], &n.inner[1]);
        match op {
            "=" => {
                let v = self.rvalue(b)?;
                let p = self.place(a)?;
                let pt = self.place_type(&p);
                let v = self.convert(&v, &pt)?;
                self.at = n.loc.clone();
                self.store(&p, v.clone())?;
                Ok(v)
            }
            "," => {
                self.rvalue(a)?;
                self.rvalue(b)
            }
            "&&" | "||" | "<" | ">" | "<=" | ">=" | "==" | "!=" => {
                let c = self.condition(n)?;
                Ok(self.bool_to_int(&c.i1, t))
            }
            _ => {
                let (ta, tb) = (self.ty(a), self.ty(b));
                if matches!(ta, CType::Pointer(_)) || matches!(tb, CType::Pointer(_)) {
                    return Err(self.error_at(
                        n,
                        "pointer arithmetic is supported only inside a subscript or a dereference",
                    ));
                }
                let x = self.rvalue(a)?;
                let y = self.rvalue(b)?;
                self.at = n.loc.clone();
                self.arith(op, &x, &y, t)
            }
        }
    }

    /// `x op y` in type `t` (the operands converted to it, but for a
    /// shift's count, which C converts separately).
    pub fn arith(&mut self, op: &str, x: &Val, y: &Val, t: &CType) -> R<Val> {
        let x = self.convert(x, t)?;
        // A shift's count has its own type; C defines shifts only by
        // counts below the width, which any conversion keeps.
        let y = self.convert(y, t)?;
        let m = t.mlir().unwrap_or_default();
        if let CType::Float(_) = t {
            let f = match op {
                "+" => "arith.addf",
                "-" => "arith.subf",
                "*" => "arith.mulf",
                "/" => "arith.divf",
                _ => return Err(self.error(format!("'{op}' on floating values"))),
            };
            // Floating arithmetic is never folded: every operation C
            // writes runs (as clang at -O0 keeps it).
            return Ok(self.value(&format!("{f} {}, {} : {m}", x.v, y.v), t, None));
        }
        if !t.is_integer() {
            return Err(self.error(format!(
                "'{op}' on values of this type is not supported in a kernel"
            )));
        }
        let unsigned = t.is_unsigned();
        let f = match op {
            "+" => "arith.addi",
            "-" => "arith.subi",
            "*" => "arith.muli",
            "/" if unsigned => "arith.divui",
            "/" => "arith.divsi",
            "%" if unsigned => "arith.remui",
            "%" => "arith.remsi",
            "<<" => "arith.shli",
            ">>" if unsigned => "arith.shrui",
            ">>" => "arith.shrsi",
            "&" => "arith.andi",
            "|" => "arith.ori",
            "^" => "arith.xori",
            _ => {
                return Err(self.error(format!("the operator '{op}' is not supported in a kernel")))
            }
        };
        if let (Some(Konst::Int(p)), Some(Konst::Int(q))) = (x.konst, y.konst) {
            if let Some(r) = fold_int(op, p, q, t) {
                return Ok(self.int_const(t, r));
            }
        }
        if matches!(op, "/" | "%") && !matches!(y.konst, Some(Konst::Int(k)) if k != 0) {
            // A division by a value that may be zero traps in software.
            self.not_speculative()?;
        }
        let aff = if unsigned {
            None
        } else {
            match (op, &x.aff, &y.aff) {
                ("+", Some(p), Some(q)) => p.add(q),
                ("-", Some(p), Some(q)) => p.sub(q),
                ("*", Some(p), Some(q)) => match (p.as_constant(), q.as_constant()) {
                    (Some(c), _) => q.scale(c),
                    (_, Some(c)) => p.scale(c),
                    _ => None,
                },
                _ => None,
            }
        };
        Ok(self.value(&format!("{f} {}, {} : {m}", x.v, y.v), t, aff))
    }

    fn compound_assign(&mut self, n: &Node, t: &CType) -> R<Val> {
        let op = n
            .str("opcode")
            .unwrap_or_default()
            .trim_end_matches('=')
            .to_string();
        let lhs_t = n
            .attr("computeLHSType")
            .and_then(crate::json::type_of)
            .map(|s| self.unit.ctype(s))
            .unwrap_or_else(|| t.clone());
        let res_t = n
            .attr("computeResultType")
            .and_then(crate::json::type_of)
            .map(|s| self.unit.ctype(s))
            .unwrap_or_else(|| t.clone());
        let y = self.rvalue(&n.inner[1])?;
        let p = self.place(&n.inner[0])?;
        if matches!(self.place_type(&p), CType::Pointer(_)) {
            return Err(self.error_at(
                n,
                "pointer arithmetic on a pointer variable is not supported in a kernel",
            ));
        }
        let old = self.load(&p)?;
        let x = self.convert(&old, &lhs_t)?;
        self.at = n.loc.clone();
        let r = self.arith(&op, &x, &y, &res_t)?;
        let pt = self.place_type(&p);
        let r = self.convert(&r, &pt)?;
        self.store(&p, r.clone())?;
        Ok(r)
    }

    fn conditional(&mut self, n: &Node, t: &CType) -> R<Val> {
        let (c, a, b) = (&n.inner[0], &n.inner[1], &n.inner[2]);
        let cond = self.condition(c)?;
        if !matches!(t, CType::Void) {
            let arms = self.speculate(&mut |f| {
                let x = f.rvalue(a)?;
                let y = f.rvalue(b)?;
                Ok((f.convert(&x, t)?, f.convert(&y, t)?))
            })?;
            if let Some((x, y)) = arms {
                let m = t.mlir().unwrap_or_default();
                return Ok(self.value(
                    &format!("arith.select {}, {}, {} : {m}", cond.i1, x.v, y.v),
                    t,
                    None,
                ));
            }
        }
        let result = (!matches!(t, CType::Void)).then(|| t.clone());
        let tt = t.clone();
        let v = self.branch(
            &cond,
            &mut |f| {
                let x = f.rvalue(a)?;
                Ok(if matches!(tt, CType::Void) {
                    None
                } else {
                    Some(f.convert(&x, &tt)?)
                })
            },
            Some(&mut |f| {
                let y = f.rvalue(b)?;
                Ok(if matches!(tt, CType::Void) {
                    None
                } else {
                    Some(f.convert(&y, &tt)?)
                })
            }),
            result,
        )?;
        Ok(v.unwrap_or_else(|| self.void()))
    }

    fn size_of(&mut self, n: &Node, t: &CType) -> R<Val> {
        if n.str("name") != Some("sizeof") {
            return Err(self.error_at(
                n,
                format!(
                    "'{}' is not supported in a kernel",
                    n.str("name").unwrap_or("this operator")
                ),
            ));
        }
        let of = match n.attr("argType").and_then(crate::json::type_of) {
            Some(s) => self.unit.ctype(s),
            None => self.ty(&n.inner[0]),
        };
        match of.size_of() {
            Some(s) => Ok(self.int_const(t, i128::from(s))),
            None => Err(self.error_at(n, "sizeof of a type whose size silica does not know")),
        }
    }

    /// A condition: `n` compared with zero, as `if`, `while`, `&&`, `||`,
    /// `!` and `?:` test it.
    pub fn condition(&mut self, n: &Node) -> R<Cond> {
        if n.loc.is_some() {
            self.at = n.loc.clone();
        }
        let op = n.str("opcode").unwrap_or_default();
        match (n.kind.as_str(), op) {
            ("ParenExpr", _) => self.condition(&n.inner[0]),
            ("BinaryOperator", "<" | ">" | "<=" | ">=" | "==" | "!=") => {
                let (a, b) = (&n.inner[0], &n.inner[1]);
                let x = self.rvalue(a)?;
                let y = self.rvalue(b)?;
                self.at = n.loc.clone();
                self.compare(op, &x, &y)
            }
            ("BinaryOperator", "&&" | "||") => {
                let and = op == "&&";
                let x = self.condition(&n.inner[0])?;
                let rhs = &n.inner[1];
                if let Some(y) = self.speculate(&mut |f| f.condition(rhs))? {
                    let f = if and { "arith.andi" } else { "arith.ori" };
                    let i1 = self.op(&format!("{f} {}, {} : i1", x.i1, y.i1));
                    let set = match (and, x.set, y.set) {
                        (true, Some(mut p), Some(q)) => {
                            p.extend(q);
                            Some(p)
                        }
                        _ => None,
                    };
                    return Ok(Cond { i1, set });
                }
                // The right operand runs only where the left one does not
                // decide.
                let bool_t = CType::Bool;
                let short = self.int_const(&bool_t, i128::from(!and));
                let test = Cond {
                    i1: x.i1,
                    set: x.set,
                };
                let mut rhs_fn = |f: &mut Func<'_>| -> R<Option<Val>> {
                    let c = f.condition(rhs)?;
                    Ok(Some(Val {
                        v: c.i1,
                        ty: CType::Bool,
                        aff: None,
                        konst: None,
                    }))
                };
                let mut short_fn = |_: &mut Func<'_>| -> R<Option<Val>> { Ok(Some(short.clone())) };
                let v = if and {
                    self.branch(&test, &mut rhs_fn, Some(&mut short_fn), Some(bool_t))?
                } else {
                    self.branch(&test, &mut short_fn, Some(&mut rhs_fn), Some(bool_t))?
                };
                Ok(Cond {
                    i1: v.expect("a value").v,
                    set: None,
                })
            }
            ("UnaryOperator", "!") => {
                let c = self.condition(&n.inner[0])?;
                let i1 = self.not(&c.i1);
                let set = match c.set.as_deref() {
                    Some([one]) if !one.equality => one
                        .form
                        .scale(-1)
                        .and_then(|f| f.add(&Aff::constant(-1)))
                        .map(|form| {
                            vec![Constraint {
                                form,
                                equality: false,
                            }]
                        }),
                    _ => None,
                };
                Ok(Cond { i1, set })
            }
            _ => {
                let v = self.rvalue(n)?;
                if let Some(Konst::Int(k)) = v.konst {
                    let c = self.int_const(&CType::Bool, i128::from(k != 0));
                    return Ok(Cond { i1: c.v, set: None });
                }
                let i1 = self.truth(&v)?;
                Ok(Cond { i1, set: None })
            }
        }
    }

    /// `x op y` of two values of one type (C converted them).
    pub fn compare(&mut self, op: &str, x: &Val, y: &Val) -> R<Cond> {
        let t = x.ty.clone();
        let y = self.convert(y, &t)?;
        let m = t.mlir().unwrap_or_default();
        let (i1, set) = if let CType::Float(_) = t {
            let p = match op {
                "<" => "olt",
                ">" => "ogt",
                "<=" => "ole",
                ">=" => "oge",
                "==" => "oeq",
                _ => "une",
            };
            (
                self.op(&format!("arith.cmpf {p}, {}, {} : {m}", x.v, y.v)),
                None,
            )
        } else if t.is_integer() {
            let u = t.is_unsigned();
            let p = match (op, u) {
                ("<", false) => "slt",
                ("<", true) => "ult",
                (">", false) => "sgt",
                (">", true) => "ugt",
                ("<=", false) => "sle",
                ("<=", true) => "ule",
                (">=", false) => "sge",
                (">=", true) => "uge",
                ("==", _) => "eq",
                _ => "ne",
            };
            let i1 = self.op(&format!("arith.cmpi {p}, {}, {} : {m}", x.v, y.v));
            // Unsigned values compare as their affine forms only when
            // both are exact (forms of unsigned values are).
            let set = match (&x.aff, &y.aff) {
                (Some(a), Some(b)) => constraint(op, a, b),
                _ => None,
            };
            (i1, set)
        } else {
            return Err(self.error("only integer and floating values can be compared"));
        };
        Ok(Cond { i1, set })
    }
}

/// `a op b` as affine constraints (`a < b`: `b - a - 1 >= 0`).
fn constraint(op: &str, a: &Aff, b: &Aff) -> Option<Vec<Constraint>> {
    let ge = |f: Option<Aff>| {
        f.map(|form| {
            vec![Constraint {
                form,
                equality: false,
            }]
        })
    };
    match op {
        "<" => ge(b.sub(a).and_then(|d| d.add(&Aff::constant(-1)))),
        "<=" => ge(b.sub(a)),
        ">" => ge(a.sub(b).and_then(|d| d.add(&Aff::constant(-1)))),
        ">=" => ge(a.sub(b)),
        "==" => a.sub(b).map(|form| {
            vec![Constraint {
                form,
                equality: true,
            }]
        }),
        _ => None,
    }
}

/// `p op q` folded in type `t` as C computes it; `None` where C leaves
/// it undefined (division by zero, shifts past the width).
fn fold_int(op: &str, p: i128, q: i128, t: &CType) -> Option<i128> {
    let bits = i128::from(t.bits());
    let unsigned = t.is_unsigned();
    let r = match op {
        "+" => p.wrapping_add(q),
        "-" => p.wrapping_sub(q),
        "*" => p.wrapping_mul(q),
        "/" if q == 0 => return None,
        "/" => p.checked_div(q)?,
        "%" if q == 0 => return None,
        "%" => p.checked_rem(q)?,
        "<<" if q < 0 || q >= bits => return None,
        "<<" => p.checked_shl(q as u32)?,
        ">>" if q < 0 || q >= bits => return None,
        ">>" if unsigned => (p & ((1i128 << bits) - 1)) >> q,
        ">>" => p >> q,
        "&" => p & q,
        "|" => p | q,
        "^" => p ^ q,
        _ => return None,
    };
    Some(wrap(r, t))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_folds_follow_c() {
        let int = CType::Int {
            bits: 32,
            signed: true,
        };
        let uint = CType::Int {
            bits: 32,
            signed: false,
        };
        assert_eq!(fold_int("/", -7, 2, &int), Some(-3));
        assert_eq!(fold_int("%", -7, 2, &int), Some(-1));
        assert_eq!(fold_int("/", 7, 0, &int), None);
        assert_eq!(fold_int(">>", 0xFFFF_FFFF, 4, &uint), Some(0x0FFF_FFFF));
        assert_eq!(fold_int(">>", -16, 2, &int), Some(-4));
        assert_eq!(fold_int("+", 0x7FFF_FFFF, 1, &uint), Some(0x8000_0000));
        assert_eq!(fold_int("<<", 1, 32, &int), None);
    }
}
