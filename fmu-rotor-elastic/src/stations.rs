//! The station-level aero interface (`aero_interface = 1`): each beam node of each blade is an
//! aerodynamic station. RotorElastic publishes every station's position, inertial velocity and
//! section axes (airframe body axes) and its tributary span, and takes the aerodynamic line
//! loads at the stations (per unit span, body axes). Names, frames and signs are in
//! `docs/models.md` ("Station-level aero interface").
//!
//! **Outputs** of station `k` of blade `n` (`blade[n].station[k]`, `k = 1` the clamp node, `k =
//! n_elements + 1` the tip node; node `k` at pitch-frame position `p_k`, velocity relative to the
//! pitch frame `v_k`, section rotation `R_k`, pitch frame `R_P`, `W_P`):
//! `pos = R_P p_k` (m, from P), `velocity = hub.vel + W_P x pos + R_P v_k` (m/s, inertial),
//! `ey = R_P R_k y`, `ez = R_P R_k z` (section chord towards the leading edge, section normal),
//! `width = w_k` (m): the trapezoidal weight of node `k` on the undeformed span (half the
//! adjacent elements' lengths), so `sum_k w_k f(s_k)` is the trapezoidal integral of a line
//! load `f(s)`.
//!
//! **Inputs**: `f` (N/m) and `m` (N m/m) of the station, body axes; the beam takes the nodal
//! force `w_k R_P^T f` and moment `w_k R_P^T m` (pitch-frame axes). The clamp node's load goes
//! straight into the hub.

use fmu_core::Scalar;
use fmu_core::vec3::{V3, add, cross, mat_t_vec, mat_vec, scale_f};
use fmu_rotor::beam::blade_dynamics::BladeDynamics;
use fmu_rotor::beam::rotation::rotation_columns;

use crate::kinematics::PitchFrame;
use crate::layout::{MAX_BLADES, MAX_ELEMENTS, u, y};

/// The most stations per blade: one per beam node.
pub const MAX_STATIONS: usize = MAX_ELEMENTS + 1;

/// The block labels of the stations, `blade[n].station[k]`, blade-major: instance `b *
/// MAX_STATIONS + k` (0-based) is station `k + 1` of blade `b + 1`.
#[rustfmt::skip]
pub const LABELS: [&str; MAX_BLADES * MAX_STATIONS] = [
    "blade[1].station[1]", "blade[1].station[2]", "blade[1].station[3]", "blade[1].station[4]", "blade[1].station[5]", "blade[1].station[6]", "blade[1].station[7]", "blade[1].station[8]", "blade[1].station[9]", "blade[1].station[10]", "blade[1].station[11]", "blade[1].station[12]", "blade[1].station[13]", "blade[1].station[14]", "blade[1].station[15]", "blade[1].station[16]", "blade[1].station[17]",
    "blade[2].station[1]", "blade[2].station[2]", "blade[2].station[3]", "blade[2].station[4]", "blade[2].station[5]", "blade[2].station[6]", "blade[2].station[7]", "blade[2].station[8]", "blade[2].station[9]", "blade[2].station[10]", "blade[2].station[11]", "blade[2].station[12]", "blade[2].station[13]", "blade[2].station[14]", "blade[2].station[15]", "blade[2].station[16]", "blade[2].station[17]",
    "blade[3].station[1]", "blade[3].station[2]", "blade[3].station[3]", "blade[3].station[4]", "blade[3].station[5]", "blade[3].station[6]", "blade[3].station[7]", "blade[3].station[8]", "blade[3].station[9]", "blade[3].station[10]", "blade[3].station[11]", "blade[3].station[12]", "blade[3].station[13]", "blade[3].station[14]", "blade[3].station[15]", "blade[3].station[16]", "blade[3].station[17]",
    "blade[4].station[1]", "blade[4].station[2]", "blade[4].station[3]", "blade[4].station[4]", "blade[4].station[5]", "blade[4].station[6]", "blade[4].station[7]", "blade[4].station[8]", "blade[4].station[9]", "blade[4].station[10]", "blade[4].station[11]", "blade[4].station[12]", "blade[4].station[13]", "blade[4].station[14]", "blade[4].station[15]", "blade[4].station[16]", "blade[4].station[17]",
    "blade[5].station[1]", "blade[5].station[2]", "blade[5].station[3]", "blade[5].station[4]", "blade[5].station[5]", "blade[5].station[6]", "blade[5].station[7]", "blade[5].station[8]", "blade[5].station[9]", "blade[5].station[10]", "blade[5].station[11]", "blade[5].station[12]", "blade[5].station[13]", "blade[5].station[14]", "blade[5].station[15]", "blade[5].station[16]", "blade[5].station[17]",
    "blade[6].station[1]", "blade[6].station[2]", "blade[6].station[3]", "blade[6].station[4]", "blade[6].station[5]", "blade[6].station[6]", "blade[6].station[7]", "blade[6].station[8]", "blade[6].station[9]", "blade[6].station[10]", "blade[6].station[11]", "blade[6].station[12]", "blade[6].station[13]", "blade[6].station[14]", "blade[6].station[15]", "blade[6].station[16]", "blade[6].station[17]",
    "blade[7].station[1]", "blade[7].station[2]", "blade[7].station[3]", "blade[7].station[4]", "blade[7].station[5]", "blade[7].station[6]", "blade[7].station[7]", "blade[7].station[8]", "blade[7].station[9]", "blade[7].station[10]", "blade[7].station[11]", "blade[7].station[12]", "blade[7].station[13]", "blade[7].station[14]", "blade[7].station[15]", "blade[7].station[16]", "blade[7].station[17]",
    "blade[8].station[1]", "blade[8].station[2]", "blade[8].station[3]", "blade[8].station[4]", "blade[8].station[5]", "blade[8].station[6]", "blade[8].station[7]", "blade[8].station[8]", "blade[8].station[9]", "blade[8].station[10]", "blade[8].station[11]", "blade[8].station[12]", "blade[8].station[13]", "blade[8].station[14]", "blade[8].station[15]", "blade[8].station[16]", "blade[8].station[17]",
];

