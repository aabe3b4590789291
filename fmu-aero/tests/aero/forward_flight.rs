//! Forward flight with flapping and pitching blades: the blade loads against an independent
//! blade-element computation written in airframe body axes (section chord vectors, relative wind
//! with its spanwise part removed, lift along `w x span`), and the uniform inflow against
//! Glauert's momentum equation with the advance ratio and climb inflow computed here.

use std::f64::consts::PI;

use crate::common::test_rotor::{self, A, CHORD, OMEGA, R, TWIST};
use crate::common::{
    BladeInputs, BladeState, Rotor, Sim, Val, blade_inputs, cross, dot, i, lin, norm, r, rel, set_blade,
};

const NB: usize = 5;
const E: f64 = 0.35;
const R_ROOT: f64 = 1.4;
const CD0: f64 = 0.009;
const CD2: f64 = 0.6;
const RHO: f64 = 1.1;
const N: usize = 24;

fn params(model: i32, lambda: [f64; 3]) -> Vec<(&'static str, Val)> {
    let mut p = test_rotor::parameters(NB, [E, R_ROOT], [CD0, CD2], model);
    p.extend([
        ("rho", r(RHO)),
        ("n_sections", i(N as i32)),
        ("quadrature", i(0)),
        ("lambda0_start", r(lambda[0])),
        ("lambda_s_start", r(lambda[1])),
        ("lambda_c_start", r(lambda[2])),
    ]);
    p
}

/// A forward-flight rotor state: hub moving forward, slightly right and climbing; blades with
/// coning, cyclic flapping, flap rates, collective and cyclic pitch and pitch rates.
fn flight() -> (Rotor, Vec<BladeInputs>) {
    let rotor = Rotor { hub_vel: [45.0, 4.0, -3.0], ..Rotor::hover(OMEGA, E) };
    let blades = (0..NB)
        .map(|b| {
            let psi = 0.4 + 2.0 * PI * b as f64 / NB as f64;
            let state = BladeState {
                psi,
                beta: 0.05 - 0.03 * psi.cos() - 0.01 * psi.sin(),
                beta_dot: OMEGA * (0.03 * psi.sin() - 0.01 * psi.cos()),
                theta: 0.15 + 0.02 * psi.cos() - 0.06 * psi.sin(),
                theta_dot: OMEGA * (-0.02 * psi.sin() - 0.06 * psi.cos()),
            };
            blade_inputs(&rotor, &state)
        })
        .collect();
    (rotor, blades)
}

/// Independent loads of one blade (body axes): `(force, moment about the root, thrust, torque)`.
fn reference_blade(rotor: &Rotor, k: &BladeInputs, lambda: [f64; 3]) -> ([f64; 3], [f64; 3], f64, f64) {
    let [x_b, y_b, z_b] = k.frame;
    let h = (R - R_ROOT) / N as f64;
    let (mut force, mut moment, mut torque) = ([0.0; 3], [0.0; 3], 0.0);
    for j in 0..N {
        let radius = R_ROOT + (j as f64 + 0.5) * h;
        let x = radius - E;
        let arm = lin(&[(x, x_b)]);
        let v = lin(&[(1.0, k.root_vel_body), (1.0, cross(k.omega_body, arm))]);
        let nu = OMEGA * R * (lambda[0] + radius / R * (lambda[2] * k.azimuth.cos() + lambda[1] * k.azimuth.sin()));
        let w = lin(&[(-1.0, v), (-nu, rotor.s)]);
        let w = lin(&[(1.0, w), (-dot(w, x_b), x_b)]); // spanwise part ignored
        let tw = TWIST * (radius / R - 0.75);
        let chord_dir = lin(&[(tw.cos(), y_b), (tw.sin(), z_b)]);
        let normal_dir = lin(&[(-tw.sin(), y_b), (tw.cos(), z_b)]);
        let alpha = dot(w, normal_dir).atan2(-dot(w, chord_dir));
        let speed = norm(w);
        let w_hat = lin(&[(1.0 / speed, w)]);
        let q = 0.5 * RHO * speed * speed * CHORD * h;
        let f = lin(&[(q * A * alpha, cross(w_hat, x_b)), (q * (CD0 + CD2 * alpha * alpha), w_hat)]);
        force = lin(&[(1.0, force), (1.0, f)]);
        moment = lin(&[(1.0, moment), (1.0, cross(arm, f))]);
        // Moment about the shaft axis of the section force at its actual position (no lag).
        torque -= dot(cross(lin(&[(1.0, k.root), (1.0, arm)]), f), rotor.s);
    }
    (force, moment, dot(force, rotor.s), torque)
}

