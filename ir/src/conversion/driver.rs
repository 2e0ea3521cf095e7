//! The conversion driver: visits every op nested in the root in
//! pre-order (then the ops patterns create), leaves legal ones alone,
//! and rewrites the others with the best pattern that applies; fails
//! at the first op that must be converted and cannot be, restoring the
//! IR as it was before the conversion.

use super::target::{ConversionTarget, Legality};
use super::type_converter::TypeConverter;
use super::CAST;
use crate::context::{Context, Type};
use crate::diag::Diagnostic;
use crate::graph::{Ir, OpId, RegionId, ValueId};
use crate::rewrite::{InsertPoint, Listener, Rewriter};
use rustc_hash::{FxHashMap, FxHashSet};

/// Rewrites `op` given its converted operands; returns whether it did
/// (and then must have replaced or erased `op`). A pattern that returns
/// false must not have changed anything.
pub type ConversionPatternFn = fn(&mut ConversionRewriter<'_, '_>, OpId, &[ValueId]) -> bool;

/// A conversion pattern rooted at ops named `root`.
#[derive(Clone, Copy, Debug)]
pub struct ConversionPattern {
    pub root: &'static str,
    pub name: &'static str,
    pub benefit: u16,
    pub apply: ConversionPatternFn,
}

/// Records what patterns create and erase.
#[derive(Default)]
struct Journal {
    created: Vec<OpId>,
    erased: FxHashSet<OpId>,
}

impl Listener for Journal {
    fn inserted(&mut self, _: &Ir, op: OpId) {
        self.created.push(op);
    }
    fn erasing(&mut self, _: &Ir, op: OpId) {
        self.erased.insert(op);
    }
}

/// What conversion patterns use: a rewriter, the type converter, and
/// the map from values to their converted replacements.
pub struct ConversionRewriter<'r, 'a> {
    pub rw: Rewriter<'a>,
    pub types: &'r TypeConverter,
    state: &'r mut CastState,
}

/// The conversion's bookkeeping of values and the casts between types.
#[derive(Default)]
struct CastState {
    /// Old values to their converted replacements.
    mapping: FxHashMap<ValueId, ValueId>,
    /// Every cast materialised (the unused ones go at the end).
    casts: Vec<OpId>,
    /// The same casts, for lookups.
    cast_set: FxHashSet<OpId>,
    /// Casts of new values back to old types, shared by all replacements.
    back_casts: FxHashMap<(ValueId, Type), ValueId>,
    /// An error a pattern reported: the conversion fails with it.
    error: Option<Box<Diagnostic>>,
    /// The ops the conversion has patterns for.
    roots: FxHashSet<crate::context::Symbol>,
}

impl ConversionRewriter<'_, '_> {
    /// Fails the whole conversion with `msg` at `op` (a pattern that
    /// reports this must then decline).
    pub fn error(&mut self, op: OpId, msg: impl Into<String>) {
        let loc = self.rw.ir.op_loc(op);
        self.state.error = Some(Box::new(Diagnostic::error(loc, msg.into())));
    }

    /// Reports `msg` at `op` without failing the conversion (MLIR's
    /// `emitError` in a pattern that then declines, leaving the op).
    pub fn emit(&mut self, op: OpId, msg: impl Into<String>) {
        let loc = self.rw.ir.op_loc(op);
        self.rw.ctx.emit(Diagnostic::error(loc, msg.into()));
    }

    /// Whether the conversion has patterns for `op` (so converts it,
    /// unless they decline).
    pub fn has_patterns(&self, op: OpId) -> bool {
        self.state.roots.contains(&self.rw.ir.op_name(op))
    }

    /// The converted type of `t`.
    pub fn convert_type(&mut self, t: Type) -> Option<Type> {
        self.types.convert(self.rw.ctx, t)
    }

    fn cast(&mut self, input: ValueId, to: Type) -> ValueId {
        let loc = self.rw.ctx.unknown_loc();
        let op = self.rw.create_simple(CAST, &[input], &[to], None, loc);
        self.state.casts.push(op);
        self.state.cast_set.insert(op);
        self.rw.ir.result(op, 0)
    }

