//! `promote-buffers-to-stack`: a `memref.alloc` becomes a `memref.alloca`
//! when it is small (a static shape of at most `max-alloc-size-in-bytes`,
//! or a dynamic one of rank at most `max-rank-of-allocated-memref` whose
//! sizes are all `memref.rank` results), nothing deallocates it, and no
//! alias of it leaves the nearest automatic allocation scope around it
//! (as MLIR's pass decides with its buffer view-flow analysis).

use rustc_hash::FxHashSet;
use silica_ir::dialect::Traits;
use silica_ir::pass::{OptionKind, Pass, PassInfo, PassOptionInfo, PassOptions};
use silica_ir::{Context, Diagnostic, Ir, OpId, OpSpec, RegionId, Type, TypeKind, ValueId};

/// Ops whose first result is a view of their first operand.
const VIEWS: &[&str] = &[
    "memref.subview",
    "memref.cast",
    "memref.reinterpret_cast",
    "memref.reshape",
    "memref.expand_shape",
    "memref.collapse_shape",
    "memref.transpose",
    "memref.view",
    "memref.memory_space_cast",
    "memref.assume_alignment",
];

/// The storage size of `t` in bits (MLIR's default data layout), when
/// known.
fn size_in_bits(ctx: &Context, t: Type) -> Option<u64> {
    Some(match ctx.type_kind(t) {
        TypeKind::Integer { width, .. } => u64::from(*width),
        TypeKind::Index => 64,
        TypeKind::Float(k) => u64::from(k.bit_width()),
        TypeKind::Complex(e) => 2 * size_in_bits(ctx, *e)?,
        TypeKind::Vector { shape, element, .. } => {
            let n: i64 = shape.iter().product();
            u64::try_from(n).ok()? * size_in_bits(ctx, *element)?
        }
        _ => return None,
    })
}

/// Whether the allocation `op` is small enough for the stack.
fn is_small(ctx: &Context, ir: &Ir, op: OpId, max_bytes: u64, max_rank: usize) -> bool {
    let t = ir.value_type(ir.result(op, 0));
    let TypeKind::MemRef { shape, element, .. } = ctx.type_kind(t) else {
        return false;
    };
    if shape.iter().any(|&d| d < 0) {
        return shape.len() <= max_rank
            && ir.operands(op).all(|v| {
                ir.defining_op(v)
                    .is_some_and(|d| ctx.str(ir.op_name(d)) == "memref.rank")
            });
    }
    let elements: i64 = shape.iter().product();
    match (u64::try_from(elements), size_in_bits(ctx, *element)) {
        (Ok(n), Some(bits)) => n.saturating_mul(bits) <= max_bytes.saturating_mul(8),
        _ => false,
    }
}

fn name_of<'c>(ctx: &'c Context, ir: &Ir, op: OpId) -> &'c str {
    ctx.str(ir.op_name(op))
}

/// The values that may alias `v`: views of it, selections of it, and the
/// block arguments and results it flows to through branches, region
/// terminators and loop-carried values.
fn aliases(ctx: &Context, ir: &Ir, v: ValueId) -> Vec<ValueId> {
    let mut seen: FxHashSet<ValueId> = FxHashSet::default();
    let mut order = vec![v];
    seen.insert(v);
    let mut i = 0;
    while i < order.len() {
        let value = order[i];
        i += 1;
        let mut found = Vec::new();
        for u in ir.uses(value) {
            let user = ir.use_owner(u);
            let at = ir
                .operands(user)
                .position(|o| o == value)
                .unwrap_or(usize::MAX);
            flows_to(ctx, ir, user, value, at, &mut found);
        }
        for f in found {
            if seen.insert(f) {
                order.push(f);
            }
        }
    }
    order
}

/// The values `value`, operand `at` of `user`, flows into.
fn flows_to(ctx: &Context, ir: &Ir, user: OpId, value: ValueId, at: usize, out: &mut Vec<ValueId>) {
    let name = name_of(ctx, ir, user);
    if VIEWS.contains(&name) && at == 0 {
        out.push(ir.result(user, 0));
        return;
    }
    if name == "arith.select" && at > 0 {
        out.push(ir.result(user, 0));
        return;
    }
    let def = ctx.op_def(ir.op_name(user));
    if let Some(branch) = def.and_then(|d| d.branch) {
        for (s, &block) in ir.successors(user).iter().enumerate() {
            let range = (branch.successor_operands)(ctx, ir, user, s);
            for (k, i) in range.enumerate() {
                if ir.operand(user, i) == value {
                    out.push(ir.block_args(block)[k]);
                }
            }
        }
        return;
    }
    if matches!(name, "scf.for" | "affine.for") {
        let inits = ir.num_results(user);
        let first = ir.num_operands(user) - inits;
        if at >= first {
            out.push(ir.result(user, at - first));
            if let Some(b) = ir.regions(user).next().and_then(|r| ir.entry_block(r)) {
                out.push(ir.block_args(b)[at - first + 1]);
            }
        }
        return;
    }
    let terminator = def.is_some_and(|d| d.traits.has(Traits::TERMINATOR));
    if !terminator {
        return;
    }
    let Some(parent) = ir.parent_op(user) else {
        return;
    };
    let parent_name = name_of(ctx, ir, parent);
    if ctx
        .op_def(ir.op_name(parent))
        .is_some_and(|d| d.traits.has(Traits::ALLOCATION_SCOPE))
        && !matches!(parent_name, "scf.for" | "affine.for" | "affine.parallel")
    {
        return;
    }
    if at < ir.num_results(parent) {
        out.push(ir.result(parent, at));
    }
    if matches!(parent_name, "scf.for" | "affine.for") {
        if let Some(b) = ir.op_block(user) {
            if let Some(&arg) = ir.block_args(b).get(at + 1) {
                out.push(arg);
            }
        }
    }
}

