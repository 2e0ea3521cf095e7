// `silica schedule --verify` checks the schedules an input carries.
// RUN: silica schedule %s --verify --split-input-file --verify-diagnostics

// expected-error @+1 {{Precedence violated for dependence operation @a -> operation @b}}
ssp.instance @early of "Problem" {
  library {
    operator_type @op [latency<2>]
  }
  graph {
    %0 = operation<@op> @a() [t<0>]
    operation<@op> @b(%0) [t<1>]
  }
}

// -----

ssp.instance @unscheduled of "Problem" {
  library {
    operator_type @op [latency<1>]
  }
  graph {
    operation<@op>() [t<0>]
    operation<@op>() // expected-error {{Operation has no start time}}
  }
}

// -----

// expected-error @+1 {{Invalid initiation interval}}
ssp.instance @no_ii of "CyclicProblem" {
  library {}
  graph {}
}

// -----

// expected-error @+1 {{Resource type 'port' is oversubscribed}}
ssp.instance @crowded of "ModuloProblem" [II<2>] {
  library {
    operator_type @ld [latency<1>]
  }
  resource {
    resource_type @port [limit<1>]
  }
  graph {
    operation<@ld>() uses[@port] [t<0>]
    operation<@ld>() uses[@port] [t<2>]
  }
}

// -----

// expected-error @+1 {{Def-use dependence cannot have non-zero distance.}}
ssp.instance @def_use_distance of "ChainingCyclicProblem" [II<1>] {
  library {
    operator_type @add [latency<0>, incDelay<1.0>, outDelay<1.0>]
  }
  graph {
    %0 = operation<@add>() [t<0>, z<0.0>]
    operation<@add>(%0 [dist<1>]) [t<0>, z<1.0>]
  }
}
