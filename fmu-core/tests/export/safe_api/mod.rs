//! The safe API ([`fmu_core::Instance`]) on the mass-spring-damper test model: numerics against
//! closed forms, the FMI state machine, argument checks and derivatives; `state` the FMU state.

mod state;

use crate::common;

use common::{Decay, MassSpringDamper, decay_vr, defaults as d, get, get_all, initialized, recorded, rel, vr};
use fmu_core::{FmiError, Instance, SlaveState, Status};

/// Asserts an `fmi2Error` whose message contains `needle`, and that the instance moved to `Error`.
#[track_caller]
fn assert_error<T: std::fmt::Debug>(
    inst: &Instance<MassSpringDamper>,
    result: Result<T, FmiError>,
    function: &str,
    needle: &str,
) -> FmiError {
    let e = result.expect_err("call should fail");
    assert_eq!(e.status, Status::Error, "{e}");
    assert_eq!(e.function, function, "{e}");
    assert!(e.message.contains(needle), "message {:?} lacks {needle:?}", e.message);
    assert_eq!(inst.slave_state(), SlaveState::Error);
    e
}

/// `x(t)`, `v(t)` of `m x'' + c x' + k x = f` (constant `f`, underdamped).
fn damped_oscillator(m: f64, k: f64, c: f64, f: f64, x0: f64, v0: f64, t: f64) -> (f64, f64) {
    let w0 = (k / m).sqrt();
    let zeta = c / (2.0 * (k * m).sqrt());
    assert!(zeta < 1.0, "underdamped only");
    let sigma = zeta * w0;
    let wd = w0 * (1.0 - zeta * zeta).sqrt();
    let x_eq = f / k;
    let a = x0 - x_eq;
    let b = (v0 + sigma * a) / wd;
    let e = (-sigma * t).exp();
    let (s, co) = (wd * t).sin_cos();
    let x = x_eq + e * (a * co + b * s);
    let v = e * (-sigma * (a * co + b * s) + wd * (b * co - a * s));
    (x, v)
}

/// Runs the damped oscillator with a constant force for 10 s in communication steps of `h` and
/// returns the largest error of `x` and `v` at the communication points, each relative to the
/// largest magnitude of its exact trajectory.
fn oscillator_error(tolerance: f64, h: f64) -> (f64, f64) {
    let f = 1.5;
    let (mut inst, _) = initialized(&[(vr::TOL, tolerance), (vr::F, f)]);
    let n = (10.0 / h).round() as usize;
    let (mut ex, mut ev, mut sx, mut sv) = (0.0_f64, 0.0_f64, 0.0_f64, 0.0_f64);
    for i in 0..n {
        inst.do_step(i as f64 * h, h).unwrap();
        let t = (i + 1) as f64 * h;
        let (x, v) = damped_oscillator(d::M, d::K, d::C, f, d::X0, d::V0, t);
        let y = get_all(&mut inst, &[vr::X, vr::V]);
        ex = ex.max((y[0] - x).abs());
        ev = ev.max((y[1] - v).abs());
        sx = sx.max(x.abs());
        sv = sv.max(v.abs());
    }
    assert!((inst.time() - 10.0).abs() < 1e-12, "time {}", inst.time());
    (ex / sx, ev / sv)
}

#[test]
fn damped_oscillator_matches_closed_form() {
    let mut errors = Vec::new();
    for (tolerance, h) in [(d::TOL, 0.01), (d::TOL, 1.0), (1e-6, 1.0)] {
        let (ex, ev) = oscillator_error(tolerance, h);
        println!("damped oscillator, tolerance {tolerance:e}, h = {h} s: max rel. error x {ex:.3e}, v {ev:.3e}");
        errors.push(ex.max(ev));
    }
    // Default tolerance: far below 1e-6 with fine and with coarse communication steps.
    assert!(errors[0] < 1e-9 && errors[1] < 1e-8, "{errors:?}");
    // The tolerance parameter is honoured: a looser one gives a larger, still bounded, error.
    assert!(errors[2] > 10.0 * errors[1] && errors[2] < 1e-4, "{errors:?}");
}