/// Whether a return-like terminator directly in `region` returns one of
/// `aliases`.
fn leaves(ctx: &Context, ir: &Ir, region: RegionId, aliases: &[ValueId]) -> bool {
    aliases.iter().any(|&a| {
        ir.uses(a).any(|u| {
            let user = ir.use_owner(u);
            let def = ctx.op_def(ir.op_name(user));
            def.is_some_and(|d| d.traits.has(Traits::TERMINATOR) && d.branch.is_none())
                && ir.op_block(user).and_then(|b| ir.block_region(b)) == Some(region)
        })
    })
}

/// Whether `op` is a region-holding op whose control flow the analysis
/// knows.
fn known_control_flow(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    matches!(
        name_of(ctx, ir, op),
        "scf.if" | "scf.index_switch" | "scf.execute_region" | "affine.if"
    )
}

fn is_loop(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    ctx.op_def(ir.op_name(op))
        .is_some_and(|d| d.traits.has(Traits::LOOP_LIKE))
}

/// Whether an allocation scope around `op` keeps every alias of its
/// result inside.
fn has_allocation_scope(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    let aliases = aliases(ctx, ir, ir.result(op, 0));
    let mut region = ir.op_block(op).and_then(|b| ir.block_region(b));
    while let Some(r) = region {
        let Some(parent) = ir.region_op(r) else {
            break;
        };
        let scope = ctx
            .op_def(ir.op_name(parent))
            .is_some_and(|d| d.traits.has(Traits::ALLOCATION_SCOPE));
        if scope && !leaves(ctx, ir, r, &aliases) {
            return true;
        }
        if is_loop(ctx, ir, parent) || !known_control_flow(ctx, ir, parent) {
            break;
        }
        region = ir.op_block(parent).and_then(|b| ir.block_region(b));
    }
    false
}

/// Whether an op frees `v` directly.
fn deallocated(ctx: &Context, ir: &Ir, v: ValueId) -> bool {
    ir.uses(v)
        .any(|u| name_of(ctx, ir, ir.use_owner(u)) == "memref.dealloc")
}

/// Replaces the allocation `op` with a `memref.alloca` like it.
fn promote(ctx: &mut Context, ir: &mut Ir, op: OpId) {
    let operands: Vec<ValueId> = ir.operands(op).collect();
    let t = ir.value_type(ir.result(op, 0));
    let name = ctx.sym("memref.alloca");
    let alloca = ir.create_op(OpSpec {
        name,
        loc: ir.op_loc(op),
        operands: &operands,
        result_types: &[t],
        successors: &[],
        regions: &[],
        attrs: ir.op_attrs(op),
        props: ir.op_props(op),
    });
    ir.insert_op_before(op, alloca);
    let (old, new) = (ir.result(op, 0), ir.result(alloca, 0));
    ir.replace_all_uses(old, new);
    ir.erase_op(op);
}

struct PromoteBuffersToStack {
    max_bytes: u64,
    max_rank: usize,
}

impl Pass for PromoteBuffersToStack {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, root: OpId) -> Result<(), Box<Diagnostic>> {
        let mut allocs = Vec::new();
        ir.walk(root, &mut |o| allocs.push(o));
        allocs.retain(|&o| name_of(ctx, ir, o) == "memref.alloc");
        let chosen: Vec<OpId> = allocs
            .into_iter()
            .filter(|&o| {
                is_small(ctx, ir, o, self.max_bytes, self.max_rank)
                    && !deallocated(ctx, ir, ir.result(o, 0))
                    && has_allocation_scope(ctx, ir, o)
            })
            .collect();
        for op in chosen {
            promote(ctx, ir, op);
        }
        Ok(())
    }
}

/// The `promote-buffers-to-stack` pass.
pub static PROMOTE_BUFFERS_TO_STACK: PassInfo = PassInfo {
    argument: "promote-buffers-to-stack",
    name: "PromoteBuffersToStackPass",
    description: "Promotes heap-based allocations to automatically managed stack-based allocations",
    anchor: None,
    options: &[
        PassOptionInfo {
            name: "max-alloc-size-in-bytes",
            description: "Maximal size in bytes to promote allocations to stack.",
            kind: OptionKind::UInt,
            default: "1024",
        },
        PassOptionInfo {
            name: "max-rank-of-allocated-memref",
            description: "Maximal memref rank to promote dynamic buffers.",
            kind: OptionKind::UInt,
            default: "1",
        },
    ],
    create: |o: &PassOptions| {
        Ok(Box::new(PromoteBuffersToStack {
            max_bytes: o.int("max-alloc-size-in-bytes").max(0) as u64,
            max_rank: o.int("max-rank-of-allocated-memref").max(0) as usize,
        }))
    },
};
