//! A small builder of func/arith/cf/memref/llvm ops through the IR API,
//! for the host stub: ops appended to a block, constants, calls,
//! functions and blocks with arguments.

use silica_ir::{Attr, AttrKind, BlockId, Context, Ir, OpId, OpSpec, RegionId, Type, ValueId};

/// Builds ops into one `Ir`.
pub struct Ops<'c> {
    pub ctx: &'c mut Context,
    pub ir: Ir,
    pub loc: Attr,
}

impl Ops<'_> {
    /// Appends op `name` to `block`.
    #[allow(clippy::too_many_arguments)]
    pub fn op_full(
        &mut self,
        block: BlockId,
        name: &str,
        operands: &[ValueId],
        results: &[Type],
        attrs: Vec<(&str, Attr)>,
        props: Vec<(&str, Attr)>,
        successors: &[BlockId],
        regions: &[RegionId],
    ) -> OpId {
        let attrs: Vec<_> = attrs
            .into_iter()
            .map(|(k, v)| (self.ctx.sym(k), v))
            .collect();
        let attrs = self.ctx.dict_attr(attrs);
        let props = if props.is_empty() {
            None
        } else {
            let p: Vec<_> = props
                .into_iter()
                .map(|(k, v)| (self.ctx.sym(k), v))
                .collect();
            Some(self.ctx.dict_attr(p))
        };
        let name = self.ctx.sym(name);
        let op = self.ir.create_op(OpSpec {
            name,
            loc: self.loc,
            operands,
            result_types: results,
            successors,
            regions,
            attrs,
            props,
        });
        self.ir.append_op(block, op);
        op
    }

    /// Appends a plain op (operands, results, attributes) to `block`.
    pub fn op(
        &mut self,
        block: BlockId,
        name: &str,
        operands: &[ValueId],
        results: &[Type],
        attrs: Vec<(&str, Attr)>,
    ) -> OpId {
        self.op_full(block, name, operands, results, attrs, vec![], &[], &[])
    }

    /// An op's only result.
    pub fn value(
        &mut self,
        block: BlockId,
        name: &str,
        operands: &[ValueId],
        result: Type,
    ) -> ValueId {
        let op = self.op(block, name, operands, &[result], vec![]);
        self.ir.result(op, 0)
    }

    /// `arith.constant value : ty`.
    pub fn constant(&mut self, block: BlockId, value: i128, ty: Type) -> ValueId {
        let attr = self.ctx.int_attr(ty, value);
        let op = self.op(block, "arith.constant", &[], &[ty], vec![("value", attr)]);
        self.ir.result(op, 0)
    }

    /// `arith.cmpi` with MLIR's predicate number `pred` (0 eq, 1 ne, 9 uge).
    pub fn cmpi(&mut self, block: BlockId, pred: i64, a: ValueId, b: ValueId) -> ValueId {
        let i64t = self.ctx.signless(64);
        let p = self.ctx.int_attr(i64t, pred);
        let i1 = self.ctx.signless(1);
        let op = self.op(block, "arith.cmpi", &[a, b], &[i1], vec![("predicate", p)]);
        self.ir.result(op, 0)
    }

    /// `func.call @callee(args)`; its results.
    pub fn call(
        &mut self,
        block: BlockId,
        callee: &str,
        args: &[ValueId],
        results: &[Type],
    ) -> Vec<ValueId> {
        let sym = self.ctx.sym(callee);
        let callee = self.ctx.intern_attr(AttrKind::SymbolRef {
            root: sym,
            nested: Box::new([]),
        });
        let op = self.op(block, "func.call", args, results, vec![("callee", callee)]);
        self.ir.results(op).collect()
    }

    /// A `func.func @name` appended to `module_block`, private or not:
    /// its entry block, or none for a (private) declaration.
    pub fn func(
        &mut self,
        module_block: BlockId,
        name: &str,
        signature: (&[Type], &[Type]),
        declaration: bool,
        private: bool,
    ) -> Option<BlockId> {
        let (inputs, results) = signature;
        let fty = self.ctx.function_type(inputs, results);
        let fty = self.ctx.intern_attr(AttrKind::Type(fty));
        let sym = self.ctx.string_attr(name.as_bytes());
        let mut attrs = vec![("function_type", fty), ("sym_name", sym)];
        let region = self.ir.create_region();
        if private || declaration {
            let private = self.ctx.string_attr(b"private");
            attrs.push(("sym_visibility", private));
        }
        let entry = if declaration {
            None
        } else {
            let b = self.ir.create_block();
            self.ir.append_block(region, b);
            for &t in inputs {
                self.ir.add_block_arg(b, t, Some(self.loc));
            }
            Some(b)
        };
        self.op_full(
            module_block,
            "func.func",
            &[],
            &[],
            attrs,
            vec![],
            &[],
            &[region],
        );
        entry
    }

    /// A new block at the end of the region holding `after`, with
    /// arguments of `types`.
    pub fn block(&mut self, after: BlockId, types: &[Type]) -> BlockId {
        let region = self
            .ir
            .block_region(after)
            .expect("a function's block is in its body");
        let b = self.ir.create_block();
        self.ir.append_block(region, b);
        for &t in types {
            self.ir.add_block_arg(b, t, Some(self.loc));
        }
        b
    }

    /// `cf.br ^dest(args)`.
    pub fn br(&mut self, block: BlockId, dest: BlockId, args: &[ValueId]) {
        self.op_full(block, "cf.br", args, &[], vec![], vec![], &[dest], &[]);
    }

    /// `cf.cond_br cond, ^t(t_args), ^f(f_args)`.
    pub fn cond_br(
        &mut self,
        block: BlockId,
        cond: ValueId,
        t: (BlockId, &[ValueId]),
        f: (BlockId, &[ValueId]),
    ) {
        let mut operands = vec![cond];
        operands.extend_from_slice(t.1);
        operands.extend_from_slice(f.1);
        let seg = self
            .ctx
            .int_array_attr(32, &[1, t.1.len() as i64, f.1.len() as i64]);
        self.op_full(
            block,
            "cf.cond_br",
            &operands,
            &[],
            vec![],
            vec![("operandSegmentSizes", seg)],
            &[t.0, f.0],
            &[],
        );
    }
}
