// Structural errors of ssp instances, reported at the offending op.
// RUN: silica opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{must contain exactly one 'library' op and one 'graph' op}}
ssp.instance @two_graphs of "Problem" {
  library {}
  graph {}
  graph {}
}

// -----

// expected-error @+1 {{must contain the 'library' op followed by the 'graph' op}}
ssp.instance @graph_first of "Problem" {
  graph {}
  library {}
}

// -----

ssp.instance @unknown_type of "Problem" {
  library {
    operator_type @add [latency<1>]
  }
  graph {
    // expected-error @+1 {{Linked operator type property references invalid operator type: @mul}}
    operation<@mul>()
  }
}

// -----

ssp.instance @unknown_resource of "Problem" {
  library {
    operator_type @add [latency<1>]
  }
  resource {}
  graph {
    // expected-error @+1 {{Linked resource type property references invalid resource type: @port}}
    operation<@add>() uses[@port]
  }
}

// -----

ssp.instance @missing_source of "Problem" {
  library {}
  graph {
    // expected-error @+1 {{Auxiliary dependence references invalid source operation: @nowhere}}
    operation<>(@nowhere)
  }
}

// -----

ssp.instance @interleaved of "Problem" {
  library {}
  graph {
    %0 = operation<> @a()
    // expected-error @+1 {{Auxiliary dependence from @a is interleaved with SSA operands}}
    operation<>(@a, %0)
  }
}

// -----

ssp.instance @bad_indices of "Problem" {
  library {}
  graph {
    %0:2 = operation<>()
    // expected-error @+1 {{Def-use operand indices in dependence attribute are not monotonically increasing}}
    "ssp.operation"(%0#0, %0#1) {dependences = [#ssp.dependence<1, [#ssp.dist<1>]>, #ssp.dependence<0, [#ssp.dist<1>]>]} : (none, none) -> ()
  }
}

// -----

ssp.instance @outside of "Problem" {
  library {}
  graph {}
}
// expected-error @+1 {{'ssp.operator_type' op expects parent op 'ssp.library'}}
ssp.operator_type @stray [latency<1>]

// -----

ssp.instance @bad_property of "Problem" {
  library {
    // expected-error @+1 {{unknown ssp attribute 'lantency'}}
    operator_type @t [lantency<1>]
  }
  graph {}
}

// -----

ssp.instance @no_graph of "Problem" {
  library {}
  // expected-error @+1 {{custom op 'grph' is unknown (tried 'ssp.grph' as well)}}
  grph {}
}
