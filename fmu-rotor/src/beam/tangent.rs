//! The element's internal force and tangent stiffness in closed form (no automatic
//! differentiation): the gradient and the Hessian of [`Element::strain_energy`] with respect to the
//! increments `[du_1, dpsi_1, du_2, dpsi_2]` at zero, the same quantities that AD of the energy
//! gives (kept as the test oracle, [`Element::strain_hessian_ad`]).
//!
//! Work in the mid section's material axes (`R_r`, rotation vector `phi` of `R_1^T R_2`):
//! increments `mu_i = R_r^T du_i`, `alpha = R_r^T dpsi_1`, `beta = R_r^T dpsi_2`. Then, to first
//! order,
//! * `phi' = phi + S (beta - alpha)`, `S = J_l(phi)^-1 exp(phi~/2) = I + c(t) phi~^2` (symmetric),
//!   `c = (1 - kappa) / t`, `kappa = (theta/2) / sin(theta/2)`, `t = theta^2 = |phi|^2`;
//! * `R_r' = R_r exp(omega~)`, `omega = (I - W) alpha + W beta`,
//!   `W = J_r(phi/2) S / 2 = I/2 - b(t) phi~`, `b = tan(theta/4) / (2 theta)`;
//! * `g = R_r^T (x_2 - x_1) / L` (so `Gamma = g - Gamma_0`) moves by `g~ omega + (mu_2 - mu_1) / L`.
//!
//! These give the strain matrix `B` (`de = B dz`) and the internal force `F = L B^T C e`. The
//! tangent `K = dF/dz` is the material part `L B^T C B` plus the geometric part: the derivative of
//! `B^T` at fixed stress resultants `n = C Gamma`, `m = C K` (through `g`, `S(phi)`, `W(phi)`)
//! plus the turning of the mid frame the force is expressed in (`-F_block~ omega`). For an
//! energy on rotations charted by `exp(dpsi~) R`, the Hessian at zero is the symmetric part of
//! that tangent (the chart's second-order term `-dpsi~/2` cancels its skew part), so the Hessian
//! is `sym(K)`, turned back to frame axes block by block. What the structural damping needs, the
//! tangent times the increments' rates `K z'`, is the directional derivative of the gradient's
//! closed form ([`Element::strain_energy_gradient_rate`]), without forming `K`.

use nalgebra::{Matrix3, SMatrix, SVector, Vector3, Vector6};
use num_dual::{Dual2SVec64, hessian};

use super::element::{Element, ElementNodes};
use super::rotation::{Quat, hemisphere, power_series, quat_conj, quat_log, quat_mul, quat_sqrt, rotation_columns};

/// Energy (J), gradient (12) and Hessian (12 x 12) of one element.
pub type EnergyDerivatives = (f64, SVector<f64, 12>, SMatrix<f64, 12, 12>);

/// Below this `t = |phi|^2` (rad^2) the coefficient functions use their Taylor series.
const SERIES_BELOW: f64 = 1e-3;

/// Below this `tan^2(theta/2)` the half angle comes from the series of `atan` (to the 17th power:
/// truncated below 1e-19 relative) instead of `atan2`.
const ATAN_SERIES_BELOW: f64 = 1e-2;

/// `atan(x) / x = sum (-1)^n y^n / (2n + 1)` with `y = x^2`: the coefficients.
const ATAN_SERIES: [f64; 9] =
    [1.0, -1.0 / 3.0, 1.0 / 5.0, -1.0 / 7.0, 1.0 / 9.0, -1.0 / 11.0, 1.0 / 13.0, -1.0 / 15.0, 1.0 / 17.0];

/// Below this squared sine of the relative rotation's half angle the rotation vector comes from
/// [`quat_log`]'s series (its threshold).
const LOG_SERIES_BELOW: f64 = 1e-10;

/// `v~` (the cross-product matrix, `v~ a = v x a`).
fn skew(v: &Vector3<f64>) -> Matrix3<f64> {
    Matrix3::new(0.0, -v.z, v.y, v.z, 0.0, -v.x, -v.y, v.x, 0.0)
}

