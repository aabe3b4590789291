//! The first PythonFMU instantiation of a process, from several threads at once, each on its
//! own copy of the binary: every copy would start CPython (`Py_Initialize`) if the importer did
//! not serialise it, which crashed the process ("Fatal Python error: memory allocation failed").
//! A test binary of its own, so that this really is the process's first instantiation.

mod import_support;

use std::sync::{Arc, Barrier};

use cosim::import::Fmu;
use import_support::{Collector, build_with_pythonfmu};

const ECHO_PY: &str = r#"
from pythonfmu import Fmi2Causality, Fmi2Slave, Real


class Echo(Fmi2Slave):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.u = 0.0
        self.y = 0.0
        self.register_variable(Real("u", causality=Fmi2Causality.input))
        self.register_variable(Real("y", causality=Fmi2Causality.output))

    def do_step(self, current_time, step_size):
        self.y = self.u + current_time
        return True
"#;

#[test]
fn first_instantiations_from_several_threads() {
    let (_dir, path) = build_with_pythonfmu("Echo", ECHO_PY);
    const THREADS: usize = 4;
    let fmus: Vec<Fmu> = (0..THREADS).map(|_| Fmu::open(&path).unwrap()).collect();
    let barrier = Arc::new(Barrier::new(THREADS));
    std::thread::scope(|scope| {
        for (i, fmu) in fmus.iter().enumerate() {
            let barrier = barrier.clone();
            scope.spawn(move || {
                barrier.wait();
                let mut slave = fmu.instantiate(&format!("echo{i}"), Arc::new(Collector::default())).unwrap();
                slave.setup_experiment(None, 0.0, None).unwrap();
                slave.enter_initialization_mode().unwrap();
                slave.exit_initialization_mode().unwrap();
                let md = fmu.model_description();
                let (u, y) = (md.variable("u").unwrap().value_reference, md.variable("y").unwrap().value_reference);
                for k in 0..20 {
                    let t = k as f64 * 0.1;
                    slave.set_real(&[u], &[i as f64]).unwrap();
                    slave.do_step(t, 0.1, true).unwrap();
                    let mut value = [f64::NAN];
                    slave.get_real(&[y], &mut value).unwrap();
                    assert_eq!(value[0], i as f64 + t);
                }
            });
        }
    });
}
