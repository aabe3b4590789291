//! Multiblade coordinates, Floquet exponents and state groups on small hand-made systems.

use super::*;

/// Three identical undamped blades `q_b'' = -w^2 q_b` in the rotating frame.
fn blades(w: f64, omega: f64) -> LinearModel {
    let mut states: Vec<String> = (1..=3).map(|b| format!("rotor.state.blade[{b}].lag")).collect();
    states.extend((1..=3).map(|b| format!("rotor.state.blade[{b}].lag_rate")));
    let mut m = LinearModel::new(states, Vec::new(), Vec::new(), 0.0);
    for b in 0..3 {
        m.a[(b, 3 + b)] = 1.0;
        m.a[(3 + b, b)] = -w * w;
    }
    m.rotors = vec![RotorFrame {
        instance: "rotor".into(),
        blade_azimuths: (0..3).map(|b| 0.3 + std::f64::consts::TAU * b as f64 / 3.0).collect(),
        omega,
    }];
    m
}

fn sorted_imaginary(modes: &[Mode]) -> Vec<f64> {
    let mut im: Vec<f64> = modes.iter().map(|m| m.eigenvalue.im).filter(|&v| v > 0.0).collect();
    im.sort_by(f64::total_cmp);
    im
}

#[test]
fn multiblade_shifts_cyclic_roots_by_the_rotor_speed() {
    let (w, omega) = (7.0, 30.0);
    let mbc = blades(w, omega).multiblade().unwrap();
    assert_eq!(mbc.state_names[..3], ["rotor.lag.0", "rotor.lag.1c", "rotor.lag.1s"]);
    let modes = mbc.modes().unwrap();
    assert!(modes.iter().all(|m| m.eigenvalue.re.abs() < 1e-9), "undamped");
    let expected = [w, omega - w, omega + w];
    for (got, want) in sorted_imaginary(&modes).iter().zip(expected) {
        assert!((got - want).abs() < 1e-9, "{got} vs {want}");
    }
    let names: Vec<&str> = modes.iter().filter(|m| m.eigenvalue.im > 0.0).map(|m| m.name.as_str()).collect();
    assert!(names.contains(&"rotor.lag.collective"), "{names:?}");
    assert!(names.contains(&"rotor.lag.cyclic regressive") && names.contains(&"rotor.lag.cyclic progressive"));
}

#[test]
fn floquet_exponents_of_a_constant_system_are_its_eigenvalues() {
    let (w, omega) = (7.0, 30.0);
    let model = blades(w, omega);
    let period = std::f64::consts::TAU / omega;
    let exponents = floquet(&vec![model.clone(); 24], period).unwrap();
    // Principal values: w lies within (-Omega/2, Omega/2].
    for m in &exponents {
        assert!(m.eigenvalue.re.abs() < 1e-9 && (m.eigenvalue.im.abs() - w).abs() < 1e-9, "{:?}", m.eigenvalue);
    }
}

#[test]
fn state_groups_join_angles_rates_blades_and_multiblade_coordinates() {
    assert_eq!(state_group("rotor.state.blade[2].lag_rate"), "rotor.blade[*].lag");
    assert_eq!(state_group("fuselage.state.velocity.z"), "fuselage.velocity.z");
    assert_eq!(state_group("rotor.flap.1s_rate"), "rotor.flap.cyclic");
    assert_eq!(state_group("rotor.flap.0"), "rotor.flap.collective");
    assert_eq!(state_group("rotor.lag.d"), "rotor.lag.differential");
    assert_eq!(state_group("rotor.lag.2c"), "rotor.lag.cyclic2");
}

/// Four identical undamped blades: in multiblade coordinates the collective and differential
/// lag roots are the same (`i w`), so the eigenvector of either is any vector of a plane; the
/// two roots must still get the two names (one each), and each conjugate its root's name.
#[test]
fn a_repeated_root_names_each_of_its_modes_once() {
    let (w, omega) = (7.0, 30.0);
    let mut states: Vec<String> = (1..=4).map(|b| format!("rotor.state.blade[{b}].lag")).collect();
    states.extend((1..=4).map(|b| format!("rotor.state.blade[{b}].lag_rate")));
    let mut m = LinearModel::new(states, Vec::new(), Vec::new(), 0.0);
    for b in 0..4 {
        m.a[(b, 4 + b)] = 1.0;
        m.a[(4 + b, b)] = -w * w;
    }
    let azimuths = (0..4).map(|b| 0.3 + std::f64::consts::TAU * b as f64 / 4.0).collect();
    m.rotors = vec![RotorFrame { instance: "rotor".into(), blade_azimuths: azimuths, omega }];
    let modes = m.multiblade().unwrap().modes().unwrap();
    let at_w: Vec<&Mode> = modes.iter().filter(|m| (m.eigenvalue.im.abs() - w).abs() < 1e-6).collect();
    let mut names: Vec<(&str, bool)> = at_w.iter().map(|m| (m.name.as_str(), m.eigenvalue.im > 0.0)).collect();
    names.sort();
    let expected = [
        ("rotor.lag.collective", false),
        ("rotor.lag.collective", true),
        ("rotor.lag.differential", false),
        ("rotor.lag.differential", true),
    ];
    assert_eq!(names, expected, "{modes:#?}");
}

