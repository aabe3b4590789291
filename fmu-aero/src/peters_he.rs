//! Peters-He finite-state dynamic inflow (Peters, Boyd and He 1989; Peters and He 1995), and
//! the Cheeseman-Bennett ground-effect factor.
//!
//! The induced inflow ratio over the disk (positive down through the disk, a ratio to
//! `Omega R`) is a sum of radial shape functions times azimuthal harmonics,
//!
//! ```text
//! lambda(r, psi) = sum_m sum_j phi_j^m(r) (alpha_j^m cos(m psi) + beta_j^m sin(m psi)),   j = m+1, m+3, ...
//! phi_j^m(r) = sqrt((2j+1) H_j^m) sum_{q=m,m+2..j-1} r^q (-1)^((q-m)/2) (j+q)!! / ((q-m)!! (q+m)!! (j-q-1)!!)
//! H_j^m = (j+m-1)!! (j-m-1)!! / ((j+m)!! (j-m)!!)
//! ```
//!
//! (`r` the radius over `R`; `phi_j^m = Pbar_j^m(nu) / nu`, `nu = sqrt(1 - r^2)`, with `Pbar`
//! the associated Legendre functions normalised so that `int_0^1 Pbar_j^m Pbar_n^m d nu = delta_jn`).
//! The states obey, in the time `Omega t` and in wind axes (azimuth from the downstream
//! direction of the wake),
//!
//! ```text
//! K alpha' + V (L^c)^-1 alpha = tau^c / 2,      K beta' + V (L^s)^-1 beta = tau^s / 2,      K_j^m = (2/pi) H_j^m
//! tau_j^0 = sum(dT phi_j^0(r)) / (2 rho pi R^2 (Omega R)^2),   tau_j^mc = sum(dT phi_j^m(r) cos(m psi)) / (rho pi R^2 (Omega R)^2),  ...s with sin
//! L^c(r j, m n) = X^m Gamma (r = 0);  (X^|m-r| + (-1)^min(r,m) X^(m+r)) Gamma (r > 0);  L^s: the minus sign
//! Gamma(r j, m n) = (-1)^((n+j-2r)/2) 2 sqrt((2n+1)(2j+1)) / (sqrt(H_n^m H_j^r) (n+j)(n+j+2)((n-j)^2-1))   (r+m even)
//!                 = pi/2 sgn(r-m) / (sqrt(H_n^m H_j^r) sqrt((2n+1)(2j+1)))   (r+m odd, |n-j| = 1; else 0)
//! X = tan(chi/2);  V = V_T for the state (m, j) = (0, 1), the mass-flow parameter V for all others
//! ```
//!
//! with `V_T`, `V` and the wake skew `chi` from the mass-flow inflow `lambda_m = sqrt(3) alpha_1^0`
//! exactly as in the Pitt-Peters equations ([`crate::inflow::skew`]). `dT` is a section's force
//! along the shaft axis (N, quadrature weight included), summed over the sections of all blades.
//!
//! **Truncation.** The parameters choose the highest harmonic `M` (0..[`MAX_HARMONIC`]) and the
//! number of radial functions per harmonic `K` (1..[`MAX_RADIAL`]): the states are
//! `j = m+1, m+3, .., m+2K-1` for every `m <= M`, `K (2M + 1)` in all. The FMU declares the
//! [`N_DECLARED`] states of `M = 4, K = 4` in the order of [`declared_index`]; the others stay zero.
//!
//! **Ground effect** (Cheeseman and Bennett 1955, ARC R&M 3021, image-source method): a rotor at
//! height `z` above the ground sees its induced velocity reduced by the factor
//! `k_G = 1 - (R / 4z)^2 / (1 + (mu / lambda_i)^2)` (`lambda_i` the mean induced inflow), which is
//! the image source's velocity `v_i (R/4z)^2` at the rotor, reduced by the wake skew.
//! The thrust ratio at constant power is `1 / k_G`.

use fmu_core::Scalar;

use crate::aero::DiskInflow;
use crate::inflow::{FlightCondition, skew};
use crate::layout::NS_MAX;

/// Highest azimuthal harmonic the FMU can carry.
pub const MAX_HARMONIC: usize = 4;
/// Most radial shape functions per harmonic.
pub const MAX_RADIAL: usize = 4;
/// The states the FMU declares: `MAX_RADIAL (2 MAX_HARMONIC + 1)`.
pub const N_DECLARED: usize = MAX_RADIAL * (2 * MAX_HARMONIC + 1);
/// The largest block of `L` (the cosine states of `M = 4, K = 4`).
const BLOCK_MAX: usize = MAX_RADIAL * (MAX_HARMONIC + 1);

/// Position of the state of harmonic `m`, radial index `k` (`j = m + 2k + 1`), cosine or sine,
/// among the declared states: harmonic 0 (cosine), then for each `m >= 1` its cosine and its
/// sine states, each group in increasing `j`.
pub const fn declared_index(m: usize, k: usize, sine: bool) -> usize {
    if m == 0 { k } else { MAX_RADIAL * (2 * m - 1) + if sine { MAX_RADIAL } else { 0 } + k }
}

/// `n!!` (1 for `n <= 0`).
fn double_factorial(n: i64) -> f64 {
    let mut out = 1.0;
    let mut k = n;
    while k > 1 {
        out *= k as f64;
        k -= 2;
    }
    out
}

/// `H_j^m`.
fn h(m: usize, j: usize) -> f64 {
    let (m, j) = (m as i64, j as i64);
    double_factorial(j + m - 1) * double_factorial(j - m - 1) / (double_factorial(j + m) * double_factorial(j - m))
}