    /// The value `v` stands for after conversion: its replacement if it
    /// was replaced, else `v` cast to its converted type when that
    /// differs (materialised after `v`'s definition; before `user` when
    /// `v` has no place).
    pub fn remapped(&mut self, v: ValueId, user: OpId) -> ValueId {
        let mut cur = v;
        while let Some(&next) = self.state.mapping.get(&cur) {
            cur = next;
        }
        let ty = self.rw.ir.value_type(cur);
        match self.convert_type(ty) {
            Some(t) if t != ty => {
                // A cast of a value of the converted type already: that
                // value (MLIR reconciles the round trip its cast would
                // make).
                let source = cast_input(self.rw.ctx, self.rw.ir, cur)
                    .filter(|&s| self.rw.ir.value_type(s) == t);
                if let Some(source) = source {
                    return source;
                }
                // As MLIR: right after the value's definition (block
                // arguments: at the start of their block).
                let saved = self.rw.insertion_point();
                match self.rw.ir.defining_op(cur) {
                    Some(def) => self.rw.set_insertion_point_after(def),
                    None => match self.rw.ir.value_block(cur) {
                        Some(b) => self.rw.set_insertion_point_to_start(b),
                        None => self.rw.set_insertion_point(user),
                    },
                }
                let c = self.cast(cur, t);
                self.rw.restore_insertion_point(saved);
                self.state.mapping.insert(cur, c);
                c
            }
            _ => cur,
        }
    }

    /// The value of type `ty` that `v` is this conversion's cast of.
    fn materialized_from(&self, v: ValueId, ty: Type) -> Option<ValueId> {
        let source = cast_input(self.rw.ctx, self.rw.ir, v)?;
        (self.rw.ir.value_type(source) == ty && self.state.mapping.get(&source) == Some(&v))
            .then_some(source)
    }

    /// Replaces `op`'s results with `values`; where a type differs, the
    /// remaining users see a cast back to the old type.
    pub fn replace_op(&mut self, op: OpId, values: &[ValueId]) {
        let results: Vec<ValueId> = self.rw.ir.results(op).collect();
        let mut replacements = Vec::with_capacity(values.len());
        for (&r, &v) in results.iter().zip(values) {
            let old_ty = self.rw.ir.value_type(r);
            if self.rw.ir.value_type(v) == old_ty {
                replacements.push(v);
                continue;
            }
            if let Some(&back) = self.state.back_casts.get(&(v, old_ty)) {
                replacements.push(back);
                continue;
            }
            // The conversion's own cast of a value of the old type: that
            // value (an op replaced by one of its converted operands).
            if let Some(source) = self.materialized_from(v, old_ty) {
                replacements.push(source);
                continue;
            }
            // As MLIR: after `v`'s definition, shared by later users.
            match self.rw.ir.defining_op(v) {
                Some(def) => self.rw.set_insertion_point_after(def),
                None => match self.rw.ir.value_block(v) {
                    Some(b) => self.rw.set_insertion_point_to_start(b),
                    None => self.rw.set_insertion_point(op),
                },
            }
            let back = self.cast(v, old_ty);
            self.state.mapping.insert(back, v);
            self.state.back_casts.insert((v, old_ty), back);
            replacements.push(back);
        }
        self.rw.set_insertion_point(op);
        self.rw.replace_op(op, &replacements);
    }

    /// Replaces every use of `old` with `new`; where their types differ,
    /// the uses see a cast of `new` back to `old`'s type, materialised at
    /// the insertion point (a block argument expanded into several, say).
    pub fn replace_value(&mut self, old: ValueId, new: ValueId) {
        let old_ty = self.rw.ir.value_type(old);
        if self.rw.ir.value_type(new) == old_ty {
            self.rw.replace_all_uses(old, new);
            return;
        }
        let back = self.cast(new, old_ty);
        self.state.mapping.insert(back, new);
        self.rw.replace_all_uses(old, back);
    }

