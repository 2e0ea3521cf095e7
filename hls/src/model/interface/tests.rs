//! Tests of the interface builder, its JSON form and the port list.

use super::*;
use silica_ir::parser::{parse, ParseOptions};

fn context() -> Context {
    let mut ctx = Context::new();
    for d in [
        &silica_dialects::arith::ARITH,
        &silica_dialects::func::FUNC_DIALECT,
        &silica_dialects::memref::MEMREF_DIALECT,
        &silica_affine::AFFINE,
    ] {
        ctx.register_dialect(d);
    }
    ctx
}

/// The interface of the first function of `src`, or the error message.
fn interface_of(src: &str) -> Result<Interface, String> {
    let mut ctx = context();
    let m = parse(&mut ctx, "t.mlir", src.as_bytes(), ParseOptions::default())
        .map_err(|d| d.message.clone())?;
    let module_block =
        m.ir.entry_block(m.ir.regions(m.top).next().unwrap())
            .unwrap();
    let func = m.ir.block_ops(module_block).next().unwrap();
    build(&ctx, &m.ir, func, "ecp5-25k", 20.0).map_err(|d| d.message.clone())
}

const GEMM: &str = r#"
func.func @gemm(%alpha: f32 {hls.name = "alpha"}, %n: index, %A: memref<20x30xf32> {hls.name = "A"},
                %C: memref<20x25xf32> {hls.name = "C"}, %out: memref<7xi33>) -> (i129, index) {
  %c0 = arith.constant 0 : index
  %x = affine.load %A[0, 0] : memref<20x30xf32>
  %y = affine.load %C[0, 0] : memref<20x25xf32>
  affine.store %x, %C[0, 1] : memref<20x25xf32>
  %z = arith.constant 5 : i33
  memref.store %z, %out[%c0] : memref<7xi33>
  %r = arith.constant 1 : i129
  return %r, %n : i129, index
}
"#;

#[test]
fn describes_scalars_memories_and_results() {
    let i = interface_of(GEMM).unwrap();
    assert_eq!(i.top, "gemm");
    assert_eq!(i.interface, "memory");
    let names: Vec<&str> = i.args.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["alpha", "arg1", "A", "C", "arg4"]);
    assert_eq!(
        i.args[0].kind,
        ArgKind::Scalar(Scalar {
            ty: "f32".into(),
            width: 32
        })
    );
    assert_eq!(
        i.args[1].kind,
        ArgKind::Scalar(Scalar {
            ty: "index".into(),
            width: INDEX_WIDTH
        })
    );
    let ArgKind::Memory(c) = &i.args[3].kind else {
        panic!("C is a memory")
    };
    assert_eq!(c.ty, "memref<20x25xf32>");
    assert_eq!(c.shape, [20, 25]);
    assert_eq!((c.words, c.address_width, c.element_width), (500, 9, 32));
    assert_eq!((c.ports, c.read_latency), (1, 1));
    let access: Vec<Access> = i.memories().map(|(_, m)| m.access).collect();
    assert_eq!(access, [Access::Read, Access::ReadWrite, Access::Write]);
    let results: Vec<(&str, &str, u32)> = i
        .results
        .iter()
        .map(|r| (r.name.as_str(), r.ty.as_str(), r.width))
        .collect();
    assert_eq!(
        results,
        [("result0", "i129", 129), ("result1", "index", 64)]
    );
}

#[test]
fn json_has_the_brief_shape_and_reads_back() {
    let i = interface_of(GEMM).unwrap();
    let json = i.to_json();
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value["args"][0]["kind"], "scalar");
    assert_eq!(value["args"][0]["type"], "f32");
    assert_eq!(value["args"][3]["kind"], "memory");
    assert_eq!(value["args"][3]["access"], "read_write");
    assert_eq!(value["args"][3]["address_width"], 9);
    assert_eq!(value["results"][0]["name"], "result0");
    assert_eq!(Interface::from_json(&json).unwrap(), i);
    // A full report carries QoR fields the interface ignores.
    let mut report = value.clone();
    report["latency"] = serde_json::json!({"min": 3, "max": 3});
    assert_eq!(Interface::from_json(&report.to_string()).unwrap(), i);
    assert!(Interface::from_json("{\"top\": 1}").is_err());
}

