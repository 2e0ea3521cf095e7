//! Every comb rewrite preserves values: random comb modules (with many
//! constants, so that folds fire) are simulated by `silica sim` on random
//! inputs before and after `--canonicalize` and `--eqsat`, and the traces
//! must agree.

use std::fmt::Write;
use std::process::Command;

/// SplitMix64.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const BINARY: &[&str] = &[
    "add", "sub", "mul", "and", "or", "xor", "shl", "shru", "shrs", "divu", "modu",
];
const PREDICATES: &[&str] = &[
    "eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge",
];

/// A random module over `i8` values with some `i1` conditions.
fn random_module(rng: &mut Rng, ops: usize) -> String {
    let mut body = String::new();
    let mut values: Vec<String> = vec!["%a".into(), "%b".into()];
    let mut conds: Vec<String> = vec!["%c".into()];
    let mut n = 0;
    let mut fresh = || {
        n += 1;
        format!("%v{n}")
    };
    for _ in 0..ops {
        let pick = |rng: &mut Rng, vs: &Vec<String>| vs[rng.below(vs.len())].clone();
        match rng.below(8) {
            0 | 1 => {
                let v = fresh();
                let k = [0u64, 1, 255, rng.next() % 256][rng.below(4)];
                let _ = writeln!(body, "  {v} = hw.constant {k} : i8");
                values.push(v);
            }
            2 => {
                let v = fresh();
                let p = PREDICATES[rng.below(PREDICATES.len())];
                let (x, y) = (pick(rng, &values), pick(rng, &values));
                let _ = writeln!(body, "  {v} = comb.icmp {p} {x}, {y} : i8");
                conds.push(v);
            }
            3 => {
                let v = fresh();
                let (c, x, y) = (pick(rng, &conds), pick(rng, &values), pick(rng, &values));
                let _ = writeln!(body, "  {v} = comb.mux {c}, {x}, {y} : i8");
                values.push(v);
            }
            4 => {
                let (lo, hi) = (fresh(), fresh());
                let x = pick(rng, &values);
                let low = rng.below(5);
                let _ = writeln!(body, "  {lo} = comb.extract {x} from {low} : (i8) -> i4");
                let y = pick(rng, &values);
                let _ = writeln!(body, "  {hi} = comb.extract {y} from 0 : (i8) -> i4");
                let v = fresh();
                let _ = writeln!(body, "  {v} = comb.concat {lo}, {hi} : i4, i4");
                values.push(v);
            }
            _ => {
                let v = fresh();
                let op = BINARY[rng.below(BINARY.len())];
                let (x, mut y) = (pick(rng, &values), pick(rng, &values));
                if matches!(op, "divu" | "modu") {
                    // No division by zero: CIRCT leaves it undefined.
                    let one = fresh();
                    let safe = fresh();
                    let _ = writeln!(body, "  {one} = hw.constant 1 : i8");
                    let _ = writeln!(body, "  {safe} = comb.or {y}, {one} : i8");
                    y = safe;
                }
                let _ = writeln!(body, "  {v} = comb.{op} {x}, {y} : i8");
                values.push(v);
            }
        }
    }
    let outs: Vec<String> = values.iter().rev().take(4).cloned().collect();
    let conds_out: Vec<String> = conds.iter().rev().take(2).cloned().collect();
    let mut ports: Vec<String> = outs
        .iter()
        .enumerate()
        .map(|(i, _)| format!("out o{i}: i8"))
        .collect();
    ports.extend(
        conds_out
            .iter()
            .enumerate()
            .map(|(i, _)| format!("out p{i}: i1")),
    );
    let mut all = outs.clone();
    all.extend(conds_out.iter().cloned());
    let types: Vec<&str> = outs
        .iter()
        .map(|_| "i8")
        .chain(conds_out.iter().map(|_| "i1"))
        .collect();
    format!(
        "hw.module @m(in %a: i8, in %b: i8, in %c: i1, {}) {{\n{body}  hw.output {} : {}\n}}\n",
        ports.join(", "),
        all.join(", "),
        types.join(", ")
    )
}

fn run(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_silica"))
        .args(args)
        .output()
        .expect("silica runs");
    assert!(
        out.status.success(),
        "silica {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

/// Runs `pass` over 40 random modules and checks the simulated traces
/// before and after agree; returns how many lines the pass removed and
/// in how many modules it changed anything.
fn pass_preserves_values(pass: &str, tag: &str) -> (usize, usize) {
    let dir = std::env::temp_dir().join(format!("silica-comb-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let mut rng = Rng(42);
    let mut removed = 0;
    let mut changed = 0;
    for case in 0..40 {
        let text = random_module(&mut rng, 30);
        let before = dir.join(format!("case{case}.mlir"));
        std::fs::write(&before, &text).expect("write module");
        let before = before.to_str().expect("path");
        let rewritten = run(&["opt", pass, before]);
        changed += usize::from(rewritten != run(&["opt", before]));
        let after = dir.join(format!("case{case}.after.mlir"));
        std::fs::write(&after, &rewritten).expect("write module");
        let after = after.to_str().expect("path");
        removed += text
            .lines()
            .count()
            .saturating_sub(rewritten.lines().count());
        let seed = (case + 1).to_string();
        let sim = |file: &str| run(&["sim", file, "--random", "64", "--seed", &seed]);
        assert_eq!(
            sim(before),
            sim(after),
            "case {case}:\n{text}\n--- after {pass}:\n{rewritten}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
    (removed, changed)
}

#[test]
fn canonicalize_preserves_comb_values() {
    let (folded, _) = pass_preserves_values("--canonicalize", "canon");
    assert!(
        folded > 100,
        "the random modules should exercise folds (only {folded} lines folded)"
    );
}

#[test]
fn eqsat_preserves_comb_values() {
    let (_, changed) = pass_preserves_values("--eqsat", "eqsat");
    assert!(
        changed >= 5,
        "eqsat should rewrite some of the random modules (only {changed} changed)"
    );
}
