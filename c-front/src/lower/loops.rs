//! Loops. A `for` that counts (one integer variable from an initial
//! value by a constant step while it compares below or above bounds
//! evaluated once: no assignment in the loop to what they read, no
//! `break` or `return` out of it) becomes `affine.for` where its bounds
//! are affine forms (a loop counting down: a loop counting up over the
//! reflected index, as `examples/polybench` writes it), else `scf.for`;
//! any other loop `scf.while`, its `break` and `return` flags tested
//! with the condition. Loops carry the variables they assign.

use super::affine::{self as aff, Aff, Operand};
use super::scan;
use super::value::{Idx, Val};
use super::{loc_text, Binding, Func, Target, R};
use crate::json::Node;
use crate::types::CType;

/// A `for` that counts.
struct Counted<'n> {
    var: String,
    decl: Option<&'n Node>,
    init: &'n Node,
    bounds: Vec<(&'n Node, bool)>,
    step: i64,
}

/// `n` without parentheses and integer conversions.
fn strip_conversions(mut n: &Node) -> &Node {
    while n.kind == "ParenExpr"
        || (n.kind == "ImplicitCastExpr"
            && matches!(
                n.str("castKind"),
                Some("NoOp" | "LValueToRValue" | "IntegralCast")
            ))
    {
        n = &n.inner[0];
    }
    n
}

/// The constant integer `n` spells (a literal under conversions).
fn literal(n: &Node) -> Option<i64> {
    let n = strip_conversions(n);
    match n.kind.as_str() {
        "IntegerLiteral" => n.str("value")?.parse().ok(),
        "ConstantExpr" => n.str("value")?.parse().ok(),
        "UnaryOperator" if n.str("opcode") == Some("-") => literal(&n.inner[0]).map(|v| -v),
        _ => None,
    }
}

fn conjuncts<'n>(n: &'n Node, out: &mut Vec<&'n Node>) {
    let n = strip_conversions(n);
    if n.kind == "BinaryOperator" && n.str("opcode") == Some("&&") {
        conjuncts(&n.inner[0], out);
        conjuncts(&n.inner[1], out);
    } else {
        out.push(n);
    }
}

