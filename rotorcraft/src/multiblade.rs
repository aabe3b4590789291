//! Rotors of ours in a co-simulated system and Coleman's multiblade transform of their blade
//! states.

use cosim::linear::{LinearError, StateTransform, Transform};
use cosim::master::{Master, MasterError};
use nalgebra::DMatrix;

/// Why the multiblade transform does not apply to a model's states.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MultibladeError {
    /// The multiblade transform needs at least three blades with the coordinate.
    #[error("{rotor}: {blades} blades with {kind} states: the multiblade transform needs at least 3")]
    TooFewBlades {
        /// Rotor instance.
        rotor: String,
        /// Blade coordinate: `lag` or `flap`.
        kind: String,
        /// Blades found with it.
        blades: usize,
    },
    /// A blade coordinate has no rate state.
    #[error("{rotor}: blade {blade} has no {rate}")]
    MissingRate {
        /// Rotor instance.
        rotor: String,
        /// Blade number, from 1.
        blade: usize,
        /// The missing rate state (`flap_rate`, `node[k].v.z`).
        rate: String,
    },
}

/// Where a rotor instance's blades are at the operating point.
#[derive(Debug, Clone, PartialEq)]
pub struct RotorFrame {
    /// The instance name.
    pub instance: String,
    /// `blade[b].azimuth` of blades 1, 2, ..., rad.
    pub blade_azimuths: Vec<f64>,
    /// Shaft speed relative to the airframe (`shaft.rate`), rad/s.
    pub omega: f64,
}

/// The rotors of a system at one operating point: the [`StateTransform`] to multiblade
/// coordinates (see [`Rotors::multiblade`]).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Rotors {
    /// Each rotor instance's blade azimuths and shaft speed.
    pub frames: Vec<RotorFrame>,
}

impl Rotors {
    /// Blade azimuths and shaft speed, at the master's current point, of the instances that are
    /// rotors of ours (outputs `blade[k].azimuth`, k = 1, 2, ..., and `shaft.rate`).
    pub fn read(master: &mut Master) -> Result<Rotors, MasterError> {
        let mut found = Vec::new();
        for (instance, md) in master.instance_descriptions() {
            let is_output = |name: &str| md.variable(name).is_some_and(|v| v.is_output());
            if !is_output("shaft.rate") {
                continue;
            }
            let azimuths: Vec<String> =
                (1..).map(|k| format!("blade[{k}].azimuth")).take_while(|name| is_output(name)).collect();
            if !azimuths.is_empty() {
                found.push((instance.to_string(), azimuths));
            }
        }
        let mut frames = Vec::with_capacity(found.len());
        for (instance, azimuths) in found {
            let blade_azimuths = master.real_values(&instance, &azimuths)?;
            let omega = master.real_values(&instance, &["shaft.rate".to_string()])?[0];
            frames.push(RotorFrame { instance, blade_azimuths, omega });
        }
        Ok(Rotors { frames })
    }

    /// The slowest non-zero shaft speed `|Omega|`, rad/s (`None` without a turning rotor).
    pub fn slowest_speed(&self) -> Option<f64> {
        let slowest = self.frames.iter().map(|r| r.omega.abs()).filter(|w| *w > 0.0).fold(f64::INFINITY, f64::min);
        slowest.is_finite().then_some(slowest)
    }

    /// These rotors with their blades `dt` seconds further on at their shaft speed.
    pub fn turned(&self, dt: f64) -> Rotors {
        let mut turned = self.clone();
        for rotor in &mut turned.frames {
            for psi in &mut rotor.blade_azimuths {
                *psi += rotor.omega * dt;
            }
        }
        turned
    }

    /// Coleman's multiblade transform of the states `states` at these blade azimuths: for each
    /// rotor with N >= 3 blades, the lag (and flap) angles `q_b` of its blades
    /// (`instance.state.blade[b].lag`), and the elastic station coordinates
    /// `instance.state.blade[b].node[k].u.z` (rates `...v.z`; `psi` with `w`), become `q_0` (collective), `q_nc`, `q_ns` (cyclic,
    /// n = 1 ... (N-1)/2) and, for even N, `q_d` (differential), with
    /// `q_b = q_0 + sum_n (q_nc cos n psi_b + q_ns sin n psi_b) + q_d (-1)^b`. With
    /// `x = S(psi) x_m` (rates included: `q' = T q_m' + Omega T_psi q_m`), `S`, `dS/dt` at the
    /// shaft speed and the multiblade names `instance.lag.0`, `instance.lag.1c`, ..., rates
    /// `..._rate` (`instance.node[k].u.z.1c` with `instance.node[k].v.z.1c`; the identity and the same names for states of no rotor). For an isotropic
    /// rotor in hover or axial flight the transformed model is time-invariant: its eigenvalues
    /// are those of the periodic system.
    pub fn multiblade(&self, states: &[String]) -> Result<Transform, MultibladeError> {
        let n = states.len();
        let mut transform =
            Transform { s: DMatrix::identity(n, n), s_dot: DMatrix::zeros(n, n), names: states.to_vec() };
        for rotor in &self.frames {
            for (kind, rate) in blade_coordinates(states, &rotor.instance) {
                rotor_block(&mut transform, states, rotor, (&kind, &rate))?;
            }
        }
        Ok(transform)
    }
}

impl StateTransform for Rotors {
    /// [`Rotors::multiblade`] with the rotors turned on by `dt` seconds.
    fn transform(&self, states: &[String], dt: f64) -> Result<Transform, LinearError> {
        let rotors = if dt == 0.0 { self.clone() } else { self.turned(dt) };
        rotors.multiblade(states).map_err(|e| LinearError::Transform(e.to_string()))
    }
}

