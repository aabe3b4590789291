//! Validation 3: the GUNNS/JEOD case of seed 003.
//!
//! Mass 1e6 kg, inertia tensor (1e7, 4e7, 6e7; xy -2e4, xz -3e4, yz -5e4) kg m^2 about a CoM at
//! the reference point, a body-fixed force (3000, 0, 0) N at (1, 1, 1) m, from rest, no gravity,
//! Euler angles in the 123 sequence. The tensor violates the triangle inequality
//! (Izz > Ixx + Iyy), so `strict_inertia` is switched off as the seed's tools accept it.
//!
//! Reference: an independent fixed-step RK4 integration of Euler's equations about the CoM and
//! of the CoM translation in NED (`crate::common::RefBody`), with its own step-size error estimate. The
//! FMU results must approach it as `tolerance` tightens.

use crate::common::{Load, RefBody, RefState, Sim, b, compose, i, mat_diff, max_diff, quat_dcm, r, sci};

const T_END: f64 = 100.0;
/// One communication step over the whole run, so the integrator picks its own steps.
const H: f64 = T_END;

fn reference_body() -> RefBody {
    RefBody {
        m: 1e6,
        c: [0.0; 3],
        i_cm: [[1e7, -2e4, -3e4], [-2e4, 4e7, -5e4], [-3e4, -5e4, 6e7]],
        g: 0.0,
        drag: 0.0,
        loads: vec![Load { at: [1.0, 1.0, 1.0], force: [3000.0, 0.0, 0.0], moment: [0.0; 3] }],
    }
}

/// What is compared: NED position (m), body velocity (m/s), body rates (rad/s) and the attitude
/// matrix rebuilt from the 123 Euler angles.
struct Snapshot {
    pos: [f64; 3],
    vel: [f64; 3],
    rates: [f64; 3],
    attitude: crate::common::Mat,
}

fn fmu_run(tol: f64) -> Snapshot {
    let mut sim = Sim::new(&[
        ("mass", r(1e6)),
        ("I.xx", r(1e7)),
        ("I.yy", r(4e7)),
        ("I.zz", r(6e7)),
        ("I.xy", r(-2e4)),
        ("I.xz", r(-3e4)),
        ("I.yz", r(-5e4)),
        ("strict_inertia", b(false)),
        ("g", r(0.0)),
        ("ext.x", r(1.0)),
        ("ext.y", r(1.0)),
        ("ext.z", r(1.0)),
        ("euler_sequence", i(123)),
        ("tolerance", r(tol)),
    ]);
    sim.set3("ext.F", [3000.0, 0.0, 0.0]);
    sim.run_to(T_END, H);
    let euler = sim.get_names(["euler.1", "euler.2", "euler.3"]);
    Snapshot {
        pos: sim.get_names(["x", "y", "z"]),
        vel: sim.get_names(["u", "v", "w"]),
        rates: sim.get_names(["p", "q", "r"]),
        // Independent of the extraction formula: compose R_x(e1) R_y(e2) R_z(e3).
        attitude: compose(123, euler),
    }
}

fn reference_snapshot(body: &RefBody, s: &RefState) -> Snapshot {
    Snapshot {
        pos: body.pos_o(s),
        vel: body.vel_o(s),
        rates: [s[10], s[11], s[12]],
        attitude: quat_dcm([s[6], s[7], s[8], s[9]]),
    }
}

/// Worst differences `[position m, velocity m/s, rates rad/s, attitude matrix]`.
fn diff(a: &Snapshot, b: &Snapshot) -> [f64; 4] {
    [
        max_diff(&a.pos, &b.pos),
        max_diff(&a.vel, &b.vel),
        max_diff(&a.rates, &b.rates),
        mat_diff(&a.attitude, &b.attitude),
    ]
}

#[test]
fn seed_003_converges_to_independent_reference() {
    let body = reference_body();
    let s0 = body.state_from_o([0.0; 3], [1.0, 0.0, 0.0, 0.0], [0.0; 3], [0.0; 3]);
    let reference = reference_snapshot(&body, &body.rk4(s0, T_END, 20_000));
    let reference_coarse = reference_snapshot(&body, &body.rk4(s0, T_END, 10_000));
    let ref_err = diff(&reference, &reference_coarse);
    eprintln!(
        "seed 003 reference (RK4, dt = 5 ms; |dt=5ms - dt=10ms| = {}): pos {:?} m, rates {:?} rad/s",
        sci(&ref_err),
        reference.pos,
        reference.rates
    );
    // Sanity of the scenario: the body has turned and moved appreciably.
    assert!(reference.pos[0] > 0.4 && reference.rates.iter().any(|w| w.abs() > 1e-3));

    let tolerances = [1e-4, 1e-6, 1e-8, 1e-10, 1e-12];
    let runs: Vec<Snapshot> = tolerances.iter().map(|&t| fmu_run(t)).collect();
    let mut previous_err: Option<[f64; 4]> = None;
    for (k, (tol, run)) in tolerances.iter().zip(&runs).enumerate() {
        let err = diff(run, &reference);
        let step = if k > 0 { diff(run, &runs[k - 1]) } else { [f64::NAN; 4] };
        eprintln!(
            "seed 003 tolerance {tol:e}: error vs reference [pos m, vel m/s, rates rad/s, attitude] = {}; \
             change from previous tolerance = {}",
            sci(&err),
            sci(&step)
        );
        if let Some(p) = previous_err {
            // Each tightening by 100x must shrink every error until it reaches the
            // reference's own accuracy.
            for j in 0..4 {
                let floor = 10.0 * ref_err[j].max(1e-15);
                assert!(
                    err[j] < 0.5 * p[j] || err[j] < floor,
                    "error {j} did not shrink at tolerance {tol:e}: {p:?} -> {err:?}"
                );
            }
        }
        previous_err = Some(err);
    }
    let finest = diff(&runs[tolerances.len() - 1], &reference);
    assert!(finest[0] < 1e-9, "position error {}", finest[0]);
    assert!(finest[1] < 1e-11, "velocity error {}", finest[1]);
    assert!(finest[2] < 1e-12, "rate error {}", finest[2]);
    assert!(finest[3] < 1e-10, "attitude error {}", finest[3]);
}
