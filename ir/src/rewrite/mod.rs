//! Pattern rewriting: a [`Rewriter`] that reports every change to a
//! [`Listener`], rewrite [`Pattern`]s attached to op definitions, constant
//! folding ([`fold`]), memory-effect queries ([`effects`]), and the greedy
//! driver ([`greedy`]) that applies folds and patterns to a fixpoint as
//! MLIR's `applyPatternsGreedily` does.

pub mod effects;
pub mod fold;
pub mod greedy;
mod pattern;
mod region_simplify;
mod rewriter;

pub use fold::{FoldCtx, FoldResult, OpFoldResult};
pub use greedy::{
    apply_op_patterns_greedily, apply_patterns_greedily, GreedyConfig, RegionSimplify,
};
pub use pattern::{Pattern, PatternSet};
pub use region_simplify::{erase_unreachable_blocks, simplify_regions};
pub use rewriter::{InsertPoint, Listener, NoListener, Rewriter};
