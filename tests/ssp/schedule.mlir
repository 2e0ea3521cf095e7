// `silica schedule` on each problem kind; the schedules are written back
// as `t<N>` (`z<F>` when chaining) and the II as `II<N>`.
// RUN: silica schedule %s --split-input-file --cycle-time 4.0 | FileCheck %s --check-prefix=AUTO
// RUN: silica schedule %s --split-input-file --cycle-time 4.0 | silica schedule --verify --split-input-file - > /dev/null

// A diamond: the longer branch decides when @join starts.
// AUTO-LABEL: ssp.instance @diamond of "Problem"
// AUTO: @join(%{{.*}}, %{{.*}}) [t<4>]
ssp.instance @diamond of "Problem" {
  library {
    operator_type @ld [latency<1>]
    operator_type @mul [latency<3>]
    operator_type @add [latency<1>]
  }
  graph {
    %0 = operation<@ld> @src()
    %1 = operation<@mul>(%0)
    %2 = operation<@add>(%0)
    operation<@add> @join(%1, %2)
  }
}

// -----

// An accumulator recurrence of latency 3 and distance 1 needs II 3.
// AUTO-LABEL: ssp.instance @accumulate of "CyclicProblem" [II<3>]
// AUTO: @acc(%{{.*}}, @acc [dist<1>]) [t<1>]
ssp.instance @accumulate of "CyclicProblem" {
  library {
    operator_type @ld [latency<1>]
    operator_type @fadd [latency<3>]
  }
  graph {
    %0 = operation<@ld>()
    operation<@fadd> @acc(%0, @acc [dist<1>])
  }
}

// -----

// Four loads through one port: ResMII is 4.
// AUTO-LABEL: ssp.instance @port_bound of "ModuloProblem" [II<4>]
ssp.instance @port_bound of "ModuloProblem" {
  library {
    operator_type @ld [latency<1>]
    operator_type @add [latency<1>]
  }
  resource {
    resource_type @port [limit<1>]
  }
  graph {
    %0 = operation<@ld>() uses[@port]
    %1 = operation<@ld>() uses[@port]
    %2 = operation<@ld>() uses[@port]
    %3 = operation<@ld>() uses[@port]
    %4 = operation<@add>(%0, %1)
    %5 = operation<@add>(%2, %3)
    operation<@add> @last(%4, %5)
  }
}

// -----

// Two multipliers shared by three products: one waits a cycle.
// AUTO-LABEL: ssp.instance @two_multipliers of "SharedOperatorsProblem"
// AUTO: @last(%{{.*}}, %{{.*}}, %{{.*}}) [t<3>]
ssp.instance @two_multipliers of "SharedOperatorsProblem" {
  library {
    operator_type @mul [latency<2>]
    operator_type @add [latency<1>]
  }
  resource {
    resource_type @dsp [limit<2>]
  }
  graph {
    %0 = operation<@mul>() uses[@dsp]
    %1 = operation<@mul>() uses[@dsp]
    %2 = operation<@mul>() uses[@dsp]
    operation<@add> @last(%0, %1, %2)
  }
}

// -----

// Three 1.5 ns adders chain within a 4 ns cycle; the third waits.
// AUTO-LABEL: ssp.instance @chain of "ChainingProblem"
// AUTO:      [t<0>, z<0.000000e+00 : f32>]
// AUTO-NEXT: [t<0>, z<1.500000e+00 : f32>]
// AUTO-NEXT: [t<1>, z<0.000000e+00 : f32>]
ssp.instance @chain of "ChainingProblem" {
  library {
    operator_type @add [latency<0>, incDelay<1.5>, outDelay<1.5>]
  }
  graph {
    %0 = operation<@add>()
    %1 = operation<@add>(%0)
    operation<@add>(%1)
  }
}
