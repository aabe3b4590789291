//! Linear state-space models of the coupled system (from [`crate::master::Master::linearize`]):
//! eigenvalues, mode shapes named by participation, and the files they are read from (JSON and
//! MAT v4 for MATLAB, Octave and SciPy).
//!
//! What the states mean is the application's: a [`StateTransform`] changes the state
//! coordinates (e.g. to a frame in which a periodic system is time-invariant) and a
//! [`ModeNaming`] says which states name a mode together. [`Identity`] and [`StateNames`] are
//! the generic defaults.

use std::io::{self, Write};

use nalgebra::{Complex, DMatrix, DVector};
use serde_json::{Value, json};

use crate::result_files;

mod modes;

pub use modes::floquet;
use modes::{named_modes, sort_modes};

/// Why a linear model could not be transformed or queried.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LinearError {
    /// The [`StateTransform`] does not apply to the model's states (its message).
    #[error("{0}")]
    Transform(String),
    /// The state transform matrix cannot be inverted.
    #[error("the state transform is singular")]
    SingularTransform,
    /// No input of that name.
    #[error("'{input}' is not an input of the linear model (inputs: {inputs})")]
    UnknownInput {
        /// The name asked for.
        input: String,
        /// The model's inputs, comma-separated.
        inputs: String,
    },
    /// No output of that name.
    #[error("'{0}' is not an output of the linear model (the system's recorded outputs)")]
    UnknownOutput(String),
    /// The real Schur iteration for the eigenvalues did not converge, on the matrix nor on the
    /// similar ones tried.
    #[error(
        "the eigenvalues of the {size} x {size} {matrix} did not converge in {iterations} iterations of the real \
         Schur form (nor on its transpose, a scaled or a rotated similar matrix)"
    )]
    NoConvergence {
        /// What the matrix is, e.g. `state matrix A`.
        matrix: &'static str,
        /// Its number of rows and columns.
        size: usize,
        /// The iteration limit of each attempt.
        iterations: usize,
    },
    /// Floquet samples of different state sets.
    #[error("the samples have different states ({0} and {1})")]
    DifferentStates(usize, usize),
}

/// `x' = A x + B u`, `y = C x + D u` in deviations from an operating point.
#[derive(Debug, Clone)]
pub struct LinearModel {
    /// Time of the operating point, s.
    pub time: f64,
    /// `instance.state` of each state.
    pub state_names: Vec<String>,
    /// `instance.input` of each input.
    pub input_names: Vec<String>,
    /// `instance.variable` of each output.
    pub output_names: Vec<String>,
    /// States at the operating point.
    pub x0: Vec<f64>,
    /// State derivatives at the operating point (zero at an equilibrium).
    pub dx0: Vec<f64>,
    /// Inputs at the operating point.
    pub u0: Vec<f64>,
    /// Outputs at the operating point.
    pub y0: Vec<f64>,
    /// `dx'/dx`.
    pub a: DMatrix<f64>,
    /// `dx'/du`.
    pub b: DMatrix<f64>,
    /// `dy/dx`.
    pub c: DMatrix<f64>,
    /// `dy/du`.
    pub d: DMatrix<f64>,
}

/// A change of state coordinates `x = S x_t` at one time ([`StateTransform::transform`]).
#[derive(Debug, Clone)]
pub struct Transform {
    /// `S`: the model's states from the transformed ones.
    pub s: DMatrix<f64>,
    /// `dS/dt`.
    pub s_dot: DMatrix<f64>,
    /// The names of the transformed states.
    pub names: Vec<String>,
}

/// A time-dependent change of a linear model's state coordinates, as
/// [`LinearModel::transformed`] and [`floquet`] use it: the application's knowledge of what
/// the states are (e.g. states in a rotating frame taken to a fixed one).
pub trait StateTransform {
    /// The transform for the states `states` at `dt` seconds after the operating point it was
    /// taken at (the identity and the same names where it changes nothing).
    fn transform(&self, states: &[String], dt: f64) -> Result<Transform, LinearError>;
}