#[test]
fn ports_follow_the_contract_order() {
    let mut i = interface_of(
        r#"func.func @f(%a: i7, %m: memref<3xi8> {hls.name = "m"}) -> i1 {
             %t = arith.constant true
             return %t : i1
           }"#,
    )
    .unwrap();
    i.memory_mut("m").unwrap().ports = 2;
    let ports: Vec<(String, Direction, u32)> = i
        .ports()
        .into_iter()
        .map(|p| (p.name, p.direction, p.width))
        .collect();
    use Direction::{In, Out};
    let expect: Vec<(&str, Direction, u32)> = vec![
        ("clock", In, 1),
        ("reset", In, 1),
        ("start", In, 1),
        ("done", Out, 1),
        ("idle", Out, 1),
        ("arg0", In, 7),
        ("result0", Out, 1),
        ("m_address0", Out, 2),
        ("m_ce0", Out, 1),
        ("m_we0", Out, 1),
        ("m_d0", Out, 8),
        ("m_q0", In, 8),
        ("m_address1", Out, 2),
        ("m_ce1", Out, 1),
        ("m_we1", Out, 1),
        ("m_d1", Out, 8),
        ("m_q1", In, 8),
    ];
    let expect: Vec<(String, Direction, u32)> = expect
        .into_iter()
        .map(|(n, d, w)| (n.to_string(), d, w))
        .collect();
    assert_eq!(ports, expect);
}

#[test]
fn address_width_is_at_least_one_bit() {
    let widths: Vec<u32> = [1, 2, 3, 4, 5, 500, 512, 513].map(address_width).to_vec();
    assert_eq!(widths, [1, 1, 2, 2, 3, 9, 9, 10]);
}

#[test]
fn access_follows_calls_and_copies() {
    let i = interface_of(
        r#"func.func @top(%a: memref<4xi32>, %b: memref<4xi32>, %c: memref<4xi32>) {
             func.call @reads(%c) : (memref<4xi32>) -> ()
             memref.copy %a, %b : memref<4xi32> to memref<4xi32>
             return
           }
           func.func @reads(%m: memref<4xi32>) {
             %c0 = arith.constant 0 : index
             %x = memref.load %m[%c0] : memref<4xi32>
             return
           }"#,
    )
    .unwrap();
    let access: Vec<Access> = i.memories().map(|(_, m)| m.access).collect();
    assert_eq!(access, [Access::Read, Access::Write, Access::Read]);
}

#[test]
fn rejects_what_cannot_be_a_port() {
    let cases = [
        (
            "func.func @f(%a: memref<?xi32>) { return }",
            "argument 0 ('arg0') has type memref<?xi32>: a memory argument needs a static shape",
        ),
        (
            "func.func @f(%a: memref<4x4xi32, strided<[8, 1]>>) { return }",
            "a memory argument needs the identity layout",
        ),
        (
            "func.func @f(%a: memref<4xi32, 1>) { return }",
            "an external memory must be in the default memory space",
        ),
        (
            "func.func @f(%a: vector<4xi32>) { return }",
            "argument 0 ('arg0') has type vector<4xi32>",
        ),
        (
            "func.func @f(%a: i32 {hls.name = \"a b\"}) { return }",
            "argument 0: 'hls.name' \"a b\" is not a plain identifier",
        ),
        (
            "func.func @f(%a: i32 {hls.name = \"wire\"}) { return }",
            "is a reserved word",
        ),
        (
            "func.func @f(%a: i32 {hls.name = \"done\"}) { return }",
            "two ports are named 'done'",
        ),
        (
            "func.func @f(%a: i32 {hls.name = \"m_ce0\"}, %m: memref<2xi8> {hls.name = \"m\"}) { return }",
            "two ports are named 'm_ce0'",
        ),
        (
            "func.func @f() -> memref<2xi8> { %m = memref.alloc() : memref<2xi8>\n return %m : memref<2xi8> }",
            "result 0 has type memref<2xi8>",
        ),
        ("func.func private @f(%a: i32)", "is a declaration"),
    ];
    for (src, want) in cases {
        let got = interface_of(src).unwrap_err();
        assert!(got.contains(want), "{src}\n  got: {got}\n  want: {want}");
    }
    // The identity map written out is the identity layout.
    assert!(interface_of(
        "func.func @f(%a: memref<4x4xi32, affine_map<(d0, d1) -> (d0, d1)>>) { return }"
    )
    .is_ok());
}
