//! Damaged bytecode is an error at the byte where it was found, never a
//! panic: every truncation and many single-byte changes of written files
//! are read (and what reads is verified and printed).

use silica_bytecode::{read, write, WriteOptions};
use silica_ir::parser::{parse, ParseOptions};
use silica_ir::printer::{print_module, PrintFlags};
use silica_ir::verify::{verify, VerifyOptions};
use silica_ir::Context;

const MODULE: &str = r#"
module attributes {xx.a = dense<[1, 2]> : tensor<2xi32>, xx.b = dense_resource<blob> : tensor<1xi32>,
                    xx.c = [@a::@b, "s" : i32, 1.5 : f16, array<i64: 3>, distinct[0]<unit>],
                    xx.d = affine_map<(d0) -> (d0 + 1)>, xx.e = #xx.opaque<"x">} {
  "xx.func"() ({
  ^bb0(%a: i32, %b: memref<?x4xf32, strided<[?, 1]>>):
    %0 = "xx.add"(%a, %a) <{p = 1 : i32}> : (i32, i32) -> i32 loc("f.mlir":3:4)
    "xx.loop"(%0) ({
    ^bb1(%i: i32):
      "xx.use"(%i, %0, %a) : (i32, i32, i32) -> ()
      "xx.br"()[^bb2] : () -> ()
    ^bb2:
      "xx.end"() : () -> ()
    }) : (i32) -> ()
    "builtin.module"() ({
      "xx.inner"() : () -> (tuple<i1, vector<[4]xf32>>) loc(fused["g.mlir":1:2, "n"])
    }) : () -> ()
  }) {sym_name = "f"} : () -> ()
}
{-#
  dialect_resources: { builtin: { blob: "0x0400000007000000" } },
  external_resources: { ext: { k: true, s: "text", b: "0x0800000001020304" } }
#-}
"#;

fn context() -> Context {
    let mut ctx = Context::new();
    ctx.allow_unregistered = true;
    ctx
}

/// The module written at every version.
fn files() -> Vec<Vec<u8>> {
    let mut ctx = context();
    let m = parse(
        &mut ctx,
        "damaged.mlir",
        MODULE.as_bytes(),
        ParseOptions::default(),
    )
    .expect("the module parses");
    (0..=6)
        .map(|version| {
            let opts = WriteOptions {
                version,
                ..Default::default()
            };
            write(&mut ctx, &m.ir, m.top, &m.resources, &opts).expect("the module writes")
        })
        .collect()
}

/// Reads `bytes`; what reads is verified and printed. Returns the error
/// message, if any.
fn read_all(bytes: &[u8]) -> Option<String> {
    let mut ctx = context();
    match read(&mut ctx, "damaged.mlirbc", bytes) {
        Ok(m) => {
            let opts = VerifyOptions::default();
            if verify(&mut ctx, &m.ir, m.top, opts).is_ok() {
                print_module(&ctx, &m.ir, m.top, &m.resources, PrintFlags::default());
            }
            None
        }
        Err(d) => Some(d.message),
    }
}

#[test]
fn written_files_read_back_to_the_same_module() {
    let mut ctx = context();
    let m = parse(
        &mut ctx,
        "damaged.mlir",
        MODULE.as_bytes(),
        ParseOptions::default(),
    )
    .unwrap();
    let flags = PrintFlags {
        debug_info: true,
        ..Default::default()
    };
    let text = print_module(&ctx, &m.ir, m.top, &m.resources, flags);
    for (version, bytes) in files().iter().enumerate() {
        let mut again = context();
        let back = read(&mut again, "damaged.mlirbc", bytes).unwrap();
        let printed = print_module(&again, &back.ir, back.top, &back.resources, flags);
        if version >= 5 {
            assert_eq!(printed, text, "version {version}");
        }
    }
}

#[test]
fn every_truncation_is_an_error_at_a_byte() {
    for bytes in files() {
        for n in 0..bytes.len() {
            let message = read_all(&bytes[..n]).unwrap_or_default();
            assert!(
                message.contains("(at byte "),
                "truncated to {n} bytes: {message:?}"
            );
        }
    }
}

#[test]
fn changed_bytes_never_panic() {
    // Version 6, and version 1 (dialect versions, no lazy regions, no
    // use-list orders, no properties section).
    let files = files();
    for bytes in [&files[6], &files[1]] {
        for i in 4..bytes.len() {
            for change in [0x01u8, 0x80, 0xff] {
                let mut damaged = bytes.clone();
                damaged[i] ^= change;
                let _ = read_all(&damaged);
            }
            let mut damaged = bytes.clone();
            damaged[i] = 0;
            let _ = read_all(&damaged);
        }
    }
}

#[test]
fn damage_is_named() {
    let bytes = files().pop().unwrap();
    let mut newer = bytes.clone();
    newer[4] = (7 << 1) | 1;
    let message = read_all(&newer).unwrap();
    assert!(
        message.starts_with("bytecode version 7 is newer than the current version 6"),
        "{message}"
    );

    let message = read_all(b"ML\xefS").unwrap();
    assert!(
        message.starts_with("input buffer is not an MLIR bytecode file"),
        "{message}"
    );

    // A section id past the last one.
    let header = 4 + 1 + bytes[5..].iter().position(|&b| b == 0).unwrap() + 1;
    let mut bad_section = bytes.clone();
    bad_section[header] = 0x1f;
    let message = read_all(&bad_section).unwrap();
    assert!(message.starts_with("invalid section ID: 31"), "{message}");

    // A section longer than what is left of the file.
    let message = read_all(&bytes[..header + 3]).unwrap();
    assert!(message.contains("remain"), "{message}");
}
