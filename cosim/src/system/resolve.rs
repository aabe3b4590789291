//! Stage 2: a [`SystemDescription`] checked against the model descriptions of its FMUs, with
//! every name turned into indices. This file holds the resolved system and the resolution;
//! `resolver.rs` its lookups, `connection.rs` a connection's and a parameter's checks.

mod connection;
mod resolver;

use std::collections::HashSet;
use std::path::{Component, Path, PathBuf};

use crate::import::model_description::{Causality, ModelDescription, ScalarVariable, VarType};

use super::description::{Algorithm, Experiment, FmuSpec, InputSpec, JacobianUpdate, SignalSpec, SystemDescription};
use super::error::SystemError;
use super::names::{Pattern, closest, did_you_mean};
use super::signal::{Signal, Table};
use connection::{parameter_value, resolve_connection};
use resolver::{Drivers, Resolver, causality_name, type_name};

/// A variable of a resolved system.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarRef {
    /// Index into [`System::instances`].
    pub instance: usize,
    /// Index into that instance's [`ModelDescription::variables`].
    pub variable: usize,
}

/// A parameter value converted to the variable's FMI type.
#[derive(Debug, Clone, PartialEq)]
pub enum ParameterValue {
    /// For a `Real` variable.
    Real(f64),
    /// For an `Integer` or `Enumeration` variable.
    Integer(i32),
    /// For a `Boolean` variable.
    Boolean(bool),
    /// For a `String` variable.
    String(String),
}

/// One FMU instance.
#[derive(Debug, Clone, PartialEq)]
pub struct InstanceSpec {
    /// Instance name (the key in `fmus`).
    pub name: String,
    /// Absolute path of the `.fmu` (canonical: links and `..` resolved).
    pub path: PathBuf,
    /// Start values to set before initialization: variable index and value, in document order.
    pub parameters: Vec<(usize, ParameterValue)>,
    /// The FMU's model description, as returned by the `descriptions` function of
    /// [`SystemDescription::resolve`].
    pub description: ModelDescription,
    /// `isolate`: the instance runs in a child process of its own.
    pub isolate: bool,
}

/// A connection from an output to an input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Connection {
    /// The output.
    pub from: VarRef,
    /// The input it drives.
    pub to: VarRef,
}

/// The master algorithm's options, defaults filled in.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MasterOptions {
    /// Coupling algorithm.
    pub algorithm: Algorithm,
    /// Tolerance of the coupling residual.
    pub tolerance: f64,
    /// Iteration limit per communication point.
    pub max_iterations: u32,
    /// Pass input derivatives to FMUs that can interpolate inputs.
    pub extrapolate_inputs: bool,
    /// Highest input derivative passed: 1 (linear extrapolation) or 2 (quadratic).
    pub extrapolation_order: u8,
    /// Smallest communication step when retrying a failed step, s.
    pub min_step: f64,
    /// Save FMU states before each step to retry failed steps.
    pub rollback: bool,
    /// When loop Newton matrices are recomputed.
    pub jacobian: JacobianUpdate,
    /// Threads that step and read independent FMUs at once (1: one after another).
    pub threads: usize,
}

/// An external signal driving an input.
#[derive(Debug, Clone, PartialEq)]
pub struct ExternalInput {
    /// The input (a `Real` input nothing else drives).
    pub to: VarRef,
    /// The signal.
    pub signal: Signal,
}

/// A system description checked against its FMUs: every name is an index, every pattern is
/// expanded, every table is loaded.
#[derive(Debug, Clone, PartialEq)]
pub struct System {
    /// FMU instances in the order of `fmus`.
    pub instances: Vec<InstanceSpec>,
    /// Connections in the order written, each pattern expanded in model-description order of
    /// the `from` instance.
    pub connections: Vec<Connection>,
    /// The simulated interval and communication step.
    pub experiment: Experiment,
    /// Master algorithm options.
    pub master: MasterOptions,
    /// External signals, in the order written (patterns expanded).
    pub inputs: Vec<ExternalInput>,
    /// Variables to record, in order, without duplicates.
    pub outputs: Vec<VarRef>,
}

