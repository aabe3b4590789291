//! Stage 1: the JSON system description as written, parsed with serde and checked on its own
//! (names, references, numbers), before any FMU is looked at. This file holds the description
//! and its checks; `spec.rs` its parts as serde types.

mod spec;

use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::{Map, Value};

use spec::ordered_map;
pub use spec::{
    Algorithm, ConnectionParseError, ConnectionSpec, Experiment, FmuSpec, InputSpec, JacobianUpdate, MasterSpec,
    ParameterSpec, SignalSpec,
};

use super::SystemContext;
use super::error::SystemError;
use super::json_path::{offset_of, path_at};
use super::names::{Reference, closest, did_you_mean, is_instance_name};
use super::resolve::{FileError, existing_file};

/// A system description as written in JSON (see the [module documentation](super) for the
/// format). Built by [`SystemDescription::from_file`] or [`SystemDescription::from_str`], which
/// also check everything that can be checked without the FMUs; [`SystemDescription::resolve`]
/// checks the rest against the model descriptions. Top-level sections of the application's
/// (declared in the [`SystemContext`] it is read in) are kept as written in
/// [`SystemDescription::sections`]; any other unknown field is an error.
#[derive(Debug, Clone, Deserialize)]
pub struct SystemDescription {
    /// Directory that relative paths (FMUs, CSV tables) are resolved against: the JSON file's
    /// directory.
    #[serde(skip)]
    pub base_dir: PathBuf,
    /// `fmus`: instance name and FMU, in document order.
    #[serde(deserialize_with = "ordered_map")]
    pub fmus: Vec<(String, FmuSpec)>,
    /// `connections` (default: none).
    #[serde(default)]
    pub connections: Vec<ConnectionSpec>,
    /// `experiment`.
    pub experiment: Experiment,
    /// `master` (default: all defaults).
    #[serde(default)]
    pub master: MasterSpec,
    /// `inputs`: external signals on unconnected inputs (default: none).
    #[serde(default)]
    pub inputs: Vec<InputSpec>,
    /// `outputs`: variables to record; `None` records every output of every instance.
    #[serde(default)]
    pub outputs: Option<Vec<String>>,
    /// Where its `"model"` names are found: the context it was read in.
    #[serde(skip)]
    pub context: SystemContext,
    /// The application's sections (declared in its [`SystemContext`]), by name, as written; read
    /// one with [`SystemDescription::section`].
    #[serde(flatten)]
    pub sections: Map<String, Value>,
}

/// The top-level fields of a system description that this library reads; any other top-level
/// field is an application's section (see [`SystemDescription::sections`]).
pub const OWN_FIELDS: [&str; 6] = ["fmus", "connections", "experiment", "master", "inputs", "outputs"];