/// The rotation matrix of a unit quaternion (material to frame).
fn rotation_matrix(q: Quat<f64>) -> Matrix3<f64> {
    let [x, y, z] = rotation_columns(q).map(Vector3::from);
    Matrix3::from_columns(&[x, y, z])
}

/// The coefficient functions of the relative rotation `phi`, with `t = |phi|^2` (rad^2).
#[derive(Clone, Copy, Debug)]
struct Coefficients {
    /// `c(t) = (1 - kappa) / t`, `kappa = y / sin y`, `y = sqrt(t) / 2`.
    c: f64,
    /// `dc/dt`.
    dc: f64,
    /// `b(t) = tan(theta/4) / (2 theta)`, `theta = sqrt(t)`.
    b: f64,
    /// `db/dt`.
    db: f64,
}

impl Coefficients {
    /// Their Taylor series (for `t` below [`SERIES_BELOW`]).
    fn series(t: f64) -> Self {
        // y / sin y = 1 + y^2/6 + 7 y^4/360 + 31 y^6/15120 + 127 y^8/604800 with y^2 = t/4.
        let c = -1.0 / 24.0 - 7.0 * t / 5760.0 - 31.0 * t * t / 967_680.0 - 127.0 * t * t * t / 154_828_800.0;
        let dc = -7.0 / 5760.0 - 62.0 * t / 967_680.0 - 381.0 * t * t / 154_828_800.0;
        // tan z / (8 z) = 1/8 + z^2/24 + z^4/60 + 17 z^6/2520 with z^2 = t/16.
        let b = 0.125 + t / 384.0 + t * t / 15_360.0 + 17.0 * t * t * t / 10_321_920.0;
        let db = 1.0 / 384.0 + t / 7680.0 + 51.0 * t * t / 10_321_920.0;
        Self { c, dc, b, db }
    }

    /// At the angle `theta` (rad, in `[0, pi]`) whose half has the sine `sin_half` and the cosine
    /// `cos_half` (the relative rotation's quaternion: no trigonometric function evaluated):
    /// `kappa = y / sin y`, `dkappa/dt = (sin y - y cos y) / (8 y sin^2 y)` (`dt/dy = 8 y`), and
    /// `tan(theta/4) = sin y / (1 + cos y)`, `db/dtheta = (theta/4 (1 + tan^2(theta/4)) -
    /// tan(theta/4)) / (2 theta^2)`.
    fn from_half_angle(theta: f64, sin_half: f64, cos_half: f64) -> Self {
        let t = theta * theta;
        if t < SERIES_BELOW {
            return Self::series(t);
        }
        let y = 0.5 * theta;
        let kappa = y / sin_half;
        let dkappa = (sin_half - y * cos_half) / (sin_half * sin_half) / (8.0 * y);
        let tan_quarter = sin_half / (1.0 + cos_half);
        let db_dtheta = (0.25 * theta * (1.0 + tan_quarter * tan_quarter) - tan_quarter) / (2.0 * t);
        Self {
            c: (1.0 - kappa) / t,
            dc: (-dkappa * t - (1.0 - kappa)) / (t * t),
            b: tan_quarter / (2.0 * theta),
            db: db_dtheta / (2.0 * theta),
        }
    }
}

/// What the geometric tangent needs of one element's configuration (material axes of the mid
/// section).
struct Geometry {
    length: f64,
    /// Relative rotation vector `phi` (rad).
    phi: Vector3<f64>,
    /// Stretch vector `g = R_r^T (x_2 - x_1) / L`.
    g: Vector3<f64>,
    /// Force resultant `n = C Gamma` (N) and moment resultant `m = C K` (N m).
    n: Vector3<f64>,
    m: Vector3<f64>,
    /// `c(t)`, `dc/dt`, `b(t)`, `db/dt`.
    c: f64,
    dc: f64,
    b: f64,
    db: f64,
    /// `d omega / dz`, `d phi / dz`, `d g / dz`.
    d_omega: SMatrix<f64, 3, 12>,
    d_phi: SMatrix<f64, 3, 12>,
    d_g: SMatrix<f64, 3, 12>,
}

