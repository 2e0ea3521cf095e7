//! Times reading and writing a module as bytecode against parsing and
//! printing it as text, in process: `cargo run --release -p
//! silica-bytecode --example speed FILE` (ops of unregistered dialects
//! only; `bench/bytecode_bench.py` measures the `silica` binary).

use silica_ir::parser::{parse, ParseOptions};
use silica_ir::printer::{print_module_to, PrintFlags};
use silica_ir::Context;
use std::time::Instant;

fn best(runs: usize, mut f: impl FnMut()) -> f64 {
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

fn main() {
    let path = std::env::args()
        .nth(1)
        .expect("usage: speed FILE [read|write|parse|print [TIMES]]");
    let only = std::env::args().nth(2);
    let times: usize = std::env::args()
        .nth(3)
        .map_or(20, |n| n.parse().expect("a count"));
    let text = std::fs::read(&path).expect("readable file");
    let context = || {
        let mut ctx = Context::new();
        ctx.allow_unregistered = true;
        ctx
    };
    let mut ctx = context();
    let m = parse(&mut ctx, &path, &text, ParseOptions::default()).expect("parses");
    let bytes = silica_bytecode::write(&mut ctx, &m.ir, m.top, &m.resources, &Default::default())
        .expect("writes");
    let runs = 5;
    if let Some(only) = only {
        // One direction, many times: for profiling.
        for _ in 0..times {
            match only.as_str() {
                "read" => {
                    let mut c = context();
                    std::mem::forget(silica_bytecode::read(&mut c, &path, &bytes).unwrap());
                    std::mem::forget(c);
                }
                "parse" => {
                    let mut c = context();
                    std::mem::forget(parse(&mut c, &path, &text, ParseOptions::default()).unwrap());
                    std::mem::forget(c);
                }
                "print" => {
                    let flags = PrintFlags::default();
                    let mut out = std::io::sink();
                    print_module_to(&ctx, &m.ir, m.top, &m.resources, flags, &mut out).unwrap();
                }
                _ => {
                    let opts = Default::default();
                    silica_bytecode::write(&mut ctx, &m.ir, m.top, &m.resources, &opts).unwrap();
                }
            }
        }
        return;
    }
    let parse_s = best(runs, || {
        let mut c = context();
        std::mem::forget(parse(&mut c, &path, &text, ParseOptions::default()).unwrap());
        std::mem::forget(c);
    });
    let read_s = best(runs, || {
        let mut c = context();
        std::mem::forget(silica_bytecode::read(&mut c, &path, &bytes).unwrap());
        std::mem::forget(c);
    });
    let print_s = best(runs, || {
        let mut out = std::io::sink();
        print_module_to(
            &ctx,
            &m.ir,
            m.top,
            &m.resources,
            PrintFlags::default(),
            &mut out,
        )
        .unwrap();
    });
    let write_s = best(runs, || {
        silica_bytecode::write(&mut ctx, &m.ir, m.top, &m.resources, &Default::default()).unwrap();
    });
    println!(
        "parse {parse_s:.4} s, read {read_s:.4} s: {:.2}x",
        parse_s / read_s
    );
    println!(
        "print {print_s:.4} s, write {write_s:.4} s: {:.2}x",
        print_s / write_s
    );
}
