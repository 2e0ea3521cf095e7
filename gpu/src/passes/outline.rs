//! `gpu-kernel-outlining`: each `gpu.launch` becomes a kernel of a
//! `gpu.module` of its own, `@<func>_kernel::@<func>_kernel` (the
//! module's name made unique in the symbol table), inserted after the
//! function, and a `gpu.launch_func` of it. The kernel's parameters are
//! the values the body uses from above (in MLIR's post-order walk of
//! the body, each operand in order), its first ops the twelve id and
//! size ops that replace the launch's arguments, its `known_block_size`
//! and `known_grid_size` the launch's sizes where all three are
//! constants. A module with a launch becomes a `gpu.container_module`.

use crate::dialect::attrs::Dim;
use crate::dialect::ids;
use crate::dialect::kernel::{CONTAINER_MODULE, FUNC, KERNEL_ATTR, MODULE, RETURN};
use crate::dialect::launch::{workgroup_attributions, CONFIG_ARGS, LAUNCH, TERMINATOR};
use crate::dialect::launch_func::{self, LaunchOperands};
use rustc_hash::FxHashSet;
use silica_ir::dialect::{inherent_attr, set_discardable_attr};
use silica_ir::pass::{Pass, PassInfo, PassOptions};
use silica_ir::{Attr, AttrKind, Context, Diagnostic, Ir, OpId, OpSpec, RegionId, ValueId};

/// The values `region` uses that are defined outside `op` (its owner),
/// in MLIR's post-order walk, each once.
fn used_from_above(ir: &Ir, op: OpId, region: RegionId) -> Vec<ValueId> {
    let mut seen = FxHashSet::default();
    let mut values = Vec::new();
    let defined_inside = |v: ValueId| {
        let owner = match ir.defining_op(v) {
            Some(d) => Some(d),
            None => ir
                .value_block(v)
                .and_then(|b| ir.block_region(b))
                .and_then(|r| ir.region_op(r)),
        };
        owner.is_some_and(|o| ir.is_ancestor(op, o))
    };
    for block in ir.region_blocks(region).collect::<Vec<_>>() {
        for top in ir.block_ops(block).collect::<Vec<_>>() {
            post_order(ir, top, &mut |o| {
                for v in ir.operands(o) {
                    if !defined_inside(v) && seen.insert(v) {
                        values.push(v);
                    }
                }
            });
        }
    }
    values
}

fn post_order(ir: &Ir, op: OpId, f: &mut dyn FnMut(OpId)) {
    for r in ir.regions(op) {
        for b in ir.region_blocks(r) {
            for o in ir.block_ops(b) {
                post_order(ir, o, f);
            }
        }
    }
    f(op);
}

/// The constant index values of `vs`, where all are constants.
fn constant_sizes(ctx: &Context, ir: &Ir, vs: &[ValueId]) -> Option<Vec<i64>> {
    vs.iter()
        .map(|&v| {
            let d = ir.defining_op(v)?;
            if ctx.str(ir.op_name(d)) != "arith.constant" {
                return None;
            }
            match ctx.attr_kind(inherent_attr(ctx, ir, d, "value")?) {
                AttrKind::Integer { value, .. } => i64::try_from(value).ok(),
                _ => None,
            }
        })
        .collect()
}

/// `name`, or else `name_N` for the first `N` from `counter` on that is
/// not taken in `table` (MLIR's symbol table uniquing: one counter for
/// the whole table, advanced past each name it tries).
fn unique_name(ctx: &Context, ir: &Ir, table: OpId, name: &str, counter: &mut u64) -> String {
    if silica_ir::symbols::lookup(ctx, ir, table, name).is_none() {
        return name.to_string();
    }
    loop {
        let candidate = format!("{name}_{counter}");
        *counter += 1;
        if silica_ir::symbols::lookup(ctx, ir, table, &candidate).is_none() {
            return candidate;
        }
    }
}

fn string(ctx: &mut Context, s: &str) -> Attr {
    ctx.string_attr(s.as_bytes())
}