impl System {
    /// The model variable `r` refers to.
    pub fn variable(&self, r: VarRef) -> &ScalarVariable {
        &self.instances[r.instance].description.variables[r.variable]
    }

    /// `instance.variable`, the name of `r` in system descriptions and result headers.
    pub fn name(&self, r: VarRef) -> String {
        format!("{}.{}", self.instances[r.instance].name, self.variable(r).name)
    }

    /// Index of the instance called `name`.
    pub fn instance(&self, name: &str) -> Option<usize> {
        self.instances.iter().position(|i| i.name == name)
    }

    /// The variable named `instance.variable`, if it exists.
    pub fn var_ref(&self, name: &str) -> Option<VarRef> {
        let (instance, variable) = name.split_once('.')?;
        let instance = self.instance(instance)?;
        let variable = self.instances[instance].description.index_of(variable)?;
        Some(VarRef { instance, variable })
    }

    /// One file name per distinct FMU file, in the order of first use (`<stem>.fmu`, numbered
    /// `<stem>_<k>.fmu` when two files share a stem): the names an SSP or a system FMU archive
    /// gives the FMUs it carries.
    pub fn fmu_file_names(&self) -> Vec<(PathBuf, String)> {
        archive_names(self.instances.iter().map(|instance| instance.path.as_path()))
    }
}

/// One file name per distinct path of `paths`, in the order of first use: `<stem>.fmu`,
/// numbered `<stem>_<k>.fmu` when two files share a stem.
fn archive_names<'a>(paths: impl Iterator<Item = &'a Path>) -> Vec<(PathBuf, String)> {
    let mut names: Vec<(PathBuf, String)> = Vec::new();
    for path in paths {
        if !names.iter().any(|(p, _)| p == path) {
            let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            let mut name = format!("{stem}.fmu");
            let mut k = 1;
            while names.iter().any(|(_, n)| *n == name) {
                k += 1;
                name = format!("{stem}_{k}.fmu");
            }
            names.push((path.to_path_buf(), name));
        }
    }
    names
}

