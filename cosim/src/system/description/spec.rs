//! The parts of a system description (`fmus`, `connections`, `experiment`, `master`, `inputs`)
//! as serde types, with their defaults and the hand-written deserialisers (parameters,
//! connections, objects in document order).

use std::fmt;
use std::marker::PhantomData;
use std::path::PathBuf;

use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, Visitor};

/// One entry of `fmus`: the FMU, named by exactly one of `path` and `model`, and its parameters.
/// [`SystemDescription::fmu_file`](super::SystemDescription::fmu_file) is the one place that turns either into a file.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FmuSpec {
    /// `path` of a `.fmu` file, relative to the JSON file's directory (or absolute).
    #[serde(default)]
    pub path: Option<PathBuf>,
    /// `model`: one of our own FMUs by its model identifier (e.g. `"Plant"`), found by the
    /// [`ModelCatalog`](crate::system::ModelCatalog) of the description's context.
    #[serde(default)]
    pub model: Option<String>,
    /// `parameters`: name and value, in document order (default: none).
    #[serde(default, deserialize_with = "ordered_map")]
    pub parameters: Vec<(String, ParameterSpec)>,
    /// `isolate`: run this instance in a child process of its own, so that a crash, an `exit()`
    /// or a hang of the FMU ends the run with an error instead of ending the process (default
    /// false; `orchestrator run --isolate` isolates every instance). See
    /// [`crate::import::isolated`].
    #[serde(default)]
    pub isolate: bool,
}

/// A parameter value as written: a JSON number, boolean or string. Its FMI type is decided
/// against the variable in [`SystemDescription::resolve`](super::SystemDescription::resolve).
#[derive(Debug, Clone, PartialEq)]
pub enum ParameterSpec {
    /// A JSON number.
    Number(f64),
    /// A JSON string, for a String parameter.
    Text(String),
    /// A JSON boolean.
    Boolean(bool),
}

impl ParameterSpec {
    /// The value of a command-line assignment `INSTANCE.VARIABLE=VALUE` (`--set`): `true` or
    /// `false` a Boolean, a number a Number (an error where it is not finite), text in double
    /// quotes the text inside (a number or `true` as a String), any other text a Text, for a
    /// String parameter (the resolver refuses it for another type, naming the variable).
    pub fn from_command_line(text: &str) -> Result<ParameterSpec, String> {
        if let Some(quoted) = text.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
            return Ok(ParameterSpec::Text(quoted.to_string()));
        }
        match text {
            "true" => Ok(ParameterSpec::Boolean(true)),
            "false" => Ok(ParameterSpec::Boolean(false)),
            text => match text.parse::<f64>() {
                Ok(v) if v.is_finite() => Ok(ParameterSpec::Number(v)),
                Ok(_) => Err(format!("'{text}' is not a finite number (quote it, \"{text}\", for a String)")),
                Err(_) => Ok(ParameterSpec::Text(text.to_string())),
            },
        }
    }
}

/// One entry of `connections`: `{"from": "a.y", "to": "b.u"}` or `"a.y -> b.u"`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConnectionSpec {
    /// Output reference or pattern, `instance.variable` (at most one `*` in the variable part).
    pub from: String,
    /// Input reference or pattern; its `*` stands for the text the `from` `*` matched.
    pub to: String,
}

impl ConnectionSpec {
    /// Parses the string form `"from -> to"`.
    pub fn parse(text: &str) -> Result<Self, ConnectionParseError> {
        let not_a_connection = || ConnectionParseError { text: text.to_string() };
        let (from, to) = text.split_once("->").ok_or_else(not_a_connection)?;
        let (from, to) = (from.trim(), to.trim());
        if from.is_empty() || to.is_empty() || to.contains("->") {
            return Err(not_a_connection());
        }
        Ok(Self { from: from.to_string(), to: to.to_string() })
    }
}

