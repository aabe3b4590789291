//! What the shared command-line options do: changes to a system description and its experiment,
//! the trim asked for before a linearisation, limits on a run, and the FMU cache.

use std::path::PathBuf;

use anyhow::{Context, Result};
use cosim::import::{ExtractionCache, HostOptions};
use cosim::master::FmuCache;
use cosim::system::SystemDescription;
use orchestrator::trim::FlightCondition;

use clap::Args;

/// `--trim [--speed V] [--turn-rate R]` and `--settle T`: trim or settle first, for `linearize`
/// and `modes` (at every point).
#[derive(Args, Debug, Clone, Default)]
pub struct TrimFirst {
    /// Trim first (needs the system's `trim` section) and linearise about the trim.
    #[arg(long)]
    pub trim: bool,
    /// With --trim: airspeed of level flight, m/s (0: hover).
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true, requires = "trim")]
    pub speed: f64,
    /// With --trim: turn rate of a level coordinated turn, deg/s.
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true, requires = "trim")]
    pub turn_rate: f64,
    /// Co-simulate this many seconds from the start (or the trim) first and linearise about the
    /// state reached: the settled state of a helicopter on its gear with the rotor turning, or
    /// of any system that comes to rest or to a steady rotation (with --floquet, the
    /// revolution starts there).
    #[arg(long, value_name = "SECONDS")]
    pub settle: Option<f64>,
}

/// Changes to a system description given on the command line.
#[derive(Args, Debug, Clone, Default)]
pub struct SystemChanges {
    /// Set a parameter, or replace the signal of a driven input by a constant:
    /// `INSTANCE.VARIABLE=VALUE` (a number, true or false, or text for a String parameter; in
    /// double quotes, `NAME='"2.5"'`, a number or true/false as text); repeatable.
    #[arg(long = "set", value_name = "INSTANCE.VAR=VALUE", allow_hyphen_values = true)]
    pub set: Vec<String>,
}

/// Changes to the experiment and the recording of a run.
#[derive(Args, Debug, Clone, Default)]
pub struct ExperimentChanges {
    /// Start time, s (replaces experiment.start).
    #[arg(long, allow_negative_numbers = true)]
    pub start: Option<f64>,
    /// Stop time, s (replaces experiment.stop).
    #[arg(long, allow_negative_numbers = true)]
    pub stop: Option<f64>,
    /// Communication step, s (replaces experiment.step).
    #[arg(long, allow_negative_numbers = true)]
    pub step: Option<f64>,
    /// Variables to record, as in the JSON `outputs` (`fuselage.*`, `rotor.blade[*].flap`);
    /// repeatable; replaces the system's list.
    #[arg(long = "output", value_name = "PATTERN")]
    pub output: Vec<String>,
    /// Threads that step and read independent FMUs at once (replaces master.threads, default
    /// 1); the results do not depend on it.
    #[arg(long)]
    pub threads: Option<u32>,
}

/// Where and how results are written.
#[derive(Args, Debug, Clone, Default)]
pub struct ResultOptions {
    /// Results file: `.csv` (FMPy-style quoted header, time first; the units go to
    /// `<name>.units.csv` beside it) or `.mat` (MAT v4 trajectory file as written by Dymola and
    /// OpenModelica). Default `results.csv`, or `OUT_DIR/results.csv` for the built-in scenario.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Also write the run figures (steps, wall time, real-time factor, Newton iterations,
    /// residuals) and what was run (system file and hash, options, version) as JSON.
    #[arg(long)]
    pub summary_json: Option<PathBuf>,
    /// Also plot the recorded variables over time (SVG, one panel per variable, units on the axes).
    #[arg(long)]
    pub plot: Option<PathBuf>,
    /// Variables to plot (exact names or one `*`); repeatable; default: every recorded variable.
    #[arg(long = "plot-vars", value_name = "PATTERN")]
    pub plot_vars: Vec<String>,
    /// Plot angles (rad, rad/s, rad/s2) in degrees.
    #[arg(long)]
    pub degrees: bool,
    /// Record only every N-th communication point (and the last), for long runs.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub record_every: u64,
}

