//! Large modules are verified on two threads. Whatever the halves find,
//! the error reported is the first in op order, as one thread would
//! report it; an op whose check must intern (memref reshapes) is checked
//! again with the context to itself.

use std::process::Command;

/// Functions in each generated module: enough ops for two threads.
const FUNCS: usize = 3000;

/// A valid reshape whose verifier interns its expected type.
const EXPAND: &str = "  %e = memref.expand_shape %m [[0, 1]] output_shape [2, 32] : memref<64xi32> into memref<2x32xi32>";
/// The same reshape with a result layout the verifier rejects.
const BAD_EXPAND: &str = "  %e = memref.expand_shape %m [[0, 1]] output_shape [2, 32] : memref<64xi32> into memref<2x32xi32, strided<[32, 1], offset: 1>>";
/// A cast the verifier rejects.
const BAD_CAST: &str = "  %t = arith.trunci %a : i32 to i64";

/// A module of `FUNCS` functions of a few ops; `extra` puts a line
/// before the return of the given functions. Returns the text and the
/// line of each extra line.
fn module(extra: &[(usize, &str)]) -> (String, Vec<usize>) {
    let mut text = String::new();
    let mut lines = vec![0; extra.len()];
    let mut line = 0;
    let mut push = |text: &mut String, s: &str| {
        text.push_str(s);
        text.push('\n');
        line += 1;
        line
    };
    for f in 0..FUNCS {
        push(
            &mut text,
            &format!("func.func @f{f}(%a: i32, %b: i32, %m: memref<64xi32>) -> i32 {{"),
        );
        for k in 0..6 {
            push(&mut text, &format!("  %v{k} = arith.addi %a, %b : i32"));
        }
        for (i, (at, s)) in extra.iter().enumerate() {
            if *at == f {
                lines[i] = push(&mut text, s);
            }
        }
        push(&mut text, "  return %v5 : i32");
        push(&mut text, "}");
    }
    (text, lines)
}

/// Runs `silica opt` on `text`: (success, stderr).
fn opt(name: &str, text: &str) -> (bool, String) {
    let path = std::env::temp_dir().join(format!("silica-pv-{}-{name}.mlir", std::process::id()));
    std::fs::write(&path, text).expect("write input");
    let out = Command::new(env!("CARGO_BIN_EXE_silica"))
        .args(["opt", "-o", "/dev/null"])
        .arg(&path)
        .output()
        .expect("run silica");
    std::fs::remove_file(&path).ok();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn first_error_line(stderr: &str) -> usize {
    let first = stderr.lines().next().unwrap_or("");
    let mut parts = first.split(':');
    parts.nth(1).and_then(|l| l.parse().ok()).unwrap_or(0)
}

#[test]
fn valid_reshapes_in_either_half_verify() {
    let (text, _) = module(&[(10, EXPAND), (FUNCS - 10, EXPAND)]);
    let (ok, stderr) = opt("valid", &text);
    assert!(ok, "{stderr}");
}

#[test]
fn first_error_in_op_order_is_reported() {
    // (name, extra lines, which extra line the error is at)
    type Case = (&'static str, Vec<(usize, &'static str)>, usize);
    let cases: [Case; 4] = [
        ("second-half", vec![(FUNCS * 3 / 4, BAD_CAST)], 0),
        (
            "both-halves",
            vec![(100, BAD_CAST), (FUNCS - 100, BAD_CAST)],
            0,
        ),
        // The first half stops at the reshape and goes on on one thread.
        (
            "after-reshape",
            vec![(100, EXPAND), (FUNCS - 100, BAD_CAST)],
            1,
        ),
        (
            "bad-reshape",
            vec![(FUNCS / 2 + 10, BAD_EXPAND), (FUNCS - 100, BAD_CAST)],
            0,
        ),
    ];
    for (name, extra, expected) in cases {
        let (text, lines) = module(&extra);
        let (ok, stderr) = opt(name, &text);
        assert!(!ok, "{name}: accepted");
        assert_eq!(
            first_error_line(&stderr),
            lines[expected],
            "{name}: {stderr}"
        );
        let message = if extra[expected].1 == BAD_CAST {
            "'arith.trunci' op operand type 'i32' and result type 'i64' are cast incompatible"
        } else {
            "'memref.expand_shape' op expected expanded type to be 'memref<2x32xi32>'"
        };
        assert!(stderr.contains(message), "{name}: {stderr}");
    }
}