/// The generic [`StateTransform`]: the states as they are.
#[derive(Debug, Clone, Copy, Default)]
pub struct Identity;

impl StateTransform for Identity {
    fn transform(&self, states: &[String], _dt: f64) -> Result<Transform, LinearError> {
        let n = states.len();
        Ok(Transform { s: DMatrix::identity(n, n), s_dot: DMatrix::zeros(n, n), names: states.to_vec() })
    }
}

/// Which states name a mode together, and the final form of a mode's name: the application's
/// naming rules ([`LinearModel::modes`], [`floquet`]).
pub trait ModeNaming {
    /// The group of the state `state` (`instance.variable`): a mode is named by the group of
    /// its largest participation.
    fn group(&self, state: &str) -> String;

    /// Refines the name of `mode` (named by its group) from its eigenvalue; the default keeps it.
    fn label(&self, _mode: &mut Mode) {}
}

/// The generic [`ModeNaming`]: each state is a group of its own.
#[derive(Debug, Clone, Copy, Default)]
pub struct StateNames;

impl ModeNaming for StateNames {
    fn group(&self, state: &str) -> String {
        state.to_string()
    }
}

/// Where a transformed model differs most from the same system's at another time
/// ([`LinearModel::time_dependence`]).
#[derive(Debug, Clone, PartialEq)]
pub struct TimeDependence {
    /// The largest `|A_1 - A_2|` entry (units of that entry of `A`).
    pub difference: f64,
    /// `difference` over the largest `|A_1|` entry.
    pub relative: f64,
    /// The state of that entry's row (its derivative).
    pub row: String,
    /// The state of that entry's column.
    pub column: String,
}

impl TimeDependence {
    /// Relative differences above this are not round-off: the transformed system depends on the
    /// time (periodic coefficients) and its eigenvalues describe the snapshot only.
    pub const TOLERANCE: f64 = 1e-6;

    /// The system depends on the time beyond round-off.
    pub fn is_periodic(&self) -> bool {
        self.relative > Self::TOLERANCE
    }
}

/// One eigenvalue of `A` with its mode.
#[derive(Debug, Clone)]
pub struct Mode {
    /// The eigenvalue, 1/s.
    pub eigenvalue: Complex<f64>,
    /// Damped frequency `|Im| / 2 pi`, Hz.
    pub frequency_hz: f64,
    /// Damping ratio `-Re / |lambda|` (`None` for a zero eigenvalue).
    pub damping: Option<f64>,
    /// The state group ([`ModeNaming::group`]) with the largest participation.
    pub name: String,
    /// The largest participations, `(group, share)`, shares summing to 1 over all groups.
    pub participation: Vec<(String, f64)>,
}

impl LinearModel {
    /// A model of the given dimensions with zero matrices and no operating point yet.
    pub fn new(state_names: Vec<String>, input_names: Vec<String>, output_names: Vec<String>, time: f64) -> Self {
        let (n, m, p) = (state_names.len(), input_names.len(), output_names.len());
        LinearModel {
            time,
            x0: vec![0.0; n],
            dx0: vec![0.0; n],
            u0: vec![0.0; m],
            y0: vec![0.0; p],
            a: DMatrix::zeros(n, n),
            b: DMatrix::zeros(n, m),
            c: DMatrix::zeros(p, n),
            d: DMatrix::zeros(p, m),
            state_names,
            input_names,
            output_names,
        }
    }

    /// States that take no part: constant (zero row of `A` and `B`, zero derivative) and
    /// influencing nothing (zero column of `A` and `C`), such as declared states of unused
    /// parts of a model.
    pub fn inert_states(&self) -> Vec<usize> {
        (0..self.state_names.len())
            .filter(|&i| {
                self.dx0[i] == 0.0
                    && self.a.row(i).iter().all(|&v| v == 0.0)
                    && self.b.row(i).iter().all(|&v| v == 0.0)
                    && self.a.column(i).iter().all(|&v| v == 0.0)
                    && self.c.column(i).iter().all(|&v| v == 0.0)
            })
            .collect()
    }