#[test]
fn illegal_call_order_is_an_error_and_moves_to_error_state() {
    let (mut inst, log) = recorded::<MassSpringDamper>();
    assert_eq!(inst.slave_state(), SlaveState::Instantiated);
    let r = inst.do_step(0.0, 0.1);
    assert_error(&inst, r, "fmi2DoStep", "illegal call sequence");
    assert!(log.borrow().iter().any(|m| m.contains("illegal call sequence")), "{:?}", log.borrow());
    // In Error only getters, FMU state, reset and free are allowed.
    let r = inst.enter_initialization_mode();
    assert_error(&inst, r, "fmi2EnterInitializationMode", "illegal call sequence");
    inst.reset();
    assert_eq!(inst.slave_state(), SlaveState::Instantiated);

    let r = inst.exit_initialization_mode();
    assert_error(&inst, r, "fmi2ExitInitializationMode", "illegal call sequence");

    let (mut inst, _) = initialized(&[]);
    let r = inst.setup_experiment(0.0, None);
    assert_error(&inst, r, "fmi2SetupExperiment", "illegal call sequence");

    let (mut inst, _) = initialized(&[]);
    inst.terminate().unwrap();
    assert_eq!(inst.slave_state(), SlaveState::Terminated);
    assert!(get(&mut inst, vr::X).is_finite(), "getters stay allowed after terminate");
    let r = inst.do_step(0.0, 0.1);
    assert_error(&inst, r, "fmi2DoStep", "illegal call sequence");
}

#[test]
fn setting_an_output_is_refused() {
    let (mut inst, _) = initialized(&[]);
    let r = inst.set_real(&[vr::A], &[1.0]);
    assert_error(&inst, r, "fmi2SetReal", "'a'");
    // Also before initialization.
    let (mut inst, _) = recorded::<MassSpringDamper>();
    let r = inst.set_real(&[vr::X], &[1.0]);
    assert_error(&inst, r, "fmi2SetReal", "'x'");
}

#[test]
fn unknown_value_reference_is_refused_with_its_number() {
    let (mut inst, _) = initialized(&[]);
    let mut out = [0.0];
    let r = inst.get_real(&[vr::X, 4711], &mut [0.0, 0.0]);
    assert_error(&inst, r, "fmi2GetReal", "4711");
    let (mut inst, _) = initialized(&[]);
    let r = inst.set_real(&[9999], &[1.0]);
    assert_error(&inst, r, "fmi2SetReal", "unknown value reference 9999");
    let (mut inst, _) = initialized(&[]);
    let r = inst.get_directional_derivative(&[vr::A], &[31337], &[1.0], &mut out);
    assert_error(&inst, r, "fmi2GetDirectionalDerivative", "31337");
}

#[test]
fn type_mismatch_and_length_mismatch_are_refused() {
    let (mut inst, _) = recorded::<MassSpringDamper>();
    let r = inst.set_integer(&[vr::M], &[3]);
    assert_error(&inst, r, "fmi2SetInteger", "not an Integer");
    let (mut inst, _) = recorded::<MassSpringDamper>();
    let r = inst.set_real(&[vr::M, vr::K], &[3.0]);
    assert_error(&inst, r, "fmi2SetReal", "2 value references but 1 values");
    let (mut inst, _) = recorded::<MassSpringDamper>();
    let r = inst.set_real(&[vr::M], &[f64::NAN]);
    assert_error(&inst, r, "fmi2SetReal", "not finite");
}

#[test]
fn integer_out_of_range_is_refused() {
    for bad in [0, 9, -1, i32::MAX] {
        let (mut inst, _) = recorded::<MassSpringDamper>();
        let r = inst.set_integer(&[vr::SPRINGS], &[bad]);
        let e = assert_error(&inst, r, "fmi2SetInteger", "outside [1, 8]");
        assert!(e.message.contains(&bad.to_string()) && e.message.contains("springs"), "{e}");
    }
    // The bounds themselves are legal, and a refused call changes nothing.
    let (mut inst, _) = recorded::<MassSpringDamper>();
    inst.set_integer(&[vr::SPRINGS], &[8]).unwrap();
    inst.set_integer(&[vr::SPRINGS], &[1]).unwrap();
    inst.enter_initialization_mode().unwrap();
    let mut n = [0];
    inst.get_integer(&[vr::SPRINGS], &mut n).unwrap();
    assert_eq!(n, [1]);
}

#[test]
fn invalid_parameters_are_reported_by_configure() {
    let (mut inst, log) = recorded::<MassSpringDamper>();
    inst.set_real(&[vr::M], &[0.0]).unwrap();
    let r = inst.enter_initialization_mode();
    assert_error(&inst, r, "fmi2EnterInitializationMode", "invalid parameters: m = 0 kg must be positive");
    assert!(log.borrow().iter().any(|m| m.contains("m = 0 kg")), "{:?}", log.borrow());
}

