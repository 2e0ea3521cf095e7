//! The translation unit as the lowering sees it: its function
//! definitions, typedefs, enumeration constants and global variables,
//! each found once in clang's tree, and the functions a kernel needs
//! (a top function and what it calls, or every function the input
//! file defines), with recursion refused at the call that closes the
//! cycle.

use crate::json::{Loc, Node};
use crate::types::{CType, Typedefs};
use crate::Error;
use std::collections::HashMap;

/// The declarations of a translation unit.
pub struct Unit {
    /// The `TranslationUnitDecl`.
    pub root: Node,
    /// The file clang was given (locations in it are the input's).
    pub main_file: String,
    pub typedefs: Typedefs,
    /// Function name to the index in `root.inner` of its definition.
    pub definitions: HashMap<String, usize>,
    /// Enumeration constant (declaration id) to its value.
    pub enum_values: HashMap<String, i128>,
    /// Global variable (declaration id) to its index in `root.inner`.
    pub globals: HashMap<String, usize>,
}

impl Unit {
    pub fn new(root: Node, main_file: &str) -> Unit {
        let mut unit = Unit {
            root,
            main_file: main_file.to_string(),
            typedefs: Typedefs::new(),
            definitions: HashMap::new(),
            enum_values: HashMap::new(),
            globals: HashMap::new(),
        };
        let mut typedefs = Typedefs::new();
        let mut enums = HashMap::new();
        collect(&unit.root, &mut typedefs, &mut enums);
        unit.typedefs = typedefs;
        unit.enum_values = enums;
        for (i, d) in unit.root.inner.iter().enumerate() {
            match d.kind.as_str() {
                "FunctionDecl" if body(d).is_some() => {
                    unit.definitions.insert(d.name().to_string(), i);
                }
                "VarDecl" => {
                    unit.globals.insert(d.id.clone(), i);
                }
                _ => {}
            }
        }
        unit
    }

    /// The definition of function `name`.
    pub fn definition(&self, name: &str) -> Option<&Node> {
        self.definitions.get(name).map(|&i| &self.root.inner[i])
    }

    /// A global variable's declaration.
    pub fn global(&self, id: &str) -> Option<&Node> {
        self.globals.get(id).map(|&i| &self.root.inner[i])
    }

    /// The type clang spells `text`.
    pub fn ctype(&self, text: &str) -> CType {
        CType::parse(text, &self.typedefs)
    }

    /// Whether `loc` is in the input file (not a header).
    pub fn in_main_file(&self, loc: &Option<Loc>) -> bool {
        loc.as_ref().is_some_and(|l| *l.file == *self.main_file)
    }

    /// The functions to lower: `top` and the functions it calls,
    /// callees first; or, without a top, every function the input
    /// file defines and what they call.
    pub fn selection(&self, top: Option<&str>) -> Result<Vec<String>, Error> {
        let roots: Vec<String> = match top {
            Some(t) => {
                if self.definition(t).is_none() {
                    return Err(Error::new(
                        None,
                        format!("the translation unit has no definition of function '{t}' (--top)"),
                    ));
                }
                vec![t.to_string()]
            }
            None => {
                let mut names: Vec<(usize, String)> = self
                    .definitions
                    .iter()
                    .filter(|(_, &i)| self.in_main_file(&self.root.inner[i].loc))
                    .map(|(n, &i)| (i, n.clone()))
                    .collect();
                names.sort();
                names.into_iter().map(|(_, n)| n).collect()
            }
        };
        let mut order = Vec::new();
        let mut state: HashMap<String, bool> = HashMap::new();
        for r in roots {
            self.visit(&r, &mut Vec::new(), &mut state, &mut order)?;
        }
        Ok(order)
    }

    /// Depth-first over calls: `state` false while on the stack, true
    /// when done.
    fn visit(
        &self,
        name: &str,
        stack: &mut Vec<String>,
        state: &mut HashMap<String, bool>,
        order: &mut Vec<String>,
    ) -> Result<(), Error> {
        if state.get(name) == Some(&true) {
            return Ok(());
        }
        state.insert(name.to_string(), false);
        stack.push(name.to_string());
        let def = self.definition(name).expect("a definition");
        let mut calls = Vec::new();
        callees(def, &mut calls);
        for (callee, loc) in calls {
            if self.definition(&callee).is_none() {
                continue;
            }
            if state.get(&callee) == Some(&false) {
                let cycle = if callee == name {
                    format!("'{name}' calls itself")
                } else {
                    let from = stack.iter().position(|f| *f == callee).unwrap_or(0);
                    format!("'{}' calls '{callee}'", stack[from..].join("' calls '"))
                };
                return Err(Error::new(
                    loc,
                    format!("recursion is not supported in a kernel: {cycle}"),
                ));
            }
            self.visit(&callee, stack, state, order)?;
        }
        stack.pop();
        state.insert(name.to_string(), true);
        order.push(name.to_string());
        Ok(())
    }
}

/// The body of a function definition.
pub fn body(f: &Node) -> Option<&Node> {
    f.inner.iter().find(|n| n.kind == "CompoundStmt")
}

/// The parameters of a function.
pub fn params(f: &Node) -> impl Iterator<Item = &Node> {
    f.inner.iter().filter(|n| n.kind == "ParmVarDecl")
}

/// The name of the function a call calls directly, if it does.
pub fn direct_callee(call: &Node) -> Option<&str> {
    let mut callee = call.inner.first()?;
    loop {
        match callee.kind.as_str() {
            "ImplicitCastExpr" | "ParenExpr" => callee = callee.inner.first()?,
            "DeclRefExpr" => {
                let d = callee.attr("referencedDecl")?;
                return (d.get("kind")?.as_str()? == "FunctionDecl")
                    .then(|| d.get("name")?.as_str())
                    .flatten();
            }
            _ => return None,
        }
    }
}

fn callees(n: &Node, out: &mut Vec<(String, Option<Loc>)>) {
    if n.kind == "CallExpr" {
        if let Some(name) = direct_callee(n) {
            out.push((name.to_string(), n.loc.clone()));
        }
    }
    for c in &n.inner {
        callees(c, out);
    }
}

fn collect(n: &Node, typedefs: &mut Typedefs, enums: &mut HashMap<String, i128>) {
    match n.kind.as_str() {
        "TypedefDecl" => {
            if let Some(t) = n.type_spelling() {
                typedefs.insert(n.name().to_string(), t.to_string());
            }
        }
        "EnumDecl" => {
            let mut next: i128 = 0;
            for c in n.inner.iter().filter(|c| c.kind == "EnumConstantDecl") {
                let value = c.inner.iter().find_map(constant_value).unwrap_or(next);
                enums.insert(c.id.clone(), value);
                next = value + 1;
            }
        }
        _ => {}
    }
    for c in &n.inner {
        collect(c, typedefs, enums);
    }
}

/// The value clang computed for a constant expression (`ConstantExpr`'s
/// `value`).
pub fn constant_value(n: &Node) -> Option<i128> {
    if n.kind == "ConstantExpr" {
        if let Some(v) = n.str("value") {
            return v.parse().ok();
        }
    }
    None
}
