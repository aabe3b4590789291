//! The mass matrix from the AD Jacobians (`M = sum J_v^T m J_v + J_w^T I J_w`) is symmetric
//! positive definite and equals the Hessian with respect to `q'` of the kinetic energy
//! `T(q, q')` written independently in the test (explicit hinge-chain kinematics, screw
//! formula for the velocities), by central finite differences. With the hub at rest and no
//! prescribed rates, `T` is a quadratic form in `q'`, so the second differences are exact up to
//! rounding.

use crate::common::{BladeState, Lcg, ParamMap, RefRotor, TAIL_ROTOR_SHAFT, Val, b, i, r};
use fmu_rotor::{Coordinate, Rotor, layout};

/// Blade states from the coordinates `q`, rates `qd` and pitch angles.
fn blade_states(rotor: &Rotor, map: &ParamMap, q: &[f64], qd: &[f64], pitch: &[f64], t: f64) -> Vec<BladeState> {
    let nb = rotor.blade_count();
    let omega = map.get("Omega");
    let mut s: Vec<BladeState> = (0..nb)
        .map(|k| BladeState {
            azimuth: map.get("psi0") + omega * t + 2.0 * std::f64::consts::PI * k as f64 / nb as f64,
            shaft_rate: 0.0,
            lag: map.get("blade.zeta0"),
            flap: map.get("blade.beta0"),
            pitch: pitch[k],
            ..Default::default()
        })
        .collect();
    for (k, c) in rotor.coordinates().iter().enumerate() {
        match *c {
            Coordinate::Shaft => {
                for (j, bs) in s.iter_mut().enumerate() {
                    bs.azimuth = q[k] + 2.0 * std::f64::consts::PI * j as f64 / nb as f64;
                    bs.shaft_rate = qd[k];
                }
            }
            Coordinate::Lag(j) => {
                s[j].lag = q[k];
                s[j].lag_rate = qd[k];
            }
            Coordinate::Flap(j) => {
                s[j].flap = q[k];
                s[j].flap_rate = qd[k];
            }
        }
    }
    s
}

/// Checks one configuration at several random states; returns the worst relative error.
fn check(params: &[(&str, Val)], seed: u64) -> f64 {
    let map = ParamMap::new(params);
    let rotor = Rotor::from_parameters(&map).unwrap();
    let reference = RefRotor::from(&map);
    let n = rotor.coordinates().len();
    let nb = rotor.blade_count();
    let mut rng = Lcg(seed);
    let mut worst: f64 = 0.0;
    for _ in 0..5 {
        let t = rng.uniform(0.0, 1.0);
        let q: Vec<f64> = (0..n).map(|_| rng.uniform(-0.4, 0.4)).collect();
        let pitch: Vec<f64> = (0..nb).map(|_| rng.uniform(-0.3, 0.3)).collect();
        let mut x = q.clone();
        x.extend((0..n).map(|_| rng.uniform(-5.0, 5.0))); // rates do not enter M
        let mut u = vec![0.0; layout::u::N];
        for (k, p) in pitch.iter().enumerate() {
            u[layout::u::blade(k) + layout::u::PITCH] = *p;
        }
        let m = rotor.mass_matrix(t, &x, &u);
        // Independent: Hessian of T in q' by central second differences (step 1 rad/s; T is
        // exactly quadratic in q' here).
        let energy = |qd: &[f64]| {
            let s = blade_states(&rotor, &map, &q, qd, &pitch, t);
            reference.kinetic_energy(&s, [0.0; 3], [0.0; 3])
        };
        let h = 1.0;
        let scale = m.iter().flatten().fold(0.0_f64, |a, &v| a.max(v.abs()));
        for k in 0..n {
            for l in 0..n {
                let mut qd = vec![0.0; n];
                let mut at = |sk: f64, sl: f64| {
                    qd.iter_mut().for_each(|v| *v = 0.0);
                    qd[k] += sk * h;
                    qd[l] += sl * h;
                    energy(&qd)
                };
                let hess = (at(1.0, 1.0) - at(1.0, -1.0) - at(-1.0, 1.0) + at(-1.0, -1.0)) / (4.0 * h * h);
                worst = worst.max((m[k][l] - hess).abs() / scale);
                assert!(
                    (m[k][l] - m[l][k]).abs() <= 1e-13 * scale,
                    "M not symmetric at ({k}, {l}): {} vs {}",
                    m[k][l],
                    m[l][k]
                );
            }
        }
        // Positive definite: Cholesky succeeds with positive pivots.
        let mut c = m.clone();
        for k in 0..n {
            for j in 0..k {
                let f = c[k][j];
                for row in c.iter_mut().skip(k) {
                    row[k] -= f * row[j];
                }
            }
            assert!(c[k][k] > 1e-9 * scale, "pivot {k} = {} not positive: M not positive definite", c[k][k]);
            let d = c[k][k].sqrt();
            for row in c.iter_mut().skip(k) {
                row[k] /= d;
            }
        }
    }
    worst
}

