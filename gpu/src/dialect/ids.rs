//! The ops that read a thread's place in the grid: `gpu.thread_id x`,
//! `gpu.block_id`, `gpu.block_dim`, `gpu.grid_dim`, `gpu.global_id` and
//! the cluster ones, each of a dimension and an optional `upper_bound`
//! (its result named `%thread_id_x`), `gpu.lane_id`, and the subgroup
//! ones (`gpu.subgroup_id : index`).

use super::attrs::{dim_attr, dim_of, Dim};
use silica_ir::dialect::{inherent_attr, Effects, OpDef};
use silica_ir::lexer::Tok;
use silica_ir::parser::{AsmParser, PResult};
use silica_ir::printer::AsmPrinter;
use silica_ir::{AttrKind, Context, Ir, OpId, OpSpec};

/// The ops of a dimension.
pub const DIMENSION_OPS: [&str; 9] = [
    "gpu.thread_id",
    "gpu.block_id",
    "gpu.block_dim",
    "gpu.grid_dim",
    "gpu.global_id",
    "gpu.cluster_id",
    "gpu.cluster_dim",
    "gpu.cluster_block_id",
    "gpu.cluster_dim_blocks",
];

/// The subgroup ops, whose result type is written.
const SUBGROUP_OPS: [&str; 3] = ["gpu.subgroup_id", "gpu.num_subgroups", "gpu.subgroup_size"];

/// Creates the dimension op `name` (`gpu.thread_id`) of `d` at `loc`,
/// unplaced.
pub fn create(ctx: &mut Context, ir: &mut Ir, name: &str, d: Dim, loc: silica_ir::Attr) -> OpId {
    let index = ctx.index_type();
    let key = ctx.sym("dimension");
    let value = dim_attr(ctx, d);
    let props = ctx.dict_attr(vec![(key, value)]);
    let name = ctx.sym(name);
    let attrs = ctx.empty_dict();
    ir.create_op(OpSpec {
        name,
        loc,
        operands: &[],
        result_types: &[index],
        successors: &[],
        regions: &[],
        attrs,
        props: Some(props),
    })
}

/// The dimension of a dimension op.
pub fn dimension(ctx: &Context, ir: &Ir, op: OpId) -> Option<Dim> {
    dim_of(ctx, inherent_attr(ctx, ir, op, "dimension")?)
}

/// `[x|y|z] [upper_bound N] attr-dict`, or for the subgroup ops
/// `[upper_bound N] attr-dict : index`.
fn parse(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let name = p.op_name();
    let mut props = Vec::new();
    if DIMENSION_OPS.contains(&name) {
        let at = p.pos();
        let word = p.parse_keyword()?;
        let Some(d) = Dim::from_name(word) else {
            let msg =
                format!("custom op '{name}' expected ::mlir::gpu::Dimension to be one of: x, y, z");
            return p.error_at(at, msg);
        };
        let key = p.ctx().sym("dimension");
        let value = dim_attr(p.ctx(), d);
        props.push((key, value));
    }
    if p.eat_keyword("upper_bound") {
        let bound = p.parse_integer()?;
        let ctx = p.ctx();
        let index = ctx.index_type();
        let key = ctx.sym("upper_bound");
        let value = ctx.int_attr(index, bound);
        props.push((key, value));
    }
    let attrs = p.parse_optional_attr_dict()?;
    let index = p.ctx().index_type();
    if SUBGROUP_OPS.contains(&name) {
        p.expect(Tok::Colon, "':'")?;
        let at = p.pos();
        let t = p.parse_type()?;
        if t != index {
            return p.error_at(
                at,
                "'gpu' op result #0 must be index, but got a different type",
            );
        }
    }
    let loc = p.op_loc();
    let ctx = p.ctx();
    let props = (!props.is_empty()).then(|| ctx.dict_attr(props));
    let name = ctx.sym(name);
    Ok(p.create_op(OpSpec {
        name,
        loc,
        operands: &[],
        result_types: &[index],
        successors: &[],
        regions: &[],
        attrs,
        props,
    }))
}

fn print(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let name = ctx.str(ir.op_name(op));
    if let Some(d) = dimension(ctx, ir, op) {
        p.write("  ");
        p.write(d.name());
    }
    if let Some(AttrKind::Integer { value, .. }) =
        inherent_attr(ctx, ir, op, "upper_bound").map(|a| ctx.attr_kind(a))
    {
        p.write(" upper_bound ");
        p.write(&value.to_string());
    }
    p.attr_dict(ir.op_attrs(op), &[], false);
    if SUBGROUP_OPS.contains(&name) {
        p.write(" : index");
    }
}

/// `%thread_id_x` for `gpu.thread_id x`.
fn result_name(ctx: &Context, ir: &Ir, op: OpId) -> Option<String> {
    let d = dimension(ctx, ir, op)?;
    let name = ctx.str(ir.op_name(op)).strip_prefix("gpu.")?;
    Some(format!("{name}_{}", d.name()))
}

const fn id_op(name: &'static str) -> OpDef {
    OpDef {
        parse: Some(parse),
        print: Some(print),
        result_names: Some(result_name),
        inherent_attrs: &["dimension", "upper_bound"],
        effects: Effects::None,
        ..OpDef::new(name)
    }
}

pub(super) const OPS: [OpDef; 13] = [
    id_op(DIMENSION_OPS[0]),
    id_op(DIMENSION_OPS[1]),
    id_op(DIMENSION_OPS[2]),
    id_op(DIMENSION_OPS[3]),
    id_op(DIMENSION_OPS[4]),
    id_op(DIMENSION_OPS[5]),
    id_op(DIMENSION_OPS[6]),
    id_op(DIMENSION_OPS[7]),
    id_op(DIMENSION_OPS[8]),
    id_op("gpu.lane_id"),
    id_op(SUBGROUP_OPS[0]),
    id_op(SUBGROUP_OPS[1]),
    id_op(SUBGROUP_OPS[2]),
];
