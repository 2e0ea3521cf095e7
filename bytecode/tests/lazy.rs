//! Lazy loading: the regions of isolated ops written as sections of
//! their own are read only when asked for, and the module read in pieces
//! is the one read at once, use-list orders included.

use silica_bytecode::{read, read_lazy, write, WriteOptions};
use silica_ir::parser::{parse, ParseOptions, ParsedModule};
use silica_ir::printer::{print_module, PrintFlags};
use silica_ir::{Context, Ir, OpId, ValueId};

const MODULE: &str = r#"
module {
  "xx.func"() ({
  ^bb0(%a: i32):
    %0 = "xx.add"(%a, %a) : (i32, i32) -> i32
    %1 = "xx.mul"(%0, %a) : (i32, i32) -> i32
    "xx.use"(%0, %1, %a) : (i32, i32, i32) -> ()
    "builtin.module"() ({
      "xx.inner"() ({
      ^bb0(%b: i64):
        %2 = "xx.neg"(%b) : (i64) -> i64
        "xx.use"(%2, %b, %b) : (i64, i64, i64) -> ()
      }) : () -> ()
    }) : () -> ()
  }) {sym_name = "f"} : () -> ()
  "xx.func"() ({
  ^bb0(%c: f32):
    "xx.ret"(%c, %c) : (f32, f32) -> ()
  }) {sym_name = "g"} : () -> ()
}
"#;

fn context() -> Context {
    let mut ctx = Context::new();
    ctx.allow_unregistered = true;
    ctx
}

/// The module, with the uses of block arguments turned around so that
/// the file records use-list orders.
fn module(ctx: &mut Context) -> ParsedModule {
    let mut m = parse(ctx, "lazy.mlir", MODULE.as_bytes(), ParseOptions::default()).unwrap();
    for v in block_args(&m.ir, m.top) {
        let uses: Vec<_> = m.ir.uses(v).collect();
        if let Some(&last) = uses.last() {
            m.ir.set_use(last, v);
        }
    }
    m
}

fn block_args(ir: &Ir, top: OpId) -> Vec<ValueId> {
    let mut out = Vec::new();
    ir.walk(top, &mut |op| {
        for r in ir.regions(op) {
            for b in ir.region_blocks(r) {
                out.extend_from_slice(ir.block_args(b));
            }
        }
    });
    out
}

/// Every value's uses as (owner's pre-order number, operand number).
fn use_lists(ir: &Ir, top: OpId) -> Vec<Vec<(usize, usize)>> {
    let mut order = Vec::new();
    ir.walk(top, &mut |op| order.push(op));
    let number = |op: OpId| order.iter().position(|&o| o == op).unwrap();
    let mut values = block_args(ir, top);
    for &op in &order {
        values.extend(ir.results(op));
    }
    values
        .iter()
        .map(|&v| {
            ir.uses(v)
                .map(|u| {
                    let owner = ir.use_owner(u);
                    let first = ir.operand_uses(owner).position(|x| x == u).unwrap();
                    (number(owner), first)
                })
                .collect()
        })
        .collect()
}

fn text(ctx: &Context, m: &ParsedModule) -> String {
    print_module(ctx, &m.ir, m.top, &m.resources, PrintFlags::default())
}

fn bytes(version: u64) -> Vec<u8> {
    let mut ctx = context();
    let m = module(&mut ctx);
    let opts = WriteOptions {
        version,
        ..Default::default()
    };
    write(&mut ctx, &m.ir, m.top, &m.resources, &opts).unwrap()
}

#[test]
fn isolated_regions_wait_until_materialized() {
    let bytes = bytes(6);
    let mut ctx = context();
    let mut lazy = read_lazy(&mut ctx, "lazy.mlirbc", &bytes).unwrap();
    // The module itself is isolated: first its body.
    assert_eq!(lazy.pending().collect::<Vec<_>>(), [lazy.top()]);
    lazy.materialize(lazy.top()).unwrap();
    let ir = lazy.ir();
    let funcs: Vec<OpId> = ir
        .region_blocks(ir.regions(lazy.top()).next().unwrap())
        .flat_map(|b| ir.block_ops(b))
        .collect();
    assert_eq!(funcs.len(), 2);
    assert_eq!(lazy.pending().collect::<Vec<_>>(), funcs);
    for &f in &funcs {
        let region = lazy.ir().regions(f).next().unwrap();
        assert_eq!(lazy.ir().region_blocks(region).count(), 0);
    }
    // The second function alone.
    lazy.materialize(funcs[1]).unwrap();
    assert!(!lazy.is_pending(funcs[1]) && lazy.is_pending(funcs[0]));
    let region = lazy.ir().regions(funcs[1]).next().unwrap();
    assert_eq!(lazy.ir().region_blocks(region).count(), 1);
    // The first: its nested module becomes pending in turn.
    lazy.materialize(funcs[0]).unwrap();
    let nested: Vec<OpId> = lazy.pending().collect();
    assert_eq!(nested.len(), 1);
    assert_eq!(
        lazy.context().str(lazy.ir().op_name(nested[0])),
        "builtin.module"
    );
    // Materializing what is not pending does nothing.
    lazy.materialize(funcs[0]).unwrap();
    let m = lazy.finish().unwrap();

    let mut eager_ctx = context();
    let eager = read(&mut eager_ctx, "lazy.mlirbc", &bytes).unwrap();
    assert_eq!(text(&ctx, &m), text(&eager_ctx, &eager));
    assert_eq!(use_lists(&m.ir, m.top), use_lists(&eager.ir, eager.top));

    let mut orig_ctx = context();
    let orig = module(&mut orig_ctx);
    assert_eq!(text(&ctx, &m), text(&orig_ctx, &orig));
    assert_eq!(use_lists(&m.ir, m.top), use_lists(&orig.ir, orig.top));
    // Orders that building the IR alone would not give.
    let plain = parse(
        &mut orig_ctx,
        "lazy.mlir",
        MODULE.as_bytes(),
        ParseOptions::default(),
    );
    let plain = plain.unwrap();
    assert_ne!(use_lists(&m.ir, m.top), use_lists(&plain.ir, plain.top));
}

#[test]
fn files_before_version_2_have_nothing_pending() {
    let bytes = bytes(1);
    let mut ctx = context();
    let lazy = read_lazy(&mut ctx, "lazy.mlirbc", &bytes).unwrap();
    assert_eq!(lazy.pending().count(), 0);
}

#[test]
fn damaged_lazy_regions_are_errors_when_materialized() {
    let bytes = bytes(6);
    let mut reported = 0;
    for n in 0..bytes.len() {
        let mut damaged = bytes.clone();
        damaged[n] ^= 0x55;
        let mut ctx = context();
        let Ok(mut lazy) = read_lazy(&mut ctx, "lazy.mlirbc", &damaged) else {
            continue;
        };
        let pending: Vec<OpId> = lazy.pending().collect();
        for op in pending {
            if let Err(d) = lazy.materialize(op) {
                assert!(d.message.contains("(at byte "), "{}", d.message);
                reported += 1;
            }
        }
        if let Err(d) = lazy.finish() {
            assert!(d.message.contains("(at byte "), "{}", d.message);
        }
    }
    assert!(reported > 0);
}
