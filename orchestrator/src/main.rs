//! `orchestrator`: the command-line front end of the rotorcraft co-simulation toolkit.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use orchestrator::import::{StderrLogger, inspect, read_model_description};
use orchestrator::master::{FmuCache, Master};
use orchestrator::package;
use orchestrator::system::{SignalSpec, SystemDescription};
use orchestrator::trim::{FlightCondition, JacobianMethod, Trimmer};

/// `println!` that does not panic when stdout is closed (`orchestrator run | head -1`): the
/// message is dropped and the work goes on, so results and summaries are still written.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

/// Rotorcraft flight as coupled FMI 2.0 co-simulation units.
#[derive(Parser)]
#[command(version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a coupled system described in JSON and write the results as CSV. Without a system:
    /// the built-in helicopter (examples/helicopter.json) is packaged, trimmed in hover and flown
    /// for 4 s with a lateral-cyclic step, writing results, plot, trim and summary into --out-dir.
    Run {
        /// System description (JSON): FMUs, connections, experiment, master options, signals.
        /// Omit it for the built-in helicopter scenario.
        system: Option<PathBuf>,
        /// Results file (CSV, FMPy-style quoted header, time first); default `results.csv`, or
        /// `OUT_DIR/results.csv` for the built-in scenario.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Also write the run figures (steps, wall time, real-time factor, Newton iterations,
        /// residuals) as JSON.
        #[arg(long)]
        summary_json: Option<PathBuf>,
        /// Also plot the recorded variables over time (SVG, one panel per variable).
        #[arg(long)]
        plot: Option<PathBuf>,
        /// Output folder of the built-in scenario (FMUs, trim, results, plot, summary).
        #[arg(long, default_value = "out")]
        out_dir: PathBuf,
        /// Print every FMU message, not only warnings and errors.
        #[arg(long)]
        verbose: bool,
    },
    /// Trim a system for a steady flight condition (hover, level flight, level turn): find the
    /// controls and airframe attitude at which the revolution-averaged airframe accelerations
    /// vanish with the rotor in periodic steady state. Needs a `trim` section in the system.
    Trim {
        /// System description (JSON) with a `trim` section.
        system: PathBuf,
        /// Airspeed of level flight, m/s (0: hover).
        #[arg(long, default_value_t = 0.0)]
        speed: f64,
        /// Turn rate of a level coordinated turn, deg/s (positive: to the right).
        #[arg(long, default_value_t = 0.0)]
        turn_rate: f64,
        /// Write the trimmed system description here: `orchestrator run` on it starts from the trim.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Also write the trim figures (controls, attitude, residual, iterations, trials,
        /// revolutions, wall time) as JSON.
        #[arg(long)]
        summary_json: Option<PathBuf>,
        /// Jacobian updates: `broyden` (differenced once, then rank-one updates) or `fd`
        /// (re-differenced every iteration; for comparison).
        #[arg(long, default_value = "broyden", value_parser = ["broyden", "fd"])]
        jacobian: String,
        /// Print every FMU message, not only warnings and errors.
        #[arg(long)]
        verbose: bool,
    },
    /// List an FMU's model description: capabilities, variables, output dependencies.
    Inspect {
        /// The `.fmu` file.
        fmu: PathBuf,
    },
    /// Write our FMUs (Fuselage.fmu, ...) as standard FMI 2.0 Co-Simulation archives.
    Package {
        /// Output directory; created if missing.
        #[arg(long, default_value = "fmus")]
        out: PathBuf,
        /// Directory holding the built shared libraries (default: next to this executable).
        #[arg(long)]
        lib_dir: Option<PathBuf>,
    },
}

fn main() -> std::process::ExitCode {
    // Errors are printed as their cause chain, one line, without a backtrace.
    match dispatch(Cli::parse()) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn dispatch(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Run { system: Some(system), out, summary_json, plot, out_dir: _, verbose } => {
            let description = SystemDescription::from_file(&system)?;
            let out = out.unwrap_or_else(|| PathBuf::from("results.csv"));
            let label = system.display().to_string();
            run(description, &label, &out, summary_json.as_deref(), plot.as_deref(), verbose)
        }
        Command::Run { system: None, out, summary_json, plot, out_dir, verbose } => {
            run_built_in(&out_dir, out, summary_json, plot, verbose)
        }
        Command::Trim { system, speed, turn_rate, out, summary_json, jacobian, verbose } => {
            let condition = FlightCondition { speed, turn_rate: turn_rate.to_radians() };
            let method = if jacobian == "fd" { JacobianMethod::FiniteDifference } else { JacobianMethod::Broyden };
            trim(&system, condition, method, out.as_deref(), summary_json.as_deref(), verbose)
        }
        Command::Inspect { fmu } => {
            // Reads the description only: works without loading the binary.
            let description = inspect::describe(&read_model_description(&fmu)?);
            say!("{}", description.trim_end());
            Ok(())
        }
        Command::Package { out, lib_dir } => {
            for path in package::package_all(&out, lib_dir.as_deref())? {
                say!("wrote {}", path.display());
            }
            Ok(())
        }
    }
}

