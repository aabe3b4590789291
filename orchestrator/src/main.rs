//! `orchestrator`: the command-line front end of the rotorcraft co-simulation toolkit.
#![deny(unsafe_code)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result};
use clap::{Args, Parser, Subcommand};
use cli::outputs::{OutputFiles, RunInputs};
use cli::progress::Progress;
use cosim::import::{HostOptions, StderrLogger, host, inspect, process, read_model_description};
use cosim::master::{FmuCache, Master, Results};

use cosim::result_files::column_infos;
use cosim::system::{SignalSpec, SystemDescription};
use orchestrator::plot::{PlotOptions, plot_svg};
use orchestrator::trim::{FlightCondition, JacobianMethod, RESIDUAL_NAMES, Trimmer, start_residual};

/// `println!` that does not panic when stdout is closed (`orchestrator run | head -1`): the
/// message is dropped and the work goes on, so results and summaries are still written.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

mod cli;

/// Rotorcraft flight as coupled FMI 2.0 co-simulation units.
#[derive(Parser)]
#[command(version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a coupled system described in JSON and write the results. Without a system: the
    /// built-in helicopter (examples/helicopter.json) is packaged, trimmed in hover and flown
    /// for 4 s with a lateral-cyclic step, writing results, plot, trim and summary into --out-dir.
    Run {
        /// System description (JSON): FMUs, connections, experiment, master options, signals.
        /// Omit it for the built-in helicopter scenario.
        system: Option<PathBuf>,
        #[command(flatten)]
        changes: SystemChanges,
        #[command(flatten)]
        experiment: ExperimentChanges,
        #[command(flatten)]
        files: ResultOptions,
        /// Output folder of the built-in scenario (FMUs, trim, results, plot, summary); relative
        /// to the current directory.
        #[arg(long, default_value = "out")]
        out_dir: PathBuf,
        /// Print every FMU message, not only warnings and errors.
        #[arg(long)]
        verbose: bool,
        /// End the process (exit code 124) when one FMI call takes longer than this, s: the
        /// message names the instance, the function and the time; the CSV rows computed so far
        /// are kept (a .mat file is not written). For isolated instances the call's process is
        /// killed instead and the run ends with an ordinary error (results and summary written).
        #[arg(long, value_name = "SECONDS")]
        fmu_timeout: Option<f64>,
        /// Run every FMU instance in a child process of its own (as `"isolate": true` on each
        /// entry of `fmus` does): a crash, `exit()` or hang of an FMU ends the run with an error
        /// naming the instance, the function and the time, with results and summary written.
        #[arg(long)]
        isolate: bool,
    },
    /// Trim a system for a steady flight condition (hover, level flight, level turn): find the
    /// controls and airframe attitude at which the revolution-averaged airframe accelerations
    /// vanish with the rotor in periodic steady state. Needs a `trim` section in the system.
    Trim {
        /// System description (JSON) with a `trim` section.
        system: PathBuf,
        /// Airspeed of level flight, m/s (0: hover).
        #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
        speed: f64,
        /// Turn rate of a level coordinated turn, deg/s (positive: to the right).
        #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
        turn_rate: f64,
        #[command(flatten)]
        changes: SystemChanges,
        /// Write the trimmed system description here: `orchestrator run` on it starts from the
        /// trim. Refused when the trim does not converge.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Also write the trim figures (controls, attitude, residual, iterations, trials,
        /// revolutions, wall time) as JSON.
        #[arg(long)]
        summary_json: Option<PathBuf>,
        /// Jacobian updates: `broyden` (differenced once, then rank-one updates), `linearized`
        /// (from the linearised system, exact directional derivatives of the FMUs as Model
        /// Exchange, then rank-one updates: no trials spent on it) or `fd` (re-differenced every
        /// iteration; for comparison).
        #[arg(long, default_value = "broyden", value_parser = ["broyden", "fd", "linearized"])]
        jacobian: String,
        /// Print every FMU message, not only warnings and errors.
        #[arg(long)]
        verbose: bool,
    },
    /// Linearise a system about its start (or a trim): the state-space model `x' = A x + B u`,
    /// `y = C x + D u` of the coupled system with the algebraic loop eliminated exactly, from
    /// the FMUs' exact directional derivatives (they must offer Model Exchange), and its
    /// eigenvalues with frequency, damping and the name of the dominant states. Writes OUT (JSON)
    /// and OUT with extension .mat (MAT v4: A, B, C, D, names).
    Linearize {
        /// System description (JSON).
        system: PathBuf,
        /// The JSON file to write; the MAT file goes beside it.
        #[arg(long, default_value = "lin.json")]
        out: PathBuf,
        /// An external input of the system (`instance.variable`, as in its `inputs`) to keep as
        /// a model input; repeatable; default: all of them (for the helicopter, the pilot
        /// controls).
        #[arg(long = "input", value_name = "INSTANCE.VAR")]
        inputs: Vec<String>,
        #[command(flatten)]
        trim: TrimFirst,
        /// Keep the states that take no part (unused blades, locked hinges, inflow states the
        /// chosen inflow model does not use); by default they are removed and listed.
        #[arg(long, conflicts_with = "multiblade")]
        keep_inert: bool,
        /// Also write the frequency response from INPUT (one of the model's inputs) to OUTPUT (a
        /// recorded output): OUT.bode.csv and the Bode diagram OUT.bode.svg, 0.01 to 30 Hz;
        /// repeatable.
        #[arg(long = "bode", value_name = "INPUT:OUTPUT")]
        bode: Vec<String>,
        /// Also compute the Floquet exponents of the periodic system over one rotor revolution
        /// from this many linearisations along the co-simulated trajectory (forward flight,
        /// where the multiblade system stays periodic): printed and written as `floquet`.
        #[arg(long, value_name = "SAMPLES")]
        floquet: Option<usize>,
        /// Express the blade states of every rotor with 3 or more blades in multiblade
        /// coordinates (collective, cyclic, differential): time-invariant in hover and axial
        /// flight, and the cyclic modes named regressive or progressive.
        #[arg(long)]
        multiblade: bool,
        #[command(flatten)]
        changes: SystemChanges,
        /// Print every FMU message, not only warnings and errors.
        #[arg(long)]
        verbose: bool,
    },
    /// The modes of a system (as `linearize` computes them) at one point or over a parameter
    /// sweep: DIR/modes.csv (eigenvalue, frequency, damping, mode name per point), the eigenvalue
    /// map or root locus DIR/eigenvalues.svg, and for a sweep DIR/frequency-damping.svg
    /// (frequency and damping of each mode against the swept parameter: the ground-resonance
    /// chart when the rotor speed is swept).
    Modes {
        /// System description (JSON).
        system: PathBuf,
        /// Output folder; created if missing.
        #[arg(long, default_value = "modes")]
        out: PathBuf,
        /// A parameter and its values, `INSTANCE.PARAM=V1,V2,...`; repeatable: several are varied
        /// together (the same number of values each), the first is the chart's axis.
        #[arg(long = "sweep", value_name = "INSTANCE.PARAM=V1,V2,...")]
        sweeps: Vec<String>,
        #[command(flatten)]
        trim: TrimFirst,
        /// Blade states in multiblade coordinates (see `linearize`).
        #[arg(long)]
        multiblade: bool,
        #[command(flatten)]
        changes: SystemChanges,
        /// Print every FMU message, not only warnings and errors.
        #[arg(long)]
        verbose: bool,
    },
    /// Run or trim a system at many points (a grid, a list or random samples of parameters,
    /// trim conditions or experiment settings), each in its own process, `--jobs` at a time;
    /// resumable; writes DIR/sweep.csv (a row per point), DIR/sweep.svg and DIR/points/<id>/.
    Sweep {
        /// Sweep file (JSON): system, work (`run` or `trim`), grid / list / random points.
        sweep: PathBuf,
        /// Output folder.
        #[arg(long)]
        out: PathBuf,
        /// Points run at the same time (default: the number of cores).
        #[arg(long)]
        jobs: Option<usize>,
        /// Only collect the finished points into sweep.csv and the plot (after a Slurm run).
        #[arg(long)]
        gather: bool,
        /// Submit the points as a Slurm job array (`sbatch`) of this many tasks instead of running them here.
        #[arg(long, value_name = "TASKS")]
        slurm: Option<usize>,
        /// Options passed to `sbatch` (e.g. `--sbatch-option=--partition=short`); repeatable.
        #[arg(long = "sbatch-option", value_name = "OPTION", allow_hyphen_values = true)]
        sbatch_options: Vec<String>,
        /// Run only every CHUNKS-th point from CHUNK (what one Slurm array task does).
        #[arg(long, requires = "chunks")]
        chunk: Option<usize>,
        /// Number of chunks (Slurm array tasks).
        #[arg(long, requires = "chunk")]
        chunks: Option<usize>,
    },
    /// Write a system for other tools: as an SSP 1.0 archive (`--ssp`: SystemStructure.ssd and the
    /// FMUs; `orchestrator run X.ssp` reads it back) or as one FMI 2.0 Co-Simulation FMU (`--fmu`:
    /// our Newton master inside, the FMUs as resources).
    #[command(group(clap::ArgGroup::new("format").required(true).args(["ssp", "fmu"])))]
    Export {
        /// System description (JSON).
        system: PathBuf,
        /// The `.ssp` archive to write.
        #[arg(long)]
        ssp: Option<PathBuf>,
        /// The system FMU to write.
        #[arg(long)]
        fmu: Option<PathBuf>,
        /// System FMU: inner inputs to expose, `instance.variable` with `*` (repeatable; default:
        /// the inputs the system's `inputs` drive).
        #[arg(long = "input", value_name = "PATTERN", requires = "fmu")]
        inputs: Vec<String>,
        /// System FMU: values to expose as outputs (repeatable; default: the recorded `outputs`).
        #[arg(long = "output", value_name = "PATTERN", requires = "fmu")]
        outputs: Vec<String>,
        /// System FMU: inner parameters to expose (repeatable; default: none).
        #[arg(long = "parameter", value_name = "PATTERN", requires = "fmu")]
        parameters: Vec<String>,
        /// System FMU: its modelIdentifier (default: the JSON file's name).
        #[arg(long, requires = "fmu")]
        model_identifier: Option<String>,
        /// System FMU: folder of libRotorcraftSystem.so (default: beside this executable).
        #[arg(long, requires = "fmu")]
        lib_dir: Option<PathBuf>,
    },
    /// List an FMU's model description: capabilities, variables, output dependencies.
    Inspect {
        /// The `.fmu` file.
        fmu: PathBuf,
    },
    /// Serve one isolated FMU instance on standard input (a socket made by the parent
    /// orchestrator); started by `run --isolate`, not by hand.
    #[command(hide = true)]
    FmuHost,
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