    /// Converts the types of the arguments of every block of `region`;
    /// old uses see a cast back to the old type.
    pub fn convert_region_types(&mut self, region: RegionId) -> bool {
        let blocks: Vec<_> = self.rw.ir.region_blocks(region).collect();
        blocks.into_iter().all(|b| self.convert_block_types(b))
    }

    /// Converts the types of `b`'s arguments; old uses see a cast back to
    /// the old type.
    pub fn convert_block_types(&mut self, b: crate::graph::BlockId) -> bool {
        {
            let args = self.rw.ir.block_args(b).to_vec();
            for a in args {
                let old = self.rw.ir.value_type(a);
                let Some(new) = self.convert_type(old) else {
                    return false;
                };
                if new == old {
                    continue;
                }
                self.rw.ir.set_value_type(a, new);
                let saved = self.rw.insertion_point();
                self.rw.set_insertion_point_to_start(b);
                let back = self.cast(a, old);
                self.rw.restore_insertion_point(saved);
                let back_op = self.rw.ir.defining_op(back).expect("cast result");
                let uses: Vec<_> = self
                    .rw
                    .ir
                    .uses(a)
                    .filter(|&u| self.rw.ir.use_owner(u) != back_op)
                    .collect();
                for u in uses {
                    self.rw.ir.set_use(u, back);
                }
                self.state.mapping.insert(back, a);
            }
        }
        true
    }

    /// The insertion point patterns start at (just before the op).
    pub fn insertion_point(&self) -> Option<InsertPoint> {
        self.rw.insertion_point()
    }
}

/// What folding an op before conversion did.
enum Folded {
    No,
    InPlace,
    Replaced,
}

/// The constant `v` holds, looking through conversion casts (the
/// original constant may already be converted).
fn constant_through_casts(ctx: &mut Context, ir: &mut Ir, v: ValueId) -> Option<crate::Attr> {
    let mut v = v;
    while let Some(input) = cast_input(ctx, ir, v) {
        v = input;
    }
    let def = ir.defining_op(v)?;
    crate::rewrite::fold::constant_of_op(ctx, ir, def)
}

/// The input of the one-operand conversion cast defining `v`, if one does.
fn cast_input(ctx: &Context, ir: &Ir, v: ValueId) -> Option<ValueId> {
    let def = ir.defining_op(v)?;
    (ctx.str(ir.op_name(def)) == CAST && ir.num_operands(def) == 1).then(|| ir.operand(def, 0))
}

/// Folds an op about to be converted, as MLIR's conversion does first:
/// results folded to values replace it, constants are materialised by
/// the op's dialect (and converted in turn).
fn try_fold(
    ctx: &mut Context,
    ir: &mut Ir,
    op: OpId,
    types: &TypeConverter,
    state: &mut CastState,
    journal: &mut Journal,
    convertible: &dyn Fn(&Context, &Ir, OpId) -> bool,
) -> Folded {
    let Some(def) = ctx.op_def(ir.op_name(op)) else {
        return Folded::No;
    };
    if def.traits.has(crate::dialect::Traits::CONSTANT_LIKE) {
        return Folded::No;
    }
    let operands: Vec<ValueId> = ir.operands(op).collect();
    let constants: Vec<_> = operands
        .iter()
        .map(|&v| constant_through_casts(ctx, ir, v))
        .collect();
    let results = match crate::rewrite::fold::fold_op_with(ctx, ir, op, &constants) {
        crate::rewrite::FoldResult::Fail => return Folded::No,
        crate::rewrite::FoldResult::InPlace => return Folded::InPlace,
        crate::rewrite::FoldResult::Results(r) => r,
    };
    let dialect = ctx
        .str(ir.op_name(op))
        .split('.')
        .next()
        .unwrap_or("")
        .to_string();
    let materialize = ctx.dialect(&dialect).and_then(|d| d.materialize_constant);
    let loc = ir.op_loc(op);
    let result_types: Vec<Type> = ir.results(op).map(|r| ir.value_type(r)).collect();
    let mut cr = ConversionRewriter {
        rw: Rewriter::new(ctx, ir, journal),
        types,
        state,
    };
    cr.rw.set_insertion_point(op);
    let mut values = Vec::new();
    let mut created = Vec::new();
    for (r, ty) in results.iter().zip(&result_types) {
        match r {
            crate::rewrite::OpFoldResult::Value(v) => values.push(*v),
            crate::rewrite::OpFoldResult::Attr(a) => {
                let Some(c) = materialize.and_then(|m| m(&mut cr.rw, *a, *ty, loc)) else {
                    for c in created {
                        cr.rw.erase_op(c);
                    }
                    return Folded::No;
                };
                created.push(c);
                values.push(cr.rw.ir.result(c, 0));
            }
        }
    }
    // As MLIR: a fold whose constants the conversion cannot legalize
    // is undone, and the patterns get their turn.
    if !created.iter().all(|&c| convertible(cr.rw.ctx, cr.rw.ir, c)) {
        for c in created {
            cr.rw.erase_op(c);
        }
        return Folded::No;
    }
    cr.replace_op(op, &values);
    Folded::Replaced
}

