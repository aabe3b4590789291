//! Frequency responses of a Model Exchange instance from its directional derivatives: the
//! state-space matrices `A`, `B`, `C`, `D` at the current point, `C (i w I - A)^-1 B + D`, for
//! checking a model's realisation against a closed-form transfer function.

use crate::catalog::{DERIVATIVE_VR_BASE, STATE_VR_BASE};
use crate::{Instance, Model};

/// A Model Exchange instance, set up by `setup` (parameters, inputs) and put in continuous-time
/// mode.
pub fn model_exchange_instance<M: Model>(setup: impl FnOnce(&mut Instance<M>)) -> Instance<M> {
    let logger = Box::new(|_, _: &str, message: &str| eprintln!("{message}"));
    let mut inst = Instance::<M>::model_exchange("frequency-response", logger).unwrap();
    setup(&mut inst);
    inst.setup_experiment(0.0, None).unwrap();
    inst.enter_initialization_mode().unwrap();
    inst.exit_initialization_mode().unwrap();
    inst.enter_continuous_time_mode().unwrap();
    inst
}

/// `d unknowns / d known` by the instance's directional derivative.
fn column<M: Model>(inst: &mut Instance<M>, unknowns: &[u32], known: u32) -> Vec<f64> {
    let mut out = vec![0.0; unknowns.len()];
    inst.get_directional_derivative(unknowns, &[known], &[1.0], &mut out).unwrap();
    out
}

/// `C (i w I - A)^-1 B + D` from the input `input` to the output `output` (value references)
/// over the declared states `slots` (positions in [`Model::state_variables`]), as `[re, im]`.
pub fn frequency_response<M: Model>(
    inst: &mut Instance<M>,
    slots: &[usize],
    input: u32,
    output: u32,
    w: f64,
) -> [f64; 2] {
    let states: Vec<u32> = slots.iter().map(|&k| STATE_VR_BASE + k as u32).collect();
    let derivatives: Vec<u32> = slots.iter().map(|&k| DERIVATIVE_VR_BASE + k as u32).collect();
    let n = slots.len();
    // Rows of the augmented system [i w I - A | B], complex entries as [re, im].
    let mut m = vec![vec![[0.0; 2]; n + 1]; n];
    for (j, &s) in states.iter().enumerate() {
        for (i, a) in column(inst, &derivatives, s).into_iter().enumerate() {
            m[i][j] = [-a, if i == j { w } else { 0.0 }];
        }
    }
    for (i, b) in column(inst, &derivatives, input).into_iter().enumerate() {
        m[i][n] = [b, 0.0];
    }
    let z = solve(m);
    let d = column(inst, &[output], input)[0];
    states.iter().zip(&z).fold([d, 0.0], |acc, (&s, zi)| {
        let c = column(inst, &[output], s)[0];
        [acc[0] + c * zi[0], acc[1] + c * zi[1]]
    })
}

/// The complex product.
fn mul(a: [f64; 2], b: [f64; 2]) -> [f64; 2] {
    [a[0] * b[0] - a[1] * b[1], a[0] * b[1] + a[1] * b[0]]
}

/// The complex quotient.
fn div(a: [f64; 2], b: [f64; 2]) -> [f64; 2] {
    let d = b[0] * b[0] + b[1] * b[1];
    [(a[0] * b[0] + a[1] * b[1]) / d, (a[1] * b[0] - a[0] * b[1]) / d]
}

/// Solves the augmented complex system (rows `[M | b]`) by Gaussian elimination with partial
/// pivoting.
fn solve(mut m: Vec<Vec<[f64; 2]>>) -> Vec<[f64; 2]> {
    let n = m.len();
    let modulus = |v: [f64; 2]| v[0].hypot(v[1]);
    for k in 0..n {
        let pivot = (k..n).max_by(|&a, &b| modulus(m[a][k]).total_cmp(&modulus(m[b][k]))).unwrap();
        m.swap(k, pivot);
        let (upper, lower) = m.split_at_mut(k + 1);
        let pivot_row = &upper[k];
        for row in lower {
            let factor = div(row[k], pivot_row[k]);
            for (entry, &p) in row[k..].iter_mut().zip(&pivot_row[k..]) {
                let p = mul(factor, p);
                *entry = [entry[0] - p[0], entry[1] - p[1]];
            }
        }
    }
    let mut z = vec![[0.0; 2]; n];
    for i in (0..n).rev() {
        let mut r = m[i][n];
        for j in i + 1..n {
            let p = mul(m[i][j], z[j]);
            r = [r[0] - p[0], r[1] - p[1]];
        }
        z[i] = div(r, m[i][i]);
    }
    z
}
