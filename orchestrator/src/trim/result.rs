//! A trim's result: applied to a system description, continued to a neighbouring condition,
//! reported as JSON and text.

use serde_json::{Value, json};

use cosim::system::{SignalSpec, SystemDescription};

use super::{FlightCondition, RESIDUAL_NAMES, RotorStates, TrimStart, max_abs};

/// Names of the unknowns after the four controls.
const ATTITUDE_NAMES: [&str; 2] = ["phi", "theta"];

/// A trimmed (or not converged) flight condition.
#[derive(Debug, Clone)]
pub struct Trim {
    /// The requested condition.
    pub condition: FlightCondition,
    /// Whether every residual component is below the tolerance.
    pub converged: bool,
    /// The tolerance, m/s^2 and rad/s^2.
    pub tolerance: f64,
    /// Control input references and their trimmed values, rad.
    pub controls: Vec<(String, f64)>,
    /// Roll and pitch attitude, rad.
    pub attitude: [f64; 2],
    /// Body-axis velocity, m/s.
    pub velocity: [f64; 3],
    /// Body-axis angular velocity, rad/s.
    pub rates: [f64; 3],
    /// Revolution-averaged free accelerations at the trim, in [`RESIDUAL_NAMES`] order.
    pub residual: [f64; 6],
    /// Largest change of a main-rotor blade state over the averaged revolution (angles in rad,
    /// rates divided by the rotor speed): the distance from periodic steady state.
    pub periodicity: f64,
    /// Newton iterations.
    pub iterations: u32,
    /// Trials (co-simulations) run.
    pub trials: u32,
    /// Simulated main-rotor revolutions over all trials.
    pub revolutions: u32,
    /// Largest residual component after each iteration (the first entry: the start).
    pub history: Vec<f64>,
    /// Wall time, s.
    pub wall_seconds: f64,
    /// Jacobian `dh/dc` at the end, for a neighbouring condition (`None` when the start was
    /// already trimmed and none was needed).
    pub jacobian: Option<[[f64; 6]; 6]>,
    /// Rotor state at the end of the last trial: a run from the trim starts there.
    pub rotor_states: RotorStates,
    /// Parameter assignments of the airframe (attitude, velocity, rates).
    pub(super) airframe: (String, Vec<(String, f64)>),
}

impl Trim {
    /// A start for a neighbouring condition (the next speed of a sweep, say): these unknowns,
    /// the rotor state at the end and the Jacobian.
    pub fn continuation(&self) -> TrimStart {
        let mut unknowns = [0.0; 6];
        for (u, (_, v)) in unknowns.iter_mut().zip(&self.controls) {
            *u = *v;
        }
        unknowns[4..].copy_from_slice(&self.attitude);
        TrimStart { unknowns, rotor_states: Some(self.rotor_states.clone()), jacobian: self.jacobian }
    }

    /// Every parameter assignment that starts a run on the trim: airframe attitude, velocity and
    /// rates; rotor azimuth and blade states.
    pub(super) fn parameter_assignments(&self) -> Vec<(String, String, f64)> {
        let mut all: Vec<(String, String, f64)> =
            self.airframe.1.iter().map(|(n, v)| (self.airframe.0.clone(), n.clone(), *v)).collect();
        for (rotor, assignments) in &self.rotor_states.0 {
            all.extend(assignments.iter().map(|(n, v)| (rotor.clone(), n.clone(), *v)));
        }
        all
    }

    /// Sets `description` up to start on the trim: parameters, and constant control inputs.
    pub fn apply(&self, description: &mut SystemDescription) {
        for (instance, name, value) in self.parameter_assignments() {
            description.set_number_parameter(&instance, &name, value);
        }
        for (control, value) in &self.controls {
            for input in description.inputs.iter_mut().filter(|i| &i.to == control) {
                input.signal = SignalSpec::Constant(*value);
            }
        }
    }

    /// The trim figures as JSON (the `--summary-json` of `orchestrator trim`).
    pub fn to_json(&self) -> Value {
        let named = |names: &[&str], values: &[f64]| -> Value {
            names.iter().zip(values).map(|(n, v)| (n.to_string(), json!(v))).collect::<serde_json::Map<_, _>>().into()
        };
        json!({
            "condition": {
                "description": self.condition.describe(),
                "speed_m_per_s": self.condition.speed,
                "turn_rate_rad_per_s": self.condition.turn_rate,
            },
            "converged": self.converged,
            "tolerance": self.tolerance,
            "iterations": self.iterations,
            "trials": self.trials,
            "revolutions": self.revolutions,
            "wall_seconds": self.wall_seconds,
            "residual": named(&RESIDUAL_NAMES, &self.residual),
            "residual_max": max_abs(&self.residual),
            "residual_history": self.history,
            "periodicity": self.periodicity,
            "controls_rad": self.controls.iter().map(|(n, v)| (n.clone(), json!(v))).collect::<serde_json::Map<_, _>>(),
            "attitude_rad": named(&ATTITUDE_NAMES, &self.attitude),
            "body_velocity_m_per_s": named(&["u", "v", "w"], &self.velocity),
            "body_rates_rad_per_s": named(&["p", "q", "r"], &self.rates),
        })
    }

    /// A short human-readable report.
    pub fn to_text(&self) -> String {
        let mut s = format!(
            "trim ({}): {} in {} iterations, {} trials, {} rotor revolutions, {:.2} s wall\n",
            self.condition.describe(),
            if self.converged { "converged" } else { "NOT converged" },
            self.iterations,
            self.trials,
            self.revolutions,
            self.wall_seconds
        );
        for (name, value) in &self.controls {
            s += &format!("  {name:<24} {value:>10.6} rad ({:>8.4} deg)\n", value.to_degrees());
        }
        for (name, value) in ATTITUDE_NAMES.iter().zip(&self.attitude) {
            s += &format!("  {name:<24} {value:>10.6} rad ({:>8.4} deg)\n", value.to_degrees());
        }
        s += &format!(
            "  residual (max {:.2e}, tolerance {:.1e}): {}\n",
            max_abs(&self.residual),
            self.tolerance,
            RESIDUAL_NAMES
                .iter()
                .zip(&self.residual)
                .map(|(n, v)| format!("{n} {v:.2e}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        s += &format!(
            "  largest residual at the start, then after each iteration and confirmation: {}\n",
            self.history.iter().map(|r| format!("{r:.2e}")).collect::<Vec<_>>().join(" ")
        );
        s += &format!("  periodicity of the main rotor over the last revolution: {:.2e} rad", self.periodicity);
        s
    }
}
