//! The host stub's functions, built through the IR API:
//! - `F_host_run` (private): bare pointers for the memrefs, the scalars
//!   as the kernel takes them; opens the device, allocates and fills a
//!   device buffer per memref, writes the base addresses and the scalars
//!   (32-bit words, least significant first), sets `ap_start`, polls the
//!   control register until `ap_done` (at most [`POLL_LIMIT`] reads),
//!   copies back the memrefs the kernel may write, reads the results,
//!   closes the device; returns an error code (`silica_dev.h`) and the
//!   results' bits;
//! - `F_ciface`: the C interface, bare pointers and result pointers,
//!   returns the error code;
//! - `F`: the kernel's own signature (memrefs lowered to descriptors by
//!   the LLVM path, so a caller links unchanged); an error goes to
//!   `silica_dev_fail`, which reports it and exits.

use super::ops::Ops;
use crate::model::interface::{ArgKind, Interface};
use crate::model::register_map::{bits, RegisterMap, CONTROL};
use silica_ir::types::DYNAMIC;
use silica_ir::{AttrKind, BlockId, Type, TypeKind, ValueId};

/// How many control register reads wait for `ap_done` before the stub
/// gives up with [`TIMEOUT`].
pub const POLL_LIMIT: i128 = 1 << 26;

/// The stub's error codes (as `silica_dev.h` has them).
pub const NO_DEVICE: i128 = 1;
pub const NO_MEMORY: i128 = 2;
pub const TIMEOUT: i128 = 3;
pub const AXI_ERROR: i128 = 4;
/// A memref descriptor's sizes differ from the kernel's type (the
/// argument's position in the bits from 8 up).
pub const BAD_SIZE: i128 = 5;

/// The driver API's functions: name, parameters, results.
fn driver_api(o: &mut Ops<'_>) -> Vec<(&'static str, Vec<Type>, Vec<Type>)> {
    let (i32t, i64t) = (o.ctx.signless(32), o.ctx.signless(64));
    let ptr = silica_llvm::dialect::types::ptr(o.ctx, 0);
    vec![
        ("silica_dev_open", vec![ptr], vec![i32t]),
        ("silica_dev_read32", vec![i32t], vec![i32t]),
        ("silica_dev_write32", vec![i32t, i32t], vec![]),
        ("silica_dev_alloc", vec![i64t], vec![i64t]),
        ("silica_dev_sync", vec![i64t, ptr, i64t, i32t], vec![i32t]),
        ("silica_dev_close", vec![], vec![]),
        ("silica_dev_fail", vec![i32t], vec![]),
    ]
}

/// The bits of a scalar type: `index` is 64, a float its width.
fn bits_type(o: &mut Ops<'_>, ty: Type) -> Type {
    let width = crate::model::interface::scalar_width(o.ctx, ty).unwrap_or(64);
    o.ctx.signless(width)
}

/// `v` of type `ty` as its bits.
fn to_bits(o: &mut Ops<'_>, b: BlockId, v: ValueId, ty: Type) -> ValueId {
    let bt = bits_type(o, ty);
    match o.ctx.type_kind(ty) {
        TypeKind::Index => o.value(b, "arith.index_cast", &[v], bt),
        TypeKind::Float(_) => o.value(b, "arith.bitcast", &[v], bt),
        _ => v,
    }
}

/// The bits `v` as a value of type `ty`.
fn from_bits(o: &mut Ops<'_>, b: BlockId, v: ValueId, ty: Type) -> ValueId {
    match o.ctx.type_kind(ty) {
        TypeKind::Index => o.value(b, "arith.index_cast", &[v], ty),
        TypeKind::Float(_) => o.value(b, "arith.bitcast", &[v], ty),
        _ => v,
    }
}

fn width(o: &Ops<'_>, t: Type) -> u32 {
    match o.ctx.type_kind(t) {
        TypeKind::Integer { width, .. } => *width,
        _ => 64,
    }
}

/// Word `i` (32 bits) of the integer `v`.
fn word(o: &mut Ops<'_>, b: BlockId, v: ValueId, i: u32) -> ValueId {
    let vt = o.ir.value_type(v);
    let w = width(o, vt);
    let i32t = o.ctx.signless(32);
    let shifted = if i == 0 {
        v
    } else {
        let s = o.constant(b, i128::from(32 * i), vt);
        o.value(b, "arith.shrui", &[v, s], vt)
    };
    match w.cmp(&32) {
        std::cmp::Ordering::Less => o.value(b, "arith.extui", &[shifted], i32t),
        std::cmp::Ordering::Equal => shifted,
        std::cmp::Ordering::Greater => o.value(b, "arith.trunci", &[shifted], i32t),
    }
}

