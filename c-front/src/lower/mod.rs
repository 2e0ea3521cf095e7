//! C functions to MLIR text: `func` with `arith`, `math`, `memref`,
//! `scf` and `affine` ops, each op located at the C source it comes
//! from (`loc("kernel.c":12:5)`), so that what a later stage reports
//! about an op points at the C source.
//!
//! - Scalar variables live in SSA form: the lowering keeps each
//!   variable's current value ([`Func::env`]); a branch yields the
//!   variables it assigns, a loop carries them as `iter_args`.
//! - Arrays (parameters of static size, local arrays, constant global
//!   arrays) are memrefs; `break`, `continue` and `return` inside loops
//!   and branches become flags that the statements after them test.
//! - Static control (loop bounds and subscripts that are affine forms
//!   of enclosing induction variables and function-wide values,
//!   `affine.rs`) becomes `affine.for`, `affine.if`, `affine.load` and
//!   `affine.store`; the rest `scf.for`, `scf.while`, `scf.if` and
//!   `memref.load`/`memref.store`.
//!
//! `value.rs` holds values and conversions, `expr.rs` expressions,
//! `place.rs` variables and array elements, `calls.rs` calls,
//! `stmt.rs` statements and `loops.rs` loops; `scan.rs` answers
//! questions about a statement before it is lowered.

mod affine;
mod calls;
mod expr;
mod loops;
mod place;
mod scan;
mod signature;
mod stmt;
mod value;

use crate::json::{Loc, Node};
use crate::program::CSignature;
use crate::unit::{body, Unit};
use crate::Error;
use signature::{FnSig, Param};
use std::collections::HashMap;
use value::Val;

/// Why lowering stopped: an error, or an expression that may not run
/// before it is known to be needed (it loads, stores, calls or divides).
#[derive(Debug)]
pub enum Fail {
    Error(Error),
    Speculation,
}

pub type R<T> = Result<T, Fail>;

/// A scalar variable of the function (a C variable, or a flag of the
/// lowering).
struct Var {
    ty: crate::types::CType,
}

/// A memref: its SSA name, MLIR type, shape and element type.
#[derive(Clone, Debug)]
pub struct Mem {
    pub v: String,
    pub ty: String,
    pub shape: Vec<u64>,
    pub elem: crate::types::CType,
}

/// What a C declaration is in the lowered function.
#[derive(Clone)]
enum Binding {
    Var(usize),
    Mem(Mem),
    /// A constant (a `const` global scalar).
    Const(Val),
}

/// A block being written: its lines, the loads it may reuse, whether it
/// stored to memory.
#[derive(Default)]
struct Block {
    lines: Vec<String>,
    cache: HashMap<String, Val>,
    stored: bool,
}

/// The flags of a loop or `switch` that `break` and `continue` set.
struct Target {
    brk: Option<usize>,
    cont: Option<usize>,
    is_loop: bool,
}

/// A point to return to when speculative lowering fails.
struct Mark {
    lines: usize,
    env: Vec<Option<Val>>,
    cache: HashMap<String, Val>,
}

/// The lowering of one function.
pub struct Func<'u> {
    unit: &'u Unit,
    sigs: &'u HashMap<String, FnSig>,
    next: usize,
    at: Option<Loc>,
    vars: Vec<Var>,
    env: Vec<Option<Val>>,
    bindings: HashMap<String, Binding>,
    blocks: Vec<Block>,
    prologue: Vec<String>,
    constants: HashMap<String, String>,
    speculative: bool,
    targets: Vec<Target>,
    /// The `return` flag and the returned value's variable, where a
    /// `return` is not the function's last statement.
    ret: Option<(usize, Option<usize>)>,
    result: Option<crate::types::CType>,
    /// The module's constant globals this function reads (name, text).
    globals: Vec<(String, String)>,
    /// Set once the function's final `return` is written.
    returned: bool,
    /// The condition a `scf.while`'s first region computed.
    pending_condition: Option<String>,
}

