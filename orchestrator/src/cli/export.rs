//! `orchestrator export`: a system written as an SSP archive or as one system FMU.

use std::path::{Path, PathBuf};

use anyhow::Result;
use cosim::master::FmuCache;
use cosim::system::{System, SystemDescription};

/// What `--fmu` exposes and how the system FMU is built.
pub struct FmuExport {
    /// `--input` patterns.
    pub inputs: Vec<String>,
    /// `--output` patterns.
    pub outputs: Vec<String>,
    /// `--parameter` patterns.
    pub parameters: Vec<String>,
    /// `--model-identifier`.
    pub model_identifier: Option<String>,
    /// `--lib-dir`.
    pub lib_dir: Option<PathBuf>,
}

/// Writes `system` as the SSP archive `ssp` or, without it, as the system FMU `fmu`.
pub fn export(system: &Path, ssp: Option<PathBuf>, fmu: Option<PathBuf>, options: FmuExport) -> Result<()> {
    let out = ssp.as_ref().or(fmu.as_ref()).expect("clap requires one");
    super::outputs::require_json_system(system, "export")?;
    super::outputs::refuse_overwrite(out, system)?;
    let description = rotorcraft::read_system(system)?;
    let mut fmus = FmuCache::default().with_extraction_cache(super::options::extraction_cache());
    let resolved = description.resolve(|path| fmus.open(path).map(|f| f.model_description().clone()))?;
    match ssp {
        Some(ssp) => export_ssp(system, &description, &resolved, &ssp),
        None => export_fmu(system, &resolved, options, out),
    }
}

/// `--ssp`: the SSP archive.
fn export_ssp(system: &Path, description: &SystemDescription, resolved: &System, ssp: &Path) -> Result<()> {
    let report = cosim::ssp::export(system, description, resolved, ssp).map_err(anyhow::Error::msg)?;
    say!(
        "wrote {}: {} components, {} connections, {} parameter bindings ({} of them constant inputs, bound as \
         start values)",
        ssp.display(),
        report.components,
        report.connections,
        report.parameters,
        report.bound_inputs
    );
    say!(
        "kept in the rotorcraft-fmi annotation only (other tools do not see them; OMSimulator reads the step \
         from its own annotation): {}",
        report.annotation_only.join(", ")
    );
    Ok(())
}

/// `--fmu`: the system FMU `out`.
fn export_fmu(system: &Path, resolved: &System, options: FmuExport, out: &Path) -> Result<()> {
    let FmuExport { inputs, outputs, parameters, model_identifier, lib_dir } = options;
    let library = fmu_catalog::system_library(lib_dir.as_deref())?;
    let options = cosim::container::ExportOptions { inputs, outputs, parameters, model_identifier };
    let report = cosim::container::export(system, resolved, &library, &options, out)?;
    let [n_parameters, n_inputs, n_outputs] = report.counts;
    say!(
        "wrote {} (modelIdentifier {}): {} FMUs inside; {n_parameters} parameters, {n_inputs} inputs, \
         {n_outputs} outputs",
        out.display(),
        report.model_identifier,
        report.fmus
    );
    if !report.skipped_outputs.is_empty() {
        say!("not exposed (not Real): {}", report.skipped_outputs.join(", "));
    }
    let step = resolved.experiment.step;
    if let Some(step_ns) = whole_nanoseconds_off(step) {
        say!(
            "note: the system's step {step} s is not a whole number of nanoseconds; importers that count \
             nanoseconds (libcosim) step at {step_ns} ns: the FMU keeps its own grid of {step} s, exact there, \
             and interpolates its outputs linearly between grid points (docs/system-fmu.md, Steps)"
        );
    }
    Ok(())
}

/// The step rounded to whole nanoseconds, when `step` (s) is more than a picosecond away from it.
fn whole_nanoseconds_off(step: f64) -> Option<i64> {
    let ns = step * 1e9;
    ((ns - ns.round()).abs() > 1e-3).then_some(ns.round() as i64)
}

#[cfg(test)]
mod tests {
    use super::whole_nanoseconds_off;

    #[test]
    fn steps_off_whole_nanoseconds_are_named() {
        assert_eq!(whole_nanoseconds_off(0.0019654088), Some(1965409));
        assert_eq!(whole_nanoseconds_off(0.0019654084), Some(1965408));
        for whole in [0.002, 0.001, 0.1, 1e-9, 0.0019654] {
            assert_eq!(whole_nanoseconds_off(whole), None, "{whole}");
        }
    }
}