/// `--trim [--speed V] [--turn-rate R]` and `--settle T`: trim or settle first, for `linearize`
/// and `modes` (at every point).
#[derive(Args, Debug, Clone, Default)]
struct TrimFirst {
    /// Trim first (needs the system's `trim` section) and linearise about the trim.
    #[arg(long)]
    trim: bool,
    /// With --trim: airspeed of level flight, m/s (0: hover).
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true, requires = "trim")]
    speed: f64,
    /// With --trim: turn rate of a level coordinated turn, deg/s.
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true, requires = "trim")]
    turn_rate: f64,
    /// Co-simulate this many seconds from the start (or the trim) first and linearise about the
    /// state reached: the settled state of a helicopter on its gear with the rotor turning, or
    /// of any system that comes to rest or to a steady rotation (with --floquet, the
    /// revolution starts there).
    #[arg(long, value_name = "SECONDS")]
    settle: Option<f64>,
}

impl TrimFirst {
    /// The condition to trim for, if asked.
    fn condition(&self) -> Option<FlightCondition> {
        self.trim.then_some(FlightCondition { speed: self.speed, turn_rate: self.turn_rate.to_radians() })
    }
}

/// Changes to a system description given on the command line.
#[derive(Args, Debug, Clone, Default)]
struct SystemChanges {
    /// Set a parameter, or replace the signal of a driven input by a constant:
    /// `INSTANCE.VARIABLE=VALUE` (a number, true or false); repeatable.
    #[arg(long = "set", value_name = "INSTANCE.VAR=VALUE", allow_hyphen_values = true)]
    set: Vec<String>,
}