/// Writes the functions `names` of `unit` (callees first) as an MLIR
/// module; `printed` holds clang's printed declaration of each. Gives
/// the text and each function's C signature.
pub fn module(
    unit: &Unit,
    names: &[String],
    printed: &HashMap<String, String>,
) -> Result<(String, HashMap<String, CSignature>), Error> {
    let mut sigs = HashMap::new();
    for name in names {
        let def = unit.definition(name).expect("a definition");
        let sig = signature::signature(unit, def, printed.get(name).map(String::as_str))?;
        sigs.insert(name.clone(), sig);
    }
    let mut globals: Vec<(String, String)> = Vec::new();
    let mut funcs = Vec::new();
    for name in names {
        let def = unit.definition(name).expect("a definition");
        let mut f = Func::new(unit, &sigs);
        let text = f.function(def, &sigs[name]).map_err(|e| match e {
            Fail::Error(e) => e,
            Fail::Speculation => Error::new(def.loc.clone(), "internal error: speculation escaped"),
        })?;
        for g in f.globals {
            if !globals.iter().any(|(n, _)| *n == g.0) {
                globals.push(g);
            }
        }
        funcs.push(text);
    }
    let mut out = String::new();
    for (_, g) in &globals {
        out.push_str(g);
        out.push('\n');
    }
    for f in funcs {
        out.push_str(&f);
    }
    let c_sigs = sigs
        .iter()
        .map(|(name, s)| {
            let params = s
                .params
                .iter()
                .zip(&s.nodes)
                .map(|(p, n)| {
                    let t = match p {
                        Param::Scalar(t) => Some(t.clone()),
                        Param::Memory(_) => None,
                    };
                    (n.name().to_string(), t)
                })
                .collect();
            let sig = CSignature {
                params,
                result: s.result.clone(),
            };
            (name.clone(), sig)
        })
        .collect();
    Ok((out, c_sigs))
}

/// The name a parameter gives its port (`hls.name`): the C name where it
/// is a plain identifier (a letter, then letters, digits and single
/// underscores, as a Verilog port keeps it), else the C name without its
/// leading and trailing underscores and doubled ones (`_fict_`: `fict`)
/// unless another parameter has that name; `None` leaves the port its
/// position's name (`arg<i>`).
fn port_name(name: &str, params: &[Node]) -> Option<String> {
    let mut plain = String::new();
    for c in name.chars() {
        if c == '_' && (plain.is_empty() || plain.ends_with('_')) {
            continue;
        }
        if plain.is_empty() && !c.is_ascii_alphabetic() {
            continue;
        }
        plain.push(c);
    }
    while plain.ends_with('_') {
        plain.pop();
    }
    let taken = plain != name && params.iter().any(|p| p.name() == plain);
    (!plain.is_empty() && !taken).then_some(plain)
}

/// A location in MLIR's syntax.
pub fn loc_text(l: &Loc) -> String {
    let mut file = String::new();
    for b in l.file.bytes() {
        match b {
            b'"' | b'\\' => {
                file.push('\\');
                file.push(b as char);
            }
            0x20..=0x7e => file.push(b as char),
            _ => file.push_str(&format!("\\{b:02X}")),
        }
    }
    format!("loc(\"{file}\":{}:{})", l.line, l.col)
}

