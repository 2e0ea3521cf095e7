//! Every registered op, written in generic form with operands, results and
//! regions its definition does not expect, is rejected with a diagnostic
//! or accepted and printed: never a crash of a custom printer or verifier.

use silica_ir::Context;
use std::process::Command;

fn registered_ops() -> Vec<&'static str> {
    let mut ctx = Context::new();
    silica_cli::register_dialects(&mut ctx);
    ctx.registered_ops()
}

/// Generic forms of `op` that its syntax does not expect.
fn odd_forms(op: &str) -> Vec<String> {
    vec![
        format!("\"{op}\"() : () -> ()"),
        format!("%0 = \"{op}\"() : () -> i32"),
        format!("\"{op}\"() ({{}}) : () -> ()"),
        format!("\"{op}\"() ({{^bb0:}}, {{^bb0:}}) : () -> ()"),
        format!(
            "\"test.f\"() ({{\n^bb0(%a: index, %m: memref<4xf32>):\n  %0:2 = \"{op}\"(%a, %m, %a) : (index, memref<4xf32>, index) -> (index, i1)\n}}) : () -> ()"
        ),
    ]
}

#[test]
fn odd_generic_forms_never_crash() {
    let dir = std::env::temp_dir().join(format!("silica-odd-ops-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let ops = registered_ops();
    assert!(ops.len() > 150, "only {} ops registered", ops.len());
    let mut crashes = Vec::new();
    for op in ops {
        // The forms of one op in one file, each chunk parsed on its own.
        let text = odd_forms(op).join("\n// -----\n");
        let path = dir.join(format!("{}.mlir", op.replace('.', "_")));
        std::fs::write(&path, &text).expect("write input");
        let out = Command::new(env!("CARGO_BIN_EXE_silica"))
            .args(["opt", "--allow-unregistered-dialect", "--split-input-file"])
            .arg(&path)
            .output()
            .expect("run silica");
        let code = out.status.code();
        let stderr = String::from_utf8_lossy(&out.stderr);
        let ok = code == Some(0) || (code == Some(1) && stderr.contains("error:"));
        if !ok {
            crashes.push(format!("{text}\n  -> {code:?}: {stderr}"));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(crashes.is_empty(), "crashes:\n{}", crashes.join("\n"));
}
