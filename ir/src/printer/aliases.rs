//! Alias selection (`#map`, `#set`, `#loc3`, ...) following MLIR's rules:
//! attributes and types are visited in the order the printer would print
//! them, aliased ones are sorted by nesting depth, kind (types first) and
//! name, then numbered per name.

use super::walk::{visit_op_order, PrintFlags, Visitor};
use crate::attrs::AttrKind;
use crate::context::{attr_children, type_children, Attr, Context, Type};
use crate::graph::{Ir, OpId};
use crate::types::TypeKind;
use indexmap::IndexMap;
use rustc_hash::{FxBuildHasher, FxHashMap};

use crate::context::Element as Key;

struct Info {
    alias: Option<&'static str>,
    depth: u32,
    deferrable: bool,
    /// The children's indices in `seen`: `Collector::child_pool[children]`.
    children: std::ops::Range<u32>,
}

/// The chosen aliases of one printed module.
#[derive(Default)]
pub struct AliasTable {
    attrs: FxHashMap<Attr, String>,
    types: FxHashMap<Type, String>,
    /// Definitions in print order: (is_type, key, name, deferred).
    order: Vec<(bool, u32, String, bool)>,
}

impl AliasTable {
    /// The alias of an attribute, if it has one.
    pub fn attr_alias(&self, a: Attr) -> Option<&str> {
        self.attrs.get(&a).map(|s| s.as_str())
    }

    /// The alias of a type, if it has one.
    pub fn type_alias(&self, t: Type) -> Option<&str> {
        self.types.get(&t).map(|s| s.as_str())
    }

    /// Alias definitions `(is_type, id, name)` to print before (`deferred
    /// == false`) or after (`true`) the operation.
    pub fn definitions(&self, deferred: bool) -> impl Iterator<Item = (bool, u32, &str)> {
        self.order
            .iter()
            .filter(move |d| d.3 == deferred)
            .map(|d| (d.0, d.1, d.2.as_str()))
    }
}

struct Collector<'a> {
    ctx: &'a Context,
    seen: IndexMap<Key, Info, FxBuildHasher>,
    child_pool: Vec<u32>,
    // Scratch stacks shared by nested visits (push above, truncate back).
    key_stack: Vec<Key>,
    index_stack: Vec<u32>,
}

fn alias_name(ctx: &Context, key: Key) -> Option<&'static str> {
    match key {
        Key::Attr(a) => match ctx.attr_kind(a) {
            AttrKind::AffineMap(_) => Some("map"),
            AttrKind::IntegerSet(_) => Some("set"),
            AttrKind::Location(_) => Some("loc"),
            AttrKind::Distinct { referenced, .. }
                if !matches!(ctx.attr_kind(*referenced), AttrKind::Unit) =>
            {
                Some("distinct")
            }
            AttrKind::Dialect { .. } => ctx.dialect_attr_alias(a),
            _ => None,
        },
        Key::Type(t) => match ctx.type_kind(t) {
            TypeKind::Tuple(e) if e.len() > 16 => Some("tuple"),
            _ => None,
        },
    }
}

impl Collector<'_> {
    /// Visits `key` and its sub-elements; returns its index in `seen`.
    fn visit(&mut self, key: Key, deferrable: bool) -> usize {
        if let Some(i) = self.seen.get_index_of(&key) {
            if !deferrable && self.seen[i].deferrable {
                self.mark_non_deferrable(i);
            }
            return i;
        }
        let alias = alias_name(self.ctx, key);
        let (i, _) = self.seen.insert_full(
            key,
            Info {
                alias,
                depth: 0,
                deferrable,
                children: 0..0,
            },
        );
        let keys_base = self.key_stack.len();
        match key {
            Key::Attr(a) => attr_children(self.ctx, self.ctx.attr_kind(a), &mut self.key_stack),
            Key::Type(t) => type_children(self.ctx.type_kind(t), &mut self.key_stack),
        }
        let indices_base = self.index_stack.len();
        let mut depth = 0;
        for k in keys_base..self.key_stack.len() {
            let ci = self.visit(self.key_stack[k], deferrable);
            depth = depth.max(self.seen[ci].depth);
            self.index_stack.push(ci as u32);
        }
        self.key_stack.truncate(keys_base);
        let start = self.child_pool.len() as u32;
        self.child_pool
            .extend(self.index_stack.drain(indices_base..));
        let info = &mut self.seen[i];
        info.depth = depth + u32::from(alias.is_some());
        info.children = start..self.child_pool.len() as u32;
        i
    }

    fn mark_non_deferrable(&mut self, i: usize) {
        let mut stack = vec![i];
        while let Some(i) = stack.pop() {
            if self.seen[i].deferrable {
                self.seen[i].deferrable = false;
                let children = self.seen[i].children.clone();
                let pool = &self.child_pool[children.start as usize..children.end as usize];
                stack.extend(pool.iter().map(|&c| c as usize));
            }
        }
    }
}

