//! The `gpu` dialect, as far as the way from parallel loops to NVVM
//! needs it: the launch written in place ([`launch`]) and as a call of
//! an outlined kernel ([`launch_func`]), the device module and its
//! functions ([`kernel`]), the module compiled ([`binary`]), the ops
//! that read a thread's place ([`ids`]), `gpu.barrier`, and the
//! dialect's attributes ([`attrs`]).
//! Syntax, names of results and verifier messages are mlir-opt-22's.

pub mod attrs;
pub mod binary;
pub mod ids;
pub mod kernel;
pub mod launch;
pub mod launch_func;

use silica_ir::dialect::{AttrHooks, DialectDef, Effects, OpDef};
use silica_ir::format::{parse_op, print_op, Signature};

pub const BARRIER: &str = "gpu.barrier";

static BARRIER_SIG: Signature = Signature::new(&[], &[], &[], "attr-dict");

static OPS: [OpDef; 21] = [
    ids::OPS[0],
    ids::OPS[1],
    ids::OPS[2],
    ids::OPS[3],
    ids::OPS[4],
    ids::OPS[5],
    ids::OPS[6],
    ids::OPS[7],
    ids::OPS[8],
    ids::OPS[9],
    ids::OPS[10],
    ids::OPS[11],
    ids::OPS[12],
    launch::OPS[0],
    launch::OPS[1],
    kernel::OPS[0],
    kernel::OPS[1],
    kernel::OPS[2],
    launch_func::OPS[0],
    binary::OPS[0],
    OpDef {
        parse: Some(parse_op),
        print: Some(print_op),
        signature: Some(&BARRIER_SIG),
        effects: Effects::Unknown,
        ..OpDef::new(BARRIER)
    },
];

/// The `gpu` dialect.
pub static GPU: DialectDef = DialectDef {
    name: "gpu",
    ops: &OPS,
    attrs: Some(AttrHooks {
        parse: attrs::parse_attr,
        print: attrs::print_attr,
        type_of: None,
        alias: None,
    }),
    types: None,
    materialize_constant: None,
};
