//! SystemVerilog emission from hw/comb/seq; empty until its issue.
