//! Reading a large module on two threads.
//!
//! The regions of isolated ops (functions, nested modules) are sections
//! of their own, and no value crosses into them: once the top-level
//! module is read with its isolated ops' regions left pending, the
//! pending sections split in two halves of about the same size. A helper
//! thread reads the second half against a fork of the context, into
//! stand-in regions of a graph of its own; the main thread reads the
//! first half, then takes the helper's graph in (importing what its fork
//! interned) and moves the blocks of each stand-in region to the region
//! it stands for. An error is the first half's first, else the helper's;
//! a fork that made `distinct` attributes (whose numbers would clash
//! with the main thread's) has its half read again on the main thread.

use super::ir::{IrState, Pending};
use super::Reader;
use crate::encoding::DResult;
use silica_ir::context::Import;
use silica_ir::{Attr, BlockId, Ir, RegionId};

/// The helper's regions, and its ops' locations, by pending op.
type StandIns = Vec<(Vec<RegionId>, Option<Attr>)>;

/// Pending sections from this many bytes on are read on two threads.
const MIN_BYTES: usize = 1 << 18;

impl<'a> Reader<'a, '_> {
    /// Reads the regions left pending in `st`, on two threads when they
    /// are large enough; afterwards nothing is pending, or the few ops
    /// left are to be read (eagerly) on this thread.
    pub(super) fn read_pending_in_two(&mut self, st: &mut IrState<'a>) -> DResult<()> {
        // Down to the module's ops: a lone pending op is opened.
        while st.pending.len() == 1 {
            self.materialize(st, 0)?;
        }
        st.lazy = false;
        let total: usize = st.pending.iter().map(|p| p.body.remaining()).sum();
        if st.pending.len() < 2
            || total < MIN_BYTES
            || std::thread::available_parallelism().map_or(1, |n| n.get()) < 2
        {
            return Ok(());
        }
        let Some((fork, at)) = self.ctx.fork() else {
            return Ok(());
        };
        // The second half: from the first section past the middle.
        let mut seen = 0;
        let split = st
            .pending
            .iter()
            .position(|p| {
                seen += p.body.remaining();
                seen > total / 2
            })
            .map_or(1, |i| i + 1)
            .clamp(1, st.pending.len() - 1);
        let second: Vec<Pending<'a>> = st.pending.drain(split..).collect();
        let first: Vec<Pending<'a>> = st.pending.drain(..).collect();
        let shapes: Vec<usize> = second.iter().map(|p| st.ir.num_regions(p.op)).collect();
        let parts = self.parts();
        let helper_half = second.clone();
        let (mine, theirs) = std::thread::scope(|s| {
            let helper = s.spawn(move || {
                let mut ctx = fork;
                let mut r = Reader::from_parts(&mut ctx, parts);
                let half = r.read_half(helper_half, &shapes);
                drop(r);
                half.map(|(ir, regions)| (ctx, ir, regions))
            });
            let mine = first.into_iter().try_for_each(|p| self.read_here(st, p));
            let theirs = helper
                .join()
                .unwrap_or_else(|e| std::panic::resume_unwind(e));
            (mine, theirs)
        });
        mine?;
        let (fork, ir, stand_ins) = theirs?;
        let import = Import::new(self.ctx, &fork, at);
        // Freed before the graph is copied: the two peaks do not add up.
        drop(fork);
        let Some(import) = import else {
            // The helper made distinct attributes: its half again, here.
            drop(ir);
            return second.into_iter().try_for_each(|p| self.read_here(st, p));
        };
        let shift = st.ir.absorb(ir, &import);
        for (p, (theirs, loc)) in second.iter().zip(stand_ins) {
            if let Some(loc) = loc {
                st.ir.set_op_loc(p.op, import.attr(loc));
            }
            let ours: Vec<RegionId> = st.ir.regions(p.op).collect();
            for (&dst, src) in ours.iter().zip(theirs) {
                let blocks: Vec<BlockId> = st.ir.region_blocks(shift.region(src)).collect();
                for b in blocks {
                    st.ir.detach_block(b);
                    st.ir.append_block(dst, b);
                }
            }
        }
        Ok(())
    }

    /// Reads `p` into its op's regions, on this thread.
    fn read_here(&mut self, st: &mut IrState<'a>, p: Pending<'a>) -> DResult<()> {
        let op = p.op;
        let regions: Vec<RegionId> = st.ir.regions(op).collect();
        if let Some(loc) = self.read_pending(st, p, &regions)? {
            st.ir.set_op_loc(op, loc);
        }
        Ok(())
    }

    /// The helper's work: each section of `half` into as many stand-in
    /// regions as its op has (`shapes`), in a graph of its own; with
    /// each, its op's location if it was left to read.
    fn read_half(&mut self, half: Vec<Pending<'a>>, shapes: &[usize]) -> DResult<(Ir, StandIns)> {
        let mut st = self.ir_state(false);
        let mut out = Vec::with_capacity(half.len());
        for (p, &n) in half.into_iter().zip(shapes) {
            let regions = st.ir.create_regions(n);
            let loc = self.read_pending(&mut st, p, &regions)?;
            out.push((regions, loc));
        }
        Ok((st.ir, out))
    }
}