impl TrimFirst {
    /// The condition to trim for, if asked.
    pub fn condition(&self) -> Option<FlightCondition> {
        self.trim.then_some(FlightCondition { speed: self.speed, turn_rate: self.turn_rate.to_radians() })
    }
}

impl SystemChanges {
    /// A plot title: `name`, and the changes when there are any.
    pub fn title(&self, name: &str) -> String {
        if self.set.is_empty() { name.to_string() } else { format!("{name} with {}", self.set.join(", ")) }
    }

    /// Applies every `--set` to `description`.
    pub fn apply(&self, description: &mut SystemDescription) -> Result<()> {
        for assignment in &self.set {
            description.set_value(assignment)?;
        }
        Ok(())
    }
}

impl ExperimentChanges {
    /// Applies the experiment and recording options to `description`, and checks it again.
    pub fn apply(&self, description: &mut SystemDescription) -> Result<()> {
        let experiment = &mut description.experiment;
        experiment.start = self.start.unwrap_or(experiment.start);
        experiment.stop = self.stop.unwrap_or(experiment.stop);
        experiment.step = self.step.unwrap_or(experiment.step);
        description.master.threads = self.threads.or(description.master.threads);
        if !self.output.is_empty() {
            description.outputs = Some(self.output.clone());
        }
        description.validate().context("after the command-line changes")?;
        Ok(())
    }
}

/// Limits on a run, and how its FMUs are run.
#[derive(Debug, Clone, Copy, Default)]
pub struct RunLimits {
    /// `--fmu-timeout`: the longest one FMI call may take.
    pub fmu_timeout: Option<std::time::Duration>,
    /// `--isolate`: every instance in a child process.
    pub isolate: bool,
}

impl RunLimits {
    /// The limits of `--fmu-timeout` (checked: positive seconds) and `--isolate`.
    pub fn new(fmu_timeout: Option<f64>, isolate: bool) -> Result<Self> {
        let fmu_timeout = fmu_timeout
            .map(|s| {
                std::time::Duration::try_from_secs_f64(s)
                    .ok()
                    .filter(|d| !d.is_zero())
                    .with_context(|| format!("--fmu-timeout {s}: expected a positive number of seconds"))
            })
            .transpose()?;
        Ok(Self { fmu_timeout, isolate })
    }
}

/// An FMU cache whose isolated instances are served by this executable (`orchestrator
/// fmu-host`), with `timeout` on every call of an isolated instance, extracting through the
/// extraction cache unless it is off ([`extraction_cache`]).
pub fn fmu_cache(timeout: Option<std::time::Duration>) -> FmuCache {
    let fmus = match std::env::current_exe() {
        Ok(executable) => FmuCache::with_host(HostOptions { executable, timeout }),
        Err(_) => FmuCache::default(),
    };
    fmus.with_extraction_cache(extraction_cache())
}

/// Set by `--no-fmu-cache`.
static NO_FMU_CACHE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// `--no-fmu-cache`: every FMU extracted into a temporary directory, as the library does.
pub fn disable_extraction_cache() {
    NO_FMU_CACHE.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// Whether `--no-fmu-cache` was given.
pub fn extraction_cache_disabled() -> bool {
    NO_FMU_CACHE.load(std::sync::atomic::Ordering::Relaxed)
}

/// The commands' extraction cache: the one the environment names (`ROTORCRAFT_FMU_CACHE`,
/// `XDG_CACHE_HOME`, `HOME`), none with `--no-fmu-cache` or `ROTORCRAFT_FMU_CACHE=off`.
pub fn extraction_cache() -> Option<ExtractionCache> {
    if extraction_cache_disabled() { None } else { ExtractionCache::from_env() }
}
