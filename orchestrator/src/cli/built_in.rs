//! `orchestrator run` without a system: the built-in helicopter scenario (package, trim in
//! hover, fly a lateral-cyclic step).

use std::sync::Arc;

use anyhow::{Context, Result};
use cosim::import::FacadeLogger;
use cosim::system::SignalSpec;
use orchestrator::trim::{FlightCondition, JacobianMethod, Trimmer};

use super::options::{RunLimits, fmu_cache};
use super::outputs::{OutputFiles, RunInputs};
use super::run::{RunArgs, run};

/// The built-in scenario: examples/helicopter.json.
const BUILT_IN_HELICOPTER: &str = include_str!("../../../examples/helicopter.json");

/// Lateral-cyclic step of the built-in scenario: size (rad) and time (s).
const BUILT_IN_STEP: (f64, f64) = (0.01, 1.0);

/// Packages our FMUs into `out_dir/fmus`, trims the built-in helicopter in hover, and flies it
/// for 4 s with a lateral-cyclic step (plotted with angles in degrees).
pub fn run_built_in(args: RunArgs) -> Result<()> {
    let limits = RunLimits::new(args.fmu_timeout, args.isolate)?;
    let RunArgs { changes, experiment, mut files, out_dir, verbose, realtime, .. } = args;
    let out_dir = std::path::absolute(&out_dir).with_context(|| format!("bad --out-dir {}", out_dir.display()))?;
    let fmu_dir = out_dir.join("fmus");
    fmu_catalog::package_all(&fmu_dir, None).context("cannot package the built-in scenario's FMUs")?;
    let mut description =
        rotorcraft::system_from_str(BUILT_IN_HELICOPTER, std::env::current_dir()?, &fmu_catalog::context())?;
    description.use_fmus_in(&fmu_dir)?;
    changes.apply(&mut description)?;
    say!("built-in helicopter (examples/helicopter.json), FMUs in {}", fmu_dir.display());
    let out = files.out.take().unwrap_or_else(|| out_dir.join("results.csv"));
    files.plot = files.plot.or_else(|| Some(out_dir.join("plot.svg")));
    files.degrees = true;
    files.summary_json = files.summary_json.or_else(|| Some(out_dir.join("summary.json")));
    let outputs = OutputFiles::new(out, &files)?;
    let trim_path = out_dir.join("trim.json");

    let mut fmus = fmu_cache(None);
    let logger = Arc::new(FacadeLogger::new(verbose));
    let mut trimmer = Trimmer::new(&description, &mut fmus, logger)?;
    let start = trimmer.start_from_system();
    let trim = trimmer.trim(FlightCondition::hover(), start, JacobianMethod::Broyden, |_| {})?;
    say!("{}", trim.to_text());
    anyhow::ensure!(trim.converged, "the hover trim did not converge");
    std::fs::write(&trim_path, serde_json::to_string_pretty(&trim.to_json())? + "\n")
        .with_context(|| format!("cannot write {}", trim_path.display()))?;
    trim.apply(&mut description);

    let (step, at) = BUILT_IN_STEP;
    for input in description.inputs.iter_mut().filter(|i| i.to == "controls.lat_cyclic") {
        if let SignalSpec::Constant(trimmed) = input.signal {
            input.signal = SignalSpec::Step { time: at, before: trimmed, after: trimmed + step };
        }
    }
    description.experiment.start = 0.0;
    description.experiment.stop = 4.0;
    description.outputs = Some(
        [
            "fuselage.phi",
            "fuselage.theta",
            "fuselage.psi",
            "fuselage.p",
            "fuselage.q",
            "fuselage.r",
            "fuselage.v",
            "rotor.blade[1].flap",
            "controls.collective",
            "controls.lon_cyclic",
            "controls.lat_cyclic",
            "controls.pedal",
        ]
        .map(String::from)
        .to_vec(),
    );
    experiment.apply(&mut description)?;
    say!(
        "flying {} s from the trim, lateral cyclic +{:.2} deg at t = {at} s (trim written to {})",
        description.experiment.stop - description.experiment.start,
        step.to_degrees(),
        trim_path.display()
    );
    let inputs = RunInputs::built_in(BUILT_IN_HELICOPTER);
    let title = changes.title("built-in helicopter: hover trim, lateral-cyclic step");
    run(description, &title, &inputs, &outputs, &files, verbose, limits, &realtime)?;
    if let Some(path) = &outputs.summary_json {
        say!("summary: {}", path.display());
    }
    Ok(())
}
