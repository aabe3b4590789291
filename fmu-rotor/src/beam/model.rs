//! The beam: a chain of two-node elements clamped at the root node, its configuration, and the
//! loads.

use nalgebra::{SMatrix, SVector};
use num_dual::{Dual2SVec64, hessian};

use super::element::{Element, ElementNodes};
use super::rotation::{Quat, Vec3, normalize_quat, quat_about, quat_exp, quat_mul, rotate};
use super::section::SectionProperties;

/// A clamped beam in a frame that may turn at a constant rate about its origin.
#[derive(Clone, Debug)]
pub struct Beam {
    /// Elements from root to tip; element `e` joins nodes `e` and `e + 1`.
    pub elements: Vec<Element>,
    /// Undeformed configuration; node 0 is clamped there.
    pub undeformed: BeamState,
    /// Rotation rate of the frame the beam is described in (rad/s, frame axes): centrifugal
    /// and gyroscopic loads follow from it.
    pub frame_rate: Vec3<f64>,
}

/// Positions and rotations of the nodes (frame coordinates).
#[derive(Clone, Debug, PartialEq)]
pub struct BeamState {
    /// Node positions (m).
    pub positions: Vec<Vec3<f64>>,
    /// Node rotations (material axes to frame axes).
    pub rotations: Vec<Quat<f64>>,
}

/// A load at the tip node.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TipLoad {
    /// A force (N) fixed in the frame (dead load).
    Dead(Vec3<f64>),
    /// A force (N) given in the tip section's material axes, turning with the tip (follower).
    Follower(Vec3<f64>),
}

/// Energy, gradient and Hessian of one element with respect to its 12 coordinates.
pub(super) type ElementHessian = (f64, SVector<f64, 12>, SMatrix<f64, 12, 12>);

impl Beam {
    /// A straight beam along the frame's `x` axis from `root` (m) with `n_elements` equal
    /// elements over `length` (m); the section at arc length `s` (m from the root) and the
    /// pretwist `twist(s)` (rad, about `+x`, material `e2` turned from the frame's `y` towards
    /// `z`) are sampled at the nodes (twist) and element middles (sections).
    pub fn straight(
        root: Vec3<f64>,
        length: f64,
        n_elements: usize,
        section: impl Fn(f64) -> SectionProperties,
        twist: impl Fn(f64) -> f64,
    ) -> Self {
        let n = n_elements.max(1);
        let h = length / n as f64;
        let node_s: Vec<f64> = (0..=n).map(|i| i as f64 * h).collect();
        let positions = node_s.iter().map(|&s| [root[0] + s, root[1], root[2]]).collect();
        let rotations = node_s.iter().map(|&s| quat_about([1.0, 0.0, 0.0], twist(s))).collect();
        let elements = (0..n)
            .map(|e| Element {
                length: h,
                initial_stretch: [1.0, 0.0, 0.0],
                initial_curvature: [(twist(node_s[e + 1]) - twist(node_s[e])) / h, 0.0, 0.0],
                section: section(node_s[e] + 0.5 * h),
            })
            .collect();
        Self { elements, undeformed: BeamState { positions, rotations }, frame_rate: [0.0; 3] }
    }

    /// Number of nodes (elements + 1).
    pub fn n_nodes(&self) -> usize {
        self.elements.len() + 1
    }

    /// Number of unknowns: 6 per node except the clamped root.
    pub fn n_dofs(&self) -> usize {
        6 * self.elements.len()
    }

    /// The two nodes of element `e` in `state`.
    pub fn element_nodes(&self, state: &BeamState, e: usize) -> ElementNodes {
        ElementNodes {
            positions: [state.positions[e], state.positions[e + 1]],
            rotations: [state.rotations[e], state.rotations[e + 1]],
        }
    }

    /// Total potential of the beam's elements in the turning frame (J): strain energy minus the
    /// kinetic energy at rest in the frame (the centrifugal potential), in `state`.
    pub fn potential_energy(&self, state: &BeamState) -> f64 {
        (0..self.elements.len()).map(|e| self.element_potential(state, e).0).sum()
    }

    /// Energy, gradient and Hessian of element `e`'s potential with respect to its increments at
    /// zero: the strain part in closed form ([`Element::strain_energy_derivatives`]), the
    /// centrifugal part (a turning frame only) by forward-mode AD.
    pub(super) fn element_potential(&self, state: &BeamState, e: usize) -> ElementHessian {
        let element = &self.elements[e];
        let nodes = self.element_nodes(state, e);
        let strain = element.strain_energy_derivatives(&nodes);
        let frame_rate = self.frame_rate;
        if frame_rate == [0.0; 3] {
            // At rest in a frame that does not turn, the kinetic energy is zero.
            return strain;
        }
        let (kinetic, kinetic_gradient, kinetic_hessian) = hessian(
            |dq: SVector<Dual2SVec64<12>, 12>| {
                let dq: [Dual2SVec64<12>; 12] = dq.into();
                let rest = [Dual2SVec64::<12>::from(0.0); 12];
                element.kinetic_energy(&nodes, &dq, &rest, frame_rate)
            },
            &SVector::zeros(),
        );
        (strain.0 - kinetic, strain.1 - kinetic_gradient, strain.2 - kinetic_hessian)
    }

    /// `state` moved by the increments `delta` (6 per free node: displacement, then spatial
    /// rotation vector); rotations are renormalised.
    pub fn apply_increment(&self, state: &mut BeamState, delta: &[f64]) {
        for node in 1..self.n_nodes() {
            let d = &delta[6 * (node - 1)..6 * node];
            for (position, step) in state.positions[node].iter_mut().zip(d) {
                *position += step;
            }
            let turned = quat_mul(quat_exp([d[3], d[4], d[5]]), state.rotations[node]);
            state.rotations[node] = normalize_quat(turned);
        }
    }

    /// The tip force in frame axes for `load` in `state`.
    pub fn tip_force(&self, state: &BeamState, load: TipLoad) -> Vec3<f64> {
        match load {
            TipLoad::Dead(force) => force,
            TipLoad::Follower(force) => rotate(state.rotations[self.n_nodes() - 1], force),
        }
    }
}