/// Appends the driver's declarations and the stub of `iface` (the
/// kernel's argument and result types `inputs`, `outputs`) to
/// `module_block`.
pub fn build(
    o: &mut Ops<'_>,
    module_block: BlockId,
    iface: &Interface,
    map: &RegisterMap,
    inputs: &[Type],
    outputs: &[Type],
) {
    for (name, params, results) in driver_api(o) {
        o.func(module_block, name, (&params, &results), true, true);
    }
    let top = iface.top.clone();
    let run = format!("{top}_host_run");
    let (i32t, i64t) = (o.ctx.signless(32), o.ctx.signless(64));
    let ptr = silica_llvm::dialect::types::ptr(o.ctx, 0);
    // The private runner.
    let run_inputs: Vec<Type> = iface
        .args
        .iter()
        .map(|a| match a.kind {
            ArgKind::Memory(_) => ptr,
            ArgKind::Scalar(_) => inputs[a.index],
        })
        .collect();
    let result_bits: Vec<Type> = iface
        .results
        .iter()
        .map(|r| bits_type(o, outputs[r.index]))
        .collect();
    let mut run_results = vec![i32t];
    run_results.extend(&result_bits);
    build_run(o, module_block, &run, iface, map, &run_inputs, &run_results);
    // F_ciface: result pointers, the error code.
    let mut c_inputs = run_inputs.clone();
    c_inputs.extend(iface.results.iter().map(|_| ptr));
    let entry = o
        .func(
            module_block,
            &format!("{top}_ciface"),
            (&c_inputs, &[i32t]),
            false,
            false,
        )
        .expect("a definition");
    let args = o.ir.block_args(entry).to_vec();
    let n = run_inputs.len();
    let got = o.call(entry, &run, &args[..n], &run_results);
    for (i, &p) in args[n..].iter().enumerate() {
        o.op(entry, "llvm.store", &[got[i + 1], p], &[], vec![]);
    }
    o.op(entry, "func.return", &[got[0]], &[], vec![]);
    // F: the kernel's signature.
    let entry = o
        .func(module_block, &top, (inputs, outputs), false, false)
        .expect("a definition");
    let args = o.ir.block_args(entry).to_vec();
    let entry = check_sizes(o, entry, iface, &args);
    let index = o.ctx.index_type();
    let mut call_args = Vec::new();
    let mut buffers = Vec::new();
    for a in &iface.args {
        // A returned buffer is allocated here and returned.
        let v = match a.returned {
            Some(position) => {
                let segments = o.ctx.int_array_attr(32, &[0, 0]);
                let alloc = o.op_full(
                    entry,
                    "memref.alloc",
                    &[],
                    &[outputs[position]],
                    vec![],
                    vec![("operandSegmentSizes", segments)],
                    &[],
                    &[],
                );
                let buffer = o.ir.result(alloc, 0);
                buffers.push((position, buffer));
                buffer
            }
            None => args[a.index],
        };
        call_args.push(match a.kind {
            ArgKind::Memory(_) => {
                let p = o.value(
                    entry,
                    "memref.extract_aligned_pointer_as_index",
                    &[v],
                    index,
                );
                let p = o.value(entry, "arith.index_cast", &[p], i64t);
                o.value(entry, "llvm.inttoptr", &[p], ptr)
            }
            ArgKind::Scalar(_) => v,
        });
    }
    let got = o.call(entry, &run, &call_args, &run_results);
    let zero = o.constant(entry, 0, i32t);
    let failed = o.cmpi(entry, 1, got[0], zero);
    let fail = o.block(entry, &[]);
    let ok = o.block(entry, &[]);
    o.cond_br(entry, failed, (fail, &[]), (ok, &[]));
    o.call(fail, "silica_dev_fail", &[got[0]], &[]);
    o.op(fail, "llvm.unreachable", &[], &[], vec![]);
    let mut results: Vec<(usize, ValueId)> = iface
        .results
        .iter()
        .enumerate()
        .map(|(i, r)| (r.index, from_bits(o, ok, got[i + 1], outputs[r.index])))
        .chain(buffers)
        .collect();
    results.sort_unstable_by_key(|&(position, _)| position);
    let results: Vec<ValueId> = results.into_iter().map(|(_, v)| v).collect();
    o.op(ok, "func.return", &results, &[], vec![]);
}