/// The ops under `root` in pre-order, leaving out blocks their region's
/// entry cannot reach (MLIR's conversion walks regions in dominance order
/// and never visits those).
fn reachable_ops(ir: &Ir, root: OpId) -> Vec<OpId> {
    let mut order = Vec::new();
    let mut stack = vec![root];
    while let Some(o) = stack.pop() {
        order.push(o);
        let base = stack.len();
        for r in ir.regions(o) {
            let blocks: Vec<_> = ir.region_blocks(r).collect();
            let reachable = if blocks.len() > 1 {
                let mut seen: FxHashSet<crate::graph::BlockId> = FxHashSet::default();
                let mut work = vec![blocks[0]];
                while let Some(b) = work.pop() {
                    if seen.insert(b) {
                        if let Some(t) = ir.last_op(b) {
                            work.extend(ir.successors(t).iter().copied());
                        }
                    }
                }
                Some(seen)
            } else {
                None
            };
            for b in blocks {
                if reachable.as_ref().is_none_or(|s| s.contains(&b)) {
                    stack.extend(ir.block_ops(b));
                }
            }
        }
        stack[base..].reverse();
    }
    order
}

fn legalize(
    ctx: &mut Context,
    ir: &mut Ir,
    root: OpId,
    target: &ConversionTarget,
    patterns: &[ConversionPattern],
    types: &TypeConverter,
    full: bool,
) -> Result<(), Box<Diagnostic>> {
    let mut by_root: FxHashMap<crate::context::Symbol, Vec<&ConversionPattern>> =
        FxHashMap::default();
    for p in patterns {
        by_root.entry(ctx.sym(p.root)).or_default().push(p);
    }
    for list in by_root.values_mut() {
        list.sort_by_key(|p| std::cmp::Reverse(p.benefit));
    }
    let mut order = reachable_ops(ir, root);
    let initial = order.len();
    let mut state = CastState {
        roots: by_root.keys().copied().collect(),
        ..CastState::default()
    };
    let mut rules: FxHashMap<crate::context::Symbol, Option<Legality>> = FxHashMap::default();
    let cast_sym = ctx.sym(CAST);
    let mut journal = Journal::default();
    let mut i = 0;
    while i < order.len() {
        let op = order[i];
        i += 1;
        if ir.is_erased(op) || journal.erased.contains(&op) {
            continue;
        }
        let name_sym = ir.op_name(op);
        // Rules per op name, looked up once (dynamic ones run per op).
        let rule = *rules
            .entry(name_sym)
            .or_insert_with(|| target.rule(ctx.str(name_sym)));
        let legality = match rule {
            Some(Legality::Legal) => Some(true),
            Some(Legality::Illegal) => Some(false),
            Some(Legality::Dynamic(f)) => Some(f(ctx, ir, op)),
            None => None,
        };
        // Casts the conversion itself materialises are its bookkeeping;
        // as in MLIR, where replacements apply at the end, a cast of a
        // value this conversion replaced is left alone.
        if legality == Some(true)
            || (name_sym == cast_sym
                && (i > initial
                    || ir.operands(op).any(|v| {
                        ir.defining_op(v)
                            .is_some_and(|d| state.cast_set.contains(&d))
                    })))
        {
            continue;
        }
        let convertible = |ctx: &Context, ir: &Ir, o: OpId| {
            target.is_legal(ctx, ir, o) == Some(true) || by_root.contains_key(&ir.op_name(o))
        };
        match try_fold(ctx, ir, op, types, &mut state, &mut journal, &convertible) {
            Folded::Replaced => {
                order.append(&mut journal.created);
                continue;
            }
            Folded::InPlace | Folded::No => {}
        }
        let mut applied = false;
        for p in by_root.get(&name_sym).map(|v| v.as_slice()).unwrap_or(&[]) {
            let mut cr = ConversionRewriter {
                rw: Rewriter::new(ctx, ir, &mut journal),
                types,
                state: &mut state,
            };
            let operands: Vec<ValueId> = cr.rw.ir.operands(op).collect();
            let mark = cr.state.casts.len();
            let adaptor: Vec<ValueId> = operands.iter().map(|&v| cr.remapped(v, op)).collect();
            cr.rw.set_insertion_point(op);
            if (p.apply)(&mut cr, op, &adaptor) {
                applied = true;
                break;
            }
            if let Some(e) = state.error.take() {
                return Err(e);
            }
            // Unused target materialisations of a pattern that declined.
            for c in state.casts.drain(mark..).collect::<Vec<_>>() {
                let r = ir.result(c, 0);
                if !ir.has_uses(r) {
                    state.mapping.retain(|_, v| *v != r);
                    state.back_casts.retain(|_, v| *v != r);
                    let mut rw = Rewriter::new(ctx, ir, &mut journal);
                    rw.erase_op(c);
                }
            }
        }
        if !applied && (full || legality == Some(false)) {
            let name = ctx.str(name_sym);
            let msg = if legality == Some(false) {
                format!("failed to legalize operation '{name}' that was explicitly marked illegal")
            } else {
                format!("failed to legalize operation '{name}'")
            };
            return Err(Box::new(Diagnostic::error(ir.op_loc(op), msg)));
        }
        order.append(&mut journal.created);
    }
    // Materialisations nobody uses go; so do chains of them.
    let mut changed = true;
    while changed {
        changed = false;
        for &c in &state.casts {
            if !ir.is_erased(c) && ir.results(c).all(|r| !ir.has_uses(r)) {
                ir.erase_op(c);
                changed = true;
            }
        }
    }
    Ok(())
}

