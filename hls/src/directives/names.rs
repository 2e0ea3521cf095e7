//! What directives can name in the top function: its loops (`affine.for`
//! and `scf.for`), each by its path as the report prints it (labels where
//! a loop has an `hls.label`, positions elsewhere: `gemm/i/k/j`), by its
//! path of positions alone (`gemm/0/1/0`) and by its label; and its
//! arrays, memref arguments by `hls.name` (else `arg<i>`) and
//! `memref.alloc`/`alloca` by `hls.name` (else `mem<i>`, as the front end
//! numbers memories).

use crate::front::{arg_name, op_name_attr, string_of};
use silica_ir::dialect::inherent_attr;
use silica_ir::{Context, Ir, OpId, TypeKind};

/// A loop of the top function.
#[derive(Clone, Debug)]
pub struct LoopName {
    pub op: OpId,
    /// The path the report prints.
    pub path: String,
    /// The path of positions.
    pub positions: String,
    pub label: Option<String>,
    /// The loops directly inside it.
    pub children: Vec<OpId>,
}

/// An array of the top function.
#[derive(Clone, Debug)]
pub struct ArrayName {
    pub name: String,
    /// The argument position (memref arguments).
    pub arg: Option<usize>,
    /// The allocation (on-chip arrays).
    pub alloc: Option<OpId>,
}

/// The loops (pre-order) and arrays of `func`, named `top`.
pub fn collect(ctx: &Context, ir: &Ir, func: OpId, top: &str) -> (Vec<LoopName>, Vec<ArrayName>) {
    let mut loops = Vec::new();
    let mut arrays = Vec::new();
    let Some(block) = ir.regions(func).next().and_then(|r| ir.entry_block(r)) else {
        return (loops, arrays);
    };
    for (i, &v) in ir.block_args(block).iter().enumerate() {
        if matches!(ctx.type_kind(ir.value_type(v)), TypeKind::MemRef { .. }) {
            let name =
                arg_name(ctx, ir, func, i).unwrap_or_else(|| crate::interface::names::arg(i));
            arrays.push(ArrayName {
                name,
                arg: Some(i),
                alloc: None,
            });
        }
    }
    walk(ctx, ir, block, top, top, &mut loops, &mut arrays);
    (loops, arrays)
}

fn walk(
    ctx: &Context,
    ir: &Ir,
    block: silica_ir::BlockId,
    path: &str,
    positions: &str,
    loops: &mut Vec<LoopName>,
    arrays: &mut Vec<ArrayName>,
) -> Vec<OpId> {
    let mut position = 0;
    let mut children = Vec::new();
    for op in ir.block_ops(block) {
        match ctx.str(ir.op_name(op)) {
            "affine.for" | "scf.for" => {
                let label = string_of(ctx, inherent_attr(ctx, ir, op, "hls.label"));
                let me = format!("{path}/{}", label.clone().unwrap_or(position.to_string()));
                let pos = format!("{positions}/{position}");
                position += 1;
                let index = loops.len();
                loops.push(LoopName {
                    op,
                    path: me.clone(),
                    positions: pos.clone(),
                    label,
                    children: Vec::new(),
                });
                children.push(op);
                if let Some(body) = ir.regions(op).next().and_then(|r| ir.entry_block(r)) {
                    let inner = walk(ctx, ir, body, &me, &pos, loops, arrays);
                    loops[index].children = inner;
                }
            }
            "memref.alloc" | "memref.alloca" => {
                let m = arrays.len();
                arrays.push(ArrayName {
                    name: op_name_attr(ctx, ir, op).unwrap_or_else(|| format!("mem{m}")),
                    arg: None,
                    alloc: Some(op),
                });
            }
            _ => {}
        }
    }
    children
}

/// The loops a name given in a directive denotes: the loop whose printed
/// or positional path it is, else every loop labelled so.
pub fn find_loops<'a>(loops: &'a [LoopName], name: &str) -> Vec<&'a LoopName> {
    let by_path: Vec<&LoopName> = loops
        .iter()
        .filter(|l| l.path == name || l.positions == name)
        .collect();
    if !by_path.is_empty() {
        return by_path;
    }
    loops
        .iter()
        .filter(|l| l.label.as_deref() == Some(name))
        .collect()
}
