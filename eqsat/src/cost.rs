//! Cost models for extraction: operation count, critical-path latency
//! and an area table (per-bit costs at the rewritten width). Each is an
//! `egg` tree cost function, and gives node costs to the ILP extractor.

use super::lang::IntExpr;
use egg::{CostFunction, Id, Language};

/// Which cost the extractor minimises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CostModel {
    /// Number of operations (constants and leaves are free).
    Ops,
    /// Longest chain of operation latencies (multiplication 4, shifts by
    /// a constant 0, other operations 1).
    Latency,
    /// Sum of operation areas at width `w`: adders and bitwise ops `w`,
    /// multipliers `w * w`, constant shifts 0.
    Area,
}

impl CostModel {
    /// The model named `name` (`ops`, `latency`, `area`).
    pub fn from_name(name: &str) -> Option<CostModel> {
        match name {
            "ops" => Some(CostModel::Ops),
            "latency" => Some(CostModel::Latency),
            "area" => Some(CostModel::Area),
            _ => None,
        }
    }

    /// The cost of one node, children aside.
    pub fn node_cost(self, node: &IntExpr, width: u32) -> f64 {
        let w = f64::from(width);
        match (self, node) {
            (_, IntExpr::Num(_) | IntExpr::Var(_)) => 0.0,
            (CostModel::Ops, _) => 1.0,
            (CostModel::Latency, IntExpr::Mul(_)) => 4.0,
            (CostModel::Latency, IntExpr::Shl(_)) => 0.0,
            (CostModel::Latency, _) => 1.0,
            (CostModel::Area, IntExpr::Mul(_)) => w * w,
            (CostModel::Area, IntExpr::Shl(_)) => 0.0,
            (CostModel::Area, _) => w,
        }
    }
}

/// A model at a width, as egg's tree cost function. Latency combines
/// children by maximum, the others by sum; a tiny per-node term breaks
/// ties towards smaller expressions.
pub struct TreeCost {
    pub model: CostModel,
    pub width: u32,
}

impl CostFunction<IntExpr> for TreeCost {
    type Cost = f64;

    fn cost<C>(&mut self, enode: &IntExpr, mut costs: C) -> f64
    where
        C: FnMut(Id) -> f64,
    {
        let own = self.model.node_cost(enode, self.width);
        let children = enode.children().iter().map(|&c| costs(c));
        let tie = if matches!(enode, IntExpr::Num(_) | IntExpr::Var(_)) {
            0.0
        } else {
            1e-6
        };
        match self.model {
            CostModel::Latency => own + tie + children.fold(0.0, f64::max),
            _ => own + tie + children.sum::<f64>(),
        }
    }
}
