//! The section-model options (`airfoil`, `tip_loss`, `compressibility`) on single sections, against
//! hand computations: the NACA 0012 table in reverse flow, the spanwise (yawed) flow component
//! ignored, Prandtl-Glauert on the analytic lift, and the analytic airfoil through the section
//! model equal to the default polar.
//!
//! One blade, one station (midpoint rule) at `r = (r_root + R) / 2`, blade not rotating, no
//! inflow: the air velocity relative to the section is `-vel`, the section force
//! `0.5 rho c U (R - r_root) [cl (w_z, -w_y) + cd (w_y, w_z)]` (blade y, z).

use crate::common::{Sim, Val, i, r};
use fmu_aero::airfoil::naca0012;

const R: f64 = 2.0;
const R_ROOT: f64 = 1.0;
const CHORD: f64 = 0.2;
const RHO: f64 = 1.225;

fn section(extra: &[(&'static str, Val)]) -> Sim {
    let mut params = vec![
        ("nb", i(1)),
        ("R", r(R)),
        ("e", r(0.0)),
        ("r_root", r(R_ROOT)),
        ("chord", r(CHORD)),
        ("twist", r(0.0)),
        ("a", r(5.7)),
        ("cd0", r(0.01)),
        ("cd2", r(0.5)),
        ("rho", r(RHO)),
        ("n_sections", i(1)),
        ("quadrature", i(0)),
        ("inflow_model", i(0)),
    ];
    params.extend_from_slice(extra);
    Sim::new(&params)
}

/// The blade force (y, z) for the blade velocity `vel` (blade axes).
fn force(sim: &mut Sim, vel: [f64; 3]) -> [f64; 2] {
    sim.set3("blade[1].vel", vel);
    sim.set3("blade[1].omega", [0.0; 3]);
    sim.set3("blade[1].shaft", [0.0, 0.0, 1.0]);
    let f = sim.get3("blade[1].F");
    [f[1], f[2]]
}

/// `0.5 rho c U span [cl (w_z, -w_y) + cd (w_y, w_z)]` for the air velocity `w = (w_y, w_z)`.
fn expected(w: [f64; 2], cl: f64, cd: f64) -> [f64; 2] {
    let u = (w[0] * w[0] + w[1] * w[1]).sqrt();
    let q = 0.5 * RHO * CHORD * u * (R - R_ROOT);
    [q * (cl * w[1] + cd * w[0]), q * (cd * w[1] - cl * w[0])]
}

fn close(a: [f64; 2], b: [f64; 2]) -> bool {
    (a[0] - b[0]).abs() + (a[1] - b[1]).abs() < 1e-9 * (b[0].abs() + b[1].abs())
}

#[test]
fn reverse_flow_reads_the_table_near_180_deg() {
    let table = naca0012();
    // The file's row at 170 deg (cl, cd), Sheldahl and Klimas Re 2e6.
    let row = table.lift.alpha_deg.iter().position(|&a| a == 170.0).unwrap();
    let (cl, cd) = (table.lift.values[row], table.drag.values[row]);
    assert_eq!((cl, cd), (-0.85, 0.14));
    let mut sim = section(&[("airfoil", i(1))]);
    // alpha = atan2(w_z, -w_y) = 170 deg: the air comes from behind the trailing edge.
    let (u, alpha) = (40.0, 170.0_f64.to_radians());
    let w = [-u * alpha.cos(), u * alpha.sin()];
    let f = force(&mut sim, [0.0, -w[0], -w[1]]);
    assert!(close(f, expected(w, cl, cd)), "{f:?} vs {:?}", expected(w, cl, cd));
    // The analytic airfoil mirrors instead: 170 deg acts as -10 deg.
    let mut analytic = section(&[]);
    let a = -10.0_f64.to_radians();
    let f = force(&mut analytic, [0.0, -w[0], -w[1]]);
    assert!(close(f, expected(w, 5.7 * a, 0.01 + 0.5 * a * a)));
}

#[test]
fn the_spanwise_flow_component_is_ignored() {
    let mut sim = section(&[("airfoil", i(1)), ("tip_loss", i(1))]);
    let vel = [0.0, -60.0, 4.0];
    let straight = force(&mut sim, vel);
    let yawed = force(&mut sim, [25.0, vel[1], vel[2]]);
    assert_eq!(straight, yawed);
}

#[test]
fn prandtl_glauert_divides_the_analytic_lift() {
    let (u, alpha) = (204.0, 4.0_f64.to_radians());
    let w = [-u * alpha.cos(), u * alpha.sin()];
    let vel = [0.0, -w[0], -w[1]];
    let mut sim = section(&[("compressibility", i(1)), ("speed_of_sound", r(340.0))]);
    // M = 0.6: factor 1 / sqrt(1 - 0.36) = 1.25.
    let f = force(&mut sim, vel);
    assert!(close(f, expected(w, 5.7 * alpha * 1.25, 0.01 + 0.5 * alpha * alpha)), "{f:?}");
    // Without the option, the default polar.
    let mut plain = section(&[]);
    assert!(close(force(&mut plain, vel), expected(w, 5.7 * alpha, 0.01 + 0.5 * alpha * alpha)));
}

#[test]
fn the_analytic_airfoil_through_the_section_model_is_the_default_polar() {
    // compressibility = 1 with a huge speed of sound (M ~ 1e-12) takes the section-model path.
    let mut through = section(&[("compressibility", i(1)), ("speed_of_sound", r(1e14))]);
    let mut default = section(&[]);
    for vel in [[0.0, -80.0, 3.0], [0.0, 30.0, -2.0], [0.0, -5.0, -20.0]] {
        let (a, b) = (force(&mut through, vel), force(&mut default, vel));
        assert!(close(a, b), "{a:?} vs {b:?}");
    }
}

/// A 4-bladed rotor in forward flight with flapping, pitching blades and the options `extra`.
fn flying(extra: &[(&'static str, Val)]) -> Sim {
    use crate::common::{BladeState, Rotor, blade_inputs, set_blade};
    use std::f64::consts::PI;
    let mut params = vec![("e", r(0.35)), ("r_root", r(1.4)), ("n_sections", i(12)), ("shaft.nx", r(0.08))];
    params.extend_from_slice(extra);
    let mut sim = Sim::new(&params);
    let rotor = Rotor { hub_vel: [42.0, 3.0, -2.0], ..Rotor::hover(29.0, 0.35) };
    for b in 0..4 {
        let psi = 0.4 + 2.0 * PI * b as f64 / 4.0;
        let state = BladeState {
            psi,
            beta: 0.05 - 0.03 * psi.cos(),
            beta_dot: 29.0 * 0.03 * psi.sin(),
            theta: 0.15 - 0.06 * psi.sin(),
            theta_dot: -29.0 * 0.06 * psi.cos(),
        };
        set_blade(&mut sim, b + 1, &blade_inputs(&rotor, &state));
    }
    sim.set3("hub.vel", rotor.hub_vel);
    sim
}

#[test]
fn directional_derivatives_with_the_options_equal_central_differences() {
    use fmu_core::verify::check_directional_derivatives;
    // Smooth options: the analytic airfoil with Prandtl-Glauert inboard, tip and root loss.
    let smooth = [("tip_loss", i(2)), ("compressibility", i(1))];
    let mut sim = flying(&smooth);
    let report = check_directional_derivatives(&mut sim.inst, |_, u| 1e-4 * u.abs().max(1.0), 1e-6).unwrap();
    report.assert_clean("analytic airfoil, Prandtl-Glauert, tip and root loss");
    // The table is piecewise linear: a small step stays on the segments (the slope is exact there).
    let table = [("airfoil", i(1)), ("airfoil_inboard", i(0)), ("airfoil_change", r(0.5)), ("tip_loss", i(1))];
    let mut sim = flying(&table);
    let report = check_directional_derivatives(&mut sim.inst, |_, u| 1e-7 * u.abs().max(1.0), 1e-5).unwrap();
    report.assert_clean("NACA 0012 table outboard, analytic inboard, tip loss");
}

#[test]
fn unconnected_inputs_give_finite_zero_loads_with_the_options() {
    let mut sim = section(&[("airfoil", i(1)), ("tip_loss", i(2)), ("compressibility", i(1))]);
    for name in ["thrust", "torque", "blade[1].F.z", "blade[1].M.x"] {
        assert_eq!(sim.get(name), 0.0, "{name}");
    }
}
