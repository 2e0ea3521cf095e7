//! The verifier: structural rules of the builtin dialect, successors,
//! symbol uniqueness, isolation from above, and SSA dominance in SSACFG
//! regions (graph regions skip dominance).

use crate::attrs::AttrKind;
use crate::context::{Attr, Context};
use crate::diag::Diagnostic;
use crate::dialect::{OpDef, Traits};
use crate::graph::{BlockId, Ir, OpId, RegionId, ValueDef, ValueId};
use rustc_hash::FxHashMap;

/// How verification errors describe the failing op.
#[derive(Clone, Copy, Default)]
pub struct VerifyOptions {
    /// Attach a "see current operation" note (mlir-opt does unless it is
    /// verifying expected diagnostics).
    pub print_op: bool,
    /// Print locations in that note (`--mlir-print-debuginfo`).
    pub debug_info: bool,
}

/// Below this many ops, the per-op checks run on one thread.
const PARALLEL_MIN_OPS: usize = 20_000;

/// Verifies everything nested in `top`. Like MLIR, which verifies each op
/// that is isolated from above (a function) on its own once the ops around
/// it pass, the error returned carries the first error of every such op
/// that fails (the later ones as notes of severity error).
pub fn verify(
    ctx: &mut Context,
    ir: &Ir,
    top: OpId,
    opts: VerifyOptions,
) -> Result<(), Box<Diagnostic>> {
    let Err(first) = verify_ops(ctx, ir, top, top, opts, false) else {
        return Ok(());
    };
    let mut errors = Vec::new();
    collect_unit_errors(ctx, ir, top, top, opts, &mut errors);
    let mut errors = errors.into_iter();
    let Some(mut all) = errors.next() else {
        return Err(first);
    };
    for mut e in errors {
        let notes = std::mem::take(&mut e.notes);
        all.notes.push(e);
        all.notes.extend(notes);
    }
    Err(Box::new(all))
}

/// The first error of `root`'s own unit (the ops nested in it outside
/// isolated-from-above ops), or else those of each isolated op in it.
fn collect_unit_errors(
    ctx: &mut Context,
    ir: &Ir,
    top: OpId,
    root: OpId,
    opts: VerifyOptions,
    errors: &mut Vec<Diagnostic>,
) {
    if let Err(d) = verify_ops(ctx, ir, top, root, opts, true) {
        errors.push(*d);
        return;
    }
    let mut isolated = Vec::new();
    walk_unit(ctx, ir, root, &mut |op| {
        if op != root && is_isolated(ctx, ir, op) {
            isolated.push(op);
        }
    });
    for op in isolated {
        collect_unit_errors(ctx, ir, top, op, opts, errors);
    }
}

/// Whether `op` has regions and is isolated from above: MLIR verifies it
/// as a unit of its own.
fn is_isolated(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    ir.num_regions(op) > 0
        && ctx
            .op_def(ir.op_name(op))
            .is_some_and(|d| d.traits.has(Traits::ISOLATED_FROM_ABOVE))
}

/// Walks `root` and the ops nested in it pre-order, visiting but not
/// entering isolated-from-above ops other than `root`.
fn walk_unit(ctx: &Context, ir: &Ir, root: OpId, f: &mut dyn FnMut(OpId)) {
    let mut stack = vec![root];
    while let Some(o) = stack.pop() {
        f(o);
        if o != root && is_isolated(ctx, ir, o) {
            continue;
        }
        let base = stack.len();
        for r in ir.regions(o) {
            for b in ir.region_blocks(r) {
                stack.extend(ir.block_ops(b));
            }
        }
        stack[base..].reverse();
    }
}

/// Verifies `root` and the ops nested in it (with `unit`, not those in
/// isolated-from-above ops below `root`); returns the first error.
fn verify_ops(
    ctx: &mut Context,
    ir: &Ir,
    top: OpId,
    root: OpId,
    opts: VerifyOptions,
    unit: bool,
) -> Result<(), Box<Diagnostic>> {
    let mut order = BLOCK_POSITIONS.take();
    if order.len() < ir.op_capacity() {
        order.resize(ir.op_capacity(), 0);
    }
    let ops = number_ops(ctx, ir, root, unit, &mut order);
    let result = verify_numbered(ctx, ir, top, root, opts, unit, &ops, &order);
    for &op in &ops {
        for o in block_children(ir, op) {
            order[o.0 as usize] = 0;
        }
    }
    BLOCK_POSITIONS.set(order);
    result
}

