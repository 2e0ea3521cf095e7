//! Random 2-D stencils for differential fuzzing of the line buffers
//! (`flow/front/line_buffer.rs`): a seeded generator of nests `i`, `j`
//! that read 2 to 7 points of a 5x5 neighbourhood of `A` (and maybe
//! `C[i][j]`), mix them with random arithmetic and store into `B`, with
//! random bounds, element widths, `buffer` on `A`, and `pipeline`/
//! `flatten` attributes.

use std::collections::BTreeSet;
use std::fmt::Write;

/// The function's text, `@k`, for `seed`; none where the random bounds
/// leave no iteration.
pub fn text(seed: u64) -> Option<String> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let (h, w) = (rng.i64(5..=12), rng.i64(5..=12));
    let count = rng.usize(2..=7);
    let mut taps = BTreeSet::new();
    while taps.len() < count {
        taps.insert((rng.i64(-2..=2), rng.i64(-2..=2)));
    }
    let rows = taps.iter().map(|t| t.0);
    let cols = taps.iter().map(|t| t.1);
    let (pmin, pmax) = (rows.clone().min()?, rows.max()?);
    let (qmin, qmax) = (cols.clone().min()?, cols.max()?);
    let lbi = (-pmin).max(0) + rng.i64(0..=1);
    let ubi = h - pmax.max(0) - rng.i64(0..=1);
    let lbj = (-qmin).max(0) + rng.i64(0..=1);
    let ubj = w - qmax.max(0) - rng.i64(0..=1);
    if ubi <= lbi || ubj <= lbj {
        return None;
    }
    let ty = *rng.choice(["i32", "i16", "i8"].iter())?;
    let mem = format!("memref<{h}x{w}x{ty}>");
    let buffer = if rng.u8(0..10) < 3 {
        ", hls.buffer = true"
    } else {
        ""
    };
    let mut t = String::new();
    let _ = writeln!(
        t,
        "func.func @k(%A: {mem} {{hls.name = \"A\"{buffer}}}, %B: {mem} {{hls.name = \"B\"}}, %C: {mem} {{hls.name = \"C\"}}) {{"
    );
    let _ = writeln!(t, "  affine.for %i = {lbi} to {ubi} {{");
    let _ = writeln!(t, "    affine.for %j = {lbj} to {ubj} {{");
    let mut values = Vec::new();
    for (k, (p, q)) in taps.iter().enumerate() {
        let _ = writeln!(
            t,
            "      %t{k} = affine.load %A[%i + {p}, %j + {q}] : {mem}"
        );
        values.push(format!("%t{k}"));
    }
    if rng.bool() {
        let _ = writeln!(t, "      %o = affine.load %C[%i, %j] : {mem}");
        values.push("%o".into());
    }
    let ops = ["arith.addi", "arith.subi", "arith.xori", "arith.muli"];
    let mut acc = values[0].clone();
    for (k, v) in values.iter().enumerate().skip(1) {
        let op = rng.choice(ops.iter())?;
        let _ = writeln!(t, "      %s{k} = {op} {acc}, {v} : {ty}");
        acc = format!("%s{k}");
    }
    let _ = writeln!(t, "      affine.store {acc}, %B[%i, %j] : {mem}");
    let pipeline = if rng.u8(0..10) < 3 {
        " {hls.pipeline = true}"
    } else {
        ""
    };
    let flatten = if rng.u8(0..10) < 3 {
        " {hls.flatten}"
    } else {
        ""
    };
    let _ = writeln!(t, "    }}{pipeline}");
    let _ = writeln!(t, "  }}{flatten}");
    t.push_str("  return\n}\n");
    Some(t)
}
