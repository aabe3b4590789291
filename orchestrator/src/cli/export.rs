//! `orchestrator export`: a system written as an SSP archive or as one system FMU.

use std::path::{Path, PathBuf};

use anyhow::Result;
use clap::Args;
use cosim::master::FmuCache;
use cosim::system::{System, SystemDescription};

/// The options of `orchestrator export`.
#[derive(Args, Debug, Clone)]
#[command(group(clap::ArgGroup::new("format").required(true).args(["ssp", "fmu"])))]
pub struct ExportArgs {
    /// System description (JSON).
    pub system: PathBuf,
    /// The `.ssp` archive to write.
    #[arg(long)]
    pub ssp: Option<PathBuf>,
    /// The system FMU to write.
    #[arg(long)]
    pub fmu: Option<PathBuf>,
    /// System FMU: inner inputs to expose, `instance.variable` with `*` (repeatable; default:
    /// the inputs the system's `inputs` drive).
    #[arg(long = "input", value_name = "PATTERN", requires = "fmu")]
    pub inputs: Vec<String>,
    /// System FMU: values to expose as outputs (repeatable; default: the recorded `outputs`).
    #[arg(long = "output", value_name = "PATTERN", requires = "fmu")]
    pub outputs: Vec<String>,
    /// System FMU: inner parameters to expose (repeatable; default: none).
    #[arg(long = "parameter", value_name = "PATTERN", requires = "fmu")]
    pub parameters: Vec<String>,
    /// System FMU: its modelIdentifier (default: the JSON file's name).
    #[arg(long, requires = "fmu")]
    pub model_identifier: Option<String>,
    /// System FMU: folder of libRotorcraftSystem.so (default: beside this executable).
    #[arg(long, requires = "fmu")]
    pub lib_dir: Option<PathBuf>,
}

/// Writes `args.system` as the SSP archive `args.ssp` or, without it, as the system FMU `args.fmu`.
pub fn export(args: ExportArgs) -> Result<()> {
    let ExportArgs { system, ssp, fmu, inputs, outputs, parameters, model_identifier, lib_dir } = args;
    let system = system.as_path();
    let out = ssp.as_ref().or(fmu.as_ref()).expect("clap requires one");
    super::outputs::require_json_system(system, "export")?;
    super::outputs::refuse_overwrite(out, system)?;
    let description = rotorcraft::read_system(system, &fmu_catalog::context())?;
    let mut fmus = FmuCache::default().with_extraction_cache(super::options::extraction_cache());
    let resolved = description.resolve(|path| fmus.open(path).map(|f| f.model_description().clone()))?;
    match ssp {
        Some(ssp) => export_ssp(system, &description, &resolved, &ssp),
        None => {
            let options = fmu_system::ExportOptions { inputs, outputs, parameters, model_identifier };
            export_fmu(system, &resolved, &options, lib_dir.as_deref(), out)
        }
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

/// `--fmu`: the system FMU `out`, with the master library of `lib_dir` (`--lib-dir`).
fn export_fmu(
    system: &Path,
    resolved: &System,
    options: &fmu_system::ExportOptions,
    lib_dir: Option<&Path>,
    out: &Path,
) -> Result<()> {
    let library = fmu_catalog::system_library(lib_dir)?;
    let report = fmu_system::export(system, resolved, &library, options, out)?;
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