thread_local! {
    /// The position of each op within its block, indexed by op over the
    /// whole arena and zero outside a verification: allocated once per
    /// thread rather than once for each op verified.
    static BLOCK_POSITIONS: std::cell::Cell<Vec<u32>> = const { std::cell::Cell::new(Vec::new()) };
}

/// The ops in the blocks of `op`'s regions.
fn block_children(ir: &Ir, op: OpId) -> impl Iterator<Item = OpId> + '_ {
    ir.regions(op)
        .flat_map(move |r| ir.region_blocks(r))
        .flat_map(move |b| ir.block_ops(b))
}

/// [`verify_ops`] once `ops` are listed and `order` holds their
/// children's block positions.
#[allow(clippy::too_many_arguments)]
fn verify_numbered(
    ctx: &mut Context,
    ir: &Ir,
    top: OpId,
    root: OpId,
    opts: VerifyOptions,
    unit: bool,
    ops: &[OpId],
    order: &[u32],
) -> Result<(), Box<Diagnostic>> {
    // Each op's own checks read only the IR and the context: large IR is
    // checked in two halves on two threads, and the first failure in op
    // order is reported, as one thread would. A check that must intern
    // (rare) stops its half; the rest is checked below.
    let mut resume = 0;
    if ops.len() >= PARALLEL_MIN_OPS {
        let shared: &Context = ctx;
        let (first, second) = ops.split_at(ops.len() / 2);
        let check = |ops: &[OpId]| {
            let mut v = Verifier::new(CtxRef::Shared(shared), ir, top, opts, order);
            check_ops(&mut v, ops)
        };
        let (a, b) = std::thread::scope(|scope| {
            let second_half = scope.spawn(|| check(second));
            let a = check(first);
            (a, second_half.join().expect("verifier thread"))
        });
        resume = match (a, b) {
            (Stop::Failed(d), _) | (Stop::Done, Stop::Failed(d)) => return Err(d),
            (Stop::NeedsContext(i), _) => i,
            (Stop::Done, Stop::NeedsContext(j)) => first.len() + j,
            (Stop::Done, Stop::Done) => ops.len(),
        };
    }
    let mut v = Verifier::new(CtxRef::Exclusive(ctx), ir, top, opts, order);
    for &op in &ops[resume..] {
        v.verify_op(op)?;
    }

    // Blocks end with terminators, and region verifiers run, once the
    // nested ops are verified: in post order, as MLIR checks on leaving
    // an op.
    for op in post_order(v.ctx(), ir, root, unit) {
        let def = v.ctx().op_def(ir.op_name(op));
        if def.is_some_and(|d| !d.traits.has(Traits::NO_TERMINATOR)) {
            v.verify_terminators(op)?;
        }
        if let Some(verify_regions) = def.and_then(|d| d.verify_regions) {
            verify_regions(&mut OpVerifier { v: &mut v }, op)?;
        }
    }
    Ok(())
}

/// Where checking a run of ops stopped.
enum Stop {
    Done,
    Failed(Box<Diagnostic>),
    /// The check of the op at this index needs to intern: it is to be
    /// checked again with the context to itself.
    NeedsContext(usize),
}

fn check_ops(v: &mut Verifier<'_>, ops: &[OpId]) -> Stop {
    for (i, &op) in ops.iter().enumerate() {
        if let Err(d) = v.verify_op(op) {
            return if v.needs_context {
                Stop::NeedsContext(i)
            } else {
                Stop::Failed(d)
            };
        }
    }
    Stop::Done
}