impl SystemDescription {
    /// Reads and parses the JSON file at `path`; relative paths in it are taken relative to its
    /// directory, `"model"` names are looked up in `context`, and the top-level sections the
    /// context declares (the application's) are kept in [`SystemDescription::sections`].
    /// An `.ssp` archive or `.ssd` file is read as SSP 1.0 ([`crate::ssp::import`]; what it
    /// does not support is logged as warnings).
    pub fn from_file(path: impl AsRef<Path>, context: &SystemContext) -> Result<Self, SystemError> {
        let path = std::path::absolute(path.as_ref()).unwrap_or_else(|_| path.as_ref().to_path_buf());
        if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("ssp") || e.eq_ignore_ascii_case("ssd")) {
            let (description, warnings) =
                crate::ssp::import(&path, context).map_err(|m| SystemError::new("", m.to_string()))?;
            for warning in warnings {
                log::warn!("{}: {warning}", path.display());
            }
            return Ok(description);
        }
        let text = std::fs::read_to_string(&path).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                SystemError::new("", format!("system description not found: {}", path.display()))
            } else {
                SystemError::new("", format!("cannot read system description {}: {e}", path.display()))
            }
        })?;
        let path = std::fs::canonicalize(&path).unwrap_or(path);
        let base_dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        Self::from_str(&text, base_dir, context)
    }

    /// Parses JSON text whose relative paths are relative to `base_dir` and whose `"model"` names
    /// are looked up in `context`, and checks it on its own: instance names, the form of every
    /// reference, that referenced instances exist, the experiment and master numbers. The
    /// top-level sections `context` declares are kept in [`SystemDescription::sections`].
    pub fn from_str(json: &str, base_dir: impl Into<PathBuf>, context: &SystemContext) -> Result<Self, SystemError> {
        let parsed: Result<Self, _> = serde_json::from_str(json);
        // Syntax errors first, then unknown fields (which the sections would take), then the rest.
        if let Err(e) = &parsed
            && (e.is_syntax() || e.is_eof())
        {
            return Err(json_error(json, e));
        }
        let mut known: Vec<&str> = OWN_FIELDS.to_vec();
        known.extend(context.sections().iter().map(String::as_str));
        let mut reader = serde_json::Deserializer::from_str(json);
        KnownFields(&known).deserialize(&mut reader).map_err(|e| json_error(json, &e))?;
        let mut description = parsed.map_err(|e| json_error(json, &e))?;
        description.base_dir = base_dir.into();
        description.context = context.clone();
        description.validate()?;
        Ok(description)
    }

    /// The application section `name` read as a `T` (`None` without the section); an error
    /// names the field in it (`name.field`), without a line and column.
    pub fn section<T: serde::de::DeserializeOwned>(&self, name: &str) -> Result<Option<T>, SystemError> {
        let Some(value) = self.sections.get(name) else { return Ok(None) };
        // Reprinted, so that serde_json's position in the text gives the field path.
        let text = serde_json::to_string_pretty(value).map_err(|e| SystemError::new(name, e.to_string()))?;
        serde_json::from_str(&text).map(Some).map_err(|e| {
            let inner =
                if e.line() == 0 { String::new() } else { path_at(&text, offset_of(&text, e.line(), e.column())) };
            let path = match inner.as_str() {
                "" => name.to_string(),
                _ if inner.starts_with('[') => format!("{name}{inner}"),
                _ => format!("{name}.{inner}"),
            };
            SystemError::new(path, bare_message(&e))
        })
    }

    /// Takes every `model` entry (our own FMUs) from `dir` (as `dir/<model>.fmu`, made absolute)
    /// instead of the default place; `path` entries are kept as written.
    pub fn use_fmus_in(&mut self, dir: &Path) -> Result<(), SystemError> {
        let dir = std::path::absolute(dir)
            .map_err(|e| SystemError::new("", format!("cannot make {} absolute: {e}", dir.display())))?;
        for (_, fmu) in &mut self.fmus {
            if let Some(model) = fmu.model.take() {
                fmu.path = Some(dir.join(format!("{model}.fmu")));
            }
        }
        Ok(())
    }

    /// The `.fmu` file of instance `name`: its `path` joined to [`Self::base_dir`], or its
    /// `model` looked up in the catalog of its [`SystemContext`]. The only place that locates FMUs.
    pub fn fmu_file(&self, name: &str) -> Result<PathBuf, SystemError> {
        let field = format!("fmus.{name}");
        let (_, fmu) = self
            .fmus
            .iter()
            .find(|(n, _)| n == name)
            .ok_or_else(|| SystemError::new(&field, format!("no instance '{name}'")))?;
        match (&fmu.path, &fmu.model) {
            (Some(path), None) => existing_file(&self.base_dir.join(path)).map_err(|e| {
                let mut error = e.at(&format!("{field}.path"));
                if let FileError::NotFound(_) = e {
                    error.message += " (relative paths start at the JSON file's folder; our own FMUs can be named \
                                          by \"model\" instead, or packaged with `orchestrator package --out DIR`)";
                }
                error
            }),
            (None, Some(model)) => {
                let path = self
                    .context
                    .catalog()
                    .fmu_file(model)
                    .map_err(|e| SystemError::new(format!("{field}.model"), e.to_string()))?;
                existing_file(&path).map_err(|e| e.at(&format!("{field}.model")))
            }
            _ => Err(SystemError::new(&field, "name the FMU by exactly one of 'path' and 'model'")),
        }
    }

    /// The value of parameter `name` of `instance` as written, if it is a number.
    pub fn number_parameter(&self, instance: &str, name: &str) -> Option<f64> {
        let (_, fmu) = self.fmus.iter().find(|(n, _)| n == instance)?;
        match fmu.parameters.iter().find(|(n, _)| n == name)? {
            (_, ParameterSpec::Number(v)) => Some(*v),
            _ => None,
        }
    }

    /// Sets (or adds) parameter `name` of `instance` to the number `value`; nothing for an
    /// unknown instance.
    pub fn set_number_parameter(&mut self, instance: &str, name: &str, value: f64) {
        if let Some((_, fmu)) = self.fmus.iter_mut().find(|(n, _)| n == instance) {
            match fmu.parameters.iter_mut().find(|(n, _)| n == name) {
                Some((_, v)) => *v = ParameterSpec::Number(value),
                None => fmu.parameters.push((name.to_string(), ParameterSpec::Number(value))),
            }
        }
    }

    /// Applies one `INSTANCE.VARIABLE=VALUE` assignment (a command line's `--set`): a
    /// variable that an `inputs` entry drives exactly (`"to"` equal to the reference) gets the
    /// constant `VALUE` instead of its signal; any other variable becomes (or stays) a
    /// parameter with that value. `VALUE` is a finite number, `true`, `false` or text for a
    /// String parameter ([`ParameterSpec::from_command_line`]). The variable and the value's
    /// type are checked against the FMU by [`SystemDescription::resolve`].
    pub fn set_value(&mut self, assignment: &str) -> Result<(), SystemError> {
        let field = format!("--set {assignment}");
        let Some((reference, value)) = assignment.split_once('=') else {
            return Err(SystemError::new(field, "expected INSTANCE.VARIABLE=VALUE, e.g. fuselage.mass=2200"));
        };
        let (reference, value) = (reference.trim(), value.trim());
        let value = ParameterSpec::from_command_line(value).map_err(|e| SystemError::new(&field, e))?;
        let parsed = self.reference(reference, &field)?;
        if parsed.stars() != 0 {
            return Err(SystemError::new(field, "name one variable, without '*'"));
        }
        if let Some(input) = self.inputs.iter_mut().find(|i| i.to == reference) {
            let ParameterSpec::Number(v) = value else {
                return Err(SystemError::new(
                    field,
                    format!("'{reference}' is driven by a Real signal: give a number"),
                ));
            };
            input.signal = SignalSpec::Constant(v);
            return Ok(());
        }
        let (instance, variable) = (parsed.instance.to_string(), parsed.variable.to_string());
        let (_, fmu) = self.fmus.iter_mut().find(|(n, _)| *n == instance).expect("reference() checked the instance");
        match fmu.parameters.iter_mut().find(|(n, _)| *n == variable) {
            Some((_, v)) => *v = value,
            None => fmu.parameters.push((variable, value)),
        }
        Ok(())
    }

    /// The checks of [`SystemDescription::from_str`] that need no FMU (run again by
    /// [`SystemDescription::resolve`]).
    pub fn validate(&self) -> Result<(), SystemError> {
        if self.fmus.is_empty() {
            return Err(SystemError::new("fmus", "no FMUs: name at least one instance"));
        }
        for (name, fmu) in &self.fmus {
            if !is_instance_name(name) {
                return Err(SystemError::new(
                    format!("fmus.{name}"),
                    format!(
                        "'{name}' is not an instance name: use letters, digits and '_', not starting with a digit (no dots)"
                    ),
                ));
            }
            match (&fmu.path, &fmu.model) {
                (Some(path), None) if path.as_os_str().is_empty() => {
                    return Err(SystemError::new(format!("fmus.{name}.path"), "empty path"));
                }
                (Some(_), None) => {}
                (None, Some(model)) => {
                    let known = self
                        .context
                        .catalog()
                        .models()
                        .map_err(|e| SystemError::new(format!("fmus.{name}.model"), e.to_string()))?;
                    if !known.contains(model) {
                        let hint = did_you_mean(closest(model, known.iter().map(|k| (k.as_str(), true))));
                        return Err(SystemError::new(
                            format!("fmus.{name}.model"),
                            format!("'{model}' is not one of our FMUs ({}){hint}", known.join(", ")),
                        ));
                    }
                }
                (Some(_), Some(_)) => {
                    return Err(SystemError::new(
                        format!("fmus.{name}"),
                        "give either 'path' (a .fmu file) or 'model' (one of our FMUs), not both",
                    ));
                }
                (None, None) => {
                    let ours =
                        self.context.catalog().models().map(|m| format!(": {}", m.join(", "))).unwrap_or_default();
                    return Err(SystemError::new(
                        format!("fmus.{name}"),
                        format!("missing 'path' (a .fmu file) or 'model' (one of our FMUs{ours})"),
                    ));
                }
            }
        }
        self.validate_numbers()?;
        for (i, c) in self.connections.iter().enumerate() {
            let from = self.reference(&c.from, &format!("connections[{i}].from"))?;
            let to = self.reference(&c.to, &format!("connections[{i}].to"))?;
            if from.stars() != to.stars() {
                return Err(SystemError::new(
                    format!("connections[{i}].to"),
                    format!(
                        "'{}' has {} '*' but 'from' '{}' has {}; both sides need the same number",
                        c.to,
                        to.stars(),
                        c.from,
                        from.stars()
                    ),
                ));
            }
        }
        for (i, input) in self.inputs.iter().enumerate() {
            self.reference(&input.to, &format!("inputs[{i}].to"))?;
        }
        for (i, output) in self.outputs.iter().flatten().enumerate() {
            self.reference(output, &format!("outputs[{i}]"))?;
        }
        Ok(())
    }

    fn validate_numbers(&self) -> Result<(), SystemError> {
        let Experiment { start, stop, step } = self.experiment;
        let bad = |field: &str, message: String| Err(SystemError::new(field, message));
        if !start.is_finite() {
            return bad("experiment.start", format!("must be a finite number, got {start}"));
        }
        if !(stop.is_finite() && stop > start) {
            return bad(
                "experiment.stop",
                format!("must be a finite number greater than experiment.start ({start}), got {stop}"),
            );
        }
        if !(step.is_finite() && step > 0.0) {
            return bad("experiment.step", format!("must be a finite number greater than 0, got {step}"));
        }
        let master = &self.master;
        if !(master.tolerance.is_finite() && master.tolerance > 0.0) {
            return bad(
                "master.tolerance",
                format!("must be a finite number greater than 0, got {}", master.tolerance),
            );
        }
        if master.threads == Some(0) {
            return bad("master.threads", "must be at least 1, got 0".into());
        }
        if master.max_iterations == 0 {
            return bad("master.max_iterations", "must be at least 1, got 0".into());
        }
        if !(1..=2).contains(&master.extrapolation_order) {
            return bad(
                "master.extrapolation_order",
                format!("must be 1 (linear) or 2 (quadratic), got {}", master.extrapolation_order),
            );
        }
        if master.extrapolation_order == 2 && !master.extrapolate_inputs {
            return bad(
                "master.extrapolation_order",
                "2 applies to extrapolated inputs: set extrapolate_inputs to true as well".into(),
            );
        }
        if let Some(min_step) = master.min_step
            && !(min_step.is_finite() && min_step > 0.0 && min_step <= step)
        {
            return bad(
                "master.min_step",
                format!("must be greater than 0 and at most experiment.step ({step}), got {min_step}"),
            );
        }
        Ok(())
    }

    /// Parses a reference at `field`, checks its instance exists and that it has at most one `*`.
    pub(crate) fn reference<'a>(&self, text: &'a str, field: &str) -> Result<Reference<'a>, SystemError> {
        let reference = Reference::parse(text).map_err(|m| SystemError::new(field, m))?;
        if !self.fmus.iter().any(|(name, _)| name == reference.instance) {
            let suggestion = closest(reference.instance, self.fmus.iter().map(|(n, _)| (n.as_str(), true)));
            return Err(SystemError::new(
                field,
                format!("unknown instance '{}' in '{text}'{}", reference.instance, did_you_mean(suggestion)),
            ));
        }
        if reference.stars() > 1 {
            return Err(SystemError::new(
                field,
                format!("'{text}' has {} '*'; a pattern may have at most one", reference.stars()),
            ));
        }
        Ok(reference)
    }
}

