//! A section Mach number beyond an airfoil table's Mach range: the coefficients of the nearest
//! Mach column are used (clamped), and the instance logs one warning (status `fmi2Warning`,
//! category `logStatusWarning`) however many evaluations clamp. The table is the linear test
//! table (`cl = 2 pi alpha`, constant `cd`) with its two identical Mach columns at 0 and 0.3:
//! the rotor's outer sections (tip Mach number 0.64 at the defaults `Omega R = 217.5 m/s`,
//! speed of sound 340.294 m/s) lie beyond it, and since the columns are identical the clamped
//! thrust equals the analytic polar's (`a = 2 pi`, `cd2 = 0`) to rounding.

use std::cell::RefCell;
use std::f64::consts::PI;
use std::rc::Rc;

use crate::common::{Sim, i, r, rel, set_hover_collective, vr};
use fmu_aero::Aero;
use fmu_core::{Instance, Status};
use test_fmus::c81::{LINEAR_TABLE_CD, linear_table};

/// Log lines `(status, category, message)` of one instance.
type Log = Rc<RefCell<Vec<(Status, String, String)>>>;

/// An initialised Aero instance with the table of Mach range 0..0.3 and `speed_of_sound`,
/// logging into the returned list.
fn clamping_rotor(speed_of_sound: f64) -> (Sim, Log) {
    let dir = std::env::temp_dir().join(format!("aero-mach-clamp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("mach-0-0.3.c81");
    std::fs::write(&path, linear_table().replace("       0.0 0.9\n", "       0.0 0.3\n")).unwrap();
    let log: Log = Rc::default();
    let sink = Rc::clone(&log);
    let logger = Box::new(move |s: Status, c: &str, m: &str| sink.borrow_mut().push((s, c.into(), m.into())));
    let mut inst = Instance::<Aero>::with_logger("mach-clamp", logger);
    inst.set_string(&[vr("airfoil_file")], &[path.to_str().unwrap()]).unwrap();
    for (name, v) in [("a", 2.0 * PI), ("cd0", LINEAR_TABLE_CD), ("cd2", 0.0), ("speed_of_sound", speed_of_sound)] {
        inst.set_real(&[vr(name)], &[v]).unwrap();
    }
    inst.set_integer(&[vr("airfoil")], &[2]).unwrap();
    inst.set_integer(&[vr("inflow_model")], &[1]).unwrap();
    inst.setup_experiment(0.0, None).unwrap();
    inst.enter_initialization_mode().unwrap();
    inst.exit_initialization_mode().unwrap();
    (Sim { inst }, log)
}

/// Hover thrust (N) at collectives 4, 8 and 12 deg, with a Co-Simulation step after each.
fn hover_thrusts(sim: &mut Sim) -> Vec<f64> {
    [4.0_f64, 8.0, 12.0]
        .iter()
        .map(|&deg| {
            set_hover_collective(sim, deg);
            let thrust = sim.get("thrust");
            let t = sim.inst.time();
            sim.inst.do_step(t, 1e-3).unwrap();
            thrust
        })
        .collect()
}

#[test]
fn a_mach_number_beyond_the_table_is_clamped_with_one_warning_per_instance() {
    let (mut clamped, log) = clamping_rotor(340.294);
    let got = hover_thrusts(&mut clamped);
    let mut analytic =
        Sim::new(&[("a", r(2.0 * PI)), ("cd0", r(LINEAR_TABLE_CD)), ("cd2", r(0.0)), ("inflow_model", i(1))]);
    let want = hover_thrusts(&mut analytic);
    for (g, w) in got.iter().zip(&want) {
        assert!(*w > 1e3 && rel(*g, *w) < 1e-9, "clamped {g} N vs analytic {w} N");
    }
    let warnings: Vec<_> = log.borrow().iter().filter(|(s, _, _)| *s != Status::Ok).cloned().collect();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    let (status, category, message) = &warnings[0];
    assert_eq!((*status, category.as_str()), (Status::Warning, "logStatusWarning"));
    assert!(message.contains("Mach") && message.contains("clamped"), "{message}");
    assert_eq!(message, fmu_aero::aero::MACH_CLAMPED);
}

#[test]
fn a_mach_number_within_the_table_gives_no_warning() {
    // Speed of sound 1000 m/s: tip Mach number 0.22, inside 0..0.3.
    let (mut within, log) = clamping_rotor(1000.0);
    let thrusts = hover_thrusts(&mut within);
    assert!(thrusts.iter().all(|t| *t > 1e3), "{thrusts:?}");
    assert!(log.borrow().iter().all(|(s, _, _)| *s == Status::Ok), "{:?}", log.borrow());
}
