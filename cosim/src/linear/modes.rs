//! Modes of a linear model: eigenvalues named by the participation of state groups, the Floquet
//! exponents of a periodic system, and the multiblade coordinates of a rotor's blade states.

use nalgebra::{Complex, DMatrix, DVector};

use super::{LinearError, LinearModel, Mode};

/// Floquet exponents of the periodic system whose linear models `samples` were taken at the
/// midpoints of `samples.len()` equal intervals of one period `period` (s): the monodromy
/// matrix `Phi = exp(A_N h) ... exp(A_1 h)` (second order in `h` for the midpoint samples), its
/// eigenvalues `mu`, and `lambda = ln(mu) / period` (principal branch: the imaginary part is
/// defined up to multiples of `2 pi / period`). Each exponent is named by the participation
/// factors of `Phi`'s eigenvectors. An empty list for no samples.
pub fn floquet(samples: &[LinearModel], period: f64) -> Result<Vec<Mode>, LinearError> {
    let Some(first) = samples.first() else { return Ok(Vec::new()) };
    let n = first.state_names.len();
    if let Some(other) = samples.iter().find(|s| s.state_names != first.state_names) {
        return Err(LinearError::DifferentStates(n, other.state_names.len()));
    }
    let h = period / samples.len() as f64;
    let mut phi = DMatrix::<f64>::identity(n, n);
    for sample in samples {
        phi = (&sample.a * h).exp() * phi;
    }
    let groups: Vec<String> = first.state_names.iter().map(|s| state_group(s)).collect();
    let mut modes: Vec<Mode> = phi
        .clone()
        .complex_eigenvalues()
        .iter()
        .map(|&mu| Mode::new(mu.ln() / period, &groups, participation(&phi, mu), 1e-9))
        .collect();
    sort_modes(&mut modes);
    Ok(modes)
}

impl Mode {
    /// The mode of eigenvalue `lambda` whose states, in `groups`, take the `shares` of its
    /// participation: named by the largest group; no damping ratio below magnitude `zero`.
    pub(super) fn new(lambda: Complex<f64>, groups: &[String], shares: Vec<f64>, zero: f64) -> Mode {
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
            damping: (magnitude > zero).then(|| -lambda.re / magnitude),
            name: by_group.first().map(|(g, _)| g.clone()).unwrap_or_default(),
            participation: by_group,
        }
    }
}

/// By frequency, then by real part, then the positive imaginary part of a pair first.
pub(super) fn sort_modes(modes: &mut [Mode]) {
    modes.sort_by(|p, q| {
        let (p, q) = (p.eigenvalue, q.eigenvalue);
        p.im.abs().total_cmp(&q.im.abs()).then(p.re.total_cmp(&q.re)).then(q.im.total_cmp(&p.im))
    });
}

/// Names of the N multiblade coordinates: `0`, `1c`, `1s`, `2c`, `2s`, ..., and `d` for even N.
pub(super) fn multiblade_names(blades: usize) -> Vec<String> {
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
pub(super) fn multiblade_entry(blades: usize, b: usize, m: usize, psi: f64) -> [f64; 3] {
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

/// The group a state belongs to: an angle and its rate together, every blade together (in the
/// rotating frame the modes of identical blades are degenerate, so which blade an eigenvector
/// favours is arbitrary): `rotor.state.blade[2].lag_rate` is in `rotor.blade[*].lag`.
pub(super) fn state_group(name: &str) -> String {
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
    // Multiblade coordinates: 0 collective, nc and ns cyclic, d differential.
    match group.rsplit_once('.') {
        Some((head, "0")) => format!("{head}.collective"),
        Some((head, "d")) => format!("{head}.differential"),
        Some((head, "1c" | "1s")) => format!("{head}.cyclic"),
        Some((head, tail))
            if tail.len() >= 2
                && (tail.ends_with('c') || tail.ends_with('s'))
                && tail[..tail.len() - 1].chars().all(|c| c.is_ascii_digit()) =>
        {
            format!("{head}.cyclic{}", &tail[..tail.len() - 1])
        }
        _ => group,
    }
}

/// Participation of each state in the mode of eigenvalue `lambda`: `|v_k w_k|` normalised to
/// sum 1, with the right and left eigenvectors `v`, `w` from inverse iteration.
pub(super) fn participation(a: &DMatrix<f64>, lambda: Complex<f64>) -> Vec<f64> {
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
