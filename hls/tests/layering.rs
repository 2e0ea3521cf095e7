//! The stage order of `silica-hls`, checked: every path a module names
//! (`crate::...`, `super::...`, grouped `use` trees included) may lead
//! only to its own unit or to one earlier in the order
//!
//! ```text
//! float → model → flow (front → analysis → schedule → rewrite →
//! construct → estimate → fit → report → the flow's driver) → wrappers →
//! verification → fpga → the crate root
//! ```
//!
//! Test code (`#[cfg(test)]` items and the files they declare) may drive
//! the whole flow and is not checked.

use std::path::{Path, PathBuf};

/// The units in order; a path `a::b` belongs to the longest entry it
/// starts with.
const ORDER: [&str; 14] = [
    "float",
    "model",
    "flow::front",
    "flow::analysis",
    "flow::schedule",
    "flow::rewrite",
    "flow::construct",
    "flow::estimate",
    "flow::fit",
    "flow::report",
    "flow",
    "wrappers",
    "verification",
    "fpga",
];

/// The rank of the unit module path `segments` belongs to; the crate
/// root (its items and `lib.rs`) comes last.
fn rank(segments: &[String]) -> usize {
    let joined = segments.join("::");
    ORDER
        .iter()
        .enumerate()
        .filter(|(_, u)| joined == **u || joined.starts_with(&format!("{u}::")))
        .max_by_key(|(_, u)| u.len())
        .map_or(ORDER.len(), |(i, _)| i)
}

/// The module path of a source file (`flow/construct/mod.rs` is
/// `flow::construct`).
fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap_or_default();
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" && stem != "lib" {
        parts.push(stem.to_string());
    }
    parts
}

