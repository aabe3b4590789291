//! Validation 2: torque-free rigid body.
//!
//! (a) Axisymmetric body (Ixx = Iyy != Izz): closed-form body-frame precession of the transverse
//!     rate vector at `lambda = (Izz - Ixx)/Ixx r`, and closed-form inertial coning of the body
//!     z axis about the fixed angular momentum at `|H|/Ixx`.
//! (b) Asymmetric body with products of inertia and a CoM offset: kinetic energy, angular
//!     momentum about the CoM (magnitude and inertial vector) and linear momentum conserved.

use std::f64::consts::PI;

use crate::common::{Sim, axpy, cross, dot, inertia_parameters, max_diff, mv, quat_dcm, r};

fn wrap(a: f64) -> f64 {
    (a + PI).rem_euclid(2.0 * PI) - PI
}

/// Rotates `v` about unit axis `k` by `angle` (Rodrigues' formula).
fn rodrigues(v: [f64; 3], k: [f64; 3], angle: f64) -> [f64; 3] {
    let (s, c) = angle.sin_cos();
    let kxv = cross(k, v);
    let kdv = dot(k, v);
    [0, 1, 2].map(|j| v[j] * c + kxv[j] * s + k[j] * kdv * (1.0 - c))
}

/// Worst errors `[phase, |w_t|, r, coning]` of the symmetric top over 200 s at `tol`.
fn symmetric_top(tol: f64) -> [f64; 4] {
    let (i_t, i_a) = (1000.0, 1600.0);
    let (p0, q0, r0) = (0.3, 0.1, 2.0);
    let mut sim = Sim::new(&[
        ("mass", r(500.0)),
        ("g", r(0.0)),
        ("I.xx", r(i_t)),
        ("I.yy", r(i_t)),
        ("I.zz", r(i_a)),
        ("p0", r(p0)),
        ("q0", r(q0)),
        ("r0", r(r0)),
        ("tolerance", r(tol)),
    ]);
    let lambda = (i_a - i_t) / i_t * r0;
    let h_b0 = [i_t * p0, i_t * q0, i_a * r0];
    let h_norm = dot(h_b0, h_b0).sqrt();
    let h_hat = h_b0.map(|e| e / h_norm); // initial attitude is identity: inertial = body
    let coning_rate = h_norm / i_t;
    let (t_end, h) = (200.0, 1.0);
    let (mut phase_err, mut amp_err, mut r_err, mut cone_err) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    while sim.time() < t_end - 1e-9 {
        let t0 = sim.time();
        sim.run_to(t0 + h, h);
        let t = sim.time();
        let [p, q, rr] = sim.get_names(["p", "q", "r"]);
        phase_err = phase_err.max(wrap(q.atan2(p) - (q0.atan2(p0) + lambda * t)).abs());
        amp_err = amp_err.max(((p * p + q * q).sqrt() - (p0 * p0 + q0 * q0).sqrt()).abs());
        r_err = r_err.max((rr - r0).abs());
        let rot = quat_dcm(sim.get_names(["q.w", "q.x", "q.y", "q.z"]));
        let ez = [rot[0][2], rot[1][2], rot[2][2]];
        let ez_expected = rodrigues([0.0, 0.0, 1.0], h_hat, coning_rate * t);
        cone_err = cone_err.max(max_diff(&ez, &ez_expected));
    }
    let periods = lambda * t_end / (2.0 * PI);
    eprintln!(
        "symmetric top, tolerance {tol:e}: lambda = {lambda} rad/s, {periods:.1} body-frame periods in {t_end} s; \
         phase error {phase_err:.3e} rad, |w_t| error {amp_err:.3e} rad/s, r error {r_err:.3e} rad/s, body z axis \
         vs closed-form coning {cone_err:.3e}"
    );
    [phase_err, amp_err, r_err, cone_err]
}

#[test]
fn axisymmetric_body_precesses_at_closed_form_rate() {
    let coarse = symmetric_top(1e-7);
    let fine = symmetric_top(1e-11);
    let [phase_err, amp_err, r_err, cone_err] = fine;
    assert!(phase_err < 1e-7, "phase error {phase_err}");
    assert!(amp_err < 1e-8, "transverse-rate magnitude error {amp_err}");
    assert!(r_err < 1e-12, "spin-rate error {r_err}");
    assert!(cone_err < 1e-7, "coning error {cone_err}");
    for k in [0, 1, 3] {
        assert!(fine[k] < 0.1 * coarse[k], "error {k} does not shrink with the tolerance: {coarse:?} -> {fine:?}");
    }
}

