//! System descriptions: which FMUs to load, how to connect them and how to run them, as JSON.
//!
//! Two stages. [`SystemDescription::from_file`] (or [`SystemDescription::from_str`]) parses the
//! JSON and checks what needs no FMU: syntax, unknown or missing fields, instance names, the form
//! of references, that referenced instances exist, the experiment and master numbers.
//! [`SystemDescription::resolve`] then checks the description against each FMU's
//! [`ModelDescription`](crate::import::model_description::ModelDescription) and returns a
//! [`System`], in which every variable is a [`VarRef`] (instance and variable indices), every
//! pattern is expanded and every CSV table is loaded.
//!
//! Every error is a [`SystemError`] naming the JSON field path and what is wrong, e.g.
//! `connections[2].to: unknown variable 'hub.F.q' in instance 'fuselage' (did you mean 'hub.F.x'?)`.
//!
//! # Format
//!
//! ```json
//! {
//!   "fmus": {
//!     "fuselage": { "model": "Fuselage", "parameters": { "mass": 2100, "euler_sequence": 321, "strict_inertia": false } },
//!     "plant":    { "path": "../fmus/Plant.fmu" }
//!   },
//!   "connections": [
//!     { "from": "plant.hub.F.*", "to": "fuselage.hub.F.*" },
//!     "fuselage.hub.acc.* -> plant.hub.acc.*"
//!   ],
//!   "experiment": { "start": 0.0, "stop": 10.0, "step": 0.01 },
//!   "master": { "algorithm": "newton", "tolerance": 1e-10, "max_iterations": 20, "extrapolate_inputs": false, "min_step": 1e-6 },
//!   "inputs": [
//!     { "to": "fuselage.ext.F.x", "signal": { "constant": 100.0 } },
//!     { "to": "fuselage.ext.F.y", "signal": { "step": { "time": 1.0, "before": 0.0, "after": 50.0 } } },
//!     { "to": "fuselage.ext.F.z", "signal": { "table": { "csv": "gust.csv", "column": "Fz" } } },
//!     { "to": "fuselage.ext.M.x", "signal": { "sine": { "amplitude": 1.0, "frequency": 0.5, "phase": 0.0, "offset": 0.0 } } }
//!   ],
//!   "outputs": ["fuselage.x", "fuselage.hub.acc.*", "plant.*"]
//! }
//! ```
//!
//! Unknown fields are errors everywhere (a typo is never ignored). Paths (FMUs, CSV files) are
//! relative to the JSON file's directory, or absolute.
//!
//! - **`fmus`** (required, at least one): instance name → FMU. Instance names are identifiers
//!   (ASCII letters, digits, `_`; not starting with a digit; no dots); the same `.fmu` may be
//!   instantiated under several names. The FMU is named by exactly one of `path` (a `.fmu` file,
//!   relative to the JSON file's directory) and `model` (one of our FMUs by its model identifier,
//!   located by the [`ModelCatalog`] of the [`SystemContext`] it is read in); see
//!   [`SystemDescription::fmu_file`]. `parameters` (optional) sets start
//!   values before initialization: JSON numbers or booleans, checked against the variable's
//!   type (`Real`: a number; `Integer`/`Enumeration`: an integral number in the 32-bit range;
//!   `Boolean`: `true`/`false`); the variable must be a parameter, or an input (to set its start
//!   value). Order is kept as written.
//! - **Variable references** are `instance.variable`, split at the **first** dot:
//!   `fuselage.hub.F.x` is variable `hub.F.x` of instance `fuselage`.
//! - **`connections`** (optional): output → input, as `{"from": ..., "to": ...}` or the string
//!   `"from -> to"`. A `*` in the variable part of `from` matches any run of characters,
//!   possibly empty, dots and brackets included (`plant.wheel[*].angle`, `plant.*`); it selects
//!   the matching **outputs** of the instance, in model-description order, and the `*` of `to`
//!   is replaced by the same text for each. Both sides have the same number of `*`, zero or one.
//!   `from` must be an output, `to` an input of a compatible type (equal, Integer with
//!   Enumeration, or an Integer output to a Real input). A pattern that matches nothing is an error, and so is any target the
//!   replacement names that does not exist. An input is driven by at most one connection or
//!   external input.
//! - **`experiment`** (required): `start` (default 0), `stop` (> start), `step` (communication
//!   step, > 0), all in seconds; at most 1e9 communication points (checked by the master).
//! - **`master`** (optional): `algorithm` `"newton"` (default), `"jacobi"` or `"gauss-seidel"`;
//!   `tolerance` of the coupling residual (default 1e-10, > 0); `max_iterations` per
//!   communication point (default 20, ≥ 1); `extrapolate_inputs` (default false: pass input
//!   derivatives to FMUs that can interpolate inputs); `extrapolation_order` (1, default: slopes
//!   over the last step, linear extrapolation; 2: also second derivatives from the last three
//!   points, quadratic extrapolation, for FMUs that accept `fmi2SetRealInputDerivatives` of
//!   order 2, as ours do; needs `extrapolate_inputs`); `min_step`, the smallest step when a
//!   failed step is retried (default `step / 64`, in (0, step]); `rollback` (default true: save
//!   FMU states before each step so that a failed step can be retried; `false` saves that copy
//!   per step and stops the run at a failed step); `jacobian`, `"reuse"` (default: chord Newton,
//!   loop Newton matrices kept across iterations and points while they contract the residual
//!   tenfold per iteration) or `"every-iteration"` (full Newton); `threads` (default 1, ≥ 1): threads that step, and read the outputs of, FMUs that do not
//!   depend on each other at once, with results identical to one thread.
//! - **`inputs`** (optional): external signals on `Real` inputs that no connection drives; `to`
//!   may be a pattern over the instance's inputs (every match gets the same signal). Signals:
//!   - `{"constant": v}`;
//!   - `{"step": {"time": t0, "before": a, "after": b}}`: `a` for `t < t0`, `b` from `t0` on
//!     (`before` defaults to 0);
//!   - `{"sine": {"amplitude": A, "frequency": f, "phase": p, "offset": c}}`:
//!     `c + A sin(2π f t + p)`, `f` in Hz, `p` in rad (`phase`, `offset` default to 0);
//!   - `{"table": {"csv": "file.csv", "column": "name"}}`: a CSV file with a header row of
//!     column names (optionally double-quoted) and rows of numbers separated by commas; the first
//!     column is the time, strictly increasing; `column` names the value column. Values are
//!     interpolated linearly and the first/last value is held outside the table. Blank lines and
//!     lines starting with `#` are skipped. Errors name the file, the line and the problem.
//! - **`outputs`** (optional): variables to record, as references or patterns, in the order
//!   listed (a pattern's matches in model-description order), duplicates dropped. A pattern
//!   selects the outputs it matches, or, when it matches no output, the inputs it matches (so
//!   `"fuselage.hub.F.*"` records the hub loads); an exact name may be any variable. Without
//!   `outputs`, every output of every instance is recorded.
//! - **application sections** (optional): further top-level sections that the application
//!   reading the description declares in its [`SystemContext`] ([`SystemContext::with_sections`]),
//!   kept as written in [`SystemDescription::sections`] and read with
//!   [`SystemDescription::section`] (such as the orchestrator's own settings, read by the
//!   `rotorcraft` crate). Any other field is an error.
//!
//! # Example
//!
//! ```
//! use cosim::system::{Algorithm, SystemContext, SystemDescription};
//!
//! let json = r#"{
//!     "fmus": { "fuselage": { "path": "Fuselage.fmu", "parameters": { "mass": 2100 } } },
//!     "experiment": { "stop": 1.0, "step": 0.01 },
//!     "inputs": [ { "to": "fuselage.ext.F.z", "signal": { "constant": -20601.0 } } ]
//! }"#;
//! let context = SystemContext::default();
//! let description = SystemDescription::from_str(json, "/data/systems", &context).unwrap();
//! assert_eq!(description.master.algorithm, Algorithm::Newton);
//!
//! let error = SystemDescription::from_str(r#"{"fmus": {}, "experiment": {"stop": 1, "stpe": 0.1}}"#, ".", &context)
//!     .unwrap_err();
//! assert_eq!(error.path, "experiment.stpe");
//! ```

mod catalog;
mod description;
mod error;
mod json_path;
mod names;
mod resolve;
mod signal;

pub use catalog::{CatalogError, FMU_DIR_VARIABLE, FolderCatalog, ModelCatalog, SystemContext, fmu_in_folder};
pub use description::{
    Algorithm, ConnectionParseError, ConnectionSpec, Experiment, FmuSpec, InputSpec, JacobianUpdate, MasterSpec,
    OWN_FIELDS, ParameterSpec, SignalSpec, SystemDescription,
};
pub use error::SystemError;
pub use names::name_matches;
pub use resolve::{Connection, ExternalInput, InstanceSpec, MasterOptions, ParameterValue, System, VarRef};
pub use signal::{CsvError, Signal, Table, TableError};