fn run(
    description: SystemDescription,
    label: &str,
    out: &Path,
    summary_json: Option<&Path>,
    plot: Option<&Path>,
    verbose: bool,
) -> Result<()> {
    let mut fmus = FmuCache::default();
    let system = description
        .resolve(|path| fmus.open(path).map(|f| f.model_description().clone()).map_err(|e| e.to_string()))?;
    let steps = system.experiment.steps() as u64;
    let logger = Arc::new(StderrLogger::new(verbose));
    let mut master = Master::new(system, &mut fmus, logger)?;

    let bar = ProgressBar::new(steps);
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {bar:40} {pos}/{len} steps  t = {msg} s  ETA {eta}",
        )
        .expect("valid template"),
    );
    let started = Instant::now();
    let results = master.run(|t| {
        bar.inc(1);
        bar.set_message(format!("{t:.4}"));
    });
    bar.finish_and_clear();
    let results = results.with_context(|| format!("run of {label} failed"))?;
    let wall_seconds = started.elapsed().as_secs_f64();

    results.save_csv(out).with_context(|| format!("cannot write {}", out.display()))?;
    let summary = master.summary(wall_seconds);
    say!("{}", summary.to_text());
    say!("results: {} ({} variables)", out.display(), results.names.len());
    if let Some(path) = plot {
        orchestrator::plot::plot_svg(&results, path, label).map_err(anyhow::Error::msg)?;
        say!("plot: {}", path.display());
    }
    if let Some(path) = summary_json {
        let text = serde_json::to_string_pretty(&summary.to_json())?;
        std::fs::write(path, text + "\n").with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

fn trim(
    system_path: &Path,
    condition: FlightCondition,
    method: JacobianMethod,
    out: Option<&Path>,
    summary_json: Option<&Path>,
    verbose: bool,
) -> Result<()> {
    let description = SystemDescription::from_file(system_path)?;
    let mut fmus = FmuCache::default();
    let logger = Arc::new(StderrLogger::new(verbose));
    let mut trimmer = Trimmer::new(&description, &mut fmus, logger).map_err(anyhow::Error::msg)?;
    let start = trimmer.start_from_system();
    let bar = ProgressBar::new_spinner();
    bar.set_style(ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}").expect("valid template"));
    let trim = trimmer
        .trim(condition, start, method, |p| {
            bar.set_message(format!(
                "iteration {}: residual {:.2e}, {} trials, {} revolutions",
                p.iteration, p.residual, p.trials, p.revolutions
            ));
            bar.tick();
        })
        .map_err(anyhow::Error::msg)
        .with_context(|| format!("trim of {} failed", system_path.display()))?;
    bar.finish_and_clear();
    say!("{}", trim.to_text());
    if let Some(path) = summary_json {
        let text = serde_json::to_string_pretty(&trim.to_json())?;
        std::fs::write(path, text + "\n").with_context(|| format!("cannot write {}", path.display()))?;
    }
    if let Some(path) = out {
        let text = std::fs::read_to_string(system_path)?;
        let mut json: serde_json::Value = serde_json::from_str(&text)?;
        trim.apply_json(&mut json, &description.base_dir).map_err(anyhow::Error::msg)?;
        std::fs::write(path, serde_json::to_string_pretty(&json)? + "\n")
            .with_context(|| format!("cannot write {}", path.display()))?;
        say!("trimmed system: {} (orchestrator run starts from the trim)", path.display());
    }
    if !trim.converged {
        anyhow::bail!("the trim did not converge to {:.1e} in {} iterations", trim.tolerance, trim.iterations);
    }
    Ok(())
}

/// The built-in scenario: examples/helicopter.json.
const BUILT_IN_HELICOPTER: &str = include_str!("../../examples/helicopter.json");

/// Lateral-cyclic step of the built-in scenario: size (rad) and time (s).
const BUILT_IN_STEP: (f64, f64) = (0.01, 1.0);

/// Packages our FMUs into `out_dir/fmus`, trims the built-in helicopter in hover, and flies it
/// for 4 s with a lateral-cyclic step.
fn run_built_in(
    out_dir: &Path,
    out: Option<PathBuf>,
    summary_json: Option<PathBuf>,
    plot: Option<PathBuf>,
    verbose: bool,
) -> Result<()> {
    let fmu_dir = out_dir.join("fmus");
    package::package_all(&fmu_dir, None).context("cannot package the built-in scenario's FMUs")?;
    let mut description = SystemDescription::from_str(BUILT_IN_HELICOPTER, &fmu_dir)?;
    description.use_fmus_in(&fmu_dir)?;
    say!("built-in helicopter (examples/helicopter.json), FMUs in {}", fmu_dir.display());

    let mut fmus = FmuCache::default();
    let logger = Arc::new(StderrLogger::new(verbose));
    let mut trimmer = Trimmer::new(&description, &mut fmus, logger).map_err(anyhow::Error::msg)?;
    let start = trimmer.start_from_system();
    let trim =
        trimmer.trim(FlightCondition::hover(), start, JacobianMethod::Broyden, |_| {}).map_err(anyhow::Error::msg)?;
    say!("{}", trim.to_text());
    anyhow::ensure!(trim.converged, "the hover trim did not converge");
    let trim_path = out_dir.join("trim.json");
    std::fs::write(&trim_path, serde_json::to_string_pretty(&trim.to_json())? + "\n")?;
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
    say!(
        "flying 4 s from the trim, lateral cyclic +{:.2} deg at t = {at} s (trim written to {})",
        step.to_degrees(),
        trim_path.display()
    );
    let out = out.unwrap_or_else(|| out_dir.join("results.csv"));
    let plot = plot.unwrap_or_else(|| out_dir.join("plot.svg"));
    let summary_json = summary_json.unwrap_or_else(|| out_dir.join("summary.json"));
    run(
        description,
        "built-in helicopter: hover trim, lateral-cyclic step",
        &out,
        Some(&summary_json),
        Some(&plot),
        verbose,
    )?;
    say!("summary: {}", summary_json.display());
    Ok(())
}
