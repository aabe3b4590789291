//! The `AeroDynamicStall` FMU (`dynamic_stall = 1`): a hovering rotor with untwisted blades and
//! no inflow has the same angle of attack `theta` at every station, so after the transient the
//! thrust and the pitching moment of each blade are the linear-polar Aero thrust scaled by the
//! Leishman-Beddoes static coefficients, closed forms evaluated here: `cl / (a theta)` and
//! `c cm / cl`, with `cn = a theta K_N(f)`, `cc = eta a theta^2 sqrt f`, `cl = cn cos theta +
//! cc sin theta`, `cm = cn (K0 + K1 (1 - f) + K2 sin(pi f^2))`, Beddoes' `f(theta)` and the NACA
//! 0012 constants of the Mach 0.035 row (`speed_of_sound` high: every station below it).
//! Also: Aero refuses `dynamic_stall = 1`; the variant with it off is Aero; its directional
//! derivatives equal finite differences.

use fmu_aero::{Aero, AeroDynamicStall};
use fmu_core::verify::check_directional_derivatives;
use fmu_core::{Instance, Model};

const OMEGA: f64 = 29.0;
const CHORD: f64 = 0.55;
const ALPHA_STALL: f64 = 0.2662;

fn instance<M: Model>(theta: f64, dynamic_stall: i32, inflow_model: i32) -> Instance<M> {
    let mut inst = Instance::<M>::new("ds");
    let vr = |inst: &Instance<M>, name: &str| inst.vr(name).unwrap_or_else(|| panic!("no '{name}'"));
    for (name, v) in [
        ("e", 0.0),
        ("twist", 0.0),
        ("chord", CHORD),
        ("Omega", OMEGA),
        ("speed_of_sound", 1e4),
        ("alpha_stall", ALPHA_STALL),
    ] {
        let r = vr(&inst, name);
        inst.set_real(&[r], &[v]).unwrap();
    }
    for (name, v) in [("nb", 4), ("n_sections", 8), ("inflow_model", inflow_model), ("dynamic_stall", dynamic_stall)] {
        let r = vr(&inst, name);
        inst.set_integer(&[r], &[v]).unwrap();
    }
    inst.setup_experiment(0.0, None).unwrap();
    inst.enter_initialization_mode().unwrap();
    inst.exit_initialization_mode().unwrap();
    let (s, c) = theta.sin_cos();
    for b in 1..=4 {
        let psi = 0.3 + (b - 1) as f64 * std::f64::consts::FRAC_PI_2;
        for (name, v) in
            [("omega.y", OMEGA * s), ("omega.z", OMEGA * c), ("azimuth", psi), ("shaft.y", s), ("shaft.z", c)]
        {
            let r = vr(&inst, &format!("blade[{b}].{name}"));
            inst.set_real(&[r], &[v]).unwrap();
        }
    }
    inst
}

fn read<M: Model>(inst: &mut Instance<M>, name: &str) -> f64 {
    let r = inst.vr(name).unwrap();
    let mut v = [0.0];
    inst.get_real(&[r], &mut v).unwrap();
    v[0]
}

/// Leishman-Beddoes static `(cl, cm)` at `theta` with the Mach 0.035 constants of NACA 0012
/// (laurapla/BLcode2.0 `input_NACA0012.m`: S1 = 3.5 deg, S2 = 0.7 deg, K0 = 0.02,
/// K1 = -0.12, K2 = 0.03, eta = 0.965) and the FMU's `a` and `alpha_stall`.
fn static_coefficients(theta: f64) -> (f64, f64) {
    let (a, s1, s2) = (5.73, 3.5_f64.to_radians(), 0.7_f64.to_radians());
    let (k0, k1, k2, eta) = (0.02, -0.12, 0.03, 0.965);
    let f = if theta <= ALPHA_STALL {
        1.0 - 0.3 * ((theta - ALPHA_STALL) / s1).exp()
    } else {
        0.04 + 0.66 * ((ALPHA_STALL - theta) / s2).exp()
    };
    let cn = a * theta * 0.25 * (1.0 + f.sqrt()).powi(2);
    let cc = eta * a * theta * theta * f.sqrt();
    let cl = cn * theta.cos() + cc * theta.sin();
    (cl, cn * (k0 + k1 * (1.0 - f) + k2 * (std::f64::consts::PI * f * f).sin()))
}

