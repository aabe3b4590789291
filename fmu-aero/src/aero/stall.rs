//! The `AeroDynamicStall` FMU: the Aero model with Leishman-Beddoes dynamic stall
//! ([`crate::dynamic_stall`]) at every station, its states declared for Model Exchange.
//!
//! Why a variant of its own: FMI 2.0 fixes the continuous states in `modelDescription.xml`.
//! Seven states per station for up to [`MAX_BLADES`] blades and [`DS_MAX_SECTIONS`] stations
//! would multiply the size of `Aero.xml` even with dynamic stall off; this variant declares
//! them, `Aero` does not (its `dynamic_stall = 1` is an error that names this FMU). Both share
//! the parameters, inputs, outputs and code.

use fmu_core::Warnings;
use fmu_core::declare::Tables;
use fmu_core::model::{Model, ModelInfo, Parameters, Scalar, StateVariable};
use fmu_core::params::ParameterError;

use super::model::Params;
use super::{Aero, InflowModel, SectionPolar};
use crate::dynamic_stall::{Airfoil, N_STATES, SectionFlow, StaticCurve};
use crate::inflow::Inflow;
use crate::layout::{MAX_BLADES, x, y};

/// Largest `n_sections` with dynamic stall: the variant declares `MAX_BLADES x DS_MAX_SECTIONS x 7`
/// dynamic-stall states.
pub const DS_MAX_SECTIONS: usize = 12;

/// What each dynamic-stall state is: name suffix, unit, derivative unit, description.
const STATES: [(&str, &str, &str, &str); N_STATES] = [
    ("z1", "rad", "rad/s", "first circulatory lag state of the angle of attack"),
    ("z2", "rad", "rad/s", "second circulatory lag state of the angle of attack"),
    ("zq", "", "1/s", "lagged non-dimensional pitch rate q = alpha_dot c / V (pitch-rate moment)"),
    ("cn_lag", "", "1/s", "lagged potential normal-force coefficient cn' (leading-edge pressure lag)"),
    ("f", "", "1/s", "unsteady trailing-edge separation point f'' (1 attached, 0 separated)"),
    ("cn_vortex", "", "1/s", "normal-force coefficient of the leading-edge vortex cn_v"),
    ("tau_vortex", "", "1/s", "vortex time tau_v in semi-chords since leading-edge separation"),
];

/// The rotor aerodynamics with dynamic stall (`modelIdentifier="AeroDynamicStall"`).
#[derive(Debug, Clone)]
pub struct AeroDynamicStall {
    aero: Aero,
    /// Per station: the dynamic-stall constants; empty with `dynamic_stall = 0`.
    airfoils: Vec<Airfoil>,
    /// Chord, m.
    chord: f64,
    /// `1 / speed_of_sound`, s/m.
    inverse_sound: f64,
}

/// The dynamic-stall coefficients of every station, with their state rates.
struct StallPolar<'a, D> {
    stall: &'a AeroDynamicStall,
    /// The dynamic-stall states, station `j` of blade `b` at `(b n + j) N_STATES`.
    x: &'a [D],
    /// Their rates, laid out as `x`.
    dx: &'a mut [D],
}

impl<D: Scalar> SectionPolar<D> for StallPolar<'_, D> {
    fn coefficients(&mut self, b: usize, j: usize, alpha: D, u2: D, pitch_rate: D) -> Option<[D; 3]> {
        let k = (b * self.stall.aero.n + j) * N_STATES;
        let speed = u2.sqrt();
        let flow = SectionFlow {
            alpha,
            alpha_rate: pitch_rate,
            speed,
            mach: speed * self.stall.inverse_sound,
            chord: self.stall.chord,
        };
        let c = self.stall.airfoils[j].evaluate(&self.x[k..k + N_STATES], &flow, &mut self.dx[k..k + N_STATES]);
        Some([c.cl, c.cd, c.cm * self.stall.chord])
    }
}

impl AeroDynamicStall {
    /// Number of Pitt-Peters states in front of the dynamic-stall states.
    fn n_inflow(&self) -> usize {
        if self.aero.inflow == InflowModel::PittPeters { x::N_PITT_PETERS } else { 0 }
    }

    /// The Pitt-Peters states, if any.
    fn lambda<D: Scalar>(&self, xs: &[D]) -> Option<[D; 3]> {
        let x = x::View(xs);
        (self.aero.inflow == InflowModel::PittPeters).then(|| [x.lambda0(), x.lambda_s(), x.lambda_c()])
    }

    /// The inflow from the states (Pitt-Peters, with the ground effect if any) or none.
    fn inflow<D: Scalar>(&self, xs: &[D], us: &[D]) -> Inflow<D> {
        if let Some(lambda) = self.lambda(xs) { self.aero.pitt_peters_inflow(lambda, us) } else { Inflow::zero() }
    }

    /// The constants at each station: NACA 0012's at the station's nominal Mach number
    /// `Omega r / a`, with the FMU's lift slope `a` as `CN_alpha`, its `cd0`, `alpha_stall` as
    /// `alpha1`, and a symmetric section (`alpha0 = cm0 = 0`) like the linear polar.
    fn airfoils(aero: &Aero, p: &Params) -> Vec<Airfoil> {
        (0..aero.n)
            .map(|j| {
                let table = Airfoil::naca0012(p.omega * aero.r[j] / p.speed_of_sound);
                let StaticCurve::Exponential { s1, s2, .. } = table.curve;
                Airfoil {
                    cn_alpha: p.lift_slope,
                    alpha0: 0.0,
                    cd0: p.cd0,
                    cm0: 0.0,
                    curve: StaticCurve::Exponential { alpha1: p.alpha_stall, s1, s2 },
                    ..table
                }
            })
            .collect()
    }
}

