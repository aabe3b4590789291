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
    let modes = mbc.modes(&RotorNaming { rotors: &rotors.frames, model: Some(&mbc) }).unwrap();
    assert!(modes.iter().all(|m| m.eigenvalue.re.abs() < 1e-9), "undamped");
    let expected = [w, omega - w, omega + w];
    for (got, want) in sorted_imaginary(&modes).iter().zip(expected) {
        assert!((got - want).abs() < 1e-9, "{got} vs {want}");
    }
    let names: Vec<&str> = modes.iter().filter(|m| m.eigenvalue.im > 0.0).map(|m| m.name.as_str()).collect();
    assert!(names.contains(&"rotor.lag.collective"), "{names:?}");
    assert!(names.contains(&"rotor.lag.cyclic regressive") && names.contains(&"rotor.lag.cyclic progressive"));
}

/// A blade frequency above twice the rotor's speed (an elastic blade's torsion or 2nd flap):
/// in the fixed frame its regressive branch `w - Omega` lies above `Omega` too and turns
/// against the rotor; it is named regressive, `w + Omega` progressive (closed form, both
/// directions of rotation), every conjugate as its root.
#[test]
fn cyclic_modes_above_twice_the_rotor_speed_are_named_by_their_whirl() {
    for (w, omega) in [(100.0, 30.0), (100.0, -30.0), (40.0, 30.0)] {
        let (model, rotors) = blades(w, omega);
        let mbc = model.transformed(&rotors).unwrap();
        let modes = mbc.modes(&RotorNaming { rotors: &rotors.frames, model: Some(&mbc) }).unwrap();
        let expected = [
            ("rotor.lag.cyclic regressive", (w - omega.abs()).abs()),
            ("rotor.lag.cyclic progressive", w + omega.abs()),
            ("rotor.lag.collective", w),
        ];
        for (name, frequency) in expected {
            let named: Vec<f64> = modes.iter().filter(|m| m.name == name).map(|m| m.eigenvalue.im).collect();
            assert_eq!(named.len(), 2, "w {w}, Omega {omega}: {name} {modes:#?}");
            assert!(
                named.iter().all(|im| (im.abs() - frequency).abs() < 1e-9),
                "w {w}, Omega {omega}: {name} {named:?}"
            );
        }
    }
}