/// A free mass (`x' = v`, `v' = 0`, with a round-off entry of 1e-13) beside a damped
/// oscillator: its double zero root splits into +-3e-7 by round-off, which is neutral (no
/// damping ratio), not a divergence of damping -1.
#[test]
fn round_off_roots_of_a_free_body_are_neutral() {
    let states = ["body.state.x", "body.state.v", "spring.state.x", "spring.state.v"].map(String::from).to_vec();
    let mut m = LinearModel::new(states, Vec::new(), Vec::new(), 0.0);
    m.a[(0, 1)] = 1.0;
    m.a[(1, 0)] = 1e-13;
    m.a[(2, 3)] = 1.0;
    m.a[(3, 2)] = -4.0;
    m.a[(3, 3)] = -0.4;
    let modes = m.modes().unwrap();
    let free: Vec<&Mode> = modes.iter().filter(|m| m.eigenvalue.norm() < 1e-3).collect();
    assert_eq!(free.len(), 2);
    assert!(free.iter().all(|m| m.damping.is_none() && m.name == "body.x"), "{free:#?}");
    let spring = modes.iter().find(|m| m.eigenvalue.im > 0.0).unwrap();
    assert!((spring.damping.unwrap() - 0.1).abs() < 1e-12 && spring.name == "spring.x", "{spring:?}");
}

/// Asserts that `got` is `want` up to `tol` in some order (each expected value matched to the
/// nearest remaining computed one).
fn assert_same_spectrum(mut got: Vec<Complex<f64>>, want: &[Complex<f64>], tol: f64) {
    assert_eq!(got.len(), want.len(), "{got:?}");
    for w in want {
        let (at, distance) = got.iter().map(|g| (g - w).norm()).enumerate().min_by(|a, b| a.1.total_cmp(&b.1)).unwrap();
        assert!(distance < tol, "{w} not among {got:?} (nearest {distance:e} away)");
        got.swap_remove(at);
    }
}

/// The companion matrix of the monic polynomial with the roots `roots` (real or conjugate
/// pairs): its coefficients by multiplying out `(s - r)`, on the last row negated.
fn companion(roots: &[Complex<f64>]) -> DMatrix<f64> {
    let mut coefficients = vec![Complex::new(1.0, 0.0)]; // lowest power first
    for r in roots {
        let mut next = vec![Complex::new(0.0, 0.0); coefficients.len() + 1];
        for (k, c) in coefficients.iter().enumerate() {
            next[k + 1] += c;
            next[k] -= c * r;
        }
        coefficients = next;
    }
    let n = roots.len();
    DMatrix::from_fn(n, n, |r, c| {
        if r + 1 == n {
            -coefficients[c].re
        } else if c == r + 1 {
            1.0
        } else {
            0.0
        }
    })
}

#[test]
fn bounded_eigenvalues_are_the_closed_form_spectra() {
    let z = |re: f64, im: f64| Complex::new(re, im);
    // (s + 1)(s + 2)(s - 3)(s^2 + 4)(s^2 + 2 s + 10)
    let roots = [z(-1.0, 0.0), z(-2.0, 0.0), z(3.0, 0.0), z(0.0, 2.0), z(0.0, -2.0), z(-1.0, 3.0), z(-1.0, -3.0)];
    assert_same_spectrum(modes::eigenvalues(&companion(&roots), "companion").unwrap(), &roots, 1e-9);
    // Rotation blocks [a w; -w a]: a +- i w.
    let mut rotations = DMatrix::<f64>::zeros(4, 4);
    for (b, (a, w)) in [(-0.5, 3.0), (0.2, 70.0)].into_iter().enumerate() {
        rotations[(2 * b, 2 * b)] = a;
        rotations[(2 * b + 1, 2 * b + 1)] = a;
        rotations[(2 * b, 2 * b + 1)] = w;
        rotations[(2 * b + 1, 2 * b)] = -w;
    }
    let want = [z(-0.5, 3.0), z(-0.5, -3.0), z(0.2, 70.0), z(0.2, -70.0)];
    assert_same_spectrum(modes::eigenvalues(&rotations, "rotations").unwrap(), &want, 1e-12);
    // A defective 3 x 3 Jordan block of 2 beside -1: the triple root only to ~eps^(1/3).
    let mut jordan = DMatrix::<f64>::zeros(4, 4);
    for k in 0..3 {
        jordan[(k, k)] = 2.0;
    }
    jordan[(0, 1)] = 1.0;
    jordan[(1, 2)] = 1.0;
    jordan[(3, 3)] = -1.0;
    assert_same_spectrum(
        modes::eigenvalues(&jordan, "jordan").unwrap(),
        &[z(2.0, 0.0), z(2.0, 0.0), z(2.0, 0.0), z(-1.0, 0.0)],
        1e-4,
    );
}

#[test]
fn modes_of_a_are_its_closed_form_eigenvalues() {
    let z = |re: f64, im: f64| Complex::new(re, im);
    let roots = [z(-0.3, 5.0), z(-0.3, -5.0), z(-4.0, 0.0)];
    let mut m = LinearModel::new(vec!["a".into(), "b".into(), "c".into()], Vec::new(), Vec::new(), 0.0);
    m.a = companion(&roots);
    let modes = m.modes().unwrap();
    assert_same_spectrum(modes.iter().map(|m| m.eigenvalue).collect(), &roots, 1e-9);
}

#[test]
fn eigenvalues_beyond_the_iteration_limit_are_an_error_naming_the_matrix() {
    let roots: Vec<Complex<f64>> = (1..=6).map(|k| Complex::new(-(k as f64), 0.0)).collect();
    let err = modes::eigenvalues_within(&companion(&roots), "state matrix A", 1).unwrap_err();
    assert!(matches!(err, LinearError::NoConvergence { size: 6, iterations: 1, .. }), "{err:?}");
    assert!(err.to_string().contains("6 x 6 state matrix A did not converge in 1 iterations"), "{err}");
}