impl Geometry {
    /// Adds the geometric part of the tangent (material axes): `B^T` differentiated at fixed
    /// stress resultants, plus the turning of the mid frame the force `force` is written in.
    fn add_geometric_tangent(&self, tangent: &mut SMatrix<f64, 12, 12>, force: &SVector<f64, 12>) {
        let Self { length, phi, g, n, m, c, dc, b, db, d_omega, d_phi, d_g } = self;
        let identity = Matrix3::identity();
        let phi_skew = skew(phi);
        let w_transpose = identity * 0.5 + phi_skew * *b;
        let n_skew = skew(n);
        // d(W^T h)/dphi = 2 b' (phi x h) phi^T - b h~ with h = n x g.
        let h = n.cross(g);
        let d_wh = (phi.cross(&h) * phi.transpose()) * (2.0 * db) - skew(&h) * *b;
        // d(S m)/dphi = 2 c' (phi x (phi x m)) phi^T - c ((phi x m)~ + phi~ m~).
        let pm = phi.cross(m);
        let d_sm = (phi.cross(&pm) * phi.transpose()) * (2.0 * dc) - (skew(&pm) + phi_skew * skew(m)) * *c;
        let force_block = |i: usize| force.fixed_rows::<3>(3 * i).into_owned();
        let n_dg = n_skew * d_g;
        let rotation_rows = d_wh * d_phi * *length;
        let moment_rows = d_sm * d_phi;
        let rows: [SMatrix<f64, 3, 12>; 4] = [
            n_skew * d_omega,
            -skew(&force_block(1)) * d_omega - rotation_rows + (identity - w_transpose) * n_dg * *length - moment_rows,
            -n_skew * d_omega,
            -skew(&force_block(3)) * d_omega + rotation_rows + w_transpose * n_dg * *length + moment_rows,
        ];
        for (i, row) in rows.iter().enumerate() {
            let mut view = tangent.fixed_rows_mut::<3>(3 * i);
            view += row;
        }
    }
}

/// Places a 3x3 block at block row `i`, block column `j` of a 3x12 or 12x12 matrix.
fn add_block<const R: usize>(target: &mut SMatrix<f64, R, 12>, row: usize, col: usize, block: &Matrix3<f64>) {
    let mut view = target.fixed_view_mut::<3, 3>(3 * row, 3 * col);
    view += block;
}

/// One element's strains, stress resultants and strain matrix in the mid section's material
/// axes (see the module documentation).
struct Kinematics {
    /// The mid section's rotation (material to frame).
    mid: Matrix3<f64>,
    /// Strains `[Gamma, K]`.
    strain: Vector6<f64>,
    /// Stress resultants `C [Gamma, K]` (N, N m).
    stress: Vector6<f64>,
    /// `B`: `de = B dz`, `z = [mu_1, alpha, mu_2, beta]`.
    strain_matrix: SMatrix<f64, 6, 12>,
    /// What the geometric tangent needs.
    geometry: Geometry,
}

/// The element's mid section on its nodes: what both the gradient and the tangent start from.
struct Section {
    /// The mid section's rotation matrix `R_r` (material to frame).
    mid: Matrix3<f64>,
    /// Relative rotation vector `phi` (rad).
    phi: Vector3<f64>,
    /// Stretch vector `g = R_r^T (x_2 - x_1) / L`.
    g: Vector3<f64>,
    /// Strains `[Gamma, K]`.
    strain: Vector6<f64>,
    /// Stress resultants `C [Gamma, K]` (N, N m).
    stress: Vector6<f64>,
    /// The coefficient functions at `t = |phi|^2`.
    coefficients: Coefficients,
}