/// The shape function `phi_j^m(r)` (r = radius / R).
pub fn shape(m: usize, j: usize, r: f64) -> f64 {
    let mut sum = 0.0;
    let mut q = m;
    while q < j {
        let sign = if ((q - m) / 2).is_multiple_of(2) { 1.0 } else { -1.0 };
        let (q_, m_, j_) = (q as i64, m as i64, j as i64);
        let c = double_factorial(j_ + q_)
            / (double_factorial(q_ - m_) * double_factorial(q_ + m_) * double_factorial(j_ - q_ - 1));
        sum += sign * c * r.powi(q as i32);
        q += 2;
    }
    ((2 * j + 1) as f64 * h(m, j)).sqrt() * sum
}

/// `Gamma` of the row state `(r, j)` and the column state `(m, n)`.
pub fn gamma(r: usize, j: usize, m: usize, n: usize) -> f64 {
    let root_h = (h(m, n) * h(r, j)).sqrt();
    let (ji, ni) = (j as i64, n as i64);
    if (r + m).is_multiple_of(2) {
        let sign = if ((ni + ji - 2 * r as i64) / 2) % 2 == 0 { 1.0 } else { -1.0 };
        let den = root_h * ((n + j) * (n + j + 2)) as f64 * ((ni - ji) * (ni - ji) - 1) as f64;
        sign * 2.0 * (((2 * n + 1) * (2 * j + 1)) as f64).sqrt() / den
    } else if (ni - ji).abs() == 1 {
        let sign = if r > m { 1.0 } else { -1.0 };
        sign * std::f64::consts::FRAC_PI_2 / (root_h * (((2 * n + 1) * (2 * j + 1)) as f64).sqrt())
    } else {
        0.0
    }
}

/// One state: harmonic, Legendre index, sine or cosine.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mode {
    /// Harmonic number `m`.
    pub m: usize,
    /// Legendre index `j` (`m + 1, m + 3, ..`).
    pub j: usize,
    /// Sine (`beta`) rather than cosine (`alpha`) state.
    pub sine: bool,
}

/// An entry of `L`: `gamma (X^p1 + c2 X^p2)`.
#[derive(Debug, Clone, Copy, Default)]
struct LEntry {
    gamma: f64,
    p1: i32,
    c2: f64,
    p2: i32,
}

/// The Peters-He model of one truncation, on given blade stations.
#[derive(Debug, Clone)]
pub struct PetersHe {
    /// Number of active states.
    n: usize,
    /// The active states, in state order (that of the declared states).
    modes: [Mode; N_DECLARED],
    /// Their declared positions.
    declared: [usize; N_DECLARED],
    /// Highest harmonic.
    harmonics: usize,
    /// The cosine and the sine states' positions (`L` couples a cosine state only with cosine
    /// states, a sine state only with sine states).
    blocks: [Vec<usize>; 2],
    /// The `L` entries of each block, row-major.
    l: [Vec<LEntry>; 2],
    /// `K_j^m` of each state.
    mass: [f64; N_DECLARED],
    /// `phi_j^m` of each state at each station, station-major: `[station * n + state]`, so that
    /// a station's sums run over contiguous memory.
    phi: Vec<f64>,
    /// The same state-major, `[state * stations + station]`, for a blade's sums over stations.
    phi_by_state: Vec<f64>,
    /// Number of stations.
    stations: usize,
    /// `phi_j^m(1)`, at the tip.
    phi_tip: [f64; N_DECLARED],
}

impl PetersHe {
    /// The model with harmonics `0..=harmonics` and `radial` shape functions each, on stations
    /// at `r_over_radius` (radius / R). Panics if the truncation exceeds the declared maxima
    /// (the parameter checks come first).
    pub fn new(harmonics: usize, radial: usize, r_over_radius: &[f64]) -> Self {
        assert!(harmonics <= MAX_HARMONIC && (1..=MAX_RADIAL).contains(&radial) && r_over_radius.len() <= NS_MAX);
        let mut list: Vec<(usize, Mode)> = Vec::new();
        for m in 0..=harmonics {
            for sine in [false, true] {
                if sine && m == 0 {
                    continue;
                }
                for k in 0..radial {
                    list.push((declared_index(m, k, sine), Mode { m, j: m + 2 * k + 1, sine }));
                }
            }
        }
        list.sort_by_key(|e| e.0);
        let n = list.len();
        let mut modes = [Mode { m: 0, j: 1, sine: false }; N_DECLARED];
        let mut declared = [0; N_DECLARED];
        let (mut mass, mut phi_tip) = ([0.0; N_DECLARED], [0.0; N_DECLARED]);
        let stations = r_over_radius.len();
        let mut phi = vec![0.0; n * stations];
        let mut phi_by_state = vec![0.0; n * stations];
        for (s, (d, mode)) in list.iter().enumerate() {
            modes[s] = *mode;
            declared[s] = *d;
            mass[s] = 2.0 / std::f64::consts::PI * h(mode.m, mode.j);
            phi_tip[s] = shape(mode.m, mode.j, 1.0);
            for (st, &r) in r_over_radius.iter().enumerate() {
                phi[st * n + s] = shape(mode.m, mode.j, r);
                phi_by_state[s * stations + st] = phi[st * n + s];
            }
        }
        let blocks: [Vec<usize>; 2] = [false, true].map(|sine| (0..n).filter(|&i| modes[i].sine == sine).collect());
        let l = [0, 1].map(|b| {
            let block = &blocks[b];
            block
                .iter()
                .flat_map(|&row| block.iter().map(move |&col| (row, col)))
                .map(|(a, b)| l_entry(modes[a], modes[b]))
                .collect()
        });
        PetersHe { n, modes, declared, harmonics, blocks, l, mass, phi, phi_by_state, stations, phi_tip }
    }
}

