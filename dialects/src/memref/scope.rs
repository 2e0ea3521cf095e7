//! `memref.alloca_scope` (a region whose stack allocations end with it)
//! and its terminator `memref.alloca_scope.return`, with MLIR's syntax
//! and its two canonicalizations: a scope that cannot extend an
//! allocation's lifetime is inlined, and allocations whose operands come
//! from above are hoisted out of a scope that ends its enclosing regions.

use silica_ir::dialect::{Effects, OpDef, RegionBranchDef, RegionEdge, RegionPoint, Traits};
use silica_ir::format::{parse_op, print_op, Arity, Signature, ValueParam, ANY_TYPE};
use silica_ir::lexer::Tok;
use silica_ir::parser::{AsmParser, PResult};
use silica_ir::printer::AsmPrinter;
use silica_ir::rewrite::{Pattern, Rewriter};
use silica_ir::verify::OpVerifier;
use silica_ir::{Context, Ir, OpId, OpSpec, RegionId, Type, ValueId};

const SCOPE: &str = "memref.alloca_scope";
const RETURN: &str = "memref.alloca_scope.return";

/// `[-> (types)] region attr-dict`
fn parse_scope(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let result_types = if p.eat(Tok::Arrow) {
        p.parse_result_types()?
    } else {
        Vec::new()
    };
    let region = p.ir().create_region();
    p.parse_region(region)?;
    p.ensure_terminator(region, RETURN);
    let attrs = p.parse_optional_attr_dict()?;
    let loc = p.op_loc();
    let name = p.ctx().sym(SCOPE);
    Ok(p.create_op(OpSpec {
        name,
        loc,
        operands: &[],
        result_types: &result_types,
        successors: &[],
        regions: &[region],
        attrs,
        props: None,
    }))
}

/// MLIR writes two spaces after the name, the results always in
/// parentheses, and the terminator only when it returns values.
fn print_scope(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let ir = p.ir();
    let results: Vec<Type> = ir.results(op).map(|r| ir.value_type(r)).collect();
    p.write(" ");
    if !results.is_empty() {
        p.write(" -> (");
        p.types(&results);
        p.write(")");
    }
    p.write(" ");
    if let Some(r) = ir.regions(op).next() {
        if results.is_empty() {
            p.region_without_terminators(r, false);
        } else {
            p.region(r, false, false);
        }
    }
    let attrs = ir.op_attrs(op);
    p.attr_dict(attrs, &[], false);
}

fn verify_scope(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    crate::scf::verify::verify_returns_to_parent(v, op, RETURN)
}

static RETURN_SIG: Signature = Signature::new(
    &[ValueParam {
        name: "results",
        arity: Arity::Variadic,
        constraint: ANY_TYPE,
    }],
    &[],
    &[],
    "attr-dict ($results^ `:` type($results))?",
);

/// The scope's region is entered without values and returns the results.
static SCOPE_BRANCH: RegionBranchDef = RegionBranchDef {
    entry_edges: |_, _, _| {
        vec![RegionEdge {
            to: RegionPoint::Region(0),
            operands: 0..0,
            inputs: 0..0,
        }]
    },
    exit_edges: |ctx, ir, op, _, term| {
        (ctx.str(ir.op_name(term)) == RETURN).then(|| {
            vec![RegionEdge {
                to: RegionPoint::Parent,
                operands: 0..ir.num_operands(term),
                inputs: 0..ir.num_results(op),
            }]
        })
    },
};

/// The scope op and its terminator.
pub(crate) static SCOPE_OPS: [OpDef; 2] = [
    OpDef {
        traits: Traits::SINGLE_BLOCK
            .with(Traits::NO_REGION_ARGUMENTS)
            .with(Traits::ALLOCATION_SCOPE),
        parse: Some(parse_scope),
        print: Some(print_scope),
        verify_regions: Some(verify_scope),
        effects: Effects::Recursive,
        region_branch: Some(&SCOPE_BRANCH),
        patterns: &[
            Pattern {
                name: "AllocaScopeInliner",
                benefit: 1,
                apply: inline_scope,
            },
            Pattern {
                name: "AllocaScopeHoister",
                benefit: 1,
                apply: hoist_allocas,
            },
        ],
        ..OpDef::new(SCOPE)
    },
    OpDef {
        traits: Traits::TERMINATOR.with(Traits::RETURN_LIKE),
        parents: &[SCOPE],
        parse: Some(parse_op),
        print: Some(print_op),
        signature: Some(&RETURN_SIG),
        effects: Effects::None,
        ..OpDef::new(RETURN)
    },
];

fn has_trait(ctx: &Context, ir: &Ir, op: OpId, t: Traits) -> bool {
    ctx.op_def(ir.op_name(op)).is_some_and(|d| d.traits.has(t))
}

/// Whether `op` is known to allocate on the stack of its scope.
fn is_stack_allocation(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    ctx.str(ir.op_name(op)) == "memref.alloca"
}