    /// The model without the states in `removed` (indices, as [`LinearModel::inert_states`]).
    pub fn without_states(&self, removed: &[usize]) -> LinearModel {
        let keep: Vec<usize> = (0..self.state_names.len()).filter(|i| !removed.contains(i)).collect();
        let pick = |v: &[f64]| keep.iter().map(|&i| v[i]).collect::<Vec<f64>>();
        LinearModel {
            time: self.time,
            state_names: keep.iter().map(|&i| self.state_names[i].clone()).collect(),
            input_names: self.input_names.clone(),
            output_names: self.output_names.clone(),
            x0: pick(&self.x0),
            dx0: pick(&self.dx0),
            u0: self.u0.clone(),
            y0: self.y0.clone(),
            a: self.a.select_rows(&keep).select_columns(&keep),
            b: self.b.select_rows(&keep),
            c: self.c.select_columns(&keep),
            d: self.d.clone(),
        }
    }

    /// The model in the coordinates of `transform` at its operating point (see
    /// [`LinearModel::transformed_at`]).
    pub fn transformed(&self, transform: &dyn StateTransform) -> Result<LinearModel, LinearError> {
        self.transformed_at(transform, 0.0)
    }

    /// The model in the coordinates of `transform` taken `dt` seconds after its operating
    /// point: with `x = S x_t`, `x_t' = S^-1 (A S - S') x_t + S^-1 B u`, `y = C S x_t + D u`.
    pub fn transformed_at(&self, transform: &dyn StateTransform, dt: f64) -> Result<LinearModel, LinearError> {
        let Transform { s, s_dot, names } = transform.transform(&self.state_names, dt)?;
        let s_inv = s.clone().try_inverse().ok_or(LinearError::SingularTransform)?;
        let x0 = &s_inv * DVector::from_column_slice(&self.x0);
        let dx0 = &s_inv * (DVector::from_column_slice(&self.dx0) - &s_dot * &x0);
        Ok(LinearModel {
            time: self.time,
            state_names: names,
            input_names: self.input_names.clone(),
            output_names: self.output_names.clone(),
            x0: x0.iter().copied().collect(),
            dx0: dx0.iter().copied().collect(),
            u0: self.u0.clone(),
            y0: self.y0.clone(),
            a: &s_inv * (&self.a * &s - &s_dot),
            b: &s_inv * &self.b,
            c: &self.c * &s,
            d: self.d.clone(),
        })
    }

    /// The largest difference between this model's `A` and `other`'s (the same states, e.g. the
    /// same system in transformed coordinates at a second time), named by its row and column
    /// states; `None` when the two have different states.
    pub fn time_dependence(&self, other: &LinearModel) -> Option<TimeDependence> {
        if self.state_names != other.state_names || self.state_names.is_empty() {
            return None;
        }
        let n = self.state_names.len();
        let (mut worst, mut at) = (-1.0, (0, 0));
        for r in 0..n {
            for c in 0..n {
                let d = (self.a[(r, c)] - other.a[(r, c)]).abs();
                if d > worst {
                    (worst, at) = (d, (r, c));
                }
            }
        }
        let scale = self.a.amax();
        Some(TimeDependence {
            difference: worst,
            relative: if scale > 0.0 { worst / scale } else { 0.0 },
            row: self.state_names[at.0].clone(),
            column: self.state_names[at.1].clone(),
        })
    }

