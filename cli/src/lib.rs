//! What the `silica` binary, its tests and the fuzz targets share: the
//! set of dialects a context gets and the passes `silica opt` knows.

mod composite;

use silica_ir::dialect::DialectDef;
use silica_ir::pass::PassRegistry;
use silica_ir::Context;

/// Every dialect silica knows.
pub fn dialects() -> [&'static DialectDef; 18] {
    [
        &silica_dialects::arith::ARITH,
        &silica_dialects::func::FUNC_DIALECT,
        &silica_dialects::cf::CF,
        &silica_dialects::math::MATH,
        &silica_dialects::index::INDEX_DIALECT,
        &silica_dialects::scf::SCF,
        &silica_dialects::memref::MEMREF_DIALECT,
        &silica_dialects::ub::UB,
        &silica_affine::AFFINE,
        &silica_linalg::LINALG,
        &silica_scheduling::ssp::SSP,
        &silica_llvm::dialect::LLVM,
        &silica_gpu::GPU,
        &silica_gpu::NVVM,
        &silica_hw_dialects::HW,
        &silica_hw_dialects::COMB,
        &silica_hw_dialects::SEQ,
        &silica_ir::irdl::IRDL,
    ]
}

/// Registers every dialect silica knows in `ctx`.
pub fn register_dialects(ctx: &mut Context) {
    for d in dialects() {
        ctx.register_dialect(d);
    }
}

/// Every pass `silica opt` can run, by its command-line name.
pub fn pass_registry() -> PassRegistry {
    PassRegistry::new(
        silica_ir::transforms::PASSES
            .iter()
            .copied()
            .chain(silica_llvm::PASSES.iter().copied())
            .chain(silica_gpu::passes::PASSES.iter().copied())
            .chain(silica_linalg::PASSES.iter().copied())
            .chain(silica_hls::flow::front::passes::PASSES.iter().copied())
            .chain([
                &silica_eqsat::EQSAT,
                &silica_dialects::transforms::inline::INLINE,
                &composite::COMPOSITE_FIXED_POINT_PASS,
                &silica_dialects::transforms::promote_buffers::PROMOTE_BUFFERS_TO_STACK,
                &silica_dialects::transforms::remove_dead_values::REMOVE_DEAD_VALUES,
                &silica_dialects::transforms::scf_to_cf::CONVERT_SCF_TO_CF,
                &silica_dialects::transforms::scf_to_cf::FORALL_TO_PARALLEL,
                &silica_dialects::transforms::scf_to_cf::FORALL_TO_FOR,
                &silica_dialects::transforms::parallel_loop_tiling::SCF_PARALLEL_LOOP_TILING,
                &silica_affine::lower::LOWER_AFFINE,
                &silica_affine::unroll_passes::AFFINE_LOOP_UNROLL,
                &silica_affine::unroll_passes::AFFINE_LOOP_UNROLL_JAM,
                &silica_affine::normalize::AFFINE_LOOP_NORMALIZE,
                &silica_affine::licm::AFFINE_LOOP_INVARIANT_CODE_MOTION,
                &silica_affine::scalrep::AFFINE_SCALREP,
                &silica_affine::parallelize::AFFINE_PARALLELIZE,
                &silica_affine::fusion::AFFINE_LOOP_FUSION,
                &silica_affine::fusion::test_pass::TEST_LOOP_FUSION,
                &silica_affine::raise_memref::AFFINE_RAISE_FROM_MEMREF,
                &silica_affine::simplify_structures::AFFINE_SIMPLIFY_STRUCTURES,
                &silica_affine::coalesce::AFFINE_LOOP_COALESCING,
                &silica_affine::dependence::test_pass::TEST_MEMREF_DEPENDENCE_CHECK,
                &silica_affine::loop_min_max::SCF_FOR_LOOP_CANONICALIZATION,
                &silica_affine::loop_tiling::AFFINE_LOOP_TILE,
                &silica_affine::permute::TEST_LOOP_PERMUTATION,
                &silica_affine::parametric_tile::TEST_AFFINE_PARAMETRIC_TILE,
                &silica_affine::data_copy::AFFINE_DATA_COPY_GENERATE,
                &silica_affine::data_copy_test::TEST_AFFINE_DATA_COPY,
                &silica_affine::pipeline_data_transfer::AFFINE_PIPELINE_DATA_TRANSFER,
                &silica_affine::expand_strided_metadata::EXPAND_STRIDED_METADATA,
                &silica_hw_dialects::transforms::specialize::HW_SPECIALIZE,
                &silica_hw_dialects::transforms::inner_sym::HW_VERIFY_IRN,
                &silica_hw_dialects::transforms::inner_sym::HW_BYPASS_INNER_SYMBOLS,
                &silica_hw_dialects::transforms::lower_compreg_ce::LOWER_SEQ_COMPREG_CE,
                &silica_hw_dialects::transforms::lower_shiftreg::LOWER_SEQ_SHIFTREG,
                &silica_hw_dialects::transforms::instance_graph::HW_PRINT_INSTANCE_GRAPH,
                &silica_hw_dialects::transforms::aggregate_to_comb::HW_AGGREGATE_TO_COMB,
                &silica_hw_dialects::transforms::reg_of_vec_to_mem::SEQ_REG_OF_VEC_TO_MEM,
            ]),
    )
}
