//! A trial: one co-simulation of the system held on the steady motion, and its
//! revolution-averaged residual.

use cosim::master::{FmuCache, Master};
use cosim::system::{Experiment, SignalSpec, SystemDescription};
use rotorcraft::TrimSpec;

use super::trimmer::parameter_value;
use super::{FlightCondition, RESIDUAL_NAMES, RotorStates, TrimError, Trimmer};

/// One co-simulated trial.
pub(super) struct Trial {
    pub(super) residual: [f64; 6],
    pub(super) periodicity: f64,
    pub(super) end_state: RotorStates,
}

impl Trimmer<'_> {
    /// (`dof_mask = 0`), rotors started on `warm`, `revolutions` revolutions.
    pub(super) fn trial_description(
        &self,
        condition: FlightCondition,
        x: &[f64; 6],
        warm: &RotorStates,
        revolutions: u32,
    ) -> SystemDescription {
        let n = self.steps_per_revolution;
        let mut d = self.base.clone();
        for (control, value) in self.spec.controls.iter().zip(x) {
            for input in d.inputs.iter_mut().filter(|i| &i.to == control) {
                input.signal = SignalSpec::Constant(*value);
            }
        }
        let (velocity, rates) = condition.body_motion(x[4], x[5]);
        let airframe = self.spec.airframe.clone();
        for (name, value) in airframe_parameters(x, velocity, rates) {
            d.set_number_parameter(&airframe, &name, value);
        }
        d.set_number_parameter(&airframe, "dof_mask", 0.0);
        for (instance, assignments) in &warm.0 {
            for (name, value) in assignments {
                d.set_number_parameter(instance, name, *value);
            }
        }
        d.experiment = Experiment { start: 0.0, stop: revolutions as f64 * self.period, step: self.period / n as f64 };
        let mut outputs: Vec<String> = RESIDUAL_NAMES.iter().map(|r| format!("{airframe}.{r}")).collect();
        for (rotor, nb, _) in &self.rotors {
            outputs.push(format!("{rotor}.azimuth"));
            for i in 1..=*nb {
                outputs.extend(BLADE_STATES.iter().map(|s| format!("{rotor}.blade[{i}].{s}")));
            }
        }
        d.outputs = Some(outputs);
        d
    }

    /// One trial: the system held on the steady motion at `x`, started on `warm`, run
    /// `settle + 1` revolutions; the residual is averaged over the last.
    pub(super) fn trial(
        &mut self,
        condition: FlightCondition,
        x: &[f64; 6],
        warm: &RotorStates,
        settle: u32,
    ) -> Result<Trial, TrimError> {
        let n = self.steps_per_revolution;
        let revolutions = settle + 1;
        let airframe = self.spec.airframe.clone();
        let d = self.trial_description(condition, x, warm, revolutions);
        let fmus = &mut *self.fmus;
        let system = d.resolve(|path| fmus.description(path)).map_err(TrimError::TrialSystem)?;
        let mut master = Master::new(system, fmus, self.logger.clone())?;
        let results = master.run(|_| {}).map_err(|error| TrimError::Trial { unknowns: *x, error: Box::new(error) })?;
        self.trials += 1;
        self.revolutions += revolutions;

        let column = |name: String| {
            results.column(&name).ok_or_else(|| TrimError::Missing(format!("no recorded column '{name}'")))
        };
        let last = results.time.len() - 1;
        let window = revolution_window(n);
        let mut residual = [0.0; 6];
        for (r, name) in residual.iter_mut().zip(RESIDUAL_NAMES) {
            let values = column(format!("{airframe}.{name}"))?;
            *r = values[last - n..last].iter().zip(&window).map(|(v, w)| v * w).sum::<f64>();
        }
        self.check_initialized_outputs(&master);
        if residual.iter().any(|r| !r.is_finite()) {
            return Err(TrimError::NonFiniteResidual { unknowns: *x, residual });
        }
        let mut periodicity = 0.0f64;
        let mut end_state = Vec::new();
        for (k, (rotor, nb, carried)) in self.rotors.iter().enumerate() {
            let azimuth = column(format!("{rotor}.azimuth"))?[last];
            let mut assignments = vec![("psi0".to_string(), azimuth.rem_euclid(2.0 * std::f64::consts::PI))];
            for i in 1..=*nb {
                for (s, initial) in BLADE_STATES.iter().zip(BLADE_INITIAL) {
                    let values = column(format!("{rotor}.blade[{i}].{s}"))?;
                    if let Some((beta0, zeta0)) = carried {
                        let offset = match *s {
                            "lag" => *zeta0,
                            "flap" => *beta0,
                            _ => 0.0,
                        };
                        assignments.push((format!("blade[{i}].{initial}"), values[last] - offset));
                    }
                    if k == 0 {
                        let scale = if s.ends_with("rate") { self.period / (2.0 * std::f64::consts::PI) } else { 1.0 };
                        periodicity = periodicity.max((values[last] - values[last - n]).abs() * scale);
                    }
                }
            }
            end_state.push((rotor.clone(), assignments));
        }
        Ok(Trial { residual, periodicity, end_state: RotorStates(end_state) })
    }
}

