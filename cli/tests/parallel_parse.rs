//! Buffers of a megabyte and more are parsed on two threads. The result
//! must be what one thread makes of them: the output is diffed against
//! mlir-opt-22's (with and without locations), and an error in either
//! half is reported where it is.

use std::process::Command;

/// Functions per generated module: over a megabyte of text.
const FUNCS: usize = 3000;

/// A module of `FUNCS` functions with loops, memory ops and affine maps;
/// `bad` replaces the constant of that function with an undefined value.
fn module(bad: Option<usize>) -> String {
    let mut text = String::from("#shift = affine_map<(d0) -> (d0 + 3)>\n");
    for f in 0..FUNCS {
        let k = match bad {
            Some(b) if b == f => "%undefined".to_string(),
            _ => "%k".to_string(),
        };
        text.push_str(&format!(
            "func.func @f{f}(%a: i32, %m: memref<64xi32>, %n: index) -> i32 {{\n\
             \x20 %c0 = arith.constant 0 : index\n\
             \x20 %c1 = arith.constant 1 : index\n\
             \x20 %k = arith.constant {f} : i32\n\
             \x20 %r = scf.for %i = %c0 to %n step %c1 iter_args(%s = %a) -> (i32) {{\n\
             \x20   %x = memref.load %m[%i] : memref<64xi32>\n\
             \x20   %y = arith.addi %s, %x : i32\n\
             \x20   scf.yield %y : i32\n\
             \x20 }}\n\
             \x20 %j = affine.apply affine_map<(d0) -> (d0 + {})>(%n)\n\
             \x20 %l = affine.apply #shift(%j)\n\
             \x20 memref.store %a, %m[%l] : memref<64xi32>\n\
             \x20 %z = arith.muli %r, {k} : i32\n\
             \x20 return %z : i32\n\
             }}\n",
            f % 7
        ));
    }
    text
}

/// Runs `tool` on `text` with `args`: (success, stdout, stderr).
fn run(tool: &str, args: &[&str], name: &str, text: &str) -> (bool, String, String) {
    let path = std::env::temp_dir().join(format!("silica-pp-{}-{name}.mlir", std::process::id()));
    std::fs::write(&path, text).expect("write input");
    let out = Command::new(tool)
        .args(args)
        .arg(&path)
        .output()
        .unwrap_or_else(|e| panic!("run {tool}: {e}"));
    std::fs::remove_file(&path).ok();
    let stdout = String::from_utf8_lossy(&out.stdout).replace(&*path.to_string_lossy(), "IN");
    let stderr = String::from_utf8_lossy(&out.stderr).replace(&*path.to_string_lossy(), "IN");
    (out.status.success(), stdout, stderr)
}

#[test]
fn large_module_prints_as_mlir_opt_prints_it() {
    let text = module(None);
    assert!(text.len() > 1 << 20, "{} bytes: too small", text.len());
    for flags in [&[][..], &["--mlir-print-debuginfo"][..]] {
        let ours = run(
            env!("CARGO_BIN_EXE_silica"),
            &[&["opt"], flags].concat(),
            "ok",
            &text,
        );
        let theirs = run("mlir-opt-22", flags, "ok", &text);
        assert!(ours.0 && theirs.0, "{}\n{}", ours.2, theirs.2);
        assert!(
            ours.1 == theirs.1,
            "output differs from mlir-opt-22 with {flags:?}"
        );
    }
}

#[test]
fn errors_in_either_half_are_reported_where_they_are() {
    for bad in [10, FUNCS - 10] {
        let text = module(Some(bad));
        let line = text
            .lines()
            .position(|l| l.contains("%undefined"))
            .expect("the bad line")
            + 1;
        let (ok, _, stderr) = run(env!("CARGO_BIN_EXE_silica"), &["opt"], "bad", &text);
        let (_, _, theirs) = run("mlir-opt-22", &[], "bad", &text);
        assert!(!ok);
        let expected = format!("IN:{line}:23: error: use of undeclared SSA value name");
        assert!(stderr.starts_with(&expected), "{stderr}");
        assert!(theirs.starts_with(&expected), "{theirs}");
    }
}