/// The `L` entry of the row state `row` and the column state `col` (of the same kind).
fn l_entry(row: Mode, col: Mode) -> LEntry {
    let (r, m) = (row.m, col.m);
    let g = gamma(r, row.j, m, col.j);
    let parity = if r.min(m).is_multiple_of(2) { 1.0 } else { -1.0 };
    if r == 0 {
        LEntry { gamma: g, p1: m as i32, c2: 0.0, p2: 0 }
    } else {
        let c2 = if row.sine { -parity } else { parity };
        LEntry { gamma: g, p1: m.abs_diff(r) as i32, c2, p2: (m + r) as i32 }
    }
}

impl PetersHe {
    /// Number of states.
    pub fn n_states(&self) -> usize {
        self.n
    }

    /// The states' positions among the [`N_DECLARED`] declared ones.
    pub fn declared(&self) -> &[usize] {
        &self.declared[..self.n]
    }

    /// The active states.
    pub fn modes(&self) -> &[Mode] {
        &self.modes[..self.n]
    }

    /// Mean (mass-flow) inflow ratio `lambda_m = sqrt(3) alpha_1^0` of the states `x`.
    pub fn mean_inflow<D: Scalar>(&self, x: &[D]) -> D {
        x[0] * 3.0_f64.sqrt()
    }

    /// The `cos psi` and `sin psi` parts of the inflow ratio at the tip (the `lambda_c`,
    /// `lambda_s` of a linear first harmonic).
    pub fn tip_first_harmonic<D: Scalar>(&self, x: &[D]) -> (D, D) {
        let (mut c, mut s) = (D::from(0.0), D::from(0.0));
        for (i, mode) in self.modes().iter().enumerate() {
            if mode.m == 1 {
                let v = x[i] * self.phi_tip[i];
                if mode.sine { s += v } else { c += v }
            }
        }
        (c, s)
    }

    /// `cos(m psi)` (cosine states) or `sin(m psi)` (sine states) for each state at the azimuth
    /// with `(sin psi, cos psi)`.
    pub fn trig<D: Scalar>(&self, sin_psi: D, cos_psi: D) -> [D; N_DECLARED] {
        let mut cos_m = [D::from(1.0); MAX_HARMONIC + 1];
        let mut sin_m = [D::from(0.0); MAX_HARMONIC + 1];
        for m in 1..=self.harmonics {
            cos_m[m] = cos_m[m - 1] * cos_psi - sin_m[m - 1] * sin_psi;
            sin_m[m] = sin_m[m - 1] * cos_psi + cos_m[m - 1] * sin_psi;
        }
        let mut out = [D::from(0.0); N_DECLARED];
        for (i, mode) in self.modes().iter().enumerate() {
            out[i] = if mode.sine { sin_m[mode.m] } else { cos_m[mode.m] };
        }
        out
    }

    /// Inflow ratio at station `j` of a blade whose state-times-harmonic terms are `coef`
    /// (`x_s trig_s`, from [`PetersHe::trig`]).
    #[inline]
    pub fn station_inflow<D: Scalar>(&self, coef: &[D], j: usize) -> D {
        let phi = self.station_shapes(j);
        let coef = &coef[..phi.len()];
        let mut sum = D::from(0.0);
        for s in 0..phi.len() {
            sum += coef[s] * phi[s];
        }
        sum
    }

    /// `phi_j^m` of each state at station `j`.
    #[inline]
    fn station_shapes(&self, j: usize) -> &[f64] {
        &self.phi[j * self.n..(j + 1) * self.n]
    }

    /// Adds a section's shaft-axis force `dt` (N) at station `j` to the unscaled forcing
    /// `sum(dT phi trig)`; `trig` from [`PetersHe::trig`].
    #[inline]
    pub fn add_forcing<D: Scalar>(&self, forcing: &mut [D], trig: &[D], j: usize, dt: D) {
        let phi = self.station_shapes(j);
        let (forcing, trig) = (&mut forcing[..phi.len()], &trig[..phi.len()]);
        for s in 0..phi.len() {
            forcing[s] += dt * (trig[s] * phi[s]);
        }
    }

    /// [`PetersHe::station_inflow`] at every station of a blade into `inflow`, the sums in the
    /// same order (bit for bit), as one pass over the states with the stations innermost.
    pub fn blade_inflow<D: Scalar>(&self, coef: &[D], inflow: &mut [D]) {
        let inflow = &mut inflow[..self.stations];
        inflow.iter_mut().for_each(|v| *v = D::from(0.0));
        for (c, phi) in coef[..self.n].iter().zip(self.phi_by_state.chunks_exact(self.stations)) {
            for (v, p) in inflow.iter_mut().zip(phi) {
                *v += *c * *p;
            }
        }
    }

    /// [`PetersHe::add_forcing`] of every station of a blade, with the shaft-axis forces `dt`
    /// (zero where a station has none), added in station order (bit for bit).
    pub fn add_blade_forcing<D: Scalar>(&self, forcing: &mut [D], trig: &[D], dt: &[D]) {
        let (forcing, trig) = (&mut forcing[..self.n], &trig[..self.n]);
        for (dt, phi) in dt[..self.stations].iter().zip(self.phi.chunks_exact(self.n)) {
            for s in 0..phi.len() {
                forcing[s] += *dt * (trig[s] * phi[s]);
            }
        }
    }