/// Absolute form of `path` with `.` and `..` removed lexically (for messages about missing
/// files, which cannot be canonicalized).
fn lexical_absolute(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut out = PathBuf::new();
    for component in absolute.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

/// Why a file named in a system description cannot be used ([`existing_file`]).
#[derive(Debug, thiserror::Error)]
pub(super) enum FileError {
    /// Nothing at the path (shown absolute).
    #[error("file not found: {}", .0.display())]
    NotFound(PathBuf),
    /// The path cannot be followed (permissions, a file where a folder is expected, ...).
    #[error("cannot access {}: {source}", path.display())]
    Inaccessible {
        /// The path, shown absolute.
        path: PathBuf,
        /// The reason.
        source: std::io::Error,
    },
}

impl FileError {
    /// This error reported at the JSON field `field`.
    pub(super) fn at(&self, field: &str) -> SystemError {
        SystemError::new(field, self.to_string())
    }
}

/// `path`, canonical when the file exists.
pub(super) fn existing_file(path: &Path) -> Result<PathBuf, FileError> {
    std::fs::canonicalize(path).map_err(|source| {
        let path = lexical_absolute(path);
        if source.kind() == std::io::ErrorKind::NotFound {
            FileError::NotFound(path)
        } else {
            FileError::Inaccessible { path, source }
        }
    })
}

impl SystemDescription {
    /// Checks the description against its FMUs and resolves every name to indices.
    ///
    /// `descriptions` is called once per instance, in order, with the FMU's absolute path (after
    /// checking that the file exists) and returns its model description or an error (an
    /// [`ImportError`](crate::import::ImportError), or any error that displays as a message),
    /// which is reported at `fmus.<instance>.path`. Checks, in order: each FMU file exists; its
    /// parameters exist, are parameters or inputs, and have values of the variable's type;
    /// connections name outputs and inputs of compatible types and `*` patterns match; no input
    /// is driven twice (by connections or external inputs); external inputs are `Real` inputs;
    /// CSV tables load; outputs exist.
    pub fn resolve<E: std::fmt::Display>(
        &self,
        mut descriptions: impl FnMut(&Path) -> Result<ModelDescription, E>,
    ) -> Result<System, SystemError> {
        self.validate()?;
        let mut resolver = Resolver { instances: Vec::with_capacity(self.fmus.len()) };
        for (name, fmu) in &self.fmus {
            let instance = self.resolve_instance(name, fmu, &mut descriptions)?;
            resolver.instances.push(instance);
        }
        let mut drivers = Drivers::default();
        let mut connections = Vec::new();
        for (i, spec) in self.connections.iter().enumerate() {
            resolve_connection(&resolver, &mut drivers, &mut connections, i, spec, self)?;
        }
        let mut inputs = Vec::new();
        for (i, input) in self.inputs.iter().enumerate() {
            self.resolve_input(&resolver, &mut drivers, i, input, &mut inputs)?;
        }
        let outputs = self.resolve_outputs(&resolver)?;
        Ok(System {
            instances: resolver.instances,
            connections,
            experiment: self.experiment,
            master: MasterOptions {
                algorithm: self.master.algorithm,
                tolerance: self.master.tolerance,
                max_iterations: self.master.max_iterations,
                extrapolate_inputs: self.master.extrapolate_inputs,
                extrapolation_order: self.master.extrapolation_order,
                min_step: self.master.min_step.unwrap_or(self.experiment.step / 64.0),
                rollback: self.master.rollback,
                jacobian: self.master.jacobian,
                threads: self.master.threads.map_or(1, |n| n as usize),
            },
            inputs,
            outputs,
        })
    }

    /// Instance `name`: its FMU file and model description, its parameters resolved.
    fn resolve_instance<E: std::fmt::Display>(
        &self,
        name: &str,
        fmu: &FmuSpec,
        descriptions: &mut impl FnMut(&Path) -> Result<ModelDescription, E>,
    ) -> Result<InstanceSpec, SystemError> {
        let field = format!("fmus.{name}");
        let path = self.fmu_file(name)?;
        let source = if fmu.model.is_some() { "model" } else { "path" };
        let description =
            descriptions(&path).map_err(|e| SystemError::new(format!("{field}.{source}"), e.to_string()))?;
        let parameters = fmu
            .parameters
            .iter()
            .map(|(parameter, value)| {
                let field = format!("{field}.parameters.{parameter}");
                let variable = description.index_of(parameter).ok_or_else(|| {
                    let suggestion = closest(
                        parameter,
                        description.variables.iter().map(|v| (v.name.as_str(), v.causality == Causality::Parameter)),
                    );
                    SystemError::new(
                        &field,
                        format!("unknown variable '{parameter}' in instance '{name}'{}", did_you_mean(suggestion)),
                    )
                })?;
                let value = parameter_value(&description.variables[variable], value)
                    .map_err(|m| SystemError::new(&field, m))?;
                Ok((variable, value))
            })
            .collect::<Result<Vec<_>, SystemError>>()?;
        Ok(InstanceSpec { name: name.to_string(), path, parameters, description, isolate: fmu.isolate })
    }

    /// External input `i`: its signal driving each Real input its pattern names.
    fn resolve_input(
        &self,
        resolver: &Resolver,
        drivers: &mut Drivers,
        i: usize,
        input: &InputSpec,
        inputs: &mut Vec<ExternalInput>,
    ) -> Result<(), SystemError> {
        let field = format!("inputs[{i}].to");
        let reference = self.reference(&input.to, &field)?;
        let instance = resolver.instance(reference.instance, &field)?;
        let targets = match Pattern::new(reference.variable) {
            Pattern::Exact(name) => vec![resolver.lookup(instance, name, Causality::Input, &field, "")?],
            pattern => {
                let found: Vec<VarRef> =
                    resolver.matches(instance, pattern, Causality::Input).into_iter().map(|(r, _)| r).collect();
                if found.is_empty() {
                    return Err(SystemError::new(&field, resolver.no_match(instance, pattern, &input.to, "input")));
                }
                found
            }
        };
        let signal = self.signal(&input.signal, &format!("inputs[{i}].signal"))?;
        for to in targets {
            let variable = resolver.variable(to);
            if variable.causality != Causality::Input {
                return Err(SystemError::new(
                    &field,
                    format!(
                        "'{}' is {}, not an input; external signals drive inputs only",
                        resolver.name(to),
                        causality_name(variable.causality)
                    ),
                ));
            }
            if variable.var_type != VarType::Real {
                return Err(SystemError::new(
                    &field,
                    format!(
                        "'{}' is {}; external signals drive Real inputs only",
                        resolver.name(to),
                        type_name(variable.var_type)
                    ),
                ));
            }
            drivers.claim(resolver, to, format!("inputs[{i}]"), &field)?;
            inputs.push(ExternalInput { to, signal: signal.clone() });
        }
        Ok(())
    }

    /// The recorded variables: every output when `outputs` is absent, else the listed ones
    /// (patterns match outputs, or inputs when no output matches), each once, in order.
    fn resolve_outputs(&self, resolver: &Resolver) -> Result<Vec<VarRef>, SystemError> {
        let Some(list) = &self.outputs else {
            return Ok(resolver
                .instances
                .iter()
                .enumerate()
                .flat_map(|(instance, spec)| {
                    spec.description
                        .variables
                        .iter()
                        .enumerate()
                        .filter(|(_, v)| v.causality == Causality::Output)
                        .map(move |(variable, _)| VarRef { instance, variable })
                })
                .collect());
        };
        let mut seen = HashSet::new();
        let mut outputs = Vec::new();
        for (i, text) in list.iter().enumerate() {
            let field = format!("outputs[{i}]");
            let reference = self.reference(text, &field)?;
            let instance = resolver.instance(reference.instance, &field)?;
            let found = match Pattern::new(reference.variable) {
                Pattern::Exact(name) => vec![resolver.lookup(instance, name, Causality::Output, &field, "")?],
                pattern => {
                    let mut found = resolver.matches(instance, pattern, Causality::Output);
                    if found.is_empty() {
                        found = resolver.matches(instance, pattern, Causality::Input);
                    }
                    if found.is_empty() {
                        return Err(SystemError::new(
                            &field,
                            resolver.no_match(instance, pattern, text, "output or input"),
                        ));
                    }
                    found.into_iter().map(|(r, _)| r).collect()
                }
            };
            outputs.extend(found.into_iter().filter(|r| seen.insert(*r)));
        }
        Ok(outputs)
    }

    /// The signal of `spec`, loading a CSV table relative to the JSON file's directory.
    fn signal(&self, spec: &SignalSpec, field: &str) -> Result<Signal, SystemError> {
        Ok(match spec {
            SignalSpec::Constant(value) => Signal::Constant(*value),
            SignalSpec::Step { time, before, after } => Signal::Step { time: *time, before: *before, after: *after },
            SignalSpec::Sine { amplitude, frequency, phase, offset } => {
                Signal::Sine { amplitude: *amplitude, frequency: *frequency, phase: *phase, offset: *offset }
            }
            SignalSpec::Table { csv, column } => {
                let path = existing_file(&self.base_dir.join(csv)).map_err(|e| e.at(&format!("{field}.table.csv")))?;
                Signal::Table(
                    Table::from_csv(&path, column)
                        .map_err(|m| SystemError::new(format!("{field}.table"), m.to_string()))?,
                )
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::archive_names;
    use std::path::{Path, PathBuf};

    #[test]
    fn each_distinct_fmu_file_gets_one_name_numbered_where_stems_clash() {
        let paths = ["a/Plant.fmu", "b/Plant.fmu", "a/Plant.fmu", "c/Aero.fmu", "d/Plant.fmu"];
        let names = archive_names(paths.iter().map(Path::new));
        let expected = [("a/Plant.fmu", "Plant.fmu"), ("b/Plant.fmu", "Plant_2.fmu"), ("c/Aero.fmu", "Aero.fmu")]
            .into_iter()
            .chain([("d/Plant.fmu", "Plant_3.fmu")])
            .map(|(p, n)| (PathBuf::from(p), n.to_string()))
            .collect::<Vec<_>>();
        assert_eq!(names, expected);
    }
}
