//! The [`Trimmer`]: a system's `trim` section checked against its FMUs, and the trials' state.

use std::sync::Arc;

use cosim::import::FmuLogger;
use cosim::master::FmuCache;
use cosim::system::{SignalSpec, SystemDescription};
use rotorcraft::TrimSpec;

use super::{TrimError, TrimStart};

/// Runs trials of one system.
pub struct Trimmer<'a> {
    pub(super) base: SystemDescription,
    pub(super) spec: TrimSpec,
    pub(super) fmus: &'a mut FmuCache,
    pub(super) logger: Arc<dyn FmuLogger>,
    /// Main-rotor revolution, s.
    pub(super) period: f64,
    /// Communication steps per revolution.
    pub(super) steps_per_revolution: usize,
    /// Per rotor: instance, blade count, and `(blade.beta0, blade.zeta0)` when its blade states
    /// are carried from trial to trial (`None`: a rotor without the rigid blades' initial-state
    /// parameters, RotorElastic: only its azimuth is carried, its blades start every trial from
    /// the FMU's own initial state).
    pub(super) rotors: Vec<(String, usize, Option<BladeOffsets>)>,
    pub(super) trials: u32,
    pub(super) revolutions: u32,
    /// Whether an FMU has been named for outputs it does not compute in initialization mode.
    pub(super) warned_uninitialized: bool,
}

/// A rigid Rotor's `(blade.beta0, blade.zeta0)`, rad: the offsets of its carried blade states.
pub(super) type BladeOffsets = (f64, f64);

impl<'a> Trimmer<'a> {
    /// Checks the `trim` section of `description` against its FMUs.
    pub fn new(
        description: &SystemDescription,
        fmus: &'a mut FmuCache,
        logger: Arc<dyn FmuLogger>,
    ) -> Result<Self, TrimError> {
        let spec = TrimSpec::of(description).map_err(|e| TrimError::Spec(e.to_string()))?.ok_or(TrimError::Spec(
            "the system has no 'trim' section (airframe, controls, rotors): see the system description format".into(),
        ))?;
        let instance = |name: &str, field: &str| -> Result<(), TrimError> {
            if description.fmus.iter().any(|(n, _)| n == name) {
                Ok(())
            } else {
                Err(TrimError::Spec(format!("trim.{field}: no instance '{name}' in fmus")))
            }
        };
        instance(&spec.airframe, "airframe")?;
        if spec.controls.len() != 4 {
            return Err(TrimError::Spec(format!(
                "trim.controls: name the 4 pilot inputs (collective, lon_cyclic, lat_cyclic, pedal), got {}",
                spec.controls.len()
            )));
        }
        for (k, control) in spec.controls.iter().enumerate() {
            match description.inputs.iter().find(|i| &i.to == control) {
                Some(input) if matches!(input.signal, SignalSpec::Constant(_)) => {}
                Some(_) => {
                    return Err(TrimError::Spec(format!(
                        "trim.controls[{k}]: the input '{control}' must be a constant signal"
                    )));
                }
                None => {
                    return Err(TrimError::Spec(format!(
                        "trim.controls[{k}]: '{control}' is not the 'to' of an entry of inputs"
                    )));
                }
            }
        }
        if spec.rotors.is_empty() {
            return Err(TrimError::Spec("trim.rotors: name at least the main rotor instance".into()));
        }
        if !(spec.tolerance > 0.0 && spec.tolerance.is_finite()) {
            return Err(TrimError::Spec(format!("trim.tolerance must be > 0, got {}", spec.tolerance)));
        }
        let mut rotors = Vec::new();
        for (k, name) in spec.rotors.iter().enumerate() {
            instance(name, &format!("rotors[{k}]"))?;
            let rigid_blades = has_variable(description, fmus, name, "blade[1].dflap0")?;
            let mut number = |parameter: &str| -> Result<f64, TrimError> {
                parameter_value(description, fmus, name, parameter)
                    .map_err(|e| TrimError::Spec(format!("trim.rotors[{k}]: instance '{name}': {e}")))
            };
            let carried = match rigid_blades {
                true => Some((number("blade.beta0")?, number("blade.zeta0")?)),
                false => None,
            };
            rotors.push((name.clone(), number("nb")? as usize, carried));
        }
        let omega = parameter_value(description, fmus, &spec.rotors[0], "Omega")
            .map_err(|e| TrimError::Spec(format!("trim.rotors[0]: {e}")))?;
        if !(omega.abs() > 0.0 && omega.is_finite()) {
            return Err(TrimError::Spec(format!(
                "trim.rotors[0]: the rotor speed Omega must be non-zero, got {omega}"
            )));
        }
        let period = 2.0 * std::f64::consts::PI / omega.abs();
        let steps_per_revolution = (period / description.experiment.step).round().max(8.0) as usize;
        Ok(Self {
            base: description.clone(),
            spec,
            fmus,
            logger,
            period,
            steps_per_revolution,
            rotors,
            trials: 0,
            revolutions: 0,
            warned_uninitialized: false,
        })
    }

    /// The starting point written in the system: its control constants and airframe attitude.
    pub fn start_from_system(&self) -> TrimStart {
        let mut unknowns = [0.0; 6];
        for (u, control) in unknowns.iter_mut().zip(&self.spec.controls) {
            if let Some(SignalSpec::Constant(v)) = self.base.inputs.iter().find(|i| &i.to == control).map(|i| &i.signal)
            {
                *u = *v;
            }
        }
        for (k, name) in ["phi0", "theta0"].iter().enumerate() {
            unknowns[4 + k] = self.base.number_parameter(&self.spec.airframe, name).unwrap_or(0.0);
        }
        TrimStart { unknowns, rotor_states: None, jacobian: None }
    }

    /// Main-rotor revolution, s.
    pub fn period(&self) -> f64 {
        self.period
    }
}

/// The value of parameter `name` of `instance`: as written, or the FMU's start value.
/// Whether the FMU of `instance` declares the variable `name`.
fn has_variable(d: &SystemDescription, fmus: &mut FmuCache, instance: &str, name: &str) -> Result<bool, TrimError> {
    let path = d.fmu_file(instance).map_err(|e| TrimError::Spec(e.to_string()))?;
    Ok(fmus.open(&path)?.model_description().variable(name).is_some())
}

pub(super) fn parameter_value(
    d: &SystemDescription,
    fmus: &mut FmuCache,
    instance: &str,
    name: &str,
) -> Result<f64, TrimError> {
    if let Some(v) = d.number_parameter(instance, name) {
        return Ok(v);
    }
    let path = d.fmu_file(instance).map_err(|e| TrimError::Spec(e.to_string()))?;
    let fmu = fmus.open(&path)?;
    let variable = fmu
        .model_description()
        .variable(name)
        .ok_or_else(|| TrimError::Spec(format!("the FMU has no parameter '{name}' (is it our Rotor.fmu?)")))?;
    variable
        .start
        .as_deref()
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| TrimError::Spec(format!("parameter '{name}' has no numeric start value")))
}
