//! Linearised dynamics about an equilibrium in the turning frame and its natural frequencies.
//!
//! With the element Lagrangian `L(q, q') = T - U` (kinetic energy in the inertial frame,
//! [`Element::kinetic_energy`](super::element::Element::kinetic_energy), minus strain energy)
//! differentiated twice at the equilibrium (`q = 0` in the chart, `q' = 0`):
//! `M = L_q'q'`, the gyroscopic (Coriolis) matrix `G = L_q'q - L_qq'` (skew) and the stiffness
//! `K = -L_qq` (elastic, geometric and centrifugal), so that `M q'' + G q' + K q = 0`.
//! [`Beam::linearise`] takes `K` from the static solve's Hessian (strain part in closed form) and
//! `M`, `G` from first derivatives of the Gauss-point velocities; [`Beam::linearise_ad`]
//! differentiates the whole Lagrangian by second-order AD (the oracle).

use nalgebra::{DMatrix, SMatrix, SVector};
use num_dual::{Dual2SVec64, DualSVec64, hessian, jacobian};

use super::element::ElementNodes;
use super::model::{Beam, BeamState};

/// Mass, gyroscopic and stiffness matrices over the free nodes' coordinates.
#[derive(Clone, Debug)]
pub struct LinearisedBeam {
    /// Mass matrix `M` (symmetric positive definite).
    pub mass: DMatrix<f64>,
    /// Gyroscopic matrix `G` (skew-symmetric; zero without frame rotation).
    pub gyroscopic: DMatrix<f64>,
    /// Tangent stiffness `K` (symmetric).
    pub stiffness: DMatrix<f64>,
}

/// What a mode mostly is, by where its kinetic energy sits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModeKind {
    /// Displacement along the frame `z` (out of the rotation plane) and rotation about `y`.
    Flap,
    /// Displacement along the frame `y` (in plane) and rotation about `z`.
    Lag,
    /// Rotation about the frame `x` (the beam axis).
    Torsion,
    /// Displacement along the frame `x`.
    Axial,
}

/// One natural mode.
#[derive(Clone, Debug)]
pub struct Mode {
    /// Natural frequency (rad/s); negative for an unstable (divergent) mode.
    pub frequency: f64,
    /// Its kind.
    pub kind: ModeKind,
    /// Shape over the free nodes (6 per node: displacement (m), rotation (rad)), mass-normalised.
    pub shape: Vec<f64>,
}

/// An element's mass, gyroscopic and stiffness matrices (12 x 12, its increments and rates).
struct ElementMatrices {
    mass: SMatrix<f64, 12, 12>,
    gyroscopic: SMatrix<f64, 12, 12>,
    stiffness: SMatrix<f64, 12, 12>,
}

impl LinearisedBeam {
    fn zeros(n: usize) -> Self {
        Self { mass: DMatrix::zeros(n, n), gyroscopic: DMatrix::zeros(n, n), stiffness: DMatrix::zeros(n, n) }
    }

    /// Adds element `e`'s matrices; its local index `a` (0..12) maps to global `6 (e - 1) + a`
    /// (the clamped root's coordinates dropped).
    fn add_element(&mut self, e: usize, element: &ElementMatrices) {
        let global = |a: usize| (6 * e + a).checked_sub(6);
        for a in 0..12 {
            let Some(i) = global(a) else { continue };
            for b in 0..12 {
                let Some(j) = global(b) else { continue };
                self.mass[(i, j)] += element.mass[(a, b)];
                self.gyroscopic[(i, j)] += element.gyroscopic[(a, b)];
                self.stiffness[(i, j)] += element.stiffness[(a, b)];
            }
        }
    }
}

impl Beam {
    /// `M`, `G` and `K` about `equilibrium` (which should satisfy the static equations). `K` is
    /// the potential's Hessian of the static solve (strain part in closed form, centrifugal part
    /// by AD); `M` and `G` come from the Gauss-point velocities, which are affine in the rates
    /// (see [`Beam::element_mass_and_gyroscopic`]). Equal to [`Beam::linearise_ad`] to round-off.
    pub fn linearise(&self, equilibrium: &BeamState) -> LinearisedBeam {
        let mut out = LinearisedBeam::zeros(self.n_dofs());
        for e in 0..self.elements.len() {
            let (_, _, stiffness) = self.element_potential(equilibrium, e);
            let (mass, gyroscopic) = self.element_mass_and_gyroscopic(equilibrium, e);
            out.add_element(e, &ElementMatrices { mass, gyroscopic, stiffness });
        }
        out
    }

