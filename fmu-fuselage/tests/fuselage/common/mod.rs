//! Shared test helpers: a name-based driver around `Instance<Fuselage>`, and an independent
//! rigid-body reference (Euler's equations about the centre of mass, translation of the CoM in
//! NED, classic RK4) that does not call any of the model code.

#![allow(dead_code)]

use fmu_fuselage::Fuselage;

#[allow(unused_imports)]
pub use fmu_core::verify::{Val, b, i, r};

/// One Fuselage instance driven by variable names.
pub type Sim = fmu_core::verify::Sim<Fuselage>;

/// The parameters `I.xx`, `I.yy`, `I.zz`, `I.xy`, `I.xz`, `I.yz` of an inertia tensor about the CoM.
pub fn inertia_parameters(i_cm: &Mat) -> [(&'static str, Val); 6] {
    [
        ("I.xx", r(i_cm[0][0])),
        ("I.yy", r(i_cm[1][1])),
        ("I.zz", r(i_cm[2][2])),
        ("I.xy", r(i_cm[0][1])),
        ("I.xz", r(i_cm[0][2])),
        ("I.yz", r(i_cm[1][2])),
    ]
}

/// Value reference of a Fuselage variable, by name.
pub fn vr(name: &str) -> u32 {
    fmu_core::verify::vr::<Fuselage>(name)
}

// ---------------------------------------------------------------------------------------------
// Independent small linear algebra (deliberately not the crate's vec3 module): the shared part
// from `fmu_core::verify::math`.

#[allow(unused_imports)]
pub use fmu_core::verify::math::{Lcg, Mat, axpy, cross, dot, mm, mv, rot, sci};

/// `m^T v`.
pub fn mtv(m: &Mat, v: [f64; 3]) -> [f64; 3] {
    [0, 1, 2].map(|j| (0..3).map(|k| m[k][j] * v[k]).sum())
}

/// Inverse by cofactors.
pub fn inv3(m: &Mat) -> Mat {
    let c = |i: usize, j: usize| {
        let (r0, r1) = ((i + 1) % 3, (i + 2) % 3);
        let (c0, c1) = ((j + 1) % 3, (j + 2) % 3);
        m[r0][c0] * m[r1][c1] - m[r0][c1] * m[r1][c0]
    };
    let det = m[0][0] * c(0, 0) + m[0][1] * c(0, 1) + m[0][2] * c(0, 2);
    let mut out = [[0.0; 3]; 3];
    for (i, row) in out.iter_mut().enumerate() {
        for (j, e) in row.iter_mut().enumerate() {
            *e = c(j, i) / det;
        }
    }
    out
}

/// Largest absolute element difference.
pub fn max_diff<const N: usize>(a: &[f64; N], b: &[f64; N]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max)
}

/// Largest absolute element difference of two matrices.
pub fn mat_diff(a: &Mat, b: &Mat) -> f64 {
    (0..3).map(|i| max_diff(&a[i], &b[i])).fold(0.0, f64::max)
}

/// `R_a(e1) R_b(e2) R_c(e3)` for the sequence code `abc` (e.g. 321).
pub fn compose(code: i32, e: [f64; 3]) -> Mat {
    let axes = [(code / 100 - 1) as usize, ((code / 10) % 10 - 1) as usize, (code % 10 - 1) as usize];
    mm(&mm(&rot(axes[0], e[0]), &rot(axes[1], e[1])), &rot(axes[2], e[2]))
}

/// Body-to-inertial matrix of a scalar-first quaternion (normalised first).
pub fn quat_dcm(q: [f64; 4]) -> Mat {
    let n = (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]).sqrt();
    let [w, x, y, z] = q.map(|e| e / n);
    [
        [w * w + x * x - y * y - z * z, 2.0 * (x * y - w * z), 2.0 * (x * z + w * y)],
        [2.0 * (x * y + w * z), w * w - x * x + y * y - z * z, 2.0 * (y * z - w * x)],
        [2.0 * (x * z - w * y), 2.0 * (y * z + w * x), w * w - x * x - y * y + z * z],
    ]
}

// ---------------------------------------------------------------------------------------------
// Independent rigid-body reference.

/// A constant load on the body: force and moment in body axes applied at a body point
/// (relative to the reference point O).
#[derive(Debug, Clone, Copy)]
pub struct Load {
    /// Application point relative to O, body axes, m.
    pub at: [f64; 3],
    /// Force, body axes, N.
    pub force: [f64; 3],
    /// Couple, body axes, N m.
    pub moment: [f64; 3],
}

/// Rigid body described about its CoM (the textbook form).
#[derive(Debug, Clone)]
pub struct RefBody {
    /// Mass, kg.
    pub m: f64,
    /// CoM relative to O, body axes, m.
    pub c: [f64; 3],
    /// Inertia tensor about the CoM, body axes.
    pub i_cm: Mat,
    /// Gravity along NED z, m/s^2.
    pub g: f64,
    /// `0.5 rho f` of the drag at O, kg/m.
    pub drag: f64,
    /// Loads.
    pub loads: Vec<Load>,
}

/// Reference state: `[p_cm (NED, 3), v_cm (NED, 3), q (4), w (body, 3)]`.
pub type RefState = [f64; 13];