fn convert(
    ctx: &mut Context,
    ir: &mut Ir,
    root: OpId,
    target: &ConversionTarget,
    patterns: &[ConversionPattern],
    types: &TypeConverter,
    full: bool,
) -> Result<(), Box<Diagnostic>> {
    let saved = ir.clone();
    let result = legalize(ctx, ir, root, target, patterns, types, full);
    if result.is_err() {
        *ir = saved;
    }
    result
}

/// Converts what can be converted under `root`; fails only on ops the
/// target marks illegal that no pattern converts.
pub fn apply_partial_conversion(
    ctx: &mut Context,
    ir: &mut Ir,
    root: OpId,
    target: &ConversionTarget,
    patterns: &[ConversionPattern],
    types: &TypeConverter,
) -> Result<(), Box<Diagnostic>> {
    convert(ctx, ir, root, target, patterns, types, false)
}

/// What a conversion without patterns does to the ops under `root` that
/// `target` does not mark legal: folds them (MLIR's conversions fold
/// every op of unknown legality they visit). Passes that lower by hand
/// use it to treat the other ops as MLIR's conversion would.
pub fn fold_ops_of_unknown_legality(
    ctx: &mut Context,
    ir: &mut Ir,
    root: OpId,
    target: &ConversionTarget,
) -> Result<(), Box<Diagnostic>> {
    legalize(
        ctx,
        ir,
        root,
        target,
        &[],
        &TypeConverter::identity(),
        false,
    )
}