impl Visitor for Collector<'_> {
    fn attr(&mut self, a: Attr, deferrable: bool) {
        if self.ctx.may_hold_alias(Key::Attr(a)) {
            self.visit(Key::Attr(a), deferrable);
        }
    }
    fn ty(&mut self, t: Type) {
        if self.ctx.may_hold_alias(Key::Type(t)) {
            self.visit(Key::Type(t), false);
        }
    }
}

/// Chooses aliases for everything printed with `top`.
pub fn collect(ctx: &Context, ir: &Ir, top: OpId, flags: &PrintFlags) -> AliasTable {
    if !flags.debug_info && !holds_alias(ctx, ir, top) {
        return AliasTable::default();
    }
    let mut c = Collector {
        ctx,
        seen: IndexMap::default(),
        child_pool: Vec::new(),
        key_stack: Vec::new(),
        index_stack: Vec::new(),
    };
    visit_op_order(ctx, ir, top, flags, &mut c);
    let mut aliased: Vec<(usize, Key, &Info)> = c
        .seen
        .iter()
        .enumerate()
        .filter(|(_, (_, info))| info.alias.is_some())
        .map(|(i, (k, info))| (i, *k, info))
        .collect();
    aliased.sort_by(|a, b| {
        let ka = (a.2.depth, !matches!(a.1, Key::Type(_)), a.2.alias);
        let kb = (b.2.depth, !matches!(b.1, Key::Type(_)), b.2.alias);
        ka.cmp(&kb).then(a.0.cmp(&b.0))
    });
    let mut counts: FxHashMap<&str, u32> = FxHashMap::default();
    let mut table = AliasTable::default();
    for (_, key, info) in aliased {
        let base = info.alias.unwrap_or("alias");
        let n = counts.entry(base).or_insert(0);
        let prefix = if matches!(key, Key::Type(_)) {
            '!'
        } else {
            '#'
        };
        let name = if *n == 0 {
            format!("{prefix}{base}")
        } else if base.ends_with(|c: char| c.is_ascii_digit()) {
            format!("{prefix}{base}_{n}")
        } else {
            format!("{prefix}{base}{n}")
        };
        *n += 1;
        match key {
            Key::Attr(a) => {
                table.attrs.insert(a, name.clone());
                table.order.push((false, a.0, name, info.deferrable));
            }
            Key::Type(t) => {
                table.types.insert(t, name.clone());
                table.order.push((true, t.0, name, info.deferrable));
            }
        }
    }
    table
}

/// Whether anything the printer prints for `top` (locations aside) may
/// be aliased: when nothing may, the dry run that orders aliases is
/// skipped.
fn holds_alias(ctx: &Context, ir: &Ir, top: OpId) -> bool {
    let mut found = false;
    ir.walk(top, &mut |op| {
        if found {
            return;
        }
        let attrs = std::iter::once(ir.op_attrs(op)).chain(ir.op_props(op));
        let results = ir.results(op).map(|v| ir.value_type(v));
        let args = ir
            .regions(op)
            .flat_map(|r| ir.region_blocks(r))
            .flat_map(|b| ir.block_args(b).iter().map(|&v| ir.value_type(v)));
        found = attrs
            .map(Key::Attr)
            .chain(results.chain(args).map(Key::Type))
            .any(|e| ctx.may_hold_alias(e));
    });
    found
}
