//! Modes of a linear model: eigenvalues named by the participation of state groups, and the
//! Floquet exponents of a periodic system.

use nalgebra::{Complex, DMatrix, DVector};

use super::{LinearError, LinearModel, Mode, ModeNaming, StateTransform};

/// Floquet exponents of the periodic system whose linear models `samples` were taken at the
/// midpoints of `samples.len()` equal intervals of one period `period` (s), each with the
/// [`StateTransform`] of its operating point: the monodromy matrix
/// `Phi = exp(A_N h) ... exp(A_1 h)` (second order in `h` for the midpoint samples), its
/// eigenvalues `mu`, and `ln(mu) / period`, whose imaginary part is known only modulo
/// `Omega = 2 pi / period`. Each exponent is reported in the transformed frame (see
/// `dominant_harmonic`): `lambda = ln(mu) / period + i k Omega` with `k` the dominant
/// harmonic of its periodic mode shape in transformed coordinates, and named by `naming` from
/// the participation factors of `Phi` in transformed coordinates at the start of the period.
/// An empty list for no samples.
pub fn floquet<T: StateTransform>(
    samples: &[(LinearModel, T)],
    naming: &dyn ModeNaming,
    period: f64,
) -> Result<Vec<Mode>, LinearError> {
    let Some((first, first_transform)) = samples.first() else { return Ok(Vec::new()) };
    let n = first.state_names.len();
    if let Some((other, _)) = samples.iter().find(|(s, _)| s.state_names != first.state_names) {
        return Err(LinearError::DifferentStates(n, other.state_names.len()));
    }
    let h = period / samples.len() as f64;
    // exp(A h) as the square of exp(A h / 2), which the mode shapes need at the midpoints.
    let halves: Vec<DMatrix<f64>> = samples.iter().map(|(s, _)| (&s.a * (0.5 * h)).exp()).collect();
    let steps: Vec<DMatrix<f64>> = halves.iter().map(|half| half * half).collect();
    let phi = steps.iter().fold(DMatrix::<f64>::identity(n, n), |phi, step| step * phi);
    // Transformed coordinates at each sample and at the start of the period (the model's own
    // where the transform does not apply).
    let to_transformed: Vec<DMatrix<f64>> = samples.iter().map(|(s, t)| inverse_transform(s, t, 0.0)).collect();
    let start = inverse_transform(first, first_transform, -0.5 * h);

    let from_transformed = start.clone().try_inverse().ok_or(LinearError::SingularTransform)?;
    let phi_m = &start * &phi * &from_transformed;
    // State groups in transformed coordinates at the start (the model's own where the
    // transform does not apply).
    let groups = first
        .transformed_at(first_transform, -0.5 * h)
        .map_or_else(|_| first.state_groups(naming), |m| m.state_groups(naming));
    let omega = std::f64::consts::TAU / period;
    let models: Vec<&LinearModel> = samples.iter().map(|(s, _)| s).collect();
    let zero = super::neutral_below(models.iter().copied());
    let shape = PeriodicShape { halves: &halves, steps: &steps, to_transformed: &to_transformed, h, omega };
    let multipliers = eigenvalues(&phi_m, "monodromy matrix")?;
    // Named as the modes of Phi (one group per mode where it can), |mu| = 1 neutral.
    let phi_minus_one = &phi_m - DMatrix::<f64>::identity(n, n);
    let named = named_modes(&phi_minus_one, &shifted(&multipliers), &groups, 1e-9);
    let mut modes: Vec<Mode> = multipliers
        .iter()
        .zip(named)
        .map(|(&mu, named)| {
            let principal = mu.ln() / period;
            let v_m = inverse_iteration(&phi_m.map(|x| Complex::new(x, 0.0)), mu, &[]);
            let v = from_transformed.map(|x| Complex::new(x, 0.0)) * v_m;
            let k = dominant_harmonic(&shape, v, principal);
            let lambda = principal + Complex::new(0.0, k as f64 * omega);
            let mut mode = Mode::with_name(lambda, named.participation, named.name, zero);
            naming.label(&mut mode);
            mode
        })
        .collect();
    sort_modes(&mut modes);
    Ok(modes)
}

