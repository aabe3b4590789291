//! The index layout of states, inputs and outputs, and the value-reference scheme.
//!
//! Value references are the position in the corresponding list plus a base:
//! parameters `0 + k` ([`vr`]), inputs `100 + u index` ([`vr::INPUT_BASE`]), outputs
//! `200 + y index` ([`vr::OUTPUT_BASE`]). So the `u` and `y` index constants below are also
//! value-reference offsets.

/// An airframe attachment point where loads come in and kinematics go out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Point {
    /// Main rotor hub.
    Hub,
    /// Tail rotor hub.
    Tail,
    /// Generic external point (position is a parameter like the others).
    Ext,
}

impl Point {
    /// All points, in layout order.
    pub const ALL: [Point; 3] = [Point::Hub, Point::Tail, Point::Ext];

    /// Position in [`Point::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// Variable-name prefix (`hub`, `tail`, `ext`).
    pub fn name(self) -> &'static str {
        match self {
            Point::Hub => "hub",
            Point::Tail => "tail",
            Point::Ext => "ext",
        }
    }

    /// Default position in body axes relative to the reference point, m (Bo105-class
    /// helicopter with the reference point at the CoM).
    pub fn default_position(self) -> [f64; 3] {
        match self {
            Point::Hub => [0.0, 0.0, -1.5],
            Point::Tail => [-6.0, 0.0, -1.0],
            Point::Ext => [0.0, 0.0, 0.0],
        }
    }
}

/// Indices into the continuous state vector `x` (13 states).
pub mod x {
    /// NED position of the body reference point `[x, y, z]`, m (3 states).
    pub const POS: usize = 0;
    /// Body-to-inertial unit quaternion `[w, x, y, z]`, scalar first (4 states).
    pub const QUAT: usize = 3;
    /// Velocity of the reference point in body axes `[u, v, w]` (FRD), m/s (3 states).
    pub const VEL: usize = 7;
    /// Angular velocity in body axes `[p, q, r]`, rad/s (3 states).
    pub const RATE: usize = 10;
    /// Number of states.
    pub const N: usize = 13;
}

/// Indices into the real input vector `u` (18 inputs): for each [`super::Point`] `P`, six loads
/// starting at `6 * P.index()`.
pub mod u {
    /// Offset of the force `[F.x, F.y, F.z]` (N, body axes) within a point's block.
    pub const FORCE: usize = 0;
    /// Offset of the moment `[M.x, M.y, M.z]` (N m, body axes) within a point's block.
    pub const MOMENT: usize = 3;
    /// Inputs per point.
    pub const PER_POINT: usize = 6;
    /// Number of inputs.
    pub const N: usize = 3 * PER_POINT;

    /// Index of the first load input of a point.
    pub fn point(p: super::Point) -> usize {
        PER_POINT * p.index()
    }
}

/// Landing-gear contact points (legs) of the airframe.
pub const GEAR_LEGS: usize = 4;

/// Indices into the real output vector `y` (76 outputs).
pub mod y {
    /// `x y z`: NED position of the reference point, m.
    pub const POS: usize = 0;
    /// `u v w`: body-axis velocity of the reference point, m/s.
    pub const VEL: usize = 3;
    /// `p q r`: body angular velocity, rad/s.
    pub const RATE: usize = 6;
    /// `phi theta psi`: 3-2-1 Euler angles, rad.
    pub const EULER321: usize = 9;
    /// `euler.1 euler.2 euler.3`: Euler angles in the `euler_sequence` parameter, rad.
    pub const EULER: usize = 12;
    /// `q.w q.x q.y q.z`: body-to-inertial quaternion.
    pub const QUAT: usize = 15;
    /// `energy.kinetic`, J.
    pub const KINETIC: usize = 19;
    /// `energy.potential`, J.
    pub const POTENTIAL: usize = 20;
    /// Start of the per-point blocks; point `P` starts at `POINTS + PER_POINT * P.index()`.
    pub const POINTS: usize = 21;
    /// Offset of `P.pos.*` (NED position of P, m) within a point's block.
    pub const P_POS: usize = 0;
    /// Offset of `P.vel.*` (velocity of P, body axes, m/s).
    pub const P_VEL: usize = 3;
    /// Offset of `P.omega.*` (angular velocity, body axes, rad/s).
    pub const P_OMEGA: usize = 6;
    /// Offset of `P.acc.*` (specific force at P, body axes, m/s^2).
    pub const P_ACC: usize = 9;
    /// Offset of `P.alpha.*` (angular acceleration, body axes, rad/s^2).
    pub const P_ALPHA: usize = 12;
    /// Outputs per point.
    pub const PER_POINT: usize = 15;
    /// `free.u_dot free.v_dot free.w_dot free.p_dot free.q_dot free.r_dot`: body-axis
    /// accelerations with every DOF free (m/s^2, rad/s^2), the trim residual.
    pub const FREE: usize = POINTS + 3 * PER_POINT;
    /// `gear[1..4].load`: normal ground force on each landing-gear contact point, N (>= 0).
    pub const GEAR_LOAD: usize = FREE + 6;
    /// Number of outputs.
    pub const N: usize = GEAR_LOAD + super::GEAR_LEGS;

