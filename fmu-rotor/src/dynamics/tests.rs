use super::*;
use crate::la::{IDENTITY, M3f, lift33, rotate_columns};
use crate::tree::{JointAxis, Link, RigidBody};
use num_dual::{Dual2_64, Dual64, DualNum};

/// The axial vector of the skew-symmetric part of `a r^T`: for `a = dR/ds` the angular
/// velocity, for `a = d^2R/ds^2` its rate.
fn axial_of_product(a: &M3f, r: &M3f) -> [f64; 3] {
    let p = |i: usize, j: usize| a[i][0] * r[j][0] + a[i][1] * r[j][1] + a[i][2] * r[j][2];
    [(p(2, 1) - p(1, 2)) * 0.5, (p(0, 2) - p(2, 0)) * 0.5, (p(1, 0) - p(0, 1)) * 0.5]
}

fn link(name: &str, parent: Option<usize>, axis: JointAxis, joint: Joint) -> Link {
    crate::rotor::bare_link(name.into(), parent, axis, joint)
}

/// A tilted driven shaft with a hub body and one lag-flap-pitch blade whose CoM is off the
/// pitch axis, so that every term of the recursion is exercised.
fn tree() -> Tree {
    let (s, c) = 0.3_f64.sin_cos();
    let mut shaft = link("shaft", None, JointAxis::Z, Joint::Driven(Drive::Clock { angle0: 0.2, rate: 29.0 }));
    shaft.fixed_rotation = Some([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]]);
    shaft.report_torque = true;
    shaft.body = Some(RigidBody {
        mass: 40.0,
        com: [0.01, 0.02, -0.1],
        inertia: [[5.0, 0.1, 0.0], [0.1, 6.0, 0.2], [0.0, 0.2, 9.0]],
        load_input: None,
    });
    let mut lag = link("lag", Some(0), JointAxis::NEG_Z, Joint::Free { angle0: 0.0, rate0: 0.0 });
    lag.fixed_rotation = Some([[0.6, -0.8, 0.0], [0.8, 0.6, 0.0], [0.0, 0.0, 1.0]]);
    lag.offset = [0.12, 0.16, 0.0];
    let mut flap = link("flap", Some(1), JointAxis::NEG_Y, Joint::Free { angle0: 0.0, rate0: 0.0 });
    flap.offset = [0.3, 0.0, 0.0];
    let mut pitch = link("pitch", Some(2), JointAxis::X, Joint::Driven(Drive::Inputs { angle: 0, rate: 1, acc: 2 }));
    pitch.body = Some(RigidBody {
        mass: 100.0,
        com: [3.9, 0.05, -0.02],
        inertia: [[2.0, 0.0, 0.3], [0.0, 400.0, 0.0], [0.3, 0.0, 402.0]],
        load_input: None,
    });
    Tree::new(vec![shaft, lag, flap, pitch]).unwrap()
}

/// Link frames along `theta(s) = theta + s theta' + s^2/2 theta''` (hyper-dual numbers), or
/// with only link `seed`'s angle varying (its derivative in `eps1`).
fn frames(tree: &Tree, w: &Work<f64>, seed: Option<usize>) -> Vec<Frame<Dual2_64>> {
    let mut out: Vec<Frame<Dual2_64>> = Vec::new();
    for (j, l) in tree.links.iter().enumerate() {
        let parent = l.parent.map_or(Frame::root(), |p| out[p]);
        let angle = match seed {
            None => Dual2_64::new(w.angle[j], w.rate[j], w.accel[j]),
            Some(k) => Dual2_64::new(w.angle[j], if k == j { 1.0 } else { 0.0 }, 0.0),
        };
        let (s, c) = (angle * l.axis.sign).sin_cos();
        out.push(l.frame(&parent, s, c));
    }
    out
}