/// Changes to the experiment and the recording of a run.
#[derive(Args, Debug, Clone, Default)]
struct ExperimentChanges {
    /// Start time, s (replaces experiment.start).
    #[arg(long, allow_negative_numbers = true)]
    start: Option<f64>,
    /// Stop time, s (replaces experiment.stop).
    #[arg(long, allow_negative_numbers = true)]
    stop: Option<f64>,
    /// Communication step, s (replaces experiment.step).
    #[arg(long, allow_negative_numbers = true)]
    step: Option<f64>,
    /// Variables to record, as in the JSON `outputs` (`fuselage.*`, `rotor.blade[*].flap`);
    /// repeatable; replaces the system's list.
    #[arg(long = "output", value_name = "PATTERN")]
    output: Vec<String>,
    /// Threads that step and read independent FMUs at once (replaces master.threads, default
    /// 1); the results do not depend on it.
    #[arg(long)]
    threads: Option<u32>,
}

/// Where and how results are written.
#[derive(Args, Debug, Clone, Default)]
pub struct ResultOptions {
    /// Results file: `.csv` (FMPy-style quoted header, time first; the units go to
    /// `<name>.units.csv` beside it) or `.mat` (MAT v4 trajectory file as written by Dymola and
    /// OpenModelica). Default `results.csv`, or `OUT_DIR/results.csv` for the built-in scenario.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Also write the run figures (steps, wall time, real-time factor, Newton iterations,
    /// residuals) and what was run (system file and hash, options, version) as JSON.
    #[arg(long)]
    summary_json: Option<PathBuf>,
    /// Also plot the recorded variables over time (SVG, one panel per variable, units on the axes).
    #[arg(long)]
    plot: Option<PathBuf>,
    /// Variables to plot (exact names or one `*`); repeatable; default: every recorded variable.
    #[arg(long = "plot-vars", value_name = "PATTERN")]
    plot_vars: Vec<String>,
    /// Plot angles (rad, rad/s, rad/s2) in degrees.
    #[arg(long)]
    degrees: bool,
    /// Record only every N-th communication point (and the last), for long runs.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    record_every: u64,
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    if let Command::FmuHost = cli.command {
        // The parent reports how this process ends; no crash reporter here.
        return std::process::ExitCode::from(u8::try_from(host::serve_stdin()).unwrap_or(1));
    }
    // A crash inside an FMU names the instance, the FMI function and the time before the process
    // dies of it.
    process::install_crash_reporter();
    // `"model": "Rotor"` names our FMUs, packaged from the built libraries on first use.
    fmu_catalog::install();
    // Errors are printed as their cause chain, one line, without a backtrace.
    match dispatch(cli) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", error_text(&e));
            // Interrupted: 128 + the signal number, as a shell reports a process the signal ended.
            match process::interrupt_requested() {
                Some(signal) => std::process::ExitCode::from((128 + signal) as u8),
                None => std::process::ExitCode::FAILURE,
            }
        }
    }
}