#[test]
fn non_positive_and_nan_step_sizes_are_refused() {
    for h in [0.0, -0.01, f64::NAN, f64::INFINITY, -0.0] {
        let (mut inst, _) = initialized(&[]);
        let r = inst.do_step(0.0, h);
        assert_error(&inst, r, "fmi2DoStep", "must be positive and finite");
        assert_eq!(inst.time(), 0.0);
    }
}

#[test]
fn mismatching_communication_point_is_refused() {
    let (mut inst, _) = initialized(&[]);
    inst.do_step(0.0, 0.1).unwrap();
    let r = inst.do_step(0.2, 0.1);
    let e = assert_error(&inst, r, "fmi2DoStep", "does not match the FMU time");
    assert!(e.message.contains("0.2") && e.message.contains("0.1"), "{e}");
    // Rounding noise in the communication point is accepted.
    let (mut inst, _) = initialized(&[]);
    let mut t = 0.0;
    for _ in 0..10 {
        inst.do_step(t, 0.1).unwrap();
        t += 0.1; // accumulates rounding error: 0.1 * 10 != 1.0 exactly
    }
    inst.do_step(1.0, 0.1).unwrap();
}

#[test]
fn stop_time_is_enforced() {
    let (mut inst, _) = recorded::<MassSpringDamper>();
    inst.setup_experiment(0.0, Some(0.5)).unwrap();
    inst.enter_initialization_mode().unwrap();
    inst.exit_initialization_mode().unwrap();
    inst.do_step(0.0, 0.5).unwrap();
    let r = inst.do_step(0.5, 0.1);
    assert_error(&inst, r, "fmi2DoStep", "passes the stop time");
}

#[test]
fn fixed_parameter_refused_after_initialization_tunable_accepted() {
    let (mut inst, _) = initialized(&[]);
    let r = inst.set_real(&[vr::M], &[3.0]);
    assert_error(&inst, r, "fmi2SetReal", "'m'");
    let (mut inst, _) = initialized(&[]);
    let r = inst.set_integer(&[vr::SPRINGS], &[2]);
    assert_error(&inst, r, "fmi2SetInteger", "'springs'");
    let (mut inst, _) = initialized(&[]);
    let r = inst.set_boolean(&[vr::DAMPING], &[false]);
    assert_error(&inst, r, "fmi2SetBoolean", "'damping'");

    // The tunable damping changes between steps without resetting the state.
    let (mut inst, _) = initialized(&[]);
    inst.do_step(0.0, 0.5).unwrap();
    let before = get_all(&mut inst, &[vr::X, vr::V]);
    inst.set_real(&[vr::C], &[2.0]).unwrap();
    let after = get_all(&mut inst, &[vr::X, vr::V, vr::A]);
    assert_eq!(before, after[..2]);
    let expected_a = (0.0 - d::K * after[0] - 2.0 * after[1]) / d::M;
    assert!(rel(after[2], expected_a, 1e-12) < 1e-14, "{} vs {expected_a}", after[2]);
    inst.do_step(0.5, 0.5).unwrap();
}

#[test]
fn get_after_set_between_steps_is_consistent() {
    let (mut inst, _) = initialized(&[]);
    for i in 0..20 {
        inst.do_step(i as f64 * 0.05, 0.05).unwrap();
    }
    let y0 = get_all(&mut inst, &[vr::X, vr::V, vr::A]);
    for f in [3.0, -7.25, 0.0, 1e3] {
        inst.set_real(&[vr::F], &[f]).unwrap();
        let y = get_all(&mut inst, &[vr::X, vr::V, vr::A]);
        // x and v are states (no feedthrough): unchanged by F.
        assert_eq!(y[..2], y0[..2]);
        assert_eq!(y[..2], *inst.continuous_state());
        // a follows F at once, computed independently from x and v.
        let expected = (f - d::K * y[0] - d::C * y[1]) / d::M;
        assert!(rel(y[2], expected, 1e-12) < 1e-14, "F = {f}: a = {} vs {expected}", y[2]);
    }
}