/// The eigenvalues of `m` (named `matrix` in the error) by a real Schur decomposition with an
/// iteration limit of `100 n` (at least 1000): every eigenvalue solve of the linear analysis
/// goes through here, as nalgebra's unlimited one can cycle forever (e.g. on a monodromy matrix
/// whose eigenvalues span many orders of magnitude). See [`eigenvalues_within`].
pub(super) fn eigenvalues(m: &DMatrix<f64>, matrix: &'static str) -> Result<Vec<Complex<f64>>, LinearError> {
    eigenvalues_within(m, matrix, 100 * m.nrows().max(10))
}

/// The eigenvalues of `m` by a real Schur decomposition of at most `limit` iterations; where it
/// does not converge, the same on `m` transposed, diagonally scaled and rotated (similar
/// matrices, other rounding), else [`LinearError::NoConvergence`] naming `matrix`.
pub(super) fn eigenvalues_within(
    m: &DMatrix<f64>,
    matrix: &'static str,
    limit: usize,
) -> Result<Vec<Complex<f64>>, LinearError> {
    let n = m.nrows();
    let scale = DVector::from_fn(n, |k, _| 1.0 + 0.37 * k as f64 / n.max(1) as f64);
    let scaled = DMatrix::from_fn(n, n, |r, c| m[(r, c)] * scale[r] / scale[c]);
    // An orthogonal similarity by a fixed, dense rotation: another Hessenberg form altogether.
    let q = DMatrix::from_fn(n, n, |r, c| ((r * 7 + c * 13 + 1) as f64).sin()).qr().q();
    let rotated = q.transpose() * m * &q;
    [m.clone(), m.transpose(), scaled, rotated]
        .into_iter()
        .find_map(|candidate| nalgebra::linalg::Schur::try_new(candidate, f64::EPSILON, limit))
        .map(|schur| schur.complex_eigenvalues().iter().copied().collect())
        .ok_or(LinearError::NoConvergence { matrix, size: n, iterations: limit })
}

/// The multipliers `mu - 1`: the eigenvalues of `Phi - I`, zero for a neutral mode.
fn shifted(multipliers: &[Complex<f64>]) -> Vec<Complex<f64>> {
    multipliers.iter().map(|mu| mu - 1.0).collect()
}

/// `S^-1` of `transform` for `model`'s states `dt` seconds after its operating point (the
/// identity where the transform does not apply).
fn inverse_transform(model: &LinearModel, transform: &dyn StateTransform, dt: f64) -> DMatrix<f64> {
    let n = model.state_names.len();
    transform
        .transform(&model.state_names, dt)
        .ok()
        .and_then(|t| t.s.try_inverse())
        .unwrap_or_else(|| DMatrix::identity(n, n))
}

/// The trajectory of a Floquet mode over the period: the samples' half- and one-interval
/// exponentials, their inverse transforms, the interval `h` and the frequency
/// `omega = 2 pi / period`.
struct PeriodicShape<'a> {
    halves: &'a [DMatrix<f64>],
    steps: &'a [DMatrix<f64>],
    to_transformed: &'a [DMatrix<f64>],
    h: f64,
    omega: f64,
}