    /// The forcing `tau` from the summed `sum(dT phi trig)` and `rho pi R^2 (Omega R)^2`.
    pub fn scale_forcing<D: Scalar>(&self, forcing: &mut [D], thrust_scale: f64) {
        for (s, f) in forcing[..self.n].iter_mut().enumerate() {
            let c = if self.modes[s].m == 0 { 0.5 } else { 1.0 };
            *f *= c / thrust_scale;
        }
    }

    /// Rates `d x / dt` (1/s) of the states `x` (hub azimuth frame) for the forcing `tau`, the
    /// flight condition and the rotor speed `omega` (rad/s).
    pub fn rates<D: Scalar>(&self, x: &[D], tau: &[D], flight: &FlightCondition<D>, omega: f64, dx: &mut [D]) {
        let n = self.n;
        let (cw, sw) = flight.wake;
        let mut xw = [D::from(0.0); N_DECLARED];
        let mut tw = [D::from(0.0); N_DECLARED];
        self.rotate(x, (cw, sw), &mut xw);
        self.rotate(tau, (cw, sw), &mut tw);
        let s = skew(flight, self.mean_inflow(x));
        let x_skew = s.tan_half_x;
        let mut powers = [D::from(1.0); 2 * MAX_HARMONIC + 1];
        for p in 1..powers.len() {
            powers[p] = powers[p - 1] * x_skew;
        }
        // y = L^-1 alpha, block by block, in working arrays sized by the block (the largest
        // truncation's 20 x 20 only when needed).
        let mut y = xw;
        for (block, entries) in self.blocks.iter().zip(&self.l) {
            match block.len() {
                0..=6 => solve_block::<D, 36>(block, entries, &powers, &xw, &mut y),
                7..=12 => solve_block::<D, 144>(block, entries, &powers, &xw, &mut y),
                _ => solve_block::<D, { BLOCK_MAX * BLOCK_MAX }>(block, entries, &powers, &xw, &mut y),
            }
        }
        let mut dw = [D::from(0.0); N_DECLARED];
        for i in 0..n {
            let v = if i == 0 { s.v_t } else { s.v };
            dw[i] = (tw[i] * 0.5 - v * y[i]) * (omega / self.mass[i]);
        }
        // Back to the hub azimuth frame: the inverse rotation.
        self.rotate(&dw, (cw, -sw), dx);
    }

    /// Rotates each harmonic pair `(alpha, beta)` of `m >= 1` into the frame turned by `m psi_w`
    /// (`wake = (cos psi_w, sin psi_w)`): `alpha' = alpha cos + beta sin`, `beta' = -alpha sin + beta cos`.
    fn rotate<D: Scalar>(&self, x: &[D], wake: (D, D), out: &mut [D]) {
        let mut cos_m = [D::from(1.0); MAX_HARMONIC + 1];
        let mut sin_m = [D::from(0.0); MAX_HARMONIC + 1];
        for m in 1..=self.harmonics {
            cos_m[m] = cos_m[m - 1] * wake.0 - sin_m[m - 1] * wake.1;
            sin_m[m] = sin_m[m - 1] * wake.0 + cos_m[m - 1] * wake.1;
        }
        let radial = self.modes().iter().filter(|mode| mode.m == 0).count();
        for (i, mode) in self.modes().iter().enumerate() {
            out[i] = if mode.m == 0 {
                x[i]
            } else if mode.sine {
                let partner = i - radial;
                -x[partner] * sin_m[mode.m] + x[i] * cos_m[mode.m]
            } else {
                let partner = i + radial;
                x[i] * cos_m[mode.m] + x[partner] * sin_m[mode.m]
            };
        }
    }
}

/// `y[block] = L_block^-1 xw[block]` for one block of `L` (its `entries` row-major, from the
/// powers of `X`), in a matrix of capacity `CAP >= block.len()^2`.
fn solve_block<D: Scalar, const CAP: usize>(block: &[usize], entries: &[LEntry], powers: &[D], xw: &[D], y: &mut [D]) {
    let nb = block.len();
    let mut a = [D::from(0.0); CAP];
    for (dst, e) in a.iter_mut().zip(entries) {
        if e.gamma != 0.0 {
            let mut v = powers[e.p1 as usize];
            if e.c2 != 0.0 {
                v += powers[e.p2 as usize] * e.c2;
            }
            *dst = v * e.gamma;
        }
    }
    let mut rhs = [D::from(0.0); BLOCK_MAX];
    for (r, &i) in rhs.iter_mut().zip(block) {
        *r = xw[i];
    }
    solve(&mut a[..nb * nb], &mut rhs[..nb]);
    for (r, &i) in rhs.iter().zip(block) {
        y[i] = *r;
    }
}