#[test]
fn directional_derivatives_are_exact() {
    let (mut inst, _) = initialized(&[(vr::M, 3.0), (vr::F, 0.7)]);
    inst.do_step(0.0, 0.3).unwrap();
    let mut out = [f64::NAN; 3];
    inst.get_directional_derivative(&[vr::A, vr::X, vr::V], &[vr::F], &[1.0], &mut out).unwrap();
    assert_eq!(out, [1.0 / 3.0, 0.0, 0.0]);
    // Linear in the seed.
    inst.get_directional_derivative(&[vr::A], &[vr::F], &[-2.5], &mut out[..1]).unwrap();
    assert_eq!(out[0], -2.5 / 3.0);
    // A parameter is not a known in co-simulation.
    let r = inst.get_directional_derivative(&[vr::A], &[vr::M], &[1.0], &mut out[..1]);
    assert_error(&inst, r, "fmi2GetDirectionalDerivative", "not a real input");
}

#[test]
fn output_derivatives_are_time_derivatives() {
    let (mut inst, _) = initialized(&[(vr::F, 2.0)]);
    inst.do_step(0.0, 0.4).unwrap();
    let y = get_all(&mut inst, &[vr::X, vr::V, vr::A]);
    let mut dy = [f64::NAN; 3];
    inst.get_real_output_derivatives(&[vr::X, vr::V, vr::A], &[1, 1, 1], &mut dy).unwrap();
    assert_eq!(dy[0], y[1], "dx/dt = v");
    assert!(rel(dy[1], y[2], 1e-12) < 1e-14, "dv/dt = a: {} vs {}", dy[1], y[2]);
    // da/dt = (dF/dt - k v - c a) / m, here with dF/dt = 0.
    let expected = (-d::K * y[1] - d::C * y[2]) / d::M;
    assert!(rel(dy[2], expected, 1e-12) < 1e-13, "{} vs {expected}", dy[2]);
    // With an input derivative, da/dt includes dF/dt / m.
    inst.set_real_input_derivatives(&[vr::F], &[1], &[4.0]).unwrap();
    inst.get_real_output_derivatives(&[vr::A], &[1], &mut dy[..1]).unwrap();
    let expected = (4.0 - d::K * y[1] - d::C * y[2]) / d::M;
    assert!(rel(dy[0], expected, 1e-12) < 1e-13, "{} vs {expected}", dy[0]);
    // Orders other than 1 are refused.
    let r = inst.get_real_output_derivatives(&[vr::X], &[2], &mut dy[..1]);
    assert_error(&inst, r, "fmi2GetRealOutputDerivatives", "order 2");
}

/// An initialized free mass `m` (no spring, no damping) under the force `f0`.
fn free_mass(m: f64, f0: f64) -> Instance<MassSpringDamper> {
    let (mut inst, _) = recorded::<MassSpringDamper>();
    inst.setup_experiment(0.0, None).unwrap();
    inst.set_real(&[vr::K, vr::M, vr::F], &[0.0, m, f0]).unwrap();
    inst.set_boolean(&[vr::DAMPING], &[false]).unwrap();
    inst.enter_initialization_mode().unwrap();
    inst.exit_initialization_mode().unwrap();
    inst
}

#[test]
fn input_derivatives_extrapolate_a_ramped_force() {
    // Free mass (k = 0, no damping): x(h) = x0 + v0 h + F0 h^2 / (2m) + F' h^3 / (6m).
    let (m, f0, df, h) = (2.0, 1.0, 0.5, 0.7);
    let mut inst = free_mass(m, f0);
    inst.set_real_input_derivatives(&[vr::F], &[1], &[df]).unwrap();
    inst.do_step(0.0, h).unwrap();
    let y = get_all(&mut inst, &[vr::X, vr::V, vr::F]);
    let x = d::X0 + d::V0 * h + f0 * h * h / (2.0 * m) + df * h * h * h / (6.0 * m);
    let v = d::V0 + f0 * h / m + df * h * h / (2.0 * m);
    let (ex, ev) = (rel(y[0], x, 1.0), rel(y[1], v, 1.0));
    println!("ramped force, one step h = {h}: rel. error x {ex:.3e}, v {ev:.3e}");
    assert!(ex < 1e-13 && ev < 1e-13, "x {} vs {x}, v {} vs {v}", y[0], y[1]);
    // The input keeps the value the importer set; the derivative applied to that step only.
    assert_eq!(y[2], f0, "F = {}", y[2]);
    let before = get_all(&mut inst, &[vr::V]);
    inst.do_step(h, h).unwrap();
    let after = get_all(&mut inst, &[vr::V]);
    let dv = f0 * h / m;
    assert!(rel(after[0] - before[0], dv, 1.0) < 1e-13, "second step uses a constant force");
}

