// Hand-written reference for bench/fpga_qor.py: y = A x for a 16 x 16
// i32 matrix, with the same ports as the generated `matvec` of
// bench/hls_qor_kernels.mlir (the brief's memory interface). One 8-bit
// counter walks A row by row, one word of A and of x per cycle; stage 1
// multiplies, stage 2 accumulates (restarting at each row's first
// column) and writes y[i] with the row's last product.
/* verilator lint_off UNUSEDSIGNAL */ // y_q0: y is only written
module matvec(
  input clock, input reset, input start, output done, output idle,
  output [7:0] A_address0, output A_ce0, output A_we0, output [31:0] A_d0, input [31:0] A_q0,
  output [3:0] x_address0, output x_ce0, output x_we0, output [31:0] x_d0, input [31:0] x_q0,
  output [3:0] y_address0, output y_ce0, output y_we0, output [31:0] y_d0, input [31:0] y_q0
);
  reg busy, v1, v2, done_r;
  reg [8:0] k;
  reg [7:0] k1, k2;
  reg [31:0] p, acc;
  wire issue = busy & ~k[8];
  wire [31:0] sum = (k2[3:0] == 4'd0 ? 32'd0 : acc) + p;
  wire last = v2 & (k2[3:0] == 4'd15);
  assign A_address0 = k[7:0];
  assign x_address0 = k[3:0];
  assign A_ce0 = issue;
  assign x_ce0 = issue;
  assign A_we0 = 1'b0;
  assign x_we0 = 1'b0;
  assign A_d0 = 32'd0;
  assign x_d0 = 32'd0;
  assign y_address0 = k2[7:4];
  assign y_ce0 = last;
  assign y_we0 = last;
  assign y_d0 = sum;
  assign idle = ~busy;
  assign done = done_r;
  always @(posedge clock) begin
    if (reset) begin
      busy <= 1'b0; v1 <= 1'b0; v2 <= 1'b0; done_r <= 1'b0;
    end else begin
      v1 <= issue;
      v2 <= v1;
      k1 <= k[7:0];
      k2 <= k1;
      done_r <= 1'b0;
      if (~busy & start) begin
        busy <= 1'b1; k <= 9'd0;
      end else if (issue) begin
        k <= k + 9'd1;
      end
      if (v1) p <= A_q0 * x_q0;
      if (v2) acc <= sum;
      if (busy & k[8] & ~v1 & ~v2) begin
        busy <= 1'b0; done_r <= 1'b1;
      end
    end
  end
endmodule