/// The top-level field names a system description may have: an unknown one is the error serde
/// gives for an unknown field, where it stands (the values are read by [`SystemDescription`]).
struct KnownFields<'a>(&'a [&'a str]);

impl<'de> DeserializeSeed<'de> for KnownFields<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for KnownFields<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("struct SystemDescription")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<String>()? {
            if !self.0.contains(&key.as_str()) {
                let expected: Vec<String> = self.0.iter().map(|k| format!("`{k}`")).collect();
                return Err(de::Error::custom(format!(
                    "unknown field `{key}`, expected one of {}",
                    expected.join(", ")
                )));
            }
            map.next_value::<IgnoredAny>()?;
        }
        Ok(())
    }
}

/// A serde_json error's message without its position, quotes as `'`.
fn bare_message(error: &serde_json::Error) -> String {
    let full = error.to_string();
    full.strip_suffix(&format!(" at line {} column {}", error.line(), error.column()))
        .unwrap_or(&full)
        .replace('`', "'")
}

/// A serde_json error as a [`SystemError`] at the field path where it happened.
fn json_error(json: &str, error: &serde_json::Error) -> SystemError {
    let (line, column) = (error.line(), error.column());
    let bare = bare_message(error);
    let path = if line == 0 { String::new() } else { path_at(json, offset_of(json, line, column)) };
    let message = match error.classify() {
        serde_json::error::Category::Syntax | serde_json::error::Category::Eof => {
            format!("JSON syntax error at line {line}, column {column}: {bare}")
        }
        serde_json::error::Category::Data if line > 0 => format!("{bare} (line {line}, column {column})"),
        _ => bare,
    };
    SystemError::new(path, message)
}
