//! Large modules are read on two threads (the isolated regions split in
//! two halves): the module read is the one written, locations, use-list
//! orders and distinct attributes included, and damage in either half
//! is the error a one-thread read gives.

use silica_bytecode::{read, read_lazy, write, WriteOptions};
use silica_ir::parser::{parse, ParseOptions, ParsedModule};
use silica_ir::printer::{print_module, PrintFlags};
use silica_ir::{Context, Ir, OpId};
use std::fmt::Write;

/// `n` isolated functions (with a nested loop, locations, and every
/// `distinct_every`-th one a distinct attribute), their regions over
/// 256 KiB of bytecode for n = 5000.
fn source(n: usize, distinct_every: usize) -> String {
    let mut s = String::from("module {\n");
    for i in 0..n {
        let distinct = if distinct_every > 0 && i % distinct_every == 0 {
            format!(", d = distinct[{i}]<{{k = {i}}}>")
        } else {
            String::new()
        };
        let _ = write!(
            s,
            "  \"xx.func\"() ({{\n\
             \x20 ^bb0(%a: i32, %m: memref<{i}xf32>):\n\
             \x20   %0 = \"xx.add\"(%a, %a) {{k = {i} : i64{distinct}}} : (i32, i32) -> i32\n\
             \x20   \"xx.loop\"() ({{\n\
             \x20     %1 = \"xx.use\"(%0, %a) {{name = \"f{i}\"}} : (i32, i32) -> tuple<i32, f32>\n\
             \x20   }}) : () -> ()\n\
             \x20   \"xx.return\"(%0, %a) : (i32, i32) -> ()\n\
             \x20 }}) {{sym_name = \"f{i}\"}} : () -> ()\n"
        );
    }
    s.push_str("}\n");
    s
}

fn context() -> Context {
    let mut ctx = Context::new();
    ctx.allow_unregistered = true;
    ctx
}

fn printed(ctx: &Context, m: &ParsedModule) -> String {
    let flags = PrintFlags {
        debug_info: true,
        ..Default::default()
    };
    print_module(ctx, &m.ir, m.top, &m.resources, flags)
}

/// Every value's uses, as (owner's pre-order number, operand number).
type UseLists = Vec<Vec<(usize, usize)>>;

fn use_lists(ir: &Ir, top: OpId) -> UseLists {
    let mut order = Vec::new();
    ir.walk(top, &mut |op| order.push(op));
    let mut number = vec![usize::MAX; ir.op_capacity()];
    for (i, op) in order.iter().enumerate() {
        number[op.0 as usize] = i;
    }
    let mut out = Vec::new();
    for &op in &order {
        let mut values: Vec<_> = ir.results(op).collect();
        for r in ir.regions(op) {
            for b in ir.region_blocks(r) {
                values.extend_from_slice(ir.block_args(b));
            }
        }
        for v in values {
            out.push(
                ir.uses(v)
                    .map(|u| {
                        let owner = ir.use_owner(u);
                        let k = ir.operand_uses(owner).position(|x| x == u).unwrap();
                        (number[owner.0 as usize], k)
                    })
                    .collect(),
            );
        }
    }
    out
}

/// The module parsed, with the uses of `%a` turned around in every
/// function (so that the file records use-list orders), and its bytes.
fn written(src: &str) -> (String, UseLists, Vec<u8>) {
    let mut ctx = context();
    let mut m = parse(
        &mut ctx,
        "big.mlir",
        src.as_bytes(),
        ParseOptions::default(),
    )
    .unwrap();
    let mut args = Vec::new();
    m.ir.walk(m.top, &mut |op| {
        if ctx.str(m.ir.op_name(op)) == "xx.func" {
            let r = m.ir.regions(op).next().unwrap();
            let b = m.ir.region_blocks(r).next().unwrap();
            args.push(m.ir.block_args(b)[0]);
        }
    });
    for a in args {
        let last = m.ir.uses(a).last().unwrap();
        m.ir.set_use(last, a);
    }
    let bytes = write(
        &mut ctx,
        &m.ir,
        m.top,
        &m.resources,
        &WriteOptions::default(),
    )
    .unwrap();
    (printed(&ctx, &m), use_lists(&m.ir, m.top), bytes)
}

/// The file read at once (on two threads when large) and lazily one
/// function at a time (on one thread).
fn both_reads(bytes: &[u8]) -> [(String, UseLists); 2] {
    let mut ctx = context();
    let m = read(&mut ctx, "big.mlirbc", bytes).unwrap();
    let at_once = (printed(&ctx, &m), use_lists(&m.ir, m.top));
    let mut lazy_ctx = context();
    let mut lazy = read_lazy(&mut lazy_ctx, "big.mlirbc", bytes).unwrap();
    loop {
        let next = lazy.pending().next();
        let Some(op) = next else { break };
        lazy.materialize(op).unwrap();
    }
    let m = lazy.finish().unwrap();
    let one_by_one = (printed(&lazy_ctx, &m), use_lists(&m.ir, m.top));
    [at_once, one_by_one]
}

#[test]
fn large_modules_read_as_written() {
    let (text, uses, bytes) = written(&source(5000, 0));
    assert!(bytes.len() > 1 << 19, "{} bytes", bytes.len());
    for (got, got_uses) in both_reads(&bytes) {
        assert!(got == text, "the module read differs from the one written");
        assert!(got_uses == uses, "use-list orders differ");
    }
}

#[test]
fn distinct_attributes_in_either_half_read_as_written() {
    let (text, uses, bytes) = written(&source(5000, 997));
    for (got, got_uses) in both_reads(&bytes) {
        assert!(got == text, "the module read differs from the one written");
        assert!(got_uses == uses, "use-list orders differ");
    }
}

#[test]
fn damage_in_either_half_is_the_one_thread_error() {
    let (_, _, bytes) = written(&source(5000, 0));
    // Damage in the IR of a function of each half: an operand out of range.
    for at in [bytes.len() / 3, 2 * bytes.len() / 3] {
        for delta in [0x55u8, 0xff, 0x01] {
            let mut damaged = bytes.clone();
            damaged[at] ^= delta;
            let mut ctx = context();
            let at_once = read(&mut ctx, "big.mlirbc", &damaged)
                .err()
                .map(|d| d.message);
            let mut lazy_ctx = context();
            let one_by_one = read_lazy(&mut lazy_ctx, "big.mlirbc", &damaged)
                .and_then(|mut m| {
                    loop {
                        let next = m.pending().next();
                        let Some(op) = next else { break };
                        m.materialize(op)?;
                    }
                    m.finish()
                })
                .err()
                .map(|d| d.message);
            assert_eq!(at_once, one_by_one, "byte {at} ^ {delta:#x}");
        }
    }
}
