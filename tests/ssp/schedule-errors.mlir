// Problems that cannot be scheduled, and schedules that do not verify.
// RUN: silica schedule %s --split-input-file --verify-diagnostics --cycle-time 1.0

// expected-error @+1 {{dependence cycle detected through}}
ssp.instance @cycle of "Problem" {
  library {
    operator_type @op [latency<1>]
  }
  graph {
    %0 = operation<@op>(@b)
    operation<@op> @b(%0)
  }
}

// -----

// expected-error @+1 {{problem is infeasible: dependence cycle without distance}}
ssp.instance @cycle_without_distance of "CyclicProblem" {
  library {
    operator_type @op [latency<1>]
  }
  graph {
    %0 = operation<@op>(@b)
    operation<@op> @b(%0)
  }
}

// -----

// expected-error @+1 {{Operator type 'op' has no latency}}
ssp.instance @no_latency of "Problem" {
  library {
    operator_type @op
  }
  graph {
    operation<@op>()
  }
}

// -----

// expected-error @+1 {{Delays of operator type 'slow' exceed maximum cycle time}}
ssp.instance @too_slow of "ChainingProblem" {
  library {
    operator_type @slow [latency<0>, incDelay<1.5>, outDelay<1.5>]
  }
  graph {
    operation<@slow>()
  }
}

// -----

// expected-error @+1 {{uses resource type 'none', which has limit 0: no schedule exists}}
ssp.instance @zero_limit of "SharedOperatorsProblem" {
  library {
    operator_type @op [latency<1>]
  }
  resource {
    resource_type @none [limit<0>]
  }
  graph {
    operation<@op>() uses[@none]
  }
}
