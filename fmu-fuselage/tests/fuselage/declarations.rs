//! Declarations (the design's variable contract, the index and value-reference layout, the
//! feedthrough structure) and parameter validation through the FMI layer. Directional
//! derivatives and FMU state are covered in `fmi_interface.rs`.

use crate::common::{Sim, Val, b, i, r, vr};
use fmu_core::model::Model;
use fmu_core::variable::{Causality, Feedthrough};
use fmu_core::verify::check_layout;
use fmu_fuselage::Fuselage;
use fmu_fuselage::layout::{u, vr as vrs, y};

/// The names the design's variable contract (section 9) promises.
fn contract_names() -> Vec<String> {
    let mut n: Vec<String> = ["mass", "g", "euler_sequence", "dof_mask"].iter().map(|s| s.to_string()).collect();
    for s in ["x0", "y0", "z0", "phi0", "theta0", "psi0", "u0", "v0", "w0", "p0", "q0", "r0"] {
        n.push(s.into());
    }
    for s in ["I.xx", "I.yy", "I.zz", "I.xy", "I.xz", "I.yz"] {
        n.push(s.into());
    }
    for s in ["x", "y", "z", "u", "v", "w", "p", "q", "r", "phi", "theta", "psi", "euler.1", "euler.2", "euler.3"] {
        n.push(s.into());
    }
    for s in ["q.w", "q.x", "q.y", "q.z"] {
        n.push(s.into());
    }
    for c in ["x", "y", "z"] {
        n.push(format!("cg.{c}"));
        for p in ["hub", "tail", "ext"] {
            n.push(format!("{p}.{c}"));
            for v in ["F", "M", "vel", "omega", "acc", "alpha"] {
                n.push(format!("{p}.{v}.{c}"));
            }
        }
    }
    n
}

#[test]
fn declarations_follow_the_contract_and_layout() {
    let vars = Fuselage::variables();
    let (inputs, outputs) = check_layout(&vars, &contract_names(), (u::N, vrs::INPUT_BASE), (y::N, vrs::OUTPUT_BASE));
    assert_eq!(vr("hub.F.x"), 100);
    assert_eq!(vr("tail.M.z"), 100 + 6 + 5);
    assert_eq!(vr("x"), 200);
    assert_eq!(
        vr("ext.alpha.z"),
        vrs::output(y::POINTS + y::PER_POINT * fmu_fuselage::Point::Ext.index() + y::P_ALPHA + 2)
    );
    // Feedthrough: the acc, alpha and free.* outputs, each on all 24 inputs (loads, air), wind.body.*
    // on the three wind inputs, the lifting surfaces' diagnostics on the six air inputs.
    let all_inputs: Vec<u32> = inputs.iter().map(|v| v.vr).collect();
    let wind_inputs: Vec<u32> = ["wind.x", "wind.y", "wind.z"].map(vr).to_vec();
    let air_inputs: Vec<u32> =
        ["wind.x", "wind.y", "wind.z", "air.density", "main_rotor.inflow", "tail_rotor.thrust"].map(vr).to_vec();
    let wind_and_density: Vec<u32> = ["wind.x", "wind.y", "wind.z", "air.density"].map(vr).to_vec();
    for v in &outputs {
        // The fuselage table's angles and loads on the wind and the density.
        if v.name.starts_with("fuselage.") {
            assert!(matches!(&v.feedthrough, Feedthrough::Inputs(deps) if deps == &wind_and_density), "'{}'", v.name);
            continue;
        }
        if v.name.starts_with("wind.body.") {
            assert!(matches!(&v.feedthrough, Feedthrough::Inputs(deps) if deps == &wind_inputs), "'{}'", v.name);
            continue;
        }
        // The lifting surfaces' diagnostics (hs.alpha, fin.alpha: two-part names) on the air inputs.
        if v.name == "wake.skew"
            || v.name.ends_with(".wash_ratio")
            || (v.name.ends_with(".alpha") && v.name.split('.').count() == 2)
        {
            assert!(matches!(&v.feedthrough, Feedthrough::Inputs(deps) if deps == &air_inputs), "'{}'", v.name);
            continue;
        }
        let direct = v.name.contains(".acc.") || v.name.contains(".alpha.") || v.name.starts_with("free.");
        match &v.feedthrough {
            Feedthrough::Inputs(deps) => {
                assert!(direct, "'{}' declares feedthrough", v.name);
                assert_eq!(deps, &all_inputs, "'{}'", v.name);
            }
            Feedthrough::None => assert!(!direct, "'{}' lacks feedthrough", v.name),
        }
    }
}

#[test]
fn bad_parameters_are_rejected_with_their_name() {
    let cases: Vec<(Vec<(&str, Val)>, &str)> = vec![
        (vec![("mass", r(0.0))], "mass"),
        (vec![("mass", r(-5.0))], "mass"),
        (vec![("I.xx", r(-1.0))], "inertia tensor"),
        (vec![("I.xy", r(5000.0))], "positive definite"),
        (vec![("I.zz", r(9000.0))], "triangle"),
        (vec![("euler_sequence", i(124))], "euler_sequence"),
        (vec![("euler_sequence", i(322))], "euler_sequence"),
        (vec![("drag_area", r(-1.0))], "drag_area"),
        (vec![("rho", r(-1.0))], "rho"),
        (vec![("tolerance", r(0.0))], "tolerance"),
        (vec![("tolerance", r(1.0))], "tolerance"),
    ];
    for (params, expected) in cases {
        let err = match Sim::try_new(&params) {
            Ok(_) => panic!("{params:?} accepted"),
            Err(e) => e,
        };
        assert!(err.contains(expected), "{params:?}: message '{err}' does not name '{expected}'");
    }
    // An unrealisable tensor is accepted when strict_inertia is off, but never a non-PD one.
    assert!(Sim::try_new(&[("I.zz", r(9000.0)), ("strict_inertia", b(false))]).is_ok());
    assert!(Sim::try_new(&[("I.xx", r(-1.0)), ("strict_inertia", b(false))]).is_err());
    // A thin plate (Izz = Ixx + Iyy exactly) is physical.
    assert!(Sim::try_new(&[("I.zz", r(1803.0 + 4892.0))]).is_ok());
}

#[test]
fn model_description_lists_feedthrough_of_accelerations() {
    let xml = fmu_core::model_description::<Fuselage>();
    assert!(xml.contains("modelIdentifier=\"Fuselage\""));
    // ModelStructure/Outputs: the index (1-based declaration position) of hub.acc.x with all 18
    // load inputs as dependencies, and x with none; both also depend on the 13 states, declared
    // after the variables (Model Exchange).
    let vars = Fuselage::variables();
    let index = |name: &str| vars.iter().position(|v| v.name == name).unwrap() + 1;
    let inputs: Vec<String> = vars
        .iter()
        .enumerate()
        .filter(|(_, v)| v.causality == Causality::Input)
        .map(|(k, _)| (k + 1).to_string())
        .collect();
    let states: Vec<String> = (vars.len() + 1..=vars.len() + 13).map(|i| i.to_string()).collect();
    let states = states.join(" ");
    let acc = format!("<Unknown index=\"{}\" dependencies=\"{} {states}\"", index("hub.acc.x"), inputs.join(" "));
    let pos = format!("<Unknown index=\"{}\" dependencies=\"{states}\"", index("x"));
    assert!(xml.contains(&acc), "missing {acc}");
    assert!(xml.contains(&pos), "missing {pos}");
}