    /// Element `e`'s mass and gyroscopic matrices about `equilibrium`. With `V(q, q')` the
    /// Gauss-point velocities (affine in `q'`: `V = V_0(q) + J(q) q'`) and `T = V^T W V`
    /// (`W` the masses and inertias times `L/4`): `M = 2 J^T W J` and, with
    /// `A = d(dT/dq')/dq = 2 (dJ/dq)^T W V_0 + 2 J^T W dV_0/dq` at `q = 0`, `G = A - A^T`. The
    /// first derivatives in `q` come from forward-mode AD (first order), one pass per rate
    /// component and one at rest.
    pub fn element_mass_and_gyroscopic(
        &self,
        equilibrium: &BeamState,
        e: usize,
    ) -> (SMatrix<f64, 12, 12>, SMatrix<f64, 12, 12>) {
        let element = &self.elements[e];
        let nodes = self.element_nodes(equilibrium, e);
        let frame_rate = self.frame_rate;
        if frame_rate == [0.0; 3] {
            return (self.element_mass_at_rest_frame(e, &nodes), SMatrix::zeros());
        }
        // Velocities and their q-Jacobian at q = 0 for the unit rate `rate` (None: at rest).
        let velocities = |rate: Option<usize>| {
            jacobian(
                |dq: SVector<DualSVec64<12>, 12>| {
                    let dq: [DualSVec64<12>; 12] = dq.into();
                    let mut dq_rate = [DualSVec64::<12>::from(0.0); 12];
                    if let Some(i) = rate {
                        dq_rate[i] = DualSVec64::from(1.0);
                    }
                    let [(v1, w1), (v2, w2)] = element.gauss_point_velocities(&nodes, &dq, &dq_rate, frame_rate);
                    SVector::from([v1[0], v1[1], v1[2], w1[0], w1[1], w1[2], v2[0], v2[1], v2[2], w2[0], w2[1], w2[2]])
                },
                &SVector::<f64, 12>::zeros(),
            )
        };
        let section = &element.section;
        let (m, inertia) = (section.mass_per_length, section.inertia_per_length);
        let weights = SVector::<f64, 12>::from([
            m, m, m, inertia[0], inertia[1], inertia[2], m, m, m, inertia[0], inertia[1], inertia[2],
        ]) * (0.5 * element.length);
        let weight = SMatrix::<f64, 12, 12>::from_diagonal(&weights);
        let (rest, rest_jacobian) = velocities(None);
        let mut rate_jacobian = SMatrix::<f64, 12, 12>::zeros();
        let mut a = SMatrix::<f64, 12, 12>::zeros();
        let weighted_rest = weight * rest;
        for i in 0..12 {
            let (moved, moved_jacobian) = velocities(Some(i));
            let column = moved - rest;
            rate_jacobian.set_column(i, &column);
            // Row i of A: d/dq of column_i(q)^T W V_0(q).
            let row = (moved_jacobian - rest_jacobian).transpose() * weighted_rest
                + rest_jacobian.transpose() * weight * column;
            a.set_row(i, &row.transpose());
        }
        (rate_jacobian.transpose() * weight * rate_jacobian, a - a.transpose())
    }

    /// Element `e`'s mass matrix when the frame does not turn: the velocities are then linear in
    /// the rates (`V_0 = 0`), so `J` is read off with one plain evaluation per rate component.
    fn element_mass_at_rest_frame(&self, e: usize, nodes: &ElementNodes) -> SMatrix<f64, 12, 12> {
        let element = &self.elements[e];
        let zero = [0.0; 12];
        let mut rate_jacobian = SMatrix::<f64, 12, 12>::zeros();
        for i in 0..12 {
            let mut unit = zero;
            unit[i] = 1.0;
            let [(v1, w1), (v2, w2)] = element.gauss_point_velocities(nodes, &zero, &unit, [0.0; 3]);
            let column = [v1[0], v1[1], v1[2], w1[0], w1[1], w1[2], v2[0], v2[1], v2[2], w2[0], w2[1], w2[2]];
            rate_jacobian.set_column(i, &SVector::from(column));
        }
        let section = &element.section;
        let (m, inertia) = (section.mass_per_length, section.inertia_per_length);
        let weights = SVector::<f64, 12>::from([
            m, m, m, inertia[0], inertia[1], inertia[2], m, m, m, inertia[0], inertia[1], inertia[2],
        ]) * (0.5 * element.length);
        rate_jacobian.transpose() * SMatrix::<f64, 12, 12>::from_diagonal(&weights) * rate_jacobian
    }

