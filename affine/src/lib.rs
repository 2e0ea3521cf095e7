//! The affine dialect and polyhedral layer; empty until its issue.
