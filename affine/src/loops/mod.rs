//! Loop utilities of the affine layer, callable on one `affine.for` (the
//! HLS and design-space flows drive them directly; the
//! `affine-loop-unroll` and `affine-loop-unroll-jam` passes pick the
//! loops): trip counts, promotion of single-iteration loops, unrolling by
//! a factor or fully with cleanup loops, and unroll-and-jam. They follow
//! MLIR's `LoopUtils`/`LoopAnalysis` in what they accept and in the IR
//! they produce.

pub(crate) mod build;
mod promote;
mod reduction;
pub(crate) mod trip_count;
mod unroll;
mod unroll_jam;

pub use build::{
    clone_mapped, create, create_apply, create_index_constant, create_op, inits, iter_args,
    loops_post_order, shift_map, terminator, NewOp,
};
pub use promote::promote_if_single_iteration;
pub use reduction::{supported_reductions, LoopReduction};
pub use trip_count::{
    constant_trip_count, largest_divisor_of_trip_count, trip_count_map, upper_bound_on_trip_count,
};
pub use unroll::{unroll_by_factor, unroll_full, unroll_up_to_factor, UnrollError};
pub use unroll_jam::{add_iter_args, unroll_jam_by_factor};

#[cfg(test)]
mod tests;