/// `text` without comments, string and character literals (their
/// contents blanked, lines kept).
fn code_of(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        let rest = &text[i..];
        if rest.starts_with("//") {
            let end = rest.find('\n').unwrap_or(rest.len());
            i += end;
        } else if rest.starts_with("/*") {
            let end = rest.find("*/").map_or(rest.len(), |e| e + 2);
            out.extend(rest[..end].chars().filter(|&c| c == '\n'));
            i += end;
        } else if rest.starts_with("r#\"") || rest.starts_with("r\"") {
            let hashes = rest[1..].chars().take_while(|&c| c == '#').count();
            let close = format!("\"{}", "#".repeat(hashes));
            let body = 2 + hashes;
            let end = rest[body..]
                .find(&close)
                .map_or(rest.len(), |e| body + e + close.len());
            out.extend(rest[..end].chars().filter(|&c| c == '\n'));
            out.push_str("\"\"");
            i += end;
        } else if b[i] == b'"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            out.extend(text[i..j.min(b.len())].chars().filter(|&c| c == '\n'));
            out.push_str("\"\"");
            i = j + 1;
        } else if b[i] == b'\''
            && rest.len() > 2
            && (rest.as_bytes()[2] == b'\'' || rest.starts_with("'\\"))
        {
            // A character literal ('a', '\n', '\''), not a lifetime.
            let end = rest[2..].find('\'').map_or(rest.len(), |e| e + 3);
            out.push_str("' '");
            i += end;
        } else {
            let c = rest.chars().next().unwrap_or(' ');
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// `code` with every `#[cfg(test)]` item blanked (lines kept), and the
/// names of the modules declared as `#[cfg(test)] mod name;`.
fn without_tests(code: &str) -> (String, Vec<String>) {
    let mut out = code.to_string();
    let mut test_files = Vec::new();
    let mut from = 0;
    while let Some(at) = out[from..].find("#[cfg(test)]").map(|p| p + from) {
        let after = at + "#[cfg(test)]".len();
        let item = out[after..].trim_start();
        let start = out.len() - item.len();
        let end = match (item.find(';'), item.find('{')) {
            (Some(semi), brace) if brace.is_none_or(|b| semi < b) => {
                if let Some(name) = item[..semi].trim().strip_prefix("mod ") {
                    test_files.push(name.trim().to_string());
                }
                start + semi + 1
            }
            (_, Some(brace)) => {
                let mut depth = 0;
                let mut end = out.len();
                for (k, c) in out[start + brace..].char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                end = start + brace + k + 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                end
            }
            _ => out.len(),
        };
        let blank: String = out[at..end]
            .chars()
            .map(|c| if c == '\n' { '\n' } else { ' ' })
            .collect();
        out.replace_range(at..end, &blank);
        from = end;
    }
    (out, test_files)
}

/// Reads an identifier at the start of `s`.
fn ident(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// The paths a `use` tree or path starting at `s` (after `prefix::`)
/// names, as segment lists (a group expanded; globs and `self` end a
/// path).
fn paths_at(s: &str, prefix: Vec<String>, out: &mut Vec<Vec<String>>) -> usize {
    let mut i = 0;
    let mut path = prefix;
    loop {
        let rest = &s[i..];
        let trimmed = rest.trim_start();
        i += rest.len() - trimmed.len();
        if trimmed.starts_with('{') {
            i += 1;
            loop {
                let rest = &s[i..];
                let trimmed = rest.trim_start();
                i += rest.len() - trimmed.len();
                if trimmed.starts_with('}') {
                    return i + 1;
                }
                if trimmed.starts_with(',') {
                    i += 1;
                    continue;
                }
                if trimmed.is_empty() {
                    return i;
                }
                i += paths_at(&s[i..], path.clone(), out);
            }
        }
        let name = ident(trimmed);
        if name.is_empty() {
            out.push(path);
            return i + usize::from(trimmed.starts_with('*'));
        }
        i += name.len();
        if name != "self" {
            path.push(name.to_string());
        }
        if s[i..].starts_with("::") {
            i += 2;
        } else {
            out.push(path);
            return i;
        }
    }
}

/// Every path `code` names from the crate root, with its line: `crate::`
/// paths as written, `super::` paths resolved from module `module`.
fn named_paths(code: &str, module: &[String]) -> Vec<(usize, Vec<String>)> {
    let mut found = Vec::new();
    for (start, kw) in [("crate::", 0usize), ("super::", 1)] {
        let mut from = 0;
        while let Some(at) = code[from..].find(start).map(|p| p + from) {
            from = at + start.len();
            let before = code[..at].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let mut base: Vec<String> = if kw == 0 {
                Vec::new()
            } else {
                module[..module.len().saturating_sub(1)].to_vec()
            };
            let mut rest = &code[from..];
            while let Some(r) = rest.strip_prefix("super::") {
                base.pop();
                from += "super::".len();
                rest = r;
            }
            let mut paths = Vec::new();
            paths_at(rest, base, &mut paths);
            let line = code[..at].matches('\n').count() + 1;
            found.extend(paths.into_iter().map(|p| (line, p)));
        }
    }
    found
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("read src") {
        let p = e.expect("entry").path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The violations of the stage order in the crate at `src`.
fn violations(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    sources(src, &mut files);
    files.sort();
    // Files declared as `#[cfg(test)] mod name;` are test code.
    let mut test_modules: Vec<Vec<String>> = Vec::new();
    let mut checked = Vec::new();
    for f in &files {
        let rel = f.strip_prefix(src).expect("under src").to_path_buf();
        let module = module_of(&rel);
        let text = std::fs::read_to_string(f).expect("read source");
        let (code, tests) = without_tests(&code_of(&text));
        for t in tests {
            let mut m = module.clone();
            m.push(t);
            test_modules.push(m);
        }
        checked.push((rel, module, code));
    }
    let mut out = Vec::new();
    for (rel, module, code) in checked {
        if test_modules.iter().any(|t| module.starts_with(t)) {
            continue;
        }
        let own = rank(&module);
        for (line, path) in named_paths(&code, &module) {
            let to = rank(&path);
            if to > own {
                out.push(format!(
                    "{}:{line}: {} imports {} (against the stage order)",
                    rel.display(),
                    ORDER.get(own).copied().unwrap_or("the crate root"),
                    path.join("::"),
                ));
            }
        }
    }
    out
}

#[test]
fn imports_follow_the_stage_order() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let v = violations(&src);
    assert!(
        v.is_empty(),
        "{} import(s) against the stage order:\n{}",
        v.len(),
        v.join("\n")
    );
}

#[test]
fn the_check_sees_imports_against_the_order() {
    let dir = std::env::temp_dir().join(format!("silica-layering-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("model")).unwrap();
    std::fs::create_dir_all(dir.join("flow/schedule")).unwrap();
    std::fs::write(
        dir.join("model/kernel.rs"),
        "//! k\nuse crate::{float::Operator, flow::{schedule::Schedules}};\n\
         // crate::fpga in a comment\nconst S: &str = \"crate::fpga\";\n\
         #[cfg(test)]\nmod tests { use crate::fpga::x; }\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("flow/schedule/mod.rs"),
        "use super::super::wrappers::axi;\nuse super::analysis::x;\n",
    )
    .unwrap();
    let v = violations(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(
        v,
        vec![
            "flow/schedule/mod.rs:1: flow::schedule imports wrappers::axi (against the stage order)",
            "model/kernel.rs:2: model imports flow::schedule::Schedules (against the stage order)",
        ]
    );
}
