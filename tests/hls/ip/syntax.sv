// Not SystemVerilog: the port list is missing its closing parenthesis.
module broken_ip (
    input  logic clock,
    input  logic reset
  logic busy;
endmodule
