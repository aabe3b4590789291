//! What the shared command-line options do: changes to a system description and its experiment,
//! the trim asked for before a linearisation, limits on a run, and the FMU cache.

use anyhow::{Context, Result};
use cosim::import::{ExtractionCache, HostOptions};
use cosim::master::FmuCache;
use cosim::system::SystemDescription;
use orchestrator::trim::FlightCondition;

use crate::{ExperimentChanges, SystemChanges, TrimFirst};

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