#[test]
fn second_input_derivatives_extrapolate_a_parabolic_force() {
    // Free mass: F(tau) = F0 + F' tau + F'' tau^2 / 2 gives
    // x(h) = x0 + v0 h + F0 h^2 / (2m) + F' h^3 / (6m) + F'' h^4 / (24m), which Dormand-Prince
    // (order 5) integrates exactly.
    let (m, f0, df, ddf, h) = (2.0, 1.0, 0.5, -3.0, 0.7);
    let mut inst = free_mass(m, f0);
    // Both orders in one call, the second listed first.
    inst.set_real_input_derivatives(&[vr::F, vr::F], &[2, 1], &[ddf, df]).unwrap();
    inst.do_step(0.0, h).unwrap();
    let y = get_all(&mut inst, &[vr::X, vr::V]);
    let x = d::X0 + d::V0 * h + f0 * h * h / (2.0 * m) + df * h.powi(3) / (6.0 * m) + ddf * h.powi(4) / (24.0 * m);
    let v = d::V0 + f0 * h / m + df * h * h / (2.0 * m) + ddf * h.powi(3) / (6.0 * m);
    let (ex, ev) = (rel(y[0], x, 1.0), rel(y[1], v, 1.0));
    println!("parabolic force, one step h = {h}: rel. error x {ex:.3e}, v {ev:.3e}");
    assert!(ex < 1e-13 && ev < 1e-13, "x {} vs {x}, v {} vs {v}", y[0], y[1]);
    // Orders above 2 are refused, and nothing is changed.
    let r = inst.set_real_input_derivatives(&[vr::F], &[3], &[1.0]);
    assert_error(&inst, r, "fmi2SetRealInputDerivatives", "order 3");
}

/// Steps `n` times from the instance's time with step `h`, returning the bits of x, v, a after
/// each step.
fn run(inst: &mut Instance<MassSpringDamper>, n: usize, h: f64) -> Vec<[u64; 3]> {
    (0..n)
        .map(|i| {
            let t = inst.time();
            inst.set_real(&[vr::F], &[(i as f64 * 0.37).sin()]).unwrap();
            inst.do_step(t, h).unwrap();
            let y = get_all(inst, &[vr::X, vr::V, vr::A]);
            [y[0].to_bits(), y[1].to_bits(), y[2].to_bits()]
        })
        .collect()
}

#[test]
fn reset_returns_to_start_values() {
    let (mut inst, _) = recorded::<MassSpringDamper>();
    inst.setup_experiment(2.0, Some(100.0)).unwrap();
    inst.set_real(&[vr::X0, vr::M], &[3.0, 5.0]).unwrap();
    inst.set_integer(&[vr::SPRINGS], &[4]).unwrap();
    inst.set_boolean(&[vr::DAMPING], &[false]).unwrap();
    inst.enter_initialization_mode().unwrap();
    inst.exit_initialization_mode().unwrap();
    inst.set_real(&[vr::F], &[9.0]).unwrap();
    inst.set_real_input_derivatives(&[vr::F], &[1], &[1.0]).unwrap();
    inst.do_step(2.0, 0.5).unwrap();

    inst.reset();
    assert_eq!(inst.slave_state(), SlaveState::Instantiated);
    assert_eq!(inst.time(), 0.0);
    inst.setup_experiment(0.0, None).unwrap();
    inst.enter_initialization_mode().unwrap();
    let reals = get_all(&mut inst, &[vr::F, vr::M, vr::K, vr::C, vr::X0, vr::V0, vr::TOL, vr::X, vr::V, vr::A]);
    let a0 = (0.0 - d::K * d::X0 - d::C * d::V0) / d::M;
    assert_eq!(reals, [0.0, d::M, d::K, d::C, d::X0, d::V0, d::TOL, d::X0, d::V0, a0]);
    let (mut n, mut b) = ([0], [false]);
    inst.get_integer(&[vr::SPRINGS], &mut n).unwrap();
    inst.get_boolean(&[vr::DAMPING], &mut b).unwrap();
    assert_eq!((n, b), ([1], [true]));
    inst.exit_initialization_mode().unwrap();
    // The input derivative was cleared: one step equals a fresh instance's.
    let (mut fresh, _) = initialized(&[]);
    assert_eq!(run(&mut inst, 5, 0.1), run(&mut fresh, 5, 0.1));
}

