//! Shared test helpers: a name-based driver around `Instance<Aero>`, and independent rigid-rotor
//! kinematics (blade frames built from azimuth, flap and pitch angles in the airframe body axes)
//! that do not call any of the model code.

#![allow(dead_code)]

use fmu_aero::Aero;

#[allow(unused_imports)]
pub use fmu_core::verify::{Val, i, r};

/// Value reference of an Aero variable, by name.
pub fn vr(name: &str) -> u32 {
    fmu_core::verify::vr::<Aero>(name)
}

/// One Aero instance driven by variable names.
pub type Sim = fmu_core::verify::Sim<Aero>;

/// `rho a c = gamma I / R^4` of the Seed 004 Table 1 rotor ([`test_fmus::table1`], seed eq. 29).
pub fn rho_a_c() -> f64 {
    use test_fmus::table1::{GAMMA, I, R};
    GAMMA * I / R.powi(4)
}

/// The rotor that `forward_flight` and `hover_inflow` fly (their blade counts differ).
pub mod test_rotor {
    /// Radius, m.
    pub const R: f64 = 7.5;
    /// Rotor speed, rad/s.
    pub const OMEGA: f64 = 29.0;
    /// Chord, m.
    pub const CHORD: f64 = 0.55;
    /// Linear twist, root to tip, rad.
    pub const TWIST: f64 = -0.14;
    /// Lift-curve slope, 1/rad.
    pub const A: f64 = 5.73;

    /// The parameters of this rotor with `nb` blades, hinge offset `e` (m), root cut-out
    /// `r_root` (m), the drag polar `cd0 + cd2 alpha^2` and `inflow_model`, spun at [`OMEGA`];
    /// a test extends them with its own.
    pub fn parameters(
        nb: usize,
        [e, r_root]: [f64; 2],
        [cd0, cd2]: [f64; 2],
        inflow_model: i32,
    ) -> Vec<(&'static str, super::Val)> {
        use super::{i, r};
        vec![
            ("nb", i(nb as i32)),
            ("R", r(R)),
            ("e", r(e)),
            ("r_root", r(r_root)),
            ("chord", r(CHORD)),
            ("twist", r(TWIST)),
            ("a", r(A)),
            ("cd0", r(cd0)),
            ("cd2", r(cd2)),
            ("inflow_model", i(inflow_model)),
            ("Omega", r(OMEGA)),
        ]
    }
}

/// Sets the kinematic inputs of blade `i` (1-based).
pub fn set_blade(sim: &mut Sim, i: usize, k: &BladeInputs) {
    sim.set3(&format!("blade[{i}].vel"), k.vel);
    sim.set3(&format!("blade[{i}].omega"), k.omega);
    sim.set(&format!("blade[{i}].azimuth"), k.azimuth);
    sim.set3(&format!("blade[{i}].shaft"), k.shaft);
}

// ---------------------------------------------------------------------------------------------
// Independent small vector algebra and rigid-rotor kinematics.

pub use fmu_core::verify::math::{cross, dot, norm};

/// `sum_k c_k v_k`.
pub fn lin(terms: &[(f64, [f64; 3])]) -> [f64; 3] {
    let mut o = [0.0; 3];
    for (c, v) in terms {
        for k in 0..3 {
            o[k] += c * v[k];
        }
    }
    o
}

/// The rotor's geometry in airframe body axes: shaft axis `s` (up, default `(0, 0, -1)`) and the
/// hub reference axis `e1` (body x projected on the rotor plane; azimuth 0 points along `-e1`,
/// the rotation is right-handed about `s`).
#[derive(Debug, Clone, Copy)]
pub struct Rotor {
    /// Unit shaft axis, body axes.
    pub s: [f64; 3],
    /// Unit in-plane reference axis, body axes.
    pub e1: [f64; 3],
    /// Rotor speed about `s`, rad/s.
    pub omega: f64,
    /// Radius of the blade root reference (flap hinge), m.
    pub e: f64,
    /// Hub velocity, body axes, m/s.
    pub hub_vel: [f64; 3],
}

impl Rotor {
    /// A rotor with shaft up, `e1` forward, hub at rest.
    pub fn hover(omega: f64, e: f64) -> Rotor {
        Rotor { s: [0.0, 0.0, -1.0], e1: [1.0, 0.0, 0.0], omega, e, hub_vel: [0.0; 3] }
    }

