//! [`StatelessModel`]: a model that writes only its tables and its output function is an FMU
//! with no states (Co-Simulation, and Model Exchange with zero states), whose outputs follow its
//! inputs and the clock at once, with exact directional derivatives.

use crate::common::{get, get_all, recorded};
use fmu_core::declare::Tables;
use fmu_core::params::{ParameterError, Reader};
use fmu_core::{Model, ModelInfo, Parameters, Scalar, StatelessModel};

/// The declarations of [`Mixer`].
mod layout {
    /// Parameters (value reference = position).
    pub mod vr {
        fmu_core::declare! { u32;
            GAIN = real("gain", "", "Gain on the sum of the inputs").start(2.0);
            RATE = real("rate", "1/s", "Growth of the ramp output per second").start(0.5);
        }
        fmu_core::value_references!(10, 20);
    }
    /// Inputs `u`.
    pub mod u {
        fmu_core::declare! { usize;
            A = real("a", "", "First input");
            B = real("b", "", "Second input");
            N;
        }
    }
    /// Outputs `y`.
    pub mod y {
        fmu_core::declare! { usize;
            SUM = real("sum", "", "gain * (a + b)").deps(|_| vec![super::u::A, super::u::B]);
            RAMP = real("ramp", "", "rate * t");
            N;
        }
    }
    /// The tables of [`super::Mixer`]: no states.
    pub const TABLES: fmu_core::declare::Tables = fmu_core::declare::Tables {
        parameters: vr::TABLE,
        inputs: (vr::INPUT_BASE, u::TABLE),
        outputs: (vr::OUTPUT_BASE, y::TABLE),
        states: &[],
    };
}

/// `sum = gain (a + b)`, `ramp = rate t`: no states, no memory.
struct Mixer {
    gain: f64,
    rate: f64,
}

impl StatelessModel for Mixer {
    const INFO: ModelInfo = ModelInfo {
        model_name: "Mixer",
        model_identifier: "Mixer",
        description: "Test model: a stateless mixer",
        default_stop_time: 1.0,
        default_step_size: 0.1,
    };

    const TABLES: Tables = layout::TABLES;

    fn configure(params: &dyn Parameters) -> Result<Self, ParameterError> {
        let p = Reader::new(params, layout::vr::TABLE);
        Ok(Mixer { gain: p.real(layout::vr::GAIN)?, rate: p.real(layout::vr::RATE)? })
    }

    fn outputs<D: Scalar>(&self, t: D, u: &[D], y: &mut [D]) {
        y[layout::y::SUM] = (u[layout::u::A] + u[layout::u::B]) * self.gain;
        y[layout::y::RAMP] = t * self.rate;
    }
}

const A: u32 = layout::vr::input(layout::u::A);
const B: u32 = layout::vr::input(layout::u::B);
const SUM: u32 = layout::vr::output(layout::y::SUM);
const RAMP: u32 = layout::vr::output(layout::y::RAMP);

#[test]
fn a_stateless_model_has_no_states_and_offers_both_interfaces() {
    let (mut inst, _log) = recorded::<Mixer>();
    inst.setup_experiment(0.0, None).unwrap();
    inst.enter_initialization_mode().unwrap();
    inst.exit_initialization_mode().unwrap();
    assert!(inst.continuous_state().is_empty());
    assert!(<Mixer as Model>::state_variables().is_empty());
    let xml = fmu_core::model_description::<Mixer>();
    assert!(xml.contains("<CoSimulation"), "{xml}");
    assert!(xml.contains("<ModelExchange"), "a stateless model offers Model Exchange: {xml}");
    assert!(xml.contains("numberOfEventIndicators=\"0\""), "{xml}");
    assert!(!xml.contains("<Derivatives"), "no states, no derivatives: {xml}");
    let names: Vec<String> = <Mixer as Model>::variables().into_iter().map(|v| v.name).collect();
    assert_eq!(names, ["gain", "rate", "a", "b", "sum", "ramp"]);
}

#[test]
fn outputs_follow_inputs_and_clock_across_steps() {
    let (mut inst, log) = recorded::<Mixer>();
    inst.setup_experiment(0.0, None).unwrap();
    inst.set_real(&[layout::vr::GAIN, A, B], &[3.0, 1.5, -0.25]).unwrap();
    inst.enter_initialization_mode().unwrap();
    inst.exit_initialization_mode().unwrap();
    assert_eq!(get_all(&mut inst, &[SUM, RAMP]), [3.0 * (1.5 - 0.25), 0.0]);
    inst.do_step(0.0, 0.4).unwrap();
    inst.do_step(0.4, 0.6).unwrap();
    inst.set_real(&[A], &[4.0]).unwrap();
    assert_eq!(get(&mut inst, SUM), 3.0 * (4.0 - 0.25));
    assert!((get(&mut inst, RAMP) - 0.5 * 1.0).abs() < 1e-15, "ramp = rate t at t = 1 s");
    assert!(log.borrow().is_empty(), "{:?}", log.borrow());
}

#[test]
fn directional_derivatives_are_the_gain() {
    let (mut inst, _log) = recorded::<Mixer>();
    inst.setup_experiment(0.0, None).unwrap();
    inst.enter_initialization_mode().unwrap();
    inst.exit_initialization_mode().unwrap();
    let mut d = [0.0; 2];
    inst.get_directional_derivative(&[SUM, RAMP], &[A, B], &[1.0, 10.0], &mut d).unwrap();
    assert_eq!(d, [2.0 * 11.0, 0.0], "d(sum) = gain (da + db) with the default gain 2; ramp has no inputs");
}

/// As Model Exchange with zero states: the importer sets time and inputs and reads the outputs,
/// `sum = gain (a + b)` and `ramp = rate t` (closed form); the state arrays are empty.
#[test]
fn a_stateless_model_runs_as_model_exchange_with_zero_states() {
    let mut inst = fmu_core::Instance::<Mixer>::model_exchange("me", Box::new(|_, _, _| {})).unwrap();
    inst.setup_experiment(0.0, None).unwrap();
    inst.set_real(&[layout::vr::GAIN, layout::vr::RATE], &[3.0, 0.25]).unwrap();
    inst.enter_initialization_mode().unwrap();
    inst.exit_initialization_mode().unwrap();
    let event = inst.new_discrete_states().unwrap();
    assert!(!event.new_discrete_states_needed && event.next_event_time.is_none());
    inst.enter_continuous_time_mode().unwrap();
    for (t, a, b) in [(0.5, 1.0, 2.0), (2.0, -0.5, 0.125)] {
        inst.set_time(t).unwrap();
        inst.set_real(&[A, B], &[a, b]).unwrap();
        inst.get_continuous_states(&mut []).unwrap();
        inst.get_derivatives(&mut []).unwrap();
        inst.get_event_indicators(&mut []).unwrap();
        assert_eq!(get_all(&mut inst, &[SUM, RAMP]), [3.0 * (a + b), 0.25 * t]);
        assert_eq!(inst.completed_integrator_step().unwrap(), (false, false));
    }
    assert!(inst.get_derivatives(&mut [0.0]).is_err(), "one derivative asked of a model with none");
}