/// Whether `op` may allocate on the stack: a stack allocation, or an op
/// whose effects are unknown (nested ops are looked at separately).
fn may_allocate_on_stack(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    match silica_ir::dialect::op_effects(ctx, ir, op) {
        Effects::Recursive => false,
        Effects::Unknown => true,
        _ => is_stack_allocation(ctx, ir, op),
    }
}

/// Whether an op nested in `op`, outside nested allocation scopes, may
/// allocate on the stack.
fn holds_stack_allocation(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    ir.regions(op).any(|r| {
        ir.region_blocks(r).any(|b| {
            ir.block_ops(b).any(|o| {
                may_allocate_on_stack(ctx, ir, o)
                    || (!has_trait(ctx, ir, o, Traits::ALLOCATION_SCOPE)
                        && holds_stack_allocation(ctx, ir, o))
            })
        })
    })
}

/// Whether `op` is followed only by its block's terminator, in a region
/// of one block (moving allocations past it extends no lifetime).
fn last_before_terminator(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    let Some(next) = ir.next_op(op) else {
        return false;
    };
    let terminates = ctx
        .op_def(ir.op_name(next))
        .is_none_or(|d| d.traits.has(Traits::TERMINATOR));
    let one_block = ir
        .op_block(op)
        .and_then(|b| ir.block_region(b))
        .is_some_and(|r| ir.region_blocks(r).count() == 1);
    ir.next_op(next).is_none() && terminates && one_block
}

/// Inlines a scope into its parent when that cannot extend the lifetime
/// of a stack allocation in it.
fn inline_scope(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    if holds_stack_allocation(rw.ctx, rw.ir, op) {
        let Some(parent) = rw.ir.parent_op(op) else {
            return false;
        };
        if !has_trait(rw.ctx, rw.ir, parent, Traits::ALLOCATION_SCOPE)
            || !last_before_terminator(rw.ctx, rw.ir, op)
        {
            return false;
        }
    }
    let Some(block) = rw.ir.regions(op).next().and_then(|r| rw.ir.entry_block(r)) else {
        return false;
    };
    let Some(terminator) = rw.ir.last_op(block) else {
        return false;
    };
    let results: Vec<_> = rw.ir.operands(terminator).collect();
    let ops: Vec<OpId> = rw.ir.block_ops(block).collect();
    for o in ops {
        rw.move_op_before(o, op);
    }
    rw.replace_op(op, &results);
    rw.erase_op(terminator);
    true
}

/// The region of `ancestor` that holds `region`.
fn region_holding(ir: &Ir, ancestor: OpId, mut region: RegionId) -> Option<RegionId> {
    loop {
        let owner = ir.region_op(region)?;
        if owner == ancestor {
            return Some(region);
        }
        region = ir.block_region(ir.op_block(owner)?)?;
    }
}

/// Whether `v` is defined in `region` or in a region nested in it.
fn defined_in(ir: &Ir, v: ValueId, region: RegionId) -> bool {
    let Some(r) = ir.value_block(v).and_then(|b| ir.block_region(b)) else {
        return false;
    };
    r == region || ir.region_op(r).is_some_and(|o| ir.is_in_region(o, region))
}

/// Hoists stack allocations out of a scope that, with every op up to the
/// enclosing allocation scope, ends its region: before the outermost of
/// those ops, when their operands are defined above it.
fn hoist_allocas(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let (ctx, ir) = (&*rw.ctx, &*rw.ir);
    let Some(mut outermost) = ir.parent_op(op) else {
        return false;
    };
    if has_trait(ctx, ir, outermost, Traits::ALLOCATION_SCOPE)
        || !last_before_terminator(ctx, ir, op)
        || !last_before_terminator(ctx, ir, outermost)
    {
        return false;
    }
    loop {
        let Some(parent) = ir.parent_op(outermost) else {
            return false;
        };
        if has_trait(ctx, ir, parent, Traits::ALLOCATION_SCOPE) {
            break;
        }
        outermost = parent;
        if !last_before_terminator(ctx, ir, outermost) {
            return false;
        }
    }
    let Some(holding) = ir
        .op_block(op)
        .and_then(|b| ir.block_region(b))
        .and_then(|r| region_holding(ir, outermost, r))
    else {
        return false;
    };
    let mut to_hoist = Vec::new();
    ir.walk(op, &mut |o| {
        if is_stack_allocation(ctx, ir, o) && !ir.operands(o).any(|v| defined_in(ir, v, holding)) {
            to_hoist.push(o);
        }
    });
    if to_hoist.is_empty() {
        return false;
    }
    rw.set_insertion_point(outermost);
    for o in to_hoist {
        let cloned = rw.clone_op(o);
        let results: Vec<_> = rw.ir.results(cloned).collect();
        rw.replace_op(o, &results);
    }
    true
}