/// The error and its causes on one line, each cause once: most of our errors already include
/// their source's text (`cannot read X: No such file or directory`), which `{:#}` would print a
/// second time.
fn error_text(error: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in error.chain() {
        let part = cause.to_string();
        if text.contains(&part) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&part);
    }
    text
}

fn dispatch(cli: Cli) -> Result<()> {
    match cli.command {
        Command::FmuHost => anyhow::bail!("fmu-host is started by `run --isolate`"),
        Command::Run {
            system: Some(system),
            changes,
            experiment,
            mut files,
            out_dir: _,
            verbose,
            fmu_timeout,
            isolate,
        } => {
            let mut description = SystemDescription::from_file(&system)?;
            changes.apply(&mut description)?;
            experiment.apply(&mut description)?;
            let out = files.out.take().unwrap_or_else(|| PathBuf::from("results.csv"));
            let inputs = RunInputs::from_file(&system)?;
            let title = changes.title(&system.display().to_string());
            let outputs = OutputFiles::new(out, &files)?;
            let limits = RunLimits::new(fmu_timeout, isolate)?;
            run(description, &title, &inputs, &outputs, &files, verbose, limits)
        }
        Command::Run { system: None, changes, experiment, files, out_dir, verbose, fmu_timeout, isolate } => {
            run_built_in(&out_dir, &changes, &experiment, files, verbose, RunLimits::new(fmu_timeout, isolate)?)
        }
        Command::Trim { system, speed, turn_rate, changes, out, summary_json, jacobian, verbose } => {
            let condition = FlightCondition { speed, turn_rate: turn_rate.to_radians() };
            let method = match jacobian.as_str() {
                "fd" => JacobianMethod::FiniteDifference,
                "linearized" => JacobianMethod::Linearized,
                _ => JacobianMethod::Broyden,
            };
            trim(&system, condition, method, &changes, out.as_deref(), summary_json.as_deref(), verbose)
        }
        Command::Linearize { system, out, inputs, trim, keep_inert, multiblade, bode, floquet, changes, verbose } => {
            let request = cli::linear::LinearRequest {
                system_path: &system,
                inputs: &inputs,
                condition: trim.condition(),
                settle: trim.settle,
                keep_inert,
                multiblade,
                changes: &changes,
                verbose,
            };
            cli::linear::linearize(&request, &out, &bode, floquet)
        }
        Command::Modes { system, out, sweeps, trim, multiblade, changes, verbose } => {
            let request = cli::linear::LinearRequest {
                system_path: &system,
                inputs: &[],
                condition: trim.condition(),
                settle: trim.settle,
                keep_inert: false,
                multiblade,
                changes: &changes,
                verbose,
            };
            cli::linear::modes(&request, &sweeps, &out)
        }
        Command::Sweep { sweep, out, jobs, gather, slurm, sbatch_options, chunk, chunks } => {
            let plan = cli::sweep::Sweep::from_file(&sweep)?;
            if gather {
                plan.gather(&out)
            } else if let Some(tasks) = slurm {
                plan.submit_slurm(&sweep, &out, tasks, &sbatch_options)
            } else {
                let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
                anyhow::ensure!(jobs >= 1, "--jobs must be at least 1");
                let chunk = chunk.zip(chunks);
                if let Some((k, n)) = chunk {
                    anyhow::ensure!(n >= 1 && k < n, "--chunk must be below --chunks");
                }
                plan.run(&out, jobs, chunk)
            }
        }
        Command::Export { system, ssp, fmu, inputs, outputs, parameters, model_identifier, lib_dir } => {
            let out = ssp.as_ref().or(fmu.as_ref()).expect("clap requires one");
            cli::outputs::require_json_system(&system, "export")?;
            cli::outputs::refuse_overwrite(out, &system)?;
            let description = SystemDescription::from_file(&system)?;
            let mut fmus = FmuCache::default();
            let resolved = description
                .resolve(|path| fmus.open(path).map(|f| f.model_description().clone()).map_err(|e| e.to_string()))?;
            if let Some(ssp) = ssp {
                let report = cosim::ssp::export(&system, &description, &resolved, &ssp).map_err(anyhow::Error::msg)?;
                say!(
                    "wrote {}: {} components, {} connections, {} parameter bindings",
                    ssp.display(),
                    report.components,
                    report.connections,
                    report.parameters
                );
                say!(
                    "kept in the rotorcraft-fmi annotation only (other tools do not see them): {}",
                    report.annotation_only.join(", ")
                );
            } else {
                let library = fmu_catalog::system_library(lib_dir.as_deref())?;
                let options = cosim::container::ExportOptions { inputs, outputs, parameters, model_identifier };
                let report = cosim::container::export(&system, &resolved, &library, &options, out)?;
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
            }
            Ok(())
        }
        Command::Inspect { fmu } => {
            // Reads the description only: works without loading the binary.
            let description = inspect::describe(&read_model_description(&fmu)?);
            say!("{}", description.trim_end());
            Ok(())
        }
        Command::Package { out, lib_dir } => {
            for path in fmu_catalog::package_all(&out, lib_dir.as_deref())? {
                say!("wrote {}", path.display());
            }
            Ok(())
        }
    }
}