impl Element {
    /// The mid section's rotation, strains and stress resultants on `nodes`, and the coefficient
    /// functions: the relative rotation's angle by one `atan2` of its quaternion (its series
    /// below 0.2 rad), whose
    /// components also give the half angle's sine and cosine the coefficients need.
    fn section_state(&self, nodes: &ElementNodes) -> Section {
        let relative = hemisphere(quat_mul(quat_conj(nodes.rotations[0]), nodes.rotations[1]));
        let axis_sine = Vector3::new(relative[1], relative[2], relative[3]);
        let sin_half_sq = axis_sine.norm_squared();
        let (phi, coefficients) = if sin_half_sq < LOG_SERIES_BELOW {
            let phi = Vector3::from(quat_log(relative));
            (phi, Coefficients::series(phi.norm_squared()))
        } else {
            let sin_half = sin_half_sq.sqrt();
            let tan_half_sq = sin_half_sq / (relative[0] * relative[0]);
            let theta = if tan_half_sq < ATAN_SERIES_BELOW {
                2.0 * (sin_half / relative[0]) * power_series(tan_half_sq, &ATAN_SERIES)
            } else {
                2.0 * sin_half.atan2(relative[0])
            };
            (axis_sine * (theta / sin_half), Coefficients::from_half_angle(theta, sin_half, relative[0]))
        };
        let mid = rotation_matrix(quat_mul(nodes.rotations[0], quat_sqrt(relative)));
        let length = self.length;
        let chord = Vector3::from(nodes.positions[1]) - Vector3::from(nodes.positions[0]);
        let g = mid.tr_mul(&chord) / length;
        let strain = Vector6::new(
            g.x - self.initial_stretch[0],
            g.y - self.initial_stretch[1],
            g.z - self.initial_stretch[2],
            phi.x / length - self.initial_curvature[0],
            phi.y / length - self.initial_curvature[1],
            phi.z / length - self.initial_curvature[2],
        );
        Section { mid, phi, g, strain, stress: self.stiffness_times(&strain), coefficients }
    }

    /// `C e` with the section stiffness `C`.
    fn stiffness_times(&self, e: &Vector6<f64>) -> Vector6<f64> {
        let c = &self.section.stiffness;
        Vector6::from_fn(|i, _| {
            c[i][0] * e[0] + c[i][1] * e[1] + c[i][2] * e[2] + c[i][3] * e[3] + c[i][4] * e[4] + c[i][5] * e[5]
        })
    }

    /// The strains, stresses and strain matrix of the element on `nodes`.
    fn kinematics(&self, nodes: &ElementNodes) -> Kinematics {
        let Section { mid, phi, g, strain, stress, coefficients } = self.section_state(nodes);
        let length = self.length;
        let (n, m) = (stress.fixed_rows::<3>(0).into_owned(), stress.fixed_rows::<3>(3).into_owned());
        let Coefficients { c, dc, b, db } = coefficients;
        let phi_skew = skew(&phi);
        let identity = Matrix3::identity();
        let s = identity + phi_skew * phi_skew * c;
        let w = identity * 0.5 - phi_skew * b;

        // d(omega), d(epsilon = beta - alpha) and dg against z = [mu_1, alpha, mu_2, beta].
        let mut d_omega = SMatrix::<f64, 3, 12>::zeros();
        add_block(&mut d_omega, 0, 1, &(identity - w));
        add_block(&mut d_omega, 0, 3, &w);
        let mut d_phi = SMatrix::<f64, 3, 12>::zeros();
        add_block(&mut d_phi, 0, 1, &-s);
        add_block(&mut d_phi, 0, 3, &s);
        let mut d_g = skew(&g) * d_omega;
        add_block(&mut d_g, 0, 0, &(-identity / length));
        add_block(&mut d_g, 0, 2, &(identity / length));
        let mut strain_matrix = SMatrix::<f64, 6, 12>::zeros();
        strain_matrix.fixed_rows_mut::<3>(0).copy_from(&d_g);
        strain_matrix.fixed_rows_mut::<3>(3).copy_from(&(d_phi / length));
        let geometry = Geometry { length, phi, g, n, m, c, dc, b, db, d_omega, d_phi, d_g };
        Kinematics { mid, strain, stress, strain_matrix, geometry }
    }