#[test]
fn parameters_set_in_initialization_mode_take_effect() {
    let (mut inst, _) = recorded::<MassSpringDamper>();
    inst.setup_experiment(0.0, None).unwrap();
    inst.enter_initialization_mode().unwrap();
    assert_eq!(get(&mut inst, vr::X), d::X0);
    inst.set_real(&[vr::X0, vr::V0], &[-1.25, 0.5]).unwrap();
    inst.set_integer(&[vr::SPRINGS], &[3]).unwrap();
    let y = get_all(&mut inst, &[vr::X, vr::V, vr::A]);
    assert_eq!(y[..2], [-1.25, 0.5]);
    let expected = (0.0 - 3.0 * d::K * -1.25 - d::C * 0.5) / d::M;
    assert!(rel(y[2], expected, 1e-12) < 1e-14, "{} vs {expected}", y[2]);
    inst.exit_initialization_mode().unwrap();
    assert_eq!(inst.continuous_state(), [-1.25, 0.5]);
}

#[test]
fn integrator_failure_is_a_discard() {
    // tau = 0 makes the derivative infinite: the step fails, the state stays at t.
    let (mut inst, log) = recorded::<Decay>();
    inst.setup_experiment(0.0, None).unwrap();
    inst.set_real(&[decay_vr::TAU], &[0.0]).unwrap();
    inst.enter_initialization_mode().unwrap();
    inst.exit_initialization_mode().unwrap();
    let e = inst.do_step(0.0, 0.1).unwrap_err();
    assert_eq!(e.status, Status::Discard, "{e}");
    assert!(e.message.contains("non-finite"), "{e}");
    assert!(log.borrow().iter().any(|m| m.starts_with("Discard logStatusWarning")), "{:?}", log.borrow());
    assert_eq!(inst.slave_state(), SlaveState::StepFailed);
    assert_eq!(inst.continuous_state(), [1.0]);
    assert_eq!(inst.last_successful_time().unwrap(), 0.0);
    assert_eq!(get(&mut inst, decay_vr::Y), 1.0);
    // From StepFailed: no further step, but terminate is allowed.
    assert_eq!(inst.do_step(0.0, 0.1).unwrap_err().status, Status::Error);
    let (mut inst, _) = recorded::<Decay>();
    inst.setup_experiment(0.0, None).unwrap();
    inst.set_real(&[decay_vr::TAU], &[0.0]).unwrap();
    inst.enter_initialization_mode().unwrap();
    inst.exit_initialization_mode().unwrap();
    inst.do_step(0.0, 0.1).unwrap_err();
    inst.terminate().unwrap();
}

#[test]
fn reset_after_error_recovers() {
    let (mut inst, _) = initialized(&[]);
    inst.do_step(0.0, -1.0).unwrap_err();
    assert_eq!(inst.slave_state(), SlaveState::Error);
    // Getters still answer in Error (values for diagnosis only).
    assert_eq!(get(&mut inst, vr::M), d::M);
    inst.reset();
    inst.setup_experiment(0.0, None).unwrap();
    inst.enter_initialization_mode().unwrap();
    inst.exit_initialization_mode().unwrap();
    inst.do_step(0.0, 0.1).unwrap();
}

#[test]
fn decay_model_runs() {
    // The second model type on its own: y(t) = exp(-t / tau).
    let (mut inst, _) = recorded::<Decay>();
    inst.setup_experiment(0.0, None).unwrap();
    inst.set_real(&[decay_vr::TAU], &[0.5]).unwrap();
    inst.enter_initialization_mode().unwrap();
    inst.exit_initialization_mode().unwrap();
    for i in 0..10 {
        inst.do_step(i as f64 * 0.1, 0.1).unwrap();
    }
    let y = get(&mut inst, decay_vr::Y);
    assert!(rel(y, (-2.0_f64).exp(), 1.0) < 1e-7, "{y}");
}

#[test]
fn invalid_tunable_parameter_is_refused_by_the_setter_and_rolled_back() {
    let (mut inst, _) = initialized(&[]);
    inst.do_step(0.0, 0.5).unwrap();
    let r = inst.set_real(&[vr::C], &[-1.0]);
    assert_error(&inst, r, "fmi2SetReal", "invalid parameters");
    // The refused value is not stored: the damping reads back as before.
    assert_eq!(get(&mut inst, vr::C), d::C);
}
