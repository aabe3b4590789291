//! The full helicopter (`examples/helicopter.json`: Fuselage, main and tail Rotor and Aero,
//! Controls; the hub-load/hub-acceleration loops of both rotors form one 24-output algebraic
//! loop) over 14 main-rotor revolutions (1.98 s) from its hover trim, with a lateral-cyclic sine
//! of 0.3 deg at 1 Hz on top so that the helicopter moves: co-simulation through the packaged FMUs
//! (Newton coupling, inputs extrapolated quadratically as the example asks) against the monolithic
//! reference of the same models from the same file.
//!
//! The reference has no coupling error: every input is the consistent output at each integrator
//! stage, the loop solved there by Newton (residual 1e-10 relative), the states integrated by one
//! Dormand-Prince at tolerance 1e-10. So the difference is the co-simulation's own error, and it
//! must fall at third order in the macro step: the inputs over a step follow the parabola through
//! the last three communication points (local input error O(h^3), integrated over the step
//! O(h^4), accumulated over 1/h steps O(h^3)); the first step, without history, is redone with
//! the slopes towards its end.

use cosim::system::System;
use test_fmus::convergence::assert_order;

/// The example from its trim with the lateral-cyclic sine at `degrees` of azimuth per macro step.
fn helicopter(degrees: f64) -> System {
    monolithic_reference::resolve(&crate::common::helicopter_with_stick(degrees)).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn cosimulation_error_against_the_monolithic_reference_is_third_order() {
    // Reference on the finest grid (2.5 deg); co-simulation at 10, 5 and 2.5 deg.
    let fine = helicopter(2.5);
    let (reference, mono) = crate::common::monolithic(&fine);
    eprintln!("monolithic helicopter: {}", mono.stats().to_text());
    assert_eq!(mono.loops().len(), 1, "main and tail rotor loops share the airframe: one loop");
    assert_eq!(mono.loops()[0].len(), 24);
    assert_eq!(mono.stats().coupling.loop_failures, 0);

    let columns = ["fuselage.p", "fuselage.q", "fuselage.r", "fuselage.phi", "fuselage.theta", "fuselage.psi"];
    let degrees = [10.0, 5.0, 2.5];
    let mut errors = vec![Vec::new(); columns.len()];
    for &deg in &degrees {
        let system = helicopter(deg);
        let (cosim, master) = crate::common::cosim(&system);
        let summary = master.summary(0.0);
        assert_eq!(summary.rollbacks, 0);
        for (c, column) in columns.iter().enumerate() {
            errors[c].push(crate::common::max_difference_on_coarser_grid(&cosim, &reference, column));
        }
    }
    for (c, column) in columns.iter().enumerate() {
        // Third order: each halving of the step divides the error by 8 (linear extrapolation: 4).
        let what = format!("{column}: max |co-simulation - monolithic| at 10, 5, 2.5 deg");
        assert_order(&what, &errors[c], 2.6..3.4);
    }
    // At the 5-degree step over 14 revolutions (1.98 s). Measured: up to 2.1e-5 rad/s and 1.3e-5
    // rad (see the printed table). The bounds, 2e-4 rad/s and 1e-4 rad (0.006 deg), are about
    // 10x the measurement, and two orders of magnitude below what flight-dynamics
    // comparisons resolve (flight-test matching works to tenths of a degree and degrees per
    // second); the order check above shows the error is in its asymptotic regime, so the margin
    // is not hiding a different error mechanism.
    for (c, column) in columns.iter().enumerate() {
        let bound = if c < 3 { 2e-4 } else { 1e-4 };
        assert!(errors[c][1] < bound, "{column} at 5 deg: {:e} (bound {bound:e})", errors[c][1]);
    }
}