    /// Strain energy (J) and its gradient (the internal force, N and N m, frame axes) with
    /// respect to the increments `[du_1, dpsi_1, du_2, dpsi_2]` at zero, in closed form: the
    /// first half of [`Element::strain_energy_derivatives`], for the time integration.
    ///
    /// `L B^T [n, m]` without forming `B`: with `h = n x g`, `W^T h = h/2 + b phi x h` and
    /// `S m = m + c phi x (phi x m)`, the blocks are `[-n, L (h - W^T h) - S m, n, L W^T h + S m]`
    /// (material axes), each turned to frame axes by `R_r`.
    pub fn strain_energy_gradient(&self, nodes: &ElementNodes) -> (f64, SVector<f64, 12>) {
        let Section { mid, phi, g, strain, stress, coefficients } = self.section_state(nodes);
        let length = self.length;
        let (n, m) = (stress.fixed_rows::<3>(0).into_owned(), stress.fixed_rows::<3>(3).into_owned());
        let Coefficients { c, b, .. } = coefficients;
        let h = n.cross(&g);
        let w_transpose_h = h * 0.5 + phi.cross(&h) * b;
        let s_m = m + phi.cross(&phi.cross(&m)) * c;
        let blocks = [-n, (h - w_transpose_h) * length - s_m, n, w_transpose_h * length + s_m];
        let mut gradient = SVector::<f64, 12>::zeros();
        for (i, block) in blocks.iter().enumerate() {
            gradient.fixed_rows_mut::<3>(3 * i).copy_from(&(mid * block));
        }
        (0.5 * length * strain.dot(&stress), gradient)
    }

    /// The gradient of [`Element::strain_energy_gradient`] (N, N m, frame axes) and its rate
    /// `K z'` (N/s, N m/s, frame axes) as the nodes move with the increments' rates
    /// `z' = [v_1, w_1, v_2, w_2]` (m/s, rad/s, frame axes), `K` the unsymmetrised tangent: the
    /// exact directional derivative of the gradient's closed form, without forming `K`.
    ///
    /// In material axes (`mu_i = R_r^T v_i`, `alpha = R_r^T w_1`, `beta = R_r^T w_2`):
    /// `omega' = (alpha + beta) / 2 + b phi x (alpha - beta)`, `phi' = S (beta - alpha)`,
    /// `g' = g x omega' + (mu_2 - mu_1) / L`, `[n', m'] = C [g', phi' / L]`, `t' = 2 phi . phi'`;
    /// each block `f` of the gradient (material axes) has the rate `f'` by the product rule, and
    /// its frame-axes rate is `R_r (f' + omega' x f)`.
    pub fn strain_energy_gradient_rate(
        &self,
        nodes: &ElementNodes,
        rates: &SVector<f64, 12>,
    ) -> (SVector<f64, 12>, SVector<f64, 12>) {
        let Section { mid, phi, g, stress, coefficients, .. } = self.section_state(nodes);
        let length = self.length;
        let (n, m) = (stress.fixed_rows::<3>(0).into_owned(), stress.fixed_rows::<3>(3).into_owned());
        let Coefficients { c, dc, b, db } = coefficients;
        let material = |i: usize| mid.tr_mul(&rates.fixed_rows::<3>(3 * i));
        let (mu_1, alpha, mu_2, beta) = (material(0), material(1), material(2), material(3));
        let omega_rate = (alpha + beta) * 0.5 + phi.cross(&(alpha - beta)) * b;
        let epsilon = beta - alpha;
        let phi_rate = epsilon + phi.cross(&phi.cross(&epsilon)) * c;
        let g_rate = g.cross(&omega_rate) + (mu_2 - mu_1) / length;
        let phi_rate_per_length = phi_rate / length;
        let strain_rate = Vector6::new(
            g_rate.x,
            g_rate.y,
            g_rate.z,
            phi_rate_per_length.x,
            phi_rate_per_length.y,
            phi_rate_per_length.z,
        );
        let stress_rate = self.stiffness_times(&strain_rate);
        let (n_rate, m_rate) =
            (stress_rate.fixed_rows::<3>(0).into_owned(), stress_rate.fixed_rows::<3>(3).into_owned());
        let t_rate = 2.0 * phi.dot(&phi_rate);
        let (c_rate, b_rate) = (dc * t_rate, db * t_rate);
        let h = n.cross(&g);
        let h_rate = n_rate.cross(&g) + n.cross(&g_rate);
        let w_transpose_h = h * 0.5 + phi.cross(&h) * b;
        let w_transpose_h_rate = h_rate * 0.5 + phi.cross(&h) * b_rate + (phi_rate.cross(&h) + phi.cross(&h_rate)) * b;
        let pm = phi.cross(&m);
        let s_m = m + phi.cross(&pm) * c;
        let pm_rate = phi_rate.cross(&m) + phi.cross(&m_rate);
        let s_m_rate = m_rate + phi.cross(&pm) * c_rate + (phi_rate.cross(&pm) + phi.cross(&pm_rate)) * c;
        let blocks = [-n, (h - w_transpose_h) * length - s_m, n, w_transpose_h * length + s_m];
        let block_rates = [
            -n_rate,
            (h_rate - w_transpose_h_rate) * length - s_m_rate,
            n_rate,
            w_transpose_h_rate * length + s_m_rate,
        ];
        let (mut gradient, mut gradient_rate) = (SVector::<f64, 12>::zeros(), SVector::<f64, 12>::zeros());
        for (i, (block, rate)) in blocks.iter().zip(&block_rates).enumerate() {
            let turned_rate = rate + omega_rate.cross(block);
            gradient.fixed_rows_mut::<3>(3 * i).copy_from(&(mid * block));
            gradient_rate.fixed_rows_mut::<3>(3 * i).copy_from(&(mid * turned_rate));
        }
        (gradient, gradient_rate)
    }

