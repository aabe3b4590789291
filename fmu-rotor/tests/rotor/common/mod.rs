//! Shared test helpers: a name-based driver around `Instance<Rotor>`, a parameter map for
//! building a `Rotor` directly, and an independent reference for the rotor kinematics (explicit
//! elementary rotations and the screw formula for velocities) that does not call any model code.

#![allow(dead_code)]

use std::collections::HashMap;

use fmu_core::Parameters;
use fmu_core::model::Model;
use fmu_core::variable::Kind;
use fmu_rotor::Rotor;

#[allow(unused_imports)]
pub use fmu_core::verify::{Val, b, i, r};

/// A tail-rotor shaft: axis along body +y, azimuth reference along body -z.
pub const TAIL_ROTOR_SHAFT: [(&str, Val); 6] = [
    ("shaft.nx", Val::R(0.0)),
    ("shaft.ny", Val::R(1.0)),
    ("shaft.nz", Val::R(0.0)),
    ("shaft.ax", Val::R(0.0)),
    ("shaft.ay", Val::R(0.0)),
    ("shaft.az", Val::R(-1.0)),
];

/// A loaded 4-blade main rotor: coned and lagged blades, the hub accelerating (gravity) and
/// pitching, pitch on blades 1 and 3, a lift force on blade 2.
pub fn loaded_main_rotor() -> Vec<(&'static str, Val)> {
    vec![
        ("blade.beta0", r(0.05)),
        ("blade.zeta0", r(0.01)),
        ("hub.acc.z", r(-9.80665)),
        ("hub.omega.y", r(0.1)),
        ("blade[1].pitch", r(0.12)),
        ("blade[3].pitch", r(0.06)),
        ("blade[2].F.z", r(3000.0)),
    ]
}

/// Value reference of a Rotor variable, by name.
pub fn vr(name: &str) -> u32 {
    fmu_core::verify::vr::<Rotor>(name)
}

/// One Rotor instance driven by variable names.
pub type Sim = fmu_core::verify::Sim<Rotor>;

/// The parameters of a configuration by value reference, with the declared start values for
/// everything not given: lets a test build a [`Rotor`] directly (for the mass matrix).
pub struct ParamMap {
    names: HashMap<String, u32>,
    reals: HashMap<u32, f64>,
    integers: HashMap<u32, i32>,
    booleans: HashMap<u32, bool>,
}

impl ParamMap {
    /// Start values overridden by `params`.
    pub fn new(params: &[(&str, Val)]) -> ParamMap {
        let vars = Rotor::variables();
        let names = vars.iter().map(|v| (v.name.clone(), v.vr)).collect();
        let mut m = ParamMap { names, reals: HashMap::new(), integers: HashMap::new(), booleans: HashMap::new() };
        for v in vars {
            match v.kind {
                Kind::Real { start, .. } => m.reals.insert(v.vr, start).map(|_| ()),
                Kind::Integer { start, .. } => m.integers.insert(v.vr, start).map(|_| ()),
                Kind::Boolean { start } => m.booleans.insert(v.vr, start).map(|_| ()),
                Kind::String { .. } => None,
            };
        }
        for &(name, val) in params {
            let r = m.names[name];
            match val {
                Val::R(v) => m.reals.insert(r, v).map(|_| ()),
                Val::I(v) => m.integers.insert(r, v).map(|_| ()),
                Val::B(v) => m.booleans.insert(r, v).map(|_| ()),
            };
        }
        m
    }

    /// A real parameter by name.
    pub fn get(&self, name: &str) -> f64 {
        self.reals[&self.names[name]]
    }
}

impl Parameters for ParamMap {
    fn real(&self, vr: u32) -> f64 {
        self.reals[&vr]
    }
    fn integer(&self, vr: u32) -> i32 {
        self.integers[&vr]
    }
    fn boolean(&self, vr: u32) -> bool {
        self.booleans[&vr]
    }
}

// ---------------------------------------------------------------------------------------------
// Independent small linear algebra (deliberately not the crate's `la` module): the shared part
// from `fmu_core::verify::math`.

#[allow(unused_imports)]
pub use fmu_core::verify::math::{Lcg, Mat, axpy, cross, dot, mm, mv, norm, rot, sci};

/// `a^T`.
pub fn tr(a: &Mat) -> Mat {
    let mut t = [[0.0; 3]; 3];
    for (i, row) in t.iter_mut().enumerate() {
        for (j, e) in row.iter_mut().enumerate() {
            *e = a[j][i];
        }
    }
    t
}

