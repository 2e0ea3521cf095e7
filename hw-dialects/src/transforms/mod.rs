//! The circuit passes, with CIRCT's names: on hw,
//! `--hw-aggregate-to-comb` ([`aggregate_to_comb`]), `--hw-specialize`
//! ([`specialize`]), `--hw-verify-irn` and `--hw-bypass-inner-symbols`
//! ([`inner_sym`]) and `--hw-print-instance-graph` ([`instance_graph`]);
//! on seq, `--lower-seq-compreg-ce` ([`lower_compreg_ce`]),
//! `--lower-seq-shiftreg` ([`lower_shiftreg`]) and
//! `--seq-reg-of-vec-to-mem` ([`reg_of_vec_to_mem`]).

pub mod aggregate_to_comb;
pub mod inner_sym;
pub mod instance_graph;
pub mod lower_compreg_ce;
pub mod lower_shiftreg;
pub mod reg_of_vec_to_mem;
pub mod specialize;
