//! Moving a whole graph built against a fork of the context into this
//! one (the parallel parser's or bytecode reader's second half): its
//! arenas are appended with their ids shifted and its types, attributes
//! and names translated.

use super::{BlockData, BlockId, Ir, OpData, OpId, RegionData, RegionId, UseData, ValueData};
use super::{ValueDef, ValueId, NONE};
use crate::context::Import;

/// How far [`Ir::absorb`] shifted the absorbed graph's ids.
#[derive(Clone, Copy, Debug)]
pub struct Shift {
    ops: u32,
    blocks: u32,
    regions: u32,
    values: u32,
    uses: u32,
    successors: u32,
    region_lists: u32,
}

impl Shift {
    /// The absorbed graph's `op` in this one.
    pub fn op(&self, op: OpId) -> OpId {
        OpId(op.0 + self.ops)
    }

    /// The absorbed graph's `region` in this one.
    pub fn region(&self, region: RegionId) -> RegionId {
        RegionId(region.0 + self.regions)
    }
}

/// `link + by`, keeping "none" as it is.
fn shifted(link: u32, by: u32) -> u32 {
    if link == NONE {
        NONE
    } else {
        link + by
    }
}

impl Ir {
    /// Appends `other`, whose types, attributes and names belong to the
    /// fork `import` translates from; its entities keep their links among
    /// themselves and stay detached from this graph's.
    pub fn absorb(&mut self, other: Ir, import: &Import) -> Shift {
        let by = Shift {
            ops: self.ops.len() as u32,
            blocks: self.blocks.len() as u32,
            regions: self.regions.len() as u32,
            values: self.values.len() as u32,
            uses: self.uses.len() as u32,
            successors: self.successors.len() as u32,
            region_lists: self.region_lists.len() as u32,
        };
        self.ops.extend(other.ops.into_iter().map(|d| OpData {
            name: import.sym(d.name),
            loc: import.attr(d.loc),
            attrs: import.attr(d.attrs),
            props: d.props.map(|p| import.attr(p)),
            operands_start: d.operands_start + by.uses,
            first_result: d.first_result + by.values,
            successors_start: d.successors_start + by.successors,
            regions_start: d.regions_start + by.region_lists,
            parent: shifted(d.parent, by.blocks),
            prev: shifted(d.prev, by.ops),
            next: shifted(d.next, by.ops),
            ..d
        }));
        self.blocks
            .extend(other.blocks.into_iter().map(|d| BlockData {
                parent: shifted(d.parent, by.regions),
                prev: shifted(d.prev, by.blocks),
                next: shifted(d.next, by.blocks),
                first_op: shifted(d.first_op, by.ops),
                last_op: shifted(d.last_op, by.ops),
                args: d.args.iter().map(|v| ValueId(v.0 + by.values)).collect(),
            }));
        self.regions
            .extend(other.regions.into_iter().map(|d| RegionData {
                parent: shifted(d.parent, by.ops),
                first_block: shifted(d.first_block, by.blocks),
                last_block: shifted(d.last_block, by.blocks),
            }));
        self.values
            .extend(other.values.into_iter().map(|d| ValueData {
                ty: import.ty(d.ty),
                def: match d.def {
                    ValueDef::Result { op, index } => ValueDef::Result {
                        op: OpId(op.0 + by.ops),
                        index,
                    },
                    ValueDef::Argument { block, index } => ValueDef::Argument {
                        block: BlockId(block.0 + by.blocks),
                        index,
                    },
                    ValueDef::Placeholder => ValueDef::Placeholder,
                },
                loc: d.loc.map(|l| import.attr(l)),
                first_use: shifted(d.first_use, by.uses),
            }));
        self.uses.extend(other.uses.into_iter().map(|d| UseData {
            value: ValueId(d.value.0 + by.values),
            owner: OpId(d.owner.0 + by.ops),
            prev: shifted(d.prev, by.uses),
            next: shifted(d.next, by.uses),
        }));
        self.successors.extend(
            other
                .successors
                .into_iter()
                .map(|b| BlockId(b.0 + by.blocks)),
        );
        self.region_lists.extend(
            other
                .region_lists
                .into_iter()
                .map(|r| RegionId(r.0 + by.regions)),
        );
        by
    }
}
