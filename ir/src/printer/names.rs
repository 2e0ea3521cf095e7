//! SSA value and block naming as MLIR's `SSANameState` does it: each
//! region is numbered in full before its nested regions, which continue
//! from the counters reached; entry-block arguments are `%argN`, other
//! values `%N`; blocks are `^bbN` per region. Ops with a result-name hook
//! (`%c0_i32`, `%cst`) name their first result; such names are unique
//! within their region and the regions above it (a clash gets `_N`, `N`
//! from a counter restarted per sibling region, as MLIR does).

use super::decimal::push_u64;
use crate::context::Context;
use crate::graph::{BlockId, Ir, OpId, RegionId, ValueDef, ValueId};
use rustc_hash::FxHashSet;

#[derive(Clone, Copy)]
enum Name {
    Num(u32),
    Arg(u32),
    /// An index into [`Names::text`].
    Text(u32),
    /// Value `index` of a named group of `size` results (`%sizes:2`,
    /// used as `%sizes#1`).
    Member {
        text: u32,
        index: u32,
        size: u32,
    },
}

/// Names of values and blocks of one printed tree.
pub struct Names {
    values: Vec<Option<Name>>,
    blocks: Vec<u32>,
    text: Vec<String>,
}

/// Hinted names in use, per region scope (a scope sees its parents').
struct Scopes {
    parent: Vec<Option<usize>>,
    used: Vec<FxHashSet<String>>,
}

impl Scopes {
    fn open(&mut self, parent: Option<usize>) -> usize {
        self.parent.push(parent);
        self.used.push(FxHashSet::default());
        self.used.len() - 1
    }

    fn contains(&self, mut scope: usize, name: &str) -> bool {
        loop {
            if self.used[scope].contains(name) {
                return true;
            }
            match self.parent[scope] {
                Some(p) => scope = p,
                None => return false,
            }
        }
    }
}

/// Counters carried from a region into the regions nested in it.
#[derive(Clone, Copy)]
struct Counters {
    value: u32,
    arg: u32,
    conflict: u32,
}

impl Names {
    /// Numbers everything nested in `top`. With `unique` (generic form),
    /// counters are never reset between regions, as MLIR's unique SSA ids.
    /// Without `nested`, only `top`'s results are named (its regions are
    /// not printed).
    /// With `hints` (the custom form), ops' result-name hooks are asked.
    pub fn new(hints: Option<&Context>, ir: &Ir, top: OpId, unique: bool, nested: bool) -> Names {
        let mut names = Names {
            values: vec![None; ir.value_capacity()],
            blocks: vec![0; ir.block_capacity()],
            text: Vec::new(),
        };
        let mut scopes = Scopes {
            parent: Vec::new(),
            used: Vec::new(),
        };
        let root = scopes.open(None);
        let mut c = Counters {
            value: 0,
            arg: 0,
            conflict: 0,
        };
        names.number_op(hints, ir, top, &mut c, &mut scopes, root);
        let mut stack: Vec<(RegionId, Counters, usize)> = Vec::new();
        if nested {
            stack.extend(ir.regions(top).map(|r| (r, c, root)));
        }
        while let Some((region, saved, parent)) = stack.pop() {
            if !unique {
                c = saved;
            }
            let scope = scopes.open(Some(parent));
            let (mut next_value, mut next_arg) = (c.value, c.arg);
            let arg_names = hints
                .zip(ir.region_op(region))
                .filter(|(_, owner)| ir.regions(*owner).next() == Some(region))
                .and_then(|(ctx, owner)| {
                    let f = ctx.op_def(ir.op_name(owner))?.value_names?;
                    Some(f(ctx, ir, owner).entry_args)
                })
                .unwrap_or_default();
            for (i, b) in ir.region_blocks(region).enumerate() {
                names.blocks[b.0 as usize] = i as u32;
                let entry = i == 0;
                for (k, &arg) in ir.block_args(b).iter().enumerate() {
                    if let Some(n) = arg_names.get(k).filter(|n| entry && !n.is_empty()) {
                        let name = names.unique_name(n, &mut c, &mut scopes, scope);
                        names.values[arg.0 as usize] = Some(name);
                        continue;
                    }
                    names.values[arg.0 as usize] = Some(if entry {
                        next_arg += 1;
                        Name::Arg(next_arg - 1)
                    } else {
                        next_value += 1;
                        Name::Num(next_value - 1)
                    });
                }
                c.value = next_value;
                c.arg = next_arg;
                for op in ir.block_ops(b) {
                    names.number_op(hints, ir, op, &mut c, &mut scopes, scope);
                }
                next_value = c.value;
            }
            for b in ir.region_blocks(region) {
                for op in ir.block_ops(b) {
                    for r in ir.regions(op) {
                        stack.push((r, c, scope));
                    }
                }
            }
        }
        names
    }

