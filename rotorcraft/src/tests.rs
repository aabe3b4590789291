//! Multiblade coordinates, Floquet exponents and mode names on small hand-made systems (moved
//! from `cosim/src/linear/tests.rs` with every assertion).

use cosim::linear::{LinearModel, Mode, floquet};

use crate::{RotorFrame, RotorNaming, Rotors, state_group};

/// Three identical undamped blades `q_b'' = -w^2 q_b` in the rotating frame, with the rotor.
fn blades(w: f64, omega: f64) -> (LinearModel, Rotors) {
    let mut states: Vec<String> = (1..=3).map(|b| format!("rotor.state.blade[{b}].lag")).collect();
    states.extend((1..=3).map(|b| format!("rotor.state.blade[{b}].lag_rate")));
    let mut m = LinearModel::new(states, Vec::new(), Vec::new(), 0.0);
    for b in 0..3 {
        m.a[(b, 3 + b)] = 1.0;
        m.a[(3 + b, b)] = -w * w;
    }
    let rotors = Rotors {
        frames: vec![RotorFrame {
            instance: "rotor".into(),
            blade_azimuths: (0..3).map(|b| 0.3 + std::f64::consts::TAU * b as f64 / 3.0).collect(),
            omega,
        }],
    };
    (m, rotors)
}

fn sorted_imaginary(modes: &[Mode]) -> Vec<f64> {
    let mut im: Vec<f64> = modes.iter().map(|m| m.eigenvalue.im).filter(|&v| v > 0.0).collect();
    im.sort_by(f64::total_cmp);
    im
}

#[test]
fn multiblade_shifts_cyclic_roots_by_the_rotor_speed() {
    let (w, omega) = (7.0, 30.0);
    let (model, rotors) = blades(w, omega);
    let mbc = model.transformed(&rotors).unwrap();
    assert_eq!(mbc.state_names[..3], ["rotor.lag.0", "rotor.lag.1c", "rotor.lag.1s"]);
    let modes = mbc.modes(&RotorNaming { rotors: &rotors.frames }).unwrap();
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
    let (model, rotors) = blades(w, omega);
    let period = std::f64::consts::TAU / omega;
    let naming = RotorNaming { rotors: &rotors.frames };
    let exponents = floquet(&vec![(model, rotors.clone()); 24], &naming, period).unwrap();
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
    let rotors = Rotors { frames: vec![RotorFrame { instance: "rotor".into(), blade_azimuths: azimuths, omega }] };
    let modes = m.transformed(&rotors).unwrap().modes(&RotorNaming { rotors: &rotors.frames }).unwrap();
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
    let modes = m.modes(&RotorNaming::default()).unwrap();
    let free: Vec<&Mode> = modes.iter().filter(|m| m.eigenvalue.norm() < 1e-3).collect();
    assert_eq!(free.len(), 2);
    assert!(free.iter().all(|m| m.damping.is_none() && m.name == "body.x"), "{free:#?}");
    let spring = modes.iter().find(|m| m.eigenvalue.im > 0.0).unwrap();
    assert!((spring.damping.unwrap() - 0.1).abs() < 1e-12 && spring.name == "spring.x", "{spring:?}");
}
