//! Verification: co-simulation of a design against the software run of
//! its kernel (`cosim`) and of a whole program with its accelerator
//! (`system`), and the board shell run in Verilator behind a byte
//! stream (`emulator`, `silica run-board --emulate`), and a run's
//! waveform as a Perfetto trace (`trace`).

pub mod cosim;
pub mod emulator;
pub mod system;
pub mod trace;