/// Column `k` of a matrix.
pub fn col(m: &Mat, k: usize) -> [f64; 3] {
    [m[0][k], m[1][k], m[2][k]]
}

// ---------------------------------------------------------------------------------------------
// Independent rotor kinematics: the textbook hinge chain written out explicitly.

/// The state of one blade's hinge chain (angles in rad, rates in rad/s).
#[derive(Debug, Clone, Copy, Default)]
pub struct BladeState {
    /// Blade azimuth `psi + 2 pi (i - 1)/nb`.
    pub azimuth: f64,
    /// Shaft rate relative to the airframe.
    pub shaft_rate: f64,
    /// Lag angle (positive lagging).
    pub lag: f64,
    /// Lag rate.
    pub lag_rate: f64,
    /// Flap angle (positive up).
    pub flap: f64,
    /// Flap rate.
    pub flap_rate: f64,
    /// Pitch angle (positive leading edge up).
    pub pitch: f64,
    /// Pitch rate.
    pub pitch_rate: f64,
}

/// Kinematics of one blade relative to P in airframe axes.
#[derive(Debug, Clone, Copy)]
pub struct BladeKinematics {
    /// Blade axes to airframe axes.
    pub rot: Mat,
    /// Lag hinge.
    pub lag_hinge: [f64; 3],
    /// Flap hinge = blade root reference.
    pub root: [f64; 3],
    /// Centre of mass.
    pub com: [f64; 3],
    /// Velocity of the CoM relative to the airframe (airframe components).
    pub com_vel: [f64; 3],
    /// Velocity of the root relative to the airframe.
    pub root_vel: [f64; 3],
    /// Angular velocity relative to the airframe.
    pub omega: [f64; 3],
}

/// The rotor's data as the textbook describes it.
#[derive(Debug, Clone, Copy)]
pub struct RefRotor {
    /// Hub axes (columns x_H, y_H, z_H) in airframe axes.
    pub hub: Mat,
    /// Flap and lag hinge offsets, m.
    pub e: f64,
    /// Lag hinge offset, m.
    pub e_lag: f64,
    /// Blade mass, kg.
    pub m: f64,
    /// CoM distance outboard of the flap hinge, m.
    pub x_cg: f64,
    /// Flap inertia about the flap hinge, kg m^2.
    pub i_flap: f64,
    /// Pitch inertia, kg m^2.
    pub i_pitch: f64,
    /// Hub mass and polar inertia.
    pub hub_m: f64,
    /// Hub polar inertia, kg m^2.
    pub hub_i: f64,
}

impl RefRotor {
    /// From a parameter map (hub axes built independently of the model's code).
    pub fn from(p: &ParamMap) -> RefRotor {
        let n = [p.get("shaft.nx"), p.get("shaft.ny"), p.get("shaft.nz")];
        let z = n.map(|c| c / norm(n));
        let a = [p.get("shaft.ax"), p.get("shaft.ay"), p.get("shaft.az")];
        let x0 = axpy(a, -dot(a, z), z);
        let x = x0.map(|c| c / norm(x0));
        let y = cross(z, x);
        let hub = [[x[0], y[0], z[0]], [x[1], y[1], z[1]], [x[2], y[2], z[2]]];
        let e = p.get("e");
        let e_lag = if p.get("e_lag") < 0.0 { e } else { p.get("e_lag") };
        RefRotor {
            hub,
            e,
            e_lag,
            m: p.get("blade.m"),
            x_cg: p.get("blade.S") / p.get("blade.m"),
            i_flap: p.get("blade.I"),
            i_pitch: p.get("blade.I_pitch"),
            hub_m: p.get("hub.m"),
            hub_i: p.get("hub.I"),
        }
    }

    /// Shaft axis z_H.
    pub fn shaft_axis(&self) -> [f64; 3] {
        col(&self.hub, 2)
    }

    /// Blade inertia about its CoM in blade axes.
    pub fn blade_inertia(&self) -> Mat {
        let i_cg = self.i_flap - self.m * self.x_cg * self.x_cg;
        [[self.i_pitch, 0.0, 0.0], [0.0, i_cg, 0.0], [0.0, 0.0, i_cg + self.i_pitch]]
    }