/// The harmonic `k` that dominates the periodic mode shape of the Floquet solution
/// `x(t) = p(t) e^(lambda t)` that starts at `v` (rotating-frame states at the start of the
/// period): `p` in transformed coordinates at the sample midpoints, `x` carried from the start
/// by the samples' exponentials, and its Fourier coefficients `c_k` over the period; `k` is the
/// one of largest norm `|c_k|`. In the transformed frame the mode oscillates at
/// `Im lambda + k Omega`. For a system that is time-invariant in transformed coordinates `p` is
/// one harmonic exactly and the result is the transformed model's eigenvalue.
fn dominant_harmonic(shape: &PeriodicShape, v: DVector<Complex<f64>>, lambda: Complex<f64>) -> i64 {
    let samples = shape.halves.len();
    let highest = (samples as i64 - 1) / 2;
    let mut coefficients = vec![DVector::<Complex<f64>>::zeros(v.len()); (2 * highest + 1) as usize];
    let mut x = v;
    for (j, half) in shape.halves.iter().enumerate() {
        let tau = (j as f64 + 0.5) * shape.h;
        let p = real_times(&shape.to_transformed[j], &real_times(half, &x)) * (-lambda * tau).exp();
        for (slot, c) in coefficients.iter_mut().enumerate() {
            let k = slot as i64 - highest;
            *c += &p * Complex::new(0.0, -(k as f64) * shape.omega * tau).exp();
        }
        x = real_times(&shape.steps[j], &x);
    }
    let (slot, _) = coefficients
        .iter()
        .enumerate()
        .map(|(slot, c)| (slot, c.norm()))
        .fold((highest as usize, -1.0), |best, (slot, norm)| if norm > best.1 { (slot, norm) } else { best });
    slot as i64 - highest
}

/// `m v` for a real matrix and a complex vector, as two real products (no complex copy of `m`).
fn real_times(m: &DMatrix<f64>, v: &DVector<Complex<f64>>) -> DVector<Complex<f64>> {
    let (re, im) = (m * v.map(|c| c.re), m * v.map(|c| c.im));
    re.zip_map(&im, Complex::new)
}