/// Elastic station coordinates and their rate states: displacement `u` with velocity `v`,
/// rotation `psi` with angular velocity `w` (`node[k].u.z` with `node[k].v.z`).
const STATION_RATES: [(&str, &str); 2] = [(".u.", ".v."), (".psi.", ".w.")];

/// The rate kind of blade coordinate kind `kind`: `flap_rate` for `flap`, `node[k].v.z` for
/// `node[k].u.z` ([`STATION_RATES`]); `None` when `kind` is itself a rate.
fn rate_kind(kind: &str) -> Option<String> {
    if kind.ends_with("_rate") || STATION_RATES.iter().any(|(_, rate)| kind.contains(rate)) {
        return None;
    }
    match STATION_RATES.iter().find(|(coordinate, _)| kind.contains(coordinate)) {
        Some((coordinate, rate)) => Some(kind.replacen(coordinate, rate, 1)),
        None => Some(format!("{kind}_rate")),
    }
}

/// The coordinate kinds (`lag`, `flap`, `node[k].u.z`, ...) of the blade states of rotor
/// instance `instance` with their rate kinds, in the order of `states`.
fn blade_coordinates(states: &[String], instance: &str) -> Vec<(String, String)> {
    let prefix = format!("{instance}.state.blade[");
    let mut kinds: Vec<(String, String)> = Vec::new();
    for name in states {
        if let Some(rest) = name.strip_prefix(&prefix)
            && let Some((_, kind)) = rest.split_once("].")
            && let Some(rate) = rate_kind(kind)
            && !kinds.iter().any(|(k, _)| k == kind)
        {
            kinds.push((kind.to_string(), rate));
        }
    }
    kinds
}

/// Fills in `transform` the multiblade block of coordinate `kind` (with its rate kind) of
/// `rotor`'s blades.
fn rotor_block(
    transform: &mut Transform,
    states: &[String],
    rotor: &RotorFrame,
    (kind, rate): (&str, &str),
) -> Result<(), MultibladeError> {
    let prefix = format!("{}.state.blade[", rotor.instance);
    let index = |b: usize, kind: &str| {
        let name = format!("{prefix}{}].{kind}", b + 1);
        states.iter().position(|s| *s == name)
    };
    let blades = (0..rotor.blade_azimuths.len()).take_while(|&b| index(b, kind).is_some()).count();
    if blades < 3 {
        return Err(MultibladeError::TooFewBlades { rotor: rotor.instance.clone(), kind: kind.to_string(), blades });
    }
    let angles: Vec<usize> = (0..blades).map(|b| index(b, kind).expect("counted")).collect();
    let rates: Vec<usize> = (0..blades)
        .map(|b| {
            index(b, rate).ok_or_else(|| MultibladeError::MissingRate {
                rotor: rotor.instance.clone(),
                blade: b + 1,
                rate: rate.to_string(),
            })
        })
        .collect::<Result<_, _>>()?;
    let coordinates = multiblade_names(blades);
    let omega = rotor.omega;
    let Transform { s, s_dot, names } = transform;
    for (b, (&ia, &ir)) in angles.iter().zip(&rates).enumerate() {
        let psi = rotor.blade_azimuths[b];
        for (m, (&ma, &mr)) in angles.iter().zip(&rates).enumerate() {
            let [t, t1, t2] = multiblade_entry(blades, b, m, psi);
            s[(ia, ma)] = t;
            s[(ir, mr)] = t;
            s[(ir, ma)] = omega * t1;
            s_dot[(ia, ma)] = omega * t1;
            s_dot[(ir, mr)] = omega * t1;
            s_dot[(ir, ma)] = omega * omega * t2;
        }
    }
    for (m, (&ia, &ir)) in angles.iter().zip(&rates).enumerate() {
        names[ia] = format!("{}.{kind}.{}", rotor.instance, coordinates[m]);
        names[ir] = match rate.strip_suffix("_rate") {
            Some(_) => format!("{}.{kind}.{}_rate", rotor.instance, coordinates[m]),
            None => format!("{}.{rate}.{}", rotor.instance, coordinates[m]),
        };
    }
    Ok(())
}
/// Names of the N multiblade coordinates: `0`, `1c`, `1s`, `2c`, `2s`, ..., and `d` for even N.
pub(crate) fn multiblade_names(blades: usize) -> Vec<String> {
    let mut names = vec!["0".to_string()];
    for n in 1..=(blades - 1) / 2 {
        names.push(format!("{n}c"));
        names.push(format!("{n}s"));
    }
    if blades.is_multiple_of(2) {
        names.push("d".to_string());
    }
    names
}

/// Entry (blade `b`, coordinate `m`) of the multiblade matrix `T(psi_b)` and its first and
/// second derivatives with respect to the azimuth.
pub(crate) fn multiblade_entry(blades: usize, b: usize, m: usize, psi: f64) -> [f64; 3] {
    let cyclic = (blades - 1) / 2;
    if m == 0 {
        [1.0, 0.0, 0.0]
    } else if m <= 2 * cyclic {
        let n = m.div_ceil(2) as f64;
        let (sin, cos) = (n * psi).sin_cos();
        if m % 2 == 1 { [cos, -n * sin, -n * n * cos] } else { [sin, n * cos, -n * n * sin] }
    } else {
        // Differential: (-1)^b for blade number b + 1.
        [if (b + 1).is_multiple_of(2) { 1.0 } else { -1.0 }, 0.0, 0.0]
    }
}
