//! The Princeton beam (Dowell and Traybar 1975; `fmu_rotor::beam::princeton`, shared with the
//! runnable example `cargo run --release -p fmu-rotor --example princeton_beam`): flap and lag
//! tip deflection against the published ANSYS beam-element computation quoted in
//! `data/princeton_ansys_beam.csv` (source in its header; the measurements were not found).

use fmu_rotor::beam::NewtonSettings;
use fmu_rotor::beam::princeton::{self, parse_reference};

#[test]
fn princeton_beam_tip_deflections_match_the_published_beam_computation() {
    let beam = princeton::beam(32);
    let settings = NewtonSettings { load_steps: 4, ..NewtonSettings::default() };
    let (mut worst_flap, mut worst_lag) = (0.0_f64, 0.0_f64);
    let reference = parse_reference(include_str!("data/princeton_ansys_beam.csv")).expect("reference table");
    assert_eq!(reference.len(), 14, "two loads x seven angles");
    for point in reference {
        let tip = princeton::tip_deflection(&beam, point.load_n, point.beta_deg.to_radians(), &settings)
            .expect("static solve");
        // Relative to the largest deflection of the load case (the 90 deg flap deflection is
        // about 0.15 and 0.20 m), so that the small components at the ends of the sweep are
        // judged on the scale of the experiment.
        let scale = if point.load_n < 10.0 { 0.146245978 } else { 0.200677707 };
        let (flap_error, lag_error) = ((tip.flap_m - point.flap_m) / scale, (tip.lag_m - point.lag_m) / scale);
        println!(
            "P {} N, beta {:>2.0} deg: flap {:.6} (ref {:.6}), lag {:.6} (ref {:.6}), twist {:.5} rad; errors {flap_error:+.2e}, {lag_error:+.2e}",
            point.load_n, point.beta_deg, tip.flap_m, point.flap_m, tip.lag_m, point.lag_m, tip.twist_rad,
        );
        worst_flap = worst_flap.max(flap_error.abs());
        worst_lag = worst_lag.max(lag_error.abs());
    }
    println!("largest differences (of the load case's largest deflection): flap {worst_flap:.2e}, lag {worst_lag:.2e}");
    assert!(worst_flap < 2e-3 && worst_lag < 2e-3, "flap {worst_flap:e}, lag {worst_lag:e}");
}

/// A malformed reference row is refused with its line and column.
#[test]
fn princeton_reference_parser_names_the_bad_cell() {
    let error = parse_reference("# comment\nload_N,beta_deg,u_lag_m,u_flap_m\n8.896,15,x,0.1\n").unwrap_err();
    assert!(error.contains("line 3, column 3") && error.contains("'x'"), "{error}");
    let error = parse_reference("load_N,beta_deg,u_lag_m,u_flap_m\n8.896,15\n").unwrap_err();
    assert!(error.contains("line 2") && error.contains("2 columns"), "{error}");
}
