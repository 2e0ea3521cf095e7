//! `test-affine-parametric-tile` (MLIR's test pass of the same name):
//! tiles every tileable band of a function by SSA tile sizes, the first
//! arguments of the function (one per loop of the band, of index type),
//! with [`tile_perfectly_nested_parametric`]. Too few arguments, or
//! arguments of another type, are errors at the band's root loop that
//! stop the pass without failing it, as in MLIR.

use crate::tile::{tile_perfectly_nested_parametric, tileable_bands};
use silica_ir::diag::Severity;
use silica_ir::pass::{Pass, PassInfo, PassOptions};
use silica_ir::{Context, Diagnostic, Ir, OpId, TypeKind, ValueId};

/// The pass.
pub struct TestParametricTile;

fn error(ctx: &mut Context, ir: &Ir, op: OpId, message: &str) {
    ctx.emit(Diagnostic {
        severity: Severity::Error,
        loc: ir.op_loc(op),
        message: message.to_string(),
        notes: Vec::new(),
    });
}

/// The arguments of the block holding `root`, as tile sizes for a band
/// of `n` loops.
fn tile_sizes(
    ctx: &mut Context,
    ir: &Ir,
    func: OpId,
    root: OpId,
    n: usize,
) -> Option<Vec<ValueId>> {
    let block = ir.op_block(root)?;
    let args = ir.block_args(block).to_vec();
    if ir.parent_op(root) == Some(func)
        && ctx.str(ir.op_name(func)) == "func.func"
        && args.len() < n
    {
        error(
            ctx,
            ir,
            root,
            "too few tile sizes provided in the argument list of the function which contains the current band",
        );
        return None;
    }
    let sizes: Vec<ValueId> = args.into_iter().take(n).collect();
    if sizes
        .iter()
        .any(|&v| !matches!(ctx.type_kind(ir.value_type(v)), TypeKind::Index))
    {
        error(
            ctx,
            ir,
            root,
            "expected tiling parameters to be of index type",
        );
        return None;
    }
    Some(sizes)
}

impl Pass for TestParametricTile {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, func: OpId) -> Result<(), Box<Diagnostic>> {
        for band in tileable_bands(ctx, ir, func) {
            let Some(sizes) = tile_sizes(ctx, ir, func, band[0], band.len()) else {
                return Ok(());
            };
            if sizes.len() == band.len() {
                // A band this cannot tile stays as it is.
                let _ = tile_perfectly_nested_parametric(ctx, ir, &band, &sizes);
            }
        }
        Ok(())
    }
}

fn create(_: &PassOptions) -> Result<Box<dyn Pass>, String> {
    Ok(Box::new(TestParametricTile))
}

/// The `test-affine-parametric-tile` pass.
pub static TEST_AFFINE_PARAMETRIC_TILE: PassInfo = PassInfo {
    argument: "test-affine-parametric-tile",
    name: "TestAffineLoopParametricTiling",
    description: "Tile affine loops using SSA values as tile sizes",
    anchor: Some("func.func"),
    options: &[],
    create,
};
