//! Whole C programs for `silica cosim`: built by clang once as written
//! (the software), and once with the kernel's definition deleted from
//! its translation unit (`llvm-extract-22 --delete`) and a function of
//! the same name and C signature in its place that calls the
//! accelerator through the host stub's `F_ciface`.

use crate::clang::{Options, CLANG};
use crate::types::CType;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A kernel's C signature: each parameter's name and scalar type
/// (`None`: an array), and the result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CSignature {
    pub params: Vec<(String, Option<CType>)>,
    pub result: Option<CType>,
}

/// How clang builds the programs.
pub const OPTIMIZATION: &str = "-O2";

fn run(program: &str, args: &[String], dir: &Path) -> Result<(), String> {
    let out = Command::new(program)
        .args(args)
        .current_dir(dir)
        .output()
        .map_err(|e| format!("cannot run {program}: {e}"))?;
    if out.status.success() {
        return Ok(());
    }
    Err(format!(
        "{program} failed ({}):\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr).trim_end()
    ))
}

fn absolute(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}

/// Builds the program of `files` as written: `dir/software`.
pub fn software(files: &[PathBuf], options: &Options, dir: &Path) -> Result<PathBuf, String> {
    let mut args = vec![OPTIMIZATION.to_string()];
    args.extend(options.absolute().args());
    args.extend(
        files
            .iter()
            .map(|f| absolute(f).to_string_lossy().into_owned()),
    );
    args.extend(["-lm".to_string(), "-o".to_string(), "software".to_string()]);
    run(CLANG, &args, dir)?;
    Ok(dir.join("software"))
}

/// Builds the objects of the program with the accelerator in `dir`:
/// every file of `files` compiled, `kernel` deleted from `kernel_file`'s
/// unit, and `kernel`'s replacement (`kernel_c.c`); absolute paths.
pub fn accelerated_objects(
    files: &[PathBuf],
    kernel_file: &Path,
    kernel: &str,
    signature: &CSignature,
    options: &Options,
    dir: &Path,
) -> Result<Vec<String>, String> {
    let mut objects = Vec::new();
    for (i, f) in files.iter().enumerate() {
        let stem = f
            .file_stem()
            .map_or_else(|| "input".into(), |s| s.to_string_lossy().into_owned());
        let ll = format!("c{i}_{stem}.ll");
        let mut args = vec![
            OPTIMIZATION.to_string(),
            "-Xclang".into(),
            "-disable-llvm-passes".into(),
            "-S".into(),
            "-emit-llvm".into(),
        ];
        args.extend(options.absolute().args());
        args.extend([
            absolute(f).to_string_lossy().into_owned(),
            "-o".into(),
            ll.clone(),
        ]);
        run(CLANG, &args, dir)?;
        let ll = if absolute(f) == absolute(kernel_file) {
            let without = format!("c{i}_{stem}.without_{kernel}.ll");
            run(
                "llvm-extract-22",
                &[
                    "--delete".into(),
                    format!("--func={kernel}"),
                    ll,
                    "-S".into(),
                    "-o".into(),
                    without.clone(),
                ],
                dir,
            )?;
            without
        } else {
            ll
        };
        let obj = format!("c{i}_{stem}.o");
        run(
            CLANG,
            &[
                OPTIMIZATION.into(),
                "-c".into(),
                ll,
                "-o".into(),
                obj.clone(),
            ],
            dir,
        )?;
        objects.push(dir.join(obj).to_string_lossy().into_owned());
    }
    let wrapper = format!("{kernel}_c.c");
    std::fs::write(dir.join(&wrapper), replacement(kernel, signature))
        .map_err(|e| format!("cannot write {wrapper}: {e}"))?;
    let obj = format!("{kernel}_c.o");
    run(
        CLANG,
        &[
            OPTIMIZATION.into(),
            "-c".into(),
            wrapper,
            "-o".into(),
            obj.clone(),
        ],
        dir,
    )?;
    objects.push(dir.join(obj).to_string_lossy().into_owned());
    Ok(objects)
}

/// The C source of the function that takes the kernel's place: its C
/// signature (arrays as pointers), calling `F_ciface` (the scalars as
/// the kernel takes them, the arrays' addresses, a pointer for the
/// result) and failing through `silica_dev_fail` on a device error.
pub fn replacement(kernel: &str, sig: &CSignature) -> String {
    let ty = |t: &Option<CType>| match t {
        Some(t) => t.c_spelling(),
        None => "void *".to_string(),
    };
    let mut decl_params: Vec<String> = sig.params.iter().map(|(_, t)| ty(t)).collect();
    let params: Vec<String> = sig
        .params
        .iter()
        .enumerate()
        .map(|(i, (_, t))| format!("{} p{i}", ty(t)))
        .collect();
    let mut args: Vec<String> = (0..sig.params.len()).map(|i| format!("p{i}")).collect();
    let result = sig.result.as_ref().map(CType::c_spelling);
    if let Some(r) = &result {
        decl_params.push(format!("{r} *"));
        args.push("&result".into());
    }
    let decl = if decl_params.is_empty() {
        "void".to_string()
    } else {
        decl_params.join(", ")
    };
    let params = if params.is_empty() {
        "void".to_string()
    } else {
        params.join(", ")
    };
    let mut out = format!(
        "/* {kernel} on the accelerator, with the program's C signature: written by silica cosim. */\n\
         extern int {kernel}_ciface({decl});\n\
         extern void silica_dev_fail(int);\n\n\
         {} {kernel}({params}) {{\n",
        result.as_deref().unwrap_or("void")
    );
    if let Some(r) = &result {
        out.push_str(&format!("  {r} result;\n"));
    }
    out.push_str(&format!(
        "  int error = {kernel}_ciface({});\n  if (error)\n    silica_dev_fail(error);\n",
        args.join(", ")
    ));
    if result.is_some() {
        out.push_str("  return result;\n");
    }
    out.push_str("}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_replacement_calls_the_c_interface() {
        let sig = CSignature {
            params: vec![
                (
                    "n".into(),
                    Some(CType::Int {
                        bits: 32,
                        signed: true,
                    }),
                ),
                ("A".into(), None),
                (
                    "s".into(),
                    Some(CType::Int {
                        bits: 16,
                        signed: false,
                    }),
                ),
            ],
            result: Some(CType::Float(64)),
        };
        let text = replacement("k", &sig);
        assert!(
            text.contains("extern int k_ciface(int, void *, unsigned short, double *);"),
            "{text}"
        );
        assert!(
            text.contains("double k(int p0, void * p1, unsigned short p2) {"),
            "{text}"
        );
        assert!(
            text.contains("int error = k_ciface(p0, p1, p2, &result);"),
            "{text}"
        );
        assert!(text.contains("return result;"), "{text}");
    }
}