impl Model for AeroDynamicStall {
    const INFO: ModelInfo = ModelInfo {
        model_name: "AeroDynamicStall",
        model_identifier: "AeroDynamicStall",
        description: "The Aero model (blade-element lifting line, no or Pitt-Peters inflow) with Leishman-Beddoes \
                      dynamic stall at every station (dynamic_stall = 1): 7 states per station",
        default_stop_time: 1.0,
        default_step_size: 0.001,
    };

    const TABLES: Tables = crate::layout::TABLES;

    /// The dynamic-stall rates that an output evaluation computes and drops.
    type Work<D: Scalar> = Vec<D>;

    fn work<D: Scalar>(&self) -> Vec<D> {
        vec![D::from(0.0); self.n_states() - self.n_inflow()]
    }

    fn configure(params: &dyn Parameters) -> Result<Self, ParameterError> {
        let p = Params::read(params)?;
        if p.inflow == InflowModel::PetersHe {
            return Err("parameter 'inflow_model' = 3 (Peters-He) needs the Aero FMU (AeroDynamicStall declares no \
                        Peters-He states)"
                .into());
        }
        let aero = Aero::from_params(&p);
        let airfoils = if p.dynamic_stall {
            if p.inflow == InflowModel::Uniform {
                return Err("parameter 'dynamic_stall' = 1 needs 'inflow_model' 0 (none) or 2 (Pitt-Peters)".into());
            }
            if p.n > DS_MAX_SECTIONS {
                return Err(format!("parameter 'dynamic_stall' = 1 needs 'n_sections' <= {DS_MAX_SECTIONS}").into());
            }
            if aero.sections.is_some() {
                return Err(
                    "parameter 'dynamic_stall' = 1 takes the analytic airfoil without options: set 'airfoil', \
                            'airfoil_inboard', 'tip_loss' and 'compressibility' to 0"
                        .into(),
                );
            }
            Self::airfoils(&aero, &p)
        } else {
            Vec::new()
        };
        Ok(AeroDynamicStall { aero, airfoils, chord: p.chord, inverse_sound: 1.0 / p.speed_of_sound })
    }

    fn n_states(&self) -> usize {
        self.n_inflow() + if self.airfoils.is_empty() { 0 } else { self.aero.nb * self.aero.n * N_STATES }
    }

    /// The Pitt-Peters states, then the dynamic-stall states of steady attached flow at zero
    /// angle of attack.
    fn initial_state(&self, xs: &mut [f64]) {
        let m = self.n_inflow();
        xs[..m].copy_from_slice(&self.aero.lambda_start[..m]);
        for (k, section) in xs[m..].chunks_mut(N_STATES).enumerate() {
            section.copy_from_slice(&self.airfoils[k % self.aero.n].steady_state(0.0));
        }
    }

    fn state_variables() -> Vec<StateVariable> {
        let mut states = Self::TABLES.states();
        for b in 1..=MAX_BLADES {
            for j in 1..=DS_MAX_SECTIONS {
                states.extend(STATES.iter().map(|&(name, unit, rate_unit, what)| {
                    let description = format!("Dynamic stall at station {j} of blade {b}: {what} (dynamic_stall = 1)");
                    StateVariable::new(&format!("blade[{b}].station[{j}].{name}"), unit, rate_unit, description, 1.0)
                }));
            }
        }
        states
    }

    fn state_indices(&self) -> Vec<usize> {
        let inflow = (0..self.n_inflow()).collect::<Vec<_>>();
        let (nb, n) = if self.airfoils.is_empty() { (0, 0) } else { (self.aero.nb, self.aero.n) };
        let stall = (0..nb).flat_map(|b| {
            (0..n).flat_map(move |j| {
                (0..N_STATES).map(move |k| x::N_PITT_PETERS + (b * DS_MAX_SECTIONS + j) * N_STATES + k)
            })
        });
        inflow.into_iter().chain(stall).collect()
    }

    fn derivatives<D: Scalar>(&self, _work: &mut Vec<D>, _t: D, xs: &[D], us: &[D], dx: &mut [D]) {
        let m = self.n_inflow();
        let inflow = self.inflow(xs, us);
        let (dx_inflow, dx_stall) = dx.split_at_mut(m);
        let loads = if self.airfoils.is_empty() {
            self.aero.loads(us, &inflow)
        } else {
            dx_stall.iter_mut().for_each(|v| *v = D::from(0.0));
            self.aero.loads_with_polar(us, &inflow, &mut StallPolar { stall: self, x: &xs[m..], dx: dx_stall })
        };
        if let Some(lambda) = self.lambda(xs) {
            self.aero.pitt_peters_derivatives(us, lambda, &loads, dx_inflow);
        }
    }

    fn outputs<D: Scalar>(&self, work: &mut Vec<D>, t: D, xs: &[D], us: &[D], ys: &mut [D]) {
        self.outputs_warm(work, t, xs, us, &[0.0; y::N], ys);
    }

    fn outputs_warm<D: Scalar>(&self, work: &mut Vec<D>, t: D, xs: &[D], us: &[D], y_prev: &[f64], ys: &mut [D]) {
        if self.airfoils.is_empty() {
            return self.aero.outputs_warm(&mut Warnings::default(), t, xs, us, y_prev, ys);
        }
        let m = self.n_inflow();
        let inflow = self.inflow(xs, us);
        let loads = self.aero.loads_with_polar(us, &inflow, &mut StallPolar { stall: self, x: &xs[m..], dx: work });
        self.aero.write_outputs(xs, us, &inflow, &loads, ys);
    }

    fn tolerances(&self) -> (f64, f64) {
        self.aero.tolerances()
    }
}
