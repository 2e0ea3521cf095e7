//! Property test: for generated modules covering every builtin type and
//! attribute kind (and every location kind), print → parse → print is a
//! fixed point, in the custom and the generic form, with and without
//! locations.

use proptest::prelude::*;
use silica_ir::parser::{parse, ParseOptions};
use silica_ir::printer::{print_module, PrintFlags};
use silica_ir::Context;

const FLOATS: &[&str] = &[
    "f16",
    "bf16",
    "f32",
    "f64",
    "f80",
    "f128",
    "tf32",
    "f8E5M2",
    "f8E4M3",
    "f8E4M3FN",
    "f8E5M2FNUZ",
    "f8E4M3FNUZ",
    "f8E4M3B11FNUZ",
    "f8E3M4",
    "f8E8M0FNU",
    "f6E2M3FN",
    "f6E3M2FN",
    "f4E2M1FN",
];

fn int_type() -> impl Strategy<Value = String> {
    (prop::sample::select(vec!["i", "si", "ui"]), 1u32..130).prop_map(|(p, w)| format!("{p}{w}"))
}

fn float_type() -> impl Strategy<Value = String> {
    prop::sample::select(FLOATS).prop_map(str::to_string)
}

fn scalar_type() -> impl Strategy<Value = String> {
    prop_oneof![int_type(), float_type(), Just("index".to_string())]
}

fn dims(dynamic: bool) -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![3 => (1i64..9).prop_map(|d| d.to_string()), 1 => Just("?".to_string())],
        0..3,
    )
    .prop_map(move |ds| {
        ds.into_iter()
            .map(|d| {
                if d == "?" && !dynamic {
                    "2".to_string()
                } else {
                    d
                }
            })
            .map(|d| format!("{d}x"))
            .collect()
    })
}

fn memory_space() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        (1u32..4).prop_map(|n| format!(", {n}")),
        Just(", \"gpu\"".to_string()),
    ]
}

fn any_type() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        scalar_type(),
        Just("none".to_string()),
        scalar_type()
            .prop_map(|t| format!("complex<{}>", if t == "index" { "f32".into() } else { t })),
        (dims(false), any::<bool>(), scalar_type()).prop_map(|(d, scalable, e)| {
            let e = if e == "index" { "f32".to_string() } else { e };
            if scalable {
                format!("vector<[4]x{d}{e}>")
            } else {
                format!("vector<4x{d}{e}>")
            }
        }),
        (dims(true), scalar_type()).prop_map(|(d, e)| format!("tensor<{d}{e}>")),
        scalar_type().prop_map(|e| format!("tensor<*x{e}>")),
        (dims(true), scalar_type(), memory_space())
            .prop_map(|(d, e, m)| format!("memref<{d}{e}{m}>")),
        (scalar_type(), memory_space()).prop_map(|(e, m)| format!("memref<*x{e}{m}>")),
        Just("memref<4x4xf32, strided<[4, 1], offset: ?>>".to_string()),
        Just("memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>".to_string()),
        Just("!foo.bar<\"x\", [1, 2]>".to_string()),
        Just("!foo<baz>".to_string()),
    ];
    leaf.prop_recursive(2, 8, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3)
                .prop_map(|ts| format!("tuple<{}>", ts.join(", "))),
            (
                prop::collection::vec(inner.clone(), 0..3),
                prop::collection::vec(inner, 0..2)
            )
                .prop_map(|(i, o)| format!("({}) -> ({})", i.join(", "), o.join(", "))),
        ]
    })
}

fn affine_expr() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just("d0".to_string()),
        Just("d1".to_string()),
        Just("s0".to_string()),
        (-5i64..6).prop_map(|c| c.to_string()),
    ];
    leaf.prop_recursive(3, 12, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a} + {b})")),
            (inner.clone(), -4i64..5).prop_map(|(a, c)| format!("({a} * {c})")),
            (inner.clone(), 1i64..5).prop_map(|(a, c)| format!("({a} floordiv {c})")),
            (inner.clone(), 1i64..5).prop_map(|(a, c)| format!("({a} ceildiv {c})")),
            (inner, 1i64..5).prop_map(|(a, c)| format!("({a} mod {c})")),
        ]
    })
}

