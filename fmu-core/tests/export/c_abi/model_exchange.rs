//! The Model Exchange functions through the C boundary: refused where they do not apply, and a
//! run integrated by the test against the closed form, with the exact Jacobians.

use super::*;

#[test]
fn model_exchange_is_refused_by_a_model_without_declared_states() {
    let (c, log) = instantiate::<Decay>(Some("me"), MODEL_EXCHANGE, &fmu_core::guid::<Decay>());
    assert!(c.is_null());
    let log = log.lock().unwrap();
    assert!(log.iter().any(|m| m.contains("fmi2ModelExchange (0)") && m.contains("only fmi2CoSimulation")), "{log:?}");
}

type Msd = Instance<MassSpringDamper>;

/// Takes a new Model Exchange instance through initialization into continuous-time mode,
/// checking the nominals and the initial state on the way; returns that state.
///
/// # Safety
/// `c` must be a live Model Exchange component of `MassSpringDamper`.
unsafe fn enter_continuous_time_mode(c: Component) -> [f64; 2] {
    // SAFETY: `c` is live (the caller's contract); every array has the length passed with it.
    unsafe {
        assert_eq!(abi::setup_experiment::<Msd>(c, 0, 0.0, 0.0, 0, 0.0), OK);
        assert_eq!(abi::enter_initialization_mode::<Msd>(c), OK);
        assert_eq!(abi::exit_initialization_mode::<Msd>(c), OK);
        let mut info = abi::EventInfo::default();
        assert_eq!(abi::new_discrete_states::<Msd>(c, &mut info), OK);
        assert_eq!(info.new_discrete_states_needed, 0);
        assert_eq!(abi::enter_continuous_time_mode::<Msd>(c), OK);
        let mut nominals = [0.0; 2];
        assert_eq!(abi::get_nominals_of_continuous_states::<Msd>(c, nominals.as_mut_ptr(), 2), OK);
        assert_eq!(nominals, [1.0, 1.0]);
        let mut x = [0.0; 2];
        assert_eq!(abi::get_continuous_states::<Msd>(c, x.as_mut_ptr(), 2), OK);
        assert_eq!(x, [d::X0, d::V0]);
        x
    }
}

/// Integrates the instance's state `x` from t = 0 over `n` classic RK4 steps of `h`, the
/// derivatives from `fmi2GetDerivatives`, reporting each step with
/// `fmi2CompletedIntegratorStep`; returns the final state.
///
/// # Safety
/// `c` must be a live `MassSpringDamper` component in continuous-time mode.
unsafe fn integrate_rk4(c: Component, mut x: [f64; 2], h: f64, n: usize) -> [f64; 2] {
    // SAFETY: `c` is live (the caller's contract); every array has the length passed with it.
    let f = |t: f64, x: [f64; 2]| unsafe {
        let mut dx = [0.0; 2];
        assert_eq!(abi::set_time::<Msd>(c, t), OK);
        assert_eq!(abi::set_continuous_states::<Msd>(c, x.as_ptr(), 2), OK);
        assert_eq!(abi::get_derivatives::<Msd>(c, dx.as_mut_ptr(), 2), OK);
        dx
    };
    for i in 0..n {
        let t = i as f64 * h;
        let add = |a: [f64; 2], b: [f64; 2], s: f64| [a[0] + s * b[0], a[1] + s * b[1]];
        let k1 = f(t, x);
        let k2 = f(t + h / 2.0, add(x, k1, h / 2.0));
        let k3 = f(t + h / 2.0, add(x, k2, h / 2.0));
        let k4 = f(t + h, add(x, k3, h));
        x = [0, 1].map(|j| x[j] + h / 6.0 * (k1[j] + 2.0 * k2[j] + 2.0 * k3[j] + k4[j]));
        // SAFETY: as above.
        unsafe {
            assert_eq!(abi::set_time::<Msd>(c, t + h), OK);
            assert_eq!(abi::set_continuous_states::<Msd>(c, x.as_ptr(), 2), OK);
            let (mut event, mut terminate) = (1, 1);
            assert_eq!(abi::completed_integrator_step::<Msd>(c, 1, &mut event, &mut terminate), OK);
            assert_eq!((event, terminate), (0, 0));
        }
    }
    x
}

/// The closed-form position of the damped oscillator started at `(X0, V0)`, at time `t`.
fn damped_oscillation(t: f64) -> f64 {
    // omega_n = sqrt(k/m) = 2 rad/s, zeta = c / (2 sqrt(k m)) = 0.05.
    let (wn, zeta) = ((d::K / d::M).sqrt(), d::C / (2.0 * (d::K * d::M).sqrt()));
    let wd = wn * (1.0 - zeta * zeta).sqrt();
    (-zeta * wn * t).exp() * (d::X0 * (wd * t).cos() + (d::V0 + zeta * wn * d::X0) / wd * (wd * t).sin())
}