/// Checks the sizes of every memref descriptor among `args` (the
/// kernel's arguments in `block`) against its static shape: a mismatch
/// calls `silica_dev_fail` with [`BAD_SIZE`] and the first such
/// argument's position; gives the block that goes on.
fn check_sizes(o: &mut Ops<'_>, block: BlockId, iface: &Interface, args: &[ValueId]) -> BlockId {
    let (i1, i32t, index) = (o.ctx.signless(1), o.ctx.signless(32), o.ctx.index_type());
    let zero = o.constant(block, 0, i32t);
    let mut code = zero;
    for a in iface.args.iter().rev() {
        let Some(&v) = args.get(a.index).filter(|_| a.returned.is_none()) else {
            continue;
        };
        let TypeKind::MemRef {
            shape,
            element,
            memory_space,
            ..
        } = o.ctx.type_kind(o.ir.value_type(v)).clone()
        else {
            continue;
        };
        // Through a cast to dynamic sizes, memref.dim reads the descriptor.
        let dynamic = o.ctx.intern_type(TypeKind::MemRef {
            shape: vec![DYNAMIC; shape.len()].into(),
            element,
            layout: None,
            memory_space,
        });
        let cast = o.value(block, "memref.cast", &[v], dynamic);
        let mut bad = o.constant(block, 0, i1);
        for (i, &size) in shape.iter().enumerate() {
            let at = o.constant(block, i as i128, index);
            let got = o.value(block, "memref.dim", &[cast, at], index);
            let want = o.constant(block, i128::from(size), index);
            let differs = o.cmpi(block, 1, got, want);
            bad = o.value(block, "arith.ori", &[bad, differs], i1);
        }
        let mine = o.constant(block, BAD_SIZE + 256 * a.index as i128, i32t);
        code = o.value(block, "arith.select", &[bad, mine, code], i32t);
    }
    let failed = o.cmpi(block, 1, code, zero);
    let fail = o.block(block, &[]);
    let go = o.block(block, &[]);
    o.cond_br(block, failed, (fail, &[]), (go, &[]));
    o.call(fail, "silica_dev_fail", &[code], &[]);
    o.op(fail, "llvm.unreachable", &[], &[], vec![]);
    go
}

/// The kernel's description (`silica_dev.h`: entries of kind, width,
/// words, offset, number; arguments, then results) as a constant global
/// `F_kernel` appended to `module_block`; gives its name.
fn describe(
    o: &mut Ops<'_>,
    module_block: BlockId,
    iface: &Interface,
    map: &RegisterMap,
) -> String {
    const SCALAR: i64 = 0;
    const MEMORY: i64 = 1;
    const RESULT: i64 = 2;
    let (mut memories, mut scalars) = (0, 0);
    let mut rows: Vec<[i64; 5]> = Vec::new();
    for a in &iface.args {
        let reg = map
            .register(&a.name)
            .expect("every argument has a register");
        rows.push(match &a.kind {
            ArgKind::Memory(m) => {
                memories += 1;
                let words = i64::try_from(m.elements()).unwrap_or(i64::MAX);
                [
                    MEMORY,
                    m.element_width.into(),
                    words,
                    reg.offset.into(),
                    memories - 1,
                ]
            }
            ArgKind::Scalar(s) => {
                scalars += 1;
                [
                    SCALAR,
                    s.width.into(),
                    reg.words.into(),
                    reg.offset.into(),
                    scalars - 1,
                ]
            }
        });
    }
    for (i, r) in iface.results.iter().enumerate() {
        let reg = map.register(&r.name).expect("every result has a register");
        rows.push([
            RESULT,
            r.width.into(),
            reg.words.into(),
            reg.offset.into(),
            i as i64,
        ]);
    }
    let mut words = vec![rows.len() as i64];
    words.extend(rows.iter().flatten());
    let i32t = o.ctx.signless(32);
    let n = words.len();
    let tensor = o.ctx.intern_type(TypeKind::RankedTensor {
        shape: Box::new([n as i64]),
        element: i32t,
        encoding: None,
    });
    let values: Vec<_> = words.iter().map(|&w| o.ctx.int_attr(i32t, w)).collect();
    let value = o.ctx.intern_attr(AttrKind::DenseElements {
        ty: tensor,
        values: values.into(),
    });
    let array = silica_llvm::dialect::types::array(o.ctx, n as u64, i32t);
    let name = format!("{}_kernel", iface.top);
    let (t32, t64) = (o.ctx.signless(32), o.ctx.signless(64));
    let props = vec![
        ("addr_space", o.ctx.int_attr(t32, 0)),
        ("constant", o.ctx.unit_attr()),
        ("global_type", o.ctx.intern_attr(AttrKind::Type(array))),
        (
            "linkage",
            silica_llvm::dialect::attrs::keyword_attr(o.ctx, "linkage", "private"),
        ),
        ("sym_name", o.ctx.string_attr(name.as_bytes())),
        ("value", value),
        ("visibility_", o.ctx.int_attr(t64, 0)),
    ];
    let region = o.ir.create_region();
    o.op_full(
        module_block,
        "llvm.mlir.global",
        &[],
        &[],
        vec![],
        props,
        &[],
        &[region],
    );
    name
}

