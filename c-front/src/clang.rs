//! Running `clang-22`: the preprocessor and semantic analysis of C
//! (`-fsyntax-only`), whose AST silica reads as JSON, and the
//! declarations of functions as clang prints them back (`-ast-print`),
//! which keep the first dimension of an array parameter that the
//! parameter's own (adjusted, pointer) type has lost.

use std::path::Path;
use std::process::Command;

/// The compiler silica runs.
pub const CLANG: &str = "clang-22";

/// The preprocessor and language options of a C input.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// `-I DIR`, in order.
    pub includes: Vec<String>,
    /// `-D NAME[=VALUE]`, in order.
    pub defines: Vec<String>,
    /// `-std=...` (clang's default, gnu17, when none).
    pub std: Option<String>,
}

impl Options {
    /// These options with the include directories absolute, for clang
    /// run in another directory.
    pub fn absolute(&self) -> Options {
        let includes = self
            .includes
            .iter()
            .map(|i| {
                std::fs::canonicalize(i)
                    .map_or_else(|_| i.clone(), |p| p.to_string_lossy().into_owned())
            })
            .collect();
        Options {
            includes,
            ..self.clone()
        }
    }

    /// The options as clang's arguments.
    pub fn args(&self) -> Vec<String> {
        let mut args = Vec::new();
        for i in &self.includes {
            args.push(format!("-I{i}"));
        }
        for d in &self.defines {
            args.push(format!("-D{d}"));
        }
        if let Some(s) = &self.std {
            args.push(format!("-std={s}"));
        }
        args
    }
}

/// What clang printed on standard output, and its diagnostics (warnings)
/// when it succeeded; its diagnostics when it did not.
fn run(args: &[String]) -> Result<(String, String), String> {
    let out = Command::new(CLANG)
        .args(args)
        .output()
        .map_err(|e| format!("cannot run {CLANG}: {e} (scripts/install-tools.sh installs it)"))?;
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    if !out.status.success() {
        let text = stderr.trim_end();
        return Err(if text.is_empty() {
            format!("{CLANG} failed ({})", out.status)
        } else {
            text.to_string()
        });
    }
    Ok((String::from_utf8_lossy(&out.stdout).into_owned(), stderr))
}

fn common(path: &Path, options: &Options) -> Vec<String> {
    let mut args = vec![
        "-fsyntax-only".to_string(),
        "-fno-color-diagnostics".to_string(),
        "-x".to_string(),
        "c".to_string(),
    ];
    args.extend(options.args());
    args.push(path.to_string_lossy().into_owned());
    args
}

/// The JSON AST of `path` and clang's warnings.
pub fn ast(path: &Path, options: &Options) -> Result<(String, String), String> {
    let mut args = vec!["-Xclang".to_string(), "-ast-dump=json".to_string()];
    args.extend(common(path, options));
    run(&args)
}

/// The declaration of each function of `names` as clang prints it
/// (`void kernel(int n, double A[20][30])`), from the definition.
pub fn signatures(
    path: &Path,
    options: &Options,
    names: &[&str],
) -> Result<Vec<(String, String)>, String> {
    let mut found = Vec::new();
    for &name in names {
        let mut args = vec![
            "-Xclang".to_string(),
            "-ast-print".to_string(),
            "-Xclang".to_string(),
            format!("-ast-dump-filter={name}"),
        ];
        args.extend(common(path, options));
        let (text, _) = run(&args)?;
        if let Some(sig) = definition_line(&text, name) {
            found.push((name.to_string(), sig));
        }
    }
    Ok(found)
}

/// The first line of the definition of `name` among the declarations
/// `-ast-print -ast-dump-filter` printed (each after a `Printing NAME:`
/// line; the filter matches names that contain `name` too).
fn definition_line(text: &str, name: &str) -> Option<String> {
    let header = format!("Printing {name}:");
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if line != header {
            continue;
        }
        if let Some(first) = lines.next() {
            if first.trim_end().ends_with('{') {
                return Some(first.to_string());
            }
        }
    }
    None
}

/// The first dimension of the array parameter `param` in a printed
/// declaration (`double A[20][30]`: 20); `None` for a pointer.
pub fn first_dimension(signature: &str, param: &str) -> Option<u64> {
    let open = signature.find('(')?;
    let list = &signature[open..];
    let bytes = list.as_bytes();
    let is_ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut from = 0;
    while let Some(i) = list[from..].find(param) {
        let at = from + i;
        let end = at + param.len();
        from = end;
        let before_ok = at == 0 || !is_ident(bytes[at - 1]);
        if !before_ok || end >= bytes.len() || bytes[end] != b'[' {
            continue;
        }
        let close = list[end..].find(']')? + end;
        let words: Vec<&str> = list[end + 1..close]
            .split_whitespace()
            .filter(|w| !matches!(*w, "static" | "const" | "restrict" | "volatile"))
            .collect();
        return match words.as_slice() {
            [n] => n.parse().ok(),
            _ => None,
        };
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_dimensions_of_printed_parameters() {
        let sig = "static void kernel(int n, DATA_TYPE A[20][30], double (*B)[4], double x[static 7], int An[5]) {";
        assert_eq!(first_dimension(sig, "A"), Some(20));
        assert_eq!(first_dimension(sig, "B"), None);
        assert_eq!(first_dimension(sig, "x"), Some(7));
        assert_eq!(first_dimension(sig, "An"), Some(5));
        assert_eq!(first_dimension(sig, "n"), None);
        let text = "Printing kernel_x:\nvoid kernel_x(int a);\nPrinting kernel:\nvoid kernel(int n) {\n}\n";
        assert_eq!(
            definition_line(text, "kernel").as_deref(),
            Some("void kernel(int n) {")
        );
    }
}