    /// Eigenvalues of `A` (real Schur form with an iteration limit) with their modes named by
    /// `naming`, sorted by frequency, then by real part; an error where the eigenvalues do not
    /// converge.
    pub fn modes(&self, naming: &dyn ModeNaming) -> Result<Vec<Mode>, LinearError> {
        let n = self.state_names.len();
        if n == 0 {
            return Ok(Vec::new());
        }
        let zero = neutral_below([self]);
        let lambdas = modes::eigenvalues(&self.a, "state matrix A")?;
        let mut modes = named_modes(&self.a, &lambdas, &self.state_groups(naming), zero);
        for mode in &mut modes {
            naming.label(mode);
        }
        sort_modes(&mut modes);
        Ok(modes)
    }

    /// A right eigenvector of `A` for its eigenvalue `lambda` (a [`Mode::eigenvalue`]), unit
    /// 2-norm, by inverse iteration: the mode's shape over the states, complex (its phase
    /// arbitrary).
    pub fn eigenvector(&self, lambda: Complex<f64>) -> DVector<Complex<f64>> {
        modes::inverse_iteration(&self.a.map(|x| Complex::new(x, 0.0)), lambda, &[])
    }

    /// The group of each state for naming modes ([`ModeNaming::group`]), with a coordinate
    /// whose derivative is exactly another state (`x_i' = x_j`: a row of `A` that is a unit
    /// vector to [`KINEMATIC`], no input) counted with that state, as a body's position with
    /// its velocity while its attitude is level.
    pub(crate) fn state_groups(&self, naming: &dyn ModeNaming) -> Vec<String> {
        let mut groups: Vec<String> = self.state_names.iter().map(|s| naming.group(s)).collect();
        let n = self.state_names.len();
        for i in 0..n {
            let row = self.a.row(i);
            let j = row.iamax_full().1;
            let others: f64 = row.iter().map(|v| v.abs()).sum::<f64>() - row[j].abs();
            let inputs: f64 = self.b.row(i).iter().map(|v| v.abs()).sum();
            if j != i && (row[j] - 1.0).abs() <= KINEMATIC && others + inputs <= KINEMATIC {
                groups[j] = groups[i].clone();
            }
        }
        groups
    }

    /// The model and its modes as JSON (`linearize --out`): names, operating point, matrices as
    /// arrays of rows, eigenvalues with frequency, damping and mode name.
    pub fn to_json(&self, modes: &[Mode], inert: &[String]) -> Value {
        let rows = |m: &DMatrix<f64>| -> Value {
            (0..m.nrows()).map(|r| m.row(r).iter().copied().collect::<Vec<f64>>()).collect::<Vec<_>>().into()
        };
        let eigenvalues: Vec<Value> = modes
            .iter()
            .map(|m| {
                json!({
                    "re": m.eigenvalue.re,
                    "im": m.eigenvalue.im,
                    "frequency_hz": m.frequency_hz,
                    "damping": m.damping,
                    "mode": m.name,
                    "participation": m.participation.iter().map(|(g, s)| json!({"states": g, "share": s})).collect::<Vec<_>>(),
                })
            })
            .collect();
        json!({
            "time": self.time,
            "states": self.state_names,
            "inputs": self.input_names,
            "outputs": self.output_names,
            "inert_states_removed": inert,
            "x0": self.x0,
            "dx0": self.dx0,
            "u0": self.u0,
            "y0": self.y0,
            "A": rows(&self.a),
            "B": rows(&self.b),
            "C": rows(&self.c),
            "D": rows(&self.d),
            "eigenvalues": eigenvalues,
        })
    }