    /// Unit arm from the shaft axis towards blade azimuth `psi`.
    pub fn arm(&self, psi: f64) -> [f64; 3] {
        // Rotation of -e1 about s by psi: -cos(psi) e1 - sin(psi) (s x e1).
        lin(&[(-psi.cos(), self.e1), (-psi.sin(), cross(self.s, self.e1))])
    }
}

/// One blade's attitude and rates relative to the hub.
#[derive(Debug, Clone, Copy, Default)]
pub struct BladeState {
    /// Azimuth, rad.
    pub psi: f64,
    /// Flap angle (tip up positive), rad.
    pub beta: f64,
    /// Flap rate, rad/s.
    pub beta_dot: f64,
    /// Pitch angle (leading edge up positive), rad.
    pub theta: f64,
    /// Pitch rate, rad/s.
    pub theta_dot: f64,
}

/// A blade's frame and the Aero inputs derived from it.
#[derive(Debug, Clone, Copy)]
pub struct BladeInputs {
    /// Blade axes `x_b, y_b, z_b` in body axes.
    pub frame: [[f64; 3]; 3],
    /// Root reference position relative to the hub centre, body axes, m.
    pub root: [f64; 3],
    /// Root reference velocity, body axes, m/s.
    pub root_vel_body: [f64; 3],
    /// Blade angular velocity, body axes, rad/s.
    pub omega_body: [f64; 3],
    /// Inputs: root velocity in blade axes.
    pub vel: [f64; 3],
    /// Inputs: angular velocity in blade axes.
    pub omega: [f64; 3],
    /// Inputs: azimuth.
    pub azimuth: f64,
    /// Inputs: shaft axis in blade axes.
    pub shaft: [f64; 3],
}

impl BladeInputs {
    /// Components of a body-axes vector in blade axes.
    pub fn in_blade_axes(&self, v: [f64; 3]) -> [f64; 3] {
        [dot(self.frame[0], v), dot(self.frame[1], v), dot(self.frame[2], v)]
    }

    /// Body-axes vector from blade-axes components.
    pub fn in_body_axes(&self, v: [f64; 3]) -> [f64; 3] {
        lin(&[(v[0], self.frame[0]), (v[1], self.frame[1]), (v[2], self.frame[2])])
    }
}

/// Rigid-rotor kinematics of a blade (hinge chain flap then pitch at radius `e`, no lag, airframe
/// not rotating): frames and velocities built from the angles, then expressed in blade axes.
pub fn blade_inputs(rotor: &Rotor, b: &BladeState) -> BladeInputs {
    let s = rotor.s;
    let a = rotor.arm(b.psi);
    let t = cross(s, a); // direction of motion of the arm (leading edge at zero pitch)
    let (sb, cb) = b.beta.sin_cos();
    let (st, ct) = b.theta.sin_cos();
    let x_f = lin(&[(cb, a), (sb, s)]);
    let z_f = lin(&[(-sb, a), (cb, s)]);
    let y_f = t;
    let x_b = x_f;
    let y_b = lin(&[(ct, y_f), (st, z_f)]);
    let z_b = lin(&[(-st, y_f), (ct, z_f)]);
    let root = lin(&[(rotor.e, a)]);
    let omega_body = lin(&[(rotor.omega, s), (-b.beta_dot, t), (b.theta_dot, x_b)]);
    let root_vel_body = lin(&[(1.0, rotor.hub_vel), (1.0, cross(lin(&[(rotor.omega, s)]), root))]);
    let frame = [x_b, y_b, z_b];
    let mut k = BladeInputs {
        frame,
        root,
        root_vel_body,
        omega_body,
        vel: [0.0; 3],
        omega: [0.0; 3],
        azimuth: b.psi,
        shaft: [0.0; 3],
    };
    k.vel = k.in_blade_axes(root_vel_body);
    k.omega = k.in_blade_axes(omega_body);
    k.shaft = k.in_blade_axes(s);
    k
}

/// Relative difference `|a - b| / |b|`.
pub fn rel(a: f64, b: f64) -> f64 {
    (a - b).abs() / b.abs()
}

/// Sets the four blades of a hovering rotor at the FMU's default speed and hinge (`Omega` 29 rad/s,
/// `e` 0.3 m) to the collective `deg` (degrees), at azimuths 0, 90, 180 and 270 deg.
pub fn set_hover_collective(sim: &mut Sim, deg: f64) {
    let rotor = Rotor::hover(29.0, 0.3);
    for b in 0..4 {
        let state =
            BladeState { psi: 0.5 * std::f64::consts::PI * b as f64, theta: deg.to_radians(), ..Default::default() };
        set_blade(sim, b + 1, &blade_inputs(&rotor, &state));
    }
}