/// The ops nested in `root` (and `root`) in pre-order (with `unit`, not
/// entering isolated-from-above ops below `root`); the position within
/// its block of each op in their regions goes to `order`.
fn number_ops(ctx: &Context, ir: &Ir, root: OpId, unit: bool, order: &mut [u32]) -> Vec<OpId> {
    let mut ops = Vec::new();
    let mut visit = |op: OpId| {
        ops.push(op);
        for r in ir.regions(op) {
            for b in ir.region_blocks(r) {
                for (i, o) in ir.block_ops(b).enumerate() {
                    order[o.0 as usize] = i as u32;
                }
            }
        }
    };
    if unit {
        walk_unit(ctx, ir, root, &mut |op| {
            if op == root || !is_isolated(ctx, ir, op) {
                visit(op);
            }
        });
    } else {
        ir.walk(root, &mut visit);
    }
    ops
}

/// The ops nested in `root` (and `root`) that have regions or a region
/// verifier, each after the ops nested in it and after its earlier
/// siblings; with `unit`, not those in isolated-from-above ops below
/// `root`.
fn post_order(ctx: &Context, ir: &Ir, root: OpId, unit: bool) -> Vec<OpId> {
    let wanted = |op: OpId| {
        if unit && is_isolated(ctx, ir, op) {
            return false;
        }
        ir.num_regions(op) > 0
            || ctx
                .op_def(ir.op_name(op))
                .is_some_and(|d| d.verify_regions.is_some())
    };
    let mut out = Vec::new();
    // (op, whether its children are already pushed)
    let mut stack = vec![(root, false)];
    while let Some((op, expanded)) = stack.pop() {
        if expanded || ir.num_regions(op) == 0 {
            out.push(op);
            continue;
        }
        stack.push((op, true));
        let base = stack.len();
        for r in ir.regions(op) {
            for b in ir.region_blocks(r) {
                stack.extend(ir.block_ops(b).filter(|&c| wanted(c)).map(|c| (c, false)));
            }
        }
        stack[base..].reverse();
    }
    out
}

/// What an op's verifier sees: the IR, and errors formatted as the
/// verifier formats them.
pub struct OpVerifier<'v, 'a> {
    v: &'v mut Verifier<'a>,
}

impl<'a> OpVerifier<'_, 'a> {
    /// The context.
    pub fn ctx(&self) -> &Context {
        self.v.ctx()
    }

    /// The context, to intern the types a verifier infers. Fails when
    /// the op is checked on a thread sharing the context; the verifier
    /// then checks it again with the context to itself.
    pub fn ctx_mut(&mut self) -> Result<&mut Context, Box<Diagnostic>> {
        match &mut self.v.ctx {
            CtxRef::Exclusive(ctx) => Ok(ctx),
            CtxRef::Shared(_) => {
                self.v.needs_context = true;
                let msg = "the verifier needs to intern";
                Err(Box::new(Diagnostic::error(
                    crate::context::UNKNOWN_LOC,
                    msg,
                )))
            }
        }
    }

    /// The IR being verified.
    pub fn ir(&self) -> &'a Ir {
        self.v.ir
    }

    /// `'name' op msg` at `op`, as MLIR's `emitOpError`.
    pub fn op_error(&mut self, op: OpId, msg: impl std::fmt::Display) -> Box<Diagnostic> {
        let name = self.v.op_name(op);
        self.v.op_error(op, format!("'{name}' op {msg}"))
    }

    /// MLIR's count traits for an op without a signature: `regions`
    /// regions, `results` results, and `operands` operands (at least that
    /// many when `variadic`), checked in MLIR's order.
    pub fn check_counts(
        &mut self,
        op: OpId,
        regions: usize,
        results: usize,
        operands: usize,
        variadic: bool,
    ) -> Result<(), Box<Diagnostic>> {
        let ir = self.v.ir;
        let n = ir.num_regions(op);
        if n != regions {
            let msg = match regions {
                0 => "requires zero regions".to_string(),
                1 => "requires one region".to_string(),
                _ => format!("expected {regions} regions"),
            };
            return Err(self.op_error(op, msg));
        }
        use crate::format::check::count_message;
        let n = ir.num_results(op);
        if n != results {
            return Err(self.op_error(op, count_message("result", results, false, n)));
        }
        let n = ir.num_operands(op);
        if n < operands || !variadic && n != operands {
            return Err(self.op_error(op, count_message("operand", operands, variadic, n)));
        }
        Ok(())
    }

    /// `msg` at `op`, as MLIR's `emitError`.
    pub fn error(&mut self, op: OpId, msg: impl Into<String>) -> Box<Diagnostic> {
        self.v.op_error(op, msg.into())
    }
}

