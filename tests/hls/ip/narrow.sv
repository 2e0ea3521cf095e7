// A hand-written multiply-accumulate with the calling convention of a
// silica hls callee: a * b + c, three cycles from start to done, the
// operands latched at start, the result held from done until the next
// start.
module mac_ip (
    input  logic        clock,
    input  logic        reset,
    input  logic        start,
    output logic        done,
    output logic        idle,
    input  logic [31:0] a,
    input  logic [15:0] b,
    input  logic [31:0] c,
    output logic [31:0] result0
);
  logic busy;
  logic step;
  logic [31:0] x, y, z, r;
  logic finished;
  assign idle = !busy;
  assign done = finished;
  assign result0 = r;
  always_ff @(posedge clock) begin
    finished <= 1'b0;
    if (reset) begin
      busy <= 1'b0;
      step <= 1'b0;
    end else if (start && !busy) begin
      busy <= 1'b1;
      step <= 1'b0;
      x <= a;
      y <= b;
      z <= c;
    end else if (busy) begin
      step <= 1'b1;
      if (step) begin
        r <= x * y + z;
        finished <= 1'b1;
        busy <= 1'b0;
      end
    end
  end
endmodule