    /// Index of the first output of a point's block.
    pub fn point(p: super::Point) -> usize {
        POINTS + PER_POINT * p.index()
    }
}

/// Value references of the parameters, and the bases of the input and output references.
pub mod vr {
    /// `mass`, kg.
    pub const MASS: u32 = 0;
    /// `cg.x cg.y cg.z` (3 references).
    pub const CG: u32 = 1;
    /// `I.xx I.yy I.zz I.xy I.xz I.yz` (6 references).
    pub const INERTIA: u32 = 4;
    /// `g`, m/s^2.
    pub const G: u32 = 10;
    /// `P.x P.y P.z` for each point: `POINTS + 3 * P.index()` (9 references).
    pub const POINTS: u32 = 11;
    /// `euler_sequence` (integer).
    pub const EULER_SEQUENCE: u32 = 20;
    /// `x0 y0 z0` (3 references).
    pub const POS0: u32 = 21;
    /// `phi0 theta0 psi0` (3 references).
    pub const EULER0: u32 = 24;
    /// `u0 v0 w0` (3 references).
    pub const VEL0: u32 = 27;
    /// `p0 q0 r0` (3 references).
    pub const RATE0: u32 = 30;
    /// `dof_mask` (integer).
    pub const DOF_MASK: u32 = 33;
    /// `drag_area`, m^2.
    pub const DRAG_AREA: u32 = 34;
    /// `rho`, kg/m^3.
    pub const RHO: u32 = 35;
    /// `tolerance` (relative and absolute integrator tolerance).
    pub const TOLERANCE: u32 = 36;
    /// `strict_inertia` (boolean).
    pub const STRICT_INERTIA: u32 = 37;
    /// `gear[i].x gear[i].y gear[i].z` for legs i = 1..4: `GEAR + 3 (i - 1)` (12 references).
    pub const GEAR: u32 = 38;
    /// `gear.k`, N/m: vertical stiffness of each leg.
    pub const GEAR_K: u32 = 50;
    /// `gear.c`, N s/m: vertical damping of each leg.
    pub const GEAR_C: u32 = 51;
    /// `gear.k_h`, N/m: horizontal stiffness of each leg.
    pub const GEAR_K_H: u32 = 52;
    /// `gear.c_h`, N s/m: horizontal damping of each leg.
    pub const GEAR_C_H: u32 = 53;
    /// `ground_z`, m: NED z of the ground plane.
    pub const GROUND_Z: u32 = 54;
    /// `gear.k_h_ratio`: lateral (NED y) over longitudinal (NED x) horizontal leg stiffness.
    pub const GEAR_K_H_RATIO: u32 = 55;
    /// Value reference of input `u[k]` is `INPUT_BASE + k`.
    pub const INPUT_BASE: u32 = 100;
    /// Value reference of output `y[k]` is `OUTPUT_BASE + k`.
    pub const OUTPUT_BASE: u32 = 200;

    /// Value reference of input `u[k]`.
    pub fn input(k: usize) -> u32 {
        INPUT_BASE + k as u32
    }

    /// Value reference of output `y[k]`.
    pub fn output(k: usize) -> u32 {
        OUTPUT_BASE + k as u32
    }
}
