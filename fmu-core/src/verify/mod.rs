//! Checks that model crates run in their tests: the exact directional derivatives against
//! finite differences of the outputs, the declared `ModelStructure` against what the outputs
//! really depend on, the declaration layout ([`check_layout`]) and FMU state round trips
//! ([`check_fmu_state_round_trip`]); [`math`], the small algebra of the models' independent test references.

pub mod frequency_response;
pub mod math;

use std::collections::HashSet;
use std::fmt;

use crate::instance::Instance;
use crate::model::Model;
use crate::status::FmiResult;
use crate::variable::{Causality, Feedthrough, Variable};

/// Outcome of [`check_directional_derivatives`].
#[derive(Debug, Clone, Default)]
pub struct DerivativeReport {
    /// Output/input pairs with a declared dependency.
    pub declared_pairs: usize,
    /// Of those, pairs whose derivative is zero at this point (both AD and finite differences).
    pub declared_zero: usize,
    /// Pairs without a declared dependency (their derivative must be exactly zero).
    pub undeclared_pairs: usize,
    /// Largest `|AD - FD|` of a declared pair, relative to the largest FD entry of its column.
    pub worst: f64,
    /// Where `worst` occurred.
    pub worst_pair: String,
    /// Every pair that failed: a declared pair beyond the tolerance, an undeclared pair with a
    /// non-zero AD derivative or whose output moves with the input.
    pub violations: Vec<String>,
}

impl fmt::Display for DerivativeReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} declared output/input pairs ({} zero at this point), worst AD vs FD error {:.2e} of the column ({}); \
             {} undeclared pairs exactly zero; {} violations",
            self.declared_pairs,
            self.declared_zero,
            self.worst,
            self.worst_pair,
            self.undeclared_pairs,
            self.violations.len()
        )
    }
}

impl DerivativeReport {
    /// Prints the report as `what` and asserts that it found no violation and that there were
    /// both declared and undeclared pairs to check.
    pub fn assert_clean(&self, what: &str) {
        eprintln!("{what}: {self}");
        assert!(self.violations.is_empty(), "{what}: {:#?}", self.violations);
        assert!(self.declared_pairs > 0 && self.undeclared_pairs > 0, "{what}: {self}");
    }
}

/// Compares `fmi2GetDirectionalDerivative` of every output with respect to every input against
/// Richardson-extrapolated central differences (fourth order) of the outputs, taken with
/// get-after-set at the instance's current point, and checks the declared feedthrough: declared
/// pairs agree to `tolerance` relative to their column's largest entry, undeclared pairs have an
/// exactly zero AD derivative and outputs that do not move with the input.
///
/// `step(input, value)` is the finite-difference step for an input at its current value.
pub fn check_directional_derivatives<M: Model>(
    inst: &mut Instance<M>,
    step: impl Fn(&Variable, f64) -> f64,
    tolerance: f64,
) -> FmiResult<DerivativeReport> {
    let variables = M::variables();
    let inputs: Vec<&Variable> = variables.iter().filter(|v| v.causality == Causality::Input).collect();
    let outputs: Vec<&Variable> = variables.iter().filter(|v| v.causality == Causality::Output).collect();
    let out_vrs: Vec<u32> = outputs.iter().map(|v| v.vr).collect();
    let n = out_vrs.len();
    let (mut plus, mut minus, mut ad) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    let mut report = DerivativeReport::default();
    for input in inputs {
        let mut u0 = [0.0];
        inst.get_real(&[input.vr], &mut u0)?;
        let delta = step(input, u0[0]);
        let mut central = |d: f64| -> FmiResult<Vec<f64>> {
            inst.set_real(&[input.vr], &[u0[0] + d])?;
            inst.get_real(&out_vrs, &mut plus)?;
            inst.set_real(&[input.vr], &[u0[0] - d])?;
            inst.get_real(&out_vrs, &mut minus)?;
            Ok(plus.iter().zip(&minus).map(|(p, m)| (p - m) / (2.0 * d)).collect())
        };
        let (d1, d2) = (central(delta)?, central(2.0 * delta)?);
        inst.set_real(&[input.vr], &u0)?;
        inst.get_directional_derivative(&out_vrs, &[input.vr], &[1.0], &mut ad)?;
        let fd: Vec<f64> = d1.iter().zip(&d2).map(|(a, b)| (4.0 * a - b) / 3.0).collect();
        let column = fd.iter().fold(0.0_f64, |a, b| a.max(b.abs())).max(1e-300);
        for (k, out) in outputs.iter().enumerate() {
            let declared = matches!(&out.feedthrough, Feedthrough::Inputs(deps) if deps.contains(&input.vr));
            let pair = format!("d {}/d {}: AD {:e}, FD {:e}", out.name, input.name, ad[k], fd[k]);
            if declared {
                report.declared_pairs += 1;
                if ad[k] == 0.0 && fd[k] == 0.0 {
                    report.declared_zero += 1;
                }
                let rel = (ad[k] - fd[k]).abs() / column;
                if rel > report.worst {
                    report.worst = rel;
                    report.worst_pair = pair.clone();
                }
                if rel > tolerance || rel.is_nan() {
                    report.violations.push(format!("{pair} (error {rel:e} of the column)"));
                }
            } else {
                report.undeclared_pairs += 1;
                if ad[k] != 0.0 {
                    report.violations.push(format!("{pair}: AD must be zero, no dependency is declared"));
                } else if fd[k].abs() > 1e-9 * column.max(1.0) {
                    report.violations.push(format!("{pair}: the output moves but no dependency is declared"));
                }
            }
        }
    }
    Ok(report)
}

