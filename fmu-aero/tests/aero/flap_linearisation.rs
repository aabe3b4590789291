//! The aerodynamic coefficients of the linear flap equation (seed 004, eq. 36) for our aero model:
//! the flap moment of the Aero FMU's blade loads about the flap hinge, against the coefficients
//! derived here for the same blade (hinge offset, root cut-out, stations).
//!
//! For a rigid blade flapping about a hinge at radius `e` (lag locked, hub fixed, no inflow,
//! `cd = 0`, no twist) the flap moment of the aerodynamic loads is, to first order in the flap
//! rate and collective,
//!
//! ```text
//! Q_beta = F_theta theta - C_beta beta'
//! F_theta = 1/2 rho c a Omega^2 sum_j w_j x_j r_j^2      (exact in theta: the flow is in the rotor plane)
//! C_beta  = 1/2 rho c a Omega   sum_j w_j x_j^2 r_j      (x_j = r_j - e, stations r_j on r_root..R)
//! ```
//!
//! With the rotor's centrifugal stiffness `K = Omega^2 (I + e S)` (thin blade) the linear flap
//! equation is `I beta'' + C_beta beta' + K beta = F_theta theta`: natural frequency `sqrt(K/I)`,
//! damping ratio `C_beta / (2 sqrt(K I))`, static gain `F_theta / K`. Seed eq. (36) is the special
//! case `e = 0` in the aerodynamic terms (`C_beta = gamma I Omega / 8`, `F_theta = gamma I Omega^2 / 8`).

use test_fmus::table1::{E, GAMMA as LOCK, I as I_BLADE, OMEGA, R, S as S_BLADE};

use crate::common::{BladeState, Rotor, Sim, blade_inputs, i, r, rel, rho_a_c, set_blade};

/// Flap moment (about the hinge, tip-up positive) of blade 1's aerodynamic loads.
fn flap_moment(sim: &mut Sim, theta: f64, beta_dot: f64) -> f64 {
    let rotor = Rotor::hover(OMEGA, E);
    let k = blade_inputs(&rotor, &BladeState { psi: 0.2, theta, beta_dot, ..Default::default() });
    set_blade(sim, 1, &k);
    let m = sim.get3("blade[1].M");
    // Flap rotation is about -y_F (the lead direction before pitch): (0, -cos theta, sin theta) in blade axes.
    -m[1] * theta.cos() + m[2] * theta.sin()
}

#[test]
fn flap_moment_coefficients_match_the_linear_flap_equation() {
    let chord = rho_a_c() / (1.225 * 5.73);
    let k_centrifugal = OMEGA * OMEGA * (I_BLADE + E * S_BLADE);
    for (r_root, quadrature, n) in [(E, 1, 20), (E, 0, 20), (1.0, 1, 20), (1.0, 0, 10), (1.5, 0, 5)] {
        let mut sim = Sim::new(&[
            ("nb", i(1)),
            ("R", r(R)),
            ("e", r(E)),
            ("r_root", r(r_root)),
            ("chord", r(chord)),
            ("twist", r(0.0)),
            ("cd0", r(0.0)),
            ("cd2", r(0.0)),
            ("n_sections", i(n)),
            ("quadrature", i(quadrature)),
            ("inflow_model", i(0)),
            ("Omega", r(OMEGA)),
        ]);
        // Coefficients from the stations: midpoint stations, or the exact integrals (Gauss-Legendre
        // integrates these cubic polynomials exactly).
        let (f_theta, c_beta) = if quadrature == 0 {
            let h = (R - r_root) / n as f64;
            (0..n).fold((0.0, 0.0), |(f, c), j| {
                let rr = r_root + (j as f64 + 0.5) * h;
                let x = rr - E;
                (f + h * x * rr * rr, c + h * x * x * rr)
            })
        } else {
            // int (r - e) r^2 dr and int (r - e)^2 r dr over r_root..R.
            let p = |a: f64| a.powi(4) / 4.0 - E * a.powi(3) / 3.0;
            let q = |a: f64| a.powi(4) / 4.0 - 2.0 * E * a.powi(3) / 3.0 + E * E * a * a / 2.0;
            (p(R) - p(r_root), q(R) - q(r_root))
        };
        let f_theta = 0.5 * rho_a_c() * OMEGA * OMEGA * f_theta;
        let c_beta = 0.5 * rho_a_c() * OMEGA * c_beta;

        let theta = 0.05;
        let measured_f = flap_moment(&mut sim, theta, 0.0) / theta;
        let d = 1e-4;
        let measured_c = -(flap_moment(&mut sim, 0.0, d) - flap_moment(&mut sim, 0.0, -d)) / (2.0 * d);
        let (omega_n, zeta, gain) = (
            (k_centrifugal / I_BLADE).sqrt(),
            c_beta / (2.0 * (k_centrifugal * I_BLADE).sqrt()),
            f_theta / k_centrifugal,
        );
        eprintln!(
            "r_root {r_root} m, {} {n}: F_theta {measured_f:.1} vs {f_theta:.1} N m/rad ({:.1e}); C_beta {measured_c:.3} \
             vs {c_beta:.3} N m s/rad ({:.1e}); with I = {I_BLADE}, K = Omega^2 (I + e S) = {k_centrifugal:.0}: \
             omega_n {omega_n:.4} rad/s, zeta {zeta:.4}, static gain {gain:.5}",
            if quadrature == 0 { "midpoint" } else { "Gauss-Legendre" },
            rel(measured_f, f_theta),
            rel(measured_c, c_beta)
        );
        assert!(rel(measured_f, f_theta) < 1e-12);
        assert!(rel(measured_c, c_beta) < 1e-8);
    }
    let nu = (1.0 + E * S_BLADE / I_BLADE).sqrt();
    eprintln!(
        "simplified eq. (36): C_beta = gamma I Omega / 8 = {:.1}, F_theta = gamma I Omega^2 / 8 = {:.0}, zeta = \
         gamma / (16 nu) = {:.4}, static gain gamma / (8 nu^2) = {:.5}",
        LOCK * I_BLADE * OMEGA / 8.0,
        LOCK * I_BLADE * OMEGA * OMEGA / 8.0,
        LOCK / (16.0 * nu),
        LOCK / (8.0 * nu * nu)
    );
}