/// The context as a verifier holds it.
enum CtxRef<'a> {
    /// Shared with other verifier threads.
    Shared(&'a Context),
    Exclusive(&'a mut Context),
}

struct Verifier<'a> {
    ctx: CtxRef<'a>,
    ir: &'a Ir,
    top: OpId,
    opts: VerifyOptions,
    /// Position of each op within its block.
    order: &'a [u32],
    /// Immediate dominators per multi-block region (None = unreachable).
    dom: FxHashMap<RegionId, FxHashMap<BlockId, Option<BlockId>>>,
    /// Set when a check needed to intern with a shared context.
    needs_context: bool,
}

impl<'a> Verifier<'a> {
    fn new(ctx: CtxRef<'a>, ir: &'a Ir, top: OpId, opts: VerifyOptions, order: &'a [u32]) -> Self {
        Verifier {
            ctx,
            ir,
            top,
            opts,
            order,
            dom: FxHashMap::default(),
            needs_context: false,
        }
    }

    fn ctx(&self) -> &Context {
        match &self.ctx {
            CtxRef::Shared(ctx) => ctx,
            CtxRef::Exclusive(ctx) => ctx,
        }
    }

    fn op_error(&mut self, op: OpId, msg: String) -> Box<Diagnostic> {
        let loc = self.ir.op_loc(op);
        if !self.opts.print_op {
            return Box::new(Diagnostic::error(loc, msg));
        }
        let text = crate::printer::op_to_string_generic(
            self.ctx(),
            self.ir,
            self.top,
            op,
            self.opts.debug_info,
        );
        let sep = if self.ir.num_regions(op) > 0 {
            "\n"
        } else {
            ""
        };
        Box::new(
            Diagnostic::error(loc, msg)
                .with_note(loc, format!("see current operation: {sep}{text}")),
        )
    }

    fn op_name(&self, op: OpId) -> String {
        self.ctx().str(self.ir.op_name(op)).to_string()
    }

    fn verify_op(&mut self, op: OpId) -> Result<(), Box<Diagnostic>> {
        let ir = self.ir;
        if let Some(def) = self.ctx().op_def(ir.op_name(op)) {
            self.verify_traits(op, def)?;
            if let Some(sig) = def.signature {
                crate::format::verify_signature(&mut OpVerifier { v: self }, op, sig)?;
            }
            if def.inherent_attrs.contains(&"sym_name") {
                self.verify_symbol(op)?;
            }
            if let Some(verify) = def.verify {
                verify(&mut OpVerifier { v: self }, op)?;
            }
            if def.traits.has(Traits::ISOLATED_FROM_ABOVE) {
                self.verify_isolation(op)?;
            }
            if def.traits.has(Traits::SYMBOL_TABLE) {
                for r in ir.regions(op) {
                    if let Some(body) = ir.entry_block(r) {
                        self.verify_symbol_uniqueness(body)?;
                    }
                }
            }
        } else if let Some(dialect) = self.registered_dialect_of(op) {
            let name = self.ctx().str(ir.op_name(op));
            let msg = format!("unregistered operation '{name}' found in dialect ('{dialect}') that does not allow unknown operations");
            return Err(self.op_error(op, msg));
        }
        // No branch may lead back to a region's entry block.
        for r in ir.regions(op) {
            let Some(entry) = ir.entry_block(r) else {
                continue;
            };
            let branches_to_entry = ir
                .region_blocks(r)
                .filter_map(|b| ir.last_op(b))
                .any(|t| ir.successors(t).contains(&entry));
            if branches_to_entry {
                let loc = ir.op_loc(op);
                let msg = "entry block of region may not have predecessors";
                return Err(Box::new(Diagnostic::error(loc, msg)));
            }
        }
        // Successors must live in the same region as the op.
        let region = ir.op_block(op).and_then(|b| ir.block_region(b));
        for &s in ir.successors(op) {
            if ir.block_region(s) != region {
                return Err(self.op_error(
                    op,
                    "reference to block defined in another region".to_string(),
                ));
            }
        }
        // Operands must dominate their use.
        for (i, v) in ir.operands(op).enumerate() {
            if !self.dominates_use(v, op) {
                return Err(self.dominance_error(op, i, v));
            }
        }
        Ok(())
    }

