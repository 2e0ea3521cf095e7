//! Calling conventions: MLIR's `#llvm.cconv<...>` keywords (in the order
//! its enum lists them, the order of its parse error), their LLVM
//! numbers, and how LLVM IR writes each (`ccN` where LLVM has no name).

use silica_ir::parser::{AsmParser, PResult};

/// `(MLIR keyword, LLVM number, LLVM IR keyword)`.
pub(crate) const CCONVS: &[(&str, u32, &str)] = &[
    ("ccc", 0, ""),
    ("fastcc", 8, "fastcc"),
    ("coldcc", 9, "coldcc"),
    ("cc_10", 10, "ghccc"),
    ("cc_11", 11, "cc11"),
    ("anyregcc", 13, "anyregcc"),
    ("preserve_mostcc", 14, "preserve_mostcc"),
    ("preserve_allcc", 15, "preserve_allcc"),
    ("swiftcc", 16, "swiftcc"),
    ("cxx_fast_tlscc", 17, "cxx_fast_tlscc"),
    ("tailcc", 18, "tailcc"),
    ("cfguard_checkcc", 19, "cfguard_checkcc"),
    ("swifttailcc", 20, "swifttailcc"),
    ("x86_stdcallcc", 64, "x86_stdcallcc"),
    ("x86_fastcallcc", 65, "x86_fastcallcc"),
    ("arm_apcscc", 66, "arm_apcscc"),
    ("arm_aapcscc", 67, "arm_aapcscc"),
    ("arm_aapcs_vfpcc", 68, "arm_aapcs_vfpcc"),
    ("msp430_intrcc", 69, "msp430_intrcc"),
    ("x86_thiscallcc", 70, "x86_thiscallcc"),
    ("ptx_kernelcc", 71, "ptx_kernel"),
    ("ptx_devicecc", 72, "ptx_device"),
    ("spir_funccc", 75, "spir_func"),
    ("spir_kernelcc", 76, "spir_kernel"),
    ("intel_ocl_bicc", 77, "intel_ocl_bicc"),
    ("x86_64_sysvcc", 78, "x86_64_sysvcc"),
    ("win64cc", 79, "win64cc"),
    ("x86_vectorcallcc", 80, "x86_vectorcallcc"),
    ("hhvmcc", 81, "hhvmcc"),
    ("hhvm_ccc", 82, "hhvm_ccc"),
    ("x86_intrcc", 83, "x86_intrcc"),
    ("avr_intrcc", 84, "avr_intrcc"),
    ("avr_builtincc", 86, "cc86"),
    ("amdgpu_vscc", 87, "amdgpu_vs"),
    ("amdgpu_gscc", 88, "amdgpu_gs"),
    ("amdgpu_cscc", 90, "amdgpu_cs"),
    ("amdgpu_kernelcc", 91, "amdgpu_kernel"),
    ("x86_regcallcc", 92, "x86_regcallcc"),
    ("amdgpu_hscc", 93, "amdgpu_hs"),
    ("msp430_builtincc", 94, "cc94"),
    ("amdgpu_lscc", 95, "amdgpu_ls"),
    ("amdgpu_escc", 96, "amdgpu_es"),
    ("aarch64_vectorcallcc", 97, "aarch64_vector_pcs"),
    ("aarch64_sve_vectorcallcc", 98, "aarch64_sve_vector_pcs"),
    ("wasm_emscripten_invokecc", 99, "cc99"),
    ("amdgpu_gfxcc", 100, "amdgpu_gfx"),
    ("m68k_intrcc", 101, "cc101"),
];

/// The optional calling-convention keyword before a function's or a
/// call's callee.
pub(crate) fn parse_optional(p: &mut AsmParser<'_, '_>) -> PResult<Option<&'static str>> {
    let Some(&(name, ..)) = CCONVS.iter().find(|(n, ..)| p.peek_keyword(n)) else {
        return Ok(None);
    };
    p.expect_keyword(name)?;
    Ok(Some(name))
}

/// Whether `name` is a calling convention.
pub(crate) fn is_known(name: &str) -> bool {
    CCONVS.iter().any(|(n, ..)| *n == name)
}

/// MLIR's error for an unknown calling convention keyword.
pub(crate) fn unknown_error(name: &str) -> String {
    let names: Vec<&str> = CCONVS.iter().map(|(n, ..)| *n).collect();
    format!(
        "expected one of [{}] for Calling Conventions, got: {name}",
        names.join(", ")
    )
}

/// LLVM IR's keyword and a trailing space for convention `name`; empty
/// for the C convention.
pub(crate) fn llvm_prefix(name: &str) -> String {
    match CCONVS.iter().find(|(n, ..)| *n == name) {
        Some((_, _, "")) | None => String::new(),
        Some((_, _, k)) => format!("{k} "),
    }
}