fn close(a: [f64; 3], b: [f64; 3], what: &str) {
    for k in 0..3 {
        assert!((a[k] - b[k]).abs() <= 1e-12 * (1.0 + b[k].abs()), "{what}: {a:?} vs {b:?}");
    }
}

#[test]
fn axial_of_rotation_rate_is_the_angular_velocity() {
    // R(t) = Rot_z(2 t) Rot_x(3 t) at t = 0.3: w = 2 z + 3 Rot_z(2t) x.
    let t = 0.3;
    let rot = |t: Dual64| {
        let mut m = lift33::<Dual64>(&IDENTITY);
        let (s, c) = (t * 2.0).sin_cos();
        rotate_columns(&mut m, 2, s, c);
        let (s, c) = (t * 3.0).sin_cos();
        rotate_columns(&mut m, 0, s, c);
        m
    };
    let r = rot(Dual64::new(t, 1.0));
    let re = r.map(|row| row.map(|e| e.re));
    let eps = r.map(|row| row.map(|e| e.eps));
    let w = axial_of_product(&eps, &re);
    let expected = [3.0 * (2.0 * t).cos(), 3.0 * (2.0 * t).sin(), 2.0];
    for k in 0..3 {
        assert!((w[k] - expected[k]).abs() < 1e-14, "{w:?} vs {expected:?}");
    }
}

#[test]
fn recursive_kinematics_and_screw_axes_equal_the_differentiated_forward_kinematics() {
    let tree = tree();
    let mut w = Work::<f64>::new();
    let x = [0.07, 0.11, -2.5, 3.0];
    let u = [0.2, 1.5, -40.0];
    tree.joint_values(&mut w, 0.37, &x, &u);
    tree.kinematics(&mut w);
    tree.jacobian_columns(&mut w, tree.columns.len());
    let path = frames(&tree, &w, None);
    let re = |m: &M3<Dual2_64>| m.map(|r| r.map(|e| e.re));
    for (j, f) in path.iter().enumerate() {
        let r = re(&f.rot);
        close(w.pos[j], f.pos.map(|e| e.re), "position");
        close(w.vel[j], f.pos.map(|e| e.v1), "velocity");
        close(w.acc_bias[j], f.pos.map(|e| e.v2), "acceleration");
        close(w.omega[j], axial_of_product(&f.rot.map(|r| r.map(|e| e.v1)), &r), "angular velocity");
        close(w.omega_rate_bias[j], axial_of_product(&f.rot.map(|r| r.map(|e| e.v2)), &r), "angular acceleration");
    }
    for (b, &j) in tree.body_link.iter().enumerate() {
        let c = add(path[j].pos, mat_vec_f(&path[j].rot, tree.body(b).com));
        close(w.cd[b], c.map(|e| e.v1), "CoM velocity");
        close(w.cdd_bias[b], c.map(|e| e.v2), "CoM acceleration");
    }
    for (k, col) in tree.columns.iter().enumerate() {
        let seeded = frames(&tree, &w, Some(col.link));
        for b in col.bodies.0..col.bodies.1 {
            let j = tree.body_link[b];
            let c = add(seeded[j].pos, mat_vec_f(&seeded[j].rot, tree.body(b).com));
            close(w.jv[k][b], c.map(|e| e.v1), "J_v");
            let jw = axial_of_product(&seeded[j].rot.map(|r| r.map(|e| e.v1)), &re(&seeded[j].rot));
            close(w.jw[k][b], jw, "J_w");
        }
    }
    // The generic code differentiates too: d(omega of the blade)/d(lag rate) = lag axis.
    let mut wd = Work::<Dual64>::new();
    let mut xd = x.map(Dual64::from);
    xd[2] = Dual64::new(x[2], 1.0);
    tree.joint_values(&mut wd, Dual64::from(0.37), &xd, &u.map(Dual64::from));
    tree.kinematics(&mut wd);
    close(wd.omega[3].map(|e| e.eps), w.axis[1], "d omega / d lag rate");
}