/// Checks the declaration layout every model crate follows and returns the inputs and outputs of
/// `variables` in declaration order: names and value references are unique, every name of
/// `contract` is declared, every variable has a description, and there are `inputs.0` inputs and
/// `outputs.0` outputs whose value references are `inputs.1 + index` and `outputs.1 + index`
/// (the `u` and `y` orders are declaration orders).
pub fn check_layout<'a>(
    variables: &'a [Variable],
    contract: &[String],
    inputs: (usize, u32),
    outputs: (usize, u32),
) -> (Vec<&'a Variable>, Vec<&'a Variable>) {
    let names: HashSet<&str> = variables.iter().map(|v| v.name.as_str()).collect();
    let refs: HashSet<u32> = variables.iter().map(|v| v.vr).collect();
    assert_eq!(names.len(), variables.len(), "duplicate names");
    assert_eq!(refs.len(), variables.len(), "duplicate value references");
    for n in contract {
        assert!(names.contains(n.as_str()), "contract variable '{n}' missing");
    }
    for v in variables {
        assert!(!v.description.is_empty(), "'{}' has no description", v.name);
    }
    let of = |causality: Causality, (n, base): (usize, u32)| {
        let vars: Vec<&Variable> = variables.iter().filter(|v| v.causality == causality).collect();
        assert_eq!(vars.len(), n, "number of {causality:?} variables");
        for (k, v) in vars.iter().enumerate() {
            assert_eq!(v.vr, base + k as u32, "{}", v.name);
        }
        vars
    };
    (of(Causality::Input, inputs), of(Causality::Output, outputs))
}

/// Checks that an FMU state restores bit for bit: `steps` steps of `h` s from the instance's
/// current point give every output the same bits after `fmi2SetFMUstate` of the state saved at
/// that point, and in a fresh instance after `fmi2SerializeFMUstate` and
/// `fmi2DeSerializeFMUstate`. Leaves `inst` after the restored run; returns the number of
/// outputs compared.
pub fn check_fmu_state_round_trip<M: Model>(inst: &mut Instance<M>, steps: usize, h: f64) -> usize {
    let outputs: Vec<u32> = M::variables().iter().filter(|v| v.causality == Causality::Output).map(|v| v.vr).collect();
    let t = inst.time();
    let saved = inst.get_fmu_state().unwrap();
    let run = |inst: &mut Instance<M>| {
        for n in 0..steps {
            inst.do_step(t + n as f64 * h, h).unwrap();
        }
        let mut values = vec![0.0; outputs.len()];
        inst.get_real(&outputs, &mut values).unwrap();
        values.into_iter().map(f64::to_bits).collect::<Vec<u64>>()
    };
    let first = run(inst);
    inst.set_fmu_state(&saved).unwrap();
    assert_eq!(run(inst), first, "restored run differs");
    let bytes = inst.serialize_fmu_state(&saved).unwrap();
    let mut fresh = Instance::<M>::new("fresh");
    let restored = fresh.deserialize_fmu_state(&bytes).unwrap();
    fresh.set_fmu_state(&restored).unwrap();
    assert_eq!(run(&mut fresh), first, "deserialized run differs");
    outputs.len()
}

