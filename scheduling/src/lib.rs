//! Scheduling problems and solvers; empty until the scheduling issue.
