//! A third-party FMU: built here with PythonFMU 0.7.0 (from the test environment that
//! `bash scripts/test.sh` creates) and run in-process by our importer. PythonFMU binaries embed
//! CPython without linking libpython, so this also checks that the importer provides it.

use crate::import_support;

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use cosim::import::{CallErrorKind, Fmu, Slave, Status, StepResult};
use import_support::{Collector, build_with_pythonfmu};

/// The model: `y = k u` while `enabled`, a step counter, a label; a step with `u > 1000` is
/// refused (PythonFMU reports `fmi2Discard` when `do_step` returns False).
pub const GAIN_PY: &str = r#"
from pythonfmu import Boolean, Fmi2Causality, Fmi2Slave, Fmi2Variability, Integer, Real, String


class Gain(Fmi2Slave):
    author = "rotorcraft-fmi tests"
    description = "y = k * u while enabled; counts steps"

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.k = 2.0
        self.u = 0.0
        self.y = 0.0
        self.steps = 0
        self.enabled = True
        self.label = "gain"
        self.register_variable(Real("k", causality=Fmi2Causality.parameter, variability=Fmi2Variability.fixed))
        self.register_variable(Real("u", causality=Fmi2Causality.input))
        self.register_variable(Real("y", causality=Fmi2Causality.output))
        self.register_variable(Integer("steps", causality=Fmi2Causality.output, variability=Fmi2Variability.discrete))
        self.register_variable(Boolean("enabled", causality=Fmi2Causality.input, variability=Fmi2Variability.discrete))
        self.register_variable(String("label", causality=Fmi2Causality.parameter, variability=Fmi2Variability.fixed))

    def do_step(self, current_time, step_size):
        if self.u > 1000.0:
            return False
        self.y = self.k * self.u if self.enabled else 0.0
        self.steps += 1
        return True
"#;

/// Builds `Gain.fmu` once per test process.
fn gain_fmu() -> PathBuf {
    static BUILT: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    BUILT.get_or_init(|| build_with_pythonfmu("Gain", GAIN_PY)).1.clone()
}

fn open(path: &Path) -> Fmu {
    Fmu::open(path).unwrap_or_else(|e| panic!("cannot open the PythonFMU FMU: {e}"))
}

fn vr(fmu: &Fmu, name: &str) -> u32 {
    fmu.model_description().variable(name).unwrap().value_reference
}

fn real(slave: &mut Slave, vr: u32) -> f64 {
    let mut v = [f64::NAN];
    slave.get_real(&[vr], &mut v).unwrap();
    v[0]
}

#[test]
fn pythonfmu_description_is_read() {
    let fmu = open(&gain_fmu());
    let md = fmu.model_description();
    assert!(md.generation_tool.as_deref().unwrap().starts_with("PythonFMU 0.7.0"), "{:?}", md.generation_tool);
    assert_eq!(md.co_simulation.model_identifier, "Gain");
    assert_eq!(md.co_simulation.needs_execution_tool, Some(true));
    assert_ne!(md.co_simulation.can_get_and_set_fmu_state, Some(true));
    assert!(!md.get_after_set, "a standard FMU: no rotorcraft-fmi annotation");
    let y = md.index_of("y").unwrap();
    assert_eq!(md.output_dependency(y).unwrap().dependencies, None, "PythonFMU states no dependencies");
    assert_eq!(md.feedthrough_inputs(y).len(), 2, "so every input (u, enabled) counts as feedthrough");
}

/// PythonFMU's description through the model-description schema: text → types → text → types,
/// equal.
#[test]
fn pythonfmu_description_round_trips_through_the_schema() {
    let first = import_support::parse_write_parse(&import_support::description_text(&gain_fmu()));
    assert_eq!(first.model_variables.len(), 6, "k, u, y, steps, enabled, label");
    assert_eq!(first.author.as_deref(), Some("rotorcraft-fmi tests"));
}

/// The third-party aerodynamics FMU of `examples/third-party-aero`, built from its one source,
/// through the schema: text → types → text → types, equal.
#[test]
fn the_third_party_aero_description_round_trips_through_the_schema() {
    let script = import_support::workspace_root().join("examples/third-party-aero/SimpleAero.py");
    let source = std::fs::read_to_string(&script).unwrap_or_else(|e| panic!("{}: {e}", script.display()));
    let (_dir, simple_aero) = build_with_pythonfmu("SimpleAero", &source);
    let document = import_support::parse_write_parse(&import_support::description_text(&simple_aero));
    assert_eq!(document.model_name, "SimpleAero");
    let inputs =
        document.model_variables.iter().filter(|v| v.causality == cosim::import::model_description::Causality::Input);
    assert!(inputs.count() > 0, "SimpleAero takes the blade motion as inputs");
}