    /// Blade kinematics: `R = H Rz(azimuth) Rz(-lag) Ry(-flap) Rx(pitch)`; velocities by the
    /// screw formula, each joint rate times its world axis crossed with the lever arm.
    pub fn blade(&self, s: &BladeState) -> BladeKinematics {
        let r_az = mm(&self.hub, &rot(2, s.azimuth));
        let r_lag = mm(&r_az, &rot(2, -s.lag));
        let r_flap = mm(&r_lag, &rot(1, -s.flap));
        let r_b = mm(&r_flap, &rot(0, s.pitch));
        let lag_hinge = mv(&r_az, [self.e_lag, 0.0, 0.0]);
        let root = axpy(lag_hinge, 1.0, mv(&r_lag, [self.e - self.e_lag, 0.0, 0.0]));
        let com = axpy(root, 1.0, mv(&r_b, [self.x_cg, 0.0, 0.0]));
        // Joint axes in airframe axes and their rates.
        let z_h = col(&self.hub, 2);
        let lag_axis = col(&r_lag, 2).map(|c| -c);
        let flap_axis = col(&r_flap, 1).map(|c| -c);
        let pitch_axis = col(&r_b, 0);
        let joints = [
            (z_h, s.shaft_rate, [0.0; 3]),
            (lag_axis, s.lag_rate, lag_hinge),
            (flap_axis, s.flap_rate, root),
            (pitch_axis, s.pitch_rate, root),
        ];
        let (mut omega, mut com_vel, mut root_vel) = ([0.0; 3], [0.0; 3], [0.0; 3]);
        for (axis, rate, point) in joints {
            let w = axis.map(|c| c * rate);
            omega = axpy(omega, 1.0, w);
            com_vel = axpy(com_vel, 1.0, cross(w, axpy(com, -1.0, point)));
            root_vel = axpy(root_vel, 1.0, cross(w, axpy(root, -1.0, point)));
        }
        BladeKinematics { rot: r_b, lag_hinge, root, com, com_vel, root_vel, omega }
    }

    /// Blade inertia about its CoM in airframe axes.
    pub fn blade_inertia_airframe(&self, k: &BladeKinematics) -> Mat {
        mm(&mm(&k.rot, &self.blade_inertia()), &tr(&k.rot))
    }

    /// Hub inertia (thin disk) about P in airframe axes.
    pub fn hub_inertia_airframe(&self) -> Mat {
        let d = [[0.5 * self.hub_i, 0.0, 0.0], [0.0, 0.5 * self.hub_i, 0.0], [0.0, 0.0, self.hub_i]];
        mm(&mm(&self.hub, &d), &tr(&self.hub))
    }

    /// Kinetic energy of hub and blades, with the airframe at P moving with `v_p` and rotating
    /// with `w` (airframe axes).
    pub fn kinetic_energy(&self, blades: &[BladeState], v_p: [f64; 3], w: [f64; 3]) -> f64 {
        let mut t = 0.0;
        for s in blades {
            let k = self.blade(s);
            let v = axpy(axpy(v_p, 1.0, cross(w, k.com)), 1.0, k.com_vel);
            let wb = axpy(w, 1.0, k.omega);
            t += 0.5 * self.m * dot(v, v) + 0.5 * dot(wb, mv(&self.blade_inertia_airframe(&k), wb));
        }
        if let Some(s) = blades.first() {
            let wh = axpy(w, s.shaft_rate, self.shaft_axis());
            t += 0.5 * self.hub_m * dot(v_p, v_p) + 0.5 * dot(wh, mv(&self.hub_inertia_airframe(), wh));
        }
        t
    }

    /// Linear momentum and angular momentum about P (airframe components).
    pub fn momentum(&self, blades: &[BladeState], v_p: [f64; 3], w: [f64; 3]) -> ([f64; 3], [f64; 3]) {
        let (mut l, mut h) = ([0.0; 3], [0.0; 3]);
        for s in blades {
            let k = self.blade(s);
            let v = axpy(axpy(v_p, 1.0, cross(w, k.com)), 1.0, k.com_vel);
            let wb = axpy(w, 1.0, k.omega);
            l = axpy(l, self.m, v);
            h = axpy(h, self.m, cross(k.com, v));
            h = axpy(h, 1.0, mv(&self.blade_inertia_airframe(&k), wb));
        }
        if let Some(s) = blades.first() {
            let wh = axpy(w, s.shaft_rate, self.shaft_axis());
            l = axpy(l, self.hub_m, v_p);
            h = axpy(h, 1.0, mv(&self.hub_inertia_airframe(), wh));
        }
        (l, h)
    }
}