impl RefBody {
    /// State from the reference point O's initial conditions (NED position of O, quaternion,
    /// body velocity of O, body rates).
    pub fn state_from_o(&self, pos_o: [f64; 3], q: [f64; 4], vel_o: [f64; 3], w: [f64; 3]) -> RefState {
        let r = quat_dcm(q);
        let p_cm = axpy(pos_o, 1.0, mv(&r, self.c));
        let v_cm = mv(&r, axpy(vel_o, 1.0, cross(w, self.c)));
        let mut s = [0.0; 13];
        s[0..3].copy_from_slice(&p_cm);
        s[3..6].copy_from_slice(&v_cm);
        s[6..10].copy_from_slice(&q);
        s[10..13].copy_from_slice(&w);
        s
    }

    fn parts(s: &RefState) -> ([f64; 3], [f64; 3], [f64; 4], [f64; 3]) {
        ([s[0], s[1], s[2]], [s[3], s[4], s[5]], [s[6], s[7], s[8], s[9]], [s[10], s[11], s[12]])
    }

    /// Body-axis velocity of O.
    pub fn vel_o(&self, s: &RefState) -> [f64; 3] {
        let (_, v_cm, q, w) = Self::parts(s);
        axpy(mtv(&quat_dcm(q), v_cm), -1.0, cross(w, self.c))
    }

    /// NED position of O.
    pub fn pos_o(&self, s: &RefState) -> [f64; 3] {
        let (p_cm, _, q, _) = Self::parts(s);
        axpy(p_cm, -1.0, mv(&quat_dcm(q), self.c))
    }

    /// Net body-axis force and moment about the CoM.
    fn loads_about_cm(&self, s: &RefState) -> ([f64; 3], [f64; 3]) {
        let mut f = [0.0; 3];
        let mut m = [0.0; 3];
        for l in &self.loads {
            f = axpy(f, 1.0, l.force);
            m = axpy(m, 1.0, axpy(l.moment, 1.0, cross(axpy(l.at, -1.0, self.c), l.force)));
        }
        if self.drag > 0.0 {
            let v = self.vel_o(s);
            let d = v.map(|e| -self.drag * dot(v, v).sqrt() * e);
            f = axpy(f, 1.0, d);
            m = axpy(m, 1.0, cross(self.c.map(|e| -e), d));
        }
        (f, m)
    }

    /// `(a_cm in NED, alpha in body)`.
    pub fn accelerations(&self, s: &RefState) -> ([f64; 3], [f64; 3]) {
        let (_, _, q, w) = Self::parts(s);
        let (f, m) = self.loads_about_cm(s);
        let a_cm = axpy(mv(&quat_dcm(q), f).map(|e| e / self.m), 1.0, [0.0, 0.0, self.g]);
        let h = mv(&self.i_cm, w);
        let alpha = mv(&inv3(&self.i_cm), axpy(m, -1.0, cross(w, h)));
        (a_cm, alpha)
    }

    /// Specific force (inertial acceleration minus gravity) at body point `p` (relative to O),
    /// body axes.
    pub fn specific_force(&self, s: &RefState, p: [f64; 3]) -> [f64; 3] {
        let (_, _, q, w) = Self::parts(s);
        let r = quat_dcm(q);
        let (a_cm, alpha) = self.accelerations(s);
        let rho = axpy(p, -1.0, self.c);
        let a_p = axpy(axpy(mtv(&r, a_cm), 1.0, cross(alpha, rho)), 1.0, cross(w, cross(w, rho)));
        axpy(a_p, -1.0, mtv(&r, [0.0, 0.0, self.g]))
    }

    fn rate(&self, s: &RefState) -> RefState {
        let (_, v_cm, q, w) = Self::parts(s);
        let (a_cm, alpha) = self.accelerations(s);
        let qd = [
            0.5 * (-q[1] * w[0] - q[2] * w[1] - q[3] * w[2]),
            0.5 * (q[0] * w[0] + q[2] * w[2] - q[3] * w[1]),
            0.5 * (q[0] * w[1] - q[1] * w[2] + q[3] * w[0]),
            0.5 * (q[0] * w[2] + q[1] * w[1] - q[2] * w[0]),
        ];
        let mut d = [0.0; 13];
        d[0..3].copy_from_slice(&v_cm);
        d[3..6].copy_from_slice(&a_cm);
        d[6..10].copy_from_slice(&qd);
        d[10..13].copy_from_slice(&alpha);
        d
    }

    /// Integrates with classic fixed-step RK4 (renormalising the quaternion after each step)
    /// from `s` over `t` seconds with `n` steps.
    pub fn rk4(&self, mut s: RefState, t: f64, n: usize) -> RefState {
        let h = t / n as f64;
        let add = |a: &RefState, k: &RefState, f: f64| {
            let mut o = *a;
            for (oi, ki) in o.iter_mut().zip(k) {
                *oi += f * ki;
            }
            o
        };
        for _ in 0..n {
            let k1 = self.rate(&s);
            let k2 = self.rate(&add(&s, &k1, 0.5 * h));
            let k3 = self.rate(&add(&s, &k2, 0.5 * h));
            let k4 = self.rate(&add(&s, &k3, h));
            for j in 0..13 {
                s[j] += h / 6.0 * (k1[j] + 2.0 * k2[j] + 2.0 * k3[j] + k4[j]);
            }
            let n = (s[6] * s[6] + s[7] * s[7] + s[8] * s[8] + s[9] * s[9]).sqrt();
            for e in &mut s[6..10] {
                *e /= n;
            }
        }
        s
    }
}
