//! Small builders for the arith, cf and scf ops that lowering passes
//! create, on a [`Rewriter`]: index constants, binary ops with overflow
//! flags, comparisons, selects, branches.

use crate::arith::{flags_attr, CMPI_PREDICATES};
use silica_ir::rewrite::Rewriter;
use silica_ir::{Attr, BlockId, OpSpec, Type, ValueId};

/// Creates ops at the rewriter's insertion point with one location.
pub struct Builder<'r, 'a> {
    pub rw: &'r mut Rewriter<'a>,
    pub loc: Attr,
}

impl Builder<'_, '_> {
    /// `arith.constant N : index`
    pub fn index_const(&mut self, v: i64) -> ValueId {
        let t = self.rw.ctx.index_type();
        self.int_const(t, v)
    }

    /// `arith.constant N : t`
    pub fn int_const(&mut self, t: Type, v: i64) -> ValueId {
        let value = self.rw.ctx.int_attr(t, v);
        let key = self.rw.ctx.sym("value");
        let props = self.rw.ctx.dict_attr(vec![(key, value)]);
        let op = self
            .rw
            .create_simple("arith.constant", &[], &[t], Some(props), self.loc);
        self.rw.ir.result(op, 0)
    }

    /// A binary arith op on `a`'s type; `overflow` bits (`nsw` = 1,
    /// `nuw` = 2) for the ops that take them.
    pub fn binary(&mut self, name: &str, a: ValueId, b: ValueId, overflow: Option<u32>) -> ValueId {
        let ty = self.rw.ir.value_type(a);
        let props = overflow.map(|bits| {
            let f = flags_attr(self.rw.ctx, "overflow", bits);
            let key = self.rw.ctx.sym("overflowFlags");
            self.rw.ctx.dict_attr(vec![(key, f)])
        });
        let op = self.rw.create_simple(name, &[a, b], &[ty], props, self.loc);
        self.rw.ir.result(op, 0)
    }

    /// `arith.cmpi pred, a, b`
    pub fn cmpi(&mut self, pred: &str, a: ValueId, b: ValueId) -> ValueId {
        let i = CMPI_PREDICATES.iter().position(|p| *p == pred).unwrap_or(0);
        let ctx = &mut *self.rw.ctx;
        let i64t = ctx.signless(64);
        let value = ctx.int_attr(i64t, i as i64);
        let key = ctx.sym("predicate");
        let props = ctx.dict_attr(vec![(key, value)]);
        let i1 = ctx.signless(1);
        let op = self
            .rw
            .create_simple("arith.cmpi", &[a, b], &[i1], Some(props), self.loc);
        self.rw.ir.result(op, 0)
    }

    /// `arith.select c, a, b`
    pub fn select(&mut self, c: ValueId, a: ValueId, b: ValueId) -> ValueId {
        let ty = self.rw.ir.value_type(a);
        let op = self
            .rw
            .create_simple("arith.select", &[c, a, b], &[ty], None, self.loc);
        self.rw.ir.result(op, 0)
    }

    /// `cf.br ^dest(args)`
    pub fn br(&mut self, dest: BlockId, args: &[ValueId]) {
        let name = self.rw.ctx.sym("cf.br");
        let attrs = self.rw.ctx.empty_dict();
        self.rw.create(OpSpec {
            name,
            loc: self.loc,
            operands: args,
            result_types: &[],
            successors: &[dest],
            regions: &[],
            attrs,
            props: None,
        });
    }

    /// `cf.cond_br c, ^t(targs), ^f(fargs)`
    pub fn cond_br(
        &mut self,
        c: ValueId,
        t: BlockId,
        targs: &[ValueId],
        f: BlockId,
        fargs: &[ValueId],
    ) {
        let ctx = &mut *self.rw.ctx;
        let seg = ctx.int_array_attr(32, &[1, targs.len() as i64, fargs.len() as i64]);
        let key = ctx.sym(silica_ir::format::SEGMENTS);
        let props = ctx.dict_attr(vec![(key, seg)]);
        let name = ctx.sym("cf.cond_br");
        let attrs = ctx.empty_dict();
        let mut operands = vec![c];
        operands.extend_from_slice(targs);
        operands.extend_from_slice(fargs);
        self.rw.create(OpSpec {
            name,
            loc: self.loc,
            operands: &operands,
            result_types: &[],
            successors: &[t, f],
            regions: &[],
            attrs,
            props: Some(props),
        });
    }
}