impl<'u> Func<'u> {
    fn new(unit: &'u Unit, sigs: &'u HashMap<String, FnSig>) -> Func<'u> {
        Func {
            unit,
            sigs,
            next: 0,
            at: None,
            vars: Vec::new(),
            env: Vec::new(),
            bindings: HashMap::new(),
            blocks: Vec::new(),
            prologue: Vec::new(),
            constants: HashMap::new(),
            speculative: false,
            targets: Vec::new(),
            ret: None,
            result: None,
            globals: Vec::new(),
            returned: false,
            pending_condition: None,
        }
    }

    /// A new SSA name.
    pub fn fresh(&mut self) -> String {
        self.next += 1;
        format!("%{}", self.next)
    }

    fn suffix(&self) -> String {
        self.at
            .as_ref()
            .map(|l| format!(" {}", loc_text(l)))
            .unwrap_or_default()
    }

    /// Writes a line into the current block.
    pub fn emit(&mut self, line: String) {
        self.blocks.last_mut().expect("a block").lines.push(line);
    }

    /// Writes `%N = text loc(...)`; gives `%N`.
    pub fn op(&mut self, text: &str) -> String {
        let v = self.fresh();
        let line = format!("{v} = {text}{}", self.suffix());
        self.emit(line);
        v
    }

    /// Writes an op without results.
    pub fn effect(&mut self, text: &str) {
        let line = format!("{text}{}", self.suffix());
        self.emit(line);
    }

    /// A constant at the function's entry, written once.
    fn constant(&mut self, text: &str) -> String {
        if let Some(v) = self.constants.get(text) {
            return v.clone();
        }
        let v = self.fresh();
        self.prologue.push(format!("{v} = arith.constant {text}"));
        self.constants.insert(text.to_string(), v.clone());
        v
    }

    /// An error at the node being lowered.
    pub fn error(&self, message: impl Into<String>) -> Fail {
        Fail::Error(Error::new(self.at.clone(), message))
    }

    /// An error at `n`.
    pub fn error_at(&self, n: &Node, message: impl Into<String>) -> Fail {
        Fail::Error(Error::new(
            n.loc.clone().or_else(|| self.at.clone()),
            message,
        ))
    }

    /// Whether the current block is the function's body (where values
    /// are valid affine symbols).
    pub fn at_top(&self) -> bool {
        self.blocks.len() == 1
    }

    /// Starts a nested block; `inherit` keeps the loads the enclosing
    /// block made available (a branch), else it starts without (a loop
    /// body, which runs after its own stores).
    fn open(&mut self, inherit: bool) {
        let cache = if inherit {
            self.blocks
                .last()
                .map(|b| b.cache.clone())
                .unwrap_or_default()
        } else {
            HashMap::new()
        };
        self.blocks.push(Block {
            lines: Vec::new(),
            cache,
            stored: false,
        });
    }

    /// Ends a nested block; gives its lines, indented.
    fn close(&mut self) -> Vec<String> {
        let b = self.blocks.pop().expect("a block");
        if b.stored && !self.blocks.is_empty() {
            self.stored();
        }
        b.lines.into_iter().map(|l| format!("  {l}")).collect()
    }

    /// Records a store (or a call): no load before it may be reused.
    fn stored(&mut self) {
        let b = self.blocks.last_mut().expect("a block");
        b.cache.clear();
        b.stored = true;
    }

    fn mark(&self) -> Mark {
        let b = self.blocks.last().expect("a block");
        Mark {
            lines: b.lines.len(),
            env: self.env.clone(),
            cache: b.cache.clone(),
        }
    }

    fn rollback(&mut self, m: Mark) {
        let b = self.blocks.last_mut().expect("a block");
        b.lines.truncate(m.lines);
        b.cache = m.cache;
        self.restore_env(m.env);
    }

    /// Sets the variables' values back to `env`; those declared since
    /// (out of scope now) hold nothing.
    fn restore_env(&mut self, mut env: Vec<Option<Val>>) {
        env.resize(self.vars.len(), None);
        self.env = env;
    }

    /// Runs `f` speculatively: its ops are kept only if it neither
    /// loads what was not loaded already, stores, calls nor divides by a
    /// value that may be zero; `None` (nothing written) otherwise.
    pub fn speculate<T>(&mut self, f: &mut dyn FnMut(&mut Self) -> R<T>) -> R<Option<T>> {
        if self.speculative {
            return f(self).map(Some);
        }
        let mark = self.mark();
        self.speculative = true;
        let r = f(self);
        self.speculative = false;
        match r {
            Ok(v) => Ok(Some(v)),
            Err(Fail::Speculation) => {
                self.rollback(mark);
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }

    /// A new scalar variable.
    fn new_var(&mut self, ty: crate::types::CType) -> usize {
        self.vars.push(Var { ty });
        self.env.push(None);
        self.vars.len() - 1
    }

    /// The current value of variable `i` (zero where never assigned:
    /// reading it is undefined in C).
    fn var_value(&mut self, i: usize) -> Val {
        match &self.env[i] {
            Some(v) => v.clone(),
            None => {
                let ty = self.vars[i].ty.clone();
                self.zero(&ty)
            }
        }
    }

    /// The function `def` with signature `sig`.
    fn function(&mut self, def: &'u Node, sig: &FnSig) -> R<String> {
        self.at = def.loc.clone();
        self.open(false);
        let mut args = Vec::new();
        for (i, (p, node)) in sig.params.iter().zip(&sig.nodes).enumerate() {
            let name = if node.name().is_empty() {
                format!("%p{i}")
            } else {
                format!("%{}", node.name())
            };
            let attr = match port_name(node.name(), &sig.nodes) {
                Some(n) => format!(" {{hls.name = \"{n}\"}}"),
                None => String::new(),
            };
            match p {
                Param::Scalar(ty) => {
                    args.push(format!("{name}: {}{attr}", ty.mlir().unwrap_or_default()));
                    let var = self.new_var(ty.clone());
                    let v = self.val(name, ty, None);
                    // The symbol cast, if any, belongs before the body.
                    let lines = std::mem::take(&mut self.blocks[0].lines);
                    self.prologue.extend(lines);
                    self.env[var] = Some(v);
                    self.bindings.insert(node.id.clone(), Binding::Var(var));
                }
                Param::Memory(mem) => {
                    let mem = Mem {
                        v: name.clone(),
                        ..mem.clone()
                    };
                    args.push(format!("{name}: {}{attr}", mem.ty));
                    self.bindings.insert(node.id.clone(), Binding::Mem(mem));
                }
            }
        }
        self.result = sig.result.clone();
        let results = match &sig.result {
            Some(t) => format!(" -> {}", t.mlir().unwrap_or_default()),
            None => String::new(),
        };
        let Some(b) = body(def) else {
            return Err(self.error("a kernel needs a function definition"));
        };
        if scan::returns_before_end(b) {
            let flag = self.new_var(crate::types::CType::Bool);
            let f = self.int_const(&crate::types::CType::Bool, 0);
            self.env[flag] = Some(f);
            let value = sig.result.clone().map(|t| self.new_var(t));
            self.ret = Some((flag, value));
        }
        self.stmt(b)?;
        if !self.returned {
            self.at = b.loc.clone();
            self.final_return()?;
        }
        let body_lines = self.close();
        let mut text = format!(
            "func.func @{}({}){results} {{\n",
            def.name(),
            args.join(", ")
        );
        let loc = def.loc.as_ref().map(loc_text).unwrap_or_default();
        for l in &self.prologue {
            if l.contains(" loc(") {
                text.push_str(&format!("  {l}\n"));
            } else {
                text.push_str(&format!("  {l} {loc}\n"));
            }
        }
        for l in body_lines {
            text.push_str(&l);
            text.push('\n');
        }
        text.push_str(&format!("}} {loc}\n"));
        Ok(text)
    }

    /// The `func.return` at the end of the body: the returned value's
    /// variable where `return` set it, else nothing (or zero: falling
    /// off the end of a function that returns a value is undefined).
    fn final_return(&mut self) -> R<()> {
        let value = match (&self.result.clone(), self.ret) {
            (None, _) => None,
            (Some(_), Some((_, Some(var)))) => Some(self.var_value(var)),
            (Some(t), _) => Some(self.zero(t)),
        };
        match value {
            Some(v) => {
                let m = v.ty.mlir().unwrap_or_default();
                self.effect(&format!("func.return {} : {m}", v.v));
            }
            None => self.effect("func.return"),
        }
        self.returned = true;
        Ok(())
    }
}
