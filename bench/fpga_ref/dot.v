// Hand-written reference for bench/fpga_qor.py: the dot product of two
// 64-word i32 memories (a multiply-accumulate), with the same ports as
// the generated `dot` of bench/hls_qor_kernels.mlir (the brief's memory
// interface: read data one cycle after the address). A 7-bit counter
// issues one address per cycle; stage 1 multiplies the words read, stage
// 2 accumulates; `done` follows the last accumulation.
module dot(
  input clock, input reset, input start, output done, output idle,
  output [31:0] result0,
  output [5:0] a_address0, output a_ce0, output a_we0, output [31:0] a_d0, input [31:0] a_q0,
  output [5:0] b_address0, output b_ce0, output b_we0, output [31:0] b_d0, input [31:0] b_q0
);
  reg busy, v1, v2, done_r;
  reg [6:0] i;
  reg [31:0] p, acc;
  wire issue = busy & ~i[6];
  assign a_address0 = i[5:0];
  assign b_address0 = i[5:0];
  assign a_ce0 = issue;
  assign b_ce0 = issue;
  assign a_we0 = 1'b0;
  assign b_we0 = 1'b0;
  assign a_d0 = 32'd0;
  assign b_d0 = 32'd0;
  assign idle = ~busy;
  assign done = done_r;
  assign result0 = acc;
  always @(posedge clock) begin
    if (reset) begin
      busy <= 1'b0; v1 <= 1'b0; v2 <= 1'b0; done_r <= 1'b0;
    end else begin
      v1 <= issue;
      v2 <= v1;
      done_r <= 1'b0;
      if (~busy & start) begin
        busy <= 1'b1; i <= 7'd0; acc <= 32'd0;
      end else if (issue) begin
        i <= i + 7'd1;
      end
      if (v1) p <= a_q0 * b_q0;
      if (v2) acc <= acc + p;
      if (busy & i[6] & ~v1 & ~v2) begin
        busy <= 1'b0; done_r <= 1'b1;
      end
    end
  end
endmodule
