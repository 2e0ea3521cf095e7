//! Random control flow between blocks for differential fuzzing of the
//! lifting of `cf` (`flow/front/structure.rs`, `state_machine.rs`): a
//! seeded generator of functions of 2 to 7 blocks, each of which loads
//! an element at an address its data computes, mixes it into two
//! carried values, maybe stores one, and branches to any block (often
//! making the graph irreducible) or leaves; a fuel counter carried on
//! every edge ends every run.

use std::fmt::Write;

/// The function's text, `@k`, for `seed`.
pub fn text(seed: u64) -> String {
    let mut rng = fastrand::Rng::with_seed(seed);
    let blocks = rng.usize(2..=7);
    let mut t = String::new();
    t.push_str(concat!(
        "func.func @k(%a: memref<8xi32>, %o: memref<8xi32>, %fuel0: i32) -> i32 {\n",
        "  %c0 = arith.constant 0 : i32\n",
        "  %c1 = arith.constant 1 : i32\n",
        "  %c7 = arith.constant 7 : i32\n",
        "  %c40 = arith.constant 40 : i32\n",
        "  %f0 = arith.andi %fuel0, %c7 : i32\n",
        "  %fuel = arith.addi %f0, %c40 : i32\n",
        "  cf.br ^b1(%fuel, %c1, %c7 : i32, i32, i32)\n",
    ));
    let ops = ["arith.addi", "arith.subi", "arith.xori", "arith.muli"];
    for b in 1..=blocks {
        let p = format!("v{b}");
        let _ = writeln!(t, "^b{b}(%f{b}: i32, %x{b}: i32, %y{b}: i32):");
        let _ = writeln!(t, "  %{p}i = arith.andi %x{b}, %c7 : i32");
        let _ = writeln!(t, "  %{p}ix = arith.index_cast %{p}i : i32 to index");
        let _ = writeln!(t, "  %{p}l = memref.load %a[%{p}ix] : memref<8xi32>");
        let _ = writeln!(
            t,
            "  %{p}x = {} %x{b}, %{p}l : i32",
            rng.choice(ops).unwrap_or("arith.addi")
        );
        let _ = writeln!(
            t,
            "  %{p}y = {} %y{b}, %{p}x : i32",
            rng.choice(ops).unwrap_or("arith.addi")
        );
        if rng.bool() {
            let _ = writeln!(t, "  %{p}j = arith.andi %y{b}, %c7 : i32");
            let _ = writeln!(t, "  %{p}jx = arith.index_cast %{p}j : i32 to index");
            let _ = writeln!(t, "  memref.store %{p}x, %o[%{p}jx] : memref<8xi32>");
        }
        let _ = writeln!(t, "  %{p}f = arith.subi %f{b}, %c1 : i32");
        let _ = writeln!(t, "  %{p}done = arith.cmpi sle, %{p}f, %c0 : i32");
        let _ = writeln!(t, "  cf.cond_br %{p}done, ^exit(%{p}x : i32), ^d{b}");
        let _ = writeln!(t, "^d{b}:");
        let (t1, t2) = (rng.usize(1..=blocks), rng.usize(1..=blocks));
        let args = format!("(%{p}f, %{p}x, %{p}y : i32, i32, i32)");
        let swapped = format!("(%{p}f, %{p}y, %{p}x : i32, i32, i32)");
        match rng.u32(0..20) {
            0..=4 => {
                let _ = writeln!(t, "  cf.br ^b{t1}{args}");
            }
            5..=6 => {
                let _ = writeln!(t, "  %{p}e = arith.cmpi sgt, %{p}y, %{p}x : i32");
                let _ = writeln!(t, "  cf.cond_br %{p}e, ^exit(%{p}y : i32), ^b{t1}{args}");
            }
            _ => {
                let _ = writeln!(t, "  %{p}m = arith.andi %{p}y, %c1 : i32");
                let _ = writeln!(t, "  %{p}c = arith.cmpi eq, %{p}m, %c0 : i32");
                let _ = writeln!(t, "  cf.cond_br %{p}c, ^b{t1}{args}, ^b{t2}{swapped}");
            }
        }
    }
    t.push_str("^exit(%r: i32):\n  return %r : i32\n}\n");
    t
}