impl Mode {
    /// The mode of eigenvalue `lambda` named `name`, with the participation `by_group` (largest
    /// first; the first three are kept); no damping ratio below magnitude `zero`.
    fn with_name(lambda: Complex<f64>, mut by_group: Vec<(String, f64)>, name: String, zero: f64) -> Mode {
        by_group.truncate(3);
        let magnitude = lambda.norm();
        Mode {
            eigenvalue: lambda,
            frequency_hz: lambda.im.abs() / (2.0 * std::f64::consts::PI),
            damping: (magnitude > zero).then(|| -lambda.re / magnitude),
            name,
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

/// Participation of each state in the mode of eigenvalue `lambda`: `|v_k w_k|` normalised to
/// sum 1, with the right and left eigenvectors `v`, `w` from inverse iteration, kept orthogonal
/// to those in `right` and `left` (of the same eigenvalue, found before), to which they are
/// added: the members of a repeated eigenvalue get independent vectors of its eigenspace
/// instead of the same one.
fn participation_apart(
    a: &DMatrix<f64>,
    lambda: Complex<f64>,
    right: &mut Vec<DVector<Complex<f64>>>,
    left: &mut Vec<DVector<Complex<f64>>>,
) -> Vec<f64> {
    let n = a.nrows();
    let v = inverse_iteration(&a.map(|x| Complex::new(x, 0.0)), lambda, right);
    let w = inverse_iteration(&a.transpose().map(|x| Complex::new(x, 0.0)), lambda, left);
    let p: Vec<f64> = (0..n).map(|k| (v[k] * w[k]).norm()).collect();
    right.push(v);
    left.push(w);
    let sum: f64 = p.iter().sum();
    if sum > 0.0 && sum.is_finite() { p.iter().map(|x| x / sum).collect() } else { vec![1.0 / n as f64; n] }
}

/// An eigenvector of `m` for the eigenvalue `lambda` by inverse iteration on `m - (lambda + s) I`
/// with a tiny shift `s` (so the matrix stays regular), kept orthogonal to `apart`.
pub(super) fn inverse_iteration(
    m: &DMatrix<Complex<f64>>,
    lambda: Complex<f64>,
    apart: &[DVector<Complex<f64>>],
) -> DVector<Complex<f64>> {
    let n = m.nrows();
    let shift = lambda + Complex::new(1e-9 * (1.0 + lambda.norm()), 1e-9 * (1.0 + lambda.norm()));
    let shifted = m - DMatrix::from_diagonal_element(n, n, shift);
    let lu = shifted.lu();
    let orthogonal = |mut x: DVector<Complex<f64>>| {
        for u in apart {
            let along = u.dotc(&x);
            x -= u * along;
        }
        x
    };
    let mut x = orthogonal(DVector::from_fn(n, |k, _| Complex::new(1.0 + 0.1 * k as f64 / n as f64, 0.0)));
    for _ in 0..3 {
        match lu.solve(&x) {
            Some(y) if y.iter().all(|c| c.re.is_finite() && c.im.is_finite()) => {
                let y = orthogonal(y);
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

/// The modes of the eigenvalues `lambdas` of `a` whose states belong to `groups`, each named
/// by a group of its own where it can be: a group names at most as many roots as it has states
/// (a conjugate pair takes two), and the modes choose in order of their largest participation,
/// each the group of largest participation that has room and a share of 0.1 at least (else
/// its largest group). Neutral roots take no room. Two modes that share their largest
/// group (two strongly coupled modes, or the two roots of a repeated eigenvalue)
/// so get different names. A root with `Im < 0` takes the name of its conjugate. Roots smaller
/// than `zero` are neutral (no damping ratio).
pub(super) fn named_modes(a: &DMatrix<f64>, lambdas: &[Complex<f64>], groups: &[String], zero: f64) -> Vec<Mode> {
    let upper: Vec<Complex<f64>> = lambdas.iter().copied().filter(|l| l.im >= 0.0).collect();
    let mut shares: Vec<Vec<(String, f64)>> = Vec::with_capacity(upper.len());
    for (i, &lambda) in upper.iter().enumerate() {
        // Vectors of the same (repeated) eigenvalue found before, kept apart.
        let (mut right, mut left) = (Vec::new(), Vec::new());
        for &earlier in &upper[..i] {
            if (earlier - lambda).norm() <= 1e-6 * (1.0 + lambda.norm()) {
                participation_apart(a, earlier, &mut right, &mut left);
            }
        }
        shares.push(group_shares(groups, participation_apart(a, lambda, &mut right, &mut left)));
    }
    let mut room: Vec<(String, usize)> = Vec::new();
    for g in groups {
        match room.iter_mut().find(|(name, _)| name == g) {
            Some(entry) => entry.1 += 1,
            None => room.push((g.clone(), 1)),
        }
    }
    let mut order: Vec<usize> = (0..upper.len()).collect();
    order.sort_by(|&p, &q| shares[q].first().map_or(0.0, |s| s.1).total_cmp(&shares[p].first().map_or(0.0, |s| s.1)));
    let mut names = vec![String::new(); upper.len()];
    for i in order {
        let cost = if upper[i].im > 0.0 { 2 } else { 1 };
        // Neutral roots (round-off eigenvectors) take no room; a group must carry a tenth of
        // the mode at least to name it.
        let free = (upper[i].norm() > zero)
            .then(|| {
                shares[i]
                    .iter()
                    .take_while(|(_, share)| *share >= 0.1)
                    .find_map(|(g, _)| room.iter().position(|(name, left)| name == g && *left >= cost))
            })
            .flatten();
        match free {
            Some(slot) => {
                room[slot].1 -= cost;
                names[i] = room[slot].0.clone();
            }
            None => names[i] = shares[i].first().map(|s| s.0.clone()).unwrap_or_default(),
        }
    }
    lambdas
        .iter()
        .map(|&lambda| {
            let conjugate = lambda.conj();
            let i = (0..upper.len())
                .min_by(|&p, &q| {
                    let at = |k: usize| if lambda.im >= 0.0 { upper[k] - lambda } else { upper[k] - conjugate };
                    at(p).norm().total_cmp(&at(q).norm())
                })
                .expect("every root or its conjugate has Im >= 0");
            Mode::with_name(lambda, shares[i].clone(), names[i].clone(), zero)
        })
        .collect()
}

/// The participation `shares` of the states summed over their `groups`, largest first.
fn group_shares(groups: &[String], shares: Vec<f64>) -> Vec<(String, f64)> {
    let mut by_group: Vec<(String, f64)> = Vec::new();
    for (g, share) in groups.iter().zip(shares) {
        match by_group.iter_mut().find(|(name, _)| name == g) {
            Some(entry) => entry.1 += share,
            None => by_group.push((g.clone(), share)),
        }
    }
    by_group.sort_by(|p, q| q.1.total_cmp(&p.1));
    by_group
}