#[test]
fn ad_mass_matrix_equals_hessian_of_independent_kinetic_energy() {
    let tilt = 0.2_f64;
    let free_shaft = [
        ("shaft_free", b(true)),
        ("nb", i(3)),
        ("e_lag", r(0.15)),
        ("blade.I_pitch", r(6.0)),
        ("hub.m", r(70.0)),
        ("hub.I", r(40.0)),
        ("shaft.nx", r(tilt.sin())),
        ("shaft.nz", r(-tilt.cos())),
        ("psi0", r(0.3)),
    ];
    let worst_free = check(&free_shaft, 7);
    eprintln!(
        "mass matrix (free shaft, 3 blades, lag and flap free: 7 coordinates): max |M_AD - Hess_qd T| / max|M| = {worst_free:.3e}"
    );
    let driven = [
        ("nb", i(4)),
        ("blade.I_pitch", r(3.0)),
        ("blade.zeta0", r(0.05)),
        ("lock_flap", b(true)),
        ("blade.beta0", r(0.04)),
    ];
    let worst_driven = check(&driven, 11);
    eprintln!("mass matrix (driven shaft, 4 blades, flap locked): max relative error = {worst_driven:.3e}");
    let tail = [
        ("nb", i(2)),
        ("e", r(0.1)),
        ("R", r(1.5)),
        ("blade.m", r(4.0)),
        ("blade.S", r(2.4)),
        ("blade.I", r(2.0)),
        ("Omega", r(120.0)),
    ];
    let worst_tail = check(&[&tail[..], &TAIL_ROTOR_SHAFT].concat(), 13);
    eprintln!("mass matrix (tail rotor, 2 blades): max relative error = {worst_tail:.3e}");
    assert!(worst_free < 1e-8 && worst_driven < 1e-8 && worst_tail < 1e-8);
}

#[test]
fn driven_shaft_mass_matrix_is_block_diagonal_by_blade() {
    let map = ParamMap::new(&[("nb", i(4))]);
    let rotor = Rotor::from_parameters(&map).unwrap();
    let n = rotor.coordinates().len();
    assert_eq!(n, 8);
    let x: Vec<f64> = (0..2 * n).map(|k| 0.01 * k as f64).collect();
    let m = rotor.mass_matrix(0.1, &x, &vec![0.0; layout::u::N]);
    let blade = |c: Coordinate| match c {
        Coordinate::Lag(j) | Coordinate::Flap(j) => j,
        Coordinate::Shaft => usize::MAX,
    };
    let coordinates = rotor.coordinates();
    for (k, row) in m.iter().enumerate() {
        for (l, &mkl) in row.iter().enumerate() {
            if blade(coordinates[k]) != blade(coordinates[l]) {
                assert_eq!(mkl, 0.0, "blades are coupled at ({k}, {l})");
            }
        }
    }
    assert_eq!(rotor.tree().blocks, vec![(0, 2), (2, 2), (4, 2), (6, 2)]);
}
