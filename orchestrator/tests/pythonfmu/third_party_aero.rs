//! The aero interface is swappable: `examples/third-party-aero.json` is `flap-response.json`
//! (seed 004 Table 1 rotor on a fixed hub, lag locked, 1-degree collective step) with `Aero.fmu`
//! replaced by a third-party aerodynamics FMU, `examples/third-party-aero/SimpleAero.py`, built
//! here with PythonFMU from that file (the one source; `scripts/test.sh` builds the same file
//! beside the example). Only the system description changes: the aero instance's
//! path and parameters, and the connection to `blade[i].azimuth`, an input SimpleAero does not
//! have. The run completes with a physically sensible response, checked against independent
//! references computed here in closed form:
//!
//! - the steady coning against the static gain of the linear flap equation, `F / K` with `F` the
//!   lift moment per radian of pitch and `K = Omega^2 (I + e S)` (see `flap_response.rs`), `F`
//!   summed over the 10 midpoint stations SimpleAero documents (0.47 % below the exact integral,
//!   which our 20-station Gauss-Legendre Aero reproduces);
//! - the thrust against blade-element theory without inflow for the same stations, lift normal
//!   to the coned blade, `T = nb rho a c / 2 theta Omega^2 sum r_j^2 dx cos(b0)`;
//! - the same against our Aero in `flap-response.json`: the two agree to the quadrature
//!   difference.

use crate::common;
use crate::import_support;

use std::path::{Path, PathBuf};

use common::{param, run_description};
use cosim::master::Results;
use cosim::system::{SignalSpec, SystemDescription};
use import_support::{build_with_pythonfmu, workspace_root};

/// An example with our FMUs and SimpleAero from `simple_aero`.
fn example(name: &str, simple_aero: &Path) -> SystemDescription {
    let mut description = common::example(name);
    for (_, fmu) in &mut description.fmus {
        if fmu.path.as_deref().and_then(Path::file_stem).is_some_and(|s| s == "SimpleAero") {
            fmu.path = Some(simple_aero.to_path_buf());
        }
    }
    description
}

fn last(results: &Results, name: &str) -> f64 {
    *results.column(name).unwrap_or_else(|| panic!("{name} not recorded")).last().unwrap()
}

#[test]
fn third_party_aero_example_cones_and_lifts_as_blade_element_theory() {
    let script = workspace_root().join("examples/third-party-aero/SimpleAero.py");
    let source = std::fs::read_to_string(&script).unwrap_or_else(|e| panic!("{}: {e}", script.display()));
    let (_dir, simple_aero) = build_with_pythonfmu("SimpleAero", &source);
    let theirs_description = example("third-party-aero.json", &simple_aero);
    let ours_description = example("flap-response.json", &PathBuf::new());

    // The swap changes the aero instance only: the rotor and the collective step are the same.
    let (_, rotor_theirs) = theirs_description.fmus.iter().find(|(n, _)| n == "rotor").unwrap();
    let (_, rotor_ours) = ours_description.fmus.iter().find(|(n, _)| n == "rotor").unwrap();
    assert_eq!(rotor_theirs.parameters, rotor_ours.parameters);
    let theta = match &theirs_description.inputs[0].signal {
        SignalSpec::Step { after, .. } => *after,
        other => panic!("{other:?}"),
    };
    let rp = |n: &str| param(&theirs_description, "rotor", n);
    let ap = |n: &str| param(&theirs_description, "aero", n);
    let (nb, omega, e, s, inertia) = (rp("nb"), rp("Omega"), rp("e"), rp("blade.S"), rp("blade.I"));
    let (rho, a, chord, r_tip) = (ap("rho"), ap("a"), ap("chord"), ap("R"));
    assert_eq!(ap("e"), e, "SimpleAero's span starts at the flap hinge");

    let (theirs, master) = run_description(&theirs_description);
    assert!(master.loops().is_empty(), "the blade loads depend on the rotor's states only: no loop");
    let (ours, _) = run_description(&ours_description);

    // SimpleAero's 10 midpoint stations from the hinge (x = r - e) to the tip.
    let n = 10;
    let dx = (r_tip - e) / n as f64;
    let stations = (0..n).map(|j| (j as f64 + 0.5) * dx);
    let (moment_sum, thrust_sum) =
        stations.fold((0.0, 0.0), |(m, t), x| (m + x * (x + e).powi(2) * dx, t + (x + e).powi(2) * dx));
    let k_rho = 0.5 * rho * a * chord;
    let coning_reference = k_rho * omega * omega * moment_sum / (omega * omega * (inertia + e * s)) * theta;

    let coning = last(&theirs, "rotor.blade[1].flap");
    let coning_ours = last(&ours, "rotor.blade[1].flap");
    let thrust = last(&theirs, "aero.thrust");
    let thrust_ours = last(&ours, "aero.thrust");
    let thrust_reference = nb * k_rho * omega * omega * theta * thrust_sum * coning.cos();
    let hub_fz = last(&theirs, "rotor.hub.F.z");
    let coning_error = coning / coning_reference - 1.0;
    let thrust_error = thrust / thrust_reference - 1.0;
    eprintln!(
        "third-party aero: coning {:.5} deg ({coning_error:+.1e} off the linear static gain of its 10 stations; ours \
         {:.5} deg, {:+.2} %), thrust {thrust:.1} N ({thrust_error:+.1e} off blade-element theory; ours {thrust_ours:.1} \
         N, {:+.2} %), hub F.z {hub_fz:.1} N",
        coning.to_degrees(),
        coning_ours.to_degrees(),
        (coning / coning_ours - 1.0) * 100.0,
        (thrust / thrust_ours - 1.0) * 100.0
    );
    assert!(thrust > 0.0 && coning > 0.0, "positive pitch lifts and cones the rotor");
    // As for our Aero in `helicopter/examples.rs`: the nonlinear terms are a few beta^2 ~ 3e-4,
    // the step response has decayed to about 1e-4 by the end; SimpleAero's loads are one step
    // late, which does not change the steady state. Tolerance 2e-3.
    assert!(coning_error.abs() < 2e-3, "coning {coning} vs {coning_reference}");
    assert!(thrust_error.abs() < 2e-3, "thrust {thrust} vs {thrust_reference}");
    // Against our Aero (exact quadrature): the midpoint rule with 10 stations puts the forcing
    // 0.47 % and the thrust 0.22 % low (its error h^2/24 [f'] against the integral).
    assert!((coning / coning_ours - 1.0).abs() < 1e-2, "{coning} vs ours {coning_ours}");
    assert!((thrust / thrust_ours - 1.0).abs() < 1e-2, "{thrust} vs ours {thrust_ours}");
    // The thrust reaches the hub: the hub force (body z down) is minus the thrust, up to the
    // blades' inertia (the response has settled) and the tilt of the lift by the coning.
    assert!((hub_fz / -thrust - 1.0).abs() < 5e-3, "hub F.z {hub_fz} vs thrust {thrust}");
}