/// Outlines `launch` (in function `func` of symbol table `table`); the
/// new module goes after `after`. The module.
fn outline(
    ctx: &mut Context,
    ir: &mut Ir,
    (table, func, after): (OpId, OpId, OpId),
    launch: OpId,
    counter: &mut u64,
) -> OpId {
    let loc = ir.op_loc(launch);
    let func_name = crate::dialect::kernel::symbol_name(ctx, ir, func).unwrap_or_default();
    let kernel_name = format!("{func_name}_kernel");
    let module_name = unique_name(ctx, ir, table, &kernel_name, counter);
    let body = ir.regions(launch).next().expect("a launch has a region");
    let entry = ir.entry_block(body).expect("a launch has a body");
    let launch_args = ir.block_args(entry).to_vec();
    let workgroup = workgroup_attributions(ctx, ir, launch);
    let operands: Vec<ValueId> = ir.operands(launch).collect();
    let captured = used_from_above(ir, launch, body);
    // The kernel's body: the launch's region, moved.
    let kernel_region = ir.create_region();
    let kernel_entry = ir.create_block();
    ir.append_block(kernel_region, kernel_entry);
    let mut params = Vec::new();
    for &v in &captured {
        let t = ir.value_type(v);
        params.push(ir.add_block_arg(kernel_entry, t, Some(loc)));
    }
    let attributions: Vec<ValueId> = launch_args[CONFIG_ARGS..].to_vec();
    for &a in &attributions {
        let t = ir.value_type(a);
        let na = ir.add_block_arg(kernel_entry, t, Some(loc));
        ir.replace_all_uses(a, na);
    }
    // The twelve ids and sizes.
    let names = [
        "gpu.block_id",
        "gpu.thread_id",
        "gpu.grid_dim",
        "gpu.block_dim",
    ];
    for (i, name) in names.iter().enumerate() {
        for d in Dim::ALL {
            let id = ids::create(ctx, ir, name, d, loc);
            ir.append_op(kernel_entry, id);
            let value = ir.result(id, 0);
            ir.replace_all_uses(launch_args[3 * i + d.index()], value);
        }
    }
    for (&outer, &param) in captured.iter().zip(&params) {
        let uses: Vec<_> = ir.uses(outer).collect();
        for u in uses {
            if ir.is_ancestor(launch, ir.use_owner(u)) {
                ir.set_use(u, param);
            }
        }
    }
    // Move the body's blocks: the entry's ops after the ids, the rest
    // as they are.
    let blocks: Vec<_> = ir.region_blocks(body).collect();
    for op in ir.block_ops(entry).collect::<Vec<_>>() {
        ir.detach_op(op);
        ir.append_op(kernel_entry, op);
    }
    for &b in &blocks[1..] {
        ir.detach_block(b);
        ir.append_block(kernel_region, b);
    }
    // `gpu.terminator` becomes `gpu.return`.
    let terminators: Vec<OpId> = ir
        .region_blocks(kernel_region)
        .flat_map(|b| ir.block_ops(b).collect::<Vec<_>>())
        .filter(|&o| ctx.str(ir.op_name(o)) == TERMINATOR)
        .collect();
    let return_name = ctx.sym(RETURN);
    for t in terminators {
        let attrs = ctx.empty_dict();
        let r = ir.create_op(OpSpec {
            name: return_name,
            loc: ir.op_loc(t),
            operands: &[],
            result_types: &[],
            successors: &[],
            regions: &[],
            attrs,
            props: None,
        });
        ir.insert_op_before(t, r);
        ir.erase_op(t);
    }
    // The kernel.
    let inputs: Vec<_> = captured.iter().map(|&v| ir.value_type(v)).collect();
    let fty = ctx.function_type(&inputs, &[]);
    let mut props = vec![(
        ctx.sym("function_type"),
        ctx.intern_attr(AttrKind::Type(fty)),
    )];
    for (key, sizes) in [
        ("known_block_size", &operands[3..6]),
        ("known_grid_size", &operands[0..3]),
    ] {
        if let Some(values) = constant_sizes(ctx, ir, sizes) {
            let k = ctx.sym(key);
            let v = ctx.int_array_attr(32, &values);
            props.push((k, v));
        }
    }
    let props = ctx.dict_attr(props);
    let i64 = ctx.signless(64);
    let mut attrs = vec![
        (ctx.sym(KERNEL_ATTR), ctx.unit_attr()),
        (ctx.sym("sym_name"), string(ctx, &kernel_name)),
        (
            ctx.sym("workgroup_attributions"),
            ctx.int_attr(i64, workgroup as i64),
        ),
    ];
    attrs.sort_by(|a, b| ctx.str(a.0).cmp(ctx.str(b.0)));
    let attrs = ctx.dict_attr(attrs);
    let name = ctx.sym(FUNC);
    let kernel = ir.create_op(OpSpec {
        name,
        loc,
        operands: &[],
        result_types: &[],
        successors: &[],
        regions: &[kernel_region],
        attrs,
        props: Some(props),
    });
    // Its module.
    let module_region = ir.create_region();
    let module_block = ir.create_block();
    ir.append_block(module_region, module_block);
    ir.append_op(module_block, kernel);
    let props = vec![(ctx.sym("sym_name"), string(ctx, &module_name))];
    let props = ctx.dict_attr(props);
    let name = ctx.sym(MODULE);
    let attrs = ctx.empty_dict();
    let module = ir.create_op(OpSpec {
        name,
        loc,
        operands: &[],
        result_types: &[],
        successors: &[],
        regions: &[module_region],
        attrs,
        props: Some(props),
    });
    ir.insert_op_after(after, module);
    // The launch of it.
    let root = ctx.sym(&module_name);
    let leaf = ctx.sym(&kernel_name);
    let symbol = ctx.intern_attr(AttrKind::SymbolRef {
        root,
        nested: Box::new([leaf]),
    });
    let o = LaunchOperands {
        grid: [operands[0], operands[1], operands[2]],
        block: [operands[3], operands[4], operands[5]],
        dynamic_shared: operands.get(6).copied(),
        args: captured,
    };
    let call = launch_func::create(ctx, ir, symbol, &o, loc);
    ir.insert_op_before(launch, call);
    ir.erase_op(launch);
    module
}