    /// MLIR's symbol checks for an op that names a symbol: a known
    /// visibility, and a parent that is a symbol table (unless the parent
    /// is unregistered).
    fn verify_symbol(&mut self, op: OpId) -> Result<(), Box<Diagnostic>> {
        let ir = self.ir;
        if crate::dialect::inherent_attr(self.ctx(), ir, op, "sym_name").is_none() {
            return Ok(());
        }
        if let Some(msg) = crate::symbols::visibility_error(self.ctx(), ir, op) {
            let name = self.op_name(op);
            return Err(self.op_error(op, format!("'{name}' op {msg}")));
        }
        let parent_def = ir
            .parent_op(op)
            .and_then(|p| self.ctx().op_def(ir.op_name(p)));
        if parent_def.is_some_and(|d| !d.traits.has(Traits::SYMBOL_TABLE)) {
            let name = self.op_name(op);
            let msg = format!("'{name}' op symbol's parent must have the SymbolTable trait");
            return Err(self.op_error(op, msg));
        }
        Ok(())
    }

    /// The registered dialect an unregistered op claims to belong to.
    fn registered_dialect_of(&self, op: OpId) -> Option<&'static str> {
        let name = self.ctx().str(self.ir.op_name(op));
        let (dialect, _) = name.split_once('.')?;
        self.ctx().dialect(dialect).map(|d| d.name)
    }

    /// The structural traits of `def`: allowed parents, block counts,
    /// region arguments.
    fn verify_traits(&mut self, op: OpId, def: &OpDef) -> Result<(), Box<Diagnostic>> {
        let ir = self.ir;
        let name = def.name;
        if !def.parents.is_empty() {
            let parent = ir.parent_op(op).map(|p| self.ctx().str(ir.op_name(p)));
            if !parent.is_some_and(|p| def.parents.contains(&p)) {
                let msg = match def.parents {
                    [one] => format!("'{name}' op expects parent op '{one}'"),
                    many => format!(
                        "'{name}' op expects parent op to be one of '{}'",
                        many.join(", ")
                    ),
                };
                return Err(self.op_error(op, msg));
            }
        }
        if def.traits.has(Traits::TERMINATOR) && ir.next_op(op).is_some() {
            let msg = format!("'{name}' op must be the last operation in the parent block");
            return Err(self.op_error(op, msg));
        }
        for (i, r) in ir.regions(op).enumerate() {
            let mut blocks = ir.region_blocks(r);
            let entry = blocks.next();
            if def.traits.has(Traits::SINGLE_BLOCK) && blocks.next().is_some() {
                let msg = format!("'{name}' op expects region #{i} to have 0 or 1 blocks");
                return Err(self.op_error(op, msg));
            }
            let has_args = entry.is_some_and(|b| !ir.block_args(b).is_empty());
            if def.traits.has(Traits::NO_REGION_ARGUMENTS) && has_args {
                let msg = if ir.num_regions(op) > 1 {
                    format!("'{name}' op region #{i} should have no arguments")
                } else {
                    format!("'{name}' op region should have no arguments")
                };
                return Err(self.op_error(op, msg));
            }
        }
        Ok(())
    }

    /// Every block of `op`'s regions ends with an op that may be a
    /// terminator (a registered terminator, or an unregistered op).
    fn verify_terminators(&mut self, op: OpId) -> Result<(), Box<Diagnostic>> {
        let ir = self.ir;
        for r in ir.regions(op) {
            for b in ir.region_blocks(r) {
                let Some(last) = ir.last_op(b) else {
                    let msg = "empty block: expect at least a terminator".to_string();
                    return Err(Box::new(Diagnostic::error(ir.op_loc(op), msg)));
                };
                let def = self.ctx().op_def(ir.op_name(last));
                if def.is_some_and(|d| !d.traits.has(Traits::TERMINATOR)) {
                    let text = crate::printer::op_to_string_generic(
                        self.ctx(),
                        ir,
                        self.top,
                        last,
                        self.opts.debug_info,
                    );
                    let msg = format!("block with no terminator, has {text}");
                    return Err(Box::new(Diagnostic::error(ir.op_loc(last), msg)));
                }
            }
        }
        Ok(())
    }

    /// Values used inside `op`'s regions must be defined inside them.
    fn verify_isolation(&mut self, op: OpId) -> Result<(), Box<Diagnostic>> {
        let ir = self.ir;
        let mut nested = Vec::new();
        for r in ir.regions(op) {
            for b in ir.region_blocks(r) {
                for o in ir.block_ops(b) {
                    ir.walk(o, &mut |x| nested.push(x));
                }
            }
        }
        for user in nested {
            for v in ir.operands(user) {
                if !self.is_defined_within(v, op) {
                    let name = self.op_name(op);
                    let loc = ir.op_loc(op);
                    let mut d = self.op_error(
                        user,
                        format!("'{name}' op using value defined outside the region"),
                    );
                    d.message = format!(
                        "'{}' op using value defined outside the region",
                        self.op_name(user)
                    );
                    let mut diag = Diagnostic::error(ir.op_loc(user), d.message.clone());
                    diag.notes = d.notes;
                    diag = diag.with_note(loc, "required by region isolation constraints");
                    return Err(Box::new(diag));
                }
            }
        }
        Ok(())
    }

    fn is_defined_within(&self, v: ValueId, op: OpId) -> bool {
        let ir = self.ir;
        let mut block = ir.value_block(v);
        while let Some(b) = block {
            let Some(r) = ir.block_region(b) else {
                return false;
            };
            let Some(parent) = ir.region_op(r) else {
                return false;
            };
            if parent == op {
                return true;
            }
            block = ir.op_block(parent);
        }
        false
    }

    fn verify_symbol_uniqueness(&mut self, body: BlockId) -> Result<(), Box<Diagnostic>> {
        let ir = self.ir;
        let sym_name = self.ctx().lookup_sym("sym_name");
        let Some(sym_name) = sym_name else {
            return Ok(());
        };
        let mut seen: FxHashMap<Vec<u8>, OpId> = FxHashMap::default();
        for op in ir.block_ops(body) {
            let Some(name) = symbol_name(self.ctx(), ir, op, sym_name) else {
                continue;
            };
            if let Some(&prev) = seen.get(&name) {
                let msg = format!(
                    "redefinition of symbol named '{}'",
                    String::from_utf8_lossy(&name)
                );
                let loc = ir.op_loc(op);
                let prev_loc = ir.op_loc(prev);
                let mut d = self.op_error(op, msg);
                d.notes.push(Diagnostic {
                    severity: crate::diag::Severity::Note,
                    loc: prev_loc,
                    message: "see existing symbol definition here".into(),
                    notes: Vec::new(),
                });
                d.loc = loc;
                return Err(d);
            }
            seen.insert(name, op);
        }
        Ok(())
    }

    // ----- dominance ---------------------------------------------------------

    /// Whether `r` has no SSA dominance (see [`is_graph_region`]).
    fn is_graph_region(&self, r: RegionId) -> bool {
        is_graph_region(self.ctx(), self.ir, r)
    }

    /// Whether `v` properly dominates its use by `user`.
    fn dominates_use(&mut self, v: ValueId, user: OpId) -> bool {
        let ir = self.ir;
        let (def_block, def_op) = match ir.value_def(v) {
            ValueDef::Result { op, .. } => match ir.op_block(op) {
                Some(b) => (b, Some(op)),
                None => return false,
            },
            ValueDef::Argument { block, .. } => (block, None),
            ValueDef::Placeholder => return false,
        };
        let Some(def_region) = ir.block_region(def_block) else {
            return false;
        };
        // Find the ancestor of `user` that lives in `def_region`.
        let mut anc = user;
        loop {
            let Some(b) = ir.op_block(anc) else {
                return false;
            };
            if ir.block_region(b) == Some(def_region) {
                break;
            }
            let Some(r) = ir.block_region(b) else {
                return false;
            };
            let Some(p) = ir.region_op(r) else {
                return false;
            };
            anc = p;
        }
        let anc_block = ir.op_block(anc).expect("ancestor in a block");
        if anc_block == def_block {
            let before = match def_op {
                None => true,
                Some(d) => d != anc && self.order[d.0 as usize] < self.order[anc.0 as usize],
            };
            // Graph regions need no order (the common case is checked
            // first: it needs no lookup).
            return before || self.is_graph_region(def_region);
        }
        self.is_graph_region(def_region) || self.block_dominates(def_region, def_block, anc_block)
    }

    fn block_dominates(&mut self, region: RegionId, a: BlockId, b: BlockId) -> bool {
        let idom = self
            .dom
            .entry(region)
            .or_insert_with(|| compute_idoms(self.ir, region));
        // Unreachable blocks are dominated by everything.
        if !matches!(idom.get(&b), Some(Some(_))) && self.ir.entry_block(region) != Some(b) {
            return true;
        }
        let mut cur = Some(b);
        while let Some(c) = cur {
            if c == a {
                return true;
            }
            let next = idom.get(&c).copied().flatten();
            if next == Some(c) {
                break;
            }
            cur = next;
        }
        false
    }

    fn dominance_error(&mut self, user: OpId, index: usize, v: ValueId) -> Box<Diagnostic> {
        let ir = self.ir;
        let mut d = self.op_error(user, format!("operand #{index} does not dominate this use"));
        let user_block = ir.op_block(user);
        let r1 = user_block.and_then(|b| ir.block_region(b));
        match ir.value_def(v) {
            ValueDef::Result { op, .. } => {
                let b2 = ir.op_block(op);
                let r2 = b2.and_then(|b| ir.block_region(b));
                let rel = if user_block == b2 {
                    " (op in the same block)"
                } else if r1 == r2 {
                    " (op in the same region)"
                } else if self.region_is_ancestor(r2, r1) {
                    " (op in a parent region)"
                } else if self.region_is_ancestor(r1, r2) {
                    " (op in a child region)"
                } else {
                    " (op is neither in a parent nor in a child region)"
                };
                let loc = ir.op_loc(op);
                d = Box::new(d.with_note(loc, format!("operand defined here{rel}")));
            }
            ValueDef::Argument { block, .. } => {
                let r2 = ir.block_region(block);
                let loc = r2
                    .and_then(|r| ir.region_op(r))
                    .map(|o| ir.op_loc(o))
                    .unwrap_or_else(|| self.ctx().unknown_loc());
                let index = r2.map_or(0, |r| {
                    ir.region_blocks(r).position(|b| b == block).unwrap_or(0)
                });
                let rel = if r1 == r2 {
                    " in the same region)"
                } else if self.region_is_ancestor(r2, r1) {
                    " in a parent region)"
                } else if self.region_is_ancestor(r1, r2) {
                    " in a child region)"
                } else {
                    " neither in a parent nor in a child region)"
                };
                d = Box::new(d.with_note(
                    loc,
                    format!("operand defined as a block argument (block #{index}{rel}"),
                ));
            }
            ValueDef::Placeholder => {}
        }
        d
    }

    /// Whether `a` is a proper ancestor of `b`.
    fn region_is_ancestor(&self, a: Option<RegionId>, b: Option<RegionId>) -> bool {
        let (Some(a), Some(mut b)) = (a, b) else {
            return false;
        };
        loop {
            let Some(op) = self.ir.region_op(b) else {
                return false;
            };
            let Some(r) = self
                .ir
                .op_block(op)
                .and_then(|blk| self.ir.block_region(blk))
            else {
                return false;
            };
            if r == a {
                return true;
            }
            b = r;
        }
    }
}