#[test]
fn floquet_exponents_of_a_constant_system_are_its_eigenvalues() {
    let (w, omega) = (7.0, 30.0);
    let (model, rotors) = blades(w, omega);
    let period = std::f64::consts::TAU / omega;
    let naming = RotorNaming { rotors: &rotors.frames, model: None };
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
    let mbc = m.transformed(&rotors).unwrap();
    let modes = mbc.modes(&RotorNaming { rotors: &rotors.frames, model: Some(&mbc) }).unwrap();
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

/// Four blades with elastic station states `node[1].u.z`, `node[1].psi.y` and their rates
/// `v.z`, `w.y`, beside a state of no rotor.
fn elastic_rotor(omega: f64) -> (Vec<String>, Rotors) {
    let mut states = Vec::new();
    for part in ["u.z", "psi.y", "v.z", "w.y"] {
        states.extend((1..=4).map(|b| format!("rotor.state.blade[{b}].node[1].{part}")));
    }
    states.push("fuselage.state.u".to_string());
    let azimuths = (0..4).map(|b| 0.3 + std::f64::consts::TAU * b as f64 / 4.0).collect();
    (states, Rotors { frames: vec![RotorFrame { instance: "rotor".into(), blade_azimuths: azimuths, omega }] })
}

/// Coleman's transform of elastic station states, against its closed form evaluated here:
/// `q_b = q_0 + q_1c cos psi_b + q_1s sin psi_b + q_d (-1)^b` and
/// `v_b = q_0' + q_1c' cos psi_b + q_1s' sin psi_b + q_d' (-1)^b + Omega (q_1s cos psi_b - q_1c sin psi_b)`;
/// the inverse recovers the multiblade coordinates (round trip), and `dS/dt` is the central
/// difference of `S` over the rotor turned by +-dt.
#[test]
fn multiblade_transform_of_node_states_round_trips() {
    let omega = 30.0;
    let (states, rotors) = elastic_rotor(omega);
    let t = rotors.multiblade(&states).unwrap();
    let coordinates = ["0", "1c", "1s", "d"];
    for (k, c) in coordinates.iter().enumerate() {
        assert_eq!(t.names[k], format!("rotor.node[1].u.z.{c}"));
        assert_eq!(t.names[4 + k], format!("rotor.node[1].psi.y.{c}"));
        assert_eq!(t.names[8 + k], format!("rotor.node[1].v.z.{c}"));
        assert_eq!(t.names[12 + k], format!("rotor.node[1].w.y.{c}"));
    }
    assert_eq!(t.names[16], "fuselage.state.u");
    let xm: Vec<f64> = (0..17).map(|i| 0.1 + 0.37 * i as f64 - 0.02 * (i * i) as f64).collect();
    let x = &t.s * nalgebra::DVector::from_column_slice(&xm);
    for (b, psi) in rotors.frames[0].blade_azimuths.iter().enumerate() {
        let sign = if b % 2 == 1 { 1.0 } else { -1.0 };
        let coleman = |q: &[f64]| q[0] + q[1] * psi.cos() + q[2] * psi.sin() + q[3] * sign;
        let whirl = |q: &[f64]| omega * (q[2] * psi.cos() - q[1] * psi.sin());
        for part in 0..2 {
            let (q, rate) = (&xm[4 * part..4 * part + 4], &xm[8 + 4 * part..12 + 4 * part]);
            assert!((x[4 * part + b] - coleman(q)).abs() < 1e-12);
            assert!((x[8 + 4 * part + b] - coleman(rate) - whirl(q)).abs() < 1e-12);
        }
    }
    assert!((x[16] - xm[16]).abs() < 1e-15);
    let back = t.s.clone().try_inverse().unwrap() * x;
    assert!(back.iter().zip(&xm).all(|(a, b)| (a - b).abs() < 1e-12), "{back:?}");
    let dt = 1e-6;
    let ahead = rotors.turned(dt).multiblade(&states).unwrap().s;
    let behind = rotors.turned(-dt).multiblade(&states).unwrap().s;
    let difference = (ahead - behind) / (2.0 * dt) - &t.s_dot;
    assert!(difference.amax() < 1e-5 * omega * omega, "{}", difference.amax());
}

/// Three blades with a station state but no rate: a clear error naming the missing state.
#[test]
fn a_station_without_its_rate_is_an_error() {
    let states: Vec<String> = (1..=3).map(|b| format!("rotor.state.blade[{b}].node[2].u.y")).collect();
    let rotors = Rotors {
        frames: vec![RotorFrame { instance: "rotor".into(), blade_azimuths: vec![0.0, 2.0, 4.0], omega: 10.0 }],
    };
    let error = rotors.multiblade(&states).unwrap_err().to_string();
    assert_eq!(error, "rotor: blade 1 has no node[2].v.y");
}

/// A two-station flap chain `q'' = -K q`, `K = [[2, -1], [-1, 1]]` (unit masses): its modes'
/// frequencies `sqrt((3 -+ sqrt 5) / 2)` and shapes `(1 / g, 1)`, `(1, -1 / g)` with the golden
/// ratio `g`, scaled to a largest `u.z` of 1, named 1st and 2nd flap, at the radii given.
#[test]
fn shapes_of_a_two_station_chain_are_its_eigenvectors() {
    let states = ["node[1].u.z", "node[2].u.z", "node[1].v.z", "node[2].v.z"]
        .map(|s| format!("blade.state.blade[1].{s}"))
        .to_vec();
    let mut m = LinearModel::new(states, Vec::new(), Vec::new(), 0.0);
    m.a[(0, 2)] = 1.0;
    m.a[(1, 3)] = 1.0;
    for (r, c, k) in [(2, 0, 2.0), (2, 1, -1.0), (3, 0, -1.0), (3, 1, 1.0)] {
        m.a[(r, c)] = -k;
    }
    let modes = m.modes(&RotorNaming::default()).unwrap();
    let radii = std::collections::BTreeMap::from([("blade".to_string(), vec![1.5, 3.0])]);
    let shapes = crate::mode_shapes(&m, &modes, &radii, &[], 5);
    assert_eq!(shapes.len(), 2);
    let golden = (1.0 + 5f64.sqrt()) / 2.0;
    for (shape, (frequency, expected)) in
        shapes.iter().zip([(((3.0 - 5f64.sqrt()) / 2.0).sqrt(), [1.0 / golden, 1.0]), (golden, [1.0, -1.0 / golden])])
    {
        assert!((modes[shape.mode].eigenvalue.im - frequency).abs() < 1e-12);
        assert_eq!(shape.kind, crate::BladeModeKind::Flap);
        let stations = &shape.blades[0].stations;
        assert_eq!(stations.iter().map(|s| (s.0, s.1)).collect::<Vec<_>>(), [(1, 1.5), (2, 3.0)]);
        for (s, want) in stations.iter().zip(expected) {
            assert!((s.2[2] - want).norm() < 1e-9, "{:?} vs {want}", s.2[2]);
        }
    }
    assert_eq!([shapes[0].name.as_str(), shapes[1].name.as_str()], ["1st flap", "2nd flap"]);
}