fn scalar_attr() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("unit".to_string()),
        any::<bool>().prop_map(|b| b.to_string()),
        (
            any::<i32>(),
            prop::sample::select(vec!["i32", "i64", "si32", "index"])
        )
            .prop_map(|(v, t)| format!("{v} : {t}")),
        (any::<u16>(), prop::sample::select(vec!["ui16", "i17"]))
            .prop_map(|(v, t)| format!("{v} : {t}")),
        Just("123456789012345678901234567890 : i128".to_string()),
        any::<u32>().prop_map(|bits| format!("0x{bits:08X} : f32")),
        any::<u64>().prop_map(|bits| format!("0x{bits:016X} : f64")),
        any::<u16>().prop_map(|bits| format!("0x{bits:04X} : bf16")),
        (-1000.0f64..1000.0).prop_map(|f| format!("{f:e} : f64")),
        "[a-z \\\\\"\\n\\t]{0,8}".prop_map(|s| format!("{s:?}")),
        any_type(),
        Just("@sym".to_string()),
        Just("@outer::@inner".to_string()),
        (affine_expr(), affine_expr())
            .prop_map(|(a, b)| format!("affine_map<(d0, d1)[s0] -> ({a}, {b})>")),
        affine_expr().prop_map(|a| format!("affine_set<(d0, d1)[s0] : ({a} >= 0, d0 - s0 == 0)>")),
        prop::collection::vec(any::<i16>(), 0..4).prop_map(|v| format!(
            "array<i16{}{}>",
            if v.is_empty() { "" } else { ": " },
            v.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )),
        prop::collection::vec(-9i32..10, 1..5).prop_map(|v| format!(
            "dense<[{}]> : tensor<{}xi32>",
            v.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(", "),
            v.len()
        )),
        any::<i8>().prop_map(|v| format!("dense<{v}> : vector<2x3xi8>")),
        Just("dense<[[1.5, -2.0], [0.0, 3.25]]> : tensor<2x2xf32>".to_string()),
        Just("dense<(1.0,2.0)> : tensor<2xcomplex<f32>>".to_string()),
        Just("dense<\"0x0100000002000000\"> : tensor<2xi32>".to_string()),
        Just("dense<[\"a\", \"bc\"]> : tensor<2x!foo.str>".to_string()),
        Just("sparse<[[0, 1]], [5]> : tensor<2x2xi32>".to_string()),
        Just("dense_resource<blob1> : tensor<2xi32>".to_string()),
        Just("strided<[?, 1], offset: 4>".to_string()),
        Just("#foo.attr<[1, {a}]>".to_string()),
        Just("#foo<\"opaque\"> : i32".to_string()),
        Just("distinct[0]<42 : i32>".to_string()),
    ]
}

fn any_attr() -> impl Strategy<Value = String> {
    scalar_attr().prop_recursive(2, 10, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(|v| format!("[{}]", v.join(", "))),
            prop::collection::vec(("[a-c]{1,2}", inner), 0..3).prop_map(|v| {
                let mut seen = std::collections::BTreeMap::new();
                for (k, a) in v {
                    seen.insert(k, a);
                }
                let body: Vec<String> = seen
                    .into_iter()
                    .map(|(k, a)| format!("{k} = {a}"))
                    .collect();
                format!("{{{}}}", body.join(", "))
            }),
        ]
    })
}

fn location() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just("unknown".to_string()),
        (1u32..50, 1u32..80).prop_map(|(l, c)| format!("\"a.mlir\":{l}:{c}")),
        (1u32..50, 1u32..80).prop_map(|(l, c)| format!("\"a.mlir\":{l}:{c} to :{}", c + 3)),
        Just("\"named\"".to_string()),
    ];
    leaf.prop_recursive(2, 6, 2, |inner| {
        prop_oneof![
            inner.clone().prop_map(|l| format!("\"name\"({l})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("callsite({a} at {b})")),
            prop::collection::vec(inner, 1..3)
                .prop_map(|v| format!("fused<\"m\">[{}]", v.join(", "))),
        ]
    })
}

fn module() -> impl Strategy<Value = String> {
    let op = (
        prop::collection::vec(any_attr(), 0..4),
        prop::collection::vec(any_type(), 0..3),
        location(),
    )
        .prop_map(|(attrs, types, loc)| {
            let attrs: Vec<String> = attrs
                .iter()
                .enumerate()
                .map(|(i, a)| format!("a{i} = {a}"))
                .collect();
            let results = if types.is_empty() {
                String::new()
            } else {
                format!("%r:{} = ", types.len())
            };
            format!(
                "  {results}\"test.op\"() {{{}}} : () -> ({}) loc({loc})\n",
                attrs.join(", "),
                types.join(", ")
            )
        });
    prop::collection::vec(op, 1..4).prop_map(|ops| {
        let body: Vec<String> = ops
            .into_iter()
            .enumerate()
            .map(|(i, op)| op.replace("%r:", &format!("%r{i}:")))
            .collect();
        format!(
            "module {{\n{}}}\n{{-#\n  dialect_resources: {{\n    builtin: {{\n      blob1: \"0x040000000100000002000000\"\n    }}\n  }}\n#-}}\n",
            body.concat()
        )
    })
}

fn print(text: &str, flags: PrintFlags) -> Result<String, String> {
    let mut ctx = Context::new();
    ctx.allow_unregistered = true;
    let m = parse(
        &mut ctx,
        "gen.mlir",
        text.as_bytes(),
        ParseOptions::default(),
    )
    .map_err(|d| d.message.clone())?;
    Ok(print_module(&ctx, &m.ir, m.top, &m.resources, flags))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn print_parse_print_is_a_fixed_point(src in module()) {
        // Generated text may be invalid (e.g. a dense literal that does not
        // fit its type); only modules that parse are considered.
        let Ok(first) = print(&src, PrintFlags::default()) else { return Ok(()); };
        for generic in [false, true] {
            for debug_info in [false, true] {
                let flags = PrintFlags { generic, debug_info, skip_regions: false };
                let once = print(&first, flags).map_err(|e| TestCaseError::fail(format!("{e}\n{first}")))?;
                let twice = print(&once, flags).map_err(|e| TestCaseError::fail(format!("{e}\n{once}")))?;
                prop_assert_eq!(&once, &twice, "flags {:?}", flags);
            }
        }
    }
}

#[test]
fn generated_modules_mostly_parse() {
    // Guards the property above against vacuity: most generated modules
    // must be valid.
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strategy = module();
    let mut ok = 0;
    for _ in 0..200 {
        let src = strategy.new_tree(&mut runner).expect("tree").current();
        if print(&src, PrintFlags::default()).is_ok() {
            ok += 1;
        }
    }
    assert!(ok >= 150, "only {ok} of 200 generated modules parse");
}
