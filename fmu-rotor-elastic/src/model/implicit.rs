//! The implicit integrators inside `fmi2DoStep` (`integrator = 1` or `2`): each blade by the
//! implicit midpoint rule or BDF2 ([`fmu_rotor::beam::implicit`]) at fixed steps, the blades one
//! after the other (given the hub inputs they are independent: the shaft is driven).

use fmu_core::model::{InputPath, Model};
use fmu_core::params::{ParameterError, Reader};
use fmu_rotor::beam::implicit::{ImplicitStepper, Method};

use super::Work;
use crate::RotorElastic;
use crate::layout::vr;

/// Which integrator `fmi2DoStep` uses.
#[derive(Clone, Copy, Debug)]
pub struct Stepping {
    /// The implicit method (`None`: the Dormand-Prince).
    method: Option<Method>,
    /// The implicit method's largest step, s.
    max_step: f64,
}

impl Stepping {
    /// From the parameters `integrator` and `implicit_step`.
    pub fn from_parameters(p: &Reader) -> Result<Self, ParameterError> {
        let method = match p.integer(vr::INTEGRATOR)? {
            1 => Some(Method::Midpoint),
            2 => Some(Method::Bdf2),
            _ => None,
        };
        Ok(Self { method, max_step: p.real(vr::IMPLICIT_STEP)? })
    }

    /// Whether an implicit integrator (`integrator = 1` or `2`) is selected.
    pub fn is_implicit(&self) -> bool {
        self.method.is_some()
    }
}

/// The implicit integrator's memory: one integrator per blade (its kept Newton matrix) and the
/// inputs at a step's middle (or end), with their time.
#[derive(Debug, Default)]
pub struct Memory {
    blades: Vec<ImplicitStepper>,
    inputs: Vec<f64>,
    inputs_time: Option<f64>,
}

impl RotorElastic {
    /// `fmi2DoStep` by the implicit midpoint (`integrator = 1`) or BDF2 (`2`); `None` for the
    /// Dormand-Prince: the communication step in equal steps of at most `implicit_step`, each
    /// blade's implicit equation with the inputs at its time (the step's middle for the
    /// midpoint, its end for BDF2). The hingeless hub only: with hinges (`hub_type = 1`) the
    /// parameters are refused ([`RotorElastic::from_parameters`]).
    pub(super) fn implicit_step(
        &self,
        work: &mut Work<f64>,
        t: f64,
        h: f64,
        x: &mut [f64],
        inputs: &InputPath,
    ) -> Option<Result<(), String>> {
        let method = self.stepping.method?;
        let n = self.blade.n_states();
        let mut memory = std::mem::take(&mut work.implicit);
        if memory.blades.len() != self.nb {
            memory.blades = (0..self.nb).map(|_| ImplicitStepper::new(method, n)).collect();
        }
        memory.inputs.resize(inputs.values.len(), 0.0);
        let steps = (h / self.stepping.max_step * (1.0 - 1e-9)).ceil().max(1.0);
        let dt = h / steps;
        let mut result = Ok(());
        let Memory { blades, inputs: u, inputs_time } = &mut memory;
        // Every evaluation of a step is at the same time: the inputs are interpolated once.
        *inputs_time = None;
        'steps: for step in 0..steps as usize {
            let t_start = t + step as f64 * dt;
            for (b, integrator) in blades.iter_mut().enumerate() {
                let derivative = |theta: f64, xb: &[f64], dx: &mut [f64]| {
                    let tau = t_start + theta * dt;
                    if *inputs_time != Some(tau) {
                        inputs.at(tau, u);
                        *inputs_time = Some(tau);
                    }
                    self.blade_pass(work, tau, b, xb, None, u, dx);
                };
                let blade_state = &mut x[b * n..(b + 1) * n];
                if let Err(e) = integrator.step(derivative, blade_state, dt, self.tolerances()) {
                    result = Err(format!("blade {} in the step from {t_start} s: {e}", b + 1));
                    break 'steps;
                }
            }
        }
        work.implicit = memory;
        Some(result)
    }
}