/// Solves `a y = b` in place (`a` row-major `n x n`, `b` becomes `y`): Gaussian elimination with
/// partial pivoting on the real parts.
fn solve<D: Scalar>(a: &mut [D], b: &mut [D]) {
    let n = b.len();
    for c in 0..n {
        let pivot = (c..n).max_by(|&i, &k| a[i * n + c].re().abs().total_cmp(&a[k * n + c].re().abs())).unwrap_or(c);
        if pivot != c {
            for k in 0..n {
                a.swap(c * n + k, pivot * n + k);
            }
            b.swap(c, pivot);
        }
        let inv = a[c * n + c].recip();
        for i in c + 1..n {
            let f = a[i * n + c] * inv;
            if f.re() == 0.0 && D::NDERIV == 0 {
                continue;
            }
            for k in c..n {
                let v = a[c * n + k];
                a[i * n + k] -= f * v;
            }
            let v = b[c];
            b[i] -= f * v;
        }
    }
    for c in (0..n).rev() {
        let mut v = b[c];
        for k in c + 1..n {
            v -= a[c * n + k] * b[k];
        }
        b[c] = v / a[c * n + c];
    }
}

/// The Cheeseman-Bennett factor `k_G = 1 - (R / 4z)^2 / (1 + (mu / lambda_i)^2)` on the induced
/// velocity for the ratio `radius_over_height = R / z` (0: no ground), the advance ratio `mu` and
/// the mean induced inflow ratio `lambda_i`.
pub fn ground_factor<D: Scalar>(radius_over_height: f64, mu: D, lambda_i: D) -> D {
    if radius_over_height == 0.0 {
        return D::from(1.0);
    }
    let image = (0.25 * radius_over_height).powi(2);
    let l2 = lambda_i * lambda_i;
    let d = l2 + mu * mu;
    if d.re() <= 0.0 {
        return D::from(1.0 - image);
    }
    // 1 / (1 + mu^2 / l^2) = l^2 / (l^2 + mu^2).
    -(l2 / d) * image + 1.0
}

/// The Peters-He inflow of states `x` for the section loop ([`DiskInflow`]), scaled by the
/// ground-effect factor, collecting the forcing sums `sum(dT phi trig)` of the sections.
#[derive(Debug)]
pub struct Disk<'a, D> {
    model: &'a PetersHe,
    x: &'a [D],
    /// Factor on the induced velocity (ground effect; 1 without).
    scale: D,
    /// `sum(dT phi trig)` per state, N (unscaled; see [`PetersHe::scale_forcing`]).
    pub forcing: [D; N_DECLARED],
    /// The current blade's shaft-axis force per station, N (zero where the section loop gave
    /// none), added to `forcing` at the blade's end.
    dt: [D; NS_MAX],
}

/// What [`Disk`] keeps per blade: each state's `cos(m psi)` or `sin(m psi)`, and the inflow
/// ratio at each station.
#[derive(Debug)]
pub struct DiskBlade<D> {
    trig: [D; N_DECLARED],
    inflow: [D; NS_MAX],
}

impl<'a, D: Scalar> Disk<'a, D> {
    /// The inflow of `model` with states `x`, times `scale`.
    pub fn new(model: &'a PetersHe, x: &'a [D], scale: D) -> Self {
        Disk { model, x, scale, forcing: [D::from(0.0); N_DECLARED], dt: [D::from(0.0); NS_MAX] }
    }
}

