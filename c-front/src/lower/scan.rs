//! Questions about a statement or expression asked before it is
//! lowered: which variables it assigns (a loop carries them), whether a
//! `break`, `continue` or `return` leaves it (the statements after it
//! then test a flag), whether it loads, stores, calls or has side
//! effects (whether a loop bound can be evaluated once).

use crate::json::Node;

/// The declaration a `DeclRefExpr` (under parentheses) names.
pub fn decl_ref(n: &Node) -> Option<&str> {
    let mut n = n;
    while n.kind == "ParenExpr" {
        n = &n.inner[0];
    }
    (n.kind == "DeclRefExpr")
        .then(|| n.attr("referencedDecl")?.get("id")?.as_str())
        .flatten()
}

fn is_assignment(n: &Node) -> bool {
    match n.kind.as_str() {
        "BinaryOperator" => n.str("opcode") == Some("="),
        "CompoundAssignOperator" => true,
        "UnaryOperator" => matches!(n.str("opcode"), Some("++" | "--")),
        _ => false,
    }
}

/// The declarations of the variables `n` assigns (`=`, `op=`, `++`,
/// `--`), in order of first assignment.
pub fn assigned(n: &Node) -> Vec<String> {
    let mut out = Vec::new();
    walk(n, &mut |x| {
        if is_assignment(x) {
            if let Some(id) = x.inner.first().and_then(decl_ref) {
                if !out.iter().any(|o| o == id) {
                    out.push(id.to_string());
                }
            }
        }
    });
    out
}

/// Whether `n` takes the address of declaration `id`.
pub fn address_taken(n: &Node, id: &str) -> bool {
    let mut found = false;
    walk(n, &mut |x| {
        if x.kind == "UnaryOperator"
            && x.str("opcode") == Some("&")
            && x.inner.first().and_then(decl_ref) == Some(id)
        {
            found = true;
        }
    });
    found
}

/// Calls `f` on `n` and every node below it.
pub fn walk(n: &Node, f: &mut dyn FnMut(&Node)) {
    f(n);
    for c in &n.inner {
        walk(c, f);
    }
}

/// What may leave a statement: a `break` or `continue` of the loop or
/// `switch` around it, a `return`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Exits {
    pub brk: bool,
    pub cont: bool,
    pub ret: bool,
}

impl Exits {
    pub fn any(&self) -> bool {
        self.brk || self.cont || self.ret
    }
}

/// The exits of `n`.
pub fn exits(n: &Node) -> Exits {
    let mut e = Exits::default();
    exits_into(n, &mut e, false, false);
    e
}

/// `in_loop`: below a loop of `n` (its `break` and `continue` stay
/// inside); `in_switch`: below a `switch` (its `break` does).
fn exits_into(n: &Node, e: &mut Exits, in_loop: bool, in_switch: bool) {
    match n.kind.as_str() {
        "BreakStmt" if !in_loop && !in_switch => e.brk = true,
        "ContinueStmt" if !in_loop => e.cont = true,
        "ReturnStmt" => e.ret = true,
        "ForStmt" | "WhileStmt" | "DoStmt" => {
            for c in &n.inner {
                exits_into(c, e, true, in_switch);
            }
        }
        "SwitchStmt" => {
            for c in &n.inner {
                exits_into(c, e, in_loop, true);
            }
        }
        _ => {
            for c in &n.inner {
                exits_into(c, e, in_loop, in_switch);
            }
        }
    }
}

/// Whether a function body has a `return` other than its last
/// statement.
pub fn returns_before_end(body: &Node) -> bool {
    let last = body.inner.last();
    let mut count = 0;
    walk(body, &mut |x| {
        if x.kind == "ReturnStmt" {
            count += 1;
        }
    });
    let tail = last.is_some_and(|l| l.kind == "ReturnStmt");
    count > usize::from(tail)
}

/// Whether `n` reads an array element.
pub fn loads(n: &Node) -> bool {
    let mut found = false;
    walk(n, &mut |x| {
        found |= x.kind == "ArraySubscriptExpr"
            || (x.kind == "UnaryOperator" && x.str("opcode") == Some("*"))
    });
    found
}

/// Whether `n` writes an array element (or calls, which may).
pub fn stores(n: &Node) -> bool {
    let mut found = false;
    walk(n, &mut |x| {
        if x.kind == "CallExpr" {
            found = true;
        }
        if is_assignment(x) && x.inner.first().and_then(decl_ref).is_none() {
            found = true;
        }
    });
    found
}

/// Whether `n` assigns, increments or calls.
pub fn side_effects(n: &Node) -> bool {
    let mut found = false;
    walk(n, &mut |x| {
        found |= is_assignment(x) || x.kind == "CallExpr"
    });
    found
}

/// The declarations `n` names.
pub fn refs(n: &Node) -> Vec<String> {
    let mut out = Vec::new();
    walk(n, &mut |x| {
        if let Some(id) = decl_ref(x) {
            out.push(id.to_string());
        }
    });
    out
}

/// Whether `n` holds a `goto` or a label.
pub fn jumps(n: &Node) -> bool {
    let mut found = false;
    walk(n, &mut |x| {
        found |= matches!(x.kind.as_str(), "GotoStmt" | "IndirectGotoStmt")
    });
    found
}
