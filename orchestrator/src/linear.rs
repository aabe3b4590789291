//! Linear state-space models of the coupled system (from [`crate::master::Master::linearize`]):
//! eigenvalues, mode shapes named by participation, and the files they are read from (JSON and
//! MAT v4 for MATLAB, Octave and SciPy).

use std::io::{self, Write};

use nalgebra::{Complex, DMatrix, DVector};
use serde_json::{Value, json};

use crate::result_files;

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

/// One eigenvalue of `A` with its mode.
#[derive(Debug, Clone)]
pub struct Mode {
    /// The eigenvalue, 1/s.
    pub eigenvalue: Complex<f64>,
    /// Damped frequency `|Im| / 2 pi`, Hz.
    pub frequency_hz: f64,
    /// Damping ratio `-Re / |lambda|` (`None` for a zero eigenvalue).
    pub damping: Option<f64>,
    /// The state group with the largest participation (`instance.state`, an angle and its
    /// rate counted together).
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
    /// influencing nothing (zero column of `A` and `C`), such as the declared states of a
    /// rotor's unused blades, a locked hinge, or Pitt-Peters states under uniform inflow.
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

    /// Eigenvalues of `A` (real Schur form) with their modes, sorted by frequency, then by
    /// real part.
    pub fn modes(&self) -> Vec<Mode> {
        let n = self.state_names.len();
        if n == 0 {
            return Vec::new();
        }
        let mut eigenvalues: Vec<Complex<f64>> = self.a.clone().complex_eigenvalues().iter().copied().collect();
        eigenvalues
            .sort_by(|p, q| p.im.abs().total_cmp(&q.im.abs()).then(p.re.total_cmp(&q.re)).then(q.im.total_cmp(&p.im)));
        let groups: Vec<String> = self.state_names.iter().map(|s| state_group(s)).collect();
        eigenvalues
            .into_iter()
            .map(|lambda| {
                let shares = participation(&self.a, lambda);
                let mut by_group: Vec<(String, f64)> = Vec::new();
                for (g, share) in groups.iter().zip(shares) {
                    match by_group.iter_mut().find(|(name, _)| name == g) {
                        Some(entry) => entry.1 += share,
                        None => by_group.push((g.clone(), share)),
                    }
                }
                by_group.sort_by(|p, q| q.1.total_cmp(&p.1));
                by_group.truncate(3);
                let magnitude = lambda.norm();
                Mode {
                    eigenvalue: lambda,
                    frequency_hz: lambda.im.abs() / (2.0 * std::f64::consts::PI),
                    damping: (magnitude > 0.0).then(|| -lambda.re / magnitude),
                    name: by_group.first().map(|(g, _)| g.clone()).unwrap_or_default(),
                    participation: by_group,
                }
            })
            .collect()
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

/// The group a state belongs to: an angle and its rate together, every blade together (in the
/// rotating frame the modes of identical blades are degenerate, so which blade an eigenvector
/// favours is arbitrary): `rotor.state.blade[2].lag_rate` is in `rotor.blade[*].lag`.
fn state_group(name: &str) -> String {
    let name = name.replacen(".state.", ".", 1);
    let name = name.strip_suffix("_rate").unwrap_or(&name);
    let mut group = String::with_capacity(name.len());
    let mut rest = name;
    while let Some(start) = rest.find("blade[") {
        let (head, tail) = rest.split_at(start + "blade[".len());
        group.push_str(head);
        match tail.find(']') {
            Some(end) if tail[..end].chars().all(|c| c.is_ascii_digit()) => {
                group.push('*');
                rest = &tail[end..];
            }
            _ => rest = tail,
        }
    }
    group.push_str(rest);
    group
}

/// Participation of each state in the mode of eigenvalue `lambda`: `|v_k w_k|` normalised to
/// sum 1, with the right and left eigenvectors `v`, `w` from inverse iteration.
fn participation(a: &DMatrix<f64>, lambda: Complex<f64>) -> Vec<f64> {
    let n = a.nrows();
    let v = inverse_iteration(&a.map(|x| Complex::new(x, 0.0)), lambda);
    let w = inverse_iteration(&a.transpose().map(|x| Complex::new(x, 0.0)), lambda);
    let p: Vec<f64> = (0..n).map(|k| (v[k] * w[k]).norm()).collect();
    let sum: f64 = p.iter().sum();
    if sum > 0.0 && sum.is_finite() { p.iter().map(|x| x / sum).collect() } else { vec![1.0 / n as f64; n] }
}

/// An eigenvector of `m` for the eigenvalue `lambda` by inverse iteration on `m - (lambda + s) I`
/// with a tiny shift `s` (so the matrix stays regular).
fn inverse_iteration(m: &DMatrix<Complex<f64>>, lambda: Complex<f64>) -> DVector<Complex<f64>> {
    let n = m.nrows();
    let shift = lambda + Complex::new(1e-9 * (1.0 + lambda.norm()), 1e-9 * (1.0 + lambda.norm()));
    let shifted = m - DMatrix::from_diagonal_element(n, n, shift);
    let lu = shifted.lu();
    let mut x = DVector::from_fn(n, |k, _| Complex::new(1.0 + 0.1 * k as f64 / n as f64, 0.0));
    for _ in 0..3 {
        match lu.solve(&x) {
            Some(y) if y.iter().all(|c| c.re.is_finite() && c.im.is_finite()) => {
                let norm = y.norm();
                if norm == 0.0 {
                    break;
                }
                x = y.unscale(norm);
            }
            _ => break,
        }
    }
    x
}