impl SystemChanges {
    /// A plot title: `name`, and the changes when there are any.
    fn title(&self, name: &str) -> String {
        if self.set.is_empty() { name.to_string() } else { format!("{name} with {}", self.set.join(", ")) }
    }

    fn apply(&self, description: &mut SystemDescription) -> Result<()> {
        for assignment in &self.set {
            description.set_value(assignment)?;
        }
        Ok(())
    }
}

impl ExperimentChanges {
    fn apply(&self, description: &mut SystemDescription) -> Result<()> {
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
struct RunLimits {
    /// `--fmu-timeout`: the longest one FMI call may take.
    fmu_timeout: Option<std::time::Duration>,
    /// `--isolate`: every instance in a child process.
    isolate: bool,
}

impl RunLimits {
    fn new(fmu_timeout: Option<f64>, isolate: bool) -> Result<Self> {
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
/// fmu-host`), with `timeout` on every call of an isolated instance.
fn fmu_cache(timeout: Option<std::time::Duration>) -> FmuCache {
    match std::env::current_exe() {
        Ok(executable) => FmuCache::with_host(HostOptions { executable, timeout }),
        Err(_) => FmuCache::default(),
    }
}

/// Runs `description`, writing what `outputs` names. The CSV rows are written as they are
/// computed; on every end of the run (success, an error, SIGINT/SIGTERM) the CSV is flushed, a
/// MAT file is written with the rows so far, and the summary JSON says how the run ended.
fn run(
    mut description: SystemDescription,
    title: &str,
    inputs: &RunInputs,
    outputs: &OutputFiles,
    files: &ResultOptions,
    verbose: bool,
    limits: RunLimits,
) -> Result<()> {
    let checked = record_trim_residual(&mut description);
    if limits.isolate {
        for (_, fmu) in &mut description.fmus {
            fmu.isolate = true;
        }
    }
    let mut fmus = fmu_cache(limits.fmu_timeout);
    let system = description.resolve(|path| fmus.description(path).map_err(|e| e.to_string()))?;
    outputs.check_against(&description, &system, inputs.system_file())?;
    let mut columns = column_infos(&system);
    let experiment = system.experiment;
    let logger = Arc::new(StderrLogger::new(verbose));
    let mut master = Master::new(system, &mut fmus, logger)?;
    master.set_record_every(usize::try_from(files.record_every).unwrap_or(usize::MAX));

    // The trim-residual columns added for the check are not written.
    let added = checked.clone().unwrap_or_default();
    columns.retain(|c| !added.contains(&c.name));
    let names = master.recorded_names().to_vec();
    let keep = (0..names.len()).filter(|&c| !added.contains(&names[c])).collect();
    let csv = outputs.start_csv(&names, keep, &columns)?.map(Arc::new);
    if let Some(limit) = limits.fmu_timeout {
        let csv = csv.clone();
        process::start_watchdog(
            limit,
            Box::new(move || {
                // The writer thread holds the file only while it writes rows: wait up to a second.
                if let Some(csv) = &csv {
                    csv.flush_within(std::time::Duration::from_secs(1));
                }
            }),
        )
        .context("cannot start the --fmu-timeout watchdog")?;
    }
    process::install_interrupt_flag();

    let mut progress = Progress::new(experiment.steps() as u64, experiment.start, experiment.stop);
    let started = std::time::Instant::now();
    let mut all = Results::new(names, 0);
    let mut first = true;
    let outcome = master.run_into(&mut all, |t, row| {
        if !std::mem::take(&mut first) {
            progress.step(t);
        }
        if let Some(csv) = &csv {
            csv.push(t, row);
        }
    });
    progress.finish();
    let wall_seconds = started.elapsed().as_secs_f64();
    if outcome.is_ok() && checked.is_some() {
        warn_if_not_trimmed(&description, &mut fmus, &all);
    }
    let results = if added.is_empty() { all } else { all.without(&added) };
    let written = outputs.finish_results(csv.as_deref(), &results, &columns);
    let summary = master.summary(wall_seconds);
    let mut json = summary.to_json();
    json["inputs"] = inputs.to_json(&description);
    if let Err(e) = &outcome {
        json["stop_reason"] = e.to_string().into();
        json["error"] = format!("run of {title} failed: {e}").into();
        json["rows_written"] = results.time.len().into();
    }
    let write_summary = || -> Result<()> {
        if let Some(path) = &outputs.summary_json {
            std::fs::write(path, serde_json::to_string_pretty(&json)? + "\n")
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        Ok(())
    };
    if let Err(e) = outcome {
        // Results and summary first, so that a failed write does not hide the run's error.
        if let Err(w) = written.and_then(|()| write_summary()) {
            eprintln!("error: {w:#}");
        }
        match results.time.last() {
            Some(t) => {
                eprintln!("results so far: {} ({} rows, to t = {t} s)", outputs.results.display(), results.time.len())
            }
            None => {
                eprintln!("results so far: {} (header only: no communication point reached)", outputs.results.display())
            }
        }
        return Err(anyhow::Error::new(e).context(format!("run of {title} failed")));
    }
    written?;
    say!("{}", summary.to_text());
    say!("results: {} ({} variables)", outputs.results.display(), results.names.len());
    if let Some(path) = &outputs.plot {
        let options = PlotOptions {
            title: title.to_string(),
            variables: files.plot_vars.clone(),
            degrees: files.degrees,
            x_label: None,
        };
        plot_svg(&results, &columns, path, &options)?;
        say!("plot: {}", path.display());
    }
    write_summary()
}

/// For a system with a `trim` section, adds its airframe's `free.*` accelerations to the
/// recorded variables (when a list is given and lacks them), for [`warn_if_not_trimmed`];
/// returns the names added, to be dropped from the results again.
fn record_trim_residual(description: &mut SystemDescription) -> Option<Vec<String>> {
    let airframe = &description.trim.as_ref()?.airframe;
    let names: Vec<String> = RESIDUAL_NAMES.iter().map(|r| format!("{airframe}.{r}")).collect();
    let mut added = Vec::new();
    if let Some(outputs) = description.outputs.as_mut() {
        for name in names {
            if !outputs.contains(&name) {
                outputs.push(name.clone());
                added.push(name);
            }
        }
    }
    Some(added)
}

/// Warns when the run of a trimmable system did not start trimmed: its airframe accelerations
/// averaged over the first rotor revolution exceed ten times the trim tolerance (a swapped FMU
/// or changed parameter invalidates a stored trim).
fn warn_if_not_trimmed(description: &SystemDescription, fmus: &mut FmuCache, results: &cosim::master::Results) {
    let Some(spec) = &description.trim else { return };
    match start_residual(description, fmus, results) {
        Ok(Some(residual)) => {
            let (k, largest) = residual
                .iter()
                .enumerate()
                .fold((0, 0.0f64), |(k, m), (i, r)| if r.abs() > m { (i, r.abs()) } else { (k, m) });
            if largest > 10.0 * spec.tolerance {
                eprintln!(
                    "warning: the start is not trimmed: over the first rotor revolution the airframe's {} averages \
                     {:.3e} (trim tolerance {:.0e}); `orchestrator trim SYSTEM.json --out trimmed.json` gives a trimmed start",
                    RESIDUAL_NAMES[k], residual[k], spec.tolerance
                );
            }
        }
        Ok(None) => {}
        Err(e) => eprintln!("warning: cannot check whether the start is trimmed: {e}"),
    }
}

fn trim(
    system_path: &Path,
    condition: FlightCondition,
    method: JacobianMethod,
    changes: &SystemChanges,
    out: Option<&Path>,
    summary_json: Option<&Path>,
    verbose: bool,
) -> Result<()> {
    let mut description = SystemDescription::from_file(system_path)?;
    changes.apply(&mut description)?;
    if let Some(path) = out {
        cli::outputs::require_json_system(system_path, "trim --out")?;
        cli::outputs::refuse_overwrite(path, system_path)?;
    }
    let trim = solve_trim(&description, system_path, condition, method, verbose)?;
    if let Some(path) = summary_json {
        let text = serde_json::to_string_pretty(&trim.to_json())?;
        std::fs::write(path, text + "\n").with_context(|| format!("cannot write {}", path.display()))?;
    }
    if !trim.converged {
        let refused = out.map(|p| format!("; {} not written", p.display())).unwrap_or_default();
        anyhow::bail!("the trim did not converge to {:.1e} in {} iterations{refused}", trim.tolerance, trim.iterations);
    }
    if let Some(path) = out {
        let text = std::fs::read_to_string(system_path)?;
        let mut json: serde_json::Value = serde_json::from_str(&text)?;
        let to_dir = std::path::absolute(path)?.parent().map(Path::to_path_buf).unwrap_or_default();
        let to_dir = std::fs::canonicalize(&to_dir).unwrap_or(to_dir);
        trim.apply_json(&mut json, &description.base_dir, &to_dir)?;
        for assignment in &changes.set {
            cli::outputs::apply_set_to_json(&mut json, assignment)?;
        }
        std::fs::write(path, serde_json::to_string_pretty(&json)? + "\n")
            .with_context(|| format!("cannot write {}", path.display()))?;
        say!("trimmed system: {} (orchestrator run starts from the trim)", path.display());
    }
    Ok(())
}

/// Trims `description` (read from `system_path`) for `condition`, showing progress, and prints
/// the result.
fn solve_trim(
    description: &SystemDescription,
    system_path: &Path,
    condition: FlightCondition,
    method: JacobianMethod,
    verbose: bool,
) -> Result<orchestrator::trim::Trim> {
    let mut fmus = fmu_cache(None);
    let logger = Arc::new(StderrLogger::new(verbose));
    let mut trimmer = Trimmer::new(description, &mut fmus, logger)?;
    let start = trimmer.start_from_system();
    let spinner = cli::progress::Spinner::new();
    let trim = trimmer
        .trim(condition, start, method, |p| {
            spinner.say(&format!(
                "iteration {}: residual {:.2e}, {} trials, {} revolutions",
                p.iteration, p.residual, p.trials, p.revolutions
            ))
        })
        .with_context(|| format!("trim of {} failed", system_path.display()))?;
    spinner.finish();
    say!("{}", trim.to_text());
    Ok(trim)
}

/// The built-in scenario: examples/helicopter.json.
const BUILT_IN_HELICOPTER: &str = include_str!("../../examples/helicopter.json");

/// Lateral-cyclic step of the built-in scenario: size (rad) and time (s).
const BUILT_IN_STEP: (f64, f64) = (0.01, 1.0);

/// Packages our FMUs into `out_dir/fmus`, trims the built-in helicopter in hover, and flies it
/// for 4 s with a lateral-cyclic step (plotted with angles in degrees).
fn run_built_in(
    out_dir: &Path,
    changes: &SystemChanges,
    experiment: &ExperimentChanges,
    mut files: ResultOptions,
    verbose: bool,
    limits: RunLimits,
) -> Result<()> {
    let out_dir = std::path::absolute(out_dir).with_context(|| format!("bad --out-dir {}", out_dir.display()))?;
    let fmu_dir = out_dir.join("fmus");
    fmu_catalog::package_all(&fmu_dir, None).context("cannot package the built-in scenario's FMUs")?;
    let mut description = SystemDescription::from_str(BUILT_IN_HELICOPTER, std::env::current_dir()?)?;
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
    let logger = Arc::new(StderrLogger::new(verbose));
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
    run(description, &title, &inputs, &outputs, &files, verbose, limits)?;
    if let Some(path) = &outputs.summary_json {
        say!("summary: {}", path.display());
    }
    Ok(())
}