impl<'u> Func<'u> {
    /// Whether a `for` counts, and how.
    fn counted<'n>(&self, n: &'n Node) -> Option<Counted<'n>> {
        let [init, cond_var, cond, inc, body] = n.inner.as_slice() else {
            return None;
        };
        if !cond_var.is_empty() || cond.is_empty() || inc.is_empty() {
            return None;
        }
        let (var, decl, init_value) = match init.kind.as_str() {
            "DeclStmt" if init.inner.len() == 1 && init.inner[0].kind == "VarDecl" => {
                let d = &init.inner[0];
                (
                    d.id.clone(),
                    Some(d),
                    d.inner.first().filter(|_| d.str("init").is_some())?,
                )
            }
            "BinaryOperator" if init.str("opcode") == Some("=") => (
                scan::decl_ref(&init.inner[0])?.to_string(),
                None,
                &init.inner[1],
            ),
            _ => return None,
        };
        let var_type = match decl {
            Some(d) => self.unit.ctype(d.type_spelling()?),
            None => self.ty(&init.inner[0]),
        };
        if !matches!(var_type, CType::Int { .. }) {
            return None;
        }
        // The step.
        let step = match inc.kind.as_str() {
            "UnaryOperator" if scan::decl_ref(&inc.inner[0]) == Some(&var) => {
                match inc.str("opcode") {
                    Some("++") => 1,
                    Some("--") => -1,
                    _ => return None,
                }
            }
            "CompoundAssignOperator" if scan::decl_ref(&inc.inner[0]) == Some(&var) => {
                let c = literal(&inc.inner[1])?;
                match inc.str("opcode") {
                    Some("+=") => c,
                    Some("-=") => -c,
                    _ => return None,
                }
            }
            "BinaryOperator"
                if inc.str("opcode") == Some("=")
                    && scan::decl_ref(&inc.inner[0]) == Some(&var) =>
            {
                let e = strip_conversions(&inc.inner[1]);
                if e.kind != "BinaryOperator" {
                    return None;
                }
                let (a, b) = (&e.inner[0], &e.inner[1]);
                let is_var = |x: &Node| scan::decl_ref(strip_conversions(x)) == Some(var.as_str());
                match e.str("opcode") {
                    Some("+") if is_var(a) => literal(b)?,
                    Some("+") if is_var(b) => literal(a)?,
                    Some("-") if is_var(a) => -literal(b)?,
                    _ => return None,
                }
            }
            _ => return None,
        };
        if step == 0 {
            return None;
        }
        // The bounds.
        let mut parts = Vec::new();
        conjuncts(cond, &mut parts);
        let mut bounds = Vec::new();
        for p in parts {
            if p.kind != "BinaryOperator" {
                return None;
            }
            let op = p.str("opcode")?;
            let (a, b) = (&p.inner[0], &p.inner[1]);
            let is_var = |x: &Node| scan::decl_ref(strip_conversions(x)) == Some(var.as_str());
            let (bound, op) = if is_var(a) {
                (b, op.to_string())
            } else if is_var(b) {
                let mirrored = match op {
                    "<" => ">",
                    ">" => "<",
                    "<=" => ">=",
                    ">=" => "<=",
                    _ => return None,
                };
                (a, mirrored.to_string())
            } else {
                return None;
            };
            let up = step > 0;
            let inclusive = match (op.as_str(), up) {
                ("<", true) | (">", false) => false,
                ("<=", true) | (">=", false) => true,
                _ => return None,
            };
            // A loop counting down in unsigned arithmetic wraps below
            // zero instead of ending (`u >= 0` always holds): not counted.
            let t = self.ty(bound);
            if !t.is_integer() || (!up && t.is_unsigned()) {
                return None;
            }
            bounds.push((bound, inclusive));
        }
        // What the loop may not do.
        let ex = scan::exits(body);
        if ex.brk || ex.ret || scan::jumps(body) {
            return None;
        }
        let mut assigned = scan::assigned(body);
        assigned.extend(scan::assigned(cond));
        if assigned.contains(&var) || scan::address_taken(body, &var) {
            return None;
        }
        assigned.extend(scan::assigned(inc));
        let body_stores = scan::stores(body);
        for (b, _) in &bounds {
            if scan::side_effects(b) || (scan::loads(b) && body_stores) {
                return None;
            }
            if scan::refs(b).iter().any(|r| assigned.contains(r)) {
                return None;
            }
        }
        Some(Counted {
            var,
            decl,
            init: init_value,
            bounds,
            step,
        })
    }

    /// The variables a loop carries: the existing ones `parts` assign.
    fn carried(&self, parts: &[&Node], exclude: Option<&str>) -> Vec<usize> {
        let mut out = Vec::new();
        for p in parts {
            for id in scan::assigned(p) {
                if Some(id.as_str()) == exclude {
                    continue;
                }
                if let Some(Binding::Var(i)) = self.bindings.get(&id) {
                    if !out.contains(i) {
                        out.push(*i);
                    }
                }
            }
        }
        out
    }

    /// The `i`-th result of an op with `k` results named `name`.
    fn result_ref(name: &str, k: usize, i: usize) -> String {
        if k == 1 {
            name.to_string()
        } else {
            format!("{name}#{i}")
        }
    }

    fn result_prefix(name: &str, k: usize) -> String {
        match k {
            0 => String::new(),
            1 => format!("{name} = "),
            _ => format!("{name}:{k} = "),
        }
    }

    fn types_of(&self, vars: &[usize]) -> Vec<String> {
        vars.iter()
            .map(|&i| self.vars[i].ty.mlir().unwrap_or_default())
            .collect()
    }

    /// Lowers `f` as a loop body in which each carried variable is the
    /// block argument of the same position; gives the body's lines and
    /// the carried variables' values at its end.
    fn loop_body(
        &mut self,
        carried: &[usize],
        args: &[String],
        target: Target,
        f: &mut dyn FnMut(&mut Self) -> R<()>,
    ) -> R<(Vec<String>, Vec<String>)> {
        self.open(false);
        for (&i, a) in carried.iter().zip(args) {
            let t = self.vars[i].ty.clone();
            let v = self.val(a.clone(), &t, None);
            self.env[i] = Some(v);
        }
        self.targets.push(target);
        let r = f(self);
        self.targets.pop();
        r?;
        let yields: Vec<String> = carried.iter().map(|&i| self.var_value(i).v).collect();
        Ok((self.close(), yields))
    }

    /// A fresh `continue` flag for a body that continues.
    fn continue_flag(&mut self, body: &Node) -> Option<usize> {
        scan::exits(body).cont.then(|| self.new_var(CType::Bool))
    }

    /// Sets a flag false.
    fn clear(&mut self, flag: Option<usize>) {
        if let Some(f) = flag {
            let v = self.int_const(&CType::Bool, 0);
            self.env[f] = Some(v);
        }
    }

    fn label_attr(label: Option<&str>) -> String {
        label
            .map(|l| format!(" {{hls.label = \"{l}\"}}"))
            .unwrap_or_default()
    }

    pub fn for_stmt(&mut self, n: &Node, label: Option<&str>) -> R<()> {
        if let Some(c) = self.counted(n) {
            return self.counted_loop(n, &c, label);
        }
        let [init, cond_var, cond, inc, body] = n.inner.as_slice() else {
            return Err(self.error_at(n, "a for statement silica cannot read"));
        };
        if !cond_var.is_empty() {
            return Err(self.error_at(
                cond_var,
                "a declaration in a loop condition is not supported in a kernel",
            ));
        }
        self.stmt(init)?;
        self.while_loop(n, Some(cond), body, Some(inc), label, false)
    }

    pub fn while_stmt(&mut self, n: &Node, label: Option<&str>) -> R<()> {
        let k = n.inner.len();
        if k < 2 || n.inner[..k - 2].iter().any(|c| !c.is_empty()) {
            return Err(self.error_at(
                n,
                "a declaration in a loop condition is not supported in a kernel",
            ));
        }
        self.while_loop(
            n,
            Some(&n.inner[k - 2]),
            &n.inner[k - 1],
            None,
            label,
            false,
        )
    }

    pub fn do_stmt(&mut self, n: &Node, label: Option<&str>) -> R<()> {
        self.while_loop(n, Some(&n.inner[1]), &n.inner[0], None, label, true)
    }

    fn counted_loop(&mut self, n: &Node, c: &Counted<'_>, label: Option<&str>) -> R<()> {
        let [_, _, _, inc, body] = n.inner.as_slice() else {
            unreachable!("a counted for has five parts");
        };
        // The variable and its initial value.
        let var = match c.decl {
            Some(d) => {
                let t = self.unit.ctype(d.type_spelling().unwrap_or_default());
                let v = self.new_var(t);
                self.bindings.insert(d.id.clone(), Binding::Var(v));
                v
            }
            None => match self.bindings.get(&c.var) {
                Some(Binding::Var(v)) => *v,
                _ => {
                    return Err(
                        self.error_at(n, "the loop variable is not a variable of the kernel")
                    )
                }
            },
        };
        let var_t = self.vars[var].ty.clone();
        self.at = c.init.loc.clone().or(self.at.clone());
        let v0 = self.rvalue(c.init)?;
        let v0 = self.convert(&v0, &var_t)?;
        self.env[var] = Some(v0.clone());
        let cmp_t = self.ty(c.bounds[0].0);
        let lb_c = self.convert(&v0, &cmp_t)?;
        let lb = self.index_of(&lb_c)?;
        let mut ubs = Vec::new();
        for (b, inclusive) in &c.bounds {
            let bv = self.rvalue(b)?;
            let bv = self.convert(&bv, &cmp_t)?;
            let bi = self.index_of(&bv)?;
            ubs.push((bi, *inclusive));
        }
        self.at = n.loc.clone();
        let up = c.step > 0;
        let carried = self.carried(&[body, inc], Some(&c.var));
        let inits: Vec<String> = carried.iter().map(|&i| self.var_value(i).v).collect();
        let types = self.types_of(&carried);
        let args: Vec<String> = carried.iter().map(|_| self.fresh()).collect();
        let k = carried.len();
        let name = self.fresh();
        let iv = self.fresh();
        let konst = |i: &Idx| i.aff.as_ref().and_then(Aff::as_constant).is_some();
        let affine_bounds = lb.aff.is_some()
            && ubs.iter().all(|(u, _)| u.aff.is_some())
            && (up || c.step == -1 || (konst(&lb) && ubs.iter().all(|(u, _)| konst(u))));
        // A loop counting down by more than one: its trip count, a
        // constant where it is affine.
        let down_trip =
            (!up && c.step != -1 && affine_bounds).then(|| self.down_trips(&lb, &ubs, -c.step));
        let cont = self.continue_flag(body);
        let target = Target {
            brk: None,
            cont,
            is_loop: true,
        };
        let iter_args = if k > 0 {
            let pairs: Vec<String> = args
                .iter()
                .zip(&inits)
                .map(|(a, i)| format!("{a} = {i}"))
                .collect();
            format!(" iter_args({}) -> ({})", pairs.join(", "), types.join(", "))
        } else {
            String::new()
        };
        let lb_aff = lb.aff.clone();
        // The body, with the variable's value from the induction variable.
        let mut value_of_iv = |f: &mut Self| -> R<()> {
            let iv_idx = Idx {
                v: iv.clone(),
                aff: if affine_bounds {
                    Some(Aff::operand(Operand::Dim(iv.clone())))
                } else {
                    None
                },
            };
            let x = if up {
                iv_idx
            } else if affine_bounds {
                // i = lb - step * ii
                let form = lb_aff
                    .as_ref()
                    .and_then(|l| l.sub(&iv_idx.aff.as_ref()?.scale(-c.step)?));
                let form = form.ok_or_else(|| f.error("a loop bound too large"))?;
                let v = f.op(&format!(
                    "affine.apply {}",
                    aff::map(std::slice::from_ref(&form))
                ));
                Idx { v, aff: Some(form) }
            } else {
                let t = f.index_const(-c.step);
                let m = f.op(&format!("arith.muli {}, {} : index", iv, t.v));
                let v = f.op(&format!("arith.subi {}, {m} : index", lb.v));
                Idx { v, aff: None }
            };
            let v = f.int_of_index(&x, &var_t);
            f.env[var] = Some(v);
            f.clear(cont);
            f.stmt(body)
        };
        let (lines, yields) = self.loop_body(&carried, &args, target, &mut value_of_iv)?;
        let yield_op = if affine_bounds {
            "affine.yield"
        } else {
            "scf.yield"
        };
        let head = if affine_bounds {
            if up {
                let ub_forms: Vec<Aff> = ubs
                    .iter()
                    .map(|(u, incl)| {
                        let a = u.aff.clone().expect("affine");
                        if *incl {
                            a.add(&Aff::constant(1)).unwrap_or(a)
                        } else {
                            a
                        }
                    })
                    .collect();
                let min = if ub_forms.len() > 1 { "min " } else { "" };
                let step = if c.step == 1 {
                    String::new()
                } else {
                    format!(" step {}", c.step)
                };
                format!(
                    "affine.for {iv} = {} to {min}{}{step}",
                    aff::map(&[lb.aff.clone().expect("affine")]),
                    aff::map(&ub_forms)
                )
            } else if let Some(trip) = &down_trip {
                format!(
                    "affine.for {iv} = 0 to {}",
                    aff::map(&[trip.aff.clone().expect("affine")])
                )
            } else {
                let trips: Option<Vec<Aff>> = ubs
                    .iter()
                    .map(|(u, incl)| {
                        lb.aff
                            .as_ref()?
                            .sub(u.aff.as_ref()?)?
                            .add(&Aff::constant(i64::from(*incl)))
                    })
                    .collect();
                let trips = trips.ok_or_else(|| self.error("a loop bound too large"))?;
                let min = if trips.len() > 1 { "min " } else { "" };
                format!("affine.for {iv} = 0 to {min}{}", aff::map(&trips))
            }
        } else {
            let (from, to, step) = self.scf_bounds(&lb, &ubs, c.step);
            format!("scf.for {iv} = {} to {} step {}", from.v, to.v, step.v)
        };
        self.emit(format!(
            "{}{head}{iter_args} {{",
            Self::result_prefix(&name, k)
        ));
        for l in lines {
            self.emit(l);
        }
        if k > 0 {
            self.emit(format!(
                "  {yield_op} {} : {}",
                yields.join(", "),
                types.join(", ")
            ));
        }
        let loc = n.loc.as_ref().map(loc_text).unwrap_or_default();
        self.emit(format!("}}{} {loc}", Self::label_attr(label)));
        for (j, &i) in carried.iter().enumerate() {
            let t = self.vars[i].ty.clone();
            let v = self.val(Self::result_ref(&name, k, j), &t, None);
            self.env[i] = Some(v);
        }
        if c.decl.is_none() {
            // The variable's value after the loop.
            let last = self.final_value(&lb, &ubs, c.step);
            let v = self.int_of_index(&last, &var_t);
            let v = self.val(v.v, &var_t, None);
            self.env[var] = Some(v);
        }
        Ok(())
    }

    /// `a op b` on `index` values (`arith.addi`, `subi`, `muli`,
    /// `floordivsi`, `ceildivsi`, `minsi`, `maxsi`), folded where both
    /// are constants.
    fn index_binary(&mut self, op: &str, a: &Idx, b: &Idx) -> Idx {
        let konst = |i: &Idx| i.aff.as_ref().and_then(Aff::as_constant);
        if let (Some(x), Some(y)) = (konst(a), konst(b)) {
            let folded = match op {
                "addi" => x.checked_add(y),
                "subi" => x.checked_sub(y),
                "muli" => x.checked_mul(y),
                "floordivsi" if y != 0 => {
                    Some(x.div_euclid(y) - i64::from(x.rem_euclid(y) != 0 && y < 0))
                }
                "ceildivsi" if y != 0 => {
                    Some(-((-x).div_euclid(y) - i64::from((-x).rem_euclid(y) != 0 && y < 0)))
                }
                "minsi" => Some(x.min(y)),
                "maxsi" => Some(x.max(y)),
                _ => None,
            };
            if let Some(v) = folded {
                return self.index_const(v);
            }
        }
        let v = self.op(&format!("arith.{op} {}, {} : index", a.v, b.v));
        let aff = match (op, &a.aff, &b.aff) {
            ("addi", Some(x), Some(y)) => x.add(y),
            ("subi", Some(x), Some(y)) => x.sub(y),
            _ => None,
        };
        Idx { v, aff }
    }

    /// The `scf.for` bounds of a counted loop: from, to, step (a loop
    /// counting down runs over the reflected index).
    fn scf_bounds(&mut self, lb: &Idx, ubs: &[(Idx, bool)], step: i64) -> (Idx, Idx, Idx) {
        let one = self.index_const(1);
        if step > 0 {
            let mut to: Option<Idx> = None;
            for (u, incl) in ubs {
                let u = if *incl {
                    self.index_binary("addi", u, &one)
                } else {
                    u.clone()
                };
                to = Some(match to {
                    None => u,
                    Some(t) => self.index_binary("minsi", &t, &u),
                });
            }
            let s = self.index_const(step);
            return (lb.clone(), to.expect("a bound"), s);
        }
        let trip = self.down_trips(lb, ubs, -step);
        let zero = self.index_const(0);
        (zero, trip, one)
    }

    /// The iterations of a loop counting down from `lb` by `t` while
    /// above the bounds: `floor((lb - u - 1 + incl) / t) + 1` (at most 0
    /// where negative), the least over the bounds.
    fn down_trips(&mut self, lb: &Idx, ubs: &[(Idx, bool)], t: i64) -> Idx {
        let mut trip: Option<Idx> = None;
        let one = self.index_const(1);
        for (u, incl) in ubs {
            let d = self.index_binary("subi", lb, u);
            let adj = self.index_const(i64::from(*incl) - 1);
            let d = self.index_binary("addi", &d, &adj);
            let tv = self.index_const(t);
            let q = self.index_binary("floordivsi", &d, &tv);
            let n = self.index_binary("addi", &q, &one);
            trip = Some(match trip {
                None => n,
                Some(p) => self.index_binary("minsi", &p, &n),
            });
        }
        trip.expect("a bound")
    }

    /// The loop variable's value once a counted loop ends.
    fn final_value(&mut self, lb: &Idx, ubs: &[(Idx, bool)], step: i64) -> Idx {
        let zero = self.index_const(0);
        let trip = if step > 0 {
            let (_, to, _) = self.scf_bounds(lb, ubs, 1);
            let d = self.index_binary("subi", &to, lb);
            let s = self.index_const(step);
            self.index_binary("ceildivsi", &d, &s)
        } else {
            self.down_trips(lb, ubs, -step)
        };
        let trip = self.index_binary("maxsi", &trip, &zero);
        let s = self.index_const(step);
        let m = self.index_binary("muli", &trip, &s);
        self.index_binary("addi", lb, &m)
    }

    /// A loop as `scf.while`: `cond` tested before each iteration (after
    /// the body for a `do` loop), `inc` run after the body.
    fn while_loop(
        &mut self,
        n: &Node,
        cond: Option<&Node>,
        body: &Node,
        inc: Option<&Node>,
        label: Option<&str>,
        do_while: bool,
    ) -> R<()> {
        if scan::jumps(body) {
            return Err(self.error_at(n, "goto is not supported in a kernel"));
        }
        let ex = scan::exits(body);
        let brk = ex.brk.then(|| self.new_var(CType::Bool));
        self.clear(brk);
        let mut parts: Vec<&Node> = vec![body];
        parts.extend(cond.filter(|c| !c.is_empty()));
        parts.extend(inc.filter(|c| !c.is_empty()));
        let mut carried = self.carried(&parts, None);
        carried.extend(brk);
        if ex.ret {
            if let Some((flag, value)) = self.ret {
                carried.push(flag);
                carried.extend(value);
            }
        }
        let inits: Vec<String> = carried.iter().map(|&i| self.var_value(i).v).collect();
        let types = self.types_of(&carried);
        let k = carried.len();
        let before_args: Vec<String> = carried.iter().map(|_| self.fresh()).collect();
        let after_args: Vec<String> = carried.iter().map(|_| self.fresh()).collect();
        let ret_flag = if ex.ret { self.ret.map(|r| r.0) } else { None };
        let cont = self.continue_flag(body);
        let target = |brk| Target {
            brk,
            cont,
            is_loop: true,
        };
        // Whether to go on: no flag set, and the condition.
        let test = |f: &mut Self| -> R<String> {
            let mut stop = Vec::new();
            for flag in brk.iter().chain(ret_flag.iter()) {
                let v = f.var_value(*flag);
                stop.push(v.v);
            }
            let cond = cond.filter(|c| !c.is_empty());
            let run = |f: &mut Self| -> R<String> {
                match cond {
                    Some(c) => Ok(f.condition(c)?.i1),
                    None => Ok(f.int_const(&CType::Bool, 1).v),
                }
            };
            if stop.is_empty() {
                return run(f);
            }
            let mut any = stop[0].clone();
            for s in &stop[1..] {
                any = f.op(&format!("arith.ori {any}, {s} : i1"));
            }
            let go = f.not(&any);
            let v = f.branch(
                &super::expr::Cond { i1: go, set: None },
                &mut |f| {
                    let c = run(f)?;
                    Ok(Some(Val {
                        v: c,
                        ty: CType::Bool,
                        aff: None,
                        konst: None,
                    }))
                },
                Some(&mut |f| Ok(Some(f.int_const(&CType::Bool, 0)))),
                Some(CType::Bool),
            )?;
            Ok(v.expect("a value").v)
        };
        // The body, then the increment unless a flag stopped the loop.
        let mut run_body = |f: &mut Self| -> R<()> {
            f.clear(cont);
            f.stmt(body)?;
            let Some(inc) = inc.filter(|c| !c.is_empty()) else {
                return Ok(());
            };
            let mut stop = Vec::new();
            for flag in brk.iter().chain(ret_flag.iter()) {
                stop.push(f.var_value(*flag));
            }
            let live: Vec<String> = stop
                .into_iter()
                .filter(|v| v.konst.is_none())
                .map(|v| v.v)
                .collect();
            if live.is_empty() {
                f.rvalue(inc)?;
                return Ok(());
            }
            let mut any = live[0].clone();
            for s in &live[1..] {
                any = f.op(&format!("arith.ori {any}, {s} : i1"));
            }
            let go = f.not(&any);
            f.branch(
                &super::expr::Cond { i1: go, set: None },
                &mut |f| {
                    f.rvalue(inc)?;
                    Ok(None)
                },
                None,
                None,
            )?;
            Ok(())
        };
        let (before, after) = if do_while {
            let mut b = |f: &mut Self| -> R<()> {
                run_body(f)?;
                let c = test(f)?;
                f.pending_condition = Some(c);
                Ok(())
            };
            let (mut lines, forwarded) =
                self.loop_body(&carried, &before_args, target(brk), &mut b)?;
            let c = self.pending_condition.take().expect("a condition");
            lines.push(Self::condition_line(&c, &forwarded, &types));
            let after = vec![format!(
                "  scf.yield {}{}",
                after_args.join(", "),
                Self::type_suffix(&types)
            )];
            (lines, after)
        } else {
            let mut b = |f: &mut Self| -> R<()> {
                let c = test(f)?;
                f.pending_condition = Some(c);
                Ok(())
            };
            let (mut lines, forwarded) =
                self.loop_body(&carried, &before_args, target(None), &mut b)?;
            let c = self.pending_condition.take().expect("a condition");
            lines.push(Self::condition_line(&c, &forwarded, &types));
            let (mut after, yields) =
                self.loop_body(&carried, &after_args, target(brk), &mut run_body)?;
            after.push(format!(
                "  scf.yield {}{}",
                yields.join(", "),
                Self::type_suffix(&types)
            ));
            (lines, after)
        };
        let pairs: Vec<String> = before_args
            .iter()
            .zip(&inits)
            .map(|(a, i)| format!("{a} = {i}"))
            .collect();
        let name = self.fresh();
        self.at = n.loc.clone();
        self.emit(format!(
            "{}scf.while ({}) : ({}) -> ({}) {{",
            Self::result_prefix(&name, k),
            pairs.join(", "),
            types.join(", "),
            types.join(", ")
        ));
        for l in before {
            self.emit(l);
        }
        self.emit("} do {".into());
        let block_args: Vec<String> = after_args
            .iter()
            .zip(&types)
            .map(|(a, t)| format!("{a}: {t}"))
            .collect();
        self.emit(format!("^bb0({}):", block_args.join(", ")));
        for l in after {
            self.emit(l);
        }
        let loc = n.loc.as_ref().map(loc_text).unwrap_or_default();
        let attrs = label
            .map(|l| format!(" attributes {{hls.label = \"{l}\"}}"))
            .unwrap_or_default();
        self.emit(format!("}}{attrs} {loc}"));
        for (j, &i) in carried.iter().enumerate() {
            let t = self.vars[i].ty.clone();
            let v = self.val(Self::result_ref(&name, k, j), &t, None);
            self.env[i] = Some(v);
        }
        Ok(())
    }

    fn type_suffix(types: &[String]) -> String {
        if types.is_empty() {
            String::new()
        } else {
            format!(" : {}", types.join(", "))
        }
    }

    fn condition_line(c: &str, forwarded: &[String], types: &[String]) -> String {
        if forwarded.is_empty() {
            format!("  scf.condition({c})")
        } else {
            format!(
                "  scf.condition({c}) {}{}",
                forwarded.join(", "),
                Self::type_suffix(types)
            )
        }
    }
}
