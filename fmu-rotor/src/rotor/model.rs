//! The Rotor FMU: the [`Model`] impl of [`Rotor`].

use fmu_core::declare::Tables;
use fmu_core::model::{Model, ModelInfo, Parameters, Scalar};
use fmu_core::params::ParameterError;

use super::Rotor;
use crate::dynamics::Work;
use crate::layout::{MAX_BLADES, x, y};

impl Model for Rotor {
    const INFO: ModelInfo = ModelInfo {
        model_name: "Rotor",
        model_identifier: "Rotor",
        description: "Articulated helicopter rotor as an open-loop multibody tree in joint coordinates (shaft, and per \
                      blade lag, flap and driven pitch hinges; rigid blades), Jacobians by automatic differentiation; \
                      hub loads on the airframe with direct feedthrough from the hub motion and blade loads",
        default_stop_time: 1.0,
        default_step_size: 0.003,
    };

    fn configure(params: &dyn Parameters) -> Result<Self, ParameterError> {
        Self::from_parameters(params)
    }

    fn n_states(&self) -> usize {
        self.x0.len()
    }

    fn initial_state(&self, x: &mut [f64]) {
        x.copy_from_slice(&self.x0);
    }

    /// The tree's workspace, with the kinematics of the last evaluation (reused when only the
    /// hub acceleration changed, as between the coupling's Newton iterations).
    const TABLES: Tables = crate::layout::TABLES;

    type Work<D: Scalar> = Box<Work<D>>;

    fn work<D: Scalar>(&self) -> Box<Work<D>> {
        Box::new(Work::new())
    }

    fn derivatives<D: Scalar>(&self, work: &mut Box<Work<D>>, t: D, x: &[D], us: &[D], dx: &mut [D]) {
        self.try_derivatives(work, t, x, us, dx);
    }

    fn state_indices(&self) -> Vec<usize> {
        let positions: Vec<usize> = self.coordinates.iter().map(|&c| Self::declared_position(c)).collect();
        positions.iter().copied().chain(positions.iter().map(|p| p + x::RATES)).collect()
    }

    fn outputs<D: Scalar>(&self, work: &mut Box<Work<D>>, t: D, x: &[D], us: &[D], ys: &mut [D]) {
        self.outputs_with(work, t, x, us, ys);
    }

    /// `azimuth`, `shaft.rate` and each blade's `azimuth`, `flap`, `lag`, `flap_rate` and
    /// `lag_rate` (zero for the blades beyond `nb`): the joint values of the shaft, lag and flap
    /// hinges, from the clock and the state alone, by the code the full evaluation takes them
    /// from ([`crate::tree::Tree::joint_value`]). Only where the full evaluation fails (a singular mass
    /// matrix: every output NaN) do they differ from it.
    fn state_outputs(&self, t: f64, x: &[f64], ys: &mut [f64]) -> bool {
        let joint = |j: usize| self.tree.joint_value(j, t, x, None).expect("shaft, lag and flap joints use no inputs");
        let (psi, psi_rate, _) = joint(0);
        let mut y = y::ViewMut(ys);
        (*y.azimuth(), *y.shaft_rate()) = (psi, psi_rate);
        for i in 0..MAX_BLADES {
            let [azimuth, flap, lag, flap_rate, lag_rate] = match self.blades.get(i) {
                Some(b) => {
                    let ((flap, flap_rate, _), (lag, lag_rate, _)) = (joint(b.flap), joint(b.lag));
                    [psi + b.azimuth_offset, flap, lag, flap_rate, lag_rate]
                }
                None => [0.0; 5],
            };
            let mut blade = y.blade(i);
            (*blade.azimuth(), *blade.flap(), *blade.lag()) = (azimuth, flap, lag);
            (*blade.flap_rate(), *blade.lag_rate()) = (flap_rate, lag_rate);
        }
        true
    }

    fn tolerances(&self) -> (f64, f64) {
        (self.tolerance, self.tolerance)
    }
}