    /// `M`, `G` and `K` by second-order AD of the element Lagrangian `T - U` in the increments
    /// and their rates (24 variables): the oracle of [`Beam::linearise`], about 10 times slower.
    pub fn linearise_ad(&self, equilibrium: &BeamState) -> LinearisedBeam {
        let mut out = LinearisedBeam::zeros(self.n_dofs());
        for (e, element) in self.elements.iter().enumerate() {
            let nodes = self.element_nodes(equilibrium, e);
            let frame_rate = self.frame_rate;
            let (_, _, h) = hessian(
                |z: SVector<Dual2SVec64<24>, 24>| {
                    let q: [Dual2SVec64<24>; 12] = std::array::from_fn(|i| z[i]);
                    let rate: [Dual2SVec64<24>; 12] = std::array::from_fn(|i| z[12 + i]);
                    element.kinetic_energy(&nodes, &q, &rate, frame_rate) - element.strain_energy(&nodes, &q)
                },
                &SVector::zeros(),
            );
            let matrices = ElementMatrices {
                mass: h.fixed_view::<12, 12>(12, 12).into_owned(),
                gyroscopic: h.fixed_view::<12, 12>(12, 0) - h.fixed_view::<12, 12>(0, 12),
                stiffness: -h.fixed_view::<12, 12>(0, 0),
            };
            out.add_element(e, &matrices);
        }
        out
    }

    /// The lowest `count` natural modes about `equilibrium`, without the gyroscopic coupling
    /// (`K phi = omega^2 M phi`, by Cholesky reduction to a symmetric eigenproblem), sorted by
    /// frequency; empty if the mass matrix is not positive definite.
    pub fn modes(&self, equilibrium: &BeamState, count: usize) -> Vec<Mode> {
        let lin = self.linearise(equilibrium);
        let Some(cholesky) = lin.mass.clone().cholesky() else {
            return Vec::new();
        };
        let Some(l_inv) = cholesky.l().try_inverse() else {
            return Vec::new();
        };
        let reduced = &l_inv * &lin.stiffness * l_inv.transpose();
        let reduced = (&reduced + reduced.transpose()) * 0.5;
        let eigen = reduced.symmetric_eigen();
        let mut order: Vec<usize> = (0..eigen.eigenvalues.len()).collect();
        order.sort_by(|&a, &b| eigen.eigenvalues[a].total_cmp(&eigen.eigenvalues[b]));
        order
            .into_iter()
            .take(count)
            .map(|k| {
                let lambda = eigen.eigenvalues[k];
                let shape = l_inv.transpose() * eigen.eigenvectors.column(k);
                Mode {
                    frequency: lambda.signum() * lambda.abs().sqrt(),
                    kind: classify(&lin.mass, shape.as_slice()),
                    shape: shape.as_slice().to_vec(),
                }
            })
            .collect()
    }

    /// The lowest `count` natural frequencies (rad/s) with the gyroscopic coupling: the
    /// imaginary parts of the eigenvalues of `[[0, I], [-M^-1 K, -M^-1 G]]` (positive ones,
    /// sorted). Unstable or overdamped roots (real) are left out; empty if `M` is singular.
    pub fn gyroscopic_frequencies(&self, equilibrium: &BeamState, count: usize) -> Vec<f64> {
        let lin = self.linearise(equilibrium);
        let n = self.n_dofs();
        let mass_lu = lin.mass.clone().lu();
        let (Some(mk), Some(mg)) = (mass_lu.solve(&lin.stiffness), mass_lu.solve(&lin.gyroscopic)) else {
            return Vec::new();
        };
        let mut a = DMatrix::zeros(2 * n, 2 * n);
        a.view_mut((0, n), (n, n)).fill_with_identity();
        a.view_mut((n, 0), (n, n)).copy_from(&(-mk));
        a.view_mut((n, n), (n, n)).copy_from(&(-mg));
        let mut frequencies: Vec<f64> = a.complex_eigenvalues().iter().filter(|z| z.im > 0.0).map(|z| z.im).collect();
        frequencies.sort_by(f64::total_cmp);
        frequencies.truncate(count);
        frequencies
    }
}

/// The kind whose coordinates hold most of the mode's kinetic energy `phi_S^T M_SS phi_S`.
fn classify(mass: &DMatrix<f64>, shape: &[f64]) -> ModeKind {
    // Components per node: (axial u_x, lag u_y & psi_z, flap u_z & psi_y, torsion psi_x).
    let groups: [(ModeKind, &[usize]); 4] =
        [(ModeKind::Axial, &[0]), (ModeKind::Lag, &[1, 5]), (ModeKind::Flap, &[2, 4]), (ModeKind::Torsion, &[3])];
    let energy = |components: &[usize]| {
        let picked = |i: usize| components.contains(&(i % 6));
        let mut sum = 0.0;
        for i in (0..shape.len()).filter(|&i| picked(i)) {
            for j in (0..shape.len()).filter(|&j| picked(j)) {
                sum += shape[i] * mass[(i, j)] * shape[j];
            }
        }
        sum
    };
    groups
        .iter()
        .map(|(kind, components)| (*kind, energy(components)))
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map_or(ModeKind::Flap, |(kind, _)| kind)
}