    fn number_op(
        &mut self,
        hints: Option<&Context>,
        ir: &Ir,
        op: OpId,
        c: &mut Counters,
        scopes: &mut Scopes,
        scope: usize,
    ) {
        if ir.num_results(op) == 0 {
            return;
        }
        let def = hints.and_then(|ctx| Some((ctx, ctx.op_def(ir.op_name(op))?)));
        if let Some((ctx, f)) = def.and_then(|(ctx, d)| Some((ctx, d.value_names?))) {
            let given = f(ctx, ir, op).results;
            for (k, r) in ir.results(op).enumerate() {
                let name = match given.get(k).filter(|n| !n.is_empty()) {
                    Some(n) => self.unique_name(n, c, scopes, scope),
                    None => {
                        c.value += 1;
                        Name::Num(c.value - 1)
                    }
                };
                self.values[r.0 as usize] = Some(name);
            }
            return;
        }
        // Ops declaring several result groups name each after its
        // declaration (`%low, %high = ...`, `%sizes:2`), as MLIR's
        // generated ops do; variable groups share the rest equally.
        let declared = def.and_then(|(_, d)| {
            let results = d.signature?.results;
            if d.result_names.is_some() || results.len() < 2 {
                return None;
            }
            let fixed = results
                .iter()
                .filter(|r| r.arity == crate::format::Arity::One)
                .count();
            let variable = results.len() - fixed;
            let rest = ir.num_results(op).checked_sub(fixed)?;
            let each = match variable {
                0 if rest == 0 => 0,
                0 => return None,
                v if rest % v == 0 => rest / v,
                _ => return None,
            };
            let sizes: Vec<usize> = results
                .iter()
                .map(|r| {
                    if r.arity == crate::format::Arity::One {
                        1
                    } else {
                        each
                    }
                })
                .collect();
            Some((results, sizes))
        });
        if let Some((results, sizes)) = declared {
            let mut at = 0;
            for (r, &size) in results.iter().zip(&sizes) {
                if size == 0 {
                    continue;
                }
                let name = self.unique_name(r.name, c, scopes, scope);
                for k in 0..size {
                    let n = match (name, size) {
                        (Name::Text(t), s) if s > 1 => Name::Member {
                            text: t,
                            index: k as u32,
                            size: s as u32,
                        },
                        (n, _) => n,
                    };
                    self.values[ir.result(op, at + k).0 as usize] = Some(n);
                }
                at += size;
            }
            return;
        }
        let hint = def.and_then(|(ctx, d)| (d.result_names?)(ctx, ir, op));
        let name = match hint {
            Some(base) => self.unique_name(&base, c, scopes, scope),
            None => {
                c.value += 1;
                Name::Num(c.value - 1)
            }
        };
        self.values[ir.result(op, 0).0 as usize] = Some(name);
    }

    /// `base`, or `base_N` when `base` is taken in `scope` or above.
    fn unique_name(
        &mut self,
        base: &str,
        c: &mut Counters,
        scopes: &mut Scopes,
        scope: usize,
    ) -> Name {
        let base = sanitize(base);
        let mut name = base.clone();
        while scopes.contains(scope, &name) {
            name = format!("{base}_{}", c.conflict);
            c.conflict += 1;
        }
        scopes.used[scope].insert(name.clone());
        self.text.push(name);
        Name::Text(self.text.len() as u32 - 1)
    }

    /// Whether the results of `op` are named by groups of their own
    /// (`%a, %b:2 = ...`) rather than sharing one name (`%0:3 = ...`).
    pub fn results_named_apart(&self, ir: &Ir, op: OpId) -> bool {
        ir.num_results(op) > 1 && self.values[ir.result(op, 1).0 as usize].is_some()
    }

    /// For the first value of a named result group, the group's size;
    /// `None` for the group's other values (printed with the first).
    pub fn group_head_size(&self, v: ValueId) -> Option<u32> {
        match self.values.get(v.0 as usize).copied().flatten() {
            Some(Name::Member { index: 0, size, .. }) => Some(size),
            Some(Name::Member { .. }) => None,
            _ => Some(1),
        }
    }

    /// Appends the name of the group a result belongs to (`%3` for all
    /// results of a multi-result op).
    pub fn group_into(&self, out: &mut String, v: ValueId) {
        match self.values.get(v.0 as usize).copied().flatten() {
            Some(Name::Num(n)) => {
                out.push('%');
                push_u64(out, u64::from(n));
            }
            Some(Name::Arg(n)) => {
                out.push_str("%arg");
                push_u64(out, u64::from(n));
            }
            Some(Name::Text(i) | Name::Member { text: i, .. }) => {
                out.push('%');
                out.push_str(&self.text[i as usize]);
            }
            None => out.push_str("<<UNKNOWN SSA VALUE>>"),
        }
    }

    /// Appends the name of a value use (`%3#1` for results of multi-result ops).
    pub fn value_into(&self, out: &mut String, ir: &Ir, v: ValueId) {
        match ir.value_def(v) {
            ValueDef::Result { op, .. } if self.results_named_apart(ir, op) => {
                self.group_into(out, v);
                if let Some(Some(Name::Member { index, .. })) = self.values.get(v.0 as usize) {
                    out.push('#');
                    push_u64(out, u64::from(*index));
                }
            }
            ValueDef::Result { op, index } => {
                self.group_into(out, ir.result(op, 0));
                if ir.num_results(op) > 1 {
                    out.push('#');
                    push_u64(out, u64::from(index));
                }
            }
            _ => self.group_into(out, v),
        }
    }

    /// The position of a block within its region.
    pub fn block_index(&self, b: BlockId) -> u32 {
        self.blocks[b.0 as usize]
    }

    /// Appends `^bbN`.
    pub fn block_into(&self, out: &mut String, b: BlockId) {
        out.push_str("^bb");
        push_u64(out, u64::from(self.block_index(b)));
    }
}

/// `name` made a legal SSA name as MLIR's printer makes it: a space
/// becomes `_`, another character that is not a letter, a digit or one
/// of `$._-` its bytes in hexadecimal, and a leading digit gets a `_`
/// before it.
fn sanitize(name: &str) -> String {
    let valid = |c: u8| c.is_ascii_alphanumeric() || b"$._-".contains(&c);
    let mut out = String::with_capacity(name.len() + 1);
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        out.push('_');
    }
    for &c in name.as_bytes() {
        if valid(c) {
            out.push(c as char);
        } else if c == b' ' {
            out.push('_');
        } else {
            use std::fmt::Write;
            let _ = write!(out, "{c:X}");
        }
    }
    out
}
