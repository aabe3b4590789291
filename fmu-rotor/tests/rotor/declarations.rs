//! Declarations (the design's variable contract, the index and value-reference layout, the
//! feedthrough structure), parameter validation through the FMI layer, and inactive blades.

use crate::common::{Sim, Val, b, i, r, vr};
use fmu_core::model::Model;
use fmu_core::variable::Feedthrough;
use fmu_core::verify::check_layout;
use fmu_rotor::Rotor;
use fmu_rotor::layout::{u, vr as vrs, y};

/// The names DESIGN.md section 9 promises for the Rotor, plus the ones the issue adds.
fn contract_names() -> Vec<String> {
    let mut n: Vec<String> = [
        "nb",
        "Omega",
        "R",
        "e",
        "e_lag",
        "blade.m",
        "blade.S",
        "blade.I",
        "blade.I_pitch",
        "k_lag",
        "c_lag",
        "k_flap",
        "lock_lag",
        "lock_flap",
        "shaft_free",
        "psi0",
        "blade.beta0",
        "blade.zeta0",
        "hub.m",
        "hub.I",
        "tolerance",
        "shaft_torque",
        "azimuth",
        "energy.kinetic",
        "energy.potential",
        "shaft.torque",
        "shaft.rate",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for c in ["x", "y", "z"] {
        n.push(format!("shaft.n{c}"));
        n.push(format!("shaft.a{c}"));
        for v in ["vel", "omega", "acc", "alpha", "F", "M"] {
            n.push(format!("hub.{v}.{c}"));
        }
    }
    for k in 1..=8 {
        for s in ["pitch", "pitch_rate", "pitch_acc", "flap", "lag", "flap_rate", "lag_rate", "azimuth"] {
            n.push(format!("blade[{k}].{s}"));
        }
        for c in ["x", "y", "z"] {
            for v in ["F", "M", "vel", "omega", "shaft"] {
                n.push(format!("blade[{k}].{v}.{c}"));
            }
        }
    }
    n
}

#[test]
fn declarations_follow_the_contract_and_layout() {
    let vars = Rotor::variables();
    check_layout(&vars, &contract_names(), (u::N, vrs::INPUT_BASE), (y::N, vrs::OUTPUT_BASE));
    assert_eq!(vr("hub.vel.x"), 100);
    assert_eq!(vr("blade[3].M.z"), vrs::input(u::blade(2) + u::MOMENT + 2));
    assert_eq!(vr("hub.F.x"), 300);
    assert_eq!(vr("blade[8].shaft.z"), vrs::output(y::N - 1));
    // Feedthrough: hub loads and shaft torque on everything but the hub velocity; blade
    // kinematics on the hub motion and that blade's pitch; states-only outputs on nothing.
    let by_name = |n: &str| vars.iter().find(|v| v.name == n).unwrap();
    let deps = |n: &str| match &by_name(n).feedthrough {
        Feedthrough::Inputs(d) => d.iter().map(|&v| vars.iter().find(|x| x.vr == v).unwrap().name.clone()).collect(),
        Feedthrough::None => Vec::<String>::new(),
    };
    for n in ["hub.F.x", "hub.M.z", "shaft.torque"] {
        let d = deps(n);
        assert_eq!(d.len(), u::N - 3, "{n}");
        assert!(!d.iter().any(|x| x.starts_with("hub.vel")), "{n}");
        assert!(d.contains(&"hub.acc.z".to_string()) && d.contains(&"blade[8].M.x".to_string()));
    }
    assert_eq!(
        deps("blade[2].vel.x"),
        ["hub.vel.x", "hub.vel.y", "hub.vel.z", "hub.omega.x", "hub.omega.y", "hub.omega.z", "blade[2].pitch"]
    );
    assert_eq!(deps("blade[2].omega.y").len(), 5);
    assert_eq!(deps("blade[7].shaft.z"), ["blade[7].pitch"]);
    assert_eq!(deps("energy.potential"), ["hub.acc.x", "hub.acc.y", "hub.acc.z"]);
    for n in ["azimuth", "shaft.rate", "blade[1].flap", "blade[1].lag_rate", "blade[5].azimuth"] {
        assert!(deps(n).is_empty(), "{n}");
    }
}

#[test]
fn bad_parameters_are_rejected_with_their_name() {
    let cases: Vec<(Vec<(&str, Val)>, &str)> = vec![
        (vec![("blade.m", r(0.0))], "blade.m"),
        (vec![("blade.S", r(-1.0))], "blade.S"),
        (vec![("blade.I", r(1000.0))], "blade.I"),
        (vec![("blade.I", r(6000.0))], "blade.I"),
        (vec![("blade.S", r(800.0))], "blade.S"),
        (vec![("blade.I_pitch", r(-1.0))], "blade.I_pitch"),
        (vec![("R", r(0.0))], "'R'"),
        (vec![("e", r(8.0))], "'e'"),
        (vec![("e", r(-0.1))], "'e'"),
        (vec![("e_lag", r(0.5))], "e_lag"),
        (vec![("k_lag", r(-1.0))], "k_lag"),
        (vec![("c_lag", r(-1.0))], "c_lag"),
        (vec![("k_flap", r(-1.0))], "k_flap"),
        (vec![("hub.m", r(-1.0))], "hub.m"),
        (vec![("hub.I", r(-1.0))], "hub.I"),
        (vec![("shaft.nz", r(0.0))], "shaft.nx/ny/nz"),
        (vec![("shaft.ax", r(0.0)), ("shaft.az", r(2.0))], "shaft.ax/ay/az"),
        (vec![("tolerance", r(0.0))], "tolerance"),
        (vec![("tolerance", r(1.0))], "tolerance"),
        // A free shaft with lag hinges on the shaft axis and no hub inertia has no unique shaft
        // angle: the mass matrix is singular.
        (vec![("shaft_free", b(true)), ("e_lag", r(0.0))], "hub.I"),
    ];
    for (params, expected) in cases {
        let err = match Sim::try_new(&params) {
            Ok(_) => panic!("{params:?} accepted"),
            Err(e) => e,
        };
        assert!(err.contains(expected), "{params:?}: message '{err}' does not name '{expected}'");
    }
    assert!(Sim::try_new(&[("nb", i(9))]).is_err());
    assert!(Sim::try_new(&[("nb", i(0))]).is_err());
    // Boundary cases that are physical: a point-mass blade (I = S^2/m), the same with a hub
    // inertia and lag on the axis.
    assert!(Sim::try_new(&[("blade.I", r(390.0 * 390.0 / 100.0))]).is_ok());
    assert!(Sim::try_new(&[("shaft_free", b(true)), ("e_lag", r(0.0)), ("hub.I", r(10.0))]).is_ok());
}

#[test]
fn inactive_blades_output_zero_and_ignore_their_inputs() {
    let mut sim =
        Sim::new(&[("nb", i(3)), ("blade.beta0", r(0.05)), ("blade[4].F.z", r(1e5)), ("blade[6].pitch", r(0.3))]);
    let mut reference = Sim::new(&[("nb", i(3)), ("blade.beta0", r(0.05))]);
    for _ in 0..20 {
        sim.step(0.003);
        reference.step(0.003);
    }
    for n in ["hub.F.z", "hub.M.x", "shaft.torque", "blade[2].flap", "energy.kinetic"] {
        assert_eq!(sim.get(n).to_bits(), reference.get(n).to_bits(), "{n}");
    }
    for k in 4..=8 {
        for s in ["azimuth", "flap", "lag", "flap_rate", "vel.x", "omega.z"] {
            assert_eq!(sim.get(&format!("blade[{k}].{s}")), 0.0);
        }
    }
    // Three blades at 120 degrees.
    let d = sim.get("blade[2].azimuth") - sim.get("blade[1].azimuth");
    assert!((d - 2.0 * std::f64::consts::PI / 3.0).abs() < 1e-12);
}

#[test]
fn model_description_declares_the_rotor() {
    let xml = fmu_core::model_description::<Rotor>();
    assert!(xml.contains("modelIdentifier=\"Rotor\""));
    assert!(xml.contains("providesDirectionalDerivative=\"true\""));
    let vars = Rotor::variables();
    let index = |name: &str| vars.iter().position(|v| v.name == name).unwrap() + 1;
    // Outputs depend on the inputs they declare and on the 34 declared states (indices after
    // the variables).
    let states: Vec<String> = (vars.len() + 1..=vars.len() + 34).map(|i| i.to_string()).collect();
    let states = states.join(" ");
    let az = format!("<Unknown index=\"{}\" dependencies=\"{states}\"", index("azimuth"));
    assert!(xml.contains(&az), "missing {az}");
    let pot = format!(
        "<Unknown index=\"{}\" dependencies=\"{} {} {} {states}\"",
        index("energy.potential"),
        index("hub.acc.x"),
        index("hub.acc.y"),
        index("hub.acc.z")
    );
    assert!(xml.contains(&pot), "missing {pot}");
}