/// Which aerodynamic inputs RotorElastic uses (parameter `aero_interface`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AeroInterface {
    /// `blade[n].F/M`, the root loads of the equivalent rigid blade (default).
    EquivalentRigidBlade,
    /// `blade[n].station[k].f/m`, line loads at the beam nodes.
    Stations,
}

/// The station interface of one rotor: the mode and the nodes' tributary spans.
#[derive(Clone, Debug)]
pub struct Stations {
    /// Which inputs the blades take.
    pub interface: AeroInterface,
    /// Trapezoidal weight of each node on the undeformed span (m).
    pub widths: Vec<f64>,
}

impl Stations {
    /// For the parameter value `aero_interface` (0 or 1) and the nodes' undeformed arc-length
    /// positions `arms` (m from the clamp, increasing).
    pub fn new(aero_interface: i32, arms: &[f64]) -> Self {
        let n = arms.len();
        let widths = (0..n)
            .map(|k| {
                let left = if k > 0 { arms[k] - arms[k - 1] } else { 0.0 };
                let right = if k + 1 < n { arms[k + 1] - arms[k] } else { 0.0 };
                0.5 * (left + right)
            })
            .collect();
        let interface = if aero_interface == 1 { AeroInterface::Stations } else { AeroInterface::EquivalentRigidBlade };
        Self { interface, widths }
    }

    /// Whether the blades take the station loads.
    pub fn active(&self) -> bool {
        self.interface == AeroInterface::Stations
    }

    /// The nodal loads (pitch-frame axes, N and N m) of blade `b` from its station line loads
    /// (body axes) and the pitch frame `rotation` (body from pitch-frame axes).
    pub fn nodal_loads<D: Scalar>(
        &self,
        rotation: &[[D; 3]; 3],
        us: &[D],
        b: usize,
        forces: &mut [V3<D>],
        moments: &mut [V3<D>],
    ) {
        for (k, &width) in self.widths.iter().enumerate() {
            let at = u::station(b * MAX_STATIONS + k);
            let vector = |i: usize| [us[at + i], us[at + i + 1], us[at + i + 2]];
            forces[k] = scale_f(mat_t_vec(rotation, vector(u::LINE_FORCE)), width);
            moments[k] = scale_f(mat_t_vec(rotation, vector(u::LINE_MOMENT)), width);
        }
    }

    /// Writes the station outputs of blade `b` (state `x` of the blade, pitch frame `frame`
    /// with its origin `origin` (position from P, inertial velocity; body axes): P itself on the
    /// hingeless hub, the hinge point on the articulated one) into `ys`.
    pub fn write_outputs<D: Scalar>(
        &self,
        blade: &BladeDynamics,
        frame: &PitchFrame<D>,
        origin: (V3<D>, V3<D>),
        b: usize,
        x: &[D],
        ys: &mut [D],
    ) {
        let mut out = y::ViewMut(ys);
        for (k, &width) in self.widths.iter().enumerate() {
            let (position, rotation) = blade.node_pose(x, k);
            let (velocity, _) = blade.node_rates(x, k);
            let arm = mat_vec(&frame.rotation, position);
            let pos = add(origin.0, arm);
            let vel = add(add(origin.1, cross(frame.omega, arm)), mat_vec(&frame.rotation, velocity));
            // The section's axes: the columns of its rotation matrix, turned to body axes.
            let columns = rotation_columns(rotation);
            let axis = |e: usize| mat_vec(&frame.rotation, columns[e]);
            let mut station = out.station(b * MAX_STATIONS + k);
            *station.pos() = pos;
            *station.vel() = vel;
            *station.ey() = axis(1);
            *station.ez() = axis(2);
            *station.width() = D::from(width);
        }
    }
}
