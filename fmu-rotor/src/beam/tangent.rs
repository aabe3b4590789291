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
use super::rotation::{Quat, quat_conj, quat_log, quat_mul, quat_sqrt, rotate, rotate_back};

/// Energy (J), gradient (12) and Hessian (12 x 12) of one element.
pub type EnergyDerivatives = (f64, SVector<f64, 12>, SMatrix<f64, 12, 12>);

/// Below this `t = |phi|^2` (rad^2) the coefficient functions use their Taylor series.
const SERIES_BELOW: f64 = 1e-3;

/// `v~` (the cross-product matrix, `v~ a = v x a`).
fn skew(v: &Vector3<f64>) -> Matrix3<f64> {
    Matrix3::new(0.0, -v.z, v.y, v.z, 0.0, -v.x, -v.y, v.x, 0.0)
}

/// The rotation matrix of a unit quaternion (material to frame).
fn rotation_matrix(q: Quat<f64>) -> Matrix3<f64> {
    let column = |k: usize| {
        let mut e = [0.0; 3];
        e[k] = 1.0;
        Vector3::from(rotate(q, e))
    };
    Matrix3::from_columns(&[column(0), column(1), column(2)])
}

/// `c(t) = (1 - kappa) / t` and `dc/dt`, `kappa = y / sin y`, `y = sqrt(t) / 2`.
fn coefficient_c(t: f64) -> (f64, f64) {
    if t < SERIES_BELOW {
        // y / sin y = 1 + y^2/6 + 7 y^4/360 + 31 y^6/15120 + 127 y^8/604800 with y^2 = t/4.
        let c = -1.0 / 24.0 - 7.0 * t / 5760.0 - 31.0 * t * t / 967_680.0 - 127.0 * t * t * t / 154_828_800.0;
        let dc = -7.0 / 5760.0 - 62.0 * t / 967_680.0 - 381.0 * t * t / 154_828_800.0;
        return (c, dc);
    }
    let y = 0.5 * t.sqrt();
    let kappa = y / y.sin();
    // dkappa/dt = (dkappa/dy) / (dt/dy), dt/dy = 8 y.
    let dkappa = (y.sin() - y * y.cos()) / (y.sin() * y.sin()) / (8.0 * y);
    ((1.0 - kappa) / t, (-dkappa * t - (1.0 - kappa)) / (t * t))
}

/// `b(t) = tan(theta/4) / (2 theta)` and `db/dt`, `theta = sqrt(t)`.
fn coefficient_b(t: f64) -> (f64, f64) {
    if t < SERIES_BELOW {
        // tan z / (8 z) = 1/8 + z^2/24 + z^4/60 + 17 z^6/2520 with z^2 = t/16.
        let b = 0.125 + t / 384.0 + t * t / 15_360.0 + 17.0 * t * t * t / 10_321_920.0;
        let db = 1.0 / 384.0 + t / 7680.0 + 51.0 * t * t / 10_321_920.0;
        return (b, db);
    }
    let theta = t.sqrt();
    let quarter = 0.25 * theta;
    let b = quarter.tan() / (2.0 * theta);
    let db_dtheta = (0.25 * theta / (quarter.cos() * quarter.cos()) - quarter.tan()) / (2.0 * theta * theta);
    (b, db_dtheta / (2.0 * theta))
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
    /// The mid section's rotation `R_r` (material to frame).
    mid: Quat<f64>,
    /// Relative rotation vector `phi` (rad).
    phi: Vector3<f64>,
    /// Stretch vector `g = R_r^T (x_2 - x_1) / L`.
    g: Vector3<f64>,
    /// Strains `[Gamma, K]`.
    strain: Vector6<f64>,
    /// Stress resultants `C [Gamma, K]` (N, N m).
    stress: Vector6<f64>,
}

impl Element {
    /// The mid section's rotation, strains and stress resultants on `nodes`.
    fn section_state(&self, nodes: &ElementNodes) -> Section {
        let relative = quat_mul(quat_conj(nodes.rotations[0]), nodes.rotations[1]);
        let phi = Vector3::from(quat_log(relative));
        let mid = quat_mul(nodes.rotations[0], quat_sqrt(relative));
        let length = self.length;
        let chord = [0, 1, 2].map(|k| nodes.positions[1][k] - nodes.positions[0][k]);
        let g = Vector3::from(rotate_back(mid, chord)) / length;
        let strain = Vector6::new(
            g.x - self.initial_stretch[0],
            g.y - self.initial_stretch[1],
            g.z - self.initial_stretch[2],
            phi.x / length - self.initial_curvature[0],
            phi.y / length - self.initial_curvature[1],
            phi.z / length - self.initial_curvature[2],
        );
        let stiffness = SMatrix::<f64, 6, 6>::from_fn(|i, j| self.section.stiffness[i][j]);
        Section { mid, phi, g, strain, stress: stiffness * strain }
    }

    /// The strains, stresses and strain matrix of the element on `nodes`.
    fn kinematics(&self, nodes: &ElementNodes) -> Kinematics {
        let Section { mid, phi, g, strain, stress } = self.section_state(nodes);
        let mid = rotation_matrix(mid);
        let length = self.length;
        let (n, m) = (stress.fixed_rows::<3>(0).into_owned(), stress.fixed_rows::<3>(3).into_owned());

        let t = phi.norm_squared();
        let (c, dc) = coefficient_c(t);
        let (b, db) = coefficient_b(t);
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
        let Section { mid, phi, g, strain, stress } = self.section_state(nodes);
        let length = self.length;
        let (n, m) = (stress.fixed_rows::<3>(0).into_owned(), stress.fixed_rows::<3>(3).into_owned());
        let t = phi.norm_squared();
        let (c, b) = (coefficient_c(t).0, coefficient_b(t).0);
        let h = n.cross(&g);
        let w_transpose_h = h * 0.5 + phi.cross(&h) * b;
        let s_m = m + phi.cross(&phi.cross(&m)) * c;
        let blocks = [-n, (h - w_transpose_h) * length - s_m, n, w_transpose_h * length + s_m];
        let mut gradient = SVector::<f64, 12>::zeros();
        for (i, block) in blocks.iter().enumerate() {
            gradient.fixed_rows_mut::<3>(3 * i).copy_from(&Vector3::from(rotate(mid, (*block).into())));
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
        let Section { mid, phi, g, stress, .. } = self.section_state(nodes);
        let length = self.length;
        let stiffness = SMatrix::<f64, 6, 6>::from_fn(|i, j| self.section.stiffness[i][j]);
        let (n, m) = (stress.fixed_rows::<3>(0).into_owned(), stress.fixed_rows::<3>(3).into_owned());
        let t = phi.norm_squared();
        let ((c, dc), (b, db)) = (coefficient_c(t), coefficient_b(t));
        let material = |i: usize| Vector3::from(rotate_back(mid, rates.fixed_rows::<3>(3 * i).into_owned().into()));
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
        let stress_rate = stiffness * strain_rate;
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
            gradient.fixed_rows_mut::<3>(3 * i).copy_from(&Vector3::from(rotate(mid, (*block).into())));
            gradient_rate.fixed_rows_mut::<3>(3 * i).copy_from(&Vector3::from(rotate(mid, turned_rate.into())));
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