/// `F_host_run`: the register and memory traffic of one call.
fn build_run(
    o: &mut Ops<'_>,
    module_block: BlockId,
    name: &str,
    iface: &Interface,
    map: &RegisterMap,
    inputs: &[Type],
    results: &[Type],
) {
    let (i1, i32t, i64t) = (o.ctx.signless(1), o.ctx.signless(32), o.ctx.signless(64));
    let entry = o
        .func(module_block, name, (inputs, results), false, true)
        .expect("a definition");
    let args = o.ir.block_args(entry).to_vec();
    let fail = o.block(entry, &[i32t]);
    let code = o.ir.block_args(fail)[0];
    // Failing: close, return the code and zero results.
    o.call(fail, "silica_dev_close", &[], &[]);
    let mut out = vec![code];
    for &t in &results[1..] {
        out.push(o.constant(fail, 0, t));
    }
    o.op(fail, "func.return", &out, &[], vec![]);
    let c = |o: &mut Ops<'_>, b: BlockId, v: i128| {
        let t = o.ctx.signless(32);
        o.constant(b, v, t)
    };
    // Open, with the kernel's description.
    let table = describe(o, module_block, iface, map);
    let ptr = silica_llvm::dialect::types::ptr(o.ctx, 0);
    let sym = o.ctx.sym(&table);
    let global = o.ctx.intern_attr(AttrKind::SymbolRef {
        root: sym,
        nested: Box::new([]),
    });
    let op = o.op(
        entry,
        "llvm.mlir.addressof",
        &[],
        &[ptr],
        vec![("global_name", global)],
    );
    let kernel = o.ir.result(op, 0);
    let opened = o.call(entry, "silica_dev_open", &[kernel], &[i32t])[0];
    let zero = c(o, entry, 0);
    let bad_open = o.cmpi(entry, 1, opened, zero);
    let go = o.block(entry, &[]);
    let no_device = c(o, entry, NO_DEVICE);
    o.cond_br(entry, bad_open, (fail, &[no_device]), (go, &[]));
    // Buffers, base addresses and scalars.
    let mut bad = o.constant(go, 0, i1);
    let mut buffers = Vec::new();
    let zero64 = o.constant(go, 0, i64t);
    for (arg, v) in iface.args.iter().zip(&args) {
        let reg = map
            .register(&arg.name)
            .expect("every argument has a register");
        match &arg.kind {
            ArgKind::Memory(m) => {
                let bytes = i128::from(m.elements())
                    * i128::from(crate::model::register_map::element_bits(m.element_width) / 8);
                let size = o.constant(go, bytes, i64t);
                let address = o.call(go, "silica_dev_alloc", &[size], &[i64t])[0];
                let none = o.cmpi(go, 0, address, zero64);
                bad = o.value(go, "arith.ori", &[bad, none], i1);
                let to_device = c(o, go, 1);
                let synced = o.call(
                    go,
                    "silica_dev_sync",
                    &[address, *v, size, to_device],
                    &[i32t],
                )[0];
                let zero = c(o, go, 0);
                let failed = o.cmpi(go, 1, synced, zero);
                bad = o.value(go, "arith.ori", &[bad, failed], i1);
                for i in 0..2 {
                    let w = word(o, go, address, i);
                    let off = c(o, go, i128::from(reg.offset + 4 * i));
                    o.call(go, "silica_dev_write32", &[off, w], &[]);
                }
                buffers.push((address, *v, size, m.access.writes()));
            }
            ArgKind::Scalar(_) => {
                let ty = o.ir.value_type(*v);
                let b = to_bits(o, go, *v, ty);
                for i in 0..reg.words {
                    let w = word(o, go, b, i);
                    let off = c(o, go, i128::from(reg.offset + 4 * i));
                    o.call(go, "silica_dev_write32", &[off, w], &[]);
                }
            }
        }
    }
    let start = o.block(entry, &[]);
    let no_memory = c(o, go, NO_MEMORY);
    o.cond_br(go, bad, (fail, &[no_memory]), (start, &[]));
    // Start and poll.
    let control = c(o, start, i128::from(CONTROL));
    let ap_start = c(o, start, 1 << bits::AP_START);
    o.call(start, "silica_dev_write32", &[control, ap_start], &[]);
    let poll = o.block(entry, &[i64t]);
    let first = o.constant(start, 0, i64t);
    o.br(start, poll, &[first]);
    let polls = o.ir.block_args(poll)[0];
    let control = c(o, poll, i128::from(CONTROL));
    let status = o.call(poll, "silica_dev_read32", &[control], &[i32t])[0];
    let done_bit = c(o, poll, 1 << bits::AP_DONE);
    let done = o.value(poll, "arith.andi", &[status, done_bit], i32t);
    let zero = c(o, poll, 0);
    let is_done = o.cmpi(poll, 1, done, zero);
    let finished = o.block(entry, &[]);
    let wait = o.block(entry, &[]);
    o.cond_br(poll, is_done, (finished, &[]), (wait, &[]));
    let one = o.constant(wait, 1, i64t);
    let next = o.value(wait, "arith.addi", &[polls, one], i64t);
    let limit = o.constant(wait, POLL_LIMIT, i64t);
    let over = o.cmpi(wait, 9, next, limit);
    let timeout = c(o, wait, TIMEOUT);
    o.cond_br(wait, over, (fail, &[timeout]), (poll, &[next]));
    // Errors, copies back, results.
    let error_bit = c(o, finished, 1 << bits::AP_ERROR);
    let error = o.value(finished, "arith.andi", &[status, error_bit], i32t);
    let zero = c(o, finished, 0);
    let has_error = o.cmpi(finished, 1, error, zero);
    let back = o.block(entry, &[]);
    let axi_error = c(o, finished, AXI_ERROR);
    o.cond_br(finished, has_error, (fail, &[axi_error]), (back, &[]));
    let mut bad = o.constant(back, 0, i1);
    for (address, host, size, writes) in buffers {
        if !writes {
            continue;
        }
        let from_device = c(o, back, 0);
        let synced = o.call(
            back,
            "silica_dev_sync",
            &[address, host, size, from_device],
            &[i32t],
        )[0];
        let zero = c(o, back, 0);
        let failed = o.cmpi(back, 1, synced, zero);
        bad = o.value(back, "arith.ori", &[bad, failed], i1);
    }
    let mut values = Vec::new();
    for (r, &t) in iface.results.iter().zip(&results[1..]) {
        let reg = map.register(&r.name).expect("every result has a register");
        let w = width(o, t);
        let mut acc = o.constant(back, 0, t);
        for i in 0..reg.words {
            let off = c(o, back, i128::from(reg.offset + 4 * i));
            let part = o.call(back, "silica_dev_read32", &[off], &[i32t])[0];
            let part = match w.cmp(&32) {
                std::cmp::Ordering::Less => o.value(back, "arith.trunci", &[part], t),
                std::cmp::Ordering::Equal => part,
                std::cmp::Ordering::Greater => o.value(back, "arith.extui", &[part], t),
            };
            let part = if i == 0 {
                part
            } else {
                let s = o.constant(back, i128::from(32 * i), t);
                o.value(back, "arith.shli", &[part, s], t)
            };
            acc = o.value(back, "arith.ori", &[acc, part], t);
        }
        values.push(acc);
    }
    let ok = o.block(entry, &[]);
    let no_memory = c(o, back, NO_MEMORY);
    o.cond_br(back, bad, (fail, &[no_memory]), (ok, &[]));
    o.call(ok, "silica_dev_close", &[], &[]);
    let mut out = vec![c(o, ok, 0)];
    out.extend(values);
    o.op(ok, "func.return", &out, &[], vec![]);
}
