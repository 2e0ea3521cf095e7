//! Properties on random problems: every schedule verifies, heuristic IIs
//! respect the lower bounds (the slot bound too), and the ILP is never
//! worse than the heuristic.

use proptest::prelude::*;
use silica_scheduling::{
    random_problem, rec_mii, res_mii, schedule, slot_mii, Algorithm, Options, ProblemKind,
    RandomShape,
};

fn shape(kind: ProblemKind, operations: usize) -> RandomShape {
    RandomShape {
        kind,
        operations,
        fan_in: 2,
        back_edges_per_100: 20,
        resource_scale: 1,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn every_schedule_verifies(seed in any::<u64>(), n in 1usize..40) {
        let runs = [
            (ProblemKind::Problem, Algorithm::Asap),
            (ProblemKind::Problem, Algorithm::Sdc),
            (ProblemKind::Problem, Algorithm::List),
            (ProblemKind::CyclicProblem, Algorithm::Asap),
            (ProblemKind::CyclicProblem, Algorithm::Sdc),
            (ProblemKind::CyclicProblem, Algorithm::Modulo),
            (ProblemKind::SharedOperatorsProblem, Algorithm::List),
            (ProblemKind::ModuloProblem, Algorithm::Modulo),
            (ProblemKind::ChainingProblem, Algorithm::Asap),
            (ProblemKind::ChainingCyclicProblem, Algorithm::Sdc),
        ];
        for (kind, algorithm) in runs {
            let p = random_problem(shape(kind, n), seed);
            let mut opts = Options::new(algorithm);
            opts.cycle_time = Some(2.0);
            // `schedule` verifies before returning.
            let s = schedule(&p, &opts);
            prop_assert!(s.is_ok(), "{kind} {algorithm:?}: {:?}", s.err());
            let s = s.unwrap();
            if let Some(ii) = s.schedule.ii {
                prop_assert!(ii >= s.res_mii.max(s.rec_mii));
            }
        }
    }

    #[test]
    fn ilp_is_no_worse_than_the_heuristic(seed in any::<u64>(), n in 1usize..9) {
        let p = random_problem(shape(ProblemKind::SharedOperatorsProblem, n), seed);
        let list = schedule(&p, &Options::new(Algorithm::List)).unwrap();
        let ilp = schedule(&p, &Options::new(Algorithm::Ilp)).unwrap();
        prop_assert!(ilp.latency <= list.latency);

        let p = random_problem(shape(ProblemKind::ModuloProblem, n), seed);
        let ims = schedule(&p, &Options::new(Algorithm::Modulo)).unwrap();
        let ilp = schedule(&p, &Options::new(Algorithm::Ilp)).unwrap();
        prop_assert!(ilp.schedule.ii.unwrap() <= ims.schedule.ii.unwrap());
        // The slot bound is a bound: no schedule, exact or not, is below it.
        let bound = slot_mii(&p, res_mii(&p).max(rec_mii(&p)));
        prop_assert!(ilp.schedule.ii.unwrap() >= bound);
    }

    #[test]
    fn modulo_schedules_respect_the_slot_bound(seed in any::<u64>(), n in 1usize..40) {
        let mut shape = shape(ProblemKind::ModuloProblem, n);
        shape.back_edges_per_100 = 40;
        let p = random_problem(shape, seed);
        let s = schedule(&p, &Options::new(Algorithm::Modulo)).unwrap();
        let bound = slot_mii(&p, s.res_mii.max(s.rec_mii));
        prop_assert!(s.schedule.ii.unwrap() >= bound);
    }
}
