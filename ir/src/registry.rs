//! What silica knows about registered dialects and ops. Today this is the
//! builtin dialect; the dialect crates extend it.

/// The builtin ops with a custom assembly form.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BuiltinOp {
    /// `builtin.module`
    Module,
    /// `builtin.unrealized_conversion_cast`
    UnrealizedConversionCast,
}

/// The builtin op named `name`, if it is one.
pub fn builtin_op(name: &str) -> Option<BuiltinOp> {
    match name {
        "builtin.module" => Some(BuiltinOp::Module),
        "builtin.unrealized_conversion_cast" => Some(BuiltinOp::UnrealizedConversionCast),
        _ => None,
    }
}

/// Whether `name` is a registered op.
pub fn is_known_op(name: &str) -> bool {
    builtin_op(name).is_some()
}

/// Whether `dialect` is a registered dialect namespace.
pub fn is_known_dialect(dialect: &str) -> bool {
    dialect == "builtin"
}