struct Outline;

impl Pass for Outline {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        let Some(body) = ir.regions(op).next().and_then(|r| ir.entry_block(r)) else {
            return Ok(());
        };
        let funcs: Vec<OpId> = ir
            .block_ops(body)
            .filter(|&f| ctx.str(ir.op_name(f)) == "func.func")
            .collect();
        let mut counter = 0;
        for func in funcs {
            let mut launches = Vec::new();
            ir.walk(func, &mut |o| {
                if ctx.str(ir.op_name(o)) == LAUNCH {
                    launches.push(o);
                }
            });
            let mut after = func;
            for launch in launches {
                let unit = ctx.unit_attr();
                set_discardable_attr(ctx, ir, op, CONTAINER_MODULE, unit);
                after = outline(ctx, ir, (op, func, after), launch, &mut counter);
            }
        }
        Ok(())
    }
}

/// `gpu-kernel-outlining`
pub static GPU_KERNEL_OUTLINING: PassInfo = PassInfo {
    argument: "gpu-kernel-outlining",
    name: "GpuKernelOutliningPass",
    description: "Outline gpu.launch bodies to kernel functions",
    anchor: Some("builtin.module"),
    options: &[silica_ir::pass::PassOptionInfo {
        name: "data-layout-str",
        description: "String description of the data layout",
        kind: silica_ir::pass::OptionKind::String,
        default: "",
    }],
    create: |o: &PassOptions| {
        if !o.string("data-layout-str").is_empty() {
            return Err("gpu-kernel-outlining: data-layout-str is not supported by silica".into());
        }
        Ok(Box::new(Outline))
    },
};
