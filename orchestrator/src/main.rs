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
use orchestrator::system::SystemDescription;
use orchestrator::trim::{FlightCondition, JacobianMethod, Trimmer};

/// Rotorcraft flight as coupled FMI 2.0 co-simulation units.
#[derive(Parser)]
#[command(version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a coupled system described in JSON and write the results as CSV.
    Run {
        /// System description (JSON): FMUs, connections, experiment, master options, signals.
        system: PathBuf,
        /// Results file (CSV, FMPy-style quoted header, time first).
        #[arg(long, default_value = "results.csv")]
        out: PathBuf,
        /// Also write the run figures (steps, wall time, real-time factor, Newton iterations,
        /// residuals) as JSON.
        #[arg(long)]
        summary_json: Option<PathBuf>,
        /// Also plot the recorded variables over time (SVG, one panel per variable).
        #[arg(long)]
        plot: Option<PathBuf>,
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
        Command::Run { system, out, summary_json, plot, verbose } => {
            run(&system, &out, summary_json.as_deref(), plot.as_deref(), verbose)
        }
        Command::Trim { system, speed, turn_rate, out, summary_json, jacobian, verbose } => {
            let condition = FlightCondition { speed, turn_rate: turn_rate.to_radians() };
            let method = if jacobian == "fd" { JacobianMethod::FiniteDifference } else { JacobianMethod::Broyden };
            trim(&system, condition, method, out.as_deref(), summary_json.as_deref(), verbose)
        }
        Command::Inspect { fmu } => {
            // Reads the description only: works without loading the binary.
            print!("{}", inspect::describe(&read_model_description(&fmu)?));
            Ok(())
        }
        Command::Package { out, lib_dir } => {
            for path in package::package_all(&out, lib_dir.as_deref())? {
                println!("wrote {}", path.display());
            }
            Ok(())
        }
    }
}

fn run(system_path: &Path, out: &Path, summary_json: Option<&Path>, plot: Option<&Path>, verbose: bool) -> Result<()> {
    let description = SystemDescription::from_file(system_path)?;
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
    let results = results.with_context(|| format!("run of {} failed", system_path.display()))?;
    let wall_seconds = started.elapsed().as_secs_f64();

    results.save_csv(out).with_context(|| format!("cannot write {}", out.display()))?;
    let summary = master.summary(wall_seconds);
    println!("{}", summary.to_text());
    println!("results: {} ({} variables)", out.display(), results.names.len());
    if let Some(path) = plot {
        orchestrator::plot::plot_svg(&results, path, &system_path.display().to_string()).map_err(anyhow::Error::msg)?;
        println!("plot: {}", path.display());
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
    println!("{}", trim.to_text());
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
        println!("trimmed system: {} (orchestrator run starts from the trim)", path.display());
    }
    if !trim.converged {
        anyhow::bail!("the trim did not converge to {:.1e} in {} iterations", trim.tolerance, trim.iterations);
    }
    Ok(())
}