/// Two instances with different parameters and inputs, stepped interleaved.
#[test]
fn pythonfmu_instances_step_in_process() {
    let fmu = open(&gain_fmu());
    let logger = Arc::new(Collector::default());
    let (k, u, y, steps, enabled, label) =
        (vr(&fmu, "k"), vr(&fmu, "u"), vr(&fmu, "y"), vr(&fmu, "steps"), vr(&fmu, "enabled"), vr(&fmu, "label"));
    let mut a = fmu.instantiate("gain_a", logger.clone()).unwrap();
    let mut b = fmu.instantiate("gain_b", logger.clone()).unwrap();
    for slave in [&mut a, &mut b] {
        slave.setup_experiment(None, 0.0, None).unwrap();
        slave.enter_initialization_mode().unwrap();
    }
    b.set_real(&[k], &[-0.5]).unwrap();
    b.set_string(&[label], &["second"]).unwrap();
    a.exit_initialization_mode().unwrap();
    b.exit_initialization_mode().unwrap();

    let h = 0.1;
    for i in 0..10 {
        let t = i as f64 * h;
        a.set_real(&[u], &[t + 1.0]).unwrap();
        b.set_real(&[u], &[3.0 * t]).unwrap();
        assert_eq!(a.do_step(t, h, true).unwrap(), StepResult::Complete);
        assert_eq!(b.do_step(t, h, true).unwrap(), StepResult::Complete);
        assert_eq!(real(&mut a, y), 2.0 * (t + 1.0));
        assert_eq!(real(&mut b, y), -0.5 * (3.0 * t));
    }
    let mut counts = [0];
    a.get_integer(&[steps], &mut counts).unwrap();
    assert_eq!(counts, [10]);

    b.set_boolean(&[enabled], &[false]).unwrap();
    b.do_step(1.0, h, true).unwrap();
    assert_eq!(real(&mut b, y), 0.0);
    let mut flags = [true];
    b.get_boolean(&[enabled], &mut flags).unwrap();
    assert_eq!(flags, [false]);
    let mut labels = [String::new()];
    b.get_string(&[label], &mut labels).unwrap();
    assert_eq!(labels[0], "second");

    // A step the model refuses is not an error: PythonFMU (0.7) returns fmi2Discard and reports
    // fmi2Terminated, so the FMU has ended the simulation.
    a.set_real(&[u], &[2000.0]).unwrap();
    assert_eq!(a.do_step(1.0, h, true).unwrap(), StepResult::Terminated);

    // Optional functions the FMU does not declare are refused without calling it.
    let err = a.get_fmu_state().unwrap_err();
    assert_eq!(err.kind, CallErrorKind::NotSupported);
    assert!(err.to_string().contains("gain_a: fmi2GetFMUstate is not provided by this FMU"), "{err}");
    let err = a.get_directional_derivative(&[y], &[u], &[1.0], &mut [0.0]).unwrap_err();
    assert_eq!(err.kind, CallErrorKind::NotSupported);

    a.terminate().unwrap();
    b.terminate().unwrap();
    assert!(logger.messages().iter().all(|m| m.status < Status::Error), "{:?}", logger.messages());
}

/// The Python runtime is found once and shared: a second copy of the FMU opened and run in
/// the same process works too.
#[test]
fn pythonfmu_opened_twice_in_one_process() {
    let path = gain_fmu();
    for round in 0..2 {
        let fmu = open(&path);
        let mut slave = fmu.instantiate(&format!("round{round}"), Arc::new(Collector::default())).unwrap();
        slave.setup_experiment(None, 0.0, None).unwrap();
        slave.enter_initialization_mode().unwrap();
        slave.exit_initialization_mode().unwrap();
        slave.set_real(&[vr(&fmu, "u")], &[4.0]).unwrap();
        slave.do_step(0.0, 1.0, true).unwrap();
        assert_eq!(real(&mut slave, vr(&fmu, "y")), 8.0);
    }
    let runtime = cosim::import::ffi::ensure_python_runtime().unwrap();
    eprintln!("CPython loaded from: {runtime}");
}