/// A connection string that is not `"from -> to"` (from [`ConnectionSpec::parse`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{text}' is not a connection \"instance.output -> instance.input\"")]
pub struct ConnectionParseError {
    /// The string as written.
    pub text: String,
}

/// `experiment`: the simulated interval and the communication step.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Experiment {
    /// `start` time, s (default 0).
    #[serde(default)]
    pub start: f64,
    /// `stop` time, s (> start).
    pub stop: f64,
    /// Communication `step`, s (> 0).
    pub step: f64,
}

impl Experiment {
    /// Number of communication steps from start to stop; the last one is shortened to end
    /// exactly at `stop` when `step` does not divide the interval.
    pub fn steps(&self) -> usize {
        ((self.stop - self.start) / self.step - 1e-9).ceil().max(0.0) as usize
    }
}

/// `master.algorithm`: how the coupled FMUs are iterated at a communication point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Algorithm {
    /// `"newton"` (default): Newton on the algebraic loops with directional-derivative Jacobians.
    #[default]
    Newton,
    /// `"jacobi"`: all FMUs step with the inputs of the last communication point.
    Jacobi,
    /// `"gauss-seidel"`: FMUs step in order, each with the newest outputs of the others.
    GaussSeidel,
}

/// `master.jacobian`: when the Newton matrix of a loop is recomputed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum JacobianUpdate {
    /// `"every-iteration"`: full Newton, a fresh matrix from directional derivatives at every
    /// iteration.
    EveryIteration,
    /// `"reuse"` (default): the factorised matrix is kept across iterations and communication
    /// points (chord Newton) and recomputed when an iteration reduces the residual by less
    /// than a factor 10, after a failed step, and in initialization mode. The convergence test
    /// is on the true residual, so the solution meets the same tolerance.
    #[default]
    Reuse,
}

/// `master` as written; defaults filled in, `min_step` still optional.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MasterSpec {
    /// `algorithm` (default `"newton"`).
    #[serde(default)]
    pub algorithm: Algorithm,
    /// `tolerance` of the coupling residual (default 1e-10).
    #[serde(default = "default_tolerance")]
    pub tolerance: f64,
    /// `max_iterations` per communication point (default 20).
    #[serde(default = "default_max_iterations")]
    pub max_iterations: u32,
    /// `extrapolate_inputs`: pass input derivatives to FMUs that can interpolate inputs
    /// (default false).
    #[serde(default)]
    pub extrapolate_inputs: bool,
    /// `extrapolation_order`: 1 (default, linear) or 2 (quadratic: second derivatives too).
    #[serde(default = "default_extrapolation_order")]
    pub extrapolation_order: u8,
    /// `min_step`: smallest step when retrying a failed step (default `experiment.step / 64`).
    #[serde(default)]
    pub min_step: Option<f64>,
    /// `rollback`: save FMU states before every step so a failed step can be retried smaller
    /// (default true; only effective when every FMU can get and set its state). Turning it off
    /// saves the state copy per step; a failed step then stops the run.
    #[serde(default = "default_rollback")]
    pub rollback: bool,
    /// `jacobian`: when loop Newton matrices are recomputed (default `"reuse"`).
    #[serde(default)]
    pub jacobian: JacobianUpdate,
    /// `threads`: threads that step and read independent FMUs at once (default 1; see
    /// docs/performance.md, "Two cores").
    #[serde(default)]
    pub threads: Option<u32>,
}

fn default_extrapolation_order() -> u8 {
    1
}

fn default_rollback() -> bool {
    true
}

fn default_tolerance() -> f64 {
    1e-10
}

fn default_max_iterations() -> u32 {
    20
}

impl Default for MasterSpec {
    fn default() -> Self {
        Self {
            algorithm: Algorithm::default(),
            tolerance: default_tolerance(),
            max_iterations: default_max_iterations(),
            extrapolate_inputs: false,
            extrapolation_order: default_extrapolation_order(),
            min_step: None,
            rollback: default_rollback(),
            jacobian: JacobianUpdate::default(),
            threads: None,
        }
    }
}

