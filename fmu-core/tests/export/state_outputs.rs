//! `fmi2GetReal` of outputs without direct feedthrough alone, while the outputs are out of date:
//! served by `Model::state_outputs` where the model has it (the full evaluation is not run and
//! the stored outputs stay out of date), by the full evaluation where it has not; the values
//! are those of a full read either way, and a model that leaves one of them unwritten is
//! caught.

use std::cell::Cell;

use crate::common::{self, get, get_all, initialized, recorded};
use fmu_core::declare::Tables;
use fmu_core::{Instance, Model, ModelInfo, Parameters, Scalar, SlaveState};

thread_local! {
    /// Evaluations on this thread: full ones, state-only ones.
    static COUNTS: Cell<(usize, usize)> = const { Cell::new((0, 0)) };
}

fn counts() -> (usize, usize) {
    COUNTS.with(Cell::get)
}

/// The declarations of [`Counted`]: the input `u` has value reference 1, the parameter its
/// position (2), the outputs `3 +` their index.
mod layout {
    /// Value references of the parameters, and the bases of the input and output references.
    pub mod vr {
        fmu_core::declare! { u32;
            FORGET @ 2 = boolean("forget", false, "");
        }
        fmu_core::value_references!(1, 3);
    }
    /// The input `u`.
    pub mod u {
        fmu_core::declare! { usize;
            U = real("u", "", "");
        }
    }
    /// The outputs: `x` without feedthrough, `y` with.
    pub mod y {
        fmu_core::declare! { usize;
            X = real("x", "", "");
            Y = real("y", "", "").deps(|_| vec![super::u::U]);
        }
    }
}

const U: u32 = layout::vr::input(layout::u::U);
const FORGET: u32 = layout::vr::FORGET;
const X: u32 = layout::vr::output(layout::y::X);
const Y: u32 = layout::vr::output(layout::y::Y);

/// `x' = -x`, outputs `x` (state only) and `y = x + u`; with `forget`, its `state_outputs`
/// leaves `x` unwritten (a model bug).
struct Counted {
    forget: bool,
}

impl Model for Counted {
    const INFO: ModelInfo = ModelInfo {
        model_name: "Counted",
        model_identifier: "Counted",
        description: "Test model: counts its output evaluations",
        default_stop_time: 1.0,
        default_step_size: 0.1,
    };

    const TABLES: Tables = Tables {
        parameters: layout::vr::TABLE,
        inputs: (layout::vr::INPUT_BASE, layout::u::TABLE),
        outputs: (layout::vr::OUTPUT_BASE, layout::y::TABLE),
        states: &[],
    };

    fmu_core::no_work!();

    fn configure(p: &dyn Parameters) -> Result<Self, fmu_core::params::ParameterError> {
        Ok(Counted { forget: p.boolean(FORGET) })
    }

    fn n_states(&self) -> usize {
        1
    }

    fn initial_state(&self, x: &mut [f64]) {
        x[0] = 1.0;
    }

    fn derivatives<D: Scalar>(&self, _work: &mut (), _t: D, x: &[D], _u: &[D], dx: &mut [D]) {
        dx[0] = -x[0];
    }

    fn outputs<D: Scalar>(&self, _work: &mut (), _t: D, x: &[D], u: &[D], y: &mut [D]) {
        if D::NDERIV == 0 {
            COUNTS.with(|c| c.set((c.get().0 + 1, c.get().1)));
        }
        y[0] = x[0];
        y[1] = x[0] + u[0];
    }

    fn state_outputs(&self, _t: f64, x: &[f64], y: &mut [f64]) -> bool {
        COUNTS.with(|c| c.set((c.get().0, c.get().1 + 1)));
        if !self.forget {
            y[0] = x[0];
        }
        true
    }

    fn tolerances(&self) -> (f64, f64) {
        (1e-8, 1e-8)
    }
}

fn counted(forget: bool) -> Instance<Counted> {
    let (mut inst, _log) = recorded::<Counted>();
    inst.setup_experiment(0.0, None).unwrap();
    inst.set_boolean(&[FORGET], &[forget]).unwrap();
    inst.enter_initialization_mode().unwrap();
    inst.exit_initialization_mode().unwrap();
    inst
}

#[test]
fn outputs_without_feedthrough_alone_take_the_shortcut_and_match_a_full_read() {
    let mut inst = counted(false);
    inst.do_step(0.0, 0.1).unwrap();
    let before = counts();
    // After the step: x alone from the state, the full evaluation not run.
    let x = get(&mut inst, X);
    assert_eq!(counts(), (before.0, before.1 + 1));
    // New input: x alone again from the state, unchanged.
    inst.set_real(&[U], &[0.5]).unwrap();
    assert_eq!(get(&mut inst, X).to_bits(), x.to_bits());
    assert_eq!(counts(), (before.0, before.1 + 2));
    // A read with y evaluates everything once; then x alone comes from the stored outputs.
    let all = get_all(&mut inst, &[X, Y]);
    assert_eq!(all[0].to_bits(), x.to_bits());
    assert_eq!(all[1], x + 0.5);
    assert_eq!(counts(), (before.0 + 1, before.1 + 2));
    assert_eq!(get(&mut inst, X).to_bits(), x.to_bits());
    assert_eq!(counts(), (before.0 + 1, before.1 + 2));
    // The exact solution, to the integrator's tolerance.
    assert!((x - (-0.1f64).exp()).abs() < 1e-7, "{x}");
}

#[test]
fn an_output_the_shortcut_leaves_unwritten_is_an_error() {
    let mut inst = counted(true);
    inst.do_step(0.0, 0.1).unwrap();
    let mut v = [0.0];
    let e = inst.get_real(&[X], &mut v).unwrap_err();
    assert!(e.to_string().contains("output 'x' is NaN"), "{e}");
    assert_eq!(inst.slave_state(), SlaveState::Error);
}

#[test]
fn without_the_shortcut_outputs_without_feedthrough_alone_are_those_of_a_full_read() {
    // MassSpringDamper: x and v without feedthrough, a = f(F); no `state_outputs`.
    let (mut inst, _log) = initialized(&[]);
    let [f, x, v, a] = [common::vr::F, common::vr::X, common::vr::V, common::vr::A];
    inst.do_step(0.0, 0.05).unwrap();
    inst.set_real(&[f], &[2.0]).unwrap();
    let alone = get_all(&mut inst, &[x, v]);
    let all = get_all(&mut inst, &[x, v, a]);
    assert_eq!(alone, all[..2]);
    let mut expected = [0.0; 3];
    inst.get_real(&[x, v, a], &mut expected).unwrap();
    assert_eq!(all, expected);
}