/// The `sym_name` of an op (from properties or attributes), if any.
pub fn symbol_name(
    ctx: &Context,
    ir: &Ir,
    op: OpId,
    key: crate::context::Symbol,
) -> Option<Vec<u8>> {
    let lookup = |dict: Attr| {
        ctx.dict_entries(dict)
            .iter()
            .find(|(k, _)| *k == key)
            .and_then(|(_, v)| match ctx.attr_kind(*v) {
                AttrKind::String { value, .. } => Some(value.to_vec()),
                _ => None,
            })
    };
    ir.op_props(op)
        .and_then(lookup)
        .or_else(|| lookup(ir.op_attrs(op)))
}

/// Immediate dominators of the blocks of `region` (Cooper, Harvey and
/// Kennedy's iterative algorithm). The entry maps to itself; unreachable
/// blocks map to `None`.
pub(crate) fn compute_idoms(ir: &Ir, region: RegionId) -> FxHashMap<BlockId, Option<BlockId>> {
    let blocks: Vec<BlockId> = ir.region_blocks(region).collect();
    let mut idom: FxHashMap<BlockId, Option<BlockId>> = blocks.iter().map(|&b| (b, None)).collect();
    let Some(&entry) = blocks.first() else {
        return idom;
    };
    let succs = |b: BlockId| -> Vec<BlockId> {
        ir.block_ops(b)
            .flat_map(|o| ir.successors(o).to_vec())
            .collect()
    };
    // Reverse post-order.
    let mut post = Vec::new();
    let mut visited = rustc_hash::FxHashSet::default();
    let mut stack = vec![(entry, false)];
    while let Some((b, done)) = stack.pop() {
        if done {
            post.push(b);
            continue;
        }
        if !visited.insert(b) {
            continue;
        }
        stack.push((b, true));
        for s in succs(b).into_iter().rev() {
            if !visited.contains(&s) {
                stack.push((s, false));
            }
        }
    }
    let rpo: Vec<BlockId> = post.iter().rev().copied().collect();
    let po_index: FxHashMap<BlockId, usize> =
        post.iter().enumerate().map(|(i, &b)| (b, i)).collect();
    let mut preds: FxHashMap<BlockId, Vec<BlockId>> = FxHashMap::default();
    for &b in &rpo {
        for s in succs(b) {
            preds.entry(s).or_default().push(b);
        }
    }
    idom.insert(entry, Some(entry));
    let mut changed = true;
    while changed {
        changed = false;
        for &b in rpo.iter().skip(1) {
            let mut new: Option<BlockId> = None;
            for &p in preds.get(&b).map(|v| v.as_slice()).unwrap_or(&[]) {
                if idom.get(&p).copied().flatten().is_none() {
                    continue;
                }
                new = Some(match new {
                    None => p,
                    Some(n) => {
                        let (mut x, mut y) = (p, n);
                        while x != y {
                            while po_index[&x] < po_index[&y] {
                                x = idom[&x].expect("processed");
                            }
                            while po_index[&y] < po_index[&x] {
                                y = idom[&y].expect("processed");
                            }
                        }
                        x
                    }
                });
            }
            if new.is_some() && idom[&b] != new {
                idom.insert(b, new);
                changed = true;
            }
        }
    }
    idom
}

/// Whether `r` has no SSA dominance: multi-block regions always have
/// it; a single-block region lacks it when its op has graph regions
/// or is unregistered (which may have them), as in MLIR.
pub fn is_graph_region(ctx: &Context, ir: &Ir, r: RegionId) -> bool {
    let mut blocks = ir.region_blocks(r);
    if blocks.next().is_none() || blocks.next().is_some() {
        return false;
    }
    ir.region_op(r).is_some_and(|op| {
        ctx.op_def(ir.op_name(op))
            .is_none_or(|d| d.traits.has(Traits::GRAPH_REGIONS))
    })
}