/// One entry of `inputs`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InputSpec {
    /// Input reference or pattern (`*` drives every matching input with the same signal).
    pub to: String,
    /// The signal.
    pub signal: SignalSpec,
}

/// A signal as written; `{"constant": 1.0}`, `{"step": {...}}`, `{"sine": {...}}` or
/// `{"table": {...}}`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum SignalSpec {
    /// `constant`: the value.
    Constant(f64),
    /// `step`: `before` until `time`, `after` from then on.
    Step {
        /// Switching time, s.
        time: f64,
        /// Value before `time` (default 0).
        #[serde(default)]
        before: f64,
        /// Value from `time` on.
        after: f64,
    },
    /// `sine`: `offset + amplitude * sin(2 pi frequency t + phase)`.
    Sine {
        /// Amplitude.
        amplitude: f64,
        /// Frequency, Hz.
        frequency: f64,
        /// Phase, rad (default 0).
        #[serde(default)]
        phase: f64,
        /// Offset (default 0).
        #[serde(default)]
        offset: f64,
    },
    /// `table`: a column of a CSV file, interpolated linearly in time.
    Table {
        /// CSV file, relative to the JSON file's directory (or absolute).
        csv: PathBuf,
        /// Name of the value column in the header row.
        column: String,
    },
}

/// Deserializes a JSON object into `(key, value)` pairs in document order, refusing duplicate
/// keys (which serde_json would otherwise let the last one win).
pub(super) fn ordered_map<'de, D, V>(deserializer: D) -> Result<Vec<(String, V)>, D::Error>
where
    D: Deserializer<'de>,
    V: Deserialize<'de>,
{
    struct Ordered<V>(PhantomData<V>);
    impl<'de, V: Deserialize<'de>> Visitor<'de> for Ordered<V> {
        type Value = Vec<(String, V)>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut entries: Vec<(String, V)> = Vec::new();
            while let Some(key) = map.next_key::<String>()? {
                if entries.iter().any(|(k, _)| *k == key) {
                    return Err(de::Error::custom(format_args!("duplicate key '{key}'")));
                }
                let value = map.next_value()?;
                entries.push((key, value));
            }
            Ok(entries)
        }
    }
    deserializer.deserialize_map(Ordered(PhantomData))
}

impl<'de> Deserialize<'de> for ParameterSpec {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Value;
        impl Visitor<'_> for Value {
            type Value = ParameterSpec;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a number, a boolean or a string")
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<ParameterSpec, E> {
                Ok(ParameterSpec::Boolean(v))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<ParameterSpec, E> {
                Ok(ParameterSpec::Number(v as f64))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<ParameterSpec, E> {
                Ok(ParameterSpec::Number(v as f64))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<ParameterSpec, E> {
                Ok(ParameterSpec::Number(v))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<ParameterSpec, E> {
                Ok(ParameterSpec::Text(v.to_string()))
            }
        }
        deserializer.deserialize_any(Value)
    }
}

/// The object form of a connection, with serde's unknown/missing field errors.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ConnectionObject {
    from: String,
    to: String,
}

impl<'de> Deserialize<'de> for ConnectionSpec {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Connection;
        impl<'de> Visitor<'de> for Connection {
            type Value = ConnectionSpec;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a connection \"instance.output -> instance.input\" or {\"from\": ..., \"to\": ...}")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<ConnectionSpec, E> {
                ConnectionSpec::parse(v).map_err(E::custom)
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<ConnectionSpec, A::Error> {
                let ConnectionObject { from, to } =
                    ConnectionObject::deserialize(de::value::MapAccessDeserializer::new(map))?;
                Ok(ConnectionSpec { from, to })
            }
        }
        deserializer.deserialize_any(Connection)
    }
}