    /// The model as a MAT v4 file (`load lin.mat` in MATLAB or Octave, `scipy.io.loadmat`):
    /// `A`, `B`, `C`, `D`, `x0`, `u0`, `y0`, `eigenvalues` (`n x 2`: real, imaginary) and the
    /// names as character matrices `states`, `inputs`, `outputs` (one name per row).
    pub fn write_mat(&self, modes: &[Mode], out: &mut impl Write) -> io::Result<()> {
        for (name, m) in [("A", &self.a), ("B", &self.b), ("C", &self.c), ("D", &self.d)] {
            result_files::write_real_matrix(out, name, m.nrows(), m.ncols(), m.as_slice())?;
        }
        for (name, v) in [("x0", &self.x0), ("u0", &self.u0), ("y0", &self.y0)] {
            result_files::write_real_matrix(out, name, v.len(), 1, v)?;
        }
        let columns: Vec<f64> =
            modes.iter().map(|m| m.eigenvalue.re).chain(modes.iter().map(|m| m.eigenvalue.im)).collect();
        result_files::write_real_matrix(out, "eigenvalues", modes.len(), 2, &columns)?;
        for (name, names) in
            [("states", &self.state_names), ("inputs", &self.input_names), ("outputs", &self.output_names)]
        {
            result_files::write_names(out, name, names)?;
        }
        Ok(())
    }

    /// The frequency response `G(i omega) = C (i omega I - A)^-1 B + D` from input `input` to
    /// output `output` at each angular frequency of `omegas` (rad/s); `None` where `i omega` is an
    /// eigenvalue.
    pub fn frequency_response(&self, input: usize, output: usize, omegas: &[f64]) -> Vec<Option<Complex<f64>>> {
        let n = self.a.nrows();
        let b = DVector::from_fn(n, |r, _| Complex::new(self.b[(r, input)], 0.0));
        let d = Complex::new(self.d[(output, input)], 0.0);
        omegas
            .iter()
            .map(|&omega| {
                let m = DMatrix::from_fn(n, n, |r, c| Complex::new(-self.a[(r, c)], if r == c { omega } else { 0.0 }));
                let x = m.lu().solve(&b)?;
                let g = (0..n).fold(d, |sum, s| sum + x[s] * self.c[(output, s)]);
                (g.re.is_finite() && g.im.is_finite()).then_some(g)
            })
            .collect()
    }

    /// Index of a named input and output, for [`LinearModel::frequency_response`].
    pub fn input_output(&self, input: &str, output: &str) -> Result<(usize, usize), LinearError> {
        let i = self.input_names.iter().position(|n| n == input).ok_or_else(|| LinearError::UnknownInput {
            input: input.to_string(),
            inputs: self.input_names.join(", "),
        })?;
        let o = self
            .output_names
            .iter()
            .position(|n| n == output)
            .ok_or_else(|| LinearError::UnknownOutput(output.to_string()))?;
        Ok((i, o))
    }

    /// The eigenvalue table as text: eigenvalue, frequency, damping, mode.
    pub fn modes_table(modes: &[Mode]) -> String {
        let mut text = format!("{:>12} {:>12} {:>10} {:>9}  mode\n", "re (1/s)", "im (rad/s)", "f (Hz)", "damping");
        for m in modes.iter().filter(|m| m.eigenvalue.im >= 0.0) {
            let damping = m.damping.map_or_else(|| "-".to_string(), |z| format!("{z:.4}"));
            text += &format!(
                "{:>12.5} {:>12.5} {:>10.4} {:>9}  {}\n",
                m.eigenvalue.re, m.eigenvalue.im, m.frequency_hz, damping, m.name
            );
        }
        text
    }
}

/// How far (sum of the absolute deviations) a row of `A` may be from a unit vector for its
/// state to count as the integral of another (a body's position of its velocity with the
/// attitude within about 0.05 deg of level).
const KINEMATIC: f64 = 1e-3;

/// Eigenvalues smaller than this are neutral (rigid-body position and heading, the quaternion
/// norm: zero up to the round-off of the Jacobians and the eigen-solver, which spreads a
/// double zero root by about the square root of it) and have no damping ratio: `1e-6` of the
/// largest entry of the `A` of `models` (at least `1e-6`).
fn neutral_below<'a>(models: impl IntoIterator<Item = &'a LinearModel>) -> f64 {
    1e-6 * models.into_iter().map(|m| m.a.amax()).fold(1.0, f64::max)
}

#[cfg(test)]
mod tests;
