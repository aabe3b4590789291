//! The master's step hook (`Master::set_step_hook`): called before and after every macro step
//! of the grid, in order, and able to replace an external signal that then drives that step.

use std::sync::{Arc, Mutex};

use cosim::master::StepHook;
use cosim::system::Signal;

use crate::common;

/// The hook's calls: which, and its two times (`after`: the time twice).
type Calls = Arc<Mutex<Vec<(&'static str, f64, f64)>>>;

/// Notes every call and, before the step from `switch_at`, replaces signal 0 by `value`.
struct Recorder {
    calls: Calls,
    switch_at: f64,
    value: f64,
}

impl StepHook for Recorder {
    fn before_step(&mut self, time: f64, target: f64, signals: &mut [Signal]) -> bool {
        self.calls.lock().unwrap().push(("before", time, target));
        let switch = (time - self.switch_at).abs() < 1e-9;
        if switch {
            signals[0] = Signal::Constant(self.value);
        }
        switch
    }

    fn after_step(&mut self, time: f64) {
        self.calls.lock().unwrap().push(("after", time, time));
    }
}

#[test]
fn the_hook_sees_every_step_and_a_signal_it_replaces_drives_that_step() {
    let fuselage = common::our_fmu("Fuselage");
    let json = format!(
        r#"{{ "fmus": {{ "fuselage": {{ "path": {fuselage:?}, "parameters": {{ "mass": 1000 }} }} }},
              "experiment": {{ "stop": 0.5, "step": 0.1 }},
              "inputs": [{{ "to": "fuselage.ext.F.x", "signal": {{ "constant": 0 }} }}],
              "outputs": ["fuselage.ext.F.x", "fuselage.u"] }}"#
    );
    let mut master = common::master(common::system(&json, std::path::Path::new("."))).unwrap();
    let calls = Arc::new(Mutex::new(Vec::new()));
    master.set_step_hook(Box::new(Recorder { calls: calls.clone(), switch_at: 0.2, value: 500.0 }));
    let results = master.run(|_| {}).unwrap();
    // before(t_k, t_k+1), after(t_k+1) for k = 0..4, in order.
    let calls = calls.lock().unwrap();
    assert_eq!(calls.len(), 10);
    for (k, pair) in calls.chunks(2).enumerate() {
        let (t0, t1) = (0.1 * k as f64, 0.1 * (k + 1) as f64);
        assert!(pair[0].0 == "before" && (pair[0].1 - t0).abs() < 1e-12 && (pair[0].2 - t1).abs() < 1e-12, "{pair:?}");
        assert!(pair[1].0 == "after" && (pair[1].1 - t1).abs() < 1e-12, "{pair:?}");
    }
    // 500 N on 1000 kg from t = 0.2 s: u(0.5) = 0.5 m/s^2 * 0.3 s. The row at 0.2 s was recorded
    // before the hook replaced the signal there.
    let force = results.column("fuselage.ext.F.x").unwrap();
    assert_eq!(force, [0.0, 0.0, 0.0, 500.0, 500.0, 500.0]);
    let u = results.column("fuselage.u").unwrap();
    assert!((u[5] - 0.15).abs() < 1e-9 && u[2] == 0.0, "{u:?}");
}
