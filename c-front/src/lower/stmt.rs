//! Statements: blocks (the statements after one that may `break`,
//! `continue` or `return` run under a test of its flag), declarations
//! (scalars become SSA values; arrays `memref.alloca`s at the function's
//! entry, or constant globals), `if` (`affine.if` where its condition is
//! affine, else `scf.if`, yielding the variables a branch assigns),
//! `switch` (its cases in order under a test of the value and a flag of
//! whether one matched), `return`, `break` and `continue`.

use super::expr::Cond;
use super::scan;
use super::signature::{memref_type, static_array};
use super::value::{Konst, Val};
use super::{affine, loc_text, Binding, Func, Mem, Target, R};
use crate::json::Node;
use crate::types::CType;

impl Func<'_> {
    /// Lowers a statement.
    pub fn stmt(&mut self, n: &Node) -> R<()> {
        if n.loc.is_some() {
            self.at = n.loc.clone();
        }
        match n.kind.as_str() {
            "" | "NullStmt" => Ok(()),
            "CompoundStmt" => self.compound(&n.inner),
            "DeclStmt" => {
                for d in &n.inner {
                    self.declare(d)?;
                }
                Ok(())
            }
            "IfStmt" => self.if_stmt(n),
            "ForStmt" => self.for_stmt(n, None),
            "WhileStmt" => self.while_stmt(n, None),
            "DoStmt" => self.do_stmt(n, None),
            "SwitchStmt" => self.switch_stmt(n),
            "ReturnStmt" => self.return_stmt(n),
            "BreakStmt" => {
                let Some(flag) = self.targets.last().and_then(|t| t.brk) else {
                    return Err(self.error_at(n, "'break' outside a loop or switch"));
                };
                let t = self.int_const(&CType::Bool, 1);
                self.env[flag] = Some(t);
                Ok(())
            }
            "ContinueStmt" => {
                let Some(flag) = self
                    .targets
                    .iter()
                    .rev()
                    .find(|t| t.is_loop)
                    .and_then(|t| t.cont)
                else {
                    return Err(self.error_at(n, "'continue' outside a loop"));
                };
                let t = self.int_const(&CType::Bool, 1);
                self.env[flag] = Some(t);
                Ok(())
            }
            "LabelStmt" => {
                // A label names the loop it labels (`hls.label`), as a
                // directive names it; goto is not supported.
                let inner = &n.inner[0];
                let label = n.name().to_string();
                match inner.kind.as_str() {
                    "ForStmt" => self.for_stmt(inner, Some(&label)),
                    "WhileStmt" => self.while_stmt(inner, Some(&label)),
                    "DoStmt" => self.do_stmt(inner, Some(&label)),
                    _ => self.stmt(inner),
                }
            }
            "GotoStmt" | "IndirectGotoStmt" => {
                Err(self.error_at(n, "goto is not supported in a kernel"))
            }
            "AttributedStmt" => self.stmt(n.inner.last().expect("a statement")),
            k if k.ends_with("Expr") || k.ends_with("Operator") || k.ends_with("Literal") => {
                self.rvalue(n)?;
                Ok(())
            }
            "GCCAsmStmt" | "MSAsmStmt" => {
                Err(self.error_at(n, "inline assembly is not supported in a kernel"))
            }
            other => Err(self.error_at(
                n,
                format!("the statement '{other}' is not supported in a kernel"),
            )),
        }
    }

    /// A list of statements; those after one that may leave it run
    /// under a test of the flags it may set.
    pub fn compound(&mut self, stmts: &[Node]) -> R<()> {
        for (k, s) in stmts.iter().enumerate() {
            if self.returned {
                break;
            }
            self.stmt(s)?;
            let ex = scan::exits(s);
            if !ex.any() || k + 1 == stmts.len() {
                continue;
            }
            let mut flags = Vec::new();
            if ex.brk {
                flags.extend(self.targets.last().and_then(|t| t.brk));
            }
            if ex.cont {
                flags.extend(
                    self.targets
                        .iter()
                        .rev()
                        .find(|t| t.is_loop)
                        .and_then(|t| t.cont),
                );
            }
            if ex.ret {
                flags.extend(self.ret.map(|r| r.0));
            }
            let mut live = Vec::new();
            for f in flags {
                let v = self.var_value(f);
                match v.konst {
                    Some(Konst::Int(0)) => {}
                    Some(_) => return Ok(()),
                    None => live.push(v.v),
                }
            }
            if live.is_empty() {
                continue;
            }
            let mut any = live[0].clone();
            for f in &live[1..] {
                any = self.op(&format!("arith.ori {any}, {f} : i1"));
            }
            let go_on = self.not(&any);
            let rest = &stmts[k + 1..];
            self.branch(
                &Cond {
                    i1: go_on,
                    set: None,
                },
                &mut |f| {
                    f.compound(rest)?;
                    Ok(None)
                },
                None,
                None,
            )?;
            return Ok(());
        }
        Ok(())
    }

    /// A declaration in a function.
    fn declare(&mut self, d: &Node) -> R<()> {
        if d.kind != "VarDecl" {
            return Ok(());
        }
        self.at = d.loc.clone();
        let spelled = d.type_spelling().unwrap_or_default().to_string();
        let t = self.unit.ctype(&spelled);
        let name = d.name().to_string();
        let init = d.inner.first().filter(|_| d.str("init").is_some());
        let constant = spelled.trim_start().starts_with("const ");
        match d.str("storageClass") {
            Some("static") if constant && init.is_some() && matches!(t, CType::Array(..)) => {
                let b = self.constant_array(d, &t, init.expect("an initializer"))?;
                self.bindings.insert(d.id.clone(), b);
                return Ok(());
            }
            Some("static" | "extern") => {
                return Err(self.error_at(d, format!("'{name}' is static or extern: a kernel's local variables are automatic (a constant array may be 'static const')")));
            }
            _ => {}
        }
        if t.is_scalar() {
            let var = self.new_var(t.clone());
            self.bindings.insert(d.id.clone(), Binding::Var(var));
            if let Some(init) = init {
                let v = self.rvalue(init)?;
                let v = self.convert(&v, &t)?;
                self.env[var] = Some(v);
            }
            return Ok(());
        }
        if let Some(init) = init {
            self.refuse_allocation(init)?;
        }
        let Some((shape, elem)) = static_array(&t) else {
            let why = match t {
                CType::Pointer(_) => "pointer variables are not supported in a kernel: subscript the array instead".to_string(),
                _ => format!("'{name}' has type '{spelled}': a kernel's variables are integers, floats and arrays of them of static size"),
            };
            return Err(self.error_at(d, why));
        };
        if let (Some(init), true) = (init, constant) {
            let b = self.constant_array(d, &t, init)?;
            self.bindings.insert(d.id.clone(), b);
            return Ok(());
        }
        let ty = memref_type(&shape, &elem);
        let v = self.fresh();
        let loc = d.loc.as_ref().map(loc_text).unwrap_or_default();
        self.prologue.push(format!(
            "{v} = memref.alloca() {{hls.name = \"{name}\"}} : {ty} {loc}"
        ));
        let mem = Mem { v, ty, shape, elem };
        self.bindings
            .insert(d.id.clone(), Binding::Mem(mem.clone()));
        if let Some(init) = init {
            self.initialize(&mem, init)?;
        }
        Ok(())
    }

    /// An error at a call of an allocation function in `n`.
    fn refuse_allocation(&self, n: &Node) -> R<()> {
        let mut found = None;
        scan::walk(n, &mut |x| {
            if x.kind == "CallExpr" && found.is_none() {
                if let Some(name) = crate::unit::direct_callee(x) {
                    if super::calls::ALLOCATION.contains(&name.trim_start_matches("__builtin_")) {
                        found = Some((x.loc.clone(), name.to_string()));
                    }
                }
            }
        });
        match found {
            Some((loc, name)) => Err(super::Fail::Error(crate::Error::new(
                loc,
                format!("dynamic allocation ('{name}') is not supported in a kernel: use arrays of static size"),
            ))),
            None => Ok(()),
        }
    }

    /// A constant array (`static const` or `const` with constant
    /// values): a constant global.
    fn constant_array(&mut self, d: &Node, t: &CType, init: &Node) -> R<Binding> {
        let (Some((shape, elem)), true) = (static_array(t), init.kind == "InitListExpr") else {
            return Err(self.error_at(
                d,
                "a constant array needs a static size and a list of constants",
            ));
        };
        let mem = self.rom(d.name(), shape, elem, init, d)?;
        Ok(Binding::Mem(mem))
    }

    /// Stores the values of an initializer list into a local array
    /// (zeros where it gives none).
    fn initialize(&mut self, mem: &Mem, init: &Node) -> R<()> {
        if init.kind != "InitListExpr" {
            return Err(self.error_at(init, "an array is initialized by a list"));
        }
        let count: u64 = mem.shape.iter().product();
        let mut slots: Vec<Option<&Node>> = vec![None; count as usize];
        fill_slots(init, &mem.shape, 0, &mut slots);
        for (pos, slot) in slots.iter().enumerate() {
            let v = match slot {
                Some(n) => {
                    let v = self.rvalue(n)?;
                    self.convert(&v, &mem.elem)?
                }
                None => self.zero(&mem.elem),
            };
            let mut rest = pos as u64;
            let mut idx = Vec::new();
            for d in mem.shape.iter().rev() {
                idx.push(self.index_const((rest % d) as i64));
                rest /= d;
            }
            idx.reverse();
            self.at = init.loc.clone();
            self.store(&super::place::Place::Elem(mem.clone(), idx), v)?;
        }
        Ok(())
    }

    fn if_stmt(&mut self, n: &Node) -> R<()> {
        let has_else = n.flag("hasElse");
        let cond_node = n
            .inner
            .iter()
            .find(|c| !c.is_empty() && c.kind != "VarDecl");
        let Some(cond_node) = cond_node else {
            return Err(self.error_at(n, "an if without a condition"));
        };
        let pos = n
            .inner
            .iter()
            .position(|c| std::ptr::eq(c, cond_node))
            .unwrap_or(0);
        let then = &n.inner[pos + 1];
        let els = if has_else { n.inner.get(pos + 2) } else { None };
        let cond = self.condition(cond_node)?;
        self.at = n.loc.clone();
        match els {
            Some(e) => self.branch(
                &cond,
                &mut |f| {
                    f.stmt(then)?;
                    Ok(None)
                },
                Some(&mut |f| {
                    f.stmt(e)?;
                    Ok(None)
                }),
                None,
            )?,
            None => self.branch(
                &cond,
                &mut |f| {
                    f.stmt(then)?;
                    Ok(None)
                },
                None,
                None,
            )?,
        };
        Ok(())
    }

    fn return_stmt(&mut self, n: &Node) -> R<()> {
        let value = match n.inner.first() {
            Some(e) => {
                let v = self.rvalue(e)?;
                match self.result.clone() {
                    Some(t) => Some(self.convert(&v, &t)?),
                    None => None,
                }
            }
            None => None,
        };
        self.at = n.loc.clone();
        match self.ret {
            None => {
                match value {
                    Some(v) => {
                        let m = v.ty.mlir().unwrap_or_default();
                        self.effect(&format!("func.return {} : {m}", v.v));
                    }
                    None => {
                        if let Some(t) = self.result.clone() {
                            let z = self.zero(&t);
                            let m = t.mlir().unwrap_or_default();
                            self.effect(&format!("func.return {} : {m}", z.v));
                        } else {
                            self.effect("func.return");
                        }
                    }
                }
                self.returned = true;
            }
            Some((flag, var)) => {
                if let (Some(var), Some(v)) = (var, value) {
                    self.env[var] = Some(v);
                }
                let t = self.int_const(&CType::Bool, 1);
                self.env[flag] = Some(t);
            }
        }
        Ok(())
    }

    /// `switch`: the value once; then each group of statements after
    /// its labels, in order, runs when a label of it or of a group
    /// before it (falling through) matched and no `break` (or
    /// `continue`, `return`) happened since.
    fn switch_stmt(&mut self, n: &Node) -> R<()> {
        let cond_node = n
            .inner
            .iter()
            .find(|c| !c.is_empty() && c.kind != "VarDecl" && c.kind != "CompoundStmt");
        let body = n.inner.iter().find(|c| c.kind == "CompoundStmt");
        let (Some(cond_node), Some(body)) = (cond_node, body) else {
            return Err(self.error_at(
                n,
                "a switch whose body is not a block of cases is not supported in a kernel",
            ));
        };
        let x = self.rvalue(cond_node)?;
        // The groups: the labels (None: default) and statements of each.
        let mut groups: Vec<(Vec<Option<&Node>>, Vec<&Node>)> = Vec::new();
        for s in &body.inner {
            let mut s = s;
            let mut labels = Vec::new();
            loop {
                match s.kind.as_str() {
                    "CaseStmt" => {
                        if s.inner.len() > 2 {
                            return Err(
                                self.error_at(s, "case ranges are not supported in a kernel")
                            );
                        }
                        labels.push(Some(&s.inner[0]));
                        s = &s.inner[s.inner.len() - 1];
                    }
                    "DefaultStmt" => {
                        labels.push(None);
                        s = &s.inner[0];
                    }
                    _ => break,
                }
            }
            if labels.is_empty() {
                match groups.last_mut() {
                    Some(g) => g.1.push(s),
                    None => continue,
                }
            } else {
                groups.push((labels, vec![s]));
            }
        }
        let mut nested = false;
        for (_, stmts) in &groups {
            for s in stmts {
                scan::walk(s, &mut |x| {
                    nested |= matches!(x.kind.as_str(), "CaseStmt" | "DefaultStmt")
                        && !std::ptr::eq(x, *s)
                });
            }
        }
        if nested {
            return Err(self.error_at(
                n,
                "case labels inside nested statements are not supported in a kernel",
            ));
        }
        // Each label's test, and `none` (no case label matches) for default.
        let mut tests: Vec<Vec<String>> = Vec::new();
        let mut all = Vec::new();
        for (labels, _) in &groups {
            let mut t = Vec::new();
            for l in labels.iter().flatten() {
                let c = self.rvalue(l)?;
                let c = self.convert(&c, &x.ty)?;
                let eq = self.compare("==", &x, &c)?;
                all.push(eq.i1.clone());
                t.push(eq.i1);
            }
            tests.push(t);
        }
        let none = if all.is_empty() {
            self.int_const(&CType::Bool, 1).v
        } else {
            let mut any = all[0].clone();
            for a in &all[1..] {
                any = self.op(&format!("arith.ori {any}, {a} : i1"));
            }
            self.not(&any)
        };
        let brk = self.new_var(CType::Bool);
        let f = self.int_const(&CType::Bool, 0);
        self.env[brk] = Some(f.clone());
        let matched = self.new_var(CType::Bool);
        self.env[matched] = Some(f);
        self.targets.push(Target {
            brk: Some(brk),
            cont: None,
            is_loop: false,
        });
        let outer_cont = self
            .targets
            .iter()
            .rev()
            .find(|t| t.is_loop)
            .and_then(|t| t.cont);
        for ((labels, stmts), test) in groups.iter().zip(&tests) {
            let mut m = self.var_value(matched).v;
            for t in test {
                m = self.op(&format!("arith.ori {m}, {t} : i1"));
            }
            if labels.iter().any(Option::is_none) {
                m = self.op(&format!("arith.ori {m}, {none} : i1"));
            }
            self.env[matched] = Some(Val {
                v: m.clone(),
                ty: CType::Bool,
                aff: None,
                konst: None,
            });
            let mut stop = vec![self.var_value(brk).v];
            if let Some(c) = outer_cont {
                stop.push(self.var_value(c).v);
            }
            if let Some((r, _)) = self.ret {
                stop.push(self.var_value(r).v);
            }
            let mut go = m;
            for s in stop {
                let ns = self.not(&s);
                go = self.op(&format!("arith.andi {go}, {ns} : i1"));
            }
            let stmts: Vec<Node> = stmts.iter().map(|s| (*s).clone()).collect();
            self.branch(
                &Cond { i1: go, set: None },
                &mut |f| {
                    f.compound(&stmts)?;
                    Ok(None)
                },
                None,
                None,
            )?;
        }
        self.targets.pop();
        Ok(())
    }

    /// An `scf.if` (or `affine.if` where the condition has affine
    /// constraints) whose branches run `then` and `els` from the same
    /// variables; it yields each variable a branch changed and, with a
    /// `result` type, the branches' values. Gives that value.
    #[allow(clippy::type_complexity)]
    pub fn branch(
        &mut self,
        cond: &Cond,
        then: &mut dyn FnMut(&mut Self) -> R<Option<Val>>,
        els: Option<&mut dyn FnMut(&mut Self) -> R<Option<Val>>>,
        result: Option<CType>,
    ) -> R<Option<Val>> {
        self.not_speculative()?;
        let at = self.at.clone();
        let snapshot = self.env.clone();
        let n = snapshot.len();
        self.open(true);
        let tv = then(self)?;
        let then_env: Vec<Option<Val>> = self.env[..n].to_vec();
        let mut then_lines = self.close();
        self.restore_env(snapshot.clone());
        self.open(true);
        let ev = match els {
            Some(e) => e(self)?,
            None => None,
        };
        let else_env: Vec<Option<Val>> = self.env[..n].to_vec();
        let mut else_lines = self.close();
        self.restore_env(snapshot.clone());
        self.at = at;
        let same = |a: &Option<Val>, b: &Option<Val>| match (a, b) {
            (Some(x), Some(y)) => x.v == y.v,
            (None, None) => true,
            _ => false,
        };
        let changed: Vec<usize> = (0..n)
            .filter(|&i| !same(&then_env[i], &snapshot[i]) || !same(&else_env[i], &snapshot[i]))
            .collect();
        let mut types = Vec::new();
        let mut then_vals = Vec::new();
        let mut else_vals = Vec::new();
        for &i in &changed {
            let t = self.vars[i].ty.clone();
            types.push(t.mlir().unwrap_or_default());
            let a = match &then_env[i] {
                Some(v) => v.v.clone(),
                None => self.zero(&t).v,
            };
            let b = match &else_env[i] {
                Some(v) => v.v.clone(),
                None => self.zero(&t).v,
            };
            then_vals.push(a);
            else_vals.push(b);
        }
        if let Some(t) = &result {
            types.push(t.mlir().unwrap_or_default());
            let (Some(a), Some(b)) = (tv, ev) else {
                return Err(self.error("internal error: a branch without its value"));
            };
            then_vals.push(a.v);
            else_vals.push(b.v);
        }
        let k = types.len();
        let (head, yield_op) = match &cond.set {
            Some(set) => (format!("affine.if {}", affine::set(set)), "affine.yield"),
            None => (format!("scf.if {}", cond.i1), "scf.yield"),
        };
        let name = (k > 0).then(|| self.fresh());
        let mut text = String::new();
        if let Some(name) = &name {
            if k == 1 {
                text.push_str(&format!("{name} = "));
            } else {
                text.push_str(&format!("{name}:{k} = "));
            }
        }
        text.push_str(&head);
        if k > 0 {
            text.push_str(&format!(" -> ({})", types.join(", ")));
            then_lines.push(format!(
                "  {yield_op} {} : {}",
                then_vals.join(", "),
                types.join(", ")
            ));
            else_lines.push(format!(
                "  {yield_op} {} : {}",
                else_vals.join(", "),
                types.join(", ")
            ));
        }
        self.emit(format!("{text} {{"));
        for l in then_lines {
            self.emit(l);
        }
        if !else_lines.is_empty() {
            self.emit("} else {".into());
            for l in else_lines {
                self.emit(l);
            }
        }
        let loc = self.at.as_ref().map(loc_text).unwrap_or_default();
        self.emit(format!("}} {loc}"));
        let Some(name) = name else {
            return Ok(None);
        };
        let results: Vec<String> = if k == 1 {
            vec![name]
        } else {
            (0..k).map(|i| format!("{name}#{i}")).collect()
        };
        for (j, &i) in changed.iter().enumerate() {
            let t = self.vars[i].ty.clone();
            let v = self.val(results[j].clone(), &t, None);
            self.env[i] = Some(v);
        }
        Ok(result.map(|t| self.val(results[k - 1].clone(), &t, None)))
    }
}

/// The initializer of each element of an array of `shape` (row-major),
/// from element `at` on.
fn fill_slots<'n>(init: &'n Node, shape: &[u64], at: usize, out: &mut Vec<Option<&'n Node>>) {
    let stride: u64 = shape[1..].iter().product();
    for (k, item) in init.inner.iter().enumerate() {
        if k as u64 >= shape[0] {
            break;
        }
        let pos = at + k * stride as usize;
        if item.kind == "ImplicitValueInitExpr" {
            continue;
        }
        if shape.len() > 1 {
            if item.kind == "InitListExpr" {
                fill_slots(item, &shape[1..], pos, out);
            }
        } else {
            out[pos] = Some(item);
        }
    }
}