impl<D: Scalar> DiskInflow<D> for &mut Disk<'_, D> {
    type Blade = DiskBlade<D>;

    fn blade(&mut self, sin_psi: D, cos_psi: D) -> Self::Blade {
        let trig = self.model.trig(sin_psi, cos_psi);
        let mut coef = [D::from(0.0); N_DECLARED];
        for s in 0..self.model.n {
            coef[s] = self.x[s] * trig[s] * self.scale;
        }
        let mut inflow = [D::from(0.0); NS_MAX];
        self.model.blade_inflow(&coef, &mut inflow);
        self.dt = [D::from(0.0); NS_MAX];
        DiskBlade { trig, inflow }
    }

    fn at(&self, blade: &Self::Blade, j: usize, _r_over_radius: f64) -> D {
        blade.inflow[j]
    }

    fn section_thrust(&mut self, _blade: &Self::Blade, j: usize, dt: D) {
        self.dt[j] = dt;
    }

    fn end_blade(&mut self, blade: &Self::Blade) {
        self.model.add_blade_forcing(&mut self.forcing, &blade.trig, &self.dt);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inflow::{M0, M1, pitt_peters_rates};
    use crate::quadrature::{Rule, stations};

    const PI: f64 = std::f64::consts::PI;

    fn hover(lambda_climb: f64) -> FlightCondition<f64> {
        FlightCondition { mu: 0.0, lambda_climb, wake: (1.0, 0.0) }
    }

    /// The shape functions equal `Pbar_j^m(nu) / nu`, the normalised associated Legendre
    /// functions evaluated independently by `tests/python/peters_he_reference.py` (SciPy `lpmv`).
    #[test]
    fn shape_functions_are_normalised_legendre_functions() {
        let reference = [
            ((0, 3), [2.050457266075, -1.074836470120, -3.968613737847]),
            ((0, 5), [1.438710376246, -1.478553922654, 6.218613441116]),
            ((1, 2), [0.821583836258, 2.053959590644, 2.738610048913]),
            ((1, 4), [1.695498543939, 0.078611764834, -5.031124439543]),
            ((2, 3), [0.326055976789, 2.037849854933, 3.622836940862]),
            ((3, 6), [0.437046981566, 1.765664350231, -6.927285868221]),
            ((4, 5), [0.042143602161, 1.646234459423, 5.202893035442]),
        ];
        for ((m, j), values) in reference {
            for (r, v) in [0.3, 0.75, 0.999999].into_iter().zip(values) {
                assert!((shape(m, j, r) - v).abs() < 2e-5 * v.abs().max(1.0), "({m},{j}) at {r}: {}", shape(m, j, r));
            }
        }
        assert_eq!(shape(0, 1, 0.4), 3.0_f64.sqrt());
    }

    /// In axial flow (X = 0) `L` is block diagonal with the blocks
    /// `int_0^1 Pbar_j^m Pbar_n^m r dr`, the Galerkin projection of actuator-disk theory
    /// (integrals by `tests/python/peters_he_reference.py`).
    #[test]
    fn axial_flow_l_matrix_is_the_galerkin_projection() {
        let reference: [(usize, [[f64; 4]; 4]); 3] = [
            (
                0,
                [
                    [0.750000000000, 0.190940653956, -0.029919597117, 0.010481568645],
                    [0.190940653956, 0.656250000000, 0.205663227830, -0.037358674668],
                    [-0.029919597117, 0.205663227830, 0.644531250000, 0.209069540668],
                    [0.010481568645, -0.037358674668, 0.209069540668, 0.640869140625],
                ],
            ),
            (
                1,
                [
                    [0.625000000000, 0.191366386155, -0.033329264075, 0.012475562049],
                    [0.191366386155, 0.632812500000, 0.204099226213, -0.038198451593],
                    [-0.033329264075, 0.204099226213, 0.634765625000, 0.207900651004],
                    [0.012475562049, -0.038198451593, 0.207900651004, 0.635528564453],
                ],
            ),
            (
                4,
                [
                    [0.451171875000, 0.161132812500, -0.031655011615, 0.012979660902],
                    [0.161132812500, 0.543823242188, 0.184654234421, -0.036343050526],
                    [-0.031655011615, 0.184654234421, 0.580413818359, 0.194719047770],
                    [0.012979660902, -0.036343050526, 0.194719047770, 0.598812103271],
                ],
            ),
        ];
        for (m, block) in reference {
            for (a, row) in block.iter().enumerate() {
                for (b, v) in row.iter().enumerate() {
                    let g = gamma(m, m + 2 * a + 1, m, m + 2 * b + 1);
                    assert!((g - v).abs() < 1e-11, "m {m} ({a},{b}): {g} vs {v}");
                }
            }
        }
    }

    /// Jacobian of the rates by central differences, and the rates.
    fn jacobian(model: &PetersHe, x: &[f64], tau: &[f64], flight: &FlightCondition<f64>) -> Vec<Vec<f64>> {
        let n = model.n_states();
        (0..n)
            .map(|k| {
                let h = 1e-7;
                let (mut xp, mut xm) = (x.to_vec(), x.to_vec());
                xp[k] += h;
                xm[k] -= h;
                let (mut dp, mut dm) = (vec![0.0; n], vec![0.0; n]);
                model.rates(&xp, tau, flight, 1.0, &mut dp);
                model.rates(&xm, tau, flight, 1.0, &mut dm);
                (0..n).map(|i| (dp[i] - dm[i]) / (2.0 * h)).collect()
            })
            .collect()
    }

    /// One harmonic, one radial function each (the 3 lowest states) against today's
    /// Pitt-Peters: the states map as `lambda_0 = sqrt(3) alpha_1^0`,
    /// `lambda_c = sqrt(15/2) alpha_2^1c` (the shape functions at `r`), the forcing as
    /// `tau_1^0 = sqrt(3)/2 CT`, `tau_2^1 = sqrt(15/2) C_c`. Peters-He's pressure shapes are
    /// elliptical where Pitt-Peters' are uniform and linear, so in hover the mean inflow is
    /// `2 V_T lambda_m = (9/8) CT` (momentum theory: `CT`), the harmonics' apparent mass is the
    /// same `16 / (45 pi)` and their `L` entry `75/64` of Pitt-Peters'; the time constants are
    /// Pitt-Peters' times `225/128` (uniform part) and `75/64` (harmonics, at every skew angle:
    /// the `1 - X^2`, `1 + X^2` of `L^c`, `L^s` are Pitt-Peters' `4 cos X / (1 + cos X)`,
    /// `4 / (1 + cos X)`).
    #[test]
    fn one_harmonic_is_the_pitt_peters_limit_with_elliptic_loading() {
        let model = PetersHe::new(1, 1, &[0.5]);
        assert_eq!(model.n_states(), 3);
        let ct = 0.006;
        let s3 = 3.0_f64.sqrt();
        // Hover: steady lambda_m^2 = 9 CT / 16; Pitt-Peters: lambda_0^2 = CT / 2.
        let lam = (9.0 * ct / 16.0_f64).sqrt();
        let x = [lam / s3, 0.0, 0.0];
        let tau = [s3 / 2.0 * ct, 0.0, 0.0];
        let mut d = [0.0; 3];
        model.rates(&x, &tau, &hover(0.0), 1.0, &mut d);
        assert!(d.iter().all(|v| v.abs() < 1e-14), "{d:?}");
        // Time constants in hover (Jacobian diagonal, the states decouple) against Pitt-Peters'.
        let jac = jacobian(&model, &x, &tau, &hover(0.0));
        let lam_pp = (ct / 2.0_f64).sqrt();
        let h = 1e-7;
        let pp = |k: usize| {
            let (mut p, mut m) = ([lam_pp, 0.0, 0.0], [lam_pp, 0.0, 0.0]);
            p[k] += h;
            m[k] -= h;
            let (dp, dm) = (
                pitt_peters_rates(p, [ct, 0.0, 0.0], &hover(0.0), 1.0),
                pitt_peters_rates(m, [ct, 0.0, 0.0], &hover(0.0), 1.0),
            );
            (dp[k] - dm[k]) / (2.0 * h)
        };
        // Pitt-Peters' own closed forms first: tau_0 = M0 / (4 lambda), tau_1 = 2 M1 / (2 lambda).
        assert!((-1.0 / pp(0) - M0 / (4.0 * lam_pp)).abs() < 1e-6 * M0 / lam_pp);
        assert!((-1.0 / pp(2) - M1 / lam_pp).abs() < 1e-6 * M1 / lam_pp);
        // Peters-He at its own steady inflow, scaled to Pitt-Peters' by lam / lam_pp.
        let ratio0 = (-1.0 / jac[0][0]) / (-1.0 / pp(0)) * lam / lam_pp;
        let ratio_c = (-1.0 / jac[1][1]) / (-1.0 / pp(2)) * lam / lam_pp;
        assert!((ratio0 - 225.0 / 128.0).abs() < 1e-5, "{ratio0}");
        assert!((ratio_c - 75.0 / 64.0).abs() < 1e-5, "{ratio_c}");
        assert!((jac[2][2] - jac[1][1]).abs() < 1e-9);

        // Forward flight, any wake azimuth: the mean inflow obeys Glauert's form with the 9/8,
        // 2 V_T lambda_m = (9/8) CT, and the harmonic decay rates keep Pitt-Peters' skew laws.
        for psi_w in [0.0_f64, 1.1, 3.0] {
            let flight = FlightCondition { mu: 0.2, lambda_climb: 0.01, wake: (psi_w.cos(), psi_w.sin()) };
            let mut x = [0.02, 0.0, 0.0];
            for _ in 0..100_000 {
                model.rates(&x, &tau, &flight, 1.0, &mut d);
                for k in 0..3 {
                    x[k] += 2e-3 * d[k];
                }
            }
            let lam_m = s3 * x[0];
            let total = flight.lambda_climb + lam_m;
            let v_t = (flight.mu.powi(2) + total * total).sqrt();
            assert!((2.0 * v_t * lam_m - 9.0 / 8.0 * ct).abs() < 1e-12, "{}", 2.0 * v_t * lam_m / ct);
            // The wake-frame gradient points downstream, none across it.
            let (c, s) = (x[1], x[2]);
            let along = c * psi_w.cos() + s * psi_w.sin();
            let across = -c * psi_w.sin() + s * psi_w.cos();
            assert!(along > 0.0 && across.abs() < 1e-12 * along.abs().max(1e-3), "{along} {across}");
            // The tip gradient along the wake: by hand from the L entries,
            // lambda_c / lambda_m = sqrt(5/2) 2 Gamma(1 2, 0 1) X / Gamma(0 1, 0 1) = (2 pi / 3) X
            // (Pitt-Peters / Coleman: 15 pi / 32 X; the odd Gamma is not checked against a paper).
            let tip = along * 7.5_f64.sqrt();
            let x_skew = flight.mu / (v_t + total);
            assert!((tip / lam_m - 2.0 * PI / 3.0 * x_skew).abs() < 1e-9, "{}", tip / lam_m / x_skew);
        }
    }

    /// The harmonic time constants follow Pitt-Peters' skew laws at every skew angle: the
    /// `75/64` ratio holds for the longitudinal (`1 - X^2`) and lateral (`1 + X^2`) harmonics.
    #[test]
    fn harmonic_skew_laws_match_pitt_peters() {
        let model = PetersHe::new(1, 1, &[0.5]);
        let lam = 0.03;
        for mu in [0.05, 0.15, 0.3] {
            let flight = FlightCondition { mu, lambda_climb: 0.0, wake: (1.0, 0.0) };
            let x = [lam / 3.0_f64.sqrt(), 0.0, 0.0];
            let jac = jacobian(&model, &x, &[0.0; 3], &flight);
            let h = 1e-7;
            // Pitt-Peters, lateral state (index 1) and longitudinal (index 2), at lambda_0 = lam.
            let pp = |k: usize| {
                let (mut p, mut m) = ([lam, 0.0, 0.0], [lam, 0.0, 0.0]);
                p[k] += h;
                m[k] -= h;
                (pitt_peters_rates(p, [0.0; 3], &flight, 1.0)[k] - pitt_peters_rates(m, [0.0; 3], &flight, 1.0)[k])
                    / (2.0 * h)
            };
            // Peters-He's state order: alpha_1^0, alpha_2^1 (cos), beta_2^1 (sin). In the
            // longitudinal pair Pitt-Peters couples lambda_c with lambda_0; compare the lateral
            // (uncoupled) state exactly and the longitudinal diagonal through its L^-1 entry.
            let lateral = jac[2][2] / pp(1);
            assert!((lateral - 64.0 / 75.0).abs() < 1e-6, "mu {mu}: {lateral}");
        }
    }

    /// Steady axial-flow inflow of a prescribed loading (pressure `c r`) with 1..4 radial
    /// functions, through the FMU's forcing path, against `tests/python/peters_he_reference.py`
    /// (independent Legendre functions and Galerkin integrals); the mean inflow converges
    /// monotonically with the number of radial functions.
    #[test]
    fn steady_axial_inflow_matches_reference_and_converges() {
        let reference = [
            (0.041143782777, [0.041143782777, 0.041143782777, 0.041143782777]),
            (0.037159344547, [0.026262047122, 0.031886458696, 0.040323076057]),
            (0.036870067886, [0.029747693360, 0.032834394028, 0.038417084896]),
            (0.036783904829, [0.027754014787, 0.037090611115, 0.039773173284]),
        ];
        let (r, w) = stations(Rule::GaussLegendre, NS_MAX, 0.0, 1.0);
        let (lam_c, c) = (0.05, 0.01);
        let mut previous_change = f64::INFINITY;
        let mut previous = None;
        for (k, (lam_ref, at_ref)) in reference.iter().enumerate() {
            let model = PetersHe::new(0, k + 1, &r);
            let n = model.n_states();
            // One blade carrying the whole disk's pressure: dT = 2 pi dP r w (thrust scale pi).
            let mut forcing = vec![0.0; N_DECLARED];
            let trig = model.trig(0.0, 1.0);
            for j in 0..NS_MAX {
                model.add_forcing(&mut forcing, &trig, j, 2.0 * PI * c * r[j] * r[j] * w[j]);
            }
            model.scale_forcing(&mut forcing, PI);
            let mut x = vec![0.0; n];
            let mut d = vec![0.0; n];
            for _ in 0..4000 {
                model.rates(&x, &forcing, &hover(lam_c), 1.0, &mut d);
                x.iter_mut().zip(&d).for_each(|(x, d)| *x += 0.5 * d);
            }
            let lam_m = model.mean_inflow(&x);
            assert!((lam_m - lam_ref).abs() < 1e-9, "K {}: {lam_m} vs {lam_ref}", k + 1);
            for (rr, v) in [0.3, 0.5, 0.7].into_iter().zip(at_ref) {
                let inflow: f64 = model.modes().iter().zip(&x).map(|(mode, a)| a * shape(mode.m, mode.j, rr)).sum();
                assert!((inflow - v).abs() < 1e-9, "K {} r {rr}: {inflow} vs {v}", k + 1);
            }
            if let Some(p) = previous {
                let change = f64::abs(lam_m - p);
                assert!(change < previous_change);
                previous_change = change;
            }
            previous = Some(lam_m);
        }
    }

    /// The Cheeseman-Bennett factor: `1 - (R/4z)^2` in hover, the thrust ratio `1 / k_G` at
    /// constant power, e.g. `T/T_inf = 1 / (1 - 1/16) = 16/15` at `z = R`; none far away or fast.
    #[test]
    fn ground_effect_is_cheeseman_bennett() {
        let k: f64 = ground_factor(1.0, 0.0, 0.05);
        assert!((1.0 / k - 16.0 / 15.0).abs() < 1e-15);
        let k: f64 = ground_factor(2.0, 0.0, 0.05);
        assert!((k - 0.75).abs() < 1e-15);
        // mu = lambda_i: V / v_i = 1 halves the image's effect.
        let k: f64 = ground_factor(1.0, 0.05, 0.05);
        assert!((k - (1.0 - 0.5 / 16.0)).abs() < 1e-15);
        assert_eq!(ground_factor::<f64>(0.0, 0.1, 0.05), 1.0);
    }
}

