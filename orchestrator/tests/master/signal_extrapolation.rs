//! With `extrapolate_inputs`, an external signal reaches an FMU that can interpolate inputs with
//! its own slope: a force ramp from a CSV table is followed exactly within each step (not one
//! step late), so the airframe's velocity matches the closed-form integral of the ramp.

use crate::common;

#[test]
fn table_ramp_is_extrapolated_with_its_own_slope() {
    let dir = tempfile::tempdir().unwrap();
    // F/m = t (m/s^2) for t < 1 s, then held at 1 m/s^2.
    std::fs::write(dir.path().join("ramp.csv"), "\"time\",\"Fx\"\n0.0,0.0\n1.0,2100.0\n2.0,2100.0\n").unwrap();
    let fuselage = common::our_fmu("Fuselage");
    let json = format!(
        r#"{{ "fmus": {{ "fuselage": {{ "path": {fuselage:?}, "parameters": {{ "mass": 2100.0, "g": 0.0 }} }} }},
             "experiment": {{ "stop": 2.0, "step": 0.05 }},
             "master": {{ "extrapolate_inputs": true }},
             "inputs": [ {{ "to": "fuselage.ext.F.x", "signal": {{ "table": {{ "csv": "ramp.csv", "column": "Fx" }} }} }} ],
             "outputs": ["fuselage.u"] }}"#
    );
    let (results, _) = common::run(common::system(&json, dir.path())).unwrap();
    let u = results.column("fuselage.u").unwrap();
    let exact = |t: f64| if t <= 1.0 { 0.5 * t * t } else { 0.5 + (t - 1.0) };
    let worst = results.time.iter().zip(&u).map(|(&t, &u)| (u - exact(t)).abs()).fold(0.0, f64::max);
    eprintln!("ramp force, extrapolated with the signal's slope: max |u error| {worst:e} m/s");
    assert!(worst < 1e-9, "max velocity error {worst:e}");
}

/// A `step` signal switching between communication points switches at its own time, as in FMPy
/// (which ends a step on an input event): the step in which it falls is cut there. A force
/// stepping to `F/m = 1` at 0.35 s on a 0.1 s grid gives the airframe the closed-form velocity
/// `u = max(0, t - 0.35)`, not `max(0, t - 0.4)`; only the grid points are recorded.
#[test]
fn a_step_between_communication_points_switches_at_its_time() {
    let dir = tempfile::tempdir().unwrap();
    let fuselage = common::our_fmu("Fuselage");
    for options in [r#"{ }"#, r#"{ "extrapolate_inputs": true }"#, r#"{ "algorithm": "jacobi" }"#] {
        let json = format!(
            r#"{{ "fmus": {{ "fuselage": {{ "path": {fuselage:?}, "parameters": {{ "mass": 2100.0, "g": 0.0 }} }} }},
                 "experiment": {{ "stop": 1.0, "step": 0.1 }},
                 "master": {options},
                 "inputs": [ {{ "to": "fuselage.ext.F.x", "signal": {{ "step": {{ "time": 0.35, "after": 2100.0 }} }} }} ],
                 "outputs": ["fuselage.u"] }}"#
        );
        let (results, master) = common::run(common::system(&json, dir.path())).unwrap();
        assert_eq!(results.time.len(), 11, "{options}: the grid points only: {:?}", results.time);
        let u = results.column("fuselage.u").unwrap();
        for (&t, &u) in results.time.iter().zip(&u) {
            let exact = (t - 0.35).max(0.0);
            assert!((u - exact).abs() < 1e-9, "master {options}: u({t}) = {u}, closed form {exact}");
        }
        assert_eq!(master.summary(0.0).steps, 10);
    }
}