/// Converts every op under `root` that the target does not mark legal;
/// fails at the first that cannot be.
pub fn apply_full_conversion(
    ctx: &mut Context,
    ir: &mut Ir,
    root: OpId,
    target: &ConversionTarget,
    patterns: &[ConversionPattern],
    types: &TypeConverter,
) -> Result<(), Box<Diagnostic>> {
    convert(ctx, ir, root, target, patterns, types, true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conversion::Legality;
    use crate::parser::{parse, ParseOptions};
    use crate::printer::{print_module, PrintFlags};
    use crate::resources::Resources;

    const SRC: &[u8] = b"%a = \"t.src\"() : () -> i32\n\
        %b = \"t.add\"(%a, %a) : (i32, i32) -> i32\n\
        \"t.use\"(%b) : (i32) -> ()\n";

    fn widen(ctx: &mut Context, t: Type) -> Option<Type> {
        (ctx.int_width(t) == Some(32)).then(|| ctx.signless(64))
    }

    fn add_to_add64(cr: &mut ConversionRewriter<'_, '_>, op: OpId, operands: &[ValueId]) -> bool {
        let i64t = cr.rw.ctx.signless(64);
        let loc = cr.rw.ir.op_loc(op);
        let new = cr.rw.create_simple("t.add64", operands, &[i64t], None, loc);
        let v = cr.rw.ir.result(new, 0);
        cr.replace_op(op, &[v]);
        true
    }

    const PATTERNS: &[ConversionPattern] = &[ConversionPattern {
        root: "t.add",
        name: "AddToAdd64",
        benefit: 1,
        apply: add_to_add64,
    }];

    fn setup() -> (
        Context,
        crate::parser::ParsedModule,
        ConversionTarget,
        TypeConverter,
    ) {
        let mut ctx = Context::new();
        ctx.allow_unregistered = true;
        let m = parse(&mut ctx, "t", SRC, ParseOptions::default()).unwrap();
        let mut target = ConversionTarget::new();
        target
            .set_op("t.add", Legality::Illegal)
            .set_op("t.add64", Legality::Legal)
            .set_op("t.src", Legality::Legal)
            .set_op("builtin.module", Legality::Legal);
        let mut types = TypeConverter::identity();
        types.add(widen);
        (ctx, m, target, types)
    }

    fn text(ctx: &Context, m: &crate::parser::ParsedModule) -> String {
        print_module(
            ctx,
            &m.ir,
            m.top,
            &Resources::default(),
            PrintFlags::default(),
        )
    }

    #[test]
    fn partial_conversion_materialises_casts() {
        let (mut ctx, mut m, target, types) = setup();
        apply_partial_conversion(&mut ctx, &mut m.ir, m.top, &target, PATTERNS, &types).unwrap();
        let t = text(&ctx, &m);
        assert!(
            t.contains("unrealized_conversion_cast %0 : i32 to i64"),
            "{t}"
        );
        assert!(t.contains("\"t.add64\"(%1, %1) : (i64, i64) -> i64"), "{t}");
        assert!(
            t.contains("unrealized_conversion_cast %2 : i64 to i32"),
            "{t}"
        );
        assert!(t.contains("\"t.use\"(%3) : (i32) -> ()"), "{t}");
    }

    #[test]
    fn full_conversion_fails_and_rolls_back() {
        let (mut ctx, mut m, target, types) = setup();
        let before = text(&ctx, &m);
        let err = apply_full_conversion(&mut ctx, &mut m.ir, m.top, &target, PATTERNS, &types)
            .unwrap_err();
        assert_eq!(err.message, "failed to legalize operation 't.use'");
        assert_eq!(text(&ctx, &m), before);
    }

    #[test]
    fn illegal_op_without_pattern_fails() {
        let (mut ctx, mut m, mut target, types) = setup();
        target.set_op("t.use", Legality::Illegal);
        let err = apply_partial_conversion(&mut ctx, &mut m.ir, m.top, &target, PATTERNS, &types)
            .unwrap_err();
        assert_eq!(
            err.message,
            "failed to legalize operation 't.use' that was explicitly marked illegal"
        );
    }
}
