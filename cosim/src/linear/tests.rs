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
    let modes = mbc.modes();
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
