//! Software-level dialects (func, arith, cf, scf, memref): built on
//! `silica-ir` in the dialects issue; empty until then.
