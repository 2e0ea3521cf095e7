//! Malformed input gives a diagnostic, never a panic: byte sequences that
//! are not UTF-8 inside tokens, and nesting deeper than the parser allows.

use silica_ir::parser::{parse, ParseOptions};
use silica_ir::Context;

fn parse_bytes(src: &[u8]) -> bool {
    let mut ctx = Context::new();
    ctx.allow_unregistered = true;
    parse(&mut ctx, "bad.mlir", src, ParseOptions::default()).is_ok()
}

#[test]
fn invalid_utf8_in_tokens_is_diagnosed() {
    let cases: &[&[u8]] = &[
        b"\"foo.op\"() : () -> () loc(\"\xff\":1:2)",
        b"\"foo.op\"() {a = \"\xfe\xff\"} : () -> ()",
        b"\"foo.op\"() {a = @\"\xff\"} : () -> ()",
        b"\"\xff.op\"() : () -> ()",
        b"\"foo.op\"() {a = @\"\xff\"::@b} : () -> () loc(\xff",
        b"#a = \"\xc3",
        b"!t = !tensor<2x\xff32>",
        b"#a = #foo<\xff>",
        b"\"foo.op\"() {a = #ud.} : () -> ()",
        b"!t = !ud.",
    ];
    for src in cases {
        // Whatever the verdict, it must come back as a value.
        let _ = parse_bytes(src);
    }
    assert!(parse_bytes(b"\"foo.op\"() {a = \"\xff\"} : () -> ()"));
}

#[test]
fn deep_nesting_is_diagnosed() {
    for (open, close) in [
        ("[", "]"),
        ("tuple<", ">"),
        ("\"foo.r\"() ({", "}) : () -> ()"),
    ] {
        let depth = 100_000;
        let src = format!(
            "\"foo.op\"() {{a = {}{}}} : () -> ()",
            open.repeat(depth),
            close.repeat(depth)
        );
        assert!(!parse_bytes(src.as_bytes()));
    }
}