#[test]
fn hover_loads_settle_on_the_static_leishman_beddoes_coefficients() {
    for theta_deg in [6.0_f64, 12.0, 20.0] {
        let theta = theta_deg.to_radians();
        let mut linear = instance::<Aero>(theta, 0, 0);
        linear.do_step(0.0, 0.01).unwrap();
        let thrust_linear = read(&mut linear, "thrust");
        let mut stall = instance::<AeroDynamicStall>(theta, 1, 0);
        for n in 0..100 {
            stall.do_step(n as f64 * 0.01, 0.01).unwrap();
        }
        let (thrust, pitch_moment) = (read(&mut stall, "thrust"), read(&mut stall, "blade[1].M.x"));
        let (cl, cm) = static_coefficients(theta);
        let thrust_expected = thrust_linear * cl / (5.73 * theta);
        let moment_expected = thrust_expected / 4.0 * CHORD * cm / cl;
        eprintln!(
            "theta {theta_deg} deg: thrust {thrust:.2} N (closed form {thrust_expected:.2}), M.x {pitch_moment:.3} N m ({moment_expected:.3})"
        );
        assert!(
            (thrust / thrust_expected - 1.0).abs() < 1e-6,
            "theta {theta_deg}: thrust {thrust} against {thrust_expected}"
        );
        assert!(
            (pitch_moment - moment_expected).abs() < 1e-6 * moment_expected.abs().max(1.0),
            "theta {theta_deg}: M.x {pitch_moment} against {moment_expected}"
        );
    }
}

#[test]
fn aero_refuses_dynamic_stall_and_the_variant_without_it_is_aero() {
    let mut inst = Instance::<Aero>::new("bad");
    let r = inst.vr("dynamic_stall").unwrap();
    inst.set_integer(&[r], &[1]).unwrap();
    let e = inst.enter_initialization_mode().unwrap_err().to_string();
    assert!(e.contains("AeroDynamicStall"), "{e}");
    let theta = 0.1;
    let mut aero = instance::<Aero>(theta, 0, 2);
    let mut variant = instance::<AeroDynamicStall>(theta, 0, 2);
    for n in 0..10 {
        aero.do_step(n as f64 * 0.01, 0.01).unwrap();
        variant.do_step(n as f64 * 0.01, 0.01).unwrap();
    }
    for name in ["thrust", "torque", "inflow", "blade[2].F.z"] {
        assert_eq!(read(&mut aero, name).to_bits(), read(&mut variant, name).to_bits(), "{name}");
    }
}

#[test]
fn directional_derivatives_with_dynamic_stall_match_finite_differences() {
    let mut stall = instance::<AeroDynamicStall>(0.25, 1, 2);
    // Forward flight, so that the Pitt-Peters harmonics and with them the azimuths matter.
    for (name, v) in [("hub.vel.x", 30.0), ("blade[1].vel.y", 20.0), ("blade[2].vel.x", -15.0)] {
        let r = stall.vr(name).unwrap();
        stall.set_real(&[r], &[v]).unwrap();
    }
    for n in 0..20 {
        stall.do_step(n as f64 * 0.005, 0.005).unwrap();
    }
    let report = check_directional_derivatives(&mut stall, |_, v| 1e-6 * v.abs().max(1.0), 1e-5).unwrap();
    eprintln!("declared pairs {}, worst {:e} ({})", report.declared_pairs, report.worst, report.worst_pair);
    assert!(report.violations.is_empty(), "{:#?}", report.violations);
}