/// Worst relative drifts `[energy, |H|, H vector, linear momentum]` over 100 s at `tol`.
fn asymmetric_body(tol: f64) -> [f64; 4] {
    let m = 2100.0;
    let c = [0.2, -0.1, 0.4];
    // Tensor elements about the CoM (I.xy etc. are the tensor entries).
    let i_cm = [[1803.0, 50.0, -300.0], [50.0, 4892.0, -80.0], [-300.0, -80.0, 4428.0]];
    let (v0, w0) = ([10.0, -2.0, 1.0], [0.8, -0.5, 0.6]);
    let params = [
        ("mass", r(m)),
        ("g", r(0.0)),
        ("cg.x", r(c[0])),
        ("cg.y", r(c[1])),
        ("cg.z", r(c[2])),
        ("u0", r(v0[0])),
        ("v0", r(v0[1])),
        ("w0", r(v0[2])),
        ("p0", r(w0[0])),
        ("q0", r(w0[1])),
        ("r0", r(w0[2])),
        ("tolerance", r(tol)),
    ];
    let mut sim = Sim::new(&[&params[..], &inertia_parameters(&i_cm)].concat());
    // Invariants from the CoM velocity and the rotation about the CoM (textbook form).
    let invariants = |sim: &mut Sim| {
        let v = sim.get_names(["u", "v", "w"]);
        let w = sim.get_names(["p", "q", "r"]);
        let rot = quat_dcm(sim.get_names(["q.w", "q.x", "q.y", "q.z"]));
        let v_cm = axpy(v, 1.0, cross(w, c));
        let h_b = mv(&i_cm, w);
        let energy = 0.5 * m * dot(v_cm, v_cm) + 0.5 * dot(w, h_b);
        let h_i = mv(&rot, h_b);
        let p_i = mv(&rot, v_cm.map(|e| m * e));
        (energy, dot(h_b, h_b).sqrt(), h_i, p_i, sim.get("energy.kinetic"))
    };
    let (e0, hn0, hi0, pi0, _) = invariants(&mut sim);
    let (mut de, mut dhn, mut dhi, mut dpi, mut de_out) = (0.0f64, 0.0f64, 0.0f64, 0.0f64, 0.0f64);
    let (t_end, h) = (100.0, 0.5);
    while sim.time() < t_end - 1e-9 {
        let t0 = sim.time();
        sim.run_to(t0 + h, h);
        let (e, hn, hi, pi, e_out) = invariants(&mut sim);
        de = de.max((e - e0).abs() / e0);
        dhn = dhn.max((hn - hn0).abs() / hn0);
        dhi = dhi.max(max_diff(&hi, &hi0) / hn0);
        dpi = dpi.max(max_diff(&pi, &pi0) / dot(pi0, pi0).sqrt());
        de_out = de_out.max((e_out - e).abs() / e0);
    }
    eprintln!(
        "torque-free asymmetric body (tolerance {tol:e}, {t_end} s): relative drift of kinetic energy {de:.3e}, |H_cm| \
         {dhn:.3e}, inertial H_cm vector {dhi:.3e}, inertial linear momentum {dpi:.3e}; energy.kinetic output vs \
         test formula {de_out:.3e}"
    );
    assert!(de_out < 1e-13, "energy.kinetic output disagrees with the textbook formula by {de_out}");
    [de, dhn, dhi, dpi]
}

#[test]
fn asymmetric_body_with_offset_conserves_energy_and_momentum() {
    let mut previous: Option<[f64; 4]> = None;
    for tol in [1e-9, 1e-11] {
        let drifts = asymmetric_body(tol);
        for (d, what) in drifts.iter().zip(["energy", "|H|", "H vector", "linear momentum"]) {
            assert!(*d < 100.0 * tol, "{what} drift {d} at tolerance {tol}");
        }
        if let Some(p) = previous {
            assert!(drifts[0] < 0.1 * p[0] && drifts[3] < 0.1 * p[3], "drift does not shrink: {p:?} -> {drifts:?}");
        }
        previous = Some(drifts);
    }
}
