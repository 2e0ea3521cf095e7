//! The target: the devices `--target` names (`device`) and their
//! measured operator libraries (`library`).

pub mod device;
pub mod library;