#[cfg(test)]
mod edgewise {
    use super::*;
    use crate::quadrature::{Rule, stations};

    /// At the 90 deg skew limit (`X = 1`, e.g. a wake in the disk plane) every truncation's `L`
    /// stays solvable: the rates are finite.
    #[test]
    fn rates_are_finite_at_the_skew_limit() {
        for m in 0..=MAX_HARMONIC {
            for k in 1..=MAX_RADIAL {
                let model = PetersHe::new(m, k, &[0.5]);
                let n = model.n_states();
                let x: Vec<f64> = (0..n).map(|i| 0.01 / (1.0 + i as f64)).collect();
                let tau = vec![0.001; n];
                let mut d = vec![0.0; n];
                for lambda_climb in [-0.2, 0.0] {
                    let flight = FlightCondition { mu: 0.3, lambda_climb, wake: (0.6, 0.8) };
                    model.rates(&x, &tau, &flight, 30.0, &mut d);
                    assert!(d.iter().all(|v| v.is_finite() && v.abs() < 1e6), "M {m} K {k}: {d:?}");
                }
            }
        }
    }
    /// The blade-level sums of the section loop (inflow at every station, forcing of every
    /// station) equal the per-station sums bit for bit, for the 10- and 36-state truncations.
    #[test]
    fn blade_sums_equal_the_per_station_sums_bit_for_bit() {
        let (r, _) = stations(Rule::Midpoint, 20, 0.1, 1.0);
        for (m, k) in [(2, 2), (4, 4)] {
            let model = PetersHe::new(m, k, &r);
            let n = model.n_states();
            let coef: Vec<f64> =
                (0..n).map(|s| 0.01 * (s as f64 + 1.0).sqrt() * if s % 3 == 0 { -1.0 } else { 1.0 }).collect();
            let mut inflow = [0.0; NS_MAX];
            model.blade_inflow(&coef, &mut inflow);
            let trig = model.trig(0.3_f64.sin(), 0.3_f64.cos());
            let dt: Vec<f64> = (0..r.len()).map(|j| 100.0 + 7.0 * j as f64 - 0.3 * (j * j) as f64).collect();
            let (mut by_blade, mut by_station) = (vec![0.0; N_DECLARED], vec![0.0; N_DECLARED]);
            model.add_blade_forcing(&mut by_blade, &trig, &dt);
            for j in 0..r.len() {
                assert_eq!(inflow[j], model.station_inflow(&coef, j), "station {j}");
                model.add_forcing(&mut by_station, &trig, j, dt[j]);
            }
            assert_eq!(by_blade, by_station);
        }
    }
}