/// Value reference of a variable of model `M`, by name. Panics with the name when there is none.
pub fn vr<M: Model>(name: &str) -> u32 {
    M::variables().iter().find(|v| v.name == name).unwrap_or_else(|| panic!("no variable named '{name}'")).vr
}

/// A parameter (or input start) value of any FMI type, for [`Sim`].
#[derive(Debug, Clone, Copy)]
pub enum Val {
    /// Real.
    R(f64),
    /// Integer.
    I(i32),
    /// Boolean.
    B(bool),
}

/// Real value.
pub fn r(v: f64) -> Val {
    Val::R(v)
}

/// Integer value.
pub fn i(v: i32) -> Val {
    Val::I(v)
}

/// Boolean value.
pub fn b(v: bool) -> Val {
    Val::B(v)
}

/// One instance of model `M` driven by variable names, for tests: set values, step, read.
/// Panics (naming the variable or the call) on any FMI error, except [`Sim::try_new`].
pub struct Sim<M: Model> {
    /// The instance under test.
    pub inst: Instance<M>,
}

impl<M: Model> Sim<M> {
    /// Instantiates, sets `params` (parameters and input start values), initialises at t = 0;
    /// `Err` carries the FMI message.
    pub fn try_new(params: &[(&str, Val)]) -> Result<Self, String> {
        Self::try_new_with_strings(params, &[])
    }

    /// As [`Sim::try_new`], with String parameters `strings` (name, value) set first.
    pub fn try_new_with_strings(params: &[(&str, Val)], strings: &[(&str, &str)]) -> Result<Self, String> {
        let mut inst = Instance::<M>::new(&format!("{}-test", M::INFO.model_identifier));
        for &(name, value) in strings {
            inst.set_string(&[vr::<M>(name)], &[value]).map_err(|e| e.to_string())?;
        }
        for &(name, val) in params {
            let r = vr::<M>(name);
            match val {
                Val::R(v) => inst.set_real(&[r], &[v]),
                Val::I(v) => inst.set_integer(&[r], &[v]),
                Val::B(v) => inst.set_boolean(&[r], &[v]),
            }
            .map_err(|e| e.to_string())?;
        }
        inst.setup_experiment(0.0, None).map_err(|e| e.to_string())?;
        inst.enter_initialization_mode().map_err(|e| e.to_string())?;
        inst.exit_initialization_mode().map_err(|e| e.to_string())?;
        Ok(Sim { inst })
    }

    /// As [`Sim::try_new`], panicking on error.
    pub fn new(params: &[(&str, Val)]) -> Self {
        Self::try_new(params).unwrap_or_else(|e| panic!("initialisation failed: {e}"))
    }

    /// Sets a real variable.
    pub fn set(&mut self, name: &str, v: f64) {
        self.inst.set_real(&[vr::<M>(name)], &[v]).unwrap_or_else(|e| panic!("set {name}: {e}"));
    }

    /// Sets `prefix.x/y/z`.
    pub fn set3(&mut self, prefix: &str, v: [f64; 3]) {
        for (k, c) in ["x", "y", "z"].iter().enumerate() {
            self.set(&format!("{prefix}.{c}"), v[k]);
        }
    }

    /// Reads a real variable.
    pub fn get(&mut self, name: &str) -> f64 {
        let mut v = [0.0];
        self.inst.get_real(&[vr::<M>(name)], &mut v).unwrap_or_else(|e| panic!("get {name}: {e}"));
        v[0]
    }

    /// Reads `prefix.x/y/z`.
    pub fn get3(&mut self, prefix: &str) -> [f64; 3] {
        [self.get(&format!("{prefix}.x")), self.get(&format!("{prefix}.y")), self.get(&format!("{prefix}.z"))]
    }

    /// Reads several real variables.
    pub fn get_names<const N: usize>(&mut self, names: [&str; N]) -> [f64; N] {
        names.map(|n| self.get(n))
    }

    /// Current time, s.
    pub fn time(&self) -> f64 {
        self.inst.time()
    }

    /// One communication step of size `h`.
    pub fn step(&mut self, h: f64) {
        let t = self.time();
        self.inst.do_step(t, h).unwrap_or_else(|e| panic!("do_step at {t}: {e}"));
    }

    /// Steps with communication step `h` until `t_end` (a whole number of steps ahead).
    pub fn run_to(&mut self, t_end: f64, h: f64) {
        let n = ((t_end - self.time()) / h).round() as usize;
        for _ in 0..n {
            self.step(h);
        }
    }
}