/// The directional derivatives of `der(x)`, `der(v)` and `a` with respect to the variable
/// `known` (a seed of 1).
///
/// # Safety
/// `c` must be a live `MassSpringDamper` component with declared states.
unsafe fn jacobian_column(c: Component, log: &Messages, known: u32) -> [f64; 3] {
    let der_vr = fmu_core::catalog::DERIVATIVE_VR_BASE;
    let unknowns = [der_vr, der_vr + 1, vr::A];
    let mut column = [0.0; 3];
    // SAFETY: `c` is live (the caller's contract); every array has the length passed with it.
    let status = unsafe {
        abi::get_directional_derivative::<Msd>(
            c,
            unknowns.as_ptr(),
            3,
            [known].as_ptr(),
            1,
            [1.0].as_ptr(),
            column.as_mut_ptr(),
        )
    };
    assert_eq!(status, OK, "{:?}", log.lock().unwrap());
    column
}

/// Model Exchange through the C ABI: the importer integrates `m x'' = -k x - c x'` with RK4 from
/// `fmi2GetDerivatives`, against the closed-form damped oscillation; the directional derivatives
/// with respect to states and input are the exact `A`, `B`, `C`, `D`.
#[test]
fn model_exchange_integrates_to_the_closed_form_and_gives_exact_jacobians() {
    let (c, log) = instantiate::<MassSpringDamper>(Some("me"), MODEL_EXCHANGE, &fmu_core::guid::<MassSpringDamper>());
    assert!(!c.is_null(), "{log:?}");
    let (state_vr, der_vr) = (fmu_core::catalog::STATE_VR_BASE, fmu_core::catalog::DERIVATIVE_VR_BASE);
    // SAFETY: `c` is a live Model Exchange component of `MassSpringDamper`; every array has the
    // length passed with it; `log` outlives the instance (freed at the end of the block).
    unsafe {
        let x0 = enter_continuous_time_mode(c);
        let (h, n) = (1e-3, 5000);
        let x = integrate_rk4(c, x0, h, n);
        let exact = damped_oscillation(n as f64 * h);
        assert!((x[0] - exact).abs() < 1e-10, "x(5 s) = {} vs closed form {exact}", x[0]);
        // The state variables read back through fmi2GetReal.
        let mut read = [0.0; 3];
        let vrs = [state_vr, state_vr + 1, der_vr + 1];
        assert_eq!(abi::get_real::<Msd>(c, vrs.as_ptr(), 3, read.as_mut_ptr()), OK);
        assert_eq!(&read[..2], &x);
        assert!((read[2] - (-d::K * x[0] - d::C * x[1]) / d::M).abs() < 1e-12);

        // A = [[0, 1], [-k/m, -c/m]], B = [0, 1/m]; a = C x + D F with C = [-k/m, -c/m], D = 1/m.
        let (k_m, c_m) = (d::K / d::M, d::C / d::M);
        assert_eq!(jacobian_column(c, &log, state_vr), [0.0, -k_m, -k_m]);
        assert_eq!(jacobian_column(c, &log, state_vr + 1), [1.0, -c_m, -c_m]);
        assert_eq!(jacobian_column(c, &log, vr::F), [0.0, 1.0 / d::M, 1.0 / d::M]);
        assert_eq!(abi::enter_event_mode::<Msd>(c), OK);
        assert_eq!(abi::terminate::<Msd>(c), OK);
        let mut three = [0.0; 3];
        assert_eq!(abi::get_continuous_states::<Msd>(c, three.as_mut_ptr(), 3), ERROR, "wrong state count");
        abi::free_instance::<Msd>(c);
    }
    assert!(log.lock().unwrap().iter().any(|m| m.contains("3 values for 2 continuous states")));
}

#[test]
fn model_exchange_functions_are_refused_on_a_co_simulation_instance() {
    let fmu = Fmu::<MassSpringDamper>::initialized();
    // SAFETY: live component.
    let status = unsafe { abi::set_time::<Instance<MassSpringDamper>>(fmu.c, 1.0) };
    assert_eq!(status, ERROR);
    fmu.assert_logged(&["fmi2SetTime", "instantiated as fmi2CoSimulation"]);
    // And fmi2DoStep on a Model Exchange instance.
    type I = Instance<MassSpringDamper>;
    let (c, log) = instantiate::<MassSpringDamper>(Some("me"), MODEL_EXCHANGE, &fmu_core::guid::<MassSpringDamper>());
    // SAFETY: `c` is a live component, freed once before `log`.
    unsafe {
        assert_eq!(abi::setup_experiment::<I>(c, 0, 0.0, 0.0, 0, 0.0), OK);
        assert_eq!(abi::enter_initialization_mode::<I>(c), OK);
        assert_eq!(abi::exit_initialization_mode::<I>(c), OK);
        assert_eq!(abi::do_step::<I>(c, 0.0, 0.1, 0), ERROR);
        abi::free_instance::<I>(c);
    }
    let log = log.lock().unwrap();
    assert!(log.iter().any(|m| m.contains("fmi2DoStep") && m.contains("EventMode")), "{log:?}");
}