fn check_against_reference(model: i32, lambda: [f64; 3]) -> f64 {
    let (rotor, blades) = flight();
    let mut sim = Sim::new(&params(model, lambda));
    for (b, k) in blades.iter().enumerate() {
        set_blade(&mut sim, b + 1, k);
    }
    sim.set3("hub.vel", rotor.hub_vel);
    let lambda = if model == 1 { [sim.get("inflow"), 0.0, 0.0] } else { lambda };
    let (mut thrust, mut torque, mut worst) = (0.0, 0.0, 0.0_f64);
    for (b, k) in blades.iter().enumerate() {
        let (f, m, t, q) = reference_blade(&rotor, k, lambda);
        let (f_fmu, m_fmu) = (sim.get3(&format!("blade[{}].F", b + 1)), sim.get3(&format!("blade[{}].M", b + 1)));
        let (f_ref, m_ref) = (k.in_blade_axes(f), k.in_blade_axes(m));
        for c in 0..3 {
            worst = worst.max((f_fmu[c] - f_ref[c]).abs() / norm(f_ref));
            worst = worst.max((m_fmu[c] - m_ref[c]).abs() / norm(m_ref));
        }
        thrust += t;
        torque += q;
    }
    let (t_fmu, q_fmu, p_fmu) = (sim.get("thrust"), sim.get("torque"), sim.get("power"));
    eprintln!(
        "inflow_model {model}: worst blade force/moment component error {worst:.2e} (relative to the blade's |F|, |M|); \
         thrust {t_fmu:.3} vs {thrust:.3} N ({:.2e}); torque {q_fmu:.3} vs {torque:.3} N m ({:.2e})",
        rel(t_fmu, thrust),
        rel(q_fmu, torque)
    );
    assert!(worst < 1e-12, "blade loads differ: {worst:e}");
    assert!(rel(t_fmu, thrust) < 1e-12 && rel(q_fmu, torque) < 1e-12);
    assert!(rel(p_fmu, q_fmu * OMEGA) < 1e-15);
    assert!(thrust > 0.0 && torque > 0.0, "a lifting rotor absorbs power");
    let mu = norm([rotor.hub_vel[0], rotor.hub_vel[1], 0.0]) / (OMEGA * R);
    assert!(rel(sim.get("mu"), mu) < 1e-14);
    worst
}

#[test]
fn blade_loads_match_an_independent_blade_element_computation() {
    check_against_reference(0, [0.0; 3]);
    // Pitt-Peters with a prescribed (initial) inflow distribution: the outputs use the states.
    check_against_reference(2, [0.045, 0.012, -0.02]);
    check_against_reference(1, [0.0; 3]);
}

#[test]
fn uniform_inflow_solves_glauerts_momentum_equation_in_forward_flight() {
    let (rotor, blades) = flight();
    // A shaft tilted 6 deg forward and 2 deg right: the forward speed has a part through the disk.
    let (t1, t2) = (6.0_f64.to_radians(), 2.0_f64.to_radians());
    let n = [t1.sin(), -t2.sin(), -(1.0 - t1.sin().powi(2) - t2.sin().powi(2)).sqrt()];
    let mut p = params(1, [0.0; 3]);
    p.extend([("shaft.nx", r(n[0])), ("shaft.ny", r(n[1])), ("shaft.nz", r(n[2]))]);
    let mut sim = Sim::new(&p);
    for (b, k) in blades.iter().enumerate() {
        set_blade(&mut sim, b + 1, k);
    }
    for (v, descent) in
        [(rotor.hub_vel, false), ([0.0, 0.0, 0.0], false), ([70.0, -3.0, 2.0], false), ([10.0, 0.0, 8.0], true)]
    {
        sim.set3("hub.vel", v);
        let (ct, lambda) = (sim.get("CT"), sim.get("inflow"));
        let vn = dot(v, n);
        let mu = norm(lin(&[(1.0, v), (-vn, n)])) / (OMEGA * R);
        let lambda_c = vn / (OMEGA * R);
        let glauert = ct / (2.0 * (mu * mu + (lambda_c + lambda).powi(2)).sqrt());
        eprintln!(
            "hub velocity {v:?}: mu {mu:.4}, lambda_c {lambda_c:.5}, CT {ct:.5e}, lambda_i {lambda:.8} vs CT / (2 \
             sqrt(mu^2 + (lambda_c + lambda_i)^2)) = {glauert:.8} (rel. {:.1e}){}",
            rel(lambda, glauert),
            if descent { " [hub descending along the shaft]" } else { "" }
        );
        assert!(rel(lambda, glauert) < 1e-12);
        assert!((sim.get("mu") - mu).abs() < 1e-14);
    }
}