    /// Strain energy (J), its gradient (the internal force, N and N m, frame axes) and Hessian
    /// (the tangent stiffness) with respect to the increments `[du_1, dpsi_1, du_2, dpsi_2]` at
    /// zero, in closed form (see the module documentation).
    pub fn strain_energy_derivatives(&self, nodes: &ElementNodes) -> EnergyDerivatives {
        let Kinematics { mid, strain, stress, strain_matrix, geometry } = self.kinematics(nodes);
        let length = self.length;
        let stiffness = SMatrix::<f64, 6, 6>::from_fn(|i, j| self.section.stiffness[i][j]);
        let force = strain_matrix.transpose() * stress * length;
        let mut tangent = strain_matrix.transpose() * stiffness * strain_matrix * length;
        geometry.add_geometric_tangent(&mut tangent, &force);
        let tangent = (tangent + tangent.transpose()) * 0.5;

        // Back to frame axes: z = blockdiag(R_r^T) q.
        let mut gradient = SVector::<f64, 12>::zeros();
        let mut hessian = SMatrix::<f64, 12, 12>::zeros();
        for i in 0..4 {
            gradient.fixed_rows_mut::<3>(3 * i).copy_from(&(mid * force.fixed_rows::<3>(3 * i)));
            for j in 0..4 {
                let block = mid * tangent.fixed_view::<3, 3>(3 * i, 3 * j) * mid.transpose();
                hessian.fixed_view_mut::<3, 3>(3 * i, 3 * j).copy_from(&block);
            }
        }
        (0.5 * length * strain.dot(&stress), gradient, hessian)
    }
}

impl Element {
    /// The same as [`Element::strain_energy_derivatives`] by forward-mode automatic
    /// differentiation of [`Element::strain_energy`] (second-order dual numbers): the test
    /// oracle of the closed form, about 100 times slower.
    pub fn strain_hessian_ad(&self, nodes: &ElementNodes) -> EnergyDerivatives {
        hessian(
            |dq: SVector<Dual2SVec64<12>, 12>| {
                let dq: [Dual2SVec64<12>; 12] = dq.into();
                self.strain_energy(nodes, &dq)
            },
            &SVector::zeros(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::{ATAN_SERIES, ATAN_SERIES_BELOW};
    use crate::beam::rotation::power_series;

    /// The `atan` series the relative rotation's angle uses below [`ATAN_SERIES_BELOW`] against
    /// the standard library's `atan`: within 4e-16 relative (two units in the last place) over 1000 ratios up to the threshold.
    #[test]
    fn atan_series_matches_the_standard_library() {
        let limit = ATAN_SERIES_BELOW.sqrt();
        let worst = (1..=1000)
            .map(|k| limit * f64::from(k) / 1000.0 * (1.0 - 1e-12))
            .map(|x| ((x * power_series(x * x, &ATAN_SERIES) - x.atan()) / x.atan()).abs())
            .fold(0.0, f64::max);
        assert!(worst < 4e-16, "worst relative difference {worst:e}");
    }
}