impl Trimmer<'_> {
    /// Warns, once, about an FMU the trial's master found not to compute its outputs in
    /// initialization mode ([`Master::uninitialized_outputs`]): every trial (and run) starts with
    /// them at zero for one step, which a warm-started trial cannot undo (for an aerodynamics FMU,
    /// a step without loads whose rotor transient differs with the trial's length: the trim may
    /// not converge).
    fn check_initialized_outputs(&mut self, master: &Master) {
        if self.warned_uninitialized {
            return;
        }
        for instance in master.uninitialized_outputs() {
            let consequence = "every trial starts with them at 0 for one step and the trim may not converge";
            self.logger.log(
                "trim",
                cosim::import::Status::Warning,
                "logStatusWarning",
                &super::uninitialized_outputs_warning(instance, consequence),
            );
            self.warned_uninitialized = true;
        }
    }
}

/// Rotor outputs carried from trial to trial, and the parameters they start the next one with.
const BLADE_STATES: [&str; 4] = ["lag", "flap", "lag_rate", "flap_rate"];
const BLADE_INITIAL: [&str; 4] = ["dlag0", "dflap0", "lag_rate0", "flap_rate0"];

/// Airframe parameters for attitude `x[4..6]` and the steady motion.
pub(super) fn airframe_parameters(x: &[f64; 6], velocity: [f64; 3], rates: [f64; 3]) -> Vec<(String, f64)> {
    let mut p = vec![("phi0".to_string(), x[4]), ("theta0".to_string(), x[5]), ("psi0".to_string(), 0.0)];
    for (name, v) in ["u0", "v0", "w0"].iter().zip(velocity) {
        p.push((name.to_string(), v));
    }
    for (name, v) in ["p0", "q0", "r0"].iter().zip(rates) {
        p.push((name.to_string(), v));
    }
    p
}

/// How far a run's start is from trim: the airframe's `free.*` accelerations (columns
/// `<airframe>.free.*` of `results`) averaged as a trim averages them, over the first main-rotor
/// revolution of the run. `None` when the run is shorter than one revolution.
pub fn start_residual(
    description: &SystemDescription,
    fmus: &mut FmuCache,
    results: &cosim::master::Results,
) -> Result<Option<[f64; 6]>, TrimError> {
    let spec = TrimSpec::of(description)
        .map_err(|e| TrimError::Spec(e.to_string()))?
        .ok_or(TrimError::Spec("the system has no 'trim' section".into()))?;
    let rotor = spec.rotors.first().ok_or(TrimError::Spec("trim.rotors is empty".into()))?;
    let omega = parameter_value(description, fmus, rotor, "Omega")?;
    let n = (2.0 * std::f64::consts::PI / omega.abs() / description.experiment.step).round() as usize;
    if n < 8 || results.time.len() <= n {
        return Ok(None);
    }
    let window = revolution_window(n);
    let mut residual = [0.0; 6];
    for (r, name) in residual.iter_mut().zip(RESIDUAL_NAMES) {
        let values = results
            .column(&format!("{}.{name}", spec.airframe))
            .ok_or_else(|| TrimError::Missing(format!("'{}.{name}' is not recorded", spec.airframe)))?;
        *r = values[..n].iter().zip(&window).map(|(v, w)| v * w).sum();
    }
    Ok(Some(residual))
}

/// Averaging weights over one revolution of `n` samples: the periodic Hann window
/// `(1 - cos(2 pi k / n)) / n`. It returns the mean exactly and removes every harmonic of 2/rev
/// and above exactly (a main rotor's loads in periodic steady state hold only multiples of nb/rev),
/// and it suppresses loads at frequencies incommensurate with the revolution (a tail rotor's)
/// by its sidelobes, falling with the cube of the frequency: about 3e-4 of the amplitude at 10/rev,
/// where a plain revolution mean would leave 3e-2.
fn revolution_window(n: usize) -> Vec<f64> {
    (0..n).map(|k| (1.0 - (2.0 * std::f64::consts::PI * k as f64 / n as f64).cos()) / n as f64).collect()
}
